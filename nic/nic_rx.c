/* Receive path. As responder: check PSN order, complete messages, queue
 * READs to answer, acknowledge with coalesced ACKs, NAK PSN sequence errors
 * (go-back-N: once per gap; selective repeat: every out-of-order packet,
 * which is kept in a bitmap window) and, as DCQCN's notification point,
 * turn CE marks into CNPs; ACKs echo the INT stack of the data packet they
 * answer (HPCC). On a QP that models memory it checks each WRITE's and
 * READ's RETH against the regions (a violation is NAKed with the remote
 * access error and fails the QP, IBTA's class C responder error as Linux
 * rxe_resp.c handles it) and writes a WRITE's payload to its address. As
 * requester: hand ACKs, NAKs and READ responses to nic_rel.c (placing a
 * READ's data at its SGE) and CNPs to the QP's congestion control;
 * nic_ack_int decodes an ACK's INT stack, which the ACK event carries to
 * algorithms that read INT (CC_F_INT). */
#include <endian.h>
#include <stdlib.h>
#include <string.h>

#include "nic_int.h"
#include "pkt_view.h"

/* The view of a received frame (pkt_view_roce). Frames hold their headers
 * (the builders write them; only payload may be left out), so the frame
 * length bounds them, as at a switch; nothing of the mbuf header is read.
 * Returns 0, or -EINVAL when it is not a RoCEv2 (or, on an IB port, a
 * native IB) packet. */
static int nic_parse(const struct nic *n, struct rte_mbuf *m, struct pkt_view *h)
{
	enum pkt_ll_kind ll = (enum pkt_ll_kind)n->ll_kind;

	return pkt_view_roce(h, ll, pkt_data(m), pkt_view_hdr_limit(ll, m));
}

static void nic_uet_ctl(const struct nic *n, const struct nic_qp *qp, struct pkt_roce *f);

void nic_send_ctl(struct nic *n, struct nic_qp *qp, uint8_t opcode, uint32_t psn, uint8_t syndrome,
		  uint32_t msn)
{
	struct rte_mbuf *m = sim_pkt_alloc(n->sim, false);
	struct pkt_roce f = { 0 };
	uint8_t tc = opcode == PKT_OP_CNP ? n->cnp_tc : n->ack_tc;

	if (unlikely(!m)) {
		/* Only when the whole pool is queued: a later packet or the
		 * requester's timer makes up for it. */
		n->stats.ack_alloc_fail++;
		return;
	}
	f.addr = qp->addr;
	f.addr.dscp = opcode == PKT_OP_CNP ? n->p.cnp_dscp : n->p.ack_dscp;
	f.addr.ecn = PKT_ECN_NOT_ECT;
	f.addr.pcp = tc;
	f.addr.vl = tc;
	f.addr.sl = n->p.dscp_to_sl[f.addr.dscp & 63];
	f.opcode = opcode;
	/* CNPs carry BECN; so do ACKs of CE-marked data when the QP's
	 * algorithm asks for the echo (ECN echo, as InfiniBand's BECN). */
	f.becn = opcode == PKT_OP_CNP ||
		 (qp->ecn_echo && qp->ce_state && syndrome == PKT_AETH_ACK_UNLIMITED);
	f.pkey = 0xFFFF;
	f.dest_qp = qp->dest_qpn;
	f.psn = psn;
	f.aeth_syndrome = syndrome;
	f.aeth_msn = msn & NIC_PSN_MASK;
	if (unlikely(nic_on_uet(n)))
		nic_uet_ctl(n, qp, &f);
	if (unlikely(pkt_build_roce(m, &f, n->pattern) != 0)) {
		sim_pkt_free(n->sim, m);
		return;
	}
	/* HPCC: an ACK or NAK carries the INT stack of the data packet that
	 * caused it (the pool's data room leaves room for it). */
	if (unlikely(n->rx_int != NULL) && opcode == PKT_OP_ACK)
		(void)pkt_int_echo(m, n->rx_int);
	pkt_meta(m)->tc = tc;
	if (opcode == PKT_OP_CNP) {
		n->stats.cnps_tx++;
		qp->stats.cnps_tx++;
	} else if (opcode != PKT_OP_ACK) {
		/* UET's CREDIT and CREDIT_REQ: counted by nic_uet_credit.c */
	} else if ((syndrome == PKT_AETH_NAK_PSN_SEQ && !nic_uet_rud(n)) ||
		   pkt_uet_synd_trimmed(syndrome)) {
		qp->unacked_pkts = 0;
		n->stats.naks_tx++;
		qp->stats.naks_tx++;
	} else if (syndrome == PKT_AETH_ACK_UNLIMITED || syndrome == PKT_AETH_NAK_PSN_SEQ) {
		/* UET: a SACK (ACK_CC) is an ACK. */
		qp->unacked_pkts = 0;
		n->stats.tx_acks++;
	} /* error NAKs: counted as access_errors by their sender (nic_rsp_refuse) */
	port_enqueue(&n->ports[qp->port], m, tc, pkt_meta(m)->frame_bytes);
}

