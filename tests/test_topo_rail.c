/* Unit tests for the rail-optimised topology kind: the published DGX
 * SuperPOD tables, the wiring, node order and GPU metadata, the check per
 * net, the closed-form bisection against max-flow, presets in the resolved
 * document, summary and dot, the shipped files (bad input: test_topo.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "cfg_schema.h"
#include "topo.h"
#include "topo_int.h"

#define G_BPS UINT64_C(1000000000) /* bps per Gbps */

enum { TR_NIC_BPS_G = 400 }; /* the presets' NIC rate, Gbps */

static struct topo *tr_load(const char *yaml, struct cfg_doc **doc)
{
	char err[CFG_ERR_BYTES] = "";
	struct topo *t = NULL;

	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("r.yaml", yaml, doc, err), 0);
	if (topo_from_cfg(*doc, cfg_schema_get(cfg_doc_root(*doc), "topology"), &t, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	return t;
}

/* The topology alone: its marks point into the freed document, so it is
 * for checks whose messages are not read. */
static struct topo *tr_build(const char *yaml)
{
	struct cfg_doc *doc = NULL;
	struct topo *t = tr_load(yaml, &doc);

	cfg_doc_free(doc);
	return t;
}

/* Counts of one fabric: switches per tier and links per pair of tiers. */
struct tr_counts {
	uint32_t leaves, spines, cores, nvl; /* switches */
	uint32_t node_leaf;                  /* host - leaf (GPU NICs and management) */
	uint32_t leaf_spine, spine_core, gpu_nvl;
};

static struct tr_counts tr_count(const struct topo *t)
{
	struct tr_counts c = { 0 };

	for (uint32_t s = 0; s < t->n_switches; s++) {
		uint8_t tier = t->nodes[t->switches[s]].tier;

		c.leaves += tier == TOPO_TIER_LEAF;
		c.spines += tier == TOPO_TIER_SPINE;
		c.cores += tier == TOPO_TIER_CORE;
		c.nvl += tier == TOPO_TIER_SCALEUP;
	}
	for (uint32_t l = 0; l < t->n_links; l++) {
		uint8_t a = t->nodes[t->links[l].node[0]].tier, b = t->nodes[t->links[l].node[1]].tier;
		uint8_t hi = a > b ? a : b, lo = a > b ? b : a;

		c.node_leaf += lo == TOPO_TIER_HOST && hi == TOPO_TIER_LEAF;
		c.leaf_spine += lo == TOPO_TIER_LEAF && hi == TOPO_TIER_SPINE;
		c.spine_core += lo == TOPO_TIER_SPINE && hi == TOPO_TIER_CORE;
		c.gpu_nvl += lo == TOPO_TIER_HOST && hi == TOPO_TIER_SCALEUP;
	}
	return c;
}

/* The compute fabric tables as published; reference: NVIDIA DGX SuperPOD
 * H100 Reference Architecture, "Network Fabrics", Table 4 (compute fabric
 * component count; node-leaf counts the UFM appliance's 4 cables). */
static void test_rail_h100_table(void)
{
	static const struct {
		uint32_t units, nodes, gpus, leaves, spines, node_leaf, leaf_spine;
	} h100[] = {
		{ 1, 31, 248, 8, 4, 252, 256 },
		{ 2, 63, 504, 16, 8, 508, 512 },
		{ 3, 95, 760, 24, 16, 764, 768 },
		{ 4, 127, 1016, 32, 16, 1020, 1024 },
	};
	char yaml[256], err[CFG_ERR_BYTES];

	for (size_t i = 0; i < sizeof(h100) / sizeof(h100[0]); i++) {
		snprintf(yaml, sizeof(yaml), "topology: {kind: rail-optimised, preset: dgx-h100-superpod, "
			 "units: %u}\n", h100[i].units);

		struct topo *t = tr_build(yaml);
		struct tr_counts c = tr_count(t);

		CU_ASSERT_EQUAL(t->gpus.n_nodes, h100[i].nodes);
		CU_ASSERT_EQUAL(t->gpus.n_nodes * t->gpus.gpus_per_node, h100[i].gpus);
		CU_ASSERT_EQUAL(c.leaves, h100[i].leaves);
		CU_ASSERT_EQUAL(c.spines, h100[i].spines);
		CU_ASSERT_EQUAL(c.cores, 0);
		CU_ASSERT_EQUAL(c.node_leaf, h100[i].node_leaf);
		CU_ASSERT_EQUAL(c.leaf_spine, h100[i].leaf_spine);
		/* Non-blocking: half the GPU NICs' capacity. */
		CU_ASSERT_EQUAL(topo_bisection_bps(t), (uint64_t)h100[i].gpus / 2 * TR_NIC_BPS_G * G_BPS);
		CU_ASSERT_EQUAL(topo_check(t, err), 0);
		topo_free(t);
	}
}

/* Reference: NVIDIA DGX SuperPOD B200 Reference Architecture, "DGX
 * SuperPOD Architecture" (larger SuperPOD component counts): three tiers
 * beyond 8 SUs, cables per tier = GPU count. */
static void test_rail_b200_table(void)
{
	static const struct {
		uint32_t units, nodes, gpus, leaves, spines, cores, node_leaf, leaf_spine, spine_core;
	} b200[] = {
		{ 2, 64, 512, 16, 8, 0, 512, 512, 0 },
		{ 4, 128, 1024, 32, 16, 0, 1024, 1024, 0 },
		{ 8, 256, 2048, 64, 32, 0, 2048, 2048, 0 },
		{ 16, 512, 4096, 128, 128, 64, 4096, 4096, 4096 },
		{ 32, 1024, 8192, 256, 256, 128, 8192, 8192, 8192 },
		{ 64, 2048, 16384, 512, 512, 256, 16384, 16384, 16384 },
	};
	char yaml[256], err[CFG_ERR_BYTES];

	for (size_t i = 0; i < sizeof(b200) / sizeof(b200[0]); i++) {
		snprintf(yaml, sizeof(yaml), "topology: {kind: rail-optimised, preset: dgx-b200-superpod, "
			 "units: %u}\n", b200[i].units);

		struct topo *t = tr_build(yaml);
		struct tr_counts c = tr_count(t);

		CU_ASSERT_EQUAL(t->gpus.n_nodes, b200[i].nodes);
		CU_ASSERT_EQUAL(t->gpus.n_nodes * t->gpus.gpus_per_node, b200[i].gpus);
		CU_ASSERT_EQUAL(c.leaves, b200[i].leaves);
		CU_ASSERT_EQUAL(c.spines, b200[i].spines);
		CU_ASSERT_EQUAL(c.cores, b200[i].cores);
		CU_ASSERT_EQUAL(c.node_leaf, b200[i].node_leaf);
		CU_ASSERT_EQUAL(c.leaf_spine, b200[i].leaf_spine);
		CU_ASSERT_EQUAL(c.spine_core, b200[i].spine_core);
		CU_ASSERT_EQUAL(t->gpus.n_tiers, b200[i].cores ? 3 : 2);
		CU_ASSERT_EQUAL(c.nvl, b200[i].nodes);
		CU_ASSERT_EQUAL(c.gpu_nvl, b200[i].gpus);
		CU_ASSERT_EQUAL(topo_bisection_bps(t), (uint64_t)b200[i].gpus / 2 * TR_NIC_BPS_G * G_BPS);
		CU_ASSERT_EQUAL(topo_check(t, err), 0);
		topo_free(t);
	}
}

/* Index of leaf @i of plane @p among the nodes. */
static uint32_t tr_leaf(const struct topo *t, uint32_t p, uint32_t i)
{
	char name[TOPO_NAME_BYTES];
	int n;

	if (t->gpus.n_planes > 1)
		snprintf(name, sizeof(name), "plane%u/leaf%u", p, i);
	else
		snprintf(name, sizeof(name), "leaf%u", i);
	n = topo_find(t, name);
	CU_ASSERT_FATAL(n >= 0);
	return (uint32_t)n;
}

/* The wiring rules, checked link by link on any rail fabric: rails, pods,
 * cores, planes, NVLink domains, node order. Returns the faults found. */
static uint32_t tr_structure(const struct topo *t)
{
	const struct topo_gpus *g = &t->gpus;
	uint32_t bad = 0, n_gpus = g->n_nodes * g->gpus_per_node, *per = calloc(t->n_nodes, sizeof(*per));

	CU_ASSERT_PTR_NOT_NULL_FATAL(per);
	/* Hosts first, so host i is node i (and gets IP 10.0.0.(i+1)). */
	for (uint32_t h = 0; h < t->n_hosts; h++)
		bad += t->hosts[h] != h;
	/* NIC g of node n: on the rail-g leaf of its unit, port p in plane p. */
	for (uint32_t e = 0; e < n_gpus; e++) {
		const struct topo_node *nic = &t->nodes[g->nic[e]];
		uint32_t n = e / g->gpus_per_node, r = e % g->gpus_per_node, u = n / g->nodes_per_unit;

		bad += g->nic[e] != e || nic->role != TOPO_ROLE_NIC || nic->gpu_node != n ||
		       nic->gpu != r || nic->group != u || nic->n_ports != g->nic_ports;
		for (uint16_t p = 0; p < nic->n_ports; p++) {
			uint32_t plane = g->n_planes > 1 ? p : 0;

			bad += topo_peer(t, g->nic[e], p) != tr_leaf(t, plane, u * g->gpus_per_node + r);
			bad += topo_port_net(nic, p) != plane;
		}
	}
	for (uint32_t s = 0; s < t->n_switches; s++) {
		uint32_t sn = t->switches[s];
		const struct topo_node *sw = &t->nodes[sn];

		memset(per, 0, t->n_nodes * sizeof(*per));
		for (uint16_t p = 0; p < sw->n_ports; p++) {
			uint32_t m = topo_peer(t, sn, p);

			if (m == TOPO_NO_LINK)
				continue;
			per[m]++;
			/* Planes and NVLink domains are disjoint. */
			if (t->nodes[m].kind == TOPO_SWITCH)
				bad += t->nodes[m].net != sw->net;
			else
				bad += topo_port_net(&t->nodes[m],
						     t->links[sw->port_links[p]].port[t->links[sw->port_links[p]].node[0] == sn]) != sw->net;
		}
		if (sw->tier == TOPO_TIER_LEAF) {
			/* Every spine of its pod equally, no other spine. */
			uint32_t pod = sw->group / g->units_per_pod, spp = g->n_spines / g->n_pods;

			for (uint32_t m = 0; m < t->n_nodes; m++) {
				if (t->nodes[m].tier != TOPO_TIER_SPINE || t->nodes[m].net != sw->net)
					continue;
				bad += per[m] != (t->nodes[m].group == pod ? g->leaf_up_ports / spp : 0);
			}
		} else if (sw->tier == TOPO_TIER_SPINE && g->n_tiers == 3) {
			uint32_t cores = 0;

			/* One link to each core of its group. */
			for (uint32_t m = 0; m < t->n_nodes; m++) {
				if (t->nodes[m].tier != TOPO_TIER_CORE || per[m] == 0)
					continue;
				cores++;
				bad += per[m] != 1;
			}
			bad += cores != g->spine_up_ports;
		} else if (sw->tier == TOPO_TIER_CORE) {
			for (uint32_t m = 0; m < t->n_nodes; m++)
				bad += per[m] > 0 && t->nodes[m].tier != TOPO_TIER_SPINE;
		} else if (sw->tier == TOPO_TIER_SCALEUP) {
			/* Only the GPU endpoints of its domain, each once. */
			uint32_t n = 0;

			for (uint32_t m = 0; m < t->n_nodes; m++) {
				if (per[m] == 0)
					continue;
				n++;
				bad += per[m] != 1 || t->nodes[m].role != TOPO_ROLE_GPU ||
				       t->nodes[m].group != sw->group;
			}
			bad += n != g->domain_gpus;
		}
	}
	/* An NVLink endpoint has one link, to its domain's switch. */
	for (uint32_t e = 0; g->nvl != NULL && e < n_gpus; e++) {
		const struct topo_node *gpu = &t->nodes[g->nvl[e]];
		uint32_t m = topo_peer(t, g->nvl[e], 0);

		bad += gpu->role != TOPO_ROLE_GPU || gpu->n_ports != 1 || gpu->gpu_node != e / g->gpus_per_node ||
		       gpu->gpu != e % g->gpus_per_node || t->nodes[m].tier != TOPO_TIER_SCALEUP ||
		       t->nodes[m].group != e / g->domain_gpus;
	}
	free(per);
	return bad;
}

static void test_rail_structure(void)
{
	static const char *const cases[] = {
		"{kind: rail-optimised, preset: dgx-h100-superpod, units: 3}",
		"{kind: rail-optimised, preset: dgx-b200-superpod, units: 16}",
		/* Two planes, three tiers, two pods of two units (radix 8). */
		"{kind: rail-optimised, gpus_per_node: 2, nodes_per_unit: 4, units: 4, nic_ports: 2,"
		" planes: 2, radix: 8, tiers: 3, units_per_pod: 2}",
		/* Two ports to one leaf, a 2:1 leaf, a partly filled last unit. */
		"{kind: rail-optimised, gpus_per_node: 4, nodes_per_unit: 4, nodes: 7, nic_ports: 2,"
		" leaf_oversubscription: 2:1, radix: 16}",
		/* Rack-scale NVLink: 72-GPU domains of 18 nodes x 4 GPUs. */
		"{kind: rail-optimised, gpus_per_node: 4, nodes_per_unit: 18, units: 2,"
		" nvlink: {domain_gpus: 72}}",
		/* Three tiers with a 2:1 spine and a partial last pod. */
		"{kind: rail-optimised, gpus_per_node: 2, nodes_per_unit: 2, units: 5, radix: 6,"
		" spine_oversubscription: 2:1}",
	};
	char yaml[512], err[CFG_ERR_BYTES];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(yaml, sizeof(yaml), "topology: %s\n", cases[i]);

		struct topo *t = tr_build(yaml);

		if (tr_structure(t) != 0) {
			fprintf(stderr, "\n  wiring faults in %s\n", cases[i]);
			CU_FAIL("rail wiring");
		}
		CU_ASSERT_EQUAL(topo_check(t, err), 0);
		topo_free(t);
	}
}

