/* Results of a run: a flat, ordered registry of named metrics (dotted names
 * such as "drops.buffer" or "flows.slowdown.p99") that is written as the
 * nested summary.json and is what `expect:` assertions look up, plus the
 * flows.csv and ports.csv tables. The metrics come from each module's
 * tables (core/metric.h), walked in order. Schema: docs/results.md. */
#ifndef FAB_RESULTS_H
#define FAB_RESULTS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "fabric.h"
#include "metric.h"
#include "sha256.h"

enum {
	RES_SCHEMA_VERSION = 3,     /* 2: engine.packets_peak became wall_clock.packets_peak;
				     * 3: messages.in_flight_peak became
				     * wall_clock.messages_in_flight_peak */
	RES_SCHEMA_OLDEST = 1,      /* the oldest that compare and plot still read */
	RES_NAME_BYTES = 96,
	RES_REASONS_BYTES = 1024,   /* invalid_reasons, ';'-joined */
};

enum res_type {
	RES_U64,
	RES_DOUBLE,
	RES_STR,
	RES_BOOL,                  /* written true/false; its value is 1/0 */
};

struct res_metric {
	char name[RES_NAME_BYTES]; /* dotted path */
	enum res_type type;        /* which value */
	uint64_t u;                /* RES_U64, RES_BOOL */
	double d;                  /* RES_DOUBLE */
	const char *s;             /* RES_STR (borrowed) */
};

struct results {
	struct res_metric *m;      /* in insertion order */
	uint32_t n;                /* metrics */
	uint32_t cap;              /* allocated */
	bool valid;                /* no limit of the simulator bent the run */
	char reasons[RES_REASONS_BYTES]; /* why not, ';'-joined ("" when valid) */
	char digest[SHA256_HEX_BYTES];   /* provenance.digest_sha256 ("" until written) */
	char *covers;              /* provenance.digest_files: what it covers (malloc'd;
				    * NULL until res_write_all) */
};

/* Append a metric named by @fmt (its value set by the caller); NULL when
 * out of memory. The RES_* macros below add one and return -ENOMEM from
 * the calling function when that fails. */
