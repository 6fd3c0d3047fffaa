/* Shared pieces of the CUnit runner: suite registration and the one DPDK
 * EAL / mempool that all suites use (the EAL starts once per process). */
#ifndef FAB_TEST_H
#define FAB_TEST_H

#include <stdio.h>

#include <CUnit/CUnit.h>

#include <stddef.h>
#include <stdint.h>

struct rte_mempool;
struct rte_mbuf;
struct sim;

/* One test of a suite. */
struct test_case {
	const char *name;
	CU_TestFunc fn;
};

/* Register suite @name (@init and @clean around it, or NULL) with the @n
 * tests @tests. 0 or -1. */
int test_suite_n(const char *name, CU_InitializeFunc init, CU_CleanupFunc clean,
		 const struct test_case *tests, size_t n);
/* The same for an array @tests, without init and clean. */
#define test_suite(name, tests) \
	test_suite_n((name), NULL, NULL, (tests), sizeof(tests) / sizeof((tests)[0]))

/* Mempool of mbufs with room for a full 4 KiB-MTU frame and pkt_meta. */
struct rte_mempool *test_mempool(void);
/* A 64-byte zeroed packet (test_port.c) that ports see as @bytes long on
 * class @tc: what the port suites send. */
struct rte_mbuf *test_port_frame(struct sim *s, uint32_t bytes, uint8_t tc);
/* Absolute path of a file under tests/data. */
const char *test_data_path(const char *name);
/* What @fn (topo_describe, topo_dot) prints for @t, malloc'd (test_topo.c). */
struct topo;
char *test_topo_print(const struct topo *t, void (*fn)(const struct topo *, FILE *));

int test_capture_register(void);
int test_coll_register(void);
int test_cc_register(void);
int test_cfg_register(void);
int test_ev_register(void);
int test_exp_register(void);
int test_faults_register(void);
int test_ibcc_register(void);
int test_nic_register(void);
int test_nic_mem_register(void);
int test_pkt_register(void);
int test_reg_register(void);
int test_toy_topo_register(void);
int test_metrics_register(void);
int test_pkt_ib_register(void);
int test_pkt_uet_register(void);
int test_port_register(void);
int test_port_credit_register(void);
int test_port_fault_register(void);
int test_sha256_register(void);
int test_sw_register(void);
int test_sw_ib_register(void);
int test_sw_agg_register(void);
int test_tg_register(void);
int test_trace_register(void);
int test_tg_data_register(void);
int test_topo_register(void);
int test_topo_rail_register(void);
int test_toy_cc_register(void);
int test_units_register(void);
int test_cli_register(void);
int test_docs_kinds_register(void);
int test_toy_traffic_register(void);
int test_toy_switch_register(void);
int test_toy_fault_register(void);
int test_toy_trace_register(void);
int test_plot_register(void);
int test_expect_unit_register(void);

#endif
