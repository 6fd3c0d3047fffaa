/* The generic registry of kinds (core/reg.c): built-in kinds taken in
 * on first use, kinds added through reg_add, refusals of bad kinds, names
 * and "did you mean", and per-kind settings sections laid out in one
 * block. Expectations are the contract of reg.h. */
#include <errno.h>
#include <string.h>

#include "reg.h"
#include "test.h"

struct tr_settings {
	uint32_t depth; /* a toy setting */
	bool on;        /* another */
};

static const struct cfg_key tr_keys[] = {
	{ "depth", CFG_KEY_UINT, "7", .off = offsetof(struct tr_settings, depth),
	  .size = sizeof(uint32_t), .min = 1, .max = 100, .doc = "a depth" },
	{ "on", CFG_KEY_BOOL, "true", .off = offsetof(struct tr_settings, on), .doc = "a switch" },
};
static const struct cfg_table tr_table = { .section = "toy.alpha", .keys = tr_keys, .n_keys = 2 };

/* A mechanism's ops: reg_kind first. */
struct tr_ops {
	struct reg_kind kind;
	int (*fn)(void);
};

static int tr_one(void) { return 1; }

static const struct tr_ops tr_alpha = { { "alpha", "the first toy", &tr_table,
					  sizeof(struct tr_settings) }, tr_one };
static const struct tr_ops tr_beta = { { "beta", "the second toy", NULL, 0 }, tr_one };
static const struct tr_ops tr_gamma = { { "gamma", "an added toy", &tr_table,
					  sizeof(struct tr_settings) }, tr_one };
static const struct tr_ops tr_nofn = { { "nofn", "no function", NULL, 0 }, NULL };

static const struct reg_kind *const tr_builtin[] = { &tr_alpha.kind, &tr_beta.kind, NULL };

static int tr_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	if (!REG_OPS(struct tr_ops, k)->fn) {
		snprintf(err, CFG_ERR_BYTES, "toy '%s': no fn", k->name);
		return -EINVAL;
	}
	return 0;
}

static void test_reg_builtin_and_add(void)
{
	struct reg r = REG_INIT("toy", tr_builtin, tr_check);
	char err[CFG_ERR_BYTES], buf[64];

	CU_ASSERT_EQUAL(reg_count(&r), 2);
	CU_ASSERT_PTR_EQUAL(reg_find(&r, "beta"), &tr_beta.kind);
	CU_ASSERT_PTR_NULL(reg_find(&r, "gamma"));
	CU_ASSERT_EQUAL(reg_add(&r, &tr_gamma.kind, err), 0);
	CU_ASSERT_EQUAL(reg_count(&r), 3);
	CU_ASSERT_EQUAL(reg_index(&r, &tr_gamma.kind), 2);
	CU_ASSERT_STRING_EQUAL(reg_names(&r)[2], "gamma");
	CU_ASSERT_PTR_NULL(reg_names(&r)[3]);
	CU_ASSERT_PTR_EQUAL(REG_OPS(struct tr_ops, reg_at(&r, 0)), &tr_alpha);
	CU_ASSERT_STRING_EQUAL(reg_list(&r, buf, sizeof(buf)), "alpha, beta, gamma");
	CU_ASSERT_STRING_EQUAL(reg_list(&r, buf, 12), "alpha, b...");
}

