/* CUnit suite for Ultra Ethernet Transport frames (core/pkt_uet.c and the
 * UET cases of core/pkt_view.h), checked against the layouts of
 * docs/wire-formats.md, "Ultra Ethernet Transport" (UEC specification 1.0,
 * the Linux ultraeth RFC's field widths), read here byte by byte at their
 * offsets rather than through the parser: frame lengths by arithmetic
 * (Ethernet 14, IPv4 20, UDP 8, PDS 12/12/32/16, SES 44, FCS 4, at least
 * 64), the prologue's bits, each field; build -> parse round trips through
 * both builders; trimming (lengths, DSCP, a valid IPv4 checksum, the PDS
 * fields kept, the view of the cut request); and what is refused. */
#include <stdbool.h>
#include <string.h>

#include <rte_mbuf.h>

#include "pkt.h"
#include "pkt_uet.h"
#include "pkt_view.h"
#include "test.h"

enum {
	TU_L3 = 14,                 /* untagged: IPv4 at 14, UDP at 34, PDS at 42 */
	TU_UDP = 34,
	TU_PDS = 42,
	TU_SES = TU_PDS + 12,
	TU_HDRS = 14 + 20 + 8,     /* Ethernet, IPv4, UDP */
};

static uint8_t tu_payload[4096];

static uint16_t tu_get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t tu_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The one's-complement sum of the IPv4 header at @ip: 0xFFFF when its
 * checksum is right (RFC 791), computed here on its own. */
static uint16_t tu_ip_sum(const uint8_t *ip)
{
	uint32_t s = 0;

	for (int i = 0; i < 20; i += 2)
		s += tu_get16(ip + i);
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)s;
}

static struct pkt_roce tu_frame(uint8_t op, uint32_t payload)
{
	struct pkt_roce f;

	memset(&f, 0, sizeof(f));
	f.addr.ll = PKT_LL_UET;
	memcpy(f.addr.dst_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(f.addr.src_mac, "\x02\x00\x00\x00\x00\x02", 6);
	f.addr.src_ip = 0x0A000001;
	f.addr.dst_ip = 0x0A000002;
	f.addr.dscp = 26;
	f.addr.ecn = PKT_ECN_ECT0;
	f.addr.ttl = 64;
	f.addr.udp_sport = 0xC123;
	f.opcode = op;
	f.dest_qp = 0x1234;
	f.spdcid = 0x0101;
	f.psn = 0x00ABCDEF;
	f.payload_bytes = payload;
	f.reth_va = UINT64_C(0x1122334455667788);
	f.reth_len = 3 * 4096 + 100;
	f.msg_id = 0xBEEF;
	f.msg_offset = 8192;
	f.imm_data = 0xCAFEF00D;
	f.ev = 0xC777;
	return f;
}

static struct rte_mbuf *tu_build(const struct pkt_roce *f)
{
	struct rte_mbuf *m = pkt_alloc(test_mempool());

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, f, tu_payload), 0);
	return m;
}

/* Requests: every RC opcode the NIC sends, as SES opcode and flags, the
 * PDS fields and lengths at their offsets; SOM packets carry header data,
 * the others payload length and message offset. */
