/* CUnit suite for `fabemu plot`'s sweep arithmetic and readers
 * (tools/cli_plot_read_more.c): the mean, sample sd and Student-t 95%
 * interval over seeds against values worked out by hand, and sweep.csv's
 * RFC 4180 fields, points and metric values read back. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_plot_int.h"
#include "test.h"

/* t(0.975, df) from a printed table of Student's t (df 2: 4.303, df 4:
 * 2.776, to the digits tables give), so that the test does not use the
 * function fabemu passes. */
static double test_plot_t975(unsigned df)
{
	return df == 2 ? 4.30265272975 : df == 4 ? 2.77644510520 : NAN;
}

static void test_plot_ci_by_hand(void)
{
	/* 1..5: mean 3, s = sqrt(10 / 4) = 1.58113883, half = 2.77644511 *
	 * 1.58113883 / sqrt(5) = 2.77644511 * 0.70710678 = 1.96324316. */
	static const double a[] = { 1, 2, 3, 4, 5 };
	/* 10, 12, 17: mean 13, squares 9 + 1 + 16 = 26, s = sqrt(13) =
	 * 3.60555128, half = 4.30265273 * 3.60555128 / sqrt(3) = 4.30265273 *
	 * 2.08166600 = 8.95668590. */
	static const double b[] = { 10, 12, 17 };
	struct plot_ci ci = plot_mean_ci(a, 5, test_plot_t975);

	CU_ASSERT_DOUBLE_EQUAL(ci.mean, 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ci.sd, 1.58113883, 1e-8);
	CU_ASSERT_DOUBLE_EQUAL(ci.half, 1.96324316, 1e-7);
	ci = plot_mean_ci(b, 3, test_plot_t975);
	CU_ASSERT_DOUBLE_EQUAL(ci.mean, 13, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(ci.sd, 3.60555128, 1e-8);
	CU_ASSERT_DOUBLE_EQUAL(ci.half, 8.95668590, 1e-7);
	/* One seed: no spread to speak of, no interval. */
	ci = plot_mean_ci(b, 1, test_plot_t975);
	CU_ASSERT_DOUBLE_EQUAL(ci.mean, 10, 1e-12);
	CU_ASSERT_EQUAL(ci.sd, 0);
	CU_ASSERT_EQUAL(ci.half, 0);
}

/* @text as @dir/@name. */
static void test_plot_write(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void test_plot_sweep_csv(void)
{
	char dir[] = "/tmp/test_plot.XXXXXX", err[CFG_ERR_BYTES], path[256];
	struct plot_in in;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	test_plot_write(dir, "sweep.csv",
			"faults,seed,status,valid,goodput_gbps\n"
			"\"[a,b]\",1,ok,true,10.5\n"
			"\"[a,b]\",2,ok,false,\n"
			"\"say \"\"x\"\"\",1,failed,,7\n");
	memset(&in, 0, sizeof(in));
	CU_ASSERT_EQUAL_FATAL(plot_read(dir, 1u << PLOT_SWEEP, &in, err), 0);
	CU_ASSERT_EQUAL(in.sw.n_keys, 1);
	CU_ASSERT_STRING_EQUAL(in.sw.keys[0], "faults");
	CU_ASSERT_EQUAL(in.sw.n_metrics, 2);
	CU_ASSERT_STRING_EQUAL(in.sw.metrics[1], "goodput_gbps");
	CU_ASSERT_EQUAL_FATAL(in.sw.n_runs, 3);
	CU_ASSERT_EQUAL(in.sw.n_points, 2);
	CU_ASSERT_STRING_EQUAL(in.sw.values[0], "[a,b]");
	CU_ASSERT_STRING_EQUAL(in.sw.values[1], "say \"x\"");
	CU_ASSERT_EQUAL(in.sw.runs[1].point, 0);
	CU_ASSERT_EQUAL(in.sw.runs[0].x[0], 1);
	CU_ASSERT_EQUAL(in.sw.runs[1].x[0], 0);
	CU_ASSERT(isnan(in.sw.runs[1].x[1]));
	CU_ASSERT(isnan(in.sw.runs[2].x[0]));
	CU_ASSERT_EQUAL(in.sw.runs[2].x[1], 7);
	plot_in_free(&in);
	/* A quote left open: where, not the text. */
	test_plot_write(dir, "sweep.csv", "k,seed,status,m\n\"open,1,ok,2\n");
	memset(&in, 0, sizeof(in));
	CU_ASSERT_EQUAL(plot_read(dir, 1u << PLOT_SWEEP, &in, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "sweep.csv:2:13: a quoted field not closed on its line"));
	plot_in_free(&in);
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	unlink(path);
	rmdir(dir);
}

int test_plot_register(void)
{
	static const struct test_case tests[] = {
		{ "mean and t interval by hand", test_plot_ci_by_hand },
		{ "sweep.csv fields and values", test_plot_sweep_csv },
	};

	return test_suite("plot", tests);
}
