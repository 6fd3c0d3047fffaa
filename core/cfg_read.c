/* Configuration readers: map lookup, key checks with suggestions, and the
 * typed readers that turn one node into a checked value or an error
 * "FILE:LINE:COL: message" naming the accepted form. Also the message
 * helpers the loader (cfg.c) shares through cfg_int.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_int.h"
#include "units.h"

enum {
	CFG_NEAREST_MAX = 64, /* longest word cfg_nearest compares */
};

static void cfg_verrorf(char err[CFG_ERR_BYTES], const struct cfg_mark *m, const char *fmt, va_list ap)
{
	int n = 0, r;

	if (!err)
		return;
	err[0] = '\0';
	if (m && m->file)
		n = snprintf(err, CFG_ERR_BYTES, "%s:%u:%u: ", m->file, m->line, m->col);
	if (n < 0)
		n = 0;
	if (n >= CFG_ERR_BYTES - 1)
		n = CFG_ERR_BYTES - 1;
	r = vsnprintf(err + n, CFG_ERR_BYTES - (size_t)n, fmt, ap);
	if (r < 0 || n + r >= CFG_ERR_BYTES)
		memcpy(err + CFG_ERR_BYTES - 4, "...", 4);
}

void cfg_errorf_mark(char err[CFG_ERR_BYTES], const struct cfg_mark *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cfg_verrorf(err, m, fmt, ap);
	va_end(ap);
}

void cfg_errorf(char err[CFG_ERR_BYTES], const struct cfg_node *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cfg_verrorf(err, at ? &at->mark : NULL, fmt, ap);
	va_end(ap);
}

const char *cfg_quote(const char *s, char buf[CFG_QUOTE_BYTES])
{
	enum { KEEP = CFG_QUOTE_BYTES - 4 };
	size_t i;

	for (i = 0; s[i] && i < KEEP; i++)
		buf[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
	if (s[i]) {
		while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
			i--;
		memcpy(buf + i, "...", 4);
	} else {
		buf[i] = '\0';
	}
	return buf;
}

const char *cfg_describe(const struct cfg_node *n, char buf[CFG_DESCRIBE_BYTES])
{
	char q[CFG_QUOTE_BYTES];

	switch (n->type) {
	case CFG_NULL:
		return "nothing";
	case CFG_MAP:
		return "a map";
	case CFG_SEQ:
		return "a list";
	case CFG_SCALAR:
		break;
	}
	/* A value where a map or a list belongs may be a whole file that is
	 * no YAML (a password file given as the experiment): quoted only when
	 * it is a short plain word, else described, its text not shown. */
	if (strlen(n->str) <= CFG_DESCRIBE_WORD_BYTES &&
	    strspn(n->str, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") ==
		    strlen(n->str)) {
		snprintf(buf, CFG_DESCRIBE_BYTES, "'%s'", cfg_quote(n->str, q));
		return buf;
	}
	snprintf(buf, CFG_DESCRIBE_BYTES, "a text of %zu bytes (not shown)", strlen(n->str));
	return buf;
}

static const char *cfg_type_name(enum cfg_type type)
{
	switch (type) {
	case CFG_NULL:
		return "nothing";
	case CFG_SCALAR:
		return "a value";
	case CFG_MAP:
		return "a map";
	case CFG_SEQ:
		return "a list";
	}
	return "?";
}

/* ---- lookup and checks ---- */

const struct cfg_node *cfg_get(const struct cfg_node *map, const char *key)
{
	uint32_t i;

	if (!map || map->type != CFG_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i]->str, key))
			return map->items[i];
	return NULL;
}

/* Levenshtein distance, or SIZE_MAX when a word is too long to compare. */
static size_t cfg_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[CFG_NEAREST_MAX + 1];

	if (la > CFG_NEAREST_MAX || lb > CFG_NEAREST_MAX)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *cfg_nearest(const char *word, const char *const *choices)
{
	size_t len = strlen(word), limit = len / 3 > 2 ? len / 3 : 2;
	size_t best_d = SIZE_MAX, d;
	const char *best = NULL;

	for (; choices && *choices; choices++) {
		d = cfg_distance(word, *choices);
		if (d < best_d) {
			best_d = d;
			best = *choices;
		}
	}
	/* Replacing every letter is no suggestion at all ("x" -> "y"). */
	if (best_d > limit || (best_d >= len && best_d != 0))
		return NULL;
	return best;
}

