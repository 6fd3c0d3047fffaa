/* fabemu: entry point and argument parsing for the sub-commands
 * run, check, topo and bench (see docs/user-guide.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
	"usage: fabemu run EXP.yaml [-o DIR] [--seed N] [--set key=value]... [-q] [-- EAL args]\n"
	"       fabemu check EXP.yaml [-o DIR] [--junit FILE] [--seed N] [--set key=value]...\n"
	"       fabemu topo FILE.yaml [--dot]\n"
	"       fabemu bench [--quick] [--json] [-- EAL args]\n"
	"       fabemu --version | --help\n";

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

int main(int argc, char **argv)
{
	struct cli_opts o = { 0 };
	const char *cmd;
	int i;

	if (argc < 2)
		return cli_bad("%s", "missing command");
	cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return CLI_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("fabemu %s\n", FABEMU_VERSION);
		return CLI_OK;
	}
	if (strcmp(cmd, "run") && strcmp(cmd, "check") && strcmp(cmd, "topo") && strcmp(cmd, "bench"))
		return cli_bad("unknown command '%s'", cmd);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			o.eal_argc = argc - i - 1;
			o.eal_argv = &argv[i + 1];
			break;
		}
		if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc) {
			o.outdir = argv[++i];
		} else if (!strcmp(a, "--junit") && i + 1 < argc && !strcmp(cmd, "check")) {
			o.junit = argv[++i];
		} else if (!strcmp(a, "--seed") && i + 1 < argc) {
			if (cli_parse_u64(argv[++i], &o.seed) != 0)
				return cli_bad("--seed needs a non-negative integer, got '%s'", argv[i]);
			o.seed_set = true;
		} else if (!strcmp(a, "--set") && i + 1 < argc) {
			if (o.n_sets == CLI_MAX_SETS)
				return cli_bad("%s", "too many --set options");
			if (!strchr(argv[i + 1], '='))
				return cli_bad("--set needs key.path=value, got '%s'", argv[i + 1]);
			o.sets[o.n_sets++] = argv[++i];
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o.quiet = true;
		} else if (!strcmp(a, "--dot") && !strcmp(cmd, "topo")) {
			o.dot = true;
		} else if (!strcmp(a, "--quick") && !strcmp(cmd, "bench")) {
			o.quick = true;
		} else if (!strcmp(a, "--json") && !strcmp(cmd, "bench")) {
			o.json = true;
		} else if (a[0] == '-') {
			return cli_bad(i + 1 < argc || a[1] != '-' ? "unknown or incomplete option '%s'"
								   : "option '%s' needs a value",
				       a);
		} else if (!o.exp_path && strcmp(cmd, "bench")) {
			o.exp_path = a;
		} else {
			return cli_bad("unexpected argument '%s'", a);
		}
	}
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
