/* NIC set-up and the verbs-style control path: QP creation, connection,
 * posting work requests (validated before anything is queued, SGEs against
 * the regions on a QP that models memory; each gets its PSNs when
 * posted). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "cc_metrics.h"
#include "metric.h"
#include "nic_int.h"

static const struct port_ops nic_port_ops = {
	.rx = nic_rx,
	.pull = nic_pull,
};

struct nic *nic_new(struct sim *sim, uint32_t node, uint32_t host, uint32_t first_ep,
		    uint16_t n_ports, const struct nic_params *p)
{
	struct nic_params rp = *p;
	char err[CFG_ERR_BYTES];
	struct nic *n;

	nic_params_resolve(&rp);
	/* The key table's ranges and rules (an experiment's params already
	 * passed them); the algorithm needs its init, and its settings. */
	if (nic_params_check(&rp, err) != 0 || !rp.cc || !rp.cc->init ||
	    (rp.cc->kind.settings && !rp.cc_cfg)) {
		errno = EINVAL;
		return NULL;
	}
	n = aligned_alloc(64, (sizeof(*n) + 63) / 64 * 64);
	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->ports = aligned_alloc(64, sizeof(*n->ports) * n_ports);
	if (n->ports)
		memset(n->ports, 0, sizeof(*n->ports) * n_ports);
	n->ps = aligned_alloc(64, sizeof(*n->ps) * n_ports);
	if (n->ps)
		memset(n->ps, 0, sizeof(*n->ps) * n_ports);
	if (rp.payload)
		n->pattern = malloc(NIC_PATTERN_BYTES);
	if (!n->ports || !n->ps || (rp.payload && !n->pattern)) {
		nic_free(n);
		return NULL;
	}
	n->sim = sim;
	n->p = rp;
	n->cc = rp.cc;
	n->host = host;
	n->first_ep = first_ep;
	n->n_ports = n_ports;
	n->ack_tc = rp.dscp_to_tc[rp.ack_dscp & 63];
	n->cnp_tc = rp.dscp_to_tc[rp.cnp_dscp];
	n->ll_kind = rp.ll ? rp.ll->kind : PKT_LL_ROCE;
	for (uint16_t i = 0; i < n_ports; i++) {
		port_init(&n->ports[i], sim, &nic_port_ops, n, node, i);
		if (rp.ll)
			port_set_ll(&n->ports[i], rp.ll);
		n->ports[i].sched = p->sched;
		sim_new_src(sim, &n->ps[i].timer_src);
		n->ps[i].nic = n;
		n->ps[i].index = i;
		addr_host_port_mac(host, i, n->ps[i].mac);
	}
	/* A recognisable, position-dependent pattern: corruption shows in the ICRC. */
	for (uint32_t i = 0; n->pattern && i < NIC_PATTERN_BYTES; i++)
		n->pattern[i] = (uint8_t)(i * 31 + (host & 0xff));
	return n;
}

static void nic_qp_free(struct nic_qp *qp)
{
	if (!qp)
		return;
	nic_qp_rel_fini(qp);
	free(qp->rds);
	free(qp->wrs);
	free(qp->wr_laddrs);
	free(qp->cc.priv);
	free(qp);
}

void nic_free(struct nic *n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < n->n_qps; i++)
		nic_qp_free(n->qps[i]);
	for (uint16_t i = 0; n->ports && i < n->n_ports; i++)
		port_fini(&n->ports[i]);
	nic_mrs_free(n);
	nic_uet_free(n);
	free(n->qps);
	free(n->ports);
	free(n->ps);
	free(n->pattern);
	free(n);
}

struct port *nic_port(struct nic *n, uint16_t i) { return &n->ports[i]; }
uint16_t nic_n_ports(const struct nic *n) { return n->n_ports; }
struct sim *nic_sim(const struct nic *n) { return n->sim; }
uint32_t nic_host(const struct nic *n) { return n->host; }

struct nic_qp *nic_qp_find(struct nic *n, uint32_t qpn)
{
	uint32_t i = qpn - NIC_QPN_BASE;

	return qpn >= NIC_QPN_BASE && i < n->n_qps ? n->qps[i] : NULL;
}

void nic_qp_set_user(struct nic_qp *qp, void *user) { qp->user = user; }
void *nic_qp_user(const struct nic_qp *qp) { return qp->user; }
uint32_t nic_port_ip(const struct nic *n, uint16_t i) { return addr_ep_ip(n->first_ep + i); }
const struct nic_stats *nic_stats(const struct nic *n) { return &n->stats; }

