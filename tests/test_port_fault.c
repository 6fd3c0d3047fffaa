/* Link faults (core/port_fault.c), each against its definition: a link
 * that goes down loses every frame on it and sent into it and carries
 * frames again once up; a rate change serialises the next frame at the
 * new rate; loss per class hits only that class, at its rate; bursty loss
 * follows its Gilbert-Elliott chain (loss rate pi_bad = p_gb / (p_gb +
 * p_bg) with loss_bad 1, mean burst 1 / p_bg); corruption hits a frame of
 * B bytes with chance 1 - (1 - ber)^(8B), and the receiver drops each hit
 * frame once (its FCS check). */
#include <math.h>
#include <string.h>

#include <rte_mbuf.h>

#include "port.h"
#include "port_fault.h"
#include "sim.h"
#include "test.h"

enum { PF_RATE = 100 /* Gb/s */, PF_BYTES = 4158 };

struct pf_sink {
	uint32_t n;               /* arrivals */
	uint32_t tc_n[PORT_N_TC]; /* per class */
	uint64_t last_ps;         /* time of the last */
	uint32_t seq_last;        /* sequence number (frame byte 0..3) of the last */
	uint32_t bursts;          /* gaps in the sequence (runs of lost frames) */
	uint32_t lost_in_bursts;  /* frames in them */
};

static void pf_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct pf_sink *s = owner;
	uint32_t seq;

	memcpy(&seq, pkt_data(m), sizeof(seq));
	if (s->n && seq != s->seq_last + 1) {
		s->bursts++;
		s->lost_in_bursts += seq - s->seq_last - 1;
	}
	s->seq_last = seq;
	s->n++;
	s->tc_n[pkt_meta(m)->tc & 7]++;
	s->last_ps = in->sim->now_ps;
	sim_pkt_free(in->sim, m);
}

static const struct port_ops pf_ops = { .rx = pf_rx };

static void pf_send(struct sim *s, struct port *p, uint32_t seq, uint8_t tc)
{
	struct rte_mbuf *m = sim_pkt_alloc(s, false);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	memset(rte_pktmbuf_append(m, 64), 0, 64);
	memcpy(pkt_data(m), &seq, sizeof(seq));
	pkt_meta(m)->frame_bytes = PF_BYTES;
	pkt_meta(m)->tc = tc;
	pkt_meta(m)->flags = 0;
	port_enqueue(p, m, tc, PF_BYTES);
}

struct pf_link {
	struct sim s;
	struct port a, b;
	struct pf_sink sa, sb;
};

static void pf_open(struct pf_link *l, uint64_t delay_ps)
{
	memset(l, 0, sizeof(*l));
	CU_ASSERT_EQUAL_FATAL(sim_init(&l->s, 1, test_mempool()), 0);
	port_init(&l->a, &l->s, &pf_ops, &l->sa, 0, 0);
	port_init(&l->b, &l->s, &pf_ops, &l->sb, 1, 0);
	port_connect(&l->a, &l->b, UINT64_C(1000000000) * PF_RATE, delay_ps);
	port_set_loss(&l->a, 0, 7);
}

static void pf_close(struct pf_link *l)
{
	CU_ASSERT_EQUAL(l->s.pkts_in_use, 0);
	port_fini(&l->a);
	port_fini(&l->b);
	sim_fini(&l->s);
}

/* @n frames from a in batches (the pool holds a few thousand), class
 * @tc_of(i). */
static void pf_stream(struct pf_link *l, uint32_t n, uint8_t (*tc_of)(uint32_t))
{
	for (uint32_t i = 0; i < n;) {
		for (uint32_t k = 0; k < 1000 && i < n; k++, i++)
			pf_send(&l->s, &l->a, i, tc_of ? tc_of(i) : 0);
		sim_run(&l->s);
	}
}

struct pf_at {
	struct port *p;
	bool down;
	struct ev_src src;
};

static void pf_set(struct sim *sim, void *obj)
{
	struct pf_at *x = obj;

	(void)sim;
	CU_ASSERT_EQUAL(port_link_set_down(x->p, x->down), 0);
}

static void test_port_fault_down(void)
{
	const uint64_t frame_ps = pkt_ll_frame_ps(&pkt_ll_roce, PF_BYTES, UINT64_C(100000000000));
	struct pf_link l;
	struct pf_at down, up;
	struct port_fault_stats st;
	struct port_stats ps;

	/* 10 us of cable: at 1 us three frames are on the wire, seven queued
	 * (none has arrived). Down at 1 us, up at 20 us: all ten lost (the
	 * queued ones sent into the dead link), the five sent after 20 us
	 * arrive, one frame time apart. */
	pf_open(&l, 10000000);
	for (uint32_t i = 0; i < 10; i++)
		pf_send(&l.s, &l.a, i, 0);
	down = (struct pf_at){ .p = &l.a, .down = true };
	up = (struct pf_at){ .p = &l.b, .down = false }; /* either end names the link */
	sim_new_src(&l.s, &down.src);
	sim_new_src(&l.s, &up.src);
	sim_at(&l.s, 1000000, &down.src, pf_set, &down);
	sim_at(&l.s, 20000000, &up.src, pf_set, &up);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.sb.n, 0);
	CU_ASSERT_FALSE(port_link_down(&l.a));
	CU_ASSERT_FALSE(port_link_down(&l.b));
	port_fault_stats(&l.a, l.s.now_ps, &st);
	CU_ASSERT_EQUAL(st.down_lost, 10);
	CU_ASSERT_EQUAL(st.downs, 1);
	CU_ASSERT_EQUAL(st.down_ps, 19000000);
	port_stats(&l.b, &ps);
	CU_ASSERT_EQUAL(ps.rx_pkts, 0);
	for (uint32_t i = 10; i < 15; i++)
		pf_send(&l.s, &l.a, i, 0);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.sb.n, 5);
	CU_ASSERT_EQUAL(l.sb.last_ps, 20000000 + 5 * frame_ps + 10000000);
	pf_close(&l);
}

