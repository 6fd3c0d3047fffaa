/* The options of `fabemu run` (and of check, which adds its own,
 * tools/cli_check.c): the experiment files, the results folder, the
 * sweep, -j, --max-wall, -q; and run's entry in the command table. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "units.h"

int cli_run_arg(void *opts, const char *a)
{
	struct cli_run_opts *o = opts;

	if (o->n_exps == CLI_MAX_EXPS)
		return cli_bad("at most 64 experiment files ('%s' is one too many)", a);
	o->exps[o->n_exps++] = a;
	o->exp_path = o->exps[0];
	return CLI_OK;
}

int cli_opt_max_wall(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_run_opts *o = opts;
	const char *why = NULL;

	(void)d;
	if (units_parse_time(v, &o->max_wall_ps, &why) != 0 || o->max_wall_ps == 0) {
		fprintf(stderr, "fabemu: --max-wall needs a time above 0 such as 30s or 500ms, "
				"got '%s'%s%s (see fabemu %s --help)\n",
			v, why ? ": " : "", why ? why : "", cmd);
		return CLI_BAD_INPUT;
	}
	o->max_wall = v;
	return CLI_OK;
}

static int cli_opt_sweep(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_run_opts *o = opts;

	(void)d;
	(void)cmd;
	if (o->n_sweeps == CLI_MAX_SWEEPS)
		return cli_bad("%s", "at most 8 --sweep options");
	o->sweeps[o->n_sweeps++] = v;
	return CLI_OK;
}

static int cli_opt_seeds(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_run_opts *o = opts;

	(void)d;
	(void)cmd;
	if (o->seeds)
		return cli_bad("%s", "--seeds given twice (give one range or list)");
	o->seeds = v;
	return CLI_OK;
}

static int cli_opt_metric(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_run_opts *o = opts;

	(void)d;
	(void)cmd;
	if (o->n_metric_names == CLI_MAX_METRICS)
		return cli_bad("%s", "at most 32 --metric options");
	o->metric_names[o->n_metric_names++] = v;
	return CLI_OK;
}

static int cli_opt_jobs(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_run_opts *o = opts;
	uint64_t n;

	(void)d;
	if (cli_parse_u64(v, &n) != 0 || n < 1 || n > CLI_MAX_JOBS) {
		fprintf(stderr, "fabemu: -j needs an integer 1..%d, got '%s' (see fabemu %s --help)\n",
			CLI_MAX_JOBS, v, cmd);
		return CLI_BAD_INPUT;
	}
	o->jobs = (unsigned)n;
	return CLI_OK;
}

const struct cli_optdef cli_run_out_optdefs[] = {
	{ "-o", "--output", "DIR", "results folder (default results/<name>)", cli_opt_dir,
	  offsetof(struct cli_run_opts, outdir) },
	{ NULL },
};

const struct cli_optdef cli_run_more_optdefs[] = {
	{ "--max-wall", NULL, "TIME",
	  "stop after this much wall-clock time, e.g. 30s (results not valid, exit 1)",
	  cli_opt_max_wall, 0 },
	{ "-q", "--quiet", NULL, "leave out the human summary", cli_opt_flag,
	  offsetof(struct cli_run_opts, quiet) },
	{ "--sweep", NULL, "key=v1,v2,...",
	  "run every value of a --set key (repeatable: every combination)", cli_opt_sweep, 0 },
	{ "--seeds", NULL, "A..B|A,B,...", "run every point with each of these seeds", cli_opt_seeds, 0 },
	{ "--metric", NULL, "NAME", "a sweep.csv column, a summary.json dotted name (repeatable)",
	  cli_opt_metric, 0 },
	{ "-j", "--jobs", "N", "runs at a time, 1..256 (default 1)", cli_opt_jobs, 0 },
	{ NULL },
};

static const struct cli_optdef *const cli_run_optdefs[] = {
	cli_run_out_optdefs,
	cli_sim_optdefs,
	cli_run_more_optdefs,
	NULL,
};

static int cli_run_main(const void *opts)
{
	const struct cli_run_opts *o = opts;

	if (!o->exp_path)
		return cli_bad("%s: missing the file to read", "run");
	return cli_run(o, false);
}

const struct cli_cmd cli_cmd_run = {
	.name = "run",
	.synopsis = "EXP.yaml... [options] [-- EAL args]",
	.what = "Run experiments (with --sweep/--seeds every point) and write their results folders "
		"(docs/results.md).",
	.exits = "0 done, 1 interrupted (signal, --max-wall) or a result could not be written, 2 bad input",
	.opts = cli_run_optdefs,
	.opts_bytes = sizeof(struct cli_run_opts),
	.sim = true,
	.mpi = true,
	.arg = cli_run_arg,
	.main = cli_run_main,
};
