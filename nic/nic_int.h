/* Private to nic/: the NIC and QP structures shared by the transmit path
 * (nic_tx.c), the receive path and responder (nic_rx.c), the requester's
 * reliability (nic_rel.c: ACK/NAK handling, retransmission timer, selective
 * repeat bitmaps, failing a QP) and memory regions (nic_mem.c). */
#ifndef FAB_NIC_INT_H
#define FAB_NIC_INT_H

#include <assert.h>
#include <stddef.h>

#include "nic.h"
#include "pkt_view.h"
#include "sim.h"

enum {
	NIC_QPN_BASE = 0x100,       /* first QP number handed out */
	NIC_PSN_MASK = 0xFFFFFF,    /* PSNs are 24 bits */
	NIC_PATTERN_BYTES = 4096,   /* payload pattern, one MTU */
	NIC_RD_SLOTS = 2 * NIC_MAX_RD_ATOMIC, /* responder READ ring (room for re-requests) */
	NIC_SR_WINDOW_MIN_PKTS = 64,      /* one bitmap word */
	NIC_SR_WINDOW_MAX_PKTS = 1 << 22, /* well inside half the PSN space */
	/* Selective repeat responder: per held PSN, payload bytes and flags. */
	NIC_SLOT_BYTES_MASK = 0x1FFF, /* payload bytes, <= 4096 */
	NIC_SLOT_KIND_SHIFT = 13,     /* the packet's enum nic_rx_kind bits */
	/* Memory regions (nic_mem.c): keys are NIC_MR_KEY_BASE + the region's
	 * index, never reused, so key 0 and a stale key name nothing. */
	NIC_MR_KEY_BASE = 0x100,
	NIC_MR_MAX = 1 << 20,         /* regions per NIC */
	NIC_MR_ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
};

/* What an in-order request packet does at the responder, by opcode
 * (nic_rx_kinds); kept per held packet in its slot, shifted by
 * NIC_SLOT_KIND_SHIFT. */
enum nic_rx_kind {
	NIC_RX_LAST = 1 << 0, /* last packet of its message */
	NIC_RX_SEND = 1 << 1, /* of a SEND: completes a receive (IBV_WC_RECV) */
	NIC_RX_IMM = 1 << 2,  /* carries ImmDt: the receive completion has it (a WRITE
			       * with immediate: IBV_WC_RECV_RDMA_WITH_IMM) */
};

/* A registered memory region: the verbs object the caller holds, embedded
 * (container_of gets back here), and what it allows. */
struct nic_mr {
	struct ibv_mr mr;      /* addr, length, lkey, rkey, handle (the index) */
	unsigned access;       /* enum ibv_access_flags it was registered with */
};

/* A posted work request. Its PSNs are fixed when it is posted: every packet
 * but the last carries a full MTU, so PSN first_psn + k is at byte offset
 * k x MTU, and any PSN maps back to (request, offset) by a binary search
 * over the outstanding requests. */
struct nic_wr {
	uint64_t wr_id;        /* caller's id */
	uint64_t bytes;        /* message length */
	uint64_t remote_addr;  /* RETH VA */
	uint32_t rkey;         /* RETH R_Key */
	uint32_t first_psn;    /* PSN of its first packet */
	uint32_t last_psn;     /* PSN of its last packet (a READ: of its last response) */
	uint32_t rd_seq;       /* READs posted before it (for the READ limit) */
	uint8_t opcode;        /* enum ibv_wr_opcode */
	uint8_t signaled;      /* report a completion */
	uint32_t imm_data;     /* IBV_WR_RDMA_WRITE_WITH_IMM: ImmDt as posted (network
				* order, as ibv_send_wr.imm_data); else 0 */
};

/* A READ the responder answers: responses req_psn..last_psn, pulled one at
 * a time like requests. */
struct nic_rd {
	uint64_t va;           /* RETH VA of the request */
	uint32_t bytes;        /* RETH length: bytes from req_psn on */
	uint32_t req_psn;      /* PSN of the request = of its first response */
	uint32_t next_psn;     /* next response to send */
	uint32_t last_psn;     /* last response */
};

