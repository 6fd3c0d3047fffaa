/* Transmit path: the port pulls the next packet when it is free; QPs with
 * something to send take turns (round robin), each paced to its congestion
 * control's rate. A QP sends, in this order: READ responses it owes as a
 * responder, a READ re-request, selective-repeat resends, then the packet
 * at its send pointer. A QP that must wait arms one timer per port; a QP
 * whose class is paused (PFC) is skipped until the pause ends. */
#include <endian.h>

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
	if (unlikely(ps->nic->uet_pacers != NULL))
		nic_uet_credit_act(ps->nic, ps->index, 1);
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
	if (unlikely(ps->nic->uet_pacers != NULL))
		nic_uet_credit_act(ps->nic, ps->index, -1);
}

/* A pending READ re-request still makes sense (the READ may have completed
 * since); clears it when not. */
static bool nic_rd_rereq_valid(struct nic_qp *qp)
{
	const struct nic_wr *wr = nic_wr_at(qp, qp->done_idx);

	if (qp->done_idx == qp->post_idx || wr->opcode != IBV_WR_RDMA_READ ||
	    nic_psn_diff(qp->ack_psn, qp->snd_una) <= 0) {
		qp->rd_rereq = 0;
		return false;
	}
	return true;
}

/* The request at the send pointer may go: selective repeat keeps it inside
 * the window past the cumulative ACK, a window algorithm keeps the bytes
 * in flight (send pointer to cumulative ACK) below its window, and READs
 * are limited in number. */
static inline bool nic_can_send_new(const struct nic_qp *qp)
{
	const struct nic_wr *wr;

	if (qp->send_idx == qp->post_idx)
		return false;
	if (qp->sack_bits && (uint32_t)nic_psn_diff(qp->next_psn, qp->ack_psn) >= qp->sr_limit)
		return false;
	if (unlikely(qp->cc_window_bytes)) {
		/* UET counts what is in flight packet by packet (resends in,
		 * SACKed and NACKed ones out), as its window is defined. */
		uint32_t inflight = unlikely(nic_uet_rud(qp->nic))
					    ? nic_uet_flight(qp)
					    : (uint32_t)nic_psn_diff(qp->next_psn, qp->ack_psn);

		if ((uint64_t)inflight * qp->mtu_bytes >= qp->cc_window_bytes)
			return false;
	}
	wr = nic_wr_at(qp, qp->send_idx);
	return wr->opcode != IBV_WR_RDMA_READ ||
	       wr->rd_seq - nic_wr_at(qp, qp->done_idx)->rd_seq < NIC_MAX_RD_ATOMIC;
}

/* Anything to send now; the common case (more of the current request)
 * is tested first. */
static inline bool nic_qp_can_send(struct nic_qp *qp)
{
	uint32_t psn;

	if (qp->state != NIC_QP_OK || !qp->connected)
		return false;
	/* UET (RUD): its window and credit bound resends and new data alike. */
	if (unlikely(nic_uet_rud(qp->nic)))
		return nic_uet_window_ok(qp) && (nic_can_send_new(qp) || nic_uet_next_nacked(qp, &psn) ||
						 nic_sr_next_lost(qp, &psn));
	return nic_can_send_new(qp) || qp->rd_head != qp->rd_tail ||
	       (qp->rd_rereq && nic_rd_rereq_valid(qp)) || (qp->sack_bits && nic_sr_next_lost(qp, &psn));
}

void nic_qp_activate(struct nic_qp *qp)
{
	struct nic *n = qp->nic;

	if (!qp->active && nic_qp_can_send(qp))
		nic_act_insert(&n->ps[qp->port], qp);
	port_kick(&n->ports[qp->port]);
}

