/* Path choice "adaptive": adaptive routing as InfiniBand switches and
 * Spectrum-X style Ethernet fabrics do it, per packet and from local state
 * only: the egress port of the group with the fewest bytes queued (all
 * traffic classes, port_queue_bytes). fabric.path.adaptive_bias (B, 0 by
 * default) biases it toward the ECMP choice: the frame keeps the flow's
 * hash port (h mod n, as ecmp) unless another port's queue is shorter by
 * more than B, so that an idle or evenly loaded fabric routes like ECMP,
 * without reordering, and a flow moves only for a real imbalance. Other
 * equally loaded ports are drawn at random from the switch's stream
 * (sw_path_least_loaded), never taken lowest first. Stateless. */
#include "sw_int.h"

static uint32_t sw_path_adaptive_pick(struct sw_path_env *env, uint32_t grp,
				      const uint16_t *ports, uint32_t n_ports, uint64_t magic,
				      uint32_t flow_hash)
{
	(void)grp;
	return sw_path_least_loaded(env, ports, n_ports, sw_mod(flow_hash, magic, n_ports),
				    env->p.adaptive_bias_bytes);
}

const struct sw_path_ops sw_path_adaptive_ops = {
	.kind = { .name = "adaptive",
		  .doc = "every frame to the least-loaded port (adaptive routing)" },
	.pick = sw_path_adaptive_pick,
};
