/* The experiment's assertions (`expect:`): a metric of summary.json, or
 * a column of series.csv over a window of samples, against a value, a
 * multiple of another metric (of) or a baseline's value (baseline); read
 * through one key table whose check says which keys go together; with
 * across_seeds the bound is on a statistic over a sweep point's seeds.
 * tools/cli_run.c evaluates them after the run. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"

static const char *const expect_ops[] = { "<", "<=", "==", "!=", ">=", ">", NULL };

const char *exp_op_name(enum exp_op op) { return expect_ops[op]; }


static int exp_expect_metric(const struct cfg_node *m, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;
	const char *metric;

	if (cfg_str(m, &metric, err) != 0)
		return -EINVAL;
	if (strlen(metric) >= sizeof(a->metric)) {
		cfg_errorf(err, m, "metric name too long");
		return -EINVAL;
	}
	strcpy(a->metric, metric);
	a->mark = m->mark;
	return 0;
}

static int exp_expect_op(const struct cfg_node *o, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;
	int op;

	if (cfg_enum(o, expect_ops, &op, err) != 0)
		return -EINVAL;
	a->op = (enum exp_op)op;
	return 0;
}

/* Absolute, or "N%" of |value| (read before). */
static int exp_expect_tolerance(const struct cfg_node *t, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;

	if (t->type == CFG_SCALAR && t->str[0] && t->str[strlen(t->str) - 1] == '%') {
		double frac;

		if (cfg_fraction(t, 0, 10, &frac, err) != 0)
			return -EINVAL;
		a->tol_frac = frac; /* of, baseline: of the bound, at check time */
		a->tolerance = frac * (a->value < 0 ? -a->value : a->value);
		return 0;
	}
	return exp_expect_qty(t, 0, &a->tolerance, &a->tol_dim, err);
}

/* A number, or a quantity with a unit (converted by exp_expect_units). */
static int exp_expect_value(const struct cfg_node *v, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;

	return exp_expect_qty(v, -1e300, &a->value, &a->value_dim, err);
}

const char *const exp_series_columns[] = {
	"queue_bytes", "tx_bytes", "paused_tc_mask", "paused_prio_mask", "switch_buffer_bytes", NULL,
};

/* series: a column of series.csv; the assertion holds for every sample. */
static int exp_expect_series(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;

	return cfg_enum(n, exp_series_columns, &a->series, err);
}

/* port: a sampled port (outputs.series.ports). */
static int exp_expect_port(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;
	const struct exp *e = a->e;

	if (exp_port_ref(e, n, &a->port, err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < e->n_series; i++)
		if (e->series[i].node == a->port.node && e->series[i].port == a->port.port)
			return 0;
	cfg_errorf(err, n, "%s is not sampled: a series assertion needs its port in outputs.series.ports", n->str);
	return -EINVAL;
}

/* of: another metric; the bound is value x its measured value. */
static int exp_expect_of(const struct cfg_node *m, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;
	const char *metric;

	if (cfg_str(m, &metric, err) != 0)
		return -EINVAL;
	if (!metric[0] || strlen(metric) >= sizeof(a->of)) {
		cfg_errorf(err, m, "of: a metric name (1..%zu characters)", sizeof(a->of) - 1);
		return -EINVAL;
	}
	strcpy(a->of, metric);
	return 0;
}

/* baseline: N%: the bound is this metric in the --baseline results folder,
 * N% of it the slack. */
static int exp_expect_baseline(const struct cfg_node *b, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;

	if (b->type != CFG_SCALAR || !b->str[0] || b->str[strlen(b->str) - 1] != '%') {
		cfg_errorf(err, b, "baseline: the slack as a percentage of the baseline's value, e.g. 5%%");
		return -EINVAL;
	}
	if (cfg_fraction(b, 0, 10, &a->tol_frac, err) != 0)
		return -EINVAL;
	a->baseline = true;
	return 0;
}

/* across_seeds: mean, min, max, median (p50) or pN, N in (0, 100]: the
 * statistic over the seeds of a sweep point (nearest rank, as
 * docs/results.md defines percentiles) that the bound applies to. */
static int exp_expect_across(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "mean", "min", "max", "median", NULL };
	static const enum exp_across kinds[] = { EXP_ACROSS_MEAN, EXP_ACROSS_MIN, EXP_ACROSS_MAX,
						  EXP_ACROSS_PCT };
	struct exp_expect *a = params;
	const char *s;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i])) {
			a->across = kinds[i];
			a->across_pct = 50;
			snprintf(a->across_name, sizeof(a->across_name), "%s", s);
			return 0;
		}
	if (s[0] == 'p' && s[1] >= '0' && s[1] <= '9' && strlen(s) < sizeof(a->across_name)) {
		char *end;
		double pct = strtod(s + 1, &end);

		if (!*end && pct > 0 && pct <= 100) {
			a->across = EXP_ACROSS_PCT;
			a->across_pct = pct;
			snprintf(a->across_name, sizeof(a->across_name), "%s", s);
			return 0;
		}
	}
	cfg_errorf(err, n, "across_seeds: unknown statistic '%s' (mean, median, min, max, or pN with N in (0, 100]: p90, p99.9)", s);
	return -EINVAL;
}

/* value is needed unless the bound comes from the baseline (then it may
 * not be given); of and baseline exclude each other, and a baseline's
 * slack is its own. */
