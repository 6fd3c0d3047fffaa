/* CUnit suite for cc/: a conformance run of every registered algorithm
 * through the same scripted sequences (line-rate start, a CNP storm, an RTT
 * spike, a long idle, repeated timeouts, ACKs with and without ECN echo),
 * asserting the invariants the NIC relies on; then DCQCN's reaction-point
 * trace and alpha half-life against hand-computed values, DCTCP's window
 * cut and alpha, and HPCC's window on one INT hop. The harness plays the NIC: it owns the struct
 * cc_qp, calls the hooks and fires the one timer when it is due. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cc_dcqcn.h"
#include "cc_dctcp.h"
#include "cc_hpcc.h"
#include "cc_ibcc.h"
#include "cc_int.h"
#include "cc_nscc.h"
#include "cc_swift.h"
#include "cc_timely.h"
#include "cfg_schema.h"
#include "pkt_telemetry.h"
#include "test.h"
#include "units.h"

enum {
	CT_CFG_BYTES = 512, /* room for an algorithm's settings (ibcc's, the largest,
			     * take about 300) */
	CT_MTU = 4096,   /* payload bytes per packet */
	CT_STEPS = 4096, /* trace entries kept for the determinism check */
};

#define CT_LINE UINT64_C(100000000000) /* 100 Gb/s */
#define CT_US UINT64_C(1000000)        /* ps per us */

/* The harness: one QP of one algorithm, the virtual time, and the trace of
 * its outputs after every event (for the determinism check). */
struct ct {
	const struct cc_ops *ops;               /* algorithm under test */
	struct cc_qp q;                         /* the QP it sees */
	_Alignas(16) unsigned char cfg[CT_CFG_BYTES]; /* its settings */
	_Alignas(8) unsigned char priv[1024];   /* its state */
	uint64_t now_ps;                        /* virtual time */
	uint64_t trace[CT_STEPS][3];            /* rate, window, timer after each event */
	uint32_t n_trace;                       /* entries used */
	bool backlogged;                        /* the QP has data (told to on_timer) */
	uint32_t bad;                           /* invariant violations seen */
	char what[128];                         /* the first violation */
};

static void ct_fail(struct ct *c, const char *why)
{
	if (!c->bad++)
		snprintf(c->what, sizeof(c->what), "%s: %s at %llu ps", c->ops->kind.name, why,
			 (unsigned long long)c->now_ps);
}

/* The invariants after every hook. */
static void ct_check(struct ct *c)
{
	const struct cc_qp *q = &c->q;

	if (q->rate_bps == 0 || q->rate_bps > q->line_rate_bps)
		ct_fail(c, "rate outside (0, line]");
	/* A window below one MTU (the NIC still lets one packet go when none
	 * is in flight) only with a rate that paces it: at most the window per
	 * base RTT, rate x base RTT <= window x 8 bits. */
	if (q->window_bytes != 0 && q->window_bytes < q->mtu_bytes &&
	    (unsigned __int128)q->rate_bps * q->base_rtt_ps >
		    (unsigned __int128)q->window_bytes * 8 * UNITS_PS_PER_S)
		ct_fail(c, "window below one MTU without a rate that paces it");
	if (q->timer_ps != 0 && q->timer_ps <= c->now_ps)
		ct_fail(c, "timer not in the future");
	if (c->n_trace < CT_STEPS) {
		c->trace[c->n_trace][0] = q->rate_bps;
		c->trace[c->n_trace][1] = q->window_bytes;
		c->trace[c->n_trace][2] = q->timer_ps;
		c->n_trace++;
	}
}

/* Fire the timer as long as it falls at or before @until_ps; the clock
 * ends at @until_ps. */
static void ct_run(struct ct *c, uint64_t until_ps)
{
	unsigned fired = 0;

	while (c->q.timer_ps && c->q.timer_ps <= until_ps && fired < 1000000) {
		c->now_ps = c->q.timer_ps;
		c->q.timer_ps = 0;
		c->q.backlogged = c->backlogged;
		c->ops->on_timer(&c->q, c->now_ps);
		ct_check(c);
		fired++;
	}
	if (until_ps > c->now_ps)
		c->now_ps = until_ps;
}

static int ct_init(struct ct *c, const struct cc_ops *ops)
{
	/* A combination runs on another's settings (cc_cfg_of). */
	const struct cc_ops *own = ops->settings_of ? ops->settings_of : ops;
	char err[CFG_ERR_BYTES];

	memset(c, 0, sizeof(*c));
	c->ops = ops;
	if (ops->priv_size > sizeof(c->priv) || own->kind.settings_size > sizeof(c->cfg) ||
	    cc_cfg_defaults(own, c->cfg, err) != 0)
		return -1;
	c->q.ops = ops;
	c->q.cfg = own->kind.settings ? c->cfg : NULL;
	c->q.priv = c->priv;
	c->q.line_rate_bps = CT_LINE;
	c->q.base_rtt_ps = 8 * CT_US;
	c->q.mtu_bytes = CT_MTU;
	return 0;
}

static int ct_start(struct ct *c)
{
	if (c->ops->init(&c->q) != 0)
		return -1;
	ct_check(c);
	return 0;
}

static void ct_send(struct ct *c, uint32_t pkts)
{
	for (uint32_t i = 0; i < pkts; i++) {
		if (c->ops->on_send) {
			c->ops->on_send(&c->q, CT_MTU, c->now_ps);
			ct_check(c);
		}
	}
}

static void ct_ack(struct ct *c, uint32_t pkts, uint64_t rtt_ps, bool echo)
{
	struct cc_ack a = { 0 };

	a.acked_bytes = (uint64_t)pkts * CT_MTU;
	a.rtt_ps = rtt_ps;
	a.inflight_bytes = c->q.window_bytes ? c->q.window_bytes : 64 * CT_MTU;
	a.ecn_echo = echo;
	if (c->ops->on_ack) {
		c->ops->on_ack(&c->q, &a, c->now_ps);
		ct_check(c);
	}
}

static void ct_cnp(struct ct *c)
{
	if (c->ops->on_cnp) {
		c->ops->on_cnp(&c->q, c->now_ps);
		ct_check(c);
	}
}

/* The scripted sequences, one after the other on one QP. */
static void ct_script(struct ct *c)
{
	uint64_t t;

	c->backlogged = true;
	/* Line-rate start: a few RTTs of data, ACKs every 16 packets. */
	for (int i = 0; i < 64; i++) {
		ct_send(c, 16);
		ct_run(c, c->now_ps + 5 * CT_US);
		ct_ack(c, 16, c->q.base_rtt_ps, false);
	}
	/* A CNP storm: one every microsecond for a millisecond, with data. */
	for (int i = 0; i < 1000; i++) {
		ct_cnp(c);
		ct_send(c, 2);
		ct_ack(c, 2, c->q.base_rtt_ps * 3, true);
		ct_run(c, c->now_ps + CT_US);
	}
	/* An RTT spike: ten times the base RTT, then back. */
	for (int i = 0; i < 200; i++) {
		ct_send(c, 4);
		ct_ack(c, 4, c->q.base_rtt_ps * (i < 100 ? 10 : 1), false);
		ct_run(c, c->now_ps + 2 * CT_US);
	}
	/* A long idle: ten seconds with nothing sent; the timer must stop
	 * (else a run with this algorithm never ends). */
	t = c->now_ps + 10000000 * CT_US;
	c->backlogged = false;
	ct_run(c, t);
	if (c->q.timer_ps)
		ct_fail(c, "a timer still armed after 10 s idle");
	/* Repeated timeouts, NAKs between. */
	for (int i = 0; i < 20; i++) {
		if (c->ops->on_timeout) {
			c->ops->on_timeout(&c->q, c->now_ps);
			ct_check(c);
		}
		if (c->ops->on_nak) {
			c->ops->on_nak(&c->q, c->now_ps);
			ct_check(c);
		}
		ct_run(c, c->now_ps + 100 * CT_US);
	}
	/* ACKs with and without echo, and CNPs, alternating; a zero-byte ACK. */
	for (int i = 0; i < 2000; i++) {
		ct_send(c, 1);
		ct_ack(c, (uint32_t)(i % 3), c->q.base_rtt_ps + (uint64_t)i, i % 2 == 0);
		if (i % 7 == 0)
			ct_cnp(c);
		ct_run(c, c->now_ps + CT_US / 2);
	}
	ct_run(c, c->now_ps + 20000000 * CT_US);
}

/* Every registered algorithm: registrable, starts at the line rate, keeps
 * the invariants through the script, and does the same twice. */
