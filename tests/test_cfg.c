/* CUnit suite for core/cfg: loading YAML into the marked tree, every class
 * of load error with its FILE:LINE:COL, --set overrides, and the typed
 * readers' accepted forms and messages. Mostly table-driven. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "cfg_schema.h"
#include "test.h"
#include "units.h"

enum { TC_MAX_WORDS = 3 };

/* True when @err contains @want; says what was missing otherwise. */
static int tc_has(const char *err, const char *want)
{
	if (want && !strstr(err, want)) {
		fprintf(stderr, "\n  message: %s\n  missing: %s\n", err, want);
		return 0;
	}
	return 1;
}

static int tc_has_all(const char *err, const char *const words[TC_MAX_WORDS])
{
	int ok = 1, i;

	for (i = 0; i < TC_MAX_WORDS; i++)
		ok &= tc_has(err, words[i]);
	return ok;
}

static struct cfg_doc *tc_load(const char *text)
{
	char err[CFG_ERR_BYTES] = "";
	struct cfg_doc *doc = NULL;
	int rc = cfg_doc_load_string("x.yaml", text, &doc, err);

	if (rc)
		fprintf(stderr, "\n  unexpected: %s\n", err);
	CU_ASSERT_EQUAL(rc, 0);
	return doc;
}

static void test_cfg_tree(void)
{
	struct cfg_doc *doc = tc_load("# experiment\n"
				      "name: incast\n"
				      "hosts: [h1, 'h2']\n"
				      "link:\n"
				      "  rate: 100Gbps\n"
				      "  delay: ~\n"
				      "  empty:\n"
				      "null: \"\"\n");
	const struct cfg_node *root, *hosts, *link, *n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	root = cfg_doc_root(doc);
	CU_ASSERT_EQUAL_FATAL(root->type, CFG_MAP);
	CU_ASSERT_EQUAL(root->n, 4);
	CU_ASSERT_STRING_EQUAL(root->keys[0]->str, "name"); /* document order */
	CU_ASSERT_STRING_EQUAL(root->keys[3]->str, "null"); /* keys stay text */
	CU_ASSERT_STRING_EQUAL(root->mark.file, "x.yaml");
	CU_ASSERT_EQUAL(root->mark.line, 2);
	CU_ASSERT_EQUAL(root->mark.col, 1);

	hosts = cfg_get(root, "hosts");
	CU_ASSERT_EQUAL_FATAL(hosts->type, CFG_SEQ);
	CU_ASSERT_EQUAL_FATAL(hosts->n, 2);
	CU_ASSERT_FALSE(hosts->items[0]->quoted);
	CU_ASSERT_TRUE(hosts->items[1]->quoted);
	CU_ASSERT_STRING_EQUAL(hosts->items[1]->str, "h2");
	CU_ASSERT_EQUAL(hosts->items[1]->mark.line, 3);
	CU_ASSERT_EQUAL(hosts->items[1]->mark.col, 13);

	link = cfg_get(root, "link");
	n = cfg_get(link, "rate");
	CU_ASSERT_EQUAL_FATAL(n->type, CFG_SCALAR);
	CU_ASSERT_EQUAL(n->mark.line, 5);
	CU_ASSERT_EQUAL(n->mark.col, 9);
	CU_ASSERT_EQUAL(cfg_get(link, "delay")->type, CFG_NULL);
	CU_ASSERT_PTR_NULL(cfg_get(link, "delay")->str);
	CU_ASSERT_EQUAL(cfg_get(link, "empty")->type, CFG_NULL);
	n = cfg_get(root, "null");
	CU_ASSERT_EQUAL(n->type, CFG_SCALAR); /* "" quoted is an empty string */
	CU_ASSERT_STRING_EQUAL(n->str, "");
	CU_ASSERT_PTR_NULL(cfg_get(link, "absent"));
	CU_ASSERT_PTR_NULL(cfg_get(hosts, "h1")); /* not a map */
	cfg_doc_free(doc);

	doc = tc_load("");
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(cfg_doc_root(doc)->type, CFG_NULL);
	cfg_doc_free(doc);
	cfg_doc_free(NULL);
	CU_ASSERT_PTR_NULL(cfg_doc_root(NULL));
}