static void test_uet_requests(void)
{
	static const struct {
		uint8_t op, ses_op, flags;
	} cases[] = {
		{ PKT_OP_WRITE_FIRST, PKT_UET_SES_WRITE, PKT_UET_SES_F_SOM },
		{ PKT_OP_WRITE_MIDDLE, PKT_UET_SES_WRITE, 0 },
		{ PKT_OP_WRITE_LAST, PKT_UET_SES_WRITE, PKT_UET_SES_F_EOM },
		{ PKT_OP_WRITE_ONLY, PKT_UET_SES_WRITE, PKT_UET_SES_F_SOM | PKT_UET_SES_F_EOM },
		{ PKT_OP_WRITE_LAST_IMM, PKT_UET_SES_WRITE, PKT_UET_SES_F_EOM | PKT_UET_SES_F_HD },
		{ PKT_OP_WRITE_ONLY_IMM, PKT_UET_SES_WRITE,
		  PKT_UET_SES_F_SOM | PKT_UET_SES_F_EOM | PKT_UET_SES_F_HD },
		{ PKT_OP_SEND_FIRST, PKT_UET_SES_SEND, PKT_UET_SES_F_SOM },
		{ PKT_OP_SEND_MIDDLE, PKT_UET_SES_SEND, 0 },
		{ PKT_OP_SEND_LAST, PKT_UET_SES_SEND, PKT_UET_SES_F_EOM },
		{ PKT_OP_SEND_ONLY, PKT_UET_SES_SEND, PKT_UET_SES_F_SOM | PKT_UET_SES_F_EOM },
		{ PKT_OP_SEND_LAST_IMM, PKT_UET_SES_SEND, PKT_UET_SES_F_EOM | PKT_UET_SES_F_HD },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int tmpl = 0; tmpl < 2; tmpl++) {
			struct pkt_roce f = tu_frame(cases[i].op, 1000), g;
			struct rte_mbuf *m = pkt_alloc(test_mempool());
			const uint8_t *d, *pds, *ses;
			struct pkt_tmpl t;
			bool som = cases[i].flags & PKT_UET_SES_F_SOM;
			bool hd = cases[i].flags & PKT_UET_SES_F_HD;

			f.ack_req = i & 1;
			f.uet_retx = tmpl;
			CU_ASSERT_PTR_NOT_NULL_FATAL(m);
			if (tmpl) {
				pkt_tmpl_init(&t, &f.addr, 0xFFFF, f.dest_qp);
				CU_ASSERT_EQUAL_FATAL(pkt_build_roce_tmpl(m, &t, &f, tu_payload), 0);
			} else {
				CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, tu_payload), 0);
			}
			d = pkt_data(m);
			pds = d + TU_PDS;
			ses = d + TU_SES;
			CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, TU_HDRS + 12 + 44 + 1000 + 4);
			CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_DATA);
			CU_ASSERT_EQUAL(tu_get16(d + TU_UDP), 0xC777);     /* the EV */
			CU_ASSERT_EQUAL(tu_get16(d + TU_UDP + 2), 4793);
			CU_ASSERT_EQUAL(tu_get16(d + TU_UDP + 4), 8 + 12 + 44 + 1000);
			CU_ASSERT_EQUAL(tu_get16(d + TU_L3 + 2), 20 + 8 + 12 + 44 + 1000);
			CU_ASSERT_EQUAL(tu_ip_sum(d + TU_L3), 0xFFFF);
			/* prologue: type 2 (RUD request) in 15..11, next header 3 in
			 * 10..7, AR 0x08 and RETX 0x10 */
			CU_ASSERT_EQUAL(pds[0] >> 3, 2);
			CU_ASSERT_EQUAL((tu_get16(pds) >> 7) & 0xF, 3);
			CU_ASSERT_EQUAL((pds[1] & 0x08) != 0, f.ack_req);
			CU_ASSERT_EQUAL((pds[1] & 0x10) != 0, tmpl);
			CU_ASSERT_EQUAL(tu_get32(pds + 4), 0x00ABCDEF);
			CU_ASSERT_EQUAL(tu_get16(pds + 8), 0x0101);
			CU_ASSERT_EQUAL(tu_get16(pds + 10), 0x1234);
			CU_ASSERT_EQUAL(ses[0] & 0x3F, cases[i].ses_op);
			CU_ASSERT_EQUAL(ses[1], cases[i].flags);
			CU_ASSERT_EQUAL(tu_get16(ses + 2), 0xBEEF);
			CU_ASSERT_EQUAL(tu_get32(ses + 12), 0x11223344);
			CU_ASSERT_EQUAL(tu_get32(ses + 16), 0x55667788);
			CU_ASSERT_EQUAL(tu_get32(ses + 20), 0x0A000001);
			if (som || hd) {
				CU_ASSERT_EQUAL(tu_get32(ses + 32), 0);
				CU_ASSERT_EQUAL(tu_get32(ses + 36), hd ? 0xCAFEF00D : 0);
			} else {
				CU_ASSERT_EQUAL(tu_get16(ses + 34), 1000);
				CU_ASSERT_EQUAL(tu_get32(ses + 36), 8192);
			}
			CU_ASSERT_EQUAL(tu_get32(ses + 40), 3 * 4096 + 100);
			CU_ASSERT_EQUAL(memcmp(ses + 44, tu_payload, 1000), 0);
			CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
			CU_ASSERT_EQUAL(g.opcode, cases[i].op);
			CU_ASSERT_EQUAL(g.psn, f.psn);
			CU_ASSERT_EQUAL(g.dest_qp, f.dest_qp);
			CU_ASSERT_EQUAL(g.spdcid, f.spdcid);
			CU_ASSERT_EQUAL(g.ack_req, f.ack_req);
			CU_ASSERT_EQUAL(g.uet_retx, tmpl);
			CU_ASSERT_EQUAL(g.payload_bytes, 1000);
			CU_ASSERT_EQUAL(g.reth_len, f.reth_len);
			CU_ASSERT_EQUAL(g.ev, 0xC777);
			CU_ASSERT_EQUAL(g.imm_data, hd ? 0xCAFEF00D : 0);
			CU_ASSERT_EQUAL(g.msg_offset, som || hd ? 0 : 8192);
			rte_pktmbuf_free(m);
		}
}

