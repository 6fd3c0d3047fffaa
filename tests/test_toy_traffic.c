/* CUnit suite proving that a workload kind and a collective algorithm
 * are each one file plus one registry line: a toy workload kind
 * ("toy-pair": one message of `bytes` from `from` to `to`) and a toy
 * all-gather algorithm ("toy-direct": every rank sends its chunk straight
 * to every other) are registered here through tg_wl_register and
 * tg_coll_alg_register alone, then loaded by exp_load_string and run,
 * and checked against what their keys say analytically. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "fabric.h"
#include "tg.h"
#include "tg_coll_int.h"
#include "tg_wl_int.h"
#include "topo.h"
#include "test.h"

/* ---- the toy workload kind: one message ---- */

/* What its keys give. */
struct toy_pair {
	const struct tg_wl_ctx *ctx; /* the experiment (host names) */
	uint32_t from;               /* sender, an endpoint */
	uint32_t to;                 /* receiver */
	uint64_t bytes;              /* message length */
};

static int toy_pair_from(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct toy_pair *p = params;

	return tg_wl_ep(p->ctx->topo, n, &p->from, err);
}

static int toy_pair_to(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct toy_pair *p = params;

	return tg_wl_ep(p->ctx->topo, n, &p->to, err);
}

static const struct cfg_key toy_pair_keys[] = {
	{ "from", CFG_KEY_CUSTOM, .required = "sender host", .read = toy_pair_from, .doc = "sender" },
	{ "to", CFG_KEY_CUSTOM, .required = "receiver host", .read = toy_pair_to, .doc = "receiver" },
	{ "bytes", CFG_KEY_SIZE, .required = "message length", .off = offsetof(struct toy_pair, bytes),
	  .size = 8, .max = TG_WL_MAX_MSG_BYTES, .doc = "message length" },
};

static const struct cfg_table toy_pair_table = {
	.section = "traffic",
	.keys = toy_pair_keys,
	.n_keys = sizeof(toy_pair_keys) / sizeof(toy_pair_keys[0]),
};

static int toy_pair_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct toy_pair p = { .ctx = c };
	const struct cfg_bind b[] = { { &tg_wl_common_table, &p }, { &toy_pair_table, &p } };
	struct tg_wl_est est = { .msgs = 1, .conns = 1, .lower = "nothing: it is one message" };
	struct tg_wl_proto proto;
	int rc;

	if ((rc = cfg_schema_read(c->doc, it, "workload", b, 2, err)) != 0)
		return rc;
	if (p.from == p.to) {
		cfg_errorf(err, cfg_get(it, "to"), "toy-pair: from and to are the same host");
		return -EINVAL;
	}
	if ((rc = tg_wl_admit(c, it, "toy-pair", &est, false, err)) != 0)
		return rc;
	tg_wl_proto_init(&proto, c);
	proto.msg.src = p.from;
	proto.msg.dst = p.to;
	proto.msg.bytes = p.bytes;
	if (tg_wl_msgs_room(c, 1) != 0)
		return -ENOMEM;
	(*c->msgs)[(*c->n_msgs)++] = proto.msg;
	return 0;
}

static const struct cfg_table *const toy_pair_tables[] = { &tg_wl_common_table, &toy_pair_table,
							    NULL };

static const struct tg_wl_kind toy_pair_kind = {
	.kind = { "toy-pair", "one message of bytes from one host to another", &toy_pair_table,
		  sizeof(struct toy_pair) },
	.tables = toy_pair_tables,
	.expand = toy_pair_expand,
};

/* ---- the toy collective algorithm: a direct all-gather ---- */

/* Rank a's chunk (S/n, tg_coll_part) to every other rank, each one
 * transfer waiting for the gate. */
static int toy_direct_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	int rc = 0;

	(void)at;
	(void)err;
	for (uint32_t a = 0; a < b->n && rc == 0; a++) {
		uint64_t off = tg_coll_off(b, b->bytes, b->n, a), size = tg_coll_part(b, b->bytes, b->n, a);

		rc = tg_cb_own(b, a, off, size);
		for (uint32_t r = 0; r < b->n && rc == 0; r++) {
			uint32_t id;

			if (r != a)
				rc = tg_cb_xfer(b, a, r, 0, TG_COLL_NO_RAIL, off, off, size, TG_STEP_COPY,
						NULL, 0, &id);
		}
	}
	return rc;
}

static uint64_t toy_direct_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint64_t pairs = (uint64_t)b->n * (b->n - 1);

	e->msgs = tg_est_add(e->msgs, pairs);
	e->ops = tg_est_add(e->ops, pairs);
	e->deps = tg_est_add(e->deps, tg_est_mul(pairs, 1 + rg));
	return pairs;
}

