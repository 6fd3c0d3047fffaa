/* Binary min-heap of events keyed by (time, source id, source sequence).
 * Sift operations move a hole instead of swapping, and keys compare as two
 * unsigned 64-bit words. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "ev.h"

static inline bool ev_before(const struct ev *a, const struct ev *b)
{
	return a->time_ps < b->time_ps || (a->time_ps == b->time_ps && a->tie < b->tie);
}

int ev_queue_init(struct ev_queue *q, uint32_t cap)
{
	if (cap < 16)
		cap = 16;
	q->heap = malloc(sizeof(*q->heap) * ((size_t)cap + 1));
	if (!q->heap)
		return -ENOMEM;
	q->n = 0;
	q->cap = cap;
	q->n_pushed = 0;
	return 0;
}

void ev_queue_fini(struct ev_queue *q)
{
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}

int ev_push(struct ev_queue *q, uint64_t time_ps, struct ev_src *src, ev_fn fn, void *obj)
{
	struct ev e = { time_ps, ((uint64_t)src->id << EV_SEQ_BITS) | src->seq, fn, obj };
	struct ev *h;
	uint32_t i;

	assert(src->seq < (UINT64_C(1) << EV_SEQ_BITS));
	src->seq++;
	if (q->n == q->cap) {
		uint32_t ncap = q->cap * 2;
		struct ev *nh = realloc(q->heap, sizeof(*nh) * ((size_t)ncap + 1));

		if (!nh)
			return -ENOMEM;
		q->heap = nh;
		q->cap = ncap;
	}
	h = q->heap;
	i = ++q->n;
	while (i > 1 && ev_before(&e, &h[i >> 1])) {
		h[i] = h[i >> 1];
		i >>= 1;
	}
	h[i] = e;
	q->n_pushed++;
	return 0;
}

bool ev_pop(struct ev_queue *q, struct ev *out)
{
	struct ev *h = q->heap;
	struct ev last;
	uint32_t i = 1, n;

	if (q->n == 0)
		return false;
	*out = h[1];
	last = h[q->n--];
	n = q->n;
	for (;;) {
		uint32_t c = i << 1;

		if (c > n)
			break;
		if (c < n && ev_before(&h[c + 1], &h[c]))
			c++;
		if (!ev_before(&h[c], &last))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	return true;
}