struct nic_qp {
	/* requester, hot */
	struct nic *nic;           /* owner */
	struct nic_qp *act_next;   /* circular list of QPs with something to send */
	struct nic_qp *act_prev;
	uint64_t next_ok_ps;       /* pacing: earliest next departure */
	uint32_t send_idx;         /* request holding next_psn (free-running index) */
	uint32_t done_idx;         /* oldest request not completed */
	uint32_t post_idx;         /* next free slot */
	uint32_t wr_mask;          /* ring size - 1 */
	bool grow;                 /* the ring doubles when full (nic_qp_set_grow) */
	uint32_t next_psn;         /* next PSN the send pointer sends (go-back-N rewinds it) */
	uint32_t max_psn;          /* one past the highest PSN sent: below it, a resend */
	uint32_t ack_psn;          /* the responder holds every request PSN before this */
	uint32_t snd_una;          /* PSNs before this are done (ACKed; READs: answered) */
	uint32_t rd_head;          /* responder: oldest READ being answered (free-running);
				    * here because every send checks it */
	uint32_t rd_tail;          /* responder: next free READ slot */
	uint32_t mtu_bytes;        /* path MTU */
	uint8_t tc;                /* egress class of its data */
	uint8_t active;            /* on the active list */
	uint8_t connected;         /* nic_qp_connect done */
	uint8_t state;             /* enum nic_qp_state */
	uint8_t rd_rereq;          /* re-request the READ at snd_una */
	uint8_t rd_gap;            /* a response gap was re-requested (once per gap) */
	uint16_t port;             /* NIC port index */
	uint32_t qpn;              /* own QP number */
	uint32_t dest_qpn;         /* peer QP number */
	struct nic_wr *wrs;        /* send queue ring */
	uint64_t cc_rate_bps;      /* pacing rate (cc.rate_bps as last applied) */
	uint32_t cc_window_bytes;  /* bytes in flight allowed, 0: no window (cc.window_bytes) */
	uint8_t cc_send;           /* a send calls nic_cc_sent (on_send or on_ack set) */
	uint8_t mem;               /* models memory (connected with qp_access_flags): keys
				    * are checked, payload comes from and goes to regions */
	uint8_t retries_left;      /* timeouts still retried (timer state, below; here
				    * and rsp_sent in what would be a hole) */
	uint8_t rsp_sent;          /* responder: rsp_max_psn is valid */
	uint64_t *sack_bits;       /* selective repeat: PSNs the responder holds out of order,
				    * bit psn & sr_mask (see nic_rel.c); NULL with go-back-N */
	/* line 2: the first bytes of its data frames (a QP is line-aligned) */
	struct pkt_tmpl tmpl;
	struct pkt_addr addr;      /* addressing (ACKs and CNPs start from it) */
	/* requester, posting only */
	uint32_t post_psn;         /* first PSN of the next posted request */
	uint32_t rd_posted;        /* READs posted */
	/* requester, selective repeat (see nic_rel.c) */
	uint32_t sr_mask;          /* window - 1 */
	uint32_t sr_limit;          /* selective repeat: packets in flight past the ACK, at most */
	uint32_t rtx_psn;          /* retransmission scan: next PSN to consider */
	uint32_t lost_hi;          /* unsacked PSNs before this are lost */
	unsigned access;           /* memory: its qp_access_flags (IBV_ACCESS_REMOTE_*) */
	/* retransmission timer: one pending event at most, re-armed lazily
	 * (retries_left above) */
	uint64_t rto_deadline_ps;  /* when the oldest outstanding PSN times out; 0: idle */
	uint64_t rto_ev_ps;        /* time of the pending event; 0: none */
	uint64_t rto_cur_ps;       /* current timeout (backed off) */
	struct ev_src rto_src;     /* event identity of the timer */
	/* responder (rsp_sent above, nak_sent below: packed where they leave
	 * no hole, the QP stays ten lines) */
	uint32_t expected_psn;     /* next PSN in order */
	uint32_t msn;              /* messages completed */
	uint32_t unacked_pkts;     /* in-order packets since the last ACK */
	uint32_t rsp_max_psn;      /* one past the highest response PSN sent */
	uint64_t recv_bytes;       /* bytes of the message being received */
	uint64_t cnp_ok_ps;        /* earliest time of the next CNP */
	uint64_t *rcv_bits;        /* selective repeat: PSNs held out of order */
	uint16_t *rcv_slots;       /* their payload bytes and NIC_SLOT_* flags */
	struct nic_rd *rds;        /* READs being answered (ring of NIC_RD_SLOTS; rd_head,
				    * rd_tail above) */
	struct nic_qp_stats stats; /* counters */
	/* congestion control (nic.c, nic_cc_* below) */
	struct cc_qp cc;           /* what the algorithm sees and writes */
	uint64_t cc_ev_ps;         /* time of the live timer event; 0: none */
	struct ev_src cc_src;      /* event identity of the timer */
	uint64_t rtt_sent_ps;      /* send time of the PSN being timed */
	uint32_t rtt_psn;          /* the PSN being timed (the last of its packet) */
	uint8_t rtt_valid;         /* a PSN is being timed */
	uint8_t ecn_echo;          /* the QP's algorithm wants CE echoed in ACKs (both ends) */
	uint8_t ce_state;          /* responder: the packets since the last ACK were CE-marked */
	uint8_t nak_sent;          /* responder, go-back-N: the current gap was NAKed */
	void *user;                /* the caller's (nic_qp_set_user), as verbs' qp_context */
	/* memory (a QP with mem set; see nic_mem.c; access above) */
	uint64_t *wr_laddrs;       /* requester: per send-queue slot, its SGE's address */
	uint64_t rsp_va;           /* responder: RETH VA of the WRITE being received */
	uint64_t rsp_bytes;        /* ... and its RETH length */
	uint32_t *rcv_imms;        /* selective repeat: ImmDt of held packets that carry one,
				    * by psn & sr_mask; made at the first */
};

