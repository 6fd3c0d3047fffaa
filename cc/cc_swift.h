/* Swift's settings (nic.swift.*, read by cc_swift.c's table) and what
 * the tests read of its state. */
#ifndef FAB_CC_SWIFT_H
#define FAB_CC_SWIFT_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

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

/* Swift's window of @q, packets (may be below one). */
double cc_swift_cwnd(const struct cc_qp *q);
/* Swift's target delay of @q at its current window, ps. */
uint64_t cc_swift_target(const struct cc_qp *q);

#endif
