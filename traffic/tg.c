/* Posting messages and recording their completions (see tg.h). */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"
#include "par.h"
#include "sim.h"
#include "tg_int.h"

static enum ibv_wr_opcode tg_wr_opcode(uint8_t op)
{
	static const enum ibv_wr_opcode ops[] = {
		[TG_OP_WRITE] = IBV_WR_RDMA_WRITE,
		[TG_OP_SEND] = IBV_WR_SEND,
		[TG_OP_READ] = IBV_WR_RDMA_READ,
		[TG_OP_WRITE_IMM] = IBV_WR_RDMA_WRITE_WITH_IMM,
	};

	return ops[op];
}

/* A message fails once: at its first part in error. */
void tg_fail(struct tg *t, struct tg_flow *f, uint64_t now_ps)
{
	if (f->status != TG_PENDING)
		return;
	f->end_ps = now_ps;
	f->status = TG_FAILED;
	__atomic_fetch_add(&t->n_failed, 1, __ATOMIC_RELAXED); /* partitions: par.h */
}

uint32_t tg_n_parts(uint64_t bytes, uint32_t qps)
{
	return bytes == 0 ? 1 : bytes < qps ? (uint32_t)bytes : qps;
}

void tg_post(struct sim *sim, void *obj)
{
	struct tg_slot *s = obj;
	struct tg_flow *f = &s->t->flows[s->idx];
	uint32_t parts = tg_n_parts(f->msg.bytes, f->msg.qps);

	/* Its record starts when it is posted (later than its start time when
	 * it waited for others). */
	f->msg.start_ps = sim->now_ps;
	if (unlikely(s->t->live && s->t->live[f->msg.src])) {
		f->status = TG_REMOTE; /* its sender is the live port's endpoint */
		return;
	}
	/* Part j takes bytes/parts, the first bytes % parts one more, on the
	 * connection's QP j (NCCL_IB_SPLIT_DATA_ON_QPS=1's way: every QP
	 * carries a share of every message). */
	for (uint32_t j = 0; j < parts; j++) {
		uint64_t len = f->msg.bytes / parts + (j < f->msg.bytes % parts);
		struct ibv_sge sge = { .addr = 0, .length = (uint32_t)len, .lkey = 0 };
		struct ibv_send_wr wr = { 0 }, *bad;
		const struct tg_mem *mem = s->t->mem && tg_data_msg(s->t, s->idx) ? &s->t->mem[s->idx] : NULL;
		/* Part j's bytes start after the parts before it. */
		uint64_t off = j * (f->msg.bytes / parts) + (j < f->msg.bytes % parts ? j : f->msg.bytes % parts);

		wr.wr_id = s->idx;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = tg_wr_opcode(f->msg.op);
		wr.send_flags = IBV_SEND_SIGNALED;
		/* What NCCL's IB transport puts there is its own; here: which
		 * message this is (network order, as verbs carries it). */
		wr.imm_data = htobe32(s->idx);
		wr.wr.rdma.remote_addr = UINT64_C(0x10000000);
		wr.wr.rdma.rkey = 0x1000 + f->msg.src;
		if (mem) {
			/* Data: from the sender's region into the receiver's. */
			sge.addr = mem->laddr + off;
			sge.lkey = mem->lkey;
			wr.wr.rdma.remote_addr = mem->raddr + off;
			wr.wr.rdma.rkey = mem->rkey;
		}
		/* QPs are sized for all their messages at set-up, so a post fails
		 * only on a QP that went to error: the message fails with it. */
		if (s->t->qpx && tg_graph_posted(s->t, sim, s->qp + j, s->idx) != 0)
			tg_fail(s->t, f, sim->now_ps);
		else if (nic_post_send(s->t->qps[s->qp + j], &wr, &bad) != 0)
			tg_fail(s->t, f, sim->now_ps);
	}
}

