/* In-band network telemetry (INT) for HPCC (Li et al., "HPCC: High Precision
 * Congestion Control", SIGCOMM 2019) on RoCEv2 frames: a stack of per-hop
 * records between the transport headers and the payload, flagged in the BTH,
 * which switches grow at egress and receivers echo in their ACKs. Two record
 * formats, named in the stack's header: fabemu's exact 16-byte record and
 * the 8-byte one of the HPCC authors' simulator. Layouts:
 * docs/wire-formats.md, "INT stack". The view stage is pkt_view_int
 * (pkt_view.h). */
#ifndef FAB_PKT_TELEMETRY_H
#define FAB_PKT_TELEMETRY_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "pkt.h"

/* Record formats: the stack header's format byte (fabric.int_record). */
enum pkt_int_fmt {
	PKT_INT_FMT_FULL = 0,    /* 16 bytes a hop: ps, bytes, whole Mb/s, exact */
	PKT_INT_FMT_COMPACT = 1, /* 8 bytes a hop, as the HPCC authors' ns-3 packs them
				  * (its int-header.h): rate code, ns, scaled bytes */
	PKT_INT_N_FMT,
};

enum {
	PKT_INT_MAX_HOPS = 5,   /* records a stack holds at most (HPCC's limit) */
	PKT_INT_HDR_BYTES = 4,  /* stack header: hop count (16 bits), format (8 bits,
				 * enum pkt_int_fmt), compact's multiplier m (8 bits; 0
				 * with full records) */
	PKT_INT_HDR_FMT_OFF = 2,   /* the format byte, in the header */
	PKT_INT_HDR_MULTI_OFF = 3, /* the multiplier byte */
	PKT_INT_HOP_BYTES = 16, /* one full record */
	PKT_INT_MAX_BYTES = PKT_INT_HDR_BYTES + PKT_INT_MAX_HOPS * PKT_INT_HOP_BYTES, /* 84 */
	PKT_BTH_INT = 0x20,     /* BTH byte 4 (FECN, BECN, then reserved bits, all
				 * masked in the ICRC): the first reserved bit says an
				 * INT stack follows the transport headers */
	PKT_INT_TS_BITS = 40,   /* record's time: ps modulo 2^40 (1.0995 s) */
	PKT_INT_TX_BITS = 32,   /* record's tx bytes: modulo 2^32 */
	PKT_INT_RATE_BITS = 24, /* record's rate: Mb/s, up to 16.7 Tb/s */
	/* The compact record: one 64-bit big-endian word, from its top bit
	 * qlen (17), tx (20), ts (24), rate code (3): the simulator's
	 * IntHop bit-field, low bits first, lineRate, time, bytes, qlen. */
	PKT_INT_C_HOP_BYTES = 8,
	PKT_INT_C_RATE_BITS = 3,   /* rate code c: 25 Gb/s x 2^c, c = 0..4 */
	PKT_INT_C_TS_BITS = 24,    /* ns modulo 2^24 (16.78 ms) */
	PKT_INT_C_TX_BITS = 20,    /* tx bytes / (128 m), modulo 2^20 */
	PKT_INT_C_QLEN_BITS = 17,  /* queue bytes / (80 m), saturating */
	PKT_INT_C_TS_SHIFT = PKT_INT_C_RATE_BITS,
	PKT_INT_C_TX_SHIFT = PKT_INT_C_TS_SHIFT + PKT_INT_C_TS_BITS,
	PKT_INT_C_QLEN_SHIFT = PKT_INT_C_TX_SHIFT + PKT_INT_C_TX_BITS,
	PKT_INT_C_TX_UNIT_BYTES = 128,  /* the simulator's IntHop::byteUnit */
	PKT_INT_C_QLEN_UNIT_BYTES = 80, /* its IntHop::qlenUnit */
	PKT_INT_C_N_RATES = 5,     /* codes 0..4: 25, 50, 100, 200, 400 Gb/s */
	PKT_INT_C_RATE_NONE = 7,   /* the code of any other rate: decodes as 0 b/s */
	PKT_INT_C_MULTI_MAX = 255, /* m, the simulator's INT_MULTI, fits the header byte */
	PKT_INT_PS_PER_NS = 1000,
};
_Static_assert(PKT_INT_C_QLEN_SHIFT + PKT_INT_C_QLEN_BITS == 64, "a compact record is one word");

#define PKT_INT_RATE_UNIT_BPS UINT64_C(1000000)        /* the full record's rate unit, 1 Mb/s */
#define PKT_INT_C_RATE_BASE_BPS UINT64_C(25000000000) /* compact rate code 0 */

/* How a switch writes its records: the stack header's format and
 * multiplier bytes. */
struct pkt_int_enc {
	uint8_t fmt;   /* enum pkt_int_fmt */
	uint8_t multi; /* compact: m (1..PKT_INT_C_MULTI_MAX), the unit of tx bytes is
			* 128 m and of queue bytes 80 m; full: 0 */
};

