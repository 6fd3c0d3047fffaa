/* nic-down: every link of a host (its NIC) goes down (for its duration,
 * or for good). */
#include "fault.h"

static int nic_down_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, true, false);
}

static int nic_down_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, false, false);
}

const struct fault_ops fault_nic_down = {
	.kind = { "nic-down", "every link of a host (a NIC) goes down", NULL, 0 },
	.need = "node",
	.allow = "duration",
	.node_noun = "host (a NIC)",
	.log_start = "down",
	.log_end = "up",
	.splits = true,
	.act = nic_down_act,
	.undo = nic_down_undo,
};
