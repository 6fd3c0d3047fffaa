/* Placing a collective's transfers (tg_coll_int.h, struct tg_cb): which
 * endpoints a transfer between two ranks takes (NVLink inside a domain,
 * the rail NICs between nodes), the transfer with its data plan, and the
 * NCCL model's pieces that depend on the placement: each transfer's hop
 * latency, the shape the tuner is told, and the tuning of an instance
 * (tg_nccl.h). Shared by the collective and training kinds and the
 * trace kind's collectives. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_coll_int.h"
#include "tg_nccl.h"

/* ---- placement ---- */

static bool tg_cb_is_gpu(const struct tg_cb *b, uint32_t r)
{
	return b->ranks[r] >= b->t->n_eps;
}

uint32_t tg_cb_node_of(const struct tg_cb *b, uint32_t r)
{
	return tg_cb_is_gpu(b, r) ? (b->ranks[r] - b->t->n_eps) / b->t->gpus.gpus_per_node
				  : b->t->gpus.n_nodes + b->ranks[r];
}

uint32_t tg_cb_gpu_of(const struct tg_cb *b, uint32_t r)
{
	return tg_cb_is_gpu(b, r) ? (b->ranks[r] - b->t->n_eps) % b->t->gpus.gpus_per_node : 0;
}

bool tg_cb_same_domain(const struct tg_cb *b, uint32_t a, uint32_t r)
{
	const struct topo_gpus *g = &b->t->gpus;

	return tg_cb_is_gpu(b, a) && tg_cb_is_gpu(b, r) && g->nvl && g->domain_gpus &&
	       (b->ranks[a] - b->t->n_eps) / g->domain_gpus == (b->ranks[r] - b->t->n_eps) / g->domain_gpus;
}

/* The endpoint rank @r sends or receives on: its NVLink endpoint when
 * @nvl, else the NIC (its own, or its node's rail-@rail one) port @port. */
uint32_t tg_cb_ep(const struct tg_cb *b, uint32_t r, bool nvl, uint32_t rail, uint16_t port)
{
	const struct topo_gpus *g = &b->t->gpus;
	uint32_t gpu, nic;

	if (!tg_cb_is_gpu(b, r))
		return b->ranks[r];
	gpu = b->ranks[r] - b->t->n_eps;
	if (nvl)
		return b->t->nodes[g->nvl[gpu]].first_ep;
	nic = rail == TG_COLL_NO_RAIL ? g->nic[gpu] : g->nic[(gpu / g->gpus_per_node) * g->gpus_per_node + rail];
	return b->t->nodes[nic].first_ep + port % b->t->nodes[nic].n_ports;
}

/* With data: the plan's transfer of message @msg (what tg_cb_xfer was
 * told): a reduce step lands in the next free bytes of the receiver's
 * receive area, a copy where it belongs. */
static int tg_cb_data_xfer(struct tg_cb *b, uint32_t msg, uint32_t a, uint32_t r, uint64_t src_off,
			   uint64_t dst_off, uint64_t bytes, enum tg_coll_step step)
{
	struct tg_data_xfer x = { .msg = msg, .coll = b->dcoll, .src_rank = a, .dst_rank = r,
				  .src_off = src_off, .dst_off = dst_off, .act = TG_DATA_PLACE };

	if (step == TG_STEP_REDUCE) {
		x.act = TG_DATA_ADD;
		x.apply_off = dst_off;
		x.dst_off = b->buf_bytes + b->recv_used[r];
		b->recv_used[r] += bytes;
	}
	return tg_data_add_xfer(&b->c->graph->data, &x);
}

int tg_cb_own(struct tg_cb *b, uint32_t r, uint64_t off, uint64_t bytes)
{
	struct tg_data_range g = { .rank = r, .off = off, .bytes = bytes };

	return b->data ? tg_data_add_range(&b->c->graph->data, &g) : 0;
}

void tg_cb_edge(const struct tg_cb *b, uint32_t a, uint32_t r, uint16_t chan, uint32_t rail,
		uint32_t ep[2])
{
	bool nvl = tg_cb_same_domain(b, a, r);
	uint16_t port = (uint16_t)(b->t->gpus.gpus_per_node ? chan / b->t->gpus.gpus_per_node : 0);

	ep[0] = tg_cb_ep(b, a, nvl, rail, port);
	ep[1] = tg_cb_ep(b, r, nvl, rail, port);
}

/* The propagation delay of endpoint @ep's link (0: none). */
const struct topo_link *tg_cb_ep_link(const struct topo *t, uint32_t ep)
{
	uint32_t l = t->nodes[t->eps[ep].node].port_links[t->eps[ep].port];

	return l == TOPO_NO_LINK ? NULL : &t->links[l];
}

