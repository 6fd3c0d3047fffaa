/* Ports and links: serialisation exact to the picosecond at standard and odd
 * rates (checked against the cumulative closed form), propagation, strict
 * priority and DWRR shares. */
#include <string.h>

#include <rte_mbuf.h>

#include "port.h"
#include "port_pfc.h"
#include "sim.h"
#include "test.h"

struct sink {
	uint64_t t_ps[512];   /* arrival times */
	uint8_t tc[512];      /* class of each arrival */
	uint32_t n;           /* arrivals */
};

static void sink_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct sink *s = owner;

	if (s->n < 512) {
		s->t_ps[s->n] = in->sim->now_ps;
		s->tc[s->n] = pkt_meta(m)->tc;
	}
	s->n++;
	sim_pkt_free(in->sim, m);
}

static const struct port_ops sink_ops = { .rx = sink_rx };

struct rte_mbuf *test_port_frame(struct sim *s, uint32_t bytes, uint8_t tc)
{
	struct rte_mbuf *m = sim_pkt_alloc(s, false);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	/* Zeroed: a recycled mbuf may hold a PFC frame's EtherType. */
	memset(rte_pktmbuf_append(m, 64), 0, 64);
	pkt_meta(m)->frame_bytes = bytes;
	pkt_meta(m)->tc = tc;
	pkt_meta(m)->flags = 0;
	return m;
}

static void run_rate(uint64_t rate_bps, const struct pkt_ll *ll)
{
	static const uint32_t sizes[] = { 64, 1500, 4178, 65, 9000, 1234, 77 };
	struct sink a = { 0 }, b = { 0 };
	struct port pa, pb;
	struct sim s;
	const uint64_t delay = 1234567; /* ps */
	struct port_stats st;
	__uint128_t bits = 0;
	uint32_t n = 0;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	port_set_ll(&pa, ll);
	port_set_ll(&pb, ll);
	port_connect(&pa, &pb, rate_bps, delay);
	for (int rep = 0; rep < 20; rep++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++, n++)
			port_enqueue(&pa, test_port_frame(&s, sizes[i], 0), 0, sizes[i]);
	sim_run(&s);
	CU_ASSERT_EQUAL(b.n, n);
	/* Frame k ends at floor(sum of wire bits of frames 0..k * 1e12 / rate). */
	for (uint32_t k = 0; k < n && k < 512; k++) {
		uint32_t bytes = sizes[k % (sizeof(sizes) / sizeof(sizes[0]))];
		uint64_t expect;

		bits += (__uint128_t)(bytes + ll->wire_overhead_bytes) * 8;
		expect = (uint64_t)(bits * UNITS_PS_PER_S / rate_bps) + delay;
		CU_ASSERT_EQUAL(b.t_ps[k], expect);
	}
	port_stats(&pa, &st);
	CU_ASSERT_EQUAL(st.tx_pkts, n);
	CU_ASSERT_EQUAL(st.busy_ps, b.t_ps[n - 1] - delay); /* busy from 0 to the last end */
	port_stats(&pb, &st);
	CU_ASSERT_EQUAL(st.rx_pkts, n);
	port_fini(&pa);
	port_fini(&pb);
	sim_fini(&s);
}

static void test_port_serialisation(void)
{
	static const uint64_t rates[] = {
		UINT64_C(25000000000), UINT64_C(50000000000), UINT64_C(100000000000),
		UINT64_C(200000000000), UINT64_C(400000000000), UINT64_C(800000000000),
		UINT64_C(40000000000), UINT64_C(3000000000), UINT64_C(56000000000),
	};

	/* The port serialises with its descriptor's overhead: RoCE's 20 bytes,
	 * none (as IB), and an odd 7. */
	struct pkt_ll none = pkt_ll_roce, odd = pkt_ll_roce;
	const struct pkt_ll *lls[] = { &pkt_ll_roce, &none, &odd };
	struct port p;
	struct sim s;

	none.wire_overhead_bytes = 0;
	odd.wire_overhead_bytes = 7;
	for (size_t l = 0; l < RTE_DIM(lls); l++)
		for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
			run_rate(rates[i], lls[l]);
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&p, &s, &sink_ops, NULL, 0, 0);
	CU_ASSERT_PTR_EQUAL(p.ll, &pkt_ll_roce);
	CU_ASSERT_EQUAL(port_frame_ps(&p, 64, UINT64_C(100000000000)), 6720);
	port_set_ll(&p, &odd);
	CU_ASSERT_EQUAL(port_frame_ps(&p, 64, UINT64_C(100000000000)), 71 * 80);
	CU_ASSERT_EQUAL(pkt_ll_frame_ps(&none, 64, UINT64_C(100000000000)), 5120);
	port_fini(&p);
	sim_fini(&s);
	/* The well-known figure: a 64 B frame at 100 Gb/s takes 6.72 ns on the
	 * wire with preamble and gap (84 B), 5.12 ns without. */
	CU_ASSERT_EQUAL(pkt_ll_frame_ps(&pkt_ll_roce, 64, UINT64_C(100000000000)), 6720);
}

