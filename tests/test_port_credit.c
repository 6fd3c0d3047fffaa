/* InfiniBand credit flow control per VL (core/port_credit.h) on two ports
 * of an IB link, with owners written here, and through the switch MMU.
 * Independent expectations: the IBTA numbers (64-byte blocks, 12-bit
 * counters, 2048-block window, 6-byte flow-control packets), the closed
 * form of a credit-limited link (a window of B bytes per credit round trip
 * R = frame + 2 x cable + flow-control packet, so goodput B / R and idle
 * time R - k x frame per window) and line rate when B covers the round trip. */
#include <string.h>

#include <rte_mbuf.h>

#include "pkt_ib.h"
#include "port.h"
#include "port_credit.h"
#include "port_fault.h"
#include "sim.h"
#include "sw.h"
#include "sw_int.h"
#include "test.h"

enum { RX_MAX = 1024 };

/* A receiving node: keeps frames (hold) or frees them and returns their
 * blocks at once (consume), recording arrival times. */
struct rx {
	bool hold;                 /* keep frames until rx_release */
	struct rte_mbuf *held[RX_MAX]; /* frames kept, oldest first */
	uint32_t n_held;           /* of them */
	uint32_t n_released;       /* released so far */
	uint64_t t_ps[RX_MAX];     /* arrival times */
	uint32_t n;                /* arrivals */
	uint64_t bytes;            /* frame bytes received */
};

static void rx_fn(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct rx *r = owner;
	uint32_t bytes = pkt_meta(m)->frame_bytes;

	if (r->n < RX_MAX)
		r->t_ps[r->n] = in->sim->now_ps;
	r->n++;
	r->bytes += bytes;
	if (r->hold && r->n_held < RX_MAX) {
		r->held[r->n_held++] = m;
		return;
	}
	port_credit_release(in, pkt_meta(m)->tc, bytes);
	sim_pkt_free(in->sim, m);
}

static const struct port_ops rx_ops = { .rx = rx_fn };

/* Release the @n oldest frames @r holds, as the node of port @in. */
static void rx_release(struct rx *r, struct port *in, uint32_t n)
{
	for (uint32_t i = 0; i < n && r->n_released < r->n_held; i++) {
		struct rte_mbuf *m = r->held[r->n_released++];

		port_credit_release(in, pkt_meta(m)->tc, pkt_meta(m)->frame_bytes);
		sim_pkt_free(in->sim, m);
	}
}

static void rx_free(struct rx *r, struct sim *s)
{
	while (r->n_released < r->n_held)
		sim_pkt_free(s, r->held[r->n_released++]);
}

/* Sender a, receiver b on one IB link; both under credits. */
struct link {
	struct sim s;
	struct port a, b;
	struct rx ra, rb;
};

static void link_init(struct link *l, const struct port_credit_params *pa,
		      const struct port_credit_params *pb, uint64_t rate_bps, uint64_t delay_ps)
{
	memset(&l->ra, 0, sizeof(l->ra));
	memset(&l->rb, 0, sizeof(l->rb));
	CU_ASSERT_EQUAL_FATAL(sim_init(&l->s, 1, test_mempool()), 0);
	port_init(&l->a, &l->s, &rx_ops, &l->ra, 0, 0);
	port_init(&l->b, &l->s, &rx_ops, &l->rb, 1, 0);
	port_set_ll(&l->a, &pkt_ll_ib);
	port_set_ll(&l->b, &pkt_ll_ib);
	port_connect(&l->a, &l->b, rate_bps, delay_ps);
	CU_ASSERT_EQUAL_FATAL(port_credit_enable(&l->a, pa), 0);
	CU_ASSERT_EQUAL_FATAL(port_credit_enable(&l->b, pb), 0);
}

static void link_fini(struct link *l)
{
	rx_free(&l->ra, &l->s);
	rx_free(&l->rb, &l->s);
	port_fini(&l->a);
	port_fini(&l->b);
	CU_ASSERT_EQUAL(l->s.pkts_in_use, 0);
	sim_fini(&l->s);
}

static struct port_credit_params params(uint32_t vl0_bytes, uint32_t update_bytes)
{
	struct port_credit_params p = { .update_bytes = update_bytes };

