/* Topologies from configuration: the `topology:` map of an experiment read
 * strictly through core/cfg (every key known, every value typed and ranged),
 * then built as a leaf-spine, a k-ary fat-tree (Al-Fares et al., "A
 * Scalable, Commodity Data Center Network Architecture", SIGCOMM 2008) or an
 * explicit list of nodes and links, and finally checked by topo_check. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_int.h"

enum topo_kind_id {
	TOPO_KIND_LEAF_SPINE,
	TOPO_KIND_FAT_TREE,
	TOPO_KIND_EXPLICIT,
};

static const char *const topo_kinds[] = { "leaf-spine", "fat-tree", "explicit", NULL };

/* The host and fabric link classes of the regular builders. */
static const char *const topo_link_keys[] = { "rate", "delay", NULL };

/* ---- regular builders -------------------------------------------------- */

static void node_name(char buf[TOPO_NAME_BYTES], const char *prefix, uint32_t i)
{
	snprintf(buf, TOPO_NAME_BYTES, "%s%u", prefix, i);
}

/* Fill nodes [first, first + n) as "<prefix>0".. of one kind and tier. */
static int add_nodes(struct topo *t, uint32_t first, uint32_t n, const char *prefix,
		     enum topo_node_kind kind, uint8_t tier, uint16_t n_ports,
		     const struct cfg_mark *mark)
{
	char name[TOPO_NAME_BYTES];

	for (uint32_t i = 0; i < n; i++) {
		node_name(name, prefix, i);
		if (topo_set_node(t, first + i, name, kind, tier, n_ports, mark) != 0)
			return -ENOMEM;
	}
	return 0;
}

static int finish(struct topo *t, int rc, struct topo **out, char err[CFG_ERR_BYTES])
{
	if (rc == 0)
		rc = topo_index(t);
	if (rc != 0) {
		topo_free(t);
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		return rc;
	}
	*out = t;
	return 0;
}

int topo_build_leaf_spine(const struct topo_leaf_spine_params *p, const struct cfg_mark *mark,
			  struct topo **out, char err[CFG_ERR_BYTES])
{
	uint64_t n_hosts = (uint64_t)p->n_leaves * p->hosts_per_leaf;
	uint64_t leaf_ports = p->hosts_per_leaf + (uint64_t)p->n_spines * p->links_per_spine;
	uint64_t spine_ports = (uint64_t)p->n_leaves * p->links_per_spine;
	uint64_t n_links = n_hosts + (uint64_t)p->n_leaves * p->n_spines * p->links_per_spine;

	if (n_hosts > TOPO_MAX_HOSTS) {
		topo_errorf(err, mark, "leaf-spine has %llu hosts (leaves x hosts_per_leaf), at most %d",
			    (unsigned long long)n_hosts, TOPO_MAX_HOSTS);
		return -EINVAL;
	}
	if (leaf_ports > TOPO_MAX_PORTS || spine_ports > TOPO_MAX_PORTS) {
		topo_errorf(err, mark, "a %s would need %llu ports, at most %d",
			    leaf_ports > TOPO_MAX_PORTS ? "leaf" : "spine",
			    (unsigned long long)(leaf_ports > TOPO_MAX_PORTS ? leaf_ports : spine_ports),
			    TOPO_MAX_PORTS);
		return -EINVAL;
	}
	if (n_links > TOPO_MAX_LINKS) {
		topo_errorf(err, mark, "leaf-spine has %llu links, at most %d",
			    (unsigned long long)n_links, TOPO_MAX_LINKS);
		return -EINVAL;
	}

	uint32_t leaf0 = (uint32_t)n_hosts, spine0 = leaf0 + p->n_leaves;
	struct topo *t = topo_alloc(topo_kinds[TOPO_KIND_LEAF_SPINE], spine0 + p->n_spines,
				    (uint32_t)n_links);
	uint32_t l = 0;
	int rc;

