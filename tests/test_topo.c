/* Unit tests for topologies/: builder counts and wiring (leaf-spine, k-ary
 * fat-trees of 2 and 3 tiers, explicit, ns-3 topology files), port use, the connectivity check,
 * ECMP forwarding tables, bisection bandwidth against analytic values, the
 * summary and dot output, and every class of bad input with its
 * FILE:LINE:COL (rail-optimised's too; its other tests are in
 * test_topo_rail.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "cfg_schema.h"
#include "topo.h"
#include "topo_int.h"

#define G UINT64_C(1000000000) /* bps per Gbps */

static const struct cfg_mark no_mark = { 0 };

static struct topo *leaf_spine(uint32_t leaves, uint32_t spines, uint32_t per_leaf,
			       uint32_t per_spine, uint64_t host_bps, uint64_t fabric_bps)
{
	struct topo_leaf_spine_params p = {
		.n_leaves = leaves, .n_spines = spines, .hosts_per_leaf = per_leaf,
		.links_per_spine = per_spine,
		.host_link = { .rate_bps = host_bps, .delay_ps = 1000000 },
		.fabric_link = { .rate_bps = fabric_bps, .delay_ps = 1000000 },
	};
	char err[CFG_ERR_BYTES];
	struct topo *t = NULL;

	CU_ASSERT_EQUAL_FATAL(topo_build_leaf_spine(&p, &no_mark, &t, err), 0);
	return t;
}

static struct topo *fat_tree(uint32_t k, uint32_t tiers, uint64_t host_bps, uint64_t fabric_bps)
{
	struct topo_fat_tree_params p = {
		.k = k, .n_tiers = tiers,
		.host_link = { .rate_bps = host_bps, .delay_ps = 1000000 },
		.fabric_link = { .rate_bps = fabric_bps, .delay_ps = 1000000 },
	};
	char err[CFG_ERR_BYTES];
	struct topo *t = NULL;

	CU_ASSERT_EQUAL_FATAL(topo_build_fat_tree(&p, &no_mark, &t, err), 0);
	return t;
}

/* Every link is recorded on both its ports, and nothing else is. */
static void assert_ports_once(const struct topo *t)
{
	uint64_t used = 0;
	char err[CFG_ERR_BYTES];

	for (uint32_t n = 0; n < t->n_nodes; n++)
		for (uint16_t p = 0; p < t->nodes[n].n_ports; p++)
			used += t->nodes[n].port_links[p] != TOPO_NO_LINK;
	CU_ASSERT_EQUAL(used, 2 * (uint64_t)t->n_links);
	for (uint32_t l = 0; l < t->n_links; l++)
		for (int e = 0; e < 2; e++)
			CU_ASSERT_EQUAL(t->nodes[t->links[l].node[e]].port_links[t->links[l].port[e]], l);
	CU_ASSERT_EQUAL(topo_check(t, err), 0);
}

static uint32_t node(const struct topo *t, const char *name)
{
	int i = topo_find(t, name);

	CU_ASSERT_FATAL(i >= 0);
	return (uint32_t)i;
}

static int peer_is(const struct topo *t, const char *a, uint16_t port, const char *b)
{
	return topo_peer(t, node(t, a), port) == node(t, b);
}

static void test_topo_leaf_spine(void)
{
	struct topo *t = leaf_spine(4, 2, 8, 1, 100 * G, 100 * G);

	CU_ASSERT_STRING_EQUAL(t->kind, "leaf-spine");
	CU_ASSERT_EQUAL(t->n_hosts, 32);
	CU_ASSERT_EQUAL(t->n_switches, 6);
	CU_ASSERT_EQUAL(t->n_links, 32 + 4 * 2);
	CU_ASSERT_EQUAL(t->nodes[node(t, "leaf0")].n_ports, 8 + 2);
	CU_ASSERT_EQUAL(t->nodes[node(t, "spine1")].n_ports, 4);
	CU_ASSERT_EQUAL(t->nodes[node(t, "leaf3")].tier, 1);
	CU_ASSERT_EQUAL(t->nodes[node(t, "spine1")].index, 5);
	CU_ASSERT_EQUAL(topo_find(t, "leaf4"), -1);
	CU_ASSERT(peer_is(t, "leaf0", 0, "h0"));
	CU_ASSERT(peer_is(t, "leaf1", 7, "h15"));
	CU_ASSERT(peer_is(t, "leaf0", 8, "spine0"));
	CU_ASSERT(peer_is(t, "leaf0", 9, "spine1"));
	CU_ASSERT(peer_is(t, "spine1", 3, "leaf3"));
	CU_ASSERT(peer_is(t, "h9", 0, "leaf1"));
	assert_ports_once(t);
	topo_free(t);

	/* Parallel links: spine-major up-ports. */
	t = leaf_spine(3, 2, 2, 2, 100 * G, 100 * G);
	CU_ASSERT_EQUAL(t->n_links, 6 + 3 * 2 * 2);
	CU_ASSERT_EQUAL(t->nodes[node(t, "leaf0")].n_ports, 2 + 4);
	CU_ASSERT_EQUAL(t->nodes[node(t, "spine0")].n_ports, 6);
	CU_ASSERT(peer_is(t, "leaf2", 3, "spine0"));
	CU_ASSERT(peer_is(t, "leaf2", 4, "spine1"));
	CU_ASSERT(peer_is(t, "spine1", 5, "leaf2"));
	assert_ports_once(t);
	topo_free(t);
	topo_free(NULL);
}

static void test_topo_fat_tree(void)
{
	static const struct {
		uint32_t k, tiers, hosts, switches, links;
	} cases[] = {
		/* 3 tiers: k^3/4 hosts, k^2/2 edge + k^2/2 agg + k^2/4 core, 3 k^3/4 links */
		{ 4, 3, 16, 8 + 8 + 4, 48 },
		{ 8, 3, 128, 32 + 32 + 16, 384 },
		/* 2 tiers: k^2/2 hosts, k edge + k/2 spine, k^2/2 + k^2/2 links */
		{ 4, 2, 8, 4 + 2, 16 },
		{ 8, 2, 32, 8 + 4, 64 },
		{ 2, 3, 2, 2 + 2 + 1, 6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topo *t = fat_tree(cases[i].k, cases[i].tiers, 100 * G, 100 * G);

		CU_ASSERT_EQUAL(t->n_hosts, cases[i].hosts);
		CU_ASSERT_EQUAL(t->n_switches, cases[i].switches);
		CU_ASSERT_EQUAL(t->n_links, cases[i].links);
		for (uint32_t s = 0; s < t->n_switches; s++)
			CU_ASSERT_EQUAL(t->nodes[t->switches[s]].n_ports, cases[i].k);
		assert_ports_once(t);
		topo_free(t);
	}

	/* Al-Fares wiring, k = 4: pod 1 holds edge2, edge3, agg2, agg3; agg j of
	 * a pod reaches cores 2j, 2j+1; core c port q goes to pod q. */
	struct topo *t = fat_tree(4, 3, 100 * G, 100 * G);

	CU_ASSERT(peer_is(t, "edge0", 0, "h0"));
	CU_ASSERT(peer_is(t, "edge3", 1, "h7"));
	CU_ASSERT(peer_is(t, "edge3", 2, "agg2"));
	CU_ASSERT(peer_is(t, "edge3", 3, "agg3"));
	CU_ASSERT(peer_is(t, "agg3", 0, "edge2"));
	CU_ASSERT(peer_is(t, "agg1", 2, "core2"));
	CU_ASSERT(peer_is(t, "agg1", 3, "core3"));
	CU_ASSERT(peer_is(t, "agg6", 2, "core0"));
	CU_ASSERT(peer_is(t, "core3", 2, "agg5"));
	CU_ASSERT_EQUAL(t->nodes[node(t, "core3")].tier, 3);
	topo_free(t);

	t = fat_tree(4, 2, 100 * G, 100 * G);
	CU_ASSERT(peer_is(t, "edge3", 1, "h7"));
	CU_ASSERT(peer_is(t, "edge3", 3, "spine1"));
	CU_ASSERT(peer_is(t, "spine0", 2, "edge2"));
	topo_free(t);
}

static const uint16_t *route(const struct topo_routes *r, uint32_t n, uint32_t h, uint32_t *count)
{
	static uint16_t ports[256];

	*count = topo_route_ports(r, n, h, ports, 256);
	CU_ASSERT_FATAL(*count <= 256);
	return ports;
}

/* The endpoint of port 0 of host @name (its only one, in most tests). */
static uint32_t host(const struct topo *t, const char *name)
{
	return t->nodes[node(t, name)].first_ep;
}

static void test_topo_routes_fat_tree(void)
{
	struct topo *t = fat_tree(4, 3, 100 * G, 100 * G);
	struct topo_routes *r = NULL;
	char err[CFG_ERR_BYTES];
	const uint16_t *ports;
	uint32_t n;

	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	CU_ASSERT_EQUAL(r->n_nodes, t->n_nodes);
	CU_ASSERT_EQUAL(r->n_eps, 16);
	/* edge0 toward a remote-pod host: both uplinks; toward its own host: one. */
	ports = route(r, node(t, "edge0"), host(t, "h15"), &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT(ports[0] == 2 && ports[1] == 3);
	ports = route(r, node(t, "edge0"), host(t, "h1"), &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(ports[0], 1);
	/* Same pod, other edge: up through both aggs. */
	route(r, node(t, "edge0"), host(t, "h2"), &n);
	CU_ASSERT_EQUAL(n, 2);
	/* agg: one port down inside its pod, both cores toward other pods. */
	ports = route(r, node(t, "agg0"), host(t, "h2"), &n);
	CU_ASSERT(n == 1 && ports[0] == 1);
	route(r, node(t, "agg0"), host(t, "h8"), &n);
	CU_ASSERT_EQUAL(n, 2);
	/* A core has exactly one way to any host: the port of its pod. */
	for (uint32_t c = 0; c < 4; c++) {
		for (uint32_t h = 0; h < t->n_hosts; h++) {
			ports = route(r, t->switches[16 + c], h, &n);
			CU_ASSERT_EQUAL(n, 1);
			CU_ASSERT_EQUAL(ports[0], h / 4);
		}
	}
	/* Hop counts host to host: same edge 2, same pod 4, other pod 6. */
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "h0"), host(t, "h0")), 0);
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "h0"), host(t, "h1")), 2);
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "h0"), host(t, "h3")), 4);
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "h0"), host(t, "h12")), 6);
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "core0"), host(t, "h12")), 3);
	/* One destination class per edge switch. */
	CU_ASSERT_EQUAL(r->n_classes, 8);
	CU_ASSERT_EQUAL(r->ep_class[host(t, "h0")], r->ep_class[host(t, "h1")]);
	CU_ASSERT_NOT_EQUAL(r->ep_class[host(t, "h1")], r->ep_class[host(t, "h2")]);
	route(r, node(t, "h5"), host(t, "h5"), &n);
	CU_ASSERT_EQUAL(n, 0);
	/* Everywhere: ascending ports, each one hop closer. */
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		for (uint32_t h = 0; h < t->n_hosts; h++) {
			uint32_t d = topo_route_hops(r, i, h);

			ports = route(r, i, h, &n);
			CU_ASSERT_EQUAL(n == 0, d == 0);
			for (uint32_t j = 0; j < n; j++) {
				uint32_t m = topo_peer(t, i, ports[j]);

				CU_ASSERT(j == 0 || ports[j] > ports[j - 1]);
				CU_ASSERT_EQUAL(topo_route_hops(r, m, h), d - 1);
			}
		}
	}
	topo_routes_free(r);
	topo_routes_free(NULL);
	topo_free(t);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* k=16: 1344 nodes x 1024 hosts; well under a second unoptimised. The bound
 * asserted here is loose (sanitizers) and only catches a blow-up. */
