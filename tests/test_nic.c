/* NIC: two hosts back to back. A 1 MiB RDMA WRITE over one 100 Gb/s hop
 * completes within 1% of the analytic time (serialisation of every frame
 * with its headers, propagation, and the ACK's way back); segmentation and
 * PSNs; SEND completions on both sides; verbs validation. Reliability runs
 * through a test "lossy wire" between the two NICs (drops chosen PSNs,
 * every Nth data packet or everything; marks CE): go-back-N and selective
 * repeat recovery, one NAK per gap, retry exhaustion with back-off, RDMA
 * READ with lost responses, and CNPs from the notification point; HPCC's
 * INT stack echoed in ACKs and read back by the requester. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "nic.h"
#include "nic_int.h"
#include "pkt_telemetry.h"
#include "pkt_view.h"
#include "sim.h"
#include "nic_pair.h"
#include "test.h"

/* A congestion control that keeps the line rate and counts CNPs. */
static uint32_t tcc_cnps;

static int tcc_init(struct cc_qp *q)
{
	q->rate_bps = q->line_rate_bps;
	return 0;
}

static void tcc_on_cnp(struct cc_qp *q, uint64_t now_ps)
{
	(void)q;
	(void)now_ps;
	tcc_cnps++;
}

static const struct cc_ops tcc_ops = {
	.kind = { .name = "test-cnp", .doc = "keeps the line rate, counts CNPs" },
	.priv_size = sizeof(uint64_t),
	.init = tcc_init,
	.on_cnp = tcc_on_cnp,
};

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
		nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, addr_ep_ip(1));
		qa.ah_attr.port_num = 2; /* no such port */
		CU_ASSERT_EQUAL(nic_qp_connect(q, &qa, 0), -EINVAL);
	}
	/* Reliability parameters: the selective-repeat window must be a power
	 * of two, the back-off cap at least the first timeout; numbers within
	 * their keys' ranges (the nic: table's, as nic_params_check applies
	 * them to params not read from an experiment). */
	{
		struct nic_params np = { .mtu_bytes = 4096, .ack_every_pkts = 16,
					 .cc = cc_find("none") };
		char err[CFG_ERR_BYTES] = "";
		struct nic *ok;

		np.sr_window_pkts = 1024;
		CU_ASSERT_EQUAL(nic_params_check(&np, err), 0);
		ok = nic_new(&p.sim, 5, 5, 5, 1, &np); /* zeroed fields take defaults */
		CU_ASSERT_PTR_NOT_NULL(ok);
		nic_free(ok);
		np.sr_window_pkts = 100;
		errno = 0;
		CU_ASSERT_PTR_NULL(nic_new(&p.sim, 5, 5, 5, 1, &np));
		CU_ASSERT_EQUAL(errno, EINVAL);
		CU_ASSERT_EQUAL(nic_params_check(&np, err), -EINVAL);
		CU_ASSERT(strstr(err, "nic.sr_window: sr_window must be a power of two") != NULL);
		np.sr_window_pkts = 1u << 23;
		CU_ASSERT_EQUAL(nic_params_check(&np, err), -EINVAL);
		CU_ASSERT(strstr(err, "nic.sr_window: 8388608 is outside 64..4194304") != NULL);
		np.sr_window_pkts = 0;
		np.rto_ps = 10 * 1000000;
		np.rto_max_ps = 1000000;
		CU_ASSERT_PTR_NULL(nic_new(&p.sim, 5, 5, 5, 1, &np));
		np.rto_max_ps = 0;
		np.retry_cnt = 8;
		CU_ASSERT_PTR_NULL(nic_new(&p.sim, 5, 5, 5, 1, &np));
		np.retry_cnt = 0;
		np.recovery = (enum nic_recovery)5;
		CU_ASSERT_PTR_NULL(nic_new(&p.sim, 5, 5, 5, 1, &np));
		np.recovery = NIC_RECOVERY_GBN;
		np.ack_every_pkts = 0;
		CU_ASSERT_EQUAL(nic_params_check(&np, err), -EINVAL);
		CU_ASSERT(strstr(err, "nic.ack_every") != NULL);
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

enum { KIB = 1024, MIB = 1024 * 1024 };
static const uint64_t G100 = UINT64_C(100000000000), US = 1000000;

/* Post @n WRITEs of @bytes each on the pair's QP; returns the total. */
static uint64_t post_writes(struct pair *p, uint32_t n, uint32_t bytes)
{
	for (uint32_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(post(p->qa, IBV_WR_RDMA_WRITE, bytes, i), 0);
	return (uint64_t)n * bytes;
}

/* Every posted message completed, in order and successfully, and the
 * responder took each payload byte exactly once. */
static void check_all_done(struct pair *p, uint32_t n, uint64_t total)
{
	CU_ASSERT_EQUAL(p->la.n, n);
	for (uint32_t i = 0; i < n && i < 64; i++) {
		CU_ASSERT_EQUAL(p->la.wc[i].status, IBV_WC_SUCCESS);
		CU_ASSERT_EQUAL(p->la.wc[i].wr_id, i);
	}
	CU_ASSERT_EQUAL(nic_stats(p->b)->rx_payload_bytes, total);
	CU_ASSERT_EQUAL(nic_qp_outstanding(p->qa), 0);
	CU_ASSERT_EQUAL(nic_qp_stats(p->qa)->state, NIC_QP_OK);
}

/* Eight 64 KiB WRITEs (512 packets at MTU 1024) lose the first pass of five
 * PSNs, none of them the last of the run. Expectation: both modes deliver
 * everything; selective repeat resends exactly the five lost packets
 * (each gap is followed by packets that reveal it, so no timeout), while
 * go-back-N resends everything sent after each gap before the NAK came
 * back, so strictly more. Then every 37th data packet is lost, resends
 * included: both still complete, and go-back-N again resends more. */
static uint64_t run_lossy(enum nic_recovery mode, bool every_nth, uint64_t *timeouts)
{
	static const uint32_t lost[] = { 10, 100, 101, 250, 400 };
	struct pair_opts o = { .wire = true, .recovery = mode, .rto_ps = 50 * US };
	struct pair p;
	uint64_t total, retx;

	pair_setup_opts(&p, G100, 1 * US, 1024, &o);
	if (every_nth) {
		p.w.dir[0].drop_every = 37;
	} else {
		for (uint32_t i = 0; i < 5; i++)
			p.w.dir[0].drop_psns[i] = lost[i];
		p.w.dir[0].n_drop_psns = 5;
	}
	total = post_writes(&p, 8, 64 * KIB);
	sim_run(&p.sim);
	check_all_done(&p, 8, total);
	retx = nic_qp_stats(p.qa)->retx_pkts;
	CU_ASSERT_EQUAL(retx, nic_stats(p.a)->retx_pkts);
	/* Every packet sent is a first pass or a counted resend. */
	CU_ASSERT_EQUAL(nic_stats(p.a)->tx_data_pkts, 512 + retx);
	*timeouts = nic_qp_stats(p.qa)->timeouts;
	pair_free(&p);
	return retx;
}

static void test_nic_gbn_vs_sr(void)
{
	uint64_t to_gbn, to_sr, gbn, sr;

	gbn = run_lossy(NIC_RECOVERY_GBN, false, &to_gbn);
	sr = run_lossy(NIC_RECOVERY_SR, false, &to_sr);
	CU_ASSERT_EQUAL(sr, 5);
	CU_ASSERT(gbn > sr);
	CU_ASSERT_EQUAL(to_gbn, 0);
	CU_ASSERT_EQUAL(to_sr, 0);
	gbn = run_lossy(NIC_RECOVERY_GBN, true, &to_gbn);
	sr = run_lossy(NIC_RECOVERY_SR, true, &to_sr);
	CU_ASSERT(sr >= 512 / 37);
	CU_ASSERT(gbn > sr);
}

/* Go-back-N, one 256-packet WRITE (MTU 1024). The first pass of PSN 5 is
 * lost: many packets then arrive ahead of the expected PSN, but the
 * responder NAKs once, with BTH PSN 5. The first pass of PSN 200 is lost
 * too, after PSN 5 has been recovered (PSN 200 is first sent well after
 * the NAK came back, about 4 us or 50 packets into the run): a second
 * gap, so exactly one more NAK, naming 200. */
static void test_nic_nak_once_per_gap(void)
{
	struct pair_opts o = { .wire = true, .rto_ps = 50 * US };
	struct pair p;

	pair_setup_opts(&p, G100, 1 * US, 1024, &o);
	p.w.dir[0].drop_psns[0] = 5;
	p.w.dir[0].drop_psns[1] = 200;
	p.w.dir[0].n_drop_psns = 2;
	post_writes(&p, 1, 256 * KIB);
	sim_run(&p.sim);
	check_all_done(&p, 1, 256 * KIB);
	CU_ASSERT(nic_stats(p.b)->rx_out_of_seq > 2);
	CU_ASSERT_EQUAL(nic_stats(p.b)->naks_tx, 2);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qb)->naks_tx, 2);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->naks_rx, 2);
	CU_ASSERT_EQUAL_FATAL(p.w.dir[1].n_naks, 2);
	CU_ASSERT_EQUAL(p.w.dir[1].nak_psns[0], 5);
	CU_ASSERT_EQUAL(p.w.dir[1].nak_psns[1], 200);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->timeouts, 0);
	pair_free(&p);
}

