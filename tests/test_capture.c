/* CUnit suite for core/capture: frames written with virtual-time stamps are
 * read back by libpcap with exact nanoseconds, honest caplen/len for frames
 * whose payload is not materialised, and (when tshark is installed) decode
 * without a single malformed packet; a pcapng of two interfaces (RoCE,
 * IB as LINKTYPE_USER0) parsed here block by block against the spec. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>
#include <rte_mbuf.h>

#include "capture.h"
#include "pkt.h"
#include "pkt_ll.h"
#include "test.h"

enum {
	TCAP_N_FRAMES = 8,
	TCAP_SNAPLEN = 64,
	TCAP_MAX_LINE = 256,
	TCAP_SPLIT_OFF = 50, /* where the chained sample frame is cut */
};

#define TCAP_PS_PER_S UINT64_C(1000000000000)

/* One sample frame: what to build and when to stamp it. */
struct tcap_sample {
	uint8_t opcode;         /* BTH opcode, or 0xFF for a PFC frame */
	uint32_t payload_bytes; /* RDMA payload */
	int materialise;        /* 1: payload bytes present in the mbuf */
	int chained;            /* 1: split over two mbuf segments */
	uint64_t t_ps;          /* virtual time of the record */
};

static const struct tcap_sample tcap_samples[TCAP_N_FRAMES] = {
	{ PKT_OP_SEND_ONLY, 64, 1, 0, UINT64_C(1234567891234) },  /* 1 s 234567891 ns */
	{ PKT_OP_WRITE_FIRST, 1024, 0, 0, UINT64_C(3999999999999000) },
	{ PKT_OP_WRITE_MIDDLE, 1024, 0, 0, UINT64_C(4000000000000000) },
	{ PKT_OP_WRITE_LAST, 1000, 1, 1, UINT64_C(4000000000001999) },
	{ PKT_OP_ACK, 0, 0, 0, UINT64_C(4000000005120000) },
	{ PKT_OP_CNP, 0, 0, 0, UINT64_C(4000000005120001) },
	{ PKT_OP_READ_REQ, 0, 0, 0, UINT64_C(4000000010240000) },
	{ 0xFF, 0, 0, 0, UINT64_C(4000000015360000) },
};

static uint8_t tcap_payload[4096];

static struct rte_mbuf *tcap_alloc(void)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_mempool());

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	return m;
}

/* Move all but the first TCAP_SPLIT_OFF bytes of @m into a second segment. */
static void tcap_split(struct rte_mbuf *m)
{
	struct rte_mbuf *tail = tcap_alloc();
	uint16_t rest = rte_pktmbuf_data_len(m) - TCAP_SPLIT_OFF;
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(tail, rest);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	memcpy(p, rte_pktmbuf_mtod_offset(m, uint8_t *, TCAP_SPLIT_OFF), rest);
	rte_pktmbuf_trim(m, rest);
	CU_ASSERT_EQUAL_FATAL(rte_pktmbuf_chain(m, tail), 0);
}

static struct rte_mbuf *tcap_build(const struct tcap_sample *s)
{
	static const uint16_t quanta[PKT_N_PRIO] = { [3] = 0xFFFF, [6] = 100 };
	struct pkt_roce f = {
		.addr = {
			.dst_mac = { 0x02, 0, 0, 0, 0, 0x02 },
			.src_mac = { 0x02, 0, 0, 0, 0, 0x01 },
			.vlan = s->opcode != PKT_OP_CNP, .vid = 100, .pcp = 3,
			.src_ip = 0x0A000001, .dst_ip = 0x0A000002,
			.dscp = 26, .ecn = PKT_ECN_ECT0, .ttl = 64, .udp_sport = 0xC012,
		},
		.opcode = s->opcode, .ack_req = s->opcode == PKT_OP_WRITE_LAST,
		.becn = s->opcode == PKT_OP_CNP, .pkey = 0xFFFF, .dest_qp = 0x12,
		.psn = 100, .reth_va = 0x7F0000001000, .reth_rkey = 0xABCD, .reth_len = 3048,
		.aeth_syndrome = PKT_AETH_ACK_UNLIMITED, .aeth_msn = 1,
		.payload_bytes = s->payload_bytes,
	};
	struct rte_mbuf *m = tcap_alloc();

