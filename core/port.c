/* Egress scheduling, serialisation and propagation. The only events are
 * "current frame finished" per busy port and "head frame arrives" per
 * non-empty pipe. Queues and pipes are rings of (packet, bytes or time)
 * slots, so moving a packet never touches the packet's own memory. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "par.h"
#include "port.h"
#include "port_credit.h"
#include "port_fault.h"
#include "port_pfc.h"
#include "rng.h"
#include "sim.h"

enum { PORT_RING_INITIAL = 16 };

static void port_tx_done(struct sim *sim, void *obj);
static void port_arrive(struct sim *sim, void *obj);
static void port_wake(struct sim *sim, void *obj);

/* Prefetch hints (sim_hint): an arrival starts with the link line, then
 * the frame at the pipe's head (its metadata and headers); an end of frame
 * with the queueing line. */
static void port_hints(struct sim *sim)
{
	sim_hint(sim, port_arrive, offsetof(struct port, pipe), offsetof(struct port, pipe_head),
		 PKT_META_LINE);
	sim_hint(sim, port_tx_done, offsetof(struct port, tx_pkt), SIM_NO_PTR, 0);
}

void port_init(struct port *p, struct sim *sim, const struct port_ops *ops, void *owner,
	       uint32_t node, uint16_t index)
{
	memset(p, 0, sizeof(*p));
	p->sim = sim;
	p->ops = ops;
	p->owner = owner;
	p->node = node;
	p->index = index;
	sim_new_src(sim, &p->src);
	port_hints(sim);
	p->pipe.slots = p->pipe_inline;
	p->pipe.mask = PORT_PIPE_INLINE - 1;
	port_set_ll(p, &pkt_ll_roce);
	for (int tc = 0; tc < PORT_N_TC; tc++)
		p->sched.quantum_bytes[tc] = 4096 + 512;
}

void port_set_ll(struct port *p, const struct pkt_ll *ll)
{
	p->ll = ll;
	p->wire_overhead_bytes = ll->wire_overhead_bytes;
	p->pipe.ll_kind = ll->kind;
}

/* @p's state as a sender to a peer in partition @rx (PORT_F_XPAR). */
static void port_xpar_make(struct port *p, struct sim *rx)
{
	if (!p->xpar && !(p->xpar = malloc(sizeof(*p->xpar)))) {
		fprintf(stderr, "fabemu: out of memory linking partitions\n");
		abort();
	}
	*p->xpar = (struct port_xpar){ .rx_sim = rx, .rx_src = { .id = p->src.id },
				       .xid = par_xport_add(p->sim->par, p) };
}

void port_connect(struct port *a, struct port *b, uint64_t rate_bps, uint64_t delay_ps)
{
	/* One link, one link layer: an arrival reads the sender's. */
	assert(a->ll == b->ll);
	a->peer = b;
	b->peer = a;
	a->peer_rx = b->ops->rx;
	b->peer_rx = a->ops->rx;
	a->peer_owner = b->owner;
	b->peer_owner = a->owner;
	a->pipe.peer_cap = b->cap != NULL;
	b->pipe.peer_cap = a->cap != NULL;
	a->pipe.peer_credit = b->credit != NULL;
	b->pipe.peer_credit = a->credit != NULL;
	port_set_rate(a, rate_bps);
	port_set_rate(b, rate_bps);
	a->delay_ps = b->delay_ps = delay_ps;
	if (a->sim != b->sim) {
		/* Across partitions: each side's arrivals are scheduled by the
		 * other's, under the sender's id with a sequence of their own
		 * (only they use it there, so their order is the same). */
		a->flags |= PORT_F_XPAR;
		b->flags |= PORT_F_XPAR;
		port_xpar_make(a, b->sim);
		port_xpar_make(b, a->sim);
	}
	port_credit_link_up(a, b);
}

void port_set_owner(struct port *p, const struct port_ops *ops, void *owner)
{
	p->ops = ops;
	p->owner = owner;
	if (p->peer) {
		p->peer->peer_rx = ops->rx;
		p->peer->peer_owner = owner;
	}
}