/* The peer is unplugged. Timeout 10 us, doubling, capped at 80 us, and the
 * verbs default of 7 retries: the QP fails at the 8th expiry, after
 * 10 + 20 + 40 + 80 x 5 = 470 us (each timer starts when the previous one
 * fires, and the resend leaves at once on an idle link). The copies of
 * PSN 0 reach the wire spaced by exactly those timeouts. The three WRITEs
 * complete then: the oldest with RETRY_EXC_ERR, the others FLUSH_ERR; each
 * retry resent all 12 packets; a later post fails; and no event is left
 * (sim_run returns at the failure). */
static void test_nic_retry_exhausted(void)
{
	static const uint64_t gaps_us[] = { 10, 20, 40, 80, 80, 80, 80 };
	struct pair_opts o = { .wire = true, .rto_ps = 10 * US, .rto_max_ps = 80 * US };
	uint64_t frame_ps = pkt_ll_frame_ps(&pkt_ll_roce, 1024 + 58, G100);
	struct pair p;

	pair_setup_opts(&p, G100, 1 * US, 1024, &o);
	p.w.unplugged = true;
	p.w.dir[0].watch_psn = 0;
	post_writes(&p, 3, 4 * KIB);
	sim_run(&p.sim);
	CU_ASSERT(ev_empty(&p.sim.evq));
	CU_ASSERT(p.sim.now_ps >= 470 * US && p.sim.now_ps <= 470 * US + frame_ps);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 3);
	CU_ASSERT(p.la.t_ps[0] >= 470 * US && p.la.t_ps[0] <= 470 * US + frame_ps);
	CU_ASSERT_EQUAL(p.la.wc[0].status, IBV_WC_RETRY_EXC_ERR);
	CU_ASSERT_EQUAL(p.la.wc[0].wr_id, 0);
	CU_ASSERT_EQUAL(p.la.wc[1].status, IBV_WC_WR_FLUSH_ERR);
	CU_ASSERT_EQUAL(p.la.wc[2].status, IBV_WC_WR_FLUSH_ERR);
	CU_ASSERT_EQUAL(p.la.wc[2].wr_id, 2);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->timeouts, 8);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->retx_pkts, 7 * 12);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->state, NIC_QP_ERROR);
	CU_ASSERT_EQUAL(nic_stats(p.a)->qp_errors, 1);
	CU_ASSERT_EQUAL(nic_qp_outstanding(p.qa), 0);
	CU_ASSERT_EQUAL_FATAL(p.w.dir[0].n_watch, 8);
	for (int i = 0; i < 7; i++)
		CU_ASSERT_EQUAL(p.w.dir[0].watch_ps[i + 1] - p.w.dir[0].watch_ps[i], gaps_us[i] * US);
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 100, 9), -EINVAL);
	pair_free(&p);
}

