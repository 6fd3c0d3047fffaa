/* InfiniBand congestion control at a switch: the glue of the congestion
 * point (IBTA Vol 1 Annex A10) around the math of sw_ibcc.h. The IB
 * forwarding path calls sw_ibcc_mark for each data packet it queues on an
 * egress VL; the marks it sets (BTH FECN) make the destination return a
 * BECN, on which the source's ibcc (cc/cc_ibcc.c) slows down. */
#include "pkt_ll.h"
#include "sw_int.h"

void sw_ibcc_mark(struct sw *s, struct port *p, struct rte_mbuf *m, uint8_t vl,
		  uint32_t frame_bytes, uint64_t q_bytes, bool starved)
{
	const struct sw_ibcc_params *c = &s->p.ib_cc;
	struct sw_port_x *x = &s->px[port_index(p)];

	if (!sw_ibcc_eligible(c, port_index(p), vl, frame_bytes, q_bytes, starved))
		return;
	/* Marked upstream already: it carries the news, and takes no turn. */
	if (pkt_ll_ecn(PKT_LL_IB, m) == PKT_ECN_CE)
		return;
	if (!sw_ibcc_take(&s->ibcc_skip[port_index(p)][vl], c->marking_rate))
		return;
	pkt_ll_mark_ce(PKT_LL_IB, m);
	s->stats.fecn_marked++;
	x->stats.fecn_marked++;
}
