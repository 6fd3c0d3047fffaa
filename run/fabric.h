/* Wiring: turns a loaded experiment into a running fabric (switches, NICs,
 * links, forwarding tables, captures, traffic) on one simulation context,
 * runs it and tears it down. The only place that knows every component. */
#ifndef FAB_FABRIC_H
#define FAB_FABRIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "exp.h"
#include "nic.h"
#include "port_fault.h"
#include "port_metrics.h"
#include "sim.h"
#include "sim_rec.h"
#include "sw.h"
#include "tg.h"
#include "topo.h"

struct cap_file;
struct cap_ng;
struct fabric_pfc_log_port;
struct fault_counts;
struct res_live;

struct fabric {
	struct sim sim;               /* the simulation */
	const struct exp *exp;        /* experiment (borrowed) */
	const struct topo *topo;      /* its topology */
	struct topo_routes *routes;   /* forwarding tables */
	struct sw **sws;              /* by switch index */
	struct nic **nics;            /* by host index */
	struct tg_ep *tg_eps;         /* NIC and port of each endpoint, for traffic */
	struct tg *tg;                /* traffic */
	struct cap_file **caps;       /* per exp capture */
	struct cap_ng *cap_ng;        /* capture.format pcapng: the one file, else NULL */
	char **cap_paths;             /* the files under capture/: the per-port pcaps in
				       * capture order (or capture.pcapng), hosts, ethers */
	uint32_t n_cap_paths;         /* their count */
	double setup_s;               /* wall-clock time of fabric_build (not part of results) */
	double wall_s;                /* wall-clock run time (not part of results) */
	double cpu_s;                 /* CPU time of the thread that ran the event loop (with
				       * partitions: partition 0's, waits included) */
	/* monitors */
	FILE *series;                 /* series.csv, or NULL */
	FILE *rates;                  /* rates.csv, or NULL (series_rate.c) */
	uint64_t series_bytes;        /* written to series.csv and rates.csv so far */
	bool series_full;             /* they reached outputs.series.max_bytes: sampling
				       * stopped (at series_full_ps) */
	uint64_t series_full_ps;      /* when */
	FILE *pfc_log;                /* pfc_log.csv, or NULL (pfc_log.c) */
	bool pfc_log_lost;            /* a row was lost (no memory to keep it in order) */
	struct sim_rec_writer rec_writers[SIM_REC_N_DESTS]; /* ordered records' writers
				       * (fabric_rec_writer; sim_rec.h) */
	struct sim_rec rec;           /* a run without partitions: its records waiting */
	struct fabric_pfc_log_port *pfc_log_ports; /* the hook argument of each linked port */
	uint32_t *rate_flows;         /* per sampled QP, its first message */
	uint32_t n_rate_flows;        /* their count */
	uint64_t *mon_vals;           /* a run split over processes: a sample's values
				       * over every process (fabric_sample), or NULL */
	struct ev_src mon_src;        /* event identity of the monitors */
	uint32_t mon_pending;         /* monitor events in the queue */
	bool mon_always;              /* monitors go on while nothing else is pending (a
				       * live run, whose endpoints may send at any time) */
	const struct res_live *live;  /* fabemu live: what its loop and ports measured
				       * (live/, for the live.* metrics), else NULL */
	uint32_t deadlocks;           /* cyclic buffer dependencies found */
	uint64_t deadlock_ps;         /* when the first was found */
	char deadlock_cycle[256];     /* its switches, "a -> b -> a" */
	uint32_t *dl_next;            /* successor on the cycle seen at the previous check,
				       * UINT32_MAX off it */
	uint64_t *dl_tx;              /* frames sent to that successor by then */
	bool deadlock_stopped;        /* the run was stopped because of it */
	struct fabric_faults *faults; /* the fault schedule (faults/schedule.c), NULL without */
	uint64_t reroute_changed;     /* (switch, destination class) rows the last
				       * fabric_reroute changed */
	/* no-progress detector (engine.no_progress, fabric_progress_arm) */
	uint64_t np_tx_pkts;          /* data frames sent by all ports at the last look */
	uint64_t np_since_ps;         /* when that count last changed */
	uint64_t np_look_ps;          /* time of the last look */
	bool no_progress_stopped;     /* the run was stopped: busy, but no data frame moved */
	/* Parallel runs (fabric_par.c, core/par.h) */
	struct par *par;              /* the partitions, NULL in one */
	uint16_t *node_part;          /* partition of each node, NULL in one */
	const char *par_note;         /* why --threads was not followed (one partition),
				       * or NULL */
	struct fabric_rport *rport;   /* a run split over processes, once over: each link
				       * side's counters over every process, by 2 x link +
				       * side (fabric_remote_results), else NULL */
	uint64_t *rbase;              /* and their port_stats as the run began
				       * (fabric_remote_begin), else NULL */
	struct fault_counts *rfault;  /* and what each fault's kind counted itself
				       * (a storm's XOFFs), summed, by fault; else NULL */
};

