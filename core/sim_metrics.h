/* The engine's metrics (core/sim_metrics.c): virtual time, events and
 * hops of the run, and the packet pool's use, from struct sim. */
#ifndef FAB_SIM_METRICS_H
#define FAB_SIM_METRICS_H

#include "metric.h"

extern const struct metric_table sim_metrics_time;  /* sim_time_ns .. events_per_hop */
extern const struct metric_table sim_metrics_pool;  /* nic.pool_exhausted */
extern const struct metric_table sim_metrics_peak;  /* engine.packets_peak, counters_saturated */

#endif
