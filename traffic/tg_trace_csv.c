/* Trace format `csv`, fabemu's own: a header line naming the columns, then
 * one message per row, `start,src,dst,bytes[,op][,id][,depends_on]` in any
 * column order. start is a time with its unit (`12us`), src and dst host
 * names or indices into hosts, bytes an integer, op write|send|read; a
 * row with an id can be waited for: depends_on lists, `;`-separated, ids
 * of rows above it, whose completion it waits for (docs/config.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tg_trace_int.h"
#include "units.h"

/* The columns, in the order of the header line a writer would give. */
enum tg_csv_col {
	TG_CSV_START,
	TG_CSV_SRC,
	TG_CSV_DST,
	TG_CSV_BYTES,
	TG_CSV_OP,
	TG_CSV_ID,
	TG_CSV_DEPS,
	TG_CSV_N_COLS,
};

static const char *const tg_csv_names[] = {
	"start", "src", "dst", "bytes", "op", "id", "depends_on", NULL,
};

static const char *const tg_csv_ops[] = { "write", "send", "read", NULL };

enum { TG_CSV_NONE = -1 /* a column the header does not name */ };

/* What the header line says. */
struct tg_csv_head {
	int field[TG_CSV_N_COLS]; /* per column: its field on a row, or TG_CSV_NONE */
	uint32_t n_fields;        /* fields of every row */
};

static const char tg_csv_form[] = "start,src,dst,bytes[,op][,id][,depends_on]";

static int tg_csv_header(const struct tg_trace_in *in, const struct tg_trace_line *l,
			 struct tg_csv_head *h, char err[CFG_ERR_BYTES])
{
	struct tg_trace_tok t[TG_TRACE_MAX_FIELDS];
	uint32_t n = tg_trace_split(l, ',', t);
	char buf[TG_TRACE_WORD_BYTES];

	for (int c = 0; c < TG_CSV_N_COLS; c++)
		h->field[c] = TG_CSV_NONE;
	if (n > TG_CSV_N_COLS)
		return tg_trace_errf(err, in, l->no, t[TG_CSV_N_COLS].col,
				     "more than %d columns (the header is %s)", TG_CSV_N_COLS, tg_csv_form);
	for (uint32_t i = 0; i < n; i++) {
		int c = 0;

		while (tg_csv_names[c] && !tg_trace_is(&t[i], tg_csv_names[c]))
			c++;
		if (!tg_csv_names[c]) {
			const char *w = tg_trace_word(&t[i], buf), *near = w ? cfg_nearest(w, tg_csv_names) : NULL;

			/* Quoted only when a plain word: a file that is no trace
			 * at all is not echoed. */
			if (!w)
				return tg_trace_errf(err, in, l->no, t[i].col,
						     "an unknown column (field %u of the header; the header is %s)",
						     i + 1, tg_csv_form);
			return tg_trace_errf(err, in, l->no, t[i].col,
					     "unknown column '%s'%s%s%s (the header is %s)", w,
					     near ? " (did you mean '" : "", near ? near : "",
					     near ? "'?)" : "", tg_csv_form);
		}
		if (h->field[c] != TG_CSV_NONE)
			return tg_trace_errf(err, in, l->no, t[i].col, "column '%s' named twice",
					     tg_csv_names[c]);
		h->field[c] = (int)i;
	}
	for (int c = TG_CSV_START; c <= TG_CSV_BYTES; c++)
		if (h->field[c] == TG_CSV_NONE)
			return tg_trace_errf(err, in, l->no, 1,
					     "the header names no '%s' column (the header is %s)",
					     tg_csv_names[c], tg_csv_form);
	if (h->field[TG_CSV_DEPS] != TG_CSV_NONE && h->field[TG_CSV_ID] == TG_CSV_NONE)
		return tg_trace_errf(err, in, l->no, t[h->field[TG_CSV_DEPS]].col,
				     "depends_on names rows by their id: the header needs an 'id' column");
	h->n_fields = n;
	return 0;
}

/* The depends_on field @t of the row on line @line (the last operation
 * of @out, of id @self_id or none): each id, of a row above. @listed has
 * an entry per operation: the operation + 1 of the last row that listed
 * it, so that an id listed twice is found in one look. */
