/* The leaf-spine topology kind: every leaf has hosts_per_leaf hosts and
 * links_per_spine parallel links to every spine; its keys, its builder,
 * its bisection, and its ops for the registry of topology kinds
 * (topo_kinds.c). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "cfg_schema.h"
#include "topo_int.h"

extern const struct topo_kind topo_ls_kind; /* its ops, below */

#define TOPO_LS_OFF(f) offsetof(struct topo_leaf_spine_params, f)

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
	struct topo *t = topo_alloc(topo_ls_kind.kind.name, spine0 + p->n_spines,
				    (uint32_t)n_links);
	uint32_t l = 0;
	int rc;

	if (t == NULL)
		return topo_build_finish(t, -ENOMEM, out, err);
	rc = topo_build_add_nodes(t, 0, (uint32_t)n_hosts, "h", TOPO_HOST, 0, 1, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, leaf0, p->n_leaves, "leaf", TOPO_SWITCH, 1, (uint16_t)leaf_ports, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, spine0, p->n_spines, "spine", TOPO_SWITCH, 2, (uint16_t)spine_ports, mark);
	if (rc != 0)
		return topo_build_finish(t, rc, out, err);
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
	return topo_build_finish(t, 0, out, err);
}

static int topo_ls_host_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, &((struct topo_leaf_spine_params *)params)->host_link, err);
}

static int topo_ls_fabric_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, &((struct topo_leaf_spine_params *)params)->fabric_link, err);
}

static int topo_ls_build(const struct cfg_node *m, const void *params, struct topo **out,
			 char err[CFG_ERR_BYTES])
{
	return topo_build_leaf_spine(params, &m->mark, out, err);
}

static const struct cfg_key topo_ls_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "leaf-spine" },
	{ "leaves", CFG_KEY_UINT, .required = "an integer, 1..65536", .off = TOPO_LS_OFF(n_leaves),
	  .size = 4, .min = 1, .max = TOPO_MAX_HOSTS, .doc = "leaf switches" },
	{ "spines", CFG_KEY_UINT, .required = "an integer, 1..65535", .off = TOPO_LS_OFF(n_spines),
	  .size = 4, .min = 1, .max = TOPO_MAX_PORTS, .doc = "spine switches" },
	{ "hosts_per_leaf", CFG_KEY_UINT, .required = "an integer, 1..65536",
	  .off = TOPO_LS_OFF(hosts_per_leaf), .size = 4, .min = 1, .max = TOPO_MAX_HOSTS,
	  .doc = "hosts under each leaf" },
	{ "links_per_spine", CFG_KEY_UINT, "1", .off = TOPO_LS_OFF(links_per_spine), .size = 4,
	  .min = 1, .max = TOPO_MAX_PORTS, .doc = "parallel links from each leaf to each spine" },
	{ "host_link", CFG_KEY_CUSTOM, TOPO_DEFAULT_LINK, .read = topo_ls_host_link,
	  .doc = "host-leaf links {rate, delay}" },
	{ "fabric_link", CFG_KEY_CUSTOM, TOPO_DEFAULT_LINK, .read = topo_ls_fabric_link,
	  .doc = "leaf-spine links {rate, delay}" },
};

static const struct cfg_table topo_ls_table = {
	.section = "topology",
	.keys = topo_ls_keys,
	.n_keys = sizeof(topo_ls_keys) / sizeof(topo_ls_keys[0]),
	.ordered = true,
	.missing = "missing '%s' (%s)",
};

/* Exact: the closed form of topo_bisection_two_level. */
static uint64_t topo_ls_bisection(const struct topo *t, int *exact)
{
	*exact = 1;
	return t->n_hosts < 2 ? 0 : topo_bisection_two_level(t);
}

const struct topo_kind topo_ls_kind = {
	.kind = { "leaf-spine", "leaves of hosts, each linked to every spine", &topo_ls_table,
		  sizeof(struct topo_leaf_spine_params) },
	.named_tiers = true,
	.build = topo_ls_build,
	.bisection = topo_ls_bisection,
};
