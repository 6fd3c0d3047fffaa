/* Trace suite: the `trace` workload kind, each format read from files
 * written here into a scratch folder. Every class of bad input is an error
 * FILE:LINE:COL at the trace's own line (the experiment's for keys and for
 * a capture as a whole); the messages read are checked against what the
 * files say, written out again here; dependencies are checked by running
 * them: a row (a triggered flow) starts exactly when what it waits for has
 * completed. The pcap cases start from the shared test vector roce.pcap
 * (scapy-built, tshark-checked: tests/data/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "cfg.h"
#include "exp.h"
#include "fabric.h"
#include "tg.h"
#include "test.h"

#define TT_TOPO "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}\n"

enum {
	TT_PATH_BYTES = 256,
	TT_TEXT_BYTES = 4096,
	TT_PS_PER_NS = 1000,
	TT_VEC_SEND_BYTES = 64,     /* roce.pcap frame 1: SEND Only, 64 B of payload */
	TT_VEC_WRITE_BYTES = 8192,  /* frame 2: WRITE First, RETH DMA length */
	TT_VEC_GAP_NS = 1234,       /* frame 2 is 1234 ns after frame 1 */
	TT_VEC_DSCP = 26,
	TT_VEC_OPCODE_OFF = 46,     /* frame 1's BTH opcode: Ethernet, 802.1Q, IPv4, UDP before it */
	TT_VEC_HDR_BYTES = 58,      /* frame 1 up to the end of its BTH */
	TT_PCAP_FILE_HDR = 24,      /* pcap global header, then 16-byte records */
	TT_PCAP_REC_HDR = 16,
};

static char tt_dir[TT_PATH_BYTES];  /* the suite's scratch folder */

static const char *tt_path(const char *name)
{
	static char buf[TT_PATH_BYTES * 2];

	snprintf(buf, sizeof(buf), "%s/%s", tt_dir, name);
	return buf;
}

static void tt_write(const char *name, const void *data, size_t n)
{
	FILE *f = fopen(tt_path(name), "wb");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* Load an experiment of TT_TOPO (or @topo) with the one workload @wl. */
static int tt_load(const char *topo, const char *wl, struct exp **e, char err[CFG_ERR_BYTES])
{
	char text[TT_TEXT_BYTES];

	snprintf(text, sizeof(text), "%straffic:\n  - %s\n", topo ? topo : TT_TOPO, wl);
	tt_write("exp.yaml", text, strlen(text));
	*e = NULL;
	return exp_load(tt_path("exp.yaml"), NULL, 0, false, 0, e, err);
}

/* Trace @text in @file, workload @wl: the load fails with @want in the
 * message (which names the file in the scratch folder). */
static void tt_bad(const char *file, const char *text, const char *wl, const char *want)
{
	char err[CFG_ERR_BYTES] = "";
	struct exp *e;

	if (file)
		tt_write(file, text, strlen(text));
	if (tt_load(NULL, wl, &e, err) == 0 || !strstr(err, want)) {
		fprintf(stderr, "\n  trace %s:\n%s  got:  %s\n  want: %s\n", file ? file : "-",
			text ? text : "", err, want);
		CU_FAIL("a bad trace not refused as it should be");
	}
	exp_free(e);
}

/* Trace @text in @file, workload @wl, loaded (the test fails otherwise). */
static struct exp *tt_good(const char *topo, const char *file, const char *text, const char *wl)
{
	char err[CFG_ERR_BYTES] = "";
	struct exp *e;

	if (file)
		tt_write(file, text, strlen(text));
	if (tt_load(topo, wl, &e, err) != 0)
		fprintf(stderr, "\n  unexpected: %s\n", err);
	return e;
}

#define TT_CSV "{kind: trace, file: t.csv}"

/* ---- csv ---- */

static void test_trace_csv_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "start,src,dst,bytes\n0us,h0,h9,10\n", "t.csv:2:8: unknown host 'h9'" },
		{ "start,src,dst,bytes\n0us,h0,4,10\n", "t.csv:2:8: node index 4 is beyond hosts (4 of them: 0..3)" },
		{ "start,src,dst,bytes,id,depends_on\n0us,h0,h1,10,1,2\n1us,h1,h2,10,2,\n",
		  "t.csv:2:16: depends on id 2, which no row above defines" },
		{ "start,src,dst,bytes,id,depends_on\n0us,h0,h1,10,1,1\n",
		  "t.csv:2:16: the row depends on its own id 1 (a cycle)" },
		{ "start,src,dst,bytes\n0us,h0,h1,1x0\n", "t.csv:2:11: bytes: expected an integer" },
		{ "start,src,dst,bytes\n0us,h0,h1,2147483649\n", "t.csv:2:11: bytes: 2147483649 is more than 2 GiB" },
		{ "start,src,dst,bytes\n5,h0,h1,10\n", "t.csv:2:1: start: expected a time such as 12us" },
		{ "start,src,dst,bytes,op\n0us,h0,h1,10,rdma\n", "t.csv:2:14: op: expected write, send or read, got 'rdma'" },
		{ "start,src,dst,bytes,id,depends_on\n0us,h0,h1,1,1,\n0us,h0,h1,1,2,1;1\n",
		  "t.csv:3:17: id 1 listed twice" },
		{ "start,src,dst,bytes\n0us,h0,h1,99999999999999999999999\n",
		  "t.csv:2:11: bytes: 99999999999999999999999 is more than 2 GiB" },
		{ "start,src,dst,bytes\n0us,h0,h1\n", "t.csv:2:10: fewer fields than the header's 4" },
		{ "start,src,dst,bytes\n0us,h2,2,10\n", "t.csv:2:8: a message needs two different endpoints" },
		{ "start,src,dst,byts\n", "t.csv:1:15: unknown column 'byts' (did you mean 'bytes'?)" },
		{ "start,src,dst\n", "t.csv:1:1: the header names no 'bytes' column" },
		{ "start,src,dst,bytes,depends_on\n", "t.csv:1:21: depends_on names rows by their id" },
		{ "start,src,dst,bytes,id\n0us,h0,h1,1,7\n0us,h0,h1,1,7\n", "t.csv:3:13: id 7 is already the id of line 2" },
		{ "# nothing\n\n", "t.csv:2:1: empty trace" },
		{ "", "t.csv:1:1: empty trace" },
		{ "start,src,dst,bytes\n", "t.csv:1:1: no rows after the header" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tt_bad("t.csv", cases[i].text, TT_CSV, cases[i].want);
	tt_write("bin.csv", "start\0", 6);
	tt_bad(NULL, NULL, "{kind: trace, file: bin.csv}", "is not a text file (a capture is format: pcap)");
	tt_bad(NULL, NULL, "{kind: trace, file: none.csv}", "exp.yaml:3:25: cannot open trace");
}