/* Node order, names, ports and metadata on the 2-node 8-rail fabric and a
 * dual-plane one. */
static void test_rail_names(void)
{
	struct topo *t = tr_build("topology: {kind: rail-optimised, nodes_per_unit: 2, nodes: 2}\n");
	const struct topo_node *n;

	CU_ASSERT_STRING_EQUAL(t->nodes[0].name, "node0/nic0");
	CU_ASSERT_STRING_EQUAL(t->nodes[7].name, "node0/nic7");
	CU_ASSERT_STRING_EQUAL(t->nodes[8].name, "node1/nic0");
	CU_ASSERT_STRING_EQUAL(t->nodes[16].name, "node0/gpu0");
	CU_ASSERT_STRING_EQUAL(t->nodes[31].name, "node1/gpu7");
	CU_ASSERT_STRING_EQUAL(t->nodes[32].name, "leaf0");
	CU_ASSERT_STRING_EQUAL(t->nodes[40].name, "spine0");
	CU_ASSERT_STRING_EQUAL(t->nodes[41].name, "nvl0");
	CU_ASSERT_EQUAL(t->n_hosts, 32);
	CU_ASSERT_EQUAL(t->n_switches, 8 + 1 + 2);
	n = &t->nodes[topo_find(t, "node1/gpu3")];
	CU_ASSERT(n->role == TOPO_ROLE_GPU && n->gpu_node == 1 && n->gpu == 3 && n->group == 1);
	CU_ASSERT_EQUAL(n->net, 1 + 1); /* after the plane's net */
	CU_ASSERT_EQUAL(t->nodes[topo_find(t, "nvl1")].tier, TOPO_TIER_SCALEUP);
	CU_ASSERT_EQUAL(t->gpus.nic[1 * 8 + 5], (uint32_t)topo_find(t, "node1/nic5"));
	CU_ASSERT_EQUAL(t->gpus.nvl[1 * 8 + 5], (uint32_t)topo_find(t, "node1/gpu5"));
	/* leaf3 port 1 is node1's NIC 3; its up ports go to the one spine. */
	CU_ASSERT_EQUAL(topo_peer(t, topo_find(t, "leaf3"), 1), (uint32_t)topo_find(t, "node1/nic3"));
	CU_ASSERT_EQUAL(topo_peer(t, topo_find(t, "leaf3"), 2), (uint32_t)topo_find(t, "spine0"));
	CU_ASSERT_EQUAL(t->nodes[topo_find(t, "spine0")].role, TOPO_ROLE_PLAIN);
	CU_ASSERT_EQUAL(t->gpus.mgmt, TOPO_NO_LINK);
	topo_free(t);

	/* The management host: a node slot of the last unit, leaves 0..3. */
	t = tr_build("topology: {kind: rail-optimised, preset: dgx-h100-superpod, units: 2}\n");
	n = &t->nodes[t->gpus.mgmt];
	CU_ASSERT_STRING_EQUAL(n->name, "mgmt0");
	CU_ASSERT(n->role == TOPO_ROLE_MGMT && n->group == 1 && n->n_ports == 4);
	CU_ASSERT_EQUAL(topo_peer(t, t->gpus.mgmt, 3), (uint32_t)topo_find(t, "leaf11"));
	CU_ASSERT_EQUAL(t->nodes[topo_find(t, "leaf11")].port_links[31],
			t->nodes[t->gpus.mgmt].port_links[3]);
	topo_free(t);

	/* Two planes: names carry the plane, no NVLink. */
	t = tr_build("topology: {kind: rail-optimised, gpus_per_node: 2, nodes_per_unit: 2, units: 1,"
		     " nic_ports: 2, planes: 2, nvlink: none}\n");
	CU_ASSERT(topo_find(t, "plane1/leaf1") >= 0 && topo_find(t, "plane0/spine0") >= 0);
	CU_ASSERT_EQUAL(topo_find(t, "leaf0"), -1);
	CU_ASSERT_EQUAL(t->n_hosts, 4);
	CU_ASSERT_PTR_NULL(t->gpus.nvl);
	CU_ASSERT_EQUAL(t->gpus.domain_gpus, 0);
	CU_ASSERT_EQUAL(topo_peer(t, 0, 1), (uint32_t)topo_find(t, "plane1/leaf0"));
	CU_ASSERT_EQUAL(t->nodes[topo_find(t, "plane1/spine0")].net, 1);
	topo_free(t);
}

