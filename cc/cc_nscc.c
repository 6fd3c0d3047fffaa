/* NSCC: the Ultra Ethernet Transport's sender-based congestion control
 * (UEC specification 1.0, the network-signal based algorithm), a window
 * driven by ECN marks and queueing delay together. The rules and numbers
 * are those of the UEC's reference simulator, uet-htsim (commit 40ccb05,
 * htsim/sim/uec.cpp: initNsccParams, updateCwndOnAck_NSCC, quick adapt,
 * updateCwndOnNack_NSCC), written here in our own terms.
 *
 * Per ACK: the queueing delay is the packet's RTT less the base RTT (the
 * smallest RTT seen, at most the path's unloaded RTT), the mark the ACK's
 * ECN echo. Four cases:
 *   unmarked, delay >= target: fair increase, inc += fi x acked;
 *   unmarked, delay < target:  proportional increase, inc += alpha x acked
 *                              x (target - delay); or, after a window of
 *                              ACKs below fast_delay, fast increase: cwnd
 *                              += fi_scale x acked at once;
 *   marked, delay >= target:   multiplicative decrease, at most once per
 *                              base RTT and only when the average delay is
 *                              above the target: cwnd x= max(1 - gamma
 *                              (avg - target) / avg, 1/2);
 *   marked, delay < target:    no change.
 * Increases are applied together ("fulfil"): after 8 MTUs acknowledged or
 * a base RTT, cwnd += inc / cwnd; and once per base RTT cwnd += eta. The
 * average delay is an EWMA of the samples, in which an unmarked sample
 * above the target counts as base RTT / 4 (delay without a mark is not
 * trusted). Quick adapt: at the end of each window of base RTT + target,
 * if a NACK came (a trimmed packet) or the delay passed 4 x target, and
 * less than an eighth of the largest window was acknowledged in it, cwnd
 * falls to what was acknowledged (at least an MTU), and marked ACKs are
 * ignored until what was in flight then is acknowledged. A NACK that does
 * not set quick adapt off takes an MTU off the window, as a timeout does.
 *
 * Scale: the constants are the reference simulator's for 100 Gb/s x 12 us
 * (BDP 150,000 B, target 12 us), scaled by a = BDP / 150,000 B and b =
 * target / 12 us: alpha = 4 MTU a b / target, fi = 5 MTU a, eta = 0.15
 * MTU a, fi_scale = 0.25 a. The window lies within [MTU, max_window_bdp x
 * BDP] and starts at its largest (RDMA starts at the line rate). */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_nscc.h"
#include "cc_rccc.h"
#include "cc_util.h"
#include "cfg_schema.h"
#include "units.h"

enum {
	CC_NSCC_REF_BDP_BYTES = 150000,   /* 100 Gb/s x 12 us */
	CC_NSCC_ADJUST_MTUS = 8,          /* fulfil after this many MTUs acknowledged */
};
#define CC_NSCC_REF_TARGET_PS 12e6        /* 12 us */

struct cc_nscc {
	double cwnd;              /* window, bytes */
	double maxwnd;            /* its top, bytes */
	double mtu;               /* payload bytes per packet */
	uint64_t base_rtt_ps;     /* the least RTT: the path's unloaded RTT, or less seen */
	double target_ps;         /* queueing delay target */
	double alpha;             /* proportional increase, per byte per ps */
	double fi;                /* fair increase, bytes */
	double eta;               /* increase per base RTT, bytes */
	double fi_scale;          /* fast increase per byte acknowledged */
	double inc;               /* increases not yet applied, bytes^2 */
	double avg_delay_ps;      /* EWMA of the queueing delay */
	double delay_ps;          /* the latest sample */
	uint64_t since_adjust;    /* bytes acknowledged since the last fulfil */
	uint64_t last_adjust_ps;  /* time of the last fulfil */
	uint64_t last_eta_ps;     /* time eta was last added */
	uint64_t last_md_ps;      /* time of the last multiplicative decrease */
	bool md_seen;             /* one happened */
	uint64_t fast_bytes;      /* acknowledged at a delay below fast_delay, in a row */
	bool fast;                /* fast increase on */
	uint64_t qa_end_ps;       /* end of the quick-adapt window */
	uint64_t achieved;        /* bytes acknowledged in it */
	bool qa_trigger;          /* a NACK came in it */
	uint64_t ignore_bytes;    /* after quick adapt: marked ACKs ignored for these */
	uint64_t inflight;        /* bytes in flight at the last ACK */
};

