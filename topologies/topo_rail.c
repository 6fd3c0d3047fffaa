/* The rail-optimised topology kind, sizing and wiring: NIC g of every node
 * of a scalable unit on that unit's rail-g leaf, leaves under spines (two
 * tiers) or pods of spines under cores (three), one plane or two, one switch
 * per NVLink domain. Keys and presets: topo_rail_cfg.c; docs/config.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "topo_int.h"

extern const struct topo_kind topo_rail_kind; /* its ops, topo_rail_cfg.c */

/* Everything the wiring needs, derived and checked from the params. Per
 * plane unless said otherwise. */
struct topo_rail_plan {
	uint32_t n_gpus_node;      /* G: GPUs (NICs, rails) per node */
	uint32_t nodes_per_unit;   /* node slots per unit */
	uint32_t n_nodes;          /* GPU nodes */
	uint32_t n_gpus;           /* n_nodes x G */
	uint32_t n_units;          /* units */
	uint32_t nic_ports;        /* ports per NIC */
	uint32_t n_planes;         /* planes */
	uint32_t per_leaf;         /* ports each NIC brings to its leaf: nic_ports / planes */
	uint32_t mgmt_ports;       /* ports of the management host, 0: none */
	uint32_t n_tiers;          /* 2 or 3 */
	uint32_t leaf_down;        /* leaf down ports: nodes_per_unit x per_leaf */
	uint32_t leaf_up;          /* leaf uplinks */
	uint32_t n_leaves;         /* n_units x G */
	uint32_t units_per_pod;    /* units per pod (two tiers: all, one pod) */
	uint32_t n_pods;           /* pods */
	uint32_t spines_per_pod;   /* every pod leaf reaches each of them equally */
	uint32_t links_per_spine;  /* parallel links from a leaf to each spine of its pod */
	uint32_t n_spines;         /* n_pods x spines_per_pod */
	uint32_t spine_down;       /* spine down ports: pod leaves x links_per_spine */
	uint32_t spine_up;         /* spine uplinks, one to each core of its group; 0: two tiers */
	uint32_t spines_per_group; /* spines of a pod sharing one group of cores */
	uint32_t n_cores;          /* core groups x spine_up */
	uint32_t core_ports;       /* n_pods x spines_per_group */
	uint32_t domain_gpus;      /* GPUs per NVLink domain, 0: none */
	uint32_t n_domains;        /* NVLink domains (all planes share them) */
	uint32_t gpu0;             /* first GPU endpoint node (NIC hosts are 0..n_gpus-1) */
	uint32_t mgmt;             /* the management host's node, TOPO_NO_LINK if none */
	uint32_t leaf0;            /* first leaf node (plane-major after it) */
	uint32_t spine0;           /* first spine node */
	uint32_t core0;            /* first core node */
	uint32_t nvl0;             /* first NVLink switch node */
	uint32_t n_total;          /* all nodes */
	uint32_t n_links;          /* all links */
};

/* Where an error about @key points: its value, else the map, else nowhere. */
static const struct cfg_mark *topo_rail_at(const struct cfg_node *m, const char *key)
{
	const struct cfg_node *v = m != NULL && key != NULL ? cfg_get(m, key) : NULL;

	return v != NULL ? &v->mark : m != NULL ? &m->mark : NULL;
}

/* The smallest divisor d of @n with @count x (n / d) <= @cap: d switches
 * each taking n / d of the @n uplinks of each of @count switches below.
 * 0 when even one link each is too many. */
static uint32_t topo_rail_divisor(uint32_t n, uint64_t count, uint64_t cap)
{
	for (uint32_t d = 1; d <= n; d++)
		if (n % d == 0 && count * (n / d) <= cap)
			return d;
	return 0;
}

/* The sizes: nodes and units, one NIC per GPU (cross-key checks first). */
static int topo_rail_plan_nodes(const struct topo_rail_params *p, const struct cfg_node *m,
				struct topo_rail_plan *pl, char err[CFG_ERR_BYTES])
{
	uint32_t has_mgmt = p->management_ports > 0;
	uint64_t slots;

