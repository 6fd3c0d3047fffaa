/* Private to cc/: the ops tables the registry lists. */
#ifndef FAB_CC_INT_H
#define FAB_CC_INT_H

#include "cc.h"

extern const struct cc_ops cc_none_ops;

#endif