/* UET: what an ACK, SACK or NACK of @qp carries besides RoCE's fields
 * (pkt.h): its source PDC, the EV of the packet that caused it, whether
 * that packet was CE-marked (an ACK of in-order packets: whether those
 * it covers were, as RoCE's echo), and the SACK bitmap of what the QP
 * holds past the expected PSN. */
static __attribute__((noinline)) void nic_uet_ctl(const struct nic *n, const struct nic_qp *qp,
						  struct pkt_roce *f)
{
	f->spdcid = (uint16_t)qp->qpn;
	if (f->opcode != PKT_OP_ACK) {
		/* CREDIT, CREDIT_REQ: the credit, the EV nic_uet_credit.c
		 * chose; no PSN, no mark. */
		f->ev = n->rx_ev;
		f->uet_credit = f->aeth_msn;
		f->aeth_msn = 0;
		f->becn = false;
		return;
	}
	f->ev = n->rx_ev;
	f->uet_acked_psn = n->rx_psn;
	f->uet_retx = n->rx_retx;
	if (f->aeth_syndrome != PKT_AETH_ACK_UNLIMITED)
		f->becn = n->rx_ce;
	if (pkt_uet_synd_trimmed(f->aeth_syndrome))
		return;
	if (!nic_uet_rud(n)) {
		/* ROD: a go-back-N NAK is a NACK of a packet out of order. */
		if (f->aeth_syndrome == PKT_AETH_NAK_PSN_SEQ)
			f->aeth_syndrome = PKT_UET_SYND_ROD_OOO;
		return;
	}
	f->sack_bits = nic_uet_sack_bits(qp, qp->expected_psn);
	if (f->sack_bits)
		f->aeth_msn = qp->expected_psn;
}

static void nic_send_ack(struct nic *n, struct nic_qp *qp)
{
	nic_send_ctl(n, qp, PKT_OP_ACK, nic_psn_add(qp->expected_psn, NIC_PSN_MASK),
		     PKT_AETH_ACK_UNLIMITED, qp->msn);
}

void nic_complete(struct nic *n, struct nic_qp *qp, const struct nic_wr *wr,
		  enum ibv_wc_opcode op, enum ibv_wc_status status)
{
	struct ibv_wc wc = { 0 };

	wc.wr_id = wr->wr_id;
	wc.status = status;
	wc.opcode = op;
	wc.byte_len = (uint32_t)wr->bytes;
	wc.qp_num = qp->qpn;
	/* A receive of a request with immediate data reports it. */
	if ((op == IBV_WC_RECV || op == IBV_WC_RECV_RDMA_WITH_IMM) &&
	    (wr->opcode == IBV_WR_SEND_WITH_IMM || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM)) {
		wc.wc_flags = IBV_WC_WITH_IMM;
		wc.imm_data = wr->imm_data;
	}
	if (n->wc_fn)
		n->wc_fn(n->wc_arg, n, &wc, n->sim->now_ps);
}

/* What an in-order request of each BTH opcode does at the responder (RC
 * SEND and WRITE opcodes, IBTA Vol 1 table 38); 0 for the rest. */
static const uint8_t nic_rx_kinds[256] = {
	[PKT_OP_SEND_FIRST] = NIC_RX_SEND,
	[PKT_OP_SEND_MIDDLE] = NIC_RX_SEND,
	[PKT_OP_SEND_LAST] = NIC_RX_SEND | NIC_RX_LAST,
	[PKT_OP_SEND_LAST_IMM] = NIC_RX_SEND | NIC_RX_LAST | NIC_RX_IMM,
	[PKT_OP_SEND_ONLY] = NIC_RX_SEND | NIC_RX_LAST,
	[PKT_OP_SEND_ONLY_IMM] = NIC_RX_SEND | NIC_RX_LAST | NIC_RX_IMM,
	[PKT_OP_WRITE_LAST] = NIC_RX_LAST,
	[PKT_OP_WRITE_LAST_IMM] = NIC_RX_LAST | NIC_RX_IMM,
	[PKT_OP_WRITE_ONLY] = NIC_RX_LAST,
	[PKT_OP_WRITE_ONLY_IMM] = NIC_RX_LAST | NIC_RX_IMM,
};

static bool nic_is_read_resp(uint8_t op)
{
	return op >= PKT_OP_READ_RESP_FIRST && op <= PKT_OP_READ_RESP_ONLY;
}

/* A materialised frame whose ICRC (on IB: or VCRC) does not match is
 * dropped like a frame lost on the wire. */
