/* The modules' metrics tables (core/metric.h): folding instances (sum,
 * largest), reading rows, the drops.* rows against the switch's drop
 * reasons, and docs/results.md against the tables: every metric of
 * summary.json and every ports.csv column is documented with its unit,
 * and every documented one exists; the faults line of the human summary. */
#include <stdlib.h>
#include <string.h>

#include "fault_metrics.h"
#include "results.h"
#include "sw_metrics.h"
#include "test.h"

enum { TM_MAX_TABLES = 64 };

/* A toy module's stats: two counters and a peak. */
struct tm_stats {
	uint64_t a, b, peak;
};

static void tm_ratio(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct tm_stats *s = stats;

	(void)ctx;
	v->d = s->b ? (double)s->a / (double)s->b : 0;
}

static const struct metric tm_rows[] = {
	METRIC_FIELD("toy.a", "—", METRIC_SUM, struct tm_stats, a, "a count"),
	METRIC_FIELD("toy.b", "—", METRIC_SUM, struct tm_stats, b, "another"),
	METRIC_FIELD("toy.peak_bytes", "bytes", METRIC_MAX, struct tm_stats, peak, "a peak"),
	METRIC_FN("toy.ratio", "—", METRIC_DBL, tm_ratio, "a / b"),
};
static const struct metric_table tm_table = METRIC_TABLE("toy", tm_rows);

/* Folding sums counters and keeps the largest peak; res_put_table writes
 * each row under its name, NAME replaced by the instance's. */
static void test_metrics_fold(void)
{
	const struct tm_stats inst[] = { { 1, 2, 30 }, { 3, 4, 10 }, { 5, 6, 20 } };
	struct tm_stats acc = { 0 };
	struct results r = { 0 };
	struct metric_val v;

	for (size_t i = 0; i < 3; i++)
		metric_fold(&tm_table, &acc, &inst[i]);
	CU_ASSERT_EQUAL(acc.a, 9);
	CU_ASSERT_EQUAL(acc.b, 12);
	CU_ASSERT_EQUAL(acc.peak, 30);
	metric_value(&tm_rows[3], &acc, NULL, &v);
	CU_ASSERT_DOUBLE_EQUAL(v.d, 0.75, 1e-12);
	CU_ASSERT_EQUAL(res_put_table(&r, &tm_table, NULL, &acc, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(r.n, 4);
	CU_ASSERT_STRING_EQUAL(r.m[2].name, "toy.peak_bytes");
	CU_ASSERT_EQUAL(r.m[2].u, 30);
	CU_ASSERT_DOUBLE_EQUAL(res_value(res_find(&r, "toy.ratio")), 0.75, 1e-12);
	res_free(&r);
	{
		static const struct metric named[] = {
			METRIC_FIELD("toy.NAME.a", "—", METRIC_ONE, struct tm_stats, a, "per toy"),
		};
		static const struct metric_table t = METRIC_TABLE("toy", named);

		CU_ASSERT_EQUAL(res_put_table(&r, &t, "w0", &inst[1], NULL), 0);
		CU_ASSERT_EQUAL(res_value(res_find(&r, "toy.w0.a")), 3);
	}
	res_free(&r);
}

/* drops.REASON follow enum sw_drop_reason, after drops.total. */
static void test_metrics_drops(void)
{
	CU_ASSERT_EQUAL_FATAL(sw_metrics_drops.n, 1 + SW_DROP_N);
	CU_ASSERT_STRING_EQUAL(sw_metrics_drops.m[0].name, "drops.total");
	for (int d = 0; d < SW_DROP_N; d++) {
		char want[64];

		snprintf(want, sizeof(want), "drops.%s", sw_drop_reason_name((enum sw_drop_reason)d));
		CU_ASSERT_STRING_EQUAL(sw_metrics_drops.m[1 + d].name, want);
	}
}

/* The faults line of the human summary from the faults' totals table: the
 * text the hand-written line printed, its failed-reroute clause only when
 * some failed. */
static void test_metrics_fault_line(void)
{
	static const char *const want[] = {
		"  faults: 2 scheduled, 5 actions, 3 reroutes; frames lost 7 (link down) + 1 (loss), "
		"4 corrupted (4 FCS drops)\n",
		"  faults: 2 scheduled, 5 actions, 3 reroutes (some failed); frames lost 7 (link down) "
		"+ 1 (loss), 4 corrupted (4 FCS drops)\n",
	};

	for (uint64_t failed = 0; failed < 2; failed++) {
		struct fault_totals t = {
			.count = 2, .actions = 5, .reroutes = 3, .reroutes_failed = failed,
			.c = { .lost_down = 7, .lost_random = 1, .corrupted = 4, .fcs_errors = 4 },
		};
		struct results r = { 0 };
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		CU_ASSERT_EQUAL(res_put_table(&r, &fault_metrics_totals, NULL, &t, NULL), 0);
		CU_ASSERT_EQUAL(res_value(res_find(&r, "faults.reroutes_failed")), (double)failed);
		res_print_faults(&r, out);
		fclose(out);
		CU_ASSERT_STRING_EQUAL(text, want[failed]);
		free(text);
		res_free(&r);
	}
	{
		/* Without faults (no faults.* keys) nothing. */
		struct results r = { 0 };
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		res_print_faults(&r, out);
		fclose(out);
		CU_ASSERT_EQUAL(len, 0);
		free(text);
	}
}

static char *tm_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = calloc(1, (size_t)len + 1)) != NULL && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The text of @doc's "## @title" section (up to the next "## "), malloc'd. */
static char *tm_section(const char *doc, const char *title)
{
	char head[128];
	const char *at, *end;

	snprintf(head, sizeof(head), "\n## %s\n", title);
	if (!(at = strstr(doc, head)))
		return NULL;
	at += 1;
	end = strstr(at + 3, "\n## ");
	return strndup(at, end ? (size_t)(end - at) : strlen(at));
}

/* A documented name: the row's unit, and whether a table has it. */
struct tm_doc {
	char name[RES_NAME_BYTES]; /* as written between backticks */
	char unit[64];             /* the row's second cell, trimmed */
	bool found;                /* some table row is it */
};

/* Every `name` in the first cell of the table rows of @sec, with the
 * row's unit, into @out (at most @max). Returns how many. */
static uint32_t tm_doc_rows(const char *sec, struct tm_doc *out, uint32_t max)
{
	uint32_t n = 0;

	for (const char *l = sec; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *c1, *c2, *c3, *b;
		char unit[64] = "";

		if (strncmp(l, "| `", 3) != 0 || !(c1 = strchr(l + 1, '|')) ||
		    !(c2 = strchr(c1 + 1, '|')))
			continue;
		c3 = c1 + 1;
		while (*c3 == ' ')
			c3++;
		snprintf(unit, sizeof(unit), "%.*s", (int)(c2 - c3), c3);
		for (size_t k = strlen(unit); k && unit[k - 1] == ' '; k--)
			unit[k - 1] = '\0';
		for (b = strchr(l, '`'); b && b < c1 && n < max; b = strchr(b + 1, '`')) {
			const char *e = strchr(b + 1, '`');

			if (!e || e > c1)
				break;
			snprintf(out[n].name, sizeof(out[n].name), "%.*s", (int)(e - b - 1), b + 1);
			snprintf(out[n].unit, sizeof(out[n].unit), "%s", unit);
			out[n++].found = false;
			b = e;
		}
	}
	return n;
}

/* Each row of @t documented in @docs with its unit; mark those found. */
static unsigned tm_check_table(const struct metric_table *t, struct tm_doc *docs, uint32_t n,
			       const char *where)
{
	unsigned bad = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		const struct metric *m = &t->m[i];
		bool ok = false;

		CU_ASSERT_PTR_NOT_NULL(m->doc);
		for (uint32_t k = 0; k < n; k++) {
			if (strcmp(docs[k].name, m->name) != 0)
				continue;
			docs[k].found = true;
			ok = !strcmp(docs[k].unit, m->unit);
			if (!ok)
				fprintf(stderr, "\n  docs/results.md (%s): `%s` has unit \"%s\", its table (%s) "
					"\"%s\"\n", where, m->name, docs[k].unit, t->what, m->unit);
		}
		if (!ok && ++bad)
			fprintf(stderr, "\n  docs/results.md (%s) does not document `%s` (%s) with its unit\n",
				where, m->name, t->what);
	}
	return bad;
}

