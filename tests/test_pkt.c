/* CUnit suite for core/pkt: build -> parse round trips over every opcode,
 * the template builder against the field-by-field one,
 * IPv4 checksum upkeep under ECN marking and TTL decrement, the ICRC, and
 * byte-exact reproduction of the shared scapy-made vectors in tests/data
 * (roce.pcap, aeth.pcap; see tests/data/README.md); HPCC's INT stack
 * (records appended hop by hop, parsed back, echoed); and the packet pool,
 * which makes its packets a chunk at a time as they are taken. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <rte_mbuf.h>

#include "pkt.h"
#include "pkt_telemetry.h"
#include "pkt_view.h"
#include "sim.h"
#include "test.h"

enum {
	TPKT_MAX_PAYLOAD_BYTES = 4096,
	TPKT_TOO_BIG_BYTES = 5000,      /* more than the test pool's data room */
	TPKT_VEC_SEND_BYTES = 126,      /* roce.pcap frame 1, without FCS */
	TPKT_VEC_PFC_BYTES = 60,
	TPKT_AETH_N_FRAMES = 69,        /* syndromes 0x00-0x3F and 0x60-0x64 */
	TPKT_SPLIT_OFF = 47,            /* splits the tagged chained frame inside the BTH */
	TPKT_POOL_PKTS = 100000,        /* 25.6 MB of headers-only packets: several chunks */
	TPKT_POOL_ROOM = 96,            /* the data room of a headers-only run */
};

static const uint8_t tpkt_ops[] = {
	PKT_OP_SEND_FIRST, PKT_OP_SEND_MIDDLE, PKT_OP_SEND_LAST, PKT_OP_SEND_ONLY,
	PKT_OP_WRITE_FIRST, PKT_OP_WRITE_MIDDLE, PKT_OP_WRITE_LAST, PKT_OP_WRITE_ONLY,
	PKT_OP_WRITE_LAST_IMM, PKT_OP_WRITE_ONLY_IMM, PKT_OP_READ_REQ, PKT_OP_READ_RESP_FIRST, PKT_OP_READ_RESP_MIDDLE,
	PKT_OP_READ_RESP_LAST, PKT_OP_READ_RESP_ONLY, PKT_OP_ACK, PKT_OP_CNP,
};

static const uint32_t tpkt_payload_sizes[] = { 0, 1, 67, 1024, TPKT_MAX_PAYLOAD_BYTES };

static uint8_t tpkt_payload[TPKT_TOO_BIG_BYTES];

/* Expectations written from the spec tables, independent of pkt.c's. */
static bool tpkt_has_reth(uint8_t op)
{
	return op == PKT_OP_WRITE_FIRST || op == PKT_OP_WRITE_ONLY || op == PKT_OP_WRITE_ONLY_IMM ||
	       op == PKT_OP_READ_REQ;
}

static bool tpkt_has_imm(uint8_t op)
{
	return op == PKT_OP_WRITE_LAST_IMM || op == PKT_OP_WRITE_ONLY_IMM;
}

static bool tpkt_has_aeth(uint8_t op)
{
	return op == PKT_OP_READ_RESP_FIRST || op == PKT_OP_READ_RESP_LAST ||
	       op == PKT_OP_READ_RESP_ONLY || op == PKT_OP_ACK;
}

static bool tpkt_has_payload(uint8_t op)
{
	return op != PKT_OP_READ_REQ && op != PKT_OP_ACK && op != PKT_OP_CNP;
}

static unsigned tpkt_xport_bytes(uint8_t op)
{
	return PKT_BTH_BYTES + (tpkt_has_reth(op) ? PKT_RETH_BYTES : 0) +
	       (tpkt_has_aeth(op) ? PKT_AETH_BYTES : 0) + (tpkt_has_imm(op) ? PKT_IMM_BYTES : 0) +
	       (op == PKT_OP_CNP ? PKT_CNP_PAD_BYTES : 0);
}

static uint8_t tpkt_kind(uint8_t op)
{
	switch (op) {
	case PKT_OP_ACK:
		return PKT_KIND_ACK;
	case PKT_OP_CNP:
		return PKT_KIND_CNP;
	case PKT_OP_READ_REQ:
		return PKT_KIND_CTRL;
	default:
		return PKT_KIND_DATA;
	}
}

static uint16_t tpkt_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Full IPv4 header checksum of @ip (20 bytes), ignoring the stored one. */
static uint16_t tpkt_ipv4_cksum(const uint8_t *ip)
{
	uint32_t sum = 0;
	unsigned i;

	for (i = 0; i < PKT_IPV4_BYTES; i += 2)
		if (i != 10)
			sum += tpkt_get16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

static struct rte_mbuf *tpkt_alloc(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_mempool());

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	return m;
}

/* The frame of roce.pcap's first record, as fields. */
static struct pkt_roce tpkt_vector_send(void)
{
	struct pkt_roce f = {
		.addr = {
			.dst_mac = { 0x02, 0, 0, 0, 0, 0x02 },
			.src_mac = { 0x02, 0, 0, 0, 0, 0x01 },
			.vlan = true, .vid = 100, .pcp = 3,
			.src_ip = 0x0A000001, .dst_ip = 0x0A000002,
			.dscp = 26, .ecn = PKT_ECN_ECT0, .ttl = 64, .udp_sport = 0xC000,
		},
		.opcode = PKT_OP_SEND_ONLY, .ack_req = true, .pkey = 0xFFFF,
		.dest_qp = 0x12, .psn = 100, .payload_bytes = 64,
	};
	return f;
}

static struct pkt_roce tpkt_frame(uint8_t op, bool vlan, uint32_t payload_bytes)
{
	struct pkt_roce f = tpkt_vector_send();

	f.addr.vlan = vlan;
	f.addr.vid = vlan ? 4095 : 0;
	f.addr.pcp = vlan ? 7 : 0;
	f.addr.dscp = 63;
	f.addr.ecn = PKT_ECN_ECT1;
	f.addr.ttl = 255;
	f.addr.udp_sport = 0xFEDC;
	f.opcode = op;
	f.se = true;
	f.becn = op == PKT_OP_CNP;
	f.pkey = 0x8001;
	f.dest_qp = 0xABCDEF;
	f.psn = 0xFFFFFE;
	f.reth_va = UINT64_C(0x0123456789ABCDEF);
	f.reth_rkey = 0xDEADBEEF;
	f.reth_len = 0x10000;
	f.aeth_syndrome = PKT_AETH_NAK_PSN_SEQ;
	f.aeth_msn = 0xFEDCBA;
	f.imm_data = 0xC0FFEE11;
	f.payload_bytes = payload_bytes;
	return f;
}

static void tpkt_assert_same(const struct pkt_roce *a, const struct pkt_roce *b)
{
	CU_ASSERT(memcmp(a->addr.dst_mac, b->addr.dst_mac, 6) == 0);
	CU_ASSERT(memcmp(a->addr.src_mac, b->addr.src_mac, 6) == 0);
	CU_ASSERT_EQUAL(a->addr.vlan, b->addr.vlan);
	CU_ASSERT_EQUAL(a->addr.vid, b->addr.vid);
	CU_ASSERT_EQUAL(a->addr.pcp, b->addr.pcp);
	CU_ASSERT_EQUAL(a->addr.src_ip, b->addr.src_ip);
	CU_ASSERT_EQUAL(a->addr.dst_ip, b->addr.dst_ip);
	CU_ASSERT_EQUAL(a->addr.dscp, b->addr.dscp);
	CU_ASSERT_EQUAL(a->addr.ecn, b->addr.ecn);
	CU_ASSERT_EQUAL(a->addr.ttl, b->addr.ttl);
	CU_ASSERT_EQUAL(a->addr.udp_sport, b->addr.udp_sport);
	CU_ASSERT_EQUAL(a->opcode, b->opcode);
	CU_ASSERT_EQUAL(a->se, b->se);
	CU_ASSERT_EQUAL(a->ack_req, b->ack_req);
	CU_ASSERT_EQUAL(a->becn, b->becn);
	CU_ASSERT_EQUAL(a->pkey, b->pkey);
	CU_ASSERT_EQUAL(a->dest_qp, b->dest_qp);
	CU_ASSERT_EQUAL(a->psn, b->psn);
	CU_ASSERT_EQUAL(a->reth_va, b->reth_va);
	CU_ASSERT_EQUAL(a->reth_rkey, b->reth_rkey);
	CU_ASSERT_EQUAL(a->reth_len, b->reth_len);
	CU_ASSERT_EQUAL(a->aeth_syndrome, b->aeth_syndrome);
	CU_ASSERT_EQUAL(a->aeth_msn, b->aeth_msn);
	CU_ASSERT_EQUAL(a->imm_data, b->imm_data);
	CU_ASSERT_EQUAL(a->payload_bytes, b->payload_bytes);
}

