/* The RDMA NIC model: reliable-connected QPs behind a verbs-style API that
 * uses rdma-core's own types (ibv_qp_init_attr, ibv_qp_attr, ibv_send_wr,
 * ibv_wc). A requester segments each work request into path-MTU packets
 * with consecutive PSNs and real RoCEv2 headers, paced at the rate its
 * congestion-control instance allows; the responder checks PSN order,
 * completes messages, answers RDMA READs and acknowledges with coalesced
 * ACKs; ACKs complete work requests in order. Loss is recovered by
 * go-back-N (NAK on a PSN sequence error) or IRN-style selective repeat,
 * with a retransmission timer that backs off and finally fails the QP. The
 * responder is also the DCQCN notification point: CE-marked data makes it
 * send CNPs. Packets are built when the port can send them (pulled), so a
 * NIC holds no more mbufs than are on the wire. Memory is modelled on the
 * QPs that ask for it (qp_access_flags at connect): registered regions
 * (nic_reg_mr), keys checked on use, payload taken from and written to
 * the regions' real addresses. */
#ifndef FAB_NIC_H
#define FAB_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "cc.h"
#include "port.h"

struct sim;
struct nic;
struct nic_qp;

/* How a UET NIC picks each data packet's entropy value (nic_uet.c). */
enum nic_uet_spray {
	NIC_UET_SPRAY_OFF,       /* one EV per connection (ECMP as RoCE's flows) */
	NIC_UET_SPRAY_OBLIVIOUS, /* a random one of the connection's EVs per packet */
	NIC_UET_SPRAY_RECYCLE,   /* EVs acknowledged unmarked are used again (REPS) */
	NIC_UET_SPRAY_MIXED,     /* recycle; else the next EV of a cycle that skips
				  * those marked, trimmed or lost lately (path aware) */
};

/* Loss recovery of every QP of a NIC (both ends must agree). */
enum nic_recovery {
	NIC_RECOVERY_GBN, /* go-back-N from the PSN a NAK names (InfiniBand RC) */
	NIC_RECOVERY_SR,  /* selective repeat, after IRN (Mittal et al., SIGCOMM 2018) */
};

enum {
	NIC_RTO_DEFAULT_PS = 262144000,          /* 4.096 us x 2^6 (verbs timeout 6) */
	NIC_RTO_MAX_SHIFT_DEFAULT = 6,           /* default cap: rto_ps x 2^6 */
	NIC_RETRY_CNT_DEFAULT = 7,               /* as verbs' retry_cnt */
	NIC_SR_WINDOW_DEFAULT_PKTS = 1024,       /* selective-repeat window */
	NIC_CNP_DSCP_DEFAULT = 48,               /* ConnectX cnp_dscp */
	NIC_MAX_RD_ATOMIC = 16,                  /* READs outstanding per QP */
};

/* Fields marked "0: default" take the default named in the enum above when
 * left zero, so a zeroed struct with the first group filled in is valid. */
struct nic_params {
	uint32_t mtu_bytes;         /* path MTU: payload bytes per packet, 256..4096 */
	uint32_t ack_every_pkts;    /* responder ACKs at least every this many packets */
	bool payload;               /* materialise payload bytes (and the real ICRC) */
	bool vlan;                  /* tag frames with 802.1Q (nic.vlan_id given) */
	uint16_t vid;               /* VLAN id when tagged */
	uint8_t data_dscp;          /* DSCP of data when a workload names none (traffic
				     * reads it; the NIC sends what each QP is given) */
	uint8_t ack_dscp;           /* DSCP of ACK/NAK/CNP */
	uint8_t dscp_to_tc[64];     /* NIC egress class per DSCP (PCP = class; on IB the
				     * VL); set at assembly from the fabric's classes,
				     * not a key */
	const struct pkt_ll *ll;    /* link layer of the ports; NULL: pkt_ll_roce. Set at
				     * assembly (fabric.link_layer), not a key */
	uint8_t dscp_to_sl[64];     /* IB: service level per DSCP (the LRH's SL); set at
				     * assembly */
	bool ib_grh;                /* IB: packets carry a GRH; set at assembly */
	struct port_sched sched;    /* NIC egress scheduler; set at assembly (fabric.scheduler) */
	const struct cc_ops *cc;    /* congestion control of the QPs that name none
				     * (nic_qp_set_cc) */
	const struct cc_cfg_set *cc_cfg; /* nic.<algorithm>.* settings of every algorithm,
				     * shared by the NICs (the experiment's); NULL: none,
				     * so only algorithms without settings */
	/* reliability */
	enum nic_recovery recovery; /* loss recovery; 0 is go-back-N */
	uint64_t rto_ps;            /* first retransmission timeout; 0: default */
	bool rto_off;               /* no retransmission timer (nic.rto: off; verbs timeout
				     * 0): only NAKs recover losses */
	uint64_t rto_max_ps;        /* back-off cap (>= rto_ps); 0: rto_ps x 2^6 */
	uint8_t retry_cnt;          /* timeouts retried before the QP fails, 1..7; 0: default 7 */
	bool sr_bdp_fc;             /* selective repeat: at most a BDP in flight (IRN) */
	uint32_t sr_window_pkts;    /* selective repeat: PSNs tracked past the cumulative
				     * ACK, a power of two 64..2^22; 0: default */
	uint32_t sr_reorder_pkts;   /* selective repeat: a missing PSN is resent once a PSN
				     * more than this beyond it has arrived; 0: at the first
				     * NAK (IRN). Tolerates reordering (spraying, adaptive
				     * routing) */
	/* notification point (DCQCN) */
	uint8_t cnp_dscp;           /* DSCP (and so class) of CNPs; 0: default 48 */
	uint64_t cnp_interval_ps;   /* at most one CNP per QP per this; 0: a CNP for every
				     * CE-marked packet (taken as it is: no default) */
	/* UET (ll pkt_ll_uet): set at assembly from fabric.uet, not keys */
	uint8_t uet_spray;          /* enum nic_uet_spray */
	uint8_t uet_trim_dscp;      /* DSCP of a trimmed packet: such data is NACKed */
	uint8_t uet_trim_last_dscp; /* ... of one trimmed on the last hop: NACKed with code
				     * UET_TRIMMED_LASTHOP (equal to uet_trim_dscp: never) */
	uint8_t uet_rod;            /* reliable ordered delivery (ROD_REQ, go-back-N,
				     * NACKs of packets out of order); 0: RUD */
	uint32_t uet_evs;           /* entropy values a connection sprays over, >= 1 */
	uint64_t uet_seed;          /* seeds the EV draws (the experiment's seed) */
};

