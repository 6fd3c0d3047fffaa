/* The path-choice registry (see sw_path.h): a plain static array of the
 * policies, the default (ecmp) first; the state a switch keeps for its
 * policy; and the least-loaded choice that load-aware policies share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sw_int.h"

/* Entity id of a switch's path-choice stream under its seed (rng_init):
 * apart from every other stream derived from the same seed. */
static const uint64_t sw_path_rng_id = UINT64_C(0x7061746863686f73);

static const struct sw_path_ops *const sw_path_registry[] = {
	&sw_path_ecmp_ops,
	&sw_path_first_ops,
	&sw_path_spray_ops,
	&sw_path_rr_ops,
	&sw_path_flowlet_ops,
	&sw_path_adaptive_ops,
};

static const char *const sw_path_registry_names[] = {
	"ecmp",
	"first",
	"spray",
	"round-robin",
	"flowlet",
	"adaptive",
	NULL,
};

_Static_assert(sizeof(sw_path_registry) / sizeof(sw_path_registry[0]) + 1 ==
		       sizeof(sw_path_registry_names) / sizeof(sw_path_registry_names[0]),
	       "a name per registered policy");

const struct sw_path_ops *sw_path_find(const char *name)
{
	for (size_t i = 0; i < sizeof(sw_path_registry) / sizeof(sw_path_registry[0]); i++)
		if (strcmp(sw_path_registry[i]->name, name) == 0)
			return sw_path_registry[i];
	return NULL;
}

const char *const *sw_path_names(void)
{
	return sw_path_registry_names;
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
