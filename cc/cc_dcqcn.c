/* DCQCN's reaction point: the sender's rate control of Zhu et al.,
 * "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015
 * (DCQCN), with the timing of the ConnectX firmware as NVIDIA documents it
 * ("DCQCN Parameters": rpg_*, dce_tcp_*, rate_reduce_monitor_period) and
 * as the HPCC authors' ns-3 simulator models it (alibaba-edu/High-
 * Precision-Congestion-Control, RdmaHw's *Mlx functions). The congestion
 * point (RED-style ECN marking) is in switch/, the notification point (a
 * CNP per QP at most every N when CE-marked data arrives; N = 0: every
 * marked packet) in nic/nic_rx.c; this file reacts to the CNPs.
 *
 * State, with the paper's names: the current rate R_C, the target rate R_T,
 * alpha (the estimate of how congested the path is), and the counts T and
 * BC of rate-increase events of the timer and of the byte counter since the
 * last cut.
 *
 * Alpha, once per alpha period K (the timer starts at the QP's first CNP
 * and runs on): alpha <- (1 - g) alpha + g when a CNP arrived in the
 * period, (1 - g) alpha when none did. The first CNP sets alpha to
 * alpha_init and starts the timers; it does not count toward the first
 * period (ConnectX: initial_alpha_value).
 *
 * The cut, R_T <- R_C (see clamp_target), R_C <- max(R_min, R_C (1 -
 * alpha / 2)): with a rate-reduce period P (rate_reduce_monitor_period),
 * at the first tick of P's clock (started at the first CNP) after a CNP,
 * so one cut per P however many CNPs came, none lost; with P = 0 (the
 * paper), at every CNP. A cut resets T and BC and restarts the increase
 * timer. R_T is set to R_C on a cut when clamp_target, or else when an
 * increase came since the last cut (clamp_tgt_rate 0).
 *
 * An increase event is the increase timer's expiry (every T_i) or B bytes
 * sent; with T and BC counted before the event (so the first after a cut
 * sees 0) and F the fast-recovery threshold:
 *   byte counter on:  max(T, BC) < F  fast recovery
 *                     min(T, BC) > F  hyper increase, i = min(T, BC) - F
 *                     otherwise       additive increase
 *   byte counter off: T < F fast recovery, T = F additive, T > F hyper,
 *                     i = T - F (the timer alone decides: ns-3's stages)
 *   fast recovery:     R_C <- (R_T + R_C) / 2
 *   additive increase: R_T <- R_T + R_AI;         R_C <- (R_T + R_C) / 2
 *   hyper increase:    R_T <- R_T + i R_HAI (`growing`, the paper) or
 *                      R_T + R_HAI (`fixed`, ConnectX rpg_hai_rate and
 *                      ns-3);                     R_C <- (R_T + R_C) / 2
 * and R_T, R_C stay at most the line rate, R_C at least the minimum rate.
 * Both sets of constants are presets (nic.dcqcn.preset); every value can
 * be overridden.
 *
 * Timers. Alpha's timer is evaluated when alpha is read (the ticks since
 * the last one applied: the first with the period's CNP flag, the rest
 * decays): the same values as an event every K, without the events. The
 * QP's one timer (cc_timer_arm) serves the pending cut's tick and the
 * increase timer; the latter stops once R_C and R_T are back at the line
 * rate. On a QP with nothing to send the increase timer sleeps after its
 * expiry (dormant) and the expiries missed are applied, in order and with
 * the same values, when the QP next sends or gets a CNP: an idle QP costs
 * no events, and the rates it sends at are those of a timer that never
 * slept (the byte counter cannot advance while nothing is sent). */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_dcqcn.h"
#include "units.h"
#include "cc_util.h"
#include "cfg_schema.h"

struct cc_dcqcn {
	uint64_t rc_bps;        /* R_C: current rate */
	uint64_t rt_bps;        /* R_T: target rate */
	double alpha;           /* alpha as of alpha_ps */
	uint64_t alpha_ps;      /* time of the last alpha tick applied */
	uint64_t cut_origin_ps; /* the rate-reduce clock's start (the first CNP) */
	uint64_t cut_ps;        /* tick of the pending cut; 0: none pending */
	uint64_t incr_ps;       /* next increase timer expiry; 0: stopped */
	struct cc_bytecnt bc;   /* byte counter (B) */
	uint32_t t;             /* T: timer increase events since the last cut */
	uint32_t bcn;           /* BC: byte-counter increase events since the last cut */
	bool cnp_seen;          /* a CNP arrived (alpha and the clocks run) */
	bool cnp_in_period;     /* a CNP arrived in the current alpha period */
	bool increased;         /* an increase happened since the last cut */
	bool dormant;           /* the increase timer sleeps (idle QP); incr_ps is still
				 * the next expiry */
};

