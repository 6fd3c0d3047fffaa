/* Topologies, for people: a summary (`fabemu topo`: counts per tier, link
 * classes, oversubscription per tier, bisection bandwidth), a Graphviz
 * drawing (`fabemu topo --dot`), and the bisection bandwidth itself: closed
 * forms for the regular builders, max-flow over balanced host splits for
 * explicit and ns3 graphs. A kind may bring its own of each (struct
 * topo_kind's describe, dot and bisection; rail-optimised does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"
#include "units.h"

enum {
	TOPO_N_TIERS = UINT8_MAX + 1, /* tier is a uint8_t */
	TOPO_N_SPLITS = 3,            /* balanced host orders the heuristic tries */
};

#define TOPO_FLOW_INF (UINT64_MAX / 4) /* capacity of source and sink arcs */

static uint64_t topo_desc_mul_sat(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t topo_desc_add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static const struct topo_link *topo_desc_host_link(const struct topo *t, uint32_t h)
{
	const struct topo_node *n = &t->nodes[t->hosts[h]];

	for (uint16_t p = 0; p < n->n_ports; p++)
		if (n->port_links[p] != TOPO_NO_LINK)
			return &t->links[n->port_links[p]];
	return NULL;
}

/* Capacity from switch @s to the nodes of tier @tier, each direction. */
static uint64_t topo_desc_capacity_to_tier(const struct topo *t, uint32_t s, uint8_t tier)
{
	const struct topo_node *n = &t->nodes[s];
	uint64_t bps = 0;

	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t m = topo_peer(t, s, p);

		if (m != TOPO_NO_LINK && t->nodes[m].tier == tier)
			bps = topo_desc_add_sat(bps, t->links[n->port_links[p]].rate_bps);
	}
	return bps;
}

static uint32_t topo_desc_first_of_tier(const struct topo *t, uint8_t tier)
{
	for (uint32_t s = 0; s < t->n_switches; s++)
		if (t->nodes[t->switches[s]].tier == tier)
			return t->switches[s];
	return TOPO_NO_LINK;
}

static uint32_t topo_desc_count_tier(const struct topo *t, uint8_t tier)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->n_nodes; i++)
		n += t->nodes[i].tier == tier;
	return n;
}

/* Two levels: L leaves (tier 1) of H hosts at host rate r each, every leaf
 * with the same uplink capacity U (in a leaf-spine U = spines x
 * links_per_spine x fabric rate; in a 2-tier fat-tree U = k/2 x fabric
 * rate), every spine reaching every leaf equally. A balanced cut puts a of
 * the leaves on side A. Each spine then cuts the smaller share of its leaf
 * links wherever it goes, min(a, L-a) x U over all spines, and the N/2
 * hosts of side A fill those a leaves as far as they go, cutting the host
 * links of the |a H - N/2| hosts that sit across from their leaf. So
 *   bisection = min over a = 0..L of |a H - N/2| r + min(a, L-a) U,
 * which for even L is L/2 x min(H r, U). */
uint64_t topo_bisection_two_level(const struct topo *t)
{
	uint32_t leaf = topo_desc_first_of_tier(t, 1), n_leaves = topo_desc_count_tier(t, 1);
	uint64_t half = t->n_hosts / 2, best = UINT64_MAX;

	if (leaf == TOPO_NO_LINK || topo_desc_host_link(t, 0) == NULL)
		return 0;

	uint64_t per_leaf = t->n_hosts / n_leaves;
	uint64_t rate_bps = topo_desc_host_link(t, 0)->rate_bps;
	uint64_t up_bps = topo_desc_capacity_to_tier(t, leaf, 2);

	for (uint64_t a = 0; a <= n_leaves; a++) {
		uint64_t on_a = a * per_leaf;
		uint64_t stray = on_a > half ? on_a - half : half - on_a;
		uint64_t leaves = a < n_leaves - a ? a : n_leaves - a;
		uint64_t cut = topo_desc_add_sat(topo_desc_mul_sat(stray, rate_bps), topo_desc_mul_sat(leaves, up_bps));

		if (cut < best)
			best = cut;
	}
	return best;
}

/* Three-tier k-ary fat-tree, N = k^3/4 hosts at rate r_h, fabric links at
 * r_f. With r_h = r_f = r it is rearrangeably non-blocking: every balanced
 * cut crosses at least N/2 links (host, edge-agg or agg-core), and cutting
 * the hosts of half the pods, or the uplinks of half the edges, crosses
 * exactly N/2. With different rates any such cut still crosses h host and f
 * fabric links with h + f >= N/2, so it costs at least N/2 x min(r_h, r_f),
 * and one of the two cuts above costs exactly that:
 *   bisection = k^3/8 x min(r_h, r_f)   (k=4 at 100G: 8 x 100G = 800G). */
