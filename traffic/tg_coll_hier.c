/* The hierarchical all-reduce: a ring reduce-scatter inside each node, a
 * ring all-reduce across the nodes per local GPU (rail by rail, on the
 * GPUs' own NICs), a ring all-gather inside each node; each phase of a
 * rank waits for its last receive of the phase before. With data, the
 * cross-node ring takes the chunk each node's GPU holds after the
 * reduce-scatter in its node, and the all-gather in the node starts from
 * it. */
#include <errno.h>
#include <stdlib.h>

#include "tg_coll_int.h"

static int tg_coll_hierarchical(struct tg_cb *b, const struct cfg_node *at,
				char err[CFG_ERR_BYTES])
{
	uint32_t g = 0, n_nodes, *order = malloc(sizeof(*order) * b->n);
	struct tg_deps *a = calloc(b->n, sizeof(*a)), *z = calloc(b->n, sizeof(*z));
	int rc = order && a && z ? 0 : -ENOMEM;

	/* Equal runs of ranks per node, and more than one node. */
	while (rc == 0 && g < b->n && tg_cb_node_of(b, g) == tg_cb_node_of(b, 0))
		g++;
	n_nodes = g ? b->n / g : 0;
	for (uint32_t i = 0; rc == 0 && i < b->n; i++)
		if (b->n % g || tg_cb_node_of(b, i) != tg_cb_node_of(b, (i / g) * g) ||
		    tg_cb_gpu_of(b, i) != tg_cb_gpu_of(b, i % g) ||
		    (i % g == 0 && i && tg_cb_node_of(b, i) == tg_cb_node_of(b, i - 1))) {
			cfg_errorf(err, at, "hierarchical all-reduce needs the same GPUs of every node, node by node (rank %u breaks it)", i);
			rc = -EINVAL;
		}
	for (uint32_t c = 0; c < b->channels && rc == 0; c++) {
		uint64_t base = tg_coll_off(b, b->bytes, b->channels, c);
		uint64_t part = tg_coll_part(b, b->bytes, b->channels, c);

		for (uint32_t i = 0; i < b->n; i++) {
			a[i].n = 0;
			z[i].n = 0;
		}
		tg_coll_ring_order(b, c, order);
		/* 1. reduce-scatter inside each node (the node's run of the order) */
		for (uint32_t m = 0; m < n_nodes && rc == 0; m++)
			rc = tg_ring(b, &order[m * g], g, base, part, TG_RING_RS, 0, (uint16_t)c,
				     TG_COLL_NO_RAIL, NULL, &a[m * g]);
		/* 2. all-reduce across the nodes, GPU by GPU, a chunk each (with
		 * data: the one it holds reduced, chunk i + 1 of the node's ring) */
		for (uint32_t i = 0; i < g && rc == 0; i++) {
			uint32_t k = b->data ? (i + 1) % g : i;
			uint32_t *ring = malloc(sizeof(*ring) * n_nodes);
			struct tg_deps *st = calloc(n_nodes, sizeof(*st)), *en = calloc(n_nodes, sizeof(*en));

			if (!ring || !st || !en)
				rc = -ENOMEM;
			for (uint32_t m = 0; m < n_nodes && rc == 0; m++) {
				ring[m] = order[m * g + i];
				st[m] = a[m * g + i];
			}
			if (rc == 0)
				rc = tg_ring(b, ring, n_nodes, base + tg_coll_off(b, part, g, k),
					     tg_coll_part(b, part, g, k), TG_RING_AR, 0,
					     (uint16_t)(b->channels + c), TG_COLL_NO_RAIL, st, en);
			for (uint32_t m = 0; m < n_nodes && rc == 0; m++) {
				tg_deps_free(&z[m * g + i]);
				z[m * g + i] = en[m];
				en[m] = (struct tg_deps){ 0 };
			}
			for (uint32_t m = 0; en && m < n_nodes; m++)
				tg_deps_free(&en[m]);
			free(ring);
			free(st);
			free(en);
		}
		/* 3. all-gather inside each node (with data, from the chunk each
		 * GPU holds: i + 1) */
		for (uint32_t m = 0; m < n_nodes && rc == 0; m++)
			rc = tg_ring(b, &order[m * g], g, base, part, TG_RING_AG, b->data ? 1 : 0,
				     (uint16_t)(2 * b->channels + c), TG_COLL_NO_RAIL, &z[m * g], NULL);
	}
	for (uint32_t i = 0; a && z && i < b->n; i++) {
		tg_deps_free(&a[i]);
		tg_deps_free(&z[i]);
	}
	free(a);
	free(z);
	free(order);
	return rc;
}

/* Hierarchical all-reduce: per channel a reduce-scatter ring in each node,
 * a ring all-reduce across the nodes per chunk (its first sends waiting
 * for the slices of the last receive before), an all-gather ring in each
 * node after those. */
