/* Path choice "round-robin": per-packet round robin over the group, one
 * counter per ECMP group of the switch (the frames toward every
 * destination that leaves by the same set of ports share it), so that the
 * ports of a group take turns exactly: their frame counts never differ by
 * more than one. Like spray it reorders within a flow. The counters start
 * at the group's first port and restart there when the groups are rebuilt
 * (sw_set_fib). */
#include "sw_int.h"

static uint32_t sw_path_rr_pick(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
				uint32_t n_ports, uint64_t magic, uint32_t flow_hash)
{
	uint32_t *next = sw_path_grp_state(env, grp);
	/* A group's size is fixed while its counter lives; the bound keeps
	 * the contract (< n_ports) for any caller. */
	uint32_t i = *next < n_ports ? *next : 0;

	(void)ports;
	(void)magic;
	(void)flow_hash;
	*next = i + 1 == n_ports ? 0 : i + 1;
	return i;
}

const struct sw_path_ops sw_path_rr_ops = {
	.kind = { .name = "round-robin",
		  .doc = "every frame to the next port of its group in turn" },
	.grp_state_bytes = sizeof(uint32_t),
	.pick = sw_path_rr_pick,
};
