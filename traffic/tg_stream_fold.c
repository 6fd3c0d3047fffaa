/* Streamed collectives once the run has ended: across processes (par.h,
 * remote partitions), the counts and records of tg_stream.c that each
 * process keeps of its own partitions, gathered (tg.h's fold functions:
 * the largest of the times, the sums of the counts, and each partition's
 * completed messages from the process that ran it), and the instances
 * whose end no one process saw; what the results read of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
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

/* Field @f of instance @i's origin here, plus one (0: none here): its
 * time, its listed key's words, the origin itself (tg_stream_fold_org). */
static uint64_t tg_org_field(const struct tg_streams *st, uint32_t i, uint32_t f)
{
	const struct tg_srt *rt = &st->rt[i];

	if (st->org[i] == TG_NO_OP)
		return 0;
	return f == 0		 ? rt->org_end + 1
	       : f <= TG_SKEY_N ? (uint64_t)rt->org_key[f - 1] + 1
				: (uint64_t)st->org[i] + 1;
}

int tg_stream_fold_org(struct tg *t, const struct par_remote *r)
{
	struct tg_streams *st = t->st;
	uint32_t n = st && st->org ? st->n : 0;
	uint64_t *v;
	bool *tied;

	if (!n)
		return 0;
	v = calloc(n, sizeof(*v));
	tied = calloc(n, sizeof(*tied));
	if (!v || !tied) {
		fprintf(stderr, "fabemu: out of memory gathering the collectives' results\n");
		abort(); /* the others wait in the reduction: end the job */
	}
	/* Each field in turn, its largest over the processes still tied on
	 * the ones before (0: none there; values are kept plus one). */
	for (uint32_t i = 0; i < n; i++)
		tied[i] = st->org[i] != TG_NO_OP;
	for (uint32_t f = 0; f < TG_SKEY_N + 2; f++) {
		for (uint32_t i = 0; i < n; i++)
			v[i] = tied[i] ? tg_org_field(st, i, f) : 0;
		r->combine(r->ctx, v, n, NULL, 0);
		for (uint32_t i = 0; i < n; i++)
			tied[i] = tied[i] && tg_org_field(st, i, f) == v[i];
	}
	/* The last field is the origin: every process now holds the same. */
	for (uint32_t i = 0; i < n; i++)
		st->org[i] = v[i] ? (uint32_t)(v[i] - 1) : TG_NO_OP;
	free(v);
	free(tied);
	return 0;
}