/* topo_check per net: islands that are fine as separate nets, a NIC port
 * wired into the wrong plane, and one broken plane. */
static void test_rail_check_nets(void)
{
	static const struct cfg_mark no_mark = { 0 };
	static const struct topo_link_params lp = { .rate_bps = 100 * G_BPS, .delay_ps = 1000000 };
	char err[CFG_ERR_BYTES];
	struct topo *t = topo_alloc("explicit", 4, 4);

	/* h0 and h1, dual-plane: port p on switch sp. */
	topo_set_node(t, 0, "h0", TOPO_HOST, 0, 2, &no_mark);
	topo_set_node(t, 1, "h1", TOPO_HOST, 0, 2, &no_mark);
	topo_set_node(t, 2, "s0", TOPO_SWITCH, 1, 2, &no_mark);
	topo_set_node(t, 3, "s1", TOPO_SWITCH, 1, 2, &no_mark);
	for (uint32_t h = 0; h < 2; h++) {
		t->nodes[h].port_nets = malloc(2 * sizeof(uint32_t));
		CU_ASSERT_PTR_NOT_NULL_FATAL(t->nodes[h].port_nets);
		t->nodes[h].port_nets[0] = 0;
		t->nodes[h].port_nets[1] = 1;
		topo_set_link(t, 2 * h, h, 0, 2, (uint16_t)h, &lp, &no_mark);
		topo_set_link(t, 2 * h + 1, h, 1, 3, (uint16_t)h, &lp, &no_mark);
	}
	CU_ASSERT_EQUAL(topo_index(t), 0);
	CU_ASSERT_EQUAL(topo_check(t, err), 0);
	/* h1's plane-1 port on plane 0's switch: plane 1 is broken. */
	t->nodes[1].port_nets[0] = 1;
	t->nodes[1].port_nets[1] = 0;
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "topology is disconnected: h1 cannot reach h0");
	topo_free(t);

	/* h0 on s0, h1 on s1: disconnected in one net, fine in two. */
	t = topo_alloc("explicit", 4, 2);
	topo_set_node(t, 0, "h0", TOPO_HOST, 0, 1, &no_mark);
	topo_set_node(t, 1, "h1", TOPO_HOST, 0, 1, &no_mark);
	topo_set_node(t, 2, "s0", TOPO_SWITCH, 1, 1, &no_mark);
	topo_set_node(t, 3, "s1", TOPO_SWITCH, 1, 1, &no_mark);
	topo_set_link(t, 0, 0, 0, 2, 0, &lp, &no_mark);
	topo_set_link(t, 1, 1, 0, 3, 0, &lp, &no_mark);
	CU_ASSERT_EQUAL(topo_index(t), 0);
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "topology is disconnected: h1 cannot reach h0");
	t->nodes[1].net = t->nodes[3].net = 1;
	CU_ASSERT_EQUAL(topo_check(t, err), 0);
	topo_free(t);

	/* A rail fabric with one leaf-spine link of plane 1 cut: that plane's
	 * leaf is unreachable, plane 0 is fine. */
	struct cfg_doc *doc = NULL; /* the marks in messages point into it */

	t = tr_load("topology: {kind: rail-optimised, gpus_per_node: 1, nodes_per_unit: 1, units: 2,"
		    " nic_ports: 2, planes: 2, nvlink: none}\n", &doc);
	uint32_t leaf = (uint32_t)topo_find(t, "plane1/leaf1"), l = t->nodes[leaf].port_links[1];
	uint32_t spine = t->links[l].node[1];

	uint32_t last = t->n_links - 1;

	t->nodes[spine].port_links[t->links[l].port[1]] = TOPO_NO_LINK;
	t->nodes[leaf].port_links[1] = TOPO_NO_LINK;
	if (l != last) {
		t->links[l] = t->links[last];
		t->nodes[t->links[l].node[0]].port_links[t->links[l].port[0]] = l;
		t->nodes[t->links[l].node[1]].port_links[t->links[l].port[1]] = l;
	}
	t->n_links--;
	CU_ASSERT_EQUAL(topo_check(t, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "r.yaml:1:11: topology is disconnected: node1/nic0 cannot reach node0/nic0");
	topo_free(t);
	cfg_doc_free(doc);
}

