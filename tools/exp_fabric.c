/* The fabric: section of an experiment: scheduler, classification (DSCP ->
 * priority -> traffic class), the switch MMU, PFC (lossless priorities,
 * headroom, thresholds, watchdog, deadlock detection), ECN marking and link
 * loss, with the consistency checks between them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"

static const char *const fabric_keys[] = {
	"buffer", "dscp_map", "ecn", "egress_alpha", "loss", "pfc", "reserve", "scheduler",
	"tc_map", NULL,
};
static const char *const sched_keys[] = { "quantum", "strict", "weights", NULL };
static const char *const dscp_map_keys[] = { "dscp", "priority", NULL };
static const char *const pfc_keys[] = {
	"alpha", "deadlock_check", "disabled_ports", "enabled", "headroom", "pause_quanta",
	"priorities", "watchdog", "xoff", "xon", "xon_offset", NULL,
};
static const char *const wd_keys[] = { "detection", "restoration", NULL };
static const char *const ecn_keys[] = { "kmax", "kmin", "mark_on", "pmax", "tcs", NULL };
static const char *const mark_points[] = { "dequeue", "enqueue", NULL };

void exp_fabric_defaults(struct exp *e)
{
	e->buffer_bytes = UINT64_C(32) << 20;
	for (int d = 0; d < 64; d++)
		e->dscp_to_prio[d] = (uint8_t)(d >> 3); /* class selector: DSCP 26 -> 3, 48 -> 6 */
	for (int p = 0; p < PORT_N_TC; p++)
		e->prio_to_tc[p] = (uint8_t)p;
	e->sched.strict_mask = 0xC0;                   /* TC 6, 7: control traffic */
	for (int tc = 0; tc < PORT_N_TC; tc++)
		e->sched.quantum_bytes[tc] = 4096 + 512;
	/* PFC, when enabled, as the HPCC ns-3 MMU sets it (congestion-control.md
	 * §8): alpha 1/8, resume 3 KiB below, maximal pause. */
	e->pfc.alpha_q16 = SW_Q16 / 8;
	e->pfc.xon_offset_bytes = 3 * 1024;
	e->pfc.quanta = 0xFFFF;
}

static int exp_prio_list(const struct cfg_node *n, const char *what, uint8_t *mask, char *err)
{
	if (cfg_want(n, CFG_SEQ, what, err) != 0)
		return -EINVAL;
	*mask = 0;
	for (uint32_t i = 0; i < n->n; i++) {
		uint8_t v;

		if (exp_small(n->items[i], PORT_N_TC - 1, &v, err) != 0)
			return -EINVAL;
		*mask |= (uint8_t)(1u << v);
	}
	return 0;
}

static int exp_scheduler(struct exp *e, const struct cfg_node *s, char *err)
{
	const struct cfg_node *st, *w;
	uint64_t quantum = 4096 + 512;

	if (exp_map(s, "scheduler", sched_keys, err) != 0)
		return -EINVAL;
	EXP_OPT(s, "quantum", cfg_size(n_, 64, 1 << 20, &quantum, err));
	for (int tc = 0; tc < PORT_N_TC; tc++)
		e->sched.quantum_bytes[tc] = (uint32_t)quantum;
	if ((st = cfg_get(s, "strict")) != NULL &&
	    exp_prio_list(st, "scheduler.strict", &e->sched.strict_mask, err) != 0)
		return -EINVAL;
	if ((w = cfg_get(s, "weights")) != NULL) {
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
			e->sched.quantum_bytes[i] = (uint32_t)(v * quantum);
		}
	}
	return 0;
}

static int exp_classes(struct exp *e, const struct cfg_node *f, char *err)
{
	const struct cfg_node *map, *tm;

	if ((map = cfg_get(f, "dscp_map")) != NULL) {
		if (cfg_want(map, CFG_SEQ, "dscp_map", err) != 0)
			return -EINVAL;
		for (uint32_t i = 0; i < map->n; i++) {
			const struct cfg_node *it = map->items[i], *d, *p;
			uint8_t dscp, prio;

			if (exp_map(it, "dscp_map entry", dscp_map_keys, err) != 0)
				return -EINVAL;
			d = cfg_get(it, "dscp");
			p = cfg_get(it, "priority");
			if (!d || !p) {
				cfg_errorf(err, it, "dscp_map entry needs both 'dscp' and 'priority'");
				return -EINVAL;
			}
			if (exp_dscp(d, &dscp, err) != 0 || exp_small(p, 7, &prio, err) != 0)
				return -EINVAL;
			e->dscp_to_prio[dscp] = prio;
		}
	}
	if ((tm = cfg_get(f, "tc_map")) != NULL) {
		if (cfg_want(tm, CFG_SEQ, "tc_map", err) != 0)
			return -EINVAL;
		if (tm->n != PORT_N_TC) {
			cfg_errorf(err, tm, "tc_map needs 8 entries, the traffic class of priorities 0..7 (got %u)",
				   tm->n);
			return -EINVAL;
		}
		for (uint32_t i = 0; i < tm->n; i++)
			if (exp_small(tm->items[i], PORT_N_TC - 1, &e->prio_to_tc[i], err) != 0)
				return -EINVAL;
	}
	return 0;
}

