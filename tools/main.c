/* fabemu: entry point and argument parsing for the sub-commands
 * run, check, topo, bench, compare and plot (see docs/user-guide.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_version.h>

#include "cli.h"
#include "cli_mpi.h"
#include "fab_version.h"

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
	"       fabemu plot DIR [DIR...] [-o OUTDIR] [--format png|svg]\n"
	"       fabemu live EXP.yaml [-o DIR] [--seed N] [--set key=value]... [--max-wall TIME] [-q]\n"
	"                   [--check [--junit FILE]] [-- EAL args]\n"
	"       fabemu --version | --help | COMMAND --help\n";

/* The commands, in the order of the usage above. */
static const struct cli_cmd *const cli_cmds[] = {
	&cli_cmd_run,
	&cli_cmd_check,
	&cli_cmd_topo,
	&cli_cmd_bench,
	&cli_cmd_compare,
	&cli_cmd_plot,
	&cli_cmd_live,
	NULL,
};

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

/* The command named @name, or NULL. */
static const struct cli_cmd *cli_cmd_find(const char *name)
{
	for (const struct cli_cmd *const *c = cli_cmds; *c; c++)
		if (!strcmp(name, (*c)->name))
			return *c;
	return NULL;
}

/* Read the command line of @c and run it. */
static int cli_cmd_run_argv(const struct cli_cmd *c, int argc, char **argv)
{
	void *opts;
	int rc, quiet;

	/* COMMAND --help wins over everything else before `--`. */
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cli_cmd_help(c);
	opts = calloc(1, c->opts_bytes);
	if (!opts) {
		fprintf(stderr, "fabemu: out of memory\n");
		return CLI_FAIL;
	}
	quiet = cli_mpi_quiet(); /* under MPI, process 0 says what is wrong */
	rc = cli_parse(c, cli_cmds, argc, argv, opts);
	cli_mpi_loud(quiet);
	if (rc == CLI_OK)
		rc = c->main(opts);
	free(opts);
	return rc;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *c = argc >= 2 ? cli_cmd_find(argv[1]) : NULL;
	struct cli_mpi w;
	const char *cmd;
	int rc;

	if (c && c->sim)
		cli_heap_huge_pages(argv);
	if (argc < 2)
		return cli_bad("%s", "missing command");
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return CLI_OK;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("fabemu %s (commit %s, %s, %s)\n", FAB_VERSION, FAB_COMMIT, rte_version(),
		       cli_mpi_version());
		return CLI_OK;
	}
	if (!c)
		return cli_bad("unknown command '%s'", cmd);
	if ((rc = cli_mpi_start(&argc, &argv, &w)) != CLI_OK)
		return rc;
	if (w.size > 1 && !c->mpi && c->sim && w.rank == 0)
		fprintf(stderr, "fabemu: %d MPI processes: %s runs in process 0 alone (docs/user-guide.md, "
				"\"Across processes and machines (MPI)\")\n", w.size, c->name);
	rc = w.size > 1 && !c->mpi && w.rank > 0 ? CLI_OK : cli_cmd_run_argv(c, argc, argv);
	cli_mpi_end();
	return rc;
}
