/* Private to the sweep runner (cli_sweep.c plans and runs the points,
 * cli_sweep_out.c writes and prints what they gave). */
#ifndef FAB_CLI_SWEEP_H
#define FAB_CLI_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cfg.h"
#include "cli.h"

enum {
	SWP_MAX_VALUES = 256,   /* values of one --sweep */
	SWP_MAX_SEEDS = 1000,   /* --seeds */
	SWP_MAX_RUNS = 10000,   /* runs of all files together */
	SWP_NAME_MAX_BYTES = 255, /* a folder name (NAME_MAX) */
	SWP_PATH_BYTES = 4096,
	SWP_NOT_RUN = -1000,    /* swp_run.status before its end */
	SWP_CELL_BYTES = 128,   /* a metric's text in a table */
	CLI_LINE_BYTES = 768,   /* a verdict line */
};

/* Set in the environment of a sweep's runs: `fabemu check` then leaves
 * the assertions across seeds to the sweep, which judges them per point. */
#define SWP_RUN_ENV "FABEMU_SWEEP_RUN"
/* Also set for a sweep's check runs, for their JUnit report: the run's
 * point ("key=value,...,seed=N", the values as given) that names its
 * suite and cases, and its results folder as the sweep's table shows it
 * (relative to -o). */
#define SWP_POINT_ENV "FABEMU_SWEEP_POINT"
#define SWP_FOLDER_ENV "FABEMU_SWEEP_FOLDER"

struct exp;
struct exp_expect;

/* The verdict of one assertion across seeds at one point. */
struct swp_verdict {
	unsigned file;      /* index in cli_run_opts.exps */
	unsigned combo;     /* the point */
	bool ok;            /* it held */
	char name[256];     /* the JUnit test case's name */
	char line[CLI_LINE_BYTES]; /* PASS/FAIL ... as printed */
	char rel_line[CLI_LINE_BYTES]; /* the same, the point's folder relative to -o (JUnit) */
};


/* One --sweep: a --set key and its values. */
struct swp_axis {
	char *key;          /* malloc'd */
	char *values[SWP_MAX_VALUES]; /* as written (less a label), malloc'd */
	char *labels[SWP_MAX_VALUES]; /* LABEL of a value written LABEL:VALUE (its folder
				       * name), malloc'd, or NULL */
	unsigned n_values;
};

/* One run: an experiment file, a combination of the axes' values, a seed. */
struct swp_run {
	unsigned file;      /* index in cli_run_opts.exps */
	unsigned combo;     /* combination, the last axis fastest */
	unsigned seed_i;    /* index in swp_plan.seeds (0 without --seeds) */
	uint64_t seed;      /* its seed: --seeds', else the file's (or --seed) */
	char *dir;          /* its results folder (malloc'd) */
	char *wdir;         /* where this process runs it, when not in dir: under MPI, a
			     * process but 0 runs its share in a private folder and sends
			     * it to process 0 (cli_mpi.h) (malloc'd), or NULL */
	bool away;          /* run by another MPI process (cli_mpi.h) */
	pid_t pid;          /* while it runs */
	int status;         /* exit status, 128 + signal, or SWP_NOT_RUN */
	struct cfg_doc *doc; /* its summary.json once read, or NULL */
};

/* Everything to do, parsed and checked before anything is written. */
struct swp_plan {
	struct swp_axis axes[CLI_MAX_SWEEPS];
	unsigned n_axes;
	uint64_t seeds[SWP_MAX_SEEDS]; /* --seeds, in order */
	unsigned n_seeds;   /* 0 without --seeds: the file's seed (or --seed) */
	unsigned n_combos;  /* product of the axes' value counts (1 without) */
	const char *metrics[CLI_MAX_METRICS];
	unsigned n_metrics;
	char *bases[CLI_MAX_EXPS];  /* each file's folder (malloc'd) */
	char *names[CLI_MAX_EXPS];  /* each file's experiment name (malloc'd) */
	uint64_t *point_seeds;      /* each file's seed at each point, file-major (malloc'd) */
	struct swp_run *runs;
	unsigned n_runs;
	bool multi;         /* --sweep or --seeds: point folders and the tables */
	struct swp_verdict *verdicts; /* check: the assertions across seeds (malloc'd) */
	unsigned n_verdicts;
	char junit_dir[SWP_PATH_BYTES]; /* check --junit: the runs' own reports' folder, or "" */
};

