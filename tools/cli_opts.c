/* Reading the fabemu command line against the command table: each
 * command's options (tools/cli.h: struct cli_cmd), the shared setters and
 * the simulation commands' --seed and --set, and COMMAND --help. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fabric.h"
#include "par.h"

int cli_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "fabemu: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see fabemu --help)\n");
	return CLI_BAD_INPUT;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

int cli_opt_str(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	(void)cmd;
	*(const char **)((char *)opts + d->off) = v;
	return CLI_OK;
}

int cli_opt_dir(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	if (!*v)
		return cli_bad("%s", "-o needs a folder name, got an empty one");
	return cli_opt_str(d, opts, v, cmd);
}

int cli_opt_flag(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	(void)v;
	(void)cmd;
	*(bool *)((char *)opts + d->off) = true;
	return CLI_OK;
}

int cli_arg_dir(const char **dirs, unsigned *n, const char *a)
{
	if (*n == CLI_MAX_DIRS)
		return cli_bad("at most 26 folders ('%s' is one too many)", a);
	dirs[(*n)++] = a;
	return CLI_OK;
}

/* --seed N: @opts begins with struct cli_sim_opts (struct cli_cmd.sim). */
static int cli_opt_seed(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_sim_opts *s = opts;

	(void)d;
	(void)cmd;
	if (cli_parse_u64(v, &s->seed) != 0)
		return cli_bad("--seed needs a non-negative integer, got '%s'", v);
	s->seed_set = true;
	return CLI_OK;
}

/* --set key=value, as cli_opt_seed. */
static int cli_opt_set(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_sim_opts *s = opts;

	(void)d;
	(void)cmd;
	if (s->n_sets == CLI_MAX_SETS)
		return cli_bad("%s", "too many --set options");
	if (!strchr(v, '='))
		return cli_bad("--set needs key.path=value, got '%s'", v);
	s->sets[s->n_sets++] = v;
	return CLI_OK;
}

/* N threads (1..64) or auto in @v: 0 with @*n (0 for auto), or -EINVAL. */
static int cli_threads_parse(const char *v, uint32_t *n)
{
	uint64_t u;

	if (strcmp(v, "auto") == 0) {
		*n = 0;
		return 0;
	}
	if (cli_parse_u64(v, &u) != 0 || u < 1 || u > PAR_MAX_THREADS)
		return -EINVAL;
	*n = (uint32_t)u;
	return 0;
}

/* --threads N or auto, as cli_opt_seed. */
static int cli_opt_threads(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_sim_opts *s = opts;
	uint32_t n;

	(void)d;
	(void)cmd;
	_Static_assert(PAR_MAX_THREADS == 64, "--threads's message says 64");
	if (cli_threads_parse(v, &n) != 0)
		return cli_bad("--threads needs auto or an integer 1..64, got '%s'", v);
	s->threads = n;
	s->threads_auto = n == 0;
	return CLI_OK;
}

/* --partitions N, as --threads. */
static int cli_opt_partitions(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_sim_opts *s = opts;
	uint64_t n;

	(void)d;
	(void)cmd;
	if (cli_parse_u64(v, &n) != 0 || n < 1 || n > PAR_MAX_THREADS)
		return cli_bad("--partitions needs an integer 1..64, got '%s'", v);
	s->partitions = (uint32_t)n;
	return CLI_OK;
}

int cli_threads_pick(const struct cli_sim_opts *s, struct exp *e, bool outputs, bool dflt_auto,
		     char msg[CFG_ERR_BYTES])
{
	const char *env = getenv("FABEMU_THREADS");
	uint32_t n = 1;
	bool is_auto = dflt_auto;

	if (s->threads || s->threads_auto) {
		n = s->threads;
		is_auto = s->threads_auto;
	} else if (env && *env) {
		if (cli_threads_parse(env, &n) != 0) {
			snprintf(msg, CFG_ERR_BYTES,
				 "fabemu: FABEMU_THREADS needs auto or an integer 1..64, got '%.100s'", env);
			return CLI_BAD_INPUT;
		}
		is_auto = n == 0;
	}
	e->threads_auto = is_auto;
	e->threads = is_auto ? fabric_par_auto(e, outputs, cli_cores()) : n;
	return CLI_OK;
}

