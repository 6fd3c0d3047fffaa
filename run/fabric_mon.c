/* Fabric-wide monitors and PFC set-up: per-port PFC settings and switch
 * buffer checks after wiring, the series.csv sampler, and detection of
 * cyclic buffer dependencies (PFC deadlocks, and InfiniBand credit loops:
 * a port whose VL holds frames without credit for its head waits on its
 * peer just as a paused one does). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_capacity.h"
#include "fabric.h"
#include "link_layer.h"
#include "par.h"
#include "port_credit.h"
#include "port_pfc.h"

uint32_t fabric_max_frame(const struct nic_params *np)
{
	struct pkt_roce f = { 0 };

	f.addr.vlan = np->vlan;
	f.addr.ll = (uint8_t)(np->ll ? np->ll->kind : PKT_LL_ROCE);
	f.addr.grh = np->ib_grh;
	f.opcode = PKT_OP_WRITE_FIRST;
	f.payload_bytes = np->mtu_bytes;
	return pkt_roce_frame_bytes(&f);
}

/* Nothing marks the traffic of @ops (named at @m), which reacts to marks
 * and to losses (DCTCP; one that reacts to marks only was refused at
 * load): warn, it slows down on losses only. */
static void fabric_warn_unmarked(const struct exp *e, const struct cc_ops *ops,
				 const struct cfg_mark *m)
{
	char hint[CFG_ERR_BYTES / 2];

	if (!(ops->flags & CC_F_ECN) || link_layer_marks_traffic(e, ops))
		return;
	link_layer_marking_hint(e, hint, sizeof(hint));
	fprintf(stderr,
		"%s:%u:%u: warning: congestion control '%s' reacts to congestion marks, but nothing marks its packets with fabric.link_layer: %s (%s): it slows down on losses only\n",
		m->file, m->line, m->col, ops->kind.name, e->ll->kind.name, hint);
}

/* ECN marking on, and QPs whose congestion control ignores it: warn once
 * per algorithm named (the run goes on); none of an algorithm's traffic
 * marked, and it reacts to marks (fabric_warn_unmarked). */
static void fabric_warn_ecn(const struct exp *e)
{
	/* (With live ports and no workload, the marks are for the real
	 * endpoints.) */
	bool nic_used = e->n_workloads == 0 && !e->live.n_ports;
	/* The marking that applies (the link layer's: RED on Ethernet, FECN
	 * on InfiniBand). */
	const char *what = e->ll->marking ? e->ll->marking(e) : NULL;

	for (uint32_t i = 0; i < e->n_workloads; i++) {
		const struct exp_workload *w = &e->workloads[i];

		if (!w->cc) {
			nic_used = true;
			continue;
		}
		fabric_warn_unmarked(e, w->cc, &w->cc_mark);
		if (what && !(w->cc->flags & CC_F_ECN))
			fprintf(stderr,
				"%s:%u:%u: warning: %s but workload '%s' uses congestion control '%s', which ignores it\n",
				w->cc_mark.file, w->cc_mark.line, w->cc_mark.col, what, w->name, w->cc->kind.name);
	}
	if (!nic_used)
		return;
	fabric_warn_unmarked(e, e->nic.cc, &e->cc_mark);
	if (what && !(e->nic.cc->flags & CC_F_ECN))
		fprintf(stderr,
			"%s:%u:%u: warning: %s but congestion control '%s' (nic.cc) ignores it: marks and CNPs slow nothing down\n",
			e->cc_mark.file, e->cc_mark.line, e->cc_mark.col, what, e->nic.cc->kind.name);
}

/* An algorithm in use reads INT but the responders coalesce ACKs: it sees
 * one record in every few (HPCC assumes an ACK per packet). Warn. */
