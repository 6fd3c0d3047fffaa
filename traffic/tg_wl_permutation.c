/* The `permutation` workload kind: every host of a set sends one message
 * to a distinct other host of the set: a random derangement drawn from
 * the workload's own RNG stream (stable under edits of other workloads),
 * or with `stride: s` host i of the set to host i + s (mod the set's
 * size), the Stride(s) pattern of Al-Fares et al. (SIGCOMM 2008). */
#include <errno.h>
#include <stdlib.h>

#include "tg_wl_int.h"

/* The stream of workload w is (seed, TG_WL_PERM_STREAM + w). */
#define TG_WL_PERM_STREAM UINT64_C(0x7261666669630000)

struct tg_wl_perm {
	struct tg_wl_proto proto; /* first: the prototype table reads it here */
	uint32_t *hosts;          /* the set (malloc'd) */
	uint32_t n_hosts;         /* its size */
	const struct cfg_node *stride; /* the stride key, or NULL: random */
};

static int tg_wl_perm_hosts(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_perm *p = params;
	int rc = tg_wl_eps(p->proto.ctx->topo, n, &p->hosts, &p->n_hosts, err);

	if (rc == 0 && p->n_hosts < 2) {
		cfg_errorf(err, n, "a permutation needs at least 2 hosts (got %u)", p->n_hosts);
		return -EINVAL;
	}
	return rc;
}

/* Read after the set, whose size bounds it. */
static int tg_wl_perm_stride(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	((struct tg_wl_perm *)params)->stride = n;
	return 0;
}

static const struct cfg_key tg_wl_perm_keys[] = {
	{ "hosts", CFG_KEY_CUSTOM, "all", .read = tg_wl_perm_hosts,
	  .doc = "all or a list of host names: the set, at least 2, no repeats" },
	{ "stride", CFG_KEY_CUSTOM, NULL, .read = tg_wl_perm_stride,
	  .doc = "1..(set size - 1): host i of the set sends to host i + stride; absent: a random derangement" },
};

static const struct cfg_table tg_wl_perm_table = {
	.section = "traffic",
	.keys = tg_wl_perm_keys,
	.n_keys = sizeof(tg_wl_perm_keys) / sizeof(tg_wl_perm_keys[0]),
};

static int tg_wl_perm_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct tg_wl_perm p = { 0 };
	const struct cfg_bind b[] = {
		{ &tg_wl_common_table, &p },
		{ &tg_wl_proto_table, &p.proto },
		{ &tg_wl_perm_table, &p },
	};
	struct rng rng;
	int rc;

	tg_wl_proto_init(&p.proto, c);
	rc = cfg_schema_read(c->doc, it, "workload", b, 3, err);
	if (rc == 0) {
		/* A message per host, each pair its own connection. */
		struct tg_wl_est est = { .msgs = p.n_hosts, .conns = p.n_hosts, .lower = "fewer hosts" };
		bool gpus = false;

		for (uint32_t i = 0; i < p.n_hosts; i++)
			gpus = gpus || p.hosts[i] >= c->topo->n_eps;
		rc = tg_wl_admit(c, it, "permutation", &est, gpus, err);
	}
	if (rc == 0 && p.stride) {
		uint64_t s;

		if ((rc = cfg_u64(p.stride, 1, p.n_hosts - 1, &s, err)) == 0)
			rc = tg_stride(p.hosts, p.n_hosts, (uint32_t)s, &p.proto.msg, c->msgs, c->n_msgs);
	} else if (rc == 0) {
		rng_init(&rng, c->seed, TG_WL_PERM_STREAM + c->index);
		rc = tg_permutation(&rng, p.hosts, p.n_hosts, &p.proto.msg, c->msgs, c->n_msgs);
	}
	free(p.hosts);
	return rc;
}

static const struct cfg_table *const tg_wl_perm_tables[] = {
	&tg_wl_common_table,
	&tg_wl_proto_table,
	&tg_wl_perm_table,
	NULL,
};

const struct tg_wl_kind tg_wl_permutation_kind = {
	.kind = { "permutation", "every host sends to a distinct other one (random, or a stride)", &tg_wl_perm_table, sizeof(struct tg_wl_perm) },
	.tables = tg_wl_perm_tables,
	.expand = tg_wl_perm_expand,
};