/* A port's counters summed over the processes of a split run. */
struct fabric_rport {
	struct port_stats st;
	struct port_credit_sum credit;
	struct port_fault_stats fault;
};

/* fabric_remote.c: once a run split over the processes of an MPI job
 * (exp->remote, with partitions) is over, bring what results read of the
 * nodes, ports and messages other processes ran into this one, so that
 * its results are those of one process. Every process of the job calls
 * it (nothing to do in a run of one). 0 or -errno (every process then
 * fails alike). */
int fabric_remote_results(struct fabric *f);
/* The process of such a run that runs node @node (0 in a run of one). */
uint32_t fabric_node_process(const struct fabric *f, uint32_t node);
/* Before fabric_run of such a run: how its ports' counters begin (the
 * same in every process). 0 or -ENOMEM. */
int fabric_remote_begin(struct fabric *f);
/* @p's counters (port_stats), or its credit counters (port_credit_sum):
 * over every process after fabric_remote_results; what results read. */
void fabric_port_stats(const struct fabric *f, const struct port *p, struct port_stats *out);
void fabric_port_credit_sum(const struct fabric *f, const struct port *p, struct port_credit_sum *out);
/* @p's fault counters (port_fault_stats), likewise. */
void fabric_port_fault_stats(const struct fabric *f, const struct port *p, struct port_fault_stats *out);

/* fabric_par.c: decide the partitions of @f's run (e->threads, where
 * nothing keeps it in one: f->par_note says what does) and make them;
 * before any node is built. 0 or -errno with @err. */
int fabric_par_setup(struct fabric *f, bool outputs, char err[CFG_ERR_BYTES]);
/* Why @e runs in one partition whatever the options say, as far as the
 * experiment alone tells (the topology may add reasons), or NULL.
 * @outputs (whether the run writes results) changes nothing since the
 * pfc_log and pcapng outputs split (core/sim_rec.h). */
const char *fabric_par_blocker(const struct exp *e, bool outputs);
/* The threads --threads auto gives a run of @e on @cores cores: 1 where
 * something keeps it in one partition (fabric_par_blocker), where it is
 * split over processes (each process one thread) or where the fabric has
 * fewer than 2 x FABRIC_PAR_AUTO_HOSTS hosts; else one thread per
 * FABRIC_PAR_AUTO_HOSTS hosts up to @cores (and --partitions, if given). */
uint32_t fabric_par_auto(const struct exp *e, bool outputs, uint32_t cores);
/* Hosts a partition of --threads auto has at least (docs/performance.md:
 * a window of a smaller partition holds too few events to pay for the
 * barrier). */
#define FABRIC_PAR_AUTO_HOSTS 64
/* The simulation node @node runs in. */
struct sim *fabric_node_sim(struct fabric *f, uint32_t node);
/* Threads the run uses (1 without partitions). */
uint32_t fabric_threads(const struct fabric *f);
/* The partitions a run used: --partitions (or --threads) where they were
 * followed, else 1. */
uint32_t fabric_partitions(const struct fabric *f);
/* A parallel run's scaling report (bench, and the human summary of a run
 * with --threads N > 1): partitions, lookahead, windows, events per
 * window, the share of hops that crossed partitions, the parallelism and
 * each partition's events and wall and CPU time; the first line starts
 * with @lead. Nothing without partitions. */
void fabric_par_report(const struct fabric *f, const char *lead, FILE *out);

