/* The in-network all-reduce: the switches reduce (SHARP's streaming
 * aggregation on InfiniBand and Ethernet switches; NVLS in an NVLink
 * switch). Every rank sends its S (per channel, its part of S) towards
 * the tree's root and gets the reduced S back: one connection per rank
 * and channel whose two ends are the rank's own endpoint, the tree's
 * switches holding and releasing its packets (switch/sw_agg.c; the tree
 * is laid over the fabric by run/fabric_agg.c). Ranks of one NVLink
 * domain reduce in their NVLink switch, others through their own NICs.
 *
 * The reduction starts when every rank is ready (a join of their gates):
 * the switch can reduce a slot only when all have sent it, as NVLS's
 * multimem loads and SHARP's aggregation wait for every member.
 *
 * NVLS (NCCL's NVLS all-reduce, two shots inside one NVLink domain): a
 * GPU reads the reduced 1/n of the buffer it owns through the switch
 * (multimem.ld_reduce: every GPU's copy of it goes up, the sum comes down)
 * and writes it to every GPU through the switch's multicast (multimem.st:
 * its 1/n goes up, every GPU gets it). Each GPU's NVLink so carries
 * (n + 1)/n x S each way; the model sends that many bytes through the
 * switch's reduction, which gives each link the same load.
 *
 * GPUs of several nodes (the same GPUs of each): NCCL's CollNet shape, a
 * reduce-scatter ring in each node, each GPU's 1/g through its rail's
 * tree, an all-gather ring in each node, in rounds that pipeline
 * (tg_innet_collnet). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_coll_int.h"
#include "tg_nccl.h"

/* The group of (workload, channel tag, communicator, first member) in @g,
 * or a new one for the @n endpoints @ep (their messages @msg), asked for
 * at @at. 0 or -ENOMEM. */
static int tg_innet_group(struct tg_graph *g, const struct tg_cb *b, uint16_t chan,
			  const uint32_t *ep, const uint32_t *msg, uint32_t n, const struct cfg_node *at)
{
	struct tg_agg *v, *a;

	for (uint32_t i = 0; i < g->n_aggs; i++)
		if (g->aggs[i].workload == b->proto.workload && g->aggs[i].chan == chan &&
		    g->aggs[i].comm == b->proto.comm && g->aggs[i].ep[0] == ep[0])
			return 0; /* an earlier instance's: the same connections */
	if (!(v = realloc(g->aggs, sizeof(*v) * (g->n_aggs + 1))))
		return -ENOMEM;
	g->aggs = v;
	a = &v[g->n_aggs];
	*a = (struct tg_agg){ .workload = b->proto.workload, .chan = chan, .comm = b->proto.comm,
			      .n = n, .dscp = b->proto.dscp, .data = b->data, .at = at };
	a->ep = malloc(sizeof(*a->ep) * n);
	a->msg = malloc(sizeof(*a->msg) * n);
	if (!a->ep || !a->msg) {
		free(a->ep);
		free(a->msg);
		return -ENOMEM;
	}
	memcpy(a->ep, ep, sizeof(*ep) * n);
	memcpy(a->msg, msg, sizeof(*msg) * n);
	g->n_aggs++;
	return 0;
}

/* Rank @r's endpoint in the reduction: its NVLink endpoint when every
 * rank is in its domain (@nvl), else its own NIC. */
static uint32_t tg_innet_ep(const struct tg_cb *b, uint32_t r, bool nvl)
{
	return tg_cb_ep(b, r, nvl, TG_COLL_NO_RAIL, 0);
}

/* The line rate of rank 0's NVLink, b/s. */
static uint64_t tg_innet_nvl_bps(const struct tg_cb *b)
{
	const struct topo_link *l = tg_cb_ep_link(b->t, tg_cb_ep(b, 0, true, TG_COLL_NO_RAIL, 0));

	return l ? l->rate_bps : 0;
}

uint32_t tg_innet_nvls_eff_ppm(const struct tg_cb *b)
{
	uint64_t bps = tg_innet_nvl_bps(b);

	return bps >= UINT64_C(7200000000000) ? TG_NCCL_NVLS_EFF_BLACKWELL_PPM
	       : bps >= UINT64_C(3600000000000) ? TG_NCCL_NVLS_EFF_HOPPER_PPM : 0;
}