static const struct tg_coll_alg_ops toy_direct_alg = {
	.kind = { "toy-direct", "all-gather: every rank sends its chunk to every other", NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_GATHER,
	.build = toy_direct_build,
	.est = toy_direct_est,
};

/* ---- the tests ---- */

/* h0 - s0 - h1, 100 Gb/s and 1 us each way. */
#define TT_PAIR_TOPO                                                                           \
	"topology:\n  kind: explicit\n  default_link: {rate: 100Gbps, delay: 1us}\n"          \
	"  nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: s0, kind: switch}]\n" \
	"  links: [{endpoints: ['h0:0', 's0:0']}, {endpoints: ['h1:0', 's0:1']}]\n"

static int ttr_load(const char *text, struct exp **e, char err[CFG_ERR_BYTES])
{
	*e = NULL;
	err[0] = '\0';
	return exp_load_string("toy.yaml", text, NULL, 0, e, err);
}

/* (a) toy-pair: unknown before registration, then one message of exactly
 * its keys, whose completion takes at least bytes / rate plus the two
 * links' delay and little more; a misspelt name gets "did you mean". */
static void test_toy_workload_kind(void)
{
	const char *text = TT_PAIR_TOPO "traffic: [{kind: toy-pair, from: h1, to: h0, bytes: 1MiB}]\n";
	char err[CFG_ERR_BYTES];
	struct exp *e = NULL;
	struct fabric f = { 0 };
	const struct tg_flow *fl;
	uint64_t fct, wire, delay = 2 * 1000000; /* two links of 1 us, in ps */
	uint32_t n;

	CU_ASSERT_NOT_EQUAL(ttr_load(text, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown value 'toy-pair'"));
	exp_free(e);
	CU_ASSERT_EQUAL_FATAL(tg_wl_register(&toy_pair_kind, err), 0);
	CU_ASSERT_EQUAL(tg_wl_register(&toy_pair_kind, err), -EINVAL); /* the name is taken */
	CU_ASSERT_PTR_EQUAL(tg_wl_find("toy-pair"), &toy_pair_kind);

	if (ttr_load(text, &e, err) != 0)
		fprintf(stderr, "\n  toy-pair: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 1);
	CU_ASSERT_EQUAL(e->msgs[0].src, 1); /* h1 is endpoint 1 */
	CU_ASSERT_EQUAL(e->msgs[0].dst, 0);
	CU_ASSERT_EQUAL(e->msgs[0].bytes, 1 << 20);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, 0);
	CU_ASSERT_EQUAL_FATAL(fabric_build(&f, e, test_mempool(), false, err), 0);
	fabric_run(&f, false);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_TRUE(fl[0].done);
	fct = fl[0].end_ps - fl[0].msg.start_ps;
	wire = (uint64_t)(1 << 20) * 8 * 10; /* ps at 100 Gb/s: 10 ps a bit */
	CU_ASSERT_TRUE(fct >= wire + delay);
	/* headers (under 3% at a 4 KiB MTU), a packet's store-and-forward at
	 * the switch and the ACK's way back */
	CU_ASSERT_TRUE(fct <= wire + wire / 33 + 2 * delay + 1000000);
	fabric_free(&f);
	exp_free(e);

	CU_ASSERT_NOT_EQUAL(ttr_load(TT_PAIR_TOPO "traffic: [{kind: toy-pari, from: h0, to: h1, bytes: 1KiB}]\n",
				    &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'toy-pair'"));
	exp_free(e);
}

#define TT_COLL_TOPO "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"

/* (b) toy-direct: unknown before registration,
 * then an all-gather of S among n = 8 ranks as n(n - 1) messages of S/n
 * each, all completed; refused for an all-reduce with the registry's
 * list, and a misspelt name gets "did you mean". */
static void test_toy_collective_alg(void)
{
	const char *text = TT_COLL_TOPO "traffic: [{kind: collective, collective: all-gather, "
				       "algorithm: toy-direct, size: 64KiB}]\n";
	const uint32_t n = 8;
	const uint64_t size = 64 * 1024;
	char err[CFG_ERR_BYTES];
	struct exp *e = NULL;
	struct fabric f = { 0 };

	CU_ASSERT_NOT_EQUAL(ttr_load(text, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown value 'toy-direct'"));
	exp_free(e);
	CU_ASSERT_EQUAL_FATAL(tg_coll_alg_register(&toy_direct_alg, err), 0);

	if (ttr_load(text, &e, err) != 0)
		fprintf(stderr, "\n  toy-direct: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->n_msgs, n * (n - 1));
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		CU_ASSERT_EQUAL(e->msgs[i].bytes, size / n);
		CU_ASSERT_NOT_EQUAL(e->msgs[i].src, e->msgs[i].dst);
	}
	CU_ASSERT_EQUAL_FATAL(e->n_colls, 1);
	CU_ASSERT_STRING_EQUAL(tg_coll_alg_names()[e->colls[0].alg], "toy-direct");
	CU_ASSERT_EQUAL_FATAL(fabric_build(&f, e, test_mempool(), false, err), 0);
	fabric_run(&f, false);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), n * (n - 1));
	fabric_free(&f);
	exp_free(e);

	CU_ASSERT_NOT_EQUAL(ttr_load(TT_COLL_TOPO "traffic: [{kind: collective, collective: all-reduce, "
				    "algorithm: toy-direct, size: 64KiB}]\n", &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "algorithm toy-direct does not run all-reduce (ring: all but "
				       "all-to-all; hierarchical, halving-doubling, tree, in-network: all-reduce; "
				       "direct: all-to-all; toy-direct: all-gather)"));
	exp_free(e);
	CU_ASSERT_NOT_EQUAL(ttr_load(TT_COLL_TOPO "traffic: [{kind: collective, collective: all-gather, "
				    "algorithm: toy-drect, size: 64KiB}]\n", &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'toy-direct'"));
	exp_free(e);
}

int test_toy_traffic_register(void)
{
	static const struct test_case tests[] = {
		{ "a toy workload kind, registered and run", test_toy_workload_kind },
		{ "a toy collective algorithm, registered and run", test_toy_collective_alg },
	};

	return test_suite("toy traffic kinds", tests);
}
