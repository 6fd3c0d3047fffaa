/* `fabemu plot DIR`: pictures of a results folder drawn by gnuplot: FCT
 * slowdown by message size and the FCT CDF (flows.csv), queue depth and PFC
 * pause state per sampled port (series.csv) and a PFC pause timeline
 * (series.csv, or paused time per port from pfc.csv); cli_plot_more.c draws
 * the others. For each picture the output folder gets its data (.dat), its
 * gnuplot script (.gp) and the image. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfg.h"
#include "cli.h"
#include "cli_plot_int.h"

/* The pictures, in the order drawn; each is NAME.gp, NAME*.dat, NAME.png|svg. */
static const char *const plot_names[] = { "fct-slowdown", "fct-cdf", "queues", "pfc-timeline" };

/* One completed message of flows.csv. */
struct plot_msg {
	double bytes;       /* message size */
	double fct_ns;      /* flow completion time */
	double slowdown;    /* fct / ideal fct */
	unsigned workload;  /* index into plot_flows.names */
};

/* The completed messages of flows.csv. */
struct plot_flows {
	struct plot_msg *m;  /* in file order */
	size_t n;            /* completed messages */
	size_t cap;          /* allocated */
	size_t n_rows;       /* rows, incomplete ones included */
	char *names[PLOT_MAX_SERIES + 1]; /* workload names, first seen first */
	unsigned n_names;    /* how many; PLOT_MAX_SERIES + 1 means "too many" */
};

/* One sample of series.csv. */
struct plot_sample {
	double t_ns;        /* sample time */
	double queue_bytes; /* egress queue occupancy */
	unsigned prio_mask; /* priorities paused */
	unsigned port;      /* index into plot_series.ports */
};

/* series.csv. */
struct plot_series {
	struct plot_sample *s; /* in file order */
	size_t n;              /* samples */
	size_t cap;            /* allocated */
	char **ports;          /* port names, first seen first */
	unsigned n_ports;      /* how many */
	double max_t_ns;       /* the last sample time */
	double interval_ns;    /* the smallest step between two sample times */
};

int plot_csv_open(struct plot_csv *c, const char *dir, const char *name)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s/%s", dir, name);
	/* Not a FIFO or a device: a results file is a regular file. errno
	 * says ENOENT when it is missing (the callers skip it then). */
	errno = 0;
	c->f = cfg_fopen_regular(c->path, c->why);
	if (!c->f && errno != ENOENT)
		errno = EINVAL;
	return c->f ? 0 : -errno;
}

void plot_csv_close(struct plot_csv *c)
{
	if (c->f)
		fclose(c->f);
	free(c->line);
	c->f = NULL;
	c->line = NULL;
}

