/* The marking keys of the `fabric:` section: fabric.ecn (the classes that
 * mark, where the decision is taken, the queue manager that takes it, and
 * RED's curve per link rate or scaled with it, its keys being the
 * section's own; an added manager's settings are its section
 * fabric.ecn.<name>) and InfiniBand's FECN marking (fabric.ib_cc, IBTA
 * A10), read into struct sw_params (sw_cfg.c holds the section). */
#include <errno.h>
#include <string.h>

#include "sw_cfg_int.h"
#include "sw_int.h"
#include "units.h"

static const char *const sw_cfg_mark_points[] = { "dequeue", "enqueue", NULL };

/* ---- ECN ---- */

static int sw_cfg_ecn_tcs(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_cfg_prio_list(n, "ecn.tcs", &p->ecn_tc_mask, err);
}

static int sw_cfg_kmin(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_cfg_upto_buffer(n, p, 0, &p->red.kmin_bytes, err);
}

static int sw_cfg_kmax(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_cfg_upto_buffer(n, p, 0, &p->red.kmax_bytes, err);
}

static int sw_cfg_pmax(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	double pmax;

	if (cfg_fraction(n, 0, 1, &pmax, err) != 0)
		return -EINVAL;
	p->red.pmax_ppm = (uint32_t)(pmax * SW_RED_ONE + 0.5);
	return 0;
}

static int sw_cfg_mark_on(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	int point;

	if (cfg_enum(n, sw_cfg_mark_points, &point, err) != 0)
		return -EINVAL;
	p->ecn_on_enqueue = point == 1;
	return 0;
}

static int sw_cfg_aqm(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_aqm_read(n, &p->aqm, err);
}

/* by_rate: [{rate, kmin, kmax, pmax}]: egress ports of that link rate
 * mark by this curve (the HPCC ns-3 simulator's KMIN_MAP, KMAX_MAP and
 * PMAX_MAP). Every key is required: a curve is not pieced together. */
static int sw_cfg_ecn_by_rate(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "rate", "kmin", "kmax", "pmax", NULL };
	struct sw_params *p = params;
	uint64_t rates_bps[SW_N_RATES] = { 0 };

	if (sw_cfg_rate_list(n, "ecn.by_rate", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct cfg_node *it = n->items[i];
		struct sw_red_rate *r = &p->red_by_rate[i];
		double pmax;

		if (sw_cfg_rate_entry(n, i, "ecn.by_rate", keys, "'rate', 'kmin', 'kmax' and 'pmax'",
				      rates_bps, err) != 0 ||
		    sw_cfg_upto_buffer(cfg_get(it, "kmin"), p, 0, &r->red.kmin_bytes, err) != 0 ||
		    sw_cfg_upto_buffer(cfg_get(it, "kmax"), p, 0, &r->red.kmax_bytes, err) != 0 ||
		    cfg_fraction(cfg_get(it, "pmax"), 0, 1, &pmax, err) != 0)
			return -EINVAL;
		if (r->red.kmin_bytes > r->red.kmax_bytes) {
			cfg_errorf(err, cfg_get(it, "kmin"), "kmin (%llu bytes) is above kmax (%llu bytes)",
				   (unsigned long long)r->red.kmin_bytes,
				   (unsigned long long)r->red.kmax_bytes);
			return -EINVAL;
		}
		r->rate_bps = rates_bps[i];
		r->red.pmax_ppm = (uint32_t)(pmax * SW_RED_ONE + 0.5);
	}
	p->n_red_by_rate = (uint8_t)n->n;
	return 0;
}

/* The manager in use, with settings and no section fabric.ecn.<name>:
 * its settings at their defaults (which the resolved experiment does not
 * show: a manager's section is written out only where it was given). */
static int sw_cfg_aqm_defaults(const struct cfg_node *c, struct sw_params *p,
			       char err[CFG_ERR_BYTES])
{
	void *dst = sw_aqm_settings_mut(p, p->aqm);
	char why[CFG_ERR_BYTES];

	if (!dst || cfg_get(c, p->aqm->kind.name))
		return 0;
	if (reg_settings_defaults(&p->aqm->kind, dst, why) != 0) {
		cfg_errorf(err, cfg_get(c, "aqm"), "fabric.ecn.%s defaults: %s", p->aqm->kind.name,
			   why);
		return -EINVAL;
	}
	return 0;
}