static const struct cc_dcqcn_cfg *cc_dcqcn_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

/* Bring alpha up to @now_ps: the alpha ticks at or before it, the first
 * with the current period's CNP flag, the others without a CNP. */
static double cc_dcqcn_alpha_at(struct cc_dcqcn *s, const struct cc_dcqcn_cfg *c, uint64_t now_ps)
{
	uint64_t n = cc_periods(s->alpha_ps, now_ps, c->alpha_period_ps);

	if (n == 0)
		return s->alpha;
	s->alpha = cc_ewma(s->alpha, s->cnp_in_period ? 1.0 : 0.0, c->g);
	s->alpha = cc_decay(s->alpha, c->g, n - 1);
	s->cnp_in_period = false;
	s->alpha_ps += n * c->alpha_period_ps;
	return s->alpha;
}

double cc_dcqcn_alpha(const struct cc_qp *q, uint64_t now_ps)
{
	struct cc_dcqcn s = *(const struct cc_dcqcn *)q->priv;

	return s.cnp_seen ? cc_dcqcn_alpha_at(&s, cc_dcqcn_cfg(q), now_ps) : 0.0;
}

uint64_t cc_dcqcn_target(const struct cc_qp *q)
{
	return ((const struct cc_dcqcn *)q->priv)->rt_bps;
}

static int cc_dcqcn_init(struct cc_qp *q)
{
	struct cc_dcqcn *s = q->priv;
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);

	if (!c || c->alpha_period_ps == 0 || c->timer_ps == 0 || q->line_rate_bps == 0)
		return -EINVAL;
	s->rc_bps = s->rt_bps = q->line_rate_bps;
	s->bc.period_bytes = c->byte_counter_bytes;
	q->rate_bps = s->rc_bps;
	q->window_bytes = 0;
	return 0;
}

/* Rates into the QP's outputs; the timer at the earlier of the pending
 * cut's tick and the increase timer (unless it sleeps). */
static void cc_dcqcn_publish(struct cc_qp *q, struct cc_dcqcn *s)
{
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);
	uint64_t lo = c->min_rate_bps < q->line_rate_bps ? c->min_rate_bps : q->line_rate_bps;
	uint64_t at;

	s->rt_bps = cc_clamp_u64(s->rt_bps, lo, q->line_rate_bps);
	s->rc_bps = cc_clamp_u64(s->rc_bps, lo, q->line_rate_bps);
	q->rate_bps = s->rc_bps;
	if (s->rc_bps == q->line_rate_bps && s->rt_bps == q->line_rate_bps) {
		/* Back at the line rate: nothing left to increase. */
		s->incr_ps = 0;
		s->bc.bytes = 0;
		s->dormant = false;
	}
	at = s->dormant ? 0 : s->incr_ps;
	if (s->cut_ps && (!at || s->cut_ps < at))
		at = s->cut_ps;
	cc_timer_arm(q, at);
}

/* The cut, at @now_ps (a CNP's arrival, or the tick of a pending cut). */
static void cc_dcqcn_cut(struct cc_qp *q, struct cc_dcqcn *s, uint64_t now_ps)
{
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);
	double alpha = cc_dcqcn_alpha_at(s, c, now_ps);
	uint64_t old = s->rc_bps;

	if (c->clamp_target || s->increased)
		s->rt_bps = s->rc_bps;
	s->rc_bps = cc_rate_scale(s->rc_bps, 1.0 - alpha / 2.0);
	s->t = s->bcn = 0;
	s->bc.bytes = 0;
	s->increased = false;
	s->dormant = false;
	s->incr_ps = now_ps + c->timer_ps;
	cc_dcqcn_publish(q, s);
	if (q->rate_bps < old)
		q->stats.rate_cuts++;
}

static void cc_dcqcn_wake(struct cc_qp *q, struct cc_dcqcn *s, uint64_t now_ps);

