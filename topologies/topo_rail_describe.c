/* The rail-optimised topology kind, for people: the `fabemu topo` summary
 * (GPUs, units, pods, planes, NVLink domains, switches and cables per tier,
 * memory, build time), the Graphviz drawing (clusters per unit, pod and
 * NVLink domain, port numbers), and the bisection bandwidth in closed form. */
#include <stdio.h>
#include <stdlib.h>

#include "topo_int.h"
#include "units.h"

enum {
	TOPO_RAIL_PCT = 100,               /* percent */
	TOPO_RAIL_BYTES_PER_MIB = 1 << 20, /* bytes per MiB */
	TOPO_RAIL_NS_PER_MS = 1000000,     /* ns per ms */
};

/* Kinds of cable, in the order of the summary. */
enum topo_rail_cable {
	TOPO_RAIL_NIC_LEAF,    /* GPU NIC - leaf */
	TOPO_RAIL_MGMT_LEAF,   /* management host - leaf */
	TOPO_RAIL_LEAF_SPINE,  /* leaf - spine */
	TOPO_RAIL_SPINE_CORE,  /* spine - core */
	TOPO_RAIL_GPU_NVL,     /* GPU endpoint - NVLink switch */
	TOPO_RAIL_N_CABLES,
};

/* Cables of one kind: how many, and the first one's rate and delay. */
struct topo_rail_cables {
	uint32_t n_links;   /* links of this kind */
	uint64_t rate_bps;  /* of the first */
	uint64_t delay_ps;  /* of the first */
};

static enum topo_rail_cable topo_rail_cable_of(const struct topo *t, const struct topo_link *k)
{
	const struct topo_node *a = &t->nodes[k->node[0]], *b = &t->nodes[k->node[1]];
	uint8_t hi = a->tier > b->tier ? a->tier : b->tier;
	uint8_t role = a->kind == TOPO_HOST ? a->role : b->role;

	if (hi == TOPO_TIER_SCALEUP)
		return TOPO_RAIL_GPU_NVL;
	if (hi == TOPO_TIER_LEAF)
		return role == TOPO_ROLE_MGMT ? TOPO_RAIL_MGMT_LEAF : TOPO_RAIL_NIC_LEAF;
	return hi == TOPO_TIER_SPINE ? TOPO_RAIL_LEAF_SPINE : TOPO_RAIL_SPINE_CORE;
}

static void topo_rail_count_cables(const struct topo *t, struct topo_rail_cables c[TOPO_RAIL_N_CABLES])
{
	for (uint32_t l = 0; l < t->n_links; l++) {
		struct topo_rail_cables *k = &c[topo_rail_cable_of(t, &t->links[l])];

		if (k->n_links++ == 0) {
			k->rate_bps = t->links[l].rate_bps;
			k->delay_ps = t->links[l].delay_ps;
		}
	}
}

/* a x b / c, exact for a, c below 2^32 (a x (b mod c) fits), saturating. */
static uint64_t topo_rail_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t q = b / c, r = b % c;

	if (q != 0 && a > UINT64_MAX / q)
		return UINT64_MAX;
	return a * q + a * r / c;
}

/* Bisection of the scale-out fabric: the least capacity of a cut that puts
 * half of the N GPU NICs on each side (NVLink endpoints and the management
 * host do not forward, so they take no part). Per plane, a NIC has c =
 * nic_ports / planes ports of rate r_h to its leaf; a leaf has U uplinks of
 * rate r_f, a spine U_s; a pod has S spines.
 *
 * Lower bound: let every NIC of side A send x to side B, spread evenly
 * over every spine of its pod and every core of its spines' groups (the
 * fabric is symmetric, so every leaf uplink, spine uplink and core link
 * of a leaf or pod carries an equal share). A leaf of H NICs then puts
 * H x on its U uplinks, a pod of P NICs P x on its S U_s spine uplinks,
 * and the same arrives at the other side, so with H_max and P_max the
 * fullest leaf and pod the flow fits whenever
 *   x <= min(c r_h, U r_f / H_max, S U_s r_f / P_max)   (per plane),
 * and all of N/2 x crosses any balanced cut:
 *   bisection >= planes x N/2 x min(c r_h, U r_f / H_max, S U_s r_f / P_max).
 * Upper bound: three balanced cuts cost exactly one term each: N/2 NICs
 * alone on one side (the host links), half the leaves with all their NICs
 * (each spine cuts half its leaf links), half the pods (each core half its
 * spine links). The second needs leaves of equal population, an even
 * number in every pod; the third pods of equal population, an even number
 * of them. So the value is exact when the host term is the least, or the
 * least term's cut exists; otherwise it is a lower bound. At 1:1 with full
 * units it is N/2 NIC capacities; a 2:1 leaf halves U, and the value. */
