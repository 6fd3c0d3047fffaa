/* HPCC's sender: the window and rate control of Li et al., "HPCC: High
 * Precision Congestion Control", SIGCOMM 2019 (Algorithm 1), driven by the
 * in-band telemetry every switch appends to a data packet and the receiver
 * echoes in the ACK (switch/sw.c, nic/nic_rx.c; the NIC hands the decoded
 * stack to on_ack because this algorithm has CC_F_INT).
 *
 * Per ACK, for each hop j of the echoed stack against the same hop's record
 * of the previous ACK (L): txRate_j = (txBytes - L.txBytes) / (ts - L.ts),
 * u_j = min(qLen, L.qLen) / (B_j T) + txRate_j / B_j. U' = max_j u_j with
 * tau = ts - L.ts of that hop, capped at T; U <- (1 - tau/T) U + tau/T U'.
 * Then the window (eta the target utilisation, W_c the reference window):
 *   U >= eta or incStage >= maxStage: W = W_c / (U / eta) + W_AI, incStage = 0
 *   otherwise:                        W = W_c + W_AI,           incStage + 1
 * W_c and incStage are committed only when the ACK passes lastUpdateSeq
 * (about once per RTT), which then becomes snd_nxt; the other ACKs react
 * from the old W_c without committing. R = W / T; W <= W_init = B_nic T.
 * L <- the ACK's stack after every ACK.
 *
 * Differences are taken modulo the records' widths, which the NIC passes
 * with each hop: full records are exact; compact ones (fabric.int_record,
 * the authors' simulator's) give ts in ns and byte counts in the
 * simulator's units, as its GetTimeDelta and GetBytesDelta read them.
 *
 * Sequence numbers here are byte counts: the ACK's sequence is the bytes
 * acknowledged since the start, snd_nxt that plus the bytes in flight after
 * the ACK. The first ACK with a stack (or one whose path length changed)
 * only records L. HPCC needs an ACK per data packet (nic.ack_every: 1): with
 * coalesced ACKs it sees one record in every few and reacts that much later.
 * Neither a NAK nor a timeout changes the window (the paper defines none;
 * its authors' simulator neither). */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_hpcc.h"
#include "cc_util.h"
#include "cfg_schema.h"
#include "units.h"

/* nic.hpcc.*: HPCC's parameters (names as in Li et al., SIGCOMM 2019). */
struct cc_hpcc_cfg {
	double eta;               /* target utilisation eta */
	uint32_t max_stage;       /* maxStage: additive steps before a multiplicative one */
	double ai;                /* W_AI as a fraction of W_init = B_nic T */
	uint64_t t_ps;            /* T; 0: the QP's base RTT */
	uint64_t min_rate_bps;    /* the rate never goes below this */
};

struct cc_hpcc {
	struct cc_int_hop last[CC_INT_MAX_HOPS]; /* L: the previous ACK's stack */
	uint32_t n_last;        /* its hops; 0: none yet */
	uint32_t inc_stage;     /* incStage: additive increases since the last
				 * multiplicative step (committed) */
	double u;               /* U: the smoothed normalised inflight */
	double wc;              /* W_c: the reference window, bytes */
	double w_ai;            /* W_AI: the additive step, bytes */
	double w_max;           /* W_init = B_nic T, bytes */
	double w_min;           /* the window never goes below this (one MTU and the
				 * minimum rate's R_min T), bytes */
	uint64_t t_ps;          /* T */
	uint64_t seq;           /* the ACK's sequence: bytes acknowledged since start */
	uint64_t last_update_seq; /* lastUpdateSeq, bytes; 0: not set yet */
	bool started;           /* last_update_seq is set (the first stack seen) */
};

static const struct cc_hpcc_cfg *cc_hpcc_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

double cc_hpcc_u(const struct cc_qp *q)
{
	return ((const struct cc_hpcc *)q->priv)->u;
}

uint64_t cc_hpcc_wc(const struct cc_qp *q)
{
	return (uint64_t)((const struct cc_hpcc *)q->priv)->wc;
}