static void test_cfg_aliases(void)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc = tc_load("base: &b {rate: 25Gbps, mtu: 4KiB}\n"
				      "a: *b\n"
				      "b: *b\n"
				      "s: &s x\n"
				      "t: [*s, *s]\n");
	const struct cfg_node *root, *a, *b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	root = cfg_doc_root(doc);
	a = cfg_get(root, "a");
	CU_ASSERT_EQUAL_FATAL(a->type, CFG_MAP);
	CU_ASSERT_STRING_EQUAL(cfg_get(a, "rate")->str, "25Gbps");
	CU_ASSERT_EQUAL(a->mark.line, 2); /* marked where the alias is used */
	CU_ASSERT_STRING_EQUAL(cfg_get(root, "t")->items[1]->str, "x");
	/* An alias is a copy: overriding one use leaves the others alone. */
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "a.rate=1Gbps", 1, err), 0);
	b = cfg_get(root, "b");
	CU_ASSERT_STRING_EQUAL(cfg_get(a, "rate")->str, "1Gbps");
	CU_ASSERT_STRING_EQUAL(cfg_get(b, "rate")->str, "25Gbps");
	CU_ASSERT_STRING_EQUAL(cfg_get(cfg_get(root, "base"), "rate")->str, "25Gbps");
	cfg_doc_free(doc);
}

static void test_cfg_load_errors(void)
{
	static const struct {
		const char *text;
		const char *words[TC_MAX_WORDS]; /* all must appear */
	} cases[] = {
		{ "a: 1\nb: [1, 2\nc: 3\n", { "x.yaml:3:2: ", "did not find expected ',' or ']'", "line 2, column 4" } },
		{ "a: 1\n  b: 2\n", { "x.yaml:2:4: ", "mapping values are not allowed" } },
		{ "a: \"abc\n", { "x.yaml:2:1: ", "unexpected end of stream", "quoted scalar at line 1, column 4" } },
		{ "- a\nb: 1\n", { "x.yaml:2:1: ", "expected '-'" } },
		{ "a: 1\nb: 2\na: 3\n", { "x.yaml:3:1: ", "duplicate key 'a'", "first at line 1, column 1" } },
		{ "m:\n  x: 1\n  'x': 2\n", { "x.yaml:3:3: ", "duplicate key 'x'", "line 2, column 3" } },
		{ "[1]: 2\n", { "x.yaml:1:1: ", "map keys must be plain values", "got a list" } },
		{ "? {a: 1}\n: 2\n", { "x.yaml:1:3: ", "map keys must be plain values", "got a map" } },
		{ "a: 1\n---\nb: 2\n", { "x.yaml:2:1: ", "second document" } },
		{ "a: 1\nb: x\xff\n", { "x.yaml:2:5: ", "invalid leading UTF-8 octet" } },
		{ "a: *nope\n", { "x.yaml:1:4: ", "unknown alias '*nope'" } },
		{ "a: &x [1, *x]\n", { "x.yaml:1:11: ", "alias '*x' is inside the node it names" } },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		struct cfg_doc *doc = (struct cfg_doc *)&err; /* must be reset */
		int rc = cfg_doc_load_string("x.yaml", cases[i].text, &doc, err);

		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT_PTR_NULL(doc);
		CU_ASSERT(tc_has_all(err, cases[i].words));
		CU_ASSERT_PTR_NULL(strchr(err, '\n'));
	}
}

static void test_cfg_load_limits(void)
{
	enum { DEPTH = 300 };
	char text[2 * DEPTH + 1], err[CFG_ERR_BYTES];
	struct cfg_doc *doc;
	int i;

	/* Alias expansion ("billion laughs") stops at the node limit. */
	CU_ASSERT_EQUAL(cfg_doc_load_string("x.yaml",
					    "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
					    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
					    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
					    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
					    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
					    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
					    "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n",
					    &doc, err),
			-E2BIG);
	CU_ASSERT(tc_has(err, "document too large"));
	for (i = 0; i < DEPTH; i++) {
		text[i] = '[';
		text[DEPTH + i] = ']';
	}
	text[2 * DEPTH] = '\0';
	CU_ASSERT_EQUAL(cfg_doc_load_string("x.yaml", text, &doc, err), -E2BIG);
	CU_ASSERT(tc_has(err, "nesting deeper"));
}

