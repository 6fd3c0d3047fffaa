/* Swift: a window on delay, after Kumar et al., "Swift: Delay is Simple
 * and Effective for Congestion Control in the Datacenter", SIGCOMM 2020
 * (Algorithm 1 and section 3).
 *
 * State: the congestion window cwnd in packets (it may fall below one),
 * the latest RTT sample (delay) and the time of the last decrease.
 *
 * Target delay: target = base_target + hops x h + fs(cwnd), with flow
 * scaling fs = clamp(alpha / sqrt(cwnd) + beta, 0, fs_range), alpha =
 * fs_range / (1 / sqrt(fs_min_cwnd) - 1 / sqrt(fs_max_cwnd)), beta =
 * -alpha / sqrt(fs_max_cwnd): fewer packets in flight per flow (many flows
 * on one bottleneck) tolerate more delay, so that the flows stay fair.
 *
 * Per ACK of num_acked packets, with the latest delay:
 *   delay < target: cwnd += ai x num_acked / cwnd  (cwnd >= 1: ai per RTT)
 *                   cwnd += ai x num_acked         (cwnd < 1)
 *   else, if the last decrease is at least one delay ago:
 *                   cwnd *= max(1 - beta_md (delay - target) / delay,
 *                               1 - max_mdf)
 * and cwnd stays within [min_cwnd, max_cwnd]. A NAK (fast recovery)
 * cuts by max_mdf, at most once per RTT; a retransmission timeout cuts by
 * max_mdf each time.
 *
 * Output: the window is cwnd packets; at one packet or more the rate is
 * the line rate (the window limits), below one packet the QP is paced:
 * rate = window / RTT (the paper's pacing delay RTT / cwnd per packet),
 * with the RTT at least the base RTT, so the pacer alone never lets more
 * than the window go per base RTT. The NIC lets one packet go when none
 * is in flight, whatever the window.
 *
 * Fabric and endpoint. The paper keeps a fabric window (network delay
 * against this target) and an endpoint window (host delay against its own
 * target) and uses the smaller. fabemu has no host model: the NIC's RTT
 * sample is the whole RTT, compared with the fabric target, and the
 * endpoint window is a passthrough without parameters (cc_swift_effective)
 * until hosts are modelled.
 *
 * Hops: the links of the QP's path as the NIC knows them (cc_qp.n_hops,
 * from the traffic module's path), or nic.swift.hops when set.
 *
 * Defaults. The paper's numbers are deployment-specific; ours: base_target
 * the QP's base RTT (the propagation the fabric adds for nothing), h = 1
 * us a hop (a few 4 KiB packets at 25-100 Gb/s: serialisation plus a small
 * queue per hop), fs_range 5 us over cwnd 0.1..100 packets, ai 1 packet a
 * RTT, beta 0.8, max_mdf 0.5, min_cwnd 0.001 packets, max_cwnd one
 * bandwidth-delay product at the largest target plus two packets (the
 * first window: RDMA starts at the line rate). */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_swift.h"
#include "cc_util.h"
#include "cfg_schema.h"
#include "units.h"

struct cc_swift {
	double cwnd;            /* fabric congestion window, packets */
	double max_cwnd;        /* its upper bound, packets */
	double fs_alpha_ps;     /* flow scaling alpha, ps x sqrt(packets) */
	double fs_beta_ps;      /* flow scaling beta, ps */
	uint64_t fixed_target_ps; /* base_target + hops x h */
	uint64_t delay_ps;      /* latest RTT sample; 0: none yet */
	uint64_t last_cut_ps;   /* time of the last decrease */
	bool cut_seen;          /* a decrease happened (last_cut_ps is valid) */
};

static const struct cc_swift_cfg *cc_swift_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

/* Flow scaling of @cwnd packets, ps. */
static double cc_swift_fs(const struct cc_qp *q, const struct cc_swift *s, double cwnd)
{
	double fs = s->fs_alpha_ps / sqrt(cwnd) + s->fs_beta_ps;
	double range = (double)cc_swift_cfg(q)->fs_range_ps;

	return fs < 0 ? 0 : fs > range ? range : fs;
}

uint64_t cc_swift_target(const struct cc_qp *q)
{
	const struct cc_swift *s = q->priv;

	return s->fixed_target_ps + (uint64_t)cc_swift_fs(q, s, s->cwnd);
}

double cc_swift_cwnd(const struct cc_qp *q)
{
	return ((const struct cc_swift *)q->priv)->cwnd;
}

/* The window the QP uses: min(fabric, endpoint); the endpoint window is a
 * passthrough until fabemu models hosts. */
static double cc_swift_effective(const struct cc_swift *s)
{
	return s->cwnd;
}

