/* Partitions of a parallel run (core/par.h): which node runs in which
 * partition, the lookahead, and what keeps a run in one partition for now.
 * Hosts go to partitions in equal blocks of host numbers (builders number
 * hosts pod by pod and unit by unit, so a block is a set of whole pods
 * where the counts allow), a GPU node's NICs and NVLink endpoints
 * together, in blocks of GPU nodes (a rank's endpoints are in one
 * partition, which streamed collectives need), taken in their numbers'
 * order or in the one a workload gives (struct exp's gpu_order: a
 * training pipeline's, replica by replica); switches follow, tier by tier upwards, into the
 * partition most of their placed neighbours are in, ties to the partition
 * with the fewest ports so far (spines and cores spread evenly). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fabric.h"
#include "fault.h"
#include "par.h"

/* The lookahead of partitions no link joins: about a second. */
#define FABRIC_PAR_NO_LOOKAHEAD (UINT64_C(1) << 40)

/* fabric.h */
const char *fabric_par_blocker(const struct exp *e, bool outputs)
{
	/* No output keeps a run in one partition now: pfc_log.csv and a
	 * pcapng capture, one file every partition writes into, get one
	 * thread's order from ordered records (core/sim_rec.h). */
	(void)outputs;
	if (e->graph.n_ops && !tg_graph_parallel(&e->graph))
		return "its traffic carries data (data-carrying collectives), not partitioned yet";
	for (uint32_t i = 0; e->remote && i < e->n_faults; i++)
		if (!e->faults[i].ops->splits)
			return "across processes: a fault of a kind that may act on every process's "
			       "copy of the fabric at once (fault_ops.splits)";
	return NULL;
}

/* fabric.h */
uint32_t fabric_par_auto(const struct exp *e, bool outputs, uint32_t cores)
{
	uint32_t n = e->topo ? e->topo->n_hosts / FABRIC_PAR_AUTO_HOSTS : 0;

	if (e->remote || fabric_par_blocker(e, outputs))
		return 1;
	if (n > cores)
		n = cores;
	if (e->partitions && n > e->partitions)
		n = e->partitions;
	if (n > PAR_MAX_THREADS)
		n = PAR_MAX_THREADS;
	return n > 1 ? n : 1;
}

static int fabric_par_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Each GPU node's place in the order of @key (ties by number) into @rank,
 * or its number without @key. 0 or -ENOMEM. */
static int fabric_par_gpu_rank(const struct topo *t, const uint32_t *key, uint32_t *rank)
{
	uint32_t n = t->gpus.n_nodes;
	uint64_t *by = key ? malloc(sizeof(*by) * (n ? n : 1)) : NULL;

	for (uint32_t g = 0; g < n; g++)
		rank[g] = g;
	if (!key)
		return 0;
	if (!by)
		return -ENOMEM;
	for (uint32_t g = 0; g < n; g++)
		by[g] = (uint64_t)key[g] << 32 | g;
	qsort(by, n, sizeof(*by), fabric_par_u64_cmp);
	for (uint32_t i = 0; i < n; i++)
		rank[(uint32_t)by[i]] = i;
	free(by);
	return 0;
}

/* The partition of every node of @t over @n partitions into @part, GPU
 * nodes in the order of @gkey (NULL: their numbers). 0 or -ENOMEM. */
static int fabric_par_assign(const struct topo *t, uint32_t n, const uint32_t *gkey, uint16_t *part)
{
	uint64_t load[PAR_MAX_THREADS] = { 0 };
	uint32_t count[PAR_MAX_THREADS];
	uint32_t *grank = malloc(sizeof(*grank) * (t->gpus.n_nodes ? t->gpus.n_nodes : 1));

	if (!grank || fabric_par_gpu_rank(t, gkey, grank) != 0) {
		free(grank);
		return -ENOMEM;
	}

	for (uint32_t i = 0; i < t->n_nodes; i++)
		part[i] = UINT16_MAX;
	for (uint32_t h = 0; h < t->n_hosts; h++) {
		uint32_t node = t->hosts[h], g = t->nodes[node].gpu_node;

		part[node] = (uint16_t)(g != TOPO_NO_LINK && t->gpus.n_nodes
						? (uint64_t)grank[g] * n / t->gpus.n_nodes
						: (uint64_t)h * n / t->n_hosts);
		load[part[node]] += t->nodes[node].n_ports;
	}
	for (unsigned tier = 0; tier < 256; tier++) {
		for (uint32_t s = 0; s < t->n_switches; s++) {
			uint32_t node = t->switches[s], best = 0;
			const struct topo_node *nd = &t->nodes[node];

			if (nd->tier != tier)
				continue;
			memset(count, 0, sizeof(count[0]) * n);
			for (uint16_t p = 0; p < nd->n_ports; p++) {
				uint32_t l = nd->port_links ? nd->port_links[p] : TOPO_NO_LINK, peer;

				if (l == TOPO_NO_LINK)
					continue;
				peer = t->links[l].node[0] == node ? t->links[l].node[1] : t->links[l].node[0];
				if (part[peer] != UINT16_MAX)
					count[part[peer]]++;
			}
			for (uint32_t i = 1; i < n; i++)
				if (count[i] > count[best] || (count[i] == count[best] && load[i] < load[best]))
					best = i;
			part[node] = (uint16_t)best;
			load[best] += nd->n_ports;
		}
	}
	free(grank);
	return 0;
}

