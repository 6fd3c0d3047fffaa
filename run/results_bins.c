/* fct_bins.csv: FCT slowdown by message size, the way the HPCC paper's
 * figures report it (analysis/fct_analysis.py of its ns-3 code): completed
 * messages sorted by size, cut into 20 bins of 5% of them each, and per bin
 * the median, 95th and 99th percentile slowdown (FCT / ideal FCT, the
 * slowdown column of flows.csv). Written by res_write_all (results.c). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

enum { RES_BINS = 20 /* bins of 5% of the completed messages */ };

/* One completed message: what the bins need. */
struct res_bin_flow {
	uint64_t bytes;  /* message length */
	uint32_t id;     /* flows.csv id: orders equal sizes */
	double slowdown; /* FCT / ideal FCT */
};

static int res_bin_flow_cmp(const void *a, const void *b)
{
	const struct res_bin_flow *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int res_bin_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted @v (n > 0), as summary.json's. */
static double res_bin_pct(const double *v, uint32_t n, double p)
{
	uint64_t rank = (uint64_t)ceil(p * n);

	return v[(rank < 1 ? 1 : rank) - 1];
}

bool res_fct_bins_wanted(const struct fabric *f)
{
	if (!f->exp->flows_csv)
		return false;
	for (uint32_t i = 0; i < f->exp->n_workloads; i++)
		if (strcmp(f->exp->workloads[i].kind, "poisson") == 0)
			return true;
	return false;
}

int res_write_fct_bins(const struct fabric *f, const char *dir)
{
	uint32_t n, done = 0;
	const struct tg_flow *fl = tg_flows(f->tg, &n);
	struct res_bin_flow *v = malloc(sizeof(*v) * (n ? n : 1));
	double *s = malloc(sizeof(*s) * (n ? n : 1));
	char path[4096];
	FILE *out = NULL;
	int rc;

	if (!v || !s) {
		rc = -ENOMEM;
		goto done;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!fl[i].done)
			continue;
		v[done].bytes = fl[i].msg.bytes;
		v[done].id = i;
		v[done].slowdown = (double)(fl[i].end_ps - fl[i].msg.start_ps) / (double)fl[i].ideal_ps;
		done++;
	}
	qsort(v, done, sizeof(*v), res_bin_flow_cmp);
	snprintf(path, sizeof(path), "%s/fct_bins.csv", dir);
	if (!(out = cfg_fopen_out(path))) {
		rc = -errno;
		goto done;
	}
	fputs("bin,flows,bytes_min,bytes_max,slowdown_mean,slowdown_p50,slowdown_p95,slowdown_p99\n",
	      out);
	for (uint32_t b = 0; b < RES_BINS; b++) {
		uint32_t lo = (uint32_t)((uint64_t)b * done / RES_BINS);
		uint32_t hi = (uint32_t)((uint64_t)(b + 1) * done / RES_BINS);
		double sum = 0;

		if (lo == hi)
			continue; /* fewer than 20 messages: some bins are empty */
		for (uint32_t i = lo; i < hi; i++) {
			s[i - lo] = v[i].slowdown;
			sum += v[i].slowdown;
		}
		qsort(s, hi - lo, sizeof(*s), res_bin_dbl_cmp);
		fprintf(out, "%u,%u,%llu,%llu,%.6f,%.6f,%.6f,%.6f\n", b, hi - lo,
			(unsigned long long)v[lo].bytes, (unsigned long long)v[hi - 1].bytes,
			sum / (hi - lo), res_bin_pct(s, hi - lo, 0.50), res_bin_pct(s, hi - lo, 0.95),
			res_bin_pct(s, hi - lo, 0.99));
	}
	rc = ferror(out) ? -EIO : 0;
	if (fclose(out) != 0 && rc == 0)
		rc = -(errno ? errno : EIO);
done:
	free(v);
	free(s);
	return rc;
}
