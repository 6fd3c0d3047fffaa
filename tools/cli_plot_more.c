/* `fabemu plot DIR`, the pictures beside those of cli_plot.c: bus bandwidth
 * by message size (collectives.csv), per-flow rate and window over time
 * (rates.csv) and link utilisation per switch port, grouped by tier
 * (ports.csv). A picture whose input the results folder lacks is skipped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_plot_int.h"

enum {
	PLOT_MAX_FLOWS = 16,      /* flows of rates.csv drawn (the first ones) */
	PLOT_MAX_SWITCHES = 512,  /* rows of the utilisation heat map */
	PLOT_MAX_SW_PORTS = 1024, /* port numbers of the heat map */
	PLOT_MAX_NAME = 256,      /* a workload, flow or node label */
	PLOT_N_TIERS = 4,         /* leaf, spine, core, NVLink */
};

const char *const plot_more_names[] = { "busbw", "flow-rates", "port-utilisation" };
const size_t plot_n_more_names = sizeof(plot_more_names) / sizeof(plot_more_names[0]);

/* One (series, message size) of collectives.csv: its completed instances. */
struct plot_bw {
	double size_bytes;   /* nccl-tests' S */
	double sum_busbw;    /* GB/s, summed over the iterations */
	unsigned n;          /* completed iterations */
	unsigned series;     /* index into plot_more.coll_names */
};

/* One sample of rates.csv. */
struct plot_rate {
	double t_ns;          /* sample time */
	double rate_bps;      /* pacing rate */
	double window_bytes;  /* window; 0: none */
	unsigned flow;        /* index into plot_more.flows */
};

/* One port of a switch in ports.csv. */
struct plot_util {
	unsigned sw;          /* index into plot_more.switches */
	unsigned port;        /* port number */
	double util;          /* egress utilisation, 0..1 */
};

/* A switch of the heat map. */
struct plot_switch {
	char name[PLOT_MAX_NAME]; /* node name */
	unsigned tier;            /* index into plot_tiers */
	unsigned row;             /* its row, tier by tier from the bottom */
};

/* What the three pictures read. */
struct plot_more {
	bool coll_present;                      /* collectives.csv exists */
	struct plot_bw *bw;                     /* first seen first */
	size_t n_bw, cap_bw;                    /* used, allocated */
	char *coll_names[PLOT_MAX_SERIES];      /* "WORKLOAD (collective, algorithm)" */
	unsigned n_coll_names;                  /* how many */
	bool coll_more;                         /* more series than PLOT_MAX_SERIES */

	bool rates_present;                     /* rates.csv exists */
	struct plot_rate *r;                    /* in file order, drawn flows only */
	size_t n_r, cap_r;                      /* used, allocated */
	char *flows[PLOT_MAX_FLOWS];            /* "WORKLOAD flow ID: SRC -> DST" */
	char *flow_keys[PLOT_MAX_FLOWS];        /* "WORKLOAD,ID" */
	unsigned n_flows;                       /* drawn */
	unsigned n_flows_all;                   /* in the file: rows of the first sample */
	bool any_window;                        /* some window_bytes above 0 */
	double max_t_ns;                        /* the last sample time */

	struct plot_util *u;                    /* switch ports in file order */
	size_t n_u, cap_u;                      /* used, allocated */
	struct plot_switch *sw;                 /* switches, first seen first */
	unsigned n_sw;                          /* how many */
	unsigned max_port;                      /* the highest port number */
};

/* The tiers by name prefix, bottom up. */
static const char *const plot_tiers[PLOT_N_TIERS] = { "leaf", "spine", "core", "NVLink" };

/* A switch's tier from its name: the part after the last '/' (plane0/leaf3)
 * is a prefix and a number. edge, leaf, tor: leaf; agg, spine: spine; core:
 * core; nvl, nvswitch: NVLink. -1: no switch name (a host, NIC or GPU). */
