/* `fabemu plot`'s readers of the tables beside a run's (tools/cli_plot_read.c
 * reads those): fct_bins.csv, the HPCC paper's slowdown per size bin, and a
 * sweep folder's sweep.csv (RFC 4180 fields), with the mean and Student-t
 * 95% interval over a point's seeds that the sweep picture draws. Bounded
 * and checked as the others (cli_plot_csv.c); in the fuzz targets too. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_plot_csv.h"
#include "cli_plot_int.h"

/* ---- fct_bins.csv ---- */

int plot_read_bins(const char *dir, struct plot_bins *b, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "bytes_max", "slowdown_p50", "slowdown_p95",
					     "slowdown_p99", NULL };
	struct plot_csv c;
	int col[4], need = 0, rc;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_BINS], &b->present, err);
	if (rc != 0 || !b->present)
		return plot_csv_end(&c, rc);
	if ((rc = plot_csv_header(&c, "fct_bins.csv", names, col)) != 0)
		return plot_csv_end(&c, rc);
	for (unsigned k = 0; k < 4; k++)
		need = col[k] + 1 > need ? col[k] + 1 : need;
	while ((rc = plot_csv_next(&c)) > 0) {
		struct plot_bin *bin = &b->b[b->n];

		if (b->n == PLOT_MAX_BINS) {
			rc = plot_csv_bad(&c, -EINVAL, 0, "more than %d bins: not a fabemu fct_bins.csv",
					  PLOT_MAX_BINS);
			break;
		}
		if ((rc = plot_csv_width(&c, need, need)) != 0 ||
		    (rc = plot_csv_num(&c, col[0], "bytes_max", &bin->bytes_max)) != 0 ||
		    (rc = plot_csv_num(&c, col[1], "slowdown_p50", &bin->p50)) != 0 ||
		    (rc = plot_csv_num(&c, col[2], "slowdown_p95", &bin->p95)) != 0 ||
		    (rc = plot_csv_num(&c, col[3], "slowdown_p99", &bin->p99)) != 0)
			break;
		if (bin->bytes_max <= 0) {
			rc = plot_csv_bad(&c, -EINVAL, plot_csv_colno(&c, col[0]),
					  "bytes_max: expected a size above 0");
			break;
		}
		b->n++;
	}
	return plot_csv_end(&c, rc);
}

/* ---- sweep.csv ---- */

/* A metric's value as sweep_summary.csv counts it: a number, true/false as
 * 1/0; NaN for an empty field (null, missing) or other text. */
static double plot_sweep_value(const char *s)
{
	double v;

	if (!strcmp(s, "true"))
		return 1;
	if (!strcmp(s, "false"))
		return 0;
	return plot_num(s, &v) == 0 ? v : NAN;
}

/* The point of the current row (its key values, fields 0..n_keys-1), added
 * when new: its index, or -ENOMEM. Points are few (a sweep's product), so
 * a scan finds them. */
static long plot_sweep_point(struct plot_sweep *sw, const struct plot_csv *c)
{
	unsigned p, k;

	for (p = 0; p < sw->n_points; p++) {
		for (k = 0; k < sw->n_keys; k++)
			if (strcmp(sw->values[(size_t)p * sw->n_keys + k], c->fields[k]))
				break;
		if (k == sw->n_keys)
			return p;
	}
	if (plot_grow((void **)&sw->values, &sw->cap_values, (size_t)(p + 1) * sw->n_keys + 1,
		      sizeof(*sw->values)) != 0)
		return -ENOMEM;
	for (k = 0; k < sw->n_keys; k++)
		if (!(sw->values[(size_t)p * sw->n_keys + k] = strdup(c->fields[k]))) {
			while (k--)
				free(sw->values[(size_t)p * sw->n_keys + k]);
			return -ENOMEM;
		}
	return sw->n_points++;
}

/* The header of sweep.csv: the keys before `seed`, `status` after it, the
 * metrics after that. 0, or -errno with c->err. */
