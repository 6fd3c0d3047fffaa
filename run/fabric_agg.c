/* The trees of in-network reductions (traffic's groups, tg.h struct
 * tg_agg; the switches' part, switch/sw_agg.c): laid over the fabric once
 * the traffic's connections exist. A group whose members all hang off one
 * switch (a leaf, an NVLink switch) is reduced there; otherwise its
 * members' switches (leaves) reduce their own members and send one partial
 * sum each to a switch every one of them links to (a spine), the root,
 * which sends the results back down: SHARP's two-level aggregation tree.
 * The channels of a workload take the common switches in turn, as the
 * aggregation trees of a SHARP job spread over the spines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "sw.h"
#include "tg.h"
#include "topo.h"

/* The switch node and its port where endpoint @ep's link lands, or -1. */
static int fabric_agg_attach(const struct topo *t, uint32_t ep, uint32_t *node, uint16_t *port)
{
	const struct topo_ep *e = &t->eps[ep];
	uint32_t l = t->nodes[e->node].port_links[e->port];
	const struct topo_link *k;
	int side;

	if (l == TOPO_NO_LINK)
		return -1;
	k = &t->links[l];
	side = k->node[0] == e->node && k->port[0] == e->port ? 1 : 0;
	*node = k->node[side];
	*port = k->port[side];
	return t->nodes[*node].kind == TOPO_SWITCH ? 0 : -1;
}

/* The first port of switch node @a whose link goes to node @b, or
 * UINT16_MAX; its far end's port into *@far. */
static uint16_t fabric_agg_port_to(const struct topo *t, uint32_t a, uint32_t b, uint16_t *far)
{
	const struct topo_node *n = &t->nodes[a];

	for (uint16_t p = 0; p < n->n_ports; p++) {
		uint32_t l = n->port_links[p];
		const struct topo_link *k;
		int side;

		if (l == TOPO_NO_LINK)
			continue;
		k = &t->links[l];
		side = k->node[0] == a && k->port[0] == p ? 1 : 0;
		if (k->node[side] == b) {
			*far = k->port[side];
			return p;
		}
	}
	return UINT16_MAX;
}

/* The group's class is lossless at every port of @s in @ports. */
static bool fabric_agg_lossless(const struct sw *s, const uint16_t *ports, uint32_t n, uint8_t dscp)
{
	for (uint32_t i = 0; i < n; i++)
		if (!sw_class_lossless(s, ports[i], dscp))
			return false;
	return true;
}

/* One group: its members' switches, then the tree. */
struct fabric_agg_tree {
	uint32_t n_leaves;
	uint32_t *leaf;        /* per leaf: its switch node */
	uint32_t *of;          /* per member: its leaf */
	uint16_t *mport;       /* per member: its port on its leaf */
	uint32_t *qpn;         /* per member: its packets' destination QP */
};

static void fabric_agg_tree_free(struct fabric_agg_tree *x)
{
	free(x->leaf);
	free(x->of);
	free(x->mport);
	free(x->qpn);
}

/* Register at switch node @node the members @sel (n_sel of them) with the
 * child ports @ports (n_ports; the members' own when @hosts) and parent
 * @up. 0 or -errno. */
static int fabric_agg_add(struct fabric *f, const struct tg_agg *a, const struct fabric_agg_tree *x,
			  uint32_t node, const uint32_t *sel, uint32_t n_sel, const uint16_t *ports,
			  uint32_t n_ports, uint16_t up, bool hosts, char err[CFG_ERR_BYTES])
{
	struct sw *s = f->sws[f->topo->nodes[node].index];
	uint32_t *ep = malloc(sizeof(*ep) * n_sel), *qpn = malloc(sizeof(*qpn) * n_sel);
	uint16_t all[2] = { up, 0 };
	int rc;

	if (!ep || !qpn) {
		free(ep);
		free(qpn);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n_sel; i++) {
		ep[i] = a->ep[sel[i]];
		qpn[i] = x->qpn[sel[i]];
	}
	if (!fabric_agg_lossless(s, ports, n_ports, a->dscp) ||
	    (up != SW_AGG_ROOT && !fabric_agg_lossless(s, all, 1, a->dscp))) {
		cfg_errorf(err, a->at, "algorithm in-network: the class of DSCP %u is not lossless at %s (the switches hold the ranks' packets in their buffer: the reduction needs a class that is not dropped, as SHARP and NVLS do): PFC on its priority (fabric.pfc) or InfiniBand",
			   a->dscp, f->topo->nodes[node].name);
		rc = -ENOSPC;
	} else {
		/* The ranks' switches (leaves) have the members as children. */
		struct sw_agg_spec sp = { .n_members = n_sel, .member_ep = ep, .member_qpn = qpn,
					  .n_child = (uint16_t)n_ports, .child_ports = ports, .up_port = up,
					  .hosts = hosts };

		rc = sw_agg_add(s, &sp);
		if (rc != 0)
			cfg_errorf(err, a->at, "algorithm in-network: cannot set up the reduction at %s (%s)",
				   f->topo->nodes[node].name, rc == -ENOMEM ? "out of memory" : "its ports");
	}
	free(ep);
	free(qpn);
	return rc;
}

/* The members' leaves into @x. 0, -ENOSPC (a member not on a switch) or
 * -ENOMEM. */
