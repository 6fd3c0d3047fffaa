/* CUnit suite for InfiniBand congestion control (IBTA Vol 1 Annex A10):
 * the source's table walk (cc/cc_ibcc.c: BECN steps, timer decay, the
 * limit and minimum clamps, the injection delay as a pacing rate), its
 * nic.ibcc settings, and the switch's FECN marking (switch/sw_ibcc.c:
 * threshold mapping, Marking_Rate spacing, Packet_Size floor, victims)
 * with its fabric.ib_cc settings. Each test names the independent
 * expectation it checks. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "cc_ibcc.h"
#include "cc_int.h"
#include "cfg_schema.h"
#include "pkt_ll.h"
#include "sim.h"
#include "sw_int.h"
#include "test.h"
#include "units.h"

#define TI_LINE UINT64_C(400000000000) /* 400 Gb/s */
#define TI_MTU 4096u

/* One ibcc QP with settings read from @yaml (nic.ibcc). */
struct ti {
	struct cc_ibcc_cfg cfg;                      /* nic.ibcc.* */
	_Alignas(8) unsigned char priv[256];         /* the algorithm's state */
	struct cc_qp q;                              /* what it sees */
};

static int ti_read(const char *yaml, void *cfg, char err[CFG_ERR_BYTES])
{
	struct cfg_doc *doc;
	struct cfg_bind b = { cc_ibcc_ops.kind.settings, cfg };
	int rc;

	memset(cfg, 0, sizeof(struct cc_ibcc_cfg));
	if ((rc = cfg_doc_load_string("t.yaml", yaml, &doc, err)) != 0)
		return rc;
	rc = cfg_schema_read(doc, cfg_doc_root(doc), "nic.ibcc", &b, 1, err);
	cfg_doc_free(doc);
	return rc;
}

