/* Units in `expect` bounds: a value or tolerance written with a unit
 * ("1MB", "10us", "90Gbps") is read as a quantity, and converted into the
 * unit of the metric it bounds (the metric tables' unit, as docs/results.md
 * writes it) once the metric is known; a unit of another dimension is bad
 * input. A bare number keeps its meaning: the metric's own unit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "results.h"
#include "tg_metrics.h"
#include "units.h"

/* A metric unit of docs/results.md: its dimension and the size of one of
 * it in the dimension's base unit (ps, bytes, bit/s). */
struct exp_unit {
	const char *name;    /* as the metric tables write it */
	enum exp_dim dim;    /* what it measures */
	double base_per;     /* base units (ps, bytes, bit/s) in one of it */
};

static const struct exp_unit exp_units[] = {
	{ "ns", EXP_DIM_TIME, 1e3 },
	{ "\xc2\xb5s", EXP_DIM_TIME, 1e6 }, /* µs */
	{ "s", EXP_DIM_TIME, 1e12 },
	{ "bytes", EXP_DIM_SIZE, 1 },
	{ "bit/s", EXP_DIM_RATE, 1 },
	{ "Gb/s", EXP_DIM_RATE, 1e9 },
	{ "GB/s", EXP_DIM_RATE, 8e9 },
	{ "GB/s (10^9 B/s)", EXP_DIM_RATE, 8e9 },
};

static const char *const exp_dim_names[] = {
	[EXP_DIM_NONE] = "a number", [EXP_DIM_TIME] = "a time", [EXP_DIM_SIZE] = "a size",
	[EXP_DIM_RATE] = "a rate",
};

/* The units of exp_series_columns, in its order. */
static const char *const exp_series_units[] = { "bytes", "bytes", "\xe2\x80\x94", "\xe2\x80\x94",
						 "bytes" };