/* Build, check meta and layout, parse back, compare. */
static void tpkt_roundtrip(uint8_t op, bool vlan, uint32_t payload_bytes, bool materialise)
{
	struct pkt_roce f = tpkt_frame(op, vlan, payload_bytes), back, want = f;
	struct rte_mbuf *m = tpkt_alloc();
	uint32_t l3_off = PKT_ETH_BYTES + (vlan ? PKT_VLAN_BYTES : 0);
	uint32_t pad = -payload_bytes & 3;
	uint32_t hdr_end = l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES + tpkt_xport_bytes(op);
	uint32_t frame_bytes = hdr_end + payload_bytes + pad + PKT_ICRC_BYTES + PKT_FCS_BYTES;
	bool full = materialise || payload_bytes == 0;
	const struct pkt_meta *meta = pkt_meta(m);
	const uint8_t *p, *ip;

	if (frame_bytes < PKT_MIN_FRAME_BYTES)
		frame_bytes = PKT_MIN_FRAME_BYTES;
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, materialise ? tpkt_payload : NULL), 0);
	CU_ASSERT_EQUAL(pkt_roce_xport_hdr_bytes(op), tpkt_xport_bytes(op));
	CU_ASSERT_EQUAL(meta->frame_bytes, frame_bytes);
	CU_ASSERT_EQUAL(pkt_roce_frame_bytes(&f), frame_bytes);
	CU_ASSERT_EQUAL(meta->payload_bytes, payload_bytes);
	CU_ASSERT_EQUAL(meta->l3_off, l3_off);
	CU_ASSERT_EQUAL(meta->kind, tpkt_kind(op));
	CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), full ? frame_bytes - PKT_FCS_BYTES : hdr_end);

	p = rte_pktmbuf_mtod(m, const uint8_t *);
	ip = p + l3_off;
	CU_ASSERT_EQUAL(tpkt_get16(ip + 10), tpkt_ipv4_cksum(ip));
	CU_ASSERT_EQUAL(tpkt_get16(ip + 2), hdr_end - l3_off + payload_bytes + pad + PKT_ICRC_BYTES);
	CU_ASSERT_EQUAL(tpkt_get16(ip + 24), tpkt_get16(ip + 2) - PKT_IPV4_BYTES); /* UDP length */
	CU_ASSERT_EQUAL((p[hdr_end - tpkt_xport_bytes(op) + 1] >> 4) & 3, pad);
	CU_ASSERT_EQUAL(pkt_ipv4_dst(m), f.addr.dst_ip);
	CU_ASSERT_EQUAL(pkt_ipv4_dscp(m), f.addr.dscp);
	CU_ASSERT_EQUAL(pkt_ipv4_ecn(m), f.addr.ecn);
	if (materialise)
		CU_ASSERT(memcmp(p + hdr_end, tpkt_payload, payload_bytes) == 0);
	CU_ASSERT_EQUAL(pkt_icrc_check(m), full ? 1 : -EINVAL);

	if (!tpkt_has_reth(op)) {
		want.reth_va = 0;
		want.reth_rkey = 0;
		want.reth_len = 0;
	}
	if (!tpkt_has_aeth(op)) {
		want.aeth_syndrome = 0;
		want.aeth_msn = 0;
	}
	if (!tpkt_has_imm(op))
		want.imm_data = 0;
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(m, &back), 0);
	tpkt_assert_same(&back, &want);
	rte_pktmbuf_free(m);
}

/* Call @fn for every opcode (index @i in tpkt_ops), tagged or not, with
 * payload materialised or not, at every payload size (index @s; only 0
 * for opcodes without payload). Returns the cases run. */
static unsigned tpkt_each_case(void (*fn)(unsigned i, bool vlan, bool mat, unsigned s))
{
	unsigned n = 0;

	for (unsigned i = 0; i < RTE_DIM(tpkt_ops); i++)
		for (unsigned vlan = 0; vlan < 2; vlan++)
			for (unsigned mat = 0; mat < 2; mat++)
				for (unsigned s = 0; s < RTE_DIM(tpkt_payload_sizes); s++) {
					if (!tpkt_has_payload(tpkt_ops[i]) && s > 0)
						break;
					fn(i, vlan, mat, s);
					n++;
				}
	return n;
}

static void tpkt_roundtrip_case(unsigned i, bool vlan, bool mat, unsigned s)
{
	tpkt_roundtrip(tpkt_ops[i], vlan, tpkt_payload_sizes[s], mat);
}

static void test_pkt_roundtrip_all_opcodes(void)
{
	for (unsigned i = 0; i < sizeof(tpkt_payload); i++)
		tpkt_payload[i] = (uint8_t)(i * 7 + 1);
	tpkt_each_case(tpkt_roundtrip_case);
}

/* The template builder writes what the field-by-field builder writes,
 * byte for byte and metadata too (that builder is held to the scapy
 * vectors below), for every opcode, tagged or not, with and without
 * payload, without reading the frame's addressing; and it refuses a frame
 * whose destination QP or partition key is not its template's. */
static void tpkt_template_case(unsigned i, bool vlan, bool mat, unsigned s)
{
	uint8_t op = tpkt_ops[i];
	struct pkt_roce f = tpkt_frame(op, vlan, tpkt_payload_sizes[s]);
	const uint8_t *pay = mat ? tpkt_payload : NULL;
	struct rte_mbuf *a = tpkt_alloc(), *b = tpkt_alloc();
	struct pkt_tmpl t;

	f.ack_req = (i + s) & 1;
	f.se = !f.ack_req;
	f.psn = (uint32_t)(0x10203 * (i + 1) + s) & 0xFFFFFF;
	pkt_tmpl_init(&t, &f.addr, f.pkey, f.dest_qp);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(a, &f, pay), 0);
	memset(&f.addr, 0xA5, sizeof(f.addr));
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce_tmpl(b, &t, &f, pay), 0);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_data_len(b), rte_pktmbuf_data_len(a));
	CU_ASSERT_EQUAL(rte_pktmbuf_pkt_len(b), rte_pktmbuf_pkt_len(a));
	CU_ASSERT(memcmp(rte_pktmbuf_mtod(a, const uint8_t *), rte_pktmbuf_mtod(b, const uint8_t *),
			 rte_pktmbuf_data_len(a)) == 0);
	CU_ASSERT(pkt_meta(a)->frame_bytes == pkt_meta(b)->frame_bytes &&
		  pkt_meta(a)->payload_bytes == pkt_meta(b)->payload_bytes &&
		  pkt_meta(a)->l3_off == pkt_meta(b)->l3_off && pkt_meta(a)->kind == pkt_meta(b)->kind);
	rte_pktmbuf_free(a);
	rte_pktmbuf_free(b);
}

static void test_pkt_template(void)
{
	unsigned n;

	for (unsigned i = 0; i < sizeof(tpkt_payload); i++)
		tpkt_payload[i] = (uint8_t)(i * 13 + 5);
	n = tpkt_each_case(tpkt_template_case);
	CU_ASSERT(n > 100);
	{
		struct pkt_roce f = tpkt_frame(PKT_OP_WRITE_MIDDLE, false, 64);
		struct rte_mbuf *m = tpkt_alloc();
		struct pkt_tmpl t;

		pkt_tmpl_init(&t, &f.addr, f.pkey, f.dest_qp);
		f.dest_qp ^= 1;
		CU_ASSERT_EQUAL(pkt_build_roce_tmpl(m, &t, &f, NULL), -EINVAL);
		f.dest_qp ^= 1;
		f.pkey ^= 1;
		CU_ASSERT_EQUAL(pkt_build_roce_tmpl(m, &t, &f, NULL), -EINVAL);
		CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), 0);
		rte_pktmbuf_free(m);
	}
}

static void test_pkt_min_frame(void)
{
	struct pkt_roce f = tpkt_frame(PKT_OP_SEND_MIDDLE, false, 0);
	struct rte_mbuf *m = tpkt_alloc();
	const uint8_t *p;

	/* 14 + 20 + 8 + 12 + ICRC 4 = 58 bytes: padded to 60 + FCS. */
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, PKT_MIN_FRAME_BYTES);
	CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), PKT_MIN_FRAME_BYTES - PKT_FCS_BYTES);
	p = rte_pktmbuf_mtod(m, const uint8_t *);
	CU_ASSERT_EQUAL(tpkt_get16(p + 16), 58 - PKT_ETH_BYTES);
	CU_ASSERT(p[58] == 0 && p[59] == 0);
	CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
	rte_pktmbuf_free(m);
}

