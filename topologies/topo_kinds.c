/* The registry of topology kinds (core/reg.h): the built-in list, one line
 * a kind, and topo_register for more. Names, "did you mean", the kind list
 * in messages and the reference's key tables all come from here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "topo_int.h"

/* The built-in kinds, one line each, in registry order (the order of the
 * valid values in messages and of the kinds in the reference). X declares
 * a kind's ops table (defined in its own file) or lists it. */
#define TOPO_BUILTIN_KINDS(X) \
	X(topo_ls_kind)   /* leaf-spine, topo_ls.c */ \
	X(topo_ft_kind)   /* fat-tree, topo_ft.c */ \
	X(topo_x_kind)    /* explicit, topo_x.c */ \
	X(topo_rail_kind) /* rail-optimised, topo_rail*.c */ \
	X(topo_ns3_kind)  /* ns3, topo_ns3.c */

#define TOPO_KIND_DECLARE(ops) extern const struct topo_kind ops;
#define TOPO_KIND_ENTRY(ops) &ops.kind,

TOPO_BUILTIN_KINDS(TOPO_KIND_DECLARE)

static const struct reg_kind *const topo_builtin[] = { TOPO_BUILTIN_KINDS(TOPO_KIND_ENTRY) NULL };

/* A kind's own requirements: a build hook and a key table that reads the
 * `topology` section and starts with `kind`. */
static int topo_kind_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct topo_kind *ops = REG_OPS(struct topo_kind, k);
	const char *why = NULL;

	if (!ops->build)
		why = "no build";
	else if (!k->settings)
		why = "no key table";
	else if (k->settings->n_keys == 0 || strcmp(k->settings->keys[0].name, "kind") != 0)
		why = "the key table's first key is not 'kind'";
	else if (!k->settings->section || strcmp(k->settings->section, "topology") != 0)
		why = "the key table's section is not 'topology'";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "topology kind '%s': %s", k->name, why);
		return -EINVAL;
	}
	return 0;
}

/* The registry itself: filled on first use, appended to by topo_register
 * at program start, read-only once experiments load. */
static struct reg topo_kind_reg = REG_INIT("topology kind", topo_builtin, topo_kind_check);

int topo_register(const struct topo_kind *kind, char err[CFG_ERR_BYTES])
{
	return reg_add(&topo_kind_reg, &kind->kind, err);
}

const struct topo_kind *topo_kind_find(const char *name)
{
	const struct reg_kind *k = name ? reg_find(&topo_kind_reg, name) : NULL;

	return k ? REG_OPS(struct topo_kind, k) : NULL;
}

const struct topo_kind *topo_kind_of(const struct topo *t)
{
	return topo_kind_find(t->kind);
}

const char *const *topo_kind_names(void)
{
	return reg_names(&topo_kind_reg);
}

const struct cfg_table *topo_kind_table(unsigned i)
{
	const struct reg_kind *k = reg_at(&topo_kind_reg, i);

	return k ? k->settings : NULL;
}

int topo_kind_read(const struct cfg_node *n, const struct topo_kind **out,
		   char err[CFG_ERR_BYTES])
{
	const struct reg_kind *k;
	int rc = reg_read(&topo_kind_reg, n, &k, err);

	if (rc == 0)
		*out = REG_OPS(struct topo_kind, k);
	return rc;
}

char *topo_kind_list(char *buf, size_t size)
{
	return reg_list(&topo_kind_reg, buf, size);
}