double tg_innet_nvls_us(const struct tg_cb *b, uint32_t nvl_eff_ppm)
{
	double rate = (double)tg_innet_nvl_bps(b) / 8 * nvl_eff_ppm / 1e6 * tg_innet_nvls_eff_ppm(b) / 1e6;

	return TG_NCCL_NVLS_LAT_US + (rate > 0 ? (double)b->bytes * (b->n + 1) / b->n / rate * 1e6 : 1e300);
}

/* Rank @r's part of channel @c on the wire: its part of S, NVLS's
 * (n + 1)/n of it in an NVLink domain, under the NCCL model at the share
 * of NVLink's rate NCCL's copies reach and NVLS's efficiency. */
static uint64_t tg_innet_bytes(const struct tg_cb *b, uint32_t c, bool nvl)
{
	uint64_t part = tg_coll_part(b, b->bytes, b->channels, c);
	uint32_t eff;

	if (!nvl)
		return part;
	part += part / b->n;
	if (b->nccl.proto == TG_NCCL_IDEAL)
		return part;
	/* No NVLS below NVLink 4: refused under the model (tg_wl_coll.c). */
	eff = tg_innet_nvls_eff_ppm(b);
	return (uint64_t)((double)tg_nccl_wire(&b->nccl, true, part) * 1e6 / (eff ? eff : 1000000));
}

/* Rank @r's self transfer of @bytes on connection tag @chan (its
 * endpoint @ep) after node @join; under the NCCL model posted a hop's
 * latency after it (and the launch's more when @first: nothing of the
 * instance before it), over NVLink (NVLS) NCCL's NVLS latency. Its
 * message into *@msg, its node into *@id. */
static int tg_innet_xfer(struct tg_cb *b, uint32_t ep, bool nvl, uint64_t bytes, uint16_t chan,
			 uint32_t join, bool first, uint32_t *msg, uint32_t *id)
{
	struct tg_node node = { .kind = TG_NODE_XFER, .start_ps = b->proto.start_ps, .coll = b->coll };
	struct tg_msg *m;
	int rc;

	if ((rc = tg_wl_msgs_room(b->c, 1)) != 0)
		return rc;
	m = &(*b->c->msgs)[*b->c->n_msgs];
	*m = b->proto;
	m->src = m->dst = ep;
	m->chan = chan;
	m->bytes = bytes;
	*msg = node.msg = *b->c->n_msgs;
	if (b->nccl.proto != TG_NCCL_IDEAL && nvl) {
		/* NVLS: NCCL's latency of it in one node (no base latency: its
		 * tuner has none for NVLS), less the NVLink's propagation up
		 * and down. */
		const struct topo_link *l = tg_cb_ep_link(b->t, ep);
		uint64_t own = l ? 2 * l->delay_ps : 0;
		uint64_t lat = (uint64_t)TG_NCCL_NVLS_LAT_US * 1000000;

		node.dur_ps = lat > own ? lat - own : 0;
	} else if (b->nccl.proto != TG_NCCL_IDEAL) {
		uint32_t e2[2] = { ep, ep };

		node.dur_ps = tg_cb_hop_ps(b, nvl, e2) + (first ? b->nccl.base_ps : 0);
	}
	if ((rc = tg_graph_add(b->c->graph, &node, &join, 1, id)) == 0)
		(*b->c->n_msgs)++;
	return rc;
}

/* A zero-length node after every node of @d[who[i]] and @d2[who[i]] (NULL:
 * none) for i < @n (or, when @d is NULL, the instance's gate or the
 * compute phase of each rank who[i]): the point where a reduction's
 * members are all ready. */