static void test_cc_conformance(void)
{
	static struct ct a, b;
	char err[CFG_ERR_BYTES];
	unsigned n = 0;

	for (unsigned i = 0; cc_at(i); i++, n++) {
		const struct cc_ops *ops = cc_at(i);

		CU_ASSERT_PTR_EQUAL(cc_find(ops->kind.name), ops);
		CU_ASSERT_STRING_EQUAL(cc_names()[i], ops->kind.name);
		CU_ASSERT_EQUAL(cc_index(ops), (int)i);
		/* registered again: the name is taken */
		CU_ASSERT_EQUAL(cc_register(ops, err), -EINVAL);
		CU_ASSERT(strstr(err, "taken") != NULL);
		CU_ASSERT_EQUAL_FATAL(ct_init(&a, ops), 0);
		CU_ASSERT_EQUAL_FATAL(ct_init(&b, ops), 0);
		CU_ASSERT_EQUAL_FATAL(ct_start(&a), 0);
		CU_ASSERT_EQUAL_FATAL(ct_start(&b), 0);
		CU_ASSERT_EQUAL(a.q.rate_bps, CT_LINE); /* RDMA starts at the line rate */
		ct_script(&a);
		ct_script(&b);
		if (a.bad)
			fprintf(stderr, "\n  %s\n", a.what);
		CU_ASSERT_EQUAL(a.bad, 0);
		CU_ASSERT_EQUAL(a.n_trace, b.n_trace);
		CU_ASSERT(memcmp(a.trace, b.trace, sizeof(a.trace)) == 0);
		CU_ASSERT(memcmp(&a.q.stats, &b.q.stats, sizeof(a.q.stats)) == 0);
	}
	CU_ASSERT_PTR_NULL(cc_names()[n]);
	CU_ASSERT_PTR_NULL(cc_find("dcqnc"));
}

/* An ops table that lacks what registration requires is refused, with
 * the reason (the registry's checks, then cc.c's hook). */
static void test_cc_ops_check(void)
{
	char err[CFG_ERR_BYTES];
	struct cc_ops o = cc_dcqcn_ops;

	o.kind.name = "dcqcn-no-init";
	o.init = NULL;
	CU_ASSERT_EQUAL(cc_register(&o, err), -EINVAL);
	CU_ASSERT(strstr(err, "init") != NULL);
	o = cc_dcqcn_ops;
	o.kind.name = "dcqcn-no-size";
	o.kind.settings_size = 0;
	CU_ASSERT_EQUAL(cc_register(&o, err), -EINVAL);
	CU_ASSERT(strstr(err, "settings") != NULL);
	o = cc_dctcp_ops;
	o.kind.name = "dctcp-no-ack";
	o.on_ack = NULL;
	CU_ASSERT_EQUAL(cc_register(&o, err), -EINVAL);
	CU_ASSERT(strstr(err, "echo") != NULL);
	o = cc_none_ops;
	o.kind.doc = NULL;
	o.kind.name = "none-no-doc";
	CU_ASSERT_EQUAL(cc_register(&o, err), -EINVAL);
	/* A combination runs on another's settings, not on its own too. */
	o = cc_dcqcn_ops;
	o.kind.name = "dcqcn-on-nscc";
	o.settings_of = &cc_nscc_ops;
	CU_ASSERT_EQUAL(cc_register(&o, err), -EINVAL);
	CU_ASSERT(strstr(err, "another algorithm's settings") != NULL);
	CU_ASSERT_PTR_NULL(cc_find("none-no-doc")); /* nothing refused was added */
	CU_ASSERT_PTR_NULL(cc_find("dcqcn-no-init"));
	CU_ASSERT_PTR_NULL(cc_find("dcqcn-on-nscc"));
	/* nscc+rccc: NSCC's settings (cc_cfg_of), and registered as such. */
	CU_ASSERT_PTR_EQUAL(cc_find("nscc+rccc"), &cc_nscc_rccc_ops);
	CU_ASSERT_PTR_EQUAL(cc_nscc_rccc_ops.settings_of, &cc_nscc_ops);
	CU_ASSERT(cc_nscc_rccc_ops.flags & CC_F_CREDIT);
}

/* DCQCN's reaction point after one CNP, ConnectX firmware defaults as
 * NVIDIA documents them ("DCQCN Parameters": rate_reduce_monitor_period
 * 4 us, dce_tcp_rtt 1 us, rpg_threshold F = 1, rpg_time_reset 300 us) and
 * the HPCC authors' ns-3 runs them (RdmaHw::cnp_received_mlx,
 * CheckRateDecreaseMlx, RateIncEventMlx): the first CNP sets alpha = 1 and
 * cuts nothing; the cut comes at the rate-reduce clock's first tick, 4 us
 * later, with alpha decayed by four alpha periods without a CNP: R_C =
 * R (1 - (1 - g)^4 / 2), R_T = R (no increase came before: no clamp).
 * Then every 300 us one increase, R_T held at the line rate, so the gap to
 * R halves each time (the first is fast recovery, the rest additive and
 * hyper increases of R_T, clamped at R). */
static void test_cc_dcqcn_trace(void)
{
	static struct ct c;
	struct cc_dcqcn_cfg *cfg;
	const uint64_t t0 = 10 * CT_US, cut = t0 + 4 * CT_US;
	double alpha;
	uint64_t want;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dcqcn_ops), 0);
	cfg = (struct cc_dcqcn_cfg *)c.cfg;
	CU_ASSERT_EQUAL(cfg->preset, CC_DCQCN_CONNECTX);
	CU_ASSERT_EQUAL(cfg->timer_ps, 300 * CT_US);
	CU_ASSERT_EQUAL(cfg->reduce_period_ps, 4 * CT_US);
	CU_ASSERT_EQUAL(cfg->threshold, 1);
	cfg->alpha_init = 1.0;       /* as the simulator's first CNP */
	cfg->byte_counter_bytes = 0; /* nothing is sent: the timer alone */
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	c.backlogged = true; /* the timer runs (an idle QP's sleeps: see below) */
	CU_ASSERT_EQUAL(c.q.timer_ps, 0); /* at the line rate: no timer */
	c.now_ps = t0;
	ct_cnp(&c);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);  /* the first CNP cuts nothing yet */
	CU_ASSERT_EQUAL(c.q.timer_ps, cut);      /* the rate-reduce clock's tick */
	ct_run(&c, cut);
	alpha = pow(1.0 - cfg->g, 4);
	want = (uint64_t)((double)CT_LINE * (1.0 - alpha / 2));
	CU_ASSERT(c.q.rate_bps + 2 >= want && c.q.rate_bps <= want + 2);
	want = c.q.rate_bps;
	CU_ASSERT_EQUAL(cc_dcqcn_target(&c.q), CT_LINE);
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 1);
	for (int k = 1; k <= 6; k++) {
		uint64_t at = cut + (uint64_t)k * 300 * CT_US;

		CU_ASSERT_EQUAL(c.q.timer_ps, at);
		ct_run(&c, at - 1);
		CU_ASSERT_EQUAL(c.q.rate_bps, want); /* nothing before the period ends */
		ct_run(&c, at);
		want = CT_LINE / 2 + want / 2 + (want & 1); /* half the gap to R */
		CU_ASSERT_EQUAL(c.q.rate_bps, want);
		CU_ASSERT_EQUAL(cc_dcqcn_target(&c.q), CT_LINE);
	}
	CU_ASSERT_EQUAL(c.q.stats.rate_increases, 6);
	/* Recovery ends at the line rate and the timer stops. */
	ct_run(&c, t0 + 1000000 * CT_US);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	CU_ASSERT_EQUAL(c.q.timer_ps, 0);
	CU_ASSERT_EQUAL(c.bad, 0);

	/* Idle, the timer sleeps after one expiry; the expiries it missed are
	 * applied when the QP sends again: the same rate as a timer that ran. */
	{
		static struct ct d;

		for (int k = 0; k < 2; k++) {
			struct ct *x = k ? &d : &c;

			CU_ASSERT_EQUAL_FATAL(ct_init(x, &cc_dcqcn_ops), 0);
			((struct cc_dcqcn_cfg *)x->cfg)->byte_counter_bytes = 0;
			CU_ASSERT_EQUAL_FATAL(ct_start(x), 0);
			x->backlogged = k == 0;
			x->now_ps = t0;
			ct_cnp(x);
			ct_cnp(x);
			ct_run(x, t0 + 1000 * CT_US);
		}
		CU_ASSERT_EQUAL(d.q.timer_ps, 0);         /* asleep */
		CU_ASSERT(c.q.timer_ps > t0 + 1000 * CT_US); /* running */
		CU_ASSERT(d.q.rate_bps < c.q.rate_bps);  /* one expiry behind so far */
		ct_send(&c, 1);
		ct_send(&d, 1);                           /* wakes: catches up */
		CU_ASSERT_EQUAL(d.q.rate_bps, c.q.rate_bps);
		CU_ASSERT_EQUAL(d.q.timer_ps, c.q.timer_ps);
	}
}

