/* Streamed collectives, per algorithm (tg.h, struct tg_stream): which
 * messages an instance makes at its start and which each arrival makes
 * ready, in the order and at the times the listed algorithm's messages
 * would start (tg_coll_ring.c, tg_coll_hier.c, tg_coll_tree.c,
 * tg_coll_hd.c build those; a listed message starts when the last of
 * what it waits for arrives, those started by one arrival in the order
 * they were built). What waits for several arrivals counts them in the
 * instance's cnt, per rank: messages of one connection arrive in the
 * order they were posted (RC), so a count says which have.
 *
 * Ring (alg RING): struct tg_smsg's c, step, p (position), j; edge c n +
 * p. Hierarchical (HIER): per channel c, over ring-order index q (node m
 * = q / g, GPU i = q % g): phase 0 a reduce-scatter ring in each node,
 * phase 1 an all-reduce ring across the nodes per i over chunk i, phase
 * 2 an all-gather ring in each node; p is the sender's q, edge (ph
 * channels + c) n + q; a rank's next phase starts once the last step of
 * the one before has arrived whole (cnt: per phase change, channel and
 * q). Tree (TREE): ph 0 up (p the sender), 1 down (p the receiver); edges
 * c 2n + p up, c 2n + n + p down; a rank sends slice j up (the root: down)
 * once every child's slice j has arrived (cnt: per channel, rank and
 * child, the slices arrived). Halving-doubling (HD): step s, rank p, edge
 * e n + p for the exchange of distance n / 2^(e+1); a rank's step s + 1
 * waits for all it received at step s (cnt: per step and rank). Direct
 * (DIRECT): every rank a sends to a + off (off = 1 .. n - 1) at the
 * start, p = a, step = off, edge (off - 1) n + a; with PXN (pxn) what
 * arrives on edge e goes on over edge e + n(n - 1) where it has one (ph
 * 1), at once; nothing else waits. */
#include <stdlib.h>

#include "tg_int.h"

enum { TG_SA_NONE = UINT32_MAX, TG_SA_KIDS = 3 };

uint64_t tg_stream_part(uint64_t total, uint64_t n, uint64_t i)
{
	return total / n + (i < total % n);
}

uint32_t tg_stream_slices(const struct tg_stream *s, uint64_t bytes)
{
	uint64_t l = (bytes + s->slice_bytes - 1) / s->slice_bytes;

	return l ? (uint32_t)l : 1;
}

/* The chunk position @p of a ring of @n sends at step @t (@ar: an
 * all-reduce, turning at n - 1). */
static uint32_t tg_sa_chunk(bool ar, uint32_t n, uint32_t p, uint32_t t)
{
	if (ar && t >= n - 1)
		return (p + 1 + n - (t - (n - 1)) % n) % n;
	return (p + n - t % n) % n;
}

/* Halving-doubling: the distance exponent of step @st of @s (log2 n =
 * steps / 2). */
static uint32_t tg_sa_hd_e(const struct tg_stream *s, uint32_t st)
{
	uint32_t k = s->steps / 2;

	return st < k ? st : 2 * k - 1 - st;
}

/* Every slice of @bytes as a message like @m (its j), posted at @at. */
static void tg_sa_slices(struct tg *t, uint32_t i, struct tg_smsg *m, uint64_t bytes, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	uint32_t l = tg_stream_slices(s, bytes);

	for (m->j = 0; m->j < l; m->j++) {
		m->bytes = tg_stream_part(bytes, l, m->j);
		tg_stream_make(t, i, m, at);
	}
}

/* ---- ring and hierarchical ---- */

/* Ring position @p's first sends on channel @c. */
static void tg_sa_ring_first(struct tg *t, uint32_t i, uint32_t c, uint32_t p, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	struct tg_smsg m = { .c = c, .p = p, .e = c * s->n + p, .org = TG_NO_OP };

	tg_sa_slices(t, i, &m, tg_stream_part(s->part[c], s->n, tg_sa_chunk(s->ar, s->n, p, 0)), at);
}

