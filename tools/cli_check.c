/* `fabemu check`'s verdicts: each assertion's bound (a value, a multiple of
 * another metric, a baseline's value, or every sample of a series), the
 * PASS/FAIL lines and the JUnit report (written through cli_junit.c), and
 * the checks of metric names and the baseline made before a run. Assertions across seeds (across_seeds) are judged here on
 * a single run, and by the sweep (cli_sweep_out.c) over a point's seeds. */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_sweep.h"
#include "fabric.h"
#include "results.h"

/* The bound of assertion @a and its slack: its value; value x the
 * measured value of its `of` metric; or its metric in the baseline's
 * summary @base (names and numbers checked before the run). */
static void cli_expect_bound(const struct exp_expect *a, const struct results *r,
			     const struct cfg_doc *base, double *bound, double *tol)
{
	*bound = a->value;
	*tol = a->tolerance;
	if (a->of[0])
		*bound = a->value * res_value(res_find(r, a->of));
	else if (a->baseline)
		cli_summary_number(base, a->metric, bound);
	if (a->of[0] || a->baseline)
		*tol = a->tol_frac * fabs(*bound);
}

static bool cli_expect_holds(const struct exp_expect *a, double m, double v, double t)
{
	if (isnan(m) || isnan(v))
		return false;
	switch (a->op) {
	case EXP_OP_LT: return m < v + t;
	case EXP_OP_LE: return m <= v + t;
	case EXP_OP_EQ: return fabs(m - v) <= t;
	case EXP_OP_NE: return fabs(m - v) > t;
	case EXP_OP_GE: return m >= v - t;
	case EXP_OP_GT: return m > v - t;
	}
	return false;
}

/* cli_sweep.h */
bool cli_across_skipped(const struct exp_expect *a)
{
	return a->across != EXP_ACROSS_NONE && getenv(SWP_RUN_ENV) != NULL;
}

static int cli_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* cli_sweep.h */
double cli_across_value(const struct exp_expect *a, double *xs, unsigned n)
{
	double sum = 0;
	unsigned rank;

	if (n == 0)
		return NAN;
	qsort(xs, n, sizeof(*xs), cli_cmp_double);
	switch (a->across) {
	case EXP_ACROSS_MEAN:
		for (unsigned i = 0; i < n; i++)
			sum += xs[i];
		return sum / n;
	case EXP_ACROSS_MIN: return xs[0];
	case EXP_ACROSS_MAX: return xs[n - 1];
	default:
		/* Nearest rank ceil(p n / 100), at least 1; the epsilon keeps an
		 * exact product (90 x 10 / 100) from rounding up a rank. */
		rank = (unsigned)ceil(a->across_pct * n / 100.0 - 1e-9);
		return xs[rank < 1 ? 0 : rank > n ? n - 1 : rank - 1];
	}
}

/* cli_sweep.h */
bool cli_across_line(const struct exp_expect *a, double m, unsigned n_runs, unsigned n_missing,
		     const char *where, char line[CLI_LINE_BYTES])
{
	bool ok = n_missing == 0 && cli_expect_holds(a, m, a->value, a->tolerance);
	char tol[48] = "", count[96];

	if (a->tolerance > 0)
		snprintf(tol, sizeof(tol), " (tolerance %.6g)", a->tolerance);
	if (n_missing)
		snprintf(count, sizeof(count), "%u of %u seeds without a number", n_missing, n_runs);
	else
		snprintf(count, sizeof(count), "%u %s", n_runs, n_runs == 1 ? "run" : "seeds");
	snprintf(line, CLI_LINE_BYTES, "%s %s across_seeds %s %s %.10g%s measured %.10g (%s)%s%.200s",
		 ok ? "PASS" : "FAIL", a->metric, a->across_name, exp_op_name(a->op), a->value, tol, m,
		 count, where && where[0] ? " at " : "", where ? where : "");
	return ok;
}

/* cli_sweep.h */
void cli_across_junit_name(FILE *jf, const struct exp_expect *a)
{
	cli_xml_escape(jf, a->metric);
	fprintf(jf, " across_seeds ");
	cli_xml_escape(jf, a->across_name);
	fputc(' ', jf);
	cli_xml_escape(jf, exp_op_name(a->op));
	fprintf(jf, " %.10g", a->value);
}

