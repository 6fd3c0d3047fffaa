/* One view of a frame's headers, filled by one staged inline parser: the
 * link layer, the class selector, the congestion bits, the addresses and
 * flow-hash inputs, the BTH and the AETH / RETH. Switches, NICs and the
 * parsers of core/pkt.c read headers only through it; nothing else walks
 * Ethernet / IPv4 / UDP / BTH or LRH / GRH / BTH by hand. Each stage has a
 * case per link layer (RoCEv2; native InfiniBand) filling the same
 * fields. Wire formats: docs/wire-formats.md. */
#ifndef FAB_PKT_VIEW_H
#define FAB_PKT_VIEW_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>

#include "addr.h"
#include "pkt.h"
#include "pkt_ib.h"
#include "pkt_telemetry.h"
#include "pkt_uet.h"

/* Tell the compiler that @kind is a valid enum pkt_ll_kind (an invariant:
 * kinds come from descriptors), so that per-packet switches on the kind
 * need no default case. */
static inline void pkt_ll_kind_valid(unsigned kind)
{
	if (kind >= PKT_LL_N)
		__builtin_unreachable();
}

/* Which extension headers follow the BTH, per opcode. RETH and AETH always
 * sit right after the BTH; ImmDt is always the last extension header (after
 * the BTH, the RETH or the DETH). Other headers (IETH, DETH, AtomicETH,
 * AtomicAckETH) are only counted, written as zeros and skipped on parse. */
enum pkt_ext {
	PKT_EXT_RETH = 1 << 0,
	PKT_EXT_AETH = 1 << 1,
	PKT_EXT_IMM = 1 << 2,
};

/* What an opcode implies after the BTH (pkt_layouts). */
struct pkt_layout {
	uint8_t hdr_bytes; /* BTH + extension headers; 0 = opcode not supported */
	uint8_t exts;      /* enum pkt_ext bits */
	uint8_t kind;      /* enum pkt_kind */
};

/* Per BTH opcode: RC, UC, UD and the RoCEv2 CNP (IBTA Vol 1 section 9.2). */
extern const struct pkt_layout pkt_layouts[256] __attribute__((visibility("hidden")));

/* Big-endian field readers. */
static inline uint16_t pkt_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t pkt_get24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t pkt_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | pkt_get24(p + 1);
}

enum {
	PKT_IPPROTO_UDP = 17,
	PKT_IPV4_FRAG_MASK = 0x3FFF, /* MF flag + fragment offset */
	PKT_BTH_SE = 0x80,           /* byte 1 */
	PKT_BTH_PAD_SHIFT = 4,       /* byte 1, bits 5:4 */
	PKT_BTH_BECN = 0x40,         /* byte 4 */
	PKT_BTH_ACKREQ = 0x80,       /* byte 8 */
	PKT_24BIT_MASK = 0xFFFFFF,   /* QPN, PSN, MSN */
	PKT_VLAN_VID_MASK = 0x0FFF,
	PKT_EXT_MAX_BYTES = 28,      /* the longest extension headers (AtomicETH) */
	/* The most header bytes a view reads: tagged Ethernet, IPv4 with
	 * options, UDP, BTH, extension headers and a full INT stack. */
	PKT_VIEW_MAX_HDR_BYTES = PKT_ETH_BYTES + PKT_VLAN_BYTES + 60 + PKT_UDP_BYTES +
				 PKT_BTH_BYTES + PKT_EXT_MAX_BYTES + PKT_INT_MAX_BYTES,
	PKT_IB_LVER_MASK = 0x0F,     /* LRH byte 0: link version, 0 */
	PKT_IB_LNH_MASK = 3,         /* LRH byte 1: link next header */
	PKT_IB_PKTLEN_MASK = 0x07FF, /* LRH bytes 4..5: PktLen, 11 bits */
	PKT_IB_GRH_IPVER = 6,        /* GRH byte 0, high nibble */
	PKT_IB_GRH_NXTHDR_OFF = 6,   /* GRH next header byte */
};
_Static_assert(PKT_IB_LRH_BYTES + PKT_IB_GRH_BYTES + PKT_BTH_BYTES + PKT_EXT_MAX_BYTES +
			       PKT_INT_MAX_BYTES <= PKT_VIEW_MAX_HDR_BYTES,
	       "a view's buffer holds the longest IB headers too");

/* The headers of one frame. Stages fill it, each reading only what it
 * needs: pkt_view_l3 (what a forwarding hop reads), then pkt_view_flow
 * (the flow-hash inputs) and / or pkt_view_bth (the transport as a NIC
 * reads it), then pkt_view_rest (the remaining fields, and the checks a
 * frame from anywhere needs) and pkt_view_int (HPCC's INT stack). A
 * field is valid once its stage returned 0.
 * Offsets are from the frame's first byte. */