	if (p->rails != 0 && p->rails != p->gpus_per_node) {
		topo_errorf(err, topo_rail_at(m, "rails"),
			    "rails is %u but a node has %u NICs (gpus_per_node): a rail-optimised fabric "
			    "has one rail per NIC", p->rails, p->gpus_per_node);
		return -EINVAL;
	}
	if (p->n_planes != 1 && p->n_planes != p->nic_ports) {
		topo_errorf(err, topo_rail_at(m, "planes"),
			    "planes must be 1 or nic_ports (%u): with %u planes, NIC port p attaches "
			    "to plane p", p->nic_ports, p->n_planes);
		return -EINVAL;
	}
	if ((p->n_nodes != 0) == (p->n_units != 0)) {
		topo_errorf(err, p->n_units != 0 ? topo_rail_at(m, "units") : topo_rail_at(m, NULL),
			    p->n_units != 0 ? "give one of 'nodes' and 'units', not both"
					    : "rail-optimised needs 'nodes' (GPU nodes) or 'units' "
					      "(scalable units)");
		return -EINVAL;
	}
	if (p->management_ports > p->gpus_per_node) {
		topo_errorf(err, topo_rail_at(m, "management_ports"),
			    "management_ports is %u: the management host attaches to leaves 0..%u of "
			    "its unit, which has %u leaves (one per rail)", p->management_ports,
			    p->management_ports - 1, p->gpus_per_node);
		return -EINVAL;
	}
	pl->n_gpus_node = p->gpus_per_node;
	pl->nodes_per_unit = p->nodes_per_unit;
	pl->nic_ports = p->nic_ports;
	pl->n_planes = p->n_planes;
	pl->per_leaf = p->nic_ports / p->n_planes;
	pl->mgmt_ports = p->management_ports;
	if (p->n_units != 0) {
		/* The management host takes a node slot of the last unit. */
		slots = (uint64_t)p->n_units * p->nodes_per_unit;
		if (slots - has_mgmt == 0) {
			topo_errorf(err, topo_rail_at(m, "units"),
				    "units: one unit of one slot, taken by the management host, leaves no "
				    "GPU node");
			return -EINVAL;
		}
		if (slots - has_mgmt > TOPO_MAX_HOSTS) {
			topo_errorf(err, topo_rail_at(m, "units"),
				    "units: %u units of %u nodes are too many (at most %d hosts)",
				    p->n_units, p->nodes_per_unit, TOPO_MAX_HOSTS);
			return -EINVAL;
		}
		pl->n_units = p->n_units;
		pl->n_nodes = (uint32_t)(slots - has_mgmt);
	} else {
		pl->n_nodes = p->n_nodes;
		pl->n_units = (uint32_t)(((uint64_t)p->n_nodes + has_mgmt + p->nodes_per_unit - 1) /
					 p->nodes_per_unit);
	}
	if ((uint64_t)pl->n_nodes * pl->n_gpus_node > TOPO_MAX_HOSTS) {
		topo_errorf(err, topo_rail_at(m, p->n_units != 0 ? "units" : "nodes"),
			    "%u nodes of %u GPUs are %llu NICs, at most %d hosts", pl->n_nodes,
			    pl->n_gpus_node, (unsigned long long)pl->n_nodes * pl->n_gpus_node,
			    TOPO_MAX_HOSTS);
		return -EINVAL;
	}
	pl->n_gpus = pl->n_nodes * pl->n_gpus_node;
	return 0;
}

/* Leaves: nodes_per_unit x per_leaf ports down, down / oversubscription up. */
static int topo_rail_plan_leaves(const struct topo_rail_params *p, const struct cfg_node *m,
				 struct topo_rail_plan *pl, char err[CFG_ERR_BYTES])
{
	uint64_t down = (uint64_t)pl->nodes_per_unit * pl->per_leaf, up;

	if (down * p->leaf_os.up % p->leaf_os.down != 0) {
		topo_errorf(err, topo_rail_at(m, "leaf_oversubscription"),
			    "leaf_oversubscription %u:%u does not divide a leaf's %llu down ports "
			    "(nodes_per_unit x %u port%s per NIC)", p->leaf_os.down, p->leaf_os.up,
			    (unsigned long long)down, pl->per_leaf, pl->per_leaf == 1 ? "" : "s");
		return -EINVAL;
	}
	up = down * p->leaf_os.up / p->leaf_os.down;
	if (down + up > p->radix) {
		topo_errorf(err, topo_rail_at(m, "radix"),
			    "radix %u cannot hold a leaf's %llu down and %llu up ports", p->radix,
			    (unsigned long long)down, (unsigned long long)up);
		return -EINVAL;
	}
	pl->leaf_down = (uint32_t)down;
	pl->leaf_up = (uint32_t)up;
	if ((uint64_t)pl->n_units * pl->n_gpus_node > TOPO_MAX_SWITCHES) {
		topo_errorf(err, topo_rail_at(m, NULL), "%u units of %u rails are too many leaves (at most %d switches)",
			    pl->n_units, pl->n_gpus_node, TOPO_MAX_SWITCHES);
		return -EINVAL;
	}
	pl->n_leaves = pl->n_units * pl->n_gpus_node;
	return 0;
}

