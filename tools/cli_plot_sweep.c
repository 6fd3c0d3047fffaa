/* `fabemu plot SWEEP_DIR`: a sweep folder (the one `run --sweep/--seeds`
 * writes) drawn from its sweep.csv: each metric against the first swept
 * key, a point per value at the mean over the point's seeds with its 95%
 * interval, mean -+ t(0.975, n - 1) s / sqrt(n) with Student's t (computed
 * here from the runs, plot_mean_ci), a line per value of the other keys. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_plot_csv.h"
#include "cli_plot_int.h"
#include "cli_sweep.h"

/* Where each point of the sweep goes: its x (a value of the first key) and
 * its line (the values of the others). */
struct plot_sweep_map {
	unsigned *xi;        /* per point: index into the x values */
	unsigned *si;        /* per point: its line */
	unsigned *x_first;   /* per x value: the first point with it (its label) */
	double *x;           /* per x value: where it is drawn */
	unsigned *x_order;   /* the x values in drawing order */
	unsigned n_x, n_s;   /* x values, lines */
	unsigned *s_first;   /* per line: its first point (its label) */
	bool numeric;        /* every x value is a number: drawn at it */
};

/* Do points @a and @b of @sw have equal values of the keys from @k0 on
 * (@only_first: of key 0 alone)? */
static bool plot_sweep_same(const struct plot_sweep *sw, unsigned a, unsigned b, bool only_first)
{
	for (unsigned k = only_first ? 0 : 1; k < (only_first ? 1 : sw->n_keys); k++)
		if (strcmp(sw->values[(size_t)a * sw->n_keys + k], sw->values[(size_t)b * sw->n_keys + k]))
			return false;
	return true;
}

/* Fill @mp for @sw: 0 or -ENOMEM. */
static int plot_sweep_mapping(const struct plot_sweep *sw, struct plot_sweep_map *mp)
{
	unsigned n = sw->n_points;

	mp->xi = calloc(n, sizeof(*mp->xi));
	mp->si = calloc(n, sizeof(*mp->si));
	mp->x_first = calloc(n, sizeof(*mp->x_first));
	mp->s_first = calloc(n, sizeof(*mp->s_first));
	mp->x = calloc(n, sizeof(*mp->x));
	mp->x_order = calloc(n, sizeof(*mp->x_order));
	if (!mp->xi || !mp->si || !mp->x_first || !mp->s_first || !mp->x || !mp->x_order)
		return -ENOMEM;
	mp->numeric = sw->n_keys > 0;
	for (unsigned p = 0; p < n; p++) {
		unsigned k;

		for (k = 0; k < mp->n_x && !(sw->n_keys == 0 ||
					     plot_sweep_same(sw, mp->x_first[k], p, true)); k++)
			;
		if (k == mp->n_x) {
			mp->x_first[mp->n_x++] = p;
			if (sw->n_keys == 0 || plot_num(sw->values[(size_t)p * sw->n_keys], &mp->x[k]) != 0)
				mp->numeric = false;
		}
		mp->xi[p] = k;
		for (k = 0; k < mp->n_s && !plot_sweep_same(sw, mp->s_first[k], p, false); k++)
			;
		if (k == mp->n_s)
			mp->s_first[mp->n_s++] = p;
		mp->si[p] = k;
	}
	for (unsigned k = 0; k < mp->n_x; k++) {
		mp->x_order[k] = k;
		if (!mp->numeric)
			mp->x[k] = k; /* categories, drawn in the order given */
	}
	/* Numbers ascending (insertion sort: a sweep has few values). */
	for (unsigned k = 1; k < mp->n_x; k++)
		for (unsigned j = k; j > 0 && mp->x[mp->x_order[j - 1]] > mp->x[mp->x_order[j]]; j--) {
			unsigned t = mp->x_order[j];

			mp->x_order[j] = mp->x_order[j - 1];
			mp->x_order[j - 1] = t;
		}
	return 0;
}

static void plot_sweep_map_free(struct plot_sweep_map *mp)
{
	free(mp->xi);
	free(mp->si);
	free(mp->x_first);
	free(mp->s_first);
	free(mp->x);
	free(mp->x_order);
}

/* A line's label: "k2=v2,k3=v3" of its first point, or @dflt with one key. */
static void plot_sweep_label(const struct plot_sweep *sw, unsigned p, const char *dflt, char *out,
			     size_t len)
{
	size_t n = 0;

	snprintf(out, len, "%s", sw->n_keys > 1 ? "" : dflt);
	for (unsigned k = 1; k < sw->n_keys && n < len; k++)
		n += (size_t)snprintf(out + n, len - n, "%s%s=%s", k > 1 ? "," : "", sw->keys[k],
				      sw->values[(size_t)p * sw->n_keys + k]);
}

/* The rows of metric @m, line @s into @f (NULL: only counted): "x mean
 * low high n sd" per x value whose point has a number for @m; @v has room
 * for every run; @span widened to the intervals' ends. Returns the rows. */
static unsigned plot_sweep_rows(FILE *f, const struct plot_sweep *sw,
				const struct plot_sweep_map *mp, unsigned m, unsigned s, double *v,
				double span[2])
{
	unsigned rows = 0;

	for (unsigned o = 0; o < mp->n_x; o++) {
		unsigned xi = mp->x_order[o];
		size_t n = 0;
		struct plot_ci ci;

		for (size_t r = 0; r < sw->n_runs; r++) {
			unsigned p = sw->runs[r].point;

			if (mp->xi[p] == xi && mp->si[p] == s && !isnan(sw->runs[r].x[m]))
				v[n++] = sw->runs[r].x[m];
		}
		if (!n)
			continue;
		rows++;
		ci = plot_mean_ci(v, n, swp_t975);
		span[0] = fmin(span[0], ci.mean - ci.half);
		span[1] = fmax(span[1], ci.mean + ci.half);
		if (!f)
			continue;
		fprintf(f, "%.12g %.12g %.12g %.12g %zu %.12g\n", mp->x[xi], ci.mean, ci.mean - ci.half,
			ci.mean + ci.half, n, ci.sd);
	}
	return rows;
}

