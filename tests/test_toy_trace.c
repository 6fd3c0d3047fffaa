/* CUnit suite proving that a trace format is one file plus one registry
 * line: a toy format ("toy-lines": a message a line, `SRC DST BYTES
 * START_NS`) is registered here through tg_trace_format_register alone,
 * then replayed by a `kind: trace` workload loaded with exp_load_string,
 * and its messages checked against the file's lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp.h"
#include "fabric.h"
#include "tg.h"
#include "tg_trace_int.h"
#include "test.h"

enum {
	TT_FIELDS = 4,          /* SRC DST BYTES START_NS */
	TYT_PS_PER_NS = 1000,
	TYT_TEXT_BYTES = 1024,
};

/* ---- the toy format ---- */

/* One line into @op: hosts through the trace kind's own naming (names
 * or indices into hosts), BYTES and START_NS as integers. */
static int toy_lines_line(const struct tg_trace_in *in, const struct tg_trace_line *l,
			  struct tg_trace_op *op, char err[CFG_ERR_BYTES])
{
	struct tg_trace_tok t[TG_TRACE_MAX_FIELDS + 1];
	uint64_t ns;
	int rc;

	if (tg_trace_split(l, 0, t) != TT_FIELDS)
		return tg_trace_errf(err, in, l->no, 1, "expected SRC DST BYTES START_NS");
	if ((rc = tg_trace_host(in, &t[0], l->no, &op->src, err)) != 0 ||
	    (rc = tg_trace_host(in, &t[1], l->no, &op->dst, err)) != 0)
		return rc;
	if (tg_trace_u64(&t[2], UINT32_MAX, &op->bytes) != 0)
		return tg_trace_errf(err, in, l->no, t[2].col, "BYTES: expected an integer");
	if (tg_trace_u64(&t[3], UINT64_MAX / TYT_PS_PER_NS, &ns) != 0)
		return tg_trace_errf(err, in, l->no, t[3].col, "START_NS: expected an integer");
	op->start_ps = ns * TYT_PS_PER_NS;
	return tg_trace_check_msg(in, op, l->no, t[0].col, err);
}

static int toy_lines_read(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	const char *pos = in->text;
	struct tg_trace_line l;
	uint32_t no = 0;
	int rc = 0;

	while (rc == 0 && tg_trace_next_line(&pos, &no, &l)) {
		struct tg_trace_op op = { .kind = TG_TRACE_XFER, .op = in->op, .dscp = in->dscp,
					  .line = l.no };

		if (tg_trace_blank(&l))
			continue;
		if ((rc = toy_lines_line(in, &l, &op, err)) == 0)
			rc = tg_trace_push(out, &op);
	}
	if (rc == 0 && out->n_ops == 0)
		rc = tg_trace_errf(err, in, no ? no : 1, 1, "empty trace");
	return rc;
}

static const struct tg_trace_format toy_lines_format = {
	.kind = { "toy-lines", "a message a line: SRC DST BYTES START_NS", NULL, 0 },
	.read = toy_lines_read,
	.takes = TG_TRACE_OP,
};

/* Refused at registration: no reader. */
static const struct tg_trace_format toy_no_read_format = {
	.kind = { "toy-no-read", "a format that cannot read", NULL, 0 },
	.takes = TG_TRACE_OP,
};

/* ---- the test ---- */

#define TYT_TOPO "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}\n"

/* Load an experiment of TYT_TOPO with the one workload @wl. */
static int tyt_load(const char *wl, struct exp **e, char err[CFG_ERR_BYTES])
{
	char text[2 * TYT_TEXT_BYTES];

	snprintf(text, sizeof(text), TYT_TOPO "traffic:\n  - %s\n", wl);
	*e = NULL;
	err[0] = '\0';
	return exp_load_string("toy.yaml", text, NULL, 0, e, err);
}

/* @wl (a printf format taking the trace's path) refused with @want in
 * the message. */
