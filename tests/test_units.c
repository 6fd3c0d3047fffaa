/* CUnit suite for core/units: the strict quantity parsers (exact values for
 * good input, a reason for every class of bad input), rate formatting and
 * the exact serialisation-time carry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "units.h"

enum units_test_kind {
	UT_RATE,
	UT_TIME,
	UT_SIZE,
};

static int units_test_parse(enum units_test_kind kind, const char *s, uint64_t *v, const char **why)
{
	switch (kind) {
	case UT_RATE:
		return units_parse_rate(s, v, why);
	case UT_TIME:
		return units_parse_time(s, v, why);
	case UT_SIZE:
		return units_parse_size(s, v, why);
	}
	return -EINVAL;
}

static void test_units_good(void)
{
	static const struct {
		enum units_test_kind kind;
		const char *text;
		uint64_t want;
	} cases[] = {
		{ UT_RATE, "100Gbps", UINT64_C(100000000000) },
		{ UT_RATE, "12.5Gbps", UINT64_C(12500000000) },
		{ UT_RATE, "800Mbps", UINT64_C(800000000) },
		{ UT_RATE, "1bps", 1 },
		{ UT_RATE, "1Kbps", 1000 },
		{ UT_RATE, "1kbps", 1000 },
		{ UT_RATE, "25Gb/s", UINT64_C(25000000000) },
		{ UT_RATE, "1.6Tbps", UINT64_C(1600000000000) },
		{ UT_RATE, "0.000000001Gbps", 1 },
		{ UT_RATE, "2.50000000000000000000Gbps", UINT64_C(2500000000) },
		{ UT_RATE, "0Gbps", 0 },
		{ UT_RATE, "18446744073709551615bps", UINT64_MAX },
		{ UT_RATE, "18446744.073709551615Tbps", UINT64_MAX },
		{ UT_TIME, "2.5us", 2500000 },
		{ UT_TIME, "1ps", 1 },
		{ UT_TIME, "1.001ns", 1001 },
		{ UT_TIME, "3ms", UINT64_C(3000000000) },
		{ UT_TIME, "1s", UINT64_C(1000000000000) },
		{ UT_TIME, "0s", 0 },
		{ UT_TIME, "1\xc2\xb5s", 1000000 },
		{ UT_TIME, "1\xce\xbcs", 1000000 },
		{ UT_TIME, "0.000001us", 1 },
		{ UT_TIME, "1000000s", UNITS_TIME_MAX_PS },   /* the clock's horizon */
		{ UT_TIME, "999999.999999999999s", UNITS_TIME_MAX_PS - 1 },
		{ UT_SIZE, "1500B", 1500 },
		{ UT_SIZE, "4KiB", 4096 },
		{ UT_SIZE, "1.5KiB", 1536 },
		{ UT_SIZE, "0.5KiB", 512 },
		{ UT_SIZE, "9KB", 9000 },
		{ UT_SIZE, "1kB", 1000 },
		{ UT_SIZE, "2MB", 2000000 },
		{ UT_SIZE, "1MiB", UINT64_C(1) << 20 },
		{ UT_SIZE, "1GiB", UINT64_C(1) << 30 },
		{ UT_SIZE, "3GB", UINT64_C(3000000000) },
		{ UT_SIZE, "1TiB", UINT64_C(1) << 40 },
		{ UT_SIZE, "1TB", UINT64_C(1000000000000) },
		/* 2^-25 exactly: long fractions are multiplied digit by digit */
		{ UT_SIZE, "0.0000000298023223876953125TiB", UINT64_C(32768) },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		uint64_t v = 0;
		int rc = units_test_parse(cases[i].kind, cases[i].text, &v, &why);

		if (rc || v != cases[i].want)
			fprintf(stderr, "\n  '%s': rc %d, %llu (%s)\n", cases[i].text, rc,
				(unsigned long long)v, why ? why : "");
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_EQUAL(v, cases[i].want);
	}
}

static void test_units_bad(void)
{
	static const struct {
		enum units_test_kind kind;
		const char *text;
		const char *why; /* expected part of the reason */
	} cases[] = {
		{ UT_RATE, "", "empty" },
		{ UT_RATE, "100", "missing unit: write e.g. 100Gbps" },
		{ UT_RATE, "100Gbs", "unknown unit (did you mean 'Gbps'?)" },
		{ UT_RATE, "100mbps", "did you mean 'Mbps'" },
		{ UT_RATE, "100GBPS", "did you mean 'Gbps'" },
		{ UT_RATE, "100furlongs", "unknown unit (valid: bps, Kbps" },
		{ UT_RATE, "100 Gbps", "no space" },
		{ UT_RATE, "100Gbps ", "after the unit" },
		{ UT_RATE, "100Gbps x", "after the unit" },
		{ UT_RATE, "-1Gbps", "negative" },
		{ UT_RATE, "+1Gbps", "does not start with a number" },
		{ UT_RATE, "nan", "does not start with a number" },
		{ UT_RATE, "inf", "does not start with a number" },
		{ UT_RATE, "Gbps", "does not start with a number" },
		{ UT_RATE, "1e9bps", "exponents" },
		{ UT_RATE, ".5Gbps", "before '.'" },
		{ UT_RATE, "5.Gbps", "after '.'" },
		{ UT_RATE, "1.5bps", "whole number of bits" },
		{ UT_RATE, "18446744073709551616bps", "too large" },
		{ UT_RATE, "20000000Tbps", "too large" },
		{ UT_RATE, "18446744.073709551616Tbps", "too large" },
		{ UT_TIME, "0.1ps", "whole number of picoseconds" },
		{ UT_TIME, "1.0000001us", "whole number of picoseconds" },
		{ UT_TIME, "-1us", "negative delay" },
		{ UT_TIME, "1000000.000000000001s", "clock's horizon" },
		{ UT_TIME, "5000000s", "at most 1000000s" },
		{ UT_TIME, "18446744.073709551615s", "clock's horizon" },
		{ UT_TIME, "5", "missing unit: write e.g. 1us" },
		{ UT_TIME, "1Us", "did you mean 'us'" },
		{ UT_TIME, "1MS", "did you mean 'ms'" },
		{ UT_TIME, "1 us", "no space" },
		{ UT_TIME, "1min", "unknown unit" },
		{ UT_TIME, "18446744.073709551616s", "too large" },
		{ UT_SIZE, "1.5B", "whole number of bytes" },
		{ UT_SIZE, "4kib", "did you mean 'KiB'" },
		{ UT_SIZE, "4Kib", "did you mean 'KiB'" },
		{ UT_SIZE, "4K", "unknown unit" },
		{ UT_SIZE, "1500", "missing unit" },
		{ UT_SIZE, "-1KB", "negative size" },
		{ UT_SIZE, "17TiB00", "unknown unit" },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = NULL;
		uint64_t v = 12345;
		int rc = units_test_parse(cases[i].kind, cases[i].text, &v, &why);

		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT_EQUAL(v, 12345); /* untouched on error */
		CU_ASSERT_PTR_NOT_NULL_FATAL(why);
		if (!strstr(why, cases[i].why))
			fprintf(stderr, "\n  '%s': got \"%s\", want \"%s\"\n", cases[i].text, why,
				cases[i].why);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, cases[i].why));
	}
}

