/* The fabemu command line: sub-commands and what they share. */
#ifndef FAB_CLI_H
#define FAB_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"

struct exp;
struct exp_expect;
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

/* The fabemu command line is a table of commands (tools/main.c), each
 * defined in its own file with its own options table and options struct;
 * tools/cli_opts.c reads a command line against them. */
struct cli_optdef;

/* Store one option of a command: @opts is the command's options struct,
 * @v the option's value (NULL for one without), @cmd the command's name.
 * CLI_OK, or CLI_BAD_INPUT with the reason on stderr. */
typedef int cli_opt_set_fn(const struct cli_optdef *d, void *opts, const char *v, const char *cmd);

/* One option of a command. A table of them ends with a row whose name is
 * NULL. */
struct cli_optdef {
	const char *name;     /* long or short spelling */
	const char *alt;      /* the other spelling, or NULL */
	const char *arg;      /* its value's name, or NULL: takes none */
	const char *help;     /* one line for COMMAND --help */
	cli_opt_set_fn *set;  /* stores it */
	size_t off;           /* for the generic setters: where, in bytes into the options struct */
};

/* One command. */
struct cli_cmd {
	const char *name;     /* as typed: run, check, ... */
	const char *synopsis; /* its arguments, for COMMAND --help */
	const char *what;     /* one line on what it does */
	const char *exits;    /* its exit statuses */
	const struct cli_optdef *const *opts; /* its option tables in help order, NULL-terminated */
	size_t opts_bytes;    /* the size of its options struct (zeroed before reading) */
	bool sim;             /* takes EAL args after `--`: its options struct begins with
			       * struct cli_sim_opts */
	bool mpi;             /* under MPI every process runs it (it shares its runs out,
			       * cli_mpi.h); else process 0 alone */
	/* A positional argument @a: CLI_OK, or CLI_BAD_INPUT having said why.
	 * NULL: the command takes none. */
	int (*arg)(void *opts, const char *a);
	/* Run the command with its options read: a CLI_* exit status. */
	int (*main)(const void *opts);
};

extern const struct cli_cmd cli_cmd_run;
extern const struct cli_cmd cli_cmd_check;
extern const struct cli_cmd cli_cmd_topo;
extern const struct cli_cmd cli_cmd_bench;
extern const struct cli_cmd cli_cmd_compare;
extern const struct cli_cmd cli_cmd_plot;
extern const struct cli_cmd cli_cmd_live;

/* What every simulation command (run, check, bench) takes: the overrides
 * of the experiment and the EAL args. The FIRST member of such a command's
 * options struct, where the setters of cli_sim_optdefs find it. */
struct cli_sim_opts {
	const char *sets[CLI_MAX_SETS]; /* --set overrides */
	unsigned n_sets;
	bool seed_set;                 /* --seed given */
	uint64_t seed;                 /* its value */
	int eal_argc;                  /* arguments after `--` */
	char **eal_argv;
	uint32_t threads;              /* --threads N, 0: not given or auto */
	bool threads_auto;             /* --threads auto */
	uint32_t partitions;           /* --partitions, 0: not given */
};

/* The cores this process may keep busy, at least 1: its CPU affinity,
 * or fewer where its cgroup's CPU bandwidth limit (cgroup v2's cpu.max,
 * v1's cpu.cfs_quota_us, on the way up to the root) allows fewer
 * (tools/cli_cores.c). */
uint32_t cli_cores(void);

/* Set @e->threads (and threads_auto) for a run of @e: --threads N or
 * auto, else FABEMU_THREADS (N or auto), else auto where @dflt_auto, 1
 * otherwise. Auto is fabric_par_auto over the cores this process may
 * run on. CLI_OK, or CLI_BAD_INPUT with @msg (FABEMU_THREADS malformed). */
int cli_threads_pick(const struct cli_sim_opts *s, struct exp *e, bool outputs, bool dflt_auto,
		     char msg[CFG_ERR_BYTES]);

/* --seed and --set (tools/cli_opts.c). */
extern const struct cli_optdef cli_sim_optdefs[];

/* The options of run and check (the last three, check's own, stay unset
 * for run: its table has no row for them). */
