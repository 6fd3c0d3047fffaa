/* `fabemu plot`'s readers: the CSV files of a results folder (flows.csv,
 * series.csv, pfc.csv, collectives.csv, rates.csv, ports.csv) into struct
 * plot_in before any picture is written. Each file is bounded (its size by
 * fstat before it is read, each line as it is read), every row is checked,
 * and a message says where and what was expected, never the file's text
 * (the CSV reader: cli_plot_csv.c). Rows are found by hash (struct
 * plot_index), not by scanning. Linked into
 * the fuzz targets too (tools/meson.build, tests/fuzz/fuzz_plot.c). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_plot_csv.h"
#include "cli_plot_int.h"

const char *const plot_file_names[PLOT_N_FILES] = {
	[PLOT_FLOWS] = "flows.csv",
	[PLOT_SERIES] = "series.csv",
	[PLOT_PFC] = "pfc.csv",
	[PLOT_COLL] = "collectives.csv",
	[PLOT_RATES] = "rates.csv",
	[PLOT_PORTS] = "ports.csv",
	[PLOT_BINS] = "fct_bins.csv",
	[PLOT_SWEEP] = "sweep.csv",
};

const char *const plot_tiers[PLOT_N_TIERS] = { "leaf", "spine", "core", "NVLink" };

/* ---- flows.csv ---- */

/* A workload's name may hold commas, written unquoted: @extra more fields
 * than the header. Its column @c_wl and the extra ones, commas restored. */
static void plot_join(const struct plot_csv *c, int c_wl, int extra, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (int k = c_wl; k <= c_wl + extra && n < len; k++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", k > c_wl ? "," : "", c->fields[k]);
}

/* Column @col of the current row, shifted by @extra past the workload's. */
static int plot_at(int col, int c_wl, int extra)
{
	return col > c_wl ? col + extra : col;
}

/* Read flows.csv. A workload name may hold commas, as fabemu writes them
 * unquoted: the columns after it are counted from the end of the row. */
static int plot_read_flows(const char *dir, struct plot_flows *fl, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "bytes", "fct_ns", "slowdown", "workload", "status", NULL };
	enum { C_BYTES, C_FCT, C_SLOW, C_WL, C_STATUS };
	struct plot_csv c;
	int col[5], n_cols, rc;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_FLOWS], &fl->present, err);
	if (rc != 0 || !fl->present)
		return plot_csv_end(&c, rc);
	rc = plot_csv_header(&c, "flows.csv", names, col);
	if (rc == 0 && (col[C_BYTES] > col[C_WL] || col[C_FCT] > col[C_WL] ||
			col[C_SLOW] > col[C_WL] || col[C_STATUS] < col[C_WL]))
		rc = plot_csv_not_header(&c, "flows.csv", names);
	if (rc != 0)
		return plot_csv_end(&c, rc);
	n_cols = (int)c.n_fields;
	while ((rc = plot_csv_next(&c)) > 0) {
		int extra = (int)c.n_fields - n_cols;
		char name[PLOT_MAX_NAME];
		struct plot_msg m;
		unsigned w;

		if ((rc = plot_csv_width(&c, n_cols, n_cols)) != 0)
			break;
		fl->n_rows++;
		if (strcmp(c.fields[col[C_STATUS] + extra], "complete"))
			continue;
		if ((rc = plot_csv_num(&c, col[C_BYTES], "bytes", &m.bytes)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_FCT], "fct_ns", &m.fct_ns)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_SLOW], "slowdown", &m.slowdown)) != 0)
			break;
		plot_join(&c, col[C_WL], extra, name, sizeof(name));
		for (w = 0; w < fl->n_names && w < PLOT_MAX_SERIES; w++)
			if (!strcmp(fl->names[w], name))
				break;
		if (w == fl->n_names && w < PLOT_MAX_SERIES) {
			fl->names[w] = strdup(name);
			if (!fl->names[w]) {
				rc = -ENOMEM;
				break;
			}
			fl->n_names++;
		} else if (w == PLOT_MAX_SERIES) {
			fl->n_names = PLOT_MAX_SERIES + 1;
		}
		m.workload = w;
		if (plot_grow((void **)&fl->m, &fl->cap, fl->n + 1, sizeof(*fl->m)) != 0) {
			rc = -ENOMEM;
			break;
		}
		fl->m[fl->n++] = m;
	}
	if (rc == -ENOMEM)
		plot_csv_bad(&c, rc, 0, "out of memory");
	return plot_csv_end(&c, rc);
}