static const struct cc_nscc_cfg *cc_nscc_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

double cc_nscc_cwnd(const struct cc_qp *q)
{
	return ((const struct cc_nscc *)q->priv)->cwnd;
}

uint64_t cc_nscc_target(const struct cc_qp *q)
{
	return (uint64_t)((const struct cc_nscc *)q->priv)->target_ps;
}

double cc_nscc_avg_delay(const struct cc_qp *q)
{
	return ((const struct cc_nscc *)q->priv)->avg_delay_ps;
}

/* The BDP at base RTT @rtt_ps and the largest window. */
static void cc_nscc_bdp(const struct cc_qp *q, struct cc_nscc *s, uint64_t rtt_ps)
{
	double bdp = (double)q->line_rate_bps * (double)rtt_ps / 8.0 / (double)UNITS_PS_PER_S;

	s->base_rtt_ps = rtt_ps;
	s->maxwnd = cc_nscc_cfg(q)->max_window_bdp * bdp;
	if (s->maxwnd < s->mtu)
		s->maxwnd = s->mtu;
}

/* Clamp the window and write it (the rate stays the line rate). */
static void cc_nscc_publish(struct cc_qp *q, struct cc_nscc *s)
{
	uint64_t old = q->window_bytes;

	if (s->cwnd < s->mtu)
		s->cwnd = s->mtu;
	if (s->cwnd > s->maxwnd)
		s->cwnd = s->maxwnd;
	q->window_bytes = (uint64_t)s->cwnd;
	if (q->window_bytes < old)
		q->stats.window_cuts++;
	else if (q->window_bytes > old)
		q->stats.window_increases++;
}

static int cc_nscc_init(struct cc_qp *q)
{
	struct cc_nscc *s = q->priv;
	const struct cc_nscc_cfg *c = cc_nscc_cfg(q);
	double bdp, a, b;
	uint64_t rtt;

	if (!c || q->mtu_bytes == 0 || q->line_rate_bps == 0 || q->base_rtt_ps == 0)
		return -EINVAL;
	s->mtu = q->mtu_bytes;
	rtt = cc_uet_unloaded_rtt_ps(q);
	cc_nscc_bdp(q, s, rtt);
	bdp = (double)q->line_rate_bps * (double)rtt / 8.0 / (double)UNITS_PS_PER_S;
	s->target_ps = c->target_delay_ps ? (double)c->target_delay_ps
					  : c->target_factor * (double)rtt;
	if (s->target_ps < 1)
		s->target_ps = 1;
	a = bdp / CC_NSCC_REF_BDP_BYTES;
	b = s->target_ps / CC_NSCC_REF_TARGET_PS;
	s->alpha = 4.0 * s->mtu * a * b / s->target_ps;
	s->fi = 5.0 * s->mtu * a;
	s->eta = 0.15 * s->mtu * a;
	s->fi_scale = 0.25 * a;
	s->cwnd = s->maxwnd;
	q->rate_bps = q->line_rate_bps;
	q->window_bytes = 0;
	cc_nscc_publish(q, s);
	q->stats.window_increases = 0; /* the first window is no increase */
	return 0;
}

/* A delay sample into the average (unmarked and above the target: not
 * trusted, counted as base RTT / 4). */
static void cc_nscc_avg(const struct cc_qp *q, struct cc_nscc *s, double delay, bool marked)
{
	if (!marked && delay > s->target_ps)
		delay = (double)s->base_rtt_ps / 4.0;
	s->avg_delay_ps = cc_ewma(s->avg_delay_ps, delay, cc_nscc_cfg(q)->delay_ewma);
}

/* Quick adapt at the end of its window: returns whether it cut. */
static bool cc_nscc_quick_adapt(const struct cc_qp *q, struct cc_nscc *s, uint64_t now_ps)
{
	bool cut = false;

	if (now_ps < s->qa_end_ps)
		return false;
	if (cc_nscc_cfg(q)->quick_adapt && s->qa_end_ps &&
	    (s->qa_trigger || s->delay_ps > 4.0 * s->target_ps) &&
	    (double)s->achieved < s->maxwnd / 8.0) {
		s->cwnd = (double)s->achieved > s->mtu ? (double)s->achieved : s->mtu;
		s->ignore_bytes = s->inflight;
		cut = true;
	}
	s->qa_end_ps = now_ps + s->base_rtt_ps + (uint64_t)s->target_ps;
	s->achieved = 0;
	s->qa_trigger = false;
	return cut;
}

