/* Topologies: the graph itself. Allocation and filling helpers the builders
 * share, lookup by name, adjacency and breadth-first search, and topo_check,
 * which every builder's result (and any topology assembled in code) must
 * pass before switches and NICs are wired to it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

struct topo *topo_alloc(const char *kind, uint32_t n_nodes, uint32_t n_links)
{
	struct topo *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->kind = kind;
	t->nodes = calloc(n_nodes ? n_nodes : 1, sizeof(*t->nodes));
	t->links = calloc(n_links ? n_links : 1, sizeof(*t->links));
	if (t->nodes == NULL || t->links == NULL) {
		topo_free(t);
		return NULL;
	}
	t->n_nodes = n_nodes;
	t->n_links = n_links;
	return t;
}

int topo_set_node(struct topo *t, uint32_t i, const char *name, enum topo_node_kind kind,
		  uint8_t tier, uint16_t n_ports, const struct cfg_mark *mark)
{
	struct topo_node *n = &t->nodes[i];

	snprintf(n->name, sizeof(n->name), "%s", name);
	n->kind = kind;
	n->tier = tier;
	n->n_ports = n_ports;
	n->mark = *mark;
	n->port_links = malloc((n_ports ? n_ports : 1) * sizeof(*n->port_links));
	if (n->port_links == NULL)
		return -ENOMEM;
	for (uint16_t p = 0; p < n_ports; p++)
		n->port_links[p] = TOPO_NO_LINK;
	return 0;
}

void topo_set_link(struct topo *t, uint32_t l, uint32_t a, uint16_t pa, uint32_t b, uint16_t pb,
		   const struct topo_link_params *lp, const struct cfg_mark *mark)
{
	struct topo_link *k = &t->links[l];

	k->node[0] = a;
	k->node[1] = b;
	k->port[0] = pa;
	k->port[1] = pb;
	k->rate_bps = lp->rate_bps;
	k->delay_ps = lp->delay_ps;
	k->mark = *mark;
	t->nodes[a].port_links[pa] = l;
	t->nodes[b].port_links[pb] = l;
}

int topo_index(struct topo *t)
{
	uint32_t n_hosts = 0;
	uint64_t n_eps = 0;

	for (uint32_t i = 0; i < t->n_nodes; i++)
		if (t->nodes[i].kind == TOPO_HOST) {
			n_hosts++;
			n_eps += t->nodes[i].n_ports;
		}
	if (n_eps > TOPO_MAX_EPS)
		return -E2BIG;
	free(t->hosts);
	free(t->switches);
	free(t->eps);
	t->n_hosts = n_hosts;
	t->n_switches = t->n_nodes - n_hosts;
	t->n_eps = (uint32_t)n_eps;
	t->hosts = malloc((n_hosts ? n_hosts : 1) * sizeof(*t->hosts));
	t->switches = malloc((t->n_switches ? t->n_switches : 1) * sizeof(*t->switches));
	t->eps = malloc((n_eps ? n_eps : 1) * sizeof(*t->eps));
	if (t->hosts == NULL || t->switches == NULL || t->eps == NULL)
		return -ENOMEM;
	n_hosts = 0;
	n_eps = 0;
	for (uint32_t i = 0, n_sw = 0; i < t->n_nodes; i++) {
		struct topo_node *n = &t->nodes[i];

		if (n->kind == TOPO_HOST) {
			n->index = n_hosts;
			n->first_ep = (uint32_t)n_eps;
			t->hosts[n_hosts++] = i;
			for (uint16_t p = 0; p < n->n_ports; p++)
				t->eps[n_eps++] = (struct topo_ep){ .node = i, .port = p };
		} else {
			n->index = n_sw;
			n->first_ep = TOPO_NO_LINK;
			t->switches[n_sw++] = i;
		}
	}
	return 0;
}

const char *topo_ep_name(const struct topo *t, uint32_t ep, char buf[TOPO_EP_NAME_BYTES])
{
	const struct topo_node *n = &t->nodes[t->eps[ep].node];

	if (n->n_ports == 1)
		snprintf(buf, TOPO_EP_NAME_BYTES, "%s", n->name);
	else
		snprintf(buf, TOPO_EP_NAME_BYTES, "%s:%u", n->name, t->eps[ep].port);
	return buf;
}

const struct topo_link *topo_ep_link(const struct topo *t, uint32_t ep)
{
	uint32_t l = t->nodes[t->eps[ep].node].port_links[t->eps[ep].port];

	return l == TOPO_NO_LINK ? NULL : &t->links[l];
}

void topo_free(struct topo *t)
{
	if (t == NULL)
		return;
	for (uint32_t i = 0; t->nodes != NULL && i < t->n_nodes; i++)
		free(t->nodes[i].port_links);
	free(t->nodes);
	free(t->eps);
	free(t->links);
	free(t->hosts);
	free(t->switches);
	free(t);
}

int topo_find(const struct topo *t, const char *name)
{
	for (uint32_t i = 0; i < t->n_nodes; i++)
		if (strcmp(t->nodes[i].name, name) == 0)
			return (int)i;
	return -1;
}

uint32_t topo_peer(const struct topo *t, uint32_t n, uint16_t p)
{
	uint32_t l = t->nodes[n].port_links[p];

	if (l == TOPO_NO_LINK)
		return TOPO_NO_LINK;
	/* A self-loop has both ends on n; topo_check rejects it. */
	return t->links[l].node[0] == n ? t->links[l].node[1] : t->links[l].node[0];
}

