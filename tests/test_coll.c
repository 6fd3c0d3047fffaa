/* CUnit suite for the collective and training workload kinds and the
 * dependency graph: the bytes each algorithm moves against its textbook
 * volume (ring all-reduce 2(n-1)S in all, all-gather, reduce-scatter,
 * all-to-all and a broadcast chain (n-1)S), rail-aligned ring channels,
 * a training step's compute, tensor, pipeline and data-parallel volumes
 * against its parallel layout, communicators kept apart, and the
 * critical-path walk on a hand-timed graph. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "tg.h"
#include "topo.h"
#include "test.h"

/* 2 nodes of 4 GPUs (node0/gpu0..node1/gpu3), a NIC per GPU on its rail,
 * NVLink inside each node. */
#define TC_TOPO                                                                              \
	"topology: {kind: rail-optimised, gpus_per_node: 4, rails: 4, nodes_per_unit: 2, "  \
	"nodes: 2, nvlink: {rate: 3.6Tbps, delay: 100ns}}\n"

static struct exp *tco_load(const char *traffic)
{
	char text[2048], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	snprintf(text, sizeof(text), TC_TOPO "traffic:\n%s", traffic);
	if (exp_load_string("c.yaml", text, NULL, 0, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return NULL;
	}
	return e;
}

/* Sum of the bytes of the graph's transfers of tag @tag (TG_TAG_N: all). */
static uint64_t tc_bytes(const struct exp *e, uint8_t tag)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i];

		if (o->kind == TG_NODE_XFER && (tag == TG_TAG_N || o->tag == tag))
			sum += e->msgs[o->msg].bytes;
	}
	return sum;
}

/* The graph is in dependency order: every node waits only for earlier ones. */
static bool tc_ordered(const struct exp *e)
{
	for (uint32_t i = 0; i < e->graph.n_ops; i++)
		for (uint32_t j = 0; j < e->graph.ops[i].n_deps; j++)
			if (e->graph.deps[e->graph.ops[i].dep_off + j] >= i)
				return false;
	return true;
}

/* Does node @i wait, directly or through others, for node @j? (A node
 * waits only for earlier ones.) */
static bool tc_reaches(const struct exp *e, uint32_t i, uint32_t j)
{
	const struct tg_node *o = &e->graph.ops[i];

	if (i == j)
		return true;
	for (uint32_t k = 0; k < o->n_deps; k++) {
		uint32_t d = e->graph.deps[o->dep_off + k];

		if (d >= j && tc_reaches(e, d, j))
			return true;
	}
	return false;
}

/* Each algorithm moves its textbook volume in all (S = 8 MiB on n = 8
 * ranks, so that every part divides evenly): ring all-reduce 2(n-1)S,
 * halving-doubling 2(n-1)S as well (Thakur et al., 2005), the double
 * binary tree too (every rank but the root sends its sum up, every one
 * but the root receives the result: 2(n-1) edges of S), all-gather,
 * reduce-scatter, all-to-all and the broadcast chain (n-1)S. */
static void test_coll_volumes(void)
{
	static const struct {
		const char *yaml;
		uint64_t factor; /* of S */
	} cases[] = {
		{ "  - {kind: collective, collective: all-reduce, size: 8MiB}\n", 14 },
		{ "  - {kind: collective, collective: all-reduce, algorithm: halving-doubling, size: 8MiB}\n", 14 },
		{ "  - {kind: collective, collective: all-reduce, algorithm: tree, size: 8MiB}\n", 14 },
		{ "  - {kind: collective, collective: all-gather, size: 8MiB}\n", 7 },
		{ "  - {kind: collective, collective: reduce-scatter, size: 8MiB}\n", 7 },
		{ "  - {kind: collective, collective: all-to-all, size: 8MiB}\n", 7 },
		{ "  - {kind: collective, collective: broadcast, root: 3, size: 8MiB}\n", 7 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct exp *e = tco_load(cases[i].yaml);

		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(e->n_colls, 1);
		CU_ASSERT_EQUAL(e->colls[0].n_ranks, 8);
		CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_N), cases[i].factor * (8u << 20));
		CU_ASSERT(tc_ordered(e));
		if (tc_bytes(e, TG_TAG_N) != cases[i].factor * (8u << 20))
			fprintf(stderr, "\n  case %zu: %llu bytes\n", i,
				(unsigned long long)tc_bytes(e, TG_TAG_N));
		exp_free(e);
	}
}

/* Ring channel c crosses between the nodes on rail c (NCCL's rail-aligned
 * rings on DGX-class nodes): with all 4 GPUs of both nodes, every
 * transfer between the nodes leaves from and arrives at a rail-c NIC, 2
 * crossings per ring step and channel: 2 x 2(n-1) x S/n bytes in all.
 * A communicator of one GPU per node (GPU 1 of each) uses that GPU's own
 * NIC for every channel. */
static void test_coll_rails(void)
{
	struct exp *e = tco_load("  - {kind: collective, collective: all-reduce, size: 8MiB}\n");
	const struct topo_gpus *g;
	uint64_t cross = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	g = &e->topo->gpus;
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		const struct tg_msg *m = &e->msgs[i];
		uint32_t c = m->chan % 4;
		bool nic0 = m->src == e->topo->nodes[g->nic[c]].first_ep ||
			    m->src == e->topo->nodes[g->nic[4 + c]].first_ep;
		bool nic1 = m->dst == e->topo->nodes[g->nic[c]].first_ep ||
			    m->dst == e->topo->nodes[g->nic[4 + c]].first_ep;
		bool nvl = m->src >= e->topo->nodes[g->nvl[0]].first_ep &&
			   m->src <= e->topo->nodes[g->nvl[7]].first_ep;

		if (nvl)
			continue;
		CU_ASSERT(nic0 && nic1);
		cross += m->bytes;
	}
	CU_ASSERT_EQUAL(cross, 2 * 2 * 7 * (uint64_t)(1 << 20));
	exp_free(e);

	e = tco_load("  - {kind: collective, collective: all-reduce, ranks: [node0/gpu1, node1/gpu1], size: 8MiB}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	g = &e->topo->gpus;
	CU_ASSERT_EQUAL(e->n_msgs > 0, 1);
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		const struct tg_msg *m = &e->msgs[i];

		CU_ASSERT(m->src == e->topo->nodes[g->nic[1]].first_ep ||
			  m->src == e->topo->nodes[g->nic[5]].first_ep);
		CU_ASSERT(m->dst == e->topo->nodes[g->nic[1]].first_ep ||
			  m->dst == e->topo->nodes[g->nic[5]].first_ep);
	}
	CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_N), 2 * (uint64_t)(8 << 20));
	exp_free(e);
}

