/* The event queue: a binary heap of (time, tie) keys, where the tie packs the
 * scheduling entity's id and that entity's own sequence number. Order never
 * depends on pointers or on global insertion order, so a partitioned run can
 * reproduce a sequential one. Components schedule at most one event per busy
 * port or link, never one per queued packet. */
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
	uint64_t time_ps; /* when it fires */
	uint64_t tie;     /* src id << 40 | per-source sequence */
	ev_fn fn;         /* handler */
	void *obj;        /* handler argument */
};

struct ev_queue {
	struct ev *heap;  /* 1-based binary heap: heap[1] is the minimum */
	uint32_t n;       /* events queued */
	uint32_t cap;     /* slots allocated (heap has cap + 1) */
	uint64_t n_pushed; /* events ever scheduled */
};

int ev_queue_init(struct ev_queue *q, uint32_t cap);
void ev_queue_fini(struct ev_queue *q);

/* Schedule @fn(@obj) at @time_ps on behalf of @src. Grows the heap when full
 * (amortised; size it at setup). Returns 0 or -ENOMEM. */
int ev_push(struct ev_queue *q, uint64_t time_ps, struct ev_src *src, ev_fn fn, void *obj);

/* Remove the earliest event into @out; false when empty. */
static inline bool ev_empty(const struct ev_queue *q) { return q->n == 0; }
bool ev_pop(struct ev_queue *q, struct ev *out);
/* Time of the earliest event; only when not empty. */
static inline uint64_t ev_peek_time(const struct ev_queue *q) { return q->heap[1].time_ps; }

#endif
