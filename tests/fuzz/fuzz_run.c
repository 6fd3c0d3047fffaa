/* libFuzzer target: load, build, run and write, on small fabrics. Each
 * input (fuzz_input.h) that loads and is small (FUZZ_RUN_MAX_*) is built
 * into a fabric on one packet pool made at start-up, run for at most
 * FUZZ_RUN_MAX_PS of virtual time, and its results, resolved experiment
 * and outputs written into a scratch folder, as `fabemu run` does; then
 * every packet must be back in the pool. A crash, a sanitizer report, a
 * leak or a packet not returned is a bug. Run it from experiments/
 * (tools/fuzz-smoke.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_mempool.h>

#include "fabric.h"
#include "fuzz_input.h"
#include "results.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
	FUZZ_RUN_MAX_HOSTS = 16,        /* larger fabrics are left to the loader target */
	FUZZ_RUN_MAX_SWITCHES = 16,
	FUZZ_RUN_MAX_MSGS = 256,
	FUZZ_RUN_POOL_PKTS = 1 << 15,   /* the one pool every run shares */
	FUZZ_RUN_EAL_MB = 128,
};
#define FUZZ_RUN_MAX_BYTES (UINT64_C(4) << 20) /* offered by all messages */
#define FUZZ_RUN_MAX_PS UINT64_C(2000000000)   /* 2 ms of virtual time */

static struct rte_mempool *fuzz_pool;
static char fuzz_dir[] = "/tmp/fabemu-fuzz-run.XXXXXX";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[CFG_ERR_BYTES];

	(void)argc;
	(void)argv;
	if (sim_eal_init(0, NULL, FUZZ_RUN_EAL_MB, err) != 0 || !mkdtemp(fuzz_dir)) {
		fprintf(stderr, "fuzz_run: cannot start: %s\n", err);
		exit(1);
	}
	/* The largest data room any experiment asks for (payload, INT). */
	fuzz_pool = sim_pool_create("fuzz", FUZZ_RUN_POOL_PKTS, 4096 + 128 + PKT_INT_MAX_BYTES, err);
	if (!fuzz_pool) {
		fprintf(stderr, "fuzz_run: %s\n", err);
		exit(1);
	}
	return 0;
}

/* Small enough to run here. */
static bool fuzz_run_small(const struct exp *e)
{
	uint64_t bytes = 0;

	if (e->topo->n_hosts > FUZZ_RUN_MAX_HOSTS || e->topo->n_switches > FUZZ_RUN_MAX_SWITCHES ||
	    e->n_msgs > FUZZ_RUN_MAX_MSGS || fabric_data_room(e) > fuzz_pool->elt_size)
		return false;
	for (uint32_t i = 0; i < e->n_msgs; i++)
		bytes += e->msgs[i].bytes;
	return bytes <= FUZZ_RUN_MAX_BYTES;
}

static void fuzz_run_one(struct exp *e)
{
	char err[CFG_ERR_BYTES], path[sizeof(fuzz_dir) + 32];
	struct results res;
	struct fabric f;

	if (!e->stop_ps || e->stop_ps > FUZZ_RUN_MAX_PS)
		e->stop_ps = FUZZ_RUN_MAX_PS;
	e->engine.pool_pkts = FUZZ_RUN_POOL_PKTS;
	snprintf(path, sizeof(path), "%s/resolved.yaml", fuzz_dir);
	if (exp_write_resolved(e, path, err) != 0) {
		fprintf(stderr, "fuzz_run: %s\n", err);
		abort(); /* the scratch folder is writable */
	}
	if (fabric_build(&f, e, fuzz_pool, true, err) == 0 &&
	    fabric_open_outputs(&f, fuzz_dir, err) == 0) {
		fabric_run(&f, false);
		if (fabric_close_outputs(&f, fuzz_dir, err) != 0 || res_collect_run(&res, &f, NULL) != 0) {
			fprintf(stderr, "fuzz_run: %s\n", err);
			abort();
		}
		if (res_write_all(&res, &f, fuzz_dir, err) != 0) {
			fprintf(stderr, "fuzz_run: %s\n", err);
			abort();
		}
		res_free(&res);
	} else if (!err[0]) {
		abort(); /* refused without saying why */
	}
	fabric_free(&f);
	/* Every packet taken from the pool is back, whatever stopped the run. */
	if (fuzz_pool->populated_size != rte_mempool_avail_count(fuzz_pool)) {
		fprintf(stderr, "fuzz_run: %u packets not returned to the pool\n",
			fuzz_pool->populated_size - rte_mempool_avail_count(fuzz_pool));
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[CFG_ERR_BYTES] = "";
	struct fuzz_input in;
	struct exp *e = NULL;

	if (fuzz_input_cut(data, size, &in) != 0)
		return 0;
	if (exp_load_string("fuzz.yaml", in.text, in.sets, in.n_sets, &e, err) == 0) {
		if (fuzz_run_small(e))
			fuzz_run_one(e);
		exp_free(e);
	}
	fuzz_input_free(&in);
	return 0;
}
