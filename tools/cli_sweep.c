/* Several runs of `fabemu run|check`: several experiment files, and for
 * --sweep (the cartesian product of --set values) and --seeds every point
 * and seed. Each run is a child process, `fabemu run|check` of its own into
 * its own folder (so it is byte-identical to that command run alone), up
 * to -j at a time; then sweep.csv (one row per run) and sweep_summary.csv
 * (mean and Student-t 95% interval over the seeds). Layout and formulas:
 * docs/results.md, "Sweeps". */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cfg.h"
#include "cli.h"
#include "cli_mpi.h"
#include "cli_sweep.h"
#include "exp.h"

/* The metrics sweep.csv gets without --metric (docs/results.md). */
static const char *const swp_default_metrics[] = {
	"messages.incomplete", "drops.total", "goodput_gbps", "flows.fct_ns.p99", "flows.slowdown.p99",
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
		/* Counted, not compared: x <= b never fails at b = 2^64 - 1. */
		for (uint64_t i = 0; i <= b - a; i++)
			p->seeds[p->n_seeds++] = a + i;
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

/* The labels of @a's values: a value LABEL:VALUE, LABEL a letter then
 * letters, digits and _ . + - (a folder name as it stands), is VALUE
 * named LABEL in folder names (a value that is itself NAME:TEXT, a port
 * such as leaf0:1, is quoted). Two values of one folder name, or one
 * value twice, are refused. 0, -EINVAL (@msg) or -ENOMEM. */
static int swp_labels(struct swp_axis *a, const char *opt, char msg[CFG_ERR_BYTES])
{
	for (unsigned i = 0; i < a->n_values; i++) {
		char *v = a->values[i];
		size_t n = strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789_.+-");

		if (!((v[0] >= 'a' && v[0] <= 'z') || (v[0] >= 'A' && v[0] <= 'Z')) || v[n] != ':')
			continue;
		if (!v[n + 1])
			return swp_bad(msg, "fabemu: --sweep '%s': label '%.*s' has no value after ':'",
				       opt, (int)n, v);
		if (!(a->labels[i] = strndup(v, n)))
			return -ENOMEM;
		memmove(v, v + n + 1, strlen(v + n + 1) + 1);
	}
	for (unsigned i = 0; i < a->n_values; i++)
		for (unsigned j = 0; j < i; j++) {
			const char *x = a->labels[i] ? a->labels[i] : a->values[i];
			const char *y = a->labels[j] ? a->labels[j] : a->values[j];

			if (!strcmp(x, y) || !strcmp(a->values[i], a->values[j]))
				return swp_bad(msg, "fabemu: --sweep '%s': %s '%s' given twice", opt,
					       strcmp(x, y) ? "value" : "label or value",
					       strcmp(x, y) ? a->values[i] : x);
		}
	return 0;
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
	return r ? r : swp_labels(a, s, msg);
}

/* The value index of axis @k in combination @combo (the last axis fastest). */
unsigned swp_value_of(const struct swp_plan *p, unsigned combo, unsigned k)
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
 * and value (or the value's label) escaped (a value's own comma is %2C);
 * -ENAMETOOLONG beyond a file name's 255 bytes. */
int swp_combo_name(const struct swp_plan *p, unsigned combo, char out[SWP_PATH_BYTES])
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
		unsigned v = swp_value_of(p, combo, k);

		swp_escape(out, SWP_PATH_BYTES, &len, a->labels[v] ? a->labels[v] : a->values[v]);
	}
	return len > SWP_NAME_MAX_BYTES ? -ENAMETOOLONG : 0;
}


/* The --set list of a run: the command line's, then one per axis
 * (malloc'd: freed with swp_sets_free from index @o->sim.n_sets). */
static int swp_sets(const struct cli_run_opts *o, const struct swp_plan *p, unsigned combo,
		    const char *sets[CLI_MAX_SETS])
{
	for (unsigned i = 0; i < o->sim.n_sets; i++)
		sets[i] = o->sim.sets[i];
	for (unsigned k = 0; k < p->n_axes; k++) {
		const struct swp_axis *a = &p->axes[k];
		const char *v = a->values[swp_value_of(p, combo, k)];
		size_t len = strlen(a->key) + strlen(v) + 2;
		char *s = malloc(len);

		if (!s)
			return -ENOMEM;
		snprintf(s, len, "%s=%s", a->key, v);
		sets[o->sim.n_sets + k] = s;
	}
	return 0;
}

