/* Link faults (see port_fault.h). Everything here is off the hot path: a
 * port reaches it only while it has a fault (PORT_F_LOSSY), a frame only
 * when a fault marked it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "capture.h"
#include "par.h"
#include "port_credit.h"
#include "port_fault.h"
#include "port_pfc.h"
#include "rng.h"
#include "sim.h"

/* A uniform draw in [0, 1) from the port's stream (the one its uniform
 * loss uses). */
static double port_fault_unit(struct port *p)
{
	return (double)(rng_splitmix64(&p->rng) >> 11) * 0x1.0p-53;
}

static struct port_fault *port_fault_get(struct port *p)
{
	if (!p->fault && !(p->fault = calloc(1, sizeof(*p->fault))))
		return NULL;
	p->flags |= PORT_F_LOSSY;
	return p->fault;
}

void port_fault_fini(struct port *p)
{
	free(p->fault);
	p->fault = NULL;
}

/* Lose @m on @p's link (counted as the link's loss: what the peer did not
 * receive). */
static void port_fault_drop(struct sim *sim, struct port *p, struct rte_mbuf *m)
{
	/* Atomic: on a link between partitions (par.h) the sender counts its
	 * losses and the receiver's partition those on the wire. */
	__atomic_fetch_add(&p->lost_pkts, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&p->lost_bytes, pkt_meta(m)->frame_bytes, __ATOMIC_RELAXED);
	sim_pkt_free(sim, m);
}

