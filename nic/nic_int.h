/* Private to nic/: the NIC and QP structures shared by the requester
 * (nic_tx.c) and responder (nic_rx.c) halves. */
#ifndef FAB_NIC_INT_H
#define FAB_NIC_INT_H

#include "nic.h"
#include "sim.h"

enum {
	NIC_QPN_BASE = 0x100,       /* first QP number handed out */
	NIC_PSN_MASK = 0xFFFFFF,    /* PSNs are 24 bits */
	NIC_PATTERN_BYTES = 4096,   /* payload pattern, one MTU */
};

/* A posted work request. */
struct nic_wr {
	uint64_t wr_id;        /* caller's id */
	uint64_t bytes;        /* message length */
	uint64_t remote_addr;  /* RETH VA */
	uint32_t rkey;         /* RETH R_Key */
	uint32_t last_psn;     /* PSN of its last packet, once segmented */
	uint8_t opcode;        /* enum ibv_wr_opcode */
	uint8_t signaled;      /* report a completion */
};

struct nic_qp {
	/* requester, hot */
	struct nic *nic;           /* owner */
	struct nic_qp *act_next;   /* circular list of QPs with data to send */
	struct nic_qp *act_prev;
	uint64_t next_ok_ps;       /* pacing: earliest next departure */
	uint64_t send_off;         /* bytes of the current request already segmented */
	uint32_t send_idx;         /* request being segmented (free-running index) */
	uint32_t done_idx;         /* oldest request not completed */
	uint32_t post_idx;         /* next free slot */
	uint32_t wr_mask;          /* ring size - 1 */
	uint32_t next_psn;         /* PSN of the next new packet */
	uint32_t mtu_bytes;        /* path MTU */
	uint8_t tc;                /* egress class of its data */
	uint8_t active;            /* on the active list */
	uint8_t connected;         /* nic_qp_connect done */
	uint16_t port;             /* NIC port index */
	uint32_t qpn;              /* own QP number */
	uint32_t dest_qpn;         /* peer QP number */
	struct pkt_addr addr;      /* header template */
	struct nic_wr *wrs;        /* send queue ring */
	void *cc_priv;             /* congestion-control state */
	/* responder */
	uint32_t expected_psn;     /* next PSN in order */
	uint32_t msn;              /* messages completed */
	uint32_t unacked_pkts;     /* in-order packets since the last ACK */
	uint64_t recv_bytes;       /* bytes of the message being received */
};

struct nic_port_state {
	struct nic_qp *act_head;   /* next QP in round-robin order */
	struct ev_src timer_src;   /* event identity of the pacing timer */
	uint64_t timer_ps;         /* armed pacing wake-up, 0 when none */
	uint8_t nh_mac[6];         /* next-hop MAC */
	uint8_t mac[6];            /* this port's MAC */
	struct nic *nic;           /* back pointer for the timer */
	uint16_t index;            /* port index */
};

struct nic {
	struct sim *sim;           /* owning simulation */
	struct nic_params p;       /* settings */
	uint32_t host;             /* host number */
	uint32_t ip;               /* IPv4, host order */
	uint16_t n_ports;          /* ports */
	uint8_t ack_tc;            /* class of ACKs */
	struct port *ports;        /* n_ports */
	struct nic_port_state *ps; /* n_ports */
	struct nic_qp **qps;       /* by qpn - NIC_QPN_BASE */
	uint32_t n_qps;            /* QPs created */
	uint32_t cap_qps;          /* slots in qps */
	nic_wc_fn wc_fn;           /* completion callback */
	void *wc_arg;              /* its argument */
	struct nic_stats stats;    /* counters */
	uint8_t pattern[NIC_PATTERN_BYTES]; /* materialised payload bytes */
};

static inline uint32_t nic_psn_add(uint32_t psn, uint32_t n) { return (psn + n) & NIC_PSN_MASK; }
/* Signed distance a - b on the 24-bit PSN circle. */
static inline int32_t nic_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

void nic_qp_activate(struct nic_qp *qp);
struct rte_mbuf *nic_pull(void *owner, struct port *p);
void nic_rx(void *owner, struct port *in, struct rte_mbuf *m);

#endif
