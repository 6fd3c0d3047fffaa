/* The simulation context: virtual time, the event queue, the packet pool and
 * run-wide counters. One per partition; everything hangs off it and is
 * passed explicitly (no globals). */
#ifndef FAB_SIM_H
#define FAB_SIM_H

#include <assert.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"
#include "ev.h"
#include "pkt.h"

struct rte_mempool;
struct sim_rec;

enum {
	SIM_MAX_HINTS = 4, /* handlers with prefetch hints */
	SIM_NO_PTR = 0xffff,
	SIM_POLL_EVENTS = 1 << 14,     /* events between two looks at sim.interrupt */
	SIM_PROGRESS_EVENTS = 1 << 20, /* events between two progress reports */
	SIM_STUCK_EVENTS = 1 << 26,    /* events handled without the clock moving that
					* stop a run as stuck (a zero-delay loop) */
};

struct sim {
	uint64_t now_ps;            /* virtual time of the event being handled */
	struct ev_queue evq;        /* pending events */
	uint64_t seed;              /* experiment seed; entity RNGs derive from it */
	uint64_t stop_ps;           /* stop when time would pass this; 0 = run dry */
	uint64_t n_events;          /* events handled */
	uint64_t n_hops;            /* packets delivered over a link */
	uint64_t n_alloc_fail;      /* data packets not built: pool at its data limit */
	struct rte_mempool *pool;   /* mbufs for every packet of the run */
	uint32_t pkts_in_use;       /* mbufs taken from the pool and not freed */
	uint32_t pkts_peak;         /* high-water mark of pkts_in_use */
	uint32_t pkts_data_limit;   /* data packets may not take the pool beyond this */
	uint32_t n_entities;        /* ids handed out so far */
	bool stopped;               /* the run hit stop_ps */
	bool interrupted;           /* the run was stopped by *interrupt (events left) */
	bool monitor_event;         /* set by handlers that only observe or find nothing
				     * to do: not model activity (see last_work_ps) */
	uint64_t last_work_ps;      /* time of the last event that was not an observer's */
	/* Prefetch hints by handler (sim_hint). */
	struct sim_hint {
		ev_fn fn;                    /* handler */
		uint16_t off;                /* byte of the object the handler reads first */
		uint16_t ptr_off;            /* a pointer field in that line, or 0xffff */
		uint16_t ptr_line;           /* byte of its target to load */
	} hints[SIM_MAX_HINTS];
	uint32_t n_hints;
	/* Progress report hook, called every SIM_PROGRESS_EVENTS events; may be NULL. */
	void (*progress)(const struct sim *sim, void *arg);
	void *progress_arg;         /* its argument */
	/* Watchdog hook, called every SIM_POLL_EVENTS events (so only while
	 * events are handled, and never as an event of its own); true ends
	 * the run there, the events left stay queued. May be NULL. */
	bool (*watch)(struct sim *sim, void *arg);
	void *watch_arg;            /* its argument */
	/* Cold fields last, out of the hot lines above. */
	/* A stop request from outside the simulation (the command line's
	 * signal handler or wall-clock limit sets it non-zero); polled every
	 * SIM_POLL_EVENTS events, the run stops at that event boundary. NULL =
	 * none. */
	const volatile sig_atomic_t *interrupt;
	uint64_t n_saturated;       /* counters clamped at their type's maximum (the
				     * run's results are bent: see docs/results.md) */
	bool horizon;               /* the run stopped because its next event lay beyond
				     * the clock's horizon (UNITS_TIME_MAX_PS; events left) */
	uint32_t stuck_polls;       /* polls (SIM_POLL_EVENTS events each) without the clock
				     * moving that stop a run as stuck: SIM_STUCK_EVENTS /
				     * SIM_POLL_EVENTS, which a unit test lowers */
	bool stuck;                 /* the run stopped because SIM_STUCK_EVENTS events
				     * passed without virtual time moving (events left) */
	/* Parallel runs (par.h). */
	struct par *par;            /* the partitions this simulation is one of, or is
				     * the root of; NULL in a run without partitions */
	uint32_t part;              /* partition index (0 without partitions) */
	uint32_t *ids;              /* entity id counter: &n_entities, or the root's in a
				     * partition (ids are those of a run without them) */
	struct sim_rec *rec;        /* ordered records waiting (sim_rec.h): a partition's, or
				     * a run's without partitions; NULL: none written */
	/* Across processes (par_remote): what progress reports as done, from
	 * this process's part (every process sets it, or none), and its sum
	 * over them, set before each progress report; may be NULL. */
	uint64_t (*progress_count)(void *arg);
	uint64_t progress_counted;
};

/* Settings of the engine itself (the `engine:` keys, sim_cfg.c). */
struct sim_params {
	uint32_t pool_pkts;         /* mbufs in the packet pool; 0: chosen by the caller
				     * from the packet size (engine.packet_pool absent) */
	uint64_t no_progress_ps;    /* stop a busy run in which no data frame moved for
				     * this long (engine.no_progress); 0 = never */
};

struct cfg_table;

/* The `engine:` keys, filling struct sim_params. */
extern const struct cfg_table sim_cfg_table;

/* @pool may be NULL (tests without packets). The data limit is set to
 * 15/16 of the pool. */
int sim_init(struct sim *s, uint64_t seed, struct rte_mempool *pool);
void sim_fini(struct sim *s);

/* The pool is empty: make its next chunk of packets (sim_pool_create) and
 * take one; NULL when the pool is whole. */