/* The rate-reduce clock and alpha's period, against the HPCC authors' ns-3
 * (RdmaHw::UpdateAlphaMlx, CheckRateDecreaseMlx): a CNP that arrives
 * between two ticks is not dropped, its cut waits for the next tick; many
 * CNPs before one tick make one cut; alpha gains g once per period that
 * saw a CNP, however many came in it. And with the byte counter off, the
 * increase timer alone reaches hyper increase (F expiries after a cut): R_T
 * grows by R_AI at the F-th, then by R_HAI per expiry (fixed) or i R_HAI
 * at the i-th past F (growing). */
static void test_cc_dcqcn_clocks(void)
{
	static struct ct c;
	struct cc_dcqcn_cfg *cfg;
	const uint64_t t0 = 10 * CT_US;
	double g;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dcqcn_ops), 0);
	cfg = (struct cc_dcqcn_cfg *)c.cfg;
	cfg->alpha_init = 1.0;
	cfg->g = g = 1.0 / 256;
	cfg->byte_counter_bytes = 0;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	c.backlogged = true;
	c.now_ps = t0;
	ct_cnp(&c);                 /* first: alpha 1, clocks start at t0 */
	ct_run(&c, t0 + 4 * CT_US); /* first cut */
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 1);
	/* Four CNPs inside one alpha period (t0 + 5..6 us) and the same
	 * rate-reduce period (t0 + 4..8 us). */
	for (int k = 0; k < 4; k++) {
		c.now_ps = t0 + 5 * CT_US + (uint64_t)k * 200000;
		ct_cnp(&c);
	}
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 1); /* deferred, not yet */
	CU_ASSERT_EQUAL(c.q.timer_ps, t0 + 8 * CT_US);
	/* alpha: four decays to t0 + 4 us, one more at +5 us, then +g once
	 * at +6 us (one period with CNPs), decays at +7 and +8 us. */
	CU_ASSERT_DOUBLE_EQUAL(cc_dcqcn_alpha(&c.q, t0 + 8 * CT_US),
			       ((1 - g) * pow(1 - g, 5) + g) * pow(1 - g, 2), 1e-12);
	ct_run(&c, t0 + 8 * CT_US);
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 2); /* one cut for the four */
	/* A CNP just after a tick is cut at the next, 4 us later. */
	c.now_ps = t0 + 8 * CT_US + 1;
	ct_cnp(&c);
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 2);
	CU_ASSERT_EQUAL(c.q.timer_ps, t0 + 12 * CT_US);
	ct_run(&c, t0 + 12 * CT_US);
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 3);
	CU_ASSERT_EQUAL(c.bad, 0);

	/* Hyper increase on the timer alone (F = 1, clamp on so R_T starts
	 * at the cut rate and its growth shows). */
	for (int growing = 0; growing < 2; growing++) {
		uint64_t rt, steps[4];

		CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dcqcn_ops), 0);
		cfg = (struct cc_dcqcn_cfg *)c.cfg;
		cfg->byte_counter_bytes = 0;
		cfg->clamp_target = true;
		cfg->hyper = growing ? CC_DCQCN_HYPER_GROWING : CC_DCQCN_HYPER_FIXED;
		CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
		c.backlogged = true;
		c.now_ps = t0;
		ct_cnp(&c);
		ct_run(&c, t0 + 4 * CT_US); /* R_T = R (the rate before), R_C about R/2 */
		c.now_ps = t0 + 5 * CT_US;
		ct_cnp(&c);
		ct_run(&c, t0 + 8 * CT_US); /* R_T = R_C before the cut, about R/2 */
		rt = cc_dcqcn_target(&c.q);
		CU_ASSERT(rt < CT_LINE / 2 + CT_LINE / 20);
		for (int k = 0; k < 4; k++) {
			ct_run(&c, t0 + 8 * CT_US + (uint64_t)(k + 1) * 300 * CT_US);
			steps[k] = cc_dcqcn_target(&c.q) - rt;
			rt = cc_dcqcn_target(&c.q);
		}
		CU_ASSERT_EQUAL(steps[0], 0);                   /* T = 0 < F: fast recovery */
		CU_ASSERT_EQUAL(steps[1], cfg->rai_bps);        /* T = F: additive */
		CU_ASSERT_EQUAL(steps[2], cfg->rhai_bps);       /* T = F + 1: hyper, i = 1 */
		CU_ASSERT_EQUAL(steps[3], (growing ? 2 : 1) * cfg->rhai_bps); /* i = 2 */
	}
}

/* Alpha's decay with no CNP: alpha(t) = (1 - g)^(t/K). ConnectX: g = 5/1024
 * every dce_tcp_rtt = 1 us, half-life ln 2 / -ln(1019/1024) = 141.6 us;
 * the paper's g = 1/256 every K = 55 us: 9.74 ms (the period boundaries
 * put the crossing between 9.735 and 9.790 ms). */
static void test_cc_dcqcn_alpha(void)
{
	static struct ct c;
	const uint64_t t0 = 3 * CT_US;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dcqcn_ops), 0);
	((struct cc_dcqcn_cfg *)c.cfg)->alpha_init = 1.0;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	c.backlogged = true;
	c.now_ps = t0;
	ct_cnp(&c);
	CU_ASSERT_DOUBLE_EQUAL(cc_dcqcn_alpha(&c.q, t0), 1.0, 1e-12);
	CU_ASSERT(cc_dcqcn_alpha(&c.q, t0 + 141 * CT_US) > 0.5);
	CU_ASSERT(cc_dcqcn_alpha(&c.q, t0 + 142 * CT_US) < 0.5);
	CU_ASSERT_DOUBLE_EQUAL(cc_dcqcn_alpha(&c.q, t0 + 100 * CT_US), pow(1019.0 / 1024, 100), 1e-12);
	/* A second CNP at the half-life cuts at the next tick (t0 + 144 us)
	 * by alpha/2 there: the 141 decays to it, +g for the period with the
	 * CNP, one decay more. */
	ct_run(&c, t0 + 142 * CT_US);
	{
		uint64_t before = c.q.rate_bps;
		double g = 5.0 / 1024, alpha = (pow(1 - g, 142) * (1 - g) + g) * (1 - g);

		ct_cnp(&c);
		ct_run(&c, t0 + 144 * CT_US);
		CU_ASSERT_DOUBLE_EQUAL(cc_dcqcn_alpha(&c.q, t0 + 144 * CT_US), alpha, 1e-12);
		CU_ASSERT_EQUAL(c.q.rate_bps, (uint64_t)((double)before * (1.0 - alpha / 2)));
	}

	/* The paper's preset. */
	{
		char err[CFG_ERR_BYTES];
		struct cc_dcqcn_cfg *cfg = (struct cc_dcqcn_cfg *)c.cfg;

		CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dcqcn_ops), 0);
		(void)err;
		cfg->preset = CC_DCQCN_PAPER;
		cfg->g = 1.0 / 256;
		cfg->alpha_period_ps = 55 * CT_US;
		cfg->alpha_init = 1.0;
		CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
		c.now_ps = t0;
		ct_cnp(&c);
		CU_ASSERT(cc_dcqcn_alpha(&c.q, t0 + 9735 * CT_US) > 0.5);
		CU_ASSERT(cc_dcqcn_alpha(&c.q, t0 + 9790 * CT_US) < 0.5);
	}
}

/* DCTCP (RFC 8257): at alpha 1 the first echo halves the window; no second
 * cut within the window; alpha converges to the fraction of marked bytes. */
static void test_cc_dctcp(void)
{
	static struct ct c;
	struct cc_dctcp_cfg *cfg;
	uint64_t w;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dctcp_ops), 0);
	cfg = (struct cc_dctcp_cfg *)c.cfg;
	CU_ASSERT_DOUBLE_EQUAL(cfg->g, 1.0 / 16, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cfg->alpha_init, 1.0, 1e-12);
	cfg->init_window_bytes = 64 * CT_MTU;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.window_bytes, 64 * CT_MTU);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	ct_ack(&c, 1, c.q.base_rtt_ps, true);
	CU_ASSERT_EQUAL(c.q.window_bytes, 32 * CT_MTU);
	CU_ASSERT_EQUAL(c.q.stats.window_cuts, 1);
	w = c.q.window_bytes;
	ct_ack(&c, 1, c.q.base_rtt_ps, true); /* same window: no second cut */
	CU_ASSERT_EQUAL(c.q.window_bytes, w);

	/* One packet in four marked: alpha -> 0.25. */
	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dctcp_ops), 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	for (int i = 0; i < 40000; i++)
		ct_ack(&c, 1, c.q.base_rtt_ps, i % 4 == 0);
	CU_ASSERT_DOUBLE_EQUAL(cc_dctcp_alpha(&c.q), 0.25, 0.03);
	/* None marked: alpha -> 0 and the window grows, one MTU a window. */
	w = c.q.window_bytes;
	for (int i = 0; i < 40000; i++)
		ct_ack(&c, 1, c.q.base_rtt_ps, false);
	CU_ASSERT(cc_dctcp_alpha(&c.q) < 0.01);
	CU_ASSERT(c.q.window_bytes > w);
	/* A timeout: one MTU. */
	c.ops->on_timeout(&c.q, c.now_ps);
	CU_ASSERT_EQUAL(c.q.window_bytes, CT_MTU);
	CU_ASSERT_EQUAL(c.bad, 0);
}