static void swp_sets_free(const struct cli_run_opts *o, const struct swp_plan *p, const char **sets)
{
	for (unsigned k = 0; k < p->n_axes; k++)
		free((char *)sets[o->sim.n_sets + k]);
}

/* cli_sweep.h */
int swp_load(const struct cli_run_opts *o, const struct swp_plan *p, unsigned file,
		    unsigned combo, const char *sets[CLI_MAX_SETS], struct exp **e,
		    char err[CFG_ERR_BYTES])
{
	int r = swp_sets(o, p, combo, sets);

	if (r == 0)
		r = exp_load(o->exps[file], sets, o->sim.n_sets + p->n_axes, o->sim.seed_set || p->n_seeds,
			     p->n_seeds ? p->seeds[0] : o->sim.seed, e, err);
	swp_sets_free(o, p, sets);
	return r;
}

/* Fork a process of its own that checks the metrics of file @file (the
 * EAL starts once per process); its exit status as CLI_*. */
static int swp_check_metrics(const struct cli_run_opts *o, const struct swp_plan *p, unsigned file,
			     bool check)
{
	const char *sets[CLI_MAX_SETS] = { 0 };
	struct cli_run_opts vo = *o;
	int st;
	pid_t pid;

	if (swp_sets(o, p, 0, sets) != 0) {
		swp_sets_free(o, p, sets);
		return CLI_FAIL;
	}
	if (p->n_seeds) {
		vo.sim.seed_set = true;
		vo.sim.seed = p->seeds[0];
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0)
		_exit(cli_metrics_exist(&vo, o->exps[file], sets, o->sim.n_sets + p->n_axes, p->metrics,
					p->n_metrics, check));
	swp_sets_free(o, p, sets);
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		fprintf(stderr, "fabemu: cannot start a process: %s\n", strerror(errno));
		return CLI_FAIL;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : CLI_FAIL;
}

/* Every file of @o loaded under every combination of @p (each refusal
 * said in @msg), each file's folder into @p->bases. 0 or -errno. */
static int swp_plan_files(const struct cli_run_opts *o, struct swp_plan *p, char msg[CFG_ERR_BYTES])
{
	char err[CFG_ERR_BYTES], name[SWP_PATH_BYTES];
	const char *names[CLI_MAX_EXPS];
	int r;

	p->point_seeds = calloc((size_t)o->n_exps * p->n_combos, sizeof(*p->point_seeds));
	if (!p->point_seeds)
		return -ENOMEM;
	for (unsigned f = 0; f < o->n_exps; f++) {
		for (unsigned c = 0; c < p->n_combos; c++) {
			const char *sets[CLI_MAX_SETS] = { 0 };
			struct exp *e = NULL;

			r = swp_load(o, p, f, c, sets, &e, err);
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
					       err, name, o->sim.n_sets + 1, o->sim.n_sets + p->n_axes);
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
				if (!(p->bases[f] = strdup(name)) || !(p->names[f] = strdup(e->name))) {
					exp_free(e);
					return -ENOMEM;
				}
				names[f] = p->bases[f];
			}
			p->point_seeds[(size_t)f * p->n_combos + c] = e->seed;
			exp_free(e);
		}
		for (unsigned g = 0; g < f; g++)
			if (!strcmp(names[g], names[f]))
				return swp_bad(msg, "fabemu: %s and %s would both write %s (two experiments "
						    "of one name)", o->exps[g], o->exps[f], names[f]);
	}
	return 0;
}

/* The runs of @p (@per_file for each file of @o), each file's in order:
 * combination, then seed, each with its folder. 0 or -ENOMEM. */
