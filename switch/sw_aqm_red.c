/* Queue manager "red" (the default): RED-style ECN marking (Floyd and
 * Jacobson, 1993; the curve DCQCN and HPCC mark by), its math in sw_red.h.
 * Its settings are fabric.ecn's own keys (kmin, kmax, pmax, by_rate,
 * reference_rate, read into struct sw_params by sw_cfg_ecn.c); its state
 * per egress port is the curve of that port's link rate. The switch
 * expands its decision inline (sw_aqm.c); decide here is the same for
 * other callers. */
#include <errno.h>
#include <stdio.h>

#include "sw.h"
#include "units.h"

/* @bytes x @num / @den, at most UINT64_MAX. */
static uint64_t sw_red_scale_bytes(uint64_t bytes, uint64_t num, uint64_t den)
{
	unsigned __int128 v = (unsigned __int128)bytes * num / den;

	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

int sw_params_port_red(const struct sw_params *p, uint64_t rate_bps, struct sw_red_params *out)
{
	for (uint8_t i = 0; i < p->n_red_by_rate; i++) {
		if (p->red_by_rate[i].rate_bps == rate_bps) {
			*out = p->red_by_rate[i].red;
			return 0;
		}
	}
	if (p->red_by_rate_only)
		return -ENOENT;
	*out = p->red;
	if (p->red_ref_rate_bps && rate_bps != p->red_ref_rate_bps) {
		/* K proportional to C (DCTCP's K > C x RTT / 7): the same
		 * queueing delay at every rate. */
		out->kmin_bytes = sw_red_scale_bytes(p->red.kmin_bytes, rate_bps, p->red_ref_rate_bps);
		out->kmax_bytes = sw_red_scale_bytes(p->red.kmax_bytes, rate_bps, p->red_ref_rate_bps);
	}
	return 0;
}

/* The port's curve: the fabric-wide one until its rate is known, then
 * that rate's (sw_params_port_red). */
static int sw_aqm_red_init(void *priv, const struct sw_params *p, const void *settings,
			   uint64_t rate_bps, char err[CFG_ERR_BYTES])
{
	struct sw_red_params *r = priv;

	(void)settings;
	if (!rate_bps) {
		*r = p->red;
		return 0;
	}
	if (sw_params_port_red(p, rate_bps, r) != 0) {
		char rate[32];

		units_fmt_rate(rate, sizeof(rate), rate_bps);
		snprintf(err, CFG_ERR_BYTES,
			 "runs at %s, which fabric.ecn.by_rate does not list (and no top-level kmin and kmax are given for other rates)",
			 rate);
		return -ENOENT;
	}
	return 0;
}

static enum sw_aqm_verdict sw_aqm_red_decide(void *priv, uint64_t q_bytes, uint64_t now_ps,
					     uint64_t *rng)
{
	(void)now_ps;
	return sw_red_decide(priv, q_bytes, rng) ? SW_AQM_MARK : SW_AQM_PASS;
}

const struct sw_aqm_ops sw_aqm_red_ops = {
	.kind = { .name = "red",
		  .doc = "RED: marks with a probability rising from kmin to kmax (the default)" },
	.priv_size = sizeof(struct sw_red_params),
	.init = sw_aqm_red_init,
	.decide = sw_aqm_red_decide,
};