/* ---- series.csv ---- */

static uint64_t plot_port_hash(const void *set, size_t e)
{
	return plot_hash_str(((const struct plot_series *)set)->ports[e]);
}

static bool plot_port_same(const void *set, size_t e, const void *key)
{
	return !strcmp(((const struct plot_series *)set)->ports[e], key);
}

/* The index of port @name in @se, added when new: 0, or -ENOMEM. */
static int plot_series_port(struct plot_series *se, const char *name, unsigned *port)
{
	size_t e, slot = 0;

	if (plot_index_reserve(&se->port_ix, se->n_ports, plot_port_hash, se) != 0)
		return -ENOMEM;
	e = plot_index_find(&se->port_ix, plot_hash_str(name), plot_port_same, se, name, &slot);
	if (e != SIZE_MAX) {
		*port = (unsigned)e;
		return 0;
	}
	if (plot_grow((void **)&se->ports, &se->cap_ports, se->n_ports + 1, sizeof(*se->ports)) ||
	    plot_grow((void **)&se->paused, &se->cap_paused, se->n_ports + 1, sizeof(*se->paused)) ||
	    !(se->ports[se->n_ports] = strdup(name)))
		return -ENOMEM;
	se->paused[se->n_ports] = 0;
	*port = se->n_ports++;
	se->port_ix.slots[slot] = *port + 1;
	return 0;
}

/* Read series.csv. */
static int plot_read_series(const char *dir, struct plot_series *se, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "time_ns", "port", "queue_bytes", "paused_prio_mask",
					     NULL };
	enum { C_T, C_PORT, C_Q, C_MASK };
	struct plot_csv c;
	int col[4], need = 0, rc;
	double prev_t = -1;
	bool present;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_SERIES], &present, err);
	if (rc != 0 || !present)
		return plot_csv_end(&c, rc);
	if ((rc = plot_csv_header(&c, "series.csv", names, col)) != 0)
		return plot_csv_end(&c, rc);
	for (unsigned k = 0; k < 4; k++)
		need = col[k] + 1 > need ? col[k] + 1 : need;
	se->interval_ns = INFINITY;
	while ((rc = plot_csv_next(&c)) > 0) {
		struct plot_sample s;
		double mask;

		if ((rc = plot_csv_width(&c, need, need)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_T], "time_ns", &s.t_ns)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_Q], "queue_bytes", &s.queue_bytes)) != 0)
			break;
		if (plot_num(c.fields[col[C_MASK]], &mask) || mask < 0 || mask > 255 ||
		    mask != floor(mask)) {
			rc = plot_csv_bad(&c, -EINVAL, plot_csv_colno(&c, col[C_MASK]),
					  "paused_prio_mask: expected a whole number from 0 to 255");
			break;
		}
		s.prio_mask = (unsigned)mask;
		if ((rc = plot_series_port(se, c.fields[col[C_PORT]], &s.port)) != 0)
			break;
		se->paused[s.port] |= (uint8_t)s.prio_mask;
		if (s.t_ns > prev_t && prev_t >= 0 && s.t_ns - prev_t < se->interval_ns)
			se->interval_ns = s.t_ns - prev_t;
		prev_t = s.t_ns > prev_t ? s.t_ns : prev_t;
		se->max_t_ns = prev_t;
		if (plot_grow((void **)&se->s, &se->cap, se->n + 1, sizeof(*se->s)) != 0) {
			rc = -ENOMEM;
			break;
		}
		se->s[se->n++] = s;
	}
	if (!isfinite(se->interval_ns))
		se->interval_ns = 0;
	if (rc == -ENOMEM)
		plot_csv_bad(&c, rc, 0, "out of memory");
	return plot_csv_end(&c, rc);
}