bool port_fault_tx(struct port *p, struct rte_mbuf *m)
{
	struct port_fault *f = p->fault;
	struct pkt_meta *pm = pkt_meta(m);

	if (f && f->down) {
		__atomic_fetch_add(&f->stats.down_lost, 1, __ATOMIC_RELAXED);
		port_fault_drop(p->sim, p, m);
		return true;
	}
	/* Uniform loss first, with the draw it always had: a port without
	 * other faults loses exactly the frames it lost before. */
	if (p->loss_ppb && rng_splitmix64(&p->rng) % UINT64_C(1000000000) < p->loss_ppb) {
		if (f)
			f->stats.random_lost++;
		port_fault_drop(p->sim, p, m);
		return true;
	}
	if (!f)
		return false;
	if (pm->kind != PKT_KIND_PFC && f->tc_loss_ppb[pm->tc & (PORT_N_TC - 1)] &&
	    rng_splitmix64(&p->rng) % UINT64_C(1000000000) < f->tc_loss_ppb[pm->tc & (PORT_N_TC - 1)]) {
		f->stats.random_lost++;
		port_fault_drop(p->sim, p, m);
		return true;
	}
	if (f->ge_on) {
		/* A step of the chain per frame, then the state's loss. */
		if (port_fault_unit(p) < (f->ge_bad ? f->ge.p_bg : f->ge.p_gb))
			f->ge_bad = !f->ge_bad;
		if (port_fault_unit(p) < (f->ge_bad ? f->ge.loss_bad : f->ge.loss_good)) {
			f->stats.random_lost++;
			port_fault_drop(p->sim, p, m);
			return true;
		}
	}
	if (f->ber > 0) {
		double hit = -expm1(8.0 * pm->frame_bytes * log1p(-f->ber));

		if (port_fault_unit(p) < hit) {
			/* One bit flipped where the frame has bytes (a frame without its
			 * payload in memory has its headers): what a capture at the
			 * receiver shows. */
			uint32_t len = rte_pktmbuf_data_len(m);

			if (len) {
				uint64_t bit = rng_splitmix64(&p->rng) % ((uint64_t)len * 8);

				pkt_data(m)[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			}
			pm->flags |= PKT_MF_CORRUPT;
			f->stats.corrupted++;
		}
	}
	return false;
}

void port_fault_arrive(struct sim *sim, struct port *p, struct rte_mbuf *m)
{
	struct port *rx = p->peer;

	if (pkt_meta(m)->flags & PKT_MF_LOST) {
		/* Went down with the link: never arrives. */
		if (p->fault)
			__atomic_fetch_add(&p->fault->stats.down_lost, 1, __ATOMIC_RELAXED);
		port_fault_drop(sim, p, m);
		return;
	}
	/* Corrupted: the receiving MAC sees it (a capture there shows the
	 * flipped bit), its FCS check fails, it goes no further. */
	if (p->pipe.peer_cap)
		cap_write_ev(rx->cap, sim, m, pkt_meta(m)->frame_bytes);
	if (port_fault_get(rx))
		rx->fault->stats.fcs_errors++;
	port_fault_drop(sim, p, m);
}

/* Mark every frame on @p's wire lost. */
static void port_fault_wipe(struct port *p)
{
	for (uint32_t i = p->pipe.head; i != p->pipe.tail; i++)
		pkt_meta(p->pipe.slots[i & p->pipe.mask].m)->flags |= PKT_MF_LOST;
	if (p->tx_pkt)
		pkt_meta(p->tx_pkt)->flags |= PKT_MF_LOST; /* half sent */
}

static int port_dir_set_down(struct port *p, bool down)
{
	struct port_fault *f = port_fault_get(p);
	uint64_t now = p->sim->now_ps;

	if (!f)
		return -ENOMEM;
	if (f->down == down)
		return 0;
	f->down = down;
	if (down)
		p->flags |= PORT_F_DOWN;
	else
		p->flags &= (uint8_t)~PORT_F_DOWN;
	if (!par_sim_here(p->sim)) {
		/* Another process runs the port (par.h): it counts, lifts
		 * pauses and resumes sending there. Here only the frames this
		 * copy holds on its wire, sent by that process towards one of
		 * this one's partitions, are lost. */
		if (down)
			port_fault_wipe(p);
		return 0;
	}
	if (down) {
		f->down_since_ps = now;
		f->stats.downs++;
		port_fault_wipe(p);
		if (p->credit)
			port_credit_link_down(p);
		/* The peer's pauses end with the link (ignoring a priority lifts
		 * its pause; what the watchdog ignores stays as it was). */
		if (p->pfc) {
			uint8_t keep = p->pfc->ignore_prio;

			for (uint8_t prio = 0; prio < PKT_N_PRIO; prio++)
				port_pfc_ignore(p, prio, true);
			p->pfc->ignore_prio = keep;
		}
	} else {
		f->stats.down_ps += now - f->down_since_ps;
		/* A frame started while the link was down never reaches the
		 * peer whole, even if its end comes after the link is back (one
		 * put on the link at its start was lost then, port_fault_tx). */
		if (p->tx_pkt)
			pkt_meta(p->tx_pkt)->flags |= PKT_MF_LOST;
	}
	return 0;
}

int port_link_set_down(struct port *p, bool down)
{
	int rc = port_dir_set_down(p, down);

	if (rc == 0)
		rc = port_dir_set_down(p->peer, down);
	if (rc != 0 || down)
		return rc;
	/* Up: on credits the link trains again once both directions are up
	 * (in every process: one between two processes exchanges its ends'
	 * grants), and only then do the ends send what they hold: a frame
	 * sent before would reach a receiver whose counts start anew, beyond
	 * the credits granted. */
	if (p->credit)
		port_credit_relink(p, p->peer);
	if (par_sim_here(p->sim))
		port_kick(p);
	if (par_sim_here(p->peer->sim))
		port_kick(p->peer);
	return 0;
}

bool port_link_down(const struct port *p)
{
	return p->fault && p->fault->down;
}

void port_link_set_rate(struct port *p, uint64_t rate_bps)
{
	port_set_rate(p, rate_bps);
	port_set_rate(p->peer, rate_bps);
}

int port_fault_set_loss(struct port *p, int tc, double loss)
{
	struct port_fault *f = port_fault_get(p);
	uint64_t ppb = (uint64_t)(loss * 1e9 + 0.5);

	if (!f)
		return -ENOMEM;
	for (int c = 0; c < PORT_N_TC; c++)
		if (tc < 0 || c == tc)
			f->tc_loss_ppb[c] = ppb;
	return 0;
}

int port_fault_set_ge(struct port *p, const struct port_ge *ge)
{
	struct port_fault *f = port_fault_get(p);

	if (!f)
		return -ENOMEM;
	f->ge_on = ge != NULL;
	f->ge_bad = false;
	if (ge)
		f->ge = *ge;
	return 0;
}

int port_fault_set_ber(struct port *p, double ber)
{
	struct port_fault *f = port_fault_get(p);

	if (!f)
		return -ENOMEM;
	f->ber = ber;
	return 0;
}

void port_fault_stats(const struct port *p, uint64_t now_ps, struct port_fault_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!p->fault)
		return;
	*out = p->fault->stats;
	if (p->fault->down && par_sim_here(p->sim) && now_ps > p->fault->down_since_ps)
		out->down_ps += now_ps - p->fault->down_since_ps; /* down_since_ps is the runner's */
}