/* The next line, split. Returns 1, 0 at the end, -errno on a read error. */
int plot_csv_next(struct plot_csv *c)
{
	ssize_t len = getline(&c->line, &c->cap, c->f);
	char *p;

	if (len < 0)
		return ferror(c->f) ? -EIO : 0;
	c->lineno++;
	if (len && c->line[len - 1] == '\n')
		c->line[--len] = '\0';
	c->n_fields = 0;
	for (p = c->line; c->n_fields < PLOT_MAX_FIELDS;) {
		c->fields[c->n_fields++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return 1;
}

/* Index of the column @name in the header just read, or -1. */
int plot_csv_col(const struct plot_csv *c, const char *name)
{
	for (unsigned k = 0; k < c->n_fields; k++)
		if (!strcmp(c->fields[k], name))
			return (int)k;
	return -1;
}

int plot_num(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*out = strtod(s, &end);
	return *end || !isfinite(*out) ? -EINVAL : 0;
}

int plot_grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *q;
	size_t c = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* Read flows.csv. Returns 0 (also when absent: n_rows 0), or -errno with
 * @err. A workload name may hold commas, as fabemu writes them unquoted:
 * the columns after it are counted from the end of the row. */
static int plot_read_flows(const char *dir, struct plot_flows *fl, bool *present,
			   char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int c_bytes, c_fct, c_slow, c_wl, c_status, n_cols, rc;

	*present = false;
	if (plot_csv_open(&c, dir, "flows.csv") != 0)
		return errno == ENOENT ? 0 : (snprintf(err, CFG_ERR_BYTES, "%.400s: cannot open: %s",
						       c.path, c.why), -EIO);
	*present = true;
	rc = plot_csv_next(&c);
	if (rc > 0) {
		n_cols = (int)c.n_fields;
		c_bytes = plot_csv_col(&c, "bytes");
		c_fct = plot_csv_col(&c, "fct_ns");
		c_slow = plot_csv_col(&c, "slowdown");
		c_wl = plot_csv_col(&c, "workload");
		c_status = plot_csv_col(&c, "status");
	}
	if (rc <= 0 || c_bytes < 0 || c_fct < 0 || c_slow < 0 || c_wl < 0 || c_status < 0 ||
	    c_bytes > c_wl || c_fct > c_wl || c_slow > c_wl || c_status < c_wl) {
		snprintf(err, CFG_ERR_BYTES, "%.400s:1: not a fabemu flows.csv header", c.path);
		plot_csv_close(&c);
		return -EINVAL;
	}
	while ((rc = plot_csv_next(&c)) > 0) {
		int extra = (int)c.n_fields - n_cols;
		char name[256];
		const char *status;
		struct plot_msg m;
		unsigned w;

		if (extra < 0 || c.n_fields == PLOT_MAX_FIELDS) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: %u columns, the header has %d", c.path,
				 c.lineno, c.n_fields, n_cols);
			rc = -EINVAL;
			break;
		}
		fl->n_rows++;
		status = c.fields[c_status + extra];
		if (strcmp(status, "complete"))
			continue;
		if (plot_num(c.fields[c_bytes], &m.bytes) || plot_num(c.fields[c_fct], &m.fct_ns) ||
		    plot_num(c.fields[c_slow], &m.slowdown)) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: bytes, fct_ns or slowdown is not a number",
				 c.path, c.lineno);
			rc = -EINVAL;
			break;
		}
		/* The workload's name: its column and the extra ones, commas restored. */
		name[0] = '\0';
		for (int k = c_wl; k <= c_wl + extra; k++)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s",
				 k > c_wl ? "," : "", c.fields[k]);
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
		snprintf(err, CFG_ERR_BYTES, "%.400s: out of memory", c.path);
	else if (rc == -EIO)
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot read", c.path);
	plot_csv_close(&c);
	return rc < 0 ? rc : 0;
}

static void plot_flows_free(struct plot_flows *fl)
{
	free(fl->m);
	for (unsigned k = 0; k < fl->n_names && k < PLOT_MAX_SERIES; k++)
		free(fl->names[k]);
}

/* Read series.csv (absent: n 0). Returns 0 or -errno with @err. */
static int plot_read_series(const char *dir, struct plot_series *se, char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int c_t, c_port, c_q, c_mask, rc;
	double prev_t = -1;

	if (plot_csv_open(&c, dir, "series.csv") != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot open: %s", c.path, c.why);
		return -EIO;
	}
	rc = plot_csv_next(&c);
	c_t = rc > 0 ? plot_csv_col(&c, "time_ns") : -1;
	c_port = rc > 0 ? plot_csv_col(&c, "port") : -1;
	c_q = rc > 0 ? plot_csv_col(&c, "queue_bytes") : -1;
	c_mask = rc > 0 ? plot_csv_col(&c, "paused_prio_mask") : -1;
	if (c_t < 0 || c_port < 0 || c_q < 0 || c_mask < 0) {
		snprintf(err, CFG_ERR_BYTES, "%.400s:1: not a fabemu series.csv header", c.path);
		plot_csv_close(&c);
		return -EINVAL;
	}
	se->interval_ns = INFINITY;
	while ((rc = plot_csv_next(&c)) > 0) {
		struct plot_sample s;
		double mask;
		unsigned p;

		if (c.n_fields <= (unsigned)c_t || c.n_fields <= (unsigned)c_port ||
		    c.n_fields <= (unsigned)c_q || c.n_fields <= (unsigned)c_mask ||
		    plot_num(c.fields[c_t], &s.t_ns) || plot_num(c.fields[c_q], &s.queue_bytes) ||
		    plot_num(c.fields[c_mask], &mask) || mask < 0 || mask > 255) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: not a series.csv row", c.path, c.lineno);
			rc = -EINVAL;
			break;
		}
		s.prio_mask = (unsigned)mask;
		for (p = 0; p < se->n_ports; p++)
			if (!strcmp(se->ports[p], c.fields[c_port]))
				break;
		if (p == se->n_ports) {
			char **ports = realloc(se->ports, (p + 1) * sizeof(*ports));

			if (!ports || !(ports[p] = strdup(c.fields[c_port]))) {
				if (ports)
					se->ports = ports;
				rc = -ENOMEM;
				break;
			}
			se->ports = ports;
			se->n_ports++;
		}
		s.port = p;
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
		snprintf(err, CFG_ERR_BYTES, "%.400s: out of memory", c.path);
	else if (rc == -EIO)
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot read", c.path);
	plot_csv_close(&c);
	return rc < 0 ? rc : 0;
}