static void test_topo_routes_scale(void)
{
	struct topo *t = fat_tree(16, 3, 100 * G, 100 * G);
	struct topo_routes *r = NULL;
	char err[CFG_ERR_BYTES];
	double start = now_s();
	uint32_t n;

	CU_ASSERT_EQUAL(t->n_nodes, 1344);
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	CU_ASSERT(now_s() - start < 5.0);
	/* Edge toward a remote pod: all 8 uplinks; core toward anything: 1. */
	route(r, t->switches[0], 1023, &n);
	CU_ASSERT_EQUAL(n, 8);
	route(r, t->switches[t->n_switches - 1], 0, &n);
	CU_ASSERT_EQUAL(n, 1);
	topo_routes_free(r);
	topo_free(t);
}

/* Explicit graphs built in code: h0 - s0 - h1 and, when @island, h2 - s1. */
static struct topo *small_graph(int island, int dangling)
{
	static const struct topo_link_params lp = { .rate_bps = 100 * G, .delay_ps = 1000000 };
	uint32_t n_nodes = 3 + (island ? 2 : 0) + (dangling ? 1 : 0);
	struct topo *t = topo_alloc("explicit", n_nodes, island ? 3 : 2);
	uint32_t i = 0;

	CU_ASSERT_FATAL(t != NULL);
	topo_set_node(t, i++, "h0", TOPO_HOST, 0, 1, &no_mark);
	topo_set_node(t, i++, "h1", TOPO_HOST, 0, 1, &no_mark);
	topo_set_node(t, i++, "s0", TOPO_SWITCH, 1, 4, &no_mark);
	topo_set_link(t, 0, 0, 0, 2, 0, &lp, &no_mark);
	topo_set_link(t, 1, 1, 0, 2, 1, &lp, &no_mark);
	if (island) {
		topo_set_node(t, i++, "h2", TOPO_HOST, 0, 1, &no_mark);
		topo_set_node(t, i++, "s1", TOPO_SWITCH, 1, 4, &no_mark);
		topo_set_link(t, 2, 3, 0, 4, 0, &lp, &no_mark);
	}
	if (dangling)
		topo_set_node(t, i++, "h9", TOPO_HOST, 0, 1, &no_mark);
	CU_ASSERT_EQUAL(topo_index(t), 0);
	return t;
}

static void test_topo_check(void)
{
	char err[CFG_ERR_BYTES];
	struct topo *t = small_graph(0, 0);

	CU_ASSERT_EQUAL(topo_check(t, err), 0);
	/* The same port taken by a second link. */
	t->links[1].port[1] = 0;
	t->nodes[2].port_links[0] = 1;
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "port s0:0 is used by more than one link"));
	topo_free(t);

	t = small_graph(0, 0);
	t->links[1].port[1] = 9;
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "port 9 out of range (s0 has 4 ports)"));
	t->links[1].port[1] = 1;
	t->links[1].node[0] = 2;
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "connects s0 to itself"));
	topo_free(t);

	t = small_graph(1, 0);
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "topology is disconnected: h2 cannot reach h0");
	topo_free(t);

	t = small_graph(0, 1);
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "host h9 has no link");
	topo_free(t);
}

/* h0 homed on s0 and s1, h1 on s0, h2 on s1; with @bridge, s0 - s2 - s1. */
static struct topo *dual_homed(int bridge)
{
	static const struct topo_link_params lp = { .rate_bps = 100 * G, .delay_ps = 1000000 };
	struct topo *t = topo_alloc("explicit", bridge ? 6 : 5, bridge ? 6 : 4);

	CU_ASSERT_FATAL(t != NULL);
	topo_set_node(t, 0, "h0", TOPO_HOST, 0, 2, &no_mark);
	topo_set_node(t, 1, "h1", TOPO_HOST, 0, 1, &no_mark);
	topo_set_node(t, 2, "h2", TOPO_HOST, 0, 1, &no_mark);
	topo_set_node(t, 3, "s0", TOPO_SWITCH, 1, 3, &no_mark);
	topo_set_node(t, 4, "s1", TOPO_SWITCH, 1, 3, &no_mark);
	topo_set_link(t, 0, 0, 0, 3, 0, &lp, &no_mark);
	topo_set_link(t, 1, 0, 1, 4, 0, &lp, &no_mark);
	topo_set_link(t, 2, 1, 0, 3, 1, &lp, &no_mark);
	topo_set_link(t, 3, 2, 0, 4, 1, &lp, &no_mark);
	if (bridge) {
		topo_set_node(t, 5, "s2", TOPO_SWITCH, 2, 2, &no_mark);
		topo_set_link(t, 4, 3, 2, 5, 0, &lp, &no_mark);
		topo_set_link(t, 5, 4, 2, 5, 1, &lp, &no_mark);
	}
	CU_ASSERT_EQUAL(topo_index(t), 0);
	return t;
}

/* A multi-homed host must not bridge two fabrics: hosts do not forward. */
static void test_topo_hosts_do_not_forward(void)
{
	struct topo *t = dual_homed(0);
	struct topo_routes *r = NULL;
	char err[CFG_ERR_BYTES];
	const uint16_t *ports;
	uint32_t n;

	/* h1 and h2 would only meet through h0. Endpoints: h0:0 0, h0:1 1,
	 * h1 2, h2 3. */
	CU_ASSERT_EQUAL(t->n_eps, 4);
	CU_ASSERT_EQUAL(host(t, "h2"), 3);
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "topology is disconnected: h2 cannot reach h1");
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	CU_ASSERT_EQUAL(topo_route_hops(r, 3, 3), UINT8_MAX);
	CU_ASSERT_EQUAL(topo_route_hops(r, 3, 0), 1);
	/* s0 does not reach h0's other port through h0. */
	CU_ASSERT_EQUAL(topo_route_hops(r, 3, 1), UINT8_MAX);
	route(r, 1, 3, &n);
	CU_ASSERT_EQUAL(n, 0);
	topo_routes_free(r);
	topo_free(t);

	/* With s2, s1 reaches h1 in 3 hops through s2, and h0 is 2 hops from
	 * h1 next to it: still s1 must not list its port to h0. */
	t = dual_homed(1);
	CU_ASSERT_EQUAL(topo_check(t, err), 0);
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	CU_ASSERT_EQUAL(topo_route_hops(r, 4, 2), 3);
	CU_ASSERT_EQUAL(topo_route_hops(r, 0, 2), 2);
	ports = route(r, 4, 2, &n);
	CU_ASSERT(n == 1 && ports[0] == 2);
	/* h0 itself sends through s0 only. */
	ports = route(r, 0, 2, &n);
	CU_ASSERT(n == 1 && ports[0] == 0);
	/* Each of h0's ports is a destination of its own: s0, next to h0:0,
	 * reaches h0:1 only through s2 and s1 (port 2), never by its port
	 * 0 to h0; s1 reaches it directly (its port 0). */
	CU_ASSERT_EQUAL(topo_route_hops(r, 3, 1), 3);
	ports = route(r, 3, 1, &n);
	CU_ASSERT(n == 1 && ports[0] == 2);
	ports = route(r, 4, 1, &n);
	CU_ASSERT(n == 1 && ports[0] == 0);
	/* h1's messages to h0:1 cross four links; from h0:1 to h1 four too,
	 * leaving by h0's port 1. */
	{
		uint32_t links[8];

		CU_ASSERT_EQUAL(topo_path(r, t, 2, 1, links, 8), 4);
		CU_ASSERT_EQUAL(topo_path(r, t, 1, 2, links, 8), 4);
		CU_ASSERT_EQUAL(links[0], t->nodes[0].port_links[1]);
		CU_ASSERT_EQUAL(topo_path(r, t, 0, 2, links, 8), 2);
		CU_ASSERT_EQUAL(links[0], t->nodes[0].port_links[0]);
	}
	topo_routes_free(r);
	topo_free(t);
}