/* What the file says, read back: names and indices, units, ops and the
 * op key, blanks and comments; no depends_on, no graph. */
static void test_trace_csv_rows(void)
{
	static const char text[] = "# a comment\nsrc, dst ,bytes,start,op\n"
				   "h0,3,1000,1.5us,\n\n2,h1,0,0ns,read\n";
	struct exp *e = tt_good(NULL, "t.csv", text, "{kind: trace, file: t.csv, op: send, dscp: 9}");

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 2);
	CU_ASSERT_EQUAL(e->graph.n_ops, 0);
	CU_ASSERT_EQUAL(e->msgs[0].src, 0);
	CU_ASSERT_EQUAL(e->msgs[0].dst, 3);
	CU_ASSERT_EQUAL(e->msgs[0].bytes, 1000);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, 1500 * TT_PS_PER_NS);
	CU_ASSERT_EQUAL(e->msgs[0].op, TG_OP_SEND);
	CU_ASSERT_EQUAL(e->msgs[0].dscp, 9);
	CU_ASSERT_EQUAL(e->msgs[1].src, 2);
	CU_ASSERT_EQUAL(e->msgs[1].dst, 1);
	CU_ASSERT_EQUAL(e->msgs[1].op, TG_OP_READ);
	exp_free(e);
	/* hosts reorders the indices. */
	e = tt_good(NULL, "t.csv", "start,src,dst,bytes\n0us,0,1,8\n", "{kind: trace, file: t.csv, hosts: [h3, h1]}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->msgs[0].src, 3);
	CU_ASSERT_EQUAL(e->msgs[0].dst, 1);
	exp_free(e);
}

/* Run @e; its flows into *@fl (valid until fabric_free). */
static void tt_run(struct exp *e, struct fabric *f, const struct tg_flow **fl, uint32_t *n)
{
	char err[CFG_ERR_BYTES] = "";

	memset(f, 0, sizeof(*f));
	if (fabric_build(f, e, test_mempool(), false, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		CU_FAIL_FATAL("fabric_build");
	}
	fabric_run(f, false);
	*fl = tg_flows(f->tg, n);
}

static uint64_t tt_max_end(const struct tg_flow *fl, const uint32_t *which, uint32_t n)
{
	uint64_t m = 0;

	for (uint32_t i = 0; i < n; i++)
		m = fl[which[i]].end_ps > m ? fl[which[i]].end_ps : m;
	return m;
}

/* depends_on, run: a row waiting for WRITEs is posted at the last one's
 * completion exactly (the sender's, end_ps), one waiting for a SEND after
 * that SEND was posted and no later than its sender saw it complete (the
 * data arrives before the ACK returns); one whose start is later than
 * its dependencies' completion at its start. */
static void test_trace_csv_deps(void)
{
	static const char text[] =
		"start,src,dst,bytes,op,id,depends_on\n"
		"0us,h0,h2,300000,write,1,\n"
		"0us,h1,h3,100000,write,2,\n"
		"0us,h2,h1,20000,write,3,1;2\n"
		"0us,h3,h0,50000,send,4,\n"
		"0us,h0,h1,1000,write,5,4\n"
		"500us,h1,h0,1000,write,6,2\n";
	static const uint32_t writes[] = { 0, 1 };
	struct exp *e = tt_good(NULL, "t.csv", text, TT_CSV);
	const struct tg_flow *fl;
	struct fabric f;
	uint32_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->graph.n_ops, 6);
	tt_run(e, &f, &fl, &n);
	CU_ASSERT_EQUAL_FATAL(n, 6);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 6);
	CU_ASSERT_EQUAL(fl[2].msg.start_ps, tt_max_end(fl, writes, 2));
	CU_ASSERT(fl[4].msg.start_ps > fl[3].msg.start_ps && fl[4].msg.start_ps <= fl[3].end_ps);
	CU_ASSERT(fl[4].msg.start_ps < fl[3].end_ps); /* on arrival, not at the ACK */
	CU_ASSERT_EQUAL(fl[5].msg.start_ps, 500 * 1000 * TT_PS_PER_NS);
	fabric_free(&f);
	exp_free(e);
}