struct rte_mbuf *sim_pkt_alloc_grow(struct sim *s) __attribute__((cold));

/* Take a packet from the run's pool (no headroom; see pkt_alloc). Control
 * frames (ACK, CNP, PFC) may use the whole pool; data packets stop at
 * pkts_data_limit so that a pool filled by queued data never starves the
 * acknowledgements that would drain it. NULL when none may be had. */
static inline struct rte_mbuf *sim_pkt_alloc(struct sim *s, bool data)
{
	struct rte_mbuf *m;

	if (data && s->pkts_in_use >= s->pkts_data_limit)
		return NULL;
	m = pkt_alloc(s->pool);
	if (unlikely(m == NULL))
		m = sim_pkt_alloc_grow(s);
	if (likely(m != NULL) && ++s->pkts_in_use > s->pkts_peak)
		s->pkts_peak = s->pkts_in_use;
	return m;
}

/* Return a packet taken with sim_pkt_alloc to the run's pool, reading
 * nothing of it (see pkt_alloc); sanitizer builds check that it is still
 * the plain packet that contract describes. */
void sim_pkt_check(const struct sim *s, const struct rte_mbuf *m);
static inline void sim_pkt_free(struct sim *s, struct rte_mbuf *m)
{
#if defined(__SANITIZE_ADDRESS__)
	sim_pkt_check(s, m);
#endif
	s->pkts_in_use--;
	rte_mempool_put(s->pool, m);
}

/* A fresh event-source identity. */
static inline void sim_new_src(struct sim *s, struct ev_src *src)
{
	src->id = (*s->ids)++;
	src->seq = 0;
}

/* Schedule at absolute time @t_ps (>= now). Aborts on out-of-memory: the
 * queue is sized at setup and grows only for pathological runs. */
void sim_at_fail(struct sim *s) __attribute__((noreturn, cold));
static inline void sim_at(struct sim *s, uint64_t t_ps, struct ev_src *src, ev_fn fn, void *obj)
{
	assert(t_ps >= s->now_ps);
	if (unlikely(ev_push(&s->evq, t_ps, src, fn, obj) != 0))
		sim_at_fail(s);
}

/* Prefetch hint for events of @fn. Each time the event loop takes a new
 * time bucket's events (ev_next_chunk), it prefetches, for the events of
 * the bucket after it (its first chunk: up to EV_CHUNK_EVENTS), the line
 * at byte @off of their object (the one the handler reads first; the
 * object's first line for handlers without a hint), and for the events of
 * the new bucket (whose objects were loaded that way a bucket earlier) it
 * reads the pointer at byte @ptr_off of the object (unless SIM_NO_PTR) and
 * prefetches byte @ptr_line of what it points to. Hints only: nothing of
 * the simulation depends on them, and the pointer may be stale (it must
 * point into memory that stays mapped, or be NULL). Registering @fn again
 * is a no-op; past SIM_MAX_HINTS handlers, ignored. */
void sim_hint(struct sim *s, ev_fn fn, uint16_t off, uint16_t ptr_off, uint16_t ptr_line);

/* Run until no event is left, stop_ps is passed (sets stopped),
 * *interrupt is non-zero at a poll (sets interrupted), the next event lies
 * beyond the clock's horizon (sets horizon) or SIM_STUCK_EVENTS events
 * pass without the clock moving (sets stuck), or the watch hook asks to
 * stop; the events left stay queued. Returns events handled. */
uint64_t sim_run(struct sim *s);

/* Events pending in the whole run: @s's own and, for the root of a
 * parallel run (par.h), every partition's. */
uint64_t sim_pending(const struct sim *s);

/* Handle the events whose key is below @bound (a window of a parallel
 * run, par.c), in order; sets stuck like sim_run. Returns events handled. */
uint64_t sim_run_window(struct sim *s, unsigned __int128 bound);

/* Start the DPDK EAL the way fabemu runs anywhere: no hugepages, no PCI, no
 * shared config, one lcore, @mem_mb of memory, quiet logs; @user_argv are
 * appended (EAL arguments given after `--`). Returns 0 or -errno with @err
 * filled: -EINVAL when the EAL rejects its arguments (bad input). Call once
 * per process. */
int sim_eal_init(int user_argc, char **user_argv, unsigned mem_mb, char err[CFG_ERR_BYTES]);
/* The same with @hw (fabemu live with NIC ports on the PCI bus): huge
 * pages, taken as needed (their DMA needs memory the IOMMU maps, and no
 * -m), and the PCI bus, which @user_argv's -a options limit to the NICs
 * named; nothing shared between processes (--in-memory). */
int sim_eal_start(int user_argc, char **user_argv, unsigned mem_mb, bool hw, char err[CFG_ERR_BYTES]);

/* Create the packet pool: @n_mbufs mbufs with at least @data_room bytes of
 * data each (rounded up so that each packet is whole lines) and our
 * metadata in the private area; mbufs are line-aligned. Only the first
 * chunk of packets (4 MiB) is made here; sim_pkt_alloc makes the others as
 * a run needs them, so memory follows the packets in use. Take packets
 * with sim_pkt_alloc, or pkt_alloc (no headroom) where the first chunk is
 * enough; rte_pktmbuf_alloc leaves min(128, data_room) bytes of headroom.
 * NULL with @err filled on failure. */
struct rte_mempool *sim_pool_create(const char *name, uint32_t n_mbufs, uint16_t data_room,
				    char err[CFG_ERR_BYTES]);

#endif
