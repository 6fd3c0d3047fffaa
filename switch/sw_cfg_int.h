/* Private to switch/'s configuration readers (sw_cfg.c, sw_cfg_ecn.c,
 * sw_cfg_path.c): the shared value readers and the nested sections each
 * file contributes to the `fabric:` table. */
#ifndef FAB_SW_CFG_INT_H
#define FAB_SW_CFG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "cfg_schema.h"
#include "sw.h"

#define SW_CFG_OFF(f) offsetof(struct sw_params, f)

/* An integer 0..@max into *@out. */
int sw_cfg_small(const struct cfg_node *n, uint8_t max, uint8_t *out, char err[CFG_ERR_BYTES]);
/* A list of priorities (or classes) 0..7 as a bit mask; @what names it. */
int sw_cfg_prio_list(const struct cfg_node *n, const char *what, uint8_t *mask,
		     char err[CFG_ERR_BYTES]);
/* A size of at least @min up to the buffer (read before); a default
 * beyond a small buffer applies unchecked and is left out of the
 * resolved experiment. */
int sw_cfg_upto_buffer(const struct cfg_node *n, const struct sw_params *p, uint64_t min,
		       uint64_t *out, char err[CFG_ERR_BYTES]);
/* A per-rate list of at most SW_N_RATES entries; @what names it. */
int sw_cfg_rate_list(const struct cfg_node *n, const char *what, char err[CFG_ERR_BYTES]);
/* Entry @i of the per-rate list @list: a map with every key of @keys
 * ("rate" first; @need spells them) and a rate no earlier entry has
 * (@rates_bps[0..@i)), which it appends to @rates_bps. */
int sw_cfg_rate_entry(const struct cfg_node *list, uint32_t i, const char *what,
		      const char *const *keys, const char *need, uint64_t *rates_bps,
		      char err[CFG_ERR_BYTES]);

/* fabric.ecn with its queue managers' sections, and fabric.ib_cc
 * (sw_cfg_ecn.c); fabric.path (sw_cfg_path.c). */
extern const struct cfg_sub sw_cfg_ecn_subs[];
extern const struct cfg_sub sw_cfg_ib_cc_subs[];
extern const struct cfg_sub sw_cfg_path_subs[];

#endif
