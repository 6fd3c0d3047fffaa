/* What a sweep's runs gave (see cli_sweep.c): sweep.csv, sweep_summary.csv
 * with the Student-t intervals, the printed table, the verdicts across
 * seeds and the exit status (the JUnit report: cli_junit.c). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cli_sweep.h"
#include "exp.h"

/* t(0.975, df): the two-sided 95% quantile of Student's t distribution,
 * from a table for df 1..30 (17 digits, computed here by inverting the
 * regularized incomplete beta function with mpmath), and beyond from the
 * Cornish-Fisher expansion of t around the normal quantile z (Abramowitz
 * and Stegun 26.7.5, five terms: 2.6e-8 low at df 31, less above). */
double swp_t975(unsigned df)
{
	static const double t[31] = {
		0,
		12.706204736174705, 4.3026527297494639, 3.1824463052837096,
		2.7764451051977944, 2.5705818356363155, 2.44691185114497,
		2.3646242515927853, 2.3060041352041667, 2.2621571627982055,
		2.2281388519862747, 2.2009851600916399, 2.1788128296672289,
		2.1603686564627925, 2.1447866879178038, 2.1314495455597757,
		2.1199052992212547, 2.1098155778333171, 2.1009220402410385,
		2.0930240544083098, 2.0859634472658648, 2.0796138447276804,
		2.0738730679040262, 2.0686576104190487, 2.0638985616280258,
		2.0595385527532977, 2.0555294386428732, 2.0518305164802856,
		2.0484071417952452, 2.0452296421327043, 2.0422724563012383,
	};
	const double z = 1.959963984540054, v = df;
	double z2 = z * z;

	if (df <= 30)
		return t[df];
	return z + z * (z2 + 1) / (4 * v) + z * ((5 * z2 + 16) * z2 + 3) / (96 * v * v) +
	       z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * v * v * v) +
	       z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / (92160 * v * v * v * v);
}

/* A run's metric: its text as summary.json has it ("" for null, a
 * container or a missing one) and, when it is a number (true/false as
 * 1/0), *@x. */
static const char *swp_metric(const struct swp_run *r, const char *name, double *x, bool *num)
{
	const struct cfg_node *n = r->doc ? cli_summary_get(r->doc, name) : NULL;

	*num = false;
	if (!n || n->type != CFG_SCALAR)
		return "";
	*num = cli_summary_number(r->doc, name, x) == 0;
	return n->str;
}

/* One CSV field (RFC 4180: quoted when it holds a comma, quote or line
 * break, its quotes doubled). */
static void swp_csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

const char *swp_status_word(int status, bool check)
{
	switch (status) {
	case 0: return check ? "pass" : "ok";
	case 1: return check ? "fail" : "failed";
	case 2: return "bad_input";
	case SWP_NOT_RUN: return "not_run";
	}
	return status > 128 ? "killed" : "error";
}

/* The seed of run @r as text: summary.json's, else the one it was given. */
static void swp_seed_text(const struct swp_plan *p, const struct cli_run_opts *o,
			  const struct swp_run *r, char out[32])
{
	double x;
	bool num;
	const char *s = swp_metric(r, "seed", &x, &num);

	if (*s)
		snprintf(out, 32, "%.31s", s);
	else if (p->n_seeds)
		snprintf(out, 32, "%llu", (unsigned long long)p->seeds[r->seed_i]);
	else if (o->sim.seed_set)
		snprintf(out, 32, "%llu", (unsigned long long)o->sim.seed);
	else
		out[0] = '\0';
}

/* Write @path through PATH.tmp and a rename, so that it is whole or absent.
 * @fill writes the rows; 0, or -errno with the message on stderr. */
int swp_write_table(const char *path, void (*fill)(FILE *, const void *), const void *arg)
{
	char tmp[SWP_PATH_BYTES + 8];
	FILE *f;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		fprintf(stderr, "fabemu: %.400s...: path too long\n", path);
		return -ENAMETOOLONG;
	}
	if (!(f = cfg_fopen_out(tmp))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", tmp, strerror(errno));
		return -errno;
	}
	fill(f, arg);
	if ((ferror(f) | fclose(f)) != 0 || rename(tmp, path) != 0) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", path, strerror(errno));
		unlink(tmp);
		return -EIO;
	}
	return 0;
}


