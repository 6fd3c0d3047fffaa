/* One file plus one line, for the switch's two kinds of kind: a toy
 * path-choice policy ("toy-lowest", always the lowest-numbered candidate
 * port) and a toy queue manager ("toy-step", DCTCP's step marker: CE
 * above K bytes queued), each added through its public registration alone
 * (sw_path_register, sw_aqm_register), named in an experiment read by the
 * real loader (exp_load_string) and run in a switch built from that
 * experiment's params. Expectations are analytic. The toys are registered
 * inside the tests (this suite runs last), so that the earlier suites
 * (the docs test among them) see only the built-in kinds. */
#include <errno.h>
#include <string.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "exp.h"
#include "pkt.h"
#include "sim.h"
#include "sw.h"
#include "test.h"

/* ---- the toy path policy ---- */

/* The candidates ascend (sw_path_ops.pick), so index 0 is the lowest. */
static uint32_t toy_lowest_pick(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
				uint32_t n_ports, uint64_t magic, uint32_t flow_hash)
{
	(void)env;
	(void)grp;
	(void)ports;
	(void)n_ports;
	(void)magic;
	(void)flow_hash;
	return 0;
}

static const struct sw_path_ops toy_lowest_ops = {
	.kind = { .name = "toy-lowest", .doc = "always the lowest-numbered candidate port" },
	.pick = toy_lowest_pick,
};

/* ---- the toy queue manager ---- */

struct toy_step_settings {
	uint64_t k_bytes; /* mark above this many bytes queued */
};

static const struct cfg_key toy_step_keys[] = {
	{ "k", CFG_KEY_SIZE, "10KB", .off = offsetof(struct toy_step_settings, k_bytes), .size = 8,
	  .min = 0, .max = UINT64_C(1) << 40, .doc = "mark above this queue length" },
};

static const struct cfg_table toy_step_table = {
	.section = "fabric.ecn.toy-step",
	.keys = toy_step_keys,
	.n_keys = 1,
};

/* Per egress port: its K (the settings copied at setup). */
static int toy_step_init(void *priv, const struct sw_params *p, const void *settings,
			 uint64_t rate_bps, char err[CFG_ERR_BYTES])
{
	(void)p;
	(void)rate_bps;
	(void)err;
	*(uint64_t *)priv = ((const struct toy_step_settings *)settings)->k_bytes;
	return 0;
}

static enum sw_aqm_verdict toy_step_decide(void *priv, uint64_t q_bytes, uint64_t now_ps,
					   uint64_t *rng)
{
	(void)now_ps;
	(void)rng;
	return q_bytes > *(const uint64_t *)priv ? SW_AQM_MARK : SW_AQM_PASS;
}

static const struct sw_aqm_ops toy_step_ops = {
	.kind = { .name = "toy-step", .doc = "CE above K bytes queued (a step marker)",
		  .settings = &toy_step_table, .settings_size = sizeof(struct toy_step_settings) },
	.priv_size = sizeof(uint64_t),
	.init = toy_step_init,
	.decide = toy_step_decide,
};

/* ---- a switch of 6 ports built from an experiment's params ---- */

enum {
	TOY_PORTS = 6,
	TOY_LOG = 64, /* frames logged */
};

/* Where frames arrived and whether they carried CE. */
struct toy_log {
	uint32_t n;                /* frames */
	uint16_t port[TOY_LOG];    /* the switch port each left by */
	uint16_t sport[TOY_LOG];   /* its UDP source port (the flow) */
	uint8_t ecn[TOY_LOG];      /* its ECN field on arrival */
};

struct toy_sink {
	struct toy_log *log; /* shared */
	uint16_t port;       /* the switch port behind which it sits */
};

static void toy_sink_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct toy_sink *k = owner;
	struct pkt_roce f;

	if (k->log->n < TOY_LOG && pkt_parse_roce(m, &f) == 0) {
		k->log->port[k->log->n] = k->port;
		k->log->sport[k->log->n] = f.addr.udp_sport;
		k->log->ecn[k->log->n] = f.addr.ecn;
	}
	k->log->n++;
	sim_pkt_free(in->sim, m);
}

static const struct port_ops toy_sink_ops = { .rx = toy_sink_rx };

/* Host 0 behind port 0; host 1 behind ports 1..5 (a group of 5). */
static const uint32_t toy_class[] = { 0, 1 };
static const uint32_t toy_off[] = { 0, 0, 5 };
static const uint16_t toy_up[] = { 1, 2, 3, 4, 5 };
static const uint32_t toy_direct_off[] = { 0, 1 };
static const uint16_t toy_direct_ports[] = { 0 };
static const struct fib_rows toy_fib = {
	.n_eps = 2, .ep_class = toy_class, .n_classes = 2, .off = toy_off, .ports = toy_up,
	.direct_lo = 0, .direct_n = 1, .direct_off = toy_direct_off,
	.direct_ports = toy_direct_ports,
};