static void test_pkt_build_errors(void)
{
	struct pkt_roce f = tpkt_frame(PKT_OP_SEND_ONLY, true, TPKT_TOO_BIG_BYTES);
	struct rte_mbuf *m = tpkt_alloc();

	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, tpkt_payload), -ENOSPC);
	CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), 0);
	/* Not materialised, the same frame fits: only headers are stored. */
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, pkt_roce_frame_bytes(&f));
	rte_pktmbuf_reset(m);
	f.payload_bytes = 70000; /* beyond the IPv4 total length */
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	/* A legal IPv4 datagram whose frame (tag, FCS) passes 65,535 bytes:
	 * more than the metadata's frame length holds. */
	f.payload_bytes = 65472;
	CU_ASSERT(pkt_roce_frame_bytes(&f) > UINT16_MAX);
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	f.payload_bytes = 65400;
	CU_ASSERT(pkt_roce_frame_bytes(&f) <= UINT16_MAX);
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, pkt_roce_frame_bytes(&f));
	rte_pktmbuf_reset(m);
	f = tpkt_frame(0x1F, false, 0); /* reserved opcode */
	CU_ASSERT_EQUAL(pkt_roce_xport_hdr_bytes(0x1F), 0);
	CU_ASSERT_EQUAL(pkt_build_roce(m, &f, NULL), -EINVAL);
	CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), 0);
	rte_pktmbuf_free(m);
}

/* Build a 1024-byte WRITE_ONLY (untagged), then either overwrite the 16-bit
 * word at @off with @value or, with @trim_to non-zero, cut it to that many
 * bytes; it must no longer parse. */
static void tpkt_expect_parse_fail(unsigned off, uint16_t value, uint16_t trim_to)
{
	struct pkt_roce f = tpkt_frame(PKT_OP_WRITE_ONLY, false, 1024), back;
	struct rte_mbuf *m = tpkt_alloc();
	uint8_t enable;
	uint16_t quanta[PKT_N_PRIO];

	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
	if (trim_to != 0)
		rte_pktmbuf_trim(m, rte_pktmbuf_data_len(m) - trim_to);
	else {
		rte_pktmbuf_mtod(m, uint8_t *)[off] = (uint8_t)(value >> 8);
		rte_pktmbuf_mtod(m, uint8_t *)[off + 1] = (uint8_t)value;
	}
	CU_ASSERT_EQUAL(pkt_parse_roce(m, &back), -EINVAL);
	CU_ASSERT_EQUAL(pkt_parse_pfc(m, &enable, quanta), -EINVAL);
	rte_pktmbuf_free(m);
}

static void test_pkt_parse_rejects(void)
{
	tpkt_expect_parse_fail(12, 0x86DD, 0);         /* EtherType IPv6 */
	tpkt_expect_parse_fail(14, 0x6500, 0);         /* IP version 6 */
	tpkt_expect_parse_fail(14, 0x4400, 0);         /* IHL 4 */
	tpkt_expect_parse_fail(22, 0x4006, 0);         /* TCP */
	tpkt_expect_parse_fail(20, 0x2000, 0);         /* more fragments */
	tpkt_expect_parse_fail(20, 0x0001, 0);         /* fragment offset 1 */
	tpkt_expect_parse_fail(16, 0x0030, 0);         /* total length < headers */
	tpkt_expect_parse_fail(36, 0x12B8, 0);         /* UDP dst port 4792 */
	tpkt_expect_parse_fail(42, 0x1F00, 0);         /* reserved opcode */
	tpkt_expect_parse_fail(0, 0, 13);              /* cut in Ethernet */
	tpkt_expect_parse_fail(0, 0, 40);              /* cut in UDP */
	tpkt_expect_parse_fail(0, 0, 60);              /* cut in RETH */
}

static void test_pkt_ipv4_rewrites(void)
{
	struct pkt_roce f = tpkt_frame(PKT_OP_ACK, true, 0);
	struct rte_mbuf *m = tpkt_alloc();
	const uint8_t *ip;
	unsigned dscp, ecn, ttl;

	for (dscp = 0; dscp < 64; dscp++)
		for (ecn = PKT_ECN_ECT1; ecn <= PKT_ECN_ECT0; ecn++) {
			f = tpkt_frame(PKT_OP_SEND_ONLY, dscp & 1, 64);
			f.addr.dscp = (uint8_t)dscp;
			f.addr.ecn = (uint8_t)ecn;
			f.addr.ttl = (uint8_t)(dscp * 4 + ecn);
			f.addr.src_ip = 0x0A000000 + dscp * 257;
			rte_pktmbuf_reset(m);
			CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, tpkt_payload), 0);
			ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, pkt_meta(m)->l3_off);
			pkt_ipv4_set_ce(m);
			CU_ASSERT_EQUAL(pkt_ipv4_ecn(m), PKT_ECN_CE);
			CU_ASSERT_EQUAL(pkt_ipv4_dscp(m), dscp);
			CU_ASSERT_EQUAL(tpkt_get16(ip + 10), tpkt_ipv4_cksum(ip));
			/* TOS and TTL are masked out of the ICRC. */
			CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
		}

	f.addr.ttl = 255;
	f.addr.ecn = PKT_ECN_CE;
	rte_pktmbuf_reset(m);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, tpkt_payload), 0);
	ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, pkt_meta(m)->l3_off);
	for (ttl = 255; ttl > 0; ttl--) {
		CU_ASSERT_EQUAL(pkt_ipv4_dec_ttl(m), ttl - 1);
		CU_ASSERT_EQUAL(ip[8], ttl - 1);
		CU_ASSERT_EQUAL(tpkt_get16(ip + 10), tpkt_ipv4_cksum(ip));
	}
	CU_ASSERT_EQUAL(pkt_ipv4_dec_ttl(m), 0);
	CU_ASSERT_EQUAL(tpkt_get16(ip + 10), tpkt_ipv4_cksum(ip));
	CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
	/* Every checksum value class: 65536 source addresses, one hop each,
	 * against the full recomputation. */
	for (uint32_t a = 0; a < 65536; a++) {
		uint8_t *w;

		f.addr.ttl = (uint8_t)(2 + a % 250);
		f.addr.src_ip = 0x0A000000 + a * 977;
		rte_pktmbuf_reset(m);
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
		w = rte_pktmbuf_mtod_offset(m, uint8_t *, pkt_meta(m)->l3_off);
		if (pkt_ipv4_hdr_dec_ttl(w) != f.addr.ttl - 1 ||
		    tpkt_get16(w + 10) != tpkt_ipv4_cksum(w)) {
			CU_FAIL("TTL decrement broke the IPv4 checksum");
			break;
		}
	}
	rte_pktmbuf_free(m);
}

/* Next record of @pc in a fresh mbuf, with pkt_meta's l3_off and frame_bytes
 * set as a receiving NIC would; NULL at the end of the file. */
static struct rte_mbuf *tpkt_load(pcap_t *pc)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	struct rte_mbuf *m;
	uint8_t *p;

	if (pcap_next_ex(pc, &h, &data) != 1)
		return NULL;
	m = tpkt_alloc();
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)h->caplen);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(p, data, h->caplen);
	pkt_meta(m)->frame_bytes = h->len + PKT_FCS_BYTES;
	pkt_meta(m)->l3_off = tpkt_get16(p + 12) == PKT_ETHERTYPE_VLAN ?
			      PKT_ETH_BYTES + PKT_VLAN_BYTES : PKT_ETH_BYTES;
	return m;
}

static pcap_t *tpkt_open(const char *file)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc = pcap_open_offline(test_data_path(file), errbuf);

	if (pc == NULL)
		fprintf(stderr, "%s: %s\n", test_data_path(file), errbuf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
	return pc;
}

