/* InfiniBand credit flow control per VL at a port (see port_credit.h).
 * The sender's rule is the IBTA one, exact per head frame:
 * a packet of N blocks may start on VL v only if
 * (FCCL - (FCTBS + N)) mod 4096 <= 2048 (pkt_ib_fc_may_send). The check
 * of a class is made when the scheduler looks at a new head (port_next)
 * and again when a flow-control packet for its VL arrives; a head that
 * fails it sets the class's bit of the port's paused_mask, which the
 * scheduler already honours, so the scheduler itself is unchanged.
 * The receiver advertises FCCL = ABR + free blocks; it sends a
 * flow-control packet when the freed and unadvertised blocks reach the
 * update threshold, and one refresh interval after a smaller change (a
 * lazy timer: no event while nothing is unadvertised). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par.h"
#include "port_credit.h"
#include "port_pfc.h"
#include "sim.h"

enum { PORT_CREDIT_MOD_MASK = PKT_IB_FC_MOD - 1 };

int port_credit_params_check(const struct port_credit_params *p, char err[CFG_ERR_BYTES])
{
	for (int v = 0; v < PORT_N_TC; v++) {
		uint32_t b = p->buffer_bytes[v];

		if (b % PKT_IB_BLOCK_BYTES || b > PORT_CREDIT_MAX_BUFFER_BYTES) {
			snprintf(err, CFG_ERR_BYTES,
				 "credit buffer of VL %d is %u bytes: it must be a multiple of %d bytes and at most %d (FCCL may run at most %d blocks ahead)",
				 v, b, PKT_IB_BLOCK_BYTES, PORT_CREDIT_MAX_BUFFER_BYTES, PKT_IB_FC_HALF);
			return -EINVAL;
		}
		if (b && p->update_bytes > b) {
			snprintf(err, CFG_ERR_BYTES,
				 "credit_update_bytes %u exceeds the %u-byte credit buffer of VL %d: its credits would come back only at the refresh interval",
				 p->update_bytes, b, v);
			return -EINVAL;
		}
	}
	return 0;
}

void port_credit_params_default(struct port_credit_params *p)
{
	*p = (struct port_credit_params){ .update_bytes = PORT_CREDIT_DEFAULT_UPDATE_BYTES };
	p->buffer_bytes[0] = PORT_CREDIT_DEFAULT_BUFFER_BYTES;
}

/* The limit the receiver may advertise now: ABR plus its free blocks. */
static inline uint16_t port_credit_limit(const struct port_credit_vl *v)
{
	uint32_t free_blocks = v->held_blocks < v->buffer_blocks ? v->buffer_blocks - v->held_blocks : 0;

	return (uint16_t)((v->abr + free_blocks) & PORT_CREDIT_MOD_MASK);
}

static void port_credit_timer(struct sim *sim, void *obj);

/* Have the refresh event pending (one per port at most: it re-arms itself
 * for what is not yet due when it fires). */
static void port_credit_arm(struct port *p, uint64_t at_ps)
{
	struct port_credit *c = p->credit;

	if (c->timer_ps)
		return;
	c->timer_ps = at_ps;
	sim_at(p->sim, at_ps, &c->timer_src, port_credit_timer, p);
}

/* VL @vl of @p has something to advertise: due one refresh interval after
 * the oldest of it. */
static void port_credit_mark(struct port *p, uint8_t vl)
{
	struct port_credit *c = p->credit;

	if (!(c->unadv & (1u << vl))) {
		c->unadv |= (uint8_t)(1u << vl);
		c->vl[vl].unadv_since_ps = p->sim->now_ps;
	}
	port_credit_arm(p, p->sim->now_ps + c->refresh_ps);
}

/* Send a flow-control packet of VL @vl (operand @op) from @p: @p's FCTBS
 * and the limit it grants now. A packet sent at the threshold on a lossy
 * link leaves the VL marked (@last false): the refresh repeats it once,
 * in case it was lost. */