void nic_qp_deactivate(struct nic_qp *qp)
{
	if (qp->active)
		nic_act_remove(&qp->nic->ps[qp->port], qp);
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

void nic_qp_repace(struct nic_qp *qp, uint64_t old_bps, uint64_t new_bps)
{
	struct nic *n = qp->nic;
	uint64_t now = n->sim->now_ps;

	qp->next_ok_ps = now + (uint64_t)((unsigned __int128)(qp->next_ok_ps - now) * old_bps /
					  new_bps);
	nic_arm_timer(n, &n->ps[qp->port], qp->next_ok_ps);
}

/* Build @f, a frame of @qp with its payload from @payload (NULL: headers
 * only), into a fresh data-pool packet of its class; NULL when the pool is
 * at its data limit. */
static struct rte_mbuf *nic_build(struct nic *n, const struct nic_qp *qp, const struct pkt_roce *f,
				  const uint8_t *payload)
{
	struct rte_mbuf *m = sim_pkt_alloc(n->sim, true);

	if (unlikely(!m)) {
		n->sim->n_alloc_fail++;
		return NULL;
	}
	if (unlikely(pkt_build_roce_tmpl(m, &qp->tmpl, f, payload) != 0)) {
		sim_pkt_free(n->sim, m);
		n->sim->n_alloc_fail++;
		return NULL;
	}
	pkt_meta(m)->tc = qp->tc;
	return m;
}

/* @f for a data frame of @qp (nic_build: addressing comes from the QP's
 * template, so f->addr is left alone). */
static void nic_roce_init(struct pkt_roce *f, const struct nic_qp *qp, uint8_t opcode,
			  uint32_t psn)
{
	f->opcode = opcode;
	f->se = false;
	f->ack_req = false;
	f->becn = false;
	f->pkey = 0xFFFF;
	f->dest_qp = qp->dest_qpn;
	f->psn = psn;
	f->reth_va = 0;
	f->reth_rkey = 0;
	f->reth_len = 0;
	f->aeth_syndrome = 0;
	f->aeth_msn = 0;
	f->payload_bytes = 0;
}

/* The packets a send work request of @wr_op is made of (WRITE or SEND). */
static inline enum pkt_xfer nic_xfer(uint8_t wr_op)
{
	return wr_op == IBV_WR_RDMA_WRITE	   ? PKT_XFER_WRITE
	       : wr_op == IBV_WR_RDMA_WRITE_WITH_IMM ? PKT_XFER_WRITE_IMM
						     : PKT_XFER_SEND;
}

/* Build the packet of request @idx at @psn: one data packet, or a READ
 * request for the rest of the READ from @psn on. *@end_psn is the last PSN
 * it covers. */
static struct rte_mbuf *nic_build_req(struct nic *n, struct nic_qp *qp, uint32_t idx,
				      uint32_t psn, uint32_t *end_psn)
{
	const struct nic_wr *wr = nic_wr_at(qp, idx);
	uint64_t off = (uint64_t)(uint32_t)nic_psn_diff(psn, wr->first_psn) * qp->mtu_bytes;
	uint64_t left = wr->bytes - off;
	const uint8_t *payload = n->pattern;
	struct rte_mbuf *m;
	struct pkt_roce f;
	bool retx;

	if (wr->opcode == IBV_WR_RDMA_READ) {
		nic_roce_init(&f, qp, PKT_OP_READ_REQ, psn);
		f.reth_va = wr->remote_addr + off;
		f.reth_rkey = wr->rkey;
		f.reth_len = (uint32_t)left;
		*end_psn = wr->last_psn;
	} else {
		uint32_t len = left > qp->mtu_bytes ? qp->mtu_bytes : (uint32_t)left;
		bool last = psn == wr->last_psn;

		nic_roce_init(&f, qp, pkt_opcode(nic_xfer(wr->opcode), off == 0, last), psn);
		f.imm_data = be32toh(wr->imm_data);
		/* Memory: the bytes at the SGE's address, at this packet's offset. */
		if (unlikely(qp->mem) && payload)
			payload = (const uint8_t *)(uintptr_t)(qp->wr_laddrs[idx & qp->wr_mask] + off);
		/* AckReq on a message's last packet, and on the packet that fills a
		 * window algorithm's window (else the responder, coalescing, would
		 * leave a window-limited sender waiting for its timeout). */
		f.ack_req = last ||
			    (unlikely(qp->cc_window_bytes) &&
			     (uint64_t)(uint32_t)(nic_psn_diff(psn, qp->ack_psn) + 1) * qp->mtu_bytes >=
				     qp->cc_window_bytes);
		f.reth_va = wr->remote_addr;
		f.reth_rkey = wr->rkey;
		f.reth_len = (uint32_t)wr->bytes;
		f.payload_bytes = len;
		*end_psn = psn;
	}
	retx = nic_psn_diff(psn, qp->max_psn) < 0;
	if (unlikely(nic_on_uet(n))) {
		/* UET's fields (pkt.h), only for its frames: RoCE's and IB's
		 * builders read none of them. */
		f.ev = nic_uet_ev(qp);
		f.spdcid = (uint16_t)qp->qpn;
		f.uet_acked_psn = 0;
		f.sack_bits = 0;
		f.addr.src_ip = qp->addr.src_ip; /* the SES initiator */
		f.msg_offset = (uint32_t)off;
		f.msg_id = (uint16_t)wr->first_psn;
		f.uet_retx = retx;
		f.uet_rod = n->p.uet_rod;
		/* UET asks for an ACK on every resend, and when this packet
		 * fills the window as RUD counts it (packets in flight). */
		f.ack_req = f.ack_req || retx ||
			    (nic_uet_rud(n) && unlikely(qp->cc_window_bytes) &&
			     (uint64_t)(nic_uet_flight(qp) + 1) * qp->mtu_bytes >= qp->cc_window_bytes);
		f.uet_cc = nic_uet_has_credit(qp);
		if (f.uet_cc)
			/* RCCC: the credit it spends (its wire bytes) and the
			 * target it carries. */
			f.uet_credit = nic_uet_credit_send(qp, f.payload_bytes, retx, &f.ack_req);
	}
	m = nic_build(n, qp, &f, payload);
	if (unlikely(!m))
		return NULL;
	if (unlikely(nic_on_uet(n)))
		nic_uet_sent(qp, psn, retx); /* in flight now: its send time, for RTTs */
	if (wr->opcode == IBV_WR_RDMA_READ) {
		n->stats.tx_read_reqs++;
	} else {
		n->stats.tx_data_pkts++;
		n->stats.tx_payload_bytes += f.payload_bytes;
	}
	if (retx) {
		qp->stats.retx_pkts++;
		n->stats.retx_pkts++;
	}
	if (nic_psn_diff(*end_psn, qp->max_psn) >= 0)
		qp->max_psn = nic_psn_add(*end_psn, 1);
	nic_rto_on_send(qp);
	if (unlikely(qp->cc_send))
		nic_cc_sent(qp, psn, *end_psn, f.payload_bytes, retx);
	return m;
}

/* The next response of the oldest READ this QP answers. */
static struct rte_mbuf *nic_build_resp(struct nic *n, struct nic_qp *qp)
{
	struct nic_rd *rd = &qp->rds[qp->rd_head & (NIC_RD_SLOTS - 1)];
	uint32_t psn = rd->next_psn;
	uint64_t off = (uint64_t)(uint32_t)nic_psn_diff(psn, rd->req_psn) * qp->mtu_bytes;
	uint64_t left = rd->bytes > off ? rd->bytes - off : 0;
	bool first = psn == rd->req_psn, last = psn == rd->last_psn;
	const uint8_t *payload = n->pattern;
	struct rte_mbuf *m;
	struct pkt_roce f;

	nic_roce_init(&f, qp, pkt_opcode(PKT_XFER_READ_RESP, first, last), psn);
	f.aeth_syndrome = PKT_AETH_ACK_UNLIMITED;
	f.aeth_msn = qp->msn & NIC_PSN_MASK;
	f.payload_bytes = left > qp->mtu_bytes ? qp->mtu_bytes : (uint32_t)left;
	/* Memory: the bytes at the READ's address (checked when it came). */
	if (unlikely(qp->mem) && payload)
		payload = (const uint8_t *)(uintptr_t)(rd->va + off);
	m = nic_build(n, qp, &f, payload);
	if (unlikely(!m))
		return NULL;
	n->stats.tx_data_pkts++;
	n->stats.tx_read_resps++;
	n->stats.tx_payload_bytes += f.payload_bytes;
	if (qp->rsp_sent && nic_psn_diff(psn, qp->rsp_max_psn) < 0) {
		qp->stats.retx_pkts++;
		n->stats.retx_pkts++;
	} else {
		qp->rsp_max_psn = nic_psn_add(psn, 1);
		qp->rsp_sent = 1;
	}
	rd->next_psn = nic_psn_add(psn, 1);
	if (last)
		qp->rd_head++;
	if (unlikely(qp->cc_send) && qp->cc.ops->on_send) {
		/* Responses count toward the QP's rate; no RTT is timed on them. */
		qp->cc.ops->on_send(&qp->cc, f.payload_bytes, n->sim->now_ps);
		nic_cc_apply(qp);
	}
	return m;
}

/* Build @qp's next packet into *@m. False when it has nothing to send now;
 * true otherwise, with *@m NULL when the pool is at its data limit. */
static bool nic_qp_next_pkt(struct nic *n, struct nic_qp *qp, struct rte_mbuf **m)
{
	uint32_t psn, end;

	if (qp->rd_head != qp->rd_tail) {
		*m = nic_build_resp(n, qp);
	} else if (qp->rd_rereq && nic_rd_rereq_valid(qp)) {
		*m = nic_build_req(n, qp, qp->done_idx, qp->snd_una, &end);
		if (*m) {
			qp->rd_rereq = 0;
			qp->stats.read_rereqs++;
		}
	} else if (unlikely(nic_uet_rud(n)) && !nic_uet_window_ok(qp)) {
		return false; /* UET: resends wait for the window as new data does */
	} else if (unlikely(nic_uet_rud(n)) && nic_uet_next_nacked(qp, &psn)) {
		/* UET: a trimmed packet's NACK asks for it at once. */
		*m = nic_build_req(n, qp, nic_wr_find(qp, psn), psn, &end);
		if (*m)
			nic_uet_resent(qp, psn);
	} else if (qp->sack_bits && nic_sr_next_lost(qp, &psn)) {
		*m = nic_build_req(n, qp, nic_wr_find(qp, psn), psn, &end);
		if (*m)
			qp->rtx_psn = nic_psn_add(end, 1);
	} else if (nic_can_send_new(qp)) {
		*m = nic_build_req(n, qp, qp->send_idx, qp->next_psn, &end);
		if (*m) {
			if (end == nic_wr_at(qp, qp->send_idx)->last_psn)
				qp->send_idx++;
			qp->next_psn = nic_psn_add(end, 1);
		}
	} else {
		return false;
	}
	return true;
}

struct rte_mbuf *nic_pull(void *owner, struct port *p)
{
	struct nic *n = owner;
	/* From the port's address: its index is on a line a send leaves alone. */
	struct nic_port_state *ps = &n->ps[p - n->ports];
	uint64_t now = n->sim->now_ps;
	struct rte_mbuf *m;

	for (;;) {
		struct nic_qp *qp = ps->act_head, *start = qp, *go = NULL;
		uint64_t wake = UINT64_MAX;

		if (!qp)
			return NULL;
		do {
			/* A paused class needs no wake-up: the resume restarts the port. */
			if (!(p->paused_mask & (1u << qp->tc))) {
				if (qp->next_ok_ps <= now) {
					go = qp;
					break;
				}
				if (qp->next_ok_ps < wake)
					wake = qp->next_ok_ps;
			}
			qp = qp->act_next;
		} while (qp != start);
		if (!go) {
			if (wake != UINT64_MAX)
				nic_arm_timer(n, ps, wake);
			return NULL;
		}
		/* Waiting on ACKs (window, READ limit) or done since it was listed. */
		if (!nic_qp_next_pkt(n, go, &m)) {
			nic_act_remove(ps, go);
			continue;
		}
		if (unlikely(!m)) {
			/* Pool empty: retry once a frame time has passed. */
			nic_arm_timer(n, ps, now + port_frame_ps(p, go->mtu_bytes, p->rate_bps));
			return NULL;
		}
		if (go->cc_rate_bps < ps->line_rate_bps)
			go->next_ok_ps = now + port_frame_ps(p, pkt_meta(m)->frame_bytes,
							     go->cc_rate_bps);
		ps->act_head = go->act_next;
		if (!nic_qp_can_send(go))
			nic_act_remove(ps, go);
		return m;
	}
}