static int exp_expect_check(const struct cfg_node *it, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_expect *a = params;
	const struct cfg_node *v = cfg_get(it, "value"), *t = cfg_get(it, "tolerance");

	if (!cfg_get(it, "metric") == (a->series < 0)) {
		cfg_errorf(err, it, "an assertion names a 'metric' or a 'series', one of the two");
		return -EINVAL;
	}
	if (a->series >= 0) {
		if (!cfg_get(it, "port")) {
			cfg_errorf(err, it, "a series assertion needs 'port' (one of outputs.series.ports)");
			return -EINVAL;
		}
		if (a->baseline || a->of[0]) {
			const char *k = a->baseline ? "baseline" : "of";

			cfg_errorf(err, cfg_get(it, k), "a series assertion takes no '%s'", k);
			return -EINVAL;
		}
		/* before_ps 0 stands for "absent: the end" (tools/cli_check.c):
		 * a `before: 0ns` written would silently become the whole run,
		 * so it is refused (a window ending at 0 holds one sample). */
		if (cfg_get(it, "before") && !a->before_ps) {
			cfg_errorf(err, cfg_get(it, "before"),
				   "before must be above 0 (absent: the end of the run)");
			return -EINVAL;
		}
		if (a->before_ps && a->before_ps < a->after_ps) {
			cfg_errorf(err, cfg_get(it, "before"), "before is earlier than after");
			return -EINVAL;
		}
		/* Its name in reports: series.COLUMN@NODE:PORT. */
		snprintf(a->metric, sizeof(a->metric), "series.%s@%.40s:%u", exp_series_columns[a->series],
			 a->e->topo->nodes[a->port.node].name, a->port.port);
		a->mark = it->mark;
	} else if (cfg_get(it, "port") || cfg_get(it, "after") || cfg_get(it, "before")) {
		cfg_errorf(err, it, "port, after and before belong to a series assertion");
		return -EINVAL;
	}
	if (a->across != EXP_ACROSS_NONE && (a->series >= 0 || a->of[0] || a->baseline)) {
		const char *k = a->series >= 0 ? "series" : a->of[0] ? "of" : "baseline";

		cfg_errorf(err, cfg_get(it, "across_seeds"), "across_seeds bounds a metric of summary.json by a value: it takes no '%s'", k);
		return -EINVAL;
	}
	if (a->baseline && (v || a->of[0] || (t && !t->dflt))) {
		cfg_errorf(err, cfg_get(it, "baseline"), "an assertion against the baseline takes no value, of or tolerance (baseline: N%% is its slack)");
		return -EINVAL;
	}
	if (!a->baseline && !v) {
		cfg_errorf(err, it, "missing key 'value' (the expected number; or baseline: N%%)");
		return -EINVAL;
	}
	return exp_expect_units(a, it, err);
}

static const struct cfg_key exp_expect_keys[] = {
	{ "metric", CFG_KEY_CUSTOM, NULL, .read = exp_expect_metric,
	  .doc = "a summary.json path or flows.<column>.<stat> (or series)" },
	{ "series", CFG_KEY_CUSTOM, NULL, .read = exp_expect_series,
	  .doc = "instead of metric: a column of series.csv, every sample of port in [after, before]" },
	{ "port", CFG_KEY_CUSTOM, NULL, .read = exp_expect_port,
	  .doc = "series: the sampled port, node:port" },
	{ "after", CFG_KEY_TIME, NULL, .off = offsetof(struct exp_expect, after_ps),
	  .doc = "series: from this time (default 0)" },
	{ "before", CFG_KEY_TIME, NULL, .off = offsetof(struct exp_expect, before_ps),
	  .doc = "series: to this time (default: the end)" },
	{ "op", CFG_KEY_CUSTOM, .required = "one of <, <=, ==, !=, >=, >", .read = exp_expect_op,
	  .doc = "<, <=, ==, !=, >=, >" },
	{ "value", CFG_KEY_CUSTOM, NULL, .read = exp_expect_value,
	  .doc = "the expected value, a number or with a unit (with of: a factor); required but with baseline" },
	{ "of", CFG_KEY_CUSTOM, NULL, .read = exp_expect_of,
	  .doc = "another metric: the bound is value x its measured value" },
	{ "baseline", CFG_KEY_CUSTOM, NULL, .read = exp_expect_baseline,
	  .doc = "N%: the bound is this metric in the --baseline folder, N% of it the slack" },
	{ "across_seeds", CFG_KEY_CUSTOM, NULL, .read = exp_expect_across,
	  .doc = "mean, median, min, max or pN: the bound holds for this statistic over a point's seeds" },
	{ "tolerance", CFG_KEY_CUSTOM, "0", .read = exp_expect_tolerance,
	  .doc = "slack: absolute (a number or with a unit), or N% of |value|" },
};

static const struct cfg_table exp_expect_tbl = {
	.section = "expect",
	.keys = exp_expect_keys,
	.n_keys = sizeof(exp_expect_keys) / sizeof(exp_expect_keys[0]),
	.check = exp_expect_check,
};

int exp_expects_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	if (cfg_want(x, CFG_SEQ, "expect (a list of assertions)", err) != 0)
		return -EINVAL;
	e->expects = calloc(x->n ? x->n : 1, sizeof(*e->expects));
	if (!e->expects)
		return -ENOMEM;
	for (uint32_t i = 0; i < x->n; i++) {
		struct cfg_bind b = { &exp_expect_tbl, &e->expects[i] };
		int r;

		e->expects[i].series = -1;
		e->expects[i].e = e;
		if ((r = cfg_schema_read(e->doc, x->items[i], "assertion", &b, 1, err)) != 0)
			return r;
		e->expects[i].e = NULL;
		e->n_expects++;
	}
	return 0;
}

const struct cfg_table *exp_expect_table(void)
{
	return &exp_expect_tbl;
}
