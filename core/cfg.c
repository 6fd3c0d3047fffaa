/* Configuration documents: libyaml events are built into a struct cfg_node
 * tree that lives in one arena per document (files are read by cfg_file.c,
 * `--set` overrides edit the tree in cfg_edit.c, the typed readers of
 * cfg_read.c check it). Errors are located "FILE:LINE:COL: message" in the
 * caller's buffer. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "cfg.h"
#include "cfg_int.h"

enum {
	CFG_CHUNK_BYTES = 16384,    /* arena chunk, bigger requests get their own */
	CFG_MAX_DEPTH = 256,        /* nesting limit, also after alias expansion */
	CFG_MAX_NODES = 1 << 20,    /* per document, bounds alias expansion */
	CFG_KEYS_HASHED = 16,       /* keys of a map before its duplicate check is hashed */
};

/* A map or sequence whose children are still arriving. */
struct cfg_frame {
	struct cfg_node *node;  /* the container */
	struct cfg_node **kids; /* map: key, value, key, ...; seq: items */
	uint32_t n_kids;        /* used entries of kids */
	uint32_t cap_kids;      /* allocated entries of kids */
	uint32_t *key_slots;    /* map of over CFG_KEYS_HASHED keys: open-addressing set of
				 * its keys, kids index + 1 (0: empty); NULL below that */
	uint32_t n_key_slots;   /* a power of two, over twice the keys */
	const char *anchor;     /* registered once complete, or NULL */
};

/* A named node for aliases; later anchors with the same name win. */
struct cfg_anchor {
	const char *name;      /* in the arena */
	struct cfg_node *node; /* complete node */
};

/* Event-to-tree state for one parse. */
struct cfg_builder {
	struct cfg_doc *doc;               /* owner of what is built */
	const char *file;                  /* mark file name, in the arena */
	uint32_t col_shift;                /* added to columns on line 1 (--set) */
	uint32_t end_col;                  /* --set: column just past the value */
	bool is_set;                       /* parsing a --set value */
	struct cfg_frame stack[CFG_MAX_DEPTH]; /* open containers */
	unsigned depth;                    /* used entries of stack */
	struct cfg_anchor *anchors;        /* malloc'd */
	uint32_t n_anchors;                /* used entries of anchors */
	uint32_t cap_anchors;              /* allocated entries of anchors */
	unsigned n_docs;                   /* documents seen */
	struct cfg_node *root;             /* the finished top node */
	char *err;                         /* caller's buffer */
};

/* ---- arena ---- */

