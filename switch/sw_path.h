/* Path choice: which of the equal-cost egress ports toward a destination a
 * switch takes for a frame. One const struct sw_path_ops per policy, one
 * file each (sw_path_ecmp.c, sw_path_first.c, sw_path_spray.c,
 * sw_path_rr.c, sw_path_flowlet.c, sw_path_adaptive.c) plus one line in
 * the built-in list of the registry (sw_path.c, core/reg.h), or added with
 * sw_path_register; the switch's params name the policy (sw_params.path).
 * A policy sees what a switch may know: the candidate ports and their group,
 * the switch's ports (their queues through port_queue_bytes), the frame's
 * flow hash, the time, and state the switch keeps for it (a slot per flow
 * hash, a slot per group, a random stream); given the switch's seed and the
 * same frames at the same times it must choose the same. */
#ifndef FAB_SW_PATH_H
#define FAB_SW_PATH_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "port.h"
#include "port_credit.h"
#include "reg.h"
#include "rng.h"
#include "sim.h"

struct sim;

enum {
	SW_PATH_FLOW_SLOTS = 4096, /* per-flow slots of a switch whose policy keeps state */
	SW_PATH_N_TIERS = 3,       /* topology tiers with a policy of their own: leaf, spine, core */
};

/* How flowlet switching picks the port of a new flowlet. */
enum sw_path_flowlet_pick {
	SW_PATH_FLOWLET_RANDOM,       /* uniformly at random (LetFlow) */
	SW_PATH_FLOWLET_LEAST_LOADED, /* the port with the fewest queued bytes */
};

/* The policies' settings (fabric.path, sw_cfg.c); each reads its own. */
struct sw_path_params {
	uint64_t flowlet_gap_ps;                /* flowlet: an idle gap longer than this
						 * starts a new flowlet (> 0) */
	uint64_t adaptive_bias_bytes;           /* adaptive: keep the hash port unless
						 * another's queue is shorter by more */
	enum sw_path_flowlet_pick flowlet_pick; /* flowlet: choice of a new flowlet's port */
};

/* What a policy sees of its switch and may change (its state): the same
 * for every choice the switch makes. */
struct sw_path_env {
	struct rng rng;             /* the switch's path-choice stream (seeded from
				     * its hash_seed) */
	const struct port *ports;   /* the switch's ports, by port number */
	const struct sim *sim;      /* its simulation (now_ps) */
	uint8_t *flow_slots;        /* SW_PATH_FLOW_SLOTS x flow_state_bytes, zeroed at
				     * start; NULL when the policy keeps none */
	uint8_t *grp_slots;         /* n_grps x grp_state_bytes, zeroed whenever the
				     * groups are built; NULL when the policy keeps none */
	uint32_t flow_state_bytes;  /* bytes per flow slot (the ops' flow_state_bytes) */
	uint32_t grp_state_bytes;   /* bytes per group slot (the ops' grp_state_bytes) */
	uint32_t n_grps;            /* groups with a slot */
	struct sw_path_params p;    /* settings */
};

/* How the switch invokes a policy. A policy leaves expand 0 and is called
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
	struct reg_kind kind;       /* name ("ecmp", "first", "spray", ...), doc; first.
				     * No settings of its own: fabric.path's keys
				     * fill struct sw_path_params */
	uint8_t expand;             /* enum sw_path_kind; SW_PATH_CALL (0) for a new policy */
	size_t flow_state_bytes;    /* per-flow state (a slot per flow hash); 0: none */
	size_t grp_state_bytes;     /* per-group state (a slot per ECMP group, zeroed when
				     * the groups are rebuilt, sw_set_fib); 0: none */
	/* The index in @ports[0..@n_ports) of the egress port for a frame of
	 * flow hash @flow_hash, < @n_ports, for group @grp (< env->n_grps when
	 * the policy keeps group state). Called only when @n_ports > 1;
	 * @ports ascend, @magic is UINT64_MAX / @n_ports + 1 (sw_mod). Runs
	 * per frame: no allocation, no strings. Required. */
	uint32_t (*pick)(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
			 uint32_t n_ports, uint64_t magic, uint32_t flow_hash);
};

