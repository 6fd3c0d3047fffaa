/* The faults' metrics (faults/fault_metrics.c): faults.* totals over every
 * link and faults.NAME.* per entry of faults:, read from the schedule's
 * counters, and the faults line of the human summary. The results writer
 * (run/results_faults.c) walks these tables; nothing without faults:. */
#ifndef FAB_FAULT_METRICS_H
#define FAB_FAULT_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "faults.h"
#include "metric.h"

/* What the totals (faults.KEY) read. */
struct fault_totals {
	uint64_t count;           /* entries of the schedule */
	uint64_t actions;         /* rows of faults.csv */
	uint64_t reroutes;        /* recomputations of the forwarding */
	uint64_t reroutes_failed; /* of them, failed */
	uint64_t random;          /* entries drawn by the failure processes (failures:) */
	struct fault_counts c;    /* frames over every link, forwarding rows changed */
};

/* What one fault's rows (faults.NAME.KEY) read. */
struct fault_result {
	const char *kind;      /* its kind's name (borrowed from the registry) */
	struct fault_counts c; /* on its links and ports (fabric_fault_counts) */
};

/* The totals of the run of @f. */
void fault_totals(const struct fabric *f, struct fault_totals *out);
/* Fault @i's own results into @out; false (nothing filled) for an entry a
 * failure process drew: those are counted in the totals and faults.csv
 * only. */
bool fault_result(const struct fabric *f, uint32_t i, struct fault_result *out);

extern const struct metric_table fault_metrics_totals; /* faults.count .. faults.random */
extern const struct metric_table fault_metrics_each;   /* faults.NAME.kind .. .storm_xoffs */
/* The faults line of the human summary, in pieces printed in order (a
 * piece whose when is 0 left out); ends with a NULL fmt. */
extern const struct metric_line fault_lines[];

#endif