/* Hop counts to endpoint @e from every node by a plain search of the
 * graph (not the per-class tables): the endpoint's host is 0, the node
 * behind its port 1, then outward through switches only. */
static void ep_search(const struct topo *t, uint32_t e, uint32_t *dist, uint32_t *queue)
{
	uint32_t src = t->eps[e].node, head = 0, tail = 0;
	uint32_t first = topo_peer(t, src, t->eps[e].port);

	for (uint32_t i = 0; i < t->n_nodes; i++)
		dist[i] = UINT32_MAX;
	dist[src] = 0;
	if (first != TOPO_NO_LINK && first != src) {
		dist[first] = 1;
		queue[tail++] = first;
	}
	while (head < tail) {
		uint32_t n = queue[head++];

		if (t->nodes[n].kind != TOPO_SWITCH)
			continue;
		for (uint16_t p = 0; p < t->nodes[n].n_ports; p++) {
			uint32_t m = topo_peer(t, n, p);

			if (m != TOPO_NO_LINK && dist[m] == UINT32_MAX) {
				dist[m] = dist[n] + 1;
				queue[tail++] = m;
			}
		}
	}
}

/* Port @p of node @n is the link to endpoint @e itself. */
static int is_ep_link(const struct topo *t, uint32_t n, uint16_t p, uint32_t e)
{
	uint32_t l = t->nodes[n].port_links[p];

	if (l == TOPO_NO_LINK)
		return 0;
	for (int s = 0; s < 2; s++)
		if (t->links[l].node[s] == t->eps[e].node && t->links[l].port[s] == t->eps[e].port &&
		    t->links[l].node[1 - s] == n)
			return 1;
	return 0;
}

/* The tables against a plain search from every endpoint (ep_search,
 * which the per-class tables do not use): the hop count of every node to
 * every endpoint, and as egress ports exactly those toward a neighbour
 * one hop closer that forwards (a switch) or that are the endpoint's own
 * link. Returns the cells compared. */
static uint64_t check_routes_against_search(const struct topo *t)
{
	uint32_t *dist = malloc(sizeof(*dist) * t->n_nodes);
	uint32_t *queue = malloc(sizeof(*queue) * t->n_nodes);
	struct topo_routes *r = NULL;
	char err[CFG_ERR_BYTES];
	uint64_t cells = 0;

	CU_ASSERT_FATAL(dist != NULL && queue != NULL);
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	for (uint32_t h = 0; h < t->n_eps; h++) {
		ep_search(t, h, dist, queue);
		for (uint32_t n = 0; n < t->n_nodes; n++) {
			uint32_t want = dist[n] == UINT32_MAX ? UINT8_MAX : dist[n], got, count, k = 0;
			const uint16_t *ports;

			/* A host other than the endpoint's: one more than its best
			 * neighbour (it sends, it does not forward). */
			if (t->nodes[n].kind == TOPO_HOST && n != t->eps[h].node) {
				want = UINT8_MAX;
				for (uint16_t p = 0; p < t->nodes[n].n_ports; p++) {
					uint32_t m = topo_peer(t, n, p);
					uint32_t d = m == TOPO_NO_LINK ? UINT32_MAX
						     : is_ep_link(t, n, p, h) ? 0
						     : t->nodes[m].kind == TOPO_SWITCH ? dist[m]
										: UINT32_MAX;

					if (d != UINT32_MAX && d + 1 < want)
						want = d + 1;
				}
			}
			got = topo_route_hops(r, n, h);
			CU_ASSERT_EQUAL(got, want);
			ports = route(r, n, h, &count);
			for (uint16_t p = 0; p < t->nodes[n].n_ports && want != UINT8_MAX && want > 0;
			     p++) {
				uint32_t m = topo_peer(t, n, p);

				if (m == TOPO_NO_LINK)
					continue;
				if (want == 1 ? !is_ep_link(t, n, p, h)
					      : t->nodes[m].kind != TOPO_SWITCH || dist[m] != want - 1)
					continue;
				CU_ASSERT(k < count && ports[k] == p);
				k++;
			}
			CU_ASSERT_EQUAL(count, k);
			cells++;
		}
	}
	topo_routes_free(r);
	free(dist);
	free(queue);
	return cells;
}

/* Random explicit graphs: switches linked at random, hosts homed on one to
 * three switches (some twice on the same one), a few hosts wired to each
 * other, some switches left out of reach. */
static struct topo *random_graph(uint64_t *x)
{
	static const struct topo_link_params lp = { .rate_bps = 100 * G, .delay_ps = 1000000 };
	uint32_t n_sw = 2 + (uint32_t)(*x % 7), n_h = 2 + (uint32_t)(*x / 7 % 12);
	uint32_t n_links = 0, max_links = n_sw * 3 + n_h * 3;
	uint16_t *used = calloc(n_sw + n_h, sizeof(*used));
	struct topo *t = topo_alloc("explicit", n_sw + n_h, max_links);
	enum { PORTS = 64 };

	CU_ASSERT_FATAL(t != NULL && used != NULL);
#define NEXT() (*x = *x * UINT64_C(6364136223846793005) + 1442695040888963407, (uint32_t)(*x >> 33))
	for (uint32_t i = 0; i < n_h; i++) {
		char name[16];

		snprintf(name, sizeof(name), "h%u", i);
		topo_set_node(t, i, name, TOPO_HOST, 0, 4, &no_mark);
	}
	for (uint32_t i = 0; i < n_sw; i++) {
		char name[16];

		snprintf(name, sizeof(name), "s%u", i);
		topo_set_node(t, n_h + i, name, TOPO_SWITCH, 1, PORTS, &no_mark);
	}
	for (uint32_t i = 0; i < n_sw * 3 / 2; i++) {
		uint32_t a = n_h + NEXT() % n_sw, b = n_h + NEXT() % n_sw;

		if (a != b && used[a] < PORTS && used[b] < PORTS)
			topo_set_link(t, n_links++, a, used[a]++, b, used[b]++, &lp, &no_mark);
	}
	for (uint32_t h = 0; h < n_h; h++) {
		uint32_t homes = 1 + NEXT() % 3;

		for (uint32_t k = 0; k < homes && used[h] < 3; k++) {
			uint32_t s = n_h + NEXT() % n_sw;

			if (NEXT() % 8 == 0 && h > 0)
				s = NEXT() % h; /* another host */
			if (s != h && used[s] < (s < n_h ? 3 : PORTS))
				topo_set_link(t, n_links++, h, used[h]++, s, used[s]++, &lp, &no_mark);
		}
	}
#undef NEXT
	t->n_links = n_links;
	free(used);
	CU_ASSERT_EQUAL(topo_index(t), 0);
	return t;
}

static void test_topo_routes_vs_search(void)
{
	struct topo *t;
	uint64_t x = 12345, cells = 0;

	t = fat_tree(4, 3, 100 * G, 100 * G);
	cells += check_routes_against_search(t);
	topo_free(t);
	t = fat_tree(6, 2, 100 * G, 100 * G);
	cells += check_routes_against_search(t);
	topo_free(t);
	t = leaf_spine(3, 2, 2, 2, 100 * G, 100 * G);
	cells += check_routes_against_search(t);
	topo_free(t);
	for (int bridge = 0; bridge < 2; bridge++) {
		t = dual_homed(bridge);
		cells += check_routes_against_search(t);
		topo_free(t);
	}
	for (int i = 0; i < 300; i++) {
		t = random_graph(&x);
		cells += check_routes_against_search(t);
		topo_free(t);
	}
	CU_ASSERT(cells > 10000);
}

/* Bisection against the closed forms derived in topo_describe.c, and the
 * explicit-graph heuristic (max-flow over balanced splits) against them. */
