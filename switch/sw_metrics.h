/* The switch's metrics (switch/sw_metrics.c): drops.*, switch.*, ecn.*,
 * pfc.storms and fecn.marked from struct sw_stats over the switches; the
 * ports.csv columns of a switch port from struct sw_port_stats. */
#ifndef FAB_SW_METRICS_H
#define FAB_SW_METRICS_H

#include "metric.h"

extern const struct metric_table sw_metrics_drops;  /* drops.total, drops.REASON */
extern const struct metric_table sw_metrics_buffer; /* switch.buffer_peak_bytes */
extern const struct metric_table sw_metrics_ecn;    /* ecn.marked */
extern const struct metric_table sw_metrics_storms; /* pfc.storms */
extern const struct metric_table sw_metrics_fecn;   /* fecn.marked (InfiniBand) */
extern const struct metric_table sw_metrics_agg;    /* in_network.* (struct sw_agg_stats) */
extern const struct metric_table sw_metrics_uet;    /* uet.trimmed (UET) */
/* Every table above, NULL-ended: what a switch's stats fold into. */
extern const struct metric_table *const sw_metric_tables[];
/* ports.csv: drops .. ecn_marked (struct sw_port_stats; zeros at a host). */
extern const struct metric_table sw_metrics_port;
/* ports.csv, InfiniBand: fecn_marked. */
extern const struct metric_table sw_metrics_port_fecn;
extern const struct metric_line sw_line_fecn;  /* "IB CC: ..." */
extern const struct metric_line sw_line_agg;   /* "in-network: ..." */
extern const struct metric_line sw_line_drops; /* "drops: ..." */
extern const struct metric_line sw_line_ecn;   /* "ECN: ..." */

#endif