struct pkt_view {
	/* pkt_view_l3 */
	uint8_t ll;             /* enum pkt_ll_kind of the link layer that parsed it */
	uint8_t cls;            /* class selector: DSCP (RoCE); SL (IB) */
	uint8_t cong;           /* congestion bits as read, as an RFC 3168 codepoint
				 * (enum pkt_ecn): the IP ECN field (RoCE); the BTH
				 * FECN bit, CE when set, ECT(0) when clear (IB) */
	uint8_t proto;          /* flow: IP protocol (flow-hash input); IB 0 */
	uint8_t vl;             /* IB: the LRH's virtual lane (not set for RoCE) */
	uint8_t ip6;            /* RoCE: the network header is IPv6 (a live
				 * endpoint's frame; no transport stage reads it
				 * as RoCEv2); 0: IPv4 */
	uint16_t l3_off;        /* the link layer's network header: IPv4 or IPv6
				 * (RoCE); what follows the LRH, 8 (IB) */
	uint16_t l4_off;        /* flow, bth: the transport header (UDP; IB the BTH) */
	uint32_t dst;           /* destination address of the link layer's kind:
				 * IPv4, host byte order (RoCE; IPv6: the IPv4
				 * address it embeds, addr_ip6_v4, 0 outside the
				 * plan); DLID (IB) */
	/* pkt_view_flow */
	uint32_t src;           /* source address, of dst's kind (IB: SLID; IPv6:
				 * its four 32-bit words XORed) */
	uint16_t sport;         /* UDP source port (flow entropy); IB: the low 16
				 * bits of the BTH destination QP */
	uint16_t dport;         /* UDP destination port; IB 0 */
	/* pkt_view_bth */
	uint16_t bth_off;       /* the BTH */
	uint8_t opcode;         /* enum pkt_opcode */
	uint8_t ack_req;        /* BTH A bit */
	uint32_t dest_qp;       /* BTH destination QP, 24 bits */
	uint32_t psn;           /* BTH PSN, 24 bits */
	uint8_t aeth_syndrome;  /* AETH syndrome (only when the opcode has an AETH) */
	uint32_t aeth_msn;      /* AETH MSN, 24 bits (likewise) */
	uint32_t reth_rkey;     /* RETH R_Key (only when the opcode has a RETH) */
	uint32_t reth_len;      /* RETH DMA length (likewise) */
	uint64_t reth_va;       /* RETH virtual address (likewise) */
	uint32_t imm_data;      /* ImmDt (only when the opcode has one) */
	uint64_t sack_bits;     /* UET: an ACK_CC's SACK bitmap (bit i: PSN aeth_msn + i);
				 * 0 on other frames of UET, unset on RoCE and IB */
	uint32_t acked_psn;     /* UET: the PSN whose arrival an ACK answers (CACK_PSN +
				 * ACK_PSN_OFFSET); unset on RoCE and IB */
	uint8_t retx;           /* UET: the RETX flag (a request resent; an ACK of a
				 * resent one); unset on RoCE and IB */
	uint8_t ses_cut;        /* UET: a request cut inside its SES header (a trimmed
				 * packet): only its PDS fields are valid, its opcode
				 * reads as a WRITE's middle packet */
	uint8_t uet_cc;         /* UET: a request with CC state (RUD_CC_REQ, ROD_CC_REQ),
				 * its credit target in aeth_msn */
	/* pkt_view_rest */
	uint16_t net_bytes;     /* what the network header covers: IPv4 total length
				 * (from l3_off); IB PktLen * 4, LRH..ICRC (from 0) */
	uint8_t hdr_bytes;      /* BTH + extension headers of the opcode */
	uint8_t pad_bytes;      /* BTH pad count, 0..3 */
	uint8_t se;             /* BTH solicited event */
	uint8_t becn;           /* BTH BECN bit */
	uint16_t pkey;          /* BTH partition key */
	uint32_t payload_bytes; /* RDMA payload, from net_bytes (not the bytes held);
				 * pkt_view_all leaves the INT stack out of it */
	/* pkt_view_int */
	uint16_t int_off;       /* the INT stack's header (pkt_telemetry.h); 0: none */
	uint8_t int_hops;       /* records in it, 0..PKT_INT_MAX_HOPS */
	uint8_t int_fmt;        /* their format, enum pkt_int_fmt (0 without a stack) */
	uint8_t int_multi;      /* compact records' multiplier m; 0 with full ones */
};

/* IPv6 after the Ethernet header of @l3 bytes (ethertype @etype): a
 * live endpoint's frame, never one of the NIC models'. Its traffic class
 * gives DSCP and ECN as IPv4's TOS byte does; its destination maps to an
 * endpoint only in the plan's prefix (addr.h). */
static inline __attribute__((cold)) int pkt_view_l3_ip6(struct pkt_view *v, const uint8_t *d,
							 uint32_t len, uint32_t l3, uint16_t etype)
{
	const uint8_t *ip = d + l3;
	uint8_t tclass;

	if (etype != PKT_ETHERTYPE_IPV6 || len < l3 + PKT_IPV6_BYTES || ip[0] >> 4 != 6)
		return -EINVAL;
	tclass = (uint8_t)(ip[0] << 4 | ip[1] >> 4);
	v->ll = PKT_LL_ROCE;
	v->ip6 = 1;
	v->l3_off = (uint16_t)l3;
	v->cls = tclass >> 2;
	v->cong = tclass & 3;
	v->dst = addr_ip6_v4(ip + 24);
	return 0;
}