	p.buffer_bytes[0] = vl0_bytes;
	return p;
}

static const uint64_t rate_400g = UINT64_C(400000000000); /* 20 ps per byte */

/* (a) A receiver that holds everything gets exactly its buffer's worth of
 * blocks and the sender stops; each release lets exactly that much more
 * through. Frames of 1000 bytes are 16 blocks (ceil(1000 / 64)): a
 * 4096-byte buffer (64 blocks) takes 4. With the gating off all 10 would
 * arrive and credit_overruns would count them. */
static void test_credit_holds_buffer(void)
{
	struct port_credit_params pa = params(4096, 0), pb = params(4096, 1000);
	struct port_credit_stats st;
	struct link l;

	link_init(&l, &pa, &pb, rate_400g, 100000);
	l.rb.hold = true;
	for (int i = 0; i < 10; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 1000, 0), 0, 1000);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 4);
	CU_ASSERT_EQUAL(port_tc_len(&l.a, 0), 6);
	CU_ASSERT_EQUAL(port_credit_blocked_vl(&l.a), 0); /* waiting for credits */
	CU_ASSERT(port_paused_mask(&l.a) & 1);
	port_credit_stats(&l.b, &st);
	CU_ASSERT_EQUAL(st.max_held_blocks[0], 64);
	CU_ASSERT_EQUAL(st.credit_overruns[0], 0);
	/* One release frees 16 blocks, at the 1000-byte (16-block) threshold:
	 * one flow-control packet, one more frame. */
	rx_release(&l.rb, &l.b, 1);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 5);
	CU_ASSERT_EQUAL(port_tc_len(&l.a, 0), 5);
	rx_release(&l.rb, &l.b, 100);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 9);
	rx_release(&l.rb, &l.b, 100);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 10);
	CU_ASSERT_EQUAL(port_tc_len(&l.a, 0), 0);
	CU_ASSERT_EQUAL(port_credit_blocked_vl(&l.a), -ENOENT);
	port_credit_stats(&l.b, &st);
	CU_ASSERT_EQUAL(st.credit_overruns[0], 0);
	CU_ASSERT_EQUAL(st.max_held_blocks[0], 64);
	CU_ASSERT_EQUAL(st.blocks_rx[0], 160);
	port_credit_stats(&l.a, &st);
	CU_ASSERT_EQUAL(st.blocks_tx[0], 160);
	link_fini(&l);
}

/* (a') The 2048-block window: a 128 KiB buffer takes 31 frames of 4122
 * bytes (65 blocks: 2015), not 32 (2080). FCCL - FCTBS reaches exactly
 * 2048 at the start, the rule's edge. */
static void test_credit_window_edge(void)
{
	struct port_credit_params pa = params(4096, 0),
				  pb = params(PORT_CREDIT_MAX_BUFFER_BYTES, 8192);
	struct port_credit_stats st;
	struct link l;

	link_init(&l, &pa, &pb, rate_400g, 100000);
	l.rb.hold = true;
	for (int i = 0; i < 40; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 4122, 0), 0, 4122);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 31);
	port_credit_stats(&l.b, &st);
	CU_ASSERT_EQUAL(st.max_held_blocks[0], 2015);
	CU_ASSERT_EQUAL(st.credit_overruns[0], 0);
	/* Past the cap is refused. */
	pb.buffer_bytes[1] = PORT_CREDIT_MAX_BUFFER_BYTES + 64;
	CU_ASSERT_EQUAL(port_credit_enable(&l.b, &pb), -EINVAL);
	pb.buffer_bytes[1] = 100; /* not a multiple of 64 */
	CU_ASSERT_EQUAL(port_credit_enable(&l.b, &pb), -EINVAL);
	rx_release(&l.rb, &l.b, 100);
	sim_run(&l.s);
	rx_release(&l.rb, &l.b, 100);
	CU_ASSERT_EQUAL(l.rb.n, 40);
	link_fini(&l);
}

