/* The offered load of an experiment's messages against each switch tier's
 * uplink capacity, worked out before the run (exp_capacity.c); the
 * definition is docs/results.md's "Offered load and tier capacity". */
#ifndef FAB_EXP_CAPACITY_H
#define FAB_EXP_CAPACITY_H

#include <stdio.h>

#include "exp.h"

/* The most loaded group of switches of the most loaded tier. */
struct exp_capacity {
	double ratio;           /* offered / capacity; 0: no tier has uplinks */
	unsigned tier;          /* the tier whose uplinks it is (1: leaves') */
	uint32_t sw_node;       /* topology node of the group's first switch */
	double offered_bps;     /* what the group's hosts offer across them (or
				 * receive across them, the larger), bits/s */
	double capacity_bps;    /* the group's uplinks, one direction, bits/s */
};

/* Work out @e's worst tier into @out: 0, or -ENOMEM. */
int exp_capacity(const struct exp *e, struct exp_capacity *out);
/* One line on @out when a tier is offered more than its uplinks carry
 * (ratio above 1), none otherwise. */
void exp_capacity_note(const struct exp *e, FILE *out);

#endif
