/* Topologies, private: the pieces the builders, the checker, the describer
 * and the tests share. A topology is filled in place: topo_alloc sizes the
 * node and link arrays, topo_set_node / topo_set_link fill one entry each,
 * topo_index derives the host and switch lists. Not part of the public API. */
#ifndef FAB_TOPO_INT_H
#define FAB_TOPO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "topo.h"

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

#define TOPO_DEFAULT_RATE_BPS UINT64_C(100000000000) /* 100Gbps when a link omits rate */
#define TOPO_DEFAULT_DELAY_PS UINT64_C(1000000)      /* 1us when a link omits delay */
#define TOPO_DEFAULT_LINK "{rate: 100Gbps, delay: 1us}" /* the same, as a key's default */

/* Rate and propagation delay of one class of links. */
struct topo_link_params {
	uint64_t rate_bps;  /* each direction */
	uint64_t delay_ps;  /* each direction */
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

/* A topology kind: one file each (topo_ls.c, topo_ft.c, topo_rail*.c,
 * topo_x.c, topo_ns3.c), listed in the registry of topo_build.c. */
struct topo_kind {
	const char *name;              /* value of topology.kind, and topo->kind */
	const struct cfg_table *table; /* the keys of its topology map (kind included) */
	size_t params_size;            /* bytes of the params the table fills (zeroed first) */
	bool own_file;                 /* its `file` key names the kind's own input (ns3),
					* not a topology file to include */
	/* Before the table is read: fill values the kind derives from other
	 * keys (a preset's) into @m, so that the resolved experiment shows
	 * them. 0 or -errno with @err. May be NULL. */
	int (*fill)(struct cfg_doc *doc, struct cfg_node *m, char err[CFG_ERR_BYTES]);
	/* Build from the read @params; @m is the map, for its mark and for the
	 * entries the table leaves to the builder. Does not run topo_check.
	 * 0, -EINVAL with @err, or -ENOMEM. */
	int (*build)(const struct cfg_node *m, const void *params, struct topo **out,
		     char err[CFG_ERR_BYTES]);
};

extern const struct topo_kind topo_ls_kind; /* leaf-spine */
extern const struct topo_kind topo_ft_kind; /* fat-tree */
extern const struct topo_kind topo_rail_kind; /* rail-optimised */
extern const struct topo_kind topo_x_kind;  /* explicit */
extern const struct topo_kind topo_ns3_kind; /* ns3: an HPCC ns-3 topology file */

/* Link class defaults (TOPO_DEFAULT_RATE_BPS, TOPO_DEFAULT_DELAY_PS). */
extern const struct topo_link_params topo_default_link;
/* A link class {rate, delay} into @out, absent keys (or a NULL @n) taking
 * topo_default_link. 0 or -EINVAL with @err. */
int topo_link_read(const struct cfg_node *n, struct topo_link_params *out, char err[CFG_ERR_BYTES]);
/* The rate and delay keys of @map: absent ones take @dflt. */
int topo_read_rate_delay(const struct cfg_node *map, const struct topo_link_params *dflt,
			 struct topo_link_params *out, char err[CFG_ERR_BYTES]);
/* Fill nodes [first, first + n) as "<prefix>0".. of one kind and tier. */
int topo_build_add_nodes(struct topo *t, uint32_t first, uint32_t n, const char *prefix,
			 enum topo_node_kind kind, uint8_t tier, uint16_t n_ports,
			 const struct cfg_mark *mark);
/* The path of the file @name that the key @at names: relative to the
 * folder of the file @at is in (to the current folder in a --set value),
 * unless absolute. 0, or -ENAMETOOLONG when it does not fit in @size. */
int topo_file_path(const struct cfg_node *at, const char *name, char *path, size_t size);
/* Switch tiers from the graph, for the kinds that list their switches
 * (explicit, ns3): a switch's tier is its distance in hops from the
 * nearest host (a ToR is 1; 1 when no host reaches it, at most 255).
 * @dist and @queue are scratch of n_nodes entries each; @t is indexed. */
void topo_x_tiers(struct topo *t, uint32_t *dist, uint32_t *queue);
/* End of a regular builder: index @t and hand it out when @rc is 0, else
 * free it and report out of memory. */
int topo_build_finish(struct topo *t, int rc, struct topo **out, char err[CFG_ERR_BYTES]);

/* Allocate a topology of @n_nodes zeroed nodes and @n_links zeroed links
 * (counts set, entries to be filled). NULL when out of memory. */
struct topo *topo_alloc(const char *kind, uint32_t n_nodes, uint32_t n_links);
/* Fill node @i; its ports start unused. 0 or -ENOMEM. @name is truncated to
 * TOPO_NAME_BYTES - 1. */
int topo_set_node(struct topo *t, uint32_t i, const char *name, enum topo_node_kind kind,
		  uint8_t tier, uint16_t n_ports, const struct cfg_mark *mark);
/* Fill link @l between node @a port @pa and node @b port @pb and record it on
 * both ports. The caller has checked ranges; reuse of a port is left for
 * topo_check to find. */
void topo_set_link(struct topo *t, uint32_t l, uint32_t a, uint16_t pa, uint32_t b, uint16_t pb,
		   const struct topo_link_params *lp, const struct cfg_mark *mark);
/* Build hosts[], switches[] and eps[] from the node kinds (in node order)
 * and set every node's dense index and first endpoint. 0, -E2BIG (more
 * than TOPO_MAX_EPS host ports) or -ENOMEM. */
int topo_index(struct topo *t);

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

/* Rail-optimised, for topo_describe.c: the summary, the drawing and the
 * bisection (topo_rail_describe.c). *@exact (may be NULL) says whether the
 * bisection is exact or a lower bound. */
void topo_rail_describe(const struct topo *t, FILE *out);
void topo_rail_dot(const struct topo *t, FILE *out);
uint64_t topo_rail_bisection(const struct topo *t, int *exact);
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

/* "FILE:LINE:COL: message" at @m (through cfg_errorf), or just the message
 * when @m is NULL or has no file (topologies built in code). */
void topo_errorf(char err[CFG_ERR_BYTES], const struct cfg_mark *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