static int tg_csv_deps(const struct tg_trace_in *in, const struct tg_trace_tok *t, uint32_t line,
		       const struct tg_trace_ids *ids, bool has_id, uint64_t self_id,
		       struct tg_trace *out, uint32_t *listed, char err[CFG_ERR_BYTES])
{
	uint32_t i = 0, self = out->n_ops;
	int rc;

	while (i < t->len) {
		struct tg_trace_tok d = { t->s + i, 0, t->col + i };
		uint32_t op;
		uint64_t id;

		while (i < t->len && t->s[i] != ';')
			i++;
		d.len = (uint32_t)(t->s + i - d.s);
		while (d.len && (d.s[0] == ' ' || d.s[0] == '\t')) {
			d.s++;
			d.len--;
			d.col++;
		}
		while (d.len && (d.s[d.len - 1] == ' ' || d.s[d.len - 1] == '\t'))
			d.len--;
		i++; /* past the ';' */
		if ((rc = tg_trace_u64(&d, UINT64_MAX, &id)) != 0)
			return tg_trace_errf(err, in, line, d.col,
					     "depends_on: expected ids (integers) separated by ';'");
		if (has_id && id == self_id)
			return tg_trace_errf(err, in, line, d.col,
					     "the row depends on its own id %llu (a cycle)",
					     (unsigned long long)id);
		if (!tg_trace_ids_get(ids, id, &op))
			return tg_trace_errf(err, in, line, d.col,
					     "depends on id %llu, which no row above defines (a row waits only for rows before it)",
					     (unsigned long long)id);
		if (listed[op] == self)
			return tg_trace_errf(err, in, line, d.col, "id %llu listed twice",
					     (unsigned long long)id);
		listed[op] = self;
		if ((rc = tg_trace_dep(out, op)) == -E2BIG)
			return tg_trace_errf(err, in, line, d.col,
					     "more than %d dependencies in all (TG_TRACE_MAX_DEPS)",
					     TG_TRACE_MAX_DEPS);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Field @f (of column @col) is not what @want says: "@col: @want, got
 * 'VALUE'" when the value is a plain word (tg_trace_word), else without
 * it. Returns -EINVAL. */
static int tg_csv_bad(const struct tg_trace_in *in, uint32_t line, const struct tg_trace_tok *f,
		      const char *col, const char *want, char err[CFG_ERR_BYTES])
{
	char wb[TG_TRACE_WORD_BYTES];
	const char *w = tg_trace_word(f, wb);

	if (w)
		return tg_trace_errf(err, in, line, f->col, "%s: %s, got '%s'", col, want, w);
	return tg_trace_errf(err, in, line, f->col, "%s: %s", col, want);
}

/* One row. */
static int tg_csv_row(const struct tg_trace_in *in, const struct tg_trace_line *l,
		      const struct tg_csv_head *h, struct tg_trace_ids *ids, struct tg_trace *out,
		      uint32_t **listed, uint32_t *cap_listed, char err[CFG_ERR_BYTES])
{
	struct tg_trace_tok t[TG_TRACE_MAX_FIELDS], *f;
	struct tg_trace_op op = { .kind = TG_TRACE_XFER, .op = in->op, .dscp = in->dscp,
				  .line = l->no };
	char buf[TG_TRACE_FIELD_BYTES], wb[TG_TRACE_WORD_BYTES];
	const char *w;
	uint32_t n = tg_trace_split(l, ',', t), line = l->no;
	uint64_t id = 0;
	bool has_id = false;
	const char *why;
	int rc;

	if (n != h->n_fields)
		return tg_trace_errf(err, in, line, n > h->n_fields ? t[h->n_fields].col : l->len + 1,
				     "%s fields than the header's %u", n > h->n_fields ? "more" : "fewer",
				     h->n_fields);
	f = &t[h->field[TG_CSV_START]];
	if (f->len >= TG_TRACE_FIELD_BYTES)
		return tg_trace_errf(err, in, line, f->col, "start: expected a time such as 12us (a field of %u bytes)",
				     f->len);
	if (units_parse_time(tg_trace_str(f, buf), &op.start_ps, &why) != 0)
		return tg_trace_errf(err, in, line, f->col, "start: expected a time such as 12us (%s)", why);
	if (tg_trace_host(in, &t[h->field[TG_CSV_SRC]], line, &op.src, err) != 0 ||
	    tg_trace_host(in, &t[h->field[TG_CSV_DST]], line, &op.dst, err) != 0)
		return -EINVAL;
	f = &t[h->field[TG_CSV_BYTES]];
	rc = tg_trace_u64(f, TG_WL_MAX_MSG_BYTES, &op.bytes);
	w = tg_trace_word(f, wb);
	if (rc == -ERANGE)
		return tg_trace_errf(err, in, line, f->col, "bytes: %s%smore than 2 GiB (2147483648)",
				     w ? w : "", w ? " is " : "");
	if (rc != 0)
		return tg_csv_bad(in, line, f, "bytes", "expected an integer", err);
	if (h->field[TG_CSV_OP] != TG_CSV_NONE && t[h->field[TG_CSV_OP]].len) {
		int k = 0;

		f = &t[h->field[TG_CSV_OP]];
		while (tg_csv_ops[k] && !tg_trace_is(f, tg_csv_ops[k]))
			k++;
		if (!tg_csv_ops[k])
			return tg_csv_bad(in, line, f, "op", "expected write, send or read", err);
		op.op = (uint8_t)k;
	}
	if (tg_trace_check_msg(in, &op, line, t[h->field[TG_CSV_DST]].col, err) != 0)
		return -EINVAL;
	if (h->field[TG_CSV_ID] != TG_CSV_NONE && t[h->field[TG_CSV_ID]].len) {
		uint32_t prev;

		f = &t[h->field[TG_CSV_ID]];
		if ((rc = tg_trace_u64(f, UINT64_MAX, &id)) != 0)
			return tg_csv_bad(in, line, f, "id", "expected an integer (of 64 bits)", err);
		if (tg_trace_ids_get(ids, id, &prev))
			return tg_trace_errf(err, in, line, f->col, "id %llu is already the id of line %u",
					     (unsigned long long)id, out->ops[prev].line);
		has_id = true;
	}
	if ((rc = tg_trace_push(out, &op)) != 0)
		return rc == -E2BIG ? tg_trace_errf(err, in, line, 1, "more than %d messages (TG_TRACE_MAX_OPS)",
						    TG_TRACE_MAX_OPS)
				    : rc;
	if (tg_trace_grow((void **)listed, cap_listed, out->n_ops - 1, sizeof(**listed)) != 0)
		return -ENOMEM;
	(*listed)[out->n_ops - 1] = 0;
	if (h->field[TG_CSV_DEPS] != TG_CSV_NONE &&
	    (rc = tg_csv_deps(in, &t[h->field[TG_CSV_DEPS]], line, ids, has_id, id, out, *listed,
			      err)) != 0)
		return rc;
	if (has_id && tg_trace_ids_put(ids, id, out->n_ops - 1) != 0)
		return -ENOMEM;
	return 0;
}

static int tg_trace_csv(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	const char *pos = in->text;
	struct tg_trace_line l;
	struct tg_csv_head h;
	struct tg_trace_ids ids = { 0 };
	uint32_t no = 0, header = 0, *listed = NULL, cap_listed = 0;
	int rc = 0;

	while (rc == 0 && tg_trace_next_line(&pos, &no, &l)) {
		if (tg_trace_blank(&l))
			continue;
		if (!header) {
			rc = tg_csv_header(in, &l, &h, err);
			header = l.no;
			continue;
		}
		rc = tg_csv_row(in, &l, &h, &ids, out, &listed, &cap_listed, err);
	}
	tg_trace_ids_free(&ids);
	free(listed);
	if (rc != 0)
		return rc;
	if (!header)
		return tg_trace_errf(err, in, no ? no : 1, 1, "empty trace: expected a header line %s, then rows",
				     tg_csv_form);
	if (out->n_ops == 0)
		return tg_trace_errf(err, in, header, 1, "no rows after the header: the trace has no messages");
	return 0;
}

const struct tg_trace_format tg_trace_csv_format = {
	.kind = { "csv", "fabemu's own: a header naming the columns, then a message a row", NULL, 0 },
	.read = tg_trace_csv,
	.takes = TG_TRACE_OP,
};