/* Two tiers: the fewest spines S (a divisor of the leaf's uplinks) such
 * that each spine takes leaves x (uplinks / S) ports within the radix;
 * each leaf has uplinks / S parallel links to every spine. */
static int topo_rail_plan_two(const struct topo_rail_params *p, const struct cfg_node *m,
			      struct topo_rail_plan *pl, char err[CFG_ERR_BYTES])
{
	if (pl->n_leaves > p->radix) {
		topo_errorf(err, topo_rail_at(m, "tiers"),
			    "tiers: 2 cannot hold %u leaves per plane: a spine has %u ports (radix), so "
			    "two tiers hold at most %u leaves; use tiers: 3 or auto", pl->n_leaves,
			    p->radix, p->radix);
		return -EINVAL;
	}
	if (p->units_per_pod != 0) {
		topo_errorf(err, topo_rail_at(m, "units_per_pod"),
			    "units_per_pod applies to three tiers, and this fabric has two (write auto)");
		return -EINVAL;
	}
	if (p->spine_os.down != p->spine_os.up) {
		topo_errorf(err, topo_rail_at(m, "spine_oversubscription"),
			    "spine_oversubscription applies to three tiers: with two, every spine port "
			    "faces a leaf (write \"1:1\")");
		return -EINVAL;
	}
	pl->n_tiers = 2;
	pl->units_per_pod = pl->n_units;
	pl->n_pods = 1;
	pl->spines_per_pod = topo_rail_divisor(pl->leaf_up, pl->n_leaves, p->radix);
	pl->links_per_spine = pl->leaf_up / pl->spines_per_pod;
	pl->n_spines = pl->spines_per_pod;
	pl->spine_down = pl->n_leaves * pl->links_per_spine;
	return 0;
}

/* Three tiers: pods of units_per_pod units (auto: as many leaves as one
 * spine's down ports take with one link each); spines per pod by the
 * two-tier rule within the spine's down ports; spine uplinks by the spine
 * oversubscription, one to each core of the spine's group; spine position
 * j of every pod shares group j / spines_per_group, the fewest groups that
 * keep a core (a link from each such spine of every pod) within the radix. */
static int topo_rail_plan_three(const struct topo_rail_params *p, const struct cfg_node *m,
				struct topo_rail_plan *pl, char err[CFG_ERR_BYTES])
{
	uint64_t down_max = (uint64_t)p->radix * p->spine_os.down / (p->spine_os.down + p->spine_os.up);
	uint64_t upp = p->units_per_pod, pod_leaves, up, groups;