/* The Ethernet / RoCEv2 descriptor holds IEEE 802.3's and 802.1Qbb's
 * values, and link-level control frames are told through it: a PFC frame
 * is one, a RoCEv2 frame (tagged or not) is not. */
static void test_port_ll_roce(void)
{
	static const uint16_t quanta[PKT_N_PRIO] = { [3] = 0xFFFF };
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	struct rte_mbuf *pfc = rte_pktmbuf_alloc(test_mempool());
	struct rte_mbuf *data = rte_pktmbuf_alloc(test_mempool());
	struct pkt_roce f = { .opcode = PKT_OP_SEND_ONLY, .pkey = 0xFFFF };
	struct port p;
	struct sim s;

	CU_ASSERT_EQUAL(pkt_ll_roce.wire_overhead_bytes, 20);
	CU_ASSERT_EQUAL(pkt_ll_roce.min_frame_bytes, 64);
	CU_ASSERT_EQUAL(pkt_ll_roce.trailer_bytes, 4);
	CU_ASSERT_EQUAL(pkt_ll_roce.ctrl_type, 0x8808);
	CU_ASSERT_EQUAL(pkt_ll_roce.ctrl_frame_bytes, 64);
	CU_ASSERT_EQUAL(pkt_ll_roce.pcap_linktype, 1);
	CU_ASSERT_EQUAL(pkt_ll_roce.credit_block_bytes, 0);
	CU_ASSERT_EQUAL(pkt_ll_roce.fc, PKT_LL_FC_PAUSE);
	CU_ASSERT_PTR_EQUAL(pkt_ll_find("roce"), &pkt_ll_roce);
	CU_ASSERT_PTR_NULL(pkt_ll_find("ib"));

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&p, &s, &sink_ops, NULL, 0, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pfc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(data);
	/* pkt_data needs packets without headroom (pkt_alloc's). */
	pfc->data_off = 0;
	data->data_off = 0;
	CU_ASSERT_EQUAL_FATAL(pkt_build_pfc(pfc, mac, 1 << 3, quanta), 0);
	CU_ASSERT(port_is_ctrl(&p, pfc));
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(data, &f, NULL), 0);
	CU_ASSERT(!port_is_ctrl(&p, data));
	rte_pktmbuf_reset(data);
	data->data_off = 0;
	f.addr.vlan = true;
	f.addr.pcp = 3;
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(data, &f, NULL), 0);
	CU_ASSERT(!port_is_ctrl(&p, data));
	rte_pktmbuf_free(pfc);
	rte_pktmbuf_free(data);
	port_fini(&p);
	sim_fini(&s);
}

static void test_port_strict_priority(void)
{
	struct sink a = { 0 }, b = { 0 };
	struct port pa, pb;
	struct sim s;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	pa.sched.strict_mask = 0xC0;
	port_connect(&pa, &pb, UINT64_C(100000000000), 0);
	for (int i = 0; i < 5; i++)
		port_enqueue(&pa, test_port_frame(&s, 1000, 3), 3, 1000);
	for (int i = 0; i < 3; i++)
		port_enqueue(&pa, test_port_frame(&s, 100, 6), 6, 100);
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(b.n, 8);
	/* The first TC3 frame was already on the wire; then all TC6 frames. */
	CU_ASSERT_EQUAL(b.tc[0], 3);
	CU_ASSERT_EQUAL(b.tc[1], 6);
	CU_ASSERT_EQUAL(b.tc[2], 6);
	CU_ASSERT_EQUAL(b.tc[3], 6);
	for (int i = 4; i < 8; i++)
		CU_ASSERT_EQUAL(b.tc[i], 3);
	port_fini(&pa);
	port_fini(&pb);
	sim_fini(&s);
}

