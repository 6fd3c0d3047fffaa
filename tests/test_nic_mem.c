/* NIC: RDMA WRITE with immediate and memory. WRITE with immediate on the
 * wire (opcodes, ImmDt at docs/wire-formats.md's byte offsets, 4 bytes
 * more per last packet in the frame and its serialisation) and at the
 * responder (IBV_WC_RECV_RDMA_WITH_IMM with imm_data and the message
 * length), in order and held out of order; memory regions (nic_reg_mr):
 * keys, checks on post, payload taken from the SGE and placed at the
 * RETH's address (WRITE, WRITE with immediate, under loss) or at the SGE
 * (READ); a WRITE or READ outside a region is NAKed with the remote access
 * error and both QPs go to the error state (Linux rxe_resp.c and
 * rxe_comp.c behave so). Reference: the IBTA rules as rdma-core's verbs
 * man pages (ibv_reg_mr, ibv_post_send, ibv_poll_cq) state them. */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "nic.h"
#include "nic_pair.h"
#include "pkt.h"
#include "test.h"

enum {
	TNM_KIB = 1024,
	TNM_BUF_BYTES = 64 * 1024,    /* each side's buffer */
	TNM_MSG_BYTES = 10000,        /* 10 packets at MTU 1024, the last short */
	TNM_DST_OFF = 100,            /* where in B's buffer the WRITE lands */
};

static const uint64_t TNM_G100 = UINT64_C(100000000000), TNM_US = 1000000;

static uint32_t tnm_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Frame bytes, FCS included, by docs/wire-formats.md's sum: Ethernet 14,
 * IPv4 20, UDP 8, BTH 12, then @ext_bytes of extension headers, the
 * payload and its pad, ICRC 4, FCS 4. */
static uint32_t tnm_frame(uint32_t ext_bytes, uint32_t payload)
{
	return 14 + 20 + 8 + 12 + ext_bytes + payload + (-payload & 3) + 4 + 4;
}

/* 3000 B and 100 B WRITEs with immediate at MTU 1024: on the wire WRITE
 * First, Middle, Last with Immediate (ImmDt at bytes 54..57), then Only
 * with Immediate (RETH at 54, ImmDt at 70); the responder completes each
 * as a receive with its immediate and length, the requester as a WRITE. */
