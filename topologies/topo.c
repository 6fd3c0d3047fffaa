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
	n->role = TOPO_ROLE_PLAIN;
	n->gpu = 0;
	n->gpu_node = TOPO_NO_LINK;
	n->group = TOPO_NO_LINK;
	n->net = 0;
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
	for (uint32_t i = 0; t->nodes != NULL && i < t->n_nodes; i++) {
		free(t->nodes[i].port_links);
		free(t->nodes[i].port_nets);
	}
	free(t->nodes);
	free(t->eps);
	free(t->links);
	free(t->hosts);
	free(t->switches);
	free(t->gpus.nic);
	free(t->gpus.nvl);
	free(t->source);
	free(t);
}

size_t topo_mem_bytes(const struct topo *t)
{
	size_t bytes = sizeof(*t) + (size_t)t->n_nodes * sizeof(*t->nodes) +
		       (size_t)t->n_links * sizeof(*t->links) +
		       ((size_t)t->n_hosts + t->n_switches) * sizeof(uint32_t);
	size_t n_gpus = (size_t)t->gpus.n_nodes * t->gpus.gpus_per_node;

	for (uint32_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		bytes += (size_t)n->n_ports * sizeof(*n->port_links);
		if (n->port_nets != NULL)
			bytes += (size_t)n->n_ports * sizeof(*n->port_nets);
	}
	bytes += t->gpus.nic != NULL ? n_gpus * sizeof(*t->gpus.nic) : 0;
	bytes += t->gpus.nvl != NULL ? n_gpus * sizeof(*t->gpus.nvl) : 0;
	return bytes;
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

/* One membership of the connectivity check: a host with a linked port in a net. */
struct topo_member {
	uint32_t net;  /* the net */
	uint32_t host; /* the host's node */
};

/* Working memory of the connectivity check. */
struct topo_reach {
	uint32_t *island;   /* per node: a switch's island (union-find over switch-switch
			     * links), UINT32_MAX for hosts */
	uint8_t *touched;   /* per node: island root attached to some host port */
	uint32_t *dist;     /* per node: hop count of the current search, UINT32_MAX */
	uint32_t *queue;    /* per node: the current search's visiting order */
	struct topo_member *members; /* every (net, host), sorted by net then host */
	uint32_t n_members; /* entries of members */
};

static int topo_member_cmp(const void *a, const void *b)
{
	const struct topo_member *x = a, *y = b;

	if (x->net != y->net)
		return x->net < y->net ? -1 : 1;
	return (x->host > y->host) - (x->host < y->host);
}

static uint32_t topo_island(uint32_t *island, uint32_t x)
{
	while (island[x] != x) {
		island[x] = island[island[x]];
		x = island[x];
	}
	return x;
}

/* Islands of switches, the nets of every host and which islands hosts
 * attach to. */
static void topo_reach_prepare(const struct topo *t, struct topo_reach *r)
{
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		r->island[i] = t->nodes[i].kind == TOPO_SWITCH ? i : UINT32_MAX;
		r->dist[i] = UINT32_MAX;
	}
	for (uint32_t l = 0; l < t->n_links; l++) {
		uint32_t a = t->links[l].node[0], b = t->links[l].node[1];

		if (t->nodes[a].kind == TOPO_SWITCH && t->nodes[b].kind == TOPO_SWITCH)
			r->island[topo_island(r->island, a)] = topo_island(r->island, b);
	}
	for (uint32_t h = 0; h < t->n_hosts; h++) {
		const struct topo_node *n = &t->nodes[t->hosts[h]];
		uint32_t first = r->n_members;

		for (uint16_t p = 0; p < n->n_ports; p++) {
			uint32_t m = topo_peer(t, t->hosts[h], p), net = topo_port_net(n, p), i = first;

			if (m == TOPO_NO_LINK)
				continue;
			if (t->nodes[m].kind == TOPO_SWITCH)
				r->touched[topo_island(r->island, m)] = 1;
			while (i < r->n_members && r->members[i].net != net)
				i++;
			if (i == r->n_members)
				r->members[r->n_members++] = (struct topo_member){ net, t->hosts[h] };
		}
	}
	qsort(r->members, r->n_members, sizeof(*r->members), topo_member_cmp);
}