int exp_expect_qty(const struct cfg_node *n, double lo, double *out, enum exp_dim *dim,
		   char err[CFG_ERR_BYTES])
{
	const char *why;
	uint64_t x;

	*dim = EXP_DIM_NONE;
	if (n->type == CFG_SCALAR && n->str[0]) {
		char *end;

		strtod(n->str, &end);
		/* A number followed by letters: a quantity, if a parser takes it. */
		if (end != n->str && *end && ((*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z'))) {
			if (units_parse_time(n->str, &x, &why) == 0)
				*dim = EXP_DIM_TIME;
			else if (units_parse_size(n->str, &x, &why) == 0)
				*dim = EXP_DIM_SIZE;
			else if (units_parse_rate(n->str, &x, &why) == 0)
				*dim = EXP_DIM_RATE;
			if (*dim != EXP_DIM_NONE) {
				*out = (double)x;
				return 0;
			}
		}
	}
	return cfg_double(n, lo, 1e300, out, err);
}

/* @name matches @row: equal, or with the row's NAME standing for one
 * non-empty part without dots. */
static bool exp_name_matches(const char *row, const char *name, const char **inst, size_t *inst_len)
{
	const char *at = strstr(row, "NAME");
	size_t pre, post, n = strlen(name);

	if (!at)
		return !strcmp(row, name);
	pre = (size_t)(at - row);
	post = strlen(at + 4);
	if (n <= pre + post || strncmp(row, name, pre) || strcmp(at + 4, name + n - post))
		return false;
	*inst = name + pre;
	*inst_len = n - pre - post;
	return !memchr(*inst, '.', *inst_len);
}

const char *exp_metric_unit(const struct exp_expect *a)
{
	const struct metric_table *t[64];
	uint32_t nt = res_summary_tables(t, 64);

	if (a->series >= 0)
		return exp_series_units[a->series];
	for (uint32_t i = 0; i < nt; i++)
		for (uint32_t j = 0; j < t[i]->n; j++) {
			const char *inst = NULL;
			size_t len = 0;

			if (!exp_name_matches(t[i]->m[j].name, a->metric, &inst, &len))
				continue;
			if (strcmp(t[i]->m[j].unit, "as NAME") != 0)
				return t[i]->m[j].unit;
			for (int c = 0; c < TG_N_COLS; c++)
				if (strlen(tg_col_names[c]) == len && !strncmp(tg_col_names[c], inst, len))
					return tg_col_units[c];
			return NULL;
		}
	return NULL;
}

/* @x in base units of @dim, in @unit (NAN when they do not match). */
static double exp_in_unit(double x, enum exp_dim dim, const char *unit)
{
	for (size_t i = 0; unit && i < sizeof(exp_units) / sizeof(exp_units[0]); i++)
		if (!strcmp(unit, exp_units[i].name))
			return exp_units[i].dim == dim ? x / exp_units[i].base_per : NAN;
	return NAN;
}

/* The nearest metric name of the tables to @bad, or NULL. */
static const char *exp_nearest_metric(const char *bad)
{
	const struct metric_table *t[64];
	const char *names[512];
	uint32_t nt = res_summary_tables(t, 64), n = 0;

	for (uint32_t i = 0; i < nt; i++)
		for (uint32_t j = 0; j < t[i]->n && n < 511; j++)
			names[n++] = t[i]->m[j].name;
	names[n] = NULL;
	return cfg_nearest(bad, names);
}

/* The dimension of @unit (EXP_DIM_NONE: a count, a ratio, text). */
static enum exp_dim exp_dim_of(const char *unit)
{
	for (size_t i = 0; i < sizeof(exp_units) / sizeof(exp_units[0]); i++)
		if (!strcmp(unit, exp_units[i].name))
			return exp_units[i].dim;
	return EXP_DIM_NONE;
}

/* One bound (value or tolerance, node @n) of dimension @dim into the
 * metric's unit. */
static int exp_convert_one(const struct exp_expect *a, const struct cfg_node *n, enum exp_dim dim,
			   double *x, char err[CFG_ERR_BYTES])
{
	const char *unit = exp_metric_unit(a), *near;
	double v = exp_in_unit(*x, dim, unit);

	if (!isnan(v)) {
		*x = v;
		return 0;
	}
	if (!unit) {
		near = exp_nearest_metric(a->metric);
		cfg_errorf(err, n, "'%s' has a unit, but '%s' is not a metric of docs/results.md%s%s%s",
			   n->str, a->metric, near ? " (did you mean '" : "", near ? near : "",
			   near ? "'?)" : "");
	} else if (exp_dim_of(unit) == EXP_DIM_NONE) {
		cfg_errorf(err, n, "'%s' is %s, but %s has no unit (%s): write a bare number",
			   n->str, exp_dim_names[dim], a->metric, unit);
	} else {
		cfg_errorf(err, n, "'%s' is %s, but %s is in %s (a bound's unit must be of the metric's dimension; a bare number is in %s)",
			   n->str, exp_dim_names[dim], a->metric, unit, unit);
	}
	return -EINVAL;
}

int exp_expect_units(struct exp_expect *a, const struct cfg_node *it, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *v = cfg_get(it, "value"), *t = cfg_get(it, "tolerance");

	if (a->value_dim != EXP_DIM_NONE) {
		if (a->of[0]) {
			cfg_errorf(err, v, "with 'of', value is a factor: '%s' takes no unit", v->str);
			return -EINVAL;
		}
		if (exp_convert_one(a, v, a->value_dim, &a->value, err) != 0)
			return -EINVAL;
		if (t && !t->dflt && a->tol_dim == EXP_DIM_NONE && a->tol_frac > 0)
			a->tolerance = a->tol_frac * fabs(a->value); /* N% of the converted value */
	}
	if (a->tol_dim != EXP_DIM_NONE)
		return exp_convert_one(a, t, a->tol_dim, &a->tolerance, err);
	return 0;
}
