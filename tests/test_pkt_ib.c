/* CUnit suite for native InfiniBand packets (core/pkt_ib.c and the IB
 * cases of core/pkt_view.h): build -> view -> parse round trips of every
 * kind of packet with and without a GRH, through both builders; lengths
 * from the spec's arithmetic (IBTA Vol 1 ch. 7: PktLen counts LRH..ICRC
 * in 4-byte words); the header overhead against RoCEv2; ICRC invariance
 * and VCRC upkeep under VL rewrites and FECN marks; the CRC-16 against a
 * bitwise one; the flow-control packet and the credit rule; and tshark
 * (the outside decoder, when installed) reading a capture through
 * tools/fabemu-ib.lua. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "capture.h"
#include "pkt.h"
#include "pkt_ib.h"
#include "pkt_ll.h"
#include "pkt_view.h"
#include "test.h"

enum {
	TIB_MAX_PAYLOAD_BYTES = 4096,  /* the largest IB MTU */
	TIB_LINE_BYTES = 2048,
	TIB_N_CAP = 40,                /* packets the tshark check writes at most */
	TIB_ETH_IPV4_UDP_FCS_BYTES = 14 + 20 + 8 + 4,
	TIB_LRH_VCRC_BYTES = 8 + 2,
	TIB_ETH_PREAMBLE_IFG_BYTES = 8 + 12,
	TIB_GRH_BYTES = 40,
};

static uint8_t tib_payload[TIB_MAX_PAYLOAD_BYTES];

/* Transport header bytes by opcode, from IBTA Vol 1 section 9.2 (BTH 12,
 * RETH 16, AETH 4, ImmDt 4, a CNP's 16 reserved bytes), independent of
 * pkt.c's table. */
static unsigned tib_xport_bytes(uint8_t op)
{
	switch (op) {
	case PKT_OP_WRITE_FIRST:
	case PKT_OP_WRITE_ONLY:
	case PKT_OP_READ_REQ:
		return 12 + 16;
	case PKT_OP_WRITE_ONLY_IMM:
		return 12 + 16 + 4;
	case PKT_OP_WRITE_LAST_IMM:
	case PKT_OP_SEND_LAST_IMM:
	case PKT_OP_SEND_ONLY_IMM:
		return 12 + 4;
	case PKT_OP_READ_RESP_FIRST:
	case PKT_OP_READ_RESP_LAST:
	case PKT_OP_READ_RESP_ONLY:
	case PKT_OP_ACK:
		return 12 + 4;
	case PKT_OP_CNP:
		return 12 + 16;
	default:
		return 12;
	}
}

/* One packet of the round trips. */
struct tib_case {
	uint8_t opcode;
	uint32_t payload_bytes;
};

static const struct tib_case tib_cases[] = {
	{ PKT_OP_SEND_ONLY, 1 },        { PKT_OP_SEND_FIRST, 256 },
	{ PKT_OP_SEND_LAST, 67 },       { PKT_OP_WRITE_FIRST, 1024 },
	{ PKT_OP_WRITE_MIDDLE, 4096 },  { PKT_OP_WRITE_ONLY, 2 },
	{ PKT_OP_WRITE_LAST_IMM, 3 },   { PKT_OP_WRITE_ONLY_IMM, 512 },
	{ PKT_OP_READ_REQ, 0 },         { PKT_OP_READ_RESP_ONLY, 2048 },
	{ PKT_OP_READ_RESP_MIDDLE, 4095 }, { PKT_OP_ACK, 0 },
	{ PKT_OP_CNP, 0 },
};

static struct pkt_roce tib_frame(uint8_t op, uint32_t payload_bytes, bool grh, unsigned i)
{
	struct pkt_roce f = {
		.addr = { .ll = PKT_LL_IB, .sl = (uint8_t)(i % 16), .vl = (uint8_t)(i % 15),
			  .grh = grh, .slid = (uint16_t)(0x0100 + i), .dlid = (uint16_t)(0x2000 + i),
			  .src_ip = 0x0A000001 + i, .dst_ip = 0x0A010002 + i,
			  .dscp = 26, .ecn = PKT_ECN_ECT0, .ttl = 64 },
		.opcode = op,
		.se = i & 1,
		.ack_req = (i >> 1) & 1,
		.becn = op == PKT_OP_CNP,
		.pkey = 0xFFFF,
		.dest_qp = 0x123456 + i,
		.psn = 0xABC000 + i,
		.reth_va = 0x1122334455667788ull + i,
		.reth_rkey = 0xCAFE0000 + i,
		.reth_len = 1u << 20,
		.aeth_syndrome = op == PKT_OP_ACK ? PKT_AETH_ACK_UNLIMITED : (uint8_t)i,
		.aeth_msn = 0x000700 + i,
		.imm_data = 0xDEADBEEF - i,
		.payload_bytes = payload_bytes,
	};
	return f;
}

static struct rte_mbuf *tib_build(const struct pkt_roce *f, bool whole)
{
	struct rte_mbuf *m = pkt_alloc(test_mempool());

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, f, whole ? tib_payload : NULL), 0);
	return m;
}

