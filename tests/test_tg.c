/* Traffic suite: the `poisson` workload kind checked as a statistician
 * would, on long generated workloads (expansion only, nothing simulated):
 * offered load per host, the size distribution against its CDF, uniform
 * destinations, and the seed's determinism. Every bound is stated with its
 * confidence where it is checked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "exp.h"
#include "fabric.h"
#include "tg.h"
#include "test.h"

enum { TT_HOSTS = 8 /* leaf-spine 2 x 4, h0..h7 */ };

/* The WebSearch CDF of the HPCC paper (traffic/cdf/websearch.txt), as
 * fractions, written out again here: the test's own copy. */
static const double tt_ws_bytes[] = { 0, 10000, 20000, 30000, 50000, 80000,
				      200000, 1000000, 2000000, 5000000, 10000000, 30000000 };
static const double tt_ws_prob[] = { 0, .15, .20, .30, .40, .53, .60, .70, .80, .90, .97, 1 };
enum { TT_WS_N = sizeof(tt_ws_bytes) / sizeof(tt_ws_bytes[0]) };

/* Load @traffic (a `traffic:` list) on 8 hosts with 100 Gb/s links. */
static struct exp *ttg_load(const char *traffic, uint64_t seed);

/* The qp key: three messages h0 -> h1 and one h0 -> h2 share two QPs
 * per-connection and have four of their own per-message; per-message,
 * the 1 KiB message posted after a 1 MiB one to the same host no longer
 * waits for it. Both runs deliver everything. */
static void test_tg_qp_mode(void)
{
	static const char fmt[] =
		"[{kind: messages, qp: %s, messages: ["
		"{src: h0, dst: h1, size: 1MiB}, {src: h0, dst: h1, size: 1KiB, start: 1us},"
		"{src: h0, dst: h2, size: 4KiB}, {src: h0, dst: h1, size: 2KiB}]}]";
	static const char *const modes[] = { "per-connection", "per-message" };

	for (int k = 0; k < 2; k++) {
		char traffic[512], err[CFG_ERR_BYTES] = "";
		struct exp *e;
		struct fabric f = { 0 };
		const struct tg_flow *fl;
		uint32_t n;

		snprintf(traffic, sizeof(traffic), fmt, modes[k]);
		e = ttg_load(traffic, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(e->msgs[0].qp_mode, k ? TG_QP_PER_MESSAGE : TG_QP_PER_CONNECTION);
		if (fabric_build(&f, e, test_mempool(), false, err) != 0) {
			fprintf(stderr, "\n  unexpected: %s\n", err);
			CU_FAIL_FATAL("fabric_build");
		}
		CU_ASSERT_PTR_NULL(tg_flow_qp(f.tg, 4));
		if (k == 0) {
			CU_ASSERT_PTR_EQUAL(tg_flow_qp(f.tg, 0), tg_flow_qp(f.tg, 1));
			CU_ASSERT_PTR_EQUAL(tg_flow_qp(f.tg, 0), tg_flow_qp(f.tg, 3));
			CU_ASSERT_PTR_NOT_EQUAL(tg_flow_qp(f.tg, 0), tg_flow_qp(f.tg, 2));
		} else {
			for (uint32_t i = 0; i < 4; i++)
				for (uint32_t j = i + 1; j < 4; j++)
					CU_ASSERT_PTR_NOT_EQUAL(tg_flow_qp(f.tg, i), tg_flow_qp(f.tg, j));
		}
		fabric_run(&f, false);
		fl = tg_flows(f.tg, &n);
		CU_ASSERT_EQUAL(n, 4);
		CU_ASSERT_EQUAL(tg_n_done(f.tg), 4);
		/* 1 MiB at 100 Gb/s takes about 84 us: the 1 KiB message ends
		 * after it on a shared QP, long before it on its own. */
		CU_ASSERT_TRUE(k ? fl[1].end_ps < fl[0].end_ps / 2 : fl[1].end_ps > fl[0].end_ps);
		fabric_free(&f);
		exp_free(e);
	}
	{
		char err[CFG_ERR_BYTES] = "";
		struct exp *e = NULL;

		CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml",
			"topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}\n"
			"traffic: [{kind: incast, qp: per-flow, srcs: [h0], dst: h1, size: 1KiB}]\n",
			NULL, 0, &e, err), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "per-message"));
		exp_free(e);
	}
}