/* Every expect: metric must be a name of @r (the metrics of the fabric,
 * run or not: the names do not depend on the run). 0, or -EINVAL with
 * "FILE:LINE:COL: unknown metric ..." in @msg. */
int cli_expect_names(const struct exp *e, const struct results *r, char msg[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < e->n_expects; i++) {
		const char *names[1024];
		const char *near;
		uint32_t n = 0;

		const struct res_metric *m = res_find(r, e->expects[i].metric);

		if (m && e->expects[i].across != EXP_ACROSS_NONE && m->type == RES_STR) {
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: across_seeds: '%s' is not a number (a statistic over the seeds needs a numeric metric)",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col,
				 e->expects[i].metric);
			return -EINVAL;
		}
		if (e->expects[i].series >= 0 || (m &&
						   (!e->expects[i].of[0] || res_find(r, e->expects[i].of))))
			continue;
		for (uint32_t j = 0; j < r->n && n < 1023; j++)
			names[n++] = r->m[j].name;
		names[n] = NULL;
		{
			const char *bad = res_find(r, e->expects[i].metric) ? e->expects[i].of
									    : e->expects[i].metric;

			near = cfg_nearest(bad, names);
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: unknown metric '%s'%s%s%s (see docs/results.md)",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col,
				 bad, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		}
		return -EINVAL;
	}
	return 0;
}

/* A series assertion's measured value: over the samples of its port in
 * [after, before] of series.csv in @dir, the one that decides (the
 * largest for < and <=, the smallest for > and >=, the farthest from the
 * bound for ==, the nearest for !=); NaN when there is none. */
static double cli_series_worst(const struct exp *e, const struct exp_expect *a, double bound,
			       const char *dir)
{
	char path[4200], line[512], want[160];
	double worst = NAN;
	FILE *f;

	snprintf(path, sizeof(path), "%s/series.csv", dir);
	snprintf(want, sizeof(want), "%s:%u", e->topo->nodes[a->port.node].name, a->port.port);
	if (!(f = fopen(path, "r")))
		return NAN;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok = strtok_r(line, ",\n", &save);
		double t_ns, x = NAN;
		bool pick;

		if (!tok || !strcmp(tok, "time_ns"))
			continue;
		t_ns = strtod(tok, NULL);
		if (!(tok = strtok_r(NULL, ",\n", &save)) || strcmp(tok, want) != 0)
			continue;
		for (int c = 0; c <= a->series && (tok = strtok_r(NULL, ",\n", &save)); c++)
			if (c == a->series)
				x = strtod(tok, NULL);
		if (isnan(x) || t_ns * 1e3 < (double)a->after_ps ||
		    (a->before_ps && t_ns * 1e3 > (double)a->before_ps))
			continue;
		switch (a->op) {
		case EXP_OP_LT:
		case EXP_OP_LE: pick = !(x <= worst); break;
		case EXP_OP_GT:
		case EXP_OP_GE: pick = !(x >= worst); break;
		case EXP_OP_EQ: pick = !(fabs(x - bound) <= fabs(worst - bound)); break;
		default: pick = !(fabs(x - bound) >= fabs(worst - bound)); break;
		}
		if (pick)
			worst = x;
	}
	fclose(f);
	return worst;
}

/* The baseline the assertions with `baseline:` need: --baseline's
 * summary.json (of this schema version) into *@base, and in it a number
 * for each such metric. 0, or -EINVAL with the message in @msg (no such
 * folder, another schema, a metric it lacks, or no --baseline at all). */
