/* `fabemu plot DIR`, the pictures beside those of cli_plot.c: bus bandwidth
 * by message size (collectives.csv), per-flow rate and window over time
 * (rates.csv) and link utilisation per switch port, grouped by tier
 * (ports.csv), from what cli_plot_read.c read. A picture whose input the
 * results folder lacks is skipped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_plot_int.h"

const char *const plot_more_names[] = { "busbw", "flow-rates", "port-utilisation" };
const size_t plot_n_more_names = sizeof(plot_more_names) / sizeof(plot_more_names[0]);

static int plot_cmp_bw(const void *a, const void *b)
{
	const struct plot_bw *x = a, *y = b;

	if (x->series != y->series)
		return x->series < y->series ? -1 : 1;
	return x->size_bytes < y->size_bytes ? -1 : x->size_bytes > y->size_bytes;
}

/* (e) Bus bandwidth against message size: one line per workload, collective
 * and algorithm, each point the mean over the size's completed iterations. */
static int plot_busbw(struct plot_ctx *x, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	double min_b = INFINITY, max_b = 0, min_bw = INFINITY, max_bw = 0;
	FILE *f;

	qsort(m->bw, m->n_bw, sizeof(*m->bw), plot_cmp_bw);
	if (!(f = plot_fopen(x, "busbw.dat", err)))
		return -EIO;
	fprintf(f, "# size_bytes busbw_GBps (mean over iterations), one block per series\n");
	for (size_t k = 0; k < m->n_bw; k++) {
		const struct plot_bw *b = &m->bw[k];
		double bw = b->sum_busbw / b->n;

		if (k && b->series != m->bw[k - 1].series)
			fprintf(f, "\n\n");
		if (k == 0 || b->series != m->bw[k - 1].series)
			fprintf(f, "# %s\n", m->coll_names[b->series]);
		fprintf(f, "%.17g %.9g\n", b->size_bytes, bw);
		min_b = b->size_bytes < min_b ? b->size_bytes : min_b;
		max_b = b->size_bytes > max_b ? b->size_bytes : max_b;
		if (bw > 0)
			min_bw = bw < min_bw ? bw : min_bw;
		max_bw = bw > max_bw ? bw : max_bw;
	}
	if (plot_fclose(x, f, "busbw.dat", err) != 0)
		return -EIO;

	if (!(f = plot_fopen(x, "busbw.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "busbw", 1000, 600);
	fprintf(f, "set title 'Bus bandwidth by message size (collectives.csv, the mean of each size''s "
		   "iterations%s)'\n"
		   "set xlabel 'message size (bytes: k = 10^3, M = 10^6; log scale)'\n"
		   "set logscale x\nset xrange [%.17g:%.17g]\nset format x '%%.0s%%cB'\n",
		m->coll_more ? "; the first 10 series" : "", min_b / 1.5, max_b * 1.5);
	if (max_bw > 100 * min_bw)
		fprintf(f, "set ylabel 'bus bandwidth (GB/s, busbw; log scale)'\nset logscale y\n");
	else
		fprintf(f, "set ylabel 'bus bandwidth (GB/s, busbw)'\nset yrange [0:%s]\n",
			max_bw > 0 ? "*" : "1");
	fprintf(f, "plot ");
	for (unsigned s = 0; s < m->n_coll_names; s++) {
		fprintf(f, "%s'busbw.dat' index %u using 1:2 with linespoints lw 2 pt 7 ps 0.8 title ",
			s ? ", \\\n     " : "", s);
		plot_gp_str(f, m->coll_names[s]);
	}
	fputc('\n', f);
	if (plot_fclose(x, f, "busbw.gp", err) != 0)
		return -EIO;
	return plot_run(x, "busbw", "bus bandwidth by message size", err);
}

/* The samples of flow @fl into @f, active stretches only: a QP before its
 * first message and after its last has no rate to show (rates.csv's
 * outstanding_wrs is 0), so each stretch of active samples is a data block
 * of its own (a blank line between: gnuplot leaves a gap) and an idle
 * sample is not written. Long series are thinned to about PLOT_MAX_POINTS
 * samples, each stretch's first and last kept. Returns the samples written. */
static size_t plot_rates_flow(FILE *f, const struct plot_more *m, unsigned fl, double div)
{
	size_t n = 0, k = 0, step, written = 0;
	const struct plot_rate *prev = NULL, *r;
	bool gap = false;

	for (size_t i = 0; i < m->n_r; i++)
		n += m->r[i].flow == fl;
	step = n > PLOT_MAX_POINTS ? (n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS : 1;
	for (size_t i = 0; i < m->n_r; i++) {
		const struct plot_rate *next = NULL;

		if ((r = &m->r[i])->flow != fl)
			continue;
		for (size_t j = i + 1; j < m->n_r && !next; j++)
			next = m->r[j].flow == fl ? &m->r[j] : NULL;
		if (!r->active) {
			gap |= written > 0;
		} else if (k % step == 0 || !prev || !prev->active || !next || !next->active) {
			fprintf(f, "%s%.9g %.9g %.9g\n", gap ? "\n" : "", r->t_ns / div,
				r->rate_bps / 1e9, r->window_bytes);
			gap = false;
			written++;
		}
		prev = r;
		k++;
	}
	return written;
}

/* One line per flow that was ever active: steps through its samples, and
 * a dot on each (a stretch of one sample has no step to draw). */
static void plot_rates_lines(FILE *f, const struct plot_more *m, const size_t *n_pts, unsigned col)
{
	for (unsigned fl = 0, n = 0; fl < m->n_flows; fl++) {
		if (!n_pts[fl])
			continue;
		fprintf(f, "%s'flow-rates.dat' index %u using 1:%u with steps lw 1.5 dt %u lc %u title ",
			n++ ? ", \\\n     " : "", fl, col, fl / 8 + 1, fl + 1);
		plot_gp_str(f, m->flows[fl]);
		fprintf(f, ", \\\n     '' index %u using 1:%u with points pt 7 ps 0.4 lc %u notitle",
			fl, col, fl + 1);
	}
}

/* (f) Per sampled flow: the pacing rate over time while the flow is active,
 * and below it the window when some flow has one. */
static int plot_rates(struct plot_ctx *x, const struct plot_more *m, char err[CFG_ERR_BYTES])
{
	const char *unit;
	double div = plot_time_unit(m->max_t_ns, &unit);
	unsigned n_panels = m->any_window ? 2 : 1, n_idle = 0;
	size_t n_pts[PLOT_MAX_FLOWS] = { 0 };
	char more[128] = "";
	FILE *f;

	if (!(f = plot_fopen(x, "flow-rates.dat", err)))
		return -EIO;
	fprintf(f, "# time_%s rate_Gbps window_bytes, one block per flow; active samples only "
		   "(outstanding_wrs > 0), a blank line between stretches\n", unit);
	for (unsigned fl = 0; fl < m->n_flows; fl++) {
		fprintf(f, "%s# %s\n", fl ? "\n\n" : "", m->flows[fl]);
		n_pts[fl] = plot_rates_flow(f, m, fl, div);
		n_idle += !n_pts[fl];
	}
	if (plot_fclose(x, f, "flow-rates.dat", err) != 0)
		return -EIO;

	if (m->n_flows_all > m->n_flows)
		snprintf(more, sizeof(more), ", the first %u of %u flows", m->n_flows, m->n_flows_all);
	if (n_idle)
		snprintf(more + strlen(more), sizeof(more) - strlen(more), ", %u never active", n_idle);
	if (!(f = plot_fopen(x, "flow-rates.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "flow-rates", 1000, 120 + 380 * (int)n_panels);
	fprintf(f, "set multiplot layout %u,1 title 'Congestion control per sampled flow while active "
		   "(rates.csv%s)'\nset xlabel 'time (%s)'\nset xrange [0:%.9g]\n"
		   "set title 'pacing rate'\nset ylabel 'rate (Gb/s)'\nset yrange [0:*]\nplot ",
		n_panels, more, unit, m->max_t_ns > 0 ? m->max_t_ns / div : 1);
	plot_rates_lines(f, m, n_pts, 2);
	if (m->any_window) {
		fprintf(f, "\nset title 'window (0: no window)'\nset ylabel 'window (bytes)'\n"
			   "set format y '%%.0s%%cB'\nplot ");
		plot_rates_lines(f, m, n_pts, 3);
	}
	fprintf(f, "\nunset multiplot\n");
	if (plot_fclose(x, f, "flow-rates.gp", err) != 0)
		return -EIO;
	return plot_run(x, "flow-rates", m->any_window ? "per-flow rate and window over time"
						       : "per-flow rate over time", err);
}

/* (g) Utilisation of every switch port as a heat map: one row per switch,
 * tier by tier from the bottom (leaf, spine, core, NVLink; plot_tier), one
 * column per port number; a port without a link is left blank. */
static int plot_utilisation(struct plot_ctx *x, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	unsigned first[PLOT_N_TIERS + 1] = { 0 }, row = 0, n_cols = m->max_port + 1;
	unsigned tic_step = m->n_sw > 64 ? (m->n_sw + 63) / 64 : 1;
	int h = 200 + 14 * (int)(m->n_sw < 100 ? m->n_sw : 100);
	double *cells;
	FILE *f;

	for (unsigned t = 0; t < PLOT_N_TIERS; t++) {
		first[t] = row;
		for (unsigned s = 0; s < m->n_sw; s++)
			if (m->sw[s].tier == t)
				m->sw[s].row = row++;
	}
	first[PLOT_N_TIERS] = row;
	/* gnuplot's image needs two pixels each way to know their size. */
	n_cols = n_cols < 2 ? 2 : n_cols;
	cells = malloc((size_t)(m->n_sw + 1) * n_cols * sizeof(*cells));
	if (!cells) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	for (size_t k = 0; k < (size_t)(m->n_sw + 1) * n_cols; k++)
		cells[k] = NAN;
	for (size_t k = 0; k < m->n_u; k++)
		cells[(size_t)m->sw[m->u[k].sw].row * n_cols + m->u[k].port] = m->u[k].util;
	if (!(f = plot_fopen(x, "port-utilisation.dat", err))) {
		free(cells);
		return -EIO;
	}
	fprintf(f, "# port row utilisation (NaN: no link), rows tier by tier:");
	for (unsigned s = 0; s < m->n_sw; s++)
		fprintf(f, "%s %u=%s", s % 8 ? "" : "\n#", m->sw[s].row, m->sw[s].name);
	fputc('\n', f);
	for (unsigned r = 0; r < (m->n_sw < 2 ? 2 : m->n_sw); r++) {
		for (unsigned p = 0; p < n_cols; p++) {
			double v = cells[(size_t)r * n_cols + p];

			if (isnan(v))
				fprintf(f, "%u %u NaN\n", p, r);
			else
				fprintf(f, "%u %u %.6g\n", p, r, v);
		}
		fputc('\n', f);
	}
	free(cells);
	if (plot_fclose(x, f, "port-utilisation.dat", err) != 0)
		return -EIO;

	if (!(f = plot_fopen(x, "port-utilisation.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "port-utilisation", 1000, h);
	fprintf(f, "set title 'Link utilisation per switch port (ports.csv, egress; %u switches, "
		   "grouped by tier; blank: no link)'\n"
		   "set xlabel 'port number'\nset ylabel 'switch'\n"
		   "set xrange [-0.5:%u.5]\nset yrange [-0.5:%u.5]\nset y2range [-0.5:%u.5]\n"
		   "set grid noxtics noytics\nunset key\nset tics out\n"
		   "set cbrange [0:1]\nset cblabel 'utilisation (egress busy fraction, 0..1)'\n"
		   "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', "
		   "0.75 '#5ec962', 1 '#fde725')\n"
		   "set rmargin at screen 0.80\n"
		   "set colorbox user origin screen 0.88, screen 0.15 size screen 0.025, screen 0.7\n"
		   "set ytics (",
		m->n_sw, n_cols - 1, (m->n_sw < 2 ? 2 : m->n_sw) - 1, (m->n_sw < 2 ? 2 : m->n_sw) - 1);
	for (unsigned s = 0, n = 0; s < m->n_sw; s++) {
		if (m->sw[s].row % tic_step)
			continue;
		fprintf(f, "%s", n++ ? ", " : "");
		plot_gp_str(f, m->sw[s].name);
		fprintf(f, " %u", m->sw[s].row);
	}
	fprintf(f, ")\nset y2tics (");
	for (unsigned t = 0, n = 0; t < PLOT_N_TIERS; t++)
		if (first[t + 1] > first[t])
			fprintf(f, "%s'%s' %.9g", n++ ? ", " : "", plot_tiers[t],
				(first[t] + first[t + 1] - 1) / 2.0);
	fprintf(f, ")\nset y2tics nomirror\nset ytics nomirror\n");
	for (unsigned t = 1; t < PLOT_N_TIERS; t++)
		if (first[t] > 0 && first[t] < row)
			fprintf(f, "set arrow from graph 0, first %u.5 to graph 1, first %u.5 nohead "
				   "lw 2 lc rgb 'black' front\n", first[t] - 1, first[t] - 1);
	fprintf(f, "plot 'port-utilisation.dat' using 1:2:3 with image\n");
	if (plot_fclose(x, f, "port-utilisation.gp", err) != 0)
		return -EIO;
	return plot_run(x, "port-utilisation", "link utilisation per switch port by tier", err);
}

/* Whether some drawn flow had messages outstanding at a sample time. */
static bool plot_rates_any_active(const struct plot_more *m)
{
	for (size_t i = 0; i < m->n_r; i++)
		if (m->r[i].active)
			return true;
	return false;
}

int plot_more_draw(struct plot_ctx *x, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	int rc;

	if (!m->coll_present)
		plot_skip("busbw", "no collectives.csv (no collective workload)");
	else if (!m->n_bw)
		plot_skip("busbw", "no collective completed");
	else if ((rc = plot_busbw(x, m, err)) != 0)
		return rc;
	if (!m->rates_present)
		plot_skip("flow-rates", "no rates.csv (set outputs.series.flows to sample flows)");
	else if (!m->n_r)
		plot_skip("flow-rates", "rates.csv has no sample");
	else if (!plot_rates_any_active(m))
		plot_skip("flow-rates", "no sampled flow was active at a sample time");
	else if ((rc = plot_rates(x, m, err)) != 0)
		return rc;
	if (!m->n_u) {
		plot_skip("port-utilisation", "no switch port in ports.csv");
		return 0;
	}
	return plot_utilisation(x, m, err);
}