/* The closed form (topo_rail_bisection) against the max-flow heuristic of
 * topo_describe.c over the same graph (an upper bound: min-cuts of a few
 * balanced splits): equal where the closed form says it is exact, never
 * above it. No NVLink or management host, so every host is a GPU NIC. */
static void test_rail_bisection(void)
{
	static const struct {
		const char *keys;
		uint64_t want_g; /* Gbps */
		int exact;
	} cases[] = {
		/* 1:1, two tiers: N/2 x 400G = 4 x 400G. */
		{ "gpus_per_node: 2, nodes_per_unit: 2, units: 2, radix: 8", 1600, 1 },
		/* 2:1 leaves halve it: 16 NICs, 8 x 400G / 2. */
		{ "gpus_per_node: 2, nodes_per_unit: 4, units: 2, radix: 8, leaf_oversubscription: 2:1",
		  1600, 1 },
		/* Three tiers, radix 4: the k=4 fat-tree's 8 x 400G. */
		{ "gpus_per_node: 2, nodes_per_unit: 2, units: 4, radix: 4, tiers: 3", 3200, 1 },
		/* A 2:1 spine: half the pod's capacity leaves it; 2 pods. */
		{ "gpus_per_node: 2, nodes_per_unit: 2, units: 4, radix: 6, spine_oversubscription: 2:1",
		  1600, 1 },
		/* Two planes: twice one plane. */
		{ "gpus_per_node: 2, nodes_per_unit: 2, units: 2, radix: 8, nic_ports: 2, planes: 2", 3200, 1 },
		/* Two ports on one plane: c = 2 ports per leaf. */
		{ "gpus_per_node: 2, nodes_per_unit: 2, units: 2, radix: 8, nic_ports: 2", 3200, 1 },
		/* Odd leaves (three rails' worth of units), host term least: exact. */
		{ "gpus_per_node: 1, nodes_per_unit: 2, units: 3, radix: 8", 1200, 1 },
		/* A partial unit at 2:1: the leaf term, uneven leaves: a lower bound. */
		{ "gpus_per_node: 2, nodes_per_unit: 4, nodes: 6, radix: 8, leaf_oversubscription: 2:1",
		  1200, 0 },
	};
	char yaml[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(yaml, sizeof(yaml), "topology: {kind: rail-optimised, nvlink: none, %s}\n",
			 cases[i].keys);

		struct topo *t = tr_build(yaml);
		int exact = -1;
		uint64_t closed = topo_rail_bisection(t, &exact), flow;
		const char *kind = t->kind;

		/* As an explicit graph it is measured by max-flow. */
		t->kind = "explicit";
		flow = topo_bisection_bps(t);
		t->kind = kind;
		CU_ASSERT_EQUAL(topo_bisection_bps(t), closed);
		CU_ASSERT_EQUAL(exact, cases[i].exact);
		CU_ASSERT(closed <= flow);
		if (closed != cases[i].want_g * G_BPS || (exact && closed != flow)) {
			fprintf(stderr, "\n  case %zu: closed %llu, max-flow %llu, want %llu\n", i,
				(unsigned long long)closed, (unsigned long long)flow,
				(unsigned long long)(cases[i].want_g * G_BPS));
			CU_FAIL("bisection");
		}
		topo_free(t);
	}
}