/* With by_rate and no reference_rate, the top-level curve is the one of
 * ports whose rate by_rate does not list only when kmin and kmax are
 * written: left to their defaults, such a port is an error (the HPCC
 * simulator refuses it too), so that no port marks by a curve nobody
 * chose. */
static int sw_cfg_ecn_check(const struct cfg_node *c, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const top[] = { "kmin", "kmax", "pmax" };
	struct sw_params *p = params;
	const struct cfg_node *given = NULL;

	if (p->aqm && sw_cfg_aqm_defaults(c, p, err) != 0)
		return -EINVAL;
	if (p->red.kmin_bytes > p->red.kmax_bytes) {
		cfg_errorf(err, cfg_get(c, "kmin"), "kmin (%llu bytes) is above kmax (%llu bytes)",
			   (unsigned long long)p->red.kmin_bytes, (unsigned long long)p->red.kmax_bytes);
		return -EINVAL;
	}
	p->red_by_rate_only = false;
	if (!p->n_red_by_rate || p->red_ref_rate_bps)
		return 0;
	for (int i = 0; i < 3 && !given; i++)
		if (!cfg_get(c, top[i])->dflt)
			given = cfg_get(c, top[i]);
	if (given && (cfg_get(c, "kmin")->dflt || cfg_get(c, "kmax")->dflt)) {
		cfg_errorf(err, given,
			   "with by_rate, the top-level kmin, kmax and pmax are the curve of ports whose rate it does not list: give kmin and kmax both, or none of the three (then every switch port's rate must be listed)");
		return -EINVAL;
	}
	if (!given) {
		p->red_by_rate_only = true;
		/* They apply to no port: the resolved experiment leaves them
		 * out, so that reading it back keeps this meaning. */
		for (int i = 0; i < 3; i++)
			((struct cfg_node *)cfg_get(c, top[i]))->omit = true;
	}
	return 0;
}

/* RED marking as the HPCC paper sets it at 100G (Li et al., SIGCOMM 2019). */
static const struct cfg_key sw_cfg_ecn_keys[] = {
	{ "tcs", CFG_KEY_CUSTOM, "[3]", .read = sw_cfg_ecn_tcs,
	  .doc = "traffic classes that mark ECN" },
	{ "kmin", CFG_KEY_CUSTOM, "400KB", .read = sw_cfg_kmin,
	  .doc = "no marking at or below this queue length (up to the buffer)" },
	{ "kmax", CFG_KEY_CUSTOM, "1600KB", .read = sw_cfg_kmax,
	  .doc = "marking with pmax at this queue length, always above (at least kmin)" },
	{ "pmax", CFG_KEY_CUSTOM, "20%", .read = sw_cfg_pmax,
	  .doc = "marking probability at kmax (0..100%)" },
	{ "mark_on", CFG_KEY_CUSTOM, "dequeue", .read = sw_cfg_mark_on,
	  .doc = "decide on dequeue or enqueue" },
	{ "host_links", CFG_KEY_BOOL, "true", .off = SW_CFG_OFF(ecn_host_links),
	  .doc = "mark on ports that lead to endpoints too; false: only on ports toward switches "
		 "(as uet-htsim does under receiver credit)" },
	{ "aqm", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_aqm,
	  .doc = "queue manager deciding the marks (a registered one, docs/extending/aqm.md; "
		 "kmin .. reference_rate are red's settings); absent: red" },
	{ "by_rate", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_ecn_by_rate,
	  .doc = "[{rate, kmin, kmax, pmax}]: egress ports of that link rate mark by this curve; "
		 "absent: kmin, kmax, pmax on every port" },
	{ "reference_rate", CFG_KEY_RATE, NULL, .off = SW_CFG_OFF(red_ref_rate_bps), .min = 1,
	  .doc = "kmin and kmax hold at this port rate and scale linearly with a port's (by_rate "
		 "entries excepted); absent: no scaling" },
};