void *cfg_alloc(struct cfg_doc *doc, size_t size)
{
	struct cfg_chunk *c = doc->chunks;
	size_t align = _Alignof(max_align_t);
	void *p;

	size = (size + align - 1) & ~(align - 1);
	if (!c || c->cap - c->used < size) {
		size_t cap = size > CFG_CHUNK_BYTES ? size : CFG_CHUNK_BYTES;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		/* A big block is used up at once: keep filling the current chunk. */
		if (cap > CFG_CHUNK_BYTES && doc->chunks) {
			c->next = doc->chunks->next;
			doc->chunks->next = c;
		} else {
			c->next = doc->chunks;
			doc->chunks = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

char *cfg_strndup(struct cfg_doc *doc, const char *s, size_t len)
{
	char *p = cfg_alloc(doc, len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

struct cfg_node *cfg_node_new(struct cfg_doc *doc, enum cfg_type type,
			      const struct cfg_mark *mark)
{
	struct cfg_node *n = cfg_alloc(doc, sizeof(*n));

	if (n) {
		n->type = type;
		n->mark = *mark;
	}
	return n;
}

void cfg_doc_free(struct cfg_doc *doc)
{
	struct cfg_chunk *c, *next;

	if (!doc)
		return;
	for (c = doc->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(doc);
}

struct cfg_node *cfg_doc_root(struct cfg_doc *doc)
{
	return doc ? doc->root : NULL;
}

/* ---- building the tree from libyaml events ---- */

static struct cfg_mark cfg_mark_of(const struct cfg_builder *b, yaml_mark_t m)
{
	struct cfg_mark r = {
		.file = b->file,
		.line = (uint32_t)m.line + 1,
		.col = (uint32_t)m.column + 1,
	};

	if (m.line == 0) {
		r.col += b->col_shift;
	} else if (b->is_set) {
		/* Only the end of stream (after our "]") lies past line 1. */
		r.line = 1;
		r.col = b->end_col;
	}
	return r;
}

static int cfg_nomem(struct cfg_builder *b)
{
	cfg_errorf_mark(b->err, NULL, "%s: out of memory", b->file);
	return -ENOMEM;
}

/* A parser-made node: counted, so that aliases cannot blow up memory. */
static struct cfg_node *cfg_build_node(struct cfg_builder *b, enum cfg_type type,
				       const struct cfg_mark *mark, int *rc)
{
	struct cfg_node *n;

	if (++b->doc->n_nodes > CFG_MAX_NODES) {
		cfg_errorf_mark(b->err, mark, "document too large (over %d nodes after expanding aliases)",
				CFG_MAX_NODES);
		*rc = -E2BIG;
		return NULL;
	}
	n = cfg_node_new(b->doc, type, mark);
	if (!n)
		*rc = cfg_nomem(b);
	return n;
}

static int cfg_add_anchor(struct cfg_builder *b, const char *name, struct cfg_node *n)
{
	if (b->n_anchors == b->cap_anchors) {
		uint32_t cap = b->cap_anchors ? 2 * b->cap_anchors : 16;
		struct cfg_anchor *a = realloc(b->anchors, cap * sizeof(*a));

		if (!a)
			return cfg_nomem(b);
		b->anchors = a;
		b->cap_anchors = cap;
	}
	b->anchors[b->n_anchors].name = name;
	b->anchors[b->n_anchors].node = n;
	b->n_anchors++;
	return 0;
}

/* Deep copy for an alias, so that a later --set edits one place only. */
static struct cfg_node *cfg_copy(struct cfg_builder *b, const struct cfg_node *src,
				 unsigned depth, int *rc)
{
	uint32_t i, n_arrays = src->type == CFG_MAP ? 2 : 1;
	struct cfg_node *n;

	if (depth >= CFG_MAX_DEPTH) {
		cfg_errorf_mark(b->err, &src->mark, "nesting deeper than %d levels", CFG_MAX_DEPTH);
		*rc = -E2BIG;
		return NULL;
	}
	n = cfg_build_node(b, src->type, &src->mark, rc);
	if (!n)
		return NULL;
	n->str = src->str; /* strings are never modified in place */
	n->quoted = src->quoted;
	if (src->type != CFG_MAP && src->type != CFG_SEQ)
		return n;
	n->items = cfg_alloc(b->doc, (size_t)n_arrays * src->n * sizeof(*n->items) + 1);
	if (!n->items) {
		*rc = cfg_nomem(b);
		return NULL;
	}
	if (src->type == CFG_MAP)
		n->keys = n->items + src->n;
	for (i = 0; i < src->n; i++) {
		n->items[i] = cfg_copy(b, src->items[i], depth + 1, rc);
		if (!n->items[i])
			return NULL;
		if (src->type == CFG_MAP)
			n->keys[i] = src->keys[i]; /* key scalars are never modified */
		n->n++;
	}
	return n;
}

static uint32_t cfg_key_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The earlier key @key of the map being built in @f, or NULL; *@slot is
 * where a new key goes in f->key_slots (when there is a table). A small
 * map is scanned (the common case, no allocation); a large one has a hash
 * set of its keys, so that a map of many keys is not quadratic work. */
static const struct cfg_node *cfg_key_find(const struct cfg_frame *f, const char *key,
					   uint32_t *slot)
{
	uint32_t mask = f->n_key_slots - 1, i;

	*slot = UINT32_MAX;
	if (!f->key_slots) {
		for (i = 0; i < f->n_kids; i += 2)
			if (!strcmp(f->kids[i]->str, key))
				return f->kids[i];
		return NULL;
	}
	for (i = cfg_key_hash(key) & mask; f->key_slots[i]; i = (i + 1) & mask) {
		const struct cfg_node *k = f->kids[f->key_slots[i] - 1];

		if (!strcmp(k->str, key))
			return k;
	}
	*slot = i;
	return NULL;
}

/* After a key was added to @f: build its hash set once the map is large,
 * and grow it to stay under half full. 0 or -ENOMEM. */
static int cfg_key_index(struct cfg_frame *f)
{
	uint32_t n_keys = (f->n_kids + 1) / 2, n, *slots;

	if (n_keys <= CFG_KEYS_HASHED || (f->key_slots && 2 * (n_keys + 1) <= f->n_key_slots))
		return 0;
	for (n = 4 * CFG_KEYS_HASHED; n < 2 * (n_keys + 1); n *= 2)
		;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (uint32_t k = 0; k < f->n_kids; k += 2) {
		uint32_t i = cfg_key_hash(f->kids[k]->str) & (n - 1);

		while (slots[i])
			i = (i + 1) & (n - 1);
		slots[i] = k + 1;
	}
	free(f->key_slots);
	f->key_slots = slots;
	f->n_key_slots = n;
	return 0;
}

/* Hang a finished node under the open container (or make it the root). */
static int cfg_attach(struct cfg_builder *b, struct cfg_node *n)
{
	const struct cfg_node *first;
	struct cfg_frame *f;
	char q[CFG_DESCRIBE_BYTES];
	uint32_t slot = UINT32_MAX;

	if (!b->depth) {
		b->root = n;
		return 0;
	}
	f = &b->stack[b->depth - 1];
	if (f->node->type == CFG_MAP && !(f->n_kids & 1)) {
		if (n->type != CFG_SCALAR) {
			cfg_errorf_mark(b->err, &n->mark, "map keys must be plain values, got %s",
					cfg_describe(n, q));
			return -EINVAL;
		}
		first = cfg_key_find(f, n->str, &slot);
		if (first) {
			cfg_errorf_mark(b->err, &n->mark, "duplicate key %s (first at line %u, column %u)",
					cfg_describe(n, q), first->mark.line, first->mark.col);
			return -EINVAL;
		}
	}
	if (f->n_kids == f->cap_kids) {
		uint32_t cap = f->cap_kids ? 2 * f->cap_kids : 8;
		struct cfg_node **kids = realloc(f->kids, cap * sizeof(*kids));

		if (!kids)
			return cfg_nomem(b);
		f->kids = kids;
		f->cap_kids = cap;
	}
	f->kids[f->n_kids++] = n;
	if (f->key_slots && slot < f->n_key_slots)
		f->key_slots[slot] = f->n_kids; /* the key's kids index + 1 */
	if (f->node->type == CFG_MAP && (f->n_kids & 1) && cfg_key_index(f) != 0)
		return cfg_nomem(b);
	return 0;
}

/* A tag: fabemu reads untagged YAML. The core schema's own tags (!!str,
 * !!int, ... written out as tag:yaml.org,2002:NAME) say what the readers
 * check anyway and are taken; !!str quotes a scalar. Any other tag
 * (!foo, !<x>) would be silently meaningless: an error at its node. */
static int cfg_check_tag(struct cfg_builder *b, const yaml_char_t *tag, enum cfg_type type,
			 const struct cfg_mark *mark, bool *is_str)
{
	static const char core[] = "tag:yaml.org,2002:";
	static const char *const scalar_tags[] = { "str", "int", "float", "bool", "null", NULL };
	const char *t = (const char *)tag, *name;
	char q[CFG_QUOTE_BYTES];

	*is_str = false;
	if (!t || !strcmp(t, "!") || !strcmp(t, "?"))
		return 0; /* none, or the non-specific ones libyaml reports */
	if (!strncmp(t, core, sizeof(core) - 1)) {
		name = t + sizeof(core) - 1;
		if ((type == CFG_MAP && !strcmp(name, "map")) ||
		    (type == CFG_SEQ && !strcmp(name, "seq")))
			return 0;
		for (unsigned i = 0; type == CFG_SCALAR && scalar_tags[i]; i++) {
			if (!strcmp(name, scalar_tags[i])) {
				*is_str = i == 0;
				return 0;
			}
		}
	}
	cfg_errorf_mark(b->err, mark,
			"unknown YAML tag '%s' (fabemu reads untagged YAML: remove it, or quote a value that starts with '!')",
			cfg_quote(t, q));
	return -EINVAL;
}

static bool cfg_is_null_text(const char *s)
{
	return !strcmp(s, "") || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

static int cfg_on_scalar(struct cfg_builder *b, const yaml_event_t *ev)
{
	const struct cfg_frame *f = b->depth ? &b->stack[b->depth - 1] : NULL;
	bool is_key = f && f->node->type == CFG_MAP && !(f->n_kids & 1);
	struct cfg_mark mark = cfg_mark_of(b, ev->start_mark);
	yaml_scalar_style_t style = ev->data.scalar.style;
	const char *text = (const char *)ev->data.scalar.value;
	struct cfg_node *n;
	bool is_str;
	int rc = 0;

	if ((rc = cfg_check_tag(b, ev->data.scalar.tag, CFG_SCALAR, &mark, &is_str)) != 0)
		return rc;
	n = cfg_build_node(b, CFG_SCALAR, &mark, &rc);
	if (!n)
		return rc;
	n->quoted = is_str || style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
	/* Keys stay text: "null: 1" has the key "null". */
	if (!is_key && !n->quoted && style == YAML_PLAIN_SCALAR_STYLE && cfg_is_null_text(text)) {
		n->type = CFG_NULL;
	} else {
		n->str = cfg_strndup(b->doc, text, ev->data.scalar.length);
		if (!n->str)
			return cfg_nomem(b);
	}
	if (ev->data.scalar.anchor) {
		const char *a = (const char *)ev->data.scalar.anchor;
		char *name = cfg_strndup(b->doc, a, strlen(a));

		if (!name)
			return cfg_nomem(b);
		rc = cfg_add_anchor(b, name, n);
		if (rc)
			return rc;
	}
	return cfg_attach(b, n);
}

static int cfg_on_alias(struct cfg_builder *b, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct cfg_mark mark = cfg_mark_of(b, ev->start_mark);
	char q[CFG_QUOTE_BYTES];
	struct cfg_node *n;
	uint32_t i;
	int rc = 0;

	for (i = b->n_anchors; i-- > 0;) {
		if (strcmp(b->anchors[i].name, name))
			continue;
		n = cfg_copy(b, b->anchors[i].node, b->depth, &rc);
		if (!n)
			return rc;
		n->mark = mark;
		return cfg_attach(b, n);
	}
	for (i = 0; i < b->depth; i++) {
		if (b->stack[i].anchor && !strcmp(b->stack[i].anchor, name)) {
			cfg_errorf_mark(b->err, &mark, "alias '*%s' is inside the node it names",
					cfg_quote(name, q));
			return -EINVAL;
		}
	}
	cfg_errorf_mark(b->err, &mark, "unknown alias '*%s' (no anchor '&%s' before it)",
			cfg_quote(name, q), q);
	return -EINVAL;
}

static int cfg_push(struct cfg_builder *b, enum cfg_type type, const yaml_event_t *ev,
		    const yaml_char_t *anchor, const yaml_char_t *tag)
{
	struct cfg_mark mark = cfg_mark_of(b, ev->start_mark);
	struct cfg_frame *f;
	bool is_str;
	int rc = 0;

	if ((rc = cfg_check_tag(b, tag, type, &mark, &is_str)) != 0)
		return rc;

	if (b->depth == CFG_MAX_DEPTH) {
		cfg_errorf_mark(b->err, &mark, "nesting deeper than %d levels", CFG_MAX_DEPTH);
		return -E2BIG;
	}
	f = &b->stack[b->depth];
	memset(f, 0, sizeof(*f));
	f->node = cfg_build_node(b, type, &mark, &rc);
	if (!f->node)
		return rc;
	if (anchor) {
		f->anchor = cfg_strndup(b->doc, (const char *)anchor, strlen((const char *)anchor));
		if (!f->anchor)
			return cfg_nomem(b);
	}
	b->depth++;
	return 0;
}

/* Close the top container: its children move into the arena. */
static int cfg_pop(struct cfg_builder *b)
{
	struct cfg_frame *f = &b->stack[b->depth - 1];
	struct cfg_node *n = f->node;
	uint32_t i;
	int rc;

	n->items = cfg_alloc(b->doc, (size_t)f->n_kids * sizeof(*n->items) + 1);
	if (!n->items)
		return cfg_nomem(b);
	if (n->type == CFG_MAP) {
		n->n = f->n_kids / 2;
		n->keys = n->items + n->n;
		for (i = 0; i < n->n; i++) {
			n->keys[i] = f->kids[2 * i];
			n->items[i] = f->kids[2 * i + 1];
		}
	} else {
		n->n = f->n_kids;
		if (f->n_kids)
			memcpy(n->items, f->kids, (size_t)f->n_kids * sizeof(*n->items));
	}
	free(f->kids);
	free(f->key_slots);
	f->kids = NULL;
	f->key_slots = NULL;
	b->depth--;
	if (f->anchor) {
		rc = cfg_add_anchor(b, f->anchor, n);
		if (rc)
			return rc;
	}
	return cfg_attach(b, n);
}

static int cfg_on_event(struct cfg_builder *b, const yaml_event_t *ev)
{
	struct cfg_mark mark;

	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++b->n_docs == 1)
			return 0;
		mark = cfg_mark_of(b, ev->start_mark);
		cfg_errorf_mark(b->err, &mark, "a second document: one file holds one document");
		return -EINVAL;
	case YAML_SCALAR_EVENT:
		return cfg_on_scalar(b, ev);
	case YAML_ALIAS_EVENT:
		return cfg_on_alias(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return cfg_push(b, CFG_SEQ, ev, ev->data.sequence_start.anchor,
				ev->data.sequence_start.tag);
	case YAML_MAPPING_START_EVENT:
		return cfg_push(b, CFG_MAP, ev, ev->data.mapping_start.anchor,
				ev->data.mapping_start.tag);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return cfg_pop(b);
	default:
		return 0;
	}
}

static int cfg_yaml_error(struct cfg_builder *b, const yaml_parser_t *p, const char *text,
			  size_t len)
{
	struct cfg_mark mark = cfg_mark_of(b, p->problem_mark);
	const char *problem = p->problem ? p->problem : "syntax error";
	size_t i;

	if (p->error == YAML_MEMORY_ERROR)
		return cfg_nomem(b);
	if (p->error == YAML_READER_ERROR) {
		/* Bad bytes come with an offset only: find their line and column. */
		yaml_mark_t at = { 0, 0, 0 };

		for (i = 0; i < p->problem_offset && i < len; i++) {
			at.column = text[i] == '\n' ? 0 : at.column + 1;
			at.line += text[i] == '\n';
		}
		mark = cfg_mark_of(b, at);
	}
	if (b->is_set) {
		/* The context names our wrapping "[...]": leave it out. */
		cfg_errorf_mark(b->err, &mark, "bad value: %s", problem);
	} else if (p->context) {
		struct cfg_mark ctx = cfg_mark_of(b, p->context_mark);

		cfg_errorf_mark(b->err, &mark, "%s (%s at line %u, column %u)", problem,
				p->context, ctx.line, ctx.col);
	} else {
		cfg_errorf_mark(b->err, &mark, "%s", problem);
	}
	return -EINVAL;
}

/* Run libyaml over @text; on success b->root holds the single node. */
static int cfg_build(struct cfg_builder *b, const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_event_t ev;
	bool done = false;
	int rc = 0;

	if (!yaml_parser_initialize(&p))
		return cfg_nomem(b);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	while (!rc && !done) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = cfg_yaml_error(b, &p, text, len);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		rc = cfg_on_event(b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	while (b->depth > 0) {
		b->depth--;
		free(b->stack[b->depth].kids);
		free(b->stack[b->depth].key_slots);
	}
	free(b->anchors);
	b->anchors = NULL;
	return rc;
}

/* Parse @text (a file named @name) into @doc's arena: *@root is its top
 * node (a null node for an empty stream). 0 or -errno with @err filled. */
int cfg_parse_into(struct cfg_doc *doc, const char *name, const char *text,
		   struct cfg_node **root, char err[CFG_ERR_BYTES])
{
	static const struct cfg_mark start = { .line = 1, .col = 1 };
	struct cfg_builder *b = calloc(1, sizeof(*b));
	int rc;

	if (!b) {
		cfg_errorf_mark(err, NULL, "%s: out of memory", name);
		return -ENOMEM;
	}
	b->doc = doc;
	b->err = err;
	b->file = cfg_strndup(doc, name, strlen(name));
	rc = b->file ? cfg_build(b, text, strlen(text)) : -ENOMEM;
	if (rc == -ENOMEM && !b->file)
		cfg_errorf_mark(err, NULL, "%s: out of memory", name);
	if (!rc) {
		*root = b->root;
		if (!*root) {
			/* An empty stream is an empty document. */
			struct cfg_mark m = start;

			m.file = b->file;
			*root = cfg_node_new(doc, CFG_NULL, &m);
			if (!*root)
				rc = cfg_nomem(b);
		}
	}
	free(b);
	return rc;
}

int cfg_doc_load_string(const char *name, const char *text, struct cfg_doc **out,
			char err[CFG_ERR_BYTES])
{
	struct cfg_doc *doc;
	int rc;

	*out = NULL;
	doc = calloc(1, sizeof(*doc));
	if (!doc) {
		cfg_errorf_mark(err, NULL, "%s: out of memory", name);
		return -ENOMEM;
	}
	rc = cfg_parse_into(doc, name, text, &doc->root, err);
	if (rc) {
		cfg_doc_free(doc);
		return rc;
	}
	*out = doc;
	return 0;
}

/* Parse @value, at 1-based column @col of the assignment, as one flow node:
 * wrapped in "[...]" so that libyaml reads it in flow context. */
int cfg_set_value(struct cfg_doc *doc, const char *file, const char *value, uint32_t col,
		  struct cfg_node **out, char err[CFG_ERR_BYTES])
{
	struct cfg_mark mark = { .file = file, .line = 1, .col = col };
	size_t len = strlen(value);
	struct cfg_builder *b = calloc(1, sizeof(*b));
	char *wrapped = malloc(len + 3);
	const struct cfg_node *seq;
	int rc;

	if (!b || !wrapped) {
		free(b);
		free(wrapped);
		cfg_errorf_mark(err, &mark, "out of memory");
		return -ENOMEM;
	}
	wrapped[0] = '[';
	memcpy(wrapped + 1, value, len);
	memcpy(wrapped + 1 + len, "]", 2);
	b->doc = doc;
	b->err = err;
	b->file = file;
	b->is_set = true;
	b->col_shift = col - 2; /* wrapped column 1 (0-based) is @col */
	b->end_col = col + (uint32_t)len;
	rc = cfg_build(b, wrapped, len + 2);
	seq = b->root;
	free(b);
	free(wrapped);
	if (rc)
		return rc;
	if (!seq || seq->type != CFG_SEQ) {
		cfg_errorf_mark(err, &mark, "bad value: expected one YAML flow node");
		return -EINVAL;
	}
	if (seq->n > 1) {
		cfg_errorf(err, seq->items[1],
			   "bad value: more than one node (quote text with ',' or write [a, b] for a list)");
		return -EINVAL;
	}
	*out = seq->n ? seq->items[0] : cfg_node_new(doc, CFG_NULL, &mark);
	if (!*out) {
		cfg_errorf_mark(err, &mark, "out of memory");
		return -ENOMEM;
	}
	return 0;
}
