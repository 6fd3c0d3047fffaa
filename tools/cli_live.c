/* `fabemu live EXP.yaml`: a run of the experiment in which the host ports
 * of live.ports are bound to DPDK ports (live/) and simulated time follows
 * the wall clock. It is fabemu run's job (tools/cli_run.c) with the live
 * steps: the ports' devices in the EAL's arguments, bound after the build,
 * the paced loop instead of the simulation's, and their metrics. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exp.h"
#include "live.h"

int cli_live_engine(const struct cli_run_opts *o, struct exp *e, int *argc, char ***argv,
		    char msg[CFG_ERR_BYTES + 64])
{
	int n = o->sim.eal_argc, cap = o->live ? 2 * (int)e->live.n_ports + 2 : 0, r;
	char **v;

	*argc = 0;
	*argv = NULL;
	if (!o->live) {
		if (exp_live_refuse(e, msg) != 0)
			return CLI_BAD_INPUT;
		*argc = n;
		*argv = o->sim.eal_argv;
		return CLI_OK;
	}
	if (!e->live.n_ports) {
		snprintf(msg, CFG_ERR_BYTES + 64,
			 "fabemu live: %s has no live ports (live.ports): nothing to bind; fabemu run "
			 "simulates it", e->path);
		return CLI_BAD_INPUT;
	}
	if ((r = live_preflight(e, msg)) != 0)
		return r == -EINVAL ? CLI_BAD_INPUT : CLI_FAIL;
	if (!(v = calloc((size_t)n + (size_t)cap + 1, sizeof(*v)))) {
		snprintf(msg, CFG_ERR_BYTES + 64, "out of memory");
		return CLI_FAIL;
	}
	for (int i = 0; i < n; i++)
		v[i] = o->sim.eal_argv[i];
	*argc = n;
	*argv = v;
	if (live_eal_args(e, v, argc, cap) != 0) {
		snprintf(msg, CFG_ERR_BYTES + 64, "out of memory");
		return CLI_FAIL;
	}
	/* Last: once they are made, cli_live_end removes them. */
	if (live_devices_make(e, msg) != 0) {
		live_eal_args_free(v, n, *argc);
		free(v);
		*argv = NULL;
		return CLI_FAIL;
	}
	return CLI_OK;
}

void cli_live_end(const struct cli_run_opts *o, const struct exp *e, int argc, char **argv)
{
	if (!o->live || !argv)
		return;
	live_devices_remove(e);
	live_eal_args_free(argv, o->sim.eal_argc, argc);
	free(argv);
}

static const struct cli_optdef cli_live_more_optdefs[] = {
	{ "--check", NULL, NULL, "evaluate the file's expect: assertions after the run, as fabemu check does (exit 1 when one fails)",
	  cli_opt_flag, offsetof(struct cli_run_opts, live_check) },
	{ "--junit", NULL, "FILE", "with --check: also write the verdicts as a JUnit XML report", cli_opt_str,
	  offsetof(struct cli_run_opts, junit) },
	{ "--max-wall", NULL, "TIME", "end the run after this much wall-clock time, e.g. 30s (as SIGINT does)",
	  cli_opt_max_wall, 0 },
	{ "-q", "--quiet", NULL, "leave out the progress lines and the human summary", cli_opt_flag,
	  offsetof(struct cli_run_opts, quiet) },
	{ NULL },
};

static const struct cli_optdef *const cli_live_optdefs[] = {
	cli_run_out_optdefs,
	cli_sim_optdefs,
	cli_live_more_optdefs,
	NULL,
};

static int cli_live_main(const void *opts)
{
	struct cli_run_opts o = *(const struct cli_run_opts *)opts;

	if (!o.exp_path)
		return cli_bad("%s: missing the file to read", "live");
	if (o.n_exps > 1)
		return cli_bad("live: one experiment at a time ('%s' is one too many)", o.exps[1]);
	if (o.sim.threads > 1 || o.sim.partitions > 1)
		return cli_bad("%s", "live: --threads and --partitions: a live run is one thread, which "
				     "polls its ports and paces the simulation");
	if (o.junit && !o.live_check)
		return cli_bad("%s", "live: --junit goes with --check");
	o.live = true;
	o.sim.threads = 1;
	o.sim.threads_auto = false;
	return cli_run(&o, o.live_check);
}

const struct cli_cmd cli_cmd_live = {
	.name = "live",
	.synopsis = "EXP.yaml [options] [-- EAL args]",
	.what = "Run an experiment with the host ports of its live: section bound to real endpoints "
		"(TAP devices in network namespaces, interfaces), simulated time following the wall "
		"clock; SIGINT, --max-wall or stop_time ends it with valid results (docs/user-guide.md, "
		"\"Live mode\"). Needs root, but for memif ports alone.",
	.exits = "0 done, 1 the ports could not be bound (not root, no /dev/net/tun), a result could "
		 "not be written or (--check) an assertion failed, 2 bad input",
	.opts = cli_live_optdefs,
	.opts_bytes = sizeof(struct cli_run_opts),
	.sim = true,
	.arg = cli_run_arg,
	.main = cli_live_main,
};
