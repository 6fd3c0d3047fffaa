/* Trace format chakra: reading one rank's file (the protobuf wire
 * format: varints, fixed-width and length-delimited fields; the Node
 * fields and AttributeProto values fabemu reads; tg_trace_chakra.c says
 * which and what they mean). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tg_trace_chakra_int.h"

/* ---- the protobuf wire format ---- */

struct ck_buf {
	const uint8_t *p, *end;
};

static int ck_varint(struct ck_buf *b, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned shift = 0; shift < 64 && b->p < b->end; shift += 7) {
		uint8_t c = *b->p++;

		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -EINVAL;
}

static int ck_fixed(struct ck_buf *b, unsigned n, uint64_t *v)
{
	uint64_t x = 0;

	if ((size_t)(b->end - b->p) < n)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		x |= (uint64_t)b->p[i] << (8 * i);
	b->p += n;
	*v = x;
	return 0;
}

/* A length-delimited field's bytes into @sub. */
static int ck_sub(struct ck_buf *b, struct ck_buf *sub)
{
	uint64_t len;

	if (ck_varint(b, &len) != 0 || len > (uint64_t)(b->end - b->p))
		return -EINVAL;
	sub->p = b->p;
	sub->end = b->p + len;
	b->p += len;
	return 0;
}

/* Skip a field of wire type @wt. */
static int ck_skip(struct ck_buf *b, uint32_t wt)
{
	struct ck_buf sub;
	uint64_t v;

	switch (wt) {
	case 0:
		return ck_varint(b, &v);
	case 1:
		return ck_fixed(b, 8, &v);
	case 2:
		return ck_sub(b, &sub);
	case 5:
		return ck_fixed(b, 4, &v);
	default:
		return -EINVAL; /* groups (3, 4) are not in the schema */
	}
}

/* An integer value of wire type @wt for field @f of an AttributeProto. */
static int ck_attr_int(struct ck_buf *b, uint32_t f, uint32_t wt, int64_t *out)
{
	uint64_t v;

	if (wt == 0 && ck_varint(b, &v) == 0) {
		if (f == 15 || f == 17) /* sint: zigzag */
			*out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
		else if (f == 7) /* int32: sign from the low 32 bits */
			*out = (int32_t)(uint32_t)v;
		else
			*out = (int64_t)v;
		return 0;
	}
	if (wt == 5 && ck_fixed(b, 4, &v) == 0) {
		*out = f == 23 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
		return 0;
	}
	if (wt == 1 && ck_fixed(b, 8, &v) == 0) {
		*out = (int64_t)v;
		return 0;
	}
	return -EINVAL;
}

/* One AttributeProto into @n (the names read; others skipped). */
static int ck_attr(struct ck_buf *b, struct tg_ck_node *n)
{
	static const char *const names[] = { "comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag" };
	char name[32] = "";
	int64_t ival = 0;
	bool has_int = false;
	struct ck_buf s = { 0 };
	bool has_str = false;

	while (b->p < b->end) {
		uint64_t key;
		uint32_t f, wt;

		if (ck_varint(b, &key) != 0)
			return -EINVAL;
		f = (uint32_t)(key >> 3);
		wt = (uint32_t)(key & 7);
		if (f == 1 && wt == 2) {
			struct ck_buf nm;

			if (ck_sub(b, &nm) != 0)
				return -EINVAL;
			snprintf(name, sizeof(name), "%.*s", (int)(nm.end - nm.p < 31 ? nm.end - nm.p : 31),
				 (const char *)nm.p);
		} else if (f >= 7 && f <= 25 && f % 2 == 1 && wt != 2) {
			if (ck_attr_int(b, f, wt, &ival) != 0)
				return -EINVAL;
			has_int = true;
		} else if (f == 29 && wt == 2) {
			if (ck_sub(b, &s) != 0)
				return -EINVAL;
			has_str = true;
		} else if (ck_skip(b, wt) != 0) {
			return -EINVAL;
		}
	}
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int64_t *slot[] = { &n->comm_type, &n->comm_size, &n->comm_src, &n->comm_dst, &n->comm_tag };

		if (has_int && strcmp(name, names[i]) == 0) {
			*slot[i] = ival;
			n->has |= 1u << i;
		}
	}
	if (has_str && strcmp(name, "pg_name") == 0) {
		size_t len = (size_t)(s.end - s.p);

		if (len >= CK_PG_BYTES)
			len = CK_PG_BYTES - 1;
		memcpy(n->pg, s.p, len);
		n->pg[len] = 0;
		n->has |= CK_HAS_PG;
	}
	return 0;
}

