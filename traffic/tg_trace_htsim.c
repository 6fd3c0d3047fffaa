/* Trace format `htsim-cm`: htsim's connection matrix (.cm; its
 * sim/datacenter/connection_matrix.cpp parser and the gen_*.py
 * generators). Header lines `Nodes N`, `Connections M`, optionally
 * `Triggers K` and `Failures F`; then connections `S->D id I start T size
 * B [prio P] [trigger T] [send_done_trigger T] [recv_done_trigger T]`
 * (start in picoseconds, as the current parser takes it) and triggers
 * `trigger id T oneshot|multishot|barrier [count C]`. Triggers become the
 * dependency graph: a trigger is a point that takes no time and waits for
 * the flows that signal it; a flow with `trigger T` waits for that point.
 * A oneshot must have one signalling flow and a barrier exactly `count`;
 * a multishot (htsim starts its k-th target at its k-th signal, an order
 * only the run knows) cannot be written as a fixed graph and is refused,
 * as are failure lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tg_trace_int.h"

enum tg_htsim_type {
	TG_HTSIM_ONESHOT,
	TG_HTSIM_MULTISHOT,
	TG_HTSIM_BARRIER,
};

static const char *const tg_htsim_types[] = { "oneshot", "multishot", "barrier", NULL };

/* The header lines, in the order htsim writes them. */
enum tg_htsim_head {
	TG_HTSIM_NODES,
	TG_HTSIM_CONNECTIONS,
	TG_HTSIM_TRIGGERS,
	TG_HTSIM_FAILURES,
	TG_HTSIM_N_HEADS,
};

static const char *const tg_htsim_heads[] = { "Nodes", "Connections", "Triggers", "Failures", NULL };

/* The keys of a connection line. */
enum tg_htsim_key {
	TG_HTSIM_ID,
	TG_HTSIM_START,
	TG_HTSIM_SIZE,
	TG_HTSIM_PRIO,
	TG_HTSIM_TRIGGER,
	TG_HTSIM_SEND_DONE,
	TG_HTSIM_RECV_DONE,
	TG_HTSIM_N_KEYS,
};

static const char *const tg_htsim_keys[] = {
	"id", "start", "size", "prio", "trigger", "send_done_trigger", "recv_done_trigger", NULL,
};

enum { TG_HTSIM_NO_TRIGGER = UINT32_MAX /* a flow waits for / signals no trigger */ };

/* A connection as read. */
struct tg_htsim_flow {
	struct tg_trace_op op;     /* the message (deps added at the end) */
	uint64_t trig[3];          /* trigger, send_done_trigger, recv_done_trigger ids; 0: none */
	uint32_t col[3];           /* their columns */
};

/* A trigger as read. */
struct tg_htsim_trig {
	uint64_t id;               /* its id, > 0 */
	uint8_t type;              /* enum tg_htsim_type */
	uint64_t count;            /* barrier: signals it needs */
	uint32_t line;             /* where it is declared */
	uint32_t n_signals;        /* flows that signal it */
	uint32_t n_targets;        /* flows that wait for it */
	uint32_t first_target;     /* the first of those (a flow index) */
	uint32_t sig_off;          /* its signalling flows: sigs[sig_off .. + n_signals) */
	uint32_t join;             /* its operation in the trace, or TG_HTSIM_NO_TRIGGER */
};

/* The whole file as read. */
struct tg_htsim {
	const struct tg_trace_in *in;   /* the reader's inputs */
	uint64_t head[TG_HTSIM_N_HEADS]; /* header values */
	uint32_t head_line[TG_HTSIM_N_HEADS]; /* their lines, 0: absent */
	struct tg_htsim_flow *flows;    /* connections, in file order */
	uint32_t n_flows;               /* their count */
	uint32_t cap_flows;             /* allocated */
	struct tg_htsim_trig *trigs;    /* triggers, in file order */
	uint32_t n_trigs;               /* their count */
	uint32_t cap_trigs;             /* allocated */
	struct tg_trace_ids trig_of;    /* trigger id -> index in trigs */
	struct tg_trace_ids flow_ids;   /* flow id -> flow index */
};

/* The value after key @key at @t[i] (an integer up to @max, or a
 * picosecond decimal when @ps). The value is quoted only when a plain word
 * (tg_trace_word). */
