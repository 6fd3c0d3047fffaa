/* Packets: rte_mbufs holding real wire headers (Ethernet II, optional 802.1Q,
 * IPv4, UDP 4791, InfiniBand BTH and its extension headers; or native
 * InfiniBand: LRH, optional GRH, BTH ..., ICRC, VCRC) plus our metadata
 * in the mbuf private area. Payload is materialised only on request; the
 * metadata always carries the full frame length. Builders, parsers, the ICRC
 * and in-place rewrites (ECN CE, TTL) live here. Wire formats: see
 * docs/wire-formats.md. */
#ifndef FAB_PKT_H
#define FAB_PKT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_prefetch.h>

enum {
	PKT_ETH_BYTES = 14,
	PKT_VLAN_BYTES = 4,
	PKT_IPV4_BYTES = 20,
	PKT_IPV6_BYTES = 40,     /* the fixed header (live endpoints' frames) */
	PKT_UDP_BYTES = 8,
	PKT_BTH_BYTES = 12,
	PKT_RETH_BYTES = 16,
	PKT_AETH_BYTES = 4,
	PKT_IMM_BYTES = 4,
	PKT_CNP_PAD_BYTES = 16, /* reserved bytes after the BTH of a CNP */
	PKT_ICRC_BYTES = 4,
	PKT_FCS_BYTES = 4,
	PKT_MIN_FRAME_BYTES = 64,  /* incl. FCS */
	PKT_ROCE_UDP_PORT = 4791,
	PKT_ETHERTYPE_IPV4 = 0x0800,
	PKT_ETHERTYPE_VLAN = 0x8100,
	PKT_ETHERTYPE_IPV6 = 0x86DD,
	PKT_ETHERTYPE_MACCTL = 0x8808,
	PKT_PFC_OPCODE = 0x0101,
	PKT_N_PRIO = 8,
};

/* BTH opcodes (RC transport, and the RoCEv2 CNP). */
enum pkt_opcode {
	PKT_OP_SEND_FIRST = 0x00,
	PKT_OP_SEND_MIDDLE = 0x01,
	PKT_OP_SEND_LAST = 0x02,
	PKT_OP_SEND_LAST_IMM = 0x03,
	PKT_OP_SEND_ONLY = 0x04,
	PKT_OP_SEND_ONLY_IMM = 0x05,
	PKT_OP_WRITE_FIRST = 0x06,
	PKT_OP_WRITE_MIDDLE = 0x07,
	PKT_OP_WRITE_LAST = 0x08,
	PKT_OP_WRITE_LAST_IMM = 0x09,  /* ImmDt after the BTH */
	PKT_OP_WRITE_ONLY = 0x0A,
	PKT_OP_WRITE_ONLY_IMM = 0x0B,  /* RETH, then ImmDt */
	PKT_OP_READ_REQ = 0x0C,
	PKT_OP_READ_RESP_FIRST = 0x0D,
	PKT_OP_READ_RESP_MIDDLE = 0x0E,
	PKT_OP_READ_RESP_LAST = 0x0F,
	PKT_OP_READ_RESP_ONLY = 0x10,
	PKT_OP_ACK = 0x11,
	PKT_OP_CNP = 0x81,
};

/* What a packet of a multi-packet message carries: the operation whose
 * first / middle / last / only opcodes pkt_opcode picks. */
enum pkt_xfer {
	PKT_XFER_SEND,      /* SEND request */
	PKT_XFER_WRITE,     /* RDMA WRITE request */
	PKT_XFER_READ_RESP, /* RDMA READ response */
	PKT_XFER_WRITE_IMM, /* RDMA WRITE with immediate: the last packet carries ImmDt */
	PKT_XFER_N,
};

/* The BTH opcode of a packet of transfer @x (RC) that is the message's
 * first and/or last (IBTA Vol 1 table 38; both: "only"). The one mapping
 * of fabemu: NICs and the traffic model use it. */
