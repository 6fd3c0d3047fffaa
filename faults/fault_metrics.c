/* The faults' metrics: the totals over every link and each fault's own
 * counters (schema: docs/results.md, "Faults"), gathered from the schedule
 * (schedule.c), and the faults line of the human summary. */
#include <stddef.h>

#include "fault.h"
#include "fault_metrics.h"
#include "units.h"

void fault_totals(const struct fabric *f, struct fault_totals *out)
{
	const struct exp *e = f->exp;
	uint32_t rows, reroutes, failed;

	fabric_fault_rows(f, &rows);
	fabric_fault_totals(f, &out->c, &reroutes, &failed);
	out->count = e->n_faults;
	out->actions = rows;
	out->reroutes = reroutes;
	out->reroutes_failed = failed;
	out->random = 0;
	for (uint32_t i = 0; i < e->n_faults; i++)
		out->random += e->faults[i].random;
}

bool fault_result(const struct fabric *f, uint32_t i, struct fault_result *out)
{
	const struct exp_fault *x = &f->exp->faults[i];

	/* A failure process's draws (up to 100,000) have no keys of their own. */
	if (x->random)
		return false;
	out->kind = x->ops->kind.name;
	fabric_fault_counts(f, i, &out->c);
	return true;
}

/* faults.NAME.down_us: the time its first link was down, µs. */
static void fault_down_us(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct fault_result *x = stats;

	(void)ctx;
	v->d = units_ps_to_ns(x->c.down_ps) / 1e3;
}

#define FAULT_TOT(name, unit, fld, doc) \
	METRIC_FIELD(name, unit, METRIC_ONE, struct fault_totals, fld, doc)
#define FAULT_ONE(name, unit, fld, doc) \
	METRIC_FIELD(name, unit, METRIC_ONE, struct fault_result, fld, doc)

static const struct metric fault_total_rows[] = {
	FAULT_TOT("faults.count", "—", count, "entries of the schedule"),
	FAULT_TOT("faults.actions", "—", actions, "rows of faults.csv"),
	FAULT_TOT("faults.reroutes", "—", reroutes, "recomputations of the forwarding"),
	FAULT_TOT("faults.reroutes_failed", "—", reroutes_failed, "recomputations that failed"),
	FAULT_TOT("faults.routes_changed", "—", c.routes_changed,
		  "forwarding rows the recomputations changed"),
	FAULT_TOT("faults.frames_lost_link_down", "frames", c.lost_down,
		  "frames lost because their link was down"),
	FAULT_TOT("faults.frames_lost_random", "frames", c.lost_random,
		  "frames lost to loss faults"),
	FAULT_TOT("faults.frames_corrupted", "frames", c.corrupted,
		  "frames corrupted by corrupt faults"),
	FAULT_TOT("faults.fcs_errors", "frames", c.fcs_errors,
		  "frames dropped by a receiver's FCS check"),
	FAULT_TOT("faults.storm_xoffs", "frames", c.xoffs,
		  "XOFF frames sent by pfc-storm and slow-receiver faults"),
	FAULT_TOT("faults.random", "—", random, "entries drawn by the failure processes"),
};

static const struct metric fault_each_rows[] = {
	{ .name = "faults.NAME.kind", .unit = "—", .read = METRIC_ONE, .type = METRIC_STR,
	  .off = offsetof(struct fault_result, kind), .doc = "its kind" },
	FAULT_ONE("faults.NAME.frames_lost_link_down", "frames", c.lost_down,
		  "frames lost on its links because they were down"),
	FAULT_ONE("faults.NAME.frames_lost_random", "frames", c.lost_random,
		  "frames its loss dropped"),
	FAULT_ONE("faults.NAME.frames_corrupted", "frames", c.corrupted,
		  "frames it corrupted"),
	FAULT_ONE("faults.NAME.fcs_errors", "frames", c.fcs_errors,
		  "its corrupted frames dropped by a receiver's FCS check"),
	METRIC_FN("faults.NAME.down_us", "µs", METRIC_DBL, fault_down_us,
		  "time its (first) link was down"),
	FAULT_ONE("faults.NAME.storm_xoffs", "frames", c.xoffs, "XOFF frames it sent"),
};

const struct metric_table fault_metrics_totals = METRIC_TABLE("faults", fault_total_rows);
const struct metric_table fault_metrics_each = METRIC_TABLE("faults", fault_each_rows);

/* "faults: 2 scheduled, 4 actions, 2 reroutes (some failed); frames lost
 * ...": the clause on failed reroutes only when some did. */
const struct metric_line fault_lines[] = {
	{ .when = "faults.count", .fmt = "  faults: %.0f scheduled, %.0f actions, %.0f reroutes",
	  .arg = { "faults.count", "faults.actions", "faults.reroutes" } },
	{ .when = "faults.reroutes_failed", .fmt = " (some failed)" },
	{ .when = "faults.count",
	  .fmt = "; frames lost %.0f (link down) + %.0f (loss), %.0f corrupted (%.0f FCS drops)\n",
	  .arg = { "faults.frames_lost_link_down", "faults.frames_lost_random",
		   "faults.frames_corrupted", "faults.fcs_errors" } },
	{ .fmt = NULL },
};
