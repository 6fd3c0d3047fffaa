/* The traffic's metrics (traffic/tg_metrics.c): messages.*, bytes.*,
 * goodput, workloads.NAME.* and flows.COLUMN.STAT, from totals of the
 * messages (struct tg_totals, tg_wl_totals, tg_col_stats). */
#ifndef FAB_TG_METRICS_H
#define FAB_TG_METRICS_H

#include "metric.h"
#include "tg.h"

/* The messages of a run, together. */
struct tg_totals {
	uint64_t messages;        /* every message */
	uint64_t completed;       /* of which completed */
	uint64_t incomplete;      /* messages - completed */
	uint64_t failed;          /* of the incomplete, those whose QP failed */
	uint64_t offered;         /* bytes of all messages */
	uint64_t completed_bytes; /* bytes of the completed ones */
	uint64_t last_end_ps;     /* the last completion, ps (0: none) */
	uint64_t first_start_ps;  /* the first message's start, ps (0 with no messages) */
};

/* The messages of one workload. */
struct tg_wl_totals {
	uint64_t messages;  /* of the workload */
	uint64_t completed; /* of which completed */
	uint64_t bytes;     /* bytes of the completed ones */
	uint64_t first_ps;  /* the first start, ps (UINT64_MAX: none) */
	uint64_t last_ps;   /* the last completion, ps */
	uint64_t worst_ps;  /* the slowest completed message's FCT, ps */
};

/* Statistics of one column of flows.csv over the completed messages (NaN
 * when none, but count and sum). */
struct tg_col_stats {
	uint64_t count;                         /* completed messages */
	double min, mean, p50, p90, p95, p99, p999, max, sum; /* in the column's unit */
};

enum { TG_N_COLS = 4 };
/* The columns: fct_ns, slowdown, goodput_gbps, bytes. */
extern const char *const tg_col_names[TG_N_COLS];
/* Their units, as docs/results.md writes them ("ns", "—"). */
extern const char *const tg_col_units[TG_N_COLS];

void tg_totals(const struct tg *t, struct tg_totals *out);
void tg_wl_totals(const struct tg *t, uint16_t workload, struct tg_wl_totals *out);
/* Column @col's statistics. 0 or -ENOMEM. */
int tg_col_stats(const struct tg *t, int col, struct tg_col_stats *out);
/* A completed message's FCT in ns and goodput in Gb/s (NaN when its FCT is 0). */
double tg_flow_fct_ns(const struct tg_flow *f);
double tg_flow_goodput_gbps(const struct tg_flow *f);

extern const struct metric_table tg_metrics_msgs;      /* messages.*, bytes.offered, .completed */
extern const struct metric_table tg_metrics_goodput;   /* goodput_gbps, last_completion_ns */
extern const struct metric_table tg_metrics_workload;  /* workloads.NAME.* (struct tg_wl_totals) */
extern const struct metric_table tg_metrics_col;       /* flows.NAME.STAT (struct tg_col_stats) */
extern const struct metric_line tg_line_messages;      /* "messages: ..." */
extern const struct metric_line tg_line_fct;           /* "FCT: ..." */

#endif
