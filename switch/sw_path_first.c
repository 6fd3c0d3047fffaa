/* Path choice "first": always the first (lowest-numbered) equal-cost port,
 * deterministic single-path routing: every flow to a destination takes one
 * path, the one the ideal completion times assume (topo_path). Useful as a
 * worst case against ecmp and to make a path easy to follow in a capture.
 * Stateless. */
#include "sw_int.h"

static uint32_t sw_path_first_pick(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
				   uint32_t n_ports, uint64_t magic, uint32_t flow_hash)
{
	(void)env;
	(void)grp;
	(void)ports;
	(void)n_ports;
	(void)magic;
	(void)flow_hash;
	return 0;
}

const struct sw_path_ops sw_path_first_ops = {
	.kind = { .name = "first",
		  .doc = "always the first port of the group: single-path routing" },
	.expand = SW_PATH_FIRST,
	.pick = sw_path_first_pick,
};
