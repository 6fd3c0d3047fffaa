/* `fabemu check`'s JUnit XML: one run's <testsuite> (properties, a case per
 * assertion, or the error case of a check not done), and for several runs
 * one <testsuites> of every run's suite and each point's suite of
 * assertions across seeds. No absolute path in names (cli_rel_name). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_sweep.h"
#include "exp.h"
#include "fab_version.h"
#include "results.h"

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

/* cli.h */
const char *cli_rel_name(const char *path, char *out, size_t cap)
{
	char cwd[SWP_PATH_BYTES];
	size_t n;
	const char *slash;

	if (path[0] != '/') {
		snprintf(out, cap, "%s", path);
		return out;
	}
	if (getcwd(cwd, sizeof(cwd)) && (n = strlen(cwd)) > 1 && !strncmp(path, cwd, n) &&
	    path[n] == '/' && path[n + 1]) {
		snprintf(out, cap, "%s", path + n + 1);
		return out;
	}
	slash = strrchr(path, '/');
	snprintf(out, cap, "%s", slash[1] ? slash + 1 : path);
	return out;
}

/* The point of this run when it is one of a sweep's: "k=v,...,seed=N",
 * set by the sweep in the run's environment (cli_sweep.c); NULL alone. */
static const char *cli_junit_point(void)
{
	return getenv(SWP_POINT_ENV);
}

/* " [POINT]" after a name, escaped; nothing outside a sweep. */
static void cli_junit_label(FILE *jf, const char *point)
{
	if (!point || !point[0])
		return;
	fputs(" [", jf);
	cli_xml_escape(jf, point);
	fputc(']', jf);
}

static void cli_junit_prop(FILE *jf, const char *name, const char *value)
{
	fprintf(jf, "    <property name=\"");
	cli_xml_escape(jf, name);
	fprintf(jf, "\" value=\"");
	cli_xml_escape(jf, value);
	fprintf(jf, "\"/>\n");
}

/* The properties of a sweep's run: its point and its results folder
 * (relative to -o), as the sweep set them. */
static void cli_junit_point_props(FILE *jf)
{
	const char *point = cli_junit_point(), *dir = getenv(SWP_FOLDER_ENV);

	if (point)
		cli_junit_prop(jf, "point", point);
	if (dir)
		cli_junit_prop(jf, "results", dir);
}

/* cli.h */
void cli_junit_error(const char *path, const char *suite, const char *type, const char *msg)
{
	const char *point = cli_junit_point();
	char rel[SWP_PATH_BYTES];
	FILE *jf;

	if (!path)
		return;
	if (!(jf = fopen(path, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", path, strerror(errno));
		return;
	}
	cli_rel_name(suite, rel, sizeof(rel));
	fprintf(jf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"");
	cli_xml_escape(jf, rel);
	cli_junit_label(jf, point);
	fprintf(jf, "\" tests=\"1\" failures=\"0\" errors=\"1\">\n");
	if (point) {
		fprintf(jf, "  <properties>\n");
		cli_junit_prop(jf, "fabemu_version", FAB_VERSION);
		cli_junit_prop(jf, "commit", FAB_COMMIT);
		cli_junit_point_props(jf);
		fprintf(jf, "  </properties>\n");
	}
	fprintf(jf, "  <testcase classname=\"");
	cli_xml_escape(jf, rel);
	fprintf(jf, "\" name=\"fabemu check");
	cli_junit_label(jf, point);
	fprintf(jf, "\"><error type=\"");
	cli_xml_escape(jf, type);
	fprintf(jf, "\" message=\"");
	cli_xml_escape(jf, msg);
	fprintf(jf, "\"/></testcase>\n</testsuite>\n");
	if ((ferror(jf) | fclose(jf)) != 0)
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", path, strerror(errno));
}

/* cli.h */
void cli_junit_head(FILE *jf, const struct exp *e, const struct results *r, uint32_t n_tests,
		    uint32_t n_fail)
{
	const struct res_metric *setup = res_find(r, "wall_clock.setup_s");
	const struct res_metric *run = res_find(r, "wall_clock.run_s");
	double wall = (setup ? res_value(setup) : 0) + (run ? res_value(run) : 0);
	char stamp[32] = "", rel[SWP_PATH_BYTES], seed[32];
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(jf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"");
	cli_xml_escape(jf, e->name);
	cli_junit_label(jf, cli_junit_point());
	fprintf(jf, "\" tests=\"%u\" failures=\"%u\" errors=\"0\" time=\"%.3f\" timestamp=\"%s\">\n",
		n_tests + !r->valid, n_fail, wall == wall ? wall : 0.0, stamp);
	fprintf(jf, "  <properties>\n");
	cli_junit_prop(jf, "experiment", cli_rel_name(e->path ? e->path : "", rel, sizeof(rel)));
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)e->seed);
	cli_junit_prop(jf, "seed", seed);
	cli_junit_prop(jf, "fabemu_version", FAB_VERSION);
	cli_junit_prop(jf, "commit", FAB_COMMIT);
	cli_junit_prop(jf, "valid", r->valid ? "true" : "false");
	for (unsigned i = 0; i < e->n_sets; i++)
		cli_junit_prop(jf, "set", e->sets[i]);
	cli_junit_point_props(jf);
	fprintf(jf, "  </properties>\n");
}