/* Apply the increases gathered: after 8 MTUs or a base RTT. */
static void cc_nscc_fulfil(struct cc_nscc *s, uint64_t acked, uint64_t now_ps)
{
	s->since_adjust += acked;
	if ((double)s->since_adjust > CC_NSCC_ADJUST_MTUS * s->mtu ||
	    now_ps - s->last_adjust_ps > s->base_rtt_ps) {
		s->cwnd += s->inc / s->cwnd;
		s->inc = 0;
		s->since_adjust = 0;
		s->last_adjust_ps = now_ps;
	}
	if (now_ps - s->last_eta_ps >= s->base_rtt_ps) {
		s->cwnd += s->eta;
		s->last_eta_ps = now_ps;
	}
}

/* The unmarked cases: fair increase above the target, fast or
 * proportional increase below it. */
static void cc_nscc_increase(const struct cc_qp *q, struct cc_nscc *s, double acked)
{
	double delay = s->delay_ps;

	if (delay >= s->target_ps) {
		s->fast = false;
		s->fast_bytes = 0;
		s->inc += s->fi * acked;
		return;
	}
	if (delay < (double)cc_nscc_cfg(q)->fast_delay_ps) {
		s->fast_bytes += (uint64_t)acked;
		if (s->fast || (double)s->fast_bytes > s->cwnd) {
			s->fast = true;
			s->cwnd += acked * s->fi_scale;
			return;
		}
	} else {
		s->fast = false;
		s->fast_bytes = 0;
	}
	s->inc += s->alpha * acked * (s->target_ps - delay);
}

static void cc_nscc_on_ack(struct cc_qp *q, const struct cc_ack *a, uint64_t now_ps)
{
	struct cc_nscc *s = q->priv;
	bool marked = a->ecn_echo;

	s->inflight = a->inflight_bytes;
	if (a->rtt_ps) {
		if (a->rtt_ps < s->base_rtt_ps)
			cc_nscc_bdp(q, s, a->rtt_ps);
		s->delay_ps = (double)(a->rtt_ps - s->base_rtt_ps);
		cc_nscc_avg(q, s, s->delay_ps, marked);
	}
	s->achieved += a->acked_bytes;
	if (s->ignore_bytes) {
		/* After quick adapt: what was in flight then says nothing new. */
		s->ignore_bytes = s->ignore_bytes > a->acked_bytes ? s->ignore_bytes - a->acked_bytes : 0;
		marked = false;
	}
	if (cc_nscc_quick_adapt(q, s, now_ps)) {
		cc_nscc_publish(q, s);
		return;
	}
	if (!marked) {
		cc_nscc_increase(q, s, (double)a->acked_bytes);
	} else if (s->delay_ps >= s->target_ps) {
		s->fast = false;
		s->fast_bytes = 0;
		if ((!s->md_seen || now_ps - s->last_md_ps >= s->base_rtt_ps) &&
		    s->avg_delay_ps > s->target_ps) {
			double f = 1.0 - cc_nscc_cfg(q)->gamma * (s->avg_delay_ps - s->target_ps) /
						 s->avg_delay_ps;

			s->cwnd *= f > 0.5 ? f : 0.5;
			s->last_md_ps = now_ps;
			s->md_seen = true;
		}
	}
	cc_nscc_fulfil(s, a->acked_bytes, now_ps);
	cc_nscc_publish(q, s);
}

/* A NACK (a trimmed packet): the delay counts as a marked base RTT, quick
 * adapt is asked for; when it does not cut, an MTU comes off, unless
 * receiver credit runs too (nscc+rccc) and the packet was trimmed on its
 * last hop, which the receiver's credit governs (the specification leaves
 * DSCP_TRIMMED_LASTHOP out of NSCC's signal then; uet-htsim's
 * updateCwndOnNack_NSCC likewise). */
static void cc_nscc_on_nak(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_nscc *s = q->priv;

	cc_nscc_avg(q, s, (double)s->base_rtt_ps, true);
	s->qa_trigger = true;
	if (!cc_nscc_quick_adapt(q, s, now_ps) &&
	    !(q->nak_last_hop && (q->ops->flags & CC_F_CREDIT)))
		s->cwnd -= s->mtu;
	cc_nscc_publish(q, s);
}

