/* Experiment configuration: a YAML document (libyaml) loaded into a small
 * tree that remembers where every node came from, plus typed readers that
 * turn a node into a checked value or an error "FILE:LINE:COL: message" in a
 * buffer the caller owns. `--set a.b.c=value` overrides edit the tree before
 * the typed reading, so they are checked by the same readers. */
#ifndef FAB_CFG_H
#define FAB_CFG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { CFG_ERR_BYTES = 512 };

enum cfg_type {
	CFG_NULL,   /* empty value or "~" / "null" */
	CFG_SCALAR, /* any scalar; typed readers interpret its text */
	CFG_MAP,    /* mapping, keys are scalars, document order kept */
	CFG_SEQ,    /* sequence */
};

/* Where a node starts: file name (or "--set #N" for overrides), 1-based. */
struct cfg_mark {
	const char *file; /* owned by the document */
	uint32_t line;    /* 1-based line */
	uint32_t col;     /* 1-based column */
};

struct cfg_node {
	enum cfg_type type;      /* what the node is */
	struct cfg_mark mark;    /* where it starts */
	char *str;               /* CFG_SCALAR: the text; NULL otherwise */
	bool quoted;             /* CFG_SCALAR: written with quotes */
	bool dflt;               /* filled in from a schema table's default (cfg_doc_fill),
				  * not written by the user; marked at its map */
	bool omit;               /* a default that applies only while absent (it would not
				  * pass its reader if written): cfg_doc_write leaves it out */
	bool path;               /* CFG_SCALAR: a file name its reader took relative to the
				  * folder of mark.file (cfg_doc_write_at rewrites it) */
	uint32_t n;              /* CFG_MAP: pairs; CFG_SEQ: items */
	struct cfg_node **keys;  /* CFG_MAP: key nodes (scalars), n of them */
	struct cfg_node **items; /* CFG_MAP: values; CFG_SEQ: items */
};

struct cfg_doc;

/* Load a YAML file (one document). Anchors/aliases are resolved; duplicate
 * keys, non-scalar keys and multi-document files are errors. Returns 0, or
 * -errno with @err filled ("exp.yaml:3:7: ..." or "exp.yaml: cannot open:
 * No such file or directory"). */
int cfg_doc_load(const char *path, struct cfg_doc **out, char err[CFG_ERR_BYTES]);

enum { CFG_WHY_BYTES = 96 }; /* cfg_fopen_regular's reason */

/* Open @path for reading only when it is a regular file: a FIFO, a device
 * or a folder is refused before anything is read (opened non-blocking, so
 * a FIFO without a writer cannot hang the caller). NULL with @why filled
 * ("not a regular file (a FIFO)", or the system's reason) and errno set
 * (the system's; EISDIR for a folder, EINVAL for a FIFO or device) when it
 * cannot be read. Every input file fabemu reads goes through this. */
FILE *cfg_fopen_regular(const char *path, char why[CFG_WHY_BYTES]);
/* What cfg_read_text found wrong (its caller words the message). */
enum cfg_text_err {
	CFG_TEXT_OPEN = 1, /* cannot open, or not a regular file: @why says which */
	CFG_TEXT_READ,     /* a read failed, or the file changed size: @why says */
	CFG_TEXT_LARGE,    /* over the bound: *@size is its size */
	CFG_TEXT_NUL,      /* holds a NUL byte: no text */
};

/* The whole text of the regular file @path (cfg_fopen_regular), refused
 * from its size, before any read, when over @max bytes; NUL-terminated and
 * malloc'd into *@text, its bytes into *@size. 0, -ENOMEM, or -EINVAL
 * with *@what (and for CFG_TEXT_OPEN and CFG_TEXT_READ, @why) set. */
int cfg_read_text(const char *path, uint64_t max, char **text, uint64_t *size,
		  enum cfg_text_err *what, char why[CFG_WHY_BYTES]);
/* Open @path for writing (created, or truncated) without following a
 * symbolic link in its last component: a link there fails with ELOOP and
 * nothing is written where it points. Every file fabemu writes into a
 * results folder goes through this. NULL with errno set on failure. */
FILE *cfg_fopen_out(const char *path);
/* Same from a string; @name stands for the file name in marks. */
int cfg_doc_load_string(const char *name, const char *text, struct cfg_doc **out,
			char err[CFG_ERR_BYTES]);
/* Load the YAML file @path into @doc (whose arena then owns its nodes and
 * marks: errors point into @path); *@out is its top node, not attached
 * anywhere. Returns 0 or -errno with @err filled. */
int cfg_doc_include(struct cfg_doc *doc, const char *path, struct cfg_node **out,
		    char err[CFG_ERR_BYTES]);
/* Lay map @base under map @map: @map ends with every key of @base (in
 * @base's order) whose value is @map's where @map has the key, then
 * @map's other keys, and without the key @skip (NULL: none). Both must be
 * maps of @doc's arena. 0 or -errno with @err filled. */
