/* Switch: ECMP spread over equal-cost ports (chi-square against uniform),
 * the path-choice registry and its policies (alone, one conformance body
 * over all of them, and in a switch), forwarding replaced during a run,
 * forwarding with header rewrite, tail drop on a full shared buffer,
 * HPCC's INT records (what a switch writes, the grown frame's timing),
 * and ECN curves and PFC alphas per port link rate (their keys, and what
 * a switch mixing 100G and 400G ports does with them). */
#include <math.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "cfg_schema.h"
#include "rng.h"
#include "sim.h"
#include "pkt_telemetry.h"
#include "pkt_view.h"
#include "port_pfc.h"
#include "sw.h"
#include "sw_int.h"
#include "test.h"

static void test_sw_ecmp_spread(void)
{
	for (uint32_t n_ports = 2; n_ports <= 16; n_ports *= 2) {
		uint32_t counts[16] = { 0 };
		const uint32_t flows = 32000;
		double chi2 = 0, expect = (double)flows / n_ports;
		struct rng rng;

		rng_init(&rng, 7, n_ports);
		for (uint32_t i = 0; i < flows; i++) {
			uint32_t src = addr_ep_ip((uint32_t)rng_below(&rng, 1024));
			uint32_t dst = addr_ep_ip((uint32_t)rng_below(&rng, 1024));
			uint16_t sport = (uint16_t)(0xC000 | rng_below(&rng, 0x4000));

			counts[sw_ecmp_hash(0x1234, src, dst, 17, sport, 4791) % n_ports]++;
		}
		for (uint32_t p = 0; p < n_ports; p++)
			chi2 += (counts[p] - expect) * (counts[p] - expect) / expect;
		/* 99.9th percentile of chi-square with n-1 <= 15 degrees of freedom is
		 * 37.7: a uniform hash stays below it but for one seed in 1000. */
		CU_ASSERT(chi2 < 37.7);
	}
	/* The switch's remainder by multiplication is the remainder, for any
	 * group size and hash value. */
	{
		struct rng rng;
		int bad = 0;

		rng_init(&rng, 3, 3);
		for (uint32_t n = 1; n <= 300 && !bad; n++) {
			uint64_t magic = UINT64_MAX / n + 1;

			for (int i = 0; i < 2000; i++) {
				uint32_t h = i < 4 ? (uint32_t)(UINT32_MAX - i) : (uint32_t)rng_next(&rng);

				if (sw_mod(h, magic, n) != h % n) {
					bad = 1;
					break;
				}
			}
		}
		CU_ASSERT(!bad);
	}
	/* The seed matters (no polarisation across tiers) and the hash is a
	 * pure function. */
	CU_ASSERT_NOT_EQUAL(sw_ecmp_hash(1, 10, 20, 17, 0xC001, 4791),
			    sw_ecmp_hash(2, 10, 20, 17, 0xC001, 4791));
	CU_ASSERT_EQUAL(sw_ecmp_hash(1, 10, 20, 17, 0xC001, 4791),
			sw_ecmp_hash(1, 10, 20, 17, 0xC001, 4791));
}

struct sw_sink {
	uint32_t n;              /* frames received */
	struct rte_mbuf *last;   /* last frame, kept */
};

static void sw_sink_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct sw_sink *s = owner;

	s->n++;
	if (s->last)
		sim_pkt_free(in->sim, s->last);
	s->last = m;
}

static const struct port_ops sw_sink_ops = { .rx = sw_sink_rx };

static struct rte_mbuf *roce_flow(struct sim *s, uint32_t dst_host, uint32_t payload, uint8_t dscp,
				  uint16_t sport)
{
	struct rte_mbuf *m = sim_pkt_alloc(s, false);
	struct pkt_roce f = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	f.addr.src_ip = addr_ep_ip(0);
	f.addr.dst_ip = addr_ep_ip(dst_host);
	f.addr.dscp = dscp;
	f.addr.ecn = PKT_ECN_ECT0;
	f.addr.ttl = 64;
	f.addr.udp_sport = sport;
	f.opcode = PKT_OP_WRITE_MIDDLE;
	f.pkey = 0xFFFF;
	f.payload_bytes = payload;
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
	return m;
}

static struct rte_mbuf *roce_dscp(struct sim *s, uint32_t dst_host, uint32_t payload, uint8_t dscp)
{
	return roce_flow(s, dst_host, payload, dscp, 0xC123);
}

static struct rte_mbuf *roce_to(struct sim *s, uint32_t dst_host, uint32_t payload)
{
	return roce_dscp(s, dst_host, payload, 26);
}

/* Send a built frame from a peer port toward the switch. */
static void inject(struct port *p, struct rte_mbuf *m)
{
	port_enqueue(p, m, 0, pkt_meta(m)->frame_bytes);
}

/* One switch with 3 ports: host 0 behind port 0, host 1 behind port 1,
 * host 2 behind port 2. */
/* Hosts 0..2 attach to ports 0..2: one destination class (the same
 * neighbour) with an empty row, and a row per attached host. */
static const uint32_t fib_class[] = { 0, 0, 0 };
static const uint32_t fib_class_off[] = { 0, 0 };
static const uint32_t fib_off[] = { 0, 1, 2, 3 };
static const uint16_t fib_ports[] = { 0, 1, 2 };
static const struct fib_rows rig_fib = {
	.n_eps = 3,
	.ep_class = fib_class,
	.n_classes = 1,
	.off = fib_class_off,
	.ports = fib_ports,
	.direct_lo = 0,
	.direct_n = 3,
	.direct_off = fib_off,
	.direct_ports = fib_ports,
};

/* Wire the switch's three ports to @peers, with @sinks behind them: the
 * link to host 1 at 10 Gb/s, the others at 100 Gb/s, all @delay_ps long;
 * the peers do PFC when @pfc. */
static void wire_into_slow_port(struct sim *s, struct sw *sw, struct port *peers,
				struct sw_sink *sinks, uint64_t delay_ps, bool pfc)
{
	static const uint8_t ident[PKT_N_PRIO] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint8_t mac[6] = { 0 };

	for (uint16_t i = 0; i < 3; i++) {
		port_init(&peers[i], s, &sw_sink_ops, &sinks[i], 1 + i, 0);
		if (pfc)
			CU_ASSERT_EQUAL_FATAL(port_pfc_enable(&peers[i], ident), 0);
		port_connect(sw_port(sw, i), &peers[i],
			     i == 1 ? UINT64_C(10000000000) : UINT64_C(100000000000), delay_ps);
		sw_set_next_hop_mac(sw, i, mac);
	}
}

/* Free the frames the sinks kept, the switch, its peers and @s. */
static void rig_free(struct sim *s, struct sw *sw, struct port *peers, struct sw_sink *sinks)
{
	for (int i = 0; i < 3; i++)
		if (sinks[i].last)
			sim_pkt_free(s, sinks[i].last);
	sw_free(sw);
	for (int i = 0; i < 3; i++)
		port_fini(&peers[i]);
	sim_fini(s);
}

static void test_sw_forward_and_rewrite(void)
{
	struct sw_params p = { .buffer_bytes = 1 << 20, .hash_seed = 1 };
	struct fib_rows fib = rig_fib;
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	struct sim s;
	struct sw *sw;
	uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	const uint8_t *d;
	struct pkt_roce parsed;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	for (int i = 0; i < 64; i++)
		p.dscp_to_prio[i] = (uint8_t)(i >> 3);
	for (int i = 0; i < 8; i++)
		p.prio_to_tc[i] = (uint8_t)i;
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (uint16_t i = 0; i < 3; i++) {
		port_init(&peers[i], &s, &sw_sink_ops, &sinks[i], 1 + i, 0);
		port_connect(sw_port(sw, i), &peers[i], UINT64_C(100000000000), 1000);
		mac[5] = (uint8_t)(0x10 + i);
		sw_set_next_hop_mac(sw, i, mac);
	}
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	inject(&peers[0], roce_to(&s, 1, 1000));
	inject(&peers[0], roce_to(&s, 2, 1000));
	inject(&peers[0], roce_to(&s, 77, 1000)); /* not a host of the plan */
	sim_run(&s);
	CU_ASSERT_EQUAL(sinks[1].n, 1);
	CU_ASSERT_EQUAL(sinks[2].n, 1);
	CU_ASSERT_EQUAL(sw_stats(sw)->drops[SW_DROP_NO_ROUTE], 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sinks[2].last);
	d = rte_pktmbuf_mtod(sinks[2].last, const uint8_t *);
	CU_ASSERT_EQUAL(d[5], 0x12);       /* next-hop MAC */
	CU_ASSERT_EQUAL(d[7], 0x01);       /* source: a switch port MAC */
	CU_ASSERT_EQUAL(pkt_parse_roce(sinks[2].last, &parsed), 0);
	CU_ASSERT_EQUAL(parsed.addr.ttl, 63);
	CU_ASSERT_EQUAL(pkt_meta(sinks[2].last)->tc, 3); /* DSCP 26 -> TC 3 */
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
	CU_ASSERT_EQUAL(s.pkts_in_use, 2); /* the two frames the sinks keep */
	rig_free(&s, sw, peers, sinks);
}

static void test_sw_tail_drop(void)
{
	struct sw_params p = { .buffer_bytes = 10 * 1100, .hash_seed = 1 };
	struct fib_rows fib = rig_fib;
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	struct sim s;
	struct sw *sw;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	/* Ingress links 10x faster than the egress toward host 1. */
	wire_into_slow_port(&s, sw, peers, sinks, 0, false);
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	for (int i = 0; i < 50; i++) {
		inject(&peers[0], roce_to(&s, 1, 1000));
		inject(&peers[2], roce_to(&s, 1, 1000));
	}
	sim_run(&s);
	CU_ASSERT(sw_stats(sw)->drops[SW_DROP_BUFFER] > 0);
	CU_ASSERT_EQUAL(sinks[1].n + sw_stats(sw)->drops[SW_DROP_BUFFER], 100);
	CU_ASSERT(sw_stats(sw)->buffer_peak_bytes <= p.buffer_bytes);
	rig_free(&s, sw, peers, sinks);
}

static void test_sw_pfc_lossless(void)
{
	struct sw_params p = { .buffer_bytes = 200 * 1000, .hash_seed = 1, .max_frame_bytes = 1100 };
	struct fib_rows fib = rig_fib;
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	uint64_t xoff_tx = 0, xon_tx = 0, headroom = 0;
	struct sim s;
	struct sw *sw;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];

	/* Two 100 Gb/s sources into one 10 Gb/s egress, priority 3 lossless
	 * with a static 8000-byte XOFF and 4000-byte XON. Independent
	 * expectations (IEEE 802.1Qbb semantics and the configuration): no
	 * frame is lost, the switch pauses both sources and resumes them, and
	 * no ingress group ever holds more than its XOFF threshold plus its
	 * headroom, so the buffer peak stays within 2 x (XOFF + headroom). */
	for (int i = 0; i < 64; i++)
		p.dscp_to_prio[i] = (uint8_t)(i >> 3);
	for (int i = 0; i < 8; i++)
		p.prio_to_tc[i] = (uint8_t)i;
	p.pfc.lossless_prio = 1u << 3;
	p.pfc.xoff_bytes = 8000;
	p.pfc.xon_bytes = 4000;
	p.pfc.quanta = 0xFFFF;
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	wire_into_slow_port(&s, sw, peers, sinks, 1000000, true);
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	CU_ASSERT_STRING_EQUAL(warn, "");
	headroom = sw_headroom_bytes(UINT64_C(100000000000), 1000000, 1100);
	for (int i = 0; i < 100; i++) {
		/* The sources queue them on TC 3, the class PFC pauses. */
		struct rte_mbuf *a = roce_to(&s, 1, 1000), *b = roce_to(&s, 1, 1000);

		port_enqueue(&peers[0], a, 3, pkt_meta(a)->frame_bytes);
		port_enqueue(&peers[2], b, 3, pkt_meta(b)->frame_bytes);
	}
	sim_run(&s);
	CU_ASSERT_EQUAL(sinks[1].n, 200);
	for (int d = 0; d < SW_DROP_N; d++)
		CU_ASSERT_EQUAL(sw_stats(sw)->drops[d], 0);
	for (uint16_t i = 0; i < 3; i += 2) {
		const struct port_pfc *f = sw_port(sw, i)->pfc;

		xoff_tx += f->stats.xoff_tx[3];
		xon_tx += f->stats.xon_tx[3];
		CU_ASSERT(peers[i].pfc->stats.xoff_rx[3] > 0); /* the source was paused */
		CU_ASSERT(peers[i].pfc->stats.paused_ps[3] > 0);
	}
	CU_ASSERT(xoff_tx > 0);
	CU_ASSERT(xon_tx > 0);
	CU_ASSERT(sw_stats(sw)->buffer_peak_bytes <= 2 * (p.pfc.xoff_bytes + headroom));
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
	rig_free(&s, sw, peers, sinks);
}

