/* link-up: the links at its ports come back up, whatever fault holds
 * them down. */
#include "fault.h"

static int link_up_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, false, true);
}

const struct fault_ops fault_link_up = {
	.kind = { "link-up", "the links at ports come back up", NULL, 0 },
	.need = "ports",
	.allow = "",
	.log_start = "up",
	.splits = true,
	.act = link_up_act,
};
