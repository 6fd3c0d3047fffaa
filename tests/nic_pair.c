/* The NIC suites' harness (nic_pair.h). */
#include <string.h>

#include <rte_mbuf.h>

#include "addr.h"
#include "nic_int.h"
#include "nic_pair.h"
#include "pkt_view.h"
#include "test.h"

void on_wc(void *arg, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps)
{
	struct wc_log *l = arg;

	(void)n;
	if (l->n < 64) {
		l->wc[l->n] = *wc;
		l->t_ps[l->n] = now_ps;
	}
	l->n++;
}

/* The INT record the test wire writes into data packet @psn. */
struct pkt_int_hop wire_int_hop(uint32_t psn)
{
	struct pkt_int_hop h = {
		.ts_ps = (uint64_t)psn * 1000 + 7,
		.tx_bytes = psn,
		.qlen_bytes = 3 * psn,
		.rate_bps = UINT64_C(100000000000),
	};
	return h;
}

static void wire_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct wire *w = owner;
	int d = in == &w->ports[0] ? 0 : 1;
	struct wire_dir *wd = &w->dir[d];
	struct sim *sim = in->sim;
	struct pkt_roce f;
	bool drop = w->unplugged;

	CU_ASSERT_EQUAL_FATAL(pkt_parse_roce(m, &f), 0);
	if (f.opcode == PKT_OP_ACK) {
		/* What the requester's congestion control will read of it. */
		struct pkt_int_hop hops[PKT_INT_MAX_HOPS], want = wire_int_hop(f.psn);
		struct pkt_view v;
		int n;

		CU_ASSERT_EQUAL_FATAL(pkt_view_roce(&v, PKT_LL_ROCE, pkt_data(m),
					    pkt_view_hdr_limit(PKT_LL_ROCE, m)),
				      0);
		n = nic_ack_int(m, &v, hops);
		if (n == 1 && hops[0].ts_ps == want.ts_ps && hops[0].tx_bytes == want.tx_bytes &&
		    hops[0].qlen_bytes == want.qlen_bytes && hops[0].rate_bps == want.rate_bps)
			wd->n_int_acks++;
		else if (n != 0)
			wd->n_int_bad++;
	}
	if (wd->loss_ppm) {
		wd->rng = wd->rng * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
		if ((wd->rng >> 33) % 1000000 < wd->loss_ppm)
			drop = true;
	}
	if (pkt_meta(m)->kind == PKT_KIND_DATA) {
		if (wd->n_data < 16) {
			memcpy(wd->data_hdrs[wd->n_data], pkt_data(m),
			       RTE_MIN(sizeof(wd->data_hdrs[0]), (size_t)rte_pktmbuf_data_len(m)));
			wd->data_frame_bytes[wd->n_data] = pkt_meta(m)->frame_bytes;
		}
		if (!wd->n_data)
			wd->first_data_ps = sim->now_ps;
		wd->last_data_ps = sim->now_ps;
		wd->n_data++;
		if (f.psn == wd->watch_psn && wd->n_watch < 16)
			wd->watch_ps[wd->n_watch++] = sim->now_ps;
		for (uint32_t i = 0; i < wd->n_drop_psns; i++)
			if (f.psn == wd->drop_psns[i] && !wd->dropped[i]) {
				wd->dropped[i] = 1;
				drop = true;
			}
		if (wd->drop_every && wd->n_data % wd->drop_every == 0)
			drop = true;
		if (wd->mark_ce && !drop)
			pkt_ipv4_set_ce(m);
		if (wd->int_hop) {
			struct pkt_int_hop h = wire_int_hop(f.psn);

			CU_ASSERT_EQUAL(pkt_int_append(m, &h), 0);
		}
	} else if (f.opcode == PKT_OP_ACK && (f.aeth_syndrome & PKT_AETH_KIND_MASK) == PKT_AETH_KIND_NAK &&
		   f.aeth_syndrome != PKT_AETH_NAK_PSN_SEQ) {
		wd->n_err_naks++;
		wd->err_syndrome = f.aeth_syndrome;
		wd->err_psn = f.psn;
	} else if (f.opcode == PKT_OP_ACK && f.aeth_syndrome == PKT_AETH_NAK_PSN_SEQ) {
		if (wd->n_naks < 16)
			wd->nak_psns[wd->n_naks] = f.psn;
		wd->n_naks++;
	} else if (f.opcode == PKT_OP_CNP) {
		if (wd->n_cnps < 64) {
			wd->cnp_ps[wd->n_cnps] = sim->now_ps;
			wd->cnp_qp[wd->n_cnps] = f.dest_qp;
		}
		wd->n_cnps++;
		if (pkt_ipv4_dscp(m) != 48 || !f.becn || pkt_ipv4_ecn(m) != PKT_ECN_NOT_ECT)
			wd->bad_cnps++;
	}
	if (drop) {
		wd->n_lost++;
		sim_pkt_free(sim, m);
		return;
	}
	port_enqueue(&w->ports[1 - d], m, pkt_meta(m)->tc, pkt_meta(m)->frame_bytes);
}


