/* The switch MMU: buffer admission and release, PFC XOFF/XON toward the
 * upstream port and the PFC watchdog, with each port's pause alpha and its
 * queue manager's state (RED: the marking curve; sw_aqm.c marks) resolved
 * from its link rate once, at sw_ready (as the HPCC ns-3 simulator sets
 * them per port). The admission follows
 * the shared-buffer switches of the field (Broadcom-style, as the HPCC and
 * ConWeave ns-3 models describe them; figures in docs/config.md): each
 * ingress port and priority first fills a small reserve, then the shared
 * pool up to a dynamic threshold alpha x (free shared buffer), or a static
 * one; a lossless priority that crosses it sends XOFF and parks what keeps
 * arriving in its headroom, sized for the bytes still in flight; a lossy
 * queue is held to beta x (free shared buffer) at egress instead.
 * InfiniBand credit flow control per virtual lane plugs into the same two
 * points: sw_mmu_admit is where a lossless group's occupancy crosses its
 * limit (PFC sends XOFF; IB stops advertising credits) and sw_mmu_release
 * where bytes come back (PFC may send XON; IB returns credits), over the
 * same per-group accounting. */
#include <errno.h>
#include <stdio.h>

#include "rng.h"
#include "sim.h"
#include "units.h"
#include "port_credit.h"
#include "sw_int.h"

/* PFC pause threshold on the shared use of a priority group of ingress
 * port @x: static, or its alpha x the free shared pool (the HPCC ns-3
 * MMU's GetPfcThreshold, whose alpha is 2^-pfc_a_shift per port). */
static inline uint64_t sw_xoff_thr(const struct sw *s, const struct sw_port_x *x)
{
	if (s->xoff_bytes)
		return s->xoff_bytes;
	return (uint64_t)x->alpha_q16 * (s->shared_size - s->shared_used) / SW_Q16;
}

/* Resume (XON) @prio on ingress @i if its group may: no headroom in use and
 * its shared use below the resume threshold. */
static void sw_try_xon(struct sw *s, uint16_t i, uint8_t prio)
{
	struct sw_port_x *x = &s->px[i];
	struct sw_pg *pg = sw_pg(s, i, prio);
	bool resume;

	if (pg->headroom_used)
		return;
	resume = s->xoff_bytes ? pg->shared_used <= s->p.pfc.xon_bytes
				     : pg->shared_used + s->p.pfc.xon_offset_bytes <= sw_xoff_thr(s, x);
	if (!resume)
		return;
	pg->paused = 0;
	s->n_paused--;
	x->paused_prio &= (uint8_t)~(1u << prio);
	port_pfc_send(&s->ports[i], (uint8_t)(1u << prio), 0);
}

/* Re-evaluate every paused group (the shared pool got bytes back). */
static void sw_try_xon_all(struct sw *s)
{
	for (uint16_t i = 0; i < s->n_ports && s->n_paused; i++) {
		uint8_t pp = s->px[i].paused_prio;

		while (pp) {
			uint8_t prio = (uint8_t)__builtin_ctz(pp);

			pp &= (uint8_t)(pp - 1);
			sw_try_xon(s, i, prio);
		}
	}
}

static void sw_refresh(struct sim *sim, void *obj);

/* Send XOFF for @prio from @i and keep it refreshed. */
static void sw_xoff(struct sw *s, uint16_t i, uint8_t prio)
{
	struct sw_port_x *x = &s->px[i];
	struct port *p = &s->ports[i];

	sw_pg(s, i, prio)->paused = 1;
	s->n_paused++;
	x->paused_prio |= (uint8_t)(1u << prio);
	port_pfc_send(p, (uint8_t)(1u << prio), s->p.pfc.quanta);
	/* Re-send before the upstream's pause runs out: every half pause. */
	if (!x->refresh_ps) {
		x->refresh_ps = s->sim->now_ps + port_pfc_quanta_ps(p, s->p.pfc.quanta) / 2 + 1;
		sim_at(s->sim, x->refresh_ps, &x->refresh_src, sw_refresh, x);
	}
}