/* Ethernet, an optional 802.1Q tag, IPv4 (or IPv6: pkt_view_l3_ip6). */
static inline int pkt_view_l3_roce(struct pkt_view *v, const uint8_t *d, uint32_t len)
{
	uint32_t l3 = PKT_ETH_BYTES;
	uint16_t etype = pkt_get16(d + 12);
	const uint8_t *ip;

	if (etype == PKT_ETHERTYPE_VLAN) {
		etype = pkt_get16(d + 16);
		l3 += PKT_VLAN_BYTES;
	}
	if (unlikely(etype != PKT_ETHERTYPE_IPV4 || len < l3 + PKT_IPV4_BYTES))
		return pkt_view_l3_ip6(v, d, len, l3, etype);
	ip = d + l3;
	v->ll = PKT_LL_ROCE;
	v->ip6 = 0;
	v->l3_off = (uint16_t)l3;
	v->cls = ip[1] >> 2;
	v->cong = ip[1] & 3;
	v->dst = pkt_get32(ip + 16);
	return 0;
}

/* LRH (and the BTH's FECN bit): version 0, next header BTH or GRH. */
static inline int pkt_view_l3_ib(struct pkt_view *v, const uint8_t *d, uint32_t len)
{
	uint32_t bth_off = PKT_IB_LRH_BYTES;
	uint8_t lnh = d[1] & PKT_IB_LNH_MASK;

	if (lnh == PKT_IB_LNH_GLOBAL)
		bth_off += PKT_IB_GRH_BYTES;
	if (unlikely((d[0] & PKT_IB_LVER_MASK) != 0 || lnh < PKT_IB_LNH_LOCAL ||
		     len < bth_off + PKT_BTH_BYTES))
		return -EINVAL;
	v->ll = PKT_LL_IB;
	v->l3_off = PKT_IB_LRH_BYTES;
	v->vl = d[0] >> 4;
	v->cls = d[1] >> 4;
	v->cong = (d[bth_off + 4] & PKT_BTH_FECN) ? PKT_ECN_CE : PKT_ECN_ECT0;
	v->dst = pkt_get16(d + 2);
	return 0;
}

/* Where the BTH of the IB packet @d starts: after the LRH, and the GRH
 * when the LRH's next header says one follows. */
static inline uint32_t pkt_view_ib_bth_off(const uint8_t *d)
{
	return PKT_IB_LRH_BYTES +
	       ((d[1] & PKT_IB_LNH_MASK) == PKT_IB_LNH_GLOBAL ? PKT_IB_GRH_BYTES : 0);
}

/* Stage 1: the link layer @ll's framing up to the network header of the
 * frame at @d, whose headers lie within @len bytes (a frame holds its
 * headers: its length less the trailer bounds them; a parser of captured
 * bytes passes what it holds). At least PKT_ETH_BYTES + PKT_VLAN_BYTES
 * bytes at @d must be readable. Fills ll, l3_off, cls, cong and dst.
 * IB: the LRH (cls SL, vl, dst DLID, l3_off 8) and the BTH's FECN bit
 * as cong, so the BTH (after the GRH when LNH is 3) must lie within @len.
 * Returns 0, or -EINVAL when the frame is not of a network protocol the
 * link layer carries (RoCE: IPv4 or IPv6; IB: LVer 0 with LNH 2 or 3) or its
 * header does not fit. Inlined always: every switch's data path starts
 * here (GCC stopped inlining it into sw_rx once the switch had four
 * copies of its data path: +6 instructions a hop). */
static inline __attribute__((always_inline)) int pkt_view_l3(struct pkt_view *v, enum pkt_ll_kind ll,
								const uint8_t *d, uint32_t len)
{
	switch (ll) {
	case PKT_LL_ROCE:
		return pkt_view_l3_roce(v, d, len);
	case PKT_LL_IB:
		return pkt_view_l3_ib(v, d, len);
	case PKT_LL_UET:
		/* Ethernet and IPv4, as RoCE's. */
		if (pkt_view_l3_roce(v, d, len) != 0)
			return -EINVAL;
		v->ll = PKT_LL_UET;
		return 0;
	default:
		return -EINVAL;
	}
}

/* IB's flow: SLID, and the destination QP standing in for a port (IB
 * has no UDP; pkt_view_l3_ib checked the BTH lies within the frame). */
static inline int pkt_view_flow_ib(struct pkt_view *v, const uint8_t *d)
{
	uint32_t bth_off = pkt_view_ib_bth_off(d);

	v->l4_off = (uint16_t)bth_off;
	v->src = pkt_get16(d + 6);
	v->proto = 0;
	v->sport = pkt_get16(d + bth_off + 6);
	v->dport = 0;
	return 0;
}

/* IPv6's flow: the source address folded to 32 bits, the first next
 * header (extension headers are not walked) and the 4 bytes after the
 * fixed header (TCP's and UDP's ports). */
static inline __attribute__((cold)) int pkt_view_flow_ip6(struct pkt_view *v, const uint8_t *d,
							   uint32_t len)
{
	const uint8_t *ip = d + v->l3_off;
	uint32_t l4 = v->l3_off + (uint32_t)PKT_IPV6_BYTES;

	if (len < l4 + PKT_UDP_BYTES)
		return -EINVAL;
	v->l4_off = (uint16_t)l4;
	v->src = pkt_get32(ip + 8) ^ pkt_get32(ip + 12) ^ pkt_get32(ip + 16) ^ pkt_get32(ip + 20);
	v->proto = ip[6];
	v->sport = pkt_get16(d + l4);
	v->dport = pkt_get16(d + l4 + 2);
	return 0;
}