/* Endpoints are ports: two NICs with a port on each of two disjoint
 * switches (two planes). A message on each plane arrives over that
 * plane alone (each switch forwards only its plane's data and ACKs), the
 * two run side by side at the single-link ideal FCT (the analytic
 * store-and-forward model of tg_ideal_fct_ps: nothing shares a link), the
 * flows are named by port, and a bare host name or a message across the
 * planes is refused. */
static void test_tg_endpoints(void)
{
	static const char topo[] =
		"topology:\n"
		"  kind: explicit\n"
		"  nodes: [{name: h0, kind: host, ports: 2}, {name: h1, kind: host, ports: 2},\n"
		"          {name: s0, kind: switch}, {name: s1, kind: switch}]\n"
		"  links: [{endpoints: [h0:0, s0:0]}, {endpoints: [h1:0, s0:1]},\n"
		"          {endpoints: [h0:1, s1:0]}, {endpoints: [h1:1, s1:1]}]\n";
	char text[1024], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;
	struct fabric f = { 0 };
	const struct tg_flow *fl;
	uint32_t n;

	snprintf(text, sizeof(text), "%straffic: [{kind: messages, messages: ["
		 "{src: \"h0:0\", dst: \"h1:0\", size: 1MiB}, {src: \"h0:1\", dst: \"h1:1\", size: 1MiB}]}]\n",
		 topo);
	CU_ASSERT_EQUAL_FATAL(exp_load_string("x.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_EQUAL(e->topo->n_eps, 4);
	CU_ASSERT_EQUAL(e->msgs[0].src, 0);
	CU_ASSERT_EQUAL(e->msgs[1].dst, 3);
	CU_ASSERT_EQUAL_FATAL(fabric_build(&f, e, test_mempool(), false, err), 0);
	fabric_run(&f, false);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 2);
	for (uint32_t i = 0; i < 2; i++) {
		const struct sw_stats *st = sw_stats(f.sws[i]);

		/* 256 data packets of 4 KiB and (coalesced) ACKs, all on one plane. */
		CU_ASSERT_TRUE(st->fwd_pkts > 256);
		CU_ASSERT_EQUAL(st->drops[SW_DROP_NO_ROUTE], 0);
		CU_ASSERT_EQUAL(fl[i].end_ps - fl[i].msg.start_ps, fl[i].ideal_ps);
	}
	CU_ASSERT_EQUAL(sw_stats(f.sws[0])->fwd_pkts, sw_stats(f.sws[1])->fwd_pkts);
	fabric_free(&f);
	exp_free(e);
	e = NULL;
	snprintf(text, sizeof(text), "%straffic: [{kind: messages, messages: [{src: h0, dst: \"h1:0\", size: 1KiB}]}]\n",
		 topo);
	CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.yaml:7:45:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(h0:0 .. h0:1)"));
	exp_free(e);
	e = NULL;
	/* Across the planes: refused at the workload, before anything runs. */
	snprintf(text, sizeof(text), "%straffic: [{kind: messages, messages: [{src: \"h0:0\", dst: \"h1:1\", size: 1KiB}]}]\n",
		 topo);
	CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.yaml:7:11: h0:0 cannot reach h1:1"));
	exp_free(e);
}

/* qps: a connection of k QP pairs, every message split over them. A
 * 1 MiB message on 16 QPs completes once, when its last part does; its
 * QPs are 16 distinct ones (distinct UDP source ports: the ECMP entropy),
 * so both spines carry data (all 16 hashed onto one spine would have
 * probability 2^-15); a 2-byte message on 16 QPs is two parts; qps out
 * of range is an error at its place. */
static void test_tg_qps(void)
{
	struct exp *e = ttg_load("[{kind: messages, qps: 16, messages: [{src: h0, dst: h4, size: 1MiB},"
				" {src: h1, dst: h5, size: 2B}]}]", 1);
	char err[CFG_ERR_BYTES] = "";
	struct fabric f = { 0 };
	struct nic_qp *const *qps;
	const struct tg_flow *fl;
	uint32_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->msgs[0].qps, 16);
	CU_ASSERT_EQUAL_FATAL(fabric_build(&f, e, test_mempool(), false, err), 0);
	CU_ASSERT_EQUAL(tg_flow_qps(f.tg, 0, &qps), 16);
	for (uint32_t i = 0; i < 16; i++)
		for (uint32_t j = i + 1; j < 16; j++)
			CU_ASSERT_PTR_NOT_EQUAL(qps[i], qps[j]);
	fabric_run(&f, false);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 2);
	CU_ASSERT_TRUE(fl[0].done && fl[1].done);
	for (uint32_t i = 0; i < 16; i++)
		CU_ASSERT_EQUAL(nic_qp_outstanding(qps[i]), 0);
	/* Every data packet crosses one spine (leaf-spine 2 x 4 with 2 spines). */
	for (uint32_t s = 0; s < f.topo->n_switches; s++)
		if (f.topo->nodes[f.topo->switches[s]].tier == 2)
			CU_ASSERT_TRUE(sw_stats(f.sws[s])->fwd_pkts > 16);
	fabric_free(&f);
	exp_free(e);
	e = NULL;
	CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml",
		"topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}\n"
		"traffic: [{kind: incast, qps: 129, srcs: [h0], dst: h1, size: 1KiB}]\n",
		NULL, 0, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.yaml:2:31: 129 is above the maximum 128"));
	exp_free(e);
}

