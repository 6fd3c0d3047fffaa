/* fabemu: entry point and argument parsing for the sub-commands
 * run, check, topo, bench, compare and plot (see docs/user-guide.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_version.h>

#include "cli.h"
#include "fab_version.h"
#include "units.h"

static const char usage[] =
	"usage: fabemu run EXP.yaml... [-o DIR] [--seed N] [--set key=value]... [--max-wall TIME] [-q]\n"
	"                              [--sweep key=v1,v2,...]... [--seeds A..B] [--metric NAME]... [-j N]\n"
	"                              [-- EAL args]\n"
	"       fabemu check EXP.yaml... [-o DIR] [--junit FILE] [--baseline DIR] [--seed N] [--set key=value]...\n"
	"                                [--max-wall TIME] [-q] [--sweep key=v1,v2,...]... [--seeds A..B]\n"
	"                                [--metric NAME]... [-j N] [--skip-nightly] [-- EAL args]\n"
	"       fabemu topo FILE.yaml [--dot]\n"
	"       fabemu bench [--quick | --deep] [--json] [--repeat N] [--seed N] [--set key=value]...\n"
	"                    [-- EAL args]\n"
	"       fabemu compare DIR_A DIR_B [DIR_C...] [--tolerance 5%] [--markdown] [--metrics GLOB,...]\n"
	"       fabemu plot DIR [-o OUTDIR] [--format png|svg]\n"
	"       fabemu --version | --help | COMMAND --help\n";

/* What each command does, for COMMAND --help. */
static const struct cli_cmddef {
	const char *name;     /* command */
	const char *synopsis; /* its arguments */
	const char *what;     /* one line on what it does */
	const char *exits;    /* its exit statuses */
} cli_cmddefs[] = {
	{ "run", "EXP.yaml... [options] [-- EAL args]",
	  "Run experiments (with --sweep/--seeds every point) and write their results folders "
	  "(docs/results.md).",
	  "0 done, 1 interrupted (signal, --max-wall) or a result could not be written, 2 bad input" },
	{ "check", "EXP.yaml... [options] [-- EAL args]",
	  "Run experiments (with --sweep/--seeds every point) and evaluate their expect: assertions.",
	  "0 all pass, 1 an assertion failed or the results are not valid, 2 bad input" },
	{ "topo", "FILE.yaml [options]",
	  "Describe a topology (counts, bisection bandwidth, oversubscription per tier).",
	  "0 done, 2 bad input" },
	{ "bench", "[options] [-- EAL args]",
	  "Measure simulation speed on a built-in scenario (docs/performance.md).",
	  "0 done, 1 the scenario did not run cleanly, 2 bad input" },
	{ "compare", "DIR_A DIR_B [DIR_C...] [options]",
	  "Compare the numeric metrics of results folders (summary.json), each against DIR_A.",
	  "0 no metric moved beyond the tolerance, 1 some did (or the table could not be written), "
	  "2 bad input" },
	{ "plot", "DIR [options]",
	  "Draw a results folder with gnuplot: FCT slowdown and CDF, queues, PFC pauses.",
	  "0 done (plots without data are skipped, with a line saying why), "
	  "1 gnuplot missing or failed, or a file could not be written, 2 bad input" },
};

/* Which commands take an option, and whether it has a value. */
struct cli_optdef {
	const char *name;     /* long or short spelling */
	const char *alt;      /* the other spelling, or NULL */
	const char *cmds;     /* commands that take it, space separated */
	const char *arg;      /* its value's name, or NULL: takes none */
	const char *help;     /* one line for COMMAND --help */
};