static void test_port_fault_rate(void)
{
	struct pf_link l;

	pf_open(&l, 0);
	port_link_set_rate(&l.a, UINT64_C(200000000000));
	CU_ASSERT_EQUAL(port_rate_bps(&l.b), UINT64_C(200000000000));
	pf_send(&l.s, &l.a, 0, 0);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.sb.last_ps, pkt_ll_frame_ps(&pkt_ll_roce, PF_BYTES, UINT64_C(200000000000)));
	port_link_set_rate(&l.a, UINT64_C(3000000000)); /* a rate without whole ps per byte */
	pf_send(&l.s, &l.a, 1, 0);
	sim_run(&l.s);
	CU_ASSERT_EQUAL(l.sb.last_ps - pkt_ll_frame_ps(&pkt_ll_roce, PF_BYTES, UINT64_C(200000000000)),
			pkt_ll_frame_ps(&pkt_ll_roce, PF_BYTES, UINT64_C(3000000000)));
	pf_close(&l);
}

static uint8_t pf_tc_alternate(uint32_t i)
{
	return i % 2 ? 3 : 0;
}

static void test_port_fault_tc_loss(void)
{
	const uint32_t n = 40000;
	struct pf_link l;
	double lost, sd;

	pf_open(&l, 0);
	CU_ASSERT_EQUAL(port_fault_set_loss(&l.a, 3, 0.1), 0);
	pf_stream(&l, n, pf_tc_alternate);
	CU_ASSERT_EQUAL(l.sb.tc_n[0], n / 2);
	lost = n / 2 - l.sb.tc_n[3];
	sd = sqrt(n / 2 * 0.1 * 0.9);
	CU_ASSERT(fabs(lost - n / 2 * 0.1) <= 4 * sd);
	pf_close(&l);
}

static void test_port_fault_ge(void)
{
	const uint32_t n = 200000;
	const struct port_ge ge = { .p_gb = 0.01, .p_bg = 0.1, .loss_bad = 1, .loss_good = 0 };
	struct port_fault_stats st;
	struct pf_link l;
	double rate, burst;

	pf_open(&l, 0);
	CU_ASSERT_EQUAL(port_fault_set_ge(&l.a, &ge), 0);
	pf_stream(&l, n, NULL);
	port_fault_stats(&l.a, l.s.now_ps, &st);
	CU_ASSERT_EQUAL(st.random_lost, n - l.sb.n);
	rate = (double)st.random_lost / n;
	burst = (double)l.sb.lost_in_bursts / l.sb.bursts;
	/* pi_bad = 0.01 / 0.11 = 0.0909, mean burst 10 frames: within 10%
	 * (about 1,800 bursts: the burst mean's standard error is 2%). */
	CU_ASSERT(fabs(rate / (0.01 / 0.11) - 1) < 0.1);
	CU_ASSERT(fabs(burst / 10 - 1) < 0.1);
	/* Off again: nothing more is lost. */
	CU_ASSERT_EQUAL(port_fault_set_ge(&l.a, NULL), 0);
	l.sb.n = 0;
	pf_stream(&l, 1000, NULL);
	CU_ASSERT_EQUAL(l.sb.n, 1000);
	pf_close(&l);
}

static void test_port_fault_ber(void)
{
	const uint32_t n = 20000;
	const double ber = 1e-5, p = 1 - pow(1 - ber, 8.0 * PF_BYTES);
	struct port_fault_stats sa, sb;
	struct port_stats ps;
	struct pf_link l;

	pf_open(&l, 0);
	CU_ASSERT_EQUAL(port_fault_set_ber(&l.a, ber), 0);
	pf_stream(&l, n, NULL);
	port_fault_stats(&l.a, l.s.now_ps, &sa);
	port_fault_stats(&l.b, l.s.now_ps, &sb);
	CU_ASSERT(fabs(sa.corrupted - n * p) <= 4 * sqrt(n * p * (1 - p)));
	CU_ASSERT_EQUAL(sb.fcs_errors, sa.corrupted);
	CU_ASSERT_EQUAL(l.sb.n, n - sa.corrupted);
	port_stats(&l.b, &ps);
	CU_ASSERT_EQUAL(ps.rx_pkts, n - sa.corrupted);
	pf_close(&l);
}

int test_port_fault_register(void)
{
	static const struct test_case tests[] = {
		{ "link down loses what is on it and sent into it", test_port_fault_down },
		{ "rate change", test_port_fault_rate },
		{ "loss of one class", test_port_fault_tc_loss },
		{ "Gilbert-Elliott loss rate and bursts", test_port_fault_ge },
		{ "corruption at a bit error rate, FCS drops", test_port_fault_ber },
	};

	return test_suite("port faults", tests);
}
