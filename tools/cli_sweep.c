/* Several runs of `fabemu run|check`: several experiment files, and for
 * --sweep (the cartesian product of --set values) and --seeds every point
 * and seed. Each run is a child process, `fabemu run|check` of its own into
 * its own folder (so it is byte-identical to that command run alone), up
 * to -j at a time; then sweep.csv (one row per run) and sweep_summary.csv
 * (mean and Student-t 95% interval over the seeds). Layout and formulas:
 * docs/results.md, "Sweeps". */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfg.h"
#include "cli.h"
#include "exp.h"

enum {
	SWP_MAX_VALUES = 256,   /* values of one --sweep */
	SWP_MAX_SEEDS = 1000,   /* --seeds */
	SWP_MAX_RUNS = 10000,   /* runs of all files together */
	SWP_NAME_MAX_BYTES = 255, /* a folder name (NAME_MAX) */
	SWP_PATH_BYTES = 4096,
	SWP_NOT_RUN = -1000,    /* swp_run.status before its end */
	SWP_CELL_BYTES = 128,   /* a metric's text in a table */
};

/* The metrics sweep.csv gets without --metric (docs/results.md). */
static const char *const swp_default_metrics[] = {
	"messages.incomplete", "drops.total", "goodput_gbps", "flows.fct_ns.p99", "flows.slowdown.p99",
};

/* One --sweep: a --set key and its values. */
struct swp_axis {
	char *key;          /* malloc'd */
	char *values[SWP_MAX_VALUES]; /* as written, malloc'd */
	unsigned n_values;
};

/* One run: an experiment file, a combination of the axes' values, a seed. */
struct swp_run {
	unsigned file;      /* index in cli_opts.exps */
	unsigned combo;     /* combination, the last axis fastest */
	unsigned seed_i;    /* index in swp_plan.seeds (0 without --seeds) */
	char *dir;          /* its results folder (malloc'd) */
	pid_t pid;          /* while it runs */
	int status;         /* exit status, 128 + signal, or SWP_NOT_RUN */
	struct cfg_doc *doc; /* its summary.json once read, or NULL */
};

/* Everything to do, parsed and checked before anything is written. */
struct swp_plan {
	struct swp_axis axes[CLI_MAX_SWEEPS];
	unsigned n_axes;
	uint64_t seeds[SWP_MAX_SEEDS]; /* --seeds, in order */
	unsigned n_seeds;   /* 0 without --seeds: the file's seed (or --seed) */
	unsigned n_combos;  /* product of the axes' value counts (1 without) */
	const char *metrics[CLI_MAX_METRICS];
	unsigned n_metrics;
	char *bases[CLI_MAX_EXPS];  /* each file's folder (malloc'd) */
	struct swp_run *runs;
	unsigned n_runs;
	bool multi;         /* --sweep or --seeds: point folders and the tables */
};

static int swp_bad(char msg[CFG_ERR_BYTES], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int swp_bad(char msg[CFG_ERR_BYTES], const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, CFG_ERR_BYTES, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Split @list at the commas that are not inside [], {} or quotes (a value
 * may be a YAML flow list, as --set takes it) into @out (malloc'd); @opt
 * is the --sweep as given, for messages. */
static int swp_split(const char *opt, const char *list, char **out, unsigned max, unsigned *n,
		     char msg[CFG_ERR_BYTES])
{
	int depth = 0;
	char quote = 0;
	const char *start = list;

	*n = 0;
	for (const char *p = list;; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else if (!*p)
				return swp_bad(msg, "fabemu: --sweep '%s': unterminated quote", opt);
			continue;
		}
		if (*p == '"' || *p == '\'')
			quote = *p;
		else if (*p == '[' || *p == '{')
			depth++;
		else if ((*p == ']' || *p == '}') && depth > 0)
			depth--;
		if (*p && (*p != ',' || depth > 0))
			continue;
		if (p == start)
			return swp_bad(msg, "fabemu: --sweep '%s': an empty value (values are separated "
					    "by single commas)", opt);
		if (*n == max)
			return swp_bad(msg, "fabemu: --sweep '%s': more than %u values", opt, max);
		if (!(out[*n] = strndup(start, (size_t)(p - start))))
			return -ENOMEM;
		for (unsigned i = 0; i < *n; i++)
			if (!strcmp(out[i], out[*n]))
				return swp_bad(msg, "fabemu: --sweep '%s': value '%s' given twice", opt,
					       out[*n]);
		(*n)++;
		if (!*p)
			return 0;
		start = p + 1;
	}
}

static int swp_parse_u64(const char *s, size_t len, uint64_t *out)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf) || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoull(buf, &end, 10);
	return *end || errno ? -EINVAL : 0;
}