static void test_nic_write_imm(void)
{
	struct pair_opts o = { .wire = true };
	struct pair p;
	const struct wire_dir *w;

	pair_setup_opts(&p, TNM_G100, TNM_US, 1024, &o);
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE_WITH_IMM, 0, 3000, 0, 0x1000, 7, 0xA1B2C3D4, 1), 0);
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE_WITH_IMM, 0, 100, 0, 0x2000, 7, 7, 2), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 2);
	for (uint32_t i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(p.la.wc[i].status, IBV_WC_SUCCESS);
		CU_ASSERT_EQUAL(p.la.wc[i].opcode, IBV_WC_RDMA_WRITE);
		CU_ASSERT_EQUAL(p.la.wc[i].wr_id, i + 1);
		CU_ASSERT_EQUAL(p.la.wc[i].wc_flags & IBV_WC_WITH_IMM, 0);
	}
	CU_ASSERT_EQUAL_FATAL(p.lb.n, 2);
	CU_ASSERT_EQUAL(p.lb.wc[0].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	CU_ASSERT_EQUAL(p.lb.wc[0].status, IBV_WC_SUCCESS);
	CU_ASSERT(p.lb.wc[0].wc_flags & IBV_WC_WITH_IMM);
	CU_ASSERT_EQUAL(p.lb.wc[0].imm_data, htobe32(0xA1B2C3D4));
	CU_ASSERT_EQUAL(p.lb.wc[0].byte_len, 3000);
	CU_ASSERT_EQUAL(p.lb.wc[0].wr_id, 1); /* the responder's MSN */
	CU_ASSERT_EQUAL(p.lb.wc[1].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	CU_ASSERT_EQUAL(p.lb.wc[1].imm_data, htobe32(7));
	CU_ASSERT_EQUAL(p.lb.wc[1].byte_len, 100);
	/* The data arrives before the requester learns it did. */
	CU_ASSERT(p.lb.t_ps[0] < p.la.t_ps[0]);
	w = &p.w.dir[0];
	CU_ASSERT_EQUAL_FATAL(w->n_data, 4);
	CU_ASSERT_EQUAL(w->data_hdrs[0][42], PKT_OP_WRITE_FIRST);
	CU_ASSERT_EQUAL(w->data_hdrs[1][42], PKT_OP_WRITE_MIDDLE);
	CU_ASSERT_EQUAL(w->data_hdrs[2][42], 0x09);
	CU_ASSERT_EQUAL(w->data_hdrs[3][42], 0x0B);
	CU_ASSERT_EQUAL(tnm_get32(&w->data_hdrs[2][54]), 0xA1B2C3D4);
	CU_ASSERT_EQUAL(tnm_get32(&w->data_hdrs[3][54 + 12]), 100); /* RETH DMA length */
	CU_ASSERT_EQUAL(tnm_get32(&w->data_hdrs[3][70]), 7);
	CU_ASSERT_EQUAL(w->data_frame_bytes[0], tnm_frame(16, 1024));
	CU_ASSERT_EQUAL(w->data_frame_bytes[2], tnm_frame(4, 3000 - 2048));
	CU_ASSERT_EQUAL(w->data_frame_bytes[3], tnm_frame(16 + 4, 100));
	CU_ASSERT_EQUAL(nic_stats(p.b)->rx_payload_bytes, 3100);
	pair_free(&p);
}

/* The completion time of one 100-byte @op over the wire's two 100 Gb/s
 * links. */
static uint64_t tnm_one_write_ps(enum ibv_wr_opcode op)
{
	struct pair_opts o = { .wire = true };
	struct pair p;
	uint64_t t;

	pair_setup_opts(&p, TNM_G100, TNM_US, 1024, &o);
	CU_ASSERT_EQUAL(post_mem(p.qa, op, 0, 100, 0, 0x1000, 7, 1, 1), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 1);
	t = p.la.t_ps[0];
	pair_free(&p);
	return t;
}

/* ImmDt's 4 bytes are serialised: on each of the two store-and-forward
 * links the frame takes 32 bits / 100 Gb/s = 320 ps more. */
static void test_nic_write_imm_serialisation(void)
{
	CU_ASSERT_EQUAL(tnm_one_write_ps(IBV_WR_RDMA_WRITE_WITH_IMM) -
				tnm_one_write_ps(IBV_WR_RDMA_WRITE),
			2 * 320);
}

/* The Middle of a 3-packet WRITE with immediate is lost once: go-back-N
 * resends from it; selective repeat holds the Last with Immediate out of
 * order (its ImmDt kept) and completes the receive once the hole fills.
 * Both report the immediate and the length. */
static void tnm_imm_loss(enum nic_recovery mode)
{
	struct pair_opts o = { .wire = true, .recovery = mode, .rto_ps = 50 * TNM_US };
	struct pair p;

	pair_setup_opts(&p, TNM_G100, TNM_US, 1024, &o);
	p.w.dir[0].drop_psns[0] = 1;
	p.w.dir[0].n_drop_psns = 1;
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE_WITH_IMM, 0, 3000, 0, 0x1000, 7, 0x55AA, 1), 0);
	sim_run(&p.sim);
	CU_ASSERT_EQUAL_FATAL(p.la.n, 1);
	CU_ASSERT_EQUAL(p.la.wc[0].status, IBV_WC_SUCCESS);
	CU_ASSERT_EQUAL_FATAL(p.lb.n, 1);
	CU_ASSERT_EQUAL(p.lb.wc[0].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	CU_ASSERT_EQUAL(p.lb.wc[0].imm_data, htobe32(0x55AA));
	CU_ASSERT_EQUAL(p.lb.wc[0].byte_len, 3000);
	CU_ASSERT_EQUAL(nic_stats(p.b)->rx_ooo_accepted, mode == NIC_RECOVERY_SR ? 1 : 0);
	pair_free(&p);
}

