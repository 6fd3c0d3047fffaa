/* Congestion control's metrics (cc/cc_metrics.c): cc.*, from struct
 * cc_stats summed over the QPs. */
#ifndef FAB_CC_METRICS_H
#define FAB_CC_METRICS_H

#include "metric.h"

extern const struct metric_table cc_metrics;

#endif