/* sweep.csv: the swept keys, seed, status, then the metrics; one row per run. */
void swp_fill_runs(FILE *f, const void *arg)
{
	const struct swp_table_arg *t = arg;
	const struct swp_plan *p = t->p;

	for (unsigned k = 0; k < p->n_axes; k++)
		swp_csv_field(f, p->axes[k].key, false);
	swp_csv_field(f, "seed", false);
	swp_csv_field(f, "status", p->n_metrics == 0);
	for (unsigned m = 0; m < p->n_metrics; m++)
		swp_csv_field(f, p->metrics[m], m + 1 == p->n_metrics);
	for (unsigned i = 0; i < p->n_runs; i++) {
		const struct swp_run *r = &p->runs[i];
		char seed[32];

		if (r->file != t->file)
			continue;
		for (unsigned k = 0; k < p->n_axes; k++)
			swp_csv_field(f, p->axes[k].values[swp_value_of(p, r->combo, k)], false);
		swp_seed_text(p, t->o, r, seed);
		swp_csv_field(f, seed, false);
		swp_csv_field(f, swp_status_word(r->status, t->check), p->n_metrics == 0);
		for (unsigned m = 0; m < p->n_metrics; m++) {
			double x;
			bool num;

			swp_csv_field(f, swp_metric(r, p->metrics[m], &x, &num), m + 1 == p->n_metrics);
		}
	}
}

/* sweep_summary.csv: per combination and metric, over the seeds' runs
 * with a number: n, mean, the sample standard deviation s and the 95%
 * interval mean -+ t(0.975, n-1) s / sqrt(n) (sd and interval empty for
 * n < 2, everything for n = 0). */
void swp_fill_summary(FILE *f, const void *arg)
{
	const struct swp_table_arg *t = arg;
	const struct swp_plan *p = t->p;

	for (unsigned k = 0; k < p->n_axes; k++)
		swp_csv_field(f, p->axes[k].key, false);
	fputs("metric,n,mean,sd,ci95_low,ci95_high\n", f);
	for (unsigned c = 0; c < p->n_combos; c++) {
		for (unsigned m = 0; m < p->n_metrics; m++) {
			double sum = 0, ss = 0, mean, x;
			unsigned n = 0;
			bool num;

			/* Two passes (mean, then squares about it): no cancellation. */
			for (unsigned i = 0; i < p->n_runs; i++)
				if (p->runs[i].file == t->file && p->runs[i].combo == c) {
					swp_metric(&p->runs[i], p->metrics[m], &x, &num);
					if (num) {
						sum += x;
						n++;
					}
				}
			mean = n ? sum / n : 0;
			for (unsigned i = 0; i < p->n_runs; i++)
				if (p->runs[i].file == t->file && p->runs[i].combo == c) {
					swp_metric(&p->runs[i], p->metrics[m], &x, &num);
					if (num)
						ss += (x - mean) * (x - mean);
				}
			for (unsigned k = 0; k < p->n_axes; k++)
				swp_csv_field(f, p->axes[k].values[swp_value_of(p, c, k)], false);
			swp_csv_field(f, p->metrics[m], false);
			if (n == 0) {
				fprintf(f, "0,,,,\n");
			} else if (n == 1) {
				fprintf(f, "1,%.12g,,,\n", mean);
			} else {
				double sd = sqrt(ss / (n - 1)), h = swp_t975(n - 1) * sd / sqrt(n);

				fprintf(f, "%u,%.12g,%.12g,%.12g,%.12g\n", n, mean, sd, mean - h, mean + h);
			}
		}
	}
}