/* --seeds A..B (inclusive, A <= B) or A,B,C. */
static int swp_parse_seeds(struct swp_plan *p, const char *s, char msg[CFG_ERR_BYTES])
{
	const char *dots = strstr(s, "..");

	if (dots) {
		uint64_t a, b;

		if (swp_parse_u64(s, (size_t)(dots - s), &a) != 0 ||
		    swp_parse_u64(dots + 2, strlen(dots + 2), &b) != 0)
			return swp_bad(msg, "fabemu: --seeds '%s': expected A..B with non-negative "
					    "integers A <= B, or a list A,B,C", s);
		if (a > b)
			return swp_bad(msg, "fabemu: --seeds '%s': an empty range (%llu is above %llu)", s,
				       (unsigned long long)a, (unsigned long long)b);
		if (b - a >= SWP_MAX_SEEDS)
			return swp_bad(msg, "fabemu: --seeds '%s': more than %d seeds", s, SWP_MAX_SEEDS);
		for (uint64_t x = a; x <= b; x++)
			p->seeds[p->n_seeds++] = x;
		return 0;
	}
	for (const char *q = s;;) {
		size_t len = strcspn(q, ",");
		uint64_t x;

		if (swp_parse_u64(q, len, &x) != 0)
			return swp_bad(msg, "fabemu: --seeds '%s': '%.*s' is not a non-negative integer "
					    "(expected A..B or a list A,B,C)", s, (int)len, q);
		for (unsigned i = 0; i < p->n_seeds; i++)
			if (p->seeds[i] == x)
				return swp_bad(msg, "fabemu: --seeds '%s': seed %llu given twice", s,
					       (unsigned long long)x);
		if (p->n_seeds == SWP_MAX_SEEDS)
			return swp_bad(msg, "fabemu: --seeds '%s': more than %d seeds", s, SWP_MAX_SEEDS);
		p->seeds[p->n_seeds++] = x;
		if (!q[len])
			return 0;
		q += len + 1;
	}
}

/* One --sweep key=v1,v2,... */
static int swp_parse_axis(struct swp_plan *p, const char *s, char msg[CFG_ERR_BYTES])
{
	const char *eq = strchr(s, '=');
	struct swp_axis *a = &p->axes[p->n_axes];
	int r;

	if (!eq || eq == s)
		return swp_bad(msg, "fabemu: --sweep '%s': expected key=v1,v2,... (key as --set "
				    "takes it)", s);
	if (!(a->key = strndup(s, (size_t)(eq - s))))
		return -ENOMEM;
	p->n_axes++;
	if (!eq[1])
		return swp_bad(msg, "fabemu: --sweep '%s': no values after '='", s);
	for (unsigned i = 0; i + 1 < p->n_axes; i++)
		if (!strcmp(p->axes[i].key, a->key))
			return swp_bad(msg, "fabemu: --sweep: key '%s' swept twice", a->key);
	r = swp_split(s, eq + 1, a->values, SWP_MAX_VALUES, &a->n_values, msg);
	return r;
}

/* The value index of axis @k in combination @combo (the last axis fastest). */
static unsigned swp_value_of(const struct swp_plan *p, unsigned combo, unsigned k)
{
	for (unsigned j = p->n_axes; j-- > k + 1;)
		combo /= p->axes[j].n_values;
	return combo % p->axes[k].n_values;
}