static void test_topo_bisection(void)
{
	static const struct {
		int fat_tree;
		uint32_t a, b, c, d; /* leaves, spines, hosts/leaf, links/spine; or k, tiers */
		uint64_t host_bps, fabric_bps, want_bps;
	} cases[] = {
		/* 3-tier k=4 uniform 100G: N/2 x r = 16/2 x 100G. */
		{ 1, 4, 3, 0, 0, 100 * G, 100 * G, 800 * G },
		/* 3-tier, slower fabric: k^3/8 x min(r_h, r_f) = 8 x 40G. */
		{ 1, 4, 3, 0, 0, 100 * G, 40 * G, 320 * G },
		/* 3-tier k=8: 128/2 x 100G. */
		{ 1, 8, 3, 0, 0, 100 * G, 100 * G, 6400 * G },
		/* 2-tier k=4: 8/2 x 100G. */
		{ 1, 4, 2, 0, 0, 100 * G, 100 * G, 400 * G },
		/* Leaf-spine 2:1, L=4 H=4 S=2: L/2 x min(H r, U) = 2 x min(400G, 200G). */
		{ 0, 4, 2, 4, 1, 100 * G, 100 * G, 400 * G },
		/* Non-blocking, 2 parallel links: 2 x min(400G, 2 x 2 x 100G). */
		{ 0, 4, 2, 4, 2, 100 * G, 100 * G, 800 * G },
		/* Odd L=3, H=2, S=1: one stray host and one leaf uplink, 2 x 100G. */
		{ 0, 3, 1, 2, 1, 100 * G, 100 * G, 200 * G },
		/* Host-limited: 25G hosts, fat uplinks: N/2 x 25G. */
		{ 0, 2, 2, 8, 1, 25 * G, 400 * G, 200 * G },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topo *t = cases[i].fat_tree ?
			fat_tree(cases[i].a, cases[i].b, cases[i].host_bps, cases[i].fabric_bps) :
			leaf_spine(cases[i].a, cases[i].b, cases[i].c, cases[i].d,
				   cases[i].host_bps, cases[i].fabric_bps);

		CU_ASSERT_EQUAL(topo_bisection_bps(t), cases[i].want_bps);
		/* The heuristic's bound is exact on these (a split along pods
		 * or leaves is a minimum one). */
		t->kind = "explicit";
		CU_ASSERT_EQUAL(topo_bisection_bps(t), cases[i].want_bps);
		topo_free(t);
	}
}

char *test_topo_print(const struct topo *t, void (*fn)(const struct topo *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_FATAL(f != NULL);
	fn(t, f);
	fclose(f);
	return buf;
}

static void test_topo_describe_dot(void)
{
	struct topo *t = fat_tree(4, 3, 100 * G, 100 * G);
	char *s = test_topo_print(t, topo_describe);

	CU_ASSERT_PTR_NOT_NULL(strstr(s, "fat-tree: 16 hosts, 20 switches, 48 links"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "core: 4 switches, 4 ports each"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "host-edge: 16 x 100Gbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "agg-core: 16 x 100Gbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "edge: 1.00:1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "agg: 1.00:1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "bisection bandwidth: 800Gbps (100%"));
	free(s);
	s = test_topo_print(t, topo_dot);
	CU_ASSERT_EQUAL(strncmp(s, "graph fabric {", 14), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"h0\" -- \"edge0\" [label=\"100G\"];"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"agg0\" -- \"core0\" [label=\"100G\"];"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "{ rank=max; \"core0\"; \"core1\"; \"core2\"; \"core3\"; }"));
	CU_ASSERT_EQUAL(s[strlen(s) - 2], '}');
	free(s);
	topo_free(t);

	t = leaf_spine(4, 2, 4, 1, 100 * G, 100 * G);
	s = test_topo_print(t, topo_describe);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "leaf: 2.00:1 (1.6Tbps down, 800Gbps up)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "bisection bandwidth: 400Gbps (50%"));
	free(s);
	topo_free(t);
}

/* ---- from configuration ---- */

static int load(const char *yaml, struct cfg_doc **doc, struct topo **t, char err[CFG_ERR_BYTES])
{
	int rc = cfg_doc_load_string("t.yaml", yaml, doc, err);

	*t = NULL;
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	return topo_from_cfg(*doc, cfg_schema_get(cfg_doc_root(*doc), "topology"), t, err);
}

static void test_topo_cfg_good(void)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc;
	struct topo *t;

	CU_ASSERT_EQUAL(load("topology:\n  kind: leaf-spine\n  leaves: 4\n  spines: 2\n"
			     "  hosts_per_leaf: 8\n  host_link: {rate: 25Gbps, delay: 500ns}\n"
			     "  fabric_link: {rate: 400Gbps}\n", &doc, &t, err), 0);
	CU_ASSERT_EQUAL(t->n_hosts, 32);
	CU_ASSERT_EQUAL(t->links[0].rate_bps, 25 * G);
	CU_ASSERT_EQUAL(t->links[0].delay_ps, 500000);
	CU_ASSERT_EQUAL(t->links[t->n_links - 1].rate_bps, 400 * G);
	CU_ASSERT_EQUAL(t->links[t->n_links - 1].delay_ps, TOPO_DEFAULT_DELAY_PS);
	CU_ASSERT_STRING_EQUAL(t->nodes[0].mark.file, "t.yaml");
	CU_ASSERT_EQUAL(t->nodes[0].mark.line, 2);
	topo_free(t);
	cfg_doc_free(doc);

	CU_ASSERT_EQUAL(load("topology: {kind: fat-tree, k: 8, tiers: 2}\n", &doc, &t, err), 0);
	CU_ASSERT_EQUAL(t->n_hosts, 32);
	CU_ASSERT_EQUAL(t->links[0].rate_bps, TOPO_DEFAULT_RATE_BPS);
	topo_free(t);
	cfg_doc_free(doc);

	/* Explicit: ports default to the highest one used, default_link fills in. */
	CU_ASSERT_EQUAL(load("topology:\n  kind: explicit\n  default_link: {rate: 200Gbps}\n"
			     "  nodes:\n    - {name: gpu0, kind: host}\n    - {name: gpu1, kind: host}\n"
			     "    - {name: tor, kind: switch}\n    - {name: big, kind: switch, ports: 64}\n"
			     "  links:\n    - endpoints: [gpu0:0, tor:0]\n    - endpoints: [\"gpu1:0\", \"tor:5\"]\n"
			     "    - {endpoints: [tor:7, big:63], rate: 800Gbps, delay: 2us}\n",
			     &doc, &t, err), 0);
	CU_ASSERT_STRING_EQUAL(t->kind, "explicit");
	CU_ASSERT_EQUAL(t->n_hosts, 2);
	CU_ASSERT_EQUAL(t->nodes[node(t, "tor")].n_ports, 8);
	CU_ASSERT_EQUAL(t->nodes[node(t, "big")].n_ports, 64);
	CU_ASSERT_EQUAL(t->nodes[node(t, "big")].tier, 2);
	CU_ASSERT_EQUAL(t->nodes[node(t, "big")].index, 1);
	CU_ASSERT_EQUAL(t->links[0].rate_bps, 200 * G);
	CU_ASSERT_EQUAL(t->links[2].rate_bps, 800 * G);
	CU_ASSERT_EQUAL(t->links[2].delay_ps, 2000000);
	CU_ASSERT_EQUAL(t->links[1].mark.line, 11);
	CU_ASSERT_EQUAL(topo_bisection_bps(t), 200 * G);
	topo_free(t);
	cfg_doc_free(doc);
}

/* Explicit prelude: lines 1-8; line 9 is the case's second link. */
#define X_HEAD "topology:\n  kind: explicit\n  nodes:\n    - {name: h0, kind: host}\n" \
	       "    - {name: h1, kind: host}\n    - {name: sw0, kind: switch, ports: 4}\n" \
	       "  links:\n    - endpoints: [h0:0, sw0:0]\n"

/* Rail-optimised prelude: lines 1-2. */
#define R_HEAD "topology:\n  kind: rail-optimised\n"

