/* Congestion control's metrics: rows of struct cc_stats, summed over every
 * QP (schema: docs/results.md, "Congestion control"). */
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

const struct metric_table cc_metrics = METRIC_TABLE("cc", cc_rows);