static void fabric_warn_int(const struct exp *e)
{
	/* fabric.int on and nothing in use reads the stacks: the frames grow
	 * (serialisation, buffers, captures) for nothing but decoding. */
	if (e->sw.int_on && !(e->cc_flags & CC_F_INT)) {
		struct cfg_node *fab = cfg_schema_get(cfg_doc_root(e->doc), "fabric");
		const struct cfg_node *v = fab ? cfg_get(fab, "int") : NULL;
		const struct cfg_mark *m = v ? &v->mark : &e->cc_mark;

		fprintf(stderr,
			"%s:%u:%u: warning: fabric.int adds a telemetry record per hop to every data frame, but no congestion control in use reads it (hpcc does): the frames grow for captures only\n",
			m->file, m->line, m->col);
	}
	if ((e->cc_flags & CC_F_INT) && e->nic.ack_every_pkts > 1)
		fprintf(stderr,
			"%s:%u:%u: warning: a congestion control in use reads INT from ACKs (hpcc) but nic.ack_every is %u: it reacts to one packet in %u; HPCC assumes an ACK per packet (nic.ack_every: 1)\n",
			e->ack_every_mark.file, e->ack_every_mark.line, e->ack_every_mark.col,
			e->nic.ack_every_pkts, e->nic.ack_every_pkts);
}

/* @ops's delay ceiling (a delay target, TIMELY's T_high) at or above
 * the retransmission timeout: RTTs the algorithm takes as a congestion
 * signal make the timer fire and resend data that is only queued. */
static void fabric_warn_rto_one(const struct exp *e, const struct cc_ops *ops,
				const struct cfg_mark *m)
{
	const void *cfg = cc_cfg_of(e->cc_cfg, ops);
	uint64_t d = ops->delay_ceiling_ps && cfg ? ops->delay_ceiling_ps(cfg) : 0;

	if (e->nic.rto_off || !d || d < e->nic.rto_ps)
		return;
	fprintf(stderr,
		"%s:%u:%u: warning: congestion control '%s' treats round trips up to %.3f us as a congestion signal, but nic.rto is %.3f us: such round trips time out and resend data that is only queued (set nic.rto above it, e.g. 4.096us x 2^14 as perftest does, or nic.rto: off)\n",
		m->file, m->line, m->col, ops->kind.name, (double)d / 1e6, (double)e->nic.rto_ps / 1e6);
}

static void fabric_warn_rto(const struct exp *e)
{
	/* (With live ports and no workload, the marks are for the real
	 * endpoints.) */
	bool nic_used = e->n_workloads == 0 && !e->live.n_ports;

	for (uint32_t i = 0; i < e->n_workloads; i++) {
		const struct exp_workload *w = &e->workloads[i];

		if (!w->cc)
			nic_used = true;
		else
			fabric_warn_rto_one(e, w->cc, &w->cc_mark);
	}
	if (nic_used)
		fabric_warn_rto_one(e, e->nic.cc, &e->cc_mark);
}

void fabric_warn_rtt(const struct fabric *f)
{
	const struct exp *e = f->exp;
	uint64_t rtt = tg_max_rtt_ps(f->tg);
	struct cfg_node *nic = cfg_schema_get(cfg_doc_root(e->doc), "nic");
	const struct cfg_node *v = nic ? cfg_get(nic, "rto") : NULL;
	struct cfg_mark m = v ? v->mark : nic ? nic->mark : (struct cfg_mark){ e->path, 1, 1 };

	if (e->nic.rto_off || rtt <= e->nic.rto_ps)
		return;
	fprintf(stderr,
		"%s:%u:%u: warning: nic.rto is %.3f us, but a connection's round trip takes %.3f us of "
		"propagation alone (its path's link delays, both ways): each of its messages times out "
		"and is resent at least once (set nic.rto above the round trip, or nic.rto: off)\n",
		m.file, m.line, m.col, (double)e->nic.rto_ps / 1e6, (double)rtt / 1e6);
}