static int plot_tier(const char *node)
{
	static const struct { const char *prefix; int tier; } pre[] = {
		{ "leaf", 0 }, { "edge", 0 }, { "tor", 0 }, { "spine", 1 }, { "agg", 1 },
		{ "core", 2 }, { "nvswitch", 3 }, { "nvl", 3 },
	};
	const char *base = strrchr(node, '/');

	base = base ? base + 1 : node;
	for (size_t k = 0; k < sizeof(pre) / sizeof(pre[0]); k++) {
		size_t n = strlen(pre[k].prefix);

		if (!strncmp(base, pre[k].prefix, n) && strspn(base + n, "0123456789") == strlen(base + n))
			return pre[k].tier;
	}
	return -1;
}

/* A workload's name may hold commas, written unquoted: @extra more fields
 * than the header. Its column @c_wl and the extra ones, commas restored. */
static void plot_join(const struct plot_csv *c, int c_wl, int extra, char *out, size_t len)
{
	out[0] = '\0';
	for (int k = c_wl; k <= c_wl + extra; k++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", k > c_wl ? "," : "", c->fields[k]);
}

/* Column @col of the current row, shifted by @extra past the workload's. */
static const char *plot_field(const struct plot_csv *c, int col, int c_wl, int extra)
{
	return c->fields[col > c_wl ? col + extra : col];
}

/* Open @name; *@present false (and 0) when absent. */
static int plot_more_open(struct plot_csv *c, const char *dir, const char *name, bool *present,
			  char err[CFG_ERR_BYTES])
{
	*present = false;
	if (plot_csv_open(c, dir, name) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot open: %s", c->path, c->why);
		return -EIO;
	}
	*present = true;
	return 0;
}

/* The error of a read loop that ended with @rc, into @err unless set. */
static int plot_more_end(struct plot_csv *c, int rc, char err[CFG_ERR_BYTES])
{
	if (rc == -ENOMEM)
		snprintf(err, CFG_ERR_BYTES, "%.400s: out of memory", c->path);
	else if (rc == -EIO)
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot read", c->path);
	plot_csv_close(c);
	return rc < 0 ? rc : 0;
}

/* collectives.csv: the mean busbw of each series and size. */
static int plot_read_coll(const char *dir, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int c_wl, c_coll, c_alg, c_size, c_bus, c_status, n_cols = 0, rc;

	rc = plot_more_open(&c, dir, "collectives.csv", &m->coll_present, err);
	if (rc != 0 || !m->coll_present)
		return rc;
	rc = plot_csv_next(&c);
	c_wl = rc > 0 ? plot_csv_col(&c, "workload") : -1;
	c_coll = rc > 0 ? plot_csv_col(&c, "collective") : -1;
	c_alg = rc > 0 ? plot_csv_col(&c, "algorithm") : -1;
	c_size = rc > 0 ? plot_csv_col(&c, "size_bytes") : -1;
	c_bus = rc > 0 ? plot_csv_col(&c, "busbw_GBps") : -1;
	c_status = rc > 0 ? plot_csv_col(&c, "status") : -1;
	n_cols = (int)c.n_fields;
	if (c_wl < 0 || c_coll < 0 || c_alg < 0 || c_size < 0 || c_bus < 0 || c_status < 0 ||
	    c_coll < c_wl || c_alg < c_wl || c_size < c_wl || c_bus < c_wl || c_status < c_wl) {
		snprintf(err, CFG_ERR_BYTES, "%.400s:1: not a fabemu collectives.csv header", c.path);
		plot_csv_close(&c);
		return -EINVAL;
	}
	while ((rc = plot_csv_next(&c)) > 0) {
		int extra = (int)c.n_fields - n_cols;
		char wl[PLOT_MAX_NAME], name[PLOT_MAX_NAME + 64];
		double size, busbw;
		unsigned s;
		size_t k;

		if (extra < 0 || c.n_fields == PLOT_MAX_FIELDS) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: %u columns, the header has %d", c.path,
				 c.lineno, c.n_fields, n_cols);
			rc = -EINVAL;
			break;
		}
		if (strcmp(plot_field(&c, c_status, c_wl, extra), "complete"))
			continue;
		if (plot_num(plot_field(&c, c_size, c_wl, extra), &size) || size <= 0 ||
		    plot_num(plot_field(&c, c_bus, c_wl, extra), &busbw)) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: size_bytes or busbw_GBps is not a number",
				 c.path, c.lineno);
			rc = -EINVAL;
			break;
		}
		plot_join(&c, c_wl, extra, wl, sizeof(wl));
		snprintf(name, sizeof(name), "%s (%s, %s)", wl, plot_field(&c, c_coll, c_wl, extra),
			 plot_field(&c, c_alg, c_wl, extra));
		for (s = 0; s < m->n_coll_names; s++)
			if (!strcmp(m->coll_names[s], name))
				break;
		if (s == PLOT_MAX_SERIES) {
			m->coll_more = true;
			continue;
		}
		if (s == m->n_coll_names) {
			if (!(m->coll_names[s] = strdup(name))) {
				rc = -ENOMEM;
				break;
			}
			m->n_coll_names++;
		}
		for (k = 0; k < m->n_bw; k++)
			if (m->bw[k].series == s && m->bw[k].size_bytes == size)
				break;
		if (k == m->n_bw) {
			if (plot_grow((void **)&m->bw, &m->cap_bw, k + 1, sizeof(*m->bw)) != 0) {
				rc = -ENOMEM;
				break;
			}
			m->bw[k] = (struct plot_bw){ .size_bytes = size, .series = s };
			m->n_bw++;
		}
		m->bw[k].sum_busbw += busbw;
		m->bw[k].n++;
	}
	return plot_more_end(&c, rc, err);
}

