/* Ports and links. A port is the egress side of one direction of a
 * full-duplex link: eight traffic-class FIFOs, a scheduler (strict priority
 * for some classes, deficit-weighted round robin for the rest), a serialiser
 * exact to the picosecond, and the propagation pipe to the peer port. A busy
 * port holds one pending event (end of the current frame, only when another
 * frame may follow it) and a pipe holds one (arrival of its head frame): at
 * most two event-queue operations per hop. */
#ifndef FAB_PORT_H
#define FAB_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ev.h"
#include "pkt.h"
#include "pkt_ll.h"
#include "units.h"

struct sim;
struct port;
struct port_pfc;
struct port_credit;
struct port_fault;
struct cap_file;

enum {
	PORT_PIPE_INLINE = 8,
	PORT_N_TC = 8,
	PORT_L2_BYTES = 12,       /* destination and source MAC a port writes */
	PORT_TC_CTRL = PORT_N_TC, /* "class" of MAC control frames in departing() */
};

/* What the node that owns a port does with it. */
struct port_ops {
	/* A frame arrived at @in (its last bit). Ownership of @m transfers. */
	void (*rx)(void *owner, struct port *in, struct rte_mbuf *m);
	/* The port is idle with empty queues: hand it the next frame to send
	 * (pkt_meta frame_bytes set), or NULL. May be NULL (switches). */
	struct rte_mbuf *(*pull)(void *owner, struct port *p);
	/* @m (@frame_bytes long) left queue @tc of @p (PORT_TC_CTRL for a MAC
	 * control frame) and starts serialisation: buffer release and egress
	 * marking go here. @tag is what the owner queued it with (0 for
	 * pulled and control frames), so that no packet has to be read back.
	 * May be NULL. */
	void (*departing)(void *owner, struct port *p, struct rte_mbuf *m, uint8_t tc,
			  uint32_t frame_bytes, uint32_t tag);
};

/* One packet in a queue or pipe, with what the port needs to know about it
 * so that it never has to touch the packet itself. */
struct port_slot {
	struct rte_mbuf *m;    /* the packet */
	uint64_t aux;          /* queues: frame bytes | owner's tag << 32; pipes: arrival time, ps */
};
enum { PORT_SLOTS_PER_LINE = 64 / sizeof(struct port_slot) };

/* A FIFO ring of slots that doubles when full (sized by the high-water mark
 * of a run, not per packet). Indices run free and are masked when used.
 * Traffic-class queues also keep their DWRR deficit and bytes sent here,
 * on the line a dequeue touches anyway. */
struct port_ring {
	struct port_slot *slots; /* mask + 1 slots, NULL until first use */
	uint32_t mask;           /* capacity - 1 */
	uint32_t head;           /* next out */
	uint32_t tail;           /* next in */
	uint32_t external;       /* slots were allocated (not the port's inline ones) */
	uint64_t bytes;          /* queues: frame bytes held */
	uint64_t out_bytes;      /* queues: frame bytes transmitted from this class */
	int64_t deficit;         /* queues: DWRR deficit counter, bytes */
};

static inline uint32_t port_ring_len(const struct port_ring *r) { return r->tail - r->head; }

/* The frames on a link, in arrival order: a FIFO of slots like a
 * port_ring's (aux is the arrival time) without the queue counters, so
 * that it shares a cache line with what an arrival needs of the peer. */
struct port_pipe {
	struct port_slot *slots; /* mask + 1 slots: the port's inline ones or allocated */
	uint32_t mask;           /* capacity - 1 */
	uint32_t head;           /* next to arrive */
	uint32_t tail;           /* next in */
	uint8_t external;        /* slots were allocated */
	uint8_t peer_credit;     /* the peer counts arriving blocks (port_credit.h) */
	uint8_t peer_cap;        /* the peer captures what it receives */
	uint8_t ll_kind;         /* enum pkt_ll_kind of the link (both ends share it):
				  * an arrival tells control frames with it */
};