static bool nic_icrc_bad(struct nic *n, struct rte_mbuf *m)
{
	if (unlikely(nic_on_uet(n)))
		return false; /* UET frames carry no ICRC */
	if (unlikely(nic_on_ib(n))) {
		/* A whole IB packet: its ICRC, and the VCRC the last hop
		 * rewrote (a switch's VL or FECN change updates it). */
		if (n->pattern && rte_pktmbuf_data_len(m) == pkt_meta(m)->frame_bytes &&
		    (pkt_ib_icrc_check(m) != 1 || pkt_ib_vcrc_check(m) != 1)) {
			n->stats.rx_icrc_errors++;
			return true;
		}
		return false;
	}
	if (n->pattern &&
	    (uint32_t)rte_pktmbuf_data_len(m) + PKT_FCS_BYTES >= pkt_meta(m)->frame_bytes &&
	    pkt_icrc_check(m) != 1) {
		n->stats.rx_icrc_errors++;
		return true;
	}
	return false;
}

/* Notification point: a CE-marked data packet asks the sender to slow down,
 * at most once per the QP's cnp_interval_ps (nic.cnp_interval, DCQCN's N;
 * 0, and IB CC's BECN per FECN: every marked packet). */
static void nic_np_ce(struct nic *n, struct nic_qp *qp)
{
	uint64_t now = n->sim->now_ps;

	/* A QP whose algorithm takes the mark echoed in ACKs (DCTCP) gets no
	 * CNP on top: the echo is its notification. */
	if (now < qp->cnp_ok_ps || qp->ecn_echo)
		return;
	qp->cnp_ok_ps = now + qp->cc.cnp_interval_ps;
	nic_send_ctl(n, qp, PKT_OP_CNP, 0, 0, 0);
}

/* One in-order packet of a message (enum nic_rx_kind @kind; its ImmDt
 * @imm when it has one) is taken: count it, complete receives (SENDs, and
 * WRITEs with immediate: verbs' receive completions). */
static void nic_msg_progress(struct nic *n, struct nic_qp *qp, uint32_t payload, unsigned kind,
			     uint32_t imm)
{
	qp->recv_bytes += payload;
	if (!(kind & NIC_RX_LAST))
		return;
	qp->msn++;
	if (kind & (NIC_RX_SEND | NIC_RX_IMM)) {
		struct nic_wr w = { .wr_id = qp->msn, .bytes = qp->recv_bytes };

		if (kind & NIC_RX_IMM) {
			w.imm_data = htobe32(imm);
			w.opcode = kind & NIC_RX_SEND ? IBV_WR_SEND_WITH_IMM : IBV_WR_RDMA_WRITE_WITH_IMM;
		}
		nic_complete(n, qp, &w, kind & NIC_RX_SEND ? IBV_WC_RECV : IBV_WC_RECV_RDMA_WITH_IMM,
			     IBV_WC_SUCCESS);
	}
	qp->recv_bytes = 0;
}

/* Selective repeat: move expected_psn over the packets held out of order
 * that are now in order. Returns whether it moved. */
static bool nic_sr_drain(struct nic *n, struct nic_qp *qp)
{
	bool moved = false;

	while (nic_bit_test(qp->rcv_bits, qp->sr_mask, qp->expected_psn)) {
		uint16_t s = qp->rcv_slots[qp->expected_psn & qp->sr_mask];

		unsigned kind = s >> NIC_SLOT_KIND_SHIFT;

		nic_bit_clear(qp->rcv_bits, qp->sr_mask, qp->expected_psn);
		nic_msg_progress(n, qp, s & NIC_SLOT_BYTES_MASK, kind,
				 kind & NIC_RX_IMM ? qp->rcv_imms[qp->expected_psn & qp->sr_mask] : 0);
		qp->expected_psn = nic_psn_add(qp->expected_psn, 1);
		moved = true;
	}
	return moved;
}

/* Queue a READ to answer at @at (ring index). Returns false when full. */
static bool nic_rd_insert(struct nic_qp *qp, uint32_t at, const struct pkt_view *h)
{
	struct nic_rd *rd;

	if (qp->rd_tail - qp->rd_head == NIC_RD_SLOTS)
		return false;
	if (!qp->rds && !(qp->rds = calloc(NIC_RD_SLOTS, sizeof(*qp->rds))))
		return false;
	for (uint32_t i = qp->rd_tail; i != at; i--)
		qp->rds[i & (NIC_RD_SLOTS - 1)] = qp->rds[(i - 1) & (NIC_RD_SLOTS - 1)];
	qp->rd_tail++;
	rd = &qp->rds[at & (NIC_RD_SLOTS - 1)];
	rd->va = h->reth_va;
	rd->bytes = h->reth_len;
	rd->req_psn = rd->next_psn = h->psn;
	rd->last_psn = nic_psn_add(h->psn, nic_n_psns(h->reth_len, qp->mtu_bytes) - 1);
	return true;
}

/* Responder: refuse request @h with NAK @syndrome and go to the error
 * state (IBTA class C: Linux rxe_resp.c, do_class_ac_error, then its
 * error state; the requester fails its request, nic_rx_ack). */
static void nic_rsp_refuse(struct nic *n, struct nic_qp *qp, const struct pkt_view *h,
			   uint8_t syndrome)
{
	n->stats.access_errors++;
	nic_send_ctl(n, qp, PKT_OP_ACK, h->psn, syndrome, qp->msn);
	nic_qp_fail(qp, IBV_WC_WR_FLUSH_ERR);
}