/* Monotonic wall-clock time, s. */
double fabric_now_s(void);

/* Build everything for @e on @pool, opening no file (the link layer's
 * wiring by its hooks, linklayers/link_layer.h): with @outputs, what
 * the output files need in the simulation (the series sampler, the PFC
 * log's hooks, the list of sampled QPs) is set up too, and
 * fabric_open_outputs must follow before fabric_run. Returns 0 or -errno
 * with @err filled. */
int fabric_build(struct fabric *f, const struct exp *e, struct rte_mempool *pool, bool outputs,
		 char err[CFG_ERR_BYTES]);
/* Open the run's output files in @outdir: the captures (under capture/),
 * series.csv, pfc_log.csv and rates.csv, each as the experiment asks.
 * Called once the run is known to start (an earlier run's results are
 * removed just before). 0 or -errno with @err filled. */
int fabric_open_outputs(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
/* The trees of the experiment's in-network reductions (tg.h struct
 * tg_agg) over the fabric, registered at their switches (fabric_agg.c),
 * once the traffic's connections exist: 0, -ENOSPC with @err filled (bad
 * input: no tree, or a class that is not lossless along it) or -ENOMEM. */
int fabric_agg_setup(struct fabric *f, char err[CFG_ERR_BYTES]);
/* Run to completion (or stop_time, or an interrupt: sim.interrupt);
 * @progress reports on stderr: virtual time (of stop_time, with an ETA,
 * when there is one), events and events/s, messages done, wall time;
 * redrawn in place on a terminal, a plain line every 5 s elsewhere
 * (FABEMU_PROGRESS_INTERVAL_MS overrides the interval). */
void fabric_run(struct fabric *f, bool progress);
/* Close the run's captures and series.csv (fabric_free closes what is
 * left unchecked), written into @outdir. 0, or -errno with "PATH: cannot
 * write: reason" in @err for the first file a write of which failed. */
int fabric_close_outputs(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
void fabric_free(struct fabric *f);

/* Recompute the forwarding of every switch, between events, with the
 * links @link_down[l] != 0 taken out (NULL: none), from the topology
 * (topo_routes_build_avoiding, sw_set_fib): what a fabric does when links
 * or switches fail (frames already queued stay where they are). 0, or
 * -errno with @err filled and the old forwarding everywhere. */
int fabric_reroute(struct fabric *f, const uint8_t *link_down, char err[CFG_ERR_BYTES]);

/* run/fabric_cap.c. Open the captures under @outdir/capture (capture.format)
 * and write the name files hosts and ethers there; nothing without
 * capture.ports. 0 or -errno with @err filled. */
int fabric_captures_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
/* Whether @outdir/capture can take @e's captures: -ENOTDIR with @err
 * filled when it is a file or a link (checked before an earlier run's
 * results are removed). */
int fabric_captures_check(const struct exp *e, const char *outdir, char err[CFG_ERR_BYTES]);
/* Close them: 0, or -errno with "PATH: cannot write: reason" in @err. */
int fabric_captures_close(struct fabric *f, char err[CFG_ERR_BYTES]);
/* Free what is left (closing unchecked); fabric_free calls it. */
void fabric_captures_free(struct fabric *f);

/* run/pfc_log.c. With outputs.pfc_log, hook every linked port that does
 * PFC (fabric_build), then open @outdir/pfc_log.csv; 0 or -errno with
 * @err filled. Close: 0, or -errno with "PATH: cannot write: reason" in
 * @err. Free: what is left, unchecked (fabric_free). */
int fabric_pfc_log_hook(struct fabric *f, char err[CFG_ERR_BYTES]);
/* pfc_log.csv and the pcapng capture get their rows and blocks in one
 * order at any partitioning (core/sim_rec.h): @d's writer is @out on
 * @dest; from then on they wait as ordered records (in the partitions',
 * or in f->rec). fabric_rec_flush writes what a run without partitions
 * still holds (before the files close). */
void fabric_rec_writer(struct fabric *f, enum sim_rec_dest d, sim_rec_out out, void *dest);
int fabric_rec_flush(struct fabric *f);
int fabric_pfc_log_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
int fabric_pfc_log_close(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
void fabric_pfc_log_free(struct fabric *f);

/* Port @p of topology node @node. */
struct port *fabric_port(struct fabric *f, uint32_t node, uint16_t p);
/* The MAC of port @p of @node (the addressing plan, core/addr.h). */
void fabric_port_mac(const struct topo *t, uint32_t node, uint16_t p, uint8_t mac[6]);
/* A warning on stderr when nic.rto is shorter than the longest base round
 * trip of a connection of the run (run/fabric_mon.c). */
void fabric_warn_rtt(const struct fabric *f);

/* Largest frame NICs with settings @np send (their MTU, framing, VLAN
 * tag, InfiniBand's GRH). */
uint32_t fabric_max_frame(const struct nic_params *np);
/* After wiring: PFC settings per port and switch buffers (warnings to
 * stderr with the file position they concern). */
int fabric_ready(struct fabric *f, char err[CFG_ERR_BYTES]);
/* series.csv: start sampling (fabric_build), then open the file (nothing
 * when not asked for); a sample before the file is open writes nothing. */
int fabric_series_arm(struct fabric *f, char err[CFG_ERR_BYTES]);
int fabric_series_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
/* rates.csv (run/series_rate.c): after the traffic is posted, list the
 * QPs of the workloads outputs.series.flows names (fabric_build), then
 * open the file (nothing when none is named); 0 or -errno with @err
 * filled. Each series.csv sample then writes a row per QP. */
int fabric_rates_list(struct fabric *f, char err[CFG_ERR_BYTES]);
int fabric_rates_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES]);
/* A row per listed QP at @now_ps from @vals (FABRIC_RATE_VALS a QP), or
 * read from the QPs when NULL; written when the file is open. Returns the
 * bytes of the rows (counted where the file is not: a split run's other
 * processes, whose budget must stop sampling where process 0's does). */
uint64_t fabric_rates_sample(struct fabric *f, uint64_t now_ps, const uint64_t *vals);
/* The values rates.csv samples of flow @i (of f->rate_flows: its QP's
 * rate, window and outstanding requests) into @v[FABRIC_RATE_VALS]. */
#define FABRIC_RATE_VALS 3
void fabric_rates_values(const struct fabric *f, uint32_t i, uint64_t *v);
/* Periodic cyclic-buffer-dependency (PFC deadlock) detection. */
void fabric_deadlock_arm(struct fabric *f);
/* The no-progress detector: with engine.no_progress above 0, the run
 * stops (no_progress_stopped) when events go on but no data frame has
 * left any port for that long. It looks between events (sim.watch), so it
 * adds no event and no work per packet. */
void fabric_progress_arm(struct fabric *f);

enum {
	FABRIC_POOL_MAX_PKTS = 1 << 26,      /* engine.packet_pool's maximum */
	FABRIC_POOL_AUTO_MAX_PKTS = 1 << 20, /* the most the pool sizes itself to: its ring
					      * (8 B a packet) is resident from start-up */
};

/* Packet pool and EAL memory an experiment needs. */
uint16_t fabric_data_room(const struct exp *e);
/* The packet pool's size: engine.packet_pool when the experiment (or a
 * --set) gives it; else sized from the fabric and the traffic, so that a
 * run does not run it dry: min(switch buffers / 64 B + frames in flight
 * on the links + 256 per host, (nic.retry_cnt + 2) x (packets of all
 * messages, one more each) + 4096), at least the loader's fixed default
 * (2^17 packets headers-only, 2^15 with payload) and at most 2^26
 * (docs/config.md, engine.packet_pool). */
uint32_t fabric_pool_pkts(const struct exp *e);
unsigned fabric_eal_mem_mb(const struct exp *e);

/* fabric.ib.vl_buffer: auto for a port of @rate_bps and @delay_ps with
 * frames up to @max_frame_bytes and an update threshold of @update_bytes:
 * the credit loop's bytes, a whole number of 64-byte blocks, at most
 * 128 KiB (linklayers/infiniband.c). */
uint64_t fabric_credit_auto_bytes(uint64_t rate_bps, uint64_t delay_ps, uint32_t max_frame_bytes,
				  uint64_t update_bytes);

#endif