static void test_pkt_vectors_roce(void)
{
	pcap_t *pc = tpkt_open("roce.pcap");
	struct rte_mbuf *v[7], *m;
	struct pkt_roce f, want = tpkt_vector_send();
	const uint8_t *p, *q;
	uint8_t enable;
	uint16_t quanta[PKT_N_PRIO];
	static const uint16_t pfc_quanta[PKT_N_PRIO] = { [3] = 0xFFFF };
	static const uint8_t pfc_src[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	unsigned i, n_diff;

	for (i = 0; i < RTE_DIM(v); i++) {
		v[i] = tpkt_load(pc);
		CU_ASSERT_PTR_NOT_NULL_FATAL(v[i]);
	}
	pcap_close(pc);

	/* Frame 1: ICRC recomputed equals the wire bytes 9e 47 6a 39. */
	p = rte_pktmbuf_mtod(v[0], const uint8_t *);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_data_len(v[0]), TPKT_VEC_SEND_BYTES);
	CU_ASSERT_EQUAL(pkt_icrc(p + 18, TPKT_VEC_SEND_BYTES - 18 - PKT_ICRC_BYTES), 0x396A479E);
	CU_ASSERT_EQUAL(pkt_icrc_check(v[0]), 1);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(v[0], &f), 0);
	tpkt_assert_same(&f, &want);
	/* ... and the builder reproduces it byte for byte (IP id 1 + DF, as
	 * scapy wrote it, so the IP checksum and the ICRC match too). */
	m = tpkt_alloc();
	memset(tpkt_payload, 0x11, want.payload_bytes);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &want, tpkt_payload), 0);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_data_len(m), TPKT_VEC_SEND_BYTES);
	CU_ASSERT(memcmp(rte_pktmbuf_mtod(m, const uint8_t *), p, TPKT_VEC_SEND_BYTES) == 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, TPKT_VEC_SEND_BYTES + PKT_FCS_BYTES);
	rte_pktmbuf_free(m);
	/* So does the template builder. */
	{
		struct pkt_tmpl t;

		pkt_tmpl_init(&t, &want.addr, want.pkey, want.dest_qp);
		m = tpkt_alloc();
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce_tmpl(m, &t, &want, tpkt_payload), 0);
		CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_data_len(m), TPKT_VEC_SEND_BYTES);
		CU_ASSERT(memcmp(rte_pktmbuf_mtod(m, const uint8_t *), p, TPKT_VEC_SEND_BYTES) == 0);
		rte_pktmbuf_free(m);
	}

	/* Frame 2: WRITE_FIRST with RETH and 1024 B of payload. */
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(v[1], &f), 0);
	CU_ASSERT_EQUAL(f.opcode, PKT_OP_WRITE_FIRST);
	CU_ASSERT_EQUAL(f.reth_va, UINT64_C(0x7f0000001000));
	CU_ASSERT_EQUAL(f.reth_rkey, 0xABCD);
	CU_ASSERT_EQUAL(f.reth_len, 8192);
	CU_ASSERT_EQUAL(f.payload_bytes, 1024);
	CU_ASSERT_EQUAL(pkt_icrc_check(v[1]), 1);
	/* Frames 3-5: ACK (0x1f, MSN 5), NAK PSN sequence error, RNR NAK 14. */
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(v[2], &f), 0);
	CU_ASSERT(f.opcode == PKT_OP_ACK && f.aeth_syndrome == PKT_AETH_ACK_UNLIMITED &&
		  f.aeth_msn == 5 && f.dest_qp == 0x34 && f.payload_bytes == 0);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(v[3], &f), 0);
	CU_ASSERT_EQUAL(f.aeth_syndrome, PKT_AETH_NAK_PSN_SEQ);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(v[4], &f), 0);
	CU_ASSERT_EQUAL(f.aeth_syndrome, 0x20 | 14);
	for (i = 1; i < 5; i++)
		CU_ASSERT_EQUAL(pkt_icrc_check(v[i]), 1);

	/* Frame 6: CNP with BECN, DSCP 48 ECT(1), to QP 0x12. */
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(v[5], &f), 0);
	CU_ASSERT(f.opcode == PKT_OP_CNP && f.becn && f.dest_qp == 0x12 && f.psn == 0 &&
		  !f.ack_req && f.addr.dscp == 48 && f.addr.ecn == PKT_ECN_ECT1 &&
		  f.payload_bytes == 0 && !f.addr.vlan);
	CU_ASSERT_EQUAL(pkt_icrc_check(v[5]), 1);
	/* Rebuilt, it differs only in the DF flag scapy left clear, hence the IP
	 * checksum and the ICRC (which covers the flags). */
	m = tpkt_alloc();
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_data_len(m), rte_pktmbuf_data_len(v[5]));
	CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_CNP);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, 78);
	p = rte_pktmbuf_mtod(v[5], const uint8_t *);
	q = rte_pktmbuf_mtod(m, const uint8_t *);
	for (i = 0, n_diff = 0; i + PKT_ICRC_BYTES < rte_pktmbuf_data_len(m); i++)
		if (p[i] != q[i] && i != 20 && i != 24 && i != 25)
			n_diff++;
	CU_ASSERT_EQUAL(n_diff, 0);
	CU_ASSERT_EQUAL(q[20], 0x40);
	CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
	rte_pktmbuf_free(m);

	/* Frame 7: PFC, priority 3 paused for 0xffff quanta. */
	CU_ASSERT_EQUAL(pkt_parse_roce(v[6], &f), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_pfc(v[6], &enable, quanta), 0);
	CU_ASSERT_EQUAL(enable, 0x08);
	CU_ASSERT(memcmp(quanta, pfc_quanta, sizeof(quanta)) == 0);
	m = tpkt_alloc();
	CU_ASSERT_EQUAL_FATAL(pkt_build_pfc(m, pfc_src, enable, quanta), 0);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_data_len(m), TPKT_VEC_PFC_BYTES);
	CU_ASSERT(memcmp(rte_pktmbuf_mtod(m, const uint8_t *),
			 rte_pktmbuf_mtod(v[6], const uint8_t *), TPKT_VEC_PFC_BYTES) == 0);
	CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, PKT_MIN_FRAME_BYTES);
	CU_ASSERT_EQUAL(pkt_meta(m)->kind, PKT_KIND_PFC);
	rte_pktmbuf_free(m);

	for (i = 0; i < RTE_DIM(v); i++)
		rte_pktmbuf_free(v[i]);
}

static void test_pkt_vectors_aeth(void)
{
	pcap_t *pc = tpkt_open("aeth.pcap");
	bool seen[128] = { false };
	struct rte_mbuf *m;
	struct pkt_roce f;
	unsigned n = 0, s;

	while ((m = tpkt_load(pc)) != NULL) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		n++;
		CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(m, &f), 0);
		CU_ASSERT_EQUAL(f.opcode, PKT_OP_ACK);
		CU_ASSERT_EQUAL(f.aeth_syndrome, p[PKT_ETH_BYTES + PKT_IPV4_BYTES + PKT_UDP_BYTES +
						  PKT_BTH_BYTES]);
		CU_ASSERT_EQUAL(f.aeth_msn, 1);
		CU_ASSERT_EQUAL(f.payload_bytes, 0);
		CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
		if (f.aeth_syndrome < RTE_DIM(seen))
			seen[f.aeth_syndrome] = true;
		rte_pktmbuf_free(m);
	}
	pcap_close(pc);
	CU_ASSERT_EQUAL(n, TPKT_AETH_N_FRAMES);
	for (s = 0; s < RTE_DIM(seen); s++)
		CU_ASSERT_EQUAL(seen[s], s < 0x40 || (s >= 0x60 && s <= 0x64));
}

/* The staged view of the frame in @m (contiguous) against what
 * pkt_parse_roce reads of it: every field both have, stage by stage. */