/* A 1 MiB READ at MTU 4096 over one 100 Gb/s hop of 1 us. The requester
 * sends one READ request (Eth 14 + IPv4 20 + UDP 8 + BTH 12 + RETH 16 +
 * ICRC 4 + FCS 4 = 78 B); the responder answers with 256 responses of 4096
 * B (first and last with AETH 4: 4162 B frames, middle ones 4158 B),
 * back to back. It completes (IBV_WC_RDMA_READ, 1 MiB) when the last one
 * has arrived: request + responses serialised, plus two propagations,
 * within 1%. */
static void test_nic_read(void)
{
	const double req = 78 + 20, mid = 4158 + 20, end = 4162 + 20;
	double expect_ps = (req + 254 * mid + 2 * end) * 8 / 1e11 * 1e12 + 2e6;
	struct pair p;

	pair_setup(&p, G100, 1 * US, 4096);
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_READ, MIB, 7), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 1);
	CU_ASSERT_EQUAL(p.la.wc[0].status, IBV_WC_SUCCESS);
	CU_ASSERT_EQUAL(p.la.wc[0].opcode, IBV_WC_RDMA_READ);
	CU_ASSERT_EQUAL(p.la.wc[0].byte_len, MIB);
	CU_ASSERT_EQUAL(p.la.wc[0].wr_id, 7);
	CU_ASSERT(fabs((double)p.la.t_ps[0] - expect_ps) <= 0.01 * expect_ps);
	CU_ASSERT_EQUAL(nic_stats(p.a)->tx_read_reqs, 1);
	CU_ASSERT_EQUAL(nic_stats(p.b)->tx_read_resps, 256);
	CU_ASSERT_EQUAL(nic_stats(p.a)->rx_payload_bytes, MIB);
	CU_ASSERT_EQUAL(p.lb.n, 0); /* a READ completes nothing at the responder */
	pair_free(&p);
}

