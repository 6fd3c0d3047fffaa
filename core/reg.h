/* Registries of kinds: every pluggable mechanism (congestion-control
 * algorithms, workload kinds, topology kinds, path-choice policies,
 * collective algorithms, queue managers, link layers, fault kinds) keeps
 * its kinds in one struct reg. A kind is one file that defines its ops
 * table, whose first member is a struct reg_kind (name, a line of doc, its
 * settings table and the size of the struct that table fills), plus one
 * line in its mechanism's built-in list; reg_add registers one more at
 * program start (the toy-kind tests add theirs through it). Names, "did
 * you mean", the valid-value lists in messages and the docs' lists all come
 * from the registry. */
#ifndef FAB_REG_H
#define FAB_REG_H

#include <stdbool.h>
#include <stddef.h>

#include "cfg.h"
#include "cfg_schema.h"

enum {
	REG_MAX_KINDS = 32, /* kinds of one mechanism, built-in and added, at most */
	REG_ALIGN = 16,     /* alignment of each kind's settings in a settings block */
};

/* What every kind carries: the first member of its mechanism's ops table,
 * so a const struct reg_kind * found in a registry converts back to the
 * ops (REG_OPS). */
struct reg_kind {
	const char *name;                 /* as written in experiments; unique in its
					   * registry */
	const char *doc;                  /* one line for help text and the docs */
	const struct cfg_table *settings; /* its settings' keys; NULL: it has none */
	size_t settings_size;             /* bytes of the struct the table fills
					   * (0 exactly when settings is NULL) */
};

struct reg;

/* A mechanism's own checks of a kind being registered (its required ops):
 * 0, or -EINVAL with @err filled. */
typedef int (*reg_check_fn)(const struct reg_kind *k, char err[CFG_ERR_BYTES]);

/* One mechanism's registry. Define it with REG_INIT beside the built-in
 * list; the rest is filled on first use. Lookups and reg_add are for the
 * loading thread (registries are complete before any simulation runs). */
struct reg {
	const char *what;                       /* the kind's noun in messages
						 * ("congestion control") */
	const struct reg_kind *const *builtin;  /* NULL-terminated, one line a kind */
	reg_check_fn check;                     /* may be NULL */
	const char *section;                    /* non-NULL: each kind with settings
						 * has a section of this name in the
						 * parent section (reg_settings_table) */
	/* May adjust a kind's generated section key (another key name, its
	 * doc, a default): NULL, or set after REG_INIT, beside section. */
	void (*section_key)(const struct reg_kind *k, struct cfg_key *key);
	/* filled on first use and by reg_add */
	bool ready;
	unsigned n;                             /* kinds */
	const struct reg_kind *kinds[REG_MAX_KINDS];
	const char *names[REG_MAX_KINDS + 1];   /* NULL-terminated, registry order */
	size_t off[REG_MAX_KINDS];              /* each kind's settings in a block */
	size_t block_bytes;                     /* a settings block's size */
	struct cfg_key keys[REG_MAX_KINDS];     /* one section key a kind with settings */
	struct cfg_sub subs[REG_MAX_KINDS][2];  /* and its table */
	const char *key_names[REG_MAX_KINDS];   /* each kind's section key as named
						 * (section_key may rename it); NULL:
						 * no section */
	char docs[REG_MAX_KINDS][160];          /* the section keys' doc lines */
	char whats[REG_MAX_KINDS][64];          /* and their names in messages */
	struct cfg_table table;                 /* the section keys */
};

#define REG_INIT(what_, builtin_, check_) \
	{ .what = (what_), .builtin = (builtin_), .check = (check_) }

/* A built-in list written once as an X-macro, one line a kind:
 *   #define CC_BUILTIN(X) X(struct cc_ops, cc_none_ops) X(struct cc_ops, cc_dcqcn_ops)
 *   CC_BUILTIN(REG_DECLARE)
 *   static const struct reg_kind *const cc_builtin[] = { CC_BUILTIN(REG_ENTRY) NULL };
 * REG_DECLARE declares each ops table (defined in the kind's own file),
 * REG_ENTRY lists it; so a new kind is its file plus its line, nothing in a
 * header. */
