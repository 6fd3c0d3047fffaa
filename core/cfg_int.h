/* Private to the configuration layer: the document and its arena, and the
 * helpers shared by the loader (cfg.c, cfg_file.c), the editor (cfg_edit.c)
 * and the typed readers (cfg_read.c). Not for other modules. */
#ifndef FAB_CFG_INT_H
#define FAB_CFG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

enum {
	CFG_QUOTE_BYTES = 48, /* user text echoed in a message, with "..." */
	CFG_DESCRIBE_BYTES = CFG_QUOTE_BYTES + 2, /* the same in quotes */
	CFG_DESCRIBE_WORD_BYTES = 32, /* cfg_describe quotes a plain word up to this long */
};

/* cfg_errorf at a bare mark; a NULL @m (or NULL file) gives no prefix. */
void cfg_errorf_mark(char err[CFG_ERR_BYTES], const struct cfg_mark *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @s as one bounded line for a message: control characters become '?',
 * long text is cut on a character boundary and ends in "...". Returns @buf. */
const char *cfg_quote(const char *s, char buf[CFG_QUOTE_BYTES]);
/* "nothing", "a map", "a list", the quoted text of a scalar that is a plain
 * word ([A-Za-z0-9_.-], at most CFG_DESCRIBE_WORD_BYTES), or "a text of N
 * bytes (not shown)" for any other scalar, for "got ..."; the result is
 * @buf or a string constant. */
const char *cfg_describe(const struct cfg_node *n, char buf[CFG_DESCRIBE_BYTES]);

/* One arena chunk; nodes, arrays and strings of a document live here. */
struct cfg_chunk {
	struct cfg_chunk *next; /* older chunk */
	size_t used;            /* bytes handed out */
	size_t cap;             /* bytes in data */
	max_align_t data[];     /* the memory */
};

/* A loaded document: its arena owns every node, array and string. */
struct cfg_doc {
	struct cfg_chunk *chunks; /* newest first */
	struct cfg_node *root;    /* never NULL once loaded */
	uint32_t n_nodes;         /* nodes made by the parser, for the limit */
};

/* @size bytes from @doc's arena (aligned for any type), or NULL. */
void *cfg_alloc(struct cfg_doc *doc, size_t size);
/* The first @len bytes of @s, NUL-terminated, in @doc's arena, or NULL. */
char *cfg_strndup(struct cfg_doc *doc, const char *s, size_t len);
/* A new node of @type at @mark in @doc's arena (not counted against the
 * parser's node limit), or NULL. */
struct cfg_node *cfg_node_new(struct cfg_doc *doc, enum cfg_type type, const struct cfg_mark *mark);
/* Parse @text (a file named @name) into @doc's arena: *@root is its top
 * node (a null node for an empty stream). 0 or -errno with @err filled. */
int cfg_parse_into(struct cfg_doc *doc, const char *name, const char *text, struct cfg_node **root,
		   char err[CFG_ERR_BYTES]);
/* Parse the --set value @value of the assignment in @file, at 1-based
 * column @col, as one YAML flow node into *@out. 0 or -errno with @err. */
int cfg_set_value(struct cfg_doc *doc, const char *file, const char *value, uint32_t col,
		  struct cfg_node **out, char err[CFG_ERR_BYTES]);

#endif