/* One hop's record, decoded. Times and byte counts are modular: take
 * differences with pkt_int_hop_ts_delta_ps and pkt_int_hop_tx_delta_bytes
 * (of full records also pkt_int_ts_delta_ps and pkt_int_tx_delta_bytes).
 * A writer sets the first four fields; a reader all six. */
struct pkt_int_hop {
	uint64_t ts_ps;      /* when the frame left the egress queue, ps mod ts_wrap_ps */
	uint64_t tx_bytes;   /* frame bytes the egress port had sent before this frame
			      * (FCS included, all classes), mod tx_wrap_bytes */
	uint32_t qlen_bytes; /* frame bytes queued on the egress port (all classes) once
			      * this frame left; saturates (full: at UINT32_MAX) */
	uint64_t rate_bps;   /* egress line rate (full: whole Mb/s, rounded down) */
	uint64_t ts_wrap_ps; /* read: ts_ps counts modulo this (full 2^40 ps; compact
			      * 2^24 ns) */
	uint64_t tx_wrap_bytes; /* read: tx_bytes counts modulo this (full 2^32; compact
				 * 2^20 x 128 m) */
};

/* Where a reserved record lies in a frame, for pkt_int_fill. */
struct pkt_int_slot {
	uint16_t rec_off; /* the record's first byte, from the frame's first byte */
	uint8_t whole;    /* the mbuf holds the whole frame (ICRC to recompute) */
	uint8_t fmt;      /* enum pkt_int_fmt of its stack */
	uint8_t multi;    /* compact: the stack's m */
};

/* Bytes of one record of format @fmt (enum pkt_int_fmt, valid). */
static inline uint32_t pkt_int_rec_bytes(uint8_t fmt)
{
	return fmt == PKT_INT_FMT_COMPACT ? PKT_INT_C_HOP_BYTES : PKT_INT_HOP_BYTES;
}

/* Is @enc a format a stack may carry (full with multiplier 0, compact with
 * 1..PKT_INT_C_MULTI_MAX)? The stack header's bytes 2 and 3 must be one. */
static inline bool pkt_int_enc_valid(uint8_t fmt, uint8_t multi)
{
	return fmt == PKT_INT_FMT_FULL ? multi == 0 : fmt == PKT_INT_FMT_COMPACT && multi != 0;
}

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

/* Decode the full record at @rec. */
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
	h->ts_wrap_ps = UINT64_C(1) << PKT_INT_TS_BITS;
	h->tx_wrap_bytes = UINT64_C(1) << PKT_INT_TX_BITS;
}

/* The compact rate code of @rate_bps: c where @rate_bps = 25 Gb/s x 2^c,
 * c = 0..4 (the simulator's lineRateValues order), else
 * PKT_INT_C_RATE_NONE. */
static inline uint8_t pkt_int_c_rate_code(uint64_t rate_bps)
{
	for (uint8_t c = 0; c < PKT_INT_C_N_RATES; c++)
		if (rate_bps == PKT_INT_C_RATE_BASE_BPS << c)
			return c;
	return PKT_INT_C_RATE_NONE;
}

/* Encode @h into the compact record at @rec with multiplier @multi (>= 1),
 * rounding as the simulator's IntHop::Set does: ts to whole ns (down),
 * modulo 2^24; tx bytes down to units of 128 @multi, modulo 2^20; queue
 * bytes down to units of 80 @multi, saturating at 2^17 - 1 units (the
 * simulator's bit-field would wrap); the rate as its code. */
static inline void pkt_int_hop_write_compact(uint8_t *rec, const struct pkt_int_hop *h,
					     uint32_t multi)
{
	uint64_t ts = h->ts_ps / PKT_INT_PS_PER_NS & ((UINT64_C(1) << PKT_INT_C_TS_BITS) - 1);
	uint64_t tx = h->tx_bytes / ((uint64_t)PKT_INT_C_TX_UNIT_BYTES * multi) &
		      ((UINT64_C(1) << PKT_INT_C_TX_BITS) - 1);
	uint64_t q = h->qlen_bytes / ((uint64_t)PKT_INT_C_QLEN_UNIT_BYTES * multi);
	uint64_t w;

	if (q > (UINT64_C(1) << PKT_INT_C_QLEN_BITS) - 1)
		q = (UINT64_C(1) << PKT_INT_C_QLEN_BITS) - 1;
	w = q << PKT_INT_C_QLEN_SHIFT | tx << PKT_INT_C_TX_SHIFT | ts << PKT_INT_C_TS_SHIFT |
	    pkt_int_c_rate_code(h->rate_bps);
	w = rte_cpu_to_be_64(w);
	memcpy(rec, &w, sizeof(w));
}

/* Decode the compact record at @rec of a stack with multiplier @multi, in
 * the full record's units (ps, bytes, b/s: the encoded values times their
 * units), with its wrap widths. */
static inline void pkt_int_hop_read_compact(const uint8_t *rec, uint32_t multi,
					    struct pkt_int_hop *h)
{
	uint64_t w, code, tx_unit = (uint64_t)PKT_INT_C_TX_UNIT_BYTES * multi;

