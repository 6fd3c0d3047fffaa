/* Topologies: the graph of hosts, switches, ports and full-duplex links that
 * an experiment describes, built from a few parameters (leaf-spine, k-ary
 * fat-tree of 2 or 3 tiers, rail-optimised GPU fabric with NVLink domains),
 * from explicit nodes and links, or from an HPCC ns-3 topology file; checked for
 * consistency and connectivity; described (counts, bisection bandwidth,
 * oversubscription per tier) and drawn (Graphviz dot). Also computes the
 * equal-cost shortest-path forwarding tables the switches use. */
#ifndef FAB_TOPO_H
#define FAB_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "fib.h"

struct cfg_table;

enum {
	TOPO_NAME_BYTES = 32,
	TOPO_NO_LINK = UINT32_MAX,
};

enum topo_node_kind {
	TOPO_HOST,
	TOPO_SWITCH,
};

/* Values of topo_node.tier. Explicit graphs may use any tier 1..255 for
 * their switches; the regular builders use these. */
enum topo_tier {
	TOPO_TIER_HOST = 0,    /* hosts (NICs, NVLink endpoints) */
	TOPO_TIER_LEAF = 1,    /* leaf, edge */
	TOPO_TIER_SPINE = 2,   /* spine, aggregation */
	TOPO_TIER_CORE = 3,    /* core */
	TOPO_TIER_SCALEUP = 8, /* scale-up (NVLink / NVSwitch) domain switches */
};

/* Values of topo_node.role: what a node stands for in a GPU fabric. */
enum topo_role {
	TOPO_ROLE_PLAIN = 0, /* a switch, or a host of a kind without GPUs */
	TOPO_ROLE_NIC,       /* the scale-out NIC of one GPU */
	TOPO_ROLE_GPU,       /* a GPU's NVLink endpoint (scale-up) */
	TOPO_ROLE_MGMT,      /* a management host (the fabric manager appliance) */
};

struct topo_node {
	char name[TOPO_NAME_BYTES]; /* "h0", "leaf3", "spine1", "edge0", "agg2", "core5",
				     * "node3/nic7", "node3/gpu7", "plane1/leaf0", "nvl2" */
	enum topo_node_kind kind;   /* host or switch */
	uint8_t tier;               /* enum topo_tier (any 1..255 in explicit graphs) */
	uint8_t role;               /* enum topo_role */
	uint16_t gpu;               /* NIC or GPU endpoint: its GPU (= NIC = rail) index in
				     * its GPU node; 0 otherwise */
	uint16_t n_ports;           /* ports 0..n_ports-1 */
	uint32_t *port_links;       /* link index per port, TOPO_NO_LINK if unused */
	uint32_t index;             /* dense index among hosts or among switches */
	uint32_t first_ep;          /* hosts: the endpoint of port 0; port p is endpoint
				     * first_ep + p (topo_index); switches: TOPO_NO_LINK */
	uint32_t gpu_node;          /* NIC or GPU endpoint: its GPU node; TOPO_NO_LINK otherwise */
	uint32_t group;             /* drawing and reporting cluster: the unit of a leaf, NIC
				     * or management host, the pod of a spine, the core group
				     * of a core, the NVLink domain of a GPU endpoint or nvl
				     * switch; TOPO_NO_LINK for none (every other kind) */
	uint32_t net;               /* connectivity set: topo_check requires every host to
				     * reach every host sharing a net with it, through its
				     * ports in that net. 0 for all of every kind but
				     * rail-optimised, where plane p is net p and NVLink
				     * domain d is net planes + d; a switch carries the net
				     * of the hosts it serves */
	uint32_t *port_nets;        /* a host whose ports lie in different nets (a dual-plane
				     * NIC): the net of each port; NULL: every port is in net */
	struct cfg_mark mark;       /* where declared (or the topology block) */
};

/* The net port @p of @n is in. */
static inline uint32_t topo_port_net(const struct topo_node *n, uint16_t p)
{
	return n->port_nets != NULL ? n->port_nets[p] : n->net;
}

