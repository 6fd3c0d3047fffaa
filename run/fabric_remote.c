/* A run split over the processes of an MPI job (core/par.h, par_remote):
 * once it is over, what results read of the nodes, ports and messages
 * that other processes ran is brought to every process, so that process 0
 * writes what one process would have.
 *
 * Every process holds the whole fabric; a node's state moves only in the
 * process that runs its partition, and the copies elsewhere keep what the
 * build left. So each process puts in one buffer of words what it ran
 * (zeros for the rest), the buffers are summed over the processes, and
 * each word ends up as its one author wrote it, bit for bit:
 * - a switch's and a NIC's counters, a QP's, a port's PFC and credit
 *   counters, a message's record: from the process that runs the node (a
 *   message: its source's);
 * - a port's counters (struct port_stats) are computed by every process
 *   from its own copies, and what each changed since the run began
 *   (fabric_remote_begin; the build, the same in every process, may have
 *   sent frames already: InfiniBand's credit init packets) is summed onto
 *   how they began: its frames received are what its peer sent, less what
 *   was lost or is still on the link, and a frame on a link between
 *   processes is held by the receiving side (the sender counts it, the
 *   receiver holds it in flight, either may lose it), so each such count
 *   is a sum of per-process changes that are zero where nothing happened;
 * - a port's fault counters (frames lost, corrupted, FCS errors, downs)
 *   and what each fault's kind counted itself (a storm's XOFFs): summed,
 *   each counted where it happened (faults act on the ports a process
 *   runs: core/port_fault.c, faults/storm.c);
 * - the counts of messages done and failed: summed;
 * - the collectives' operations (their starts and ends, as the process
 *   that saw them left them) and streamed instances (counts, times, the
 *   completed messages' records: rem_streams).
 * Results then read port_stats and port_credit_sum through
 * fabric_port_stats and fabric_port_credit_sum (fabric.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "faults.h"
#include "nic.h"
#include "par.h"
#include "port_metrics.h"
#include "port_pfc.h"
#include "sw.h"

#define REM_ST_WORDS METRIC_WORDS(sizeof(struct port_stats))
#define REM_CR_WORDS METRIC_WORDS(sizeof(struct port_credit_sum))
#define REM_FT_WORDS METRIC_WORDS(sizeof(struct port_fault_stats))
#define REM_FC_WORDS METRIC_WORDS(sizeof(struct fault_counts))
#define REM_SIDE_WORDS (REM_ST_WORDS + REM_CR_WORDS + PORT_PFC_RESULT_WORDS + REM_FT_WORDS)
#define REM_MAX_WORDS INT32_MAX /* one reduction's (MPI counts are ints) */

/* Whether this process ran node @node. */
static bool rem_runs(const struct fabric *f, uint32_t node)
{
	return par_owns(f->par, f->node_part[node]);
}

/* fabric.h */
uint32_t fabric_node_process(const struct fabric *f, uint32_t node)
{
	return f->par && f->exp->remote ? par_process(f->par, f->node_part[node]) : 0;
}

/* Where the words of each part lie in the buffer. */
struct rem_layout {
	uint64_t sides; /* per link side: port_stats, credit sum, PFC */
	uint64_t *sw;   /* per switch, its first word */
	uint64_t *nic;  /* per host */
	uint64_t flows; /* per message */
	uint64_t faults; /* per fault, what its kind counted (fault_counts) */
	uint64_t counts; /* messages done, failed */
	uint64_t n;     /* words in all */
};

static int rem_layout(const struct fabric *f, struct rem_layout *l)
{
	const struct topo *t = f->topo;
	uint32_t n_flows;
	uint64_t at = 0;

	tg_flows(f->tg, &n_flows);
	l->sw = malloc(sizeof(*l->sw) * (t->n_switches + 1));
	l->nic = malloc(sizeof(*l->nic) * (t->n_hosts + 1));
	if (!l->sw || !l->nic)
		return -ENOMEM;
	l->sides = at;
	at += (uint64_t)2 * t->n_links * REM_SIDE_WORDS;
	for (uint32_t i = 0; i < t->n_switches; i++) {
		l->sw[i] = at;
		at += sw_result_words(f->sws[i]);
	}
	for (uint32_t i = 0; i < t->n_hosts; i++) {
		l->nic[i] = at;
		at += nic_result_words(f->nics[i]);
	}
	l->flows = at;
	at += (uint64_t)n_flows * TG_FLOW_RESULT_WORDS;
	l->faults = at;
	at += (uint64_t)f->exp->n_faults * REM_FC_WORDS;
	l->counts = at;
	at += 2;
	l->n = at;
	return 0;
}