/* Direct: rank @a's send to @a + @off, if it has bytes. */
static void tg_sa_direct_send(struct tg *t, uint32_t i, uint32_t a, uint32_t off, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	struct tg_smsg m = { .p = a, .step = off, .e = (off - 1) * s->n + a, .org = TG_NO_OP };

	if (s->part[(a + off) % s->n])
		tg_sa_slices(t, i, &m, s->part[(a + off) % s->n], at);
}

/* Hierarchical: the ring of phase @ph that order index @q is in: its
 * size, @q's position in it and the order index of that position's
 * successor; the bytes of chunk k of it are tg_sa_hier_chunk's. */
static uint32_t tg_sa_hier_ring(const struct tg_stream *s, uint8_t ph, uint32_t q, uint32_t *pos,
				uint32_t *next)
{
	uint32_t g = s->g, nodes = s->n / g, m = q / g, i = q % g;

	if (ph == 1) {
		*pos = m;
		*next = (m + 1) % nodes * g + i;
		return nodes;
	}
	*pos = i;
	*next = m * g + (i + 1) % g;
	return g;
}

static uint64_t tg_sa_hier_chunk(const struct tg_stream *s, uint8_t ph, uint32_t c, uint32_t q,
				 uint32_t k)
{
	uint32_t g = s->g;

	if (ph == 1)
		return tg_stream_part(tg_stream_part(s->part[c], g, q % g), s->n / g, k);
	return tg_stream_part(s->part[c], g, k);
}

/* Hierarchical: order index @q's first sends of phase @ph of channel @c
 * (@org: struct tg_smsg's). */
static void tg_sa_hier_first(struct tg *t, uint32_t i, uint8_t ph, uint32_t c, uint32_t q,
			     uint32_t org, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	uint32_t pos, next;
	struct tg_smsg m = { .c = c, .step = 0, .p = q, .ph = ph,
			     .e = (ph * s->channels + c) * s->n + q, .org = org };

	tg_sa_hier_ring(s, ph, q, &pos, &next);
	tg_sa_slices(t, i, &m, tg_sa_hier_chunk(s, ph, c, q, pos), at);
}

static void tg_sa_hier_arrived(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	uint32_t pos, next, n = tg_sa_hier_ring(s, m->ph, m->p, &pos, &next);
	bool ar = m->ph == 1;
	uint32_t steps = ar ? 2 * (n - 1) : n - 1, *cnt;
	struct tg_smsg x = *m;

	if (m->step + 1 < steps) {
		/* The same slice of the same chunk goes on round the ring. */
		x.step++;
		x.p = next;
		x.e = (m->ph * s->channels + m->c) * s->n + next;
		tg_stream_make(t, i, &x, at);
		return;
	}
	if (m->ph == 2)
		return;
	/* The last step: the receiver's next phase once all of it is in. */
	cnt = &tg_srt_blk(&t->st->rt[i])[((size_t)m->ph * s->channels + m->c) * s->n + next];
	if (++*cnt == tg_stream_slices(s, tg_sa_hier_chunk(s, m->ph, m->c, m->p,
							   tg_sa_chunk(ar, n, pos, m->step))))
		tg_sa_hier_first(t, i, (uint8_t)(m->ph + 1), m->c, next, m->org, at);
}

/* ---- tree ---- */

/* Channel @c's tree of @s: parent, children, pre-order. */
static const uint32_t *tg_sa_tree(const struct tg_stream *s, uint32_t c, const uint32_t **kids,
				  const uint32_t **order)
{
	const uint32_t *up = &s->tree[(size_t)6 * s->n * c];

	*kids = up + s->n;
	*order = up + 4 * (size_t)s->n;
	return up;
}

