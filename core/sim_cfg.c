/* The `engine:` section of an experiment: settings of the simulator
 * itself, read into struct sim_params by the schema walker. */
#include <stddef.h>

#include "cfg_schema.h"
#include "sim.h"

static const struct cfg_key sim_cfg_keys[] = {
	{ "packet_pool", CFG_KEY_UINT, NULL, .off = offsetof(struct sim_params, pool_pkts),
	  .size = 4, .min = 1024, .max = UINT64_C(1) << 26,
	  .doc = "mbufs in the packet pool; absent: sized from the fabric and the traffic" },
	{ "no_progress", CFG_KEY_TIME, "1s", .off = offsetof(struct sim_params, no_progress_ps),
	  .doc = "stop a run in which events go on but no data frame moves for this long (0s: never)" },
};

const struct cfg_table sim_cfg_table = {
	.section = "engine",
	.keys = sim_cfg_keys,
	.n_keys = sizeof(sim_cfg_keys) / sizeof(sim_cfg_keys[0]),
};