/* (b) The 12-bit counters wrap: 400 frames of 4096 bytes are 25,600
 * blocks (six wraps of 4096) through an 8 KiB buffer (a window of 2
 * frames, a credit packet per frame); all arrive, each at the time of the
 * closed form of (c) (T0 + (j / 2) R + (j % 2) S + S + d), FCTBS and ABR
 * end at 25,600 mod 4096 on both ends, nothing overruns. With unmasked
 * counters or a comparison outside mod 4096 the link would stall or run
 * ahead at the first wrap; without the gating every frame would come
 * early. */
static void test_credit_wrap(void)
{
	const uint64_t d = 500000, S = 4096 * 20, T0 = 6 * 20, R = S + 2 * d + 6 * 20;
	struct port_credit_params pa = params(8192, 1024), pb = params(8192, 1024);
	struct port_credit_stats st;
	bool exact = true;
	struct link l;

	link_init(&l, &pa, &pb, rate_400g, d);
	for (int i = 0; i < 400; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 4096, 0), 0, 4096);
	sim_run(&l.s);
	CU_ASSERT_EQUAL_FATAL(l.rb.n, 400);
	for (uint32_t j = 0; j < 400; j++)
		exact &= l.rb.t_ps[j] == T0 + (j / 2) * R + (j % 2) * S + S + d;
	CU_ASSERT(exact);
	CU_ASSERT_EQUAL(l.a.credit->vl[0].fctbs, 25600 % PKT_IB_FC_MOD);
	CU_ASSERT_EQUAL(l.b.credit->vl[0].abr, 25600 % PKT_IB_FC_MOD);
	CU_ASSERT_EQUAL(l.b.credit->vl[0].held_blocks, 0);
	port_credit_stats(&l.b, &st);
	CU_ASSERT_EQUAL(st.blocks_rx[0], 25600);
	CU_ASSERT_EQUAL(st.credit_overruns[0], 0);
	CU_ASSERT(st.max_held_blocks[0] <= 128);
	link_fini(&l);
}

/* (c, d, e) A link of 400 Gb/s (20 ps a byte) and 1 us, frames of 4096
 * bytes (S = 81,920 ps), a credit packet per frame (update 4096 bytes)
 * released as each frame arrives. A frame's credit is back
 * R = S + d + 6 x 20 ps + d after it starts (its serialisation and
 * propagation, then the flow-control packet's). With k = B / 4096 frames
 * of window and k x S < R, frame j = q k + r starts at T0 + q R + r S
 * (T0 = 120 ps: a's own init packet goes first), goodput is B / R, and the
 * VL starves R - k S per window after the first. The receiver's port
 * returns blocks at arrival (release_on_arrival, the NIC path) in one run
 * and its node calls port_credit_release in the other. */
static void run_credit_loop(bool port_releases)
{
	const uint64_t d = 1000000, S = 4096 * 20, S_fc = 6 * 20, T0 = S_fc;
	const uint64_t R = S + 2 * d + S_fc;
	const uint32_t k = 8, W = 50, M = k * W;
	struct port_credit_params pa = params(4096, 4096), pb = params(k * 4096, 4096);
	struct port_credit_stats sa, sb;
	double goodput_bps, bound_bps;
	bool exact = true;
	struct link l;

	pb.release_on_arrival = port_releases;
	link_init(&l, &pa, &pb, rate_400g, d);
	l.rb.hold = port_releases; /* the node keeps them: only the port returns credits */
	for (uint32_t i = 0; i < M; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 4096, 0), 0, 4096);
	sim_run(&l.s);
	CU_ASSERT_EQUAL_FATAL(l.rb.n, M);
	for (uint32_t j = 0; j < M; j++)
		exact &= l.rb.t_ps[j] == T0 + (j / k) * R + (j % k) * S + S + d;
	CU_ASSERT(exact);
	/* Long-run goodput, window 1 to window W - 1 (arrivals of their
	 * first frames): against B / R, within 1%. */
	goodput_bps = (double)(W - 2) * k * 4096 * 8 * 1e12 /
		      (double)(l.rb.t_ps[(W - 1) * k] - l.rb.t_ps[k]);
	bound_bps = (double)k * 4096 * 8 * 1e12 / (double)R;
	CU_ASSERT_DOUBLE_EQUAL(goodput_bps / bound_bps, 1.0, 0.01);
	CU_ASSERT(goodput_bps < 0.5 * rate_400g); /* the window, not the line, limits it */
	/* (e) starved: R - k S per window after the first. */
	port_credit_stats(&l.a, &sa);
	CU_ASSERT_EQUAL(sa.credit_starved_ps[0], (W - 1) * (R - k * S));
	/* (d) b's flow-control packets: the init and one per frame, 6 bytes
	 * each, every one received by a. */
	port_credit_stats(&l.b, &sb);
	CU_ASSERT_EQUAL(sb.fc_tx[0], 1 + M);
	CU_ASSERT_EQUAL(sa.fc_rx[0], 1 + M);
	CU_ASSERT_EQUAL(l.b.ctrl_tx_pkts, 1 + M);
	CU_ASSERT_EQUAL(l.b.ctrl_tx_bytes, 6 * (1 + M));
	CU_ASSERT_EQUAL(sb.credit_overruns[0], 0);
	CU_ASSERT_EQUAL(sb.max_held_blocks[0], 64); /* each returned as it arrives */
	if (port_releases)
		l.rb.n_released = l.rb.n_held; /* freed below, not released */
	for (uint32_t i = 0; port_releases && i < l.rb.n_held; i++)
		sim_pkt_free(&l.s, l.rb.held[i]);
	link_fini(&l);
}