/* Stage 2 (after pkt_view_l3): the flow-hash inputs, source address, IP
 * protocol and the UDP ports, and l4_off (IB: SLID, protocol 0, the low
 * 16 bits of the BTH destination QP as sport, dport 0, l4_off the BTH;
 * IPv6: pkt_view_flow_ip6). Returns 0, or -EINVAL when the first 8 bytes
 * of the transport header lie beyond @len. */
static inline int pkt_view_flow(struct pkt_view *v, const uint8_t *d, uint32_t len)
{
	const uint8_t *ip = d + v->l3_off;
	uint32_t l4 = v->l3_off + (uint32_t)(ip[0] & 0x0F) * 4;

	/* unlikely(): measured, fabemu bench with the RoCE path's layout kept
	 * (docs/wire-formats.md, Native InfiniBand). */
	if (unlikely(v->ll == PKT_LL_IB))
		return pkt_view_flow_ib(v, d);
	if (unlikely(v->ip6))
		return pkt_view_flow_ip6(v, d, len);
	if (unlikely(len < l4 + PKT_UDP_BYTES))
		return -EINVAL;
	v->l4_off = (uint16_t)l4;
	v->src = pkt_get32(ip + 12);
	v->proto = ip[9];
	v->sport = pkt_get16(d + l4);
	v->dport = pkt_get16(d + l4 + 2);
	return 0;
}

/* A UET request's RC opcode: the SES opcode (WRITE or SEND) with the
 * message's start and end flags and, on its last packet, header data
 * (the immediate); 0xFF when it is none of those. */
static inline uint8_t pkt_view_uet_opcode(uint8_t ses_op, uint8_t ses_flags)
{
	bool som = ses_flags & PKT_UET_SES_F_SOM, eom = ses_flags & PKT_UET_SES_F_EOM;
	bool imm = eom && (ses_flags & PKT_UET_SES_F_HD);

	if (ses_op == PKT_UET_SES_WRITE)
		return pkt_opcode(imm ? PKT_XFER_WRITE_IMM : PKT_XFER_WRITE, som, eom);
	if (ses_op != PKT_UET_SES_SEND)
		return 0xFF;
	if (imm)
		return som ? PKT_OP_SEND_ONLY_IMM : PKT_OP_SEND_LAST_IMM;
	return pkt_opcode(PKT_XFER_SEND, som, eom);
}

/* Stage 3 for UET (pkt_uet.h; called by pkt_view_bth): an IPv4 UDP
 * datagram to port 4793 holding a PDS header the NIC's transport knows
 * (a RUD or ROD request followed by the SES standard request header, an
 * ACK, an ACK_CC, a NACK), read into the fields RoCE's BTH fills:
 * bth_off is the PDS header; a request's opcode is its RC opcode
 * (pkt_view_uet_opcode), dest_qp the DPDCID, psn the PSN (its low 24
 * bits: the NIC's PSN space), ack_req the AR flag, reth_va the SES
 * buffer offset, reth_len the request length, imm_data the header data's
 * low 32 bits; an ACK is PKT_OP_ACK with psn its CACK_PSN and syndrome
 * PKT_AETH_ACK_UNLIMITED, or, an ACK_CC with SACK bits, syndrome
 * PKT_AETH_NAK_PSN_SEQ, psn CACK_PSN + 1, aeth_msn the bitmap's first PSN
 * and sack_bits the bitmap; a NACK is PKT_OP_ACK with psn its NACK_PSN
 * and syndrome PKT_UET_SYND_TRIMMED (code trimmed),
 * PKT_UET_SYND_TRIMMED_LAST (code trimmed on the last hop),
 * PKT_UET_SYND_ROD_OOO (code ROD out of order) or PKT_AETH_NAK_REM_OP
 * (any other code). A request with CC state (RUD_CC_REQ, ROD_CC_REQ) is
 * read as the request, with uet_cc set and its credit target in
 * aeth_msn; a CONTROL packet of type CREDIT or CREDIT_REQ is opcode
 * PKT_UET_OP_CREDIT or PKT_UET_OP_CREDIT_REQ, psn its PSN field, aeth_msn
 * the credit (24 bits). sport is the UDP source port
 * (the entropy value). Returns 0 or -EINVAL. */
