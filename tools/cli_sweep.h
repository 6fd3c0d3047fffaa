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
};


/* One --sweep: a --set key and its values. */
struct swp_axis {
	char *key;          /* malloc'd */
	char *values[SWP_MAX_VALUES]; /* as written, malloc'd */
	unsigned n_values;
};

/* One run: an experiment file, a combination of the axes' values, a seed. */
struct swp_run {
	unsigned file;      /* index in cli_opts.exps */
	unsigned combo;     /* combination, the last axis fastest */
	unsigned seed_i;    /* index in swp_plan.seeds (0 without --seeds) */
	char *dir;          /* its results folder (malloc'd) */
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
	struct swp_run *runs;
	unsigned n_runs;
	bool multi;         /* --sweep or --seeds: point folders and the tables */
};

/* What the table writers read. */
struct swp_table_arg {
	const struct swp_plan *p;
	const struct cli_opts *o;
	unsigned file;      /* whose rows */
	bool check;
};

/* cli_sweep.c */
unsigned swp_value_of(const struct swp_plan *p, unsigned combo, unsigned k);
int swp_combo_name(const struct swp_plan *p, unsigned combo, char out[SWP_PATH_BYTES]);

/* cli_sweep_out.c: t(0.975, df); a run's status as a word; a table written
 * through @fill into @path (a temporary file renamed: never half); the
 * fillers of sweep.csv and sweep_summary.csv (@arg a struct swp_table_arg);
 * the printed table; the JUnit report. */
double swp_t975(unsigned df);
const char *swp_status_word(int status, bool check);
int swp_write_table(const char *path, void (*fill)(FILE *, const void *), const void *arg);
void swp_fill_runs(FILE *f, const void *arg);
void swp_fill_summary(FILE *f, const void *arg);
void swp_print_table(const struct cli_opts *o, bool check, const struct swp_plan *p);
int swp_junit(const struct cli_opts *o, const struct swp_plan *p);

#endif