static void cc_dcqcn_on_cnp(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_dcqcn *s = q->priv;
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);

	cc_dcqcn_wake(q, s, now_ps);
	if (!s->cnp_seen) {
		/* The first CNP starts alpha at alpha_init and the clocks; it
		 * is not a CNP of the first alpha period. */
		s->cnp_seen = true;
		s->alpha = c->alpha_init;
		s->alpha_ps = now_ps;
		s->cut_origin_ps = now_ps;
	} else {
		(void)cc_dcqcn_alpha_at(s, c, now_ps);
		s->cnp_in_period = true;
	}
	if (!c->reduce_period_ps) {
		cc_dcqcn_cut(q, s, now_ps);
		return;
	}
	if (!s->cut_ps) /* the next tick of the rate-reduce clock */
		s->cut_ps = s->cut_origin_ps +
			    (cc_periods(s->cut_origin_ps, now_ps, c->reduce_period_ps) + 1) *
				    c->reduce_period_ps;
	cc_dcqcn_publish(q, s);
}

/* One increase event (the timer's or the byte counter's), with T and BC as
 * they were before it. */
static void cc_dcqcn_increase(struct cc_qp *q, struct cc_dcqcn *s, uint32_t t, uint32_t bcn)
{
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);
	uint32_t hi = t, lo = t, f = c->threshold;
	uint64_t old = s->rc_bps;

	if (c->byte_counter_bytes) {
		hi = t > bcn ? t : bcn;
		lo = t < bcn ? t : bcn;
	}
	if (hi < f) {
		/* fast recovery: toward the rate before the cut */
	} else if (lo > f) {
		uint64_t i = c->hyper == CC_DCQCN_HYPER_GROWING ? lo - f : 1;

		s->rt_bps += i * c->rhai_bps; /* hyper increase */
	} else {
		s->rt_bps += c->rai_bps;      /* additive increase */
	}
	if (s->rt_bps > q->line_rate_bps)
		s->rt_bps = q->line_rate_bps;
	s->rc_bps = cc_rate_mid(s->rt_bps, s->rc_bps);
	s->increased = true;
	cc_dcqcn_publish(q, s);
	if (q->rate_bps > old)
		q->stats.rate_increases++;
}

/* The increase timer's expiry due at s->incr_ps. */
static void cc_dcqcn_expiry(struct cc_qp *q, struct cc_dcqcn *s)
{
	uint32_t t = s->t++;

	s->incr_ps += cc_dcqcn_cfg(q)->timer_ps;
	cc_dcqcn_increase(q, s, t, s->bcn);
}

/* The increase timer's expiries up to @now_ps that a dormant timer missed,
 * in order (each at its time: the next is Ti after it). */
static void cc_dcqcn_wake(struct cc_qp *q, struct cc_dcqcn *s, uint64_t now_ps)
{
	if (!s->dormant)
		return;
	s->dormant = false;
	while (s->incr_ps && s->incr_ps <= now_ps)
		cc_dcqcn_expiry(q, s);
	cc_dcqcn_publish(q, s);
}

static void cc_dcqcn_on_timer(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_dcqcn *s = q->priv;

	q->stats.timer_events++;
	cc_dcqcn_wake(q, s, now_ps); /* a sleeping timer's expiries come before the cut */
	if (s->cut_ps && s->cut_ps <= now_ps) {
		s->cut_ps = 0;
		cc_dcqcn_cut(q, s, now_ps);
	}
	if (s->incr_ps && !s->dormant && s->incr_ps <= now_ps) {
		cc_dcqcn_expiry(q, s);
		/* Idle: sleep until the QP sends again (cc_dcqcn_wake). */
		s->dormant = !q->backlogged && s->incr_ps;
	}
	cc_dcqcn_publish(q, s);
}

static void cc_dcqcn_on_send(struct cc_qp *q, uint32_t bytes, uint64_t now_ps)
{
	struct cc_dcqcn *s = q->priv;
	uint32_t k;

	cc_dcqcn_wake(q, s, now_ps);
	if (!s->incr_ps)
		return; /* at the line rate: the byte counter has nothing to do */
	for (k = cc_bytecnt_add(&s->bc, bytes); k > 0 && s->incr_ps; k--) {
		uint32_t bcn = s->bcn++;

		cc_dcqcn_increase(q, s, s->t, bcn);
	}
}

/* ---- settings: nic.dcqcn.* ---- */

#define CC_DCQCN_OFF(f) offsetof(struct cc_dcqcn_cfg, f)