static const struct cfg_table sw_cfg_ecn_table = {
	.section = "fabric.ecn",
	.keys = sw_cfg_ecn_keys,
	.n_keys = sizeof(sw_cfg_ecn_keys) / sizeof(sw_cfg_ecn_keys[0]),
	.check = sw_cfg_ecn_check,
};

/* ---- InfiniBand congestion control (IBTA A10) ---- */

/* Ports that mark as victims too: a list of port numbers 0..255, or `all`. */
static int sw_cfg_victim_mask(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	uint64_t *mask = p->ib_cc.victim_mask;

	memset(p->ib_cc.victim_mask, 0, sizeof(p->ib_cc.victim_mask));
	if (n->type == CFG_SCALAR && strcmp(n->str, "all") == 0) {
		memset(p->ib_cc.victim_mask, 0xFF, sizeof(p->ib_cc.victim_mask));
		return 0;
	}
	if (n->type != CFG_SEQ) {
		cfg_errorf(err, n, "ib_cc.victim_mask: expected a list of ports (0..%d) or 'all'",
			   SW_IBCC_MAX_PORTS - 1);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < n->n; i++) {
		uint64_t port;

		if (cfg_u64(n->items[i], 0, SW_IBCC_MAX_PORTS - 1, &port, err) != 0)
			return -EINVAL;
		mask[port / 64] |= UINT64_C(1) << (port % 64);
	}
	return 0;
}

static int sw_cfg_ib_cc_check(const struct cfg_node *c, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	(void)c;
	(void)err;
	p->ib_cc.threshold_bytes = sw_ibcc_threshold_bytes(p->ib_cc.threshold,
							   p->ib_cc.vl_buffer_bytes);
	return 0;
}

/* OpenSM's defaults are all 0 (osm_subn_set_default_opt: no marking); a
 * present section marks, with the aggressive end of IBTA's scale and
 * OpenSM's zeros for the rest (every eligible packet, any size, no port
 * marking as a victim). */
static const struct cfg_key sw_cfg_ib_cc_keys[] = {
	{ "threshold", CFG_KEY_UINT, "15", .off = SW_CFG_OFF(ib_cc.threshold), .size = 1,
	  .max = SW_IBCC_THRESHOLD_MAX,
	  .doc = "0 (off), 1 (loose) .. 15 (aggressive): congested above vl_buffer x (16 - t) / 16" },
	{ "vl_buffer", CFG_KEY_SIZE, "256KiB", .off = SW_CFG_OFF(ib_cc.vl_buffer_bytes), .size = 8,
	  .min = 64, .max = UINT64_C(1) << 40, .doc = "the reference threshold scales: a port/VL's buffer" },
	{ "marking_rate", CFG_KEY_UINT, "0", .off = SW_CFG_OFF(ib_cc.marking_rate), .size = 2,
	  .max = 0xFFFF, .doc = "eligible packets left unmarked after each mark (0: mark all)" },
	{ "packet_size", CFG_KEY_UINT, "0", .off = SW_CFG_OFF(ib_cc.packet_size_blocks), .size = 1,
	  .max = 0xFF, .doc = "packets of fewer 64-byte blocks (credits) are never marked" },
	{ "victim_mask", CFG_KEY_CUSTOM, "[]", .read = sw_cfg_victim_mask,
	  .doc = "ports (0..255) that mark while only victims (credit-starved), or all" },
};

static const struct cfg_table sw_cfg_ib_cc_table = {
	.section = "fabric.ib_cc",
	.keys = sw_cfg_ib_cc_keys,
	.n_keys = sizeof(sw_cfg_ib_cc_keys) / sizeof(sw_cfg_ib_cc_keys[0]),
	.check = sw_cfg_ib_cc_check,
	.ordered = true,
};

/* fabric.ecn: its keys, then the queue managers' sections (in
 * sw_params.aqm_settings, each at its place in the registry). */
const struct cfg_sub sw_cfg_ecn_subs[] = {
	{ &sw_cfg_ecn_table, 0 },
	{ &sw_aqm_reg.table, SW_CFG_OFF(aqm_settings) },
	{ NULL, 0 },
};
const struct cfg_sub sw_cfg_ib_cc_subs[] = { { &sw_cfg_ib_cc_table, 0 }, { NULL, 0 } };