/* rates.csv: the samples of the first PLOT_MAX_FLOWS flows. */
static int plot_read_rates(const char *dir, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int c_t, c_wl, c_flow, c_src, c_dst, c_rate, c_win, n_cols, rc;
	double first_t = 0;

	rc = plot_more_open(&c, dir, "rates.csv", &m->rates_present, err);
	if (rc != 0 || !m->rates_present)
		return rc;
	rc = plot_csv_next(&c);
	c_t = rc > 0 ? plot_csv_col(&c, "time_ns") : -1;
	c_wl = rc > 0 ? plot_csv_col(&c, "workload") : -1;
	c_flow = rc > 0 ? plot_csv_col(&c, "flow") : -1;
	c_src = rc > 0 ? plot_csv_col(&c, "src") : -1;
	c_dst = rc > 0 ? plot_csv_col(&c, "dst") : -1;
	c_rate = rc > 0 ? plot_csv_col(&c, "rate_bps") : -1;
	c_win = rc > 0 ? plot_csv_col(&c, "window_bytes") : -1;
	n_cols = (int)c.n_fields;
	if (c_t < 0 || c_wl < 0 || c_flow < 0 || c_src < 0 || c_dst < 0 || c_rate < 0 ||
	    c_win < 0 || c_t > c_wl) {
		snprintf(err, CFG_ERR_BYTES, "%.400s:1: not a fabemu rates.csv header", c.path);
		plot_csv_close(&c);
		return -EINVAL;
	}
	while ((rc = plot_csv_next(&c)) > 0) {
		int extra = (int)c.n_fields - n_cols;
		char wl[PLOT_MAX_NAME], key[PLOT_MAX_NAME + 32];
		struct plot_rate r;
		unsigned f;

		if (extra < 0 || c.n_fields == PLOT_MAX_FIELDS ||
		    plot_num(plot_field(&c, c_t, c_wl, extra), &r.t_ns) ||
		    plot_num(plot_field(&c, c_rate, c_wl, extra), &r.rate_bps) ||
		    plot_num(plot_field(&c, c_win, c_wl, extra), &r.window_bytes)) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: not a rates.csv row", c.path, c.lineno);
			rc = -EINVAL;
			break;
		}
		/* Every sample time has a row per flow: count those of the first. */
		if (c.lineno == 2)
			first_t = r.t_ns;
		m->n_flows_all += r.t_ns == first_t;
		plot_join(&c, c_wl, extra, wl, sizeof(wl));
		snprintf(key, sizeof(key), "%s,%s", wl, plot_field(&c, c_flow, c_wl, extra));
		for (f = 0; f < m->n_flows; f++)
			if (!strcmp(m->flow_keys[f], key))
				break;
		if (f == m->n_flows) {
			char label[3 * PLOT_MAX_NAME];

			if (f == PLOT_MAX_FLOWS)
				continue;
			snprintf(label, sizeof(label), "%s flow %s: %s -> %s", wl,
				 plot_field(&c, c_flow, c_wl, extra), plot_field(&c, c_src, c_wl, extra),
				 plot_field(&c, c_dst, c_wl, extra));
			if (!(m->flow_keys[f] = strdup(key)) || !(m->flows[f] = strdup(label))) {
				free(m->flow_keys[f]);
				m->flow_keys[f] = NULL;
				rc = -ENOMEM;
				break;
			}
			m->n_flows++;
		}
		r.flow = f;
		m->any_window |= r.window_bytes > 0;
		m->max_t_ns = r.t_ns > m->max_t_ns ? r.t_ns : m->max_t_ns;
		if (plot_grow((void **)&m->r, &m->cap_r, m->n_r + 1, sizeof(*m->r)) != 0) {
			rc = -ENOMEM;
			break;
		}
		m->r[m->n_r++] = r;
	}
	return plot_more_end(&c, rc, err);
}