/* Append @s to @out (at *@len, @cap bytes) with every byte but
 * [A-Za-z0-9._+-] and '=' written %XX: a folder name that any file system
 * takes and that names one combination only. */
static void swp_escape(char *out, size_t cap, size_t *len, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s && *len + 4 < cap; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '_' || c == '+' || c == '-' || c == '=') {
			out[(*len)++] = (char)c;
		} else {
			out[(*len)++] = '%';
			out[(*len)++] = hex[c >> 4];
			out[(*len)++] = hex[c & 15];
		}
	}
	out[*len] = '\0';
}

/* The folder name of combination @combo: key=value,key=value, each key
 * and value escaped (a value's own comma is %2C); -ENAMETOOLONG beyond a
 * file name's 255 bytes. */
static int swp_combo_name(const struct swp_plan *p, unsigned combo, char out[SWP_PATH_BYTES])
{
	size_t len = 0;

	out[0] = '\0';
	for (unsigned k = 0; k < p->n_axes; k++) {
		const struct swp_axis *a = &p->axes[k];

		if (k && len + 1 < SWP_PATH_BYTES) {
			out[len++] = ',';
			out[len] = '\0';
		}
		swp_escape(out, SWP_PATH_BYTES, &len, a->key);
		if (len + 1 < SWP_PATH_BYTES) {
			out[len++] = '=';
			out[len] = '\0';
		}
		swp_escape(out, SWP_PATH_BYTES, &len, a->values[swp_value_of(p, combo, k)]);
	}
	return len > SWP_NAME_MAX_BYTES ? -ENAMETOOLONG : 0;
}

/* t(0.975, df): the two-sided 95% quantile of Student's t distribution,
 * from a table for df 1..30 (17 digits, computed here by inverting the
 * regularized incomplete beta function with mpmath), and beyond from the
 * Cornish-Fisher expansion of t around the normal quantile z (Abramowitz
 * and Stegun 26.7.5, five terms: 2.6e-8 low at df 31, less above). */
static double swp_t975(unsigned df)
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

/* The node at the dotted @name under @root (map keys, sequence indices),
 * or NULL. */
static const struct cfg_node *swp_lookup(const struct cfg_node *root, const char *name)
{
	char buf[1024], *save = NULL;
	const struct cfg_node *n = root;

	if (strlen(name) >= sizeof(buf))
		return NULL;
	strcpy(buf, name);
	for (char *part = strtok_r(buf, ".", &save); part && n; part = strtok_r(NULL, ".", &save)) {
		if (n->type == CFG_MAP) {
			n = cfg_get(n, part);
		} else if (n->type == CFG_SEQ) {
			char *end;
			unsigned long i = strtoul(part, &end, 10);

			n = *end || i >= n->n ? NULL : n->items[i];
		} else {
			return NULL;
		}
	}
	return n;
}

/* A run's metric: its text as summary.json has it ("" for null, a
 * container or a missing one) and, when it is a number (true/false as
 * 1/0), *@x. */