/* Lossless frames paused while lossy ones fill the shared pool: a paused
 * group that drains completely while the pool is still full must be
 * resumed (XON) once the pool drains, although no frame of its own leaves
 * any more. Independent expectation (IEEE 802.1Qbb semantics and the
 * dynamic-threshold rule of the configuration): every lossless frame is
 * delivered, the source ends unpaused, and the run ends by itself (a pause
 * kept refreshed for ever keeps the event queue alive). */
static void test_sw_pfc_xon_after_pool_drains(void)
{
	struct sw_params p = { .buffer_bytes = 400 * 1000, .hash_seed = 1, .max_frame_bytes = 1100 };
	struct fib_rows fib = rig_fib;
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	struct sim s;
	struct sw *sw;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	uint32_t lossless = 0;

	for (int i = 0; i < 64; i++)
		p.dscp_to_prio[i] = (uint8_t)(i >> 3);
	for (int i = 0; i < 8; i++)
		p.prio_to_tc[i] = (uint8_t)i;
	p.sched.strict_mask = 1u << 3; /* the lossless class drains first */
	for (int i = 0; i < 8; i++)
		p.sched.quantum_bytes[i] = 4608;
	p.pfc.lossless_prio = 1u << 3;
	p.pfc.alpha_q16 = SW_Q16 / 8;
	p.pfc.xon_offset_bytes = 2000;
	p.pfc.quanta = 0xFFFF;
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	s.stop_ps = UINT64_C(20000000000); /* 20 ms: far beyond what the traffic needs */
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	wire_into_slow_port(&s, sw, peers, sinks, 1000000, true);
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	for (int i = 0; i < 100; i++) {
		/* Port 0: lossless (DSCP 26, priority 3) on TC 3, which PFC pauses. */
		struct rte_mbuf *a = roce_to(&s, 1, 1000);

		port_enqueue(&peers[0], a, 3, pkt_meta(a)->frame_bytes);
	}
	for (int i = 0; i < 260; i++) {
		/* Port 2: lossy (DSCP 8, priority 1), enough to fill the pool. */
		struct rte_mbuf *b = roce_dscp(&s, 1, 1000, 8);

		port_enqueue(&peers[2], b, 1, pkt_meta(b)->frame_bytes);
	}
	sim_run(&s);
	CU_ASSERT(!s.stopped);
	CU_ASSERT(sw_port(sw, 0)->pfc->stats.xoff_tx[3] > 0);
	CU_ASSERT(sw_port(sw, 0)->pfc->stats.xon_tx[3] > 0);
	CU_ASSERT_EQUAL(peers[0].pfc->paused_prio, 0);
	CU_ASSERT_EQUAL(sw_port_stats(sw, 1)->drops[SW_DROP_HEADROOM], 0);
	/* All lossless frames arrived; lossy ones may have been dropped. */
	lossless = sinks[1].n - (260 - (uint32_t)sw_stats(sw)->drops[SW_DROP_BUFFER]);
	CU_ASSERT_EQUAL(lossless, 100);
	CU_ASSERT(sw_stats(sw)->drops[SW_DROP_BUFFER] < 260);
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
	rig_free(&s, sw, peers, sinks);
}

/* The registry: the built-in names in order, the default first (added
 * policies, as the toy suite's, follow them), each found by its name;
 * unknown names (and other spellings) are not. */
static void test_sw_path_registry(void)
{
	static const char *const want[] = { "ecmp", "first", "spray", "round-robin", "flowlet",
					    "adaptive" };
	const char *const *names = sw_path_names();
	size_t n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(names);
	for (; names[n]; n++) {
		const struct sw_path_ops *ops = sw_path_find(names[n]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(ops);
		CU_ASSERT_STRING_EQUAL(ops->kind.name, names[n]);
		CU_ASSERT_PTR_NOT_NULL(ops->kind.doc);
		CU_ASSERT_PTR_NOT_NULL(ops->pick);
		if (n < sizeof(want) / sizeof(want[0]))
			CU_ASSERT_STRING_EQUAL(names[n], want[n]);
	}
	CU_ASSERT(n >= sizeof(want) / sizeof(want[0]));
	CU_ASSERT_PTR_NULL(sw_path_find("ECMP"));
	CU_ASSERT_PTR_NULL(sw_path_find("sprey"));
	CU_ASSERT_PTR_NULL(sw_path_find("round_robin"));
	CU_ASSERT_PTR_NULL(sw_path_find(""));
}

/* The policies alone, over many 5-tuples and group sizes: ecmp is the
 * switch's old choice (flow hash modulo the group size), first is always
 * the lowest port. */
static void test_sw_path_picks(void)
{
	const struct sw_path_ops *ecmp = sw_path_find("ecmp"), *first = sw_path_find("first");
	uint16_t ports[64];
	struct sw_path_env env = { 0 };
	struct rng rng;
	int bad_ecmp = 0, bad_first = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ecmp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(first);
	for (uint16_t i = 0; i < 64; i++)
		ports[i] = (uint16_t)(3 + 2 * i);
	rng_init(&rng, 11, 5);
	for (uint32_t n = 2; n <= 64; n++) {
		uint64_t magic = UINT64_MAX / n + 1, seed = rng_next(&rng);

		for (int i = 0; i < 500; i++) {
			uint32_t src = addr_ep_ip((uint32_t)rng_below(&rng, 4096));
			uint32_t dst = addr_ep_ip((uint32_t)rng_below(&rng, 4096));
			uint16_t sport = (uint16_t)(0xC000 | rng_below(&rng, 0x4000));
			uint32_t h = sw_ecmp_hash(seed, src, dst, 17, sport, PKT_ROCE_UDP_PORT);

			bad_ecmp += ecmp->pick(&env, 0, ports, n, magic, h) != h % n;
			bad_first += first->pick(&env, 0, ports, n, magic, h) != 0;
		}
	}
	CU_ASSERT_EQUAL(bad_ecmp, 0);
	CU_ASSERT_EQUAL(bad_first, 0);
}

/* ---- a policy alone: its env over unconnected ports whose queues the
 * test fills, the clock set by hand ---- */

enum {
	TP_PORTS = 64,          /* ports of the switch a policy sees */
	TP_FRAME_PAYLOAD = 1000 /* payload of the frames that fill queues */
};

struct tp_rig {
	struct port ports[TP_PORTS]; /* the switch's ports (unconnected, TC 0 paused) */
	struct sim s;                /* their simulation: the clock of env */
	struct sw_path_env env;      /* what the policy sees */
	uint32_t frame_bytes;        /* bytes of one filling frame */
};

/* A rig for @ops with settings @pp (NULL: flowlet gap 10 us, random,
 * bias 0), its stream from @seed, with @n_grps group slots. */
static struct tp_rig *tp_new(const struct sw_path_ops *ops, const struct sw_path_params *pp,
			     uint64_t seed, uint32_t n_grps)
{
	const struct sw_path_params dflt = { .flowlet_gap_ps = 10000000 };
	struct tp_rig *r = aligned_alloc(64, sizeof(*r));

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	memset(r, 0, sizeof(*r));
	CU_ASSERT_EQUAL_FATAL(sim_init(&r->s, 1, test_mempool()), 0);
	for (uint16_t i = 0; i < TP_PORTS; i++) {
		port_init(&r->ports[i], &r->s, &sw_sink_ops, NULL, 1, i);
		port_set_paused(&r->ports[i], 0, true); /* what is queued stays */
	}
	CU_ASSERT_EQUAL_FATAL(sw_path_env_init(&r->env, ops, pp ? pp : &dflt, r->ports, &r->s, seed),
			      0);
	/* The group slots a switch hands its policy with its groups. */
	if (r->env.grp_state_bytes) {
		r->env.grp_slots = calloc(n_grps ? n_grps : 1, r->env.grp_state_bytes);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r->env.grp_slots);
	}
	r->env.n_grps = n_grps;
	return r;
}

static void tp_free(struct tp_rig *r)
{
	sw_path_env_fini(&r->env);
	for (uint16_t i = 0; i < TP_PORTS; i++)
		port_fini(&r->ports[i]);
	sim_fini(&r->s);
	free(r);
}

/* Queue @n_frames more frames on port @i. */
static void tp_fill(struct tp_rig *r, uint16_t i, uint32_t n_frames)
{
	for (uint32_t k = 0; k < n_frames; k++) {
		struct rte_mbuf *m = roce_to(&r->s, 1, TP_FRAME_PAYLOAD);

		r->frame_bytes = pkt_meta(m)->frame_bytes;
		port_enqueue(&r->ports[i], m, 0, r->frame_bytes);
	}
}

static uint32_t tp_pick(struct tp_rig *r, const struct sw_path_ops *ops, uint32_t grp,
			const uint16_t *ports, uint32_t n, uint32_t h)
{
	return ops->pick(&r->env, grp, ports, n, UINT64_MAX / n + 1, h);
}

enum {
	TPC_GROUPS = 8,      /* groups of the conformance run */
	TPC_STEPS = 120000,  /* choices per phase */
	TPC_FLOWS = 64,      /* recurring flows (the rest are new each time) */
};

/* The conformance body, run over every registered policy with two sets
 * of settings: for groups of 2 to 64 ports, frames of recurring and new
 * flows at random times, first on empty queues, then on unevenly filled
 * ones. Independent expectations (the contract of sw_path_ops.pick and of
 * sw_path.h): every choice is an index below the group's size; two
 * switches with the same seed, settings and frames choose the same; on an
 * idle switch every port of every group is taken by some frame (but for
 * first, single-path by definition: always index 0). */
static void test_sw_path_conformance(void)
{
	static const uint32_t sizes[TPC_GROUPS] = { 2, 3, 4, 5, 7, 8, 16, 64 };
	const struct sw_path_params settings[] = {
		{ .flowlet_gap_ps = 2000000 },
		{ .flowlet_gap_ps = 500000, .flowlet_pick = SW_PATH_FLOWLET_LEAST_LOADED,
		  .adaptive_bias_bytes = 2000 },
	};
	uint16_t all[TP_PORTS];

	for (uint16_t i = 0; i < TP_PORTS; i++)
		all[i] = i;
	for (const char *const *nm = sw_path_names(); *nm; nm++) {
		const struct sw_path_ops *ops = sw_path_find(*nm);

		for (size_t v = 0; v < sizeof(settings) / sizeof(settings[0]); v++) {
			struct tp_rig *a = tp_new(ops, &settings[v], 0xabc + v, TPC_GROUPS);
			struct tp_rig *b = tp_new(ops, &settings[v], 0xabc + v, TPC_GROUPS);
			uint32_t flows[TPC_FLOWS], off[TPC_GROUPS];
			int out_of_range = 0, differ = 0, unreached = 0;
			uint64_t now = 0;
			struct rng rng;

			rng_init(&rng, 99, v);
			for (uint32_t f = 0; f < TPC_FLOWS; f++)
				flows[f] = (uint32_t)rng_next(&rng);
			for (uint32_t g = 0; g < TPC_GROUPS; g++)
				off[g] = (g * 5) % (TP_PORTS - sizes[g] + 1);
			for (int phase = 0; phase < 2; phase++) {
				static uint32_t hits[TPC_GROUPS][TP_PORTS];

				memset(hits, 0, sizeof(hits));
				if (phase == 1)
					for (uint16_t i = 0; i < TP_PORTS; i++) {
						tp_fill(a, i, (i * 7u) % 5);
						tp_fill(b, i, (i * 7u) % 5);
					}
				for (uint32_t k = 0; k < TPC_STEPS; k++) {
					uint32_t g = (uint32_t)rng_below(&rng, TPC_GROUPS), n = sizes[g];
					uint32_t h = rng_below(&rng, 2) ? flows[rng_below(&rng, TPC_FLOWS)]
									: (uint32_t)rng_next(&rng);
					uint32_t pa, pb;

					now += rng_below(&rng, 3000000);
					a->s.now_ps = b->s.now_ps = now;
					pa = tp_pick(a, ops, g, &all[off[g]], n, h);
					pb = tp_pick(b, ops, g, &all[off[g]], n, h);
					out_of_range += pa >= n;
					differ += pa != pb;
					if (pa < n)
						hits[g][pa]++;
				}
				for (uint32_t g = 0; phase == 0 && g < TPC_GROUPS; g++)
					for (uint32_t i = 0; i < sizes[g]; i++)
						unreached += strcmp(*nm, "first") == 0 ? (i == 0) != (hits[g][i] > 0)
										       : hits[g][i] == 0;
			}
			if (out_of_range || differ || unreached)
				fprintf(stderr, "\n  %s (settings %zu): %d out of range, %d differ, %d unreached\n",
					*nm, v, out_of_range, differ, unreached);
			CU_ASSERT_EQUAL(out_of_range, 0);
			CU_ASSERT_EQUAL(differ, 0);
			CU_ASSERT_EQUAL(unreached, 0);
			tp_free(a);
			tp_free(b);
		}
	}
}