/* The RETH of @h may be used with remote access @need on @qp. */
static bool nic_reth_ok(const struct nic *n, const struct nic_qp *qp, const struct pkt_view *h,
			unsigned need)
{
	return (qp->access & need) &&
	       (h->reth_len == 0 || nic_mr_check(n, h->reth_rkey, h->reth_va, h->reth_len, need));
}

/* Responder, a QP that models memory: the in-order request packet @m
 * (viewed by @h), before it counts. A WRITE's or READ's first packet must
 * be allowed by the QP's access flags and name a region with that remote
 * access covering its RETH (a zero-length one names none: IBTA needs no
 * key for it); a WRITE's payload goes to the RETH's address plus what the
 * message has received so far, never past its RETH length. SENDs are not
 * placed (receive queues are not modelled). 0, or -EACCES when refused. */
static int nic_rx_mem(struct nic *n, struct nic_qp *qp, struct rte_mbuf *m,
		      const struct pkt_view *h)
{
	uint32_t payload = pkt_meta(m)->payload_bytes;
	uint8_t *d = pkt_data(m);

	if (nic_rx_kinds[h->opcode] & NIC_RX_SEND)
		return 0;
	if (pkt_layouts[h->opcode].exts & PKT_EXT_RETH) {
		unsigned need = h->opcode == PKT_OP_READ_REQ ? IBV_ACCESS_REMOTE_READ
							     : IBV_ACCESS_REMOTE_WRITE;

		if (!nic_reth_ok(n, qp, h, need)) {
			nic_rsp_refuse(n, qp, h, PKT_AETH_NAK_REM_ACCESS);
			return -EACCES;
		}
		if (h->opcode == PKT_OP_READ_REQ)
			return 0;
		qp->rsp_va = h->reth_va;
		qp->rsp_bytes = h->reth_len;
	}
	if (qp->recv_bytes + payload > qp->rsp_bytes) {
		nic_rsp_refuse(n, qp, h, PKT_AETH_NAK_INV_REQ);
		return -EACCES;
	}
	/* A whole frame (payload mode) holds the bytes; its ICRC was checked. */
	if (payload && n->pattern &&
	    (uint32_t)rte_pktmbuf_data_len(m) + PKT_FCS_BYTES >= pkt_meta(m)->frame_bytes) {
		memcpy((void *)(uintptr_t)(qp->rsp_va + qp->recv_bytes), d + pkt_view_payload_off(h, d),
		       payload);
		n->stats.placed_bytes += payload;
	}
	return 0;
}

/* A READ request behind expected_psn: the requester lost responses and asks
 * again from h->psn. Restart the READ being answered that holds it, or
 * answer it anew (in PSN order with the others). */
static void nic_rd_again(struct nic *n, struct nic_qp *qp, const struct pkt_view *h)
{
	uint32_t i = qp->rd_head;

	if (unlikely(qp->mem) && !nic_reth_ok(n, qp, h, IBV_ACCESS_REMOTE_READ)) {
		nic_rsp_refuse(n, qp, h, PKT_AETH_NAK_REM_ACCESS);
		return;
	}
	for (; i != qp->rd_tail; i++) {
		struct nic_rd *rd = &qp->rds[i & (NIC_RD_SLOTS - 1)];

		if (nic_psn_diff(h->psn, rd->req_psn) >= 0 && nic_psn_diff(h->psn, rd->last_psn) <= 0) {
			rd->va = h->reth_va;
			rd->bytes = h->reth_len;
			rd->req_psn = rd->next_psn = h->psn;
			nic_qp_activate(qp);
			return;
		}
		if (nic_psn_diff(rd->req_psn, h->psn) > 0)
			break;
	}
	if (nic_rd_insert(qp, i, h))
		nic_qp_activate(qp);
	else
		n->stats.rx_read_dropped++;
}

static void nic_rx_in_order(struct nic *n, struct nic_qp *qp, struct rte_mbuf *m,
			    const struct pkt_view *h)
{
	bool read = h->opcode == PKT_OP_READ_REQ;

	if (unlikely(qp->mem) && nic_rx_mem(n, qp, m, h) != 0)
		return;
	qp->nak_sent = 0;
	if (read) {
		if (!nic_rd_insert(qp, qp->rd_tail, h)) {
			/* Not taken: the requester will send it again. */
			n->stats.rx_read_dropped++;
			return;
		}
		qp->expected_psn = nic_psn_add(qp->expected_psn,
					       nic_n_psns(h->reth_len, qp->mtu_bytes));
		qp->msn++;
		/* Its responses acknowledge what came before. */
		qp->unacked_pkts = 0;
		nic_qp_activate(qp);
	} else {
		uint32_t payload = pkt_meta(m)->payload_bytes;

		if (unlikely(qp->ecn_echo)) {
			bool ce = pkt_view_ce(h);

			/* ECN echo: each ACK covers packets of one CE state, so the
			 * sender counts marked bytes exactly (RFC 8257 3.2). */
			if (qp->unacked_pkts && ce != qp->ce_state)
				nic_send_ack(n, qp);
			qp->ce_state = ce;
		}
		unsigned kind = nic_rx_kinds[h->opcode];

		qp->expected_psn = nic_psn_add(qp->expected_psn, 1);
		qp->unacked_pkts++;
		n->stats.rx_payload_bytes += payload;
		nic_msg_progress(n, qp, payload, kind, kind & NIC_RX_IMM ? h->imm_data : 0);
	}
	if ((qp->rcv_bits && nic_sr_drain(n, qp)) ||
	    (!read && (h->ack_req || qp->unacked_pkts >= n->p.ack_every_pkts)) ||
	    (unlikely(nic_on_uet(n)) && nic_uet_ack_now(h)))
		nic_send_ack(n, qp);
}