/* GPUs as participants (rail-optimised, 2 nodes x 8 GPUs, NVLink in each
 * node): a message between GPUs of one node goes over NVLink (the GPU
 * endpoints), across nodes from the source GPU's NIC to the destination
 * GPU's NIC (its rail); `all` is the 16 GPUs; a GPU name that is not one
 * is refused with a hint. On two planes (dual-port NICs) a GPU message is
 * split evenly, port p to port p. */
static void test_tg_gpu_parts(void)
{
	static const char two_nodes[] =
		"topology: {kind: rail-optimised, gpus_per_node: 8, nodes_per_unit: 2, nodes: 2%s}\n"
		"traffic: [%s]\n";
	char text[1024], err[CFG_ERR_BYTES] = "", a[TOPO_EP_NAME_BYTES], b[TOPO_EP_NAME_BYTES];
	struct exp *e = NULL;

	snprintf(text, sizeof(text), two_nodes, "",
		 "{kind: messages, messages: [{src: node0/gpu1, dst: node0/gpu5, size: 1KiB},"
		 " {src: node0/gpu1, dst: node1/gpu1, size: 1KiB}, {src: node1/gpu6, dst: node0/gpu2, size: 1KiB}]},"
		 " {kind: permutation, size: 1KiB}");
	CU_ASSERT_EQUAL_FATAL(exp_load_string("x.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_EQUAL(e->n_msgs, 3 + 16);
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[0].src, a), "node0/gpu1");
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[0].dst, b), "node0/gpu5");
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[1].src, a), "node0/nic1");
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[1].dst, b), "node1/nic1");
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[2].src, a), "node1/nic6");
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[2].dst, b), "node0/nic2");
	/* The permutation: every GPU sends once and receives once, over
	 * NVLink exactly when both ends share a node. */
	{
		uint32_t sent[16] = { 0 }, got[16] = { 0 };

		for (uint32_t i = 3; i < e->n_msgs; i++) {
			const struct topo_node *x = &e->topo->nodes[e->topo->eps[e->msgs[i].src].node];
			const struct topo_node *y = &e->topo->nodes[e->topo->eps[e->msgs[i].dst].node];

			CU_ASSERT_EQUAL(x->role == TOPO_ROLE_GPU, x->gpu_node == y->gpu_node);
			CU_ASSERT_EQUAL(x->role, y->role);
			sent[x->gpu_node * 8 + x->gpu]++;
			got[y->gpu_node * 8 + y->gpu]++;
		}
		for (int g = 0; g < 16; g++)
			CU_ASSERT_TRUE(sent[g] == 1 && got[g] == 1);
	}
	exp_free(e);
	e = NULL;
	snprintf(text, sizeof(text), two_nodes, ", nic_ports: 2, planes: 2",
		 "{kind: messages, messages: [{src: node0/gpu3, dst: node1/gpu3, size: 3B}]}");
	CU_ASSERT_EQUAL_FATAL(exp_load_string("x.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 2);
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[0].src, a), "node0/nic3:0");
	CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[1].dst, b), "node1/nic3:1");
	CU_ASSERT_TRUE(e->msgs[0].bytes == 2 && e->msgs[1].bytes == 1);
	exp_free(e);
	e = NULL;
	snprintf(text, sizeof(text), two_nodes, "",
		 "{kind: messages, messages: [{src: node0/gpu1, dst: node2/gpu1, size: 1KiB}]}");
	CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown host 'node2/gpu1' (did you mean"));
	exp_free(e);
	e = NULL;
	/* A rack-scale domain (GB200 NVL72: 18 nodes of 4 GPUs on one NVLink
	 * switch of 72 ports at 7.2 Tb/s): node 0 to node 17 is NVLink, node
	 * 0 to node 18 (the next rack) the rails; the domain switch is
	 * built and lossless although its ports' headroom (72 x 8 priorities)
	 * would not fit in the fabric's 32 MiB buffer (it comes on top), and
	 * the NVLink message takes its ideal FCT (the analytic model). */
	{
		struct fabric f = { 0 };
		const struct tg_flow *fl;
		uint32_t n;

		CU_ASSERT_EQUAL_FATAL(exp_load_string("x.yaml",
			"topology: {kind: rail-optimised, gpus_per_node: 4, nodes_per_unit: 18, units: 2,\n"
			"           nvlink: {domain_gpus: 72, rate: 7.2Tbps}}\n"
			"traffic: [{kind: messages, messages: [{src: node0/gpu0, dst: node17/gpu3, size: 1MiB},"
			" {src: node0/gpu0, dst: node18/gpu0, size: 1MiB}]}]\n", NULL, 0, &e, err), 0);
		CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[0].dst, b), "node17/gpu3");
		CU_ASSERT_STRING_EQUAL(topo_ep_name(e->topo, e->msgs[1].dst, b), "node18/nic0");
		CU_ASSERT_EQUAL_FATAL(fabric_build(&f, e, test_mempool(), false, err), 0);
		fabric_run(&f, false);
		fl = tg_flows(f.tg, &n);
		CU_ASSERT_EQUAL(tg_n_done(f.tg), 2);
		/* (to 0.01%: at 7.2 Tb/s a byte is not a whole number of ps, and
		 * the ports carry the remainder the ideal model rounds) */
		CU_ASSERT_TRUE(fl[0].end_ps - fl[0].msg.start_ps <= fl[0].ideal_ps + fl[0].ideal_ps / 10000);
		fabric_free(&f);
		exp_free(e);
	}
}