int fabric_ready(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;
	bool warned = false;
	int r;

	fabric_warn_ecn(e);
	fabric_warn_int(e);
	fabric_warn_rto(e);
	exp_capacity_note(e, stderr);
	/* What only the wired fabric tells the link layer (InfiniBand: a
	 * credit buffer that holds no frame). */
	if (e->ll->ready && (r = e->ll->ready(f, err)) != 0)
		return r;
	for (uint32_t i = 0; i < e->n_pfc_off; i++) {
		const struct topo_node *n = &t->nodes[e->pfc_off[i].node];

		if (n->kind == TOPO_SWITCH)
			sw_port_pfc_off(f->sws[n->index], e->pfc_off[i].port);
		else
			port_pfc_fini(nic_port(f->nics[n->index], e->pfc_off[i].port));
		if (e->sw.pfc.lossless_prio)
			fprintf(stderr,
				"%s:%u:%u: warning: PFC disabled on %s:%u, which carries lossless priorities (0x%02x): their frames may drop there\n",
				e->pfc_off_marks[i].file, e->pfc_off_marks[i].line, e->pfc_off_marks[i].col,
				n->name, e->pfc_off[i].port, e->sw.pfc.lossless_prio);
	}
	for (uint32_t i = 0; i < t->n_switches; i++) {
		char warn[CFG_ERR_BYTES];

		char why[CFG_ERR_BYTES];

		if (sw_ready(f->sws[i], why, warn) != 0) {
			/* The buffer's position, then the switch's complaint (cut at the buffer's end). */
			int n = snprintf(err, CFG_ERR_BYTES, "%s:%u:%u: %s: ", e->buffer_mark.file,
					 e->buffer_mark.line, e->buffer_mark.col,
					 t->nodes[t->switches[i]].name);

			if (n > 0 && n < CFG_ERR_BYTES) {
				size_t k = strnlen(why, CFG_ERR_BYTES - 1 - (size_t)n);

				memcpy(err + n, why, k);
				err[n + k] = '\0';
			}
			return -ENOSPC;
		}
		if (warn[0] && e->sw.pfc.lossless_prio && !warned) {
			fprintf(stderr, "%s:%u:%u: warning: %s: %s\n", e->headroom_mark.file,
				e->headroom_mark.line, e->headroom_mark.col,
				t->nodes[t->switches[i]].name, warn);
			warned = true;
		}
	}
	return 0;
}

/* Schedule a monitor event: monitors run while anything else is pending,
 * and must not keep each other alive. */
static void fabric_mon_at(struct fabric *f, uint64_t t, ev_fn fn)
{
	f->mon_pending++;
	sim_at(&f->sim, t, &f->mon_src, fn, f);
}

static bool fabric_mon_busy(const struct fabric *f)
{
	return f->mon_always || sim_pending(&f->sim) > f->mon_pending;
}

enum { FABRIC_SERIES_VALS = 5 }; /* a series.csv row's values */

/* The values series.csv samples of port @c into @v: its queue, bytes
 * sent, paused classes and priorities, its switch's buffer. */
static void fabric_series_values(const struct fabric *f, const struct exp_capture *c, uint64_t *v)
{
	const struct topo_node *n = &f->topo->nodes[c->node];
	struct port *p = fabric_port((struct fabric *)f, c->node, c->port);

	v[0] = p->queue_bytes;
	v[1] = port_tx_bytes(p);
	v[2] = p->paused_mask;
	v[3] = p->pfc ? p->pfc->paused_prio : 0;
	v[4] = n->kind == TOPO_SWITCH ? sw_buffer_used(f->sws[n->index]) : 0;
}

/* A run split over processes: each sampled port's and QP's values from
 * the process that runs its node (the others' copies never move), summed
 * over the processes into f->mon_vals; NULL in one process, or out of
 * memory (then every process fails the same way: it aborts). */