/* Spray is uniform for every group size, even for one flow (ecmp would
 * send it all to one port). Chi-square against uniform over 2000 x n
 * frames: below the 99.9th percentile of chi-square with n - 1 degrees of
 * freedom (the standard table); a uniform source stays below it but for
 * one stream in 1000, and the stream here is fixed by its seed. */
static void test_sw_path_spray_uniform(void)
{
	static const double chi2_999[16] = { 0,      10.828, 13.816, 16.266, 18.467, 20.515,
					     22.458, 24.322, 26.124, 27.877, 29.588, 31.264,
					     32.909, 34.528, 36.123, 37.697 };
	const struct sw_path_ops *spray = sw_path_find("spray");
	uint16_t ports[16];

	CU_ASSERT_PTR_NOT_NULL_FATAL(spray);
	for (uint16_t i = 0; i < 16; i++)
		ports[i] = (uint16_t)(2 * i + 1);
	for (uint32_t n = 2; n <= 16; n++) {
		struct tp_rig *r = tp_new(spray, NULL, 0x5eed + n, 1);
		uint32_t counts[16] = { 0 }, frames = 2000 * n;
		double chi2 = 0, expect = 2000;

		for (uint32_t k = 0; k < frames; k++)
			counts[tp_pick(r, spray, 0, ports, n, 0x1234567)]++;
		for (uint32_t i = 0; i < n; i++)
			chi2 += (counts[i] - expect) * (counts[i] - expect) / expect;
		if (chi2 >= chi2_999[n - 1])
			fprintf(stderr, "\n  spray over %u ports: chi-square %.2f\n", n, chi2);
		CU_ASSERT(chi2 < chi2_999[n - 1]);
		tp_free(r);
	}
}

/* Round robin: each group cycles through its ports exactly (index i of
 * its k-th frame is k mod n, from the first port), whatever the flows and
 * however the groups' frames interleave; rebuilt groups start again. */
static void test_sw_path_rr_cycles(void)
{
	const struct sw_path_ops *rr = sw_path_find("round-robin");
	static const uint16_t g0[] = { 4, 6, 9 }, g1[] = { 1, 2, 3, 5, 8 };
	uint32_t seen[2] = { 0 };
	int bad = 0;
	struct tp_rig *r;
	struct rng rng;

	CU_ASSERT_PTR_NOT_NULL_FATAL(rr);
	r = tp_new(rr, NULL, 3, 2);
	rng_init(&rng, 5, 5);
	for (int k = 0; k < 1000; k++) {
		uint32_t g = (uint32_t)rng_below(&rng, 2), n = g ? 5 : 3;
		uint32_t i = tp_pick(r, rr, g, g ? g1 : g0, n, (uint32_t)rng_next(&rng));

		bad += i != seen[g]++ % n;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(seen[0] > 400 && seen[1] > 400); /* both groups were exercised */
	/* Groups rebuilt (sw_fib_commit hands fresh zeroed slots): the
	 * counters start again. */
	memset(r->env.grp_slots, 0, 2 * r->env.grp_state_bytes);
	CU_ASSERT_EQUAL(tp_pick(r, rr, 1, g1, 5, 7), 0);
	CU_ASSERT_EQUAL(tp_pick(r, rr, 1, g1, 5, 7), 1);
	tp_free(r);
}

enum {
	TPF_GAP_PS = 10000000, /* the flowlet gap of these tests: 10 us */
	TPF_FLOWS = 256,       /* flows, one slot each */
};

/* Flowlet, random picks: frames of a flow no further apart than the gap
 * keep its port (a gap exactly equal does not exceed it), for every flow;
 * after an idle gap longer than it, each flow draws again: about 3 in 4
 * move to another of the 4 ports (at least half here: the binomial's mean
 * is 192 with sd 7), and new flowlets reach every port. Independent
 * expectation: the flowlet definition (Kandula et al.; LetFlow). */
static void test_sw_path_flowlet_gap(void)
{
	const struct sw_path_ops *fl = sw_path_find("flowlet");
	const struct sw_path_params pp = { .flowlet_gap_ps = TPF_GAP_PS };
	static const uint16_t ports[] = { 1, 2, 3, 4 };
	uint32_t first[TPF_FLOWS], reached[4] = { 0 }, moved = 0;
	int kept_bad = 0;
	struct tp_rig *r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fl);
	r = tp_new(fl, &pp, 11, 1);
	for (uint32_t f = 0; f < TPF_FLOWS; f++)
		first[f] = tp_pick(r, fl, 0, ports, 4, f);
	for (int k = 1; k <= 3; k++) {
		r->s.now_ps = (uint64_t)k * TPF_GAP_PS;
		for (uint32_t f = 0; f < TPF_FLOWS; f++)
			kept_bad += tp_pick(r, fl, 0, ports, 4, f) != first[f];
	}
	CU_ASSERT_EQUAL(kept_bad, 0);
	r->s.now_ps = 4 * TPF_GAP_PS + 1;
	for (uint32_t f = 0; f < TPF_FLOWS; f++) {
		uint32_t i = tp_pick(r, fl, 0, ports, 4, f);

		moved += i != first[f];
		reached[i]++;
	}
	CU_ASSERT(moved > TPF_FLOWS / 2 && moved < TPF_FLOWS);
	for (int i = 0; i < 4; i++)
		CU_ASSERT(reached[i] > 0);
	tp_free(r);
}

/* Flowlet, least-loaded picks, and slots shared across groups. A new
 * flowlet takes the port with the fewest queued bytes; it keeps it while
 * the gap is not exceeded even when that port fills; after the gap it
 * moves to the now least-loaded one. A slot left by a flow of a larger
 * group is never taken for an index beyond a smaller group (flows of both
 * share the slot), nor for a port that is not in the group. */
static void test_sw_path_flowlet_least_loaded(void)
{
	const struct sw_path_ops *fl = sw_path_find("flowlet");
	const struct sw_path_params pp = { .flowlet_gap_ps = TPF_GAP_PS,
					   .flowlet_pick = SW_PATH_FLOWLET_LEAST_LOADED };
	static const uint16_t big[] = { 10, 11, 12, 13, 14, 15, 16, 17 }, small[] = { 20, 21 },
			      mid[] = { 11, 17, 30 };
	struct tp_rig *r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fl);
	r = tp_new(fl, &pp, 12, 1);
	for (uint16_t i = 0; i < 8; i++)
		tp_fill(r, big[i], i == 6 ? 0 : 1 + i % 3); /* port 16 (index 6) empty */
	CU_ASSERT_EQUAL(tp_pick(r, fl, 0, big, 8, 77), 6);
	tp_fill(r, 16, 10);
	r->s.now_ps = TPF_GAP_PS;
	CU_ASSERT_EQUAL(tp_pick(r, fl, 0, big, 8, 77), 6); /* within the gap: kept */
	r->s.now_ps = 2 * TPF_GAP_PS + 1;
	/* Loads now 1, 2, 3, 1, 2, 3, 10, 2 frames: ports 10 and 13 least. */
	{
		uint32_t i = tp_pick(r, fl, 0, big, 8, 77);

		CU_ASSERT(i == 0 || i == 3);
	}
	/* The same slot (hash 77 and 77 + SW_PATH_FLOW_SLOTS) from a group of
	 * two within the gap: index 3 is beyond the group, index 0 holds
	 * another port. */
	CU_ASSERT(tp_pick(r, fl, 0, small, 2, 77 + SW_PATH_FLOW_SLOTS) < 2);
	/* And back to a group holding index 1 but another port there: a new
	 * flowlet on the least loaded of 11, 17, 30 (30 is empty). */
	r->s.now_ps += 1;
	CU_ASSERT_EQUAL(tp_pick(r, fl, 0, mid, 3, 77), 2);
	tp_free(r);
}

/* Adaptive: given queue states, the least-loaded port; with a bias, the
 * hash port (ecmp's h mod n) while its queue is within the bias of the
 * least, another beyond; equally loaded ports other than the hash port
 * share the frames (4000 frames over 4: each within 1000 +- 200, more
 * than 7 sd of the binomial), the hash port none; on an idle switch the
 * hash port (adaptive routes like ecmp). */
static void test_sw_path_adaptive(void)
{
	const struct sw_path_ops *ad = sw_path_find("adaptive");
	static const uint16_t ports[] = { 1, 2, 3, 4, 5 };
	static const uint32_t loads[] = { 4, 2, 3, 1, 5 };
	struct sw_path_params pp = { 0 };
	const uint32_t h = 0xfeed;
	const uint32_t hp = h % 5; /* the hash port's index */
	uint32_t counts[5] = { 0 };
	int bad = 0;
	struct tp_rig *r;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ad);
	r = tp_new(ad, &pp, 21, 1);
	for (uint32_t k = 0; k < 50; k++)
		bad += tp_pick(r, ad, 0, ports, 5, k * 0x9e3779b9u) != k * 0x9e3779b9u % 5;
	CU_ASSERT_EQUAL(bad, 0); /* idle: ecmp */
	for (uint16_t i = 0; i < 5; i++)
		tp_fill(r, ports[i], loads[i]);
	for (uint32_t k = 0; k < 100; k++)
		bad += tp_pick(r, ad, 0, ports, 5, k * 0x9e3779b9u) != 3;
	CU_ASSERT_EQUAL(bad, 0);
	tp_free(r);

	/* The hash port holds 2 frames, one other none, the rest 3. */
	for (int within = 0; within < 2; within++) {
		r = tp_new(ad, &pp, 22, 1);
		for (uint16_t i = 0; i < 5; i++)
			tp_fill(r, ports[i], i == hp ? 2 : i == (hp + 2) % 5 ? 0 : 3);
		r->env.p.adaptive_bias_bytes = 2 * r->frame_bytes - (within ? 0 : 1);
		CU_ASSERT_EQUAL(tp_pick(r, ad, 0, ports, 5, h), within ? hp : (hp + 2) % 5);
		tp_free(r);
	}

	/* Ties: the hash port holds a frame, the others none. */
	r = tp_new(ad, &pp, 23, 1);
	tp_fill(r, ports[hp], 1);
	for (int k = 0; k < 4000; k++)
		counts[tp_pick(r, ad, 0, ports, 5, h)]++;
	for (uint32_t i = 0; i < 5; i++) {
		if (i == hp)
			CU_ASSERT_EQUAL(counts[i], 0);
		if (i != hp)
			CU_ASSERT(counts[i] > 800 && counts[i] < 1200);
	}
	tp_free(r);
}

/* ---- policies in a switch ---- */

enum {
	PR_PORTS = 6,   /* port 0: host 0 (the sender); ports 1..5: the group toward host 1 */
	PR_LOG = 2048,  /* frames a rig records */
};

