/* `fabemu plot DIR_A DIR_B ...`: the same metric of several results folders
 * overlaid on one shared scale, one line per run named by its folder: FCT
 * CDFs, median slowdown by size, queue depth per sampled port (one panel a
 * port, every panel the same y range) and busbw by size; and the HPCC
 * paper's figure from fct_bins.csv (p50/p95/p99 slowdown per size bin), also
 * drawn for a single run. Each picture's data (.dat) sits beside it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_plot_int.h"

const char *const plot_runs_names[] = { "runs-fct-cdf", "runs-fct-slowdown", "runs-queues",
					"runs-busbw", "fct-bins" };
const size_t plot_n_runs_names = sizeof(plot_runs_names) / sizeof(plot_runs_names[0]);

static int plot_runs_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int plot_runs_nomem(char err[CFG_ERR_BYTES])
{
	snprintf(err, CFG_ERR_BYTES, "out of memory");
	return -ENOMEM;
}

/* Close the script @f of picture @name and run gnuplot on it. */
static int plot_runs_finish(struct plot_ctx *x, FILE *f, const char *name, const char *what,
			    char err[CFG_ERR_BYTES])
{
	char gp[64];

	fputc('\n', f);
	snprintf(gp, sizeof(gp), "%s.gp", name);
	if (plot_fclose(x, f, gp, err) != 0)
		return -EIO;
	return plot_run(x, name, what, err);
}

/* One line of a plot command: index @ix of @dat, titled @title. */
static void plot_runs_line(FILE *f, unsigned n, const char *dat, unsigned ix, const char *style,
			   const char *title)
{
	fprintf(f, "%s'%s' index %u %s title ", n ? ", \\\n     " : "plot ", dat, ix, style);
	plot_gp_str(f, title);
}

/* The CDF of each run's FCT (all completed messages): a point per message,
 * (fct, (i + 1) / n) of the sorted FCTs, thinned to PLOT_MAX_POINTS. */
static int plot_runs_cdf(struct plot_ctx *x, const char *const *labels, const struct plot_in *in,
			 unsigned n_runs, char err[CFG_ERR_BYTES])
{
	double lo = INFINITY, hi = 0, div;
	unsigned n_ix = 0;
	const char *unit;
	FILE *f, *g;

	for (unsigned r = 0; r < n_runs; r++)
		for (size_t i = 0; i < in[r].fl.n; i++) {
			lo = fmin(lo, in[r].fl.m[i].fct_ns);
			hi = fmax(hi, in[r].fl.m[i].fct_ns);
		}
	div = plot_time_unit(hi, &unit);
	if (!(f = plot_fopen(x, "runs-fct-cdf.dat", err)))
		return -EIO;
	if (!(g = plot_fopen(x, "runs-fct-cdf.gp", err))) {
		fclose(f);
		return -EIO;
	}
	plot_gp_head(x, g, "runs-fct-cdf", 1000, 600);
	fprintf(g, "set title 'FCT CDF per run (all completed messages)'\n"
		   "set xlabel 'flow completion time (%s%s)'\nset ylabel 'fraction of completed messages'\n"
		   "set yrange [0:1.02]\n%s", unit, hi > 100 * lo ? ", log scale" : "",
		hi > 100 * lo ? "set logscale x\n" : "");
	if (hi == lo) /* one FCT: an axis around it (gnuplot warns on an empty range) */
		fprintf(g, "set xrange [%.9g:%.9g]\n", 0.9 * lo / div, 1.1 * hi / div);
	fprintf(f, "# fct_%s fraction, one block per run with completed messages\n", unit);
	for (unsigned r = 0; r < n_runs; r++) {
		size_t n = in[r].fl.n, step = n > PLOT_MAX_POINTS ? (n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS : 1;
		double *v;

		if (!n)
			continue;
		if (!(v = malloc(n * sizeof(*v)))) {
			fclose(f);
			fclose(g);
			return plot_runs_nomem(err);
		}
		for (size_t i = 0; i < n; i++)
			v[i] = in[r].fl.m[i].fct_ns;
		qsort(v, n, sizeof(*v), plot_runs_cmp_double);
		fprintf(f, "%s# %s\n%.9g 0\n", n_ix ? "\n\n" : "", labels[r], v[0] / div);
		for (size_t i = 0; i < n; i++)
			if ((i + 1) % step == 0 || i + 1 == n)
				fprintf(f, "%.9g %.9g\n", v[i] / div, (double)(i + 1) / (double)n);
		free(v);
		plot_runs_line(g, n_ix, "runs-fct-cdf.dat", n_ix, "using 1:2 with steps lw 2", labels[r]);
		n_ix++;
	}
	if (plot_fclose(x, f, "runs-fct-cdf.dat", err) != 0) {
		fclose(g);
		return -EIO;
	}
	return plot_runs_finish(x, g, "runs-fct-cdf", "FCT CDF per run", err);
}

/* The median slowdown of each size of run @fl (by power-of-two bin when
 * it has more than 32 sizes) into @f: "bytes median" rows. 0 or -ENOMEM. */
static int plot_runs_medians(FILE *f, const struct plot_flows *fl)
{
	struct { double bytes, slow; } *v = malloc(fl->n * sizeof(*v));
	unsigned n_sizes = 0;
	double *s;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < fl->n; i++) {
		v[i].bytes = fl->m[i].bytes;
		v[i].slow = fl->m[i].slowdown;
	}
	/* By size, then slowdown: each group's middle one is its median. */
	qsort(v, fl->n, sizeof(*v), plot_runs_cmp_double); /* bytes is the first member */
	for (size_t i = 0; i < fl->n; i++)
		n_sizes += i == 0 || v[i].bytes != v[i - 1].bytes;
	if (!(s = malloc(fl->n * sizeof(*s)))) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0, j; i < fl->n; i = j) {
		double key = n_sizes > 32 ? floor(log2(fmax(v[i].bytes, 1))) : v[i].bytes;

		for (j = i; j < fl->n && (n_sizes > 32 ? floor(log2(fmax(v[j].bytes, 1)))
							: v[j].bytes) == key; j++)
			s[j - i] = v[j].slow;
		qsort(s, j - i, sizeof(*s), plot_runs_cmp_double);
		fprintf(f, "%.17g %.9g\n", v[i + (j - i - 1) / 2].bytes, s[(j - i - 1) / 2]);
	}
	free(s);
	free(v);
	return 0;
}