/* A skewed all-to-all (load: a weight per rank): rank r receives its
 * share of every other rank's S, (n-1) x S x w_r / sum(w); a rank of
 * weight 0 receives nothing. With Zipf(1) rank 0 gets 1/H_8 of each S. */
static void test_coll_load(void)
{
	struct exp *e = tco_load("  - {kind: collective, collective: all-to-all, size: 8MiB,"
				" load: [2, 0, 1, 0, 1, 0, 0, 0]}\n");
	uint64_t got[8] = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	for (uint32_t i = 0; i < e->n_msgs; i++)
		for (uint32_t gpu = 0; gpu < 8; gpu++)
			if (e->msgs[i].dst == e->topo->nodes[e->topo->gpus.nvl[gpu]].first_ep ||
			    e->msgs[i].dst == e->topo->nodes[e->topo->gpus.nic[gpu]].first_ep)
				got[gpu] += e->msgs[i].bytes;
	CU_ASSERT_EQUAL(got[0], 7 * (uint64_t)(4 << 20));
	CU_ASSERT_EQUAL(got[2], 7 * (uint64_t)(2 << 20));
	CU_ASSERT_EQUAL(got[4], 7 * (uint64_t)(2 << 20));
	CU_ASSERT_EQUAL(got[1] + got[3] + got[5] + got[6] + got[7], 0);
	exp_free(e);
	e = tco_load("  - {kind: collective, collective: all-to-all, size: 8MiB, load: {zipf: 1}}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	memset(got, 0, sizeof(got));
	for (uint32_t i = 0; i < e->n_msgs; i++)
		if (e->msgs[i].dst == e->topo->nodes[e->topo->gpus.nvl[0]].first_ep ||
		    e->msgs[i].dst == e->topo->nodes[e->topo->gpus.nic[0]].first_ep)
			got[0] += e->msgs[i].bytes;
	CU_ASSERT_EQUAL(got[0], 7 * (uint64_t)((double)(8 << 20) / (1 + 1 / 2. + 1 / 3. + 1 / 4. + 1 / 5. + 1 / 6. + 1 / 7. + 1 / 8.)));
	exp_free(e);
}

/* A training step's volumes from its layout (tp 2, pp 2, dp 2 on 8 GPUs,
 * 3 microbatches): each GPU computes 3 x (1 + 2) ms, 6 passes; tensor
 * all-reduces: pp x dp groups x 6 passes x 2(tp-1) x 1 MiB; pipeline
 * sends: dp x tp x (pp-1) x 6 of 2 MiB; gradient all-reduce: pp x tp
 * groups x 2(dp-1) x 4 MiB (FSDP's all-gather and reduce-scatter the
 * same in all); a straggler of factor 2 computes twice as long; two steps,
 * each ending in a node that waits for all of it. */
static void test_train_layout(void)
{
	static const char base[] =
		"  - {kind: training, name: job, parallel: {tp: 2, pp: 2, dp: 2}, microbatches: 3,"
		" forward: 1ms, backward: 2ms, tp_bytes: 1MiB, pp_bytes: 2MiB, dp_bytes: 4MiB, steps: 2%s}\n";
	char yaml[512];

	for (int fsdp = 0; fsdp < 2; fsdp++) {
		struct exp *e;
		uint64_t compute[8] = { 0 };
		uint32_t n_compute = 0;

		snprintf(yaml, sizeof(yaml), base,
			 fsdp ? ", fsdp: true, stragglers: [{gpu: node1/gpu2, factor: 2}]" : "");
		e = tco_load(yaml);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT(tc_ordered(e));
		CU_ASSERT_EQUAL_FATAL(e->n_steps, 2);
		CU_ASSERT_EQUAL(e->steps[0].first, 0);
		CU_ASSERT_EQUAL(e->steps[1].first, e->steps[0].end + 1);
		CU_ASSERT_EQUAL(e->graph.ops[e->steps[0].end].n_deps, e->steps[0].end);
		for (uint32_t i = e->steps[0].first; i < e->steps[0].end; i++) {
			const struct tg_node *o = &e->graph.ops[i];

			if (o->kind != TG_NODE_COMPUTE || o->tag != TG_TAG_COMPUTE)
				continue;
			CU_ASSERT_FATAL(o->part >= e->topo->n_eps && o->part < e->topo->n_eps + 8);
			compute[o->part - e->topo->n_eps] += o->dur_ps;
			n_compute++;
		}
		CU_ASSERT_EQUAL(n_compute, 8 * 6);
		for (int gpu = 0; gpu < 8; gpu++)
			CU_ASSERT_EQUAL(compute[gpu], (fsdp && gpu == 6 ? 2 : 1) * UINT64_C(9000000000));
		CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_TP), 2 * 4 * 6 * 2 * (uint64_t)(1 << 20));
		CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_PP), 2 * 4 * 6 * (uint64_t)(2 << 20));
		CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_DP), 2 * 4 * 2 * (uint64_t)(4 << 20));
		CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_EP), 0);
		exp_free(e);
	}
}

/* The documented zeros of a training workload: tp_bytes, dp_bytes and
 * ep_bytes 0B make no collective (no transfer at all), pp_bytes 0B no
 * transfer but the stages still wait for each other (so stage 1's first
 * forward depends, through a join, on stage 0's), compute_jitter 0% every
 * phase exactly forward or backward. And an all-to-all whose pairs get no
 * byte (ep_bytes 1B over ep 2) sends nothing but is still a node of the
 * graph after the phase before it: the GPU's next phase keeps waiting for
 * its previous one. */