/* `dynamic` or a size, for pfc.xoff. */
static int exp_xoff(const struct cfg_node *n, uint64_t *bytes, char *err)
{
	if (n->type == CFG_SCALAR && strcmp(n->str, "dynamic") == 0) {
		*bytes = 0;
		return 0;
	}
	return cfg_size(n, 1, UINT64_C(1) << 40, bytes, err);
}

static int exp_headroom(struct exp *e, const struct cfg_node *n, char *err)
{
	e->headroom_mark = n->mark;
	if (n->type == CFG_SCALAR && strcmp(n->str, "auto") == 0) {
		e->pfc.headroom_bytes = 0;
		return 0;
	}
	if (n->type == CFG_MAP) {
		/* Per priority: every key must be a lossless priority, and one
		 * size applies (the model sizes headroom per port). */
		uint64_t v = 0;

		for (uint32_t i = 0; i < n->n; i++) {
			uint8_t pr;

			if (exp_small(n->keys[i], 7, &pr, err) != 0)
				return -EINVAL;
			if (!(e->pfc.lossless_prio & (1u << pr))) {
				cfg_errorf(err, n->keys[i],
					   "headroom configured for priority %u, which is lossy (PFC priorities are in fabric.pfc.priorities)",
					   pr);
				return -EINVAL;
			}
			if (cfg_size(n->items[i], 1, e->buffer_bytes, &v, err) != 0)
				return -EINVAL;
			if (e->pfc.headroom_bytes && v != e->pfc.headroom_bytes) {
				cfg_errorf(err, n->items[i],
					   "all lossless priorities share one headroom size in this model");
				return -EINVAL;
			}
			e->pfc.headroom_bytes = v;
		}
		return 0;
	}
	return cfg_size(n, 1, e->buffer_bytes, &e->pfc.headroom_bytes, err);
}

static int exp_pfc(struct exp *e, const struct cfg_node *p, char *err)
{
	const struct cfg_node *n, *xon = NULL;
	bool enabled = true;
	double alpha;
	uint64_t v;

	if (exp_map(p, "pfc", pfc_keys, err) != 0)
		return -EINVAL;
	EXP_OPT(p, "enabled", cfg_bool(n_, &enabled, err));
	e->pfc.lossless_prio = 1u << 3; /* RoCE on priority 3 */
	if ((n = cfg_get(p, "priorities")) != NULL &&
	    exp_prio_list(n, "pfc.priorities", &e->pfc.lossless_prio, err) != 0)
		return -EINVAL;
	if ((n = cfg_get(p, "alpha")) != NULL) {
		if (cfg_fraction(n, 1.0 / 1024, 64, &alpha, err) != 0)
			return -EINVAL;
		e->pfc.alpha_q16 = (uint32_t)(alpha * SW_Q16 + 0.5);
	}
	EXP_OPT(p, "xoff", exp_xoff(n_, &e->pfc.xoff_bytes, err));
	if (e->pfc.xoff_bytes > e->buffer_bytes) {
		cfg_errorf(err, cfg_get(p, "xoff"), "xoff threshold %llu bytes is above the buffer size (%llu bytes)",
			   (unsigned long long)e->pfc.xoff_bytes, (unsigned long long)e->buffer_bytes);
		return -EINVAL;
	}
	if ((xon = cfg_get(p, "xon")) != NULL) {
		if (!e->pfc.xoff_bytes) {
			cfg_errorf(err, xon, "xon is a static threshold: set a static xoff too, or use xon_offset with the dynamic one");
			return -EINVAL;
		}
		if (cfg_size(xon, 0, UINT64_C(1) << 40, &e->pfc.xon_bytes, err) != 0)
			return -EINVAL;
		if (e->pfc.xon_bytes > e->pfc.xoff_bytes) {
			cfg_errorf(err, xon, "xon (%llu bytes) is above xoff (%llu bytes): a paused queue would resume before it drains",
				   (unsigned long long)e->pfc.xon_bytes, (unsigned long long)e->pfc.xoff_bytes);
			return -EINVAL;
		}
	} else if (e->pfc.xoff_bytes) {
		/* A static xoff without xon resumes 3 KiB below it. */
		e->pfc.xon_bytes = e->pfc.xoff_bytes > 3072 ? e->pfc.xoff_bytes - 3072 : 0;
	}
	if ((n = cfg_get(p, "xon_offset")) != NULL) {
		if (cfg_size(n, 0, e->buffer_bytes, &v, err) != 0)
			return -EINVAL;
		e->pfc.xon_offset_bytes = (uint32_t)v;
	}
	if ((n = cfg_get(p, "pause_quanta")) != NULL) {
		if (cfg_u64(n, 1, 0xFFFF, &v, err) != 0)
			return -EINVAL;
		e->pfc.quanta = (uint16_t)v;
	}
	EXP_OPT(p, "headroom", exp_headroom(e, n_, err));
	if ((n = cfg_get(p, "watchdog")) != NULL) {
		const struct cfg_node *d, *r;

		if (exp_map(n, "pfc.watchdog", wd_keys, err) != 0)
			return -EINVAL;
		e->pfc.wd_detect_ps = 200 * UNITS_PS_PER_MS; /* SONiC pfcwd defaults */
		e->pfc.wd_restore_ps = 200 * UNITS_PS_PER_MS;
		if ((d = cfg_get(n, "detection")) && cfg_time(d, &e->pfc.wd_detect_ps, err) != 0)
			return -EINVAL;
		if ((r = cfg_get(n, "restoration")) && cfg_time(r, &e->pfc.wd_restore_ps, err) != 0)
			return -EINVAL;
		if (!e->pfc.wd_detect_ps) {
			cfg_errorf(err, d, "watchdog detection time must be above 0");
			return -EINVAL;
		}
	}
	e->deadlock_check_ps = UNITS_PS_PER_MS;
	EXP_OPT(p, "deadlock_check", cfg_time(n_, &e->deadlock_check_ps, err));
	if ((n = cfg_get(p, "disabled_ports")) != NULL) {
		if (cfg_want(n, CFG_SEQ, "pfc.disabled_ports", err) != 0)
			return -EINVAL;
		e->pfc_off = calloc(n->n ? n->n : 1, sizeof(*e->pfc_off));
		e->pfc_off_marks = calloc(n->n ? n->n : 1, sizeof(*e->pfc_off_marks));
		if (!e->pfc_off || !e->pfc_off_marks)
			return -ENOMEM;
		for (uint32_t i = 0; i < n->n; i++) {
			if (exp_port_ref(e, n->items[i], &e->pfc_off[i], err) != 0)
				return -EINVAL;
			e->pfc_off_marks[i] = n->items[i]->mark;
			e->n_pfc_off++;
		}
	}
	if (!enabled) {
		e->pfc.lossless_prio = 0;
		e->deadlock_check_ps = 0;
	}
	return 0;
}