static void test_nic_write_imm_loss(void)
{
	tnm_imm_loss(NIC_RECOVERY_GBN);
	tnm_imm_loss(NIC_RECOVERY_SR);
}

/* ibv_reg_mr's rules: a range and known flags, remote write only with
 * local write; keys are never 0 and never reused, and a deregistered
 * region's key is refused by the QPs that check keys. */
static void test_nic_reg_mr(void)
{
	struct pair_opts o = { .access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE };
	static uint8_t buf[256];
	struct ibv_mr *a, *b, *c;
	uint32_t a_key;
	struct pair p;

	pair_setup_opts(&p, TNM_G100, TNM_US, 1024, &o);
	errno = 0;
	CU_ASSERT_PTR_NULL(nic_reg_mr(p.a, buf, 256, IBV_ACCESS_REMOTE_WRITE));
	CU_ASSERT_EQUAL(errno, EINVAL);
	CU_ASSERT_PTR_NULL(nic_reg_mr(p.a, NULL, 256, 0));
	CU_ASSERT_PTR_NULL(nic_reg_mr(p.a, buf, 0, 0));
	CU_ASSERT_PTR_NULL(nic_reg_mr(p.a, buf, 256, IBV_ACCESS_REMOTE_ATOMIC));
	a = nic_reg_mr(p.a, buf, 128, 0);
	b = nic_reg_mr(p.a, buf + 128, 128, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT(a->lkey != 0 && a->lkey != b->lkey && a->rkey == a->lkey);
	CU_ASSERT(a->addr == buf && a->length == 128);
	/* In the region, or one byte past its end. */
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)buf, 128, a->lkey, 0, 0, 0, 1), 0);
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)buf + 1, 128, a->lkey, 0, 0, 0, 2),
			-EINVAL);
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)buf + 128, 8, a->lkey, 0, 0, 0, 3),
			-EINVAL);
	/* A READ writes its SGE: the region needs local write. */
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_READ, (uintptr_t)buf, 8, a->lkey, 0, 0, 0, 4), -EINVAL);
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_READ, (uintptr_t)buf + 128, 8, b->lkey, 0, 0, 0, 5), 0);
	a_key = a->lkey;
	CU_ASSERT_EQUAL(nic_dereg_mr(p.a, a), 0);
	{
		struct ibv_mr copy = *b; /* b's fields, not b */

		CU_ASSERT_EQUAL(nic_dereg_mr(p.a, &copy), -EINVAL);
	}
	CU_ASSERT_EQUAL(post_mem(p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)buf, 8, a_key, 0, 0, 0, 6), -EINVAL);
	c = nic_reg_mr(p.a, buf, 128, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(c->lkey != b->lkey && c->lkey != a_key); /* a key is not reused */
	CU_ASSERT_EQUAL(nic_dereg_mr(p.b, c), -EINVAL); /* not B's */
	/* Only one SGE on a QP that models memory. */
	{
		struct ibv_sge sg[2] = { { (uintptr_t)buf, 8, c->lkey }, { (uintptr_t)buf + 8, 8, c->lkey } };
		struct ibv_send_wr wr = { .opcode = IBV_WR_RDMA_WRITE, .sg_list = sg, .num_sge = 2 }, *bad;

		CU_ASSERT_EQUAL(nic_post_send(p.qa, &wr, &bad), -EINVAL);
		CU_ASSERT_PTR_EQUAL(bad, &wr);
	}
	sim_run(&p.sim);
	pair_free(&p);
}

/* A QP that models memory needs go-back-N; unknown access flags are
 * refused. */
