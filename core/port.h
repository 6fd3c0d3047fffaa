/* Ports and links. A port is the egress side of one direction of a
 * full-duplex link: eight traffic-class FIFOs, a scheduler (strict priority
 * for some classes, deficit-weighted round robin for the rest), a serialiser
 * exact to the picosecond, and the propagation pipe to the peer port. A busy
 * port holds one pending event (end of the current frame) and a pipe holds
 * one (arrival of its head frame): two event-queue operations per hop. */
#ifndef FAB_PORT_H
#define FAB_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "ev.h"
#include "pkt.h"
#include "units.h"

struct sim;
struct port;
struct cap_file;

enum { PORT_N_TC = 8 };

/* What the node that owns a port does with it. */
struct port_ops {
	/* A frame arrived at @in (its last bit). Ownership of @m transfers. */
	void (*rx)(void *owner, struct port *in, struct rte_mbuf *m);
	/* The port is idle with empty queues: hand it the next frame to send
	 * (meta->tc set), or NULL. May be NULL (switches). */
	struct rte_mbuf *(*pull)(void *owner, struct port *p);
	/* @m starts serialisation on @p (it left its queue): egress marking and
	 * buffer release go here. May be NULL. */
	void (*departing)(void *owner, struct port *p, struct rte_mbuf *m);
};

/* A FIFO of packets linked through pkt_meta.q_next. */
struct port_fifo {
	struct rte_mbuf *head;   /* next out */
	struct rte_mbuf *tail;   /* last in */
	uint32_t n_pkts;         /* packets queued */
	uint64_t bytes;          /* frame bytes queued */
};

/* Scheduler settings of an egress port. */
struct port_sched {
	uint8_t strict_mask;               /* TCs served by strict priority (higher TC first) */
	uint32_t quantum_bytes[PORT_N_TC]; /* DWRR quantum per TC (weight x base quantum) */
};

struct port_stats {
	uint64_t tx_pkts;                 /* frames transmitted */
	uint64_t tx_bytes;                /* frame bytes transmitted (incl. FCS) */
	uint64_t rx_pkts;                 /* frames received */
	uint64_t rx_bytes;                /* frame bytes received */
	uint64_t busy_ps;                 /* time spent serialising */
	uint64_t max_queue_bytes;         /* peak of the sum over TC queues */
	uint64_t tc_tx_bytes[PORT_N_TC];  /* transmitted per TC */
};

/* Hot-path struct, kept inline: nodes embed their ports. */
struct port {
	struct sim *sim;             /* owning simulation */
	struct ev_src src;           /* event identity of this port and its pipe */
	uint64_t rate_bps;           /* line rate */
	uint64_t ser_rem;            /* serialisation remainder, 1/rate_bps ps units */
	uint64_t delay_ps;           /* propagation delay to the peer */
	struct rte_mbuf *tx_pkt;     /* frame being serialised, NULL when idle */
	uint8_t nonempty_mask;       /* bit tc set when q[tc] holds packets */
	uint8_t dwrr_cur;            /* DWRR: class whose turn it is */
	uint8_t pipe_armed;          /* an arrival event is pending */
	uint8_t paused_mask;         /* TCs that may not transmit (PFC) */
	uint8_t dwrr_granted;        /* DWRR: dwrr_cur got its quantum this turn */
	struct port_fifo q[PORT_N_TC]; /* egress queues */
	uint64_t queue_bytes;        /* sum of q[].bytes */
	struct port_fifo pipe;       /* frames in flight to the peer */
	struct port *peer;           /* the port at the other end */
	const struct port_ops *ops;  /* owner's callbacks */
	void *owner;                 /* owner node */
	struct port_sched sched;     /* scheduler settings */
	int64_t deficit[PORT_N_TC];  /* DWRR deficit counters, bytes */
	struct cap_file *cap;        /* capture both directions here, or NULL */
	uint32_t node;               /* owning node index (topology) */
	uint16_t index;              /* port number on that node */
	struct port_stats stats;     /* counters */
};

/* Initialise @p owned by @owner with @ops. Rates and delays come from the
 * link; call port_connect for both directions. */
void port_init(struct port *p, struct sim *sim, const struct port_ops *ops, void *owner,
	       uint32_t node, uint16_t index);
/* Wire @a and @b together as the two directions of one link. */
void port_connect(struct port *a, struct port *b, uint64_t rate_bps, uint64_t delay_ps);

/* Queue @m on class pkt_meta(m)->tc and start sending if idle. Always takes
 * ownership. */
void port_enqueue(struct port *p, struct rte_mbuf *m);
/* Tell an idle port that its owner has something to pull. */
void port_kick(struct port *p);
/* Set or clear the pause of class @tc; unpausing restarts an idle port. */
void port_set_paused(struct port *p, uint8_t tc, bool paused);

/* Serialisation time of a frame of @frame_bytes at @rate_bps, preamble and
 * inter-frame gap included, in ps (rounded down; ports carry the remainder). */
static inline uint64_t port_frame_ps(uint32_t frame_bytes, uint64_t rate_bps)
{
	uint64_t rem = 0;

	return units_ser_ps((uint64_t)frame_bytes + PKT_WIRE_OVERHEAD_BYTES, rate_bps, &rem);
}

#endif
