/* DCTCP-style window control driven by ECN echo, after RFC 8257 ("Data
 * Center TCP (DCTCP): TCP Congestion Control for Data Centers") and
 * Alizadeh et al., SIGCOMM 2010. The responder echoes CE marks in the
 * ACK's BTH (BECN, as InfiniBand echoes congestion; nic/nic_rx.c) and
 * sends an ACK at once when the CE state of the data it acknowledges
 * changes, so the acknowledged bytes split exactly into marked and not.
 *
 * State, with the RFC's names: the congestion window cwnd (bytes in
 * flight allowed), alpha (the fraction of marked bytes, smoothed), the
 * bytes acknowledged and marked in the current observation window
 * (DCTCP.BytesAcked, DCTCP.BytesMarked), and the end of the window after
 * a cut (the congestion-window-reduced state, CWR).
 *
 * Once per window of data acknowledged: F = BytesMarked / BytesAcked,
 * alpha <- (1 - g) alpha + g F. On the first echo outside CWR: cwnd <-
 * cwnd (1 - alpha / 2), and no further cut until the data in flight at the
 * cut is acknowledged. Without echo, congestion avoidance: +1 MTU per
 * window of data acknowledged (about one RTT). A NAK (loss) halves the
 * window once per window; a retransmission timeout sets it to one MTU.
 * The window never goes below one MTU; the rate stays at the line rate
 * (the window alone limits the QP). RDMA starts at the line rate: the
 * first window is one bandwidth-delay product, without slow start.
 *
 * `mode: rate` is DCTCP's law on a rate instead, as the HPCC authors' ns-3
 * simulator runs it for the HPCC paper (alibaba-edu/High-Precision-
 * Congestion-Control, RdmaHw::HandleAckDctcp, CC_MODE 8): the QP starts at
 * the line rate; once per window of data (the first ACK past the data
 * sent at the last update, snd_nxt) alpha <- (1 - g) alpha + g F with F
 * the marked packets over the packets in flight at the last update plus
 * one (at most 1); an echo outside CWR cuts R <- max(R_min, R (1 -
 * alpha / 2)) and enters CWR until the data in flight at the cut is
 * acknowledged; outside CWR each such update adds rai (capped at the line
 * rate). The window follows the rate, rate x t (the simulator's HAS_WIN
 * with VAR_WIN: its BDP window scaled by rate / line rate). */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_dctcp.h"
#include "cc_util.h"
#include "cfg_schema.h"
#include "units.h"

struct cc_dctcp {
	double cwnd;            /* congestion window, bytes (window mode) */
	double rate_bps;        /* R: current rate (rate mode) */
	uint64_t update_seq;    /* rate mode: next alpha update once acked_total passes
				 * this (snd_nxt at the last update); 0: none yet */
	uint64_t batch_pkts;    /* rate mode: packets in flight at the last update, + 1 */
	uint64_t marked_pkts;   /* rate mode: packets acknowledged with echo since then */
	uint64_t t_ps;          /* rate mode: the window is R x t */
	double alpha;           /* alpha */
	uint64_t acked;         /* bytes acknowledged in the observation window */
	uint64_t marked;        /* of them, acknowledged with ECN echo */
	uint64_t obs_bytes;     /* length of the observation window (cwnd at its start) */
	uint64_t acked_total;   /* bytes acknowledged since start */
	uint64_t cwr_end;       /* no cut until acked_total reaches this */
	uint64_t ca_bytes;      /* bytes acknowledged toward the next +1 MTU */
};

static const struct cc_dctcp_cfg *cc_dctcp_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

double cc_dctcp_alpha(const struct cc_qp *q)
{
	return ((const struct cc_dctcp *)q->priv)->alpha;
}

static void cc_dctcp_publish(struct cc_qp *q, struct cc_dctcp *s)
{
	double max = (double)cc_dctcp_cfg(q)->max_window_bytes;

	if (s->cwnd < q->mtu_bytes)
		s->cwnd = q->mtu_bytes;
	if (s->cwnd > max)
		s->cwnd = max > q->mtu_bytes ? max : q->mtu_bytes;
	q->window_bytes = (uint64_t)s->cwnd;
}

/* Rate mode: R into the QP's outputs, the window R x t (at least one MTU;
 * none when t is 0). */
static void cc_dctcp_rate_publish(struct cc_qp *q, struct cc_dctcp *s)
{
	double w = s->rate_bps * (double)s->t_ps / (8.0 * (double)UNITS_PS_PER_S);

	q->rate_bps = (uint64_t)s->rate_bps;
	q->window_bytes = s->t_ps == 0 ? 0 : w < q->mtu_bytes ? q->mtu_bytes : (uint64_t)w;
}

