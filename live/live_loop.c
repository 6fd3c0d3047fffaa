/* The live loop: simulated time follows the wall clock (CLOCK_MONOTONIC,
 * slowed by live.dilation). Each turn receives from the DPDK ports, reads
 * the clock, handles every event due by then, puts what it received into
 * the fabric at that time (never before it came) and sends what the fabric
 * delivered; it polls without sleeping (or yields an idle turn: live.poll),
 * as a DPDK forwarding core does. What falls behind is measured: how late an
 * event was handled (behind_max), and each frame's lag from its arrival
 * at the host port to its hand-over to the DPDK port. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "fabric.h"
#include "sim_rec.h"
#include "live_int.h"

static uint64_t live_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Simulated time at CLOCK_MONOTONIC reading @t_ns. */
static uint64_t live_v_at(const struct live *l, uint64_t t_ns)
{
	return l->v0_ps + (uint64_t)llround((double)(t_ns - l->t0_ns) * 1e3 / l->e->live.dilation);
}

uint64_t live_now_ps(const struct live *l)
{
	return live_v_at(l, live_mono_ns());
}

void live_lag(struct live *l, uint64_t now_ps, uint64_t t_ps)
{
	struct res_live *r = &l->rs;
	uint64_t lag = now_ps > t_ps ? now_ps - t_ps : 0, step = 1000000; /* 1 us */

	for (unsigned i = 0; i < RES_LIVE_LAG_STEPS && lag > step; i++, step *= 10)
		r->lag_over[i]++;
	r->lag_sum_ps += lag;
	r->lag_frames++;
	if (lag > r->lag_max_ps)
		r->lag_max_ps = lag;
	if (lag > l->e->live.late_ps)
		r->frames_late++;
}

static void live_progress(const struct live *l, double wall_s)
{
	uint64_t in = 0, out = 0;

	for (uint32_t i = 0; i < l->n_ports; i++) {
		in += l->ports[i].st->in_frames;
		out += l->ports[i].st->out_frames;
	}
	fprintf(stderr, "[fabemu live] %.1f s: t=%.3f ms simulated, %llu frames in, %llu out, "
		"%llu late, lag max %.1f us\n", wall_s, l->f->sim.now_ps * 1e-9,
		(unsigned long long)in, (unsigned long long)out, (unsigned long long)l->rs.frames_late,
		l->rs.lag_max_ps * 1e-6);
}

/* Wait until every memif port's peer has connected, so that the clock
 * starts with the fabric whole; a line a second says which wait, and a
 * client whose server was not there yet tries again (its port restarted).
 * False when @stop came first. (A TAP's link, once the TAP is in another
 * namespace, is not visible from here: the others are taken as up.) */
static bool live_links_up(struct live *l, const volatile sig_atomic_t *stop, bool quiet)
{
	uint64_t t0 = live_mono_ns(), next = 1000000000u;

	for (;;) {
		uint32_t down = 0;
		const char *which = NULL;

		for (uint32_t i = 0; i < l->n_ports; i++) {
			struct rte_eth_link link;

			if (l->ports[i].cfg->driver != EXP_LIVE_MEMIF)
				continue;
			if (rte_eth_link_get_nowait(l->ports[i].eth, &link) != 0 ||
			    link.link_status != RTE_ETH_LINK_UP) {
				down++;
				which = l->ports[i].name;
			}
		}
		if (!down)
			return true;
		if (*stop)
			return false;
		if (live_mono_ns() - t0 >= next) {
			if (!quiet)
				fprintf(stderr, "[fabemu live] waiting for %u memif port%s to connect (%s%s)\n",
					down, down > 1 ? "s" : "", which, down > 1 ? ", ..." : "");
			for (uint32_t i = 0; i < l->n_ports; i++) {
				struct rte_eth_link link;
				const struct live_port *lp = &l->ports[i];

				if (lp->cfg->driver == EXP_LIVE_MEMIF && lp->cfg->role == EXP_LIVE_CLIENT &&
				    (rte_eth_link_get_nowait(lp->eth, &link) != 0 ||
				     link.link_status != RTE_ETH_LINK_UP) &&
				    rte_eth_dev_stop(lp->eth) == 0)
					rte_eth_dev_start(lp->eth);
			}
			next += 1000000000u;
		}
		rte_delay_us_sleep(1000);
	}
}