/* Rerouting during a run: what the reroute event does and sees. */
struct tt_reroute {
	struct fabric *f;        /* the running fabric */
	uint32_t link;           /* the link taken out */
	uint64_t bytes_then;     /* its tx bytes at the reroute */
	int rc;                  /* fabric_reroute's */
};

static void tt_reroute_fire(struct sim *sim, void *obj)
{
	struct tt_reroute *x = obj;
	const struct topo_link *l = &x->f->topo->links[x->link];
	uint8_t *down = calloc(x->f->topo->n_links, 1);
	char err[CFG_ERR_BYTES];

	(void)sim;
	down[x->link] = 1;
	x->bytes_then = port_tx_bytes(fabric_port(x->f, l->node[0], l->port[0]));
	x->rc = fabric_reroute(x->f, down, err);
	free(down);
}

/* Forwarding recomputed during a run (fabric_reroute): a 4 MiB write from
 * h0 to h4 across two spines; 100 us in, the leaf0 uplink it hashed onto
 * is taken out of the routes. The rest of the message leaves by the other
 * uplink at once (the old one sends only what was queued then), nothing is lost or resent (the link itself stays up),
 * and the message completes as if nothing happened: both paths are
 * equally long, so within 1% of its ideal FCT (the analytic model). */
static void test_tg_reroute(void)
{
	struct exp *e = ttg_load("[{kind: messages, messages: [{src: h0, dst: h4, size: 4MiB}]}]", 1);
	char err[CFG_ERR_BYTES] = "";
	struct fabric f = { 0 };
	struct tt_reroute x = { .f = &f };
	struct ev_src src;
	const struct tg_flow *fl;
	uint32_t n, leaf0 = 0, used = UINT32_MAX, other = UINT32_MAX;
	uint64_t total = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(fabric_build(&f, e, test_mempool(), false, err), 0);
	leaf0 = (uint32_t)topo_find(f.topo, "leaf0");
	sim_new_src(&f.sim, &src);
	sim_at(&f.sim, 100000000, &src, tt_reroute_fire, &x);
	/* The uplink ECMP hashes the flow onto (leaf0's ports 4 and 5 lead to
	 * the spines): the one a run without the reroute uses. */
	{
		struct exp *e2 = ttg_load("[{kind: messages, messages: [{src: h0, dst: h4, size: 4MiB}]}]", 1);
		struct fabric g = { 0 };

		CU_ASSERT_EQUAL_FATAL(fabric_build(&g, e2, test_mempool(), false, err), 0);
		fabric_run(&g, false);
		for (uint16_t p = 4; p < 6; p++)
			if (port_tx_bytes(fabric_port(&g, leaf0, p)) > 0)
				used = p;
		fabric_free(&g);
		exp_free(e2);
	}
	CU_ASSERT_FATAL(used != UINT32_MAX);
	other = used == 4 ? 5 : 4;
	x.link = f.topo->nodes[leaf0].port_links[used];
	fabric_run(&f, false);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL(x.rc, 0);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 1);
	CU_ASSERT_TRUE(fl[0].end_ps <= fl[0].ideal_ps + fl[0].ideal_ps / 100);
	CU_ASSERT_TRUE(x.bytes_then > 0);
	/* After the reroute the old uplink sent only what was queued then:
	 * frames come in at 100 Gb/s and leave at 100 Gb/s, so that is the
	 * frame in flight and at most two more (3 x 4158 B). */
	CU_ASSERT_TRUE(port_tx_bytes(fabric_port(&f, leaf0, (uint16_t)used)) - x.bytes_then <=
		       3 * 4158);
	CU_ASSERT_TRUE(port_tx_bytes(fabric_port(&f, leaf0, (uint16_t)other)) > 0);
	for (uint16_t p = 4; p < 6; p++)
		total += port_tx_bytes(fabric_port(&f, leaf0, p));
	/* every data frame crossed one uplink once: 1024 frames of 4158 B, the
	 * first 16 B more (RETH) */
	CU_ASSERT_EQUAL(total, UINT64_C(1024) * 4158 + 16);
	CU_ASSERT_EQUAL(nic_stats(f.nics[0])->retx_pkts, 0);
	fabric_free(&f);
	exp_free(e);
}