static void test_train_zeros(void)
{
	struct exp *e = tco_load("  - {kind: training, parallel: {tp: 2, pp: 2, dp: 2, ep: 2},"
				" forward: 1ms, backward: 2ms, tp_bytes: 0B, pp_bytes: 0B, dp_bytes: 0B,"
				" ep_bytes: 0B, compute_jitter: 0%}\n");
	uint32_t n_compute = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_N), 0);
	CU_ASSERT_EQUAL(e->n_msgs, 0);
	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i];

		CU_ASSERT_NOT_EQUAL(o->kind, TG_NODE_XFER);
		if (o->kind == TG_NODE_COMPUTE && o->tag == TG_TAG_COMPUTE) {
			CU_ASSERT(o->dur_ps == UINT64_C(1000000000) || o->dur_ps == UINT64_C(2000000000));
			n_compute++;
		}
	}
	CU_ASSERT_EQUAL(n_compute, 8 * 2);
	/* GPU 4 (stage 1, tensor rank 0 of replica 0) computes its forward
	 * after GPU 0's (stage 0): its first compute node reaches it. */
	{
		uint32_t first1 = UINT32_MAX, first0 = UINT32_MAX;

		for (uint32_t i = 0; i < e->graph.n_ops; i++) {
			const struct tg_node *o = &e->graph.ops[i];

			if (o->kind != TG_NODE_COMPUTE || o->tag != TG_TAG_COMPUTE)
				continue;
			if (o->part == e->topo->n_eps + 0 && first0 == UINT32_MAX)
				first0 = i;
			if (o->part == e->topo->n_eps + 4 && first1 == UINT32_MAX)
				first1 = i;
		}
		CU_ASSERT_FATAL(first0 != UINT32_MAX && first1 != UINT32_MAX);
		CU_ASSERT(tc_reaches(e, first1, first0));
	}
	exp_free(e);

	/* ep_bytes 1B among 2: no pair has a byte. */
	e = tco_load("  - {kind: training, parallel: {tp: 1, pp: 2, dp: 4, ep: 2}, forward: 1ms,"
		    " backward: 2ms, ep_bytes: 1B, microbatches: 2}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->n_msgs, 0);
	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i];

		/* Every node but the step's first compute phases waits for
		 * something: no phase floats free of the one before. */
		if (!(o->kind == TG_NODE_COMPUTE && o->tag == TG_TAG_COMPUTE && i < 4))
			CU_ASSERT(o->n_deps > 0);
	}
	exp_free(e);

	/* A 0B all-to-all collective: its instance is one node per rank. */
	e = tco_load("  - {kind: collective, collective: all-to-all, ranks: [node0/gpu0, node1/gpu0],"
		    " size: 0B}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->n_msgs, 0);
	CU_ASSERT_EQUAL(e->graph.n_colls, 1);
	CU_ASSERT_EQUAL(e->graph.n_ops, 2);
	for (uint32_t i = 0; i < e->graph.n_ops; i++)
		CU_ASSERT_EQUAL(e->graph.ops[i].coll, 0);
	exp_free(e);
}

/* Microbatches in flight on each pipeline stage (tp 2, pp 4 on 8 GPUs,
 * M = 8, F = 1 ms, B = 2 ms), read from the graph: a GPU's compute
 * phases are in its program order, a forward (F long) takes one in, a
 * backward (B) lets one out. Independent expectation (Narayanan et al.,
 * SC 2021, section 2.2.1; Megatron-LM's schedules): GPipe holds all M
 * before the first backward; 1F1B at most P - s on stage s (its warm-up
 * of P - 1 - s forwards, then one more before each backward); interleaved
 * with v = 2 chunks (F/2 and B/2 a chunk) at most 2(P - 1 - s) + (v - 1)P
 * + 1 chunk passes. Each schedule's passes all happen: 2 M v a GPU. */
static void test_train_schedules(void)
{
	static const struct {
		const char *keys;   /* the schedule's */
		uint32_t v;         /* chunks */
		uint32_t peak[4];   /* per stage */
	} cases[] = {
		{ "", 1, { 8, 8, 8, 8 } },
		{ ", schedule: gpipe", 1, { 8, 8, 8, 8 } },
		{ ", schedule: 1f1b", 1, { 4, 3, 2, 1 } },
		{ ", schedule: interleaved, chunks: 2", 2, { 11, 9, 7, 5 } },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char yaml[512];
		struct exp *e;

		snprintf(yaml, sizeof(yaml),
			 "  - {kind: training, parallel: {tp: 2, pp: 4}, microbatches: 8, forward: 1ms,"
			 " backward: 2ms, pp_bytes: 1KiB%s}\n", cases[c].keys);
		e = tco_load(yaml);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT(tc_ordered(e));
		for (uint32_t gpu = 0; gpu < 8; gpu++) {
			uint32_t in = 0, peak = 0, n = 0;

			for (uint32_t i = 0; i < e->graph.n_ops; i++) {
				const struct tg_node *o = &e->graph.ops[i];

				if (o->kind != TG_NODE_COMPUTE || o->tag != TG_TAG_COMPUTE ||
				    o->part != e->topo->n_eps + gpu)
					continue;
				n++;
				if (o->dur_ps == UINT64_C(1000000000) / cases[c].v)
					in++;
				else
					in--;
				peak = in > peak ? in : peak;
			}
			CU_ASSERT_EQUAL(in, 0);
			CU_ASSERT_EQUAL(n, 2 * 8 * cases[c].v);
			CU_ASSERT_EQUAL(peak, cases[c].peak[gpu / 2]);
		}
		exp_free(e);
	}
	/* Refused: chunks without the interleaved schedule, and interleaved
	 * with M not a multiple of P (Megatron-LM's condition). */
	for (int bad = 0; bad < 2; bad++) {
		char text[1024], err[CFG_ERR_BYTES] = "";
		struct exp *e = NULL;

		snprintf(text, sizeof(text), TC_TOPO "traffic:\n  - {kind: training, parallel: {tp: 2, pp: 4},"
			 " microbatches: %s, forward: 1ms}\n",
			 bad ? "6, schedule: interleaved, chunks: 2" : "8, schedule: 1f1b, chunks: 2");
		CU_ASSERT_NOT_EQUAL(exp_load_string("c.yaml", text, NULL, 0, &e, err), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad ? "a multiple of pp" : "only the interleaved schedule"));
	}
}

/* Communicators never share a connection: the two tensor-parallel groups
 * of stage 0 (GPUs 0-1 and 2-3 of node 0) and the data-parallel groups
 * carry different comm numbers, while all the messages of one group share
 * one. An expert all-to-all (ep 2 of dp 4) moves (ep-1)/ep x ep x S per
 * group and pass. */