static const struct port_ops wire_ops = { .rx = wire_rx };

int pair_qps(struct pair *p, uint32_t mtu, uint64_t delay_ps, struct nic_qp **qa_out,
		    struct nic_qp **qb_out)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr qa = { 0 };

	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = 8;
	*qa_out = nic_create_qp(p->a, &ia);
	*qb_out = nic_create_qp(p->b, &ia);
	if (!*qa_out || !*qb_out)
		return -1;
	qa.path_mtu = mtu == 4096 ? IBV_MTU_4096 : mtu == 1024 ? IBV_MTU_1024 : IBV_MTU_256;
	qa.qp_access_flags = p->access;
	qa.ah_attr.port_num = 1;
	qa.ah_attr.grh.traffic_class = 26 << 2;
	qa.dest_qp_num = nic_qp_num(*qb_out);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, addr_ep_ip(1));
	if (nic_qp_connect(*qa_out, &qa, 2 * delay_ps) != 0)
		return -1;
	qa.dest_qp_num = nic_qp_num(*qa_out);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, addr_ep_ip(0));
	return nic_qp_connect(*qb_out, &qa, 2 * delay_ps);
}

void pair_setup_opts(struct pair *p, uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu,
			    const struct pair_opts *o)
{
	struct nic_params np = { 0 };
	uint8_t mac[6];

	memset(p, 0, sizeof(*p));
	p->access = o->access;
	CU_ASSERT_EQUAL_FATAL(sim_init(&p->sim, 1, test_mempool()), 0);
	np.recovery = o->recovery;
	np.rto_ps = o->rto_ps;
	np.rto_max_ps = o->rto_max_ps;
	np.cnp_interval_ps = o->cnp_interval_ps;
	np.mtu_bytes = 4096;
	np.ack_every_pkts = 16;
	np.ack_dscp = 48;
	for (int i = 0; i < 64; i++)
		np.dscp_to_tc[i] = (uint8_t)(i >> 3);
	np.sched.strict_mask = 0xC0;
	for (int i = 0; i < 8; i++)
		np.sched.quantum_bytes[i] = 4608;
	np.cc = o->cc ? o->cc : cc_find("none");
	np.payload = o->payload;
	p->a = nic_new(&p->sim, 0, 0, 0, 1, &np);
	p->b = nic_new(&p->sim, 1, 1, 1, 1, &np);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->b);
	if (o->wire) {
		/* The wire does not rewrite MACs: each NIC still names the other. */
		for (uint16_t i = 0; i < 2; i++) {
			port_init(&p->w.ports[i], &p->sim, &wire_ops, &p->w, 2, i);
			p->w.ports[i].sched = np.sched;
		}
		port_connect(nic_port(p->a, 0), &p->w.ports[0], rate_bps, delay_ps);
		port_connect(&p->w.ports[1], nic_port(p->b, 0), rate_bps, delay_ps);
		p->wired = true;
	} else {
		port_connect(nic_port(p->a, 0), nic_port(p->b, 0), rate_bps, delay_ps);
	}
	addr_host_port_mac(1, 0, mac);
	nic_set_next_hop_mac(p->a, 0, mac);
	addr_host_port_mac(0, 0, mac);
	nic_set_next_hop_mac(p->b, 0, mac);
	nic_set_wc_cb(p->a, on_wc, &p->la);
	nic_set_wc_cb(p->b, on_wc, &p->lb);
	CU_ASSERT_EQUAL_FATAL(pair_qps(p, mtu, delay_ps, &p->qa, &p->qb), 0);
}

void pair_setup(struct pair *p, uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu)
{
	struct pair_opts o = { 0 };

	pair_setup_opts(p, rate_bps, delay_ps, mtu, &o);
}

void pair_free(struct pair *p)
{
	nic_free(p->a);
	nic_free(p->b);
	for (int i = 0; p->wired && i < 2; i++)
		port_fini(&p->w.ports[i]);
	/* Every packet went back to the pool. */
	CU_ASSERT_EQUAL(p->sim.pkts_in_use, 0);
	sim_fini(&p->sim);
}

int post(struct nic_qp *qp, enum ibv_wr_opcode op, uint32_t bytes, uint64_t id)
{
	return post_mem(qp, op, 0, bytes, 0, 0, 0, 0, id);
}

int post_mem(struct nic_qp *qp, enum ibv_wr_opcode op, uint64_t laddr, uint32_t len,
	     uint32_t lkey, uint64_t raddr, uint32_t rkey, uint32_t imm_host, uint64_t id)
{
	struct ibv_sge sge = { .addr = laddr, .length = len, .lkey = lkey };
	struct ibv_send_wr wr = { 0 }, *bad;

	wr.wr_id = id;
	wr.opcode = op;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.imm_data = htobe32(imm_host);
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return nic_post_send(qp, &wr, &bad);
}

