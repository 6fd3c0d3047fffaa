/* Topologies, private: the pieces the built-in kinds, the checker, the
 * describer and the tests share, beyond what any kind may use (topo_kind.h:
 * topo_alloc sizes the node and link arrays, topo_set_node / topo_set_link
 * fill one entry each, topo_index derives the host and switch lists). */
#ifndef FAB_TOPO_INT_H
#define FAB_TOPO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topo.h"
#include "topo_kind.h"

enum {
	TOPO_MAX_HOSTS = 65536,      /* largest host count any builder accepts (the host
				      * MAC holds 24 bits of the index, core/addr.h; a
				      * 16,384-GPU rail fabric has 32,768 NIC and NVLink
				      * hosts) */
	TOPO_MAX_SWITCHES = 65536,   /* largest switch count the rail builder accepts: the
				      * switch MAC holds 16 bits of the index (core/addr.h) */
	TOPO_MAX_LINKS = 1 << 20,    /* largest link count (16x a k=64 fat-tree) */
	TOPO_MAX_PORTS = UINT16_MAX, /* ports per node: numbers 0..65534 */
	TOPO_MAX_EPS = 1 << 20,      /* endpoints (host ports in all): their addresses stay in
				      * 10.0.0.0/8 and their numbers in traffic's 20-bit fields */
	TOPO_FT_MIN_K = 2,           /* fat-tree arity limits, inclusive */
	TOPO_FT_MAX_K = 64,
	TOPO_RATE_BYTES = 32,        /* a formatted rate */
};

/* Leaf-spine: every leaf has hosts_per_leaf hosts (ports 0..hosts_per_leaf-1)
 * and links_per_spine parallel links to every spine (ports hosts_per_leaf +
 * spine * links_per_spine + i); spine port leaf * links_per_spine + i. */
struct topo_leaf_spine_params {
	uint32_t n_leaves;
	uint32_t n_spines;
	uint32_t hosts_per_leaf;
	uint32_t links_per_spine;
	struct topo_link_params host_link;   /* host - leaf */
	struct topo_link_params fabric_link; /* leaf - spine */
};

/* k-ary fat-tree (Al-Fares et al., SIGCOMM 2008) of 2 or 3 tiers. */
struct topo_fat_tree_params {
	uint32_t k;                          /* switch radix, even */
	uint32_t n_tiers;                    /* switch tiers: 2 or 3 */
	struct topo_link_params host_link;   /* host - edge */
	struct topo_link_params fabric_link; /* edge - agg/spine, agg - core */
};

/* A ratio down:up of capacities, written "2:1". */
struct topo_ratio {
	uint32_t down; /* downlink share */
	uint32_t up;   /* uplink share */
};

/* Rail-optimised fat-tree with GPU nodes and NVLink domains (topo_rail.c
 * wires it, topo_rail_cfg.c reads it; docs/config.md). Counts of 0 mean
 * "not given" or "auto" where the comment says so. */
struct topo_rail_params {
	uint32_t preset;                     /* 0: none; else 1 + index of a preset */
	uint32_t gpus_per_node;              /* G: GPUs per node, one NIC each */
	uint32_t rails;                      /* 0: not given; else must equal G */
	uint32_t nodes_per_unit;             /* node slots per scalable unit */
	uint32_t n_nodes;                    /* GPU nodes; 0: not given (n_units is) */
	uint32_t n_units;                    /* scalable units; 0: not given (n_nodes is) */
	uint16_t nic_ports;                  /* ports per NIC: 1 or 2 */
	uint16_t n_planes;                   /* 1, or nic_ports: port p on plane p */
	uint32_t n_tiers;                    /* 2 or 3; 0: auto (2 when one spine layer
					      * can hold every leaf) */
	uint32_t radix;                      /* ports per scale-out switch */
	struct topo_ratio leaf_os;           /* leaf down:up */
	struct topo_ratio spine_os;          /* spine down:up (three tiers) */
	uint32_t units_per_pod;              /* 0: auto (fill one spine's down ports) */
	uint32_t management_ports;           /* 0: no management host */
	bool nvlink;                         /* NVLink domains modelled (nvlink: none: no) */
	uint32_t domain_gpus;                /* GPUs per NVLink domain; 0: one node's */
	struct topo_link_params nvl_link;    /* GPU - NVLink switch */
	struct topo_link_params host_link;   /* NIC - leaf, management - leaf */
	struct topo_link_params fabric_link; /* switch - switch */
};


