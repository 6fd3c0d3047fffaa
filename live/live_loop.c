/* The live loop: simulated time follows the wall clock (CLOCK_MONOTONIC,
 * slowed by live.dilation). Each turn reads the clock, handles every event
 * due by then, takes in what the DPDK ports received (at that time) and
 * sends what the fabric delivered to them; it polls without sleeping, as
 * a DPDK forwarding core does. What falls behind is measured: how late an
 * event was handled (behind_max), and each frame's lag from its arrival
 * at the host port to its hand-over to the DPDK port. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fabric.h"
#include "live_int.h"
#include "results.h"

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
	uint64_t lag = now_ps > t_ps ? now_ps - t_ps : 0;
	uint64_t us = lag / 1000000;
	unsigned bin = 0;

	while (us && bin < LIVE_LAG_BINS - 1) {
		us >>= 1;
		bin++;
	}
	l->lag_hist[bin]++;
	l->lag_sum_ps += lag;
	l->lag_n++;
	if (lag > l->lag_max_ps)
		l->lag_max_ps = lag;
	if (lag > l->e->live.late_ps)
		l->frames_late++;
}

static void live_progress(const struct live *l, double wall_s)
{
	uint64_t in = 0, out = 0;

	for (uint32_t i = 0; i < l->n_ports; i++) {
		in += l->ports[i].st.in_frames;
		out += l->ports[i].st.out_frames;
	}
	fprintf(stderr, "[fabemu live] %.1f s: t=%.3f ms simulated, %llu frames in, %llu out, "
		"%llu late, lag max %.1f us\n", wall_s, l->f->sim.now_ps * 1e-9,
		(unsigned long long)in, (unsigned long long)out, (unsigned long long)l->frames_late,
		l->lag_max_ps * 1e-6);
}

void live_run(struct live *l, const volatile sig_atomic_t *stop, bool quiet)
{
	struct sim *sim = &l->f->sim;
	uint64_t stop_ps = l->e->stop_ps, next_report = 1000000000u;

	l->t0_ns = live_mono_ns();
	l->v0_ps = sim->now_ps;
	for (;;) {
		uint64_t t = live_mono_ns(), v = live_v_at(l, t), events = sim->n_events, out = 0;
		bool last = stop_ps && v >= stop_ps;
		uint32_t in;

		if (last)
			v = stop_ps;
		if (!sim_pending(sim) || ev_peek_time(&sim->evq) > v) {
			/* nothing due */
		} else {
			uint64_t due = ev_peek_time(&sim->evq);

			if (v - due > l->behind_max_ps)
				l->behind_max_ps = v - due;
			sim_run_window(sim, (unsigned __int128)(v + 1) << 64);
			if (sim->stuck)
				break;
		}
		if (sim->now_ps < v)
			sim->now_ps = v; /* nothing was due in between */
		in = live_poll(l);
		for (uint32_t i = 0; i < l->n_ports; i++) {
			out += l->ports[i].n_txb;
			live_flush(&l->ports[i]);
		}
		l->loops++;
		/* A turn with work: what one core's rate is measured against. */
		if (in || out || sim->n_events != events)
			l->work_ns += live_mono_ns() - t;
		if (last) {
			sim->stopped = true;
			break;
		}
		if (*stop)
			break; /* the end a live run is given: valid results */
		if (!quiet && (uint64_t)(live_mono_ns() - l->t0_ns) >= next_report) {
			live_progress(l, (double)(live_mono_ns() - l->t0_ns) * 1e-9);
			next_report += 1000000000u;
		}
	}
	for (uint32_t i = 0; i < l->n_ports; i++)
		live_flush(&l->ports[i]);
	l->wall_s = (double)(live_mono_ns() - l->t0_ns) * 1e-9;
	l->f->wall_s = l->wall_s;
	l->f->cpu_s = l->wall_s; /* a polling loop: busy the whole time */
}

