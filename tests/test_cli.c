/* The command line's table of commands (tools/cli.h, cli_opts.c): a toy
 * command with its own options struct and table is read by cli_parse
 * alone, an option of another command is refused as one it does not take,
 * and a real command (compare) reads its own options. Messages are
 * compared with the text fabemu has always printed. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "test.h"

/* The toy command's options. */
struct tcli_opts {
	const char *name;     /* --name */
	bool loud;            /* --loud */
	const char *args[4];  /* positional arguments */
	unsigned n_args;      /* how many */
};

static int tcli_arg(void *opts, const char *a)
{
	struct tcli_opts *o = opts;

	if (o->n_args == 4)
		return cli_bad("unexpected argument '%s'", a);
	o->args[o->n_args++] = a;
	return CLI_OK;
}

static int tcli_main(const void *opts)
{
	return ((const struct tcli_opts *)opts)->loud ? CLI_FAIL : CLI_OK;
}

static const struct cli_optdef tcli_own[] = {
	{ "--name", "-n", "NAME", "a name", cli_opt_str, offsetof(struct tcli_opts, name) },
	{ "--loud", NULL, NULL, "say it loud", cli_opt_flag, offsetof(struct tcli_opts, loud) },
	{ NULL },
};

static const struct cli_optdef *const tcli_optdefs[] = { tcli_own, NULL };

static const struct cli_cmd tcli_cmd = {
	.name = "toy",
	.synopsis = "ARG... [options]",
	.what = "A toy command.",
	.exits = "0 done",
	.opts = tcli_optdefs,
	.opts_bytes = sizeof(struct tcli_opts),
	.arg = tcli_arg,
	.main = tcli_main,
};

static const struct cli_cmd *const tcli_all[] = { &tcli_cmd, &cli_cmd_compare, NULL };

/* cli_parse of @argv (@argc, argv[0] and argv[1] the program and the
 * command) into @opts, its stderr into @msg. */
static int tcli_parse(const struct cli_cmd *c, int argc, const char *const *argv, void *opts,
		      char msg[256])
{
	FILE *f = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	CU_ASSERT_FATAL(f != NULL && saved >= 0);
	fflush(stderr);
	dup2(fileno(f), 2);
	rc = cli_parse(c, tcli_all, argc, (char **)argv, opts);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(msg, 1, 255, f);
	msg[n] = '\0';
	fclose(f);
	return rc;
}

static void test_cli_toy_command(void)
{
	const char *argv[] = { "fabemu", "toy", "a", "--name", "x", "-", "--loud", "-n", "y" };
	struct tcli_opts o = { 0 };
	char msg[256];

	CU_ASSERT_EQUAL(tcli_parse(&tcli_cmd, 9, argv, &o, msg), CLI_OK);
	CU_ASSERT_STRING_EQUAL(msg, "");
	CU_ASSERT_STRING_EQUAL(o.name, "y"); /* the last one given */
	CU_ASSERT(o.loud);
	CU_ASSERT_EQUAL(o.n_args, 2);
	CU_ASSERT_STRING_EQUAL(o.args[0], "a");
	CU_ASSERT_STRING_EQUAL(o.args[1], "-"); /* a lone dash is an argument */
	CU_ASSERT_EQUAL(tcli_cmd.main(&o), CLI_FAIL);
}

static void test_cli_refusals(void)
{
	static const struct {
		int argc;
		const char *argv[4];
		const char *msg;
	} cases[] = {
		{ 3, { "fabemu", "toy", "--markdown" },
		  "fabemu: toy does not take --markdown (see fabemu --help)\n" },
		{ 3, { "fabemu", "toy", "--nme" }, "fabemu: unknown option '--nme' (see fabemu --help)\n" },
		{ 3, { "fabemu", "toy", "--name" },
		  "fabemu: option '--name' needs a value (see fabemu --help)\n" },
		{ 4, { "fabemu", "toy", "--", "-l" },
		  "fabemu: toy does not take EAL args (see fabemu --help)\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tcli_opts o = { 0 };
		char msg[256];

		CU_ASSERT_EQUAL(tcli_parse(&tcli_cmd, cases[i].argc, cases[i].argv, &o, msg),
				CLI_BAD_INPUT);
		CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
	}
}

static void test_cli_compare_options(void)
{
	const char *argv[] = { "fabemu", "compare", "A", "B", "--tolerance", "2%", "--markdown" };
	const char *bad[] = { "fabemu", "compare", "A", "--loud" };
	struct cli_compare_opts o = { 0 };
	char msg[256];

	CU_ASSERT_EQUAL(tcli_parse(&cli_cmd_compare, 7, argv, &o, msg), CLI_OK);
	CU_ASSERT_EQUAL(o.n_dirs, 2);
	CU_ASSERT_STRING_EQUAL(o.dirs[1], "B");
	CU_ASSERT_STRING_EQUAL(o.tolerance, "2%");
	CU_ASSERT(o.markdown);
	CU_ASSERT_PTR_NULL(o.metrics);
	memset(&o, 0, sizeof(o));
	CU_ASSERT_EQUAL(tcli_parse(&cli_cmd_compare, 4, bad, &o, msg), CLI_BAD_INPUT);
	CU_ASSERT_STRING_EQUAL(msg, "fabemu: compare does not take --loud (see fabemu --help)\n");
}

int test_cli_register(void)
{
	static const struct test_case tests[] = {
		{ "a toy command read through its table", test_cli_toy_command },
		{ "options of another command refused", test_cli_refusals },
		{ "compare reads its own options", test_cli_compare_options },
	};

	return test_suite("cli", tests);
}