void nic_set_wc_cb(struct nic *n, nic_wc_fn fn, void *arg)
{
	n->wc_fn = fn;
	n->wc_arg = arg;
}

void nic_set_next_hop_mac(struct nic *n, uint16_t i, const uint8_t mac[6])
{
	memcpy(n->ps[i].nh_mac, mac, 6);
}

void nic_gid_from_ipv4(union ibv_gid *gid, uint32_t ip)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	gid->raw[12] = (uint8_t)(ip >> 24);
	gid->raw[13] = (uint8_t)(ip >> 16);
	gid->raw[14] = (uint8_t)(ip >> 8);
	gid->raw[15] = (uint8_t)ip;
}

static int nic_gid_to_ipv4(const union ibv_gid *gid, uint32_t *ip)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (memcmp(gid->raw, prefix, sizeof(prefix)) != 0)
		return -EINVAL;
	*ip = (uint32_t)gid->raw[12] << 24 | (uint32_t)gid->raw[13] << 16 |
	      (uint32_t)gid->raw[14] << 8 | gid->raw[15];
	return 0;
}

static uint32_t nic_pow2_at_least(uint32_t x)
{
	uint32_t r = 1;

	while (r < x)
		r <<= 1;
	return r;
}

struct nic_qp *nic_create_qp(struct nic *n, const struct ibv_qp_init_attr *attr)
{
	struct nic_qp *qp;
	uint32_t ring;

	if (attr->qp_type != IBV_QPT_RC || attr->cap.max_send_wr == 0 ||
	    n->n_qps >= NIC_PSN_MASK - NIC_QPN_BASE) {
		errno = EINVAL;
		return NULL;
	}
	if (n->n_qps == n->cap_qps) {
		uint32_t cap = n->cap_qps ? n->cap_qps * 2 : 16;
		struct nic_qp **q = realloc(n->qps, sizeof(*q) * cap);

		if (!q) {
			errno = ENOMEM;
			return NULL;
		}
		n->qps = q;
		n->cap_qps = cap;
	}
	/* Line-aligned, so that the fields a send reads share three lines. */
	qp = aligned_alloc(64, (sizeof(*qp) + 63) / 64 * 64);
	if (qp)
		memset(qp, 0, sizeof(*qp));
	ring = nic_pow2_at_least(attr->cap.max_send_wr);
	if (!qp || !(qp->wrs = calloc(ring, sizeof(*qp->wrs)))) {
		nic_qp_free(qp);
		errno = ENOMEM;
		return NULL;
	}
	qp->nic = n;
	qp->wr_mask = ring - 1;
	qp->qpn = NIC_QPN_BASE + n->n_qps;
	qp->cc.ops = n->p.cc;
	sim_new_src(n->sim, &qp->rto_src);
	sim_new_src(n->sim, &qp->cc_src);
	n->qps[n->n_qps++] = qp;
	return qp;
}

uint32_t nic_qp_num(const struct nic_qp *qp) { return qp->qpn; }

void nic_qp_set_grow(struct nic_qp *qp) { qp->grow = true; }

int nic_qp_set_cc(struct nic_qp *qp, const struct cc_ops *ops)
{
	if (qp->connected || !ops || !ops->init || (ops->kind.settings && !qp->nic->p.cc_cfg))
		return -EINVAL;
	qp->cc.ops = ops;
	return 0;
}

int nic_qp_set_hops(struct nic_qp *qp, uint32_t n_hops)
{
	if (qp->connected)
		return -EINVAL;
	qp->cc.n_hops = n_hops;
	return 0;
}

const struct cc_qp *nic_qp_cc(const struct nic_qp *qp)
{
	return qp->connected ? &qp->cc : NULL;
}

#define NIC_STATS_WORDS METRIC_WORDS(sizeof(struct nic_stats))
#define NIC_QP_WORDS METRIC_WORDS(sizeof(struct nic_qp_stats))
#define NIC_CC_WORDS METRIC_WORDS(sizeof(struct cc_stats))

uint32_t nic_result_words(const struct nic *n)
{
	return NIC_STATS_WORDS + n->n_qps * (NIC_QP_WORDS + NIC_CC_WORDS);
}

