/* The single CUnit runner: starts the DPDK EAL once (no hugepages, no PCI),
 * creates the shared mempool, registers every module's suite and runs them.
 * Exit status is non-zero when any test fails. */
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/Basic.h>
#include <rte_eal.h>
#include <rte_mbuf.h>

#include "sim.h"
#include "test.h"

/* tests/test_estimate.c (its suite is registered here, beside test.h's) */
int test_estimate_register(void);

static struct rte_mempool *test_pool;

struct rte_mempool *test_mempool(void) { return test_pool; }

const char *test_data_path(const char *name)
{
	static char buf[512]; /* the source tree's path and a file name */

	if (snprintf(buf, sizeof(buf), "%s/%s", FAB_TEST_DATA_DIR, name) >= (int)sizeof(buf)) {
		fprintf(stderr, "test data path too long: %s/%s\n", FAB_TEST_DATA_DIR, name);
		abort();
	}
	return buf;
}

int test_suite_n(const char *name, CU_InitializeFunc init, CU_CleanupFunc clean,
		 const struct test_case *tests, size_t n)
{
	CU_pSuite s = CU_add_suite(name, init, clean);

	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!CU_add_test(s, tests[i].name, tests[i].fn))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	int (*const suites[])(void) = {
		test_units_register,
		test_sha256_register,
		test_cfg_register,
		test_ev_register,
		test_pkt_register,
		test_pkt_ib_register,
		test_pkt_uet_register,
		test_capture_register,
		test_cc_register,
		test_ibcc_register,
		test_port_register,
		test_port_credit_register,
		test_port_fault_register,
		test_topo_register,
		test_topo_rail_register,
		test_sw_register,
		test_sw_ib_register,
		test_sw_agg_register,
		test_nic_register,
		test_nic_mem_register,
		test_exp_register,
		test_faults_register,
		test_tg_register,
		test_coll_register,
		test_trace_register,
		test_tg_data_register,
		test_estimate_register,
		test_reg_register,
		test_cli_register,
		test_docs_kinds_register,
		test_metrics_register,
		test_plot_register,
		test_expect_unit_register,
		/* toy kinds last: once registered they are in the registries for
		 * the rest of the process (the docs checks would see them) */
		test_toy_topo_register,
		test_toy_traffic_register,
		test_toy_switch_register,
		test_toy_cc_register,
		test_toy_fault_register,
		test_toy_trace_register,
	};
	char err[CFG_ERR_BYTES];
	unsigned failed;

	if (sim_eal_init(argc - 1, argv + 1, 256, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	test_pool = sim_pool_create("tests", 8192, 4096 + 512, err);
	if (!test_pool) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		if (suites[i]() != 0) {
			fprintf(stderr, "cannot register suite %zu: %s\n", i, CU_get_error_msg());
			return 2;
		}
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	rte_mempool_free(test_pool);
	rte_eal_cleanup();
	return failed ? 1 : 0;
}