/* READs that lose a response. (1) The first pass of response 100 is lost:
 * response 101 reveals the gap, the requester re-requests from 100 once
 * (no timeout), and the READ completes with each byte taken once. (2) The
 * last response (255) is lost: nothing reveals it, so the timer (20 us)
 * re-requests it, once. (3) A WRITE, a READ and a WRITE in a row, with
 * response 10 of the READ lost: all complete in order. */
static void test_nic_read_loss(void)
{
	struct pair_opts o = { .wire = true, .rto_ps = 20 * US };
	struct pair p;

	for (int c = 0; c < 3; c++) {
		pair_setup_opts(&p, G100, 1 * US, 4096, &o);
		if (c == 2) {
			/* PSNs: WRITE 0..15, READ 16..271, WRITE 272..287. */
			p.w.dir[1].drop_psns[0] = 16 + 10;
			CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 64 * KIB, 0), 0);
			CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_READ, MIB, 1), 0);
			CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 64 * KIB, 2), 0);
		} else {
			p.w.dir[1].drop_psns[0] = c == 0 ? 100 : 255;
			CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_READ, MIB, 0), 0);
		}
		p.w.dir[1].n_drop_psns = 1;
		sim_run(&p.sim);
		CU_ASSERT_EQUAL_FATAL(p.la.n, c == 2 ? 3 : 1);
		for (uint32_t i = 0; i < p.la.n; i++) {
			CU_ASSERT_EQUAL(p.la.wc[i].status, IBV_WC_SUCCESS);
			CU_ASSERT_EQUAL(p.la.wc[i].wr_id, i);
		}
		CU_ASSERT_EQUAL(p.la.wc[c == 2 ? 1 : 0].byte_len, MIB);
		CU_ASSERT_EQUAL(nic_stats(p.a)->rx_payload_bytes, MIB);
		CU_ASSERT_EQUAL(p.w.dir[1].n_lost, 1);
		CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->read_rereqs, 1);
		CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->timeouts, c == 1 ? 1 : 0);
		/* The responder sent every response once more than it resent. */
		CU_ASSERT(nic_qp_stats(p.qb)->retx_pkts >= 1);
		CU_ASSERT_EQUAL(nic_stats(p.b)->tx_read_resps, 256 + nic_qp_stats(p.qb)->retx_pkts);
		if (c == 2)
			CU_ASSERT_EQUAL(nic_stats(p.b)->rx_payload_bytes, 128 * KIB);
		pair_free(&p);
	}
}

