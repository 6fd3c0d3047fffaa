/* The UET side of the NIC (fabric.link_layer: uet): the entropy value
 * (EV) of each data packet, the NACKs of trimmed packets (the receiver's
 * answer, the sender's immediate resend) and the SACK bitmaps of ACK_CC.
 * The transport underneath is the NIC's selective repeat (nic_rel.c);
 * this file adds what UET's reliable unordered delivery does beyond it.
 *
 * EVs. A connection sprays over nic.uet_evs values of the UDP source
 * port (0xC000 + 14 bits, from its own hash and step). oblivious: each
 * packet draws one at random. recycle: an EV whose packet was
 * acknowledged unmarked is used again (a FIFO of NIC_UET_EV_CACHE),
 * a fresh one is drawn when none is waiting: after REPS (recycled
 * entropy packet spraying, the UEC specification's EV recycling). mixed:
 * recycle, and when none is waiting the next EV of a cycle over them all
 * (in an order permuted anew each cycle) that carries no penalty; an EV
 * gathers 1 for a marked ACK and 4 for a trim, up to 15, and loses one
 * each time the cycle skips it (path-aware spraying, as uet-htsim's
 * default MIXED mode). off: the connection's one port, as RoCE.
 *
 * Trims. A data packet that arrives with the trimmed DSCP lost its
 * payload at a switch: the receiver NACKs its PSN (code trimmed) at once.
 * The sender resends a NACKed PSN before anything else (a ring of
 * NIC_UET_NACK_RING) and marks it resent, so that selective repeat's
 * scan (nic_sr_next_lost) does not send it again while its resend is on
 * the way; a timeout clears the marks (everything unacknowledged is lost
 * then). */
#include <stdlib.h>
#include <string.h>

#include "nic_int.h"
#include "nic_uet.h"
#include "pkt_uet.h"
#include "rng.h"

int nic_uet_connect(struct nic_qp *qp)
{
	struct nic *n = qp->nic;
	uint32_t idx = qp->qpn - NIC_QPN_BASE;
	struct nic_uet_qp *u;
	uint64_t x;

	if (idx >= n->cap_uet) {
		uint32_t cap = n->cap_qps;
		struct nic_uet_qp **a = realloc(n->uet, sizeof(*a) * cap);

		if (!a)
			return -1;
		memset(a + n->cap_uet, 0, sizeof(*a) * (cap - n->cap_uet));
		n->uet = a;
		n->cap_uet = cap;
	}
	if (!n->uet[idx] && !(n->uet[idx] = calloc(1, sizeof(*u))))
		return -1;
	u = n->uet[idx];
	free(u->resent);
	free(u->sent_ps);
	free(u->penalty);
	nic_uet_credit_free(qp, u->cr);
	memset(u, 0, sizeof(*u));
	/* The credit pacers, with the NIC's first UET QP: before any of its
	 * QPs can be on a send list, whose length they count. */
	if (nic_uet_pacers_new(n) != 0)
		return -1;
	if ((qp->cc.ops->flags & CC_F_CREDIT) && nic_uet_credit_connect(qp, &u->cr) != 0)
		return -1;
	if (n->p.uet_spray == NIC_UET_SPRAY_MIXED && !(u->penalty = calloc(n->p.uet_evs, 1)))
		return -1;
	if (!(u->resent = calloc((qp->sr_mask + 1) / 64, sizeof(uint64_t))) ||
	    !(u->sent_ps = calloc((size_t)qp->sr_mask + 1, sizeof(uint64_t))))
		return -1;
	x = n->p.uet_seed ^ (uint64_t)qp->addr.src_ip << 32 ^ qp->qpn;
	u->rng = x;
	x = rng_splitmix64(&x);
	u->ev_first = (uint16_t)(x & NIC_UET_EV_MASK);
	u->ev_step = (uint16_t)((x >> 16) | 1);
	/* The inverse of an odd number mod 2^16 (Newton: each step doubles
	 * the bits that are right). */
	u->step_inv = u->ev_step;
	for (int i = 0; i < 4; i++)
		u->step_inv = (uint16_t)((uint32_t)u->step_inv *
					 (2u - (uint32_t)u->ev_step * u->step_inv));
	while (u->cycle_bits < n->p.uet_evs)
		u->cycle_bits = u->cycle_bits ? u->cycle_bits * 2 : 1;
	u->cycle_pos = u->cycle_bits; /* a new cycle at the first draw */
	return 0;
}

