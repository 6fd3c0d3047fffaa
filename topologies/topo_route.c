/* Topologies: equal-cost shortest-path forwarding tables for switch/ (which
 * picks among the ports: ECMP, spraying, adaptive), toward endpoints (host
 * ports). Endpoints behind the same neighbour (all the NIC ports of one
 * leaf, in a regular fabric) are one destination class: every switch is as
 * far from each of them and reaches them through the same ports, except
 * the switch they attach to, which has a port per endpoint. So one search
 * per class, from one of its endpoints, gives every switch's hop count to
 * the class; the egress ports are those whose neighbour is one hop closer.
 * Hosts do not forward. Links can be left out (a link that is down), for
 * routes recomputed during a run. Memory: one byte per
 * (switch, class) cell (k=16 fat-tree: 320 x 128 = 40 KB; k=64: 5,120 x
 * 2,048 = 10 MB); port lists are made on demand. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

enum {
	TOPO_HOPS_MAX = UINT8_MAX - 1, /* longest path the hop table holds */
	TOPO_HOPS_NONE = UINT8_MAX,    /* a node that cannot reach the host */
	TOPO_HOPS_BLOCK = 64,          /* classes searched per pass over the table */
};

static int topo_route_adj_build(const struct topo *t, const uint8_t *link_down,
				struct topo_routes *a)
{
	uint64_t n_ports = 0;
	uint32_t rows = 0;

	for (uint32_t n = 0; n < t->n_nodes; n++)
		n_ports += t->nodes[n].n_ports;
	if (n_ports > UINT32_MAX)
		return -E2BIG;
	a->first = malloc(((size_t)t->n_nodes + 1) * sizeof(*a->first));
	a->peers = malloc((n_ports ? n_ports : 1) * sizeof(*a->peers));
	a->peer_ports = malloc((n_ports ? n_ports : 1) * sizeof(*a->peer_ports));
	a->row = malloc((t->n_nodes ? t->n_nodes : 1) * sizeof(*a->row));
	a->ep_node = malloc((t->n_eps ? t->n_eps : 1) * sizeof(*a->ep_node));
	a->ep_port = malloc((t->n_eps ? t->n_eps : 1) * sizeof(*a->ep_port));
	if (a->first == NULL || a->peers == NULL || a->peer_ports == NULL || a->row == NULL ||
	    a->ep_node == NULL || a->ep_port == NULL)
		return -ENOMEM;
	a->first[0] = 0;
	for (uint32_t n = 0; n < t->n_nodes; n++) {
		const struct topo_node *node = &t->nodes[n];

		for (uint16_t p = 0; p < node->n_ports; p++) {
			uint32_t l = node->port_links[p], at = a->first[n] + p;

			if (l == TOPO_NO_LINK || (link_down && link_down[l])) {
				a->peers[at] = TOPO_NO_LINK;
				a->peer_ports[at] = 0;
				continue;
			}
			a->peers[at] = topo_peer(t, n, p);
			a->peer_ports[at] = t->links[l].node[0] == n && t->links[l].port[0] == p
						    ? t->links[l].port[1]
						    : t->links[l].port[0];
		}
		a->first[n + 1] = a->first[n] + node->n_ports;
		a->row[n] = node->kind == TOPO_SWITCH ? rows++ : TOPO_NO_LINK;
	}
	a->n_rows = rows;
	for (uint32_t e = 0; e < t->n_eps; e++) {
		a->ep_node[e] = t->eps[e].node;
		a->ep_port[e] = t->eps[e].port;
	}
	return 0;
}

/* The neighbour behind endpoint @e's port (TOPO_NO_LINK when unlinked or
 * down). */
static inline uint32_t topo_route_ep_peer(const struct topo_routes *r, uint32_t e)
{
	return r->peers[r->first[r->ep_node[e]] + r->ep_port[e]];
}

/* Group the endpoints into classes by the neighbour behind them; the first
 * endpoint of a class represents it. Unlinked endpoints share a class that
 * nothing reaches. */