static void port_credit_send(struct port *p, uint8_t vl, uint8_t op, bool last)
{
	struct port_credit *c = p->credit;
	struct port_credit_vl *v = &c->vl[vl];
	struct rte_mbuf *m = sim_pkt_alloc(p->sim, false);
	uint16_t limit = port_credit_limit(v);

	if (!m || pkt_build_ib_fc(m, op, vl, v->fctbs, limit) != 0) {
		if (m)
			sim_pkt_free(p->sim, m);
		/* Pool empty: the refresh tries again. */
		c->stats.fc_no_mbuf++;
		c->unadv &= (uint8_t)~(1u << vl);
		port_credit_mark(p, vl);
		return;
	}
	v->adv = limit;
	v->fc_tx++;
	c->unadv &= (uint8_t)~(1u << vl);
	if (!last && (p->flags & PORT_F_LOSSY))
		port_credit_mark(p, vl);
	port_send_ctrl(p, m);
}

static void port_credit_timer(struct sim *sim, void *obj)
{
	struct port *p = obj;
	struct port_credit *c = p->credit;
	uint8_t todo = c->unadv;
	uint64_t next = UINT64_MAX;

	c->timer_ps = 0;
	while (todo) {
		uint8_t vl = (uint8_t)__builtin_ctz(todo);
		uint64_t due = c->vl[vl].unadv_since_ps + c->refresh_ps;

		todo &= (uint8_t)(todo - 1);
		if (due <= sim->now_ps)
			port_credit_send(p, vl, PKT_IB_FC_OP_NORMAL, true);
		else if (due < next)
			next = due;
	}
	if (next != UINT64_MAX)
		port_credit_arm(p, next);
}

int port_credit_enable(struct port *p, const struct port_credit_params *params)
{
	char err[CFG_ERR_BYTES];
	struct port_credit *c;

	if (port_credit_params_check(params, err) != 0 || p->ll->fc != PKT_LL_FC_CREDIT || p->pfc)
		return -EINVAL;
	/* Line-aligned: a VL's state is one line (struct port_credit_vl). */
	c = aligned_alloc(64, (sizeof(*c) + 63) / 64 * 64);
	if (!c)
		return -ENOMEM;
	memset(c, 0, sizeof(*c));
	free(p->credit);
	for (int v = 0; v < PORT_N_TC; v++)
		c->vl[v].buffer_blocks = params->buffer_bytes[v] / PKT_IB_BLOCK_BYTES;
	c->update_blocks = pkt_ib_blocks(params->update_bytes);
	c->refresh_cfg_ps = c->refresh_ps = params->refresh_ps;
	c->release_on_arrival = params->release_on_arrival;
	sim_new_src(p->sim, &c->timer_src);
	p->credit = c;
	p->flags |= PORT_F_CREDIT;
	if (p->peer) {
		p->peer->pipe.peer_credit = 1;
		port_credit_link_up(p, p->peer);
	}
	return 0;
}

void port_credit_fini(struct port *p)
{
	free(p->credit);
	p->credit = NULL;
	p->flags &= (uint8_t)~PORT_F_CREDIT;
}

/* The refresh interval of @p: configured, or 65,536 byte times at its
 * current rate (@p->rate_bps above 0). */
static uint64_t port_credit_refresh_ps(const struct port *p)
{
	return p->credit->refresh_cfg_ps
		       ? p->credit->refresh_cfg_ps
		       : (uint64_t)((unsigned __int128)PORT_CREDIT_REFRESH_BYTES * 8 * UNITS_PS_PER_S /
				    p->rate_bps);
}

void port_credit_rate_changed(struct port *p)
{
	/* Derived intervals only: fabric.ib.credit_interval 0s means 65,536
	 * byte times of the link, so a link that retrains at another rate (a
	 * rate fault) refreshes at the new rate's, not the first one's. */
	if (p->credit && !p->credit->refresh_cfg_ps && p->rate_bps)
		p->credit->refresh_ps = port_credit_refresh_ps(p);
}

/* One end @p of a link that trains: it grants @own[v] per VL (its
 * buffer's limit), holds the peer's grant @peer[v], and sends its init
 * packets. */
