/* In-network reduction at a switch (switch/sw_agg.c), on a 3-port switch
 * with a host behind each port: a group's slots held until every child
 * has brought them, one child far ahead (the ring grows past its first
 * 64 slots), packets that are not a member's going by, the buffer given
 * back, a PSN out of turn going by unreduced; below the root, the
 * partial sum sent up alone and the held
 * packets leaving with the result that comes back down; and what
 * sw_agg_add refuses. The expectations are counted by hand from the
 * frames injected. */
#include <errno.h>
#include <string.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "port_pfc.h"
#include "sim.h"
#include "sw.h"
#include "test.h"

struct agg_sink {
	uint32_t n;              /* frames received */
};

static void agg_sink_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	((struct agg_sink *)owner)->n++;
	sim_pkt_free(in->sim, m);
}

static const struct port_ops agg_sink_ops = { .rx = agg_sink_rx };

/* A data frame of host @src's connection to itself (member key: its
 * endpoint and @qpn), or to @dst. */
static struct rte_mbuf *agg_frame(struct sim *s, uint32_t src, uint32_t dst, uint32_t qpn, uint32_t psn)
{
	struct rte_mbuf *m = sim_pkt_alloc(s, false);
	struct pkt_roce f = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	f.addr.src_ip = addr_ep_ip(src);
	f.addr.dst_ip = addr_ep_ip(dst);
	f.addr.dscp = 24;
	f.addr.ecn = PKT_ECN_ECT0;
	f.addr.ttl = 64;
	f.addr.udp_sport = 0xC001;
	f.opcode = PKT_OP_WRITE_MIDDLE;
	f.pkey = 0xFFFF;
	f.dest_qp = qpn;
	f.psn = psn;
	f.payload_bytes = 256;
	CU_ASSERT_EQUAL_FATAL(pkt_build_roce(m, &f, NULL), 0);
	return m;
}

static const uint32_t agg_class[] = { 0, 0, 0 };
static const uint32_t agg_class_off[] = { 0, 0 };
static const uint32_t agg_off[] = { 0, 1, 2, 3 };
static const uint16_t agg_ports[] = { 0, 1, 2 };

struct agg_rig {
	struct sim s;
	struct sw *sw;
	struct port peers[3];
	struct agg_sink sinks[3];
};

/* The switch, lossless on priority 3 (DSCP 24) at every port, its pause
 * threshold above what the tests hold. */
static void agg_rig_new(struct agg_rig *r)
{
	static const uint8_t ident[PKT_N_PRIO] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint8_t mac[6] = { 0 };
	struct sw_params p = { .buffer_bytes = 4 << 20, .hash_seed = 1 };
	struct fib_rows fib = { .n_eps = 3, .ep_class = agg_class, .n_classes = 1, .off = agg_class_off,
				.ports = agg_ports, .direct_lo = 0, .direct_n = 3, .direct_off = agg_off,
				.direct_ports = agg_ports };
	char err[CFG_ERR_BYTES], warn[CFG_ERR_BYTES];

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 64; i++)
		p.dscp_to_prio[i] = (uint8_t)(i >> 3);
	for (int i = 0; i < 8; i++)
		p.prio_to_tc[i] = (uint8_t)i;
	p.pfc.lossless_prio = 1u << 3;
	p.pfc.xoff_bytes = 256 * 1024; /* static: no pause with what the tests hold */
	p.pfc.xon_bytes = 128 * 1024;
	p.pfc.quanta = 0xFFFF;
	p.max_frame_bytes = 1100;
	CU_ASSERT_EQUAL_FATAL(sim_init(&r->s, 1, test_mempool()), 0);
	r->sw = sw_new(&r->s, 0, 0, 3, &p, &fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->sw);
	for (uint16_t i = 0; i < 3; i++) {
		port_init(&r->peers[i], &r->s, &agg_sink_ops, &r->sinks[i], 1 + i, 0);
		CU_ASSERT_EQUAL_FATAL(port_pfc_enable(&r->peers[i], ident), 0);
		port_connect(sw_port(r->sw, i), &r->peers[i], UINT64_C(100000000000), 1000);
		sw_set_next_hop_mac(r->sw, i, mac);
	}
	CU_ASSERT_EQUAL_FATAL(sw_ready(r->sw, err, warn), 0);
}

