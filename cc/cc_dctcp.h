/* DCTCP's settings (nic.dctcp.*, read by cc_dctcp.c's table) and what
 * the tests read of its state. */
#ifndef FAB_CC_DCTCP_H
#define FAB_CC_DCTCP_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

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

/* DCTCP's alpha of @q. */
double cc_dctcp_alpha(const struct cc_qp *q);

#endif
