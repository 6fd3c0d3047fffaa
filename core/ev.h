/* The event queue: events keyed by (time, tie), where the tie packs the
 * scheduling entity's id and that entity's own sequence number. Order never
 * depends on pointers or on global insertion order, so a partitioned run can
 * reproduce a sequential one. Components schedule at most one event per busy
 * port or link, never one per queued packet.
 *
 * Two tiers, one total order. Near events (within EV_RING_BUCKETS buckets
 * of 2^EV_BUCKET_SHIFT ps from the current bucket, which covers a link's
 * serialisation and propagation) go into a ring of time buckets: O(1) to
 * add, a bitmap finds the next non-empty bucket, and the few events of a
 * bucket are scanned for the smallest key. Far events (timers, flow
 * starts) go into a 4-ary min-heap. A pop takes the smaller key of the two
 * tiers, so the order is exactly that of a single heap. */
#ifndef FAB_EV_H
#define FAB_EV_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;

typedef void (*ev_fn)(struct sim *sim, void *obj);

enum {
	EV_SRC_ID_BITS = 24,  /* up to 16 M entities */
	EV_SEQ_BITS = 40,     /* 1.1e12 events per entity */
};

/* An entity that schedules events: its id and running sequence number. */
struct ev_src {
	uint32_t id;  /* unique per simulation, < 2^24 */
	uint64_t seq; /* events scheduled so far */
};

struct ev {
	/* time_ps << 64 | src id << 40 | per-source sequence: one comparison
	 * orders by time, then source, then sequence. */
	unsigned __int128 key;
	ev_fn fn;         /* handler */
	void *obj;        /* handler argument */
};

static inline uint64_t ev_time(const struct ev *e) { return (uint64_t)(e->key >> 64); }

enum {
	EV_BUCKET_SHIFT = 10,                  /* bucket width 1.024 ns */
	EV_RING_BUCKETS = 1 << 13,             /* horizon 8.4 us */
	EV_RING_WORDS = EV_RING_BUCKETS / 64,  /* bitmap words */
};

enum { EV_CHUNK_EVENTS = 15 };

/* Storage of a bucket's events: a list of chunks from a shared free list,
 * so that memory follows the events alive, not each bucket's busiest
 * moment. */
struct ev_chunk {
	struct ev v[EV_CHUNK_EVENTS]; /* events */
	struct ev_chunk *next;        /* next chunk of the bucket, or free list */
	uint32_t n;                   /* events held */
};

/* One time bucket: unordered events, in chunks. */
struct ev_bucket {
	struct ev_chunk *head;  /* first chunk, NULL when empty */
	struct ev_chunk *tail;  /* chunk new events go to */
};

struct ev_queue {
	uint64_t cur;        /* absolute bucket number of the last event popped */
	uint32_t n;          /* events queued (all tiers) */
	uint32_t n_ring;     /* of which in ring buckets (not counting the run) */
	uint64_t n_pushed;   /* events ever scheduled */
	uint64_t bits[EV_RING_WORDS]; /* ring buckets holding events */
	struct ev_bucket *ring;       /* EV_RING_BUCKETS buckets */
	struct ev_chunk *free_chunks; /* chunk free list */
	/* The run: the earliest ring bucket, taken out of the ring and sorted,
	 * consumed from run[run_head]; new events for its time go in order. */
	struct ev *run;      /* sorted events run[run_head..run_n) */
	uint32_t run_head;   /* next to take */
	uint32_t run_n;      /* end */
	uint32_t run_cap;    /* allocated */
	uint64_t run_bucket; /* absolute bucket number of the run, when not empty */
	struct ev *scratch;  /* run_cap events: a bucket before sorting */
	uint64_t *keys;      /* 3 x run_cap: sort keys, their scratch, run bounds */
	struct ev *heap;     /* far tier: 0-based 4-ary heap, children of i are 4i+1..4i+4 */
	void *mem;           /* allocation behind heap (aligned) */
	uint32_t n_heap;     /* events in the heap */
	uint32_t cap;        /* heap slots allocated */
	/* For prefetching (ev_next_chunk); never changes the order. */
	uint32_t n_fills;          /* runs filled so far */
	struct ev_chunk *next_chunk; /* at the last fill: first chunk of the next
				      * non-empty ring bucket, or NULL */
};

