/* InfiniBand congestion control at the source CA (the reaction point of
 * IBTA Vol 1 Annex A10, "Congestion Control"). A switch port/VL that is
 * congested sets FECN on packets leaving it (switch/sw_ibcc.c), the
 * destination returns a BECN to the source (here a CNP with BECN set, one
 * per FECN-marked packet: nic/nic_rx.c with cnp_interval_ps 0), and this
 * file turns BECNs into an injection delay between the QP's packets.
 *
 * State, with A10's names: CCTI, an index into the Congestion Control
 * Table (CCT). On each BECN
 *     CCTI <- min(CCTI + CCTI_Increase, CCTI_Limit)
 * and, every CCTI_Timer (units of 1.024 us) while CCTI > CCTI_Min,
 *     CCTI <- max(CCTI - 1, CCTI_Min).
 * The timer starts on a BECN when it is not running and stops when CCTI
 * reaches CCTI_Min, as Linux's hfi1 driver runs it (process_becn and
 * cca_timer_fn in drivers/infiniband/hw/hfi1: "ccti_timer is in units of
 * 1.024 usec"): a QP costs at most CCTI_Limit - CCTI_Min timer events after
 * its last BECN, idle or not.
 *
 * The injection delay. A CCT entry is 16 bits, CCT_Shift (2, bits 15..14)
 * and CCT_Multiplier (14, bits 13..0); the delay between two packets is
 *     IPD = t_pkt * multiplier / 2^shift,
 * t_pkt the time of a largest (MTU) packet at the line rate: hfi1's
 * set_link_ipg computes (max_pkt_time >> shift) * mult with max_pkt_time
 * the egress time of an ibmaxlen packet. So entry 0 (multiplier 0) is no
 * throttling and multiplier m at shift 0 spaces packets by (1 + m) t_pkt.
 * The NIC's pacer spaces each packet by its time at the QP's rate, so the
 * rate that gives that spacing is
 *     rate = line * t_pkt / (t_pkt + IPD) = line * 2^shift / (2^shift + m).
 * nic.ibcc.delay_unit may instead make the multiplier count a fixed time
 * U (IPD = U * m / 2^shift; t_pkt is then the MTU's payload at the line
 * rate), for tables written for another unit.
 *
 * Defaults. OpenSM leaves every CA setting 0 (osm_subn_set_default_opt
 * zeroes them: congestion control off) and the CCT empty, so the defaults
 * here come from LLNL's study of IB CC on OpenSM ("Congestion control
 * settings", the sweep of cc_ca_cong_setting_*): CCTI_Increase 1,
 * CCTI_Min 0, a 128-entry quadratic table entry_i = floor(7 i^2 / (95^2 *
 * 0.218)) with shift 0 (multipliers 0 for i < 17, up to 57 at i = 127:
 * the slowest rate is line / 58, 6.9 Gb/s at 400 Gb/s, an IPD of 57 t_pkt
 * = 4.7 us for 4 KiB packets), CCTI_Limit 127 (the table's last entry) and
 * CCTI_Timer 10 (10.24 us, inside the study's range 2..8192). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cc_int.h"
#include "cc_ibcc.h"
#include "cfg_schema.h"
#include "units.h"

struct cc_ibcc {
	uint64_t tick_ps;   /* next CCTI_Timer expiry; 0: stopped */
	uint32_t ccti;      /* CCTI */
};

static const struct cc_ibcc_cfg *cc_ibcc_cfg(const struct cc_qp *q)
{
	return q->cfg;
}

uint32_t cc_ibcc_ccti(const struct cc_qp *q)
{
	return ((const struct cc_ibcc *)q->priv)->ccti;
}

uint64_t cc_ibcc_rate(const struct cc_ibcc_cfg *c, uint16_t entry, uint64_t line_bps,
		      uint32_t mtu_bytes)
{
	uint32_t shift = entry >> CC_IBCC_SHIFT_POS, mult = entry & CC_IBCC_MULT_MASK;
	unsigned __int128 r;

	if (mult == 0)
		return line_bps;
	if (c->delay_unit_ps == 0) {
		/* IPD in packet times: t / (t + t m / 2^s) = 2^s / (2^s + m). */
		r = ((unsigned __int128)line_bps << shift) / ((1u << shift) + mult);
	} else {
		/* t_pkt = 8 mtu / line; IPD = U m / 2^s; rate = line t / (t + IPD),
		 * both terms times line * 2^s to stay in integers. */
		unsigned __int128 a = (unsigned __int128)mtu_bytes * 8 * UNITS_PS_PER_S << shift;
		unsigned __int128 d = (unsigned __int128)c->delay_unit_ps * mult * line_bps;

		r = (unsigned __int128)line_bps * a / (a + d);
	}
	return r == 0 ? 1 : (uint64_t)r;
}

