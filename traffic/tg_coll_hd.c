/* The halving-doubling all-reduce (Rabenseifner), for 2^k ranks: log2 n
 * steps of recursive halving, exchanging S/2, S/4, ... with the partner
 * p ^ d, then the same sizes back in doubling order; a step waits for all
 * of the rank's previous receive. */
#include <errno.h>
#include <stdlib.h>

#include "tg_coll_int.h"

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

/* Halving-doubling: 2 log2(n) steps, n x the slices of S / 2^(e+1) each,
 * every send waiting for all its rank received at the step before. */
static uint32_t tg_est_hd(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint32_t k = 0;
	uint64_t prev = 0;

	while ((UINT64_C(1) << k) < b->n)
		k++;
	if ((UINT64_C(1) << k) != b->n)
		return 0; /* refused by the algorithm */
	for (uint32_t s = 0; s < 2 * k; s++) {
		uint32_t ex = s < k ? s : 2 * k - 1 - s;
		uint64_t l = tg_coll_slices(b, b->bytes >> (ex + 1)), x = tg_est_mul(b->n, l);

		e->msgs = tg_est_add(e->msgs, x);
		e->ops = tg_est_add(e->ops, x);
		e->deps = tg_est_add(e->deps, tg_est_mul(x, (prev > 1 ? prev : 1) + rg));
		prev = l;
	}
	return k;
}

static uint64_t tg_coll_hd_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	return (uint64_t)b->n * tg_est_hd(b, rg, e); /* a partner at each distance */
}

/* log2 of the ranks, 0 when they are no power of two. */
static uint32_t tg_hd_log2(uint32_t n)
{
	uint32_t k = 0;

	while ((UINT64_C(1) << k) < n)
		k++;
	return (UINT64_C(1) << k) == n ? k : 0;
}

/* Streamed (tg.h, struct tg_stream; tg_stream_alg.c): edge e n + p is
 * rank p's to its partner p ^ n / 2^(e+1), taken at halving step e and
 * doubling step 2k - 1 - e with S / 2^(e+1) each. */
static int tg_coll_hd_stream(struct tg_cb *b)
{
	uint32_t k = tg_hd_log2(b->n), n = b->n;
	struct tg_stream s;

	if (!k)
		return -EAGAIN; /* refused by the listed build */
	if (tg_cb_stream_new(b, TG_SALG_HD, k * n, &s) != 0)
		return -ENOMEM;
	s.steps = 2 * k;
	for (uint32_t e = 0; e < k; e++)
		for (uint32_t p = 0; p < n; p++) {
			tg_cb_stream_edge(b, &s, e * n + p, p, p ^ (n >> (e + 1)), 0, TG_COLL_NO_RAIL);
			s.ebytes[e * n + p] = 2 * (b->bytes >> (e + 1));
		}
	return tg_cb_stream_add(b, &s);
}

/* The whole instance may be made at once (every step's slices go
 * together). */
static uint64_t tg_coll_hd_stream_est(const struct tg_cb *b)
{
	struct tg_wl_est e = { 0 };

	return tg_hd_log2(b->n) && tg_est_hd(b, false, &e) ? e.msgs : 0;
}

const struct tg_coll_alg_ops tg_coll_hd_alg = {
	.kind = { "halving-doubling", "all-reduce: recursive halving then doubling (Rabenseifner), 2^k ranks",
		  NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_REDUCE,
	.data_per_rank = true,
	.build = tg_coll_halving_doubling,
	.est = tg_coll_hd_est,
	.stream_kinds = 1u << TG_COLL_ALL_REDUCE,
	.stream = tg_coll_hd_stream,
	.stream_est = tg_coll_hd_stream_est,
};