static inline __attribute__((cold)) int pkt_view_uet(struct pkt_view *v, const uint8_t *d,
						      uint32_t len)
{
	const uint8_t *ip = d + v->l3_off, *pds, *ses;
	uint32_t l4 = v->l3_off + (uint32_t)(ip[0] & 0x0F) * 4, off = l4 + PKT_UDP_BYTES;
	uint16_t pro;
	uint8_t type, flags;

	if (v->ip6 || ip[9] != PKT_IPPROTO_UDP || len < off + PKT_UET_PDS_ACK_BYTES ||
	    pkt_get16(d + l4 + 2) != PKT_UET_UDP_PORT)
		return -EINVAL;
	pds = d + off;
	pro = pkt_get16(pds);
	type = (uint8_t)(pro >> PKT_UET_TYPE_SHIFT);
	flags = (uint8_t)(pro & PKT_UET_FLAGS_MASK);
	v->l4_off = (uint16_t)l4;
	v->bth_off = (uint16_t)off;
	v->sport = pkt_get16(d + l4);
	v->ack_req = 0;
	v->sack_bits = 0;
	v->retx = (flags & PKT_UET_REQ_F_RETX) != 0; /* 0x10 in every type that has it */
	v->ses_cut = 0;
	v->uet_cc = 0;
	v->dest_qp = pkt_get16(pds + 10);
	v->psn = pkt_get32(pds + 4) & PKT_24BIT_MASK;
	switch (type) {
	case PKT_UET_TYPE_RUD_CC_REQ:
	case PKT_UET_TYPE_ROD_CC_REQ:
		if (len < off + PKT_UET_PDS_REQ_CC_BYTES)
			return -EINVAL;
		v->uet_cc = 1;
		v->aeth_msn = pkt_get32(pds + 12) & PKT_UET_CREDIT_MASK;
		__attribute__((fallthrough)); /* the request */
	case PKT_UET_TYPE_RUD_REQ:
	case PKT_UET_TYPE_ROD_REQ:
		if (((pro >> PKT_UET_NEXT_SHIFT) & 0xF) != PKT_UET_NEXT_REQ_STD)
			return -EINVAL;
		v->ack_req = (flags & PKT_UET_REQ_F_AR) != 0;
		if (len < off + pkt_uet_req_pds_bytes(type) + PKT_UET_SES_STD_BYTES) {
			/* Trimmed to its PDS header (and a part of the SES). */
			v->ses_cut = 1;
			v->opcode = PKT_OP_WRITE_MIDDLE;
			v->reth_va = 0;
			v->reth_rkey = 0;
			v->reth_len = 0;
			v->imm_data = 0;
			return 0;
		}
		ses = pds + pkt_uet_req_pds_bytes(type);
		v->opcode = pkt_view_uet_opcode(ses[0] & PKT_UET_SES_OPCODE_MASK,
						ses[1] & PKT_UET_SES_OPCODE_MASK);
		if (v->opcode == 0xFF)
			return -EINVAL;
		v->reth_va = (uint64_t)pkt_get32(ses + 12) << 32 | pkt_get32(ses + 16);
		v->reth_rkey = 0;
		v->reth_len = pkt_get32(ses + 40);
		/* Header data on the first packet or with HD; after the first,
		 * payload length and message offset. */
		v->imm_data = (ses[1] & (PKT_UET_SES_F_SOM | PKT_UET_SES_F_HD)) ? pkt_get32(ses + 36) : 0;
		return 0;
	case PKT_UET_TYPE_ACK:
	case PKT_UET_TYPE_ACK_CC:
		v->opcode = PKT_OP_ACK;
		v->aeth_syndrome = PKT_AETH_ACK_UNLIMITED;
		v->aeth_msn = 0;
		v->acked_psn = (v->psn + (uint32_t)(int32_t)(int16_t)pkt_get16(pds + 2)) & PKT_24BIT_MASK;
		if (type == PKT_UET_TYPE_ACK_CC) {
			if (len < off + PKT_UET_PDS_ACK_CC_BYTES)
				return -EINVAL;
			v->sack_bits = (uint64_t)pkt_get32(pds + 16) << 32 | pkt_get32(pds + 20);
			if (v->sack_bits) {
				v->aeth_syndrome = PKT_AETH_NAK_PSN_SEQ;
				v->aeth_msn = (v->psn + pkt_get16(pds + 14)) & PKT_24BIT_MASK;
				v->psn = (v->psn + 1) & PKT_24BIT_MASK;
			}
		}
		return 0;
	case PKT_UET_TYPE_NACK:
		if (len < off + PKT_UET_PDS_NACK_BYTES)
			return -EINVAL;
		v->opcode = PKT_OP_ACK;
		v->aeth_syndrome = pds[2] == PKT_UET_NACK_TRIMMED	    ? PKT_UET_SYND_TRIMMED
				   : pds[2] == PKT_UET_NACK_TRIMMED_LASTHOP ? PKT_UET_SYND_TRIMMED_LAST
				   : pds[2] == PKT_UET_NACK_ROD_OOO	    ? PKT_UET_SYND_ROD_OOO
									    : PKT_AETH_NAK_REM_OP;
		v->aeth_msn = 0;
		v->acked_psn = v->psn;
		return 0;
	case PKT_UET_TYPE_CONTROL: {
		uint8_t ctl = (uint8_t)((pro >> PKT_UET_NEXT_SHIFT) & 0xF);

		if (len < off + PKT_UET_PDS_CTRL_BYTES ||
		    (ctl != PKT_UET_CTL_CREDIT && ctl != PKT_UET_CTL_CREDIT_REQ))
			return -EINVAL;
		v->opcode = ctl == PKT_UET_CTL_CREDIT ? PKT_UET_OP_CREDIT : PKT_UET_OP_CREDIT_REQ;
		v->aeth_syndrome = 0;
		v->aeth_msn = pkt_get32(pds + 12) & PKT_UET_CREDIT_MASK;
		v->acked_psn = v->psn;
		return 0;
	}
	default:
		return -EINVAL;
	}
}

/* Stage 3 (after pkt_view_l3): RoCEv2's transport as a NIC reads it: an
 * IPv4 UDP datagram to port 4791 (IB: the BTH after the LRH, or after the GRH
 * when LNH is 3; l4_off = bth_off) whose BTH opcode is known (pkt_layouts), the BTH's
 * opcode, A bit, destination QP and PSN, and the AETH, RETH and ImmDt its
 * opcode implies (those fields are set only when it does). Fills l4_off,
 * bth_off and these. Returns 0, or -EINVAL when the frame is not RoCEv2 or
 * the BTH (with its AETH / RETH / ImmDt) lies beyond @len. */