/* On a GPU fabric whose NICs have two planes a GPU message is two parts:
 * a row waiting for it starts when both have completed. */
static void test_trace_gpu_parts(void)
{
	static const char topo[] = "topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes: 2, "
				   "nodes_per_unit: 2, nic_ports: 2, planes: 2}\n";
	static const char text[] = "start,src,dst,bytes,id,depends_on\n"
				   "0us,node0/gpu0,2,1000000,1,\n0us,3,1,4000,2,1\n";
	struct exp *e = tt_good(topo, "t.csv", text, TT_CSV);
	static const uint32_t parts[] = { 0, 1 };
	const struct tg_flow *fl;
	struct fabric f;
	uint32_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 4);
	tt_run(e, &f, &fl, &n);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 4);
	CU_ASSERT_EQUAL(fl[0].msg.bytes + fl[1].msg.bytes, 1000000);
	CU_ASSERT_EQUAL(fl[2].msg.start_ps, tt_max_end(fl, parts, 2));
	CU_ASSERT_EQUAL(fl[3].msg.start_ps, tt_max_end(fl, parts, 2));
	fabric_free(&f);
	exp_free(e);
}

/* ---- hpcc-flow ---- */

#define TT_HPCC "{kind: trace, file: t.txt, format: hpcc-flow}"

/* The flows a small file lists: endpoints by index, sizes in bytes,
 * starts in seconds to the picosecond; 7 columns have an id first; pg:
 * dscp. */
static void test_trace_hpcc(void)
{
	static const char six[] = "3\n0 1 3 100 10000 2.0\n2 3 3 100 20000 2.000001\n"
				  "1 0 5 100 3000 2.0000015000009\n";
	static const char seven[] = "2\n17 3 2 1 100 0 0.000000000001\n18 2 3 7 100 5 0.5\n";
	static const uint32_t src[] = { 0, 2, 1 }, dst[] = { 1, 3, 0 };
	static const uint64_t bytes[] = { 10000, 20000, 3000 };
	static const uint64_t start_ps[] = { UINT64_C(2000000000000), UINT64_C(2000001000000),
					     UINT64_C(2000001500001) };
	struct exp *e = tt_good(NULL, "t.txt", six, TT_HPCC);

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 3);
	for (uint32_t i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(e->msgs[i].src, src[i]);
		CU_ASSERT_EQUAL(e->msgs[i].dst, dst[i]);
		CU_ASSERT_EQUAL(e->msgs[i].bytes, bytes[i]);
		CU_ASSERT_EQUAL(e->msgs[i].start_ps, start_ps[i]);
		CU_ASSERT_EQUAL(e->msgs[i].op, TG_OP_WRITE);
	}
	exp_free(e);
	e = tt_good(NULL, "t.txt", seven, "{kind: trace, file: t.txt, format: hpcc-flow, pg: dscp, op: send}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 2);
	CU_ASSERT_EQUAL(e->msgs[0].src, 3);
	CU_ASSERT_EQUAL(e->msgs[0].dst, 2);
	CU_ASSERT_EQUAL(e->msgs[0].dscp, 1);
	CU_ASSERT_EQUAL(e->msgs[0].bytes, 0);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, 1);
	CU_ASSERT_EQUAL(e->msgs[1].start_ps, UINT64_C(500000000000));
	CU_ASSERT_EQUAL(e->msgs[1].op, TG_OP_SEND);
	exp_free(e);
}