/* The script's x axis: the first key's values, at their numbers or as
 * categories. */
static void plot_sweep_xaxis(FILE *g, const struct plot_sweep *sw, const struct plot_sweep_map *mp)
{
	double lo = INFINITY, hi = -INFINITY;

	fprintf(g, "set xlabel ");
	plot_gp_str(g, sw->n_keys ? sw->keys[0] : "all seeds (--seeds without --sweep)");
	fputc('\n', g);
	for (unsigned k = 0; k < mp->n_x; k++) {
		lo = fmin(lo, mp->x[k]);
		hi = fmax(hi, mp->x[k]);
	}
	if (mp->numeric && lo > 0 && hi >= 100 * lo)
		fprintf(g, "set logscale x\nset xrange [%.12g:%.12g]\n", lo / 1.5, hi * 1.5);
	else if (mp->numeric && hi > lo)
		fprintf(g, "set xrange [%.12g:%.12g]\n", lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.05);
	else if (mp->numeric)
		fprintf(g, "set xrange [%.12g:%.12g]\n", lo - 1, hi + 1);
	else {
		fprintf(g, "set xrange [-0.5:%u.5]\nset xtics (", mp->n_x - 1);
		for (unsigned k = 0; k < mp->n_x; k++) {
			fprintf(g, "%s", k ? ", " : "");
			plot_gp_str(g, sw->n_keys ? sw->values[(size_t)mp->x_first[k] * sw->n_keys]
						  : "all seeds");
			fprintf(g, " %u", k);
		}
		fprintf(g, ")\n");
	}
}

/* Write sweep.dat and the panels of sweep.gp: 0, or -errno with @err. */
static int plot_sweep_files(struct plot_ctx *x, const struct plot_sweep *sw,
			    const struct plot_sweep_map *mp, double *v, FILE *f, FILE *g)
{
	unsigned n_ix = 0, n_s = mp->n_s < PLOT_MAX_SERIES ? mp->n_s : PLOT_MAX_SERIES;

	plot_gp_head(x, g, "sweep", 1000, 120 + 320 * (int)sw->n_metrics);
	fprintf(g, "set multiplot layout %u,1 title 'Sweep (sweep.csv): the mean over seeds and its "
		   "95%% interval (Student t, n - 1 degrees of freedom)%s%s'\n", sw->n_metrics,
		sw->n_metrics_all > sw->n_metrics ? "; the first 8 metrics" : "",
		mp->n_s > n_s ? "; the first 10 lines" : "");
	plot_sweep_xaxis(g, sw, mp);
	fprintf(f, "# x mean ci95_low ci95_high n sd, a block per metric and line\n");
	for (unsigned m = 0; m < sw->n_metrics; m++) {
		unsigned n_lines = 0;
		double span[2] = { INFINITY, -INFINITY };

		fprintf(g, "set title ");
		plot_gp_str(g, sw->metrics[m]);
		fprintf(g, "\nset ylabel ");
		plot_gp_str(g, sw->metrics[m]);
		fputc('\n', g);
		for (unsigned s = 0; s < n_s; s++)
			plot_sweep_rows(NULL, sw, mp, m, s, v, span);
		/* A metric equal everywhere (0 drops) gets an axis around it. */
		if (span[0] < span[1])
			fprintf(g, "set yrange [*:*]\n");
		else if (span[0] == span[1])
			fprintf(g, "set yrange [%.12g:%.12g]\n", span[0] - 1, span[0] + 1);
		for (unsigned s = 0; s < n_s; s++) {
			char label[1024];

			if (!plot_sweep_rows(NULL, sw, mp, m, s, v, span))
				continue;
			plot_sweep_label(sw, mp->s_first[s], "mean, 95% interval", label, sizeof(label));
			fprintf(f, "%s# %s %s\n", n_ix ? "\n\n" : "", sw->metrics[m], label);
			plot_sweep_rows(f, sw, mp, m, s, v, span);
			fprintf(g, "%s'sweep.dat' index %u using 1:2:3:4 with yerrorlines lw 2 pt 7 title ",
				n_lines++ ? ", \\\n     " : "plot ", n_ix++);
			plot_gp_str(g, label);
		}
		/* A metric without a number anywhere gets no panel. */
		fputc('\n', g);
	}
	fprintf(g, "unset multiplot\n");
	return 0;
}

int plot_sweep_draw(struct plot_ctx *x, const struct plot_sweep *sw, char err[CFG_ERR_BYTES])
{
	struct plot_sweep_map mp = { 0 };
	double *v = malloc((sw->n_runs + 1) * sizeof(*v));
	FILE *f = NULL, *g = NULL;
	int rc = -EIO;

	if (!v || plot_sweep_mapping(sw, &mp) != 0) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	if (!(f = plot_fopen(x, "sweep.dat", err)) || !(g = plot_fopen(x, "sweep.gp", err)))
		goto out;
	plot_sweep_files(x, sw, &mp, v, f, g);
	rc = plot_fclose(x, f, "sweep.dat", err);
	f = NULL;
	if (plot_fclose(x, g, "sweep.gp", err) != 0 || rc != 0) {
		g = NULL;
		rc = -EIO;
		goto out;
	}
	g = NULL;
	rc = plot_run(x, "sweep", "each metric against the swept value, mean and 95% interval over seeds",
		      err);
out:
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	plot_sweep_map_free(&mp);
	free(v);
	return rc;
}
