/* In-band network telemetry (INT) for HPCC (Li et al., "HPCC: High Precision
 * Congestion Control", SIGCOMM 2019) on RoCEv2 frames: a stack of per-hop
 * records between the transport headers and the payload, flagged in the BTH,
 * which switches grow at egress and receivers echo in their ACKs. Layout and
 * its departures from the HPCC authors' 8-byte-per-hop simulator encoding:
 * docs/wire-formats.md, "INT stack". The view stage is pkt_view_int
 * (pkt_view.h). */
#ifndef FAB_PKT_TELEMETRY_H
#define FAB_PKT_TELEMETRY_H

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "pkt.h"

enum {
	PKT_INT_MAX_HOPS = 5,   /* records a stack holds at most (HPCC's limit) */
	PKT_INT_HDR_BYTES = 4,  /* stack header: hop count (16 bits), 16 reserved bits */
	PKT_INT_HOP_BYTES = 16, /* one record */
	PKT_INT_MAX_BYTES = PKT_INT_HDR_BYTES + PKT_INT_MAX_HOPS * PKT_INT_HOP_BYTES, /* 84 */
	PKT_BTH_INT = 0x20,     /* BTH byte 4 (FECN, BECN, then reserved bits, all
				 * masked in the ICRC): the first reserved bit says an
				 * INT stack follows the transport headers */
	PKT_INT_TS_BITS = 40,   /* record's time: ps modulo 2^40 (1.0995 s) */
	PKT_INT_TX_BITS = 32,   /* record's tx bytes: modulo 2^32 */
	PKT_INT_RATE_BITS = 24, /* record's rate: Mb/s, up to 16.7 Tb/s */
};

#define PKT_INT_RATE_UNIT_BPS UINT64_C(1000000) /* the record's rate unit, 1 Mb/s */

/* One hop's record, decoded. Times and byte counts are modular (the field
 * widths above): take differences with pkt_int_ts_delta_ps and
 * pkt_int_tx_delta_bytes. */
struct pkt_int_hop {
	uint64_t ts_ps;      /* when the frame left the egress queue, ps mod 2^40 */
	uint64_t tx_bytes;   /* frame bytes the egress port had sent before this frame
			      * (FCS included, all classes), mod 2^32 */
	uint32_t qlen_bytes; /* frame bytes queued on the egress port (all classes) once
			      * this frame left; saturates at UINT32_MAX */
	uint64_t rate_bps;   /* egress line rate, whole Mb/s (rounded down) */
};

/* Where a reserved record lies in a frame, for pkt_int_fill. */
struct pkt_int_slot {
	uint16_t rec_off; /* the record's first byte, from the frame's first byte */
	uint8_t whole;    /* the mbuf holds the whole frame (ICRC to recompute) */
};

/* Encode @h into the record at @rec (big-endian): rate Mb/s (24 bits),
 * ts ps (40 bits), tx bytes (32 bits), queue bytes (32 bits). */
static inline void pkt_int_hop_write(uint8_t *rec, const struct pkt_int_hop *h)
{
	uint64_t rate = h->rate_bps / PKT_INT_RATE_UNIT_BPS;
	uint64_t w0 = (rate > (UINT64_C(1) << PKT_INT_RATE_BITS) - 1
			       ? (UINT64_C(1) << PKT_INT_RATE_BITS) - 1
			       : rate) << PKT_INT_TS_BITS |
		      (h->ts_ps & ((UINT64_C(1) << PKT_INT_TS_BITS) - 1));
	uint64_t w1 = (uint64_t)(uint32_t)h->tx_bytes << 32 | h->qlen_bytes;

	w0 = rte_cpu_to_be_64(w0);
	w1 = rte_cpu_to_be_64(w1);
	memcpy(rec, &w0, sizeof(w0));
	memcpy(rec + 8, &w1, sizeof(w1));
}

/* Decode the record at @rec. */
static inline void pkt_int_hop_read(const uint8_t *rec, struct pkt_int_hop *h)
{
	uint64_t w0, w1;

	memcpy(&w0, rec, sizeof(w0));
	memcpy(&w1, rec + 8, sizeof(w1));
	w0 = rte_be_to_cpu_64(w0);
	w1 = rte_be_to_cpu_64(w1);
	h->rate_bps = (w0 >> PKT_INT_TS_BITS) * PKT_INT_RATE_UNIT_BPS;
	h->ts_ps = w0 & ((UINT64_C(1) << PKT_INT_TS_BITS) - 1);
	h->tx_bytes = w1 >> 32;
	h->qlen_bytes = (uint32_t)w1;
}

/* @later - @earlier of two records' times of one hop, in ps (modular). */
static inline uint64_t pkt_int_ts_delta_ps(uint64_t later, uint64_t earlier)
{
	return (later - earlier) & ((UINT64_C(1) << PKT_INT_TS_BITS) - 1);
}

/* @later - @earlier of two records' tx bytes of one hop (modular). */
static inline uint64_t pkt_int_tx_delta_bytes(uint64_t later, uint64_t earlier)
{
	return (later - earlier) & ((UINT64_C(1) << PKT_INT_TX_BITS) - 1);
}

/* Grow the RoCEv2 frame in @m (built by pkt_build_roce*, or forwarded) by
 * one zeroed record at the end of its INT stack, opening the stack (header,
 * BTH flag) when it has none: the payload, pad and ICRC move when the mbuf
 * holds them; otherwise the mbuf holds the headers and the stack, and the
 * record goes at its end. The IPv4 total length and checksum, the UDP
 * length, pkt_meta frame_bytes (Ethernet pad included) and the mbuf's
 * lengths follow; the ICRC of a whole frame is left for pkt_int_fill.
 * Returns 0 with @slot set, -E2BIG when the stack holds PKT_INT_MAX_HOPS
 * records, -ENOSPC when the mbuf lacks room or the frame would pass the
 * IPv4 or frame_bytes limits, -EINVAL when it is not a RoCEv2 frame. The
 * frame is unchanged unless it returns 0. */
int pkt_int_reserve(struct rte_mbuf *m, struct pkt_int_slot *slot);

/* Write @h into the record @slot of @m and, when the mbuf holds the whole
 * frame, its ICRC. */
void pkt_int_fill(struct rte_mbuf *m, const struct pkt_int_slot *slot,
		  const struct pkt_int_hop *h);

/* pkt_int_reserve then pkt_int_fill. Returns as pkt_int_reserve. */
int pkt_int_append(struct rte_mbuf *m, const struct pkt_int_hop *h);

/* Copy the INT stack at @stack (its header, then its records; at most
 * PKT_INT_MAX_HOPS) into the RoCEv2 frame in @m, which has none and whose
 * mbuf holds it whole (an ACK as pkt_build_roce writes it): after its
 * transport headers, lengths, flag and ICRC as pkt_int_reserve and
 * pkt_int_fill keep them. Returns 0, -EINVAL (not RoCEv2, has a stack,
 * not whole, or @stack over the limit) or -ENOSPC. */
int pkt_int_echo(struct rte_mbuf *m, const uint8_t *stack);

#endif
