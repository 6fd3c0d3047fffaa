/* The explicit topology kind: nodes and links listed one by one, with
 * endpoints written NODE:PORT; its keys (the node and link entries have
 * their own readers), its builder, and its entry for the registry of
 * topology kinds (topo_kinds.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_schema.h"
#include "topo_int.h"

extern const struct topo_kind topo_x_kind; /* its ops, below */

/* A declared node while reading. */
struct topo_x_node {
	const struct cfg_node *at;      /* its map */
	const struct cfg_node *name_at; /* its name scalar */
	const char *name;               /* owned by the cfg tree */
	enum topo_node_kind kind;       /* host or switch */
	uint32_t n_ports;     /* declared port count, 0 when left to the links */
	uint32_t n_ports_min; /* highest port a link uses, plus one */
};

/* Name index entry: sorted by (name, node) for lookup and duplicates. */
struct topo_x_name {
	const char *name; /* the node's name */
	uint32_t node;    /* its index in declaration order */
};

/* One end of a declared link. */
struct topo_x_end {
	const struct cfg_node *at; /* the endpoint scalar */
	uint32_t node;             /* node index */
	uint16_t port;             /* port number on it */
};

/* A declared link while reading. */
struct topo_x_link {
	const struct cfg_node *at;  /* the link's map */
	struct topo_x_end end[2];         /* its two ends, as written */
	struct topo_link_params lp; /* rate and delay, defaults applied */
};

/* Everything read from the explicit map before the topology is made. */
struct topo_x_read {
	uint32_t n_nodes;      /* entries in nodes: */
	uint32_t n_links;      /* entries in links: */
	struct topo_x_node *nodes;   /* n_nodes, declaration order */
	struct topo_x_name *by_name; /* n_nodes, sorted */
	const char **names;    /* n_nodes + NULL, for cfg_nearest */
	struct topo_x_link *links;   /* n_links, declaration order */
};

static const char *const topo_node_kinds[] = { "host", "switch", NULL };
static const char *const topo_node_keys[] = { "name", "kind", "ports", NULL };
static const char *const topo_xlink_keys[] = { "endpoints", "rate", "delay", NULL };

static int topo_x_name_cmp(const void *a, const void *b)
{
	const struct topo_x_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c != 0 ? c : (x->node > y->node) - (x->node < y->node);
}

static int topo_x_name_key_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct topo_x_name *)elem)->name);
}

/* Names end up in results, captures and dot files: keep them plain. */
static int topo_x_check_name(const struct cfg_node *at, const char *name, char err[CFG_ERR_BYTES])
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

static int topo_x_read_node(const struct cfg_node *item, struct topo_x_node *x, char err[CFG_ERR_BYTES])
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
		rc = topo_x_check_name(x->name_at, x->name, err);
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

static int topo_x_read_nodes(const struct cfg_node *seq, struct topo_x_read *x, char err[CFG_ERR_BYTES])
{
	uint32_t n_hosts = 0, dup = UINT32_MAX, orig = 0;

	for (uint32_t i = 0; i < x->n_nodes; i++) {
		int rc = topo_x_read_node(seq->items[i], &x->nodes[i], err);

		if (rc != 0)
			return rc;
		x->by_name[i] = (struct topo_x_name){ .name = x->nodes[i].name, .node = i };
		x->names[i] = x->nodes[i].name;
		n_hosts += x->nodes[i].kind == TOPO_HOST;
	}
	if (n_hosts > TOPO_MAX_HOSTS) {
		cfg_errorf(err, seq, "%u hosts, at most %d", n_hosts, TOPO_MAX_HOSTS);
		return -EINVAL;
	}
	qsort(x->by_name, x->n_nodes, sizeof(*x->by_name), topo_x_name_cmp);
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
static int topo_x_read_end(const struct cfg_node *e, struct topo_x_read *x, struct topo_x_end *out,
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

	const struct topo_x_name *f = NULL;

	if ((size_t)(colon - s) < sizeof(name))
		f = bsearch(name, x->by_name, x->n_nodes, sizeof(*x->by_name), topo_x_name_key_cmp);
	if (f == NULL) {
		const char *near = cfg_nearest(name, x->names);

		if (near != NULL)
			cfg_errorf(err, e, "unknown node '%.*s' in endpoint (did you mean '%s'?)",
				   (int)(colon - s), s, near);
		else
			cfg_errorf(err, e, "unknown node '%.*s' in endpoint", (int)(colon - s), s);
		return -EINVAL;
	}

	struct topo_x_node *n = &x->nodes[f->node];

	if (n->n_ports != 0 && port >= n->n_ports) {
		cfg_errorf(err, e, "port %lu out of range (%s has %u ports)", port, n->name, n->n_ports);
		return -EINVAL;
	}
	if (port + 1 > n->n_ports_min)
		n->n_ports_min = (uint32_t)port + 1;
	*out = (struct topo_x_end){ .at = e, .node = f->node, .port = (uint16_t)port };
	return 0;
}

static int topo_x_read_link(const struct cfg_node *item, const struct topo_link_params *dflt,
		      struct topo_x_read *x, struct topo_x_link *out, char err[CFG_ERR_BYTES])
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
		rc = topo_x_read_end(ends->items[i], x, &out->end[i], err);
	if (rc != 0)
		return rc;
	if (out->end[0].node == out->end[1].node) {
		cfg_errorf(err, ends->items[1], "link connects %s to itself",
			   x->nodes[out->end[0].node].name);
		return -EINVAL;
	}
	return topo_read_rate_delay(item, dflt, &out->lp, err);
}

