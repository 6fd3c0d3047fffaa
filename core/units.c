/* Quantity parsers for experiment files: "100Gbps", "2.5us", "4KiB", "30%".
 * Numbers are read exactly as decimal digits (never through strtod), so a
 * value either converts to a whole number of base units or is rejected.
 * Unit suggestions come from cfg_nearest(), the one edit-distance helper. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "units.h"

enum {
	UNITS_MAX_FRAC_DIGITS = 64, /* longer fractions are rejected */
	UNITS_MAX_UNITS = 16,       /* spellings per kind, for cfg_nearest */
	UNITS_PERCENT = 100,        /* "30%" is 30 / UNITS_PERCENT */
};

/* Exactly representable doubles: integers below 2^53. */
#define UNITS_MAX_EXACT_MANTISSA (UINT64_C(1) << 53)

/* One spelling of a unit and its size in base units. */
struct units_unit {
	const char *name; /* as written after the number */
	uint64_t mult;    /* base units (bps, ps, bytes) per unit */
	const char *hint; /* why-text suggesting this spelling */
};

#define UNITS_UNIT(n, m) { n, m, "unknown unit (did you mean '" n "'?)" }

/* A family of units and its explanations. */
struct units_kind {
	const struct units_unit *units; /* table, ends with name == NULL */
	const char *missing_unit;       /* why: number without a unit */
	const char *unknown;            /* why: no close spelling */
	const char *negative;           /* why: leading '-' */
	const char *not_whole;          /* why: not a whole base unit */
};

static const struct units_unit units_rate_units[] = {
	UNITS_UNIT("bps", 1),
	UNITS_UNIT("Kbps", UINT64_C(1000)),
	UNITS_UNIT("Mbps", UINT64_C(1000000)),
	UNITS_UNIT("Gbps", UINT64_C(1000000000)),
	UNITS_UNIT("Tbps", UINT64_C(1000000000000)),
	UNITS_UNIT("kbps", UINT64_C(1000)),
	UNITS_UNIT("b/s", 1),
	UNITS_UNIT("Kb/s", UINT64_C(1000)),
	UNITS_UNIT("kb/s", UINT64_C(1000)),
	UNITS_UNIT("Mb/s", UINT64_C(1000000)),
	UNITS_UNIT("Gb/s", UINT64_C(1000000000)),
	UNITS_UNIT("Tb/s", UINT64_C(1000000000000)),
	{ NULL, 0, NULL },
};

static const struct units_unit units_time_units[] = {
	UNITS_UNIT("ps", 1),
	UNITS_UNIT("ns", UNITS_PS_PER_NS),
	UNITS_UNIT("us", UNITS_PS_PER_US),
	UNITS_UNIT("ms", UNITS_PS_PER_MS),
	UNITS_UNIT("s", UNITS_PS_PER_S),
	UNITS_UNIT("\xc2\xb5s", UNITS_PS_PER_US), /* U+00B5 micro sign */
	UNITS_UNIT("\xce\xbcs", UNITS_PS_PER_US), /* U+03BC greek mu */
	{ NULL, 0, NULL },
};

static const struct units_unit units_size_units[] = {
	UNITS_UNIT("B", 1),
	UNITS_UNIT("KB", UINT64_C(1000)),
	UNITS_UNIT("MB", UINT64_C(1000000)),
	UNITS_UNIT("GB", UINT64_C(1000000000)),
	UNITS_UNIT("TB", UINT64_C(1000000000000)),
	UNITS_UNIT("KiB", UINT64_C(1) << 10),
	UNITS_UNIT("MiB", UINT64_C(1) << 20),
	UNITS_UNIT("GiB", UINT64_C(1) << 30),
	UNITS_UNIT("TiB", UINT64_C(1) << 40),
	UNITS_UNIT("kB", UINT64_C(1000)),
	{ NULL, 0, NULL },
};

static const struct units_kind units_rate = {
	.units = units_rate_units,
	.missing_unit = "missing unit: write e.g. 100Gbps",
	.unknown = "unknown unit (valid: bps, Kbps, Mbps, Gbps, Tbps)",
	.negative = "negative rate",
	.not_whole = "not a whole number of bits per second",
};

static const struct units_kind units_time = {
	.units = units_time_units,
	.missing_unit = "missing unit: write e.g. 1us",
	.unknown = "unknown unit (valid: ps, ns, us, ms, s)",
	.negative = "negative delay",
	.not_whole = "not a whole number of picoseconds",
};

