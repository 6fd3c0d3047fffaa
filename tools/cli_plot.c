/* `fabemu plot DIR`: pictures of a results folder drawn by gnuplot: FCT
 * slowdown by message size and the FCT CDF (flows.csv), queue depth and PFC
 * pause state per sampled port (series.csv) and a PFC pause timeline
 * (series.csv, or paused time per port from pfc.csv); cli_plot_more.c draws
 * the others, from what cli_plot_read.c read first. For each picture the
 * output folder gets its data (.dat), its gnuplot script (.gp) and the
 * image. */
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

FILE *plot_fopen(const struct plot_ctx *x, const char *name, char err[CFG_ERR_BYTES])
{
	char path[PLOT_PATH_BYTES + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", x->out, name);
	/* Not through a link planted in the output folder (ELOOP). */
	f = cfg_fopen_out(path);
	if (!f)
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path,
			 errno == ELOOP ? "a symbolic link (plot does not follow one)" : strerror(errno));
	return f;
}

int plot_fclose(const struct plot_ctx *x, FILE *f, const char *name, char err[CFG_ERR_BYTES])
{
	int bad = ferror(f);

	if (fclose(f) != 0 || bad) {
		snprintf(err, CFG_ERR_BYTES, "%.300s/%.100s: cannot write: %.60s", x->out, name,
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
	/* From each port's mask of priorities ever paused, not a scan of the
	 * samples per port (thousands of ports). */
	for (unsigned p = 0; p < se->n_ports; p++)
		for (unsigned prio = 0; prio < 8 && n_rows < PLOT_MAX_ROWS; prio++)
			if (se->paused[p] >> prio & 1) {
				rows[n_rows][0] = p;
				rows[n_rows++][1] = prio;
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
static int plot_timeline_pfc(struct plot_ctx *x, const struct plot_pfc *pfc, bool *drawn,
			     char err[CFG_ERR_BYTES])
{
	FILE *f;

	*drawn = false;
	if (!pfc->n)
		return 0;
	if (!(f = plot_fopen(x, "pfc-timeline.dat", err)))
		return -EIO;
	for (unsigned r = 0; r < pfc->n; r++)
		fprintf(f, "%u %.9g \"%s\"\n", r, pfc->rows[r].paused_ns / 1e3, pfc->rows[r].label);
	if (plot_fclose(x, f, "pfc-timeline.dat", err) != 0)
		return -EIO;
	if (!(f = plot_fopen(x, "pfc-timeline.gp", err)))
		return -EIO;
	plot_gp_head(x, f, "pfc-timeline", 1000, 160 + 40 * (int)pfc->n);
	fprintf(f, "set title 'PFC paused time per port and priority (pfc.csv; a timeline needs outputs.series)'\n"
		   "set xlabel 'time paused (us)'\nset ylabel 'port, priority'\n"
		   "set yrange [-0.6:%u.6]\nset xrange [0:*]\nset style fill solid 0.8 noborder\n"
		   "plot 'pfc-timeline.dat' using ($2/2):1:($2/2):(0.35):ytic(3) with boxxyerror "
		   "lc rgb 'red' title 'paused'\n", pfc->n - 1);
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

/* Make the output folder @out (and the folders above it). It must not be
 * a symbolic link: plot removes its own earlier pictures there, writes
 * there and runs gnuplot there, which a link in its place would take
 * elsewhere; folders above it are the user's to arrange. Returns a CLI_*
 * status, with the message on stderr. */
static int plot_out_dir(char *out)
{
	size_t n = strlen(out);
	struct stat st;
	int rc;

	/* "DIR/" would resolve a link: look at DIR itself. */
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
	rc = lstat(out, &st) == 0 && S_ISLNK(st.st_mode) ? -ELOOP : cli_mkdirs(out);
	if (rc == 0 && lstat(out, &st) == 0 && S_ISLNK(st.st_mode))
		rc = -ELOOP; /* made a link while the folders above were made */
	if (rc == -ELOOP) {
		fprintf(stderr, "fabemu: %s: a symbolic link: plot writes into a folder, not through "
				"a link (give -o a folder)\n", out);
		return CLI_BAD_INPUT;
	}
	if (rc != 0) {
		fprintf(stderr, "fabemu: %s: cannot create: %s\n", out,
			rc == -ENOTDIR ? "it, or a folder above it, exists and is not a folder"
				       : strerror(-rc));
		return CLI_BAD_INPUT;
	}
	return CLI_OK;
}

/* Whether @dir is a sweep folder: sweep.csv in it, no summary.json. */
static bool plot_is_sweep(const char *dir)
{
	char path[PLOT_PATH_BYTES + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	if (stat(path, &st) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	return stat(path, &st) != 0 && errno == ENOENT;
}

/* The options into @x: the format and the output folder. A CLI_* status,
 * with the message on stderr. */
static int plot_options(const struct cli_plot_opts *o, struct plot_ctx *x)
{
	if (o->n_dirs == 0) {
		fprintf(stderr, "fabemu: plot takes a results folder (see fabemu plot --help)\n");
		return CLI_BAD_INPUT;
	}
	x->dir = o->dirs[0];
	if (o->format) {
		if (strcmp(o->format, "png") && strcmp(o->format, "svg")) {
			fprintf(stderr, "fabemu: --format is png or svg, got '%s' (see fabemu plot --help)\n",
				o->format);
			return CLI_BAD_INPUT;
		}
		x->ext = o->format;
	}
	if (o->outdir) {
		if ((size_t)snprintf(x->out, sizeof(x->out), "%s", o->outdir) >= sizeof(x->out)) {
			fprintf(stderr, "fabemu: -o: path too long\n");
			return CLI_BAD_INPUT;
		}
	} else if (o->n_dirs > 1) {
		fprintf(stderr, "fabemu: plot of several results folders draws them together: give -o DIR\n");
		return CLI_BAD_INPUT;
	} else if (plot_default_out(x->dir, x->out, sizeof(x->out)) != 0) {
		fprintf(stderr, "fabemu: %s: no folder name to put the plots under: give -o DIR\n", x->dir);
		return CLI_BAD_INPUT;
	}
	return CLI_OK;
}

/* gnuplot found, the output folder made and emptied of an earlier plot's
 * pictures. A CLI_* status, with the message on stderr. */
static int plot_prepare(struct plot_ctx *x, char *gnuplot, size_t len)
{
	static const char *const sweep_name[] = { "sweep" };
	static const char *const exts[] = { "png", "svg", "gp", "dat" };
	const struct { const char *const *names; size_t n; } lists[] = {
		{ plot_names, sizeof(plot_names) / sizeof(plot_names[0]) },
		{ plot_more_names, plot_n_more_names },
		{ plot_runs_names, plot_n_runs_names },
		{ sweep_name, 1 },
	};
	int ret;

	if (plot_find_gnuplot(gnuplot, len) != 0) {
		fprintf(stderr, "fabemu: plot needs gnuplot, which is not in PATH "
				"(Debian: apt-get install gnuplot-nox, or tools/install-deps.sh)\n");
		return CLI_FAIL;
	}
	x->gnuplot = gnuplot;
	if ((ret = plot_out_dir(x->out)) != CLI_OK)
		return ret;
	/* No picture of an earlier plot into this folder stays beside new ones. */
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++)
		for (size_t k = 0; k < lists[l].n; k++)
			for (size_t e = 0; e < 4; e++) {
				char path[PLOT_PATH_BYTES];

				if ((size_t)snprintf(path, sizeof(path), "%s/%s.%s", x->out,
						     lists[l].names[k], exts[e]) >= sizeof(path)) {
					fprintf(stderr, "fabemu: %s: path too long\n", x->out);
					return CLI_BAD_INPUT;
				}
				/* A link there goes, not what it points to. */
				if (unlink(path) != 0 && errno != ENOENT) {
					fprintf(stderr, "fabemu: %s: cannot remove: %s\n", path,
						strerror(errno));
					return CLI_BAD_INPUT;
				}
			}
	return CLI_OK;
}

/* The pictures of one results folder. 0, or -errno with @err. */
static int plot_one(struct plot_ctx *x, struct plot_in *in, const char *label,
		    char err[CFG_ERR_BYTES])
{
	bool drawn;
	int rc;

	if (!in->fl.present) {
		static const char why[] =
			"no flows.csv (outputs.flows_csv false, or auto over 100000 messages)";

		plot_skip("fct-slowdown", why);
		plot_skip("fct-cdf", why);
	} else if (!in->fl.n) {
		plot_skip("fct-slowdown", "no message completed");
		plot_skip("fct-cdf", "no message completed");
	} else if ((rc = plot_slowdown(x, &in->fl, err)) != 0 || (rc = plot_cdf(x, &in->fl, err)) != 0) {
		return rc;
	}
	if (!in->se.n)
		plot_skip("queues", "no series.csv (set outputs.series to sample ports)");
	else if ((rc = plot_queues(x, &in->se, err)) != 0)
		return rc;
	rc = in->se.n ? plot_timeline_series(x, &in->se, &drawn, err)
		      : plot_timeline_pfc(x, &in->pfc, &drawn, err);
	if (rc != 0)
		return rc;
	if (!drawn)
		plot_skip("pfc-timeline", in->se.n ? "no sampled port was paused" : "no port was paused by PFC");
	if ((rc = plot_more_draw(x, &in->more, err)) != 0)
		return rc;
	if (in->bins.n)
		return plot_bins_draw(x, "fct-bins", &label, in, 1, err);
	plot_skip("fct-bins", "no fct_bins.csv (a poisson workload with flows.csv)");
	return 0;
}

/* A run's label: its folder's last component, or the folder as given when
 * two runs share that name. */
static const char *plot_label_of(const struct cli_plot_opts *o, unsigned r, char *buf, size_t len)
{
	for (unsigned k = 0; k < o->n_dirs; k++) {
		char other[PLOT_PATH_BYTES];

		if (k == r)
			continue;
		if (plot_default_out(o->dirs[k], other, sizeof(other)) == 0 &&
		    plot_default_out(o->dirs[r], buf, len) == 0 && !strcmp(other, buf))
			return o->dirs[r];
	}
	if (plot_default_out(o->dirs[r], buf, len) != 0)
		return o->dirs[r];
	return buf + strlen("plots/");
}

static int cli_plot(const void *opts)
{
	const struct cli_plot_opts *o = opts;
	struct plot_ctx x = { .ext = "png" };
	struct plot_in *in = NULL;
	const char *labels[CLI_MAX_DIRS];
	char err[CFG_ERR_BYTES], gnuplot[PLOT_PATH_BYTES], names[CLI_MAX_DIRS][PLOT_PATH_BYTES];
	bool sweep = false;
	int ret, rc;

	if ((ret = plot_options(o, &x)) != CLI_OK)
		return ret;
	ret = CLI_BAD_INPUT;
	if (!(in = calloc(o->n_dirs, sizeof(*in)))) {
		fprintf(stderr, "fabemu: out of memory\n");
		return CLI_FAIL;
	}
	sweep = o->n_dirs == 1 && plot_is_sweep(x.dir);
	/* Every input read and checked before anything is written. */
	for (unsigned r = 0; r < o->n_dirs; r++) {
		struct cfg_doc *doc = NULL;

		if (!sweep && cli_summary_load(o->dirs[r], &doc, err) != 0) {
			fprintf(stderr, "fabemu: %s\n", err);
			cfg_doc_free(doc); /* the caller's, also on failure (cli.h) */
			goto out;
		}
		cfg_doc_free(doc);
		if (plot_read(o->dirs[r], sweep ? 1u << PLOT_SWEEP : PLOT_RUN_FILES, &in[r], err) != 0) {
			fprintf(stderr, "fabemu: %s\n", err);
			goto out;
		}
		labels[r] = plot_label_of(o, r, names[r], sizeof(names[r]));
	}
	if ((ret = plot_prepare(&x, gnuplot, sizeof(gnuplot))) != CLI_OK)
		goto out;
	if (sweep)
		rc = plot_sweep_draw(&x, &in[0].sw, err);
	else if (o->n_dirs > 1)
		rc = plot_runs_draw(&x, labels, in, o->n_dirs, err);
	else
		rc = plot_one(&x, &in[0], labels[0], err);
	if (rc != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		ret = CLI_FAIL;
		goto out;
	}
	ret = CLI_OK;
out:
	for (unsigned r = 0; r < o->n_dirs; r++)
		plot_in_free(&in[r]);
	free(in);
	return ret;
}

static int cli_plot_arg(void *opts, const char *a)
{
	struct cli_plot_opts *o = opts;

	return cli_arg_dir(o->dirs, &o->n_dirs, a);
}

static const struct cli_optdef cli_plot_own_optdefs[] = {
	{ "-o", "--output", "OUTDIR", "where the pictures go (default plots/<DIR's name>)", cli_opt_dir,
	  offsetof(struct cli_plot_opts, outdir) },
	{ "--format", NULL, "png|svg", "image format (default png)", cli_opt_str,
	  offsetof(struct cli_plot_opts, format) },
	{ NULL },
};

static const struct cli_optdef *const cli_plot_optdefs[] = {
	cli_plot_own_optdefs,
	NULL,
};

const struct cli_cmd cli_cmd_plot = {
	.name = "plot",
	.synopsis = "DIR [DIR...] [options]",
	.what = "Draw a results folder with gnuplot: FCT slowdown and CDF, queues, PFC pauses; "
		"several folders overlaid (-o needed); a sweep folder's metrics with 95% intervals.",
	.exits = "0 done (plots without data are skipped, with a line saying why), "
		 "1 gnuplot missing or failed, or a file could not be written, 2 bad input",
	.opts = cli_plot_optdefs,
	.opts_bytes = sizeof(struct cli_plot_opts),
	.arg = cli_plot_arg,
	.main = cli_plot,
};
