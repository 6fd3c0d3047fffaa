/* Streamed collectives once the run has ended: across processes (par.h,
 * remote partitions), the counts and records of tg_stream.c that each
 * process keeps of its own partitions, gathered (tg.h's fold functions:
 * the largest of the times, the sums of the counts, and each partition's
 * completed messages from the process that ran it), and the instances
 * whose end no one process saw; what the results read of them. */
#include <stdlib.h>
#include <string.h>

#include "tg_int.h"

enum {
	TG_FOLD_MX = 4,  /* per stream: first post (as UINT64_MAX less it), end, last, worst */
	TG_FOLD_SUM = 4, /* per stream: arrivals, posts, completions, their bytes */
	TG_FOLD_POOL = 2, /* per partition: completed messages, peak in flight */
	TG_SDONE_WORDS = sizeof(struct tg_sdone) / sizeof(uint64_t),
};

void tg_stream_fold_sizes(const struct tg *t, uint32_t *n_mx, uint32_t *n_sum)
{
	const struct tg_streams *st = t->st;

	*n_mx = st ? TG_FOLD_MX * st->n : 0;
	*n_sum = st ? TG_FOLD_SUM * st->n + TG_FOLD_POOL * st->n_pools : 0;
}

void tg_stream_fold_save(const struct tg *t, const bool *owned, uint64_t *mx, uint64_t *sum)
{
	const struct tg_streams *st = t->st;

	for (uint32_t i = 0; st && i < st->n; i++) {
		const struct tg_srt *r = &st->rt[i];

		mx[TG_FOLD_MX * i] = UINT64_MAX - r->first_post_ps;
		mx[TG_FOLD_MX * i + 1] = r->end_ps;
		mx[TG_FOLD_MX * i + 2] = r->last_ps;
		mx[TG_FOLD_MX * i + 3] = r->worst_ps;
		/* Every process begins with all of them not arrived. */
		sum[TG_FOLD_SUM * i] = st->v[i].msgs - r->left;
		sum[TG_FOLD_SUM * i + 1] = r->posted;
		sum[TG_FOLD_SUM * i + 2] = r->completed;
		sum[TG_FOLD_SUM * i + 3] = r->done_bytes;
	}
	for (uint32_t p = 0; st && p < st->n_pools; p++) {
		uint64_t *at = sum + TG_FOLD_SUM * st->n + TG_FOLD_POOL * p;

		at[0] = owned[p] ? st->pool[p].n_done : 0;
		at[1] = owned[p] ? st->pool[p].peak : 0;
	}
}

void tg_stream_fold_load(struct tg *t, const uint64_t *mx, const uint64_t *sum)
{
	struct tg_streams *st = t->st;

	for (uint32_t i = 0; st && i < st->n; i++) {
		struct tg_srt *r = &st->rt[i];

		r->first_post_ps = UINT64_MAX - mx[TG_FOLD_MX * i];
		r->end_ps = mx[TG_FOLD_MX * i + 1];
		r->last_ps = mx[TG_FOLD_MX * i + 2];
		r->worst_ps = mx[TG_FOLD_MX * i + 3];
		r->left = st->v[i].msgs - sum[TG_FOLD_SUM * i];
		r->posted = sum[TG_FOLD_SUM * i + 1];
		r->completed = sum[TG_FOLD_SUM * i + 2];
		r->done_bytes = sum[TG_FOLD_SUM * i + 3];
	}
	for (uint32_t p = 0; st && p < st->n_pools; p++)
		st->pool[p].peak = sum[TG_FOLD_SUM * st->n + TG_FOLD_POOL * p + 1];
}

uint64_t tg_stream_done_words(const struct tg *t, const uint64_t *sum)
{
	const struct tg_streams *st = t->st;
	uint64_t n = 0;

	for (uint32_t p = 0; st && p < st->n_pools; p++)
		n += sum[TG_FOLD_SUM * st->n + TG_FOLD_POOL * p];
	return n * TG_SDONE_WORDS;
}

void tg_stream_done_save(const struct tg *t, const bool *owned, const uint64_t *sum, uint64_t *w)
{
	const struct tg_streams *st = t->st;

	for (uint32_t p = 0; st && p < st->n_pools; p++) {
		uint64_t n = sum[TG_FOLD_SUM * st->n + TG_FOLD_POOL * p];

		if (owned[p] && n)
			memcpy(w, st->pool[p].done, sizeof(struct tg_sdone) * n);
		w += n * TG_SDONE_WORDS;
	}
}

int tg_stream_done_load(struct tg *t, const bool *owned, const uint64_t *sum, const uint64_t *w)
{
	struct tg_streams *st = t->st;

	for (uint32_t p = 0; st && p < st->n_pools; p++) {
		struct tg_spool *pl = &st->pool[p];
		uint64_t n = sum[TG_FOLD_SUM * st->n + TG_FOLD_POOL * p];

		if (!owned[p]) {
			struct tg_sdone *d = realloc(pl->done, sizeof(*d) * (n ? n : 1));

			if (!d)
				return -ENOMEM;
			memcpy(d, w, sizeof(*d) * n);
			pl->done = d;
			pl->n_done = pl->cap_done = n;
		}
		w += n * TG_SDONE_WORDS;
	}
	return 0;
}

void tg_stream_fold_end(struct tg *t)
{
	struct tg_streams *st = t->st;

	for (uint32_t i = 0; st && i < st->n; i++) {
		struct tg_srt *r = &st->rt[i];

		/* Counted out here already, or not done. */
		if (r->left || t->op_end[st->v[i].op] != UINT64_MAX)
			continue;
		r->ended = 1;
		free(r->cnt); /* its state (tg_stream.c) */
		r->cnt = NULL;
		tg_graph_op_done(t, st->v[i].op, r->end_ps, t->sim);
	}
}

const uint32_t *tg_stream_origins(const struct tg *t)
{
	return t->st ? t->st->org : NULL;
}

uint64_t tg_in_flight_peak(const struct tg *t)
{
	uint64_t sum = 0;

	for (uint32_t p = 0; t && t->st && p < t->st->n_pools; p++)
		sum += t->st->pool[p].peak;
	return sum;
}