/* An endpoint: one port of a host (a NIC port). Endpoints are what traffic
 * names, what routes lead to and what an address belongs to (endpoint e
 * has IPv4 10.0.0.0 + e + 1, core/addr.h): a host's ports are endpoints
 * of their own, numbered host by host, port by port (so where every host
 * has one port, endpoint e is host e). */
struct topo_ep {
	uint32_t node;              /* host node */
	uint16_t port;              /* its port */
};

struct topo_link {
	uint32_t node[2];     /* endpoints: node indices */
	uint16_t port[2];     /* and port numbers on them */
	uint64_t rate_bps;    /* each direction */
	uint64_t delay_ps;    /* propagation, each direction */
	struct cfg_mark mark; /* where declared (or the topology block) */
};

/* The GPU view of a rail-optimised fabric (zeroed, arrays NULL, for the
 * kinds without GPUs): GPU node n has G GPUs, GPU g has NIC g, and NIC g of
 * every node of a scalable unit sits on that unit's rail-g leaf. */
struct topo_gpus {
	uint32_t n_nodes;         /* GPU nodes; 0 for kinds without them */
	uint32_t gpus_per_node;   /* G: GPUs per node, = NICs per node = rails per unit */
	uint16_t nic_ports;       /* ports per NIC */
	uint16_t n_planes;        /* scale-out planes: complete copies of the switch fabric */
	uint8_t n_tiers;          /* switch tiers of each plane: 2 (leaf, spine) or 3 (+ core) */
	uint32_t radix;           /* ports per scale-out switch (some may be left unused) */
	uint32_t nodes_per_unit;  /* node slots per scalable unit (SU) */
	uint32_t n_units;         /* scalable units */
	uint32_t units_per_pod;   /* units per pod (with two tiers: all of them, one pod) */
	uint32_t n_pods;          /* pods */
	uint32_t n_leaves;        /* leaves per plane: n_units x G */
	uint32_t n_spines;        /* spines per plane */
	uint32_t n_cores;         /* cores per plane; 0 with two tiers */
	uint32_t leaf_up_ports;   /* uplinks per leaf */
	uint32_t spine_up_ports;  /* uplinks per spine; 0 with two tiers */
	uint32_t domain_gpus;     /* GPUs per NVLink domain; 0: none */
	uint32_t n_domains;       /* NVLink domains */
	uint32_t mgmt;            /* node of the management host, TOPO_NO_LINK if none */
	uint32_t *nic;            /* topology node of NIC g of GPU node n: [n * G + g] */
	uint32_t *nvl;            /* topology node of the NVLink endpoint of GPU g of node
				   * n: [n * G + g]; NULL when there is no NVLink */
};

struct topo {
	const char *kind;         /* the name of the kind it was built as (static string):
				   * "leaf-spine", "fat-tree", ... (topo_kind.h); its
				   * describe, dot and bisection hooks are found by it */
	uint32_t n_nodes;         /* hosts + switches */
	uint32_t n_links;         /* full-duplex links */
	uint32_t n_hosts;
	uint32_t n_switches;
	struct topo_node *nodes;  /* n_nodes */
	struct topo_link *links;  /* n_links */
	uint32_t *hosts;          /* node index of host i, n_hosts */
	uint32_t *switches;       /* node index of switch i, n_switches */
	uint32_t n_eps;           /* endpoints: the ports of all hosts */
	struct topo_ep *eps;      /* endpoint e, n_eps (host order, then port order) */
	struct topo_gpus gpus;    /* GPU nodes, NICs and NVLink (rail-optimised only) */
	uint64_t build_ns;        /* wall-clock time topo_from_cfg took (reading, building,
				   * checking), for the summary; 0 when built in code */
	char *source;             /* the file the graph was read from (ns3), owned: the
				   * node and link marks point at it; NULL otherwise */
};