/* Rank @r's slice @j of channel @c up, if @r is a leaf of that tree. */
static void tg_sa_tree_leaf(struct tg *t, uint32_t i, uint32_t c, uint32_t j, uint32_t r, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	const uint32_t *kids, *order, *up = tg_sa_tree(s, c, &kids, &order);
	uint32_t l = tg_stream_slices(s, s->part[c]);
	struct tg_smsg m = { .c = c, .p = r, .j = j, .ph = 0, .e = 2 * s->n * c + r,
			     .bytes = tg_stream_part(s->part[c], l, j), .org = TG_NO_OP };

	if (up[r] != TG_SA_NONE && kids[3 * r] == TG_SA_NONE && kids[3 * r + 1] == TG_SA_NONE &&
	    kids[3 * r + 2] == TG_SA_NONE)
		tg_stream_make(t, i, &m, at);
}

static void tg_sa_tree_start(struct tg *t, uint32_t i, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];

	/* The leaves' slices up, slice by slice, children first. */
	for (uint32_t c = 0; c < s->channels; c++) {
		const uint32_t *kids, *order;
		uint32_t l = tg_stream_slices(s, s->part[c]);

		tg_sa_tree(s, c, &kids, &order);
		for (uint32_t j = 0; j < l; j++)
			for (uint32_t k = s->n; k-- > 0;)
				tg_sa_tree_leaf(t, i, c, j, order[k], at);
	}
}

/* Slice @m->j down from rank @r to each of its children. */
static void tg_sa_tree_down(struct tg *t, uint32_t i, const uint32_t *kids, uint32_t r,
			    const struct tg_smsg *m, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];

	for (int q = 0; q < TG_SA_KIDS; q++) {
		struct tg_smsg x = *m;

		if (kids[3 * r + q] == TG_SA_NONE)
			continue;
		x.ph = 1;
		x.p = kids[3 * r + q];
		x.e = 2 * s->n * m->c + s->n + x.p;
		tg_stream_make(t, i, &x, at);
	}
}

static void tg_sa_tree_arrived(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	const uint32_t *kids, *order, *up = tg_sa_tree(s, m->c, &kids, &order);
	uint32_t r = m->ph ? m->p : up[m->p], *cnt;

	if (m->ph) {
		tg_sa_tree_down(t, i, kids, r, m, at);
		return;
	}
	/* A child's slice up: r goes on once every child's has arrived. */
	cnt = &tg_srt_blk(&t->st->rt[i])[((size_t)m->c * s->n + r) * TG_SA_KIDS];
	for (int q = 0; q < TG_SA_KIDS; q++)
		if (kids[3 * r + q] == m->p)
			cnt[q]++;
	for (int q = 0; q < TG_SA_KIDS; q++)
		if (kids[3 * r + q] != TG_SA_NONE && cnt[q] <= m->j)
			return;
	if (up[r] == TG_SA_NONE) {
		tg_sa_tree_down(t, i, kids, r, m, at);
	} else {
		struct tg_smsg x = *m;

		x.p = r;
		x.e = 2 * s->n * m->c + r;
		tg_stream_make(t, i, &x, at);
	}
}

/* ---- halving-doubling ---- */

/* Rank @p's sends of step @st (@org: struct tg_smsg's). */
static void tg_sa_hd_step(struct tg *t, uint32_t i, uint32_t st, uint32_t p, uint32_t org, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	uint32_t e = tg_sa_hd_e(s, st);
	struct tg_smsg m = { .step = st, .p = p, .e = e * s->n + p, .org = org };

	tg_sa_slices(t, i, &m, s->size >> (e + 1), at);
}

static void tg_sa_hd_arrived(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at)
{
	const struct tg_stream *s = &t->st->v[i];
	uint32_t e = tg_sa_hd_e(s, m->step), r = m->p ^ (s->n >> (e + 1));
	uint32_t *cnt = &tg_srt_blk(&t->st->rt[i])[(size_t)m->step * s->n + r];

	if (++*cnt == tg_stream_slices(s, s->size >> (e + 1)) && m->step + 1 < s->steps)
		tg_sa_hd_step(t, i, m->step + 1, r, m->org, at);
}