/* ports.csv: the utilisation of every switch port (a node with a tier). */
static int plot_read_ports(const char *dir, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int c_node, c_port, c_util, rc;
	bool present;

	rc = plot_more_open(&c, dir, "ports.csv", &present, err);
	if (rc != 0 || !present)
		return rc;
	rc = plot_csv_next(&c);
	c_node = rc > 0 ? plot_csv_col(&c, "node") : -1;
	c_port = rc > 0 ? plot_csv_col(&c, "port") : -1;
	c_util = rc > 0 ? plot_csv_col(&c, "utilisation") : -1;
	if (c_node < 0 || c_port < 0 || c_util < 0) {
		snprintf(err, CFG_ERR_BYTES, "%.400s:1: not a fabemu ports.csv header", c.path);
		plot_csv_close(&c);
		return -EINVAL;
	}
	while ((rc = plot_csv_next(&c)) > 0) {
		struct plot_util u;
		double port;
		int tier;

		if (c.n_fields <= (unsigned)c_node || c.n_fields <= (unsigned)c_port ||
		    c.n_fields <= (unsigned)c_util || plot_num(c.fields[c_port], &port) ||
		    port < 0 || port != floor(port) || plot_num(c.fields[c_util], &u.util)) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: not a ports.csv row", c.path, c.lineno);
			rc = -EINVAL;
			break;
		}
		tier = plot_tier(c.fields[c_node]);
		if (tier < 0 || port >= PLOT_MAX_SW_PORTS)
			continue;
		u.port = (unsigned)port;
		for (u.sw = 0; u.sw < m->n_sw; u.sw++)
			if (!strcmp(m->sw[u.sw].name, c.fields[c_node]))
				break;
		if (u.sw == PLOT_MAX_SWITCHES)
			continue;
		if (u.sw == m->n_sw) {
			struct plot_switch *sw = realloc(m->sw, (m->n_sw + 1) * sizeof(*sw));

			if (!sw) {
				rc = -ENOMEM;
				break;
			}
			m->sw = sw;
			snprintf(sw[u.sw].name, sizeof(sw[u.sw].name), "%s", c.fields[c_node]);
			sw[u.sw].tier = (unsigned)tier;
			m->n_sw++;
		}
		m->max_port = u.port > m->max_port ? u.port : m->max_port;
		if (plot_grow((void **)&m->u, &m->cap_u, m->n_u + 1, sizeof(*m->u)) != 0) {
			rc = -ENOMEM;
			break;
		}
		m->u[m->n_u++] = u;
	}
	return plot_more_end(&c, rc, err);
}

void plot_more_free(struct plot_more *m)
{
	if (!m)
		return;
	for (unsigned s = 0; s < m->n_coll_names; s++)
		free(m->coll_names[s]);
	for (unsigned f = 0; f < m->n_flows; f++) {
		free(m->flows[f]);
		free(m->flow_keys[f]);
	}
	free(m->bw);
	free(m->r);
	free(m->u);
	free(m->sw);
	free(m);
}

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