static void test_cfg_load_file(void)
{
	char path[] = "/tmp/fabemu-test-cfg-XXXXXX";
	char err[CFG_ERR_BYTES], want[CFG_ERR_BYTES];
	struct cfg_doc *doc = NULL;
	const struct cfg_node *n;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("topology:\n  rate: 100Gbps\n  ratee: 1\n", f);
	fclose(f);

	CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, &doc, err), 0);
	n = cfg_get(cfg_doc_root(doc), "topology");
	CU_ASSERT_STRING_EQUAL(n->mark.file, path);
	snprintf(want, sizeof(want), "%s:3:3: unknown key 'ratee' (did you mean 'rate'?)", path);
	CU_ASSERT_EQUAL(cfg_check_keys(n, (const char *const[]){ "rate", "delay", NULL }, err),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err, want);
	cfg_doc_free(doc);

	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("a: 1\nb: [2\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(cfg_doc_load(path, &doc, err), -EINVAL);
	CU_ASSERT_PTR_NULL(doc);
	snprintf(want, sizeof(want), "%s:3:1: ", path);
	CU_ASSERT(tc_has(err, want));

	unlink(path);
	CU_ASSERT_EQUAL(cfg_doc_load(path, &doc, err), -ENOENT);
	CU_ASSERT_PTR_NULL(doc);
	snprintf(want, sizeof(want), "%s: cannot open: No such file or directory", path);
	CU_ASSERT_STRING_EQUAL(err, want);

	CU_ASSERT_EQUAL(cfg_doc_load("/", &doc, err), -EISDIR);
	CU_ASSERT(tc_has(err, "/: cannot open: not a regular file (a folder)"));
}

enum tc_reader {
	TR_U64,
	TR_DOUBLE,
	TR_BOOL,
	TR_STR,
	TR_RATE,
	TR_TIME,
	TR_SIZE,
	TR_FRACTION,
	TR_ENUM,
};

static const char *const tc_cc_names[] = { "dcqcn", "hpcc", "timely", NULL };

/* Run one reader with fixed limits; integers land in @u, reals in @d. */
static int tc_read(enum tc_reader r, const struct cfg_node *n, uint64_t *u, double *d, char *err)
{
	const char *s;
	bool b = false;
	int i = 0, rc = -EINVAL;

	switch (r) {
	case TR_U64:
		return cfg_u64(n, 1, 65535, u, err);
	case TR_DOUBLE:
		return cfg_double(n, -1, 1, d, err);
	case TR_BOOL:
		rc = cfg_bool(n, &b, err);
		*u = b;
		break;
	case TR_STR:
		rc = cfg_str(n, &s, err);
		*u = rc ? 0 : strlen(s);
		break;
	case TR_RATE:
		return cfg_rate(n, UINT64_C(1000000000), u, err);
	case TR_TIME:
		return cfg_time(n, u, err);
	case TR_SIZE:
		return cfg_size(n, 64, 9216, u, err);
	case TR_FRACTION:
		return cfg_fraction(n, 0, 1, d, err);
	case TR_ENUM:
		rc = cfg_enum(n, tc_cc_names, &i, err);
		*u = (uint64_t)i;
		break;
	}
	return rc;
}

/* Load "v: @value" and run reader @r on the value (at x.yaml:1:4). */
static int tc_read_value(enum tc_reader r, const char *value, uint64_t *u, double *d, char *err)
{
	char text[256];
	struct cfg_doc *doc;
	int rc;

	snprintf(text, sizeof(text), "v: %s\n", value);
	doc = tc_load(text);
	if (!doc)
		return -EIO;
	rc = tc_read(r, cfg_get(cfg_doc_root(doc), "v"), u, d, err);
	cfg_doc_free(doc);
	return rc;
}

static void test_cfg_read_good(void)
{
	static const struct {
		enum tc_reader r;
		const char *value;
		uint64_t u;
		double d;
	} cases[] = {
		{ TR_U64, "1", 1, 0 },
		{ TR_U64, "65535", 65535, 0 },
		{ TR_U64, "'42'", 42, 0 },
		{ TR_U64, "007", 7, 0 },
		{ TR_DOUBLE, "0.5", 0, 0.5 },
		{ TR_DOUBLE, "-1", 0, -1 },
		{ TR_DOUBLE, "1e-3", 0, 1e-3 },
		{ TR_BOOL, "true", 1, 0 },
		{ TR_BOOL, "false", 0, 0 },
		{ TR_STR, "hello", 5, 0 },
		{ TR_STR, "''", 0, 0 },
		{ TR_STR, "100", 3, 0 },
		{ TR_RATE, "100Gbps", UINT64_C(100000000000), 0 },
		{ TR_RATE, "1Gbps", UINT64_C(1000000000), 0 },
		{ TR_TIME, "2.5us", 2500000, 0 },
		{ TR_TIME, "0ns", 0, 0 },
		{ TR_SIZE, "4KiB", 4096, 0 },
		{ TR_SIZE, "9216B", 9216, 0 },
		{ TR_FRACTION, "30%", 0, 0.3 },
		{ TR_FRACTION, "0.25", 0, 0.25 },
		{ TR_FRACTION, "100%", 0, 1 },
		{ TR_ENUM, "hpcc", 1, 0 },
		{ TR_ENUM, "timely", 2, 0 },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		uint64_t u = 0;
		double d = 0;
		int rc = tc_read_value(cases[i].r, cases[i].value, &u, &d, err);

		if (rc)
			fprintf(stderr, "\n  '%s': %s\n", cases[i].value, err);
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_EQUAL(u, cases[i].u);
		CU_ASSERT_EQUAL(d, cases[i].d);
	}
}

