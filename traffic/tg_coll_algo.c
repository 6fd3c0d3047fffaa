/* Collective algorithms as transfers and dependencies (sources:
 * collectives reference of this project, docs/config.md "kind:
 * collective", after NCCL's and nccl-tests' definitions). Every transfer
 * is a SEND from one rank to another; a rank forwards data only once it
 * has arrived (its receive completion), slice by slice, so steps
 * pipeline the way NCCL's ring does with its step buffers.
 *
 * - Ring reduce-scatter / all-gather / all-reduce: per channel, the data
 *   of the channel in n chunks; at step t position p sends chunk
 *   (p - t) mod n to p + 1 (reduce-scatter, all-gather), all-reduce
 *   doing n - 1 reduce-scatter steps and then n - 1 all-gather steps
 *   sending chunk (p + 1 - t') mod n. Each position forwards at step t
 *   the chunk it received at step t - 1, slice for slice.
 * - Broadcast: a pipelined chain from the root along the ring order.
 * - Halving-doubling all-reduce (Rabenseifner): log2 n steps of
 *   recursive halving, exchanging S/2, S/4, ... with the partner p ^ d,
 *   then the same sizes back in doubling order; a step waits for all of
 *   the rank's previous receive.
 * - Hierarchical all-reduce: a ring reduce-scatter inside each node, a
 *   ring all-reduce across the nodes per local GPU (rail by rail, on the
 *   GPUs' own NICs), a ring all-gather inside each node; each phase of a
 *   rank waits for its last receive of the phase before.
 * - Direct all-to-all: every rank sends S/n to every other at once (or
 *   the destination's share of S under a skewed load).
 * - Double binary tree all-reduce: tg_coll_tree.c.
 *
 * With data (the data key), every transfer also says which range of the
 * data it moves (the same offset at both ranks, but for all-to-all's
 * blocks) and whether the receiver reduces it or copies it; ranges are
 * whole float32 elements (the granule); the ring of the hierarchical
 * all-reduce's cross-node phase takes the chunk each node's GPU holds
 * after the reduce-scatter in its node, and the all-gather in the node
 * starts from it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tg_coll_int.h"

int tg_deps_add(struct tg_deps *d, uint32_t id)
{
	if (d->n == d->cap) {
		uint32_t cap = d->cap ? 2 * d->cap : 8;
		uint32_t *v = realloc(d->v, sizeof(*v) * cap);

		if (!v)
			return -ENOMEM;
		d->v = v;
		d->cap = cap;
	}
	d->v[d->n++] = id;
	return 0;
}

void tg_deps_free(struct tg_deps *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

enum tg_ring_phase {
	TG_RING_RS,    /* reduce-scatter: n - 1 steps */
	TG_RING_AG,    /* all-gather: n - 1 steps */
	TG_RING_AR,    /* all-reduce: both */
	TG_RING_BCAST, /* broadcast: a chain, n - 1 hops */
};

uint64_t tg_coll_part(const struct tg_cb *b, uint64_t total, uint64_t n, uint64_t i)
{
	uint64_t g = b->granule, units = total / g;

	return g * (units / n + (i < units % n)) + (i == n - 1 ? total % g : 0);
}

uint64_t tg_coll_off(const struct tg_cb *b, uint64_t total, uint64_t n, uint64_t i)
{
	uint64_t g = b->granule, units = total / g;

	return g * (i * (units / n) + (i < units % n ? i : units % n));
}

uint32_t tg_coll_slices(const struct tg_cb *b, uint64_t bytes)
{
	uint64_t l = (bytes + b->slice_bytes - 1) / b->slice_bytes;

	return l ? (uint32_t)l : 1;
}

/* The chunk position @p sends at step @t of a ring of @n in @phase, when
 * position p starts an all-gather with chunk p + @shift. */
static uint32_t tg_ring_chunk(enum tg_ring_phase phase, uint32_t n, uint32_t p, uint32_t t,
			      uint32_t shift)
{
	if (phase == TG_RING_BCAST)
		return 0;
	if (phase == TG_RING_AR && t >= n - 1)
		return (p + 1 + n - (t - (n - 1)) % n) % n;
	return (p + shift + n - t % n) % n;
}

/* What the receiver of step @t of @phase does with it (a ring of @n). */
static enum tg_coll_step tg_ring_step(enum tg_ring_phase phase, uint32_t n, uint32_t t)
{
	return phase == TG_RING_RS || (phase == TG_RING_AR && t < n - 1) ? TG_STEP_REDUCE
									   : TG_STEP_COPY;
}

/* One ring (or chain) over positions @order[0..@n) (rank numbers) moving
 * @bytes of the data from @base in the way of @phase on channel @chan,
 * inter-node edges on @rail; an all-gather's position p starts with chunk
 * p + @shift. Position p's first sends wait for @start[p] (NULL or empty:
 * the gate); @end[p] (when not NULL, and not for a chain) receives the
 * nodes of p's last receive. 0 or -errno. */