/* One ACK of @pkts packets with @inflight packets still out, echoing CE
 * or not. */
static void ct_ack_in(struct ct *c, uint32_t pkts, uint32_t inflight, bool echo)
{
	struct cc_ack a = { 0 };

	a.acked_bytes = (uint64_t)pkts * CT_MTU;
	a.inflight_bytes = (uint64_t)inflight * CT_MTU;
	a.ecn_echo = echo;
	c->ops->on_ack(&c->q, &a, c->now_ps);
	ct_check(c);
}

/* DCTCP's rate mode, by hand, as the HPCC authors' ns-3 runs it
 * (RdmaHw::HandleAckDctcp): the window is R x t (t = 10 us: 125000 B at
 * 100 Gb/s). The first ACK opens the first batch (13 packets: snd_nxt,
 * 12 packets, plus one) and adds R_AI (capped at the line rate); an echo cuts
 * R by alpha / 2 (alpha 1: half) and enters CWR, where neither echoes cut
 * nor batches add; the ACK past the batch updates alpha with the marked
 * fraction, 3 of 13: alpha = 15/16 + 1/16 x 3/13 (later batches: the
 * packets in flight plus one, 12); once the data in
 * flight at the cut is acknowledged, the next batch adds R_AI again and
 * the next echo cuts by the new alpha / 2; R never goes below min_rate. */
static void test_cc_dctcp_rate(void)
{
	static struct ct c;
	struct cc_dctcp_cfg *cfg;
	double alpha, r;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_dctcp_ops), 0);
	cfg = (struct cc_dctcp_cfg *)c.cfg;
	cfg->mode = CC_DCTCP_RATE;
	cfg->t_ps = 10 * CT_US;
	cfg->rai_bps = 615000000;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	CU_ASSERT_EQUAL(c.q.window_bytes, 125000);
	ct_ack_in(&c, 1, 11, false);       /* acked 1, snd_nxt 12: batch of 12 */
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE); /* + R_AI, capped */
	ct_ack_in(&c, 1, 11, true);        /* acked 2, snd_nxt 13: cut, CWR to 13 */
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE / 2);
	CU_ASSERT_EQUAL(c.q.window_bytes, 62500);
	ct_ack_in(&c, 1, 11, true);        /* in CWR: no cut */
	ct_ack_in(&c, 1, 11, true);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE / 2);
	for (int i = 0; i < 8; i++)         /* acked 5..12: nothing past the batch */
		ct_ack_in(&c, 1, 11, false);
	CU_ASSERT_DOUBLE_EQUAL(cc_dctcp_alpha(&c.q), 1.0, 1e-12);
	ct_ack_in(&c, 1, 11, false);       /* acked 13 > 12: alpha update; 13 !> 13: still CWR */
	alpha = 15.0 / 16 + 1.0 / 16 * 3.0 / 13;
	CU_ASSERT_DOUBLE_EQUAL(cc_dctcp_alpha(&c.q), alpha, 1e-12);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE / 2); /* CWR: no increase */
	for (int i = 0; i < 11; i++)        /* acked 14..24 (out of CWR at 14), batch to 24 */
		ct_ack_in(&c, 1, 11, false);
	ct_ack_in(&c, 1, 11, false);       /* acked 25 > 24: a batch outside CWR */
	r = (double)(CT_LINE / 2) + 615000000.0;
	CU_ASSERT_EQUAL(c.q.rate_bps, (uint64_t)r);
	alpha *= 15.0 / 16;                /* the batch 13..24 had no mark */
	CU_ASSERT_DOUBLE_EQUAL(cc_dctcp_alpha(&c.q), alpha, 1e-12);
	ct_ack_in(&c, 1, 11, true);
	CU_ASSERT_EQUAL(c.q.rate_bps, (uint64_t)(r * (1 - alpha / 2)));
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 2);
	/* Many cuts end at min_rate (1 Gb/s). */
	for (int i = 0; i < 2000; i++)
		ct_ack_in(&c, 1, 0, true);
	CU_ASSERT_EQUAL(c.q.rate_bps, cfg->min_rate_bps);
	CU_ASSERT_EQUAL(c.bad, 0);
}

/* One ACK to HPCC echoing a one-hop INT stack: a 100 Gb/s egress whose
 * record says time @ts_ps, @tx_bytes sent and @q_bytes queued. */
static void ct_hpcc_ack(struct ct *c, uint64_t acked, uint64_t inflight, uint64_t ts_ps,
			uint64_t tx_bytes, uint64_t q_bytes)
{
	struct cc_int_hop h = { 0 };
	struct cc_ack a = { 0 };

	h.ts_ps = ts_ps & ((UINT64_C(1) << CC_INT_TS_BITS) - 1);
	h.tx_bytes = tx_bytes & ((UINT64_C(1) << CC_INT_TX_BITS) - 1);
	h.qlen_bytes = q_bytes;
	h.rate_bps = CT_LINE;
	a.acked_bytes = acked;
	a.inflight_bytes = inflight;
	a.int_hops = &h;
	a.n_int_hops = 1;
	c->ops->on_ack(&c->q, &a, c->now_ps);
	ct_check(c);
}

/* The record @h of a switch as HPCC gets it from the NIC after the wire in
 * format @enc: written, read back (rounded, with its wrap widths), copied
 * as nic_cc_ack_int does. */
static struct cc_int_hop ct_int_wire(const struct pkt_int_hop *h, struct pkt_int_enc enc)
{
	uint8_t rec[PKT_INT_HOP_BYTES];
	struct pkt_int_hop r;

	if (enc.fmt == PKT_INT_FMT_COMPACT) {
		pkt_int_hop_write_compact(rec, h, enc.multi);
		pkt_int_hop_read_compact(rec, enc.multi, &r);
	} else {
		pkt_int_hop_write(rec, h);
		pkt_int_hop_read(rec, &r);
	}
	return (struct cc_int_hop){ .ts_ps = r.ts_ps, .qlen_bytes = r.qlen_bytes,
				    .tx_bytes = r.tx_bytes, .rate_bps = r.rate_bps,
				    .ts_wrap_ps = r.ts_wrap_ps, .tx_wrap_bytes = r.tx_wrap_bytes };
}

/* One ACK of one packet carrying an RTT sample of @rtt_us, with @inflight
 * packets still out (TIMELY's next update waits for them). */
static void ct_ack_rtt(struct ct *c, double rtt_us, uint32_t inflight)
{
	struct cc_ack a = { 0 };

	a.acked_bytes = CT_MTU;
	a.rtt_ps = (uint64_t)(rtt_us * (double)CT_US);
	a.inflight_bytes = (uint64_t)inflight * CT_MTU;
	c->ops->on_ack(&c->q, &a, c->now_ps);
	ct_check(c);
}

/* HPCC (Li et al. 2019, Algorithm 1) on one 100 Gb/s hop, T = 8 us, by
 * hand: W_init = 100 Gb/s x 8 us = 100000 B, W_AI = 0.0004 W_init = 40 B,
 * eta 0.95, maxStage 5. Each record comes T after the last (tau = T: U
 * takes the new sample whole) unless said; the first stack starts 4 us
 * before the time field wraps and 1000 B before the tx field wraps. */
