/* flap: the links at its ports go down and up count times, down for the
 * first half of each period and up for the second. */
#include <stddef.h>

#include "fault.h"

struct fault_flap_settings {
	uint64_t period_ps; /* one down and up, ps */
	uint32_t count;     /* times down */
};

static const struct cfg_key flap_keys[] = {
	{ "period", CFG_KEY_TIME, NULL, .off = offsetof(struct fault_flap_settings, period_ps),
	  .doc = "flap: down for the first half of each period, up for the second" },
	{ "count", CFG_KEY_UINT, NULL, .off = offsetof(struct fault_flap_settings, count), .size = 4,
	  .min = 1, .max = 1000000, .doc = "flap: how many times the links go down" },
};

static const struct cfg_table flap_table = { .section = "faults", .keys = flap_keys, .n_keys = 2 };

static int flap_validate(const struct exp_fault *x, const struct cfg_node *it,
			 char err[CFG_ERR_BYTES])
{
	const struct fault_flap_settings *s = x->settings;

	if (s->period_ps < 2) {
		cfg_errorf(err, cfg_get(it, "period"), "flap: the period must be above 0");
		return -EINVAL;
	}
	return 0;
}

static unsigned __int128 flap_end(const struct exp_fault *x)
{
	const struct fault_flap_settings *s = x->settings;

	return (unsigned __int128)x->at_ps + (unsigned __int128)s->count * s->period_ps;
}

static int flap_arm(struct fabric_faults *ff, uint32_t i, const struct exp_fault *x)
{
	const struct fault_flap_settings *s = x->settings;
	int rc = 0;

	for (uint32_t k = 0; k < s->count && rc == 0; k++) {
		uint64_t t = x->at_ps + (uint64_t)k * s->period_ps;

		rc = fault_plan_add(ff, t, i, true);
		if (rc == 0)
			rc = fault_plan_add(ff, t + s->period_ps / 2, i, false);
	}
	return rc;
}

static int flap_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, true, false);
}

static int flap_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return fault_links(ff, i, false, false);
}

const struct fault_ops fault_flap = {
	.kind = { "flap", "down and up count times, half a period each", &flap_table,
		  sizeof(struct fault_flap_settings) },
	.need = "ports period count",
	.allow = "",
	.log_start = "down",
	.log_end = "up",
	.validate = flap_validate,
	.end = flap_end,
	.arm = flap_arm,
	.splits = true,
	.act = flap_act,
	.undo = flap_undo,
};
