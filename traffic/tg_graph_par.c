/* A dependency graph in partitions (core/par.h): where each operation
 * acts, and what waits for a window's end.
 *
 * An operation acts in one partition (a transfer: its sender's; a compute
 * phase: that of the rank whose sends it releases, else where all it
 * waits for ends, else where its successors act), or in several (a
 * streamed collective). Its end is counted where its last event happens: a
 * transfer's at its receiver (a SEND or WRITE with immediate) or sender; a
 * compute phase's in its own partition, or as an event of the root when it
 * has none. What waits for an operation that ends in another partition,
 * or for several partitions at once (a join: a step's end, a collective's
 * end at every rank), learns of it at the window's end (par_defer), in the
 * order of the ends' times, and starts at the latest of them. That is
 * exact only for what acts after the window's end: a compute phase longer
 * than the lookahead (its end is due after the window), a join of no
 * length (it ends at once, and what waits for it follows the same rule).
 * A streamed collective with rank gates (tg.h's cgate) never waits for a
 * window's end: each rank starts where its gate ends (tg_stream_gated),
 * which must be the rank's partition or the root. tg_graph_par_plan
 * refuses the rest (a transfer or a collective that would start the
 * instant another partition's operation ends, a rank gated by a join of
 * several partitions), and the run stays in one partition. A compute
 * phase's end event is keyed by its node (tg_graph_compute_at), so that
 * one learnt of late keeps the order it has in one thread. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"
#include "par.h"
#include "tg_int.h"

enum { TG_PART_UNSET = TG_PART_SPECIAL };

/* @a and @b as one: the same partition, or several. */
static uint16_t tg_part_merge(uint16_t a, uint16_t b)
{
	if (a == TG_PART_UNSET)
		return b;
	return a == b ? a : TG_PART_ANY;
}

static const struct tg_msg *tg_plan_msg(const void *msgs, size_t stride, uint32_t i)
{
	return (const struct tg_msg *)((const uint8_t *)msgs + (size_t)i * stride);
}

/* Into @rp (s->n of them) the partition of every sending endpoint of each
 * rank of stream @s: TG_PART_UNSET (it sends nothing), or TG_PART_ANY
 * (several). One pass over its edges. */
static void tg_plan_ranks(const struct tg_stream *s, const uint16_t *ep_part, uint16_t *rp)
{
	for (uint32_t r = 0; r < s->n; r++)
		rp[r] = TG_PART_UNSET;
	for (uint32_t e = 0; e < s->n_edges; e++)
		if (s->ep[2 * e] != UINT32_MAX && s->erank[e] < s->n)
			rp[s->erank[e]] = tg_part_merge(rp[s->erank[e]], ep_part[s->ep[2 * e]]);
}

/* Hints of where each operation acts (@home), from the last one back: a
 * transfer at its sender, a compute phase where its successors that act
 * in one partition do (TG_PART_UNSET: none; what acts in several learns
 * of its predecessors' ends at a window's end wherever they end); and in
 * @rankp the partition of the ranks whose sends a compute phase releases
 * (a streamed collective's; TG_PART_UNSET for others). NULL, or why not. */
static const char *tg_plan_hints(const struct tg_graph *g, const void *msgs, uint32_t n_msgs,
				 size_t stride, const uint16_t *ep_part, uint16_t *home, uint16_t *rankp)
{
	for (uint32_t i = 0; i < g->n_ops; i++)
		home[i] = rankp[i] = TG_PART_UNSET;
	for (uint32_t k = 0; k < g->n_streams; k++) {
		const struct tg_stream *s = &g->streams[k];
		uint16_t *rp;

		if (!s->cgate)
			continue;
		if (!(rp = malloc(sizeof(*rp) * (s->n ? s->n : 1))))
			return "out of memory for the partitions' check";
		tg_plan_ranks(s, ep_part, rp);
		for (uint32_t r = 0; r < s->n; r++) {
			if (s->cgate[r] >= g->n_ops) {
				free(rp);
				return "a collective's rank waits for no operation of the graph";
			}
			if (rp[r] != TG_PART_UNSET)
				rankp[s->cgate[r]] = home[s->cgate[r]] = tg_part_merge(rankp[s->cgate[r]], rp[r]);
		}
		free(rp);
	}
	for (uint32_t i = g->n_ops; i-- > 0;) {
		const struct tg_node *o = &g->ops[i];

		if (o->kind == TG_NODE_XFER) {
			if (o->msg >= n_msgs)
				return "a transfer of its dependency graph is not one of its messages";
			home[i] = ep_part[tg_plan_msg(msgs, stride, o->msg)->src];
		} else if (o->kind == TG_NODE_STREAM) {
			home[i] = TG_PART_ANY;
		}
		for (uint32_t k = 0; home[i] < TG_PART_SPECIAL && k < o->n_deps; k++) {
			uint32_t d = g->deps[o->dep_off + k];

			home[d] = tg_part_merge(home[d], home[i]);
		}
	}
	return NULL;
}

