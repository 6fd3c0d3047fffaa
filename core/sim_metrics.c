/* The engine's metrics: rows of struct sim (schema: docs/results.md,
 * "Run", "Engine"). */
#include "sim.h"
#include "sim_metrics.h"
#include "units.h"

/* Observers (samplers, deadlock checks) do not extend the run. */
static void sim_time_ns(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct sim *s = stats;

	(void)ctx;
	v->d = units_ps_to_ns(s->stopped ? s->now_ps : s->last_work_ps);
}

static void sim_stopped(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	(void)ctx;
	v->u = ((const struct sim *)stats)->stopped;
}

static void sim_interrupted(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	(void)ctx;
	v->u = ((const struct sim *)stats)->interrupted;
}

static void sim_events_per_hop(const void *stats, const struct metric_ctx *ctx,
			       struct metric_val *v)
{
	const struct sim *s = stats;

	(void)ctx;
	v->d = s->n_hops ? (double)s->evq.n_pushed / (double)s->n_hops : 0;
}

#define SIM_ROW(name, unit, field, doc) \
	METRIC_FIELD(name, unit, METRIC_ONE, struct sim, field, doc)

static const struct metric sim_time_rows[] = {
	METRIC_FN("sim_time_ns", "ns", METRIC_DBL, sim_time_ns, "virtual time at the end of the run"),
	METRIC_FN("stopped_at_stop_time", "0/1", METRIC_U64, sim_stopped, "cut off by stop_time"),
	METRIC_FN("interrupted", "0/1", METRIC_U64, sim_interrupted, "stopped by a signal or --max-wall"),
	SIM_ROW("events", "—", n_events, "events handled"),
	SIM_ROW("events_scheduled", "—", evq.n_pushed, "events put on the event queue"),
	SIM_ROW("packet_hops", "—", n_hops, "frames delivered over a link"),
	METRIC_FN("events_per_hop", "—", METRIC_DBL, sim_events_per_hop,
		  "events_scheduled / packet_hops"),
};

static const struct metric sim_pool_rows[] = {
	SIM_ROW("nic.pool_exhausted", "—", n_alloc_fail,
		"data packets a NIC could not build: the pool at its data limit"),
};

static const struct metric sim_peak_rows[] = {
	SIM_ROW("engine.counters_saturated", "—", n_saturated,
		"counter updates clamped at their type's maximum"),
};

const struct metric_table sim_metrics_time = METRIC_TABLE("engine", sim_time_rows);
const struct metric_table sim_metrics_pool = METRIC_TABLE("engine", sim_pool_rows);
const struct metric_table sim_metrics_peak = METRIC_TABLE("engine", sim_peak_rows);
