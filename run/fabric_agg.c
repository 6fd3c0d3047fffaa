/* The trees of in-network reductions (traffic's groups, tg.h struct
 * tg_agg; the switches' part, switch/sw_agg.c): laid over the fabric once
 * the traffic's connections exist. A group whose members all hang off one
 * switch (a leaf, an NVLink switch) is reduced there. Otherwise its
 * members' switches (leaves) reduce their own members and send one partial
 * sum each up: to a switch every one of them links to (a spine), the root;
 * or, where there is none (a fat-tree's pods), each to one of its
 * switches of the tier above, and so on up until one switch, or one that
 * all of a level link to, is reached (SHARP's aggregation trees, as deep
 * as the fabric). The root sends the results back down the same tree.
 * Group g takes the (g mod count)-th of the switches it can go up to, so
 * the channels' trees spread over the spines (and a fat-tree's
 * aggregation and core switches), as a SHARP job's trees do. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "link_layer.h"
#include "pkt_ll.h"
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

enum { FABRIC_AGG_MAX_LEVELS = 8, FABRIC_AGG_NONE = UINT32_MAX };

/* One group's tree: its switches (the leaves first), each with its parent
 * and the link to it, and where each member hangs. */
struct fabric_agg_tree {
	uint32_t n_leaves;     /* switches 0..n_leaves - 1 are the members' */
	uint32_t n;            /* switches in the tree */
	uint32_t *node;        /* per switch: its topology node */
	uint32_t *parent;      /* per switch: its parent's index, FABRIC_AGG_NONE: the root */
	uint16_t *up;          /* per switch: its port to its parent */
	uint16_t *up_far;      /* per switch: the parent's port of that link */
	uint32_t *of;          /* per member: its leaf */
	uint16_t *mport;       /* per member: its port on its leaf */
	uint32_t *qpn;         /* per member: its packets' destination QP */
};