static void test_train_comms(void)
{
	struct exp *e = tco_load("  - {kind: training, parallel: {tp: 2, dp: 4, ep: 2}, forward: 1ms,"
				" tp_bytes: 1MiB, dp_bytes: 1MiB, ep_bytes: 1MiB}\n");
	uint32_t comm_of_src[64];
	bool seen[64] = { false };

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i];
		const struct tg_msg *m;

		if (o->kind != TG_NODE_XFER || o->tag != TG_TAG_TP)
			continue;
		m = &e->msgs[o->msg];
		CU_ASSERT_FATAL(m->src < 64);
		if (seen[m->src])
			CU_ASSERT_EQUAL(comm_of_src[m->src], m->comm);
		seen[m->src] = true;
		comm_of_src[m->src] = m->comm;
		CU_ASSERT(m->comm != 0);
	}
	{
		const struct topo_gpus *g = &e->topo->gpus;
		uint32_t a = e->topo->nodes[g->nvl[0]].first_ep, b = e->topo->nodes[g->nvl[2]].first_ep;

		CU_ASSERT(seen[a] && seen[b]);
		if (seen[a] && seen[b])
			CU_ASSERT_NOT_EQUAL(comm_of_src[a], comm_of_src[b]);
	}
	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i], *p;

		for (uint32_t j = 0; j < i && o->kind == TG_NODE_XFER; j++) {
			p = &e->graph.ops[j];
			if (p->kind == TG_NODE_XFER && p->tag != o->tag &&
			    (o->tag == TG_TAG_DP || p->tag == TG_TAG_DP))
				CU_ASSERT_NOT_EQUAL(e->msgs[o->msg].comm, e->msgs[p->msg].comm);
		}
	}
	/* 2 passes x tp 2 x dp/ep 2 groups x (ep-1)/ep x ep x 1 MiB */
	CU_ASSERT_EQUAL(tc_bytes(e, TG_TAG_EP), 2 * 2 * 2 * (uint64_t)(1 << 20));
	exp_free(e);
}

/* The critical path of a hand-timed graph: 0 compute (ends 10), 1 a DP
 * transfer after 0 (ends 25), 2 compute after 0 (ends 18), 3 a TP
 * transfer after 2 (ends 25, the same as 1: the later index wins), 4 the
 * join of all (ends 25). Walked back: 4 (none, 0) <- 3 (tp, 7) <- 2
 * (compute, 8) <- 0 (compute, 10 from the start 0): compute 18, tp 7, the
 * sum 25; from a start of 4, node 0 counts 6. Not completed: -EAGAIN. */
static void test_critical_path(void)
{
	struct tg_graph g = { 0 };
	struct tg_node n = { .kind = TG_NODE_COMPUTE, .coll = TG_NO_COLL, .tag = TG_TAG_COMPUTE };
	uint32_t id, d0 = 0, d2 = 2, all[] = { 0, 1, 2, 3 };
	uint64_t end[] = { 10, 25, 18, 25, 25 }, part[TG_TAG_N], sum = 0;

	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, NULL, 0, &id), 0);
	n.kind = TG_NODE_XFER;
	n.tag = TG_TAG_DP;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, &d0, 1, &id), 0);
	n.kind = TG_NODE_COMPUTE;
	n.tag = TG_TAG_COMPUTE;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, &d0, 1, &id), 0);
	n.kind = TG_NODE_XFER;
	n.tag = TG_TAG_TP;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, &d2, 1, &id), 0);
	CU_ASSERT_EQUAL(tg_graph_join(&g, 0, &id), 0);
	CU_ASSERT_EQUAL(id, 4);
	CU_ASSERT_EQUAL(g.ops[4].n_deps, 4);
	CU_ASSERT_EQUAL(memcmp(&g.deps[g.ops[4].dep_off], all, sizeof(all)), 0);
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, NULL, 0, 4, 0, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_COMPUTE], 18);
	CU_ASSERT_EQUAL(part[TG_TAG_TP], 7);
	CU_ASSERT_EQUAL(part[TG_TAG_DP], 0);
	for (int t = 0; t < TG_TAG_N; t++)
		sum += part[t];
	CU_ASSERT_EQUAL(sum, 25);
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, NULL, 0, 4, 4, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_COMPUTE], 14);
	end[3] = 24; /* now 1 ends last: the DP transfer is the path */
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, NULL, 0, 4, 0, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_DP], 15);
	CU_ASSERT_EQUAL(part[TG_TAG_COMPUTE], 10);
	CU_ASSERT_EQUAL(part[TG_TAG_TP], 0);
	end[4] = UINT64_MAX;
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, NULL, 0, 4, 0, part), -EAGAIN);
	tg_graph_free(&g);
}

/* A streamed instance with rank gates (tg_stream_origins): 0 and 1
 * compute phases (end 10 and 14), 2 the instance (DP, waiting for both,
 * ends 30), 3 its join. Its last arrival's chain of waits goes back to 0
 * (sorg 0): DP 20, compute 10. Without sorg, the latest gate, 1: DP 16,
 * compute 14; with sorg naming nothing (TG_NO_GATE_OP), the same. */
static void test_critical_path_stream(void)
{
	struct tg_graph g = { 0 };
	struct tg_node n = { .kind = TG_NODE_COMPUTE, .coll = TG_NO_COLL, .tag = TG_TAG_COMPUTE };
	uint32_t id, both[] = { 0, 1 }, two = 2, sorg = 0;
	uint64_t end[] = { 10, 14, 30, 30 }, part[TG_TAG_N];

	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, NULL, 0, &id), 0);
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, NULL, 0, &id), 0);
	n.kind = TG_NODE_STREAM;
	n.tag = TG_TAG_DP;
	n.msg = 0; /* stream 0 */
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, both, 2, &id), 0);
	n.kind = TG_NODE_COMPUTE;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n, &two, 1, &id), 0);
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, &sorg, 0, 3, 0, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_DP], 20);
	CU_ASSERT_EQUAL(part[TG_TAG_COMPUTE], 10);
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, NULL, 0, 3, 0, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_DP], 16);
	CU_ASSERT_EQUAL(part[TG_TAG_COMPUTE], 14);
	sorg = TG_NO_GATE_OP;
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, &sorg, 0, 3, 0, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_DP], 16);
	/* An origin before the step's first node ends the walk there. */
	sorg = 0;
	CU_ASSERT_EQUAL(tg_critical_path(&g, end, &sorg, 1, 3, 0, part), 0);
	CU_ASSERT_EQUAL(part[TG_TAG_DP], 30);
	tg_graph_free(&g);
}