static void port_credit_train(struct port *p, const uint64_t *own, const uint64_t *peer)
{
	for (int v = 0; v < PORT_N_TC; v++) {
		p->credit->vl[v].adv = (uint16_t)own[v];
		p->credit->vl[v].fccl = (uint16_t)peer[v];
	}
	if (p->rate_bps)
		p->credit->refresh_ps = port_credit_refresh_ps(p);
	/* The init packets go anyway: visible in captures, and what the
	 * peer's credit limit would be set from. */
	for (uint8_t v = 0; v < PORT_N_TC; v++)
		if (p->credit->vl[v].buffer_blocks)
			port_credit_send(p, v, PKT_IB_FC_OP_INIT, true);
}

void port_credit_link_up(struct port *a, struct port *b)
{
	uint64_t lim[2][PORT_N_TC];

	if (!a->credit || !b->credit || a->peer != b || !a->rate_bps)
		return;
	/* Both ends consistent at once, as after link training: each sender
	 * holds the other end's whole buffer. */
	for (int v = 0; v < PORT_N_TC; v++) {
		lim[0][v] = port_credit_limit(&a->credit->vl[v]);
		lim[1][v] = port_credit_limit(&b->credit->vl[v]);
	}
	port_credit_train(a, lim[0], lim[1]);
	port_credit_train(b, lim[1], lim[0]);
}

void port_credit_release(struct port *in, uint8_t vl, uint32_t frame_bytes)
{
	struct port_credit *c = in->credit;
	struct port_credit_vl *v;
	uint32_t n = pkt_ib_blocks(frame_bytes), unadv;

	if (!c)
		return;
	v = &c->vl[vl & (PORT_N_TC - 1)];
	v->held_blocks = n <= v->held_blocks ? v->held_blocks - n : 0;
	unadv = (uint32_t)(port_credit_limit(v) - v->adv) & PORT_CREDIT_MOD_MASK;
	if (!unadv)
		return;
	if (unadv >= c->update_blocks) {
		port_credit_send(in, vl & (PORT_N_TC - 1), PKT_IB_FC_OP_NORMAL, false);
	} else {
		port_credit_mark(in, vl & (PORT_N_TC - 1));
	}
}

/* Set @p's paused mask from its credit-blocked classes and outside pauses. */
static inline void port_credit_mask(struct port *p)
{
	p->paused_mask = p->credit->blocked | p->credit->ext_paused;
}

static inline uint32_t port_credit_head_bytes(const struct port *p, uint8_t tc)
{
	const struct port_ring *q = &p->q[tc];

	return (uint32_t)q->slots[q->head & q->mask].aux;
}

static inline bool port_credit_vl_may(const struct port_credit_vl *v, uint32_t frame_bytes)
{
	return pkt_ib_fc_may_send(v->fctbs, v->fccl, pkt_ib_blocks(frame_bytes));
}

void port_credit_rx(struct port *p, struct rte_mbuf *m)
{
	struct port_credit *c = p->credit;
	uint16_t fctbs, fccl;
	uint8_t op, vl, bit;
	int rc = pkt_parse_ib_fc(m, &op, &vl, &fctbs, &fccl);
	struct port_credit_vl *v;

	sim_pkt_free(p->sim, m);
	if (!c)
		return;
	if (rc != 0 || vl >= PORT_N_TC) {
		c->stats.ignored_rx++;
		return;
	}
	v = &c->vl[vl];
	bit = (uint8_t)(1u << vl);
	c->stats.fc_rx[vl]++;
	v->fccl = fccl;
	if (v->abr != fctbs) {
		/* IBTA: the receiver sets ABR to the sender's FCTBS, so that
		 * blocks lost on the link come back as credits. (On a lossless
		 * link they are equal: the packet follows every frame counted.) */
		v->abr = fctbs;
		if ((uint32_t)(port_credit_limit(v) - v->adv) & PORT_CREDIT_MOD_MASK)
			port_credit_mark(p, vl);
	}
	if ((c->blocked & bit) && port_credit_vl_may(v, port_credit_head_bytes(p, vl))) {
		c->blocked &= (uint8_t)~bit;
		c->stats.credit_starved_ps[vl] += p->sim->now_ps - v->starved_since_ps;
		port_credit_mask(p);
		if (!p->tx_pkt)
			port_next(p);
	}
}