static struct exp *ttg_load(const char *traffic, uint64_t seed)
{
	char text[2048], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	snprintf(text, sizeof(text),
		 "seed: %llu\n"
		 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4,\n"
		 "           host_link: {rate: 100Gbps}}\n"
		 "traffic: %s\n", (unsigned long long)seed, traffic);
	if (exp_load_string("x.yaml", text, NULL, 0, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return NULL;
	}
	return e;
}

/* The WebSearch CDF at @x (piecewise linear). */
static double tt_ws_cdf(double x)
{
	for (int i = 1; i < TT_WS_N; i++)
		if (x <= tt_ws_bytes[i])
			return tt_ws_prob[i - 1] + (tt_ws_prob[i] - tt_ws_prob[i - 1]) *
							  (x - tt_ws_bytes[i - 1]) /
							  (tt_ws_bytes[i] - tt_ws_bytes[i - 1]);
	return 1;
}

/* E[S] and E[S^2] of the piecewise-linear WebSearch distribution: uniform
 * on each segment, E[S^2 | segment] = (a^2 + ab + b^2) / 3. */
static void tt_ws_moments(double *m1, double *m2)
{
	*m1 = *m2 = 0;
	for (int i = 1; i < TT_WS_N; i++) {
		double a = tt_ws_bytes[i - 1], b = tt_ws_bytes[i], w = tt_ws_prob[i] - tt_ws_prob[i - 1];

		*m1 += w * (a + b) / 2;
		*m2 += w * (a * a + a * b + b * b) / 3;
	}
}

static int tt_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* 30% WebSearch on every 100 Gb/s host for 10 s of arrivals: about 21900
 * messages per host. */
static const char tt_long[] = "[{kind: poisson, load: 30%, cdf: websearch, duration: 10s}]";

/* Offered load per host: the bytes a host offers in T are a compound
 * Poisson sum with mean lambda T E[S] = load x rate x T / 8 and variance
 * lambda T E[S^2]; each host's must be within 3 sigma of the mean, its
 * message count within 3 sigma (sqrt(lambda T)) of lambda T, and all hosts
 * together within 3 sigma of theirs. */
static void test_tg_poisson_load(void)
{
	struct exp *e = ttg_load(tt_long, 1);
	double m1, m2, bytes[TT_HOSTS] = { 0 }, count[TT_HOSTS] = { 0 }, all = 0;
	const double T_s = 10, rate_bps = 100e9, load = 0.3;
	double lambda_T, mean, sigma;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	tt_ws_moments(&m1, &m2);
	lambda_T = load * rate_bps * T_s / (8 * m1);
	mean = lambda_T * m1;
	sigma = sqrt(lambda_T * m2);
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		CU_ASSERT_TRUE_FATAL(e->msgs[i].src < TT_HOSTS);
		bytes[e->msgs[i].src] += (double)e->msgs[i].bytes;
		count[e->msgs[i].src]++;
		all += (double)e->msgs[i].bytes;
		CU_ASSERT_TRUE(e->msgs[i].start_ps < UINT64_C(10000000000000));
		if (i)
			CU_ASSERT_TRUE(e->msgs[i].start_ps >= e->msgs[i - 1].start_ps);
	}
	for (int h = 0; h < TT_HOSTS; h++) {
		if (fabs(bytes[h] - mean) > 3 * sigma || fabs(count[h] - lambda_T) > 3 * sqrt(lambda_T))
			fprintf(stderr, "\n  h%d: %.0f B (want %.0f +- %.0f), %.0f messages (want %.0f)\n",
				h, bytes[h], mean, 3 * sigma, count[h], lambda_T);
		CU_ASSERT_TRUE(fabs(bytes[h] - mean) <= 3 * sigma);
		CU_ASSERT_TRUE(fabs(count[h] - lambda_T) <= 3 * sqrt(lambda_T));
	}
	CU_ASSERT_TRUE(fabs(all - TT_HOSTS * mean) <= 3 * sqrt(TT_HOSTS) * sigma);
	exp_free(e);
}