static void test_cfg_read_bad(void)
{
	static const struct {
		enum tc_reader r;
		const char *value;
		const char *words[TC_MAX_WORDS]; /* all must appear */
	} cases[] = {
		{ TR_U64, "1.5", { "x.yaml:1:4: expected a whole number such as 42, got '1.5'" } },
		{ TR_U64, "-3", { "x.yaml:1:4: ", "got '-3'" } },
		{ TR_U64, "12abc", { "x.yaml:1:4: ", "got '12abc'" } },
		{ TR_U64, "' 12'", { "x.yaml:1:4: ", "got ' 12'" } },
		{ TR_U64, "18446744073709551616", { "x.yaml:1:4: ", "too large" } },
		{ TR_U64, "0", { "x.yaml:1:4: 0 is below the minimum 1" } },
		{ TR_U64, "65536", { "x.yaml:1:4: 65536 is above the maximum 65535" } },
		{ TR_U64, "", { "x.yaml:1:3: ", "got nothing" } },
		{ TR_U64, "[1]", { "x.yaml:1:4: ", "got a list" } },
		{ TR_DOUBLE, "abc", { "x.yaml:1:4: expected a number such as 0.5, got 'abc'" } },
		{ TR_DOUBLE, ".nan", { "x.yaml:1:4: ", "expected a number" } },
		{ TR_DOUBLE, "inf", { "x.yaml:1:4: ", "expected a number" } },
		{ TR_DOUBLE, "0x10", { "x.yaml:1:4: ", "expected a number" } },
		{ TR_DOUBLE, "1e999", { "x.yaml:1:4: ", "too large" } },
		{ TR_DOUBLE, "1.5", { "x.yaml:1:4: ", "above the maximum 1" } },
		{ TR_BOOL, "yes", { "x.yaml:1:4: expected true or false, got 'yes'", "write true" } },
		{ TR_BOOL, "Off", { "x.yaml:1:4: ", "got 'Off'", "write false" } },
		{ TR_BOOL, "True", { "x.yaml:1:4: ", "write true" } },
		{ TR_BOOL, "maybe", { "x.yaml:1:4: expected true or false, got 'maybe'" } },
		{ TR_STR, "{a: 1}", { "x.yaml:1:4: expected a string, got a map" } },
		{ TR_STR, "~", { "x.yaml:1:4: expected a string, got nothing" } },
		{ TR_RATE, "100", { "x.yaml:1:4: expected a rate such as 100Gbps, got '100'", "missing unit" } },
		{ TR_RATE, "100Gbs", { "x.yaml:1:4: ", "got '100Gbs'", "did you mean 'Gbps'?" } },
		{ TR_RATE, "0Gbps", { "x.yaml:1:4: ", "above zero", "'0Gbps'" } },
		{ TR_RATE, "800Mbps", { "x.yaml:1:4: rate 800Mbps is below the minimum 1Gbps" } },
		{ TR_RATE, "[100Gbps]", { "x.yaml:1:4: expected a rate such as 100Gbps, got a list" } },
		{ TR_RATE, "-1Gbps", { "x.yaml:1:4: ", "negative" } },
		{ TR_TIME, "-1us", { "x.yaml:1:4: ", "got '-1us'", "negative delay" } },
		{ TR_TIME, "1", { "x.yaml:1:4: expected a time such as 1us, got '1'", "missing unit" } },
		{ TR_TIME, "0.1ps", { "x.yaml:1:4: ", "whole number of picoseconds" } },
		{ TR_SIZE, "10KB", { "x.yaml:1:4: size 10000 bytes is above the maximum 9216 bytes" } },
		{ TR_SIZE, "32B", { "x.yaml:1:4: ", "below the minimum 64 bytes" } },
		{ TR_SIZE, "4kb", { "x.yaml:1:4: ", "got '4kb'", "did you mean" } },
		{ TR_FRACTION, "150%", { "x.yaml:1:4: fraction 1.5 is above the maximum 1" } },
		{ TR_FRACTION, "30", { "x.yaml:1:4: ", "above the maximum", "write 30% for a percentage" } },
		{ TR_FRACTION, "lots", { "x.yaml:1:4: expected a fraction such as 30% or 0.3, got 'lots'" } },
		{ TR_FRACTION, "-0.5", { "x.yaml:1:4: ", "negative" } },
		{ TR_ENUM, "dcqnc", { "x.yaml:1:4: unknown value 'dcqnc' (did you mean 'dcqcn'?; valid: dcqcn, hpcc, timely)" } },
		{ TR_ENUM, "reno", { "x.yaml:1:4: unknown value 'reno' (valid: dcqcn, hpcc, timely)" } },
		{ TR_ENUM, "{a: 1}", { "x.yaml:1:4: ", "got a map" } },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		uint64_t u = 0;
		double d = 0;
		int rc = tc_read_value(cases[i].r, cases[i].value, &u, &d, err);

		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT(tc_has_all(err, cases[i].words));
		CU_ASSERT_PTR_NULL(strchr(err, '\n'));
		CU_ASSERT(err[0] && err[strlen(err) - 1] != '.'); /* no trailing period */
	}
}