static inline uint8_t pkt_opcode(enum pkt_xfer x, bool first, bool last)
{
	/* [x][first][last] */
	static const uint8_t ops[PKT_XFER_N][2][2] = {
		[PKT_XFER_SEND] = { { PKT_OP_SEND_MIDDLE, PKT_OP_SEND_LAST },
				    { PKT_OP_SEND_FIRST, PKT_OP_SEND_ONLY } },
		[PKT_XFER_WRITE] = { { PKT_OP_WRITE_MIDDLE, PKT_OP_WRITE_LAST },
				     { PKT_OP_WRITE_FIRST, PKT_OP_WRITE_ONLY } },
		[PKT_XFER_READ_RESP] = { { PKT_OP_READ_RESP_MIDDLE, PKT_OP_READ_RESP_LAST },
					 { PKT_OP_READ_RESP_FIRST, PKT_OP_READ_RESP_ONLY } },
		[PKT_XFER_WRITE_IMM] = { { PKT_OP_WRITE_MIDDLE, PKT_OP_WRITE_LAST_IMM },
					 { PKT_OP_WRITE_FIRST, PKT_OP_WRITE_ONLY_IMM } },
	};

	return ops[x][first][last];
}

/* AETH syndromes (bits 6:5 select ACK / RNR NAK / NAK). */
enum pkt_aeth {
	PKT_AETH_ACK_UNLIMITED = 0x1F, /* ACK, credit code "unlimited" */
	PKT_AETH_KIND_MASK = 0x60,     /* bits 6:5: 0 ACK, 0x20 RNR NAK, 0x60 NAK */
	PKT_AETH_KIND_NAK = 0x60,
	PKT_AETH_NAK_PSN_SEQ = 0x60,   /* NAK: PSN sequence error */
	PKT_AETH_NAK_INV_REQ = 0x61,   /* NAK: invalid request */
	PKT_AETH_NAK_REM_ACCESS = 0x62, /* NAK: remote access error */
	PKT_AETH_NAK_REM_OP = 0x63,    /* NAK: remote operational error */
};

/* IPv4 ECN codepoints (RFC 3168). */
enum pkt_ecn {
	PKT_ECN_NOT_ECT = 0,
	PKT_ECN_ECT1 = 1,
	PKT_ECN_ECT0 = 2,
	PKT_ECN_CE = 3,
};

/* What a packet is, for counters; set by whoever builds it. */
enum pkt_kind {
	PKT_KIND_DATA,    /* RDMA request/response carrying (or counting) payload */
	PKT_KIND_ACK,     /* ACK / NAK */
	PKT_KIND_CNP,     /* RoCEv2 congestion notification */
	PKT_KIND_PFC,     /* 802.1Qbb pause frame */
	PKT_KIND_CTRL,    /* other control (e.g. READ request) */
	PKT_KIND_FC,      /* InfiniBand link flow-control (credit) packet */
};

/* Link layers frames are built for and views parsed from (struct pkt_ll describes each):
 * each has its own case in the builders and in the stages of pkt_view.h,
 * filling the same fields. */
enum pkt_ll_kind {
	PKT_LL_ROCE = 0, /* Ethernet II, optional 802.1Q, IPv4, UDP 4791 (RoCEv2) */
	PKT_LL_IB = 1,   /* native InfiniBand: LRH, optional GRH, BTH (pkt_ib.h) */
	PKT_LL_UET = 2,  /* Ultra Ethernet Transport: Ethernet II, optional 802.1Q, IPv4,
			  * UDP 4793, PDS, SES (pkt_uet.h) */
	PKT_LL_N,
};

/* Our per-packet metadata, in the mbuf private area (hot-path struct, kept
 * inline). Everything here is derivable from the headers or the simulation;
 * it saves re-parsing on every hop. Eight bytes, so that with the Ethernet,
 * IPv4, UDP and BTH headers of an untagged frame (54 bytes) it fills one
 * cache line: what a switch and a receiving NIC read of a packet. */
struct pkt_meta {
	uint16_t frame_bytes;   /* frame on the wire with its trailer: Ethernet incl.
				 * FCS, 64..65535; IB LRH..VCRC, 6..8190 */
	uint16_t payload_bytes; /* RDMA payload bytes the frame carries */
	uint8_t l3_off;         /* where the link layer's network header starts in the
				 * data (RoCE: IPv4 at 14, 18 tagged; IB: what follows
				 * the LRH, 8); 0 for control frames */
	uint8_t tc;             /* traffic class of the current egress queue */
	uint8_t kind;           /* enum pkt_kind */
	uint8_t flags;          /* PKT_MF_*: what a fault did to it on the wire (0 as
				 * built) */
};