/* The presets' values land in the document (the resolved experiment);
 * a user's keys override them, also inside the link maps. */
static void test_rail_presets_resolved(void)
{
	struct cfg_doc *doc = NULL;
	char err[CFG_ERR_BYTES], *text = NULL;
	size_t len = 0;
	struct topo *t = tr_load("topology:\n  kind: rail-optimised\n  preset: dgx-b200-superpod\n"
				 "  nodes: 30\n  management_ports: 2\n  nvlink: {domain_gpus: 16}\n"
				 "  host_link: {delay: 2us}\n", &doc);
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_EQUAL(cfg_doc_write(doc, f, err), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "gpus_per_node: 8"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "nodes_per_unit: 32"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "radix: 64"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "management_ports: 2"));
	CU_ASSERT_PTR_NULL(strstr(text, "management_ports: 0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "rate: 7.2Tbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "domain_gpus: 16"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "delay: 2us"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "rate: 400Gbps"));
	CU_ASSERT_EQUAL(t->gpus.n_nodes, 30);
	CU_ASSERT_EQUAL(t->gpus.mgmt, 2 * 240);
	CU_ASSERT_EQUAL(t->gpus.domain_gpus, 16);
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_node *a = &t->nodes[t->links[l].node[0]];

		if (a->role == TOPO_ROLE_GPU)
			CU_ASSERT_EQUAL(t->links[l].rate_bps, 7200 * G_BPS);
		if (a->role == TOPO_ROLE_NIC)
			CU_ASSERT(t->links[l].rate_bps == 400 * G_BPS && t->links[l].delay_ps == 2000000);
	}
	topo_free(t);
	cfg_doc_free(doc);

	/* The resolved text builds the same fabric again. */
	t = tr_build(text);
	CU_ASSERT(t->gpus.n_nodes == 30 && t->gpus.domain_gpus == 16 && t->n_links > 0);
	topo_free(t);
	free(text);

	/* management_ports: 0 written means none (docs: "0: none"), even under
	 * the H100 preset, whose own value is 4: the unit keeps all 32 node
	 * slots for GPU nodes, 256 node-leaf cables, no mgmt0. */
	t = tr_build("topology: {kind: rail-optimised, preset: dgx-h100-superpod, units: 1,"
		     " management_ports: 0}\n");
	CU_ASSERT_EQUAL(t->gpus.n_nodes, 32);
	CU_ASSERT_EQUAL(tr_count(t).node_leaf, 256);
	for (uint32_t i = 0; i < t->n_nodes; i++)
		CU_ASSERT_NOT_EQUAL(t->nodes[i].role, TOPO_ROLE_MGMT);
	topo_free(t);

	/* Without a preset: the table's defaults, H100's NVLink rate. */
	t = tr_load("topology: {kind: rail-optimised, nodes: 4, nvlink: {}}\n", &doc);
	f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(cfg_doc_write(doc, f, err), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "rate: 3.6Tbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "delay: 100ns"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "tiers: auto"));
	CU_ASSERT_EQUAL(t->gpus.n_units, 1);
	free(text);
	topo_free(t);
	cfg_doc_free(doc);
}