static void test_topo_cfg_errors(void)
{
	static const struct {
		const char *yaml;
		const char *want; /* the whole message starts with this */
	} cases[] = {
		{ "topology:\n  kind: leaf-spine\n  leaves: 2\n  spines: 2\n  hosts_per_leef: 2\n",
		  "t.yaml:5:3: unknown key 'hosts_per_leef' (did you mean 'hosts_per_leaf'?)" },
		{ "topology:\n  kind: leaf-spine\n  leaves: 2\n  spines: 2\n",
		  "t.yaml:2:3: missing 'hosts_per_leaf'" },
		{ "topology:\n  kind: leaf-spine\n  leaves: 0\n",
		  "t.yaml:3:11: 0 is below the minimum 1" },
		{ "topology:\n  kind: leaf-spine\n  leaves: 300\n  spines: 4\n  hosts_per_leaf: 300\n",
		  "t.yaml:2:3: leaf-spine has 90000 hosts" },
		{ "topology:\n  kind: leaf-spine\n  leaves: 2\n  spines: 70000\n  hosts_per_leaf: 2\n",
		  "t.yaml:4:11: 70000 is above the maximum 65535" },
		{ "topology:\n  kind: leaf-spine\n  leaves: 2\n  spines: 600\n  hosts_per_leaf: 2\n"
		  "  links_per_spine: 200\n",
		  "t.yaml:2:3: a leaf would need 120002 ports" },
		{ "topology:\n  kind: fat-tree\n  k: 5\n", "t.yaml:3:6: k must be even" },
		{ "topology:\n  kind: fat-tree\n  k: 66\n", "t.yaml:3:6: 66 is above the maximum 64" },
		{ "topology:\n  kind: fat-tree\n  k: 4\n  tiers: 4\n", "t.yaml:4:10: 4 is above the maximum 3" },
		{ "topology:\n  kind: fat-tree\n  k: 4\n  host_link: {rate: 100Gbs}\n", "t.yaml:4:21: " },
		{ "topology:\n  kind: fat-tree\n  k: 4\n  fabric_link: {rate: 100Gbps, dealy: 1us}\n",
		  "t.yaml:4:32: unknown key 'dealy' (did you mean 'delay'?)" },
		{ "topology:\n  kind: fat-tree\n  k: 4\n  host_link: 100Gbps\n", "t.yaml:4:14: " },
		{ "topology:\n  leaves: 2\n", "t.yaml:2:3: topology needs 'kind'" },
		{ "topology:\n  kind: leaf-spin\n", "t.yaml:2:9: unknown value 'leaf-spin'" },
		{ "topology: [1, 2]\n", "t.yaml:1:11: topology: expected" },
		/* explicit */
		{ X_HEAD "    - endpoints: [h1:0, sw1:1]\n",
		  "t.yaml:9:25: unknown node 'sw1' in endpoint (did you mean 'sw0'?)" },
		{ X_HEAD "    - endpoints: [h1:0, sw0:4]\n", "t.yaml:9:25: port 4 out of range (sw0 has 4 ports)" },
		{ X_HEAD "    - endpoints: [h1:0, sw0:0]\n",
		  "t.yaml:9:25: port sw0:0 is already used by the link at line 8" },
		{ X_HEAD "    - endpoints: [h1:0, sw0-1]\n",
		  "t.yaml:9:25: bad endpoint 'sw0-1': expected NODE:PORT such as leaf0:3" },
		{ X_HEAD "    - endpoints: [h1:0, \"sw0:x\"]\n", "t.yaml:9:25: bad endpoint 'sw0:x'" },
		{ X_HEAD "    - endpoints: [h1:0, \":3\"]\n", "t.yaml:9:25: bad endpoint ':3'" },
		{ X_HEAD "    - endpoints: [h1:0, sw0:99999]\n", "t.yaml:9:25: endpoint 'sw0:99999': port 99999 out of range" },
		{ X_HEAD "    - endpoints: [sw0:1, sw0:2]\n", "t.yaml:9:26: link connects sw0 to itself" },
		{ X_HEAD "    - endpoints: [h1:0]\n", "t.yaml:9:18: link endpoints: expected two" },
		{ X_HEAD "    - {rate: 1Gbps}\n", "t.yaml:9:7: link needs 'endpoints" },
		{ X_HEAD "    - endpoints: [h1:0, sw0:1]\n      rate: fast\n", "t.yaml:10:13: " },
		{ X_HEAD "    - endpoints: [h1:0, sw0:1]\n      speed: 1Gbps\n",
		  "t.yaml:10:7: unknown key 'speed'" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {name: h0, kind: host}\n"
		  "    - {name: h0, kind: host}\n", "t.yaml:5:14: duplicate node name 'h0' (first declared at line 4)" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {name: h0, kind: hots}\n",
		  "t.yaml:4:24: unknown value 'hots' (did you mean 'host'?" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {name: \"a b\", kind: host}\n",
		  "t.yaml:4:14: node name 'a b' may only hold" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {kind: host}\n", "t.yaml:4:7: node needs a 'name'" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {name: h0, kind: host, ports: 0}\n",
		  "t.yaml:4:37: 0 is below the minimum 1" },
		{ "topology:\n  kind: explicit\n  links: []\n", "t.yaml:2:3: explicit topology needs 'nodes" },
		{ "topology:\n  kind: explicit\n  nodes: []\n", "t.yaml:2:3: topology has no hosts" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {name: h0, kind: host}\n"
		  "    - {name: h1, kind: host}\n    - {name: s0, kind: switch}\n    - {name: s1, kind: switch}\n"
		  "  links:\n    - endpoints: [h0:0, s0:0]\n    - endpoints: [h1:0, s1:0]\n",
		  "t.yaml:2:3: topology is disconnected: h1 cannot reach h0" },
		{ "topology:\n  kind: explicit\n  nodes:\n    - {name: h0, kind: host}\n"
		  "    - {name: h1, kind: host}\n    - {name: h2, kind: host}\n    - {name: s0, kind: switch}\n"
		  "  links:\n    - endpoints: [h0:0, s0:0]\n    - endpoints: [h1:0, s0:1]\n",
		  "t.yaml:6:7: host h2 has no link" },
		{ "topology:\n  kind: explicit\n  default_link: {rate: 1Gbps, delay: soon}\n  nodes: []\n",
		  "t.yaml:3:38: " },
		/* rail-optimised: one case per class of bad input */
		{ R_HEAD "  units: 1\n  rails: 4\n",
		  "t.yaml:4:10: rails is 4 but a node has 8 NICs (gpus_per_node)" },
		{ R_HEAD "  units: 1\n  radix: 32\n",
		  "t.yaml:4:10: radix 32 cannot hold a leaf's 32 down and 32 up ports" },
		{ R_HEAD "  units: 1\n  nodes_per_unit: 3\n  leaf_oversubscription: 2:1\n",
		  "t.yaml:5:26: leaf_oversubscription 2:1 does not divide a leaf's 3 down ports" },
		{ R_HEAD "  units: 1\n  leaf_oversubscription: 2/1\n",
		  "t.yaml:4:26: expected a ratio down:up of capacities such as \"1:1\" or \"2:1\", got '2/1'" },
		{ R_HEAD "  units: 1\n  spine_oversubscription: \"0:1\"\n", "t.yaml:4:27: expected a ratio" },
		{ R_HEAD "  units: 1\n  nic_ports: 1\n  planes: 2\n",
		  "t.yaml:5:11: planes must be 1 or nic_ports (1)" },
		{ R_HEAD "  units: 1\n  nic_ports: 3\n", "t.yaml:4:14: 3 is above the maximum 2" },
		{ R_HEAD "  units: 1\n  nvlink: {domain_gpus: 12}\n",
		  "t.yaml:4:25: nvlink.domain_gpus 12 is not a multiple of gpus_per_node (8)" },
		{ R_HEAD "  nodes: 3\n  nvlink: {domain_gpus: 16}\n",
		  "t.yaml:4:25: nvlink.domain_gpus 16 does not divide the 24 GPUs (3 nodes x 8)" },
		{ R_HEAD "  units: 1\n  nvlink: off\n", "t.yaml:4:11: nvlink: expected none or a map" },
		{ R_HEAD "  nodes: 3\n  units: 1\n", "t.yaml:4:10: give one of 'nodes' and 'units', not both" },
		{ R_HEAD "  radix: 64\n", "t.yaml:2:3: rail-optimised needs 'nodes' (GPU nodes) or 'units'" },
		{ R_HEAD "  preset: dgx-b200-superpod\n  units: 16\n  tiers: 2\n",
		  "t.yaml:5:10: tiers: 2 cannot hold 128 leaves per plane" },
		{ R_HEAD "  units: 1\n  tiers: 4\n", "t.yaml:4:10: unknown value '4' (valid: auto, 2, 3)" },
		{ R_HEAD "  units: 1\n  units_per_pod: 2\n", "t.yaml:4:18: units_per_pod applies to three tiers" },
		{ R_HEAD "  units: 1\n  nodes_per_unit: 8\n  gpus_per_node: 16\n  radix: 16\n  tiers: 3\n",
		  "t.yaml:6:10: a spine has 8 down ports (radix 16 at spine_oversubscription 1:1), too few" },
		{ R_HEAD "  units: 200\n  gpus_per_node: 2\n  nodes_per_unit: 2\n  radix: 4\n",
		  "t.yaml:3:10: too large for three tiers: 200 pods" },
		{ R_HEAD "  units: 300\n", "t.yaml:3:10: 9600 nodes of 8 GPUs are 76800 NICs, at most 65536 hosts" },
		{ R_HEAD "  nodes: 32768\n  gpus_per_node: 1\n  management_ports: 1\n",
		  "t.yaml:2:3: rail-optimised has 65537 hosts" },
		{ R_HEAD "  units: 1\n  management_ports: 9\n", "t.yaml:4:21: management_ports is 9" },
		{ R_HEAD "  preset: dgx-h100-superpd\n  units: 1\n",
		  "t.yaml:3:11: unknown value 'dgx-h100-superpd' (did you mean 'dgx-h100-superpod'?" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		struct cfg_doc *doc;
		struct topo *t;
		int rc = load(cases[i].yaml, &doc, &t, err);

		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT_PTR_NULL(t);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)) != 0) {
			fprintf(stderr, "\ncase %zu: got '%s'\n         want '%s...'\n", i, err,
				cases[i].want);
			CU_FAIL("error message");
		}
		cfg_doc_free(doc);
	}
	CU_ASSERT_EQUAL(topo_from_cfg(NULL, NULL, &(struct topo *){ NULL }, (char[CFG_ERR_BYTES]){ 0 }),
			-EINVAL);
}