	if (t == NULL)
		return finish(t, -ENOMEM, out, err);
	rc = add_nodes(t, 0, (uint32_t)n_hosts, "h", TOPO_HOST, 0, 1, mark);
	if (rc == 0)
		rc = add_nodes(t, leaf0, p->n_leaves, "leaf", TOPO_SWITCH, 1, (uint16_t)leaf_ports, mark);
	if (rc == 0)
		rc = add_nodes(t, spine0, p->n_spines, "spine", TOPO_SWITCH, 2, (uint16_t)spine_ports, mark);
	if (rc != 0)
		return finish(t, rc, out, err);
	for (uint32_t h = 0; h < n_hosts; h++)
		topo_set_link(t, l++, h, 0, leaf0 + h / p->hosts_per_leaf,
			      (uint16_t)(h % p->hosts_per_leaf), &p->host_link, mark);
	for (uint32_t f = 0; f < p->n_leaves; f++)
		for (uint32_t s = 0; s < p->n_spines; s++)
			for (uint32_t i = 0; i < p->links_per_spine; i++)
				topo_set_link(t, l++, leaf0 + f,
					      (uint16_t)(p->hosts_per_leaf + s * p->links_per_spine + i),
					      spine0 + s, (uint16_t)(f * p->links_per_spine + i),
					      &p->fabric_link, mark);
	return finish(t, 0, out, err);
}

/* Two tiers: k edge switches, each with k/2 hosts on ports 0..k/2-1 and one
 * uplink to each of the k/2 spines on ports k/2..k-1; spine s port e goes to
 * edge e. k^2/2 hosts. */
static int build_fat_tree2(const struct topo_fat_tree_params *p, const struct cfg_mark *mark,
			   struct topo **out, char err[CFG_ERR_BYTES])
{
	uint32_t k = p->k, half = k / 2, n_hosts = k * half;
	uint32_t edge0 = n_hosts, spine0 = edge0 + k;
	struct topo *t = topo_alloc(topo_kinds[TOPO_KIND_FAT_TREE], spine0 + half, n_hosts + k * half);
	uint32_t l = 0;
	int rc;

	if (t == NULL)
		return finish(t, -ENOMEM, out, err);
	rc = add_nodes(t, 0, n_hosts, "h", TOPO_HOST, 0, 1, mark);
	if (rc == 0)
		rc = add_nodes(t, edge0, k, "edge", TOPO_SWITCH, 1, (uint16_t)k, mark);
	if (rc == 0)
		rc = add_nodes(t, spine0, half, "spine", TOPO_SWITCH, 2, (uint16_t)k, mark);
	if (rc != 0)
		return finish(t, rc, out, err);
	for (uint32_t h = 0; h < n_hosts; h++)
		topo_set_link(t, l++, h, 0, edge0 + h / half, (uint16_t)(h % half), &p->host_link, mark);
	for (uint32_t e = 0; e < k; e++)
		for (uint32_t s = 0; s < half; s++)
			topo_set_link(t, l++, edge0 + e, (uint16_t)(half + s), spine0 + s, (uint16_t)e,
				      &p->fabric_link, mark);
	return finish(t, 0, out, err);
}

/* Three tiers (Al-Fares): k pods of k/2 edge and k/2 aggregation switches,
 * (k/2)^2 cores, k^3/4 hosts. Edge i of pod q: hosts on ports 0..k/2-1,
 * port k/2+j to agg j of the pod (whose port i comes back). Agg j of pod q:
 * port k/2+c to core j*(k/2)+c, whose port q comes back. Switches are
 * numbered globally, pod-major: edge q*(k/2)+i, agg q*(k/2)+j. */
static int build_fat_tree3(const struct topo_fat_tree_params *p, const struct cfg_mark *mark,
			   struct topo **out, char err[CFG_ERR_BYTES])
{
	uint32_t k = p->k, half = k / 2, n_edges = k * half, n_cores = half * half;
	uint32_t n_hosts = n_edges * half;
	uint32_t edge0 = n_hosts, agg0 = edge0 + n_edges, core0 = agg0 + n_edges;
	struct topo *t = topo_alloc(topo_kinds[TOPO_KIND_FAT_TREE], core0 + n_cores, 3 * n_hosts);
	uint32_t l = 0;
	int rc;