static void test_cc_hpcc(void)
{
	static struct ct c;
	const uint64_t t = 8 * CT_US, ts0 = (UINT64_C(1) << 40) - 4 * CT_US;
	uint64_t ts = ts0, tx = (UINT64_C(1) << 32) - 1000;
	double wc;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_hpcc_ops), 0);
	CU_ASSERT(cc_hpcc_ops.flags & CC_F_INT);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.window_bytes, 100000);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	/* The first stack is only recorded; lastUpdateSeq = 4096 + 100000. */
	ct_hpcc_ack(&c, 4096, 100000, ts, tx, 50000);
	CU_ASSERT_EQUAL(c.q.window_bytes, 100000);
	CU_ASSERT_EQUAL(c.q.stats.int_hops, 1);
	/* Line rate through the hop (100000 B in T, across both wraps) and a
	 * queue of 50000 B in both records: u = 50000 / (B T) + 1 = 1.5. Seq
	 * 8192 has not passed lastUpdateSeq: W = W_c / (U / eta) + W_AI =
	 * 100000 x 0.95 / 1.5 + 40 = 63373.3 B, rate W / T, W_c kept. */
	ts += t, tx += 100000;
	ct_hpcc_ack(&c, 4096, 100000, ts, tx, 50000);
	CU_ASSERT_DOUBLE_EQUAL(cc_hpcc_u(&c.q), 1.5, 1e-9);
	CU_ASSERT_EQUAL(c.q.window_bytes, 63373);
	CU_ASSERT_EQUAL(c.q.rate_bps, UINT64_C(63373333333));
	CU_ASSERT_EQUAL(cc_hpcc_wc(&c.q), 100000);
	CU_ASSERT_EQUAL(c.q.stats.window_cuts, 0);
	/* Seq 108192 passes it: the same window is committed as W_c (once),
	 * and lastUpdateSeq becomes 108192 + 50000. */
	ts += t, tx += 100000;
	ct_hpcc_ack(&c, 100000, 50000, ts, tx, 50000);
	CU_ASSERT_EQUAL(cc_hpcc_wc(&c.q), 63373);
	CU_ASSERT_EQUAL(c.q.window_bytes, 63373);
	CU_ASSERT_EQUAL(c.q.stats.window_cuts, 1);
	CU_ASSERT_EQUAL(cc_hpcc_stage(&c.q), 0);
	wc = 100000 * 0.95 / 1.5 + 40;
	/* 90% of the line rate, queue gone (min of 0 and 50000): u = 0.9 <
	 * eta, additive increase: W = W_c + W_AI. Two ACKs within the RTT both
	 * give W_c + W_AI, not W_c + 2 W_AI (the reference window). */
	for (int i = 0; i < 2; i++) {
		ts += t, tx += 90000;
		ct_hpcc_ack(&c, 4096, 50000, ts, tx, 0);
		CU_ASSERT_DOUBLE_EQUAL(cc_hpcc_u(&c.q), 0.9, 1e-9);
		CU_ASSERT_EQUAL(c.q.window_bytes, (uint64_t)(wc + 40));
		CU_ASSERT_EQUAL(cc_hpcc_wc(&c.q), (uint64_t)wc);
	}
	/* Five committed additive steps (every ACK passes lastUpdateSeq from
	 * here: nothing in flight), incStage 1..5. */
	for (unsigned i = 1; i <= 5; i++) {
		ts += t, tx += 90000;
		ct_hpcc_ack(&c, i == 1 ? 50000 : 4096, 0, ts, tx, 0);
		wc += 40;
		CU_ASSERT_EQUAL(cc_hpcc_wc(&c.q), (uint64_t)wc);
		CU_ASSERT_EQUAL(cc_hpcc_stage(&c.q), i);
	}
	CU_ASSERT_EQUAL(c.q.stats.window_increases, 5);
	/* incStage = maxStage: the multiplicative step although U < eta,
	 * W = W_c / (0.9 / 0.95) + W_AI, incStage back to 0. */
	ts += t, tx += 90000;
	ct_hpcc_ack(&c, 4096, 0, ts, tx, 0);
	wc = wc * 0.95 / 0.9 + 40;
	CU_ASSERT_EQUAL(cc_hpcc_wc(&c.q), (uint64_t)wc);
	CU_ASSERT_EQUAL(c.q.window_bytes, (uint64_t)wc);
	CU_ASSERT_EQUAL(cc_hpcc_stage(&c.q), 0);
	/* A record T/4 later at the line rate (25000 B in 2 us): the EWMA
	 * weighs the sample by tau / T, U = 0.75 x 0.9 + 0.25 x 1 = 0.925. */
	ts += t / 4, tx += 25000;
	ct_hpcc_ack(&c, 4096, 0, ts, tx, 0);
	CU_ASSERT_DOUBLE_EQUAL(cc_hpcc_u(&c.q), 0.925, 1e-9);
	CU_ASSERT_EQUAL(cc_hpcc_wc(&c.q), (uint64_t)(wc + 40));
	/* A long stall: tau is capped at T (the sample replaces U). Then a
	 * hard overload, U = 1 + 10 MB / (B T) = 101: the window falls to its
	 * floor, one MTU (above the minimum rate's 100 B), never below. */
	ts += 100 * t, tx += 20000;
	ct_hpcc_ack(&c, 4096, 0, ts, tx, 0);
	CU_ASSERT_DOUBLE_EQUAL(cc_hpcc_u(&c.q), 20000.0 / (100 * 100000.0), 1e-9);
	for (int i = 0; i < 3; i++) {
		ts += t, tx += 100000;
		ct_hpcc_ack(&c, 4096, 0, ts, tx, 10000000);
		/* the queue term takes min(qLen, previous qLen): 0 the first time */
		CU_ASSERT_DOUBLE_EQUAL(cc_hpcc_u(&c.q), i == 0 ? 1.0 : 101.0, 1e-9);
	}
	CU_ASSERT_EQUAL(c.q.window_bytes, CT_MTU);
	CU_ASSERT(c.q.rate_bps >= UINT64_C(100000000));
	/* No stack: nothing changes but the sequence. */
	{
		uint64_t w = c.q.window_bytes;

		ct_ack(&c, 1, c.q.base_rtt_ps, true);
		CU_ASSERT_EQUAL(c.q.window_bytes, w);
	}
	CU_ASSERT_EQUAL(c.bad, 0);
}

/* TIMELY as the HPCC authors' simulator runs it (alpha 0.875, beta 0.8,
 * T_low 50 us, T_high 500 us, minRTT 20 us; at 100 Gb/s delta 100 Mb/s and
 * R_HAI 500 Mb/s), against values worked by hand:
 *   first sample 10 us: history only, R = 100G;
 *   1000 us > T_high: R (1 - 0.8 (1 - 500/1000)) = 0.6 R = 60G;
 *   10 us < T_low: + 100M, five times: 60.5G; the sixth and seventh
 *   increase in a row are hyper: 61.0G, 61.5G; 45 us: 62.0G;
 *   55 us (in [T_low, T_high]): rtt_diff = 0.125 x 30.6246 us + 0.875 x
 *   10 us = 12.5781 us, gradient 0.628904, R x (1 - 0.8 x 0.628904) =
 *   30.8064G (the run of increases ends);
 *   52 us: rtt_diff = 0.125 x 12.5781 - 0.875 x 3 < 0: + 100M;
 *   a steep gradient floors the factor at 0: min_rate 1G.
 * And once per RTT: with ten packets in flight the next ten ACKs (their
 * samples included) change nothing, the eleventh does. */
static void test_cc_timely(void)
{
	static struct ct c;
	const struct cc_timely_cfg *cfg;
	uint64_t want = CT_LINE;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_timely_ops), 0);
	cfg = (const struct cc_timely_cfg *)c.cfg;
	CU_ASSERT_DOUBLE_EQUAL(cfg->alpha, 0.875, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cfg->beta, 0.8, 1e-12);
	CU_ASSERT_EQUAL(cfg->t_low_ps, 50 * CT_US);
	CU_ASSERT_EQUAL(cfg->t_high_ps, 500 * CT_US);
	CU_ASSERT_EQUAL(cfg->min_rtt_ps, 20 * CT_US);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	CU_ASSERT_EQUAL(c.q.window_bytes, 0);
	ct_ack_rtt(&c, 10, 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE); /* the first sample: history only */
	ct_ack_rtt(&c, 1000, 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, UINT64_C(60000000000));
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 1);
	want = UINT64_C(60000000000);
	for (int k = 1; k <= 7; k++) {
		ct_ack_rtt(&c, 10, 0);
		want += k <= 5 ? UINT64_C(100000000) : UINT64_C(500000000);
		CU_ASSERT_EQUAL(c.q.rate_bps, want);
	}
	CU_ASSERT_EQUAL(want, UINT64_C(61500000000));
	ct_ack_rtt(&c, 45, 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, UINT64_C(62000000000));
	ct_ack_rtt(&c, 55, 0);
	CU_ASSERT_DOUBLE_EQUAL(cc_timely_rtt_diff(&c.q), 12578079.82, 0.01);
	CU_ASSERT_DOUBLE_EQUAL((double)c.q.rate_bps, 30806362042.0, 2.0);
	ct_ack_rtt(&c, 52, 0); /* falling: gradient < 0, an additive increase */
	CU_ASSERT_DOUBLE_EQUAL((double)c.q.rate_bps, 30906362042.0, 2.0);
	CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 2);
	CU_ASSERT_EQUAL(c.q.stats.rate_increases, 9);
	ct_ack_rtt(&c, 400, 0); /* gradient about 15: the factor floors at 0 */
	CU_ASSERT_EQUAL(c.q.rate_bps, UINT64_C(1000000000));

	/* Once per RTT. */
	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_timely_ops), 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	ct_ack_rtt(&c, 10, 10);
	for (int k = 0; k < 10; k++) {
		ct_ack_rtt(&c, 1000, 0);
		CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	}
	ct_ack_rtt(&c, 1000, 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, UINT64_C(60000000000));
	CU_ASSERT_EQUAL(c.bad, 0);
}

