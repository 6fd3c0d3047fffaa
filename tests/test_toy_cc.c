/* CUnit suite showing that a congestion-control algorithm is one file plus
 * one registration: "toy-half", defined here alone and registered with
 * cc_register, paces every QP at a share of the line rate (its one
 * setting, nic.toy-half.share, half by default). An experiment naming it
 * is loaded with exp_load_string and run through the fabric; the flow's
 * completion time is checked against bytes / (share x line) plus the path
 * delay, and a misspelt name is refused with "did you mean". */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cc.h"
#include "cfg_schema.h"
#include "exp.h"
#include "fabric.h"
#include "tg.h"
#include "test.h"

/* nic.toy-half.*: the toy's settings. */
struct toy_half_cfg {
	double share; /* pacing rate as a fraction of the line rate */
};

static const struct cfg_key toy_half_keys[] = {
	{ "share", CFG_KEY_FRACTION, "0.5", .off = offsetof(struct toy_half_cfg, share), .lo = 0.01,
	  .hi = 1, .doc = "pacing rate as a fraction of the line rate" },
};

static const struct cfg_table toy_half_table = {
	.section = "nic.toy-half",
	.keys = toy_half_keys,
	.n_keys = sizeof(toy_half_keys) / sizeof(toy_half_keys[0]),
};

/* The rate is set once and never moves: no other hook. */
static int toy_half_init(struct cc_qp *q)
{
	const struct toy_half_cfg *c = q->cfg;

	q->rate_bps = (uint64_t)((double)q->line_rate_bps * c->share);
	q->window_bytes = 0;
	return 0;
}

static const struct cc_ops toy_half_ops = {
	.kind = { .name = "toy-half", .doc = "toy: a fixed share of the line rate",
		  .settings = &toy_half_table, .settings_size = sizeof(struct toy_half_cfg) },
	.init = toy_half_init,
};

enum {
	TT_BYTES = 1 << 20,         /* the one message */
	TT_LINE_GBPS = 100,         /* host links */
	TT_DELAY_PS = 1000000,      /* per link, 1 us */
};

/* Two hosts on one leaf (two links each way); @nic is the nic: map. */
static int tcc_load(const char *nic, struct exp **e, char err[CFG_ERR_BYTES])
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2,\n"
		 "           host_link: {rate: %dGbps, delay: 1us}}\n"
		 "nic: %s\n"
		 "traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: %dB, op: write}]}]\n",
		 TT_LINE_GBPS, nic, TT_BYTES);
	return exp_load_string("toy.yaml", text, NULL, 0, e, err);
}

/* Register the toy once (a second run of the suite finds it there). */
static void tt_register(void)
{
	char err[CFG_ERR_BYTES] = "";

	if (!cc_find("toy-half"))
		CU_ASSERT_EQUAL_FATAL(cc_register(&toy_half_ops, err), 0);
	CU_ASSERT_PTR_EQUAL(cc_find("toy-half"), &toy_half_ops);
}

/* Run @nic's experiment: the message's completion time, ps (0 on error). */
static uint64_t tt_fct(const char *nic, double *share)
{
	char err[CFG_ERR_BYTES] = "";
	const struct tg_flow *fl;
	const struct toy_half_cfg *c;
	struct fabric f;
	struct exp *e;
	uint32_t n;
	uint64_t fct = 0;

	if (tcc_load(nic, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return 0;
	}
	CU_ASSERT_PTR_EQUAL(e->nic.cc, &toy_half_ops);
	c = cc_cfg_of(e->cc_cfg, &toy_half_ops);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	*share = c->share;
	/* The resolved experiment shows the toy's settings, defaults filled in. */
	CU_ASSERT_PTR_NOT_NULL(cfg_get(cfg_get(cfg_get(cfg_doc_root(e->doc), "nic"), "toy-half"),
				       "share"));
	memset(&f, 0, sizeof(f));
	if (fabric_build(&f, e, test_mempool(), false, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		exp_free(e);
		return 0;
	}
	fabric_run(&f, false);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL(n, 1);
	if (n == 1 && fl[0].done)
		fct = fl[0].end_ps - fl[0].msg.start_ps;
	fabric_free(&f);
	exp_free(e);
	return fct;
}

/* FCT = bytes / (share x line) + the round trip of the path (two 1 us
 * links each way: the last packet's way out and its ACK's way back),
 * within 3%: the pacer counts whole frames, whose headers, preamble and
 * gap add 82 bytes to each 4096-byte payload (2.0%), and the last frame's
 * serialisation at each hop and the ACK's add about 0.4% more. At the
 * line rate the time would be half: the bound tells the two apart. */
static void tt_check(const char *nic, double want_share)
{
	double share = 0, want, got;

	tt_register();
	got = (double)tt_fct(nic, &share);
	CU_ASSERT_DOUBLE_EQUAL(share, want_share, 1e-12);
	want = (double)TT_BYTES * 8 / (want_share * TT_LINE_GBPS * 1e9) * 1e12 + 4.0 * TT_DELAY_PS;
	if (fabs(got - want) > 0.03 * want)
		fprintf(stderr, "\n  %s: FCT %.0f ps, want %.0f ps +- 3%%\n", nic, got, want);
	CU_ASSERT(fabs(got - want) <= 0.03 * want);
}

/* Before cc_register the name is refused like any unknown one. */
static void test_toy_cc_unregistered(void)
{
	char err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	if (cc_find("toy-half"))
		return; /* the suite ran before in this process */
	CU_ASSERT_EQUAL(tcc_load("{cc: toy-half}", &e, err), -EINVAL);
	CU_ASSERT(strstr(err, "unknown value 'toy-half'") != NULL);
	CU_ASSERT_PTR_NULL(e);
}

static void test_toy_cc_half(void)
{
	tt_check("{cc: toy-half}", 0.5);
}

/* Its own section: the setting reaches the algorithm. */
static void test_toy_cc_section(void)
{
	tt_check("{cc: toy-half, toy-half: {share: 0.25}}", 0.25);
}

/* A misspelt name is refused with the nearest registered one; an unknown
 * key of the toy's section with its own keys. */
static void test_toy_cc_refused(void)
{
	char err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	tt_register();
	CU_ASSERT_EQUAL(tcc_load("{cc: toy-hlaf}", &e, err), -EINVAL);
	if (!strstr(err, "did you mean 'toy-half'"))
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT(strstr(err, "did you mean 'toy-half'") != NULL);
	CU_ASSERT_PTR_NULL(e);
	CU_ASSERT_EQUAL(tcc_load("{cc: toy-half, toy-half: {shares: 0.5}}", &e, err), -EINVAL);
	CU_ASSERT(strstr(err, "did you mean 'share'") != NULL);
	CU_ASSERT_PTR_NULL(e);
}

int test_toy_cc_register(void)
{
	static const struct test_case tests[] = {
		{ "unknown before registration", test_toy_cc_unregistered },
		{ "a toy registered and run: half the line rate", test_toy_cc_half },
		{ "its settings section", test_toy_cc_section },
		{ "misspelt names refused", test_toy_cc_refused },
	};

	return test_suite("toy_cc", tests);
}
