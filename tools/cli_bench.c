/* `fabemu bench`: the reference scenario packet-level simulators are
 * measured on (3-tier k=16 fat-tree, 1024 hosts, 100 Gb/s, 1 us links,
 * 4 KiB MTU, a random permutation of 2 MB RDMA WRITEs, ECMP, run to
 * completion) with the reference run's buffers, PFC thresholds and ACKs,
 * a deep-buffer variant, a small variant for CI and an AI-scale one (a
 * 4,096-GPU all-reduce, run to a set time). Reports wall-clock time,
 * packet hops and events per wall-clock second and peak memory. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <rte_eal.h>
#include <rte_mempool.h>

#include "cli.h"
#include "cli_mpi.h"
#include "fabric.h"
#include "par.h"
#include "results.h"

/* The settings of the reference run the bench is compared with: per switch
 * output port 400,000 B of queue (100 packets of 4,000 B), so 6,400,000 B
 * for a switch of 16 ports; PFC on priority 3 per ingress port with XOFF
 * above 60,000 B and XON below 48,000 B (static thresholds); an ACK for
 * every data packet. docs/performance.md records the side-by-side run. */
static const char bench_full[] =
	"name: bench-k16-permutation\n"
	"seed: 1\n"
	"topology: {kind: fat-tree, k: 16, tiers: 3,\n"
	"           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}\n"
	"fabric: {buffer: 6400000B, pfc: {priorities: [3], xoff: 60000B, xon: 48000B}}\n"
	"nic: {mtu: 4096, ack_every: 1}\n"
	"traffic:\n"
	"  - {kind: permutation, size: 2MB, op: write}\n"
	"outputs: {flows_csv: false}\n";

/* The scenario the engine rounds were measured on (docs/performance.md up
 * to the seams round): 64 MiB per switch with dynamic PFC thresholds and
 * coalesced ACKs, under which about 60% of the data offered sits queued at
 * the peak (308,522 packets). */
static const char bench_deep[] =
	"name: bench-k16-permutation-deep\n"
	"seed: 1\n"
	"topology: {kind: fat-tree, k: 16, tiers: 3,\n"
	"           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}\n"
	"fabric: {buffer: 64MiB, pfc: {priorities: [3]}}\n"
	"nic: {mtu: 4096}\n"
	"engine: {packet_pool: 360000}\n"
	"traffic:\n"
	"  - {kind: permutation, size: 2MB, op: write}\n"
	"outputs: {flows_csv: false}\n";

/* The reference settings on a k=8 fat-tree (8 ports: 3,200,000 B per
 * switch), small enough for every test run. */
static const char bench_quick[] =
	"name: bench-k8-permutation\n"
	"seed: 1\n"
	"topology: {kind: fat-tree, k: 8, tiers: 3,\n"
	"           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}\n"
	"fabric: {buffer: 3200000B, pfc: {priorities: [3], xoff: 60000B, xon: 48000B}}\n"
	"nic: {mtu: 4096, ack_every: 1}\n"
	"traffic:\n"
	"  - {kind: permutation, size: 512KB, op: write}\n"
	"outputs: {flows_csv: false}\n";

/* AI scale: a 1 GiB ring all-reduce (8 channels, streamed) over the
 * 4,096 GPUs of a 16-unit DGX B200 SuperPOD (NVLink inside the nodes, 8
 * rails), its first 10 us: 8.0 M packet hops in 14.7 M events, with its
 * messages still in flight at the stop, and the packet pool `run` sizes
 * for it (docs/performance.md, "Collectives in partitions"). */
static const char bench_ai[] =
	"name: bench-b200-4096-allreduce\n"
	"seed: 1\n"
	"topology: {kind: rail-optimised, preset: dgx-b200-superpod, units: 16}\n"
	"nic: {mtu: 4096}\n"
	"engine: {packet_pool: 1048576}\n"
	"stop_time: 10us\n"
	"traffic:\n"
	"  - {kind: collective, collective: all-reduce, size: 1GiB}\n"
	"outputs: {flows_csv: false}\n";

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of @v[0..@n) (sorts @v). */
static double bench_median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The scenario of @o, with its --set and --seed, into *@e. CLI_OK or
 * CLI_BAD_INPUT. */