static void ti_start(struct ti *t, const char *yaml)
{
	char err[CFG_ERR_BYTES];

	memset(t, 0, sizeof(*t));
	if (ti_read(yaml, &t->cfg, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	t->q.ops = &cc_ibcc_ops;
	t->q.cfg = &t->cfg;
	t->q.priv = t->priv;
	t->q.line_rate_bps = TI_LINE;
	t->q.mtu_bytes = TI_MTU;
	t->q.cnp_interval_ps = 50000000; /* the NIC's 50 us, which ibcc replaces */
	CU_ASSERT_EQUAL_FATAL(cc_ibcc_ops.init(&t->q), 0);
}

static const struct cc_ibcc_cfg *ti_cfg(const struct ti *t)
{
	return &t->cfg;
}

/* The default table is LLNL's quadratic CCT (entry_i = floor(7 i^2 / (95^2
 * x 0.218)), shift 0; congestion-control settings of their OpenSM study),
 * recomputed here in floating point: no throttle below i = 17, multiplier
 * 57 at i = 127; CCTI_Limit is its last index, CCTI_Timer 10. */
static void test_ibcc_default_table(void)
{
	struct ti t;
	const struct cc_ibcc_cfg *c;

	ti_start(&t, "{}");
	c = ti_cfg(&t);
	CU_ASSERT_EQUAL(c->n_cct, 128);
	for (uint32_t i = 0; i < c->n_cct; i++)
		CU_ASSERT_EQUAL(c->cct[i], (uint16_t)floor(7.0 * i * i / (95.0 * 95.0 * 0.218)));
	CU_ASSERT_EQUAL(c->cct[16], 0);
	CU_ASSERT_EQUAL(c->cct[17], 1);
	CU_ASSERT_EQUAL(c->cct[127], 57);
	CU_ASSERT_EQUAL(c->ccti_limit, 127);
	CU_ASSERT_EQUAL(c->ccti_min, 0);
	CU_ASSERT_EQUAL(c->ccti_increase, 1);
	CU_ASSERT_EQUAL(c->ccti_timer, 10);
	CU_ASSERT_EQUAL(c->becn_interval_ps, 0);
	CU_ASSERT_EQUAL(t.q.cnp_interval_ps, 0); /* a BECN for every FECN */
	CU_ASSERT_EQUAL(t.q.rate_bps, TI_LINE);
	CU_ASSERT_EQUAL(t.q.timer_ps, 0);
}

/* The walk of IBTA A10: CCTI += CCTI_Increase per BECN up to CCTI_Limit,
 * -1 per CCTI_Timer (x 1.024 us) down to CCTI_Min, the timer stopping
 * there. Hand-computed with increase 3, limit 10, min 2, timer 5 (5.12 us):
 * BECNs take 2 -> 5 -> 8 -> 10 (clamped) -> 10; then 8 expiries every
 * 5.12 us from the first BECN's time take it back to 2 and the timer
 * stops. */
static void test_ibcc_walk(void)
{
	struct ti t;
	const uint64_t period = 5 * UINT64_C(1024000), t0 = 1000000;
	static const uint32_t after_becn[] = { 5, 8, 10, 10 };

	ti_start(&t, "{table: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], ccti_increase: 3, "
		     "ccti_limit: 10, ccti_min: 2, ccti_timer: 5}");
	CU_ASSERT_EQUAL(cc_ibcc_ccti(&t.q), 2);
	CU_ASSERT_EQUAL(t.q.rate_bps, TI_LINE / 3); /* entry 2: multiplier 2 */
	for (unsigned i = 0; i < 4; i++) {
		cc_ibcc_ops.on_cnp(&t.q, t0 + i * 1000);
		CU_ASSERT_EQUAL(cc_ibcc_ccti(&t.q), after_becn[i]);
		/* the timer started on the first BECN and does not restart */
		CU_ASSERT_EQUAL(t.q.timer_ps, t0 + period);
	}
	CU_ASSERT_EQUAL(t.q.rate_bps, TI_LINE / 11);
	for (unsigned k = 1; k <= 8; k++) {
		uint64_t at = t.q.timer_ps;

		CU_ASSERT_EQUAL_FATAL(at, t0 + k * period);
		cc_ibcc_ops.on_timer(&t.q, at);
		CU_ASSERT_EQUAL(cc_ibcc_ccti(&t.q), 10 - k);
		CU_ASSERT_EQUAL(t.q.rate_bps, TI_LINE / (1 + (10 - k)));
	}
	CU_ASSERT_EQUAL(cc_ibcc_ccti(&t.q), 2);
	CU_ASSERT_EQUAL(t.q.timer_ps, 0); /* at CCTI_Min: stopped */
	CU_ASSERT_EQUAL(t.q.stats.rate_cuts, 3);
	CU_ASSERT_EQUAL(t.q.stats.rate_increases, 8);
	/* A BECN restarts it one period on. */
	cc_ibcc_ops.on_cnp(&t.q, 100 * period);
	CU_ASSERT_EQUAL(cc_ibcc_ccti(&t.q), 5);
	CU_ASSERT_EQUAL(t.q.timer_ps, 101 * period);
}

/* The injection delay as a rate. hfi1's set_link_ipg: IPD = (t_pkt >>
 * shift) * multiplier, t_pkt a largest packet's egress time, so a pacer
 * spacing packets by t_pkt + IPD runs at line * 2^shift / (2^shift + m):
 * m = 1 halves the rate, 3:5 (IPD 5/8 t) gives 8/13 of it. Checked twice:
 * against the hand-computed fractions, and as the spacing the NIC's pacer
 * makes (the frame time at the rate minus at the line = IPD, within the
 * rounding of ps and of the rate's whole bit/s). The time unit: delay_unit 1us, m = 1 at 400
 * Gb/s: t_pkt = 4096 B = 81.92 ns, rate = line x 81.92 / 1081.92. */
static void test_ibcc_rate(void)
{
	struct ti t;
	struct {
		uint16_t entry;
		uint64_t num, den; /* rate / line */
	} cs[] = {
		{ 0, 1, 1 }, { 1, 1, 2 }, { 57, 1, 58 },
		{ 1u << 14 | 1, 2, 3 }, { 3u << 14 | 5, 8, 13 }, { 2u << 14 | 16383, 4, 16387 },
	};

	ti_start(&t, "{}");
	for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		uint64_t r = cc_ibcc_rate(ti_cfg(&t), cs[i].entry, TI_LINE, TI_MTU);
		uint32_t shift = cs[i].entry >> 14, mult = cs[i].entry & 0x3FFF;
		uint64_t t_ps = pkt_ll_ser_ps(0, TI_MTU, TI_LINE);
		uint64_t gap_ps = pkt_ll_ser_ps(0, TI_MTU, r);
		double ipd_ps = (double)t_ps * mult / (1u << shift);

		CU_ASSERT_EQUAL(r, (uint64_t)((unsigned __int128)TI_LINE * cs[i].num / cs[i].den));
		/* 1 ps of rounding per frame time, and the rate's own rounding down
		 * to whole bit/s (a gap longer by less than gap / rate). */
		CU_ASSERT(fabs((double)(gap_ps - t_ps) - ipd_ps) <= 2.0 + (double)gap_ps / (double)r);
	}
	ti_start(&t, "{delay_unit: 1us}");
	CU_ASSERT_EQUAL(ti_cfg(&t)->delay_unit_ps, 1000000);
	{
		uint64_t r = cc_ibcc_rate(ti_cfg(&t), 1, TI_LINE, TI_MTU);
		double want = 400e9 * 81.92 / 1081.92;

		CU_ASSERT(fabs((double)r - want) <= 1.0);
	}
}

/* Settings: OpenSM's "shift:multiplier" entries and plain multipliers; a
 * short table's CCTI_Limit is its last entry; bad values are refused at
 * their line and column (the cfg readers' FILE:LINE:COL contract). */
static void test_ibcc_settings(void)
{
	struct cc_ibcc_cfg buf;
	const struct cc_ibcc_cfg *c = &buf;
	char err[CFG_ERR_BYTES];
	static const struct {
		const char *yaml, *err;
	} bad[] = {
		{ "{table: ['4:1']}", "t.yaml:1:10: CCT entry '4:1': shift is 0..3" },
		{ "{table: [16384]}", "t.yaml:1:10:" },
		{ "{table: ['x:1']}", "t.yaml:1:10: CCT entry 'x:1': expected shift:multiplier" },
		{ "{table: []}", "t.yaml:1:9: the congestion control table needs 1..128 entries" },
		{ "{table: [0, 1], ccti_limit: 2}", "t.yaml:1:29: ccti_limit 2 is past the table's last entry (1)" },
		{ "{ccti_limit: 3, ccti_min: 4}", "t.yaml:1:27: ccti_min 4 is above ccti_limit 3" },
		{ "{ccti_timer: 0}", "t.yaml:1:14:" },
		{ "{delay_unit: 0us}", "t.yaml:1:14: delay_unit must be 'packet' or a time above 0" },
		{ "{ccti_timr: 3}", "ccti_timer" },
	};

	CU_ASSERT_EQUAL_FATAL(ti_read("{table: [0, '1:3', 7], ccti_timer: 300}", &buf, err), 0);
	CU_ASSERT_EQUAL(c->n_cct, 3);
	CU_ASSERT_EQUAL(c->cct[1], 1u << 14 | 3);
	CU_ASSERT_EQUAL(c->cct[2], 7);
	CU_ASSERT_EQUAL(c->ccti_limit, 2);
	CU_ASSERT_EQUAL(c->ccti_timer, 300);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(ti_read(bad[i].yaml, &buf, err), -EINVAL);
		if (!strstr(err, bad[i].err))
			fprintf(stderr, "\n  case %u: got '%s'\n", i, err);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].err));
	}
}