/* ---- the hooks ---- */

uint64_t tg_stream_alg_cnt(const struct tg_stream *s)
{
	switch (s->alg) {
	case TG_SALG_HIER:
		return 2 * (uint64_t)s->channels * s->n;
	case TG_SALG_TREE:
		return (uint64_t)TG_SA_KIDS * s->channels * s->n;
	case TG_SALG_HD:
		return (uint64_t)s->steps * s->n;
	default:
		return 0;
	}
}

void tg_stream_alg_start(struct tg *t, uint32_t i, uint64_t at_ps)
{
	const struct tg_stream *s = &t->st->v[i];

	switch (s->alg) {
	case TG_SALG_RING:
		for (uint32_t c = 0; c < s->channels; c++)
			for (uint32_t p = 0; p < s->n; p++)
				tg_sa_ring_first(t, i, c, p, at_ps);
		break;
	case TG_SALG_HIER:
		for (uint32_t c = 0; c < s->channels; c++)
			for (uint32_t q = 0; q < s->n; q++)
				tg_sa_hier_first(t, i, 0, c, q, TG_NO_OP, at_ps);
		break;
	case TG_SALG_TREE:
		tg_sa_tree_start(t, i, at_ps);
		break;
	case TG_SALG_HD:
		for (uint32_t p = 0; p < s->n; p++)
			tg_sa_hd_step(t, i, 0, p, TG_NO_OP, at_ps);
		break;
	case TG_SALG_DIRECT:
		for (uint32_t off = 1; off < s->n; off++)
			for (uint32_t a = 0; a < s->n; a++)
				tg_sa_direct_send(t, i, a, off, at_ps);
		break;
	}
}

void tg_stream_alg_rank(struct tg *t, uint32_t i, uint32_t r, const uint32_t *pos, uint64_t at_ps)
{
	const struct tg_stream *s = &t->st->v[i];

	switch (s->alg) {
	case TG_SALG_RING:
		for (uint32_t c = 0; c < s->channels; c++)
			tg_sa_ring_first(t, i, c, pos[(size_t)c * s->n + r], at_ps);
		break;
	case TG_SALG_HIER:
		for (uint32_t c = 0; c < s->channels; c++)
			tg_sa_hier_first(t, i, 0, c, pos[(size_t)c * s->n + r], TG_NO_OP, at_ps);
		break;
	case TG_SALG_TREE:
		for (uint32_t c = 0; c < s->channels; c++)
			for (uint32_t j = 0; j < tg_stream_slices(s, s->part[c]); j++)
				tg_sa_tree_leaf(t, i, c, j, r, at_ps);
		break;
	case TG_SALG_HD:
		tg_sa_hd_step(t, i, 0, r, TG_NO_OP, at_ps);
		break;
	case TG_SALG_DIRECT:
		for (uint32_t off = 1; off < s->n; off++)
			tg_sa_direct_send(t, i, r, off, at_ps);
		break;
	}
}

void tg_stream_alg_arrived(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at_ps)
{
	const struct tg_stream *s = &t->st->v[i];
	struct tg_smsg x = *m;

	switch (s->alg) {
	case TG_SALG_RING:
		/* The same slice of the same chunk goes on round the ring. */
		if (m->step + 1 < s->steps) {
			x.step++;
			x.p = (m->p + 1) % s->n;
			x.e = m->c * s->n + x.p;
			tg_stream_make(t, i, &x, at_ps);
		}
		break;
	case TG_SALG_HIER:
		tg_sa_hier_arrived(t, i, m, at_ps);
		break;
	case TG_SALG_TREE:
		tg_sa_tree_arrived(t, i, m, at_ps);
		break;
	case TG_SALG_HD:
		tg_sa_hd_arrived(t, i, m, at_ps);
		break;
	case TG_SALG_DIRECT:
		/* PXN: what came over NVLink leaves on the NIC of r's rail. */
		if (s->pxn && m->ph == 0 && s->ep[2 * ((size_t)m->e + s->n_edges / 2)] != UINT32_MAX) {
			x.e = m->e + s->n_edges / 2;
			x.ph = 1;
			tg_stream_make(t, i, &x, at_ps);
		}
		break;
	}
}

