/* Private to core/par.c and core/par_remote.c: the partitions, their
 * outboxes and workers, and what a run shared with other processes keeps
 * (par.h, struct par_remote). */
#ifndef FAB_PAR_INT_H
#define FAB_PAR_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "par.h"
#include "pkt.h"
#include "sim.h"
#include "sim_rec.h"

/* Frames from one partition to another during a window: records laid end
 * to end (struct par_rec, then the frame's bytes, padded to 8). Written
 * by the sender during a window, read by the receiver after it. */
struct par_box {
	uint8_t *buf;      /* records */
	size_t len;        /* bytes used */
	size_t cap;        /* bytes allocated */
};

struct par_rec {
	struct port *p;        /* the sending port (its peer receives); NULL: an aux
				* record (par_aux_send), len bytes for the handler */
	uint64_t due_ps;       /* arrival at the peer */
	struct pkt_meta meta;  /* the frame's metadata */
	uint32_t len;          /* bytes of the frame held in the packet (data_len) */
};

/* Sense-counting barrier: spins briefly, then yields (more threads than
 * cores must still make progress). */
struct par_barrier {
	atomic_uint count;     /* arrived this round */
	atomic_uint gen;       /* rounds completed */
	unsigned n;            /* parties */
};

/* A par_defer record: what, when, and its place for a stable order. */
struct par_drec {
	uint64_t t_ps;             /* when (<= the window's end) */
	uint32_t what;             /* the handler's */
	uint32_t part;             /* the partition that left it */
	uint32_t idx;              /* its place among that partition's */
	uint32_t count;            /* what it stands for (par_defer_count), 1 at least */
};

struct par_part {
	struct sim sim;            /* the partition's simulation */
	struct par *par;           /* owner */
	struct par_box *out;       /* outboxes by destination partition */
	struct rte_mempool *pool;  /* its packets */
	uint64_t x_frames;         /* frames sent to other partitions */
	uint64_t next_ps;          /* at a window's end: its next event's time
				    * (UINT64_MAX: none) */
	uint64_t seen_events;      /* its events at the last window's end */
	double busy_s, wait_s;     /* wall time handling events, waiting (its worker's
				    * waits, on the worker's first partition) */
	double cpu_s;              /* CPU time handling events and frames (not waiting) */
	struct par_drec *defer;    /* par_defer's records of the window */
	uint32_t n_defer, cap_defer; /* their count, allocated */
	struct sim_rec rec;        /* ordered records its events wrote (sim_rec.h) */
} __attribute__((aligned(64)));

/* Why the coordinator ends a run between windows. */
enum par_stop { PAR_STOP_NONE, PAR_STOP_INTERRUPT, PAR_STOP_WATCH };

/* A worker thread: it runs partitions [first, end) one after the other in
 * each window (more partitions than threads keep each one's state in
 * cache while it runs). */
struct par_worker {
	struct par *par;           /* owner */
	uint32_t first, end;       /* its partitions */
	pthread_t thread;          /* worker 0: the caller's thread */
};

struct par {
	struct sim *root;          /* fabric-wide events */
	uint32_t n;                /* partitions */
	struct par_part *parts;    /* n */
	uint32_t n_workers;        /* threads, 1..n */
	struct par_worker *workers; /* n_workers */
	uint64_t lookahead_ps;     /* window bound */
	unsigned __int128 root_key; /* at a window's end: the root's next event key */
	enum par_stop stop;        /* at a window's end: the coordinator ends the run */
	struct par_barrier bar;    /* window ends */
	uint64_t windows;          /* windows run */
	uint64_t root_events;      /* root events handled */
	uint64_t root_events0;     /* the root's events before par_run */
	uint64_t polled;           /* events at the last watch */
	uint64_t progressed;       /* events at the last progress report */
	uint64_t crit_events;      /* sum over windows of the most events one partition
				    * handled in it, plus the root's: what a run with
				    * free barriers and cross-partition frames would take */
	/* Partitions in other processes (par_set_remote); remote.size 0: none. */
	struct par_remote remote;
	uint32_t own_first, own_end; /* this process's partitions */
	struct port **xports;      /* ports whose peer is in another partition, by xid */
	uint32_t n_xports, cap_xports;
	struct par_box *wire;      /* per process: frames to its partitions (remote) */
	uint8_t **wire_out;        /* ... their bytes and lengths, as swap takes them */
	size_t *wire_len;
	uint8_t **wire_in;         /* per process: what it sent (swap's) */
	size_t *wire_in_len;
	par_aux_fn aux_fn;         /* par_set_aux's handler, and its argument */
	void *aux_ctx;
	par_defer_fn defer_fn;     /* par_set_defer's handler, and its argument */
	void *defer_ctx;
	bool defer_due;            /* at a window's end: records to hand it (the lead's) */
	struct par_drec *dsort;    /* the records of every partition, sorted */
	struct sim_rec **recs;     /* every partition's (sim_rec_flush) */
	const struct sim_rec_writer *rec_writers; /* par_rec_writers': NULL, none */
	uint32_t cap_dsort;        /* allocated */
	uint64_t defer_events;     /* events the handler stood for */
	uint64_t bound_ps;         /* the time of the last window's bound */
	uint64_t glob_next;        /* at a window's end: the next event over every process */
	bool glob_stuck;           /* ... and whether one of them is stuck */
};

/* Room for @more par_defer records in @pp's. 0 or -ENOMEM. */
int par_defer_room(struct par_part *pp, uint32_t more);
/* Room for @bytes more in @b (amortised growth; frames are small). */
uint8_t *par_box_room(struct par_box *b, size_t bytes);
/* Let the calling thread run on any CPU (par.c). */
void par_unpin(void);

/* par_remote.c: frames between processes at a window's end (remote);
 * the coordinator's looks over every process; every partition's figures
 * for the report from the process that ran it; what par_set_remote made. */
void par_swap(struct par *p);
void par_look_remote(struct par *p, bool looks);
void par_gather_stats(struct par *p);
void par_remote_free(struct par *p);

/* Across processes, at a window's end (every process's lead, with
 * rec_writers): the other processes send process 0 their partitions'
 * ordered records, which it appends to its copies of those partitions'
 * (par_remote.c). */
void par_rec_ship(struct par *p);

#endif