static int tg_ring(struct tg_cb *b, const uint32_t *order, uint32_t n, uint64_t base,
		   uint64_t bytes, enum tg_ring_phase phase, uint32_t shift, uint16_t chan,
		   uint32_t rail, struct tg_deps *start, struct tg_deps *end)
{
	uint32_t chunks = phase == TG_RING_BCAST ? 1 : n, steps, lmax;
	uint32_t *prev = NULL, *next = NULL;
	int rc = 0;

	if (n < 2) {
		for (uint32_t p = 0; end && start && p < n; p++)
			for (uint32_t k = 0; k < start[p].n && rc == 0; k++)
				rc = tg_deps_add(&end[p], start[p].v[k]);
		return rc;
	}
	steps = phase == TG_RING_AR ? 2 * (n - 1) : n - 1;
	lmax = tg_coll_slices(b, tg_coll_part(b, bytes, chunks, 0));
	prev = malloc(sizeof(*prev) * (size_t)n * lmax);
	next = malloc(sizeof(*next) * (size_t)n * lmax);
	if (!prev || !next) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t t = 0; t < steps && rc == 0; t++) {
		for (uint32_t p = 0; p < n && rc == 0; p++) {
			uint32_t k, l;
			uint64_t size, off;

			if (phase == TG_RING_BCAST && p != t)
				continue; /* hop t: only position t sends */
			k = tg_ring_chunk(phase, n, p, t, shift);
			size = tg_coll_part(b, bytes, chunks, k);
			off = base + tg_coll_off(b, bytes, chunks, k);
			l = tg_coll_slices(b, size);
			for (uint32_t j = 0; j < l && rc == 0; j++) {
				const uint32_t *deps = NULL;
				uint32_t n_deps = 0, id;
				uint64_t at = off + tg_coll_off(b, size, l, j);

				if (t > 0) {
					deps = &prev[(size_t)p * lmax + j];
					n_deps = 1;
				} else if (start && start[p].n) {
					deps = start[p].v;
					n_deps = start[p].n;
				}
				rc = tg_cb_xfer(b, order[p], order[(p + 1) % n], chan, rail, at, at,
						tg_coll_part(b, size, l, j), tg_ring_step(phase, n, t), deps,
						n_deps, &id);
				next[(size_t)((p + 1) % n) * lmax + j] = id;
			}
		}
		{
			uint32_t *x = prev;

			prev = next;
			next = x;
		}
	}
	/* prev holds, for each position, what it received at the last step:
	 * the chunk its predecessor sent then. */
	for (uint32_t p = 0; end && phase != TG_RING_BCAST && p < n && rc == 0; p++) {
		uint32_t k = tg_ring_chunk(phase, n, (p + n - 1) % n, steps - 1, shift);
		uint32_t l = tg_coll_slices(b, tg_coll_part(b, bytes, chunks, k));

		for (uint32_t j = 0; j < l && rc == 0; j++)
			rc = tg_deps_add(&end[p], prev[(size_t)p * lmax + j]);
	}
out:
	free(prev);
	free(next);
	return rc;
}

/* The ring order of channel @c over all ranks: rank order, each node's run
 * of ranks rotated to start at GPU c (mod its run's length) so that the
 * channel's inter-node hops all leave and enter on rail c. */
static void tg_coll_ring_order(const struct tg_cb *b, uint32_t c, uint32_t *order)
{
	uint32_t i = 0;

	while (i < b->n) {
		uint32_t j = i, len, rot = 0;

		while (j < b->n && tg_cb_node_of(b, j) == tg_cb_node_of(b, i))
			j++;
		len = j - i;
		for (uint32_t k = 0; k < len; k++)
			if (tg_cb_gpu_of(b, i + k) == c % (b->t->gpus.gpus_per_node ? b->t->gpus.gpus_per_node : 1)) {
				rot = k;
				break;
			}
		if (!b->t->gpus.gpus_per_node)
			rot = 0;
		for (uint32_t k = 0; k < len; k++)
			order[i + k] = i + (rot + k) % len;
		i = j;
	}
}

uint32_t tg_coll_rail(const struct tg_cb *b, uint32_t gpu)
{
	uint32_t g = b->t->gpus.gpus_per_node, i = 0;

	if (!g)
		return TG_COLL_NO_RAIL;
	while (i < b->n) {
		uint32_t j = i;
		bool has = false;

		while (j < b->n && tg_cb_node_of(b, j) == tg_cb_node_of(b, i)) {
			has = has || tg_cb_gpu_of(b, j) == gpu % g;
			j++;
		}
		if (!has)
			return TG_COLL_NO_RAIL;
		i = j;
	}
	return gpu % g;
}

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

/* Where rank @p's range starts after @e halving steps of @k (it is
 * S / 2^e long): at each step of distance d the rank with bit d set keeps
 * the upper half. */
