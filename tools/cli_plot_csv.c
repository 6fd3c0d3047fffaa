/* `fabemu plot`'s CSV reader (tools/cli_plot_csv.h): a results file
 * opened with its size bounded by fstat, read line by line (each line
 * bounded), split at commas, its header and numbers checked with messages
 * that say where; and the row index the readers find rows by. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_plot_csv.h"


/* "PATH[:LINE[:COL]]: " and the message into c->err; returns @rc. */
int plot_csv_bad(struct plot_csv *c, int rc, unsigned col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->lineno && col)
		n = snprintf(c->err, CFG_ERR_BYTES, "%.400s:%u:%u: ", c->path, c->lineno, col);
	else if (c->lineno)
		n = snprintf(c->err, CFG_ERR_BYTES, "%.400s:%u: ", c->path, c->lineno);
	else
		n = snprintf(c->err, CFG_ERR_BYTES, "%.400s: ", c->path);
	va_start(ap, fmt);
	vsnprintf(c->err + n, CFG_ERR_BYTES - (size_t)n, fmt, ap);
	va_end(ap);
	return rc;
}

/* The 1-based column (byte) where field @k of the current line starts. */
unsigned plot_csv_colno(const struct plot_csv *c, int k)
{
	return (unsigned)(c->fields[k] - c->line) + 1;
}

/* Open @dir/@name: 0 with *@present false when it does not exist, 0 with
 * it open, or -errno with c->err. Close it either way. */
int plot_csv_open(struct plot_csv *c, const char *dir, const char *name, bool *present,
		  char err[CFG_ERR_BYTES])
{
	char why[CFG_WHY_BYTES];
	struct stat st;

	memset(c, 0, sizeof(*c));
	c->err = err;
	*present = false;
	if ((size_t)snprintf(c->path, sizeof(c->path), "%s/%s", dir, name) >= sizeof(c->path))
		return plot_csv_bad(c, -ENAMETOOLONG, 0, "path too long");
	/* Not a FIFO or a device: a results file is a regular file. */
	errno = 0;
	c->f = cfg_fopen_regular(c->path, why);
	if (!c->f)
		return errno == ENOENT ? 0 : plot_csv_bad(c, -EIO, 0, "cannot open: %s", why);
	if (fstat(fileno(c->f), &st) != 0)
		return plot_csv_bad(c, -EIO, 0, "cannot read: %s", strerror(errno));
	if ((uint64_t)st.st_size > PLOT_MAX_CSV_BYTES)
		return plot_csv_bad(c, -EFBIG, 0, "larger than %llu GiB, the most plot reads of one file",
				    (unsigned long long)(PLOT_MAX_CSV_BYTES >> 30));
	c->line = malloc(PLOT_MAX_LINE_BYTES + 1);
	if (!c->line)
		return plot_csv_bad(c, -ENOMEM, 0, "out of memory");
	*present = true;
	return 0;
}

/* Close @c; returns @rc when negative, else 0. */
int plot_csv_end(struct plot_csv *c, int rc)
{
	if (c->f)
		fclose(c->f);
	free(c->line);
	c->f = NULL;
	c->line = NULL;
	return rc < 0 ? rc : 0;
}

/* c->line split as RFC 4180 says, in place: a field in quotes may hold
 * commas and "" for a quote (sweep.csv's values). 1, or -EINVAL. */