static void test_port_dwrr_shares(void)
{
	struct sink a = { 0 }, b = { 0 };
	struct port pa, pb;
	struct sim s;
	uint64_t bytes1, bytes3;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	pa.sched.strict_mask = 0;
	pa.sched.quantum_bytes[1] = 1500;
	pa.sched.quantum_bytes[3] = 4500; /* weight 3 */
	port_connect(&pa, &pb, UINT64_C(100000000000), 0);
	for (int i = 0; i < 400; i++) {
		port_enqueue(&pa, test_port_frame(&s, 1500, 1), 1, 1500);
		port_enqueue(&pa, test_port_frame(&s, 1500, 3), 3, 1500);
	}
	/* Stop while both classes are still backlogged: 400 frames sent. */
	s.stop_ps = 400 * pkt_ll_frame_ps(&pkt_ll_roce, 1500, UINT64_C(100000000000)) - 1;
	sim_run(&s);
	bytes1 = pa.q[1].out_bytes;
	bytes3 = pa.q[3].out_bytes;
	CU_ASSERT(bytes1 > 0);
	/* Within one DWRR round of an exact 1:3 split (the very first TC1 frame
	 * went out before any TC3 frame was queued; 101:299 frames is exact). */
	CU_ASSERT(bytes3 + 9000 >= 3 * bytes1 && bytes3 <= 3 * bytes1 + 9000);
	CU_ASSERT(bytes3 > 2 * bytes1); /* a plain round robin would give 1:1 */
	s.stop_ps = 0;
	sim_run(&s); /* drain */
	CU_ASSERT_EQUAL(b.n, 800);
	port_fini(&pa);
	port_fini(&pb);
	sim_fini(&s);
}

static void pfc_xon_at(struct sim *sim, void *obj)
{
	(void)sim;
	port_pfc_send(obj, 1u << 3, 0);
}

static void test_port_pfc_pause(void)
{
	static const uint8_t ident[PKT_N_PRIO] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const uint64_t rate = UINT64_C(100000000000);
	struct sink a = { 0 }, b = { 0 };
	struct port pa, pb;
	struct ev_src src;
	struct sim s;
	uint64_t pfc_ps = pkt_ll_frame_ps(&pkt_ll_roce, 64, rate);     /* 6.72 ns: the PFC frame itself */
	uint64_t frame_ps = pkt_ll_frame_ps(&pkt_ll_roce, 1000, rate); /* 81.6 ns */

	/* XOFF with 1000 quanta: 1000 x 512 bits at 100 Gb/s = 5.12 us
	 * (IEEE 802.1Qbb; 65535 quanta would be 335.5 us). The port finishes
	 * the frame on the wire, then stays silent until the pause that began
	 * when the PFC frame arrived runs out. */
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	port_connect(&pa, &pb, rate, 0);
	CU_ASSERT_EQUAL_FATAL(port_pfc_enable(&pa, ident), 0);
	CU_ASSERT_EQUAL(port_pfc_quanta_ps(&pa, 1000), 5120000);
	CU_ASSERT_EQUAL(port_pfc_quanta_ps(&pa, 65535), UINT64_C(335539200));
	for (int i = 0; i < 3; i++)
		port_enqueue(&pa, test_port_frame(&s, 1000, 3), 3, 1000);
	port_enqueue(&pa, test_port_frame(&s, 1000, 1), 1, 1000); /* another class: not paused */
	CU_ASSERT_EQUAL(port_pfc_send(&pb, 1u << 3, 1000), 0);
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(b.n, 4);
	CU_ASSERT_EQUAL(b.t_ps[0], frame_ps);              /* on the wire already */
	CU_ASSERT_EQUAL(b.tc[1], 1);                       /* TC1 goes during the pause */
	CU_ASSERT_EQUAL(b.t_ps[1], 2 * frame_ps);
	CU_ASSERT_EQUAL(b.t_ps[2], pfc_ps + 5120000 + frame_ps); /* TC3 after the pause */
	CU_ASSERT_EQUAL(pa.pfc->stats.xoff_rx[3], 1);
	CU_ASSERT_EQUAL(pa.pfc->stats.paused_ps[3], 5120000);
	port_fini(&pa);
	port_fini(&pb);
	sim_fini(&s);

	/* XON resumes at once: XOFF for the maximum, XON sent at 1 us. */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	port_connect(&pa, &pb, rate, 0);
	CU_ASSERT_EQUAL_FATAL(port_pfc_enable(&pa, ident), 0);
	sim_new_src(&s, &src);
	for (int i = 0; i < 2; i++)
		port_enqueue(&pa, test_port_frame(&s, 1000, 3), 3, 1000);
	port_pfc_send(&pb, 1u << 3, 0xFFFF);
	sim_at(&s, 1000000, &src, pfc_xon_at, &pb);
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(b.n, 2);
	CU_ASSERT_EQUAL(b.t_ps[1], 1000000 + pfc_ps + frame_ps);
	CU_ASSERT_EQUAL(pa.pfc->stats.xon_rx[3], 1);
	port_fini(&pa);
	port_fini(&pb);
	sim_fini(&s);
}

