/* Ultra Ethernet Transport frames (pkt_uet.h): the builders pkt.c calls
 * for addressing of PKT_LL_UET, their parser, and the trimming a switch
 * does to a frame it has no room for. Layouts: docs/wire-formats.md,
 * "Ultra Ethernet Transport". */
#include <errno.h>
#include <string.h>

#include "pkt_int.h"
#include "pkt_uet.h"

/* What one frame is on the wire: its PDS type, next header, header bytes
 * and the SES opcode and flags of a request. */
struct pkt_uet_plan {
	uint8_t type;      /* PKT_UET_TYPE_* */
	uint8_t next;      /* PKT_UET_NEXT_* */
	uint8_t ses_op;    /* a request's SES opcode; 0 otherwise */
	uint8_t ses_flags; /* its SOM / EOM / HD */
	uint32_t hdr_bytes; /* PDS (and SES) bytes */
	uint32_t pds_bytes; /* of which the PDS header's */
	uint8_t kind;      /* enum pkt_kind */
};

/* The plan of @f (pkt_roce's UET mapping, pkt.h), or -EINVAL for what
 * UET frames do not carry here (READs, CNPs, error NAKs). */
static int pkt_uet_plan_of(const struct pkt_roce *f, struct pkt_uet_plan *p)
{
	uint8_t op = f->opcode;

	memset(p, 0, sizeof(*p));
	if (op == PKT_UET_OP_CREDIT || op == PKT_UET_OP_CREDIT_REQ) {
		p->type = PKT_UET_TYPE_CONTROL;
		p->next = op == PKT_UET_OP_CREDIT ? PKT_UET_CTL_CREDIT : PKT_UET_CTL_CREDIT_REQ;
		p->hdr_bytes = p->pds_bytes = PKT_UET_PDS_CTRL_BYTES;
		p->kind = PKT_KIND_CTRL;
		return 0;
	}
	if (op == PKT_OP_ACK) {
		p->kind = PKT_KIND_ACK;
		if (f->aeth_syndrome == PKT_UET_SYND_TRIMMED ||
		    f->aeth_syndrome == PKT_UET_SYND_TRIMMED_LAST ||
		    f->aeth_syndrome == PKT_UET_SYND_ROD_OOO) {
			p->type = PKT_UET_TYPE_NACK;
			p->hdr_bytes = PKT_UET_PDS_NACK_BYTES;
		} else if (f->aeth_syndrome == PKT_AETH_NAK_PSN_SEQ ||
			   (f->aeth_syndrome == PKT_AETH_ACK_UNLIMITED && f->sack_bits)) {
			p->type = PKT_UET_TYPE_ACK_CC;
			p->hdr_bytes = PKT_UET_PDS_ACK_CC_BYTES;
		} else if (f->aeth_syndrome == PKT_AETH_ACK_UNLIMITED) {
			p->type = PKT_UET_TYPE_ACK;
			p->hdr_bytes = PKT_UET_PDS_ACK_BYTES;
		} else {
			return -EINVAL;
		}
		return 0;
	}
	if (op <= PKT_OP_SEND_ONLY_IMM) {
		p->ses_op = PKT_UET_SES_SEND;
		p->ses_flags = (op == PKT_OP_SEND_FIRST || op == PKT_OP_SEND_ONLY ||
				op == PKT_OP_SEND_ONLY_IMM ? PKT_UET_SES_F_SOM : 0) |
			       (op == PKT_OP_SEND_LAST || op == PKT_OP_SEND_LAST_IMM ||
				op == PKT_OP_SEND_ONLY || op == PKT_OP_SEND_ONLY_IMM ? PKT_UET_SES_F_EOM : 0) |
			       (op == PKT_OP_SEND_LAST_IMM || op == PKT_OP_SEND_ONLY_IMM ? PKT_UET_SES_F_HD : 0);
	} else if (op <= PKT_OP_WRITE_ONLY_IMM) {
		p->ses_op = PKT_UET_SES_WRITE;
		p->ses_flags = (op == PKT_OP_WRITE_FIRST || op == PKT_OP_WRITE_ONLY ||
				op == PKT_OP_WRITE_ONLY_IMM ? PKT_UET_SES_F_SOM : 0) |
			       (op == PKT_OP_WRITE_LAST || op == PKT_OP_WRITE_LAST_IMM ||
				op == PKT_OP_WRITE_ONLY || op == PKT_OP_WRITE_ONLY_IMM ? PKT_UET_SES_F_EOM : 0) |
			       (op == PKT_OP_WRITE_LAST_IMM || op == PKT_OP_WRITE_ONLY_IMM ? PKT_UET_SES_F_HD : 0);
	} else {
		return -EINVAL;
	}
	if (f->uet_cc)
		p->type = f->uet_rod ? PKT_UET_TYPE_ROD_CC_REQ : PKT_UET_TYPE_RUD_CC_REQ;
	else
		p->type = f->uet_rod ? PKT_UET_TYPE_ROD_REQ : PKT_UET_TYPE_RUD_REQ;
	p->next = PKT_UET_NEXT_REQ_STD;
	p->pds_bytes = pkt_uet_req_pds_bytes(p->type);
	p->hdr_bytes = p->pds_bytes + PKT_UET_SES_STD_BYTES;
	p->kind = PKT_KIND_DATA;
	return 0;
}