/* The EV of index @k of the connection's. */
static uint16_t nic_uet_ev_at(const struct nic_uet_qp *u, uint32_t k)
{
	return (uint16_t)(NIC_UET_EV_BASE | ((u->ev_first + k * u->ev_step) & NIC_UET_EV_MASK));
}

/* The index of EV @ev, or UINT32_MAX when it is not one of the @evs. */
static uint32_t nic_uet_ev_index(const struct nic_uet_qp *u, uint16_t ev, uint32_t evs)
{
	uint32_t k = ((uint32_t)(uint16_t)(ev - NIC_UET_EV_BASE - u->ev_first) * u->step_inv) &
		     NIC_UET_EV_MASK;

	return k < evs && nic_uet_ev_at(u, k) == ev ? k : UINT32_MAX;
}

/* mixed, nothing to recycle: the next EV of the cycle that carries no
 * penalty, each penalised one skipped losing one point of it; a cycle
 * visits every index once in an XOR-permuted order drawn anew. */
static uint16_t nic_uet_ev_cycle(const struct nic *n, struct nic_uet_qp *u)
{
	for (uint32_t tries = 0; tries < 2 * u->cycle_bits + 1; tries++) {
		uint32_t k;

		if (u->cycle_pos >= u->cycle_bits) {
			u->cycle_pos = 0;
			u->cycle_mask = (uint32_t)rng_splitmix64(&u->rng) & (u->cycle_bits - 1);
		}
		k = u->cycle_pos++ ^ u->cycle_mask;
		if (k >= n->p.uet_evs)
			continue;
		if (!u->penalty[k])
			return nic_uet_ev_at(u, k);
		u->penalty[k]--;
	}
	return nic_uet_ev_at(u, (uint32_t)(rng_splitmix64(&u->rng) % n->p.uet_evs));
}

void nic_uet_free(struct nic *n)
{
	for (uint32_t i = 0; i < n->cap_uet; i++) {
		if (n->uet[i]) {
			free(n->uet[i]->cr);
			free(n->uet[i]->resent);
			free(n->uet[i]->sent_ps);
			free(n->uet[i]->penalty);
		}
		free(n->uet[i]);
	}
	free(n->uet);
	free(n->uet_pacers);
}

/* A fresh EV: the k-th of the connection's, k drawn at random. */
static uint16_t nic_uet_ev_draw(const struct nic *n, struct nic_uet_qp *u)
{
	uint64_t k = rng_splitmix64(&u->rng) % n->p.uet_evs;

	return nic_uet_ev_at(u, (uint32_t)k);
}

uint16_t nic_uet_ev(struct nic_qp *qp)
{
	struct nic *n = qp->nic;
	struct nic_uet_qp *u;

	if (n->p.uet_spray == NIC_UET_SPRAY_OFF)
		return 0; /* the template's */
	u = nic_uet_of(qp);
	if (n->p.uet_spray >= NIC_UET_SPRAY_RECYCLE && u->ev_n) {
		uint16_t ev = u->evs[u->ev_head];

		u->ev_head = (uint8_t)((u->ev_head + 1) % NIC_UET_EV_CACHE);
		u->ev_n--;
		return ev;
	}
	return n->p.uet_spray == NIC_UET_SPRAY_MIXED ? nic_uet_ev_cycle(n, u) : nic_uet_ev_draw(n, u);
}

