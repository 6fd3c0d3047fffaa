/* rate: the links at its ports run at another rate for its duration (a
 * 400G port falling back to 200G), then at their own again. */
#include <stddef.h>

#include "fault.h"

struct fault_rate_settings {
	uint64_t rate_bps; /* the links' rate meanwhile, bit/s */
};

static const struct cfg_key rate_keys[] = {
	{ "rate", CFG_KEY_RATE, NULL, .off = offsetof(struct fault_rate_settings, rate_bps),
	  .min = 1000000,
	  .doc = "rate: the links' rate meanwhile (a 400G port falling back to 200G); slow-receiver: its drain rate" },
};

static const struct cfg_table rate_table = { .section = "faults", .keys = rate_keys, .n_keys = 1 };

static int rate_set(struct fabric_faults *ff, uint32_t i, bool on)
{
	struct fabric *f = fault_fabric(ff);
	const struct exp_fault *x = fault_get(ff, i);
	const struct fault_rate_settings *s = x->settings;

	for (uint32_t k = 0; k < x->n_ports; k++)
		port_link_set_rate(fault_port(f, x, k),
				   on ? s->rate_bps : f->topo->links[fault_link(f, x, k)].rate_bps);
	return 0;
}

static int rate_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return rate_set(ff, i, true);
}

static int rate_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return rate_set(ff, i, false);
}

const struct fault_ops fault_rate = {
	.params_only = true,
	.kind = { "rate", "the links run at another rate (for duration)", &rate_table,
		  sizeof(struct fault_rate_settings) },
	.need = "ports rate",
	.allow = "duration",
	.log_start = "rate",
	.log_end = "rate restored",
	.splits = true,
	.act = rate_act,
	.undo = rate_undo,
};