/* cli.h */
void cli_junit_case(FILE *jf, const struct exp *e, const struct exp_expect *a, bool ok,
		    const char *line)
{
	fprintf(jf, "  <testcase classname=\"");
	cli_xml_escape(jf, e->name);
	fprintf(jf, "\" name=\"");
	if (a->across != EXP_ACROSS_NONE) {
		cli_across_junit_name(jf, a);
	} else {
		cli_xml_escape(jf, a->metric);
		fputc(' ', jf);
		cli_xml_escape(jf, exp_op_name(a->op));
		if (a->of[0]) {
			fprintf(jf, " %.10g x ", a->value);
			cli_xml_escape(jf, a->of);
		} else if (a->baseline) {
			fprintf(jf, " baseline");
		} else {
			fprintf(jf, " %.10g", a->value);
		}
	}
	cli_junit_label(jf, cli_junit_point());
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

/* cli.h */
void cli_junit_failed(FILE *jf, const struct exp *e, const char *name, const char *msg)
{
	fprintf(jf, "  <testcase classname=\"");
	cli_xml_escape(jf, e->name);
	fprintf(jf, "\" name=\"");
	cli_xml_escape(jf, name);
	cli_junit_label(jf, cli_junit_point());
	fprintf(jf, "\"><failure message=\"");
	cli_xml_escape(jf, msg);
	fprintf(jf, "\"/></testcase>\n");
}

/* cli_sweep.h */
void swp_point_label(const struct swp_plan *p, unsigned combo, const char *seed, char *out,
		     size_t cap)
{
	size_t len = 0;

	out[0] = '\0';
	for (unsigned k = 0; k < p->n_axes && len < cap; k++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s=%s", k ? "," : "", p->axes[k].key,
					p->axes[k].values[swp_value_of(p, combo, k)]);
	if (seed && seed[0] && len < cap)
		snprintf(out + len, cap - len, "%sseed=%s", len ? "," : "", seed);
}

/* The number after @attr=" in @head, or 0. */
static unsigned swp_junit_count(const char *head, const char *attr)
{
	const char *at = strstr(head, attr);

	return at ? (unsigned)strtoul(at + strlen(attr), NULL, 10) : 0;
}

/* Run @i's own report (the part its `fabemu check` wrote): its
 * <testsuite> into @f without the XML declaration, its tests, failures
 * and errors added to @n. False when there is none, or not whole. */
static bool swp_junit_copy(FILE *f, const struct swp_plan *p, unsigned i, unsigned n[3])
{
	char path[SWP_PATH_BYTES + 32], *buf, *head, *body;
	bool whole = false;
	long size;
	FILE *in;

	snprintf(path, sizeof(path), "%s/%u.xml", p->junit_dir, i);
	if (!(in = fopen(path, "r")))
		return false;
	if (fseek(in, 0, SEEK_END) != 0 || (size = ftell(in)) <= 0 || size > (64L << 20) ||
	    fseek(in, 0, SEEK_SET) != 0 || !(buf = malloc((size_t)size + 1))) {
		fclose(in);
		return false;
	}
	buf[fread(buf, 1, (size_t)size, in)] = '\0';
	fclose(in);
	head = strstr(buf, "<testsuite ");
	size = (long)strlen(buf);
	if (head && size > 13 && !strcmp(buf + size - 13, "</testsuite>\n")) {
		whole = true;
		body = strncmp(buf, "<?xml", 5) ? buf : strchr(buf, '\n') + 1;
		n[0] += swp_junit_count(head, " tests=\"");
		n[1] += swp_junit_count(head, " failures=\"");
		n[2] += swp_junit_count(head, " errors=\"");
		fputs(body, f);
	}
	free(buf);
	return whole;
}

static void swp_junit_prop(FILE *f, const char *name, const char *value)
{
	fprintf(f, "    <property name=\"%s\" value=\"", name);
	cli_xml_escape(f, value);
	fprintf(f, "\"/>\n");
}

/* The suite of run @r that left no report (killed, not run, could not be
 * started): one error case that points at its log. */
static void swp_junit_lost(FILE *f, const struct cli_run_opts *o, const struct swp_plan *p,
			   const struct swp_run *r, unsigned n[3])
{
	char seed[32], point[SWP_PATH_BYTES];
	const char *name = p->names[r->file], *dir = swp_shown(o, p, r);
	const char *word = swp_status_word(r->status, true);

	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)r->seed);
	swp_point_label(p, r->combo, seed, point, sizeof(point));
	fprintf(f, "<testsuite name=\"");
	cli_xml_escape(f, name);
	fprintf(f, " [");
	cli_xml_escape(f, point);
	fprintf(f, "]\" tests=\"1\" failures=\"0\" errors=\"1\">\n  <properties>\n");
	swp_junit_prop(f, "seed", seed);
	swp_junit_prop(f, "fabemu_version", FAB_VERSION);
	swp_junit_prop(f, "commit", FAB_COMMIT);
	swp_junit_prop(f, "point", point);
	swp_junit_prop(f, "results", dir);
	fprintf(f, "  </properties>\n  <testcase classname=\"");
	cli_xml_escape(f, name);
	fprintf(f, "\" name=\"fabemu check [");
	cli_xml_escape(f, point);
	fprintf(f, "]\"><error type=\"%s\" message=\"%s: see ", word, word);
	cli_xml_escape(f, dir);
	fprintf(f, "/fabemu.log\"/></testcase>\n</testsuite>\n");
	n[0]++;
	n[2]++;
}