uint64_t topo_bisection_fat_tree3(const struct topo *t)
{
	uint32_t edge = topo_desc_first_of_tier(t, 1);

	if (edge == TOPO_NO_LINK || topo_desc_host_link(t, 0) == NULL)
		return 0;

	uint64_t r_h = topo_desc_host_link(t, 0)->rate_bps, r_f = r_h;
	const struct topo_node *n = &t->nodes[edge];

	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t m = topo_peer(t, edge, p);

		if (m != TOPO_NO_LINK && t->nodes[m].tier == 2)
			r_f = t->links[n->port_links[p]].rate_bps;
	}
	return topo_desc_mul_sat(t->n_hosts / 2, r_h < r_f ? r_h : r_f);
}

/* Residual graph for Dinic's max-flow: arcs 2i and 2i+1 are each other's
 * reverse; an undirected link is two arcs of its full capacity. */
struct topo_flow {
	uint32_t n_verts;
	uint32_t n_arcs;
	uint32_t *head;  /* n_verts: first arc out, UINT32_MAX when none */
	uint32_t *next;  /* per arc: next arc out of the same vertex */
	uint32_t *to;    /* per arc: head vertex */
	uint64_t *cap;   /* per arc: residual capacity, bps */
	uint32_t *level; /* per vertex: BFS level, UINT32_MAX unreached or dead */
	uint32_t *iter;  /* per vertex: next arc to try in this phase */
	uint32_t *stack; /* path of arcs, then BFS queue */
};

static void topo_flow_arc(struct topo_flow *f, uint32_t u, uint32_t v, uint64_t cap, uint64_t back)
{
	uint32_t a = f->n_arcs;

	f->to[a] = v;
	f->cap[a] = cap;
	f->next[a] = f->head[u];
	f->head[u] = a;
	f->to[a + 1] = u;
	f->cap[a + 1] = back;
	f->next[a + 1] = f->head[v];
	f->head[v] = a + 1;
	f->n_arcs += 2;
}

static int topo_flow_levels(struct topo_flow *f, uint32_t s, uint32_t sink)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t v = 0; v < f->n_verts; v++)
		f->level[v] = UINT32_MAX;
	f->level[s] = 0;
	f->stack[tail++] = s;
	while (head < tail) {
		uint32_t u = f->stack[head++];

		for (uint32_t a = f->head[u]; a != UINT32_MAX; a = f->next[a]) {
			if (f->cap[a] == 0 || f->level[f->to[a]] != UINT32_MAX)
				continue;
			f->level[f->to[a]] = f->level[u] + 1;
			f->stack[tail++] = f->to[a];
		}
	}
	return f->level[sink] != UINT32_MAX;
}

/* One blocking flow along level-increasing arcs, without recursion. */
static uint64_t topo_flow_block(struct topo_flow *f, uint32_t s, uint32_t sink)
{
	uint64_t total = 0;
	uint32_t top = 0, u = s;

	memcpy(f->iter, f->head, f->n_verts * sizeof(*f->iter));
	for (;;) {
		if (u == sink) {
			uint64_t push = UINT64_MAX;

			for (uint32_t i = 0; i < top; i++)
				push = f->cap[f->stack[i]] < push ? f->cap[f->stack[i]] : push;
			for (uint32_t i = 0; i < top; i++) {
				f->cap[f->stack[i]] -= push;
				f->cap[f->stack[i] ^ 1] = topo_desc_add_sat(f->cap[f->stack[i] ^ 1], push);
			}
			total = topo_desc_add_sat(total, push);
			top = 0;
			u = s;
			continue;
		}
		uint32_t a = f->iter[u];

		while (a != UINT32_MAX &&
		       (f->cap[a] == 0 || f->level[f->to[a]] != f->level[u] + 1))
			a = f->next[a];
		f->iter[u] = a;
		if (a != UINT32_MAX) {
			f->stack[top++] = a;
			u = f->to[a];
			continue;
		}
		if (u == s)
			return total;
		f->level[u] = UINT32_MAX; /* dead end for the rest of the phase */
		u = f->to[f->stack[--top] ^ 1];
	}
}

