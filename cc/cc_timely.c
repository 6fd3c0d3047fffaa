/* TIMELY: rate control on the RTT gradient, after Mittal et al., "TIMELY:
 * RTT-based Congestion Control for the Datacenter", SIGCOMM 2015, as the
 * HPCC authors' ns-3 simulator runs it for the HPCC paper (Li et al.,
 * SIGCOMM 2019; github.com/alibaba-edu/High-Precision-Congestion-Control,
 * RdmaHw::UpdateRateTimely and run.py).
 *
 * State, with the paper's names: the current rate R, rtt_diff (an EWMA of
 * the difference of successive RTT samples), the previous RTT, and the
 * count of consecutive increases (incStage in the simulator).
 *
 * Once per RTT (sequence-based, as the simulator: the first RTT sample
 * after the ACK passes the bytes that were sent at the last update):
 *   rtt_diff <- (1 - alpha) rtt_diff + alpha (rtt - prev_rtt)
 *   gradient  = rtt_diff / minRTT
 *   rtt < T_low:     increase
 *   rtt > T_high:    R <- R (1 - beta (1 - T_high / rtt))
 *   gradient <= 0:   increase
 *   otherwise:       R <- R (1 - beta gradient), the factor at least 0
 * where an increase is R <- R + delta (additive), or R + R_HAI once five
 * increases in a row came before (hyper increase; both regions count into
 * the run, the simulator's incStage). R stays within [min_rate, line
 * rate]; a decrease ends the run of increases. The first sample only
 * starts the RTT history, as in the simulator.
 *
 * RTT samples are those the NIC takes (one timed packet at a time, Karn's
 * rule); ACKs without a sample change nothing. TIMELY keeps no timer and
 * no window (the simulator's run.py "timely" has no window either). */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_timely.h"
#include "cc_util.h"
#include "cfg_schema.h"

enum {
	CC_TIMELY_HAI_AFTER = 5, /* increases in a row before hyper increase
				  * (the simulator's incStage < 5 test) */
};

struct cc_timely {
	double rate_bps;        /* R: current rate */
	double rtt_diff_ps;     /* rtt_diff: EWMA of successive RTT differences */
	uint64_t prev_rtt_ps;   /* RTT sample of the last update */
	uint64_t acked_total;   /* bytes acknowledged since start (the ACK sequence) */
	uint64_t update_seq;    /* next update once acked_total passes this */
	uint32_t inc_stage;     /* increases in a row since the last decrease */
	bool started;           /* the first sample was taken */
};

static const struct cc_timely_cfg *cc_timely_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

/* The additive and hyper increase steps: the settings', or per link rate
 * as the simulator's run.py sets them (10 bw / 10 Mb/s and 50 bw / 10 Mb/s
 * with bw in Gb/s: 100 and 500 Mb/s at 100 Gb/s). */
static uint64_t cc_timely_rai(const struct cc_qp *q)
{
	uint64_t r = cc_timely_cfg(q)->rai_bps;

	return r ? r : q->line_rate_bps / 1000;
}

static uint64_t cc_timely_rhai(const struct cc_qp *q)
{
	uint64_t r = cc_timely_cfg(q)->rhai_bps;

	return r ? r : q->line_rate_bps / 200;
}

static uint64_t cc_timely_min(const struct cc_qp *q)
{
	uint64_t m = cc_timely_cfg(q)->min_rate_bps;

	return m < q->line_rate_bps ? m : q->line_rate_bps;
}

double cc_timely_rtt_diff(const struct cc_qp *q)
{
	return ((const struct cc_timely *)q->priv)->rtt_diff_ps;
}

static int cc_timely_init(struct cc_qp *q)
{
	struct cc_timely *s = q->priv;
	const struct cc_timely_cfg *c = cc_timely_cfg(q);

	if (!c || q->line_rate_bps == 0 || c->min_rtt_ps == 0)
		return -EINVAL;
	s->rate_bps = (double)q->line_rate_bps;
	q->rate_bps = q->line_rate_bps;
	q->window_bytes = 0;
	return 0;
}

/* One update on the RTT sample @rtt_ps. */
static void cc_timely_update(struct cc_qp *q, struct cc_timely *s, uint64_t rtt_ps)
{
	const struct cc_timely_cfg *c = cc_timely_cfg(q);
	double diff = (double)rtt_ps - (double)s->prev_rtt_ps;
	double rtt_diff = cc_ewma(s->rtt_diff_ps, diff, c->alpha);
	double gradient = rtt_diff / (double)c->min_rtt_ps;
	double lo = (double)cc_timely_min(q), line = (double)q->line_rate_bps;
	double f = 1.0;
	bool inc;
	uint64_t old = q->rate_bps;

	if (rtt_ps < c->t_low_ps) {
		inc = true;
	} else if (rtt_ps > c->t_high_ps) {
		inc = false;
		f = 1.0 - c->beta * (1.0 - (double)c->t_high_ps / (double)rtt_ps);
	} else if (gradient <= 0) {
		inc = true;
	} else {
		inc = false;
		f = 1.0 - c->beta * gradient;
		if (f < 0)
			f = 0;
	}
	if (inc) {
		s->rate_bps += (double)(s->inc_stage < CC_TIMELY_HAI_AFTER ? cc_timely_rai(q)
									   : cc_timely_rhai(q));
		s->inc_stage++;
	} else {
		s->rate_bps *= f;
		s->inc_stage = 0;
	}
	if (s->rate_bps > line)
		s->rate_bps = line;
	if (s->rate_bps < lo)
		s->rate_bps = lo;
	s->rtt_diff_ps = rtt_diff;
	q->rate_bps = (uint64_t)s->rate_bps;
	if (q->rate_bps < old)
		q->stats.rate_cuts++;
	else if (q->rate_bps > old)
		q->stats.rate_increases++;
}