static void tpkt_view_vs_parse(struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m);
	struct pkt_view v, w;
	struct pkt_roce f;
	uint8_t exts;

	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(m, &f), 0);
	memset(&v, 0xA5, sizeof(v));
	CU_ASSERT_EQUAL_FATAL(pkt_view_l3(&v, PKT_LL_ROCE, d, len), 0);
	CU_ASSERT_EQUAL(v.ll, PKT_LL_ROCE);
	CU_ASSERT_EQUAL(v.l3_off, f.addr.vlan ? 18 : 14);
	CU_ASSERT_EQUAL(v.cls, f.addr.dscp);
	CU_ASSERT_EQUAL(v.cong, f.addr.ecn);
	CU_ASSERT_EQUAL(pkt_view_ce(&v), f.addr.ecn == PKT_ECN_CE);
	CU_ASSERT_EQUAL(v.dst, f.addr.dst_ip);
	w = v;
	CU_ASSERT_EQUAL_FATAL(pkt_view_flow(&v, d, len), 0);
	CU_ASSERT_EQUAL(v.src, f.addr.src_ip);
	CU_ASSERT_EQUAL(v.proto, 17);
	CU_ASSERT_EQUAL(v.sport, f.addr.udp_sport);
	CU_ASSERT_EQUAL(v.dport, PKT_ROCE_UDP_PORT);
	CU_ASSERT_EQUAL(v.l4_off, v.l3_off + 20);
	/* The NIC's path skips the flow stage. */
	CU_ASSERT_EQUAL_FATAL(pkt_view_bth(&w, d, len), 0);
	CU_ASSERT_EQUAL_FATAL(pkt_view_bth(&v, d, len), 0);
	exts = pkt_layouts[f.opcode].exts;
	CU_ASSERT_EQUAL(v.bth_off, v.l3_off + 28);
	CU_ASSERT(w.l4_off == v.l4_off && w.bth_off == v.bth_off && w.opcode == v.opcode &&
		  w.ack_req == v.ack_req && w.dest_qp == v.dest_qp && w.psn == v.psn);
	CU_ASSERT_EQUAL(v.opcode, f.opcode);
	CU_ASSERT_EQUAL(v.ack_req, f.ack_req);
	CU_ASSERT_EQUAL(v.dest_qp, f.dest_qp);
	CU_ASSERT_EQUAL(v.psn, f.psn);
	CU_ASSERT_EQUAL(exts & PKT_EXT_AETH, tpkt_has_aeth(f.opcode) ? PKT_EXT_AETH : 0);
	CU_ASSERT_EQUAL(exts & PKT_EXT_RETH, tpkt_has_reth(f.opcode) ? PKT_EXT_RETH : 0);
	if (exts & PKT_EXT_AETH)
		CU_ASSERT(v.aeth_syndrome == f.aeth_syndrome && v.aeth_msn == f.aeth_msn &&
			  w.aeth_syndrome == f.aeth_syndrome && w.aeth_msn == f.aeth_msn);
	if (exts & PKT_EXT_RETH)
		CU_ASSERT(v.reth_va == f.reth_va && v.reth_rkey == f.reth_rkey &&
			  v.reth_len == f.reth_len && w.reth_len == f.reth_len);
	CU_ASSERT_EQUAL(exts & PKT_EXT_IMM, tpkt_has_imm(f.opcode) ? PKT_EXT_IMM : 0);
	if (exts & PKT_EXT_IMM)
		CU_ASSERT(v.imm_data == f.imm_data && w.imm_data == f.imm_data);
	CU_ASSERT_EQUAL_FATAL(pkt_view_rest(&v, d), 0);
	CU_ASSERT_EQUAL(v.se, f.se);
	CU_ASSERT_EQUAL(v.becn, f.becn);
	CU_ASSERT_EQUAL(v.pkey, f.pkey);
	CU_ASSERT_EQUAL(v.payload_bytes, f.payload_bytes);
	CU_ASSERT_EQUAL(v.hdr_bytes, tpkt_xport_bytes(f.opcode));
	CU_ASSERT_EQUAL(v.pad_bytes, -f.payload_bytes & 3);
	CU_ASSERT_EQUAL(v.l3_off + v.net_bytes, (uint32_t)v.bth_off + v.hdr_bytes + f.payload_bytes +
							v.pad_bytes + PKT_ICRC_BYTES);
	/* All stages at once read the same. */
	CU_ASSERT_EQUAL_FATAL(pkt_view_all(&w, PKT_LL_ROCE, d, len), 0);
	CU_ASSERT(w.payload_bytes == v.payload_bytes && w.src == v.src && w.pkey == v.pkey);
}

static void tpkt_view_case(unsigned i, bool vlan, bool mat, unsigned s)
{
	struct pkt_roce f = tpkt_frame(tpkt_ops[i], vlan, tpkt_payload_sizes[s]);
	struct rte_mbuf *m = tpkt_alloc();

	f.ack_req = (i + s) & 1;
	f.se = !f.ack_req;
	f.addr.ecn = (uint8_t)((i + s + vlan) & 3);
	f.addr.dscp = (uint8_t)(i * 5 + s);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, mat ? tpkt_payload : NULL), 0);
	tpkt_view_vs_parse(m);
	rte_pktmbuf_free(m);
}

/* The staged view reads what pkt_parse_roce reads: built frames of every
 * opcode, tagged or not, with and without payload, and the scapy vectors
 * of tests/data (every RoCEv2 frame of both files; the others, a PFC
 * frame among them, are refused by both). */
static void test_pkt_view(void)
{
	static const char *const files[] = { "roce.pcap", "aeth.pcap" };
	unsigned n_roce = 0, n_other = 0;

	CU_ASSERT(tpkt_each_case(tpkt_view_case) > 0);
	for (unsigned k = 0; k < RTE_DIM(files); k++) {
		pcap_t *pc = tpkt_open(files[k]);
		struct rte_mbuf *m;

		while ((m = tpkt_load(pc)) != NULL) {
			const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
			struct pkt_roce f;
			struct pkt_view v;

			if (pkt_parse_roce(m, &f) == 0) {
				tpkt_view_vs_parse(m);
				n_roce++;
			} else {
				CU_ASSERT(pkt_view_all(&v, PKT_LL_ROCE, d, rte_pktmbuf_data_len(m)) != 0);
				n_other++;
			}
			rte_pktmbuf_free(m);
		}
		pcap_close(pc);
	}
	CU_ASSERT_EQUAL(n_roce, 6 + TPKT_AETH_N_FRAMES);
	CU_ASSERT_EQUAL(n_other, 1);
}

/* The view refuses what is not RoCEv2 at the stage that sees it, and the
 * bound: a frame whose headers do not fit in the length given. */
static void test_pkt_view_rejects(void)
{
	struct pkt_roce f = tpkt_frame(PKT_OP_WRITE_FIRST, true, 0);
	struct rte_mbuf *m = tpkt_alloc();
	uint8_t *d;
	uint32_t len, bth_end = 18 + 20 + 8 + 12;
	struct pkt_view v;

	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	len = rte_pktmbuf_data_len(m);
	CU_ASSERT_EQUAL(pkt_view_roce(&v, PKT_LL_ROCE, d, len), 0);
	CU_ASSERT_EQUAL(pkt_view_roce(&v, PKT_LL_N, d, len), -EINVAL);
	/* The bounds: the IPv4 header, the BTH, the RETH. */
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_ROCE, d, 18 + 19), -EINVAL);
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_ROCE, d, 18 + 20), 0);
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, bth_end - 1), -EINVAL);
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, bth_end + PKT_RETH_BYTES - 1), -EINVAL);
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, bth_end + PKT_RETH_BYTES), 0);
	CU_ASSERT_EQUAL(pkt_view_flow(&v, d, 18 + 20 + 7), -EINVAL);
	/* Not UDP 4791: a hop forwards it, a NIC does not take it. */
	d[18 + 20 + 3]++;
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_ROCE, d, len), 0);
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, len), -EINVAL);
	d[18 + 20 + 3]--;
	d[18 + 9] = 6; /* TCP */
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, len), -EINVAL);
	d[18 + 9] = 17;
	d[bth_end - 12] = 0x70; /* no such opcode */
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, len), -EINVAL);
	d[bth_end - 12] = PKT_OP_WRITE_FIRST;
	d[18 + 6] = 0x20; /* more fragments */
	CU_ASSERT_EQUAL(pkt_view_bth(&v, d, len), 0);
	CU_ASSERT_EQUAL(pkt_view_rest(&v, d), -EINVAL);
	d[18 + 6] = 0x40;
	CU_ASSERT_EQUAL(pkt_view_rest(&v, d), 0);
	/* Not IPv4. */
	d[16] = 0x86;
	d[17] = 0xDD;
	CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_ROCE, d, len), -EINVAL);
	rte_pktmbuf_free(m);
}

/* The one opcode mapping against the IBTA values (Vol 1 table 38) for every
 * (transfer, first, last). */
/* Record @k (1-based) of the INT tests: values near each field's limit. */
static struct pkt_int_hop tpkt_int_hop(unsigned k)
{
	struct pkt_int_hop h = {
		.ts_ps = (UINT64_C(1) << PKT_INT_TS_BITS) - 1000 + k, /* 40 bits */
		.tx_bytes = UINT32_MAX - 7 + k,                       /* 32 bits */
		.qlen_bytes = UINT32_MAX - 100 * k,
		.rate_bps = UINT64_C(53125000000) * k,                /* whole Mb/s */
	};
	return h;
}

/* Append 1..5 records to a built frame: after each, the view finds them
 * all as written, the parse gives the frame's fields and payload as built,
 * the lengths (IPv4 with a valid checksum, UDP, frame with its Ethernet
 * pad, mbuf) count the stack, a whole frame keeps its payload and a valid
 * ICRC; a sixth is refused and changes nothing. An ACK echoing the stack
 * carries it the same way. */