void port_set_rate(struct port *p, uint64_t rate_bps)
{
	p->rate_bps = rate_bps;
	p->ser_rem = 0;
	/* Standard rates serialise a byte in a whole number of picoseconds
	 * (80 ps at 100 Gb/s): no division per frame then. */
	p->ps_per_byte = rate_bps && (8 * UNITS_PS_PER_S) % rate_bps == 0 &&
					 (8 * UNITS_PS_PER_S) / rate_bps <= UINT32_MAX
				 ? (uint32_t)((8 * UNITS_PS_PER_S) / rate_bps)
				 : 0;
	port_credit_rate_changed(p);
}

void port_set_macs(struct port *p, const uint8_t own[6], const uint8_t next_hop[6])
{
	if (own)
		memcpy(p->l2 + 6, own, 6);
	if (next_hop)
		memcpy(p->l2, next_hop, 6);
}

void port_set_capture(struct port *p, struct cap_file *cap)
{
	p->cap = cap;
	if (p->peer)
		p->peer->pipe.peer_cap = cap != NULL;
}

/* Double a full FIFO (@slots, @mask, indices @head..@tail) keeping its
 * order, or give an empty one its first slots; frees the old slots when
 * @external (allocated, not a port's inline ones). Runs only when a queue
 * or link reaches a new high-water mark. */
static void port_fifo_grow(struct port_slot **slots, uint32_t *mask, uint32_t *head, uint32_t *tail,
		      bool external)
{
	uint32_t cap = *slots ? (*mask + 1) * 2 : PORT_RING_INITIAL, n = *tail - *head;
	struct port_slot *s = malloc(sizeof(*s) * cap);

	if (!s) {
		fprintf(stderr, "fabemu: out of memory growing a port queue to %u packets\n", cap);
		abort();
	}
	for (uint32_t i = 0; i < n; i++)
		s[i] = (*slots)[(*head + i) & *mask];
	if (external)
		free(*slots);
	*slots = s;
	*mask = cap - 1;
	*head = 0;
	*tail = n;
}

static void port_ring_grow(struct port_ring *r)
{
	port_fifo_grow(&r->slots, &r->mask, &r->head, &r->tail, r->external);
	r->external = 1;
}

static void port_pipe_grow(struct port_pipe *r)
{
	port_fifo_grow(&r->slots, &r->mask, &r->head, &r->tail, r->external);
	r->external = 1;
}

static inline void port_ring_push(struct port_ring *r, struct rte_mbuf *m, uint64_t aux)
{
	struct port_slot *s;

	if (unlikely(!r->slots || port_ring_len(r) > r->mask))
		port_ring_grow(r);
	s = &r->slots[r->tail++ & r->mask];
	s->m = m;
	s->aux = aux;
}

static inline void port_pipe_push(struct port_pipe *r, struct rte_mbuf *m, uint64_t due_ps)
{
	struct port_slot *s;

	if (unlikely(port_pipe_len(r) > r->mask))
		port_pipe_grow(r);
	s = &r->slots[r->tail++ & r->mask];
	s->m = m;
	s->aux = due_ps;
}

static void port_pipe_free(struct sim *sim, struct port_pipe *r)
{
	while (r->head != r->tail)
		sim_pkt_free(sim, r->slots[r->head++ & r->mask].m);
	if (r->external)
		free(r->slots);
	r->slots = NULL;
	r->head = r->tail = r->mask = 0;
	r->external = 0;
}

static void port_ring_free(struct sim *sim, struct port_ring *r)
{
	while (r->head != r->tail)
		sim_pkt_free(sim, r->slots[r->head++ & r->mask].m);
	if (r->external)
		free(r->slots);
	memset(r, 0, sizeof(*r));
}

void port_fini(struct port *p)
{
	port_pfc_fini(p);
	port_credit_fini(p);
	port_fault_fini(p);
	port_ring_free(p->sim, &p->ctrl);
	for (int tc = 0; tc < PORT_N_TC; tc++)
		port_ring_free(p->sim, &p->q[tc]);
	/* The frames on the wire are the receiver's (par.h). */
	port_pipe_free(p->xpar ? p->xpar->rx_sim : p->sim, &p->pipe);
	free(p->xpar);
	p->xpar = NULL;
	if (p->tx_pkt)
		sim_pkt_free(p->sim, p->tx_pkt);
	p->tx_pkt = NULL;
}

/* Pick the class to serve: strict classes from the highest down, then DWRR
 * among the others. Returns -1 when nothing may be sent. */