static void agg_rig_free(struct agg_rig *r)
{
	sw_free(r->sw);
	for (int i = 0; i < 3; i++)
		port_fini(&r->peers[i]);
	sim_fini(&r->s);
}

static void agg_send(struct agg_rig *r, uint16_t from, struct rte_mbuf *m)
{
	port_enqueue(&r->peers[from], m, 0, pkt_meta(m)->frame_bytes);
}

/* Run what was sent, for at most 1 ms (a slot never completed keeps the
 * PFC refresh going: a bug here must fail, not hang). */
static void agg_run(struct agg_rig *r)
{
	r->s.stop_ps = r->s.now_ps + UINT64_C(1000000000);
	r->s.stopped = false;
	sim_run(&r->s);
	CU_ASSERT(!r->s.stopped);
}

/* The switch's counters are @contributions, @slots and @errors. */
static void agg_expect(const struct agg_rig *r, uint64_t contributions, uint64_t slots, uint64_t errors)
{
	struct sw_agg_stats st;

	sw_agg_totals(r->sw, &st);
	CU_ASSERT_EQUAL(st.contributions, contributions);
	CU_ASSERT_EQUAL(st.slots, slots);
	CU_ASSERT_EQUAL(st.errors, errors);
}

static const uint32_t agg_ep[] = { 0, 1 };
static const uint32_t agg_qpn[] = { 0x101, 0x102 };
static const uint16_t agg_children[] = { 0, 1 };

/* Root: host 0 sends 100 slots before host 1 sends any. */
static void test_sw_agg_root(void)
{
	struct sw_agg_spec sp = { .n_members = 2, .member_ep = agg_ep, .member_qpn = agg_qpn,
				  .n_child = 2, .child_ports = agg_children, .up_port = SW_AGG_ROOT,
				  .hosts = true };
	struct agg_rig r;

	agg_rig_new(&r);
	CU_ASSERT_EQUAL_FATAL(sw_agg_add(r.sw, &sp), 0);
	CU_ASSERT_EQUAL(sw_agg_groups(r.sw), 1);
	for (uint32_t k = 0; k < 100; k++)
		agg_send(&r, 0, agg_frame(&r.s, 0, 0, 0x101, k));
	/* Not a member's (another QP; a frame to another host) go by. */
	agg_send(&r, 0, agg_frame(&r.s, 0, 0, 0x999, 0));
	agg_send(&r, 0, agg_frame(&r.s, 0, 2, 0x101, 0));
	agg_run(&r);
	CU_ASSERT_EQUAL(r.sinks[0].n, 1);
	CU_ASSERT_EQUAL(r.sinks[2].n, 1);
	CU_ASSERT(sw_buffer_used(r.sw) > 0); /* the 100 held count against the buffer */
	for (uint32_t k = 0; k < 100; k++)
		agg_send(&r, 1, agg_frame(&r.s, 1, 1, 0x102, 500 + k));
	agg_run(&r);
	CU_ASSERT_EQUAL(r.sinks[0].n, 101);
	CU_ASSERT_EQUAL(r.sinks[1].n, 100);
	CU_ASSERT_EQUAL(sw_buffer_used(r.sw), 0);
	agg_expect(&r, 200, 100, 0);
	/* A PSN out of turn (a retransmission of 50) goes by unreduced. */
	agg_send(&r, 0, agg_frame(&r.s, 0, 0, 0x101, 50));
	agg_run(&r);
	CU_ASSERT_EQUAL(r.sinks[0].n, 102);
	agg_expect(&r, 200, 100, 1);
	CU_ASSERT_EQUAL(r.s.pkts_in_use, 0);
	agg_rig_free(&r);
}