/* Frames as they reached the sinks, in arrival order. */
struct pr_log {
	uint32_t n;              /* frames */
	uint16_t port[PR_LOG];   /* the switch port each left by */
	uint16_t sport[PR_LOG];  /* its UDP source port (its flow) */
	uint8_t hlim[PR_LOG];    /* IPv6 frames: their hop limit */
	uint8_t tclass[PR_LOG];  /* IPv6 frames: their traffic class */
	uint8_t src8[PR_LOG];    /* IPv6 frames: their source address's byte 8 */
};

struct pr_sink {
	struct pr_log *log;      /* shared by the rig's sinks */
	uint16_t port;           /* the switch port behind it */
};

static void pr_sink_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct pr_sink *k = owner;
	struct pkt_roce f;

	const uint8_t *d = pkt_data(m);

	if (k->log->n < PR_LOG && pkt_parse_roce(m, &f) == 0) {
		k->log->port[k->log->n] = k->port;
		k->log->sport[k->log->n] = f.addr.udp_sport;
	} else if (k->log->n < PR_LOG && d[12] == 0x86 && d[13] == 0xdd) {
		/* IPv6 (as ip6_frame builds it): read where RFC 8200 puts them. */
		k->log->port[k->log->n] = k->port;
		k->log->sport[k->log->n] = (uint16_t)(d[54] << 8 | d[55]);
		k->log->hlim[k->log->n] = d[21];
		k->log->tclass[k->log->n] = (uint8_t)(d[14] << 4 | d[15] >> 4);
		k->log->src8[k->log->n] = d[30];
	}
	k->log->n++;
	sim_pkt_free(in->sim, m);
}

static const struct port_ops pr_sink_ops = { .rx = pr_sink_rx };

/* Host 0 behind port 0, host 1 behind the ports of a group. */
static const uint32_t pr_class[] = { 0, 1 };
static const uint32_t pr_direct_off[] = { 0, 1 };
static const uint16_t pr_direct_ports[] = { 0 };
static const uint16_t pr_up[] = { 1, 2, 3, 4, 5 };

/* Rows with host 1 behind @ports[0..@n) (@off: 3 offsets the rows use). */
static struct fib_rows pr_fib(uint32_t off[3], const uint16_t *ports, uint32_t n)
{
	off[0] = 0;
	off[1] = 0;
	off[2] = n;
	return (struct fib_rows){ .n_eps = 2, .ep_class = pr_class, .n_classes = 2,
				  .off = off, .ports = ports, .direct_lo = 0, .direct_n = 1,
				  .direct_off = pr_direct_off, .direct_ports = pr_direct_ports };
}

struct pr_rig {
	struct port peers[PR_PORTS];   /* the far ends of the switch's links */
	struct pr_sink sinks[PR_PORTS]; /* behind them */
	struct pr_log log;             /* what arrived */
	struct sim s;                  /* the simulation */
	struct sw *sw;                 /* the switch */
};

/* A switch with policy @ops and @seed forwarding host 1 to ports 1..5;
 * links of 1 ns, the sender's at 100 Gb/s and the group's at 25 Gb/s, so
 * that a port the frames pile on builds a queue (which adaptive sees). */
static struct pr_rig *pr_new(const struct sw_path_ops *ops, uint64_t seed)
{
	struct sw_params p = { .buffer_bytes = 1 << 20, .hash_seed = seed, .path = ops,
			       .path_params = { .flowlet_gap_ps = 500000 } };
	struct pr_rig *r = aligned_alloc(64, sizeof(*r));
	static const uint8_t mac[6] = { 0 };
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	uint32_t off[3];
	struct fib_rows fib = pr_fib(off, pr_up, 5);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	memset(r, 0, sizeof(*r));
	CU_ASSERT_EQUAL_FATAL(sim_init(&r->s, 1, test_mempool()), 0);
	r->sw = sw_new(&r->s, 0, 0, PR_PORTS, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->sw);
	for (uint16_t i = 0; i < PR_PORTS; i++) {
		r->sinks[i].log = &r->log;
		r->sinks[i].port = i;
		port_init(&r->peers[i], &r->s, &pr_sink_ops, &r->sinks[i], 1 + i, 0);
		port_connect(sw_port(r->sw, i), &r->peers[i],
			     i == 0 ? UINT64_C(100000000000) : UINT64_C(25000000000), 1000);
		sw_set_next_hop_mac(r->sw, i, mac);
	}
	CU_ASSERT_EQUAL_FATAL(sw_ready(r->sw, err, warn), 0);
	return r;
}

static void pr_free(struct pr_rig *r)
{
	sw_free(r->sw);
	for (int i = 0; i < PR_PORTS; i++)
		port_fini(&r->peers[i]);
	CU_ASSERT_EQUAL(r->s.pkts_in_use, 0);
	sim_fini(&r->s);
	free(r);
}

/* Send @n_flows x @per_flow frames from host 0 to host 1, the flows'
 * frames interleaved, and run until they arrive. */
static void pr_send(struct pr_rig *r, uint16_t n_flows, uint32_t per_flow)
{
	for (uint32_t k = 0; k < per_flow; k++)
		for (uint16_t f = 0; f < n_flows; f++)
			inject(&r->peers[0], roce_flow(&r->s, 1, 1000, 26, (uint16_t)(0xC000 + 7 * f)));
	sim_run(&r->s);
}

/* A recording policy the switch calls (SW_PATH_CALL) with a per-flow
 * slot: it notes each call's flow hash, group and slot and sends
 * everything to the last port of the group. */
enum { PATH_REC_N = 256 };
static struct {
	uint32_t n;                     /* calls */
	uint32_t hash[PATH_REC_N];      /* flow hash of each */
	uint32_t grp[PATH_REC_N];       /* group of each */
	void *slot[PATH_REC_N];         /* slot it was given */
	uint64_t first_val;             /* content of the first slot at the first call */
	const uint8_t *slots;           /* the switch's slot table */
} path_rec;

static uint32_t path_rec_pick(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
			      uint32_t n_ports, uint64_t magic, uint32_t flow_hash)
{
	uint64_t *slot = sw_path_flow_state(env, flow_hash);

	(void)ports;
	(void)magic;
	if (path_rec.n == 0) {
		path_rec.first_val = *slot;
		path_rec.slots = env->flow_slots;
	}
	if (path_rec.n < PATH_REC_N) {
		path_rec.hash[path_rec.n] = flow_hash;
		path_rec.grp[path_rec.n] = grp;
		path_rec.slot[path_rec.n] = slot;
	}
	path_rec.n++;
	(*slot)++;
	return n_ports - 1;
}

static const struct sw_path_ops path_rec_ops = {
	.kind = { .name = "test-last", .doc = "the last port, recording its calls" },
	.flow_state_bytes = sizeof(uint64_t),
	.pick = path_rec_pick,
};

/* The recording policy's calls: one per frame, each flow's frames with
 * one slot, a zeroed one to begin with, flows of other slot bits with
 * other slots, all in the switch's table, the same group for all. */