/* Which graphs run in partitions (run/fabric_par.c, traffic/tg_graph_par.c).
 * A ring of three SENDs over endpoints 0 -> 1 -> 2 -> 0, each waiting for
 * the one before it: a SEND ends at its receiver, who sends the next, so
 * with endpoint partitions {0, 0, 1} every dependency stays in one
 * partition. As WRITEs (ending at their sender) message 1, sent from
 * endpoint 1, would wait for message 0, which ends at endpoint 0: still
 * partition 0; message 2, sent from endpoint 2 (partition 1), waits for
 * message 1, which ends at endpoint 1 (partition 0): refused, since it
 * would have to start the instant a message of another partition ends. */
static void test_graph_partitions(void)
{
	struct tg_msg m[3] = {
		{ .src = 0, .dst = 1, .op = TG_OP_SEND },
		{ .src = 1, .dst = 2, .op = TG_OP_SEND },
		{ .src = 2, .dst = 0, .op = TG_OP_SEND },
	};
	const uint16_t part[3] = { 0, 0, 1 }, one[3] = { 0, 0, 0 };
	uint16_t home[8], comp[8];
	struct tg_graph g = { 0 };
	struct tg_node n = { .kind = TG_NODE_XFER, .coll = TG_NO_COLL };
	uint32_t id, dep;

	for (uint32_t i = 0; i < 3; i++) {
		n.msg = i;
		dep = i - 1;
		CU_ASSERT_EQUAL(tg_graph_add(&g, &n, i ? &dep : NULL, i ? 1 : 0, &id), 0);
	}
	CU_ASSERT(tg_graph_parallel(&g));
	CU_ASSERT_PTR_NULL(tg_graph_par_plan(&g, m, 3, sizeof(*m), part, 1000000, home, comp));
	CU_ASSERT_EQUAL(home[2], 1);
	CU_ASSERT_EQUAL(comp[1], 1); /* a SEND ends at its receiver */
	for (uint32_t i = 0; i < 3; i++)
		m[i].op = TG_OP_WRITE;
	CU_ASSERT_PTR_NOT_NULL(tg_graph_par_plan(&g, m, 3, sizeof(*m), part, 1000000, home, comp));
	CU_ASSERT_PTR_NULL(tg_graph_par_plan(&g, m, 3, sizeof(*m), one, 1000000, home, comp));
	/* A message outside the list is refused, not read. */
	CU_ASSERT_PTR_NOT_NULL(tg_graph_par_plan(&g, m, 2, sizeof(*m), one, 1000000, home, comp));
	g.data.n_xfers = 1;
	CU_ASSERT(!tg_graph_parallel(&g));
	g.data.n_xfers = 0;
	tg_graph_free(&g);
}

/* A training step's shape in two partitions (endpoints 0, 1 in partition
 * 0; 2, 3 in 1): SENDs 0 -> 1 and 2 -> 3, a join of both (a step's end),
 * then a compute phase of 2 us on each side and a SEND after each. The
 * join ends at a window's end (TG_PART_LEAD), each compute phase acts in
 * its side's partition. With a lookahead of 1 us that is exact; with 2 us
 * or more a compute phase could end inside the window that learnt of the
 * join: refused. A compute phase after both whose successors are on both
 * sides ends as an event of the root (alone, exact). A SEND straight
 * after the join: refused. */
static void test_graph_partitions_join(void)
{
	const struct tg_msg m[5] = {
		{ .src = 0, .dst = 1, .op = TG_OP_SEND }, { .src = 2, .dst = 3, .op = TG_OP_SEND },
		{ .src = 0, .dst = 1, .op = TG_OP_SEND }, { .src = 2, .dst = 3, .op = TG_OP_SEND },
		{ .src = 2, .dst = 3, .op = TG_OP_SEND },
	};
	const uint16_t part[4] = { 0, 0, 1, 1 };
	uint16_t home[16], comp[16];
	struct tg_graph g = { 0 };
	struct tg_node x = { .kind = TG_NODE_XFER, .coll = TG_NO_COLL };
	struct tg_node c = { .kind = TG_NODE_COMPUTE, .coll = TG_NO_COLL, .dur_ps = 2000000 };
	struct tg_node n0 = { .coll = TG_NO_COLL };
	uint32_t j, c0, c1, cf, id, dep, both[2];

	for (uint32_t i = 0; i < 2; i++) {
		x.msg = i;
		CU_ASSERT_EQUAL(tg_graph_add(&g, &x, NULL, 0, &id), 0);
	}
	CU_ASSERT_EQUAL(tg_graph_join(&g, 0, &j), 0);
	CU_ASSERT_EQUAL(tg_graph_add(&g, &c, &j, 1, &c0), 0);
	CU_ASSERT_EQUAL(tg_graph_add(&g, &c, &j, 1, &c1), 0);
	x.msg = 2;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &x, &c0, 1, &id), 0);
	x.msg = 3;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &x, &c1, 1, &id), 0);
	CU_ASSERT(tg_graph_parallel(&g));
	CU_ASSERT_PTR_NULL(tg_graph_par_plan(&g, m, 5, sizeof(*m), part, 1000000, home, comp));
	CU_ASSERT_EQUAL(comp[j], TG_PART_LEAD);
	CU_ASSERT_EQUAL(home[c0], 0);
	CU_ASSERT_EQUAL(home[c1], 1);
	CU_ASSERT_EQUAL(comp[c1], 1);
	CU_ASSERT_PTR_NOT_NULL(tg_graph_par_plan(&g, m, 5, sizeof(*m), part, 2000000, home, comp));
	/* A compute phase serving both sides: an event of the root. */
	both[0] = c0;
	both[1] = c1;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &c, both, 2, &id), 0);
	x.msg = 2;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &x, &id, 1, &both[0]), 0);
	x.msg = 4;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &x, &id, 1, &both[1]), 0);
	CU_ASSERT_PTR_NULL(tg_graph_par_plan(&g, m, 5, sizeof(*m), part, 1000000, home, comp));
	CU_ASSERT_EQUAL(home[id], TG_PART_ANY);
	CU_ASSERT_EQUAL(comp[id], TG_PART_ROOT);
	CU_ASSERT_EQUAL(comp[c0], 0); /* it learns of c0's end at a window's end */
	/* A compute phase that only a join waits for ends where what it waits
	 * for does (SEND 1 ends at endpoint 3: partition 1); a join of it and
	 * c0 (partition 0) ends at a window's end. */
	dep = 1;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &c, &dep, 1, &cf), 0);
	both[0] = c0;
	both[1] = cf;
	n0.kind = TG_NODE_COMPUTE;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &n0, both, 2, &id), 0); /* a join of both sides */
	CU_ASSERT_PTR_NULL(tg_graph_par_plan(&g, m, 5, sizeof(*m), part, 1000000, home, comp));
	CU_ASSERT_EQUAL(home[cf], 1);
	CU_ASSERT_EQUAL(comp[id], TG_PART_LEAD);
	/* A SEND the instant the join ends. */
	x.msg = 4;
	CU_ASSERT_EQUAL(tg_graph_add(&g, &x, &j, 1, &id), 0);
	CU_ASSERT_FATAL(g.n_ops <= sizeof(home) / sizeof(home[0]));
	CU_ASSERT_PTR_NOT_NULL(tg_graph_par_plan(&g, m, 5, sizeof(*m), part, 1000000, home, comp));
	tg_graph_free(&g);
}

