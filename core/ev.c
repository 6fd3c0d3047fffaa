/* Event queue: a ring of near-future time buckets plus a 4-ary min-heap for
 * far events, both ordered by the 128-bit key (time, source id, sequence);
 * see ev.h. Heap sift operations move a hole instead of swapping; the heap
 * array is aligned so that every group of four siblings starts a 128-byte
 * block, and four slots past its last event hold the largest key. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ev.h"

/* Sort words of a bucket's events (ev_run_fill): offset within the
 * bucket, source id, position in the bucket, from the top bit down. */
enum {
	EV_SK_POS_BITS = 64 - EV_BUCKET_SHIFT - EV_SRC_ID_BITS,
	EV_SK_DIGITS = (EV_BUCKET_SHIFT + EV_SRC_ID_BITS + 7) / 8,
};

enum {
	EV_ALIGN = 128,
	EV_PAD = 3,   /* slots before heap[0] so that heap[1] is aligned */
	EV_TAIL = 4,  /* sentinel slots after the last heap event */
	EV_BUCKET_INITIAL = 4,
};

#define EV_KEY_MAX (~(unsigned __int128)0)
#define EV_RING_MASK ((uint64_t)EV_RING_BUCKETS - 1)

static int ev_heap_alloc(struct ev_queue *q, uint32_t cap)
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
		memcpy(heap, q->heap, sizeof(*heap) * q->n_heap);
	free(q->mem);
	q->mem = mem;
	q->heap = heap;
	q->cap = cap;
	return 0;
}

int ev_queue_init(struct ev_queue *q, uint32_t cap)
{
	memset(q, 0, sizeof(*q));
	q->ring = calloc(EV_RING_BUCKETS, sizeof(*q->ring));
	if (!q->ring)
		return -ENOMEM;
	return ev_heap_alloc(q, cap < 64 ? 64 : cap);
}

static void ev_chunks_free(struct ev_chunk *c)
{
	while (c) {
		struct ev_chunk *next = c->next;

		free(c);
		c = next;
	}
}

void ev_queue_fini(struct ev_queue *q)
{
	for (uint32_t i = 0; q->ring && i < EV_RING_BUCKETS; i++)
		ev_chunks_free(q->ring[i].head);
	ev_chunks_free(q->free_chunks);
	free(q->ring);
	free(q->run);
	free(q->scratch);
	free(q->keys);
	free(q->mem);
	memset(q, 0, sizeof(*q));
}

