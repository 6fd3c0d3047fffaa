/* Endpoint names in workloads, and where GPU traffic goes. A host's name
 * stands for its one linked port, HOST:PORT for any port. In a fabric of
 * GPU nodes (rail-optimised) `nodeN/gpuG` names a GPU as a whole: while a
 * workload is expanded a GPU is a participant of its own (a number past
 * the endpoints), and tg_wl_place then puts every message between GPUs
 * on real endpoints: over NVLink inside one scale-up domain, else from the
 * GPU's own NIC (its rail) to the other's, split evenly over the NIC ports
 * that share a plane. `all` is every GPU there, every endpoint with a link
 * elsewhere; in a list, a pattern (topo_glob.c) stands for every GPU or
 * linked port of the hosts it matches (`node*`, `h[0-3]`, `node*` /
 * `gpu0`), or with a port part for those ports (`node3/nic*:1`). Errors
 * point at the name with "did you mean". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_wl_int.h"
#include "units.h"

enum { TG_NAMES_HINTS = 64 /* host names offered to "did you mean" */ };

static uint32_t tg_names_n_gpus(const struct topo *t)
{
	return t->gpus.n_nodes * t->gpus.gpus_per_node;
}

uint32_t tg_wl_n_parts(const struct topo *t)
{
	return t->n_eps + tg_names_n_gpus(t);
}

/* GPU @s ("node3/gpu2", written exactly so) of this fabric into *@gpu
 * (node x G + index). */
static bool tg_names_gpu(const struct topo *t, const char *s, uint32_t *gpu)
{
	unsigned node, g;
	int len = 0;
	char again[TOPO_NAME_BYTES];

	if (!t->gpus.n_nodes || sscanf(s, "node%u/gpu%u%n", &node, &g, &len) != 2 ||
	    s[len] != '\0' || node >= t->gpus.n_nodes || g >= t->gpus.gpus_per_node)
		return false;
	snprintf(again, sizeof(again), "node%u/gpu%u", node, g);
	if (strcmp(again, s) != 0)
		return false; /* no leading zeros or signs: one spelling per GPU */
	*gpu = node * t->gpus.gpus_per_node + g;
	return true;
}

const char *tg_wl_part_name(const struct topo *t, uint32_t part, char buf[TOPO_EP_NAME_BYTES])
{
	uint32_t g;

	if (part < t->n_eps)
		return topo_ep_name(t, part, buf);
	g = part - t->n_eps;
	snprintf(buf, TOPO_EP_NAME_BYTES, "node%u/gpu%u", g / t->gpus.gpus_per_node,
		 g % t->gpus.gpus_per_node);
	return buf;
}

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
	uint32_t node, linked = 0, first = 0, last = 0, gpu;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	if (tg_names_gpu(t, s, &gpu)) {
		*ep = t->n_eps + gpu;
		return 0;
	}
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

int tg_wl_all_parts(const struct topo *t, uint32_t **out, uint32_t *n_out)
{
	uint32_t n_gpus = tg_names_n_gpus(t), k = 0;
	uint32_t *v = malloc(sizeof(*v) * (n_gpus ? n_gpus : t->n_eps ? t->n_eps : 1));

	if (!v)
		return -ENOMEM;
	if (n_gpus)
		for (uint32_t g = 0; g < n_gpus; g++)
			v[k++] = t->n_eps + g;
	else
		for (uint32_t e = 0; e < t->n_eps; e++)
			if (topo_ep_link(t, e))
				v[k++] = e;
	*out = v;
	*n_out = k;
	return 0;
}

/* Take participant @x once into @v. */
static void tg_names_take(uint32_t x, uint32_t *v, uint32_t *k, uint8_t *seen)
{
	if (!seen[x]) {
		seen[x] = 1;
		v[(*k)++] = x;
	}
}

/* The GPUs and linked endpoints pattern @n matches, appended to @v (room
 * for every participant) unless @seen already; an error when it matches
 * none. */