/* Whether host @h has a port in @net whose peer is a switch of @island. */
static int topo_reach_on_island(const struct topo *t, struct topo_reach *r, uint32_t h,
				uint32_t net, uint32_t island)
{
	const struct topo_node *n = &t->nodes[h];

	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t m = topo_peer(t, h, p);

		if (m != TOPO_NO_LINK && topo_port_net(n, p) == net &&
		    t->nodes[m].kind == TOPO_SWITCH && topo_island(r->island, m) == island)
			return 1;
	}
	return 0;
}

/* The quick answer for a net: one island of switches that every host of
 * the net attaches to through a port in it, so every pair meets there. */
static int topo_reach_common_island(const struct topo *t, struct topo_reach *r,
				    uint32_t lo, uint32_t hi)
{
	uint32_t net = r->members[lo].net, h0 = r->members[lo].host;
	const struct topo_node *n = &t->nodes[h0];

	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t m = topo_peer(t, h0, p), island, i = lo + 1;

		if (m == TOPO_NO_LINK || topo_port_net(n, p) != net || t->nodes[m].kind != TOPO_SWITCH)
			continue;
		island = topo_island(r->island, m);
		while (i < hi && topo_reach_on_island(t, r, r->members[i].host, net, island))
			i++;
		if (i == hi)
			return 1;
	}
	return 0;
}

/* Whether host @h links to two different nodes through its ports in @net:
 * then it may be all that joins two parts, which it cannot bridge. */
static int topo_reach_multi_homed(const struct topo *t, uint32_t h, uint32_t net)
{
	const struct topo_node *n = &t->nodes[h];
	uint32_t first = TOPO_NO_LINK;

	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t m = topo_peer(t, h, p);

		if (m == TOPO_NO_LINK || topo_port_net(n, p) != net)
			continue;
		if (first != TOPO_NO_LINK && m != first)
			return 1;
		first = m;
	}
	return 0;
}

/* Search from host @src through its ports in @net (switches forward, other
 * hosts are reached but not passed through) into r->dist and r->queue;
 * returns how many nodes it reached. */
static uint32_t topo_reach_search(const struct topo *t, struct topo_reach *r, uint32_t src,
				  uint32_t net)
{
	uint32_t head = 0, tail = 0;

	r->dist[src] = 0;
	r->queue[tail++] = src;
	while (head < tail) {
		uint32_t n = r->queue[head++];
		const struct topo_node *node = &t->nodes[n];

		if (node->kind == TOPO_HOST && n != src)
			continue;
		for (uint16_t p = 0; p < node->n_ports; p++) {
			uint32_t m = topo_peer(t, n, p);

			if (m == TOPO_NO_LINK || r->dist[m] != UINT32_MAX ||
			    (n == src && topo_port_net(node, p) != net))
				continue;
			r->dist[m] = r->dist[n] + 1;
			r->queue[tail++] = m;
		}
	}
	return tail;
}

/* Whether the last search from @src reached host @h through one of its
 * ports in @net: its peer there forwarded (a reached switch, or @src
 * itself over a port of @src in @net). */
static int topo_reach_reached(const struct topo *t, const struct topo_reach *r, uint32_t h,
			      uint32_t src, uint32_t net)
{
	const struct topo_node *n = &t->nodes[h];

	if (h == src)
		return 1;
	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t l = n->port_links[p], m = topo_peer(t, h, p);

		if (m == TOPO_NO_LINK || topo_port_net(n, p) != net)
			continue;
		if (t->nodes[m].kind == TOPO_SWITCH && r->dist[m] != UINT32_MAX)
			return 1;
		if (m == src && topo_port_net(&t->nodes[src],
					      t->links[l].port[t->links[l].node[0] == h]) == net)
			return 1;
	}
	return 0;
}