/* Build from the experiment's `topology:` map. Keys (see docs/config.md):
 *   kind: a registered topology kind (topologies/topo_kinds.c, topo_register);
 *   those built in:
 *   leaf-spine: leaves, spines, hosts_per_leaf, host_link{rate,delay},
 *               fabric_link{rate,delay}, links_per_spine (parallel links, default 1)
 *   fat-tree:   k (even, >= 2), tiers (2 or 3), host_link, fabric_link
 *   rail-optimised: preset, gpus_per_node, nodes_per_unit, nodes | units,
 *               nic_ports, planes, tiers, radix, leaf/spine_oversubscription,
 *               units_per_pod, management_ports, nvlink, rails, host_link,
 *               fabric_link
 *   explicit:   nodes: [{name, kind: host|switch, ports}], links:
 *               [{endpoints: [a:0, b:3], rate, delay}], default_link{rate,delay}
 *   ns3:        file (an HPCC ns-3 topology file, relative to the experiment's folder)
 * Then runs topo_check. Returns 0 or -EINVAL with "FILE:LINE:COL: ..." in @err. */
int topo_from_cfg(struct cfg_doc *doc, struct cfg_node *topology, struct topo **out,
		  char err[CFG_ERR_BYTES]);
/* The registry of topology kinds (topo_kinds.c; more through topo_register,
 * topo_kind.h): their names (NULL-terminated, registry order) and the key
 * table of kind @i (NULL past the last), for the reference. Absent keys
 * that have a default are filled into @topology by topo_from_cfg. */
const char *const *topo_kind_names(void);
const struct cfg_table *topo_kind_table(unsigned i);
void topo_free(struct topo *t); /* NULL is fine */

/* Consistency and connectivity: every link endpoint valid and used once, no
 * self-loops, every host attached, every host reaches every other host of
 * each net it has ports in (topo_node.net; one net for every kind but
 * rail-optimised), through those ports, and every switch is reached from a
 * host. @err names the offending node/link at its mark. */
int topo_check(const struct topo *t, char err[CFG_ERR_BYTES]);

/* Bytes the topology's arrays take (nodes, links, ports, indices, GPU maps). */
size_t topo_mem_bytes(const struct topo *t);

/* Node index by name, or -1. */
int topo_find(const struct topo *t, const char *name);
/* The island of every endpoint (topo_reach.c), malloc'd into *@out: two
 * endpoints reach each other exactly when their islands are equal;
 * UINT32_MAX for an unlinked port. 0 or -ENOMEM. */
int topo_ep_islands(const struct topo *t, uint32_t **out);
/* Name patterns (topo_glob.c): @s holds a wildcard (`*`, `?`, `[`);
 * @name matches the shell-style @pattern, `*` and `?` not crossing `/`. */
bool topo_is_glob(const char *s);
bool topo_glob_match(const char *pattern, const char *name);

enum { TOPO_EP_NAME_BYTES = TOPO_NAME_BYTES + 8 /* "NAME:PORT" */ };

/* The name of endpoint @ep: its host's name when the host has one port,
 * else "HOST:PORT". Returns @buf. */
const char *topo_ep_name(const struct topo *t, uint32_t ep, char buf[TOPO_EP_NAME_BYTES]);
/* The link of endpoint @ep, or NULL when its port has none. */
const struct topo_link *topo_ep_link(const struct topo *t, uint32_t ep);

/* Print counts, link rates, per-tier oversubscription and bisection
 * bandwidth (human readable); for rail-optimised also GPUs, units, pods,
 * planes, NVLink domains, cables per tier, memory and build time. */
void topo_describe(const struct topo *t, FILE *out);
/* Graphviz dot of the graph (rail-optimised: clusters per unit, pod and
 * NVLink domain, port numbers on the edge ends). */
void topo_dot(const struct topo *t, FILE *out);
/* Bisection bandwidth in bits/s: the capacity of the minimum cut splitting
 * the hosts into two equal halves, for the regular topologies computed from
 * their structure; for explicit ones an upper bound from a balanced
 * partition heuristic. For rail-optimised the hosts split are the GPU NICs
 * (the scale-out fabric; NVLink endpoints and the management host do not
 * forward and take no part), and the value is exact or a lower bound, as
 * topo_rail_bisection says. */
uint64_t topo_bisection_bps(const struct topo *t);