static inline uint32_t port_pipe_len(const struct port_pipe *r) { return r->tail - r->head; }

/* Scheduler settings of an egress port. */
struct port_sched {
	uint8_t strict_mask;               /* TCs served by strict priority (higher TC first) */
	uint32_t quantum_bytes[PORT_N_TC]; /* DWRR quantum per TC (weight x base quantum) */
};

/* Counters of a port, as port_stats computes them. */
struct port_stats {
	uint64_t lost_pkts;               /* frames lost on the link (random loss) */
	uint64_t tx_pkts;                 /* frames transmitted */
	uint64_t tx_bytes;                /* frame bytes transmitted (incl. FCS) */
	uint64_t rx_pkts;                 /* frames received */
	uint64_t rx_bytes;                /* frame bytes received */
	uint64_t busy_ps;                 /* time spent serialising */
	uint64_t max_queue_bytes;         /* peak of the sum over TC queues */
	uint64_t tc_tx_bytes[PORT_N_TC];  /* transmitted per TC */
	uint64_t ctrl_tx_pkts;            /* MAC control (PFC) frames transmitted */
};

enum {
	PORT_F_CTRL = 1,  /* MAC control frames are queued */
	PORT_F_LOSSY = 2, /* frames may be lost or hurt on this direction (loss, faults) */
	PORT_F_WAKE = 4,  /* an event will restart the port at busy_until_ps */
	PORT_F_DOWN = 8,  /* its link is down (port_fault.h): what it sends is lost */
	PORT_F_CREDIT = 16, /* IB credit flow control (port_credit.h): its own port_next */
	PORT_F_XPAR = 32, /* its peer is in another partition (par.h): frames go by
			   * the partitions' outboxes */
};

/* A port whose peer is in another partition (PORT_F_XPAR). */
struct port_xpar {
	struct sim *rx_sim;   /* the peer's partition, which owns the frames on this
			       * direction's wire */
	struct ev_src rx_src; /* identity of the arrival events the peer's partition
			       * schedules (src's id, its own sequence) */
	uint32_t xid;         /* its index among such ports (par_xport_add) */
};

/* Hot-path struct, kept inline: nodes embed their ports. The fields of a
 * hop sit in the first three cache lines: line 0 is what starting a frame
 * reads (ops, owner, capture, delay, event identity), line 1 the queueing
 * and transmit state with the MACs of sent frames, and line 2
 * the link: its in-flight FIFO with a copy of what an arrival needs of the
 * peer (its receive callback and owner), so that an arrival reads the
 * sending port's line 2, one slot and the frame, nothing of the receiving
 * port. Then the FIFO's first slots, the class queues (each on its own
 * line), and what only setup, PFC, loss and reports read. Counters that
 * follow from others (bytes received, time busy) are computed by
 * port_stats, not kept per frame. */
