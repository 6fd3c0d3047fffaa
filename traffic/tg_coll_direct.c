/* The direct all-to-all: every rank sends S/n to every other at once (or
 * the destination's share of S under a skewed load); under the NCCL
 * model's PXN a send to another node's GPU of another rail goes over
 * NVLink to the GPU of that rail first, which sends it on from its NIC
 * (tg_cb_pxn). */
#include <errno.h>
#include <stdlib.h>

#include "tg_coll_int.h"

static int tg_coll_all_to_all(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	uint64_t even = b->bytes / ((uint64_t)b->granule * b->n) * b->granule;
	uint32_t first = b->c->graph->n_ops, *pxn;
	bool none;
	int rc = tg_cb_pxn_map(b, &pxn);

	(void)at;
	(void)err;

	/* Rank a sends to a + 1, a + 2, ...: every rank starts on another.
	 * Rank r gets S/n of every rank's S (in granules), or its load's share
	 * of it (rounded down; a pair of no bytes sends nothing; a skewed load
	 * carries no data). With data, block r of a's send buffer goes to
	 * block a of r's receive buffer (which follows the send buffer). */
	for (uint32_t off = 1; off < b->n && rc == 0; off++)
		for (uint32_t a = 0; a < b->n && rc == 0; a++) {
			uint32_t r = (a + off) % b->n;
			uint64_t pair = b->load ? (uint64_t)((double)b->bytes * b->load[r]) : even;
			uint32_t l = tg_coll_slices(b, pair), p = tg_cb_pxn(b, pxn, a, r);

			for (uint32_t j = 0; pair && j < l && rc == 0; j++) {
				uint64_t at = tg_coll_off(b, pair, l, j);
				uint32_t id;

				if (p != TG_COLL_NO_PXN)
					rc = tg_cb_xfer_pxn(b, a, p, r, tg_coll_part(b, pair, l, j), &id);
				else
					rc = tg_cb_xfer(b, a, r, 0, TG_COLL_NO_RAIL, r * pair + at,
							b->bytes + a * pair + at, tg_coll_part(b, pair, l, j),
							TG_STEP_COPY, NULL, 0, &id);
			}
		}
	free(pxn);
	/* No pair has a byte (S of 0B, or below a granule per rank): the
	 * instance sends nothing and takes no time. A zero-length node per
	 * rank, after what its transfers would have waited for, stands for
	 * it: the instance completes once its ranks are ready (not never, as
	 * an instance without nodes would), and what waits for it (the next
	 * iteration, a training step's next phase) keeps its order. */
	none = b->c->graph->n_ops == first;
	for (uint32_t a = 0; rc == 0 && none && a < b->n; a++) {
		struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX,
					.start_ps = b->proto.start_ps, .coll = b->coll };
		uint32_t dep = b->rank_gate ? b->rank_gate[a] : b->gate, id;

		rc = tg_graph_add(b->c->graph, &node, dep == TG_NO_GATE ? NULL : &dep,
				  dep == TG_NO_GATE ? 0 : 1, &id);
	}
	return rc;
}

/* Every ordered pair the slices of its block (none for an empty one), each
 * waiting for the gate or its rank's compute, and under PXN at most as
 * many again (the forwarded sends, each waiting for its NVLink hop); a
 * zero-length node per rank when no pair has a byte. */
static uint64_t tg_coll_direct_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint64_t n = b->n, x = 0;
	bool pxn = b->nccl.pxn && b->t->gpus.nvl && b->t->gpus.gpus_per_node > 1;

	(void)rg;
	for (uint32_t r = 0; r < b->n; r++) {
		uint64_t pair = b->load ? (uint64_t)((double)b->bytes * b->load[r])
					: b->bytes / (b->granule * n) * b->granule;

		x = tg_est_add(x, pair ? tg_coll_slices(b, pair) : 0);
	}
	x = tg_est_mul(x, (n - 1) * (pxn ? 2 : 1));
	e->msgs = tg_est_add(e->msgs, x);
	e->ops = tg_est_add(e->ops, x ? x : n);
	e->deps = tg_est_add(e->deps, x ? x : n);
	/* PXN's NVLink hops have connections of their own, to the rank's
	 * node's other GPUs. */
	return n * (n - 1) + (pxn ? n * (b->t->gpus.gpus_per_node - 1) : 0);
}