int ev_queue_init(struct ev_queue *q, uint32_t cap);
void ev_queue_fini(struct ev_queue *q);

/* Out-of-line parts of ev_push and ev_pop: the run, new chunks, the heap. */
int ev_push_slow(struct ev_queue *q, const struct ev *e);
bool ev_pop_slow(struct ev_queue *q, struct ev *out);

/* Schedule @fn(@obj) at @time_ps on behalf of @src. Grows the heap when
 * full (amortised; it is sized by the number of busy ports and links).
 * Returns 0 or -ENOMEM. The common case (a ring bucket whose last chunk
 * has room) is inline. */
static inline int ev_push(struct ev_queue *q, uint64_t time_ps, struct ev_src *src, ev_fn fn,
			  void *obj)
{
	uint64_t bucket = time_ps >> EV_BUCKET_SHIFT;
	struct ev e;
	int rc;

	assert(src->seq < (UINT64_C(1) << EV_SEQ_BITS));
	assert(bucket >= q->cur);
	e.key = (unsigned __int128)time_ps << 64 | ((uint64_t)src->id << EV_SEQ_BITS | src->seq);
	e.fn = fn;
	e.obj = obj;
	if (__builtin_expect(bucket > q->run_bucket || q->run_head == q->run_n, 1) &&
	    __builtin_expect(bucket - q->cur < EV_RING_BUCKETS, 1)) {
		struct ev_chunk *c = q->ring[bucket & (EV_RING_BUCKETS - 1)].tail;

		/* A bucket with a chunk is marked non-empty already. */
		if (__builtin_expect(c != NULL && c->n < EV_CHUNK_EVENTS, 1)) {
			c->v[c->n++] = e;
			q->n_ring++;
			q->n++;
			q->n_pushed++;
			src->seq++;
			return 0;
		}
	}
	rc = ev_push_slow(q, &e);
	if (rc == 0)
		src->seq++;
	return rc;
}

static inline bool ev_empty(const struct ev_queue *q) { return q->n == 0; }

/* Remove the earliest event into @out; false when empty. The common case
 * (the next event of the sorted run, earlier than the heap's) is inline. */
static inline bool ev_pop(struct ev_queue *q, struct ev *out)
{
	if (__builtin_expect(q->run_head < q->run_n, 1) &&
	    (q->n_heap == 0 || q->run[q->run_head].key < q->heap[0].key)) {
		*out = q->run[q->run_head++];
		q->n--;
		q->cur = ev_time(out) >> EV_BUCKET_SHIFT;
		return true;
	}
	return ev_pop_slow(q, out);
}

/* Prefetching. When a pop has made a new run (n_fills moved on), the
 * events of its bucket are about to run, and the first chunk of the next
 * non-empty bucket holds the events that follow them: its handlers' data
 * can be loaded meanwhile. ev_next_chunk is that chunk, or NULL when the
 * next non-empty bucket is EV_LOOKAHEAD_BUCKETS or more past the run's (or
 * the ring is empty after it). Events pushed later into that bucket or an
 * earlier one are not in it (pushes may add to this chunk). Valid until
 * the next pop; a hint only: the queue order is untouched. */
enum {
	EV_LOOKAHEAD_BUCKETS = 64, /* how far past the run's bucket (65 ns) */
};
static inline const struct ev_chunk *ev_next_chunk(const struct ev_queue *q)
{
	return q->next_chunk;
}

/* Time of the earliest event; only when not empty. */
uint64_t ev_peek_time(struct ev_queue *q);

/* Key of the earliest event (time << 64 | source << 40 | sequence), or
 * EV_KEY_NONE when empty. Events pushed after a peek keep the order
 * exact (ev_push_slow). */
#define EV_KEY_NONE (~(unsigned __int128)0)
unsigned __int128 ev_peek_key(struct ev_queue *q);

/* ev_peek_key with its common case (the sorted run's head) inline. */
static inline unsigned __int128 ev_next_key(struct ev_queue *q)
{
	if (__builtin_expect(q->run_head < q->run_n, 1)) {
		unsigned __int128 k = q->run[q->run_head].key;

		return q->n_heap && q->heap[0].key < k ? q->heap[0].key : k;
	}
	return ev_peek_key(q);
}

#endif