/* Notification point. Two QPs each WRITE 4 MiB through a wire that marks
 * every data packet CE. DCQCN's rule: per QP, a CNP for a CE-marked packet
 * unless one went less than 50 us ago. Each QP's marked packets arrive
 * about every two frame times, so its CNPs are spaced by 50 us plus less
 * than the gap between two of its packets, and their number is set by how
 * long its packets kept arriving. CNPs carry DSCP 48, BECN, Not-ECT and the
 * sender's QP; the sender's congestion control sees each one. */
static void test_nic_cnp(void)
{
	struct pair_opts o = { .wire = true, .cc = &tcc_ops, .cnp_interval_ps = 50 * US };
	const uint64_t win = 50 * US, slack = 3 * pkt_ll_frame_ps(&pkt_ll_roce, 4162, G100);
	struct nic_qp *qa2, *qb2;
	struct pair p;

	tcc_cnps = 0;
	pair_setup_opts(&p, G100, 1 * US, 4096, &o);
	CU_ASSERT_EQUAL_FATAL(pair_qps(&p, 4096, 1 * US, &qa2, &qb2), 0);
	p.w.dir[0].mark_ce = true;
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 4 * MIB, 0), 0);
	CU_ASSERT_EQUAL(post(qa2, IBV_WR_RDMA_WRITE, 4 * MIB, 1), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL(p.la.n, 2);
	CU_ASSERT_EQUAL(p.w.dir[1].bad_cnps, 0);
	CU_ASSERT_EQUAL_FATAL(p.w.dir[1].n_cnps <= 64, true);
	{
		struct nic_qp *snd[2] = { p.qa, qa2 }, *rcv[2] = { p.qb, qb2 };
		/* Both QPs' packets alternate for the whole run (within a frame). */
		uint64_t span = p.w.dir[0].last_data_ps - p.w.dir[0].first_data_ps;
		uint32_t total = 0;

		for (int q = 0; q < 2; q++) {
			uint64_t prev = 0;
			uint32_t k = 0;

			for (uint32_t i = 0; i < p.w.dir[1].n_cnps; i++) {
				if (p.w.dir[1].cnp_qp[i] != nic_qp_num(snd[q]))
					continue;
				if (k > 0) {
					CU_ASSERT(p.w.dir[1].cnp_ps[i] - prev >= win);
					CU_ASSERT(p.w.dir[1].cnp_ps[i] - prev < win + slack);
				}
				prev = p.w.dir[1].cnp_ps[i];
				k++;
			}
			/* c_0 = t_0, c_(k+1) in [c_k + 50 us, c_k + 50 us + slack), and
			 * nothing came 50 us after the last: (k - 1) x 50 us <= span <
			 * k x (50 us + slack). */
			CU_ASSERT(k >= 1 && (uint64_t)(k - 1) * win <= span);
			CU_ASSERT((uint64_t)k * (win + slack) > span);
			CU_ASSERT_EQUAL(nic_qp_stats(rcv[q])->cnps_tx, k);
			CU_ASSERT_EQUAL(nic_qp_stats(snd[q])->cnps_rx, k);
			total += k;
		}
		CU_ASSERT_EQUAL(total, p.w.dir[1].n_cnps);
		CU_ASSERT_EQUAL(nic_stats(p.b)->cnps_tx, total);
		CU_ASSERT_EQUAL(nic_stats(p.a)->rx_cnps, total);
		CU_ASSERT_EQUAL(tcc_cnps, total);
	}
	pair_free(&p);
}

/* nic.cnp_interval 0 means what the docs say: a CNP for every CE-marked
 * data packet (the HPCC authors' ns-3 echoes every mark), never a
 * default interval in its place. One QP WRITEs 1 MiB of 4 KiB packets
 * through a wire that marks each: 256 marked packets, 256 CNPs, each seen
 * by the sender's congestion control. */
static void test_nic_cnp_every(void)
{
	struct pair_opts o = { .wire = true, .cc = &tcc_ops, .cnp_interval_ps = 0 };
	struct pair p;

	tcc_cnps = 0;
	pair_setup_opts(&p, G100, 1 * US, 4096, &o);
	p.w.dir[0].mark_ce = true;
	CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 1 * MIB, 0), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL(p.la.n, 1);
	CU_ASSERT_EQUAL(p.w.dir[1].bad_cnps, 0);
	CU_ASSERT_EQUAL(p.w.dir[1].n_cnps, 256);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qb)->cnps_tx, 256);
	CU_ASSERT_EQUAL(nic_qp_stats(p.qa)->cnps_rx, 256);
	CU_ASSERT_EQUAL(tcc_cnps, 256);
	pair_free(&p);
}

