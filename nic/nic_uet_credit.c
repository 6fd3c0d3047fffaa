/* RCCC, UET's receiver-credit congestion control (`nic.cc: rccc`; the
 * settings nic.rccc, cc/cc_rccc.h), as the UEC's reference simulator
 * runs it (uet-htsim 40ccb05, htsim/sim/uec.cpp: UecSrc's credit,
 * computePullTarget and sendRTS; UecSink::pull and handlePullTarget;
 * UecPullPacer), in our own terms.
 *
 * Sender. A data packet leaves only while the QP's credit is above zero
 * and spends its wire bytes (frame, preamble and gap); credit may so go
 * below zero by less than a packet. Before any credit came the sender
 * spends max_credit of its own (speculative credit); the first ACK, NACK
 * or CREDIT ends that and drops what is left of it. Every data packet
 * carries a credit target (RUD_CC_REQ): the credit it has been granted so
 * far plus what it still needs, its backlog (posted wire bytes not yet
 * sent and packets waiting for a resend) capped at max_credit, less the
 * credit it holds, at least one packet while speculating, shared among
 * the QPs its port has to send (divided by their number when above one),
 * in 256-byte units rounded up. A CREDIT raises its credit by the growth
 * of the cumulative credit it names, up to max_credit. A sender out of
 * credit whose timer expires, or that is given new work, asks again with
 * a CREDIT_REQ carrying its target (after a timeout at most once per
 * base RTT; for new work only when the target grew). A CREDIT can be
 * lost, and with it what the sender waits for: a sender out of credit
 * with work to send and nothing in flight asks again when no CREDIT came
 * for nic.rto, then after twice that, and so on up to nic.rto_max (a
 * receiver answers every CREDIT_REQ of a connection it is not serving
 * with a CREDIT, cumulative, which makes up for those lost).
 *
 * Receiver. Each port has one pacer. A connection whose target passed
 * what it was granted, or whose packet came trimmed, or that asked with a
 * CREDIT_REQ, joins the pacer's active list. The pacer grants, one CREDIT
 * packet at a time, to the connection at the list's head: credit_bytes,
 * or less when that reaches its target; a connection whose target is
 * reached moves to the idle list. With no connection active, it grants
 * credit_bytes to the idle one at the head (speculative credit, beyond its
 * target), and keeps it listed while that stays below max_credit. After
 * each grant it waits the time its port takes to carry the credit
 * granted at `rate` x its line rate (four units when it granted none).
 * Credit is cumulative on the wire (24 bits of 256-byte units, modulo),
 * so a CREDIT lost costs nothing once the next one arrives. */
#include <stdlib.h>
#include <string.h>

#include "nic_uet.h"
#include "pkt_uet.h"

enum {
	NIC_CREDIT_UNIT = PKT_UET_CREDIT_UNIT,
	NIC_CREDIT_IDLE_UNITS = 4, /* the pacer's wait after a grant of nothing */
};

static void nic_credit_wait_arm(struct nic_uet_credit *cr);

/* Send a CREDIT or CREDIT_REQ (@op) with @credit's low 24 bits, sprayed
 * as data is (the QP's next EV, fabric.uet.spray), as the reference
 * simulator sprays its pulls and RTSs. */
static void nic_credit_send(struct nic_qp *qp, uint8_t op, uint32_t credit)
{
	struct nic *n = qp->nic;
	uint16_t rx_ev = n->rx_ev;

	n->rx_ev = nic_uet_ev(qp);
	nic_send_ctl(n, qp, op, 0, 0, credit & PKT_UET_CREDIT_MASK);
	n->rx_ev = rx_ev;
}

/* The 64-bit count whose low 24 bits are @wire, nearest to @near. */
static int64_t nic_credit_extend(int64_t near, uint32_t wire)
{
	int32_t d = (int32_t)(((wire - (uint32_t)near) & PKT_UET_CREDIT_MASK) << 8) >> 8;

	return near + d;
}

static struct nic_uet_pacer *nic_pacer(const struct nic_qp *qp)
{
	return &qp->nic->uet_pacers[qp->port];
}

int nic_uet_pacers_new(struct nic *n)
{
	if (n->uet_pacers)
		return 0;
	if (!(n->uet_pacers = calloc(n->n_ports, sizeof(*n->uet_pacers))))
		return -1;
	for (uint16_t i = 0; i < n->n_ports; i++) {
		n->uet_pacers[i].nic = n;
		n->uet_pacers[i].port = i;
		sim_new_src(n->sim, &n->uet_pacers[i].src);
	}
	return 0;
}