	if (upp == 0) {
		upp = down_max / pl->n_gpus_node;
		upp = upp < pl->n_units ? upp : pl->n_units;
	}
	pod_leaves = upp * pl->n_gpus_node;
	pl->spines_per_pod = upp == 0 ? 0 : topo_rail_divisor(pl->leaf_up, pod_leaves, down_max);
	if (pl->spines_per_pod == 0) {
		topo_errorf(err, topo_rail_at(m, p->units_per_pod != 0 ? "units_per_pod" : "radix"),
			    "a spine has %llu down ports (radix %u at spine_oversubscription %u:%u), too "
			    "few for one link from each of the %llu leaves of a pod", (unsigned long long)down_max,
			    p->radix, p->spine_os.down, p->spine_os.up,
			    (unsigned long long)(upp != 0 ? pod_leaves : pl->n_gpus_node));
		return -EINVAL;
	}
	pl->links_per_spine = pl->leaf_up / pl->spines_per_pod;
	pl->spine_down = (uint32_t)(pod_leaves * pl->links_per_spine);
	if ((uint64_t)pl->spine_down * p->spine_os.up % p->spine_os.down != 0) {
		topo_errorf(err, topo_rail_at(m, "spine_oversubscription"),
			    "spine_oversubscription %u:%u does not divide a spine's %u down ports",
			    p->spine_os.down, p->spine_os.up, pl->spine_down);
		return -EINVAL;
	}
	up = (uint64_t)pl->spine_down * p->spine_os.up / p->spine_os.down;
	pl->spine_up = (uint32_t)up;
	pl->n_tiers = 3;
	pl->units_per_pod = (uint32_t)upp;
	pl->n_pods = (uint32_t)((pl->n_units + upp - 1) / upp);
	groups = topo_rail_divisor(pl->spines_per_pod, pl->n_pods, p->radix);
	if (groups == 0) {
		topo_errorf(err, topo_rail_at(m, p->n_units != 0 ? "units" : "nodes"),
			    "too large for three tiers: %u pods, and a core joins at most %u (radix)",
			    pl->n_pods, p->radix);
		return -EINVAL;
	}
	if ((uint64_t)pl->n_pods * pl->spines_per_pod + groups * up > TOPO_MAX_SWITCHES) {
		topo_errorf(err, topo_rail_at(m, NULL), "too many spines and cores (at most %d switches)",
			    TOPO_MAX_SWITCHES);
		return -EINVAL;
	}
	pl->n_spines = pl->n_pods * pl->spines_per_pod;
	pl->spines_per_group = pl->spines_per_pod / (uint32_t)groups;
	pl->n_cores = (uint32_t)(groups * up);
	pl->core_ports = pl->n_pods * pl->spines_per_group;
	return 0;
}

/* NVLink domains of whole nodes, one switch each; then the totals. */
static int topo_rail_plan_totals(const struct topo_rail_params *p, const struct cfg_node *m,
				 struct topo_rail_plan *pl, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *nv = m != NULL ? cfg_get(m, "nvlink") : NULL;
	const struct cfg_mark *at = nv != NULL && cfg_get(nv, "domain_gpus") != NULL ?
				    &cfg_get(nv, "domain_gpus")->mark : topo_rail_at(m, "nvlink");
	uint64_t hosts, switches, links;

	if (p->nvlink) {
		uint32_t d = p->domain_gpus != 0 ? p->domain_gpus : pl->n_gpus_node;

		if (d % pl->n_gpus_node != 0) {
			topo_errorf(err, at, "nvlink.domain_gpus %u is not a multiple of gpus_per_node "
				    "(%u): a domain holds whole nodes", d, pl->n_gpus_node);
			return -EINVAL;
		}
		if (d > TOPO_MAX_PORTS) {
			topo_errorf(err, at, "nvlink.domain_gpus %u: an NVLink switch of more than %d ports",
				    d, TOPO_MAX_PORTS);
			return -EINVAL;
		}
		if (pl->n_gpus % d != 0) {
			topo_errorf(err, at, "nvlink.domain_gpus %u does not divide the %u GPUs (%u nodes x %u)",
				    d, pl->n_gpus, pl->n_nodes, pl->n_gpus_node);
			return -EINVAL;
		}
		pl->domain_gpus = d;
		pl->n_domains = pl->n_gpus / d;
	}
	hosts = (uint64_t)pl->n_gpus * (p->nvlink ? 2 : 1) + (pl->mgmt_ports > 0);
	switches = (uint64_t)pl->n_planes * (pl->n_leaves + pl->n_spines + pl->n_cores) + pl->n_domains;
	links = (uint64_t)pl->n_gpus * pl->nic_ports + pl->mgmt_ports +
		(uint64_t)pl->n_planes * ((uint64_t)pl->n_leaves * pl->leaf_up +
					  (uint64_t)pl->n_spines * pl->spine_up) +
		(p->nvlink ? pl->n_gpus : 0);
	if (hosts > TOPO_MAX_HOSTS || switches > TOPO_MAX_SWITCHES || links > TOPO_MAX_LINKS) {
		topo_errorf(err, topo_rail_at(m, NULL),
			    "rail-optimised has %llu hosts (NICs, NVLink endpoints, management), %llu "
			    "switches and %llu links: at most %d, %d and %d", (unsigned long long)hosts,
			    (unsigned long long)switches, (unsigned long long)links, TOPO_MAX_HOSTS,
			    TOPO_MAX_SWITCHES, TOPO_MAX_LINKS);
		return -EINVAL;
	}
	pl->gpu0 = pl->n_gpus;
	pl->mgmt = pl->mgmt_ports > 0 ? pl->gpu0 + (p->nvlink ? pl->n_gpus : 0) : TOPO_NO_LINK;
	pl->leaf0 = (uint32_t)(hosts);
	pl->spine0 = pl->leaf0 + pl->n_planes * pl->n_leaves;
	pl->core0 = pl->spine0 + pl->n_planes * pl->n_spines;
	pl->nvl0 = pl->core0 + pl->n_planes * pl->n_cores;
	pl->n_total = pl->nvl0 + pl->n_domains;
	pl->n_links = (uint32_t)links;
	return 0;
}

