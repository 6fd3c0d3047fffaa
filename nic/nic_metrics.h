/* The NIC's metrics (nic/nic_metrics.c): nic.* and bytes.delivered, from
 * struct nic_stats summed over the hosts, and the NIC's summary lines. */
#ifndef FAB_NIC_METRICS_H
#define FAB_NIC_METRICS_H

#include "metric.h"

extern const struct metric_table nic_metrics_delivered; /* bytes.delivered */
extern const struct metric_table nic_metrics_rx;        /* nic.data_packets .. nic.malformed */
extern const struct metric_table nic_metrics_recovery;  /* nic.acks_not_sent .. nic.placed_bytes */
extern const struct metric_table nic_metrics_uet;       /* uet.trimmed_received (UET) */
/* Every table above, NULL-ended: what a host's stats fold into. */
extern const struct metric_table *const nic_metric_tables[];
extern const struct metric_line nic_line_recovery;      /* "loss recovery: ..." */
extern const struct metric_line nic_line_pool;          /* "WARNING: the packet pool ran dry" */

#endif