int nic_uet_credit_connect(struct nic_qp *qp, struct nic_uet_credit **out)
{
	struct nic *n = qp->nic;
	const struct cc_rccc_cfg *c = n->p.cc_cfg ? cc_rccc_cfg_of(n->p.cc_cfg) : NULL;
	struct nic_uet_credit *cr;
	struct pkt_roce f = { 0 };
	uint64_t rtt;

	if (!c || !n->uet_pacers)
		return -1;
	if (!(cr = calloc(1, sizeof(*cr))))
		return -1;
	cr->qp = qp;
	cr->cfg = c;
	/* A header-only data frame with CC state: what a packet adds. */
	f.addr = qp->addr;
	f.opcode = PKT_OP_WRITE_MIDDLE;
	f.uet_cc = 1;
	cr->pkt_extra = pkt_roce_frame_bytes(&f) + n->ports[qp->port].wire_overhead_bytes;
	rtt = cc_uet_unloaded_rtt_ps(&qp->cc);
	cr->max_credit = (int64_t)(c->max_credit_bdp * (double)qp->cc.line_rate_bps *
				   (double)rtt / 8e12);
	if (cr->max_credit < cr->pkt_extra + qp->mtu_bytes)
		cr->max_credit = cr->pkt_extra + qp->mtu_bytes;
	cr->req_gap_ps = rtt;
	cr->wait_gap_ps = n->p.rto_ps;
	sim_new_src(n->sim, &cr->wait_src);
	cr->speculating = c->speculative;
	cr->credit = c->speculative ? cr->max_credit : 0;
	*out = cr;
	return 0;
}

/* @cr joins the tail of its pacer's list @l. */
static void nic_list_push(struct nic_uet_pacer *pc, int l, struct nic_uet_credit *cr)
{
	struct nic_credit_list *q = &pc->list[l];

	cr->listed[l] = 1;
	cr->next[l] = NULL;
	if (q->tail)
		q->tail->next[l] = cr;
	else
		q->head = cr;
	q->tail = cr;
}

/* The head of list @l, taken off it (the list is not empty). */
static struct nic_uet_credit *nic_list_pop(struct nic_uet_pacer *pc, int l)
{
	struct nic_credit_list *q = &pc->list[l];
	struct nic_uet_credit *cr = q->head;

	q->head = cr->next[l];
	if (!q->head)
		q->tail = NULL;
	cr->listed[l] = 0;
	return cr;
}

/* @cr leaves its pacer's lists (a QP connected again, or freed). */
static void nic_credit_unlist(struct nic_uet_pacer *pc, struct nic_uet_credit *cr)
{
	for (int l = 0; l < 2; l++) {
		struct nic_uet_credit **pp, *last = NULL;

		for (pp = &pc->list[l].head; *pp; last = *pp, pp = &(*pp)->next[l])
			if (*pp == cr) {
				*pp = cr->next[l];
				if (pc->list[l].tail == cr)
					pc->list[l].tail = last;
				break;
			}
	}
}

void nic_uet_credit_free(struct nic_qp *qp, struct nic_uet_credit *cr)
{
	if (!cr)
		return;
	nic_credit_unlist(nic_pacer(qp), cr);
	free(cr);
}

/* ---- sender ---- */

bool nic_uet_has_credit(const struct nic_qp *qp)
{
	return nic_uet_of(qp)->cr != NULL;
}

bool nic_uet_credit_ok(const struct nic_qp *qp)
{
	const struct nic_uet_credit *cr = nic_uet_of(qp)->cr;

	return !cr || cr->credit > 0;
}

/* The credit target of @cr now (units; computePullTarget). */
static int64_t nic_credit_target(const struct nic_uet_credit *cr)
{
	const struct nic_qp *qp = cr->qp;
	int64_t pkt = cr->pkt_extra + qp->mtu_bytes;
	int64_t t = cr->backlog + (int64_t)cr->rtx_pkts * pkt;
	uint32_t others = nic_pacer(qp)->n_act - (qp->active ? 1 : 0);

	if (qp->cc_window_bytes) {
		/* With a window too (nscc+rccc): no more than the window and a
		 * packet (computePullTarget's cwnd + MTU), in wire bytes (the
		 * window counts payload). */
		int64_t w = (int64_t)((uint64_t)qp->cc_window_bytes * (uint64_t)pkt / qp->mtu_bytes) + pkt;

		if (t > w)
			t = w;
	}
	if (t > cr->max_credit)
		t = cr->max_credit;
	t -= cr->credit;
	if (cr->speculating && t < pkt && cr->backlog > 0)
		t = pkt;
	if (others > 1)
		t /= (int64_t)others;
	t += cr->granted_in * NIC_CREDIT_UNIT;
	/* Rounded up (toward +infinity, t may be negative). */
	return t >= 0 ? (t + NIC_CREDIT_UNIT - 1) / NIC_CREDIT_UNIT : -(-t / NIC_CREDIT_UNIT);
}

