/* Receive path: the responder checks PSN order, completes messages and sends
 * coalesced ACKs; the requester turns ACKs into in-order completions and
 * hands CNPs and ACKs to the QP's congestion control. */
#include "nic_int.h"

/* Fields read from a received RoCEv2 frame. */
struct nic_rx_hdr {
	uint8_t opcode;   /* BTH opcode */
	uint8_t ack_req;  /* BTH A bit */
	uint32_t dest_qp; /* BTH DestQP */
	uint32_t psn;     /* BTH PSN */
	uint8_t syndrome; /* AETH syndrome (ACK) */
	uint8_t ecn;      /* IPv4 ECN */
};

/* Read the BTH (and AETH of an ACK) at the offsets the frame's own headers
 * give; -1 when it is not a RoCEv2 frame. */
static int nic_parse(const struct rte_mbuf *m, struct nic_rx_hdr *h)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m), l3 = PKT_ETH_BYTES, l4;
	uint16_t etype = (uint16_t)(d[12] << 8 | d[13]);
	const uint8_t *bth;

	if (etype == PKT_ETHERTYPE_VLAN) {
		etype = (uint16_t)(d[16] << 8 | d[17]);
		l3 += PKT_VLAN_BYTES;
	}
	if (etype != PKT_ETHERTYPE_IPV4 || len < l3 + PKT_IPV4_BYTES)
		return -1;
	l4 = l3 + (uint32_t)(d[l3] & 0x0f) * 4;
	if (d[l3 + 9] != 17 || len < l4 + PKT_UDP_BYTES + PKT_BTH_BYTES ||
	    (uint16_t)(d[l4 + 2] << 8 | d[l4 + 3]) != PKT_ROCE_UDP_PORT)
		return -1;
	bth = d + l4 + PKT_UDP_BYTES;
	h->opcode = bth[0];
	h->ack_req = bth[8] >> 7;
	h->dest_qp = (uint32_t)bth[5] << 16 | (uint32_t)bth[6] << 8 | bth[7];
	h->psn = (uint32_t)bth[9] << 16 | (uint32_t)bth[10] << 8 | bth[11];
	h->ecn = d[l3 + 1] & 3;
	h->syndrome = 0;
	if (h->opcode == PKT_OP_ACK) {
		if (len < l4 + PKT_UDP_BYTES + PKT_BTH_BYTES + PKT_AETH_BYTES)
			return -1;
		h->syndrome = bth[PKT_BTH_BYTES];
	}
	return 0;
}

static void nic_send_ack(struct nic *n, struct nic_qp *qp, uint32_t psn)
{
	struct rte_mbuf *m = sim_pkt_alloc(n->sim, false);
	struct pkt_roce f = { 0 };

	if (unlikely(!m)) {
		/* Only when the whole pool is queued: the next in-order packet or
		 * the final A bit will ACK again. */
		n->stats.ack_alloc_fail++;
		return;
	}
	f.addr = qp->addr;
	f.addr.dscp = n->p.ack_dscp;
	f.addr.ecn = PKT_ECN_NOT_ECT;
	f.addr.pcp = n->ack_tc;
	f.opcode = PKT_OP_ACK;
	f.pkey = 0xFFFF;
	f.dest_qp = qp->dest_qpn;
	f.psn = psn;
	f.aeth_syndrome = PKT_AETH_ACK_UNLIMITED;
	f.aeth_msn = qp->msn & NIC_PSN_MASK;
	if (unlikely(pkt_build_roce(m, &f, n->p.payload ? n->pattern : NULL) != 0)) {
		sim_pkt_free(n->sim, m);
		return;
	}
	pkt_meta(m)->tc = n->ack_tc;
	pkt_meta(m)->sent_ps = n->sim->now_ps;
	qp->unacked_pkts = 0;
	n->stats.tx_acks++;
	port_enqueue(&n->ports[qp->port], m, n->ack_tc, pkt_meta(m)->frame_bytes);
}

static void nic_complete(struct nic *n, struct nic_qp *qp, const struct nic_wr *wr,
			 enum ibv_wc_opcode op)
{
	struct ibv_wc wc = { 0 };