static uint64_t tg_cb_ep_delay_ps(const struct topo *t, uint32_t ep)
{
	const struct topo_link *l = tg_cb_ep_link(t, ep);

	return l ? l->delay_ps : 0;
}

uint64_t tg_cb_hop_ps(const struct tg_cb *b, bool nvl, const uint32_t ep[2])
{
	uint64_t hop = b->nccl.hop_ps[nvl];
	uint64_t own = tg_cb_ep_delay_ps(b->t, ep[0]) + tg_cb_ep_delay_ps(b->t, ep[1]);

	return hop > own ? hop - own : 0;
}

int tg_cb_xfer(struct tg_cb *b, uint32_t a, uint32_t r, uint16_t chan, uint32_t rail,
	       uint64_t src_off, uint64_t dst_off, uint64_t bytes, enum tg_coll_step step,
	       const uint32_t *deps, uint32_t n_deps, uint32_t *id)
{
	uint32_t ep[2];
	struct tg_node node = { .kind = TG_NODE_XFER, .start_ps = b->proto.start_ps, .coll = b->coll };
	struct tg_msg *m;
	int rc;

	if (tg_wl_msgs_room(b->c, 1) != 0)
		return -ENOMEM;
	m = &(*b->c->msgs)[*b->c->n_msgs];
	*m = b->proto;
	tg_cb_edge(b, a, r, chan, rail, ep);
	m->src = ep[0];
	m->dst = ep[1];
	m->chan = chan;
	node.msg = *b->c->n_msgs;
	if (b->nccl.proto != TG_NCCL_IDEAL) {
		/* The NCCL model: the protocol's lines on the wire; posted a hop
		 * latency after what it waits for, a first send (waiting for
		 * nothing of the instance) the launch latency more (a transfer's
		 * dur_ps, tg.h). */
		bool nvl = tg_cb_same_domain(b, a, r);

		bytes = tg_nccl_wire(&b->nccl, nvl, bytes);
		node.dur_ps = tg_cb_hop_ps(b, nvl, ep) + (n_deps ? 0 : b->nccl.base_ps);
	}
	m->bytes = bytes;
	if (b->rank_gate) {
		/* The sender's part of the collective runs once it has launched
		 * it (its compute phase is over): every send waits for that, and
		 * for its data. */
		uint32_t both[2] = { b->rank_gate[a], n_deps ? deps[0] : b->rank_gate[a] };

		if (n_deps > 1) {
			uint32_t *all = malloc(sizeof(*all) * ((size_t)n_deps + 1));

			if (!all)
				return -ENOMEM;
			all[0] = b->rank_gate[a];
			memcpy(all + 1, deps, sizeof(*deps) * n_deps);
			rc = tg_graph_add(b->c->graph, &node, all, n_deps + 1, id);
			free(all);
		} else {
			rc = tg_graph_add(b->c->graph, &node, both, n_deps ? 2 : 1, id);
		}
	} else {
		if (!n_deps && b->gate != TG_NO_GATE) {
			deps = &b->gate;
			n_deps = 1;
		}
		rc = tg_graph_add(b->c->graph, &node, deps, n_deps, id);
	}
	if (rc == 0 && b->data)
		rc = tg_cb_data_xfer(b, node.msg, a, r, src_off, dst_off, bytes, step);
	if (rc != 0)
		return rc;
	(*b->c->n_msgs)++;
	return 0;
}

/* ---- PXN ---- */

int tg_cb_pxn_map(const struct tg_cb *b, uint32_t **out)
{
	*out = NULL;
	return b->nccl.pxn && b->t->gpus.nvl ? tg_cb_comm_map(b->t, b->ranks, b->n, out) : 0;
}

/* The GPU (its index in the fabric) through which rank @a sends to rank
 * @r under PXN: the one of a's node with r's index, when @a and @r are
 * GPUs of different NVLink domains and rails and that GPU is in @comm
 * (tg_cb_comm_map's) and in a's domain; else TG_COLL_NO_PXN. */
static uint32_t tg_cb_pxn_gpu(const struct tg_cb *b, const uint32_t *comm, uint32_t a, uint32_t r)
{
	const struct topo_gpus *g = &b->t->gpus;
	uint32_t ga, gr, pg;

	if (!comm || !g->domain_gpus || !tg_cb_is_gpu(b, a) || !tg_cb_is_gpu(b, r) || tg_cb_same_domain(b, a, r))
		return TG_COLL_NO_PXN;
	ga = b->ranks[a] - b->t->n_eps;
	gr = b->ranks[r] - b->t->n_eps;
	pg = ga / g->gpus_per_node * g->gpus_per_node + gr % g->gpus_per_node;
	if (pg == ga || comm[pg] == UINT32_MAX || ga / g->domain_gpus != pg / g->domain_gpus)
		return TG_COLL_NO_PXN; /* a's own NIC is on r's rail, or no such rank */
	return pg;
}

