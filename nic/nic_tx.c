/* Requester transmit path: the port pulls the next packet when it is free;
 * QPs with data take turns (round robin), each paced to its congestion
 * control's rate. A QP that must wait arms one timer per port. */
#include "nic_int.h"

static void nic_act_insert(struct nic_port_state *ps, struct nic_qp *qp)
{
	struct nic_qp *h = ps->act_head;

	if (!h) {
		qp->act_next = qp->act_prev = qp;
		ps->act_head = qp;
	} else {
		/* Behind the head: last in this round. */
		qp->act_next = h;
		qp->act_prev = h->act_prev;
		h->act_prev->act_next = qp;
		h->act_prev = qp;
	}
	qp->active = 1;
}

static void nic_act_remove(struct nic_port_state *ps, struct nic_qp *qp)
{
	if (qp->act_next == qp) {
		ps->act_head = NULL;
	} else {
		qp->act_prev->act_next = qp->act_next;
		qp->act_next->act_prev = qp->act_prev;
		if (ps->act_head == qp)
			ps->act_head = qp->act_next;
	}
	qp->act_next = qp->act_prev = NULL;
	qp->active = 0;
}

static inline bool nic_qp_has_data(const struct nic_qp *qp)
{
	return qp->send_idx != qp->post_idx;
}

void nic_qp_activate(struct nic_qp *qp)
{
	struct nic *n = qp->nic;

	if (!qp->active && nic_qp_has_data(qp))
		nic_act_insert(&n->ps[qp->port], qp);
	port_kick(&n->ports[qp->port]);
}

static void nic_timer(struct sim *sim, void *obj)
{
	struct nic_port_state *ps = obj;

	(void)sim;
	ps->timer_ps = 0;
	port_kick(&ps->nic->ports[ps->index]);
}

static void nic_arm_timer(struct nic *n, struct nic_port_state *ps, uint64_t at_ps)
{
	if (ps->timer_ps && ps->timer_ps <= at_ps)
		return;
	/* An earlier wake-up replaces a later one; the later event still fires
	 * and finds nothing to do (a kick of a busy or empty port is cheap). */
	ps->timer_ps = at_ps;
	sim_at(n->sim, at_ps, &ps->timer_src, nic_timer, ps);
}

static uint8_t nic_opcode(uint8_t wr_op, bool first, bool last)
{
	if (wr_op == IBV_WR_RDMA_WRITE) {
		if (first)
			return last ? PKT_OP_WRITE_ONLY : PKT_OP_WRITE_FIRST;
		return last ? PKT_OP_WRITE_LAST : PKT_OP_WRITE_MIDDLE;
	}
	if (first)
		return last ? PKT_OP_SEND_ONLY : PKT_OP_SEND_FIRST;
	return last ? PKT_OP_SEND_LAST : PKT_OP_SEND_MIDDLE;
}

/* Build the next packet of @qp's current request. */
static struct rte_mbuf *nic_qp_next_pkt(struct nic *n, struct nic_qp *qp)
{
	struct nic_wr *wr = &qp->wrs[qp->send_idx & qp->wr_mask];
	uint64_t left = wr->bytes - qp->send_off;
	uint32_t len = left > qp->mtu_bytes ? qp->mtu_bytes : (uint32_t)left;
	bool first = qp->send_off == 0, last = len == left;
	struct rte_mbuf *m = sim_pkt_alloc(n->sim, true);
	struct pkt_roce f;

	if (unlikely(!m)) {
		n->sim->n_alloc_fail++;
		return NULL;
	}
	f.addr = qp->addr;
	f.opcode = nic_opcode(wr->opcode, first, last);
	f.se = false;
	f.ack_req = last;
	f.becn = false;
	f.pkey = 0xFFFF;
	f.dest_qp = qp->dest_qpn;
	f.psn = qp->next_psn;
	f.reth_va = wr->remote_addr;
	f.reth_rkey = wr->rkey;
	f.reth_len = (uint32_t)wr->bytes;
	f.aeth_syndrome = 0;
	f.aeth_msn = 0;
	f.payload_bytes = len;
	if (unlikely(pkt_build_roce(m, &f, n->p.payload ? n->pattern : NULL) != 0)) {
		sim_pkt_free(n->sim, m);
		n->sim->n_alloc_fail++;
		return NULL;
	}
	pkt_meta(m)->tc = qp->tc;
	pkt_meta(m)->sent_ps = n->sim->now_ps;
	n->stats.tx_data_pkts++;
	n->stats.tx_payload_bytes += len;
	qp->send_off += len;
	if (last) {
		wr->last_psn = qp->next_psn;
		qp->send_idx++;
		qp->send_off = 0;
	}
	qp->next_psn = nic_psn_add(qp->next_psn, 1);
	return m;
}

struct rte_mbuf *nic_pull(void *owner, struct port *p)
{
	struct nic *n = owner;
	struct nic_port_state *ps = &n->ps[p->index];
	uint64_t now = n->sim->now_ps, wake = UINT64_MAX;
	struct nic_qp *qp = ps->act_head, *start = qp;
	struct rte_mbuf *m;

	if (!qp)
		return NULL;
	/* The first QP in turn that its pacing allows and whose class is not
	 * paused by PFC (a pause ending restarts the port by itself). */
	do {
		if (!(p->paused_mask & (1u << qp->tc))) {
			if (qp->next_ok_ps <= now)
				break;
			if (qp->next_ok_ps < wake)
				wake = qp->next_ok_ps;
		}
		qp = qp->act_next;
	} while (qp != start);
	if (qp->next_ok_ps > now || (p->paused_mask & (1u << qp->tc))) {
		if (wake != UINT64_MAX)
			nic_arm_timer(n, ps, wake);
		return NULL;
	}
	m = nic_qp_next_pkt(n, qp);
	if (unlikely(!m)) {
		/* Pool empty: retry once a frame time has passed. */
		nic_arm_timer(n, ps, now + port_frame_ps(qp->mtu_bytes, p->rate_bps));
		return NULL;
	}
	{
		uint64_t rate = n->p.cc->rate_bps(qp->cc_priv);

		if (rate < p->rate_bps)
			qp->next_ok_ps = now + port_frame_ps(pkt_meta(m)->frame_bytes, rate);
	}
	ps->act_head = qp->act_next;
	if (!nic_qp_has_data(qp))
		nic_act_remove(ps, qp);
	return m;
}