static void tg_on_wc(void *arg, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps)
{
	struct tg *t = arg;
	struct tg_flow *f;

	if (wc->opcode == IBV_WC_RECV || wc->opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
		if (t->qpx)
			tg_graph_received(t, n, wc, now_ps);
		return;
	}
	if (wc->wr_id & TG_STREAM_WR) {
		tg_stream_sent(t, nic_sim(n)->part, wc, now_ps);
		return;
	}
	if (wc->wr_id >= t->n_flows)
		return;
	f = &t->flows[wc->wr_id];
	if (wc->status != IBV_WC_SUCCESS) {
		tg_fail(t, f, now_ps);
		return;
	}
	if (f->status != TG_PENDING || --t->parts_left[wc->wr_id] != 0)
		return;
	f->end_ps = now_ps;
	f->done = true;
	f->status = TG_DONE;
	__atomic_fetch_add(&t->n_done, 1, __ATOMIC_RELAXED); /* partitions: par.h */
	if (t->op_of_msg && !tg_op_on_arrival(f->msg.op))
		tg_graph_sent(t, (uint32_t)wc->wr_id, now_ps, nic_sim(n));
}

/* Sort key (struct tg_key, tg_int.h) grouping the messages of one
 * connection together: same workload, endpoints and DSCP (a QP has one
 * traffic class), connection tag and communicator. */
static int tg_key_cmp(const void *a, const void *b)
{
	const struct tg_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->chan != y->chan)
		return x->chan < y->chan ? -1 : 1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static uint64_t tg_base_rtt_ps(const struct tg_path *p)
{
	uint64_t rtt = 0;

	for (uint32_t i = 0; i < p->n_hops; i++)
		rtt += 2 * p->delay_ps[i];
	return rtt;
}

uint64_t tg_max_rtt_ps(const struct tg *t)
{
	return t->max_rtt_ps;
}

void tg_set_live(struct tg *t, const uint8_t *live)
{
	t->live = live;
}

/* Create and connect the QP pair of one connection, from endpoint @src to
 * endpoint @dst. */
static int tg_connect(struct tg *t, uint32_t src, uint32_t dst, uint32_t n_msgs, uint8_t dscp,
		      uint32_t mtu, const struct cc_ops *cc, bool mem, const struct tg_path *fwd,
		      const struct tg_path *rev, struct nic_qp **out, struct nic_qp **out_rx)
{
	struct nic *a = t->nics[t->eps[src].nic], *b = t->nics[t->eps[dst].nic];
	uint16_t pa = t->eps[src].port, pb = t->eps[dst].port;
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp_attr qa = { 0 };
	struct nic_qp *qa_p, *qb_p;
	enum ibv_mtu m = IBV_MTU_256;
	uint64_t rtt = tg_base_rtt_ps(fwd);

	while ((128u << m) < mtu && m < IBV_MTU_4096)
		m++;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = n_msgs;
	ia.cap.max_recv_wr = n_msgs;
	ia.cap.max_send_sge = 1;
	qa_p = nic_create_qp(a, &ia);
	qb_p = nic_create_qp(b, &ia);
	if (!qa_p || !qb_p)
		return -ENOMEM;
	if (cc && (nic_qp_set_cc(qa_p, cc) != 0 || nic_qp_set_cc(qb_p, cc) != 0))
		return -EINVAL;
	if (nic_qp_set_hops(qa_p, fwd->n_hops) != 0 || nic_qp_set_hops(qb_p, rev->n_hops) != 0)
		return -EINVAL;
	qa.path_mtu = m;
	/* Data: the QPs model memory (remote writes into registered regions). */
	qa.qp_access_flags = mem ? IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE : 0;
	qa.sq_psn = 0;
	qa.rq_psn = 0;
	qa.ah_attr.port_num = (uint8_t)(pa + 1);
	qa.ah_attr.is_global = 1;
	qa.ah_attr.grh.traffic_class = (uint8_t)(dscp << 2);
	qa.dest_qp_num = nic_qp_num(qb_p);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, nic_port_ip(b, pb));
	if (nic_qp_connect(qa_p, &qa, rtt) != 0)
		return -EINVAL;
	if (rtt > t->max_rtt_ps)
		t->max_rtt_ps = rtt;
	qa.dest_qp_num = nic_qp_num(qa_p);
	qa.ah_attr.port_num = (uint8_t)(pb + 1);
	nic_gid_from_ipv4(&qa.ah_attr.grh.dgid, nic_port_ip(a, pa));
	if (nic_qp_connect(qb_p, &qa, tg_base_rtt_ps(rev)) != 0)
		return -EINVAL;
	*out = qa_p;
	*out_rx = qb_p;
	return 0;
}