static inline __attribute__((always_inline)) int port_pick_tc(struct port *p)
{
	uint8_t ready = p->nonempty_mask & (uint8_t)~p->paused_mask;
	uint8_t strict, rr;

	if (likely(!(ready & (ready - 1)))) {
		int tc;

		if (!ready)
			return -1;
		tc = __builtin_ctz(ready);
		/* Strict or not, the deficit stays neutral (as below). */
		p->q[tc].deficit = (uint32_t)p->q[tc].slots[p->q[tc].head & p->q[tc].mask].aux;
		return tc;
	}
	strict = ready & p->sched.strict_mask;
	rr = ready & (uint8_t)~p->sched.strict_mask;
	if (strict)
		return 31 - __builtin_clz(strict);
	if (!(rr & (rr - 1))) {
		/* A single class: no round to run; keep its deficit neutral. */
		int tc = __builtin_ctz(rr);

		p->q[tc].deficit = (uint32_t)p->q[tc].slots[p->q[tc].head & p->q[tc].mask].aux;
		return tc;
	}
	for (;;) {
		int tc = p->dwrr_cur;

		if (rr & (1u << tc)) {
			struct port_ring *q = &p->q[tc];

			if (!p->dwrr_granted) {
				q->deficit += p->sched.quantum_bytes[tc];
				p->dwrr_granted = 1;
			}
			if (q->deficit >= (int64_t)(uint32_t)q->slots[q->head & q->mask].aux)
				return tc;
		}
		p->dwrr_cur = (uint8_t)((tc + 1) & (PORT_N_TC - 1));
		p->dwrr_granted = 0;
	}
}

/* Hand a frame to the link: it reaches the peer at @due_ps, or is lost
 * (only on lossy or faulty links: port_fault_tx draws and frees). */
static void port_to_pipe(struct port *p, struct rte_mbuf *m, uint64_t due_ps)
{
	if (unlikely(p->flags & (PORT_F_LOSSY | PORT_F_XPAR))) {
		if ((p->flags & PORT_F_LOSSY) && port_fault_tx(p, m))
			return;
		if (p->flags & PORT_F_XPAR) {
			par_send(p, m, due_ps);
			return;
		}
	}
	port_pipe_push(&p->pipe, m, due_ps);
	if (port_pipe_len(&p->pipe) == 1) {
		p->pipe_head = m;
		sim_at(p->sim, due_ps, &p->src, port_arrive, p);
	}
}

static void port_start(struct port *p, struct rte_mbuf *m, uint8_t tc, uint32_t bytes,
		       uint32_t tag)
{
	struct sim *sim = p->sim;
	uint64_t ser = likely(p->ps_per_byte)
			       ? ((uint64_t)bytes + p->wire_overhead_bytes) * p->ps_per_byte
			       : units_ser_ps((uint64_t)bytes + p->wire_overhead_bytes, p->rate_bps,
					      &p->ser_rem);
	uint64_t end = sim->now_ps + ser;

	/* Busy from here: a departing hook that queues a control frame on this
	 * port (an XON the released bytes allow) must not start it now. */
	p->tx_pkt = m;
	if (p->ops->departing)
		p->ops->departing(p->owner, p, m, tc, bytes, tag);
	p->tx_pkts++;
	if (likely(tc < PORT_N_TC)) {
		p->q[tc].out_bytes += bytes;
	} else {
		p->ctrl_tx_pkts++;
		p->ctrl_tx_bytes += bytes;
	}
	if (unlikely(p->cap != NULL))
		cap_write_ev(p->cap, sim, m, bytes);
	if (p->ops->pull || p->nonempty_mask || (p->flags & PORT_F_CTRL)) {
		/* Something may follow: decide at the end of this frame. */
		p->tx_bytes_cur = bytes;
		sim_at(sim, end, &p->src, port_tx_done, p);
	} else {
		/* Nothing waits behind it: no end-of-frame event. The frame goes
		 * on the link now, due at the peer after serialisation and
		 * propagation; the port stays busy until @end, and a frame queued
		 * meanwhile wakes it then (port_next). */
		p->tx_pkt = NULL;
		p->busy_until_ps = end;
		port_to_pipe(p, m, end + p->delay_ps);
	}
}

/* Start the MAC control frame at the head of the control ring. */
static inline void port_start_ctrl(struct port *p)
{
	struct port_slot s = p->ctrl.slots[p->ctrl.head++ & p->ctrl.mask];

	if (p->ctrl.head == p->ctrl.tail)
		p->flags &= (uint8_t)~PORT_F_CTRL;
	port_start(p, s.m, PORT_TC_CTRL, (uint32_t)s.aux, 0);
}

