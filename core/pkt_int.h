/* Pieces core/pkt.c shares with core/pkt_ib.c (private to core/): the
 * CRC-32 of the ICRC, big-endian writers and the segment walk of a check.
 * Not installed; nothing outside core/ includes it. */
#ifndef FAB_PKT_INT_H
#define FAB_PKT_INT_H

#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

#include "pkt.h"
#include "pkt_view.h"

/* Advance the un-inverted reflected CRC-32 state @crc (IEEE 802.3
 * polynomial, the ICRC's) over @len bytes at @p. */
uint32_t pkt_crc32_update(uint32_t crc, const uint8_t *p, uint32_t len)
	__attribute__((visibility("hidden")));

/* The same over bytes @off..@end of @m, whatever its segments (the bytes
 * must be there). */
uint32_t pkt_crc32_mbuf(uint32_t crc, const struct rte_mbuf *m, uint32_t off, uint32_t end)
	__attribute__((visibility("hidden")));

enum {
	PKT_IPV4_VER_IHL = 0x45, /* IPv4 version 4, 5 words, no options: what the builders write */
};

static inline void pkt_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void pkt_put24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void pkt_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	pkt_put24(p + 1, v);
}

/* A 32-bit CRC value as the wire has it: least-significant byte first,
 * like the Ethernet FCS. */
static inline void pkt_put_crc32(uint8_t *p, uint32_t crc)
{
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
}

/* Pad after the payload that makes BTH..payload a multiple of 4 bytes. */
static inline uint32_t pkt_pad_bytes(uint32_t payload_bytes)
{
	return -payload_bytes & 3;
}

/* The BTH of frame @f at @bth less its partition key and destination QP
 * (a template's), and the extension headers its opcode's layout @lay
 * implies, with @pad in the BTH's pad count: the same bytes on every
 * link layer. Inlined into each builder. */
static inline __attribute__((always_inline)) void
pkt_write_xport(uint8_t *bth, const struct pkt_layout *lay, const struct pkt_roce *f, uint32_t pad)
{
	uint8_t *ext = bth + PKT_BTH_BYTES;

	bth[0] = f->opcode;
	bth[1] = (uint8_t)((f->se ? PKT_BTH_SE : 0) | pad << PKT_BTH_PAD_SHIFT);
	bth[4] = f->becn ? PKT_BTH_BECN : 0;
	bth[8] = f->ack_req ? PKT_BTH_ACKREQ : 0;
	pkt_put24(bth + 9, f->psn & PKT_24BIT_MASK);

	memset(ext, 0, lay->hdr_bytes - PKT_BTH_BYTES);
	if (lay->exts & PKT_EXT_RETH) {
		pkt_put32(ext, (uint32_t)(f->reth_va >> 32));
		pkt_put32(ext + 4, (uint32_t)f->reth_va);
		pkt_put32(ext + 8, f->reth_rkey);
		pkt_put32(ext + 12, f->reth_len);
	}
	if (lay->exts & PKT_EXT_AETH) {
		ext[0] = f->aeth_syndrome;
		pkt_put24(ext + 1, f->aeth_msn & PKT_24BIT_MASK);
	}
	if (unlikely(lay->exts & PKT_EXT_IMM))
		pkt_put32(bth + lay->hdr_bytes - PKT_IMM_BYTES, f->imm_data);
}

/* Room for @len bytes at the start of the empty packet @m, or NULL. An
 * empty packet from a pool is one segment (a pool's free mbufs have no
 * next), so unlike rte_pktmbuf_append this does not look for the last
 * segment: that is on the mbuf's second line, which nothing else on a
 * packet's way reads. */
static inline uint8_t *pkt_fill_empty(struct rte_mbuf *m, uint16_t len)
{
	if (m->pkt_len != 0 || len > rte_pktmbuf_tailroom(m))
		return NULL;
	m->data_len = len;
	m->pkt_len = len;
	return rte_pktmbuf_mtod(m, uint8_t *);
}

