/* `fabemu run` and `fabemu check`: load, build, run, write results, and for
 * check evaluate the experiment's expect: assertions. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_mempool.h>

#include "cli.h"
#include "fab_version.h"
#include "fabric.h"
#include "results.h"

/* mkdir -p (cli.h) */
int cli_mkdirs(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -errno;
	/* EEXIST also for a file of that name: it is no folder to write in. */
	{
		struct stat st;

		if (stat(buf, &st) != 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	return 0;
}

/* Whether @name is one a capture of fabemu's takes: NODE-pPORT.pcap, or
 * capture.pcapng, hosts and ethers. */
static bool cli_capture_name(const char *name)
{
	size_t n = strlen(name), i;

	if (!strcmp(name, "capture.pcapng") || !strcmp(name, "hosts") || !strcmp(name, "ethers"))
		return true;

	if (n < 8 || strcmp(name + n - 5, ".pcap"))
		return false;
	i = n - 5;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	return i < n - 5 && i >= 3 && name[i - 1] == 'p' && name[i - 2] == '-';
}

/* Remove what an earlier run left in @dir, so that no stale table or
 * capture sits beside fresh results: only the names fabemu writes, and
 * nothing outside @dir. */
static void cli_clean(const char *dir)
{
	static const char *const files[] = { "summary.json", "flows.csv", "fct_bins.csv",
					     "collectives.csv", "training.csv", "faults.csv", "ports.csv", "pfc.csv", "pfc_log.csv",
					     "series.csv", "rates.csv", "resolved.yaml",
					     "overrides.txt" };
	char path[4200 + sizeof(((struct dirent *)0)->d_name)]; /* the folder, capture/, a name */
	struct dirent *de;
	DIR *d;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/capture", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (cli_capture_name(de->d_name)) {
			snprintf(path, sizeof(path), "%s/capture/%s", dir, de->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

/* resolved.yaml (the experiment that runs, reproducible without
 * overrides) and overrides.txt (the overrides as given). */
static int cli_write_resolved(const struct exp *e, const char *dir, char err[CFG_ERR_BYTES])
{
	char path[4200];
	int r;

	snprintf(path, sizeof(path), "%s/resolved.yaml", dir);
	if ((r = exp_write_resolved(e, path, err)) != 0)
		return r;
	snprintf(path, sizeof(path), "%s/overrides.txt", dir);
	return exp_write_overrides(e, path, err);
}

/* The one variable outside a run's structures: what a signal handler may
 * touch. The signal that asked the run to stop (SIGINT, SIGTERM, or
 * SIGALRM for --max-wall), 0 while none did; the simulation polls it
 * through sim.interrupt. */
static volatile sig_atomic_t cli_stop_sig;

static void cli_on_signal(int sig)
{
	cli_stop_sig = sig;
}

/* SIGINT and SIGTERM stop the run at an event boundary; the handler is
 * reset on delivery, so a second one ends the process as usual; system
 * calls it interrupts restart (a file read or written on set-up). With
 * --max-wall, a one-shot timer raises SIGALRM after that wall-clock time. */
static int cli_arm_stop(const struct cli_opts *o)
{
	struct sigaction sa = { .sa_handler = cli_on_signal, .sa_flags = SA_RESETHAND | SA_RESTART };

	sigemptyset(&sa.sa_mask);
	cli_stop_sig = 0;
	if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
		return -errno;
	if (o->max_wall_ps) {
		uint64_t us = o->max_wall_ps / 1000000 ? o->max_wall_ps / 1000000 : 1;
		struct itimerval it = { .it_value = { .tv_sec = (time_t)(us / 1000000),
						      .tv_usec = (suseconds_t)(us % 1000000) } };

		if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &it, NULL) != 0)
			return -errno;
	}
	return 0;
}

/* Back to the default handlers (the results are being written). */
static void cli_disarm_stop(void)
{
	struct itimerval off = { 0 };

	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_DFL);
}

/* What stopped the run, for invalid_reasons, or NULL. */
static const char *cli_stop_why(const struct cli_opts *o, char buf[64])
{
	switch (cli_stop_sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGALRM:
		snprintf(buf, 64, "--max-wall %.40s", o->max_wall ? o->max_wall : "");
		return buf;
	}
	return NULL;
}

/* Hold @dir for this run: an exclusive flock(2) on DIR/.fabemu.lock, kept
 * open (and locked) until the process ends. -EBUSY when another run holds
 * it; the file itself stays (removing it would race with a run that just
 * opened it). */
static int cli_lock(const char *dir, int *fd_out)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/.fabemu.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;

		close(fd);
		return e == EWOULDBLOCK ? -EBUSY : -e;
	}
	*fd_out = fd;
	return 0;
}