/* ---- the switch ---- */

static const uint32_t ts_class[] = { 0, 0 };
static const uint32_t ts_class_off[] = { 0, 0 };
static const uint32_t ts_off[] = { 0, 1, 2 };
static const uint16_t ts_ports[] = { 0, 1 };
static const struct fib_rows ts_fib = {
	.n_eps = 2, .ep_class = ts_class, .n_classes = 1, .off = ts_class_off, .ports = ts_ports,
	.direct_lo = 0, .direct_n = 2, .direct_off = ts_off, .direct_ports = ts_ports,
};

/* A local-route IB data packet of @frame_bytes (LRH, BTH, payload, VCRC)
 * with a correct VCRC. */
static struct rte_mbuf *ts_pkt(struct sim *s, uint32_t frame_bytes)
{
	struct rte_mbuf *m = sim_pkt_alloc(s, false);
	uint8_t *d;
	uint16_t crc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)frame_bytes);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	memset(d, 0, frame_bytes);
	d[1] = PKT_IB_LNH_LOCAL;
	d[PKT_IB_LRH_BYTES] = 0x0A; /* BTH opcode: RC RDMA WRITE middle */
	crc = pkt_ib_crc16(d, frame_bytes - PKT_IB_VCRC_BYTES);
	d[frame_bytes - 2] = (uint8_t)crc;
	d[frame_bytes - 1] = (uint8_t)(crc >> 8);
	pkt_meta(m)->frame_bytes = frame_bytes;
	return m;
}