/* Bytes from the IPv4 header to the payload's end, and the whole frame
 * with Ethernet's pad and FCS. */
static void pkt_uet_lens(const struct pkt_roce *f, const struct pkt_uet_plan *p, uint32_t l3_off,
			 uint32_t *ip_bytes, uint32_t *frame_bytes)
{
	uint32_t eth;

	*ip_bytes = PKT_IPV4_BYTES + PKT_UDP_BYTES + p->hdr_bytes + f->payload_bytes;
	eth = l3_off + *ip_bytes;
	*frame_bytes = RTE_MAX(eth, (uint32_t)PKT_MIN_FRAME_BYTES - PKT_FCS_BYTES) + PKT_FCS_BYTES;
}

uint32_t pkt_uet_frame_bytes(const struct pkt_roce *f)
{
	struct pkt_uet_plan p;
	uint32_t ip_bytes, frame_bytes;

	if (pkt_uet_plan_of(f, &p) != 0)
		return 0;
	pkt_uet_lens(f, &p, PKT_ETH_BYTES + (f->addr.vlan ? PKT_VLAN_BYTES : 0), &ip_bytes,
		     &frame_bytes);
	return frame_bytes;
}

/* The PDS header (and a request's SES header) of @f at @pds. */
static void pkt_uet_write_hdrs(uint8_t *pds, const struct pkt_roce *f, const struct pkt_uet_plan *p)
{
	uint8_t flags = 0;
	uint32_t cack;

	memset(pds, 0, p->hdr_bytes);
	pkt_put16(pds + 8, f->spdcid);
	pkt_put16(pds + 10, (uint16_t)f->dest_qp);
	switch (p->type) {
	case PKT_UET_TYPE_CONTROL:
		/* probe_opaque 0; the PSN field as given (0: the credit packets
		 * ask for no ACK and take no PSN); the payload the credit. */
		pkt_put32(pds + 4, f->psn & PKT_24BIT_MASK);
		pkt_put32(pds + 12, f->uet_credit & PKT_UET_CREDIT_MASK);
		break;
	case PKT_UET_TYPE_RUD_REQ:
	case PKT_UET_TYPE_ROD_REQ:
	case PKT_UET_TYPE_RUD_CC_REQ:
	case PKT_UET_TYPE_ROD_CC_REQ: {
		uint8_t *ses = pds + p->pds_bytes;

		flags = (f->ack_req ? PKT_UET_REQ_F_AR : 0) | (f->uet_retx ? PKT_UET_REQ_F_RETX : 0);
		pkt_put32(pds + 4, f->psn & PKT_24BIT_MASK);
		if (p->pds_bytes == PKT_UET_PDS_REQ_CC_BYTES)
			/* CC state: CCC_ID (the source PDC's low byte), credit target */
			pkt_put32(pds + 12, (uint32_t)(f->spdcid & 0xFF) << 24 |
						    (f->uet_credit & PKT_UET_CREDIT_MASK));
		ses[0] = p->ses_op;
		ses[1] = p->ses_flags;
		pkt_put16(ses + 2, f->msg_id);
		pkt_put32(ses + 12, (uint32_t)(f->reth_va >> 32));
		pkt_put32(ses + 16, (uint32_t)f->reth_va);
		pkt_put32(ses + 20, f->addr.src_ip); /* initiator */
		if ((p->ses_flags & (PKT_UET_SES_F_SOM | PKT_UET_SES_F_HD)) != 0) {
			/* Header data: the immediate (HD), else 0. */
			pkt_put32(ses + 36, (p->ses_flags & PKT_UET_SES_F_HD) ? f->imm_data : 0);
		} else {
			/* After the first packet: payload length (14 bits) and the
			 * offset of this payload in the message. */
			pkt_put16(ses + 34, (uint16_t)(f->payload_bytes & 0x3FFF));
			pkt_put32(ses + 36, f->msg_offset);
		}
		pkt_put32(ses + 40, f->reth_len);
		break;
	}
	case PKT_UET_TYPE_NACK:
		flags = (f->becn ? PKT_UET_ACK_F_M : 0) | (f->uet_retx ? PKT_UET_ACK_F_RETX : 0);
		pds[2] = f->aeth_syndrome == PKT_UET_SYND_ROD_OOO	    ? PKT_UET_NACK_ROD_OOO
			 : f->aeth_syndrome == PKT_UET_SYND_TRIMMED_LAST ? PKT_UET_NACK_TRIMMED_LASTHOP
									 : PKT_UET_NACK_TRIMMED;
		pkt_put32(pds + 4, f->psn & PKT_24BIT_MASK);
		break;
	default: /* ACK, ACK_CC */
		flags = (f->becn ? PKT_UET_ACK_F_M : 0) | (f->uet_retx ? PKT_UET_ACK_F_RETX : 0);
		cack = f->aeth_syndrome == PKT_AETH_NAK_PSN_SEQ ? (f->psn - 1) & PKT_24BIT_MASK
								: f->psn & PKT_24BIT_MASK;
		pkt_put32(pds + 4, cack);
		/* ACK_PSN_OFFSET: signed 16 bits (a duplicate's PSN lies behind). */
		pkt_put16(pds + 2, (uint16_t)(int16_t)(((int32_t)((f->uet_acked_psn - cack) << 8)) >> 8));
		if (p->type == PKT_UET_TYPE_ACK_CC) {
			pkt_put16(pds + 14, (uint16_t)((f->aeth_msn - cack) & PKT_24BIT_MASK));
			pkt_put32(pds + 16, (uint32_t)(f->sack_bits >> 32));
			pkt_put32(pds + 20, (uint32_t)f->sack_bits);
		}
		break;
	}
	pkt_put16(pds, (uint16_t)(p->type << PKT_UET_TYPE_SHIFT | p->next << PKT_UET_NEXT_SHIFT | flags));
}

