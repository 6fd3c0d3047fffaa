/* Topologies: equal-cost shortest-path forwarding tables for switch/ (which
 * picks among the ports: ECMP, spraying, adaptive). Hosts with the same
 * neighbours (all the hosts of one leaf, in a regular fabric) are one
 * destination class: every switch is as far from each of them and reaches
 * them through the same ports, except a switch they attach to, which has a
 * port per host. So one search per class, from one of its hosts, gives
 * every switch's hop count to the class; the egress ports are those whose
 * neighbour is one hop closer. Hosts do not forward. Memory: one byte per
 * (switch, class) cell (k=16 fat-tree: 320 x 128 = 40 KB; k=64: 5,120 x
 * 2,048 = 10 MB); port lists are made on demand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

enum {
	TOPO_HOPS_MAX = UINT8_MAX - 1, /* longest path the hop table holds */
	TOPO_HOPS_NONE = UINT8_MAX,    /* a node that cannot reach the host */
	TOPO_HOPS_BLOCK = 64,          /* classes searched per pass over the table */
};

static int topo_route_adj_build(const struct topo *t, struct topo_routes *a)
{
	uint64_t n_ports = 0;
	uint32_t rows = 0;

	for (uint32_t n = 0; n < t->n_nodes; n++)
		n_ports += t->nodes[n].n_ports;
	if (n_ports > UINT32_MAX)
		return -E2BIG;
	a->first = malloc(((size_t)t->n_nodes + 1) * sizeof(*a->first));
	a->peers = malloc((n_ports ? n_ports : 1) * sizeof(*a->peers));
	a->row = malloc((t->n_nodes ? t->n_nodes : 1) * sizeof(*a->row));
	a->host_node = malloc((t->n_hosts ? t->n_hosts : 1) * sizeof(*a->host_node));
	if (a->first == NULL || a->peers == NULL || a->row == NULL || a->host_node == NULL)
		return -ENOMEM;
	a->first[0] = 0;
	for (uint32_t n = 0; n < t->n_nodes; n++) {
		const struct topo_node *node = &t->nodes[n];

		for (uint16_t p = 0; p < node->n_ports; p++)
			a->peers[a->first[n] + p] = topo_peer(t, n, p);
		a->first[n + 1] = a->first[n] + node->n_ports;
		a->row[n] = node->kind == TOPO_SWITCH ? rows++ : TOPO_NO_LINK;
	}
	a->n_rows = rows;
	memcpy(a->host_node, t->hosts, sizeof(*t->hosts) * t->n_hosts);
	return 0;
}

static int topo_route_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The sorted, distinct neighbours of host @h into @nb (room for its port
 * count); returns how many. */
static uint32_t topo_route_host_neighbours(const struct topo_routes *r, uint32_t h, uint32_t *nb)
{
	uint32_t node = r->host_node[h], n = 0, k = 0;

	for (uint32_t p = r->first[node]; p < r->first[node + 1]; p++)
		if (r->peers[p] != TOPO_NO_LINK)
			nb[n++] = r->peers[p];
	qsort(nb, n, sizeof(*nb), topo_route_cmp_u32);
	for (uint32_t i = 0; i < n; i++)
		if (i == 0 || nb[i] != nb[i - 1])
			nb[k++] = nb[i];
	return k;
}

/* Group the hosts into classes of equal neighbour sets (a hash table on
 * the sets); the first host of a class represents it. */