/* Each message's record, parts and connection key (into @keys), its
 * endpoints and path checked. 0 or -EINVAL with @err filled. */
static int tg_msgs_init(struct tg *t, const struct tg_msg *msgs, uint32_t n_msgs, uint32_t n_eps,
			struct tg_key *keys, tg_path_fn path, void *path_arg,
			const struct tg_framing *fr, char err[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < n_msgs; i++) {
		struct tg_path p;

		/* A message to its own endpoint only as an in-network
		 * reduction's (the switches send it back). */
		if (msgs[i].src >= n_eps || msgs[i].dst >= n_eps ||
		    (msgs[i].src == msgs[i].dst && (msgs[i].chan & 0xFF00) != TG_CHAN_INNET) ||
		    msgs[i].qps < 1 || msgs[i].qps > TG_MAX_QPS) {
			snprintf(err, CFG_ERR_BYTES, "message %u: bad endpoints %u -> %u", i, msgs[i].src,
				 msgs[i].dst);
			return -EINVAL;
		}
		if (path(path_arg, msgs[i].src, msgs[i].dst, &p) != 0) {
			snprintf(err, CFG_ERR_BYTES, "no path from endpoint %u to %u", msgs[i].src,
				 msgs[i].dst);
			return -EINVAL;
		}
		t->flows[i].msg = msgs[i];
		t->parts_left[i] = (uint8_t)tg_n_parts(msgs[i].bytes, msgs[i].qps);
		t->flows[i].ideal_ps = tg_ideal_fct_ps(&p, msgs[i].bytes, msgs[i].op, fr);
		keys[i].key = (uint64_t)msgs[i].workload << 48 | (uint64_t)msgs[i].dscp << 40 |
			      (uint64_t)msgs[i].src << 20 | msgs[i].dst;
		keys[i].chan = msgs[i].chan;
		keys[i].comm = msgs[i].comm;
		keys[i].idx = i;
	}
	return 0;
}

/* Room for one more QP pair in t->qps and t->rqps (grown a chunk at a
 * time). 0 or -ENOMEM with @err filled. */
static int tg_qps_room(struct tg *t, char err[CFG_ERR_BYTES])
{
	struct nic_qp **v, **r;

	if (t->n_qps % TG_QPS_CHUNK != 0)
		return 0;
	v = realloc(t->qps, sizeof(*v) * (t->n_qps + TG_QPS_CHUNK));
	r = v ? realloc(t->rqps, sizeof(*r) * (t->n_qps + TG_QPS_CHUNK)) : NULL;
	if (v)
		t->qps = v;
	if (r)
		t->rqps = r;
	if (!v || !r) {
		snprintf(err, CFG_ERR_BYTES, "out of memory for QPs");
		return -ENOMEM;
	}
	return 0;
}

/* The connections: the messages in @keys' (sorted) order, each run of one
 * connection key (or each message, per-message) on msg.qps QP pairs of
 * its own. 0 or -errno with @err filled. */