static void test_nic_mem_connect(void)
{
	struct ibv_qp_init_attr ia = { .qp_type = IBV_QPT_RC, .cap = { .max_send_wr = 4 } };
	struct pair_opts o = { .recovery = NIC_RECOVERY_SR };
	struct ibv_qp_attr qa = { 0 };
	struct nic_qp *q;
	struct pair p;

	pair_setup_opts(&p, TNM_G100, TNM_US, 1024, &o);
	q = nic_create_qp(p.a, &ia);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	qa.path_mtu = IBV_MTU_1024;
	qa.ah_attr.port_num = 1;
	qa.dest_qp_num = nic_qp_num(p.qb);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, nic_port_ip(p.b, 0));
	qa.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	CU_ASSERT_EQUAL(nic_qp_connect(q, &qa, 0), -EINVAL);
	qa.qp_access_flags = IBV_ACCESS_MW_BIND;
	CU_ASSERT_EQUAL(nic_qp_connect(q, &qa, 0), -EINVAL);
	qa.qp_access_flags = 0;
	CU_ASSERT_EQUAL(nic_qp_connect(q, &qa, 0), 0);
	pair_free(&p);
}

/* Memory on both sides, payload materialised. */
struct tnm_mem {
	struct pair p;
	uint8_t *abuf, *bbuf;         /* TNM_BUF_BYTES each */
	struct ibv_mr *amr, *bmr;
};

static void tnm_mem_setup(struct tnm_mem *t, unsigned qp_access, unsigned b_access,
			  uint32_t drop_every)
{
	struct pair_opts o = { .wire = true, .payload = true, .access = qp_access, .rto_ps = 50 * TNM_US };

	pair_setup_opts(&t->p, TNM_G100, TNM_US, 1024, &o);
	t->p.w.dir[0].drop_every = drop_every;
	t->p.w.dir[1].drop_every = drop_every;
	t->abuf = malloc(TNM_BUF_BYTES);
	t->bbuf = calloc(1, TNM_BUF_BYTES);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->abuf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->bbuf);
	for (uint32_t i = 0; i < TNM_BUF_BYTES; i++)
		t->abuf[i] = (uint8_t)(i * 131 + (i >> 8) * 7 + 3);
	t->amr = nic_reg_mr(t->p.a, t->abuf, TNM_BUF_BYTES, IBV_ACCESS_LOCAL_WRITE);
	t->bmr = nic_reg_mr(t->p.b, t->bbuf, TNM_BUF_BYTES, b_access);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->amr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->bmr);
}

static void tnm_mem_free(struct tnm_mem *t)
{
	pair_free(&t->p);
	free(t->abuf);
	free(t->bbuf);
}

static bool tnm_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* A 10000-byte WRITE, then a WRITE with immediate, from A's buffer to B's
 * at TNM_DST_OFF and 32 KiB: the bytes land there and nowhere else; then
 * A READs 5000 bytes of B back into its own buffer at 40 KiB. With
 * @drop_every, every Nth packet is lost both ways (go-back-N recovers):
 * the same bytes. */
