/* The random failure processes (failures:, run/exp_faults.c) against
 * renewal theory, and the fault schedule's determinism: with up times
 * exponential of mean M and repairs exponential of mean R, a component
 * over a span T fails about T / (M + R) times (the renewal count; here T
 * is 50 cycles, so the mean of N components' counts is within a few
 * percent of it); the repairs average R; the same seed gives the same
 * schedule, another seed another; one kind's process leaves the other
 * kinds' failures as they were (each component draws its own stream). And
 * docs/config.md names every built-in fault kind and link layer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp.h"
#include "fault.h"
#include "link_layer.h"
#include "test.h"

static struct exp *tf_load(const char *failures, uint64_t seed)
{
	char text[1024], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	snprintf(text, sizeof(text),
		 "seed: %llu\ntopology: {kind: fat-tree, k: 8}\ntraffic: []\nfailures: %s\n",
		 (unsigned long long)seed, failures);
	if (exp_load_string("x.yaml", text, NULL, 0, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return NULL;
	}
	return e;
}

static uint32_t tf_count(const struct exp *e, const struct fault_ops *kind, double *mean_dur_ps)
{
	uint32_t n = 0;
	double sum = 0;

	for (uint32_t i = 0; i < e->n_faults; i++)
		if (e->faults[i].ops == kind) {
			n++;
			sum += (double)e->faults[i].duration_ps;
		}
	if (mean_dur_ps)
		*mean_dur_ps = n ? sum / n : 0;
	return n;
}

static void test_faults_renewal(void)
{
	/* k=8 fat-tree: 128 hosts, 80 switches, 384 links. T = 50 x (M + R). */
	struct exp *e = tf_load("{until: 510ms, link: {mtbf: 10ms, mttr: 200us}, "
				"nic: {mtbf: 5ms, mttr: 100us}}", 1);
	double dur, expect;
	uint32_t links, nics;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->topo->n_links, 384);
	links = tf_count(e, &fault_link_down, &dur);
	expect = 384 * 510.0 / 10.2;
	CU_ASSERT(fabs(links / expect - 1) < 0.05);
	CU_ASSERT(fabs(dur / 200e6 - 1) < 0.05);
	nics = tf_count(e, &fault_nic_down, &dur);
	expect = 128 * 510.0 / 5.1;
	CU_ASSERT(fabs(nics / expect - 1) < 0.05);
	CU_ASSERT(fabs(dur / 100e6 - 1) < 0.05);
	CU_ASSERT_EQUAL(tf_count(e, &fault_switch_down, NULL), 0);
	/* Every failure lies inside the span, one port (link) or every port
	 * of its host (NIC). */
	for (uint32_t i = 0; i < e->n_faults; i++) {
		CU_ASSERT(e->faults[i].at_ps < UINT64_C(510000000000));
		CU_ASSERT(e->faults[i].n_ports >= 1);
	}
	exp_free(e);
}

static void test_faults_streams(void)
{
	const char *both = "{until: 100ms, link: {mtbf: 10ms, mttr: 1ms}, switch: {mtbf: 20ms, mttr: 1ms}}";
	struct exp *a = tf_load(both, 7), *b = tf_load(both, 7), *c = tf_load(both, 8),
		   *d = tf_load("{until: 100ms, link: {mtbf: 10ms, mttr: 1ms}}", 7);
	uint32_t same = 1, k = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(a->n_faults, b->n_faults);
	for (uint32_t i = 0; i < a->n_faults && i < b->n_faults; i++)
		CU_ASSERT(a->faults[i].at_ps == b->faults[i].at_ps &&
			  a->faults[i].duration_ps == b->faults[i].duration_ps &&
			  a->faults[i].ports[0].node == b->faults[i].ports[0].node);
	for (uint32_t i = 0; i < a->n_faults && i < c->n_faults; i++)
		same = same && a->faults[i].at_ps == c->faults[i].at_ps;
	CU_ASSERT_FALSE(same);
	/* Without the switches' process, the links fail exactly as before. */
	CU_ASSERT_EQUAL(tf_count(d, &fault_link_down, NULL), tf_count(a, &fault_link_down, NULL));
	for (uint32_t i = 0; i < a->n_faults; i++) {
		if (a->faults[i].ops != &fault_link_down)
			continue;
		CU_ASSERT_EQUAL(a->faults[i].at_ps, d->faults[k].at_ps);
		k++;
	}
	exp_free(a);
	exp_free(b);
	exp_free(c);
	exp_free(d);
}

/* docs/config.md's row of @key (from "| `KEY` |" to the end of its line)
 * names every built-in kind of @r as `name`. */
static void tf_docs_row(const char *doc, const char *key, struct reg *r)
{
	char want[96], row[128];
	const char *p, *end;

	snprintf(row, sizeof(row), "| `%s` |", key);
	p = strstr(doc, row);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	end = strchr(p, '\n');
	for (const struct reg_kind *const *k = r->builtin; *k; k++) {
		const char *w;

		snprintf(want, sizeof(want), "`%s`", (*k)->name);
		w = strstr(p, want);
		if (!w || (end && w > end)) {
			fprintf(stderr, "\n  docs/config.md's %s row does not name %s\n", key, want);
			CU_FAIL("a built-in kind missing from its docs row");
		}
	}
}

/* The docs' lists of fault kinds and link layers name every built-in one. */
static void test_faults_docs(void)
{
	FILE *f = fopen(FAB_DOCS_DIR "/config.md", "rb");
	char *doc = NULL;
	size_t cap = 0, n = 0, got;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	do {
		if (n + 4096 + 1 > cap) {
			char *v = realloc(doc, cap = 2 * cap + 8192);

			if (!v)
				break;
			doc = v;
		}
		got = fread(doc + n, 1, 4096, f);
		n += got;
	} while (got > 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	doc[n] = '\0';
	tf_docs_row(doc, "faults.kind", fault_reg());
	tf_docs_row(doc, "fabric.link_layer", link_layer_reg());
	free(doc);
}

int test_faults_register(void)
{
	static const struct test_case tests[] = {
		{ "random failures: renewal counts and repair times", test_faults_renewal },
		{ "random failures: seeded, one stream per component", test_faults_streams },
		{ "docs name every built-in fault kind and link layer", test_faults_docs },
	};

	return test_suite("faults", tests);
}
