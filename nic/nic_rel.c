/* Requester reliability: cumulative acknowledgement, in-order completion,
 * go-back-N and selective-repeat loss recovery, the retransmission timer
 * with exponential back-off, and failing a QP whose retries ran out.
 *
 * State. Every posted request owns a fixed PSN range. ack_psn is the
 * responder's cumulative view (it holds every request PSN before it);
 * snd_una trails it over READs whose responses have not all arrived in
 * order. A request completes when snd_una passes its last PSN. next_psn is
 * where the send pointer is; go-back-N moves it back, selective repeat
 * never does and resends single PSNs instead.
 *
 * Selective repeat follows IRN (Mittal et al., "Revisiting Network Support
 * for RDMA", SIGCOMM 2018). IRN's receiver keeps the packets that arrive
 * out of order and answers each with a NACK carrying its cumulative ACK
 * and the PSN that arrived (a selective ACK); the sender keeps a bitmap of
 * what was selectively acknowledged, counts as lost every unacknowledged
 * PSN below the highest one selectively acknowledged, resends only those,
 * each once per recovery round, and falls back to its timeout when a
 * resent packet is lost again. It bounds what is in flight past the
 * cumulative ACK by the bitmap size (IRN's BDP-FC). Here the NACK is an
 * ordinary NAK (syndrome 0x60, BTH PSN = expected PSN) whose AETH MSN field
 * carries the selectively acknowledged PSN (both ends run the same mode),
 * the sender's bitmap covers [ack_psn, ack_psn + window) indexed by
 * psn & (window - 1), and a timeout declares every unacknowledged PSN sent
 * so far lost. READ responses are recovered by re-requesting from the first
 * missing one, in either mode.
 *
 * Timer. One deadline per QP (when the oldest outstanding PSN times out)
 * and at most one pending event: the event, when it fires, re-arms itself
 * at the deadline if the deadline moved later, stops if nothing is
 * outstanding, and otherwise times out. Progress moves the deadline and
 * resets the back-off; a deadline moved earlier than the pending event (the
 * back-off was reset) is noticed when that event fires. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nic_int.h"

static uint64_t *nic_bits_new(uint32_t n_bits)
{
	return calloc(n_bits / 64, sizeof(uint64_t));
}

int nic_qp_rel_init(struct nic_qp *qp)
{
	const struct nic_params *p = &qp->nic->p;

	qp->rto_cur_ps = p->rto_ps;
	qp->retries_left = p->retry_cnt;
	qp->rtx_psn = qp->lost_hi = qp->ack_psn;
	qp->sr_mask = p->sr_window_pkts - 1;
	if (p->recovery == NIC_RECOVERY_SR && !qp->sack_bits &&
	    !(qp->sack_bits = nic_bits_new(p->sr_window_pkts)))
		return -ENOMEM;
	return 0;
}

void nic_qp_rel_fini(struct nic_qp *qp)
{
	free(qp->sack_bits);
	free(qp->rcv_bits);
	free(qp->rcv_slots);
	free(qp->rcv_imms);
}

int nic_rcv_window_get(struct nic_qp *qp)
{
	uint32_t w = qp->sr_mask + 1;

	if (qp->rcv_bits)
		return 0;
	qp->rcv_bits = nic_bits_new(w);
	qp->rcv_slots = calloc(w, sizeof(*qp->rcv_slots));
	if (!qp->rcv_bits || !qp->rcv_slots) {
		free(qp->rcv_bits);
		free(qp->rcv_slots);
		qp->rcv_bits = NULL;
		qp->rcv_slots = NULL;
		return -ENOMEM;
	}
	return 0;
}

void nic_bits_clear_range(uint64_t *bits, uint32_t mask, uint32_t from, uint32_t n)
{
	if (n > mask) {
		memset(bits, 0, (size_t)(mask + 1) / 8);
		return;
	}
	while (n) {
		uint32_t i = from & mask, b = i & 63, k = 64 - b < n ? 64 - b : n;
		uint64_t m = k == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << k) - 1) << b;

		bits[i >> 6] &= ~m;
		from += k;
		n -= k;
	}
}

/* Offset from @from of the first PSN among the next @n whose bit is clear
 * in @bits and, unless NULL, in @also; @n when there is none. Word at a
 * time. */