/* The NCCL model's tuner against NCCL's cost model worked by hand
 * (tuning.cc's figures, traffic/tg_nccl.c): a ring all-reduce of 16 ranks
 * on 2 nodes (8 per node) with a bus bandwidth of 400 GB/s. Latency, us:
 * LL 6.6 + 28 x 0.6 + 2 x 2.7 = 28.8, LL128 14 + 28 x 1.9 + 2 x 4 = 75.2,
 * Simple 8.4 + 28 x 3.4 + 2 x 14 = 131.6; algorithm bandwidth = bus x
 * 16/30 x (LL 0.5, LL128 0.92, Simple 1): 106.67, 196.27, 213.33 GB/s.
 * LL and LL128 cross where S (1/106.67 - 1/196.27) / 1000 = 46.4 us: S =
 * 10.84 MB; LL128 and Simple where S (1/196.27 - 1/213.33) / 1000 = 56.4
 * us: S = 138.4 MB. Channels (enqueue.cc): LL's work threshold is 512
 * threads x 8 x 16 ranks = 65,536 bytes a channel, so 128 KiB runs on 2
 * of 8 channels and 512 KiB on all 8. */
static void test_nccl_tuner(void)
{
	struct tg_nccl_cfg c = { .on = true, .nvl_eff_ppm = 822222, .base_ps = -1, .nvl_hop_ps = -1,
				 .net_hop_ps = -1 };
	struct tg_nccl_shape s = { .kind = TG_COLL_ALL_REDUCE, .n = 16, .nodes = 2, .bus_Bps = 400e9,
				   .channels = 8 };
	struct tg_nccl_plan pl;
	static const struct {
		uint64_t bytes;
		uint8_t proto;
		uint32_t channels;
	} cases[] = {
		{ 8, TG_NCCL_LL, 1 },
		{ 128 << 10, TG_NCCL_LL, 2 },
		{ 512 << 10, TG_NCCL_LL, 8 },
		{ 10000000, TG_NCCL_LL, 8 },
		{ 11700000, TG_NCCL_LL128, 8 },
		{ 128 << 20, TG_NCCL_LL128, 8 },
		{ 145000000, TG_NCCL_SIMPLE, 8 },
		{ 1u << 30, TG_NCCL_SIMPLE, 8 },
	};

	CU_ASSERT_DOUBLE_EQUAL(tg_nccl_time_us(&c, &s, TG_NCCL_LL, 0), 28.8, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tg_nccl_time_us(&c, &s, TG_NCCL_LL128, 0), 75.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tg_nccl_time_us(&c, &s, TG_NCCL_SIMPLE, 0), 131.6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(tg_nccl_time_us(&c, &s, TG_NCCL_SIMPLE, 1u << 30),
			       131.6 + 1073741824.0 / (400e9 * 16 / 30) * 1e6, 1e-6);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tg_nccl_plan(&c, &s, cases[i].bytes, &pl);
		CU_ASSERT_EQUAL(pl.proto, cases[i].proto);
		CU_ASSERT_EQUAL(pl.channels, cases[i].channels);
		if (pl.proto != cases[i].proto || pl.channels != cases[i].channels)
			fprintf(stderr, "\n  %llu bytes: %s on %u channels\n", (unsigned long long)cases[i].bytes,
				tg_nccl_proto_names[pl.proto], pl.channels);
	}
	/* Forced (NCCL_PROTO), with its latencies and step; off: nothing. */
	c.proto = TG_NCCL_SIMPLE;
	tg_nccl_plan(&c, &s, 8, &pl);
	CU_ASSERT_EQUAL(pl.proto, TG_NCCL_SIMPLE);
	CU_ASSERT_EQUAL(pl.base_ps, 8400000);
	CU_ASSERT_EQUAL(pl.hop_ps[0], 14000000);
	CU_ASSERT_EQUAL(pl.hop_ps[1], 3400000);
	CU_ASSERT_EQUAL(pl.step_bytes, 0); /* the slice key's */
	c.proto = TG_NCCL_LL128;
	c.net_hop_ps = 1000000;
	tg_nccl_plan(&c, &s, 8, &pl);
	CU_ASSERT_EQUAL(pl.step_bytes, 576000);
	CU_ASSERT_EQUAL(pl.hop_ps[0], 1000000);
	CU_ASSERT_EQUAL(pl.hop_ps[1], 1900000);
	/* All-to-all: Simple in NCCL's point-to-point chunks of a peer's
	 * share (enqueue.cc addP2pToPlan): 128 KiB across nodes, a quarter
	 * under one chunk a peer and a half under 8; 512 KiB in one node. */
	c.proto = TG_NCCL_IDEAL;
	c.net_hop_ps = -1;
	c.pxn = true;
	s.kind = TG_COLL_ALL_TO_ALL;
	{
		static const struct {
			uint32_t nodes;
			uint64_t pair, chunk;
		} p2p[] = {
			{ 2, 64 << 10, 32 << 10 }, { 2, 512 << 10, 64 << 10 }, { 2, 1 << 20, 128 << 10 },
			{ 2, 64 << 20, 128 << 10 }, { 1, 64 << 10, 512 << 10 },
		};

		for (size_t i = 0; i < sizeof(p2p) / sizeof(p2p[0]); i++) {
			s.nodes = p2p[i].nodes;
			tg_nccl_plan(&c, &s, p2p[i].pair * s.n, &pl);
			CU_ASSERT_EQUAL(pl.proto, TG_NCCL_SIMPLE);
			CU_ASSERT_EQUAL(pl.step_bytes, p2p[i].chunk);
			CU_ASSERT(pl.pxn);
		}
	}
	/* A share of up to 16 KiB a peer inside one NVLink domain: LL
	 * (NCCL_P2P_LL_THRESHOLD), its 32 KiB step; across nodes Simple. */
	s.nodes = 1;
	tg_nccl_plan(&c, &s, 16384 * s.n, &pl);
	CU_ASSERT_EQUAL(pl.proto, TG_NCCL_LL);
	CU_ASSERT_EQUAL(pl.step_bytes, 32768);
	CU_ASSERT_EQUAL(pl.hop_ps[1], 600000);
	tg_nccl_plan(&c, &s, 16385 * s.n, &pl);
	CU_ASSERT_EQUAL(pl.proto, TG_NCCL_SIMPLE);
	s.nodes = 2;
	tg_nccl_plan(&c, &s, 1024 * s.n, &pl);
	CU_ASSERT_EQUAL(pl.proto, TG_NCCL_SIMPLE);
	c.pxn = false;
	tg_nccl_plan(&c, &s, 1 << 20, &pl);
	CU_ASSERT(!pl.pxn);
	c.on = false;
	tg_nccl_plan(&c, &s, 8, &pl);
	CU_ASSERT_EQUAL(pl.proto, TG_NCCL_IDEAL);
	CU_ASSERT_EQUAL(tg_nccl_wire(&pl, true, 1000), 1000);
}