struct port {
	/* line 0: starting a frame */
	struct sim *sim;             /* owning simulation */
	const struct port_ops *ops;  /* owner's callbacks */
	void *owner;                 /* owner node */
	struct cap_file *cap;        /* capture both directions here, or NULL (port_set_capture) */
	uint64_t tx_pkts;            /* frames transmitted */
	uint64_t delay_ps;           /* propagation delay to the peer */
	struct ev_src src;           /* event identity of this port and its pipe */
	/* line 1: queueing (all a frame queued behind others touches here) */
	struct rte_mbuf *tx_pkt;     /* frame being serialised with an end-of-frame event
				      * (also set while its departing hook runs) */
	uint64_t busy_until_ps;      /* end of a frame sent without one (queue was empty) */
	uint64_t queue_bytes;        /* frame bytes in all queues */
	uint64_t max_queue_bytes;    /* its peak */
	uint32_t tx_bytes_cur;       /* frame bytes of tx_pkt */
	uint8_t nonempty_mask;       /* bit tc set when q[tc] holds packets */
	uint8_t paused_mask;         /* TCs that may not transmit (PFC) */
	uint8_t dwrr_cur;            /* DWRR: class whose turn it is */
	uint8_t dwrr_granted;        /* DWRR: dwrr_cur got its quantum this turn */
	uint8_t flags;               /* PORT_F_* */
	uint16_t wire_overhead_bytes; /* per frame on the wire besides its bytes: the
				      * descriptor's (ll), kept on this line */
	uint32_t ps_per_byte;        /* serialisation per byte when the rate divides
				      * 8e12 (25..800 Gb/s: no remainder), else 0 */
	uint8_t l2[PORT_L2_BYTES];   /* the MACs of frames it sends: the next hop's
				      * (destination), then its own (source) */
	/* line 2 */
	struct port_pipe pipe;       /* frames in flight to the peer */
	struct port *peer;           /* the port at the other end */
	void (*peer_rx)(void *owner, struct port *in, struct rte_mbuf *m); /* peer->ops->rx */
	void *peer_owner;            /* peer->owner */
	uint64_t lost_bytes;         /* frame bytes lost on the link */
	struct rte_mbuf *pipe_head;  /* the frame at the pipe's head (arriving next): read
				      * with this line, not after it from the slot */
	struct port_slot pipe_inline[PORT_PIPE_INLINE]; /* the pipe's first slots (a link
					 * of 1 us at 100 Gb/s holds 3 full frames) */
	struct port_ring q[PORT_N_TC]; /* egress queues */
	/* cold */
	struct port_ring ctrl;       /* MAC control frames (PFC): sent first, never paused */
	struct port_pfc *pfc;        /* PFC state, NULL when the port does not do PFC */
	struct port_credit *credit;  /* IB credit state, NULL when the port has none */
	const struct pkt_ll *ll;     /* link layer (default pkt_ll_roce; port_set_ll) */
	uint64_t loss_ppb;           /* random frame loss on this direction, parts per 1e9 */
	struct port_fault *fault;    /* link faults of this direction (port_fault.h), or NULL */
	uint64_t rng;                /* its random stream (splitmix64 state) */
	uint64_t lost_pkts;          /* frames lost on the link */
	uint64_t ctrl_tx_pkts;       /* MAC control frames transmitted */
	uint64_t ctrl_tx_bytes;      /* and their bytes */
	struct port_sched sched;     /* scheduler settings */
	uint64_t rate_bps;           /* line rate */
	uint64_t ser_rem;            /* serialisation remainder, 1/rate_bps ps units (rates
				      * without ps_per_byte) */
	uint16_t index;              /* port number on its node */
	uint32_t node;               /* owning node index (topology) */
	struct port_xpar *xpar;      /* PORT_F_XPAR: what the peer's partition needs
				      * (port_connect makes it; else NULL: kept apart,
				      * so that a port stays 14 lines) */
} __attribute__((aligned(64)));
static_assert(sizeof(struct port) <= 14 * 64, "struct port: fourteen lines (one per port of a run)");

_Static_assert(offsetof(struct port, tx_pkt) == 64 && offsetof(struct port, pipe) == 128 &&
		       offsetof(struct port, pipe_inline) == 192,
	       "struct port: the hot fields must keep their cache lines (see above)");

/* The counters of @p (received ones from what its peer sent and what is
 * still on the link). */
void port_stats(const struct port *p, struct port_stats *out);
/* Frame bytes transmitted so far (all classes and control frames). */
uint64_t port_tx_bytes(const struct port *p);

/* Initialise @p owned by @owner with @ops. Rates and delays come from the
 * link; call port_connect for both directions. */
void port_init(struct port *p, struct sim *sim, const struct port_ops *ops, void *owner,
	       uint32_t node, uint16_t index);