static int bench_load(const struct cli_bench_opts *o, struct exp **e)
{
	const char *text = o->quick ? bench_quick : o->deep ? bench_deep : o->ai ? bench_ai : bench_full;
	const char *sets[CLI_MAX_SETS + 1];
	char err[CFG_ERR_BYTES], seed[40];
	unsigned n_sets = o->sim.n_sets;

	memcpy(sets, o->sim.sets, sizeof(*sets) * o->sim.n_sets);
	if (o->sim.seed_set) {
		snprintf(seed, sizeof(seed), "seed=%llu", (unsigned long long)o->sim.seed);
		sets[n_sets++] = seed;
	}
	if (exp_load_string(o->quick ? "bench-quick" : o->deep ? "bench-deep" : o->ai ? "bench-ai" : "bench",
			    text, sets,
			    n_sets, e, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CLI_BAD_INPUT;
	}
	return CLI_OK;
}

/* Build and run @e @runs times in @f (the last one left built, also on
 * failure; *@built says whether it is), their wall-clock and set-up
 * times into @walls and @setups. CLI_OK, or CLI_FAIL: a build failed (@f
 * freed) or a run differed from the first. */
static int bench_runs(struct exp *e, struct rte_mempool *pool, unsigned runs, struct fabric *f,
		      double *walls, double *setups, bool *built)
{
	char err[CFG_ERR_BYTES];
	uint64_t hops0 = 0, events0 = 0;
	int rc = CLI_OK;

	for (unsigned r = 0; r < runs; r++) {
		if (fabric_build(f, e, pool, false, err) != 0) {
			fprintf(stderr, "fabemu: %s\n", err);
			fabric_free(f);
			*built = false;
			return CLI_FAIL;
		}
		fabric_run(f, false);
		walls[r] = f->wall_s;
		setups[r] = f->setup_s;
		if (r > 0 && (f->sim.n_hops != hops0 || f->sim.n_events != events0)) {
			/* Same scenario and seed: a difference is a determinism bug. */
			fprintf(stderr, "fabemu: bench run %u gave %llu hops and %llu events, run 1 %llu and %llu\n",
				r + 1, (unsigned long long)f->sim.n_hops,
				(unsigned long long)f->sim.n_events, (unsigned long long)hops0,
				(unsigned long long)events0);
			rc = CLI_FAIL;
		}
		hops0 = f->sim.n_hops;
		events0 = f->sim.n_events;
		if (r + 1 < runs)
			fabric_free(f);
	}
	*built = true;
	return rc;
}

/* The figures of a bench, as measured. */
struct bench_figs {
	const double *walls;  /* each run's wall-clock time, s, sorted */
	unsigned runs;        /* how many */
	double wall;          /* their median, s */
	double setup;         /* the median set-up (building the fabric), s */
	double start_s;       /* scenario, EAL and packet pool, once, s */
};

/* The scaling report of a parallel run (core/par.h): partitions, windows,
 * events per window, the share of hops that crossed partitions, and each
 * partition's events, busy and waiting wall time; JSON fields (after
 * the others) for @json. */
static void bench_print_par(const struct fabric *f, bool json)
{
	struct par_stats st;
	uint64_t x = 0;
	double ev = (double)f->sim.n_events, hops = (double)f->sim.n_hops;

	if (!f->par) {
		if (json)
			printf(", \"threads\": 1");
		else
			printf("threads         1%s%s\n", f->par_note ? ": " : "",
			       f->par_note ? f->par_note : "");
		return;
	}
	par_get_stats(f->par, &st);
	for (uint32_t i = 0; i < st.n_parts; i++)
		x += st.x_frames[i];
	if (json) {
		printf(", \"threads\": %u, \"processes\": %u, \"lookahead_ns\": %.3f, \"windows\": %llu, "
		       "\"root_events\": %llu, "
		       "\"events_per_window\": %.1f, \"cross_share\": %.4f, \"parallelism\": %.3f, "
		       "\"partitions\": [",
		       st.n_workers, st.n_procs, units_ps_to_ns(st.lookahead_ps), (unsigned long long)st.windows,
		       (unsigned long long)st.root_events,
		       st.windows ? ev / (double)st.windows : 0, hops > 0 ? (double)x / hops : 0,
		       st.crit_events ? ev / (double)st.crit_events : 0);
		for (uint32_t i = 0; i < st.n_parts; i++)
			printf("%s{\"events\": %llu, \"busy_s\": %.3f, \"wait_s\": %.3f, \"cpu_s\": %.3f}",
			       i ? ", " : "", (unsigned long long)st.events[i], st.busy_s[i], st.wait_s[i],
			       st.cpu_s[i]);
		printf("]");
		return;
	}
	fabric_par_report(f, "threads         ", stdout);
}

/* Print the figures of @f's last run, as JSON for @json. CLI_OK, or
 * CLI_FAIL when the run was not clean (a drop, an unfinished message, a
 * pool that throttled the senders) or its results could not be collected. */
static int bench_print(const struct exp *e, struct fabric *f, const struct bench_figs *g, bool json)
{
	struct results res;
	struct rusage ru;
	int rc = CLI_OK;
	uint64_t drops_n, inc_n, dry_n;

	getrusage(RUSAGE_SELF, &ru);
	if (res_collect(&res, f) != 0)
		return CLI_FAIL;
	const struct res_metric *drops = res_find(&res, "drops.total");
	const struct res_metric *inc = res_find(&res, "messages.incomplete");
	const struct res_metric *dry = res_find(&res, "nic.pool_exhausted");
	const struct res_metric *done = res_find(&res, "messages.completed");
	double hops = (double)f->sim.n_hops, ev = (double)f->sim.n_events, wall = g->wall;
	unsigned long long rss = (unsigned long long)ru.ru_maxrss * 1024;
	unsigned runs = g->runs;
	/* Over the processes of an MPI job (each has counted what its
	 * partitions did, the rest of its copy of the fabric is untouched):
	 * drops and a dry pool add up, and so do the messages completed
	 * (each by its sender's process). */
	uint64_t v[3] = { drops->u, dry->u, done->u };

	drops_n = drops->u;
	inc_n = inc->u;
	dry_n = dry->u;
	if (e->remote && f->par) {
		cli_mpi_sum(v, 3);
		drops_n = v[0];
		dry_n = v[1];
		inc_n = inc->u + done->u - v[2];
	}
	if (e->remote && e->remote->rank > 0) {
		res_free(&res);
		return drops_n || (inc_n && !e->stop_ps) || dry_n ? CLI_FAIL : CLI_OK;
	}

	if (json) {
		printf("{\"scenario\": \"%s\", \"wall_s\": %.3f, \"packet_hops\": %llu, "
		       "\"events\": %llu, \"packet_hops_per_s\": %.0f, \"events_per_s\": %.0f, "
		       "\"peak_rss_bytes\": %llu, \"drops\": %llu, \"incomplete\": %llu, "
		       "\"pool_exhausted\": %llu, \"sim_time_ns\": %.3f, \"runs\": %u, "
		       "\"wall_s_min\": %.3f, \"wall_s_max\": %.3f, \"setup_s\": %.3f, "
		       "\"start_s\": %.3f, \"cpu_s\": %.3f",
		       e->name, wall, (unsigned long long)f->sim.n_hops,
		       (unsigned long long)f->sim.n_events, hops / wall, ev / wall, rss,
		       (unsigned long long)drops_n, (unsigned long long)inc_n,
		       (unsigned long long)dry_n, units_ps_to_ns(f->sim.last_work_ps), runs,
		       g->walls[0], g->walls[runs - 1], g->setup, g->start_s, f->cpu_s);
		bench_print_par(f, true);
		printf("}\n");
	} else {
		printf("scenario        %s (%u hosts, %u switches, %u messages)\n", e->name,
		       f->topo->n_hosts, f->topo->n_switches, e->n_msgs);
		if (runs > 1)
			printf("wall clock      %.3f s (median of %u runs; %.3f .. %.3f)\n", wall,
			       runs, g->walls[0], g->walls[runs - 1]);
		else
			printf("wall clock      %.3f s\n", wall);
		printf("set-up          %.3f s (building the fabric%s), %.3f s before (scenario, "
		       "EAL, packet pool)\n",
		       g->setup, runs > 1 ? ", median" : "", g->start_s);
		printf("simulated       %.3f us\n", units_ps_to_ns(f->sim.last_work_ps) / 1e3);
		printf("packet hops     %.0f  (%.2f M/s)\n", hops, hops / wall / 1e6);
		printf("events          %.0f  (%.2f M/s, %.2f per hop)\n", ev, ev / wall / 1e6,
		       hops > 0 ? ev / hops : 0);
		printf("peak memory     %.1f MiB (RSS, whole process)\n", (double)rss / 1048576.0);
		printf("drops           %llu\n", (unsigned long long)drops_n);
		printf("incomplete      %llu\n", (unsigned long long)inc_n);
		printf("pool exhausted  %llu (peak %u packets in use)\n",
		       (unsigned long long)dry_n, f->sim.pkts_peak);
		bench_print_par(f, false);
	}
	/* A drop, an unfinished message (but in a scenario run to a set
	 * time) or a pool that throttled the senders means the figures are
	 * not those of the reference run. */
	if (drops_n || (inc_n && !e->stop_ps) || dry_n)
		rc = CLI_FAIL;
	res_free(&res);
	return rc;
}

static int cli_bench(const struct cli_bench_opts *o)
{
	char err[CFG_ERR_BYTES];
	struct rte_mempool *pool;
	struct par_remote *remote = NULL;
	struct fabric f;
	struct exp *e;
	int rc, r;
	bool built = false;
	unsigned runs = o->repeat ? o->repeat : 1;
	double walls[CLI_MAX_REPEAT], setups[CLI_MAX_REPEAT];
	struct bench_figs g = { .walls = walls, .runs = runs };
	double t0 = fabric_now_s();

	if ((rc = bench_load(o, &e)) != CLI_OK)
		return rc;
	e->partitions = o->sim.partitions;
	/* Started as several MPI processes: the fabric's partitions are
	 * shared out over them (tools/cli_mpi.h). */
	e->remote = remote = cli_mpi_remote_new();
	if (remote && fabric_par_blocker(e, false)) {
		/* Not split: process 0 runs it, alone. */
		bool other = remote->rank > 0;

		if (!other)
			fprintf(stderr, "fabemu: %u MPI processes: bench runs in process 0 alone: %s\n",
				remote->size, fabric_par_blocker(e, false));
		e->remote = NULL;
		cli_mpi_remote_free(remote);
		remote = NULL;
		if (other) {
			exp_free(e);
			return CLI_OK;
		}
	}
	/* One thread unless asked (--threads, FABEMU_THREADS): the reference
	 * settings measure one core's hop rate. */
	if ((rc = cli_threads_pick(&o->sim, e, false, false, err)) != CLI_OK) {
		fprintf(stderr, "%s\n", err);
		cli_mpi_remote_free(remote);
		exp_free(e);
		return rc;
	}
	if ((r = sim_eal_init(o->sim.eal_argc, o->sim.eal_argv, fabric_eal_mem_mb(e), err)) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		exp_free(e);
		return r == -EINVAL ? CLI_BAD_INPUT : CLI_FAIL;
	}
	pool = sim_pool_create("bench", e->engine.pool_pkts, fabric_data_room(e), err);
	if (!pool) {
		fprintf(stderr, "fabemu: %s\n", err);
		rc = CLI_FAIL;
		goto out;
	}
	/* Reading the scenario (the topology is built then), starting the
	 * EAL and creating the packet pool (its first chunk): once per process. */
	g.start_s = fabric_now_s() - t0;
	rc = bench_runs(e, pool, runs, &f, walls, setups, &built);
	if (!built)
		goto out;
	g.wall = bench_median(walls, runs); /* walls[] sorted: [0] and [runs - 1] are min and max */
	g.setup = bench_median(setups, runs);
	if ((r = bench_print(e, &f, &g, o->json)) != CLI_OK)
		rc = r;
	fabric_free(&f);
out:
	if (pool)
		rte_mempool_free(pool);
	exp_free(e);
	cli_mpi_remote_free(remote);
	rte_eal_cleanup();
	return rc;
}

static int cli_opt_repeat(const struct cli_optdef *d, void *opts, const char *v, const char *cmd)
{
	struct cli_bench_opts *o = opts;
	uint64_t n;

	(void)d;
	(void)cmd;
	if (cli_parse_u64(v, &n) != 0 || n < 1 || n > CLI_MAX_REPEAT) {
		fprintf(stderr, "fabemu: --repeat needs an integer 1..%d, got '%s' (see fabemu --help)\n",
			CLI_MAX_REPEAT, v);
		return CLI_BAD_INPUT;
	}
	o->repeat = (unsigned)n;
	return CLI_OK;
}

static int cli_bench_main(const void *opts)
{
	const struct cli_bench_opts *o = opts;

	if (o->quick + o->deep + o->ai > 1)
		return cli_bad("%s", "bench takes one of --quick, --deep and --ai");
	return cli_bench(o);
}

static const struct cli_optdef cli_bench_own_optdefs[] = {
	{ "--quick", NULL, NULL, "the small scenario (k=8, reference settings)", cli_opt_flag,
	  offsetof(struct cli_bench_opts, quick) },
	{ "--deep", NULL, NULL, "the deep-buffer variant (64 MiB switches, dynamic PFC)", cli_opt_flag,
	  offsetof(struct cli_bench_opts, deep) },
	{ "--ai", NULL, NULL, "AI scale: a 4,096-GPU all-reduce's first 10 us", cli_opt_flag,
	  offsetof(struct cli_bench_opts, ai) },
	{ "--json", NULL, NULL, "one JSON object on stdout", cli_opt_flag,
	  offsetof(struct cli_bench_opts, json) },
	{ "--repeat", NULL, "N", "runs, 1..100; figures from the median", cli_opt_repeat, 0 },
	{ NULL },
};

static const struct cli_optdef *const cli_bench_optdefs[] = {
	cli_sim_optdefs,
	cli_bench_own_optdefs,
	NULL,
};

const struct cli_cmd cli_cmd_bench = {
	.name = "bench",
	.synopsis = "[options] [-- EAL args]",
	.what = "Measure simulation speed on a built-in scenario (docs/performance.md).",
	.exits = "0 done, 1 the scenario did not run cleanly, 2 bad input",
	.opts = cli_bench_optdefs,
	.opts_bytes = sizeof(struct cli_bench_opts),
	.sim = true,
	.mpi = true,
	.main = cli_bench_main,
};
