/* loss: its ports' egress loses frames for its duration: each with a
 * chance (per traffic class, or all), or in bursts (a Gilbert-Elliott
 * chain). */
#include <stddef.h>
#include <string.h>

#include "fault.h"

struct fault_loss_settings {
	double loss;       /* uniform: the chance each frame is lost, 0..1 */
	int tc;            /* uniform: the traffic class it hits, -1 = all */
	bool bursty;       /* gilbert given: the chain below, not loss and tc */
	struct port_ge ge; /* bursty: the chain, per frame */
};

/* tc: all or 0..7. */
static int loss_tc(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct fault_loss_settings *s = params;
	uint64_t v;

	if (n->type == CFG_SCALAR && strcmp(n->str, "all") == 0) {
		s->tc = -1;
		return 0;
	}
	if (cfg_u64(n, 0, PORT_N_TC - 1, &v, err) != 0)
		return -EINVAL;
	s->tc = (int)v;
	return 0;
}

/* gilbert: {p_gb, p_bg, loss_bad, loss_good}: bursty loss. */
static int loss_ge(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "p_gb", "p_bg", "loss_bad", "loss_good", NULL };
	struct fault_loss_settings *s = params;
	double *dst[] = { &s->ge.p_gb, &s->ge.p_bg, &s->ge.loss_bad, &s->ge.loss_good };

	if (cfg_want(n, CFG_MAP, "gilbert ({p_gb, p_bg, loss_bad, loss_good})", err) != 0 ||
	    cfg_check_keys(n, keys, err) != 0)
		return -EINVAL;
	s->ge.loss_bad = 1;
	for (int i = 0; keys[i]; i++) {
		const struct cfg_node *v = cfg_get(n, keys[i]);

		if (!v && i < 2) {
			cfg_errorf(err, n, "gilbert needs 'p_gb' and 'p_bg' (the chances per frame of going bad and back)");
			return -EINVAL;
		}
		if (v && cfg_double(v, 0, 1, dst[i], err) != 0)
			return -EINVAL;
	}
	if (s->ge.p_bg <= 0) {
		cfg_errorf(err, cfg_get(n, "p_bg"), "gilbert: p_bg must be above 0 (the bad state must end)");
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_key loss_keys[] = {
	{ "loss", CFG_KEY_DOUBLE, NULL, .off = offsetof(struct fault_loss_settings, loss), .lo = 0,
	  .hi = 1, .doc = "loss: the chance each frame is lost, 0..1" },
	{ "tc", CFG_KEY_CUSTOM, NULL, .read = loss_tc,
	  .doc = "loss: the traffic class 0..7 it hits, or all (default)" },
	{ "gilbert", CFG_KEY_CUSTOM, NULL, .read = loss_ge,
	  .doc = "loss: bursty, {p_gb, p_bg, loss_bad (1), loss_good (0)} per frame" },
};

static const struct cfg_table loss_table = { .section = "faults", .keys = loss_keys, .n_keys = 3 };

/* One of loss and gilbert; tc all when absent. */
static int loss_validate(const struct exp_fault *x, const struct cfg_node *it,
			 char err[CFG_ERR_BYTES])
{
	struct fault_loss_settings *s = x->settings;

	if (!cfg_get(it, "loss") && !cfg_get(it, "gilbert")) {
		cfg_errorf(err, it, "a loss fault needs 'loss' (a chance per frame) or 'gilbert' (bursty)");
		return -EINVAL;
	}
	if (cfg_get(it, "loss") && cfg_get(it, "gilbert")) {
		cfg_errorf(err, cfg_get(it, "gilbert"), "a loss fault takes 'loss' or 'gilbert', not both");
		return -EINVAL;
	}
	s->bursty = cfg_get(it, "gilbert") != NULL;
	if (!cfg_get(it, "tc"))
		s->tc = -1;
	return 0;
}

static int loss_set(struct fabric_faults *ff, uint32_t i, bool on)
{
	struct fabric *f = fault_fabric(ff);
	const struct exp_fault *x = fault_get(ff, i);
	const struct fault_loss_settings *s = x->settings;
	int rc = 0;

	for (uint32_t k = 0; k < x->n_ports && rc == 0; k++) {
		struct port *p = fault_port(f, x, k);

		if (s->bursty)
			rc = port_fault_set_ge(p, on ? &s->ge : NULL);
		else
			rc = port_fault_set_loss(p, s->tc, on ? s->loss : 0);
	}
	return rc;
}

static int loss_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return loss_set(ff, i, true);
}

static int loss_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return loss_set(ff, i, false);
}

const struct fault_ops fault_loss = {
	.params_only = true,
	.kind = { "loss",
		  "the ports' egress loses frames: uniform per class, or bursty (Gilbert-Elliott)",
		  &loss_table, sizeof(struct fault_loss_settings) },
	.need = "ports",
	.allow = "loss tc gilbert duration",
	.egress = true,
	.log_start = "loss on",
	.log_end = "loss off",
	.validate = loss_validate,
	.splits = true,
	.act = loss_act,
	.undo = loss_undo,
};
