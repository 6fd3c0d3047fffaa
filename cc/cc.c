/* The registry of congestion-control algorithms (core/reg): the built-in
 * list, one line per algorithm (one file each), cc_register for more, the
 * checks an algorithm passes to be registered, and their `nic.<name>`
 * settings sections, all kept in one settings block. */
#include <errno.h>
#include <stdio.h>

#include "cc_int.h"
#include "cc_rccc.h"
#include "cfg_schema.h"

/* Registry order: the order of names in messages and listings. */
#define CC_BUILTIN(X) \
	X(struct cc_ops, cc_none_ops) \
	X(struct cc_ops, cc_dcqcn_ops) \
	X(struct cc_ops, cc_dctcp_ops) \
	X(struct cc_ops, cc_hpcc_ops) \
	X(struct cc_ops, cc_timely_ops) \
	X(struct cc_ops, cc_swift_ops) \
	X(struct cc_ops, cc_ibcc_ops) \
	X(struct cc_ops, cc_nscc_ops) \
	X(struct cc_ops, cc_rccc_ops) \
	X(struct cc_ops, cc_nscc_rccc_ops)

CC_BUILTIN(REG_DECLARE)

static const struct reg_kind *const cc_builtin[] = { CC_BUILTIN(REG_ENTRY) NULL };

/* What an algorithm needs beyond the registry's own checks (name, doc,
 * settings table and size): an init, and on_ack when it asks for the
 * signals that only ACKs carry. */
static int cc_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct cc_ops *ops = REG_OPS(struct cc_ops, k);
	const char *why = NULL;

	if (!ops->init)
		why = "no init";
	else if ((ops->flags & CC_F_ECN_ECHO) && !ops->on_ack)
		why = "asks for ECN echo but has no on_ack";
	else if ((ops->flags & CC_F_INT) && !ops->on_ack)
		why = "asks for INT but has no on_ack";
	else if (ops->settings_of && (k->settings || ops->settings_of->settings_of))
		why = "runs on another algorithm's settings but has its own (or that one does too)";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "congestion control '%s': %s", k->name, why);
		return -EINVAL;
	}
	return 0;
}

/* The registry; each algorithm with settings has a `nic.<name>` section. */
static struct reg cc_reg = {
	.what = "congestion control",
	.builtin = cc_builtin,
	.check = cc_check,
	.section = "nic",
};

int cc_register(const struct cc_ops *ops, char err[CFG_ERR_BYTES])
{
	return reg_add(&cc_reg, &ops->kind, err);
}

const struct cc_ops *cc_find(const char *name)
{
	const struct reg_kind *k = reg_find(&cc_reg, name);

	return k ? REG_OPS(struct cc_ops, k) : NULL;
}

int cc_read(const struct cfg_node *n, const struct cc_ops **out, char err[CFG_ERR_BYTES])
{
	const struct reg_kind *k;
	int rc = reg_read(&cc_reg, n, &k, err);

	if (rc == 0)
		*out = REG_OPS(struct cc_ops, k);
	return rc;
}

const char *const *cc_names(void)
{
	return reg_names(&cc_reg);
}

const struct cc_ops *cc_at(unsigned i)
{
	const struct reg_kind *k = reg_at(&cc_reg, i);

	return k ? REG_OPS(struct cc_ops, k) : NULL;
}

int cc_index(const struct cc_ops *ops)
{
	return reg_index(&cc_reg, &ops->kind);
}

struct cc_cfg_set *cc_cfg_new(void)
{
	return reg_block_new(&cc_reg);
}

void cc_cfg_free(struct cc_cfg_set *set)
{
	reg_block_free(set);
}

const struct cfg_table *cc_cfg_table(void)
{
	return reg_settings_table(&cc_reg);
}

const void *cc_cfg_of(const struct cc_cfg_set *set, const struct cc_ops *ops)
{
	return reg_block_get(&cc_reg, set, &(ops->settings_of ? ops->settings_of : ops)->kind);
}

const struct cc_rccc_cfg *cc_rccc_cfg_of(const struct cc_cfg_set *set)
{
	return reg_block_get(&cc_reg, set, &cc_rccc_ops.kind);
}

int cc_cfg_resolve(struct cfg_doc *doc, struct cfg_node *nic, const struct cc_ops *ops,
		   struct cc_cfg_set *set, char err[CFG_ERR_BYTES])
{
	const struct cc_ops *own = ops->settings_of ? ops->settings_of : ops;

	if (reg_block_fill(&cc_reg, doc, nic, "nic", set, &own->kind, err) != 0)
		return -EINVAL;
	if ((ops->flags & CC_F_CREDIT) && own != &cc_rccc_ops)
		return reg_block_fill(&cc_reg, doc, nic, "nic", set, &cc_rccc_ops.kind, err);
	return 0;
}

int cc_cfg_defaults(const struct cc_ops *ops, void *cfg, char err[CFG_ERR_BYTES])
{
	return reg_settings_defaults(&ops->kind, cfg, err);
}