void nic_result_save(const struct nic *n, uint64_t *w)
{
	memcpy(w, &n->stats, sizeof(n->stats));
	w += NIC_STATS_WORDS;
	for (uint32_t i = 0; i < n->n_qps; i++, w += NIC_QP_WORDS + NIC_CC_WORDS) {
		memcpy(w, &n->qps[i]->stats, sizeof(n->qps[i]->stats));
		memcpy(w + NIC_QP_WORDS, &n->qps[i]->cc.stats, sizeof(n->qps[i]->cc.stats));
	}
}

void nic_result_load(struct nic *n, const uint64_t *w)
{
	memcpy(&n->stats, w, sizeof(n->stats));
	w += NIC_STATS_WORDS;
	for (uint32_t i = 0; i < n->n_qps; i++, w += NIC_QP_WORDS + NIC_CC_WORDS) {
		memcpy(&n->qps[i]->stats, w, sizeof(n->qps[i]->stats));
		memcpy(&n->qps[i]->cc.stats, w + NIC_QP_WORDS, sizeof(n->qps[i]->cc.stats));
	}
}

void nic_cc_stats(const struct nic *n, struct cc_stats *sum)
{
	/* The CC table says how the QPs combine (its rows: cc/cc_metrics.c). */
	for (uint32_t i = 0; i < n->n_qps; i++)
		metric_fold(&cc_metrics, sum, &n->qps[i]->cc.stats);
}

static void nic_cc_fire(struct sim *sim, void *obj);

void nic_cc_apply(struct nic_qp *qp)
{
	struct cc_qp *c = &qp->cc;
	uint64_t now = qp->nic->sim->now_ps;

	if (c->rate_bps > qp->cc_rate_bps && qp->next_ok_ps > now && qp->active)
		nic_qp_repace(qp, qp->cc_rate_bps, c->rate_bps);
	qp->cc_rate_bps = c->rate_bps;
	qp->cc_window_bytes = (uint32_t)(c->window_bytes > UINT32_MAX ? UINT32_MAX : c->window_bytes);
	/* A request later than the live event waits for it (lazy re-arm); an
	 * earlier one needs its own event, and the later one fires for nothing. */
	if (c->timer_ps && (!qp->cc_ev_ps || c->timer_ps < qp->cc_ev_ps)) {
		qp->cc_ev_ps = c->timer_ps > now ? c->timer_ps : now;
		sim_at(qp->nic->sim, qp->cc_ev_ps, &qp->cc_src, nic_cc_fire, qp);
	}
}

/* The QP's congestion-control timer. Bookkeeping for the run's end: the
 * rate it changes shows in the packets the pacer lets go. */
static void nic_cc_fire(struct sim *sim, void *obj)
{
	struct nic_qp *qp = obj;
	struct cc_qp *c = &qp->cc;

	sim->monitor_event = true;
	if (sim->now_ps != qp->cc_ev_ps)
		return; /* replaced by an earlier one, which ran */
	qp->cc_ev_ps = 0;
	if (!c->timer_ps)
		return; /* cancelled */
	if (c->timer_ps <= sim->now_ps) {
		uint32_t window = qp->cc_window_bytes;

		c->timer_ps = 0;
		c->backlogged = qp->active || qp->snd_una != qp->max_psn ||
				qp->send_idx != qp->post_idx;
		c->ops->on_timer(c, sim->now_ps);
		nic_cc_apply(qp);
		if (qp->cc_window_bytes != window && qp->state == NIC_QP_OK)
			nic_qp_activate(qp); /* a window that opened lets it send */
		return;
	}
	nic_cc_apply(qp); /* re-arms at a request moved later */
}

void nic_cc_sent(struct nic_qp *qp, uint32_t psn, uint32_t end_psn, uint32_t bytes, bool retx)
{
	uint64_t now = qp->nic->sim->now_ps;

	if (retx) {
		/* Karn's rule: a resent PSN gives no sample. */
		if (qp->rtt_valid && nic_psn_diff(psn, qp->rtt_psn) <= 0)
			qp->rtt_valid = 0;
	} else if (!qp->rtt_valid) {
		qp->rtt_valid = 1;
		qp->rtt_psn = end_psn;
		qp->rtt_sent_ps = now;
	}
	if (qp->cc.ops->on_send) {
		qp->cc.ops->on_send(&qp->cc, bytes, now);
		nic_cc_apply(qp);
	}
}