static const char *const cc_dcqcn_preset_names[] = { "connectx", "paper", NULL };
static const char *const cc_dcqcn_hyper_names[] = { "fixed", "growing", NULL };

#define CC_DCQCN_MBPS UINT64_C(1000000) /* the presets' rates are in Mb/s */

/* A preset's value of every key it sets (as the table reads them). */
struct cc_dcqcn_preset_vals {
	double g, alpha_init;
	uint64_t alpha_period_ps, reduce_period_ps, timer_ps, byte_counter_bytes;
	uint32_t threshold;
	uint64_t rai_bps, rhai_bps, min_rate_bps;
	bool clamp_target;
	int hyper;
};

static const struct cc_dcqcn_preset_vals cc_dcqcn_presets[] = {
	/* ConnectX firmware defaults (NVIDIA, "DCQCN Parameters"): dce_tcp_g
	 * 1019 (g = 5/1024), dce_tcp_rtt 1 us, initial_alpha_value 1023,
	 * rate_reduce_monitor_period 4 us, rpg_time_reset 300 us,
	 * rpg_byte_reset 32767 B, rpg_threshold 1, rpg_ai_rate 5 Mb/s,
	 * rpg_hai_rate 50 Mb/s (the step of every hyper increase), rpg_min_rate
	 * 1 Mb/s, clamp_tgt_rate 0. */
	[CC_DCQCN_CONNECTX] = {
		.g = 5.0 / 1024,
		.alpha_init = 1023.0 / 1024,
		.alpha_period_ps = 1 * UNITS_PS_PER_US,
		.reduce_period_ps = 4 * UNITS_PS_PER_US,
		.timer_ps = 300 * UNITS_PS_PER_US,
		.byte_counter_bytes = 32767,
		.threshold = 1,
		.rai_bps = 5 * CC_DCQCN_MBPS,
		.rhai_bps = 50 * CC_DCQCN_MBPS,
		.min_rate_bps = 1 * CC_DCQCN_MBPS,
		.clamp_target = false,
		.hyper = CC_DCQCN_HYPER_FIXED,
	},
	/* Zhu et al. 2015 as the authors' ns-3 (github.com/bobzhuyb/ns3-rdma)
	 * runs it: g 1/256, K 55 us, alpha 1, a cut per CNP, T 55 us, B 10 MB,
	 * F 5, R_AI 40 Mb/s, R_HAI 200 Mb/s (i R_HAI in the i-th hyper step),
	 * min rate 100 Mb/s, clamp on. */
	[CC_DCQCN_PAPER] = {
		.g = 1.0 / 256,
		.alpha_init = 1.0,
		.alpha_period_ps = 55 * UNITS_PS_PER_US,
		.reduce_period_ps = 0,
		.timer_ps = 55 * UNITS_PS_PER_US,
		.byte_counter_bytes = 10000000,
		.threshold = 5,
		.rai_bps = 40 * CC_DCQCN_MBPS,
		.rhai_bps = 200 * CC_DCQCN_MBPS,
		.min_rate_bps = 100 * CC_DCQCN_MBPS,
		.clamp_target = true,
		.hyper = CC_DCQCN_HYPER_GROWING,
	},
};