/* The shipped example topologies load, pass the check and route. */
static void test_topo_examples(void)
{
#ifdef FAB_TEST_DATA_DIR
	static const struct {
		const char *file;
		uint32_t hosts, switches;
	} cases[] = {
		{ "leaf-spine.yaml", 64, 12 },
		{ "fat-tree-k4.yaml", 16, 20 },
		{ "explicit-small.yaml", 4, 3 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512], err[CFG_ERR_BYTES];
		struct topo_routes *r = NULL;
		struct cfg_doc *doc = NULL;
		struct topo *t = NULL;

		snprintf(path, sizeof(path), "%s/../../topologies/examples/%s", FAB_TEST_DATA_DIR,
			 cases[i].file);
		CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, &doc, err), 0);
		CU_ASSERT_EQUAL_FATAL(topo_from_cfg(doc, cfg_schema_get(cfg_doc_root(doc), "topology"), &t, err), 0);
		CU_ASSERT_EQUAL(t->n_hosts, cases[i].hosts);
		CU_ASSERT_EQUAL(t->n_switches, cases[i].switches);
		CU_ASSERT_EQUAL(topo_routes_build(t, &r, err), 0);
		topo_routes_free(r);
		topo_free(t);
		cfg_doc_free(doc);
	}
#endif
}

/* The row a switch built from @fib uses toward host @h: its class's, or
 * the host's own when that is empty (the switch's lookup, see sw_rx). */
static const uint16_t *fib_row(const struct fib_rows *fib, uint32_t h, uint32_t *n)
{
	uint32_t c = fib->ep_class[h], i = h - fib->direct_lo;

	*n = fib->off[c + 1] - fib->off[c];
	if (*n)
		return &fib->ports[fib->off[c]];
	if (i >= fib->direct_n)
		return NULL;
	*n = fib->direct_off[i + 1] - fib->direct_off[i];
	return &fib->direct_ports[fib->direct_off[i]];
}

/* Forwarding rows of every switch, one buffer reused: the row each switch
 * uses toward each host lists exactly the equal-cost ports of the routes. */
static void test_topo_fib_rows(void)
{
	static const struct {
		uint32_t leaf_spine; /* 0: a k=4 fat-tree of 3 tiers */
	} cases[] = { { 0 }, { 1 } };

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct topo *t = cases[k].leaf_spine ? leaf_spine(3, 2, 4, 2, 100 * G, 100 * G)
						     : fat_tree(4, 3, 100 * G, 100 * G);
		struct topo_fib_buf b = { 0 };
		struct topo_routes *r = NULL;
		char err[CFG_ERR_BYTES];
		int bad = 0;

		CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
		for (uint32_t s = 0; s < t->n_switches; s++) {
			uint32_t sn = t->switches[s];
			struct fib_rows fib;

			CU_ASSERT_EQUAL_FATAL(topo_fib_rows(r, t, sn, &b, &fib), 0);
			CU_ASSERT_EQUAL(fib.n_eps, t->n_eps);
			CU_ASSERT_EQUAL(fib.n_classes, r->n_classes);
			for (uint32_t h = 0; h < t->n_hosts; h++) {
				uint32_t n, want;
				const uint16_t *got = fib_row(&fib, h, &n);
				const uint16_t *ports = route(r, sn, h, &want);

				if (!got || n != want || memcmp(got, ports, n * sizeof(*got)))
					bad++;
			}
		}
		CU_ASSERT_EQUAL(bad, 0);
		if (!cases[k].leaf_spine) {
			struct fib_rows fib;

			/* edge0 holds h0 and h1 (ports 0, 1): rows of their own; a
			 * core has none. */
			CU_ASSERT_EQUAL_FATAL(topo_fib_rows(r, t, node(t, "edge0"), &b, &fib), 0);
			CU_ASSERT_EQUAL(fib.direct_lo, host(t, "h0"));
			CU_ASSERT_EQUAL(fib.direct_n, 2);
			CU_ASSERT_EQUAL(fib.off[r->ep_class[0] + 1], fib.off[r->ep_class[0]]);
			CU_ASSERT_EQUAL(fib.direct_ports[fib.direct_off[1]], 1);
			CU_ASSERT_EQUAL_FATAL(topo_fib_rows(r, t, node(t, "core0"), &b, &fib), 0);
			CU_ASSERT_EQUAL(fib.direct_n, 0);
		}
		topo_fib_buf_free(&b);
		topo_fib_buf_free(&b); /* emptied: fine again */
		topo_routes_free(r);
		topo_free(t);
	}
}

/* Routes with a link down: edge0 of a k=4 fat-tree loses its uplink to
 * agg0 (port 2). Counted by hand on the graph without that link: edge0
 * reaches everything by port 3 (agg1); agg0's shortest way to h0 is down
 * to edge1, up to agg1 and down to edge0 (4 hops; its cores lead only to
 * other pods' agg0s), a valley that shortest-path rerouting takes and
 * up-down routing would not; h2 to h0 stays 4 hops, through agg1 only. */
static void test_topo_routes_link_down(void)
{
	struct topo *t = fat_tree(4, 3, 100 * G, 100 * G);
	uint8_t *down = calloc(t->n_links, 1);
	struct topo_routes *r = NULL;
	char err[CFG_ERR_BYTES];
	const uint16_t *ports;
	uint32_t n, e0 = node(t, "edge0"), a0 = node(t, "agg0");

	CU_ASSERT_FATAL(down != NULL);
	down[t->nodes[e0].port_links[2]] = 1;
	CU_ASSERT_EQUAL_FATAL(topo_routes_build_avoiding(t, down, &r, err), 0);
	ports = route(r, e0, host(t, "h15"), &n);
	CU_ASSERT(n == 1 && ports[0] == 3);
	ports = route(r, e0, host(t, "h2"), &n);
	CU_ASSERT(n == 1 && ports[0] == 3);
	CU_ASSERT_EQUAL(topo_route_hops(r, a0, host(t, "h0")), 4);
	ports = route(r, a0, host(t, "h0"), &n);
	CU_ASSERT(n == 1 && ports[0] == 1); /* to edge1 */
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "h2"), host(t, "h0")), 4);
	ports = route(r, node(t, "edge1"), host(t, "h0"), &n);
	CU_ASSERT(n == 1 && ports[0] == 3);
	/* Nothing else changed: another pod is as before. */
	CU_ASSERT_EQUAL(topo_route_hops(r, node(t, "h4"), host(t, "h6")), 4);
	topo_routes_free(r);
	free(down);
	topo_free(t);
}

/* The first-equal-cost path: as long as the route, each link one hop
 * closer, through the lowest equal-cost port, ending at the destination. */
static void test_topo_path(void)
{
	struct topo *t = fat_tree(4, 3, 100 * G, 100 * G);
	struct topo_routes *r = NULL;
	char err[CFG_ERR_BYTES];
	uint32_t links[16];
	int bad = 0;

	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	for (uint32_t a = 0; a < t->n_hosts; a++) {
		for (uint32_t d = 0; d < t->n_hosts; d++) {
			int n = topo_path(r, t, a, d, links, 16);
			uint32_t at = t->hosts[a];

			if (n != (int)topo_route_hops(r, at, d)) {
				bad++;
				continue;
			}
			for (int i = 0; i < n; i++) {
				const struct topo_link *l = &t->links[links[i]];
				uint32_t cnt;
				const uint16_t *ports = route(r, at, d, &cnt);

				if (cnt == 0 || t->nodes[at].port_links[ports[0]] != links[i])
					bad++;
				at = l->node[0] == at ? l->node[1] : l->node[0];
			}
			if (at != t->hosts[d])
				bad++;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* h0 to h12 (another pod): 6 links, always the first choice. */
	CU_ASSERT_EQUAL(topo_path(r, t, host(t, "h0"), host(t, "h12"), links, 16), 6);
	CU_ASSERT_EQUAL(links[0], t->nodes[node(t, "h0")].port_links[0]);
	CU_ASSERT_EQUAL(t->links[links[1]].node[0] == node(t, "agg0") ||
				t->links[links[1]].node[1] == node(t, "agg0"),
			1);
	CU_ASSERT_EQUAL(topo_path(r, t, host(t, "h0"), host(t, "h12"), links, 5), -E2BIG);
	topo_routes_free(r);
	topo_free(t);
	/* Unreachable (hosts do not forward): -EINVAL. */
	t = dual_homed(0);
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	CU_ASSERT_EQUAL(topo_path(r, t, host(t, "h2"), host(t, "h1"), links, 16), -EINVAL);
	topo_routes_free(r);
	topo_free(t);
}

/* ---- ns3: topology files of the HPCC authors' ns-3 simulator ---- */

/* @text into @dir/@name (NULL: remove it). */
static void ns3_put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	rmdir(path);
	if (text == NULL)
		return;
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* The experiment @dir/exp.yaml, `topology: {kind: ns3, file: t.txt}`,
 * loaded: its topology into *@t (the file relative to the experiment's
 * folder). Returns topo_from_cfg's code; *@doc is freed by the caller. */
static int ns3_load(const char *dir, struct cfg_doc **doc, struct topo **t, char err[CFG_ERR_BYTES])
{
	char path[512];

	*t = NULL;
	ns3_put(dir, "exp.yaml", "topology: {kind: ns3, file: t.txt}\ntraffic: []\n");
	snprintf(path, sizeof(path), "%s/exp.yaml", dir);
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, doc, err), 0);
	return topo_from_cfg(*doc, cfg_schema_get(cfg_doc_root(*doc), "topology"), t, err);
}

/* A small file: switches not last, a blank line, CRLF, every kind of
 * rate and delay spelling; names, ports in file order, rates, delays,
 * marks and tiers. */