uint32_t tg_cb_pxn(const struct tg_cb *b, const uint32_t *map, uint32_t a, uint32_t r)
{
	uint32_t pg = tg_cb_pxn_gpu(b, map, a, r);

	return pg == TG_COLL_NO_PXN ? TG_COLL_NO_PXN : map[pg];
}

int tg_cb_xfer_pxn(struct tg_cb *b, uint32_t a, uint32_t p, uint32_t r, uint64_t bytes, uint32_t *id)
{
	uint32_t hop, *rg = b->rank_gate;
	int rc = tg_cb_xfer(b, a, p, TG_CHAN_PXN, TG_COLL_NO_RAIL, 0, 0, bytes, TG_STEP_COPY, NULL, 0,
			    &hop);

	if (rc != 0)
		return rc;
	/* p's proxy thread posts it: it waits for the NVLink hop, not for
	 * p's own compute phase. */
	b->rank_gate = NULL;
	rc = tg_cb_xfer(b, p, r, 0, TG_COLL_NO_RAIL, 0, 0, bytes, TG_STEP_COPY, &hop, 1, id);
	b->rank_gate = rg;
	return rc;
}

/* ---- the NCCL model ---- */

int tg_cb_comm_map(const struct topo *t, const uint32_t *ranks, uint32_t n, uint32_t **out)
{
	size_t n_gpus = (size_t)t->gpus.n_nodes * t->gpus.gpus_per_node;

	*out = NULL;
	if (!n_gpus)
		return 0;
	if (!(*out = malloc(sizeof(**out) * n_gpus)))
		return -ENOMEM;
	memset(*out, 0xff, sizeof(**out) * n_gpus);
	for (uint32_t r = 0; r < n; r++)
		if (ranks[r] >= t->n_eps && ranks[r] - t->n_eps < n_gpus)
			(*out)[ranks[r] - t->n_eps] = r;
	return 0;
}

int tg_cb_send_nccl(struct tg_cb *b, const struct tg_nccl_cfg *c, const uint32_t *comm, uint64_t bytes,
		    uint16_t chan, uint32_t dep, uint32_t *id)
{
	struct tg_node join = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .coll = TG_NO_COLL };
	const uint32_t *two = b->ranks;
	uint32_t gate[1] = { dep }, l, *ids, three[3] = { b->ranks[0], b->ranks[1], 0 };
	uint32_t p = c->pxn && b->t->gpus.nvl ? tg_cb_pxn_gpu(b, comm, 0, 1) : TG_COLL_NO_PXN;
	int rc = 0;

	tg_nccl_p2p_plan(c, tg_cb_same_domain(b, 0, 1), bytes, &b->nccl);
	b->slice_bytes = b->nccl.step_bytes;
	l = tg_coll_slices(b, bytes);
	if (!(ids = malloc(sizeof(*ids) * l)))
		return -ENOMEM;
	if (p != TG_COLL_NO_PXN) {
		/* The relaying GPU as rank 2 of the send. */
		three[2] = b->t->n_eps + p;
		b->ranks = three;
		b->n = 3;
	}
	/* What the send waits for is its launch's gate: every chunk is a
	 * first send (the launch latency, then the hop's). */
	b->rank_gate = dep != TG_NO_GATE ? gate : NULL;
	for (uint32_t j = 0; j < l && rc == 0; j++)
		rc = p != TG_COLL_NO_PXN
			     ? tg_cb_xfer_pxn(b, 0, 2, 1, tg_coll_part(b, bytes, l, j), &ids[j])
			     : tg_cb_xfer(b, 0, 1, chan, TG_COLL_NO_RAIL, 0, 0, tg_coll_part(b, bytes, l, j),
					  TG_STEP_COPY, NULL, 0, &ids[j]);
	b->rank_gate = NULL;
	b->ranks = two;
	b->n = 2;
	if (rc == 0 && l == 1)
		*id = ids[0];
	else if (rc == 0)
		rc = tg_graph_add(b->c->graph, &join, ids, l, id);
	free(ids);
	return rc;
}

/* The line rate of endpoint @ep's link (0: none). */
static uint64_t tg_wl_coll_ep_bps(const struct topo *t, uint32_t ep)
{
	const struct topo_node *h = &t->nodes[t->eps[ep].node];
	uint32_t l = h->port_links[t->eps[ep].port];

	return l == TOPO_NO_LINK ? 0 : t->links[l].rate_bps;
}