static const char *swp_metric(const struct swp_run *r, const char *name, double *x, bool *num)
{
	const struct cfg_node *n = r->doc ? swp_lookup(cfg_doc_root(r->doc), name) : NULL;
	char *end;

	*num = false;
	if (!n || n->type != CFG_SCALAR)
		return "";
	if (!n->quoted && (!strcmp(n->str, "true") || !strcmp(n->str, "false"))) {
		*x = n->str[0] == 't';
		*num = true;
	} else if (!n->quoted && n->str[0]) {
		errno = 0;
		*x = strtod(n->str, &end);
		*num = !*end && isfinite(*x);
	}
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

static const char *swp_status_word(int status, bool check)
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
static void swp_seed_text(const struct swp_plan *p, const struct cli_opts *o,
			  const struct swp_run *r, char out[32])
{
	double x;
	bool num;
	const char *s = swp_metric(r, "seed", &x, &num);

	if (*s)
		snprintf(out, 32, "%.31s", s);
	else if (p->n_seeds)
		snprintf(out, 32, "%llu", (unsigned long long)p->seeds[r->seed_i]);
	else if (o->seed_set)
		snprintf(out, 32, "%llu", (unsigned long long)o->seed);
	else
		out[0] = '\0';
}

/* Write @path through PATH.tmp and a rename, so that it is whole or absent.
 * @fill writes the rows; 0, or -errno with the message on stderr. */
static int swp_write_table(const char *path, void (*fill)(FILE *, const void *), const void *arg)
{
	char tmp[SWP_PATH_BYTES + 8];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (!(f = fopen(tmp, "w"))) {
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

/* What the table writers read. */
struct swp_table_arg {
	const struct swp_plan *p;
	const struct cli_opts *o;
	unsigned file;      /* whose rows */
	bool check;
};

/* sweep.csv: the swept keys, seed, status, then the metrics; one row per run. */
static void swp_fill_runs(FILE *f, const void *arg)
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
static void swp_fill_summary(FILE *f, const void *arg)
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

/* The --set list of a run: the command line's, then one per axis
 * (malloc'd: freed with swp_sets_free from index @o->n_sets). */
static int swp_sets(const struct cli_opts *o, const struct swp_plan *p, unsigned combo,
		    const char *sets[CLI_MAX_SETS])
{
	for (unsigned i = 0; i < o->n_sets; i++)
		sets[i] = o->sets[i];
	for (unsigned k = 0; k < p->n_axes; k++) {
		const struct swp_axis *a = &p->axes[k];
		const char *v = a->values[swp_value_of(p, combo, k)];
		size_t len = strlen(a->key) + strlen(v) + 2;
		char *s = malloc(len);

		if (!s)
			return -ENOMEM;
		snprintf(s, len, "%s=%s", a->key, v);
		sets[o->n_sets + k] = s;
	}
	return 0;
}

static void swp_sets_free(const struct cli_opts *o, const struct swp_plan *p, const char **sets)
{
	for (unsigned k = 0; k < p->n_axes; k++)
		free((char *)sets[o->n_sets + k]);
}

/* Fork a process of its own that checks the metrics of file @file (the
 * EAL starts once per process); its exit status as CLI_*. */
static int swp_check_metrics(const struct cli_opts *o, const struct swp_plan *p, unsigned file,
			     bool check)
{
	const char *sets[CLI_MAX_SETS] = { 0 };
	struct cli_opts vo = *o;
	int st;
	pid_t pid;

	if (swp_sets(o, p, 0, sets) != 0) {
		swp_sets_free(o, p, sets);
		return CLI_FAIL;
	}
	if (p->n_seeds) {
		vo.seed_set = true;
		vo.seed = p->seeds[0];
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(cli_metrics_exist(&vo, o->exps[file], sets, o->n_sets + p->n_axes, p->metrics,
					p->n_metrics, check));
	swp_sets_free(o, p, sets);
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		fprintf(stderr, "fabemu: cannot start a process: %s\n", strerror(errno));
		return CLI_FAIL;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : CLI_FAIL;
}

/* Parse and check everything, write nothing: the axes, seeds, metrics,
 * every file under every combination (through exp_load: unknown keys and
 * bad values as --set reports them), the folders' names, then the metrics
 * on a built fabric. 0, or -errno with @msg filled (empty when the
 * message was printed already, by the metrics check). */
static int swp_plan(const struct cli_opts *o, bool check, struct swp_plan *p, char msg[CFG_ERR_BYTES])
{
	char err[CFG_ERR_BYTES], name[SWP_PATH_BYTES];
	const char *names[CLI_MAX_EXPS];
	unsigned per_file;
	int r;

	p->multi = o->n_sweeps || o->seeds;
	if (o->n_metric_names && !p->multi)
		return swp_bad(msg, "fabemu: --metric names sweep.csv's columns: it needs --sweep or --seeds");
	if (o->seeds && o->seed_set)
		return swp_bad(msg, "fabemu: --seed and --seeds: give one of them");
	if (o->n_sets + o->n_sweeps > CLI_MAX_SETS)
		return swp_bad(msg, "fabemu: more than %d --set and --sweep options together", CLI_MAX_SETS);
	for (unsigned i = 0; i < o->n_sweeps; i++)
		if ((r = swp_parse_axis(p, o->sweeps[i], msg)) != 0)
			return r;
	if (o->seeds && (r = swp_parse_seeds(p, o->seeds, msg)) != 0)
		return r;
	p->n_combos = 1;
	for (unsigned k = 0; k < p->n_axes; k++) {
		if (p->n_combos * (uint64_t)p->axes[k].n_values > SWP_MAX_RUNS)
			return swp_bad(msg, "fabemu: --sweep: more than %d combinations", SWP_MAX_RUNS);
		p->n_combos *= p->axes[k].n_values;
	}
	per_file = p->n_combos * (p->n_seeds ? p->n_seeds : 1);
	if ((uint64_t)per_file * o->n_exps > SWP_MAX_RUNS)
		return swp_bad(msg, "fabemu: %llu runs: at most %d at once",
			       (unsigned long long)per_file * o->n_exps, SWP_MAX_RUNS);
	if (o->n_metric_names) {
		for (unsigned m = 0; m < o->n_metric_names; m++)
			p->metrics[p->n_metrics++] = o->metric_names[m];
	} else if (p->multi) {
		for (size_t m = 0; m < sizeof(swp_default_metrics) / sizeof(swp_default_metrics[0]); m++)
			p->metrics[p->n_metrics++] = swp_default_metrics[m];
	}
	/* Every file under every combination, and each file's folder. */
	for (unsigned f = 0; f < o->n_exps; f++) {
		for (unsigned c = 0; c < p->n_combos; c++) {
			const char *sets[CLI_MAX_SETS] = { 0 };
			struct exp *e = NULL;

			if ((r = swp_sets(o, p, c, sets)) == 0)
				r = exp_load(o->exps[f], sets, o->n_sets + p->n_axes,
					     o->seed_set || p->n_seeds, p->n_seeds ? p->seeds[0] : o->seed, &e,
					     err);
			swp_sets_free(o, p, sets);
			if (r != 0) {
				size_t len = 0;

				name[0] = '\0';
				for (unsigned k = 0; k < p->n_axes && len < sizeof(name); k++)
					len += (size_t)snprintf(name + len, sizeof(name) - len, "%s%s=%s",
								k ? "," : "", p->axes[k].key,
								p->axes[k].values[swp_value_of(p, c, k)]);
				if (!p->n_axes)
					return swp_bad(msg, "%s", err);
				return swp_bad(msg, "%s (sweep point %s; the sweep's keys are --set #%u to #%u)",
					       err, name, o->n_sets + 1, o->n_sets + p->n_axes);
			}
			if (c == 0) {
				size_t len;

				if (o->n_exps == 1)
					snprintf(name, sizeof(name), "%s%s", o->outdir ? "" : "results/",
						 o->outdir ? o->outdir : e->name);
				else
					snprintf(name, sizeof(name), "%s/%s", o->outdir ? o->outdir : "results",
						 e->name);
				len = strlen(name);
				/* A point folder adds /NAME/seed=N under it. */
				if (len + (p->multi ? SWP_NAME_MAX_BYTES + 32 : 0) > CLI_OUTDIR_MAX_BYTES - 16) {
					exp_free(e);
					return swp_bad(msg, "fabemu: %.300s: a results folder path that long "
							    "leaves no room for the runs' folders", name);
				}
				if (!(p->bases[f] = strdup(name))) {
					exp_free(e);
					return -ENOMEM;
				}
				names[f] = p->bases[f];
			}
			exp_free(e);
		}
		for (unsigned g = 0; g < f; g++)
			if (!strcmp(names[g], names[f]))
				return swp_bad(msg, "fabemu: %s and %s would both write %s (two experiments "
						    "of one name)", o->exps[g], o->exps[f], names[f]);
	}
	for (unsigned c = 0; c < p->n_combos; c++)
		if (swp_combo_name(p, c, name) != 0)
			return swp_bad(msg, "fabemu: --sweep: the folder name '%.200s...' is longer than "
					    "%d bytes: sweep fewer or shorter keys", name, SWP_NAME_MAX_BYTES);
	if (o->junit && (r = cli_junit_probe(o->junit)) != 0)
		return swp_bad(msg, "fabemu: %s: cannot write the JUnit report: %s", o->junit, strerror(-r));
	/* The runs, each file's in order: combination, then seed. */
	p->runs = calloc((size_t)per_file * o->n_exps, sizeof(*p->runs));
	if (!p->runs)
		return -ENOMEM;
	for (unsigned f = 0; f < o->n_exps; f++) {
		for (unsigned c = 0; c < p->n_combos; c++) {
			for (unsigned s = 0; s < (p->n_seeds ? p->n_seeds : 1); s++) {
				struct swp_run *run = &p->runs[p->n_runs++];
				size_t len = strlen(p->bases[f]) + SWP_NAME_MAX_BYTES + 64;

				*run = (struct swp_run){ .file = f, .combo = c, .seed_i = s,
							 .status = SWP_NOT_RUN };
				if (!(run->dir = malloc(len)))
					return -ENOMEM;
				swp_combo_name(p, c, name);
				if (!p->multi)
					snprintf(run->dir, len, "%s", p->bases[f]);
				else if (p->n_seeds)
					snprintf(run->dir, len, "%s%s%s/seed=%llu", p->bases[f],
						 p->n_axes ? "/" : "", name,
						 (unsigned long long)p->seeds[s]);
				else
					snprintf(run->dir, len, "%s/%s", p->bases[f], name);
			}
		}
	}
	/* The metrics, on a fabric built (not run) in a process of its own;
	 * that process prints its message. */
	if (p->multi || check)
		for (unsigned f = 0; f < o->n_exps; f++)
			if ((r = swp_check_metrics(o, p, f, check)) != CLI_OK) {
				msg[0] = '\0';
				return r == CLI_BAD_INPUT ? -EINVAL : -EIO;
			}
	return 0;
}

/* The signal that asked the sweep to stop (0 while none did): no run is
 * started after it, the ones going finish (SIGTERM is passed on to them;
 * a terminal's SIGINT reaches them itself) and the tables are written. */
static volatile sig_atomic_t swp_stop_sig;

static void swp_on_signal(int sig)
{
	swp_stop_sig = sig;
}

/* Start run @r: `fabemu run|check FILE -o DIR -q [--seed N] [--set ...]
 * [--max-wall T] [--junit] [-- EAL args]`, its stdout and stderr into
 * DIR/fabemu.log. 0 or -errno. */
static int swp_spawn(const struct cli_opts *o, bool check, const struct swp_plan *p,
		     struct swp_run *r)
{
	const char *sets[CLI_MAX_SETS] = { 0 };
	char log[SWP_PATH_BYTES + 16], seed[32];
	const char **argv;
	int n = 0, fd, rc = 0;

	argv = calloc((size_t)(16 + 2 * CLI_MAX_SETS + o->eal_argc), sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	if ((rc = swp_sets(o, p, r->combo, sets)) != 0)
		goto out;
	argv[n++] = "fabemu";
	argv[n++] = check ? "check" : "run";
	argv[n++] = o->exps[r->file];
	argv[n++] = "-o";
	argv[n++] = r->dir;
	argv[n++] = "-q";
	if (p->n_seeds || o->seed_set) {
		snprintf(seed, sizeof(seed), "%llu",
			 (unsigned long long)(p->n_seeds ? p->seeds[r->seed_i] : o->seed));
		argv[n++] = "--seed";
		argv[n++] = seed;
	}
	for (unsigned i = 0; i < o->n_sets + p->n_axes; i++) {
		argv[n++] = "--set";
		argv[n++] = sets[i];
	}
	if (o->max_wall) {
		argv[n++] = "--max-wall";
		argv[n++] = o->max_wall;
	}
	if (o->eal_argc) {
		argv[n++] = "--";
		for (int i = 0; i < o->eal_argc; i++)
			argv[n++] = o->eal_argv[i];
	}
	snprintf(log, sizeof(log), "%s/fabemu.log", r->dir);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		rc = -errno;
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", log, strerror(errno));
		goto out;
	}
	fflush(stdout);
	fflush(stderr);
	r->pid = fork();
	if (r->pid == 0) {
		if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(CLI_FAIL);
		execv("/proc/self/exe", (char *const *)argv);
		fprintf(stderr, "fabemu: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(CLI_FAIL);
	}
	if (r->pid < 0) {
		rc = -errno;
		fprintf(stderr, "fabemu: cannot start a process: %s\n", strerror(errno));
	}
	close(fd);
out:
	swp_sets_free(o, p, sets);
	free(argv);
	return rc;
}

/* Run them all, up to @jobs at a time; a line per run as it ends (unless
 * @quiet). */
static void swp_run_all(const struct cli_opts *o, bool check, struct swp_plan *p, unsigned jobs,
			bool quiet)
{
	struct sigaction sa = { .sa_handler = swp_on_signal }, old_int, old_term;
	unsigned next = 0, running = 0, done = 0;
	bool passed_on = false;

	sigemptyset(&sa.sa_mask);
	swp_stop_sig = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	while (next < p->n_runs || running) {
		int st;
		pid_t pid;

		while (!swp_stop_sig && running < jobs && next < p->n_runs) {
			struct swp_run *r = &p->runs[next++];

			if (swp_spawn(o, check, p, r) == 0)
				running++;
			else
				r->status = CLI_FAIL;
		}
		if (swp_stop_sig && !passed_on) {
			passed_on = true;
			next = p->n_runs;
			for (unsigned i = 0; swp_stop_sig == SIGTERM && i < p->n_runs; i++)
				if (p->runs[i].pid > 0 && p->runs[i].status == SWP_NOT_RUN)
					kill(p->runs[i].pid, SIGTERM);
		}
		if (!running)
			break;
		pid = waitpid(-1, &st, 0);
		if (pid < 0)
			continue; /* EINTR: a signal, handled above */
		for (unsigned i = 0; i < p->n_runs; i++) {
			struct swp_run *r = &p->runs[i];

			if (r->pid != pid || r->status != SWP_NOT_RUN)
				continue;
			r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			running--;
			done++;
			if (!quiet)
				printf("[%u/%u] %s: %s\n", done, p->n_runs, r->dir,
				       swp_status_word(r->status, check));
			fflush(stdout);
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
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

/* How the table names run @r: its folder under the file's (several files:
 * under -o or results/, so with the experiment's name). */
static const char *swp_shown(const struct cli_opts *o, const struct swp_plan *p,
			     const struct swp_run *r)
{
	size_t skip;

	if (o->n_exps > 1)
		skip = strlen(o->outdir ? o->outdir : "results") + 1;
	else if (p->multi)
		skip = strlen(p->bases[r->file]) + 1;
	else
		skip = 0;
	return strlen(r->dir) > skip ? r->dir + skip : r->dir;
}

/* The compact table: a row per run (the point, seed, status, for check
 * the assertions that held, then the metrics). */
static void swp_print_table(const struct cli_opts *o, bool check, const struct swp_plan *p)
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

/* With --junit: one test case per run, failed unless its status is 0. */
static int swp_junit(const struct cli_opts *o, const struct swp_plan *p)
{
	unsigned n_fail = 0;
	FILE *f;

	for (unsigned i = 0; i < p->n_runs; i++)
		n_fail += p->runs[i].status != 0;
	if (!(f = fopen(o->junit, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", o->junit, strerror(errno));
		return -errno;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"fabemu sweep\" "
		   "tests=\"%u\" failures=\"%u\">\n", p->n_runs, n_fail);
	for (unsigned i = 0; i < p->n_runs; i++) {
		const struct swp_run *r = &p->runs[i];
		char verdict[64];

		fprintf(f, "  <testcase classname=\"");
		cli_xml_escape(f, o->exps[r->file]);
		fprintf(f, "\" name=\"");
		cli_xml_escape(f, r->dir);
		if (r->status == 0) {
			fprintf(f, "\"/>\n");
			continue;
		}
		swp_verdict(r, verdict);
		fprintf(f, "\"><failure message=\"%s%s%s: see ", swp_status_word(r->status, true),
			verdict[0] ? ", assertions held " : "", verdict);
		cli_xml_escape(f, r->dir);
		fprintf(f, "/fabemu.log\"/></testcase>\n");
	}
	fprintf(f, "</testsuite>\n");
	if ((ferror(f) | fclose(f)) != 0) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", o->junit, strerror(errno));
		return -EIO;
	}
	return 0;
}

static void swp_plan_free(struct swp_plan *p)
{
	for (unsigned k = 0; k < p->n_axes; k++) {
		free(p->axes[k].key);
		for (unsigned v = 0; v < p->axes[k].n_values; v++)
			free(p->axes[k].values[v]);
	}
	for (unsigned f = 0; f < CLI_MAX_EXPS; f++)
		free(p->bases[f]);
	for (unsigned i = 0; p->runs && i < p->n_runs; i++) {
		free(p->runs[i].dir);
		cfg_doc_free(p->runs[i].doc);
	}
	free(p->runs);
	free(p);
}

/* cli.h */
int cli_sweep(const struct cli_opts *o, bool check)
{
	char msg[CFG_ERR_BYTES], path[SWP_PATH_BYTES + 32];
	struct swp_plan *p = calloc(1, sizeof(*p));
	int locks[CLI_MAX_EXPS], rc = CLI_OK, r;
	unsigned n_locks = 0;

	if (!p) {
		fprintf(stderr, "fabemu: out of memory\n");
		return CLI_FAIL;
	}
	msg[0] = '\0';
	if ((r = swp_plan(o, check, p, msg)) != 0) {
		if (msg[0])
			fprintf(stderr, "%s\n", msg);
		else if (r == -ENOMEM)
			fprintf(stderr, "fabemu: out of memory\n");
		swp_plan_free(p);
		return r == -EINVAL || r == -ENOMEM ? (r == -EINVAL ? CLI_BAD_INPUT : CLI_FAIL) : CLI_FAIL;
	}
	/* The folders: each file's (held for the sweep, its old tables
	 * removed), then each run's. */
	for (unsigned f = 0; p->multi && f < o->n_exps; f++) {
		int fd;

		if ((r = cli_mkdirs(p->bases[f])) != 0) {
			fprintf(stderr, "fabemu: %.400s: cannot create results folder: %s\n", p->bases[f],
				r == -ENOTDIR ? "it, or a folder above it, exists and is not a folder"
					      : strerror(-r));
			rc = CLI_BAD_INPUT;
			goto out;
		}
		snprintf(path, sizeof(path), "%s/.fabemu.lock", p->bases[f]);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
			fprintf(stderr, "fabemu: %.400s: in use by another fabemu run (or cannot be locked): "
					"use another -o folder or wait\n", p->bases[f]);
			if (fd >= 0)
				close(fd);
			rc = CLI_BAD_INPUT;
			goto out;
		}
		locks[n_locks++] = fd;
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
			rc = CLI_BAD_INPUT;
			goto out;
		}
	}
	swp_run_all(o, check, p, o->jobs ? o->jobs : 1, o->quiet);
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
	if (check) {
		unsigned n_ok = 0;

		for (unsigned i = 0; i < p->n_runs; i++)
			n_ok += p->runs[i].status == 0;
		printf("%u of %u runs passed\n", n_ok, p->n_runs);
	}
	if (swp_stop_sig && rc == CLI_OK)
		rc = CLI_FAIL;
	if (check && o->junit && swp_junit(o, p) != 0)
		rc = CLI_FAIL;
	for (unsigned i = 0; i < p->n_runs; i++)
		if (p->runs[i].status != 0 && p->runs[i].status != SWP_NOT_RUN)
			fprintf(stderr, "fabemu: %s: %s (see %s/fabemu.log)\n", p->runs[i].dir,
				swp_status_word(p->runs[i].status, check), p->runs[i].dir);
out:
	for (unsigned i = 0; i < n_locks; i++)
		close(locks[i]);
	swp_plan_free(p);
	return rc;
}