uint32_t cc_hpcc_stage(const struct cc_qp *q)
{
	return ((const struct cc_hpcc *)q->priv)->inc_stage;
}

/* Bytes a rate sends in T. */
static double cc_hpcc_bytes(uint64_t rate_bps, uint64_t t_ps)
{
	return (double)rate_bps * (double)t_ps / (8.0 * (double)UNITS_PS_PER_S);
}

/* Window @w (bytes) and its rate W / T into the QP's outputs. */
static void cc_hpcc_publish(struct cc_qp *q, const struct cc_hpcc *s, double w)
{
	const struct cc_hpcc_cfg *c = cc_hpcc_cfg(q);
	double r = w * 8.0 * (double)UNITS_PS_PER_S / (double)s->t_ps;
	uint64_t lo = c->min_rate_bps < q->line_rate_bps ? c->min_rate_bps : q->line_rate_bps;

	q->window_bytes = (uint64_t)w;
	q->rate_bps = cc_clamp_u64(r >= 1.8e19 ? UINT64_MAX : (uint64_t)r, lo, q->line_rate_bps);
}

static int cc_hpcc_init(struct cc_qp *q)
{
	struct cc_hpcc *s = q->priv;
	const struct cc_hpcc_cfg *c = cc_hpcc_cfg(q);

	if (!c || q->mtu_bytes == 0 || q->line_rate_bps == 0)
		return -EINVAL;
	s->t_ps = c->t_ps ? c->t_ps : q->base_rtt_ps;
	if (s->t_ps == 0)
		return -EINVAL;
	s->w_max = cc_hpcc_bytes(q->line_rate_bps, s->t_ps);
	s->w_ai = c->ai * s->w_max;
	s->w_min = cc_hpcc_bytes(c->min_rate_bps, s->t_ps);
	if (s->w_min < q->mtu_bytes)
		s->w_min = q->mtu_bytes;
	if (s->w_max < s->w_min)
		s->w_max = s->w_min;
	s->wc = s->w_max; /* RDMA starts at the line rate */
	/* U starts at 1, a fully used path, as the authors' simulator starts
	 * it (RdmaQueuePair: hp.u = 1): a new flow's first ACKs see U fall
	 * from there toward what the INT says, so it does not take the line
	 * rate for a whole RTT before its first measurement counts. */
	s->u = 1.0;
	cc_hpcc_publish(q, s, s->wc);
	return 0;
}

/* MeasureInflight: U from the stack @h of @n hops against L. Returns false
 * when no hop could be measured (no time passed at any). */
static bool cc_hpcc_measure(struct cc_hpcc *s, const struct cc_int_hop *h, uint32_t n)
{
	double t = (double)s->t_ps, umax = 0, tau = 0;
	bool any = false;

	for (uint32_t j = 0; j < n; j++) {
		const struct cc_int_hop *l = &s->last[j];
		uint64_t dt = cc_int_hop_ts_delta_ps(&h[j], l);
		double b = (double)h[j].rate_bps, qlen, tx_bps, u;

		if (dt == 0 || h[j].rate_bps == 0)
			continue;
		qlen = (double)(h[j].qlen_bytes < l->qlen_bytes ? h[j].qlen_bytes : l->qlen_bytes);
		tx_bps = (double)cc_int_hop_tx_delta_bytes(&h[j], l) * 8.0 *
			 (double)UNITS_PS_PER_S / (double)dt;
		u = qlen * 8.0 * (double)UNITS_PS_PER_S / (b * t) + tx_bps / b;
		if (!any || u > umax) {
			umax = u;
			tau = (double)dt;
		}
		any = true;
	}
	if (!any)
		return false;
	if (tau > t)
		tau = t;
	s->u = (1.0 - tau / t) * s->u + tau / t * umax;
	return true;
}