static int tg_innet_join(struct tg_cb *b, const struct tg_deps *d, const struct tg_deps *d2,
			 const uint32_t *who, uint32_t n, uint32_t *join)
{
	struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .start_ps = b->proto.start_ps,
				.coll = b->coll };
	struct tg_deps all = { 0 };
	int rc = 0;

	for (uint32_t i = 0; i < n && rc == 0; i++) {
		if (d)
			for (uint32_t k = 0; k < d[who[i]].n && rc == 0; k++)
				rc = tg_deps_add(&all, d[who[i]].v[k]);
		else if (b->rank_gate && b->rank_gate[who[i]] != TG_NO_GATE)
			rc = tg_deps_add(&all, b->rank_gate[who[i]]);
		for (uint32_t k = 0; d2 && k < d2[who[i]].n && rc == 0; k++)
			rc = tg_deps_add(&all, d2[who[i]].v[k]);
	}
	if (rc == 0 && !d && !b->rank_gate && b->gate != TG_NO_GATE)
		rc = tg_deps_add(&all, b->gate);
	if (rc == 0)
		rc = tg_graph_add(b->c->graph, &node, all.v, all.n, join);
	tg_deps_free(&all);
	return rc;
}

/* Every rank's S through one tree (one per channel): ranks of one NVLink
 * domain (@nvl) in their NVLink switch, others through their own NICs.
 * With data, a rank's part goes from its buffer and the sum comes back to
 * the same place (the switches add the payloads, switch/sw_agg.c). */
static int tg_innet_flat(struct tg_cb *b, bool nvl, uint32_t *ep, uint32_t *msg, uint32_t *who,
			 const struct cfg_node *at)
{
	uint32_t join, id;
	int rc = 0;

	for (uint32_t r = 0; r < b->n; r++)
		who[r] = r;
	if ((rc = tg_innet_join(b, NULL, NULL, who, b->n, &join)) != 0)
		return rc;
	for (uint32_t c = 0; c < b->channels && rc == 0; c++) {
		uint64_t bytes = tg_innet_bytes(b, c, nvl);
		uint16_t chan = (uint16_t)(TG_CHAN_INNET + c);

		for (uint32_t r = 0; r < b->n && rc == 0; r++) {
			ep[r] = tg_innet_ep(b, r, nvl);
			rc = tg_innet_xfer(b, ep[r], nvl, bytes, chan, join, true, &msg[r], &id);
			if (rc == 0 && b->data) {
				/* The rank's part goes up from its buffer and the
				 * switches' sum comes back in its place. */
				uint64_t off = tg_coll_off(b, b->bytes, b->channels, c);
				struct tg_data_xfer x = { .msg = msg[r], .coll = b->dcoll, .src_rank = r,
							  .dst_rank = r, .src_off = off, .dst_off = off,
							  .act = TG_DATA_PLACE };

				rc = tg_data_add_xfer(&b->c->graph->data, &x);
			}
		}
		if (rc == 0)
			rc = tg_innet_group(b->c->graph, b, chan, ep, msg, b->n, at);
	}
	return rc;
}

/* Ranks per node when the ranks are the same @g > 1 GPUs of each of two
 * nodes or more (node by node, tg_coll_node_runs), each node's in one
 * NVLink domain: NCCL's CollNet shape applies; else 0. */
static uint32_t tg_innet_g(const struct tg_cb *b)
{
	uint32_t g = b->t->gpus.nvl ? tg_coll_node_runs(b) : 0;

	for (uint32_t i = 0; g && i < b->n; i++)
		if (!tg_cb_same_domain(b, i, (i / g) * g))
			return 0;
	return g;
}

enum { TG_INNET_MAX_ROUNDS = 16 };

/* The rounds CollNet's shape pipelines a channel's @part in: chunks of
 * a slice per GPU of the node, at most TG_INNET_MAX_ROUNDS. */
static uint32_t tg_innet_rounds(const struct tg_cb *b, uint32_t g, uint64_t part)
{
	uint64_t per = (uint64_t)g * (b->slice_bytes ? b->slice_bytes : 1);
	uint64_t r = (part + per - 1) / per;

	return r < 1 ? 1 : r > TG_INNET_MAX_ROUNDS ? TG_INNET_MAX_ROUNDS : (uint32_t)r;
}

/* Move @from's lists into @to (emptied first) and empty @from. */
static void tg_innet_take(struct tg_deps *to, struct tg_deps *from, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		tg_deps_free(&to[i]);
		to[i] = from[i];
		from[i] = (struct tg_deps){ 0 };
	}
}

/* One round of CollNet's shape on channel @c over @order (the dependency
 * lists are by position in it): the
 * reduce-scatter rings after @rs (the round before's; NULL: none), each
 * local GPU's reduced 1/g through its rail's tree after its node's and
 * the round before's (@net), the all-gather rings after that and @ag.
 * @rs, @net, @ag get this round's ends. */