struct cli_run_opts {
	struct cli_sim_opts sim;       /* first: --seed, --set, EAL args */
	const char *exp_path;          /* the first of exps */
	const char *exps[CLI_MAX_EXPS]; /* every experiment file, in order */
	unsigned n_exps;               /* how many */
	const char *sweeps[CLI_MAX_SWEEPS]; /* --sweep key=v1,v2,... as given */
	unsigned n_sweeps;
	const char *seeds;             /* --seeds A..B or A,B,C as given, or NULL */
	const char *metric_names[CLI_MAX_METRICS]; /* --metric: sweep.csv's columns */
	unsigned n_metric_names;
	unsigned jobs;                 /* -j: runs at a time (0 = 1) */
	const char *outdir;            /* results folder, NULL = results/<name> */
	bool quiet;                    /* no human summary */
	const char *max_wall;          /* --max-wall as given, or NULL */
	uint64_t max_wall_ps;          /* its value: stop the run after this wall-clock time */
	const char *junit;             /* check: JUnit XML file, or NULL */
	const char *baseline;          /* check: --baseline results folder, or NULL */
	bool skip_nightly;             /* check: --skip-nightly: files with nightly: true not run */
	bool live;                     /* fabemu live: the experiment's live ports bound to
					* DPDK ports, the run paced by the wall clock */
	bool live_check;               /* fabemu live --check: its expect: evaluated */
};

_Static_assert(offsetof(struct cli_run_opts, sim) == 0, "run's sim options come first");

/* The EAL's arguments of a run of @e, into *@argv (malloc'd, *@argc of
 * them): the `--` ones, and with @o->live the live ports' devices, once
 * the ports are checked (live/live.h, live_preflight). Without live, an
 * experiment with live ports is refused. CLI_OK, or CLI_BAD_INPUT or
 * CLI_FAIL with @msg (tools/cli_live.c). */
int cli_live_engine(const struct cli_run_opts *o, struct exp *e, int *argc, char ***argv,
		    char msg[CFG_ERR_BYTES + 64]);
/* What cli_live_engine made, freed and removed (NULL @argv: nothing was). */
void cli_live_end(const struct cli_run_opts *o, const struct exp *e, int argc, char **argv);
/* Stopping a run from outside (tools/cli_stop.c): the signals that would
 * end the process, caught (cli_arm_stop, then cli_arm_xfsz after the set-up,
 * undone by cli_disarm_stop once the run is over), with --max-wall's timer;
 * the flag the simulation polls (non-zero: the signal that asked), and
 * what it was for invalid_reasons (@buf: room for --max-wall's; NULL: none
 * came). */
int cli_arm_stop(const struct cli_run_opts *o);
int cli_arm_xfsz(void);
void cli_disarm_stop(void);
const volatile sig_atomic_t *cli_stop_flag(void);
const char *cli_stop_why(const struct cli_run_opts *o, char buf[64]);

/* --max-wall's setter (tools/cli_run_opts.c). */
int cli_opt_max_wall(const struct cli_optdef *d, void *opts, const char *v, const char *cmd);

/* run's -o and the rest of its own options (tools/cli_run_opts.c), which
 * check's table lists around its own. */
extern const struct cli_optdef cli_run_out_optdefs[];
extern const struct cli_optdef cli_run_more_optdefs[];
/* A positional argument of run and check: an experiment file. */
int cli_run_arg(void *opts, const char *a);

/* The options of topo. */
struct cli_topo_opts {
	const char *exp_path;          /* the topology or experiment file */
	bool dot;                      /* Graphviz output */
};

/* The options of bench. */
struct cli_bench_opts {
	struct cli_sim_opts sim;       /* first: --seed, --set, EAL args */
	bool quick;                    /* the small scenario */
	bool deep;                     /* the deep-buffer variant */
	bool ai;                       /* the AI-scale scenario (bench_ai) */
	bool json;                     /* one JSON object */
	unsigned repeat;               /* runs (0 = 1); figures from the median */
};

_Static_assert(offsetof(struct cli_bench_opts, sim) == 0, "bench's sim options come first");

/* The options of compare. */
struct cli_compare_opts {
	const char *dirs[CLI_MAX_DIRS]; /* results folders, in order */
	unsigned n_dirs;               /* how many */
	const char *tolerance;         /* --tolerance as given, or NULL (5%) */
	const char *metrics;           /* --metrics patterns as given, or NULL (all) */
	bool markdown;                 /* a markdown table */
};