/* The spec's lengths: LRH 8, GRH 40, transport headers, payload, pad to 4,
 * ICRC 4 make PktLen words; the VCRC's 2 bytes follow. */
static uint32_t tib_spec_pktlen_bytes(const struct pkt_roce *f)
{
	uint32_t n = 8 + (f->addr.grh ? 40 : 0) + tib_xport_bytes(f->opcode) + f->payload_bytes;

	return (n + 3) / 4 * 4 + 4;
}

static void tib_check_parse(const struct rte_mbuf *m, const struct pkt_roce *f)
{
	struct pkt_roce g;

	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_IB, m, &g), 0);
	CU_ASSERT_EQUAL(g.addr.ll, PKT_LL_IB);
	CU_ASSERT_EQUAL(g.addr.sl, f->addr.sl);
	CU_ASSERT_EQUAL(g.addr.vl, f->addr.vl);
	CU_ASSERT_EQUAL(g.addr.slid, f->addr.slid);
	CU_ASSERT_EQUAL(g.addr.dlid, f->addr.dlid);
	CU_ASSERT_EQUAL(g.addr.grh, f->addr.grh);
	if (f->addr.grh) {
		CU_ASSERT_EQUAL(g.addr.dscp, f->addr.dscp);
		CU_ASSERT_EQUAL(g.addr.ecn, f->addr.ecn);
		CU_ASSERT_EQUAL(g.addr.ttl, f->addr.ttl);
		CU_ASSERT_EQUAL(g.addr.src_ip, f->addr.src_ip);
		CU_ASSERT_EQUAL(g.addr.dst_ip, f->addr.dst_ip);
	}
	CU_ASSERT_EQUAL(g.opcode, f->opcode);
	CU_ASSERT_EQUAL(g.se, f->se);
	CU_ASSERT_EQUAL(g.ack_req, f->ack_req);
	CU_ASSERT_EQUAL(g.becn, f->becn);
	CU_ASSERT_EQUAL(g.pkey, f->pkey);
	CU_ASSERT_EQUAL(g.dest_qp, f->dest_qp);
	CU_ASSERT_EQUAL(g.psn, f->psn);
	CU_ASSERT_EQUAL(g.payload_bytes, f->payload_bytes);
	if (tib_xport_bytes(f->opcode) >= 28 && f->opcode != PKT_OP_CNP) {
		CU_ASSERT_EQUAL(g.reth_va, f->reth_va);
		CU_ASSERT_EQUAL(g.reth_rkey, f->reth_rkey);
		CU_ASSERT_EQUAL(g.reth_len, f->reth_len);
	}
	if (f->opcode == PKT_OP_ACK || f->opcode == PKT_OP_READ_RESP_ONLY) {
		CU_ASSERT_EQUAL(g.aeth_syndrome, f->aeth_syndrome);
		CU_ASSERT_EQUAL(g.aeth_msn, f->aeth_msn);
	}
	if (f->opcode == PKT_OP_WRITE_LAST_IMM || f->opcode == PKT_OP_WRITE_ONLY_IMM)
		CU_ASSERT_EQUAL(g.imm_data, f->imm_data);
}

/* Every case, with and without GRH, whole and headers only, through
 * pkt_build_roce and the template: the spec's lengths, the LRH / GRH
 * bytes, the view's fields, the parse, the CRCs; the template's bytes
 * equal the direct builder's. */
