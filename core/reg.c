/* Registries of kinds (reg.h): the built-in list is taken in on first use,
 * reg_add appends; names, lookups, "did you mean" and the per-kind
 * settings sections are derived from the kinds themselves. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reg.h"

/* Common checks, then the mechanism's; 0 or -EINVAL with @err filled. */
static int reg_check(struct reg *r, const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const char *why = NULL;

	if (!k->name || !k->name[0])
		why = "no name";
	else if (!k->doc || !k->doc[0])
		why = "no doc line";
	else if ((k->settings != NULL) != (k->settings_size != 0))
		why = "a settings table needs a settings size and the reverse";
	else
		for (unsigned i = 0; i < r->n && !why; i++)
			if (strcmp(r->kinds[i]->name, k->name) == 0)
				why = "the name is taken";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "%s '%s': %s", r->what, k->name ? k->name : "?", why);
		return -EINVAL;
	}
	return r->check ? r->check(k, err) : 0;
}

/* Append @k (checked) and lay out its settings and section key. */
static int reg_append(struct reg *r, const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	unsigned i = r->n;
	int rc;

	if (i >= REG_MAX_KINDS) {
		snprintf(err, CFG_ERR_BYTES, "%s '%s': the registry is full (%d kinds)", r->what,
			 k->name ? k->name : "?", REG_MAX_KINDS);
		return -ENOSPC;
	}
	if ((rc = reg_check(r, k, err)) != 0)
		return rc;
	r->kinds[i] = k;
	r->names[i] = k->name;
	r->names[i + 1] = NULL;
	r->off[i] = r->block_bytes;
	r->block_bytes += (k->settings_size + REG_ALIGN - 1) / REG_ALIGN * REG_ALIGN;
	r->n = i + 1;
	if (k->settings && r->section) {
		struct cfg_key *key = &r->keys[r->table.n_keys++];

		snprintf(r->docs[i], sizeof(r->docs[i]), "%s settings (used where the %s is %s)",
			 k->doc, r->what, k->name);
		r->subs[i][0] = (struct cfg_sub){ k->settings, r->off[i] };
		r->subs[i][1] = (struct cfg_sub){ NULL, 0 };
		snprintf(r->whats[i], sizeof(r->whats[i]), "%s.%s", r->section, k->name);
		*key = (struct cfg_key){ .name = k->name, .type = CFG_KEY_SECTION,
					 .subs = r->subs[i], .doc = r->docs[i],
					 .what = r->whats[i] };
		if (r->section_key)
			r->section_key(k, key);
		r->key_names[i] = key->name;
	}
	return 0;
}

/* Take in the built-in list; a built-in kind that fails its checks is a
 * bug of the build, found by the registry tests. */
static void reg_ready(struct reg *r)
{
	char err[CFG_ERR_BYTES];

	if (r->ready)
		return;
	r->ready = true;
	r->table.section = r->section;
	r->table.keys = r->keys;
	r->names[0] = NULL;
	for (const struct reg_kind *const *k = r->builtin; k && *k; k++) {
		if (reg_append(r, *k, err) != 0) {
			fprintf(stderr, "fabemu: built-in %s\n", err);
			abort();
		}
	}
}

int reg_add(struct reg *r, const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	reg_ready(r);
	return reg_append(r, k, err);
}

const struct reg_kind *reg_find(struct reg *r, const char *name)
{
	reg_ready(r);
	for (unsigned i = 0; i < r->n; i++)
		if (strcmp(r->kinds[i]->name, name) == 0)
			return r->kinds[i];
	return NULL;
}

unsigned reg_count(struct reg *r)
{
	reg_ready(r);
	return r->n;
}

const struct reg_kind *reg_at(struct reg *r, unsigned i)
{
	reg_ready(r);
	return i < r->n ? r->kinds[i] : NULL;
}

int reg_index(struct reg *r, const struct reg_kind *k)
{
	reg_ready(r);
	for (unsigned i = 0; i < r->n; i++)
		if (r->kinds[i] == k)
			return (int)i;
	return -1;
}