static void test_cfg_keys(void)
{
	static const char *const allowed[] = { "rate", "delay", "buffer", NULL };
	struct cfg_doc *doc = tc_load("link:\n  rate: 1Gbps\n  delay: 1us\n  ratee: 2\n"
				      "other:\n  rate: 1Gbps\n  colour: blue\n"
				      "list: [1]\n");
	const struct cfg_node *root;
	char err[CFG_ERR_BYTES];

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	root = cfg_doc_root(doc);
	CU_ASSERT_EQUAL(cfg_check_keys(root, (const char *const[]){ "link", "other", "list", NULL }, err), 0);
	CU_ASSERT_EQUAL(cfg_check_keys(cfg_get(root, "link"), allowed, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "x.yaml:4:3: unknown key 'ratee' (did you mean 'rate'?)");
	CU_ASSERT_EQUAL(cfg_check_keys(cfg_get(root, "other"), allowed, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "x.yaml:7:3: unknown key 'colour' (valid: rate, delay, buffer)");
	CU_ASSERT_EQUAL(cfg_check_keys(cfg_get(root, "list"), allowed, err), -EINVAL);
	CU_ASSERT(tc_has(err, "x.yaml:8:7: ") && tc_has(err, "expected a map, got a list"));

	CU_ASSERT_EQUAL(cfg_want(cfg_get(root, "list"), CFG_SEQ, "hosts", err), 0);
	CU_ASSERT_EQUAL(cfg_want(cfg_get(root, "link"), CFG_SEQ, "hosts", err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "x.yaml:2:3: hosts: expected a list, got a map");
	CU_ASSERT_EQUAL(cfg_want(cfg_get(root, "absent"), CFG_MAP, "topology", err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "missing topology");
	cfg_doc_free(doc);
}

static void test_cfg_nearest(void)
{
	static const char *const words[] = { "rate", "delay", "buffer_bytes", "ecn", "mtu", NULL };
	static const struct {
		const char *word;
		const char *want; /* NULL: no suggestion */
	} cases[] = {
		{ "rate", "rate" },   { "ratee", "rate" },  { "rtae", "rate" },
		{ "dealy", "delay" }, { "buffer_byte", "buffer_bytes" },
		{ "bufer_bites", "buffer_bytes" }, { "ecm", "ecn" },
		{ "x", NULL },        { "colour", NULL },   { "", NULL },
		{ "mt", "mtu" },      { "zz", NULL },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = cfg_nearest(cases[i].word, words);

		if (!cases[i].want) {
			CU_ASSERT_PTR_NULL(got);
			continue;
		}
		CU_ASSERT_PTR_NOT_NULL(got);
		if (got)
			CU_ASSERT_STRING_EQUAL(got, cases[i].want);
	}
	CU_ASSERT_PTR_NULL(cfg_nearest("rate", (const char *const[]){ NULL }));
}

static void test_cfg_errorf(void)
{
	struct cfg_node n = { .mark = { .file = "exp.yaml", .line = 17, .col = 3 } };
	char err[CFG_ERR_BYTES], big[2 * CFG_ERR_BYTES];

	cfg_errorf(err, &n, "link %s: port %d out of range", "sw3:p9", 9);
	CU_ASSERT_STRING_EQUAL(err, "exp.yaml:17:3: link sw3:p9: port 9 out of range");
	cfg_errorf(err, NULL, "no place");
	CU_ASSERT_STRING_EQUAL(err, "no place");
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cfg_errorf(err, &n, "%s", big);
	CU_ASSERT_EQUAL(strlen(err), CFG_ERR_BYTES - 1);
	CU_ASSERT_STRING_EQUAL(err + CFG_ERR_BYTES - 4, "...");
	CU_ASSERT_NSTRING_EQUAL(err, "exp.yaml:17:3: aaa", 18);
}

static void test_cfg_set(void)
{
	struct cfg_doc *doc = tc_load("topology:\n"
				      "  hosts: [h1, h2]\n"
				      "  link: {rate: 100Gbps}\n"
				      "  tcp:\n"
				      "flows:\n"
				      "  - {src: h1, dst: h2}\n");
	const struct cfg_node *root, *topo, *n;
	char err[CFG_ERR_BYTES] = "";

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	root = cfg_doc_root(doc);
	topo = cfg_get(root, "topology");

	/* Replace a scalar; the new node is marked at the value in --set #3. */
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "topology.link.rate=25Gbps", 3, err), 0);
	n = cfg_get(cfg_get(topo, "link"), "rate");
	CU_ASSERT_STRING_EQUAL(n->str, "25Gbps");
	CU_ASSERT_STRING_EQUAL(n->mark.file, "--set #3");
	CU_ASSERT_EQUAL(n->mark.line, 1);
	CU_ASSERT_EQUAL(n->mark.col, 20);

	/* Flow values: a list and a map. */
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "topology.hosts=[a, b, c]", 1, err), 0);
	n = cfg_get(topo, "hosts");
	CU_ASSERT_EQUAL_FATAL(n->type, CFG_SEQ);
	CU_ASSERT_EQUAL_FATAL(n->n, 3);
	CU_ASSERT_STRING_EQUAL(n->items[2]->str, "c");
	CU_ASSERT_EQUAL(n->items[2]->mark.col, 23);
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "topology.link={rate: 1Gbps, delay: 2us}", 2, err), 0);
	n = cfg_get(topo, "link");
	CU_ASSERT_EQUAL(n->n, 2);
	CU_ASSERT_STRING_EQUAL(cfg_get(n, "delay")->str, "2us");

	/* Missing keys along the path are created, ending in the value. */
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "sim.seed.base=7", 4, err), 0);
	n = cfg_get(cfg_get(root, "sim"), "seed");
	CU_ASSERT_EQUAL_FATAL(n->type, CFG_MAP);
	CU_ASSERT_STRING_EQUAL(n->mark.file, "--set #4");
	CU_ASSERT_EQUAL(n->mark.col, 5);
	CU_ASSERT_STRING_EQUAL(n->keys[0]->str, "base");
	CU_ASSERT_STRING_EQUAL(cfg_get(n, "base")->str, "7");
	CU_ASSERT_STRING_EQUAL(root->keys[root->n - 1]->str, "sim"); /* appended */

	/* An empty value becomes the map the path needs; indices in lists. */
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "topology.tcp.mss=1460B", 5, err), 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(cfg_get(topo, "tcp"), "mss")->str, "1460B");
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "flows.0.dst=h3", 6, err), 0);
	n = cfg_get(root, "flows")->items[0];
	CU_ASSERT_STRING_EQUAL(cfg_get(n, "dst")->str, "h3");
	CU_ASSERT_STRING_EQUAL(cfg_get(n, "src")->str, "h1");
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "topology.hosts.1='h, 9'", 7, err), 0);
	n = cfg_get(topo, "hosts")->items[1];
	CU_ASSERT_STRING_EQUAL(n->str, "h, 9");
	CU_ASSERT_TRUE(n->quoted);

	/* "x=" sets nothing (null); "x=a=b" keeps everything after the first '='. */
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "topology.tcp=", 8, err), 0);
	CU_ASSERT_EQUAL(cfg_get(topo, "tcp")->type, CFG_NULL);
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "note=a=b", 9, err), 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(root, "note")->str, "a=b");
	cfg_doc_free(doc);

	/* An empty document becomes a map. */
	doc = tc_load("");
	CU_ASSERT_EQUAL(cfg_doc_set(doc, "a=1", 1, err), 0);
	CU_ASSERT_STRING_EQUAL(cfg_get(cfg_doc_root(doc), "a")->str, "1");
	cfg_doc_free(doc);
}