static inline int pkt_view_bth(struct pkt_view *v, const uint8_t *d, uint32_t len)
{
	const uint8_t *ip = d + v->l3_off, *bth, *ext;
	uint32_t l4 = v->l3_off + (uint32_t)(ip[0] & 0x0F) * 4, bth_off = l4 + PKT_UDP_BYTES;
	const struct pkt_layout *lay;

	if (unlikely(v->ll == PKT_LL_IB)) {
		/* pkt_view_l3_ib checked the BTH lies within @len. */
		bth_off = pkt_view_ib_bth_off(d);
		l4 = bth_off;
	} else if (unlikely(v->ip6 || ip[9] != PKT_IPPROTO_UDP || len < bth_off + PKT_BTH_BYTES ||
			    pkt_get16(d + l4 + 2) != PKT_ROCE_UDP_PORT)) {
		/* Not RoCEv2: UET's frames come here (out of RoCE's way). */
		return v->ll == PKT_LL_UET ? pkt_view_uet(v, d, len) : -EINVAL;
	}
	bth = d + bth_off;
	ext = bth + PKT_BTH_BYTES;
	lay = &pkt_layouts[bth[0]];
	if (unlikely(lay->hdr_bytes == 0))
		return -EINVAL;
	v->l4_off = (uint16_t)l4;
	v->bth_off = (uint16_t)bth_off;
	v->opcode = bth[0];
	v->ack_req = bth[8] >> 7;
	v->dest_qp = pkt_get24(bth + 5);
	v->psn = pkt_get24(bth + 9);
	if (lay->exts & PKT_EXT_AETH) {
		if (unlikely(len < bth_off + PKT_BTH_BYTES + PKT_AETH_BYTES))
			return -EINVAL;
		v->aeth_syndrome = ext[0];
		v->aeth_msn = pkt_get24(ext + 1);
	} else if (lay->exts & PKT_EXT_RETH) {
		if (unlikely(len < bth_off + PKT_BTH_BYTES + PKT_RETH_BYTES))
			return -EINVAL;
		v->reth_va = (uint64_t)pkt_get32(ext) << 32 | pkt_get32(ext + 4);
		v->reth_rkey = pkt_get32(ext + 8);
		v->reth_len = pkt_get32(ext + 12);
	}
	if (unlikely(lay->exts & PKT_EXT_IMM)) {
		if (unlikely(len < bth_off + lay->hdr_bytes))
			return -EINVAL;
		v->imm_data = pkt_get32(bth + lay->hdr_bytes - PKT_IMM_BYTES);
	}
	return 0;
}

/* Stage 4 (after pkt_view_bth), for frames from anywhere (captures, other
 * tools), which built frames need not: the IPv4 header is version 4 with
 * IHL >= 5 and not a fragment, and its total length holds the headers
 * (IB: a GRH is IPVer 6 with next header 0x1B, and PktLen * 4 holds the
 * headers); fills the rest of the BTH (se, pad_bytes, pkey, becn),
 * net_bytes, hdr_bytes and payload_bytes (from the total length or
 * PktLen, not the bytes held, so truncated frames parse). Returns 0 or
 * -EINVAL. */
static inline int pkt_view_rest_ib(struct pkt_view *v, const uint8_t *d)
{
	const uint8_t *grh = d + PKT_IB_LRH_BYTES, *bth = d + v->bth_off;
	uint32_t fixed_bytes;

	if (v->bth_off > PKT_IB_LRH_BYTES &&
	    (grh[0] >> 4 != PKT_IB_GRH_IPVER || grh[PKT_IB_GRH_NXTHDR_OFF] != PKT_IB_GRH_NXTHDR))
		return -EINVAL;
	v->net_bytes = (uint16_t)((pkt_get16(d + 4) & PKT_IB_PKTLEN_MASK) * 4);
	v->hdr_bytes = pkt_layouts[v->opcode].hdr_bytes;
	v->se = (bth[1] & PKT_BTH_SE) != 0;
	v->pad_bytes = (bth[1] >> PKT_BTH_PAD_SHIFT) & 3;
	v->pkey = pkt_get16(bth + 2);
	v->becn = (bth[4] & PKT_BTH_BECN) != 0;
	fixed_bytes = v->bth_off + v->hdr_bytes + v->pad_bytes + PKT_ICRC_BYTES;
	if (v->net_bytes < fixed_bytes)
		return -EINVAL;
	v->payload_bytes = v->net_bytes - fixed_bytes;
	return 0;
}

/* The PDS (and SES) header bytes of a UET frame whose PDS header is at
 * @pds (a type pkt_view_uet accepted). */
static inline uint32_t pkt_view_uet_hdr_bytes(const uint8_t *pds)
{
	switch (pds[0] >> 3) {
	case PKT_UET_TYPE_RUD_REQ:
	case PKT_UET_TYPE_ROD_REQ:
		return PKT_UET_REQ_HDR_BYTES;
	case PKT_UET_TYPE_RUD_CC_REQ:
	case PKT_UET_TYPE_ROD_CC_REQ:
		return PKT_UET_PDS_REQ_CC_BYTES + PKT_UET_SES_STD_BYTES;
	case PKT_UET_TYPE_CONTROL:
		return PKT_UET_PDS_CTRL_BYTES;
	case PKT_UET_TYPE_ACK_CC:
		return PKT_UET_PDS_ACK_CC_BYTES;
	case PKT_UET_TYPE_NACK:
		return PKT_UET_PDS_NACK_BYTES;
	default:
		return PKT_UET_PDS_ACK_BYTES;
	}
}