/* Selective repeat: keep a packet ahead of expected_psn (not a READ
 * request: its responses must follow everything before it) and NAK with
 * the expected PSN and, in the MSN field, the PSN now held. */
static void nic_sr_rx_ahead(struct nic *n, struct nic_qp *qp, struct rte_mbuf *m,
			    const struct pkt_view *h, uint32_t ahead)
{
	uint32_t sack = nic_psn_add(qp->expected_psn, NIC_PSN_MASK); /* none */

	unsigned kind = nic_rx_kinds[h->opcode];

	if (ahead <= qp->sr_mask && h->opcode != PKT_OP_READ_REQ && nic_rcv_window_get(qp) == 0 &&
	    (!(kind & NIC_RX_IMM) || qp->rcv_imms ||
	     (qp->rcv_imms = calloc((size_t)qp->sr_mask + 1, sizeof(*qp->rcv_imms))))) {
		if (nic_bit_test(qp->rcv_bits, qp->sr_mask, h->psn)) {
			n->stats.rx_duplicate++;
		} else {
			uint32_t payload = pkt_meta(m)->payload_bytes;

			nic_bit_set(qp->rcv_bits, qp->sr_mask, h->psn);
			qp->rcv_slots[h->psn & qp->sr_mask] =
				(uint16_t)((payload & NIC_SLOT_BYTES_MASK) | kind << NIC_SLOT_KIND_SHIFT);
			if (kind & NIC_RX_IMM)
				qp->rcv_imms[h->psn & qp->sr_mask] = h->imm_data;
			n->stats.rx_payload_bytes += payload;
			n->stats.rx_ooo_accepted++;
		}
		sack = h->psn;
	} else {
		n->stats.rx_out_of_seq++;
	}
	nic_send_ctl(n, qp, PKT_OP_ACK, qp->expected_psn, PKT_AETH_NAK_PSN_SEQ, sack);
}

/* Inlined into both callers (nic_rx, nic_rx_data_int): frames without an
 * INT stack keep the path they had. */
static inline __attribute__((always_inline)) void
nic_rx_data(struct nic *n, struct nic_qp *qp, struct rte_mbuf *m, const struct pkt_view *h)
{
	int32_t d = nic_psn_diff(h->psn, qp->expected_psn);

	if (nic_icrc_bad(n, m))
		return;
	if (pkt_view_ce(h) && h->opcode != PKT_OP_READ_REQ)
		nic_np_ce(n, qp);
	if (d == 0) {
		nic_rx_in_order(n, qp, m, h);
	} else if (d < 0) {
		n->stats.rx_duplicate++;
		if (h->opcode == PKT_OP_READ_REQ)
			nic_rd_again(n, qp, h);
		else /* Already have it: re-acknowledge so a retransmitting peer moves on. */
			nic_send_ack(n, qp);
	} else if (n->p.recovery == NIC_RECOVERY_SR) {
		nic_sr_rx_ahead(n, qp, m, h, (uint32_t)d);
	} else {
		/* Go-back-N: one NAK per gap; the requester resends from it. */
		n->stats.rx_out_of_seq++;
		if (!qp->nak_sent) {
			qp->nak_sent = 1;
			nic_send_ctl(n, qp, PKT_OP_ACK, qp->expected_psn, PKT_AETH_NAK_PSN_SEQ,
				     qp->msn);
		}
	}
}

/* UET: a data packet. One a switch trimmed (a trimmed DSCP) is NACKed at
 * once unless it was received already (UET_TRIMMED_LASTHOP on the last-hop
 * DSCP); the others are taken as on RoCE. Answers carry its EV and mark. */
static __attribute__((noinline)) void nic_rx_data_uet(struct nic *n, struct nic_qp *qp,
						      struct rte_mbuf *m, const struct pkt_view *h)
{
	bool last = h->cls == n->p.uet_trim_last_dscp;
	bool trimmed = last || h->cls == n->p.uet_trim_dscp;

