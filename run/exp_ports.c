/* Port lists of an experiment (capture.ports, outputs.series.ports,
 * fabric.pfc.disabled_ports): entries NODE:PORT naming a connected port,
 * or patterns (topo_glob.c) on either side, `leaf*:*` or `node3/nic*:0`,
 * that stand for every connected port they match, in node then port order.
 * A pattern that matches nothing is an error; an exact entry named twice
 * is one where the list must not repeat, and ports a pattern brings in
 * again are taken once. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"

/* Split "NODE:PORT" at its last colon into @name and *@port_s. */
static int exp_ports_split(const struct cfg_node *pn, const char *s, char name[TOPO_NAME_BYTES],
			   const char **port_s, char err[CFG_ERR_BYTES])
{
	const char *colon = strrchr(s, ':');

	if (!colon || colon == s || (size_t)(colon - s) >= TOPO_NAME_BYTES || !colon[1]) {
		cfg_errorf(err, pn, "expected node:port such as h0:0 or leaf*:*, got '%s'", s);
		return -EINVAL;
	}
	memcpy(name, s, (size_t)(colon - s));
	name[colon - s] = '\0';
	*port_s = colon + 1;
	return 0;
}

int exp_port_ref(const struct exp *e, const struct cfg_node *pn, struct exp_capture *out,
		 char err[CFG_ERR_BYTES])
{
	const char *s, *port_s;
	char name[TOPO_NAME_BYTES];
	char *end;
	unsigned long port;
	int node;

	if (cfg_str(pn, &s, err) != 0 || exp_ports_split(pn, s, name, &port_s, err) != 0)
		return -EINVAL;
	errno = 0;
	port = strtoul(port_s, &end, 10);
	if (*end || errno || port_s[0] == '-' || port_s[0] == '+' || port_s[0] == ' ') {
		cfg_errorf(err, pn, "port '%s' is not a number", port_s);
		return -EINVAL;
	}
	node = topo_find(e->topo, name);
	if (node < 0) {
		cfg_errorf(err, pn, "unknown node '%s'", name);
		return -EINVAL;
	}
	if (port >= e->topo->nodes[node].n_ports ||
	    e->topo->nodes[node].port_links[port] == TOPO_NO_LINK) {
		cfg_errorf(err, pn, "%s has no connected port %lu (ports 0..%u)", name, port,
			   e->topo->nodes[node].n_ports - 1);
		return -EINVAL;
	}
	out->node = (uint32_t)node;
	out->port = (uint16_t)port;
	return 0;
}

/* The growing result of one list. */
struct exp_ports_acc {
	struct exp_capture *v;   /* ports so far */
	struct cfg_mark *marks;  /* where each was named, or NULL when not kept */
	uint32_t n;              /* their count */
	uint32_t cap;            /* allocated entries */
	uint32_t *first;         /* per node: its ports' first bit in seen */
	uint8_t *seen;           /* a byte per port of the topology: listed already */
};

static int exp_ports_push(struct exp_ports_acc *a, uint32_t node, uint16_t port,
			  const struct cfg_mark *mark)
{
	if (a->n == a->cap) {
		uint32_t cap = a->cap ? 2 * a->cap : 16;
		struct exp_capture *v = realloc(a->v, sizeof(*v) * cap);

		if (!v)
			return -ENOMEM;
		a->v = v;
		if (a->marks) {
			struct cfg_mark *m = realloc(a->marks, sizeof(*m) * cap);

			if (!m)
				return -ENOMEM;
			a->marks = m;
		}
		a->cap = cap;
	}
	a->v[a->n] = (struct exp_capture){ .node = node, .port = port };
	if (a->marks)
		a->marks[a->n] = *mark;
	a->n++;
	a->seen[a->first[node] + port] = 1;
	return 0;
}

/* Every connected port matching pattern entry @pn into @a. */
static int exp_ports_glob(const struct exp *e, const struct cfg_node *pn, const char *s,
			  struct exp_ports_acc *a, char err[CFG_ERR_BYTES])
{
	const struct topo *t = e->topo;
	const char *port_s;
	char name[TOPO_NAME_BYTES], num[8];
	uint32_t matched = 0;
	int rc;

	if (exp_ports_split(pn, s, name, &port_s, err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		if (!topo_glob_match(name, n->name))
			continue;
		for (uint16_t p = 0; p < n->n_ports; p++) {
			snprintf(num, sizeof(num), "%u", p);
			if (n->port_links[p] == TOPO_NO_LINK || !topo_glob_match(port_s, num))
				continue;
			matched++;
			if (!a->seen[a->first[i] + p] && (rc = exp_ports_push(a, i, p, &pn->mark)) != 0)
				return rc;
		}
	}
	if (!matched) {
		cfg_errorf(err, pn, "'%s' matches no connected port", s);
		return -EINVAL;
	}
	return 0;
}

int exp_port_list(const struct exp *e, const struct cfg_node *list, const char *what,
		  bool unique, struct exp_capture **out, struct cfg_mark **marks,
		  uint32_t *n_out, char err[CFG_ERR_BYTES])
{
	const struct topo *t = e->topo;
	struct exp_ports_acc a = { 0 };
	uint64_t total = 0;
	int rc = 0;

	if (cfg_want(list, CFG_SEQ, what, err) != 0)
		return -EINVAL;
	a.first = malloc(sizeof(*a.first) * ((size_t)t->n_nodes + 1));
	if (a.first)
		for (uint32_t i = 0; i < t->n_nodes; i++) {
			a.first[i] = (uint32_t)total;
			total += t->nodes[i].n_ports;
		}
	a.seen = calloc(total ? total : 1, 1);
	if (marks)
		a.marks = malloc(sizeof(*a.marks));
	if (!a.first || !a.seen || (marks && !a.marks)) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < list->n && rc == 0; i++) {
		const struct cfg_node *pn = list->items[i];
		struct exp_capture c;
		const char *s;

		if (cfg_str(pn, &s, err) != 0) {
			rc = -EINVAL;
		} else if (topo_is_glob(s)) {
			rc = exp_ports_glob(e, pn, s, &a, err);
		} else if ((rc = exp_port_ref(e, pn, &c, err)) == 0) {
			if (a.seen[a.first[c.node] + c.port] && unique) {
				cfg_errorf(err, pn, "port %s listed twice", s);
				rc = -EINVAL;
			} else if (!a.seen[a.first[c.node] + c.port]) {
				rc = exp_ports_push(&a, c.node, c.port, &pn->mark);
			}
		}
	}
out:
	free(a.first);
	free(a.seen);
	if (rc != 0) {
		free(a.v);
		free(a.marks);
		return rc;
	}
	*out = a.v ? a.v : calloc(1, sizeof(**out));
	if (marks)
		*marks = a.marks;
	*n_out = a.n;
	return *out ? 0 : -ENOMEM;
}
