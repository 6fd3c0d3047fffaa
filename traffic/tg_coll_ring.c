/* The ring algorithm (the default of every collective but all-to-all):
 * per channel a ring over all ranks in the channel's ring order
 * (tg_coll_ring_order: rail-aligned), reduce-scatter and all-gather in
 * n - 1 steps, all-reduce in 2(n - 1), a broadcast as a pipelined chain
 * from the root (tg_ring, tg_coll_algo.c). */
#include <errno.h>
#include <stdlib.h>

#include "tg_coll_int.h"

static int tg_coll_rings(struct tg_cb *b, enum tg_ring_phase phase)
{
	uint32_t *order = malloc(sizeof(*order) * b->n);
	int rc = order ? 0 : -ENOMEM;

	for (uint32_t c = 0; c < b->channels && rc == 0; c++) {
		uint64_t base = tg_coll_off(b, b->bytes, b->channels, c);
		uint64_t part = tg_coll_part(b, b->bytes, b->channels, c);

		tg_coll_ring_order(b, c, order);
		/* With data: which chunk of the part each rank ends with
		 * (reduce-scatter: p + 1, the last it reduced) or starts with
		 * (all-gather: p, the first it sends). */
		for (uint32_t p = 0; (phase == TG_RING_RS || phase == TG_RING_AG) && p < b->n && rc == 0; p++) {
			uint32_t k = phase == TG_RING_RS ? (p + 1) % b->n : p;

			rc = tg_cb_own(b, order[p], base + tg_coll_off(b, part, b->n, k),
				       tg_coll_part(b, part, b->n, k));
		}
		if (phase == TG_RING_BCAST) {
			/* The chain starts at the root: rotate the order to it. */
			uint32_t at = 0, *rot = malloc(sizeof(*rot) * b->n);

			if (!rot) {
				rc = -ENOMEM;
				break;
			}
			while (order[at] != b->root)
				at++;
			for (uint32_t k = 0; k < b->n; k++)
				rot[k] = order[(at + k) % b->n];
			rc = tg_ring(b, rot, b->n, base, part, phase, 0, (uint16_t)c,
				     tg_coll_rail(b, c), NULL, NULL);
			free(rot);
			continue;
		}
		rc = tg_ring(b, order, b->n, base, part, phase, 0, (uint16_t)c,
			     tg_coll_rail(b, c), NULL, NULL);
	}
	free(order);
	return rc;
}

/* The ring's phase for collective @kind. */
static enum tg_ring_phase tg_coll_ring_phase(uint8_t kind)
{
	switch (kind) {
	case TG_COLL_ALL_REDUCE:
		return TG_RING_AR;
	case TG_COLL_REDUCE_SCATTER:
		return TG_RING_RS;
	case TG_COLL_ALL_GATHER:
		return TG_RING_AG;
	default:
		return TG_RING_BCAST;
	}
}

static int tg_coll_ring_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	(void)at;
	(void)err;
	return tg_coll_rings(b, tg_coll_ring_phase(b->kind));
}

static uint64_t tg_coll_ring_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	for (uint32_t c = 0; c < b->channels; c++)
		tg_est_ring(b, b->n, tg_coll_part(b, b->bytes, b->channels, c),
			    b->kind == TG_COLL_BROADCAST ? 0 : b->kind == TG_COLL_ALL_REDUCE ? 2 : 1,
			    0, rg, 1, e);
	return tg_est_mul(b->n, b->channels);
}

/* Streamed (tg.h, struct tg_stream): edge c n + p is position p's to p +
 * 1 on ring c; it carries every chunk but the one p + 1 holds (and, in an
 * all-reduce, again every chunk but p + 2's). */
static int tg_coll_ring_stream(struct tg_cb *b)
{
	bool ar = b->kind == TG_COLL_ALL_REDUCE;
	uint32_t *order = malloc(sizeof(*order) * b->n), n = b->n;
	struct tg_stream s;

	if (!order || tg_cb_stream_new(b, TG_SALG_RING, b->channels * n, &s) != 0) {
		free(order);
		return -ENOMEM;
	}
	s.steps = ar ? 2 * (n - 1) : n - 1;
	s.ar = ar;
	for (uint32_t c = 0; c < b->channels; c++) {
		uint32_t rail = tg_coll_rail(b, c);

		tg_coll_ring_order(b, c, order);
		for (uint32_t p = 0; p < n; p++) {
			uint32_t e = c * n + p;

			tg_cb_stream_edge(b, &s, e, order[p], order[(p + 1) % n], (uint16_t)c, rail);
			s.ebytes[e] = s.part[c] - tg_stream_part(s.part[c], n, (p + 1) % n);
			if (ar)
				s.ebytes[e] += s.part[c] - tg_stream_part(s.part[c], n, (p + 2) % n);
		}
	}
	free(order);
	return tg_cb_stream_add(b, &s);
}

/* At most two messages of every slice's chain made at once (one sent, its
 * next ready): 2 x ranks x channels x the slices of the largest chunk. */
static uint64_t tg_coll_ring_stream_est(const struct tg_cb *b)
{
	uint64_t part = (b->bytes + b->channels - 1) / b->channels;
	uint64_t chunk = (part + b->n - 1) / b->n;
	uint64_t l = chunk ? (chunk + b->slice_bytes - 1) / b->slice_bytes : 1;

	return tg_est_mul(tg_est_mul(2 * (uint64_t)b->n, b->channels), l);
}

const struct tg_coll_alg_ops tg_coll_ring_alg = {
	.kind = { "ring", "rings, one per channel (a chain for broadcast)", NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_REDUCE | 1u << TG_COLL_ALL_GATHER |
		 1u << TG_COLL_REDUCE_SCATTER | 1u << TG_COLL_BROADCAST,
	.build = tg_coll_ring_build,
	.est = tg_coll_ring_est,
	.stream_kinds = 1u << TG_COLL_ALL_REDUCE | 1u << TG_COLL_ALL_GATHER | 1u << TG_COLL_REDUCE_SCATTER,
	.stream = tg_coll_ring_stream,
	.stream_est = tg_coll_ring_stream_est,
};