/* Faults a frame met on its link (struct pkt_meta flags), read when it
 * arrives: set only on links with a fault (port_set_down, corruption). */
enum {
	PKT_MF_LOST = 1,    /* on a link that went down while it was on the way */
	PKT_MF_CORRUPT = 2, /* bits flipped: the receiving MAC's FCS check fails */
};

_Static_assert(sizeof(struct pkt_meta) == 8, "pkt_meta must stay 8 bytes: see pkt_data");

/* Byte of a packet where its metadata and headers start (their line). */
#define PKT_META_LINE (sizeof(struct rte_mbuf))

/* Bytes between an mbuf and its data in pools made by sim_pool_create. */
#define PKT_DATA_OFF (sizeof(struct rte_mbuf) + sizeof(struct pkt_meta))

/* The frame of a packet taken with pkt_alloc, found from the packet's own
 * address: the mbuf header, then our 8-byte metadata, then the frame
 * (pkt_alloc keeps no headroom). Unlike rte_pktmbuf_mtod it reads nothing
 * of the mbuf header, so a forwarding hop and a NIC's parse touch one
 * cache line: the metadata with the Ethernet, IPv4, UDP and BTH headers of
 * an untagged frame (bytes 128..191 of the packet). sim_pool_create checks
 * the layout. */
static inline uint8_t *pkt_data(struct rte_mbuf *m)
{
	return (uint8_t *)m + PKT_DATA_OFF;
}

static inline struct pkt_meta *pkt_meta(struct rte_mbuf *m)
{
	return (struct pkt_meta *)rte_mbuf_to_priv(m);
}

/* A packet from a pool made by sim_pool_create: no headroom is kept (no
 * header is ever prepended), so metadata and headers are contiguous right
 * after the rte_mbuf (see pkt_data).
 *
 * Packets of these pools are single-segment direct mbufs with a reference
 * count of 1 for their whole life, and fabemu writes only their lengths
 * and data offset (the mbuf's first cache line). So the rest of the header
 * keeps what rte_pktmbuf_init and rte_pktmbuf_reset gave it (no next
 * segment, no offloads, no VLAN, one segment) and is not written again: a
 * packet is taken as rte_mbuf_raw_alloc takes it and given back as
 * rte_mbuf_raw_free gives it back (sim_pkt_free), touching nothing of its
 * second line. */
static inline struct rte_mbuf *pkt_alloc(struct rte_mempool *mp)
{
	struct rte_mbuf *m = rte_mbuf_raw_alloc(mp);

	if (likely(m != NULL)) {
		m->data_off = 0;
		m->data_len = 0;
		m->pkt_len = 0;
	}
	return m;
}

/* Start loading what a receiver reads of @m (metadata and headers) ahead
 * of use. */
static inline void pkt_prefetch(const struct rte_mbuf *m)
{
	const char *p = (const char *)m;

	/* Metadata and the headers up to the BTH; the line after (AETH, RETH,
	 * payload) for a NIC. */
	rte_prefetch0(p + 2 * RTE_CACHE_LINE_SIZE);
	rte_prefetch0(p + 3 * RTE_CACHE_LINE_SIZE);
}

static inline const struct pkt_meta *pkt_meta_const(const struct rte_mbuf *m)
{
	return (const struct pkt_meta *)rte_mbuf_to_priv((struct rte_mbuf *)(uintptr_t)m);
}

/* Addressing and QoS of a RoCEv2 packet; fixed per QP, so NICs keep one. */
struct pkt_addr {
	uint8_t dst_mac[6];  /* next-hop MAC */
	uint8_t src_mac[6];  /* sender port MAC */
	bool vlan;           /* carry an 802.1Q tag */
	uint16_t vid;        /* VLAN id, 0..4095 */
	uint8_t pcp;         /* 802.1p priority, 0..7 */
	uint32_t src_ip;     /* IPv4, host byte order */
	uint32_t dst_ip;     /* IPv4, host byte order */
	uint8_t dscp;        /* 0..63 */
	uint8_t ecn;         /* enum pkt_ecn */
	uint8_t ttl;         /* initial TTL */
	uint16_t udp_sport;  /* flow entropy for ECMP */
	/* Native InfiniBand (ll PKT_LL_IB) reads these instead of the
	 * Ethernet, IPv4 and UDP fields above (GRH GIDs: the IPv4-mapped
	 * addresses of src_ip / dst_ip). */
	uint8_t ll;          /* enum pkt_ll_kind the frame is built for (0: RoCE) */
	uint8_t sl;          /* IB service level, 0..15 (the class selector) */
	uint8_t vl;          /* IB virtual lane of the first link, 0..14 */
	bool grh;            /* IB: carry a GRH (LRH next header 3) */
	uint16_t slid;       /* IB source LID */
	uint16_t dlid;       /* IB destination LID */
};