	n->rx_ev = h->sport;
	n->rx_ce = pkt_view_ce(h);
	n->rx_retx = h->retx;
	n->rx_psn = h->psn;
	if (h->uet_cc)
		/* RCCC: its credit target; a trimmed one asks for credit for its resend. */
		nic_uet_credit_target(qp, h->aeth_msn, trimmed);
	if (trimmed) {
		int32_t d = nic_psn_diff(h->psn, qp->expected_psn);

		n->stats.rx_trimmed++;
		if (d < 0 || (d > 0 && qp->rcv_bits && d <= (int32_t)qp->sr_mask &&
			      nic_bit_test(qp->rcv_bits, qp->sr_mask, h->psn)))
			nic_send_ack(n, qp); /* had it: a resend of it was trimmed */
		else if (d > 0 && !nic_uet_rud(n))
			nic_rx_data(n, qp, m, h); /* ROD: out of order, NACKed as such */
		else
			nic_send_ctl(n, qp, PKT_OP_ACK, h->psn,
				     last ? PKT_UET_SYND_TRIMMED_LAST : PKT_UET_SYND_TRIMMED, 0);
	} else if (h->ses_cut) {
		n->stats.rx_malformed++; /* cut short, and not by a trim */
	} else {
		nic_rx_data(n, qp, m, h);
	}
	n->rx_ev = 0;
	n->rx_ce = 0;
	n->rx_retx = 0;
}

/* Requester: a READ response. Accepted only in order; the first one past a
 * gap re-requests the READ from the missing PSN. */
static void nic_rx_resp(struct nic *n, struct nic_qp *qp, struct rte_mbuf *m,
			const struct pkt_view *h)
{
	const struct nic_wr *wr;
	uint32_t idx;

	if (nic_icrc_bad(n, m))
		return;
	if (pkt_view_ce(h))
		nic_np_ce(n, qp);
	if (nic_psn_diff(h->psn, qp->snd_una) < 0 || nic_psn_diff(h->psn, qp->max_psn) >= 0) {
		n->stats.rx_duplicate++;
		return;
	}
	idx = nic_wr_find(qp, h->psn);
	wr = nic_wr_at(qp, idx);
	if (idx == qp->post_idx || wr->opcode != IBV_WR_RDMA_READ) {
		n->stats.rx_duplicate++;
		return;
	}
	/* The responder has the READ request, so everything before it. */
	nic_req_acked(qp, nic_psn_add(wr->last_psn, 1));
	if (h->psn == qp->snd_una) {
		uint32_t payload = pkt_meta(m)->payload_bytes;

		/* Memory: the data goes to the SGE (checked when posted), at
		 * this response's offset; never past the READ's length. */
		if (unlikely(qp->mem) && payload && n->pattern &&
		    (uint32_t)rte_pktmbuf_data_len(m) + PKT_FCS_BYTES >= pkt_meta(m)->frame_bytes) {
			uint64_t off = (uint64_t)(uint32_t)nic_psn_diff(h->psn, wr->first_psn) *
				       qp->mtu_bytes;
			uint8_t *d = pkt_data(m);

			if (off + payload <= wr->bytes) {
				memcpy((void *)(uintptr_t)(qp->wr_laddrs[idx & qp->wr_mask] + off),
				       d + pkt_view_payload_off(h, d), payload);
				n->stats.placed_bytes += payload;
			}
		}
		n->stats.rx_payload_bytes += payload;
		nic_req_answered(qp, h->psn);
	} else {
		n->stats.rx_out_of_seq++;
		if (!qp->rd_gap) {
			qp->rd_gap = 1;
			qp->rd_rereq = 1;
		}
	}
	nic_qp_activate(qp);
}

static_assert((int)CC_INT_MAX_HOPS == (int)PKT_INT_MAX_HOPS &&
		      (int)CC_INT_TS_BITS == (int)PKT_INT_TS_BITS &&
		      (int)CC_INT_TX_BITS == (int)PKT_INT_TX_BITS,
	      "struct cc_int_hop carries the wire's INT fields unchanged");

/* The INT stack the ACK @m echoes, into @hops for an algorithm with
 * CC_F_INT (units are the same, whatever the records' format; times and
 * byte counts stay modular, with the widths of the format, as cc.h says).
 * Returns the hops, 0 when the ACK has none or a malformed one. Out of
 * line: only such algorithms come here. */
static __attribute__((noinline)) uint32_t nic_cc_ack_int(const struct rte_mbuf *m,
							  const struct pkt_view *h,
							  struct cc_int_hop hops[CC_INT_MAX_HOPS])
{
	struct pkt_int_hop w[PKT_INT_MAX_HOPS];
	int n;

	if (!pkt_view_has_int(h, pkt_data((struct rte_mbuf *)(uintptr_t)m)))
		return 0;
	n = nic_ack_int(m, h, w);
	for (int i = 0; i < n; i++) {
		hops[i].ts_ps = w[i].ts_ps;
		hops[i].qlen_bytes = w[i].qlen_bytes;
		hops[i].tx_bytes = w[i].tx_bytes;
		hops[i].rate_bps = w[i].rate_bps;
		hops[i].ts_wrap_ps = w[i].ts_wrap_ps;
		hops[i].tx_wrap_bytes = w[i].tx_wrap_bytes;
	}
	return n > 0 ? (uint32_t)n : 0;
}