/* Everything of @f past the fixed Ethernet / IPv4 / UDP fields at @p
 * (IPv4 at @l3_off, its fixed sum @ip_sum): lengths, the IPv4 checksum,
 * the entropy value, the PDS / SES headers, the payload when @payload is
 * given, Ethernet's pad; then the metadata. */
static int pkt_uet_write(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *fixed,
			 uint32_t fixed_bytes, uint32_t l3_off, uint32_t ip_sum, const uint8_t *payload)
{
	struct pkt_uet_plan pl;
	uint32_t ip_bytes, frame_bytes, hdr_end, data_bytes;
	struct pkt_meta *meta;
	uint8_t *p, *ip, *udp;
	bool full;

	if (pkt_uet_plan_of(f, &pl) != 0 || f->payload_bytes > UINT16_MAX)
		return -EINVAL;
	pkt_uet_lens(f, &pl, l3_off, &ip_bytes, &frame_bytes);
	if (ip_bytes > UINT16_MAX || frame_bytes > UINT16_MAX)
		return -EINVAL;
	hdr_end = l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES + pl.hdr_bytes;
	full = payload != NULL || f->payload_bytes == 0;
	data_bytes = full ? frame_bytes - PKT_FCS_BYTES : hdr_end;
	if (rte_pktmbuf_tailroom(m) < RTE_MAX(data_bytes, fixed_bytes))
		return -ENOSPC;
	p = pkt_fill_empty(m, (uint16_t)data_bytes);
	if (p == NULL)
		return -ENOSPC;
	memcpy(p, fixed, fixed_bytes);
	ip = p + l3_off;
	udp = ip + PKT_IPV4_BYTES;
	pkt_put16(ip + 2, (uint16_t)ip_bytes);
	ip_sum += ip_bytes;
	ip_sum = (ip_sum & 0xFFFF) + (ip_sum >> 16);
	ip_sum = (ip_sum & 0xFFFF) + (ip_sum >> 16);
	pkt_put16(ip + 10, (uint16_t)~ip_sum);
	if (f->ev)
		pkt_put16(udp, f->ev);
	pkt_put16(udp + 4, (uint16_t)(ip_bytes - PKT_IPV4_BYTES));
	pkt_uet_write_hdrs(udp + PKT_UDP_BYTES, f, &pl);
	if (full) {
		if (f->payload_bytes)
			memcpy(p + hdr_end, payload, f->payload_bytes);
		memset(p + hdr_end + f->payload_bytes, 0, data_bytes - hdr_end - f->payload_bytes);
	}
	meta = pkt_meta(m);
	meta->frame_bytes = (uint16_t)frame_bytes;
	meta->payload_bytes = (uint16_t)f->payload_bytes;
	meta->l3_off = (uint8_t)l3_off;
	meta->kind = pl.kind;
	meta->flags = 0;
	return 0;
}