uint32_t topo_bfs(const struct topo *t, const uint32_t *srcs, uint32_t n_srcs, uint32_t *dist,
		  uint32_t *queue)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t i = 0; i < t->n_nodes; i++)
		dist[i] = UINT32_MAX;
	for (uint32_t i = 0; i < n_srcs; i++) {
		if (dist[srcs[i]] == 0)
			continue;
		dist[srcs[i]] = 0;
		queue[tail++] = srcs[i];
	}
	while (head < tail) {
		uint32_t n = queue[head++];
		const struct topo_node *node = &t->nodes[n];

		/* Hosts do not forward: only a source host is passed through. */
		if (node->kind == TOPO_HOST && dist[n] != 0)
			continue;
		for (uint16_t p = 0; p < node->n_ports; p++) {
			uint32_t m = topo_peer(t, n, p);

			if (m == TOPO_NO_LINK || dist[m] != UINT32_MAX)
				continue;
			dist[m] = dist[n] + 1;
			queue[tail++] = m;
		}
	}
	return tail;
}

void topo_errorf(char err[CFG_ERR_BYTES], const struct cfg_mark *m, const char *fmt, ...)
{
	char msg[CFG_ERR_BYTES];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (m == NULL || m->file == NULL) {
		snprintf(err, CFG_ERR_BYTES, "%s", msg);
		return;
	}
	/* cfg_errorf owns the "FILE:LINE:COL: " format; lend it a node. */
	struct cfg_node at = { .type = CFG_NULL, .mark = *m };

	cfg_errorf(err, &at, "%s", msg);
}

/* Every link's ends valid, distinct and recorded on their ports; every used
 * port recorded by the link it names. */