uint32_t nic_uet_credit_send(struct nic_qp *qp, uint32_t payload_bytes, bool retx, bool *ar)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;
	int64_t wire_bytes = cr->pkt_extra + payload_bytes, t;

	cr->credit -= wire_bytes;
	if (retx) {
		if (cr->rtx_pkts)
			cr->rtx_pkts--;
	} else {
		cr->backlog -= wire_bytes;
		if (cr->backlog < 0)
			cr->backlog = 0;
	}
	t = nic_credit_target(cr);
	if (t > cr->target_out)
		cr->target_out = t;
	/* Out of credit: an ACK soon (the reference's AR when credit ends). */
	if (cr->credit <= 0) {
		*ar = true;
		nic_credit_wait_arm(cr);
	}
	return (uint32_t)t & PKT_UET_CREDIT_MASK;
}

/* The receiver answered: speculation ends, what is left of it goes. */
static void nic_credit_heard(struct nic_uet_credit *cr)
{
	if (cr->speculating) {
		cr->speculating = 0;
		if (cr->credit > 0)
			cr->credit = 0;
	}
}

void nic_uet_credit_heard(struct nic_qp *qp)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;

	if (cr)
		nic_credit_heard(cr);
}

void nic_uet_credit_nacked(struct nic_qp *qp)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;

	if (cr) {
		cr->rtx_pkts++;
		if (cr->credit <= 0)
			nic_credit_wait_arm(cr);
	}
}

/* Ask for credit (a CREDIT_REQ with the target). */
static void nic_credit_ask(struct nic_uet_credit *cr, int64_t target)
{
	struct nic_qp *qp = cr->qp;

	cr->req_ps = qp->nic->sim->now_ps;
	if (target > cr->target_out)
		cr->target_out = target;
	qp->nic->stats.uet_credit_reqs++;
	nic_credit_send(qp, PKT_UET_OP_CREDIT_REQ, (uint32_t)target);
	nic_credit_wait_arm(cr);
}

/* Work to send: new data or resends. */
static bool nic_credit_work(const struct nic_uet_credit *cr)
{
	const struct nic_qp *qp = cr->qp;

	return cr->backlog > 0 || cr->rtx_pkts > 0 || qp->send_idx != qp->post_idx;
}

/* The credit wait is due: a sender still out of credit, with work and
 * nothing in flight, asks again (and waits twice as long next time). */
static void nic_credit_wait_fire(struct sim *sim, void *obj)
{
	struct nic_uet_credit *cr = obj;
	struct nic_qp *qp = cr->qp;

	cr->wait_ps = 0;
	if (cr->credit > 0 || !nic_credit_work(cr) || qp->state != NIC_QP_OK) {
		sim->monitor_event = true; /* nothing to do: bookkeeping */
		return;
	}
	if (nic_uet_flight(qp)) {
		/* Packets in flight: the retransmission timer has them. */
		sim->monitor_event = true;
		nic_credit_wait_arm(cr);
		return;
	}
	cr->wait_gap_ps = cr->wait_gap_ps * 2 > qp->nic->p.rto_max_ps ? qp->nic->p.rto_max_ps
								   : cr->wait_gap_ps * 2;
	nic_credit_ask(cr, nic_credit_target(cr));
}

/* Start the credit wait unless it runs (a sender that ran out of credit). */
static void nic_credit_wait_arm(struct nic_uet_credit *cr)
{
	struct sim *sim = cr->qp->nic->sim;

	if (cr->wait_ps)
		return;
	cr->wait_ps = sim->now_ps + cr->wait_gap_ps;
	sim_at(sim, cr->wait_ps, &cr->wait_src, nic_credit_wait_fire, cr);
}

void nic_uet_credit_posted(struct nic_qp *qp, uint64_t bytes, uint32_t pkts)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;
	int64_t t;

	if (!cr)
		return;
	cr->backlog += (int64_t)bytes + (int64_t)pkts * cr->pkt_extra;
	if (cr->credit > 0)
		return;
	t = nic_credit_target(cr);
	if (t > cr->target_out)
		nic_credit_ask(cr, t);
	else
		nic_credit_wait_arm(cr);
}

void nic_uet_credit_timeout(struct nic_qp *qp, uint32_t lost_pkts)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;
	uint64_t now = qp->nic->sim->now_ps;

	if (!cr)
		return;
	cr->rtx_pkts = lost_pkts;
	nic_credit_heard(cr);
	if (cr->credit <= 0 && (!cr->req_ps || now - cr->req_ps >= cr->req_gap_ps))
		nic_credit_ask(cr, nic_credit_target(cr));
	else if (cr->credit <= 0)
		nic_credit_wait_arm(cr);
}

/* ---- receiver ---- */

static void nic_pacer_grant(struct sim *sim, void *obj);

