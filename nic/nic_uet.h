/* Private to nic_uet.c and nic_uet_credit.c: a QP's UET state (entropy
 * values, NACK ring, flight; RCCC's credit as sender and as receiver) and
 * a port's credit pacer. */
#ifndef FAB_NIC_UET_H
#define FAB_NIC_UET_H

#include "cc_rccc.h"
#include "nic_int.h"

enum {
	NIC_UET_NACK_RING = 256, /* NACKed PSNs waiting for their resend */
	NIC_UET_EV_CACHE = 16,   /* recycled EVs waiting for a packet */
	NIC_UET_EV_BASE = 0xC000, /* the dynamic port range, as RoCE's entropy */
	NIC_UET_EV_MASK = 0x3FFF,
	/* mixed: the most penalty an EV gathers (NIC_UET_FEEDBACK_* add to it:
	 * a mark 1, a trim 4; uet-htsim's bitmap spraying, uec_mp.cpp) */
	NIC_UET_PENALTY_MAX = 15,
};

struct nic_uet_qp {
	uint64_t rng;              /* splitmix64 state of the EV draws */
	uint16_t ev_first;         /* the connection's first EV (its hash) */
	uint16_t ev_step;          /* odd: EV k is first + k x step (14 bits) */
	uint16_t evs[NIC_UET_EV_CACHE]; /* recycle: EVs to use again, FIFO */
	uint8_t ev_head;           /* oldest of them */
	uint8_t ev_n;              /* how many */
	uint32_t ring[NIC_UET_NACK_RING]; /* NACKed PSNs to resend */
	uint32_t ring_head;        /* free-running */
	uint32_t ring_tail;
	uint64_t *resent;          /* PSNs resent on a NACK, by psn & sr_mask */
	uint64_t *sent_ps;         /* by psn & sr_mask: the last send time, bit 0 set
				    * when it was a resend */
	uint32_t sacked;           /* PSNs past ack_psn set in sack_bits */
	uint32_t flight;           /* packets sent (resends too) and not yet ACKed,
				    * SACKed or NACKed: what the window bounds */
	uint32_t delivered;        /* PSNs the ACK being handled told delivered */
	/* mixed: a cycle over the EVs in an order permuted anew each cycle,
	 * skipping penalised ones (a penalty drops by one at each skip) */
	uint8_t *penalty;          /* per EV index; NULL unless mixed */
	uint16_t step_inv;         /* ev_step's inverse mod 2^16 (EV back to index) */
	uint32_t cycle_pos;        /* next position in the cycle */
	uint32_t cycle_mask;       /* this cycle's XOR permutation */
	uint32_t cycle_bits;       /* the cycle's length: a power of two >= evs */
	/* RCCC (nic_uet_credit.c): the QP's algorithm has CC_F_CREDIT */
	struct nic_uet_credit *cr; /* NULL when it does not */
};

/* RCCC state of one QP (nic_uet_credit.c says how it runs): as sender
 * (credit, what it asks for) and as receiver (what it grants, its place
 * in its port's pacer). Credit and targets count in PKT_UET_CREDIT_UNIT
 * bytes, 64 bits here (the wire carries their low 24 bits). */
struct nic_uet_credit {
	struct nic_qp *qp;          /* owner */
	const struct cc_rccc_cfg *cfg; /* its nic.rccc settings */
	/* sender */
	int64_t credit;             /* wire bytes it may send now (below 0: spent ahead) */
	int64_t max_credit;         /* the most it holds, and its speculative start */
	int64_t backlog;            /* wire bytes posted and not yet sent */
	int64_t pkt_extra;          /* wire bytes of a data packet besides its payload */
	int64_t granted_in;         /* credit granted so far (units; the last CREDIT's) */
	int64_t target_out;        /* the highest target it sent (units) */
	uint64_t req_ps;            /* when its last CREDIT_REQ left; 0: never */
	uint64_t req_gap_ps;        /* at most one CREDIT_REQ per this (its base RTT) */
	uint32_t rtx_pkts;          /* packets waiting for a resend */
	uint64_t wait_ps;           /* its credit wait's pending event; 0: none */
	uint64_t wait_gap_ps;       /* the wait: nic.rto, doubled at each CREDIT_REQ it
				     * sends, back to nic.rto when a CREDIT comes */
	struct ev_src wait_src;     /* event identity of the credit wait */
	uint8_t speculating;        /* no credit heard yet: spending its own */
	/* receiver */
	int64_t target_in;          /* the highest credit target heard (units) */
	int64_t granted_out;        /* credit granted (units) */
	uint8_t listed[2];          /* on its port pacer's list NIC_CREDIT_ACTIVE / _IDLE */
	struct nic_uet_credit *next[2]; /* the links of those lists */
};

enum {
	NIC_CREDIT_ACTIVE,          /* connections whose target passed their grants */
	NIC_CREDIT_IDLE,            /* connections granted their target */
};

/* A FIFO of connections (linked by their next[] of the list's index). */
struct nic_credit_list {
	struct nic_uet_credit *head, *tail;
};

/* A port's credit pacer: grants credit, one CREDIT packet at a time,
 * round robin over the connections with credit asked for (active), else
 * speculative credit to those that asked for none (idle). */
struct nic_uet_pacer {
	struct nic *nic;
	uint16_t port;
	uint8_t running;            /* an event is pending */
	uint32_t n_act;             /* QPs on the port's send list (nic_tx.c's active
				     * ring): a sender shares its asking among them */
	struct nic_credit_list list[2]; /* NIC_CREDIT_ACTIVE, NIC_CREDIT_IDLE */
	struct ev_src src;          /* event identity of its next grant */
};

static inline struct nic_uet_qp *nic_uet_of(const struct nic_qp *qp)
{
	return qp->nic->uet[qp->qpn - NIC_QPN_BASE];
}

#endif