static const uint64_t *fabric_sample_remote(struct fabric *f)
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;
	uint64_t n = (uint64_t)e->n_series * FABRIC_SERIES_VALS + (uint64_t)f->n_rate_flows * FABRIC_RATE_VALS;
	uint64_t *v, *r;
	const struct tg_flow *fl;
	uint32_t n_fl;

	if (!f->par || !e->remote || !n)
		return NULL;
	if (!f->mon_vals && !(f->mon_vals = malloc(sizeof(*v) * n))) {
		fprintf(stderr, "fabemu: out of memory sampling series.csv\n");
		abort();
	}
	v = f->mon_vals;
	memset(v, 0, sizeof(*v) * n);
	for (uint32_t i = 0; i < e->n_series; i++)
		if (par_owns(f->par, f->node_part[e->series[i].node]))
			fabric_series_values(f, &e->series[i], v + (uint64_t)i * FABRIC_SERIES_VALS);
	r = v + (uint64_t)e->n_series * FABRIC_SERIES_VALS;
	fl = tg_flows(f->tg, &n_fl);
	for (uint32_t i = 0; i < f->n_rate_flows; i++)
		if (par_owns(f->par, f->node_part[t->eps[fl[f->rate_flows[i]].msg.src].node]))
			fabric_rates_values(f, i, r + (uint64_t)i * FABRIC_RATE_VALS);
	e->remote->combine(e->remote->ctx, NULL, 0, v, (uint32_t)n);
	return v;
}

static void fabric_sample(struct sim *sim, void *obj)
{
	struct fabric *f = obj;
	const struct exp *e = f->exp;
	const uint64_t *vals = fabric_sample_remote(f);

	f->mon_pending--;
	sim->monitor_event = true;
	/* Split over processes, every process counts the bytes process 0
	 * writes: the budget ends sampling at the same sample in all. */
	for (uint32_t i = 0; (f->series || vals) && i < e->n_series; i++) {
		const struct exp_capture *c = &e->series[i];
		uint64_t own[FABRIC_SERIES_VALS];
		const uint64_t *v = vals ? vals + (uint64_t)i * FABRIC_SERIES_VALS : own;
		char row[256];
		int w;

		if (!vals)
			fabric_series_values(f, c, own);
		w = snprintf(row, sizeof(row), "%.3f,%s:%u,%llu,%llu,%u,%u,%llu\n",
			     units_ps_to_ns(sim->now_ps), f->topo->nodes[c->node].name, c->port,
			     (unsigned long long)v[0], (unsigned long long)v[1], (unsigned)v[2],
			     (unsigned)v[3], (unsigned long long)v[4]);
		if (w <= 0)
			continue;
		if (f->series)
			fputs(row, f->series);
		f->series_bytes += (uint64_t)w;
	}
	f->series_bytes += fabric_rates_sample(f, sim->now_ps,
					       vals ? vals + (uint64_t)e->n_series * FABRIC_SERIES_VALS : NULL);
	if (f->series_bytes >= e->series_max_bytes) {
		/* The output budget: no more samples (results say so). */
		f->series_full = true;
		f->series_full_ps = sim->now_ps;
		return;
	}
	if (fabric_mon_busy(f))
		fabric_mon_at(f, sim->now_ps + e->series_interval_ps, fabric_sample);
}

int fabric_series_arm(struct fabric *f, char err[CFG_ERR_BYTES])
{
	(void)err;
	if (f->exp->n_series)
		fabric_mon_at(f, 0, fabric_sample);
	return 0;
}

int fabric_series_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	char path[4200];
	int r;

	if (!f->exp->n_series)
		return 0;
	snprintf(path, sizeof(path), "%s/series.csv", outdir);
	f->series = cfg_fopen_out(path);
	if (!f->series) {
		r = -errno;
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(errno));
		return r;
	}
	fputs("time_ns,port,queue_bytes,tx_bytes,paused_tc_mask,paused_prio_mask,switch_buffer_bytes\n",
	      f->series);
	return 0;
}