static const struct cli_optdef cli_optdefs[] = {
	{ "-o", "--output", "run check", "DIR", "results folder (default results/<name>)" },
	{ "-o", "--output", "plot", "OUTDIR", "where the pictures go (default plots/<DIR's name>)" },
	{ "--format", NULL, "plot", "png|svg", "image format (default png)" },
	{ "--junit", NULL, "check", "FILE", "also write the verdicts as a JUnit XML report" },
	{ "--baseline", NULL, "check", "DIR", "a results folder the assertions with baseline: compare against" },
	{ "--skip-nightly", NULL, "check", NULL, "skip the files marked nightly: true (CI's quick pass)" },
	{ "--seed", NULL, "run check bench", "N", "master seed, instead of the file's" },
	{ "--set", NULL, "run check bench", "key=value", "override one value of the file (repeatable)" },
	{ "--max-wall", NULL, "run check", "TIME",
	  "stop after this much wall-clock time, e.g. 30s (results not valid, exit 1)" },
	{ "-q", "--quiet", "run check", NULL, "leave out the human summary" },
	{ "--sweep", NULL, "run check", "key=v1,v2,...",
	  "run every value of a --set key (repeatable: every combination)" },
	{ "--seeds", NULL, "run check", "A..B|A,B,...", "run every point with each of these seeds" },
	{ "--metric", NULL, "run check", "NAME",
	  "a sweep.csv column, a summary.json dotted name (repeatable)" },
	{ "-j", "--jobs", "run check", "N", "runs at a time, 1..256 (default 1)" },
	{ "--dot", NULL, "topo", NULL, "draw the topology as Graphviz dot" },
	{ "--quick", NULL, "bench", NULL, "the small scenario (k=8, reference settings)" },
	{ "--deep", NULL, "bench", NULL, "the deep-buffer variant (64 MiB switches, dynamic PFC)" },
	{ "--json", NULL, "bench", NULL, "one JSON object on stdout" },
	{ "--repeat", NULL, "bench", "N", "runs, 1..100; figures from the median" },
	{ "--tolerance", NULL, "compare", "T",
	  "flag relative changes beyond T, e.g. 5% (default) or 0.05" },
	{ "--markdown", NULL, "compare", NULL, "a markdown table, for a review comment" },
	{ "--metrics", NULL, "compare", "GLOB,...",
	  "only the metrics matching these patterns (wall_clock.*, provenance.* only when named)" },
	{ "-h", "--help", "run check topo bench compare plot", NULL, "this help" },
};

#define CLI_N(a) (sizeof(a) / sizeof((a)[0]))