/* Transport fields of one RoCEv2 packet. Which extension headers are present
 * follows from the opcode (RETH for WRITE first/only and READ request, AETH
 * for ACK and READ response first/last/only, ImmDt for the "with immediate"
 * opcodes, 16 reserved bytes for CNP). */
struct pkt_roce {
	struct pkt_addr addr;   /* L2/L3/L4 */
	uint8_t opcode;         /* enum pkt_opcode */
	bool se;                /* solicited event */
	bool ack_req;           /* BTH A bit */
	bool becn;              /* BTH BECN bit (set in CNPs) */
	uint16_t pkey;          /* partition key, 0xFFFF default */
	uint32_t dest_qp;       /* 24 bits */
	uint32_t psn;           /* 24 bits */
	uint64_t reth_va;       /* RETH virtual address */
	uint32_t reth_rkey;     /* RETH R_Key */
	uint32_t reth_len;      /* RETH DMA length: bytes of the whole message */
	uint8_t aeth_syndrome;  /* AETH syndrome */
	uint32_t aeth_msn;      /* AETH MSN, 24 bits */
	uint32_t imm_data;      /* ImmDt, as a number (written big-endian) */
	uint32_t payload_bytes; /* payload length (before pad) */
	/* UET (addr.ll PKT_LL_UET) only: what its headers carry besides the
	 * fields above, which map to them (pkt_uet.h): opcode the RC opcode
	 * that the PDS type, SES opcode and SOM / EOM stand for; dest_qp the
	 * DPDCID; psn a request's PSN, an ACK's CACK_PSN, a NACK's PSN; an
	 * ACK with syndrome PKT_AETH_NAK_PSN_SEQ is an ACK_CC whose CACK_PSN
	 * is psn - 1 and whose SACK bitmap (sack_bits) starts at aeth_msn;
	 * syndrome PKT_UET_SYND_TRIMMED is a NACK of a trimmed packet,
	 * PKT_UET_SYND_TRIMMED_LAST one of a packet trimmed on the last hop,
	 * PKT_UET_SYND_ROD_OOO one of a packet out of order (ROD) */
	uint16_t ev;            /* entropy value: the UDP source port (0: addr.udp_sport) */
	uint16_t spdcid;        /* source PDC: the sender's QP number */
	uint16_t msg_id;        /* SES message id */
	uint32_t msg_offset;    /* a request: its payload's offset in the message (SES
				 * message offset, on packets after the first) */
	uint8_t uet_retx;       /* the RETX flag: a retransmission (an ACK: of one) */
	uint8_t uet_rod;        /* a request of reliable ordered delivery (ROD_REQ) */
	uint32_t uet_acked_psn; /* ACK, ACK_CC: the PSN whose arrival it answers
				 * (ACK_PSN_OFFSET from CACK_PSN) */
	uint64_t sack_bits;     /* ACK_CC: bit i acknowledges PSN aeth_msn + i; an ACK
				 * whose syndrome is a PSN sequence NAK carries them */
	uint8_t uet_cc;         /* a request with its CC state (RUD_CC_REQ / ROD_CC_REQ:
				 * receiver credit, RCCC) */
	uint32_t uet_credit;    /* 24 bits, in PKT_UET_CREDIT_UNIT bytes: such a request's
				 * credit target, a CREDIT's credit granted, a
				 * CREDIT_REQ's target (opcodes PKT_UET_OP_CREDIT*) */
};

/* Length of the headers the opcode implies from BTH on (BTH + extensions). */
unsigned pkt_roce_xport_hdr_bytes(uint8_t opcode);
/* Frame bytes on the wire of @f with its trailer: RoCE incl. ICRC, pad and
 * FCS, at least 64; native IB (f->addr.ll PKT_LL_IB) LRH [GRH] BTH ...
 * payload pad ICRC VCRC, no minimum (PktLen * 4 + 2). */