/* A departing hook that queues a control frame on the same port (a switch
 * sending XON as a departure frees buffer) must not start it inside the
 * frame that is starting: the link carries one frame at a time.
 * Independent expectation: the closed-form serialisation of back-to-back
 * frames (the control frame goes right after the data frame it was queued
 * under, before the next data frame). */
static int ctrl_sent;

static void ctrl_departing(void *owner, struct port *p, struct rte_mbuf *m, uint8_t tc,
			   uint32_t frame_bytes, uint32_t tag)
{
	(void)owner;
	(void)m;
	(void)frame_bytes;
	(void)tag;
	if (tc != PORT_TC_CTRL && !ctrl_sent) {
		ctrl_sent = 1;
		CU_ASSERT_EQUAL(port_pfc_send(p, 1u << 3, 0), 0);
	}
}

static const struct port_ops ctrl_ops = { .rx = sink_rx, .departing = ctrl_departing };

static void test_port_ctrl_from_departing(void)
{
	static const uint8_t ident[PKT_N_PRIO] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const uint64_t rate = UINT64_C(100000000000);
	struct sink a = { 0 }, b = { 0 };
	struct port pa, pb;
	struct port_stats st;
	struct sim s;
	uint64_t pfc_ps = pkt_ll_frame_ps(&pkt_ll_roce, 64, rate);
	uint64_t frame_ps = pkt_ll_frame_ps(&pkt_ll_roce, 1000, rate);

	for (int queued = 1; queued <= 2; queued++) {
		/* One frame (sent without an end-of-frame event) and two (with). */
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		ctrl_sent = 0;
		CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
		port_init(&pa, &s, &ctrl_ops, &a, 0, 0);
		port_init(&pb, &s, &sink_ops, &b, 1, 0);
		port_connect(&pa, &pb, rate, 1000);
		CU_ASSERT_EQUAL_FATAL(port_pfc_enable(&pa, ident), 0);
		CU_ASSERT_EQUAL_FATAL(port_pfc_enable(&pb, ident), 0);
		for (int i = 0; i < queued; i++)
			port_enqueue(&pa, test_port_frame(&s, 1000, 1), 1, 1000);
		sim_run(&s);
		/* The PFC frame is the receiving MAC's: b sees the data frames. */
		CU_ASSERT_EQUAL_FATAL(b.n, (uint32_t)queued);
		port_stats(&pb, &st);
		CU_ASSERT_EQUAL(st.rx_pkts, (uint64_t)queued + 1);
		CU_ASSERT_EQUAL(pa.ctrl_tx_pkts, 1);
		CU_ASSERT_EQUAL(b.t_ps[0], frame_ps + 1000);
		if (queued == 2)
			CU_ASSERT_EQUAL(b.t_ps[1], frame_ps + pfc_ps + frame_ps + 1000);
		port_stats(&pa, &st);
		CU_ASSERT_EQUAL(st.busy_ps, (uint64_t)queued * frame_ps + pfc_ps);
		port_fini(&pa);
		port_fini(&pb);
		sim_fini(&s);
	}
}

/* What port_flush_tc handed over: frames and bytes, freed here. */
struct flushed {
	struct sim *sim;      /* frees them */
	uint32_t n;           /* frames */
	uint64_t bytes;       /* their frame bytes */
};

static void flush_free(void *arg, struct rte_mbuf *m, uint32_t frame_bytes, uint32_t tag)
{
	struct flushed *f = arg;

	(void)tag;
	f->n++;
	f->bytes += frame_bytes;
	sim_pkt_free(f->sim, m);
}

