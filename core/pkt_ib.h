/* Native InfiniBand packets on rte_mbufs: data packets (pkt_build_roce
 * and its template twin build them when the addressing says PKT_LL_IB;
 * pkt_parse_ll parses them), their ICRC and VCRC and the per-hop
 * rewrites (VL, FECN) that keep the VCRC right, the link-level
 * flow-control (credit) packet and the 16-bit CRCs of the IB link layer
 * (VCRC, LPCRC). Layouts and sources: docs/wire-formats.md (IBTA Vol 1
 * chapter 7: the local route header, flow-control packets, VCRC; chapter
 * 9: BTH; Wireshark's infiniband field names). */
#ifndef FAB_PKT_IB_H
#define FAB_PKT_IB_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "pkt.h"

enum {
	PKT_IB_LRH_BYTES = 8,       /* local route header */
	PKT_IB_GRH_BYTES = 40,      /* global route header (optional) */
	PKT_IB_VCRC_BYTES = 2,      /* variant CRC, last on the wire, recomputed per hop */
	PKT_IB_FC_BYTES = 6,        /* flow-control packet: 4 bytes and its LPCRC */
	PKT_IB_BLOCK_BYTES = 64,    /* one flow-control credit */
	PKT_IB_FC_MOD = 4096,       /* FCTBS and FCCL count blocks modulo 2^12 */
	PKT_IB_FC_HALF = 2048,      /* the most blocks a limit may run ahead */
	PKT_IB_FC_OP_NORMAL = 0,    /* flow-control packet operands */
	PKT_IB_FC_OP_INIT = 1,
	PKT_IB_N_VL = 16,           /* VL 0..14 data, VL 15 subnet management */
	PKT_IB_VL15 = 15,
	PKT_IB_LNH_LOCAL = 2,       /* LRH next header: BTH */
	PKT_IB_LNH_GLOBAL = 3,      /* LRH next header: GRH, then BTH */
	PKT_IB_GRH_NXTHDR = 0x1B,   /* GRH next header: IBA transport */
	PKT_IB_LID_MAX = 0xBFFF,    /* last unicast LID (0 is reserved) */
	PKT_BTH_FECN = 0x80,        /* BTH byte 4 */
	PKT_IB_PKTLEN_MAX_WORDS = 0x7FF, /* LRH PktLen: 11 bits of 4-byte words */
	/* The longest packet PktLen counts, LRH..ICRC (the VCRC follows). */
	PKT_IB_PKTLEN_MAX_BYTES = PKT_IB_PKTLEN_MAX_WORDS * 4,
};

/* Blocks (credits) a packet of @bytes takes: ceil(bytes / 64). */
static inline uint32_t pkt_ib_blocks(uint32_t bytes)
{
	return (bytes + PKT_IB_BLOCK_BYTES - 1) / PKT_IB_BLOCK_BYTES;
}

/* May a packet of @blocks go on a VL whose sender has sent @fctbs blocks
 * (mod 4096) under the receiver's advertised limit @fccl (mod 4096)?
 * The IBTA rule: (FCCL - (FCTBS + blocks)) mod 4096 <= 2048. */
static inline bool pkt_ib_fc_may_send(uint16_t fctbs, uint16_t fccl, uint32_t blocks)
{
	return ((uint32_t)fccl - ((uint32_t)fctbs + blocks)) % PKT_IB_FC_MOD <= PKT_IB_FC_HALF;
}

/* CRC-16 of the IB link layer (polynomial x^16 + x^12 + x^3 + x + 1,
 * 0x100B, bits least significant first as the ICRC's, seed 0xFFFF,
 * inverted) over @len bytes at @p: the VCRC of a packet (over LRH..ICRC)
 * and the LPCRC of a flow-control packet (over its first 4 bytes). The
 * value goes on the wire least-significant byte first. */
uint16_t pkt_ib_crc16(const uint8_t *p, uint32_t len);

/* How the CRC-16 register (and so a VCRC or LPCRC) changes when one
 * covered byte changes by @x (old ^ new) with @after_bytes covered bytes
 * after it: CRC(new) = CRC(old) ^ pkt_ib_crc16_delta(x, after). The CRC
 * is linear, so this costs at most 13 steps whatever the length
 * (after_bytes < 8192). */
uint16_t pkt_ib_crc16_delta(uint8_t x, uint32_t after_bytes);

/* Set the FECN bit of the IB data packet @m (IB congestion control's
 * forward mark) and, when @m holds its whole packet (data_len ==
 * frame_bytes), update its VCRC incrementally (pkt_ib_crc16_delta: a
 * VCRC that was wrong stays wrong). The ICRC masks FECN: unchanged. An
 * already-marked packet is left as it is. For packets of sim pools
 * (pkt_data). */
void pkt_ib_mark_fecn(struct rte_mbuf *m);

/* Rewrite the LRH VL of the IB data packet @m to @vl (0..15; a switch's
 * SL-to-VL table picks it on every hop) and, when @m holds its whole
 * packet, update its VCRC incrementally as pkt_ib_mark_fecn does (a few
 * dozen operations, not a pass over the packet). The ICRC masks the VL:
 * unchanged. For packets of sim pools (pkt_data). */
void pkt_ib_set_vl(struct rte_mbuf *m, uint8_t vl);

/* The ICRC of the native IB packet at @d over its first @len bytes (LRH
 * through the pad, ICRC excluded): CRC-32 as for RoCEv2 (IEEE 802.3,
 * reflected, seed and final XOR all ones) over the real LRH with its VL
 * nibble set to ones, the GRH (when LNH is 3) with TClass, FlowLabel and
 * HopLmt set to ones, the BTH with byte 4 (FECN, BECN) set to ones, and
 * the rest as it is; no 8-byte 0xFF prefix (RoCEv2's stands in for this
 * LRH). The value goes on the wire least-significant byte first; tshark
 * shows those 4 bytes as infiniband.invariant.crc. */
uint32_t pkt_ib_icrc(const uint8_t *d, uint32_t len);
/* Verify the ICRC of an IB packet in @m (any segments): 1 ok, 0 bad,
 * -EINVAL when it is not an IB data packet or not whole through its
 * ICRC (PktLen * 4 bytes). */
int pkt_ib_icrc_check(const struct rte_mbuf *m);
/* Verify the VCRC of the IB packet in @m (any segments): the CRC-16 over
 * the PktLen * 4 bytes LRH..ICRC against the 2 bytes after them (least
 * significant first). 1 ok, 0 bad, -EINVAL when @m does not hold them
 * (a packet whose payload is not materialised) or PktLen is below the
 * LRH. */
int pkt_ib_vcrc_check(const struct rte_mbuf *m);

/* A flow-control packet of VL @vl (0..14) with operand @op (normal or
 * init), total blocks sent @fctbs and credit limit @fccl (both mod 4096),
 * and its LPCRC, into the empty mbuf @m; pkt_meta: frame_bytes 6,
 * payload 0, l3_off 0, kind PKT_KIND_FC. Returns 0, -EINVAL (a field out
 * of range) or -ENOSPC. */
int pkt_build_ib_fc(struct rte_mbuf *m, uint8_t op, uint8_t vl, uint16_t fctbs, uint16_t fccl);
/* The fields of the flow-control packet in @m. Returns 0, or -EINVAL when
 * it is not 6 bytes, its operand is not 0 or 1, or its LPCRC is wrong. */
int pkt_parse_ib_fc(const struct rte_mbuf *m, uint8_t *op, uint8_t *vl, uint16_t *fctbs,
		    uint16_t *fccl);

#endif