static void fabric_agg_tree_free(struct fabric_agg_tree *x)
{
	free(x->node);
	free(x->parent);
	free(x->up);
	free(x->up_far);
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
	    (up != SW_AGG_ROOT && !fabric_agg_lossless(s, &up, 1, a->dscp))) {
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

/* The members' leaves into @x (its arrays made for a tree of up to
 * FABRIC_AGG_MAX_LEVELS levels). 0, -ENOSPC (a member not on a switch)
 * or -ENOMEM. */
static int fabric_agg_leaves(struct fabric *f, const struct tg_agg *a, struct fabric_agg_tree *x,
			     char err[CFG_ERR_BYTES])
{
	size_t cap = (size_t)a->n * FABRIC_AGG_MAX_LEVELS + 1;

	x->node = malloc(sizeof(*x->node) * cap);
	x->parent = malloc(sizeof(*x->parent) * cap);
	x->up = malloc(sizeof(*x->up) * cap);
	x->up_far = malloc(sizeof(*x->up_far) * cap);
	x->of = malloc(sizeof(*x->of) * a->n);
	x->mport = malloc(sizeof(*x->mport) * a->n);
	x->qpn = malloc(sizeof(*x->qpn) * a->n);
	if (!x->node || !x->parent || !x->up || !x->up_far || !x->of || !x->mport || !x->qpn)
		return -ENOMEM;
	for (uint32_t i = 0; i < a->n; i++) {
		uint32_t node, l;

		if (fabric_agg_attach(f->topo, a->ep[i], &node, &x->mport[i]) != 0) {
			cfg_errorf(err, a->at, "algorithm in-network: endpoint %u is not on a switch",
				   a->ep[i]);
			return -ENOSPC;
		}
		for (l = 0; l < x->n && x->node[l] != node; l++)
			;
		if (l == x->n) {
			x->node[x->n] = node;
			x->parent[x->n++] = FABRIC_AGG_NONE;
		}
		x->of[i] = l;
		x->qpn[i] = tg_msg_rqpn(f->tg, a->msg[i]);
	}
	x->n_leaves = x->n;
	return 0;
}

/* Tree switch of node @node, or FABRIC_AGG_NONE. */
static uint32_t fabric_agg_find(const struct fabric_agg_tree *x, uint32_t node)
{
	for (uint32_t i = 0; i < x->n; i++)
		if (x->node[i] == node)
			return i;
	return FABRIC_AGG_NONE;
}

/* The (@gi mod count)-th, in @from's port order, of the switches @from
 * links to (each named once) that are not among @x's switches below
 * @below (the levels laid so far) and: with @all, that every switch of
 * @x's level [@lo, @hi) links to; else of a higher tier than @from.
 * FABRIC_AGG_NONE for none. */
static uint32_t fabric_agg_pick(const struct topo *t, const struct fabric_agg_tree *x, uint32_t from,
				uint32_t lo, uint32_t hi, uint32_t below, bool all, uint32_t gi)
{
	const struct topo_node *n = &t->nodes[from];
	uint32_t count = 0;

	for (int pass = 0; pass < 2; pass++) {
		uint32_t k = 0;

		for (uint16_t p = 0; p < n->n_ports; p++) {
			uint32_t l = n->port_links[p], cand;
			uint16_t far;
			bool ok = true;

			if (l == TOPO_NO_LINK)
				continue;
			cand = t->links[l].node[t->links[l].node[0] == from && t->links[l].port[0] == p];
			if (t->nodes[cand].kind != TOPO_SWITCH || fabric_agg_port_to(t, from, cand, &far) != p ||
			    fabric_agg_find(x, cand) < below ||
			    (!all && t->nodes[cand].tier <= n->tier))
				continue;
			for (uint32_t i = lo; all && i < hi && ok; i++)
				ok = fabric_agg_port_to(t, x->node[i], cand, &far) != UINT16_MAX;
			if (!ok)
				continue;
			if (pass == 1 && k == gi % count)
				return cand;
			k++;
		}
		if ((count = k) == 0)
			break;
	}
	return FABRIC_AGG_NONE;
}

/* Tree switch @i goes up to node @parent (added to @x when new). */
static void fabric_agg_link(const struct topo *t, struct fabric_agg_tree *x, uint32_t i, uint32_t parent)
{
	uint32_t p = fabric_agg_find(x, parent);

	if (p == FABRIC_AGG_NONE) {
		p = x->n++;
		x->node[p] = parent;
		x->parent[p] = FABRIC_AGG_NONE;
	}
	x->parent[i] = p;
	x->up[i] = fabric_agg_port_to(t, x->node[i], parent, &x->up_far[i]);
}

/* Lay the levels above the leaves of @x for group @gi: a switch all of a
 * level link to ends it (the root); else each goes up a tier. 0, or -1
 * when a level can go no higher. */
static int fabric_agg_climb(const struct topo *t, struct fabric_agg_tree *x, uint32_t gi)
{
	uint32_t lo = 0, hi = x->n;

	for (int depth = 0; hi - lo > 1; depth++) {
		uint32_t root = fabric_agg_pick(t, x, x->node[lo], lo, hi, hi, true, gi);

		if (depth == FABRIC_AGG_MAX_LEVELS - 1)
			return -1;
		if (root != FABRIC_AGG_NONE) {
			for (uint32_t i = lo; i < hi; i++)
				fabric_agg_link(t, x, i, root);
			return 0;
		}
		for (uint32_t i = lo; i < hi; i++) {
			uint32_t up = fabric_agg_pick(t, x, x->node[i], 0, 0, hi, false, gi);

			if (up == FABRIC_AGG_NONE)
				return -1;
			fabric_agg_link(t, x, i, up);
		}
		lo = hi;
		hi = x->n;
	}
	return 0;
}

/* Lay group @gi's tree and register it at its switches: every member
 * at each (its key), a leaf's children its members' ports, a higher
 * switch's the ports of the links its children come up on. */
static int fabric_agg_group(struct fabric *f, const struct tg_agg *a, uint32_t gi, char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;
	struct fabric_agg_tree x = { 0 };
	uint32_t *sel = malloc(sizeof(*sel) * a->n);
	uint16_t *ports = NULL;
	int rc;

	if (!sel) {
		rc = -ENOMEM;
		goto out;
	}
	if (a->data && f->exp->ll && f->exp->ll->wire && f->exp->ll->wire->kind == PKT_LL_IB) {
		cfg_errorf(err, a->at, "algorithm in-network: data: true needs RoCE (the switches add the payload and make its ICRC anew; InfiniBand's is not)");
		rc = -ENOSPC;
		goto out;
	}
	if ((rc = fabric_agg_leaves(f, a, &x, err)) != 0)
		goto out;
	if (fabric_agg_climb(t, &x, gi) != 0) {
		cfg_errorf(err, a->at, "algorithm in-network: the ranks' %u switches (%s, ...) reach no common switch going up the tiers (%d levels at most): no reduction tree over them",
			   x.n_leaves, t->nodes[x.node[0]].name, FABRIC_AGG_MAX_LEVELS);
		rc = -ENOSPC;
		goto out;
	}
	if (!(ports = malloc(sizeof(*ports) * (a->n > x.n ? a->n : x.n)))) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < a->n; i++)
		sel[i] = i;
	for (uint32_t i = 0; i < x.n && rc == 0; i++) {
		uint32_t n_ports = 0;

		if (i < x.n_leaves) {
			for (uint32_t m = 0; m < a->n; m++)
				if (x.of[m] == i)
					ports[n_ports++] = x.mport[m];
		} else {
			for (uint32_t c = 0; c < x.n; c++)
				if (x.parent[c] == i)
					ports[n_ports++] = x.up_far[c];
		}
		rc = fabric_agg_add(f, a, &x, x.node[i], sel, a->n, ports, n_ports,
				    x.parent[i] == FABRIC_AGG_NONE ? SW_AGG_ROOT : x.up[i], i < x.n_leaves, err);
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, CFG_ERR_BYTES, "out of memory laying an in-network reduction's tree");
	fabric_agg_tree_free(&x);
	free(sel);
	free(ports);
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