static uint64_t tg_hd_lo(const struct tg_cb *b, uint32_t p, uint32_t e)
{
	uint64_t lo = 0, len = b->bytes;

	for (uint32_t s = 0; s < e; s++) {
		len /= 2;
		if (p & (b->n >> (s + 1)))
			lo += len;
	}
	return lo;
}

static int tg_coll_halving_doubling(struct tg_cb *b, const struct cfg_node *at,
				    char err[CFG_ERR_BYTES])
{
	struct tg_deps *last = calloc(b->n, sizeof(*last)), *now = calloc(b->n, sizeof(*now));
	uint32_t k = 0;
	int rc = 0;

	while ((1u << k) < b->n)
		k++;
	if ((1u << k) != b->n) {
		cfg_errorf(err, at, "halving-doubling needs a power of two of ranks (got %u)", b->n);
		rc = -EINVAL;
	}
	if (rc == 0 && (!last || !now))
		rc = -ENOMEM;
	/* Steps 0 .. k-1 halve (distance n/2, n/4, ...), steps k .. 2k-1
	 * double (distance 1, 2, ...): step s moves S / 2^(s+1) or its mirror.
	 * Halving, a rank sends the half of its range it does not keep (the
	 * partner reduces it); doubling, the range it holds reduced (the
	 * partner copies it). */
	for (uint32_t s = 0; s < 2 * k && rc == 0; s++) {
		uint32_t e = s < k ? s : 2 * k - 1 - s, d = b->n >> (e + 1);
		uint64_t size = b->bytes >> (e + 1);
		uint32_t l = tg_coll_slices(b, size);

		for (uint32_t p = 0; p < b->n && rc == 0; p++)
			for (uint32_t j = 0; j < l && rc == 0; j++) {
				uint64_t from = s < k ? tg_hd_lo(b, p, e) + (p & d ? 0 : size)
						      : tg_hd_lo(b, p, e + 1);
				uint64_t off = from + tg_coll_off(b, size, l, j);
				uint32_t id;

				rc = tg_cb_xfer(b, p, p ^ d, 0, TG_COLL_NO_RAIL, off, off,
						tg_coll_part(b, size, l, j),
						s < k ? TG_STEP_REDUCE : TG_STEP_COPY, last[p].v, last[p].n,
						&id);
				if (rc == 0)
					rc = tg_deps_add(&now[p ^ d], id);
			}
		for (uint32_t p = 0; p < b->n && rc == 0; p++) {
			struct tg_deps x = last[p];

			last[p] = now[p];
			now[p] = x;
			now[p].n = 0;
		}
	}
	for (uint32_t p = 0; last && now && p < b->n; p++) {
		tg_deps_free(&last[p]);
		tg_deps_free(&now[p]);
	}
	free(last);
	free(now);
	return rc;
}

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

static int tg_coll_all_to_all(struct tg_cb *b)
{
	uint64_t even = b->bytes / ((uint64_t)b->granule * b->n) * b->granule;
	uint32_t first = b->c->graph->n_ops;
	bool none;
	int rc = 0;

	/* Rank a sends to a + 1, a + 2, ...: every rank starts on another.
	 * Rank r gets S/n of every rank's S (in granules), or its load's share
	 * of it (rounded down; a pair of no bytes sends nothing; a skewed load
	 * carries no data). With data, block r of a's send buffer goes to
	 * block a of r's receive buffer (which follows the send buffer). */
	for (uint32_t off = 1; off < b->n && rc == 0; off++)
		for (uint32_t a = 0; a < b->n && rc == 0; a++) {
			uint32_t r = (a + off) % b->n;
			uint64_t pair = b->load ? (uint64_t)((double)b->bytes * b->load[r]) : even;
			uint32_t l = tg_coll_slices(b, pair);

			for (uint32_t j = 0; pair && j < l && rc == 0; j++) {
				uint64_t at = tg_coll_off(b, pair, l, j);
				uint32_t id;

				rc = tg_cb_xfer(b, a, r, 0, TG_COLL_NO_RAIL, r * pair + at,
						b->bytes + a * pair + at, tg_coll_part(b, pair, l, j),
						TG_STEP_COPY, NULL, 0, &id);
			}
		}
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

int tg_coll_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	switch (b->kind) {
	case TG_COLL_ALL_REDUCE:
		if (b->alg == TG_ALG_HIERARCHICAL)
			return tg_coll_hierarchical(b, at, err);
		if (b->alg == TG_ALG_HALVING_DOUBLING)
			return tg_coll_halving_doubling(b, at, err);
		if (b->alg == TG_ALG_TREE)
			return tg_coll_tree(b);
		return tg_coll_rings(b, TG_RING_AR);
	case TG_COLL_REDUCE_SCATTER:
		return tg_coll_rings(b, TG_RING_RS);
	case TG_COLL_ALL_GATHER:
		return tg_coll_rings(b, TG_RING_AG);
	case TG_COLL_BROADCAST:
		return tg_coll_rings(b, TG_RING_BCAST);
	default:
		return tg_coll_all_to_all(b);
	}
}