/* Every link side's port_stats into @w, REM_ST_WORDS apart. */
static void rem_port_stats(const struct fabric *f, uint64_t *w, uint64_t stride)
{
	const struct topo *t = f->topo;

	for (uint32_t k = 0; k < t->n_links; k++)
		for (int s = 0; s < 2; s++) {
			const struct topo_link *lk = &t->links[k];
			struct port_stats st;

			port_stats(fabric_port((struct fabric *)f, lk->node[s], lk->port[s]), &st);
			memcpy(w + (2 * (uint64_t)k + (uint64_t)s) * stride, &st, sizeof(st));
		}
}

/* fabric.h */
int fabric_remote_begin(struct fabric *f)
{
	if (!f->par || !f->exp->remote)
		return 0;
	f->rbase = calloc((uint64_t)2 * f->topo->n_links * REM_ST_WORDS + 1, sizeof(*f->rbase));
	if (!f->rbase)
		return -ENOMEM;
	rem_port_stats(f, f->rbase, REM_ST_WORDS);
	return 0;
}

/* This process's words: what it ran, zeros for the rest. */
static void rem_save(const struct fabric *f, const struct rem_layout *l, uint64_t *w)
{
	const struct topo *t = f->topo;
	uint32_t n_flows;
	const struct tg_flow *fl = tg_flows(f->tg, &n_flows);

	rem_port_stats(f, w + l->sides, REM_SIDE_WORDS);
	for (uint32_t k = 0; k < t->n_links; k++)
		for (int s = 0; s < 2; s++) {
			const struct topo_link *lk = &t->links[k];
			const struct port *p = fabric_port((struct fabric *)f, lk->node[s], lk->port[s]);
			uint64_t *at = w + l->sides + (2 * (uint64_t)k + (uint64_t)s) * REM_SIDE_WORDS;
			const uint64_t *base = f->rbase + (2 * (uint64_t)k + (uint64_t)s) * REM_ST_WORDS;
			struct port_credit_sum cr;

			struct port_fault_stats ft = { 0 };

			/* Process 0: how it began and its changes; the others:
			 * their changes (wrapping: a change may be negative). */
			for (uint32_t i = 0; f->exp->remote->rank > 0 && i < REM_ST_WORDS; i++)
				at[i] -= base[i];
			/* Fault counters: none before the run; each counted where
			 * it happened (a loss where the frame was sent or arrived,
			 * an FCS error at the receiver, a link's downs and time
			 * down by the process that runs its port: port_fault.c). */
			port_fault_stats(p, f->sim.now_ps, &ft);
			memcpy(at + REM_SIDE_WORDS - REM_FT_WORDS, &ft, sizeof(ft));
			if (!rem_runs(f, lk->node[s]))
				continue;
			port_credit_sum(p, f->sim.now_ps, &cr);
			memcpy(at + REM_ST_WORDS, &cr, sizeof(cr));
			port_pfc_result_save(p, at + REM_ST_WORDS + REM_CR_WORDS);
		}
	for (uint32_t i = 0; i < t->n_switches; i++)
		if (rem_runs(f, t->switches[i]))
			sw_result_save(f->sws[i], w + l->sw[i]);
	for (uint32_t i = 0; i < t->n_hosts; i++)
		if (rem_runs(f, t->hosts[i]))
			nic_result_save(f->nics[i], w + l->nic[i]);
	for (uint32_t i = 0; i < n_flows; i++)
		if (rem_runs(f, t->eps[fl[i].msg.src].node))
			tg_flow_result_save(f->tg, i, w + l->flows + (uint64_t)i * TG_FLOW_RESULT_WORDS);
	/* A fault's own counts (a storm's XOFFs): each where it acted. */
	for (uint32_t i = 0; i < f->exp->n_faults; i++) {
		struct fault_counts c;

		fabric_fault_own_counts(f, i, &c);
		memcpy(w + l->faults + (uint64_t)i * REM_FC_WORDS, &c, sizeof(c));
	}
	w[l->counts] = tg_n_done(f->tg);
	w[l->counts + 1] = tg_n_failed(f->tg);
}

