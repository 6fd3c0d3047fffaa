/* corrupt: its ports' egress corrupts frames at a bit error rate for its
 * duration; receivers drop them at their FCS check. */
#include <stddef.h>

#include "fault.h"

struct fault_corrupt_settings {
	double ber; /* bit error rate, 0..1e-3 */
};

static const struct cfg_key corrupt_keys[] = {
	{ "ber", CFG_KEY_DOUBLE, NULL, .off = offsetof(struct fault_corrupt_settings, ber), .lo = 0,
	  .hi = 1e-3, .doc = "corrupt: bit error rate, up to 1e-3" },
};

static const struct cfg_table corrupt_table = { .section = "faults", .keys = corrupt_keys,
						.n_keys = 1 };

static int corrupt_set(struct fabric_faults *ff, uint32_t i, double ber)
{
	struct fabric *f = fault_fabric(ff);
	const struct exp_fault *x = fault_get(ff, i);
	int rc = 0;

	for (uint32_t k = 0; k < x->n_ports && rc == 0; k++)
		rc = port_fault_set_ber(fault_port(f, x, k), ber);
	return rc;
}

static int corrupt_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return corrupt_set(ff, i, ((const struct fault_corrupt_settings *)fault_get(ff, i)->settings)->ber);
}

static int corrupt_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return corrupt_set(ff, i, 0);
}

const struct fault_ops fault_corrupt = {
	.params_only = true,
	.kind = { "corrupt", "the ports' egress corrupts frames at a bit error rate", &corrupt_table,
		  sizeof(struct fault_corrupt_settings) },
	.need = "ports ber",
	.allow = "duration",
	.egress = true,
	.log_start = "corruption on",
	.log_end = "corruption off",
	.splits = true,
	.act = corrupt_act,
	.undo = corrupt_undo,
};