/* Sizes against the CDF: the Kolmogorov-Smirnov statistic D of the sizes
 * against the piecewise-linear WebSearch CDF must stay below the critical
 * value at confidence 99.9%, 1.949 / sqrt(n) (sizes are whole bytes: the
 * rounding moves F by at most 0.5 B x the largest density, 7.5e-6). */
static void test_tg_poisson_sizes(void)
{
	struct exp *e = ttg_load(tt_long, 1);
	uint64_t *v;
	double d = 0, n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	v = malloc(sizeof(*v) * e->n_msgs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	for (uint32_t i = 0; i < e->n_msgs; i++)
		v[i] = e->msgs[i].bytes;
	qsort(v, e->n_msgs, sizeof(*v), tt_u64_cmp);
	n = e->n_msgs;
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		double f = tt_ws_cdf((double)v[i]);

		d = fmax(d, fmax(fabs(f - i / n), fabs(f - (i + 1) / n)));
	}
	if (d > 1.949 / sqrt(n))
		fprintf(stderr, "\n  KS D = %g over %.0f sizes, limit %g\n", d, n, 1.949 / sqrt(n));
	CU_ASSERT_TRUE(d <= 1.949 / sqrt(n));
	CU_ASSERT_TRUE(v[0] >= 1);
	CU_ASSERT_TRUE(v[e->n_msgs - 1] <= 30000000);
	free(v);
	exp_free(e);
}

/* Destinations: never the source, and uniform over the 7 others: Pearson's
 * chi-square over every (source, destination) pair, 8 x 6 = 48 degrees of
 * freedom, below 84.1, its 99.9% quantile (Wilson-Hilferty). */
