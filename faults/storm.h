/* A port that pauses its link on a timer (PFC XOFFs), shared by the
 * pfc-storm and slow-receiver kinds: the chain of XOFFs, its start, its
 * end and its count. */
#ifndef FAB_FAULT_STORM_H
#define FAB_FAULT_STORM_H

#include "fault.h"

/* A storm's run-time state (its kind's state_size). */
struct fault_storm {
	struct fabric_faults *ff; /* the schedule */
	uint32_t fault;           /* its fault */
	bool on;                  /* sending */
	uint64_t xoffs;           /* XOFF frames sent */
	uint64_t period_ps;       /* between XOFFs */
	uint16_t quanta;          /* each one's pause, in 512-bit-time quanta */
	uint8_t mask;             /* the priorities it pauses */
	struct ev_src src;        /* its chain of XOFFs */
};

/* Ready @s (period, quanta and mask set by the kind) for fault @i. */
void fault_storm_init(struct fabric_faults *ff, uint32_t i, struct fault_storm *s);
/* The first XOFF now, then one every period until fault_storm_end. */
int fault_storm_act(struct fabric_faults *ff, uint32_t i, void *state);
int fault_storm_undo(struct fabric_faults *ff, uint32_t i, void *state);
/* Its XOFFs into @out. */
void fault_storm_count(const void *state, struct fault_counts *out);
/* A storm sends PFC pauses: one port, and a link layer that has them.
 * 0 or -EINVAL with @err at the entry's key. */
int fault_storm_validate(const struct exp_fault *x, const struct cfg_node *it,
			 char err[CFG_ERR_BYTES]);

#endif
