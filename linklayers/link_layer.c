/* The registry of link layers: the built-in list (one line a layer, each
 * layer one file of this folder) and link_layer_register for more. */
#include <errno.h>
#include <stdio.h>

#include "link_layer.h"

#define LINK_LAYER_BUILTIN(X) \
	X(struct link_layer_ops, link_layer_roce) \
	X(struct link_layer_ops, link_layer_infiniband)

LINK_LAYER_BUILTIN(REG_DECLARE)

static const struct reg_kind *const link_layer_builtin[] = { LINK_LAYER_BUILTIN(REG_ENTRY) NULL };

static int link_layer_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct link_layer_ops *o = REG_OPS(struct link_layer_ops, k);

	if (k->settings) {
		snprintf(err, CFG_ERR_BYTES, "link layer '%s': settings are a fabric section of their own",
			 k->name);
		return -EINVAL;
	}
	if (o->pkt_kind != (o->wire ? (int)o->wire->kind : PKT_LL_ROCE)) {
		snprintf(err, CFG_ERR_BYTES, "link layer '%s': pkt_kind is its framing's", k->name);
		return -EINVAL;
	}
	return 0;
}

static struct reg link_layers = REG_INIT("link layer", link_layer_builtin, link_layer_check);

struct reg *link_layer_reg(void)
{
	return &link_layers;
}

const struct link_layer_ops *link_layer_default(void)
{
	return &link_layer_roce;
}

int link_layer_register(const struct link_layer_ops *ops, char err[CFG_ERR_BYTES])
{
	return reg_add(&link_layers, &ops->kind, err);
}