static void pr_check_rec(uint32_t frames)
{
	int bad = 0;

	CU_ASSERT_EQUAL_FATAL(path_rec.n, frames);
	CU_ASSERT_PTR_NOT_NULL(path_rec.slots);
	CU_ASSERT_EQUAL(path_rec.first_val, 0);
	for (uint32_t i = 0; i < frames && i < PATH_REC_N; i++) {
		const uint8_t *sl = path_rec.slot[i];

		bad += path_rec.grp[i] != path_rec.grp[0];
		bad += sl < path_rec.slots || sl >= path_rec.slots + SW_PATH_FLOW_SLOTS * sizeof(uint64_t);
		for (uint32_t j = 0; j < i; j++)
			if (path_rec.hash[j] == path_rec.hash[i])
				bad += path_rec.slot[j] != path_rec.slot[i];
			else if ((path_rec.hash[j] ^ path_rec.hash[i]) & (SW_PATH_FLOW_SLOTS - 1))
				bad += path_rec.slot[j] == path_rec.slot[i];
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static bool pol_is(const struct sw_path_ops *ops, const char *name)
{
	return strcmp(ops->kind.name, name) == 0;
}

/* Every policy (and a called one that records) in a switch, 32 flows of
 * 8 frames each from host 0 to host 1 over a group of 5 ports, twice with
 * the same seed. Independent expectations: every frame arrives, on a port
 * of the group; the two runs agree frame for frame; ecmp sends each flow
 * where its hash modulo 5 says (the choice before policies existed), so
 * one port per flow; first sends all to port 1; spray, round-robin and
 * adaptive (which sees queues here) split flows over ports; round-robin
 * cycles 1, 2, 3, 4, 5 exactly; the called policy gets what pr_check_rec
 * says. */
static void test_sw_path_in_switch(void)
{
	const struct sw_path_ops *policies[8] = { NULL };
	size_t n_pol = 0;

	for (const char *const *nm = sw_path_names(); *nm; nm++)
		policies[n_pol++] = sw_path_find(*nm);
	policies[n_pol++] = &path_rec_ops;
	for (size_t k = 0; k < n_pol; k++) {
		const struct sw_path_ops *ops = policies[k];
		const uint64_t seed = 0x5eed + k;
		struct pr_rig *r[2];
		int bad_port = 0, split = 0, bad_flow = 0;

		for (int run = 0; run < 2; run++) {
			memset(&path_rec, 0, sizeof(path_rec));
			r[run] = pr_new(ops, seed);
			pr_send(r[run], 32, 8);
			CU_ASSERT_EQUAL(r[run]->log.n, 256);
		}
		CU_ASSERT_EQUAL(memcmp(&r[0]->log, &r[1]->log, sizeof(r[0]->log)), 0);
		for (uint16_t f = 0; f < 32; f++) {
			uint16_t sport = (uint16_t)(0xC000 + 7 * f), at = 0;
			uint32_t h = sw_ecmp_hash(seed, addr_ep_ip(0), addr_ep_ip(1), 17, sport,
						  PKT_ROCE_UDP_PORT);

			for (uint32_t i = 0; i < r[0]->log.n; i++) {
				if (r[0]->log.sport[i] != sport)
					continue;
				if (at && r[0]->log.port[i] != at)
					split++;
				at = r[0]->log.port[i];
				if (pol_is(ops, "ecmp"))
					bad_flow += at != pr_up[h % 5];
			}
		}
		for (uint32_t i = 0; i < r[0]->log.n; i++) {
			uint16_t p = r[0]->log.port[i];

			bad_port += p < 1 || p > 5;
			if (pol_is(ops, "first"))
				bad_port += p != 1;
			else if (pol_is(ops, "round-robin"))
				bad_port += p != 1 + i % 5;
			else if (ops == &path_rec_ops)
				bad_port += p != 5;
		}
		CU_ASSERT_EQUAL(bad_port, 0);
		CU_ASSERT_EQUAL(bad_flow, 0);
		if (pol_is(ops, "ecmp") || pol_is(ops, "first") || ops == &path_rec_ops)
			CU_ASSERT_EQUAL(split, 0);
		if (pol_is(ops, "spray") || pol_is(ops, "round-robin") || pol_is(ops, "adaptive"))
			CU_ASSERT(split > 0);
		if (ops == &path_rec_ops)
			pr_check_rec(256);
		pr_free(r[0]);
		pr_free(r[1]);
	}
}

/* An IPv6 UDP frame (a live endpoint's, RFC 8200) from fd00:fab::10.0.0.1
 * (its byte @src8 at 8, the prefix's otherwise) to the plan's address of
 * endpoint @dst_ep (or, with @dst_ep UINT32_MAX, fd00:beef::10.0.0.2,
 * outside the plan), from UDP port @sport to 5001, with traffic class
 * @tclass, hop limit @hlim and 100 bytes of payload. */
static struct rte_mbuf *ip6_frame(struct sim *s, uint8_t src8, uint32_t dst_ep, uint16_t sport,
				  uint8_t tclass, uint8_t hlim)
{
	struct rte_mbuf *m = sim_pkt_alloc(s, false);
	uint32_t ip = addr_ep_ip(dst_ep == UINT32_MAX ? 1 : dst_ep);
	uint8_t *d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	d = (uint8_t *)rte_pktmbuf_append(m, 14 + 40 + 108);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	memset(d, 0, 14 + 40 + 108);
	d[12] = 0x86;
	d[13] = 0xdd;
	d[14] = (uint8_t)(0x60 | tclass >> 4);
	d[15] = (uint8_t)(tclass << 4 | 0x3); /* and a flow label, 0x3abcd */
	d[16] = 0xab;
	d[17] = 0xcd;
	d[19] = 108;                  /* payload length */
	d[20] = 17;                   /* UDP */
	d[21] = hlim;
	for (int a = 0; a < 2; a++) {
		uint8_t *x = d + 22 + 16 * a;

		x[0] = 0xfd;
		x[2] = 0x0f;
		x[3] = 0xab;
		if (a == 1 && dst_ep == UINT32_MAX) {
			x[2] = 0xbe;
			x[3] = 0xef;
		}
		x[12] = 10;
		x[15] = (uint8_t)(a == 0 ? 1 : ip);
		x[14] = (uint8_t)(a == 0 ? 0 : ip >> 8);
	}
	d[22 + 8] = src8;
	d[54] = (uint8_t)(sport >> 8);
	d[55] = (uint8_t)sport;
	d[56] = 5001 >> 8;
	d[57] = 5001 & 255;
	d[59] = 108;
	*pkt_meta(m) = (struct pkt_meta){ .frame_bytes = 14 + 40 + 108 + PKT_FCS_BYTES, .l3_off = 14,
					  .kind = PKT_KIND_CTRL };
	return m;
}

/* IPv6 frames of live endpoints through a switch with ECMP over a group
 * of 5 ports: 32 flows of 4 frames, and 4 flows whose sources differ only
 * in their address's byte 8. Independent expectations (RFC 8200 and the
 * 5-tuple docs/config.md names): each flow leaves by the one port its
 * 5-tuple's hash picks, the source address folded to 32 bits by XOR of
 * its words, the destination the IPv4 address the plan's prefix embeds;
 * the hop limit drops by one; the traffic class is kept; a frame outside
 * the plan's prefix has no route; one whose hop limit runs out is dropped.
 * Then the view and the ECN rewrite on such a frame: DSCP and ECN from
 * the traffic class, CE set in it, the flow label untouched; and no
 * transport stage takes it for RoCEv2. */
static void test_sw_ipv6(void)
{
	const uint64_t seed = 0x1b6;
	struct pr_rig *r = pr_new(sw_path_find("ecmp"), seed);
	int bad = 0, used[6] = { 0 }, n_used = 0;
	struct pkt_view v = { 0 };
	struct rte_mbuf *m;
	uint8_t *d;

	for (uint32_t k = 0; k < 4; k++) {
		for (uint16_t f = 0; f < 32; f++)
			inject(&r->peers[0], ip6_frame(&r->s, 0, 1, (uint16_t)(40000 + 13 * f), 26 << 2 | 2, 64));
		for (uint8_t a = 1; a <= 4; a++)
			inject(&r->peers[0], ip6_frame(&r->s, a, 1, 40000, 26 << 2 | 2, 64));
	}
	inject(&r->peers[0], ip6_frame(&r->s, 0, UINT32_MAX, 40000, 0, 64));
	inject(&r->peers[0], ip6_frame(&r->s, 0, 1, 40000, 0, 1));
	sim_run(&r->s);
	CU_ASSERT_EQUAL(r->log.n, 4 * 36);
	CU_ASSERT_EQUAL(sw_stats(r->sw)->drops[SW_DROP_NO_ROUTE], 1);
	CU_ASSERT_EQUAL(sw_stats(r->sw)->drops[SW_DROP_TTL], 1);
	for (uint32_t i = 0; i < r->log.n && i < PR_LOG; i++) {
		uint16_t sport = r->log.sport[i];
		/* fd00:0fab:0000:0000:SS00:0000:0000:0a000001 folded. */
		uint32_t src = 0xfd000fabu ^ (uint32_t)r->log.src8[i] << 24 ^ 0 ^ 0x0a000001u;
		uint32_t h = sw_ecmp_hash(seed, src, 0x0a000002u, 17, sport, 5001);

		bad += r->log.port[i] != pr_up[h % 5];
		bad += (sport - 40000) % 13 != 0 || r->log.src8[i] > 4 || (r->log.src8[i] && sport != 40000);
		bad += r->log.hlim[i] != 63 || r->log.tclass[i] != (26 << 2 | 2);
		used[r->log.port[i]]++;
	}
	for (int p = 1; p <= 5; p++)
		n_used += used[p] > 0;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(n_used >= 3);
	pr_free(r);

	/* The view and the ECN rewrite. */
	{
		struct sim s;

		CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
		m = ip6_frame(&s, 0, 5, 4791, 26 << 2 | PKT_ECN_ECT0, 9);
		d = pkt_data(m);
		CU_ASSERT_EQUAL_FATAL(pkt_view_l3(&v, PKT_LL_ROCE, d, 14 + 40 + 108), 0);
		CU_ASSERT(v.ip6 && v.cls == 26 && v.cong == PKT_ECN_ECT0 && v.l3_off == 14);
		CU_ASSERT_EQUAL(v.dst, addr_ep_ip(5));
		CU_ASSERT_EQUAL(pkt_view_flow(&v, d, 14 + 40 + 108), 0);
		CU_ASSERT(v.proto == 17 && v.sport == 4791 && v.dport == 5001 && v.l4_off == 54);
		/* UDP to 4791 over IPv6 is not the NICs' RoCEv2. */
		CU_ASSERT_EQUAL(pkt_view_bth(&v, d, 14 + 40 + 108), -EINVAL);
		CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_ROCE, m), PKT_ECN_ECT0);
		pkt_ll_mark_ce(PKT_LL_ROCE, m);
		CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_ROCE, m), PKT_ECN_CE);
		CU_ASSERT_EQUAL(d[14], 0x60 | (26 << 2 | 3) >> 4);
		CU_ASSERT_EQUAL(d[15], (uint8_t)((26 << 2 | 3) << 4 | 0x3));
		CU_ASSERT(d[16] == 0xab && d[17] == 0xcd);
		/* Too short for its fixed header, or version 4 under 0x86DD. */
		CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_ROCE, d, 14 + 39), -EINVAL);
		d[14] = 0x45;
		CU_ASSERT_EQUAL(pkt_view_l3(&v, PKT_LL_ROCE, d, 14 + 40 + 108), -EINVAL);
		sim_pkt_free(&s, m);
		sim_fini(&s);
	}
}

/* Forwarding replaced during a run (sw_set_fib), for every policy: after
 * frames have spread over the group of 5, the rows put host 1 behind
 * ports 2 and 4 only, and every later frame leaves by 2 or 4 (round-robin
 * alternating from 2, its counter restarted; first by 2). Rows naming a
 * port the switch lacks, or a class beyond the rows, are refused with
 * -EINVAL and change nothing: frames still go by 2 and 4. */
static void test_sw_set_fib(void)
{
	static const uint16_t two[] = { 2, 4 }, bad_ports[] = { 2, 9 };
	static const uint32_t bad_class[] = { 0, 2 };

	for (const char *const *nm = sw_path_names(); *nm; nm++) {
		const struct sw_path_ops *ops = sw_path_find(*nm);
		struct pr_rig *r = pr_new(ops, 0xf1b);
		uint32_t off[3], before, wrong = 0, on[PR_PORTS] = { 0 };
		struct fib_rows fib;

		pr_send(r, 16, 4);
		before = r->log.n;
		CU_ASSERT_EQUAL(before, 64);
		fib = pr_fib(off, two, 2);
		CU_ASSERT_EQUAL_FATAL(sw_set_fib(r->sw, &fib), 0);
		pr_send(r, 16, 4);
		fib = pr_fib(off, bad_ports, 2);
		CU_ASSERT_EQUAL(sw_set_fib(r->sw, &fib), -EINVAL);
		fib = pr_fib(off, two, 2);
		fib.ep_class = bad_class;
		CU_ASSERT_EQUAL(sw_set_fib(r->sw, &fib), -EINVAL);
		pr_send(r, 16, 4);
		CU_ASSERT_EQUAL_FATAL(r->log.n, before + 128);
		for (uint32_t i = before; i < r->log.n; i++) {
			uint16_t p = r->log.port[i];

			on[p]++;
			wrong += p != 2 && p != 4;
			if (pol_is(ops, "round-robin"))
				wrong += p != two[(i - before) % 2];
			else if (pol_is(ops, "first"))
				wrong += p != 2;
		}
		if (wrong)
			fprintf(stderr, "\n  %s: %u frames off the new rows\n", *nm, wrong);
		CU_ASSERT_EQUAL(wrong, 0);
		if (!pol_is(ops, "first"))
			CU_ASSERT(on[2] > 0 && on[4] > 0);
		pr_free(r);
	}
}

static void test_sw_red(void)
{
	struct sw_red_params r = { .kmin_bytes = 400000, .kmax_bytes = 1600000, .pmax_ppm = 200000 };

	/* RED: 0 up to Kmin, linear to Pmax at Kmax, 1 above. */
	CU_ASSERT_EQUAL(sw_red_ppm(&r, 0), 0);
	CU_ASSERT_EQUAL(sw_red_ppm(&r, 400000), 0);
	CU_ASSERT_EQUAL(sw_red_ppm(&r, 1000000), 100000); /* halfway: Pmax / 2 */
	CU_ASSERT_EQUAL(sw_red_ppm(&r, 1600000), 200000);
	CU_ASSERT_EQUAL(sw_red_ppm(&r, 1600001), SW_RED_ONE);
	/* The draw: a probability of 10% marks about 10% of uniform draws. */
	{
		uint32_t marks = 0;
		struct rng g;

		rng_init(&g, 1, 2);
		for (int i = 0; i < 100000; i++)
			marks += (uint32_t)sw_red_mark(&r, 1000000, (uint32_t)rng_next(&g));
		CU_ASSERT(marks > 9500 && marks < 10500); /* 5 sigma is +-475 */
	}
}

enum { TSW_INT_FRAMES = 12 };

/* What a sink saw of each frame: arrival time, length, its last INT record. */
struct int_sink {
	uint32_t n;                              /* frames received */
	uint64_t at_ps[TSW_INT_FRAMES];          /* arrival (last bit) */
	uint32_t frame_bytes[TSW_INT_FRAMES];    /* pkt_meta frame_bytes */
	uint32_t hops[TSW_INT_FRAMES];           /* records in its stack */
	struct pkt_int_hop last[TSW_INT_FRAMES]; /* the last record */
	int icrc[TSW_INT_FRAMES];                /* pkt_icrc_check */
};

static void int_sink_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct int_sink *k = owner;
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct pkt_view v;

	if (k->n < TSW_INT_FRAMES &&
	    pkt_view_all(&v, PKT_LL_ROCE, d, rte_pktmbuf_data_len(m)) == 0) {
		k->at_ps[k->n] = in->sim->now_ps;
		k->frame_bytes[k->n] = pkt_meta(m)->frame_bytes;
		k->hops[k->n] = v.int_hops;
		if (v.int_hops)
			pkt_view_int_hop(&v, d, v.int_hops - 1u, &k->last[k->n]);
		k->icrc[k->n] = pkt_icrc_check(m);
	}
	k->n++;
	sim_pkt_free(in->sim, m);
}

static const struct port_ops int_sink_ops = { .rx = int_sink_rx };

/* A switch with fabric.int on: TSW_INT_FRAMES frames to host 1 arrive at
 * once (at time 0, on port 0) and leave by port 1 back to back at 7 Gb/s,
 * a rate whose serialisation carries a remainder. Each frame grows by the
 * stack header and one record (20 bytes), and its record holds exactly
 * the port's state when it left: the dequeue time, which is the sum of the
 * earlier frames' serialisation at their grown length (to the ps), the
 * bytes the port had sent, what was still queued, and the rate. The
 * frames arrive at the serialisation and delay of their grown length. A
 * frame already holding 5 records passes unchanged, counted; with
 * payload, the ICRC stays valid; with INT off nothing grows. */