uint32_t pkt_roce_frame_bytes(const struct pkt_roce *f);

/* Build @f into the empty mbuf @m and fill pkt_meta (frame_bytes,
 * payload_bytes, l3_off, kind). With @payload NULL only the headers are
 * written (payload not materialised). With @payload non-NULL,
 * payload_bytes of it are copied, the pad and the real ICRC are appended.
 * A frame without payload is always written whole.
 * RoCE (f->addr.ll PKT_LL_ROCE): the IPv4 header checksum is always
 * correct.
 * Native IB (f->addr.ll PKT_LL_IB; docs/wire-formats.md): LRH (VL, SL,
 * DLID, SLID of f->addr, PktLen), with f->addr.grh a GRH (TClass dscp<<2 |
 * ecn, HopLmt ttl, GIDs ::ffff:src_ip / dst_ip), then the BTH and its
 * extension headers as RoCE writes them, payload, pad and, when written
 * whole, the ICRC (pkt_ib_icrc) and the VCRC; no Ethernet pad. pkt_meta:
 * frame_bytes LRH..VCRC, l3_off 8. Any payload whose packet PktLen's 11
 * bits hold (IB MTUs are 256..4096).
 * Returns 0, -EINVAL (an opcode without a layout, a frame too long for
 * its length fields) or -ENOSPC when the mbuf lacks room. */
int pkt_build_roce(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *payload);

/* What the frames of one sender to one destination QP share (everything
 * but lengths, IPv4 checksum, opcode, flags, PSN and what follows the
 * BTH), written once by pkt_tmpl_init and copied into each frame by
 * pkt_build_roce_tmpl: a NIC builds a data packet from its QP's template
 * instead of field by field.
 * Native IB templates hold the LRH less PktLen, the GRH less PayLen and
 * the BTH through its destination QP (byte 8): a GRH frame's 60 header
 * bytes do not fit, but what a template fixes of them ends at byte 56, so
 * GRH frames take the template path too and the template stays one line
 * (its copy writes BTH bytes 8..9, which every frame writes again). */
struct pkt_tmpl {
	uint8_t bytes[PKT_ETH_BYTES + PKT_VLAN_BYTES + PKT_IPV4_BYTES + PKT_UDP_BYTES +
		      PKT_BTH_BYTES]; /* the frame's first bytes, through the BTH */
	uint8_t l3_off;                /* IPv4 header offset (14, 18 with a tag); IB 8 */
	uint8_t ll;                    /* enum pkt_ll_kind of the frames (0: RoCE) */
	uint32_t ip_sum;               /* IPv4 header sum without its length (RoCE) */
};
_Static_assert(sizeof(struct pkt_tmpl) == 64, "a frame template is one line");
/* An IB template's fixed bytes: LRH, GRH and the BTH up to the end of its
 * destination QP (bytes 5..7). */
_Static_assert(8 /* LRH */ + 40 /* GRH */ + 8 /* BTH through DestQP */ <=
		       sizeof(((struct pkt_tmpl *)0)->bytes),
	       "an IB template holds what it fixes of a GRH frame");

/* The template of frames with addressing @a, partition key @pkey, to QP
 * @dest_qp. */
void pkt_tmpl_init(struct pkt_tmpl *t, const struct pkt_addr *a, uint16_t pkey, uint32_t dest_qp);
/* pkt_build_roce for a frame whose addressing, partition key and
 * destination QP are @t's: @f's addr is not read; its pkey and dest_qp
 * must be @t's (-EINVAL otherwise). The bytes are those pkt_build_roce
 * writes. The mbuf needs room for the whole template (-ENOSPC). */
int pkt_build_roce_tmpl(struct rte_mbuf *m, const struct pkt_tmpl *t, const struct pkt_roce *f,
			const uint8_t *payload);

/* Parse a frame of link layer @ll (enum pkt_ll_kind) built by anyone:
 * RoCE is pkt_parse_roce; native IB reads the LRH (addr.ll PKT_LL_IB,
 * sl, vl, slid, dlid), an optional GRH (addr.grh; dscp, ecn, ttl from
 * TClass and HopLmt, src_ip / dst_ip from the low 4 bytes of the GIDs),
 * the BTH and the extension headers of its opcode, reading only the bytes
 * present; payload_bytes from PktLen. Returns 0, or -EINVAL when the
 * frame is not of that link layer (IB: LVer not 0, LNH not 2 or 3, a GRH
 * not IPv6 with next header 0x1B, an unknown opcode, lengths that do not
 * add up). */