static void test_credit_loop_bound(void)
{
	run_credit_loop(false);
	run_credit_loop(true);
}

/* (c) With the VL buffer above the round trip's bytes (R x rate = 104 KB,
 * plus the 8 KiB update threshold of the defaults), 128 KiB: line rate,
 * each frame exactly S after the one before, never starved. */
static void test_credit_line_rate(void)
{
	const uint64_t d = 1000000, S = 4096 * 20, T0 = 6 * 20;
	const uint32_t M = 600;
	struct port_credit_params pa, pb;
	struct port_credit_stats sa, sb;
	bool exact = true;
	double goodput_bps;
	struct link l;

	port_credit_params_default(&pa);
	port_credit_params_default(&pb);
	link_init(&l, &pa, &pb, rate_400g, d);
	for (uint32_t i = 0; i < M; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 4096, 0), 0, 4096);
	sim_run(&l.s);
	CU_ASSERT_EQUAL_FATAL(l.rb.n, M);
	for (uint32_t j = 0; j < M; j++)
		exact &= l.rb.t_ps[j] == T0 + (j + 1) * S + d;
	CU_ASSERT(exact);
	goodput_bps = (double)(M - 1) * 4096 * 8 * 1e12 / (double)(l.rb.t_ps[M - 1] - l.rb.t_ps[0]);
	CU_ASSERT_DOUBLE_EQUAL(goodput_bps / rate_400g, 1.0, 0.005);
	port_credit_stats(&l.a, &sa);
	port_credit_stats(&l.b, &sb);
	CU_ASSERT_EQUAL(sa.credit_starved_ps[0], 0);
	/* One flow-control packet per two frames (8 KiB = 128 blocks), and
	 * the init. */
	CU_ASSERT_EQUAL(sb.fc_tx[0], 1 + M / 2);
	CU_ASSERT_EQUAL(sb.credit_overruns[0], 0);
	link_fini(&l);
}

/* (d) The refresh: a release below the threshold is advertised one
 * refresh interval later, in one 6-byte packet that reaches the sender
 * after 120 ps of serialisation and the cable; nothing more is sent
 * while nothing changes (the simulation runs dry). */
static void test_credit_refresh(void)
{
	struct port_credit_params pa = params(4096, 0), pb = params(4096, 4096);
	struct port_credit_stats sa, sb;
	struct link l;

	pb.refresh_ps = 5000000;
	link_init(&l, &pa, &pb, rate_400g, 1000000);
	l.rb.hold = true;
	for (int i = 0; i < 6; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 1024, 0), 0, 1024);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 4);
	rx_release(&l.rb, &l.b, 1); /* 16 blocks, under the 64-block threshold */
	sim_run(&l.s);
	/* Released at the end of the first run (the last arrival); the refresh
	 * 5 us later sends one packet, a takes one frame 120 ps + 1 us later,
	 * it arrives after its 20,480 ps and the cable. */
	CU_ASSERT_EQUAL(l.rb.n, 5);
	CU_ASSERT_EQUAL(l.rb.t_ps[4], l.rb.t_ps[3] + 5000000 + 120 + 1000000 + 1024 * 20 + 1000000);
	port_credit_stats(&l.a, &sa);
	port_credit_stats(&l.b, &sb);
	CU_ASSERT_EQUAL(sb.fc_tx[0], 2);
	CU_ASSERT_EQUAL(sa.fc_rx[0], 2);
	rx_release(&l.rb, &l.b, 100);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 6);
	link_fini(&l);
}