uint32_t nic_qp_outstanding(const struct nic_qp *qp) { return qp->post_idx - qp->done_idx; }

const struct nic_qp_stats *nic_qp_stats(const struct nic_qp *qp) { return &qp->stats; }

/* Flow entropy: 0xC000 plus a 14-bit hash of the connection, in the RoCEv2
 * dynamic port range, as Linux rxe derives it from the QP. */
static uint16_t nic_udp_sport(uint32_t src_ip, uint32_t qpn)
{
	uint64_t x = ((uint64_t)src_ip << 24) ^ qpn;

	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return (uint16_t)(0xC000 | (x & 0x3FFF));
}

/* Set up the QP's congestion control at connect: its state, settings and
 * first rate and window. 0 or -errno. */
static int nic_qp_cc_init(struct nic_qp *qp, uint64_t line_rate_bps, uint64_t base_rtt_ps,
			  uint32_t mtu)
{
	struct cc_qp *c = &qp->cc;
	const struct cc_ops *ops = c->ops;
	uint32_t hops = c->n_hops;

	free(c->priv);
	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->n_hops = hops;
	c->cfg = qp->nic->p.cc_cfg ? cc_cfg_of(qp->nic->p.cc_cfg, ops) : NULL;
	c->line_rate_bps = line_rate_bps;
	c->base_rtt_ps = base_rtt_ps;
	c->mtu_bytes = mtu;
	c->cnp_interval_ps = qp->nic->p.cnp_interval_ps; /* the algorithm may set its own */
	if (!(c->priv = calloc(1, ops->priv_size ? ops->priv_size : 1)))
		return -ENOMEM;
	if (ops->init(c) != 0)
		return -EINVAL;
	qp->cc_send = ops->on_send || ops->on_ack;
	qp->ecn_echo = (ops->flags & CC_F_ECN_ECHO) != 0;
	nic_cc_apply(qp);
	return 0;
}