/* "a, b, c" into @buf, cut with "..." when long. */
static const char *cfg_list(const char *const *names, char *buf, size_t size)
{
	size_t used = 0;
	int n;

	buf[0] = '\0';
	for (; *names && used < size; names++) {
		n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", *names);
		if (n < 0 || (size_t)n >= size - used) {
			memcpy(buf + size - 4, "...", 4);
			break;
		}
		used += (size_t)n;
	}
	return buf;
}

int cfg_check_keys(const struct cfg_node *map, const char *const *allowed, char err[CFG_ERR_BYTES])
{
	char q[CFG_QUOTE_BYTES], valid[CFG_ERR_BYTES / 2];
	const char *const *a;
	const char *near;
	uint32_t i;
	int rc;

	rc = cfg_want(map, CFG_MAP, "section", err);
	if (rc)
		return rc;
	for (i = 0; i < map->n; i++) {
		const struct cfg_node *k = map->keys[i];

		for (a = allowed; *a && strcmp(*a, k->str); a++)
			;
		if (*a)
			continue;
		near = cfg_nearest(k->str, allowed);
		if (near)
			cfg_errorf(err, k, "unknown key '%s' (did you mean '%s'?)",
				   cfg_quote(k->str, q), near);
		else
			cfg_errorf(err, k, "unknown key '%s' (valid: %s)", cfg_quote(k->str, q),
				   cfg_list(allowed, valid, sizeof(valid)));
		return -EINVAL;
	}
	return 0;
}

int cfg_want(const struct cfg_node *n, enum cfg_type type, const char *what,
	     char err[CFG_ERR_BYTES])
{
	char d[CFG_DESCRIBE_BYTES];

	if (!n) {
		cfg_errorf(err, NULL, "missing %s", what);
		return -EINVAL;
	}
	if (n->type == type)
		return 0;
	cfg_errorf(err, n, "%s: expected %s, got %s", what, cfg_type_name(type),
		   cfg_describe(n, d));
	return -EINVAL;
}

/* ---- typed readers ---- */

/* The text of scalar @n, or an error naming @expected. */
static const char *cfg_text(const struct cfg_node *n, const char *expected, char err[CFG_ERR_BYTES])
{
	char d[CFG_DESCRIBE_BYTES];

	if (!n) {
		cfg_errorf(err, NULL, "missing value: expected %s", expected);
		return NULL;
	}
	if (n->type != CFG_SCALAR) {
		cfg_errorf(err, n, "expected %s, got %s", expected, cfg_describe(n, d));
		return NULL;
	}
	return n->str;
}

