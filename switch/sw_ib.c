/* The switch on native InfiniBand: forwarding on the LRH's destination
 * LID through a linear forwarding table filled by a routing engine at
 * start-up (the subnet manager's job: OpenSM's minhop and ftree), or per
 * packet among the same min-hop ports by the path-choice policy (IB
 * adaptive routing); SL-to-VL mapping per egress port; FECN marking of
 * IB congestion control (sw_ibcc.c, not fabric.ecn's RED); and the same MMU
 * as Ethernet, whose lossless groups are the (ingress port, VL) buffers
 * the credits of core/port_credit.c stand for. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pkt_ib.h"
#include "pkt_view.h"
#include "port_credit.h"
#include "sim.h"
#include "sw_int.h"

const char *const sw_ib_routing_names[SW_IB_ROUTE_N + 1] = {
	[SW_IB_ROUTE_MINHOP] = "minhop",
	[SW_IB_ROUTE_FTREE] = "ftree",
	[SW_IB_ROUTE_N] = NULL,
};

/* The group of endpoint @ep under the tables being built (or in use). */
static uint32_t sw_ib_grp_of(const struct fib_rows *fib, const uint16_t *class_grp,
			     const uint16_t *direct_grp, const uint32_t *grp_off, uint32_t ep)
{
	uint32_t g = class_grp[fib->ep_class[ep]], i = ep - fib->direct_lo;

	if (grp_off[g + 1] == grp_off[g] && i < fib->direct_n)
		g = direct_grp[i];
	return g;
}

int sw_ib_lft_build(uint8_t engine, uint8_t tier, const struct fib_rows *fib,
		    const uint16_t *class_grp, const uint16_t *direct_grp, const uint32_t *grp_off,
		    const uint16_t *grp_ports, uint16_t n_ports, uint16_t **out)
{
	uint16_t *pick = calloc(fib->n_eps ? fib->n_eps : 1, sizeof(*pick));
	uint32_t *routed = calloc(n_ports ? n_ports : 1, sizeof(*routed));

	*out = NULL;
	if (!pick || !routed) {
		free(pick);
		free(routed);
		return -ENOMEM;
	}
	/* LIDs in order, as a subnet manager walks them (LID = endpoint + 1). */
	for (uint32_t ep = 0; ep < fib->n_eps; ep++) {
		uint32_t g = sw_ib_grp_of(fib, class_grp, direct_grp, grp_off, ep);
		uint32_t o = grp_off[g], n = grp_off[g + 1] - o, best = 0;

		if (n < 2)
			continue;
		if (engine == SW_IB_ROUTE_FTREE) {
			/* d-mod-k (Zahavi, "D-Mod-K Routing Providing Non-Blocking
			 * Traffic for Shift Permutations on Real Life Fat Trees",
			 * 2010): a switch of tier t takes digit t - 1 of the LID in
			 * base n, so that the tiers spread destinations on
			 * independent digits. */
			uint64_t div = 1;

			for (uint8_t t = 1; t < tier; t++)
				div *= n;
			best = (uint32_t)((ep / div) % n);
		} else {
			/* minhop: the port carrying the fewest destinations so far
			 * (OpenSM's balancing), the lowest on a tie. */
			for (uint32_t k = 1; k < n; k++)
				if (routed[grp_ports[o + k]] < routed[grp_ports[o + best]])
					best = k;
		}
		routed[grp_ports[o + best]]++;
		pick[ep] = (uint16_t)best;
	}
	free(routed);
	*out = pick;
	return 0;
}

void sw_set_port_sl2vl(struct sw *s, uint16_t i, const uint8_t map[SW_IB_N_SL])
{
	if (s->port_sl2vl && i < s->n_ports)
		memcpy(s->port_sl2vl[i], map, SW_IB_N_SL);
}

uint16_t sw_ib_lft_port(const struct sw *s, uint32_t ep)
{
	uint32_t g, o;

	if (!sw_on_ib(s) || !s->lft_pick || ep >= s->n_eps || sw_ep_grp(s, ep, &g, &o) == 0)
		return UINT16_MAX;
	return s->grp_ports[o + s->lft_pick[ep]];
}

/* A packet dropped before the MMU took it: its blocks still go back to
 * the sender as credits (the buffer it held on arrival is free). */
static void sw_ib_drop(struct sw *s, struct port *in, struct rte_mbuf *m, enum sw_drop_reason r)
{
	port_credit_release(in, pkt_meta(m)->tc, pkt_meta(m)->frame_bytes);
	sw_drop(s, m, r);
}

/* The data path of a packet arriving on @in, the in-network reduction's
 * work compiled in or out (@agg, a constant in each caller). */
static inline __attribute__((always_inline)) void sw_rx_ib_body(void *owner, struct port *in,
								 struct rte_mbuf *m, bool agg)
{
	struct sw *s = owner;
	struct pkt_meta *pm = pkt_meta(m);
	uint8_t *d = pkt_data(m);
	uint16_t in_port = (uint16_t)(in - s->ports);
	uint32_t ep, g, o, n, pick;
	struct pkt_view v;
	struct port *op;
	struct sw_admit adm;
	uint8_t in_vl, vl;
	uint16_t out;

