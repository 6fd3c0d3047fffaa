/* A topology kind added through topo_register alone: "toy-star", one
 * switch with N hosts (`hosts`, `rate`), loaded through topo_from_cfg and
 * the experiment loader; counts, summary, bisection and routes against the
 * star's analytic values, and misspelt names refused with "did you mean". */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_schema.h"
#include "exp.h"
#include "test.h"
#include "topo.h"
#include "topo_kind.h"

#define TOY_G UINT64_C(1000000000) /* bps per Gbps */

/* The toy's settings: what its key table fills. */
struct toy_star_params {
	uint32_t n_hosts;  /* hosts around the hub */
	uint64_t rate_bps; /* every link, each direction */
};

static const struct cfg_key toy_star_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "toy-star" },
	{ "hosts", CFG_KEY_UINT, .required = "an integer, 2..1024",
	  .off = offsetof(struct toy_star_params, n_hosts), .size = 4, .min = 2, .max = 1024,
	  .doc = "hosts on the hub" },
	{ "rate", CFG_KEY_RATE, "100Gbps", .off = offsetof(struct toy_star_params, rate_bps),
	  .min = 1, .doc = "rate of every link" },
};

static const struct cfg_table toy_star_table = {
	.section = "topology",
	.keys = toy_star_keys,
	.n_keys = sizeof(toy_star_keys) / sizeof(toy_star_keys[0]),
	.ordered = true,
};

/* Hosts h0..hN-1 (nodes 0..N-1) on ports 0..N-1 of the switch "hub"
 * (node N); link i is host i's. */
static int toy_star_build(const struct cfg_node *m, const void *params, struct topo **out,
			  char err[CFG_ERR_BYTES])
{
	const struct toy_star_params *p = params;
	struct topo_link_params lp = { p->rate_bps, TOPO_DEFAULT_DELAY_PS };
	struct topo *t = topo_alloc("toy-star", p->n_hosts + 1, p->n_hosts);
	int rc;

	if (t == NULL)
		return topo_build_finish(t, -ENOMEM, out, err);
	rc = topo_build_add_nodes(t, 0, p->n_hosts, "h", TOPO_HOST, 0, 1, &m->mark);
	if (rc == 0)
		rc = topo_set_node(t, p->n_hosts, "hub", TOPO_SWITCH, 1, (uint16_t)p->n_hosts, &m->mark);
	for (uint32_t h = 0; rc == 0 && h < p->n_hosts; h++)
		topo_set_link(t, h, h, 0, p->n_hosts, (uint16_t)h, &lp, &m->mark);
	return topo_build_finish(t, rc, out, err);
}

/* Half the hosts on the far side of the hub: floor(N/2) links. */
static uint64_t toy_star_bisection(const struct topo *t, int *exact)
{
	*exact = 1;
	return (uint64_t)(t->n_hosts / 2) * t->links[0].rate_bps;
}

static const struct topo_kind toy_star = {
	.kind = { "toy-star", "one switch, N hosts", &toy_star_table,
		  sizeof(struct toy_star_params) },
	.named_tiers = true,
	.build = toy_star_build,
	.bisection = toy_star_bisection,
};

/* Kinds topo_register must refuse. */
static const struct cfg_key toy_no_kind_keys[] = {
	{ "hosts", CFG_KEY_UINT, "2", .off = 0, .size = 4, .min = 2, .max = 8, .doc = "hosts" },
};
static const struct cfg_table toy_no_kind_table = { .section = "topology",
						    .keys = toy_no_kind_keys, .n_keys = 1 };
static const struct topo_kind toy_no_build = {
	.kind = { "toy-nobuild", "no build", &toy_star_table, sizeof(struct toy_star_params) },
};
static const struct topo_kind toy_no_kind = {
	.kind = { "toy-nokind", "no kind key", &toy_no_kind_table, sizeof(uint32_t) },
	.build = toy_star_build,
};

static int tot_load(const char *yaml, struct cfg_doc **doc, struct topo **t, char err[CFG_ERR_BYTES])
{
	*t = NULL;
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("t.yaml", yaml, doc, err), 0);
	return topo_from_cfg(*doc, cfg_schema_get(cfg_doc_root(*doc), "topology"), t, err);
}

