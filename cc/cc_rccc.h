/* RCCC's settings (nic.rccc.*, read by cc_rccc.c's table). The algorithm
 * itself runs in the NIC (nic/nic_uet_credit.c): the receiver paces
 * credit, the sender spends it; cc_rccc.c only registers it and holds
 * these settings, which both ends of a QP read. */
#ifndef FAB_CC_RCCC_H
#define FAB_CC_RCCC_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

/* nic.rccc.*: the Ultra Ethernet receiver-credit congestion control. */
struct cc_rccc_cfg {
	double rate;            /* the receiver's credit pacer, a fraction of its port's line rate */
	uint64_t credit_bytes;  /* credit one CREDIT packet grants, bytes (a multiple of 256) */
	double max_credit_bdp;  /* the most credit a sender holds, in BDPs of its path */
	bool speculative;       /* a sender starts with max_credit before any credit came */
};

/* The credit settings (nic.rccc) in @set, for any algorithm with
 * CC_F_CREDIT (NULL when @set has none). */
const struct cc_rccc_cfg *cc_rccc_cfg_of(const struct cc_cfg_set *set);

/* The unloaded round-trip time of @q's path as the UET algorithms count
 * it (NSCC's base RTT, RCCC's BDP): its propagation and, on each link, a
 * full data frame one way and an ACK back, at the line rate. */
uint64_t cc_uet_unloaded_rtt_ps(const struct cc_qp *q);

#endif