static void plot_series_free(struct plot_series *se)
{
	for (unsigned p = 0; p < se->n_ports; p++)
		free(se->ports[p]);
	free(se->ports);
	free(se->s);
}

FILE *plot_fopen(const struct plot_ctx *x, const char *name, char err[CFG_ERR_BYTES])
{
	char path[PLOT_PATH_BYTES + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", x->out, name);
	f = fopen(path, "w");
	if (!f)
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(errno));
	return f;
}

int plot_fclose(const struct plot_ctx *x, FILE *f, const char *name, char err[CFG_ERR_BYTES])
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad) {
		snprintf(err, CFG_ERR_BYTES, "%.400s/%s: cannot write: %s", x->out, name,
			 strerror(bad ? EIO : errno));
		return -EIO;
	}
	return 0;
}

/* A gnuplot string literal: single quotes, '' for a quote, control
 * characters as blanks (noenhanced text: nothing else is special). */
void plot_gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
	fputc('\'', f);
}

/* The script's terminal, output and common look. */
void plot_gp_head(const struct plot_ctx *x, FILE *f, const char *name, int w, int h)
{
	fprintf(f, "# %s.%s of a fabemu results folder (fabemu plot): run `gnuplot %s.gp` here.\n",
		name, x->ext, name);
	if (!strcmp(x->ext, "svg"))
		fprintf(f, "set terminal svg size %d,%d fixed noenhanced font 'sans,11' "
			   "background rgb 'white'\n", w, h);
	else
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			   "  set terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
			   "} else {\n"
			   "  set terminal png size %d,%d noenhanced\n"
			   "}\n", w, h, w, h);
	fprintf(f, "set output '%s.%s'\nset grid\nset key outside right top box\n", name, x->ext);
}

/* The unit a time axis is written in. */
double plot_time_unit(double max_ns, const char **label)
{
	if (max_ns >= 1e7) {
		*label = "ms";
		return 1e6;
	}
	*label = "us";
	return 1e3;
}

/* Run gnuplot on NAME.gp in the output folder. Returns 0, or -EIO with @err. */
int plot_run(struct plot_ctx *x, const char *name, const char *what, char err[CFG_ERR_BYTES])
{
	char gp[64];
	int status;
	pid_t pid;

	snprintf(gp, sizeof(gp), "%s.gp", name);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(err, CFG_ERR_BYTES, "cannot start gnuplot: %s", strerror(errno));
		return -EIO;
	}
	if (pid == 0) {
		if (chdir(x->out) != 0)
			_exit(126);
		execl(x->gnuplot, "gnuplot", gp, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, CFG_ERR_BYTES, "gnuplot: %s", strerror(errno));
			return -EIO;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(err, CFG_ERR_BYTES, "gnuplot failed on %.400s/%s (%s %d)", x->out, gp,
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -EIO;
	}
	printf("%s/%s.%s: %s\n", x->out, name, x->ext, what);
	x->n_drawn++;
	return 0;
}

void plot_skip(const char *name, const char *why)
{
	printf("%s: skipped: %s\n", name, why);
}

static int plot_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int plot_cmp_msg_size(const void *a, const void *b)
{
	const struct plot_msg *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return x->slowdown < y->slowdown ? -1 : x->slowdown > y->slowdown;
}

/* How many workload series to draw apart: 0 means one series of all. */
static unsigned plot_n_series(const struct plot_flows *fl)
{
	return fl->n_names > 1 && fl->n_names <= PLOT_MAX_SERIES ? fl->n_names : 0;
}

/* (a) Slowdown against message size: every message (a thinned sample when
 * there are many), and the median per size (per power of two when there are
 * many sizes). */