static void tg_est_hier(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint32_t g = 0, nodes;

	while (g < b->n && tg_cb_node_of(b, g) == tg_cb_node_of(b, 0))
		g++;
	nodes = b->n / g;
	for (uint32_t c = 0; c < b->channels; c++) {
		uint64_t part = tg_coll_part(b, b->bytes, b->channels, c), a, z = 0;

		a = tg_est_ring(b, g, part, 1, 0, rg, nodes, e);
		for (uint32_t k = 0; k < g; k++) {
			uint64_t got = tg_est_ring(b, nodes, tg_coll_part(b, part, g, k), 2, a, rg, 1, e);

			z = got > z ? got : z;
		}
		tg_est_ring(b, g, part, 1, z, rg, nodes, e);
	}
}

static uint64_t tg_coll_hier_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	tg_est_hier(b, rg, e);
	return tg_est_mul(3 * (uint64_t)b->n, b->channels);
}

uint32_t tg_coll_node_runs(const struct tg_cb *b)
{
	uint32_t g = 0;

	while (g < b->n && tg_cb_node_of(b, g) == tg_cb_node_of(b, 0))
		g++;
	if (g < 2 || b->n % g || b->n / g < 2)
		return 0;
	for (uint32_t i = 0; i < b->n; i++)
		if (tg_cb_node_of(b, i) != tg_cb_node_of(b, (i / g) * g) ||
		    tg_cb_gpu_of(b, i) != tg_cb_gpu_of(b, i % g) ||
		    (i % g == 0 && i && tg_cb_node_of(b, i) == tg_cb_node_of(b, i - 1)))
			return 0;
	return g;
}

/* Streamed (tg.h, struct tg_stream; tg_stream_alg.c): per channel c and
 * ring-order index q (node m = q / g, GPU i = q % g), edge (ph channels
 * + c) n + q is q's send of phase ph: to m g + (i + 1) mod g (phases 0
 * and 2, tags c and 2 channels + c), to (m + 1) mod nodes g + i (phase 1,
 * tag channels + c). */
static int tg_coll_hier_stream(struct tg_cb *b)
{
	uint32_t g = tg_coll_node_runs(b), n = b->n, nodes = g ? n / g : 0, *order;
	struct tg_stream s;

	if (!g)
		return -EAGAIN;
	if (!(order = malloc(sizeof(*order) * n)) || tg_cb_stream_new(b, TG_SALG_HIER, 3 * b->channels * n, &s)) {
		free(order);
		return -ENOMEM;
	}
	s.g = g;
	for (uint32_t c = 0; c < b->channels; c++) {
		tg_coll_ring_order(b, c, order);
		for (uint32_t q = 0; q < n; q++) {
			uint32_t m = q / g, i = q % g, in = m * g + (i + 1) % g;
			uint32_t across = (m + 1) % nodes * g + i;
			uint64_t x = tg_stream_part(s.part[c], g, i);

			for (uint32_t ph = 0; ph < 3; ph++) {
				uint32_t e = (ph * b->channels + c) * n + q;

				tg_cb_stream_edge(b, &s, e, order[q], order[ph == 1 ? across : in],
						  (uint16_t)(ph * b->channels + c), TG_COLL_NO_RAIL);
				/* Every chunk but one (the all-reduce: twice, but two). */
				s.ebytes[e] = ph == 1 ? 2 * x - tg_stream_part(x, nodes, (m + 1) % nodes) -
								tg_stream_part(x, nodes, (m + 2) % nodes)
						      : s.part[c] - tg_stream_part(s.part[c], g, (i + 1) % g);
			}
		}
	}
	free(order);
	return tg_cb_stream_add(b, &s);
}

/* Two messages of every slice's chain at once (as the ring's), for the
 * rings in the nodes (chunks of part / g, two phases) and across them
 * (part / n). */
static uint64_t tg_coll_hier_stream_est(const struct tg_cb *b)
{
	uint64_t part = (b->bytes + b->channels - 1) / b->channels, l = 0;
	uint32_t g = tg_coll_node_runs(b);

	if (!g)
		return 0;
	for (int k = 0; k < 3; k++) {
		uint64_t chunk = (part + (k == 1 ? b->n : g) - 1) / (k == 1 ? b->n : g);

		l += chunk ? (chunk + b->slice_bytes - 1) / b->slice_bytes : 1;
	}
	return tg_est_mul(tg_est_mul(2 * (uint64_t)b->n, b->channels), l);
}

const struct tg_coll_alg_ops tg_coll_hier_alg = {
	.kind = { "hierarchical",
		  "all-reduce: reduce-scatter in each node, all-reduce across the nodes rail by rail, all-gather in each node",
		  NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_REDUCE,
	.build = tg_coll_hierarchical,
	.est = tg_coll_hier_est,
	.stream_kinds = 1u << TG_COLL_ALL_REDUCE,
	.stream = tg_coll_hier_stream,
	.stream_est = tg_coll_hier_stream_est,
};