static bool cfg_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int cfg_u64(const struct cfg_node *n, uint64_t min, uint64_t max, uint64_t *out,
	    char err[CFG_ERR_BYTES])
{
	static const char expected[] = "a whole number such as 42";
	const char *s = cfg_text(n, expected, err), *p;
	char q[CFG_QUOTE_BYTES];
	uint64_t v = 0;

	if (!s)
		return -EINVAL;
	if (!cfg_all_digits(s)) {
		cfg_errorf(err, n, "expected %s, got '%s'", expected, cfg_quote(s, q));
		return -EINVAL;
	}
	for (p = s; *p; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10) {
			cfg_errorf(err, n, "number '%s' is too large", cfg_quote(s, q));
			return -EINVAL;
		}
		v = v * 10 + d;
	}
	if (v < min || v > max) {
		cfg_errorf(err, n, "%llu is %s the %s %llu", (unsigned long long)v,
			   v < min ? "below" : "above", v < min ? "minimum" : "maximum",
			   (unsigned long long)(v < min ? min : max));
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* [-]DIGITS[.DIGITS][(e|E)[+|-]DIGITS]: no hex, inf, nan or spaces. */
static bool cfg_is_decimal(const char *s)
{
	if (*s == '-')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		if (*++s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

int cfg_double(const struct cfg_node *n, double min, double max, double *out,
	       char err[CFG_ERR_BYTES])
{
	static const char expected[] = "a number such as 0.5";
	const char *s = cfg_text(n, expected, err);
	char q[CFG_QUOTE_BYTES];
	double v;

	if (!s)
		return -EINVAL;
	if (!cfg_is_decimal(s)) {
		cfg_errorf(err, n, "expected %s, got '%s'", expected, cfg_quote(s, q));
		return -EINVAL;
	}
	v = strtod(s, NULL);
	if (!isfinite(v)) {
		cfg_errorf(err, n, "number '%s' is too large", cfg_quote(s, q));
		return -EINVAL;
	}
	if (v < min || v > max) {
		cfg_errorf(err, n, "%g is %s the %s %g", v, v < min ? "below" : "above",
			   v < min ? "minimum" : "maximum", v < min ? min : max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cfg_bool(const struct cfg_node *n, bool *out, char err[CFG_ERR_BYTES])
{
	static const char *const truthy[] = { "yes", "on", "y", "true", "1", NULL };
	static const char *const falsy[] = { "no", "off", "n", "false", "0", NULL };
	const char *s = cfg_text(n, "true or false", err);
	const char *const *w;
	char q[CFG_QUOTE_BYTES];

	if (!s)
		return -EINVAL;
	if (!strcmp(s, "true") || !strcmp(s, "false")) {
		*out = s[0] == 't';
		return 0;
	}
	for (w = truthy; *w && strcasecmp(*w, s); w++)
		;
	if (*w) {
		cfg_errorf(err, n, "expected true or false, got '%s' (write true: YAML 1.2 has no yes/on)",
			   cfg_quote(s, q));
		return -EINVAL;
	}
	for (w = falsy; *w && strcasecmp(*w, s); w++)
		;
	if (*w) {
		cfg_errorf(err, n, "expected true or false, got '%s' (write false: YAML 1.2 has no no/off)",
			   cfg_quote(s, q));
		return -EINVAL;
	}
	cfg_errorf(err, n, "expected true or false, got '%s'", cfg_quote(s, q));
	return -EINVAL;
}

int cfg_str(const struct cfg_node *n, const char **out, char err[CFG_ERR_BYTES])
{
	const char *s = cfg_text(n, "a string", err);

	if (!s)
		return -EINVAL;
	*out = s;
	return 0;
}

/* Run a units parser, reporting "expected @expected, got 'x': why". */
static int cfg_quantity(const struct cfg_node *n, const char *expected,
			int (*parse)(const char *, uint64_t *, const char **), uint64_t *out,
			char err[CFG_ERR_BYTES])
{
	const char *s = cfg_text(n, expected, err), *why = "";
	char q[CFG_QUOTE_BYTES];

	if (!s)
		return -EINVAL;
	if (parse(s, out, &why)) {
		cfg_errorf(err, n, "expected %s, got '%s': %s", expected, cfg_quote(s, q), why);
		return -EINVAL;
	}
	return 0;
}

int cfg_rate(const struct cfg_node *n, uint64_t min_bps, uint64_t *bps, char err[CFG_ERR_BYTES])
{
	char got[CFG_QUOTE_BYTES], lim[CFG_QUOTE_BYTES];
	uint64_t v;
	int rc;

	rc = cfg_quantity(n, "a rate such as 100Gbps", units_parse_rate, &v, err);
	if (rc)
		return rc;
	if (!v) {
		cfg_errorf(err, n, "rate must be above zero, got '%s'", cfg_quote(n->str, got));
		return -EINVAL;
	}
	if (v < min_bps) {
		units_fmt_rate(got, sizeof(got), v);
		units_fmt_rate(lim, sizeof(lim), min_bps);
		cfg_errorf(err, n, "rate %s is below the minimum %s", got, lim);
		return -EINVAL;
	}
	*bps = v;
	return 0;
}

int cfg_time(const struct cfg_node *n, uint64_t *ps, char err[CFG_ERR_BYTES])
{
	return cfg_quantity(n, "a time such as 1us", units_parse_time, ps, err);
}

/* @ps as the shortest exact "N<unit>" into @buf. */
static const char *cfg_fmt_time(uint64_t ps, char buf[CFG_QUOTE_BYTES])
{
	static const struct { uint64_t mult; const char *unit; } units[] = {
		{ UNITS_PS_PER_S, "s" },     { UNITS_PS_PER_MS, "ms" }, { UNITS_PS_PER_US, "us" },
		{ UNITS_PS_PER_NS, "ns" },   { 1, "ps" },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ps % units[i].mult == 0 || units[i].mult == 1) {
			snprintf(buf, CFG_QUOTE_BYTES, "%llu%s", (unsigned long long)(ps / units[i].mult),
				 units[i].unit);
			break;
		}
	}
	return buf;
}

int cfg_time_max(const struct cfg_node *n, uint64_t max_ps, const char *why, uint64_t *ps,
		 char err[CFG_ERR_BYTES])
{
	char got[CFG_QUOTE_BYTES], lim[CFG_QUOTE_BYTES];
	uint64_t v;

	if (cfg_time(n, &v, err) != 0)
		return -EINVAL;
	if (v > max_ps) {
		cfg_errorf(err, n, "time %s is above the maximum %s (%s)", cfg_quote(n->str, got),
			   cfg_fmt_time(max_ps, lim), why);
		return -EINVAL;
	}
	*ps = v;
	return 0;
}

int cfg_size(const struct cfg_node *n, uint64_t min, uint64_t max, uint64_t *bytes,
	     char err[CFG_ERR_BYTES])
{
	uint64_t v;
	int rc;

	rc = cfg_quantity(n, "a size such as 4KiB", units_parse_size, &v, err);
	if (rc)
		return rc;
	if (v < min || v > max) {
		cfg_errorf(err, n, "size %llu bytes is %s the %s %llu bytes", (unsigned long long)v,
			   v < min ? "below" : "above", v < min ? "minimum" : "maximum",
			   (unsigned long long)(v < min ? min : max));
		return -EINVAL;
	}
	*bytes = v;
	return 0;
}

int cfg_fraction(const struct cfg_node *n, double min, double max, double *out,
		 char err[CFG_ERR_BYTES])
{
	static const char expected[] = "a fraction such as 30% or 0.3";
	const char *s = cfg_text(n, expected, err), *why = "";
	char q[CFG_QUOTE_BYTES];
	double v;

	if (!s)
		return -EINVAL;
	if (units_parse_fraction(s, &v, &why)) {
		cfg_errorf(err, n, "expected %s, got '%s': %s", expected, cfg_quote(s, q), why);
		return -EINVAL;
	}
	if (v < min || v > max) {
		/* "30" meant as a percentage is the likely slip. */
		bool pct = !strchr(s, '%') && v > max && v / 100 <= max && v / 100 >= min;

		cfg_errorf(err, n, "fraction %g is %s the %s %g%s%s%s", v, v < min ? "below" : "above",
			   v < min ? "minimum" : "maximum", v < min ? min : max,
			   pct ? " (write " : "", pct ? cfg_quote(s, q) : "",
			   pct ? "% for a percentage)" : "");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cfg_enum(const struct cfg_node *n, const char *const *names, int *out, char err[CFG_ERR_BYTES])
{
	char q[CFG_QUOTE_BYTES], valid[CFG_ERR_BYTES / 2];
	const char *s, *near;
	int i;

	s = cfg_text(n, "a name", err);
	if (!s)
		return -EINVAL;
	for (i = 0; names[i]; i++) {
		if (!strcmp(names[i], s)) {
			*out = i;
			return 0;
		}
	}
	near = cfg_nearest(s, names);
	cfg_list(names, valid, sizeof(valid));
	if (near)
		cfg_errorf(err, n, "unknown value '%s' (did you mean '%s'?; valid: %s)",
			   cfg_quote(s, q), near, valid);
	else
		cfg_errorf(err, n, "unknown value '%s' (valid: %s)", cfg_quote(s, q), valid);
	return -EINVAL;
}
