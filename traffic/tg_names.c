/* Endpoint names in workloads: a host's name stands for its one linked
 * port, HOST:PORT for any port; `all` is every endpoint with a link; in a
 * list, a pattern (topo_glob.c) stands for every linked port of the hosts
 * it matches (`node*`, `h[0-3]`), or with a port part for those ports
 * (`node3/nic*:1`). The endpoints are those of the topology
 * (topologies/topo.h: one per host port). Errors point at the name with
 * "did you mean". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_wl_int.h"

enum { TG_NAMES_HINTS = 64 /* host names offered to "did you mean" */ };

/* The host @n names, or an error. */
static int tg_names_host(const struct topo *t, const struct cfg_node *n, const char *name,
			 uint32_t *node, char err[CFG_ERR_BYTES])
{
	const char *cands[TG_NAMES_HINTS], *near;
	uint32_t nc = 0;
	int idx = topo_find(t, name);

	if (idx >= 0 && t->nodes[idx].kind == TOPO_HOST) {
		*node = (uint32_t)idx;
		return 0;
	}
	if (idx >= 0) {
		cfg_errorf(err, n, "'%s' is a switch, not a host", name);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < t->n_hosts && nc < TG_NAMES_HINTS - 1; i++)
		cands[nc++] = t->nodes[t->hosts[i]].name;
	cands[nc] = NULL;
	near = cfg_nearest(name, cands);
	if (near)
		cfg_errorf(err, n, "unknown host '%s' (did you mean '%s'?)", name, near);
	else
		cfg_errorf(err, n, "unknown host '%s' (hosts are %s .. %s)", name,
			   t->nodes[t->hosts[0]].name, t->nodes[t->hosts[t->n_hosts - 1]].name);
	return -EINVAL;
}

int tg_wl_ep(const struct topo *t, const struct cfg_node *n, uint32_t *ep,
	     char err[CFG_ERR_BYTES])
{
	char name[TOPO_NAME_BYTES];
	const char *s, *colon;
	const struct topo_node *h;
	uint32_t node, linked = 0, first = 0, last = 0;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	colon = strrchr(s, ':');
	if (!colon) {
		if (tg_names_host(t, n, s, &node, err) != 0)
			return -EINVAL;
		h = &t->nodes[node];
		for (uint16_t p = 0; p < h->n_ports; p++)
			if (h->port_links[p] != TOPO_NO_LINK) {
				first = linked++ ? first : p;
				last = p;
			}
		if (linked != 1) {
			cfg_errorf(err, n, "host '%s' has %u linked ports: name one (%s:%u .. %s:%u)", s,
				   linked, s, first, s, last);
			return -EINVAL;
		}
		*ep = h->first_ep + last;
		return 0;
	}
	{
		char *end;
		unsigned long port;

		if ((size_t)(colon - s) >= sizeof(name)) {
			cfg_errorf(err, n, "host name in '%s' is too long", s);
			return -EINVAL;
		}
		memcpy(name, s, (size_t)(colon - s));
		name[colon - s] = '\0';
		if (tg_names_host(t, n, name, &node, err) != 0)
			return -EINVAL;
		h = &t->nodes[node];
		port = strtoul(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || *end != '\0') {
			cfg_errorf(err, n, "port '%s' is not a number", colon + 1);
			return -EINVAL;
		}
		if (port >= h->n_ports || h->port_links[port] == TOPO_NO_LINK) {
			cfg_errorf(err, n, "%s has no linked port %lu (ports 0..%u)", name, port,
				   h->n_ports - 1);
			return -EINVAL;
		}
		*ep = h->first_ep + (uint32_t)port;
	}
	return 0;
}

int tg_wl_linked_eps(const struct topo *t, uint32_t **out, uint32_t *n_out)
{
	uint32_t *v = malloc(sizeof(*v) * (t->n_eps ? t->n_eps : 1)), k = 0;

	if (!v)
		return -ENOMEM;
	for (uint32_t e = 0; e < t->n_eps; e++)
		if (topo_ep_link(t, e))
			v[k++] = e;
	*out = v;
	*n_out = k;
	return 0;
}

/* The linked endpoints pattern @n matches, appended to @v (room for every
 * endpoint) unless @seen already; an error when it matches none. */
static int tg_names_glob(const struct topo *t, const struct cfg_node *n, uint32_t *v,
			 uint32_t *k, uint8_t *seen, char err[CFG_ERR_BYTES])
{
	char host[TOPO_NAME_BYTES], num[8];
	const char *s = n->str, *colon = strrchr(s, ':'), *port_s = NULL;
	uint32_t matched = 0;

	if (colon) {
		if ((size_t)(colon - s) >= sizeof(host) || !colon[1]) {
			cfg_errorf(err, n, "expected a host pattern, or HOST:PORT patterns, got '%s'", s);
			return -EINVAL;
		}
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = '\0';
		port_s = colon + 1;
	} else {
		snprintf(host, sizeof(host), "%s", s);
	}
	for (uint32_t i = 0; i < t->n_hosts; i++) {
		const struct topo_node *h = &t->nodes[t->hosts[i]];

		if (!topo_glob_match(host, h->name))
			continue;
		for (uint16_t p = 0; p < h->n_ports; p++) {
			if (h->port_links[p] == TOPO_NO_LINK)
				continue;
			snprintf(num, sizeof(num), "%u", p);
			if (port_s && !topo_glob_match(port_s, num))
				continue;
			matched++;
			if (!seen[h->first_ep + p]) {
				seen[h->first_ep + p] = 1;
				v[(*k)++] = h->first_ep + p;
			}
		}
	}
	if (!matched) {
		cfg_errorf(err, n, "'%s' matches no host with a link", s);
		return -EINVAL;
	}
	return 0;
}

int tg_wl_eps(const struct topo *t, const struct cfg_node *n, uint32_t **out, uint32_t *n_out,
	      char err[CFG_ERR_BYTES])
{
	uint32_t *v, k = 0;
	uint8_t *seen;

	if (n->type == CFG_SCALAR && strcmp(n->str, "all") == 0)
		return tg_wl_linked_eps(t, out, n_out);
	if (n->type != CFG_SEQ) {
		cfg_errorf(err, n, "expected 'all' or a list of host names");
		return -EINVAL;
	}
	v = malloc(sizeof(*v) * (t->n_eps ? t->n_eps : 1));
	seen = calloc(t->n_eps ? t->n_eps : 1, 1);
	if (!v || !seen) {
		free(v);
		free(seen);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n->n; i++) {
		const struct cfg_node *it = n->items[i];
		uint32_t ep;

		if (it->type == CFG_SCALAR && topo_is_glob(it->str)) {
			if (tg_names_glob(t, it, v, &k, seen, err) != 0)
				goto bad;
			continue;
		}
		if (tg_wl_ep(t, it, &ep, err) != 0)
			goto bad;
		if (seen[ep]) {
			cfg_errorf(err, it, "host '%s' listed twice", it->str);
			goto bad;
		}
		seen[ep] = 1;
		v[k++] = ep;
	}
	free(seen);
	*out = v;
	*n_out = k;
	return 0;
bad:
	free(v);
	free(seen);
	return -EINVAL;
}