static void test_ib_roundtrip(void)
{
	for (unsigned i = 0; i < sizeof(tib_cases) / sizeof(tib_cases[0]); i++)
		for (int grh = 0; grh < 2; grh++)
			for (int whole = 0; whole < 2; whole++) {
				struct pkt_roce f = tib_frame(tib_cases[i].opcode,
							      tib_cases[i].payload_bytes, grh, i);
				struct rte_mbuf *m = tib_build(&f, whole), *t = pkt_alloc(test_mempool());
				uint32_t pktlen = tib_spec_pktlen_bytes(&f), bth = grh ? 48 : 8;
				const uint8_t *d = pkt_data(m);
				struct pkt_tmpl tmpl;
				struct pkt_view v = { 0 };

				CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, pktlen + 2);
				CU_ASSERT_EQUAL(pkt_roce_frame_bytes(&f), pktlen + 2);
				CU_ASSERT_EQUAL(pkt_meta(m)->l3_off, 8);
				CU_ASSERT_EQUAL(pkt_meta(m)->payload_bytes, f.payload_bytes);
				CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m),
						whole || f.payload_bytes == 0
							? pktlen + 2
							: bth + tib_xport_bytes(f.opcode));
				/* LRH: VL, LVer 0, SL, LNH, DLID, PktLen, SLID. */
				CU_ASSERT_EQUAL(d[0], f.addr.vl << 4);
				CU_ASSERT_EQUAL(d[1], f.addr.sl << 4 | (grh ? 3 : 2));
				CU_ASSERT_EQUAL(pkt_get16(d + 2), f.addr.dlid);
				CU_ASSERT_EQUAL(pkt_get16(d + 4), pktlen / 4);
				CU_ASSERT_EQUAL(pkt_get16(d + 6), f.addr.slid);
				if (grh) {
					/* IPVer 6, TClass dscp<<2|ecn, FlowLabel 0, PayLen
					 * BTH..ICRC, NxtHdr 0x1B, HopLmt ttl, ::ffff:IPv4. */
					CU_ASSERT_EQUAL(pkt_get32(d + 8),
							6u << 28 | (uint32_t)(26 << 2 | 2) << 20);
					CU_ASSERT_EQUAL(pkt_get16(d + 12), pktlen - 48);
					CU_ASSERT_EQUAL(d[14], 0x1B);
					CU_ASSERT_EQUAL(d[15], 64);
					CU_ASSERT_EQUAL(pkt_get32(d + 16 + 8), 0x0000FFFF);
					CU_ASSERT_EQUAL(pkt_get32(d + 16 + 12), f.addr.src_ip);
					CU_ASSERT_EQUAL(pkt_get32(d + 32 + 12), f.addr.dst_ip);
				}
				CU_ASSERT_EQUAL(d[bth], f.opcode);

				CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_IB, d,
								   pkt_view_hdr_limit(PKT_LL_IB, m)),
						      0);
				CU_ASSERT_EQUAL(v.ll, PKT_LL_IB);
				CU_ASSERT_EQUAL(v.cls, f.addr.sl);
				CU_ASSERT_EQUAL(v.vl, f.addr.vl);
				CU_ASSERT_EQUAL(v.cong, PKT_ECN_ECT0);
				CU_ASSERT_EQUAL(v.dst, f.addr.dlid);
				CU_ASSERT_EQUAL(v.src, f.addr.slid);
				CU_ASSERT_EQUAL(v.proto, 0);
				CU_ASSERT_EQUAL(v.sport, f.dest_qp & 0xFFFF);
				CU_ASSERT_EQUAL(v.dport, 0);
				CU_ASSERT_EQUAL(v.l3_off, 8);
				CU_ASSERT_EQUAL(v.l4_off, bth);
				CU_ASSERT_EQUAL(v.bth_off, bth);
				CU_ASSERT_EQUAL(v.net_bytes, pktlen);
				CU_ASSERT_EQUAL(v.pad_bytes, -f.payload_bytes & 3);
				CU_ASSERT_EQUAL(v.becn, f.becn);
				CU_ASSERT_EQUAL(v.se, f.se);
				CU_ASSERT_EQUAL(v.pkey, f.pkey);
				CU_ASSERT_EQUAL(v.payload_bytes, f.payload_bytes);
				CU_ASSERT_EQUAL(v.int_off, 0);
				tib_check_parse(m, &f);
				if (whole || f.payload_bytes == 0) {
					CU_ASSERT_EQUAL(pkt_ib_icrc_check(m), 1);
					CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), 1);
				} else {
					CU_ASSERT_EQUAL(pkt_ib_icrc_check(m), -EINVAL);
					CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), -EINVAL);
				}

				pkt_tmpl_init(&tmpl, &f.addr, f.pkey, f.dest_qp);
				CU_ASSERT_EQUAL_FATAL(pkt_build_roce_tmpl(t, &tmpl, &f,
									  whole ? tib_payload : NULL),
						      0);
				CU_ASSERT_EQUAL(rte_pktmbuf_data_len(t), rte_pktmbuf_data_len(m));
				CU_ASSERT_EQUAL(memcmp(pkt_data(t), d, rte_pktmbuf_data_len(m)), 0);
				CU_ASSERT_EQUAL(memcmp(pkt_meta(t), pkt_meta(m), sizeof(struct pkt_meta)), 0);
				rte_pktmbuf_free(t);
				rte_pktmbuf_free(m);
			}
}

/* Lengths past PktLen's 11 bits are refused; the last that fits builds. */
static void test_ib_pktlen_limit(void)
{
	/* 2047 words = 8188 bytes: LRH 8 + BTH 12 + ICRC 4 leave 8164. */
	struct pkt_roce f = tib_frame(PKT_OP_SEND_MIDDLE, 8164, false, 0);
	struct rte_mbuf *m = pkt_alloc(test_mempool());

	CU_ASSERT_EQUAL(pkt_roce_frame_bytes(&f), 8190);
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), 0);
	CU_ASSERT_EQUAL(pkt_get16(pkt_data(m) + 4), 2047);
	rte_pktmbuf_free(m);
	f.payload_bytes = 8165;
	m = pkt_alloc(test_mempool());
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	f.addr.grh = true;
	f.payload_bytes = 8164 - 40;
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), 0);
	rte_pktmbuf_free(m);
}

/* The same payload as RoCEv2 (untagged) and as native IB: IB without GRH
 * is shorter by Ethernet 14 + IPv4 20 + UDP 8 + FCS 4 - LRH 8 - VCRC 2 =
 * 36 bytes per frame, and on the wire by 20 more (RoCE's preamble, SFD and
 * inter-frame gap); with a GRH by 40 less. */