int cli_expect_baseline(const struct cli_run_opts *o, const struct exp *e, struct cfg_doc **base,
			       char msg[CFG_ERR_BYTES])
{
	bool need = false;

	for (uint32_t i = 0; i < e->n_expects; i++)
		need = need || e->expects[i].baseline;
	*base = NULL;
	if (!need)
		return 0;
	for (uint32_t i = 0; !o->baseline && i < e->n_expects; i++)
		if (e->expects[i].baseline) {
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: an assertion against the baseline needs --baseline DIR (a results folder)",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col);
			return -EINVAL;
		}
	if (cli_summary_load(o->baseline, base, msg) != 0) {
		char why[CFG_ERR_BYTES];

		snprintf(why, sizeof(why), "%s", msg);
		snprintf(msg, CFG_ERR_BYTES, "--baseline: %.480s", why);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < e->n_expects; i++) {
		double x;

		if (e->expects[i].baseline && cli_summary_number(*base, e->expects[i].metric, &x) != 0) {
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: the baseline %.200s/summary.json has no number '%.95s'",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col,
				 o->baseline, e->expects[i].metric);
			cfg_doc_free(*base);
			*base = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

/* Evaluate all assertions (their names were checked before the run); a
 * run whose results are not valid fails whatever they say. */
/* Whether the run left work undone that the experiment does not expect:
 * messages incomplete or QPs failed, with no assertion on
 * messages.incomplete, messages.completed, messages.failed or
 * nic.qp_errors (an experiment that looks at them expects them), and for
 * incomplete messages alone, not cut off by the experiment's own
 * stop_time. @line gets the FAIL line. */
static bool cli_unexpected_unfinished(const struct exp *e, const struct results *r,
				      char line[CLI_LINE_BYTES])
{
	static const char *const names[] = { "messages.incomplete", "messages.completed",
					     "messages.failed", "nic.qp_errors" };
	double inc = res_value(res_find(r, "messages.incomplete"));
	double failed = res_value(res_find(r, "messages.failed"));
	double qps = res_value(res_find(r, "nic.qp_errors"));
	double cut = res_value(res_find(r, "stopped_at_stop_time"));

	if (!(inc > 0) && !(qps > 0))
		return false;
	if (!(qps > 0) && cut > 0)
		return false;
	for (uint32_t i = 0; i < e->n_expects; i++)
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strcmp(e->expects[i].metric, names[k]))
				return false;
	snprintf(line, CLI_LINE_BYTES,
		 "FAIL messages complete: %.0f did not complete (%.0f failed with their QP), %.0f QPs "
		 "failed; no assertion on messages.incomplete, messages.failed or nic.qp_errors "
		 "expects that",
		 inc, failed, qps);
	return true;
}

/* Judge the assertion @a of @e on @r (@base, @dir as cli_check): its
 * PASS/FAIL line into @line; whether it holds. */
static bool cli_expect_line(const struct exp *e, const struct exp_expect *a, const struct results *r,
			    const struct cfg_doc *base, const char *dir, char line[CLI_LINE_BYTES])
{
	char how[160] = "";
	double m, v, t;
	bool ok;

	cli_expect_bound(a, r, base, &v, &t);
	m = a->series >= 0 ? cli_series_worst(e, a, v, dir) : res_value(res_find(r, a->metric));
	ok = cli_expect_holds(a, m, v, t);
	if (a->of[0])
		snprintf(how, sizeof(how), " (%.6g x %s)", a->value, a->of);
	else if (a->baseline)
		snprintf(how, sizeof(how), " (the baseline's)");
	else if (a->series >= 0 && a->before_ps)
		snprintf(how, sizeof(how), " (every sample from %.6g to %.6g us)",
			 (double)a->after_ps / 1e6, (double)a->before_ps / 1e6);
	else if (a->series >= 0)
		snprintf(how, sizeof(how), " (every sample from %.6g us)", (double)a->after_ps / 1e6);
	snprintf(line, CLI_LINE_BYTES, "%s %s %s %.10g%s measured %.10g", ok ? "PASS" : "FAIL",
		 a->metric, exp_op_name(a->op), v, how, m);
	if (a->series >= 0 && isnan(m))
		snprintf(line, CLI_LINE_BYTES, "FAIL %s %s %.10g%s: no sample there", a->metric,
			 exp_op_name(a->op), v, how);
	if (t > 0)
		snprintf(line, CLI_LINE_BYTES, "%s %s %s %.10g%s (tolerance %.6g) measured %.10g",
			 ok ? "PASS" : "FAIL", a->metric, exp_op_name(a->op), v, how, t, m);
	if (a->across != EXP_ACROSS_NONE)
		ok = cli_across_line(a, m, 1, 0, NULL, line);
	return ok;
}

int cli_check(const struct exp *e, const struct results *r, const struct cfg_doc *base,
		     const char *dir, const char *junit)
{
	char unfinished[CLI_LINE_BYTES];
	bool undone = cli_unexpected_unfinished(e, r, unfinished);
	uint32_t failed = 0, n_fail = !r->valid + undone, n_skipped = 0;
	FILE *jf = NULL;

	for (uint32_t i = 0; i < e->n_expects; i++)
		n_skipped += cli_across_skipped(&e->expects[i]);

	if (junit && !(jf = fopen(junit, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", junit, strerror(errno));
		return CLI_BAD_INPUT;
	}
	if (jf) {
		for (uint32_t i = 0; i < e->n_expects; i++) {
			double v, t;

			if (cli_across_skipped(&e->expects[i]))
				continue;
			cli_expect_bound(&e->expects[i], r, base, &v, &t);
			n_fail += !cli_expect_holds(&e->expects[i],
						    e->expects[i].series >= 0
							    ? cli_series_worst(e, &e->expects[i], v, dir)
							    : res_value(res_find(r, e->expects[i].metric)),
						    v, t);
		}
		cli_junit_head(jf, e, r, e->n_expects - n_skipped + undone, n_fail);
	}
	for (uint32_t i = 0; i < e->n_expects; i++) {
		const struct exp_expect *a = &e->expects[i];
		char line[CLI_LINE_BYTES];
		bool ok;

		/* A sweep's run leaves an assertion across seeds to the sweep;
		 * alone, the statistic over its one run is its value. */
		if (cli_across_skipped(a))
			continue;
		ok = cli_expect_line(e, a, r, base, dir, line);
		printf("%s\n", line);
		failed += !ok;
		if (jf)
			cli_junit_case(jf, e, a, ok, line);
	}
	if (undone) {
		printf("%s\n", unfinished);
		if (jf)
			cli_junit_failed(jf, e, "messages complete", unfinished + 5);
	}
	if (!r->valid) {
		printf("FAIL results not valid: %s\n", r->reasons);
		if (jf)
			cli_junit_failed(jf, e, "results valid", r->reasons);
	}
	if (jf) {
		fprintf(jf, "</testsuite>\n");
		if ((ferror(jf) | fclose(jf)) != 0) {
			fprintf(stderr, "fabemu: %s: cannot write: %s\n", junit, strerror(errno));
			return CLI_FAIL;
		}
	}
	printf("%u passed, %u failed%s%s\n", e->n_expects - n_skipped - failed, failed,
	       undone ? "; messages incomplete" : "", r->valid ? "" : "; results not valid");
	return failed || undone || !r->valid ? CLI_FAIL : CLI_OK;
}

/* check's own options, listed after run's -o and before the rest of run's. */
static const struct cli_optdef cli_check_own_optdefs[] = {
	{ "--junit", NULL, "FILE", "also write the verdicts as a JUnit XML report", cli_opt_str,
	  offsetof(struct cli_run_opts, junit) },
	{ "--baseline", NULL, "DIR", "a results folder the assertions with baseline: compare against",
	  cli_opt_str, offsetof(struct cli_run_opts, baseline) },
	{ "--skip-nightly", NULL, NULL, "skip the files marked nightly: true (CI's quick pass)",
	  cli_opt_flag, offsetof(struct cli_run_opts, skip_nightly) },
	{ NULL },
};

static const struct cli_optdef *const cli_check_optdefs[] = {
	cli_run_out_optdefs,
	cli_check_own_optdefs,
	cli_sim_optdefs,
	cli_run_more_optdefs,
	NULL,
};

static int cli_check_main(const void *opts)
{
	const struct cli_run_opts *o = opts;

	if (!o->exp_path)
		return cli_bad("%s: missing the file to read", "check");
	return cli_run(o, true);
}

const struct cli_cmd cli_cmd_check = {
	.name = "check",
	.synopsis = "EXP.yaml... [options] [-- EAL args]",
	.what = "Run experiments (with --sweep/--seeds every point) and evaluate their expect: assertions.",
	.exits = "0 all pass, 1 an assertion failed or the results are not valid, 2 bad input",
	.opts = cli_check_optdefs,
	.opts_bytes = sizeof(struct cli_run_opts),
	.sim = true,
	.mpi = true,
	.arg = cli_run_arg,
	.main = cli_check_main,
};