static int topo_rail_plan(const struct topo_rail_params *p, const struct cfg_node *m,
			  struct topo_rail_plan *pl, char err[CFG_ERR_BYTES])
{
	int rc = topo_rail_plan_nodes(p, m, pl, err);

	if (rc == 0)
		rc = topo_rail_plan_leaves(p, m, pl, err);
	if (rc == 0) {
		uint32_t tiers = p->n_tiers != 0 ? p->n_tiers : pl->n_leaves <= p->radix ? 2 : 3;

		rc = tiers == 2 ? topo_rail_plan_two(p, m, pl, err) : topo_rail_plan_three(p, m, pl, err);
	}
	if (rc == 0)
		rc = topo_rail_plan_totals(p, m, pl, err);
	return rc;
}

/* Fill @n nodes from @first named "<plane prefix><stem><i>", with their
 * role, group (i / @per_group) and net. */
static int topo_rail_switches(struct topo *t, const struct topo_rail_plan *pl, uint32_t first,
			      uint32_t n, const char *stem, uint8_t tier, uint32_t n_ports,
			      uint32_t per_group, const struct cfg_mark *mark)
{
	char name[TOPO_NAME_BYTES];

	for (uint32_t p = 0; p < pl->n_planes; p++) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t id = first + p * n + i;

			if (pl->n_planes > 1)
				snprintf(name, sizeof(name), "plane%u/%s%u", p, stem, i);
			else
				snprintf(name, sizeof(name), "%s%u", stem, i);
			if (topo_set_node(t, id, name, TOPO_SWITCH, tier, (uint16_t)n_ports, mark) != 0)
				return -ENOMEM;
			t->nodes[id].group = i / per_group;
			t->nodes[id].net = p;
		}
	}
	return 0;
}

/* The hosts: NIC and NVLink endpoint per GPU, node-major; the management
 * host in the slot after the last GPU node. */
static int topo_rail_hosts(struct topo *t, const struct topo_rail_plan *pl,
			   const struct cfg_mark *mark)
{
	char name[TOPO_NAME_BYTES];

	for (uint32_t e = 0; e < pl->n_gpus; e++) {
		uint32_t n = e / pl->n_gpus_node, g = e % pl->n_gpus_node;
		struct topo_node *nic = &t->nodes[e];

		snprintf(name, sizeof(name), "node%u/nic%u", n, g);
		if (topo_set_node(t, e, name, TOPO_HOST, TOPO_TIER_HOST, (uint16_t)pl->nic_ports, mark) != 0)
			return -ENOMEM;
		nic->role = TOPO_ROLE_NIC;
		nic->gpu_node = n;
		nic->gpu = (uint16_t)g;
		nic->group = n / pl->nodes_per_unit;
		if (pl->n_planes > 1) {
			nic->port_nets = malloc(pl->n_planes * sizeof(*nic->port_nets));
			if (nic->port_nets == NULL)
				return -ENOMEM;
			for (uint32_t p = 0; p < pl->n_planes; p++)
				nic->port_nets[p] = p;
		}
		t->gpus.nic[e] = e;
		if (pl->domain_gpus == 0)
			continue;

		struct topo_node *gpu = &t->nodes[pl->gpu0 + e];

		snprintf(name, sizeof(name), "node%u/gpu%u", n, g);
		if (topo_set_node(t, pl->gpu0 + e, name, TOPO_HOST, TOPO_TIER_HOST, 1, mark) != 0)
			return -ENOMEM;
		gpu->role = TOPO_ROLE_GPU;
		gpu->gpu_node = n;
		gpu->gpu = (uint16_t)g;
		gpu->group = e / pl->domain_gpus;
		gpu->net = pl->n_planes + gpu->group;
		t->gpus.nvl[e] = pl->gpu0 + e;
	}
	if (pl->mgmt != TOPO_NO_LINK) {
		if (topo_set_node(t, pl->mgmt, "mgmt0", TOPO_HOST, TOPO_TIER_HOST,
				  (uint16_t)pl->mgmt_ports, mark) != 0)
			return -ENOMEM;
		t->nodes[pl->mgmt].role = TOPO_ROLE_MGMT;
		t->nodes[pl->mgmt].group = pl->n_nodes / pl->nodes_per_unit;
	}
	return 0;
}