/* The bytes every rank sends rank @r. */
static uint64_t tg_coll_direct_pair(const struct tg_cb *b, uint32_t r)
{
	return b->load ? (uint64_t)((double)b->bytes * b->load[r])
		       : b->bytes / ((uint64_t)b->granule * b->n) * b->granule;
}

/* Streamed (tg.h, struct tg_stream; tg_stream_alg.c): part[r] what every
 * rank sends rank r, edge (off - 1) n + a rank a's to a + off; under PXN
 * that edge goes to the GPU of a's node on r's rail where there is one,
 * and edge (off - 1) n + a + n (n - 1) from there to r (its sender rank
 * a's, whose gate it follows). Listed when no pair has a byte (its
 * zero-length nodes stand for it). */
static int tg_coll_direct_stream(struct tg_cb *b)
{
	uint32_t n = b->n, half = (n - 1) * n, *pxn;
	uint64_t *pair;
	bool any = false;
	struct tg_stream s;

	for (uint32_t r = 0; r < n && !any; r++)
		any = tg_coll_direct_pair(b, r) != 0;
	if (!any)
		return -EAGAIN;
	if (tg_cb_pxn_map(b, &pxn) != 0)
		return -ENOMEM;
	if (tg_cb_stream_new(b, TG_SALG_DIRECT, pxn ? 2 * half : half, &s) != 0 ||
	    !(pair = realloc(s.part, sizeof(*pair) * n))) {
		free(pxn);
		tg_stream_drop(&s);
		return -ENOMEM;
	}
	s.pxn = pxn != NULL;
	s.part = pair;
	s.channels = 1;
	for (uint32_t r = 0; r < n; r++) {
		uint32_t l;

		pair[r] = tg_coll_direct_pair(b, r);
		/* A connection takes its pair's slices, all at once. */
		l = pair[r] ? tg_coll_slices(b, pair[r]) : 0;
		s.wrs = l > s.wrs ? l : s.wrs;
	}
	for (uint32_t off = 1; off < n; off++)
		for (uint32_t a = 0; a < n; a++) {
			uint32_t e = (off - 1) * n + a, r = (a + off) % n, p = tg_cb_pxn(b, pxn, a, r);

			if (!pair[r])
				continue; /* a pair of no bytes sends nothing */
			if (p == TG_COLL_NO_PXN)
				tg_cb_stream_edge(b, &s, e, a, r, 0, TG_COLL_NO_RAIL);
			else
				tg_cb_stream_edge(b, &s, e, a, p, TG_CHAN_PXN, TG_COLL_NO_RAIL);
			s.ebytes[e] = pair[r];
			if (p != TG_COLL_NO_PXN) {
				tg_cb_stream_edge(b, &s, e + half, p, r, 0, TG_COLL_NO_RAIL);
				s.ebytes[e + half] = pair[r];
				s.erank[e + half] = a;
			}
		}
	free(pxn);
	return tg_cb_stream_add(b, &s);
}

/* Every message is made at the start (none: listed). */
static uint64_t tg_coll_direct_stream_est(const struct tg_cb *b)
{
	struct tg_wl_est e = { 0 };

	tg_coll_direct_est(b, false, &e);
	return e.msgs;
}

const struct tg_coll_alg_ops tg_coll_direct_alg = {
	.kind = { "direct", "all-to-all: every pair at once", NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_TO_ALL,
	.build = tg_coll_all_to_all,
	.est = tg_coll_direct_est,
	.stream_kinds = 1u << TG_COLL_ALL_TO_ALL,
	.stream = tg_coll_direct_stream,
	.stream_est = tg_coll_direct_stream_est,
};