const struct cli_optdef cli_sim_optdefs[] = {
	{ "--seed", NULL, "N", "master seed, instead of the file's", cli_opt_seed, 0 },
	{ "--threads", NULL, "N|auto",
	  "partitions of the fabric run on N threads (results are the same at any N); auto (run's and "
	  "check's default): a thread per 64 hosts, up to the cores this process may use",
	  cli_opt_threads, 0 },
	{ "--partitions", NULL, "N",
	  "N partitions instead, run by the threads in turn (large fabrics: each in cache)",
	  cli_opt_partitions, 0 },
	{ "--set", NULL, "key=value", "override one value of the file (repeatable)", cli_opt_set, 0 },
	{ NULL },
};

/* @c's row for the spelling @a, or NULL. */
static const struct cli_optdef *cli_opt_find(const struct cli_cmd *c, const char *a)
{
	for (const struct cli_optdef *const *t = c->opts; *t; t++)
		for (const struct cli_optdef *d = *t; d->name; d++)
			if (!strcmp(a, d->name) || (d->alt && !strcmp(a, d->alt)))
				return d;
	return NULL;
}

/* The option @a at @argv[*i] of @c: its row, its value, stored. */
static int cli_parse_opt(const struct cli_cmd *c, const struct cli_cmd *const *all, int argc,
			 char **argv, int *i, void *opts)
{
	const char *a = argv[*i], *v = NULL;
	const struct cli_optdef *d = cli_opt_find(c, a);

	if (!d) {
		for (const struct cli_cmd *const *o = all; *o; o++)
			if (cli_opt_find(*o, a)) {
				fprintf(stderr, "fabemu: %s does not take %s (see fabemu --help)\n",
					c->name, a);
				return CLI_BAD_INPUT;
			}
		return cli_bad("unknown option '%s'", a);
	}
	if (d->arg) {
		if (*i + 1 >= argc)
			return cli_bad("option '%s' needs a value", a);
		v = argv[++*i];
	}
	return d->set(d, opts, v, c->name);
}

int cli_parse(const struct cli_cmd *c, const struct cli_cmd *const *all, int argc, char **argv,
	      void *opts)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (!strcmp(a, "--")) {
			struct cli_sim_opts *s = opts;

			if (!c->sim) {
				fprintf(stderr, "fabemu: %s does not take EAL args (see fabemu --help)\n",
					c->name);
				return CLI_BAD_INPUT;
			}
			s->eal_argc = argc - i - 1;
			s->eal_argv = &argv[i + 1];
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
			rc = c->arg ? c->arg(opts, a) : cli_bad("unexpected argument '%s'", a);
		else
			rc = cli_parse_opt(c, all, argc, argv, &i, opts);
		if (rc != CLI_OK)
			return rc;
	}
	return CLI_OK;
}

int cli_cmd_help(const struct cli_cmd *c)
{
	printf("usage: fabemu %s %s\n%s\n\noptions:\n", c->name, c->synopsis, c->what);
	for (const struct cli_optdef *const *t = c->opts; *t; t++)
		for (const struct cli_optdef *d = *t; d->name; d++) {
			char spell[48];

			snprintf(spell, sizeof(spell), "%s%s%s%s%s", d->name, d->alt ? ", " : "",
				 d->alt ? d->alt : "", d->arg ? " " : "", d->arg ? d->arg : "");
			printf("  %-22s %s\n", spell, d->help);
		}
	printf("  %-22s %s\n", "-h, --help", "this help");
	if (c->sim)
		printf("  %-22s %s\n", "-- EAL args", "arguments for the DPDK EAL (rarely needed)");
	printf("\nexit status: %s\n", c->exits);
	return CLI_OK;
}