static void test_topo_ns3_small(void)
{
	static const char text[] =
		"5 2 4\n"
		"3 0\n"
		"1 0 100Gbps 1000ns 0.000000\n"
		"0 3 400Gbps 1us 0\n"
		"\n"
		"2 3 25Gb/s 0.001ms 0\n"
		"4\t3  5GBps 500ns 0e0\r\n";
	char dir[] = "/tmp/fabemu-ns3-XXXXXX", err[CFG_ERR_BYTES] = "";
	struct topo_routes *r = NULL;
	struct cfg_doc *doc = NULL;
	struct topo *t = NULL;
	char *s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	ns3_put(dir, "t.txt", text);
	if (ns3_load(dir, &doc, &t, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_STRING_EQUAL(t->kind, "ns3");
	CU_ASSERT_EQUAL(t->n_nodes, 5);
	CU_ASSERT_EQUAL(t->n_hosts, 3);
	CU_ASSERT_EQUAL(t->n_switches, 2);
	CU_ASSERT_EQUAL(t->n_links, 4);
	/* Node i is ns-3 node i; host k is the k-th host id. */
	CU_ASSERT_STRING_EQUAL(t->nodes[0].name, "s0");
	CU_ASSERT_STRING_EQUAL(t->nodes[1].name, "h1");
	CU_ASSERT_STRING_EQUAL(t->nodes[2].name, "h2");
	CU_ASSERT_STRING_EQUAL(t->nodes[3].name, "s3");
	CU_ASSERT_STRING_EQUAL(t->nodes[4].name, "h4");
	CU_ASSERT_EQUAL(t->hosts[0], 1);
	CU_ASSERT_EQUAL(t->hosts[1], 2);
	CU_ASSERT_EQUAL(t->hosts[2], 4);
	CU_ASSERT_EQUAL(t->switches[0], 0);
	CU_ASSERT_EQUAL(t->switches[1], 3);
	/* Ports in the order the node's links appear. */
	CU_ASSERT_EQUAL(t->nodes[0].n_ports, 2);
	CU_ASSERT_EQUAL(t->nodes[3].n_ports, 3);
	CU_ASSERT_EQUAL(t->nodes[4].n_ports, 1);
	CU_ASSERT(peer_is(t, "s0", 0, "h1"));
	CU_ASSERT(peer_is(t, "s0", 1, "s3"));
	CU_ASSERT(peer_is(t, "s3", 0, "s0"));
	CU_ASSERT(peer_is(t, "s3", 1, "h2"));
	CU_ASSERT(peer_is(t, "s3", 2, "h4"));
	CU_ASSERT(peer_is(t, "h4", 0, "s3"));
	CU_ASSERT_EQUAL(t->links[0].rate_bps, 100 * G);
	CU_ASSERT_EQUAL(t->links[0].delay_ps, 1000000);
	CU_ASSERT_EQUAL(t->links[1].rate_bps, 400 * G);
	CU_ASSERT_EQUAL(t->links[1].delay_ps, 1000000);
	CU_ASSERT_EQUAL(t->links[2].rate_bps, 25 * G);
	CU_ASSERT_EQUAL(t->links[2].delay_ps, 1000000);
	CU_ASSERT_EQUAL(t->links[3].rate_bps, 40 * G); /* 5 GB/s */
	CU_ASSERT_EQUAL(t->links[3].delay_ps, 500000);
	/* Marks point into the file: a link at its line, a switch at its id on
	 * line 2, a host where a link first names it. */
	CU_ASSERT_PTR_NOT_NULL(strstr(t->links[2].mark.file, "/t.txt"));
	CU_ASSERT_EQUAL(t->links[2].mark.line, 6);
	CU_ASSERT_EQUAL(t->links[3].mark.line, 7);
	CU_ASSERT_EQUAL(t->nodes[0].mark.line, 2);
	CU_ASSERT_EQUAL(t->nodes[0].mark.col, 3);
	CU_ASSERT_EQUAL(t->nodes[4].mark.line, 7);
	CU_ASSERT_EQUAL(t->nodes[4].mark.col, 1);
	CU_ASSERT_EQUAL(t->nodes[0].tier, 1);
	CU_ASSERT_EQUAL(t->nodes[3].tier, 1);
	/* h1 -> s0 -> s3 -> h4. */
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	CU_ASSERT_EQUAL(topo_route_hops(r, 1, 2), 3);
	CU_ASSERT_EQUAL(topo_route_hops(r, 2, 2), 2);
	s = test_topo_print(t, topo_describe);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "ns3: 3 hosts, 2 switches, 4 links"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "tier1: 2 switches, 2..3 ports"));
	free(s);
	topo_routes_free(r);
	topo_free(t);
	cfg_doc_free(doc);
	ns3_put(dir, "t.txt", NULL);
	ns3_put(dir, "exp.yaml", NULL);
	rmdir(dir);
}

