/* Queue manager "none": never marks. The switch then makes no decision at
 * all (no decide: its marking classes are cleared), as with no fabric.ecn;
 * fabric.ecn.aqm: none keeps the rest of the section (a drop-tail fabric
 * with the same written settings). */
#include "sw.h"

const struct sw_aqm_ops sw_aqm_none_ops = {
	.kind = { .name = "none", .doc = "no marking: queues are plain drop-tail" },
};