int pkt_uet_build(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *payload)
{
	uint8_t fixed[PKT_ETH_BYTES + PKT_VLAN_BYTES + PKT_IPV4_BYTES + PKT_UDP_BYTES];
	uint32_t l3_off = pkt_eth_ipv4_udp_fixed(fixed, &f->addr, f->addr.udp_sport, PKT_UET_UDP_PORT);

	return pkt_uet_write(m, f, fixed, l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES, l3_off,
			     pkt_ipv4_fixed_sum(fixed + l3_off), payload);
}

void pkt_uet_tmpl_init(struct pkt_tmpl *t, const struct pkt_addr *a)
{
	uint32_t l3_off;

	memset(t, 0, sizeof(*t));
	l3_off = pkt_eth_ipv4_udp_fixed(t->bytes, a, a->udp_sport, PKT_UET_UDP_PORT);
	t->ip_sum = pkt_ipv4_fixed_sum(t->bytes + l3_off);
	t->l3_off = (uint8_t)l3_off;
	t->ll = PKT_LL_UET;
}

int pkt_uet_build_tmpl(struct rte_mbuf *m, const struct pkt_tmpl *t, const struct pkt_roce *f,
		       const uint8_t *payload)
{
	return pkt_uet_write(m, f, t->bytes, t->l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES, t->l3_off,
			     t->ip_sum, payload);
}