/* The suite of point @combo of file @file's assertions across seeds: a
 * case per assertion, named by the point without a seed. */
static void swp_junit_across(FILE *f, const struct cli_run_opts *o, const struct swp_plan *p,
			     unsigned file, unsigned combo, unsigned n[3])
{
	char point[SWP_PATH_BYTES], rel[SWP_PATH_BYTES], set[SWP_PATH_BYTES];
	const char *name = p->names[file];
	unsigned n_tests = 0, n_fail = 0;

	for (unsigned i = 0; i < p->n_verdicts; i++)
		if (p->verdicts[i].file == file && p->verdicts[i].combo == combo) {
			n_tests++;
			n_fail += !p->verdicts[i].ok;
		}
	if (!n_tests)
		return;
	swp_point_label(p, combo, NULL, point, sizeof(point));
	fprintf(f, "<testsuite name=\"");
	cli_xml_escape(f, name);
	if (point[0]) {
		fprintf(f, " [");
		cli_xml_escape(f, point);
		fputc(']', f);
	}
	fprintf(f, " across seeds\" tests=\"%u\" failures=\"%u\" errors=\"0\">\n  <properties>\n",
		n_tests, n_fail);
	swp_junit_prop(f, "experiment", cli_rel_name(o->exps[file], rel, sizeof(rel)));
	snprintf(set, sizeof(set), "%llu",
		 (unsigned long long)p->point_seeds[(size_t)file * p->n_combos + combo]);
	swp_junit_prop(f, "seeds", o->seeds ? o->seeds : set);
	swp_junit_prop(f, "fabemu_version", FAB_VERSION);
	swp_junit_prop(f, "commit", FAB_COMMIT);
	for (unsigned i = 0; i < o->sim.n_sets; i++)
		swp_junit_prop(f, "set", o->sim.sets[i]);
	for (unsigned k = 0; k < p->n_axes; k++) {
		snprintf(set, sizeof(set), "%s=%s", p->axes[k].key,
			 p->axes[k].values[swp_value_of(p, combo, k)]);
		swp_junit_prop(f, "set", set);
	}
	swp_junit_prop(f, "point", point);
	fprintf(f, "  </properties>\n");
	/* The cases: the names were escaped when the verdicts were made. */
	for (unsigned i = 0; i < p->n_verdicts; i++) {
		const struct swp_verdict *v = &p->verdicts[i];

		if (v->file != file || v->combo != combo)
			continue;
		fprintf(f, "  <testcase classname=\"");
		cli_xml_escape(f, name);
		fprintf(f, "\" name=\"%s", v->name);
		if (point[0]) {
			fprintf(f, " [");
			cli_xml_escape(f, point);
			fputc(']', f);
		}
		fprintf(f, "\">");
		if (!v->ok) {
			fprintf(f, "<failure message=\"");
			cli_xml_escape(f, v->rel_line);
			fprintf(f, "\"/>");
		}
		fprintf(f, "<system-out>");
		cli_xml_escape(f, v->rel_line + 5);
		fprintf(f, "</system-out></testcase>\n");
	}
	fprintf(f, "</testsuite>\n");
	n[0] += n_tests;
	n[1] += n_fail;
}