static int tg_htsim_value(const struct tg_htsim *h, const struct tg_trace_line *l,
			  const struct tg_trace_tok *t, uint32_t n, uint32_t i, const char *key,
			  uint64_t max, bool ps, uint64_t *v, char err[CFG_ERR_BYTES])
{
	char wb[TG_TRACE_WORD_BYTES];
	const char *w;
	int rc;

	if (i + 1 >= n)
		return tg_trace_errf(err, h->in, l->no, t[i].col + t[i].len, "'%s' needs a value", key);
	rc = ps ? tg_trace_decimal(&t[i + 1], 0, v) : tg_trace_u64(&t[i + 1], max, v);
	w = tg_trace_word(&t[i + 1], wb);
	if (rc == -ERANGE)
		return tg_trace_errf(err, h->in, l->no, t[i + 1].col, "%s: %s%sout of range (at most %llu)",
				     key, w ? w : "", w ? " is " : "", (unsigned long long)max);
	if (rc != 0)
		return tg_trace_errf(err, h->in, l->no, t[i + 1].col, "%s: expected %s%s%s%s", key,
				     ps ? "picoseconds (a decimal)" : "an integer", w ? ", got '" : "",
				     w ? w : "", w ? "'" : "");
	return 0;
}

/* "S->D" at @t into the flow's endpoints. */
static int tg_htsim_ends(const struct tg_htsim *h, const struct tg_trace_line *l,
			 const struct tg_trace_tok *t, struct tg_htsim_flow *f, char err[CFG_ERR_BYTES])
{
	const char *arrow = memchr(t->s, '-', t->len);
	struct tg_trace_tok a = *t, b;
	uint64_t s, d;

	a.len = arrow ? (uint32_t)(arrow - t->s) : t->len;
	b = (struct tg_trace_tok){ a.s + a.len + 2, t->len - a.len - 2, t->col + a.len + 2 };
	if (!arrow || a.len + 2 > t->len || arrow[1] != '>' || tg_trace_u64(&a, UINT64_MAX, &s) != 0 ||
	    tg_trace_u64(&b, UINT64_MAX, &d) != 0)
		return tg_trace_errf(err, h->in, l->no, t->col,
				     "expected a connection 'SRC->DST' of node indices first");
	if (s >= h->head[TG_HTSIM_NODES] || d >= h->head[TG_HTSIM_NODES])
		return tg_trace_errf(err, h->in, l->no, s >= h->head[TG_HTSIM_NODES] ? a.col : b.col,
				     "node %llu is not below 'Nodes %llu' (line %u)",
				     (unsigned long long)(s >= h->head[TG_HTSIM_NODES] ? s : d),
				     (unsigned long long)h->head[TG_HTSIM_NODES], h->head_line[TG_HTSIM_NODES]);
	if (tg_trace_index(h->in, s, l->no, a.col, &f->op.src, err) != 0 ||
	    tg_trace_index(h->in, d, l->no, b.col, &f->op.dst, err) != 0)
		return -EINVAL;
	return tg_trace_check_msg(h->in, &f->op, l->no, b.col, err);
}