/* ---- the listed order ---- */

void tg_stream_alg_key(const struct tg_stream *s, const struct tg_smsg *m, uint32_t k[TG_SKEY_N])
{
	uint32_t g = s->g ? s->g : 1;

	for (int i = 0; i < TG_SKEY_N; i++)
		k[i] = 0;
	switch (s->alg) {
	case TG_SALG_RING:
		k[0] = m->c, k[1] = m->step, k[2] = m->p, k[3] = m->j;
		break;
	case TG_SALG_HIER:
		/* Per channel phase by phase, ring by ring (a node's; phase 1:
		 * a GPU's), step by step, position by position. */
		k[0] = m->c, k[1] = m->ph, k[3] = m->step, k[5] = m->j;
		k[2] = m->ph == 1 ? m->p % g : m->p / g;
		k[4] = m->ph == 1 ? m->p / g : m->p % g;
		break;
	case TG_SALG_TREE: {
		/* Per channel slice by slice: up children first (reverse
		 * pre-order), then down parents first, child by child. */
		const uint32_t *kids, *order, *up = tg_sa_tree(s, m->c, &kids, &order);
		const uint32_t *pos = order + s->n;

		k[0] = m->c, k[1] = m->j, k[2] = m->ph;
		if (m->ph == 0) {
			k[3] = s->n - 1 - pos[m->p];
		} else {
			k[3] = pos[up[m->p]];
			while (k[4] < TG_SA_KIDS && kids[3 * up[m->p] + k[4]] != m->p)
				k[4]++;
		}
		break;
	}
	default: /* halving-doubling, direct: step by step, rank by rank (PXN's
		  * second hop right after its first) */
		k[0] = m->step, k[1] = m->p, k[2] = m->j, k[3] = m->ph;
		break;
	}
}

/* ---- counts ---- */

/* Every chunk of a ring of @n over @bytes, each slice @times. */
static void tg_sa_each_ring(const struct tg_stream *s, uint64_t bytes, uint32_t n, uint64_t times,
			    void (*fn)(void *arg, uint64_t bytes, uint64_t times), void *arg)
{
	for (uint32_t k = 0; k < n; k++) {
		uint64_t size = tg_stream_part(bytes, n, k);
		uint32_t l = tg_stream_slices(s, size);

		for (uint32_t j = 0; j < l; j++)
			fn(arg, tg_stream_part(size, l, j), times);
	}
}

/* Under the NCCL model: @fn of every slice of a chunk of @bytes, its
 * bytes on the wire over NVLink or not (@nvl), @times each. */
static void tg_sa_each_chunk(const struct tg_stream *s, uint64_t bytes, bool nvl, uint64_t times,
			     void (*fn)(void *arg, uint64_t bytes, uint64_t times), void *arg)
{
	uint32_t l = tg_stream_slices(s, bytes);

	for (uint32_t j = 0; times && j < l; j++)
		fn(arg, tg_nccl_wire(&s->nccl, nvl, tg_stream_part(bytes, l, j)), times);
}

/* tg_stream_each under the NCCL model (envl): each message on the wire
 * of its edge's link. Ring: edge c n + p carries every chunk of channel
 * c but the one at p + 1 (reduce-scatter, all-gather: the chunks p, p -
 * 1, ..., p - n + 2, tg_sa_chunk), an all-reduce once more every chunk
 * but the one at p + 2; the chunks are of two sizes (the first S % n one
 * byte more), so the edges of each link kind count how many of each they
 * send. Tree: every edge up and down carries every slice of its channel.
 * Direct: edge (off - 1) n + a, and PXN's second hop n(n - 1) after it,
 * a's to a + off. (Hierarchical and halving-doubling do not run under
 * the model.) */
