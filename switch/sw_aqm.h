/* Queue managers (AQM): what an egress queue does with an ECN-capable
 * frame of a marking class (fabric.ecn.tcs), on enqueue or on dequeue
 * (fabric.ecn.mark_on): pass it or mark it CE. One const struct
 * sw_aqm_ops per manager, one file each (sw_aqm_red.c: RED, the default;
 * sw_aqm_none.c: never marks) plus one line in the registry's built-in list
 * (sw_aqm.c, core/reg.h), or added with sw_aqm_register; fabric.ecn.aqm
 * names it. The switch allocates priv_size bytes of state per egress port
 * at setup and resolves the ops once per switch; RED's decision is
 * expanded inline on the data path, any other is one direct call. */
#ifndef FAB_SW_AQM_H
#define FAB_SW_AQM_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "reg.h"

struct sw_params;

enum {
	SW_AQM_SETTINGS_BYTES = 256, /* room in struct sw_params for the settings of every
				      * registered manager (fabric.ecn.<name>) */
};

/* What a queue manager decides for a frame. */
enum sw_aqm_verdict {
	SW_AQM_PASS, /* leave it as it is */
	SW_AQM_MARK, /* mark it CE (counted in ecn_marked, per switch and port) */
};

struct sw_aqm_ops {
	struct reg_kind kind; /* name ("red", "none", ...), doc, and its settings:
			       * the keys of its section fabric.ecn.<name> (may be
			       * none); first */
	size_t priv_size;     /* state per egress port, bytes (zeroed at setup); 0: none */
	/* Set up egress port state @priv for a link of @rate_bps under @p,
	 * with the manager's settings @settings (NULL when it has none).
	 * Called by sw_new with @rate_bps 0 (not wired yet: the fabric-wide
	 * settings) and again, on zeroed state, by sw_ready with the port's
	 * rate when the switch marks; never per frame. 0, or -errno with
	 * @err filled (sw_ready puts "port N " before it). May be NULL (the
	 * state stays zeroed). */
	int (*init)(void *priv, const struct sw_params *p, const void *settings,
		    uint64_t rate_bps, char err[CFG_ERR_BYTES]);
	/* The verdict on an ECN-capable frame (ECT, not yet CE) of a marking
	 * class at egress port state @priv, with @q_bytes queued in its
	 * traffic class (at enqueue: before it; at dequeue: after it left),
	 * at @now_ps; @rng is the switch's marking stream (splitmix64 state):
	 * draw from it only where a draw decides, so that given the same
	 * frames the same marks follow. Runs per frame: no allocation, no
	 * strings. May be NULL: the manager never marks (the switch then
	 * calls nothing at all). */
	enum sw_aqm_verdict (*decide)(void *priv, uint64_t q_bytes, uint64_t now_ps,
				      uint64_t *rng);
};

/* Register manager @ops after the built-in ones (at program start, before
 * experiments are read): 0, or -EINVAL / -ENOSPC with @err filled (a name
 * taken or empty, no doc line, settings without a size, or settings that
 * no longer fit SW_AQM_SETTINGS_BYTES with the others'). */
int sw_aqm_register(const struct sw_aqm_ops *ops, char err[CFG_ERR_BYTES]);
/* Manager by name, NULL if unknown. */
const struct sw_aqm_ops *sw_aqm_find(const char *name);
/* Read a manager's name from @n (fabric.ecn.aqm): 0, or -EINVAL with
 * "unknown value ... did you mean" filled. */
int sw_aqm_read(const struct cfg_node *n, const struct sw_aqm_ops **out,
		char err[CFG_ERR_BYTES]);
/* NULL-terminated names in registry order (the default, red, first). */
const char *const *sw_aqm_names(void);
/* @ops's settings in @p->aqm_settings (read from fabric.ecn.<name>), or
 * NULL when it has none. */
const void *sw_aqm_settings(const struct sw_params *p, const struct sw_aqm_ops *ops);
void *sw_aqm_settings_mut(struct sw_params *p, const struct sw_aqm_ops *ops);

/* The shipped managers (one file each). */
extern const struct sw_aqm_ops sw_aqm_red_ops;
extern const struct sw_aqm_ops sw_aqm_none_ops;

#endif
