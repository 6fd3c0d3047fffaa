/* link-down: the links at its ports go down, for its duration or for
 * good; their frames are lost and the forwarding is recomputed around
 * them fabric.convergence later. */
#include "fault.h"

static int link_down_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, true, false);
}

static int link_down_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, false, false);
}

const struct fault_ops fault_link_down = {
	.kind = { "link-down", "the links at ports go down (for duration, or for good)", NULL, 0 },
	.need = "ports",
	.allow = "duration",
	.log_start = "down",
	.log_end = "up",
	.splits = true,
	.act = link_down_act,
	.undo = link_down_undo,
};