/* One ACK of @pkts packets carrying an RTT sample of @rtt_us (0: none). */
static void ct_ack_n(struct ct *c, uint32_t pkts, double rtt_us)
{
	struct cc_ack a = { 0 };

	a.acked_bytes = (uint64_t)pkts * CT_MTU;
	a.rtt_ps = (uint64_t)(rtt_us * (double)CT_US);
	c->ops->on_ack(&c->q, &a, c->now_ps);
	ct_check(c);
}

/* One ACK of @pkts packets at @rtt_us, CE echoed or not, @inflight bytes
 * still out. */
static void ct_nscc_ack(struct ct *c, uint32_t pkts, double rtt_us, bool marked, uint64_t inflight)
{
	struct cc_ack a = { 0 };

	a.acked_bytes = (uint64_t)pkts * CT_MTU;
	a.rtt_ps = (uint64_t)(rtt_us * (double)CT_US);
	a.ecn_echo = marked;
	a.inflight_bytes = inflight;
	c->ops->on_ack(&c->q, &a, c->now_ps);
	ct_check(c);
}

/* NSCC against its rules worked by hand (cc_nscc.c; uet-htsim's uec.cpp),
 * at 100 Gb/s, base RTT 8 us (no hops: no serialisation added), MTU 4096:
 * BDP 100,000 B, the largest and first window 1.5 BDP = 150,000 B, target
 * 0.75 x 8 = 6 us; a = 100,000 / 150,000, b = 6 / 12, alpha = 4 MTU a b /
 * target B/ps, fi = 5 MTU a = 13653.3 B, eta = 0.15 MTU a = 409.6 B.
 * - Marked ACKs at 20 us of delay, all at one time: the average delay
 *   (EWMA 0.0125 from 0) passes the target at the 29th, 20 (1 - 0.9875^29)
 *   us, and that ACK cuts once: x (1 - 0.8 (avg - 6) / avg); the next ones
 *   at the same time do not (once per base RTT). A base RTT later the next
 *   marked ACK cuts again by its own average, and eta is added.
 * - Unmarked ACKs at 2 us of delay gather alpha x bytes x (6 - 2) us,
 *   applied as / cwnd each time 8 MTUs have been acknowledged.
 * - Quick adapt: at the end of its window (base RTT + target) after a
 *   NACK with less than maxwnd / 8 = 18,750 B acknowledged in it, the
 *   window falls to what was; otherwise a NACK takes an MTU off.
 * - Marked ACKs of what was in flight at quick adapt are taken unmarked;
 *   a timeout takes an MTU off; the window never goes below one MTU. */
static void test_cc_nscc(void)
{
	static struct ct c;
	const double mtu = CT_MTU, a = 100000.0 / 150000.0, b = 0.5;
	const double alpha = 4 * mtu * a * b / (6.0 * (double)CT_US), eta = 0.15 * mtu * a;
	double w = 150000, avg, inc;
	uint64_t t0 = 100 * CT_US;
	int k;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_nscc_ops), 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.window_bytes, 150000);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	CU_ASSERT_EQUAL(cc_nscc_target(&c.q), 6 * CT_US);
	c.now_ps = t0;
	for (k = 1; k <= 40; k++) {
		double before = cc_nscc_cwnd(&c.q);

		ct_nscc_ack(&c, 1, 8 + 20, true, 100000);
		avg = 20.0 * (1.0 - pow(0.9875, k)) * (double)CT_US;
		CU_ASSERT_DOUBLE_EQUAL(cc_nscc_avg_delay(&c.q), avg, 1e-3);
		if (k == 29)
			w = before * (1.0 - 0.8 * (avg - 6.0 * (double)CT_US) / avg);
		CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), k < 29 ? 150000 : w, 1e-6);
	}
	CU_ASSERT(w < 150000 && w > 145000);
	c.now_ps = t0 + 8 * CT_US;
	ct_nscc_ack(&c, 1, 8 + 20, true, 100000);
	avg = 20.0 * (1.0 - pow(0.9875, 41)) * (double)CT_US;
	/* The cut, then eta: a base RTT since it was last added (at t0). */
	w = w * (1.0 - 0.8 * (avg - 6.0 * (double)CT_US) / avg) + eta;
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w, 1e-6);
	CU_ASSERT_EQUAL(c.q.stats.window_cuts, 2);

	/* Proportional increase: each unmarked ACK of 4 packets at 2 us of
	 * delay gathers A = alpha x 16,384 x 4 us. The marked ACKs left 5
	 * MTUs since the last fulfil (fulfils after 9, 18, 27, 36), so the
	 * first one passes 8 MTUs and applies its own A; the next two gather,
	 * the fourth passes 8 MTUs again and applies 3 A. No eta: 2 us since
	 * the last. */
	inc = alpha * 4 * mtu * 4.0 * (double)CT_US;
	c.now_ps = t0 + 10 * CT_US;
	ct_nscc_ack(&c, 4, 8 + 2, false, 50000);
	w += inc / w;
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w, 1e-6);
	ct_nscc_ack(&c, 4, 8 + 2, false, 50000);
	ct_nscc_ack(&c, 4, 8 + 2, false, 50000);
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w, 1e-6);
	ct_nscc_ack(&c, 4, 8 + 2, false, 50000);
	w += 3 * inc / w;
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w, 1e-6);

	/* Quick adapt. Its first window (from the first ACK, t0) ends at
	 * t0 + 14 us; at t0 + 40 us a NACK finds it over with 233,472 B
	 * acknowledged in it (more than maxwnd / 8): no cut but the NACK's
	 * MTU, and the next window runs to t0 + 54 us. Another NACK in it
	 * takes another MTU; 2 packets are acknowledged; at its end a NACK
	 * finds 8,192 B < 18,750 acknowledged after a NACK: the window falls
	 * to 8,192 B. */
	c.now_ps = t0 + 40 * CT_US;
	c.ops->on_nak(&c.q, c.now_ps);
	ct_check(&c);
	w -= mtu;
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w, 1e-6);
	c.now_ps = t0 + 41 * CT_US;
	c.ops->on_nak(&c.q, c.now_ps);
	ct_check(&c);
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w - mtu, 1e-6);
	ct_nscc_ack(&c, 2, 8 + 2, false, 30000);
	c.now_ps = t0 + 54 * CT_US;
	c.ops->on_nak(&c.q, c.now_ps);
	ct_check(&c);
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), 2 * mtu, 1e-9);
	/* Marked ACKs of what was in flight then are ignored (30,000 B): taken
	 * as unmarked at 30 us of delay, above the target: a fair increase,
	 * fi x 28,672, applied at once (13 us since the last fulfil, at the 2
	 * packets' ACK: more than a base RTT): cwnd += fi x 28,672 / cwnd; and
	 * eta (46 us since it was last added). */
	ct_nscc_ack(&c, 7, 8 + 30, true, 30000);
	w = 2 * mtu + 5.0 * mtu * a * 7 * mtu / (2 * mtu) + eta;
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w, 1e-6);
	/* Timeouts take an MTU off each, down to one MTU and no further. */
	c.ops->on_timeout(&c.q, c.now_ps);
	ct_check(&c);
	CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c.q), w - mtu, 1e-6);
	for (k = 0; k < 40; k++) {
		c.ops->on_timeout(&c.q, c.now_ps);
		ct_check(&c);
	}
	CU_ASSERT_EQUAL(c.q.window_bytes, CT_MTU);
	CU_ASSERT_EQUAL(c.bad, 0);
}

/* nscc+rccc against NSCC alone, the same ACKs and NACKs (uet-htsim's
 * updateCwndOnNack_NSCC: the window loses nothing to a last-hop trim when
 * receiver credit runs): 41 packets acknowledged, then, past the first
 * quick-adapt window (too much acknowledged in it to cut), a NACK of a
 * last-hop trim takes an MTU off NSCC's window and nothing off the
 * combination's; a NACK of a trim before the last hop takes an MTU off
 * both. */