uint64_t topo_rail_bisection(const struct topo *t, int *exact)
{
	const struct topo_gpus *g = &t->gpus;
	struct topo_rail_cables c[TOPO_RAIL_N_CABLES] = { 0 };
	uint64_t half = (uint64_t)g->n_nodes * g->gpus_per_node / 2, per_leaf = g->nic_ports / g->n_planes;
	uint64_t h_max = g->n_nodes < g->nodes_per_unit ? g->n_nodes : g->nodes_per_unit;
	uint64_t pod_nodes = (uint64_t)g->units_per_pod * g->nodes_per_unit;
	uint64_t p_max = (pod_nodes < g->n_nodes ? pod_nodes : g->n_nodes) * g->gpus_per_node;
	int leaves_even = g->gpus_per_node * g->units_per_pod % 2 == 0 &&
			  g->gpus_per_node * (g->n_units - (g->n_pods - 1) * g->units_per_pod) % 2 == 0;
	int even_units = g->n_units == 1 || g->n_nodes % g->nodes_per_unit == 0;
	uint64_t host, leaf, spine = UINT64_MAX, best;
	int ok;

	topo_rail_count_cables(t, c);
	host = half * per_leaf * c[TOPO_RAIL_NIC_LEAF].rate_bps;
	leaf = topo_rail_muldiv(half * g->leaf_up_ports, c[TOPO_RAIL_LEAF_SPINE].rate_bps, h_max);
	if (g->n_tiers == 3)
		spine = topo_rail_muldiv(half * (g->n_spines / g->n_pods) * g->spine_up_ports,
					 c[TOPO_RAIL_SPINE_CORE].rate_bps, p_max);
	best = host < leaf ? host : leaf;
	best = spine < best ? spine : best;
	ok = host == best || (leaf == best && even_units && leaves_even) ||
	     (spine == best && even_units && g->n_units % g->units_per_pod == 0 && g->n_pods % 2 == 0);
	if (exact != NULL)
		*exact = ok;
	return best > UINT64_MAX / g->n_planes ? UINT64_MAX : best * g->n_planes;
}

static void topo_rail_describe_switches(const struct topo *t, FILE *out)
{
	static const struct {
		uint8_t tier;
		const char *name;
	} tiers[] = {
		{ TOPO_TIER_LEAF, "leaf" },
		{ TOPO_TIER_SPINE, "spine" },
		{ TOPO_TIER_CORE, "core" },
		{ TOPO_TIER_SCALEUP, "scale-up (nvl)" },
	};

	fprintf(out, "switches (ports used/radix):\n");
	for (size_t i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++) {
		uint32_t n = 0, lo = UINT32_MAX, hi = 0, radix = t->gpus.radix;

		for (uint32_t s = 0; s < t->n_switches; s++) {
			const struct topo_node *sw = &t->nodes[t->switches[s]];
			uint32_t used = 0;

			if (sw->tier != tiers[i].tier)
				continue;
			for (uint16_t p = 0; p < sw->n_ports; p++)
				used += sw->port_links[p] != TOPO_NO_LINK;
			n++;
			lo = used < lo ? used : lo;
			hi = used > hi ? used : hi;
			radix = tiers[i].tier == TOPO_TIER_SCALEUP ? sw->n_ports : radix;
		}
		if (n == 0)
			continue;
		fprintf(out, "  %s: %u switch%s", tiers[i].name, n, n == 1 ? "" : "es");
		if (t->gpus.n_planes > 1 && tiers[i].tier != TOPO_TIER_SCALEUP)
			fprintf(out, " (%u per plane)", n / t->gpus.n_planes);
		if (lo == hi)
			fprintf(out, ", %u/%u ports\n", lo, radix);
		else
			fprintf(out, ", %u..%u/%u ports\n", lo, hi, radix);
	}
}

static void topo_rail_describe_cables(FILE *out, const struct topo_rail_cables c[TOPO_RAIL_N_CABLES])
{
	static const char *const names[TOPO_RAIL_N_CABLES] = {
		"node-leaf", "", "leaf-spine", "spine-core", "gpu-nvl",
	};
	char rate[TOPO_RATE_BYTES];

	fprintf(out, "cables:\n");
	for (int i = 0; i < TOPO_RAIL_N_CABLES; i++) {
		const struct topo_rail_cables *k = &c[i];

		if (i == TOPO_RAIL_MGMT_LEAF || k->n_links == 0)
			continue;
		units_fmt_rate(rate, sizeof(rate), k->rate_bps);
		if (i == TOPO_RAIL_NIC_LEAF && c[TOPO_RAIL_MGMT_LEAF].n_links > 0)
			fprintf(out, "  %s: %u (%u GPU NIC + %u management) x %s, %gus\n", names[i],
				k->n_links + c[TOPO_RAIL_MGMT_LEAF].n_links, k->n_links,
				c[TOPO_RAIL_MGMT_LEAF].n_links, rate, units_ps_to_us(k->delay_ps));
		else
			fprintf(out, "  %s: %u x %s, %gus\n", names[i], k->n_links, rate,
				units_ps_to_us(k->delay_ps));
	}
}

