/* Path choice "flowlet": flowlet switching (Kandula et al., "Dynamic load
 * balancing without packet reordering", CCR 2007; CONGA, Alizadeh et al.,
 * SIGCOMM 2014; LetFlow, Vanini et al., NSDI 2017). A flow's frames
 * separated by an idle gap longer than the flowlet timeout
 * (fabric.path.flowlet_gap) form separate flowlets, and each flowlet may
 * take another port: if the gap exceeds the difference in delay between
 * the paths, its first frame cannot overtake the previous flowlet's last,
 * so the flow is rebalanced without reordering. Frames within the gap keep
 * the flowlet's port. A new flowlet's port is drawn at random
 * (fabric.path.flowlet_pick: random, LetFlow's choice: flowlets shrink on
 * congested paths and grow on idle ones, which balances load without
 * measuring it) or is the port with the fewest queued bytes (least-loaded,
 * a local stand-in for CONGA's path congestion).
 *
 * State: a slot per flow hash (SW_PATH_FLOW_SLOTS per switch, as a
 * switch's flowlet table is indexed by a hash) with the last frame's time
 * and the port it took. Flows whose hashes collide share a slot, and so do
 * flows toward different groups, of other sizes, and the groups change
 * with sw_set_fib: so the slot keeps both the port and its index, and
 * keeps its flowlet only while that index is in the group and names the
 * same port there; otherwise the frame starts a new flowlet. */
#include "sim.h"
#include "sw_int.h"

/* One flowlet-table entry (16 bytes with its padding). */
struct sw_path_flowlet_slot {
	uint64_t last_ps; /* arrival of the previous frame with this slot */
	uint16_t port;    /* the port its flowlet takes */
	uint16_t idx;     /* that port's index in its group */
	uint16_t used;    /* 1 once a flowlet was recorded (the table starts zeroed) */
};

static uint32_t sw_path_flowlet_pick(struct sw_path_env *env, uint32_t grp,
				     const uint16_t *ports, uint32_t n_ports, uint64_t magic,
				     uint32_t flow_hash)
{
	struct sw_path_flowlet_slot *f = sw_path_flow_state(env, flow_hash);
	uint64_t now = env->sim->now_ps;
	uint32_t i = f->idx;

	(void)grp;
	(void)magic;
	if (!f->used || now - f->last_ps > env->p.flowlet_gap_ps || i >= n_ports ||
	    ports[i] != f->port) {
		i = env->p.flowlet_pick == SW_PATH_FLOWLET_LEAST_LOADED
			    ? sw_path_least_loaded(env, ports, n_ports, UINT32_MAX, 0)
			    : (uint32_t)rng_below(&env->rng, n_ports);
		f->port = ports[i];
		f->idx = (uint16_t)i;
		f->used = 1;
	}
	f->last_ps = now;
	return i;
}

const struct sw_path_ops sw_path_flowlet_ops = {
	.kind = { .name = "flowlet",
		  .doc = "a flow changes port after an idle gap (flowlet switching)" },
	.flow_state_bytes = sizeof(struct sw_path_flowlet_slot),
	.pick = sw_path_flowlet_pick,
};
