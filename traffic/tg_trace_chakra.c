/* Trace format `chakra`: MLCommons Chakra execution traces (the input of
 * ASTRA-sim), one file per rank, as a dependency graph of compute phases,
 * point-to-point sends and collectives.
 *
 * The format (chakra, schema/protobuf/et_def.proto, and its protolib):
 * a file is a sequence of protobuf messages, each after its length as a
 * varint; the first is the GlobalMetadata, every other a Node: id (field
 * 1), type (3: COMP_NODE 4, COMM_SEND_NODE 5, COMM_RECV_NODE 6,
 * COMM_COLL_NODE 7, others take no time here), ctrl_deps (4) and
 * data_deps (5) (ids of the same file), duration_micros (7) and attributes
 * (10: name (1) and one value: int32 7, int64 9, uint32 11, uint64 13,
 * sint32 15, sint64 17, fixed32 19, fixed64 21, sfixed32 23, sfixed64 25,
 * bool 27, string 29). The attributes read: comm_type (CollectiveCommType:
 * ALL_REDUCE 0, ALL_GATHER 2, BROADCAST 5, ALL_TO_ALL 6, REDUCE_SCATTER 7,
 * REDUCE_SCATTER_BLOCK 8, BARRIER 9), comm_size (bytes), comm_src and
 * comm_dst (ranks), comm_tag, pg_name (a collective's process group).
 *
 * Here: rank r is participant r of the trace's hosts (its `hosts` key,
 * in rank order) and its file is the file key with "{rank}" replaced by r.
 * A compute node takes its duration on its rank; the k-th send from rank
 * a to b with tag t is the k-th receive at b from a with tag t: one
 * message of comm_size bytes, posted when the send's dependencies are
 * done, which the receive node (and whatever waits for the send) waits
 * for; the k-th collective of a process group (pg_name; without one, all
 * ranks) at every rank that has one is one instance among those ranks
 * (the collective kind's algorithms: ring, direct for all-to-all), each
 * rank's part starting when its node's dependencies are done, and what
 * waits for the node waiting for the instance's end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_trace_chakra_int.h"

/* ---- ids ---- */

/* A node's id and place, for sorting by id. */
struct ck_key {
	uint64_t id;
	uint32_t i;
};