/* Random loss of 2% of all packets both ways (data, READ requests and
 * responses, ACKs, NAKs), over a mix of WRITEs, SENDs and READs, under
 * both recovery modes and several seeds. Expectation: every message
 * completes successfully and in order, each payload byte is taken once
 * (WRITE and SEND bytes at the responder, READ bytes at the requester),
 * the run ends (no timer left), and every packet went back to the pool. */
static void test_nic_random_loss(void)
{
	static const struct { enum ibv_wr_opcode op; uint32_t bytes; } mix[8] = {
		{ IBV_WR_RDMA_WRITE, 200 * KIB }, { IBV_WR_RDMA_READ, 150 * KIB },
		{ IBV_WR_SEND, 3000 },            { IBV_WR_RDMA_READ, 0 },
		{ IBV_WR_RDMA_WRITE, 1 },         { IBV_WR_RDMA_READ, 64 * KIB + 1 },
		{ IBV_WR_SEND, 100 * KIB },       { IBV_WR_RDMA_WRITE, 300 * KIB },
	};
	struct pair_opts o = { .wire = true, .rto_ps = 20 * US };

	for (int mode = 0; mode < 2; mode++) {
		for (uint64_t seed = 1; seed <= 4; seed++) {
			uint64_t wr_bytes = 0, rd_bytes = 0;
			struct pair p;

			o.recovery = mode ? NIC_RECOVERY_SR : NIC_RECOVERY_GBN;
			pair_setup_opts(&p, G100, 1 * US, 1024, &o);
			for (int d = 0; d < 2; d++) {
				p.w.dir[d].loss_ppm = 20000;
				p.w.dir[d].rng = seed * 2 + (uint64_t)d;
			}
			for (uint32_t i = 0; i < 8; i++) {
				CU_ASSERT_EQUAL(post(p.qa, mix[i].op, mix[i].bytes, i), 0);
				if (mix[i].op == IBV_WR_RDMA_READ)
					rd_bytes += mix[i].bytes;
				else
					wr_bytes += mix[i].bytes;
			}
			sim_run(&p.sim);
			CU_ASSERT_EQUAL_FATAL(p.la.n, 8);
			for (uint32_t i = 0; i < 8; i++) {
				CU_ASSERT_EQUAL(p.la.wc[i].status, IBV_WC_SUCCESS);
				CU_ASSERT_EQUAL(p.la.wc[i].wr_id, i);
				CU_ASSERT_EQUAL(p.la.wc[i].byte_len, mix[i].bytes);
			}
			CU_ASSERT_EQUAL(nic_stats(p.b)->rx_payload_bytes, wr_bytes);
			CU_ASSERT_EQUAL(nic_stats(p.a)->rx_payload_bytes, rd_bytes);
			CU_ASSERT_EQUAL(p.lb.n, 2); /* the two SENDs */
			CU_ASSERT(p.w.dir[0].n_lost > 0 && p.w.dir[1].n_lost > 0);
			CU_ASSERT(ev_empty(&p.sim.evq));
			pair_free(&p);
		}
	}
}

/* HPCC's echo: a wire that adds an INT record to each data packet (its PSN
 * in it); the responder's ACKs (coalesced: one per 16 packets and the
 * last) each carry the stack of the packet they answer, and nic_ack_int
 * reads it back as written, payload materialised (the responder checks
 * the ICRC of the grown frames) or not. Without records, ACKs carry none. */
static void test_nic_int_echo(void)
{
	for (int mode = 0; mode < 3; mode++) {
		struct pair_opts o = { .wire = true, .payload = mode == 1 };
		struct pair p;

		pair_setup_opts(&p, UINT64_C(100000000000), 1000000, 1024, &o);
		p.w.dir[0].int_hop = mode < 2;
		CU_ASSERT_EQUAL(post(p.qa, IBV_WR_RDMA_WRITE, 40 * 1024, 7), 0);
		sim_run(&p.sim);
		CU_ASSERT_EQUAL_FATAL(p.la.n, 1);
		CU_ASSERT_EQUAL(p.la.wc[0].status, IBV_WC_SUCCESS);
		CU_ASSERT_EQUAL(nic_stats(p.b)->rx_icrc_errors, 0);
		CU_ASSERT_EQUAL(nic_stats(p.b)->tx_acks, 3); /* PSNs 15, 31, 39 */
		CU_ASSERT_EQUAL(p.w.dir[1].n_int_acks, mode < 2 ? 3 : 0);
		CU_ASSERT_EQUAL(p.w.dir[1].n_int_bad, 0);
		pair_free(&p);
	}
}