static void test_trace_hpcc_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "2\n0 1 3 100 10000 2.0\n", "t.txt:1:1: line 1 says 2 flows, the file has 1" },
		{ "1\n0 1 3 100 10 2\n0 1 3 100 10 2\n", "t.txt:3:1: more flows than line 1 says (1)" },
		{ "1\n0 1 3 100 1O 2\n", "t.txt:2:11: size (bytes): expected an integer" },
		{ "1\n0 1 3 100 1o 2\n", "t.txt:2:11: size (bytes): expected an integer, got '1o'" },
		{ "1\n0 1 3 100 10 2e-6\n", "t.txt:2:14: start (seconds): expected a plain decimal" },
		{ "2\n0 1 3 100 10 2\n0 1 3 100 10 1.5\n", "t.txt:3:14: flows must be sorted by start time" },
		{ "1\n0 4 3 100 10 2\n", "t.txt:2:3: node index 4 is beyond hosts" },
		{ "1\n0 1 3 100 10\n", "t.txt:2:1: expected a flow 'src dst pg dport size start_s'" },
		{ "2\n0 1 3 100 10 2\n9 0 1 3 100 10 2\n", "t.txt:3:1: 7 columns, where the first flow (line 2) has 6" },
		{ "1\n0 1 3 70000 10 2\n", "t.txt:2:7: dport (the destination port): expected an integer 0..65535" },
		{ "flows\n", "t.txt:1:1: the first line of an HPCC flow file is the number of flows" },
		{ "\n\n", "t.txt:2:1: empty trace" },
		{ "0\n", "t.txt:1:1: the trace has no flows" },
		{ "1\n2 2 3 100 10 2\n", "t.txt:2:3: a message needs two different endpoints" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tt_bad("t.txt", cases[i].text, TT_HPCC, cases[i].want);
	tt_bad("t.txt", "1\n0 1 64 100 10 2\n", "{kind: trace, file: t.txt, format: hpcc-flow, pg: dscp}",
	       "t.txt:2:5: pg 64 is not a DSCP");
}

/* ---- htsim-cm ---- */

#define TT_CM "{kind: trace, file: t.cm, format: htsim-cm}"
#define TT_CM_HEAD "Nodes 4\nConnections 2\nTriggers 1\n"

static void test_trace_htsim_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ TT_CM_HEAD "0->1 id 1 start 0 size 10 send_done_trigger 1\n1->2 id 2 trigger 1 size 10\n"
		  "trigger id 1 multishot\n", "t.cm:6:1: multishot trigger 1" },
		{ TT_CM_HEAD "0->1 id 1 start 0 size 10 send_done_trigger 1\n1->2 id 2 trigger 1 size 10\n"
		  "trigger id 1 barrier count 2\n", "t.cm:6:1: barrier trigger 1 has count 2 but 1 flow signals it" },
		{ TT_CM_HEAD "0->1 id 1 start 0 size 10 send_done_trigger 1\n1->2 id 2 trigger 1 size 10 send_done_trigger 1\n"
		  "trigger id 1 barrier count 2\n", "t.cm:6:1: a dependency cycle" },
		{ "Nodes 4\nConnections 2\nTriggers 2\n0->1 id 1 trigger 2 size 10 send_done_trigger 1\n"
		  "1->2 id 2 trigger 1 size 10 send_done_trigger 2\ntrigger id 1 oneshot\ntrigger id 2 oneshot\n",
		  ": a dependency cycle: this line waits" },
		{ "Nodes 4\nConnections 3\nTriggers 1\n0->1 id 1 start 0 size 10 send_done_trigger 1\n"
		  "2->3 id 2 start 0 size 10 send_done_trigger 1\n1->2 id 3 trigger 1 size 10\ntrigger id 1 oneshot\n",
		  "t.cm:7:1: oneshot trigger 1 is signalled by 2 flows" },
		{ TT_CM_HEAD "0->1 id 1 start 0 size 10\n1->2 id 2 trigger 1 size 10\ntrigger id 1 oneshot\n",
		  "t.cm:6:1: no flow signals trigger 1" },
		{ "Nodes 4\nConnections 1\n0->1 id 1 trigger 5 size 10\n", "t.cm:3:19: trigger 5 is not declared" },
		{ "Nodes 4\nConnections 2\n0->1 id 1 start 0 size 10\n", "t.cm:2:1: 'Connections 2', but the file has 1" },
		{ "Nodes 4\nConnections 1\nTriggers 1\n0->1 id 1 start 0 size 10\n", "t.cm:3:1: 'Triggers 1', but the file has 0" },
		{ "Nodes 4\nConnections 1\nFailures 1\n0->1 id 1 start 0 size 10\nfailure switch_type TOR switch_id 0\n",
		  "t.cm:5:1: failure lines (switch failures) are not replayed" },
		{ "Nodes 4\nConnections 1\n0->1 id 1 start 0 size 10 recv_done_trigger 1\n",
		  "t.cm:3:27: recv_done_trigger fires when the data has arrived" },
		{ "Nodes 4\nConnections 1\n0->7 id 1 start 0 size 10\n", "t.cm:3:4: node 7 is not below 'Nodes 4'" },
		{ "Nodes 8\nConnections 1\n0->7 id 1 start 0 size 10\n", "t.cm:3:4: node index 7 is beyond hosts" },
		{ "Nodes 4\nConnections 1\n0->1 id 1 strt 0 size 10\n", "t.cm:3:11: unknown token 'strt' (did you mean 'start'?)" },
		{ "Nodes 4\nConnections 1\n0->1 id 1 start x size 10\n", "t.cm:3:17: start: expected picoseconds" },
		{ "Nodes 4\nConnections 1\n0->1 id 1 start 0 trigger 2 size 10\ntrigger id 2 oneshot\n",
		  "t.cm:3:11: a connection has exactly one of 'start'" },
		{ "Nodes 4\nConnections 2\n0->1 id 1 start 0 size 10\n1->2 id 1 start 0 size 10\n",
		  "t.cm:4:9: flow id 1 is already the id of line 3" },
		{ "Nodes 4\nConnections 1\n0->1 id 1 start 0\n", "t.cm:3:18: the connection has no 'size'" },
		{ "Connections 1\n0->1 id 1 start 0 size 1\n", "t.cm:2:1: no 'Nodes N' line" },
		{ "Nodes 4\nConnections 1\n0-1 id 1 start 0 size 1\n", "t.cm:3:1: an unknown line (expected SRC->DST" },
		{ "Nodes 4\nConnections 1\nnodes 4\n", "t.cm:3:1: unknown line 'nodes' (expected SRC->DST" },
		{ "# only a comment\n", "t.cm:1:1: empty trace" },
		{ TT_CM_HEAD "0->1 id 1 start 0 size 10 send_done_trigger 1\n1->2 id 2 trigger 1 size 10\n"
		  "trigger id 1 barrier\n", "t.cm:6:14: a barrier needs 'count C'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tt_bad("t.cm", cases[i].text, TT_CM, cases[i].want);
	tt_bad("t.cm", "Nodes 4\nConnections 1\n0->1 id 1 start 0 size 10 send_done_trigger 1\ntrigger id 1 oneshot\n",
	       "{kind: trace, file: t.cm, format: htsim-cm, op: send}",
	       "t.cm:3:27: send_done_trigger fires at the sender's completion");
}