int pkt_parse_ll(enum pkt_ll_kind ll, const struct rte_mbuf *m, struct pkt_roce *out);

/* Parse a frame built by anyone (not only pkt_build_roce): Ethernet, optional
 * VLAN, IPv4 (no options required, but IHL honoured), UDP to 4791, BTH and
 * the extension headers of its opcode, reading only the bytes present in the
 * mbuf. payload_bytes is computed from the IPv4 total length (so truncated
 * frames parse). Returns 0, or -EINVAL when the frame is not RoCEv2. */
int pkt_parse_roce(const struct rte_mbuf *m, struct pkt_roce *out);

/* ICRC of a RoCEv2/IPv4 packet: @ip points to the IPv4 header and @len runs
 * to the end of the pad (ICRC excluded). Variant fields are masked as the
 * spec says (TOS, TTL, IP checksum, UDP checksum, BTH byte 4). The value is
 * returned as a number whose least-significant byte goes first on the wire. */
uint32_t pkt_icrc(const uint8_t *ip, uint32_t len);
/* Verify the ICRC of a materialised frame in @m: 1 ok, 0 bad, -EINVAL when
 * the frame is truncated or not RoCEv2. */
int pkt_icrc_check(const struct rte_mbuf *m);

/* In-place rewrites with RFC 1624 incremental checksum update. */
uint8_t pkt_ipv4_ecn(const struct rte_mbuf *m);
void pkt_ipv4_set_ce(struct rte_mbuf *m);     /* only call on ECT packets */
uint8_t pkt_ipv4_dec_ttl(struct rte_mbuf *m); /* returns the new TTL */

/* The same on an IPv4 header at @ip (a forwarding hop has it at hand):
 * TTL 0 stays 0; otherwise the TTL/protocol word drops by 0x0100 and the
 * checksum follows (RFC 1624, eqn. 3). */
static inline uint8_t pkt_ipv4_hdr_dec_ttl(uint8_t *ip)
{
	uint32_t sum;

	if (unlikely(ip[8] == 0))
		return 0;
	ip[8]--;
	/* ~HC + ~m + m' with m' = m - 0x0100: ~m + m' = 0xFFFF - 0x0100. */
	sum = (uint32_t)(uint16_t)~(ip[10] << 8 | ip[11]) + 0xFEFF;
	sum = (sum & 0xFFFF) + (sum >> 16);
	sum = (sum & 0xFFFF) + (sum >> 16);
	ip[10] = (uint8_t)(~sum >> 8);
	ip[11] = (uint8_t)~sum;
	return ip[8];
}
/* IPv6 (frames of live endpoints; RFC 8200): the hop limit drops by one
 * (no checksum to follow); 0 stays 0. Returns the new hop limit. */
static inline uint8_t pkt_ip6_hdr_dec_hlim(uint8_t *ip)
{
	if (unlikely(ip[7] == 0))
		return 0;
	return --ip[7];
}
/* The ECN field of @m's IP header, IPv4 or IPv6 (its traffic class's low
 * two bits), and marking it CE (only on ECT packets; IPv4's checksum
 * follows). */
uint8_t pkt_ip_ecn(const struct rte_mbuf *m);
void pkt_ip_set_ce(struct rte_mbuf *m);
uint32_t pkt_ipv4_dst(const struct rte_mbuf *m); /* host byte order */
uint8_t pkt_ipv4_dscp(const struct rte_mbuf *m);

/* 802.1Qbb PFC frame: for every priority i with bit i of @enable set, pause
 * time @quanta[i] (units of 512 bit times; 0 = resume). 60 bytes + FCS. */
int pkt_build_pfc(struct rte_mbuf *m, const uint8_t src_mac[6], uint8_t enable,
		  const uint16_t quanta[PKT_N_PRIO]);
/* Returns 0 and fills @enable/@quanta when @m is a PFC frame, else -EINVAL. */
int pkt_parse_pfc(const struct rte_mbuf *m, uint8_t *enable, uint16_t quanta[PKT_N_PRIO]);

#endif
