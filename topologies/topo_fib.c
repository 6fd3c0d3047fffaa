/* Topologies: the forwarding rows of one switch (core/fib.h) from the
 * equal-cost routes (topo_route.c), and the path a message takes when
 * every node follows its first equal-cost port (for the ideal completion
 * time and base RTT that traffic/ computes). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

enum { TOPO_FIB_INITIAL_PORTS = 4096 /* first size of a buffer's port list */ };

/* Room for @n more ports in @b. */
static int topo_fib_room(struct topo_fib_buf *b, size_t n)
{
	size_t want = b->cap ? b->cap : TOPO_FIB_INITIAL_PORTS;
	uint16_t *p;

	if (b->cap - b->used >= n)
		return 0;
	while (want - b->used < n)
		want *= 2;
	if (!(p = realloc(b->ports, sizeof(*p) * want)))
		return -ENOMEM;
	b->ports = p;
	b->cap = want;
	return 0;
}

int topo_fib_rows(const struct topo_routes *r, const struct topo *t, uint32_t node,
		  struct topo_fib_buf *b, struct fib_rows *fib)
{
	uint32_t n_ports = t->nodes[node].n_ports, lo = UINT32_MAX, hi = 0, n_direct;
	size_t direct_at;

	if (!b->off && !(b->off = malloc(sizeof(*b->off) * ((size_t)r->n_classes + 1))))
		return -ENOMEM;
	b->used = 0;
	/* A class row: the ports toward a switch one hop closer to the class
	 * (topo_route_ports' rule, read straight off the hop table); empty
	 * for a class out of reach or attached here (its endpoints' rows
	 * follow). */
	{
		const uint8_t *mine = &r->hops[(size_t)r->row[node] * r->n_classes];
		const uint32_t *peers = &r->peers[r->first[node]];

		for (uint32_t c = 0; c < r->n_classes; c++) {
			uint8_t d = mine[c];

			if (topo_fib_room(b, n_ports) != 0)
				return -ENOMEM;
			b->off[c] = (uint32_t)b->used;
			if (d == UINT8_MAX || d <= 1)
				continue;
			for (uint16_t p = 0; p < n_ports; p++) {
				uint32_t m = peers[p];

				if (m != TOPO_NO_LINK && r->row[m] != TOPO_NO_LINK &&
				    r->hops[(size_t)r->row[m] * r->n_classes + c] == d - 1)
					b->ports[b->used++] = p;
			}
		}
	}
	b->off[r->n_classes] = (uint32_t)b->used;
	/* The endpoints attached here: a range of endpoint numbers. */
	for (uint16_t p = 0; p < n_ports; p++) {
		uint32_t m = r->peers[r->first[node] + p], e;

		if (m != TOPO_NO_LINK && t->nodes[m].kind == TOPO_HOST) {
			e = t->nodes[m].first_ep + r->peer_ports[r->first[node] + p];
			lo = e < lo ? e : lo;
			hi = e > hi ? e : hi;
		}
	}
	n_direct = lo <= hi ? hi - lo + 1 : 0;
	if (!n_direct)
		lo = 0;
	if (b->doff_cap < (size_t)n_direct + 1) {
		uint32_t *d = realloc(b->doff, sizeof(*d) * ((size_t)n_direct + 1));

		if (!d)
			return -ENOMEM;
		b->doff = d;
		b->doff_cap = (size_t)n_direct + 1;
	}
	direct_at = b->used;
	for (uint32_t i = 0; i < n_direct; i++) {
		if (topo_fib_room(b, n_ports) != 0)
			return -ENOMEM;
		b->doff[i] = (uint32_t)(b->used - direct_at);
		if (topo_route_hops(r, node, lo + i) == 1)
			b->used += topo_route_ports(r, node, lo + i, b->ports + b->used, n_ports);
	}
	b->doff[n_direct] = (uint32_t)(b->used - direct_at);
	*fib = (struct fib_rows){
		.n_eps = t->n_eps,
		.ep_class = r->ep_class,
		.n_classes = r->n_classes,
		.off = b->off,
		.ports = b->ports,
		.direct_lo = lo,
		.direct_n = n_direct,
		.direct_off = b->doff,
		.direct_ports = b->ports + direct_at,
	};
	return 0;
}

void topo_fib_buf_free(struct topo_fib_buf *b)
{
	free(b->off);
	free(b->doff);
	free(b->ports);
	memset(b, 0, sizeof(*b));
}

int topo_path(const struct topo_routes *r, const struct topo *t, uint32_t src, uint32_t dst,
	      uint32_t *links, uint32_t max)
{
	uint32_t node = r->ep_node[src], target = r->ep_node[dst], n = 0;
	uint32_t at = r->first[node] + r->ep_port[src];
	uint16_t in_port;

	if (src == dst)
		return 0;
	/* The source's own port first: a QP sends on the port it is bound to. */
	if (r->peers[at] == TOPO_NO_LINK)
		return -EINVAL;
	if (max == 0)
		return -E2BIG;
	links[n++] = t->nodes[node].port_links[r->ep_port[src]];
	in_port = r->peer_ports[at];
	node = r->peers[at];
	while (node != target || in_port != r->ep_port[dst]) {
		const struct topo_link *l;
		uint16_t port;

		if (r->row[node] == TOPO_NO_LINK || topo_route_ports(r, node, dst, &port, 1) == 0)
			return -EINVAL; /* a host that is not the destination, or a dead end */
		if (n == max)
			return -E2BIG;
		links[n] = t->nodes[node].port_links[port];
		l = &t->links[links[n]];
		n++;
		in_port = l->node[0] == node && l->port[0] == port ? l->port[1] : l->port[0];
		node = l->node[0] == node && l->port[0] == port ? l->node[1] : l->node[0];
	}
	return (int)n;
}