int tg_cb_nccl_shape(const struct tg_cb *b, const struct tg_nccl_cfg *c, struct tg_nccl_shape *out)
{
	const struct topo *t = b->t;
	const struct topo_gpus *g = &t->gpus;
	bool gpus = b->ranks[0] >= t->n_eps && g->nvl && g->domain_gpus;
	double nic, nvl = 0, per;
	uint32_t nodes = b->n;

	if (gpus) {
		uint8_t *seen = calloc(g->n_domains ? g->n_domains : 1, 1);

		if (!seen)
			return -ENOMEM;
		nodes = 0;
		for (uint32_t r = 0; r < b->n; r++) {
			uint32_t d = (b->ranks[r] - t->n_eps) / g->domain_gpus;

			nodes += !seen[d];
			seen[d] = 1;
		}
		free(seen);
		nvl = (double)tg_wl_coll_ep_bps(t, tg_cb_ep(b, 0, true, 0, 0)) / 8 * c->nvl_eff_ppm / 1e6;
	}
	nic = (double)tg_wl_coll_ep_bps(t, tg_cb_ep(b, 0, false, TG_COLL_NO_RAIL, 0)) / 8;
	per = (double)b->n / nodes;
	*out = (struct tg_nccl_shape){ .kind = b->kind, .tree = strcmp(b->alg->kind.name, "tree") == 0,
				       .n = b->n, .nodes = nodes, .channels = b->channels };
	if (gpus && nodes == 1)
		out->bus_Bps = nvl;
	else if (gpus && per > 1)
		/* A rank's NVLink carries the channels that do not leave its
		 * node there: (per - 1) of per. */
		out->bus_Bps = fmin(nvl * per / (per - 1), nic * fmin((double)b->channels, per));
	else
		out->bus_Bps = nic;
	return 0;
}

int tg_cb_nccl_check(const struct tg_coll_alg_ops *alg, bool data, const struct cfg_node *at,
		     char err[CFG_ERR_BYTES])
{
	const char *name = alg->kind.name;

	if (data) {
		cfg_errorf(err, at, "nccl: the NCCL model's transfers carry its protocol's lines, not data: data: true needs nccl: off");
		return -EINVAL;
	}
	if (strcmp(name, "ring") != 0 && strcmp(name, "tree") != 0 && strcmp(name, "direct") != 0 &&
	    strcmp(name, "in-network") != 0) {
		cfg_errorf(err, at, "nccl: the NCCL model runs NCCL's algorithms (ring, tree, in-network for NVLS and SHARP, and direct for all-to-all), not %s",
			   name);
		return -EINVAL;
	}
	return 0;
}

void tg_cb_nccl_tune(struct tg_cb *b, const struct tg_nccl_cfg *c, const struct tg_nccl_shape *shape,
		     const struct tg_nccl_shape *tree, uint64_t slice_bytes, uint32_t channels)
{
	tg_nccl_plan(c, shape, b->bytes, &b->nccl);
	if (b->alg == &tg_coll_innet_alg && b->nccl.proto != TG_NCCL_IDEAL) {
		/* NVLS and CollNet run Simple alone; NCCL's cost model of them
		 * is not this one's (its estimate is left out: 0). */
		struct tg_nccl_cfg simple = *c;

		simple.proto = TG_NCCL_SIMPLE;
		tg_nccl_plan(&simple, shape, b->bytes, &b->nccl);
		b->nccl.predicted_us = 0;
	}
	if (tree) {
		/* NCCL_ALGO unset: the algorithm (with its protocol) of least
		 * time in NCCL's cost model, the ring on a tie. */
		struct tg_nccl_plan t;

		tg_nccl_plan(c, tree, b->bytes, &t);
		if (t.predicted_us < b->nccl.predicted_us) {
			b->nccl = t;
			b->alg = &tg_coll_tree_alg;
		}
	}
	b->slice_bytes = b->nccl.step_bytes ? b->nccl.step_bytes : slice_bytes;
	b->channels = b->nccl.channels ? b->nccl.channels : channels;
}

int tg_cb_nccl_auto(struct tg_cb *b, const struct tg_nccl_cfg *c)
{
	struct tg_nccl_shape ring, tree;
	struct tg_cb tb;
	bool choose = b->kind == TG_COLL_ALL_REDUCE && c->algo == TG_NCCL_ALGO_AUTO;
	int rc;

	if (!c->on)
		return 0;
	if (b->kind == TG_COLL_ALL_REDUCE && c->algo == TG_NCCL_ALGO_TREE) {
		b->alg = &tg_coll_tree_alg;
		b->channels *= tg_coll_tree_alg.rail_channels;
	}
	/* The tree's shape: both trees on every rail. */
	tb = *b;
	tb.alg = &tg_coll_tree_alg;
	tb.channels = b->channels * tg_coll_tree_alg.rail_channels;
	if ((rc = tg_cb_nccl_shape(b, c, &ring)) != 0 || (choose && (rc = tg_cb_nccl_shape(&tb, c, &tree)) != 0))
		return rc;
	tg_cb_nccl_tune(b, c, &ring, choose ? &tree : NULL, b->slice_bytes, b->channels);
	return 0;
}
