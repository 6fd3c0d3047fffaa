/* The fabemu command line: sub-commands and what they share. */
#ifndef FAB_CLI_H
#define FAB_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"

struct exp;
struct results;

enum cli_exit {
	CLI_OK = 0,          /* success */
	CLI_FAIL = 1,        /* an assertion failed, or the run could not be done */
	CLI_BAD_INPUT = 2,   /* bad command line, experiment or topology */
};

enum {
	CLI_MAX_SETS = 64,
	CLI_MAX_REPEAT = 100,
	CLI_MAX_DIRS = 26,     /* compare: A..Z */
	CLI_MAX_EXPS = 64,     /* run, check: experiment files */
	CLI_MAX_SWEEPS = 8,    /* --sweep options */
	CLI_MAX_METRICS = 32,  /* --metric options */
	CLI_MAX_JOBS = 256,    /* -j */
};

/* The longest results folder path (-o, or results/<name>), bytes: the
 * files under it (capture/NODE-pPORT.pcap and the tables) must fit in
 * PATH_MAX (4096) too. */
enum { CLI_OUTDIR_MAX_BYTES = 3584 };

/* The options of every command (each reads those it takes). */
struct cli_opts {
	const char *exp_path;          /* experiment file (the first of exps for run, check) */
	const char *exps[CLI_MAX_EXPS]; /* run, check: every experiment file, in order */
	unsigned n_exps;               /* how many */
	const char *sweeps[CLI_MAX_SWEEPS]; /* --sweep key=v1,v2,... as given */
	unsigned n_sweeps;
	const char *seeds;             /* --seeds A..B or A,B,C as given, or NULL */
	const char *metric_names[CLI_MAX_METRICS]; /* --metric: sweep.csv's columns */
	unsigned n_metric_names;
	unsigned jobs;                 /* -j: runs at a time (0 = 1) */
	const char *outdir;            /* results folder, NULL = results/<name> */
	const char *junit;             /* check: JUnit XML file, or NULL */
	const char *baseline;          /* check: --baseline results folder, or NULL */
	bool skip_nightly;             /* check: --skip-nightly: files with nightly: true not run */
	const char *sets[CLI_MAX_SETS]; /* --set overrides */
	unsigned n_sets;
	bool seed_set;                 /* --seed given */
	uint64_t seed;                 /* its value */
	bool quiet;                    /* no human summary */
	const char *max_wall;          /* --max-wall as given, or NULL */
	uint64_t max_wall_ps;          /* its value: stop the run after this wall-clock time */
	bool dot;                      /* topo: Graphviz output */
	bool quick;                    /* bench: the small scenario */
	bool deep;                     /* bench: the deep-buffer variant */
	bool json;                     /* bench: one JSON object */
	unsigned repeat;               /* bench: runs (0 = 1); figures from the median */
	const char *dirs[CLI_MAX_DIRS]; /* compare, plot: results folders, in order */
	unsigned n_dirs;               /* how many */
	const char *tolerance;         /* compare: --tolerance as given, or NULL (5%) */
	const char *metrics;           /* compare: --metrics patterns as given, or NULL (all) */
	bool markdown;                 /* compare: a markdown table */
	const char *format;            /* plot: --format as given, or NULL (png) */
	int eal_argc;                  /* arguments after `--` */
	char **eal_argv;
};

/* mkdir -p @path. 0 or -errno: -ENOTDIR when @path (or a folder above
 * it) exists and is not a folder. */
int cli_mkdirs(const char *path);

int cli_run(const struct cli_opts *o, bool check);
/* Whether the JUnit report @path can be written, without leaving a file
 * behind. 0 or -errno. */
int cli_junit_probe(const char *path);
/* cli_check.c. A JUnit report of one error case (@type, @msg) for a check
 * that could not be done (nothing without @path). */
void cli_junit_error(const char *path, const char *suite, const char *type, const char *msg);
/* Every expect: metric (and of) of @e is a name of @r: 0, or -EINVAL with
 * "FILE:LINE:COL: unknown metric ..." in @msg. */
int cli_expect_names(const struct exp *e, const struct results *r, char msg[CFG_ERR_BYTES]);
/* The --baseline summary the assertions with baseline: need, into *@base
 * (NULL when none does): 0, or -EINVAL with the message in @msg. */
int cli_expect_baseline(const struct cli_opts *o, const struct exp *e, struct cfg_doc **base,
			char msg[CFG_ERR_BYTES]);
/* Evaluate @e's assertions on @r (series ones on @dir/series.csv, baseline
 * ones on @base), print them, write the JUnit report @junit: CLI_OK,
 * CLI_FAIL (an assertion failed, or the results are not valid) or
 * CLI_BAD_INPUT (the report cannot be written). */
int cli_check(const struct exp *e, const struct results *r, const struct cfg_doc *base,
	      const char *dir, const char *junit);
/* Write @s to @f with <, >, & and " escaped (for XML attributes). */
void cli_xml_escape(FILE *f, const char *s);
/* Several runs (tools/cli_sweep.c): every experiment file of @o, for
 * --sweep and --seeds every point, each a child process `fabemu run|check`
 * into its own folder, up to -j at a time, then sweep.csv and
 * sweep_summary.csv. Returns a CLI_* exit status. */
int cli_sweep(const struct cli_opts *o, bool check);
/* Whether the metrics @names (and for @check every expect: metric) exist
 * for the experiment @path with the overrides @sets and @o's seed: loads,
 * starts the EAL and builds the fabric without running or writing it; for
 * a process of its own (the EAL starts once per process). CLI_OK, or
 * CLI_BAD_INPUT / CLI_FAIL with a message on stderr. */
int cli_metrics_exist(const struct cli_opts *o, const char *path, const char *const *sets,
		      unsigned n_sets, const char *const *names, unsigned n_names, bool check);
int cli_topo(const struct cli_opts *o);
int cli_bench(const struct cli_opts *o);
int cli_compare(const struct cli_opts *o);
int cli_plot(const struct cli_opts *o);

/* The largest summary.json read, bytes: the YAML loader's own bound on a
 * file it reads whole (core/cfg.c), said before reading (docs/user-guide.md). */
#define CLI_SUMMARY_MAX_BYTES ((uint64_t)64 << 20)

/* Load the summary.json of the results folder @dir into *@doc (freed by the
 * caller, also on failure) and check that it is a summary of the schema
 * version this fabemu writes. Returns 0, or -errno with @err filled: a
 * missing folder, one without summary.json, one over CLI_SUMMARY_MAX_BYTES,
 * a malformed file (FILE:LINE:COL), not an object, another schema_version. */
int cli_summary_load(const char *dir, struct cfg_doc **doc, char err[CFG_ERR_BYTES]);
/* compare's table (tools/cli_compare.c): every leaf of each folder's summary
 * by dotted name, a row per name and a value per folder. */
struct cli_cmp;
/* Load the summaries of the @n_dirs (at most CLI_MAX_DIRS) results folders
 * @dirs and build their table into *@out, which the caller frees with
 * cli_cmp_free, also on failure. Returns 0, or -errno with @err. */
int cli_cmp_read(const char *const *dirs, unsigned n_dirs, struct cli_cmp **out,
		 char err[CFG_ERR_BYTES]);
void cli_cmp_free(struct cli_cmp *t); /* NULL is fine */
/* The node of dotted path @name (map keys, list indices) in a summary, or
 * NULL; and as a number (true/false as 1/0): 0 or -ENOENT. */
const struct cfg_node *cli_summary_get(const struct cfg_doc *doc, const char *name);
int cli_summary_number(const struct cfg_doc *doc, const char *name, double *x);

#endif