/* The QP's rate from CCTI, and its timer. */
static void cc_ibcc_publish(struct cc_qp *q, const struct cc_ibcc *s)
{
	const struct cc_ibcc_cfg *c = cc_ibcc_cfg(q);

	q->rate_bps = cc_ibcc_rate(c, c->cct[s->ccti], q->line_rate_bps, q->mtu_bytes);
	cc_timer_arm(q, s->tick_ps);
}

static int cc_ibcc_init(struct cc_qp *q)
{
	struct cc_ibcc *s = q->priv;
	const struct cc_ibcc_cfg *c = cc_ibcc_cfg(q);

	if (!c || c->n_cct == 0 || c->ccti_limit >= c->n_cct || c->ccti_min > c->ccti_limit ||
	    c->ccti_timer == 0 || q->line_rate_bps == 0)
		return -EINVAL;
	s->ccti = c->ccti_min;
	s->tick_ps = 0;
	q->cnp_interval_ps = c->becn_interval_ps;
	q->window_bytes = 0;
	cc_ibcc_publish(q, s);
	return 0;
}

/* A BECN (a CNP with BECN set): CCTI up by CCTI_Increase, at most
 * CCTI_Limit; the timer starts if it is not running. */
static void cc_ibcc_on_cnp(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_ibcc *s = q->priv;
	const struct cc_ibcc_cfg *c = cc_ibcc_cfg(q);
	uint64_t old = q->rate_bps;

	s->ccti = s->ccti + c->ccti_increase < c->ccti_limit ? s->ccti + c->ccti_increase
							      : c->ccti_limit;
	if (!s->tick_ps && s->ccti > c->ccti_min)
		s->tick_ps = now_ps + (uint64_t)c->ccti_timer * CC_IBCC_TIMER_UNIT_PS;
	cc_ibcc_publish(q, s);
	if (q->rate_bps < old)
		q->stats.rate_cuts++;
}

/* CCTI_Timer expired: CCTI down by one, at least CCTI_Min; the timer runs
 * on while CCTI is above CCTI_Min. */
static void cc_ibcc_on_timer(struct cc_qp *q, uint64_t now_ps)
{
	struct cc_ibcc *s = q->priv;
	const struct cc_ibcc_cfg *c = cc_ibcc_cfg(q);
	uint64_t period = (uint64_t)c->ccti_timer * CC_IBCC_TIMER_UNIT_PS, old = q->rate_bps;

	q->stats.timer_events++;
	if (!s->tick_ps || now_ps < s->tick_ps) {
		cc_ibcc_publish(q, s);
		return;
	}
	if (s->ccti > c->ccti_min)
		s->ccti--;
	s->tick_ps = s->ccti > c->ccti_min ? s->tick_ps + period : 0;
	if (s->tick_ps && s->tick_ps <= now_ps)
		s->tick_ps = now_ps + period; /* a late event: the next expiry after it */
	cc_ibcc_publish(q, s);
	if (q->rate_bps > old)
		q->stats.rate_increases++;
}

/* ---- settings: nic.ibcc.* ---- */

#define CC_IBCC_OFF(f) offsetof(struct cc_ibcc_cfg, f)

/* One CCT entry: an integer multiplier (shift 0) or OpenSM's cc_cct form
 * "shift:multiplier". */
static int cc_ibcc_entry(const struct cfg_node *n, uint16_t *out, char err[CFG_ERR_BYTES])
{
	const char *colon;
	uint64_t shift = 0, mult;

	if (n->type == CFG_SCALAR && (colon = strchr(n->str, ':')) != NULL) {
		char *end;

		shift = strtoull(n->str, &end, 10);
		if (end != colon || colon == n->str) {
			cfg_errorf(err, n, "CCT entry '%s': expected shift:multiplier, e.g. 1:100", n->str);
			return -EINVAL;
		}
		mult = strtoull(colon + 1, &end, 10);
		if (*end || !colon[1] || shift > 3 || mult > CC_IBCC_MULT_MASK) {
			cfg_errorf(err, n, "CCT entry '%s': shift is 0..3 and multiplier 0..16383",
				   n->str);
			return -EINVAL;
		}
	} else if (cfg_u64(n, 0, CC_IBCC_MULT_MASK, &mult, err) != 0) {
		return -EINVAL;
	}
	*out = (uint16_t)(shift << CC_IBCC_SHIFT_POS | mult);
	return 0;
}