/* Minimum cut between the hosts order[0..N/2) and the rest. */
static uint64_t topo_desc_cut_for_split(const struct topo *t, struct topo_flow *f, const uint32_t *order)
{
	uint32_t s = t->n_nodes, sink = t->n_nodes + 1;
	uint64_t total = 0;

	f->n_arcs = 0;
	for (uint32_t v = 0; v < f->n_verts; v++)
		f->head[v] = UINT32_MAX;
	for (uint32_t l = 0; l < t->n_links; l++)
		topo_flow_arc(f, t->links[l].node[0], t->links[l].node[1], t->links[l].rate_bps,
			 t->links[l].rate_bps);
	for (uint32_t i = 0; i < t->n_hosts; i++) {
		if (i < t->n_hosts / 2)
			topo_flow_arc(f, s, order[i], TOPO_FLOW_INF, 0);
		else
			topo_flow_arc(f, order[i], sink, TOPO_FLOW_INF, 0);
	}
	while (topo_flow_levels(f, s, sink))
		total = topo_desc_add_sat(total, topo_flow_block(f, s, sink));
	return total;
}

/* Hosts in search order from @from: neighbours in the graph end up on the
 * same side of the split. */
static void topo_desc_hosts_by_distance(const struct topo *t, uint32_t from, uint32_t *order,
			      uint32_t *dist, uint32_t *queue)
{
	uint32_t n = topo_bfs(t, &from, 1, dist, queue), k = 0;

	for (uint32_t i = 0; i < n; i++)
		if (t->nodes[queue[i]].kind == TOPO_HOST)
			order[k++] = queue[i];
	for (uint32_t h = 0; h < t->n_hosts && k < t->n_hosts; h++)
		if (dist[t->hosts[h]] == UINT32_MAX)
			order[k++] = t->hosts[h];
}

/* Upper bound for any graph: the smallest min-cut over a few balanced host
 * splits (declaration order, search order from the first host, and from
 * the host that search reaches last). Each is a true balanced cut, so the
 * least of them bounds the bisection from above. */
static uint64_t topo_desc_bisection_heuristic(const struct topo *t)
{
	uint32_t n_verts = t->n_nodes + 2, n_arcs = 2 * (t->n_links + t->n_hosts);
	struct topo_flow f = { .n_verts = n_verts };
	uint32_t *order = malloc((size_t)TOPO_N_SPLITS * t->n_hosts * sizeof(*order));
	uint32_t *dist = malloc(t->n_nodes * sizeof(*dist));
	uint64_t best = UINT64_MAX;

	f.head = malloc(n_verts * sizeof(*f.head));
	f.level = malloc(n_verts * sizeof(*f.level));
	f.iter = malloc(n_verts * sizeof(*f.iter));
	f.stack = malloc(n_verts * sizeof(*f.stack));
	f.next = malloc(n_arcs * sizeof(*f.next));
	f.to = malloc(n_arcs * sizeof(*f.to));
	f.cap = malloc(n_arcs * sizeof(*f.cap));
	if (order != NULL && dist != NULL && f.head != NULL && f.level != NULL && f.iter != NULL &&
	    f.stack != NULL && f.next != NULL && f.to != NULL && f.cap != NULL) {
		uint32_t *by_index = order, *near_first = order + t->n_hosts;
		uint32_t *near_last = near_first + t->n_hosts;

		memcpy(by_index, t->hosts, t->n_hosts * sizeof(*order));
		topo_desc_hosts_by_distance(t, t->hosts[0], near_first, dist, f.stack);
		topo_desc_hosts_by_distance(t, near_first[t->n_hosts - 1], near_last, dist, f.stack);
		for (int i = 0; i < TOPO_N_SPLITS; i++) {
			uint64_t cut = topo_desc_cut_for_split(t, &f, order + (size_t)i * t->n_hosts);

			best = cut < best ? cut : best;
		}
	}
	free(order);
	free(dist);
	free(f.head);
	free(f.level);
	free(f.iter);
	free(f.stack);
	free(f.next);
	free(f.to);
	free(f.cap);
	return best == UINT64_MAX ? 0 : best;
}

static uint8_t topo_desc_max_tier(const struct topo *t)
{
	uint8_t top = 0;

	for (uint32_t i = 0; i < t->n_nodes; i++)
		top = t->nodes[i].tier > top ? t->nodes[i].tier : top;
	return top;
}