/* ---- pfc.csv ---- */

/* @s into @out (of @len bytes) for a quoted gnuplot data string: no '"',
 * no control characters, cut to fit. */
static void plot_label(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		out[n++] = *s == '"' ? '\'' : (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
	out[n] = '\0';
}

/* Read pfc.csv: the rows with paused time, the first PLOT_MAX_ROWS kept. */
static int plot_read_pfc(const char *dir, struct plot_pfc *pfc, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "node", "port", "priority", "paused_ns", NULL };
	enum { C_NODE, C_PORT, C_PRIO, C_PAUSED };
	struct plot_csv c;
	int col[4], need = 0, rc;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_PFC], &pfc->present, err);
	if (rc != 0 || !pfc->present)
		return plot_csv_end(&c, rc);
	if ((rc = plot_csv_header(&c, "pfc.csv", names, col)) != 0)
		return plot_csv_end(&c, rc);
	for (unsigned k = 0; k < 4; k++)
		need = col[k] + 1 > need ? col[k] + 1 : need;
	while ((rc = plot_csv_next(&c)) > 0) {
		char label[3 * PLOT_MAX_NAME];
		double ns;

		if ((rc = plot_csv_width(&c, need, need)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_PAUSED], "paused_ns", &ns)) != 0)
			break;
		if (ns <= 0 || pfc->n == PLOT_MAX_ROWS)
			continue;
		snprintf(label, sizeof(label), "%.200s:%.20s prio %.20s", c.fields[col[C_NODE]],
			 c.fields[col[C_PORT]], c.fields[col[C_PRIO]]);
		plot_label(label, pfc->rows[pfc->n].label, sizeof(pfc->rows[pfc->n].label));
		pfc->rows[pfc->n++].paused_ns = ns;
	}
	return plot_csv_end(&c, rc);
}

/* ---- collectives.csv ---- */

/* The key of a plot_bw: its series and the bits of its size (> 0, finite:
 * equal sizes have equal bits). */
static uint64_t plot_bw_key(const struct plot_bw *b)
{
	uint64_t h = plot_hash(&b->series, sizeof(b->series), 1469598103934665603ull);

	return plot_hash(&b->size_bytes, sizeof(b->size_bytes), h);
}

static uint64_t plot_bw_hash(const void *set, size_t e)
{
	return plot_bw_key(&((const struct plot_more *)set)->bw[e]);
}

static bool plot_bw_same(const void *set, size_t e, const void *key)
{
	const struct plot_bw *b = &((const struct plot_more *)set)->bw[e], *k = key;

	return b->series == k->series && b->size_bytes == k->size_bytes;
}

