/* Private to cc/ (and its tests): the ops tables the registry lists and the
 * settings structs their `nic.<name>` tables fill. */
#ifndef FAB_CC_INT_H
#define FAB_CC_INT_H

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

/* DCTCP's control variable. */
enum cc_dctcp_mode {
	CC_DCTCP_WINDOW, /* a congestion window (RFC 8257) */
	CC_DCTCP_RATE,   /* a rate, with a window of rate x t (the HPCC authors' ns-3) */
};

/* nic.dctcp.*: the window's parameters (RFC 8257). */
struct cc_dctcp_cfg {
	int mode;                 /* enum cc_dctcp_mode */
	double g;                 /* alpha's gain g */
	double alpha_init;        /* alpha at start */
	uint64_t init_window_bytes; /* window at start; 0: one bandwidth-delay product */
	uint64_t max_window_bytes; /* the window never grows past this */
	uint64_t rai_bps;         /* rate mode: additive increase per window of data */
	uint64_t min_rate_bps;    /* rate mode: the rate never goes below this */
	uint64_t t_ps;            /* rate mode: window = rate x t; 0: the QP's base RTT */
};

/* nic.hpcc.*: HPCC's parameters (names as in Li et al., SIGCOMM 2019). */
struct cc_hpcc_cfg {
	double eta;               /* target utilisation eta */
	uint32_t max_stage;       /* maxStage: additive steps before a multiplicative one */
	double ai;                /* W_AI as a fraction of W_init = B_nic T */
	uint64_t t_ps;            /* T; 0: the QP's base RTT */
	uint64_t min_rate_bps;    /* the rate never goes below this */
};

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

/* nic.swift.*: Swift's parameters (names as in Kumar et al. 2020). */
struct cc_swift_cfg {
	uint64_t base_target_ps;  /* target before hops and flow scaling; 0: base RTT */
	uint32_t hops;            /* hops in the target; 0: the path's (cc_qp.n_hops) */
	uint64_t hop_scale_ps;    /* h: target added per hop */
	uint64_t fs_range_ps;     /* flow scaling: the most it adds */
	double fs_min_cwnd;       /* flow scaling adds fs_range at this window, packets */
	double fs_max_cwnd;       /* flow scaling adds nothing at this window, packets */
	double ai;                /* additive increase, packets per RTT */
	double beta;              /* multiplicative decrease factor */
	double max_mdf;           /* the largest fraction one decrease takes */
	double min_cwnd;          /* lowest window, packets */
	double max_cwnd;          /* highest window, packets; 0: derived at init */
};

enum {
	CC_IBCC_CCT_MAX = 128,          /* congestion control table entries, at most
					 * (OpenSM's OSM_CCT_ENTRY_MAX) */
	CC_IBCC_SHIFT_POS = 14,         /* a CCT entry: shift in bits 15..14 */
	CC_IBCC_MULT_MASK = 0x3FFF,     /* multiplier in bits 13..0 */
	CC_IBCC_TIMER_UNIT_PS = 1024000, /* CCTI_Timer counts 1.024 us (IBTA A10) */
};

/* nic.ibcc.*: an InfiniBand CA's congestion control (IBTA Vol 1 Annex A10:
 * CACongestionSetting and the CongestionControlTable; names as there). */
struct cc_ibcc_cfg {
	uint16_t cct[CC_IBCC_CCT_MAX]; /* CCT: shift << 14 | multiplier per entry */
	uint32_t n_cct;           /* entries of cct */
	uint32_t ccti_increase;   /* CCTI_Increase: added to CCTI per BECN */
	uint32_t ccti_limit;      /* CCTI_Limit: CCTI never above (< n_cct) */
	uint32_t ccti_min;        /* CCTI_Min: the timer never takes CCTI below */
	uint32_t ccti_timer;      /* CCTI_Timer, units of 1.024 us (>= 1) */
	uint64_t delay_unit_ps;   /* what a CCT entry's multiplier counts: 0 the time of
				   * an MTU-sized packet at the line rate (hfi1), else
				   * this time */
	uint64_t becn_interval_ps; /* the responder's least gap between CNPs (BECNs) of
				   * one QP; 0: one per FECN-marked packet */
};

extern const struct cc_ops cc_none_ops;
extern const struct cc_ops cc_dcqcn_ops;
extern const struct cc_ops cc_dctcp_ops;
extern const struct cfg_table cc_dcqcn_cfg_table;
extern const struct cfg_table cc_dctcp_cfg_table;
extern const struct cc_ops cc_hpcc_ops;
extern const struct cfg_table cc_hpcc_cfg_table;
extern const struct cc_ops cc_timely_ops;
extern const struct cfg_table cc_timely_cfg_table;
extern const struct cc_ops cc_swift_ops;
extern const struct cfg_table cc_swift_cfg_table;
extern const struct cc_ops cc_ibcc_ops;
extern const struct cfg_table cc_ibcc_cfg_table;

/* DCQCN's alpha of @q at @now_ps (tests: the alpha timer's decay). */
double cc_dcqcn_alpha(const struct cc_qp *q, uint64_t now_ps);
/* DCQCN's target rate R_T of @q. */
uint64_t cc_dcqcn_target(const struct cc_qp *q);
/* DCTCP's alpha of @q. */
double cc_dctcp_alpha(const struct cc_qp *q);
/* HPCC's smoothed utilisation U, reference window W_c (bytes) and incStage
 * of @q. */
double cc_hpcc_u(const struct cc_qp *q);
uint64_t cc_hpcc_wc(const struct cc_qp *q);
uint32_t cc_hpcc_stage(const struct cc_qp *q);

/* IB CC's CCTI of @q. */
uint32_t cc_ibcc_ccti(const struct cc_qp *q);
/* The pacing rate of a QP on a @line_bps link with MTU @mtu_bytes whose
 * injection delay is CCT entry @entry under @c (tests: the spec's
 * arithmetic). */
uint64_t cc_ibcc_rate(const struct cc_ibcc_cfg *c, uint16_t entry, uint64_t line_bps,
		      uint32_t mtu_bytes);

/* TIMELY's rtt_diff of @q, ps. */
double cc_timely_rtt_diff(const struct cc_qp *q);
/* Swift's window of @q, packets (may be below one). */
double cc_swift_cwnd(const struct cc_qp *q);
/* Swift's target delay of @q at its current window, ps. */
uint64_t cc_swift_target(const struct cc_qp *q);

#endif