/* htsim's trigger semantics (sim/trigger.cpp), run: a oneshot's target
 * starts when its one signalling flow completes, a barrier's when the
 * last of its `count` flows has; starts in picoseconds. */
static void test_trace_htsim_triggers(void)
{
	static const char text[] =
		"# two flows, a chain, a barrier\n"
		"Nodes 4\nConnections 5\nTriggers 2\n"
		"0->1 id 1 start 0 size 200000 send_done_trigger 2\n"
		"2->3 id 2 start 3000000 size 50000 prio 1 send_done_trigger 2\n"
		"3->1 id 3 start 1500 size 100000 send_done_trigger 1\n"
		"1->2 id 4 trigger 2 size 20000\n"
		"1->0 id 5 trigger 1 size 4000\n"
		"trigger id 1 oneshot\n"
		"trigger id 2 barrier count 2\n";
	struct exp *e = tt_good(NULL, "t.cm", text, TT_CM);
	static const uint32_t barrier[] = { 0, 1 };
	const struct tg_flow *fl;
	struct fabric f;
	uint32_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 5);
	CU_ASSERT_EQUAL(e->msgs[1].start_ps, 3000000);
	CU_ASSERT_EQUAL(e->msgs[2].start_ps, 1500);
	tt_run(e, &f, &fl, &n);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 5);
	CU_ASSERT_EQUAL(fl[3].msg.start_ps, tt_max_end(fl, barrier, 2));
	CU_ASSERT_EQUAL(fl[4].msg.start_ps, fl[2].end_ps);
	fabric_free(&f);
	exp_free(e);
}

/* ---- pcap ---- */

#define TT_PCAP "{kind: trace, file: t.pcap, format: pcap}"

/* What to do with frame @i (from 0) of roce.pcap, on a copy @d of its
 * @h->caplen bytes: how many times to write it (0, 1, 2). */
typedef int (*tt_edit_fn)(uint32_t i, struct pcap_pkthdr *h, uint8_t *d);

/* roce.pcap through @edit into t.pcap (nanosecond pcap, link type @dlt). */
static void tt_pcap_copy(tt_edit_fn edit, int dlt)
{
	char perr[PCAP_ERRBUF_SIZE];
	pcap_t *in = pcap_open_offline_with_tstamp_precision(test_data_path("roce.pcap"),
							     PCAP_TSTAMP_PRECISION_NANO, perr);
	pcap_t *dead = pcap_open_dead_with_tstamp_precision(dlt, 65535, PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *out = dead ? pcap_dump_open(dead, tt_path("t.pcap")) : NULL;
	struct pcap_pkthdr *h;
	const u_char *data;

	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	for (uint32_t i = 0; pcap_next_ex(in, &h, &data) == 1; i++) {
		struct pcap_pkthdr hh = *h;
		uint8_t d[65536];
		int times;

		memcpy(d, data, h->caplen);
		times = edit ? edit(i, &hh, d) : 1;
		while (times-- > 0)
			pcap_dump((u_char *)out, &hh, d);
	}
	pcap_dump_close(out);
	pcap_close(dead);
	pcap_close(in);
}

/* The two messages of roce.pcap (its README: frame 1 a SEND Only of 64 B,
 * frame 2 a WRITE First whose RETH says 8192 B, both 10.0.0.1 -> 10.0.0.2,
 * DSCP 26), the second 1234 ns after the first (@gap_ps otherwise). */
static void tt_check_vector(const struct exp *e, uint64_t gap_ps)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 2);
	CU_ASSERT_EQUAL(e->msgs[0].op, TG_OP_SEND);
	CU_ASSERT_EQUAL(e->msgs[0].bytes, TT_VEC_SEND_BYTES);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, 0);
	CU_ASSERT_EQUAL(e->msgs[0].dscp, TT_VEC_DSCP);
	CU_ASSERT_EQUAL(e->msgs[1].op, TG_OP_WRITE);
	CU_ASSERT_EQUAL(e->msgs[1].bytes, TT_VEC_WRITE_BYTES);
	CU_ASSERT_EQUAL(e->msgs[1].start_ps, gap_ps);
	for (uint32_t i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(e->msgs[i].src, 0);
		CU_ASSERT_EQUAL(e->msgs[i].dst, 1);
	}
}