int live_results(const struct live *l, struct results *r)
{
	const struct exp *e = l->e;

	RES_DBL(r, l->wall_s, "live.wall_s");
	RES_DBL(r, e->live.dilation, "live.dilation");
	RES_U64(r, l->loops, "live.loops");
	RES_DBL(r, (double)l->work_ns * 1e-9, "live.work_s");
	RES_DBL(r, (double)l->behind_max_ps * 1e-3, "live.behind_max_ns");
	RES_U64(r, l->lag_n, "live.lag.frames");
	RES_DBL(r, l->lag_n ? (double)l->lag_sum_ps / (double)l->lag_n * 1e-3 : 0.0, "live.lag.mean_ns");
	RES_DBL(r, (double)l->lag_max_ps * 1e-3, "live.lag.max_ns");
	for (unsigned b = 0; b < LIVE_LAG_BINS; b++)
		if (l->lag_hist[b])
			RES_U64(r, l->lag_hist[b], "live.lag.under_%llu_us",
				(unsigned long long)(UINT64_C(1) << b));
	RES_U64(r, l->frames_late, "live.frames_late");
	for (uint32_t i = 0; i < l->n_ports; i++) {
		const struct live_port *lp = &l->ports[i];
		const struct live_port_stats *s = &lp->st;
		const char *n = l->f->topo->nodes[lp->cfg->at.node].name;
		unsigned p = lp->cfg->at.port;

		RES_U64(r, s->rx_frames, "live.ports.%s:%u.rx_frames", n, p);
		RES_U64(r, s->rx_bytes, "live.ports.%s:%u.rx_bytes", n, p);
		RES_U64(r, s->in_frames, "live.ports.%s:%u.in_frames", n, p);
		RES_U64(r, s->out_frames, "live.ports.%s:%u.out_frames", n, p);
		RES_U64(r, s->out_bytes, "live.ports.%s:%u.out_bytes", n, p);
		RES_U64(r, s->arp_replies, "live.ports.%s:%u.arp_replies", n, p);
		RES_U64(r, s->arp_ignored, "live.ports.%s:%u.arp_ignored", n, p);
		RES_U64(r, s->drops_other, "live.ports.%s:%u.drops_other", n, p);
		RES_U64(r, s->drops_not_fabric, "live.ports.%s:%u.drops_not_fabric", n, p);
		RES_U64(r, s->drops_size, "live.ports.%s:%u.drops_size", n, p);
		RES_U64(r, s->drops_queue, "live.ports.%s:%u.drops_queue", n, p);
		RES_U64(r, s->drops_pool, "live.ports.%s:%u.drops_pool", n, p);
		RES_U64(r, s->drops_fault, "live.ports.%s:%u.drops_fault", n, p);
		RES_U64(r, s->drops_tx, "live.ports.%s:%u.drops_tx", n, p);
	}
	return 0;
}

void live_print(const struct live *l, FILE *out)
{
	fprintf(out, "  live: %.2f s of wall clock at dilation %g (%.3f s of it at work), %llu frames to "
		"endpoints, lag mean %.1f us, max %.1f us, %llu late (over %.1f us); events at most %.1f us "
		"behind\n",
		l->wall_s, l->e->live.dilation, (double)l->work_ns * 1e-9, (unsigned long long)l->lag_n,
		l->lag_n ? (double)l->lag_sum_ps / (double)l->lag_n * 1e-6 : 0.0, l->lag_max_ps * 1e-6,
		(unsigned long long)l->frames_late, l->e->live.late_ps * 1e-6, l->behind_max_ps * 1e-6);
	for (uint32_t i = 0; i < l->n_ports; i++) {
		const struct live_port *lp = &l->ports[i];
		const struct live_port_stats *s = &lp->st;

		fprintf(out, "  live %s:%u (%s): %llu frames in (%llu ARP answered), %llu out; dropped: "
			"%llu not IPv4, %llu outside the fabric, %llu too long, %llu queue full\n",
			l->f->topo->nodes[lp->cfg->at.node].name, lp->cfg->at.port, lp->cfg->iface,
			(unsigned long long)s->in_frames, (unsigned long long)s->arp_replies,
			(unsigned long long)s->out_frames, (unsigned long long)s->drops_other,
			(unsigned long long)s->drops_not_fabric, (unsigned long long)s->drops_size,
			(unsigned long long)s->drops_queue);
	}
}