/* The NCCL model's transfers, checked one by one on 2 nodes of 4 GPUs
 * (NVLink 100 ns, rail NICs on 1 us links): an all-reduce of 4 KiB under
 * LL runs one channel (4 KiB < 512 threads x 8 x 8 ranks), 8 chunks of
 * 512 bytes, each 1,024 bytes of LL lines; over NVLink at 82.2222%
 * ceil(1024 / 0.822222) = 1,246. Every send is posted NCCL's hop latency
 * less its two links' propagation after what it waits for (NVLink 0.6 -
 * 0.2 us, network 2.7 - 2 us), a first send also the launch's 6.6 us. */
static void test_nccl_xfers(void)
{
	struct exp *e = tco_load("  - {kind: collective, collective: all-reduce, size: 4KiB, nccl: {protocol: ll}}\n");
	uint32_t xfers = 0, nvl = 0, first = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->colls[0].proto, TG_NCCL_LL);
	CU_ASSERT_EQUAL(e->colls[0].channels, 1);
	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i];
		const struct tg_msg *m;
		bool over_nvl, is_first;

		if (o->kind != TG_NODE_XFER)
			continue;
		m = &e->msgs[o->msg];
		xfers++;
		over_nvl = m->bytes == 1246;
		is_first = o->n_deps == 0;
		nvl += over_nvl;
		first += is_first;
		CU_ASSERT(m->bytes == 1246 || m->bytes == 1024);
		CU_ASSERT_EQUAL(o->dur_ps, (over_nvl ? 400000u : 700000u) + (is_first ? 6600000u : 0));
	}
	/* 2 (n - 1) steps of 8 sends; the ring leaves each node once. */
	CU_ASSERT_EQUAL(xfers, 2 * 7 * 8);
	CU_ASSERT_EQUAL(nvl, 2 * 7 * 6);
	CU_ASSERT_EQUAL(first, 8);
	exp_free(e);
}

/* The rail (GPU index) of the NIC endpoint @ep in TC_TOPO's fabric, or -1
 * when it is no NIC (an NVLink endpoint). */
static int tc_rail(const struct exp *e, uint32_t ep)
{
	const struct topo_gpus *g = &e->topo->gpus;
	uint32_t node = e->topo->eps[ep].node;

	for (uint32_t i = 0; i < g->n_nodes * g->gpus_per_node; i++)
		if (g->nic[i] == node)
			return (int)(i % g->gpus_per_node);
	return -1;
}

/* PXN (NCCL's ncclTopoGetNetDev, NCCL_P2P_PXN_LEVEL 2): an all-to-all of
 * 8 ranks on 2 nodes of 4 GPUs, one 8 KiB send a pair. Of the 56 pairs,
 * 24 stay in a node (NVLink), 8 cross on one rail (GPU i to GPU i), and
 * 24 cross rails: each of those goes over NVLink to the sender's node's
 * GPU of the receiver's index (on the PXN tag) and on from that GPU's NIC
 * once it has arrived, so every network transfer stays on one rail and
 * leaves a NIC that is its sender GPU's or that the GPU of its rail
 * relays. With pxn: false the 24 go from the sender's own NIC. */
static void test_nccl_pxn(void)
{
	for (int pxn = 1; pxn >= 0; pxn--) {
		struct exp *e = tco_load(pxn ? "  - {kind: collective, collective: all-to-all, size: 64KiB, nccl: on}\n"
					     : "  - {kind: collective, collective: all-to-all, size: 64KiB, nccl: {pxn: false}}\n");
		uint32_t xfers = 0, hops = 0, relays = 0, net = 0, cross = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		for (uint32_t i = 0; i < e->graph.n_ops; i++) {
			const struct tg_node *o = &e->graph.ops[i];
			const struct tg_msg *m;

			if (o->kind != TG_NODE_XFER)
				continue;
			m = &e->msgs[o->msg];
			xfers++;
			if (m->chan == TG_CHAN_PXN) {
				hops++;
				CU_ASSERT_EQUAL(tc_rail(e, m->src), -1); /* over NVLink */
				CU_ASSERT_EQUAL(tc_rail(e, m->dst), -1);
				CU_ASSERT_EQUAL(o->n_deps, 0);
				continue;
			}
			if (tc_rail(e, m->src) < 0)
				continue; /* inside a node */
			net++;
			cross += tc_rail(e, m->src) != tc_rail(e, m->dst);
			if (o->n_deps == 1) {
				/* A relay: after the PXN hop to the GPU whose NIC it leaves. */
				const struct tg_node *d = &e->graph.ops[e->graph.deps[o->dep_off]];

				relays++;
				CU_ASSERT_EQUAL_FATAL(d->kind, TG_NODE_XFER);
				CU_ASSERT_EQUAL(e->msgs[d->msg].chan, TG_CHAN_PXN);
				CU_ASSERT_EQUAL(e->msgs[d->msg].bytes, (uint64_t)(8192 / 0.822222) + 1);
				CU_ASSERT_EQUAL(m->bytes, 8192);
			}
		}
		CU_ASSERT_EQUAL(xfers, pxn ? 80 : 56);
		CU_ASSERT_EQUAL(hops, pxn ? 24 : 0);
		CU_ASSERT_EQUAL(relays, pxn ? 24 : 0);
		CU_ASSERT_EQUAL(net, 32);
		CU_ASSERT_EQUAL(cross, pxn ? 0 : 24);
		exp_free(e);
	}
}