static const struct units_kind units_size = {
	.units = units_size_units,
	.missing_unit = "missing unit: write e.g. 4KiB or 1500B",
	.unknown = "unknown unit (valid: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)",
	.negative = "negative size",
	.not_whole = "not a whole number of bytes",
};

/* A decimal number as written: integer part and the fraction's digits. */
struct units_num {
	uint64_t int_part;   /* digits before '.' */
	const char *frac;    /* first digit after '.', or NULL */
	unsigned n_frac;     /* fraction digits, trailing zeros dropped */
	const char *rest;    /* first character after the number */
};

static bool units_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Read "DIGITS[.DIGITS]" at the start of @s. */
static int units_scan(const char *s, const struct units_kind *k, struct units_num *num,
		      const char **why)
{
	const char *p = s;

	if (*s == '\0') {
		*why = "empty value";
		return -EINVAL;
	}
	if (*s == '-') {
		*why = k->negative;
		return -EINVAL;
	}
	if (*s == '.') {
		*why = "missing digits before '.' (write e.g. 0.5)";
		return -EINVAL;
	}
	if (!units_is_digit(*s)) {
		*why = "does not start with a number";
		return -EINVAL;
	}
	num->int_part = 0;
	for (; units_is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (num->int_part > (UINT64_MAX - d) / 10) {
			*why = "number too large";
			return -EINVAL;
		}
		num->int_part = num->int_part * 10 + d;
	}
	num->frac = NULL;
	num->n_frac = 0;
	if (*p == '.') {
		const char *f = ++p;
		unsigned n = 0;

		if (!units_is_digit(*p)) {
			*why = "missing digits after '.'";
			return -EINVAL;
		}
		for (; units_is_digit(*p); p++)
			if (*p != '0')
				n = (unsigned)(p - f) + 1;
		if (n > UNITS_MAX_FRAC_DIGITS) {
			*why = "too many digits after '.'";
			return -EINVAL;
		}
		num->frac = f;
		num->n_frac = n;
	}
	num->rest = p;
	return 0;
}

/* Find the unit spelled @u, or explain why there is none. */
static const struct units_unit *units_find(const struct units_kind *k, const char *u,
					   const char **why)
{
	const char *names[UNITS_MAX_UNITS + 1];
	const char *near;
	unsigned i;

	if (*u == '\0') {
		*why = k->missing_unit;
		return NULL;
	}
	if (*u == ' ' || *u == '\t') {
		*why = "no space allowed between the number and the unit";
		return NULL;
	}
	if ((*u == 'e' || *u == 'E') && (units_is_digit(u[1]) || u[1] == '-' || u[1] == '+')) {
		*why = "exponents are not supported: write the number with a unit prefix";
		return NULL;
	}
	for (i = 0; i < UNITS_MAX_UNITS && k->units[i].name; i++) {
		if (!strcmp(k->units[i].name, u))
			return &k->units[i];
		names[i] = k->units[i].name;
	}
	names[i] = NULL;
	if (strpbrk(u, " \t")) {
		*why = "unexpected text after the unit";
		return NULL;
	}
	/* A prefix in the wrong case ("mbps") is the likeliest slip. */
	near = NULL;
	for (i = 0; !near && names[i]; i++)
		if (!strcasecmp(names[i], u))
			near = names[i];
	if (!near)
		near = cfg_nearest(u, names);
	*why = k->unknown;
	for (i = 0; near && k->units[i].name; i++)
		if (k->units[i].name == near)
			*why = k->units[i].hint;
	return NULL;
}

/* @num times @mult, exactly: 0, or -EINVAL if not whole or too large. The
 * fraction is multiplied as a decimal digit string, so no digit is lost. */
static int units_scale(const struct units_num *num, uint64_t mult, uint64_t *out,
		       const struct units_kind *k, const char **why)
{
	uint8_t digits[UNITS_MAX_FRAC_DIGITS];
	uint64_t carry = 0;
	unsigned i;

	for (i = 0; i < num->n_frac; i++)
		digits[i] = (uint8_t)(num->frac[i] - '0');
	/* Multiply 0.d1d2..dn by mult from the last digit: the carry out of the
	 * first digit is the whole part; leftover digits are a remainder. */
	for (i = num->n_frac; i-- > 0;) {
		uint64_t v = digits[i] * mult + carry;

		digits[i] = (uint8_t)(v % 10);
		carry = v / 10;
	}
	for (i = 0; i < num->n_frac; i++) {
		if (digits[i]) {
			*why = k->not_whole;
			return -EINVAL;
		}
	}
	if (num->int_part > (UINT64_MAX - carry) / mult) {
		*why = "value too large";
		return -EINVAL;
	}
	*out = num->int_part * mult + carry;
	return 0;
}