/* Stage 4 for UET: as RoCE's, with the PDS and SES headers for the BTH
 * and its extensions, no pad and no ICRC; becn is an ACK's or NACK's M
 * flag (the acknowledged packet was CE-marked), pkey 0xFFFF. */
static inline int pkt_view_rest_uet(struct pkt_view *v, const uint8_t *d)
{
	const uint8_t *ip = d + v->l3_off, *pds = d + v->bth_off;
	uint32_t ihl_bytes = (uint32_t)v->l4_off - v->l3_off, fixed_bytes;

	if (ip[0] >> 4 != 4 || ihl_bytes < PKT_IPV4_BYTES ||
	    (pkt_get16(ip + 6) & PKT_IPV4_FRAG_MASK) != 0)
		return -EINVAL;
	v->net_bytes = pkt_get16(ip + 2);
	v->hdr_bytes = (uint8_t)pkt_view_uet_hdr_bytes(pds);
	/* A trimmed request holds what is left of its headers, no payload. */
	if (v->ses_cut &&
	    v->net_bytes >= ihl_bytes + PKT_UDP_BYTES + pkt_uet_req_pds_bytes(pds[0] >> 3) &&
	    v->net_bytes < ihl_bytes + PKT_UDP_BYTES + v->hdr_bytes)
		v->hdr_bytes = (uint8_t)(v->net_bytes - ihl_bytes - PKT_UDP_BYTES);
	v->se = 0;
	v->pad_bytes = 0;
	v->pkey = 0xFFFF;
	v->becn = v->opcode == PKT_OP_ACK && (pds[1] & PKT_UET_ACK_F_M) != 0;
	fixed_bytes = ihl_bytes + PKT_UDP_BYTES + v->hdr_bytes;
	if (v->net_bytes < fixed_bytes)
		return -EINVAL;
	v->payload_bytes = v->net_bytes - fixed_bytes;
	return 0;
}

static inline int pkt_view_rest(struct pkt_view *v, const uint8_t *d)
{
	const uint8_t *ip = d + v->l3_off, *bth = d + v->bth_off;
	uint32_t ihl_bytes = (uint32_t)v->l4_off - v->l3_off, fixed_bytes;

	if (unlikely(v->ll == PKT_LL_IB))
		return pkt_view_rest_ib(v, d);
	if (unlikely(v->ll == PKT_LL_UET))
		return pkt_view_rest_uet(v, d);
	if (ip[0] >> 4 != 4 || ihl_bytes < PKT_IPV4_BYTES ||
	    (pkt_get16(ip + 6) & PKT_IPV4_FRAG_MASK) != 0)
		return -EINVAL;
	v->net_bytes = pkt_get16(ip + 2);
	v->hdr_bytes = pkt_layouts[v->opcode].hdr_bytes;
	v->se = (bth[1] & PKT_BTH_SE) != 0;
	v->pad_bytes = (bth[1] >> PKT_BTH_PAD_SHIFT) & 3;
	v->pkey = pkt_get16(bth + 2);
	v->becn = (bth[4] & PKT_BTH_BECN) != 0;
	fixed_bytes = ihl_bytes + PKT_UDP_BYTES + v->hdr_bytes + v->pad_bytes + PKT_ICRC_BYTES;
	if (v->net_bytes < fixed_bytes)
		return -EINVAL;
	v->payload_bytes = v->net_bytes - fixed_bytes;
	return 0;
}

/* Whether the frame @d viewed by pkt_view_bth carries HPCC's INT stack
 * (the BTH's PKT_BTH_INT bit). */
static inline bool pkt_view_has_int(const struct pkt_view *v, const uint8_t *d)
{
	/* UET frames carry no INT stack. */
	return v->ll != PKT_LL_UET && (d[v->bth_off + 4] & PKT_BTH_INT) != 0;
}

/* Where the INT stack of a frame @d viewed by pkt_view_bth starts (right
 * after the transport headers), to echo it without decoding it; the
 * caller tested pkt_view_has_int. */
static inline const uint8_t *pkt_view_int_at(const struct pkt_view *v, const uint8_t *d)
{
	return d + v->bth_off + pkt_layouts[v->opcode].hdr_bytes;
}

/* The BTH's BECN bit of a frame @d viewed by pkt_view_bth, alone (what
 * pkt_view_rest puts in v->becn with the rest). */
static inline bool pkt_view_becn(const struct pkt_view *v, const uint8_t *d)
{
	if (unlikely(v->ll == PKT_LL_UET)) /* an ACK's or NACK's M flag */
		return v->opcode == PKT_OP_ACK && (d[v->bth_off + 1] & PKT_UET_ACK_F_M) != 0;
	return (d[v->bth_off + 4] & PKT_BTH_BECN) != 0;
}