static int tg_innet_round(struct tg_cb *b, uint32_t g, uint32_t c, const uint32_t *order, uint64_t base,
			  uint64_t bytes, bool first, struct tg_deps *rs, struct tg_deps *net,
			  struct tg_deps *ag, struct tg_deps *tmp, uint32_t *ep, uint32_t *msg,
			  uint32_t *who, const struct cfg_node *at)
{
	uint32_t nodes = b->n / g;
	int rc = 0;

	for (uint32_t m = 0; m < nodes && rc == 0; m++)
		rc = tg_ring(b, &order[m * g], g, base, bytes, TG_RING_RS, 0, (uint16_t)c, TG_COLL_NO_RAIL,
			     first ? NULL : &rs[m * g], &tmp[m * g]);
	tg_innet_take(rs, tmp, b->n);
	for (uint32_t i = 0; i < g && rc == 0; i++) {
		/* The chunk position i holds reduced (with data: i + 1, as the
		 * ring leaves it, tg_coll_hier.c). */
		uint32_t k = b->data ? (i + 1) % g : i, join, id;
		uint16_t chan = (uint16_t)(TG_CHAN_INNET + c);
		struct tg_data_xfer x = { .coll = b->dcoll, .act = TG_DATA_PLACE,
					  .src_off = base + tg_coll_off(b, bytes, g, k) };

		x.dst_off = x.src_off;
		/* Positions in the order (the lists are by position). */
		for (uint32_t m = 0; m < nodes; m++)
			who[m] = m * g + i;
		if ((rc = tg_innet_join(b, rs, net, who, nodes, &join)) != 0)
			break;
		for (uint32_t m = 0; m < nodes && rc == 0; m++) {
			ep[m] = tg_innet_ep(b, order[who[m]], false);
			rc = tg_innet_xfer(b, ep[m], false, tg_coll_part(b, bytes, g, k), chan, join, false,
					   &msg[m], &id);
			if (rc == 0)
				rc = tg_deps_add(&tmp[who[m]], id);
			x.msg = msg[m];
			x.src_rank = x.dst_rank = order[who[m]];
			if (rc == 0 && b->data)
				rc = tg_data_add_xfer(&b->c->graph->data, &x);
		}
		if (rc == 0)
			rc = tg_innet_group(b->c->graph, b, chan, ep, msg, nodes, at);
	}
	tg_innet_take(net, tmp, b->n);
	/* The all-gather waits for the tree's result and the round before's. */
	for (uint32_t r = 0; r < b->n && rc == 0; r++)
		for (uint32_t k = 0; k < ag[r].n && rc == 0; k++)
			rc = tg_deps_add(&tmp[r], ag[r].v[k]);
	for (uint32_t r = 0; r < b->n && rc == 0; r++)
		for (uint32_t k = 0; k < net[r].n && rc == 0; k++)
			rc = tg_deps_add(&tmp[r], net[r].v[k]);
	for (uint32_t r = 0; r < b->n; r++)
		ag[r].n = 0;
	for (uint32_t m = 0; m < nodes && rc == 0; m++)
		rc = tg_ring(b, &order[m * g], g, base, bytes, TG_RING_AG, b->data ? 1 : 0,
			     (uint16_t)(2 * b->channels + c), TG_COLL_NO_RAIL, &tmp[m * g], &ag[m * g]);
	for (uint32_t r = 0; r < b->n; r++)
		tmp[r].n = 0;
	return rc;
}

/* NCCL's CollNet (Direct) shape over @g GPUs a node: per channel, in
 * rounds that pipeline (tg_innet_rounds), a reduce-scatter ring inside
 * each node over NVLink, each GPU's reduced 1/g through the tree of its
 * rail (its own NIC; one tree per local GPU, the same GPU of every node),
 * an all-gather ring inside each node from what came back. A stage of a
 * round waits for its input and for the same stage of the round before. */
