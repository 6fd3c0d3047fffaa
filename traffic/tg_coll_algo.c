/* What the collective algorithms share (sources: collectives reference of
 * this project, docs/config.md "kind: collective", after NCCL's and
 * nccl-tests' definitions): how a size splits into chunks and slices,
 * dependency lists, the ring (or chain) every ring-based algorithm is made
 * of, the ring order of a channel and its rail, and the ring's estimate.
 * Every transfer is a SEND from one rank to another; a rank forwards data
 * only once it has arrived (its receive completion), slice by slice, so
 * steps pipeline the way NCCL's ring does with its step buffers.
 *
 * Ring: per channel, the data of the channel in n chunks; at step t
 * position p sends chunk (p - t) mod n to p + 1 (reduce-scatter,
 * all-gather), all-reduce doing n - 1 reduce-scatter steps and then n - 1
 * all-gather steps sending chunk (p + 1 - t') mod n. Each position
 * forwards at step t the chunk it received at step t - 1, slice for
 * slice. A broadcast is a pipelined chain along the ring order.
 *
 * With data (the data key), every transfer also says which range of the
 * data it moves and whether the receiver reduces it or copies it; ranges
 * are whole float32 elements (the granule). The algorithms themselves are
 * one file each (tg_coll_int.h). An algorithm that streams (tg.h, struct
 * tg_stream) describes its instance with tg_cb_stream_new and
 * tg_cb_stream_add. */
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

/* Slice j of a position's chunk at step t waits for slice j of what it
 * received at step t - 1: prev and next hold those node ids per position
 * and slice, swapped after each step. */
int tg_ring(struct tg_cb *b, const uint32_t *order, uint32_t n, uint64_t base, uint64_t bytes,
	    enum tg_ring_phase phase, uint32_t shift, uint16_t chan, uint32_t rail,
	    struct tg_deps *start, struct tg_deps *end)
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


void tg_coll_ring_order(const struct tg_cb *b, uint32_t c, uint32_t *order)
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

/* ---- streams ---- */

int tg_cb_stream_new(const struct tg_cb *b, uint8_t alg, uint32_t n_edges, struct tg_stream *s)
{
	*s = (struct tg_stream){ .proto = b->proto, .alg = alg, .n = b->n, .channels = b->channels,
				 .size = b->bytes, .slice_bytes = b->slice_bytes, .n_edges = n_edges,
				 .nccl = b->nccl };
	s->part = malloc(sizeof(*s->part) * b->channels);
	if (b->nccl.proto != TG_NCCL_IDEAL) {
		s->envl = calloc(n_edges ? n_edges : 1, 1);
		s->ehop_ps = calloc(n_edges ? n_edges : 1, sizeof(*s->ehop_ps));
	}
	s->ep = malloc(sizeof(*s->ep) * 2 * (size_t)(n_edges ? n_edges : 1));
	s->echan = calloc(n_edges ? n_edges : 1, sizeof(*s->echan));
	s->ebytes = calloc(n_edges ? n_edges : 1, sizeof(*s->ebytes));
	s->erank = calloc(n_edges ? n_edges : 1, sizeof(*s->erank));
	if (b->rank_gate && (s->cgate = malloc(sizeof(*s->cgate) * b->n)))
		memcpy(s->cgate, b->rank_gate, sizeof(*s->cgate) * b->n);
	if (!s->part || !s->ep || !s->echan || !s->ebytes || !s->erank || (b->rank_gate && !s->cgate) ||
	    (b->nccl.proto != TG_NCCL_IDEAL && (!s->envl || !s->ehop_ps))) {
		tg_stream_drop(s);
		return -ENOMEM;
	}
	for (uint32_t c = 0; c < b->channels; c++)
		s->part[c] = tg_coll_part(b, b->bytes, b->channels, c);
	memset(s->ep, 0xff, sizeof(*s->ep) * 2 * (size_t)n_edges);
	return 0;
}

void tg_cb_stream_edge(const struct tg_cb *b, struct tg_stream *s, uint32_t e, uint32_t a, uint32_t r,
		       uint16_t chan, uint32_t rail)
{
	tg_cb_edge(b, a, r, chan, rail, &s->ep[2 * e]);
	if (s->envl) {
		s->envl[e] = tg_cb_same_domain(b, a, r);
		s->ehop_ps[e] = tg_cb_hop_ps(b, s->envl[e], &s->ep[2 * e]);
	}
	s->echan[e] = chan;
	s->erank[e] = a;
}

int tg_cb_stream_add(struct tg_cb *b, struct tg_stream *s)
{
	bool joined = true;
	uint32_t id;

	for (uint32_t e = 0; e < s->n_edges && joined; e++)
		joined = s->ep[2 * e] == UINT32_MAX ||
			 b->islands[s->ep[2 * e]] == b->islands[s->ep[2 * e + 1]];
	if (!joined) {
		tg_stream_drop(s);
		return -EAGAIN;
	}
	return tg_graph_add_stream(b->c->graph, s, b->gate == TG_NO_GATE ? TG_NO_GATE_OP : b->gate,
				   b->coll, &id);
}

/* ---- estimates ---- */

/* Slices of the @n chunks tg_coll_part splits @bytes into: the first
 * (bytes / granule) % n of them a granule larger, the last with the
 * remainder, the others alike. The most of one chunk into *@most. */
static uint64_t tg_est_chunks(const struct tg_cb *b, uint64_t bytes, uint32_t n, uint64_t *most)
{
	uint64_t r = bytes / b->granule % n, big = 0, mid = 0, last;

	if (r)
		big = tg_coll_slices(b, tg_coll_part(b, bytes, n, 0));
	if (n - 1 > r)
		mid = tg_coll_slices(b, tg_coll_part(b, bytes, n, r));
	last = tg_coll_slices(b, tg_coll_part(b, bytes, n, n - 1));
	*most = big > mid ? big : mid;
	*most = last > *most ? last : *most;
	return tg_est_add(tg_est_add(tg_est_mul(r, big), tg_est_mul(n - 1 - r, mid)), last);
}

uint64_t tg_est_ring(const struct tg_cb *b, uint32_t n, uint64_t bytes, uint32_t rounds,
		     uint64_t start, bool rg, uint64_t times, struct tg_wl_est *e)
{
	uint64_t most, first, all;

	if (n < 2)
		return start;
	if (rounds) {
		first = tg_est_chunks(b, bytes, n, &most);
	} else {
		first = tg_coll_slices(b, bytes);
		most = first;
	}
	all = tg_est_mul(first, (uint64_t)(n - 1) * (rounds ? rounds : 1));
	e->msgs = tg_est_add(e->msgs, tg_est_mul(all, times));
	e->ops = tg_est_add(e->ops, tg_est_mul(all, times));
	e->deps = tg_est_add(e->deps, tg_est_mul(times, tg_est_add(
		tg_est_mul(first, (start > 1 ? start : 1) + rg), tg_est_mul(all - first, 1 + rg))));
	return most;
}

