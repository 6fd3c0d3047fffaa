/* Editing a loaded configuration document: a map's defaults laid under it
 * (underlay), a key's default filled in, and `--set key.path=value`
 * overrides, before the typed readers (cfg_read.c) check the tree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cfg_int.h"

int cfg_map_underlay(struct cfg_doc *doc, struct cfg_node *map, const struct cfg_node *base,
		     const char *skip, char err[CFG_ERR_BYTES])
{
	uint32_t cap = map->n + base->n, n = 0;
	struct cfg_node **items;

	if (map->type != CFG_MAP || base->type != CFG_MAP) {
		cfg_errorf(err, map, "internal: underlay needs two maps");
		return -EINVAL;
	}
	items = cfg_alloc(doc, 2 * (size_t)(cap ? cap : 1) * sizeof(*items));
	if (!items) {
		cfg_errorf(err, map, "out of memory");
		return -ENOMEM;
	}
	/* base's keys in base's order, each with @map's value when it has one;
	 * then @map's own keys. */
	for (uint32_t i = 0; i < base->n; i++) {
		const struct cfg_node *v = cfg_get(map, base->keys[i]->str);

		if (skip && strcmp(base->keys[i]->str, skip) == 0)
			continue;
		items[cap + n] = base->keys[i];
		items[n++] = v ? (struct cfg_node *)v : base->items[i];
	}
	for (uint32_t i = 0; i < map->n; i++) {
		if ((skip && strcmp(map->keys[i]->str, skip) == 0) || cfg_get(base, map->keys[i]->str))
			continue;
		items[cap + n] = map->keys[i];
		items[n++] = map->items[i];
	}
	/* Keys sit right after the values, as cfg_map_add lays them out. */
	memmove(items + n, items + cap, n * sizeof(*items));
	map->items = items;
	map->keys = items + n;
	map->n = n;
	return 0;
}

/* ---- --set overrides ---- */

/* Add @key -> @value to @map; arrays are re-made in the arena. */
static int cfg_map_add(struct cfg_doc *doc, struct cfg_node *map, struct cfg_node *key,
		       struct cfg_node *value)
{
	uint32_t n = map->n + 1;
	struct cfg_node **items = cfg_alloc(doc, 2 * (size_t)n * sizeof(*items));

	if (!items)
		return -ENOMEM;
	if (map->n) {
		memcpy(items, map->items, map->n * sizeof(*items));
		memcpy(items + n, map->keys, map->n * sizeof(*items));
	}
	items[n - 1] = value;
	items[2 * n - 1] = key;
	map->items = items;
	map->keys = items + n;
	map->n = n;
	return 0;
}

/* One path component @comp (length @len) below **@slot; @value is set when
 * it is the last one. On return *@slot is the child's slot. Nothing changes
 * before the last check that can fail. */
static int cfg_set_step(struct cfg_doc *doc, struct cfg_node ***slot, const char *assignment,
			const char *comp, size_t len, struct cfg_node *value,
			const struct cfg_mark *mark, char err[CFG_ERR_BYTES])
{
	struct cfg_node *cur = **slot, *key, *child;
	char q[CFG_QUOTE_BYTES], where[CFG_DESCRIBE_BYTES + 32];
	bool is_index = len > 0;
	uint64_t idx = 0;
	uint32_t i;
	size_t j;

	if (comp > assignment)
		snprintf(where, sizeof(where), "'%.*s'", (int)(comp - assignment - 1),
			 cfg_quote(assignment, q));
	else
		snprintf(where, sizeof(where), "the document root");
	if (cur->type == CFG_SCALAR) {
		cfg_errorf_mark(err, mark, "cannot descend into %s: it is the value '%s' (%s:%u:%u), not a map or list",
				where, cfg_quote(cur->str, q), cur->mark.file, cur->mark.line,
				cur->mark.col);
		return -EINVAL;
	}
	if (cur->type == CFG_SEQ) {
		for (j = 0; j < len; j++) {
			is_index = is_index && comp[j] >= '0' && comp[j] <= '9';
			if (is_index && idx <= UINT32_MAX)
				idx = idx * 10 + (uint64_t)(comp[j] - '0');
		}
		if (!is_index) {
			cfg_errorf_mark(err, mark, "%s is a list (%s:%u:%u): expected an index, got '%.*s'",
					where, cur->mark.file, cur->mark.line, cur->mark.col,
					(int)len, comp);
			return -EINVAL;
		}
		if (idx >= cur->n) {
			cfg_errorf_mark(err, mark, "index %.*s out of range: %s (%s:%u:%u) has %u items",
					(int)len, comp, where, cur->mark.file, cur->mark.line,
					cur->mark.col, cur->n);
			return -EINVAL;
		}
		*slot = &cur->items[idx];
		if (value)
			**slot = value;
		return 0;
	}
	if (cur->type == CFG_NULL) {
		/* An empty value ("tcp:") becomes the map the path needs. */
		cur = cfg_node_new(doc, CFG_MAP, &cur->mark);
		if (!cur)
			goto nomem;
		**slot = cur;
	}
	for (i = 0; i < cur->n; i++) {
		if (strlen(cur->keys[i]->str) == len && !memcmp(cur->keys[i]->str, comp, len)) {
			*slot = &cur->items[i];
			if (value)
				**slot = value;
			return 0;
		}
	}
	key = cfg_node_new(doc, CFG_SCALAR, mark);
	child = value ? value : cfg_node_new(doc, CFG_MAP, mark);
	if (!key || !child)
		goto nomem;
	key->str = cfg_strndup(doc, comp, len);
	if (!key->str || cfg_map_add(doc, cur, key, child))
		goto nomem;
	*slot = &cur->items[cur->n - 1];
	return 0;
nomem:
	cfg_errorf_mark(err, mark, "out of memory");
	return -ENOMEM;
}

