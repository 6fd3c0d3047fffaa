/* The event queue: events keyed by (time, tie), where the tie packs the
 * scheduling entity's id and that entity's own sequence number. Order never
 * depends on pointers or on global insertion order, so a partitioned run can
 * reproduce a sequential one. Components schedule at most one event per busy
 * port or link, never one per queued packet.
 *
 * The queue is an implicit 4-ary min-heap: half the depth of a binary heap,
 * the four children of a node share two cache lines, and slots past the end
 * hold an all-ones key so that picking the smallest child needs no bounds
 * checks or data-dependent branches. */
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

struct ev_queue {
	struct ev *heap;     /* 0-based 4-ary heap: children of i are 4i+1..4i+4 */
	void *mem;           /* allocation behind heap (aligned) */
	uint32_t n;          /* events queued */
	uint32_t cap;        /* slots allocated */
	uint64_t n_pushed;   /* events ever scheduled */
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
static inline uint64_t ev_peek_time(const struct ev_queue *q) { return ev_time(&q->heap[0]); }

#endif