static void test_sw_int_records(void)
{
	const uint64_t rate = UINT64_C(7000000000), delay = 1000;
	struct sw_params p = { .buffer_bytes = 1 << 20, .hash_seed = 1, .int_on = true };
	struct fib_rows fib = rig_fib;
	struct int_sink sinks[3] = { 0 };
	static uint8_t payload[1000];
	struct port peers[3], *in, *out;
	uint8_t mac[6] = { 0 };
	struct sim s;
	struct sw *sw;
	uint32_t base, grown;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];

	for (int off = 0; off < 2; off++) {
		memset(sinks, 0, sizeof(sinks));
		p.int_on = off == 0;
		CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
		sw = sw_new(&s, 0, 0, 3, &p, &fib);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
		for (uint16_t i = 0; i < 3; i++) {
			port_init(&peers[i], &s, &int_sink_ops, &sinks[i], 1 + i, 0);
			port_connect(sw_port(sw, i), &peers[i], i == 1 ? rate : UINT64_C(100000000000),
				     delay);
			sw_set_next_hop_mac(sw, i, mac);
		}
		CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
		in = sw_port(sw, 0);
		out = sw_port(sw, 1);
		base = 0;
		for (int i = 0; i < TSW_INT_FRAMES - 2; i++) {
			struct rte_mbuf *m = roce_to(&s, 1, 1000);

			base = pkt_meta(m)->frame_bytes;
			in->ops->rx(in->owner, in, m);
		}
		{
			/* One with 5 records already, one with its payload. */
			struct rte_mbuf *m = roce_to(&s, 1, 1000), *w = sim_pkt_alloc(&s, false);
			struct pkt_int_hop h = { .rate_bps = 1000000 };
			struct pkt_roce f = { 0 };

			for (int k = 0; k < PKT_INT_MAX_HOPS; k++)
				CU_ASSERT_EQUAL(pkt_int_append(m, &h), 0);
			in->ops->rx(in->owner, in, m);
			CU_ASSERT_PTR_NOT_NULL_FATAL(w);
			f.addr.dst_ip = addr_ep_ip(1);
			f.addr.ttl = 64;
			f.addr.dscp = 26;
			f.opcode = PKT_OP_SEND_ONLY;
			f.pkey = 0xFFFF;
			f.payload_bytes = sizeof(payload);
			for (unsigned i = 0; i < sizeof(payload); i++)
				payload[i] = (uint8_t)(i * 13);
			CU_ASSERT_EQUAL_FATAL(pkt_build_roce(w, &f, payload), 0);
			in->ops->rx(in->owner, in, w);
		}
		sim_run(&s);
		CU_ASSERT_EQUAL_FATAL(sinks[1].n, TSW_INT_FRAMES);
		grown = base + (off ? 0 : PKT_INT_HDR_BYTES + PKT_INT_HOP_BYTES);
		{
			uint64_t sent = 0, done_bits = 0;

			for (int k = 0; k < TSW_INT_FRAMES; k++) {
				uint32_t fb = sinks[1].frame_bytes[k];
				uint64_t start = (uint64_t)((unsigned __int128)done_bits * 1000000000000u / rate);

				if (k < TSW_INT_FRAMES - 2)
					CU_ASSERT_EQUAL(fb, grown);
				done_bits += (uint64_t)(fb + 20) * 8;
				/* Last bit at the peer: serialisation of the grown frame, to the ps. */
				CU_ASSERT_EQUAL(sinks[1].at_ps[k],
						(uint64_t)((unsigned __int128)done_bits * 1000000000000u / rate) +
							delay);
				if (off) {
					CU_ASSERT_EQUAL(sinks[1].hops[k], k == TSW_INT_FRAMES - 2 ? 5 : 0);
				} else if (k < TSW_INT_FRAMES - 2 || k == TSW_INT_FRAMES - 1) {
					const struct pkt_int_hop *r = &sinks[1].last[k];
					/* Frame 0 left before the others came in; each later one
					 * left the ones after it queued. */
					uint64_t q = 0;

					for (int j = k + 1; j < TSW_INT_FRAMES && k > 0; j++)
						q += sinks[1].frame_bytes[j];
					CU_ASSERT_EQUAL(sinks[1].hops[k], 1);
					CU_ASSERT_EQUAL(r->ts_ps, start);
					CU_ASSERT_EQUAL(r->tx_bytes, sent);
					CU_ASSERT_EQUAL(r->qlen_bytes, q);
					CU_ASSERT_EQUAL(r->rate_bps, rate);
				}
				sent += fb;
			}
			CU_ASSERT_EQUAL(port_tx_bytes(out), sent);
		}
		/* The full stack passed unchanged; the payload frame kept a valid ICRC. */
		CU_ASSERT_EQUAL(sinks[1].hops[TSW_INT_FRAMES - 2], PKT_INT_MAX_HOPS);
		CU_ASSERT_EQUAL(sinks[1].frame_bytes[TSW_INT_FRAMES - 2],
				base + PKT_INT_HDR_BYTES + PKT_INT_MAX_HOPS * PKT_INT_HOP_BYTES);
		CU_ASSERT_EQUAL(sw_stats(sw)->int_full, off ? 0 : 1);
		CU_ASSERT_EQUAL(sw_stats(sw)->int_no_room, 0);
		CU_ASSERT_EQUAL(sinks[1].icrc[TSW_INT_FRAMES - 1], 1);
		CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
		sw_free(sw);
		for (int i = 0; i < 3; i++)
			port_fini(&peers[i]);
		CU_ASSERT_EQUAL(s.pkts_in_use, 0);
		sim_fini(&s);
	}
}

/* fabric.int_record: compact (m = 4), ports at 100 Gb/s: a frame without
 * a stack grows by 12 bytes (header and one 8-byte record), one holding a
 * compact record by 8; each record holds the port's state at dequeue in
 * the compact units (ns, 128 x 4 and 80 x 4 bytes, rounded down; rate
 * code 2); a frame holding full records passes without one (one format
 * per stack), counted as no room. */
static void test_sw_int_compact(void)
{
	enum { N_PLAIN = 4, N = N_PLAIN + 2 };
	const uint64_t rate = UINT64_C(100000000000), delay = 1000;
	const struct pkt_int_enc enc = { PKT_INT_FMT_COMPACT, 4 };
	struct sw_params p = { .buffer_bytes = 1 << 20, .hash_seed = 1, .int_on = true,
			       .int_record = PKT_INT_FMT_COMPACT, .int_multi = 4 };
	struct fib_rows fib = rig_fib;
	static struct int_sink sinks[3];
	struct pkt_int_hop h = { .ts_ps = 7000, .tx_bytes = 512, .qlen_bytes = 320, .rate_bps = rate };
	struct port peers[3], *in;
	uint8_t mac[6] = { 0 };
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	uint64_t sent = 0, done_bits = 0;
	uint32_t base = 0;
	struct rte_mbuf *m;
	struct sim s;
	struct sw *sw;

	memset(sinks, 0, sizeof(sinks));
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (uint16_t i = 0; i < 3; i++) {
		port_init(&peers[i], &s, &int_sink_ops, &sinks[i], 1 + i, 0);
		port_connect(sw_port(sw, i), &peers[i], rate, delay);
		sw_set_next_hop_mac(sw, i, mac);
	}
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	in = sw_port(sw, 0);
	for (int i = 0; i < N_PLAIN; i++) {
		m = roce_to(&s, 1, 1000);
		base = pkt_meta(m)->frame_bytes;
		in->ops->rx(in->owner, in, m);
	}
	m = roce_to(&s, 1, 1000); /* an earlier switch's compact record */
	CU_ASSERT_EQUAL(pkt_int_append_enc(m, enc, &h), 0);
	in->ops->rx(in->owner, in, m);
	m = roce_to(&s, 1, 1000); /* a full record */
	CU_ASSERT_EQUAL(pkt_int_append(m, &h), 0);
	in->ops->rx(in->owner, in, m);
	sim_run(&s);
	CU_ASSERT_EQUAL_FATAL(sinks[1].n, N);
	for (int k = 0; k < N; k++) {
		const struct pkt_int_hop *r = &sinks[1].last[k];
		uint64_t start = done_bits * 1000000000000u / rate, q = 0;
		uint32_t fb = sinks[1].frame_bytes[k];

		for (int j = k + 1; j < N && k > 0; j++)
			q += sinks[1].frame_bytes[j];
		if (k < N_PLAIN) {
			CU_ASSERT_EQUAL(fb, base + 12);
			CU_ASSERT_EQUAL(sinks[1].hops[k], 1);
		} else if (k == N_PLAIN) {
			CU_ASSERT_EQUAL(fb, base + 12 + 8);
			CU_ASSERT_EQUAL(sinks[1].hops[k], 2);
		} else {
			CU_ASSERT_EQUAL(fb, base + PKT_INT_HDR_BYTES + PKT_INT_HOP_BYTES);
			CU_ASSERT_EQUAL(sinks[1].hops[k], 1);
		}
		if (k <= N_PLAIN) {
			CU_ASSERT_EQUAL(r->ts_ps, start / 1000 * 1000);
			CU_ASSERT_EQUAL(r->tx_bytes, sent / 512 * 512);
			CU_ASSERT_EQUAL(r->qlen_bytes, q / 320 * 320);
			CU_ASSERT_EQUAL(r->rate_bps, rate);
		}
		done_bits += (uint64_t)(fb + 20) * 8;
		sent += fb;
	}
	CU_ASSERT_EQUAL(sw_stats(sw)->int_no_room, 1);
	CU_ASSERT_EQUAL(sw_stats(sw)->int_full, 0);
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
	sw_free(sw);
	for (int i = 0; i < 3; i++)
		port_fini(&peers[i]);
	CU_ASSERT_EQUAL(s.pkts_in_use, 0);
	sim_fini(&s);
}

static void test_sw_headroom(void)
{
	/* The reference's worked example (congestion-control.md §8): 100 Gb/s,
	 * 5 m of cable (25 ns at 2e8 m/s), 4200-byte MTU -> about 34 KB:
	 * 2 x 4200 + 2 x 25 ns x 12.5 B/ns + 394 quanta x 64 B = 34241 B. */
	CU_ASSERT_EQUAL(sw_headroom_bytes(UINT64_C(100000000000), 25000, 4200), 34 * 1024);
	/* 400 Gb/s, 40 m (200 ns), 4200 B: 8400 + 20000 + 905 x 64 = 86320
	 * -> the reference's "about 87 KB". */
	CU_ASSERT_EQUAL(sw_headroom_bytes(UINT64_C(400000000000), 200000, 4200), 85 * 1024);
}

enum {
	TSW_100G = 100000000000ULL, /* bit/s */
	TSW_400G = 400000000000ULL,
};

/* Read @text as the `fabric:` section into *@p (zeroed first), through
 * the switch's table alone. 0 or the reader's -errno, @err filled. */
static int tsw_fabric(const char *text, struct sw_params *p, char err[CFG_ERR_BYTES])
{
	struct cfg_doc *doc;
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = cfg_doc_load_string("f.yaml", text, &doc, err)) != 0)
		return rc;
	rc = cfg_schema_read(doc, cfg_doc_root(doc), "fabric",
			     &(struct cfg_bind){ &sw_cfg_fabric_table, p }, 1, err);
	cfg_doc_free(doc);
	return rc;
}

/* A switch for @p on the three-port rig, its ports 0, 1, 2 wired at
 * @rates to sinks (1 us), ready. */
static struct sw *tsw_rates_rig(struct sim *s, const struct sw_params *p, const uint64_t rates[3],
				struct port *peers, struct sw_sink *sinks)
{
	static const uint8_t mac[6] = { 0 };
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	struct sw *sw;