/* The propagation delay of endpoint @ep's link. */
static uint64_t tc_ep_delay(const struct exp *e, uint32_t ep)
{
	const struct topo_node *h = &e->topo->nodes[e->topo->eps[ep].node];

	return e->topo->links[h->port_links[e->topo->eps[ep].port]].delay_ps;
}

/* Pipeline sends under the NCCL model (NCCL's point-to-point rules,
 * enqueue.cc addP2pToPlan): 2 stages of 4 GPUs, one a node, so every
 * send of 512 KiB crosses the network: Simple in chunks of half of
 * NCCL_P2P_NET_CHUNKSIZE (a send under 8 chunks), 64 KiB, 8 a send; each
 * chunk posted the launch (8.4 us) and a network hop (14 us, less the
 * propagation of the links at both ends) after what the send waits for,
 * a point after the 8. Forward and backward, 4 tensor ranks, 1
 * microbatch: 8 sends, 64 chunks. Off: one transfer a send. */
static void test_nccl_p2p(void)
{
	for (int on = 1; on >= 0; on--) {
		struct exp *e = tco_load(on ? "  - {kind: training, parallel: {tp: 4, pp: 2}, microbatches: 1, forward: 10us, backward: 20us, pp_bytes: 512KiB, nccl: on}\n"
					    : "  - {kind: training, parallel: {tp: 4, pp: 2}, microbatches: 1, forward: 10us, backward: 20us, pp_bytes: 512KiB}\n");
		uint32_t chunks = 0, joins = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		for (uint32_t i = 0; i < e->graph.n_ops; i++) {
			const struct tg_node *o = &e->graph.ops[i];
			const struct tg_msg *m;

			if (o->tag != TG_TAG_PP)
				continue;
			if (o->kind != TG_NODE_XFER) {
				joins++;
				CU_ASSERT_EQUAL(o->n_deps, 8);
				continue;
			}
			m = &e->msgs[o->msg];
			chunks++;
			CU_ASSERT_EQUAL(m->bytes, on ? 65536u : 524288u);
			CU_ASSERT_EQUAL(o->dur_ps, on ? 8400000 + 14000000 - tc_ep_delay(e, m->src) - tc_ep_delay(e, m->dst) : 0);
		}
		CU_ASSERT_EQUAL(chunks, on ? 64 : 8);
		CU_ASSERT_EQUAL(joins, on ? 8 : 0);
		exp_free(e);
	}
}

/* PXN for pipeline sends (ncclTopoGetNetDev's point-to-point branch): 4
 * stages of 2 GPUs, node0's GPUs 2-3 the second stage and node1's 0-1 the
 * third, so its sends cross rails (GPU 2 to GPU 0, 3 to 1, and back):
 * each 64 KiB chunk goes over NVLink to the sender node's GPU of the
 * receiver's index (a job GPU) and leaves from that GPU's NIC; every
 * network transfer stays on one rail. 2 tensor ranks x 2 directions x 1
 * microbatch = 4 sends of 8 chunks: 32 NVLink hops. */
static void test_nccl_p2p_pxn(void)
{
	struct exp *e = tco_load("  - {kind: training, parallel: {tp: 2, pp: 4}, microbatches: 1, forward: 10us, backward: 20us, pp_bytes: 512KiB, nccl: on}\n");
	uint32_t hops = 0, net = 0, cross = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	for (uint32_t i = 0; i < e->graph.n_ops; i++) {
		const struct tg_node *o = &e->graph.ops[i];
		const struct tg_msg *m;

		if (o->tag != TG_TAG_PP || o->kind != TG_NODE_XFER)
			continue;
		m = &e->msgs[o->msg];
		hops += m->chan == TG_CHAN_PXN;
		if (tc_rail(e, m->src) < 0)
			continue;
		net++;
		cross += tc_rail(e, m->src) != tc_rail(e, m->dst);
	}
	CU_ASSERT_EQUAL(hops, 32);
	CU_ASSERT_EQUAL(net, 32);
	CU_ASSERT_EQUAL(cross, 0);
	exp_free(e);
}

int test_coll_register(void)
{
	static const struct test_case tests[] = {
		{ "collective volumes", test_coll_volumes },
		{ "rail-aligned ring channels", test_coll_rails },
		{ "skewed all-to-all", test_coll_load },
		{ "training layout and volumes", test_train_layout },
		{ "training communicators", test_train_comms },
		{ "training pipeline schedules", test_train_schedules },
		{ "training and all-to-all of no bytes", test_train_zeros },
		{ "critical path", test_critical_path },
		{ "critical path: a streamed instance", test_critical_path_stream },
		{ "graphs in partitions", test_graph_partitions },
		{ "graphs in partitions: joins and compute phases", test_graph_partitions_join },
		{ "NCCL model: the tuner against NCCL's cost model", test_nccl_tuner },
		{ "NCCL model: each transfer's bytes and latency", test_nccl_xfers },
		{ "NCCL model: PXN's route of an all-to-all", test_nccl_pxn },
		{ "NCCL model: pipeline sends in NCCL's chunks", test_nccl_p2p },
		{ "NCCL model: PXN for pipeline sends", test_nccl_p2p_pxn },
	};

	return test_suite("coll", tests);
}