static void cc_nscc_on_timeout(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_nscc *s = q->priv;

	(void)now_ps;
	s->cwnd -= s->mtu;
	cc_nscc_publish(q, s);
}

/* ---- settings: nic.nscc.* ---- */

#define CC_NSCC_OFF(f) offsetof(struct cc_nscc_cfg, f)

static const struct cfg_key cc_nscc_keys[] = {
	{ "target_delay", CFG_KEY_TIME, "0us", .off = CC_NSCC_OFF(target_delay_ps),
	  .doc = "queueing delay target; 0us: target_factor x the QP's base RTT" },
	{ "target_factor", CFG_KEY_DOUBLE, "0.75", .off = CC_NSCC_OFF(target_factor), .lo = 0.01,
	  .hi = 100, .doc = "the target as a fraction of the base RTT (0.75: the reference simulator's with trimming, 1 without)" },
	{ "max_window", CFG_KEY_DOUBLE, "1.5", .off = CC_NSCC_OFF(max_window_bdp), .lo = 0.01,
	  .hi = 1000, .doc = "the largest window, which is also the first, in bandwidth-delay products" },
	{ "gamma", CFG_KEY_FRACTION, "0.8", .off = CC_NSCC_OFF(gamma), .lo = 0, .hi = 1,
	  .doc = "multiplicative decrease: cwnd x max(1 - gamma (avg - target) / avg, 1/2)" },
	{ "delay_ewma", CFG_KEY_FRACTION, "0.0125", .off = CC_NSCC_OFF(delay_ewma), .lo = 0, .hi = 1,
	  .doc = "weight of a sample in the average queueing delay" },
	{ "fast_delay", CFG_KEY_TIME, "1us", .off = CC_NSCC_OFF(fast_delay_ps),
	  .doc = "a window of ACKs below this delay turns fast increase on" },
	{ "quick_adapt", CFG_KEY_BOOL, "true", .off = CC_NSCC_OFF(quick_adapt),
	  .doc = "cut to what was delivered after a window with NACKs or a delay over 4 x target" },
};

static const struct cfg_table cc_nscc_cfg_table = {
	.section = "nic.nscc",
	.keys = cc_nscc_keys,
	.n_keys = sizeof(cc_nscc_keys) / sizeof(cc_nscc_keys[0]),
	.ordered = true,
};

/* Quick adapt's threshold, 4 x target, when the target is given. */
static uint64_t cc_nscc_delay_ceiling(const void *cfg)
{
	const struct cc_nscc_cfg *c = cfg;

	return 4 * c->target_delay_ps;
}

const struct cc_ops cc_nscc_ops = {
	.kind = { .name = "nscc", .doc = "UET NSCC window (ECN and delay)",
		  .settings = &cc_nscc_cfg_table, .settings_size = sizeof(struct cc_nscc_cfg) },
	.priv_size = sizeof(struct cc_nscc),
	.flags = CC_F_ECN | CC_F_ECN_ECHO,
	.init = cc_nscc_init,
	.on_ack = cc_nscc_on_ack,
	.on_nak = cc_nscc_on_nak,
	.on_timeout = cc_nscc_on_timeout,
	.delay_ceiling_ps = cc_nscc_delay_ceiling,
};

/* NSCC's window and RCCC's credit on one connection (the UEC
 * specification runs both where both are enabled; uet-htsim's -sender_cc
 * with -receiver_cc): a packet goes when the window and the credit both
 * let it, the credit target asks for no more than the window and a
 * packet, and a trim on the last hop takes nothing off the window. NSCC's
 * settings are nic.nscc's, the credit's nic.rccc's. */
const struct cc_ops cc_nscc_rccc_ops = {
	.kind = { .name = "nscc+rccc",
		  .doc = "UET NSCC's window and RCCC's receiver credit together (link_layer: uet)" },
	.priv_size = sizeof(struct cc_nscc),
	.flags = CC_F_ECN | CC_F_ECN_ECHO | CC_F_CREDIT,
	.init = cc_nscc_init,
	.on_ack = cc_nscc_on_ack,
	.on_nak = cc_nscc_on_nak,
	.on_timeout = cc_nscc_on_timeout,
	.delay_ceiling_ps = cc_nscc_delay_ceiling,
	.settings_of = &cc_nscc_ops,
};