/* Take the head frame of class @tc (which holds one) off its queue. */
static inline struct port_slot port_take(struct port *p, int tc)
{
	struct port_ring *q = &p->q[tc];
	struct port_slot s = q->slots[q->head++ & q->mask];
	uint32_t bytes = (uint32_t)s.aux;

	/* The slots of a long queue were written long ago: load the
	 * next line of them one frame time ahead of its use. */
	__builtin_prefetch(&q->slots[(q->head + PORT_SLOTS_PER_LINE) & q->mask]);

	q->bytes -= bytes;
	p->queue_bytes -= bytes;
	if (q->head == q->tail) {
		p->nonempty_mask &= (uint8_t)~(1u << tc);
		q->deficit = 0;
	} else {
		/* (Strict classes never use theirs.) */
		q->deficit -= bytes;
	}
	return s;
}

/* Queue @m (@frame_bytes) on class @tc as port_enqueue does, without
 * starting anything. */
static inline void port_push(struct port *p, struct rte_mbuf *m, uint8_t tc, uint32_t frame_bytes,
			     uint32_t tag)
{
	struct port_ring *q = &p->q[tc & (PORT_N_TC - 1)];

	port_ring_push(q, m, frame_bytes | (uint64_t)tag << 32);
	q->bytes += frame_bytes;
	p->nonempty_mask |= (uint8_t)(1u << (tc & (PORT_N_TC - 1)));
	p->queue_bytes += frame_bytes;
	if (p->queue_bytes > p->max_queue_bytes)
		p->max_queue_bytes = p->queue_bytes;
}

/* port_next of a port under IB credits (port_credit.h): the same order,
 * with the credit check of each class's head folded into paused_mask
 * before the pick. A pulled frame whose VL lacks credits (or is paused)
 * waits as the head of its class queue; its class is then paused, which
 * the owner's pull honours (nic_pull skips paused classes), so pulling
 * goes on only for the other VLs; at most one round of PORT_N_TC pulls per
 * call. */
static __attribute__((noinline, cold)) void port_next_credit(struct port *p)
{
	struct rte_mbuf *m;
	int tc;

	if (p->flags & PORT_F_CTRL) {
		port_start_ctrl(p);
		return;
	}
	port_credit_eval(p);
	tc = port_pick_tc(p);
	if (tc >= 0) {
		struct port_slot s = port_take(p, tc);

		port_credit_sent(p, (uint8_t)tc, (uint32_t)s.aux);
		/* The VL it crosses the link on, for the receiver's count. */
		pkt_meta(s.m)->tc = (uint8_t)tc;
		port_start(p, s.m, (uint8_t)tc, (uint32_t)s.aux, (uint32_t)(s.aux >> 32));
		return;
	}
	for (int i = 0; i < PORT_N_TC && p->ops->pull && (m = p->ops->pull(p->owner, p)); i++) {
		const struct pkt_meta *pm = pkt_meta(m);
		uint8_t vl = pm->tc & (PORT_N_TC - 1), bit = (uint8_t)(1u << vl);
		uint32_t bytes = pm->frame_bytes;

		if (!(p->paused_mask & bit) && port_credit_may(p, vl, bytes)) {
			port_credit_sent(p, vl, bytes);
			port_start(p, m, vl, bytes, 0);
			return;
		}
		port_push(p, m, vl, bytes, 0);
		port_credit_park(p, vl);
	}
	p->tx_pkt = NULL;
}

/* Start the next frame if one may go: control frames first, then the
 * queues, then the owner's. */
void port_next(struct port *p)
{
	struct rte_mbuf *m;
	int tc;

	if (unlikely(p->busy_until_ps > p->sim->now_ps)) {
		/* A frame sent without an end-of-frame event is on the wire. */
		if (!(p->flags & PORT_F_WAKE)) {
			p->flags |= PORT_F_WAKE;
			sim_at(p->sim, p->busy_until_ps, &p->src, port_wake, p);
		}
		return;
	}
	if (unlikely(p->flags & (PORT_F_CTRL | PORT_F_CREDIT))) {
		if (p->flags & PORT_F_CREDIT)
			port_next_credit(p);
		else
			port_start_ctrl(p);
		return;
	}
	tc = port_pick_tc(p);
	if (tc >= 0) {
		struct port_slot s = port_take(p, tc);

		port_start(p, s.m, (uint8_t)tc, (uint32_t)s.aux, (uint32_t)(s.aux >> 32));
		return;
	}
	if (p->ops->pull && (m = p->ops->pull(p->owner, p)) != NULL) {
		const struct pkt_meta *pm = pkt_meta(m);

		port_start(p, m, pm->tc & (PORT_N_TC - 1), pm->frame_bytes, 0);
		return;
	}
	p->tx_pkt = NULL;
}

