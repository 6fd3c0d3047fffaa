/* InfiniBand link-level credit flow control per virtual lane at a port
 * (IBTA Vol 1 chapter 7, "flow control"; facts and sources in
 * docs/infiniband.md). On an IB port the eight traffic classes are VLs
 * 0..7. A port keeps both halves of the scheme for its link: as a sender
 * (its egress) the total blocks sent FCTBS and the credit limit FCCL its
 * peer last advertised, per VL; as a receiver (the frames arriving on it)
 * the buffer it grants the peer, the blocks held now and the adjusted
 * blocks received ABR. Credits return in real 6-byte flow-control packets
 * queued on the port's control ring. Internal to core/ (port.c) and to the
 * nodes that hold received frames (the switch MMU). */
#ifndef FAB_PORT_CREDIT_H
#define FAB_PORT_CREDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"
#include "pkt_ib.h"
#include "port.h"

enum {
	/* The most a VL may grant: FCCL may run at most 2048 blocks ahead of
	 * FCTBS (pkt_ib_fc_may_send), 2048 x 64 bytes. */
	PORT_CREDIT_MAX_BUFFER_BYTES = PKT_IB_FC_HALF * PKT_IB_BLOCK_BYTES,
	/* Default buffer per VL: the most there is (a 400 Gb/s link of 1 us
	 * needs about 112 KiB in flight: docs/infiniband.md). */
	PORT_CREDIT_DEFAULT_BUFFER_BYTES = PORT_CREDIT_MAX_BUFFER_BYTES,
	/* Default update threshold: two 4 KiB-MTU frames (65 blocks each)
	 * free 130 >= 128 blocks, so one flow-control packet per two data
	 * packets; see docs/infiniband.md for why it does not throttle. */
	PORT_CREDIT_DEFAULT_UPDATE_BYTES = 8192,
	/* Default refresh: 65,536 symbol times, read as 65,536 byte times of
	 * the line rate (a 1x link's symbol; the strictest reading). */
	PORT_CREDIT_REFRESH_BYTES = 65536,
};

/* Settings of one port's credit flow control. */
struct port_credit_params {
	uint32_t buffer_bytes[PORT_N_TC]; /* granted to the peer per VL: a multiple of 64,
					   * at most PORT_CREDIT_MAX_BUFFER_BYTES; 0: the VL
					   * gets no credits (nothing may be sent on it) */
	uint32_t update_bytes;            /* credit_update_bytes: advertise once this many
					   * freed bytes are unadvertised; 0: every release */
	uint64_t refresh_ps;              /* advertise what is left unadvertised this long
					   * after it was freed; 0: 65,536 byte times */
	bool release_on_arrival;          /* the node consumes frames as they arrive (a
					   * NIC): the port returns their blocks at once */
};

/* Counters per VL, named like PFC's where the meaning is the same. */
struct port_credit_stats {
	uint64_t credit_starved_ps[PORT_N_TC]; /* the VL's head frame was looked at and
						* lacked credits (beside PFC's paused_ps) */
	uint64_t fc_tx[PORT_N_TC];             /* flow-control packets sent (init included) */
	uint64_t fc_rx[PORT_N_TC];             /* flow-control packets received */
	uint64_t blocks_tx[PORT_N_TC];         /* blocks sent (not mod 4096) */
	uint64_t blocks_rx[PORT_N_TC];         /* blocks received */
	uint32_t max_held_blocks[PORT_N_TC];   /* most blocks held at once (receiver) */
	uint64_t credit_overruns[PORT_N_TC];   /* arrivals that left more blocks held than
						* granted: the model's own check, always 0 */
	uint64_t ignored_rx;                   /* flow-control packets not understood or for
						* a VL beyond 7 */
	uint64_t fc_no_mbuf;                   /* advertisements put off: pool empty */
};

/* Per VL state, with the VL's counters, on one cache line: a hop on the
 * VL touches this line only. */
struct port_credit_vl {
	uint16_t fctbs;            /* sender: total blocks sent, mod 4096 */
	uint16_t fccl;             /* sender: the peer's last credit limit, mod 4096 */
	uint16_t abr;              /* receiver: adjusted blocks received, mod 4096 */
	uint16_t adv;              /* receiver: the limit last advertised, mod 4096 */
	uint32_t buffer_blocks;    /* receiver: blocks granted to the peer */
	uint32_t held_blocks;      /* receiver: blocks held now */
	uint64_t starved_since_ps; /* sender: when the head began to wait for credits */
	uint64_t unadv_since_ps;   /* since when something is unadvertised (the bit of
				    * port_credit.unadv): the refresh is due then + refresh */
	uint64_t blocks_tx;        /* counters (struct port_credit_stats' per VL) */
	uint64_t blocks_rx;
	uint32_t max_held_blocks;
	uint32_t fc_tx;
	/* (fc_rx, starved time and overruns, rarer, in port_credit.stats) */
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct port_credit_vl) == 64, "a VL's credit state is one line");