#define REG_DECLARE(type, ops) extern const type ops;
#define REG_ENTRY(type, ops) &(ops).kind,

/* The ops table whose first member is @k (a struct reg_kind), as @type. */
#define REG_OPS(type, k) ((const type *)(const void *)(k))

/* Register @k after the built-in kinds: -EINVAL with @err filled when its
 * name is empty or taken, its settings and size disagree, or the
 * mechanism's check refuses it; -ENOSPC when the registry is full. A
 * settings block made before has no room for @k's settings (reg_block_at
 * gives NULL there): register at program start. */
int reg_add(struct reg *r, const struct reg_kind *k, char err[CFG_ERR_BYTES]);

/* The kind named @name, or NULL. */
const struct reg_kind *reg_find(struct reg *r, const char *name);
/* Kinds registered (built-in first, in list order, then added ones). */
unsigned reg_count(struct reg *r);
/* The @i-th kind, or NULL past the end. */
const struct reg_kind *reg_at(struct reg *r, unsigned i);
/* Position of @k, or -1 when it is not registered here. */
int reg_index(struct reg *r, const struct reg_kind *k);
/* Names, NULL-terminated, in registry order (for cfg_enum and listings). */
const char *const *reg_names(struct reg *r);
/* The names joined by ", " into @buf (truncated with "..." to fit);
 * returns @buf. */
char *reg_list(struct reg *r, char *buf, size_t size);

/* Read a kind's name from @n: 0 with *out set, or -EINVAL with "unknown
 * value 'x' (did you mean 'y'?; valid: ...)" at @n. */
int reg_read(struct reg *r, const struct cfg_node *n, const struct reg_kind **out,
	     char err[CFG_ERR_BYTES]);

/* Read the map @map (named @what in messages) through @k's settings table
 * into @out (settings_size bytes): unknown keys refused, absent ones take
 * their defaults (filled into the document). A kind without settings
 * refuses every key. 0 or -errno with @err filled. */
int reg_settings_read(const struct reg_kind *k, struct cfg_doc *doc, struct cfg_node *map,
		      const char *what, void *out, char err[CFG_ERR_BYTES]);
/* @k's settings at their defaults into @out (no document needed). */
int reg_settings_defaults(const struct reg_kind *k, void *out, char err[CFG_ERR_BYTES]);

/* Settings of every kind of a registry with a section (r->section set):
 * one block holds each kind's settings struct at r->off[i]; the table of
 * section keys (reg_settings_table) reads them with the parent section
 * through cfg_schema_read, as one bind whose params is the block. */
void *reg_block_new(struct reg *r);                     /* zeroed; NULL: no memory */
void reg_block_free(void *block);
/* Kind @k's settings in @block (NULL when @k has none, or was registered
 * after the block was made). */
void *reg_block_at(struct reg *r, void *block, const struct reg_kind *k);
const void *reg_block_get(struct reg *r, const void *block, const struct reg_kind *k);
/* The table of one section key per kind with settings ("dcqcn: {...}"),
 * for the parent's schema read and the configuration reference. Absent
 * sections are not filled in (no default): a mechanism fills in the
 * sections of the kinds in use (reg_block_fill). */
const struct cfg_table *reg_settings_table(struct reg *r);
/* Read @k's section of @parent into @block, filling in an empty one when
 * the parent has none (so the resolved experiment shows its defaults);
 * @prefix names the parent in messages ("nic"). 0 or -errno. */
int reg_block_fill(struct reg *r, struct cfg_doc *doc, struct cfg_node *parent,
		   const char *prefix, void *block, const struct reg_kind *k,
		   char err[CFG_ERR_BYTES]);

#endif