/* Mark @n and everything below it as a default at @mark. */
static void cfg_mark_default(struct cfg_node *n, const struct cfg_mark *mark)
{
	n->mark = *mark;
	n->dflt = true;
	for (uint32_t i = 0; i < n->n; i++) {
		if (n->type == CFG_MAP)
			cfg_mark_default(n->keys[i], mark);
		cfg_mark_default(n->items[i], mark);
	}
}

int cfg_doc_fill(struct cfg_doc *doc, struct cfg_node *map, const char *key, const char *text,
		 struct cfg_node **out, char err[CFG_ERR_BYTES])
{
	struct cfg_node *value, *k;
	int rc;

	if (map->type != CFG_MAP || cfg_get(map, key)) {
		cfg_errorf(err, map, "internal: cannot fill default of '%s' here", key);
		return -EINVAL;
	}
	rc = cfg_set_value(doc, map->mark.file, text, 2, &value, err);
	if (rc)
		return rc;
	k = cfg_node_new(doc, CFG_SCALAR, &map->mark);
	if (!k || !(k->str = cfg_strndup(doc, key, strlen(key))) || cfg_map_add(doc, map, k, value)) {
		cfg_errorf(err, map, "out of memory");
		return -ENOMEM;
	}
	k->dflt = true;
	cfg_mark_default(value, &map->mark);
	*out = value;
	return 0;
}

int cfg_doc_set(struct cfg_doc *doc, const char *assignment, unsigned index,
		char err[CFG_ERR_BYTES])
{
	struct cfg_mark mark = { .line = 1, .col = 1 };
	const char *eq = strchr(assignment, '=');
	struct cfg_node *value, **slot;
	const char *p, *end;
	char name[32], q[CFG_QUOTE_BYTES];
	int rc;

	snprintf(name, sizeof(name), "--set #%u", index);
	mark.file = cfg_strndup(doc, name, strlen(name));
	if (!mark.file) {
		cfg_errorf_mark(err, NULL, "%s: out of memory", name);
		return -ENOMEM;
	}
	if (!eq) {
		cfg_errorf_mark(err, &mark, "expected path=value, got '%s'",
				cfg_quote(assignment, q));
		return -EINVAL;
	}
	if (eq == assignment) {
		cfg_errorf_mark(err, &mark, "empty path before '='");
		return -EINVAL;
	}
	for (p = assignment; p <= eq; p++) {
		if ((*p == '.' || p == eq) && (p == assignment || p[-1] == '.')) {
			mark.col = (uint32_t)(p - assignment) + 1;
			cfg_errorf_mark(err, &mark, "empty path component in '%.*s'",
					(int)(eq - assignment), assignment);
			return -EINVAL;
		}
	}
	rc = cfg_set_value(doc, mark.file, eq + 1, (uint32_t)(eq - assignment) + 2, &value, err);
	if (rc)
		return rc;
	slot = &doc->root;
	for (p = assignment; p < eq; p = end + 1) {
		end = memchr(p, '.', (size_t)(eq - p));
		if (!end)
			end = eq;
		mark.col = (uint32_t)(p - assignment) + 1;
		rc = cfg_set_step(doc, &slot, assignment, p, (size_t)(end - p),
				  end == eq ? value : NULL, &mark, err);
		if (rc)
			return rc;
	}
	return 0;
}