struct cfg_table;

/* The `nic:` keys (nic_cfg.c), filling struct nic_params: every key, its
 * default and range, read by cfg_schema_read. */
extern const struct cfg_table nic_cfg_table;
/* @p against the same table, for params not read from an experiment
 * (once its fields left zero took their defaults): each number in its
 * key's range, each name valid, and the rules between
 * keys (sr_window a power of two, sr_reorder below it, rto_max at least
 * rto). 0, or -EINVAL with @err saying which key ("nic.sr_window: ..."). */
int nic_params_check(const struct nic_params *p, char err[CFG_ERR_BYTES]);

struct nic_stats {
	uint64_t tx_data_pkts;      /* data packets sent */
	uint64_t tx_payload_bytes;  /* payload bytes sent */
	uint64_t rx_payload_bytes;  /* payload bytes accepted (each byte once: in order,
				     * or out of order into the selective-repeat window) */
	uint64_t tx_acks;           /* ACKs sent (NAKs not included) */
	uint64_t rx_acks;           /* ACKs received (NAKs not included) */
	uint64_t rx_out_of_seq;     /* data packets discarded: PSN ahead of expected */
	uint64_t rx_duplicate;      /* data packets discarded: PSN already received */
	uint64_t rx_icrc_errors;    /* materialised frames whose ICRC did not match */
	uint64_t rx_unknown_qp;     /* frames for a QP that does not exist (or not connected) */
	uint64_t rx_malformed;      /* frames whose headers could not be parsed */
	uint64_t rx_cnps;           /* CNPs received */
	uint64_t completions;       /* send work requests completed */
	uint64_t ack_alloc_fail;    /* ACKs, NAKs or CNPs not sent: the packet pool was empty */
	uint64_t retx_pkts;         /* packets sent again (requests and READ responses) */
	uint64_t timeouts;          /* retransmission timer expiries */
	uint64_t naks_tx;           /* NAKs (PSN sequence error) sent */
	uint64_t naks_rx;           /* NAKs received */
	uint64_t cnps_tx;           /* CNPs sent (notification point) */
	uint64_t qp_errors;         /* QPs that went to the error state */
	uint64_t tx_read_reqs;      /* READ requests sent (re-requests included) */
	uint64_t tx_read_resps;     /* READ response packets sent (also in tx_data_pkts) */
	uint64_t rx_ooo_accepted;   /* selective repeat: packets held out of order */
	uint64_t rx_read_dropped;   /* READ requests dropped: no response slot free */
	uint64_t access_errors;     /* requests the responder refused (a RETH outside the
				     * regions, or more data than it named): NAKed */
	uint64_t placed_bytes;      /* payload bytes written into registered memory (WRITEs
				     * as responder, READ responses as requester) */
	uint64_t rx_trimmed;        /* UET: data packets received trimmed (NACKed unless held) */
	uint64_t uet_credits;       /* UET RCCC: CREDIT packets sent (receivers) */
	uint64_t uet_credit_reqs;   /* UET RCCC: CREDIT_REQ packets sent (senders) */
};