/* The designed ratio of a tier: @down ports at @down_bps, @up at @up_bps. */
static void topo_rail_describe_ratio(FILE *out, const char *name, uint32_t down, uint64_t down_bps,
				     uint32_t up, uint64_t up_bps)
{
	char a[TOPO_RATE_BYTES], b[TOPO_RATE_BYTES];

	units_fmt_rate(a, sizeof(a), down_bps);
	units_fmt_rate(b, sizeof(b), up_bps);
	fprintf(out, "  %s: %.2f:1 (%u x %s down, %u x %s up)\n", name,
		(double)down * (double)down_bps / ((double)up * (double)up_bps), down, a, up, b);
}

void topo_rail_describe(const struct topo *t, FILE *out)
{
	const struct topo_gpus *g = &t->gpus;
	struct topo_rail_cables c[TOPO_RAIL_N_CABLES] = { 0 };
	uint32_t n_gpus = g->n_nodes * g->gpus_per_node, n_mgmt = g->mgmt != TOPO_NO_LINK;
	uint32_t leaf = t->switches[0], spine = TOPO_NO_LINK;
	char a[TOPO_RATE_BYTES], b[TOPO_RATE_BYTES];
	size_t bytes = topo_mem_bytes(t);
	int exact;
	uint64_t bis = topo_rail_bisection(t, &exact);

	topo_rail_count_cables(t, c);
	for (uint32_t s = 0; s < t->n_switches && spine == TOPO_NO_LINK; s++)
		if (t->nodes[t->switches[s]].tier == TOPO_TIER_SPINE)
			spine = t->switches[s];
	fprintf(out, "%s: %u GPUs in %u nodes of %u, %u unit%s of %u node slots, %u pod%s, %u plane%s\n",
		t->kind, n_gpus, g->n_nodes, g->gpus_per_node, g->n_units, g->n_units == 1 ? "" : "s",
		g->nodes_per_unit, g->n_pods, g->n_pods == 1 ? "" : "s", g->n_planes,
		g->n_planes == 1 ? "" : "s");
	fprintf(out, "  NICs: %u (one per GPU), %u port%s each\n", n_gpus, g->nic_ports,
		g->nic_ports == 1 ? "" : "s");
	if (g->domain_gpus > 0)
		fprintf(out, "  NVLink domains: %u of %u GPUs\n", g->n_domains, g->domain_gpus);
	else
		fprintf(out, "  NVLink domains: none\n");
	fprintf(out, "  hosts: %u (%u NICs, %u NVLink endpoints, %u management), switches: %u, links: %u\n",
		t->n_hosts, n_gpus, g->domain_gpus > 0 ? n_gpus : 0, n_mgmt, t->n_switches, t->n_links);
	topo_rail_describe_switches(t, out);
	topo_rail_describe_cables(out, c);
	fprintf(out, "oversubscription (downlink:uplink capacity):\n");
	topo_rail_describe_ratio(out, "leaf", t->nodes[leaf].n_ports - g->leaf_up_ports,
				 c[TOPO_RAIL_NIC_LEAF].rate_bps, g->leaf_up_ports,
				 c[TOPO_RAIL_LEAF_SPINE].rate_bps);
	if (g->n_tiers == 3)
		topo_rail_describe_ratio(out, "spine", t->nodes[spine].n_ports - g->spine_up_ports,
					 c[TOPO_RAIL_LEAF_SPINE].rate_bps, g->spine_up_ports,
					 c[TOPO_RAIL_SPINE_CORE].rate_bps);
	uint64_t half_bps = (uint64_t)n_gpus / 2 * g->nic_ports * c[TOPO_RAIL_NIC_LEAF].rate_bps;

	units_fmt_rate(a, sizeof(a), bis);
	units_fmt_rate(b, sizeof(b), half_bps);
	fprintf(out, "bisection bandwidth (GPU NICs, scale-out): %s%s (%.0f%% of half the GPU NIC "
		"capacity, %s)\n", exact ? "" : "at least ", a,
		half_bps ? TOPO_RAIL_PCT * (double)bis / (double)half_bps : 0.0, b);
	fprintf(out, "memory: %zu bytes (%.1f MiB) in the topology's arrays; built in %.3f ms\n",
		bytes, (double)bytes / TOPO_RAIL_BYTES_PER_MIB, (double)t->build_ns / TOPO_RAIL_NS_PER_MS);
}