/* The rate and delay keys of @map: absent ones take @dflt. */
int topo_read_rate_delay(const struct cfg_node *map, const struct topo_link_params *dflt,
			 struct topo_link_params *out, char err[CFG_ERR_BYTES]);
/* The path of the file @name that the key @at names: relative to the
 * folder of the file @at is in (to the current folder in a --set value),
 * unless absolute. 0, or -ENAMETOOLONG when it does not fit in @size. */
int topo_file_path(const struct cfg_node *at, const char *name, char *path, size_t size);
/* Switch tiers from the graph, for the kinds that list their switches
 * (explicit, ns3): a switch's tier is its distance in hops from the
 * nearest host (a ToR is 1; 1 when no host reaches it, at most 255).
 * @dist and @queue are scratch of n_nodes entries each; @t is indexed. */
void topo_x_tiers(struct topo *t, uint32_t *dist, uint32_t *queue);

/* The registered kind @t was built as (by its name, topo->kind), or NULL
 * (a topology built in code under another name). */
const struct topo_kind *topo_kind_of(const struct topo *t);
/* Read topology.kind from @n: 0, or -EINVAL with "unknown value ... (did
 * you mean ...)" at @n. */
int topo_kind_read(const struct cfg_node *n, const struct topo_kind **out,
		   char err[CFG_ERR_BYTES]);
/* The kinds' names joined by ", " into @buf; returns @buf. */
char *topo_kind_list(char *buf, size_t size);

/* The builders behind topo_from_cfg, from checked parameters; every node and
 * link carries @mark. 0, -EINVAL (limits, with @err) or -ENOMEM. They do not
 * run topo_check. */
int topo_build_leaf_spine(const struct topo_leaf_spine_params *p, const struct cfg_mark *mark,
			  struct topo **out, char err[CFG_ERR_BYTES]);
int topo_build_fat_tree(const struct topo_fat_tree_params *p, const struct cfg_mark *mark,
			struct topo **out, char err[CFG_ERR_BYTES]);
/* Rail-optimised; @m is the topology map, for the marks of the keys an
 * error names (NULL: messages without a location). */
int topo_build_rail(const struct topo_rail_params *p, const struct cfg_node *m,
		    struct topo **out, char err[CFG_ERR_BYTES]);

/* Rail-optimised, its kind's hooks: the summary, the drawing and the
 * bisection (topo_rail_describe.c). *@exact (may be NULL) says whether the
 * bisection is exact or a lower bound. */
void topo_rail_describe(const struct topo *t, FILE *out);
void topo_rail_dot(const struct topo *t, FILE *out);
uint64_t topo_rail_bisection(const struct topo *t, int *exact);
/* Closed-form bisections of the regular kinds (topo_describe.c), for
 * topologies of at least two hosts: two switch levels where every leaf has
 * the same hosts and uplinks and every spine reaches every leaf equally
 * (leaf-spine, 2-tier fat-tree), and the 3-tier k-ary fat-tree. */
uint64_t topo_bisection_two_level(const struct topo *t);
uint64_t topo_bisection_fat_tree3(const struct topo *t);
/* Short rate for labels: "100G", "12.5G", "400M" (topo_describe.c). */
void topo_desc_rate_short(char buf[TOPO_RATE_BYTES], uint64_t bps);

/* topo_check, reporting a disconnected topology at @block (the topology
 * map) when given, else at the mark of the node that cannot reach. */
int topo_check_at(const struct topo *t, const struct cfg_mark *block, char err[CFG_ERR_BYTES]);

/* Node adjacency: the node on the far side of node @n's port @p, or
 * TOPO_NO_LINK when the port is unused. */
uint32_t topo_peer(const struct topo *t, uint32_t n, uint16_t p);

/* Breadth-first search from the @n_srcs nodes @srcs over the links. Hosts
 * that are not sources are reached but never passed through: hosts do not
 * forward. Writes the hop count of every node into @dist (UINT32_MAX when
 * unreached) and the reached nodes in visiting order into @queue (both
 * n_nodes long); returns how many were reached. */
uint32_t topo_bfs(const struct topo *t, const uint32_t *srcs, uint32_t n_srcs, uint32_t *dist,
		  uint32_t *queue);

#endif