static int plot_sweep_header(struct plot_csv *c, struct plot_sweep *sw)
{
	static const char *const names[] = { "seed", "status", NULL };
	int col[2], rc = plot_csv_header(c, "sweep.csv", names, col);

	if (rc == 0 && col[1] != col[0] + 1)
		rc = plot_csv_not_header(c, "sweep.csv", names);
	if (rc != 0)
		return rc;
	sw->n_keys = (unsigned)col[0];
	sw->n_metrics_all = c->n_fields - (unsigned)col[1] - 1;
	for (unsigned k = 0; k < sw->n_keys; k++)
		if (!(sw->keys[k] = strdup(c->fields[k])))
			return plot_csv_bad(c, -ENOMEM, 0, "out of memory");
	for (unsigned m = 0; m < sw->n_metrics_all && m < PLOT_MAX_METRICS; m++) {
		if (!(sw->metrics[m] = strdup(c->fields[col[1] + 1 + (int)m])))
			return plot_csv_bad(c, -ENOMEM, 0, "out of memory");
		sw->n_metrics++;
	}
	return 0;
}

int plot_read_sweep(const char *dir, struct plot_sweep *sw, char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int rc, n_cols;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_SWEEP], &sw->present, err);
	if (rc != 0 || !sw->present)
		return plot_csv_end(&c, rc);
	c.quoted = true;
	if ((rc = plot_sweep_header(&c, sw)) != 0)
		return plot_csv_end(&c, rc);
	n_cols = (int)(sw->n_keys + 2 + sw->n_metrics_all);
	while ((rc = plot_csv_next(&c)) > 0) {
		struct plot_sweep_run r;
		long p;

		if ((rc = plot_csv_width(&c, n_cols, n_cols)) != 0)
			break;
		if ((int)c.n_fields != n_cols) {
			rc = plot_csv_bad(&c, -EINVAL, 0, "%u columns, expected %d as in the header",
					  c.n_fields, n_cols);
			break;
		}
		if ((p = plot_sweep_point(sw, &c)) < 0 ||
		    plot_grow((void **)&sw->runs, &sw->cap_runs, sw->n_runs + 1, sizeof(*sw->runs))) {
			rc = -ENOMEM;
			break;
		}
		r.point = (unsigned)p;
		for (unsigned m = 0; m < PLOT_MAX_METRICS; m++)
			r.x[m] = m < sw->n_metrics ? plot_sweep_value(c.fields[sw->n_keys + 2 + m]) : NAN;
		sw->runs[sw->n_runs++] = r;
	}
	if (rc == -ENOMEM)
		plot_csv_bad(&c, rc, 0, "out of memory");
	return plot_csv_end(&c, rc);
}

void plot_sweep_free(struct plot_sweep *sw)
{
	for (unsigned k = 0; k < sw->n_keys; k++)
		free(sw->keys[k]);
	for (unsigned m = 0; m < sw->n_metrics; m++)
		free(sw->metrics[m]);
	for (size_t v = 0; v < (size_t)sw->n_points * sw->n_keys; v++)
		free(sw->values[v]);
	free(sw->values);
	free(sw->runs);
	memset(sw, 0, sizeof(*sw));
}

/* ---- the interval over seeds ---- */

/* x-bar = sum x / n; s = sqrt(sum (x - x-bar)^2 / (n - 1)); the half
 * width t(0.975, n - 1) s / sqrt(n) (docs/results.md, sweep_summary.csv). */
struct plot_ci plot_mean_ci(const double *x, size_t n, double (*t975)(unsigned df))
{
	struct plot_ci ci = { 0 };
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ci.mean += x[i];
	ci.mean /= (double)n;
	if (n < 2)
		return ci;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - ci.mean) * (x[i] - ci.mean);
	ci.sd = sqrt(ss / (double)(n - 1));
	ci.half = t975((unsigned)(n - 1)) * ci.sd / sqrt((double)n);
	return ci;
}