static void tnm_placement(uint32_t drop_every)
{
	const unsigned all = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct tnm_mem t;
	uint64_t b0;

	tnm_mem_setup(&t, all, all, drop_every);
	b0 = (uintptr_t)t.bbuf;
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)t.abuf, TNM_MSG_BYTES, t.amr->lkey,
				 b0 + TNM_DST_OFF, t.bmr->rkey, 0, 1), 0);
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE_WITH_IMM, (uintptr_t)t.abuf + 7, 3000,
				 t.amr->lkey, b0 + 32 * TNM_KIB, t.bmr->rkey, 9, 2), 0);
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_READ, (uintptr_t)t.abuf + 40 * TNM_KIB, 5000,
				 t.amr->lkey, b0 + TNM_DST_OFF + 1, t.bmr->rkey, 0, 3), 0);
	sim_run(&t.p.sim);
	CU_ASSERT_EQUAL_FATAL(t.p.la.n, 3);
	for (uint32_t i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(t.p.la.wc[i].status, IBV_WC_SUCCESS);
	CU_ASSERT(tnm_zero(t.bbuf, TNM_DST_OFF));
	CU_ASSERT(memcmp(t.bbuf + TNM_DST_OFF, t.abuf, TNM_MSG_BYTES) == 0);
	CU_ASSERT(tnm_zero(t.bbuf + TNM_DST_OFF + TNM_MSG_BYTES, 32 * TNM_KIB - TNM_DST_OFF - TNM_MSG_BYTES));
	CU_ASSERT(memcmp(t.bbuf + 32 * TNM_KIB, t.abuf + 7, 3000) == 0);
	CU_ASSERT(tnm_zero(t.bbuf + 32 * TNM_KIB + 3000, TNM_BUF_BYTES - 32 * TNM_KIB - 3000));
	/* B's buffer at TNM_DST_OFF + 1 holds A's from byte 1. */
	CU_ASSERT(memcmp(t.abuf + 40 * TNM_KIB, t.abuf + 1, 5000) == 0);
	CU_ASSERT_EQUAL(nic_stats(t.p.b)->placed_bytes, TNM_MSG_BYTES + 3000);
	CU_ASSERT_EQUAL(nic_stats(t.p.a)->placed_bytes, 5000);
	CU_ASSERT_EQUAL(nic_stats(t.p.b)->rx_icrc_errors, 0);
	CU_ASSERT_EQUAL(nic_stats(t.p.b)->access_errors, 0);
	if (drop_every)
		CU_ASSERT(nic_stats(t.p.a)->retx_pkts > 0);
	CU_ASSERT_EQUAL_FATAL(t.p.lb.n, 1);
	CU_ASSERT_EQUAL(t.p.lb.wc[0].imm_data, htobe32(9));
	tnm_mem_free(&t);
}

static void test_nic_mem_placement(void)
{
	tnm_placement(0);
	tnm_placement(5);
}

/* What the responder refuses, one case a pair: the QP's access flags, the
 * region's, its key and its range. */
enum tnm_bad {
	TNM_BAD_PAST_END,      /* WRITE one byte past B's region */
	TNM_BAD_RKEY,          /* WRITE naming no region of B */
	TNM_BAD_MR_ACCESS,     /* WRITE to a region registered for local write only */
	TNM_BAD_QP_ACCESS,     /* WRITE to a QP connected without remote write */
	TNM_BAD_READ,          /* READ from a region without remote read */
	TNM_BAD_N,
};

/* Expectation: the responder NAKs the WRITE's (READ's) first PSN, 0, with
 * syndrome 0x62 (remote access error), counts an access error, places
 * nothing and goes to the error state; the requester completes the request
 * with IBV_WC_REM_ACCESS_ERR, flushes the one posted behind it
 * (IBV_WC_WR_FLUSH_ERR) and goes to the error state too. */