struct nic_port_state {
	/* One line each (line-aligned array). */
	_Alignas(64) struct nic_qp *act_head; /* next QP in round-robin order */
	uint64_t line_rate_bps;    /* the port's rate (set when a QP connects on it):
				    * pacing compares with it on this line */
	uint64_t timer_ps;         /* armed pacing wake-up, 0 when none */
	struct nic *nic;           /* back pointer for the timer */
	struct ev_src timer_src;   /* event identity of the pacing timer */
	uint8_t nh_mac[6];         /* next-hop MAC */
	uint8_t mac[6];            /* this port's MAC */
	uint16_t index;            /* port index */
};
static_assert(sizeof(struct nic_port_state) == 64, "a NIC port's state is one line");

struct nic {
	/* What every send and receive reads first, on one line (a NIC is
	 * line-aligned): the rest hangs off it. */
	struct sim *sim;           /* owning simulation */
	struct port *ports;        /* n_ports */
	struct nic_port_state *ps; /* n_ports */
	struct nic_qp **qps;       /* by qpn - NIC_QPN_BASE */
	uint32_t n_qps;            /* QPs created */
	uint32_t cap_qps;          /* slots in qps */
	uint32_t host;             /* host number */
	uint32_t first_ep;         /* endpoint of port 0: port i has the address of
				    * endpoint first_ep + i (core/addr.h) */
	uint16_t n_ports;          /* ports */
	uint8_t ack_tc;            /* class of ACKs */
	uint8_t cnp_tc;            /* class of CNPs */
	uint8_t ll_kind;           /* enum pkt_ll_kind of its ports (p.ll), read per
				    * received frame without touching the port */
	const struct cc_ops *cc;   /* p.cc: the algorithm of QPs that name none */
	/* line 1: what a data packet sent or received writes */
	uint8_t *pattern;          /* materialised payload bytes (NIC_PATTERN_BYTES) with
				    * p.payload, else NULL */
	struct nic_stats stats;    /* counters (the first seven on line 1) */
	struct nic_params p;       /* settings, defaults filled in */
	nic_wc_fn wc_fn;           /* completion callback */
	void *wc_arg;              /* its argument */
	const uint8_t *rx_int;     /* while a data frame carrying an INT stack is
				    * received: that stack, which the ACKs it causes
				    * echo (nic_send_ctl); else NULL */
	struct nic_mr **mrs;       /* registered regions by key - NIC_MR_KEY_BASE (NULL:
				    * deregistered) */
	uint32_t n_mrs;            /* keys handed out */
	uint32_t cap_mrs;          /* slots in mrs */
	/* UET (ll_kind PKT_LL_UET; nic_uet.c) */
	struct nic_uet_qp **uet;   /* per QP (by qpn - NIC_QPN_BASE), made at connect */
	uint32_t cap_uet;          /* slots in uet */
	uint16_t rx_ev;            /* while a data frame is received: its EV, which the
				    * ACK or NACK it causes carries back */
	uint8_t rx_ce;             /* ... whether it was CE-marked */
	uint8_t rx_retx;           /* ... whether it was a resend (its RETX flag) */
	uint32_t rx_psn;           /* ... and its PSN (the ACK's ACK_PSN_OFFSET) */
	struct nic_uet_pacer *uet_pacers; /* UET: per port, RCCC's credit pacer (made at
				    * the NIC's first QP connect); NULL on other NICs */
};
static_assert(offsetof(struct nic_qp, tmpl) == 128,
	      "struct nic_qp: a send reads its first two lines and the template on the third");