/* fabric.ib.credit_interval 0s (the default) means 65,536 byte times of
 * the link: 65536 x 20 ps = 1,310,720 ps at 400 Gb/s, and the refresh of
 * (d) comes that long after the release, not after some fixed default. A
 * link that retrains at 200 Gb/s (a rate fault) refreshes at that rate's
 * 2,621,440 ps; a configured interval stays as given. */
static void test_credit_refresh_default(void)
{
	struct port_credit_params pa = params(4096, 0), pb = params(4096, 4096);
	struct link l;

	pb.refresh_ps = 0;
	link_init(&l, &pa, &pb, rate_400g, 1000000);
	CU_ASSERT_EQUAL(l.b.credit->refresh_ps, 65536 * 20);
	l.rb.hold = true;
	for (int i = 0; i < 6; i++)
		port_enqueue(&l.a, test_port_frame(&l.s, 1024, 0), 0, 1024);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 4);
	rx_release(&l.rb, &l.b, 1);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 5);
	CU_ASSERT_EQUAL(l.rb.t_ps[4], l.rb.t_ps[3] + 65536 * 20 + 120 + 1000000 + 1024 * 20 + 1000000);
	port_link_set_rate(&l.a, rate_400g / 2);
	CU_ASSERT_EQUAL(l.b.credit->refresh_ps, 65536 * 40);
	CU_ASSERT_EQUAL(l.a.credit->refresh_ps, 65536 * 40);
	rx_release(&l.rb, &l.b, 100);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.rb.n, 6);
	link_fini(&l);

	pb.refresh_ps = 5000000;
	link_init(&l, &pa, &pb, rate_400g, 1000000);
	port_link_set_rate(&l.a, rate_400g / 2);
	CU_ASSERT_EQUAL(l.b.credit->refresh_ps, 5000000);
	link_fini(&l);
}

/* A pulling owner (a NIC): frames on VL 0 beyond the credits wait in the
 * class queue; pulling goes on for VL 1, which has its own credits. */
struct puller {
	struct sim *s;
	uint32_t left[2];      /* frames still to hand out per VL */
	uint32_t pulls;        /* frames pulled */
};

static struct rte_mbuf *pull_fn(void *owner, struct port *p)
{
	struct puller *u = owner;

	for (uint8_t vl = 0; vl < 2; vl++)
		if (u->left[vl] && !(port_paused_mask(p) & (1u << vl))) {
			u->left[vl]--;
			u->pulls++;
			return test_port_frame(u->s, 1024, vl);
		}
	return NULL;
}

static const struct port_ops pull_ops = { .rx = rx_fn, .pull = pull_fn };