enum nic_qp_state {
	NIC_QP_OK,    /* connected (or not yet), usable */
	NIC_QP_ERROR, /* retries exhausted: posts fail, nothing is sent */
};

/* Per-QP counters: requester-side fields count what this QP sent or
 * received as a requester, responder-side ones what it did as a responder. */
struct nic_qp_stats {
	uint64_t retx_pkts;         /* packets sent again (requests, READ responses) */
	uint64_t timeouts;          /* retransmission timer expiries */
	uint64_t naks_tx;           /* NAKs sent (responder) */
	uint64_t naks_rx;           /* NAKs received (requester) */
	uint64_t cnps_tx;           /* CNPs sent (responder, notification point) */
	uint64_t cnps_rx;           /* CNPs received (requester, reaction point) */
	uint64_t read_rereqs;       /* READs re-requested after lost responses */
	uint8_t state;              /* enum nic_qp_state */
};

/* Called for every completion (sender side: the work request is
 * acknowledged, or the READ's data arrived; receiver side: IBV_WC_RECV for
 * each SEND message, IBV_WC_RECV_RDMA_WITH_IMM with wc_flags
 * IBV_WC_WITH_IMM and imm_data for each WRITE with immediate, byte_len the
 * message's length and wr_id the responder's message count, MSN: receive
 * queues are not modelled, so nothing is consumed and no RNR NAK is
 * sent). When a QP fails, every outstanding work request completes: the
 * oldest with IBV_WC_RETRY_EXC_ERR (retries ran out) or the status of the
 * NAK that refused it (IBV_WC_REM_ACCESS_ERR, IBV_WC_REM_INV_REQ_ERR), the
 * rest with IBV_WC_WR_FLUSH_ERR (signaled or not). */
typedef void (*nic_wc_fn)(void *arg, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps);

/* A NIC for host number @host (topology node @node) with @n_ports ports,
 * port i of which is endpoint @first_ep + i: it sends from that
 * endpoint's address (core/addr.h).
 * NULL with errno set on failure: EINVAL for params nic_params_check
 * refuses (once the fields left zero took their defaults) or a congestion
 * control without init (or with settings and no cc_cfg), ENOMEM. */
struct nic *nic_new(struct sim *sim, uint32_t node, uint32_t host, uint32_t first_ep,
		    uint16_t n_ports, const struct nic_params *p);
void nic_free(struct nic *n); /* NULL is fine; frees its QPs */
struct port *nic_port(struct nic *n, uint16_t i);
uint16_t nic_n_ports(const struct nic *n);
/* The simulation the NIC runs in (its partition's in a parallel run). */
struct sim *nic_sim(const struct nic *n);
uint32_t nic_host(const struct nic *n);
/* IPv4 address (host order) of port @i: that of its endpoint. */
uint32_t nic_port_ip(const struct nic *n, uint16_t i);
const struct nic_stats *nic_stats(const struct nic *n);
void nic_set_wc_cb(struct nic *n, nic_wc_fn fn, void *arg);
/* Set the MAC of the next hop behind port @i (set when wiring). */
void nic_set_next_hop_mac(struct nic *n, uint16_t i, const uint8_t mac[6]);

/* Create an RC QP (qp_type must be IBV_QPT_RC; cap.max_send_wr bounds the
 * posted, not yet completed, work requests). NULL with errno set (EINVAL,
 * ENOMEM) on failure. */
struct nic_qp *nic_create_qp(struct nic *n, const struct ibv_qp_init_attr *attr);
uint32_t nic_qp_num(const struct nic_qp *qp);
/* The QP of @n numbered @qpn (a completion's qp_num), or NULL. */
struct nic_qp *nic_qp_find(struct nic *n, uint32_t qpn);
/* A pointer the caller keeps with @qp (verbs' qp_context); NULL until set. */
void nic_qp_set_user(struct nic_qp *qp, void *user);
void *nic_qp_user(const struct nic_qp *qp);
/* Connect @qp and make it ready to send (the INIT->RTR->RTS transitions in
 * one step). Reads attr->dest_qp_num, path_mtu (IBV_MTU_256..4096, must not
 * exceed the NIC's; with a NIC payload size that is not a power of two,
 * the next larger path MTU sends that size), sq_psn, rq_psn, ah_attr.port_num (1-based),
 * ah_attr.grh.dgid (IPv4-mapped IPv6, ::ffff:a.b.c.d, as RoCEv2 GIDs are),
 * ah_attr.grh.traffic_class (DSCP << 2) and qp_access_flags. With
 * qp_access_flags 0 (a zeroed attr) the QP does not model memory: keys and
 * addresses are carried but not checked, payload comes from the NIC's
 * pattern and is dropped on arrival. Nonzero (IBV_ACCESS_REMOTE_WRITE,
 * IBV_ACCESS_REMOTE_READ, IBV_ACCESS_LOCAL_WRITE) it does, as verbs: its
 * SGEs must lie in regions of their lkey (nic_post_send), a WRITE or READ
 * it receives must be allowed by these flags and name a region of the NIC
 * with that remote access covering its RETH (else the QP NAKs it with the
 * remote access error syndrome and goes to the error state), and with
 * nic.payload the bytes come from the SGE, land at the RETH's address
 * (READ: at the SGE). Such a QP needs go-back-N (selective repeat would
 * hold packets whose bytes are not kept). @base_rtt_ps feeds the QP's
 * congestion control. Returns 0 or -EINVAL (bad attribute, already
 * connected, memory under selective repeat, or no memory for the
 * selective-repeat bitmap). */
