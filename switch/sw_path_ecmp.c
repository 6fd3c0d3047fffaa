/* Path choice "ecmp" (the default): equal-cost multi-path by a hash of the
 * 5-tuple, so that every frame of a flow takes the same port and flows
 * spread over the group (RFC 2992's hash-threshold family; the hash is
 * sw_ecmp_hash, seeded per switch against polarisation, and the RoCEv2 UDP
 * source port carries the entropy). Stateless. */
#include "sw_int.h"

static uint32_t sw_path_ecmp_pick(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
				  uint32_t n_ports, uint64_t magic, uint32_t flow_hash)
{
	(void)env;
	(void)grp;
	(void)ports;
	return sw_mod(flow_hash, magic, n_ports);
}

const struct sw_path_ops sw_path_ecmp_ops = {
	.kind = { .name = "ecmp",
		  .doc = "5-tuple hash modulo the group size: a flow keeps one port (default)" },
	.expand = SW_PATH_ECMP,
	.pick = sw_path_ecmp_pick,
};
