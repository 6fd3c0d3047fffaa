/* The run module's part of the fabric: section: the settings of the fabric
 * as a whole (random link loss, per-link rate and delay overrides, PFC on
 * or off, ports with PFC disabled, deadlock detection, the link layer:
 * its settings are its own section, linklayers/), beside the switch's keys (switch/sw_cfg.c), and the
 * marks that later warnings and errors point at; the checks of the
 * switch's keys that need the topology (ECN curves and INT records per
 * link rate). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "link_layer.h"
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

/* link_layer: a registered link layer (linklayers/). */
static int exp_link_layer(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;
	const struct reg_kind *k;

	if (reg_read(link_layer_reg(), n, &k, err) != 0)
		return -EINVAL;
	e->ll = REG_OPS(struct link_layer_ops, k);
	return 0;
}

/* fabric.ecn.by_rate with no curve for other rates (sw_params_port_red):
 * every switch port's link rate (after fabric.links) must be listed; the
 * first that is not is an error at by_rate, as the HPCC ns-3 simulator
 * refuses a rate its KMIN_MAP lacks. */
static int exp_ecn_rates(const struct exp *e, const struct cfg_node *f, char err[CFG_ERR_BYTES])
{
	const struct topo *t = e->topo;
	struct sw_red_params red;

	if (!e->ll->eth_switch || !e->sw.ecn_tc_mask || !e->sw.red_by_rate_only)
		return 0;
	for (uint32_t i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		for (int s = 0; s < 2; s++) {
			char r[32];

			if (t->nodes[l->node[s]].kind != TOPO_SWITCH ||
			    sw_params_port_red(&e->sw, l->rate_bps, &red) == 0)
				continue;
			units_fmt_rate(r, sizeof(r), l->rate_bps);
			cfg_errorf(err, cfg_get(cfg_get(f, "ecn"), "by_rate"),
				   "%s:%u runs at %s, which fabric.ecn.by_rate does not list: add an entry for that rate, or give the top-level kmin and kmax for the rates it does not list",
				   t->nodes[l->node[s]].name, l->port[s], r);
			return -EINVAL;
		}
	}
	return 0;
}

/* fabric.int_record: compact: every switch port's link rate (after
 * fabric.links) must have a rate code (25, 50, 100, 200, 400 Gb/s), the
 * first that has none is an error at int_record; fabric.int_multi absent
 * is the fastest NIC's rate / 25 Gb/s (at least 1), filled in so that the
 * resolved experiment shows it, as the authors' run.py sets INT_MULTI from
 * the host bandwidth for HPCC. int_multi with full records is an error. */
static int exp_int_record(struct exp *e, const struct cfg_node *f, char err[CFG_ERR_BYTES])
{
	const struct topo *t = e->topo;
	struct cfg_node *fab = cfg_schema_get(cfg_doc_root(e->doc), "fabric"), *v;
	uint64_t nic_bps = 0, m;
	char txt[16];

	if (e->sw.int_record != PKT_INT_FMT_COMPACT) {
		if (cfg_get(f, "int_multi")) {
			cfg_errorf(err, cfg_get(f, "int_multi"),
				   "fabric.int_multi sets the units of compact INT records: it needs fabric.int_record: compact");
			return -EINVAL;
		}
		return 0;
	}
	for (uint32_t i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];

		for (int s = 0; s < 2; s++) {
			char r[32];

			if (t->nodes[l->node[s]].kind != TOPO_SWITCH) {
				if (l->rate_bps > nic_bps)
					nic_bps = l->rate_bps;
				continue;
			}
			if (pkt_int_c_rate_code(l->rate_bps) != PKT_INT_C_RATE_NONE)
				continue;
			units_fmt_rate(r, sizeof(r), l->rate_bps);
			cfg_errorf(err, cfg_get(f, "int_record"),
				   "%s:%u runs at %s, which compact INT records cannot carry (their rate codes are 25, 50, 100, 200 and 400 Gbps): use int_record: full",
				   t->nodes[l->node[s]].name, l->port[s], r);
			return -EINVAL;
		}
	}
	if (e->sw.int_multi)
		return 0;
	m = nic_bps / PKT_INT_C_RATE_BASE_BPS;
	m = m < 1 ? 1 : m > PKT_INT_C_MULTI_MAX ? PKT_INT_C_MULTI_MAX : m;
	snprintf(txt, sizeof(txt), "%u", (unsigned)m);
	if (!fab || cfg_doc_fill(e->doc, fab, "int_multi", txt, &v, err) != 0)
		return -EINVAL;
	e->sw.int_multi = (uint8_t)m;
	return 0;
}

/* Switch-buffer errors found at assembly point at the buffer's setting. */
static int exp_fabric_check(const struct cfg_node *f, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	if (!e->ll->eth_switch && e->sw.int_on) {
		cfg_errorf(err, cfg_get(f, "int"),
			   "fabric.int (HPCC's in-band telemetry) is an Ethernet switch feature: not modelled with link_layer: %s",
			   e->ll->kind.name);
		return -EINVAL;
	}
	if (exp_ecn_rates(e, f, err) != 0 || exp_int_record(e, f, err) != 0)
		return -EINVAL;
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
	{ "link_layer", CFG_KEY_CUSTOM, "roce", .read = exp_link_layer,
	  .doc = "a registered link layer (linklayers/: roce, Ethernet with PFC, is the default)" },
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