/* The switch behind switch port (s, i), or -1 (a host or nothing). */
static int fabric_peer_switch(const struct fabric *f, uint32_t s, uint16_t i)
{
	const struct topo *t = f->topo;
	const struct topo_node *n = &t->nodes[t->switches[s]];
	const struct topo_link *l;
	uint32_t peer;

	if (i >= n->n_ports || n->port_links[i] == TOPO_NO_LINK)
		return -1;
	l = &t->links[n->port_links[i]];
	peer = l->node[0] == t->switches[s] ? l->node[1] : l->node[0];
	return t->nodes[peer].kind == TOPO_SWITCH ? (int)t->nodes[peer].index : -1;
}

/* What holds a switch port: its bits in an edge's or a cycle's mechanism. */
enum {
	FABRIC_DL_PFC = 1,    /* a paused lossless queue holding frames */
	FABRIC_DL_CREDIT = 2, /* a VL holding frames without credit for its head */
};

/* Why port @p of switch @i waits on its peer: FABRIC_DL_* bits, 0 if not. */
static uint8_t fabric_port_blocked(const struct fabric *f, uint32_t i, uint16_t p)
{
	return (uint8_t)((sw_port_blocked(f->sws[i], p) >= 0 ? FABRIC_DL_PFC : 0) |
			 (sw_port_credit_blocked(f->sws[i], p) >= 0 ? FABRIC_DL_CREDIT : 0));
}

/* Whether this process runs switch @i: always, but in a run shared with
 * other processes (core/par.h, par_remote), where the switches of the
 * others' partitions are idle copies. */
static bool fabric_sw_here(const struct fabric *f, uint32_t i)
{
	return !f->par || !f->exp->remote || par_owns(f->par, f->node_part[f->topo->switches[i]]);
}

/* Over every process of a shared run (else unchanged): @v[0..n) their
 * largest (each value comes from the process that runs its switch, the
 * others' are 0), or with @sum their sum. */
static void fabric_remote_fold(const struct fabric *f, uint64_t *v, uint32_t n, bool sum)
{
	if (f->par && f->exp->remote)
		f->exp->remote->combine(f->exp->remote->ctx, sum ? NULL : v, sum ? 0 : n, sum ? v : NULL,
					sum ? n : 0);
}

/* Find a cycle in the graph "switch a waits for switch b" (a has a
 * lossless queue toward b that is paused and holds frames, or a VL toward
 * b whose head lacks credits; a switch may wait for several). Marks the
 * cycle's switches in @on, links them in @next (each to its successor on
 * the cycle), sets @mech to the FABRIC_DL_* bits of its edges and returns
 * its length, or 0. Depth-first over every edge, so a cycle through any of
 * a switch's blocked ports is found. */
static uint32_t fabric_find_cycle(struct fabric *f, uint8_t *on, uint32_t *next, uint8_t *mech)
{
	uint32_t n = f->topo->n_switches, n_edges = 0, len = 0;
	uint32_t *off = calloc(n + 1, sizeof(*off));
	uint32_t *adj = NULL, *stack = NULL, *edge = NULL;
	uint8_t *state = calloc(n, 1); /* 0 new, 1 on the path, 2 done */
	uint8_t *why = NULL;           /* per edge: FABRIC_DL_* */
	uint64_t *blk = NULL;          /* per switch port: fabric_port_blocked */

	if (!off || !state)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		n_edges += sw_n_ports(f->sws[i]);
	adj = malloc(sizeof(*adj) * (n_edges ? n_edges : 1));
	why = malloc(n_edges ? n_edges : 1);
	stack = malloc(sizeof(*stack) * (n + 1));
	edge = malloc(sizeof(*edge) * (n + 1));
	if (!adj || !why || !stack || !edge)
		goto out;
	blk = calloc(n_edges ? n_edges : 1, sizeof(*blk));
	if (!blk)
		goto out;
	n_edges = 0;
	for (uint32_t i = 0; i < n; i++)
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++, n_edges++)
			blk[n_edges] = fabric_sw_here(f, i) ? fabric_port_blocked(f, i, p) : 0;
	fabric_remote_fold(f, blk, n_edges, false);
	n_edges = 0;
	for (uint32_t i = 0, k = 0; i < n; i++) {
		off[i] = n_edges;
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++) {
			uint8_t b = (uint8_t)blk[k++];
			int peer;

			if (b && (peer = fabric_peer_switch(f, i, p)) >= 0) {
				why[n_edges] = b;
				adj[n_edges++] = (uint32_t)peer;
			}
		}
	}
	off[n] = n_edges;
	for (uint32_t root = 0; root < n && !len; root++) {
		uint32_t depth = 0;

		if (state[root])
			continue;
		stack[depth] = root;
		edge[depth++] = off[root];
		state[root] = 1;
		while (depth && !len) {
			uint32_t v = stack[depth - 1];

			if (edge[depth - 1] == off[v + 1]) {
				state[v] = 2;
				depth--;
				continue;
			}
			uint32_t w = adj[edge[depth - 1]++];

			if (state[w] == 0) {
				state[w] = 1;
				stack[depth] = w;
				edge[depth++] = off[w];
			} else if (state[w] == 1) {
				/* Back edge: the path from w to v closes a cycle. */
				uint32_t k = depth - 1;

				while (stack[k] != w)
					k--;
				for (uint32_t j = k; j < depth; j++) {
					on[stack[j]] = 1;
					next[stack[j]] = j + 1 < depth ? stack[j + 1] : w;
					/* edge[j] is one past the edge it left by. */
					*mech |= why[edge[j] - 1];
				}
				len = depth - k;
			}
		}
	}
