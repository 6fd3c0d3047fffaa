/* NSCC's settings (nic.nscc.*, read by cc_nscc.c's table) and what the
 * tests read of its state. */
#ifndef FAB_CC_NSCC_H
#define FAB_CC_NSCC_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

/* nic.nscc.*: the Ultra Ethernet network-signal congestion control. */
struct cc_nscc_cfg {
	uint64_t target_delay_ps; /* queueing delay target; 0: target_factor x base RTT */
	double target_factor;     /* the target as a fraction of the QP's base RTT */
	double max_window_bdp;    /* the largest (and the first) window, in BDPs */
	double gamma;             /* multiplicative decrease gain */
	double delay_ewma;        /* weight of a sample in the average delay */
	uint64_t fast_delay_ps;   /* below this delay for a window: fast increase */
	bool quick_adapt;         /* quick adapt on NACKs and very high delay */
};

/* NSCC's window of @q, bytes. */
double cc_nscc_cwnd(const struct cc_qp *q);
/* Its target queueing delay, ps, and its average delay, ps. */
uint64_t cc_nscc_target(const struct cc_qp *q);
double cc_nscc_avg_delay(const struct cc_qp *q);

#endif