/* Rate mode, one ACK (see the file's comment). */
static void cc_dctcp_rate_ack(struct cc_qp *q, struct cc_dctcp *s, const struct cc_ack *a)
{
	const struct cc_dctcp_cfg *c = cc_dctcp_cfg(q);
	uint64_t snd_nxt, old = q->rate_bps;
	bool new_batch = false;

	s->acked_total += a->acked_bytes;
	snd_nxt = s->acked_total + a->inflight_bytes;
	if (a->ecn_echo)
		s->marked_pkts += (a->acked_bytes + q->mtu_bytes - 1) / q->mtu_bytes;
	if (s->acked_total > s->update_seq) {
		new_batch = true;
		if (s->update_seq) {
			double f = (double)s->marked_pkts / (double)s->batch_pkts;

			s->alpha = cc_ewma(s->alpha, f < 1.0 ? f : 1.0, c->g);
			s->marked_pkts = 0;
			s->batch_pkts = a->inflight_bytes / q->mtu_bytes + 1;
		} else {
			/* The first: alpha waits a window; the marks so far count. */
			s->batch_pkts = snd_nxt / q->mtu_bytes + 1;
		}
		s->update_seq = snd_nxt;
	}
	if (s->cwr_end && s->acked_total > s->cwr_end)
		s->cwr_end = 0; /* the data in flight at the cut is acknowledged */
	if (a->ecn_echo && !s->cwr_end) {
		double lo = (double)(c->min_rate_bps < q->line_rate_bps ? c->min_rate_bps
									 : q->line_rate_bps);

		s->rate_bps *= 1.0 - s->alpha / 2.0;
		if (s->rate_bps < lo)
			s->rate_bps = lo;
		s->cwr_end = snd_nxt ? snd_nxt : 1;
	} else if (!s->cwr_end && new_batch) {
		s->rate_bps += (double)c->rai_bps;
		if (s->rate_bps > (double)q->line_rate_bps)
			s->rate_bps = (double)q->line_rate_bps;
	}
	cc_dctcp_rate_publish(q, s);
	if (q->rate_bps < old)
		q->stats.rate_cuts++;
	else if (q->rate_bps > old)
		q->stats.rate_increases++;
}

static int cc_dctcp_init(struct cc_qp *q)
{
	struct cc_dctcp *s = q->priv;
	const struct cc_dctcp_cfg *c = cc_dctcp_cfg(q);
	uint64_t w = c ? c->init_window_bytes : 0;

	if (!c || q->mtu_bytes == 0 || q->line_rate_bps == 0)
		return -EINVAL;
	if (c->mode == CC_DCTCP_RATE) {
		s->alpha = c->alpha_init;
		s->rate_bps = (double)q->line_rate_bps;
		s->t_ps = c->t_ps ? c->t_ps : q->base_rtt_ps;
		cc_dctcp_rate_publish(q, s);
		return 0;
	}
	if (w == 0) /* one BDP, plus two packets for the serialisation of the first */
		w = (uint64_t)((unsigned __int128)q->line_rate_bps * q->base_rtt_ps / 8 /
			       UNITS_PS_PER_S) + 2 * (uint64_t)q->mtu_bytes;
	s->cwnd = (double)w;
	s->alpha = c->alpha_init;
	q->rate_bps = q->line_rate_bps;
	cc_dctcp_publish(q, s);
	s->obs_bytes = q->window_bytes;
	return 0;
}

/* A cut by @factor of the window, at most once per window of data. */
static void cc_dctcp_cut(struct cc_qp *q, struct cc_dctcp *s, double factor, uint64_t inflight)
{
	uint64_t old = q->window_bytes;

	if (s->acked_total < s->cwr_end)
		return;
	s->cwnd *= factor;
	s->cwr_end = s->acked_total + (inflight ? inflight : 1);
	s->ca_bytes = 0;
	cc_dctcp_publish(q, s);
	if (q->window_bytes < old)
		q->stats.window_cuts++;
}