/* Clamp cwnd and write the window and the rate. */
static void cc_swift_publish(struct cc_qp *q, struct cc_swift *s)
{
	const struct cc_swift_cfg *c = cc_swift_cfg(q);
	uint64_t old_w = q->window_bytes, old_r = q->rate_bps;
	double w;

	if (s->cwnd < c->min_cwnd)
		s->cwnd = c->min_cwnd;
	if (s->cwnd > s->max_cwnd)
		s->cwnd = s->max_cwnd;
	w = cc_swift_effective(s);
	q->window_bytes = (uint64_t)(w * q->mtu_bytes);
	if (q->window_bytes == 0)
		q->window_bytes = 1;
	if (w >= 1.0) {
		q->rate_bps = q->line_rate_bps;
	} else {
		uint64_t rtt = s->delay_ps > q->base_rtt_ps ? s->delay_ps : q->base_rtt_ps;
		uint64_t r;

		if (rtt == 0)
			rtt = cc_swift_target(q) ? cc_swift_target(q) : 1;
		r = (uint64_t)((unsigned __int128)q->window_bytes * 8 * UNITS_PS_PER_S / rtt);
		q->rate_bps = cc_clamp_u64(r, 1, q->line_rate_bps);
	}
	if (q->window_bytes < old_w)
		q->stats.window_cuts++;
	else if (q->window_bytes > old_w)
		q->stats.window_increases++;
	if (q->rate_bps < old_r)
		q->stats.rate_cuts++;
	else if (q->rate_bps > old_r)
		q->stats.rate_increases++;
}

static int cc_swift_init(struct cc_qp *q)
{
	struct cc_swift *s = q->priv;
	const struct cc_swift_cfg *c = cc_swift_cfg(q);
	uint32_t hops;
	uint64_t base;
	double bdp;

	if (!c || q->mtu_bytes == 0 || q->line_rate_bps == 0)
		return -EINVAL;
	hops = c->hops ? c->hops : q->n_hops;
	base = c->base_target_ps ? c->base_target_ps : q->base_rtt_ps;
	s->fixed_target_ps = base + (uint64_t)hops * c->hop_scale_ps;
	s->fs_alpha_ps = (double)c->fs_range_ps /
			 (1.0 / sqrt(c->fs_min_cwnd) - 1.0 / sqrt(c->fs_max_cwnd));
	s->fs_beta_ps = -s->fs_alpha_ps / sqrt(c->fs_max_cwnd);
	if (c->max_cwnd > 0) {
		s->max_cwnd = c->max_cwnd;
	} else {
		bdp = (double)q->line_rate_bps *
		      (double)(s->fixed_target_ps + c->fs_range_ps) / 8.0 / (double)UNITS_PS_PER_S;
		s->max_cwnd = bdp / (double)q->mtu_bytes + 2.0;
	}
	if (s->max_cwnd < c->min_cwnd)
		s->max_cwnd = c->min_cwnd;
	s->cwnd = s->max_cwnd;
	q->window_bytes = 0;
	q->rate_bps = q->line_rate_bps;
	cc_swift_publish(q, s);
	q->stats.window_increases = 0; /* the first window is no increase */
	return 0;
}

/* At most one decrease per RTT (the latest sample). */
static bool cc_swift_can_cut(const struct cc_swift *s, uint64_t now_ps)
{
	return !s->cut_seen || now_ps - s->last_cut_ps >= s->delay_ps;
}

static void cc_swift_cut(struct cc_swift *s, double factor, uint64_t now_ps)
{
	s->cwnd *= factor;
	s->last_cut_ps = now_ps;
	s->cut_seen = true;
}

static void cc_swift_on_ack(struct cc_qp *q, const struct cc_ack *a, uint64_t now_ps)
{
	struct cc_swift *s = q->priv;
	const struct cc_swift_cfg *c = cc_swift_cfg(q);
	double acked = (double)a->acked_bytes / (double)q->mtu_bytes;
	uint64_t target;

	if (a->rtt_ps)
		s->delay_ps = a->rtt_ps;
	if (a->acked_bytes == 0 || s->delay_ps == 0)
		return;
	target = cc_swift_target(q);
	if (s->delay_ps < target) {
		if (s->cwnd >= 1.0)
			s->cwnd += c->ai * acked / s->cwnd;
		else
			s->cwnd += c->ai * acked;
	} else if (cc_swift_can_cut(s, now_ps)) {
		double d = (double)s->delay_ps;
		double f = 1.0 - c->beta * (d - (double)target) / d;

		if (f < 1.0 - c->max_mdf)
			f = 1.0 - c->max_mdf;
		cc_swift_cut(s, f, now_ps);
	}
	cc_swift_publish(q, s);
}

static void cc_swift_on_nak(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_swift *s = q->priv;

	if (cc_swift_can_cut(s, now_ps)) {
		cc_swift_cut(s, 1.0 - cc_swift_cfg(q)->max_mdf, now_ps);
		cc_swift_publish(q, s);
	}
}