/* Frames cut to their headers (caplen < len) still count in full. */
static int tt_edit_cut(uint32_t i, struct pcap_pkthdr *h, uint8_t *d)
{
	(void)i;
	(void)d;
	if (h->caplen > TT_VEC_HDR_BYTES + 16)
		h->caplen = TT_VEC_HDR_BYTES + 16;
	return 1;
}

/* The SEND sent twice (the second a retransmission: the same PSN). */
static int tt_edit_retx(uint32_t i, struct pcap_pkthdr *h, uint8_t *d)
{
	(void)h;
	(void)d;
	return i == 0 ? 2 : 1;
}

/* The SEND Only made a SEND First: its last packet is not in the file. */
static int tt_edit_first(uint32_t i, struct pcap_pkthdr *h, uint8_t *d)
{
	(void)h;
	if (i == 0)
		d[TT_VEC_OPCODE_OFF] = 0x00; /* SEND First (IBTA Vol 1 9.2) */
	return 1;
}

/* Only the PFC frame (the last). */
static int tt_edit_pfc(uint32_t i, struct pcap_pkthdr *h, uint8_t *d)
{
	(void)h;
	(void)d;
	return i == 6;
}

/* roce.pcap in the microsecond format, written byte by byte: the magic
 * 0xA1B2C3D4 and every fraction of a second in microseconds. */
static void tt_pcap_micro(void)
{
	FILE *f = fopen(test_data_path("roce.pcap"), "rb");
	uint8_t buf[TT_TEXT_BYTES];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	static const uint8_t magic_us_le[4] = { 0xd4, 0xc3, 0xb2, 0xa1 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(buf[0], 0x4d); /* nanosecond magic, little-endian */
	memcpy(buf, magic_us_le, 4);
	for (size_t off = TT_PCAP_FILE_HDR; off + TT_PCAP_REC_HDR <= n;) {
		uint32_t frac, incl;

		memcpy(&frac, buf + off + 4, 4);
		memcpy(&incl, buf + off + 8, 4);
		frac /= 1000;
		memcpy(buf + off + 4, &frac, 4);
		off += TT_PCAP_REC_HDR + incl;
	}
	tt_write("t.pcap", buf, n);
}

static void test_trace_pcap(void)
{
	struct exp *e;

	tt_pcap_copy(NULL, DLT_EN10MB);
	e = tt_good(NULL, NULL, NULL, TT_PCAP);
	tt_check_vector(e, TT_VEC_GAP_NS * TT_PS_PER_NS);
	exp_free(e);
	tt_pcap_copy(tt_edit_cut, DLT_EN10MB);
	e = tt_good(NULL, NULL, NULL, TT_PCAP);
	tt_check_vector(e, TT_VEC_GAP_NS * TT_PS_PER_NS);
	exp_free(e);
	tt_pcap_copy(tt_edit_retx, DLT_EN10MB);
	e = tt_good(NULL, NULL, NULL, TT_PCAP);
	tt_check_vector(e, TT_VEC_GAP_NS * TT_PS_PER_NS);
	exp_free(e);
	/* 1234 ns is 1 us in the microsecond format. */
	tt_pcap_micro();
	e = tt_good(NULL, NULL, NULL, TT_PCAP);
	tt_check_vector(e, 1000 * TT_PS_PER_NS);
	exp_free(e);
	/* Addresses onto hosts in order of appearance, or by map. */
	tt_pcap_copy(NULL, DLT_EN10MB);
	e = tt_good(NULL, NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, hosts: [h3, h2]}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->msgs[0].src, 3);
	CU_ASSERT_EQUAL(e->msgs[0].dst, 2);
	exp_free(e);
	e = tt_good(NULL, NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, dscp: 3, map: {10.0.0.2: h0, 10.0.0.1: h2}}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->msgs[1].src, 2);
	CU_ASSERT_EQUAL(e->msgs[1].dst, 0);
	CU_ASSERT_EQUAL(e->msgs[1].dscp, 3);
	exp_free(e);
	/* partial: skip leaves the cut SEND out. */
	tt_pcap_copy(tt_edit_first, DLT_EN10MB);
	e = tt_good(NULL, NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, partial: skip}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 1);
	CU_ASSERT_EQUAL(e->msgs[0].bytes, TT_VEC_WRITE_BYTES);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, TT_VEC_GAP_NS * TT_PS_PER_NS);
	exp_free(e);
}