static void test_credit_pull(void)
{
	struct port_credit_params pa = params(4096, 0), pb = params(4096, 0);
	struct port_credit_stats sb;
	struct puller u = { .left = { 10, 10 } };
	struct link l;

	pb.buffer_bytes[1] = 2048;
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL_FATAL(sim_init(&l.s, 1, test_mempool()), 0);
	u.s = &l.s;
	port_init(&l.a, &l.s, &pull_ops, &u, 0, 0);
	port_init(&l.b, &l.s, &rx_ops, &l.rb, 1, 0);
	port_set_ll(&l.a, &pkt_ll_ib);
	port_set_ll(&l.b, &pkt_ll_ib);
	CU_ASSERT_EQUAL_FATAL(port_credit_enable(&l.a, &pa), 0);
	CU_ASSERT_EQUAL_FATAL(port_credit_enable(&l.b, &pb), 0);
	port_connect(&l.a, &l.b, rate_400g, 100000); /* link up here */
	l.rb.hold = true;
	port_kick(&l.a);
	sim_run(&l.s);
	/* VL 0: 4 frames of 16 blocks fit, the 5th waits in q[0]; VL 1: 2,
	 * the 3rd waits in q[1]; then nothing more is pulled. */
	CU_ASSERT_EQUAL(l.rb.n, 6);
	CU_ASSERT_EQUAL(u.pulls, 8);
	CU_ASSERT_EQUAL(port_tc_len(&l.a, 0), 1);
	CU_ASSERT_EQUAL(port_tc_len(&l.a, 1), 1);
	rx_release(&l.rb, &l.b, 1000);
	sim_run(&l.s);
	rx_release(&l.rb, &l.b, 1000);
	sim_run(&l.s);
	rx_release(&l.rb, &l.b, 1000);
	sim_run(&l.s);
	rx_release(&l.rb, &l.b, 1000);
	sim_run(&l.s);
	rx_release(&l.rb, &l.b, 1000);
	CU_ASSERT_EQUAL(l.rb.n, 20);
	CU_ASSERT_EQUAL(u.pulls, 20);
	port_credit_stats(&l.b, &sb);
	CU_ASSERT_EQUAL(sb.credit_overruns[0] + sb.credit_overruns[1], 0);
	CU_ASSERT_EQUAL(sb.max_held_blocks[0], 64);
	CU_ASSERT_EQUAL(sb.max_held_blocks[1], 32);
	link_fini(&l);
}

/* The switch MMU on an IB ingress port: sw_ready commits the VL buffers
 * granted (and refuses a buffer they do not fit), admission never refuses
 * nor sends XOFF even past the shared pool, and releases return the blocks
 * in flow-control packets (one per 8 KiB freed). Frames arrive at the
 * port's credit count directly (the forwarding of IB frames is not the
 * MMU's). */
static void test_credit_sw_mmu(void)
{
	static const uint32_t fib_class[3] = { 0, 0, 0 };
	static const uint32_t fib_off[4] = { 0, 1, 2, 3 };
	static const uint16_t fib_ports[3] = { 0, 1, 2 };
	static const uint32_t fib_class_off[2] = { 0, 0 };
	const struct fib_rows fib = {
		.n_eps = 3, .ep_class = fib_class, .n_classes = 1, .off = fib_class_off,
		.ports = fib_ports, .direct_lo = 0, .direct_n = 3, .direct_off = fib_off,
		.direct_ports = fib_ports,
	};
	struct sw_params p = { .buffer_bytes = 200 * 1024, .hash_seed = 1, .reserve_bytes = 0,
			       .max_frame_bytes = 4200 };
	struct port_credit_params cp;
	struct port_credit_stats st;
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];
	struct sw_admit res;
	struct rx peer_rx = { 0 };
	struct port peer;
	struct sim s;
	struct sw *sw;

	port_credit_params_default(&cp);
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	for (int i = 0; i < 8; i++)
		p.prio_to_tc[i] = (uint8_t)i;
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	port_set_ll(sw_port(sw, 0), &pkt_ll_ib);
	CU_ASSERT_EQUAL(sw_port_credit_on(sw, 3, &cp), -EINVAL);
	CU_ASSERT_EQUAL(sw_port_credit_on(sw, 1, &cp), -EINVAL); /* not an IB port */
	CU_ASSERT_EQUAL_FATAL(sw_port_credit_on(sw, 0, &cp), 0);
	port_init(&peer, &s, &rx_ops, &peer_rx, 1, 0);
	port_set_ll(&peer, &pkt_ll_ib);
	CU_ASSERT_EQUAL_FATAL(port_credit_enable(&peer, &cp), 0);
	port_connect(sw_port(sw, 0), &peer, rate_400g, 1000000);
	sim_run(&s); /* the init packets */
	/* 128 KiB granted on port 0 out of 200 KiB: the pool is the rest. */
	CU_ASSERT_EQUAL_FATAL(sw_ready(sw, err, warn), 0);
	CU_ASSERT_EQUAL(sw->shared_size, 200 * 1024 - PORT_CREDIT_MAX_BUFFER_BYTES);
	/* 32 frames of 4096 (the whole VL buffer) admitted, though past the
	 * 72 KiB pool: credit groups are never refused. */
	for (int i = 0; i < 32; i++) {
		struct rte_mbuf *m = test_port_frame(&s, 4096, 0);

		port_credit_arrive(sw_port(sw, 0), m);
		sim_pkt_free(&s, m);
		CU_ASSERT_EQUAL(sw_mmu_admit(sw, 0, 0, sw_port(sw, 1), 0, 4096, &res), 0);
		CU_ASSERT_EQUAL(res.pool, SW_POOL_CREDIT);
	}
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 32 * 4096);
	CU_ASSERT_EQUAL(sw->n_paused, 0);
	CU_ASSERT_EQUAL(sw_port(sw, 0)->ctrl_tx_pkts, 1); /* the init only: no XOFF */
	port_credit_stats(sw_port(sw, 0), &st);
	CU_ASSERT_EQUAL(st.credit_overruns[0], 0);
	CU_ASSERT_EQUAL(st.max_held_blocks[0], 2048);
	for (int i = 0; i < 32; i++)
		sw_mmu_release(sw, 0, 0, SW_POOL_CREDIT, 4096);
	CU_ASSERT_EQUAL(sw_buffer_used(sw), 0);
	sim_run(&s);
	port_credit_stats(&peer, &st);
	CU_ASSERT_EQUAL(st.fc_rx[0], 1 + 16); /* init, then one per two frames */
	CU_ASSERT_EQUAL(peer.credit->vl[0].fccl, (2048 + 2048) % PKT_IB_FC_MOD);
	port_fini(&peer);
	sw_free(sw);
	/* A buffer the granted VL buffers do not fit in. */
	p.buffer_bytes = 100 * 1024;
	sw = sw_new(&s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	port_set_ll(sw_port(sw, 0), &pkt_ll_ib);
	CU_ASSERT_EQUAL_FATAL(sw_port_credit_on(sw, 0, &cp), 0);
	port_init(&peer, &s, &rx_ops, &peer_rx, 1, 0);
	port_set_ll(&peer, &pkt_ll_ib);
	port_connect(sw_port(sw, 0), &peer, rate_400g, 1000000);
	CU_ASSERT_EQUAL(sw_ready(sw, err, warn), -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "credit buffers"));
	port_fini(&peer);
	sw_free(sw);
	sim_fini(&s);
}

