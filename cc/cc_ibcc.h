/* InfiniBand CC's settings (nic.ibcc.*, read by cc_ibcc.c's table: the
 * CA's CACongestionSetting and its CCT) and what the tests read of its
 * state and arithmetic. */
#ifndef FAB_CC_IBCC_H
#define FAB_CC_IBCC_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"

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

/* IB CC's CCTI of @q. */
uint32_t cc_ibcc_ccti(const struct cc_qp *q);
/* The pacing rate of a QP on a @line_bps link with MTU @mtu_bytes whose
 * injection delay is CCT entry @entry under @c (tests: the spec's
 * arithmetic). */
uint64_t cc_ibcc_rate(const struct cc_ibcc_cfg *c, uint16_t entry, uint64_t line_bps,
		      uint32_t mtu_bytes);

#endif