/* @cr joins its pacer's active list; the pacer starts if idle. */
static void nic_credit_request(struct nic_uet_credit *cr)
{
	struct nic_uet_pacer *pc = nic_pacer(cr->qp);

	if (cr->listed[NIC_CREDIT_ACTIVE])
		return;
	nic_list_push(pc, NIC_CREDIT_ACTIVE, cr);
	if (!pc->running) {
		pc->running = 1;
		sim_at(pc->nic->sim, pc->nic->sim->now_ps, &pc->src, nic_pacer_grant, pc);
	}
}

void nic_uet_credit_target(struct nic_qp *qp, uint32_t target, bool ask)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;
	int64_t t;

	if (!cr)
		return; /* the QP runs no RCCC: the target is not for it */
	t = nic_credit_extend(cr->target_in, target);
	if (t > cr->target_in) {
		cr->target_in = t;
		ask = true;
	}
	if (ask)
		nic_credit_request(cr);
}

/* Grant @cr credit: @slow units beyond its target (idle), or with 0 up
 * to credit_bytes toward its target. Returns the units granted. */
static int64_t nic_credit_pull(struct nic_uet_credit *cr, int64_t slow)
{
	int64_t prev = cr->granted_out;
	struct nic_qp *qp = cr->qp;

	if (!slow) {
		cr->granted_out += (int64_t)(cr->cfg->credit_bytes / NIC_CREDIT_UNIT);
		if (cr->granted_out > cr->target_in)
			cr->granted_out = cr->target_in > prev ? cr->target_in : prev;
	} else {
		cr->granted_out += slow;
	}
	qp->nic->stats.uet_credits++;
	nic_credit_send(qp, PKT_UET_OP_CREDIT, (uint32_t)cr->granted_out);
	return cr->granted_out - prev;
}

static void nic_pacer_grant(struct sim *sim, void *obj)
{
	struct nic_uet_pacer *pc = obj;
	struct nic_uet_credit *cr;
	int64_t units, per;

	if (!pc->list[NIC_CREDIT_ACTIVE].head && !pc->list[NIC_CREDIT_IDLE].head) {
		pc->running = 0;
		return;
	}
	if (pc->list[NIC_CREDIT_ACTIVE].head) {
		cr = nic_list_pop(pc, NIC_CREDIT_ACTIVE);
		units = nic_credit_pull(cr, 0);
		if (cr->target_in > cr->granted_out)
			nic_list_push(pc, NIC_CREDIT_ACTIVE, cr);
		else if (!cr->listed[NIC_CREDIT_IDLE])
			nic_list_push(pc, NIC_CREDIT_IDLE, cr);
	} else {
		cr = nic_list_pop(pc, NIC_CREDIT_IDLE);
		per = (int64_t)(cr->cfg->credit_bytes / NIC_CREDIT_UNIT);
		units = nic_credit_pull(cr, per);
		/* Speculative credit up to max_credit beyond the target (one
		 * whose target passed its grants is active again instead). */
		if (cr->target_in <= cr->granted_out &&
		    cr->granted_out - cr->target_in < cr->max_credit / NIC_CREDIT_UNIT)
			nic_list_push(pc, NIC_CREDIT_IDLE, cr);
	}
	if (!units)
		units = NIC_CREDIT_IDLE_UNITS;
	sim_at(sim, sim->now_ps + (uint64_t)((double)units * NIC_CREDIT_UNIT * 8e12 /
					     ((double)pc->nic->ports[pc->port].rate_bps *
					      cr->cfg->rate) + 0.5),
	       &pc->src, nic_pacer_grant, pc);
}

/* ---- a CREDIT or CREDIT_REQ received ---- */

void nic_uet_rx_credit(struct nic_qp *qp, const struct pkt_view *h)
{
	struct nic_uet_credit *cr = nic_uet_of(qp)->cr;

	if (!cr)
		return; /* a QP without RCCC ignores them */
	if (h->opcode == PKT_UET_OP_CREDIT_REQ) {
		nic_uet_credit_target(qp, h->aeth_msn, true);
		return;
	}
	nic_credit_heard(cr);
	cr->wait_gap_ps = qp->nic->p.rto_ps; /* the receiver is there */
	{
		int64_t g = nic_credit_extend(cr->granted_in, h->aeth_msn);

		if (g > cr->granted_in) {
			cr->credit += (g - cr->granted_in) * NIC_CREDIT_UNIT;
			if (cr->credit > cr->max_credit)
				cr->credit = cr->max_credit;
			cr->granted_in = g;
		}
	}
	nic_qp_activate(qp);
}

void nic_uet_credit_act(struct nic *n, uint16_t port, int d)
{
	n->uet_pacers[port].n_act += (uint32_t)d;
}