static int topo_check_links(const struct topo *t, char err[CFG_ERR_BYTES])
{
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];

		for (int e = 0; e < 2; e++) {
			if (k->node[e] >= t->n_nodes) {
				topo_errorf(err, &k->mark, "link %u: node index %u out of range (%u nodes)",
					    l, k->node[e], t->n_nodes);
				return -EINVAL;
			}
		}
		const struct topo_node *a = &t->nodes[k->node[0]];
		const struct topo_node *b = &t->nodes[k->node[1]];

		if (k->node[0] == k->node[1]) {
			topo_errorf(err, &k->mark, "link %s:%u - %s:%u connects %s to itself",
				    a->name, k->port[0], b->name, k->port[1], a->name);
			return -EINVAL;
		}
		for (int e = 0; e < 2; e++) {
			const struct topo_node *n = e ? b : a;

			if (k->port[e] >= n->n_ports) {
				topo_errorf(err, &k->mark, "link %s:%u - %s:%u: port %u out of range (%s has %u ports)",
					    a->name, k->port[0], b->name, k->port[1], k->port[e],
					    n->name, n->n_ports);
				return -EINVAL;
			}
			if (n->port_links[k->port[e]] != l) {
				topo_errorf(err, &k->mark, "port %s:%u is used by more than one link",
					    n->name, k->port[e]);
				return -EINVAL;
			}
		}
		if (k->rate_bps == 0) {
			topo_errorf(err, &k->mark, "link %s:%u - %s:%u has no rate",
				    a->name, k->port[0], b->name, k->port[1]);
			return -EINVAL;
		}
	}
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		for (uint16_t p = 0; p < n->n_ports; p++) {
			uint32_t l = n->port_links[p];

			if (l == TOPO_NO_LINK)
				continue;
			if (l >= t->n_links ||
			    !((t->links[l].node[0] == i && t->links[l].port[0] == p) ||
			      (t->links[l].node[1] == i && t->links[l].port[1] == p))) {
				topo_errorf(err, &n->mark, "port %s:%u names link %u, which does not end there",
					    n->name, p, l);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* hosts[] and switches[] agree with the node kinds and indices. */
static int topo_check_index(const struct topo *t, char err[CFG_ERR_BYTES])
{
	if (t->n_hosts + t->n_switches != t->n_nodes) {
		topo_errorf(err, NULL, "%u hosts and %u switches but %u nodes",
			    t->n_hosts, t->n_switches, t->n_nodes);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < t->n_hosts + t->n_switches; i++) {
		int is_host = i < t->n_hosts;
		uint32_t idx = is_host ? i : i - t->n_hosts;
		uint32_t n = is_host ? t->hosts[idx] : t->switches[idx];

		if (n >= t->n_nodes || t->nodes[n].index != idx ||
		    t->nodes[n].kind != (is_host ? TOPO_HOST : TOPO_SWITCH)) {
			topo_errorf(err, NULL, "%s %u: bad node index %u", is_host ? "host" : "switch", idx, n);
			return -EINVAL;
		}
	}
	return 0;
}

/* Every host reaches every other host, and every switch is reached from a
 * host. With single-homed hosts one search from the first host decides it;
 * a multi-homed host may join parts that only it could bridge, and hosts do
 * not forward, so then every host is searched from. */
static int topo_check_reach(const struct topo *t, const struct cfg_mark *block,
		       char err[CFG_ERR_BYTES])
{
	uint32_t *dist = malloc(t->n_nodes * sizeof(*dist));
	uint32_t *queue = malloc(t->n_nodes * sizeof(*queue));
	uint8_t *seen = calloc(t->n_nodes, 1);
	uint32_t n_srcs = 1, bad = UINT32_MAX, src = 0;

	if (dist == NULL || queue == NULL || seen == NULL) {
		free(dist);
		free(queue);
		free(seen);
		snprintf(err, CFG_ERR_BYTES, "topology check: out of memory");
		return -ENOMEM;
	}
	for (uint32_t h = 0; h < t->n_hosts && n_srcs == 1; h++) {
		const struct topo_node *n = &t->nodes[t->hosts[h]];
		uint32_t used = 0;

		for (uint16_t p = 0; p < n->n_ports; p++)
			used += n->port_links[p] != TOPO_NO_LINK;
		if (used > 1)
			n_srcs = t->n_hosts;
	}
	for (uint32_t s = 0; s < n_srcs && bad == UINT32_MAX; s++) {
		uint32_t n_reached = topo_bfs(t, &t->hosts[s], 1, dist, queue);

		src = t->hosts[s];
		for (uint32_t i = 0; i < n_reached; i++)
			seen[queue[i]] = 1;
		for (uint32_t h = 0; h < t->n_hosts && bad == UINT32_MAX; h++)
			if (dist[t->hosts[h]] == UINT32_MAX)
				bad = t->hosts[h];
	}
	if (bad == UINT32_MAX) {
		src = t->hosts[0];
		for (uint32_t s = 0; s < t->n_switches && bad == UINT32_MAX; s++)
			if (!seen[t->switches[s]])
				bad = t->switches[s];
	}
	free(dist);
	free(queue);
	free(seen);
	if (bad == UINT32_MAX)
		return 0;
	topo_errorf(err, block != NULL ? block : &t->nodes[bad].mark,
		    "topology is disconnected: %s cannot reach %s",
		    t->nodes[bad].name, t->nodes[src].name);
	return -EINVAL;
}

int topo_check_at(const struct topo *t, const struct cfg_mark *block, char err[CFG_ERR_BYTES])
{
	int rc;

	if (t->n_hosts == 0) {
		topo_errorf(err, block, "topology has no hosts");
		return -EINVAL;
	}
	rc = topo_check_index(t, err);
	if (rc == 0)
		rc = topo_check_links(t, err);
	if (rc != 0)
		return rc;
	for (uint32_t h = 0; h < t->n_hosts; h++) {
		const struct topo_node *n = &t->nodes[t->hosts[h]];
		uint16_t p = 0;

		while (p < n->n_ports && n->port_links[p] == TOPO_NO_LINK)
			p++;
		if (p == n->n_ports) {
			topo_errorf(err, &n->mark, "host %s has no link", n->name);
			return -EINVAL;
		}
	}
	return topo_check_reach(t, block, err);
}

int topo_check(const struct topo *t, char err[CFG_ERR_BYTES])
{
	return topo_check_at(t, NULL, err);
}
