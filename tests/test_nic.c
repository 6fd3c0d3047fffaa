/* NIC: two hosts back to back. A 1 MiB RDMA WRITE over one 100 Gb/s hop
 * completes within 1% of the analytic time (serialisation of every frame
 * with its headers, propagation, and the ACK's way back); segmentation and
 * PSNs; SEND completions on both sides; verbs validation. */
#include <errno.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "nic.h"
#include "sim.h"
#include "test.h"

struct wc_log {
	uint64_t t_ps[64];          /* completion time */
	struct ibv_wc wc[64];       /* completion */
	uint32_t n;                 /* completions */
};

static void on_wc(void *arg, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps)
{
	struct wc_log *l = arg;

	(void)n;
	if (l->n < 64) {
		l->wc[l->n] = *wc;
		l->t_ps[l->n] = now_ps;
	}
	l->n++;
}

struct pair {
	struct sim sim;
	struct nic *a, *b;
	struct nic_qp *qa, *qb;
	struct wc_log la, lb;
};

static void pair_setup(struct pair *p, uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu)
{
	struct nic_params np = { 0 };
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr qa = { 0 };
	uint8_t mac[6];

	memset(p, 0, sizeof(*p));
	CU_ASSERT_EQUAL_FATAL(sim_init(&p->sim, 1, test_mempool()), 0);
	np.mtu_bytes = 4096;
	np.ack_every_pkts = 16;
	np.ack_dscp = 48;
	for (int i = 0; i < 64; i++)
		np.dscp_to_tc[i] = (uint8_t)(i >> 3);
	np.sched.strict_mask = 0xC0;
	for (int i = 0; i < 8; i++)
		np.sched.quantum_bytes[i] = 4608;
	np.cc = cc_find("none");
	p->a = nic_new(&p->sim, 0, 0, 1, &np);
	p->b = nic_new(&p->sim, 1, 1, 1, &np);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->b);
	port_connect(nic_port(p->a, 0), nic_port(p->b, 0), rate_bps, delay_ps);
	addr_host_port_mac(1, 0, mac);
	nic_set_next_hop_mac(p->a, 0, mac);
	addr_host_port_mac(0, 0, mac);
	nic_set_next_hop_mac(p->b, 0, mac);
	nic_set_wc_cb(p->a, on_wc, &p->la);
	nic_set_wc_cb(p->b, on_wc, &p->lb);
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = 8;
	p->qa = nic_create_qp(p->a, &ia);
	p->qb = nic_create_qp(p->b, &ia);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->qa);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->qb);
	qa.path_mtu = mtu == 4096 ? IBV_MTU_4096 : mtu == 1024 ? IBV_MTU_1024 : IBV_MTU_256;
	qa.ah_attr.port_num = 1;
	qa.ah_attr.grh.traffic_class = 26 << 2;
	qa.dest_qp_num = nic_qp_num(p->qb);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, addr_host_ip(1));
	CU_ASSERT_EQUAL_FATAL(nic_qp_connect(p->qa, &qa, 2 * delay_ps), 0);
	qa.dest_qp_num = nic_qp_num(p->qa);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, addr_host_ip(0));
	CU_ASSERT_EQUAL_FATAL(nic_qp_connect(p->qb, &qa, 2 * delay_ps), 0);
}

static void pair_free(struct pair *p)
{
	nic_free(p->a);
	nic_free(p->b);
	/* Every packet went back to the pool. */
	CU_ASSERT_EQUAL(p->sim.pkts_in_use, 0);
	sim_fini(&p->sim);
}

static int post(struct nic_qp *qp, enum ibv_wr_opcode op, uint32_t bytes, uint64_t id)
{
	struct ibv_sge sge = { .length = bytes };
	struct ibv_send_wr wr = { 0 }, *bad;

	wr.wr_id = id;
	wr.opcode = op;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	return nic_post_send(qp, &wr, &bad);
}