	if (t == NULL)
		return finish(t, -ENOMEM, out, err);
	rc = add_nodes(t, 0, n_hosts, "h", TOPO_HOST, 0, 1, mark);
	if (rc == 0)
		rc = add_nodes(t, edge0, n_edges, "edge", TOPO_SWITCH, 1, (uint16_t)k, mark);
	if (rc == 0)
		rc = add_nodes(t, agg0, n_edges, "agg", TOPO_SWITCH, 2, (uint16_t)k, mark);
	if (rc == 0)
		rc = add_nodes(t, core0, n_cores, "core", TOPO_SWITCH, 3, (uint16_t)k, mark);
	if (rc != 0)
		return finish(t, rc, out, err);
	for (uint32_t h = 0; h < n_hosts; h++)
		topo_set_link(t, l++, h, 0, edge0 + h / half, (uint16_t)(h % half), &p->host_link, mark);
	for (uint32_t q = 0; q < k; q++)
		for (uint32_t i = 0; i < half; i++)
			for (uint32_t j = 0; j < half; j++)
				topo_set_link(t, l++, edge0 + q * half + i, (uint16_t)(half + j),
					      agg0 + q * half + j, (uint16_t)i, &p->fabric_link, mark);
	for (uint32_t q = 0; q < k; q++)
		for (uint32_t j = 0; j < half; j++)
			for (uint32_t c = 0; c < half; c++)
				topo_set_link(t, l++, agg0 + q * half + j, (uint16_t)(half + c),
					      core0 + j * half + c, (uint16_t)q, &p->fabric_link, mark);
	return finish(t, 0, out, err);
}

int topo_build_fat_tree(const struct topo_fat_tree_params *p, const struct cfg_mark *mark,
			struct topo **out, char err[CFG_ERR_BYTES])
{
	if (p->k < TOPO_FT_MIN_K || p->k > TOPO_FT_MAX_K || p->k % 2 != 0) {
		topo_errorf(err, mark, "fat-tree k must be even, %d..%d (got %u)",
			    TOPO_FT_MIN_K, TOPO_FT_MAX_K, p->k);
		return -EINVAL;
	}
	if (p->n_tiers == 2)
		return build_fat_tree2(p, mark, out, err);
	if (p->n_tiers == 3)
		return build_fat_tree3(p, mark, out, err);
	topo_errorf(err, mark, "fat-tree tiers must be 2 or 3 (got %u)", p->n_tiers);
	return -EINVAL;
}

/* ---- reading the map --------------------------------------------------- */