static void test_trace_pcap_errors(void)
{
	tt_pcap_copy(tt_edit_first, DLT_EN10MB);
	tt_bad(NULL, NULL, TT_PCAP, "exp.yaml:3:25: trace '");
	tt_bad(NULL, NULL, TT_PCAP, "t.pcap': frame 1: the SEND starting here has no last packet");
	tt_pcap_copy(tt_edit_pfc, DLT_EN10MB);
	tt_bad(NULL, NULL, TT_PCAP, "not RoCEv2: none of its frames is a RoCEv2 frame");
	tt_pcap_copy(NULL, DLT_USER0);
	tt_bad(NULL, NULL, TT_PCAP, "link type 147");
	tt_pcap_copy(NULL, DLT_EN10MB);
	tt_bad(NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, hosts: [h1]}",
	       "frame 1: address 10.0.0.2 is the capture's address number 2, but hosts has 1");
	tt_bad(NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, map: {10.0.0.1: h0}}",
	       "frame 1: address 10.0.0.2 is not in map");
	tt_bad(NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, map: {10.0.0.300: h0}}",
	       "exp.yaml:3:53: '10.0.0.300' is not an IPv4 address");
	tt_bad(NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, map: {10.0.0.1: h0, 10.0.0.2: h0}}",
	       "source and destination are both h0");
	tt_bad("t.pcap", "not a capture\n", TT_PCAP, "not a capture libpcap can read");
	tt_write("aeth.pcap", "", 0);
	tt_bad(NULL, NULL, "{kind: trace, file: aeth.pcap, format: pcap}", "not a capture libpcap can read");
}

/* ---- what a message may quote ---- */

/* A file that is no trace at all (a password file, a key) is refused by
 * every text reader at its first line, without a byte of it in the
 * message: against each reader's error, the secret must be absent; a
 * field is quoted only when a plain word of at most 32 bytes of
 * [a-z0-9_] (tg_trace_word), else named by its position. */