int nic_qp_connect(struct nic_qp *qp, const struct ibv_qp_attr *attr, uint64_t base_rtt_ps)
{
	struct nic *n = qp->nic;
	uint16_t port = attr->ah_attr.port_num;
	uint32_t mtu, dst_ip;
	uint8_t dscp;

	if (attr->path_mtu < IBV_MTU_256 || attr->path_mtu > IBV_MTU_4096)
		return -EINVAL;
	mtu = 128u << attr->path_mtu;
	/* A NIC whose payload size is not a power of two (nic.mtu 1000)
	 * connects at the next larger path MTU and sends its own size. */
	if (mtu > n->p.mtu_bytes && mtu / 2 < n->p.mtu_bytes)
		mtu = n->p.mtu_bytes;
	if (qp->connected || mtu > n->p.mtu_bytes || port < 1 || port > n->n_ports ||
	    nic_gid_to_ipv4(&attr->ah_attr.grh.dgid, &dst_ip) != 0 ||
	    attr->dest_qp_num > NIC_PSN_MASK)
		return -EINVAL;
	/* UET: PDC ids are 16 bits; its reliable delivery is selective. */
	if (nic_on_uet(n) && (attr->dest_qp_num > UINT16_MAX || qp->qpn > UINT16_MAX ||
			      n->p.recovery != (n->p.uet_rod ? NIC_RECOVERY_GBN : NIC_RECOVERY_SR)))
		return -EINVAL;
	/* Memory modelled: go-back-N only (selective repeat holds packets out
	 * of order by their count, without their bytes or RETH). */
	if (attr->qp_access_flags &&
	    ((attr->qp_access_flags & ~(unsigned)NIC_MR_ACCESS) || n->p.recovery != NIC_RECOVERY_GBN))
		return -EINVAL;
	if (attr->qp_access_flags && !qp->wr_laddrs &&
	    !(qp->wr_laddrs = calloc((size_t)qp->wr_mask + 1, sizeof(*qp->wr_laddrs))))
		return -EINVAL;
	qp->mem = attr->qp_access_flags != 0;
	qp->access = attr->qp_access_flags;
	dscp = attr->ah_attr.grh.traffic_class >> 2;
	qp->port = (uint16_t)(port - 1);
	qp->mtu_bytes = mtu;
	qp->dest_qpn = attr->dest_qp_num;
	qp->next_psn = attr->sq_psn & NIC_PSN_MASK;
	qp->max_psn = qp->post_psn = qp->ack_psn = qp->snd_una = qp->next_psn;
	qp->expected_psn = attr->rq_psn & NIC_PSN_MASK;
	qp->tc = n->p.dscp_to_tc[dscp];
	memset(&qp->addr, 0, sizeof(qp->addr));
	memcpy(qp->addr.src_mac, n->ps[qp->port].mac, 6);
	memcpy(qp->addr.dst_mac, n->ps[qp->port].nh_mac, 6);
	qp->addr.vlan = n->p.vlan;
	qp->addr.vid = n->p.vid;
	qp->addr.pcp = qp->tc;
	qp->addr.src_ip = nic_port_ip(n, qp->port);
	qp->addr.dst_ip = dst_ip;
	qp->addr.dscp = dscp;
	qp->addr.ecn = PKT_ECN_ECT0;
	qp->addr.ttl = 64;
	qp->addr.udp_sport = nic_udp_sport(qp->addr.src_ip, qp->qpn);
	if (nic_on_ib(n)) {
		/* LID l is endpoint l - 1 (the subnet manager's plan). */
		qp->addr.ll = PKT_LL_IB;
		qp->addr.sl = n->p.dscp_to_sl[dscp];
		qp->addr.vl = qp->tc;
		qp->addr.grh = n->p.ib_grh;
		qp->addr.slid = (uint16_t)(n->first_ep + qp->port + 1);
		qp->addr.dlid = (uint16_t)(addr_ip_ep(dst_ip) + 1);
	} else if (nic_on_uet(n)) {
		qp->addr.ll = PKT_LL_UET;
	}
	pkt_tmpl_init(&qp->tmpl, &qp->addr, 0xFFFF, qp->dest_qpn);
	n->ps[qp->port].line_rate_bps = n->ports[qp->port].rate_bps;
	if (nic_qp_cc_init(qp, n->ports[qp->port].rate_bps, base_rtt_ps, mtu) != 0 ||
	    nic_qp_rel_init(qp) != 0)
		return -EINVAL;
	qp->sr_limit = nic_sr_limit(&n->p, n->ports[qp->port].rate_bps, base_rtt_ps, mtu);
	if (nic_on_uet(n)) {
		/* Marks come back in ACKs (their M flag): UET has no CNP. */
		qp->ecn_echo = 1;
		if (nic_uet_connect(qp) != 0)
			return -EINVAL;
	}
	qp->connected = 1;
	return 0;
}

/* Selective repeat keeps at most a bandwidth-delay product of packets in
 * flight past the cumulative ACK (IRN's BDP flow control): with more, a
 * single loss turns everything behind it into buffered out-of-order data
 * and a full window of timeouts on an incast. BDP = line rate x (base RTT
 * + a full frame's serialisation each way), in MTU packets, plus one. */
uint32_t nic_sr_limit(const struct nic_params *p, uint64_t rate_bps, uint64_t base_rtt_ps,
		      uint32_t mtu)
{
	uint64_t frame_ps = rate_bps ? pkt_ll_frame_ps(&pkt_ll_roce, mtu + 64, rate_bps) : 0;
	uint64_t bdp_bytes = (uint64_t)((unsigned __int128)rate_bps * (base_rtt_ps + 2 * frame_ps) /
					8 / UNITS_PS_PER_S);
	/* The requester learns of deliveries an ACK at a time: with one ACK
	 * per ack_every packets, that many more may be in flight before the
	 * cumulative ACK moves (IRN assumes an ACK per packet). */
	uint64_t pkts = bdp_bytes / mtu + 2 + (p->ack_every_pkts ? p->ack_every_pkts - 1 : 0);

	if (p->recovery != NIC_RECOVERY_SR || !p->sr_bdp_fc)
		return p->sr_window_pkts ? p->sr_window_pkts : UINT32_MAX;
	return (uint32_t)(pkts < p->sr_window_pkts ? pkts : p->sr_window_pkts);
}