/* collectives.csv: the mean busbw of each series and size. */
static int plot_read_coll(const char *dir, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "workload", "collective", "algorithm", "size_bytes",
					     "busbw_GBps", "status", NULL };
	enum { C_WL, C_COLL, C_ALG, C_SIZE, C_BUS, C_STATUS };
	struct plot_csv c;
	int col[6], n_cols, rc;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_COLL], &m->coll_present, err);
	if (rc != 0 || !m->coll_present)
		return plot_csv_end(&c, rc);
	rc = plot_csv_header(&c, "collectives.csv", names, col);
	for (unsigned k = 1; rc == 0 && k < 6; k++)
		if (col[k] < col[C_WL])
			rc = plot_csv_not_header(&c, "collectives.csv", names);
	if (rc != 0)
		return plot_csv_end(&c, rc);
	n_cols = (int)c.n_fields;
	while ((rc = plot_csv_next(&c)) > 0) {
		int extra = (int)c.n_fields - n_cols;
		char wl[PLOT_MAX_NAME], name[PLOT_MAX_NAME + 64];
		struct plot_bw key = { 0 };
		size_t k, slot = 0;
		double busbw;
		unsigned s;

		if ((rc = plot_csv_width(&c, n_cols, n_cols)) != 0)
			break;
		if (strcmp(c.fields[plot_at(col[C_STATUS], col[C_WL], extra)], "complete"))
			continue;
		if ((rc = plot_csv_num(&c, plot_at(col[C_SIZE], col[C_WL], extra), "size_bytes",
				       &key.size_bytes)) != 0 ||
		    (rc = plot_csv_num(&c, plot_at(col[C_BUS], col[C_WL], extra), "busbw_GBps",
				       &busbw)) != 0)
			break;
		if (key.size_bytes <= 0) {
			rc = plot_csv_bad(&c, -EINVAL,
					  plot_csv_colno(&c, plot_at(col[C_SIZE], col[C_WL], extra)),
					  "size_bytes: expected a size above 0");
			break;
		}
		plot_join(&c, col[C_WL], extra, wl, sizeof(wl));
		snprintf(name, sizeof(name), "%s (%s, %s)", wl,
			 c.fields[plot_at(col[C_COLL], col[C_WL], extra)],
			 c.fields[plot_at(col[C_ALG], col[C_WL], extra)]);
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
		key.series = s;
		if (plot_index_reserve(&m->bw_ix, m->n_bw, plot_bw_hash, m) != 0) {
			rc = -ENOMEM;
			break;
		}
		k = plot_index_find(&m->bw_ix, plot_bw_key(&key), plot_bw_same, m, &key, &slot);
		if (k == SIZE_MAX) {
			if (plot_grow((void **)&m->bw, &m->cap_bw, m->n_bw + 1, sizeof(*m->bw)) != 0) {
				rc = -ENOMEM;
				break;
			}
			k = m->n_bw++;
			m->bw[k] = key;
			m->bw_ix.slots[slot] = (uint32_t)k + 1;
		}
		m->bw[k].sum_busbw += busbw;
		m->bw[k].n++;
	}
	if (rc == -ENOMEM)
		plot_csv_bad(&c, rc, 0, "out of memory");
	return plot_csv_end(&c, rc);
}

/* ---- rates.csv ---- */