/* cli.h */
int cli_junit_probe(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

	if (fd >= 0) {
		close(fd);
		unlink(path);
		return 0;
	}
	if (errno != EEXIST)
		return -errno;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The bound of assertion @a and its slack: its value; value x the
 * measured value of its `of` metric; or its metric in the baseline's
 * summary @base (names and numbers checked before the run). */
static void cli_expect_bound(const struct exp_expect *a, const struct results *r,
			     const struct cfg_doc *base, double *bound, double *tol)
{
	*bound = a->value;
	*tol = a->tolerance;
	if (a->of[0])
		*bound = a->value * res_value(res_find(r, a->of));
	else if (a->baseline)
		cli_summary_number(base, a->metric, bound);
	if (a->of[0] || a->baseline)
		*tol = a->tol_frac * fabs(*bound);
}

static bool cli_expect_holds(const struct exp_expect *a, double m, double v, double t)
{
	if (isnan(m) || isnan(v))
		return false;
	switch (a->op) {
	case EXP_OP_LT: return m < v + t;
	case EXP_OP_LE: return m <= v + t;
	case EXP_OP_EQ: return fabs(m - v) <= t;
	case EXP_OP_NE: return fabs(m - v) > t;
	case EXP_OP_GE: return m >= v - t;
	case EXP_OP_GT: return m > v - t;
	}
	return false;
}

/* cli.h */
void cli_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* A JUnit report for a check that could not be done: one test case with
 * an error of @type (bad_input, write, ...) whose message is @msg, so that
 * CI shows why. Complains on stderr when it cannot be written. */
static void cli_junit_error(const char *path, const char *suite, const char *type, const char *msg)
{
	FILE *jf;

	if (!path)
		return;
	if (!(jf = fopen(path, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", path, strerror(errno));
		return;
	}
	fprintf(jf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"");
	cli_xml_escape(jf, suite);
	fprintf(jf, "\" tests=\"1\" failures=\"0\" errors=\"1\">\n  <testcase classname=\"");
	cli_xml_escape(jf, suite);
	fprintf(jf, "\" name=\"fabemu check\"><error type=\"");
	cli_xml_escape(jf, type);
	fprintf(jf, "\" message=\"");
	cli_xml_escape(jf, msg);
	fprintf(jf, "\"/></testcase>\n</testsuite>\n");
	if ((ferror(jf) | fclose(jf)) != 0)
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", path, strerror(errno));
}

/* Every expect: metric must be a name of @r (the metrics of the fabric,
 * run or not: the names do not depend on the run). 0, or -EINVAL with
 * "FILE:LINE:COL: unknown metric ..." in @msg. */
static int cli_expect_names(const struct exp *e, const struct results *r, char msg[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < e->n_expects; i++) {
		const char *names[1024];
		const char *near;
		uint32_t n = 0;

		if (e->expects[i].series >= 0 || (res_find(r, e->expects[i].metric) &&
						   (!e->expects[i].of[0] || res_find(r, e->expects[i].of))))
			continue;
		for (uint32_t j = 0; j < r->n && n < 1023; j++)
			names[n++] = r->m[j].name;
		names[n] = NULL;
		{
			const char *bad = res_find(r, e->expects[i].metric) ? e->expects[i].of
									    : e->expects[i].metric;

			near = cfg_nearest(bad, names);
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: unknown metric '%s'%s%s%s (see docs/results.md)",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col,
				 bad, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		}
		return -EINVAL;
	}
	return 0;
}

/* The JUnit suite's head: name, counts, the run's wall-clock time and a
 * timestamp (the report is not a result file: neither is in the digest),
 * and as properties what makes the run reproducible: the experiment file,
 * the seed, fabemu's version and commit. */
static void cli_junit_head(FILE *jf, const struct exp *e, const struct results *r, uint32_t n_fail)
{
	const struct res_metric *setup = res_find(r, "wall_clock.setup_s");
	const struct res_metric *run = res_find(r, "wall_clock.run_s");
	double wall = (setup ? res_value(setup) : 0) + (run ? res_value(run) : 0);
	char stamp[32] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(jf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"");
	cli_xml_escape(jf, e->name);
	fprintf(jf, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"%.3f\" timestamp=\"%s\">\n",
		e->n_expects + !r->valid, n_fail, wall == wall ? wall : 0.0, stamp);
	fprintf(jf, "  <properties>\n    <property name=\"experiment\" value=\"");
	cli_xml_escape(jf, e->path ? e->path : "");
	fprintf(jf, "\"/>\n    <property name=\"seed\" value=\"%llu\"/>\n", (unsigned long long)e->seed);
	fprintf(jf, "    <property name=\"fabemu_version\" value=\"");
	cli_xml_escape(jf, FAB_VERSION);
	fprintf(jf, "\"/>\n    <property name=\"commit\" value=\"");
	cli_xml_escape(jf, FAB_COMMIT);
	fprintf(jf, "\"/>\n    <property name=\"valid\" value=\"%s\"/>\n  </properties>\n",
		r->valid ? "true" : "false");
}

/* A series assertion's measured value: over the samples of its port in
 * [after, before] of series.csv in @dir, the one that decides (the
 * largest for < and <=, the smallest for > and >=, the farthest from the
 * bound for ==, the nearest for !=); NaN when there is none. */
static double cli_series_worst(const struct exp *e, const struct exp_expect *a, double bound,
			       const char *dir)
{
	char path[4200], line[512], want[160];
	double worst = NAN;
	FILE *f;

	snprintf(path, sizeof(path), "%s/series.csv", dir);
	snprintf(want, sizeof(want), "%s:%u", e->topo->nodes[a->port.node].name, a->port.port);
	if (!(f = fopen(path, "r")))
		return NAN;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok = strtok_r(line, ",\n", &save);
		double t_ns, x = NAN;
		bool pick;

		if (!tok || !strcmp(tok, "time_ns"))
			continue;
		t_ns = strtod(tok, NULL);
		if (!(tok = strtok_r(NULL, ",\n", &save)) || strcmp(tok, want) != 0)
			continue;
		for (int c = 0; c <= a->series && (tok = strtok_r(NULL, ",\n", &save)); c++)
			if (c == a->series)
				x = strtod(tok, NULL);
		if (isnan(x) || t_ns * 1e3 < (double)a->after_ps ||
		    (a->before_ps && t_ns * 1e3 > (double)a->before_ps))
			continue;
		switch (a->op) {
		case EXP_OP_LT:
		case EXP_OP_LE: pick = !(x <= worst); break;
		case EXP_OP_GT:
		case EXP_OP_GE: pick = !(x >= worst); break;
		case EXP_OP_EQ: pick = !(fabs(x - bound) <= fabs(worst - bound)); break;
		default: pick = !(fabs(x - bound) >= fabs(worst - bound)); break;
		}
		if (pick)
			worst = x;
	}
	fclose(f);
	return worst;
}

/* The baseline the assertions with `baseline:` need: --baseline's
 * summary.json (of this schema version) into *@base, and in it a number
 * for each such metric. 0, or -EINVAL with the message in @msg (no such
 * folder, another schema, a metric it lacks, or no --baseline at all). */
static int cli_expect_baseline(const struct cli_opts *o, const struct exp *e, struct cfg_doc **base,
			       char msg[CFG_ERR_BYTES])
{
	bool need = false;

	for (uint32_t i = 0; i < e->n_expects; i++)
		need = need || e->expects[i].baseline;
	*base = NULL;
	if (!need)
		return 0;
	for (uint32_t i = 0; !o->baseline && i < e->n_expects; i++)
		if (e->expects[i].baseline) {
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: an assertion against the baseline needs --baseline DIR (a results folder)",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col);
			return -EINVAL;
		}
	if (cli_summary_load(o->baseline, base, msg) != 0) {
		char why[CFG_ERR_BYTES];

		snprintf(why, sizeof(why), "%s", msg);
		snprintf(msg, CFG_ERR_BYTES, "--baseline: %.480s", why);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < e->n_expects; i++) {
		double x;

		if (e->expects[i].baseline && cli_summary_number(*base, e->expects[i].metric, &x) != 0) {
			snprintf(msg, CFG_ERR_BYTES, "%s:%u:%u: the baseline %.200s/summary.json has no number '%.95s'",
				 e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col,
				 o->baseline, e->expects[i].metric);
			cfg_doc_free(*base);
			*base = NULL;
			return -EINVAL;
		}
	}
	return 0;
}

/* Evaluate all assertions (their names were checked before the run); a
 * run whose results are not valid fails whatever they say. */
static int cli_check(const struct exp *e, const struct results *r, const struct cfg_doc *base,
		     const char *dir, const char *junit)
{
	uint32_t failed = 0, n_fail = !r->valid;
	FILE *jf = NULL;

	if (junit && !(jf = fopen(junit, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", junit, strerror(errno));
		return CLI_BAD_INPUT;
	}
	if (jf) {
		for (uint32_t i = 0; i < e->n_expects; i++) {
			double v, t;

			cli_expect_bound(&e->expects[i], r, base, &v, &t);
			n_fail += !cli_expect_holds(&e->expects[i],
						    e->expects[i].series >= 0
							    ? cli_series_worst(e, &e->expects[i], v, dir)
							    : res_value(res_find(r, e->expects[i].metric)),
						    v, t);
		}
		cli_junit_head(jf, e, r, n_fail);
	}
	for (uint32_t i = 0; i < e->n_expects; i++) {
		const struct exp_expect *a = &e->expects[i];
		double m, v, t;
		bool ok;
		char line[512], how[160] = "";

		cli_expect_bound(a, r, base, &v, &t);
		m = a->series >= 0 ? cli_series_worst(e, a, v, dir) : res_value(res_find(r, a->metric));
		ok = cli_expect_holds(a, m, v, t);
		if (a->of[0])
			snprintf(how, sizeof(how), " (%.6g x %s)", a->value, a->of);
		else if (a->baseline)
			snprintf(how, sizeof(how), " (the baseline's)");
		else if (a->series >= 0 && a->before_ps)
			snprintf(how, sizeof(how), " (every sample from %.6g to %.6g us)",
				 (double)a->after_ps / 1e6, (double)a->before_ps / 1e6);
		else if (a->series >= 0)
			snprintf(how, sizeof(how), " (every sample from %.6g us)", (double)a->after_ps / 1e6);
		snprintf(line, sizeof(line), "%s %s %s %.10g%s measured %.10g", ok ? "PASS" : "FAIL",
			 a->metric, exp_op_name(a->op), v, how, m);
		if (a->series >= 0 && isnan(m))
			snprintf(line, sizeof(line), "FAIL %s %s %.10g%s: no sample there", a->metric,
				 exp_op_name(a->op), v, how);
		if (t > 0)
			snprintf(line, sizeof(line), "%s %s %s %.10g%s (tolerance %.6g) measured %.10g",
				 ok ? "PASS" : "FAIL", a->metric, exp_op_name(a->op), v, how, t, m);
		printf("%s\n", line);
		failed += !ok;
		if (jf) {
			fprintf(jf, "  <testcase classname=\"");
			cli_xml_escape(jf, e->name);
			fprintf(jf, "\" name=\"");
			cli_xml_escape(jf, a->metric);
			fputc(' ', jf);
			cli_xml_escape(jf, exp_op_name(a->op));
			if (a->of[0])
				fprintf(jf, " %.10g x ", a->value);
			if (a->of[0])
				cli_xml_escape(jf, a->of);
			else if (a->baseline)
				fprintf(jf, " baseline");
			else
				fprintf(jf, " %.10g", a->value);
			fprintf(jf, "\" time=\"0\">");
			if (!ok) {
				fprintf(jf, "<failure message=\"");
				cli_xml_escape(jf, line);
				fprintf(jf, "\"/>");
			}
			/* The measured value and the bound, pass or fail. */
			fprintf(jf, "<system-out>");
			cli_xml_escape(jf, line + 5);
			fprintf(jf, "</system-out></testcase>\n");
		}
	}
	if (!r->valid) {
		printf("FAIL results not valid: %s\n", r->reasons);
		if (jf) {
			fprintf(jf, "  <testcase classname=\"");
			cli_xml_escape(jf, e->name);
			fprintf(jf, "\" name=\"results valid\"><failure message=\"");
			cli_xml_escape(jf, r->reasons);
			fprintf(jf, "\"/></testcase>\n");
		}
	}
	if (jf) {
		fprintf(jf, "</testsuite>\n");
		if ((ferror(jf) | fclose(jf)) != 0) {
			fprintf(stderr, "fabemu: %s: cannot write: %s\n", junit, strerror(errno));
			return CLI_FAIL;
		}
	}
	printf("%u passed, %u failed%s\n", e->n_expects - failed, failed,
	       r->valid ? "" : "; results not valid");
	return failed || !r->valid ? CLI_FAIL : CLI_OK;
}

/* Report bad input (exit 2): @msg on stderr, and for check in the JUnit
 * report when one was asked for. */
static int cli_bad_input(const struct cli_opts *o, bool check, const char *suite, const char *type,
			 const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	if (check)
		cli_junit_error(o->junit, suite, type, msg);
	return CLI_BAD_INPUT;
}

/* A run that could not be done or written (exit 1). */
static int cli_failed(const struct cli_opts *o, bool check, const char *suite, const char *type,
		      const char *msg)
{
	fprintf(stderr, "fabemu: %s\n", msg);
	if (check)
		cli_junit_error(o->junit, suite, type, msg);
	return CLI_FAIL;
}

int cli_run(const struct cli_opts *o, bool check)
{
	char err[CFG_ERR_BYTES], msg[CFG_ERR_BYTES + 64], outdir[4096], why_buf[64];
	struct rte_mempool *pool;
	struct cfg_doc *base = NULL;
	struct results res;
	struct fabric f;
	struct exp *e;
	int rc = CLI_OK, r, lock_fd = -1;

	if (o->n_exps > 1 || o->n_sweeps || o->seeds || o->n_metric_names)
		return cli_sweep(o, check);
	if (check && o->junit && (r = cli_junit_probe(o->junit)) != 0) {
		fprintf(stderr, "fabemu: %s: cannot write the JUnit report: %s\n", o->junit,
			strerror(-r));
		return CLI_BAD_INPUT;
	}
	if (exp_load(o->exp_path, o->sets, o->n_sets, o->seed_set, o->seed, &e, err) != 0)
		return cli_bad_input(o, check, o->exp_path, "bad_input", err);
	if (strlen(o->outdir ? o->outdir : e->name) + sizeof("results/") > CLI_OUTDIR_MAX_BYTES) {
		snprintf(msg, sizeof(msg),
			 "fabemu: -o: a results folder path of %zu bytes is too long (at most %d: the "
			 "files under it must fit in PATH_MAX)",
			 strlen(o->outdir ? o->outdir : e->name), CLI_OUTDIR_MAX_BYTES - (int)sizeof("results/"));
		rc = cli_bad_input(o, check, e->name, "bad_input", msg);
		exp_free(e);
		return rc;
	}
	if (o->outdir)
		snprintf(outdir, sizeof(outdir), "%s", o->outdir);
	else
		snprintf(outdir, sizeof(outdir), "results/%s", e->name);
	if ((r = cli_mkdirs(outdir)) != 0) {
		snprintf(msg, sizeof(msg), "fabemu: %.400s: cannot create results folder: %s", outdir,
			 r == -ENOTDIR ? "it, or a folder above it, exists and is not a folder"
				       : strerror(-r));
		rc = cli_bad_input(o, check, e->name, "bad_input", msg);
		exp_free(e);
		return rc;
	}
	if ((r = cli_lock(outdir, &lock_fd)) != 0) {
		if (r == -EBUSY)
			snprintf(msg, sizeof(msg),
				 "fabemu: %.200s: in use by another fabemu run (it holds %.200s/.fabemu.lock); "
				 "nothing written there: use another -o folder or wait",
				 outdir, outdir);
		else
			snprintf(msg, sizeof(msg), "fabemu: %.400s: cannot lock the results folder: %s",
				 outdir, strerror(-r));
		rc = cli_bad_input(o, check, e->name, "folder_in_use", msg);
		exp_free(e);
		return rc;
	}
	cli_clean(outdir);
	if (cli_write_resolved(e, outdir, err) != 0) {
		rc = cli_failed(o, check, e->name, "write", err);
		exp_free(e);
		close(lock_fd);
		return rc;
	}
	e->engine.pool_pkts = fabric_pool_pkts(e);
	if (cli_arm_stop(o) != 0) {
		rc = cli_failed(o, check, e->name, "signals", "cannot install signal handlers");
		exp_free(e);
		close(lock_fd);
		return rc;
	}
	if ((r = sim_eal_init(o->eal_argc, o->eal_argv, fabric_eal_mem_mb(e), err)) != 0) {
		snprintf(msg, sizeof(msg), "fabemu: %s", err);
		rc = r == -EINVAL ? cli_bad_input(o, check, e->name, "eal", msg)
				  : cli_failed(o, check, e->name, "eal", err);
		exp_free(e);
		close(lock_fd);
		return rc;
	}
	pool = sim_pool_create("fabemu", e->engine.pool_pkts, fabric_data_room(e), err);
	if (!pool) {
		rc = cli_failed(o, check, e->name, "pool", err);
		exp_free(e);
		rte_eal_cleanup();
		close(lock_fd);
		return rc;
	}
	if ((r = fabric_build(&f, e, pool, outdir, err)) != 0) {
		/* -ENOSPC: the configuration cannot fit (bad input, at its line);
		 * -ENOTDIR: a capture folder that is a file (a bad -o). */
		rc = r == -ENOSPC || r == -ENOTDIR ? cli_bad_input(o, check, e->name, "bad_input", err)
						   : cli_failed(o, check, e->name, "build", err);
		fabric_free(&f);
		goto out;
	}
	f.sim.interrupt = &cli_stop_sig;
	/* check: every metric the assertions name must exist before a
	 * possibly long run is spent on them. */
	if (check && e->n_expects) {
		if (res_collect(&res, &f) != 0) {
			rc = cli_failed(o, check, e->name, "memory", "out of memory");
		} else if (cli_expect_names(e, &res, err) != 0 ||
			   cli_expect_baseline(o, e, &base, err) != 0) {
			rc = cli_bad_input(o, check, e->name, "bad_input", err);
		}
		res_free(&res);
		if (rc != CLI_OK) {
			fabric_free(&f);
			goto out;
		}
	}
	fabric_run(&f, !o->quiet);
	cli_disarm_stop();
	if ((r = fabric_close_outputs(&f, outdir, err)) != 0) {
		rc = cli_failed(o, check, e->name, "write", err);
	} else if (res_collect_run(&res, &f, cli_stop_why(o, why_buf)) != 0) {
		rc = cli_failed(o, check, e->name, "memory", "out of memory collecting results");
	} else {
		if (res_write_all(&res, &f, outdir, err) != 0) {
			rc = cli_failed(o, check, e->name, "write", err);
		} else {
			if (!o->quiet) {
				res_print_human(&res, &f, stdout);
				printf("  results: %s/summary.json\n", outdir);
				for (uint32_t i = 0; i < e->n_captures; i++)
					printf("  capture: %s\n", f.cap_paths[i]);
			}
			fflush(stdout);
			if (!res.valid)
				fprintf(stderr, "fabemu: WARNING: results not valid: %s\n", res.reasons);
			if (check)
				rc = cli_check(e, &res, base, outdir, o->junit);
			else if (f.sim.interrupted || f.sim.horizon || f.sim.stuck ||
				 f.no_progress_stopped)
				rc = CLI_FAIL; /* stopped short: events were left */
		}
		res_free(&res);
	}
	fabric_free(&f);
out:
	cfg_doc_free(base);
	rte_mempool_free(pool);
	exp_free(e);
	rte_eal_cleanup();
	close(lock_fd);
	return rc;
}

int cli_topo(const struct cli_opts *o)
{
	char err[CFG_ERR_BYTES];
	struct cfg_node *root, *tn;
	struct cfg_doc *doc;
	struct topo *t;

	if (cfg_doc_load(o->exp_path, &doc, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CLI_BAD_INPUT;
	}
	root = cfg_doc_root(doc);
	tn = cfg_schema_get(root, "topology") ? cfg_schema_get(root, "topology") : root;
	if (topo_from_cfg(doc, tn, &t, err) != 0) {
		fprintf(stderr, "%s\n", err);
		cfg_doc_free(doc);
		return CLI_BAD_INPUT;
	}
	if (o->dot) {
		topo_dot(t, stdout);
	} else {
		struct topo_routes *r;
		double t0 = fabric_now_s();

		topo_describe(t, stdout);
		/* The forwarding state the switches would hold: per class, not
		 * per endpoint. */
		if (topo_routes_build(t, &r, err) != 0) {
			fprintf(stderr, "%s\n", err);
			topo_free(t);
			cfg_doc_free(doc);
			return CLI_BAD_INPUT;
		}
		printf("routes: %u destination classes for %u endpoints; hop table %u switches x %u "
		       "classes = %.1f MiB, built in %.3f s; each switch maps a class, not an "
		       "endpoint, to its ports\n",
		       r->n_classes, r->n_eps, r->n_rows, r->n_classes,
		       (double)r->n_rows * r->n_classes / (1 << 20), fabric_now_s() - t0);
		topo_routes_free(r);
	}
	topo_free(t);
	cfg_doc_free(doc);
	return CLI_OK;
}

/* cli.h */
int cli_metrics_exist(const struct cli_opts *o, const char *path, const char *const *sets,
		      unsigned n_sets, const char *const *names, unsigned n_names, bool check)
{
	char err[CFG_ERR_BYTES];
	struct rte_mempool *pool;
	struct results res;
	struct fabric f;
	struct exp *e;
	int rc = CLI_OK;

	if (exp_load(path, sets, n_sets, o->seed_set, o->seed, &e, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CLI_BAD_INPUT;
	}
	e->engine.pool_pkts = fabric_pool_pkts(e);
	if (sim_eal_init(o->eal_argc, o->eal_argv, fabric_eal_mem_mb(e), err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		exp_free(e);
		return CLI_BAD_INPUT;
	}
	pool = sim_pool_create("fabemu", e->engine.pool_pkts, fabric_data_room(e), err);
	if (!pool) {
		fprintf(stderr, "fabemu: %s\n", err);
		rc = CLI_FAIL;
	} else if (fabric_build(&f, e, pool, NULL, err) != 0) {
		fprintf(stderr, "%s\n", err);
		rc = CLI_BAD_INPUT;
		fabric_free(&f);
	} else {
		if (res_collect(&res, &f) != 0) {
			fprintf(stderr, "fabemu: out of memory\n");
			rc = CLI_FAIL;
		} else if (check && cli_expect_names(e, &res, err) != 0) {
			fprintf(stderr, "%s\n", err);
			rc = CLI_BAD_INPUT;
		}
		for (unsigned i = 0; rc == CLI_OK && i < n_names; i++) {
			const char *all[1024];
			const char *near;
			uint32_t n = 0;

			if (res_find(&res, names[i]))
				continue;
			for (uint32_t j = 0; j < res.n && n < 1023; j++)
				all[n++] = res.m[j].name;
			all[n] = NULL;
			near = cfg_nearest(names[i], all);
			fprintf(stderr, "fabemu: --metric '%s': unknown metric%s%s%s (see docs/results.md)\n",
				names[i], near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			rc = CLI_BAD_INPUT;
		}
		res_free(&res);
		fabric_free(&f);
	}
	rte_mempool_free(pool);
	exp_free(e);
	rte_eal_cleanup();
	return rc;
}