static void test_tg_poisson_dsts(void)
{
	struct exp *e = ttg_load("[{kind: poisson, load: 50%, cdf: solar, flows: 200000}]", 7);
	double pair[TT_HOSTS][TT_HOSTS] = { { 0 } }, sent[TT_HOSTS] = { 0 }, chi2 = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->n_msgs, 200000);
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		CU_ASSERT_TRUE_FATAL(e->msgs[i].dst < TT_HOSTS);
		CU_ASSERT_NOT_EQUAL(e->msgs[i].src, e->msgs[i].dst);
		pair[e->msgs[i].src][e->msgs[i].dst]++;
		sent[e->msgs[i].src]++;
	}
	for (int s = 0; s < TT_HOSTS; s++)
		for (int d = 0; d < TT_HOSTS; d++) {
			double want = sent[s] / (TT_HOSTS - 1);

			if (d != s)
				chi2 += (pair[s][d] - want) * (pair[s][d] - want) / want;
		}
	if (chi2 > 84.1)
		fprintf(stderr, "\n  chi-square %g over 48 degrees of freedom\n", chi2);
	CU_ASSERT_TRUE(chi2 <= 84.1);
	exp_free(e);
}

/* The same seed gives the same list; another seed another; `hosts` limits
 * senders and receivers; `start` shifts the arrivals; a CDF file with two
 * point masses gives those two sizes only, each about half the time
 * (within 3 sigma of the binomial). */
static void test_tg_poisson_seed(void)
{
	const char *wl = "[{kind: poisson, load: 20%, cdf: fb-hadoop, flows: 5000, start: 1ms,"
			 " hosts: [h1, h2, h5], op: send, dscp: 10}]";
	struct exp *a = ttg_load(wl, 11), *b = ttg_load(wl, 11), *c = ttg_load(wl, 12);
	char traffic[1024];
	struct exp *f;
	uint32_t small = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(a->n_msgs, 5000);
	CU_ASSERT_EQUAL_FATAL(b->n_msgs, 5000);
	CU_ASSERT_EQUAL(memcmp(a->msgs, b->msgs, sizeof(*a->msgs) * a->n_msgs), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a->msgs, c->msgs, sizeof(*a->msgs) * 5000), 0);
	for (uint32_t i = 0; i < a->n_msgs; i++) {
		const struct tg_msg *m = &a->msgs[i];

		CU_ASSERT_TRUE(m->src == 1 || m->src == 2 || m->src == 5);
		CU_ASSERT_TRUE(m->dst == 1 || m->dst == 2 || m->dst == 5);
		CU_ASSERT_TRUE(m->start_ps > UINT64_C(1000000000));
		CU_ASSERT_EQUAL(m->op, TG_OP_SEND);
		CU_ASSERT_EQUAL(m->dscp, 10);
	}
	exp_free(a);
	exp_free(b);
	exp_free(c);

	snprintf(traffic, sizeof(traffic), "[{kind: poisson, load: 10%%, cdf: '%s', flows: 10000}]",
		 test_data_path("cdf-two-sizes.txt"));
	f = ttg_load(traffic, 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (uint32_t i = 0; i < f->n_msgs; i++) {
		CU_ASSERT_TRUE(f->msgs[i].bytes == 1000 || f->msgs[i].bytes == 5000);
		small += f->msgs[i].bytes == 1000;
	}
	/* binomial(10000, 0.5): sigma 50 */
	CU_ASSERT_TRUE(abs((int)small - 5000) <= 150);
	exp_free(f);
}

int test_tg_register(void)
{
	static const struct test_case tests[] = {
		{ "qp per connection or per message", test_tg_qp_mode },
		{ "endpoints are NIC ports", test_tg_endpoints },
		{ "qps splits messages over QPs", test_tg_qps },
		{ "GPUs are put on NVLink or rail NICs", test_tg_gpu_parts },
		{ "forwarding recomputed during a run", test_tg_reroute },
		{ "poisson offered load", test_tg_poisson_load },
		{ "poisson sizes follow the CDF", test_tg_poisson_sizes },
		{ "poisson destinations uniform", test_tg_poisson_dsts },
		{ "poisson seed, hosts, start, file CDF", test_tg_poisson_seed },
	};

	return test_suite("traffic", tests);
}