/* The smallest delay of a link between two partitions; UINT64_MAX: none. */
static uint64_t fabric_par_lookahead(const struct topo *t, const uint16_t *part)
{
	uint64_t la = UINT64_MAX;

	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *k = &t->links[l];

		if (part[k->node[0]] != part[k->node[1]] && k->delay_ps < la)
			la = k->delay_ps;
	}
	return la;
}

/* Whether every rank of @e's streamed collectives has its endpoints, those
 * it sends from and those it receives on, in one partition (an arrival
 * makes the receiver's next sends at once, in its partition), @ep_part
 * the partition of each endpoint. */
static bool fabric_par_ranks_whole(const struct exp *e, const struct topo *t, const uint16_t *ep_part)
{
	bool ok = true;

	for (uint32_t i = 0; ok && i < e->graph.n_streams; i++) {
		const struct tg_stream *s = &e->graph.streams[i];
		uint32_t *rank = malloc(sizeof(*rank) * (t->n_eps ? t->n_eps : 1));
		uint16_t *rpart = malloc(sizeof(*rpart) * (s->n ? s->n : 1));

		/* Each endpoint's rank (from what it sends) and that rank's partition. */
		ok = rank && rpart;
		for (uint32_t k = 0; ok && k < t->n_eps; k++)
			rank[k] = UINT32_MAX;
		for (uint32_t r = 0; ok && r < s->n; r++)
			rpart[r] = UINT16_MAX;
		for (uint32_t k = 0; ok && k < s->n_edges; k++) {
			uint32_t src = s->ep[2 * k], r = s->erank[k];

			if (src == UINT32_MAX)
				continue;
			rank[src] = r;
			if (rpart[r] == UINT16_MAX)
				rpart[r] = ep_part[src];
			ok = rpart[r] == ep_part[src];
		}
		for (uint32_t k = 0; ok && k < s->n_edges; k++) {
			uint32_t dst = s->ep[2 * k + 1];

			ok = dst == UINT32_MAX || rank[dst] == UINT32_MAX || rpart[rank[dst]] == ep_part[dst];
		}
		free(rank);
		free(rpart);
	}
	return ok;
}

/* Why @e's dependency graph cannot run in partitions @part with
 * lookahead @la_ps, or NULL. */
static const char *fabric_par_graph_local(const struct exp *e, const struct topo *t,
					  const uint16_t *part, uint64_t la_ps)
{
	uint32_t n = e->graph.n_ops ? e->graph.n_ops : 1;
	uint16_t *ep_part = malloc(sizeof(*ep_part) * (t->n_eps ? t->n_eps : 1));
	uint16_t *home = malloc(sizeof(*home) * n), *comp = malloc(sizeof(*comp) * n);
	const char *why = NULL;

	if (!e->graph.n_ops)
		goto out;
	if (!ep_part || !home || !comp) {
		why = "out of memory for the partitions' check";
		goto out;
	}
	for (uint32_t h = 0; h < t->n_hosts; h++) {
		const struct topo_node *nd = &t->nodes[t->hosts[h]];

		for (uint16_t p = 0; p < nd->n_ports && nd->first_ep + p < t->n_eps; p++)
			ep_part[nd->first_ep + p] = part[t->hosts[h]];
	}
	if (!fabric_par_ranks_whole(e, t, ep_part))
		why = "a rank of its collectives has endpoints in two partitions";
	else
		why = tg_graph_par_plan(&e->graph, e->msgs, e->n_msgs, sizeof(*e->msgs), ep_part, la_ps,
					home, comp);
out:
	free(ep_part);
	free(home);
	free(comp);
	return why;
}

/* The option that asked for partitions, and how many (shared with other
 * processes: threads, at least one, in each). */
static const char *fabric_par_opt(const struct exp *e, uint32_t *n)
{
	uint32_t per = e->threads > 1 ? e->threads : 1;

	*n = e->partitions ? e->partitions : e->remote ? e->remote->size * per : e->threads;
	return e->partitions ? "--partitions" : e->remote ? "processes x --threads" : "--threads";
}

/* --threads or --partitions not followed: say why, once per run. */
static void fabric_par_say(const struct fabric *f)
{
	uint32_t n;
	const char *opt = fabric_par_opt(f->exp, &n);

	if (f->exp->remote && f->exp->remote->rank > 0)
		return; /* process 0 says it */
	if (f->exp->threads_auto)
		return; /* fabemu chose the threads: nothing was asked */
	fprintf(stderr, "fabemu: note: %s %u: %s: the run runs in one partition (its results are the same)\n",
		opt, n, f->par_note);
}