static void cc_swift_on_timeout(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_swift *s = q->priv;

	cc_swift_cut(s, 1.0 - cc_swift_cfg(q)->max_mdf, now_ps);
	cc_swift_publish(q, s);
}

/* ---- settings: nic.swift.* ---- */

#define CC_SWIFT_OFF(f) offsetof(struct cc_swift_cfg, f)

static const struct cfg_key cc_swift_keys[] = {
	{ "base_target", CFG_KEY_TIME, "0us", .off = CC_SWIFT_OFF(base_target_ps),
	  .doc = "target delay before hops and flow scaling; 0us: the QP's base RTT" },
	{ "hops", CFG_KEY_UINT, "0", .off = CC_SWIFT_OFF(hops), .size = 4, .max = 64,
	  .doc = "hops in the target; 0: the links of the QP's path" },
	{ "hop_scale", CFG_KEY_TIME, "1us", .off = CC_SWIFT_OFF(hop_scale_ps),
	  .doc = "h: target delay added per hop" },
	{ "fs_range", CFG_KEY_TIME, "5us", .off = CC_SWIFT_OFF(fs_range_ps),
	  .doc = "flow scaling: the most it adds to the target" },
	{ "fs_min_cwnd", CFG_KEY_DOUBLE, "0.1", .off = CC_SWIFT_OFF(fs_min_cwnd), .lo = 1e-6,
	  .hi = 1e6, .doc = "flow scaling: at this window (packets) it adds fs_range" },
	{ "fs_max_cwnd", CFG_KEY_DOUBLE, "100", .off = CC_SWIFT_OFF(fs_max_cwnd), .lo = 1e-6,
	  .hi = 1e6, .doc = "flow scaling: at this window (packets) it adds nothing" },
	{ "ai", CFG_KEY_DOUBLE, "1", .off = CC_SWIFT_OFF(ai), .lo = 0, .hi = 1e6,
	  .doc = "additive increase, packets per RTT" },
	{ "beta", CFG_KEY_FRACTION, "0.8", .off = CC_SWIFT_OFF(beta), .lo = 0, .hi = 1,
	  .doc = "multiplicative decrease: cwnd x (1 - beta (delay - target) / delay)" },
	{ "max_mdf", CFG_KEY_FRACTION, "0.5", .off = CC_SWIFT_OFF(max_mdf), .lo = 0, .hi = 1,
	  .doc = "the largest fraction one decrease takes" },
	{ "min_cwnd", CFG_KEY_DOUBLE, "0.001", .off = CC_SWIFT_OFF(min_cwnd), .lo = 1e-6,
	  .hi = 1e6, .doc = "the window never goes below this (packets; below 1: paced)" },
	{ "max_cwnd", CFG_KEY_DOUBLE, "0", .off = CC_SWIFT_OFF(max_cwnd), .lo = 0, .hi = 1e9,
	  .doc = "the window never goes above this (packets); 0: one bandwidth-delay product at "
		 "the largest target plus two packets" },
};

static int cc_swift_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	const struct cc_swift_cfg *c = params;

	if (c->fs_max_cwnd <= c->fs_min_cwnd) {
		cfg_errorf(err, cfg_get(map, "fs_max_cwnd") ? cfg_get(map, "fs_max_cwnd") : map,
			   "fs_max_cwnd must be above fs_min_cwnd");
		return -EINVAL;
	}
	if (c->max_cwnd > 0 && c->max_cwnd < c->min_cwnd) {
		cfg_errorf(err, cfg_get(map, "max_cwnd"), "max_cwnd must be at least min_cwnd");
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_table cc_swift_cfg_table = {
	.section = "nic.swift",
	.keys = cc_swift_keys,
	.n_keys = sizeof(cc_swift_keys) / sizeof(cc_swift_keys[0]),
	.check = cc_swift_check,
	.ordered = true,
};

/* The target at its largest, as far as the settings tell (a base target
 * or hop count left to the path adds what the path has). */
static uint64_t cc_swift_delay_ceiling(const void *cfg)
{
	const struct cc_swift_cfg *c = cfg;

	return c->base_target_ps + (uint64_t)c->hops * c->hop_scale_ps + c->fs_range_ps;
}

const struct cc_ops cc_swift_ops = {
	.kind = { .name = "swift", .doc = "Swift window",
		  .settings = &cc_swift_cfg_table, .settings_size = sizeof(struct cc_swift_cfg) },
	.priv_size = sizeof(struct cc_swift),
	.init = cc_swift_init,
	.on_ack = cc_swift_on_ack,
	.on_nak = cc_swift_on_nak,
	.on_timeout = cc_swift_on_timeout,
	.delay_ceiling_ps = cc_swift_delay_ceiling,
};
