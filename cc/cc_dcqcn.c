/* DCQCN's reaction point: the sender's rate control of Zhu et al.,
 * "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015
 * (DCQCN). The congestion point (RED-style ECN marking) is in switch/, the
 * notification point (a CNP per QP at most every N when CE-marked data
 * arrives) in nic/nic_rx.c; this file reacts to the CNPs.
 *
 * State, with the paper's names: the current rate R_C, the target rate R_T,
 * alpha (the estimate of how congested the path is), and the counts T and
 * BC of rate-increase events of the timer and of the byte counter since the
 * last cut.
 *
 * A CNP cuts the rate: R_T <- R_C, R_C <- R_C (1 - alpha / 2), then alpha
 * <- (1 - g) alpha + g, and T, BC, the increase timer and the alpha timer
 * restart. The alpha timer: every K with no CNP, alpha <- (1 - g) alpha.
 * An increase event is the increase timer's expiry (every T_i) or B bytes
 * sent; after it, with F the fast-recovery threshold:
 *   fast recovery, max(T, BC) < F:  R_C <- (R_T + R_C) / 2
 *   hyper increase, min(T, BC) > F: R_T <- R_T + i R_HAI, i = min(T, BC) - F;
 *                                   R_C <- (R_T + R_C) / 2
 *   additive increase, otherwise:   R_T <- R_T + R_AI; R_C <- (R_T + R_C) / 2
 * and R_T, R_C stay at most the line rate, R_C at least the minimum rate.
 *
 * ConnectX firmware (NVIDIA, "DCQCN Parameters": rpg_*, dce_tcp_* and
 * rate_reduce_monitor_period) runs the same machine with other constants:
 * alpha starts at initial_alpha_value on the first CNP, g = (1024 -
 * dce_tcp_g) / 1024 every dce_tcp_rtt, at most one cut per
 * rate_reduce_monitor_period, and R_T is reset on a cut only after an
 * increase (clamp_tgt_rate 0). Both sets are presets (nic.dcqcn.preset);
 * every value can be overridden.
 *
 * Timers. Alpha's timer is evaluated when alpha is read (the number of
 * whole periods K since the last CNP, each a multiplication by 1 - g):
 * the same values as an event every K, without the events. The increase
 * timer is the QP's one timer (cc_timer_arm); it stops once R_C and R_T are
 * back at the line rate. On a QP with nothing to send it sleeps after its
 * expiry (dormant) and the expiries missed are applied, in order and with
 * the same values, when the QP next sends or gets a CNP: an idle QP costs
 * no events, and the rates it sends at are those of a timer that never
 * slept (the byte counter cannot advance while nothing is sent). */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_util.h"
#include "cfg_schema.h"

struct cc_dcqcn {
	uint64_t rc_bps;        /* R_C: current rate */
	uint64_t rt_bps;        /* R_T: target rate */
	double alpha;           /* alpha as of alpha_ps */
	uint64_t alpha_ps;      /* start of the current alpha timer period */
	uint64_t cut_ps;        /* time of the last cut */
	uint64_t incr_ps;       /* next increase timer expiry; 0: stopped */
	struct cc_bytecnt bc;   /* byte counter (B) */
	uint32_t t;             /* T: timer increase events since the last cut */
	uint32_t bcn;           /* BC: byte-counter increase events since the last cut */
	bool cnp_seen;          /* a CNP arrived (alpha and cut_ps are valid) */
	bool increased;         /* an increase happened since the last cut */
	bool dormant;           /* the increase timer sleeps (idle QP); incr_ps is still
				 * the next expiry */
};

static const struct cc_dcqcn_cfg *cc_dcqcn_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

/* Bring alpha up to @now_ps: one decay per whole alpha period elapsed. */
static double cc_dcqcn_alpha_at(struct cc_dcqcn *s, const struct cc_dcqcn_cfg *c, uint64_t now_ps)
{
	uint64_t n = cc_periods(s->alpha_ps, now_ps, c->alpha_period_ps);

	s->alpha = cc_decay(s->alpha, c->g, n);
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

static void cc_dcqcn_publish(struct cc_qp *q, struct cc_dcqcn *s)
{
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);
	uint64_t lo = c->min_rate_bps < q->line_rate_bps ? c->min_rate_bps : q->line_rate_bps;

	s->rt_bps = cc_clamp_u64(s->rt_bps, lo, q->line_rate_bps);
	s->rc_bps = cc_clamp_u64(s->rc_bps, lo, q->line_rate_bps);
	q->rate_bps = s->rc_bps;
	if (s->rc_bps == q->line_rate_bps && s->rt_bps == q->line_rate_bps) {
		/* Back at the line rate: nothing left to increase. */
		s->incr_ps = 0;
		s->bc.bytes = 0;
		s->dormant = false;
		cc_timer_arm(q, 0);
	} else {
		cc_timer_arm(q, s->dormant ? 0 : s->incr_ps);
	}
}

