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

#include <stdbool.h>
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
	EV_BUCKET_SHIFT = 8,                   /* bucket width 256 ps */
	EV_RING_BUCKETS = 1 << 14,             /* horizon 4.19 us */
	EV_RING_WORDS = EV_RING_BUCKETS / 64,  /* bitmap words */
};

/* One time bucket. Unordered while it fills; sorted by key the first time
 * an event is taken from it, and kept sorted from then on. */
struct ev_bucket {
	struct ev *v;        /* events v[head..n) */
	uint32_t head;       /* next to take, once sorted */
	uint32_t n;          /* end of the events */
	uint32_t cap;        /* allocated */
	uint32_t sorted;     /* v[head..n) is in key order */
};

struct ev_queue {
	uint64_t cur;        /* absolute bucket number of the last event popped */
	uint32_t n;          /* events queued (both tiers) */
	uint32_t n_ring;     /* of which in the ring */
	uint64_t n_pushed;   /* events ever scheduled */
	uint64_t bits[EV_RING_WORDS]; /* non-empty buckets */
	struct ev_bucket *ring;       /* EV_RING_BUCKETS buckets */
	struct ev *heap;     /* far tier: 0-based 4-ary heap, children of i are 4i+1..4i+4 */
	void *mem;           /* allocation behind heap (aligned) */
	uint32_t n_heap;     /* events in the heap */
	uint32_t cap;        /* heap slots allocated */
};

int ev_queue_init(struct ev_queue *q, uint32_t cap);
void ev_queue_fini(struct ev_queue *q);

/* Schedule @fn(@obj) at @time_ps on behalf of @src. Grows the heap when
 * full (amortised; it is sized by the number of busy ports and links).
 * Returns 0 or -ENOMEM. */
int ev_push(struct ev_queue *q, uint64_t time_ps, struct ev_src *src, ev_fn fn, void *obj);

static inline bool ev_empty(const struct ev_queue *q) { return q->n == 0; }
/* Remove the earliest event into @out; false when empty. */
bool ev_pop(struct ev_queue *q, struct ev *out);
/* Time of the earliest event; only when not empty. */
uint64_t ev_peek_time(struct ev_queue *q);

#endif