static void test_ib_overhead(void)
{
	static const uint32_t sizes[] = { 256, 1024, 4096 };

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct pkt_roce ib = tib_frame(PKT_OP_WRITE_MIDDLE, sizes[i], false, 0), roce = ib;
		uint32_t diff = TIB_ETH_IPV4_UDP_FCS_BYTES - TIB_LRH_VCRC_BYTES;
		uint32_t ib_bytes, roce_bytes;

		roce.addr.ll = PKT_LL_ROCE;
		roce_bytes = pkt_roce_frame_bytes(&roce);
		ib_bytes = pkt_roce_frame_bytes(&ib);
		CU_ASSERT_EQUAL(roce_bytes - ib_bytes, diff);
		CU_ASSERT_EQUAL((roce_bytes + pkt_ll_roce.wire_overhead_bytes) -
					(ib_bytes + pkt_ll_ib.wire_overhead_bytes),
				diff + TIB_ETH_PREAMBLE_IFG_BYTES);
		ib.addr.grh = true;
		CU_ASSERT_EQUAL((int)roce_bytes - (int)pkt_roce_frame_bytes(&ib),
				(int)diff - TIB_GRH_BYTES);
	}
}

/* A switch's VL rewrite and FECN mark: the ICRC bytes do not change and
 * still check (both fields are masked in it); the VCRC changes and checks
 * (its incremental update equals a full recompute); a packet whose VCRC
 * was bad stays bad. With and without GRH, short and long packets. */
static void test_ib_variant_rewrites(void)
{
	static const uint32_t sizes[] = { 0, 5, 1000, 4096 };

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int grh = 0; grh < 2; grh++) {
			struct pkt_roce f = tib_frame(sizes[i] ? PKT_OP_SEND_ONLY : PKT_OP_ACK, sizes[i],
						      grh, i);
			struct rte_mbuf *m = tib_build(&f, true);
			uint8_t *d = pkt_data(m);
			uint32_t fb = pkt_meta(m)->frame_bytes, icrc_off = fb - 6;
			uint8_t icrc[4], vcrc[2];
			struct pkt_view v = { 0 }; /* the FATAL assert returns by longjmp, unseen by GCC */

			memcpy(icrc, d + icrc_off, 4);
			memcpy(vcrc, d + fb - 2, 2);
			for (uint8_t vl = 0; vl < 16; vl++) {
				pkt_ib_set_vl(m, vl);
				CU_ASSERT_EQUAL(d[0] >> 4, vl);
				CU_ASSERT_EQUAL(memcmp(d + icrc_off, icrc, 4), 0);
				CU_ASSERT_EQUAL(pkt_ib_icrc_check(m), 1);
				CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), 1);
				CU_ASSERT_EQUAL(pkt_ib_crc16(d, fb - 2), d[fb - 2] | d[fb - 1] << 8);
				CU_ASSERT_EQUAL(memcmp(d + fb - 2, vcrc, 2) != 0, vl != f.addr.vl);
			}
			pkt_ib_set_vl(m, 3);
			memcpy(vcrc, d + fb - 2, 2);
			pkt_ib_mark_fecn(m);
			CU_ASSERT_EQUAL(memcmp(d + icrc_off, icrc, 4), 0);
			CU_ASSERT_EQUAL(pkt_ib_icrc_check(m), 1);
			CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), 1);
			CU_ASSERT_NOT_EQUAL(memcmp(d + fb - 2, vcrc, 2), 0);
			CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_IB, d, fb - 2), 0);
			CU_ASSERT_EQUAL(v.cong, PKT_ECN_CE);
			CU_ASSERT(pkt_view_ce(&v));
			CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_IB, m), PKT_ECN_CE);
			/* A VCRC corrupted on the way stays wrong across a rewrite. */
			d[fb - 1] ^= 0x10;
			CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), 0);
			pkt_ib_set_vl(m, 7);
			CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), 0);
			/* And a payload bit flipped: both CRCs see it. */
			d[fb - 1] ^= 0x10;
			pkt_ib_set_vl(m, 3);
			d[fb / 2] ^= 1;
			CU_ASSERT_EQUAL(pkt_ib_icrc_check(m), 0);
			CU_ASSERT_EQUAL(pkt_ib_vcrc_check(m), 0);
			rte_pktmbuf_free(m);
		}
}

/* CRC-16 poly x^16 + x^12 + x^3 + x + 1 (0x100B), bit by bit, least
 * significant bit first, seed 0xFFFF, inverted: no table. */
static uint16_t tib_crc16_bitwise(const uint8_t *p, uint32_t len)
{
	uint16_t crc = 0xFFFF;

	for (uint32_t i = 0; i < len; i++)
		for (unsigned b = 0; b < 8; b++) {
			unsigned in = (p[i] >> b) & 1, top = crc & 1;

			crc >>= 1;
			if (in ^ top)
				crc ^= 0xD008; /* 0x100B with its bits reversed */
		}
	return (uint16_t)~crc;
}

/* The table CRC against the bitwise one on every single byte and on
 * pseudo-random messages up to 8190 bytes; the incremental delta against
 * recomputing, at every position of a message of each of a few lengths. */