static void test_nic_bdp_limit(void)
{
	struct nic_params p = { 0 };

	/* IRN's BDP flow control: 100 Gb/s, 4 us base RTT, 4 KiB MTU. A full
	 * frame (4096 + 64 B of headers + 20 B on the wire) takes 334.4 ns, so
	 * BDP = 12.5 B/ns x (4000 + 2 x 334.4) ns = 58360 B = 14 packets of
	 * 4096 B (rounded down), plus two: 16. */
	p.recovery = NIC_RECOVERY_SR;
	p.sr_bdp_fc = true;
	p.sr_window_pkts = 1024;
	CU_ASSERT_EQUAL(nic_sr_limit(&p, UINT64_C(100000000000), 4000000, 4096), 16);
	/* Never past the window; off, or under go-back-N, the window rules. */
	p.sr_window_pkts = 64;
	CU_ASSERT_EQUAL(nic_sr_limit(&p, UINT64_C(800000000000), 40000000, 4096), 64);
	p.sr_bdp_fc = false;
	CU_ASSERT_EQUAL(nic_sr_limit(&p, UINT64_C(100000000000), 4000000, 4096), 64);
}

/* A frame whose headers cannot be parsed (cut short, or not IPv4 at all)
 * is counted as malformed, not as one for an unknown QP (nic.h). */
static void test_nic_malformed(void)
{
	static const uint32_t lens[] = { 20, 100 };
	struct pair p;

	pair_setup(&p, UINT64_C(100000000000), 1000000, 1024);
	for (unsigned i = 0; i < 2; i++) {
		struct rte_mbuf *m = sim_pkt_alloc(&p.sim, false);

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		memset(rte_pktmbuf_append(m, 128), 0, 128); /* ethertype 0: no IPv4 */
		pkt_meta(m)->frame_bytes = lens[i];
		nic_rx(p.b, NULL, m);
	}
	CU_ASSERT_EQUAL(nic_stats(p.b)->rx_malformed, 2);
	CU_ASSERT_EQUAL(nic_stats(p.b)->rx_unknown_qp, 0);
	pair_free(&p);
}

int test_nic_register(void)
{
	CU_pSuite s = CU_add_suite("nic", NULL, NULL);

	if (!s || !CU_add_test(s, "selective repeat BDP limit", test_nic_bdp_limit) ||
	    !CU_add_test(s, "malformed frames counted as such", test_nic_malformed))
		return -1;

	if (!s || !CU_add_test(s, "1 MiB WRITE within 1% of analytic time", test_nic_write_analytic) ||
	    !CU_add_test(s, "SEND/WRITE completions in order", test_nic_send_and_order) ||
	    !CU_add_test(s, "verbs validation", test_nic_verbs_validation) ||
	    !CU_add_test(s, "loss: go-back-N and selective repeat", test_nic_gbn_vs_sr) ||
	    !CU_add_test(s, "one NAK per gap", test_nic_nak_once_per_gap) ||
	    !CU_add_test(s, "retries exhausted with back-off", test_nic_retry_exhausted) ||
	    !CU_add_test(s, "1 MiB READ", test_nic_read) ||
	    !CU_add_test(s, "READ with lost responses", test_nic_read_loss) ||
	    !CU_add_test(s, "CNP once per 50 us per QP", test_nic_cnp) ||
	    !CU_add_test(s, "cnp_interval 0: a CNP per marked packet", test_nic_cnp_every) ||
	    !CU_add_test(s, "random loss both ways, mixed operations", test_nic_random_loss) ||
	    !CU_add_test(s, "INT stack echoed in ACKs, read by nic_ack_int", test_nic_int_echo))
		return -1;
	return 0;
}
