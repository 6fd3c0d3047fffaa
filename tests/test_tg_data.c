/* Traffic with data: a WRITE with immediate completes, in a dependency
 * graph, when its data has arrived (as a SEND does), a plain WRITE when
 * its sender's request completes; a data-carrying all-reduce is exact,
 * and the check at its end catches a step that was done wrong (the data
 * plan corrupted before the run) with exactly the wrong elements the
 * algorithm implies. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "exp.h"
#include "fabric.h"
#include "tg.h"
#include "test.h"

/* An experiment on 8 hosts of one 100 Gb/s leaf with 1 us links. */
static struct exp *ttd_load(const char *nic, const char *traffic)
{
	char text[2048], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	snprintf(text, sizeof(text),
		 "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 8,\n"
		 "           host_link: {rate: 100Gbps, delay: 1us}}\n"
		 "nic: %s\n"
		 "traffic: %s\n", nic, traffic);
	if (exp_load_string("x.yaml", text, NULL, 0, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return NULL;
	}
	return e;
}

static void ttd_run(struct fabric *f, const struct exp *e)
{
	char err[CFG_ERR_BYTES] = "";

	memset(f, 0, sizeof(*f));
	if (fabric_build(f, e, test_mempool(), false, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		CU_FAIL_FATAL("fabric_build");
	}
	fabric_run(f, false);
}

/* h0 -> h1 1 MiB with @op, then h1 -> h2 1 KiB, which the graph makes
 * wait for the first. The second is posted (its record's start) when the
 * first completes for the graph: with immediate, when its data arrived at
 * h1, which is the first's end at h0 less the ACK's way back (the ACK is
 * sent at once, AckReq, ahead of data: two 1 us links and two 66-byte
 * frames, 86 bytes with preamble and gap, 6880 ps each at 100 Gb/s);
 * without, at that end. */
static void ttd_chain(const char *op, int64_t want_gap_ps)
{
	char traffic[256];
	struct tg_node n0 = { .kind = TG_NODE_XFER, .msg = 0, .coll = TG_NO_COLL };
	struct tg_node n1 = { .kind = TG_NODE_XFER, .msg = 1, .coll = TG_NO_COLL };
	const struct tg_flow *fl;
	struct fabric f;
	struct exp *e;
	uint32_t id0, id1, n;

	snprintf(traffic, sizeof(traffic),
		 "[{kind: messages, messages: [{src: h0, dst: h1, size: 1MiB, op: %s},"
		 " {src: h1, dst: h2, size: 1KiB, op: send}]}]", op);
	e = ttd_load("{}", traffic);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(tg_graph_add(&e->graph, &n0, NULL, 0, &id0), 0);
	CU_ASSERT_EQUAL_FATAL(tg_graph_add(&e->graph, &n1, &id0, 1, &id1), 0);
	ttd_run(&f, e);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(tg_n_done(f.tg), 2);
	CU_ASSERT_EQUAL((int64_t)fl[0].end_ps - (int64_t)fl[1].msg.start_ps, want_gap_ps);
	fabric_free(&f);
	exp_free(e);
}

static void test_tg_data_write_imm_graph(void)
{
	ttd_chain("write-imm", 2 * 1000000 + 2 * 6880);
	ttd_chain("write", 0);
}

/* Ring all-reduce of S = 64 KiB on 8 hosts: 8 chunks of 8 KiB (2048
 * elements), one slice each. Untouched, every element of every rank is the
 * sum (8 x 16384 compared, none wrong). Then the first transfer of the plan
 * (step 0: rank 0 sends chunk 0 to rank 1, a reduce step) is made a copy
 * into the receive area that is never added: rank 1's chunk 0 misses rank
 * 0's contribution, and so does everything downstream of it, the reduced
 * chunk and its all-gather: every rank's chunk 0 is wrong, 8 x 2048
 * elements (rank 0's values are all at least 1), the rest right. */
static void test_tg_data_corrupt_step(void)
{
	static const char traffic[] =
		"[{kind: collective, name: ar, collective: all-reduce, size: 64KiB, data: true}]";
	uint64_t checked = 0, errors = 0;
	struct fabric f;
	struct exp *e;

	for (int broken = 0; broken < 2; broken++) {
		e = ttd_load("{payload: true}", traffic);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL_FATAL(e->graph.data.n_colls, 1);
		CU_ASSERT_EQUAL_FATAL(e->graph.data.xfers[0].act, TG_DATA_ADD);
		CU_ASSERT_EQUAL(e->graph.data.xfers[0].src_rank, 0);
		CU_ASSERT_EQUAL(e->graph.data.xfers[0].dst_rank, 1);
		CU_ASSERT_EQUAL(e->graph.data.xfers[0].apply_off, 0);
		if (broken)
			e->graph.data.xfers[0].act = TG_DATA_PLACE;
		ttd_run(&f, e);
		CU_ASSERT_EQUAL(tg_n_done(f.tg), e->n_msgs);
		CU_ASSERT_EQUAL_FATAL(tg_coll_data(f.tg, 0, &checked, &errors), 0);
		CU_ASSERT_EQUAL(checked, 8 * 16384);
		CU_ASSERT_EQUAL(errors, broken ? 8 * 2048 : 0);
		fabric_free(&f);
		exp_free(e);
	}
	/* Without data, an instance reports none. */
	e = ttd_load("{}", "[{kind: collective, collective: all-reduce, size: 64KiB}]");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	ttd_run(&f, e);
	CU_ASSERT_EQUAL(tg_coll_data(f.tg, 0, &checked, &errors), -ENOENT);
	fabric_free(&f);
	exp_free(e);
}

int test_tg_data_register(void)
{
	CU_pSuite s = CU_add_suite("traffic data", NULL, NULL);

	if (!s ||
	    !CU_add_test(s, "WRITE with immediate completes on arrival in a graph",
			 test_tg_data_write_imm_graph) ||
	    !CU_add_test(s, "a corrupted step is caught, element by element", test_tg_data_corrupt_step))
		return CU_get_error();
	return 0;
}
