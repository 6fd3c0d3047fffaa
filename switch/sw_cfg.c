/* The switch's part of the `fabric:` section: buffer, scheduler,
 * classification (DSCP -> priority -> traffic class), MMU reserve and
 * egress threshold, PFC (lossless priorities, thresholds and their alpha
 * per link rate, headroom, watchdog) and HPCC's in-band telemetry (INT,
 * its record format), read straight into struct sw_params by the schema
 * walker (core/cfg_schema.h), with the checks between them; the marking
 * keys (fabric.ecn and its queue managers, fabric.ib_cc) are in
 * sw_cfg_ecn.c, path choice (fabric.path) in sw_cfg_path.c. The
 * fabric-wide keys of the section (loss, disabled ports, deadlock check,
 * and the checks that need the topology) are the run module's. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cfg_schema.h"
#include "sw.h"
#include "sw_cfg_int.h"
#include "units.h"

#define SW_CFG_PFC_OFF(f) offsetof(struct sw_pfc_params, f)

enum {
	SW_CFG_XON_GAP_BYTES = 3 * 1024, /* a static xoff without xon resumes this far below */
};

/* The range of a pause threshold's alpha (fabric.pfc.alpha and each
 * alpha_by_rate entry's). */
#define SW_CFG_ALPHA_LO (1.0 / 1024)
#define SW_CFG_ALPHA_HI 64.0

static const char *const sw_cfg_dscp_map_keys[] = { "dscp", "priority", NULL };
/* fabric.int_record, in enum pkt_int_fmt's order. */
static const char *const sw_cfg_int_records[] = { "full", "compact", NULL };