static int ev_heap_push(struct ev_queue *q, const struct ev *e)
{
	struct ev *h;
	uint32_t i;

	if (q->n_heap == q->cap && ev_heap_alloc(q, q->cap * 2) != 0)
		return -ENOMEM;
	h = q->heap;
	i = q->n_heap++;
	while (i > 0) {
		uint32_t parent = (i - 1) >> 2;

		if (e->key >= h[parent].key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i] = *e;
	return 0;
}

static void ev_heap_pop(struct ev_queue *q, struct ev *out)
{
	struct ev *h = q->heap;
	struct ev last;
	uint32_t i = 0, n;

	*out = h[0];
	n = --q->n_heap;
	last = h[n];
	h[n].key = EV_KEY_MAX;
	if (n == 0)
		return;
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
}

static int ev_bucket_add(struct ev_queue *q, struct ev_bucket *b, const struct ev *e)
{
	struct ev_chunk *c = b->tail;

	if (!c || c->n == EV_CHUNK_EVENTS) {
		/* The free list holds as many chunks as were ever alive at once. */
		struct ev_chunk *nc = q->free_chunks;

		if (nc)
			q->free_chunks = nc->next;
		else if (!(nc = malloc(sizeof(*nc))))
			return -ENOMEM;
		nc->n = 0;
		nc->next = NULL;
		if (c)
			c->next = nc;
		else
			b->head = nc;
		b->tail = c = nc;
	}
	c->v[c->n++] = *e;
	return 0;
}

/* Grow the run and the sort scratch to hold @n events. */
static int ev_run_reserve(struct ev_queue *q, uint32_t n)
{
	uint32_t cap = q->run_cap ? q->run_cap : 256;
	struct ev *v, *t;
	uint64_t *k;

	while (cap < n)
		cap *= 2;
	v = realloc(q->run, sizeof(*v) * cap);
	if (v)
		q->run = v;
	t = realloc(q->scratch, sizeof(*t) * cap);
	if (t)
		q->scratch = t;
	k = realloc(q->keys, sizeof(*k) * 3 * cap); /* keys, scratch, run bounds */
	if (k)
		q->keys = k;
	if (!v || !t || !k)
		return -ENOMEM;
	q->run_cap = cap;
	return 0;
}

/* Append @e, later than every event of the sorted run, to it. */
static int ev_run_append(struct ev_queue *q, const struct ev *e)
{
	if (q->run_n == q->run_cap) {
		if (q->run_head > 0) {
			memmove(q->run, q->run + q->run_head, sizeof(*q->run) * (q->run_n - q->run_head));
			q->run_n -= q->run_head;
			q->run_head = 0;
		}
		if (q->run_n == q->run_cap && ev_run_reserve(q, q->run_n + 1) != 0)
			return -ENOMEM;
	}
	q->run[q->run_n++] = *e;
	return 0;
}

int ev_push_slow(struct ev_queue *q, const struct ev *e)
{
	uint64_t bucket = ev_time(e) >> EV_BUCKET_SHIFT;

	/* The run is the earliest ring bucket, sorted. An event for it that
	 * is later than all of it (nearly every one: a source's events come
	 * in its sequence order) is appended; any other, or one (after a
	 * peek) for an earlier bucket, goes to the heap, which pops take
	 * from whenever its least is smaller than the run's, so the order is
	 * the same, without shifting a long run (thousands of NICs starting
	 * in one bucket) for every event. */
	if (q->run_head < q->run_n && bucket <= q->run_bucket) {
		if (e->key > q->run[q->run_n - 1].key ? ev_run_append(q, e) != 0
						       : ev_heap_push(q, e) != 0)
			return -ENOMEM;
	} else if (bucket - q->cur < EV_RING_BUCKETS) {
		uint32_t idx = (uint32_t)(bucket & EV_RING_MASK);

		if (ev_bucket_add(q, &q->ring[idx], e) != 0)
			return -ENOMEM;
		q->bits[idx >> 6] |= UINT64_C(1) << (idx & 63);
		q->n_ring++;
	} else if (ev_heap_push(q, e) != 0) {
		return -ENOMEM;
	}
	q->n++;
	q->n_pushed++;
	return 0;
}

/* Ring index of the first non-empty bucket at or after the current one (in
 * time order, wrapping); only when the ring is not empty. */
static uint32_t ev_ring_next(const struct ev_queue *q)
{
	uint32_t start = (uint32_t)(q->cur & EV_RING_MASK);
	uint32_t w = start >> 6;
	uint64_t bits = q->bits[w] & (~UINT64_C(0) << (start & 63));

	for (uint32_t k = 0; !bits; k++) {
		w = (w + 1) & (EV_RING_WORDS - 1);
		bits = q->bits[w];
		/* Past a full turn only the part of the start word before start
		 * is left: those buckets are the latest of the window. */
		assert(k <= EV_RING_WORDS);
	}
	return (w << 6) + (uint32_t)__builtin_ctzll(bits);
}

static void ev_insertion_sort(struct ev *v, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		struct ev e = v[i];
		uint32_t j = i;

		for (; j > 0 && v[j - 1].key > e.key; j--)
			v[j] = v[j - 1];
		v[j] = e;
	}
}

/* Quicksort of 64-bit keys (all distinct), median of three, recursing
 * into the smaller side; insertion sort below 24. */