/* Where compute phase @i acts, its hint in @home[i]: where the sends it
 * releases are (a streamed collective's rank); else where all it waits
 * for ends, when that is one partition (so that it does not wait for a
 * window's end); else its hint; else the root. */
static uint16_t tg_plan_compute_home(const struct tg_graph *g, const uint16_t *comp, const uint16_t *home,
				     const uint16_t *rankp, uint32_t i)
{
	const struct tg_node *o = &g->ops[i];
	uint16_t p = TG_PART_UNSET;

	if (rankp[i] != TG_PART_UNSET)
		return rankp[i];
	for (uint32_t k = 0; k < o->n_deps; k++) {
		uint16_t c = comp[g->deps[o->dep_off + k]];

		if (c != TG_PART_ROOT)
			p = tg_part_merge(p, c < TG_PART_SPECIAL ? c : TG_PART_ANY);
	}
	if (p < TG_PART_SPECIAL)
		return p;
	return home[i] < TG_PART_SPECIAL ? home[i] : TG_PART_ANY;
}

/* The one partition all of @s's edges are in, or TG_PART_ANY. */
static uint16_t tg_plan_stream_part(const struct tg_stream *s, const uint16_t *ep_part)
{
	uint16_t p = TG_PART_UNSET;

	for (uint32_t e = 0; e < s->n_edges; e++)
		if (s->ep[2 * e] != UINT32_MAX)
			p = tg_part_merge(tg_part_merge(p, ep_part[s->ep[2 * e]]), ep_part[s->ep[2 * e + 1]]);
	return p == TG_PART_UNSET ? TG_PART_ANY : p;
}

/* Whether operation @i may start at a window's end (its @lead) and where
 * its end is counted (@comp[i]). NULL, or why not. */
static const char *tg_plan_comp(const struct tg_graph *g, const void *msgs, size_t stride,
				const uint16_t *ep_part, uint64_t la_ps, const uint16_t *home,
				uint16_t *comp, uint32_t i, bool lead)
{
	const struct tg_node *o = &g->ops[i];

	if (o->kind == TG_NODE_XFER) {
		const struct tg_msg *m = tg_plan_msg(msgs, stride, o->msg);

		if (lead)
			return "a message of its dependency graph waits for an operation that ends in "
			       "another partition, with no compute phase between";
		comp[i] = ep_part[tg_op_on_arrival(m->op) ? m->dst : m->src];
	} else if (o->kind == TG_NODE_STREAM) {
		if (o->msg >= g->n_streams)
			return "a streamed collective of its dependency graph is not one of its streams";
		/* With rank gates each rank starts where its gate ends (the
		 * gates' own check is the plan's); without, it would post at
		 * once, so it may not start at a window's end. */
		if (lead && !g->streams[o->msg].cgate)
			return "a collective of its dependency graph starts as soon as operations in other "
			       "partitions end, with no compute phase longer than the lookahead between";
		comp[i] = tg_plan_stream_part(&g->streams[o->msg], ep_part);
	} else if (lead && !o->dur_ps) {
		comp[i] = TG_PART_LEAD;
	} else if (lead && o->dur_ps <= la_ps) {
		return "a compute phase of its dependency graph no longer than the lookahead waits for "
		       "operations in other partitions";
	} else {
		comp[i] = home[i] < TG_PART_SPECIAL ? home[i] : TG_PART_ROOT;
	}
	return NULL;
}