static void test_cfg_set_errors(void)
{
	static const char text[] = "a:\n  b: 1\n  l: [x, y]\n  e: []\n";
	static const struct {
		const char *assignment;
		const char *words[TC_MAX_WORDS]; /* all must appear */
	} cases[] = {
		{ "a.b.c=1", { "--set #2:1:5: ", "cannot descend into 'a.b'", "value '1' (x.yaml:2:6)" } },
		{ "a.l.2=z", { "--set #2:1:5: index 2 out of range: 'a.l' (x.yaml:3:6) has 2 items" } },
		{ "a.l.99999999999999999999=z", { "--set #2:1:5: ", "out of range" } },
		{ "a.e.0=z", { "--set #2:1:5: ", "has 0 items" } },
		{ "a.l.x=z", { "--set #2:1:5: ", "'a.l' is a list", "expected an index, got 'x'" } },
		{ "a.l.-1=z", { "--set #2:1:5: ", "expected an index, got '-1'" } },
		{ "a.b=[1, 2", { "--set #2:1:10: ", "bad value", "did not find expected ',' or ']'" } },
		{ "a.b={rate: 1", { "--set #2:1:13: ", "bad value" } },
		{ "a.b=1, 2", { "--set #2:1:8: ", "more than one node" } },
		{ "a.b=*x", { "--set #2:1:5: ", "unknown alias '*x'" } },
		{ "a.b", { "--set #2:1:1: expected path=value, got 'a.b'" } },
		{ "=1", { "--set #2:1:1: empty path" } },
		{ "a..b=1", { "--set #2:1:3: empty path component" } },
		{ "a.=1", { "--set #2:1:3: empty path component" } },
		{ ".a=1", { "--set #2:1:1: empty path component" } },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		struct cfg_doc *doc = tc_load(text);
		const struct cfg_node *a;

		CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
		CU_ASSERT_EQUAL(cfg_doc_set(doc, cases[i].assignment, 2, err), -EINVAL);
		CU_ASSERT(tc_has_all(err, cases[i].words));
		/* A failed override leaves the document as it was. */
		a = cfg_get(cfg_doc_root(doc), "a");
		CU_ASSERT_EQUAL(a->n, 3);
		CU_ASSERT_STRING_EQUAL(cfg_get(a, "b")->str, "1");
		CU_ASSERT_EQUAL(cfg_get(a, "l")->n, 2);
		cfg_doc_free(doc);
	}
}