	CU_ASSERT_EQUAL_FATAL(sim_init(s, 1, test_mempool()), 0);
	sw = sw_new(s, 0, 0, 3, p, &rig_fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (uint16_t i = 0; i < 3; i++) {
		port_init(&peers[i], s, &sw_sink_ops, &sinks[i], 1 + i, 0);
		port_connect(sw_port(sw, i), &peers[i], rates[i], 1000000);
		sw_set_next_hop_mac(sw, i, mac);
	}
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	return sw;
}

/* The keys: a table per rate is read into the params as written, the
 * fallback is the top-level curve only when kmin and kmax are written,
 * and a curve is found per rate: its entry, the scaled or plain top-level
 * one, or none (-ENOENT). Without the new keys nothing changes. */
static void test_sw_rate_keys(void)
{
	struct sw_params p;
	struct sw_red_params r;
	char err[CFG_ERR_BYTES];

	/* Defaults: no table, every rate gets the top-level curve and alpha. */
	CU_ASSERT_EQUAL_FATAL(tsw_fabric("{pfc: {}, ecn: {}}", &p, err), 0);
	CU_ASSERT_EQUAL(p.n_red_by_rate, 0);
	CU_ASSERT_EQUAL(p.pfc.n_alpha_by_rate, 0);
	CU_ASSERT_EQUAL(p.red_ref_rate_bps, 0);
	CU_ASSERT(!p.red_by_rate_only);
	for (uint64_t rate = TSW_100G / 4; rate <= TSW_400G; rate *= 2) {
		CU_ASSERT_EQUAL(sw_params_port_red(&p, rate, &r), 0);
		CU_ASSERT_EQUAL(r.kmin_bytes, 400000);
		CU_ASSERT_EQUAL(r.kmax_bytes, 1600000);
		CU_ASSERT_EQUAL(r.pmax_ppm, 200000);
		CU_ASSERT_EQUAL(sw_params_port_alpha(&p, rate), SW_Q16 / 8);
	}

	/* The HPCC simulator's maps (KB = 1000 B) and its 400G alpha. */
	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("{pfc: {alpha_by_rate: [{rate: 400Gbps, alpha: 50%}]},\n"
			   " ecn: {by_rate: [{rate: 100Gbps, kmin: 400KB, kmax: 1600KB, pmax: 20%},\n"
			   "                 {rate: 400Gbps, kmin: 1600KB, kmax: 6400KB, pmax: 20%}]}}",
			   &p, err),
		0);
	CU_ASSERT_EQUAL(p.n_red_by_rate, 2);
	CU_ASSERT(p.red_by_rate_only); /* no top-level kmin/kmax written */
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_400G, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 1600000);
	CU_ASSERT_EQUAL(r.kmax_bytes, 6400000);
	CU_ASSERT_EQUAL(r.pmax_ppm, 200000);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_100G, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 400000);
	r.kmin_bytes = 1;
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_100G / 4, &r), -ENOENT); /* unlisted */
	CU_ASSERT_EQUAL(r.kmin_bytes, 1); /* untouched */
	CU_ASSERT_EQUAL(sw_params_port_alpha(&p, TSW_400G), SW_Q16 / 2);
	CU_ASSERT_EQUAL(sw_params_port_alpha(&p, TSW_100G), SW_Q16 / 8); /* fabric.pfc.alpha */

	/* Written top-level kmin and kmax: the curve of unlisted rates. */
	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("ecn: {kmin: 300KB, kmax: 300KB, pmax: 100%,\n"
			   "      by_rate: [{rate: 400Gbps, kmin: 1200KB, kmax: 1200KB, pmax: 100%}]}",
			   &p, err),
		0);
	CU_ASSERT(!p.red_by_rate_only);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_100G / 4, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 300000);
	CU_ASSERT_EQUAL(r.pmax_ppm, SW_RED_ONE);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_400G, &r), 0);
	CU_ASSERT_EQUAL(r.kmax_bytes, 1200000);

	/* reference_rate: K in proportion to the rate, entries excepted. */
	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("ecn: {reference_rate: 100Gbps,\n"
			   "      by_rate: [{rate: 200Gbps, kmin: 1KB, kmax: 2KB, pmax: 1%}]}",
			   &p, err),
		0);
	CU_ASSERT(!p.red_by_rate_only);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_400G, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 1600000);
	CU_ASSERT_EQUAL(r.kmax_bytes, 6400000);
	CU_ASSERT_EQUAL(r.pmax_ppm, 200000);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_100G / 4, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 100000);
	CU_ASSERT_EQUAL(r.kmax_bytes, 400000);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_100G, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 400000);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, 2 * TSW_100G, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, 1000);
	CU_ASSERT_EQUAL(r.pmax_ppm, 10000);
	/* Scaled far beyond 64 bits: the most there is, not a wrap. */
	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("buffer: 1TiB\necn: {kmin: 1TiB, kmax: 1TiB, reference_rate: 1bps}", &p, err),
		0);
	CU_ASSERT_EQUAL(sw_params_port_red(&p, TSW_400G, &r), 0);
	CU_ASSERT_EQUAL(r.kmin_bytes, UINT64_MAX);
}

/* Bad per-rate input is refused at its FILE:LINE:COL, saying why. */
static void test_sw_rate_keys_bad(void)
{
	static const struct {
		const char *text; /* the fabric: section */
		const char *err;  /* in the message */
	} bad[] = {
		{ "ecn: {by_rate: [{rate: 100Gbps, kmin: 400KB, kmax: 300KB, pmax: 1}]}",
		  "f.yaml:1:39: kmin (400000 bytes) is above kmax (300000 bytes)" },
		{ "ecn: {by_rate: [{rate: 100Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},\n"
		  "                {rate: 100000Mbps, kmin: 1KB, kmax: 2KB, pmax: 1}]}",
		  "f.yaml:2:24: ecn.by_rate lists rate 100Gbps twice (entries 1 and 2)" },
		{ "ecn: {by_rate: [{rate: 100Gbps, kmin: 1KB, kmax: 2KB, pmax: 120%}]}",
		  "f.yaml:1:61: fraction 1.2 is above the maximum 1" },
		{ "ecn: {by_rate: [{rate: 100Gbps, kmin: 1KB, kmax: 2KB, pmax: -1%}]}",
		  "f.yaml:1:61: " },
		{ "ecn: {by_rate: [{rate: 100Gbps, kmin: 1KB, kmax: 2KB}]}",
		  "f.yaml:1:17: ecn.by_rate entry needs 'rate', 'kmin', 'kmax' and 'pmax' (missing 'pmax')" },
		{ "ecn: {by_rate: [{rate: 100Gbps, kmin: 1KB, kmax: 2KB, pmx: 1}]}",
		  "f.yaml:1:55: unknown key 'pmx' (did you mean 'pmax'?)" },
		{ "ecn: {by_rate: [{rate: 0Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}]}",
		  "f.yaml:1:24: rate must be above zero" },
		{ "buffer: 1MB\necn: {by_rate: [{rate: 1Gbps, kmin: 1KB, kmax: 2MB, pmax: 1}]}",
		  "f.yaml:2:48: size 2000000 bytes is above the maximum 1000000 bytes" },
		{ "ecn: {by_rate: {rate: 100Gbps}}", "f.yaml:1:16: ecn.by_rate" },
		{ "ecn: {kmin: 100KB, by_rate: [{rate: 1Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}]}",
		  "f.yaml:1:13: with by_rate, the top-level kmin, kmax and pmax" },
		{ "ecn: {pmax: 1, by_rate: [{rate: 1Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}]}",
		  "f.yaml:1:13: with by_rate" },
		{ "ecn: {reference_rate: 0bps}", "f.yaml:1:23: rate must be above zero" },
		{ "ecn: {by_rate: [{rate: 1Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 2Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 3Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 4Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 5Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 6Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 7Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 8Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 9Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 10Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 11Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 12Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 13Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 14Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 15Gbps, kmin: 1KB, kmax: 2KB, pmax: 1},"
		  " {rate: 16Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}, {rate: 17Gbps, kmin: 1KB, kmax: 2KB, pmax: 1}]}",
		  "ecn.by_rate: at most 16 rates" },
		{ "pfc: {alpha_by_rate: [{rate: 400Gbps, alpha: 0}]}",
		  "f.yaml:1:46: fraction 0 is below the minimum" },
		{ "pfc: {alpha_by_rate: [{rate: 400Gbps, alpha: 65}]}", "f.yaml:1:46: fraction 65 is above" },
		{ "pfc: {alpha_by_rate: [{rate: 400Gbps}]}",
		  "f.yaml:1:23: pfc.alpha_by_rate entry needs 'rate' and 'alpha' (missing 'alpha')" },
		{ "pfc: {alpha_by_rate: [{rate: 400Gbps, alpha: 1}, {rate: 400Gbps, alpha: 2}]}",
		  "f.yaml:1:57: pfc.alpha_by_rate lists rate 400Gbps twice (entries 1 and 2)" },
		{ "pfc: {xoff: 100KB, alpha_by_rate: [{rate: 400Gbps, alpha: 1}]}",
		  "f.yaml:1:35: alpha_by_rate sets the dynamic pause threshold, and xoff is static" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sw_params p;
		char err[CFG_ERR_BYTES] = "";

		CU_ASSERT_NOT_EQUAL(tsw_fabric(bad[i].text, &p, err), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].err));
		if (!strstr(err, bad[i].err))
			fprintf(stderr, "\n  case %zu: got '%s'\n", i, err);
	}
}

/* The switch keys whose 0 the docs give a meaning, written out: each is
 * read as that 0, never the default it would have when absent (static
 * xon absent: xoff - 3 KiB; xon_offset 3 KiB; ...): reserve 0B, static
 * xon 0B (resume only once the group's shared use is 0), xon_offset 0B
 * (resume at the threshold), adaptive_bias 0B, kmin = kmax = 0B (every
 * frame with a byte queued behind it is marked, none from an empty
 * queue), pmax 0% (no mark up to kmax, every one above). An empty
 * headroom map would silently be `auto` (headroom 0): it is refused. */
static void test_sw_zeros(void)
{
	char err[CFG_ERR_BYTES] = "";
	struct sw_params p;

	CU_ASSERT_EQUAL(tsw_fabric("{reserve: 0B, pfc: {xoff: 64KiB, xon: 0B}, "
				   "path: {adaptive_bias: 0B}}", &p, err), 0);
	CU_ASSERT_EQUAL(p.reserve_bytes, 0);
	CU_ASSERT_EQUAL(p.pfc.xoff_bytes, 64 * 1024);
	CU_ASSERT_EQUAL(p.pfc.xon_bytes, 0);
	CU_ASSERT_EQUAL(p.path_params.adaptive_bias_bytes, 0);
	CU_ASSERT_EQUAL(tsw_fabric("{pfc: {xoff: 64KiB}}", &p, err), 0);
	CU_ASSERT_EQUAL(p.pfc.xon_bytes, 61 * 1024); /* absent: 3 KiB below */
	CU_ASSERT_EQUAL(tsw_fabric("{pfc: {xon_offset: 0B}}", &p, err), 0);
	CU_ASSERT_EQUAL(p.pfc.xon_offset_bytes, 0);
	CU_ASSERT_EQUAL(tsw_fabric("{ecn: {kmin: 0B, kmax: 0B}}", &p, err), 0);
	CU_ASSERT_EQUAL(sw_red_ppm(&p.red, 0), 0);
	CU_ASSERT_EQUAL(sw_red_ppm(&p.red, 1), SW_RED_ONE);
	CU_ASSERT_EQUAL(tsw_fabric("{ecn: {pmax: 0%}}", &p, err), 0);
	CU_ASSERT_EQUAL(p.red.pmax_ppm, 0);
	CU_ASSERT_EQUAL(sw_red_ppm(&p.red, p.red.kmax_bytes), 0);
	CU_ASSERT_EQUAL(sw_red_ppm(&p.red, p.red.kmax_bytes + 1), SW_RED_ONE);
	CU_ASSERT_NOT_EQUAL(tsw_fabric("{pfc: {headroom: {}}}", &p, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "f.yaml:1:18: headroom: {} names no priority"));
}

/* Marking by each port's own curve (the HPCC simulator's ConfigEcn per
 * port), DCTCP-style (kmin = kmax, pmax 100%): K = 300 KB on 100G ports
 * and 1200 KB on 400G ones. A frame leaving a 350 KB queue is marked on
 * the 100G port and not on the 400G one; above 1200 KB both mark. A
 * switch whose marking port runs at a rate the table lacks is not made
 * ready. */