static int tg_names_glob(const struct topo *t, const struct cfg_node *n, uint32_t *v,
			 uint32_t *k, uint8_t *seen, char err[CFG_ERR_BYTES])
{
	char host[TOPO_NAME_BYTES], num[8], gname[TOPO_EP_NAME_BYTES];
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
		/* GPUs by name first (node3/gpu*): the participants of GPU fabrics. */
		for (uint32_t g = 0; g < tg_names_n_gpus(t); g++)
			if (topo_glob_match(host, tg_wl_part_name(t, t->n_eps + g, gname))) {
				matched++;
				tg_names_take(t->n_eps + g, v, k, seen);
			}
		if (matched)
			return 0;
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
			tg_names_take(h->first_ep + p, v, k, seen);
		}
	}
	if (!matched) {
		cfg_errorf(err, n, "'%s' matches no host with a link", s);
		return -EINVAL;
	}
	return 0;
}

int tg_wl_dscp(const struct cfg_node *n, uint8_t *dscp, bool *set, char err[CFG_ERR_BYTES])
{
	uint64_t v;

	if (cfg_u64(n, 0, 63, &v, err) != 0)
		return -EINVAL;
	*dscp = (uint8_t)v;
	*set = true;
	return 0;
}

int tg_wl_stragglers(const struct topo *t, const struct cfg_node *n, const char *key,
		     const char *among, const uint32_t *parts, uint32_t n_parts, double **slow,
		     char err[CFG_ERR_BYTES])
{
	const char *const keys[] = { key, "factor", NULL };

	if (cfg_want(n, CFG_SEQ, "stragglers (a list of {NAME, factor})", err) != 0)
		return -EINVAL;
	if (!(*slow = malloc(sizeof(**slow) * (n_parts ? n_parts : 1))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n_parts; i++)
		(*slow)[i] = 1;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct cfg_node *it = n->items[i], *nn, *fn;
		uint32_t ep, r = 0;
		double f;

		if (cfg_want(it, CFG_MAP, "a straggler ({NAME, factor})", err) != 0 ||
		    cfg_check_keys(it, keys, err) != 0)
			return -EINVAL;
		if (!(nn = cfg_get(it, key)) || !(fn = cfg_get(it, "factor"))) {
			cfg_errorf(err, it, "a straggler needs '%s' (a name among %s) and 'factor'", key, among);
			return -EINVAL;
		}
		if (tg_wl_ep(t, nn, &ep, err) != 0 || cfg_double(fn, 0, 1000, &f, err) != 0)
			return -EINVAL;
		while (r < n_parts && parts[r] != ep)
			r++;
		if (r == n_parts) {
			cfg_errorf(err, nn, "'%s' is not one of %s", nn->str, among);
			return -EINVAL;
		}
		(*slow)[r] = f;
	}
	return 0;
}