/* check's verdict line of run @r ("3 passed, 0 failed") from its log, or "". */
static void swp_verdict(const struct swp_run *r, char out[64])
{
	char path[SWP_PATH_BYTES + 16], line[256];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/fabemu.log", r->dir);
	if (!(f = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned a, b;

		if (sscanf(line, "%u passed, %u failed", &a, &b) == 2)
			snprintf(out, 64, "%u/%u", a, a + b);
	}
	fclose(f);
}

/* cli_sweep.h. Its folder under the file's (several files: under -o or
 * results/, so with the experiment's name). */
const char *swp_shown(const struct cli_run_opts *o, const struct swp_plan *p,
			     const struct swp_run *r)
{
	size_t skip;

	if (o->n_exps > 1)
		skip = strlen(o->outdir ? o->outdir : "results") + 1;
	else if (p->multi)
		skip = strlen(p->bases[r->file]) + 1;
	else
		skip = 0;
	if (strlen(r->dir) <= skip)
		return r->dir;
	/* -o DIR/ doubles the slash: the name stays relative. */
	while (r->dir[skip] == '/')
		skip++;
	return r->dir + skip;
}

/* The compact table: a row per run (the point, seed, status, for check
 * the assertions that held, then the metrics). */
void swp_print_table(const struct cli_run_opts *o, bool check, const struct swp_plan *p)
{
	enum { COLS = 4 + CLI_MAX_METRICS };
	const char *head[COLS] = { "run", "seed", "status", check ? "expect" : NULL };
	int width[COLS] = { 0 };
	unsigned n_cols = 4 + p->n_metrics;

	for (unsigned m = 0; m < p->n_metrics; m++)
		head[4 + m] = p->metrics[m];
	for (int pass = 0; pass < 2; pass++) {
		for (int row = -1; row < (int)p->n_runs; row++) {
			char cells[COLS][SWP_CELL_BYTES];

			for (unsigned c = 0; c < n_cols; c++)
				snprintf(cells[c], SWP_CELL_BYTES, "%s", head[c] ? head[c] : "");
			if (row >= 0) {
				const struct swp_run *r = &p->runs[row];
				char seed[32], verdict[64];

				swp_seed_text(p, o, r, seed);
				swp_verdict(r, verdict);
				snprintf(cells[0], SWP_CELL_BYTES, "%s", swp_shown(o, p, r));
				snprintf(cells[1], SWP_CELL_BYTES, "%s", seed);
				snprintf(cells[2], SWP_CELL_BYTES, "%s", swp_status_word(r->status, check));
				snprintf(cells[3], SWP_CELL_BYTES, "%s", check ? verdict : "");
				for (unsigned m = 0; m < p->n_metrics; m++) {
					double x;
					bool num;
					const char *s = swp_metric(r, p->metrics[m], &x, &num);

					snprintf(cells[4 + m], SWP_CELL_BYTES, "%s", *s ? s : "-");
				}
			}
			for (unsigned c = 0; c < n_cols; c++) {
				int len = (int)strlen(cells[c]);
				bool last = c + 1 == n_cols || (c == 2 && !check && n_cols == 4);

				if (c == 3 && !check)
					continue;
				if (pass == 0 && len > width[c])
					width[c] = len;
				else if (pass == 1 && last)
					printf("%s\n", cells[c]);
				else if (pass == 1)
					printf("%-*s  ", width[c], cells[c]);
			}
		}
	}
}

/* cli_sweep.h. Each point's file is loaded again (with its --set list)
 * for its assertions; a statistic is taken over the point's runs, and one
 * of them without a number for the metric (a run that wrote no summary,
 * a null) fails the assertion. */
int swp_across(const struct cli_run_opts *o, struct swp_plan *p)
{
	unsigned per_point = p->n_seeds ? p->n_seeds : 1, n_failed = 0;
	char err[CFG_ERR_BYTES], name[SWP_PATH_BYTES], where[SWP_PATH_BYTES + 8];
	double *xs = calloc(per_point, sizeof(*xs));

	if (!xs)
		return -ENOMEM;
	for (unsigned f = 0; f < o->n_exps; f++) {
		for (unsigned c = 0; c < p->n_combos; c++) {
			const char *sets[CLI_MAX_SETS] = { 0 };
			struct exp *e = NULL;
			size_t skip;
			int r;

			r = swp_load(o, p, f, c, sets, &e, err);
			if (r != 0) {
				fprintf(stderr, "%s\n", r == -ENOMEM ? "fabemu: out of memory" : err);
				free(xs);
				return r;
			}
			swp_combo_name(p, c, name);
			snprintf(where, sizeof(where), "%s%s%s", p->bases[f], p->n_axes ? "/" : "", name);
			/* The JUnit report's: relative to -o (or results/) for
			 * several files, else to the file's folder. */
			skip = o->n_exps > 1 ? strlen(o->outdir ? o->outdir : "results") + 1
					     : strlen(p->bases[f]) + (p->n_axes ? 1 : 0);
			while (skip && where[skip] == '/')
				skip++;
			for (uint32_t i = 0; i < e->n_expects; i++) {
				const struct exp_expect *a = &e->expects[i];
				struct swp_verdict *v, *grown;
				unsigned n = 0, n_runs = 0;
				FILE *nf;

				if (a->across == EXP_ACROSS_NONE)
					continue;
				for (unsigned k = 0; k < p->n_runs; k++) {
					const struct swp_run *run = &p->runs[k];

					if (run->file != f || run->combo != c)
						continue;
					n_runs++;
					if (run->doc && cli_summary_number(run->doc, a->metric, &xs[n]) == 0 &&
					    xs[n] == xs[n])
						n++;
				}
				grown = realloc(p->verdicts, (p->n_verdicts + 1) * sizeof(*p->verdicts));
				if (!grown) {
					exp_free(e);
					free(xs);
					return -ENOMEM;
				}
				p->verdicts = grown;
				v = &p->verdicts[p->n_verdicts++];
				*v = (struct swp_verdict){ .file = f, .combo = c };
				v->ok = cli_across_line(a, cli_across_value(a, xs, n), n_runs, n_runs - n,
							(p->n_axes || o->n_exps > 1) ? where : NULL, v->line);
				cli_across_line(a, cli_across_value(a, xs, n), n_runs, n_runs - n,
						(p->n_axes || o->n_exps > 1) ? where + skip : NULL, v->rel_line);
				if ((nf = fmemopen(v->name, sizeof(v->name) - 1, "w"))) {
					cli_across_junit_name(nf, a);
					fclose(nf);
				}
				n_failed += !v->ok;
				printf("%s\n", v->line);
			}
			exp_free(e);
		}
	}
	if (p->n_verdicts)
		printf("%u of %u assertions across seeds held\n", p->n_verdicts - n_failed, p->n_verdicts);
	free(xs);
	return (int)n_failed;
}

/* cli_sweep.h. After the runs: their summaries read, the tables written and printed,
 * for check the assertions across seeds and the JUnit report. The exit
 * status: 2 when a run found bad input, else 1 when a run did not pass,
 * an assertion across seeds failed, a table or the report could not be
 * written or the sweep was stopped, else 0. */
int swp_finish(const struct cli_run_opts *o, bool check, struct swp_plan *p, bool stopped)
{
	char path[SWP_PATH_BYTES + 32];
	int rc = CLI_OK;

	for (unsigned i = 0; i < p->n_runs; i++) {
		struct swp_run *r = &p->runs[i];
		char err[CFG_ERR_BYTES];

		if (r->status != SWP_NOT_RUN && r->status != CLI_BAD_INPUT &&
		    cli_summary_load(r->dir, &r->doc, err) != 0) {
			cfg_doc_free(r->doc);
			r->doc = NULL;
		}
		if (r->status == CLI_BAD_INPUT)
			rc = CLI_BAD_INPUT;
		else if (r->status != 0 && rc == CLI_OK)
			rc = CLI_FAIL;
	}
	for (unsigned f = 0; p->multi && f < o->n_exps; f++) {
		struct swp_table_arg t = { .p = p, .o = o, .file = f, .check = check };

		snprintf(path, sizeof(path), "%s/sweep.csv", p->bases[f]);
		if (swp_write_table(path, swp_fill_runs, &t) != 0)
			rc = CLI_FAIL;
		snprintf(path, sizeof(path), "%s/sweep_summary.csv", p->bases[f]);
		if (swp_write_table(path, swp_fill_summary, &t) != 0)
			rc = CLI_FAIL;
	}
	if (check || !o->quiet)
		swp_print_table(o, check, p);
	for (unsigned f = 0; p->multi && !o->quiet && f < o->n_exps; f++)
		printf("  results: %s/sweep.csv, %s/sweep_summary.csv\n", p->bases[f], p->bases[f]);
	if (check && swp_across(o, p) != 0)
		rc = rc == CLI_OK ? CLI_FAIL : rc;
	if (check) {
		unsigned n_ok = 0;

		for (unsigned i = 0; i < p->n_runs; i++)
			n_ok += p->runs[i].status == 0;
		printf("%u of %u runs passed\n", n_ok, p->n_runs);
	}
	if (stopped && rc == CLI_OK)
		rc = CLI_FAIL;
	if (check && o->junit && swp_junit(o, p) != 0)
		rc = CLI_FAIL;
	for (unsigned i = 0; i < p->n_runs; i++)
		if (p->runs[i].status != 0 && p->runs[i].status != SWP_NOT_RUN)
			fprintf(stderr, "fabemu: %s: %s (see %s/fabemu.log)\n", p->runs[i].dir,
				swp_status_word(p->runs[i].status, check), p->runs[i].dir);
	return rc;
}

/* cli_sweep.h */
int swp_folders(const struct swp_plan *p, unsigned n_exps, int *locks, unsigned *n_locks)
{
	char path[SWP_PATH_BYTES + 32];
	int r;

	for (unsigned f = 0; p->multi && f < n_exps; f++) {
		int fd;

		if ((r = cli_mkdirs(p->bases[f])) != 0) {
			fprintf(stderr, "fabemu: %.400s: cannot create results folder: %s\n", p->bases[f],
				r == -ENOTDIR ? "it, or a folder above it, exists and is not a folder"
					      : strerror(-r));
			return CLI_BAD_INPUT;
		}
		snprintf(path, sizeof(path), "%s/.fabemu.lock", p->bases[f]);
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
			fprintf(stderr, "fabemu: %.400s: in use by another fabemu run (or cannot be locked): "
					"use another -o folder or wait\n", p->bases[f]);
			if (fd >= 0)
				close(fd);
			return CLI_BAD_INPUT;
		}
		locks[(*n_locks)++] = fd;
		snprintf(path, sizeof(path), "%s/sweep.csv", p->bases[f]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/sweep_summary.csv", p->bases[f]);
		unlink(path);
	}
	for (unsigned i = 0; i < p->n_runs; i++) {
		if ((r = cli_mkdirs(p->runs[i].dir)) != 0) {
			fprintf(stderr, "fabemu: %.400s: cannot create results folder: %s\n", p->runs[i].dir,
				r == -ENOTDIR ? "it, or a folder above it, exists and is not a folder"
					      : strerror(-r));
			return CLI_BAD_INPUT;
		}
	}
	return CLI_OK;
}