static void test_trace_no_echo(void)
{
	static const char secret[] = "root:x:0:0:Hunter2secret:/root:/bin/bash\n";
	static const struct {
		const char *file, *wl, *want, *text;
	} cases[] = {
		{ "t.csv", TT_CSV, "t.csv:1:1: an unknown column (field 1 of the header", NULL },
		{ "t.txt", "{kind: trace, file: t.txt, format: hpcc-flow}",
		  "t.txt:1:1: the first line of an HPCC flow file is the number of flows", NULL },
		{ "t.cm", "{kind: trace, file: t.cm, format: htsim-cm}", "t.cm:1:1: no 'Nodes N' line before the first connection\n", NULL },
		{ "t.csv", TT_CSV, "t.csv:2:8: expected a host: a name",
		  "start,src,dst,bytes\n0us,h0,Hunter2secret=1,10\n" },
		{ "t.csv", TT_CSV, "t.csv:1:15: an unknown column (field 4 of the header",
		  "start,src,dst,hunter2secret_hunter2secret_hunter2secret\n" },
		{ "t.csv", TT_CSV, "t.csv:2:1: start: expected a time such as 12us",
		  "start,src,dst,bytes\nHunter2secret,h0,h1,10\n" },
		{ "t.csv", TT_CSV, "t.csv:2:11: bytes: expected an integer\n",
		  "start,src,dst,bytes\n0us,h0,h1,99999999999999999999999Hunter2secret\n" },
		{ "t.csv", TT_CSV, "t.csv:2:14: op: expected write, send or read\n",
		  "start,src,dst,bytes,op\n0us,h0,h1,10,Hunter2secret\n" },
		{ "t.txt", "{kind: trace, file: t.txt, format: hpcc-flow}",
		  "t.txt:2:14: start (seconds): expected a plain decimal such as 2.000001\n",
		  "1\n0 1 3 100 10 Hunter2secret\n" },
		{ "t.cm", "{kind: trace, file: t.cm, format: htsim-cm}",
		  "t.cm:3:11: an unknown token (a connection takes",
		  "Nodes 4\nConnections 1\n0->1 id 1 Hunter2secret 0 size 10\n" },
		{ "t.cm", "{kind: trace, file: t.cm, format: htsim-cm}", "t.cm:3:17: start: expected picoseconds (a decimal)\n",
		  "Nodes 4\nConnections 1\n0->1 id 1 start Hunter2secret size 10\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *text = cases[i].text ? cases[i].text : secret;
		char err[CFG_ERR_BYTES + 1] = "";
		struct exp *e;

		tt_write(cases[i].file, text, strlen(text));
		CU_ASSERT_NOT_EQUAL(tt_load(NULL, cases[i].wl, &e, err), 0);
		/* A want ending in "\n" ends the message: nothing quoted after. */
		strcat(err, "\n");
		if (!strstr(err, cases[i].want) || strstr(err, "unter2") || strstr(err, "root:")) {
			fprintf(stderr, "\n  got:  %s  want: %s (and no text of the file)\n", err,
				cases[i].want);
			CU_FAIL("a trace's text echoed, or not refused as it should be");
		}
		exp_free(e);
	}
}

/* A file over its bound is refused from its size, before it is read: a
 * sparse file of one byte more than the bound (which reads as zeros, and
 * would be refused as binary or as no capture if it were read). */
static void test_trace_size_bound(void)
{
	static const struct {
		const char *file, *wl, *want;
		off_t bytes;
	} cases[] = {
		{ "t.csv", TT_CSV, "t.csv' is 1073741825 bytes, more than the 1 GiB a text trace may be",
		  ((off_t)1 << 30) + 1 },
		{ "t.pcap", "{kind: trace, file: t.pcap, format: pcap}",
		  "t.pcap' is 68719476737 bytes, more than the 64 GiB a pcap trace may be", ((off_t)64 << 30) + 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tt_write(cases[i].file, "", 0);
		CU_ASSERT_EQUAL_FATAL(truncate(tt_path(cases[i].file), cases[i].bytes), 0);
		tt_bad(NULL, NULL, cases[i].wl, cases[i].want);
		tt_write(cases[i].file, "", 0); /* no sparse giant left behind */
	}
}

/* ---- keys ---- */

static void test_trace_keys(void)
{
	static const char csv[] = "start,src,dst,bytes\n0us,h0,h1,1\n";

	tt_write("t.csv", csv, strlen(csv));
	tt_bad(NULL, NULL, "{kind: trace}", "exp.yaml:3:5: missing key 'file'");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, format: tsv}", "exp.yaml:3:40: unknown value 'tsv'");
	/* the format lists below come from the registry of formats, in its
	 * order; the texts are the ones the hand-kept checks wrote */
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, format: hpcc-flw}",
	       "exp.yaml:3:40: unknown value 'hpcc-flw' (did you mean 'hpcc-flow'?; valid: csv, hpcc-flow, htsim-cm, pcap, chakra, nccl-log)");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, pg: dscp}", "exp.yaml:3:36: 'pg' is for format: hpcc-flow, not csv");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, format: pcap, pg: dscp}",
	       "'pg' is for format: hpcc-flow, not pcap");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, map: {}}", "'map' (address -> host) is for format: pcap, not csv");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, format: htsim-cm, partial: skip}",
	       "'partial' is for format: pcap, not htsim-cm");
	tt_bad(NULL, NULL, "{kind: trace, file: t.pcap, format: pcap, op: send}",
	       "exp.yaml:3:51: a capture gives every message's op: 'op' is for the csv, hpcc-flow and htsim-cm formats");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, op: rdma}", "unknown value 'rdma'");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, dscp: 64}", "exp.yaml:3:38: 64 is above the maximum 63");
	tt_bad(NULL, NULL, "{kind: trace, file: t.csv, hosts: [h0, h0]}", "host 'h0' listed twice");
}

static int tt_suite_init(void)
{
	snprintf(tt_dir, sizeof(tt_dir), "/tmp/fabemu-trace-XXXXXX");
	return mkdtemp(tt_dir) ? 0 : -1;
}

static int tt_suite_clean(void)
{
	static const char *const names[] = { "exp.yaml", "t.csv", "bin.csv", "t.txt", "t.cm",
					     "t.pcap", "aeth.pcap" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(tt_path(names[i]));
	return rmdir(tt_dir);
}

int test_trace_register(void)
{
	static const struct test_case tests[] = {
		{ "csv: every bad row refused at its line", test_trace_csv_errors },
		{ "csv: rows as written", test_trace_csv_rows },
		{ "csv: depends_on waits for completion", test_trace_csv_deps },
		{ "csv: a split GPU message completes with its parts", test_trace_gpu_parts },
		{ "hpcc-flow: the flows listed", test_trace_hpcc },
		{ "hpcc-flow: bad lines refused", test_trace_hpcc_errors },
		{ "htsim-cm: bad lines refused", test_trace_htsim_errors },
		{ "htsim-cm: oneshot and barrier triggers", test_trace_htsim_triggers },
		{ "pcap: messages of the test vector", test_trace_pcap },
		{ "pcap: bad captures refused", test_trace_pcap_errors },
		{ "keys of the trace kind", test_trace_keys },
		{ "no text of a foreign file in a message", test_trace_no_echo },
		{ "a file over its size bound refused unread", test_trace_size_bound },
	};

	return test_suite_n("trace", tt_suite_init, tt_suite_clean, tests,
			    sizeof(tests) / sizeof(tests[0]));
}