static void tpkt_int_case(unsigned i, bool vlan, bool mat, unsigned s)
{
	uint8_t op = tpkt_ops[i];
	struct pkt_roce f = tpkt_frame(op, vlan, tpkt_payload_sizes[s]), back, want;
	struct rte_mbuf *m = tpkt_alloc(), *ack;
	uint32_t l3 = vlan ? 18 : 14, hdr_end = l3 + 20 + 8 + tpkt_xport_bytes(op);
	uint32_t ip0 = 20 + 8 + tpkt_xport_bytes(op) + f.payload_bytes + (-f.payload_bytes & 3) + 4;
	bool whole = mat || f.payload_bytes == 0;
	uint8_t snap[8192], *d;
	uint16_t snap_len;
	struct pkt_view v;

	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, mat ? tpkt_payload : NULL), 0);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(m, &want), 0);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	for (unsigned k = 1; k <= PKT_INT_MAX_HOPS; k++) {
		struct pkt_int_hop h = tpkt_int_hop(k);
		uint32_t ip = ip0 + PKT_INT_HDR_BYTES + k * PKT_INT_HOP_BYTES;
		uint32_t frame = RTE_MAX(l3 + ip, 60u) + 4;

		CU_ASSERT_EQUAL_FATAL(pkt_int_append(m, &h), 0);
		CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, frame);
		CU_ASSERT_EQUAL(tpkt_get16(d + l3 + 2), ip);
		CU_ASSERT_EQUAL(tpkt_get16(d + l3 + 10), tpkt_ipv4_cksum(d + l3));
		CU_ASSERT_EQUAL(tpkt_get16(d + l3 + 20 + 4), ip - 20);
		CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m),
				whole ? frame - 4 : hdr_end + PKT_INT_HDR_BYTES + k * PKT_INT_HOP_BYTES);
		CU_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), rte_pktmbuf_data_len(m));
		CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_ROCE, d, rte_pktmbuf_data_len(m)), 0);
		CU_ASSERT_EQUAL(v.int_off, hdr_end);
		CU_ASSERT_EQUAL_FATAL(v.int_hops, k);
		CU_ASSERT(v.int_fmt == PKT_INT_FMT_FULL && v.int_multi == 0 &&
			  d[hdr_end + 2] == 0 && d[hdr_end + 3] == 0); /* format 0, as ever */
		for (unsigned j = 0; j < k; j++) {
			struct pkt_int_hop w = tpkt_int_hop(j + 1), r;

			pkt_view_int_hop(&v, d, j, &r);
			CU_ASSERT(r.ts_ps == w.ts_ps && r.tx_bytes == w.tx_bytes &&
				  r.qlen_bytes == w.qlen_bytes && r.rate_bps == w.rate_bps);
		}
		CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(m, &back), 0);
		tpkt_assert_same(&want, &back);
		if (whole) {
			CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
			CU_ASSERT(memcmp(d + hdr_end + PKT_INT_HDR_BYTES + k * PKT_INT_HOP_BYTES,
					 tpkt_payload, mat ? f.payload_bytes : 0) == 0);
		}
	}
	snap_len = rte_pktmbuf_data_len(m);
	memcpy(snap, d, snap_len);
	{
		struct pkt_int_hop h = tpkt_int_hop(6);
		uint16_t frame = pkt_meta(m)->frame_bytes;

		CU_ASSERT_EQUAL(pkt_int_append(m, &h), -E2BIG);
		CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, frame);
		CU_ASSERT_EQUAL(rte_pktmbuf_data_len(m), snap_len);
		CU_ASSERT(memcmp(d, snap, snap_len) == 0);
	}

	/* The ACK of it echoes the stack. */
	ack = tpkt_alloc();
	back = tpkt_frame(PKT_OP_ACK, vlan, 0);
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(ack, &back, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(pkt_int_echo(ack, d + hdr_end), 0);
	CU_ASSERT_EQUAL(pkt_int_echo(ack, d + hdr_end), -EINVAL); /* one stack only */
	CU_ASSERT_EQUAL(pkt_meta(ack)->frame_bytes,
			l3 + 20 + 8 + 16 + PKT_INT_MAX_BYTES + 4 + 4);
	CU_ASSERT_EQUAL(pkt_icrc_check(ack), 1);
	{
		uint8_t *a = rte_pktmbuf_mtod(ack, uint8_t *);

		CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_ROCE, a, rte_pktmbuf_data_len(ack)), 0);
		CU_ASSERT_EQUAL(v.payload_bytes, 0);
		CU_ASSERT_EQUAL(v.int_hops, PKT_INT_MAX_HOPS);
		CU_ASSERT(memcmp(a + v.int_off, d + hdr_end, PKT_INT_MAX_BYTES) == 0);
	}
	rte_pktmbuf_free(ack);
	rte_pktmbuf_free(m);
}

static void test_pkt_int(void)
{
	struct pkt_int_hop h = tpkt_int_hop(1), r;
	uint8_t rec[PKT_INT_HOP_BYTES];

	for (unsigned i = 0; i < sizeof(tpkt_payload); i++)
		tpkt_payload[i] = (uint8_t)(i * 7 + 1);
	tpkt_each_case(tpkt_int_case);
	/* The encoding: big-endian rate Mb/s (24 bits), ts (40), tx (32), qlen (32). */
	pkt_int_hop_write(rec, &h);
	CU_ASSERT(rec[0] == 0x00 && rec[1] == 0xCF && rec[2] == 0x85); /* 53125 Mb/s */
	CU_ASSERT(rec[3] == 0xFF && rec[6] == 0xFC && rec[7] == 0x19);  /* 2^40 - 999 */
	CU_ASSERT(rec[8] == 0xFF && rec[11] == 0xF9);                    /* 2^32 - 7 */
	CU_ASSERT(rec[12] == 0xFF && rec[15] == 0x9B);                   /* 2^32 - 1 - 100 */
	pkt_int_hop_read(rec, &r);
	CU_ASSERT_EQUAL(r.rate_bps, h.rate_bps);
	/* Differences across the fields' wrap. */
	CU_ASSERT_EQUAL(pkt_int_ts_delta_ps(5, (UINT64_C(1) << PKT_INT_TS_BITS) - 3), 8);
	CU_ASSERT_EQUAL(pkt_int_tx_delta_bytes(10, UINT32_MAX), 11);
}

/* Compact records (fabric.int_record: compact), the HPCC authors'
 * simulator's: the word's layout and rounding (ts 1,234,567 ps -> 1,234
 * ns; a 100,000-byte queue at m = 4 -> 312 units of 320 B = 99,840 B),
 * the rate codes, deltas across the 2^24 ns and 2^20-unit wraps; a frame
 * grows by 12 then 8 bytes a hop, 5 hops are 44 bytes, the header names
 * the format, the view decodes each hop, the payload and ICRC stay whole,
 * a full record is refused on a compact stack, an ACK echoes it as is;
 * the view refuses a format it does not know. */