/* rates.csv: the samples of the first PLOT_MAX_FLOWS flows. */
static int plot_read_rates(const char *dir, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "time_ns", "workload", "flow", "src", "dst",
					     "rate_bps", "window_bytes", NULL };
	enum { C_T, C_WL, C_FLOW, C_SRC, C_DST, C_RATE, C_WIN };
	struct plot_csv c;
	int col[7], n_cols, rc, c_out = -1;
	double first_t = 0;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_RATES], &m->rates_present, err);
	if (rc != 0 || !m->rates_present)
		return plot_csv_end(&c, rc);
	rc = plot_csv_header(&c, "rates.csv", names, col);
	if (rc == 0 && col[C_T] > col[C_WL])
		rc = plot_csv_not_header(&c, "rates.csv", names);
	if (rc != 0)
		return plot_csv_end(&c, rc);
	n_cols = (int)c.n_fields;
	/* Whether the QP is active (docs/results.md): a later column, absent
	 * from folders written before it was. */
	for (int k = col[C_WL] + 1; k < n_cols; k++)
		if (!strcmp(c.fields[k], "outstanding_wrs"))
			c_out = k;
	while ((rc = plot_csv_next(&c)) > 0) {
		int extra = (int)c.n_fields - n_cols;
		char wl[PLOT_MAX_NAME], key[PLOT_MAX_NAME + 32];
		struct plot_rate r;
		unsigned f;

		if ((rc = plot_csv_width(&c, n_cols, n_cols)) != 0 ||
		    (rc = plot_csv_num(&c, plot_at(col[C_T], col[C_WL], extra), "time_ns",
				       &r.t_ns)) != 0 ||
		    (rc = plot_csv_num(&c, plot_at(col[C_RATE], col[C_WL], extra), "rate_bps",
				       &r.rate_bps)) != 0 ||
		    (rc = plot_csv_num(&c, plot_at(col[C_WIN], col[C_WL], extra), "window_bytes",
				       &r.window_bytes)) != 0)
			break;
		r.active = true;
		if (c_out >= 0) {
			double wrs;

			if ((rc = plot_csv_num(&c, plot_at(c_out, col[C_WL], extra), "outstanding_wrs",
					       &wrs)) != 0)
				break;
			r.active = wrs > 0;
		}
		/* Every sample time has a row per flow: count those of the first. */
		if (c.lineno == 2)
			first_t = r.t_ns;
		m->n_flows_all += r.t_ns == first_t;
		plot_join(&c, col[C_WL], extra, wl, sizeof(wl));
		snprintf(key, sizeof(key), "%s,%s", wl, c.fields[plot_at(col[C_FLOW], col[C_WL], extra)]);
		for (f = 0; f < m->n_flows; f++)
			if (!strcmp(m->flow_keys[f], key))
				break;
		if (f == m->n_flows) {
			char label[3 * PLOT_MAX_NAME];

			if (f == PLOT_MAX_FLOWS)
				continue;
			snprintf(label, sizeof(label), "%s flow %s: %s -> %s", wl,
				 c.fields[plot_at(col[C_FLOW], col[C_WL], extra)],
				 c.fields[plot_at(col[C_SRC], col[C_WL], extra)],
				 c.fields[plot_at(col[C_DST], col[C_WL], extra)]);
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
	if (rc == -ENOMEM)
		plot_csv_bad(&c, rc, 0, "out of memory");
	return plot_csv_end(&c, rc);
}

/* ---- ports.csv ---- */

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

static uint64_t plot_sw_hash(const void *set, size_t e)
{
	return plot_hash_str(((const struct plot_more *)set)->sw[e].name);
}

static bool plot_sw_same(const void *set, size_t e, const void *key)
{
	return !strcmp(((const struct plot_more *)set)->sw[e].name, key);
}

/* ports.csv: the utilisation of every switch port (a node with a tier). */
static int plot_read_ports(const char *dir, struct plot_more *m, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "node", "port", "utilisation", NULL };
	enum { C_NODE, C_PORT, C_UTIL };
	struct plot_csv c;
	int col[3], need = 0, rc;
	bool present;

	rc = plot_csv_open(&c, dir, plot_file_names[PLOT_PORTS], &present, err);
	if (rc != 0 || !present)
		return plot_csv_end(&c, rc);
	if ((rc = plot_csv_header(&c, "ports.csv", names, col)) != 0)
		return plot_csv_end(&c, rc);
	for (unsigned k = 0; k < 3; k++)
		need = col[k] + 1 > need ? col[k] + 1 : need;
	while ((rc = plot_csv_next(&c)) > 0) {
		char name[PLOT_MAX_NAME];
		struct plot_util u;
		size_t e, slot = 0;
		double port;
		int tier;

		if ((rc = plot_csv_width(&c, need, need)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_PORT], "port", &port)) != 0 ||
		    (rc = plot_csv_num(&c, col[C_UTIL], "utilisation", &u.util)) != 0)
			break;
		if (port < 0 || port != floor(port)) {
			rc = plot_csv_bad(&c, -EINVAL, plot_csv_colno(&c, col[C_PORT]),
					  "port: expected a whole number");
			break;
		}
		tier = plot_tier(c.fields[col[C_NODE]]);
		if (tier < 0 || port >= PLOT_MAX_SW_PORTS)
			continue;
		u.port = (unsigned)port;
		/* Looked up as kept: cut to the length a switch's name is kept at. */
		snprintf(name, sizeof(name), "%s", c.fields[col[C_NODE]]);
		if (plot_index_reserve(&m->sw_ix, m->n_sw, plot_sw_hash, m) != 0) {
			rc = -ENOMEM;
			break;
		}
		e = plot_index_find(&m->sw_ix, plot_hash_str(name), plot_sw_same, m, name, &slot);
		if (e == SIZE_MAX) {
			struct plot_switch *sw;

			if (m->n_sw == PLOT_MAX_SWITCHES)
				continue;
			sw = realloc(m->sw, (m->n_sw + 1) * sizeof(*sw));
			if (!sw) {
				rc = -ENOMEM;
				break;
			}
			m->sw = sw;
			memcpy(sw[m->n_sw].name, name, sizeof(name));
			sw[m->n_sw].tier = (unsigned)tier;
			e = m->n_sw++;
			m->sw_ix.slots[slot] = (uint32_t)e + 1;
		}
		u.sw = (unsigned)e;
		m->max_port = u.port > m->max_port ? u.port : m->max_port;
		if (plot_grow((void **)&m->u, &m->cap_u, m->n_u + 1, sizeof(*m->u)) != 0) {
			rc = -ENOMEM;
			break;
		}
		m->u[m->n_u++] = u;
	}
	if (rc == -ENOMEM)
		plot_csv_bad(&c, rc, 0, "out of memory");
	return plot_csv_end(&c, rc);
}

