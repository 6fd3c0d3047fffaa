/* Native InfiniBand packets on rte_mbufs: the link-level flow-control
 * (credit) packet and the 16-bit CRCs of the IB link layer (VCRC, LPCRC).
 * Layouts and sources: docs/wire-formats.md (IBTA Vol 1 chapter 7: the
 * local route header, flow-control packets, VCRC; Wireshark's
 * infiniband_link field names). */
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

/* Set the FECN bit of the IB data packet @m (IB congestion control's
 * forward mark) and, when @m holds its whole packet, rewrite its VCRC. */
void pkt_ib_mark_fecn(struct rte_mbuf *m);

/* Put the IB packet @m on VL @vl (a switch's SL-to-VL mapping at egress)
 * and, when @m holds its whole packet, rewrite its VCRC. */
void pkt_ib_set_vl(struct rte_mbuf *m, uint8_t vl);

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
