/* Parallel runs: the fabric's nodes partitioned over worker threads, each
 * partition a struct sim of its own, run in conservative windows no longer
 * than the smallest link delay between partitions (the lookahead). A frame
 * that crosses partitions is copied into an outbox during a window and
 * handed to its receiver at the window's end; events of the root
 * simulation (samplers, faults, reroutes) run alone, at their exact place
 * in the event order. Results are those of one thread (docs/performance.md,
 * "Threads"). */
#ifndef FAB_PAR_H
#define FAB_PAR_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"
#include "sim.h"
#include "sim_rec.h"

struct port;
struct rte_mbuf;
struct par;

enum {
	PAR_MAX_THREADS = 64, /* partitions (threads) of one run, at most */
};

/* How the windows of a finished run went (the scaling report). */
struct par_stats {
	uint32_t n_parts;          /* partitions */
	uint32_t n_workers;        /* threads running them (in each process) */
	uint32_t n_procs;          /* processes sharing them (par_remote; 1: this one) */
	uint64_t lookahead_ps;     /* window length bound: smallest delay across partitions */
	uint64_t windows;          /* windows run */
	uint64_t root_events;      /* events of the root simulation (each one a window end) */
	uint64_t crit_events;      /* sum over windows of the most events one partition
				    * handled in it, plus the root's: events / crit_events
				    * bounds the speed-up of free barriers and copies */
	uint64_t events[PAR_MAX_THREADS];   /* events handled, per partition */
	uint64_t x_frames[PAR_MAX_THREADS]; /* frames sent to another partition, per partition */
	double busy_s[PAR_MAX_THREADS];     /* wall time spent handling events, per partition */
	double wait_s[PAR_MAX_THREADS];     /* wall time spent waiting at window ends (a
					     * thread's, on its first partition) */
	double cpu_s[PAR_MAX_THREADS];      /* CPU time handling events and frames (busy_s
					     * less the time other processes had the core) */
};

/* @n partitions (2..PAR_MAX_THREADS) under @root, whose events are the
 * fabric-wide ones, run by @workers threads (1..n; each runs a block of
 * partitions one after the other in every window); each partition gets a
 * simulation with the root's seed
 * and stop time, its own event queue and its own packet pool: the root's
 * for partition 0 (the root makes no packet), one like it (@pool_pkts
 * packets of @data_room bytes) for the others; all share the root's
 * entity ids (so ids are those of a run without partitions). NULL with
 * @err filled on failure. */
struct par *par_new(struct sim *root, uint32_t n, uint32_t workers, uint32_t pool_pkts,
		    uint16_t data_room, char err[CFG_ERR_BYTES]);
void par_free(struct par *p);

/* Partition @i's simulation. */
struct sim *par_sim(struct par *p, uint32_t i);
uint32_t par_n(const struct par *p);
/* The threads that run them (1..par_n). */
uint32_t par_workers(const struct par *p);

/* The smallest link delay between partitions, set before par_run (> 0). */
void par_set_lookahead(struct par *p, uint64_t lookahead_ps);

/* Run every partition and the root's events to the end, with the stop,
 * interrupt and horizon rules of sim_run, then fold the partitions'
 * counters into the root's (events, hops, pool figures, last work, events
 * left) so that results read the root as after a run without partitions.
 * Returns events handled. */
uint64_t par_run(struct par *p);

/* Events pending in the partitions' queues. */
uint64_t par_pending(const struct par *p);

void par_get_stats(const struct par *p, struct par_stats *out);

/* Partitions in other processes (an MPI job: tools/cli_mpi.c). This
 * process runs its block of the partitions (process k of N: partitions
 * k n / N to (k + 1) n / N - 1); at each window's end the frames between
 * processes go through @swap and the figures that decide the next window
 * (next event, stuck, stop, counts) through @combine, so that every
 * process decides the same. Every process holds the whole fabric and runs
 * the root's events; what they do to partitions of other processes is
 * not looked at (frames those send are dropped). */
struct par_remote {
	uint32_t rank;   /* this process, < size */
	uint32_t size;   /* processes (2..) */
	/* Send @out_len[k] bytes at @out[k] to process k and receive from each
	 * process k what it sent this one: *@in[k], @in_len[k] bytes (valid
	 * until the next call). Entry rank is empty both ways. 0, or -errno. */
	int (*swap)(void *ctx, uint8_t *const *out, const size_t *out_len, uint8_t **in,
		    size_t *in_len);
	/* Over every process, in place: @mx[0..n_mx) the largest, @sum[0..n_sum)
	 * the sum. */
	void (*combine)(void *ctx, uint64_t *mx, uint32_t n_mx, uint64_t *sum, uint32_t n_sum);
	void *ctx;
};