/* Cluster of a node in the drawing: its unit (NICs, management host,
 * leaves of every plane), its plane's pod (spines), its NVLink domain
 * (GPU endpoints, the nvl switch); UINT32_MAX for cores. */
static uint32_t topo_rail_cluster(const struct topo *t, const struct topo_node *n)
{
	const struct topo_gpus *g = &t->gpus;

	if (n->tier == TOPO_TIER_SCALEUP || n->role == TOPO_ROLE_GPU)
		return g->n_units + g->n_planes * g->n_pods + n->group;
	if (n->tier == TOPO_TIER_SPINE)
		return g->n_units + n->net * g->n_pods + n->group;
	return n->tier == TOPO_TIER_CORE ? UINT32_MAX : n->group;
}

static void topo_rail_dot_node(FILE *out, const struct topo_node *n)
{
	fprintf(out, "\t\t\"%s\"%s;\n", n->name, n->kind == TOPO_HOST ? " [shape=box]" : "");
}

void topo_rail_dot(const struct topo *t, FILE *out)
{
	const struct topo_gpus *g = &t->gpus;
	uint32_t n_clusters = g->n_units + g->n_planes * g->n_pods + g->n_domains;
	uint32_t *first = calloc((size_t)n_clusters + 1, sizeof(*first));
	uint32_t *order = malloc((t->n_nodes ? t->n_nodes : 1) * sizeof(*order));
	char rate[TOPO_RATE_BYTES];

	fprintf(out, "graph fabric {\n\trankdir=BT;\n\tnode [shape=ellipse];\n");
	if (first != NULL && order != NULL) {
		/* Nodes bucketed by cluster (a counting sort), then one subgraph each. */
		for (uint32_t i = 0; i < t->n_nodes; i++) {
			uint32_t k = topo_rail_cluster(t, &t->nodes[i]);

			if (k != UINT32_MAX)
				first[k + 1]++;
		}
		for (uint32_t k = 0; k < n_clusters; k++)
			first[k + 1] += first[k];
		for (uint32_t i = 0, k; i < t->n_nodes; i++)
			if ((k = topo_rail_cluster(t, &t->nodes[i])) != UINT32_MAX)
				order[first[k]++] = i;
		for (uint32_t k = n_clusters; k > 0; k--)
			first[k] = first[k - 1];
		first[0] = 0;
		for (uint32_t k = 0; k < n_clusters; k++) {
			uint32_t pod = k - g->n_units, dom = pod - g->n_planes * g->n_pods;

			if (k < g->n_units)
				fprintf(out, "\tsubgraph cluster_unit%u {\n\t\tlabel=\"unit %u\";\n", k, k);
			else if (pod < g->n_planes * g->n_pods && g->n_planes > 1)
				fprintf(out, "\tsubgraph cluster_plane%u_pod%u {\n\t\tlabel=\"plane %u pod %u\";\n",
					pod / g->n_pods, pod % g->n_pods, pod / g->n_pods, pod % g->n_pods);
			else if (pod < g->n_pods)
				fprintf(out, "\tsubgraph cluster_pod%u {\n\t\tlabel=\"pod %u\";\n", pod, pod);
			else
				fprintf(out, "\tsubgraph cluster_nvl%u {\n\t\tlabel=\"NVLink domain %u\";\n",
					dom, dom);
			for (uint32_t i = first[k]; i < first[k + 1]; i++)
				topo_rail_dot_node(out, &t->nodes[order[i]]);
			fprintf(out, "\t}\n");
		}
	}
	for (uint32_t i = 0; i < t->n_nodes; i++)
		if (t->nodes[i].tier == TOPO_TIER_CORE)
			fprintf(out, "\t\"%s\";\n", t->nodes[i].name);
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];
		int lower = t->nodes[k->node[1]].tier < t->nodes[k->node[0]].tier;

		topo_desc_rate_short(rate, k->rate_bps);
		fprintf(out, "\t\"%s\" -- \"%s\" [label=\"%s\", taillabel=\"%u\", headlabel=\"%u\"];\n",
			t->nodes[k->node[lower]].name, t->nodes[k->node[!lower]].name, rate,
			k->port[lower], k->port[!lower]);
	}
	fprintf(out, "}\n");
	free(first);
	free(order);
}