static int topo_rail_nodes(struct topo *t, const struct topo_rail_plan *pl,
			   const struct cfg_mark *mark)
{
	int rc = topo_rail_hosts(t, pl, mark);

	if (rc == 0)
		rc = topo_rail_switches(t, pl, pl->leaf0, pl->n_leaves, "leaf", TOPO_TIER_LEAF,
					pl->leaf_down + pl->leaf_up, pl->n_gpus_node, mark);
	if (rc == 0)
		rc = topo_rail_switches(t, pl, pl->spine0, pl->n_spines, "spine", TOPO_TIER_SPINE,
					pl->spine_down + pl->spine_up, pl->spines_per_pod, mark);
	if (rc == 0 && pl->n_cores > 0)
		rc = topo_rail_switches(t, pl, pl->core0, pl->n_cores, "core", TOPO_TIER_CORE,
					pl->core_ports, pl->spine_up, mark);
	for (uint32_t d = 0; rc == 0 && d < pl->n_domains; d++) {
		char name[TOPO_NAME_BYTES];

		snprintf(name, sizeof(name), "nvl%u", d);
		rc = topo_set_node(t, pl->nvl0 + d, name, TOPO_SWITCH, TOPO_TIER_SCALEUP,
				   (uint16_t)pl->domain_gpus, mark);
		if (rc == 0) {
			t->nodes[pl->nvl0 + d].group = d;
			t->nodes[pl->nvl0 + d].net = pl->n_planes + d;
		}
	}
	return rc;
}

/* NIC g of the node in slot s sits on leaf (s / nodes_per_unit) x G + g;
 * its ports on the leaf are (s mod nodes_per_unit) x per_leaf + port, or
 * with two planes port p on plane p's leaf at the slot's one port. The
 * management host's port j goes to rail j's leaf of its unit. */
static uint32_t topo_rail_wire_hosts(struct topo *t, const struct topo_rail_params *p,
				     const struct topo_rail_plan *pl, const struct cfg_mark *mark)
{
	uint32_t l = 0;

	for (uint32_t e = 0; e < pl->n_gpus; e++) {
		uint32_t n = e / pl->n_gpus_node, g = e % pl->n_gpus_node;
		uint32_t leaf = (n / pl->nodes_per_unit) * pl->n_gpus_node + g;
		uint32_t slot_port = (n % pl->nodes_per_unit) * pl->per_leaf;

		for (uint32_t k = 0; k < pl->nic_ports; k++) {
			uint32_t plane = pl->n_planes > 1 ? k : 0;
			uint32_t port = slot_port + (pl->n_planes > 1 ? 0 : k);

			topo_set_link(t, l++, e, (uint16_t)k, pl->leaf0 + plane * pl->n_leaves + leaf,
				      (uint16_t)port, &p->host_link, mark);
		}
	}
	for (uint32_t j = 0; j < pl->mgmt_ports; j++) {
		uint32_t leaf = (pl->n_nodes / pl->nodes_per_unit) * pl->n_gpus_node + j;

		topo_set_link(t, l++, pl->mgmt, (uint16_t)j, pl->leaf0 + leaf,
			      (uint16_t)((pl->n_nodes % pl->nodes_per_unit) * pl->per_leaf),
			      &p->host_link, mark);
	}
	return l;
}

/* Leaf i (pod q = unit / units_per_pod, position i' in its pod): up port
 * leaf_down + s x links_per_spine + x to spine s of its pod, whose port
 * i' x links_per_spine + x comes back. Spine j of pod q (three tiers): up
 * port spine_down + c to core (j / spines_per_group) x spine_up + c, whose
 * port q x spines_per_group + (j mod spines_per_group) comes back. Then
 * GPU endpoint e on port e mod domain_gpus of NVLink switch e / domain_gpus. */
