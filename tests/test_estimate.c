/* CUnit suite for the run-size estimate (tg_wl_admit, run/exp_estimate.c):
 * for every workload kind, on a few parameter sets, what the kind worked
 * out from its keys before expanding against what the expansion made:
 * the messages exactly (at least, for GPU messages placed on NIC ports
 * and a poisson duration), the graph's operations and edges, collective
 * instances, steps and connections never under; the loader's refusals
 * over the message cap and the memory bound, with the estimate and the
 * bound in the message; the memory estimate's parts adding up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp.h"
#include "tg.h"
#include "tg_wl.h"
#include "test.h"

/* Hosts h0..h7 on two leaves. */
#define TE_HOSTS "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 4}\n"
/* 2 nodes of 4 GPUs (node0/gpu0..node1/gpu3), a NIC per GPU on its rail,
 * NVLink inside each node. */
#define TE_GPUS                                                                              \
	"topology: {kind: rail-optimised, gpus_per_node: 4, rails: 4, nodes_per_unit: 2, "  \
	"nodes: 2, nvlink: {rate: 3.6Tbps, delay: 100ns}}\n"
/* 4 nodes of 2 GPUs with NICs of 2 ports (a GPU message to another node
 * is split over both). */
#define TE_PORTS                                                                             \
	"topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes_per_unit: 4, "  \
	"nodes: 4, nic_ports: 2}\n"

enum { TE_TEXT_BYTES = 2048 };

/* The experiment @topo with the one workload @wl (more keys in @extra),
 * or NULL with the error printed. */
static struct exp *te_load(const char *topo, const char *wl, const char *extra)
{
	char text[TE_TEXT_BYTES], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	snprintf(text, sizeof(text), "%s%straffic:\n  - %s\n", topo, extra ? extra : "", wl);
	if (exp_load_string("e.yaml", text, NULL, 0, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return NULL;
	}
	return e;
}

static int te_conn_cmp(const void *a, const void *b)
{
	const struct tg_msg *x = a, *y = b;

	if (x->workload != y->workload)
		return x->workload < y->workload ? -1 : 1;
	if (x->dscp != y->dscp)
		return x->dscp < y->dscp ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->chan != y->chan)
		return x->chan < y->chan ? -1 : 1;
	return (x->comm > y->comm) - (x->comm < y->comm);
}

/* The connections @e's messages use: distinct (workload, DSCP, src, dst,
 * channel, communicator), or one a message when per-message (what
 * tg_new groups them by). */
static uint64_t te_conns(const struct exp *e)
{
	struct tg_msg *v = malloc(sizeof(*v) * (e->n_msgs ? e->n_msgs : 1));
	uint64_t n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	if (e->n_msgs) {
		memcpy(v, e->msgs, sizeof(*v) * e->n_msgs);
		qsort(v, e->n_msgs, sizeof(*v), te_conn_cmp);
	}
	for (uint32_t i = 0; i < e->n_msgs; i++)
		n += i == 0 || te_conn_cmp(&v[i - 1], &v[i]) != 0 || v[i].qp_mode == TG_QP_PER_MESSAGE;
	free(v);
	return n;
}

/* Load @wl on @topo and hold its estimate against what it made: the
 * messages equal (at least, with @msgs_bound), the rest at least. */
static void te_check(const char *topo, const char *wl, bool msgs_bound)
{
	struct exp *e = te_load(topo, wl, NULL);
	const struct tg_wl_est *est;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_workloads, 1);
	est = &e->workloads[0].est;
	if ((msgs_bound ? est->msgs < e->n_msgs : est->msgs != e->n_msgs) ||
	    est->ops < e->graph.n_ops || est->deps < e->graph.n_deps || est->colls != e->n_colls ||
	    est->steps != e->n_steps || est->conns < te_conns(e) ||
	    est->data_xfers < e->graph.data.n_xfers) {
		fprintf(stderr, "\n  %s\n  estimate: msgs %llu ops %llu deps %llu colls %llu steps %llu "
			"conns %llu data %llu\n  made:     msgs %u ops %u deps %u colls %u steps %u "
			"conns %llu data %u\n", wl, (unsigned long long)est->msgs,
			(unsigned long long)est->ops, (unsigned long long)est->deps,
			(unsigned long long)est->colls, (unsigned long long)est->steps,
			(unsigned long long)est->conns, (unsigned long long)est->data_xfers, e->n_msgs,
			e->graph.n_ops, e->graph.n_deps, e->n_colls, e->n_steps,
			(unsigned long long)te_conns(e), e->graph.data.n_xfers);
		CU_FAIL("estimate below what the workload made");
	}
	exp_free(e);
}