/* Native InfiniBand twins of the RoCE builders (core/pkt_ib.c), which
 * pkt_build_roce, pkt_roce_frame_bytes, pkt_tmpl_init and
 * pkt_build_roce_tmpl call when the addressing says PKT_LL_IB. Same
 * contracts. */
int pkt_ib_build(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *payload)
	__attribute__((visibility("hidden")));
uint32_t pkt_ib_frame_bytes(const struct pkt_roce *f) __attribute__((visibility("hidden")));
void pkt_ib_tmpl_init(struct pkt_tmpl *t, const struct pkt_addr *a, uint16_t pkey,
		      uint32_t dest_qp) __attribute__((visibility("hidden")));
int pkt_ib_build_tmpl(struct rte_mbuf *m, const struct pkt_tmpl *t, const struct pkt_roce *f,
		      const uint8_t *payload) __attribute__((visibility("hidden")));

/* The view of the frame of link layer @ll in @m, whatever its segments
 * (core/pkt.c): headers copied into @buf, bounded by what @m holds.
 * 0 or -EINVAL (pkt_view_all). */
int pkt_view_mbuf(enum pkt_ll_kind ll, const struct rte_mbuf *m, struct pkt_view *v,
		  uint8_t buf[PKT_VIEW_MAX_HDR_BYTES]) __attribute__((visibility("hidden")));
/* The BTH and extension-header fields of @v into @out (every link layer). */
void pkt_parse_xport(const struct pkt_view *v, struct pkt_roce *out)
	__attribute__((visibility("hidden")));
/* Ethernet (with @a's optional 802.1Q tag), IPv4 less its total length
 * and checksum, and UDP from @sport to @dport less its length, at @p as
 * @a addresses it (core/pkt.c). Returns the IPv4 header's offset. */
uint32_t pkt_eth_ipv4_udp_fixed(uint8_t *p, const struct pkt_addr *a, uint16_t sport,
				 uint16_t dport) __attribute__((visibility("hidden")));
/* One's-complement sum, not folded, of the IPv4 header at @ip as the
 * fixed writers leave it (total length and checksum zero). */
uint32_t pkt_ipv4_fixed_sum(const uint8_t *ip) __attribute__((visibility("hidden")));
/* UET twins of the RoCE builders (core/pkt_uet.c), called when the
 * addressing says PKT_LL_UET; same contracts, except that a UET template
 * fixes the Ethernet, IPv4 and UDP headers only (the PDS header names
 * both connection ends: each frame writes it whole). */
int pkt_uet_build(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *payload)
	__attribute__((visibility("hidden")));
uint32_t pkt_uet_frame_bytes(const struct pkt_roce *f) __attribute__((visibility("hidden")));
void pkt_uet_tmpl_init(struct pkt_tmpl *t, const struct pkt_addr *a)
	__attribute__((visibility("hidden")));
int pkt_uet_build_tmpl(struct rte_mbuf *m, const struct pkt_tmpl *t, const struct pkt_roce *f,
		       const uint8_t *payload) __attribute__((visibility("hidden")));
/* Ethernet, VLAN and IPv4 / UDP addressing of a frame viewed by @v (every
 * stage through pkt_view_flow) whose headers are at @buf, into @a
 * (core/pkt.c; RoCE's parser and UET's). */
void pkt_parse_eth_addr(const uint8_t *buf, const struct pkt_view *v, struct pkt_addr *a)
	__attribute__((visibility("hidden")));
/* pkt_parse_ll for PKT_LL_UET (core/pkt_uet.c). */
int pkt_parse_uet(const struct rte_mbuf *m, struct pkt_roce *out)
	__attribute__((visibility("hidden")));
/* pkt_parse_ll for PKT_LL_IB (core/pkt_ib.c). */
int pkt_parse_ib(const struct rte_mbuf *m, struct pkt_roce *out)
	__attribute__((visibility("hidden")));

#endif