/* A params struct and tables for the schema walker tests. */
struct tcfg_params {
	uint32_t width_bytes; /* "width" */
	bool on;              /* "inner.on" */
	uint64_t wait_ps;     /* "inner.wait" */
};

static const struct cfg_key tcfg_inner_keys[] = {
	{ "on", CFG_KEY_BOOL, "true", .off = offsetof(struct tcfg_params, on), .doc = "on" },
	{ "wait", CFG_KEY_TIME, "2us", .off = offsetof(struct tcfg_params, wait_ps), .doc = "wait" },
};
static const struct cfg_table tcfg_inner = {
	.section = "t.inner", .keys = tcfg_inner_keys, .n_keys = 2,
};
static const struct cfg_sub tcfg_inner_subs[] = { { &tcfg_inner, 0 }, { NULL, 0 } };
static const struct cfg_key tcfg_keys[] = {
	{ "width", CFG_KEY_SIZE, "4KiB", .off = offsetof(struct tcfg_params, width_bytes), .size = 4,
	  .min = 1, .max = 1 << 20, .doc = "width" },
	{ "inner", CFG_KEY_SECTION, "{}", .subs = tcfg_inner_subs, .what = "inner", .doc = "inner" },
	{ "added", CFG_KEY_ANY, .doc = "a key added to the table" },
};
static const struct cfg_table tcfg_table = { .section = "t", .keys = tcfg_keys, .n_keys = 3 };

/* The walker: defaults filled in (and read by the typed readers), unknown
 * keys refused, and every key of a table, nested ones too, in the names. */