/* Hand @p to another owner (a live port taking a host port's place,
 * live/): its callbacks and what its peer keeps of them. */
void port_set_owner(struct port *p, const struct port_ops *ops, void *owner);
/* Wire @a and @b together as the two directions of one link (after both
 * are initialised). */
void port_connect(struct port *a, struct port *b, uint64_t rate_bps, uint64_t delay_ps);

/* A frame @m from @p (PORT_F_XPAR), copied out of its partition's outbox
 * into the peer's pool, goes on the link's pipe due at @due_ps (par.c,
 * at the end of the window it was sent in). */
void port_xpar_deliver(struct port *p, struct rte_mbuf *m, uint64_t due_ps);
/* The line rate of @p's direction from now (port_connect sets both; a
 * rate fault, port_link_set_rate, changes them mid-run): the frame on the
 * wire keeps its time. */
void port_set_rate(struct port *p, uint64_t rate_bps);
/* This port's own MAC (source of the frames it sends, PFC included). */
static inline const uint8_t *port_mac(const struct port *p) { return p->l2 + 6; }
/* Set either or both (NULL leaves one as it is: a switch sets its own
 * when built and the next hop's when wired). */
void port_set_macs(struct port *p, const uint8_t own[6], const uint8_t next_hop[6]);
/* Capture what @p sends and receives into @cap (NULL: stop). */
void port_set_capture(struct port *p, struct cap_file *cap);
/* Free every packet still queued, serialising or in flight from @p, and the
 * rings. The port must not be used afterwards (its pending events too). */
void port_fini(struct port *p);

/* Queue @m (@frame_bytes long) on class @tc with the owner's @tag (handed
 * back to departing()) and start sending if idle. Always takes ownership. */
void port_enqueue_tag(struct port *p, struct rte_mbuf *m, uint8_t tc, uint32_t frame_bytes,
		      uint32_t tag);
static inline void port_enqueue(struct port *p, struct rte_mbuf *m, uint8_t tc,
				uint32_t frame_bytes)
{
	port_enqueue_tag(p, m, tc, frame_bytes, 0);
}
/* Frame bytes queued on class @tc of @p (the owner's view of one egress
 * queue, for marking, admission and path choice). */
static inline uint64_t port_tc_bytes(const struct port *p, uint8_t tc)
{
	return p->q[tc].bytes;
}
/* Frame bytes queued on @p, all traffic classes (not the frame on the
 * wire, nor MAC control frames): the egress's load, for path choice. */
static inline uint64_t port_queue_bytes(const struct port *p)
{
	return p->queue_bytes;
}
/* What @p still has to send at @now_ps: its queued frame bytes and the
 * rest of the frame on the wire (all of it when an event ends it, else
 * the bytes its remaining serialisation time is worth). An idle port and
 * one finishing a frame differ by that frame: the load adaptive path
 * choice weighs. */
static inline uint64_t port_backlog_bytes(const struct port *p, uint64_t now)
{
	uint64_t b = p->queue_bytes;

	if (p->tx_pkt)
		b += p->tx_bytes_cur;
	else if (p->busy_until_ps > now)
		b += (uint64_t)((unsigned __int128)(p->busy_until_ps - now) * p->rate_bps /
				(8 * UNITS_PS_PER_S));
	return b;
}
/* Is @p's link up? (Down: port_link_set_down, port_fault.h.) */
static inline bool port_up(const struct port *p)
{
	return !(p->flags & PORT_F_DOWN);
}
/* Frames queued on class @tc of @p. */
static inline uint32_t port_tc_len(const struct port *p, uint8_t tc)
{
	return port_ring_len(&p->q[tc]);
}
/* Called by port_flush_tc for each frame it removes: @m (@frame_bytes
 * long, queued with @tag) now belongs to the callee. */