/* ACK, ACK_CC (SACK) and NACK: types, lengths (a 64-byte minimum frame
 * for the short ones), CACK_PSN and the signed ACK_PSN_OFFSET, the SACK
 * base and bitmap, the M and RETX flags, and their parse. */
static void test_uet_control(void)
{
	struct pkt_roce f = tu_frame(PKT_OP_ACK, 0), g;
	struct rte_mbuf *m;
	const uint8_t *pds;

	/* A plain ACK of PSN 99 (CACK 99) sent by the arrival of PSN 97: a
	 * duplicate, so the offset is -2. */
	f.psn = 99;
	f.aeth_syndrome = PKT_AETH_ACK_UNLIMITED;
	f.uet_acked_psn = 97;
	f.becn = true;
	m = tu_build(&f);
	pds = pkt_data(m) + TU_PDS;
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 64);
	CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_ACK);
	CU_ASSERT_EQUAL(pds[0] >> 3, 7);
	CU_ASSERT_EQUAL(pds[1] & 0x20, 0x20);
	CU_ASSERT_EQUAL(tu_get16(pds + 2), 0xFFFE);
	CU_ASSERT_EQUAL(tu_get32(pds + 4), 99);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT_EQUAL(g.opcode, PKT_OP_ACK);
	CU_ASSERT_EQUAL(g.aeth_syndrome, PKT_AETH_ACK_UNLIMITED);
	CU_ASSERT_EQUAL(g.psn, 99);
	CU_ASSERT_EQUAL(g.uet_acked_psn, 97);
	CU_ASSERT(g.becn);
	rte_pktmbuf_free(m);

	/* A SACK: expected PSN 0 (CACK 0xFFFFFF, none yet), PSNs 2 and 5
	 * held: ACK_CC, offset 1, bits 2 and 5 from its base 0. */
	f = tu_frame(PKT_OP_ACK, 0);
	f.psn = 0;
	f.aeth_syndrome = PKT_AETH_NAK_PSN_SEQ;
	f.aeth_msn = 0;
	f.sack_bits = (1u << 2) | (1u << 5);
	f.uet_acked_psn = 5;
	f.uet_retx = 1;
	m = tu_build(&f);
	pds = pkt_data(m) + TU_PDS;
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, TU_HDRS + 32 + 4);
	CU_ASSERT_EQUAL(pds[0] >> 3, 8);
	CU_ASSERT_EQUAL(pds[1] & 0x10, 0x10);
	CU_ASSERT_EQUAL(tu_get32(pds + 4), 0xFFFFFF);
	CU_ASSERT_EQUAL(tu_get16(pds + 2), 6);      /* 5 - (-1) */
	CU_ASSERT_EQUAL(tu_get16(pds + 14), 1);     /* base = CACK + 1 */
	CU_ASSERT_EQUAL(tu_get32(pds + 16), 0);
	CU_ASSERT_EQUAL(tu_get32(pds + 20), 0x24);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT_EQUAL(g.aeth_syndrome, PKT_AETH_NAK_PSN_SEQ);
	CU_ASSERT_EQUAL(g.psn, 0);
	CU_ASSERT_EQUAL(g.aeth_msn, 0);
	CU_ASSERT_EQUAL(g.sack_bits, 0x24);
	CU_ASSERT_EQUAL(g.uet_acked_psn, 5);
	CU_ASSERT(g.uet_retx);
	rte_pktmbuf_free(m);

	/* A NACK of a trimmed PSN 1234. */
	f = tu_frame(PKT_OP_ACK, 0);
	f.psn = 1234;
	f.aeth_syndrome = PKT_UET_SYND_TRIMMED;
	m = tu_build(&f);
	pds = pkt_data(m) + TU_PDS;
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 64);
	CU_ASSERT_EQUAL(pds[0] >> 3, 10);
	CU_ASSERT_EQUAL(pds[2], 0x01);
	CU_ASSERT_EQUAL(tu_get32(pds + 4), 1234);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT_EQUAL(g.aeth_syndrome, PKT_UET_SYND_TRIMMED);
	CU_ASSERT_EQUAL(g.psn, 1234);
	rte_pktmbuf_free(m);

	/* ... trimmed on the last hop: code UET_TRIMMED_LASTHOP (0x02), with M. */
	f = tu_frame(PKT_OP_ACK, 0);
	f.psn = 4321;
	f.aeth_syndrome = PKT_UET_SYND_TRIMMED_LAST;
	f.becn = true;
	m = tu_build(&f);
	pds = pkt_data(m) + TU_PDS;
	CU_ASSERT_EQUAL(pds[0] >> 3, 10);
	CU_ASSERT_EQUAL(pds[2], 0x02);
	CU_ASSERT_EQUAL(tu_get32(pds + 4), 4321);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT_EQUAL(g.aeth_syndrome, PKT_UET_SYND_TRIMMED_LAST);
	CU_ASSERT_EQUAL(g.psn, 4321);
	CU_ASSERT(g.becn);
	rte_pktmbuf_free(m);

	/* ROD: a request of type 3; a NACK of a packet out of order, code 0x0D. */
	f = tu_frame(PKT_OP_WRITE_ONLY, 100);
	f.uet_rod = 1;
	m = tu_build(&f);
	CU_ASSERT_EQUAL(pkt_data(m)[TU_PDS] >> 3, 3);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT(g.uet_rod);
	CU_ASSERT_EQUAL(g.opcode, PKT_OP_WRITE_ONLY);
	rte_pktmbuf_free(m);
	f = tu_frame(PKT_OP_ACK, 0);
	f.psn = 77;
	f.aeth_syndrome = PKT_UET_SYND_ROD_OOO;
	m = tu_build(&f);
	pds = pkt_data(m) + TU_PDS;
	CU_ASSERT_EQUAL(pds[0] >> 3, 10);
	CU_ASSERT_EQUAL(pds[2], 0x0D);
	CU_ASSERT_EQUAL(tu_get32(pds + 4), 77);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT_EQUAL(g.aeth_syndrome, PKT_UET_SYND_ROD_OOO);
	CU_ASSERT_EQUAL(g.psn, 77);
	rte_pktmbuf_free(m);

	/* What UET does not carry here: READs, CNPs, error NAKs. */
	m = pkt_alloc(test_mempool());
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	f = tu_frame(PKT_OP_READ_REQ, 0);
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	f = tu_frame(PKT_OP_CNP, 0);
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	f = tu_frame(PKT_OP_ACK, 0);
	f.aeth_syndrome = PKT_AETH_NAK_REM_ACCESS;
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	rte_pktmbuf_free(m);
}