/* docs/results.md against the tables, both ways (names and units). */
static void test_metrics_docs(void)
{
	char *doc = tm_read_file(FAB_DOCS_DIR "/results.md");
	char *summary, *prov, *ports;
	const struct metric_table *tables[TM_MAX_TABLES];
	struct tm_doc *docs = calloc(1024, sizeof(*docs));
	uint32_t n_tables, n, n_ports, rows = 0;
	unsigned bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(docs);
	summary = tm_section(doc, "summary.json");
	prov = tm_section(doc, "Provenance and digest");
	ports = tm_section(doc, "ports.csv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
	CU_ASSERT_PTR_NOT_NULL_FATAL(prov);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ports);
	n = tm_doc_rows(summary, docs, 1024);
	n += tm_doc_rows(prov, docs + n, 1024 - n);
	n_tables = res_summary_tables(tables, TM_MAX_TABLES);
	CU_ASSERT(n_tables > 20 && n_tables < TM_MAX_TABLES);
	for (uint32_t i = 0; i < n_tables; i++) {
		bad += tm_check_table(tables[i], docs, n, "summary.json");
		rows += tables[i]->n;
	}
	CU_ASSERT(rows > 100); /* the tables are really there */
	n_ports = tm_doc_rows(ports, docs + n, 1024 - n);
	for (const struct res_port_cols *c = res_port_cols; c->t; c++)
		bad += tm_check_table(c->t, docs + n, n_ports, "ports.csv");
	for (uint32_t k = 0; k < n + n_ports; k++) {
		if (docs[k].found)
			continue;
		bad++;
		fprintf(stderr, "\n  docs/results.md documents `%s`, which no table has\n", docs[k].name);
	}
	CU_ASSERT_EQUAL(bad, 0);
	free(summary);
	free(prov);
	free(ports);
	free(docs);
	free(doc);
}

int test_metrics_register(void)
{
	static const struct test_case tests[] = {
		{ "fold and put", test_metrics_fold },
		{ "drops rows follow the drop reasons", test_metrics_drops },
		{ "docs/results.md against the tables", test_metrics_docs },
		{ "the faults line from the faults' table", test_metrics_fault_line },
	};

	return test_suite("metrics", tests);
}