/* The hosts members[lo..hi) of one net, by search: from the first host, or
 * from every host when one of them is multi-homed in the net. Returns the
 * first host that cannot be reached (with *@src the host searched from),
 * or UINT32_MAX. */
static uint32_t topo_reach_by_search(const struct topo *t, struct topo_reach *r, uint32_t lo,
				     uint32_t hi, uint32_t *src)
{
	uint32_t net = r->members[lo].net, n_srcs = 1, bad = UINT32_MAX;

	for (uint32_t i = lo; i < hi && n_srcs == 1; i++)
		if (topo_reach_multi_homed(t, r->members[i].host, net))
			n_srcs = hi - lo;
	for (uint32_t s = lo; s < lo + n_srcs && bad == UINT32_MAX; s++) {
		uint32_t n_reached = topo_reach_search(t, r, r->members[s].host, net);

		*src = r->members[s].host;
		for (uint32_t i = lo; i < hi && bad == UINT32_MAX; i++)
			if (!topo_reach_reached(t, r, r->members[i].host, *src, net))
				bad = r->members[i].host;
		for (uint32_t i = 0; i < n_reached; i++)
			r->dist[r->queue[i]] = UINT32_MAX;
	}
	return bad;
}

/* Every host reaches every other host of each net it has ports in, through
 * those ports, and every switch is reached from a host. A net whose hosts
 * all attach to one island of switches passes at once (the rail fabrics:
 * a plane, an NVLink domain). Otherwise it is searched: with single-homed
 * hosts one search from its first host decides it; a multi-homed host may
 * join parts that only it could bridge, and hosts do not forward, so then
 * every host of the net is searched from. A switch is reached when a host
 * attaches to its island. */
static int topo_check_reach(const struct topo *t, const struct cfg_mark *block,
			    char err[CFG_ERR_BYTES])
{
	uint64_t n_host_ports = 0;
	struct topo_reach r = { 0 };
	uint32_t bad = UINT32_MAX, src = t->hosts[0];

	for (uint32_t h = 0; h < t->n_hosts; h++)
		n_host_ports += t->nodes[t->hosts[h]].n_ports;
	r.island = malloc(t->n_nodes * sizeof(*r.island));
	r.touched = calloc(t->n_nodes, 1);
	r.dist = malloc(t->n_nodes * sizeof(*r.dist));
	r.queue = malloc(t->n_nodes * sizeof(*r.queue));
	r.members = malloc(n_host_ports * sizeof(*r.members));
	if (r.island == NULL || r.touched == NULL || r.dist == NULL || r.queue == NULL ||
	    r.members == NULL) {
		free(r.island);
		free(r.touched);
		free(r.dist);
		free(r.queue);
		free(r.members);
		snprintf(err, CFG_ERR_BYTES, "topology check: out of memory");
		return -ENOMEM;
	}
	topo_reach_prepare(t, &r);
	for (uint32_t lo = 0, hi; lo < r.n_members && bad == UINT32_MAX; lo = hi) {
		hi = lo + 1;
		while (hi < r.n_members && r.members[hi].net == r.members[lo].net)
			hi++;
		if (!topo_reach_common_island(t, &r, lo, hi))
			bad = topo_reach_by_search(t, &r, lo, hi, &src);
	}
	if (bad == UINT32_MAX) {
		src = t->hosts[0];
		for (uint32_t s = 0; s < t->n_switches && bad == UINT32_MAX; s++)
			if (!r.touched[topo_island(r.island, t->switches[s])])
				bad = t->switches[s];
	}
	free(r.island);
	free(r.touched);
	free(r.dist);
	free(r.queue);
	free(r.members);
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