typedef void (*port_flush_fn)(void *arg, struct rte_mbuf *m, uint32_t frame_bytes, uint32_t tag);
/* Remove every frame queued on class @tc of @p, oldest first, handing each
 * to @fn (which takes ownership). The port's byte counts, non-empty mask
 * and the class's DWRR deficit end as when the class empties by sending
 * (a flushed class gets no credit carried into its next backlog); the
 * frame on the wire is not touched. Returns the number of frames removed. */
uint32_t port_flush_tc(struct port *p, uint8_t tc, port_flush_fn fn, void *arg);
/* The frame queued last on class @tc of @p (the newest), or NULL when the
 * class is empty. */
static inline const struct port_slot *port_last(const struct port *p, uint8_t tc)
{
	const struct port_ring *q = &p->q[tc & (PORT_N_TC - 1)];

	return q->head == q->tail ? NULL : &q->slots[(q->tail - 1) & q->mask];
}
/* Take the frame queued last on class @tc of @p (the newest, not the next
 * to leave) into *@out (ownership with it); the port's counts as when it
 * leaves. False when the class is empty. Not on ports with IB credits. */
bool port_take_last(struct port *p, uint8_t tc, struct port_slot *out);
/* Tell an idle port that its owner has something to pull. */
void port_kick(struct port *p);
/* Set or clear the pause of class @tc; unpausing restarts an idle port.
 * (On a credit port these pauses are kept apart from the credit check.) */
void port_set_paused(struct port *p, uint8_t tc, bool paused);
/* Queue a MAC control frame (PFC); it goes before any queued data frame,
 * after the frame on the wire. Takes ownership. */
void port_send_ctrl(struct port *p, struct rte_mbuf *m);
/* Lose each frame sent on @p with probability @loss (0..1), drawn from a
 * stream seeded with @seed. */
void port_set_loss(struct port *p, double loss, uint64_t seed);

/* Serialisation time on @p's link layer of a frame of @frame_bytes at
 * @rate_bps (the line rate or a paced one), wire overhead (Ethernet:
 * preamble and inter-frame gap) included, in ps (rounded down; ports carry
 * the remainder). pkt_ll_frame_ps does it for a descriptor. */
static inline uint64_t port_frame_ps(const struct port *p, uint32_t frame_bytes,
				     uint64_t rate_bps)
{
	return pkt_ll_ser_ps(p->wire_overhead_bytes, frame_bytes, rate_bps);
}

/* Put @p on link layer @ll (before port_connect; both ends of a link must
 * share it). port_init sets pkt_ll_roce. */
void port_set_ll(struct port *p, const struct pkt_ll *ll);
/* Is @m, arriving over @p's link, a link-level control frame (Ethernet:
 * MAC control, EtherType 0x8808; IB: a flow-control packet)? */
static inline bool port_is_ctrl(const struct port *p, const struct rte_mbuf *m)
{
	return pkt_ll_is_ctrl(p->pipe.ll_kind, m);
}
/* The MACs a frame sent by @p carries (next hop's, then @p's own): a
 * forwarding node writes these 12 bytes over the frame's Ethernet
 * addresses. */
static inline const uint8_t *port_l2(const struct port *p)
{
	return p->l2;
}
/* Classes of @p's egress that may not transmit now (PFC; on a credit
 * port, the classes whose head frame waits for credits). */
static inline uint8_t port_paused_mask(const struct port *p)
{
	return p->paused_mask;
}
/* Port number of @p on its node. */
static inline uint16_t port_index(const struct port *p)
{
	return p->index;
}
/* Line rate and propagation delay of @p's link (0 before port_connect). */
static inline uint64_t port_rate_bps(const struct port *p)
{
	return p->rate_bps;
}
static inline uint64_t port_delay_ps(const struct port *p)
{
	return p->delay_ps;
}
/* The link layer kind of @p, for per-packet helpers (pkt_ll_ecn, ...). */
static inline uint8_t port_ll_kind(const struct port *p)
{
	return p->pipe.ll_kind;
}

#endif