static void test_units_fraction(void)
{
	static const struct {
		const char *text;
		double want;
	} good[] = {
		{ "30%", 0.3 }, { "0.3", 0.3 }, { "0.25", 0.25 }, { "100%", 1.0 },
		{ "0", 0.0 },   { "1", 1.0 },   { "12.5%", 0.125 }, { "33.3%", 0.333 },
		{ "0%", 0.0 },  { "150%", 1.5 },
	};
	static const struct {
		const char *text;
		const char *why;
	} bad[] = {
		{ "", "empty" },
		{ "30 %", "no space" },
		{ "-0.1", "negative" },
		{ "abc", "does not start with a number" },
		{ "30%%", "unexpected text after the number" },
		{ "0.3x", "unexpected text after the number" },
		{ "1e-3", "unexpected text after the number" },
		{ "12345678901234567890", "too large" },
		{ "0.12345678901234567890", "too many digits" },
	};
	unsigned i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const char *why = NULL;
		double v = -1;

		CU_ASSERT_EQUAL(units_parse_fraction(good[i].text, &v, &why), 0);
		CU_ASSERT_EQUAL(v, good[i].want); /* exact: correctly rounded */
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;
		double v = -1;

		CU_ASSERT_EQUAL(units_parse_fraction(bad[i].text, &v, &why), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(why);
		if (!strstr(why, bad[i].why))
			fprintf(stderr, "\n  '%s': got \"%s\", want \"%s\"\n", bad[i].text, why,
				bad[i].why);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, bad[i].why));
	}
}

static void test_units_fmt_rate(void)
{
	static const struct {
		uint64_t bps;
		const char *want;
	} cases[] = {
		{ UINT64_C(100000000000), "100Gbps" },
		{ UINT64_C(12500000000), "12.5Gbps" },
		{ UINT64_C(800000000), "800Mbps" },
		{ UINT64_C(1000000000000), "1Tbps" },
		{ UINT64_C(1234567), "1.234567Mbps" },
		{ UINT64_C(1000), "1Kbps" },
		{ 999, "999bps" },
		{ 0, "0bps" },
		{ UINT64_MAX, "18446744.073709551615Tbps" },
	};
	char buf[32];
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why;
		uint64_t back = 0;

		units_fmt_rate(buf, sizeof(buf), cases[i].bps);
		CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
		/* What we print, we read back to the same value. */
		CU_ASSERT_EQUAL(units_parse_rate(buf, &back, &why), 0);
		CU_ASSERT_EQUAL(back, cases[i].bps);
	}
	units_fmt_rate(buf, 4, UINT64_C(100000000000));
	CU_ASSERT_STRING_EQUAL(buf, "100");
}

static void test_units_ser_ps(void)
{
	uint64_t rem = 0, total_ps = 0;
	unsigned i;

	/* 64 B at 100 Gb/s is 5.12 ns exactly. */
	CU_ASSERT_EQUAL(units_ser_ps(64, UINT64_C(100000000000), &rem), 5120);
	CU_ASSERT_EQUAL(rem, 0);
	/* 1 B at 3 b/s is 8/3 s: three frames carry the remainder to exactly 8 s. */
	for (i = 0; i < 3; i++)
		total_ps += units_ser_ps(1, 3, &rem);
	CU_ASSERT_EQUAL(total_ps, 8 * UNITS_PS_PER_S);
	CU_ASSERT_EQUAL(rem, 0);
	CU_ASSERT_EQUAL(units_us_to_ps(3), 3000000);
	CU_ASSERT_EQUAL(units_ns_to_ps(7), 7000);
}

int test_units_register(void)
{
	static const struct test_case tests[] = {
		{ "good quantities", test_units_good },
		{ "bad quantities", test_units_bad },
		{ "fractions", test_units_fraction },
		{ "rate formatting", test_units_fmt_rate },
		{ "serialisation time", test_units_ser_ps },
	};

	return test_suite("units", tests);
}
