/* PFC at the MAC of a port (see port_pfc.h). One lazily re-armed event per
 * port checks pause expiry; PFC frames are real 802.1Qbb MAC control
 * frames built with pkt_build_pfc. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "port_pfc.h"
#include "sim.h"

int port_pfc_enable(struct port *p, const uint8_t prio_to_tc[PKT_N_PRIO])
{
	struct port_pfc *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	memcpy(f->prio_to_tc, prio_to_tc, PKT_N_PRIO);
	sim_new_src(p->sim, &f->timer_src);
	p->pfc = f;
	return 0;
}

void port_pfc_fini(struct port *p)
{
	free(p->pfc);
	p->pfc = NULL;
}

#define PORT_PFC_STATS_WORDS METRIC_WORDS(sizeof(struct port_pfc_stats))

void port_pfc_result_save(const struct port *p, uint64_t *w)
{
	const struct port_pfc *f = p->pfc;

	memset(w, 0, PORT_PFC_RESULT_WORDS * sizeof(*w));
	if (!f)
		return;
	memcpy(w, &f->stats, sizeof(f->stats));
	memcpy(w + PORT_PFC_STATS_WORDS, f->since_ps, sizeof(f->since_ps));
	w[PORT_PFC_RESULT_WORDS - 1] = f->paused_prio;
}

void port_pfc_result_load(struct port *p, const uint64_t *w)
{
	struct port_pfc *f = p->pfc;

	if (!f)
		return;
	memcpy(&f->stats, w, sizeof(f->stats));
	memcpy(f->since_ps, w + PORT_PFC_STATS_WORDS, sizeof(f->since_ps));
	f->paused_prio = (uint8_t)w[PORT_PFC_RESULT_WORDS - 1];
}

uint64_t port_pfc_quanta_ps(const struct port *p, uint16_t quanta)
{
	/* quanta x 512 bit times (in 128 bits: 65535 quanta overflow the
	 * frame-sized arithmetic of units_ser_ps). */
	return (uint64_t)((unsigned __int128)quanta * PORT_PFC_QUANTUM_BITS * UNITS_PS_PER_S /
			  p->rate_bps);
}

/* Recompute the paused TC mask from the paused priorities. */
static void port_pfc_apply(struct port *p)
{
	struct port_pfc *f = p->pfc;
	uint8_t mask = 0;

	for (int pr = 0; pr < PKT_N_PRIO; pr++)
		if (f->paused_prio & (1u << pr))
			mask |= (uint8_t)(1u << (f->prio_to_tc[pr] & (PORT_N_TC - 1)));
	p->paused_mask = mask;
	if (!p->tx_pkt)
		port_next(p);
}

static void port_pfc_resume(struct port *p, int pr, uint64_t now)
{
	struct port_pfc *f = p->pfc;

	if (!(f->paused_prio & (1u << pr)))
		return;
	f->paused_prio &= (uint8_t)~(1u << pr);
	f->stats.paused_ps[pr] += now - f->since_ps[pr];
	f->until_ps[pr] = 0;
}

static void port_pfc_timer(struct sim *sim, void *obj);

static void port_pfc_arm(struct port *p)
{
	struct port_pfc *f = p->pfc;
	uint64_t next = 0;

	for (int pr = 0; pr < PKT_N_PRIO; pr++)
		if ((f->paused_prio & (1u << pr)) && (!next || f->until_ps[pr] < next))
			next = f->until_ps[pr];
	/* The armed check is the earliest one; a later check still pending
	 * (superseded) finds nothing to do when it fires. */
	if (next && (!f->timer_ps || next < f->timer_ps)) {
		f->timer_ps = next;
		sim_at(p->sim, next, &f->timer_src, port_pfc_timer, p);
	}
}

static void port_pfc_timer(struct sim *sim, void *obj)
{
	struct port *p = obj;
	struct port_pfc *f = p->pfc;

	if (f->timer_ps <= sim->now_ps)
		f->timer_ps = 0; /* this is the armed check (or a later one is) */
	for (int pr = 0; pr < PKT_N_PRIO; pr++)
		if ((f->paused_prio & (1u << pr)) && f->until_ps[pr] <= sim->now_ps)
			port_pfc_resume(p, pr, sim->now_ps);
	port_pfc_arm(p);
	port_pfc_apply(p);
}

void port_pfc_rx(struct port *p, struct rte_mbuf *m)
{
	struct port_pfc *f = p->pfc;
	uint16_t quanta[PKT_N_PRIO];
	uint64_t now = p->sim->now_ps;
	uint8_t enable;

	if (!f || pkt_parse_pfc(m, &enable, quanta) != 0) {
		if (f)
			f->stats.ignored_rx++;
		sim_pkt_free(p->sim, m);
		return;
	}
	sim_pkt_free(p->sim, m);
	for (int pr = 0; pr < PKT_N_PRIO; pr++) {
		if (!(enable & (1u << pr)))
			continue;
		if (unlikely(f->log != NULL))
			f->log->fn(f->log->arg, p, false, (uint8_t)pr, quanta[pr]);
		if (quanta[pr] == 0) {
			f->stats.xon_rx[pr]++;
			port_pfc_resume(p, pr, now);
			continue;
		}
		f->stats.xoff_rx[pr]++;
		f->last_rx_ps[pr] = now;
		if (f->ignore_prio & (1u << pr))
			continue;
		if (!(f->paused_prio & (1u << pr))) {
			f->paused_prio |= (uint8_t)(1u << pr);
			f->since_ps[pr] = now;
		}
		/* Every frame restarts the timer. */
		f->until_ps[pr] = now + port_pfc_quanta_ps(p, quanta[pr]);
	}
	port_pfc_arm(p);
	port_pfc_apply(p);
}

int port_pfc_send(struct port *p, uint8_t enable, uint16_t quanta)
{
	struct port_pfc *f = p->pfc;
	uint16_t q[PKT_N_PRIO] = { 0 };
	struct rte_mbuf *m = sim_pkt_alloc(p->sim, false);

	if (!m)
		return -ENOBUFS;
	for (int pr = 0; pr < PKT_N_PRIO; pr++) {
		if (!(enable & (1u << pr)))
			continue;
		q[pr] = quanta;
		if (f) {
			if (unlikely(f->log != NULL))
				f->log->fn(f->log->arg, p, true, (uint8_t)pr, quanta);
			if (quanta)
				f->stats.xoff_tx[pr]++;
			else
				f->stats.xon_tx[pr]++;
		}
	}
	if (pkt_build_pfc(m, port_mac(p), enable, q) != 0) {
		sim_pkt_free(p->sim, m);
		return -ENOBUFS;
	}
	port_send_ctrl(p, m);
	return 0;
}

void port_pfc_set_log(struct port *p, const struct port_pfc_log *log)
{
	if (!p->pfc)
		return;
	p->pfc->log = log;
}

void port_pfc_ignore(struct port *p, uint8_t prio, bool ignore)
{
	struct port_pfc *f = p->pfc;

	if (!f)
		return;
	if (ignore) {
		f->ignore_prio |= (uint8_t)(1u << prio);
		port_pfc_resume(p, prio, p->sim->now_ps);
		port_pfc_apply(p);
	} else {
		f->ignore_prio &= (uint8_t)~(1u << prio);
	}
}