static int tg_innet_collnet(struct tg_cb *b, uint32_t g, uint32_t *ep, uint32_t *msg, uint32_t *who,
			    const struct cfg_node *at)
{
	uint32_t *order = malloc(sizeof(*order) * b->n);
	struct tg_deps *d = calloc(4 * (size_t)b->n, sizeof(*d));
	int rc = order && d ? 0 : -ENOMEM;

	for (uint32_t c = 0; c < b->channels && rc == 0; c++) {
		uint64_t base = tg_coll_off(b, b->bytes, b->channels, c);
		uint64_t part = tg_coll_part(b, b->bytes, b->channels, c);
		uint32_t rounds = tg_innet_rounds(b, g, part);

		for (uint32_t i = 0; i < 4 * b->n; i++)
			d[i].n = 0;
		tg_coll_ring_order(b, c, order);
		for (uint32_t j = 0; j < rounds && rc == 0; j++)
			rc = tg_innet_round(b, g, c, order, base + tg_coll_off(b, part, rounds, j),
					    tg_coll_part(b, part, rounds, j), j == 0, d, d + b->n,
					    d + 2 * b->n, d + 3 * b->n, ep, msg, who, at);
	}
	for (uint32_t i = 0; d && i < 4 * b->n; i++)
		tg_deps_free(&d[i]);
	free(d);
	free(order);
	return rc;
}

static int tg_coll_innet_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	uint32_t *who = malloc(sizeof(*who) * b->n), g;
	uint32_t *ep = malloc(sizeof(*ep) * b->n), *msg = malloc(sizeof(*msg) * b->n);
	bool nvl = true;
	int rc;

	if (!who || !ep || !msg) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t r = 1; r < b->n && nvl; r++)
		nvl = tg_cb_same_domain(b, 0, r);
	g = nvl ? 0 : tg_innet_g(b);
	if ((b->data && nvl) || b->proto.qp_mode == TG_QP_PER_MESSAGE || b->proto.qps != 1 ||
	    b->n < 2) {
		cfg_errorf(err, at, "algorithm in-network: %s",
			   b->data ? "data: true over the ranks' NICs only (NVLS carries NCCL's (n + 1)/n x S, not the data)"
			   : b->n < 2 ? "needs two ranks or more"
			   : "needs one QP per connection (qp: per-connection, qps: 1): the switches "
			     "know each rank's by its number");
		rc = -EINVAL;
		goto out;
	}
	rc = g ? tg_innet_collnet(b, g, ep, msg, who, at) : tg_innet_flat(b, nvl, ep, msg, who, at);
out:
	free(who);
	free(ep);
	free(msg);
	return rc;
}

/* A transfer per rank and channel after a join of the ranks' gates; in
 * CollNet's shape the two rings in each node around it. */
static uint64_t tg_coll_innet_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint64_t x = (uint64_t)b->n * b->channels;
	uint32_t g = tg_innet_g(b);

	e->msgs = tg_est_add(e->msgs, x);
	e->ops = tg_est_add(e->ops, x + (g ? g : 1) * (uint64_t)b->channels);
	e->deps = tg_est_add(e->deps, 3 * x + b->n);
	for (uint32_t c = 0; g && c < b->channels; c++) {
		uint64_t part = tg_coll_part(b, b->bytes, b->channels, c);
		uint32_t rounds = tg_innet_rounds(b, g, part);

		for (uint32_t j = 0; j < rounds; j++) {
			uint64_t bytes = tg_coll_part(b, part, rounds, j);
			uint64_t a = tg_est_ring(b, g, bytes, 1, j ? 2 : 0, rg, b->n / g, e);

			tg_est_ring(b, g, bytes, 1, a + 1, rg, b->n / g, e);
		}
		e->msgs = tg_est_add(e->msgs, (uint64_t)b->n * (rounds - 1));
		e->ops = tg_est_add(e->ops, ((uint64_t)b->n + g) * (rounds - 1));
		e->deps = tg_est_add(e->deps, 3 * (uint64_t)b->n * (rounds - 1));
	}
	return g ? 3 * x : x;
}

const struct tg_coll_alg_ops tg_coll_innet_alg = {
	.kind = { "in-network", "all-reduce: the switches reduce (SHARP; NVLS in an NVLink domain)",
		  NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_REDUCE,
	.rail_channels = 1,
	.build = tg_coll_innet_build,
	.est = tg_coll_innet_est,
};