int nic_qp_connect(struct nic_qp *qp, const struct ibv_qp_attr *attr, uint64_t base_rtt_ps);
/* Give @qp its own congestion control @ops (a workload's algorithm)
 * instead of the NIC's; before nic_qp_connect. Its settings come from the
 * NIC's params (cc_cfg). @ops need not be registered (cc_register checks
 * what an experiment may name); the NIC needs its init. Returns 0 or
 * -EINVAL (connected, @ops has no init, or it has settings and the NIC's
 * params hold none). */
int nic_qp_set_cc(struct nic_qp *qp, const struct cc_ops *ops);
/* Tell @qp's congestion control how many links its path has (cc_qp.n_hops,
 * for a target delay that scales with hops); before nic_qp_connect.
 * Returns 0 or -EINVAL (connected). */
int nic_qp_set_hops(struct nic_qp *qp, uint32_t n_hops);
/* The QP's congestion control as its algorithm sees it (rate, window,
 * counters); NULL before nic_qp_connect. */
const struct cc_qp *nic_qp_cc(const struct nic_qp *qp);
/* Add the congestion-control counters of every QP of @n to @sum. */
void nic_cc_stats(const struct nic *n, struct cc_stats *sum);
/* The counters results read (nic_stats, and each QP's nic_qp_stats and
 * congestion-control counters) as words, for a NIC run in another process
 * (run/fabric_remote.c): how many, a copy into @w, and @w put back in
 * place of @n's. */
uint32_t nic_result_words(const struct nic *n);
void nic_result_save(const struct nic *n, uint64_t *w);
void nic_result_load(struct nic *n, const uint64_t *w);
/* Post a chain of work requests: IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM
 * (imm_data goes in the last packet's ImmDt; completes as IBV_WC_RDMA_WRITE),
 * IBV_WR_SEND or IBV_WR_RDMA_READ (completes as IBV_WC_RDMA_READ when its
 * last response arrives), any number of SGEs (their lengths add up; at most
 * one on a QP that models memory, whose SGE must lie in the region of its
 * lkey, with local write for a READ: where verbs would complete such a
 * request with IBV_WC_LOC_PROT_ERR, the post is refused). Every request is
 * validated before any is queued; on error *bad points at the first bad one
 * and nothing is queued. Returns 0, -EINVAL (bad request, QP not connected
 * or in error) or -ENOMEM (send queue full). */
int nic_post_send(struct nic_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
/* Work requests posted and not yet completed. */
uint32_t nic_qp_outstanding(const struct nic_qp *qp);
/* Let @qp's send queue grow past max_send_wr when full (its ring doubles)
 * instead of refusing a post with -ENOMEM: traffic's streamed
 * collectives size their QPs for what is in flight. */
void nic_qp_set_grow(struct nic_qp *qp);
const struct nic_qp_stats *nic_qp_stats(const struct nic_qp *qp);

/* Register @len bytes at @addr (memory of this process: the simulation's
 * NICs share it) with @access (IBV_ACCESS_LOCAL_WRITE, IBV_ACCESS_REMOTE_WRITE,
 * which needs local write, IBV_ACCESS_REMOTE_READ), as ibv_reg_mr: the
 * region's lkey and rkey (equal, never 0, never reused on @n) are what
 * SGEs and RETHs of QPs that model memory name. The NIC owns the returned
 * object until nic_dereg_mr or nic_free. NULL with errno set: EINVAL (NULL
 * or empty range, unknown flags, remote write without local write),
 * ENOMEM. */
struct ibv_mr *nic_reg_mr(struct nic *n, void *addr, size_t len, unsigned access);
/* Deregister @mr (of @n): its keys name nothing from now on. 0 or -EINVAL
 * (not a region of @n). */
int nic_dereg_mr(struct nic *n, struct ibv_mr *mr);

/* IPv4-mapped GID for an IPv4 address (host order). */
void nic_gid_from_ipv4(union ibv_gid *gid, uint32_t ip);

#endif