struct toy_rig {
	struct port peers[TOY_PORTS];      /* the far ends of the switch's links */
	struct toy_sink sinks[TOY_PORTS];  /* behind them */
	struct toy_log log;                /* what arrived */
	struct sim s;                      /* the simulation */
	struct sw *sw;                     /* the switch */
};

/* A switch with @e's fabric params; port 0 (the sender's) at 100 Gb/s,
 * the group's at 1 Gb/s (a frame of about 1 KB takes 8 us there, so the
 * frames sent at once queue behind the first). */
static struct toy_rig *toy_rig_new(const struct exp *e)
{
	static const uint8_t mac[6] = { 0 };
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	struct toy_rig *r = aligned_alloc(64, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	memset(r, 0, sizeof(*r));
	CU_ASSERT_EQUAL_FATAL(sim_init(&r->s, 1, test_mempool()), 0);
	r->sw = sw_new(&r->s, 0, 0, TOY_PORTS, &e->sw, &toy_fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->sw);
	for (uint16_t i = 0; i < TOY_PORTS; i++) {
		r->sinks[i] = (struct toy_sink){ &r->log, i };
		port_init(&r->peers[i], &r->s, &toy_sink_ops, &r->sinks[i], 1 + i, 0);
		port_connect(sw_port(r->sw, i), &r->peers[i],
			     i == 0 ? UINT64_C(100000000000) : UINT64_C(1000000000), 1000);
		sw_set_next_hop_mac(r->sw, i, mac);
	}
	CU_ASSERT_EQUAL_FATAL(sw_ready(r->sw, err, warn), 0);
	return r;
}

static void toy_rig_free(struct toy_rig *r)
{
	sw_free(r->sw);
	for (int i = 0; i < TOY_PORTS; i++)
		port_fini(&r->peers[i]);
	CU_ASSERT_EQUAL(r->s.pkts_in_use, 0);
	sim_fini(&r->s);
	free(r);
}

/* Send @n frames of @payload bytes from host 0 to host 1, frame i of flow
 * (UDP source port) 0xC000 + 7 x (i % @n_flows), ECN-capable (ECT(0)),
 * DSCP 26 (priority 3: the class that marks by default), and run. */
static void toy_send(struct toy_rig *r, uint32_t n, uint32_t n_flows, uint32_t payload)
{
	for (uint32_t i = 0; i < n; i++) {
		struct rte_mbuf *m = sim_pkt_alloc(&r->s, false);
		struct pkt_roce f = { 0 };

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		f.addr.src_ip = addr_ep_ip(0);
		f.addr.dst_ip = addr_ep_ip(1);
		f.addr.dscp = 26;
		f.addr.ecn = PKT_ECN_ECT0;
		f.addr.ttl = 64;
		f.addr.udp_sport = (uint16_t)(0xC000 + 7 * (i % n_flows));
		f.opcode = PKT_OP_WRITE_MIDDLE;
		f.pkey = 0xFFFF;
		f.payload_bytes = payload;
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
		port_enqueue(&r->peers[0], m, 0, pkt_meta(m)->frame_bytes);
	}
	sim_run(&r->s);
}

/* Load an experiment whose fabric line is @fabric; NULL with @err filled
 * when the loader refuses it. */
static struct exp *tos_load(const char *fabric, char err[CFG_ERR_BYTES])
{
	char text[512];
	struct exp *e = NULL;