/* Queue the same burst on @p: one TC3 frame (it starts at once), then
 * @n frames of TC1 and of TC3 alternately, all 1500 bytes. */
static void dwrr_burst(struct sim *s, struct port *p, int n)
{
	port_enqueue(p, test_port_frame(s, 1500, 3), 3, 1500);
	for (int i = 0; i < n; i++) {
		port_enqueue(p, test_port_frame(s, 1500, 1), 1, 1500);
		port_enqueue(p, test_port_frame(s, 1500, 3), 3, 1500);
	}
}

/* Flushing a class that carries DWRR credit while frames are queued on it
 * (what the PFC watchdog does to a stormed queue) leaves the port as if
 * the class had emptied by sending: its next backlog is scheduled exactly
 * as on a fresh port (independent expectation: a port that never saw the
 * flushed frames), not ahead by the credit the flushed frames held. */
static void test_port_flush_resets_dwrr(void)
{
	const uint64_t rate = UINT64_C(100000000000);
	struct sink a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
	struct port pa, pb, pc, pd;
	struct flushed fl;
	struct sim s;
	uint32_t queued1;
	uint64_t bytes1;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	fl = (struct flushed){ .sim = &s };
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	port_init(&pc, &s, &sink_ops, &c, 2, 0);
	port_init(&pd, &s, &sink_ops, &d, 3, 0);
	for (int i = 0; i < 2; i++) {
		struct port *p = i ? &pc : &pa;

		p->sched.strict_mask = 0;
		p->sched.quantum_bytes[1] = 2000; /* a 1500-byte frame leaves 500 of credit */
		p->sched.quantum_bytes[3] = 2000;
	}
	port_connect(&pa, &pb, rate, 0);
	port_connect(&pc, &pd, rate, 0);
	/* Two frames out (TC3, TC1) and TC3's turn on the wire: TC1 holds
	 * 500 bytes of credit and nine frames. (Flushed in its own turn, the
	 * round would resume after it, unlike on a fresh port.) */
	dwrr_burst(&s, &pa, 10);
	s.stop_ps = 2 * pkt_ll_frame_ps(&pkt_ll_roce, 1500, rate) + 1;
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(b.n, 2);
	CU_ASSERT_FATAL(pa.q[1].deficit > 0); /* the flush has credit to forget */
	queued1 = port_tc_len(&pa, 1);
	bytes1 = port_tc_bytes(&pa, 1);
	CU_ASSERT_EQUAL(queued1, 9);
	CU_ASSERT_EQUAL(port_flush_tc(&pa, 1, flush_free, &fl), queued1);
	CU_ASSERT_EQUAL(fl.n, queued1);
	CU_ASSERT_EQUAL(fl.bytes, bytes1);
	CU_ASSERT_EQUAL(port_tc_len(&pa, 1), 0);
	CU_ASSERT_EQUAL(port_tc_bytes(&pa, 1), 0);
	CU_ASSERT_EQUAL(pa.queue_bytes, port_tc_bytes(&pa, 3));
	CU_ASSERT_EQUAL(pa.nonempty_mask, 1u << 3);
	CU_ASSERT_EQUAL(port_flush_tc(&pa, 1, flush_free, &fl), 0); /* empty: nothing */
	s.stop_ps = 0;
	sim_run(&s); /* TC3 drains alone */
	CU_ASSERT_EQUAL(b.n, 2 + 10); /* the rest of TC3's (one was on the wire) */
	/* The same burst on the flushed port and on a fresh one. */
	b.n = 0;
	dwrr_burst(&s, &pa, 8);
	dwrr_burst(&s, &pc, 8);
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(b.n, 17);
	CU_ASSERT_EQUAL_FATAL(d.n, 17);
	for (int i = 0; i < 17; i++)
		CU_ASSERT_EQUAL(b.tc[i], d.tc[i]);

	CU_ASSERT_EQUAL(s.pkts_in_use, 0);
	port_fini(&pa);
	port_fini(&pb);
	port_fini(&pc);
	port_fini(&pd);
	sim_fini(&s);
}

/* port_last and port_take_last (UET's trim_pick: either takes the frame
 * queued last): behind a frame on the wire, TC1 holds frames of 1000,
 * 1100, 1200 and 1300 bytes; the last is the 1300-byte one, and taking it
 * leaves the counts as if it had never been queued (independent
 * expectation: the same frames but that one queued on a second port);
 * the three left go out first to last (their arrival times match the
 * second port's). Taking the last of a class empties it (its non-empty
 * bit off); from an empty class, nothing. */