static int ck_dep_push(struct tg_ck_rank *r, uint64_t id)
{
	if (r->n_dep_ids == TG_TRACE_MAX_DEPS)
		return -E2BIG;
	if (tg_trace_grow((void **)&r->dep_ids, &r->cap_dep_ids, r->n_dep_ids, sizeof(*r->dep_ids)) != 0)
		return -ENOMEM;
	r->dep_ids[r->n_dep_ids++] = id;
	return 0;
}

/* A Node's fields into @n, its dependencies onto @r's list. */
static int ck_node_read(struct ck_buf *b, struct tg_ck_rank *r, struct tg_ck_node *n)
{
	int rc;

	n->dep_off = r->n_dep_ids;
	while (b->p < b->end) {
		uint64_t key, v;
		uint32_t f, wt;

		if (ck_varint(b, &key) != 0)
			return -EINVAL;
		f = (uint32_t)(key >> 3);
		wt = (uint32_t)(key & 7);
		if ((f == 1 || f == 3 || f == 7) && wt == 0) {
			if (ck_varint(b, &v) != 0)
				return -EINVAL;
			if (f == 1)
				n->id = v;
			else if (f == 3)
				n->type = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
			else
				n->dur_us = v;
		} else if ((f == 4 || f == 5) && wt == 0) {
			if (ck_varint(b, &v) != 0)
				return -EINVAL;
			if ((rc = ck_dep_push(r, v)) != 0)
				return rc;
		} else if ((f == 4 || f == 5) && wt == 2) {
			struct ck_buf packed;

			if (ck_sub(b, &packed) != 0)
				return -EINVAL;
			while (packed.p < packed.end) {
				if (ck_varint(&packed, &v) != 0)
					return -EINVAL;
				if ((rc = ck_dep_push(r, v)) != 0)
					return rc;
			}
		} else if (f == 10 && wt == 2) {
			struct ck_buf a;

			if (ck_sub(b, &a) != 0 || ck_attr(&a, n) != 0)
				return -EINVAL;
		} else if (ck_skip(b, wt) != 0) {
			return -EINVAL;
		}
	}
	n->n_deps = r->n_dep_ids - n->dep_off;
	return 0;
}


int tg_ck_rank_read(struct tg_ck_rank *r, char err[CFG_ERR_BYTES])
{
	char why[CFG_WHY_BYTES];
	FILE *f = cfg_fopen_regular(r->path, why);
	struct ck_buf b;
	struct stat st;
	uint8_t *data = NULL;
	uint32_t no = 0;
	bool meta = true;
	int rc = -EINVAL;

	if (!f)
		return tg_trace_errf_at(err, r->path, 0, 1, "cannot open this rank's trace: %s", why);
	if (fstat(fileno(f), &st) != 0 || (uint64_t)st.st_size > CK_MAX_FILE_BYTES) {
		fclose(f);
		return tg_trace_errf_at(err, r->path, 0, 1, "a rank's Chakra trace of more than 1 GiB (or unreadable)");
	}
	if (!(data = malloc(st.st_size ? (size_t)st.st_size : 1))) {
		fclose(f);
		return -ENOMEM;
	}
	if (fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fclose(f);
		free(data);
		return tg_trace_errf_at(err, r->path, 0, 1, "cannot read this rank's trace");
	}
	fclose(f);
	if (st.st_size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
		free(data);
		return tg_trace_errf_at(err, r->path, 0, 1, "a gzip-compressed trace: gunzip it first");
	}
	b.p = data;
	b.end = data + st.st_size;
	while (b.p < b.end) {
		struct ck_buf msg;
		struct tg_ck_node *n;

		if (ck_sub(&b, &msg) != 0) {
			rc = tg_trace_errf_at(err, r->path, no + 1, 1, "a message's length runs past the end of the file (not a Chakra trace?)");
			goto out;
		}
		if (meta) { /* the GlobalMetadata */
			meta = false;
			continue;
		}
		no++;
		if (r->n_nodes == TG_TRACE_MAX_OPS) {
			rc = -E2BIG;
			goto out;
		}
		if (tg_trace_grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes, sizeof(*r->nodes)) != 0) {
			rc = -ENOMEM;
			goto out;
		}
		n = &r->nodes[r->n_nodes];
		memset(n, 0, sizeof(*n));
		n->no = no;
		if ((rc = ck_node_read(&msg, r, n)) != 0) {
			if (rc == -EINVAL)
				rc = tg_trace_errf_at(err, r->path, no, 1, "a node that is not valid protobuf");
			goto out;
		}
		r->n_nodes++;
	}
	if (meta)
		rc = tg_trace_errf_at(err, r->path, 0, 1, "an empty file: a Chakra trace starts with its metadata");
	else
		rc = 0;
out:
	free(data);
	return rc;
}