static void cc_dcqcn_wake(struct cc_qp *q, struct cc_dcqcn *s, uint64_t now_ps);

static void cc_dcqcn_on_cnp(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_dcqcn *s = q->priv;
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);
	uint64_t old;
	double alpha;

	cc_dcqcn_wake(q, s, now_ps);
	old = s->rc_bps;
	if (!s->cnp_seen) {
		s->cnp_seen = true;
		s->alpha = c->alpha_init;
		s->alpha_ps = now_ps;
	} else if (c->reduce_period_ps && now_ps - s->cut_ps < c->reduce_period_ps) {
		/* One cut per rate_reduce_monitor_period; alpha still counts it. */
		s->alpha = cc_ewma(cc_dcqcn_alpha_at(s, c, now_ps), 1.0, c->g);
		s->alpha_ps = now_ps;
		return;
	}
	alpha = cc_dcqcn_alpha_at(s, c, now_ps);
	if (c->clamp_target || s->increased)
		s->rt_bps = s->rc_bps;
	s->rc_bps = cc_rate_scale(s->rc_bps, 1.0 - alpha / 2.0);
	s->alpha = cc_ewma(alpha, 1.0, c->g);
	s->alpha_ps = now_ps; /* the alpha timer restarts */
	s->cut_ps = now_ps;
	s->t = s->bcn = 0;
	s->bc.bytes = 0;
	s->increased = false;
	s->incr_ps = now_ps + c->timer_ps;
	cc_dcqcn_publish(q, s);
	if (q->rate_bps < old)
		q->stats.rate_cuts++;
}

/* One increase event (the timer's or the byte counter's). */
static void cc_dcqcn_increase(struct cc_qp *q, struct cc_dcqcn *s)
{
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);
	uint32_t hi = s->t > s->bcn ? s->t : s->bcn, lo = s->t < s->bcn ? s->t : s->bcn;
	uint64_t old = s->rc_bps;

	if (hi < c->threshold) {
		/* fast recovery: toward the rate before the cut */
	} else if (lo > c->threshold) {
		uint64_t i = lo - c->threshold;

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

/* The increase timer's expiries up to @now_ps that a dormant timer missed,
 * in order (each at its time: the next is Ti after it). */
static void cc_dcqcn_wake(struct cc_qp *q, struct cc_dcqcn *s, uint64_t now_ps)
{
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);

	if (!s->dormant)
		return;
	s->dormant = false;
	while (s->incr_ps && s->incr_ps <= now_ps) {
		s->t++;
		s->incr_ps += c->timer_ps;
		cc_dcqcn_increase(q, s);
	}
	cc_dcqcn_publish(q, s);
}

static void cc_dcqcn_on_timer(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_dcqcn *s = q->priv;
	const struct cc_dcqcn_cfg *c = cc_dcqcn_cfg(q);

	q->stats.timer_events++;
	if (!s->incr_ps || now_ps < s->incr_ps) {
		cc_dcqcn_publish(q, s);
		return;
	}
	s->t++;
	s->incr_ps = now_ps + c->timer_ps;
	s->dormant = !q->backlogged;
	cc_dcqcn_increase(q, s);
}

static void cc_dcqcn_on_send(struct cc_qp *q, uint32_t bytes, uint64_t now_ps)
{
	struct cc_dcqcn *s = q->priv;
	uint32_t k;

	cc_dcqcn_wake(q, s, now_ps);
	if (!s->incr_ps)
		return; /* at the line rate: the byte counter has nothing to do */
	for (k = cc_bytecnt_add(&s->bc, bytes); k > 0 && s->incr_ps; k--) {
		s->bcn++;
		cc_dcqcn_increase(q, s);
	}
}

/* ---- settings: nic.dcqcn.* ---- */

#define CC_DCQCN_OFF(f) offsetof(struct cc_dcqcn_cfg, f)

static const char *const cc_dcqcn_preset_names[] = { "connectx", "paper", NULL };

/* A preset's value of every key it sets (as the table reads them). */
struct cc_dcqcn_preset_vals {
	double g, alpha_init;
	uint64_t alpha_period_ps, reduce_period_ps, timer_ps, byte_counter_bytes;
	uint32_t threshold;
	uint64_t rai_bps, rhai_bps, min_rate_bps;
	bool clamp_target;
};