/* Equal-cost shortest-path forwarding to endpoints (host ports).
 * Endpoints behind the same neighbour form a destination class (the NIC
 * ports of one leaf): a switch is equally far from all of them and, unless
 * it is that neighbour, reaches them through the same ports. The table
 * holds hop counts only, one byte per (switch, class) cell: 40 KB for a
 * k=16 fat-tree, 10 MB for k=64. A node's egress ports toward an endpoint
 * are those whose neighbour is one hop closer and can carry the packet on
 * (a switch, or the endpoint's own port), listed on demand by
 * topo_route_ports. Links marked down (topo_routes_build_avoiding) carry
 * nothing. */
struct topo_routes {
	uint32_t n_nodes;     /* nodes of the topology */
	uint32_t n_eps;       /* endpoints */
	uint32_t n_classes;   /* destination classes */
	uint32_t n_rows;      /* switches: rows of hops[] */
	uint32_t *ep_class;   /* class of each endpoint (n_eps) */
	uint32_t *class_rep;  /* an endpoint of each class (n_classes) */
	uint32_t *ep_node;    /* host node of each endpoint (n_eps) */
	uint16_t *ep_port;    /* its port (n_eps) */
	uint32_t *row;        /* per node: its row of hops[], TOPO_NO_LINK for hosts */
	uint8_t *hops;        /* hop count from switch row s to class c (n_rows * n_classes),
			       * UINT8_MAX when it cannot be reached */
	uint32_t *first;      /* n_nodes + 1: node n's ports are peers[first[n]..first[n+1]) */
	uint32_t *peers;      /* neighbour node behind each port, TOPO_NO_LINK if unused
			       * or down */
	uint16_t *peer_ports; /* the neighbour's port on that link */
};

int topo_routes_build(const struct topo *t, struct topo_routes **out, char err[CFG_ERR_BYTES]);
/* The same with the links @link_down[l] != 0 taken out (NULL: none), for
 * forwarding state recomputed during a run. */
int topo_routes_build_avoiding(const struct topo *t, const uint8_t *link_down,
			       struct topo_routes **out, char err[CFG_ERR_BYTES]);
void topo_routes_free(struct topo_routes *r); /* NULL is fine */

/* Hop count from @node (any node) to endpoint @ep: 0 at the endpoint's own
 * host, UINT8_MAX when it cannot be reached. */
uint32_t topo_route_hops(const struct topo_routes *r, uint32_t node, uint32_t ep);

/* The egress ports of @node toward endpoint @ep, in ascending port order
 * (none at the endpoint's own host, none when unreachable): up to @max of
 * them into @ports. Returns how many there are. */
uint32_t topo_route_ports(const struct topo_routes *r, uint32_t node, uint32_t ep,
			  uint16_t *ports, uint32_t max);

/* Buffers for the forwarding rows of one switch, reused from switch to
 * switch (zero-initialise; topo_fib_buf_free). */
struct topo_fib_buf {
	uint32_t *off;      /* n_classes + 1 offsets */
	uint32_t *doff;     /* attached endpoints + 1 offsets */
	size_t doff_cap;    /* entries doff holds */
	uint16_t *ports;    /* class rows, then the attached endpoints' rows */
	size_t cap;         /* entries ports holds */
	size_t used;        /* entries ports uses */
};

/* The forwarding rows of switch node @node (core/fib.h) from @r, built in
 * @b (whose earlier rows it overwrites) and described by @fib, which points
 * into @b and @r: a row per destination class, empty for the classes
 * attached to @node, whose endpoints get rows of their own. Returns 0 or
 * -ENOMEM. */
int topo_fib_rows(const struct topo_routes *r, const struct topo *t, uint32_t node,
		  struct topo_fib_buf *b, struct fib_rows *fib);
void topo_fib_buf_free(struct topo_fib_buf *b); /* an empty one is fine */

/* The links from endpoint @src to endpoint @dst when every switch takes
 * its first (lowest-numbered) equal-cost port: up to @max link indices
 * into @links, the link of @src's port first. Returns the number of links
 * (0 when @src == @dst), -EINVAL when @dst cannot be reached from @src's
 * port, or -E2BIG when the path is longer than @max. */
int topo_path(const struct topo_routes *r, const struct topo *t, uint32_t src, uint32_t dst,
	      uint32_t *links, uint32_t max);

#endif
