/* The docs' lists of kinds against the registries: every registered kind
 * of every mechanism is named where docs/config.md lists the values of its
 * key (the key's table row, or a heading of its own), so a kind added in
 * one file plus one line fails this test until it is documented. The
 * expectation is the registry itself (core/reg.h); the test reads the
 * docs as a user would. Runs before the toy-kind suites register theirs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"
#include "sw_aqm.h"
#include "sw_path.h"
#include "test.h"
#include "tg.h"
#include "tg_trace_int.h"
#include "tg_wl.h"
#include "topo.h"

/* Where a mechanism's values are listed: the table row that starts with
 * "| `key` |" (row), or a heading per kind (heading: printf format of it). */
struct td_list {
	const char *what;                   /* for messages */
	const char *const *(*names)(void);  /* the registry's names */
	const char *row;                    /* key whose row lists them, or NULL */
	const char *heading;                /* "### kind: %s", or NULL */
};

static const struct td_list td_lists[] = {
	{ "congestion control", cc_names, "nic.cc", NULL },
	{ "workload kinds", tg_wl_names, "traffic.kind", NULL },
	{ "collective algorithms", tg_coll_alg_names, "traffic.algorithm", NULL },
	{ "trace formats", tg_trace_format_names, "traffic.format", NULL },
	{ "path-choice policies", sw_path_names, "fabric.path.policy", NULL },
	{ "queue managers", sw_aqm_names, "fabric.ecn.aqm", NULL },
	{ "topology kinds", topo_kind_names, NULL, "### kind: %s\n" },
};

static char *td_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The row of @key in @doc as its own string (malloc'd), or NULL. */
static char *td_row(const char *doc, const char *key)
{
	char want[96];
	const char *s, *e;

	snprintf(want, sizeof(want), "\n| `%s` |", key);
	if (!(s = strstr(doc, want)))
		return NULL;
	s++;
	e = strchr(s, '\n');
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

static void td_fail(const char *msg)
{
	fprintf(stderr, "\n  %s\n", msg);
	CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
}

static void test_docs_kinds(void)
{
	char *doc = td_read(FAB_DOCS_DIR "/config.md");

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	for (size_t i = 0; i < sizeof(td_lists) / sizeof(td_lists[0]); i++) {
		const struct td_list *l = &td_lists[i];
		char *row = l->row ? td_row(doc, l->row) : NULL;
		unsigned n = 0;
		char msg[256];

		if (l->row && !row) {
			snprintf(msg, sizeof(msg), "docs/config.md has no row for `%s`", l->row);
			td_fail(msg);
			continue;
		}
		for (const char *const *nm = l->names(); *nm; nm++, n++) {
			char want[96];

			if (l->row)
				snprintf(want, sizeof(want), "`%s`", *nm);
			else
				snprintf(want, sizeof(want), l->heading, *nm);
			if (strstr(l->row ? row : doc, want))
				continue;
			snprintf(msg, sizeof(msg), "docs/config.md does not list the %s %s (%s)",
				 l->what, want, l->row ? l->row : "a heading");
			td_fail(msg);
		}
		CU_ASSERT(n >= 2); /* the registry is really there */
		free(row);
	}
	free(doc);
}

int test_docs_kinds_register(void)
{
	static const struct test_case tests[] = {
		{ "config.md lists every registered kind", test_docs_kinds },
	};

	return test_suite("docs-kinds", tests);
}