static bool cli_cmd_in(const char *cmd, const char *list)
{
	size_t n = strlen(cmd);

	for (const char *p = list; (p = strstr(p, cmd)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static int cli_cmd_help(const struct cli_cmddef *c)
{
	printf("usage: fabemu %s %s\n%s\n\noptions:\n", c->name, c->synopsis, c->what);
	for (size_t k = 0; k < CLI_N(cli_optdefs); k++) {
		const struct cli_optdef *d = &cli_optdefs[k];
		char spell[48];

		if (!cli_cmd_in(c->name, d->cmds))
			continue;
		snprintf(spell, sizeof(spell), "%s%s%s%s%s", d->name, d->alt ? ", " : "",
			 d->alt ? d->alt : "", d->arg ? " " : "", d->arg ? d->arg : "");
		printf("  %-22s %s\n", spell, d->help);
	}
	if (cli_cmd_in(c->name, "run check bench"))
		printf("  %-22s %s\n", "-- EAL args", "arguments for the DPDK EAL (rarely needed)");
	printf("\nexit status: %s\n", c->exits);
	return CLI_OK;
}

static int cli_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "fabemu: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see fabemu --help)\n");
	return CLI_BAD_INPUT;
}

static int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

/* A simulation reads its ports, queues and events at random across tens or
 * hundreds of MB: on 4 KiB pages nearly every such read also misses the TLB
 * (about 10% of a large run's time here). glibc backs its heap with
 * transparent huge pages only when told at start-up, through a tunable, so
 * fabemu restarts itself once with it set (the packet pool gets huge pages
 * on its own, see sim_pool_create). FABEMU_NO_REEXEC=1 turns this off, for
 * tools that follow one process image (valgrind). */
static void cli_heap_huge_pages(char **argv)
{
	const char *t = getenv("GLIBC_TUNABLES");
	char buf[1024];

	if (getenv("FABEMU_NO_REEXEC") || (t && strstr(t, "glibc.malloc.hugetlb")))
		return;
	snprintf(buf, sizeof(buf), "%s%sglibc.malloc.hugetlb=1", t ? t : "", t ? ":" : "");
	if (setenv("GLIBC_TUNABLES", buf, 1) != 0 || setenv("FABEMU_NO_REEXEC", "1", 1) != 0)
		return;
	execv("/proc/self/exe", argv);
	/* Not possible here: carry on as we are. */
}

int main(int argc, char **argv)
{
	struct cli_opts o = { 0 };
	const struct cli_cmddef *cd = NULL;
	const char *cmd;
	int i;

	if (argc >= 2 && (!strcmp(argv[1], "run") || !strcmp(argv[1], "check") ||
			  !strcmp(argv[1], "bench")))
		cli_heap_huge_pages(argv);

	if (argc < 2)
		return cli_bad("%s", "missing command");
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return CLI_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("fabemu %s (commit %s, %s)\n", FAB_VERSION, FAB_COMMIT, rte_version());
		return CLI_OK;
	}
	for (size_t k = 0; k < CLI_N(cli_cmddefs); k++)
		if (!strcmp(cmd, cli_cmddefs[k].name))
			cd = &cli_cmddefs[k];
	if (!cd)
		return cli_bad("unknown command '%s'", cmd);
	/* COMMAND --help wins over everything else before `--`. */
	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_cmd_help(cd);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		const struct cli_optdef *d = NULL;
		const char *v = NULL;

		if (!strcmp(a, "--")) {
			if (!cli_cmd_in(cmd, "run check bench")) {
				fprintf(stderr, "fabemu: %s does not take EAL args (see fabemu --help)\n", cmd);
				return CLI_BAD_INPUT;
			}
			o.eal_argc = argc - i - 1;
			o.eal_argv = &argv[i + 1];
			break;
		}
		if ((a[0] != '-' || a[1] == '\0') && cli_cmd_in(cmd, "compare plot")) {
			if (o.n_dirs == CLI_MAX_DIRS)
				return cli_bad("at most 26 folders ('%s' is one too many)", a);
			o.dirs[o.n_dirs++] = a;
			continue;
		}
		if ((a[0] != '-' || a[1] == '\0') && cli_cmd_in(cmd, "run check")) {
			if (o.n_exps == CLI_MAX_EXPS)
				return cli_bad("at most 64 experiment files ('%s' is one too many)", a);
			o.exps[o.n_exps++] = a;
			o.exp_path = o.exps[0];
			continue;
		}
		if (a[0] != '-' || a[1] == '\0') {
			if (o.exp_path || !strcmp(cmd, "bench"))
				return cli_bad("unexpected argument '%s'", a);
			o.exp_path = a;
			continue;
		}
		/* A spelling may have a row per command that reads it differently. */
		for (size_t k = 0; k < CLI_N(cli_optdefs); k++)
			if ((!strcmp(a, cli_optdefs[k].name) ||
			     (cli_optdefs[k].alt && !strcmp(a, cli_optdefs[k].alt))) &&
			    (!d || cli_cmd_in(cmd, cli_optdefs[k].cmds)))
				d = &cli_optdefs[k];
		if (!d)
			return cli_bad("unknown option '%s'", a);
		if (!cli_cmd_in(cmd, d->cmds)) {
			fprintf(stderr, "fabemu: %s does not take %s (see fabemu --help)\n", cmd, a);
			return CLI_BAD_INPUT;
		}
		if (d->arg) {
			if (i + 1 >= argc)
				return cli_bad("option '%s' needs a value", a);
			v = argv[++i];
		}
		if (!strcmp(d->name, "-o")) {
			if (!*v)
				return cli_bad("%s", "-o needs a folder name, got an empty one");
			o.outdir = v;
		} else if (!strcmp(d->name, "--junit")) {
			o.junit = v;
		} else if (!strcmp(d->name, "--baseline")) {
			o.baseline = v;
		} else if (!strcmp(d->name, "--skip-nightly")) {
			o.skip_nightly = true;
		} else if (!strcmp(d->name, "--seed")) {
			if (cli_parse_u64(v, &o.seed) != 0)
				return cli_bad("--seed needs a non-negative integer, got '%s'", v);
			o.seed_set = true;
		} else if (!strcmp(d->name, "--set")) {
			if (o.n_sets == CLI_MAX_SETS)
				return cli_bad("%s", "too many --set options");
			if (!strchr(v, '='))
				return cli_bad("--set needs key.path=value, got '%s'", v);
			o.sets[o.n_sets++] = v;
		} else if (!strcmp(d->name, "--max-wall")) {
			const char *why = NULL;

			if (units_parse_time(v, &o.max_wall_ps, &why) != 0 || o.max_wall_ps == 0) {
				fprintf(stderr, "fabemu: --max-wall needs a time above 0 such as 30s or 500ms, "
						"got '%s'%s%s (see fabemu %s --help)\n",
					v, why ? ": " : "", why ? why : "", cmd);
				return CLI_BAD_INPUT;
			}
			o.max_wall = v;
		} else if (!strcmp(d->name, "-q")) {
			o.quiet = true;
		} else if (!strcmp(d->name, "--dot")) {
			o.dot = true;
		} else if (!strcmp(d->name, "--quick")) {
			o.quick = true;
		} else if (!strcmp(d->name, "--deep")) {
			o.deep = true;
		} else if (!strcmp(d->name, "--repeat")) {
			uint64_t n;

			if (cli_parse_u64(v, &n) != 0 || n < 1 || n > CLI_MAX_REPEAT) {
				fprintf(stderr, "fabemu: --repeat needs an integer 1..%d, got '%s' (see fabemu --help)\n",
					CLI_MAX_REPEAT, v);
				return CLI_BAD_INPUT;
			}
			o.repeat = (unsigned)n;
		} else if (!strcmp(d->name, "--sweep")) {
			if (o.n_sweeps == CLI_MAX_SWEEPS)
				return cli_bad("%s", "at most 8 --sweep options");
			o.sweeps[o.n_sweeps++] = v;
		} else if (!strcmp(d->name, "--seeds")) {
			if (o.seeds)
				return cli_bad("%s", "--seeds given twice (give one range or list)");
			o.seeds = v;
		} else if (!strcmp(d->name, "--metric")) {
			if (o.n_metric_names == CLI_MAX_METRICS)
				return cli_bad("%s", "at most 32 --metric options");
			o.metric_names[o.n_metric_names++] = v;
		} else if (!strcmp(d->name, "-j")) {
			uint64_t n;

			if (cli_parse_u64(v, &n) != 0 || n < 1 || n > CLI_MAX_JOBS) {
				fprintf(stderr, "fabemu: -j needs an integer 1..%d, got '%s' (see fabemu %s --help)\n",
					CLI_MAX_JOBS, v, cmd);
				return CLI_BAD_INPUT;
			}
			o.jobs = (unsigned)n;
		} else if (!strcmp(d->name, "--json")) {
			o.json = true;
		} else if (!strcmp(d->name, "--tolerance")) {
			o.tolerance = v;
		} else if (!strcmp(d->name, "--metrics")) {
			o.metrics = v;
		} else if (!strcmp(d->name, "--markdown")) {
			o.markdown = true;
		} else if (!strcmp(d->name, "--format")) {
			o.format = v;
		}
	}
	if (o.quick && o.deep)
		return cli_bad("%s", "bench takes one of --quick and --deep");
	if (!strcmp(cmd, "compare"))
		return cli_compare(&o);
	if (!strcmp(cmd, "plot"))
		return cli_plot(&o);
	if (strcmp(cmd, "bench") && !o.exp_path)
		return cli_bad("%s: missing the file to read", cmd);
	if (!strcmp(cmd, "run"))
		return cli_run(&o, false);
	if (!strcmp(cmd, "check"))
		return cli_run(&o, true);
	if (!strcmp(cmd, "topo"))
		return cli_topo(&o);
	return cli_bench(&o);
}