static bool ts_fecn(struct rte_mbuf *m)
{
	return pkt_ll_ecn(PKT_LL_IB, m) == PKT_ECN_CE;
}

/* One queueing decision: a fresh packet of @frame_bytes; returns whether
 * it left with FECN (and checks its VCRC is still right). */
static bool ts_mark(struct sim *s, struct sw *sw, uint16_t port, uint8_t vl, uint32_t frame_bytes,
		    uint64_t q_bytes, bool starved)
{
	struct rte_mbuf *m = ts_pkt(s, frame_bytes);
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	bool marked;
	uint16_t crc;

	sw_ibcc_mark(sw, sw_port(sw, port), m, vl, frame_bytes, q_bytes, starved);
	marked = ts_fecn(m);
	crc = pkt_ib_crc16(d, frame_bytes - PKT_IB_VCRC_BYTES);
	CU_ASSERT_EQUAL(d[frame_bytes - 2] | d[frame_bytes - 1] << 8, crc);
	sim_pkt_free(s, m);
	return marked;
}

/* A switch of two ports with fabric.ib_cc read from @yaml. */
static struct sw *ts_switch(struct sim *s, const char *yaml, struct sw_params *p)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc;
	struct cfg_bind b = { &sw_cfg_fabric_table, p };
	struct fib_rows fib = ts_fib;

	memset(p, 0, sizeof(*p));
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("f.yaml", yaml, &doc, err), 0);
	if (cfg_schema_read(doc, cfg_doc_root(doc), "fabric", &b, 1, err) != 0)
		fprintf(stderr, "\n  %s\n", err);
	cfg_doc_free(doc);
	p->hash_seed = 1;
	return sw_new(s, 0, 0, 2, p, &fib);
}

/* Threshold t marks above vl_buffer x (16 - t) / 16 (docs/config.md's
 * definition, hand-computed for 256 KiB: t = 1 -> 245760 B, 8 -> 131072 B,
 * 15 -> 16384 B; 0 never), strictly above: a queue of exactly the
 * threshold is not congested. The defaults of a present section are
 * threshold 15, vl_buffer 256 KiB, marking_rate 0, packet_size 0. */
