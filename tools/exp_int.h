/* Private to the experiment loader (exp_load.c, exp_fabric.c): shared
 * readers and the section parsers. */
#ifndef FAB_EXP_INT_H
#define FAB_EXP_INT_H

#include "exp.h"

/* Read optional @key of @map with @call (which sees the node as n_);
 * absent keeps the default; an error returns -EINVAL from the caller. */
#define EXP_OPT(map, key, call)                                  \
	do {                                                      \
		const struct cfg_node *n_ = cfg_get((map), (key)); \
		if (n_ && (call) != 0)                             \
			return -EINVAL;                            \
	} while (0)

/* @n must be a map whose keys are all in @keys. */
int exp_map(const struct cfg_node *n, const char *what, const char *const *keys, char *err);
int exp_dscp(const struct cfg_node *n, uint8_t *out, char *err);
/* An integer 0..@max. */
int exp_small(const struct cfg_node *n, uint8_t max, uint8_t *out, char *err);
/* "node:port" naming a connected port of the topology. */
int exp_port_ref(const struct exp *e, const struct cfg_node *n, struct exp_capture *out, char *err);
/* The fabric: section. */
int exp_fabric(struct exp *e, const struct cfg_node *f, char *err);
void exp_fabric_defaults(struct exp *e);

#endif