/* The HPCC paper's 320-host fat-tree (tests/data/cc-ns3/fat.txt). */
static void test_topo_ns3_fat(void)
{
	char yaml[4200], err[CFG_ERR_BYTES] = "";
	uint32_t n_tier[4] = { 0 }, host_links = 0, max_hops = 0, *islands = NULL;
	struct topo_routes *r = NULL;
	struct cfg_doc *doc = NULL;
	struct topo *t = NULL;
	char *s;
	int bad = 0;

	snprintf(yaml, sizeof(yaml), "topology: {kind: ns3, file: '%s'}\n",
		 test_data_path("cc-ns3/fat.txt"));
	if (load(yaml, &doc, &t, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(t->n_hosts, 320);
	CU_ASSERT_EQUAL(t->n_switches, 56);
	CU_ASSERT_EQUAL(t->n_links, 480);
	CU_ASSERT_EQUAL(t->n_eps, 320);
	/* Host i is ns-3 node i, h<i>: what hpcc-flow's node index i names. */
	for (uint32_t i = 0; i < t->n_hosts; i++) {
		char name[TOPO_NAME_BYTES];

		snprintf(name, sizeof(name), "h%u", i);
		bad += t->hosts[i] != i || strcmp(t->nodes[t->hosts[i]].name, name) != 0 ||
		       t->nodes[t->hosts[i]].n_ports != 1;
	}
	for (uint32_t i = 0; i < t->n_switches; i++) {
		char name[TOPO_NAME_BYTES];

		snprintf(name, sizeof(name), "s%u", 320 + i);
		bad += t->switches[i] != 320 + i || strcmp(t->nodes[t->switches[i]].name, name) != 0;
		if (t->nodes[t->switches[i]].tier < 4)
			n_tier[t->nodes[t->switches[i]].tier]++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* 20 ToRs, 20 aggregation and 16 core switches. */
	CU_ASSERT_EQUAL(n_tier[1], 20);
	CU_ASSERT_EQUAL(n_tier[2], 20);
	CU_ASSERT_EQUAL(n_tier[3], 16);
	/* 100 Gb/s to the hosts, 400 Gb/s elsewhere, 1 us everywhere. */
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];
		bool to_host = t->nodes[k->node[0]].kind == TOPO_HOST || t->nodes[k->node[1]].kind == TOPO_HOST;

		host_links += to_host;
		bad += k->rate_bps != (to_host ? 100 : 400) * G || k->delay_ps != 1000000;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(host_links, 320);
	/* s320: hosts 0..15 on ports 0..15, then its four uplinks. */
	CU_ASSERT(peer_is(t, "s320", 0, "h0"));
	CU_ASSERT(peer_is(t, "s320", 15, "h15"));
	CU_ASSERT(peer_is(t, "s320", 16, "s340"));
	CU_ASSERT(peer_is(t, "s320", 19, "s343"));
	CU_ASSERT_EQUAL(t->nodes[node(t, "s320")].n_ports, 20);
	/* What `fabemu topo` reports: every host reaches every other, in at
	 * most six links (ToR, aggregation, core and down). */
	CU_ASSERT_EQUAL_FATAL(topo_ep_islands(t, &islands), 0);
	for (uint32_t e = 1; e < t->n_eps; e++)
		bad += islands[e] != islands[0];
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL_FATAL(topo_routes_build(t, &r, err), 0);
	for (uint32_t a = 0; a < t->n_hosts; a++) {
		for (uint32_t e = 0; e < t->n_eps; e++) {
			uint32_t h = topo_route_hops(r, t->hosts[a], e);

			bad += h == UINT8_MAX || (h == 0) != (a == e);
			max_hops = h != UINT8_MAX && h > max_hops ? h : max_hops;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(max_hops, 6);
	CU_ASSERT_EQUAL(topo_route_hops(r, t->hosts[0], 15), 2);
	CU_ASSERT(topo_bisection_bps(t) <= 16000 * G);
	s = test_topo_print(t, topo_describe);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "ns3: 320 hosts, 56 switches, 480 links"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "host-tier1: 320 x 100Gbps, 1us"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "tier1-tier2: 80 x 400Gbps, 1us"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "tier2-tier3: 80 x 400Gbps, 1us"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "tier1: 1.00:1"));
	free(s);
	free(islands);
	topo_routes_free(r);
	topo_free(t);
	cfg_doc_free(doc);
}

/* ns-3 prelude: hosts 0 and 2, switch 1, lines 1-3; line 4 is the case's. */
#define NS3_HEAD "3 1 2\n1\n0 1 1Gbps 1us 0\n"

/* Every class of bad input: "DIR/t.txt:LINE:COL: ..." inside the file,
 * "DIR/exp.yaml:1:COL: topology.file: ..." for the file itself. */
static void test_topo_ns3_errors(void)
{
	static const struct {
		const char *text;  /* the file; NULL: none */
		const char *want;  /* the message after "DIR/" starts with this */
	} cases[] = {
		{ "", "t.txt:1:1: empty file" },
		{ "\n\n", "t.txt:2:1: empty file" },
		{ "3 1\n",
		  "t.txt:1:4: the first line of an ns-3 topology file is 'node_num switch_num "
		  "link_num'; this one has 2 fields" },
		{ "3 1 2 4\n", "t.txt:1:7: extra field '4'" },
		{ "x 1 2\n", "t.txt:1:1: node_num: expected an integer, got 'x'" },
		{ "3 -1 2\n", "t.txt:1:3: switch_num: expected an integer, got '-1'" },
		{ "3 1 9999999\n", "t.txt:1:5: link_num 9999999 is above the maximum 1048576" },
		{ "3 4 2\n", "t.txt:1:3: switch_num 4 is more than node_num 3" },
		{ "2 2 1\n", "t.txt:1:3: all 2 nodes are switches" },
		{ "0 0 0\n", "t.txt:1:1: node_num is 0" },
		{ "3 1 2\n",
		  "t.txt:1:3: line 1 says 1 switches, but the file ends before their ids" },
		{ "3 2 2\n1\n", "t.txt:2:1: line 2 lists 1 switch ids, line 1 says 2" },
		{ "3 1 2\n1 2\n", "t.txt:2:3: more switch ids than line 1 says (1): '2'" },
		{ "3 1 2\n3\n",
		  "t.txt:2:1: switch id 3 is out of range: line 1 says 3 nodes (ids 0..2)" },
		{ "3 2 2\n1 1\n", "t.txt:2:3: switch id 1 is listed twice (first at column 1)" },
		{ "3 1 2\ns1\n", "t.txt:2:1: switch id: expected a node id, got 's1'" },
		{ NS3_HEAD, "t.txt:1:5: line 1 says 2 links, the file has 1" },
		{ NS3_HEAD "2 1 1Gbps 1us 0\n0 1 1Gbps 1us 0\n",
		  "t.txt:5:1: more links than line 1 says (2)" },
		{ NS3_HEAD "2 1 1Gbps 1us\n",
		  "t.txt:4:14: a link line is 'src dst rate delay error_rate'; this one has 4 "
		  "fields" },
		{ NS3_HEAD "2 1 1Gbps 1us 0 junk\n",
		  "t.txt:4:17: extra field 'junk' after the error rate" },
		{ NS3_HEAD "2 7 1Gbps 1us 0\n",
		  "t.txt:4:3: node id 7 is out of range: line 1 says 3 nodes (ids 0..2)" },
		{ NS3_HEAD "h2 1 1Gbps 1us 0\n", "t.txt:4:1: src: expected a node id, got 'h2'" },
		{ NS3_HEAD "1 1 1Gbps 1us 0\n", "t.txt:4:3: link connects s1 to itself" },
		{ NS3_HEAD "2 1 100Gbs 1us 0\n",
		  "t.txt:4:5: bad rate '100Gbs': unknown unit (did you mean 'Gbps'?); ns-3 rates "
		  "here are bps" },
		{ NS3_HEAD "2 1 100 1us 0\n", "t.txt:4:5: bad rate '100': missing unit" },
		{ NS3_HEAD "2 1 0Gbps 1us 0\n",
		  "t.txt:4:5: bad rate '0Gbps': a link needs a rate above 0" },
		{ NS3_HEAD "2 1 1Gbps 1000 0\n",
		  "t.txt:4:11: bad delay '1000': missing unit: write e.g. 1us; ns-3 delays here "
		  "are s, ms, us, ns or ps" },
		{ NS3_HEAD "2 1 1Gbps 1min 0\n", "t.txt:4:11: bad delay '1min': unknown unit" },
		{ NS3_HEAD "2 1 1Gbps 2s 0\n", "t.txt:4:11: delay 2s is above the maximum 1s" },
		{ NS3_HEAD "2 1 1Gbps 1us 0.001\n",
		  "t.txt:4:15: error rate 0.001: fabemu takes no per-link loss from a topology "
		  "file; write 0 here and add faults: [{kind: loss, at: 0ns, ports: ['h2:0', "
		  "'s1:1'], loss: 0.001}]" },
		{ NS3_HEAD "2 1 1Gbps 1us none\n",
		  "t.txt:4:15: error_rate: expected a probability such as 0.000000, got 'none'" },
		{ "4 1 2\n1\n0 1 1Gbps 1us 0\n2 1 1Gbps 1us 0\n",
		  "t.txt:1:1: node 3 is a host (not among the switch ids) and no link names it" },
		/* topo_check, after the file: at the experiment's topology map. */
		{ "4 2 2\n2 3\n0 2 1Gbps 1us 0\n1 3 1Gbps 1us 0\n",
		  "exp.yaml:1:11: topology is disconnected" },
		{ "4 2 2\n2 3\n0 2 1Gbps 1us 0\n1 2 1Gbps 1us 0\n",
		  "exp.yaml:1:11: topology is disconnected: s3 cannot reach h0" },
		{ NULL, "exp.yaml:1:29: topology.file: cannot open '" },
	};
	char dir[] = "/tmp/fabemu-ns3-XXXXXX", path[512];

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[CFG_ERR_BYTES] = "", want[1024];
		struct cfg_doc *doc = NULL;
		struct topo *t;
		int rc;

		ns3_put(dir, "t.txt", cases[i].text);
		rc = ns3_load(dir, &doc, &t, err);
		CU_ASSERT_NOT_EQUAL(rc, 0);
		CU_ASSERT_PTR_NULL(t);
		snprintf(want, sizeof(want), "%s/%s", dir, cases[i].want);
		if (strncmp(err, want, strlen(want)) != 0) {
			fprintf(stderr, "\ncase %zu: got '%s'\n         want '%s...'\n", i, err, want);
			CU_FAIL("error message");
		}
		topo_free(t);
		cfg_doc_free(doc);
	}
	/* Not a regular file: a folder, a FIFO (refused, not waited on); too
	 * large (a sparse file past the bound); not text. */
	for (int c = 0; c < 4; c++) {
		static const char *const wants[] = {
			"is a directory, not a regular file", "is a FIFO, not a regular file",
			"is larger than 64 MiB, the bound on an ns-3 topology file",
			"holds a NUL byte at offset 2: not a text file",
		};
		char err[CFG_ERR_BYTES] = "";
		struct cfg_doc *doc = NULL;
		struct topo *t = NULL;
		FILE *f;

		ns3_put(dir, "t.txt", NULL);
		snprintf(path, sizeof(path), "%s/t.txt", dir);
		if (c == 0) {
			CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
		} else if (c == 1) {
			CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
		} else {
			CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "w"));
			if (c == 2) {
				CU_ASSERT_EQUAL(ftruncate(fileno(f), (64 << 20) + 1), 0);
			} else {
				fwrite("3 \0 1\n", 1, 6, f);
			}
			fclose(f);
		}
		CU_ASSERT_NOT_EQUAL(ns3_load(dir, &doc, &t, err), 0);
		CU_ASSERT_PTR_NULL(t);
		if (strncmp(err, dir, strlen(dir)) != 0 || !strstr(err, "/exp.yaml:1:29: topology.file: '") ||
		    !strstr(err, wants[c])) {
			fprintf(stderr, "\nfile case %d: got '%s'\n  want '...%s'\n", c, err, wants[c]);
			CU_FAIL("error message");
		}
		cfg_doc_free(doc);
	}
	ns3_put(dir, "t.txt", NULL);
	ns3_put(dir, "exp.yaml", NULL);
	rmdir(dir);
}

int test_topo_register(void)
{
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{ "leaf-spine counts and ports", test_topo_leaf_spine },
		{ "fat-tree counts and wiring", test_topo_fat_tree },
		{ "routes k=4 fat-tree", test_topo_routes_fat_tree },
		{ "routes k=16 fat-tree", test_topo_routes_scale },
		{ "routes against a search per host", test_topo_routes_vs_search },
		{ "check: ports, islands, dangling hosts", test_topo_check },
		{ "hosts do not forward", test_topo_hosts_do_not_forward },
		{ "bisection vs closed forms", test_topo_bisection },
		{ "describe and dot", test_topo_describe_dot },
		{ "from cfg", test_topo_cfg_good },
		{ "cfg errors at FILE:LINE:COL", test_topo_cfg_errors },
		{ "example files", test_topo_examples },
		{ "forwarding rows per switch", test_topo_fib_rows },
		{ "first-equal-cost path", test_topo_path },
		{ "routes avoid links that are down", test_topo_routes_link_down },
		{ "ns3: a small file, names, ports, rates", test_topo_ns3_small },
		{ "ns3: the HPCC paper's fat-tree", test_topo_ns3_fat },
		{ "ns3: errors at FILE:LINE:COL", test_topo_ns3_errors },
	};
	CU_pSuite s = CU_add_suite("topo", NULL, NULL);

	if (s == NULL)
		return CU_get_error();
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (CU_add_test(s, tests[i].name, tests[i].fn) == NULL)
			return CU_get_error();
	return 0;
}