static void test_ib_crc16(void)
{
	static uint8_t buf[8190];
	uint32_t x = 12345;

	for (unsigned i = 0; i < 256; i++) {
		uint8_t b = (uint8_t)i;

		CU_ASSERT_EQUAL(pkt_ib_crc16(&b, 1), tib_crc16_bitwise(&b, 1));
	}
	for (uint32_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (uint32_t len = 1; len <= sizeof(buf); len = len * 3 + 1)
		CU_ASSERT_EQUAL(pkt_ib_crc16(buf, len), tib_crc16_bitwise(buf, len));
	CU_ASSERT_EQUAL(pkt_ib_crc16(buf, sizeof(buf)), tib_crc16_bitwise(buf, sizeof(buf)));
	for (uint32_t len = 1; len <= sizeof(buf); len = len * 5 + 3) {
		for (uint32_t pos = 0; pos < len; pos += 1 + len / 7) {
			uint16_t before = pkt_ib_crc16(buf, len);
			uint8_t delta = (uint8_t)(pos * 37 + 1);

			buf[pos] ^= delta;
			CU_ASSERT_EQUAL(pkt_ib_crc16(buf, len),
					before ^ pkt_ib_crc16_delta(delta, len - 1 - pos));
			buf[pos] ^= delta;
		}
	}
}

/* The flow-control packet: every field round trips; every single-bit
 * corruption of its 6 bytes is refused (the LPCRC, or a reserved
 * operand); out-of-range fields are refused when building. */
static void test_ib_fc(void)
{
	static const uint16_t counts[] = { 0, 1, 2047, 2048, 4095 };

	for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (unsigned j = 0; j < sizeof(counts) / sizeof(counts[0]); j++) {
			struct rte_mbuf *m = pkt_alloc(test_mempool());
			uint8_t op, vl, want_vl = (uint8_t)((i + j) % 15);
			uint8_t want_op = (uint8_t)(j & 1);
			uint16_t fctbs, fccl;
			uint8_t *d;

			CU_ASSERT_EQUAL_FATAL(pkt_build_ib_fc(m, want_op, want_vl, counts[i], counts[j]), 0);
			CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 6);
			CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_FC);
			CU_ASSERT(pkt_ll_is_ctrl(PKT_LL_IB, m));
			CU_ASSERT_EQUAL_FATAL(pkt_parse_ib_fc(m, &op, &vl, &fctbs, &fccl), 0);
			CU_ASSERT_EQUAL(op, want_op);
			CU_ASSERT_EQUAL(vl, want_vl);
			CU_ASSERT_EQUAL(fctbs, counts[i]);
			CU_ASSERT_EQUAL(fccl, counts[j]);
			d = pkt_data(m);
			for (unsigned bit = 0; bit < 48; bit++) {
				d[bit / 8] ^= (uint8_t)(1u << (bit % 8));
				CU_ASSERT_EQUAL(pkt_parse_ib_fc(m, &op, &vl, &fctbs, &fccl), -EINVAL);
				d[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			}
			rte_pktmbuf_free(m);
		}
	{
		struct rte_mbuf *m = pkt_alloc(test_mempool());

		CU_ASSERT_EQUAL(pkt_build_ib_fc(m, 2, 0, 0, 0), -EINVAL);
		CU_ASSERT_EQUAL(pkt_build_ib_fc(m, 0, 15, 0, 0), -EINVAL);
		CU_ASSERT_EQUAL(pkt_build_ib_fc(m, 0, 0, 4096, 0), -EINVAL);
		CU_ASSERT_EQUAL(pkt_build_ib_fc(m, 0, 0, 0, 4096), -EINVAL);
		rte_pktmbuf_free(m);
	}
}

/* The IBTA credit rule (FCCL - (FCTBS + N)) mod 4096 <= 2048 across the
 * counters' wrap: a limit 10 blocks ahead of a count about to wrap admits
 * 10 blocks and not 11; a limit exactly 2048 ahead admits nothing more
 * than 2048; one "behind" (more than 2048 ahead) admits nothing. */
static void test_ib_fc_wrap(void)
{
	CU_ASSERT(pkt_ib_fc_may_send(4090, 4, 10));
	CU_ASSERT(!pkt_ib_fc_may_send(4090, 4, 11));
	CU_ASSERT(pkt_ib_fc_may_send(4095, 0, 1));
	CU_ASSERT(!pkt_ib_fc_may_send(4095, 0, 2));
	CU_ASSERT(pkt_ib_fc_may_send(0, 0, 0));
	CU_ASSERT(!pkt_ib_fc_may_send(0, 0, 1));
	CU_ASSERT(pkt_ib_fc_may_send(1000, 3048, 2048));
	CU_ASSERT(!pkt_ib_fc_may_send(1000, 3049, 0));
	CU_ASSERT(pkt_ib_fc_may_send(3000, 952, 2048));  /* 952 + 4096 - 3000 */
	CU_ASSERT(!pkt_ib_fc_may_send(3000, 952, 2049));
	CU_ASSERT_EQUAL(pkt_ib_blocks(4096 + 26), 65);
	CU_ASSERT_EQUAL(pkt_ib_blocks(64), 1);
}

/* Views refuse what is not an IB data packet: LVer not 0, LNH 0 or 1, a
 * GRH that is not IPv6 with next header 0x1B, headers past the bytes
 * held, PktLen short of the headers; and HPCC's INT stack is found after
 * the transport headers as on RoCE. */
