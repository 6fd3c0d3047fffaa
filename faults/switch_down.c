/* switch-down: every link of a switch goes down (for its duration, or
 * for good). */
#include "fault.h"

static int switch_down_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, true, false);
}

static int switch_down_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, false, false);
}

const struct fault_ops fault_switch_down = {
	.kind = { "switch-down", "every link of a switch goes down", NULL, 0 },
	.need = "node",
	.allow = "duration",
	.node_noun = "switch",
	.node_switch = true,
	.log_start = "down",
	.log_end = "up",
	.splits = true,
	.act = switch_down_act,
	.undo = switch_down_undo,
};