/* Switch tiers from the graph: hops from the nearest host (a ToR is 1). */
void topo_x_tiers(struct topo *t, uint32_t *dist, uint32_t *queue)
{
	topo_bfs(t, t->hosts, t->n_hosts, dist, queue);
	for (uint32_t s = 0; s < t->n_switches; s++) {
		uint32_t d = dist[t->switches[s]];

		t->nodes[t->switches[s]].tier = d == UINT32_MAX ? 1 : d > UINT8_MAX ? UINT8_MAX : (uint8_t)d;
	}
}

/* Nodes and links are read into @x, then the topology is made from them. */
static int topo_x_make(struct topo_x_read *x, struct topo **out, char err[CFG_ERR_BYTES])
{
	struct topo *t = topo_alloc(topo_x_kind.kind.name, x->n_nodes, x->n_links);
	uint32_t *dist = malloc((x->n_nodes ? x->n_nodes : 1) * sizeof(*dist));
	uint32_t *queue = malloc((x->n_nodes ? x->n_nodes : 1) * sizeof(*queue));
	int rc = t == NULL || dist == NULL || queue == NULL ? -ENOMEM : 0;

	for (uint32_t i = 0; i < x->n_nodes && rc == 0; i++) {
		const struct topo_x_node *n = &x->nodes[i];

		rc = topo_set_node(t, i, n->name, n->kind, n->kind == TOPO_HOST ? 0 : 1,
				   (uint16_t)(n->n_ports != 0 ? n->n_ports : n->n_ports_min), &n->at->mark);
	}
	if (rc != 0) {
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		goto out;
	}
	for (uint32_t l = 0; l < x->n_links; l++) {
		const struct topo_x_link *k = &x->links[l];

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
	if (rc == -E2BIG) {
		topo_errorf(err, &t->nodes[0].mark, "topology: hosts have more than %d ports in all",
			    TOPO_MAX_EPS);
		goto out;
	}
	if (rc != 0) {
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		goto out;
	}
	topo_x_tiers(t, dist, queue);
	*out = t;
	t = NULL;
out:
	topo_free(t);
	free(dist);
	free(queue);
	return rc;
}

static int topo_x_build(const struct cfg_node *m, const void *params, struct topo **out,
			char err[CFG_ERR_BYTES])
{
	const struct cfg_node *nodes = cfg_get(m, "nodes"), *links = cfg_get(m, "links");
	const struct topo_link_params *dflt = params;
	struct topo_x_read x = { 0 };
	int rc = 0;

	if (rc == 0 && nodes == NULL) {
		cfg_errorf(err, m, "explicit topology needs 'nodes: [{name, kind, ports}, ...]'");
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = cfg_want(nodes, CFG_SEQ, "nodes: a list of {name, kind, ports}", err);
	if (rc == 0 && links != NULL)
		rc = cfg_want(links, CFG_SEQ, "links: a list of {endpoints, rate, delay}", err);
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
		rc = topo_x_read_nodes(nodes, &x, err);
	for (uint32_t l = 0; l < x.n_links && rc == 0; l++)
		rc = topo_x_read_link(links->items[l], dflt, &x, &x.links[l], err);
	if (rc == 0)
		rc = topo_x_make(&x, out, err);
	free(x.nodes);
	free(x.by_name);
	free(x.names);
	free(x.links);
	return rc;
}

static int topo_x_default_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, params, err);
}

static const struct cfg_key topo_x_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "explicit" },
	{ "nodes", CFG_KEY_ANY, .doc = "[{name, kind: host|switch, ports}] (read by the builder)" },
	{ "links", CFG_KEY_ANY, .doc = "[{endpoints: [a:0, b:3], rate, delay}] (read by the builder)" },
	{ "default_link", CFG_KEY_CUSTOM, TOPO_DEFAULT_LINK, .read = topo_x_default_link,
	  .doc = "rate and delay of links that omit them" },
};

static const struct cfg_table topo_x_table = {
	.section = "topology",
	.keys = topo_x_keys,
	.n_keys = sizeof(topo_x_keys) / sizeof(topo_x_keys[0]),
	.ordered = true,
};

const struct topo_kind topo_x_kind = {
	.kind = { "explicit", "nodes and links listed one by one", &topo_x_table,
		  sizeof(struct topo_link_params) },
	.build = topo_x_build,
};