/* The summed words in place of what this process holds. */
static int rem_load(struct fabric *f, const struct rem_layout *l, const uint64_t *w)
{
	const struct topo *t = f->topo;
	uint32_t n_flows;

	tg_flows(f->tg, &n_flows);
	f->rport = calloc((size_t)2 * t->n_links + 1, sizeof(*f->rport));
	if (!f->rport)
		return -ENOMEM;
	for (uint32_t k = 0; k < t->n_links; k++)
		for (int s = 0; s < 2; s++) {
			const struct topo_link *lk = &t->links[k];
			struct port *p = fabric_port(f, lk->node[s], lk->port[s]);
			const uint64_t *at = w + l->sides + (2 * (uint64_t)k + (uint64_t)s) * REM_SIDE_WORDS;
			struct fabric_rport *r = &f->rport[2 * k + (uint32_t)s];

			memcpy(&r->st, at, sizeof(r->st));
			memcpy(&r->fault, at + REM_SIDE_WORDS - REM_FT_WORDS, sizeof(r->fault));
			memcpy(&r->credit, at + REM_ST_WORDS, sizeof(r->credit));
			port_pfc_result_load(p, at + REM_ST_WORDS + REM_CR_WORDS);
		}
	if (f->exp->n_faults &&
	    !(f->rfault = calloc(f->exp->n_faults, sizeof(*f->rfault))))
		return -ENOMEM;
	for (uint32_t i = 0; i < f->exp->n_faults; i++)
		memcpy(&f->rfault[i], w + l->faults + (uint64_t)i * REM_FC_WORDS, sizeof(f->rfault[i]));
	for (uint32_t i = 0; i < t->n_switches; i++)
		sw_result_load(f->sws[i], w + l->sw[i]);
	for (uint32_t i = 0; i < t->n_hosts; i++)
		nic_result_load(f->nics[i], w + l->nic[i]);
	for (uint32_t i = 0; i < n_flows; i++)
		tg_flow_result_load(f->tg, i, w + l->flows + (uint64_t)i * TG_FLOW_RESULT_WORDS);
	tg_result_counts(f->tg, (uint32_t)w[l->counts], (uint32_t)w[l->counts + 1]);
	return 0;
}

/* The collectives' figures over every process (tg.h, tg_graph_fold_*,
 * tg_stream_fold_*): each operation's start and end; each streamed
 * instance's counts and times, then the completed messages' records.
 * Every process calls it (a reduction's count is an int: REM_MAX_WORDS). */
