/* `fabemu compare DIR_A DIR_B [DIR_C...]`: the numeric metrics of several
 * results folders side by side, each against the first folder, flagged when
 * the relative change is beyond a tolerance (exit 1), as plain text or as a
 * markdown table for a review comment. summary.json is read with the
 * project's YAML loader: JSON is YAML's flow syntax (docs/user-guide.md). */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cfg.h"
#include "cli.h"
#include "results.h"

enum {
	CMP_NAME_BYTES = 1024, /* longest dotted metric name */
	CMP_MAX_DEPTH = 32,    /* deepest nesting read (fabemu writes 3 levels) */
	CMP_MAX_PATTERNS = 64, /* --metrics patterns */
	CMP_PATH_BYTES = 4096, /* DIR/summary.json */
};

/* What one folder has under one metric name. */
enum cmp_kind {
	CMP_ABSENT,  /* no such key */
	CMP_NULL,    /* null: a statistic of nothing */
	CMP_NUMBER,  /* a number, or true/false read as 1/0 (as expect: does) */
	CMP_TEXT,    /* a string or a container: not compared */
};

struct cmp_val {
	enum cmp_kind kind; /* what it is */
	double x;           /* CMP_NUMBER: its value */
	const char *text;   /* its text as written, "null" for null (owned by the doc) */
};

/* One metric: its name and what each folder has. */
struct cmp_row {
	char *name;           /* dotted, as expect: names it */
	struct cmp_val *vals; /* one per folder */
};

/* All metrics of all folders, in the first folder's order, then the ones
 * that only later folders have, in their order. */
struct cli_cmp {
	struct cfg_doc *docs[CLI_MAX_DIRS]; /* each folder's summary: the values' text */
	unsigned n_dirs;        /* folders */
	struct cmp_row *rows;   /* the metrics */
	size_t n_rows;          /* used */
	size_t cap_rows;        /* allocated */
	uint32_t *slots;        /* open-addressing index of rows by name: row + 1, 0 = empty */
	size_t n_slots;         /* a power of two, at least twice n_rows */
};

/* One folder's summary being read. */
struct cmp_walk {
	struct cli_cmp *t;    /* where its metrics go */
	unsigned dir;         /* its index */
	char name[CMP_NAME_BYTES]; /* the dotted name being built */
	const char *path;     /* DIR/summary.json, for messages */
};

static uint64_t cmp_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int cmp_rehash(struct cli_cmp *t)
{
	size_t n = t->n_slots ? t->n_slots * 2 : 256;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t r = 0; r < t->n_rows; r++) {
		size_t i = cmp_hash(t->rows[r].name) & (n - 1);

		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = (uint32_t)(r + 1);
	}
	free(t->slots);
	t->slots = s;
	t->n_slots = n;
	return 0;
}

/* The row named @name, added (all folders absent) when missing; NULL when
 * out of memory. */
static struct cmp_row *cmp_row_get(struct cli_cmp *t, const char *name)
{
	struct cmp_row *row;
	size_t i;

	if (2 * (t->n_rows + 1) > t->n_slots && cmp_rehash(t) != 0)
		return NULL;
	for (i = cmp_hash(name) & (t->n_slots - 1); t->slots[i]; i = (i + 1) & (t->n_slots - 1))
		if (!strcmp(t->rows[t->slots[i] - 1].name, name))
			return &t->rows[t->slots[i] - 1];
	if (t->n_rows == UINT32_MAX - 1)
		return NULL;
	if (t->n_rows == t->cap_rows) {
		size_t cap = t->cap_rows ? t->cap_rows * 2 : 128;
		struct cmp_row *r = realloc(t->rows, cap * sizeof(*r));

		if (!r)
			return NULL;
		t->rows = r;
		t->cap_rows = cap;
	}
	row = &t->rows[t->n_rows];
	row->name = strdup(name);
	row->vals = calloc(t->n_dirs, sizeof(*row->vals));
	if (!row->name || !row->vals) {
		free(row->name);
		free(row->vals);
		return NULL;
	}
	t->slots[i] = (uint32_t)++t->n_rows;
	return row;
}

