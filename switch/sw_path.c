/* The path-choice registry (see sw_path.h, core/reg.h): the built-in
 * policies, the default (ecmp) first, and those sw_path_register adds; the
 * state a switch keeps for its policy; and the least-loaded choice that
 * load-aware policies share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sw_int.h"

/* Entity id of a switch's path-choice stream under its seed (rng_init):
 * apart from every other stream derived from the same seed. */
static const uint64_t sw_path_rng_id = UINT64_C(0x7061746863686f73);

/* A policy being registered: a pick, no settings (fabric.path's keys are
 * the policies' settings), and no inline expansion but the built-in
 * ones' (sw.c expands SW_PATH_ECMP and SW_PATH_FIRST itself). */
static int sw_path_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct sw_path_ops *ops = REG_OPS(struct sw_path_ops, k);
	const char *why = NULL;

	if (!ops->pick)
		why = "no pick";
	else if (k->settings)
		why = "settings of its own (the policies' settings are fabric.path's keys)";
	else if (ops->expand != SW_PATH_CALL && ops != &sw_path_ecmp_ops &&
		 ops != &sw_path_first_ops)
		why = "an inline expansion of a built-in policy";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "path-choice policy '%s': %s", k->name, why);
		return -EINVAL;
	}
	return 0;
}

/* The built-in policies, the default (ecmp) first: one line each. */
#define SW_PATH_BUILTIN(X) \
	X(struct sw_path_ops, sw_path_ecmp_ops) \
	X(struct sw_path_ops, sw_path_first_ops) \
	X(struct sw_path_ops, sw_path_spray_ops) \
	X(struct sw_path_ops, sw_path_rr_ops) \
	X(struct sw_path_ops, sw_path_flowlet_ops) \
	X(struct sw_path_ops, sw_path_adaptive_ops)

SW_PATH_BUILTIN(REG_DECLARE)

static const struct reg_kind *const sw_path_builtin[] = { SW_PATH_BUILTIN(REG_ENTRY) NULL };

static struct reg sw_path_reg = REG_INIT("path-choice policy", sw_path_builtin, sw_path_check);

int sw_path_register(const struct sw_path_ops *ops, char err[CFG_ERR_BYTES])
{
	return reg_add(&sw_path_reg, &ops->kind, err);
}

const struct sw_path_ops *sw_path_find(const char *name)
{
	const struct reg_kind *k = reg_find(&sw_path_reg, name);

	return k ? REG_OPS(struct sw_path_ops, k) : NULL;
}

int sw_path_read(const struct cfg_node *n, const struct sw_path_ops **out,
		 char err[CFG_ERR_BYTES])
{
	const struct reg_kind *k;
	int rc = reg_read(&sw_path_reg, n, &k, err);

	if (rc == 0)
		*out = REG_OPS(struct sw_path_ops, k);
	return rc;
}

const char *const *sw_path_names(void)
{
	return reg_names(&sw_path_reg);
}

int sw_path_env_init(struct sw_path_env *env, const struct sw_path_ops *ops,
		     const struct sw_path_params *p, const struct port *ports,
		     const struct sim *sim, uint64_t seed)
{
	memset(env, 0, sizeof(*env));
	rng_init(&env->rng, seed, sw_path_rng_id);
	env->ports = ports;
	env->sim = sim;
	env->p = *p;
	env->flow_state_bytes = (uint32_t)ops->flow_state_bytes;
	env->grp_state_bytes = (uint32_t)ops->grp_state_bytes;
	if (ops->flow_state_bytes &&
	    !(env->flow_slots = calloc(SW_PATH_FLOW_SLOTS, ops->flow_state_bytes)))
		return -ENOMEM;
	return 0;
}

void sw_path_env_fini(struct sw_path_env *env)
{
	free(env->flow_slots);
	free(env->grp_slots);
	env->flow_slots = NULL;
	env->grp_slots = NULL;
	env->n_grps = 0;
}

uint32_t sw_path_least_loaded(struct sw_path_env *env, const uint16_t *ports, uint32_t n_ports,
			      uint32_t keep, uint64_t bias_bytes)
{
	uint64_t least = UINT64_MAX;
	uint32_t n_least = 0, k;

	/* Pass 1: the least load and how many ports have it. */
	for (uint32_t i = 0; i < n_ports; i++) {
		uint64_t q = sw_path_load(env, ports[i]);

		if (q < least) {
			least = q;
			n_least = 1;
		} else if (q == least) {
			n_least++;
		}
	}
	if (keep < n_ports && sw_path_load(env, ports[keep]) - least <= bias_bytes)
		return keep;
	if (n_least == 1)
		k = 0;
	else
		k = (uint32_t)rng_below(&env->rng, n_least);
	/* Pass 2: the k-th of them (the last port, if none before it). */
	for (uint32_t i = 0; i + 1 < n_ports; i++)
		if (sw_path_load(env, ports[i]) == least && k-- == 0)
			return i;
	return n_ports - 1;
}