/* cli_sweep.h */
int swp_junit(const struct cli_run_opts *o, const struct swp_plan *p)
{
	unsigned n[3] = { 0 }; /* tests, failures, errors */
	char *body = NULL;
	size_t len = 0;
	FILE *b = open_memstream(&body, &len), *f;

	if (!b) {
		fprintf(stderr, "fabemu: out of memory\n");
		return -ENOMEM;
	}
	for (unsigned i = 0; i < p->n_runs; i++) {
		const struct swp_run *r = &p->runs[i];
		bool last = i + 1 == p->n_runs || p->runs[i + 1].file != r->file ||
			    p->runs[i + 1].combo != r->combo;

		/* A run that ended (passed, failed or refused its input) wrote
		 * its own report; one killed or never started did not. */
		if (r->status < 0 || r->status > CLI_BAD_INPUT || !swp_junit_copy(b, p, i, n))
			swp_junit_lost(b, o, p, r, n);
		if (last)
			swp_junit_across(b, o, p, r->file, r->combo, n);
	}
	if (fclose(b) != 0) {
		free(body);
		fprintf(stderr, "fabemu: out of memory\n");
		return -ENOMEM;
	}
	if (!(f = fopen(o->junit, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", o->junit, strerror(errno));
		free(body);
		return -errno;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"fabemu check\" "
		   "tests=\"%u\" failures=\"%u\" errors=\"%u\">\n",
		n[0], n[1], n[2]);
	fwrite(body, 1, len, f);
	fprintf(f, "</testsuites>\n");
	free(body);
	if ((ferror(f) | fclose(f)) != 0) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", o->junit, strerror(errno));
		return -EIO;
	}
	return 0;
}

/* cli_sweep.h */
void swp_junit_cleanup(const struct swp_plan *p)
{
	char path[SWP_PATH_BYTES + 32];

	if (!p->junit_dir[0])
		return;
	for (unsigned i = 0; i < p->n_runs; i++) {
		snprintf(path, sizeof(path), "%s/%u.xml", p->junit_dir, i);
		unlink(path);
	}
	rmdir(p->junit_dir);
}