	s->stats.rx_pkts++;
	if (unlikely(pkt_view_l3(&v, PKT_LL_IB, d, pm->frame_bytes) != 0)) {
		sw_ib_drop(s, in, m, SW_DROP_PARSE);
		return;
	}
	/* LID l is endpoint l - 1 (LID 0 is reserved: no endpoint). */
	ep = v.dst - 1;
	if (unlikely(v.dst == 0 || ep >= s->n_eps)) {
		sw_ib_drop(s, in, m, SW_DROP_NO_ROUTE);
		return;
	}
	n = sw_ep_grp(s, ep, &g, &o);
	if (unlikely(n == 0)) {
		sw_ib_drop(s, in, m, SW_DROP_NO_ROUTE);
		return;
	}
	pick = 0;
	if (n > 1) {
		if (s->path_kind == SW_PATH_ECMP || s->path_kind == SW_PATH_FIRST) {
			/* Static routing: the subnet manager's table. */
			pick = s->lft_pick[ep];
		} else {
			/* Adaptive routing: the policy chooses among the ports,
			 * its flow hash from the LIDs and the destination QP. */
			uint32_t h;

			if (unlikely(pkt_view_flow(&v, d, pm->frame_bytes) != 0)) {
				sw_ib_drop(s, in, m, SW_DROP_PARSE);
				return;
			}
			h = sw_ecmp_hash(s->hash_seed, v.src, v.dst, v.proto, v.sport, v.dport);
			pick = s->path_pick(&s->path_env, g, &s->grp_ports[o], n, s->grp_magic[g], h);
		}
	}
	out = s->grp_ports[o + pick];
	/* The VL it came on (the sender's port stamps it in the metadata,
	 * as in the LRH). */
	in_vl = pm->tc & (PKT_N_PRIO - 1);
	if (agg && pm->kind == PKT_KIND_DATA && sw_agg_rx(s, in_port, m, &v, ep, out, in_vl, 0))
		return;
	op = &s->ports[out];
	vl = s->port_sl2vl[out][v.cls & (SW_IB_N_SL - 1)];
	if (vl != in_vl)
		pkt_ib_set_vl(m, vl);
	/* The ingress buffer charged is that of the VL it came on. */
	if (unlikely(sw_mmu_admit(s, in_port, in_vl, op, vl, pm->frame_bytes,
				  &adm) != 0)) {
		s->px[out].stats.drops[adm.drop]++;
		sw_ib_drop(s, in, m, (enum sw_drop_reason)adm.drop);
		return;
	}
	pm->tc = vl;
	s->stats.fwd_pkts++;
	/* IB congestion control marks on the way in: a packet that leaves
	 * had credits, so only here is a credit-starved (victim) VL seen. */
	if (unlikely(s->p.ib_cc.threshold) && pm->kind == PKT_KIND_DATA)
		sw_ibcc_mark(s, op, m, vl, pm->frame_bytes, port_tc_bytes(op, vl),
			     (port_paused_mask(op) >> vl) & 1);
	port_enqueue_tag(op, m, vl, pm->frame_bytes, sw_tag(in_port, in_vl, adm.pool));
}

static void sw_rx_ib(void *owner, struct port *in, struct rte_mbuf *m)
{
	sw_rx_ib_body(owner, in, m, false);
}

static void sw_rx_ib_agg(void *owner, struct port *in, struct rte_mbuf *m)
{
	sw_rx_ib_body(owner, in, m, true);
}

/* A packet leaves a queue of @p: its buffer goes back, and with it the
 * ingress VL's credits (IB CC marked it when it was queued); with @agg
 * (a constant) not for one that holds none (SW_TAG_NOBUF). */
static inline __attribute__((always_inline)) void
sw_departing_ib_body(void *owner, uint8_t tc, uint32_t frame_bytes, uint32_t tag, bool agg)
{
	struct sw *s = owner;

	if (unlikely(tc == PORT_TC_CTRL))
		return; /* flow-control packets hold no buffer */
	if (!agg || sw_tag_holds_buf(tag))
		sw_mmu_release(s, sw_tag_port(tag), sw_tag_prio(tag), sw_tag_pool(tag), frame_bytes);
}

static void sw_departing_ib(void *owner, struct port *p, struct rte_mbuf *m, uint8_t tc,
			    uint32_t frame_bytes, uint32_t tag)
{
	(void)p;
	(void)m;
	sw_departing_ib_body(owner, tc, frame_bytes, tag, false);
}

static void sw_departing_ib_agg(void *owner, struct port *p, struct rte_mbuf *m, uint8_t tc,
				uint32_t frame_bytes, uint32_t tag)
{
	(void)p;
	(void)m;
	sw_departing_ib_body(owner, tc, frame_bytes, tag, true);
}

const struct port_ops sw_port_ops_ib_agg = {
	.rx = sw_rx_ib_agg,
	.departing = sw_departing_ib_agg,
};

const struct port_ops sw_port_ops_ib = {
	.rx = sw_rx_ib,
	.departing = sw_departing_ib,
};