static_assert(sizeof(struct nic_qp) <= 640, "struct nic_qp: ten lines (one per QP of a run)");
static_assert(offsetof(struct nic, cc) == 56 && offsetof(struct nic, stats) == 72,
	      "struct nic: what a send reads must stay on its first two lines");

static inline uint32_t nic_psn_add(uint32_t psn, uint32_t n) { return (psn + n) & NIC_PSN_MASK; }
/* Signed distance a - b on the 24-bit PSN circle. */
static inline int32_t nic_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

static inline struct nic_wr *nic_wr_at(const struct nic_qp *qp, uint32_t idx)
{
	return &qp->wrs[idx & qp->wr_mask];
}

/* PSNs a message of @bytes takes at @mtu: one per packet, at least one. */
static inline uint32_t nic_n_psns(uint64_t bytes, uint32_t mtu)
{
	return bytes ? (uint32_t)((bytes + mtu - 1) / mtu) : 1;
}

static inline bool nic_bit_test(const uint64_t *bits, uint32_t mask, uint32_t psn)
{
	uint32_t i = psn & mask;

	return (bits[i >> 6] >> (i & 63)) & 1;
}

static inline void nic_bit_set(uint64_t *bits, uint32_t mask, uint32_t psn)
{
	uint32_t i = psn & mask;

	bits[i >> 6] |= UINT64_C(1) << (i & 63);
}

