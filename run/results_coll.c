/* Collectives' results: per instance its time, algorithm bandwidth and bus
 * bandwidth exactly as nccl-tests defines them (doc/PERFORMANCE.md of
 * nccl-tests: algbw = S / t, busbw = algbw x 2(n-1)/n for all-reduce,
 * (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for
 * broadcast; GB/s are 1e9 bytes/s), as collectives.csv, as
 * collectives.<workload>.* metrics (those of the workload's largest size)
 * and as nccl-tests' table in the human summary. A data-carrying
 * workload (its data key) adds the elements compared at its instances'
 * ends and those that were wrong, summed over all its instances, and
 * collectives.csv two columns at the end (only when a workload carries
 * data: other runs write the file they always wrote). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "units.h"

/* Time and bandwidths of instance @i; false when it did not complete. */
static bool res_coll_fig(const struct fabric *f, uint32_t i, double *us, double *algbw,
			 double *busbw)
{
	const struct tg_coll *c = &f->exp->colls[i];
	uint64_t start, end;

	if (tg_coll_span(f->tg, i, &start, &end) != 0)
		return false;
	*us = units_ps_to_ns(end - start) / 1e3;
	*algbw = end > start ? (double)c->bytes / units_ps_to_s(end - start) / 1e9 : 0;
	*busbw = *algbw * tg_coll_bus_factor(c->kind, c->n_ranks);
	return true;
}

/* Mean figures of workload @w's instances of @bytes (over their
 * iterations); their count, and how many completed. */
static uint32_t res_coll_mean(const struct fabric *f, uint16_t w, uint64_t bytes, uint32_t *done,
			      double *us, double *algbw, double *busbw)
{
	uint32_t n = 0;

	*done = 0;
	*us = *algbw = *busbw = 0;
	for (uint32_t i = 0; i < f->exp->n_colls; i++) {
		const struct tg_coll *c = &f->exp->colls[i];
		double a, b, t;

		if (c->workload != w || c->bytes != bytes)
			continue;
		n++;
		if (!res_coll_fig(f, i, &t, &a, &b))
			continue;
		(*done)++;
		*us += t;
		*algbw += a;
		*busbw += b;
	}
	if (*done) {
		*us /= *done;
		*algbw /= *done;
		*busbw /= *done;
	}
	return n;
}

/* Workload @w's data check, over its instances: nothing when it carries
 * no data. 0 or -ENOMEM. */
static int res_coll_data(struct results *r, const struct fabric *f, uint16_t w)
{
	const struct exp *e = f->exp;
	uint64_t checked = 0, errors = 0;
	bool data = false;

	for (uint32_t i = 0; i < e->n_colls; i++) {
		uint64_t c, x;
		int rc;

		if (e->colls[i].workload != w)
			continue;
		rc = tg_coll_data(f->tg, i, &c, &x);
		if (rc == -ENOENT)
			continue;
		data = true;
		if (rc == 0) {
			checked += c;
			errors += x;
		}
	}
	if (!data)
		return 0;
	RES_U64(r, checked, "collectives.%s.data_checked", e->workloads[w].name);
	RES_U64(r, errors, "collectives.%s.data_errors", e->workloads[w].name);
	return 0;
}

/* Some instance of the run carries data. */
static bool res_coll_any_data(const struct fabric *f)
{
	uint64_t c, x;

	for (uint32_t i = 0; i < f->exp->n_colls; i++)
		if (tg_coll_data(f->tg, i, &c, &x) != -ENOENT)
			return true;
	return false;
}

int res_collectives(struct results *r, const struct fabric *f)
{
	const struct exp *e = f->exp;

	for (uint32_t w = 0; w < e->n_workloads; w++) {
		uint32_t n = 0, done = 0, d;
		uint64_t largest = 0;
		double us, algbw, busbw;

		for (uint32_t i = 0; i < e->n_colls; i++) {
			if (e->colls[i].workload != w)
				continue;
			n++;
			if (e->colls[i].bytes >= largest)
				largest = e->colls[i].bytes;
			if (tg_coll_span(f->tg, i, &(uint64_t){ 0 }, &(uint64_t){ 0 }) == 0)
				done++;
		}
		if (!n)
			continue;
		res_coll_mean(f, w, largest, &d, &us, &algbw, &busbw);
		RES_U64(r, n, "collectives.%s.instances", e->workloads[w].name);
		RES_U64(r, done, "collectives.%s.completed", e->workloads[w].name);
		RES_U64(r, largest, "collectives.%s.size_bytes", e->workloads[w].name);
		RES_DBL(r, us, "collectives.%s.time_us", e->workloads[w].name);
		RES_DBL(r, algbw, "collectives.%s.algbw_GBps", e->workloads[w].name);
		RES_DBL(r, busbw, "collectives.%s.busbw_GBps", e->workloads[w].name);
		if (res_coll_data(r, f, w) != 0)
			return -ENOMEM;
	}
	return 0;
}

