/* Path choice "spray": per-packet random spraying, every frame to a port
 * drawn uniformly from the group (random packet spraying, Dixit et al.,
 * "On the impact of packet spraying in data center networks", INFOCOM
 * 2013). It balances the bytes of a group's ports to within a few frames
 * whatever the flows, at the price of reordering within a flow, which the
 * receiving NIC must absorb (nic.recovery). The draws come from the
 * switch's path stream (seeded from its hash_seed), so a run is
 * reproducible from its seed. No other state. */
#include "sw_int.h"

static uint32_t sw_path_spray_pick(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
				   uint32_t n_ports, uint64_t magic, uint32_t flow_hash)
{
	(void)grp;
	(void)ports;
	(void)magic;
	(void)flow_hash;
	return (uint32_t)rng_below(&env->rng, n_ports);
}

const struct sw_path_ops sw_path_spray_ops = {
	.kind = { .name = "spray",
		  .doc = "every frame to a port drawn at random (packet spraying)" },
	.pick = sw_path_spray_pick,
};