static const struct cc_dcqcn_preset_vals cc_dcqcn_presets[] = {
	/* ConnectX firmware defaults (NVIDIA, "DCQCN Parameters"): dce_tcp_g
	 * 1019 (g = 5/1024), dce_tcp_rtt 1 us, initial_alpha_value 1023,
	 * rate_reduce_monitor_period 4 us, rpg_time_reset 300 us,
	 * rpg_byte_reset 32767 B, rpg_threshold 1, rpg_ai_rate 5 Mb/s,
	 * rpg_hai_rate 50 Mb/s, rpg_min_rate 1 Mb/s, clamp_tgt_rate 0. */
	[CC_DCQCN_CONNECTX] = { 5.0 / 1024, 1023.0 / 1024, 1000000, 4000000, 300000000, 32767, 1,
				5000000, 50000000, 1000000, false },
	/* Zhu et al. 2015 as the authors' ns-3 (github.com/bobzhuyb/ns3-rdma)
	 * runs it: g 1/256, K 55 us, alpha 1, a cut per CNP, T 55 us, B 10 MB,
	 * F 5, R_AI 40 Mb/s, R_HAI 200 Mb/s, min rate 100 Mb/s, clamp on. */
	[CC_DCQCN_PAPER] = { 1.0 / 256, 1.0, 55000000, 0, 55000000, 10000000, 5, 40000000,
			     200000000, 100000000, true },
};

static const struct cfg_key cc_dcqcn_keys[] = {
	{ "preset", CFG_KEY_ENUM, "connectx", .off = CC_DCQCN_OFF(preset),
	  .names = cc_dcqcn_preset_names,
	  .doc = "defaults of the unset keys: connectx (firmware) or paper (Zhu et al. 2015)" },
	{ "g", CFG_KEY_FRACTION, NULL, .off = CC_DCQCN_OFF(g), .lo = 0, .hi = 1,
	  .doc = "alpha's gain g; absent: the preset's (5/1024 or 1/256)" },
	{ "alpha_period", CFG_KEY_TIME, NULL, .off = CC_DCQCN_OFF(alpha_period_ps),
	  .doc = "alpha timer K; absent: the preset's (1us or 55us)" },
	{ "alpha_init", CFG_KEY_FRACTION, NULL, .off = CC_DCQCN_OFF(alpha_init), .lo = 0, .hi = 1,
	  .doc = "alpha on the first CNP; absent: the preset's (1023/1024 or 1)" },
	{ "reduce_period", CFG_KEY_TIME, NULL, .off = CC_DCQCN_OFF(reduce_period_ps),
	  .doc = "at most one rate cut per this, 0: every CNP; absent: the preset's (4us or 0)" },
	{ "timer", CFG_KEY_TIME, NULL, .off = CC_DCQCN_OFF(timer_ps),
	  .doc = "rate increase timer T; absent: the preset's (300us or 55us)" },
	{ "byte_counter", CFG_KEY_SIZE, NULL, .off = CC_DCQCN_OFF(byte_counter_bytes), .size = 8,
	  .max = UINT64_C(1) << 40, .doc = "rate increase every B bytes sent, 0: off; absent: the preset's (32767B or 10MB)" },
	{ "threshold", CFG_KEY_UINT, NULL, .off = CC_DCQCN_OFF(threshold), .size = 4, .min = 1,
	  .max = 1000, .doc = "F: increase events of fast recovery; absent: the preset's (1 or 5)" },
	{ "rai", CFG_KEY_RATE, NULL, .off = CC_DCQCN_OFF(rai_bps),
	  .doc = "additive increase step R_AI; absent: the preset's (5Mbps or 40Mbps)" },
	{ "rhai", CFG_KEY_RATE, NULL, .off = CC_DCQCN_OFF(rhai_bps),
	  .doc = "hyper increase step R_HAI; absent: the preset's (50Mbps or 200Mbps)" },
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
#undef CC_DCQCN_DFLT
	if (c->alpha_period_ps == 0 || c->timer_ps == 0) {
		cfg_errorf(err, cfg_get(map, c->timer_ps ? "alpha_period" : "timer"),
			   "must be above 0");
		return -EINVAL;
	}
	return 0;
}

const struct cfg_table cc_dcqcn_cfg_table = {
	.section = "nic.dcqcn",
	.keys = cc_dcqcn_keys,
	.n_keys = sizeof(cc_dcqcn_keys) / sizeof(cc_dcqcn_keys[0]),
	.check = cc_dcqcn_check,
	.ordered = true,
};

const struct cc_ops cc_dcqcn_ops = {
	.name = "dcqcn",
	.priv_size = sizeof(struct cc_dcqcn),
	.flags = CC_F_ECN,
	.cfg_table = &cc_dcqcn_cfg_table,
	.cfg_size = sizeof(struct cc_dcqcn_cfg),
	.init = cc_dcqcn_init,
	.on_send = cc_dcqcn_on_send,
	.on_cnp = cc_dcqcn_on_cnp,
	.on_timer = cc_dcqcn_on_timer,
};