/* The kind's bisection, or the max-flow bound (*@exact 0). */
static uint64_t topo_desc_bisection(const struct topo *t, int *exact)
{
	const struct topo_kind *k = topo_kind_of(t);

	*exact = 0;
	if (k && k->bisection)
		return k->bisection(t, exact);
	return t->n_hosts < 2 ? 0 : topo_desc_bisection_heuristic(t);
}

uint64_t topo_bisection_bps(const struct topo *t)
{
	int exact;

	return topo_desc_bisection(t, &exact);
}

/* Name of a tier: "host", then the name stem of its first switch ("leaf",
 * "agg") for the kinds whose switch names say their tier (named_tiers),
 * "tier2" for the others (explicit and ns3 graphs). */
static void topo_desc_tier_name(const struct topo *t, uint8_t tier, char buf[TOPO_NAME_BYTES])
{
	uint32_t s = tier == 0 ? TOPO_NO_LINK : topo_desc_first_of_tier(t, tier);
	const struct topo_kind *k = topo_kind_of(t);
	size_t len;

	if (tier == 0) {
		snprintf(buf, TOPO_NAME_BYTES, "host");
		return;
	}
	if (!k || !k->named_tiers || s == TOPO_NO_LINK) {
		snprintf(buf, TOPO_NAME_BYTES, "tier%u", tier);
		return;
	}
	snprintf(buf, TOPO_NAME_BYTES, "%s", t->nodes[s].name);
	len = strcspn(buf, "0123456789");
	buf[len > 0 ? len : strlen(buf)] = '\0';
}

/* A class of links in the summary: tiers of the two ends, rate, delay. */
struct topo_link_class {
	uint8_t lo, hi;    /* tiers, lo <= hi */
	uint64_t rate_bps;
	uint64_t delay_ps;
	uint32_t n_links;
};

static int topo_desc_link_class_cmp(const void *a, const void *b)
{
	const struct topo_link_class *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo - y->lo;
	if (x->hi != y->hi)
		return x->hi - y->hi;
	if (x->rate_bps != y->rate_bps)
		return x->rate_bps < y->rate_bps ? -1 : 1;
	return (x->delay_ps > y->delay_ps) - (x->delay_ps < y->delay_ps);
}

static void topo_desc_links(const struct topo *t, FILE *out)
{
	struct topo_link_class *cls = calloc(t->n_links ? t->n_links : 1, sizeof(*cls));
	uint32_t n_cls = 0;

	if (cls == NULL)
		return;
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];
		uint8_t a = t->nodes[k->node[0]].tier, b = t->nodes[k->node[1]].tier;
		struct topo_link_class c = {
			.lo = a < b ? a : b, .hi = a < b ? b : a,
			.rate_bps = k->rate_bps, .delay_ps = k->delay_ps, .n_links = 1,
		};
		uint32_t i = 0;

		while (i < n_cls && topo_desc_link_class_cmp(&cls[i], &c) != 0)
			i++;
		if (i == n_cls)
			cls[n_cls++] = c;
		else
			cls[i].n_links++;
	}
	qsort(cls, n_cls, sizeof(*cls), topo_desc_link_class_cmp);
	fprintf(out, "links:\n");
	for (uint32_t i = 0; i < n_cls; i++) {
		char lo[TOPO_NAME_BYTES], hi[TOPO_NAME_BYTES], rate[TOPO_RATE_BYTES];

		topo_desc_tier_name(t, cls[i].lo, lo);
		topo_desc_tier_name(t, cls[i].hi, hi);
		units_fmt_rate(rate, sizeof(rate), cls[i].rate_bps);
		fprintf(out, "  %s-%s: %u x %s, %gus\n", lo, hi, cls[i].n_links, rate,
			units_ps_to_us(cls[i].delay_ps));
	}
	free(cls);
}