void port_credit_arrive(struct port *p, const struct rte_mbuf *m)
{
	struct port_credit *c = p->credit;
	const struct pkt_meta *pm = pkt_meta_const(m);
	uint8_t vl = pm->tc & (PORT_N_TC - 1);
	struct port_credit_vl *v = &c->vl[vl];
	uint32_t n = pkt_ib_blocks(pm->frame_bytes);

	v->abr = (uint16_t)((v->abr + n) & PORT_CREDIT_MOD_MASK);
	v->held_blocks += n;
	v->blocks_rx += n;
	if (v->held_blocks > v->max_held_blocks)
		v->max_held_blocks = v->held_blocks;
	/* Never dropped for want of buffer: an overrun is the model's bug. */
	if (v->held_blocks > v->buffer_blocks)
		c->stats.credit_overruns[vl]++;
	if (c->release_on_arrival)
		port_credit_release(p, vl, pm->frame_bytes);
}

void port_credit_eval(struct port *p)
{
	struct port_credit *c = p->credit;
	uint8_t stale = p->nonempty_mask & (uint8_t)~c->known;

	while (stale) {
		uint8_t tc = (uint8_t)__builtin_ctz(stale);
		uint8_t bit = (uint8_t)(1u << tc);

		stale &= (uint8_t)(stale - 1);
		c->known |= bit;
		/* A link that is down takes everything (and loses it, as an IB
		 * port discards what it cannot deliver): no credits to wait for. */
		if (!(p->flags & PORT_F_DOWN) &&
		    !port_credit_vl_may(&c->vl[tc], port_credit_head_bytes(p, tc))) {
			c->blocked |= bit;
			c->vl[tc].starved_since_ps = p->sim->now_ps;
		}
	}
	port_credit_mask(p);
}

void port_credit_sent(struct port *p, uint8_t tc, uint32_t frame_bytes)
{
	struct port_credit *c = p->credit;
	struct port_credit_vl *v = &c->vl[tc];
	uint32_t n = pkt_ib_blocks(frame_bytes);

	v->fctbs = (uint16_t)((v->fctbs + n) & PORT_CREDIT_MOD_MASK);
	v->blocks_tx += n;
	/* The class has a new head (or none). */
	c->known &= (uint8_t)~(1u << tc);
	if (unlikely(p->flags & PORT_F_LOSSY)) {
		/* The peer learns FCTBS (and recovers lost blocks) from the
		 * next flow-control packet: see that one goes. */
		port_credit_mark(p, tc);
	}
}

bool port_credit_may(const struct port *p, uint8_t tc, uint32_t frame_bytes)
{
	return (p->flags & PORT_F_DOWN) || port_credit_vl_may(&p->credit->vl[tc], frame_bytes);
}

void port_credit_link_down(struct port *p)
{
	struct port_credit *c = p->credit;
	uint64_t now = p->sim->now_ps;

	if (!c)
		return;
	/* What waited for credits may go now (into the dead link). */
	for (uint8_t tc = 0; tc < PORT_N_TC; tc++)
		if (c->blocked & (1u << tc))
			c->stats.credit_starved_ps[tc] += now - c->vl[tc].starved_since_ps;
	c->blocked = 0;
	c->known = 0;
	port_credit_mask(p);
	port_kick(p);
}

void port_credit_relink(struct port *a, struct port *b)
{
	struct port *ends[2] = { a, b };
	uint64_t lim[2][PORT_N_TC] = { { 0 } };
	/* A link between two processes (par.h): each end is trained where it
	 * runs, with the other end's grant brought over. */
	bool apart = par_sim_process(a->sim) != par_sim_process(b->sim);

	if (!a->credit || !b->credit || a->peer != b || (!apart && !par_sim_here(a->sim)))
		return; /* (a link that another process runs whole: trained there) */
	/* Link training again: both ends start their counts anew; each
	 * receiver grants what its buffer has free (frames it still holds
	 * from before stay counted until released). */
	for (int e = 0; e < 2; e++) {
		struct port_credit *c = ends[e]->credit;

		if (apart && !par_sim_here(ends[e]->sim))
			continue;
		for (int v = 0; v < PORT_N_TC; v++) {
			c->vl[v].fctbs = c->vl[v].abr = 0;
			lim[e][v] = port_credit_limit(&c->vl[v]);
		}
		c->unadv = 0;
		c->known = 0;
	}
	if (apart)
		par_sum(a->sim, &lim[0][0], 2 * PORT_N_TC); /* every process calls it here */
	if (!a->rate_bps)
		return;
	for (int e = 0; e < 2; e++)
		if (!apart || par_sim_here(ends[e]->sim))
			port_credit_train(ends[e], lim[e], lim[1 - e]);
}

