/* Writing a configuration tree back as YAML with libyaml's emitter: the
 * resolved experiment (defaults and overrides applied) that a results
 * folder keeps so that the run can be reproduced without its overrides.
 * What it writes reads back to a tree it writes byte for byte again (a
 * fixed point): quoting is decided by the text alone, and file paths are
 * rewritten relative to the folder the file will live in. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "cfg.h"

struct cfg_doc;

/* The emitter and the folder the written file will live in (NULL: paths
 * as written). */
struct cfg_emit {
	yaml_emitter_t em; /* libyaml's */
	const char *dir;   /* the written file's folder, or NULL */
};

static int cfg_emit_node(struct cfg_emit *c, const struct cfg_node *n);

/* A quoted scalar is written single-quoted, the style libyaml picks for a
 * plain one that needs quotes, so that what was quoted, and what needed
 * quotes, is written the same way when read back (libyaml turns to double
 * quotes itself for text single quotes cannot hold, both times alike). */
static int cfg_emit_scalar(yaml_emitter_t *em, const char *s, bool quoted)
{
	yaml_event_t ev;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
					  quoted ? YAML_SINGLE_QUOTED_SCALAR_STYLE
						 : YAML_ANY_SCALAR_STYLE))
		return -ENOMEM;
	return yaml_emitter_emit(em, &ev) ? 0 : -EIO;
}

/* @to (an absolute, resolved path) relative to the folder @from (the
 * same) into @out: "../traces/a.csv". 0, or -ENAMETOOLONG. */
static int cfg_rel_path(const char *from, const char *to, char *out, size_t size)
{
	size_t k = 0, len = 0;
	int rc;

	/* k: the longest common folder, a prefix of both that ends where a
	 * part of @from ends and a part of @to begins. */
	for (size_t i = 1;; i++) {
		if ((from[i] == '/' || !from[i]) && !strncmp(from, to, i) && to[i] == '/')
			k = i;
		if (!from[i])
			break;
	}
	out[0] = '\0';
	for (const char *p = from + k; *p; p++)
		if (p[0] == '/' && p[1] && p[1] != '/') {
			if (len + 4 > size)
				return -ENAMETOOLONG;
			memcpy(out + len, "../", 4);
			len += 3;
		}
	rc = snprintf(out + len, size - len, "%s", to + k + 1);
	return rc < 0 || (size_t)rc >= size - len ? -ENAMETOOLONG : 0;
}

/* Path scalar @n relative to @dir into @buf; NULL when it stays as written
 * (absolute, or a file or folder that cannot be resolved). The path is
 * relative to the folder of the file it was read from, or to the working
 * folder (a --set, a file named without a folder), as its reader took it. */
static const char *cfg_path_from(const struct cfg_node *n, const char *dir, char *buf, size_t size)
{
	const char *from = n->mark.file, *slash = from ? strrchr(from, '/') : NULL;
	char joined[PATH_MAX], target[PATH_MAX], base[PATH_MAX];
	int rc;

	if (!dir || n->str[0] == '/')
		return NULL;
	if (slash && strncmp(from, "--set", 5) != 0)
		rc = snprintf(joined, sizeof(joined), "%.*s/%s", (int)(slash - from), from, n->str);
	else
		rc = snprintf(joined, sizeof(joined), "%s", n->str);
	if (rc < 0 || (size_t)rc >= sizeof(joined) || !realpath(joined, target) ||
	    !realpath(dir, base) || cfg_rel_path(base, target, buf, size) != 0)
		return NULL;
	return buf;
}

static int cfg_emit_node(struct cfg_emit *c, const struct cfg_node *n)
{
	yaml_emitter_t *em = &c->em;
	char rel[PATH_MAX];
	const char *p;
	yaml_event_t ev;
	int rc = 0;

	switch (n->type) {
	case CFG_NULL:
		return cfg_emit_scalar(em, "~", false);
	case CFG_SCALAR:
		if (n->path && (p = cfg_path_from(n, c->dir, rel, sizeof(rel))) != NULL)
			return cfg_emit_scalar(em, p, n->quoted);
		return cfg_emit_scalar(em, n->str, n->quoted);
	case CFG_MAP:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_ANY_MAPPING_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -EIO;
		for (uint32_t i = 0; i < n->n && rc == 0; i++) {
			if (n->items[i]->omit)
				continue;
			rc = cfg_emit_scalar(em, n->keys[i]->str, n->keys[i]->quoted);
			if (rc == 0)
				rc = cfg_emit_node(c, n->items[i]);
		}
		if (rc == 0 && (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev)))
			rc = -EIO;
		return rc;
	case CFG_SEQ: {
		/* A list of plain values reads best on one line: [0, 1, 2]. */
		bool flat = true;

		for (uint32_t i = 0; i < n->n; i++)
			flat = flat && n->items[i]->type != CFG_MAP && n->items[i]->type != CFG_SEQ;
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  flat ? YAML_FLOW_SEQUENCE_STYLE
							       : YAML_BLOCK_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -EIO;
		for (uint32_t i = 0; i < n->n && rc == 0; i++)
			rc = cfg_emit_node(c, n->items[i]);
		if (rc == 0 && (!yaml_sequence_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev)))
			rc = -EIO;
		return rc;
	}
	}
	return -EINVAL;
}

int cfg_doc_write(const struct cfg_doc *doc, FILE *out, char err[CFG_ERR_BYTES])
{
	return cfg_doc_write_at(doc, out, NULL, err);
}

int cfg_doc_write_at(const struct cfg_doc *doc, FILE *out, const char *dir,
		     char err[CFG_ERR_BYTES])
{
	const struct cfg_node *root = cfg_doc_root((struct cfg_doc *)doc);
	struct cfg_emit c = { .dir = dir };
	yaml_emitter_t *em = &c.em;
	yaml_event_t ev;
	int rc = 0;

	if (!root || !yaml_emitter_initialize(em)) {
		snprintf(err, CFG_ERR_BYTES, "cannot write the document: out of memory");
		return -ENOMEM;
	}
	yaml_emitter_set_output_file(em, out);
	yaml_emitter_set_unicode(em, 1);
	yaml_emitter_set_width(em, -1);
	if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) ||
	    !yaml_emitter_emit(em, &ev) ||
	    !yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) ||
	    !yaml_emitter_emit(em, &ev))
		rc = -EIO;
	if (rc == 0)
		rc = cfg_emit_node(&c, root);
	if (rc == 0 && (!yaml_document_end_event_initialize(&ev, 1) || !yaml_emitter_emit(em, &ev) ||
			!yaml_stream_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev) ||
			!yaml_emitter_flush(em)))
		rc = -EIO;
	if (rc != 0)
		snprintf(err, CFG_ERR_BYTES, "cannot write the document: %s",
			 em->problem ? em->problem : "write error");
	yaml_emitter_delete(em);
	return rc;
}