static void test_ibcc_threshold(void)
{
	struct sw_params p;
	struct sim s;
	struct sw *sw;

	CU_ASSERT_EQUAL(sw_ibcc_threshold_bytes(0, 262144), UINT64_MAX);
	CU_ASSERT_EQUAL(sw_ibcc_threshold_bytes(1, 262144), 245760);
	CU_ASSERT_EQUAL(sw_ibcc_threshold_bytes(8, 262144), 131072);
	CU_ASSERT_EQUAL(sw_ibcc_threshold_bytes(15, 262144), 16384);
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = ts_switch(&s, "{ib_cc: {}}", &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(p.ib_cc.threshold, 15);
	CU_ASSERT_EQUAL(p.ib_cc.vl_buffer_bytes, 262144);
	CU_ASSERT_EQUAL(p.ib_cc.threshold_bytes, 16384);
	CU_ASSERT_EQUAL(p.ib_cc.marking_rate, 0);
	CU_ASSERT_EQUAL(p.ib_cc.packet_size_blocks, 0);
	CU_ASSERT_FALSE(ts_mark(&s, sw, 1, 0, 2048, 16384, false));
	CU_ASSERT_TRUE(ts_mark(&s, sw, 1, 0, 2048, 16385, false));
	CU_ASSERT_FALSE(ts_mark(&s, sw, 1, PKT_IB_VL15, 2048, 1 << 20, false)); /* management VL */
	CU_ASSERT_EQUAL(sw_stats(sw)->fecn_marked, 1);
	CU_ASSERT_EQUAL(sw_port_stats(sw, 1)->fecn_marked, 1);
	CU_ASSERT_EQUAL(sw_port_stats(sw, 0)->fecn_marked, 0);
	CU_ASSERT_EQUAL(sw_stats(sw)->ecn_marked, 0);
	sw_free(sw);
	/* threshold 0 written in a present section: off, as absent (docs:
	 * "0 (off)"), never the section's default 15. */
	sw = ts_switch(&s, "{ib_cc: {threshold: 0}}", &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(p.ib_cc.threshold, 0);
	CU_ASSERT_EQUAL(p.ib_cc.threshold_bytes, UINT64_MAX);
	CU_ASSERT_FALSE(ts_mark(&s, sw, 1, 0, 2048, 1 << 20, false));
	sw_free(sw);
	/* Absent: no marking. */
	sw = ts_switch(&s, "{}", &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(p.ib_cc.threshold, 0);
	CU_ASSERT_FALSE(ts_mark(&s, sw, 1, 0, 2048, 1 << 20, false));
	sw_free(sw);
	sim_fini(&s);
}

/* Marking_Rate r: exactly every (r + 1)-th eligible packet of a port/VL is
 * marked, the first one included (IBTA A10's "mean number of packets
 * between marks", made exact); VLs and ports count apart; an ineligible
 * packet (queue below the threshold, too small, an unmarking victim) or
 * one marked upstream takes no turn. Packet_Size 2: packets of fewer than
 * 2 blocks of 64 bytes (frames up to 64 B) are never marked. */
static void test_ibcc_spacing(void)
{
	struct sw_params p;
	struct sim s;
	struct sw *sw;
	unsigned marks = 0, marks_vl1 = 0;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = ts_switch(&s, "{ib_cc: {threshold: 8, vl_buffer: 64KiB, marking_rate: 3, "
			   "packet_size: 2}}", &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(p.ib_cc.threshold_bytes, 32768);
	for (unsigned i = 0; i < 40; i++) {
		bool m = ts_mark(&s, sw, 0, 0, 1024, 40000, false);

		CU_ASSERT_EQUAL(m, i % 4 == 0);
		marks += m;
		/* interleaved: never eligible, so the count above is untouched */
		CU_ASSERT_FALSE(ts_mark(&s, sw, 0, 0, 1024, 30000, false));
		CU_ASSERT_FALSE(ts_mark(&s, sw, 0, 0, 64, 40000, false));
		CU_ASSERT_FALSE(ts_mark(&s, sw, 0, 0, 1024, 40000, true)); /* victim */
		if (i < 8)
			marks_vl1 += ts_mark(&s, sw, 0, 1, 1024, 40000, false);
	}
	CU_ASSERT_EQUAL(marks, 10);
	CU_ASSERT_EQUAL(marks_vl1, 2);                /* VL 1's own count: 0 and 4 */
	CU_ASSERT_TRUE(ts_mark(&s, sw, 1, 0, 65, 40000, false)); /* port 1's first; 2 blocks */
	CU_ASSERT_EQUAL(sw_stats(sw)->fecn_marked, 13);
	CU_ASSERT_EQUAL(sw_port_stats(sw, 0)->fecn_marked, 12);
	/* Marked upstream: left as it is, no turn taken, not counted. */
	{
		struct rte_mbuf *m = ts_pkt(&s, 1024);

		pkt_ll_mark_ce(PKT_LL_IB, m);
		sw_ibcc_mark(sw, sw_port(sw, 1), m, 0, 1024, 40000, false);
		CU_ASSERT_TRUE(ts_fecn(m));
		sim_pkt_free(&s, m);
		CU_ASSERT_EQUAL(sw_port_stats(sw, 1)->fecn_marked, 1);
		CU_ASSERT_FALSE(ts_mark(&s, sw, 1, 0, 1024, 40000, false)); /* 2nd of 4 */
	}
	sw_free(sw);
	/* marking_rate 0: every eligible packet; packet_size 0: of any size
	 * (a one-block frame too). */
	sw = ts_switch(&s, "{ib_cc: {marking_rate: 0, packet_size: 0}}", &p);
	for (unsigned i = 0; i < 10; i++)
		CU_ASSERT_TRUE(ts_mark(&s, sw, 0, 2, 256, 20000, false));
	CU_ASSERT_TRUE(ts_mark(&s, sw, 0, 2, 64, 20000, false));
	sw_free(sw);
	sim_fini(&s);
}

/* Victims: a port/VL whose egress is credit-starved (its queue is the next
 * hop's backlog, not its own link's) marks only when its Victim_Mask bit
 * is set (OpenSM: "mark packets with FECN whether they are the source or
 * victim of congestion"); `all` sets every port's. */
static void test_ibcc_victim(void)
{
	struct sw_params p;
	struct sim s;
	struct sw *sw;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = ts_switch(&s, "{ib_cc: {victim_mask: [1]}}", &p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(p.ib_cc.victim_mask[0], 2);
	CU_ASSERT_FALSE(ts_mark(&s, sw, 0, 0, 1024, 1 << 20, true));
	CU_ASSERT_TRUE(ts_mark(&s, sw, 0, 0, 1024, 1 << 20, false)); /* a root marks */
	CU_ASSERT_TRUE(ts_mark(&s, sw, 1, 0, 1024, 1 << 20, true));
	sw_free(sw);
	sw = ts_switch(&s, "{ib_cc: {victim_mask: all}}", &p);
	CU_ASSERT_TRUE(ts_mark(&s, sw, 0, 0, 1024, 1 << 20, true));
	CU_ASSERT_EQUAL(p.ib_cc.victim_mask[3], UINT64_MAX);
	sw_free(sw);
	sim_fini(&s);
}

/* fabric.ib_cc's bad values, each at its line and column. */
static void test_ibcc_switch_settings(void)
{
	static const struct {
		const char *yaml, *err;
	} bad[] = {
		{ "{ib_cc: {threshold: 16}}", "f.yaml:1:21:" },
		{ "{ib_cc: {marking_rate: 65536}}", "f.yaml:1:24:" },
		{ "{ib_cc: {packet_size: 256}}", "f.yaml:1:23:" },
		{ "{ib_cc: {victim_mask: [256]}}", "f.yaml:1:24:" },
		{ "{ib_cc: {victim_mask: some}}", "f.yaml:1:23: ib_cc.victim_mask: expected a list of ports" },
		{ "{ib_cc: {vl_buffer: 10B}}", "f.yaml:1:21:" },
		{ "{ib_cc: {treshold: 3}}", "threshold" },
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		struct sw_params p = { 0 };
		struct cfg_doc *doc;
		struct cfg_bind b = { &sw_cfg_fabric_table, &p };

		CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("f.yaml", bad[i].yaml, &doc, err), 0);
		CU_ASSERT_EQUAL(cfg_schema_read(doc, cfg_doc_root(doc), "fabric", &b, 1, err), -EINVAL);
		if (!strstr(err, bad[i].err))
			fprintf(stderr, "\n  case %u: got '%s'\n", i, err);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].err));
		cfg_doc_free(doc);
	}
}

int test_ibcc_register(void)
{
	static const struct test_case tests[] = {
		{ "default CCT is LLNL's quadratic table", test_ibcc_default_table },
		{ "CCTI walk: BECN steps, timer decay, clamps", test_ibcc_walk },
		{ "injection delay as a pacing rate", test_ibcc_rate },
		{ "nic.ibcc settings and bad values", test_ibcc_settings },
		{ "switch: threshold mapping", test_ibcc_threshold },
		{ "switch: marking rate spacing and packet size", test_ibcc_spacing },
		{ "switch: victims", test_ibcc_victim },
		{ "fabric.ib_cc bad values", test_ibcc_switch_settings },
	};

	return test_suite("ibcc", tests);
}