static int exp_ecn(struct exp *e, const struct cfg_node *c, char *err)
{
	const struct cfg_node *n;
	double pmax = 0.2;
	int point = 0;

	if (exp_map(c, "ecn", ecn_keys, err) != 0)
		return -EINVAL;
	e->ecn_tc_mask = 1u << 3;
	/* HPCC-paper settings at 100G (congestion-control.md §1). */
	e->red.kmin_bytes = 400 * 1000;
	e->red.kmax_bytes = 1600 * 1000;
	if ((n = cfg_get(c, "tcs")) != NULL && exp_prio_list(n, "ecn.tcs", &e->ecn_tc_mask, err) != 0)
		return -EINVAL;
	EXP_OPT(c, "kmin", cfg_size(n_, 0, e->buffer_bytes, &e->red.kmin_bytes, err));
	EXP_OPT(c, "kmax", cfg_size(n_, 0, e->buffer_bytes, &e->red.kmax_bytes, err));
	EXP_OPT(c, "pmax", cfg_fraction(n_, 0, 1, &pmax, err));
	EXP_OPT(c, "mark_on", cfg_enum(n_, mark_points, &point, err));
	if (e->red.kmin_bytes > e->red.kmax_bytes) {
		cfg_errorf(err, cfg_get(c, "kmin") ? cfg_get(c, "kmin") : c,
			   "kmin (%llu bytes) is above kmax (%llu bytes)",
			   (unsigned long long)e->red.kmin_bytes, (unsigned long long)e->red.kmax_bytes);
		return -EINVAL;
	}
	e->red.pmax_ppm = (uint32_t)(pmax * SW_RED_ONE + 0.5);
	e->ecn_on_enqueue = point == 1;
	return 0;
}

int exp_fabric(struct exp *e, const struct cfg_node *f, char *err)
{
	const struct cfg_node *n;
	double a;
	uint64_t v;

	if (exp_map(f, "fabric", fabric_keys, err) != 0)
		return -EINVAL;
	e->buffer_mark = cfg_get(f, "buffer") ? cfg_get(f, "buffer")->mark : f->mark;
	EXP_OPT(f, "buffer", cfg_size(n_, 1, UINT64_C(1) << 40, &e->buffer_bytes, err));
	EXP_OPT(f, "scheduler", exp_scheduler(e, n_, err));
	if (exp_classes(e, f, err) != 0)
		return -EINVAL;
	if ((n = cfg_get(f, "reserve")) != NULL) {
		if (cfg_size(n, 0, e->buffer_bytes, &v, err) != 0)
			return -EINVAL;
		e->reserve_bytes = (uint32_t)v;
	}
	if ((n = cfg_get(f, "egress_alpha")) != NULL) {
		if (cfg_fraction(n, 1.0 / 1024, 64, &a, err) != 0)
			return -EINVAL;
		e->egress_alpha_q16 = (uint32_t)(a * SW_Q16 + 0.5);
	}
	EXP_OPT(f, "loss", cfg_double(n_, 0, 1, &e->loss, err));
	EXP_OPT(f, "pfc", exp_pfc(e, n_, err));
	EXP_OPT(f, "ecn", exp_ecn(e, n_, err));
	return 0;
}