static void test_ib_view_checks(void)
{
	struct pkt_roce f = tib_frame(PKT_OP_SEND_ONLY, 64, true, 1);
	struct rte_mbuf *m = tib_build(&f, true);
	uint8_t *d = pkt_data(m);
	uint32_t fb = pkt_meta(m)->frame_bytes;
	struct pkt_view v;

	CU_ASSERT_EQUAL(pkt_view_all(&v, PKT_LL_IB, d, fb - 2), 0);
	CU_ASSERT_EQUAL(pkt_view_hdr_limit(PKT_LL_IB, m), fb - 2);
	d[0] |= 1;
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_IB, d, fb - 2), -EINVAL);
	d[0] &= 0xF0;
	d[1] = (uint8_t)((d[1] & 0xFC) | 1);
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_IB, d, fb - 2), -EINVAL);
	d[1] |= 3;
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_IB, d, 50), -EINVAL);
	d[14] = 0x11;
	CU_ASSERT_EQUAL(pkt_view_all(&v, PKT_LL_IB, d, fb - 2), -EINVAL);
	d[14] = 0x1B;
	d[8] = (uint8_t)(4 << 4 | (d[8] & 0x0F));
	CU_ASSERT_EQUAL(pkt_view_all(&v, PKT_LL_IB, d, fb - 2), -EINVAL);
	d[8] = (uint8_t)(6 << 4 | (d[8] & 0x0F));
	d[5] = 10; /* PktLen 10 words: less than LRH + GRH + BTH + ICRC */
	CU_ASSERT_EQUAL(pkt_view_all(&v, PKT_LL_IB, d, fb - 2), -EINVAL);
	rte_pktmbuf_free(m);

	/* An INT stack of one record as the payload's start, flagged in the
	 * BTH: found at the end of the transport headers. */
	f = tib_frame(PKT_OP_SEND_ONLY, PKT_INT_HDR_BYTES + PKT_INT_HOP_BYTES + 100, false, 2);
	memset(tib_payload, 0, PKT_INT_HDR_BYTES);
	tib_payload[1] = 1;
	m = tib_build(&f, true);
	d = pkt_data(m);
	d[8 + 4] |= PKT_BTH_INT;
	CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_IB, d, pkt_meta(m)->frame_bytes - 2), 0);
	CU_ASSERT_EQUAL(v.int_off, 8 + 12);
	CU_ASSERT_EQUAL(v.int_hops, 1);
	CU_ASSERT_EQUAL(v.payload_bytes, 100);
	CU_ASSERT_EQUAL(pkt_view_payload_off(&v, d), 8 + 12 + PKT_INT_HDR_BYTES + PKT_INT_HOP_BYTES);
	rte_pktmbuf_free(m);
	for (unsigned i = 0; i < sizeof(tib_payload); i++)
		tib_payload[i] = (uint8_t)(i * 7 + 3);
}

/* ---- tshark ---- */

/* One packet of the capture and what tshark must read of it. */
struct tib_cap {
	struct pkt_roce f;  /* data packet (when !fc) */
	bool fc;            /* a flow-control packet */
	bool fecn;          /* marked with pkt_ib_mark_fecn after building */
	uint8_t fc_op, fc_vl;
	uint16_t fctbs, fccl;
};

static unsigned tib_cap_plan(struct tib_cap caps[TIB_N_CAP])
{
	unsigned n = 0;

	for (unsigned i = 0; i < sizeof(tib_cases) / sizeof(tib_cases[0]); i++)
		for (int grh = 0; grh < 2; grh++) {
			struct tib_cap *c = &caps[n++];

			memset(c, 0, sizeof(*c));
			c->f = tib_frame(tib_cases[i].opcode, tib_cases[i].payload_bytes, grh, n);
			c->fecn = n % 3 == 0;
			c->f.becn = c->f.becn || n % 4 == 0;
		}
	for (unsigned i = 0; i < 4; i++) {
		struct tib_cap *c = &caps[n++];

		memset(c, 0, sizeof(*c));
		c->fc = true;
		c->fc_op = (uint8_t)(i == 0);
		c->fc_vl = (uint8_t)(i * 4);
		c->fctbs = (uint16_t)(i * 1234 % 4096);
		c->fccl = (uint16_t)((i * 1234 + 2048) % 4096);
	}
	return n;
}

/* The next tab-separated field of @rest ("" when none). */
static const char *tib_field(char **rest)
{
	return *rest != NULL ? strsep(rest, "\t\n") : "";
}

/* Capture written with cap_open_as (LINKTYPE_USER0), read by tshark with
 * tools/fabemu-ib.lua: nothing malformed and no expert error; the LRH
 * fields as built (DLID, SLID, VL, SL, PktLen); BTH opcode, PSN and
 * destination QP; AETH syndrome and MSN; the FECN and BECN bits (tshark
 * 4.0 has no field for them: BTH byte 4, from the infiniband.bth bytes);
 * GRH PayLen; RETH DMA length; ImmDt; infiniband.invariant.crc equal to
 * our ICRC and infiniband.variant.crc to our VCRC; and the flow-control
 * fields from the Lua dissector with its LPCRC check. Wireshark's
 * RPC-over-RDMA heuristic is off: it takes the 1-byte SEND payload for its
 * own header and throws (RoCE payloads meet it too; not the framing). */