int plot_read(const char *dir, unsigned files, struct plot_in *in, char err[CFG_ERR_BYTES])
{
	int rc = 0;

	err[0] = '\0';
	if (files & 1u << PLOT_FLOWS)
		rc = plot_read_flows(dir, &in->fl, err);
	if (rc == 0 && (files & 1u << PLOT_SERIES))
		rc = plot_read_series(dir, &in->se, err);
	/* pfc.csv is drawn only without samples to draw the timeline from. */
	if (rc == 0 && (files & 1u << PLOT_PFC) && !in->se.n)
		rc = plot_read_pfc(dir, &in->pfc, err);
	if (rc == 0 && (files & 1u << PLOT_COLL))
		rc = plot_read_coll(dir, &in->more, err);
	if (rc == 0 && (files & 1u << PLOT_RATES))
		rc = plot_read_rates(dir, &in->more, err);
	if (rc == 0 && (files & 1u << PLOT_PORTS))
		rc = plot_read_ports(dir, &in->more, err);
	if (rc == 0 && (files & 1u << PLOT_BINS))
		rc = plot_read_bins(dir, &in->bins, err);
	if (rc == 0 && (files & 1u << PLOT_SWEEP))
		rc = plot_read_sweep(dir, &in->sw, err);
	return rc;
}

void plot_in_free(struct plot_in *in)
{
	struct plot_more *m = &in->more;

	free(in->fl.m);
	for (unsigned k = 0; k < in->fl.n_names && k < PLOT_MAX_SERIES; k++)
		free(in->fl.names[k]);
	for (unsigned p = 0; p < in->se.n_ports; p++)
		free(in->se.ports[p]);
	free(in->se.ports);
	free(in->se.paused);
	free(in->se.port_ix.slots);
	free(in->se.s);
	for (unsigned s = 0; s < m->n_coll_names; s++)
		free(m->coll_names[s]);
	for (unsigned f = 0; f < m->n_flows; f++) {
		free(m->flows[f]);
		free(m->flow_keys[f]);
	}
	free(m->bw);
	free(m->bw_ix.slots);
	free(m->r);
	free(m->u);
	free(m->sw);
	free(m->sw_ix.slots);
	plot_sweep_free(&in->sw);
	memset(in, 0, sizeof(*in));
}
