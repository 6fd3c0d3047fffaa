/* Link-layer descriptors: what a port's link layer is on the wire (framing
 * overhead, trailer, minimum frame, control frames, flow-control unit,
 * pcap link type) and how its congestion bits are read and marked:
 * Ethernet carrying RoCEv2 (pkt_ll_roce) and native InfiniBand
 * (pkt_ll_ib); docs/wire-formats.md. Per-packet helpers
 * switch on the small enum pkt_ll_kind a port keeps a copy of. */
#ifndef FAB_PKT_LL_H
#define FAB_PKT_LL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "pkt.h"
#include "pkt_ib.h"
#include "pkt_view.h"
#include "units.h"

/* How a link layer holds back a sender. */
enum pkt_ll_fc {
	PKT_LL_FC_PAUSE,  /* the receiver sends pauses per class (802.1Qbb PFC) */
	PKT_LL_FC_CREDIT, /* the receiver grants credits per VL (IB) */
};

/* One link layer (const, shared by every port that uses it). frame_bytes
 * of a packet always include the trailer; the wire adds
 * wire_overhead_bytes per frame. */
struct pkt_ll {
	const char *name;             /* "roce", "infiniband" */
	uint8_t kind;                 /* enum pkt_ll_kind: what per-packet code switches on */
	uint8_t fc;                   /* enum pkt_ll_fc */
	uint16_t wire_overhead_bytes; /* per frame besides its bytes: preamble + SFD +
				       * inter-frame gap (Ethernet 20; IB 0) */
	uint16_t min_frame_bytes;     /* shortest frame, trailer included (Ethernet 64) */
	uint16_t trailer_bytes;       /* link CRC ending each frame (Ethernet FCS 4;
				       * IB VCRC 2) */
	uint16_t cap_trailer_bytes;   /* of it, what captures leave out: Ethernet's FCS
				       * (4) is never captured; IB's VCRC is (0), as
				       * Wireshark's IB dissector reads ICRC and VCRC */
	uint16_t hdr_bytes;           /* link header before the network header, untagged
				       * (Ethernet 14; IB LRH 8) */
	uint16_t ctrl_type;           /* what marks a link-level control frame: its
				       * EtherType (MAC control 0x8808) */
	uint16_t ctrl_frame_bytes;    /* a control frame, trailer included (PFC 64;
				       * IB flow-control packet 6) */
	uint16_t credit_block_bytes;  /* flow-control credit unit; 0 with pauses (IB 64) */
	uint16_t pcap_linktype;       /* LINKTYPE_* of captures (Ethernet 1; IB 247,
				       * or USER0 147 by choice: capture.h) */
	uint8_t addr_bytes;           /* bytes of a pkt_view dst / src address (IPv4 4; LID 2) */
};

/* Ethernet II (optional 802.1Q) carrying RoCEv2 over IPv4, with 802.1Qbb PFC. */
extern const struct pkt_ll pkt_ll_roce;
/* Native InfiniBand (LRH, optional GRH, BTH ..., ICRC, VCRC) with credit
 * flow control per virtual lane (pkt_ib.h). */
extern const struct pkt_ll pkt_ll_ib;
/* Ethernet II (optional 802.1Q) carrying the Ultra Ethernet Transport
 * over IPv4 and UDP 4793 (pkt_uet.h); PFC where classes are lossless. */
extern const struct pkt_ll pkt_ll_uet;

/* The descriptor called @name, or NULL. */
const struct pkt_ll *pkt_ll_find(const char *name);

/* Serialisation time of a frame of @frame_bytes at @rate_bps on a link
 * whose frames take @overhead_bytes more on the wire, in ps (rounded
 * down; ports carry the remainder). */
static inline uint64_t pkt_ll_ser_ps(uint32_t overhead_bytes, uint32_t frame_bytes,
				     uint64_t rate_bps)
{
	uint64_t rem = 0;

	return units_ser_ps((uint64_t)frame_bytes + overhead_bytes, rate_bps, &rem);
}

/* The same for a link layer @ll. */
static inline uint64_t pkt_ll_frame_ps(const struct pkt_ll *ll, uint32_t frame_bytes,
				       uint64_t rate_bps)
{
	return pkt_ll_ser_ps(ll->wire_overhead_bytes, frame_bytes, rate_bps);
}

/* Is @m a link-level control frame of link layer @kind (RoCE: MAC
 * control, EtherType 0x8808: PFC; IB: a flow-control packet, the only
 * 6-byte packet, data packets being at least 26)? Those belong to the
 * receiving MAC or link, not to its node. */
static inline bool pkt_ll_is_ctrl(uint8_t kind, const struct rte_mbuf *m)
{
	const uint8_t *d = pkt_data((struct rte_mbuf *)(uintptr_t)m);

	pkt_ll_kind_valid(kind);
	switch (kind) {
	case PKT_LL_ROCE:
	case PKT_LL_UET:
		return d[12] == (PKT_ETHERTYPE_MACCTL >> 8) &&
		       d[13] == (PKT_ETHERTYPE_MACCTL & 0xff);
	case PKT_LL_IB:
		return pkt_meta_const(m)->frame_bytes == PKT_IB_FC_BYTES;
	default:
		return false;
	}
}

/* The BTH of the IB packet at @d: after the LRH, and the GRH when the
 * LRH's next-header field says one follows. */
static inline uint8_t *pkt_ll_ib_bth(uint8_t *d)
{
	return d + pkt_view_ib_bth_off(d);
}

/* The congestion bits of @m (link layer @kind) as an RFC 3168 codepoint
 * (enum pkt_ecn): RoCE reads the IP ECN field (IPv4, or IPv6 from a live
 * endpoint); IB's BTH FECN bit reads
 * as CE when set and ECT(0) when clear (every IB packet may be marked). */
static inline uint8_t pkt_ll_ecn(uint8_t kind, const struct rte_mbuf *m)
{
	pkt_ll_kind_valid(kind);
	switch (kind) {
	case PKT_LL_ROCE:
	case PKT_LL_UET:
		return pkt_ip_ecn(m);
	case PKT_LL_IB:
		return (pkt_ll_ib_bth(pkt_data((struct rte_mbuf *)(uintptr_t)m))[4] & PKT_BTH_FECN)
			       ? PKT_ECN_CE
			       : PKT_ECN_ECT0;
	default:
		return PKT_ECN_NOT_ECT;
	}
}

/* Mark @m (link layer @kind) as having met congestion: RoCE sets the IP
 * ECN field to CE (IPv4: and updates the header checksum); IB sets the BTH's FECN bit (and
 * updates the VCRC of a packet that holds one: pkt_ib_mark_fecn). Only
 * on packets pkt_ll_ecn says are ECN-capable (ECT). */
static inline void pkt_ll_mark_ce(uint8_t kind, struct rte_mbuf *m)
{
	pkt_ll_kind_valid(kind);
	switch (kind) {
	case PKT_LL_ROCE:
	case PKT_LL_UET:
		pkt_ip_set_ce(m);
		break;
	case PKT_LL_IB:
		pkt_ib_mark_fecn(m);
		break;
	default:
		break;
	}
}

#endif
