/* The RDMA NIC model: reliable-connected QPs behind a verbs-style API that
 * uses rdma-core's own types (ibv_qp_init_attr, ibv_qp_attr, ibv_send_wr,
 * ibv_wc). A requester segments each work request into path-MTU packets
 * with consecutive PSNs and real RoCEv2 headers, paced at the rate its
 * congestion-control instance allows; the responder checks PSN order,
 * completes messages and acknowledges with coalesced ACKs; ACKs complete
 * work requests in order. Packets are built when the port can send them
 * (pulled), so a NIC holds no more mbufs than are on the wire. */
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

struct nic_params {
	uint32_t mtu_bytes;         /* path MTU: payload bytes per packet, 256..4096 */
	uint32_t ack_every_pkts;    /* responder ACKs at least every this many packets */
	bool payload;               /* materialise payload bytes (and the real ICRC) */
	bool vlan;                  /* tag frames with 802.1Q */
	uint16_t vid;               /* VLAN id when tagged */
	uint8_t ack_dscp;           /* DSCP of ACK/NAK/CNP */
	uint8_t dscp_to_tc[64];     /* NIC egress class per DSCP (PCP = class) */
	struct port_sched sched;    /* NIC egress scheduler */
	const struct cc_ops *cc;    /* congestion control for every QP */
};

struct nic_stats {
	uint64_t tx_data_pkts;      /* data packets sent */
	uint64_t tx_payload_bytes;  /* payload bytes sent */
	uint64_t rx_payload_bytes;  /* payload bytes accepted in order */
	uint64_t tx_acks;           /* ACKs sent */
	uint64_t rx_acks;           /* ACKs received */
	uint64_t rx_out_of_seq;     /* data packets discarded: PSN ahead of expected */
	uint64_t rx_duplicate;      /* data packets discarded: PSN already received */
	uint64_t rx_icrc_errors;    /* materialised frames whose ICRC did not match */
	uint64_t rx_unknown_qp;     /* frames for a QP that does not exist */
	uint64_t rx_cnps;           /* CNPs received */
	uint64_t completions;       /* send work requests completed */
	uint64_t ack_alloc_fail;    /* ACKs not sent: the packet pool was empty */
};

/* Called for every completion (sender side: the work request is
 * acknowledged; receiver side: IBV_WC_RECV for each SEND message). */
typedef void (*nic_wc_fn)(void *arg, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps);

/* A NIC for host number @host (topology node @node) with @n_ports ports. */
struct nic *nic_new(struct sim *sim, uint32_t node, uint32_t host, uint16_t n_ports,
		    const struct nic_params *p);
void nic_free(struct nic *n); /* NULL is fine; frees its QPs */
struct port *nic_port(struct nic *n, uint16_t i);
uint16_t nic_n_ports(const struct nic *n);
uint32_t nic_host(const struct nic *n);
const struct nic_stats *nic_stats(const struct nic *n);
void nic_set_wc_cb(struct nic *n, nic_wc_fn fn, void *arg);
/* Set the MAC of the next hop behind port @i (set when wiring). */
void nic_set_next_hop_mac(struct nic *n, uint16_t i, const uint8_t mac[6]);

/* Create an RC QP (qp_type must be IBV_QPT_RC; cap.max_send_wr bounds the
 * posted, not yet completed, work requests). NULL with errno set (EINVAL,
 * ENOMEM) on failure. */
struct nic_qp *nic_create_qp(struct nic *n, const struct ibv_qp_init_attr *attr);
uint32_t nic_qp_num(const struct nic_qp *qp);
/* Connect @qp and make it ready to send (the INIT->RTR->RTS transitions in
 * one step). Reads attr->dest_qp_num, path_mtu (IBV_MTU_256..4096, must not
 * exceed the NIC's), sq_psn, rq_psn, ah_attr.port_num (1-based),
 * ah_attr.grh.dgid (IPv4-mapped IPv6, ::ffff:a.b.c.d, as RoCEv2 GIDs are) and
 * ah_attr.grh.traffic_class (DSCP << 2). @base_rtt_ps feeds the QP's
 * congestion control. Returns 0 or -EINVAL. */
int nic_qp_connect(struct nic_qp *qp, const struct ibv_qp_attr *attr, uint64_t base_rtt_ps);
/* Post a chain of work requests: IBV_WR_RDMA_WRITE or IBV_WR_SEND, any
 * number of SGEs (their lengths add up). Every request is validated before
 * any is queued; on error *bad points at the first bad one and nothing is
 * queued. Returns 0, -EINVAL (bad request or QP not connected) or -ENOMEM
 * (send queue full). */
int nic_post_send(struct nic_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
/* Work requests posted and not yet completed. */
uint32_t nic_qp_outstanding(const struct nic_qp *qp);

/* IPv4-mapped GID for an IPv4 address (host order). */
void nic_gid_from_ipv4(union ibv_gid *gid, uint32_t ip);

#endif