static void test_cfg_schema(void)
{
	struct cfg_schema_names names = { 0 };
	struct tcfg_params p = { 0 };
	char err[CFG_ERR_BYTES] = "";
	struct cfg_doc *doc = NULL;
	struct cfg_node *t;

	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("x.yaml", "t: {inner: {wait: 5ns}}\n", &doc, err), 0);
	t = cfg_schema_get(cfg_doc_root(doc), "t");
	CU_ASSERT_EQUAL(cfg_schema_read(doc, t, "t", &(struct cfg_bind){ &tcfg_table, &p }, 1, err), 0);
	CU_ASSERT_EQUAL(p.width_bytes, 4096);
	CU_ASSERT_TRUE(p.on);
	CU_ASSERT_EQUAL(p.wait_ps, 5000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg_get(t, "width"));
	CU_ASSERT_TRUE(cfg_get(t, "width")->dflt);
	CU_ASSERT_EQUAL(cfg_get(t, "width")->mark.line, 1); /* at its map */
	CU_ASSERT_EQUAL(cfg_get(t, "width")->mark.col, 4);
	CU_ASSERT_FALSE(cfg_get(cfg_get(t, "inner"), "wait")->dflt);
	CU_ASSERT_PTR_NULL(cfg_get(t, "added")); /* no default: stays absent */
	cfg_doc_free(doc);

	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("x.yaml", "t: {widht: 1KiB}\n", &doc, err), 0);
	t = cfg_schema_get(cfg_doc_root(doc), "t");
	CU_ASSERT_NOT_EQUAL(cfg_schema_read(doc, t, "t", &(struct cfg_bind){ &tcfg_table, &p }, 1, err), 0);
	CU_ASSERT_STRING_EQUAL(err, "x.yaml:1:5: unknown key 'widht' (did you mean 'width'?)");
	cfg_doc_free(doc);

	CU_ASSERT_EQUAL_FATAL(cfg_schema_names_add(&names, &tcfg_table), 0);
	CU_ASSERT_EQUAL(names.n, 5);
	CU_ASSERT(cfg_schema_names_find(&names, "t.width") >= 0);
	CU_ASSERT(cfg_schema_names_find(&names, "t.inner") >= 0);
	CU_ASSERT(cfg_schema_names_find(&names, "t.inner.on") >= 0);
	CU_ASSERT(cfg_schema_names_find(&names, "t.inner.wait") >= 0);
	CU_ASSERT(cfg_schema_names_find(&names, "t.added") >= 0);
	CU_ASSERT_EQUAL(cfg_schema_names_add(&names, &tcfg_table), 0); /* no repeats */
	CU_ASSERT_EQUAL(names.n, 5);
	cfg_schema_names_free(&names);
}

/* cfg_doc_write: what it writes loads back to the same tree. */
static void test_cfg_write(void)
{
	static const char text[] = "a: {b: [1, \"x: y\", ~], c: \"~\"}\nd: [{e: 1us}]\nf: '>='\n";
	char err[CFG_ERR_BYTES] = "", *buf = NULL;
	struct cfg_doc *doc = NULL, *back = NULL;
	const struct cfg_node *r;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("x.yaml", text, &doc, err), 0);
	CU_ASSERT_EQUAL(cfg_doc_write(doc, f, err), 0);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("y.yaml", buf, &back, err), 0);
	r = cfg_doc_root(back);
	CU_ASSERT_STRING_EQUAL(cfg_get(cfg_get(r, "a"), "b")->items[1]->str, "x: y");
	CU_ASSERT_EQUAL(cfg_get(cfg_get(r, "a"), "b")->items[2]->type, CFG_NULL);
	CU_ASSERT_EQUAL(cfg_get(cfg_get(r, "a"), "c")->type, CFG_SCALAR); /* quoted: text */
	CU_ASSERT_STRING_EQUAL(cfg_get(cfg_get(r, "d")->items[0], "e")->str, "1us");
	CU_ASSERT_STRING_EQUAL(cfg_get(r, "f")->str, ">=");
	cfg_doc_free(doc);
	cfg_doc_free(back);
	free(buf);
}

int test_cfg_register(void)
{
	static const struct test_case tests[] = {
		{ "tree and marks", test_cfg_tree },
		{ "aliases", test_cfg_aliases },
		{ "load errors", test_cfg_load_errors },
		{ "load limits", test_cfg_load_limits },
		{ "load file", test_cfg_load_file },
		{ "typed readers accept", test_cfg_read_good },
		{ "typed readers reject", test_cfg_read_bad },
		{ "keys and types", test_cfg_keys },
		{ "nearest", test_cfg_nearest },
		{ "errorf", test_cfg_errorf },
		{ "set", test_cfg_set },
		{ "set errors", test_cfg_set_errors },
		{ "schema walker and names", test_cfg_schema },
		{ "write back", test_cfg_write },
	};

	return test_suite("cfg", tests);
}