	snprintf(text, sizeof(text),
		 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
		 "traffic: [{kind: permutation, size: 4KiB}]\n%s\n",
		 fabric);
	err[0] = '\0';
	if (exp_load_string("x.yaml", text, NULL, 0, &e, err) != 0)
		return NULL;
	return e;
}

/* (a) toy-lowest: unknown before it is registered, then chosen by name in
 * an experiment (a misspelling gets "did you mean"), and in a switch
 * every frame of every flow leaves by port 1, the lowest of the group
 * 1..5 (ecmp, for contrast, sends some of these 8 flows elsewhere). */
static void test_toy_path(void)
{
	char err[CFG_ERR_BYTES];
	struct exp *e;
	struct toy_rig *r;
	int bad = 0;

	if (!sw_path_find("toy-lowest")) {
		CU_ASSERT_PTR_NULL(tos_load("fabric: {path: {policy: toy-lowest}}", err));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown value 'toy-lowest'"));
		CU_ASSERT_EQUAL(sw_path_register(&toy_lowest_ops, err), 0);
	}
	CU_ASSERT_EQUAL(sw_path_register(&toy_lowest_ops, err), -EINVAL); /* the name is taken */
	CU_ASSERT_PTR_NULL(tos_load("fabric: {path: {policy: toy-lowst}}", err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.yaml:3:25: unknown value 'toy-lowst' (did you mean 'toy-lowest'?"));
	CU_ASSERT_PTR_NULL(tos_load("fabric: {path: {spine: toy-lowset}}", err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'toy-lowest'?"));

	e = tos_load("fabric: {path: {policy: toy-lowest}}", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_EQUAL(e->sw.path, &toy_lowest_ops);
	r = toy_rig_new(e);
	toy_send(r, 40, 8, 1000);
	CU_ASSERT_EQUAL(r->log.n, 40);
	for (uint32_t i = 0; i < r->log.n && i < TOY_LOG; i++)
		bad += r->log.port[i] != 1;
	CU_ASSERT_EQUAL(bad, 0);
	toy_rig_free(r);
	exp_free(e);

	/* The same frames under the default (ecmp) leave by more than one port. */
	e = tos_load("fabric: {}", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	r = toy_rig_new(e);
	toy_send(r, 40, 8, 1000);
	bad = 0;
	for (uint32_t i = 0; i < r->log.n && i < TOY_LOG; i++)
		bad += r->log.port[i] != 1;
	CU_ASSERT(bad > 0);
	toy_rig_free(r);
	exp_free(e);
}

/* (b) toy-step: unknown before it is registered, then named by
 * fabric.ecn.aqm with its section fabric.ecn.toy-step (a misspelling gets
 * "did you mean"; without the section, its default K). In a switch,
 * deciding on enqueue: n frames of F bytes sent at once toward an egress
 * port 100 times slower than the sender's all arrive before the first has
 * left (the first goes to the wire at once, the port being idle), so
 * frame i (i >= 1) is queued behind i - 1 frames: it is marked exactly
 * when (i - 1) x F > K, and no other frame is. */
static void test_toy_aqm(void)
{
	const uint64_t k = 4000;
	char err[CFG_ERR_BYTES];
	struct exp *e;
	struct toy_rig *r;
	uint32_t frame_bytes, marks = 0;
	int bad = 0;

	if (!sw_aqm_find("toy-step")) {
		CU_ASSERT_PTR_NULL(tos_load("fabric: {ecn: {aqm: toy-step}}", err));
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown value 'toy-step'"));
		CU_ASSERT_EQUAL(sw_aqm_register(&toy_step_ops, err), 0);
	}
	CU_ASSERT_EQUAL(sw_aqm_register(&toy_step_ops, err), -EINVAL); /* the name is taken */
	CU_ASSERT_PTR_NULL(tos_load("fabric: {ecn: {aqm: toy-stpe}}", err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.yaml:3:21: unknown value 'toy-stpe' (did you mean 'toy-step'?"));
	CU_ASSERT_PTR_NULL(tos_load("fabric: {ecn: {aqm: toy-step, toy-step: {kk: 1KB}}}", err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown key 'kk' (did you mean 'k'?)"));

	e = tos_load("fabric: {ecn: {aqm: toy-step}}", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_EQUAL(e->sw.aqm, &toy_step_ops);
	CU_ASSERT_EQUAL(((const struct toy_step_settings *)sw_aqm_settings(&e->sw, &toy_step_ops))
				->k_bytes,
			10000); /* the default, 10KB */
	exp_free(e);

	e = tos_load("fabric: {ecn: {aqm: toy-step, mark_on: enqueue, toy-step: {k: 4000B}}}", err);
	if (!e)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(((const struct toy_step_settings *)sw_aqm_settings(&e->sw, &toy_step_ops))
				->k_bytes,
			k);
	r = toy_rig_new(e);
	toy_send(r, 12, 1, 1000);
	CU_ASSERT_EQUAL_FATAL(r->log.n, 12);
	frame_bytes = 0;
	{
		/* F: the frame as queued (headers, payload, ICRC; no preamble). */
		struct rte_mbuf *m = sim_pkt_alloc(&r->s, false);
		struct pkt_roce f = { 0 };

		f.addr.src_ip = addr_ep_ip(0);
		f.addr.dst_ip = addr_ep_ip(1);
		f.payload_bytes = 1000;
		f.pkey = 0xFFFF;
		f.opcode = PKT_OP_WRITE_MIDDLE;
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
		frame_bytes = pkt_meta(m)->frame_bytes;
		sim_pkt_free(&r->s, m);
	}
	for (uint32_t i = 0; i < r->log.n; i++) {
		bool want = i >= 1 && (uint64_t)(i - 1) * frame_bytes > k;

		bad += (r->log.ecn[i] == PKT_ECN_CE) != want;
		marks += r->log.ecn[i] == PKT_ECN_CE;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(marks > 0 && marks < 12); /* both sides of K were seen */
	CU_ASSERT_EQUAL(sw_stats(r->sw)->ecn_marked, marks);
	toy_rig_free(r);
	exp_free(e);
}

int test_toy_switch_register(void)
{
	CU_pSuite s = CU_add_suite("toy-switch", NULL, NULL);

	if (!s || !CU_add_test(s, "a path policy in one file", test_toy_path) ||
	    !CU_add_test(s, "a queue manager in one file", test_toy_aqm))
		return -1;
	return 0;
}