/* @key of @map as an integer in [min, max]: required when @dflt is NULL. */
static int read_u32(const struct cfg_node *map, const char *key, uint32_t min, uint32_t max,
		    const uint32_t *dflt, uint32_t *out, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *n = cfg_get(map, key);
	uint64_t v;
	int rc;

	if (n == NULL) {
		if (dflt != NULL) {
			*out = *dflt;
			return 0;
		}
		cfg_errorf(err, map, "missing '%s' (an integer, %u..%u)", key, min, max);
		return -EINVAL;
	}
	rc = cfg_u64(n, min, max, &v, err);
	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

/* rate and delay keys of @map: absent ones take @dflt, present ones are
 * checked strictly. */
static int read_rate_delay(const struct cfg_node *map, const struct topo_link_params *dflt,
			   struct topo_link_params *out, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *v;
	int rc = 0;

	*out = *dflt;
	if ((v = cfg_get(map, "rate")) != NULL)
		rc = cfg_rate(v, 1, &out->rate_bps, err);
	if (rc == 0 && (v = cfg_get(map, "delay")) != NULL)
		rc = cfg_time(v, &out->delay_ps, err);
	return rc;
}

/* A link class {rate, delay}; @n may be NULL (all defaults). */
static int read_link(const struct cfg_node *n, const struct topo_link_params *dflt,
		     struct topo_link_params *out, char err[CFG_ERR_BYTES])
{
	int rc;

	*out = *dflt;
	if (n == NULL)
		return 0;
	rc = cfg_want(n, CFG_MAP, "link settings {rate, delay}", err);
	if (rc == 0)
		rc = cfg_check_keys(n, topo_link_keys, err);
	if (rc == 0)
		rc = read_rate_delay(n, dflt, out, err);
	return rc;
}

static const struct topo_link_params topo_default_link = {
	.rate_bps = TOPO_DEFAULT_RATE_BPS,
	.delay_ps = TOPO_DEFAULT_DELAY_PS,
};

static int from_leaf_spine(const struct cfg_node *m, struct topo **out, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = {
		"kind", "leaves", "spines", "hosts_per_leaf", "links_per_spine",
		"host_link", "fabric_link", NULL,
	};
	static const uint32_t one = 1;
	struct topo_leaf_spine_params p;
	int rc = cfg_check_keys(m, keys, err);

	if (rc == 0)
		rc = read_u32(m, "leaves", 1, TOPO_MAX_HOSTS, NULL, &p.n_leaves, err);
	if (rc == 0)
		rc = read_u32(m, "spines", 1, TOPO_MAX_PORTS, NULL, &p.n_spines, err);
	if (rc == 0)
		rc = read_u32(m, "hosts_per_leaf", 1, TOPO_MAX_HOSTS, NULL, &p.hosts_per_leaf, err);
	if (rc == 0)
		rc = read_u32(m, "links_per_spine", 1, TOPO_MAX_PORTS, &one, &p.links_per_spine, err);
	if (rc == 0)
		rc = read_link(cfg_get(m, "host_link"), &topo_default_link, &p.host_link, err);
	if (rc == 0)
		rc = read_link(cfg_get(m, "fabric_link"), &topo_default_link, &p.fabric_link, err);
	if (rc == 0)
		rc = topo_build_leaf_spine(&p, &m->mark, out, err);
	return rc;
}

static int from_fat_tree(const struct cfg_node *m, struct topo **out, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = {
		"kind", "k", "tiers", "host_link", "fabric_link", NULL,
	};
	static const uint32_t three = 3;
	struct topo_fat_tree_params p;
	int rc = cfg_check_keys(m, keys, err);

	if (rc == 0)
		rc = read_u32(m, "k", TOPO_FT_MIN_K, TOPO_FT_MAX_K, NULL, &p.k, err);
	if (rc == 0 && p.k % 2 != 0) {
		cfg_errorf(err, cfg_get(m, "k"), "k must be even (got %u)", p.k);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = read_u32(m, "tiers", 2, 3, &three, &p.n_tiers, err);
	if (rc == 0)
		rc = read_link(cfg_get(m, "host_link"), &topo_default_link, &p.host_link, err);
	if (rc == 0)
		rc = read_link(cfg_get(m, "fabric_link"), &topo_default_link, &p.fabric_link, err);
	if (rc == 0)
		rc = topo_build_fat_tree(&p, &m->mark, out, err);
	return rc;
}

/* ---- explicit nodes and links ------------------------------------------ */

/* A declared node while reading. */
struct xnode {
	const struct cfg_node *at;      /* its map */
	const struct cfg_node *name_at; /* its name scalar */
	const char *name;               /* owned by the cfg tree */
	enum topo_node_kind kind;       /* host or switch */
	uint32_t n_ports;     /* declared port count, 0 when left to the links */
	uint32_t n_ports_min; /* highest port a link uses, plus one */
};

/* Name index entry: sorted by (name, node) for lookup and duplicates. */
struct xname {
	const char *name; /* the node's name */
	uint32_t node;    /* its index in declaration order */
};

/* One end of a declared link. */
struct xend {
	const struct cfg_node *at; /* the endpoint scalar */
	uint32_t node;             /* node index */
	uint16_t port;             /* port number on it */
};

/* A declared link while reading. */
struct xlink {
	const struct cfg_node *at;  /* the link's map */
	struct xend end[2];         /* its two ends, as written */
	struct topo_link_params lp; /* rate and delay, defaults applied */
};

/* Everything read from the explicit map before the topology is made. */
struct xread {
	uint32_t n_nodes;      /* entries in nodes: */
	uint32_t n_links;      /* entries in links: */
	struct xnode *nodes;   /* n_nodes, declaration order */
	struct xname *by_name; /* n_nodes, sorted */
	const char **names;    /* n_nodes + NULL, for cfg_nearest */
	struct xlink *links;   /* n_links, declaration order */
};

static const char *const topo_node_kinds[] = { "host", "switch", NULL };
static const char *const topo_node_keys[] = { "name", "kind", "ports", NULL };
static const char *const topo_xlink_keys[] = { "endpoints", "rate", "delay", NULL };

static int xname_cmp(const void *a, const void *b)
{
	const struct xname *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : (x->node > y->node) - (x->node < y->node);
}

static int xname_key_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct xname *)elem)->name);
}