static void test_pkt_int_compact(void)
{
	const struct pkt_int_enc enc = { PKT_INT_FMT_COMPACT, 4 };
	struct pkt_int_hop h = {
		.ts_ps = 1234567,
		.tx_bytes = 5 * 512 + 511, /* 5 units of 128 x 4, and change */
		.qlen_bytes = 100000,
		.rate_bps = UINT64_C(100000000000),
	}, r, a, b;
	uint8_t rec[PKT_INT_C_HOP_BYTES];
	uint64_t w = 0;

	pkt_int_hop_write_compact(rec, &h, 4);
	for (int i = 0; i < 8; i++)
		w = w << 8 | rec[i];
	CU_ASSERT_EQUAL(w >> 47, 312);                    /* qlen, 80 x 4 B */
	CU_ASSERT_EQUAL(w >> 27 & ((1u << 20) - 1), 5);   /* tx, 128 x 4 B */
	CU_ASSERT_EQUAL(w >> 3 & ((1u << 24) - 1), 1234); /* ns */
	CU_ASSERT_EQUAL(w & 7, 2);                        /* 100 Gb/s */
	pkt_int_hop_read_compact(rec, 4, &r);
	CU_ASSERT_EQUAL(r.ts_ps, 1234000);
	CU_ASSERT_EQUAL(r.qlen_bytes, 99840);
	CU_ASSERT_EQUAL(r.tx_bytes, 5 * 512);
	CU_ASSERT_EQUAL(r.rate_bps, h.rate_bps);
	CU_ASSERT_EQUAL(r.ts_wrap_ps, (UINT64_C(1) << 24) * 1000);
	CU_ASSERT_EQUAL(r.tx_wrap_bytes, (UINT64_C(1) << 20) * 512);
	/* The simulator's codes; any other rate is 7 and reads as 0. */
	for (uint8_t c = 0; c < 5; c++)
		CU_ASSERT_EQUAL(pkt_int_c_rate_code(UINT64_C(25000000000) << c), c);
	CU_ASSERT_EQUAL(pkt_int_c_rate_code(UINT64_C(40000000000)), PKT_INT_C_RATE_NONE);
	h.rate_bps = UINT64_C(800000000000);
	h.qlen_bytes = UINT32_MAX; /* saturates at 2^17 - 1 units */
	pkt_int_hop_write_compact(rec, &h, 4);
	pkt_int_hop_read_compact(rec, 4, &r);
	CU_ASSERT_EQUAL(r.rate_bps, 0);
	CU_ASSERT_EQUAL(r.qlen_bytes, ((1u << 17) - 1) * 320);
	/* Deltas across the wraps: 2^24 - 2 ns -> 2^24 + 3 ns is 5 ns; 2^20 - 1
	 * units -> 2^20 + 2 units is 3 units. */
	h.ts_ps = ((UINT64_C(1) << 24) - 2) * 1000 + 999;
	h.tx_bytes = ((UINT64_C(1) << 20) - 1) * 512;
	pkt_int_hop_write_compact(rec, &h, 4);
	pkt_int_hop_read_compact(rec, 4, &a);
	h.ts_ps = ((UINT64_C(1) << 24) + 3) * 1000;
	h.tx_bytes = ((UINT64_C(1) << 20) + 2) * 512 + 100;
	pkt_int_hop_write_compact(rec, &h, 4);
	pkt_int_hop_read_compact(rec, 4, &b);
	CU_ASSERT_EQUAL(b.ts_ps, 3000);
	CU_ASSERT_EQUAL(pkt_int_hop_ts_delta_ps(&b, &a), 5000);
	CU_ASSERT_EQUAL(pkt_int_hop_tx_delta_bytes(&b, &a), 3 * 512);
	CU_ASSERT_EQUAL(pkt_int_hop_ts_delta_ps(&a, &a), 0);

	for (unsigned mat = 0; mat < 2; mat++) {
		struct pkt_roce f = tpkt_frame(PKT_OP_WRITE_MIDDLE, false, 1024), back;
		struct rte_mbuf *m = tpkt_alloc(), *ack;
		uint32_t hdr_end = 14 + 20 + 8 + tpkt_xport_bytes(PKT_OP_WRITE_MIDDLE);
		uint16_t frame0;
		struct pkt_view v;
		uint8_t *d, *k;

		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, mat ? tpkt_payload : NULL), 0);
		d = rte_pktmbuf_mtod(m, uint8_t *);
		frame0 = pkt_meta(m)->frame_bytes;
		for (unsigned i = 1; i <= PKT_INT_MAX_HOPS; i++) {
			h = (struct pkt_int_hop){ .ts_ps = i * UINT64_C(1000000), .tx_bytes = i * 5120,
						  .qlen_bytes = i * 3200,
						  .rate_bps = UINT64_C(25000000000) << (i - 1) };
			CU_ASSERT_EQUAL_FATAL(pkt_int_append_enc(m, enc, &h), 0);
			CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, frame0 + 4 + 8 * i); /* +12, then +8 */
		}
		CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, frame0 + 44);
		CU_ASSERT_EQUAL(pkt_int_append_enc(m, enc, &h), -E2BIG);
		CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_ROCE, d, rte_pktmbuf_data_len(m)), 0);
		CU_ASSERT_EQUAL(v.int_off, hdr_end);
		CU_ASSERT_EQUAL(v.int_hops, 5);
		CU_ASSERT_EQUAL(v.int_fmt, PKT_INT_FMT_COMPACT);
		CU_ASSERT_EQUAL(v.int_multi, 4);
		CU_ASSERT_EQUAL(pkt_view_int_bytes(&v), 44);
		CU_ASSERT_EQUAL(v.payload_bytes, 1024);
		CU_ASSERT(d[hdr_end] == 0 && d[hdr_end + 1] == 5 && d[hdr_end + 2] == 1 &&
			  d[hdr_end + 3] == 4); /* hops, format, m */
		for (unsigned i = 0; i < 5; i++) {
			pkt_view_int_hop(&v, d, i, &r);
			CU_ASSERT(r.ts_ps == (i + 1) * UINT64_C(1000000) && r.tx_bytes == (i + 1) * 5120 &&
				  r.qlen_bytes == (i + 1) * 3200 &&
				  r.rate_bps == UINT64_C(25000000000) << i);
		}
		if (mat) {
			CU_ASSERT_EQUAL(pkt_view_payload_off(&v, d), hdr_end + 44);
			CU_ASSERT(memcmp(d + hdr_end + 44, tpkt_payload, 1024) == 0);
			CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
		}
		/* One format per stack. */
		CU_ASSERT_EQUAL(pkt_int_append(m, &h), -EINVAL);
		/* The ACK echoes the 44 bytes as they are. */
		ack = tpkt_alloc();
		back = tpkt_frame(PKT_OP_ACK, false, 0);
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(ack, &back, NULL), 0);
		frame0 = pkt_meta(ack)->frame_bytes;
		CU_ASSERT_EQUAL_FATAL(pkt_int_echo(ack, d + hdr_end), 0);
		CU_ASSERT_EQUAL(pkt_meta(ack)->frame_bytes, frame0 + 44);
		CU_ASSERT_EQUAL(pkt_icrc_check(ack), 1);
		k = rte_pktmbuf_mtod(ack, uint8_t *);
		CU_ASSERT_EQUAL_FATAL(pkt_view_all(&v, PKT_LL_ROCE, k, rte_pktmbuf_data_len(ack)), 0);
		CU_ASSERT(v.int_hops == 5 && v.int_fmt == PKT_INT_FMT_COMPACT && v.payload_bytes == 0);
		CU_ASSERT(memcmp(k + v.int_off, d + hdr_end, 44) == 0);
		/* Formats the view does not know: 2; full with an m; compact without. */
		{
			static const uint8_t bad[][2] = { { 2, 0 }, { 2, 4 }, { 0, 4 }, { 1, 0 }, { 255, 255 } };

			for (unsigned j = 0; j < RTE_DIM(bad); j++) {
				k[v.int_off + 2] = bad[j][0];
				k[v.int_off + 3] = bad[j][1];
				CU_ASSERT_EQUAL(pkt_view_int(&v, k, rte_pktmbuf_data_len(ack)), -EINVAL);
				d[hdr_end + 2] = bad[j][0];
				d[hdr_end + 3] = bad[j][1];
				CU_ASSERT_EQUAL(pkt_int_append_enc(m, enc, &h), -EINVAL);
			}
			d[hdr_end + 2] = 1;
			d[hdr_end + 3] = 0;
			rte_pktmbuf_free(ack);
			ack = tpkt_alloc();
			CU_ASSERT_EQUAL_FATAL(pkt_build_roce(ack, &back, NULL), 0);
			CU_ASSERT_EQUAL(pkt_int_echo(ack, d + hdr_end), -EINVAL);
		}
		/* An invalid encoding is refused before anything changes. */
		CU_ASSERT_EQUAL(pkt_int_append_enc(ack, (struct pkt_int_enc){ PKT_INT_FMT_COMPACT, 0 }, &h),
				-EINVAL);
		CU_ASSERT_EQUAL(pkt_int_append_enc(ack, (struct pkt_int_enc){ PKT_INT_FMT_FULL, 4 }, &h),
				-EINVAL);
		CU_ASSERT_EQUAL(pkt_meta(ack)->frame_bytes, frame0);
		rte_pktmbuf_free(ack);
		rte_pktmbuf_free(m);
	}
}

static void test_pkt_opcode_table(void)
{
	/* first+last ("only"), first, middle, last */
	static const uint8_t want[PKT_XFER_N][4] = {
		[PKT_XFER_SEND] = { 0x04, 0x00, 0x01, 0x02 },
		[PKT_XFER_WRITE] = { 0x0A, 0x06, 0x07, 0x08 },
		[PKT_XFER_READ_RESP] = { 0x10, 0x0D, 0x0E, 0x0F },
		[PKT_XFER_WRITE_IMM] = { 0x0B, 0x06, 0x07, 0x09 },
	};

	for (unsigned x = 0; x < PKT_XFER_N; x++) {
		CU_ASSERT_EQUAL(pkt_opcode((enum pkt_xfer)x, true, true), want[x][0]);
		CU_ASSERT_EQUAL(pkt_opcode((enum pkt_xfer)x, true, false), want[x][1]);
		CU_ASSERT_EQUAL(pkt_opcode((enum pkt_xfer)x, false, false), want[x][2]);
		CU_ASSERT_EQUAL(pkt_opcode((enum pkt_xfer)x, false, true), want[x][3]);
	}
}

/* WRITE with immediate at the byte offsets docs/wire-formats.md gives
 * (untagged: BTH at 42, RETH at 54): Last with Immediate (0x09) has ImmDt
 * at 54..57 and payload from 58, Only with Immediate (0x0B) RETH at 54..69,
 * ImmDt at 70..73 and payload from 74; ImmDt goes big-endian, as the BTH
 * fields; the 4 bytes are in the IPv4 length and the frame length (IBTA
 * Vol 1 9.3.3's header order: BTH, RETH, ImmDt). */