void topo_describe(const struct topo *t, FILE *out)
{
	const struct topo_kind *k = topo_kind_of(t);

	if (k && k->describe) {
		k->describe(t, out);
		return;
	}

	uint8_t top = topo_desc_max_tier(t);
	char name[TOPO_NAME_BYTES], a[TOPO_RATE_BYTES], b[TOPO_RATE_BYTES];
	int exact;
	uint64_t bis = topo_desc_bisection(t, &exact), host_bps = 0;

	fprintf(out, "%s: %u hosts, %u switches, %u links\n", t->kind != NULL ? t->kind : "topology",
		t->n_hosts, t->n_switches, t->n_links);
	for (unsigned tier = 1; tier <= top; tier++) {
		uint16_t lo = UINT16_MAX, hi = 0;
		uint32_t n = 0;

		for (uint32_t s = 0; s < t->n_switches; s++) {
			const struct topo_node *sw = &t->nodes[t->switches[s]];

			if (sw->tier != tier)
				continue;
			n++;
			lo = sw->n_ports < lo ? sw->n_ports : lo;
			hi = sw->n_ports > hi ? sw->n_ports : hi;
		}
		if (n == 0)
			continue;
		topo_desc_tier_name(t, (uint8_t)tier, name);
		if (lo == hi)
			fprintf(out, "  %s: %u switches, %u ports each\n", name, n, lo);
		else
			fprintf(out, "  %s: %u switches, %u..%u ports\n", name, n, lo, hi);
	}
	topo_desc_links(t, out);
	fprintf(out, "oversubscription (downlink:uplink capacity):\n");
	for (unsigned tier = 1; tier < top; tier++) {
		uint64_t down = 0, up = 0;

		for (uint32_t s = 0; s < t->n_switches; s++) {
			uint32_t n = t->switches[s];

			if (t->nodes[n].tier != tier)
				continue;
			for (unsigned below = 0; below < tier; below++)
				down = topo_desc_add_sat(down, topo_desc_capacity_to_tier(t, n, (uint8_t)below));
			for (unsigned above = tier + 1; above <= top; above++)
				up = topo_desc_add_sat(up, topo_desc_capacity_to_tier(t, n, (uint8_t)above));
		}
		if (up == 0)
			continue;
		topo_desc_tier_name(t, (uint8_t)tier, name);
		units_fmt_rate(a, sizeof(a), down);
		units_fmt_rate(b, sizeof(b), up);
		fprintf(out, "  %s: %.2f:1 (%s down, %s up)\n", name, (double)down / (double)up, a, b);
	}
	for (uint32_t l = 0; l < t->n_links; l++)
		for (int e = 0; e < 2; e++)
			if (t->nodes[t->links[l].node[e]].kind == TOPO_HOST)
				host_bps = topo_desc_add_sat(host_bps, t->links[l].rate_bps);
	units_fmt_rate(a, sizeof(a), bis);
	units_fmt_rate(b, sizeof(b), host_bps / 2);
	fprintf(out, "bisection bandwidth: %s%s (%.0f%% of half the host capacity, %s)\n",
		exact ? "" : "at most ", a,
		host_bps ? 100.0 * (double)bis / (double)(host_bps / 2) : 0.0, b);
}

/* Short rate for edge labels: "100G", "12.5G", "400M". */
void topo_desc_rate_short(char buf[TOPO_RATE_BYTES], uint64_t bps)
{
	static const struct {
		const char *suffix;
		double bps;
	} units[] = { { "T", 1e12 }, { "G", 1e9 }, { "M", 1e6 }, { "K", 1e3 }, { "", 1 } };
	unsigned i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) && (double)bps < units[i].bps)
		i++;
	snprintf(buf, TOPO_RATE_BYTES, "%.4g%s", (double)bps / units[i].bps, units[i].suffix);
}

void topo_dot(const struct topo *t, FILE *out)
{
	const struct topo_kind *k = topo_kind_of(t);

	if (k && k->dot) {
		k->dot(t, out);
		return;
	}

	uint8_t top = topo_desc_max_tier(t);
	char rate[TOPO_RATE_BYTES];

	fprintf(out, "graph fabric {\n\trankdir=BT;\n\tnode [shape=ellipse];\n");
	/* One rank per tier: hosts at the bottom, the top tier above. */
	for (unsigned tier = 0; tier <= top; tier++) {
		int any = 0;

		for (uint32_t i = 0; i < t->n_nodes; i++) {
			const struct topo_node *n = &t->nodes[i];

			if (n->tier != tier)
				continue;
			if (!any)
				fprintf(out, "\t{ rank=%s;", tier == 0 ? "min" : tier == top ? "max" : "same");
			fprintf(out, " \"%s\"%s;", n->name, n->kind == TOPO_HOST ? " [shape=box]" : "");
			any = 1;
		}
		if (any)
			fprintf(out, " }\n");
	}
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];
		int lower = t->nodes[k->node[1]].tier < t->nodes[k->node[0]].tier;

		topo_desc_rate_short(rate, k->rate_bps);
		fprintf(out, "\t\"%s\" -- \"%s\" [label=\"%s\"];\n", t->nodes[k->node[lower]].name,
			t->nodes[k->node[!lower]].name, rate);
	}
	fprintf(out, "}\n");
}