out:
	free(blk);
	free(off);
	free(adj);
	free(why);
	free(stack);
	free(edge);
	free(state);
	return len;
}

/* Data frames switch @s has sent toward switch @to (pause refreshes go on
 * during a deadlock, and other ports of a switch on a cycle may still
 * move lossy traffic: neither is progress around the cycle). */
static uint64_t fabric_tx_toward(struct fabric *f, uint32_t s, uint32_t to)
{
	uint64_t tx = 0;

	for (uint16_t p = 0; fabric_sw_here(f, s) && p < sw_n_ports(f->sws[s]); p++)
		if (fabric_peer_switch(f, s, p) == (int)to)
			tx += sw_port(f->sws[s], p)->tx_pkts - sw_port(f->sws[s], p)->ctrl_tx_pkts;
	fabric_remote_fold(f, &tx, 1, true);
	return tx;
}

static void fabric_deadlock_check(struct sim *sim, void *obj)
{
	struct fabric *f = obj;
	uint32_t n = f->topo->n_switches;
	uint8_t *on = calloc(n, 1);
	uint32_t *next = malloc(sizeof(*next) * (n ? n : 1));
	uint8_t mech = 0;
	uint32_t len = on && next ? fabric_find_cycle(f, on, next, &mech) : 0;
	bool stuck = len > 0;

	f->mon_pending--;
	sim->monitor_event = true;
	/* A deadlock is a cycle that was already there at the last check and
	 * along which nothing has been sent since: no frame moves around it. */
	for (uint32_t i = 0; stuck && i < n; i++)
		if (on[i] && (f->dl_next[i] != next[i] || fabric_tx_toward(f, i, next[i]) != f->dl_tx[i]))
			stuck = false;
	if (stuck && !f->deadlocks++) {
		uint32_t start = 0;
		size_t off = 0;

		while (!on[start])
			start++;
		f->deadlock_ps = sim->now_ps;
		/* Name the mechanism of a cycle that credits take part in (a
		 * PFC-only cycle keeps the plain "s0 -> s1 -> s0"). */
		if (mech & FABRIC_DL_CREDIT)
			off = (size_t)snprintf(f->deadlock_cycle, sizeof(f->deadlock_cycle), "%s: ",
					       mech & FABRIC_DL_PFC ? "credit loop and PFC" : "credit loop");
		for (uint32_t v = start, k = 0; k <= len && off < sizeof(f->deadlock_cycle); k++) {
			off += (size_t)snprintf(f->deadlock_cycle + off, sizeof(f->deadlock_cycle) - off,
						"%s%s", k ? " -> " : "",
						f->topo->nodes[f->topo->switches[v]].name);
			v = next[v];
		}
		if (!f->exp->sw.pfc.wd_detect_ps || !(mech & FABRIC_DL_PFC)) {
			/* Nothing will ever break it (the PFC watchdog breaks
			 * pauses, never a credit loop): end the run and report. */
			f->deadlock_stopped = true;
			sim->stop_ps = sim->now_ps;
		}
	}
	for (uint32_t i = 0; on && i < n; i++) {
		f->dl_next[i] = on[i] ? next[i] : UINT32_MAX;
		f->dl_tx[i] = on[i] ? fabric_tx_toward(f, i, next[i]) : 0;
	}
	free(on);
	free(next);
	if (fabric_mon_busy(f) && !f->deadlock_stopped)
		fabric_mon_at(f, sim->now_ps + f->exp->deadlock_check_ps, fabric_deadlock_check);
}