/* Below the root (parent on port 2): the partial sum goes up, the held
 * packets go down with the result. */
static void test_sw_agg_below(void)
{
	struct sw_agg_spec sp = { .n_members = 2, .member_ep = agg_ep, .member_qpn = agg_qpn,
				  .n_child = 2, .child_ports = agg_children, .up_port = 2 };
	struct agg_rig r;

	agg_rig_new(&r);
	CU_ASSERT_EQUAL_FATAL(sw_agg_add(r.sw, &sp), 0);
	/* Host 0's first: host 1's, the last of each slot, go up. */
	for (uint32_t k = 0; k < 3; k++)
		agg_send(&r, 0, agg_frame(&r.s, 0, 0, 0x101, k));
	agg_run(&r);
	for (uint32_t k = 0; k < 3; k++)
		agg_send(&r, 1, agg_frame(&r.s, 1, 1, 0x102, k));
	agg_run(&r);
	CU_ASSERT_EQUAL(r.sinks[2].n, 3); /* one partial sum a slot */
	CU_ASSERT_EQUAL(r.sinks[0].n + r.sinks[1].n, 0);
	/* Once the partial sums are up, the held packets hold no buffer. */
	CU_ASSERT_EQUAL(sw_buffer_used(r.sw), 0);
	/* The results come back down (host 1's packets, as they went up):
	 * host 0's held ones leave with them. */
	for (uint32_t k = 0; k < 3; k++)
		agg_send(&r, 2, agg_frame(&r.s, 1, 1, 0x102, k));
	agg_run(&r);
	CU_ASSERT_EQUAL(r.sinks[0].n, 3);
	CU_ASSERT_EQUAL(r.sinks[1].n, 3);
	agg_expect(&r, 6, 3, 0);
	/* A result for no slot: counted, and it goes on. */
	agg_send(&r, 2, agg_frame(&r.s, 1, 1, 0x102, 9));
	agg_run(&r);
	agg_expect(&r, 6, 3, 1);
	CU_ASSERT_EQUAL(r.sinks[1].n, 4);
	CU_ASSERT_EQUAL(r.s.pkts_in_use, 0);
	agg_rig_free(&r);
}

static void test_sw_agg_refused(void)
{
	static const uint16_t twice[] = { 1, 1 }, far[] = { 0, 7 };
	struct sw_agg_spec sp = { .n_members = 2, .member_ep = agg_ep, .member_qpn = agg_qpn,
				  .n_child = 2, .child_ports = agg_children, .up_port = SW_AGG_ROOT };
	struct agg_rig r;

	agg_rig_new(&r);
	sp.child_ports = twice;
	CU_ASSERT_EQUAL(sw_agg_add(r.sw, &sp), -EINVAL);
	sp.child_ports = far;
	CU_ASSERT_EQUAL(sw_agg_add(r.sw, &sp), -EINVAL);
	sp.child_ports = agg_children;
	sp.up_port = 1; /* a child's port */
	CU_ASSERT_EQUAL(sw_agg_add(r.sw, &sp), -EINVAL);
	sp.up_port = SW_AGG_ROOT;
	CU_ASSERT_EQUAL(sw_agg_add(r.sw, &sp), 0);
	CU_ASSERT_EQUAL(sw_agg_add(r.sw, &sp), -EEXIST); /* its members again */
	agg_rig_free(&r);
}

int test_sw_agg_register(void)
{
	CU_pSuite s = CU_add_suite("switch in-network reduction", NULL, NULL);

	if (!s || !CU_add_test(s, "root: slots held until every child's, one child 100 ahead", test_sw_agg_root) ||
	    !CU_add_test(s, "below the root: partial sum up, held packets down with the result",
			 test_sw_agg_below) ||
	    !CU_add_test(s, "sw_agg_add refuses bad ports and a member twice", test_sw_agg_refused))
		return -1;
	return 0;
}
