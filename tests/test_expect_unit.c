/* CUnit suite for units in expect bounds (run/exp_expect_unit.c): a value
 * or tolerance written with a unit becomes a number in the unit of its
 * metric (docs/results.md), a bare number keeps its meaning, and a unit of
 * another dimension is bad input at the bound's FILE:LINE:COL. */
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "exp.h"
#include "test.h"

/* One assertion @a on a small leaf-spine: 0 and its value and tolerance,
 * or -EINVAL and the message in @err. */
static int teu_load(const char *a, double *value, double *tol, char err[CFG_ERR_BYTES])
{
	char text[1024];
	struct exp *e = NULL;
	int rc;

	snprintf(text, sizeof(text),
		 "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}\n"
		 "traffic: [{kind: permutation, size: 64KiB}]\n"
		 "outputs: {series: {ports: ['h0:0'], interval: 1us}}\n"
		 "expect: [%s]\n", a);
	err[0] = 0;
	rc = exp_load_string("x.yaml", text, NULL, 0, &e, err);
	if (rc == 0) {
		*value = e->expects[0].value;
		*tol = e->expects[0].tolerance;
	}
	exp_free(e);
	return rc;
}

/* The conversions, each by hand from the definitions: 10 us = 10^4 ns,
 * 1 MB = 10^6 bytes (1 MiB = 2^20), 1.5 ms = 1.5 x 10^6 ns, 90 Gb/s in
 * GB/s = 90/8, 2.5 us in µs = 2.5, 100 Gb/s in Gb/s = 100. */
static void test_expect_units_convert(void)
{
	static const struct {
		const char *a;   /* the assertion */
		double value;    /* in the metric's unit */
		double tol;      /* the same */
	} cases[] = {
		{ "{metric: flows.fct_ns.p99, op: '<', value: 10us}", 1e4, 0 },
		{ "{metric: flows.fct_ns.p99, op: '<', value: 10us, tolerance: 500ns}", 1e4, 500 },
		{ "{metric: flows.fct_ns.p99, op: '<', value: 10us, tolerance: 10%}", 1e4, 1e3 },
		{ "{metric: sim_time_ns, op: '<', value: 1.5ms}", 1.5e6, 0 },
		{ "{metric: bytes.offered, op: '==', value: 1MB}", 1e6, 0 },
		{ "{metric: flows.bytes.max, op: '==', value: 1MiB, tolerance: 1KiB}", 1048576, 1024 },
		{ "{metric: switch.buffer_peak_bytes, op: '<', value: 64KiB}", 65536, 0 },
		{ "{metric: goodput_gbps, op: '>', value: 100Gbps}", 100, 0 },
		{ "{metric: workloads.w.goodput_gbps, op: '>', value: 25Gbps}", 25, 0 },
		{ "{metric: collectives.ar.busbw_GBps, op: '>', value: 90Gbps}", 11.25, 0 },
		{ "{metric: collectives.ar.time_us, op: '<', value: 2500ns}", 2.5, 0 },
		{ "{series: queue_bytes, port: 'h0:0', op: '<', value: 4KB}", 4000, 0 },
		/* A bare number keeps its meaning: the metric's unit. */
		{ "{metric: flows.fct_ns.p99, op: '<', value: 10, tolerance: 3}", 10, 3 },
		{ "{metric: drops.total, op: '==', value: 0}", 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES];
		double v = -1, t = -1;

		CU_ASSERT_EQUAL_FATAL(teu_load(cases[i].a, &v, &t, err), 0);
		if (v != cases[i].value || t != cases[i].tol)
			fprintf(stderr, "\n  %s: value %g tolerance %g\n", cases[i].a, v, t);
		CU_ASSERT_DOUBLE_EQUAL(v, cases[i].value, 1e-9 * cases[i].value);
		CU_ASSERT_DOUBLE_EQUAL(t, cases[i].tol, 1e-9 * cases[i].tol);
	}
}

/* A unit of another dimension, on a count, with of, or on an unknown
 * metric: bad input at the bound (line 4, the bound's column). */
static void test_expect_units_refused(void)
{
	static const struct {
		const char *a;   /* the assertion */
		const char *msg; /* the start of the message */
	} cases[] = {
		{ "{metric: flows.fct_ns.p99, op: '<', value: 1MB}",
		  "x.yaml:4:53: '1MB' is a size, but flows.fct_ns.p99 is in ns" },
		{ "{metric: bytes.offered, op: '<', value: 10, tolerance: 1us}",
		  "x.yaml:4:65: '1us' is a time, but bytes.offered is in bytes" },
		{ "{metric: drops.total, op: '<', value: 10us}",
		  "x.yaml:4:48: '10us' is a time, but drops.total has no unit" },
		{ "{metric: flows.fct_ns.p99, op: '<', value: 2us, of: sim_time_ns}",
		  "x.yaml:4:53: with 'of', value is a factor: '2us' takes no unit" },
		{ "{metric: drops.totl, op: '<', value: 1us}",
		  "x.yaml:4:47: '1us' has a unit, but 'drops.totl' is not a metric" },
		{ "{series: queue_bytes, port: 'h0:0', op: '<', value: 1us}",
		  "x.yaml:4:62: '1us' is a time, but series.queue_bytes@h0:0 is in bytes" },
		/* Not a quantity either: the number reader's message, as before. */
		{ "{metric: flows.fct_ns.p99, op: '<', value: 2xyz}",
		  "x.yaml:4:53: expected a number" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES];
		double v, t;

		CU_ASSERT_NOT_EQUAL(teu_load(cases[i].a, &v, &t, err), 0);
		if (strncmp(err, cases[i].msg, strlen(cases[i].msg)) != 0)
			fprintf(stderr, "\n  %s: got '%s'\n", cases[i].a, err);
		CU_ASSERT_EQUAL(strncmp(err, cases[i].msg, strlen(cases[i].msg)), 0);
	}
}

int test_expect_unit_register(void)
{
	CU_pSuite s = CU_add_suite("expect_unit", NULL, NULL);

	if (!s || !CU_add_test(s, "units converted into the metric's", test_expect_units_convert) ||
	    !CU_add_test(s, "units of another dimension refused", test_expect_units_refused))
		return -1;
	return 0;
}
