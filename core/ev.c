/* 4-ary min-heap of events on a 128-bit key (time, source id, sequence).
 * Sift operations move a hole instead of swapping; the slot array is
 * aligned so that every group of four siblings starts a 128-byte block, and
 * four slots past the last event always hold the largest key. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ev.h"

enum {
	EV_ALIGN = 128,
	EV_PAD = 3,   /* slots before heap[0] so that heap[1] is aligned */
	EV_TAIL = 4,  /* sentinel slots after the last event */
};

#define EV_KEY_MAX (~(unsigned __int128)0)

static int ev_alloc(struct ev_queue *q, uint32_t cap)
{
	size_t slots = (size_t)cap + EV_PAD + EV_TAIL + 1;
	size_t bytes = (sizeof(struct ev) * slots + EV_ALIGN - 1) / EV_ALIGN * EV_ALIGN;
	void *mem = aligned_alloc(EV_ALIGN, bytes);
	struct ev *heap;

	if (!mem)
		return -ENOMEM;
	heap = (struct ev *)mem + EV_PAD;
	for (size_t i = 0; i < (size_t)cap + EV_TAIL; i++)
		heap[i].key = EV_KEY_MAX;
	if (q->heap)
		memcpy(heap, q->heap, sizeof(*heap) * q->n);
	free(q->mem);
	q->mem = mem;
	q->heap = heap;
	q->cap = cap;
	return 0;
}

int ev_queue_init(struct ev_queue *q, uint32_t cap)
{
	memset(q, 0, sizeof(*q));
	return ev_alloc(q, cap < 64 ? 64 : cap);
}

void ev_queue_fini(struct ev_queue *q)
{
	free(q->mem);
	memset(q, 0, sizeof(*q));
}

int ev_push(struct ev_queue *q, uint64_t time_ps, struct ev_src *src, ev_fn fn, void *obj)
{
	struct ev e;
	struct ev *h;
	uint32_t i;

	assert(src->seq < (UINT64_C(1) << EV_SEQ_BITS));
	if (q->n == q->cap && ev_alloc(q, q->cap * 2) != 0)
		return -ENOMEM;
	e.key = (unsigned __int128)time_ps << 64 | ((uint64_t)src->id << EV_SEQ_BITS | src->seq);
	e.fn = fn;
	e.obj = obj;
	src->seq++;
	h = q->heap;
	i = q->n++;
	while (i > 0) {
		uint32_t parent = (i - 1) >> 2;

		if (e.key >= h[parent].key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = e;
	q->n_pushed++;
	return 0;
}

bool ev_pop(struct ev_queue *q, struct ev *out)
{
	struct ev *h = q->heap;
	struct ev last;
	uint32_t i = 0, n;

	if (q->n == 0)
		return false;
	*out = h[0];
	n = --q->n;
	last = h[n];
	h[n].key = EV_KEY_MAX;
	if (n == 0)
		return true;
	for (;;) {
		uint32_t c = 4 * i + 1, a, b, best;

		if (c >= n)
			break;
		/* A tournament of the four children; missing ones are sentinels. */
		a = h[c + 1].key < h[c].key ? c + 1 : c;
		b = h[c + 3].key < h[c + 2].key ? c + 3 : c + 2;
		best = h[b].key < h[a].key ? b : a;
		if (h[best].key >= last.key)
			break;
		h[i] = h[best];
		i = best;
	}
	h[i] = last;
	return true;
}