/* Trimming a 4,000-byte WRITE to 64 bytes: the frame, the DSCP, the IPv4
 * and UDP lengths, a right checksum, the PDS fields; its view is a cut
 * request with the PSN and PDCs kept, and a NIC's own view stage takes
 * it. Trimming to less than the PDS header, or an ACK, is refused. */
static void test_uet_trim(void)
{
	struct pkt_roce f = tu_frame(PKT_OP_WRITE_MIDDLE, 4000);
	struct rte_mbuf *m = tu_build(&f);
	uint8_t *d = pkt_data(m);
	struct pkt_view v = { 0 }; /* the FATAL asserts return by longjmp, unseen by GCC */

	CU_ASSERT_EQUAL(pkt_uet_trim(m, 57, 50), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(pkt_uet_trim(m, 64, 50), 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 64);
	CU_ASSERT_EQUAL(pkt_meta(m)->payload_bytes, 0);
	CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), 60);
	CU_ASSERT_EQUAL(d[TU_L3 + 1] >> 2, 50);
	CU_ASSERT_EQUAL(d[TU_L3 + 1] & 3, PKT_ECN_ECT0);
	CU_ASSERT_EQUAL(tu_get16(d + TU_L3 + 2), 60 - 14);
	CU_ASSERT_EQUAL(tu_get16(d + TU_UDP + 4), 60 - 34);
	CU_ASSERT_EQUAL(tu_ip_sum(d + TU_L3), 0xFFFF);
	CU_ASSERT_EQUAL(tu_get32(d + TU_PDS + 4), 0x00ABCDEF);
	CU_ASSERT_EQUAL_FATAL(pkt_view_roce(&v, PKT_LL_UET, d, 60), 0);
	CU_ASSERT(v.ses_cut);
	CU_ASSERT_EQUAL(v.cls, 50);
	CU_ASSERT_EQUAL(v.psn, 0x00ABCDEF);
	CU_ASSERT_EQUAL(v.dest_qp, 0x1234);
	CU_ASSERT_EQUAL_FATAL(pkt_view_rest(&v, d), 0);
	CU_ASSERT_EQUAL(v.payload_bytes, 0);
	rte_pktmbuf_free(m);

	/* A trim that keeps the SES header and some payload. */
	m = tu_build(&f);
	d = pkt_data(m);
	CU_ASSERT_EQUAL_FATAL(pkt_uet_trim(m, 200, 50), 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 200);
	CU_ASSERT_EQUAL_FATAL(pkt_view_roce(&v, PKT_LL_UET, d, 196), 0);
	CU_ASSERT(!v.ses_cut);
	CU_ASSERT_EQUAL(v.opcode, PKT_OP_WRITE_MIDDLE);
	rte_pktmbuf_free(m);

	f = tu_frame(PKT_OP_ACK, 0);
	f.aeth_syndrome = PKT_AETH_ACK_UNLIMITED;
	m = tu_build(&f);
	CU_ASSERT_EQUAL(pkt_uet_trim(m, 64, 50), -EINVAL);
	rte_pktmbuf_free(m);
}