static int units_parse(const char *s, const struct units_kind *k, uint64_t *out, const char **why)
{
	const struct units_unit *u;
	struct units_num num;
	int rc;

	if (!s) {
		*why = "empty value";
		return -EINVAL;
	}
	rc = units_scan(s, k, &num, why);
	if (rc)
		return rc;
	u = units_find(k, num.rest, why);
	if (!u)
		return -EINVAL;
	return units_scale(&num, u->mult, out, k, why);
}

int units_parse_rate(const char *s, uint64_t *bps, const char **why)
{
	return units_parse(s, &units_rate, bps, why);
}

int units_parse_time(const char *s, uint64_t *ps, const char **why)
{
	uint64_t v;
	int rc = units_parse(s, &units_time, &v, why);

	if (rc)
		return rc;
	if (v > UNITS_TIME_MAX_PS) {
		*why = "above the clock's horizon: times are at most 1000000s (about 11.6 days)";
		return -EINVAL;
	}
	*ps = v;
	return 0;
}

int units_parse_size(const char *s, uint64_t *bytes, const char **why)
{
	return units_parse(s, &units_size, bytes, why);
}

/* The unit is optional here: "0.3" or "30%". The range is the caller's. */
int units_parse_fraction(const char *s, double *frac, const char **why)
{
	static const struct units_kind k = {
		.negative = "negative fraction",
	};
	uint64_t mantissa;
	double scale = 1;
	struct units_num num;
	unsigned i;
	int rc;

	if (!s) {
		*why = "empty value";
		return -EINVAL;
	}
	rc = units_scan(s, &k, &num, why);
	if (rc)
		return rc;
	if (*num.rest == ' ' || *num.rest == '\t') {
		*why = "no space allowed before '%'";
		return -EINVAL;
	}
	if (*num.rest == '%') {
		scale = UNITS_PERCENT;
		num.rest++;
	}
	if (*num.rest != '\0') {
		*why = "unexpected text after the number (write e.g. 30% or 0.3)";
		return -EINVAL;
	}
	/* Digits as one integer over a power of ten: both exact in a double,
	 * so the one division rounds correctly. */
	mantissa = num.int_part;
	for (i = 0; i < num.n_frac; i++) {
		if (mantissa >= UNITS_MAX_EXACT_MANTISSA / 10) {
			*why = "too many digits";
			return -EINVAL;
		}
		mantissa = mantissa * 10 + (uint64_t)(num.frac[i] - '0');
		scale *= 10;
	}
	if (mantissa >= UNITS_MAX_EXACT_MANTISSA) {
		*why = "number too large";
		return -EINVAL;
	}
	*frac = (double)mantissa / scale;
	return 0;
}

void units_fmt_rate(char *buf, unsigned len, uint64_t bps)
{
	static const struct {
		const char *name;
		uint64_t mult;
		int digits; /* decimal digits of mult - 1 */
	} fmts[] = {
		{ "Tbps", UINT64_C(1000000000000), 12 },
		{ "Gbps", UINT64_C(1000000000), 9 },
		{ "Mbps", UINT64_C(1000000), 6 },
		{ "Kbps", UINT64_C(1000), 3 },
	};
	char frac[16];
	unsigned i;
	int n;

	if (!buf || !len)
		return;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		uint64_t rem = bps % fmts[i].mult;

		if (bps < fmts[i].mult)
			continue;
		if (!rem) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(bps / fmts[i].mult),
				 fmts[i].name);
			return;
		}
		snprintf(frac, sizeof(frac), "%0*llu", fmts[i].digits, (unsigned long long)rem);
		for (n = (int)strlen(frac); n > 0 && frac[n - 1] == '0'; n--)
			frac[n - 1] = '\0';
		snprintf(buf, len, "%llu.%s%s", (unsigned long long)(bps / fmts[i].mult), frac,
			 fmts[i].name);
		return;
	}
	snprintf(buf, len, "%llubps", (unsigned long long)bps);
}