static char *toy_print(const struct topo *t, void (*fn)(const struct topo *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	fn(t, f);
	fclose(f);
	return buf;
}

/* Unknown until registered; then registered once, refusing the rest. */
static void test_toy_register(void)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc = NULL;
	struct topo *t;

	CU_ASSERT_EQUAL(tot_load("topology: {kind: toy-star, hosts: 4}\n", &doc, &t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "t.yaml:1:18: unknown value 'toy-star' (valid: leaf-spine, "
				    "fat-tree, explicit, rail-optimised, ns3)");
	CU_ASSERT_PTR_NULL(topo_kind_find("toy-star"));
	cfg_doc_free(doc);

	CU_ASSERT_EQUAL(topo_register(&toy_star, err), 0);
	CU_ASSERT_PTR_EQUAL(topo_kind_find("toy-star"), &toy_star);
	CU_ASSERT_EQUAL(topo_register(&toy_star, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "the name is taken"));
	CU_ASSERT_EQUAL(topo_register(&toy_no_build, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "topology kind 'toy-nobuild': no build");
	CU_ASSERT_EQUAL(topo_register(&toy_no_kind, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "topology kind 'toy-nokind': the key table's first key is not 'kind'");

	/* The names and the reference's tables come from the registry. */
	unsigned n = 0;

	while (topo_kind_names()[n])
		n++;
	CU_ASSERT_STRING_EQUAL(topo_kind_names()[n - 1], "toy-star");
	CU_ASSERT_PTR_EQUAL(topo_kind_table(n - 1), &toy_star_table);
	CU_ASSERT_PTR_NULL(topo_kind_table(n));
}

/* A misspelt kind: did you mean, the list ending with the toy; no kind:
 * the list from the registry. */
static void test_toy_misspelt(void)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc = NULL;
	struct topo *t;

	CU_ASSERT_EQUAL(tot_load("topology: {kind: toy-stra, hosts: 4}\n", &doc, &t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "t.yaml:1:18: unknown value 'toy-stra' (did you mean 'toy-star'?; "
				    "valid: leaf-spine, fat-tree, explicit, rail-optimised, ns3, toy-star)");
	cfg_doc_free(doc);
	CU_ASSERT_EQUAL(tot_load("topology: {hosts: 4}\n", &doc, &t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "t.yaml:1:11: topology needs 'kind' (leaf-spine, fat-tree, "
				    "explicit, rail-optimised, ns3, toy-star)");
	cfg_doc_free(doc);
	/* Its own keys are read strictly, with their hints. */
	CU_ASSERT_EQUAL(tot_load("topology: {kind: toy-star, hosts: 4, rat: 1Gbps}\n", &doc, &t, err),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown key 'rat' (did you mean 'rate'?)"));
	cfg_doc_free(doc);
}

/* N hosts, one switch, N links; bisection floor(N/2) x rate both by the
 * kind's closed form and by max-flow; the summary and the drawing. */
static void test_toy_counts_describe(void)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc = NULL;
	struct topo *t;
	char *s;

	if (tot_load("topology: {kind: toy-star, hosts: 8, rate: 200Gbps}\n", &doc, &t, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(t->kind, "toy-star");
	CU_ASSERT_EQUAL(t->n_hosts, 8);
	CU_ASSERT_EQUAL(t->n_switches, 1);
	CU_ASSERT_EQUAL(t->n_links, 8);
	CU_ASSERT_EQUAL(t->n_eps, 8);
	CU_ASSERT_EQUAL(t->links[3].rate_bps, 200 * TOY_G);
	CU_ASSERT_EQUAL(topo_bisection_bps(t), 4 * 200 * TOY_G);
	s = toy_print(t, topo_describe);
	CU_ASSERT_STRING_EQUAL(s, "toy-star: 8 hosts, 1 switches, 8 links\n"
				  "  hub: 1 switches, 8 ports each\n"
				  "links:\n"
				  "  host-hub: 8 x 200Gbps, 1us\n"
				  "oversubscription (downlink:uplink capacity):\n"
				  "bisection bandwidth: 800Gbps (100% of half the host capacity, 800Gbps)\n");
	free(s);
	s = toy_print(t, topo_dot);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "{ rank=max; \"hub\"; }"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"h7\" -- \"hub\" [label=\"200G\"];"));
	free(s);
	/* Measured as a graph of no known kind, max-flow finds the same. */
	t->kind = "explicit";
	CU_ASSERT_EQUAL(topo_bisection_bps(t), 4 * 200 * TOY_G);
	t->kind = "toy-star";
	topo_free(t);
	cfg_doc_free(doc);

	/* Odd N: the smaller half, 3 of 7. */
	CU_ASSERT_EQUAL_FATAL(tot_load("topology: {kind: toy-star, hosts: 7}\n", &doc, &t, err), 0);
	CU_ASSERT_EQUAL(topo_bisection_bps(t), 3 * 100 * TOY_G);
	topo_free(t);
	cfg_doc_free(doc);
}

/* Every host pair is one switch hop apart: the path is the source's link
 * then the destination's, through the hub's port for the destination. */
static void test_toy_routes(void)
{
	enum { N = 6 };
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc = NULL;
	struct topo_routes *r = NULL;
	struct topo *t;
	uint32_t links[4];
	uint16_t ports[4];
	int hub;

	CU_ASSERT_EQUAL_FATAL(tot_load("topology: {kind: toy-star, hosts: 6}\n", &doc, &t, err), 0);
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	hub = topo_find(t, "hub");
	CU_ASSERT_EQUAL_FATAL(hub, N);
	for (uint32_t dst = 0; dst < N; dst++) {
		CU_ASSERT_EQUAL(topo_route_hops(r, (uint32_t)hub, dst), 1);
		CU_ASSERT_EQUAL(topo_route_ports(r, (uint32_t)hub, dst, ports, 4), 1);
		CU_ASSERT_EQUAL(ports[0], dst);
		for (uint32_t src = 0; src < N; src++) {
			if (src == dst)
				continue;
			CU_ASSERT_EQUAL(topo_route_hops(r, t->eps[src].node, dst), 2);
			CU_ASSERT_EQUAL(topo_path(r, t, src, dst, links, 4), 2);
			CU_ASSERT(links[0] == src && links[1] == dst);
		}
	}
	topo_routes_free(r);
	topo_free(t);
	cfg_doc_free(doc);
}

/* The experiment loader takes the toy as any kind: its defaults filled
 * into the experiment, its hosts named by traffic. */
static void test_toy_experiment(void)
{
	static const char text[] =
		"topology: {kind: toy-star, hosts: 4}\n"
		"traffic: [{kind: messages, messages: [{src: h0, dst: h3, size: 4KiB}]}]\n";
	char err[CFG_ERR_BYTES];
	struct exp *e = NULL;

	if (exp_load_string("x.yaml", text, NULL, 0, &e, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e->topo->kind, "toy-star");
	CU_ASSERT_EQUAL(e->topo->n_hosts, 4);
	CU_ASSERT_EQUAL(e->topo->links[0].rate_bps, 100 * TOY_G);
	exp_free(e);
	e = NULL;
	CU_ASSERT_EQUAL(exp_load_string("x.yaml", "topology: {kind: toy-star, hosts: 1}\ntraffic: []\n",
					NULL, 0, &e, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "x.yaml:1:35: 1 is below the minimum 2");
	exp_free(e);
}

int test_toy_topo_register(void)
{
	CU_pSuite s = CU_add_suite("toy topology kind", NULL, NULL);

	if (s == NULL)
		return -1;
	CU_add_test(s, "refused, then registered", test_toy_register);
	CU_add_test(s, "misspelt kinds and keys", test_toy_misspelt);
	CU_add_test(s, "counts, bisection, summary", test_toy_counts_describe);
	CU_add_test(s, "one switch hop between hosts", test_toy_routes);
	CU_add_test(s, "through the experiment loader", test_toy_experiment);
	return 0;
}