const char *tg_graph_par_plan(const struct tg_graph *g, const void *msgs, uint32_t n_msgs, size_t stride,
			      const uint16_t *ep_part, uint64_t la_ps, uint16_t *home, uint16_t *comp)
{
	uint16_t *rankp = malloc(sizeof(*rankp) * (g->n_ops ? g->n_ops : 1));
	const char *why = NULL;

	if (!rankp)
		return "out of memory for the partitions' check";
	if (!tg_graph_parallel(g))
		why = "its traffic carries data (data-carrying collectives)";
	else
		why = tg_plan_hints(g, msgs, n_msgs, stride, ep_part, home, rankp);
	for (uint32_t i = 0; i < g->n_ops && !why; i++) {
		const struct tg_node *o = &g->ops[i];
		bool lead = false;

		if (o->kind == TG_NODE_COMPUTE)
			home[i] = tg_plan_compute_home(g, comp, home, rankp, i);
		/* It may start at a window's end when something it waits for
		 * ends there, or ends where it does not act. */
		for (uint32_t k = 0; k < o->n_deps; k++) {
			uint16_t c = comp[g->deps[o->dep_off + k]];

			lead |= c != TG_PART_ROOT && (c >= TG_PART_SPECIAL || c != home[i]);
		}
		why = tg_plan_comp(g, msgs, stride, ep_part, la_ps, home, comp, i, lead);
		if (!why && rankp[i] != TG_PART_UNSET && comp[i] == TG_PART_LEAD)
			why = "a collective's rank waits for a join of operations in other partitions, with "
			      "no compute phase longer than the lookahead between";
		else if (!why && rankp[i] != TG_PART_UNSET && o->kind != TG_NODE_COMPUTE)
			why = "a collective's rank waits for a transfer or a collective";
	}
	free(rankp);
	return why;
}

void tg_graph_par_late(const struct tg *t, uint32_t i)
{
	fprintf(stderr,
		"fabemu: operation %u of the dependency graph would act before the window's end "
		"(%llu ps): the partitions' plan let it\n",
		i, (unsigned long long)par_window_end(t->sim->par));
	abort();
}

int tg_graph_par_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES])
{
	struct par *p = t->sim->par;
	uint32_t n = g->n_ops, n_eps = t->n_eps;
	uint16_t *ep_part;
	const char *why;

	if (!(t->gp = calloc(1, sizeof(*t->gp))) || !(ep_part = malloc(sizeof(*ep_part) * (n_eps ? n_eps : 1)))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory for %u operations", n);
		return -ENOMEM;
	}
	for (uint32_t ep = 0; ep < n_eps; ep++)
		ep_part[ep] = (uint16_t)nic_sim(t->nics[t->eps[ep].nic])->part;
	t->gp->home = malloc(sizeof(*t->gp->home) * (n ? n : 1));
	t->gp->comp = malloc(sizeof(*t->gp->comp) * (n ? n : 1));
	t->gp->ready = calloc(n ? n : 1, sizeof(*t->gp->ready));
	if (!t->gp->home || !t->gp->comp || !t->gp->ready) {
		free(ep_part);
		snprintf(err, CFG_ERR_BYTES, "out of memory for %u operations", n);
		return -ENOMEM;
	}
	why = tg_graph_par_plan(g, t->n_flows ? &t->flows[0].msg : NULL, t->n_flows, sizeof(*t->flows),
				ep_part, par_lookahead(p), t->gp->home, t->gp->comp);
	free(ep_part);
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "the graph's partitions: %s", why);
		return -EINVAL;
	}
	par_set_defer(p, tg_graph_par_defer, t);
	return 0;
}

void tg_graph_par_free(struct tg *t)
{
	if (!t->gp)
		return;
	free(t->gp->home);
	free(t->gp->comp);
	free(t->gp->ready);
	free(t->gp);
	t->gp = NULL;
}