static int nic_validate_wr(const struct nic_qp *qp, const struct ibv_send_wr *wr)
{
	uint64_t bytes = 0;

	if (wr->opcode != IBV_WR_RDMA_WRITE && wr->opcode != IBV_WR_RDMA_WRITE_WITH_IMM &&
	    wr->opcode != IBV_WR_SEND && wr->opcode != IBV_WR_RDMA_READ)
		return -EINVAL;
	if (wr->num_sge < 0 || (wr->num_sge > 0 && !wr->sg_list))
		return -EINVAL;
	for (int i = 0; i < wr->num_sge; i++)
		bytes += wr->sg_list[i].length;
	/* RETH carries 32 bits of length; a message may not take half the
	 * PSN space (comparisons are on the 24-bit circle). */
	if (bytes > UINT32_MAX || nic_n_psns(bytes, qp->mtu_bytes) > NIC_PSN_MASK / 4)
		return -EINVAL;
	/* Memory: one SGE, inside the region of its lkey (a READ writes it). */
	if (qp->mem && (wr->num_sge > 1 ||
			(bytes && !nic_mr_check(qp->nic, wr->sg_list[0].lkey, wr->sg_list[0].addr, bytes,
						wr->opcode == IBV_WR_RDMA_READ ? IBV_ACCESS_LOCAL_WRITE
									       : 0))))
		return -EINVAL;
	return 0;
}

/* Double @qp's ring of requests, the outstanding ones kept at their
 * indices (a QP made for fewer requests than it ends up holding at once:
 * traffic's streamed collectives size theirs for what is in flight).
 * 0 or -ENOMEM. */
static int nic_qp_grow(struct nic_qp *qp)
{
	uint32_t ring = (qp->wr_mask + 1) * 2;
	struct nic_wr *w = ring ? calloc(ring, sizeof(*w)) : NULL;
	uint64_t *la = w && qp->wr_laddrs ? calloc(ring, sizeof(*la)) : NULL;

	if (!w || (qp->wr_laddrs && !la)) {
		free(w);
		return -ENOMEM;
	}
	for (uint32_t i = qp->done_idx; i != qp->post_idx; i++) {
		w[i & (ring - 1)] = qp->wrs[i & qp->wr_mask];
		if (la)
			la[i & (ring - 1)] = qp->wr_laddrs[i & qp->wr_mask];
	}
	free(qp->wrs);
	qp->wrs = w;
	if (la) {
		free(qp->wr_laddrs);
		qp->wr_laddrs = la;
	}
	qp->wr_mask = ring - 1;
	return 0;
}

int nic_post_send(struct nic_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	uint32_t n_wr = 0;

	*bad = NULL;
	if (!qp->connected || qp->state != NIC_QP_OK) {
		*bad = wr;
		return -EINVAL;
	}
	for (struct ibv_send_wr *w = wr; w; w = w->next, n_wr++) {
		if (nic_validate_wr(qp, w) != 0) {
			*bad = w;
			return -EINVAL;
		}
		if (nic_qp_outstanding(qp) + n_wr + 1 > qp->wr_mask + 1 &&
		    (!qp->grow || nic_qp_grow(qp) != 0)) {
			*bad = w;
			return -ENOMEM;
		}
	}
	for (struct ibv_send_wr *w = wr; w; w = w->next) {
		struct nic_wr *q = &qp->wrs[qp->post_idx++ & qp->wr_mask];

		q->wr_id = w->wr_id;
		q->bytes = 0;
		for (int i = 0; i < w->num_sge; i++)
			q->bytes += w->sg_list[i].length;
		q->opcode = (uint8_t)w->opcode;
		q->signaled = (w->send_flags & IBV_SEND_SIGNALED) != 0;
		q->imm_data = w->opcode == IBV_WR_RDMA_WRITE_WITH_IMM ? w->imm_data : 0;
		if (qp->mem)
			qp->wr_laddrs[(qp->post_idx - 1) & qp->wr_mask] = w->num_sge ? w->sg_list[0].addr : 0;
		q->remote_addr = w->wr.rdma.remote_addr;
		q->rkey = w->wr.rdma.rkey;
		q->first_psn = qp->post_psn;
		q->last_psn = nic_psn_add(qp->post_psn, nic_n_psns(q->bytes, qp->mtu_bytes) - 1);
		qp->post_psn = nic_psn_add(q->last_psn, 1);
		q->rd_seq = qp->rd_posted;
		if (q->opcode == IBV_WR_RDMA_READ)
			qp->rd_posted++;
		if (unlikely(nic_on_uet(qp->nic)))
			nic_uet_credit_posted(qp, q->bytes, nic_n_psns(q->bytes, qp->mtu_bytes));
	}
	nic_qp_activate(qp);
	return 0;
}
