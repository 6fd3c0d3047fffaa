/* slow-receiver: a host's port drains at a rate below its link's: every
 * period P (50 us, or half the longest pause where that is shorter) it
 * pauses the link (PFC) for (1 - R/B) P, so the peer sends for R/B of
 * each period. */
#include <stddef.h>

#include "port_pfc.h"
#include "storm.h"

/* A slow receiver's pause period (shorter where the longest pause is). */
#define FAULT_SLOW_PERIOD_PS UINT64_C(50000000)

struct fault_slow_receiver_settings {
	uint64_t rate_bps; /* its drain rate, bit/s, below its link's */
	uint32_t priority; /* the priority it pauses, 0..7 (given) */
	uint8_t mask;      /* the priorities it pauses: priority's, or all eight */
};

static const struct cfg_key slow_receiver_keys[] = {
	{ "rate", CFG_KEY_RATE, NULL, .off = offsetof(struct fault_slow_receiver_settings, rate_bps),
	  .min = 1000000,
	  .doc = "rate: the links' rate meanwhile (a 400G port falling back to 200G); slow-receiver: its drain rate" },
	{ "priority", CFG_KEY_UINT, NULL,
	  .off = offsetof(struct fault_slow_receiver_settings, priority), .size = 4, .min = 0,
	  .max = PKT_N_PRIO - 1,
	  .doc = "pfc-storm: the priority its XOFFs pause; slow-receiver: the one it pauses (absent: all)" },
};

static const struct cfg_table slow_receiver_table = { .section = "faults",
						      .keys = slow_receiver_keys, .n_keys = 2 };

static int slow_receiver_validate(const struct exp_fault *x, const struct cfg_node *it,
				  char err[CFG_ERR_BYTES])
{
	struct fault_slow_receiver_settings *s = x->settings;
	const struct topo_node *tn;
	uint64_t line;

	if (fault_storm_validate(x, it, err) != 0)
		return -EINVAL;
	tn = &x->e->topo->nodes[x->ports[0].node];
	line = x->e->topo->links[tn->port_links[x->ports[0].port]].rate_bps;
	if (tn->kind != TOPO_HOST) {
		cfg_errorf(err, cfg_get(it, "ports"), "a slow receiver is a host's port, not %s's", tn->name);
		return -EINVAL;
	}
	if (s->rate_bps >= line) {
		cfg_errorf(err, cfg_get(it, "rate"), "a slow receiver drains below its link's rate (%llu bit/s)",
			   (unsigned long long)line);
		return -EINVAL;
	}
	s->mask = cfg_get(it, "priority") ? (uint8_t)(1u << s->priority) : UINT8_MAX;
	return 0;
}

/* Draining at R of a link of B: quanta = (1 - R/B) P / (512 bit times),
 * rounded to the nearest. */
static int slow_receiver_init(struct fabric_faults *ff, uint32_t i, void *state)
{
	struct fault_storm *s = state;
	const struct exp_fault *x = fault_get(ff, i);
	const struct fault_slow_receiver_settings *set = x->settings;
	struct port *p = fault_port(fault_fabric(ff), x, 0);
	uint64_t longest = port_pfc_quanta_ps(p, UINT16_MAX);

	s->period_ps = FAULT_SLOW_PERIOD_PS < longest / 2 ? FAULT_SLOW_PERIOD_PS : longest / 2;
	s->quanta = (uint16_t)(((unsigned __int128)(port_rate_bps(p) - set->rate_bps) * s->period_ps /
				  UNITS_PS_PER_S + PORT_PFC_QUANTUM_BITS / 2) /
			       PORT_PFC_QUANTUM_BITS);
	s->mask = set->mask;
	fault_storm_init(ff, i, s);
	return 0;
}

const struct fault_ops fault_slow_receiver = {
	.kind = { "slow-receiver",
		  "a receiver drains at a rate below its link's: its port pauses the link for the rest of each period (PFC)",
		  &slow_receiver_table, sizeof(struct fault_slow_receiver_settings) },
	.need = "ports rate",
	.allow = "priority duration",
	.egress = true,
	.log_start = "slow receiver start",
	.log_end = "slow receiver end",
	.state_size = sizeof(struct fault_storm),
	.validate = slow_receiver_validate,
	.init = slow_receiver_init,
	.splits = true,
	.act = fault_storm_act,
	.undo = fault_storm_undo,
	.count = fault_storm_count,
};