int cfg_map_underlay(struct cfg_doc *doc, struct cfg_node *map, const struct cfg_node *base,
		     const char *skip, char err[CFG_ERR_BYTES]);
void cfg_doc_free(struct cfg_doc *doc); /* NULL is fine */
struct cfg_node *cfg_doc_root(struct cfg_doc *doc);

/* Apply one override "path.to.key=value". Path components are map keys or,
 * on sequences, 0-based indices. The value is parsed as a YAML flow node, so
 * "x=[a, b]" and "x={rate: 1Gbps}" work. Missing map keys along the path are
 * created (as maps, then the final key); an index past the end of a sequence,
 * descending into a scalar, or an empty path is an error. The new nodes are
 * marked with file "--set #@index" (1-based index of the override on the
 * command line), line 1, and the column in @assignment. */
int cfg_doc_set(struct cfg_doc *doc, const char *assignment, unsigned index,
		char err[CFG_ERR_BYTES]);

/* Add @key with the value @text (one YAML flow node, as a --set value is
 * read) to @map, which must be a map without @key. Every new node carries
 * @map's mark and the dflt flag. *@out is the new value. Returns 0, or
 * -EINVAL / -ENOMEM with @err filled (a bad @text is a programming error
 * that the schema tests catch). */
int cfg_doc_fill(struct cfg_doc *doc, struct cfg_node *map, const char *key, const char *text,
		 struct cfg_node **out, char err[CFG_ERR_BYTES]);

/* Write the document to @out as YAML (libyaml's emitter: block style,
 * quoting where the text needs it or was quoted), leaving out map entries
 * whose value has the omit flag. Returns 0 or -EIO / -ENOMEM with @err. */
int cfg_doc_write(const struct cfg_doc *doc, FILE *out, char err[CFG_ERR_BYTES]);
/* The same for a file that will live in folder @dir: every relative
 * path scalar (cfg_node.path) is written relative to @dir, so that the
 * file read from there names the same files (kept as written when a
 * file cannot be found). */
int cfg_doc_write_at(const struct cfg_doc *doc, FILE *out, const char *dir,
		     char err[CFG_ERR_BYTES]);

/* Write "FILE:LINE:COL: " + message into @err (truncating safely). */
void cfg_errorf(char err[CFG_ERR_BYTES], const struct cfg_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Closest string to @word among the NULL-terminated @choices by edit
 * distance, or NULL when nothing is reasonably close. */
const char *cfg_nearest(const char *word, const char *const *choices);

/* Map access. cfg_get returns the value for @key or NULL when absent (or when
 * @map is not a map). cfg_check_keys fails on the first key not in the
 * NULL-terminated @allowed list, naming the nearest allowed key. */
const struct cfg_node *cfg_get(const struct cfg_node *map, const char *key);
int cfg_check_keys(const struct cfg_node *map, const char *const *allowed, char err[CFG_ERR_BYTES]);
/* Fails unless @n has @type; @what names the item for the message. */
int cfg_want(const struct cfg_node *n, enum cfg_type type, const char *what,
	     char err[CFG_ERR_BYTES]);

/* Typed readers of one node. All return 0 or -EINVAL with @err filled at the
 * node's mark, naming the accepted form ("expected a rate such as 100Gbps").
 * Ranges are inclusive. */
int cfg_u64(const struct cfg_node *n, uint64_t min, uint64_t max, uint64_t *out,
	    char err[CFG_ERR_BYTES]);
int cfg_double(const struct cfg_node *n, double min, double max, double *out,
	       char err[CFG_ERR_BYTES]);
int cfg_bool(const struct cfg_node *n, bool *out, char err[CFG_ERR_BYTES]);
int cfg_str(const struct cfg_node *n, const char **out, char err[CFG_ERR_BYTES]);
int cfg_rate(const struct cfg_node *n, uint64_t min_bps, uint64_t *bps, char err[CFG_ERR_BYTES]);
int cfg_time(const struct cfg_node *n, uint64_t *ps, char err[CFG_ERR_BYTES]);
/* A time of at most @max_ps ("time 5s is above the maximum 1s (@why)");
 * @why says what the bound is for. */
int cfg_time_max(const struct cfg_node *n, uint64_t max_ps, const char *why, uint64_t *ps,
		 char err[CFG_ERR_BYTES]);
int cfg_size(const struct cfg_node *n, uint64_t min, uint64_t max, uint64_t *bytes,
	     char err[CFG_ERR_BYTES]);
/* A fraction written "30%" or "0.3", in [min, max]. */
int cfg_fraction(const struct cfg_node *n, double min, double max, double *out,
		 char err[CFG_ERR_BYTES]);
/* One of the NULL-terminated @names; *out is its index. */
int cfg_enum(const struct cfg_node *n, const char *const *names, int *out, char err[CFG_ERR_BYTES]);

#endif
