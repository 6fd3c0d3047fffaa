/* DCQCN's settings (nic.dcqcn.*, read by cc_dcqcn.c's table) and what
 * the tests read of its state. */
#ifndef FAB_CC_DCQCN_H
#define FAB_CC_DCQCN_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

/* DCQCN presets: where the defaults of the unset keys come from. */
enum cc_dcqcn_preset {
	CC_DCQCN_CONNECTX, /* NVIDIA ConnectX firmware defaults */
	CC_DCQCN_PAPER,    /* Zhu et al., SIGCOMM 2015 */
};

/* DCQCN's hyper increase step. */
enum cc_dcqcn_hyper {
	CC_DCQCN_HYPER_FIXED,   /* R_T + R_HAI (ConnectX rpg_hai_rate; the HPCC ns-3) */
	CC_DCQCN_HYPER_GROWING, /* R_T + i R_HAI in the i-th (Zhu et al. 2015) */
};

/* nic.dcqcn.*: the reaction point's parameters (names as in the paper). */
struct cc_dcqcn_cfg {
	int preset;               /* enum cc_dcqcn_preset */
	double g;                 /* alpha's gain g */
	uint64_t alpha_period_ps; /* alpha period K: once per K, alpha gains g if a CNP
				   * came in the period, else decays by (1 - g) */
	double alpha_init;        /* alpha set on the first CNP */
	uint64_t reduce_period_ps; /* the rate-reduce clock: a CNP's cut waits for its next
				   * tick (one cut per period); 0: every CNP cuts at once */
	uint64_t timer_ps;        /* rate increase timer period T */
	uint64_t byte_counter_bytes; /* rate increase every B bytes sent; 0: off */
	uint32_t threshold;       /* F: increase events of fast recovery (0: none) */
	uint64_t rai_bps;         /* additive increase step R_AI */
	uint64_t rhai_bps;        /* hyper increase step R_HAI */
	uint64_t min_rate_bps;    /* the rate never goes below this */
	bool clamp_target;        /* a cut always sets R_T to R_C (else only after an
				   * increase since the last cut) */
	int hyper;                /* enum cc_dcqcn_hyper */
};

/* DCQCN's alpha of @q at @now_ps (tests: the alpha timer's decay). */
double cc_dcqcn_alpha(const struct cc_qp *q, uint64_t now_ps);
/* DCQCN's target rate R_T of @q. */
uint64_t cc_dcqcn_target(const struct cc_qp *q);

#endif