static inline void nic_bit_clear(uint64_t *bits, uint32_t mask, uint32_t psn)
{
	uint32_t i = psn & mask;

	bits[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* nic_mem.c */
/* The region key @key names on @n if it covers [@addr, @addr + @len) and
 * allows every access in @need (0: local read), else NULL. */
const struct nic_mr *nic_mr_check(const struct nic *n, uint32_t key, uint64_t addr, uint64_t len,
				  unsigned need);
void nic_mrs_free(struct nic *n);

/* nic_tx.c */
void nic_qp_activate(struct nic_qp *qp);
uint32_t nic_sr_limit(const struct nic_params *p, uint64_t rate_bps, uint64_t base_rtt_ps,
		      uint32_t mtu);
void nic_qp_deactivate(struct nic_qp *qp);
/* The rate of a QP waiting for its next departure rose from @old_bps to
 * @new_bps: shorten the wait in proportion (a rate limiter recomputes). */
void nic_qp_repace(struct nic_qp *qp, uint64_t old_bps, uint64_t new_bps);
struct rte_mbuf *nic_pull(void *owner, struct port *p);

/* nic_rx.c */
void nic_rx(void *owner, struct port *in, struct rte_mbuf *m);
/* Send an ACK/NAK (@opcode PKT_OP_ACK, AETH @syndrome and @msn), a CNP
 * (PKT_OP_CNP) or, on UET, a CREDIT or CREDIT_REQ (PKT_UET_OP_CREDIT*,
 * the credit in @msn) to @qp's peer, ahead of data in its own class. */
void nic_send_ctl(struct nic *n, struct nic_qp *qp, uint8_t opcode, uint32_t psn,
		  uint8_t syndrome, uint32_t msn);
void nic_complete(struct nic *n, struct nic_qp *qp, const struct nic_wr *wr,
		  enum ibv_wc_opcode op, enum ibv_wc_status status);
/* HPCC: the INT stack a received ACK @m (viewed by @h, pkt_view_bth)
 * echoes, the records of the switches on the data packet's path in path
 * order, decoded into @hops (full or compact records alike): ts_ps
 * (dequeue time, ps mod ts_wrap_ps), tx_bytes (bytes the egress port had
 * sent, mod tx_wrap_bytes: take differences with pkt_int_hop_ts_delta_ps
 * and pkt_int_hop_tx_delta_bytes), qlen_bytes and rate_bps. Returns the
 * number of hops (0: the ACK carries no stack), or -EINVAL when its stack
 * is malformed. For the congestion-control call on an ACK. */
int nic_ack_int(const struct rte_mbuf *m, const struct pkt_view *h,
		struct pkt_int_hop hops[PKT_INT_MAX_HOPS]);

/* nic.c: congestion control */
/* Apply what the algorithm wrote after one of its hooks ran: rate and
 * window into the pacer, its timer request into at most one live event. */
void nic_cc_apply(struct nic_qp *qp);
/* A packet covering @psn..@end_psn with @bytes of payload left (@retx: a
 * resend); called when qp->cc_send. */
void nic_cc_sent(struct nic_qp *qp, uint32_t psn, uint32_t end_psn, uint32_t bytes, bool retx);

/* nic_rel.c: requester reliability */
int nic_qp_rel_init(struct nic_qp *qp);       /* at connect; 0 or -ENOMEM */
void nic_qp_rel_fini(struct nic_qp *qp);      /* frees the bitmaps */
uint32_t nic_wr_find(const struct nic_qp *qp, uint32_t psn); /* request holding @psn */
void nic_rto_on_send(struct nic_qp *qp);      /* a request packet left */
/* Restart the retransmission timer from now (UET: a NACK came, so what
 * is still in flight was sent since). */
void nic_rto_restart(struct nic_qp *qp);
/* The responder holds every PSN before @upto_psn: complete what that
 * allows; returns the bytes of the requests completed. */
uint64_t nic_req_acked(struct nic_qp *qp, uint32_t upto_psn);
void nic_req_answered(struct nic_qp *qp, uint32_t psn); /* READ response @psn came in order */
/* NAK (PSN sequence error) expecting @psn; @sack_psn (selective repeat)
 * arrived out of order. */
void nic_req_nak(struct nic_qp *qp, uint32_t psn, uint32_t sack_psn);
/* A NAK of an error class (remote access, invalid request, remote
 * operational) for the request at @psn: what came before it completes;
 * it completes with @st and the QP fails (rxe's completer does the same). */
void nic_req_refused(struct nic_qp *qp, uint32_t psn, enum ibv_wc_status st);
/* Put @qp in the error state: every outstanding request completes, the
 * oldest with @st, the rest with IBV_WC_WR_FLUSH_ERR. */
void nic_qp_fail(struct nic_qp *qp, enum ibv_wc_status st);
/* Selective repeat: the next lost PSN to resend, false when none. */
bool nic_sr_next_lost(struct nic_qp *qp, uint32_t *psn);
/* Responder bitmaps (selective repeat), allocated at first use. */
int nic_rcv_window_get(struct nic_qp *qp);

/* nic_rel.c: bitmaps */
/* Clear the bits of the @n PSNs from @from (the window slid past them). */
void nic_bits_clear_range(uint64_t *bits, uint32_t mask, uint32_t from, uint32_t n);

/* nic_uet.c: UET's entropy values, trim NACKs and SACK bitmaps (only on a
 * NIC whose ll_kind is PKT_LL_UET) */
int nic_uet_connect(struct nic_qp *qp);      /* at connect; 0 or -1 (no memory) */
void nic_uet_free(struct nic *n);
uint16_t nic_uet_ev(struct nic_qp *qp);      /* the next data packet's EV; 0: the QP's */
/* An ACK or NACK came back on @ev: @penalty 0 when it was unmarked (the
 * EV may be recycled), else its marked (ECN) or trimmed penalty. */
void nic_uet_ev_feedback(struct nic_qp *qp, uint16_t ev, uint8_t penalty);
enum { NIC_UET_FEEDBACK_ECN = 1, NIC_UET_FEEDBACK_TRIM = 4 };
void nic_uet_nacked(struct nic_qp *qp, uint32_t psn); /* a trim NACK of @psn */
bool nic_uet_next_nacked(struct nic_qp *qp, uint32_t *psn); /* one to resend first */
void nic_uet_resent(struct nic_qp *qp, uint32_t psn); /* ... and it went */
/* PSNs resent on a NACK (selective repeat's scan skips them), by psn & sr_mask. */
const uint64_t *nic_uet_resent_bits(const struct nic_qp *qp);
void nic_uet_acked(struct nic_qp *qp, uint32_t from, uint32_t n); /* window slid */
void nic_uet_timeout(struct nic_qp *qp);     /* the timer expired */
/* Data packet @psn left (@retx: a resend): its send time, for RTT samples. */
void nic_uet_sent(struct nic_qp *qp, uint32_t psn, bool retx);
/* The RTT an ACK of @psn (RETX flag @retx) gives: 0 when the PSN's send
 * time is not known or is not the one it answers (Karn's rule). */
uint64_t nic_uet_rtt(const struct nic_qp *qp, uint32_t psn, bool retx);
/* Packets in flight (sent, resends too, not yet ACKed, SACKed or NACKed),
 * and whether the QP's window lets one more go (no window: yes). */
uint32_t nic_uet_flight(const struct nic_qp *qp);
bool nic_uet_window_ok(const struct nic_qp *qp);
/* PSNs the responder holds past the cumulative ACK (set in sack_bits). */
uint32_t nic_uet_sacked(const struct nic_qp *qp);
/* A SACK newly covered one more PSN. */
void nic_uet_sack_add(struct nic_qp *qp);
/* PSNs that this ACK newly told delivered (its cumulative advance over
 * PSNs not SACKed before, and its new SACKs): read and reset. */
uint32_t nic_uet_delivered_take(struct nic_qp *qp);
/* Responder: whether the in-order packet @h is ACKed at once (a message's
 * first packet, a CE-marked one). */
bool nic_uet_ack_now(const struct pkt_view *h);
/* Requester: the ACK @m (viewed by @h) to the QP's algorithm (nic_rx.c's
 * nic_cc_ack for UET: bytes delivered, SACKs counted; the RTT of the
 * packet it answers). */
void nic_cc_ack_uet(struct nic *n, struct nic_qp *qp, const struct rte_mbuf *m,
		    const struct pkt_view *h);
/* Responder: which of the 64 PSNs from @base it holds (ACK_CC's SACK bitmap). */
uint64_t nic_uet_sack_bits(const struct nic_qp *qp, uint32_t base);

/* nic_uet_credit.c: RCCC, receiver credit (QPs whose algorithm has
 * CC_F_CREDIT; the others pass through every call untouched) */
struct nic_uet_credit;
/* At a UET NIC's first QP connect: its ports' credit pacers (n->uet_pacers). 0 or -1. */
int nic_uet_pacers_new(struct nic *n);
/* At connect: the QP's credit state into *@out. 0 or -1 (no memory, no settings). */
int nic_uet_credit_connect(struct nic_qp *qp, struct nic_uet_credit **out);
void nic_uet_credit_free(struct nic_qp *qp, struct nic_uet_credit *cr);
/* The QP runs RCCC. */
bool nic_uet_has_credit(const struct nic_qp *qp);
/* Sender: whether credit lets a data packet go now (no RCCC: yes). */
bool nic_uet_credit_ok(const struct nic_qp *qp);
/* Sender: a data packet of @payload_bytes leaves (@retx: a resend): spend
 * its wire bytes (frame, preamble, gap), and the credit target it carries
 * (24 bits); *@ar set when credit ran out. Only for a QP with RCCC. */
uint32_t nic_uet_credit_send(struct nic_qp *qp, uint32_t payload_bytes, bool retx, bool *ar);
/* Sender: @bytes in @pkts packets were posted. */
void nic_uet_credit_posted(struct nic_qp *qp, uint64_t bytes, uint32_t pkts);
/* Sender: an ACK or NACK came (speculation ends); a NACK queued a resend;
 * the timer expired with @lost_pkts to resend. */
void nic_uet_credit_heard(struct nic_qp *qp);
void nic_uet_credit_nacked(struct nic_qp *qp);
void nic_uet_credit_timeout(struct nic_qp *qp, uint32_t lost_pkts);
/* Receiver: a data packet carried credit target @target (24 bits); @ask:
 * it came trimmed (credit is asked for even if the target did not grow). */
void nic_uet_credit_target(struct nic_qp *qp, uint32_t target, bool ask);
/* A CREDIT (sender) or CREDIT_REQ (receiver) @h for @qp. */
void nic_uet_rx_credit(struct nic_qp *qp, const struct pkt_view *h);
/* A QP joined (@d 1) or left (-1) port @port's send list (RCCC shares a
 * sender's asking among them). */
void nic_uet_credit_act(struct nic *n, uint16_t port, int d);

static inline bool nic_on_uet(const struct nic *n)
{
	return n->ll_kind == PKT_LL_UET;
}

/* UET's reliable unordered delivery (RUD: selective repeat, SACKs, the
 * NACK ring, the window counted packet by packet); ROD runs the NIC's
 * go-back-N with UET's frames. */
static inline bool nic_uet_rud(const struct nic *n)
{
	return n->ll_kind == PKT_LL_UET && n->p.recovery == NIC_RECOVERY_SR;
}

/* Does @n send native InfiniBand (nic_params.ll)? */
static inline bool nic_on_ib(const struct nic *n)
{
	return n->ll_kind == PKT_LL_IB;
}

/* The derived values of @p: the defaults of the fields left zero
 * (nic_cfg.c; nic_new and nic_params_check apply it to a copy). */
void nic_params_resolve(struct nic_params *p);

#endif
