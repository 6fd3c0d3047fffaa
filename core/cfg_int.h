/* Private to the configuration layer: message helpers shared by the loader
 * (cfg.c) and the typed readers (cfg_read.c). Not for other modules. */
#ifndef FAB_CFG_INT_H
#define FAB_CFG_INT_H

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

#endif