int fabric_par_setup(struct fabric *f, bool outputs, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;
	uint32_t n, asked, workers;
	const char *opt = fabric_par_opt(e, &asked);
	uint64_t la;

	f->par_note = NULL;
	n = asked;
	if (n <= 1) {
		if (e->threads > 1)
			fprintf(stderr, "fabemu: note: --threads %u with --partitions 1: one "
					"partition, run by one thread\n",
				e->threads);
		return 0;
	}
	if (n > PAR_MAX_THREADS)
		n = PAR_MAX_THREADS;
	if (n > t->n_hosts) {
		n = t->n_hosts;
		if (n > 1 && !(e->remote && e->remote->rank > 0))
			fprintf(stderr, "fabemu: note: %s %u: %u partitions, one a host at most\n", opt,
				asked, n);
	}
	if ((f->par_note = fabric_par_blocker(e, outputs)) != NULL || n <= 1 ||
	    (e->remote && n < e->remote->size)) {
		if (!f->par_note)
			f->par_note = n <= 1 ? "the fabric has one host"
					     : "fewer partitions than processes (each runs one at least: "
					       "--partitions, or a fabric of more hosts)";
		fabric_par_say(f);
		return 0;
	}
	f->node_part = malloc(sizeof(*f->node_part) * t->n_nodes);
	if (!f->node_part) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	if (fabric_par_assign(t, n, e->gpu_order_clash ? NULL : e->gpu_order, f->node_part) != 0) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	la = fabric_par_lookahead(t, f->node_part);
	if (la == 0 ||
	    (f->par_note = fabric_par_graph_local(e, t, f->node_part,
						  la == UINT64_MAX ? FABRIC_PAR_NO_LOOKAHEAD : la)) != NULL) {
		if (la == 0)
			f->par_note = "a link of zero delay joins two partitions (no lookahead)";
		free(f->node_part);
		f->node_part = NULL;
		fabric_par_say(f);
		return 0;
	}
	/* One thread a partition at most; more partitions than threads are
	 * run one after the other by each thread. */
	workers = e->threads > 1 ? e->threads : 1;
	if (workers > n)
		workers = n;
	if (e->remote && workers > n / e->remote->size)
		workers = n / e->remote->size ? n / e->remote->size : 1;
	f->par = par_new(&f->sim, n, workers, f->sim.pool->size,
			 rte_pktmbuf_data_room_size(f->sim.pool), err);
	if (!f->par)
		return -ENOMEM;
	if (e->remote && par_set_remote(f->par, e->remote, err) != 0)
		return -EINVAL;
	par_set_lookahead(f->par, la == UINT64_MAX ? FABRIC_PAR_NO_LOOKAHEAD : la);
	return 0;
}

struct sim *fabric_node_sim(struct fabric *f, uint32_t node)
{
	return f->par ? par_sim(f->par, f->node_part[node]) : &f->sim;
}

uint32_t fabric_threads(const struct fabric *f)
{
	return f->par ? par_workers(f->par) : 1;
}

uint32_t fabric_partitions(const struct fabric *f)
{
	return f->par ? par_n(f->par) : 1;
}

void fabric_par_report(const struct fabric *f, const char *lead, FILE *out)
{
	struct par_stats st;
	uint64_t x = 0;
	double ev = (double)f->sim.n_events, hops = (double)f->sim.n_hops;

	if (!f->par)
		return;
	par_get_stats(f->par, &st);
	for (uint32_t i = 0; i < st.n_parts; i++)
		x += st.x_frames[i];
	fprintf(out, "%s%u", lead, st.n_workers);
	if (st.n_procs > 1)
		fprintf(out, " in each of %u MPI processes", st.n_procs);
	if (st.n_workers * st.n_procs != st.n_parts)
		fprintf(out, "%s running %u partitions", st.n_procs > 1 ? "," : "", st.n_parts);
	fprintf(out,
		" (lookahead %.3f us; %llu windows, %.0f events each, %llu of them ended by a "
		"fabric-wide event; %.1f%% of hops crossed partitions; parallelism %.2f: events "
		"over the busiest partition's per window)\n",
		units_ps_to_ns(st.lookahead_ps) / 1e3, (unsigned long long)st.windows,
		st.windows ? ev / (double)st.windows : 0, (unsigned long long)st.root_events,
		hops > 0 ? 100.0 * (double)x / hops : 0, st.crit_events ? ev / (double)st.crit_events : 0);
	for (uint32_t i = 0; i < st.n_parts; i++)
		fprintf(out, "  partition %-3u %llu events, busy %.3f s (CPU %.3f s), waiting %.3f s\n", i,
			(unsigned long long)st.events[i], st.busy_s[i], st.cpu_s[i], st.wait_s[i]);
}