/* A connection line. */
static int tg_htsim_conn(struct tg_htsim *h, const struct tg_trace_line *l,
			 const struct tg_trace_tok *t, uint32_t n, char err[CFG_ERR_BYTES])
{
	const struct tg_trace_in *in = h->in;
	struct tg_htsim_flow f = { .op = { .kind = TG_TRACE_XFER, .op = in->op, .dscp = in->dscp,
					   .line = l->no } };
	uint32_t seen[TG_HTSIM_N_KEYS] = { 0 }, prev;
	uint64_t v;
	char wb[TG_TRACE_WORD_BYTES];

	if (tg_htsim_ends(h, l, &t[0], &f, err) != 0)
		return -EINVAL;
	for (uint32_t i = 1; i < n; i += 2) {
		int k = 0;

		while (tg_htsim_keys[k] && !tg_trace_is(&t[i], tg_htsim_keys[k]))
			k++;
		if (!tg_htsim_keys[k]) {
			const char *w = tg_trace_word(&t[i], wb), *near = w ? cfg_nearest(w, tg_htsim_keys) : NULL;

			return tg_trace_errf(err, in, l->no, t[i].col, "%s%s%s%s%s%s (a connection takes id, start, size, prio, trigger, send_done_trigger, recv_done_trigger)",
					     w ? "unknown token '" : "an unknown token", w ? w : "", w ? "'" : "",
					     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		}
		if (seen[k])
			return tg_trace_errf(err, in, l->no, t[i].col, "'%s' given twice", tg_htsim_keys[k]);
		seen[k] = t[i].col;
		if (tg_htsim_value(h, l, t, n, i, tg_htsim_keys[k],
				   k == TG_HTSIM_SIZE ? TG_WL_MAX_MSG_BYTES : UINT64_MAX, k == TG_HTSIM_START,
				   &v, err) != 0)
			return -EINVAL;
		switch (k) {
		case TG_HTSIM_ID:
			if (v == 0)
				return tg_trace_errf(err, in, l->no, t[i + 1].col, "flow id 0 is not allowed (htsim's ids start at 1)");
			if (tg_trace_ids_get(&h->flow_ids, v, &prev))
				return tg_trace_errf(err, in, l->no, t[i + 1].col, "flow id %llu is already the id of line %u",
						     (unsigned long long)v, h->flows[prev].op.line);
			if (tg_trace_ids_put(&h->flow_ids, v, h->n_flows) != 0)
				return -ENOMEM;
			break;
		case TG_HTSIM_START:
			f.op.start_ps = v;
			break;
		case TG_HTSIM_SIZE:
			f.op.bytes = v;
			break;
		case TG_HTSIM_PRIO:
			break; /* htsim's queue priority: fabemu's class is the DSCP */
		default:
			if (v == 0)
				return tg_trace_errf(err, in, l->no, t[i + 1].col, "trigger id 0 is not allowed (htsim's ids start at 1)");
			f.trig[k - TG_HTSIM_TRIGGER] = v;
			f.col[k - TG_HTSIM_TRIGGER] = t[i + 1].col;
		}
	}
	if (!seen[TG_HTSIM_SIZE])
		return tg_trace_errf(err, in, l->no, l->len + 1, "the connection has no 'size' (bytes)");
	if (!seen[TG_HTSIM_START] == !seen[TG_HTSIM_TRIGGER])
		return tg_trace_errf(err, in, l->no, seen[TG_HTSIM_START] ? seen[TG_HTSIM_START] : l->len + 1,
				     "a connection has exactly one of 'start' (picoseconds) or 'trigger' (a trigger id)");
	if (seen[TG_HTSIM_RECV_DONE] && f.op.op != TG_OP_SEND)
		return tg_trace_errf(err, in, l->no, seen[TG_HTSIM_RECV_DONE],
				     "recv_done_trigger fires when the data has arrived, which fabemu sees only for SENDs: give the workload op: send");
	if (seen[TG_HTSIM_SEND_DONE] && f.op.op == TG_OP_SEND)
		return tg_trace_errf(err, in, l->no, seen[TG_HTSIM_SEND_DONE],
				     "send_done_trigger fires at the sender's completion, which fabemu waits for only for WRITEs and READs: give the workload op: write or read");
	if (tg_trace_grow((void **)&h->flows, &h->cap_flows, h->n_flows, sizeof(*h->flows)) != 0)
		return -ENOMEM;
	if (h->n_flows >= TG_TRACE_MAX_OPS)
		return tg_trace_errf(err, in, l->no, 1, "more than %d connections", TG_TRACE_MAX_OPS);
	h->flows[h->n_flows++] = f;
	return 0;
}

/* A trigger line. */
static int tg_htsim_trigger(struct tg_htsim *h, const struct tg_trace_line *l,
			    const struct tg_trace_tok *t, uint32_t n, char err[CFG_ERR_BYTES])
{
	const struct tg_trace_in *in = h->in;
	struct tg_htsim_trig g = { .line = l->no, .join = TG_HTSIM_NO_TRIGGER };
	uint32_t type_col = 0, prev;
	char wb[TG_TRACE_WORD_BYTES];

	for (uint32_t i = 1; i < n; i++) {
		int k = 0;

		while (tg_htsim_types[k] && !tg_trace_is(&t[i], tg_htsim_types[k]))
			k++;
		if (tg_htsim_types[k]) {
			if (type_col)
				return tg_trace_errf(err, in, l->no, t[i].col, "a trigger has one type (already %s)",
						     tg_htsim_types[g.type]);
			g.type = (uint8_t)k;
			type_col = t[i].col;
		} else if (tg_trace_is(&t[i], "id") || tg_trace_is(&t[i], "count")) {
			bool id = tg_trace_is(&t[i], "id");

			if (tg_htsim_value(h, l, t, n, i, id ? "id" : "count", UINT32_MAX, false,
					   id ? &g.id : &g.count, err) != 0)
				return -EINVAL;
			i++;
		} else {
			const char *w = tg_trace_word(&t[i], wb);

			return tg_trace_errf(err, in, l->no, t[i].col,
					     "%s%s%s (a trigger is 'trigger id T oneshot|multishot|barrier [count C]')",
					     w ? "unknown token '" : "an unknown token", w ? w : "", w ? "'" : "");
		}
	}
	if (g.id == 0)
		return tg_trace_errf(err, in, l->no, 1, "a trigger needs 'id T' (T from 1)");
	if (!type_col)
		return tg_trace_errf(err, in, l->no, l->len + 1, "a trigger needs a type: oneshot, multishot or barrier");
	if (g.type == TG_HTSIM_BARRIER && g.count == 0)
		return tg_trace_errf(err, in, l->no, type_col, "a barrier needs 'count C', C >= 1: the signals it waits for");
	if (tg_trace_ids_get(&h->trig_of, g.id, &prev))
		return tg_trace_errf(err, in, l->no, 1, "trigger %llu is already declared on line %u",
				     (unsigned long long)g.id, h->trigs[prev].line);
	if (tg_trace_grow((void **)&h->trigs, &h->cap_trigs, h->n_trigs, sizeof(*h->trigs)) != 0 ||
	    tg_trace_ids_put(&h->trig_of, g.id, h->n_trigs) != 0)
		return -ENOMEM;
	if (h->n_trigs >= TG_TRACE_MAX_OPS)
		return tg_trace_errf(err, in, l->no, 1, "more than %d triggers", TG_TRACE_MAX_OPS);
	h->trigs[h->n_trigs++] = g;
	return 0;
}

/* A header line (before the first connection or trigger). */
static int tg_htsim_header(struct tg_htsim *h, const struct tg_trace_line *l,
			   const struct tg_trace_tok *t, uint32_t n, int k, char err[CFG_ERR_BYTES])
{
	if (h->head_line[k])
		return tg_trace_errf(err, h->in, l->no, 1, "'%s' given twice (line %u)", tg_htsim_heads[k],
				     h->head_line[k]);
	if (n != 2)
		return tg_trace_errf(err, h->in, l->no, 1, "expected '%s N'", tg_htsim_heads[k]);
	if (tg_htsim_value(h, l, t, n, 0, tg_htsim_heads[k], TG_TRACE_MAX_OPS, false, &h->head[k],
			   err) != 0)
		return -EINVAL;
	h->head_line[k] = l->no;
	return 0;
}

/* Every line. */
static int tg_htsim_read(struct tg_htsim *h, char err[CFG_ERR_BYTES])
{
	const struct tg_trace_in *in = h->in;
	const char *pos = in->text;
	struct tg_trace_tok t[TG_TRACE_MAX_FIELDS];
	struct tg_trace_line l;
	uint32_t no = 0;
	bool body = false;
	char wb[TG_TRACE_WORD_BYTES];

	while (tg_trace_next_line(&pos, &no, &l)) {
		uint32_t n;
		int k = 0;

		if (tg_trace_blank(&l))
			continue;
		n = tg_trace_split(&l, 0, t);
		if (n > TG_TRACE_MAX_FIELDS)
			return tg_trace_errf(err, in, l.no, t[TG_TRACE_MAX_FIELDS - 1].col, "more than %d tokens on a line",
					     TG_TRACE_MAX_FIELDS);
		while (tg_htsim_heads[k] && !tg_trace_is(&t[0], tg_htsim_heads[k]))
			k++;
		if (tg_htsim_heads[k]) {
			if (body)
				return tg_trace_errf(err, in, l.no, 1, "'%s' after the first connection or trigger: header lines come first",
						     tg_htsim_heads[k]);
			if (tg_htsim_header(h, &l, t, n, k, err) != 0)
				return -EINVAL;
			continue;
		}
		if (!body) {
			for (k = TG_HTSIM_NODES; k <= TG_HTSIM_CONNECTIONS; k++)
				if (!h->head_line[k])
					return tg_trace_errf(err, in, l.no, 1, "no '%s N' line before the first connection",
							     tg_htsim_heads[k]);
			body = true;
		}
		if (memchr(t[0].s, '>', t[0].len)) {
			if (tg_htsim_conn(h, &l, t, n, err) != 0)
				return -EINVAL;
		} else if (tg_trace_is(&t[0], "trigger")) {
			if (tg_htsim_trigger(h, &l, t, n, err) != 0)
				return -EINVAL;
		} else if (tg_trace_is(&t[0], "failure")) {
			return tg_trace_errf(err, in, l.no, 1,
					     "failure lines (switch failures) are not replayed: remove them and the Failures count");
		} else {
			const char *w = tg_trace_word(&t[0], wb);

			return tg_trace_errf(err, in, l.no, 1,
					     "%s%s%s (expected SRC->DST ..., trigger ... or a header)",
					     w ? "unknown line '" : "an unknown line", w ? w : "", w ? "'" : "");
		}
	}
	if (!body && !h->head_line[TG_HTSIM_NODES] && !h->head_line[TG_HTSIM_CONNECTIONS])
		return tg_trace_errf(err, in, no ? no : 1, 1, "empty trace: expected 'Nodes N', 'Connections M', then connections");
	return 0;
}

/* The counts the header gives against what the file holds. */
static int tg_htsim_counts(const struct tg_htsim *h, char err[CFG_ERR_BYTES])
{
	const struct tg_trace_in *in = h->in;

	if (!h->head_line[TG_HTSIM_CONNECTIONS])
		return tg_trace_errf(err, in, 1, 1, "no 'Connections M' line");
	if (h->head[TG_HTSIM_CONNECTIONS] != h->n_flows)
		return tg_trace_errf(err, in, h->head_line[TG_HTSIM_CONNECTIONS], 1,
				     "'Connections %llu', but the file has %u connection lines",
				     (unsigned long long)h->head[TG_HTSIM_CONNECTIONS], h->n_flows);
	if (h->n_flows == 0)
		return tg_trace_errf(err, in, h->head_line[TG_HTSIM_CONNECTIONS], 1, "the trace has no connections");
	if (h->head[TG_HTSIM_TRIGGERS] != h->n_trigs)
		return tg_trace_errf(err, in, h->head_line[TG_HTSIM_TRIGGERS] ? h->head_line[TG_HTSIM_TRIGGERS]
									     : h->trigs[0].line, 1,
				     "'Triggers %llu', but the file has %u trigger lines",
				     (unsigned long long)h->head[TG_HTSIM_TRIGGERS], h->n_trigs);
	if (h->head[TG_HTSIM_FAILURES] != 0)
		return tg_trace_errf(err, in, h->head_line[TG_HTSIM_FAILURES], 1,
				     "'Failures %llu', but failure lines are not replayed (and the file has none)",
				     (unsigned long long)h->head[TG_HTSIM_FAILURES]);
	return 0;
}

/* Tie flows to triggers, check what each trigger can express, and list
 * every trigger's signalling flows into *@sigs. */
static int tg_htsim_link(struct tg_htsim *h, uint32_t **sigs, char err[CFG_ERR_BYTES])
{
	const struct tg_trace_in *in = h->in;
	uint32_t total = 0, *fill, join = h->n_flows;

	for (uint32_t i = 0; i < h->n_flows; i++) {
		struct tg_htsim_flow *f = &h->flows[i];

		for (int r = 0; r < 3; r++) {
			uint32_t g;

			if (!f->trig[r])
				continue;
			if (!tg_trace_ids_get(&h->trig_of, f->trig[r], &g))
				return tg_trace_errf(err, in, f->op.line, f->col[r],
						     "trigger %llu is not declared (no 'trigger id %llu ...' line)",
						     (unsigned long long)f->trig[r], (unsigned long long)f->trig[r]);
			if (r == 0 && !h->trigs[g].n_targets++)
				h->trigs[g].first_target = i;
			if (r > 0) {
				h->trigs[g].n_signals++;
				total++;
			}
		}
	}
	for (uint32_t g = 0; g < h->n_trigs; g++) {
		struct tg_htsim_trig *t = &h->trigs[g];
		uint32_t at = h->flows[t->first_target].op.line;

		t->sig_off = g ? h->trigs[g - 1].sig_off + h->trigs[g - 1].n_signals : 0;
		if (!t->n_targets)
			continue; /* nothing waits for it: it does nothing */
		if (t->type == TG_HTSIM_MULTISHOT)
			return tg_trace_errf(err, in, t->line, 1,
					     "multishot trigger %llu starts its k-th flow at its k-th signal, an order only the run knows: a dependency graph cannot express it (use a barrier, or a oneshot per flow)",
					     (unsigned long long)t->id);
		if (t->n_signals == 0)
			return tg_trace_errf(err, in, t->line, 1,
					     "no flow signals trigger %llu (send_done_trigger / recv_done_trigger): the flow on line %u would never start",
					     (unsigned long long)t->id, at);
		if (t->type == TG_HTSIM_ONESHOT && t->n_signals > 1)
			return tg_trace_errf(err, in, t->line, 1,
					     "oneshot trigger %llu is signalled by %u flows, but fires once, on the first (htsim refuses a second signal): use 'barrier count %u' to wait for all",
					     (unsigned long long)t->id, t->n_signals, t->n_signals);
		if (t->type == TG_HTSIM_BARRIER && t->count != t->n_signals)
			return tg_trace_errf(err, in, t->line, 1,
					     "barrier trigger %llu has count %llu but %u flow%s signal%s it: it %s",
					     (unsigned long long)t->id, (unsigned long long)t->count, t->n_signals,
					     t->n_signals == 1 ? "" : "s", t->n_signals == 1 ? "s" : "",
					     t->count > t->n_signals ? "would never fire"
								     : "would fire at a signal only the run can tell (give count the number of signalling flows)");
		t->join = join++;
	}
	if (!(*sigs = malloc(sizeof(**sigs) * (total ? total : 1))) ||
	    !(fill = calloc(h->n_trigs ? h->n_trigs : 1, sizeof(*fill)))) {
		free(*sigs);
		*sigs = NULL;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < h->n_flows; i++)
		for (int r = 1; r < 3; r++) {
			uint32_t g;

			if (h->flows[i].trig[r] && tg_trace_ids_get(&h->trig_of, h->flows[i].trig[r], &g))
				(*sigs)[h->trigs[g].sig_off + fill[g]++] = i;
		}
	free(fill);
	return 0;
}

/* The trace: every flow (waiting for its trigger's point), then the
 * point of every trigger that something waits for. */
static int tg_htsim_emit(const struct tg_htsim *h, const uint32_t *sigs, struct tg_trace *out)
{
	int rc = 0;

	for (uint32_t i = 0; i < h->n_flows && rc == 0; i++) {
		const struct tg_htsim_flow *f = &h->flows[i];
		uint32_t g;

		rc = tg_trace_push(out, &f->op);
		if (rc == 0 && f->trig[0] && tg_trace_ids_get(&h->trig_of, f->trig[0], &g))
			rc = tg_trace_dep(out, h->trigs[g].join);
	}
	for (uint32_t g = 0; g < h->n_trigs && rc == 0; g++) {
		const struct tg_htsim_trig *t = &h->trigs[g];
		struct tg_trace_op join = { .kind = TG_TRACE_JOIN, .line = t->line };

		if (t->join == TG_HTSIM_NO_TRIGGER)
			continue;
		rc = tg_trace_push(out, &join);
		for (uint32_t k = 0; k < t->n_signals && rc == 0; k++)
			rc = tg_trace_dep(out, sigs[t->sig_off + k]);
	}
	return rc;
}

static int tg_trace_htsim(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	struct tg_htsim h = { .in = in };
	uint32_t *sigs = NULL;
	int rc = tg_htsim_read(&h, err);

	if (rc == 0)
		rc = tg_htsim_counts(&h, err);
	if (rc == 0)
		rc = tg_htsim_link(&h, &sigs, err);
	if (rc == 0 && (rc = tg_htsim_emit(&h, sigs, out)) == -E2BIG)
		rc = tg_trace_errf(err, in, 1, 1, "more than %d connections and triggers (TG_TRACE_MAX_OPS), or %d dependencies (TG_TRACE_MAX_DEPS)",
				   TG_TRACE_MAX_OPS, TG_TRACE_MAX_DEPS);
	free(sigs);
	free(h.flows);
	free(h.trigs);
	tg_trace_ids_free(&h.trig_of);
	tg_trace_ids_free(&h.flow_ids);
	return rc;
}

const struct tg_trace_format tg_trace_htsim_format = {
	.kind = { "htsim-cm", "an htsim connection matrix (.cm), its triggers as dependencies", NULL, 0 },
	.read = tg_trace_htsim,
	.takes = TG_TRACE_OP,
	/* htsim gives every line of a matrix a source of its own: lines
	 * between one pair of hosts do not queue behind each other. */
	.qp_default = TG_QP_PER_MESSAGE,
};