/* Credit-loop detection's edge: two ports each hold a frame whose VL
 * has no credit (the peer holds its whole buffer): both blocked. */
static void test_credit_blocked(void)
{
	struct port_credit_params pa = params(4096, 0), pb = params(4096, 0);
	struct link l;

	link_init(&l, &pa, &pb, rate_400g, 1000);
	l.ra.hold = l.rb.hold = true;
	for (int i = 0; i < 5; i++) {
		port_enqueue(&l.a, test_port_frame(&l.s, 1024, 0), 0, 1024);
		port_enqueue(&l.b, test_port_frame(&l.s, 1024, 0), 0, 1024);
	}
	sim_run(&l.s);
	CU_ASSERT_EQUAL(port_credit_blocked_vl(&l.a), 0);
	CU_ASSERT_EQUAL(port_credit_blocked_vl(&l.b), 0);
	CU_ASSERT_EQUAL(l.ra.n, 4);
	CU_ASSERT_EQUAL(l.rb.n, 4);
	link_fini(&l);
}

int test_port_credit_register(void)
{
	static const struct test_case tests[] = {
		{ "receiver that holds: exactly its buffer, then per release", test_credit_holds_buffer },
		{ "2048-block window edge and buffer cap", test_credit_window_edge },
		{ "12-bit counters wrap (25,600 blocks)", test_credit_wrap },
		{ "credit-limited goodput B/R, starved time, FC packets", test_credit_loop_bound },
		{ "buffer over the round trip: line rate", test_credit_line_rate },
		{ "lazy refresh timer", test_credit_refresh },
		{ "refresh 0: 65,536 byte times at the link's rate", test_credit_refresh_default },
		{ "pull path waits per VL", test_credit_pull },
		{ "switch MMU on an IB ingress", test_credit_sw_mmu },
		{ "credit-blocked ports", test_credit_blocked },
	};

	return test_suite("port_credit", tests);
}
