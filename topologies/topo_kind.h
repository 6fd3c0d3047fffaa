/* Topology kinds: the ops one kind of `topology:` map provides, its
 * registration (topo_register), and the calls its builder fills a graph
 * with. A kind is one file defining a struct topo_kind plus one line in
 * the built-in list of topo_kinds.c (docs/extending/topology.md). */
#ifndef FAB_TOPO_KIND_H
#define FAB_TOPO_KIND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "reg.h"
#include "topo.h"

/* One topology kind. Required: kind (name, doc, settings: the key table of
 * its topology map, with `kind` as its first key, section "topology";
 * settings_size: bytes of the params the table fills) and build; the rest
 * may be NULL (or false). topo_register checks that. */
struct topo_kind {
	struct reg_kind kind; /* name: the value of topology.kind, and topo->kind */
	bool own_file;        /* its `file` key names the kind's own input (ns3),
			       * not a topology file to include */
	bool named_tiers;     /* the summary names a tier by the name stem of its
			       * first switch ("leaf", "agg"); false: "tier1".. */
	/* Before the table is read: fill values the kind derives from other
	 * keys (a preset's) into @m, so that the resolved experiment shows
	 * them. 0 or -errno with @err. May be NULL. */
	int (*fill)(struct cfg_doc *doc, struct cfg_node *m, char err[CFG_ERR_BYTES]);
	/* Build from the read @params (zeroed, then filled by the table); @m
	 * is the map, for its mark and for the entries the table leaves to the
	 * builder. Does not run topo_check. 0, -EINVAL with @err, or -ENOMEM. */
	int (*build)(const struct cfg_node *m, const void *params, struct topo **out,
		     char err[CFG_ERR_BYTES]);
	/* Bisection bandwidth in bits/s from the kind's structure; *@exact
	 * (never NULL) set to 1 when exact, 0 for a bound. May be NULL: an
	 * upper bound from max-flow over a few balanced host splits. */
	uint64_t (*bisection)(const struct topo *t, int *exact);
	/* The summary (`fabemu topo`). May be NULL: counts and ports per tier,
	 * link classes, oversubscription per tier and the bisection. */
	void (*describe)(const struct topo *t, FILE *out);
	/* The Graphviz drawing (`fabemu topo --dot`). May be NULL: one rank
	 * per tier, links labelled with their rate. */
	void (*dot)(const struct topo *t, FILE *out);
};

/* Register @kind after the built-in kinds, at program start (before any
 * experiment is loaded): 0, or -EINVAL with @err filled (no name or doc,
 * a name taken, no key table or build, a table whose first key is not
 * `kind`), -ENOSPC when the registry is full. @kind must outlive its use. */
int topo_register(const struct topo_kind *kind, char err[CFG_ERR_BYTES]);

/* The kind named @name, or NULL. */
const struct topo_kind *topo_kind_find(const char *name);

/* ---- for builders ---------------------------------------------------------- */

#define TOPO_DEFAULT_RATE_BPS UINT64_C(100000000000) /* 100Gbps when a link omits rate */
#define TOPO_DEFAULT_DELAY_PS UINT64_C(1000000)      /* 1us when a link omits delay */
#define TOPO_DEFAULT_LINK "{rate: 100Gbps, delay: 1us}" /* the same, as a key's default */

/* Rate and propagation delay of one class of links. */
struct topo_link_params {
	uint64_t rate_bps;  /* each direction */
	uint64_t delay_ps;  /* each direction */
};

/* Link class defaults (TOPO_DEFAULT_RATE_BPS, TOPO_DEFAULT_DELAY_PS). */
extern const struct topo_link_params topo_default_link;
/* A link class {rate, delay} into @out, absent keys (or a NULL @n) taking
 * topo_default_link. 0 or -EINVAL with @err. */
int topo_link_read(const struct cfg_node *n, struct topo_link_params *out, char err[CFG_ERR_BYTES]);
/* The rate and delay keys of @map: absent ones take @dflt. */
int topo_read_rate_delay(const struct cfg_node *map, const struct topo_link_params *dflt,
			 struct topo_link_params *out, char err[CFG_ERR_BYTES]);

/* Allocate a topology of kind @kind (a static string: the kind's name) of
 * @n_nodes zeroed nodes and @n_links zeroed links (counts set, entries to
 * be filled). NULL when out of memory. */
struct topo *topo_alloc(const char *kind, uint32_t n_nodes, uint32_t n_links);
/* Fill node @i; its ports start unused. 0 or -ENOMEM. @name is truncated to
 * TOPO_NAME_BYTES - 1. */
int topo_set_node(struct topo *t, uint32_t i, const char *name, enum topo_node_kind kind,
		  uint8_t tier, uint16_t n_ports, const struct cfg_mark *mark);
/* Fill nodes [first, first + n) as "<prefix>0".. of one kind and tier. */
int topo_build_add_nodes(struct topo *t, uint32_t first, uint32_t n, const char *prefix,
			 enum topo_node_kind kind, uint8_t tier, uint16_t n_ports,
			 const struct cfg_mark *mark);
/* Fill link @l between node @a port @pa and node @b port @pb and record it on
 * both ports. The caller has checked ranges; reuse of a port is left for
 * topo_check to find. */
void topo_set_link(struct topo *t, uint32_t l, uint32_t a, uint16_t pa, uint32_t b, uint16_t pb,
		   const struct topo_link_params *lp, const struct cfg_mark *mark);
/* Build hosts[], switches[] and eps[] from the node kinds (in node order)
 * and set every node's dense index and first endpoint. 0, -E2BIG (more
 * than TOPO_MAX_EPS host ports) or -ENOMEM. */
int topo_index(struct topo *t);
/* End of a builder: index @t and hand it out when @rc is 0, else free it
 * and report out of memory. */
int topo_build_finish(struct topo *t, int rc, struct topo **out, char err[CFG_ERR_BYTES]);

/* "FILE:LINE:COL: message" at @m (through cfg_errorf), or just the message
 * when @m is NULL or has no file (topologies built in code). */
void topo_errorf(char err[CFG_ERR_BYTES], const struct cfg_mark *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