/* The median slowdown by message size, one line per run. */
static int plot_runs_slowdown(struct plot_ctx *x, const char *const *labels,
			      const struct plot_in *in, unsigned n_runs, char err[CFG_ERR_BYTES])
{
	unsigned n_ix = 0;
	double max_s = 0, min_b = INFINITY, max_b = 0;
	FILE *f, *g;

	if (!(f = plot_fopen(x, "runs-fct-slowdown.dat", err)))
		return -EIO;
	if (!(g = plot_fopen(x, "runs-fct-slowdown.gp", err))) {
		fclose(f);
		return -EIO;
	}
	fprintf(f, "# bytes median_slowdown (per size; per power of two over 32 sizes), a block per run\n");
	for (unsigned r = 0; r < n_runs; r++)
		for (size_t i = 0; i < in[r].fl.n; i++) {
			max_s = fmax(max_s, in[r].fl.m[i].slowdown);
			min_b = fmin(min_b, in[r].fl.m[i].bytes);
			max_b = fmax(max_b, in[r].fl.m[i].bytes);
		}
	plot_gp_head(x, g, "runs-fct-slowdown", 1000, 600);
	fprintf(g, "set title 'Median FCT slowdown by message size per run'\n"
		   "set xlabel 'message size (bytes: k = 10^3, M = 10^6; log scale)'\n"
		   "set ylabel 'median slowdown (FCT / ideal FCT)'\nset logscale x\n"
		   "set xrange [%.17g:%.17g]\nset format x '%%.0s%%cB'\n%s", min_b / 1.5, max_b * 1.5,
		max_s > 50 ? "set logscale y\n" : "set yrange [0:*]\n");
	for (unsigned r = 0; r < n_runs; r++) {
		if (!in[r].fl.n)
			continue;
		fprintf(f, "%s# %s\n", n_ix ? "\n\n" : "", labels[r]);
		if (plot_runs_medians(f, &in[r].fl) != 0) {
			fclose(f);
			fclose(g);
			return plot_runs_nomem(err);
		}
		plot_runs_line(g, n_ix, "runs-fct-slowdown.dat", n_ix,
			       "using 1:2 with linespoints lw 2 pt 7 ps 0.8", labels[r]);
		n_ix++;
	}
	if (plot_fclose(x, f, "runs-fct-slowdown.dat", err) != 0) {
		fclose(g);
		return -EIO;
	}
	return plot_runs_finish(x, g, "runs-fct-slowdown", "median FCT slowdown by size per run", err);
}