static void test_cc_nscc_rccc_nak(void)
{
	static struct ct c[2];
	const struct cc_ops *ops[2] = { &cc_nscc_ops, &cc_nscc_rccc_ops };

	for (int i = 0; i < 2; i++) {
		double w;

		CU_ASSERT_EQUAL_FATAL(ct_init(&c[i], ops[i]), 0);
		CU_ASSERT_EQUAL_FATAL(ct_start(&c[i]), 0);
		c[i].now_ps = 100 * CT_US; /* the first ACK opens the first window */
		ct_nscc_ack(&c[i], 1, 8 + 2, false, 50000);
		c[i].now_ps = 105 * CT_US;
		ct_nscc_ack(&c[i], 40, 8 + 2, false, 50000);
		c[i].now_ps = 140 * CT_US;
		w = cc_nscc_cwnd(&c[i].q);
		c[i].q.nak_last_hop = true;
		c[i].ops->on_nak(&c[i].q, c[i].now_ps);
		c[i].q.nak_last_hop = false;
		ct_check(&c[i]);
		CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c[i].q), i == 0 ? w - CT_MTU : w, 1e-6);
		w = cc_nscc_cwnd(&c[i].q);
		c[i].ops->on_nak(&c[i].q, c[i].now_ps);
		ct_check(&c[i]);
		CU_ASSERT_DOUBLE_EQUAL(cc_nscc_cwnd(&c[i].q), w - CT_MTU, 1e-6);
		CU_ASSERT_EQUAL(c[i].bad, 0);
	}
}

/* Swift with its defaults (ai 1, beta 0.8, max_mdf 0.5, h 1 us, fs_range 5
 * us over 0.1..100 packets) on a path of 2 hops and base RTT 8 us: fixed
 * target 8 + 2 x 1 = 10 us. Worked by hand:
 *   cwnd 1000, delay 100 us: 1 - 0.8 (100 - 10)/100 = 0.28, capped at
 *   1 - max_mdf: 500; within that RTT no second cut; a delay later, 20 us
 *   (fs(500) < 0: target 10 us): 1 - 0.8 x 10/20 = 0.6: 300;
 *   below target, a window's worth of ACKs (300 of one packet) adds ai = 1
 *   packet less a little (sum of 1/cwnd from 300 to 301): 300.998;
 *   cwnd 2 cut twice a delay apart: 0.5 packet, window 2048 B, paced at
 *   2048 x 8 bit / 100 us = 163.84 Mb/s; one ACK below target: + ai x 1 =
 *   1.5 packets, the line rate again;
 *   flow scaling: fs = alpha/sqrt(cwnd) + beta, alpha = 5 us / (1/sqrt(0.1)
 *   - 1/10) = 1.632772 us, beta = -0.163277 us: 5 us at 0.1 packet, 1.469494
 *   us at 1, 0 at 100. */
static void test_cc_swift(void)
{
	static struct ct c;
	struct cc_swift_cfg *cfg;
	const uint64_t t0 = 50 * CT_US;

	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_swift_ops), 0);
	cfg = (struct cc_swift_cfg *)c.cfg;
	CU_ASSERT_DOUBLE_EQUAL(cfg->beta, 0.8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cfg->max_mdf, 0.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(cfg->ai, 1.0, 1e-12);
	cfg->max_cwnd = 1000;
	c.q.n_hops = 2;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 1000, 1e-9);
	CU_ASSERT_EQUAL(c.q.window_bytes, 1000 * CT_MTU);
	CU_ASSERT_EQUAL(cc_swift_target(&c.q), 10 * CT_US);
	c.now_ps = t0;
	ct_ack_n(&c, 1, 100);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 500, 1e-9); /* capped at max_mdf */
	c.now_ps = t0 + 99 * CT_US;
	ct_ack_n(&c, 1, 100);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 500, 1e-9); /* one cut per RTT */
	c.now_ps = t0 + 100 * CT_US;
	ct_ack_n(&c, 1, 20);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 300, 1e-9);
	CU_ASSERT_EQUAL(c.q.stats.window_cuts, 2);
	for (int k = 0; k < 300; k++)
		ct_ack_n(&c, 1, k == 0 ? 5 : 0); /* one sample, then none: the latest holds */
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 300.998, 0.0005);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);

	/* Below one packet: paced. */
	CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_swift_ops), 0);
	cfg->max_cwnd = 2;
	c.q.n_hops = 2;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	c.now_ps = t0;
	ct_ack_n(&c, 1, 100);
	c.now_ps = t0 + 100 * CT_US;
	ct_ack_n(&c, 1, 100);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 0.5, 1e-12);
	CU_ASSERT_EQUAL(c.q.window_bytes, CT_MTU / 2);
	CU_ASSERT_EQUAL(c.q.rate_bps, UINT64_C(163840000));
	ct_ack_n(&c, 1, 5);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 1.5, 1e-12);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	CU_ASSERT_EQUAL(c.bad, 0);

	/* Flow scaling: a smaller window, a larger target. */
	{
		static const struct {
			double cwnd, fs_us;
		} fs[] = { { 0.1, 5.0 }, { 1, 1.469494 }, { 16, 0.244916 }, { 100, 0 } };

		for (unsigned i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
			CU_ASSERT_EQUAL_FATAL(ct_init(&c, &cc_swift_ops), 0);
			cfg->max_cwnd = fs[i].cwnd;
			c.q.n_hops = 2;
			CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
			CU_ASSERT_DOUBLE_EQUAL((double)cc_swift_target(&c.q),
					       (10 + fs[i].fs_us) * (double)CT_US, 1.0);
		}
	}
}

/* Settings: presets fill the keys left unset, a key given wins. */
static void test_cc_settings(void)
{
	char err[CFG_ERR_BYTES];
	struct cfg_doc *doc;
	struct cc_dcqcn_cfg buf = { 0 };
	const struct cc_dcqcn_cfg *c = &buf;
	struct cfg_bind b = { cc_dcqcn_ops.kind.settings, &buf };

	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("t", "{preset: paper, rai: 80Mbps}", &doc, err), 0);
	CU_ASSERT_EQUAL(cfg_schema_read(doc, cfg_doc_root(doc), "nic.dcqcn", &b, 1, err), 0);
	CU_ASSERT_EQUAL(c->preset, CC_DCQCN_PAPER);
	CU_ASSERT_EQUAL(c->rai_bps, 80000000);
	CU_ASSERT_EQUAL(c->timer_ps, 55 * CT_US);
	CU_ASSERT_EQUAL(c->threshold, 5);
	CU_ASSERT(c->clamp_target);
	cfg_doc_free(doc);
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("t", "{timer: 0us}", &doc, err), 0);
	CU_ASSERT_EQUAL(cfg_schema_read(doc, cfg_doc_root(doc), "nic.dcqcn", &b, 1, err), -EINVAL);
	cfg_doc_free(doc);
	CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("t", "{presett: paper}", &doc, err), 0);
	CU_ASSERT_EQUAL(cfg_schema_read(doc, cfg_doc_root(doc), "nic.dcqcn", &b, 1, err), -EINVAL);
	CU_ASSERT(strstr(err, "preset") != NULL);
	cfg_doc_free(doc);
}

/* @ops's harness with its settings read from @yaml through its key table,
 * as the loader reads nic.<name> (absent keys take their defaults). */
static int ct_read(struct ct *c, const struct cc_ops *ops, const char *yaml)
{
	char err[CFG_ERR_BYTES] = "";
	struct cfg_doc *doc;
	int rc;

	if (ct_init(c, ops) != 0 || cfg_doc_load_string("z.yaml", yaml, &doc, err) != 0)
		return -1;
	memset(c->cfg, 0, sizeof(c->cfg));
	rc = cfg_schema_read(doc, cfg_doc_root(doc), ops->kind.name,
			     &(struct cfg_bind){ ops->kind.settings, c->cfg }, 1, err);
	cfg_doc_free(doc);
	if (rc != 0)
		fprintf(stderr, "\n  %s: %s\n", ops->kind.name, err);
	return rc;
}

/* Every 0 that docs/config.md gives a meaning, written out and read as the
 * loader reads it, does what the docs say (and no default takes its
 * place). At 100 Gb/s, base RTT 8 us, MTU 4096:
 *   dcqcn reduce_period 0us: every CNP cuts at once (the connectx
 *     preset's 4 us clock would defer it); byte_counter 0B: off, bytes
 *     sent bring no increase; threshold 0: no fast recovery, the first
 *     increase after a cut is additive (R_T + R_AI; F = 1 would keep R_T);
 *   dctcp init_window 0B: one BDP plus two packets, 100000 + 8192 B;
 *     rate mode t 0us: the window is the rate x the base RTT, 100000 B;
 *   hpcc t 0us: W_init = line x base RTT = 100000 B;
 *   swift base_target 0us and hops 0: the base RTT and the path's links
 *     (3) in the target, max_cwnd 0: one BDP at the largest target
 *     (8 + 3 x 1 + 5 us) plus two packets = 200000 / 4096 + 2 packets;
 *   ibcc ccti_limit 0: CCTI stays at 0 (not the table's last index), a
 *     BECN leaves the line rate. */
