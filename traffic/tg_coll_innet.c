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
 * switch's reduction, which gives each link the same load. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_coll_int.h"
#include "tg_nccl.h"

/* The group of (workload, channel tag, communicator) in @g, or a new one
 * for the @n endpoints @ep (their messages @msg), asked for at @at. 0 or
 * -ENOMEM. */
static int tg_innet_group(struct tg_graph *g, const struct tg_cb *b, uint16_t chan,
			  const uint32_t *ep, const uint32_t *msg, uint32_t n, const struct cfg_node *at)
{
	struct tg_agg *v, *a;

	for (uint32_t i = 0; i < g->n_aggs; i++)
		if (g->aggs[i].workload == b->proto.workload && g->aggs[i].chan == chan &&
		    g->aggs[i].comm == b->proto.comm)
			return 0; /* an earlier instance's: the same connections */
	if (!(v = realloc(g->aggs, sizeof(*v) * (g->n_aggs + 1))))
		return -ENOMEM;
	g->aggs = v;
	a = &v[g->n_aggs];
	*a = (struct tg_agg){ .workload = b->proto.workload, .chan = chan, .comm = b->proto.comm,
			      .n = n, .dscp = b->proto.dscp, .at = at };
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

/* Rank @r's part of channel @c on the wire: its part of S, NVLS's
 * (n + 1)/n of it in an NVLink domain, under the NCCL model at the share
 * of NVLink's rate NCCL's copies reach and NVLS's efficiency. */
static uint64_t tg_innet_bytes(const struct tg_cb *b, uint32_t c, bool nvl)
{
	uint64_t part = tg_coll_part(b, b->bytes, b->channels, c);

	if (!nvl)
		return part;
	part += part / b->n;
	if (b->nccl.proto == TG_NCCL_IDEAL)
		return part;
	return (uint64_t)((double)tg_nccl_wire(&b->nccl, true, part) * 1e6 / TG_NCCL_NVLS_EFF_PPM);
}

static int tg_coll_innet_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	struct tg_graph *g = b->c->graph;
	uint32_t *gates = malloc(sizeof(*gates) * b->n), n_gates = 0, join;
	uint32_t *ep = malloc(sizeof(*ep) * b->n), *msg = malloc(sizeof(*msg) * b->n);
	bool nvl = true;
	int rc = 0;

	if (!gates || !ep || !msg) {
		rc = -ENOMEM;
		goto out;
	}
	if (b->data || b->proto.qp_mode == TG_QP_PER_MESSAGE || b->proto.qps != 1 || b->n < 2) {
		cfg_errorf(err, at, "algorithm in-network: %s",
			   b->data ? "the switches count packets, they do not add values: no data: true"
			   : b->n < 2 ? "needs two ranks or more"
			   : "needs one QP per connection (qp: per-connection, qps: 1): the switches "
			     "know each rank's by its number");
		rc = -EINVAL;
		goto out;
	}
	for (uint32_t r = 1; r < b->n && nvl; r++)
		nvl = tg_cb_same_domain(b, 0, r);
	/* Every rank is ready: its gate (the previous instance) or its
	 * compute phase. */
	for (uint32_t r = 0; b->rank_gate && r < b->n; r++)
		if (b->rank_gate[r] != TG_NO_GATE)
			gates[n_gates++] = b->rank_gate[r];
	if (!b->rank_gate && b->gate != TG_NO_GATE)
		gates[n_gates++] = b->gate;
	{
		struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX,
					.start_ps = b->proto.start_ps, .coll = b->coll };

		if ((rc = tg_graph_add(g, &node, gates, n_gates, &join)) != 0)
			goto out;
	}
	for (uint32_t c = 0; c < b->channels && rc == 0; c++) {
		uint64_t bytes = tg_innet_bytes(b, c, nvl);
		uint16_t chan = (uint16_t)(TG_CHAN_INNET + c);

		for (uint32_t r = 0; r < b->n && rc == 0; r++) {
			struct tg_node node = { .kind = TG_NODE_XFER, .start_ps = b->proto.start_ps,
						.coll = b->coll };
			struct tg_msg *m;
			uint32_t id;

			if ((rc = tg_wl_msgs_room(b->c, 1)) != 0)
				break;
			m = &(*b->c->msgs)[*b->c->n_msgs];
			*m = b->proto;
			m->src = m->dst = ep[r] = tg_innet_ep(b, r, nvl);
			m->chan = chan;
			m->bytes = bytes;
			msg[r] = node.msg = *b->c->n_msgs;
			if (b->nccl.proto != TG_NCCL_IDEAL) {
				uint32_t e2[2] = { ep[r], ep[r] };

				node.dur_ps = tg_cb_hop_ps(b, nvl, e2) + b->nccl.base_ps;
			}
			if ((rc = tg_graph_add(g, &node, &join, 1, &id)) == 0)
				(*b->c->n_msgs)++;
		}
		if (rc == 0)
			rc = tg_innet_group(g, b, chan, ep, msg, b->n, at);
	}
out:
	free(gates);
	free(ep);
	free(msg);
	return rc;
}

/* A transfer per rank and channel after one join of every rank's gate. */
static uint64_t tg_coll_innet_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint64_t x = (uint64_t)b->n * b->channels;

	(void)rg;
	e->msgs = tg_est_add(e->msgs, x);
	e->ops = tg_est_add(e->ops, x + 1);
	e->deps = tg_est_add(e->deps, x + b->n);
	return x;
}

const struct tg_coll_alg_ops tg_coll_innet_alg = {
	.kind = { "in-network", "all-reduce: the switches reduce (SHARP; NVLS in an NVLink domain)",
		  NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_REDUCE,
	.rail_channels = 1,
	.build = tg_coll_innet_build,
	.est = tg_coll_innet_est,
};
