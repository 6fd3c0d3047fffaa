/* The run's own metrics (run/): the experiment, the topology, validity,
 * pfc.enabled, what the deadlock monitor found, the pool's size,
 * provenance and the wall clock, read from struct res_run (the fabric and
 * the results being collected); and the run's lines of the human summary. */
#include <string.h>

#include <rte_version.h>

#include "fab_version.h"
#include "results.h"
#include "units.h"

#define RUN_GET(fn) static void fn(const void *stats, const struct metric_ctx *ctx, \
				   struct metric_val *v)
#define RF(stats) (((const struct res_run *)(stats))->f)
#define RR(stats) (((const struct res_run *)(stats))->r)
#define RUN_ROW(name, unit, ty, fn, doc) METRIC_FN(name, unit, ty, fn, doc)

/* (ctx: not used by these getters.) */
RUN_GET(res_run_schema) { (void)stats, (void)ctx; v->u = RES_SCHEMA_VERSION; }
RUN_GET(res_run_name) { (void)ctx; v->s = RF(stats)->exp->name; }
RUN_GET(res_run_seed) { (void)ctx; v->u = RF(stats)->exp->seed; }
RUN_GET(res_run_valid) { (void)ctx; v->u = RR(stats)->valid; }
RUN_GET(res_run_reasons) { (void)ctx; v->s = RR(stats)->reasons; }
RUN_GET(res_run_topo_kind) { (void)ctx; v->s = RF(stats)->topo->kind; }
RUN_GET(res_run_hosts) { (void)ctx; v->u = RF(stats)->topo->n_hosts; }
RUN_GET(res_run_switches) { (void)ctx; v->u = RF(stats)->topo->n_switches; }
RUN_GET(res_run_links) { (void)ctx; v->u = RF(stats)->topo->n_links; }
RUN_GET(res_run_pfc_on)
{
	(void)ctx;
	v->u = RF(stats)->exp->sw.pfc.lossless_prio != 0 && !res_ib_on(RF(stats));
}
RUN_GET(res_run_deadlocks) { (void)ctx; v->u = RF(stats)->deadlocks; }
RUN_GET(res_run_deadlock_at) { (void)ctx; v->d = units_ps_to_ns(RF(stats)->deadlock_ps); }
RUN_GET(res_run_deadlock_cycle) { (void)ctx; v->s = RF(stats)->deadlock_cycle; }
RUN_GET(res_run_deadlock_stop) { (void)ctx; v->u = RF(stats)->deadlock_stopped; }
RUN_GET(res_run_pool) { (void)ctx; v->u = RF(stats)->exp->engine.pool_pkts; }
RUN_GET(res_run_version) { (void)stats, (void)ctx; v->s = FAB_VERSION; }
RUN_GET(res_run_commit) { (void)stats, (void)ctx; v->s = FAB_COMMIT; }
RUN_GET(res_run_dpdk) { (void)stats, (void)ctx; v->s = rte_version(); }
RUN_GET(res_run_digest) { (void)ctx; v->s = RR(stats)->digest; }
RUN_GET(res_run_digest_files) { (void)stats, (void)ctx; v->s = ""; /* set by res_write_all */ }
RUN_GET(res_run_setup_s) { (void)ctx; v->d = RF(stats)->setup_s; }
RUN_GET(res_run_run_s) { (void)ctx; v->d = RF(stats)->wall_s; }
RUN_GET(res_run_threads) { (void)ctx; v->u = fabric_threads(RF(stats)); }
RUN_GET(res_run_parts) { (void)ctx; v->u = fabric_partitions(RF(stats)); }
RUN_GET(res_run_pkts_peak) { (void)ctx; v->u = RF(stats)->sim.pkts_peak; }
RUN_GET(res_run_msgs_peak) { (void)ctx; v->u = tg_in_flight_peak(RF(stats)->tg); }
RUN_GET(res_run_events_per_s)
{
	const struct fabric *f = RF(stats);

	(void)ctx;
	v->d = f->wall_s > 0 ? (double)f->sim.n_events / f->wall_s : 0;
}
RUN_GET(res_run_hops_per_s)
{
	const struct fabric *f = RF(stats);

	(void)ctx;
	v->d = f->wall_s > 0 ? (double)f->sim.n_hops / f->wall_s : 0;
}

