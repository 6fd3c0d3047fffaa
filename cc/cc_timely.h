/* TIMELY's settings (nic.timely.*, read by cc_timely.c's table) and
 * what the tests read of its state. */
#ifndef FAB_CC_TIMELY_H
#define FAB_CC_TIMELY_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

/* nic.timely.*: TIMELY's parameters (names as in Mittal et al. 2015). */
struct cc_timely_cfg {
	double alpha;             /* EWMA weight of a new RTT difference */
	double beta;              /* multiplicative decrease factor */
	uint64_t t_low_ps;        /* T_low: below it, increase */
	uint64_t t_high_ps;       /* T_high: above it, decrease by beta (1 - T_high/rtt) */
	uint64_t min_rtt_ps;      /* minRTT, normalises the gradient */
	uint64_t rai_bps;         /* additive increase delta; 0: line rate / 1000 */
	uint64_t rhai_bps;        /* hyper increase step; 0: line rate / 200 */
	uint64_t min_rate_bps;    /* the rate never goes below this */
};

/* TIMELY's rtt_diff of @q, ps. */
double cc_timely_rtt_diff(const struct cc_qp *q);

#endif