/* ---- the point-to-point kinds ---- */

static void test_estimate_p2p(void)
{
	static const char *const wls[] = {
		"{kind: messages, messages: [{src: h0, dst: h1, size: 1KiB}, {src: h1, dst: h0, size: 0B},"
		" {src: h2, dst: h7, size: 4MiB}]}",
		"{kind: permutation, size: 64KiB}",
		"{kind: permutation, size: 64KiB, hosts: [h1, h3, h5], stride: 2}",
		"{kind: incast, dst: h0, count: 5, size: 8KiB}",
		"{kind: incast, dst: h7, srcs: [h0, h1], size: 8KiB, qp: per-message}",
		"{kind: poisson, load: 30%, cdf: websearch, flows: 777}",
		"{kind: poisson, load: 30%, cdf: websearch, flows: 50, qps: 4}",
	};

	for (size_t i = 0; i < sizeof(wls) / sizeof(wls[0]); i++)
		te_check(TE_HOSTS, wls[i], false);
	/* With a duration the count is drawn: the estimate is a bound. */
	te_check(TE_HOSTS, "{kind: poisson, load: 50%, cdf: websearch, duration: 200us}", true);
	te_check(TE_HOSTS, "{kind: poisson, load: 10%, cdf: fb-hadoop, duration: 1ms, start: 5us}", true);
}

/* GPU messages are split over NIC ports once expanded (tg_wl_place): the
 * estimate counts each at its most parts. */
static void test_estimate_placed(void)
{
	static const char *const wls[] = {
		"{kind: messages, messages: [{src: node0/gpu0, dst: node1/gpu0, size: 1MiB},"
		" {src: node0/gpu0, dst: node0/gpu1, size: 1MiB}, {src: node2/gpu1, dst: node3/gpu1, size: 1B}]}",
		"{kind: permutation, size: 64KiB}",
		"{kind: incast, dst: node0/gpu0, count: 7, size: 1MiB}",
		"{kind: poisson, load: 30%, cdf: websearch, flows: 100}",
	};

	for (size_t i = 0; i < sizeof(wls) / sizeof(wls[0]); i++)
		te_check(TE_PORTS, wls[i], true);
}

/* ---- collectives ---- */

static void test_estimate_collective(void)
{
	static const char *const wls[] = {
		"{kind: collective, collective: all-reduce, size: 1MiB}",
		"{kind: collective, collective: all-reduce, size: 1000003B, slice: 4KiB, channels: 3}",
		"{kind: collective, collective: all-reduce, sizes: {from: 1KiB, to: 4MiB, factor: 4}, iterations: 3}",
		"{kind: collective, collective: all-reduce, size: 3MiB, compute: 10us, compute_jitter: 10%}",
		"{kind: collective, collective: reduce-scatter, size: 777777B, slice: 64KiB}",
		"{kind: collective, collective: all-gather, sizes: [0B, 1B, 9999B, 2MiB]}",
		"{kind: collective, collective: broadcast, size: 5MiB, root: 3, channels: 2}",
		"{kind: collective, collective: all-reduce, algorithm: halving-doubling, size: 8MiB, slice: 100KiB}",
		"{kind: collective, collective: all-reduce, algorithm: halving-doubling, size: 12B, compute: 1us}",
		"{kind: collective, collective: all-reduce, algorithm: hierarchical, size: 6MiB, slice: 256KiB}",
		"{kind: collective, collective: all-reduce, algorithm: hierarchical, size: 1000001B, channels: 3, compute: 2us}",
		"{kind: collective, collective: all-reduce, algorithm: tree, size: 4MiB}",
		"{kind: collective, collective: all-reduce, algorithm: tree, size: 999999B, channels: 3, compute: 1us}",
		"{kind: collective, collective: all-to-all, size: 8MiB, iterations: 2}",
		"{kind: collective, collective: all-to-all, size: 7B}",
		"{kind: collective, collective: all-to-all, size: 16MiB, load: {zipf: 1.2}, compute: 1us}",
		"{kind: collective, collective: all-to-all, size: 1MiB, load: [1, 0, 0, 0, 0, 0, 0, 3]}",
		"{kind: collective, collective: all-reduce, size: 1MiB, ranks: [node0/gpu0, node1/gpu2, node1/gpu3]}",
		"{kind: collective, collective: all-reduce, size: 1MiB, qp: per-message, qps: 2}",
	};

	for (size_t i = 0; i < sizeof(wls) / sizeof(wls[0]); i++)
		te_check(TE_GPUS, wls[i], false);
	te_check(TE_HOSTS, "{kind: collective, collective: all-reduce, size: 2MiB}", false);
	te_check(TE_HOSTS, "{kind: collective, collective: all-to-all, size: 2MiB}", false);
}

