/* Topologies: equal-cost shortest-path forwarding tables for switch/ (which
 * picks among the ports: ECMP, spraying, adaptive). A search from every
 * destination host gives every node's hop count to it; the egress ports are
 * those whose neighbour is one hop closer. Hosts do not forward. Memory: one
 * byte per (node, host) cell (k=16 fat-tree: 1.4 MB); port lists are made
 * on demand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

enum {
	TOPO_HOPS_MAX = UINT8_MAX - 1, /* longest path the hop table holds */
	TOPO_HOPS_NONE = UINT8_MAX,    /* hops[] of a node that cannot reach the host */
	TOPO_HOPS_BLOCK = 64,          /* hosts searched per pass over the table */
};

static int adj_build(const struct topo *t, struct topo_routes *a)
{
	uint64_t n_ports = 0;

	for (uint32_t n = 0; n < t->n_nodes; n++)
		n_ports += t->nodes[n].n_ports;
	if (n_ports > UINT32_MAX)
		return -E2BIG;
	a->first = malloc(((size_t)t->n_nodes + 1) * sizeof(*a->first));
	a->peers = malloc((n_ports ? n_ports : 1) * sizeof(*a->peers));
	a->transit = malloc(t->n_nodes ? t->n_nodes : 1);
	if (a->first == NULL || a->peers == NULL || a->transit == NULL)
		return -ENOMEM;
	a->first[0] = 0;
	for (uint32_t n = 0; n < t->n_nodes; n++) {
		const struct topo_node *node = &t->nodes[n];

		for (uint16_t p = 0; p < node->n_ports; p++)
			a->peers[a->first[n] + p] = topo_peer(t, n, p);
		a->first[n + 1] = a->first[n] + node->n_ports;
		a->transit[n] = node->kind == TOPO_SWITCH;
	}
	return 0;
}

/* Hop counts to node @src (a host) from every node, into @dist (UINT32_MAX when
 * unreachable); the search of topo_bfs, over the flattened adjacency. */
static void search(const struct topo_routes *a, uint32_t n_nodes, uint32_t src, uint32_t *dist,
		   uint32_t *queue)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t i = 0; i < n_nodes; i++)
		dist[i] = UINT32_MAX;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t n = queue[head++];

		if (!a->transit[n] && n != src)
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

/* Fill hops[], one search per destination host. The searches give columns
 * of the node-major table; a block of TOPO_HOPS_BLOCK columns is gathered
 * in a small buffer first so that the big table is written row by row. */
static int fill_hops(const struct topo *t, struct topo_routes *r, char err[CFG_ERR_BYTES])
{
	size_t n_nodes = t->n_nodes ? t->n_nodes : 1;
	uint32_t *dist = malloc(n_nodes * sizeof(*dist));
	uint32_t *queue = malloc(n_nodes * sizeof(*queue));
	uint8_t *block = malloc(n_nodes * TOPO_HOPS_BLOCK);
	int rc = 0;

	if (dist == NULL || queue == NULL || block == NULL) {
		snprintf(err, CFG_ERR_BYTES, "routes: out of memory");
		rc = -ENOMEM;
	}
	for (uint32_t h0 = 0; h0 < t->n_hosts && rc == 0; h0 += TOPO_HOPS_BLOCK) {
		uint32_t width = t->n_hosts - h0 < TOPO_HOPS_BLOCK ? t->n_hosts - h0 : TOPO_HOPS_BLOCK;

		for (uint32_t j = 0; j < width && rc == 0; j++) {
			search(r, t->n_nodes, t->hosts[h0 + j], dist, queue);
			for (uint32_t n = 0; n < t->n_nodes; n++) {
				if (dist[n] != UINT32_MAX && dist[n] > TOPO_HOPS_MAX) {
					topo_errorf(err, &t->nodes[n].mark,
						    "routes: %s is %u hops from %s, at most %d",
						    t->nodes[n].name, dist[n],
						    t->nodes[t->hosts[h0 + j]].name, TOPO_HOPS_MAX);
					rc = -E2BIG;
					break;
				}
				block[(size_t)n * TOPO_HOPS_BLOCK + j] =
					dist[n] == UINT32_MAX ? TOPO_HOPS_NONE : (uint8_t)dist[n];
			}
		}
		for (uint32_t n = 0; n < t->n_nodes && rc == 0; n++)
			memcpy(&r->hops[(size_t)n * t->n_hosts + h0], &block[(size_t)n * TOPO_HOPS_BLOCK],
			       width);
	}
	free(dist);
	free(queue);
	free(block);
	return rc;
}

uint32_t topo_route_ports(const struct topo_routes *r, uint32_t node, uint32_t host,
			  uint16_t *ports, uint32_t max)
{
	const uint8_t *hops = r->hops;
	size_t n_hosts = r->n_hosts;
	uint8_t d = hops[node * n_hosts + host];
	uint32_t n = 0;

	if (d == 0 || d == TOPO_HOPS_NONE)
		return 0;
	for (uint32_t p = r->first[node]; p < r->first[node + 1]; p++) {
		uint32_t m = r->peers[p];

		if (m != TOPO_NO_LINK && hops[m * n_hosts + host] == d - 1 &&
		    (r->transit[m] || d == 1)) {
			if (n < max)
				ports[n] = (uint16_t)(p - r->first[node]);
			n++;
		}
	}
	return n;
}

int topo_routes_build(const struct topo *t, struct topo_routes **out, char err[CFG_ERR_BYTES])
{
	size_t n_cells = (size_t)t->n_nodes * t->n_hosts;
	struct topo_routes *r;
	int rc;

	*out = NULL;
	if (t->n_hosts && n_cells / t->n_hosts != t->n_nodes) {
		snprintf(err, CFG_ERR_BYTES, "routes: %u nodes x %u hosts is too large a table",
			 t->n_nodes, t->n_hosts);
		return -E2BIG;
	}
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		goto nomem;
	rc = adj_build(t, r);
	if (rc == -E2BIG)
		snprintf(err, CFG_ERR_BYTES, "routes: more than %u ports in all", UINT32_MAX);
	if (rc == -ENOMEM)
		goto nomem;
	if (rc != 0)
		goto fail;
	r->n_nodes = t->n_nodes;
	r->n_hosts = t->n_hosts;
	r->hops = malloc(n_cells ? n_cells : 1);
	if (r->hops == NULL) {
		snprintf(err, CFG_ERR_BYTES, "routes: out of memory for %u nodes x %u hosts (%zu MB)",
			 t->n_nodes, t->n_hosts, n_cells >> 20);
		rc = -ENOMEM;
		goto fail;
	}
	rc = fill_hops(t, r, err);
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
	free(r->transit);
	free(r);
}