static void test_reg_refusals(void)
{
	struct reg r = REG_INIT("toy", tr_builtin, tr_check);
	struct tr_ops unnamed = { { "", "x", NULL, 0 }, tr_one };
	struct tr_ops sizeless = { { "s", "x", &tr_table, 0 }, tr_one };
	char err[CFG_ERR_BYTES];

	CU_ASSERT_EQUAL(reg_add(&r, &tr_alpha.kind, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "the name is taken"));
	CU_ASSERT_EQUAL(reg_add(&r, &unnamed.kind, err), -EINVAL);
	CU_ASSERT_EQUAL(reg_add(&r, &sizeless.kind, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "settings"));
	CU_ASSERT_EQUAL(reg_add(&r, &tr_nofn.kind, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "toy 'nofn': no fn");
	CU_ASSERT_EQUAL(reg_count(&r), 2);
}

static void test_reg_read_did_you_mean(void)
{
	struct reg r = REG_INIT("toy", tr_builtin, tr_check);
	const struct reg_kind *k = NULL;
	struct cfg_doc *doc;
	char err[CFG_ERR_BYTES];

	CU_ASSERT_FATAL(cfg_doc_load_string("t.yaml", "[beta, alpah]", &doc, err) == 0);
	CU_ASSERT_EQUAL(reg_read(&r, cfg_doc_root(doc)->items[0], &k, err), 0);
	CU_ASSERT_PTR_EQUAL(k, &tr_beta.kind);
	CU_ASSERT_EQUAL(reg_read(&r, cfg_doc_root(doc)->items[1], &k, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "t.yaml:1:8: unknown value 'alpah' (did you mean 'alpha'?"));
	cfg_doc_free(doc);
}

static void test_reg_settings_block(void)
{
	struct reg r = REG_INIT("toy", tr_builtin, tr_check);
	struct cfg_doc *doc;
	struct cfg_bind b;
	const struct tr_settings *s;
	char err[CFG_ERR_BYTES];
	void *block;

	r.section = "toy";
	CU_ASSERT_EQUAL(reg_add(&r, &tr_gamma.kind, err), 0);
	CU_ASSERT_EQUAL(reg_settings_table(&r)->n_keys, 2); /* alpha and gamma; beta has none */
	block = reg_block_new(&r);
	CU_ASSERT_FATAL(block != NULL);
	CU_ASSERT_FATAL(cfg_doc_load_string("t.yaml", "{gamma: {depth: 9}}", &doc, err) == 0);
	b = (struct cfg_bind){ reg_settings_table(&r), block };
	CU_ASSERT_EQUAL(cfg_schema_read(doc, cfg_doc_root(doc), "toy", &b, 1, err), 0);
	s = reg_block_get(&r, block, &tr_gamma.kind);
	CU_ASSERT_EQUAL(s->depth, 9);
	CU_ASSERT(s->on);
	/* alpha's section is absent: filled in with its defaults on demand */
	CU_ASSERT_EQUAL(reg_block_fill(&r, doc, cfg_doc_root(doc), "toy", block, &tr_alpha.kind,
				       err), 0);
	s = reg_block_get(&r, block, &tr_alpha.kind);
	CU_ASSERT_EQUAL(s->depth, 7);
	CU_ASSERT_PTR_NULL(reg_block_get(&r, block, &tr_beta.kind));
	cfg_doc_free(doc);
	CU_ASSERT_FATAL(cfg_doc_load_string("t.yaml", "{gamma: {depth: 0}}", &doc, err) == 0);
	CU_ASSERT_EQUAL(cfg_schema_read(doc, cfg_doc_root(doc), "toy", &b, 1, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "t.yaml:1:17:")); /* at the 0 */
	cfg_doc_free(doc);
	reg_block_free(block);
}

static void test_reg_settings_defaults(void)
{
	struct tr_settings s = { 0, false };
	char err[CFG_ERR_BYTES];

	CU_ASSERT_EQUAL(reg_settings_defaults(&tr_alpha.kind, &s, err), 0);
	CU_ASSERT_EQUAL(s.depth, 7);
	CU_ASSERT(s.on);
	CU_ASSERT_EQUAL(reg_settings_defaults(&tr_beta.kind, &s, err), 0);
}

int test_reg_register(void)
{
	static const struct test_case tests[] = {
		{ "builtin and added kinds", test_reg_builtin_and_add },
		{ "bad kinds are refused", test_reg_refusals },
		{ "names read with did you mean", test_reg_read_did_you_mean },
		{ "settings sections in one block", test_reg_settings_block },
		{ "settings defaults", test_reg_settings_defaults },
	};

	return test_suite("reg", tests);
}