void fabric_deadlock_arm(struct fabric *f)
{
	uint32_t n = f->topo->n_switches;
	bool credit = false;

	for (uint32_t i = 0; i < n && !credit; i++)
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]) && !credit; p++)
			credit = port_credit_on(sw_port(f->sws[i], p));
	if ((!f->exp->sw.pfc.lossless_prio && !credit) || !f->exp->deadlock_check_ps || !n)
		return;
	f->dl_next = malloc(sizeof(*f->dl_next) * n);
	f->dl_tx = calloc(n, sizeof(*f->dl_tx));
	if (!f->dl_next || !f->dl_tx)
		return;
	for (uint32_t i = 0; i < n; i++)
		f->dl_next[i] = UINT32_MAX;
	fabric_mon_at(f, f->exp->deadlock_check_ps, fabric_deadlock_check);
}

/* Frames other than MAC control (PFC) ones, sent by every port so far:
 * data, ACKs and CNPs, which all stop in a fabric that is stuck. */
static uint64_t fabric_data_tx(const struct fabric *f)
{
	const struct topo *t = f->topo;
	uint64_t tx = 0;

	for (uint32_t i = 0; i < t->n_switches; i++)
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++)
			tx += sw_port(f->sws[i], p)->tx_pkts - sw_port(f->sws[i], p)->ctrl_tx_pkts;
	for (uint32_t i = 0; i < t->n_hosts; i++)
		for (uint16_t p = 0; p < nic_n_ports(f->nics[i]); p++)
			tx += nic_port(f->nics[i], p)->tx_pkts - nic_port(f->nics[i], p)->ctrl_tx_pkts;
	return tx;
}

/* sim.watch: every few thousand events, and at most four times per span
 * of virtual time, count the data frames sent. The run is stuck when that
 * count has not moved for the whole span while the model (not only its
 * observers) kept handling events in the last quarter of it: a fabric
 * that waits for a later start or a compute phase handles no events
 * meanwhile, so it is never taken for stuck. */
static bool fabric_progress_watch(struct sim *sim, void *arg)
{
	struct fabric *f = arg;
	uint64_t span = f->exp->engine.no_progress_ps, tx;

	if (sim->now_ps - f->np_look_ps < span / 4)
		return false;
	f->np_look_ps = sim->now_ps;
	tx = fabric_data_tx(f);
	if (tx != f->np_tx_pkts) {
		f->np_tx_pkts = tx;
		f->np_since_ps = sim->now_ps;
		return false;
	}
	if (sim->now_ps - f->np_since_ps < span || sim->last_work_ps + span / 4 < sim->now_ps)
		return false;
	f->no_progress_stopped = true;
	return true;
}

void fabric_progress_arm(struct fabric *f)
{
	if (!f->exp->engine.no_progress_ps)
		return;
	f->np_tx_pkts = fabric_data_tx(f);
	f->np_since_ps = f->sim.now_ps;
	f->np_look_ps = f->sim.now_ps;
	f->sim.watch = fabric_progress_watch;
	f->sim.watch_arg = f;
}