static void test_ib_tshark(void)
{
	static struct tib_cap caps[TIB_N_CAP];
	char path[64], cmd[TIB_LINE_BYTES], line[TIB_LINE_BYTES], err[CFG_ERR_BYTES];
	const char *lua = FAB_TOOLS_DIR "/fabemu-ib.lua";
	unsigned n = tib_cap_plan(caps), k = 0;
	uint32_t icrcs[TIB_N_CAP], vcrcs[TIB_N_CAP], lpcrcs[TIB_N_CAP];
	struct cap_file *c;
	FILE *out;
	int fd;

	if (system("command -v tshark >/dev/null 2>&1") != 0) {
		printf("\n  SKIP: tshark not on PATH, IB capture decode check not run\n");
		return;
	}
	snprintf(path, sizeof(path), "/tmp/fabemu-ib-XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(cap_open_as(path, 0, &pkt_ll_ib, CAP_LINKTYPE_USER0, &c, err), 0);
	for (unsigned i = 0; i < n; i++) {
		struct rte_mbuf *m = pkt_alloc(test_mempool());
		const uint8_t *d;
		uint32_t fb;

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		if (caps[i].fc) {
			CU_ASSERT_EQUAL_FATAL(pkt_build_ib_fc(m, caps[i].fc_op, caps[i].fc_vl,
							      caps[i].fctbs, caps[i].fccl), 0);
		} else {
			CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &caps[i].f, tib_payload), 0);
			if (caps[i].fecn)
				pkt_ib_mark_fecn(m);
		}
		d = pkt_data(m);
		fb = pkt_meta(m)->frame_bytes;
		icrcs[i] = fb >= 6 + 4 ? pkt_get32(d + fb - 6) : 0;
		vcrcs[i] = pkt_get16(d + fb - 2);
		lpcrcs[i] = (uint32_t)(d[4] | d[5] << 8);
		cap_write(c, 1000ull * i, m, fb);
		rte_pktmbuf_free(m);
	}
	CU_ASSERT_EQUAL_FATAL(cap_close(c), 0);

	snprintf(cmd, sizeof(cmd),
		 "tshark -X lua_script:%s --disable-heuristic rpcrdma_infiniband -r %s -T fields "
		 "-E separator=/t -E occurrence=f "
		 "-e _ws.malformed -e _ws.expert.severity -e frame.len -e frame.cap_len "
		 "-e infiniband.lrh.dlid -e infiniband.lrh.slid -e infiniband.lrh.vl "
		 "-e infiniband.lrh.sl -e infiniband.lrh.pktlen -e infiniband.bth.opcode "
		 "-e infiniband.bth.psn -e infiniband.bth.destqp -e infiniband.bth "
		 "-e infiniband.aeth.syndrome -e infiniband.aeth.msn -e infiniband.grh.paylen "
		 "-e infiniband.reth.dmalen -e infiniband.immdt -e infiniband.invariant.crc "
		 "-e infiniband.variant.crc -e fabemu_iblink.op -e fabemu_iblink.fctbs "
		 "-e fabemu_iblink.vl -e fabemu_iblink.fccl -e fabemu_iblink.lpcrc "
		 "-e fabemu_iblink.lpcrc_good 2>/dev/null", lua, path);
	out = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	while (k < n && fgets(line, sizeof(line), out) != NULL) {
		const struct tib_cap *cp = &caps[k];
		const struct pkt_roce *f = &cp->f;
		char *rest = line, want[64];
		const char *malformed = tib_field(&rest), *severity = tib_field(&rest);
		const char *len = tib_field(&rest), *cap_len = tib_field(&rest);
		const char *dlid = tib_field(&rest), *slid = tib_field(&rest);
		const char *vl = tib_field(&rest), *sl = tib_field(&rest);
		const char *pktlen = tib_field(&rest), *opcode = tib_field(&rest);
		const char *psn = tib_field(&rest), *destqp = tib_field(&rest);
		const char *bth = tib_field(&rest), *syn = tib_field(&rest);
		const char *msn = tib_field(&rest), *paylen = tib_field(&rest);
		const char *dmalen = tib_field(&rest), *immdt = tib_field(&rest);
		const char *icrc = tib_field(&rest), *vcrc = tib_field(&rest);
		const char *op = tib_field(&rest), *fctbs = tib_field(&rest);
		const char *fvl = tib_field(&rest), *fccl = tib_field(&rest);
		const char *lpcrc = tib_field(&rest), *good = tib_field(&rest);
		uint32_t frame_bytes = cp->fc ? 6 : pkt_roce_frame_bytes(f);
		unsigned long byte4;

		CU_ASSERT_STRING_EQUAL(malformed, "");
		CU_ASSERT_PTR_NULL(strstr(severity, "8388608")); /* PI_ERROR */
		/* orig_len = frame_bytes: ICRC and VCRC captured. */
		CU_ASSERT_EQUAL(strtoul(len, NULL, 10), frame_bytes);
		CU_ASSERT_EQUAL(strtoul(cap_len, NULL, 10), frame_bytes);
		if (cp->fc) {
			CU_ASSERT_EQUAL(strtoul(op, NULL, 10), cp->fc_op);
			CU_ASSERT_EQUAL(strtoul(fctbs, NULL, 10), cp->fctbs);
			CU_ASSERT_EQUAL(strtoul(fvl, NULL, 10), cp->fc_vl);
			CU_ASSERT_EQUAL(strtoul(fccl, NULL, 10), cp->fccl);
			CU_ASSERT_EQUAL(strtoul(lpcrc, NULL, 16), lpcrcs[k]);
			CU_ASSERT_STRING_EQUAL(good, "1");
			CU_ASSERT_STRING_EQUAL(opcode, "");
			k++;
			continue;
		}
		CU_ASSERT_STRING_EQUAL(op, "");
		CU_ASSERT_EQUAL(strtoul(dlid, NULL, 10), f->addr.dlid);
		CU_ASSERT_EQUAL(strtoul(slid, NULL, 10), f->addr.slid);
		CU_ASSERT_EQUAL(strtoul(vl, NULL, 0), f->addr.vl); /* "0x1" */
		CU_ASSERT_EQUAL(strtoul(sl, NULL, 10), f->addr.sl);
		CU_ASSERT_EQUAL(strtoul(pktlen, NULL, 10), (frame_bytes - 2) / 4);
		CU_ASSERT_EQUAL(strtoul(opcode, NULL, 10), f->opcode);
		CU_ASSERT_EQUAL(strtoul(psn, NULL, 10), f->psn);
		CU_ASSERT_EQUAL(strtoul(destqp, NULL, 16), f->dest_qp);
		/* BTH byte 4 as hex digits 8..9 of the header's bytes. */
		CU_ASSERT_FATAL(strlen(bth) >= 24);
		snprintf(want, sizeof(want), "%.2s", bth + 8);
		byte4 = strtoul(want, NULL, 16);
		CU_ASSERT_EQUAL((byte4 & PKT_BTH_FECN) != 0, cp->fecn);
		CU_ASSERT_EQUAL((byte4 & PKT_BTH_BECN) != 0, f->becn);
		if (f->opcode == PKT_OP_ACK || f->opcode == PKT_OP_READ_RESP_ONLY) {
			CU_ASSERT_EQUAL(strtoul(syn, NULL, 10), f->aeth_syndrome);
			CU_ASSERT_EQUAL(strtoul(msn, NULL, 10), f->aeth_msn);
		}
		if (f->addr.grh)
			CU_ASSERT_EQUAL(strtoul(paylen, NULL, 10), frame_bytes - 2 - 48);
		if (f->opcode == PKT_OP_WRITE_FIRST || f->opcode == PKT_OP_WRITE_ONLY_IMM)
			CU_ASSERT_EQUAL(strtoul(dmalen, NULL, 10), f->reth_len);
		if (f->opcode == PKT_OP_WRITE_LAST_IMM || f->opcode == PKT_OP_WRITE_ONLY_IMM)
			CU_ASSERT_EQUAL(strtoul(immdt, NULL, 16), f->imm_data);
		/* tshark prints the 4 wire bytes as one big-endian number;
		 * opcode 0x81 (the CNP) is unknown to it, so it stops at the
		 * BTH and shows no CRCs. */
		if (f->opcode == PKT_OP_CNP) {
			CU_ASSERT_STRING_EQUAL(icrc, "");
		} else {
			CU_ASSERT_EQUAL(strtoul(icrc, NULL, 16), icrcs[k]);
			CU_ASSERT_EQUAL(strtoul(vcrc, NULL, 16), vcrcs[k]);
		}
		k++;
	}
	if (k != n)
		printf("\n  tshark gave %u of %u packets: %s\n", k, n, cmd);
	CU_ASSERT_EQUAL(pclose(out), 0);
	CU_ASSERT_EQUAL(k, n);
	if (k == n)
		unlink(path);
}

static int tib_init(void)
{
	for (unsigned i = 0; i < sizeof(tib_payload); i++)
		tib_payload[i] = (uint8_t)(i * 7 + 3);
	return 0;
}

int test_pkt_ib_register(void)
{
	static const struct test_case tests[] = {
		{ "round trips: build, view, parse, template", test_ib_roundtrip },
		{ "PktLen's 11 bits bound the packet", test_ib_pktlen_limit },
		{ "header overhead against RoCEv2", test_ib_overhead },
		{ "VL rewrite and FECN mark keep ICRC, update VCRC", test_ib_variant_rewrites },
		{ "CRC-16 table and delta against bitwise", test_ib_crc16 },
		{ "flow-control packet codec and LPCRC", test_ib_fc },
		{ "credit rule across the 4096 wrap", test_ib_fc_wrap },
		{ "view checks and the INT stack", test_ib_view_checks },
		{ "tshark decodes with fabemu-ib.lua", test_ib_tshark },
	};

	return test_suite_n("pkt_ib", tib_init, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