static void ev_qsort_keys(uint64_t *k, uint32_t n)
{
	while (n > 24) {
		uint64_t a = k[0], b = k[n / 2], c = k[n - 1], pivot, t;
		uint32_t i = 0, j = n - 1;

		pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		for (;;) {
			while (k[i] < pivot)
				i++;
			while (k[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = k[i];
			k[i] = k[j];
			k[j] = t;
			i++;
			j--;
		}
		if (j + 1 < n - j - 1) {
			ev_qsort_keys(k, j + 1);
			k += j + 1;
			n -= j + 1;
		} else {
			ev_qsort_keys(k + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (uint32_t i = 1; i < n; i++) {
		uint64_t x = k[i];
		uint32_t j = i;

		for (; j > 0 && k[j - 1] > x; j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

/* Merge the sorted runs k[b[r] .. b[r + 1]) (@nr of them; b[nr] = n)
 * pairwise until one is left. Returns the array that holds the result. */
static uint64_t *ev_merge_runs(uint64_t *k, uint64_t *tmp, uint32_t *b, uint32_t nr)
{
	while (nr > 1) {
		uint32_t w = 0;

		for (uint32_t r = 0; r < nr; r += 2) {
			uint32_t lo = b[r], mid = b[r + 1], hi = r + 1 < nr ? b[r + 2] : mid;
			uint32_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				tmp[o++] = k[j] < k[i] ? k[j++] : k[i++];
			while (i < mid)
				tmp[o++] = k[i++];
			while (j < hi)
				tmp[o++] = k[j++];
			b[w++] = lo;
		}
		b[w] = b[nr];
		nr = w;
		uint64_t *t = k;

		k = tmp;
		tmp = t;
	}
	return k;
}

/* Sort @n distinct keys of a bucket (see ev_run_fill): a merge of its
 * runs when it has at most eight, else a quicksort, or for long lists an
 * LSD radix sort on the upper 32 bits over 8-bit digits that
 * skips the digits all keys share (stable, so the position in the low bits
 * stays in order). Returns the array that holds the result (@k or @tmp). */
static uint64_t *ev_sort_keys(uint64_t *k, uint64_t *tmp, uint32_t *b, uint32_t n)
{
	uint32_t count[EV_SK_DIGITS][256], nr = 1;

	/* A bucket is often a few runs already in order (the events one
	 * handler time scheduled, in source order): merge those. */
	b[0] = 0;
	for (uint32_t i = 1; i < n && nr <= 8; i++)
		if (k[i] < k[i - 1])
			b[nr++] = i;
	if (nr <= 8) {
		b[nr] = n;
		return ev_merge_runs(k, tmp, b, nr);
	}
	if (n < 256) {
		ev_qsort_keys(k, n);
		return k;
	}
	memset(count, 0, sizeof(count));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t h = k[i] >> EV_SK_POS_BITS;

		for (unsigned d = 0; d < EV_SK_DIGITS; d++)
			count[d][(h >> (8 * d)) & 0xff]++;
	}
	for (unsigned d = 0; d < EV_SK_DIGITS; d++) {
		unsigned shift = EV_SK_POS_BITS + 8 * d;
		uint32_t *c = count[d], sum = 0;

		if (c[(k[0] >> shift) & 0xff] == n)
			continue; /* every key has this digit */
		for (unsigned b = 0; b < 256; b++) {
			uint32_t x = c[b];

			c[b] = sum;
			sum += x;
		}
		for (uint32_t i = 0; i < n; i++)
			tmp[c[(k[i] >> shift) & 0xff]++] = k[i];
		uint64_t *t = k;

		k = tmp;
		tmp = t;
	}
	return k;
}

/* For ev_next_chunk: the first chunk of the first non-empty bucket after
 * the run's, within EV_LOOKAHEAD_BUCKETS of it. */
static void ev_find_next_chunk(struct ev_queue *q)
{
	q->next_chunk = NULL;
	for (uint64_t b = q->run_bucket + 1; b - q->run_bucket < EV_LOOKAHEAD_BUCKETS;) {
		uint32_t i = (uint32_t)(b & EV_RING_MASK);
		uint64_t w = q->bits[i >> 6] >> (i & 63);

		if (w) {
			b += (uint32_t)__builtin_ctzll(w);
			if (b - q->run_bucket < EV_LOOKAHEAD_BUCKETS)
				q->next_chunk = q->ring[b & EV_RING_MASK].head;
			return;
		}
		b += 64 - (i & 63);
	}
}

/* Make the earliest ring bucket the run: move its events out of their
 * chunks (back to the free list) and sort them. Only with an empty run and
 * a non-empty ring. Returns -ENOMEM when the run cannot grow (events kept).
 *
 * A bucket spans 1.024 ns, and a source's events of one bucket sit in it in
 * the order they were scheduled (their sequence order), so a stable sort
 * on (time within the bucket, source id) orders the bucket exactly by the
 * full key. Buckets of a synchronised fabric hold hundreds of events: they
 * are sorted as 64-bit words (offset << 56 | source << 32 | position) and
 * then gathered; a few events are sorted in place. */
static int ev_run_fill(struct ev_queue *q)
{
	uint32_t idx = ev_ring_next(q), n = 0;
	struct ev_bucket *b = &q->ring[idx];
	struct ev_chunk *c;
	struct ev *dst;

	for (c = b->head; c; c = c->next)
		n += c->n;
	if (n > q->run_cap && ev_run_reserve(q, n) != 0)
		return -ENOMEM;
	dst = n <= 16 ? q->run : q->scratch;
	q->run_head = 0;
	q->run_n = 0;
	for (c = b->head; c;) {
		struct ev_chunk *next = c->next;

		memcpy(dst + q->run_n, c->v, sizeof(*c->v) * c->n);
		q->run_n += c->n;
		c->next = q->free_chunks;
		q->free_chunks = c;
		c = next;
	}
	b->head = b->tail = NULL;
	q->bits[idx >> 6] &= ~(UINT64_C(1) << (idx & 63));
	q->n_ring -= n;
	if (n <= 16) {
		ev_insertion_sort(q->run, n);
	} else {
		uint64_t *k = q->keys, *sorted;

		for (uint32_t i = 0; i < n; i++) {
			uint64_t lo = (uint64_t)dst[i].key;

			k[i] = (ev_time(&dst[i]) & ((UINT64_C(1) << EV_BUCKET_SHIFT) - 1))
					       << (64 - EV_BUCKET_SHIFT) |
			       (lo >> EV_SEQ_BITS) << EV_SK_POS_BITS | i;
		}
		sorted = ev_sort_keys(k, k + q->run_cap, (uint32_t *)(k + 2 * q->run_cap), n);
		for (uint32_t i = 0; i < n; i++)
			q->run[i] = dst[sorted[i] & ((UINT64_C(1) << EV_SK_POS_BITS) - 1)];
	}
	q->run_bucket = ev_time(&q->run[0]) >> EV_BUCKET_SHIFT;
	q->n_fills++;
	ev_find_next_chunk(q);
	return 0;
}

/* Earliest ring event, or NULL when the ring and the run are empty. */
static struct ev *ev_ring_min(struct ev_queue *q)
{
	if (q->run_head == q->run_n) {
		if (!q->n_ring)
			return NULL;
		if (ev_run_fill(q) != 0) {
			fprintf(stderr, "fabemu: out of memory sorting %u events\n", q->n_ring);
			abort();
		}
	}
	return &q->run[q->run_head];
}

uint64_t ev_peek_time(struct ev_queue *q)
{
	const struct ev *r = ev_ring_min(q);
	uint64_t t = r ? ev_time(r) : UINT64_MAX;

	if (q->n_heap && ev_time(&q->heap[0]) < t)
		t = ev_time(&q->heap[0]);
	return t;
}

unsigned __int128 ev_peek_key(struct ev_queue *q)
{
	const struct ev *r;
	unsigned __int128 k;

	if (q->n == 0)
		return EV_KEY_NONE;
	r = ev_ring_min(q);
	k = r ? r->key : EV_KEY_NONE;
	if (q->n_heap && q->heap[0].key < k)
		k = q->heap[0].key;
	return k;
}

bool ev_pop_slow(struct ev_queue *q, struct ev *out)
{
	const struct ev *r;

	if (q->n == 0)
		return false;
	q->n--;
	r = ev_ring_min(q);
	if (r && (!q->n_heap || r->key < q->heap[0].key)) {
		*out = *r;
		q->run_head++;
	} else {
		ev_heap_pop(q, out);
	}
	q->cur = ev_time(out) >> EV_BUCKET_SHIFT;
	return true;
}