static void cc_timely_on_ack(struct cc_qp *q, const struct cc_ack *a, uint64_t now_ps)
{
	struct cc_timely *s = q->priv;

	(void)now_ps;
	s->acked_total += a->acked_bytes;
	if (a->rtt_ps == 0 || (s->started && s->acked_total <= s->update_seq))
		return;
	if (s->started)
		cc_timely_update(q, s, a->rtt_ps);
	s->started = true;
	/* The next update waits for the data sent up to now (snd_nxt). */
	s->update_seq = s->acked_total + a->inflight_bytes;
	s->prev_rtt_ps = a->rtt_ps;
}

/* ---- settings: nic.timely.* ---- */

#define CC_TIMELY_OFF(f) offsetof(struct cc_timely_cfg, f)

/* Defaults: the simulator's RdmaHw attributes (TimelyAlpha, TimelyBeta,
 * TimelyTLow, TimelyTHigh, TimelyMinRtt) and run.py (MIN_RATE, RATE_AI,
 * RATE_HAI). */
static const struct cfg_key cc_timely_keys[] = {
	{ "alpha", CFG_KEY_FRACTION, "0.875", .off = CC_TIMELY_OFF(alpha), .lo = 0, .hi = 1,
	  .doc = "EWMA weight of a new RTT difference in rtt_diff" },
	{ "beta", CFG_KEY_FRACTION, "0.8", .off = CC_TIMELY_OFF(beta), .lo = 0, .hi = 1,
	  .doc = "multiplicative decrease factor beta" },
	{ "t_low", CFG_KEY_TIME, "50us", .off = CC_TIMELY_OFF(t_low_ps),
	  .doc = "below this RTT the rate increases" },
	{ "t_high", CFG_KEY_TIME, "500us", .off = CC_TIMELY_OFF(t_high_ps),
	  .doc = "above this RTT the rate decreases by beta (1 - t_high / rtt)" },
	{ "min_rtt", CFG_KEY_TIME, "20us", .off = CC_TIMELY_OFF(min_rtt_ps),
	  .doc = "minRTT normalising the gradient; > 0" },
	{ "rai", CFG_KEY_RATE, NULL, .off = CC_TIMELY_OFF(rai_bps), .min = 1,
	  .doc = "additive increase delta; absent: line rate / 1000 (100Mbps at 100Gbps)" },
	{ "rhai", CFG_KEY_RATE, NULL, .off = CC_TIMELY_OFF(rhai_bps), .min = 1,
	  .doc = "hyper increase step; absent: line rate / 200 (500Mbps at 100Gbps)" },
	{ "min_rate", CFG_KEY_RATE, "1Gbps", .off = CC_TIMELY_OFF(min_rate_bps), .min = 1,
	  .doc = "the rate never goes below this (or the line rate, if lower)" },
};

static int cc_timely_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct cc_timely_cfg *c = params;

	/* Absent: 0 here, per line rate at init; a value given is at least
	 * 1 bit/s (the table's .min), so 0 never stands for one given. */
	if (!cfg_get(map, "rai"))
		c->rai_bps = 0;
	if (!cfg_get(map, "rhai"))
		c->rhai_bps = 0;
	if (c->min_rtt_ps == 0) {
		cfg_errorf(err, cfg_get(map, "min_rtt"), "must be above 0");
		return -EINVAL;
	}
	if (c->t_high_ps < c->t_low_ps) {
		cfg_errorf(err, cfg_get(map, "t_high") ? cfg_get(map, "t_high") : map,
			   "t_high must be at least t_low");
		return -EINVAL;
	}
	return 0;
}

/* RTTs up to T_high are TIMELY's gradient region: signals, not losses. */
static uint64_t cc_timely_delay_ceiling(const void *cfg)
{
	return ((const struct cc_timely_cfg *)cfg)->t_high_ps;
}

static const struct cfg_table cc_timely_cfg_table = {
	.section = "nic.timely",
	.keys = cc_timely_keys,
	.n_keys = sizeof(cc_timely_keys) / sizeof(cc_timely_keys[0]),
	.check = cc_timely_check,
	.ordered = true,
};

const struct cc_ops cc_timely_ops = {
	.kind = { .name = "timely", .doc = "TIMELY rate",
		  .settings = &cc_timely_cfg_table, .settings_size = sizeof(struct cc_timely_cfg) },
	.priv_size = sizeof(struct cc_timely),
	.init = cc_timely_init,
	.on_ack = cc_timely_on_ack,
	.delay_ceiling_ps = cc_timely_delay_ceiling,
};