static int swp_plan_runs(const struct cli_run_opts *o, struct swp_plan *p, unsigned per_file)
{
	char name[SWP_PATH_BYTES];

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
				run->seed = p->n_seeds ? p->seeds[s]
						       : p->point_seeds[(size_t)f * p->n_combos + c];
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
	return 0;
}

/* Parse and check everything, write nothing: the axes, seeds, metrics,
 * every file under every combination (through exp_load: unknown keys and
 * bad values as --set reports them), the folders' names, then the metrics
 * on a built fabric. 0, or -errno with @msg filled (empty when the
 * message was printed already, by the metrics check). */
static int swp_plan(const struct cli_run_opts *o, bool check, struct swp_plan *p, char msg[CFG_ERR_BYTES])
{
	char name[SWP_PATH_BYTES];
	unsigned per_file;
	int r;

	p->multi = o->n_sweeps || o->seeds;
	if (o->n_metric_names && !p->multi)
		return swp_bad(msg, "fabemu: --metric names sweep.csv's columns: it needs --sweep or --seeds");
	if (o->seeds && o->sim.seed_set)
		return swp_bad(msg, "fabemu: --seed and --seeds: give one of them");
	if (o->sim.n_sets + o->n_sweeps > CLI_MAX_SETS)
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
	if ((r = swp_plan_files(o, p, msg)) != 0)
		return r;
	for (unsigned c = 0; c < p->n_combos; c++)
		if (swp_combo_name(p, c, name) != 0)
			return swp_bad(msg, "fabemu: --sweep: the folder name '%.200s...' is longer than "
					    "%d bytes: sweep fewer or shorter keys", name, SWP_NAME_MAX_BYTES);
	if (o->junit && (r = cli_junit_probe(o->junit)) != 0)
		return swp_bad(msg, "fabemu: %s: cannot write the JUnit report: %s", o->junit, strerror(-r));
	if ((r = swp_plan_runs(o, p, per_file)) != 0)
		return r;
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
 * a terminal's SIGINT or SIGHUP reaches them itself) and the tables are
 * written. SIGPIPE and SIGXFSZ are ignored while the sweep goes: a
 * write they would have ended fails, and is reported as such. */
static volatile sig_atomic_t swp_stop_sig;

static void swp_on_signal(int sig)
{
	swp_stop_sig = sig;
}

/* Start run @r: `fabemu run|check FILE -o DIR -q [--seed N] [--set ...]
 * [--max-wall T] [--threads N] [--partitions N] [--baseline B] [--junit PART] [-- EAL args]`, its stdout
 * and stderr into DIR/fabemu.log; a check's own JUnit report (PART, in
 * p->junit_dir) named by its point (SWP_POINT_ENV). 0 or -errno. */
static int swp_spawn(const struct cli_run_opts *o, bool check, const struct swp_plan *p,
		     struct swp_run *r)
{
	const char *sets[CLI_MAX_SETS] = { 0 };
	char log[SWP_PATH_BYTES + 16], seed[32], part[SWP_PATH_BYTES + 32], threads[16];
	char parts[16];
	char point[SWP_PATH_BYTES], point_seed[32];
	const char **argv;
	int n = 0, fd, rc = 0;

	argv = calloc((size_t)(24 + 2 * CLI_MAX_SETS + o->sim.eal_argc), sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	if ((rc = swp_sets(o, p, r->combo, sets)) != 0)
		goto out;
	argv[n++] = "fabemu";
	argv[n++] = check ? "check" : "run";
	argv[n++] = o->exps[r->file];
	argv[n++] = "-o";
	argv[n++] = r->wdir ? r->wdir : r->dir;
	argv[n++] = "-q";
	if (p->n_seeds || o->sim.seed_set) {
		snprintf(seed, sizeof(seed), "%llu",
			 (unsigned long long)(p->n_seeds ? p->seeds[r->seed_i] : o->sim.seed));
		argv[n++] = "--seed";
		argv[n++] = seed;
	}
	for (unsigned i = 0; i < o->sim.n_sets + p->n_axes; i++) {
		argv[n++] = "--set";
		argv[n++] = sets[i];
	}
	if (o->max_wall) {
		argv[n++] = "--max-wall";
		argv[n++] = o->max_wall;
	}
	if (o->sim.threads) {
		snprintf(threads, sizeof(threads), "%u", o->sim.threads);
		argv[n++] = "--threads";
		argv[n++] = threads;
	} else if (o->sim.threads_auto) {
		argv[n++] = "--threads";
		argv[n++] = "auto";
	} else if ((o->jobs > 1 || cli_mpi_world().size > 1) && !getenv("FABEMU_THREADS")) {
		/* Runs side by side share the cores: one thread each, not the
		 * cores each (auto, run's default). */
		argv[n++] = "--threads";
		argv[n++] = "1";
	}
	if (o->sim.partitions) {
		snprintf(parts, sizeof(parts), "%u", o->sim.partitions);
		argv[n++] = "--partitions";
		argv[n++] = parts;
	}
	if (check && o->baseline) {
		argv[n++] = "--baseline";
		argv[n++] = o->baseline;
	}
	if (check && p->junit_dir[0]) {
		snprintf(part, sizeof(part), "%s/%u.xml", p->junit_dir, (unsigned)(r - p->runs));
		argv[n++] = "--junit";
		argv[n++] = part;
	}
	snprintf(point_seed, sizeof(point_seed), "%llu", (unsigned long long)r->seed);
	swp_point_label(p, r->combo, point_seed, point, sizeof(point));
	if (o->sim.eal_argc) {
		argv[n++] = "--";
		for (int i = 0; i < o->sim.eal_argc; i++)
			argv[n++] = o->sim.eal_argv[i];
	}
	snprintf(log, sizeof(log), "%s/fabemu.log", r->wdir ? r->wdir : r->dir);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		rc = -errno;
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", log, strerror(errno));
		goto out;
	}
	fflush(stdout);
	fflush(stderr);
	r->pid = fork();
	if (r->pid == 0) {
		if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    setenv(CLI_MPI_CHILD_ENV, "1", 1) != 0)
			_exit(CLI_FAIL);
		if (check && (setenv(SWP_RUN_ENV, "1", 1) != 0 || setenv(SWP_POINT_ENV, point, 1) != 0 ||
			      setenv(SWP_FOLDER_ENV, swp_shown(o, p, r), 1) != 0))
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
static void swp_run_all(const struct cli_run_opts *o, bool check, struct swp_plan *p, unsigned jobs,
			bool quiet)
{
	struct sigaction sa = { .sa_handler = swp_on_signal }, ign = { .sa_handler = SIG_IGN };
	struct sigaction old_int, old_term, old_hup;
	unsigned next = 0, running = 0, done = 0, mine = 0;
	bool passed_on = false;

	for (unsigned i = 0; i < p->n_runs; i++)
		mine += !p->runs[i].away;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	swp_stop_sig = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	/* Kept ignored for the tables written after the runs. Each run sets
	 * its own handlers for both (cli_run). */
	sigaction(SIGPIPE, &ign, NULL);
	sigaction(SIGXFSZ, &ign, NULL);
	while (next < p->n_runs || running) {
		int st;
		pid_t pid;

		while (!swp_stop_sig && running < jobs && next < p->n_runs) {
			struct swp_run *r = &p->runs[next++];

			if (r->away)
				continue;
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
		if (pid < 0 && errno != EINTR) {
			/* No child left to wait for (none should be): the rest
			 * count as not run rather than waited on for ever. */
			fprintf(stderr, "fabemu: waiting for the runs: %s\n", strerror(errno));
			break;
		}
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
				printf("[%u/%u] %s: %s\n", done, mine, r->dir,
				       swp_status_word(r->status, check));
			fflush(stdout);
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
}


static void swp_plan_free(struct swp_plan *p)
{
	for (unsigned k = 0; k < p->n_axes; k++) {
		free(p->axes[k].key);
		for (unsigned v = 0; v < p->axes[k].n_values; v++) {
			free(p->axes[k].values[v]);
			free(p->axes[k].labels[v]);
		}
	}
	for (unsigned f = 0; f < CLI_MAX_EXPS; f++) {
		free(p->bases[f]);
		free(p->names[f]);
	}
	free(p->point_seeds);
	for (unsigned i = 0; p->runs && i < p->n_runs; i++) {
		free(p->runs[i].dir);
		free(p->runs[i].wdir);
		cfg_doc_free(p->runs[i].doc);
	}
	free(p->runs);
	free(p->verdicts);
	free(p);
}

/* Bad input found by the plan (@msg): for check --junit, the report of
 * one error case, as a single check writes (unless the report itself
 * cannot be written). With @msg empty the metrics check said it, and
 * wrote that report itself. */
static void swp_junit_refused(const struct cli_run_opts *o, const char *msg)
{
	if (msg[0] && o->junit && cli_junit_probe(o->junit) == 0)
		cli_junit_error(o->junit, o->exps[0], "bad_input", msg);
}

/* cli.h */
int cli_sweep(const struct cli_run_opts *o, bool check)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	char msg[CFG_ERR_BYTES];
	struct swp_plan *p = calloc(1, sizeof(*p));
	struct cli_mpi w = cli_mpi_world();
	char work[SWP_PATH_BYTES] = "";
	int locks[CLI_MAX_EXPS], rc, r, quiet;
	unsigned n_locks = 0;

	if (!p) {
		fprintf(stderr, "fabemu: out of memory\n");
		return CLI_FAIL;
	}
	/* The runs are waited for: a SIGCHLD inherited as ignored (as some CI
	 * runners and container inits leave it) would have the kernel reap
	 * them unseen and every wait fail. */
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &old_chld);
	msg[0] = '\0';
	quiet = cli_mpi_quiet(); /* every process plans alike: process 0 says it */
	r = swp_plan(o, check, p, msg);
	cli_mpi_loud(quiet);
	if (r != 0) {
		if (msg[0] && w.rank == 0) /* every MPI process planned the same */
			fprintf(stderr, "%s\n", msg);
		else if (r == -ENOMEM)
			fprintf(stderr, "fabemu: out of memory\n");
		if (check && r == -EINVAL && w.rank == 0)
			swp_junit_refused(o, msg);
		rc = r == -EINVAL ? CLI_BAD_INPUT : CLI_FAIL;
		goto out;
	}
	/* Under MPI, a process but 0 runs its share in a private folder. */
	rc = CLI_OK;
	if (w.size > 1 && (r = cli_mpi_sweep_share(p, check && o->junit, work, sizeof(work))) != 0) {
		fprintf(stderr, "fabemu: MPI process %d: cannot make its folder: %s\n", w.rank,
			strerror(-r));
		rc = CLI_FAIL;
	}
	if (rc == CLI_OK && w.rank == 0)
		rc = swp_folders(p, o->n_exps, locks, &n_locks);
	/* Each run's check writes its own report beside the sweep's; the
	 * sweep gathers them into one. */
	if (rc == CLI_OK && w.rank == 0 && check && o->junit) {
		snprintf(p->junit_dir, sizeof(p->junit_dir), "%.*s.runs.XXXXXX", SWP_PATH_BYTES - 16,
			 o->junit);
		if (!mkdtemp(p->junit_dir)) {
			fprintf(stderr, "fabemu: %s: cannot write: %s\n", p->junit_dir, strerror(errno));
			p->junit_dir[0] = '\0';
			rc = CLI_FAIL;
		}
	}
	/* Under MPI, no process starts a run unless every one is ready. */
	if ((rc = cli_mpi_agree(rc)) != CLI_OK)
		goto out;
	swp_run_all(o, check, p, o->jobs ? o->jobs : 1, o->quiet);
	r = cli_mpi_sweep_gather(p);
	rc = w.rank > 0 ? r : swp_finish(o, check, p, swp_stop_sig != 0);
	if (rc == CLI_OK && r != CLI_OK)
		rc = r;
out:
	if (work[0])
		cli_mpi_rmtree(work);
	for (unsigned i = 0; i < n_locks; i++)
		close(locks[i]);
	swp_junit_cleanup(p);
	swp_plan_free(p);
	sigaction(SIGCHLD, &old_chld, NULL);
	return rc;
}