/* Names end up in results, captures and dot files: keep them plain. */
static int check_name(const struct cfg_node *at, const char *name, char err[CFG_ERR_BYTES])
{
	size_t len = strlen(name);

	if (len == 0 || len >= TOPO_NAME_BYTES) {
		cfg_errorf(err, at, "node name must have 1..%d characters", TOPO_NAME_BYTES - 1);
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!(isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.')) {
			cfg_errorf(err, at, "node name '%s' may only hold letters, digits, '_', '-' and '.'",
				   name);
			return -EINVAL;
		}
	}
	return 0;
}

static int read_node(const struct cfg_node *item, struct xnode *x, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *v;
	uint64_t n;
	int kind, rc;

	rc = cfg_want(item, CFG_MAP, "node {name, kind, ports}", err);
	if (rc == 0)
		rc = cfg_check_keys(item, topo_node_keys, err);
	if (rc != 0)
		return rc;
	x->at = item;
	x->name_at = cfg_get(item, "name");
	if (x->name_at == NULL) {
		cfg_errorf(err, item, "node needs a 'name'");
		return -EINVAL;
	}
	rc = cfg_str(x->name_at, &x->name, err);
	if (rc == 0)
		rc = check_name(x->name_at, x->name, err);
	if (rc != 0)
		return rc;
	v = cfg_get(item, "kind");
	if (v == NULL) {
		cfg_errorf(err, item, "node %s needs 'kind' (host or switch)", x->name);
		return -EINVAL;
	}
	rc = cfg_enum(v, topo_node_kinds, &kind, err);
	if (rc != 0)
		return rc;
	x->kind = kind == 0 ? TOPO_HOST : TOPO_SWITCH;
	v = cfg_get(item, "ports");
	if (v != NULL) {
		rc = cfg_u64(v, 1, TOPO_MAX_PORTS, &n, err);
		x->n_ports = (uint32_t)n;
	}
	return rc;
}

static int read_nodes(const struct cfg_node *seq, struct xread *x, char err[CFG_ERR_BYTES])
{
	uint32_t n_hosts = 0, dup = UINT32_MAX, orig = 0;

	for (uint32_t i = 0; i < x->n_nodes; i++) {
		int rc = read_node(seq->items[i], &x->nodes[i], err);

		if (rc != 0)
			return rc;
		x->by_name[i] = (struct xname){ .name = x->nodes[i].name, .node = i };
		x->names[i] = x->nodes[i].name;
		n_hosts += x->nodes[i].kind == TOPO_HOST;
	}
	if (n_hosts > TOPO_MAX_HOSTS) {
		cfg_errorf(err, seq, "%u hosts, at most %d", n_hosts, TOPO_MAX_HOSTS);
		return -EINVAL;
	}
	qsort(x->by_name, x->n_nodes, sizeof(*x->by_name), xname_cmp);
	/* Report the first repeated declaration in document order. */
	for (uint32_t i = 1, run = 0; i < x->n_nodes; i++) {
		if (strcmp(x->by_name[i].name, x->by_name[run].name) != 0)
			run = i;
		else if (x->by_name[i].node < dup) {
			dup = x->by_name[i].node;
			orig = x->by_name[run].node;
		}
	}
	if (dup != UINT32_MAX) {
		cfg_errorf(err, x->nodes[dup].name_at, "duplicate node name '%s' (first declared at line %u)",
			   x->nodes[dup].name, x->nodes[orig].at->mark.line);
		return -EINVAL;
	}
	return 0;
}