int pkt_parse_uet(const struct rte_mbuf *m, struct pkt_roce *out)
{
	uint8_t buf[PKT_VIEW_MAX_HDR_BYTES];
	const uint8_t *pds;
	struct pkt_view v;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pkt_view_mbuf(PKT_LL_UET, m, &v, buf);
	if (rc != 0)
		return rc;
	pkt_parse_eth_addr(buf, &v, &out->addr);
	out->addr.ll = PKT_LL_UET;
	out->ev = v.sport;
	pds = buf + v.bth_off;
	out->spdcid = pkt_get16(pds + 8);
	out->opcode = v.opcode;
	out->becn = v.becn;
	out->pkey = v.pkey;
	out->dest_qp = v.dest_qp;
	out->ack_req = v.ack_req;
	out->psn = v.psn;
	out->payload_bytes = v.payload_bytes;
	if (v.opcode == PKT_UET_OP_CREDIT || v.opcode == PKT_UET_OP_CREDIT_REQ) {
		out->uet_credit = v.aeth_msn;
	} else if (v.opcode == PKT_OP_ACK) {
		out->aeth_syndrome = v.aeth_syndrome;
		out->aeth_msn = v.aeth_msn;
		out->sack_bits = v.sack_bits;
		out->uet_acked_psn = v.acked_psn;
		out->uet_retx = v.retx;
	} else {
		uint8_t type = pds[0] >> 3;
		const uint8_t *ses = pds + pkt_uet_req_pds_bytes(type);

		out->uet_retx = v.retx;
		out->uet_rod = type == PKT_UET_TYPE_ROD_REQ || type == PKT_UET_TYPE_ROD_CC_REQ;
		out->uet_cc = v.uet_cc;
		out->uet_credit = v.uet_cc ? v.aeth_msn : 0;
		out->msg_id = pkt_get16(ses + 2);
		if (!(ses[1] & (PKT_UET_SES_F_SOM | PKT_UET_SES_F_HD)))
			out->msg_offset = pkt_get32(ses + 36);
		out->reth_va = v.reth_va;
		out->reth_len = v.reth_len;
		out->imm_data = v.imm_data;
	}
	return 0;
}

int pkt_uet_trim(struct rte_mbuf *m, uint32_t frame_bytes, uint8_t dscp)
{
	struct pkt_meta *pm = pkt_meta(m);
	uint8_t *d = pkt_data(m), *ip, *udp;
	uint32_t l3_off = pm->l3_off, ip_bytes, sum = 0;
	uint8_t type;

	if (l3_off == 0 || pm->kind != PKT_KIND_DATA)
		return -EINVAL;
	ip = d + l3_off;
	udp = ip + PKT_IPV4_BYTES;
	type = udp[PKT_UDP_BYTES] >> 3;
	if (ip[0] != PKT_IPV4_VER_IHL || ip[9] != PKT_IPPROTO_UDP ||
	    pkt_get16(udp + 2) != PKT_UET_UDP_PORT ||
	    !pkt_uet_type_is_req(type) ||
	    frame_bytes < l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES + pkt_uet_req_pds_bytes(type) +
				  PKT_FCS_BYTES)
		return -EINVAL;
	ip_bytes = RTE_MIN((uint32_t)pkt_get16(ip + 2), frame_bytes - PKT_FCS_BYTES - l3_off);
	ip[1] = (uint8_t)(dscp << 2 | (ip[1] & 3));
	pkt_put16(ip + 2, (uint16_t)ip_bytes);
	pkt_put16(ip + 10, 0);
	for (unsigned i = 0; i < PKT_IPV4_BYTES; i += 2)
		sum += pkt_get16(ip + i);
	sum = (sum & 0xFFFF) + (sum >> 16);
	sum = (sum & 0xFFFF) + (sum >> 16);
	pkt_put16(ip + 10, (uint16_t)~sum);
	pkt_put16(udp + 4, (uint16_t)(ip_bytes - PKT_IPV4_BYTES));
	/* What the packet holds past the new end goes; Ethernet's pad up to
	 * its minimum stays (zeros only if the frame held its bytes). */
	if (rte_pktmbuf_data_len(m) > l3_off + ip_bytes) {
		uint32_t keep = RTE_MAX(l3_off + ip_bytes, (uint32_t)PKT_MIN_FRAME_BYTES - PKT_FCS_BYTES);

		if (keep < rte_pktmbuf_data_len(m)) {
			memset(d + l3_off + ip_bytes, 0, keep - (l3_off + ip_bytes));
			m->data_len = (uint16_t)keep;
			m->pkt_len = keep;
		}
	}
	pm->frame_bytes = (uint16_t)(RTE_MAX(l3_off + ip_bytes, (uint32_t)PKT_MIN_FRAME_BYTES -
									   PKT_FCS_BYTES) +
				     PKT_FCS_BYTES);
	pm->payload_bytes = 0;
	return 0;
}