static void test_cc_zeros(void)
{
	static struct ct c;
	const uint64_t t0 = 10 * CT_US;

	CU_ASSERT_EQUAL_FATAL(ct_read(&c, &cc_dcqcn_ops,
				      "{reduce_period: 0us, byte_counter: 0B, threshold: 0, clamp_target: true}"),
			      0);
	{
		const struct cc_dcqcn_cfg *cfg = (const struct cc_dcqcn_cfg *)c.cfg;
		uint64_t rt;

		CU_ASSERT_EQUAL(cfg->preset, CC_DCQCN_CONNECTX);
		CU_ASSERT_EQUAL(cfg->reduce_period_ps, 0);
		CU_ASSERT_EQUAL(cfg->byte_counter_bytes, 0);
		CU_ASSERT_EQUAL(cfg->threshold, 0);
		CU_ASSERT_EQUAL(cfg->timer_ps, 300 * CT_US); /* the preset fills the rest */
		CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
		c.backlogged = true;
		c.now_ps = t0;
		ct_cnp(&c);
		CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 1); /* at once */
		CU_ASSERT_EQUAL(c.q.rate_bps,
				(uint64_t)((double)CT_LINE * (1.0 - cfg->alpha_init / 2)));
		c.now_ps = t0 + CT_US;
		ct_cnp(&c);
		CU_ASSERT_EQUAL(c.q.stats.rate_cuts, 2); /* every CNP cuts */
		rt = cc_dcqcn_target(&c.q);
		CU_ASSERT(rt < CT_LINE);
		ct_send(&c, 1000); /* 4 MB: 125 byte-counter periods at the preset's 32767 B */
		CU_ASSERT_EQUAL(c.q.stats.rate_increases, 0);
		ct_run(&c, t0 + CT_US + 300 * CT_US); /* the first timer expiry */
		CU_ASSERT_EQUAL(c.q.stats.rate_increases, 1);
		CU_ASSERT_EQUAL(cc_dcqcn_target(&c.q), rt + cfg->rai_bps);
		CU_ASSERT_EQUAL(c.bad, 0);
	}

	CU_ASSERT_EQUAL_FATAL(ct_read(&c, &cc_dctcp_ops, "{init_window: 0B}"), 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.window_bytes, 100000 + 2 * CT_MTU);
	CU_ASSERT_EQUAL_FATAL(ct_read(&c, &cc_dctcp_ops, "{mode: rate, t: 0us}"), 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
	CU_ASSERT_EQUAL(c.q.window_bytes, 100000);

	CU_ASSERT_EQUAL_FATAL(ct_read(&c, &cc_hpcc_ops, "{t: 0us}"), 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_EQUAL(c.q.window_bytes, 100000);

	CU_ASSERT_EQUAL_FATAL(ct_read(&c, &cc_swift_ops, "{base_target: 0us, hops: 0, max_cwnd: 0}"), 0);
	c.q.n_hops = 3;
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	CU_ASSERT_DOUBLE_EQUAL(cc_swift_cwnd(&c.q), 200000.0 / CT_MTU + 2, 1e-9);
	CU_ASSERT(cc_swift_target(&c.q) >= 11 * CT_US && cc_swift_target(&c.q) < 16 * CT_US);

	CU_ASSERT_EQUAL_FATAL(ct_read(&c, &cc_ibcc_ops, "{ccti_limit: 0}"), 0);
	CU_ASSERT_EQUAL(((const struct cc_ibcc_cfg *)c.cfg)->ccti_limit, 0);
	CU_ASSERT_EQUAL_FATAL(ct_start(&c), 0);
	ct_cnp(&c);
	CU_ASSERT_EQUAL(cc_ibcc_ccti(&c.q), 0);
	CU_ASSERT_EQUAL(c.q.rate_bps, CT_LINE);
}

/* HPCC with compact INT records (fabric.int_record: compact, m = 4, the
 * simulator's at 100 Gb/s) against full ones, on the same scenario: one
 * 100 Gb/s hop, an ACK per 1086-byte packet, the port sending at the line
 * rate (with a tx count that is no multiple of the 512-byte unit) and its
 * queue swinging between 10 and 50 kB; times start 50 us before the
 * compact 2^24 ns wrap and byte counts 50 units before its 2^20 wrap, so
 * both wrap midway. Each sample is rounded (1 ns of 89, up to 511 B of
 * 1113), but the rounding of the byte and time counters telescopes and U
 * averages over T: after the first RTT, U stays within 2% of the full
 * records' U (0.35% seen) and the window within 3% (1.6% seen). Without
 * the compact wrap widths U would be off by orders of magnitude. */
static void test_cc_hpcc_compact(void)
{
	static struct ct c[2];
	const struct pkt_int_enc encs[2] = { { PKT_INT_FMT_FULL, 0 }, { PKT_INT_FMT_COMPACT, 4 } };
	const uint64_t gap_ps = 89040, /* 1113 B (frame and wire overhead) at 100 Gb/s */
		ts0 = ((UINT64_C(1) << 24) * 1000 - 50 * CT_US), tx0 = ((UINT64_C(1) << 20) - 50) * 512 + 77;
	double worst_u = 0, worst_w = 0;

	for (int f = 0; f < 2; f++) {
		CU_ASSERT_EQUAL_FATAL(ct_init(&c[f], &cc_hpcc_ops), 0);
		CU_ASSERT_EQUAL_FATAL(ct_start(&c[f]), 0);
	}
	for (uint32_t k = 0; k < 2000; k++) {
		struct pkt_int_hop h = {
			.ts_ps = ts0 + k * gap_ps,
			.tx_bytes = tx0 + (uint64_t)k * 1113,
			.qlen_bytes = (uint32_t)(30000 + 20000 * sin(k / 40.0)),
			.rate_bps = CT_LINE,
		};
		double u[2], w[2];

		for (int f = 0; f < 2; f++) {
			struct cc_int_hop hop = ct_int_wire(&h, encs[f]);
			struct cc_ack a = { .acked_bytes = 1000, .inflight_bytes = 50000,
					    .int_hops = &hop, .n_int_hops = 1 };

			c[f].now_ps = h.ts_ps;
			c[f].ops->on_ack(&c[f].q, &a, c[f].now_ps);
			ct_check(&c[f]);
			u[f] = cc_hpcc_u(&c[f].q);
			w[f] = (double)c[f].q.window_bytes;
		}
		if (k * gap_ps > 8 * CT_US) { /* after the first RTT */
			worst_u = fmax(worst_u, fabs(u[1] - u[0]) / u[0]);
			worst_w = fmax(worst_w, fabs(w[1] - w[0]) / w[0]);
		}
	}
	CU_ASSERT(worst_u < 0.02);
	CU_ASSERT(worst_w < 0.03);
	if (worst_u >= 0.02 || worst_w >= 0.03)
		fprintf(stderr, "\n  compact vs full: U off by %.2f%%, W by %.2f%%\n", 100 * worst_u,
			100 * worst_w);
	CU_ASSERT(c[0].bad == 0 && c[1].bad == 0);
	CU_ASSERT_EQUAL(c[1].q.stats.int_hops, 2000);
}

int test_cc_register(void)
{
	static const struct test_case tests[] = {
		{ "conformance of every algorithm", test_cc_conformance },
		{ "registration checks", test_cc_ops_check },
		{ "DCQCN reaction-point trace", test_cc_dcqcn_trace },
		{ "DCQCN alpha half-life", test_cc_dcqcn_alpha },
		{ "DCQCN rate-reduce clock, alpha period, hyper increase", test_cc_dcqcn_clocks },
		{ "DCTCP rate mode (the HPCC ns-3's)", test_cc_dctcp_rate },
		{ "DCTCP window and alpha", test_cc_dctcp },
		{ "HPCC window, reference window and stages", test_cc_hpcc },
		{ "HPCC on compact INT records: U as on full ones", test_cc_hpcc_compact },
		{ "TIMELY trace", test_cc_timely },
		{ "Swift window, target and pacing", test_cc_swift },
		{ "NSCC window: cuts, increases, quick adapt", test_cc_nscc },
		{ "nscc+rccc: a last-hop trim spares the window", test_cc_nscc_rccc_nak },
		{ "settings and presets", test_cc_settings },
		{ "documented zeros: derived values, off, at once", test_cc_zeros },
	};

	return test_suite("cc", tests);
}