void port_enqueue_tag(struct port *p, struct rte_mbuf *m, uint8_t tc, uint32_t frame_bytes,
		      uint32_t tag)
{
	port_push(p, m, tc, frame_bytes, tag);
	if (!p->tx_pkt)
		port_next(p);
}

uint32_t port_flush_tc(struct port *p, uint8_t tc, port_flush_fn fn, void *arg)
{
	struct port_ring *q = &p->q[tc & (PORT_N_TC - 1)];
	uint32_t n = 0;

	while (q->head != q->tail) {
		struct port_slot s = q->slots[q->head++ & q->mask];
		uint32_t bytes = (uint32_t)s.aux;

		/* The port is consistent before the callee runs: it may queue
		 * (a PFC frame the released bytes allow) on any port. */
		q->bytes -= bytes;
		p->queue_bytes -= bytes;
		if (q->head == q->tail) {
			/* As port_next when a class empties. */
			p->nonempty_mask &= (uint8_t)~(1u << (tc & (PORT_N_TC - 1)));
			q->deficit = 0;
			if (p->flags & PORT_F_CREDIT)
				port_credit_flushed(p, tc & (PORT_N_TC - 1));
		}
		n++;
		fn(arg, s.m, bytes, (uint32_t)(s.aux >> 32));
	}
	return n;
}

bool port_take_last(struct port *p, uint8_t tc, struct port_slot *out)
{
	struct port_ring *q = &p->q[tc & (PORT_N_TC - 1)];
	uint32_t bytes;

	assert(!(p->flags & PORT_F_CREDIT));
	if (q->head == q->tail)
		return false;
	*out = q->slots[--q->tail & q->mask];
	bytes = (uint32_t)out->aux;
	q->bytes -= bytes;
	p->queue_bytes -= bytes;
	if (q->head == q->tail) {
		/* As port_next when a class empties. */
		p->nonempty_mask &= (uint8_t)~(1u << (tc & (PORT_N_TC - 1)));
		q->deficit = 0;
	}
	return true;
}

void port_kick(struct port *p)
{
	if (!p->tx_pkt)
		port_next(p);
}

void port_send_ctrl(struct port *p, struct rte_mbuf *m)
{
	port_ring_push(&p->ctrl, m, pkt_meta(m)->frame_bytes);
	p->flags |= PORT_F_CTRL;
	if (!p->tx_pkt)
		port_next(p);
}

void port_set_loss(struct port *p, double loss, uint64_t seed)
{
	p->loss_ppb = (uint64_t)(loss * 1e9 + 0.5);
	p->rng = seed;
	if (p->loss_ppb || p->fault)
		p->flags |= PORT_F_LOSSY;
	else
		p->flags &= (uint8_t)~PORT_F_LOSSY;
}

void port_set_paused(struct port *p, uint8_t tc, bool paused)
{
	if (p->flags & PORT_F_CREDIT) {
		port_credit_set_paused(p, tc, paused);
		return;
	}
	if (paused)
		p->paused_mask |= (uint8_t)(1u << tc);
	else
		p->paused_mask &= (uint8_t)~(1u << tc);
	if (!paused && !p->tx_pkt)
		port_next(p);
}

static void port_tx_done(struct sim *sim, void *obj)
{
	struct port *p = obj;
	struct rte_mbuf *m = p->tx_pkt;

	p->tx_pkt = NULL;
	port_to_pipe(p, m, sim->now_ps + p->delay_ps);
	port_next(p);
}

static void port_wake(struct sim *sim, void *obj)
{
	struct port *p = obj;

	(void)sim;
	p->flags &= (uint8_t)~PORT_F_WAKE;
	if (!p->tx_pkt)
		port_next(p);
}

static void port_arrive_x(struct sim *sim, void *obj);