/* "NAME:PORT" naming a declared node and a port it has (or will have). */
static int read_end(const struct cfg_node *e, struct xread *x, struct xend *out,
		    char err[CFG_ERR_BYTES])
{
	static const char form[] = "expected NODE:PORT such as leaf0:3";
	const char *s = e->type == CFG_SCALAR ? e->str : NULL;
	const char *colon = s != NULL ? strrchr(s, ':') : NULL;
	char name[TOPO_NAME_BYTES];
	unsigned long port;
	size_t len;

	if (colon == NULL) {
		if (s != NULL)
			cfg_errorf(err, e, "bad endpoint '%s': %s", s, form);
		else
			cfg_errorf(err, e, "bad endpoint: %s", form);
		return -EINVAL;
	}
	len = strlen(colon + 1);
	if (colon == s || len == 0 || len > 5 || strspn(colon + 1, "0123456789") != len) {
		cfg_errorf(err, e, "bad endpoint '%s': %s", s, form);
		return -EINVAL;
	}
	port = strtoul(colon + 1, NULL, 10);
	if (port >= TOPO_MAX_PORTS) {
		cfg_errorf(err, e, "endpoint '%s': port %lu out of range (at most %d)", s, port,
			   TOPO_MAX_PORTS - 1);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(colon - s), s);

	const struct xname *f = NULL;

	if ((size_t)(colon - s) < sizeof(name))
		f = bsearch(name, x->by_name, x->n_nodes, sizeof(*x->by_name), xname_key_cmp);
	if (f == NULL) {
		const char *near = cfg_nearest(name, x->names);

		if (near != NULL)
			cfg_errorf(err, e, "unknown node '%.*s' in endpoint (did you mean '%s'?)",
				   (int)(colon - s), s, near);
		else
			cfg_errorf(err, e, "unknown node '%.*s' in endpoint", (int)(colon - s), s);
		return -EINVAL;
	}

	struct xnode *n = &x->nodes[f->node];

	if (n->n_ports != 0 && port >= n->n_ports) {
		cfg_errorf(err, e, "port %lu out of range (%s has %u ports)", port, n->name, n->n_ports);
		return -EINVAL;
	}
	if (port + 1 > n->n_ports_min)
		n->n_ports_min = (uint32_t)port + 1;
	*out = (struct xend){ .at = e, .node = f->node, .port = (uint16_t)port };
	return 0;
}

static int read_xlink(const struct cfg_node *item, const struct topo_link_params *dflt,
		      struct xread *x, struct xlink *out, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *ends;
	int rc;

	rc = cfg_want(item, CFG_MAP, "link {endpoints, rate, delay}", err);
	if (rc == 0)
		rc = cfg_check_keys(item, topo_xlink_keys, err);
	if (rc != 0)
		return rc;
	out->at = item;
	ends = cfg_get(item, "endpoints");
	if (ends == NULL) {
		cfg_errorf(err, item, "link needs 'endpoints: [NODE:PORT, NODE:PORT]'");
		return -EINVAL;
	}
	if (ends->type != CFG_SEQ || ends->n != 2) {
		cfg_errorf(err, ends, "link endpoints: expected two NODE:PORT items such as [leaf0:3, spine1:0]");
		return -EINVAL;
	}
	for (int i = 0; i < 2 && rc == 0; i++)
		rc = read_end(ends->items[i], x, &out->end[i], err);
	if (rc != 0)
		return rc;
	if (out->end[0].node == out->end[1].node) {
		cfg_errorf(err, ends->items[1], "link connects %s to itself",
			   x->nodes[out->end[0].node].name);
		return -EINVAL;
	}
	return read_rate_delay(item, dflt, &out->lp, err);
}

/* Switch tiers from the graph: hops from the nearest host (a ToR is 1). */
static void explicit_tiers(struct topo *t, uint32_t *dist, uint32_t *queue)
{
	topo_bfs(t, t->hosts, t->n_hosts, dist, queue);
	for (uint32_t s = 0; s < t->n_switches; s++) {
		uint32_t d = dist[t->switches[s]];

		t->nodes[t->switches[s]].tier = d == UINT32_MAX ? 1 : d > UINT8_MAX ? UINT8_MAX : (uint8_t)d;
	}
}

/* Nodes and links are read into @x, then the topology is made from them. */
static int make_explicit(struct xread *x, struct topo **out, char err[CFG_ERR_BYTES])
{
	struct topo *t = topo_alloc(topo_kinds[TOPO_KIND_EXPLICIT], x->n_nodes, x->n_links);
	uint32_t *dist = malloc((x->n_nodes ? x->n_nodes : 1) * sizeof(*dist));
	uint32_t *queue = malloc((x->n_nodes ? x->n_nodes : 1) * sizeof(*queue));
	int rc = t == NULL || dist == NULL || queue == NULL ? -ENOMEM : 0;

	for (uint32_t i = 0; i < x->n_nodes && rc == 0; i++) {
		const struct xnode *n = &x->nodes[i];

		rc = topo_set_node(t, i, n->name, n->kind, n->kind == TOPO_HOST ? 0 : 1,
				   (uint16_t)(n->n_ports != 0 ? n->n_ports : n->n_ports_min), &n->at->mark);
	}
	if (rc != 0) {
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		goto out;
	}
	for (uint32_t l = 0; l < x->n_links; l++) {
		const struct xlink *k = &x->links[l];

		for (int e = 0; e < 2; e++) {
			const struct topo_node *n = &t->nodes[k->end[e].node];
			uint32_t prev = n->port_links[k->end[e].port];

			if (prev != TOPO_NO_LINK) {
				cfg_errorf(err, k->end[e].at, "port %s:%u is already used by the link at line %u",
					   n->name, k->end[e].port, t->links[prev].mark.line);
				rc = -EINVAL;
				goto out;
			}
		}
		topo_set_link(t, l, k->end[0].node, k->end[0].port, k->end[1].node, k->end[1].port,
			      &k->lp, &k->at->mark);
	}
	rc = topo_index(t);
	if (rc != 0) {
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		goto out;
	}
	explicit_tiers(t, dist, queue);
	*out = t;
	t = NULL;
out:
	topo_free(t);
	free(dist);
	free(queue);
	return rc;
}

