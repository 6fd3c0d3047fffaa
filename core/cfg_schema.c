/* The schema walker (see cfg_schema.h): reads a section through the tables
 * of the modules that serve it, fills absent keys with their defaults, and
 * lists every key for the reference. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_schema.h"

struct cfg_node *cfg_schema_get(struct cfg_node *map, const char *key)
{
	if (!map || map->type != CFG_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->n; i++)
		if (strcmp(map->keys[i]->str, key) == 0)
			return map->items[i];
	return NULL;
}

static int cfg_schema_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Store @v in an unsigned destination of @size bytes. */
static void cfg_schema_store(void *dst, uint8_t size, uint64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)dst = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)dst = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)dst = (uint32_t)v;
		break;
	default:
		*(uint64_t *)dst = v;
		break;
	}
}

int cfg_schema_read_key(const struct cfg_key *k, const struct cfg_node *n, void *params,
			char err[CFG_ERR_BYTES])
{
	/* Tables that only check (CFG_KEY_ANY, custom readers) may have no
	 * params: no pointer arithmetic on NULL. */
	void *dst = params ? (char *)params + k->off : NULL;
	uint64_t v;
	double d;
	int i, rc;

	switch (k->type) {
	case CFG_KEY_UINT:
	case CFG_KEY_SIZE:
		rc = k->type == CFG_KEY_UINT ? cfg_u64(n, k->min, k->max, &v, err)
					     : cfg_size(n, k->min, k->max, &v, err);
		if (rc == 0)
			cfg_schema_store(dst, k->size, v);
		return rc;
	case CFG_KEY_TIME:
		return cfg_time(n, dst, err);
	case CFG_KEY_RATE:
		return cfg_rate(n, k->min, dst, err);
	case CFG_KEY_BOOL:
		return cfg_bool(n, dst, err);
	case CFG_KEY_DOUBLE:
		return cfg_double(n, k->lo, k->hi, dst, err);
	case CFG_KEY_FRACTION:
		return cfg_fraction(n, k->lo, k->hi, dst, err);
	case CFG_KEY_Q16:
		rc = cfg_fraction(n, k->lo, k->hi, &d, err);
		if (rc == 0)
			*(uint32_t *)dst = (uint32_t)(d * 65536 + 0.5);
		return rc;
	case CFG_KEY_ENUM:
		rc = cfg_enum(n, k->names, &i, err);
		if (rc == 0)
			*(int *)dst = i;
		return rc;
	case CFG_KEY_STR:
		return cfg_str(n, dst, err);
	case CFG_KEY_CUSTOM:
		return k->read(n, params, err);
	case CFG_KEY_ANY:
		return 0;
	case CFG_KEY_SECTION:
		break;
	}
	cfg_errorf(err, n, "internal: key '%s' cannot be read alone", k->name);
	return -EINVAL;
}

/* The key @name of table @t, or NULL. */
static const struct cfg_key *cfg_schema_key(const struct cfg_table *t, const char *name)
{
	for (unsigned i = 0; i < t->n_keys; i++)
		if (strcmp(t->keys[i].name, name) == 0)
			return &t->keys[i];
	return NULL;
}

/* Every key the tables of @binds declare, once, NULL-terminated (malloc'd). */
static const char **cfg_schema_allowed(const struct cfg_bind *binds, unsigned n_binds)
{
	unsigned cap = 1, n = 0;
	bool sorted = false;
	const char **v;

	for (unsigned b = 0; b < n_binds; b++) {
		cap += binds[b].table->n_keys;
		sorted = sorted || !binds[b].table->ordered;
	}
	if (!(v = malloc(sizeof(*v) * cap)))
		return NULL;
	for (unsigned b = 0; b < n_binds; b++) {
		const struct cfg_table *t = binds[b].table;

		for (unsigned i = 0; i < t->n_keys; i++) {
			unsigned j = 0;

			while (j < n && strcmp(v[j], t->keys[i].name))
				j++;
			if (j == n)
				v[n++] = t->keys[i].name;
		}
	}
	if (sorted)
		qsort(v, n, sizeof(*v), cfg_schema_cmp);
	v[n] = NULL;
	return v;
}

/* The nested section @v of key @k (declared by binds[b] and perhaps later
 * ones): read through every table that serves it. */
static int cfg_schema_section(struct cfg_doc *doc, struct cfg_node *v, const struct cfg_key *k,
			      const struct cfg_bind *binds, unsigned b, unsigned n_binds,
			      char err[CFG_ERR_BYTES])
{
	struct cfg_bind sub[CFG_SCHEMA_MAX_BINDS];
	unsigned n = 0;

	for (; b < n_binds; b++) {
		const struct cfg_key *kk = cfg_schema_key(binds[b].table, k->name);

		if (!kk || kk->type != CFG_KEY_SECTION)
			continue;
		for (const struct cfg_sub *s = kk->subs; s && s->table; s++) {
			if (n == CFG_SCHEMA_MAX_BINDS) {
				cfg_errorf(err, v, "internal: too many tables for '%s'", k->name);
				return -EINVAL;
			}
			sub[n++] = (struct cfg_bind){ s->table, (char *)binds[b].params + s->off };
		}
	}
	return cfg_schema_read(doc, v, k->what ? k->what : k->name, sub, n, err);
}