/* Stage 5 (after pkt_view_bth): HPCC's INT stack, present when the BTH's
 * PKT_BTH_INT bit is set, right after the transport headers: int_off,
 * int_hops, int_fmt and int_multi (all 0 without one). Returns 0, or
 * -EINVAL when the stack (header and records) lies beyond @len, claims
 * more than PKT_INT_MAX_HOPS records or names no valid format
 * (pkt_int_enc_valid). */
static inline int pkt_view_int(struct pkt_view *v, const uint8_t *d, uint32_t len)
{
	uint32_t off = (uint32_t)v->bth_off + pkt_layouts[v->opcode].hdr_bytes, hops;
	uint8_t fmt, multi;

	v->int_off = 0;
	v->int_hops = 0;
	v->int_fmt = 0;
	v->int_multi = 0;
	if (!pkt_view_has_int(v, d))
		return 0;
	if (len < off + PKT_INT_HDR_BYTES)
		return -EINVAL;
	hops = pkt_get16(d + off);
	fmt = d[off + PKT_INT_HDR_FMT_OFF];
	multi = d[off + PKT_INT_HDR_MULTI_OFF];
	if (hops > PKT_INT_MAX_HOPS || !pkt_int_enc_valid(fmt, multi) ||
	    len < off + PKT_INT_HDR_BYTES + hops * pkt_int_rec_bytes(fmt))
		return -EINVAL;
	v->int_off = (uint16_t)off;
	v->int_hops = (uint8_t)hops;
	v->int_fmt = fmt;
	v->int_multi = multi;
	return 0;
}

/* Bytes of the INT stack pkt_view_int found (0 without one). */
static inline uint32_t pkt_view_int_bytes(const struct pkt_view *v)
{
	return v->int_off
		       ? PKT_INT_HDR_BYTES + (uint32_t)v->int_hops * pkt_int_rec_bytes(v->int_fmt)
		       : 0;
}

/* Record @i (0 = the first switch's) of the stack pkt_view_int found,
 * decoded from its format into the same units. */
static inline void pkt_view_int_hop(const struct pkt_view *v, const uint8_t *d, unsigned i,
				    struct pkt_int_hop *h)
{
	const uint8_t *rec =
		d + v->int_off + PKT_INT_HDR_BYTES + i * pkt_int_rec_bytes(v->int_fmt);

	if (v->int_fmt == PKT_INT_FMT_COMPACT)
		pkt_int_hop_read_compact(rec, v->int_multi, h);
	else
		pkt_int_hop_read(rec, h);
}

/* Offset of the payload of a frame @d viewed by pkt_view_bth: after the
 * transport headers and, when the BTH's INT flag is set, HPCC's INT stack
 * (pkt_telemetry.h; its header gives its hop count and record format).
 * For a frame that holds its payload (the caller knows). */
static inline uint32_t pkt_view_payload_off(const struct pkt_view *v, const uint8_t *d)
{
	uint32_t off = (uint32_t)v->bth_off + pkt_layouts[v->opcode].hdr_bytes;

	if (unlikely(v->ll == PKT_LL_UET))
		return (uint32_t)v->bth_off + pkt_view_uet_hdr_bytes(d + v->bth_off);
	if (pkt_view_has_int(v, d))
		off += PKT_INT_HDR_BYTES + (uint32_t)pkt_get16(d + off) *
						   pkt_int_rec_bytes(d[off + PKT_INT_HDR_FMT_OFF]);
	return off;
}

/* Stages 1 and 3: what a NIC reads of a received frame. */
static inline int pkt_view_roce(struct pkt_view *v, enum pkt_ll_kind ll, const uint8_t *d,
				uint32_t len)
{
	int rc = pkt_view_l3(v, ll, d, len);

	return rc == 0 ? pkt_view_bth(v, d, len) : rc;
}

/* Every stage: the whole view of a frame from anywhere. */
static inline int pkt_view_all(struct pkt_view *v, enum pkt_ll_kind ll, const uint8_t *d,
			       uint32_t len)
{
	int rc = pkt_view_l3(v, ll, d, len);

	if (rc == 0)
		rc = pkt_view_flow(v, d, len);
	if (rc == 0)
		rc = pkt_view_bth(v, d, len);
	if (rc == 0)
		rc = pkt_view_rest(v, d);
	if (rc == 0)
		rc = pkt_view_int(v, d, len);
	if (rc == 0 && v->int_off) {
		/* The stack is not payload. */
		if (v->payload_bytes < pkt_view_int_bytes(v))
			return -EINVAL;
		v->payload_bytes -= pkt_view_int_bytes(v);
	}
	return rc;
}

/* Did the fabric mark the frame as congested (RoCE: IPv4 ECN CE; IB: BTH
 * FECN)? */
static inline bool pkt_view_ce(const struct pkt_view *v)
{
	return v->cong == PKT_ECN_CE;
}

/* The bytes that bound the headers of a frame of link layer @ll built
 * here: its length less its trailer (RoCE: the FCS, 4; IB: the VCRC, 2),
 * as frames hold their headers and only payload may be left out. */
static inline uint32_t pkt_view_hdr_limit(enum pkt_ll_kind ll, const struct rte_mbuf *m)
{
	pkt_ll_kind_valid(ll);
	return pkt_meta_const(m)->frame_bytes -
	       (ll == PKT_LL_IB ? (uint32_t)PKT_IB_VCRC_BYTES : (uint32_t)PKT_FCS_BYTES);
}

#endif
