/* The collectives' names and the registry of collective algorithms
 * (core/reg): one file per algorithm (tg_coll_int.h, struct
 * tg_coll_alg_ops), one line in the built-in list below. Which algorithm
 * runs which collective, the defaults and the refusal's list all come
 * from the algorithms' own kinds masks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tg_coll_int.h"


/* The built-in algorithms, one line each; the order is struct tg_coll's
 * alg and decides each collective's default (the first that runs it). */
#define TG_COLL_ALG_BUILTIN(X) \
	X(struct tg_coll_alg_ops, tg_coll_ring_alg) \
	X(struct tg_coll_alg_ops, tg_coll_hier_alg) \
	X(struct tg_coll_alg_ops, tg_coll_hd_alg) \
	X(struct tg_coll_alg_ops, tg_coll_direct_alg) \
	X(struct tg_coll_alg_ops, tg_coll_tree_alg) \
	X(struct tg_coll_alg_ops, tg_coll_innet_alg)

TG_COLL_ALG_BUILTIN(REG_DECLARE)

static const struct reg_kind *const tg_coll_alg_builtin[] = { TG_COLL_ALG_BUILTIN(REG_ENTRY) NULL };

const char *const tg_coll_kinds[TG_COLL_N + 1] = {
	[TG_COLL_ALL_REDUCE] = "all-reduce",
	[TG_COLL_ALL_GATHER] = "all-gather",
	[TG_COLL_REDUCE_SCATTER] = "reduce-scatter",
	[TG_COLL_BROADCAST] = "broadcast",
	[TG_COLL_ALL_TO_ALL] = "all-to-all",
	[TG_COLL_N] = NULL,
};

#define TG_COLL_ALL_KINDS ((1u << TG_COLL_N) - 1)

static int tg_coll_alg_check_ops(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct tg_coll_alg_ops *a = REG_OPS(struct tg_coll_alg_ops, k);

	if (!a->build || !a->est || !(a->kinds & TG_COLL_ALL_KINDS) || (a->kinds & ~TG_COLL_ALL_KINDS)) {
		snprintf(err, CFG_ERR_BYTES,
			 "collective algorithm '%s': needs build, est and the collectives it runs", k->name);
		return -EINVAL;
	}
	return 0;
}

static struct reg tg_coll_alg_reg = REG_INIT("collective algorithm", tg_coll_alg_builtin,
					     tg_coll_alg_check_ops);

const char *const *tg_coll_kind_names(void)
{
	return tg_coll_kinds;
}

const char *const *tg_coll_alg_names(void)
{
	return reg_names(&tg_coll_alg_reg);
}

double tg_coll_bus_factor(uint8_t kind, uint32_t n)
{
	if (n < 2)
		return 0;
	if (kind == TG_COLL_ALL_REDUCE)
		return 2.0 * (n - 1) / n;
	if (kind == TG_COLL_BROADCAST)
		return 1;
	return (double)(n - 1) / n;
}

int tg_coll_alg_register(const struct tg_coll_alg_ops *ops, char err[CFG_ERR_BYTES])
{
	return reg_add(&tg_coll_alg_reg, &ops->kind, err);
}

int tg_coll_alg_read(const struct cfg_node *n, const struct tg_coll_alg_ops **out,
		     char err[CFG_ERR_BYTES])
{
	const struct reg_kind *k;
	int rc = reg_read(&tg_coll_alg_reg, n, &k, err);

	if (rc == 0)
		*out = REG_OPS(struct tg_coll_alg_ops, k);
	return rc;
}

const struct tg_coll_alg_ops *tg_coll_alg_default(uint8_t kind)
{
	const struct reg_kind *k;

	for (unsigned i = 0; (k = reg_at(&tg_coll_alg_reg, i)) != NULL; i++)
		if (REG_OPS(struct tg_coll_alg_ops, k)->kinds & 1u << kind)
			return REG_OPS(struct tg_coll_alg_ops, k);
	return NULL; /* none runs it: refused when registered (ring runs all
		      * but all-to-all, direct all-to-all) */
}

uint8_t tg_coll_alg_index(const struct tg_coll_alg_ops *ops)
{
	return (uint8_t)reg_index(&tg_coll_alg_reg, &ops->kind);
}

/* What @mask runs, in words: "all", "all but K", or the kinds listed. */
static void tg_coll_mask_words(uint32_t mask, char *buf, size_t size)
{
	uint32_t missing = TG_COLL_ALL_KINDS & ~mask;
	size_t len = 0;

	if (!missing) {
		snprintf(buf, size, "all");
		return;
	}
	if (!(missing & (missing - 1)) && TG_COLL_N > 2) {
		for (unsigned k = 0; k < TG_COLL_N; k++)
			if (missing & 1u << k)
				snprintf(buf, size, "all but %s", tg_coll_kinds[k]);
		return;
	}
	buf[0] = '\0';
	for (unsigned k = 0; k < TG_COLL_N && len < size; k++)
		if (mask & 1u << k)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
						tg_coll_kinds[k]);
}

/* Which algorithms run what, algorithms with the same collectives
 * grouped, in registry order: "ring: all but all-to-all; hierarchical,
 * halving-doubling, tree: all-reduce; direct: all-to-all". */
static void tg_coll_alg_table(char *buf, size_t size)
{
	const struct reg_kind *k, *o;
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; (k = reg_at(&tg_coll_alg_reg, i)) != NULL && len < size; i++) {
		uint32_t mask = REG_OPS(struct tg_coll_alg_ops, k)->kinds;
		bool seen = false;
		char words[128];

		for (unsigned j = 0; j < i && !seen; j++)
			seen = REG_OPS(struct tg_coll_alg_ops, reg_at(&tg_coll_alg_reg, j))->kinds == mask;
		if (seen)
			continue; /* listed with the first of its group */
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "; " : "", k->name);
		for (unsigned j = i + 1; (o = reg_at(&tg_coll_alg_reg, j)) != NULL && len < size; j++)
			if (REG_OPS(struct tg_coll_alg_ops, o)->kinds == mask)
				len += (size_t)snprintf(buf + len, size - len, ", %s", o->name);
		tg_coll_mask_words(mask, words, sizeof(words));
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, ": %s", words);
	}
}

int tg_coll_alg_check(const struct tg_coll_alg_ops *ops, uint8_t kind, const struct cfg_node *at,
		      char err[CFG_ERR_BYTES])
{
	char table[256];

	if (ops->kinds & 1u << kind)
		return 0;
	tg_coll_alg_table(table, sizeof(table));
	cfg_errorf(err, at, "algorithm %s does not run %s (%s)", ops->kind.name, tg_coll_kinds[kind],
		   table);
	return -EINVAL;
}

int tg_coll_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	return b->alg->build(b, at, err);
}

uint64_t tg_wl_coll_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	return b->alg->est(b, rg, e);
}
