/* What the tests read of HPCC's state (its settings struct, nic.hpcc.*,
 * lives in cc_hpcc.c). */
#ifndef FAB_CC_HPCC_H
#define FAB_CC_HPCC_H

#include <stdint.h>

#include "cc.h"

/* HPCC's smoothed utilisation U, reference window W_c (bytes) and incStage
 * of @q. */
double cc_hpcc_u(const struct cc_qp *q);
uint64_t cc_hpcc_wc(const struct cc_qp *q);
uint32_t cc_hpcc_stage(const struct cc_qp *q);

#endif