void nic_uet_ev_feedback(struct nic_qp *qp, uint16_t ev, uint8_t penalty)
{
	const struct nic *n = qp->nic;
	struct nic_uet_qp *u;

	if (n->p.uet_spray < NIC_UET_SPRAY_RECYCLE || ev < NIC_UET_EV_BASE)
		return;
	u = nic_uet_of(qp);
	if (penalty) {
		uint32_t k = u->penalty ? nic_uet_ev_index(u, ev, n->p.uet_evs) : UINT32_MAX;

		if (k != UINT32_MAX)
			u->penalty[k] = (uint8_t)(u->penalty[k] + penalty > NIC_UET_PENALTY_MAX
							 ? NIC_UET_PENALTY_MAX
							 : u->penalty[k] + penalty);
		return;
	}
	if (u->ev_n == NIC_UET_EV_CACHE) { /* full: the oldest goes */
		u->ev_head = (uint8_t)((u->ev_head + 1) % NIC_UET_EV_CACHE);
		u->ev_n--;
	}
	u->evs[(u->ev_head + u->ev_n) % NIC_UET_EV_CACHE] = ev;
	u->ev_n++;
}

void nic_uet_nacked(struct nic_qp *qp, uint32_t psn)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	if (u->flight)
		u->flight--; /* that copy's payload is gone: no longer in flight */
	/* Stale (acknowledged since) or beyond anything sent: not resent. */
	if (nic_psn_diff(psn, qp->ack_psn) < 0 || nic_psn_diff(psn, qp->max_psn) >= 0)
		return;
	if (u->ring_tail - u->ring_head == NIC_UET_NACK_RING)
		return; /* full: selective repeat's scan or the timer recovers it */
	u->ring[u->ring_tail++ % NIC_UET_NACK_RING] = psn;
	nic_uet_credit_nacked(qp);
}

bool nic_uet_next_nacked(struct nic_qp *qp, uint32_t *psn)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	while (u->ring_head != u->ring_tail) {
		uint32_t p = u->ring[u->ring_head % NIC_UET_NACK_RING];

		if (nic_psn_diff(p, qp->ack_psn) >= 0 &&
		    !nic_bit_test(qp->sack_bits, qp->sr_mask, p)) {
			*psn = p;
			return true;
		}
		u->ring_head++; /* arrived since */
	}
	return false;
}

void nic_uet_resent(struct nic_qp *qp, uint32_t psn)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	u->ring_head++;
	nic_bit_set(u->resent, qp->sr_mask, psn);
}

const uint64_t *nic_uet_resent_bits(const struct nic_qp *qp)
{
	return nic_uet_of(qp)->resent;
}

void nic_uet_acked(struct nic_qp *qp, uint32_t from, uint32_t n)
{
	struct nic_uet_qp *u = nic_uet_of(qp);
	uint32_t held = 0;

	/* Before selective repeat clears them: which of these were SACKed. */
	for (uint32_t i = 0; i < n && u->sacked && i <= qp->sr_mask; i++)
		held += nic_bit_test(qp->sack_bits, qp->sr_mask, nic_psn_add(from, i));
	u->sacked -= held < u->sacked ? held : u->sacked;
	u->delivered += n - held;
	u->flight -= n - held < u->flight ? n - held : u->flight;
	nic_bits_clear_range(u->resent, qp->sr_mask, from, n);
}

void nic_uet_sent(struct nic_qp *qp, uint32_t psn, bool retx)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	u->sent_ps[psn & qp->sr_mask] = (qp->nic->sim->now_ps & ~UINT64_C(1)) | retx;
	/* Nothing was in flight: this packet is the oldest that is, and the
	 * timer times it (UET's timer runs from the oldest packet in flight). */
	if (u->flight++ == 0 && qp->rto_deadline_ps)
		nic_rto_restart(qp);
}

uint32_t nic_uet_flight(const struct nic_qp *qp)
{
	return nic_uet_of(qp)->flight;
}

bool nic_uet_window_ok(const struct nic_qp *qp)
{
	return (!qp->cc_window_bytes ||
		(uint64_t)nic_uet_of(qp)->flight * qp->mtu_bytes < qp->cc_window_bytes) &&
	       nic_uet_credit_ok(qp);
}

uint64_t nic_uet_rtt(const struct nic_qp *qp, uint32_t psn, bool retx)
{
	uint64_t t = nic_uet_of(qp)->sent_ps[psn & qp->sr_mask];

	/* A PSN sent, within the window behind the send pointer's high mark. */
	if (!t || nic_psn_diff(psn, qp->max_psn) >= 0 ||
	    (uint32_t)nic_psn_diff(qp->max_psn, psn) > qp->sr_mask || (t & 1) != retx)
		return 0;
	return qp->nic->sim->now_ps - (t & ~UINT64_C(1));
}