static void test_port_take_last(void)
{
	const uint64_t rate = UINT64_C(100000000000);
	const uint32_t sizes[] = { 1000, 1100, 1200, 1300 };
	struct sink a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
	struct port pa, pb, pc, pd;
	struct port_slot sl;
	struct sim s;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	port_init(&pa, &s, &sink_ops, &a, 0, 0);
	port_init(&pb, &s, &sink_ops, &b, 1, 0);
	port_init(&pc, &s, &sink_ops, &c, 2, 0);
	port_init(&pd, &s, &sink_ops, &d, 3, 0);
	port_connect(&pa, &pb, rate, 0);
	port_connect(&pc, &pd, rate, 0);
	CU_ASSERT_PTR_NULL(port_last(&pa, 1));
	CU_ASSERT_FALSE(port_take_last(&pa, 1, &sl));
	port_enqueue(&pa, test_port_frame(&s, 1500, 3), 3, 1500); /* on the wire */
	port_enqueue(&pc, test_port_frame(&s, 1500, 3), 3, 1500);
	for (int i = 0; i < 4; i++) {
		port_enqueue(&pa, test_port_frame(&s, sizes[i], 1), 1, sizes[i]);
		if (i < 3)
			port_enqueue(&pc, test_port_frame(&s, sizes[i], 1), 1, sizes[i]);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(port_last(&pa, 1));
	CU_ASSERT_EQUAL((uint32_t)port_last(&pa, 1)->aux, 1300);
	CU_ASSERT_FATAL(port_take_last(&pa, 1, &sl));
	CU_ASSERT_EQUAL((uint32_t)sl.aux, 1300);
	CU_ASSERT_EQUAL(port_tc_len(&pa, 1), port_tc_len(&pc, 1));
	CU_ASSERT_EQUAL(port_tc_bytes(&pa, 1), port_tc_bytes(&pc, 1));
	CU_ASSERT_EQUAL(pa.queue_bytes, pc.queue_bytes);
	CU_ASSERT_EQUAL(pa.nonempty_mask, pc.nonempty_mask);
	sim_pkt_free(&s, sl.m);
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(b.n, 4);
	CU_ASSERT_EQUAL_FATAL(d.n, 4);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(b.t_ps[i], d.t_ps[i]);
	/* One frame queued: taking it empties the class. */
	port_enqueue(&pa, test_port_frame(&s, 1500, 3), 3, 1500);
	port_enqueue(&pa, test_port_frame(&s, 900, 1), 1, 900);
	CU_ASSERT(pa.nonempty_mask & (1u << 1));
	CU_ASSERT_FATAL(port_take_last(&pa, 1, &sl));
	CU_ASSERT_EQUAL(pa.nonempty_mask & (1u << 1), 0);
	CU_ASSERT_EQUAL(port_tc_bytes(&pa, 1), 0);
	CU_ASSERT_EQUAL((uint32_t)sl.aux, 900);
	sim_pkt_free(&s, sl.m);
	CU_ASSERT_FALSE(port_take_last(&pa, 1, &sl)); /* empty: nothing */
	sim_run(&s);
	CU_ASSERT_EQUAL(b.n, 5);
	CU_ASSERT_EQUAL(s.pkts_in_use, 0);
	port_fini(&pa);
	port_fini(&pb);
	port_fini(&pc);
	port_fini(&pd);
	sim_fini(&s);
}

int test_port_register(void)
{
	CU_pSuite s = CU_add_suite("port", NULL, NULL);

	if (!s || !CU_add_test(s, "serialisation exact at any rate", test_port_serialisation) ||
	    !CU_add_test(s, "strict priority", test_port_strict_priority) ||
	    !CU_add_test(s, "RoCE link-layer descriptor, control frames", test_port_ll_roce) ||
	    !CU_add_test(s, "DWRR byte shares follow weights", test_port_dwrr_shares) ||
	    !CU_add_test(s, "PFC pause time and XON", test_port_pfc_pause) ||
	    !CU_add_test(s, "control frame queued by a departing hook", test_port_ctrl_from_departing) ||
	    !CU_add_test(s, "a flushed class keeps no DWRR credit", test_port_flush_resets_dwrr) ||
	    !CU_add_test(s, "taking the frame queued last", test_port_take_last))
		return -1;
	return 0;
}