static int from_explicit(const struct cfg_node *m, struct topo **out, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "kind", "nodes", "links", "default_link", NULL };
	const struct cfg_node *nodes = cfg_get(m, "nodes"), *links = cfg_get(m, "links");
	struct topo_link_params dflt;
	struct xread x = { 0 };
	int rc = cfg_check_keys(m, keys, err);

	if (rc == 0 && nodes == NULL) {
		cfg_errorf(err, m, "explicit topology needs 'nodes: [{name, kind, ports}, ...]'");
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = cfg_want(nodes, CFG_SEQ, "nodes: a list of {name, kind, ports}", err);
	if (rc == 0 && links != NULL)
		rc = cfg_want(links, CFG_SEQ, "links: a list of {endpoints, rate, delay}", err);
	if (rc == 0)
		rc = read_link(cfg_get(m, "default_link"), &topo_default_link, &dflt, err);
	if (rc != 0)
		return rc;
	x.n_nodes = nodes->n;
	x.n_links = links != NULL ? links->n : 0;
	if (x.n_links > TOPO_MAX_LINKS) {
		cfg_errorf(err, links, "%u links, at most %d", x.n_links, TOPO_MAX_LINKS);
		return -EINVAL;
	}
	x.nodes = calloc(x.n_nodes + 1, sizeof(*x.nodes));
	x.by_name = calloc(x.n_nodes + 1, sizeof(*x.by_name));
	x.names = calloc(x.n_nodes + 1, sizeof(*x.names));
	x.links = calloc(x.n_links + 1, sizeof(*x.links));
	if (x.nodes == NULL || x.by_name == NULL || x.names == NULL || x.links == NULL) {
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		rc = -ENOMEM;
	}
	if (rc == 0)
		rc = read_nodes(nodes, &x, err);
	for (uint32_t l = 0; l < x.n_links && rc == 0; l++)
		rc = read_xlink(links->items[l], &dflt, &x, &x.links[l], err);
	if (rc == 0)
		rc = make_explicit(&x, out, err);
	free(x.nodes);
	free(x.by_name);
	free(x.names);
	free(x.links);
	return rc;
}
int topo_from_cfg(const struct cfg_node *topology, struct topo **out, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *kind;
	struct topo *t = NULL;
	int id, rc;

	*out = NULL;
	if (topology == NULL) {
		snprintf(err, CFG_ERR_BYTES, "missing 'topology'");
		return -EINVAL;
	}
	rc = cfg_want(topology, CFG_MAP, "topology", err);
	if (rc != 0)
		return rc;
	kind = cfg_get(topology, "kind");
	if (kind == NULL) {
		cfg_errorf(err, topology, "topology needs 'kind' (leaf-spine, fat-tree or explicit)");
		return -EINVAL;
	}
	rc = cfg_enum(kind, topo_kinds, &id, err);
	if (rc != 0)
		return rc;
	switch ((enum topo_kind_id)id) {
	case TOPO_KIND_LEAF_SPINE:
		rc = from_leaf_spine(topology, &t, err);
		break;
	case TOPO_KIND_FAT_TREE:
		rc = from_fat_tree(topology, &t, err);
		break;
	case TOPO_KIND_EXPLICIT:
		rc = from_explicit(topology, &t, err);
		break;
	}
	if (rc == 0)
		rc = topo_check_at(t, &topology->mark, err);
	if (rc != 0) {
		topo_free(t);
		return rc;
	}
	*out = t;
	return 0;
}