static uint32_t nic_bits_next_clear(const uint64_t *bits, const uint64_t *also, uint32_t mask,
				    uint32_t from, uint32_t n)
{
	uint32_t off = 0;

	while (off < n) {
		uint32_t i = (from + off) & mask, b = i & 63;
		uint64_t w = ~(bits[i >> 6] | (also ? also[i >> 6] : 0)) >> b;

		if (w) {
			off += (uint32_t)__builtin_ctzll(w);
			return off < n ? off : n;
		}
		off += 64 - b;
	}
	return n;
}

uint32_t nic_wr_find(const struct nic_qp *qp, uint32_t psn)
{
	uint32_t lo = qp->done_idx, hi = qp->post_idx;

	/* First request whose last PSN is not before @psn: the ranges are
	 * consecutive and increasing, so this is the one holding it. */
	while (lo != hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (nic_psn_diff(nic_wr_at(qp, mid)->last_psn, psn) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool nic_req_outstanding(const struct nic_qp *qp)
{
	return qp->snd_una != qp->max_psn;
}

static void nic_rto_fire(struct sim *sim, void *obj);

static void nic_rto_arm(struct nic_qp *qp, uint64_t deadline_ps)
{
	if (unlikely(qp->nic->p.rto_off))
		return; /* no timer: the deadline stays 0 */
	qp->rto_deadline_ps = deadline_ps;
	if (!qp->rto_ev_ps) {
		qp->rto_ev_ps = deadline_ps;
		sim_at(qp->nic->sim, deadline_ps, &qp->rto_src, nic_rto_fire, qp);
	}
}

void nic_rto_on_send(struct nic_qp *qp)
{
	if (!qp->rto_deadline_ps)
		nic_rto_arm(qp, qp->nic->sim->now_ps + qp->rto_cur_ps);
}

void nic_rto_restart(struct nic_qp *qp)
{
	nic_rto_arm(qp, qp->nic->sim->now_ps + qp->rto_cur_ps);
}

/* The responder moved on: reset the back-off and restart the timer. */
static void nic_progress(struct nic_qp *qp)
{
	qp->retries_left = qp->nic->p.retry_cnt;
	qp->rto_cur_ps = qp->nic->p.rto_ps;
	if (nic_req_outstanding(qp))
		nic_rto_arm(qp, qp->nic->sim->now_ps + qp->rto_cur_ps);
	else
		qp->rto_deadline_ps = 0;
}

static enum ibv_wc_opcode nic_wc_opcode(uint8_t wr_op)
{
	return wr_op == IBV_WR_SEND ? IBV_WC_SEND
	       : wr_op == IBV_WR_RDMA_READ ? IBV_WC_RDMA_READ : IBV_WC_RDMA_WRITE;
}

/* Complete requests in order as far as ack_psn (and, over READs, the
 * responses received) allow; returns the bytes completed. */
static uint64_t nic_req_advance(struct nic_qp *qp)
{
	struct nic *n = qp->nic;
	uint64_t bytes = 0;

	while (qp->done_idx != qp->post_idx && qp->state == NIC_QP_OK) {
		struct nic_wr *wr = nic_wr_at(qp, qp->done_idx);

		if (wr->opcode == IBV_WR_RDMA_READ) {
			if (nic_psn_diff(qp->snd_una, wr->last_psn) <= 0)
				break;
		} else if (nic_psn_diff(qp->ack_psn, wr->last_psn) <= 0) {
			if (nic_psn_diff(qp->ack_psn, qp->snd_una) > 0)
				qp->snd_una = qp->ack_psn;
			break;
		} else {
			qp->snd_una = nic_psn_add(wr->last_psn, 1);
		}
		qp->done_idx++;
		bytes += wr->bytes;
		n->stats.completions++;
		if (wr->signaled)
			nic_complete(n, qp, wr, nic_wc_opcode(wr->opcode), IBV_WC_SUCCESS);
	}
	return bytes;
}

/* Go-back-N: move the send pointer to @psn (back after a loss, or forward
 * when an ACK overtook it). */
static void nic_gbn_goto(struct nic_qp *qp, uint32_t psn)
{
	qp->next_psn = psn;
	qp->send_idx = nic_wr_find(qp, psn);
}

uint64_t nic_req_acked(struct nic_qp *qp, uint32_t upto_psn)
{
	uint32_t old = qp->ack_psn;
	int32_t d = nic_psn_diff(upto_psn, old);
	uint64_t bytes;

	/* Ignore what is stale, or beyond anything sent (corrupt). */
	if (d <= 0 || nic_psn_diff(upto_psn, qp->max_psn) > 0)
		return 0;
	if (unlikely(nic_on_uet(qp->nic)))
		nic_uet_acked(qp, old, (uint32_t)d);
	if (qp->sack_bits)
		nic_bits_clear_range(qp->sack_bits, qp->sr_mask, old, (uint32_t)d);
	qp->ack_psn = upto_psn;
	bytes = nic_req_advance(qp);
	if (nic_psn_diff(qp->ack_psn, qp->next_psn) > 0)
		nic_gbn_goto(qp, qp->ack_psn);
	nic_progress(qp);
	return bytes;
}

void nic_req_answered(struct nic_qp *qp, uint32_t psn)
{
	qp->snd_una = nic_psn_add(psn, 1);
	qp->rd_gap = 0;
	nic_req_advance(qp);
	nic_progress(qp);
}

void nic_req_nak(struct nic_qp *qp, uint32_t psn, uint32_t sack_psn)
{
	/* Everything before the expected PSN arrived. */
	nic_req_acked(qp, psn);
	if (qp->state != NIC_QP_OK || psn != qp->ack_psn)
		return;
	if (qp->sack_bits) {
		uint32_t off = (uint32_t)nic_psn_diff(sack_psn, qp->ack_psn);

		/* sack_psn before ack_psn (out of the 24-bit range) means none. */
		if (nic_psn_diff(sack_psn, qp->ack_psn) > 0 && off <= qp->sr_mask &&
		    nic_psn_diff(sack_psn, qp->max_psn) < 0) {
			/* A hole is lost once a PSN more than sr_reorder beyond it
			 * has arrived (forward acknowledgement, Mathis and Mahdavi,
			 * SIGCOMM 1996); 0: at once, as IRN. */
			uint32_t front = nic_psn_add(sack_psn, (NIC_PSN_MASK + 1 - qp->nic->p.sr_reorder_pkts) &
								       NIC_PSN_MASK);

			nic_bit_set(qp->sack_bits, qp->sr_mask, sack_psn);
			if (nic_psn_diff(front, qp->lost_hi) > 0)
				qp->lost_hi = front;
		}
	} else if (nic_psn_diff(psn, qp->next_psn) < 0) {
		nic_gbn_goto(qp, psn);
	}
}

void nic_req_refused(struct nic_qp *qp, uint32_t psn, enum ibv_wc_status st)
{
	nic_req_acked(qp, psn);
	if (qp->state == NIC_QP_OK)
		nic_qp_fail(qp, st);
}

bool nic_sr_next_lost(struct nic_qp *qp, uint32_t *psn)
{
	uint32_t from = qp->rtx_psn, n, off;

	if (nic_psn_diff(qp->ack_psn, from) > 0)
		from = qp->ack_psn;
	if (nic_psn_diff(qp->lost_hi, from) <= 0)
		return false;
	n = (uint32_t)nic_psn_diff(qp->lost_hi, from);
	off = nic_bits_next_clear(qp->sack_bits,
				  unlikely(nic_on_uet(qp->nic)) ? nic_uet_resent_bits(qp) : NULL,
				  qp->sr_mask, from, n);
	/* Sacked PSNs are skipped once: the cursor only moves on. */
	qp->rtx_psn = nic_psn_add(from, off);
	if (off == n)
		return false;
	*psn = qp->rtx_psn;
	return true;
}

/* A READ whose request arrived but whose responses stopped: ask again
 * from the first missing one. */
static void nic_rd_rerequest(struct nic_qp *qp)
{
	struct nic_wr *wr;

	if (qp->done_idx == qp->post_idx || nic_psn_diff(qp->ack_psn, qp->snd_una) <= 0)
		return;
	wr = nic_wr_at(qp, qp->done_idx);
	if (wr->opcode == IBV_WR_RDMA_READ) {
		qp->rd_rereq = 1;
		qp->rd_gap = 1;
	}
}

/* Retries exhausted, or a request refused: complete every outstanding
 * request in error and stop the QP for good. */
void nic_qp_fail(struct nic_qp *qp, enum ibv_wc_status st)
{
	struct nic *n = qp->nic;

	qp->state = qp->stats.state = NIC_QP_ERROR;
	n->stats.qp_errors++;
	qp->rto_deadline_ps = 0;
	qp->rd_rereq = 0;
	qp->rd_head = qp->rd_tail;
	nic_qp_deactivate(qp);
	while (qp->done_idx != qp->post_idx) {
		struct nic_wr w = *nic_wr_at(qp, qp->done_idx);

		/* Advance first: the callback may look at the QP. */
		qp->done_idx++;
		nic_complete(n, qp, &w, nic_wc_opcode(w.opcode), st);
		st = IBV_WC_WR_FLUSH_ERR;
	}
	qp->send_idx = qp->done_idx;
}

static void nic_rto_expired(struct nic_qp *qp)
{
	struct nic *n = qp->nic;
	uint64_t now = n->sim->now_ps;

	qp->stats.timeouts++;
	n->stats.timeouts++;
	if (qp->cc.ops->on_timeout) {
		qp->cc.ops->on_timeout(&qp->cc, now);
		nic_cc_apply(qp);
	}
	if (qp->retries_left == 0) {
		nic_qp_fail(qp, IBV_WC_RETRY_EXC_ERR);
		return;
	}
	qp->retries_left--;
	qp->rto_cur_ps = qp->rto_cur_ps * 2 > n->p.rto_max_ps ? n->p.rto_max_ps
							      : qp->rto_cur_ps * 2;
	nic_rd_rerequest(qp);
	if (qp->sack_bits) {
		/* Everything sent and not selectively acknowledged is lost. */
		qp->rtx_psn = qp->ack_psn;
		qp->lost_hi = qp->max_psn;
		if (nic_on_uet(n))
			nic_uet_timeout(qp);
	} else {
		nic_gbn_goto(qp, qp->ack_psn);
	}
	nic_rto_arm(qp, now + qp->rto_cur_ps);
	nic_qp_activate(qp);
}

static void nic_rto_fire(struct sim *sim, void *obj)
{
	struct nic_qp *qp = obj;

	qp->rto_ev_ps = 0;
	if (!qp->rto_deadline_ps || qp->rto_deadline_ps > sim->now_ps) {
		/* A stale check (nothing outstanding, or the deadline moved):
		 * bookkeeping, not activity, so it does not extend the run. */
		sim->monitor_event = true;
		if (qp->rto_deadline_ps)
			nic_rto_arm(qp, qp->rto_deadline_ps);
		return;
	}
	if (unlikely(nic_uet_rud(qp->nic)) && nic_uet_flight(qp) == 0 && !nic_uet_credit_ok(qp)) {
		/* RCCC, nothing in flight (what is outstanding was SACKed or
		 * NACKed) and no credit: the sender waits for credit, nothing
		 * was lost (the timer times packets in flight, as the
		 * reference's does); its credit wait (nic_uet_credit.c) asks
		 * again if none comes. The next send starts the timer. */
		sim->monitor_event = true;
		qp->rto_deadline_ps = 0;
		return;
	}
	nic_rto_expired(qp);
}