static void tyt_bad(const char *wl, const char *path, const char *want)
{
	char w[TYT_TEXT_BYTES], err[CFG_ERR_BYTES];
	struct exp *e;

	snprintf(w, sizeof(w), wl, path);
	if (tyt_load(w, &e, err) == 0 || !strstr(err, want)) {
		fprintf(stderr, "\n  got:  %s\n  want: %s\n", err, want);
		CU_FAIL("not refused as it should be");
	}
	exp_free(e);
}

static void test_toy_trace_format(void)
{
	/* h2 -> h0, then index 1 (h1) -> index 3 (h3) of hosts: all */
	static const char lines[] = "# SRC DST BYTES START_NS\nh2 h0 4096 1500\n\n1 3 100000 2000\n";
	char path[] = "/tmp/fabemu-toy-trace-XXXXXX", wl[TYT_TEXT_BYTES], err[CFG_ERR_BYTES];
	int fd = mkstemp(path);
	struct exp *e = NULL;

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, lines, strlen(lines)), (ssize_t)strlen(lines));
	close(fd);

	/* unknown before registration */
	tyt_bad("{kind: trace, format: toy-lines, file: '%s'}", path, "unknown value 'toy-lines'");
	CU_ASSERT_EQUAL(tg_trace_format_register(&toy_no_read_format, err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "trace format 'toy-no-read': needs read");
	CU_ASSERT_EQUAL_FATAL(tg_trace_format_register(&toy_lines_format, err), 0);
	CU_ASSERT_EQUAL(tg_trace_format_register(&toy_lines_format, err), -EINVAL); /* taken */

	/* the file's two lines, as written; op and DSCP from the keys */
	snprintf(wl, sizeof(wl), "{kind: trace, format: toy-lines, file: '%s', op: send, dscp: 12}", path);
	if (tyt_load(wl, &e, err) != 0)
		fprintf(stderr, "\n  toy-lines: %s\n", err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 2);
	CU_ASSERT_EQUAL(e->msgs[0].src, 2);
	CU_ASSERT_EQUAL(e->msgs[0].dst, 0);
	CU_ASSERT_EQUAL(e->msgs[0].bytes, 4096);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, 1500 * TYT_PS_PER_NS);
	CU_ASSERT_EQUAL(e->msgs[1].src, 1);
	CU_ASSERT_EQUAL(e->msgs[1].dst, 3);
	CU_ASSERT_EQUAL(e->msgs[1].bytes, 100000);
	CU_ASSERT_EQUAL(e->msgs[1].start_ps, 2000 * TYT_PS_PER_NS);
	for (unsigned i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(e->msgs[i].op, TG_OP_SEND);
		CU_ASSERT_EQUAL(e->msgs[i].dscp, 12);
	}
	exp_free(e);

	/* the keys of other formats refused with the registry's lists, which
	 * now name the toy (it takes op) */
	tyt_bad("{kind: trace, format: toy-lines, file: '%s', map: {}}", path,
	       "'map' (address -> host) is for format: pcap, not toy-lines");
	tyt_bad("{kind: trace, format: pcap, file: '%s', op: send}", path,
	       "a capture gives every message's op: 'op' is for the csv, hpcc-flow, htsim-cm and toy-lines formats");
	/* its own errors at the trace's line */
	snprintf(wl, sizeof(wl), "h0 h0 10 0\n");
	fd = open(path, O_WRONLY | O_TRUNC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, wl, strlen(wl)), (ssize_t)strlen(wl));
	close(fd);
	tyt_bad("{kind: trace, format: toy-lines, file: '%s'}", path,
	       ":1:1: a message needs two different endpoints (source and destination are both h0)");
	/* misspelt */
	tyt_bad("{kind: trace, format: toy-line, file: '%s'}", path,
	       "unknown value 'toy-line' (did you mean 'toy-lines'?; valid: csv, hpcc-flow, htsim-cm, pcap, chakra, nccl-log, toy-lines)");
	unlink(path);
}

int test_toy_trace_register(void)
{
	static const struct test_case tests[] = {
		{ "a toy trace format: registered, replayed, refused misspelt", test_toy_trace_format },
	};

	return test_suite("toy trace format", tests);
}