struct res_metric *res_add(struct results *r, enum res_type type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define RES_U64(r, val, ...)                                             \
	do {                                                             \
		struct res_metric *m_ = res_add((r), RES_U64, __VA_ARGS__); \
		if (!m_)                                                 \
			return -ENOMEM;                                  \
		m_->u = (val);                                           \
	} while (0)
#define RES_DBL(r, val, ...)                                                \
	do {                                                                \
		struct res_metric *m_ = res_add((r), RES_DOUBLE, __VA_ARGS__); \
		if (!m_)                                                    \
			return -ENOMEM;                                     \
		m_->d = (val);                                              \
	} while (0)
#define RES_BOOL(r, val, ...)                                             \
	do {                                                              \
		struct res_metric *m_ = res_add((r), RES_BOOL, __VA_ARGS__); \
		if (!m_)                                                  \
			return -ENOMEM;                                   \
		m_->u = (val) ? 1 : 0;                                    \
	} while (0)
#define RES_STR(r, val, ...)                                             \
	do {                                                             \
		struct res_metric *m_ = res_add((r), RES_STR, __VA_ARGS__); \
		if (!m_)                                                 \
			return -ENOMEM;                                  \
		m_->s = (val);                                           \
	} while (0)


/* Lag thresholds of the live.lag.over_* metrics, ns. */
enum { RES_LIVE_LAG_STEPS = 5 }; /* 1 us, 10 us, 100 us, 1 ms, 10 ms */

/* A live port's counters (live.ports.NODE:PORT.*, filled by live/). */
struct res_live_port {
	uint64_t rx_frames;        /* frames the DPDK port received from the endpoint */
	uint64_t rx_bytes;         /* their bytes (without FCS) */
	uint64_t in_frames;        /* of them, queued into the fabric */
	uint64_t out_frames;       /* frames from the fabric handed to the DPDK port */
	uint64_t out_bytes;        /* their bytes (without FCS) */
	uint64_t arp_replies;      /* ARP requests answered */
	uint64_t arp_ignored;      /* other ARP frames */
	uint64_t drops_other;      /* neither ARP nor IPv4 (IPv6, LLDP, ...) */
	uint64_t drops_not_fabric; /* IPv4 to an address outside the fabric's plan */
	uint64_t drops_size;       /* longer than live.mtu, either way */
	uint64_t drops_queue;      /* live.queue full */
	uint64_t drops_pool;       /* the packet pool at its data limit */
	uint64_t drops_fault;      /* lost or corrupted on the link by a fault */
	uint64_t drops_tx;         /* the DPDK port did not take them */
	uint64_t pfc_sent;         /* 802.1Qbb frames sent to the endpoint (its switch
				    * paused or resumed the host port) */
};

/* What a live run measured (fabemu live; live/ fills it, run/results_live.c
 * writes it as live.*). */
struct res_live {
	double wall_s;             /* how long the paced loop ran */
	double work_s;             /* of it, turns that handled an event or moved a frame */
	double dilation;           /* live.dilation */
	uint64_t loops;            /* turns of the loop */
	uint64_t behind_max_ps;    /* the most an event was handled after its time */
	uint64_t lag_frames;       /* frames whose lag was measured */
	uint64_t lag_sum_ps;       /* their lags' sum */
	uint64_t lag_max_ps;       /* the largest */
	uint64_t lag_over[RES_LIVE_LAG_STEPS]; /* frames with lag above 1 us, 10 us, ... */
	uint64_t frames_late;      /* lag above live.late */
	struct res_live_port *ports; /* per live port, in live.ports order */
	const char **port_names;   /* "NODE:PORT" of each */
	uint32_t n_ports;          /* their count */
};
extern const struct metric_table res_metrics_live;      /* live.* (results_live.c) */
extern const struct metric_table res_metrics_live_port; /* live.ports.NAME.* */
/* The live.* metrics of a live run; nothing otherwise. 0 or -ENOMEM. */
int res_live(struct results *r, const struct fabric *f);

/* What the run's own metrics read (run/results_run.c): the fabric, and the
 * results being collected (valid, reasons, digest). */
struct res_run {
	const struct fabric *f;    /* the run */
	const struct results *r;   /* its results so far */
};

/* The run's own tables, in the order they are written among the modules'
 * (run/results_collect.c walks them all), and its summary line. */
extern const struct metric_table res_metrics_head;     /* schema_version .. topology.links */
extern const struct metric_table res_metrics_pfc;      /* pfc.enabled */
extern const struct metric_table res_metrics_deadlock; /* pfc.deadlock* */
extern const struct metric_table res_metrics_engine;   /* engine.packet_pool */
extern const struct metric_table res_metrics_prov;     /* provenance.* */
extern const struct metric_table res_metrics_wall;     /* wall_clock.* */
extern const struct metric_table res_metrics_ib_deadlock; /* credit.deadlocks (of struct fabric) */
extern const struct metric_table res_metrics_coll;      /* collectives.NAME.* (results_coll.c) */
extern const struct metric_table res_metrics_coll_data; /* collectives.NAME.data_* */
extern const struct metric_table res_metrics_train;     /* training.NAME.* (results_train.c) */
extern const struct metric_line res_line_time;         /* "simulated ..." */

/* Add every row of @t read from @stats, NAME in a row's name replaced by
 * @inst (NULL: none). 0 or -ENOMEM. */
int res_put_table(struct results *r, const struct metric_table *t, const char *inst,
		  const void *stats, const struct metric_ctx *ctx);
/* Print @l (metric_line) from the values in @r. */
void res_print_line(const struct results *r, const struct metric_line *l, FILE *out);
/* ports.csv: the names of @t's rows, and a row's values, ','-separated
 * (@lead: a ',' before the first too). */
void res_csv_header(const struct metric_table *t, bool lead, FILE *out);
void res_csv_row(const struct metric_table *t, bool lead, const void *stats,
		 const struct metric_ctx *ctx, FILE *out);
/* ports.csv's columns, in order: a table, where its stats lie in the
 * row's source (run/results_csv.c), and whether only on InfiniBand.
 * NULL-ended. */
struct res_port_cols {
	const struct metric_table *t; /* the columns */
	size_t off;                   /* offset of its stats in the row's source, bytes */
	bool ib;                      /* InfiniBand only */
};
extern const struct res_port_cols res_port_cols[];
/* Every table of summary.json, in order, into @out (at most @max);
 * returns how many (run/results_collect.c). */
uint32_t res_summary_tables(const struct metric_table **out, uint32_t max);

/* Collect every metric of a finished run of @f (also of one not yet run:
 * the names are the same). Returns 0 or -ENOMEM. */
int res_collect(struct results *r, const struct fabric *f);
/* The same, for a run stopped from outside (sim.interrupted): @stop_why
 * says by what ("SIGINT", "--max-wall 30s"); NULL when not known. */
int res_collect_run(struct results *r, const struct fabric *f, const char *stop_why);
void res_free(struct results *r);
/* Close @f, which was written: 0, or -errno when a write or the close
 * failed (a full disk, a file-size limit). */
int res_fclose(FILE *f);
/* Metric by exact name, NULL if absent. */
const struct res_metric *res_find(const struct results *r, const char *name);
/* After collection: mark the run not valid, appending @fmt to
 * invalid_reasons (an output that could not be written). */
void res_mark_invalid(struct results *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Numeric value (u64 as double); NaN for strings. */
double res_value(const struct res_metric *m);

/* Write every result file of the run of @f into @dir: flows.csv (when
 * asked for), ports.csv, pfc.csv (with PFC), then summary.json, whose
 * provenance.digest_sha256 covers those, series.csv, the captures (closed
 * before: fabric_close_outputs) and resolved.yaml when present (the rule:
 * docs/results.md, "Provenance"). Every write is checked. Returns 0, or
 * -errno with "PATH: cannot write: reason" in @err. */
int res_write_all(struct results *r, const struct fabric *f, const char *dir,
		  char err[CFG_ERR_BYTES]);

/* Write summary.json / flows.csv / ports.csv into @dir. 0 or -errno. */
int res_write_summary(struct results *r, const char *dir);
int res_write_flows(const struct fabric *f, const char *dir);
int res_write_ports(const struct fabric *f, const char *dir);
/* pfc.csv: per port and priority with PFC activity (only with PFC on). */
int res_write_pfc(const struct fabric *f, const char *dir);
/* fct_bins.csv: slowdown by size bin (run/results_bins.c). Wanted with
 * flows.csv when a workload is of kind poisson. 0 or -errno. */
bool res_fct_bins_wanted(const struct fabric *f);
int res_write_fct_bins(const struct fabric *f, const char *dir);
/* Collectives (run/results_coll.c): collectives.<workload>.* metrics,
 * collectives.csv (one row per instance, nccl-tests' columns) and their
 * table in the human summary. 0 or -errno. */
int res_collectives(struct results *r, const struct fabric *f);
int res_write_collectives(const struct fabric *f, const char *dir);
void res_print_collectives(const struct fabric *f, FILE *out);
/* Training (run/results_train.c): training.<workload>.* metrics (step
 * time, its critical path by part), training.csv (one row per step) and
 * a line per workload in the human summary. 0 or -errno. */
int res_training(struct results *r, const struct fabric *f);
/* faults.* metrics (the faults module's tables), faults.csv and a summary
 * line (results_faults.c); nothing without faults. */
int res_faults(struct results *r, const struct fabric *f);
int res_write_faults(const struct fabric *f, const char *dir);
void res_print_faults(const struct results *r, FILE *out);
int res_write_training(const struct fabric *f, const char *dir);
void res_print_training(const struct fabric *f, FILE *out);
/* InfiniBand (results_ib.c): credit.* and fecn.* metrics, ports.csv's
 * extra columns (res_port_cols) and summary lines; nothing on Ethernet. */
bool res_ib_on(const struct fabric *f);
int res_ib(struct results *r, const struct fabric *f);
/* results_uet.c: uet.* (fabric.link_layer: uet only) and its summary line. */
int res_uet(struct results *r, const struct fabric *f);
void res_print_uet(const struct results *r, const struct fabric *f, FILE *out);
void res_print_ib(const struct results *r, const struct fabric *f, FILE *out);
/* The human summary printed after a run. */
void res_print_human(const struct results *r, const struct fabric *f, FILE *out);

#endif