static void test_pkt_write_imm_layout(void)
{
	static const struct { uint8_t op; unsigned imm_off, payload_off; } c[] = {
		{ PKT_OP_WRITE_LAST_IMM, 54, 58 },
		{ PKT_OP_WRITE_ONLY_IMM, 70, 74 },
	};

	for (unsigned i = 0; i < RTE_DIM(c); i++) {
		struct pkt_roce f = tpkt_frame(c[i].op, false, 100), plain = f;
		struct rte_mbuf *m = tpkt_alloc();
		const uint8_t *p;

		f.imm_data = 0x01020304;
		plain.opcode = c[i].op == PKT_OP_WRITE_LAST_IMM ? PKT_OP_WRITE_LAST : PKT_OP_WRITE_ONLY;
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, tpkt_payload), 0);
		p = rte_pktmbuf_mtod(m, const uint8_t *);
		CU_ASSERT_EQUAL(p[42], c[i].op);
		CU_ASSERT(p[c[i].imm_off] == 1 && p[c[i].imm_off + 1] == 2 && p[c[i].imm_off + 2] == 3 &&
			  p[c[i].imm_off + 3] == 4);
		CU_ASSERT(memcmp(p + c[i].payload_off, tpkt_payload, 100) == 0);
		CU_ASSERT_EQUAL(tpkt_get16(p + 16), c[i].payload_off - 14 + 100 + 0 + 4);
		CU_ASSERT_EQUAL(pkt_meta(m)->frame_bytes, pkt_roce_frame_bytes(&plain) + PKT_IMM_BYTES);
		CU_ASSERT_EQUAL(pkt_icrc_check(m), 1);
		if (c[i].op == PKT_OP_WRITE_ONLY_IMM)
			CU_ASSERT_EQUAL(tpkt_get16(p + 54 + 12), f.reth_len >> 16);
		rte_pktmbuf_free(m);
	}
}

/* A frame split over two segments (inside the BTH) parses and its
 * ICRC checks, as parse and check read through rte_pktmbuf_read. */
static void test_pkt_chained(void)
{
	struct pkt_roce f = tpkt_frame(PKT_OP_WRITE_FIRST, true, 1001), back;
	struct rte_mbuf *whole = tpkt_alloc(), *head = tpkt_alloc(), *tail = tpkt_alloc();
	const uint8_t *p;
	uint16_t len;

	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(whole, &f, tpkt_payload), 0);
	p = rte_pktmbuf_mtod(whole, const uint8_t *);
	len = rte_pktmbuf_data_len(whole);
	memcpy(rte_pktmbuf_append(head, TPKT_SPLIT_OFF), p, TPKT_SPLIT_OFF);
	memcpy(rte_pktmbuf_append(tail, len - TPKT_SPLIT_OFF), p + TPKT_SPLIT_OFF,
	       len - TPKT_SPLIT_OFF);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_chain(head, tail), 0);
	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(head, &back), 0);
	CU_ASSERT_EQUAL(back.payload_bytes, 1001);
	CU_ASSERT_EQUAL(back.reth_va, f.reth_va);
	CU_ASSERT_EQUAL(back.psn, f.psn);
	CU_ASSERT_EQUAL(pkt_icrc_check(head), 1);
	/* One flipped payload bit in the second segment is caught. */
	rte_pktmbuf_mtod_offset(tail, uint8_t *, 500)[0] ^= 0x10;
	CU_ASSERT_EQUAL(pkt_icrc_check(head), 0);
	rte_pktmbuf_free(head);
	rte_pktmbuf_free(whole);
}

/* Resident memory of this process, bytes (/proc/self/statm). */
static long tpkt_rss_bytes(void)
{
	long pages = -1, rss = -1;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = -1;
	fclose(f);
	return rss < 0 ? -1 : rss * sysconf(_SC_PAGESIZE);
}

/* The pool makes packets as they are taken: creating it makes only the
 * first chunk (memory well under the pool's size), taking every packet
 * makes all of them (each a proper pool mbuf, line-aligned, frame right
 * after the metadata), one more is refused, and all come back. */
static void test_pkt_pool_grows(void)
{
	char err[CFG_ERR_BYTES];
	long rss0 = tpkt_rss_bytes(), rss1, rss2;
	struct rte_mempool *mp = sim_pool_create("grow", TPKT_POOL_PKTS, TPKT_POOL_ROOM, err);
	struct rte_mbuf **taken = calloc(TPKT_POOL_PKTS, sizeof(*taken));
	const size_t full_bytes = (size_t)TPKT_POOL_PKTS * 256;
	struct sim s;
	uint32_t n = 0;
	bool layout_ok = true;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(taken);
	rss1 = tpkt_rss_bytes();
	CU_ASSERT(mp->populated_size > 0 && mp->populated_size < TPKT_POOL_PKTS / 4);
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, mp), 0);
	for (; n < TPKT_POOL_PKTS; n++) {
		struct rte_mbuf *m = taken[n] = sim_pkt_alloc(&s, false);

		if (!m)
			break;
		if (m->pool != mp || ((uintptr_t)m & 63) != 0 ||
		    rte_pktmbuf_mtod(m, uint8_t *) != pkt_data(m) ||
		    (uint8_t *)pkt_meta(m) != (uint8_t *)m + sizeof(struct rte_mbuf) ||
		    m->buf_len < TPKT_POOL_ROOM || m->nb_segs != 1 || m->next != NULL)
			layout_ok = false;
	}
	CU_ASSERT_EQUAL(n, TPKT_POOL_PKTS);
	CU_ASSERT(layout_ok);
	CU_ASSERT_EQUAL(mp->populated_size, TPKT_POOL_PKTS);
	CU_ASSERT_PTR_NULL(sim_pkt_alloc(&s, false)); /* the pool is whole and all taken */
	CU_ASSERT_EQUAL(s.pkts_peak, TPKT_POOL_PKTS);
	rss2 = tpkt_rss_bytes();
	if (rss0 > 0 && rss1 > 0 && rss2 > 0) {
		/* Creating reserved the range but touched about one chunk (4 MiB,
		 * in 2 MiB pages); taking everything touched the rest. */
		CU_ASSERT(rss1 - rss0 < (long)(full_bytes / 2));
		CU_ASSERT(rss2 - rss1 > (long)(full_bytes / 2));
	}
	for (uint32_t i = 0; i < n; i++)
		sim_pkt_free(&s, taken[i]);
	CU_ASSERT_EQUAL(s.pkts_in_use, 0);
	CU_ASSERT_EQUAL(rte_mempool_avail_count(mp), TPKT_POOL_PKTS);
	sim_fini(&s);
	free(taken);
	rte_mempool_free(mp);
}

int test_pkt_register(void)
{
	CU_pSuite s = CU_add_suite("pkt", NULL, NULL);

	if (s == NULL ||
	    !CU_add_test(s, "roundtrip every opcode", test_pkt_roundtrip_all_opcodes) ||
	    !CU_add_test(s, "template builder = field-by-field builder", test_pkt_template) ||
	    !CU_add_test(s, "minimum frame", test_pkt_min_frame) ||
	    !CU_add_test(s, "build errors", test_pkt_build_errors) ||
	    !CU_add_test(s, "parse rejects", test_pkt_parse_rejects) ||
	    !CU_add_test(s, "ipv4 set_ce / dec_ttl", test_pkt_ipv4_rewrites) ||
	    !CU_add_test(s, "vectors roce.pcap", test_pkt_vectors_roce) ||
	    !CU_add_test(s, "vectors aeth.pcap", test_pkt_vectors_aeth) ||
	    !CU_add_test(s, "chained mbuf", test_pkt_chained) ||
	    !CU_add_test(s, "view = parse, every opcode and the vectors", test_pkt_view) ||
	    !CU_add_test(s, "view rejects", test_pkt_view_rejects) ||
	    !CU_add_test(s, "opcode table = IBTA", test_pkt_opcode_table) ||
	    !CU_add_test(s, "WRITE with immediate: ImmDt offsets", test_pkt_write_imm_layout) ||
	    !CU_add_test(s, "INT stack: append 1..5 hops, parse, echo", test_pkt_int) ||
	    !CU_add_test(s, "INT stack: compact records (the HPCC simulator's)",
			 test_pkt_int_compact) ||
	    !CU_add_test(s, "packet pool grows as packets are taken", test_pkt_pool_grows))
		return CU_get_error();
	return 0;
}
