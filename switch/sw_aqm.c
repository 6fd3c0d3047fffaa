/* The queue-manager registry (see sw_aqm.h, core/reg.h): the built-in
 * managers, the default (red) first, and those sw_aqm_register adds, with
 * their settings sections under fabric.ecn; and the switch's glue: each
 * egress port's state, set up once, and the marking decision per frame
 * (sw_ecn), with RED's expanded inline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sw_int.h"

/* A manager being registered: its settings must fit in sw_params'
 * room beside those registered before it. */
static int sw_aqm_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	size_t need = (k->settings_size + REG_ALIGN - 1) / REG_ALIGN * REG_ALIGN;

	if (sw_aqm_reg.block_bytes + need > SW_AQM_SETTINGS_BYTES) {
		snprintf(err, CFG_ERR_BYTES,
			 "queue manager '%s': its settings (%zu bytes) do not fit the %d bytes the managers share (SW_AQM_SETTINGS_BYTES)",
			 k->name, k->settings_size, SW_AQM_SETTINGS_BYTES);
		return -EINVAL;
	}
	return 0;
}

/* The built-in managers, the default (red) first: one line each. */
#define SW_AQM_BUILTIN(X) \
	X(struct sw_aqm_ops, sw_aqm_red_ops) \
	X(struct sw_aqm_ops, sw_aqm_none_ops)

SW_AQM_BUILTIN(REG_DECLARE)

static const struct reg_kind *const sw_aqm_builtin[] = { SW_AQM_BUILTIN(REG_ENTRY) NULL };

/* Its section table is complete before first use (the built-in managers
 * have no sections of their own; reg_add fills in added ones'), so that
 * fabric.ecn's reader may name it statically (sw_cfg_ecn.c). */
struct reg sw_aqm_reg = {
	.what = "queue manager",
	.builtin = sw_aqm_builtin,
	.check = sw_aqm_check,
	.section = "fabric.ecn",
	.table = { .section = "fabric.ecn", .keys = sw_aqm_reg.keys },
};

/* Take the built-in list in at program start: fabric.ecn's reader names
 * the section table above statically, so a built-in manager with settings
 * must have its section there before anything else asks the registry. */
__attribute__((constructor)) static void sw_aqm_reg_ready(void)
{
	(void)reg_count(&sw_aqm_reg);
}

int sw_aqm_register(const struct sw_aqm_ops *ops, char err[CFG_ERR_BYTES])
{
	return reg_add(&sw_aqm_reg, &ops->kind, err);
}

const struct sw_aqm_ops *sw_aqm_find(const char *name)
{
	const struct reg_kind *k = reg_find(&sw_aqm_reg, name);

	return k ? REG_OPS(struct sw_aqm_ops, k) : NULL;
}

int sw_aqm_read(const struct cfg_node *n, const struct sw_aqm_ops **out,
		char err[CFG_ERR_BYTES])
{
	const struct reg_kind *k;
	int rc = reg_read(&sw_aqm_reg, n, &k, err);

	if (rc == 0)
		*out = REG_OPS(struct sw_aqm_ops, k);
	return rc;
}

const char *const *sw_aqm_names(void)
{
	return reg_names(&sw_aqm_reg);
}

void *sw_aqm_settings_mut(struct sw_params *p, const struct sw_aqm_ops *ops)
{
	int i = reg_index(&sw_aqm_reg, &ops->kind);

	if (i < 0 || !ops->kind.settings)
		return NULL;
	return p->aqm_settings + sw_aqm_reg.off[i];
}

const void *sw_aqm_settings(const struct sw_params *p, const struct sw_aqm_ops *ops)
{
	return sw_aqm_settings_mut((struct sw_params *)p, ops);
}

/* The decision of a manager without one (none): never a mark. The switch
 * does not call it (its marking classes are cleared); it stands in so
 * that sw_ecn never tests for NULL. */
static enum sw_aqm_verdict sw_aqm_pass(void *priv, uint64_t q_bytes, uint64_t now_ps,
				       uint64_t *rng)
{
	(void)priv;
	(void)q_bytes;
	(void)now_ps;
	(void)rng;
	return SW_AQM_PASS;
}

/* Egress port @i's state. */
static void *sw_aqm_priv(struct sw *s, uint16_t i)
{
	return s->aqm_priv + (size_t)i * s->aqm_priv_bytes;
}

int sw_aqm_setup(struct sw *s)
{
	const struct sw_aqm_ops *ops = s->p.aqm ? s->p.aqm : &sw_aqm_red_ops;
	uint16_t n = s->n_ports; /* ports with state of their own */
	char err[CFG_ERR_BYTES];

	s->aqm = ops;
	s->aqm_red = ops == &sw_aqm_red_ops;
	s->aqm_decide = ops->decide ? ops->decide : sw_aqm_pass;
	s->aqm_priv_bytes = (uint32_t)ops->priv_size;
	if (!ops->decide)
		s->ecn_enq_mask = s->ecn_deq_mask = 0; /* never marks: nothing to call */
	/* A switch that never marks never asks the manager (sw_ecn, and
	 * sw_aqm_port_rate from sw_ready) after this: one port's state checks
	 * the settings, as every port's would alike. */
	if (!(s->ecn_enq_mask | s->ecn_deq_mask) && n > 1)
		n = 1;
	s->aqm_priv = calloc(n ? n : 1, ops->priv_size ? ops->priv_size : 1);
	if (!s->aqm_priv)
		return -ENOMEM;
	for (uint16_t i = 0; i < n && ops->init; i++) {
		int rc = ops->init(sw_aqm_priv(s, i), &s->p, sw_aqm_settings(&s->p, ops), 0, err);

		if (rc != 0)
			return rc;
	}
	return 0;
}

int sw_aqm_port_rate(struct sw *s, uint16_t i, uint64_t rate_bps, char err[CFG_ERR_BYTES])
{
	const struct sw_aqm_ops *ops = s->aqm;
	char why[CFG_ERR_BYTES];
	int rc;

	if (!ops->init)
		return 0;
	memset(sw_aqm_priv(s, i), 0, ops->priv_size);
	rc = ops->init(sw_aqm_priv(s, i), &s->p, sw_aqm_settings(&s->p, ops), rate_bps, why);
	if (rc != 0)
		snprintf(err, CFG_ERR_BYTES, "port %u %.*s", i, CFG_ERR_BYTES - 16, why);
	return rc;
}

void sw_ecn(struct sw *s, struct port *p, struct rte_mbuf *m, uint64_t q_bytes)
{
	uint8_t ecn = pkt_ll_ecn(port_ll_kind(p), m);
	uint16_t i;
	int mark;

	/* Only ECN-capable frames not yet marked reach the manager: a frame
	 * that cannot be marked costs no draw. */
	if (ecn == PKT_ECN_NOT_ECT || ecn == PKT_ECN_CE)
		return;
	/* fabric.ecn.host_links: false: nothing marks toward an endpoint. */
	if (unlikely(s->ecn_switches_only) && p->peer && !sw_port_is_switch(p->peer))
		return;
	i = port_index(p);
	if (likely(s->aqm_red))
		mark = sw_red_decide((const struct sw_red_params *)s->aqm_priv + i, q_bytes,
				     &s->ecn_rng);
	else
		mark = s->aqm_decide(sw_aqm_priv(s, i), q_bytes, s->sim->now_ps, &s->ecn_rng) ==
		       SW_AQM_MARK;
	if (mark) {
		pkt_ll_mark_ce(port_ll_kind(p), m);
		s->stats.ecn_marked++;
		s->px[i].stats.ecn_marked++;
	}
}