/* Receiver credit (RCCC): a request with CC state (RUD_CC_REQ: 16 PDS
 * bytes, CCC_ID and the 24-bit credit target, then the SES header), its
 * trim, and the CONTROL packets CREDIT and CREDIT_REQ (16 bytes: the
 * control type in the next-header bits, the credit in the payload). */
static void test_uet_credit(void)
{
	struct pkt_roce f = tu_frame(PKT_OP_WRITE_MIDDLE, 4000), g;
	struct pkt_view v = { 0 };
	struct rte_mbuf *m;
	const uint8_t *pds;
	uint8_t *d;

	f.uet_cc = 1;
	f.uet_credit = 0x1ABCDEF; /* 25 bits: the wire keeps 24 */
	m = tu_build(&f);
	d = pkt_data(m);
	pds = d + TU_PDS;
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, TU_HDRS + 16 + 44 + 4000 + 4);
	CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_DATA);
	CU_ASSERT_EQUAL(pds[0] >> 3, 13);
	CU_ASSERT_EQUAL((tu_get16(pds) >> 7) & 0xF, 3); /* SES standard request */
	CU_ASSERT_EQUAL(tu_get32(pds + 4), 0x00ABCDEF);
	CU_ASSERT_EQUAL(pds[12], 0x01);                  /* CCC_ID: SPDCID's low byte */
	CU_ASSERT_EQUAL(tu_get32(pds + 12) & 0xFFFFFF, 0xABCDEF);
	CU_ASSERT_EQUAL(pds[16], PKT_UET_SES_WRITE);     /* the SES header, 4 bytes on */
	CU_ASSERT_EQUAL(tu_get16(pds + 16 + 34), 4000);
	CU_ASSERT_EQUAL(tu_get32(pds + 16 + 36), 8192);
	CU_ASSERT_EQUAL_FATAL(pkt_view_roce(&v, PKT_LL_UET, d, pkt_meta(m)->frame_bytes - 4), 0);
	CU_ASSERT(v.uet_cc);
	CU_ASSERT_EQUAL(v.aeth_msn, 0xABCDEF);
	CU_ASSERT_EQUAL(v.opcode, PKT_OP_WRITE_MIDDLE);
	CU_ASSERT_EQUAL_FATAL(pkt_view_rest(&v, d), 0);
	CU_ASSERT_EQUAL(v.payload_bytes, 4000);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
	CU_ASSERT(g.uet_cc);
	CU_ASSERT_EQUAL(g.uet_credit, 0xABCDEF);
	CU_ASSERT_EQUAL(g.msg_offset, 8192);
	/* Trimmed to 64 bytes: the whole PDS header (58 with the CC state)
	 * and 2 SES bytes; the target is still read. */
	CU_ASSERT_EQUAL_FATAL(pkt_uet_trim(m, 64, 50), 0);
	CU_ASSERT_EQUAL_FATAL(pkt_view_roce(&v, PKT_LL_UET, d, 60), 0);
	CU_ASSERT(v.ses_cut);
	CU_ASSERT(v.uet_cc);
	CU_ASSERT_EQUAL(v.aeth_msn, 0xABCDEF);
	CU_ASSERT_EQUAL_FATAL(pkt_view_rest(&v, d), 0);
	CU_ASSERT_EQUAL(v.hdr_bytes, 18);
	CU_ASSERT_EQUAL(v.payload_bytes, 0);
	rte_pktmbuf_free(m);

	for (int k = 0; k < 2; k++) {
		uint8_t op = k ? PKT_UET_OP_CREDIT_REQ : PKT_UET_OP_CREDIT;

		f = tu_frame(op, 0);
		f.psn = 0;
		f.uet_credit = 0x123456;
		m = tu_build(&f);
		pds = pkt_data(m) + TU_PDS;
		CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 64); /* 58 + FCS, padded */
		CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_CTRL);
		CU_ASSERT_EQUAL(pds[0] >> 3, 11);
		CU_ASSERT_EQUAL((tu_get16(pds) >> 7) & 0xF, k ? 8 : 7);
		CU_ASSERT_EQUAL(tu_get16(pds + 2), 0);
		CU_ASSERT_EQUAL(tu_get32(pds + 4), 0);
		CU_ASSERT_EQUAL(tu_get16(pds + 8), 0x0101);
		CU_ASSERT_EQUAL(tu_get16(pds + 10), 0x1234);
		CU_ASSERT_EQUAL(tu_get32(pds + 12), 0x123456);
		CU_ASSERT_EQUAL_FATAL(pkt_parse_ll(PKT_LL_UET, m, &g), 0);
		CU_ASSERT_EQUAL(g.opcode, op);
		CU_ASSERT_EQUAL(g.uet_credit, 0x123456);
		CU_ASSERT_EQUAL(g.dest_qp, 0x1234);
		/* Another control type (NOOP, 0) is not one the NIC knows. */
		d = pkt_data(m);
		d[TU_PDS] = (uint8_t)(11 << 3);
		d[TU_PDS + 1] = 0;
		CU_ASSERT_EQUAL(pkt_view_roce(&v, PKT_LL_UET, d, 60), -EINVAL);
		rte_pktmbuf_free(m);
	}
}

int test_pkt_uet_register(void)
{
	static const struct test_case tests[] = {
		{ "requests: SES opcodes and flags, PDS fields, lengths", test_uet_requests },
		{ "ACK, ACK_CC and NACK; what is refused", test_uet_control },
		{ "trimming: lengths, DSCP, checksum, the cut view", test_uet_trim },
		{ "receiver credit: RUD_CC_REQ, CREDIT, CREDIT_REQ", test_uet_credit },
	};

	for (unsigned i = 0; i < sizeof(tu_payload); i++)
		tu_payload[i] = (uint8_t)(i * 7 + 3);
	return test_suite_n("pkt_uet", NULL, NULL, tests, sizeof(tests) / sizeof(tests[0]));
}