/* (f) Per sampled flow: the pacing rate over time, and below it the window
 * when some flow has one. Long series are thinned to PLOT_MAX_POINTS samples
 * per flow (its last one kept). */
static int plot_rates(struct plot_ctx *x, const struct plot_more *m, char err[CFG_ERR_BYTES])
{
	const char *unit;
	double div = plot_time_unit(m->max_t_ns, &unit);
	unsigned n_panels = m->any_window ? 2 : 1;
	char more[64] = "";
	FILE *f;

	if (!(f = plot_fopen(x, "flow-rates.dat", err)))
		return -EIO;
	fprintf(f, "# time_%s rate_Gbps window_bytes, one block per flow\n", unit);
	for (unsigned fl = 0; fl < m->n_flows; fl++) {
		size_t n = 0, k = 0, step;

		for (size_t i = 0; i < m->n_r; i++)
			n += m->r[i].flow == fl;
		step = n > PLOT_MAX_POINTS ? (n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS : 1;
		fprintf(f, "%s# %s\n", fl ? "\n\n" : "", m->flows[fl]);
		for (size_t i = 0; i < m->n_r; i++) {
			const struct plot_rate *r = &m->r[i];

			if (r->flow != fl)
				continue;
			if (k % step == 0 || k + 1 == n)
				fprintf(f, "%.9g %.9g %.9g\n", r->t_ns / div, r->rate_bps / 1e9,
					r->window_bytes);
			k++;
		}
	}
	if (plot_fclose(x, f, "flow-rates.dat", err) != 0)
		return -EIO;

	if (m->n_flows_all > m->n_flows)
		snprintf(more, sizeof(more), ", the first %u of %u flows", m->n_flows, m->n_flows_all);
	if (!(f = plot_fopen(x, "flow-rates.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "flow-rates", 1000, 120 + 380 * (int)n_panels);
	fprintf(f, "set multiplot layout %u,1 title 'Congestion control per sampled flow "
		   "(rates.csv%s)'\nset xlabel 'time (%s)'\nset xrange [0:%.9g]\n"
		   "set title 'pacing rate'\nset ylabel 'rate (Gb/s)'\nset yrange [0:*]\nplot ",
		n_panels, more, unit, m->max_t_ns > 0 ? m->max_t_ns / div : 1);
	for (unsigned fl = 0; fl < m->n_flows; fl++) {
		fprintf(f, "%s'flow-rates.dat' index %u using 1:2 with steps lw 1.5 dt %u title ",
			fl ? ", \\\n     " : "", fl, fl / 8 + 1);
		plot_gp_str(f, m->flows[fl]);
	}
	if (m->any_window) {
		fprintf(f, "\nset title 'window (0: no window)'\nset ylabel 'window (bytes)'\n"
			   "set format y '%%.0s%%cB'\nplot ");
		for (unsigned fl = 0; fl < m->n_flows; fl++) {
			fprintf(f, "%s'flow-rates.dat' index %u using 1:3 with steps lw 1.5 dt %u title ",
				fl ? ", \\\n     " : "", fl, fl / 8 + 1);
			plot_gp_str(f, m->flows[fl]);
		}
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

int plot_more_read(const char *dir, struct plot_more **out, char err[CFG_ERR_BYTES])
{
	struct plot_more *m = calloc(1, sizeof(*m));
	int rc;

	*out = NULL;
	if (!m) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	rc = plot_read_coll(dir, m, err);
	if (rc == 0)
		rc = plot_read_rates(dir, m, err);
	if (rc == 0)
		rc = plot_read_ports(dir, m, err);
	if (rc != 0) {
		plot_more_free(m);
		return rc;
	}
	*out = m;
	return 0;
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
	else if ((rc = plot_rates(x, m, err)) != 0)
		return rc;
	if (!m->n_u) {
		plot_skip("port-utilisation", "no switch port in ports.csv");
		return 0;
	}
	return plot_utilisation(x, m, err);
}