const char *const *reg_names(struct reg *r)
{
	reg_ready(r);
	return r->names;
}

char *reg_list(struct reg *r, char *buf, size_t size)
{
	size_t len = 0;

	reg_ready(r);
	if (size == 0)
		return buf;
	buf[0] = '\0';
	for (unsigned i = 0; i < r->n; i++) {
		int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", r->names[i]);

		if (w < 0 || (size_t)w >= size - len) {
			if (size > 4)
				memcpy(buf + size - 4, "...", 4);
			break;
		}
		len += (size_t)w;
	}
	return buf;
}

int reg_read(struct reg *r, const struct cfg_node *n, const struct reg_kind **out,
	     char err[CFG_ERR_BYTES])
{
	int idx, rc;

	reg_ready(r);
	if ((rc = cfg_enum(n, r->names, &idx, err)) != 0)
		return rc;
	*out = r->kinds[idx];
	return 0;
}

/* Keys refused for a kind without settings. */
static const struct cfg_table reg_no_settings = { .section = "", .keys = NULL, .n_keys = 0 };

int reg_settings_read(const struct reg_kind *k, struct cfg_doc *doc, struct cfg_node *map,
		      const char *what, void *out, char err[CFG_ERR_BYTES])
{
	struct cfg_bind b = { k->settings ? k->settings : &reg_no_settings, out };

	return cfg_schema_read(doc, map, what, &b, 1, err);
}

int reg_settings_defaults(const struct reg_kind *k, void *out, char err[CFG_ERR_BYTES])
{
	struct cfg_doc *doc;
	int rc;

	if (!k->settings)
		return 0;
	if ((rc = cfg_doc_load_string(k->name, "{}", &doc, err)) != 0)
		return rc;
	rc = reg_settings_read(k, doc, cfg_doc_root(doc), k->name, out, err);
	cfg_doc_free(doc);
	return rc;
}

/* A settings block: its size, then the kinds' settings. */
struct reg_block {
	size_t bytes;                           /* of data */
	_Alignas(REG_ALIGN) unsigned char data[]; /* r->off[i]: kind i's settings */
};

void *reg_block_new(struct reg *r)
{
	struct reg_block *b;

	reg_ready(r);
	if (!(b = calloc(1, sizeof(*b) + r->block_bytes)))
		return NULL;
	b->bytes = r->block_bytes;
	return b->data;
}

static struct reg_block *reg_block_of(const void *data)
{
	return (struct reg_block *)((const char *)data - offsetof(struct reg_block, data));
}

void reg_block_free(void *block)
{
	if (block)
		free(reg_block_of(block));
}

const void *reg_block_get(struct reg *r, const void *block, const struct reg_kind *k)
{
	int i = reg_index(r, k);

	if (i < 0 || !k->settings || r->off[i] + k->settings_size > reg_block_of(block)->bytes)
		return NULL;
	return (const char *)block + r->off[i];
}

void *reg_block_at(struct reg *r, void *block, const struct reg_kind *k)
{
	return (void *)(uintptr_t)reg_block_get(r, block, k);
}

const struct cfg_table *reg_settings_table(struct reg *r)
{
	reg_ready(r);
	return &r->table;
}

int reg_block_fill(struct reg *r, struct cfg_doc *doc, struct cfg_node *parent,
		   const char *prefix, void *block, const struct reg_kind *k,
		   char err[CFG_ERR_BYTES])
{
	char what[64];
	struct cfg_node *v;
	void *dst = reg_block_at(r, block, k);
	int i = reg_index(r, k), rc;
	const char *name = i >= 0 && r->key_names[i] ? r->key_names[i] : k->name;

	if (!dst || cfg_schema_get(parent, name))
		return 0; /* nothing to set, or read with the parent section */
	if ((rc = cfg_doc_fill(doc, parent, name, "{}", &v, err)) != 0)
		return rc;
	snprintf(what, sizeof(what), "%s.%s", prefix, name);
	return reg_settings_read(k, doc, v, what, dst, err);
}