/* The state slot of flow hash @flow_hash (flow_state_bytes long; flows
 * whose hashes agree in their low bits share it, as flows of different
 * groups may). Only for policies with flow_state_bytes > 0. */
static inline void *sw_path_flow_state(const struct sw_path_env *env, uint32_t flow_hash)
{
	return env->flow_slots +
	       (size_t)(flow_hash & (SW_PATH_FLOW_SLOTS - 1)) * env->flow_state_bytes;
}

/* The state slot of group @grp (< env->n_grps). Only for policies with
 * grp_state_bytes > 0. */
static inline void *sw_path_grp_state(const struct sw_path_env *env, uint32_t grp)
{
	assert(grp < env->n_grps);
	return env->grp_slots + (size_t)grp * env->grp_state_bytes;
}

/* What the switch's port @port still has to send, all traffic classes
 * and the frame on the wire (port_backlog_bytes: the load a load-aware
 * policy compares), and on InfiniBand what it sent that the next hop
 * still holds (its credits owed: a port whose downstream is backed up
 * looks loaded before its own queue grows, as IB adaptive routing weighs
 * queue and credit state); UINT64_MAX when its link is down, so that a
 * load-aware policy avoids a dead port at once (the others keep it until
 * the forwarding is recomputed). */
static inline uint64_t sw_path_load(const struct sw_path_env *env, uint16_t port)
{
	const struct port *p = &env->ports[port];

	if (unlikely(!port_up(p)))
		return UINT64_MAX;
	if (unlikely(p->flags & PORT_F_CREDIT))
		return port_backlog_bytes(p, env->sim->now_ps) + port_credit_owed_bytes(p);
	return port_backlog_bytes(p, env->sim->now_ps);
}

/* The index of the least-loaded port of @ports[0..@n_ports) (sw_path_load),
 * equally loaded ones drawn uniformly from env->rng (never the lowest by
 * rule: that would pile an idle fabric's traffic onto one port); but
 * @keep (an index, or UINT32_MAX for none) when its load is within
 * @bias_bytes of the least. Two passes over the ports, at most one draw. */
uint32_t sw_path_least_loaded(struct sw_path_env *env, const uint16_t *ports, uint32_t n_ports,
			      uint32_t keep, uint64_t bias_bytes);

/* Set up @env for policy @ops with settings @p on a switch of @ports in
 * @sim, its stream from @seed: zeroed flow slots if @ops keeps flow state,
 * no group slots yet (the switch gives them with its groups: sw.c,
 * sw_fib_commit). Returns 0 or -ENOMEM (then sw_path_env_fini is still
 * fine). */
int sw_path_env_init(struct sw_path_env *env, const struct sw_path_ops *ops,
		     const struct sw_path_params *p, const struct port *ports,
		     const struct sim *sim, uint64_t seed);
/* Free what sw_path_env_init allocated, and the group slots. */
void sw_path_env_fini(struct sw_path_env *env);

/* Register policy @ops after the built-in ones (at program start, before
 * experiments are read): 0, or -EINVAL / -ENOSPC with @err filled (a
 * name taken or empty, no doc line, no pick, settings of its own, or an
 * inline expansion other than SW_PATH_CALL). */
int sw_path_register(const struct sw_path_ops *ops, char err[CFG_ERR_BYTES]);
/* Policy by name, NULL if unknown. */
const struct sw_path_ops *sw_path_find(const char *name);
/* Read a policy's name from @n (fabric.path.policy and the tier keys):
 * 0, or -EINVAL with "unknown value ... did you mean" filled. */
int sw_path_read(const struct cfg_node *n, const struct sw_path_ops **out,
		 char err[CFG_ERR_BYTES]);
/* NULL-terminated list of the registered names, the default first, in
 * registry order (for messages, "did you mean" hints and docs). */
const char *const *sw_path_names(void);

#endif