static void tg_sa_each_wire(const struct tg_stream *s, void (*fn)(void *arg, uint64_t bytes, uint64_t times),
			    void *arg)
{
	uint32_t n = s->n, half = s->pxn ? s->n_edges / 2 : s->n_edges;

	for (uint32_t c = 0; s->alg == TG_SALG_RING && c < s->channels; c++) {
		uint64_t q = s->part[c] / n, m = s->part[c] % n, big[2] = { 0, 0 }, small[2] = { 0, 0 };

		for (uint32_t p = 0; p < n; p++) {
			bool f = s->envl[(size_t)c * n + p];

			for (uint32_t x = 1; x <= (s->ar ? 2u : 1u); x++) {
				uint64_t b = m - ((p + x) % n < m);

				big[f] += b;
				small[f] += n - 1 - b;
			}
		}
		for (int f = 0; f < 2; f++) {
			tg_sa_each_chunk(s, q + 1, f, m ? big[f] : 0, fn, arg);
			tg_sa_each_chunk(s, q, f, small[f], fn, arg);
		}
	}
	for (uint32_t c = 0; s->alg == TG_SALG_TREE && c < s->channels; c++) {
		uint64_t k[2] = { 0, 0 };

		for (uint32_t e = 2 * c * n; e < 2 * (c + 1) * n; e++)
			if (s->ep[2 * (size_t)e] != UINT32_MAX)
				k[s->envl[e]]++;
		for (int f = 0; f < 2; f++)
			tg_sa_each_chunk(s, s->part[c], f, k[f], fn, arg);
	}
	for (uint32_t e = 0; s->alg == TG_SALG_DIRECT && e < s->n_edges; e++) {
		uint32_t d = e % half;

		if (s->ep[2 * (size_t)e] != UINT32_MAX)
			tg_sa_each_chunk(s, s->part[(d % n + d / n + 1) % n], s->envl[e], 1, fn, arg);
	}
}

void tg_stream_each(const struct tg_stream *s, void (*fn)(void *arg, uint64_t bytes, uint64_t times),
		    void *arg)
{
	uint32_t g = s->g, nodes = g ? s->n / g : 0;

	if (s->envl) {
		tg_sa_each_wire(s, fn, arg);
		return;
	}

	for (uint32_t r = 0; s->alg == TG_SALG_DIRECT && r < s->n; r++) {
		uint32_t l = tg_stream_slices(s, s->part[r]);

		for (uint32_t j = 0; s->part[r] && j < l; j++)
			fn(arg, tg_stream_part(s->part[r], l, j), s->n - 1);
	}
	for (uint32_t c = 0; s->alg != TG_SALG_HD && s->alg != TG_SALG_DIRECT && c < s->channels; c++) {
		uint32_t l = tg_stream_slices(s, s->part[c]);

		switch (s->alg) {
		case TG_SALG_RING:
			tg_sa_each_ring(s, s->part[c], s->n, s->steps, fn, arg);
			break;
		case TG_SALG_HIER:
			/* Each node's two rings send every chunk n - 1 times. */
			tg_sa_each_ring(s, s->part[c], g, 2 * (uint64_t)nodes * (g - 1), fn, arg);
			for (uint32_t i = 0; i < g; i++)
				tg_sa_each_ring(s, tg_stream_part(s->part[c], g, i), nodes,
						2 * (uint64_t)(nodes - 1), fn, arg);
			break;
		case TG_SALG_TREE:
			for (uint32_t j = 0; j < l; j++)
				fn(arg, tg_stream_part(s->part[c], l, j), 2 * (uint64_t)(s->n - 1));
			break;
		}
	}
	for (uint32_t st = 0; s->alg == TG_SALG_HD && st < s->steps; st++) {
		uint64_t size = s->size >> (tg_sa_hd_e(s, st) + 1);
		uint32_t l = tg_stream_slices(s, size);

		for (uint32_t j = 0; j < l; j++)
			fn(arg, tg_stream_part(size, l, j), s->n);
	}
}