static void sw_refresh(struct sim *sim, void *obj)
{
	struct sw_port_x *x = obj;
	struct sw *s = x->sw;
	struct port *p = &s->ports[x->index];

	x->refresh_ps = 0;
	for (uint8_t pp = x->paused_prio; pp; pp &= (uint8_t)(pp - 1))
		sw_try_xon(s, x->index, (uint8_t)__builtin_ctz(pp));
	if (!x->paused_prio)
		return;
	port_pfc_send(p, x->paused_prio, s->p.pfc.quanta);
	x->refresh_ps = sim->now_ps + port_pfc_quanta_ps(p, s->p.pfc.quanta) / 2 + 1;
	sim_at(sim, x->refresh_ps, &x->refresh_src, sw_refresh, x);
}

static void sw_wd_arm(struct sw *s);

/* A frame sw_mmu_admit refuses, for @why. */
static inline int sw_mmu_refuse(struct sw_admit *res, enum sw_drop_reason why)
{
	res->drop = (uint8_t)why;
	return -ENOBUFS;
}

/* sw_mmu_admit on a credit group: charged to the group, never refused,
 * no XOFF (credits stop at the upstream by themselves). */
static int sw_mmu_admit_credit(struct sw *s, struct sw_pg *pg, uint64_t len, struct sw_admit *res)
{
	res->pool = SW_POOL_CREDIT;
	pg->headroom_used += (uint32_t)len;
	s->buffer_used += len;
	if (s->buffer_used > s->stats.buffer_peak_bytes)
		s->stats.buffer_peak_bytes = s->buffer_used;
	return 0;
}

int sw_mmu_admit(struct sw *s, uint16_t in_port, uint8_t prio, struct port *out, uint8_t tc,
		 uint32_t frame_bytes, struct sw_admit *res)
{
	struct sw_pg *pg = sw_pg(s, in_port, prio);
	uint64_t len = frame_bytes;

	/* An IB ingress: the upstream sent it against credits for this VL's
	 * buffer, committed apart (sw_ready), so it always fits. */
	if (unlikely(pg->lossless == SW_PG_CREDIT))
		return sw_mmu_admit_credit(s, pg, len, res);
	if (unlikely(s->wd_on) && (s->px[out->index].stormed_prio & (1u << prio)))
		return sw_mmu_refuse(res, SW_DROP_WATCHDOG);
	if (s->buffer_used + len > s->buffer_bytes)
		return sw_mmu_refuse(res, SW_DROP_BUFFER);
	if (pg->reserve_used + len <= s->reserve_bytes) {
		res->pool = SW_POOL_RESERVE;
		pg->reserve_used += len;
	} else if (pg->lossless) {
		struct sw_port_x *x = &s->px[in_port]; /* read only here */
		uint64_t thr = sw_xoff_thr(s, x);

		if (pg->shared_used + len <= thr && s->shared_used + len <= s->shared_size) {
			res->pool = SW_POOL_SHARED;
			pg->shared_used += len;
			s->shared_used += len;
		} else if (pg->headroom_used + len <= x->headroom_bytes) {
			res->pool = SW_POOL_HEADROOM;
			pg->headroom_used += len;
			if (pg->headroom_used > x->stats.headroom_peak_bytes)
				x->stats.headroom_peak_bytes = pg->headroom_used;
		} else {
			return sw_mmu_refuse(res, SW_DROP_HEADROOM);
		}
		if (!pg->paused && (pg->headroom_used || pg->shared_used >= sw_xoff_thr(s, x)))
			sw_xoff(s, in_port, prio);
	} else {
		uint64_t free_shared = s->shared_size - s->shared_used;

		if (s->shared_used + len > s->shared_size)
			return sw_mmu_refuse(res, SW_DROP_BUFFER);
		if (s->p.egress_alpha_q16 &&
		    port_tc_bytes(out, tc) + len > (uint64_t)s->p.egress_alpha_q16 * free_shared / SW_Q16)
			return sw_mmu_refuse(res, SW_DROP_THRESHOLD);
		if (s->p.queue_limit_bytes && port_tc_bytes(out, tc) + len > s->p.queue_limit_bytes)
			return sw_mmu_refuse(res, SW_DROP_THRESHOLD);
		res->pool = SW_POOL_SHARED;
		pg->shared_used += len;
		s->shared_used += len;
	}
	s->buffer_used += len;
	if (s->buffer_used > s->stats.buffer_peak_bytes)
		s->stats.buffer_peak_bytes = s->buffer_used;
	if (unlikely(s->wd_on) && port_paused_mask(out) && !s->wd_armed_ps)
		sw_wd_arm(s);
	return 0;
}

