/* The path-choice keys of the `fabric:` section (fabric.path): the policy
 * (a registered one, sw_path.h), its per-tier overrides and the policies'
 * settings, read into struct sw_params (sw_cfg.c holds the section). */
#include <errno.h>

#include "sw_cfg_int.h"
#include "sw_path.h"

/* ---- path choice ---- */

static const char *const sw_cfg_flowlet_picks[] = { "random", "least-loaded", NULL };

static int sw_cfg_path_policy(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_path_read(n, &p->path, err);
}

/* The overrides of tiers 1..3 (leaf, spine, core). */
static int sw_cfg_path_leaf(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_path_read(n, &p->path_tier[0], err);
}

static int sw_cfg_path_spine(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_path_read(n, &p->path_tier[1], err);
}

static int sw_cfg_path_core(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_path_read(n, &p->path_tier[2], err);
}

static int sw_cfg_flowlet_gap(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (cfg_time(n, &p->path_params.flowlet_gap_ps, err) != 0)
		return -EINVAL;
	if (!p->path_params.flowlet_gap_ps) {
		cfg_errorf(err, n, "flowlet_gap must be above 0 (a gap of 0 would make every frame a flowlet: that is spray)");
		return -EINVAL;
	}
	return 0;
}

/* flowlet_gap: 500 us, the flowlet timeout of CONGA's and LetFlow's
 * hardware (Alizadeh et al., SIGCOMM 2014; Vanini et al., NSDI 2017);
 * docs/config.md says why it suits this fabric's defaults. */
static const struct cfg_key sw_cfg_path_keys[] = {
	{ "policy", CFG_KEY_CUSTOM, "ecmp", .read = sw_cfg_path_policy,
	  .doc = "choice among equal-cost ports (a registered policy, docs/extending/path-policy.md)" },
	{ "leaf", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_path_leaf,
	  .doc = "policy of tier-1 switches (leaf, edge); absent: policy" },
	{ "spine", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_path_spine,
	  .doc = "policy of tier-2 switches (spine, aggregation); absent: policy" },
	{ "core", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_path_core,
	  .doc = "policy of tier-3 switches (core); absent: policy" },
	{ "flowlet_gap", CFG_KEY_CUSTOM, "500us", .read = sw_cfg_flowlet_gap,
	  .doc = "flowlet: an idle gap longer than this starts a new flowlet (> 0)" },
	{ "flowlet_pick", CFG_KEY_ENUM, "random", .off = SW_CFG_OFF(path_params.flowlet_pick),
	  .names = sw_cfg_flowlet_picks, .doc = "flowlet: port of a new flowlet (random, least-loaded)" },
	{ "adaptive_bias", CFG_KEY_SIZE, "0B", .off = SW_CFG_OFF(path_params.adaptive_bias_bytes),
	  .size = 8, .min = 0, .max = UINT64_C(1) << 40,
	  .doc = "adaptive: keep the ECMP port unless another's queue is shorter by more" },
};

static const struct cfg_table sw_cfg_path_table = {
	.section = "fabric.path",
	.keys = sw_cfg_path_keys,
	.n_keys = sizeof(sw_cfg_path_keys) / sizeof(sw_cfg_path_keys[0]),
};

const struct cfg_sub sw_cfg_path_subs[] = { { &sw_cfg_path_table, 0 }, { NULL, 0 } };