/* ComputeWind: the window from U, committed as W_c when @update. */
static double cc_hpcc_window(struct cc_qp *q, struct cc_hpcc *s, bool update)
{
	const struct cc_hpcc_cfg *c = cc_hpcc_cfg(q);
	double w;
	uint32_t stage;

	if (s->u >= c->eta || s->inc_stage >= c->max_stage) {
		w = s->wc / (s->u / c->eta) + s->w_ai;
		stage = 0;
	} else {
		w = s->wc + s->w_ai;
		stage = s->inc_stage + 1;
	}
	if (w > s->w_max)
		w = s->w_max;
	if (w < s->w_min)
		w = s->w_min;
	if (update) {
		if ((uint64_t)w > (uint64_t)s->wc)
			q->stats.window_increases++;
		else if ((uint64_t)w < (uint64_t)s->wc)
			q->stats.window_cuts++;
		s->wc = w;
		s->inc_stage = stage;
	}
	return w;
}

static void cc_hpcc_on_ack(struct cc_qp *q, const struct cc_ack *a, uint64_t now_ps)
{
	struct cc_hpcc *s = q->priv;
	uint32_t n = a->n_int_hops;
	bool update;

	(void)now_ps;
	s->seq += a->acked_bytes;
	if (!a->int_hops || n == 0 || n > CC_INT_MAX_HOPS)
		return;
	q->stats.int_hops += n;
	if (n != s->n_last || !s->started) {
		/* Nothing to difference against: record the stack. */
		if (!s->started)
			s->last_update_seq = s->seq + a->inflight_bytes;
		s->started = true;
	} else if (cc_hpcc_measure(s, a->int_hops, n)) {
		update = s->seq > s->last_update_seq;
		cc_hpcc_publish(q, s, cc_hpcc_window(q, s, update));
		if (update)
			s->last_update_seq = s->seq + a->inflight_bytes;
	}
	for (uint32_t j = 0; j < n; j++)
		s->last[j] = a->int_hops[j];
	s->n_last = n;
}

/* ---- settings: nic.hpcc.* ---- */

#define CC_HPCC_OFF(f) offsetof(struct cc_hpcc_cfg, f)

static const struct cfg_key cc_hpcc_keys[] = {
	{ "eta", CFG_KEY_FRACTION, "0.95", .off = CC_HPCC_OFF(eta), .lo = 0.01, .hi = 1,
	  .doc = "target utilisation eta (Li et al. 2019: 95%)" },
	{ "max_stage", CFG_KEY_UINT, "5", .off = CC_HPCC_OFF(max_stage), .size = 4, .max = 1000,
	  .doc = "additive increases before a multiplicative step, maxStage (Li et al. 2019: 5)" },
	{ "ai", CFG_KEY_DOUBLE, "0.0004", .off = CC_HPCC_OFF(ai), .lo = 0, .hi = 1,
	  .doc = "additive step W_AI as a fraction of W_init = NIC rate x T (the authors' "
		 "simulator: 10 Mb/s per 25 Gb/s, 0.0004)" },
	{ "t", CFG_KEY_TIME, "0us", .off = CC_HPCC_OFF(t_ps),
	  .doc = "T, the base RTT the window is a BDP of; 0us: the QP's base RTT" },
	{ "min_rate", CFG_KEY_RATE, "100Mbps", .off = CC_HPCC_OFF(min_rate_bps), .min = 1,
	  .doc = "lowest rate (the authors' simulator: 100Mbps)" },
};

static const struct cfg_table cc_hpcc_cfg_table = {
	.section = "nic.hpcc",
	.keys = cc_hpcc_keys,
	.n_keys = sizeof(cc_hpcc_keys) / sizeof(cc_hpcc_keys[0]),
	.ordered = true,
};

const struct cc_ops cc_hpcc_ops = {
	.kind = { .name = "hpcc", .doc = "HPCC window",
		  .settings = &cc_hpcc_cfg_table, .settings_size = sizeof(struct cc_hpcc_cfg) },
	.priv_size = sizeof(struct cc_hpcc),
	.flags = CC_F_INT,
	.init = cc_hpcc_init,
	.on_ack = cc_hpcc_on_ack,
};