/* Data-carrying instances (whole float32 elements: a granule of 4). */
static void test_estimate_data(void)
{
	static const char *const wls[] = {
		"{kind: collective, collective: all-reduce, size: 1000004B, slice: 8KiB, data: true}",
		"{kind: collective, collective: all-reduce, algorithm: hierarchical, size: 400004B, data: true}",
		"{kind: collective, collective: reduce-scatter, size: 65540B, slice: 1KiB, data: true}",
		"{kind: collective, collective: all-to-all, size: 262148B, data: true}",
	};
	char text[TE_TEXT_BYTES], err[CFG_ERR_BYTES] = "";

	for (size_t i = 0; i < sizeof(wls) / sizeof(wls[0]); i++) {
		struct exp *e = NULL;

		snprintf(text, sizeof(text), "%snic: {payload: true, recovery: go-back-n}\ntraffic:\n  - %s\n",
			 TE_GPUS, wls[i]);
		CU_ASSERT_EQUAL_FATAL(exp_load_string("e.yaml", text, NULL, 0, &e, err), 0);
		CU_ASSERT_EQUAL(e->workloads[0].est.msgs, e->n_msgs);
		CU_ASSERT(e->workloads[0].est.data_xfers >= e->graph.data.n_xfers);
		CU_ASSERT(e->workloads[0].est.deps >= e->graph.n_deps);
		CU_ASSERT(e->workloads[0].est.ops >= e->graph.n_ops);
		exp_free(e);
	}
}

/* ---- training ---- */

static void test_estimate_training(void)
{
	static const char *const wls[] = {
		"{kind: training, parallel: {tp: 4, pp: 2}, microbatches: 3, forward: 1us, backward: 2us,"
		" tp_bytes: 1MiB, pp_bytes: 256KiB, steps: 2}",
		"{kind: training, parallel: {tp: 2, pp: 2, dp: 2}, microbatches: 2, tp_bytes: 700KiB,"
		" pp_bytes: 1MiB, dp_bytes: 3MiB, steps: 3, overlap: true}",
		"{kind: training, parallel: {tp: 2, dp: 4, ep: 2}, microbatches: 2, ep_bytes: 2MiB,"
		" dp_bytes: 1MiB, fsdp: true, steps: 2}",
		"{kind: training, parallel: {dp: 8, ep: 8}, ep_bytes: 5B, dp_bytes: 1MiB, fsdp: true, overlap: true}",
		"{kind: training, parallel: {pp: 8}, microbatches: 4, forward: 1us, steps: 2}",
		"{kind: training, parallel: {tp: 8}, microbatches: 5, tp_bytes: 1B, compute_jitter: 5%}",
		"{kind: training, parallel: {tp: 2, pp: 4}, microbatches: 2, pp_bytes: 1MiB, qp: per-message}",
	};

	for (size_t i = 0; i < sizeof(wls) / sizeof(wls[0]); i++)
		te_check(TE_GPUS, wls[i], false);
}

/* ---- traces ---- */