static int tg_connect_all(struct tg *t, const struct tg_msg *msgs, uint32_t n_keys,
			  const struct tg_key *keys, tg_path_fn path, void *path_arg,
			  const struct tg_framing *fr, char err[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < n_keys;) {
		uint32_t j = i, first = t->n_qps, wrs = 0;
		struct tg_msg sm;
		const struct tg_msg *m = keys[i].idx < t->n_flows ? &msgs[keys[i].idx] : &sm;
		struct tg_path fwd, rev;

		if (m == &sm)
			tg_stream_key_msg(t, keys[i].idx - t->n_flows, &sm);

		/* Per-message QPs: a group of one (a workload has one qp mode,
		 * and the workload is part of the key). */
		if (m->qp_mode == TG_QP_PER_MESSAGE)
			j++;
		/* A listed message's connection is never a stream's: the keys
		 * of one sort listed ones first (by idx), and the run ends
		 * there. */
		while (m->qp_mode != TG_QP_PER_MESSAGE && j < n_keys && keys[j].key == keys[i].key &&
		       keys[j].chan == keys[i].chan && keys[j].comm == keys[i].comm &&
		       (keys[j].idx < t->n_flows) == (keys[i].idx < t->n_flows))
			j++;
		if (path(path_arg, m->src, m->dst, &fwd) != 0 ||
		    path(path_arg, m->dst, m->src, &rev) != 0) {
			snprintf(err, CFG_ERR_BYTES, "no path from endpoint %u to %u", m->src, m->dst);
			return -EINVAL;
		}
		/* A streamed connection's QPs hold what is in flight (the NIC
		 * grows their rings from the most its instances start with). */
		for (uint32_t k = i; m == &sm && k < j; k++) {
			uint32_t w = tg_stream_key_wrs(t, keys[k].idx - t->n_flows);

			wrs = k == i || w > wrs ? w : wrs;
		}
		/* A connection of qps QP pairs (a workload has one qps value,
		 * and the workload is part of the key). */
		for (uint32_t q = 0; q < m->qps; q++) {
			if (tg_qps_room(t, err) != 0)
				return -ENOMEM;
			if (tg_connect(t, m->src, m->dst, m == &sm ? wrs : j - i, m->dscp,
				       fr->mtu_bytes, m->cc,
				       m != &sm && tg_data_msg(t, keys[i].idx), &fwd, &rev, &t->qps[t->n_qps],
				       &t->rqps[t->n_qps]) != 0) {
				snprintf(err, CFG_ERR_BYTES, "cannot create QPs from endpoint %u to %u",
					 m->src, m->dst);
				return -EINVAL;
			}
			if (m == &sm)
				nic_qp_set_grow(t->qps[t->n_qps]);
			t->n_qps++;
		}
		if (m == &sm) {
			/* A streamed connection: the keys of its instances. */
			for (uint32_t k = i; k < j; k++)
				if (tg_stream_conn(t, keys[k].idx - t->n_flows, first, &fwd, k > i) != 0)
					return -ENOMEM;
			i = j;
			continue;
		}
		for (; i < j; i++) {
			struct tg_slot *s = &t->slots[keys[i].idx];

			s->t = t;
			s->qp = first;
			s->idx = keys[i].idx;
		}
	}
	return 0;
}

struct ev_src *tg_post_src(struct tg *t, struct sim *ns)
{
	if (ns == t->sim)
		return &t->src;
	if (!t->psrc) {
		uint32_t n = par_n(t->sim->par);

		if (!(t->psrc = calloc(n, sizeof(*t->psrc))))
			return NULL;
		for (uint32_t i = 0; i < n; i++)
			t->psrc[i].id = t->src.id;
	}
	return &t->psrc[ns->part];
}