static void topo_rail_wire_fabric(struct topo *t, const struct topo_rail_params *p,
				  const struct topo_rail_plan *pl, uint32_t l,
				  const struct cfg_mark *mark)
{
	uint32_t pod_leaves = pl->units_per_pod * pl->n_gpus_node, m = pl->links_per_spine;

	for (uint32_t pl_i = 0; pl_i < pl->n_planes; pl_i++) {
		uint32_t leaf0 = pl->leaf0 + pl_i * pl->n_leaves;
		uint32_t spine0 = pl->spine0 + pl_i * pl->n_spines, core0 = pl->core0 + pl_i * pl->n_cores;

		for (uint32_t i = 0; i < pl->n_leaves; i++) {
			uint32_t q = i / pod_leaves, pos = i % pod_leaves;

			for (uint32_t s = 0; s < pl->spines_per_pod; s++)
				for (uint32_t x = 0; x < m; x++)
					topo_set_link(t, l++, leaf0 + i, (uint16_t)(pl->leaf_down + s * m + x),
						      spine0 + q * pl->spines_per_pod + s,
						      (uint16_t)(pos * m + x), &p->fabric_link, mark);
		}
		for (uint32_t j = 0; j < pl->n_spines && pl->spine_up > 0; j++) {
			uint32_t q = j / pl->spines_per_pod, pos = j % pl->spines_per_pod;
			uint32_t group = pos / pl->spines_per_group;

			for (uint32_t c = 0; c < pl->spine_up; c++)
				topo_set_link(t, l++, spine0 + j, (uint16_t)(pl->spine_down + c),
					      core0 + group * pl->spine_up + c,
					      (uint16_t)(q * pl->spines_per_group + pos % pl->spines_per_group),
					      &p->fabric_link, mark);
		}
	}
	for (uint32_t e = 0; e < pl->n_gpus && pl->domain_gpus > 0; e++)
		topo_set_link(t, l++, pl->gpu0 + e, 0, pl->nvl0 + e / pl->domain_gpus,
			      (uint16_t)(e % pl->domain_gpus), &p->nvl_link, mark);
}

static void topo_rail_fill_gpus(struct topo_gpus *g, const struct topo_rail_plan *pl)
{
	g->n_nodes = pl->n_nodes;
	g->gpus_per_node = pl->n_gpus_node;
	g->nic_ports = (uint16_t)pl->nic_ports;
	g->n_planes = (uint16_t)pl->n_planes;
	g->n_tiers = (uint8_t)pl->n_tiers;
	g->nodes_per_unit = pl->nodes_per_unit;
	g->n_units = pl->n_units;
	g->units_per_pod = pl->units_per_pod;
	g->n_pods = pl->n_pods;
	g->n_leaves = pl->n_leaves;
	g->n_spines = pl->n_spines;
	g->n_cores = pl->n_cores;
	g->leaf_up_ports = pl->leaf_up;
	g->spine_up_ports = pl->spine_up;
	g->domain_gpus = pl->domain_gpus;
	g->n_domains = pl->n_domains;
	g->mgmt = pl->mgmt;
}

int topo_build_rail(const struct topo_rail_params *p, const struct cfg_node *m,
		    struct topo **out, char err[CFG_ERR_BYTES])
{
	static const struct cfg_mark no_mark = { 0 };
	const struct cfg_mark *mark = m != NULL ? &m->mark : &no_mark;
	struct topo_rail_plan pl = { 0 };
	struct topo *t;
	int rc = topo_rail_plan(p, m, &pl, err);

	if (rc != 0)
		return rc;
	t = topo_alloc(topo_rail_kind.kind.name, pl.n_total, pl.n_links);
	if (t == NULL)
		return topo_build_finish(t, -ENOMEM, out, err);
	topo_rail_fill_gpus(&t->gpus, &pl);
	t->gpus.radix = p->radix;
	t->gpus.nic = malloc(pl.n_gpus * sizeof(*t->gpus.nic));
	t->gpus.nvl = pl.domain_gpus > 0 ? malloc(pl.n_gpus * sizeof(*t->gpus.nvl)) : NULL;
	if (t->gpus.nic == NULL || (pl.domain_gpus > 0 && t->gpus.nvl == NULL))
		return topo_build_finish(t, -ENOMEM, out, err);
	rc = topo_rail_nodes(t, &pl, mark);
	if (rc == 0)
		topo_rail_wire_fabric(t, p, &pl, topo_rail_wire_hosts(t, p, &pl, mark), mark);
	return topo_build_finish(t, rc, out, err);
}