static int fabric_agg_leaves(struct fabric *f, const struct tg_agg *a, struct fabric_agg_tree *x,
			     char err[CFG_ERR_BYTES])
{
	x->leaf = malloc(sizeof(*x->leaf) * a->n);
	x->of = malloc(sizeof(*x->of) * a->n);
	x->mport = malloc(sizeof(*x->mport) * a->n);
	x->qpn = malloc(sizeof(*x->qpn) * a->n);
	if (!x->leaf || !x->of || !x->mport || !x->qpn)
		return -ENOMEM;
	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t node, l;

		if (fabric_agg_attach(f->topo, a->ep[i], &node, &x->mport[i]) != 0) {
			cfg_errorf(err, a->at, "algorithm in-network: endpoint %u is not on a switch",
				   a->ep[i]);
			return -ENOSPC;
		}
		for (l = 0; l < x->n_leaves && x->leaf[l] != node; l++)
			;
		if (l == x->n_leaves)
			x->leaf[x->n_leaves++] = node;
		x->of[i] = l;
		x->qpn[i] = tg_msg_rqpn(f->tg, a->msg[i]);
	}
	return 0;
}

/* The root of group @gi over the leaves of @x: a switch every leaf links
 * to, the (@gi mod their count)-th of them in the first leaf's port
 * order; UINT32_MAX for none. */
static uint32_t fabric_agg_root(const struct topo *t, const struct fabric_agg_tree *x, uint32_t gi)
{
	const struct topo_node *l0 = &t->nodes[x->leaf[0]];
	uint32_t n_cand = 0;

	for (int pass = 0; pass < 2; pass++) {
		uint32_t k = 0;

		for (uint16_t p = 0; p < l0->n_ports; p++) {
			uint32_t l = l0->port_links[p], cand;
			uint16_t far;
			bool all = true;

			if (l == TOPO_NO_LINK)
				continue;
			cand = t->links[l].node[t->links[l].node[0] == x->leaf[0] && t->links[l].port[0] == p];
			/* A switch, named once (by the first of parallel links). */
			if (t->nodes[cand].kind != TOPO_SWITCH ||
			    fabric_agg_port_to(t, x->leaf[0], cand, &far) != p)
				continue;
			for (uint32_t i = 1; i < x->n_leaves && all; i++)
				all = fabric_agg_port_to(t, x->leaf[i], cand, &far) != UINT16_MAX;
			if (!all)
				continue;
			if (pass == 1 && k == gi % n_cand)
				return cand;
			k++;
		}
		if ((n_cand = k) == 0)
			break;
	}
	return UINT32_MAX;
}

/* Lay group @gi's tree and register it at its switches. */
static int fabric_agg_group(struct fabric *f, const struct tg_agg *a, uint32_t gi, char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;
	struct fabric_agg_tree x = { 0 };
	uint32_t *sel = malloc(sizeof(*sel) * a->n), root, n_sel;
	uint16_t *ports = malloc(sizeof(*ports) * (a->n + 1)), *down = NULL;
	int rc;

	if (!sel || !ports) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = fabric_agg_leaves(f, a, &x, err)) != 0)
		goto out;
	if (x.n_leaves == 1) {
		for (uint32_t i = 0; i < a->n; i++) {
			sel[i] = i;
			ports[i] = x.mport[i];
		}
		rc = fabric_agg_add(f, a, &x, x.leaf[0], sel, a->n, ports, a->n, SW_AGG_ROOT, true, err);
		goto out;
	}
	root = fabric_agg_root(t, &x, gi);
	if (root == UINT32_MAX) {
		cfg_errorf(err, a->at, "algorithm in-network: the ranks' %u switches (%s, %s, ...) share no switch above them: the reduction's tree has two levels (the ranks' switches and one they all link to)",
			   x.n_leaves, t->nodes[x.leaf[0]].name, t->nodes[x.leaf[1]].name);
		rc = -ENOSPC;
		goto out;
	}
	/* Each leaf: its members, up to the root on its first link to it; the
	 * root's child port for the leaf is that link's far end. */
	down = malloc(sizeof(*down) * x.n_leaves);
	if (!down) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t l = 0; l < x.n_leaves && rc == 0; l++) {
		uint16_t up = fabric_agg_port_to(t, x.leaf[l], root, &down[l]);

		n_sel = 0;
		for (uint32_t i = 0; i < a->n; i++)
			if (x.of[i] == l) {
				sel[n_sel] = i;
				ports[n_sel++] = x.mport[i];
			}
		rc = fabric_agg_add(f, a, &x, x.leaf[l], sel, n_sel, ports, n_sel, up, true, err);
	}
	/* The root: every member, a child port per leaf. */
	for (uint32_t i = 0; i < a->n; i++)
		sel[i] = i;
	if (rc == 0)
		rc = fabric_agg_add(f, a, &x, root, sel, a->n, down, x.n_leaves, SW_AGG_ROOT, false, err);
out:
	if (rc == -ENOMEM)
		snprintf(err, CFG_ERR_BYTES, "out of memory laying an in-network reduction's tree");
	fabric_agg_tree_free(&x);
	free(sel);
	free(ports);
	free(down);
	return rc;
}

int fabric_agg_setup(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct tg_graph *g = &f->exp->graph;

	for (uint32_t i = 0; i < g->n_aggs; i++) {
		int rc = fabric_agg_group(f, &g->aggs[i], i, err);

		if (rc != 0)
			return rc;
	}
	return 0;
}