static int plot_csv_split_quoted(struct plot_csv *c)
{
	char *r = c->line, *w = c->line;

	for (;;) {
		if (c->n_fields == PLOT_MAX_FIELDS)
			return 1; /* plot_csv_width refuses the row */
		c->fields[c->n_fields++] = w;
		if (*r == '"') {
			for (r++;; r++) {
				if (!*r)
					return plot_csv_bad(c, -EINVAL, (unsigned)(r - c->line) + 1,
							    "a quoted field not closed on its line");
				if (*r == '"' && r[1] != '"')
					break;
				r += *r == '"';
				*w++ = *r;
			}
			r++;
			if (*r && *r != ',')
				return plot_csv_bad(c, -EINVAL, (unsigned)(r - c->line) + 1,
						    "expected a comma after a quoted field");
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		if (!*r) {
			*w = '\0';
			return 1;
		}
		*w++ = '\0';
		r++;
	}
}

/* The next line, split. Returns 1, 0 at the end, or -errno with c->err: a
 * line over PLOT_MAX_LINE_BYTES, a NUL byte, a file that grew past
 * PLOT_MAX_CSV_BYTES while read, a read error. */
int plot_csv_next(struct plot_csv *c)
{
	size_t len = 0;
	char *p;
	int ch;

	while ((ch = getc_unlocked(c->f)) != EOF && ch != '\n') {
		if (len == PLOT_MAX_LINE_BYTES || ch == '\0') {
			c->lineno++;
			if (ch == '\0')
				return plot_csv_bad(c, -EINVAL, (unsigned)len + 1, "NUL byte: not a text file");
			return plot_csv_bad(c, -EFBIG, 0, "line longer than %d KiB: not a fabemu results file",
					    PLOT_MAX_LINE_BYTES >> 10);
		}
		c->line[len++] = (char)ch;
	}
	if (ch == EOF && ferror(c->f)) {
		c->lineno = 0; /* the file's, not a line's */
		return plot_csv_bad(c, -EIO, 0, "cannot read: %s", strerror(errno));
	}
	if (ch == EOF && len == 0)
		return 0;
	c->lineno++;
	c->n_bytes += len + 1;
	if (c->n_bytes > PLOT_MAX_CSV_BYTES)
		return plot_csv_bad(c, -EFBIG, 0, "larger than %llu GiB, the most plot reads of one file",
				    (unsigned long long)(PLOT_MAX_CSV_BYTES >> 30));
	c->line[len] = '\0';
	c->n_fields = 0;
	if (c->quoted)
		return plot_csv_split_quoted(c);
	for (p = c->line; c->n_fields < PLOT_MAX_FIELDS;) {
		c->fields[c->n_fields++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return 1;
}

/* "not a fabemu KIND header (expected the columns A, B and C)": -EINVAL. */
int plot_csv_not_header(struct plot_csv *c, const char *kind, const char *const *names)
{
	char list[256] = "";
	size_t n = 0;

	for (unsigned k = 0; names[k]; k++)
		n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s",
				      !k ? "" : names[k + 1] ? ", " : " and ", names[k]);
	c->lineno = 1;
	return plot_csv_bad(c, -EINVAL, 0, "not a fabemu %s header (expected the columns %s)", kind,
			    list);
}

/* Read the header: @cols[k] is the column of @names[k] (NULL-terminated).
 * 0, or -errno with c->err (a missing column, or an empty file). */
int plot_csv_header(struct plot_csv *c, const char *kind, const char *const *names,
		    int *cols)
{
	int rc = plot_csv_next(c);

	if (rc < 0)
		return rc;
	for (unsigned k = 0; names[k]; k++) {
		cols[k] = -1;
		for (unsigned f = 0; rc > 0 && f < c->n_fields && cols[k] < 0; f++)
			if (!strcmp(c->fields[f], names[k]))
				cols[k] = (int)f;
		if (cols[k] < 0)
			return plot_csv_not_header(c, kind, names);
	}
	return 0;
}

/* A row with fewer columns than @need (the header's, or the highest one
 * read), or more than PLOT_MAX_FIELDS - 1: -EINVAL with c->err; else 0. */
int plot_csv_width(struct plot_csv *c, int need, int n_header)
{
	if ((int)c->n_fields < need)
		return plot_csv_bad(c, -EINVAL, 0, "%u columns, expected %d as in the header",
				    c->n_fields, n_header);
	if (c->n_fields == PLOT_MAX_FIELDS)
		return plot_csv_bad(c, -EINVAL, 0, "more than %d columns: not a fabemu results file",
				    PLOT_MAX_FIELDS - 1);
	return 0;
}

/* @s as a finite number into *@out: 0, or -EINVAL. */
int plot_num(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*out = strtod(s, &end);
	return *end || !isfinite(*out) ? -EINVAL : 0;
}

/* Field @k of the current row, named @name, as a number: 0, or -EINVAL
 * with "FILE:LINE:COL: NAME: expected a number". */
int plot_csv_num(struct plot_csv *c, int k, const char *name, double *out)
{
	if (plot_num(c->fields[k], out) == 0)
		return 0;
	return plot_csv_bad(c, -EINVAL, plot_csv_colno(c, k), "%s: expected a number", name);
}

/* Grow *@p (*@cap elements of @size bytes) to hold @need: 0 or -ENOMEM. */
int plot_grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *q;
	size_t c = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

/* ---- the index ---- */

uint64_t plot_hash(const void *p, size_t len, uint64_t h)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * 1099511628211ull; /* FNV-1a */
	return h;
}

uint64_t plot_hash_str(const char *s)
{
	return plot_hash(s, strlen(s), 1469598103934665603ull);
}

/* Room in @ix for entry @n (entries 0..n-1 are in it, @hash_of gives each
 * one's hash in @set): the table is rebuilt when it would be over half
 * full. 0 or -ENOMEM. */
int plot_index_reserve(struct plot_index *ix, size_t n,
		       uint64_t (*hash_of)(const void *set, size_t e), const void *set)
{
	size_t cap = ix->n_slots ? ix->n_slots : 64;
	uint32_t *slots;

	if (2 * (n + 1) <= ix->n_slots)
		return 0;
	if (n >= UINT32_MAX - 1)
		return -ENOMEM;
	while (cap < 2 * (n + 1))
		cap *= 2;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t e = 0; e < n; e++) {
		size_t i = hash_of(set, e) & (cap - 1);

		while (slots[i])
			i = (i + 1) & (cap - 1);
		slots[i] = (uint32_t)(e + 1);
	}
	free(ix->slots);
	ix->slots = slots;
	ix->n_slots = cap;
	return 0;
}

/* The entry of @ix that @same says is @key (hash @h), or SIZE_MAX with
 * *@slot the place to add it (after plot_index_reserve). */
size_t plot_index_find(const struct plot_index *ix, uint64_t h,
		       bool (*same)(const void *set, size_t e, const void *key),
		       const void *set, const void *key, size_t *slot)
{
	size_t i, mask = ix->n_slots - 1;

	for (i = h & mask; ix->slots[i]; i = (i + 1) & mask)
		if (same(set, ix->slots[i] - 1, key))
			return ix->slots[i] - 1;
	*slot = i;
	return SIZE_MAX;
}