static void test_rail_describe_dot(void)
{
	struct topo *t = tr_build("topology: {kind: rail-optimised, preset: dgx-h100-superpod, units: 3}\n");
	char *s = test_topo_print(t, topo_describe);

	CU_ASSERT_PTR_NOT_NULL(strstr(s, "rail-optimised: 760 GPUs in 95 nodes of 8, 3 units of 32 node slots"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "NVLink domains: 95 of 8 GPUs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "spine: 16 switches, 48/64 ports"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "leaf: 24 switches, 63..64/64 ports"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "node-leaf: 764 (760 GPU NIC + 4 management) x 400Gbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "leaf-spine: 768 x 400Gbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "gpu-nvl: 760 x 3.6Tbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "leaf: 1.00:1 (32 x 400Gbps down, 32 x 400Gbps up)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "bisection bandwidth (GPU NICs, scale-out): 152Tbps (100%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "memory: "));
	free(s);
	s = test_topo_print(t, topo_dot);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "subgraph cluster_unit2 {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "subgraph cluster_pod0 {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "subgraph cluster_nvl94 {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"node1/nic2\" -- \"leaf2\" [label=\"400G\", taillabel=\"0\", headlabel=\"1\"];"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"node0/gpu7\" -- \"nvl0\" [label=\"3.6T\", taillabel=\"0\", headlabel=\"7\"];"));
	CU_ASSERT_EQUAL(s[strlen(s) - 2], '}');
	free(s);
	topo_free(t);

	t = tr_build("topology: {kind: rail-optimised, preset: dgx-b200-superpod, units: 16}\n");
	s = test_topo_print(t, topo_describe);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "4 pods"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "core: 64 switches, 64/64 ports"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "spine-core: 4096 x 400Gbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "gpu-nvl: 4096 x 7.2Tbps"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "spine: 1.00:1"));
	free(s);
	s = test_topo_print(t, topo_dot);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "subgraph cluster_pod3 {"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\t\"core63\";\n"));
	free(s);
	topo_free(t);
}

