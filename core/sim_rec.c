/* Ordered records of a partitioned run (sim_rec.h). */
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_rec.h"

/* A record's header; its bytes follow, then padding to the header's
 * alignment. */
struct sim_rec_hdr {
	unsigned __int128 key;  /* the writing event's */
	sim_rec_out out;        /* its writer */
	void *dest;
	uint32_t n;             /* its bytes */
};

static size_t sim_rec_step(uint32_t n)
{
	size_t a = _Alignof(struct sim_rec_hdr);

	return (sizeof(struct sim_rec_hdr) + n + a - 1) / a * a;
}

uint8_t *sim_rec_room(struct sim *s, sim_rec_out out, void *dest, uint32_t n)
{
	struct sim_rec *r = s->rec;
	size_t step = sim_rec_step(n);
	struct sim_rec_hdr *h;

	if (r->len + step > r->cap) {
		size_t cap = r->cap ? r->cap : 1 << 16;
		uint8_t *b;

		while (cap < r->len + step)
			cap *= 2;
		if (!(b = realloc(r->buf, cap))) {
			if (!r->lost_out) {
				r->lost_out = out;
				r->lost_dest = dest;
			}
			return NULL;
		}
		r->buf = b;
		r->cap = cap;
	}
	h = (struct sim_rec_hdr *)(void *)(r->buf + r->len);
	*h = (struct sim_rec_hdr){ .key = s->cur_key, .out = out, .dest = dest, .n = n };
	r->len += step;
	return (uint8_t *)(h + 1);
}

static const struct sim_rec_hdr *sim_rec_head(const struct sim_rec *r)
{
	return r->at < r->len ? (const struct sim_rec_hdr *)(const void *)(r->buf + r->at) : NULL;
}

void sim_rec_flush(struct sim_rec *const *recs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		recs[i]->at = 0;
		if (recs[i]->lost_out) {
			recs[i]->lost_out(recs[i]->lost_dest, NULL, 0);
			recs[i]->lost_out = NULL;
		}
	}
	for (;;) {
		const struct sim_rec_hdr *best = NULL, *h;
		uint32_t from = 0;

		for (uint32_t i = 0; i < n; i++)
			if ((h = sim_rec_head(recs[i])) && (!best || h->key < best->key)) {
				best = h;
				from = i;
			}
		if (!best)
			break;
		best->out(best->dest, best + 1, best->n);
		recs[from]->at += sim_rec_step(best->n);
	}
	for (uint32_t i = 0; i < n; i++)
		recs[i]->len = recs[i]->at = 0;
}

void sim_rec_free(struct sim_rec *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
