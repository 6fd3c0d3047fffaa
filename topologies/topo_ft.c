/* The fat-tree topology kind: a k-ary fat-tree of 2 or 3 tiers (Al-Fares
 * et al., "A Scalable, Commodity Data Center Network Architecture",
 * SIGCOMM 2008); its keys, its builder, its bisection, and its ops for the
 * registry of topology kinds (topo_kinds.c). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "cfg_schema.h"
#include "topo_int.h"

extern const struct topo_kind topo_ft_kind; /* its ops, below */

#define TOPO_FT_OFF(f) offsetof(struct topo_fat_tree_params, f)

/* Two tiers: k edge switches, each with k/2 hosts on ports 0..k/2-1 and one
 * uplink to each of the k/2 spines on ports k/2..k-1; spine s port e goes to
 * edge e. k^2/2 hosts. */
static int topo_ft_build2(const struct topo_fat_tree_params *p, const struct cfg_mark *mark,
			   struct topo **out, char err[CFG_ERR_BYTES])
{
	uint32_t k = p->k, half = k / 2, n_hosts = k * half;
	uint32_t edge0 = n_hosts, spine0 = edge0 + k;
	struct topo *t = topo_alloc(topo_ft_kind.kind.name, spine0 + half, n_hosts + k * half);
	uint32_t l = 0;
	int rc;

	if (t == NULL)
		return topo_build_finish(t, -ENOMEM, out, err);
	rc = topo_build_add_nodes(t, 0, n_hosts, "h", TOPO_HOST, 0, 1, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, edge0, k, "edge", TOPO_SWITCH, 1, (uint16_t)k, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, spine0, half, "spine", TOPO_SWITCH, 2, (uint16_t)k, mark);
	if (rc != 0)
		return topo_build_finish(t, rc, out, err);
	for (uint32_t h = 0; h < n_hosts; h++)
		topo_set_link(t, l++, h, 0, edge0 + h / half, (uint16_t)(h % half), &p->host_link, mark);
	for (uint32_t e = 0; e < k; e++)
		for (uint32_t s = 0; s < half; s++)
			topo_set_link(t, l++, edge0 + e, (uint16_t)(half + s), spine0 + s, (uint16_t)e,
				      &p->fabric_link, mark);
	return topo_build_finish(t, 0, out, err);
}

/* Three tiers (Al-Fares): k pods of k/2 edge and k/2 aggregation switches,
 * (k/2)^2 cores, k^3/4 hosts. Edge i of pod q: hosts on ports 0..k/2-1,
 * port k/2+j to agg j of the pod (whose port i comes back). Agg j of pod q:
 * port k/2+c to core j*(k/2)+c, whose port q comes back. Switches are
 * numbered globally, pod-major: edge q*(k/2)+i, agg q*(k/2)+j. */
static int topo_ft_build3(const struct topo_fat_tree_params *p, const struct cfg_mark *mark,
			   struct topo **out, char err[CFG_ERR_BYTES])
{
	uint32_t k = p->k, half = k / 2, n_edges = k * half, n_cores = half * half;
	uint32_t n_hosts = n_edges * half;
	uint32_t edge0 = n_hosts, agg0 = edge0 + n_edges, core0 = agg0 + n_edges;
	struct topo *t = topo_alloc(topo_ft_kind.kind.name, core0 + n_cores, 3 * n_hosts);
	uint32_t l = 0;
	int rc;

	if (t == NULL)
		return topo_build_finish(t, -ENOMEM, out, err);
	rc = topo_build_add_nodes(t, 0, n_hosts, "h", TOPO_HOST, 0, 1, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, edge0, n_edges, "edge", TOPO_SWITCH, 1, (uint16_t)k, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, agg0, n_edges, "agg", TOPO_SWITCH, 2, (uint16_t)k, mark);
	if (rc == 0)
		rc = topo_build_add_nodes(t, core0, n_cores, "core", TOPO_SWITCH, 3, (uint16_t)k, mark);
	if (rc != 0)
		return topo_build_finish(t, rc, out, err);
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
	return topo_build_finish(t, 0, out, err);
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
		return topo_ft_build2(p, mark, out, err);
	if (p->n_tiers == 3)
		return topo_ft_build3(p, mark, out, err);
	topo_errorf(err, mark, "fat-tree tiers must be 2 or 3 (got %u)", p->n_tiers);
	return -EINVAL;
}

static int topo_ft_k(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct topo_fat_tree_params *p = params;
	uint64_t v;

	if (cfg_u64(n, TOPO_FT_MIN_K, TOPO_FT_MAX_K, &v, err) != 0)
		return -EINVAL;
	p->k = (uint32_t)v;
	if (p->k % 2 != 0) {
		cfg_errorf(err, n, "k must be even (got %u)", p->k);
		return -EINVAL;
	}
	return 0;
}

static int topo_ft_host_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, &((struct topo_fat_tree_params *)params)->host_link, err);
}

static int topo_ft_fabric_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, &((struct topo_fat_tree_params *)params)->fabric_link, err);
}

static int topo_ft_build(const struct cfg_node *m, const void *params, struct topo **out,
			 char err[CFG_ERR_BYTES])
{
	return topo_build_fat_tree(params, &m->mark, out, err);
}

static const struct cfg_key topo_ft_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "fat-tree" },
	{ "k", CFG_KEY_CUSTOM, .required = "an integer, 2..64", .read = topo_ft_k,
	  .doc = "switch radix, even" },
	{ "tiers", CFG_KEY_UINT, "3", .off = TOPO_FT_OFF(n_tiers), .size = 4, .min = 2, .max = 3,
	  .doc = "switch tiers: 2 or 3" },
	{ "host_link", CFG_KEY_CUSTOM, TOPO_DEFAULT_LINK, .read = topo_ft_host_link,
	  .doc = "host-edge links {rate, delay}" },
	{ "fabric_link", CFG_KEY_CUSTOM, TOPO_DEFAULT_LINK, .read = topo_ft_fabric_link,
	  .doc = "switch-switch links {rate, delay}" },
};

static const struct cfg_table topo_ft_table = {
	.section = "topology",
	.keys = topo_ft_keys,
	.n_keys = sizeof(topo_ft_keys) / sizeof(topo_ft_keys[0]),
	.ordered = true,
	.missing = "missing '%s' (%s)",
};

/* Exact: two tiers are a two-level fabric, three the closed form of
 * topo_bisection_fat_tree3. */
static uint64_t topo_ft_bisection(const struct topo *t, int *exact)
{
	uint8_t top = 0;

	*exact = 1;
	if (t->n_hosts < 2)
		return 0;
	for (uint32_t i = 0; i < t->n_nodes; i++)
		top = t->nodes[i].tier > top ? t->nodes[i].tier : top;
	return top == 2 ? topo_bisection_two_level(t) : topo_bisection_fat_tree3(t);
}

const struct topo_kind topo_ft_kind = {
	.kind = { "fat-tree", "k-ary fat-tree of 2 or 3 tiers (Al-Fares et al.)", &topo_ft_table,
		  sizeof(struct topo_fat_tree_params) },
	.named_tiers = true,
	.build = topo_ft_build,
	.bisection = topo_ft_bisection,
};