struct tg *tg_new(struct sim *sim, struct nic **nics, uint32_t n_nics, const struct tg_ep *eps,
		  uint32_t n_eps, const struct tg_msg *msgs, uint32_t n_msgs,
		  const struct tg_graph *graph, tg_path_fn path, void *path_arg,
		  const struct tg_framing *fr, char err[CFG_ERR_BYTES])
{
	uint64_t n_keys = n_msgs + (graph ? tg_stream_n_keys(graph) : 0);
	struct tg *t = calloc(1, sizeof(*t));
	struct tg_key *keys = n_keys <= UINT32_MAX ? calloc(n_keys ? n_keys : 1, sizeof(*keys)) : NULL;

	if (!t || !keys ||
	    !(t->flows = calloc(n_msgs ? n_msgs : 1, sizeof(*t->flows))) ||
	    !(t->slots = calloc(n_msgs ? n_msgs : 1, sizeof(*t->slots))) ||
	    !(t->parts_left = calloc(n_msgs ? n_msgs : 1, sizeof(*t->parts_left)))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory for %u messages", n_msgs);
		goto fail;
	}
	t->sim = sim;
	t->nics = nics;
	t->eps = eps;
	t->n_eps = n_eps;
	t->n_flows = n_msgs;
	sim_new_src(sim, &t->src);
	for (uint32_t i = 0; i < n_nics; i++)
		nic_set_wc_cb(nics[i], tg_on_wc, t);
	for (uint32_t i = 0; i < n_eps; i++)
		if (eps[i].nic >= n_nics || eps[i].port >= nic_n_ports(nics[eps[i].nic])) {
			snprintf(err, CFG_ERR_BYTES, "endpoint %u: no NIC %u port %u", i, eps[i].nic,
				 eps[i].port);
			goto fail;
		}
	if (tg_msgs_init(t, msgs, n_msgs, n_eps, keys, path, path_arg, fr, err) != 0)
		goto fail;
	/* Which messages carry data decides how their QPs connect. */
	if (graph && graph->data.n_xfers && tg_data_init(t, graph, err) != 0)
		goto fail;
	/* Across processes, receivers learn of what another process posts
	 * from records beside the frames. */
	t->remote = sim->par && par_processes(sim->par) > 1;
	if (t->remote)
		par_set_aux(sim->par, tg_aux, t);
	/* Streamed collectives: a key per connection of each instance. */
	if (graph && graph->n_streams) {
		if (tg_stream_init(t, graph, fr) != 0) {
			snprintf(err, CFG_ERR_BYTES, "out of memory for streamed collectives");
			goto fail;
		}
		tg_stream_keys(graph, n_msgs, keys + n_msgs);
	}
	qsort(keys, n_keys, sizeof(*keys), tg_key_cmp);
	if (tg_connect_all(t, msgs, (uint32_t)n_keys, keys, path, path_arg, fr, err) != 0)
		goto fail;
	if (graph && graph->n_ops && tg_graph_init(t, graph, err) != 0)
		goto fail;
	if (t->data && tg_data_start(t, err) != 0)
		goto fail;
	/* Posts are scheduled in message order: equal start times keep it. The
	 * messages of the graph are posted as it allows. */
	for (uint32_t i = 0; i < n_msgs; i++)
		if (!t->op_of_msg || t->op_of_msg[i] == TG_NO_OP) {
			/* On the sending NIC's simulation (its partition's, par.h). */
			struct sim *ns = nic_sim(nics[eps[msgs[i].src].nic]);
			struct ev_src *src = tg_post_src(t, ns);

			if (!src) {
				snprintf(err, CFG_ERR_BYTES, "out of memory");
				goto fail;
			}
			sim_at(ns, msgs[i].start_ps, src, tg_post, &t->slots[i]);
		}
	if (t->op_of_msg)
		tg_graph_start(t);
	free(keys);
	return t;
fail:
	free(keys);
	tg_free(t);
	return NULL;
}

void tg_free(struct tg *t)
{
	if (!t)
		return;
	free(t->flows);
	free(t->slots);
	free(t->parts_left);
	free(t->psrc);
	free(t->qps);
	free(t->rqps);
	tg_data_fini(t);
	tg_graph_fini(t);
	tg_stream_fini(t);
	free(t);
}

const struct tg_flow *tg_flows(const struct tg *t, uint32_t *n)
{
	*n = t->n_flows;
	return t->flows;
}

uint32_t tg_msg_rqpn(const struct tg *t, uint32_t msg)
{
	return nic_qp_num(t->rqps[t->slots[msg].qp]);
}

uint32_t tg_n_done(const struct tg *t) { return t->n_done; }

uint32_t tg_n_failed(const struct tg *t) { return t->n_failed; }

void tg_flow_result_save(const struct tg *t, uint32_t i, uint64_t *w)
{
	const struct tg_flow *f = &t->flows[i];

	w[0] = f->msg.start_ps;
	w[1] = f->end_ps;
	w[2] = (uint64_t)f->status << 8 | f->done;
}

void tg_flow_result_load(struct tg *t, uint32_t i, const uint64_t *w)
{
	struct tg_flow *f = &t->flows[i];

	f->msg.start_ps = w[0];
	f->end_ps = w[1];
	f->done = w[2] & 1;
	f->status = (uint8_t)(w[2] >> 8);
}

void tg_result_counts(struct tg *t, uint32_t done, uint32_t failed)
{
	t->n_done = done;
	t->n_failed = failed;
}

const struct nic_qp *tg_flow_qp(const struct tg *t, uint32_t i)
{
	return i < t->n_flows ? t->qps[t->slots[i].qp] : NULL;
}

uint32_t tg_flow_qps(const struct tg *t, uint32_t i, struct nic_qp *const **qps)
{
	if (i >= t->n_flows)
		return 0;
	*qps = &t->qps[t->slots[i].qp];
	return t->flows[i].msg.qps;
}