	memcpy(&w, rec, sizeof(w));
	w = rte_be_to_cpu_64(w);
	code = w & ((1u << PKT_INT_C_RATE_BITS) - 1);
	h->rate_bps = code < PKT_INT_C_N_RATES ? PKT_INT_C_RATE_BASE_BPS << code : 0;
	h->ts_ps = (w >> PKT_INT_C_TS_SHIFT & ((UINT64_C(1) << PKT_INT_C_TS_BITS) - 1)) *
		   PKT_INT_PS_PER_NS;
	h->tx_bytes =
		(w >> PKT_INT_C_TX_SHIFT & ((UINT64_C(1) << PKT_INT_C_TX_BITS) - 1)) * tx_unit;
	h->qlen_bytes = (uint32_t)(w >> PKT_INT_C_QLEN_SHIFT) * PKT_INT_C_QLEN_UNIT_BYTES * multi;
	h->ts_wrap_ps = (UINT64_C(1) << PKT_INT_C_TS_BITS) * PKT_INT_PS_PER_NS;
	h->tx_wrap_bytes = (UINT64_C(1) << PKT_INT_C_TX_BITS) * tx_unit;
}

/* @later - @earlier of two full records' times of one hop, in ps (modular). */
static inline uint64_t pkt_int_ts_delta_ps(uint64_t later, uint64_t earlier)
{
	return (later - earlier) & ((UINT64_C(1) << PKT_INT_TS_BITS) - 1);
}

/* @later - @earlier of two full records' tx bytes of one hop (modular). */
static inline uint64_t pkt_int_tx_delta_bytes(uint64_t later, uint64_t earlier)
{
	return (later - earlier) & ((UINT64_C(1) << PKT_INT_TX_BITS) - 1);
}

/* @later - @earlier modulo @wrap, both below it. */
static inline uint64_t pkt_int_wrap_delta(uint64_t later, uint64_t earlier, uint64_t wrap)
{
	return later >= earlier ? later - earlier : later + (wrap - earlier);
}

/* Time from record @earlier to record @later of one hop (as read, either
 * format), ps, modulo the records' width. */
static inline uint64_t pkt_int_hop_ts_delta_ps(const struct pkt_int_hop *later,
					       const struct pkt_int_hop *earlier)
{
	return pkt_int_wrap_delta(later->ts_ps, earlier->ts_ps, later->ts_wrap_ps);
}

/* Bytes the hop sent from record @earlier to record @later (as read),
 * modulo the records' width. */
static inline uint64_t pkt_int_hop_tx_delta_bytes(const struct pkt_int_hop *later,
						  const struct pkt_int_hop *earlier)
{
	return pkt_int_wrap_delta(later->tx_bytes, earlier->tx_bytes, later->tx_wrap_bytes);
}

/* Grow the RoCEv2 frame in @m (built by pkt_build_roce*, or forwarded) by
 * one zeroed record of format @enc at the end of its INT stack, opening
 * the stack (header with @enc, BTH flag) when it has none: the payload,
 * pad and ICRC move when the mbuf holds them; otherwise the mbuf holds the
 * headers and the stack, and the record goes at its end. The IPv4 total
 * length and checksum, the UDP length, pkt_meta frame_bytes (Ethernet pad
 * included) and the mbuf's lengths follow; the ICRC of a whole frame is
 * left for pkt_int_fill. Returns 0 with @slot set, -E2BIG when the stack
 * holds PKT_INT_MAX_HOPS records, -ENOSPC when the mbuf lacks room or the
 * frame would pass the IPv4 or frame_bytes limits, -EINVAL when it is not
 * a RoCEv2 frame, @enc is not valid (pkt_int_enc_valid) or the stack has
 * another. The frame is unchanged unless it returns 0. */
int pkt_int_reserve(struct rte_mbuf *m, struct pkt_int_enc enc, struct pkt_int_slot *slot);

/* Write @h into the record @slot of @m, in the slot's format, and, when
 * the mbuf holds the whole frame, its ICRC. */
void pkt_int_fill(struct rte_mbuf *m, const struct pkt_int_slot *slot,
		  const struct pkt_int_hop *h);

/* pkt_int_reserve then pkt_int_fill. Returns as pkt_int_reserve. */
int pkt_int_append_enc(struct rte_mbuf *m, struct pkt_int_enc enc, const struct pkt_int_hop *h);

/* pkt_int_append_enc of a full record. */
int pkt_int_append(struct rte_mbuf *m, const struct pkt_int_hop *h);

/* Copy the INT stack at @stack (its header, then its records; at most
 * PKT_INT_MAX_HOPS, in either format) into the RoCEv2 frame in @m, which
 * has none and whose mbuf holds it whole (an ACK as pkt_build_roce writes
 * it): after its transport headers, lengths, flag and ICRC as
 * pkt_int_reserve and pkt_int_fill keep them. Returns 0, -EINVAL (not
 * RoCEv2, has a stack, not whole, or @stack over the limit or of no
 * valid format) or -ENOSPC. */
int pkt_int_echo(struct rte_mbuf *m, const uint8_t *stack);

#endif