static int plot_slowdown(struct plot_ctx *x, const struct plot_flows *fl, char err[CFG_ERR_BYTES])
{
	unsigned n_ser = plot_n_series(fl), n_sizes = 0;
	size_t step = fl->n > PLOT_MAX_SCATTER ? (fl->n + PLOT_MAX_SCATTER - 1) / PLOT_MAX_SCATTER : 1;
	struct plot_msg *by = malloc(fl->n * sizeof(*by));
	double min_b, max_b, max_s = 0;
	FILE *f;

	if (!by) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	memcpy(by, fl->m, fl->n * sizeof(*by));
	qsort(by, fl->n, sizeof(*by), plot_cmp_msg_size);
	min_b = by[0].bytes;
	max_b = by[fl->n - 1].bytes;
	for (size_t i = 0; i < fl->n; i++) {
		n_sizes += i == 0 || by[i].bytes != by[i - 1].bytes;
		max_s = by[i].slowdown > max_s ? by[i].slowdown : max_s;
	}
	if (!(f = plot_fopen(x, "fct-slowdown.dat", err))) {
		free(by);
		return -EIO;
	}
	fprintf(f, "# bytes slowdown, one block per series (gnuplot index)\n");
	for (unsigned s = 0; s < (n_ser ? n_ser : 1); s++) {
		fprintf(f, "%s", s ? "\n\n" : "");
		for (size_t i = 0; i < fl->n; i += step)
			if (!n_ser || fl->m[i].workload == s)
				fprintf(f, "%.17g %.9g\n", fl->m[i].bytes, fl->m[i].slowdown);
	}
	/* The medians: by size, or by power-of-two bin (at the bin's median size). */
	fprintf(f, "\n\n# median: bytes slowdown\n");
	for (size_t i = 0; i < fl->n;) {
		size_t j = i;
		double key = n_sizes > 32 ? floor(log2(by[i].bytes > 1 ? by[i].bytes : 1)) : by[i].bytes;
		double *v;

		while (j < fl->n && (n_sizes > 32 ? floor(log2(by[j].bytes > 1 ? by[j].bytes : 1))
						  : by[j].bytes) == key)
			j++;
		v = malloc((j - i) * sizeof(*v));
		if (!v) {
			fclose(f);
			free(by);
			snprintf(err, CFG_ERR_BYTES, "out of memory");
			return -ENOMEM;
		}
		for (size_t k = i; k < j; k++)
			v[k - i] = by[k].slowdown;
		qsort(v, j - i, sizeof(*v), plot_cmp_double);
		fprintf(f, "%.17g %.9g\n", by[i + (j - i - 1) / 2].bytes, v[(j - i - 1) / 2]);
		free(v);
		i = j;
	}
	free(by);
	if (plot_fclose(x, f, "fct-slowdown.dat", err) != 0)
		return -EIO;

	if (!(f = plot_fopen(x, "fct-slowdown.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "fct-slowdown", 1000, 600);
	fprintf(f, "set title 'FCT slowdown by message size (%zu completed messages%s)'\n", fl->n,
		step > 1 ? ", a sample drawn" : "");
	fprintf(f, "set xlabel 'message size (bytes: k = 10^3, M = 10^6; log scale)'\n"
		   "set ylabel 'slowdown (FCT / ideal FCT)'\n"
		   "set logscale x\nset xrange [%.17g:%.17g]\n", min_b / 1.5, max_b * 1.5);
	if (max_s > 50)
		fprintf(f, "set logscale y\n");
	else
		fprintf(f, "set yrange [0:*]\n");
	/* The median line first, so that the messages are drawn over it. */
	fprintf(f, "set format x '%%.0s%%cB'\n"
		   "plot 'fct-slowdown.dat' index %u using 1:2 with linespoints lw 2 pt 5 ps 0.8 "
		   "lc rgb 'black' title 'median %s'", n_ser ? n_ser : 1,
		n_sizes > 32 ? "per size octave" : "per size");
	for (unsigned s = 0; s < (n_ser ? n_ser : 1); s++) {
		fprintf(f, ", \\\n     'fct-slowdown.dat' index %u using 1:2 with points pt 7 ps 1 title ", s);
		plot_gp_str(f, n_ser ? fl->names[s] : "messages");
	}
	fputc('\n', f);
	if (plot_fclose(x, f, "fct-slowdown.gp", err) != 0)
		return -EIO;
	return plot_run(x, "fct-slowdown", "FCT slowdown by message size", err);
}

/* (b) The CDF of the FCT: all messages, and each workload when several. */
static int plot_cdf(struct plot_ctx *x, const struct plot_flows *fl, char err[CFG_ERR_BYTES])
{
	unsigned n_ser = plot_n_series(fl);
	double *v = malloc(fl->n * sizeof(*v)), lo = INFINITY, hi = 0, div;
	const char *unit;
	FILE *f;

	if (!v) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < fl->n; i++) {
		lo = fl->m[i].fct_ns < lo ? fl->m[i].fct_ns : lo;
		hi = fl->m[i].fct_ns > hi ? fl->m[i].fct_ns : hi;
	}
	div = plot_time_unit(hi, &unit);
	if (!(f = plot_fopen(x, "fct-cdf.dat", err))) {
		free(v);
		return -EIO;
	}
	fprintf(f, "# fct_%s fraction, one block per series: all, then each workload\n", unit);
	for (unsigned s = 0; s <= n_ser; s++) {
		size_t n = 0, step;

		for (size_t i = 0; i < fl->n; i++)
			if (s == 0 || fl->m[i].workload == s - 1)
				v[n++] = fl->m[i].fct_ns;
		qsort(v, n, sizeof(*v), plot_cmp_double);
		step = n > PLOT_MAX_POINTS ? (n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS : 1;
		fprintf(f, "%s%.9g 0\n", s ? "\n\n" : "", v[0] / div);
		for (size_t i = 0; i < n; i++)
			if ((i + 1) % step == 0 || i + 1 == n)
				fprintf(f, "%.9g %.9g\n", v[i] / div, (double)(i + 1) / (double)n);
	}
	free(v);
	if (plot_fclose(x, f, "fct-cdf.dat", err) != 0)
		return -EIO;

	if (!(f = plot_fopen(x, "fct-cdf.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "fct-cdf", 1000, 600);
	fprintf(f, "set title 'FCT CDF (%zu completed messages)'\n"
		   "set xlabel 'flow completion time (%s%s)'\n"
		   "set ylabel 'fraction of completed messages'\n"
		   "set yrange [0:1.02]\n", fl->n, unit, hi > 100 * lo ? ", log scale" : "");
	if (hi > 100 * lo)
		fprintf(f, "set logscale x\n");
	else if (hi == lo)
		fprintf(f, "set xrange [%.9g:%.9g]\n", 0.9 * lo / div, 1.1 * hi / div);
	fprintf(f, "plot 'fct-cdf.dat' index 0 using 1:2 with steps lw 2 lc rgb 'black' "
		   "title 'all messages'");
	for (unsigned s = 1; s <= n_ser; s++) {
		fprintf(f, ", \\\n     'fct-cdf.dat' index %u using 1:2 with steps lw 1.5 title ", s);
		plot_gp_str(f, fl->names[s - 1]);
	}
	fputc('\n', f);
	if (plot_fclose(x, f, "fct-cdf.gp", err) != 0)
		return -EIO;
	return plot_run(x, "fct-cdf", "FCT CDF", err);
}

/* (c) Per sampled port: queue depth (left axis) and whether PFC pauses it
 * (shaded, right axis), one panel per port. Long series are thinned to
 * PLOT_MAX_POINTS buckets keeping each bucket's peak and any pause. */
static int plot_queues(struct plot_ctx *x, const struct plot_series *se, char err[CFG_ERR_BYTES])
{
	unsigned n_ports = se->n_ports < PLOT_MAX_PORTS ? se->n_ports : PLOT_MAX_PORTS;
	const char *unit;
	double div = plot_time_unit(se->max_t_ns, &unit);
	FILE *f;

	if (!(f = plot_fopen(x, "queues.dat", err)))
		return -EIO;
	fprintf(f, "# time_%s queue_KiB paused(0/1), one block per port\n", unit);
	for (unsigned p = 0; p < n_ports; p++) {
		size_t n = 0, step, k = 0;
		double t = 0, q = 0;
		unsigned paused = 0;

		for (size_t i = 0; i < se->n; i++)
			n += se->s[i].port == p;
		step = n > PLOT_MAX_POINTS ? (n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS : 1;
		fprintf(f, "%s# %s\n", p ? "\n\n" : "", se->ports[p]);
		for (size_t i = 0; i < se->n; i++) {
			const struct plot_sample *s = &se->s[i];

			if (s->port != p)
				continue;
			if (k % step == 0) {
				t = s->t_ns;
				q = 0;
				paused = 0;
			}
			q = s->queue_bytes > q ? s->queue_bytes : q;
			paused |= s->prio_mask != 0;
			if (++k % step == 0 || k == n)
				fprintf(f, "%.9g %.9g %u\n", t / div, q / 1024, paused);
		}
	}
	if (plot_fclose(x, f, "queues.dat", err) != 0)
		return -EIO;

	if (!(f = plot_fopen(x, "queues.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "queues", 1000, 120 + 220 * (int)n_ports);
	fprintf(f, "set multiplot layout %u,1 title 'Queue depth and PFC pause state per sampled port%s'\n"
		   "set xlabel 'time (%s)'\nset ylabel 'queue (KiB)'\n"
		   "set y2label 'PFC paused'\nset y2range [0:1.05]\nset y2tics ('no' 0, 'yes' 1)\n"
		   "set style fill transparent solid 0.25 noborder\n",
		n_ports, se->n_ports > n_ports ? " (the first 12)" : "", unit);
	for (unsigned p = 0; p < n_ports; p++) {
		double q_max = 0;

		for (size_t i = 0; i < se->n; i++)
			if (se->s[i].port == p && se->s[i].queue_bytes > q_max)
				q_max = se->s[i].queue_bytes;
		/* An empty queue still gets an axis (gnuplot warns on [0:0]). */
		fprintf(f, "set yrange [0:%s]\n", q_max > 0 ? "*" : "1");
		fprintf(f, "set title ");
		plot_gp_str(f, se->ports[p]);
		fprintf(f, "\nplot 'queues.dat' index %u using 1:3 axes x1y2 with fillsteps "
			   "lc rgb 'red' title 'paused (any priority)', \\\n"
			   "     '' index %u using 1:2 with lines lw 1.5 lc rgb 'blue' title 'queue depth'\n",
			p, p);
	}
	fprintf(f, "unset multiplot\n");
	if (plot_fclose(x, f, "queues.gp", err) != 0)
		return -EIO;
	return plot_run(x, "queues", "queue depth and PFC pause state per sampled port", err);
}

/* (d) PFC pause timeline from series.csv: one row per port and priority
 * that was ever paused, a bar over every sample interval it was paused.
 * Returns 0 with *@drawn false when nothing was paused. */
static int plot_timeline_series(struct plot_ctx *x, const struct plot_series *se, bool *drawn,
				char err[CFG_ERR_BYTES])
{
	unsigned rows[PLOT_MAX_ROWS][2], n_rows = 0; /* port, priority */
	double iv = se->interval_ns > 0 ? se->interval_ns : 1, div;
	const char *unit;
	FILE *f;

	*drawn = false;
	for (unsigned p = 0; p < se->n_ports; p++)
		for (unsigned prio = 0; prio < 8 && n_rows < PLOT_MAX_ROWS; prio++)
			for (size_t i = 0; i < se->n; i++)
				if (se->s[i].port == p && (se->s[i].prio_mask >> prio & 1)) {
					rows[n_rows][0] = p;
					rows[n_rows++][1] = prio;
					break;
				}
	if (!n_rows)
		return 0;
	div = plot_time_unit(se->max_t_ns + iv, &unit);
	if (!(f = plot_fopen(x, "pfc-timeline.dat", err)))
		return -EIO;
	fprintf(f, "# x_center_%s row x_half_width row_half_height: one box per paused stretch\n",
		unit);
	for (unsigned r = 0; r < n_rows; r++) {
		double start = -1, end = 0;

		for (size_t i = 0; i <= se->n; i++) {
			const struct plot_sample *s = i < se->n ? &se->s[i] : NULL;
			bool on;

			if (s && s->port != rows[r][0])
				continue;
			on = s && (s->prio_mask >> rows[r][1] & 1);
			if (on && start < 0)
				start = s->t_ns;
			if (on)
				end = s->t_ns + iv;
			if (!on && start >= 0) {
				fprintf(f, "%.9g %u %.9g 0.35\n", (start + end) / 2 / div, r,
					(end - start) / 2 / div);
				start = -1;
			}
		}
	}
	if (plot_fclose(x, f, "pfc-timeline.dat", err) != 0)
		return -EIO;

	if (!(f = plot_fopen(x, "pfc-timeline.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "pfc-timeline", 1000, 160 + 40 * (int)n_rows);
	fprintf(f, "set title 'PFC pause timeline (series.csv, sampled every %.9g %s)'\n"
		   "set xlabel 'time (%s)'\nset ylabel 'port, priority'\n"
		   "set xrange [0:%.9g]\nset yrange [-0.6:%u.6]\nset grid noytics\nset ytics (",
		iv / div, unit, unit, (se->max_t_ns + iv) / div, n_rows - 1);
	for (unsigned r = 0; r < n_rows; r++) {
		char label[300];

		snprintf(label, sizeof(label), "%s prio %u", se->ports[rows[r][0]], rows[r][1]);
		fprintf(f, "%s", r ? ", " : "");
		plot_gp_str(f, label);
		fprintf(f, " %u", r);
	}
	fprintf(f, ")\nset style fill solid 0.8 noborder\n"
		   "plot 'pfc-timeline.dat' using 1:2:3:4 with boxxyerror lc rgb 'red' title 'paused'\n");
	if (plot_fclose(x, f, "pfc-timeline.gp", err) != 0)
		return -EIO;
	*drawn = true;
	return plot_run(x, "pfc-timeline", "PFC pause timeline", err);
}

/* (d) without series.csv: the paused time of each port and priority from
 * pfc.csv, as bars (pfc.csv holds totals, no times). */
static int plot_timeline_pfc(struct plot_ctx *x, bool *drawn, char err[CFG_ERR_BYTES])
{
	struct plot_csv c;
	int c_node, c_port, c_prio, c_paused, rc;
	unsigned n = 0;
	FILE *f = NULL;

	*drawn = false;
	if (plot_csv_open(&c, x->dir, "pfc.csv") != 0)
		return 0;
	rc = plot_csv_next(&c);
	c_node = rc > 0 ? plot_csv_col(&c, "node") : -1;
	c_port = rc > 0 ? plot_csv_col(&c, "port") : -1;
	c_prio = rc > 0 ? plot_csv_col(&c, "priority") : -1;
	c_paused = rc > 0 ? plot_csv_col(&c, "paused_ns") : -1;
	if (c_node < 0 || c_port < 0 || c_prio < 0 || c_paused < 0) {
		snprintf(err, CFG_ERR_BYTES, "%.400s:1: not a fabemu pfc.csv header", c.path);
		plot_csv_close(&c);
		return -EINVAL;
	}
	while ((rc = plot_csv_next(&c)) > 0) {
		double ns;

		if (c.n_fields <= (unsigned)c_paused || c.n_fields <= (unsigned)c_node ||
		    c.n_fields <= (unsigned)c_port || c.n_fields <= (unsigned)c_prio ||
		    plot_num(c.fields[c_paused], &ns)) {
			snprintf(err, CFG_ERR_BYTES, "%.400s:%u: not a pfc.csv row", c.path, c.lineno);
			rc = -EINVAL;
			break;
		}
		if (ns <= 0 || n == PLOT_MAX_ROWS)
			continue;
		if (!f && !(f = plot_fopen(x, "pfc-timeline.dat", err))) {
			rc = -EIO;
			break;
		}
		fprintf(f, "%u %.9g \"%s:%s prio %s\"\n", n++, ns / 1e3, c.fields[c_node],
			c.fields[c_port], c.fields[c_prio]);
	}
	plot_csv_close(&c);
	if (rc < 0) {
		if (f)
			fclose(f);
		return rc;
	}
	if (!f)
		return 0;
	if (plot_fclose(x, f, "pfc-timeline.dat", err) != 0)
		return -EIO;
	if (!(f = plot_fopen(x, "pfc-timeline.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "pfc-timeline", 1000, 160 + 40 * (int)n);
	fprintf(f, "set title 'PFC paused time per port and priority (pfc.csv; a timeline needs outputs.series)'\n"
		   "set xlabel 'time paused (us)'\nset ylabel 'port, priority'\n"
		   "set yrange [-0.6:%u.6]\nset xrange [0:*]\nset style fill solid 0.8 noborder\n"
		   "plot 'pfc-timeline.dat' using ($2/2):1:($2/2):(0.35):ytic(3) with boxxyerror "
		   "lc rgb 'red' title 'paused'\n", n - 1);
	if (plot_fclose(x, f, "pfc-timeline.gp", err) != 0)
		return -EIO;
	*drawn = true;
	return plot_run(x, "pfc-timeline", "PFC paused time per port and priority", err);
}

/* gnuplot's path in $PATH into @out; -ENOENT when missing. */
static int plot_find_gnuplot(char *out, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if ((size_t)snprintf(out, len, "%.*s/gnuplot", (int)n, p) < len &&
		    access(out, X_OK) == 0)
			return 0;
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

/* The default output folder: plots/<the results folder's last component>. */
static int plot_default_out(const char *dir, char *out, size_t len)
{
	size_t n = strlen(dir);
	const char *base;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	base = dir + n;
	while (base > dir && base[-1] != '/')
		base--;
	n -= (size_t)(base - dir);
	if (n == 0 || (n == 1 && base[0] == '.') || (n == 2 && !strncmp(base, "..", 2)) ||
	    (n == 1 && base[0] == '/'))
		return -EINVAL;
	return (size_t)snprintf(out, len, "plots/%.*s", (int)n, base) < len ? 0 : -ENAMETOOLONG;
}

int cli_plot(const struct cli_opts *o)
{
	struct plot_ctx x = { .ext = "png" };
	struct plot_flows fl = { 0 };
	struct plot_series se = { 0 };
	struct plot_more *more = NULL;
	struct cfg_doc *doc = NULL;
	char err[CFG_ERR_BYTES], gnuplot[PLOT_PATH_BYTES];
	bool flows_present, drawn;
	int ret = CLI_BAD_INPUT, rc;
	const size_t n_names = sizeof(plot_names) / sizeof(plot_names[0]);

	if (o->n_dirs != 1) {
		fprintf(stderr, "fabemu: plot takes one results folder%s (see fabemu plot --help)\n",
			o->n_dirs ? ", got more" : "");
		return CLI_BAD_INPUT;
	}
	x.dir = o->dirs[0];
	if (o->format) {
		if (strcmp(o->format, "png") && strcmp(o->format, "svg")) {
			fprintf(stderr, "fabemu: --format is png or svg, got '%s' (see fabemu plot --help)\n",
				o->format);
			return CLI_BAD_INPUT;
		}
		x.ext = o->format;
	}
	if (o->outdir) {
		if ((size_t)snprintf(x.out, sizeof(x.out), "%s", o->outdir) >= sizeof(x.out)) {
			fprintf(stderr, "fabemu: -o: path too long\n");
			return CLI_BAD_INPUT;
		}
	} else if (plot_default_out(x.dir, x.out, sizeof(x.out)) != 0) {
		fprintf(stderr, "fabemu: %s: no folder name to put the plots under: give -o DIR\n", x.dir);
		return CLI_BAD_INPUT;
	}
	if (cli_summary_load(x.dir, &doc, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		goto out;
	}
	if (plot_read_flows(x.dir, &fl, &flows_present, err) != 0 ||
	    plot_read_series(x.dir, &se, err) != 0 || plot_more_read(x.dir, &more, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		goto out;
	}
	if (plot_find_gnuplot(gnuplot, sizeof(gnuplot)) != 0) {
		fprintf(stderr, "fabemu: plot needs gnuplot, which is not in PATH "
				"(Debian: apt-get install gnuplot-nox, or tools/install-deps.sh)\n");
		ret = CLI_FAIL;
		goto out;
	}
	x.gnuplot = gnuplot;
	rc = cli_mkdirs(x.out);
	if (rc != 0) {
		fprintf(stderr, "fabemu: %s: cannot create: %s\n", x.out, strerror(-rc));
		goto out;
	}
	/* No picture of an earlier plot into this folder stays beside new ones. */
	for (size_t k = 0; k < n_names + plot_n_more_names; k++) {
		static const char *const exts[] = { "png", "svg", "gp", "dat" };
		const char *name = k < n_names ? plot_names[k] : plot_more_names[k - n_names];

		for (size_t e = 0; e < 4; e++) {
			char path[PLOT_PATH_BYTES];

			if ((size_t)snprintf(path, sizeof(path), "%s/%s.%s", x.out, name,
					     exts[e]) >= sizeof(path)) {
				fprintf(stderr, "fabemu: %s: path too long\n", x.out);
				goto out;
			}
			if (unlink(path) != 0 && errno != ENOENT) {
				fprintf(stderr, "fabemu: %s: cannot remove: %s\n", path, strerror(errno));
				goto out;
			}
		}
	}
	ret = CLI_FAIL;
	if (!flows_present) {
		plot_skip("fct-slowdown", "no flows.csv (outputs.flows_csv is false)");
		plot_skip("fct-cdf", "no flows.csv (outputs.flows_csv is false)");
	} else if (!fl.n) {
		plot_skip("fct-slowdown", "no message completed");
		plot_skip("fct-cdf", "no message completed");
	} else if (plot_slowdown(&x, &fl, err) != 0 || plot_cdf(&x, &fl, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		goto out;
	}
	if (!se.n)
		plot_skip("queues", "no series.csv (set outputs.series to sample ports)");
	else if (plot_queues(&x, &se, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		goto out;
	}
	rc = se.n ? plot_timeline_series(&x, &se, &drawn, err) : plot_timeline_pfc(&x, &drawn, err);
	if (rc != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		ret = rc == -EINVAL ? CLI_BAD_INPUT : CLI_FAIL;
		goto out;
	}
	if (!drawn)
		plot_skip("pfc-timeline", se.n ? "no sampled port was paused" : "no port was paused by PFC");
	if (plot_more_draw(&x, more, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		goto out;
	}
	ret = CLI_OK;
out:
	plot_flows_free(&fl);
	plot_series_free(&se);
	plot_more_free(more);
	cfg_doc_free(doc);
	return ret;
}