static void tnm_refused(enum tnm_bad c)
{
	const unsigned rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	unsigned qp_access = c == TNM_BAD_QP_ACCESS ? IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ
						    : rw | IBV_ACCESS_REMOTE_READ;
	unsigned mr_access = c == TNM_BAD_MR_ACCESS ? IBV_ACCESS_LOCAL_WRITE : rw;
	struct tnm_mem t;
	uint64_t b0;
	uint32_t rkey;

	tnm_mem_setup(&t, qp_access, mr_access, 0);
	b0 = (uintptr_t)t.bbuf;
	rkey = c == TNM_BAD_RKEY ? t.bmr->rkey + 1 : t.bmr->rkey;
	if (c == TNM_BAD_READ) {
		CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_READ, (uintptr_t)t.abuf, 100, t.amr->lkey, b0,
					 rkey, 0, 1), 0);
	} else {
		CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)t.abuf, 2000, t.amr->lkey,
					 c == TNM_BAD_PAST_END ? b0 + TNM_BUF_BYTES - 1999 : b0, rkey, 0, 1),
				0);
	}
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)t.abuf, 10, t.amr->lkey, b0,
				 t.bmr->rkey, 0, 2), 0);
	sim_run(&t.p.sim);
	CU_ASSERT_EQUAL(t.p.w.dir[1].n_err_naks, 1);
	CU_ASSERT_EQUAL(t.p.w.dir[1].err_syndrome, PKT_AETH_NAK_REM_ACCESS);
	CU_ASSERT_EQUAL(t.p.w.dir[1].err_psn, 0);
	CU_ASSERT_EQUAL(nic_stats(t.p.b)->access_errors, 1);
	CU_ASSERT_EQUAL(nic_stats(t.p.b)->placed_bytes, 0);
	CU_ASSERT(tnm_zero(t.bbuf, TNM_BUF_BYTES));
	CU_ASSERT_EQUAL(nic_qp_stats(t.p.qb)->state, NIC_QP_ERROR);
	CU_ASSERT_EQUAL(nic_qp_stats(t.p.qa)->state, NIC_QP_ERROR);
	CU_ASSERT_EQUAL_FATAL(t.p.la.n, 2);
	CU_ASSERT_EQUAL(t.p.la.wc[0].status, IBV_WC_REM_ACCESS_ERR);
	CU_ASSERT_EQUAL(t.p.la.wc[0].wr_id, 1);
	CU_ASSERT_EQUAL(t.p.la.wc[1].status, IBV_WC_WR_FLUSH_ERR);
	CU_ASSERT_EQUAL(t.p.lb.n, 0);
	/* A QP in error takes no more posts. */
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)t.abuf, 10, t.amr->lkey, b0,
				 t.bmr->rkey, 0, 3), -EINVAL);
	tnm_mem_free(&t);
}

static void test_nic_mem_refused(void)
{
	for (int c = 0; c < TNM_BAD_N; c++)
		tnm_refused((enum tnm_bad)c);
}

/* A zero-length WRITE needs no key (IBTA: no memory is touched); a
 * 10-byte one with key 0 does. */
static void test_nic_mem_zero_length(void)
{
	const unsigned rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	struct tnm_mem t;

	tnm_mem_setup(&t, rw, rw, 0);
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE, 0, 0, 0, 0, 0, 0, 1), 0);
	CU_ASSERT_EQUAL(post_mem(t.p.qa, IBV_WR_RDMA_WRITE, (uintptr_t)t.abuf, 10, t.amr->lkey, 0, 0, 0, 2),
			0);
	sim_run(&t.p.sim);
	CU_ASSERT_EQUAL_FATAL(t.p.la.n, 2);
	CU_ASSERT_EQUAL(t.p.la.wc[0].status, IBV_WC_SUCCESS);
	CU_ASSERT_EQUAL(t.p.la.wc[1].status, IBV_WC_REM_ACCESS_ERR);
	tnm_mem_free(&t);
}

int test_nic_mem_register(void)
{
	CU_pSuite s = CU_add_suite("nic memory", NULL, NULL);

	if (!s || !CU_add_test(s, "WRITE with immediate: wire and completions", test_nic_write_imm) ||
	    !CU_add_test(s, "WRITE with immediate: ImmDt serialised", test_nic_write_imm_serialisation) ||
	    !CU_add_test(s, "WRITE with immediate: loss, both recoveries", test_nic_write_imm_loss) ||
	    !CU_add_test(s, "ibv_reg_mr rules and lkey checks", test_nic_reg_mr) ||
	    !CU_add_test(s, "memory needs go-back-N", test_nic_mem_connect) ||
	    !CU_add_test(s, "bytes land at the RETH address (and READ at the SGE)", test_nic_mem_placement) ||
	    !CU_add_test(s, "outside a region: remote access NAK, QPs in error", test_nic_mem_refused) ||
	    !CU_add_test(s, "zero-length WRITE needs no key", test_nic_mem_zero_length))
		return CU_get_error();
	return 0;
}
