/* The registry of link layers: the built-in list (one line a layer, each
 * layer one file of this folder), link_layer_register for more, and the
 * block of every layer's settings (each a fabric: section). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "link_layer.h"

#define LINK_LAYER_BUILTIN(X) \
	X(struct link_layer_ops, link_layer_roce) \
	X(struct link_layer_ops, link_layer_infiniband) \
	X(struct link_layer_ops, link_layer_uet)

LINK_LAYER_BUILTIN(REG_DECLARE)

static const struct reg_kind *const link_layer_builtin[] = { LINK_LAYER_BUILTIN(REG_ENTRY) NULL };

static int link_layer_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct link_layer_ops *o = REG_OPS(struct link_layer_ops, k);

	if ((o->section || o->section_doc || o->settings_init || o->settings_free) && !k->settings) {
		snprintf(err, CFG_ERR_BYTES, "link layer '%s': a settings section needs settings",
			 k->name);
		return -EINVAL;
	}
	return 0;
}

/* A layer's section key: named by the layer (fabric.ib), read with its
 * defaults whichever layer runs, as message name its key. */
static void link_layer_section_key(const struct reg_kind *k, struct cfg_key *key)
{
	const struct link_layer_ops *o = REG_OPS(struct link_layer_ops, k);

	if (o->section)
		key->name = key->what = o->section;
	if (o->section_doc)
		key->doc = o->section_doc;
	key->dflt = "{}";
}

static struct reg link_layers = {
	.what = "link layer",
	.builtin = link_layer_builtin,
	.check = link_layer_check,
	.section = "fabric",
	.section_key = link_layer_section_key,
};

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

void *link_layer_cfg_new(const struct exp *e)
{
	void *cfg = reg_block_new(&link_layers);

	for (unsigned i = 0; cfg && i < reg_count(&link_layers); i++) {
		const struct reg_kind *k = reg_at(&link_layers, i);
		const struct link_layer_ops *o = REG_OPS(struct link_layer_ops, k);
		void *s = reg_block_at(&link_layers, cfg, k);

		if (o->settings_init && s)
			o->settings_init(s, e);
	}
	return cfg;
}

void link_layer_cfg_free(void *cfg)
{
	for (unsigned i = 0; cfg && i < reg_count(&link_layers); i++) {
		const struct reg_kind *k = reg_at(&link_layers, i);
		const struct link_layer_ops *o = REG_OPS(struct link_layer_ops, k);
		void *s = reg_block_at(&link_layers, cfg, k);

		if (o->settings_free && s)
			o->settings_free(s);
	}
	reg_block_free(cfg);
}

const struct cfg_table *link_layer_cfg_table(void)
{
	return reg_settings_table(&link_layers);
}

const void *link_layer_settings(const struct exp *e)
{
	return reg_block_get(&link_layers, e->ll_cfg, &e->ll->kind);
}

/* Whether layer @o marks under @e by a key that another layer before it
 * in the registry already named (its key's entry lists it too). */
static bool link_layer_key_seen(const struct exp *e, const struct link_layer_ops *o, unsigned before)
{
	for (unsigned j = 0; j < before; j++) {
		const struct link_layer_ops *p = (const struct link_layer_ops *)reg_at(&link_layers, j);

		if (p != e->ll && p->marking_key && p->marking && p->marking(e) &&
		    strcmp(p->marking_key, o->marking_key) == 0)
			return true;
	}
	return false;
}

void link_layer_marking_hint(const struct exp *e, char *buf, size_t size)
{
	bool on = e->ll->marking && e->ll->marking(e);
	unsigned n_ll = reg_count(&link_layers);
	int n = !e->ll->marking_key ? snprintf(buf, size, "it never marks")
		: on ? snprintf(buf, size, "%s marks none of the classes its traffic uses",
				e->ll->marking_key)
		     : snprintf(buf, size, "%s is off", e->ll->marking_key);

	/* Each other key that is set, with the layers it marks on ("or"). */
	for (unsigned i = 0; i < n_ll && n > 0 && (size_t)n < size; i++) {
		const struct link_layer_ops *o = (const struct link_layer_ops *)reg_at(&link_layers, i);

		if (o == e->ll || !o->marking_key || !o->marking || !o->marking(e) ||
		    (e->ll->marking_key && strcmp(o->marking_key, e->ll->marking_key) == 0) ||
		    link_layer_key_seen(e, o, i))
			continue;
		n += snprintf(buf + n, size - (size_t)n, "; %s marks only with fabric.link_layer: %s",
			      o->marking_key, o->kind.name);
		for (unsigned j = i + 1; j < n_ll && n > 0 && (size_t)n < size; j++) {
			const struct link_layer_ops *p =
				(const struct link_layer_ops *)reg_at(&link_layers, j);

			if (p != e->ll && p->marking_key && strcmp(p->marking_key, o->marking_key) == 0)
				n += snprintf(buf + n, size - (size_t)n, " or %s", p->kind.name);
		}
	}
}

bool link_layer_marks_traffic(const struct exp *e, const struct cc_ops *ops)
{
	bool used = false;

	if (!e->ll->marking || !e->ll->marking(e))
		return false;
	if (!e->ll->marks_dscp)
		return true;
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		const struct tg_msg *m = &e->msgs[i];

		if ((m->cc ? m->cc : e->nic.cc) != ops)
			continue;
		if (e->ll->marks_dscp(e, m->dscp))
			return true;
		used = true;
	}
	return !used;
}