void cli_cmp_free(struct cli_cmp *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->n_rows; r++) {
		free(t->rows[r].name);
		free(t->rows[r].vals);
	}
	free(t->rows);
	free(t->slots);
	for (unsigned d = 0; d < t->n_dirs; d++)
		cfg_doc_free(t->docs[d]);
	free(t);
}

/* How a scalar reads: a number (true/false as 1/0, as expect: reads them),
 * or text. Quoted scalars are strings in JSON. */
static enum cmp_kind cmp_classify(const struct cfg_node *n, double *x)
{
	char *end;

	if (n->type == CFG_NULL)
		return CMP_NULL;
	if (n->type != CFG_SCALAR || n->quoted || !n->str[0])
		return CMP_TEXT;
	if (!strcmp(n->str, "true") || !strcmp(n->str, "false")) {
		*x = n->str[0] == 't';
		return CMP_NUMBER;
	}
	errno = 0;
	*x = strtod(n->str, &end);
	return *end || !isfinite(*x) ? CMP_TEXT : CMP_NUMBER;
}

/* @s with control characters written as JSON escapes (\n, \t, \u0001), so
 * that a workload name cannot break a table's lines. @len >= 6 strlen + 1. */
static void cmp_printable(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && o + 7 <= len; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			o += (size_t)snprintf(out + o, len - o, "\\n");
		else if (c == '\t')
			o += (size_t)snprintf(out + o, len - o, "\\t");
		else if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

/* Add every leaf under @n to the table, named @w->name[0..len). */
static int cmp_walk_node(struct cmp_walk *w, const struct cfg_node *n, size_t len, int depth,
			 char err[CFG_ERR_BYTES])
{
	if (depth > CMP_MAX_DEPTH) {
		cfg_errorf(err, n, "nested more than %d levels deep: not a fabemu summary", CMP_MAX_DEPTH);
		return -EINVAL;
	}
	if (n->type == CFG_MAP || n->type == CFG_SEQ) {
		for (uint32_t k = 0; k < n->n; k++) {
			char idx[16];
			const char *part = idx;
			size_t plen;
			int rc;

			if (n->type == CFG_MAP)
				part = n->keys[k]->str;
			else
				snprintf(idx, sizeof(idx), "%u", k);
			plen = strlen(part);
			if (len + 1 + plen + 1 > sizeof(w->name)) {
				cfg_errorf(err, n->items[k], "key path longer than %d bytes",
					   CMP_NAME_BYTES - 1);
				return -EINVAL;
			}
			if (len)
				w->name[len] = '.';
			memcpy(w->name + len + (len != 0), part, plen + 1);
			rc = cmp_walk_node(w, n->items[k], len + (len != 0) + plen, depth + 1, err);
			if (rc != 0)
				return rc;
		}
		return 0;
	}
	{
		char shown[CMP_NAME_BYTES * 6];
		struct cmp_row *row;
		struct cmp_val *v;

		cmp_printable(w->name, shown, sizeof(shown));
		row = cmp_row_get(w->t, shown);

		if (!row) {
			snprintf(err, CFG_ERR_BYTES, "%s: out of memory", w->path);
			return -ENOMEM;
		}
		v = &row->vals[w->dir];
		v->kind = cmp_classify(n, &v->x);
		v->text = n->type == CFG_NULL ? "null" : n->str;
	}
	return 0;
}

const struct cfg_node *cli_summary_get(const struct cfg_doc *doc, const char *name)
{
	char buf[1024], *save = NULL;
	const struct cfg_node *n = doc ? cfg_doc_root((struct cfg_doc *)doc) : NULL;

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

int cli_summary_number(const struct cfg_doc *doc, const char *name, double *x)
{
	const struct cfg_node *n = cli_summary_get(doc, name);
	char *end;

	if (!n || n->type != CFG_SCALAR || n->quoted || !n->str[0])
		return -ENOENT;
	if (!strcmp(n->str, "true") || !strcmp(n->str, "false")) {
		*x = n->str[0] == 't';
		return 0;
	}
	errno = 0;
	*x = strtod(n->str, &end);
	return *end || !isfinite(*x) ? -ENOENT : 0;
}

int cli_summary_load(const char *dir, struct cfg_doc **doc, char err[CFG_ERR_BYTES])
{
	char path[CMP_PATH_BYTES];
	const struct cfg_node *root, *ver;
	struct stat st;
	uint64_t v;
	int rc;

	*doc = NULL;
	if (stat(dir, &st) != 0) {
		snprintf(err, CFG_ERR_BYTES, "%s: cannot open: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, CFG_ERR_BYTES, "%s: not a folder (give the results folder)", dir);
		return -ENOTDIR;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/summary.json", dir) >= sizeof(path)) {
		snprintf(err, CFG_ERR_BYTES, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	if (stat(path, &st) != 0 && errno == ENOENT) {
		snprintf(err, CFG_ERR_BYTES, "%s: no summary.json in it (not a results folder?)", dir);
		return -ENOENT;
	}
	/* Refused before it is read (the loader reads a file whole). A FIFO or
	 * a device (no size) is the loader's to refuse. */
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > CLI_SUMMARY_MAX_BYTES) {
		snprintf(err, CFG_ERR_BYTES, "%.400s: larger than %llu MiB, the most fabemu reads of a "
			 "summary.json", path, (unsigned long long)(CLI_SUMMARY_MAX_BYTES >> 20));
		return -EFBIG;
	}
	rc = cfg_doc_load(path, doc, err);
	if (rc != 0)
		return rc;
	root = cfg_doc_root(*doc);
	if (!root || root->type != CFG_MAP) {
		snprintf(err, CFG_ERR_BYTES, "%.400s: not a fabemu summary (expected a JSON object)", path);
		return -EINVAL;
	}
	ver = cfg_get(root, "schema_version");
	if (!ver) {
		snprintf(err, CFG_ERR_BYTES, "%.400s: no schema_version: not a fabemu summary", path);
		return -EINVAL;
	}
	/* Said without the value: the file may be anything but a summary. */
	if (ver->type != CFG_SCALAR || ver->quoted || cfg_u64(ver, 0, UINT64_MAX, &v, err) != 0) {
		cfg_errorf(err, ver, "schema_version: expected a whole number: not a fabemu summary");
		return -EINVAL;
	}
	if (v < RES_SCHEMA_OLDEST || v > RES_SCHEMA_VERSION) {
		cfg_errorf(err, ver, "schema_version %llu, this fabemu reads schema versions %d to %d",
			   (unsigned long long)v, RES_SCHEMA_OLDEST, RES_SCHEMA_VERSION);
		return -EINVAL;
	}
	return 0;
}

/* The groups that differ between identical runs; compared only when a
 * --metrics pattern names them. */
static bool cmp_nondeterministic(const char *name)
{
	return !strncmp(name, "wall_clock.", 11) || !strncmp(name, "provenance.", 11);
}

/* Parse "5%" or "0.05" into a fraction >= 0. */
static int cmp_parse_tolerance(const char *s, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno || !isfinite(x) || x < 0)
		return -EINVAL;
	if (*end == '%') {
		x /= 100;
		end++;
	}
	if (*end)
		return -EINVAL;
	*out = x;
	return 0;
}

/* The change of @b against @a: its text into @buf, and whether it is
 * beyond @tol. */
static bool cmp_change(const struct cmp_val *a, const struct cmp_val *b, double tol, char *buf,
		       size_t len)
{
	if (b->kind == CMP_ABSENT) {
		snprintf(buf, len, "%s", a->kind == CMP_ABSENT ? "" : "gone");
		return a->kind != CMP_ABSENT;
	}
	if (a->kind == CMP_ABSENT) {
		snprintf(buf, len, "new");
		return false;
	}
	if (a->kind != CMP_NUMBER || b->kind != CMP_NUMBER) {
		/* null (a statistic of nothing) or a string where others have numbers */
		bool same = a->kind == b->kind && !strcmp(a->text, b->text);

		if (same)
			snprintf(buf, len, "0%%");
		else if (b->kind == CMP_NUMBER)
			snprintf(buf, len, "was %s", a->kind == CMP_NULL ? "null" : "text");
		else
			snprintf(buf, len, "now %s", b->kind == CMP_NULL ? "null" : "text");
		return !same;
	}
	if (a->x == b->x) {
		snprintf(buf, len, "0%%");
		return false;
	}
	if (a->x == 0) {
		snprintf(buf, len, "from 0");
		return true;
	}
	{
		double rel = (b->x - a->x) / fabs(a->x);

		snprintf(buf, len, "%+.3g%%", rel * 100);
		return fabs(rel) > tol;
	}
}

static const char *cmp_text(const struct cmp_val *v)
{
	return v->kind == CMP_ABSENT ? "-" : v->kind == CMP_TEXT ? "(text)" : v->text;
}

/* Write @s for a markdown table cell: '|' escaped. */
static void cmp_md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

enum { CMP_CHANGE_BYTES = 32 };

static void cmp_print_plain(FILE *f, const struct cli_cmp *t, const struct cmp_row *const *sel,
			    size_t n_sel, const char *const *dirs, double tol, size_t n_flagged)
{
	size_t w_name = strlen("metric"), w_val[CLI_MAX_DIRS] = { 0 }, w_chg = strlen("vs A");
	char chg[CMP_CHANGE_BYTES];

	for (unsigned d = 0; d < t->n_dirs; d++) {
		fprintf(f, "%c: %s\n", 'A' + d, dirs[d]);
		w_val[d] = 1;
	}
	fprintf(f, "tolerance: %g%%\n\n", tol * 100);
	for (size_t r = 0; r < n_sel; r++) {
		size_t l = strlen(sel[r]->name);

		w_name = l > w_name ? l : w_name;
		for (unsigned d = 0; d < t->n_dirs; d++) {
			l = strlen(cmp_text(&sel[r]->vals[d]));
			w_val[d] = l > w_val[d] ? l : w_val[d];
			if (d) {
				cmp_change(&sel[r]->vals[0], &sel[r]->vals[d], tol, chg, sizeof(chg));
				l = strlen(chg) + 2;
				w_chg = l > w_chg ? l : w_chg;
			}
		}
	}
	fprintf(f, "%-*s", (int)w_name, "metric");
	for (unsigned d = 0; d < t->n_dirs; d++) {
		char h[8];

		fprintf(f, "  %*c", (int)w_val[d], 'A' + d);
		snprintf(h, sizeof(h), "%c vs A", 'A' + d);
		if (d)
			fprintf(f, "  %*s", (int)w_chg, h);
	}
	fputc('\n', f);
	for (size_t r = 0; r < n_sel; r++) {
		fprintf(f, "%-*s", (int)w_name, sel[r]->name);
		for (unsigned d = 0; d < t->n_dirs; d++) {
			fprintf(f, "  %*s", (int)w_val[d], cmp_text(&sel[r]->vals[d]));
			if (d) {
				bool flag = cmp_change(&sel[r]->vals[0], &sel[r]->vals[d], tol, chg,
						       sizeof(chg));

				/* The mark in a column of its own; no blanks at the line's end. */
				fprintf(f, "  %*s%s", (int)w_chg - 2, chg,
					flag ? " *" : d + 1 < t->n_dirs ? "  " : "");
			}
		}
		fputc('\n', f);
	}
	fprintf(f, "\n%zu of %zu metrics moved beyond %g%%%s\n", n_flagged, n_sel, tol * 100,
		n_flagged ? " (marked *)" : "");
}

static void cmp_print_markdown(FILE *f, const struct cli_cmp *t,
			       const struct cmp_row *const *sel, size_t n_sel,
			       const char *const *dirs, double tol, size_t n_flagged)
{
	char chg[CMP_CHANGE_BYTES];

	fprintf(f, "**fabemu compare**: %zu of %zu metrics moved beyond %g%%%s\n\n", n_flagged,
		n_sel, tol * 100, n_flagged ? " (in bold)" : "");
	for (unsigned d = 0; d < t->n_dirs; d++) {
		fprintf(f, "- %c: `", 'A' + d);
		for (const char *s = dirs[d]; *s; s++)
			fputc(*s == '`' ? '\'' : *s, f);
		fputs("`\n", f);
	}
	fputs("\n| metric | A |", f);
	for (unsigned d = 1; d < t->n_dirs; d++)
		fprintf(f, " %c | %c vs A |", 'A' + d, 'A' + d);
	fputs("\n|---|---:|", f);
	for (unsigned d = 1; d < t->n_dirs; d++)
		fputs("---:|---:|", f);
	fputc('\n', f);
	for (size_t r = 0; r < n_sel; r++) {
		fputs("| `", f);
		cmp_md_cell(f, sel[r]->name);
		fputs("` | ", f);
		cmp_md_cell(f, cmp_text(&sel[r]->vals[0]));
		fputs(" |", f);
		for (unsigned d = 1; d < t->n_dirs; d++) {
			bool flag = cmp_change(&sel[r]->vals[0], &sel[r]->vals[d], tol, chg,
					       sizeof(chg));

			fputc(' ', f);
			cmp_md_cell(f, cmp_text(&sel[r]->vals[d]));
			fprintf(f, " | %s%s%s |", flag ? "**" : "", chg, flag ? "**" : "");
		}
		fputc('\n', f);
	}
}

/* Split --metrics at commas into @pats (pointers into @buf). */
static int cmp_patterns(const char *spec, char *buf, size_t len, char **pats, unsigned *n)
{
	char *save = NULL;

	*n = 0;
	if (!spec)
		return 0;
	if (strlen(spec) >= len)
		return -ENAMETOOLONG;
	strcpy(buf, spec);
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (*n == CMP_MAX_PATTERNS)
			return -E2BIG;
		pats[(*n)++] = p;
	}
	return *n ? 0 : -EINVAL;
}

static bool cmp_selected(const char *name, char *const *pats, unsigned n_pats, bool *hit)
{
	bool nondet = cmp_nondeterministic(name), any = false;

	if (!n_pats)
		return !nondet;
	for (unsigned k = 0; k < n_pats; k++) {
		if (nondet && strncmp(pats[k], name, strchr(name, '.') - name))
			continue;
		if (fnmatch(pats[k], name, 0) == 0) {
			hit[k] = true;
			any = true;
		}
	}
	return any;
}

int cli_cmp_read(const char *const *dirs, unsigned n_dirs, struct cli_cmp **out,
		 char err[CFG_ERR_BYTES])
{
	struct cli_cmp *t;

	*out = NULL;
	if (n_dirs > CLI_MAX_DIRS) {
		snprintf(err, CFG_ERR_BYTES, "compare: more than %d results folders", CLI_MAX_DIRS);
		return -E2BIG;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, CFG_ERR_BYTES, "compare: out of memory");
		return -ENOMEM;
	}
	*out = t;
	t->n_dirs = n_dirs;
	for (unsigned d = 0; d < n_dirs; d++) {
		struct cmp_walk *w;
		char path[CMP_PATH_BYTES];
		int rc;

		rc = cli_summary_load(dirs[d], &t->docs[d], err);
		if (rc != 0)
			return rc;
		/* The name being built is large: not on the stack. */
		w = malloc(sizeof(*w));
		if (!w) {
			snprintf(err, CFG_ERR_BYTES, "compare: out of memory");
			return -ENOMEM;
		}
		snprintf(path, sizeof(path), "%s/summary.json", dirs[d]);
		*w = (struct cmp_walk){ .t = t, .dir = d, .path = path };
		rc = cmp_walk_node(w, cfg_doc_root(t->docs[d]), 0, 0, err);
		free(w);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int cli_compare(const void *opts)
{
	struct cli_cmp *t = NULL;
	char err[CFG_ERR_BYTES], patbuf[CMP_NAME_BYTES * 4];
	char *pats[CMP_MAX_PATTERNS];
	bool hit[CMP_MAX_PATTERNS] = { false };
	const struct cmp_row **sel = NULL;
	size_t n_sel = 0, n_flagged = 0;
	unsigned n_pats;
	double tol = 0.05;
	int ret = CLI_BAD_INPUT;
	const struct cli_compare_opts *o = opts;

	if (o->n_dirs < 2) {
		fprintf(stderr, "fabemu: compare needs at least two results folders (see fabemu compare --help)\n");
		return CLI_BAD_INPUT;
	}
	if (o->tolerance && cmp_parse_tolerance(o->tolerance, &tol) != 0) {
		fprintf(stderr, "fabemu: --tolerance needs a percentage such as 5%% or a fraction such as 0.05, "
				"got '%s' (see fabemu compare --help)\n", o->tolerance);
		return CLI_BAD_INPUT;
	}
	if (cmp_patterns(o->metrics, patbuf, sizeof(patbuf), pats, &n_pats) != 0) {
		fprintf(stderr, "fabemu: --metrics needs one or more comma-separated name patterns, "
				"got '%s' (see fabemu compare --help)\n", o->metrics);
		return CLI_BAD_INPUT;
	}
	if (cli_cmp_read(o->dirs, o->n_dirs, &t, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		goto out;
	}
	sel = calloc(t->n_rows ? t->n_rows : 1, sizeof(*sel));
	if (!sel) {
		fprintf(stderr, "fabemu: compare: out of memory\n");
		goto out;
	}
	for (size_t r = 0; r < t->n_rows; r++) {
		bool numeric = false;

		for (unsigned d = 0; d < t->n_dirs; d++)
			if (t->rows[r].vals[d].kind == CMP_NUMBER || t->rows[r].vals[d].kind == CMP_NULL)
				numeric = true;
		if (!numeric || !cmp_selected(t->rows[r].name, pats, n_pats, hit))
			continue;
		sel[n_sel++] = &t->rows[r];
	}
	for (unsigned k = 0; k < n_pats; k++)
		if (!hit[k]) {
			fprintf(stderr, "fabemu: --metrics: no numeric metric matches '%s' (names are dotted, "
					"as in expect:, e.g. flows.fct_ns.p99 or 'drops.*')\n", pats[k]);
			goto out;
		}
	for (size_t r = 0; r < n_sel; r++)
		for (unsigned d = 1; d < t->n_dirs; d++) {
			char chg[CMP_CHANGE_BYTES];

			if (cmp_change(&sel[r]->vals[0], &sel[r]->vals[d], tol, chg, sizeof(chg))) {
				n_flagged++;
				break;
			}
		}
	if (o->markdown)
		cmp_print_markdown(stdout, t, sel, n_sel, o->dirs, tol, n_flagged);
	else
		cmp_print_plain(stdout, t, sel, n_sel, o->dirs, tol, n_flagged);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "fabemu: compare: cannot write the table: %s\n", strerror(errno));
		ret = CLI_FAIL;
		goto out;
	}
	ret = n_flagged ? CLI_FAIL : CLI_OK;
out:
	free(sel);
	cli_cmp_free(t);
	return ret;
}

static int cli_compare_arg(void *opts, const char *a)
{
	struct cli_compare_opts *o = opts;

	return cli_arg_dir(o->dirs, &o->n_dirs, a);
}

static const struct cli_optdef cli_compare_own_optdefs[] = {
	{ "--tolerance", NULL, "T", "flag relative changes beyond T, e.g. 5% (default) or 0.05",
	  cli_opt_str, offsetof(struct cli_compare_opts, tolerance) },
	{ "--markdown", NULL, NULL, "a markdown table, for a review comment", cli_opt_flag,
	  offsetof(struct cli_compare_opts, markdown) },
	{ "--metrics", NULL, "GLOB,...",
	  "only the metrics matching these patterns (wall_clock.*, provenance.* only when named)",
	  cli_opt_str, offsetof(struct cli_compare_opts, metrics) },
	{ NULL },
};

static const struct cli_optdef *const cli_compare_optdefs[] = {
	cli_compare_own_optdefs,
	NULL,
};

const struct cli_cmd cli_cmd_compare = {
	.name = "compare",
	.synopsis = "DIR_A DIR_B [DIR_C...] [options]",
	.what = "Compare the numeric metrics of results folders (summary.json), each against DIR_A.",
	.exits = "0 no metric moved beyond the tolerance, 1 some did (or the table could not be written), "
		 "2 bad input",
	.opts = cli_compare_optdefs,
	.opts_bytes = sizeof(struct cli_compare_opts),
	.arg = cli_compare_arg,
	.main = cli_compare,
};
