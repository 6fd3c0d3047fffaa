/* Congestion control's metrics: rows of struct cc_stats, summed over every
 * QP (schema: docs/results.md, "Congestion control"). The NIC folds its
 * QPs' counters by this table (nic_cc_stats), so every field has a row. */
#include "cc.h"
#include "cc_metrics.h"

#define CC_SUM(name, field, doc) METRIC_FIELD(name, "—", METRIC_SUM, struct cc_stats, field, doc)

static const struct metric cc_rows[] = {
	CC_SUM("cc.rate_cuts", rate_cuts, "rate decreases"),
	CC_SUM("cc.rate_increases", rate_increases, "rate increases"),
	CC_SUM("cc.window_cuts", window_cuts, "window decreases"),
	CC_SUM("cc.window_increases", window_increases, "window increases"),
	CC_SUM("cc.timer_events", timer_events, "congestion-control timer expiries handled"),
	CC_SUM("cc.int_hops", int_hops, "INT records of echoed stacks an algorithm read"),
};

/* A counter added to struct cc_stats without its row would be neither
 * summed nor written. */
_Static_assert(sizeof(cc_rows) / sizeof(cc_rows[0]) * sizeof(uint64_t) == sizeof(struct cc_stats),
	       "every field of struct cc_stats has a row in cc_rows");

const struct metric_table cc_metrics = METRIC_TABLE("cc", cc_rows);
