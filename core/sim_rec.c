/* Ordered records (sim_rec.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_rec.h"

/* A run without partitions writes what it can when its buffer holds this
 * much. */
#define SIM_REC_FLUSH_BYTES (4u << 20)

/* A record's header; its bytes follow, then padding to 8. */
struct sim_rec_hdr {
	uint64_t t_ps;          /* when it was written */
	uint32_t dest;          /* enum sim_rec_dest */
	uint32_t ord;           /* the port's ordinal for its writer */
	uint32_t n;             /* its bytes */
	uint32_t pad;
};

static size_t sim_rec_step(uint32_t n)
{
	return sizeof(struct sim_rec_hdr) + ((n + 7u) & ~(size_t)7);
}

static int sim_rec_grow(struct sim_rec *r, size_t more)
{
	size_t cap = r->cap ? r->cap : 1 << 16;
	uint8_t *b;

	if (r->len + more <= r->cap)
		return 0;
	while (cap < r->len + more)
		cap *= 2;
	if (!(b = realloc(r->buf, cap)))
		return -ENOMEM;
	r->buf = b;
	r->cap = cap;
	return 0;
}

uint8_t *sim_rec_room(struct sim *s, enum sim_rec_dest dest, uint32_t ord, uint32_t n)
{
	struct sim_rec *r = s->rec;
	size_t step = sim_rec_step(n);
	struct sim_rec_hdr *h;

	if (r->writers && r->len >= SIM_REC_FLUSH_BYTES)
		sim_rec_flush(&r, 1, r->writers, s->now_ps); /* times before now are whole */
	if (sim_rec_grow(r, step) != 0) {
		r->lost |= 1u << dest;
		return NULL;
	}
	h = (struct sim_rec_hdr *)(void *)(r->buf + r->len);
	*h = (struct sim_rec_hdr){ .t_ps = s->now_ps, .dest = dest, .ord = ord, .n = n };
	r->len += step;
	return (uint8_t *)(h + 1);
}

bool sim_rec_append(struct sim_rec *r, const uint8_t *data, size_t n)
{
	for (size_t off = 0; off < n;) {
		struct sim_rec_hdr h;

		if (n - off < sizeof(h))
			return false;
		memcpy(&h, data + off, sizeof(h));
		if (h.dest >= SIM_REC_N_DESTS || h.n > n - off - sizeof(h))
			return false;
		off += sim_rec_step(h.n);
		if (off > n)
			return false;
	}
	if (sim_rec_grow(r, n) != 0) {
		r->lost |= (1u << SIM_REC_N_DESTS) - 1;
		return true;
	}
	memcpy(r->buf + r->len, data, n);
	r->len += n;
	return true;
}

/* A record to write: its header, buffer and place there. */
struct sim_rec_at {
	const struct sim_rec_hdr *h;
	uint32_t buf;
	size_t off;
};

static int sim_rec_at_cmp(const void *a, const void *b)
{
	const struct sim_rec_at *x = a, *y = b;

	if (x->h->t_ps != y->h->t_ps)
		return x->h->t_ps < y->h->t_ps ? -1 : 1;
	if (x->h->dest != y->h->dest)
		return x->h->dest < y->h->dest ? -1 : 1;
	if (x->h->ord != y->h->ord)
		return x->h->ord < y->h->ord ? -1 : 1;
	/* One port's records come from one buffer, in its order. */
	if (x->buf != y->buf)
		return x->buf < y->buf ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

int sim_rec_flush(struct sim_rec *const *recs, uint32_t n, const struct sim_rec_writer *writers,
		  uint64_t before_ps)
{
	size_t count = 0, k = 0;
	struct sim_rec_at *at;

	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t d = 0; d < SIM_REC_N_DESTS; d++)
			if ((recs[i]->lost >> d & 1) && writers[d].out)
				writers[d].out(writers[d].dest, NULL, 0);
		recs[i]->lost = 0;
		for (size_t off = 0; off < recs[i]->len;) {
			const struct sim_rec_hdr *h = (const void *)(recs[i]->buf + off);

			count += h->t_ps < before_ps;
			off += sim_rec_step(h->n);
		}
	}
	if (!count)
		return 0;
	if (!(at = malloc(sizeof(*at) * count))) {
		for (uint32_t i = 0; i < n; i++)
			recs[i]->lost |= (1u << SIM_REC_N_DESTS) - 1;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		for (size_t off = 0; off < recs[i]->len;) {
			const struct sim_rec_hdr *h = (const void *)(recs[i]->buf + off);

			if (h->t_ps < before_ps)
				at[k++] = (struct sim_rec_at){ h, i, off };
			off += sim_rec_step(h->n);
		}
	qsort(at, count, sizeof(*at), sim_rec_at_cmp);
	for (size_t j = 0; j < count; j++) {
		const struct sim_rec_writer *w = &writers[at[j].h->dest];

		if (w->out)
			w->out(w->dest, at[j].h + 1, at[j].h->n);
	}
	free(at);
	/* What is left (later times), to the front, in order. */
	for (uint32_t i = 0; i < n; i++) {
		size_t keep = 0;

		for (size_t off = 0; off < recs[i]->len;) {
			const struct sim_rec_hdr *h = (const void *)(recs[i]->buf + off);
			size_t step = sim_rec_step(h->n);

			if (h->t_ps >= before_ps) {
				memmove(recs[i]->buf + keep, recs[i]->buf + off, step);
				keep += step;
			}
			off += step;
		}
		recs[i]->len = keep;
	}
	return 0;
}

void sim_rec_free(struct sim_rec *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