/* Tell the QP's algorithm about an ACK @m that moved the cumulative ACK
 * from @una (completing requests of @acked bytes). Newly acknowledged bytes
 * are counted in PSNs (MTU each; the last packet of a message may be
 * shorter), the RTT from the PSN being timed when the ACK covers it; the
 * echoed INT stack only for an algorithm that reads it (CC_F_INT). */
static void nic_cc_ack(struct nic *n, struct nic_qp *qp, const struct rte_mbuf *m,
		       const struct pkt_view *h, uint32_t una, uint64_t acked)
{
	int32_t d = nic_psn_diff(qp->ack_psn, una);
	struct cc_int_hop hops[CC_INT_MAX_HOPS];
	struct cc_ack a = { 0 };

	(void)acked;
	a.acked_bytes = d > 0 ? (uint64_t)d * qp->mtu_bytes : 0;
	if (qp->rtt_valid && nic_psn_diff(qp->ack_psn, qp->rtt_psn) > 0) {
		a.rtt_ps = n->sim->now_ps - qp->rtt_sent_ps;
		qp->rtt_valid = 0;
	}
	a.inflight_bytes = (uint64_t)(uint32_t)nic_psn_diff(qp->next_psn, qp->ack_psn) * qp->mtu_bytes;
	/* The NIC's view (pkt_view_roce) leaves becn unset: read it alone. */
	a.ecn_echo = pkt_view_becn(h, pkt_data((struct rte_mbuf *)(uintptr_t)m));
	if (unlikely(qp->cc.ops->flags & CC_F_INT) &&
	    (a.n_int_hops = nic_cc_ack_int(m, h, hops)) != 0)
		a.int_hops = hops;
	qp->cc.ops->on_ack(&qp->cc, &a, n->sim->now_ps);
	nic_cc_apply(qp);
}

int nic_ack_int(const struct rte_mbuf *m, const struct pkt_view *h,
		struct pkt_int_hop hops[PKT_INT_MAX_HOPS])
{
	const uint8_t *d = pkt_data((struct rte_mbuf *)(uintptr_t)m);
	struct pkt_view v = *h;

	if (pkt_view_int(&v, d, pkt_view_hdr_limit(PKT_LL_ROCE, m)) != 0)
		return -EINVAL;
	for (unsigned i = 0; i < v.int_hops; i++)
		pkt_view_int_hop(&v, d, i, &hops[i]);
	return v.int_hops;
}

/* A data frame @m (viewed by @h) that carries an INT stack: its ACKs echo
 * it. Out of line: frames without one take a single test. */
static __attribute__((noinline)) void nic_rx_data_int(struct nic *n, struct nic_qp *qp,
						       struct rte_mbuf *m, const struct pkt_view *h)
{
	n->rx_int = pkt_view_int_at(h, pkt_data(m));
	nic_rx_data(n, qp, m, h);
	n->rx_int = NULL;
}

/* A loss reported (a PSN sequence NAK, UET's NACKs): to the QP's algorithm. */
static void nic_cc_nak(struct nic *n, struct nic_qp *qp)
{
	if (qp->cc.ops->on_nak) {
		qp->cc.ops->on_nak(&qp->cc, n->sim->now_ps);
		nic_cc_apply(qp);
	}
}

/* UET: an ACK (cumulative, and with an ACK_CC's SACK bitmap what the
 * responder holds beyond) or a NACK of a trimmed packet; either tells EV
 * recycling how its EV fared (a trim on the last hop, where any path
 * leads, as an ACK: uet-htsim's UecSrc::processNack). */
