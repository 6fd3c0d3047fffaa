/* pfc-storm: a port keeps sending XOFF for a priority (the longest pause,
 * refreshed every half of it, so the peer never resumes) for its
 * duration. */
#include <stddef.h>

#include "port_pfc.h"
#include "storm.h"

struct fault_pfc_storm_settings {
	uint32_t priority; /* the priority its XOFFs pause, 0..7 */
};

static const struct cfg_key pfc_storm_keys[] = {
	{ "priority", CFG_KEY_UINT, NULL, .off = offsetof(struct fault_pfc_storm_settings, priority),
	  .size = 4, .min = 0, .max = PKT_N_PRIO - 1,
	  .doc = "pfc-storm: the priority its XOFFs pause; slow-receiver: the one it pauses (absent: all)" },
};

static const struct cfg_table pfc_storm_table = { .section = "faults", .keys = pfc_storm_keys,
						  .n_keys = 1 };

static int pfc_storm_init(struct fabric_faults *ff, uint32_t i, void *state)
{
	struct fault_storm *s = state;
	const struct exp_fault *x = fault_get(ff, i);
	struct port *p = fault_port(fault_fabric(ff), x, 0);

	s->quanta = UINT16_MAX;
	s->period_ps = port_pfc_quanta_ps(p, UINT16_MAX) / 2;
	s->mask = (uint8_t)(1u << ((const struct fault_pfc_storm_settings *)x->settings)->priority);
	fault_storm_init(ff, i, s);
	return 0;
}

const struct fault_ops fault_pfc_storm = {
	.kind = { "pfc-storm", "a port keeps sending XOFF for a priority", &pfc_storm_table,
		  sizeof(struct fault_pfc_storm_settings) },
	.need = "ports priority",
	.allow = "duration",
	.egress = true,
	.log_start = "pfc storm start",
	.log_end = "pfc storm end",
	.state_size = sizeof(struct fault_storm),
	.validate = fault_storm_validate,
	.init = pfc_storm_init,
	.splits = true,
	.act = fault_storm_act,
	.undo = fault_storm_undo,
	.count = fault_storm_count,
};
