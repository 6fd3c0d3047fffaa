/* Configuration schema tables: each module declares the keys of its section
 * in one table beside its params struct (name, type, default as YAML text,
 * range, a line of doc, where the value goes), and one generic walker reads
 * a section through the tables that serve it: unknown keys are rejected with
 * "did you mean", absent keys take their default (filled into the document,
 * so the resolved experiment shows them), then each table's cross-key check
 * runs. Built on the typed readers of cfg.h. */
#ifndef FAB_CFG_SCHEMA_H
#define FAB_CFG_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

struct cfg_table;

enum cfg_key_type {
	CFG_KEY_UINT,     /* integer (cfg_u64) in [min, max] into an unsigned of `size` bytes */
	CFG_KEY_SIZE,     /* size (cfg_size) in [min, max] into an unsigned of `size` bytes */
	CFG_KEY_TIME,     /* time (cfg_time) into a uint64_t of ps */
	CFG_KEY_RATE,     /* rate (cfg_rate) of at least min into a uint64_t of bit/s */
	CFG_KEY_BOOL,     /* boolean into a bool */
	CFG_KEY_DOUBLE,   /* number (cfg_double) in [lo, hi] into a double */
	CFG_KEY_FRACTION, /* fraction (cfg_fraction) in [lo, hi] into a double */
	CFG_KEY_Q16,      /* fraction in [lo, hi] into a uint32_t 16.16 fixed point, rounded */
	CFG_KEY_ENUM,     /* one of names (cfg_enum) into an int (or an enum) */
	CFG_KEY_STR,      /* any scalar (cfg_str) into a const char * owned by the document */
	CFG_KEY_CUSTOM,   /* the key's own reader */
	CFG_KEY_SECTION,  /* a nested map read through the tables in subs */
	CFG_KEY_ANY,      /* accepted and not read (free text) */
};

/* A reader of one value into the params of the key's table; @n may be a
 * default filled in by the walker (n->dflt). 0 or -errno with @err filled. */
typedef int (*cfg_key_read_fn)(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES]);
/* A table's cross-key check, after every key of the section was read (or
 * defaulted); @map is the section. 0 or -errno with @err filled. */
typedef int (*cfg_table_check_fn)(const struct cfg_node *map, void *params,
				  char err[CFG_ERR_BYTES]);

/* A table serving a nested section, and where its params lie in the
 * parent table's params. */
struct cfg_sub {
	const struct cfg_table *table; /* NULL ends a list */
	size_t off;                    /* bytes from the parent's params to this table's */
};

struct cfg_key {
	const char *name;           /* key in its section */
	enum cfg_key_type type;     /* how it is read */
	const char *dflt;           /* default as YAML text, read by the same reader as
				     * user input; "{}" for a section read with its own
				     * defaults; NULL: absence means off (or derived) */
	const char *required;       /* non-NULL: the key must be given; what to write,
				     * for "missing key 'x' (...)" */
	const char *doc;            /* one line for the reference */
	size_t off;                 /* destination in the table's params */
	uint8_t size;               /* UINT, SIZE: bytes of the destination (1, 2, 4, 8) */
	uint64_t min;               /* UINT, SIZE: inclusive range; RATE: minimum */
	uint64_t max;               /* UINT, SIZE */
	double lo;                  /* DOUBLE, FRACTION, Q16: inclusive range */
	double hi;                  /* DOUBLE, FRACTION, Q16 */
	const char *const *names;   /* ENUM: NULL-terminated names, index = value */
	cfg_key_read_fn read;       /* CUSTOM */
	const struct cfg_sub *subs; /* SECTION: tables of the nested map */
	const char *what;           /* SECTION: its name in type errors ("pfc", "nic") */
};

struct cfg_table {
	const char *section;        /* dotted prefix of its keys in the reference
				     * ("fabric.pfc", "" for the top level) */
	const struct cfg_key *keys; /* in reading order */
	unsigned n_keys;            /* entries of keys */
	cfg_table_check_fn check;   /* may be NULL */
	bool ordered;               /* name the valid keys in table order in messages
				     * (else sorted alphabetically) */
	const char *missing;        /* printf format of the error for an absent required
				     * key, given its name and `required` text; NULL:
				     * "missing key '%s' (%s)" */
};

/* One table and the params it fills, for one section. */
struct cfg_bind {
	const struct cfg_table *table; /* the keys */
	void *params;                  /* their destination */
};

enum { CFG_SCHEMA_MAX_BINDS = 8 /* tables serving one section */ };

/* Read the section @map through @n_binds tables: it must be a map (else
 * "@what: expected a map"), every key must be declared by one of the
 * tables (else "unknown key ... did you mean"); then, table by table and
 * key by key, a present key is read, an absent one with a default gets the
 * default filled into @map (cfg_doc_fill) and read the same way, a required
 * one that is absent is an error; nested sections declared by several
 * tables are read once, through all of theirs; finally each table's check
 * runs. Returns 0 or -errno with @err filled. */
int cfg_schema_read(struct cfg_doc *doc, struct cfg_node *map, const char *what,
		    const struct cfg_bind *binds, unsigned n_binds, char err[CFG_ERR_BYTES]);

/* Read one key's value @n into @params as the key's type says. */
int cfg_schema_read_key(const struct cfg_key *k, const struct cfg_node *n, void *params,
			char err[CFG_ERR_BYTES]);

/* The value of @key in @map, non-const (the walker fills defaults in). */
struct cfg_node *cfg_schema_get(struct cfg_node *map, const char *key);

/* A growing NULL-terminated list of "section.key" names. */
struct cfg_schema_names {
	const char **names;         /* malloc'd, NULL-terminated; strings malloc'd */
	const struct cfg_key **keys; /* the key of each name (its first declaration) */
	unsigned n;                 /* names */
	unsigned cap;               /* allocated entries */
};

/* Append the keys of @t (and of its nested sections, recursively) to @out,
 * skipping names already there. 0 or -ENOMEM. */
int cfg_schema_names_add(struct cfg_schema_names *out, const struct cfg_table *t);
/* Index of @name in @l, or -1. */
int cfg_schema_names_find(const struct cfg_schema_names *l, const char *name);
/* Free the list's strings and array; the struct is zeroed. */
void cfg_schema_names_free(struct cfg_schema_names *out);

#endif