static void test_estimate_trace(void)
{
	static const struct {
		const char *text;
		bool placed;  /* GPU messages: a bound */
	} cases[] = {
		{ "start,src,dst,bytes\n0us,0,1,10\n1us,1,2,10\n2us,2,3,100000\n", false },
		{ "start,src,dst,bytes,id,depends_on\n0us,0,1,10,1,\n0us,1,2,10,2,1\n0us,2,3,10,3,1;2\n", false },
		{ "start,src,dst,bytes,id,depends_on\n0us,node0/gpu0,node1/gpu0,100,1,\n"
		  "0us,node1/gpu0,node2/gpu1,1,2,1\n0us,node2/gpu0,node2/gpu1,64,3,1;2\n", true },
	};
	char dir[] = "/tmp/fabemu-estimate-XXXXXX", path[64], wl[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	snprintf(wl, sizeof(wl), "{kind: trace, file: %s}", path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fputs(cases[i].text, f);
		fclose(f);
		te_check(cases[i].placed ? TE_PORTS : TE_HOSTS, wl, cases[i].placed);
	}
	unlink(path);
	rmdir(dir);
}

/* ---- refusals ---- */

/* Over the message cap: refused at the workload, the estimate and the
 * cap in the message. The training mix, worked by hand: 8 steps x 2
 * passes x 1024 microbatches x 2 stages of a tensor all-reduce of 4
 * ranks over 4 channels of 16 MiB, each 2 x 3 ring steps x 4 chunks x 8
 * slices of 512 KiB: 25,165,824 messages, after the permutation's 8, when
 * listed (flows.csv asked for). Streamed (outputs.flows_csv auto) the
 * job is admitted: the messages it makes at once are the cap's. */
static void test_estimate_refusals(void)
{
	char text[TE_TEXT_BYTES], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;
	const char *job = "traffic:\n  - {kind: permutation, size: 1KiB}\n"
			  "  - {kind: training, name: llama, parallel: {tp: 4, pp: 2}, microbatches: 1024,"
			  " tp_bytes: 64MiB, steps: 8}\n";

	snprintf(text, sizeof(text), "%soutputs: {flows_csv: true}\n%s", TE_GPUS, job);
	CU_ASSERT_NOT_EQUAL(exp_load_string("e.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "e.yaml:5:5: training 'llama': about 25,165,824 messages, "
				      "25,165,832 with the workloads before it (at most 20,000,000 in one experiment;"));
	snprintf(text, sizeof(text), "%s%s", TE_GPUS, job);
	CU_ASSERT_EQUAL(exp_load_string("e.yaml", text, NULL, 0, &e, err), 0);
	exp_free(e);
	e = NULL;
	/* Under a memory bound of 1 MiB, the first workload does not fit. */
	snprintf(text, sizeof(text), "%sengine: {max_memory: 1MiB}\ntraffic:\n  - {kind: permutation, size: 1KiB}\n",
		 TE_HOSTS);
	CU_ASSERT_NOT_EQUAL(exp_load_string("e.yaml", text, NULL, 0, &e, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "e.yaml:4:5: permutation 'permutation0': the run would take about "));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "more than engine.max_memory (1.0 MiB); fewer hosts"));
}

/* The parts add up to the total, and the bound is what was asked for. */
static void test_estimate_memory(void)
{
	struct exp *e = te_load(TE_GPUS, "{kind: collective, collective: all-reduce, size: 1MiB}",
				"engine: {max_memory: 1TiB}\n");
	struct exp_estimate est;
	char line[512] = "";
	FILE *f = tmpfile();

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(exp_estimate(e, &est), 0);
	CU_ASSERT_EQUAL(est.total_bytes,
			est.traffic_bytes + est.graph_bytes + est.fabric_bytes + est.pool_bytes);
	CU_ASSERT_EQUAL(est.msgs, e->n_msgs);
	CU_ASSERT(est.qp_pairs >= 1);
	CU_ASSERT(est.bound_set && est.bound_bytes == UINT64_C(1) << 40);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	exp_estimate_print(e, f);
	rewind(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "check: memory: about "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, " for 448 messages and 448 graph operations; bound: engine.max_memory (1024.0 GiB)"));
	exp_free(e);
}

int test_estimate_register(void)
{
	static const struct test_case tests[] = {
		{ "p2p", test_estimate_p2p },
		{ "placed", test_estimate_placed },
		{ "collective", test_estimate_collective },
		{ "data", test_estimate_data },
		{ "training", test_estimate_training },
		{ "trace", test_estimate_trace },
		{ "refusals", test_estimate_refusals },
		{ "memory", test_estimate_memory },
	};

	return test_suite("estimate", tests);
}