void live_run(struct live *l, const volatile sig_atomic_t *stop, bool quiet)
{
	struct sim *sim = &l->f->sim;
	uint64_t stop_ps = l->e->stop_ps, next_report = 1000000000u;

	if (!live_links_up(l, stop, quiet)) {
		l->rs.wall_s = 0;
		return;
	}
	l->t0_ns = live_mono_ns();
	l->v0_ps = sim->now_ps;
	for (;;) {
		/* Frames first, then the clock: each goes in at a time no earlier
		 * than it came (a turn cut short by the scheduler delays what came
		 * meanwhile, never advances it). */
		uint32_t in = live_poll(l);
		uint64_t t = live_mono_ns(), v = live_v_at(l, t), events = sim->n_events, out = 0;
		bool last = stop_ps && v >= stop_ps;

		if (last)
			v = stop_ps;
		if (sim_pending(sim) && ev_peek_time(&sim->evq) <= v) {
			uint64_t due = ev_peek_time(&sim->evq);

			if (v - due > l->rs.behind_max_ps)
				l->rs.behind_max_ps = v - due;
			sim_run_window(sim, (unsigned __int128)(v + 1) << 64);
			if (sim->stuck)
				break;
		}
		if (sim->now_ps < v)
			sim->now_ps = v;
		live_take_in(l);
		for (uint32_t i = 0; i < l->n_ports; i++) {
			live_pfc(&l->ports[i], t);
			out += l->ports[i].n_txb;
			live_flush(&l->ports[i]);
		}
		l->rs.loops++;
		/* A turn with work: what one core's rate is measured against. */
		if (in || out || sim->n_events != events)
			l->work_ns += live_mono_ns() - t;
		else if (l->e->live.poll == EXP_LIVE_YIELD)
			sched_yield();
		if (last) {
			sim->stopped = true;
			break;
		}
		if (*stop)
			break; /* the end a live run is given: valid results */
		if ((uint64_t)(live_mono_ns() - l->t0_ns) >= next_report) {
			struct sim_rec *r = sim->rec;

			/* A pcapng capture's blocks and pfc_log.csv's rows of the
			 * times before now, out once a second (sim_rec.h) rather
			 * than at the end. */
			if (r && r->writers)
				sim_rec_flush(&r, 1, r->writers, sim->now_ps);
			if (!quiet)
				live_progress(l, (double)(live_mono_ns() - l->t0_ns) * 1e-9);
			next_report += 1000000000u;
		}
	}
	for (uint32_t i = 0; i < l->n_ports; i++)
		live_flush(&l->ports[i]);
	l->rs.wall_s = (double)(live_mono_ns() - l->t0_ns) * 1e-9;
	l->rs.work_s = (double)l->work_ns * 1e-9;
	l->f->wall_s = l->rs.wall_s;
	l->f->cpu_s = l->rs.wall_s; /* a polling loop: busy the whole time */
}

void live_print(const struct live *l, FILE *out)
{
	fprintf(out, "  live: %.2f s of wall clock at dilation %g (%.3f s of it at work), %llu frames to "
		"endpoints, lag mean %.1f us, max %.1f us, %llu late (over %.1f us); events at most %.1f us "
		"behind\n",
		l->rs.wall_s, l->e->live.dilation, l->rs.work_s, (unsigned long long)l->rs.lag_frames,
		l->rs.lag_frames ? (double)l->rs.lag_sum_ps / (double)l->rs.lag_frames * 1e-6 : 0.0,
		l->rs.lag_max_ps * 1e-6, (unsigned long long)l->rs.frames_late, l->e->live.late_ps * 1e-6,
		l->rs.behind_max_ps * 1e-6);
	for (uint32_t i = 0; i < l->n_ports; i++) {
		const struct live_port *lp = &l->ports[i];
		const struct res_live_port *s = lp->st;

		fprintf(out, "  live %s:%u (%s): %llu frames in (%llu ARP answered), %llu out; dropped: "
			"%llu not IPv4, %llu outside the fabric, %llu too long, %llu queue full\n",
			l->f->topo->nodes[lp->cfg->at.node].name, lp->cfg->at.port, lp->cfg->iface,
			(unsigned long long)s->in_frames, (unsigned long long)s->arp_replies,
			(unsigned long long)s->out_frames, (unsigned long long)s->drops_other,
			(unsigned long long)s->drops_not_fabric, (unsigned long long)s->drops_size,
			(unsigned long long)s->drops_queue);
	}
}