void sw_mmu_release(struct sw *s, uint16_t in_port, uint8_t prio, uint8_t pool, uint32_t bytes)
{
	struct sw_pg *pg = sw_pg(s, in_port, prio);

	s->buffer_used -= bytes;
	if (pool == SW_POOL_RESERVE) {
		pg->reserve_used -= bytes;
	} else if (pool == SW_POOL_SHARED) {
		pg->shared_used -= bytes;
		s->shared_used -= bytes;
	} else {
		pg->headroom_used -= bytes;
		if (pool == SW_POOL_CREDIT) {
			port_credit_release(&s->ports[in_port], prio, bytes);
			return;
		}
	}
	if (unlikely(pg->paused))
		sw_try_xon(s, in_port, prio);
	/* A dynamic pause threshold rises with the free shared buffer, so
	 * bytes leaving any group may let a paused group resume: one that
	 * paused while others filled the pool and has no frame left to leave
	 * would otherwise stay paused for ever. */
	if (unlikely(s->n_paused) && pool == SW_POOL_SHARED && !s->xoff_bytes)
		sw_try_xon_all(s);
}

/* What sw_wd_flush hands port_flush_tc: the switch and the port flushed. */
struct sw_wd_flush_arg {
	struct sw *s;          /* the switch */
	uint16_t port;         /* the stormed egress port */
};

/* A frame the watchdog flushed: give its buffer back and drop it. */
static void sw_wd_drop(void *arg, struct rte_mbuf *m, uint32_t frame_bytes, uint32_t tag)
{
	struct sw_wd_flush_arg *a = arg;

	sw_mmu_release(a->s, sw_tag_port(tag), sw_tag_prio(tag), sw_tag_pool(tag), frame_bytes);
	a->s->px[a->port].stats.drops[SW_DROP_WATCHDOG]++;
	sw_drop(a->s, m, SW_DROP_WATCHDOG);
}

/* Drop everything queued on @p's class @tc (a stormed queue). */
static void sw_wd_flush(struct sw *s, struct port *p, uint8_t tc)
{
	struct sw_wd_flush_arg a = { .s = s, .port = port_index(p) };

	port_flush_tc(p, tc, sw_wd_drop, &a);
}

/* The PFC watchdog (after SONiC's pfcwd): a lossless queue paused without
 * a break for wd_detect_ps is declared stormed: its frames are dropped,
 * pauses of its priority are ignored and new frames for it are dropped,
 * until no pause frame has arrived for wd_restore_ps. */
static void sw_wd_poll(struct sim *sim, void *obj)
{
	struct sw *s = obj;
	bool watching = false;

	s->wd_armed_ps = 0;
	for (uint16_t i = 0; i < s->n_ports; i++) {
		struct port *p = &s->ports[i];
		struct port_pfc *f = p->pfc;
		struct sw_port_x *x = &s->px[i];

		if (!f)
			continue;
		for (uint8_t pr = 0; pr < PKT_N_PRIO; pr++) {
			uint8_t bit = (uint8_t)(1u << pr);

			if (x->stormed_prio & bit) {
				watching = true;
				if (sim->now_ps - f->last_rx_ps[pr] >= s->p.pfc.wd_restore_ps) {
					x->stormed_prio &= (uint8_t)~bit;
					port_pfc_ignore(p, pr, false);
				}
			} else if (f->paused_prio & bit) {
				watching = true;
				if (sim->now_ps - f->since_ps[pr] >= s->p.pfc.wd_detect_ps) {
					x->stormed_prio |= bit;
					s->stats.storms++;
					sw_wd_flush(s, p, f->prio_to_tc[pr]);
					port_pfc_ignore(p, pr, true);
				}
			}
		}
	}
	if (watching)
		sw_wd_arm(s);
}

static void sw_wd_arm(struct sw *s)
{
	/* Polled at half the detection time: a storm is caught within 1.5x. */
	s->wd_armed_ps = s->sim->now_ps + s->p.pfc.wd_detect_ps / 2;
	sim_at(s->sim, s->wd_armed_ps, &s->wd_src, sw_wd_poll, s);
}

/* Peer response time of IEEE 802.3 Annex 31B in pause quanta, by rate. */
static uint64_t sw_peer_response_quanta(uint64_t rate_bps)
{
	static const struct {
		uint64_t gbps;
		uint64_t quanta;
	} t[] = { { 10, 67 }, { 25, 80 }, { 40, 118 }, { 50, 147 }, { 100, 394 },
		  { 200, 453 }, { 400, 905 } };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (rate_bps <= t[i].gbps * UINT64_C(1000000000))
			return t[i].quanta;
	return 905;
}