/* An earlier table (before binds[b]) declared section @name: read there. */
static bool cfg_schema_seen(const struct cfg_bind *binds, unsigned b, const char *name)
{
	while (b-- > 0) {
		const struct cfg_key *k = cfg_schema_key(binds[b].table, name);

		if (k && k->type == CFG_KEY_SECTION)
			return true;
	}
	return false;
}

int cfg_schema_read(struct cfg_doc *doc, struct cfg_node *map, const char *what,
		    const struct cfg_bind *binds, unsigned n_binds, char err[CFG_ERR_BYTES])
{
	const char **allowed;
	int rc;

	if (cfg_want(map, CFG_MAP, what, err) != 0)
		return -EINVAL;
	if (!(allowed = cfg_schema_allowed(binds, n_binds))) {
		cfg_errorf(err, map, "out of memory");
		return -ENOMEM;
	}
	rc = cfg_check_keys(map, allowed, err);
	free(allowed);
	if (rc != 0)
		return rc;
	for (unsigned b = 0; b < n_binds; b++) {
		const struct cfg_table *t = binds[b].table;

		for (unsigned i = 0; i < t->n_keys; i++) {
			const struct cfg_key *k = &t->keys[i];
			struct cfg_node *v = cfg_schema_get(map, k->name);

			if (k->type == CFG_KEY_SECTION && cfg_schema_seen(binds, b, k->name))
				continue;
			if (!v && k->required) {
				cfg_errorf(err, map, t->missing ? t->missing : "missing key '%s' (%s)",
					   k->name, k->required);
				return -EINVAL;
			}
			if (!v && !k->dflt)
				continue;
			if (!v && (rc = cfg_doc_fill(doc, map, k->name, k->dflt, &v, err)) != 0)
				return rc;
			if (k->type == CFG_KEY_SECTION)
				rc = cfg_schema_section(doc, v, k, binds, b, n_binds, err);
			else
				rc = cfg_schema_read_key(k, v, binds[b].params, err);
			if (rc != 0)
				return rc;
		}
	}
	for (unsigned b = 0; b < n_binds; b++)
		if (binds[b].table->check &&
		    (rc = binds[b].table->check(map, binds[b].params, err)) != 0)
			return rc;
	return 0;
}

static int cfg_schema_names_push(struct cfg_schema_names *out, const char *section,
				 const struct cfg_key *k)
{
	const char *key = k->name;
	size_t len = strlen(section) + strlen(key) + 2;
	char *s = malloc(len);

	if (!s)
		return -ENOMEM;
	snprintf(s, len, "%s%s%s", section, section[0] ? "." : "", key);
	for (unsigned i = 0; i < out->n; i++) {
		if (strcmp(out->names[i], s) == 0) {
			free(s);
			return 0;
		}
	}
	if (out->n + 2 > out->cap) {
		unsigned cap = out->cap ? out->cap * 2 : 64;
		const char **v = realloc(out->names, sizeof(*v) * cap);
		const struct cfg_key **kv;

		if (v)
			out->names = v;
		kv = v ? realloc(out->keys, sizeof(*kv) * cap) : NULL;
		if (!kv) {
			free(s);
			return -ENOMEM;
		}
		out->keys = kv;
		out->cap = cap;
	}
	out->keys[out->n] = k;
	out->names[out->n++] = s;
	out->names[out->n] = NULL;
	return 0;
}

int cfg_schema_names_add(struct cfg_schema_names *out, const struct cfg_table *t)
{
	for (unsigned i = 0; i < t->n_keys; i++) {
		const struct cfg_key *k = &t->keys[i];

		if (cfg_schema_names_push(out, t->section, k) != 0)
			return -ENOMEM;
		if (k->type != CFG_KEY_SECTION)
			continue;
		for (const struct cfg_sub *s = k->subs; s && s->table; s++)
			if (cfg_schema_names_add(out, s->table) != 0)
				return -ENOMEM;
	}
	return 0;
}

void cfg_schema_names_free(struct cfg_schema_names *out)
{
	for (unsigned i = 0; i < out->n; i++)
		free((char *)out->names[i]);
	free(out->names);
	free(out->keys);
	memset(out, 0, sizeof(*out));
}

int cfg_schema_names_find(const struct cfg_schema_names *l, const char *name)
{
	for (unsigned i = 0; i < l->n; i++)
		if (strcmp(l->names[i], name) == 0)
			return (int)i;
	return -1;
}