static int topo_route_make_classes(const struct topo *t, struct topo_routes *r)
{
	uint32_t slots = 16, max_ports = 1;
	uint32_t *table = NULL, *nb = NULL, *nb2 = NULL;
	int rc = -ENOMEM;

	while (slots < 2 * t->n_hosts)
		slots *= 2;
	for (uint32_t h = 0; h < t->n_hosts; h++)
		if (t->nodes[t->hosts[h]].n_ports > max_ports)
			max_ports = t->nodes[t->hosts[h]].n_ports;
	table = calloc(slots, sizeof(*table));
	nb = malloc(sizeof(*nb) * max_ports);
	nb2 = malloc(sizeof(*nb2) * max_ports);
	r->host_class = malloc(sizeof(*r->host_class) * (t->n_hosts ? t->n_hosts : 1));
	r->class_rep = malloc(sizeof(*r->class_rep) * (t->n_hosts ? t->n_hosts : 1));
	if (!table || !nb || !nb2 || !r->host_class || !r->class_rep)
		goto out;
	r->n_classes = 0;
	for (uint32_t h = 0; h < t->n_hosts; h++) {
		uint32_t n = topo_route_host_neighbours(r, h, nb), i;
		uint64_t x = n;

		for (uint32_t k = 0; k < n; k++)
			x = (x ^ nb[k]) * UINT64_C(0x100000001b3);
		for (i = (uint32_t)(x ^ x >> 29) & (slots - 1); table[i]; i = (i + 1) & (slots - 1)) {
			uint32_t c = table[i] - 1;

			if (topo_route_host_neighbours(r, r->class_rep[c], nb2) == n &&
			    !memcmp(nb, nb2, n * sizeof(*nb)))
				break;
		}
		if (!table[i]) {
			r->class_rep[r->n_classes] = h;
			table[i] = ++r->n_classes;
		}
		r->host_class[h] = table[i] - 1;
	}
	rc = 0;
out:
	free(table);
	free(nb);
	free(nb2);
	return rc;
}

/* Hop counts to node @src (a host) from every node, into @dist (UINT32_MAX when
 * unreachable); the search of topo_bfs, over the flattened adjacency. */
static void topo_route_search(const struct topo_routes *a, uint32_t n_nodes, uint32_t src, uint32_t *dist,
		   uint32_t *queue)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t i = 0; i < n_nodes; i++)
		dist[i] = UINT32_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t n = queue[head++];

		if (a->row[n] == TOPO_NO_LINK && n != src)
			continue;
		for (uint32_t p = a->first[n]; p < a->first[n + 1]; p++) {
			uint32_t m = a->peers[p];

			if (m != TOPO_NO_LINK && dist[m] == UINT32_MAX) {
				dist[m] = dist[n] + 1;
				queue[tail++] = m;
			}
		}
	}
}

/* Fill hops[], one search per class. The searches give columns of the
 * switch-major table; a block of TOPO_HOPS_BLOCK columns is gathered in a
 * small buffer first so that the big table is written row by row. */
static int topo_route_fill_hops(const struct topo *t, struct topo_routes *r, char err[CFG_ERR_BYTES])
{
	size_t n_nodes = t->n_nodes ? t->n_nodes : 1;
	uint32_t *dist = malloc(n_nodes * sizeof(*dist));
	uint32_t *queue = malloc(n_nodes * sizeof(*queue));
	uint8_t *block = malloc(((size_t)r->n_rows + 1) * TOPO_HOPS_BLOCK);
	int rc = 0;

	if (dist == NULL || queue == NULL || block == NULL) {
		snprintf(err, CFG_ERR_BYTES, "routes: out of memory");
		rc = -ENOMEM;
	}
	for (uint32_t c0 = 0; c0 < r->n_classes && rc == 0; c0 += TOPO_HOPS_BLOCK) {
		uint32_t width = r->n_classes - c0 < TOPO_HOPS_BLOCK ? r->n_classes - c0 : TOPO_HOPS_BLOCK;

		for (uint32_t j = 0; j < width && rc == 0; j++) {
			uint32_t src = r->host_node[r->class_rep[c0 + j]];

			topo_route_search(r, t->n_nodes, src, dist, queue);
			for (uint32_t n = 0; n < t->n_nodes; n++) {
				if (dist[n] != UINT32_MAX && dist[n] > TOPO_HOPS_MAX) {
					topo_errorf(err, &t->nodes[n].mark,
						    "routes: %s is %u hops from %s, at most %d",
						    t->nodes[n].name, dist[n], t->nodes[src].name,
						    TOPO_HOPS_MAX);
					rc = -E2BIG;
					break;
				}
				if (r->row[n] == TOPO_NO_LINK)
					continue;
				block[(size_t)r->row[n] * TOPO_HOPS_BLOCK + j] =
					dist[n] == UINT32_MAX ? TOPO_HOPS_NONE : (uint8_t)dist[n];
			}
		}
		for (uint32_t s = 0; s < r->n_rows && rc == 0; s++)
			memcpy(&r->hops[(size_t)s * r->n_classes + c0], &block[(size_t)s * TOPO_HOPS_BLOCK],
			       width);
	}
	free(dist);
	free(queue);
	free(block);
	return rc;
}