static const struct metric res_run_head_rows[] = {
	RUN_ROW("schema_version", "—", METRIC_U64, res_run_schema, "2; raised when a key changes"),
	RUN_ROW("name", "string", METRIC_STR, res_run_name, "the experiment's name"),
	RUN_ROW("seed", "—", METRIC_U64, res_run_seed, "the master seed used"),
	RUN_ROW("valid", "true/false", METRIC_BOOL, res_run_valid, "no limit of the simulator bent the run"),
	RUN_ROW("invalid_reasons", "string", METRIC_STR, res_run_reasons, "why not, \"; \"-joined"),
	RUN_ROW("topology.kind", "string", METRIC_STR, res_run_topo_kind, "the topology's kind"),
	RUN_ROW("topology.hosts", "—", METRIC_U64, res_run_hosts, "hosts"),
	RUN_ROW("topology.switches", "—", METRIC_U64, res_run_switches, "switches"),
	RUN_ROW("topology.links", "—", METRIC_U64, res_run_links, "full-duplex links"),
};

static const struct metric res_run_pfc_rows[] = {
	RUN_ROW("pfc.enabled", "0/1", METRIC_U64, res_run_pfc_on, "PFC configured"),
};

static const struct metric res_run_deadlock_rows[] = {
	RUN_ROW("pfc.deadlocks", "—", METRIC_U64, res_run_deadlocks, "cyclic buffer dependencies found"),
	RUN_ROW("pfc.deadlock_at_ns", "ns", METRIC_DBL, res_run_deadlock_at, "when it was found"),
	RUN_ROW("pfc.deadlock_cycle", "text", METRIC_STR, res_run_deadlock_cycle, "its switches"),
	RUN_ROW("pfc.deadlock_stopped_run", "0/1", METRIC_U64, res_run_deadlock_stop,
		"the run was ended because of it"),
};

static const struct metric res_run_engine_rows[] = {
	RUN_ROW("engine.packet_pool", "packets", METRIC_U64, res_run_pool, "size of the packet pool"),
};

static const struct metric res_run_prov_rows[] = {
	RUN_ROW("provenance.fabemu_version", "string", METRIC_STR, res_run_version, "fabemu's version"),
	RUN_ROW("provenance.commit", "string", METRIC_STR, res_run_commit, "the commit it was built from"),
	RUN_ROW("provenance.dpdk_version", "string", METRIC_STR, res_run_dpdk, "DPDK's version"),
	RUN_ROW("provenance.digest_sha256", "string", METRIC_STR, res_run_digest,
		"SHA-256 over the result files"),
	RUN_ROW("provenance.digest_files", "string", METRIC_STR, res_run_digest_files,
		"the files the digest covers"),
};

static const struct metric res_run_wall_rows[] = {
	RUN_ROW("wall_clock.setup_s", "s", METRIC_DBL, res_run_setup_s, "wall-clock time to build"),
	RUN_ROW("wall_clock.run_s", "s", METRIC_DBL, res_run_run_s, "wall-clock time of the event loop"),
	RUN_ROW("wall_clock.events_per_s", "1/s", METRIC_DBL, res_run_events_per_s, "events / run_s"),
	RUN_ROW("wall_clock.packet_hops_per_s", "1/s", METRIC_DBL, res_run_hops_per_s,
		"packet_hops / run_s"),
	RUN_ROW("wall_clock.threads", "—", METRIC_U64, res_run_threads,
		"threads the run used (--threads)"),
	RUN_ROW("wall_clock.partitions", "—", METRIC_U64, res_run_parts,
		"partitions the run used (--partitions, else --threads)"),
	RUN_ROW("wall_clock.packets_peak", "packets", METRIC_U64, res_run_pkts_peak,
		"most packets the engine held at once"),
	RUN_ROW("wall_clock.messages_in_flight_peak", "—", METRIC_U64, res_run_msgs_peak,
		"most streamed collective messages made at once (0: none streamed)"),
};

const struct metric_table res_metrics_head = METRIC_TABLE("run", res_run_head_rows);
const struct metric_table res_metrics_pfc = METRIC_TABLE("run", res_run_pfc_rows);
const struct metric_table res_metrics_deadlock = METRIC_TABLE("run", res_run_deadlock_rows);
const struct metric_table res_metrics_engine = METRIC_TABLE("run", res_run_engine_rows);
const struct metric_table res_metrics_prov = METRIC_TABLE("run", res_run_prov_rows);
const struct metric_table res_metrics_wall = METRIC_TABLE("run", res_run_wall_rows);

const struct metric_line res_line_time = {
	.fmt = "  simulated %.3f us in %.2f s wall (set-up %.2f s): %.0f events, %.0f packet hops "
	       "(%.2f M hops/s)\n",
	.arg = { "sim_time_ns", "wall_clock.run_s", "wall_clock.setup_s", "events", "packet_hops",
		 "wall_clock.packet_hops_per_s" },
	.div = { 1e3, 0, 0, 0, 0, 1e6 },
};