/* The options of plot. */
struct cli_plot_opts {
	const char *dirs[CLI_MAX_DIRS]; /* results folders (several: drawn together) */
	unsigned n_dirs;               /* how many */
	const char *outdir;            /* -o: where the pictures go, or NULL */
	const char *format;            /* --format as given, or NULL (png) */
};

/* Read @argv[2..@argc) for the command @c into @opts (zeroed, of
 * @c->opts_bytes): options, values, positional arguments, EAL args after
 * `--`. An option of another of the commands @all (NULL-terminated) is
 * refused as one @c does not take. CLI_OK, or CLI_BAD_INPUT with the
 * reason on stderr. */
int cli_parse(const struct cli_cmd *c, const struct cli_cmd *const *all, int argc, char **argv,
	      void *opts);
/* Print COMMAND --help for @c. CLI_OK. */
int cli_cmd_help(const struct cli_cmd *c);
/* "fabemu: " @fmt with @arg " (see fabemu --help)" on stderr: CLI_BAD_INPUT. */
int cli_bad(const char *fmt, const char *arg);
/* A decimal integer of @s, no sign: 0 or -EINVAL. */
int cli_parse_u64(const char *s, uint64_t *out);
/* Generic setters: a string (cli_opt_str), a string that must not be
 * empty (cli_opt_dir, for -o) and a flag (cli_opt_flag), at @d->off. */
cli_opt_set_fn cli_opt_str;
cli_opt_set_fn cli_opt_dir;
cli_opt_set_fn cli_opt_flag;
/* A positional results folder of compare and plot into @dirs (@n so far). */
int cli_arg_dir(const char **dirs, unsigned *n, const char *a);

/* mkdir -p @path. 0 or -errno: -ENOTDIR when @path (or a folder above
 * it) exists and is not a folder. */
int cli_mkdirs(const char *path);

int cli_run(const struct cli_run_opts *o, bool check);
/* tools/cli_junit.c. Whether the JUnit report @path can be written,
 * without leaving a file behind: 0 or -errno. */
int cli_junit_probe(const char *path);
/* A JUnit report of one error case (@type, @msg) for a check that could
 * not be done (nothing without @path), the suite named @suite (made
 * relative: cli_rel_name). */
void cli_junit_error(const char *path, const char *suite, const char *type, const char *msg);
/* One run's report, written by cli_check: the suite's head (the counts,
 * time, timestamp and properties: experiment, seed, version, commit,
 * validity, each --set, and in a sweep's run its point and folder); the
 * case of assertion @a judged @ok with its PASS/FAIL @line; a failed case
 * @name with @msg. In a sweep's run every name ends with " [POINT]". */
void cli_junit_head(FILE *jf, const struct exp *e, const struct results *r, uint32_t n_tests,
		    uint32_t n_fail);
void cli_junit_case(FILE *jf, const struct exp *e, const struct exp_expect *a, bool ok,
		    const char *line);
void cli_junit_failed(FILE *jf, const struct exp *e, const char *name, const char *msg);
/* @path as a report names it: as given when relative; absolute, relative
 * to the working directory when under it, else its last component. Into
 * @out (@cap bytes), which it returns. */
const char *cli_rel_name(const char *path, char *out, size_t cap);
/* Every expect: metric (and of) of @e is a name of @r: 0, or -EINVAL with
 * "FILE:LINE:COL: unknown metric ..." in @msg. */
int cli_expect_names(const struct exp *e, const struct results *r, char msg[CFG_ERR_BYTES]);
/* The --baseline summary the assertions with baseline: need, into *@base
 * (NULL when none does): 0, or -EINVAL with the message in @msg. */
int cli_expect_baseline(const struct cli_run_opts *o, const struct exp *e, struct cfg_doc **base,
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
int cli_sweep(const struct cli_run_opts *o, bool check);
/* Whether the metrics @names (and for @check every expect: metric) exist
 * for the experiment @path with the overrides @sets and @o's seed: loads,
 * starts the EAL and builds the fabric without running or writing it; for
 * a process of its own (the EAL starts once per process). CLI_OK, or
 * CLI_BAD_INPUT / CLI_FAIL with a message on stderr. */
int cli_metrics_exist(const struct cli_run_opts *o, const char *path, const char *const *sets,
		      unsigned n_sets, const char *const *names, unsigned n_names, bool check);

/* The largest summary.json read, bytes: the YAML loader's own bound on a
 * file it reads whole (core/cfg_file.c), said before reading (docs/user-guide.md). */
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