uint64_t sw_headroom_bytes(uint64_t rate_bps, uint64_t delay_ps, uint32_t max_frame_bytes)
{
	/* Bytes that keep coming after the XOFF decision (the Mellanox/SONiC
	 * headroom formula, congestion-control.md §8): a frame of ours delaying
	 * the XOFF, the cable's round trip at line rate, the peer's response
	 * time, and the frame the peer had started. */
	uint64_t cable = (uint64_t)((__uint128_t)rate_bps * 2 * delay_ps / 8 / UNITS_PS_PER_S);
	uint64_t response = sw_peer_response_quanta(rate_bps) * (PORT_PFC_QUANTUM_BITS / 8);
	uint64_t total = 2 * (uint64_t)max_frame_bytes + cable + response;

	return (total + 1023) / 1024 * 1024;
}

uint32_t sw_params_port_alpha(const struct sw_params *p, uint64_t rate_bps)
{
	for (uint8_t i = 0; i < p->pfc.n_alpha_by_rate; i++)
		if (p->pfc.alpha_by_rate[i].rate_bps == rate_bps)
			return p->pfc.alpha_by_rate[i].alpha_q16;
	return p->pfc.alpha_q16;
}

/* Each port's queue-manager state (RED: its curve) and pause alpha, by
 * its link's rate (once: the data path then reads them per port, never
 * the tables). A port not wired keeps the fabric-wide ones. Returns 0, or
 * the manager's error with @err filled (RED: -ENOENT, sw_params_port_red). */
