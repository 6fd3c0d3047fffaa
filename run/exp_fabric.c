/* The run module's part of the fabric: section: the settings of the fabric
 * as a whole (random link loss, per-link rate and delay overrides, PFC on
 * or off, ports with PFC disabled, deadlock detection), beside the switch's keys (switch/sw_cfg.c), and the
 * marks that later warnings and errors point at. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "exp_int.h"
#include "units.h"

static int exp_pfc_off(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	return exp_port_list(e, n, "pfc.disabled_ports", false, &e->pfc_off, &e->pfc_off_marks,
			     &e->n_pfc_off, err);
}

/* links: [{ports: [NODE:PORT, ...], rate: R, delay: D}]: the links at
 * those ports (patterns allowed) get this rate and/or delay instead of
 * their topology's: a slow NIC, a degraded cable. Later entries win. */
static int exp_links(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "ports", "rate", "delay", NULL };
	struct exp *e = params;

	if (cfg_want(n, CFG_SEQ, "links (a list of {ports, rate, delay})", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct cfg_node *it = n->items[i], *pn, *rn, *dn;
		struct exp_capture *ports = NULL;
		uint64_t rate = 0, delay = 0;
		uint32_t n_ports = 0;
		int rc;

		if (cfg_want(it, CFG_MAP, "a link override ({ports, rate, delay})", err) != 0 ||
		    cfg_check_keys(it, keys, err) != 0)
			return -EINVAL;
		pn = cfg_get(it, "ports");
		rn = cfg_get(it, "rate");
		dn = cfg_get(it, "delay");
		if (!pn || (!rn && !dn)) {
			cfg_errorf(err, it, "a link override needs 'ports' and a 'rate' or a 'delay'");
			return -EINVAL;
		}
		if ((rn && cfg_rate(rn, 1, &rate, err) != 0) || (dn && cfg_time_max(dn, UNITS_LINK_DELAY_MAX_PS, UNITS_LINK_DELAY_WHY, &delay, err) != 0))
			return -EINVAL;
		if ((rc = exp_port_list(e, pn, "links.ports", false, &ports, NULL, &n_ports, err)) != 0)
			return rc;
		for (uint32_t k = 0; k < n_ports; k++) {
			struct topo_link *l = &e->topo->links[e->topo->nodes[ports[k].node].port_links[ports[k].port]];

			if (rn)
				l->rate_bps = rate;
			if (dn)
				l->delay_ps = delay;
		}
		free(ports);
	}
	return 0;
}

/* PFC off (enabled: false) turns off the switch's lossless priorities and
 * the deadlock check alike. */
static int exp_pfc_check(const struct cfg_node *p, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	(void)err;
	e->headroom_mark = cfg_get(p, "headroom")->mark;
	if (!e->pfc_enabled) {
		e->sw.pfc.lossless_prio = 0;
		e->deadlock_check_ps = 0;
	}
	return 0;
}

static const struct cfg_key exp_pfc_keys[] = {
	{ "enabled", CFG_KEY_BOOL, "true", .off = offsetof(struct exp, pfc_enabled),
	  .doc = "false turns the block off (handy with --set)" },
	{ "deadlock_check", CFG_KEY_TIME, "1ms", .off = offsetof(struct exp, deadlock_check_ps),
	  .doc = "period of the cyclic-buffer-dependency check, 0s = off" },
	{ "disabled_ports", CFG_KEY_CUSTOM, NULL, .read = exp_pfc_off,
	  .doc = "ports (node:port) that neither send nor honour pauses" },
};

static const struct cfg_table exp_pfc_table = {
	.section = "fabric.pfc",
	.keys = exp_pfc_keys,
	.n_keys = sizeof(exp_pfc_keys) / sizeof(exp_pfc_keys[0]),
	.check = exp_pfc_check,
};

static const struct cfg_sub exp_pfc_subs[] = { { &exp_pfc_table, 0 }, { NULL, 0 } };

/* Switch-buffer errors found at assembly point at the buffer's setting. */
static int exp_fabric_check(const struct cfg_node *f, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	(void)err;
	e->buffer_mark = cfg_get(f, "buffer")->mark;
	if (!cfg_get(f, "convergence"))
		e->convergence_ps = EXP_CONVERGENCE_PS;
	return 0;
}

static const struct cfg_key exp_fabric_keys[] = {
	{ "loss", CFG_KEY_DOUBLE, "0", .off = offsetof(struct exp, loss), .lo = 0, .hi = 1,
	  .doc = "random frame loss per link direction, 0..1" },
	{ "pfc", CFG_KEY_SECTION, NULL, .subs = exp_pfc_subs, .what = "pfc",
	  .doc = "priority flow control; absent: no PFC" },
	{ "convergence", CFG_KEY_TIME, NULL, .off = offsetof(struct exp, convergence_ps),
	  .doc = "after a link goes down or up (faults:), every switch's forwarding is recomputed this much later; absent: 1ms" },
	{ "links", CFG_KEY_CUSTOM, NULL, .read = exp_links,
	  .doc = "per-link rate or delay: [{ports: [node1/nic3:0], rate: 200Gbps, delay: 2us}]" },
};

const struct cfg_table exp_fabric_table = {
	.section = "fabric",
	.keys = exp_fabric_keys,
	.n_keys = sizeof(exp_fabric_keys) / sizeof(exp_fabric_keys[0]),
	.check = exp_fabric_check,
};