/* Credit state of one port (port_credit_enable). */
struct port_credit {
	struct port_credit_vl vl[PORT_N_TC]; /* per VL */
	uint8_t known;              /* classes whose head's credit check is current
				     * (its bit of the port's paused_mask holds it) */
	uint8_t blocked;            /* classes whose head lacks credits (in paused_mask) */
	uint8_t ext_paused;         /* pauses set with port_set_paused, kept apart */
	uint8_t unadv;              /* VLs with freed blocks not yet advertised */
	uint8_t release_on_arrival; /* params.release_on_arrival */
	uint32_t update_blocks;     /* params.update_bytes in blocks (0: every release) */
	uint64_t refresh_cfg_ps;    /* params.refresh_ps as given; 0: 65,536 byte times */
	uint64_t refresh_ps;        /* refresh_cfg_ps resolved against the link's current
				     * rate (port_credit_rate_changed) */
	uint64_t timer_ps;          /* armed refresh (the one pending event), 0 when none */
	struct ev_src timer_src;    /* its event identity */
	struct port_credit_stats stats; /* counters */
};

/* Check @p (buffers, update threshold); 0, or -EINVAL with @err filled. */
int port_credit_params_check(const struct port_credit_params *p, char err[CFG_ERR_BYTES]);
/* The defaults: PORT_CREDIT_DEFAULT_BUFFER_BYTES on VL 0 only, the default
 * update threshold and refresh. */
void port_credit_params_default(struct port_credit_params *p);

/* Put @p under credit flow control with @params (checked: -EINVAL; or
 * -ENOMEM). @p must be on a credit link layer (pkt_ll_ib) and not do PFC.
 * When @p's peer is connected and under credits too, the link comes up:
 * each end starts with the other's whole buffer (as after IBTA link
 * training) and sends an init packet per VL that grants credits. Either
 * before or after port_connect; before the run starts. */
int port_credit_enable(struct port *p, const struct port_credit_params *params);
void port_credit_fini(struct port *p);
/* Bring the credit link @a-@b up (port_connect and port_credit_enable call
 * it; nothing unless both ends have credits). */
void port_credit_link_up(struct port *a, struct port *b);

/* @p's rate changed (port_set_rate): a refresh interval left to the rate
 * (params.refresh_ps 0) follows it, as 65,536 byte times of the new rate.
 * Nothing when @p is not under credits or the interval was given. */
void port_credit_rate_changed(struct port *p);

/* @p's link went down: its sender stops waiting for credits (what it
 * sends is lost with the link, as an IB port discards what it cannot
 * deliver). port_fault.c calls it. */
void port_credit_link_down(struct port *p);
/* The link @a-@b came back up: both ends' counts restart and each grants
 * what its buffer has free, with init packets (link training again); the
 * caller then has the ends send (port_kick). A link between two MPI
 * processes is trained end by end where each runs, the grants exchanged
 * (par_sum): every process calls it, from the fabric-wide event. */
void port_credit_relink(struct port *a, struct port *b);

/* The receiving node frees @frame_bytes of a frame that arrived on @in on
 * VL @vl: its blocks become credits, advertised by the update policy.
 * Nothing when @in is not under credits. */
void port_credit_release(struct port *in, uint8_t vl, uint32_t frame_bytes);

/* The first VL of @p whose head frame is queued and lacks credits (for
 * deadlock detection), or -ENOENT. */
int port_credit_blocked_vl(const struct port *p);
/* Is @p under credit flow control? */
static inline bool port_credit_on(const struct port *p)
{
	return p->credit != NULL;
}
/* What @p's sending is owed in credits, bytes over all VLs: the buffer
 * its peer granted less the credits it has left, i.e. what it sent that
 * the peer still holds or that is on the link (0 without credits). IB
 * adaptive routing weighs it with the queue. */
uint64_t port_credit_owed_bytes(const struct port *p);
/* Buffer @p grants its peer on VL @vl, bytes (0 without credits). */
uint32_t port_credit_buffer_bytes(const struct port *p, uint8_t vl);
/* @p's counters, starvation in progress counted up to now (zeros without
 * credits). */
void port_credit_stats(const struct port *p, struct port_credit_stats *out);
/* The same with a starvation still running counted to @now_ps (the run's
 * end: in a parallel run, a partition's clock stops at its last event). */
void port_credit_stats_at(const struct port *p, uint64_t now_ps, struct port_credit_stats *out);

/* Hooks of port.c. */
/* A flow-control packet arrived at @p: apply it and free it. */
void port_credit_rx(struct port *p, struct rte_mbuf *m);
/* A data frame @m arrived at @p (before its node sees it): count its
 * blocks on its VL (pkt_meta tc, stamped by the sender) and check the
 * invariant. */
void port_credit_arrive(struct port *p, const struct rte_mbuf *m);
/* Evaluate the credit check of every class of @p whose head changed. */
void port_credit_eval(struct port *p);
/* Class @tc's head of @frame_bytes left @p's queue and is sent (or a
 * pulled frame on VL @tc is). */
void port_credit_sent(struct port *p, uint8_t tc, uint32_t frame_bytes);
/* May a pulled frame of @frame_bytes go on VL @tc now? */
bool port_credit_may(const struct port *p, uint8_t tc, uint32_t frame_bytes);
/* A pulled frame waits in class @tc for credits (it is that class's head). */
void port_credit_park(struct port *p, uint8_t tc);
/* Class @tc of @p was flushed empty. */
void port_credit_flushed(struct port *p, uint8_t tc);
/* port_set_paused on a port under credits. */
void port_credit_set_paused(struct port *p, uint8_t tc, bool paused);

#endif
