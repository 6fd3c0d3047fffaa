/* The CSV reader and row index shared by `fabemu plot`'s readers
 * (cli_plot_csv.c, used by cli_plot_read.c): a results file's lines split
 * at commas, bounded and checked, and an open-addressing index of rows by
 * hash. Private to the plot readers. */
#ifndef FAB_CLI_PLOT_CSV_H
#define FAB_CLI_PLOT_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_plot_int.h"

/* One CSV reader: a file's lines split at commas (fabemu does not quote). */
struct plot_csv {
	FILE *f;                          /* the file */
	char path[PLOT_PATH_BYTES];       /* for messages */
	char *line;                       /* the current line, PLOT_MAX_LINE_BYTES + 1 */
	uint64_t n_bytes;                 /* read so far */
	unsigned lineno;                  /* 1-based line number of line */
	char *fields[PLOT_MAX_FIELDS];    /* into line */
	unsigned n_fields;                /* how many */
	char *err;                        /* the caller's message buffer */
	bool quoted;                      /* RFC 4180 fields (sweep.csv): set after
					   * plot_csv_open */
};

/* "PATH[:LINE[:COL]]: " and the message into c->err; returns @rc. */
int plot_csv_bad(struct plot_csv *c, int rc, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The 1-based column (byte) where field @k of the current line starts. */
unsigned plot_csv_colno(const struct plot_csv *c, int k);
/* Open @dir/@name: 0 with *@present false when it does not exist, 0 with
 * it open, or -errno with c->err. Close it either way. */
int plot_csv_open(struct plot_csv *c, const char *dir, const char *name, bool *present,
		  char err[CFG_ERR_BYTES]);
/* Close @c; returns @rc when negative, else 0. */
int plot_csv_end(struct plot_csv *c, int rc);
/* The next line, split. Returns 1, 0 at the end, or -errno with c->err: a
 * line over PLOT_MAX_LINE_BYTES, a NUL byte, a file that grew past
 * PLOT_MAX_CSV_BYTES while read, a read error; with c->quoted, a quote
 * not closed on its line or followed by other than a comma. */
int plot_csv_next(struct plot_csv *c);
/* "not a fabemu KIND header (expected the columns A, B and C)": -EINVAL. */
int plot_csv_not_header(struct plot_csv *c, const char *kind, const char *const *names);
/* Read the header: @cols[k] is the column of @names[k] (NULL-terminated).
 * 0, or -errno with c->err (a missing column, or an empty file). */
int plot_csv_header(struct plot_csv *c, const char *kind, const char *const *names,
		    int *cols);
/* A row with fewer columns than @need (the header's, or the highest one
 * read), or more than PLOT_MAX_FIELDS - 1: -EINVAL with c->err; else 0. */
int plot_csv_width(struct plot_csv *c, int need, int n_header);
/* @s as a finite number into *@out: 0, or -EINVAL. */
int plot_num(const char *s, double *out);
/* Field @k of the current row, named @name, as a number: 0, or -EINVAL
 * with "FILE:LINE:COL: NAME: expected a number". */
int plot_csv_num(struct plot_csv *c, int k, const char *name, double *out);
/* Grow *@p (*@cap elements of @size bytes) to hold @need: 0 or -ENOMEM. */
int plot_grow(void **p, size_t *cap, size_t need, size_t size);
/* FNV-1a of the @len bytes at @p, from @h; of the string @s from the
 * offset basis. */
uint64_t plot_hash(const void *p, size_t len, uint64_t h);
uint64_t plot_hash_str(const char *s);
/* Room in @ix for entry @n (entries 0..n-1 are in it, @hash_of gives each
 * one's hash in @set): the table is rebuilt when it would be over half
 * full. 0 or -ENOMEM. */
int plot_index_reserve(struct plot_index *ix, size_t n,
		       uint64_t (*hash_of)(const void *set, size_t e), const void *set);
/* The entry of @ix that @same says is @key (hash @h), or SIZE_MAX with
 * *@slot the place to add it (after plot_index_reserve). */
size_t plot_index_find(const struct plot_index *ix, uint64_t h,
		       bool (*same)(const void *set, size_t e, const void *key),
		       const void *set, const void *key, size_t *slot);

#endif
