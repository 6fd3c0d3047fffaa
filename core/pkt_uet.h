/* Ultra Ethernet Transport frames (fabric.link_layer: uet): Ethernet II,
 * optional 802.1Q, IPv4, UDP to port 4793 whose source port carries the
 * packet's entropy value (EV), then the Packet Delivery Sub-layer (PDS)
 * header and, on requests, the Semantic Sub-layer (SES) standard request
 * header and the payload; no ICRC. The NIC's transport is the same as on
 * RoCE (PSNs, cumulative ACKs, selective repeat); the builders write its
 * packets in UET's formats and pkt_view_bth reads them back into the same
 * fields (a request's SOM / EOM flags and SES opcode give the RC opcode a
 * NIC acts on). Layouts, field by field, and their sources (UEC
 * specification 1.0, June 2025, sections 3.4 and 3.5; the field widths as
 * in the Linux ultraeth RFC's uapi header): docs/wire-formats.md, "Ultra
 * Ethernet Transport". */
#ifndef FAB_PKT_UET_H
#define FAB_PKT_UET_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

enum {
	PKT_UET_UDP_PORT = 4793,      /* IANA: UET over UDP */
	PKT_UET_PDS_REQ_BYTES = 12,   /* RUD / ROD request */
	PKT_UET_PDS_ACK_BYTES = 12,   /* ACK */
	PKT_UET_PDS_ACK_CC_BYTES = 32, /* ACK_CC: the ACK and its 20-byte extension (SACK) */
	PKT_UET_PDS_NACK_BYTES = 16,  /* NACK */
	PKT_UET_PDS_REQ_CC_BYTES = 16, /* RUD_CC_REQ / ROD_CC_REQ: the request and its CC state */
	PKT_UET_PDS_CTRL_BYTES = 16,  /* CONTROL (CREDIT, CREDIT_REQ) */
	PKT_UET_SES_STD_BYTES = 44,   /* SES standard request header */
	/* What a data frame holds before its payload. */
	PKT_UET_REQ_HDR_BYTES = PKT_UET_PDS_REQ_BYTES + PKT_UET_SES_STD_BYTES,
	PKT_UET_SACK_BITS = 64,       /* PSNs an ACK_CC's bitmap covers */

	/* PDS prologue (the first 16 bits of every PDS header): type in bits
	 * 15..11, next header (or control type) in 10..7, flags in 6..0. */
	PKT_UET_TYPE_SHIFT = 11,
	PKT_UET_NEXT_SHIFT = 7,
	PKT_UET_FLAGS_MASK = 0x7F,
	/* PDS types */
	PKT_UET_TYPE_RUD_REQ = 2,     /* reliable unordered delivery request */
	PKT_UET_TYPE_ROD_REQ = 3,     /* reliable ordered delivery request */
	PKT_UET_TYPE_ACK = 7,
	PKT_UET_TYPE_ACK_CC = 8,      /* ACK with the CC / SACK extension */
	PKT_UET_TYPE_NACK = 10,
	PKT_UET_TYPE_CONTROL = 11,    /* control packet: its type in the next-header bits */
	PKT_UET_TYPE_RUD_CC_REQ = 13, /* RUD request with CC state (a credit target) */
	PKT_UET_TYPE_ROD_CC_REQ = 14, /* ROD request with CC state */
	/* Control types (CONTROL's next-header bits) */
	PKT_UET_CTL_CREDIT = 7,       /* receiver to sender: credit granted (RCCC) */
	PKT_UET_CTL_CREDIT_REQ = 8,   /* sender to receiver: credit asked for */
	/* RCCC: credit and credit targets count in units of 256 bytes (the
	 * reference simulator's pull quantum), 24 bits on the wire, modulo */
	PKT_UET_CREDIT_UNIT = 256,
	PKT_UET_CREDIT_MASK = 0xFFFFFF,
	/* Next header */
	PKT_UET_NEXT_NONE = 0,
	PKT_UET_NEXT_REQ_STD = 3,     /* SES standard request header */
	/* Request flags */
	PKT_UET_REQ_F_AR = 0x08,      /* ACK requested */
	PKT_UET_REQ_F_RETX = 0x10,    /* a retransmission */
	/* ACK / NACK flags */
	PKT_UET_ACK_F_RETX = 0x10,    /* acknowledges a retransmission */
	PKT_UET_ACK_F_M = 0x20,       /* the acknowledged packet was CE-marked */
	/* NACK codes */
	PKT_UET_NACK_TRIMMED = 0x01,  /* the packet was trimmed on its way (UET_TRIMMED) */
	PKT_UET_NACK_TRIMMED_LASTHOP = 0x02, /* ... by the switch before its receiver
				       * (UET_TRIMMED_LASTHOP: it came on the last-hop
				       * trimmed DSCP) */
	PKT_UET_NACK_ROD_OOO = 0x0D,  /* ROD: a packet out of order (NACK_PSN: the one expected) */
	/* SES standard request: opcodes (low 6 bits of byte 0) and flags
	 * (low 6 bits of byte 1; the version in its top 2 bits, 0) */
	PKT_UET_SES_WRITE = 0x01,
	PKT_UET_SES_SEND = 0x05,
	PKT_UET_SES_F_SOM = 0x01,     /* start of message */
	PKT_UET_SES_F_EOM = 0x02,     /* end of message */
	PKT_UET_SES_F_HD = 0x04,      /* header data (the immediate) is valid */
	PKT_UET_SES_OPCODE_MASK = 0x3F,