static int cc_ibcc_table(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct cc_ibcc_cfg *c = params;

	if (cfg_want(n, CFG_SEQ, "nic.ibcc.table", err) != 0)
		return -EINVAL;
	if (n->n == 0 || n->n > CC_IBCC_CCT_MAX) {
		cfg_errorf(err, n, "the congestion control table needs 1..%d entries (got %u)",
			   CC_IBCC_CCT_MAX, n->n);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < n->n; i++)
		if (cc_ibcc_entry(n->items[i], &c->cct[i], err) != 0)
			return -EINVAL;
	c->n_cct = n->n;
	return 0;
}

/* `packet` (the multiplier counts MTU packet times) or a time above 0. */
static int cc_ibcc_unit(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct cc_ibcc_cfg *c = params;

	if (n->type == CFG_SCALAR && strcmp(n->str, "packet") == 0) {
		c->delay_unit_ps = 0;
		return 0;
	}
	if (cfg_time(n, &c->delay_unit_ps, err) != 0)
		return -EINVAL;
	if (!c->delay_unit_ps) {
		cfg_errorf(err, n, "delay_unit must be 'packet' or a time above 0");
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_key cc_ibcc_keys[] = {
	{ "table", CFG_KEY_CUSTOM, NULL, .read = cc_ibcc_table,
	  .doc = "CCT: 1..128 entries, each a multiplier 0..16383 or \"shift:multiplier\"; "
		 "absent: LLNL's quadratic 128 entries floor(7 i^2 / (95^2 x 0.218))" },
	{ "ccti_increase", CFG_KEY_UINT, "1", .off = CC_IBCC_OFF(ccti_increase), .size = 4,
	  .min = 1, .max = 255, .doc = "CCTI_Increase: added to CCTI per BECN (1..255)" },
	{ "ccti_limit", CFG_KEY_UINT, NULL, .off = CC_IBCC_OFF(ccti_limit), .size = 4, .max = 127,
	  .doc = "CCTI_Limit: highest CCTI, below the table's length; absent: its last entry" },
	{ "ccti_min", CFG_KEY_UINT, "0", .off = CC_IBCC_OFF(ccti_min), .size = 4, .max = 127,
	  .doc = "CCTI_Min: the timer never takes CCTI below it (at most ccti_limit)" },
	{ "ccti_timer", CFG_KEY_UINT, "10", .off = CC_IBCC_OFF(ccti_timer), .size = 4, .min = 1,
	  .max = 65535, .doc = "CCTI_Timer: CCTI down by one per this many 1.024 us (1..65535)" },
	{ "delay_unit", CFG_KEY_CUSTOM, "packet", .read = cc_ibcc_unit,
	  .doc = "what a CCT multiplier counts: packet (an MTU packet's time, as hfi1) or a time" },
	{ "becn_interval", CFG_KEY_TIME, "0us", .off = CC_IBCC_OFF(becn_interval_ps),
	  .doc = "the responder's least gap between BECNs (CNPs) of a QP; 0us: one per FECN" },
};

/* The default table, then CCTI_Limit against it. */
static int cc_ibcc_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct cc_ibcc_cfg *c = params;

	if (!cfg_get(map, "table")) {
		/* entry_i = floor(7 i^2 / (95^2 x 0.218)) = floor(7000 i^2 / 1967450). */
		for (uint32_t i = 0; i < CC_IBCC_CCT_MAX; i++)
			c->cct[i] = (uint16_t)(UINT64_C(7000) * i * i / 1967450);
		c->n_cct = CC_IBCC_CCT_MAX;
	}
	if (!cfg_get(map, "ccti_limit")) {
		c->ccti_limit = c->n_cct - 1;
	} else if (c->ccti_limit >= c->n_cct) {
		cfg_errorf(err, cfg_get(map, "ccti_limit"),
			   "ccti_limit %u is past the table's last entry (%u)", c->ccti_limit,
			   c->n_cct - 1);
		return -EINVAL;
	}
	if (c->ccti_min > c->ccti_limit) {
		cfg_errorf(err, cfg_get(map, "ccti_min"), "ccti_min %u is above ccti_limit %u",
			   c->ccti_min, c->ccti_limit);
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_table cc_ibcc_cfg_table = {
	.section = "nic.ibcc",
	.keys = cc_ibcc_keys,
	.n_keys = sizeof(cc_ibcc_keys) / sizeof(cc_ibcc_keys[0]),
	.check = cc_ibcc_check,
	.ordered = true,
};

const struct cc_ops cc_ibcc_ops = {
	.kind = { .name = "ibcc", .doc = "InfiniBand CC (IBTA A10) source",
		  .settings = &cc_ibcc_cfg_table, .settings_size = sizeof(struct cc_ibcc_cfg) },
	.priv_size = sizeof(struct cc_ibcc),
	.flags = CC_F_ECN,
	.init = cc_ibcc_init,
	.on_cnp = cc_ibcc_on_cnp,
	.on_timer = cc_ibcc_on_timer,
};