void port_xpar_deliver(struct port *p, struct rte_mbuf *m, uint64_t due_ps)
{
	port_pipe_push(&p->pipe, m, due_ps);
	if (port_pipe_len(&p->pipe) == 1) {
		p->pipe_head = m;
		sim_at(p->xpar->rx_sim, due_ps, &p->xpar->rx_src, port_arrive_x, p);
	}
}

/* The frame at the head of @p's pipe arrives at the peer; the next one's
 * arrival is scheduled under @src with handler @fn. */
static inline __attribute__((always_inline)) void port_arrive_in(struct sim *sim, struct port *p,
								  struct ev_src *src, ev_fn fn)
{
	struct port_pipe *pipe = &p->pipe;
	struct rte_mbuf *m = p->pipe_head; /* not behind the slot's load */

	if (++pipe->head != pipe->tail) {
		const struct port_slot *next = &pipe->slots[pipe->head & pipe->mask];

		p->pipe_head = next->m;
		/* Likewise the slots of a link's frames in flight. */
		__builtin_prefetch(&pipe->slots[(pipe->head + PORT_SLOTS_PER_LINE) & pipe->mask]);
		sim_at(sim, next->aux, src, fn, p);
		/* The next frame on a busy link arrives one frame time from now:
		 * start loading it while the simulation does other work. */
		pkt_prefetch(next->m);
	}
	sim->n_hops++;
	if (unlikely(pkt_meta(m)->flags)) {
		port_fault_arrive(sim, p, m); /* lost with its link, or corrupted */
		return;
	}
	if (unlikely(pipe->peer_cap))
		cap_write_ev(p->peer->cap, sim, m, pkt_meta(m)->frame_bytes);
	/* MAC control (PFC) is the receiving MAC's business, not its node's;
	 * so are IB flow-control packets. */
	if (unlikely(port_is_ctrl(p, m))) {
		if (p->ll->fc == PKT_LL_FC_CREDIT)
			port_credit_rx(p->peer, m);
		else
			port_pfc_rx(p->peer, m);
		return;
	}
	if (unlikely(pipe->peer_credit))
		port_credit_arrive(p->peer, m);
	p->peer_rx(p->peer_owner, p->peer, m);
}

static void port_arrive(struct sim *sim, void *obj)
{
	struct port *p = obj;

	port_arrive_in(sim, p, &p->src, port_arrive);
}

static void port_arrive_x(struct sim *sim, void *obj)
{
	struct port *p = obj;

	port_arrive_in(sim, p, &p->xpar->rx_src, port_arrive_x);
}

uint64_t port_tx_bytes(const struct port *p)
{
	uint64_t b = p->ctrl_tx_bytes;

	for (int tc = 0; tc < PORT_N_TC; tc++)
		b += p->q[tc].out_bytes;
	return b;
}

void port_stats(const struct port *p, struct port_stats *out)
{
	const struct port *up = p->peer;

	memset(out, 0, sizeof(*out));
	out->lost_pkts = p->lost_pkts;
	out->tx_pkts = p->tx_pkts;
	out->tx_bytes = port_tx_bytes(p);
	out->max_queue_bytes = p->max_queue_bytes;
	out->ctrl_tx_pkts = p->ctrl_tx_pkts;
	for (int tc = 0; tc < PORT_N_TC; tc++)
		out->tc_tx_bytes[tc] = p->q[tc].out_bytes;
	/* Serialisation carries its remainder from frame to frame, so the
	 * time spent is that of all bytes sent, rounded down once. */
	if (p->rate_bps)
		out->busy_ps = (uint64_t)((unsigned __int128)(out->tx_bytes +
							     out->tx_pkts * p->wire_overhead_bytes) *
					  8 * UNITS_PS_PER_S / p->rate_bps);
	/* Received: what the peer sent, less what was lost or is still on
	 * the wire or the link. */
	if (up) {
		uint64_t pkts = up->tx_pkts - up->lost_pkts;
		uint64_t bytes = port_tx_bytes(up) - up->lost_bytes;

		for (uint32_t i = up->pipe.head; i != up->pipe.tail; i++) {
			pkts--;
			bytes -= pkt_meta_const(up->pipe.slots[i & up->pipe.mask].m)->frame_bytes;
		}
		if (up->tx_pkt) {
			pkts--;
			bytes -= up->tx_bytes_cur;
		}
		out->rx_pkts = pkts;
		out->rx_bytes = bytes;
	}
}