	/* What pkt_view_bth reports as the AETH syndrome of a NACK of a
	 * trimmed packet (a NAK class RoCE never sends: its codes are
	 * 0x60..0x63 and the RNR range). */
	PKT_UET_SYND_TRIMMED = 0x7F,
	/* ... and of a NACK of an out-of-order packet on ROD */
	PKT_UET_SYND_ROD_OOO = 0x7E,
	/* ... and of a NACK of a packet trimmed on the last hop */
	PKT_UET_SYND_TRIMMED_LAST = 0x7D,

	/* The opcodes the builders and pkt_view_bth give UET's credit
	 * control packets (outside RC's opcodes and CNP's 0x81) */
	PKT_UET_OP_CREDIT = 0xE7,
	PKT_UET_OP_CREDIT_REQ = 0xE8,
};

/* Whether AETH syndrome @s (as pkt_view_bth reports UET) is a NACK of a
 * trimmed packet, on the last hop or before it. */
static inline bool pkt_uet_synd_trimmed(uint8_t s)
{
	return s == PKT_UET_SYND_TRIMMED || s == PKT_UET_SYND_TRIMMED_LAST;
}

/* The PDS header bytes of a request of PDS type @type (RUD_REQ, ROD_REQ:
 * 12; with CC state: 16); the SES header follows. */
static inline uint32_t pkt_uet_req_pds_bytes(uint8_t type)
{
	return type >= PKT_UET_TYPE_RUD_CC_REQ ? PKT_UET_PDS_REQ_CC_BYTES : PKT_UET_PDS_REQ_BYTES;
}

/* @type is a request: RUD or ROD, with or without CC state. */
static inline int pkt_uet_type_is_req(uint8_t type)
{
	return type == PKT_UET_TYPE_RUD_REQ || type == PKT_UET_TYPE_ROD_REQ ||
	       type == PKT_UET_TYPE_RUD_CC_REQ || type == PKT_UET_TYPE_ROD_CC_REQ;
}

/* A switch trims the UET request @m (a packet of a sim pool, its frame
 * written through the SES header at least) that it has no room for: the
 * frame keeps its first @frame_bytes bytes (the FCS counted; at least
 * the headers through the PDS header: the receiver reads the PSN and the
 * PDCs to NACK it) and carries DSCP @dscp; the IPv4 total length and
 * checksum and the UDP length follow, the payload count in its metadata
 * is 0. Returns 0, or -EINVAL when @m is not a UET request or
 * @frame_bytes would cut into its PDS header. */
int pkt_uet_trim(struct rte_mbuf *m, uint32_t frame_bytes, uint8_t dscp);

#endif