static int rem_streams(struct fabric *f)
{
	const struct par_remote *r = f->exp->remote;
	uint32_t n_mx, n_sum, n_parts = par_n(f->par);
	uint64_t *mx, *sum, *w = NULL, n_w = 0;
	bool *owned;
	int rc = 0;

	/* The graph's operations first: an instance counted out in one
	 * process is then done in all. */
	if ((n_mx = tg_graph_fold_words(f->tg)) != 0) {
		if (!(mx = calloc(n_mx, sizeof(*mx)))) {
			fprintf(stderr, "fabemu: out of memory gathering the collectives' results\n");
			abort();
		}
		tg_graph_fold_save(f->tg, mx);
		r->combine(r->ctx, mx, n_mx, NULL, 0);
		tg_graph_fold_load(f->tg, mx);
		free(mx);
	}
	tg_stream_fold_sizes(f->tg, &n_mx, &n_sum);
	if (!n_mx && !n_sum)
		return 0;
	mx = calloc(n_mx + 1, sizeof(*mx));
	sum = calloc(n_sum + 1, sizeof(*sum));
	owned = calloc(n_parts, sizeof(*owned));
	if (!mx || !sum || !owned) {
		fprintf(stderr, "fabemu: out of memory gathering the collectives' results\n");
		abort(); /* the others wait in the reduction: end the job */
	}
	for (uint32_t i = 0; i < n_parts; i++)
		owned[i] = par_owns(f->par, i);
	tg_stream_fold_save(f->tg, owned, mx, sum);
	r->combine(r->ctx, mx, n_mx, sum, n_sum);
	tg_stream_fold_load(f->tg, mx, sum);
	/* Each instance's critical-path origin: its last arrival over every
	 * process (rank gates'). */
	tg_stream_fold_org(f->tg, r);
	n_w = tg_stream_done_words(f->tg, sum);
	if (n_w > REM_MAX_WORDS || !(w = calloc(n_w + 1, sizeof(*w)))) {
		fprintf(stderr, "fabemu: %llu completed messages' records: too many to gather\n",
			(unsigned long long)(n_w / 3));
		abort();
	}
	tg_stream_done_save(f->tg, owned, sum, w);
	r->combine(r->ctx, NULL, 0, w, (uint32_t)n_w);
	rc = tg_stream_done_load(f->tg, owned, sum, w);
	if (rc == 0)
		tg_stream_fold_end(f->tg);
	free(w);
	free(mx);
	free(sum);
	free(owned);
	return rc;
}

/* fabric.h */
int fabric_remote_results(struct fabric *f)
{
	const struct par_remote *r = f->exp->remote;
	struct rem_layout l = { 0 };
	uint64_t *w = NULL;
	int rc;

	if (!f->par || !r)
		return 0;
	if (!f->rbase)
		rc = -EINVAL;
	else if ((rc = rem_layout(f, &l)) == 0 && l.n > REM_MAX_WORDS)
		rc = -E2BIG;
	if (rc == 0 && !(w = calloc(l.n, sizeof(*w))))
		rc = -ENOMEM;
	/* Every process must take part in the sum, or none: a failure here
	 * is agreed on first. */
	{
		uint64_t bad = rc != 0;

		r->combine(r->ctx, &bad, 1, NULL, 0);
		if (bad && rc == 0)
			rc = -EIO;
	}
	if (rc == 0) {
		rem_save(f, &l, w);
		r->combine(r->ctx, NULL, 0, w, (uint32_t)l.n);
		rc = rem_load(f, &l, w);
		/* Every process takes part, whatever its own load gave. */
		int rs = rem_streams(f);

		rc = rc ? rc : rs;
	}
	free(w);
	free(l.sw);
	free(l.nic);
	return rc;
}

/* @p's counters over every process (f->rport, by link side), or NULL
 * outside a split run or where @p has no link. */
static const struct fabric_rport *rem_rport(const struct fabric *f, const struct port *p)
{
	const struct topo_node *nd = &f->topo->nodes[p->node];
	uint32_t k = nd->port_links ? nd->port_links[p->index] : TOPO_NO_LINK;
	const struct topo_link *lk;

	if (!f->rport || k == TOPO_NO_LINK)
		return NULL;
	lk = &f->topo->links[k];
	return &f->rport[2 * (uint64_t)k + (lk->node[0] == p->node && lk->port[0] == p->index ? 0 : 1)];
}

void fabric_port_stats(const struct fabric *f, const struct port *p, struct port_stats *out)
{
	const struct fabric_rport *r = rem_rport(f, p);

	if (r)
		*out = r->st;
	else
		port_stats(p, out);
}

void fabric_port_fault_stats(const struct fabric *f, const struct port *p, struct port_fault_stats *out)
{
	const struct fabric_rport *r = rem_rport(f, p);

	if (r)
		*out = r->fault;
	else
		port_fault_stats(p, f->sim.now_ps, out);
}

void fabric_port_credit_sum(const struct fabric *f, const struct port *p, struct port_credit_sum *out)
{
	const struct fabric_rport *r = rem_rport(f, p);

	if (r)
		*out = r->credit;
	else
		port_credit_sum(p, f->sim.now_ps, out);
}