static int ck_key_cmp(const void *a, const void *b)
{
	const struct ck_key *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Index nodes by id; a repeated id is an error. */
static int ck_index(struct tg_ck_rank *r, char err[CFG_ERR_BYTES])
{
	struct ck_key *k = malloc(sizeof(*k) * (r->n_nodes ? r->n_nodes : 1));
	int rc = 0;

	if (!k || !(r->by_id = malloc(sizeof(*r->by_id) * (r->n_nodes ? r->n_nodes : 1)))) {
		free(k);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < r->n_nodes; i++)
		k[i] = (struct ck_key){ .id = r->nodes[i].id, .i = i };
	if (r->n_nodes)
		qsort(k, r->n_nodes, sizeof(*k), ck_key_cmp);
	for (uint32_t i = 0; i < r->n_nodes; i++)
		r->by_id[i] = k[i].i;
	for (uint32_t i = 1; i < r->n_nodes && rc == 0; i++)
		if (k[i].id == k[i - 1].id)
			rc = tg_trace_errf_at(err, r->path, r->nodes[k[i].i].no, 1, "node id %llu: a second node with this id",
				     (unsigned long long)k[i].id);
	free(k);
	return rc;
}

/* The node of @r with @id, or NULL. */
static const struct tg_ck_node *ck_find(const struct tg_ck_rank *r, uint64_t id)
{
	uint32_t lo = 0, hi = r->n_nodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uint64_t m = r->nodes[r->by_id[mid]].id;

		if (m == id)
			return &r->nodes[r->by_id[mid]];
		if (m < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- matching ---- */

/* A send, a receive or a collective node, for matching. */
struct ck_rec {
	uint32_t a, b;          /* send: from, to; receive: from (src), at; collective: 0, rank */
	int64_t tag;            /* send, receive: comm_tag; collective: its group's index */
	uint32_t seq;           /* its number among the same (a, b, tag), in file order */
	struct tg_ck_node *n;   /* the node */
	uint32_t rank;          /* the file it is in */
};

static int ck_rec_cmp(const void *x, const void *y)
{
	const struct ck_rec *p = x, *q = y;

	if (p->tag != q->tag)
		return p->tag < q->tag ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* Number @v's records by (tag, a, b) in the order given (file order). */
static void ck_number(struct ck_rec *v, uint32_t n)
{
	/* Sorting by (tag, a, b, place given) and counting runs: the place
	 * given is seq on entry. */
	if (!n)
		return;
	qsort(v, n, sizeof(*v), ck_rec_cmp);
	for (uint32_t i = 0; i < n; i++)
		v[i].seq = i && v[i].tag == v[i - 1].tag && v[i].a == v[i - 1].a && v[i].b == v[i - 1].b
				   ? v[i - 1].seq + 1 : 0;
}

/* The collective kind of Chakra's CollectiveCommType @t, or -1. */
static int ck_coll_kind(int64_t t)
{
	switch (t) {
	case 0:
		return TG_COLL_ALL_REDUCE;
	case 2:
		return TG_COLL_ALL_GATHER;
	case 5:
		return TG_COLL_BROADCAST;
	case 6:
		return TG_COLL_ALL_TO_ALL;
	case 7:
	case 8:
		return TG_COLL_REDUCE_SCATTER;
	case 9:
		return TG_COLL_ALL_REDUCE; /* a barrier: an all-reduce of no bytes */
	default:
		return -1;
	}
}

/* Check one rank's communication nodes' attributes. */
static int ck_check_comm(const struct tg_ck_rank *r, uint32_t rank, uint32_t n_ranks, char err[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < r->n_nodes; i++) {
		const struct tg_ck_node *n = &r->nodes[i];
		bool send = n->type == CK_SEND, recv = n->type == CK_RECV;
		int64_t peer = send ? n->comm_dst : n->comm_src;

		if (n->type == CK_COMP && n->dur_us > UINT64_C(1000000000000))
			return tg_trace_errf_at(err, r->path, n->no, 1, "node id %llu: a compute node of more than 1000000 s",
				       (unsigned long long)n->id);
		if (!send && !recv && n->type != CK_COLL)
			continue;
		if (n->type == CK_COLL && (!(n->has & CK_HAS_TYPE) || ck_coll_kind(n->comm_type) < 0))
			return tg_trace_errf_at(err, r->path, n->no, 1, "node id %llu: a collective of comm_type %lld: modelled are all-reduce (0), all-gather (2), broadcast (5), all-to-all (6), reduce-scatter (7, 8) and barrier (9)",
				       (unsigned long long)n->id, (long long)n->comm_type);
		if ((n->type != CK_COLL || n->comm_type != 9) &&
		    (!(n->has & CK_HAS_SIZE) || n->comm_size < 0 || (uint64_t)n->comm_size > TG_WL_MAX_MSG_BYTES))
			return tg_trace_errf_at(err, r->path, n->no, 1, "node id %llu: comm_size missing or not 0..%llu bytes",
				       (unsigned long long)n->id, (unsigned long long)TG_WL_MAX_MSG_BYTES);
		if ((send || recv) && (!(n->has & (send ? CK_HAS_DST : CK_HAS_SRC)) || peer < 0 ||
				       peer >= n_ranks || (uint32_t)peer == rank))
			return tg_trace_errf_at(err, r->path, n->no, 1, "node id %llu: %s missing, or not another rank (0..%u)",
				       (unsigned long long)n->id, send ? "comm_dst" : "comm_src", n_ranks - 1);
	}
	return 0;
}

/* ---- the trace ---- */


void tg_ck_free(struct tg_ck_trace *t)
{
	for (uint32_t r = 0; t->ranks && r < t->n; r++) {
		free(t->ranks[r].nodes);
		free(t->ranks[r].dep_ids);
		free(t->ranks[r].by_id);
	}
	free(t->ranks);
	free(t->pgs);
	free(t->pg_slots);
}

/* The index of process group @name (added when new). */
static uint32_t ck_pg_hash(const char *name)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h;
}

static int ck_pg(struct tg_ck_trace *t, const char *name, uint32_t *out)
{
	uint32_t slot;

	/* A table of twice the groups at least, open addressing. */
	if (2 * (t->n_pgs + 1) > t->n_pg_slots) {
		uint32_t n = t->n_pg_slots ? 2 * t->n_pg_slots : 64;
		uint32_t *v = calloc(n, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (uint32_t i = 0; i < t->n_pgs; i++) {
			for (slot = ck_pg_hash(t->pgs[i]) & (n - 1); v[slot]; slot = (slot + 1) & (n - 1))
				;
			v[slot] = i + 1;
		}
		free(t->pg_slots);
		t->pg_slots = v;
		t->n_pg_slots = n;
	}
	for (slot = ck_pg_hash(name) & (t->n_pg_slots - 1); t->pg_slots[slot];
	     slot = (slot + 1) & (t->n_pg_slots - 1))
		if (strcmp(t->pgs[t->pg_slots[slot] - 1], name) == 0) {
			*out = t->pg_slots[slot] - 1;
			return 0;
		}
	if (tg_trace_grow((void **)&t->pgs, &t->cap_pgs, t->n_pgs, sizeof(*t->pgs)) != 0)
		return -ENOMEM;
	snprintf(t->pgs[t->n_pgs], CK_PG_BYTES, "%s", name);
	t->pg_slots[slot] = t->n_pgs + 1;
	*out = t->n_pgs++;
	return 0;
}

/* Rank @r's file name: in->path with "{rank}" replaced by @r. */
static int ck_path(const struct tg_trace_in *in, uint32_t r, char out[CK_PATH_BYTES])
{
	const char *at = strstr(in->path, "{rank}");
	int n = at ? snprintf(out, CK_PATH_BYTES, "%.*s%u%s", (int)(at - in->path), in->path, r, at + 6)
		   : snprintf(out, CK_PATH_BYTES, "%s", in->path);

	return n < 0 || n >= CK_PATH_BYTES ? -ENAMETOOLONG : 0;
}

/* The operation that what waits for node @n of a file waits for: a
 * collective's instance, else its own. */
static uint32_t ck_done_op(const struct tg_ck_node *n)
{
	return n->type == CK_COLL ? n->match : n->op;
}

/* Match the sends with the receives (n->match of a send: its message's
 * operation, which is the send's own; of a receive: the send's). */
static int ck_match_p2p(struct tg_ck_trace *t, char err[CFG_ERR_BYTES])
{
	struct ck_rec *s = NULL, *v = NULL;
	uint32_t ns = 0, nr = 0, cs = 0, cr = 0;
	int rc = 0;

	for (uint32_t r = 0; r < t->n && rc == 0; r++)
		for (uint32_t i = 0; i < t->ranks[r].n_nodes && rc == 0; i++) {
			struct tg_ck_node *n = &t->ranks[r].nodes[i];
			bool send = n->type == CK_SEND;
			struct ck_rec x = { .a = send ? r : (uint32_t)n->comm_src,
					    .b = send ? (uint32_t)n->comm_dst : r,
					    .tag = n->has & CK_HAS_TAG ? n->comm_tag : 0, .n = n, .rank = r };

			if (!send && n->type != CK_RECV)
				continue;
			x.seq = send ? ns : nr;
			if (tg_trace_grow(send ? (void **)&s : (void **)&v, send ? &cs : &cr, send ? ns : nr,
					  sizeof(x)) != 0) {
				rc = -ENOMEM;
				break;
			}
			if (send)
				s[ns++] = x;
			else
				v[nr++] = x;
		}
	if (rc == 0) {
		ck_number(s, ns);
		ck_number(v, nr);
		for (uint32_t i = 0, j = 0; (i < ns || j < nr) && rc == 0;) {
			int c = i == ns ? 1 : j == nr ? -1 : ck_rec_cmp(&s[i], &v[j]);

			if (c == 0) {
				if (s[i].n->comm_size != v[j].n->comm_size)
					rc = tg_trace_errf_at(err, t->ranks[v[j].rank].path, v[j].n->no, 1,
						     "node id %llu: receives %lld bytes where rank %u's send (node id %llu) sends %lld",
						     (unsigned long long)v[j].n->id, (long long)v[j].n->comm_size, s[i].a,
						     (unsigned long long)s[i].n->id, (long long)s[i].n->comm_size);
				v[j].n->match = s[i].n->op;
				i++;
				j++;
			} else {
				const struct ck_rec *x = c < 0 ? &s[i] : &v[j];

				rc = tg_trace_errf_at(err, t->ranks[x->rank].path, x->n->no, 1,
					     "node id %llu: a %s rank %u (tag %lld) that no %s matches", (unsigned long long)x->n->id,
					     c < 0 ? "send to" : "receive from", c < 0 ? x->b : x->a, (long long)x->tag,
					     c < 0 ? "receive there" : "send from there");
			}
		}
	}
	free(s);
	free(v);
	return rc;
}

/* Match the collectives into instances: n->match of each member's node is
 * its instance's operation, numbered from @next_op in the order of
 * (group, k); their records into *@out (sorted), *@n_out. */
static int ck_match_colls(struct tg_ck_trace *t, uint32_t next_op, struct ck_rec **out, uint32_t *n_out,
			  uint32_t *n_inst, char err[CFG_ERR_BYTES])
{
	struct ck_rec *v = NULL;
	uint32_t n = 0, cap = 0, *members = NULL;
	int rc = 0;

	*n_inst = 0;
	for (uint32_t r = 0; r < t->n && rc == 0; r++)
		for (uint32_t i = 0; i < t->ranks[r].n_nodes && rc == 0; i++) {
			struct tg_ck_node *nd = &t->ranks[r].nodes[i];
			uint32_t pg;

			if (nd->type != CK_COLL)
				continue;
			if ((rc = ck_pg(t, nd->has & CK_HAS_PG ? nd->pg : "", &pg)) != 0 ||
			    (rc = tg_trace_grow((void **)&v, &cap, n, sizeof(*v))) != 0)
				break;
			v[n++] = (struct ck_rec){ .a = 0, .b = r, .tag = pg, .seq = n, .n = nd, .rank = r };
		}
	if (rc != 0)
		goto out;
	/* Number each rank's collectives of a group: sort by (group, rank,
	 * file order) then renumber, then order by (group, k, rank). */
	ck_number(v, n);
	for (uint32_t i = 0; i < n; i++) {
		v[i].a = v[i].seq; /* k */
		v[i].seq = v[i].b; /* rank: the last key */
		v[i].b = 0;
	}
	if (n)
		qsort(v, n, sizeof(*v), ck_rec_cmp);
	/* Members of each group: the ranks with a collective of it. */
	if (!(members = calloc(t->n_pgs ? t->n_pgs : 1, sizeof(*members)))) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++)
		if (v[i].a == 0)
			members[v[i].tag]++;
	for (uint32_t i = 0; i < n && rc == 0;) {
		uint32_t j = i;

		while (j < n && v[j].tag == v[i].tag && v[j].a == v[i].a)
			j++;
		for (uint32_t k = i; k < j && rc == 0; k++) {
			const struct tg_ck_node *x = v[k].n, *y = v[i].n;

			if (x->comm_type != y->comm_type || x->comm_size != y->comm_size)
				rc = tg_trace_errf_at(err, t->ranks[v[k].rank].path, x->no, 1,
					     "node id %llu: collective %u of process group '%s' is comm_type %lld of %lld bytes here, comm_type %lld of %lld bytes at rank %u",
					     (unsigned long long)x->id, v[k].a, t->pgs[v[k].tag], (long long)x->comm_type,
					     (long long)x->comm_size, (long long)y->comm_type, (long long)y->comm_size,
					     v[i].rank);
			v[k].n->match = next_op + *n_inst;
		}
		if (rc == 0 && j - i != members[v[i].tag])
			rc = tg_trace_errf_at(err, t->ranks[v[i].rank].path, v[i].n->no, 1,
				     "node id %llu: collective %u of process group '%s' is at %u of its %u ranks",
				     (unsigned long long)v[i].n->id, v[i].a, t->pgs[v[i].tag], j - i,
				     members[v[i].tag]);
		(*n_inst)++;
		i = j;
	}
out:
	free(members);
	if (rc != 0) {
		free(v);
		return rc;
	}
	*out = v;
	*n_out = n;
	return 0;
}

int tg_ck_build(struct tg_ck_trace *t, const struct tg_trace_in *in, struct tg_trace *out,
		char err[CFG_ERR_BYTES])
{
	struct ck_rec *colls = NULL;
	uint32_t n_colls = 0, n_inst = 0, next = 0;
	int rc = 0;

	for (uint32_t r = 0; r < t->n && rc == 0; r++) {
		if ((rc = ck_index(&t->ranks[r], err)) == 0)
			rc = ck_check_comm(&t->ranks[r], r, t->n, err);
		for (uint32_t i = 0; rc == 0 && i < t->ranks[r].n_nodes; i++)
			t->ranks[r].nodes[i].op = next++;
	}
	if (rc == 0)
		rc = ck_match_p2p(t, err);
	if (rc == 0)
		rc = ck_match_colls(t, next, &colls, &n_colls, &n_inst, err);
	/* The operations, in the order numbered: each node, then each
	 * instance. */
	for (uint32_t r = 0; r < t->n && rc == 0; r++) {
		const struct tg_ck_rank *rk = &t->ranks[r];

		for (uint32_t i = 0; i < rk->n_nodes && rc == 0; i++) {
			const struct tg_ck_node *n = &rk->nodes[i];
			struct tg_trace_op op = { .kind = TG_TRACE_JOIN, .src = in->hosts[r], .line = n->no };

			if (n->type == CK_COMP) {
				op.kind = TG_TRACE_COMPUTE;
				op.dur_ps = n->dur_us * UINT64_C(1000000);
			} else if (n->type == CK_SEND) {
				op.kind = TG_TRACE_XFER;
				op.op = TG_OP_SEND;
				op.dscp = in->dscp;
				op.dst = in->hosts[n->comm_dst];
				op.bytes = (uint64_t)n->comm_size;
			}
			if ((rc = tg_trace_push(out, &op)) != 0)
				break;
			for (uint32_t k = 0; k < n->n_deps && rc == 0; k++) {
				const struct tg_ck_node *d = ck_find(rk, rk->dep_ids[n->dep_off + k]);

				if (!d)
					rc = tg_trace_errf_at(err, rk->path, n->no, 1, "node id %llu: depends on node id %llu, which this file does not have",
						     (unsigned long long)n->id, (unsigned long long)rk->dep_ids[n->dep_off + k]);
				else
					rc = tg_trace_dep(out, ck_done_op(d));
			}
			if (rc == 0 && n->type == CK_RECV)
				rc = tg_trace_dep(out, n->match);
		}
	}
	/* Each instance: its kind and S, waiting for its members' gates in
	 * rank order (colls is by group, k, rank). */
	for (uint32_t i = 0; i < n_colls && rc == 0;) {
		uint32_t j = i;
		const struct tg_ck_node *n = colls[i].n;
		struct tg_trace_op op = { .kind = TG_TRACE_COLL, .op = (uint8_t)ck_coll_kind(n->comm_type),
					  .bytes = n->comm_type == 9 ? 0 : (uint64_t)n->comm_size, .line = n->no,
					  .dscp = in->dscp };

		if ((rc = tg_trace_push(out, &op)) != 0)
			break;
		while (j < n_colls && colls[j].tag == colls[i].tag && colls[j].a == colls[i].a && rc == 0)
			rc = tg_trace_dep(out, colls[j++].n->op);
		i = j;
	}
	if (rc == -E2BIG)
		rc = tg_trace_errf(err, in, 0, 0, "a trace of more than %u operations or %u dependencies",
				   TG_TRACE_MAX_OPS, TG_TRACE_MAX_DEPS);
	free(colls);
	return rc;
}


static int ck_read(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	struct tg_ck_trace t = { 0 };
	int rc = 0;

	if (in->n_hosts == 0 || in->n_hosts > CK_MAX_RANKS)
		return tg_trace_errf(err, in, 0, 0, "a Chakra trace needs 1..%u ranks (its hosts, in rank order)",
				     CK_MAX_RANKS);
	if (in->n_hosts > 1 && !strstr(in->path, "{rank}")) {
		cfg_errorf(err, in->at, "a Chakra trace of %u ranks (hosts) is one file a rank: name them with {rank} (trace.{rank}.et)",
			   in->n_hosts);
		return -EINVAL;
	}
	t.n = in->n_hosts;
	if (!(t.ranks = calloc(t.n, sizeof(*t.ranks))))
		return -ENOMEM;
	for (uint32_t r = 0; r < t.n && rc == 0; r++) {
		if (ck_path(in, r, t.ranks[r].path) != 0)
			rc = tg_trace_errf(err, in, 0, 0, "rank %u's file name is too long", r);
		else
			rc = tg_ck_rank_read(&t.ranks[r], err);
	}
	if (rc == 0)
		rc = tg_ck_build(&t, in, out, err);
	tg_ck_free(&t);
	return rc;
}

const struct tg_trace_format tg_trace_chakra_format = {
	.kind = { "chakra", "MLCommons Chakra execution traces (ASTRA-sim's input), one file a rank: compute nodes, sends and collectives with their dependencies" },
	.read = ck_read,
	.takes = TG_TRACE_FILES | TG_TRACE_COLLS,
	.file_noun = "a Chakra trace",
};