static void test_nic_write_analytic(void)
{
	const uint64_t rate = UINT64_C(100000000000), delay = 1000000; /* 1 us */
	const uint32_t mib = 1 << 20, mtu = 4096, n = mib / mtu;
	/* Frames (incl. FCS) from the RoCEv2 layout: Eth 14 + IPv4 20 + UDP 8 +
	 * BTH 12 (+ RETH 16 on the first) + payload + ICRC 4 + FCS 4; the ACK
	 * carries AETH 4 and no payload. Each adds 20 B preamble and gap. */
	const double first = 14 + 20 + 8 + 12 + 16 + 4096 + 4 + 4, other = first - 16;
	const double ack = 14 + 20 + 8 + 12 + 4 + 4 + 4;
	double bits = (first + 20) * 8 + (n - 1) * (other + 20) * 8 + (ack + 20) * 8;
	double expect_ps = bits / (double)rate * 1e12 + 2.0 * (double)delay;
	struct pair p;

	pair_setup(&p, rate, delay, mtu);
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, mib, 42), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 1);
	CU_ASSERT_EQUAL(p.la.wc[0].wr_id, 42);
	CU_ASSERT_EQUAL(p.la.wc[0].status, IBV_WC_SUCCESS);
	CU_ASSERT_EQUAL(p.la.wc[0].opcode, IBV_WC_RDMA_WRITE);
	CU_ASSERT_EQUAL(p.la.wc[0].byte_len, mib);
	CU_ASSERT(fabs((double)p.la.t_ps[0] - expect_ps) <= 0.01 * expect_ps);
	CU_ASSERT_EQUAL(nic_stats(p.a)->tx_data_pkts, n);
	CU_ASSERT_EQUAL(nic_stats(p.b)->rx_payload_bytes, mib);
	/* Coalesced: one ACK per 16 packets (the last one carries the A bit). */
	CU_ASSERT_EQUAL(nic_stats(p.b)->tx_acks, n / 16);
	CU_ASSERT_EQUAL(nic_stats(p.b)->rx_out_of_seq, 0);
	pair_free(&p);
}

static void test_nic_send_and_order(void)
{
	struct pair p;

	pair_setup(&p, UINT64_C(25000000000), 500000, 1024);
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_SEND, 3000, 1), 0);
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 0, 2), 0); /* zero-length: one packet */
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_SEND, 1024, 3), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 3);
	for (uint32_t i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(p.la.wc[i].wr_id, i + 1); /* in posting order */
	CU_ASSERT(p.la.t_ps[0] <= p.la.t_ps[1] && p.la.t_ps[1] <= p.la.t_ps[2]);
	/* 3000 B at MTU 1024 = 3 packets, + 1 + 1. */
	CU_ASSERT_EQUAL(nic_stats(p.a)->tx_data_pkts, 5);
	/* The responder completes the two SENDs as receives. */
	CU_ASSERT_EQUAL_FATAL(p.lb.n, 2);
	CU_ASSERT_EQUAL(p.lb.wc[0].opcode, IBV_WC_RECV);
	CU_ASSERT_EQUAL(p.lb.wc[0].byte_len, 3000);
	CU_ASSERT_EQUAL(p.lb.wc[1].byte_len, 1024);
	pair_free(&p);
}

static void test_nic_verbs_validation(void)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr qa = { 0 };
	struct pair p;

	pair_setup(&p, UINT64_C(100000000000), 1000, 4096);
	ia.qp_type = IBV_QPT_UD;
	ia.cap.max_send_wr = 4;
	errno = 0;
	CU_ASSERT_PTR_NULL(nic_create_qp(p.a, &ia));
	CU_ASSERT_EQUAL(errno, EINVAL);
	ia.qp_type = IBV_QPT_RC;
	{
		struct nic_qp *q = nic_create_qp(p.a, &ia);

		CU_ASSERT_PTR_NOT_NULL_FATAL(q);
		/* Not connected yet: posting fails. */
		CU_ASSERT_EQUAL(post(q, IBV_WR_SEND, 10, 1), -EINVAL);
		/* A GID that is not IPv4-mapped is refused. */
		qa.path_mtu = IBV_MTU_1024;
		qa.ah_attr.port_num = 1;
		CU_ASSERT_EQUAL(nic_qp_connect(q, &qa, 0), -EINVAL);
		nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, addr_host_ip(1));
		qa.ah_attr.port_num = 2; /* no such port */
		CU_ASSERT_EQUAL(nic_qp_connect(q, &qa, 0), -EINVAL);
	}
	/* Unsupported opcode, and a full send queue (max_send_wr 8). */
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_ATOMIC_CMP_AND_SWP, 8, 1), -EINVAL);
	for (int i = 0; i < 8; i++)
		CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 100, (uint64_t)i), 0);
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 100, 9), -ENOMEM);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL(p.la.n, 8);
	CU_ASSERT_EQUAL(nic_qp_outstanding(p.qa), 0);
	pair_free(&p);
}

int test_nic_register(void)
{
	CU_pSuite s = CU_add_suite("nic", NULL, NULL);

	if (!s || !CU_add_test(s, "1 MiB WRITE within 1% of analytic time", test_nic_write_analytic) ||
	    !CU_add_test(s, "SEND/WRITE completions in order", test_nic_send_and_order) ||
	    !CU_add_test(s, "verbs validation", test_nic_verbs_validation))
		return -1;
	return 0;
}