static void test_sw_ecn_by_rate(void)
{
	const uint64_t rates[3] = { TSW_100G, TSW_100G, TSW_400G };
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	struct sw_params p;
	struct sim s;
	struct sw *sw;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	static const struct {
		uint16_t port;     /* egress */
		uint64_t q_bytes;  /* queue behind the frame */
		bool ce;           /* marked */
	} cases[] = {
		{ 1, 350000, true },
		{ 2, 350000, false },
		{ 1, 300000, false }, /* at K: not above it */
		{ 2, 1200000, false },
		{ 2, 1200001, true },
	};
	uint64_t marked[3] = { 0 };

	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("ecn: {tcs: [3], by_rate: [{rate: 100Gbps, kmin: 300KB, kmax: 300KB, pmax: 100%},\n"
			   "                          {rate: 400Gbps, kmin: 1200KB, kmax: 1200KB, pmax: 100%}]}",
			   &p, err),
		0);
	p.hash_seed = 1;
	sw = tsw_rates_rig(&s, &p, rates, peers, sinks);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rte_mbuf *m = roce_to(&s, cases[i].port, 1000);

		sw_ecn(sw, sw_port(sw, cases[i].port), m, cases[i].q_bytes);
		CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_ROCE, m) == PKT_ECN_CE, cases[i].ce);
		marked[cases[i].port] += cases[i].ce;
		sim_pkt_free(&s, m);
	}
	for (uint16_t i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(sw_port_stats(sw, i)->ecn_marked, marked[i]);
	rig_free(&s, sw, peers, sinks);

	/* Only 100G listed, no fallback: the 400G port has no curve. */
	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("ecn: {by_rate: [{rate: 100Gbps, kmin: 300KB, kmax: 300KB, pmax: 1}]}", &p,
			   err),
		0);
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = sw_new(&s, 0, 0, 3, &p, &rig_fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (uint16_t i = 0; i < 3; i++) {
		port_init(&peers[i], &s, &sw_sink_ops, &sinks[i], 1 + i, 0);
		port_connect(sw_port(sw, i), &peers[i], rates[i], 1000000);
	}
	CU_ASSERT_EQUAL(sw_ready(sw, err, warn), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "port 2 runs at 400Gbps"));
	rig_free(&s, sw, peers, sinks);
}

/* Queue managers: the registry (red, the default, first; then none),
 * fabric.ecn.aqm read with "did you mean", absent meaning red; and over
 * every registered manager, in a switch that marks everything red would
 * (kmin = kmax = 0, pmax 100%): a frame that is not ECN-capable, or is
 * CE already, is left as it is and not counted; red marks an ECT frame
 * above 0 bytes, none marks nothing. */
static void test_sw_aqm(void)
{
	const uint64_t rates[3] = { TSW_100G, TSW_100G, TSW_100G };
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	struct sw_params p;
	struct sim s;
	struct sw *sw;
	char err[CFG_ERR_BYTES], text[160];
	const char *const *names = sw_aqm_names();

	CU_ASSERT_STRING_EQUAL(names[0], "red");
	CU_ASSERT_STRING_EQUAL(names[1], "none");
	CU_ASSERT_PTR_EQUAL(sw_aqm_find("red"), &sw_aqm_red_ops);
	CU_ASSERT_PTR_NULL(sw_aqm_find("RED"));
	CU_ASSERT_EQUAL_FATAL(tsw_fabric("ecn: {}", &p, err), 0);
	CU_ASSERT_PTR_NULL(p.aqm); /* absent: red */
	CU_ASSERT_NOT_EQUAL(tsw_fabric("ecn: {aqm: rde}", &p, err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown value 'rde' (did you mean 'red'?"));
	for (; *names; names++) {
		const struct sw_aqm_ops *ops = sw_aqm_find(*names);
		static const uint8_t ecns[] = { PKT_ECN_NOT_ECT, PKT_ECN_CE, PKT_ECN_ECT0 };

		CU_ASSERT_PTR_NOT_NULL_FATAL(ops);
		CU_ASSERT_PTR_NOT_NULL(ops->kind.doc);
		snprintf(text, sizeof(text), "ecn: {aqm: %s, kmin: 0B, kmax: 0B, pmax: 100%%}", *names);
		CU_ASSERT_EQUAL_FATAL(tsw_fabric(text, &p, err), 0);
		CU_ASSERT_PTR_EQUAL(p.aqm, ops);
		p.hash_seed = 1;
		sw = tsw_rates_rig(&s, &p, rates, peers, sinks);
		for (size_t i = 0; i < sizeof(ecns); i++) {
			struct rte_mbuf *m = sim_pkt_alloc(&s, false);
			struct pkt_roce f = { .addr = { .src_ip = addr_ep_ip(0), .dst_ip = addr_ep_ip(1),
						       .dscp = 26, .ecn = ecns[i], .ttl = 64 },
					      .opcode = PKT_OP_WRITE_MIDDLE, .pkey = 0xFFFF,
					      .payload_bytes = 1000 };

			CU_ASSERT_PTR_NOT_NULL_FATAL(m);
			CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
			sw_ecn(sw, sw_port(sw, 1), m, 1000);
			if (ecns[i] != PKT_ECN_ECT0) {
				CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_ROCE, m), ecns[i]);
			} else if (ops == &sw_aqm_red_ops) {
				CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_ROCE, m), PKT_ECN_CE);
			} else if (ops == &sw_aqm_none_ops) {
				CU_ASSERT_EQUAL(pkt_ll_ecn(PKT_LL_ROCE, m), PKT_ECN_ECT0);
			}
			sim_pkt_free(&s, m);
		}
		if (ops == &sw_aqm_red_ops)
			CU_ASSERT_EQUAL(sw_port_stats(sw, 1)->ecn_marked, 1);
		if (ops == &sw_aqm_none_ops)
			CU_ASSERT_EQUAL(sw_stats(sw)->ecn_marked, 0);
		rig_free(&s, sw, peers, sinks);
	}
}

/* fabric.pfc.alpha_by_rate: the 400G ingress pauses at alpha 1/2, the
 * 100G one at the fabric's 1/8 (the HPCC simulator's pfc_a_shift 1 and 3
 * with 100G NICs): at the same free pool its threshold is 4x larger.
 * Filling alone from a pool with F bytes already taken (lossy), a port of
 * alpha a pauses once its shared use b reaches a x (S - F - b), that is
 * at b = a (S - F) / (1 + a): (S - F) / 9 on the 100G port, (S - F) / 3
 * on the 400G one, within a frame (the frame that no longer fits goes to
 * headroom and pauses too). */
static void test_sw_pfc_alpha_by_rate(void)
{
	const uint64_t rates[3] = { TSW_100G, TSW_100G, TSW_400G };
	const uint32_t len = 1000;
	struct sw_sink sinks[3] = { 0 };
	struct port peers[3];
	struct sw_params p;
	struct sim s;
	struct sw *sw;
	struct sw_admit adm;
	uint64_t free_pool, lossy = 0;
	char err[CFG_ERR_BYTES];

	CU_ASSERT_EQUAL_FATAL(
		tsw_fabric("buffer: 4MB\npfc: {alpha_by_rate: [{rate: 400Gbps, alpha: 50%}]}", &p, err),
		0);
	p.hash_seed = 1;
	p.max_frame_bytes = 1100;
	sw = tsw_rates_rig(&s, &p, rates, peers, sinks);
	CU_ASSERT_EQUAL(sw->px[0].alpha_q16, SW_Q16 / 8);
	CU_ASSERT_EQUAL(sw->px[2].alpha_q16, 4 * sw->px[0].alpha_q16);
	/* Half the pool taken by lossy frames (priority 0) from port 1. */
	while (sw->shared_used + len <= sw->shared_size / 2) {
		CU_ASSERT_EQUAL_FATAL(sw_mmu_admit(sw, 1, 0, sw_port(sw, 0), 0, len, &adm), 0);
		lossy += len;
	}
	free_pool = sw->shared_size - sw->shared_used;
	for (uint16_t in = 0; in < 3; in += 2) {
		const struct sw_pg *pg = sw_pg(sw, in, 3);
		uint64_t a_q16 = in == 0 ? SW_Q16 / 8 : SW_Q16 / 2;
		uint64_t want = a_q16 * free_pool / (SW_Q16 + a_q16), b;
		uint32_t n_hr = 0;

		while (!pg->paused) {
			CU_ASSERT_EQUAL_FATAL(sw_mmu_admit(sw, in, 3, sw_port(sw, 1), 3, len, &adm), 0);
			CU_ASSERT_FATAL(adm.pool == SW_POOL_SHARED || adm.pool == SW_POOL_HEADROOM);
			n_hr += adm.pool == SW_POOL_HEADROOM;
		}
		CU_ASSERT(n_hr <= 1);
		b = pg->shared_used;
		CU_ASSERT(b + len >= want && b < want + len);
		/* Give them back: the group resumes, the pool is as before. */
		while (n_hr--)
			sw_mmu_release(sw, in, 3, SW_POOL_HEADROOM, len);
		for (uint64_t k = 0; k < b / len; k++)
			sw_mmu_release(sw, in, 3, SW_POOL_SHARED, len);
		CU_ASSERT_EQUAL(pg->paused, 0);
		CU_ASSERT_EQUAL(sw->shared_size - sw->shared_used, free_pool);
	}
	for (uint64_t k = 0; k < lossy / len; k++)
		sw_mmu_release(sw, 1, 0, SW_POOL_SHARED, len);
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
	sim_run(&s); /* the XOFF and XON frames */
	rig_free(&s, sw, peers, sinks);
}

int test_sw_register(void)
{
	CU_pSuite s = CU_add_suite("switch", NULL, NULL);

	if (!s || !CU_add_test(s, "ECMP spread is uniform", test_sw_ecmp_spread) ||
	    !CU_add_test(s, "forwarding rewrites MAC and TTL", test_sw_forward_and_rewrite) ||
	    !CU_add_test(s, "tail drop when the buffer is full", test_sw_tail_drop) ||
	    !CU_add_test(s, "PFC keeps an overload lossless", test_sw_pfc_lossless) ||
	    !CU_add_test(s, "PFC resumes a group once the shared pool drains",
			 test_sw_pfc_xon_after_pool_drains) ||
	    !CU_add_test(s, "path-choice registry", test_sw_path_registry) ||
	    !CU_add_test(s, "queue managers", test_sw_aqm) ||
	    !CU_add_test(s, "path choice: ecmp is the flow hash, first the first port",
			 test_sw_path_picks) ||
	    !CU_add_test(s, "path choice: every policy's contract (conformance)",
			 test_sw_path_conformance) ||
	    !CU_add_test(s, "path choice: spray is uniform", test_sw_path_spray_uniform) ||
	    !CU_add_test(s, "path choice: round-robin cycles per group", test_sw_path_rr_cycles) ||
	    !CU_add_test(s, "path choice: flowlets keep their port within the gap",
			 test_sw_path_flowlet_gap) ||
	    !CU_add_test(s, "path choice: least-loaded flowlets, shared slots",
			 test_sw_path_flowlet_least_loaded) ||
	    !CU_add_test(s, "path choice: adaptive takes the least-loaded port",
			 test_sw_path_adaptive) ||
	    !CU_add_test(s, "path choice in a switch, per-flow slots", test_sw_path_in_switch) ||
	    !CU_add_test(s, "IPv6 frames: ECMP on their 5-tuple, hop limit, ECN", test_sw_ipv6) ||
	    !CU_add_test(s, "forwarding replaced during a run (sw_set_fib)", test_sw_set_fib) ||
	    !CU_add_test(s, "RED marking curve", test_sw_red) ||
	    !CU_add_test(s, "PFC headroom formula", test_sw_headroom) ||
	    !CU_add_test(s, "per-rate ECN and PFC keys", test_sw_rate_keys) ||
	    !CU_add_test(s, "per-rate ECN and PFC keys: bad input", test_sw_rate_keys_bad) ||
	    !CU_add_test(s, "documented zeros of the switch keys", test_sw_zeros) ||
	    !CU_add_test(s, "ECN marks by each port's own rate's curve", test_sw_ecn_by_rate) ||
	    !CU_add_test(s, "PFC alpha per ingress port rate", test_sw_pfc_alpha_by_rate) ||
	    !CU_add_test(s, "INT records: the port's state at dequeue, grown frames' timing",
			 test_sw_int_records) ||
	    !CU_add_test(s, "INT compact records: +12 then +8 bytes, the simulator's units",
			 test_sw_int_compact))
		return -1;
	return 0;
}