int tg_wl_eps(const struct topo *t, const struct cfg_node *n, uint32_t **out, uint32_t *n_out,
	      char err[CFG_ERR_BYTES])
{
	uint32_t total = tg_wl_n_parts(t), *v, k = 0;
	uint8_t *seen;

	if (n->type == CFG_SCALAR && strcmp(n->str, "all") == 0)
		return tg_wl_all_parts(t, out, n_out);
	if (n->type != CFG_SEQ) {
		cfg_errorf(err, n, "expected 'all' or a list of host names");
		return -EINVAL;
	}
	v = malloc(sizeof(*v) * (total ? total : 1));
	seen = calloc(total ? total : 1, 1);
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
		tg_names_take(ep, v, &k, seen);
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

uint64_t tg_wl_part_bps(const struct topo *t, uint32_t part)
{
	const struct topo_link *l;
	uint64_t bps = 0;

	if (part < t->n_eps)
		return (l = topo_ep_link(t, part)) ? l->rate_bps : 0;
	/* A GPU: its NIC's ports together, the scale-out capacity it has. */
	{
		const struct topo_node *nic = &t->nodes[t->gpus.nic[part - t->n_eps]];

		for (uint16_t p = 0; p < nic->n_ports; p++)
			if ((l = topo_ep_link(t, nic->first_ep + p)))
				bps += l->rate_bps;
	}
	return bps;
}

/* The endpoints a side of a message may use, into @eps (at most
 * TOPO_MAX_NIC_PORTS): a GPU's NVLink endpoint when @nvl, else its NIC's
 * ports; an endpoint itself. Returns how many. */
static uint32_t tg_names_side(const struct topo *t, uint32_t part, bool nvl, uint32_t *eps)
{
	const struct topo_node *n;
	uint32_t k = 0;

	if (part < t->n_eps) {
		eps[0] = part;
		return 1;
	}
	if (nvl)
		n = &t->nodes[t->gpus.nvl[part - t->n_eps]];
	else
		n = &t->nodes[t->gpus.nic[part - t->n_eps]];
	for (uint16_t p = 0; p < n->n_ports && k < TG_WL_MAX_PORTS; p++)
		if (n->port_links[p] != TOPO_NO_LINK)
			eps[k++] = n->first_ep + p;
	return k;
}

int tg_wl_place(const struct topo *t, const uint32_t *islands, struct tg_msg **msgs,
		uint32_t *n_msgs, uint32_t first)
{
	uint32_t n = *n_msgs, extra = 0, k = first, gpu_msgs = 0;
	struct tg_msg *v = NULL;

	for (uint32_t i = first; i < n; i++)
		gpu_msgs += (*msgs)[i].src >= t->n_eps || (*msgs)[i].dst >= t->n_eps;
	if (!gpu_msgs)
		return 0;

	/* How many messages there will be: a GPU pair over NICs of p ports
	 * sharing planes becomes up to p. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			v = malloc(sizeof(*v) * ((size_t)n + extra));
			if (!v)
				return -ENOMEM;
			memcpy(v, *msgs, sizeof(*v) * first);
		}
		for (uint32_t i = first; i < n; i++) {
			struct tg_msg m = (*msgs)[i];
			uint32_t a[TG_WL_MAX_PORTS], b[TG_WL_MAX_PORTS], na, nb, pairs = 0;
			uint32_t pa[TG_WL_MAX_PORTS], pb[TG_WL_MAX_PORTS];
			bool nvl = false;

			if (m.src >= t->n_eps && m.dst >= t->n_eps && t->gpus.nvl) {
				uint32_t ga = t->gpus.nvl[m.src - t->n_eps], gb = t->gpus.nvl[m.dst - t->n_eps];

				nvl = islands[t->nodes[ga].first_ep] == islands[t->nodes[gb].first_ep];
			}
			if (m.src < t->n_eps && m.dst < t->n_eps) {
				if (pass == 1)
					v[k++] = m;
				continue;
			}
			na = tg_names_side(t, m.src, nvl, a);
			nb = tg_names_side(t, m.dst, nvl, b);
			/* Port p of one side with port p of the other (a plane each)
			 * when both sides have several; else every port of the side
			 * with several that reaches the single one. */
			for (uint32_t x = 0; x < na; x++)
				for (uint32_t y = 0; y < nb; y++)
					if ((na == 1 || nb == 1 || x == y) && islands[a[x]] == islands[b[y]] &&
					    pairs < TG_WL_MAX_PORTS) {
						pa[pairs] = a[x];
						pb[pairs++] = b[y];
					}
			if (!pairs) {
				/* Nothing joins them: left for the reachability check
				 * to report, on the first ports. */
				pa[0] = a[0];
				pb[0] = b[0];
				pairs = 1;
			}
			if (m.bytes && m.bytes < pairs)
				pairs = (uint32_t)m.bytes;
			if (pass == 0) {
				extra += pairs - 1;
				continue;
			}
			for (uint32_t j = 0; j < pairs; j++) {
				v[k] = m;
				v[k].src = pa[j];
				v[k].dst = pb[j];
				v[k].bytes = m.bytes / pairs + (j < m.bytes % pairs);
				k++;
			}
		}
	}
	free(*msgs);
	*msgs = v;
	*n_msgs = k;
	return 0;
}

int tg_wl_stragglers_fit(const struct cfg_node *n, const double *slow, uint32_t n_parts,
			 uint64_t compute_ps, char err[CFG_ERR_BYTES])
{
	double worst = 1;

	for (uint32_t i = 0; slow && i < n_parts; i++)
		if (slow[i] > worst)
			worst = slow[i];
	/* In double: the product may not fit the clock, which is the point. */
	if ((double)compute_ps * worst * 2 > (double)UNITS_TIME_MAX_PS) {
		cfg_errorf(err, n, "a straggler's compute phase (%.0f s x factor %g, x 2 with jitter) "
			   "would pass the clock's horizon (1000000s)",
			   units_ps_to_s(compute_ps), worst);
		return -EINVAL;
	}
	return 0;
}