/* Port @name's samples of run @se into @f, thinned to PLOT_MAX_POINTS
 * buckets keeping each one's peak: "time queue_KiB". Returns the rows. */
static size_t plot_runs_port(FILE *f, const struct plot_series *se, const char *name, double div)
{
	size_t n = 0, k = 0, step, rows = 0;
	unsigned p;
	double t = 0, q = 0;

	for (p = 0; p < se->n_ports && strcmp(se->ports[p], name); p++)
		;
	if (p == se->n_ports)
		return 0; /* this run did not sample it */
	for (size_t i = 0; i < se->n; i++)
		n += se->s[i].port == p;
	step = n > PLOT_MAX_POINTS ? (n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS : 1;
	for (size_t i = 0; i < se->n; i++) {
		if (se->s[i].port != p)
			continue;
		if (k % step == 0) {
			t = se->s[i].t_ns;
			q = 0;
		}
		q = fmax(q, se->s[i].queue_bytes);
		if (++k % step == 0 || k == n) {
			fprintf(f, "%.9g %.9g\n", t / div, q / 1024);
			rows++;
		}
	}
	return rows;
}

/* The sampled ports of all runs by name, first seen first (the first
 * PLOT_MAX_PORTS), into @names; how many. */
static unsigned plot_runs_ports(const struct plot_in *in, unsigned n_runs,
				const char *names[PLOT_MAX_PORTS])
{
	unsigned n = 0;

	for (unsigned r = 0; r < n_runs; r++)
		for (unsigned p = 0; p < in[r].se.n_ports && n < PLOT_MAX_PORTS; p++) {
			unsigned k;

			for (k = 0; k < n && strcmp(names[k], in[r].se.ports[p]); k++)
				;
			if (k == n)
				names[n++] = in[r].se.ports[p];
		}
	return n;
}

/* Queue depth per sampled port: a panel per port name, a line per run that
 * sampled it, and one y range for every panel (the highest queue of any
 * run), so that runs and ports compare at a glance. */
static int plot_runs_queues(struct plot_ctx *x, const char *const *labels,
			    const struct plot_in *in, unsigned n_runs, char err[CFG_ERR_BYTES])
{
	const char *names[PLOT_MAX_PORTS], *unit;
	unsigned n_ports = plot_runs_ports(in, n_runs, names), n_ix = 0;
	double max_t = 0, max_q = 0, div;
	FILE *f, *g;

	for (unsigned r = 0; r < n_runs; r++)
		for (size_t i = 0; i < in[r].se.n; i++) {
			max_t = fmax(max_t, in[r].se.s[i].t_ns);
			max_q = fmax(max_q, in[r].se.s[i].queue_bytes);
		}
	div = plot_time_unit(max_t, &unit);
	if (!(f = plot_fopen(x, "runs-queues.dat", err)))
		return -EIO;
	if (!(g = plot_fopen(x, "runs-queues.gp", err))) {
		fclose(f);
		return -EIO;
	}
	fprintf(f, "# time_%s queue_KiB, a block per port and run (bucket peaks)\n", unit);
	plot_gp_head(x, g, "runs-queues", 1000, 120 + 220 * (int)n_ports);
	fprintf(g, "set multiplot layout %u,1 title 'Queue depth per sampled port, a line per run "
		   "(one y range for all)'\nset xlabel 'time (%s)'\nset ylabel 'queue (KiB)'\n"
		   "set xrange [0:%.9g]\n", n_ports, unit, max_t > 0 ? max_t / div : 1);
	for (unsigned p = 0; p < n_ports; p++) {
		unsigned n_lines = 0;

		fprintf(g, "set yrange [0:%.9g]\nset title ", max_q > 0 ? max_q / 1024 * 1.05 : 1);
		plot_gp_str(g, names[p]);
		fputc('\n', g);
		for (unsigned r = 0; r < n_runs; r++) {
			unsigned k;

			for (k = 0; k < in[r].se.n_ports && strcmp(in[r].se.ports[k], names[p]); k++)
				;
			if (k == in[r].se.n_ports)
				continue; /* this run did not sample it */
			fprintf(f, "%s# %s %s\n", n_ix ? "\n\n" : "", names[p], labels[r]);
			plot_runs_port(f, &in[r].se, names[p], div);
			plot_runs_line(g, n_lines++, "runs-queues.dat", n_ix++,
				       "using 1:2 with lines lw 1.5", labels[r]);
		}
		fputc('\n', g);
	}
	fprintf(g, "unset multiplot");
	if (plot_fclose(x, f, "runs-queues.dat", err) != 0) {
		fclose(g);
		return -EIO;
	}
	return plot_runs_finish(x, g, "runs-queues", "queue depth per sampled port, runs overlaid", err);
}

static int plot_runs_cmp_bw(const void *a, const void *b)
{
	const struct plot_bw *x = a, *y = b;

	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return x->size_bytes < y->size_bytes ? -1 : x->size_bytes > y->size_bytes;
}

/* Bus bandwidth by message size: a line per run and collective series
 * (named by the run alone when it has one series). */
static int plot_runs_busbw(struct plot_ctx *x, const char *const *labels, struct plot_in *in,
			   unsigned n_runs, char err[CFG_ERR_BYTES])
{
	double min_b = INFINITY, max_b = 0;
	unsigned n_ix = 0;
	FILE *f, *g;

	if (!(f = plot_fopen(x, "runs-busbw.dat", err)))
		return -EIO;
	if (!(g = plot_fopen(x, "runs-busbw.gp", err))) {
		fclose(f);
		return -EIO;
	}
	fprintf(f, "# size_bytes busbw_GBps (mean over iterations), a block per run and series\n");
	for (unsigned r = 0; r < n_runs; r++)
		for (size_t k = 0; k < in[r].more.n_bw; k++) {
			min_b = fmin(min_b, in[r].more.bw[k].size_bytes);
			max_b = fmax(max_b, in[r].more.bw[k].size_bytes);
		}
	plot_gp_head(x, g, "runs-busbw", 1000, 600);
	fprintf(g, "set title 'Bus bandwidth by message size per run (collectives.csv)'\n"
		   "set xlabel 'message size (bytes: k = 10^3, M = 10^6; log scale)'\n"
		   "set ylabel 'bus bandwidth (GB/s, busbw)'\nset logscale x\nset yrange [0:*]\n"
		   "set xrange [%.17g:%.17g]\nset format x '%%.0s%%cB'\n", min_b / 1.5, max_b * 1.5);
	for (unsigned r = 0; r < n_runs; r++) {
		struct plot_more *m = &in[r].more;

		qsort(m->bw, m->n_bw, sizeof(*m->bw), plot_runs_cmp_bw);
		for (size_t k = 0; k < m->n_bw; k++) {
			const struct plot_bw *b = &m->bw[k];
			char title[2 * PLOT_MAX_NAME + 64];

			if (k == 0 || b->series != m->bw[k - 1].series) {
				if (m->n_coll_names > 1)
					snprintf(title, sizeof(title), "%s: %s", labels[r],
						 m->coll_names[b->series]);
				else
					snprintf(title, sizeof(title), "%s", labels[r]);
				fprintf(f, "%s# %s\n", n_ix ? "\n\n" : "", title);
				plot_runs_line(g, n_ix, "runs-busbw.dat", n_ix,
					       "using 1:2 with linespoints lw 2 pt 7 ps 0.8", title);
				n_ix++;
			}
			fprintf(f, "%.17g %.9g\n", b->size_bytes, b->sum_busbw / b->n);
		}
	}
	if (plot_fclose(x, f, "runs-busbw.dat", err) != 0) {
		fclose(g);
		return -EIO;
	}
	return plot_runs_finish(x, g, "runs-busbw", "bus bandwidth by message size per run", err);
}

/* The HPCC paper's figure (Li et al., SIGCOMM 2019, figures 9-11) from
 * fct_bins.csv: the p50, p95 and p99 slowdown of each size bin (5% of the
 * messages), against the bin's largest message, a panel per percentile and
 * a line per run that has the file. Drawn as @name. */
int plot_bins_draw(struct plot_ctx *x, const char *name, const char *const *labels,
		   const struct plot_in *in, unsigned n_runs, char err[CFG_ERR_BYTES])
{
	static const char *const pct[3] = { "p50", "p95", "p99" };
	char path[96], dat[96];
	double min_b = INFINITY, max_b = 0;
	unsigned n_ix = 0;
	FILE *f, *g;

	snprintf(dat, sizeof(dat), "%s.dat", name);
	if (!(f = plot_fopen(x, dat, err)))
		return -EIO;
	fprintf(f, "# bytes_max slowdown_p50 slowdown_p95 slowdown_p99 (fct_bins.csv), a block per run\n");
	for (unsigned r = 0; r < n_runs; r++) {
		for (unsigned b = 0; b < in[r].bins.n; b++) {
			min_b = fmin(min_b, in[r].bins.b[b].bytes_max);
			max_b = fmax(max_b, in[r].bins.b[b].bytes_max);
		}
		if (!in[r].bins.n)
			continue;
		fprintf(f, "%s# %s\n", n_ix++ ? "\n\n" : "", labels[r]);
		for (unsigned b = 0; b < in[r].bins.n; b++)
			fprintf(f, "%.17g %.9g %.9g %.9g\n", in[r].bins.b[b].bytes_max,
				in[r].bins.b[b].p50, in[r].bins.b[b].p95, in[r].bins.b[b].p99);
	}
	if (plot_fclose(x, f, dat, err) != 0)
		return -EIO;
	snprintf(path, sizeof(path), "%s.gp", name);
	if (!(g = plot_fopen(x, path, err)))
		return -EIO;
	plot_gp_head(x, g, name, 1500, 500);
	fprintf(g, "set multiplot layout 1,3 title 'FCT slowdown per message size bin (fct_bins.csv: "
		   "20 bins of 5%% of the messages each, as in the HPCC paper)'\n"
		   "set xlabel 'message size (the bin''s largest; log scale)'\nset logscale x\n"
		   "set xrange [%.17g:%.17g]\nset format x '%%.0s%%cB'\nset ylabel 'slowdown'\n"
		   "set yrange [0:*]\nset key inside left top\n", min_b / 1.5, max_b * 1.5);
	for (unsigned p = 0; p < 3; p++) {
		fprintf(g, "set title '%s slowdown'\n", pct[p]);
		for (unsigned r = 0, ix = 0; r < n_runs; r++) {
			char style[64];

			if (!in[r].bins.n)
				continue;
			snprintf(style, sizeof(style), "using 1:%u with linespoints lw 2 pt 7 ps 0.6",
				 p + 2);
			plot_runs_line(g, ix, dat, ix, style, labels[r]);
			ix++;
		}
		fputc('\n', g);
	}
	fprintf(g, "unset multiplot");
	return plot_runs_finish(x, g, name, "FCT slowdown p50/p95/p99 per size bin", err);
}

/* Skip the across-run picture @name unless some run has its input. */
static bool plot_runs_any(const struct plot_in *in, unsigned n_runs, unsigned what)
{
	for (unsigned r = 0; r < n_runs; r++)
		if ((what == PLOT_FLOWS && in[r].fl.n) || (what == PLOT_SERIES && in[r].se.n) ||
		    (what == PLOT_COLL && in[r].more.n_bw) || (what == PLOT_BINS && in[r].bins.n))
			return true;
	return false;
}

int plot_runs_draw(struct plot_ctx *x, const char *const *labels, struct plot_in *in,
		   unsigned n_runs, char err[CFG_ERR_BYTES])
{
	int rc = 0;

	if (!plot_runs_any(in, n_runs, PLOT_FLOWS)) {
		plot_skip("runs-fct-cdf", "no run has a completed message in flows.csv");
		plot_skip("runs-fct-slowdown", "no run has a completed message in flows.csv");
	} else if ((rc = plot_runs_cdf(x, labels, in, n_runs, err)) != 0 ||
		   (rc = plot_runs_slowdown(x, labels, in, n_runs, err)) != 0) {
		return rc;
	}
	if (!plot_runs_any(in, n_runs, PLOT_SERIES))
		plot_skip("runs-queues", "no run has series.csv (outputs.series)");
	else if ((rc = plot_runs_queues(x, labels, in, n_runs, err)) != 0)
		return rc;
	if (!plot_runs_any(in, n_runs, PLOT_COLL))
		plot_skip("runs-busbw", "no run has a completed collective (collectives.csv)");
	else if ((rc = plot_runs_busbw(x, labels, in, n_runs, err)) != 0)
		return rc;
	if (!plot_runs_any(in, n_runs, PLOT_BINS))
		plot_skip("fct-bins", "no run has fct_bins.csv (a poisson workload with flows.csv)");
	else
		rc = plot_bins_draw(x, "fct-bins", labels, in, n_runs, err);
	return rc;
}