/* An integer 0..@max. */
int sw_cfg_small(const struct cfg_node *n, uint8_t max, uint8_t *out, char err[CFG_ERR_BYTES])
{
	uint64_t v;

	if (cfg_u64(n, 0, max, &v, err) != 0)
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

/* A list of priorities (or classes) 0..7 as a bit mask. */
int sw_cfg_prio_list(const struct cfg_node *n, const char *what, uint8_t *mask,
		     char err[CFG_ERR_BYTES])
{
	if (cfg_want(n, CFG_SEQ, what, err) != 0)
		return -EINVAL;
	*mask = 0;
	for (uint32_t i = 0; i < n->n; i++) {
		uint8_t v;

		if (sw_cfg_small(n->items[i], PORT_N_TC - 1, &v, err) != 0)
			return -EINVAL;
		*mask |= (uint8_t)(1u << v);
	}
	return 0;
}

/* A size up to the buffer (read before). A default beyond a small buffer
 * applies unchecked, as it always has; written out it would be refused, so
 * the resolved experiment leaves it absent. */
int sw_cfg_upto_buffer(const struct cfg_node *n, const struct sw_params *p, uint64_t min,
		       uint64_t *out, char err[CFG_ERR_BYTES])
{
	if (cfg_size(n, min, n->dflt ? UINT64_C(1) << 40 : p->buffer_bytes, out, err) != 0)
		return -EINVAL;
	if (n->dflt && *out > p->buffer_bytes)
		((struct cfg_node *)n)->omit = true; /* the walker's own fill, in a doc it may edit */
	return 0;
}

/* A per-rate list (fabric.ecn.by_rate, fabric.pfc.alpha_by_rate) @n of
 * at most SW_N_RATES entries; @what names it in messages. */
int sw_cfg_rate_list(const struct cfg_node *n, const char *what, char err[CFG_ERR_BYTES])
{
	if (cfg_want(n, CFG_SEQ, what, err) != 0)
		return -EINVAL;
	if (n->n > SW_N_RATES) {
		cfg_errorf(err, n->items[SW_N_RATES], "%s: at most %d rates", what, SW_N_RATES);
		return -EINVAL;
	}
	return 0;
}

/* Entry @i of the per-rate list @list: a map with every key of
 * @keys (NULL-terminated, "rate" first; @need spells them for the
 * message) and a rate no earlier entry has (@rates_bps[0..@i)), which
 * it appends to @rates_bps. */
int sw_cfg_rate_entry(const struct cfg_node *list, uint32_t i, const char *what,
		      const char *const *keys, const char *need, uint64_t *rates_bps,
		      char err[CFG_ERR_BYTES])
{
	const struct cfg_node *it = list->items[i];

	if (cfg_want(it, CFG_MAP, what, err) != 0 || cfg_check_keys(it, keys, err) != 0)
		return -EINVAL;
	for (const char *const *k = keys; *k; k++) {
		if (!cfg_get(it, *k)) {
			cfg_errorf(err, it, "%s entry needs %s (missing '%s')", what, need, *k);
			return -EINVAL;
		}
	}
	if (cfg_rate(cfg_get(it, "rate"), 1, &rates_bps[i], err) != 0)
		return -EINVAL;
	for (uint32_t j = 0; j < i; j++) {
		if (rates_bps[j] == rates_bps[i]) {
			char r[32];

			units_fmt_rate(r, sizeof(r), rates_bps[i]);
			cfg_errorf(err, cfg_get(it, "rate"),
				   "%s lists rate %s twice (entries %u and %u): one entry per rate", what,
				   r, j + 1, i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- scheduler ---- */

static int sw_cfg_quantum(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	uint64_t q;

	if (cfg_size(n, 64, 1 << 20, &q, err) != 0)
		return -EINVAL;
	for (int tc = 0; tc < PORT_N_TC; tc++)
		p->sched.quantum_bytes[tc] = (uint32_t)q;
	return 0;
}

static int sw_cfg_strict(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_cfg_prio_list(n, "scheduler.strict", &p->sched.strict_mask, err);
}

/* Weights scale the quantum (read before: every class holds it). */
static int sw_cfg_weights(const struct cfg_node *w, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	uint32_t quantum = p->sched.quantum_bytes[0];

	if (cfg_want(w, CFG_SEQ, "scheduler.weights", err) != 0)
		return -EINVAL;
	if (w->n != PORT_N_TC) {
		cfg_errorf(err, w, "scheduler.weights needs 8 entries, one per traffic class (got %u)",
			   w->n);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < w->n; i++) {
		uint64_t v;

		if (cfg_u64(w->items[i], 1, 1000, &v, err) != 0)
			return -EINVAL;
		p->sched.quantum_bytes[i] = (uint32_t)(v * quantum);
	}
	return 0;
}

static const struct cfg_key sw_cfg_sched_keys[] = {
	{ "quantum", CFG_KEY_CUSTOM, "4608B", .read = sw_cfg_quantum,
	  .doc = "DWRR base quantum per traffic class (64B..1MiB)" },
	{ "strict", CFG_KEY_CUSTOM, "[6, 7]", .read = sw_cfg_strict,
	  .doc = "traffic classes served by strict priority (higher first)" },
	{ "weights", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_weights,
	  .doc = "8 DWRR weights (1..1000) scaling the quantum; absent: all 1" },
};

static const struct cfg_table sw_cfg_sched_table = {
	.section = "fabric.scheduler",
	.keys = sw_cfg_sched_keys,
	.n_keys = sizeof(sw_cfg_sched_keys) / sizeof(sw_cfg_sched_keys[0]),
};

/* ---- classification and MMU ---- */

/* Exceptions to the class-selector default (priority = DSCP >> 3). */
static int sw_cfg_dscp_map(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (cfg_want(map, CFG_SEQ, "dscp_map", err) != 0)
		return -EINVAL;
	for (int d = 0; d < 64; d++)
		p->dscp_to_prio[d] = (uint8_t)(d >> 3); /* class selector: DSCP 26 -> 3, 48 -> 6 */
	for (uint32_t i = 0; i < map->n; i++) {
		const struct cfg_node *it = map->items[i], *d, *pr;
		uint8_t dscp, prio;

		if (cfg_want(it, CFG_MAP, "dscp_map entry", err) != 0 ||
		    cfg_check_keys(it, sw_cfg_dscp_map_keys, err) != 0)
			return -EINVAL;
		d = cfg_get(it, "dscp");
		pr = cfg_get(it, "priority");
		if (!d || !pr) {
			cfg_errorf(err, it, "dscp_map entry needs both 'dscp' and 'priority'");
			return -EINVAL;
		}
		if (sw_cfg_small(d, 63, &dscp, err) != 0 || sw_cfg_small(pr, 7, &prio, err) != 0)
			return -EINVAL;
		p->dscp_to_prio[dscp] = prio;
	}
	return 0;
}

static int sw_cfg_tc_map(const struct cfg_node *tm, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (cfg_want(tm, CFG_SEQ, "tc_map", err) != 0)
		return -EINVAL;
	if (tm->n != PORT_N_TC) {
		cfg_errorf(err, tm, "tc_map needs 8 entries, the traffic class of priorities 0..7 (got %u)",
			   tm->n);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < tm->n; i++)
		if (sw_cfg_small(tm->items[i], PORT_N_TC - 1, &p->prio_to_tc[i], err) != 0)
			return -EINVAL;
	return 0;
}

static int sw_cfg_reserve(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	uint64_t v;

	if (sw_cfg_upto_buffer(n, p, 0, &v, err) != 0)
		return -EINVAL;
	p->reserve_bytes = (uint32_t)v;
	return 0;
}

/* ---- PFC ---- */

static int sw_cfg_pfc_prios(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	return sw_cfg_prio_list(n, "pfc.priorities", &p->pfc.lossless_prio, err);
}

/* `dynamic` or a size up to the buffer. */
static int sw_cfg_xoff(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (n->type == CFG_SCALAR && strcmp(n->str, "dynamic") == 0) {
		p->pfc.xoff_bytes = 0;
		return 0;
	}
	if (cfg_size(n, 1, UINT64_C(1) << 40, &p->pfc.xoff_bytes, err) != 0)
		return -EINVAL;
	if (p->pfc.xoff_bytes > p->buffer_bytes) {
		cfg_errorf(err, n, "xoff threshold %llu bytes is above the buffer size (%llu bytes)",
			   (unsigned long long)p->pfc.xoff_bytes, (unsigned long long)p->buffer_bytes);
		return -EINVAL;
	}
	return 0;
}

/* A static resume threshold, with a static xoff (read before). */
static int sw_cfg_xon(const struct cfg_node *xon, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (!p->pfc.xoff_bytes) {
		cfg_errorf(err, xon, "xon is a static threshold: set a static xoff too, or use xon_offset with the dynamic one");
		return -EINVAL;
	}
	if (cfg_size(xon, 0, UINT64_C(1) << 40, &p->pfc.xon_bytes, err) != 0)
		return -EINVAL;
	if (p->pfc.xon_bytes > p->pfc.xoff_bytes) {
		cfg_errorf(err, xon, "xon (%llu bytes) is above xoff (%llu bytes): a paused queue would resume before it drains",
			   (unsigned long long)p->pfc.xon_bytes, (unsigned long long)p->pfc.xoff_bytes);
		return -EINVAL;
	}
	return 0;
}

static int sw_cfg_xon_offset(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;
	uint64_t v;

	if (sw_cfg_upto_buffer(n, p, 0, &v, err) != 0)
		return -EINVAL;
	p->pfc.xon_offset_bytes = (uint32_t)v;
	return 0;
}

/* `auto`, a size, or {priority: size} naming lossless priorities only
 * (read before), all of one size (the model sizes headroom per port). */
static int sw_cfg_headroom(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (n->type == CFG_SCALAR && strcmp(n->str, "auto") == 0) {
		p->pfc.headroom_bytes = 0;
		return 0;
	}
	if (n->type == CFG_MAP) {
		uint64_t v = 0;

		/* headroom_bytes 0 is `auto`: an empty map would silently be
		 * that, so it is refused. */
		if (n->n == 0) {
			cfg_errorf(err, n, "headroom: {} names no priority: write auto, a size, or {priority: size}");
			return -EINVAL;
		}
		for (uint32_t i = 0; i < n->n; i++) {
			uint8_t pr;

			if (sw_cfg_small(n->keys[i], 7, &pr, err) != 0)
				return -EINVAL;
			if (!(p->pfc.lossless_prio & (1u << pr))) {
				cfg_errorf(err, n->keys[i],
					   "headroom configured for priority %u, which is lossy (PFC priorities are in fabric.pfc.priorities)",
					   pr);
				return -EINVAL;
			}
			if (cfg_size(n->items[i], 1, p->buffer_bytes, &v, err) != 0)
				return -EINVAL;
			if (p->pfc.headroom_bytes && v != p->pfc.headroom_bytes) {
				cfg_errorf(err, n->items[i],
					   "all lossless priorities share one headroom size in this model");
				return -EINVAL;
			}
			p->pfc.headroom_bytes = v;
		}
		return 0;
	}
	return cfg_size(n, 1, p->buffer_bytes, &p->pfc.headroom_bytes, err);
}

/* alpha_by_rate: [{rate, alpha}]: ingress ports of that link rate pause
 * at alpha x (free shared pool) instead of fabric.pfc.alpha. */
static int sw_cfg_alpha_by_rate(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "rate", "alpha", NULL };
	struct sw_params *p = params;
	uint64_t rates_bps[SW_N_RATES] = { 0 };

	if (sw_cfg_rate_list(n, "pfc.alpha_by_rate", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < n->n; i++) {
		double a;

		if (sw_cfg_rate_entry(n, i, "pfc.alpha_by_rate", keys, "'rate' and 'alpha'",
				      rates_bps, err) != 0 ||
		    cfg_fraction(cfg_get(n->items[i], "alpha"), SW_CFG_ALPHA_LO, SW_CFG_ALPHA_HI, &a,
				 err) != 0)
			return -EINVAL;
		p->pfc.alpha_by_rate[i].rate_bps = rates_bps[i];
		/* Rounded as fabric.pfc.alpha is (CFG_KEY_Q16). */
		p->pfc.alpha_by_rate[i].alpha_q16 = (uint32_t)(a * SW_Q16 + 0.5);
	}
	p->pfc.n_alpha_by_rate = (uint8_t)n->n;
	return 0;
}

static int sw_cfg_wd_detect(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (cfg_time(n, &p->pfc.wd_detect_ps, err) != 0)
		return -EINVAL;
	if (!p->pfc.wd_detect_ps) {
		cfg_errorf(err, n, "watchdog detection time must be above 0");
		return -EINVAL;
	}
	return 0;
}

/* SONiC pfcwd defaults. */
static const struct cfg_key sw_cfg_wd_keys[] = {
	{ "detection", CFG_KEY_CUSTOM, "200ms", .read = sw_cfg_wd_detect,
	  .doc = "a queue paused this long is a storm (> 0)" },
	{ "restoration", CFG_KEY_TIME, "200ms", .off = SW_CFG_OFF(pfc.wd_restore_ps),
	  .doc = "restore a stormed queue after this long without pauses" },
};

static const struct cfg_table sw_cfg_wd_table = {
	.section = "fabric.pfc.watchdog",
	.keys = sw_cfg_wd_keys,
	.n_keys = sizeof(sw_cfg_wd_keys) / sizeof(sw_cfg_wd_keys[0]),
};

static const struct cfg_sub sw_cfg_wd_subs[] = { { &sw_cfg_wd_table, 0 }, { NULL, 0 } };

/* A static xoff without xon resumes SW_CFG_XON_GAP_BYTES below it. */
static int sw_cfg_pfc_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct sw_params *p = params;

	if (p->pfc.n_alpha_by_rate && p->pfc.xoff_bytes) {
		cfg_errorf(err, cfg_get(map, "alpha_by_rate"),
			   "alpha_by_rate sets the dynamic pause threshold, and xoff is static (%llu bytes): it would change nothing (use xoff: dynamic)",
			   (unsigned long long)p->pfc.xoff_bytes);
		return -EINVAL;
	}
	if (!cfg_get(map, "xon") && p->pfc.xoff_bytes)
		p->pfc.xon_bytes = p->pfc.xoff_bytes > SW_CFG_XON_GAP_BYTES
					   ? p->pfc.xoff_bytes - SW_CFG_XON_GAP_BYTES
					   : 0;
	return 0;
}

/* Thresholds as the HPCC ns-3 MMU sets them (Li et al., SIGCOMM 2019, and
 * its simulator): alpha 1/8, resume 3 KiB below, maximal pause. */
static const struct cfg_key sw_cfg_pfc_keys[] = {
	{ "priorities", CFG_KEY_CUSTOM, "[3]", .read = sw_cfg_pfc_prios,
	  .doc = "lossless priorities (RoCE on 3)" },
	{ "alpha", CFG_KEY_Q16, "12.5%", .off = SW_CFG_OFF(pfc.alpha_q16), .lo = SW_CFG_ALPHA_LO,
	  .hi = SW_CFG_ALPHA_HI, .doc = "dynamic xoff: alpha x free shared buffer" },
	{ "alpha_by_rate", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_alpha_by_rate,
	  .doc = "[{rate, alpha}]: ingress ports of that link rate use this alpha; absent: alpha "
		 "on every port" },
	{ "xoff", CFG_KEY_CUSTOM, "dynamic", .read = sw_cfg_xoff,
	  .doc = "pause threshold: dynamic or a static size up to the buffer" },
	{ "xon", CFG_KEY_CUSTOM, NULL, .read = sw_cfg_xon,
	  .doc = "static resume threshold, at most xoff; absent: xoff - 3KiB" },
	{ "xon_offset", CFG_KEY_CUSTOM, "3KiB", .read = sw_cfg_xon_offset,
	  .doc = "dynamic xoff: resume this far below the threshold" },
	{ "pause_quanta", CFG_KEY_UINT, "65535", .off = SW_CFG_OFF(pfc.quanta), .size = 2, .min = 1,
	  .max = 0xFFFF, .doc = "pause time sent with XOFF, in 512-bit quanta" },
	{ "headroom", CFG_KEY_CUSTOM, "auto", .read = sw_cfg_headroom,
	  .doc = "per port and lossless priority: auto (from the link), a size, or {priority: size}" },
	{ "watchdog", CFG_KEY_SECTION, NULL, .subs = sw_cfg_wd_subs, .what = "pfc.watchdog",
	  .doc = "PFC watchdog {detection, restoration}; absent: off" },
};

static const struct cfg_table sw_cfg_pfc_table = {
	.section = "fabric.pfc",
	.keys = sw_cfg_pfc_keys,
	.n_keys = sizeof(sw_cfg_pfc_keys) / sizeof(sw_cfg_pfc_keys[0]),
	.check = sw_cfg_pfc_check,
};

/* ---- the section ---- */

static const struct cfg_sub sw_cfg_sched_subs[] = { { &sw_cfg_sched_table, 0 }, { NULL, 0 } };
static const struct cfg_sub sw_cfg_pfc_subs[] = { { &sw_cfg_pfc_table, 0 }, { NULL, 0 } };

int sw_params_scaleup(const struct sw_params *fabric, struct sw_params *out)
{
	*out = *fabric;
	if (!fabric->pfc.lossless_prio) {
		/* No fabric.pfc: the block's own defaults, read through its table
		 * from an empty map so that the two cannot differ. */
		char err[CFG_ERR_BYTES];
		struct cfg_doc *doc;
		int rc = cfg_doc_load_string("scale-up defaults", "{}", &doc, err);

		if (rc != 0)
			return rc;
		rc = cfg_schema_read(doc, cfg_doc_root(doc), "pfc",
				     &(struct cfg_bind){ &sw_cfg_pfc_table, out }, 1, err);
		cfg_doc_free(doc);
		if (rc != 0)
			return rc;
	}
	out->pfc.lossless_prio = UINT8_MAX;
	out->committed_on_top = true;
	return 0;
}

static const struct cfg_key sw_cfg_fabric_keys[] = {
	{ "buffer", CFG_KEY_SIZE, "32MiB", .off = SW_CFG_OFF(buffer_bytes), .size = 8, .min = 1,
	  .max = UINT64_C(1) << 40, .doc = "shared packet buffer of each switch" },
	{ "scheduler", CFG_KEY_SECTION, "{}", .subs = sw_cfg_sched_subs, .what = "scheduler",
	  .doc = "egress scheduler of every port (switches and NICs)" },
	{ "dscp_map", CFG_KEY_CUSTOM, "[]", .read = sw_cfg_dscp_map,
	  .doc = "[{dscp, priority}] exceptions to priority = DSCP >> 3" },
	{ "tc_map", CFG_KEY_CUSTOM, "[0, 1, 2, 3, 4, 5, 6, 7]", .read = sw_cfg_tc_map,
	  .doc = "egress traffic class of priorities 0..7" },
	{ "reserve", CFG_KEY_CUSTOM, "0B", .read = sw_cfg_reserve,
	  .doc = "MMU reserve per ingress port and priority (up to the buffer)" },
	{ "egress_alpha", CFG_KEY_Q16, NULL, .off = SW_CFG_OFF(egress_alpha_q16), .lo = 1.0 / 1024,
	  .hi = 64, .doc = "lossy queues: dynamic threshold alpha x free shared buffer; absent: none" },
	{ "queue_limit", CFG_KEY_SIZE, NULL, .off = SW_CFG_OFF(queue_limit_bytes), .size = 8,
	  .min = PKT_MIN_FRAME_BYTES, .max = UINT64_C(1) << 40,
	  .doc = "lossy queues: the most frame bytes one egress queue (port and class) holds; absent: no limit but the buffer" },
	{ "pfc", CFG_KEY_SECTION, NULL, .subs = sw_cfg_pfc_subs, .what = "pfc",
	  .doc = "priority flow control; absent: no PFC" },
	{ "ecn", CFG_KEY_SECTION, NULL, .subs = sw_cfg_ecn_subs, .what = "ecn",
	  .doc = "ECN marking (RED); absent: no marking" },
	{ "ib_cc", CFG_KEY_SECTION, NULL, .subs = sw_cfg_ib_cc_subs, .what = "ib_cc",
	  .doc = "InfiniBand congestion control: FECN marking (IBTA A10); absent: none" },
	{ "path", CFG_KEY_SECTION, "{}", .subs = sw_cfg_path_subs, .what = "path",
	  .doc = "path choice among equal-cost ports" },
	{ "int", CFG_KEY_BOOL, NULL, .off = SW_CFG_OFF(int_on),
	  .doc = "HPCC in-band telemetry: each switch appends a record to every data packet; "
		 "absent: off" },
	{ "int_record", CFG_KEY_ENUM, NULL, .off = SW_CFG_OFF(int_record),
	  .names = sw_cfg_int_records,
	  .doc = "INT record format: full (16 bytes a hop, exact) or compact (8 bytes, the "
		 "HPCC authors' simulator's; every switch port at 25/50/100/200/400 Gb/s); "
		 "absent: full" },
	{ "int_multi", CFG_KEY_UINT, NULL, .off = SW_CFG_OFF(int_multi), .size = 1, .min = 1,
	  .max = PKT_INT_C_MULTI_MAX,
	  .doc = "compact INT records: m, the simulator's INT_MULTI (units of 128 m tx bytes, 80 m "
		 "queue bytes); absent: the fastest NIC's rate / 25 Gb/s" },
};

const struct cfg_table sw_cfg_fabric_table = {
	.section = "fabric",
	.keys = sw_cfg_fabric_keys,
	.n_keys = sizeof(sw_cfg_fabric_keys) / sizeof(sw_cfg_fabric_keys[0]),
};