/* The largest preset (16,384 GPUs): its arrays, and a build well inside
 * the bound (loose: sanitizers and a shared machine; `fabemu topo` is
 * timed in docs/config.md). */
static void test_rail_16k(void)
{
	struct topo *t = tr_build("topology: {kind: rail-optimised, preset: dgx-b200-superpod, units: 64}\n");

	CU_ASSERT_EQUAL(t->n_hosts, 2 * 16384);
	CU_ASSERT_EQUAL(t->n_links, 4 * 16384);
	CU_ASSERT(topo_mem_bytes(t) > (size_t)t->n_nodes * sizeof(struct topo_node));
	CU_ASSERT(topo_mem_bytes(t) < (size_t)64 << 20);
	CU_ASSERT(t->build_ns > 0 && t->build_ns < UINT64_C(5000000000));
	topo_free(t);
}

/* The shipped topology files build, pass the check and route, with the
 * counts their header comments give. */
static void test_rail_shipped(void)
{
#ifdef FAB_TEST_DATA_DIR
	static const struct {
		const char *file;
		uint32_t gpus, leaves, spines, cores, nvl;
	} cases[] = {
		{ "dgx-h100-superpod.yaml", 248, 8, 4, 0, 31 },
		{ "dgx-b200-superpod.yaml", 1024, 32, 16, 0, 128 },
		{ "rail-2node-8gpu.yaml", 16, 8, 1, 0, 2 },
		{ "gb200-nvl72.yaml", 144, 8, 3, 0, 2 },
		{ "rail-multi-plane.yaml", 128, 32, 4, 0, 16 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512], err[CFG_ERR_BYTES];
		struct topo_routes *r = NULL;
		struct cfg_doc *doc = NULL;
		struct topo *t = NULL;

		snprintf(path, sizeof(path), "%s/../../topologies/%s", FAB_TEST_DATA_DIR, cases[i].file);
		CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, &doc, err), 0);
		CU_ASSERT_EQUAL_FATAL(topo_from_cfg(doc, cfg_schema_get(cfg_doc_root(doc), "topology"), &t, err), 0);

		struct tr_counts c = tr_count(t);

		CU_ASSERT_EQUAL(t->gpus.n_nodes * t->gpus.gpus_per_node, cases[i].gpus);
		CU_ASSERT_EQUAL(c.leaves, cases[i].leaves);
		CU_ASSERT_EQUAL(c.spines, cases[i].spines);
		CU_ASSERT_EQUAL(c.cores, cases[i].cores);
		CU_ASSERT_EQUAL(c.nvl, cases[i].nvl);
		CU_ASSERT_EQUAL(tr_structure(t), 0);
		CU_ASSERT_EQUAL(topo_routes_build(t, &r, err), 0);
		topo_routes_free(r);
		topo_free(t);
		cfg_doc_free(doc);
	}
#endif
}

int test_topo_rail_register(void)
{
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{ "DGX H100 SuperPOD table (1-4 SUs)", test_rail_h100_table },
		{ "DGX B200 SuperPOD table (2-64 SUs)", test_rail_b200_table },
		{ "wiring: rails, pods, cores, planes, NVLink", test_rail_structure },
		{ "names, node order, GPU metadata", test_rail_names },
		{ "check per net (planes, domains)", test_rail_check_nets },
		{ "bisection: closed form vs max-flow", test_rail_bisection },
		{ "presets in the resolved document", test_rail_presets_resolved },
		{ "describe and dot", test_rail_describe_dot },
		{ "16,384 GPUs: memory and build time", test_rail_16k },
		{ "shipped topology files", test_rail_shipped },
	};
	CU_pSuite s = CU_add_suite("topo-rail", NULL, NULL);

	if (s == NULL)
		return CU_get_error();
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (CU_add_test(s, tests[i].name, tests[i].fn) == NULL)
			return CU_get_error();
	return 0;
}
