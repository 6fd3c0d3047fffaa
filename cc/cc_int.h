/* Private to cc/ (and its tests): the built-in algorithms' ops tables, for
 * the tests that drive one directly (the registry, cc.c, declares the ones
 * it lists itself). Each algorithm's settings struct and test accessors
 * are in its own header (cc_dcqcn.h, ...) or file. */
#ifndef FAB_CC_INT_H
#define FAB_CC_INT_H

#include "cc.h"

extern const struct cc_ops cc_none_ops;
extern const struct cc_ops cc_dcqcn_ops;
extern const struct cc_ops cc_dctcp_ops;
extern const struct cc_ops cc_hpcc_ops;
extern const struct cc_ops cc_timely_ops;
extern const struct cc_ops cc_swift_ops;
extern const struct cc_ops cc_ibcc_ops;
extern const struct cc_ops cc_nscc_ops;
extern const struct cc_ops cc_rccc_ops;
extern const struct cc_ops cc_nscc_rccc_ops;

#endif
