/* Faults of a link direction (the egress port that sends on it): down and
 * up, a rate change, loss per traffic class, bursty loss (Gilbert-Elliott)
 * and corruption at a bit error rate. A port with any of them takes the
 * port's cold lossy path for each frame it puts on the link; the others
 * never look. Frames on a link that goes down are lost where they are (on
 * the wire: marked, dropped when they would arrive); a corrupted frame
 * arrives with a bit flipped and the receiving MAC drops it (its FCS
 * check), counted at the receiver. Driven by the run's fault schedule
 * (run/faults.c). */
#ifndef FAB_PORT_FAULT_H
#define FAB_PORT_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "port.h"

/* Gilbert-Elliott loss: a good and a bad state, a Markov step per frame. */
struct port_ge {
	double p_gb;      /* good -> bad per frame */
	double p_bg;      /* bad -> good per frame */
	double loss_good; /* loss probability in the good state */
	double loss_bad;  /* ... in the bad state */
};

/* Counters of a port's faults (its direction of the link). */
struct port_fault_stats {
	uint64_t down_lost;      /* frames lost because the link was down (sent into it,
				  * or on the wire when it went down) */
	uint64_t random_lost;    /* frames lost to loss (uniform, per class, bursty) */
	uint64_t corrupted;      /* frames sent corrupted (bits flipped on the wire) */
	uint64_t fcs_errors;     /* frames received with a failed FCS check (at this
				  * port: what its peer sent corrupted) */
	uint64_t down_ps;        /* time down, to the last change */
	uint32_t downs;          /* times it went down */
};

/* The fault state of one direction (allocated by the first fault). */
struct port_fault {
	bool down;               /* the link is down: everything sent is lost */
	uint64_t down_since_ps;  /* when it went down */
	uint64_t tc_loss_ppb[PORT_N_TC]; /* loss per class, parts per 1e9 (on top of the
				  * port's uniform loss) */
	bool ge_on;              /* bursty loss */
	bool ge_bad;             /* in the bad state */
	struct port_ge ge;       /* its parameters */
	double ber;              /* bit error rate, 0 = none */
	struct port_fault_stats stats;
};

/* Take the link of @p down (both directions: @p and its peer) or up at
 * the simulation's now. Down: frames on the wire either way are lost when
 * they would arrive, frames sent while down are lost, PFC pauses in force
 * are lifted (the peer is gone). Up: ports resume sending what they hold.
 * 0 or -ENOMEM. */
int port_link_set_down(struct port *p, bool down);
/* Is @p's link down? */
bool port_link_down(const struct port *p);
/* Change the line rate of @p's link (both directions) from now: the frame
 * on the wire keeps its time, the next ones take the new one. */
void port_link_set_rate(struct port *p, uint64_t rate_bps);
/* Loss on @p's direction: class @tc (0..7, or -1 for every class) loses
 * each frame with probability @loss. 0 or -ENOMEM. */
int port_fault_set_loss(struct port *p, int tc, double loss);
/* Bursty loss on @p's direction (NULL: off). 0 or -ENOMEM. */
int port_fault_set_ge(struct port *p, const struct port_ge *ge);
/* Corruption on @p's direction at bit error rate @ber (0: off); each
 * frame is hit with probability 1 - (1 - ber)^(8 x its bytes). 0 or
 * -ENOMEM. */
int port_fault_set_ber(struct port *p, double ber);
/* The counters of @p's direction (zero when it never had a fault), a link
 * still down counted down until @now_ps: the run's end, the same whatever
 * partition runs the port (a partition's own clock stops at its last
 * event). */
void port_fault_stats(const struct port *p, uint64_t now_ps, struct port_fault_stats *out);

/* port.c's cold paths: @m goes on @p's link (true: it is lost, freed
 * here), and @m arrived over @p's link with PKT_MF_* flags set (freed
 * into @sim's pool, the receiver's, counted; a corrupted frame is
 * captured first). */
bool port_fault_tx(struct port *p, struct rte_mbuf *m);
void port_fault_arrive(struct sim *sim, struct port *p, struct rte_mbuf *m);
void port_fault_fini(struct port *p);

#endif