uint32_t nic_uet_sacked(const struct nic_qp *qp)
{
	return nic_uet_of(qp)->sacked;
}

void nic_uet_sack_add(struct nic_qp *qp)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	u->sacked++;
	u->delivered++;
	if (u->flight)
		u->flight--;
}

uint32_t nic_uet_delivered_take(struct nic_qp *qp)
{
	struct nic_uet_qp *u = nic_uet_of(qp);
	uint32_t d = u->delivered;
	uint32_t outstanding = (uint32_t)nic_psn_diff(qp->max_psn, qp->ack_psn) - u->sacked;

	/* Every ACK answers the arrival of one packet (ACK_PSN_OFFSET names
	 * it): one that told nothing new answers a copy of a PSN delivered
	 * already, which has left the network too. */
	if (!d && u->flight)
		u->flight--;
	/* Copies of one PSN (a resend and its original both under way) are
	 * told delivered once: what is in flight is at most the PSNs
	 * outstanding, or the window would stay shut on copies gone. */
	if (u->flight > outstanding)
		u->flight = outstanding;
	u->delivered = 0;
	return d;
}

void nic_uet_timeout(struct nic_qp *qp)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	memset(u->resent, 0, (size_t)(qp->sr_mask + 1) / 8);
	u->ring_head = u->ring_tail;
	u->flight = 0; /* everything unacknowledged is taken as lost */
	nic_uet_credit_timeout(qp, (uint32_t)nic_psn_diff(qp->max_psn, qp->ack_psn) - u->sacked);
}

uint64_t nic_uet_sack_bits(const struct nic_qp *qp, uint32_t base)
{
	uint64_t bits = 0;

	if (!qp->rcv_bits)
		return 0;
	for (uint32_t i = 0; i < PKT_UET_SACK_BITS && i <= qp->sr_mask; i++)
		if (nic_bit_test(qp->rcv_bits, qp->sr_mask, nic_psn_add(base, i)))
			bits |= UINT64_C(1) << i;
	return bits;
}

/* UET acknowledges at once, besides every ack_every packets and AR, a
 * message's first packet and a CE-marked one (as the reference
 * simulator's receiver: its first packet of a flow, and ECN). */
bool nic_uet_ack_now(const struct pkt_view *h)
{
	uint8_t op = h->opcode;

	return pkt_view_ce(h) || op == PKT_OP_WRITE_FIRST || op == PKT_OP_WRITE_ONLY ||
	       op == PKT_OP_WRITE_ONLY_IMM || op == PKT_OP_SEND_FIRST || op == PKT_OP_SEND_ONLY ||
	       op == PKT_OP_SEND_ONLY_IMM;
}

/* UET: tell the QP's algorithm of an ACK @h: bytes newly delivered
 * (cumulatively or SACKed: PSNs of an MTU), the RTT of the packet it
 * answers (its send time, unless it was resent and the ACK is of the
 * other copy), what is still in flight (less what the responder holds)
 * and the ACK's M flag. */
void nic_cc_ack_uet(struct nic *n, struct nic_qp *qp, const struct rte_mbuf *m,
		    const struct pkt_view *h)
{
	uint32_t delivered = nic_uet_delivered_take(qp);
	struct cc_ack a = { 0 };

	if (!qp->cc.ops->on_ack)
		return;
	a.acked_bytes = (uint64_t)delivered * qp->mtu_bytes;
	a.rtt_ps = nic_uet_rtt(qp, h->acked_psn, h->retx);
	a.inflight_bytes = (uint64_t)nic_uet_flight(qp) * qp->mtu_bytes;
	a.ecn_echo = pkt_view_becn(h, pkt_data((struct rte_mbuf *)(uintptr_t)m));
	qp->cc.ops->on_ack(&qp->cc, &a, n->sim->now_ps);
	nic_cc_apply(qp);
}