static int sw_ready_rates(struct sw *s, char err[CFG_ERR_BYTES])
{
	for (uint16_t i = 0; i < s->n_ports; i++) {
		struct sw_port_x *x = &s->px[i];
		uint64_t rate_bps = port_rate_bps(&s->ports[i]);

		x->alpha_q16 = sw_params_port_alpha(&s->p, rate_bps);
		if (rate_bps && (s->ecn_enq_mask | s->ecn_deq_mask)) {
			int rc = sw_aqm_port_rate(s, i, rate_bps, err);

			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

int sw_ready(struct sw *s, char err[CFG_ERR_BYTES], char warn[CFG_ERR_BYTES])
{
	uint64_t committed = 0, worst_need = 0, worst_have = 0;
	uint32_t alpha_min = UINT32_MAX;
	uint16_t worst_port = 0;
	int rc;

	warn[0] = '\0';
	uint64_t credit = 0;

	if ((rc = sw_ready_rates(s, err)) != 0)
		return rc;
	/* Store and forward: a frame the buffer cannot hold whole would be
	 * dropped every time it came, and its message could never complete. */
	if (s->buffer_bytes < s->p.max_frame_bytes) {
		snprintf(err, CFG_ERR_BYTES,
			 "switch buffer %llu bytes cannot hold one frame of %u bytes (nic.mtu and headers): no full-size frame could ever pass",
			 (unsigned long long)s->buffer_bytes, s->p.max_frame_bytes);
		return -ENOSPC;
	}
	for (uint16_t i = 0; i < s->n_ports; i++) {
		struct port *p = &s->ports[i];
		struct sw_port_x *x = &s->px[i];
		uint64_t need = port_rate_bps(p) ? sw_headroom_bytes(port_rate_bps(p), port_delay_ps(p),
								s->p.max_frame_bytes) : 0;
		unsigned n_lossless = (unsigned)__builtin_popcount(s->lossless_prio);

		if (port_rate_bps(p) && p->pfc && !port_credit_on(p) && x->alpha_q16 < alpha_min)
			alpha_min = x->alpha_q16;
		if (port_credit_on(p)) {
			/* The VL buffers it grants its peer are real buffer: no
			 * reserve (its frames never use one), no headroom. */
			x->headroom_bytes = 0;
			for (uint8_t vl = 0; vl < PORT_N_TC; vl++)
				credit += port_credit_buffer_bytes(p, vl);
			continue;
		}
		x->headroom_bytes = s->p.pfc.headroom_bytes ? s->p.pfc.headroom_bytes : need;
		if (s->p.pfc.headroom_bytes && need > s->p.pfc.headroom_bytes &&
		    need - s->p.pfc.headroom_bytes > worst_need - worst_have) {
			worst_need = need;
			worst_have = s->p.pfc.headroom_bytes;
			worst_port = i;
		}
		if (port_rate_bps(p))
			committed += (uint64_t)s->reserve_bytes * PKT_N_PRIO +
				     x->headroom_bytes * n_lossless;
	}
	/* A scale-up switch's PFC stands in for credits, which need no
	 * headroom: its reserves and headroom come on top of the buffer. */
	if (s->p.committed_on_top)
		s->buffer_bytes += committed;
	if (credit && committed + credit >= s->buffer_bytes) {
		snprintf(err, CFG_ERR_BYTES,
			 "switch buffer %llu bytes cannot hold the credit buffers its InfiniBand ports grant their peers (%llu bytes) and the reserves and PFC headroom of the others (%llu bytes)",
			 (unsigned long long)s->buffer_bytes, (unsigned long long)credit,
			 (unsigned long long)committed);
		return -ENOSPC;
	}
	committed += credit;
	if (committed >= s->buffer_bytes) {
		snprintf(err, CFG_ERR_BYTES,
			 "switch buffer %llu bytes cannot hold the reserves and PFC headroom of its ports (%llu bytes)",
			 (unsigned long long)s->buffer_bytes, (unsigned long long)committed);
		return -ENOSPC;
	}
	s->shared_size = s->buffer_bytes - committed;
	if (s->lossless_prio && !s->p.pfc.xoff_bytes) {
		/* A paused group resumes once its shared use is xon_offset under
		 * alpha x (free pool): with the pool empty that must leave room
		 * for a frame, or XON is never sent and the fabric stalls. The
		 * port with the smallest alpha decides. */
		uint32_t alpha = alpha_min != UINT32_MAX ? alpha_min : s->p.pfc.alpha_q16;
		uint64_t thr = (uint64_t)alpha * s->shared_size / SW_Q16;
		uint64_t need = (uint64_t)s->p.pfc.xon_offset_bytes + s->p.max_frame_bytes;

		if (thr < need) {
			snprintf(err, CFG_ERR_BYTES,
				 "switch buffer %llu bytes leaves a shared pool of %llu bytes after reserves and PFC headroom; its pause threshold (alpha x pool = %llu bytes) must exceed xon_offset plus a frame (%llu bytes) for a paused priority to resume: the pool needs %llu bytes (a larger buffer, or less headroom)",
				 (unsigned long long)s->buffer_bytes, (unsigned long long)s->shared_size,
				 (unsigned long long)thr, (unsigned long long)need,
				 (unsigned long long)(need * SW_Q16 / alpha + 1));
			return -ENOSPC;
		}
	}
	if (worst_need)
		snprintf(warn, CFG_ERR_BYTES,
			 "PFC headroom %llu bytes is smaller than the %llu bytes port %u needs (its rate, delay and frames): lossless frames may drop",
			 (unsigned long long)worst_have, (unsigned long long)worst_need, worst_port);
	return 0;
}

void sw_port_pfc_off(struct sw *s, uint16_t i)
{
	for (uint8_t pr = 0; pr < PKT_N_PRIO; pr++)
		sw_pg(s, i, pr)->lossless = 0;
	port_pfc_fini(&s->ports[i]);
}

int sw_port_credit_on(struct sw *s, uint16_t i, const struct port_credit_params *p)
{
	int rc;

	char err[CFG_ERR_BYTES];

	if (i >= s->n_ports || s->ports[i].ll->fc != PKT_LL_FC_CREDIT ||
	    port_credit_params_check(p, err) != 0)
		return -EINVAL;
	sw_port_pfc_off(s, i);
	rc = port_credit_enable(&s->ports[i], p);
	if (rc != 0)
		return rc;
	for (uint8_t vl = 0; vl < PKT_N_PRIO; vl++)
		sw_pg(s, i, vl)->lossless = SW_PG_CREDIT;
	return 0;
}

int sw_port_credit_blocked(const struct sw *s, uint16_t i)
{
	return port_credit_blocked_vl(&s->ports[i]);
}

int sw_port_blocked(const struct sw *s, uint16_t i)
{
	const struct port *p = &s->ports[i];

	if (!p->pfc || !p->pfc->paused_prio)
		return -ENOENT;
	for (int pr = 0; pr < PKT_N_PRIO; pr++) {
		uint8_t tc = p->pfc->prio_to_tc[pr];

		if ((p->pfc->paused_prio & (1u << pr)) && port_tc_len(p, tc) != 0)
			return pr;
	}
	return -ENOENT;
}