	if (s->opcode == 0xFF) {
		CU_ASSERT_EQUAL_FATAL(pkt_build_pfc(m, f.addr.src_mac, 0x48, quanta), 0);
	} else {
		CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, s->materialise ? tcap_payload : NULL), 0);
	}
	if (s->chained)
		tcap_split(m);
	return m;
}

/* Write the samples to a fresh temporary pcap; its path goes to @path. */
static void tcap_write_samples(char path[64], uint32_t snaplen, struct rte_mbuf *ms[TCAP_N_FRAMES])
{
	char err[CFG_ERR_BYTES] = "";
	struct cap_file *c;
	unsigned i;
	int fd;

	snprintf(path, 64, "/tmp/fabemu-cap-XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(cap_open(path, snaplen, &pkt_ll_roce, &c, err), 0);
	for (i = 0; i < TCAP_N_FRAMES; i++) {
		ms[i] = tcap_build(&tcap_samples[i]);
		cap_write(c, tcap_samples[i].t_ps, ms[i], pkt_meta(ms[i])->frame_bytes);
	}
	CU_ASSERT_EQUAL(cap_frames(c), TCAP_N_FRAMES);
	CU_ASSERT_EQUAL(cap_error(c), 0);
	CU_ASSERT_EQUAL(cap_close(c), 0);
}

static void tcap_check_file(const char *path, uint32_t snaplen, struct rte_mbuf *ms[TCAP_N_FRAMES])
{
	char errbuf[PCAP_ERRBUF_SIZE];
	uint8_t buf[4352];
	pcap_t *pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
	CU_ASSERT_EQUAL(pcap_datalink(pc), DLT_EN10MB);
	CU_ASSERT_EQUAL(pcap_snapshot(pc), (int)snaplen);
	CU_ASSERT_EQUAL(pcap_get_tstamp_precision(pc), PCAP_TSTAMP_PRECISION_NANO);
	for (i = 0; i < TCAP_N_FRAMES; i++) {
		uint64_t t_ps = tcap_samples[i].t_ps;
		uint32_t have = rte_pktmbuf_pkt_len(ms[i]);
		uint32_t caplen = have < snaplen ? have : snaplen;

		CU_ASSERT_EQUAL_FATAL(pcap_next_ex(pc, &h, &data), 1);
		CU_ASSERT_EQUAL((uint64_t)h->ts.tv_sec, t_ps / TCAP_PS_PER_S);
		CU_ASSERT_EQUAL((uint64_t)h->ts.tv_usec, t_ps % TCAP_PS_PER_S / 1000);
		CU_ASSERT_EQUAL(h->caplen, caplen);
		CU_ASSERT_EQUAL(h->len, pkt_meta(ms[i])->frame_bytes - PKT_FCS_BYTES);
		CU_ASSERT(memcmp(data, rte_pktmbuf_read(ms[i], 0, caplen, buf), caplen) == 0);
		/* Only frames with payload left out are short of their length. */
		CU_ASSERT_EQUAL(h->caplen < h->len, snaplen < h->len || (!tcap_samples[i].materialise &&
									 tcap_samples[i].payload_bytes != 0));
	}
	CU_ASSERT_EQUAL(pcap_next_ex(pc, &h, &data), PCAP_ERROR_BREAK);
	pcap_close(pc);
}

static void tcap_free(struct rte_mbuf *ms[TCAP_N_FRAMES])
{
	unsigned i;

	for (i = 0; i < TCAP_N_FRAMES; i++)
		rte_pktmbuf_free(ms[i]);
}

static void test_capture_roundtrip(void)
{
	struct rte_mbuf *ms[TCAP_N_FRAMES];
	char path[64];

	tcap_write_samples(path, 0, ms);
	tcap_check_file(path, 65535, ms);
	tcap_free(ms);
	unlink(path);
}

static void test_capture_snaplen(void)
{
	struct rte_mbuf *ms[TCAP_N_FRAMES];
	char path[64];

	tcap_write_samples(path, TCAP_SNAPLEN, ms);
	tcap_check_file(path, TCAP_SNAPLEN, ms);
	tcap_free(ms);
	unlink(path);
}

/* The capture takes its link type and trailer from the port's link-layer
 * descriptor: one with LINKTYPE_USER0 (147) that leaves a 2-byte trailer
 * out of captures writes that link type and lengths 2 bytes short of the
 * frame. */
static void test_capture_link_type(void)
{
	struct pkt_ll ll = pkt_ll_roce;
	char err[CFG_ERR_BYTES] = "", errbuf[PCAP_ERRBUF_SIZE], path[64];
	struct rte_mbuf *m = tcap_build(&tcap_samples[0]);
	struct pcap_pkthdr *h;
	const u_char *data;
	struct cap_file *c;
	pcap_t *pc;
	int fd;

	ll.pcap_linktype = 147;
	ll.cap_trailer_bytes = 2;
	snprintf(path, sizeof(path), "/tmp/fabemu-cap-XXXXXX");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(cap_open(path, 0, &ll, &c, err), 0);
	cap_write(c, 0, m, pkt_meta(m)->frame_bytes);
	cap_close(c);
	pc = pcap_open_offline(path, errbuf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pc);
	CU_ASSERT_EQUAL(pcap_datalink(pc), 147);
	CU_ASSERT_EQUAL_FATAL(pcap_next_ex(pc, &h, &data), 1);
	CU_ASSERT_EQUAL(h->len, pkt_meta(m)->frame_bytes - 2u);
	pcap_close(pc);
	unlink(path);
	rte_pktmbuf_free(m);
}

static void test_capture_open_error(void)
{
	char err[CFG_ERR_BYTES] = "";
	struct cap_file *c = (struct cap_file *)&c;

	CU_ASSERT(cap_open("/nonexistent-dir/x.pcap", 0, &pkt_ll_roce, &c, err) < 0);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent-dir/x.pcap"));
	cap_close(NULL);
}

/* A write that fails (here /dev/full: every write is ENOSPC, as on a full
 * disk) is an error of cap_write's file, reported by cap_error once the
 * stream's buffer was written out and by cap_close in any case. */
static void test_capture_write_error(void)
{
	char err[CFG_ERR_BYTES] = "";
	struct rte_mbuf *m;
	struct cap_file *c;
	uint32_t i;

	if (access("/dev/full", W_OK) != 0) {
		printf("\n  SKIP: no /dev/full\n");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(cap_open("/dev/full", 0, &pkt_ll_roce, &c, err), 0);
	m = tcap_build(&tcap_samples[0]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	/* Enough frames to pass the stream's buffer (4 KiB or more). */
	for (i = 0; i < 4096 && cap_error(c) == 0; i++)
		cap_write(c, i, m, pkt_meta(m)->frame_bytes);
	CU_ASSERT_EQUAL(cap_error(c), -ENOSPC);
	CU_ASSERT_EQUAL(cap_close(c), -ENOSPC);
	/* Nothing written past the buffer: cap_close alone reports it. */
	CU_ASSERT_EQUAL_FATAL(cap_open("/dev/full", 0, &pkt_ll_roce, &c, err), 0);
	cap_write(c, 0, m, pkt_meta(m)->frame_bytes);
	CU_ASSERT_EQUAL(cap_close(c), -ENOSPC);
	rte_pktmbuf_free(m);
}

/* tshark (when installed) must decode every sample: BTH opcodes in order,
 * no _ws.malformed and no expert error. tshark 4.0 labels a frame whose
 * payload is cut off "Invalid Packet Length from LRH! [Malformed Packet]"
 * in the Info column only: no malformed item, no expert error, BTH decoded.
 * That is what an honest header-only capture looks like, so it passes. */
static void test_capture_tshark(void)
{
	static const char *const want_ops[TCAP_N_FRAMES] = {
		"4", "6", "7", "8", "17", "129", "12", "",
	};
	struct rte_mbuf *ms[TCAP_N_FRAMES];
	char path[64], cmd[TCAP_MAX_LINE], line[TCAP_MAX_LINE];
	unsigned n = 0;
	FILE *out;

	if (system("command -v tshark >/dev/null 2>&1") != 0) {
		printf("\n  SKIP: tshark not on PATH, pcap decode check not run\n");
		return;
	}
	tcap_write_samples(path, 0, ms);
	snprintf(cmd, sizeof(cmd),
		 "tshark -r %s -T fields -E separator=/t -E occurrence=a -e infiniband.bth.opcode "
		 "-e _ws.malformed -e _ws.expert.severity -e macc.opcode 2>/dev/null", path);
	out = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	while (n < TCAP_N_FRAMES && fgets(line, sizeof(line), out) != NULL) {
		char *rest = line;
		const char *opcode = strsep(&rest, "\t\n");
		const char *malformed = rest != NULL ? strsep(&rest, "\t\n") : "";
		const char *severity = rest != NULL ? strsep(&rest, "\t\n") : "";
		const char *macc = rest != NULL ? strsep(&rest, "\t\n") : "";

		CU_ASSERT_STRING_EQUAL(opcode, want_ops[n]);
		CU_ASSERT_STRING_EQUAL(malformed, "");
		CU_ASSERT_PTR_NULL(strstr(severity, "8388608")); /* PI_ERROR */
		CU_ASSERT_STRING_EQUAL(macc, n == TCAP_N_FRAMES - 1 ? "0x0101" : "");
		n++;
	}
	CU_ASSERT_EQUAL(pclose(out), 0);
	CU_ASSERT_EQUAL(n, TCAP_N_FRAMES);
	tcap_free(ms);
	unlink(path);
}

/* pcapng, read back byte by byte against the specification
 * (draft-ietf-opsawg-pcapng), not through the writer's code: a Section
 * Header Block, an Interface Description Block per interface (link type,
 * snaplen, if_name, if_tsresol), then an Enhanced Packet Block per frame
 * (interface id, timestamp in the declared resolution, captured and
 * original lengths, data padded to 32 bits), each block's total length
 * repeated at its end. Two interfaces: RoCE (LINKTYPE_ETHERNET) and
 * native IB as LINKTYPE_USER0 (147). */
enum { TNG_N_ROCE = 3, TNG_N_IB = 2, TNG_IB_SNAPLEN = 40 };

static uint32_t tng_u32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t tng_u16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

struct tng_if {
	uint16_t linktype;
	uint32_t snaplen;
	char name[64];
	int tsresol;            /* -1 when absent */
};

/* One IDB's body (after type and length) into @f; 0 or -1. */
static int tng_idb(const uint8_t *b, uint32_t len, struct tng_if *f)
{
	uint32_t off = 8;

	f->linktype = tng_u16(b);
	CU_ASSERT_EQUAL(tng_u16(b + 2), 0); /* reserved */
	f->snaplen = tng_u32(b + 4);
	f->name[0] = '\0';
	f->tsresol = -1;
	while (off + 4 <= len) {
		uint16_t code = tng_u16(b + off), olen = tng_u16(b + off + 2);

		if (code == 0)
			return olen == 0 ? 0 : -1; /* opt_endofopt */
		if (off + 4 + olen > len)
			return -1;
		if (code == 2 && olen < sizeof(f->name)) { /* if_name, UTF-8, unterminated */
			memcpy(f->name, b + off + 4, olen);
			f->name[olen] = '\0';
		}
		if (code == 9 && olen == 1) /* if_tsresol */
			f->tsresol = b[off + 4];
		off += 4 + ((olen + 3u) & ~3u);
	}
	return off == len ? 0 : -1; /* options may end without opt_endofopt */
}

static void test_capture_pcapng(void)
{
	char path[64] = "/tmp/fabemu-ng-XXXXXX", err[CFG_ERR_BYTES] = "";
	static const uint64_t ib_t_ps[TNG_N_IB] = { UINT64_C(2000000000001000), UINT64_C(2000000000002000) };
	static const uint16_t ib_len[TNG_N_IB] = { 30, 61 }; /* one under, one over the snaplen */
	struct rte_mbuf *roce[TNG_N_ROCE], *ib[TNG_N_IB];
	struct cap_file *cr, *ci;
	struct cap_ng *ng;
	struct tng_if ifs[4];
	unsigned n_ifs = 0, n_roce = 0, n_ib = 0, n_shb = 0;
	uint8_t *buf;
	long size;
	FILE *f;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(cap_ng_open(path, &ng, err), 0);
	CU_ASSERT_EQUAL_FATAL(cap_ng_add(ng, "h0:0", 0, &pkt_ll_roce, &cr, err), 0);
	CU_ASSERT_EQUAL_FATAL(cap_ng_add_as(ng, "sw1:7", TNG_IB_SNAPLEN, &pkt_ll_ib, CAP_LINKTYPE_USER0,
					    &ci, err), 0);
	for (unsigned i = 0; i < TNG_N_ROCE; i++) {
		roce[i] = tcap_build(&tcap_samples[i]);
		cap_write(cr, tcap_samples[i].t_ps, roce[i], pkt_meta(roce[i])->frame_bytes);
	}
	for (unsigned i = 0; i < TNG_N_IB; i++) {
		uint8_t *p;

		ib[i] = tcap_alloc();
		p = (uint8_t *)rte_pktmbuf_append(ib[i], ib_len[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		for (unsigned k = 0; k < ib_len[i]; k++)
			p[k] = (uint8_t)(0xA0 + i + k);
		cap_write(ci, ib_t_ps[i], ib[i], ib_len[i]);
	}
	CU_ASSERT_EQUAL(cap_close(cr), 0);
	CU_ASSERT_EQUAL(cap_close(ci), 0);
	CU_ASSERT_EQUAL_FATAL(cap_ng_close(ng), 0);

	f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc((size_t)size);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	CU_ASSERT_EQUAL_FATAL(fread(buf, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(size % 4, 0);
	for (long off = 0; off < size;) {
		uint32_t type, len;
		const uint8_t *b = buf + off;

		CU_ASSERT_FATAL(off + 12 <= size);
		type = tng_u32(b);
		len = tng_u32(b + 4);
		CU_ASSERT_FATAL(len >= 12 && len % 4 == 0 && off + (long)len <= size);
		CU_ASSERT_EQUAL(tng_u32(b + len - 4), len); /* the total length again */
		if (type == 0x0A0D0D0A) { /* SHB: first, byte-order magic, version 1.0 */
			CU_ASSERT_EQUAL(off, 0);
			CU_ASSERT_EQUAL(tng_u32(b + 8), 0x1A2B3C4D);
			CU_ASSERT_EQUAL(tng_u16(b + 12), 1);
			CU_ASSERT_EQUAL(tng_u16(b + 14), 0);
			n_shb++;
		} else if (type == 1) { /* IDB */
			CU_ASSERT_FATAL(n_ifs < 4);
			CU_ASSERT_EQUAL(tng_idb(b + 8, len - 12, &ifs[n_ifs]), 0);
			n_ifs++;
		} else if (type == 6) { /* EPB */
			uint32_t id = tng_u32(b + 8), cap = tng_u32(b + 20), orig = tng_u32(b + 24);
			uint64_t ts = (uint64_t)tng_u32(b + 12) << 32 | tng_u32(b + 16);
			uint8_t mb[4352];

			CU_ASSERT_FATAL(id < n_ifs);
			CU_ASSERT_EQUAL(ifs[id].tsresol, 9); /* 10^-9 s */
			/* the data padded to 32 bits, then (no options) the length */
			CU_ASSERT_EQUAL(len, 32 + ((cap + 3u) & ~3u));
			for (uint32_t k = cap; k < ((cap + 3u) & ~3u); k++)
				CU_ASSERT_EQUAL(b[28 + k], 0);
			if (ifs[id].linktype == 1 && n_roce < TNG_N_ROCE) {
				struct rte_mbuf *m = roce[n_roce];
				uint32_t have = rte_pktmbuf_pkt_len(m);

				CU_ASSERT_EQUAL(ts, tcap_samples[n_roce].t_ps / 1000);
				CU_ASSERT_EQUAL(cap, have < 65535 ? have : 65535);
				CU_ASSERT_EQUAL(orig, pkt_meta(m)->frame_bytes - PKT_FCS_BYTES);
				CU_ASSERT(cap <= sizeof(mb) && memcmp(b + 28, rte_pktmbuf_read(m, 0, cap, mb), cap) == 0);
				n_roce++;
			} else if (ifs[id].linktype == CAP_LINKTYPE_USER0 && n_ib < TNG_N_IB) {
				uint32_t want = ib_len[n_ib] < TNG_IB_SNAPLEN ? ib_len[n_ib] : TNG_IB_SNAPLEN;

				CU_ASSERT_EQUAL(ts, ib_t_ps[n_ib] / 1000);
				CU_ASSERT_EQUAL(cap, want);
				CU_ASSERT_EQUAL(orig, ib_len[n_ib]); /* IB: nothing left out */
				CU_ASSERT(memcmp(b + 28, rte_pktmbuf_mtod(ib[n_ib], uint8_t *), cap) == 0);
				n_ib++;
			} else {
				CU_FAIL("an EPB of an unexpected interface");
			}
		}
		off += len;
	}
	CU_ASSERT_EQUAL(n_shb, 1);
	CU_ASSERT_EQUAL_FATAL(n_ifs, 2);
	CU_ASSERT_EQUAL(ifs[0].linktype, 1); /* LINKTYPE_ETHERNET */
	CU_ASSERT_EQUAL(ifs[0].snaplen, 65535);
	CU_ASSERT_STRING_EQUAL(ifs[0].name, "h0:0");
	CU_ASSERT_EQUAL(ifs[1].linktype, CAP_LINKTYPE_USER0);
	CU_ASSERT_EQUAL(ifs[1].snaplen, TNG_IB_SNAPLEN);
	CU_ASSERT_STRING_EQUAL(ifs[1].name, "sw1:7");
	CU_ASSERT_EQUAL(n_roce, TNG_N_ROCE);
	CU_ASSERT_EQUAL(n_ib, TNG_N_IB);
	free(buf);
	unlink(path);
	for (unsigned i = 0; i < TNG_N_ROCE; i++)
		rte_pktmbuf_free(roce[i]);
	for (unsigned i = 0; i < TNG_N_IB; i++)
		rte_pktmbuf_free(ib[i]);
}

int test_capture_register(void)
{
	CU_pSuite s = CU_add_suite("capture", NULL, NULL);

	if (s == NULL ||
	    !CU_add_test(s, "roundtrip ns timestamps, caplen/len", test_capture_roundtrip) ||
	    !CU_add_test(s, "snaplen", test_capture_snaplen) ||
	    !CU_add_test(s, "open error", test_capture_open_error) ||
	    !CU_add_test(s, "link type from the descriptor", test_capture_link_type) ||
	    !CU_add_test(s, "write error", test_capture_write_error) ||
	    !CU_add_test(s, "pcapng: two interfaces, block by block", test_capture_pcapng) ||
	    !CU_add_test(s, "tshark decodes", test_capture_tshark))
		return CU_get_error();
	return 0;
}