/* What the table writers read. */
struct swp_table_arg {
	const struct swp_plan *p;
	const struct cli_run_opts *o;
	unsigned file;      /* whose rows */
	bool check;
};

/* cli_check.c: whether this process leaves assertion @a to its sweep (it
 * is across seeds and this is a sweep's run); the statistic of @a over
 * the @n values @xs (sorted in place; NaN for none); the verdict line of
 * @a on statistic @m of @n_runs runs, @n_missing of them without a number
 * (then it fails), @where the point or NULL, whether it holds; the JUnit
 * name of @a, escaped, into @jf. */
bool cli_across_skipped(const struct exp_expect *a);
double cli_across_value(const struct exp_expect *a, double *xs, unsigned n);
bool cli_across_line(const struct exp_expect *a, double m, unsigned n_runs, unsigned n_missing,
		     const char *where, char line[CLI_LINE_BYTES]);
void cli_across_junit_name(FILE *jf, const struct exp_expect *a);

/* cli_sweep.c: the value index of axis @k at point @combo; the point's
 * folder name; file @file loaded at point @combo of @p (its --set values
 * in @sets, freed again here) with the point's first seed, exp_load's
 * result. */
unsigned swp_value_of(const struct swp_plan *p, unsigned combo, unsigned k);
int swp_combo_name(const struct swp_plan *p, unsigned combo, char out[SWP_PATH_BYTES]);
int swp_load(const struct cli_run_opts *o, const struct swp_plan *p, unsigned file,
	     unsigned combo, const char *sets[CLI_MAX_SETS], struct exp **e,
	     char err[CFG_ERR_BYTES]);

/* cli_sweep_out.c: t(0.975, df); a run's status as a word; a table written
 * through @fill into @path (a temporary file renamed: never half); the
 * fillers of sweep.csv and sweep_summary.csv (@arg a struct swp_table_arg);
 * the printed table. */
double swp_t975(unsigned df);
const char *swp_status_word(int status, bool check);
int swp_write_table(const char *path, void (*fill)(FILE *, const void *), const void *arg);
void swp_fill_runs(FILE *f, const void *arg);
void swp_fill_summary(FILE *f, const void *arg);
void swp_print_table(const struct cli_run_opts *o, bool check, const struct swp_plan *p);
/* How the table (and the JUnit report) names run @r's folder: relative to
 * the file's sweep folder (several files: to -o or results/). */
const char *swp_shown(const struct cli_run_opts *o, const struct swp_plan *p,
		      const struct swp_run *r);
/* Judge every assertion across seeds of every point over its runs'
 * summaries into p->verdicts and print their lines; how many failed, or
 * -errno (the message on stderr). */
int swp_across(const struct cli_run_opts *o, struct swp_plan *p);
/* After the runs (@stopped: the sweep was asked to stop): their
 * summaries read, the tables written and printed, for check the
 * assertions across seeds and the JUnit report; the exit status. */
int swp_finish(const struct cli_run_opts *o, bool check, struct swp_plan *p, bool stopped);
/* cli_junit.c: the label of point @combo ("key=value,...", then
 * ",seed=@seed" unless @seed is NULL or empty) into @out; the sweep's
 * JUnit report into o->junit: a <testsuites> of each run's own suite (the
 * report its check wrote into p->junit_dir; an error suite for a run that
 * left none) and after each point's runs a suite of its assertions
 * across seeds; 0 or -errno (said on stderr); the runs' reports and
 * their folder removed. */
void swp_point_label(const struct swp_plan *p, unsigned combo, const char *seed, char *out,
		     size_t cap);
int swp_junit(const struct cli_run_opts *o, const struct swp_plan *p);
void swp_junit_cleanup(const struct swp_plan *p);

/* The folders: each file's (held for the sweep in @locks, its old tables
 * removed), then each run's. CLI_OK or CLI_BAD_INPUT (said on stderr). */
int swp_folders(const struct swp_plan *p, unsigned n_exps, int *locks, unsigned *n_locks);

#endif
