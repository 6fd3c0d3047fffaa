/* Private to the experiment loader (exp_load.c, exp_fabric.c): shared
 * readers and the run module's key tables. */
#ifndef FAB_EXP_INT_H
#define FAB_EXP_INT_H

#include "cfg_schema.h"
#include "exp.h"

enum {
	EXP_POOL_HEADERS_PKTS = 1 << 17, /* default pool, headers-only packets (~0.3 KiB each) */
	EXP_POOL_PAYLOAD_PKTS = 1 << 15, /* default pool with payload (~4.4 KiB each at 4 KiB MTU) */
};

/* "node:port" naming a connected port of the topology (exp_ports.c). */
int exp_port_ref(const struct exp *e, const struct cfg_node *n, struct exp_capture *out,
		 char err[CFG_ERR_BYTES]);
/* A list of ports: "node:port" entries or patterns (`leaf*:*`), expanded
 * into *@out (malloc'd, node then port order within a pattern), with
 * where each was named in *@marks when @marks is not NULL. @unique: an
 * exact entry named twice is an error (a port a pattern matches again is
 * taken once). @what names the list in type errors. 0 or -errno. */
int exp_port_list(const struct exp *e, const struct cfg_node *list, const char *what,
		  bool unique, struct exp_capture **out, struct cfg_mark **marks,
		  uint32_t *n_out, char err[CFG_ERR_BYTES]);
/* The assertions (exp_expect.c): the expect: key's reader and its
 * entries' table (for the schema). */
int exp_expects_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES]);
const struct cfg_table *exp_expect_table(void);
/* exp_expect_unit.c: a bound @n, a number >= @lo or a quantity with a unit
 * (*dim says which; then in ps, bytes or bit/s); the unit of @a's metric as
 * docs/results.md writes it (NULL: not known); and @a's bounds with units
 * converted into it (bad input at the bound when the dimensions differ). */
int exp_expect_qty(const struct cfg_node *n, double lo, double *out, enum exp_dim *dim,
		   char err[CFG_ERR_BYTES]);
const char *exp_metric_unit(const struct exp_expect *a);
int exp_expect_units(struct exp_expect *a, const struct cfg_node *it, char err[CFG_ERR_BYTES]);
/* The fault schedule (exp_faults.c): the faults: key's reader, its keys
 * and every fault kind's into @out (the schema; 0 or -ENOMEM), and the
 * release of what it read. */
int exp_faults_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES]);
int exp_faults_schema(struct cfg_schema_names *out);
/* The live: section (exp_live.c): its tables, and the keys of its ports'
 * entries into @out (the schema; 0 or -ENOMEM). */
extern const struct cfg_sub exp_live_subs[];
int exp_live_schema(struct cfg_schema_names *out);
/* failures: random failure processes per component kind, drawn from the
 * seed into more entries of the schedule (after faults:). */
int exp_failures_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES]);
void exp_faults_free(struct exp *e);
/* The loader's judgement of a workload's estimate (tg_wl_admit; @arg the
 * struct exp being read): refused, with -EINVAL and @err at @at, when
 * the experiment would pass EXP_MAX_MSGS, a graph index (2^32 - 1
 * operations or edges) or its memory bound with it (exp_estimate.c). */
int exp_estimate_admit(void *arg, const struct cfg_node *at, const char *kind,
		       const struct tg_wl_est *est, char err[CFG_ERR_BYTES]);
/* The whole experiment @e within its memory bound (its packet pool
 * included), else -EINVAL with @err at @at. */
int exp_estimate_check(const struct exp *e, const struct cfg_node *at, char err[CFG_ERR_BYTES]);
/* The run module's keys of the fabric: section (loss, pfc.enabled,
 * pfc.deadlock_check, pfc.disabled_ports), beside the switch's; params
 * struct exp. */
extern const struct cfg_table exp_fabric_table;

#endif