static int topo_route_make_classes(const struct topo *t, struct topo_routes *r)
{
	uint32_t *class_of = malloc(((size_t)t->n_nodes + 1) * sizeof(*class_of));

	r->ep_class = malloc(sizeof(*r->ep_class) * (t->n_eps ? t->n_eps : 1));
	r->class_rep = malloc(sizeof(*r->class_rep) * (t->n_eps ? t->n_eps : 1));
	if (!class_of || !r->ep_class || !r->class_rep) {
		free(class_of);
		return -ENOMEM;
	}
	/* class_of[n_nodes] is the class of the unlinked. */
	for (uint32_t i = 0; i <= t->n_nodes; i++)
		class_of[i] = UINT32_MAX;
	r->n_classes = 0;
	for (uint32_t e = 0; e < t->n_eps; e++) {
		uint32_t m = topo_route_ep_peer(r, e);
		uint32_t *c = &class_of[m == TOPO_NO_LINK ? t->n_nodes : m];

		if (*c == UINT32_MAX) {
			r->class_rep[r->n_classes] = e;
			*c = r->n_classes++;
		}
		r->ep_class[e] = *c;
	}
	free(class_of);
	return 0;
}

/* Hop counts to endpoint @e from the nodes that reach it, into @dist
 * (which holds UINT32_MAX everywhere else, as it must on entry): a search
 * that leaves the endpoint's host by the endpoint's port only (as
 * topo_bfs, over the flattened adjacency; hosts do not forward). The
 * reached nodes but the endpoint's host are in @queue, nearest first;
 * returns their count (topo_route_unsearch puts @dist back). */
static uint32_t topo_route_search(const struct topo_routes *a, uint32_t e, uint32_t *dist,
				  uint32_t *queue)
{
	uint32_t head = 0, tail = 0, src = a->ep_node[e], m = topo_route_ep_peer(a, e);

	dist[src] = 0;
	if (m == TOPO_NO_LINK)
		return 0;
	if (m != src) {
		dist[m] = 1;
		queue[tail++] = m;
	}
	while (head < tail) {
		uint32_t n = queue[head++];

		if (a->row[n] == TOPO_NO_LINK)
			continue;
		for (uint32_t p = a->first[n]; p < a->first[n + 1]; p++) {
			uint32_t k = a->peers[p];

			if (k != TOPO_NO_LINK && dist[k] == UINT32_MAX) {
				dist[k] = dist[n] + 1;
				queue[tail++] = k;
			}
		}
	}
	return tail;
}

/* Undo topo_route_search's marks: @dist all UINT32_MAX again. */
static void topo_route_unsearch(const struct topo_routes *a, uint32_t e, uint32_t *dist,
				const uint32_t *queue, uint32_t n)
{
	dist[a->ep_node[e]] = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++)
		dist[queue[i]] = UINT32_MAX;
}

