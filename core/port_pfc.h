/* IEEE 802.1Qbb priority flow control at the MAC of a port: pausing this
 * port's egress when PFC frames arrive (per priority, for quanta x 512 bit
 * times, resumed by XON or expiry), sending PFC frames on behalf of the
 * node, and the counters per priority. Internal to core/ (port.c) and to
 * the switch MMU that decides when to send XOFF/XON. */
#ifndef FAB_PORT_PFC_H
#define FAB_PORT_PFC_H

#include <stdbool.h>
#include <stdint.h>

#include "metric.h"
#include "port.h"

enum {
	PORT_PFC_QUANTUM_BITS = 512, /* one pause quantum */
};

struct port_pfc_stats {
	uint64_t xoff_tx[PKT_N_PRIO];   /* PFC frames sent pausing the priority */
	uint64_t xon_tx[PKT_N_PRIO];    /* PFC frames sent resuming it */
	uint64_t xoff_rx[PKT_N_PRIO];   /* PFC frames received pausing it */
	uint64_t xon_rx[PKT_N_PRIO];    /* PFC frames received resuming it */
	uint64_t paused_ps[PKT_N_PRIO]; /* time this port's egress was paused */
	uint64_t ignored_rx;            /* PFC frames received while PFC is off */
};

/* Called for each priority a PFC frame of @p carries, sent (@tx) or
 * received and honoured or not (the frames the counters count), with its
 * pause @quanta (0 = XON), at @p's current time. */
typedef void (*port_pfc_log_fn)(void *arg, const struct port *p, bool tx, uint8_t prio,
				uint16_t quanta);

/* A per-frame log: @fn(@arg, ...). Kept by the caller (port_pfc_set_log),
 * so that a port doing PFC carries one pointer for it. */
struct port_pfc_log {
	port_pfc_log_fn fn; /* called per priority of each frame */
	void *arg;          /* its argument */
};

/* PFC state of one port (allocated by port_pfc_enable). */
struct port_pfc {
	uint64_t until_ps[PKT_N_PRIO];  /* pause expiry per priority, 0 = not paused */
	uint64_t since_ps[PKT_N_PRIO];  /* when the current pause began */
	uint64_t last_rx_ps[PKT_N_PRIO];/* last PFC frame received pausing it */
	uint64_t timer_ps;              /* armed expiry check, 0 when none */
	struct ev_src timer_src;        /* its event identity */
	uint8_t prio_to_tc[PKT_N_PRIO]; /* which queue a priority pauses */
	uint8_t paused_prio;            /* priorities paused now */
	uint8_t ignore_prio;            /* priorities whose pauses are ignored (watchdog) */
	struct port_pfc_stats stats;    /* counters */
	const struct port_pfc_log *log; /* per-frame log (port_pfc_set_log), NULL = off */
};

/* Let @p take part in PFC: pauses from its peer are honoured on the queue
 * @prio_to_tc maps each priority to. Returns 0 or -ENOMEM. */
int port_pfc_enable(struct port *p, const uint8_t prio_to_tc[PKT_N_PRIO]);
void port_pfc_fini(struct port *p);
/* What results read of @p's PFC (counters, pauses running at the end) as
 * PORT_PFC_RESULT_WORDS words, for a port run in another process
 * (run/fabric_remote.c): a copy into @w (zeros without PFC), and @w put
 * back in place of @p's. */
#define PORT_PFC_RESULT_WORDS (METRIC_WORDS(sizeof(struct port_pfc_stats)) + PKT_N_PRIO + 1)
void port_pfc_result_save(const struct port *p, uint64_t *w);
void port_pfc_result_load(struct port *p, const uint64_t *w);

/* A PFC frame arrived at @p: apply it to @p's egress and free it. */
void port_pfc_rx(struct port *p, struct rte_mbuf *m);
/* Send a PFC frame from @p to its peer: for the priorities in @enable,
 * pause for @quanta (0 = XON). Returns 0 or -ENOBUFS (pool empty). */
int port_pfc_send(struct port *p, uint8_t enable, uint16_t quanta);

/* Log every PFC frame @p sends or receives through @log (NULL: stop),
 * which must outlive the logging; nothing when @p does not do PFC. Costs a
 * test per PFC frame. */
void port_pfc_set_log(struct port *p, const struct port_pfc_log *log);

/* Pause time of @quanta at @p's line rate, in ps. */
uint64_t port_pfc_quanta_ps(const struct port *p, uint16_t quanta);

/* Ignore (or honour again) pauses of @prio: the PFC watchdog's lever. */
void port_pfc_ignore(struct port *p, uint8_t prio, bool ignore);

/* Start the next frame if one may go (used when a pause ends). */
void port_next(struct port *p);

#endif