/* Hops from switch @node to class @c (its table cell). */
static inline uint8_t topo_route_sw_hops(const struct topo_routes *r, uint32_t node, uint32_t c)
{
	return r->hops[(size_t)r->row[node] * r->n_classes + c];
}

uint32_t topo_route_hops(const struct topo_routes *r, uint32_t node, uint32_t host)
{
	uint32_t target = r->host_node[host], c = r->host_class[host], best = TOPO_HOPS_NONE;

	if (node == target)
		return 0;
	if (r->row[node] != TOPO_NO_LINK)
		return topo_route_sw_hops(r, node, c);
	/* A host: one hop to a switch on the way, or to the host itself. */
	for (uint32_t p = r->first[node]; p < r->first[node + 1]; p++) {
		uint32_t m = r->peers[p], d;

		if (m == TOPO_NO_LINK)
			continue;
		d = m == target ? 0 : r->row[m] != TOPO_NO_LINK ? topo_route_sw_hops(r, m, c) : TOPO_HOPS_NONE;
		if (d < best)
			best = d;
	}
	return best >= TOPO_HOPS_MAX ? TOPO_HOPS_NONE : best + 1;
}

uint32_t topo_route_ports(const struct topo_routes *r, uint32_t node, uint32_t host,
			  uint16_t *ports, uint32_t max)
{
	uint32_t target = r->host_node[host], c = r->host_class[host];
	uint32_t d = topo_route_hops(r, node, host), n = 0;

	if (d == 0 || d == TOPO_HOPS_NONE)
		return 0;
	for (uint32_t p = r->first[node]; p < r->first[node + 1]; p++) {
		uint32_t m = r->peers[p];

		if (m == TOPO_NO_LINK)
			continue;
		if (d == 1 ? m == target : r->row[m] != TOPO_NO_LINK && topo_route_sw_hops(r, m, c) == d - 1) {
			if (n < max)
				ports[n] = (uint16_t)(p - r->first[node]);
			n++;
		}
	}
	return n;
}

int topo_routes_build(const struct topo *t, struct topo_routes **out, char err[CFG_ERR_BYTES])
{
	struct topo_routes *r;
	size_t n_cells;
	int rc;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		goto nomem;
	rc = topo_route_adj_build(t, r);
	if (rc == -E2BIG)
		snprintf(err, CFG_ERR_BYTES, "routes: more than %u ports in all", UINT32_MAX);
	if (rc == -ENOMEM)
		goto nomem;
	if (rc != 0)
		goto fail;
	r->n_nodes = t->n_nodes;
	r->n_hosts = t->n_hosts;
	if (topo_route_make_classes(t, r) != 0)
		goto nomem;
	n_cells = (size_t)r->n_rows * r->n_classes;
	if (r->n_classes && n_cells / r->n_classes != r->n_rows) {
		snprintf(err, CFG_ERR_BYTES, "routes: %u switches x %u destination classes is too large a table",
			 r->n_rows, r->n_classes);
		rc = -E2BIG;
		goto fail;
	}
	r->hops = malloc(n_cells ? n_cells : 1);
	if (r->hops == NULL) {
		snprintf(err, CFG_ERR_BYTES,
			 "routes: out of memory for %u switches x %u destination classes (%zu MB)",
			 r->n_rows, r->n_classes, n_cells >> 20);
		rc = -ENOMEM;
		goto fail;
	}
	rc = topo_route_fill_hops(t, r, err);
	if (rc != 0)
		goto fail;
	*out = r;
	return 0;
nomem:
	snprintf(err, CFG_ERR_BYTES, "routes: out of memory");
	rc = -ENOMEM;
fail:
	topo_routes_free(r);
	return rc;
}

void topo_routes_free(struct topo_routes *r)
{
	if (r == NULL)
		return;
	free(r->hops);
	free(r->first);
	free(r->peers);
	free(r->row);
	free(r->host_node);
	free(r->host_class);
	free(r->class_rep);
	free(r);
}
