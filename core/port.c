/* Egress scheduling, serialisation and propagation. The only events are
 * "current frame finished" per busy port and "head frame arrives" per
 * non-empty pipe. */
#include <assert.h>
#include <string.h>

#include "capture.h"
#include "port.h"
#include "sim.h"

static void port_tx_done(struct sim *sim, void *obj);
static void port_arrive(struct sim *sim, void *obj);

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
	for (int tc = 0; tc < PORT_N_TC; tc++)
		p->sched.quantum_bytes[tc] = 4096 + 512;
}

void port_connect(struct port *a, struct port *b, uint64_t rate_bps, uint64_t delay_ps)
{
	a->peer = b;
	b->peer = a;
	a->rate_bps = b->rate_bps = rate_bps;
	a->delay_ps = b->delay_ps = delay_ps;
}

static inline void fifo_push(struct port_fifo *f, struct rte_mbuf *m, uint32_t bytes)
{
	pkt_meta(m)->q_next = NULL;
	if (f->tail)
		pkt_meta(f->tail)->q_next = m;
	else
		f->head = m;
	f->tail = m;
	f->n_pkts++;
	f->bytes += bytes;
}

static inline struct rte_mbuf *fifo_pop(struct port_fifo *f, uint32_t bytes)
{
	struct rte_mbuf *m = f->head;

	f->head = pkt_meta(m)->q_next;
	if (!f->head)
		f->tail = NULL;
	f->n_pkts--;
	f->bytes -= bytes;
	return m;
}

/* Pick the class to serve: strict classes from the highest down, then DWRR
 * among the others. Returns -1 when nothing may be sent. */
static int port_pick_tc(struct port *p)
{
	uint8_t ready = p->nonempty_mask & (uint8_t)~p->paused_mask;
	uint8_t strict = ready & p->sched.strict_mask;
	uint8_t rr = ready & (uint8_t)~p->sched.strict_mask;

	if (strict)
		return 31 - __builtin_clz(strict);
	if (!rr)
		return -1;
	if (!(rr & (rr - 1))) {
		/* A single class: no round to run; keep its deficit neutral. */
		int tc = __builtin_ctz(rr);

		p->deficit[tc] = pkt_meta(p->q[tc].head)->frame_bytes;
		return tc;
	}
	for (;;) {
		int tc = p->dwrr_cur;

		if (rr & (1u << tc)) {
			if (!p->dwrr_granted) {
				p->deficit[tc] += p->sched.quantum_bytes[tc];
				p->dwrr_granted = 1;
			}
			if (p->deficit[tc] >= (int64_t)pkt_meta(p->q[tc].head)->frame_bytes)
				return tc;
		}
		p->dwrr_cur = (uint8_t)((tc + 1) & (PORT_N_TC - 1));
		p->dwrr_granted = 0;
	}
}

static void port_start(struct port *p, struct rte_mbuf *m)
{
	struct pkt_meta *pm = pkt_meta(m);
	struct sim *sim = p->sim;
	uint64_t ser = units_ser_ps((uint64_t)pm->frame_bytes + PKT_WIRE_OVERHEAD_BYTES,
				    p->rate_bps, &p->ser_rem);

	if (p->ops->departing)
		p->ops->departing(p->owner, p, m);
	p->tx_pkt = m;
	p->stats.tx_pkts++;
	p->stats.tx_bytes += pm->frame_bytes;
	p->stats.tc_tx_bytes[pm->tc & (PORT_N_TC - 1)] += pm->frame_bytes;
	p->stats.busy_ps += ser;
	if (unlikely(p->cap != NULL))
		cap_write(p->cap, sim->now_ps, m, pm->frame_bytes);
	sim_at(sim, sim->now_ps + ser, &p->src, port_tx_done, p);
}

/* Start the next frame if one may go: queued first, then the owner's. */
static void port_next(struct port *p)
{
	int tc = port_pick_tc(p);
	struct rte_mbuf *m;

	if (tc >= 0) {
		struct port_fifo *f = &p->q[tc];
		uint32_t bytes = pkt_meta(f->head)->frame_bytes;

		m = fifo_pop(f, bytes);
		p->queue_bytes -= bytes;
		if (!f->head) {
			p->nonempty_mask &= (uint8_t)~(1u << tc);
			p->deficit[tc] = 0;
		} else if (!(p->sched.strict_mask & (1u << tc))) {
			p->deficit[tc] -= bytes;
		}
		port_start(p, m);
		return;
	}
	if (p->ops->pull && (m = p->ops->pull(p->owner, p)) != NULL) {
		port_start(p, m);
		return;
	}
	p->tx_pkt = NULL;
}

void port_enqueue(struct port *p, struct rte_mbuf *m)
{
	struct pkt_meta *pm = pkt_meta(m);
	uint8_t tc = pm->tc & (PORT_N_TC - 1);

	fifo_push(&p->q[tc], m, pm->frame_bytes);
	p->nonempty_mask |= (uint8_t)(1u << tc);
	p->queue_bytes += pm->frame_bytes;
	if (p->queue_bytes > p->stats.max_queue_bytes)
		p->stats.max_queue_bytes = p->queue_bytes;
	if (!p->tx_pkt)
		port_next(p);
}

void port_kick(struct port *p)
{
	if (!p->tx_pkt)
		port_next(p);
}

void port_set_paused(struct port *p, uint8_t tc, bool paused)
{
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
	struct pkt_meta *pm = pkt_meta(m);

	pm->due_ps = sim->now_ps + p->delay_ps;
	fifo_push(&p->pipe, m, pm->frame_bytes);
	if (!p->pipe_armed) {
		p->pipe_armed = 1;
		sim_at(sim, pm->due_ps, &p->src, port_arrive, p);
	}
	port_next(p);
}

static void port_arrive(struct sim *sim, void *obj)
{
	struct port *p = obj;
	struct port *peer = p->peer;
	struct rte_mbuf *m = fifo_pop(&p->pipe, pkt_meta(p->pipe.head)->frame_bytes);
	struct pkt_meta *pm = pkt_meta(m);

	if (p->pipe.head)
		sim_at(sim, pkt_meta(p->pipe.head)->due_ps, &p->src, port_arrive, p);
	else
		p->pipe_armed = 0;
	sim->n_hops++;
	peer->stats.rx_pkts++;
	peer->stats.rx_bytes += pm->frame_bytes;
	if (unlikely(peer->cap != NULL))
		cap_write(peer->cap, sim->now_ps, m, pm->frame_bytes);
	peer->ops->rx(peer->owner, peer, m);
}
