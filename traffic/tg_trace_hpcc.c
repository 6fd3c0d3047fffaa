/* Trace format `hpcc-flow`: the flow file of the HPCC ns-3 simulator
 * (alibaba-edu/High-Precision-Congestion-Control mix/flow.txt, read by its
 * scratch/third.cc). Line 1 is the number of flows; then one flow per
 * line, `src dst pg dport size start_s`: node indices (hosts first, as in
 * its topology file), the priority group, the destination port, the size
 * in bytes and the start in seconds, a decimal; flows sorted by start.
 * Some forks put a flow id first (7 columns). Here index i is hosts[i];
 * pg is ignored or, with `pg: dscp`, the message's DSCP; dport and the
 * flow id are ignored. */
#include <errno.h>

#include "tg_trace_int.h"

enum {
	TG_HPCC_COLS = 6,          /* src dst pg dport size start_s */
	TG_HPCC_COLS_ID = 7,       /* a flow id first */
	TG_HPCC_MAX_PORT = 65535,
	TG_HPCC_PS_DIGITS = 12,    /* seconds -> picoseconds */
};

/* One flow line; @id_col: 1 when a flow id comes first. */
static int tg_hpcc_flow(const struct tg_trace_in *in, const struct tg_trace_line *l,
			const struct tg_trace_tok *t, uint32_t id_col, uint64_t prev_start_ps,
			struct tg_trace_op *op, char err[CFG_ERR_BYTES])
{
	static const char *const what[TG_HPCC_COLS] = {
		"src (a node index)", "dst (a node index)", "pg (the priority group)",
		"dport (the destination port)", "size (bytes)", "start (seconds)",
	};
	static const uint64_t max[TG_HPCC_COLS - 1] = {
		UINT64_MAX, UINT64_MAX, UINT64_MAX, TG_HPCC_MAX_PORT, TG_WL_MAX_MSG_BYTES,
	};
	const struct tg_trace_tok *c = t + id_col;
	uint64_t v[TG_HPCC_COLS - 1], id;
	char wb[TG_TRACE_WORD_BYTES];
	const char *w;
	int rc;

	/* A field is quoted only when a plain word (tg_trace_word). */
	w = tg_trace_word(&t[0], wb);
	if (id_col && tg_trace_u64(&t[0], UINT64_MAX, &id) != 0)
		return tg_trace_errf(err, in, l->no, t[0].col, "flow id: expected an integer (of 64 bits)%s%s%s",
				     w ? ", got '" : "", w ? w : "", w ? "'" : "");
	for (int k = 0; k < TG_HPCC_COLS - 1; k++) {
		rc = tg_trace_u64(&c[k], max[k], &v[k]);
		w = tg_trace_word(&c[k], wb);
		if (rc == -ERANGE && k == 4)
			return tg_trace_errf(err, in, l->no, c[k].col, "size %s%smore than 2 GiB (2147483648)",
					     w ? w : "", w ? " is " : "is ");
		if (rc != 0)
			return tg_trace_errf(err, in, l->no, c[k].col, "%s: expected an integer%s%s%s%s%s",
					     what[k], k == 3 ? " 0..65535" : "", w ? ", got '" : "", w ? w : "",
					     w ? "'" : "",
					     id_col ? " (a line of 7 columns is 'flow_id src dst pg dport size start_s')" : "");
	}
	rc = tg_trace_decimal(&c[5], TG_HPCC_PS_DIGITS, &op->start_ps);
	if (rc != 0)
		return tg_trace_errf(err, in, l->no, c[5].col,
				     "%s: expected a plain decimal such as 2.000001%s", what[5],
				     rc == -ERANGE ? " (this one is beyond 64 bits of picoseconds)" : "");
	if (op->start_ps < prev_start_ps)
		return tg_trace_errf(err, in, l->no, c[5].col,
				     "flows must be sorted by start time (HPCC reads them in order): this one starts before the flow above");
	if (tg_trace_index(in, v[0], l->no, c[0].col, &op->src, err) != 0 ||
	    tg_trace_index(in, v[1], l->no, c[1].col, &op->dst, err) != 0)
		return -EINVAL;
	if (in->pg_dscp) {
		if (v[2] > TG_TRACE_MAX_DSCP)
			return tg_trace_errf(err, in, l->no, c[2].col,
					     "pg %llu is not a DSCP (0..63), and pg: dscp makes it one",
					     (unsigned long long)v[2]);
		op->dscp = (uint8_t)v[2];
	}
	op->bytes = v[4];
	return tg_trace_check_msg(in, op, l->no, c[1].col, err);
}

static int tg_trace_hpcc(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	const char *pos = in->text;
	struct tg_trace_tok t[TG_TRACE_MAX_FIELDS];
	struct tg_trace_line l;
	uint32_t no = 0, count_line = 0, cols = 0, first_flow = 0;
	uint64_t count = 0, prev_ps = 0;

	while (tg_trace_next_line(&pos, &no, &l)) {
		struct tg_trace_op op = { .kind = TG_TRACE_XFER, .op = in->op, .dscp = in->dscp,
					  .line = l.no };
		uint32_t n = tg_trace_split(&l, 0, t);
		int rc;

		if (n == 0)
			continue;
		if (!count_line) {
			if (n != 1 || tg_trace_u64(&t[0], TG_TRACE_MAX_OPS, &count) != 0)
				return tg_trace_errf(err, in, l.no, t[0].col,
						     "the first line of an HPCC flow file is the number of flows (one integer, at most %d: TG_TRACE_MAX_OPS)",
						     TG_TRACE_MAX_OPS);
			count_line = l.no;
			continue;
		}
		if (!cols) {
			if (n != TG_HPCC_COLS && n != TG_HPCC_COLS_ID)
				return tg_trace_errf(err, in, l.no, t[0].col,
						     "expected a flow 'src dst pg dport size start_s' (6 columns, or 7 with a flow id first), got %u columns",
						     n > TG_TRACE_MAX_FIELDS ? TG_TRACE_MAX_FIELDS : n);
			cols = n;
			first_flow = l.no;
		} else if (n != cols) {
			return tg_trace_errf(err, in, l.no, t[0].col,
					     "%u columns, where the first flow (line %u) has %u",
					     n > TG_TRACE_MAX_FIELDS ? TG_TRACE_MAX_FIELDS : n, first_flow, cols);
		}
		if (out->n_ops == count)
			return tg_trace_errf(err, in, l.no, t[0].col,
					     "more flows than line %u says (%llu)", count_line,
					     (unsigned long long)count);
		if (tg_hpcc_flow(in, &l, t, cols == TG_HPCC_COLS_ID, prev_ps, &op, err) != 0)
			return -EINVAL;
		prev_ps = op.start_ps;
		if ((rc = tg_trace_push(out, &op)) != 0)
			return rc;
	}
	if (!count_line)
		return tg_trace_errf(err, in, no ? no : 1, 1,
				     "empty trace: an HPCC flow file starts with the number of flows");
	if (out->n_ops != count)
		return tg_trace_errf(err, in, count_line, 1, "line %u says %llu flows, the file has %u",
				     count_line, (unsigned long long)count, out->n_ops);
	if (count == 0)
		return tg_trace_errf(err, in, count_line, 1, "the trace has no flows");
	return 0;
}

const struct tg_trace_format tg_trace_hpcc_format = {
	.kind = { "hpcc-flow", "the flow file of the HPCC ns-3 simulator (mix/flow.txt)", NULL, 0 },
	.read = tg_trace_hpcc,
	.takes = TG_TRACE_OP | TG_TRACE_PG,
};