static const struct cfg_key cc_dcqcn_keys[] = {
	{ "preset", CFG_KEY_ENUM, "connectx", .off = CC_DCQCN_OFF(preset),
	  .names = cc_dcqcn_preset_names,
	  .doc = "defaults of the unset keys: connectx (firmware) or paper (Zhu et al. 2015)" },
	{ "g", CFG_KEY_FRACTION, NULL, .off = CC_DCQCN_OFF(g), .lo = 0, .hi = 1,
	  .doc = "alpha's gain g; absent: the preset's (5/1024 or 1/256)" },
	{ "alpha_period", CFG_KEY_TIME, NULL, .off = CC_DCQCN_OFF(alpha_period_ps),
	  .doc = "alpha period K: once per K alpha gains g if a CNP came in it, else decays; absent: the preset's (1us or 55us)" },
	{ "alpha_init", CFG_KEY_FRACTION, NULL, .off = CC_DCQCN_OFF(alpha_init), .lo = 0, .hi = 1,
	  .doc = "alpha on the first CNP; absent: the preset's (1023/1024 or 1)" },
	{ "reduce_period", CFG_KEY_TIME, NULL, .off = CC_DCQCN_OFF(reduce_period_ps),
	  .doc = "rate-reduce period: a CNP's cut waits for this clock's next tick (one cut per period), 0: every CNP cuts at once; absent: the preset's (4us or 0)" },
	{ "timer", CFG_KEY_TIME, NULL, .off = CC_DCQCN_OFF(timer_ps),
	  .doc = "rate increase timer T; absent: the preset's (300us or 55us)" },
	{ "byte_counter", CFG_KEY_SIZE, NULL, .off = CC_DCQCN_OFF(byte_counter_bytes), .size = 8,
	  .max = UINT64_C(1) << 40, .doc = "rate increase every B bytes sent, 0: off; absent: the preset's (32767B or 10MB)" },
	{ "threshold", CFG_KEY_UINT, NULL, .off = CC_DCQCN_OFF(threshold), .size = 4,
	  .max = 1000, .doc = "F: increase events of fast recovery after a cut, 0: none; absent: the preset's (1 or 5)" },
	{ "rai", CFG_KEY_RATE, NULL, .off = CC_DCQCN_OFF(rai_bps),
	  .doc = "additive increase step R_AI; absent: the preset's (5Mbps or 40Mbps)" },
	{ "rhai", CFG_KEY_RATE, NULL, .off = CC_DCQCN_OFF(rhai_bps),
	  .doc = "hyper increase step R_HAI; absent: the preset's (50Mbps or 200Mbps)" },
	{ "hyper", CFG_KEY_ENUM, NULL, .off = CC_DCQCN_OFF(hyper), .names = cc_dcqcn_hyper_names,
	  .doc = "hyper increase step: fixed (R_HAI each time) or growing (i R_HAI in the i-th); absent: the preset's (fixed or growing)" },
	{ "min_rate", CFG_KEY_RATE, NULL, .off = CC_DCQCN_OFF(min_rate_bps), .min = 1,
	  .doc = "lowest rate; absent: the preset's (1Mbps or 100Mbps)" },
	{ "clamp_target", CFG_KEY_BOOL, NULL, .off = CC_DCQCN_OFF(clamp_target),
	  .doc = "every cut sets R_T to R_C (else only after an increase); absent: the preset's (false or true)" },
};

/* The keys left unset take the preset's values. */
static int cc_dcqcn_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct cc_dcqcn_cfg *c = params;
	const struct cc_dcqcn_preset_vals *p = &cc_dcqcn_presets[c->preset];

#define CC_DCQCN_DFLT(key, field)                 \
	do {                                      \
		if (!cfg_get(map, key))           \
			c->field = p->field;      \
	} while (0)
	CC_DCQCN_DFLT("g", g);
	CC_DCQCN_DFLT("alpha_period", alpha_period_ps);
	CC_DCQCN_DFLT("alpha_init", alpha_init);
	CC_DCQCN_DFLT("reduce_period", reduce_period_ps);
	CC_DCQCN_DFLT("timer", timer_ps);
	CC_DCQCN_DFLT("byte_counter", byte_counter_bytes);
	CC_DCQCN_DFLT("threshold", threshold);
	CC_DCQCN_DFLT("rai", rai_bps);
	CC_DCQCN_DFLT("rhai", rhai_bps);
	CC_DCQCN_DFLT("min_rate", min_rate_bps);
	CC_DCQCN_DFLT("clamp_target", clamp_target);
	CC_DCQCN_DFLT("hyper", hyper);
#undef CC_DCQCN_DFLT
	if (c->alpha_period_ps == 0 || c->timer_ps == 0) {
		cfg_errorf(err, cfg_get(map, c->timer_ps ? "alpha_period" : "timer"),
			   "must be above 0");
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_table cc_dcqcn_cfg_table = {
	.section = "nic.dcqcn",
	.keys = cc_dcqcn_keys,
	.n_keys = sizeof(cc_dcqcn_keys) / sizeof(cc_dcqcn_keys[0]),
	.check = cc_dcqcn_check,
	.ordered = true,
};

const struct cc_ops cc_dcqcn_ops = {
	.kind = { .name = "dcqcn", .doc = "DCQCN reaction point",
		  .settings = &cc_dcqcn_cfg_table, .settings_size = sizeof(struct cc_dcqcn_cfg) },
	.priv_size = sizeof(struct cc_dcqcn),
	.flags = CC_F_ECN,
	.init = cc_dcqcn_init,
	.on_send = cc_dcqcn_on_send,
	.on_cnp = cc_dcqcn_on_cnp,
	.on_timer = cc_dcqcn_on_timer,
};