	wc.wr_id = wr->wr_id;
	wc.status = IBV_WC_SUCCESS;
	wc.opcode = op;
	wc.byte_len = (uint32_t)wr->bytes;
	wc.qp_num = qp->qpn;
	if (n->wc_fn)
		n->wc_fn(n->wc_arg, n, &wc, n->sim->now_ps);
}

static bool nic_is_last(uint8_t op)
{
	return op == PKT_OP_SEND_LAST || op == PKT_OP_SEND_ONLY || op == PKT_OP_WRITE_LAST ||
	       op == PKT_OP_WRITE_ONLY;
}

static void nic_rx_data(struct nic *n, struct nic_qp *qp, struct rte_mbuf *m,
			const struct nic_rx_hdr *h)
{
	int32_t d = nic_psn_diff(h->psn, qp->expected_psn);
	uint32_t payload = pkt_meta(m)->payload_bytes;

	if (d > 0) {
		n->stats.rx_out_of_seq++;
		return;
	}
	if (d < 0) {
		/* Already have it: re-acknowledge so a retransmitting peer moves on. */
		n->stats.rx_duplicate++;
		nic_send_ack(n, qp, nic_psn_add(qp->expected_psn, NIC_PSN_MASK));
		return;
	}
	if (n->p.payload && (uint32_t)rte_pktmbuf_data_len(m) + PKT_FCS_BYTES >= pkt_meta(m)->frame_bytes &&
	    pkt_icrc_check(m) != 1) {
		n->stats.rx_icrc_errors++;
		return;
	}
	qp->expected_psn = nic_psn_add(qp->expected_psn, 1);
	qp->unacked_pkts++;
	qp->recv_bytes += payload;
	n->stats.rx_payload_bytes += payload;
	if (nic_is_last(h->opcode)) {
		qp->msn++;
		if (h->opcode == PKT_OP_SEND_LAST || h->opcode == PKT_OP_SEND_ONLY) {
			struct nic_wr w = { .wr_id = qp->msn, .bytes = qp->recv_bytes };

			nic_complete(n, qp, &w, IBV_WC_RECV);
		}
		qp->recv_bytes = 0;
	}
	if (h->ack_req || qp->unacked_pkts >= n->p.ack_every_pkts)
		nic_send_ack(n, qp, h->psn);
}

static void nic_rx_ack(struct nic *n, struct nic_qp *qp, const struct nic_rx_hdr *h)
{
	uint64_t acked = 0;

	n->stats.rx_acks++;
	if ((h->syndrome & 0x60) != 0)
		return; /* NAK / RNR NAK: loss recovery is not modelled yet */
	while (qp->done_idx != qp->send_idx) {
		struct nic_wr *wr = &qp->wrs[qp->done_idx & qp->wr_mask];

		if (nic_psn_diff(wr->last_psn, h->psn) > 0)
			break;
		qp->done_idx++;
		acked += wr->bytes;
		n->stats.completions++;
		if (wr->signaled)
			nic_complete(n, qp, wr, wr->opcode == IBV_WR_SEND ? IBV_WC_SEND
									   : IBV_WC_RDMA_WRITE);
	}
	if (n->p.cc->on_ack) {
		struct cc_ack a = {
			.acked_bytes = (uint32_t)(acked > UINT32_MAX ? UINT32_MAX : acked),
		};

		n->p.cc->on_ack(qp->cc_priv, &a, n->sim->now_ps);
	}
}

void nic_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct nic *n = owner;
	struct nic_rx_hdr h;
	struct nic_qp *qp;
	uint32_t idx;

	(void)in;
	if (unlikely(nic_parse(m, &h) != 0)) {
		n->stats.rx_unknown_qp++;
		goto out;
	}
	idx = h.dest_qp - NIC_QPN_BASE;
	if (unlikely(h.dest_qp < NIC_QPN_BASE || idx >= n->n_qps)) {
		n->stats.rx_unknown_qp++;
		goto out;
	}
	qp = n->qps[idx];
	if (h.opcode == PKT_OP_ACK) {
		nic_rx_ack(n, qp, &h);
	} else if (h.opcode == PKT_OP_CNP) {
		n->stats.rx_cnps++;
		if (n->p.cc->on_cnp)
			n->p.cc->on_cnp(qp->cc_priv, n->sim->now_ps);
	} else {
		nic_rx_data(n, qp, m, &h);
	}
out:
	sim_pkt_free(n->sim, m);
}
