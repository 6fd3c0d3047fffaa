/* Path choice: which of the equal-cost egress ports toward a destination a
 * switch takes for a frame. One const struct sw_path_ops per policy, one
 * file each (sw_path_ecmp.c, sw_path_first.c), in a plain static registry
 * (sw_path.c); the switch's params name the policy (sw_params.path). A
 * policy sees what a switch may know: the candidate ports, the switch's
 * ports (their queues through port_tc_bytes), the frame's flow hash and a
 * per-flow state slot; it must be deterministic. */
#ifndef FAB_SW_PATH_H
#define FAB_SW_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "port.h"

struct sim;

enum { SW_PATH_FLOW_SLOTS = 4096 /* per-flow slots of a switch whose policy keeps state */ };

/* What stays the same for every choice one switch makes. */
struct sw_path_env {
	const struct port *ports;   /* the switch's ports, by port number */
	const struct sim *sim;      /* its simulation (now_ps) */
	uint8_t *flow_slots;        /* SW_PATH_FLOW_SLOTS x flow_state_bytes, zeroed at
				     * sw_new; NULL when the policy keeps no state */
	uint32_t flow_state_bytes;  /* bytes per slot (the ops' flow_state_bytes) */
};

/* How the switch invokes a policy. A policy leaves kind 0 and is called
 * through pick; the shipped stateless ones are expanded inline by the
 * switch by their kind (a well-predicted switch per choice instead of a
 * call: this is every multi-port hop), and their pick does the same for
 * other callers. */
enum sw_path_kind {
	SW_PATH_CALL,  /* call ops->pick */
	SW_PATH_ECMP,  /* flow hash modulo the group size (sw_path_ecmp.c) */
	SW_PATH_FIRST, /* the first port (sw_path_first.c) */
};

struct sw_path_ops {
	const char *name;           /* "ecmp", "first" */
	uint8_t kind;               /* enum sw_path_kind; SW_PATH_CALL (0) for a new policy */
	size_t flow_state_bytes;    /* per-flow state (a slot per flow hash); 0: none */
	/* The index in @ports[0..@n_ports) of the egress port for a frame of
	 * flow hash @flow_hash, < @n_ports. Called only when @n_ports > 1;
	 * @ports ascend, @magic is UINT64_MAX / @n_ports + 1 (sw_mod). */
	uint32_t (*pick)(const struct sw_path_env *env, const uint16_t *ports, uint32_t n_ports,
			 uint64_t magic, uint32_t flow_hash);
};

/* The state slot of flow hash @flow_hash (flow_state_bytes long; flows
 * whose hashes agree in their low bits share it). Only for policies with
 * flow_state_bytes > 0. */
static inline void *sw_path_flow_state(const struct sw_path_env *env, uint32_t flow_hash)
{
	return env->flow_slots +
	       (size_t)(flow_hash & (SW_PATH_FLOW_SLOTS - 1)) * env->flow_state_bytes;
}

/* Policy by name, NULL if unknown. */
const struct sw_path_ops *sw_path_find(const char *name);
/* NULL-terminated list of the registered names, the default first (for
 * messages, "did you mean" hints and docs). */
const char *const *sw_path_names(void);

#endif