int res_write_collectives(const struct fabric *f, const char *dir)
{
	const struct exp *e = f->exp;
	char path[4200];
	bool data = res_coll_any_data(f);
	FILE *out;
	int bad, err;

	snprintf(path, sizeof(path), "%s/collectives.csv", dir);
	if (!(out = cfg_fopen_out(path)))
		return -errno;
	fputs("workload,collective,algorithm,ranks,size_bytes,count,type,iteration,time_us,"
	      "algbw_GBps,busbw_GBps,status", out);
	fputs(data ? ",data_checked,data_errors\n" : "\n", out);
	for (uint32_t i = 0; i < e->n_colls; i++) {
		const struct tg_coll *c = &e->colls[i];
		double us, algbw, busbw;
		bool ok = res_coll_fig(f, i, &us, &algbw, &busbw);

		fprintf(out, "%s,%s,%s,%u,%llu,%llu,float,%u,", e->workloads[c->workload].name,
			tg_coll_kind_names()[c->kind], tg_coll_alg_names()[c->alg], c->n_ranks,
			(unsigned long long)c->bytes, (unsigned long long)(c->bytes / 4), c->iter);
		if (ok)
			fprintf(out, "%.3f,%.6f,%.6f,complete", us, algbw, busbw);
		else
			fputs(",,,incomplete", out);
		if (data) {
			uint64_t checked, errors;

			/* Empty: no data, or not compared (incomplete). */
			if (tg_coll_data(f->tg, i, &checked, &errors) == 0)
				fprintf(out, ",%llu,%llu", (unsigned long long)checked,
					(unsigned long long)errors);
			else
				fputs(",,", out);
		}
		fputc('\n', out);
	}
	bad = ferror(out);
	err = errno;
	if (fclose(out) != 0)
		return -errno;
	return bad ? -(err ? err : EIO) : 0;
}

void res_print_collectives(const struct fabric *f, FILE *out)
{
	const struct exp *e = f->exp;

	for (uint32_t w = 0; w < e->n_workloads; w++) {
		uint64_t last = UINT64_MAX, checked = 0, errors = 0;
		bool head = false, data = false;

		for (uint32_t i = 0; i < e->n_colls; i++) {
			const struct tg_coll *c = &e->colls[i];
			uint32_t done;
			double us, algbw, busbw;

			if (c->workload != w)
				continue;
			{
				uint64_t k, x;
				int rc = tg_coll_data(f->tg, i, &k, &x);

				data = data || rc != -ENOENT;
				if (rc == 0) {
					checked += k;
					errors += x;
				}
			}
			if (c->bytes == last)
				continue;
			if (!head) {
				fprintf(out, "  %s: %s, %s, %u ranks\n", e->workloads[w].name,
					tg_coll_kind_names()[c->kind], tg_coll_alg_names()[c->alg],
					c->n_ranks);
				fprintf(out, "  %12s %12s %6s %12s %12s %12s\n", "size", "count", "type",
					"time(us)", "algbw(GB/s)", "busbw(GB/s)");
				head = true;
			}
			last = c->bytes;
			res_coll_mean(f, w, c->bytes, &done, &us, &algbw, &busbw);
			if (done)
				fprintf(out, "  %12llu %12llu %6s %12.2f %12.2f %12.2f\n",
					(unsigned long long)c->bytes, (unsigned long long)(c->bytes / 4),
					"float", us, algbw, busbw);
			else
				fprintf(out, "  %12llu %12llu %6s %12s %12s %12s\n",
					(unsigned long long)c->bytes, (unsigned long long)(c->bytes / 4),
					"float", "-", "-", "-");
		}
		if (data)
			fprintf(out, "  data: %llu elements compared with the exact result, %llu wrong\n",
				(unsigned long long)checked, (unsigned long long)errors);
	}
}
