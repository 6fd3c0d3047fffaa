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
 * entropy packet spraying, the UEC specification's EV recycling). off:
 * the connection's one port, as RoCE.
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
#include "pkt_uet.h"
#include "rng.h"

enum {
	NIC_UET_NACK_RING = 256, /* NACKed PSNs waiting for their resend */
	NIC_UET_EV_CACHE = 16,   /* recycled EVs waiting for a packet */
	NIC_UET_EV_BASE = 0xC000, /* the dynamic port range, as RoCE's entropy */
	NIC_UET_EV_MASK = 0x3FFF,
};

struct nic_uet_qp {
	uint64_t rng;              /* splitmix64 state of the EV draws */
	uint16_t ev_first;         /* the connection's first EV (its hash) */
	uint16_t ev_step;          /* odd: EV k is first + k x step (14 bits) */
	uint16_t evs[NIC_UET_EV_CACHE]; /* recycle: EVs to use again, FIFO */
	uint8_t ev_head;           /* oldest of them */
	uint8_t ev_n;              /* how many */
	uint32_t ring[NIC_UET_NACK_RING]; /* NACKed PSNs to resend */
	uint32_t ring_head;        /* free-running */
	uint32_t ring_tail;
	uint64_t *resent;          /* PSNs resent on a NACK, by psn & sr_mask */
};

static struct nic_uet_qp *nic_uet_of(const struct nic_qp *qp)
{
	return qp->nic->uet[qp->qpn - NIC_QPN_BASE];
}

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
	memset(u, 0, sizeof(*u));
	if (!(u->resent = calloc((qp->sr_mask + 1) / 64, sizeof(uint64_t))))
		return -1;
	x = n->p.uet_seed ^ (uint64_t)qp->addr.src_ip << 32 ^ qp->qpn;
	u->rng = x;
	x = rng_splitmix64(&x);
	u->ev_first = (uint16_t)(x & NIC_UET_EV_MASK);
	u->ev_step = (uint16_t)((x >> 16) | 1);
	return 0;
}

void nic_uet_free(struct nic *n)
{
	for (uint32_t i = 0; i < n->cap_uet; i++) {
		if (n->uet[i])
			free(n->uet[i]->resent);
		free(n->uet[i]);
	}
	free(n->uet);
}

/* A fresh EV: the k-th of the connection's, k drawn at random. */
static uint16_t nic_uet_ev_draw(const struct nic *n, struct nic_uet_qp *u)
{
	uint64_t k = rng_splitmix64(&u->rng) % n->p.uet_evs;

	return (uint16_t)(NIC_UET_EV_BASE | ((u->ev_first + k * u->ev_step) & NIC_UET_EV_MASK));
}

uint16_t nic_uet_ev(struct nic_qp *qp)
{
	struct nic *n = qp->nic;
	struct nic_uet_qp *u;

	if (n->p.uet_spray == NIC_UET_SPRAY_OFF)
		return 0; /* the template's */
	u = nic_uet_of(qp);
	if (n->p.uet_spray == NIC_UET_SPRAY_RECYCLE && u->ev_n) {
		uint16_t ev = u->evs[u->ev_head];

		u->ev_head = (uint8_t)((u->ev_head + 1) % NIC_UET_EV_CACHE);
		u->ev_n--;
		return ev;
	}
	return nic_uet_ev_draw(n, u);
}

void nic_uet_ev_feedback(struct nic_qp *qp, uint16_t ev, bool bad)
{
	struct nic_uet_qp *u;

	if (qp->nic->p.uet_spray != NIC_UET_SPRAY_RECYCLE || bad || ev < NIC_UET_EV_BASE)
		return;
	u = nic_uet_of(qp);
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

	/* Stale (acknowledged since) or beyond anything sent: ignored. */
	if (nic_psn_diff(psn, qp->ack_psn) < 0 || nic_psn_diff(psn, qp->max_psn) >= 0)
		return;
	if (u->ring_tail - u->ring_head == NIC_UET_NACK_RING)
		return; /* full: selective repeat's scan or the timer recovers it */
	u->ring[u->ring_tail++ % NIC_UET_NACK_RING] = psn;
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
	nic_bits_clear_range(nic_uet_of(qp)->resent, qp->sr_mask, from, n);
}

void nic_uet_timeout(struct nic_qp *qp)
{
	struct nic_uet_qp *u = nic_uet_of(qp);

	memset(u->resent, 0, (size_t)(qp->sr_mask + 1) / 8);
	u->ring_head = u->ring_tail;
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