static __attribute__((noinline)) void nic_rx_ack_uet(struct nic *n, struct nic_qp *qp,
						     const struct rte_mbuf *m,
						     const struct pkt_view *h)
{
	bool marked = pkt_view_becn(h, pkt_data((struct rte_mbuf *)(uintptr_t)m));

	nic_uet_credit_heard(qp); /* RCCC: the receiver answered */
	nic_uet_ev_feedback(qp, h->sport,
			    h->aeth_syndrome == PKT_UET_SYND_TRIMMED ? NIC_UET_FEEDBACK_TRIM
			    : marked				      ? NIC_UET_FEEDBACK_ECN
								      : 0);
	if (pkt_uet_synd_trimmed(h->aeth_syndrome) ||
	    (!nic_uet_rud(n) && h->aeth_syndrome == PKT_UET_SYND_ROD_OOO)) {
		n->stats.naks_rx++;
		qp->stats.naks_rx++;
		if (!nic_uet_rud(n)) {
			/* ROD: go back to the PSN the NACK names (go-back-N). */
			nic_req_nak(qp, h->psn, 0);
		} else {
			nic_uet_nacked(qp, h->psn);
			/* A NACKed packet is no longer in flight, and the timer
			 * times what is (as UET's does, from the oldest packet in
			 * flight): an answer from the receiver restarts it. */
			nic_rto_restart(qp);
		}
		qp->cc.nak_last_hop = h->aeth_syndrome == PKT_UET_SYND_TRIMMED_LAST;
		nic_cc_nak(n, qp);
		qp->cc.nak_last_hop = false;
	} else if (h->aeth_syndrome == PKT_AETH_ACK_UNLIMITED ||
		   h->aeth_syndrome == PKT_AETH_NAK_PSN_SEQ) {
		/* A SACK's psn is the expected PSN; an ACK's the last in order. */
		uint32_t upto = h->aeth_syndrome == PKT_AETH_NAK_PSN_SEQ ? h->psn
									: nic_psn_add(h->psn, 1);
		n->stats.rx_acks++;
		(void)nic_req_acked(qp, upto);
		for (uint64_t b = h->sack_bits; b && qp->state == NIC_QP_OK; b &= b - 1) {
			uint32_t psn = nic_psn_add(h->aeth_msn, (uint32_t)__builtin_ctzll(b));
			bool had = nic_bit_test(qp->sack_bits, qp->sr_mask, psn);

			nic_req_nak(qp, upto, psn);
			if (!had && nic_bit_test(qp->sack_bits, qp->sr_mask, psn) &&
			    nic_psn_diff(psn, qp->ack_psn) > 0)
				nic_uet_sack_add(qp);
		}
		if (qp->state == NIC_QP_OK)
			nic_cc_ack_uet(n, qp, m, h);
	} else {
		n->stats.naks_rx++;
		qp->stats.naks_rx++;
		nic_req_refused(qp, h->psn, IBV_WC_REM_OP_ERR);
	}
	if (qp->state == NIC_QP_OK)
		nic_qp_activate(qp);
}

static void nic_rx_ack(struct nic *n, struct nic_qp *qp, const struct rte_mbuf *m,
		       const struct pkt_view *h)
{
	uint8_t kind = h->aeth_syndrome & PKT_AETH_KIND_MASK;

	if (unlikely(nic_on_uet(n))) {
		nic_rx_ack_uet(n, qp, m, h);
		return;
	}

	if (kind == PKT_AETH_KIND_NAK) {
		n->stats.naks_rx++;
		qp->stats.naks_rx++;
		if (h->aeth_syndrome == PKT_AETH_NAK_PSN_SEQ) {
			nic_req_nak(qp, h->psn, h->aeth_msn);
			nic_cc_nak(n, qp);
		} else {
			/* A request refused (rxe_comp.c's statuses): it fails, with the QP. */
			nic_req_refused(qp, h->psn,
					h->aeth_syndrome == PKT_AETH_NAK_REM_ACCESS ? IBV_WC_REM_ACCESS_ERR
					: h->aeth_syndrome == PKT_AETH_NAK_INV_REQ  ? IBV_WC_REM_INV_REQ_ERR
										    : IBV_WC_REM_OP_ERR);
		}
	} else if (kind == 0) {
		uint32_t una = qp->ack_psn;
		uint64_t acked;

		n->stats.rx_acks++;
		acked = nic_req_acked(qp, nic_psn_add(h->psn, 1));
		if (qp->cc.ops->on_ack)
			nic_cc_ack(n, qp, m, h, una, acked);
	}
	/* RNR NAKs are never sent here (receive queues are not modelled). */
	if (qp->state == NIC_QP_OK)
		nic_qp_activate(qp);
}

void nic_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct nic *n = owner;
	struct pkt_view h;
	struct nic_qp *qp;
	uint32_t idx;

	(void)in;
	if (unlikely(nic_parse(n, m, &h) != 0)) {
		n->stats.rx_malformed++;
		goto out;
	}
	idx = h.dest_qp - NIC_QPN_BASE;
	if (unlikely(h.dest_qp < NIC_QPN_BASE || idx >= n->n_qps || !n->qps[idx]->connected)) {
		n->stats.rx_unknown_qp++;
		goto out;
	}
	qp = n->qps[idx];
	if (unlikely(qp->state != NIC_QP_OK))
		goto out; /* a QP in error drops everything */
	if (h.opcode == PKT_OP_ACK) {
		nic_rx_ack(n, qp, m, &h);
	} else if (h.opcode == PKT_OP_CNP) {
		n->stats.rx_cnps++;
		qp->stats.cnps_rx++;
		if (qp->cc.ops->on_cnp) {
			qp->cc.ops->on_cnp(&qp->cc, n->sim->now_ps);
			nic_cc_apply(qp);
		}
	} else if (nic_is_read_resp(h.opcode)) {
		nic_rx_resp(n, qp, m, &h);
	} else if (unlikely(h.opcode >= PKT_UET_OP_CREDIT) && nic_on_uet(n)) {
		nic_uet_rx_credit(qp, &h);
	} else if (unlikely(pkt_view_has_int(&h, pkt_data(m)))) {
		nic_rx_data_int(n, qp, m, &h);
	} else if (unlikely(nic_on_uet(n))) {
		nic_rx_data_uet(n, qp, m, &h);
	} else {
		nic_rx_data(n, qp, m, &h);
	}
out:
	sim_pkt_free(n->sim, m);
}