void port_credit_park(struct port *p, uint8_t tc)
{
	const struct port_credit *c = p->credit;
	uint8_t bit = (uint8_t)(1u << tc);

	if (c->known & bit)
		return; /* not its head: the class was already waiting */
	/* Its head now; paused from outside, it may yet have its credits. */
	port_credit_eval(p);
}

void port_credit_flushed(struct port *p, uint8_t tc)
{
	struct port_credit *c = p->credit;
	uint8_t bit = (uint8_t)(1u << tc);

	if (c->blocked & bit)
		c->stats.credit_starved_ps[tc] += p->sim->now_ps - c->vl[tc].starved_since_ps;
	c->known &= (uint8_t)~bit;
	c->blocked &= (uint8_t)~bit;
	port_credit_mask(p);
}

void port_credit_set_paused(struct port *p, uint8_t tc, bool paused)
{
	struct port_credit *c = p->credit;

	if (paused)
		c->ext_paused |= (uint8_t)(1u << tc);
	else
		c->ext_paused &= (uint8_t)~(1u << tc);
	port_credit_mask(p);
	if (!paused && !p->tx_pkt)
		port_next(p);
}

int port_credit_blocked_vl(const struct port *p)
{
	const struct port_credit *c = p->credit;

	if (!c)
		return -ENOENT;
	for (uint8_t tc = 0; tc < PORT_N_TC; tc++)
		if (port_tc_len(p, tc) &&
		    !port_credit_vl_may(&c->vl[tc], port_credit_head_bytes(p, tc)))
			return tc;
	return -ENOENT;
}

uint64_t port_credit_owed_bytes(const struct port *p)
{
	const struct port_credit *c = p->credit;
	const struct port_credit *pc = p->peer ? p->peer->credit : NULL;
	uint64_t owed = 0;

	if (!c || !pc)
		return 0;
	for (uint8_t vl = 0; vl < PORT_N_TC; vl++) {
		uint32_t grant = pc->vl[vl].buffer_blocks;
		uint32_t avail = (uint32_t)(c->vl[vl].fccl - c->vl[vl].fctbs) % PKT_IB_FC_MOD;

		/* A limit behind what was sent (it never is) counts as none left. */
		if (avail > PKT_IB_FC_HALF)
			avail = 0;
		if (grant > avail)
			owed += (uint64_t)(grant - avail) * PKT_IB_BLOCK_BYTES;
	}
	return owed;
}

uint32_t port_credit_buffer_bytes(const struct port *p, uint8_t vl)
{
	return p->credit ? p->credit->vl[vl & (PORT_N_TC - 1)].buffer_blocks * PKT_IB_BLOCK_BYTES : 0;
}

void port_credit_stats(const struct port *p, struct port_credit_stats *out)
{
	port_credit_stats_at(p, p->sim->now_ps, out);
}

void port_credit_stats_at(const struct port *p, uint64_t now_ps, struct port_credit_stats *out)
{
	const struct port_credit *c = p->credit;

	*out = (struct port_credit_stats){ 0 };
	if (!c)
		return;
	*out = c->stats;
	for (int tc = 0; tc < PORT_N_TC; tc++) {
		out->blocks_tx[tc] = c->vl[tc].blocks_tx;
		out->blocks_rx[tc] = c->vl[tc].blocks_rx;
		out->max_held_blocks[tc] = c->vl[tc].max_held_blocks;
		out->fc_tx[tc] = c->vl[tc].fc_tx;
	}
	for (int tc = 0; tc < PORT_N_TC; tc++)
		if (c->blocked & (1u << tc))
			out->credit_starved_ps[tc] += now_ps - c->vl[tc].starved_since_ps;
}