/* Run this process's partitions only, the others being @r's; before
 * par_run, with every port linked. 0, or -EINVAL with @err filled (fewer
 * partitions than processes, or more threads than its partitions). */
int par_set_remote(struct par *p, const struct par_remote *r, char err[CFG_ERR_BYTES]);
/* Whether this process runs partition @i. */
bool par_owns(const struct par *p, uint32_t i);
/* Whether this process runs the events of @s: false for a partition of
 * another process, true for its own, the root and a run without
 * partitions. What a fabric-wide event does to a node there is not
 * looked at; what it sends or counts there would be counted twice
 * (faults act on the ports this says are here). */
bool par_sim_here(const struct sim *s);
/* The process that runs @s's events (0 without other processes; the
 * root runs in every process: 0). */
uint32_t par_sim_process(const struct sim *s);
/* Sum @v[0..@n) over every process, in place (nothing without other
 * processes). Only from a fabric-wide event (every process runs those,
 * in the same order): every process must call it there. */
void par_sum(struct sim *s, uint64_t *v, uint32_t n);
/* Ordered records (sim_rec.h): their writers here, @w[SIM_REC_N_DESTS]
 * (kept, not copied). Every process of a run across processes sets them
 * (their records go to process 0, which writes them); from then on the
 * partitions keep records, written out at each window's end. Before
 * par_run. */
void par_rec_writers(struct par *p, const struct sim_rec_writer *w);
/* Processes running the partitions (1: this one alone). */
uint32_t par_processes(const struct par *p);
/* The process that runs partition @i (0 without other processes). */
uint32_t par_process(const struct par *p, uint32_t i);
/* Register port @port, whose peer is in another partition: its index
 * among such ports (the same in every process: ports are linked in the
 * same order), for frames sent between processes. */
uint32_t par_xport_add(struct par *p, struct port *port);

/* A frame @m leaves port @p (whose peer is in another partition) due at
 * the peer at @due_ps: copied into the outbox towards the peer's
 * partition, and @m freed. Called by port.c only. */
void par_send(struct port *p, struct rte_mbuf *m, uint64_t due_ps);

/* What a partition's events must tell another process's partition besides
 * frames (remote; a streamed message's record for its receiver,
 * traffic/tg_stream.c): @len bytes at @data from partition @from's
 * event, handed at the window's end to the handler par_set_aux named,
 * in partition @to, before the frames sent after it, in sending order. */
typedef void (*par_aux_fn)(void *ctx, struct sim *to, const void *data, uint32_t len);
void par_set_aux(struct par *p, par_aux_fn fn, void *ctx);
void par_aux_send(struct sim *from, uint32_t to, const void *data, uint32_t len);

/* What a partition's event leaves for the run as a whole (tg_graph_par.c:
 * an operation of a dependency graph that waits for others ending in
 * other partitions): @what at @t_ps (within the window), handed at the
 * window's end to the handler par_set_defer named, with every partition
 * waiting, the records of all partitions in the order of (time,
 * partition, leaving). Whatever the handler schedules must be due after
 * the window's end (par_window_end), in any partition or the root; it
 * returns the events it stood for (counted among the run's). Across
 * processes every process gets every process's records (par_swap) and
 * hands them all over, in the same order. */
typedef uint64_t (*par_defer_fn)(void *ctx, uint64_t t_ps, uint32_t what, uint32_t count);
void par_set_defer(struct par *p, par_defer_fn fn, void *ctx);
void par_defer(struct sim *from, uint64_t t_ps, uint32_t what);
/* A record of @what that counts: the window's first from this partition
 * is left as par_defer leaves one (count 1), later ones add to its count
 * and keep the latest time. @slot (the caller's, one per partition and
 * @what) remembers where it is. The handler gets the count. */
void par_defer_count(struct sim *from, uint64_t t_ps, uint32_t what, uint32_t *slot);
/* The time of the last window's bound: its partitions handled every event
 * before it, and none after. */
uint64_t par_window_end(const struct par *p);
/* The lookahead (par_set_lookahead's). */
uint64_t par_lookahead(const struct par *p);

#endif