/* Fill hops[], one search per class. The searches give columns of the
 * switch-major table; a block of TOPO_HOPS_BLOCK columns is gathered in a
 * small buffer first so that the big table is written row by row. A
 * search touches only the nodes it reaches (a scale-up domain's few, out
 * of a whole cluster's). */
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
	for (size_t i = 0; rc == 0 && i < n_nodes; i++)
		dist[i] = UINT32_MAX;
	for (uint32_t c0 = 0; c0 < r->n_classes && rc == 0; c0 += TOPO_HOPS_BLOCK) {
		uint32_t width = r->n_classes - c0 < TOPO_HOPS_BLOCK ? r->n_classes - c0 : TOPO_HOPS_BLOCK;

		memset(block, TOPO_HOPS_NONE, (size_t)r->n_rows * TOPO_HOPS_BLOCK);
		for (uint32_t j = 0; j < width && rc == 0; j++) {
			uint32_t rep = r->class_rep[c0 + j], src = r->ep_node[rep];
			uint32_t reached = topo_route_search(r, rep, dist, queue);

			for (uint32_t i = 0; i < reached; i++) {
				uint32_t n = queue[i];

				if (dist[n] > TOPO_HOPS_MAX) {
					topo_errorf(err, &t->nodes[n].mark,
						    "routes: %s is %u hops from %s, at most %d",
						    t->nodes[n].name, dist[n], t->nodes[src].name,
						    TOPO_HOPS_MAX);
					rc = -E2BIG;
					break;
				}
				if (r->row[n] != TOPO_NO_LINK)
					block[(size_t)r->row[n] * TOPO_HOPS_BLOCK + j] = (uint8_t)dist[n];
			}
			topo_route_unsearch(r, rep, dist, queue, reached);
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

/* Port index @p (into peers) of a node leads to endpoint @e itself. */
static inline bool topo_route_is_ep(const struct topo_routes *r, uint32_t p, uint32_t e)
{
	return r->peers[p] == r->ep_node[e] && r->peer_ports[p] == r->ep_port[e];
}

uint32_t topo_route_hops(const struct topo_routes *r, uint32_t node, uint32_t ep)
{
	uint32_t target = r->ep_node[ep], c = r->ep_class[ep], best = TOPO_HOPS_NONE;

	if (node == target)
		return 0;
	if (r->row[node] != TOPO_NO_LINK)
		return topo_route_sw_hops(r, node, c);
	/* A host: one hop to a switch on the way, or to the endpoint itself. */
	for (uint32_t p = r->first[node]; p < r->first[node + 1]; p++) {
		uint32_t m = r->peers[p], d;

		if (m == TOPO_NO_LINK)
			continue;
		d = topo_route_is_ep(r, p, ep)		? 0
		    : r->row[m] != TOPO_NO_LINK ? topo_route_sw_hops(r, m, c)
						: TOPO_HOPS_NONE;
		if (d < best)
			best = d;
	}
	return best >= TOPO_HOPS_MAX ? TOPO_HOPS_NONE : best + 1;
}

uint32_t topo_route_ports(const struct topo_routes *r, uint32_t node, uint32_t ep,
			  uint16_t *ports, uint32_t max)
{
	uint32_t c = r->ep_class[ep];
	uint32_t d = topo_route_hops(r, node, ep), n = 0;

	if (d == 0 || d == TOPO_HOPS_NONE)
		return 0;
	for (uint32_t p = r->first[node]; p < r->first[node + 1]; p++) {
		uint32_t m = r->peers[p];

		if (m == TOPO_NO_LINK)
			continue;
		if (d == 1 ? topo_route_is_ep(r, p, ep)
			   : r->row[m] != TOPO_NO_LINK && topo_route_sw_hops(r, m, c) == d - 1) {
			if (n < max)
				ports[n] = (uint16_t)(p - r->first[node]);
			n++;
		}
	}
	return n;
}

int topo_routes_build(const struct topo *t, struct topo_routes **out, char err[CFG_ERR_BYTES])
{
	return topo_routes_build_avoiding(t, NULL, out, err);
}

int topo_routes_build_avoiding(const struct topo *t, const uint8_t *link_down,
			       struct topo_routes **out, char err[CFG_ERR_BYTES])
{
	struct topo_routes *r;
	size_t n_cells;
	int rc;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		goto nomem;
	rc = topo_route_adj_build(t, link_down, r);
	if (rc == -E2BIG)
		snprintf(err, CFG_ERR_BYTES, "routes: more than %u ports in all", UINT32_MAX);
	if (rc == -ENOMEM)
		goto nomem;
	if (rc != 0)
		goto fail;
	r->n_nodes = t->n_nodes;
	r->n_eps = t->n_eps;
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
	free(r->peer_ports);
	free(r->row);
	free(r->ep_node);
	free(r->ep_port);
	free(r->ep_class);
	free(r->class_rep);
	free(r);
}