static void cc_dctcp_on_ack(struct cc_qp *q, const struct cc_ack *a, uint64_t now_ps)
{
	struct cc_dctcp *s = q->priv;
	const struct cc_dctcp_cfg *c = cc_dctcp_cfg(q);

	(void)now_ps;
	if (c->mode == CC_DCTCP_RATE) {
		cc_dctcp_rate_ack(q, s, a);
		return;
	}
	if (a->acked_bytes == 0)
		return;
	s->acked_total += a->acked_bytes;
	s->acked += a->acked_bytes;
	if (a->ecn_echo) {
		s->marked += a->acked_bytes;
		cc_dctcp_cut(q, s, 1.0 - s->alpha / 2.0, a->inflight_bytes);
	} else {
		s->ca_bytes += a->acked_bytes;
		if (s->ca_bytes >= q->window_bytes) {
			uint64_t old = q->window_bytes;

			s->ca_bytes -= q->window_bytes;
			s->cwnd += q->mtu_bytes;
			cc_dctcp_publish(q, s);
			if (q->window_bytes > old)
				q->stats.window_increases++;
		}
	}
	if (s->acked >= s->obs_bytes) {
		s->alpha = cc_ewma(s->alpha, (double)s->marked / (double)s->acked, c->g);
		s->acked = s->marked = 0;
		s->obs_bytes = q->window_bytes;
	}
}

static void cc_dctcp_on_nak(struct cc_qp *q, uint64_t now_ps)
{
	(void)now_ps;
	/* Rate mode: a loss changes nothing (the simulator defines no
	 * reaction; its fabric is lossless). */
	if (cc_dctcp_cfg(q)->mode == CC_DCTCP_WINDOW)
		cc_dctcp_cut(q, q->priv, 0.5, q->window_bytes);
}

static void cc_dctcp_on_timeout(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_dctcp *s = q->priv;
	uint64_t old = q->window_bytes;

	(void)now_ps;
	if (cc_dctcp_cfg(q)->mode == CC_DCTCP_RATE)
		return;
	s->cwnd = q->mtu_bytes;
	s->ca_bytes = 0;
	cc_dctcp_publish(q, s);
	if (q->window_bytes < old)
		q->stats.window_cuts++;
}

/* ---- settings: nic.dctcp.* ---- */

#define CC_DCTCP_OFF(f) offsetof(struct cc_dctcp_cfg, f)

static const char *const cc_dctcp_mode_names[] = { "window", "rate", NULL };

static const struct cfg_key cc_dctcp_keys[] = {
	{ "mode", CFG_KEY_ENUM, "window", .off = CC_DCTCP_OFF(mode), .names = cc_dctcp_mode_names,
	  .doc = "window (RFC 8257) or rate (the HPCC authors' ns-3: DCTCP's law on a rate)" },
	{ "g", CFG_KEY_FRACTION, "0.0625", .off = CC_DCTCP_OFF(g), .lo = 0, .hi = 1,
	  .doc = "alpha's gain g (RFC 8257: 1/16)" },
	{ "alpha_init", CFG_KEY_FRACTION, "1", .off = CC_DCTCP_OFF(alpha_init), .lo = 0, .hi = 1,
	  .doc = "alpha at start (RFC 8257: 1)" },
	{ "init_window", CFG_KEY_SIZE, "0B", .off = CC_DCTCP_OFF(init_window_bytes), .size = 8,
	  .max = UINT64_C(1) << 32, .doc = "window at start, 0B: one bandwidth-delay product" },
	{ "max_window", CFG_KEY_SIZE, "64MiB", .off = CC_DCTCP_OFF(max_window_bytes), .size = 8,
	  .min = 1, .max = UINT64_C(1) << 32, .doc = "the window never grows past this" },
	{ "rai", CFG_KEY_RATE, "1Gbps", .off = CC_DCTCP_OFF(rai_bps),
	  .doc = "rate mode: added once per window of data outside CWR (the simulator's DctcpRateAI)" },
	{ "min_rate", CFG_KEY_RATE, "1Gbps", .off = CC_DCTCP_OFF(min_rate_bps), .min = 1,
	  .doc = "rate mode: the rate never goes below this (or the line rate, if lower)" },
	{ "t", CFG_KEY_TIME, "0us", .off = CC_DCTCP_OFF(t_ps),
	  .doc = "rate mode: the window is the rate times t; 0us: the QP's base RTT" },
};

static const struct cfg_table cc_dctcp_cfg_table = {
	.section = "nic.dctcp",
	.keys = cc_dctcp_keys,
	.n_keys = sizeof(cc_dctcp_keys) / sizeof(cc_dctcp_keys[0]),
	.ordered = true,
};

const struct cc_ops cc_dctcp_ops = {
	.kind = { .name = "dctcp", .doc = "DCTCP window",
		  .settings = &cc_dctcp_cfg_table, .settings_size = sizeof(struct cc_dctcp_cfg) },
	.priv_size = sizeof(struct cc_dctcp),
	.flags = CC_F_ECN | CC_F_ECN_ECHO,
	.init = cc_dctcp_init,
	.on_ack = cc_dctcp_on_ack,
	.on_nak = cc_dctcp_on_nak,
	.on_timeout = cc_dctcp_on_timeout,
};
