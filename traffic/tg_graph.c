/* The dependency graph of a workload (see tg.h): building it, and running
 * it. An operation waits for a count of predecessors; each completion
 * counts its successors down and starts those that reach zero, at the
 * later of now and their own start time. A transfer completes for its
 * successors when its data has arrived (the receive completions of a SEND
 * or a WRITE with immediate:
 * the k-th message a QP receives is the k-th its peer posted, so every
 * sending QP of the graph keeps the list of what it posted) or, for a
 * WRITE or READ, when the sender's request completes. State per
 * operation and per message is made only when there is a graph. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"
#include "par.h"
#include "tg_int.h"

enum { TG_GRAPH_FIRST_CAP = 1024 /* first allocation of a growing array */ };

/* Room for @more entries of @size bytes in *@v (of *@cap, @n used). */
static int tg_graph_grow(void **v, uint32_t *cap, uint32_t n, uint32_t more, size_t size)
{
	uint64_t want = *cap ? *cap : TG_GRAPH_FIRST_CAP;
	void *p;

	if ((uint64_t)n + more <= *cap)
		return 0;
	while (want < (uint64_t)n + more)
		want *= 2;
	if (want > UINT32_MAX || !(p = realloc(*v, want * size)))
		return -ENOMEM;
	*v = p;
	*cap = (uint32_t)want;
	return 0;
}

int tg_graph_add(struct tg_graph *g, const struct tg_node *op, const uint32_t *deps, uint32_t n_deps,
		 uint32_t *id)
{
	struct tg_node *o;

	for (uint32_t i = 0; i < n_deps; i++)
		if (deps[i] >= g->n_ops)
			return -EINVAL;
	if (tg_graph_grow((void **)&g->ops, &g->cap_ops, g->n_ops, 1, sizeof(*g->ops)) != 0 ||
	    tg_graph_grow((void **)&g->deps, &g->cap_deps, g->n_deps, n_deps, sizeof(*g->deps)) != 0)
		return -ENOMEM;
	o = &g->ops[g->n_ops];
	*o = *op;
	o->dep_off = g->n_deps;
	o->n_deps = n_deps;
	if (n_deps)
		memcpy(&g->deps[g->n_deps], deps, sizeof(*deps) * n_deps);
	g->n_deps += n_deps;
	*id = g->n_ops++;
	return 0;
}

int tg_graph_join(struct tg_graph *g, uint32_t first, uint32_t *id)
{
	struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .coll = TG_NO_COLL };
	uint32_t n = g->n_ops - first, *deps = malloc(sizeof(*deps) * (n ? n : 1));
	int rc;

	if (!deps)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		deps[i] = first + i;
	rc = tg_graph_add(g, &node, deps, n, id);
	free(deps);
	return rc;
}

bool tg_graph_parallel(const struct tg_graph *g)
{
	return !g->data.n_xfers;
}

void tg_graph_free(struct tg_graph *g)
{
	tg_graph_free_streams(g);
	for (uint32_t i = 0; i < g->n_aggs; i++) {
		free(g->aggs[i].ep);
		free(g->aggs[i].msg);
	}
	free(g->aggs);
	free(g->ops);
	free(g->deps);
	free(g->data.xfers);
	free(g->data.colls);
	free(g->data.ranges);
	free(g->data.sets);
	memset(g, 0, sizeof(*g));
}

int tg_data_add_xfer(struct tg_data_plan *p, const struct tg_data_xfer *x)
{
	if (tg_graph_grow((void **)&p->xfers, &p->cap_xfers, p->n_xfers, 1, sizeof(*x)) != 0)
		return -ENOMEM;
	p->xfers[p->n_xfers++] = *x;
	return 0;
}

int tg_data_add_coll(struct tg_data_plan *p, const struct tg_data_coll *x, uint32_t *id)
{
	if (tg_graph_grow((void **)&p->colls, &p->cap_colls, p->n_colls, 1, sizeof(*x)) != 0)
		return -ENOMEM;
	if (id)
		*id = p->n_colls;
	p->colls[p->n_colls++] = *x;
	return 0;
}

int tg_data_add_range(struct tg_data_plan *p, const struct tg_data_range *x)
{
	if (tg_graph_grow((void **)&p->ranges, &p->cap_ranges, p->n_ranges, 1, sizeof(*x)) != 0)
		return -ENOMEM;
	p->ranges[p->n_ranges++] = *x;
	return 0;
}

int tg_data_add_set(struct tg_data_plan *p, const struct tg_data_set *x, uint32_t *id)
{
	if (tg_graph_grow((void **)&p->sets, &p->cap_sets, p->n_sets, 1, sizeof(*x)) != 0)
		return -ENOMEM;
	if (id)
		*id = p->n_sets;
	p->sets[p->n_sets++] = *x;
	return 0;
}

/* Every graph QP's list of posted messages made as long as it will be: a
 * partition's receiver reads it while the sender's appends (par.h), so it
 * never moves. 0 or -ENOMEM. */
static int tg_graph_size_posted(struct tg *t)
{
	for (uint32_t i = 0; i < t->n_flows; i++) {
		uint32_t parts = tg_n_parts(t->flows[i].msg.bytes, t->flows[i].msg.qps);

		if (t->op_of_msg[i] == TG_NO_OP)
			continue;
		for (uint32_t j = 0; j < parts; j++)
			t->qpx[t->slots[i].qp + j].cap++;
	}
	for (uint32_t k = 0; k < t->n_qps; k++)
		if (t->qpx[k].cap && !t->qpx[k].fifo &&
		    !(t->qpx[k].posted = malloc(sizeof(*t->qpx[k].posted) * t->qpx[k].cap)))
			return -ENOMEM;
	return 0;
}

int tg_graph_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES])
{
	uint32_t n = g->n_ops;

	t->n_ops = n;
	t->ops = malloc(sizeof(*t->ops) * n);
	t->succ_off = calloc((size_t)n + 1, sizeof(*t->succ_off));
	t->succ = malloc(sizeof(*t->succ) * (g->n_deps ? g->n_deps : 1));
	t->left = malloc(sizeof(*t->left) * n);
	t->op_start = malloc(sizeof(*t->op_start) * n);
	t->op_end = malloc(sizeof(*t->op_end) * n);
	t->opev = malloc(sizeof(*t->opev) * n);
	t->op_of_msg = malloc(sizeof(*t->op_of_msg) * (t->n_flows ? t->n_flows : 1));
	t->rparts_left = calloc(t->n_flows ? t->n_flows : 1, sizeof(*t->rparts_left));
	t->qpx = calloc(t->n_qps ? t->n_qps : 1, sizeof(*t->qpx));
	t->n_colls = g->n_colls;
	t->colls = calloc(g->n_colls ? g->n_colls : 1, sizeof(*t->colls));
	if (!t->ops || !t->succ_off || !t->succ || !t->left || !t->op_start || !t->op_end ||
	    !t->opev || !t->op_of_msg ||
	    !t->rparts_left || !t->qpx || !t->colls) {
		snprintf(err, CFG_ERR_BYTES, "out of memory for %u operations", n);
		return -ENOMEM;
	}
	memcpy(t->ops, g->ops, sizeof(*t->ops) * n);
	for (uint32_t i = 0; i < t->n_flows; i++)
		t->op_of_msg[i] = TG_NO_OP;
	for (uint32_t c = 0; c < t->n_colls; c++)
		t->colls[c].start_ps = UINT64_MAX;
	/* Successors: count, place, fill (a dependency is always on an earlier
	 * operation, so the graph has no cycle). */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < g->ops[i].n_deps; k++)
			t->succ_off[g->deps[g->ops[i].dep_off + k] + 1]++;
	for (uint32_t i = 0; i < n; i++)
		t->succ_off[i + 1] += t->succ_off[i];
	for (uint32_t i = 0; i < n; i++)
		t->left[i] = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct tg_node *o = &g->ops[i];

		for (uint32_t k = 0; k < o->n_deps; k++) {
			uint32_t d = g->deps[o->dep_off + k];

			/* t->left[d] counts the successors placed so far. */
			t->succ[t->succ_off[d] + t->left[d]++] = i;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct tg_node *o = &g->ops[i];

		t->left[i] = o->n_deps;
		t->op_start[i] = t->op_end[i] = UINT64_MAX;
		t->opev[i] = (struct tg_opev){ .t = t, .op = i };
		if (o->coll != TG_NO_COLL) {
			if (o->coll >= t->n_colls) {
				snprintf(err, CFG_ERR_BYTES, "operation %u: collective %u of %u", i, o->coll,
					 t->n_colls);
				return -EINVAL;
			}
			t->colls[o->coll].left++;
		}
		if (o->kind != TG_NODE_XFER)
			continue;
		if (o->msg >= t->n_flows || t->op_of_msg[o->msg] != TG_NO_OP) {
			snprintf(err, CFG_ERR_BYTES, "operation %u: message %u is not one of the %u, or has an operation already",
				 i, o->msg, t->n_flows);
			return -EINVAL;
		}
		t->op_of_msg[o->msg] = i;
		t->rparts_left[o->msg] =
			(uint8_t)tg_n_parts(t->flows[o->msg].msg.bytes, t->flows[o->msg].msg.qps);
	}
	/* Streamed connections: their receiving QPs keep what is in flight. */
	for (uint32_t i = 0; t->st && i < t->st->n_conns; i++)
		for (uint32_t q = 0; q < t->st->conns[i].qps; q++) {
			uint32_t k = t->st->conns[i].qp + q;

			t->qpx[k].fifo = true;
			nic_qp_set_user(t->rqps[k], &t->qpx[k]);
		}
	/* The receiving QP of every connection carrying graph messages finds
	 * its sender's post list through its user pointer. */
	for (uint32_t i = 0; i < t->n_flows; i++) {
		if (t->op_of_msg[i] == TG_NO_OP)
			continue;
		for (uint32_t q = 0; q < t->flows[i].msg.qps; q++)
			nic_qp_set_user(t->rqps[t->slots[i].qp + q], &t->qpx[t->slots[i].qp + q]);
	}
	if (tg_graph_size_posted(t) != 0 || (t->sim->par && !tg_post_src(t, par_sim(t->sim->par, 0)))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory for %u operations", n);
		return -ENOMEM;
	}
	sim_new_src(t->sim, &t->op_src);
	if (t->sim->par)
		return tg_graph_par_init(t, g, err);
	return 0;
}

static void tg_graph_op_start(struct tg *t, uint32_t i, uint64_t now_ps, struct sim *ctx);

/* One of what operation @s waits for ended at @now_ps: it starts when that
 * was the last (in a parallel run at the latest of their ends, which a
 * window's end may learn of out of order: tg_graph_par.c). */
static void tg_graph_countdown(struct tg *t, uint32_t s, uint64_t now_ps, struct sim *ctx)
{
	if (t->gp) {
		if (now_ps > t->gp->ready[s])
			t->gp->ready[s] = now_ps;
		now_ps = t->gp->ready[s];
	}
	if (--t->left[s] == 0)
		tg_graph_op_start(t, s, now_ps, ctx);
}

uint64_t tg_graph_par_defer(void *arg, uint64_t t_ps, uint32_t s, uint32_t count)
{
	struct tg *t = arg;
	uint64_t before = t->gp->inline_events;

	if (s >= t->n_ops)
		tg_stream_counted(t, s - t->n_ops, t_ps, count); /* arrivals (across processes) */
	else
		tg_graph_countdown(t, s, t_ps, NULL);
	return t->gp->inline_events - before;
}

void tg_graph_op_done(struct tg *t, uint32_t i, uint64_t now_ps, struct sim *ctx)
{
	const struct tg_node *o = &t->ops[i];
	/* In a partition, a successor that starts elsewhere or waits for more
	 * than this partition's operations waits for the window's end; across
	 * processes so does every count of one that ends there (each process
	 * counts it, from the same records). */
	bool part = t->gp && ctx && ctx != t->sim;

	/* In a parallel run (par.h; tg_graph_par.c) operations end in any
	 * partition: the shared counts are atomic. */
	__atomic_fetch_add(&t->n_ops_done, 1, __ATOMIC_RELAXED);
	t->op_end[i] = now_ps;
	if (o->coll != TG_NO_COLL) {
		struct tg_coll_rt *c = &t->colls[o->coll];
		uint32_t left = __atomic_sub_fetch(&c->left, 1, __ATOMIC_ACQ_REL);

		tg_atomic_max(&c->end_ps, now_ps);
		if (left == 0 && t->data)
			tg_data_coll_done(t, o->coll); /* before what waits for it starts */
	}
	for (uint32_t k = t->succ_off[i]; k < t->succ_off[i + 1]; k++) {
		uint32_t s = t->succ[k];

		if (t->ops[s].kind == TG_NODE_STREAM && t->st->v[t->ops[s].msg].cgate) {
			/* Ranks of a streamed instance that this gates start now,
			 * in this partition (tg_graph_par_plan): where the
			 * instance's node comes among the successors, as its
			 * listed transfers would. */
			if (!ctx)
				tg_graph_par_late(t, s);
			tg_stream_gated(t, t->ops[s].msg, i, now_ps, ctx);
		} else if (part && (t->gp->comp[i] != ctx->part || t->gp->home[s] != ctx->part ||
			     (t->remote && t->gp->comp[s] == TG_PART_LEAD)))
			par_defer(ctx, now_ps, s);
		else
			tg_graph_countdown(t, s, now_ps, ctx);
	}
}

static void tg_graph_compute_done(struct sim *sim, void *obj)
{
	const struct tg_opev *ev = obj;

	tg_graph_op_done(ev->t, ev->op, sim->now_ps, sim);
}

/* Compute node @i's end at @t_ps on @sim. Its event's key is (time, the
 * compute phases' identity, @i): a function of the node, not of when it
 * was scheduled, so that a partition that learns of its start at a
 * window's end (tg_graph_par.c) orders it as one thread does. */
void tg_graph_compute_at(struct tg *t, struct sim *sim, uint32_t i, uint64_t t_ps)
{
	struct ev_src key = { .id = t->op_src.id, .seq = i };

	sim_at(sim, t_ps, &key, tg_graph_compute_done, &t->opev[i]);
}

/* Operation @i may start: at @now_ps, or its own start time if later; in
 * the event of @ctx (a partition's, the root's), or at a window's end
 * (NULL: tg_graph_par_defer, which tg_graph_par_plan allows only for what
 * acts after the window). */
static void tg_graph_op_start(struct tg *t, uint32_t i, uint64_t now_ps, struct sim *ctx)
{
	const struct tg_node *o = &t->ops[i];
	uint64_t at = o->start_ps > now_ps ? o->start_ps : now_ps;

	t->op_start[i] = at;
	if (o->coll != TG_NO_COLL)
		tg_atomic_min(&t->colls[o->coll].start_ps, at); /* partitions start them (par.h) */
	if (o->kind == TG_NODE_XFER) {
		/* On the sending NIC's simulation (its partition's, par.h); never
		 * at a window's end (tg_graph_par_plan). */
		struct sim *ns = t->sim->par ? nic_sim(t->nics[t->eps[t->flows[o->msg].msg.src].nic])
					     : t->sim;

		if (!ctx)
			tg_graph_par_late(t, i);
		sim_at(ns, at + o->dur_ps, tg_post_src(t, ns), tg_post, &t->slots[o->msg]);
	} else if (o->kind == TG_NODE_STREAM) {
		tg_stream_start(t, o->msg, at);
	} else if (!ctx && !o->dur_ps) {
		/* A join at a window's end: it ends now, as its event would. */
		t->gp->inline_events++;
		if (at > t->sim->last_work_ps)
			t->sim->last_work_ps = at;
		tg_graph_op_done(t, i, at, NULL);
	} else {
		struct sim *cs = t->gp && t->gp->home[i] < TG_PART_SPECIAL ? par_sim(t->sim->par, t->gp->home[i])
									     : t->sim;

		if (!ctx && at + o->dur_ps <= par_window_end(t->sim->par))
			tg_graph_par_late(t, i);
		tg_graph_compute_at(t, cs, i, at + o->dur_ps);
	}
}

void tg_graph_start(struct tg *t)
{
	for (uint32_t i = 0; i < t->n_ops; i++)
		if (t->ops[i].n_deps == 0)
			tg_graph_op_start(t, i, 0, t->sim);
}

/* Message @msg's post on QP @qp, for its receiver in another process. */
struct tg_aux_posted {
	uint32_t kind; /* TG_AUX_POSTED */
	uint32_t qp;
	uint32_t msg;
};

/* Append @msg to @x's list. 0 or -ENOMEM. */
static int tg_graph_list(struct tg_qpx *x, uint32_t msg)
{
	if (tg_graph_grow((void **)&x->posted, &x->cap, x->n, 1, sizeof(*x->posted)) != 0)
		return -ENOMEM;
	x->posted[x->n++] = msg;
	return 0;
}

int tg_graph_posted(struct tg *t, struct sim *sim, uint32_t qp, uint32_t msg)
{
	if (t->op_of_msg[msg] == TG_NO_OP)
		return 0;
	if (t->remote) {
		/* Its receiver's list is read where the receiver runs. */
		struct sim *rs = nic_sim(t->nics[t->eps[t->flows[msg].msg.dst].nic]);

		if (!par_owns(sim->par, rs->part)) {
			struct tg_aux_posted a = { .kind = TG_AUX_POSTED, .qp = qp, .msg = msg };

			par_aux_send(sim, rs->part, &a, sizeof(a));
			return 0;
		}
	}
	return tg_graph_list(&t->qpx[qp], msg);
}

void tg_aux(void *ctx, struct sim *to, const void *data, uint32_t len)
{
	struct tg *t = ctx;
	struct tg_aux_posted a;

	if (len >= sizeof(uint32_t) && *(const uint32_t *)data == TG_AUX_STREAM && t->st) {
		tg_stream_aux(t, to, data, len);
		return;
	}
	if (len != sizeof(a)) {
		fprintf(stderr, "fabemu: a record from another process is not one of the traffic's\n");
		abort();
	}
	memcpy(&a, data, sizeof(a));
	if (a.kind != TG_AUX_POSTED || a.qp >= t->n_qps || a.msg >= t->n_flows) {
		fprintf(stderr, "fabemu: a record from another process names no message\n");
		abort();
	}
	if (tg_graph_list(&t->qpx[a.qp], a.msg) != 0)
		sim_at_fail(to);
}

void tg_graph_received(struct tg *t, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps)
{
	struct nic_qp *qp = nic_qp_find(n, wc->qp_num);
	struct tg_qpx *x = qp ? nic_qp_user(qp) : NULL;
	uint32_t msg;

	if (x && x->fifo) {
		tg_stream_received(t, nic_sim(n)->part, x, wc, now_ps);
		return;
	}
	/* A receive on a QP outside the graph, or past what its graph
	 * messages may post (never: RC delivers what was sent, once, in
	 * order). Not x->n: in a parallel run the sender's partition writes
	 * it. */
	if (!x || wc->wr_id == 0 || wc->wr_id > x->cap)
		return;
	msg = x->posted[wc->wr_id - 1];
	if (--t->rparts_left[msg] == 0 && tg_op_on_arrival(t->flows[msg].msg.op)) {
		if (t->data)
			tg_data_arrived(t, msg); /* the receiver applies it, then moves on */
		tg_graph_op_done(t, t->op_of_msg[msg], now_ps, nic_sim(n));
	}
}

void tg_graph_sent(struct tg *t, uint32_t msg, uint64_t now_ps, struct sim *ctx)
{
	if (t->op_of_msg[msg] != TG_NO_OP)
		tg_graph_op_done(t, t->op_of_msg[msg], now_ps, ctx);
}

int tg_coll_span(const struct tg *t, uint32_t c, uint64_t *start_ps, uint64_t *end_ps)
{
	if (c >= t->n_colls || t->colls[c].left != 0)
		return -EAGAIN;
	*start_ps = t->colls[c].start_ps;
	*end_ps = t->colls[c].end_ps;
	return 0;
}

int tg_node_span(const struct tg *t, uint32_t i, uint64_t *start_ps, uint64_t *end_ps)
{
	if (i >= t->n_ops || t->op_end[i] == UINT64_MAX)
		return -EAGAIN;
	*start_ps = t->op_start[i];
	*end_ps = t->op_end[i];
	return 0;
}

const uint64_t *tg_op_ends(const struct tg *t)
{
	return t->op_end;
}

int tg_critical_path(const struct tg_graph *g, const uint64_t *end_ps, const uint32_t *sorg,
		     uint32_t first, uint32_t last, uint64_t start_ps, uint64_t part[TG_TAG_N])
{
	uint32_t cur = last;
	uint64_t cur_end;

	memset(part, 0, sizeof(*part) * TG_TAG_N);
	if (last >= g->n_ops || (cur_end = end_ps[last]) == UINT64_MAX)
		return -EAGAIN;
	for (;;) {
		const struct tg_node *o = &g->ops[cur];
		uint8_t tag = o->tag < TG_TAG_N ? o->tag : TG_TAG_NONE;
		uint32_t best = UINT32_MAX, n_deps = o->n_deps;
		uint64_t best_end = 0;

		if (o->kind == TG_NODE_STREAM && sorg && sorg[o->msg] != TG_NO_GATE_OP) {
			/* A streamed instance with rank gates: where its last
			 * arrival's chain of waits goes back to. */
			uint32_t d = sorg[o->msg];

			n_deps = 0;
			if (d >= first && end_ps[d] != UINT64_MAX) {
				best = d;
				best_end = end_ps[d];
			}
		}
		for (uint32_t j = 0; j < n_deps; j++) {
			uint32_t d = g->deps[o->dep_off + j];

			if (d >= first && end_ps[d] != UINT64_MAX &&
			    (best == UINT32_MAX || end_ps[d] > best_end ||
			     (end_ps[d] == best_end && d > best))) {
				best = d;
				best_end = end_ps[d];
			}
		}
		if (best == UINT32_MAX || best_end <= start_ps) {
			part[tag] += cur_end > start_ps ? cur_end - start_ps : 0;
			return 0;
		}
		part[tag] += cur_end - best_end;
		cur = best;
		cur_end = best_end;
	}
}

static const char *const tg_tags[] = { "none", "compute", "tp", "pp", "dp", "ep", NULL };

const char *const *tg_tag_names(void) { return tg_tags; }

uint32_t tg_graph_fold_words(const struct tg *t) { return 2 * t->n_ops; }

/* Starts and ends not seen are UINT64_MAX: taken as UINT64_MAX less
 * them, the largest over the processes is the one that was seen. */
void tg_graph_fold_save(const struct tg *t, uint64_t *mx)
{
	for (uint32_t i = 0; i < t->n_ops; i++) {
		mx[2 * i] = UINT64_MAX - t->op_start[i];
		mx[2 * i + 1] = UINT64_MAX - t->op_end[i];
	}
}

void tg_graph_fold_load(struct tg *t, const uint64_t *mx)
{
	t->n_ops_done = 0;
	for (uint32_t c = 0; c < t->n_colls; c++)
		t->colls[c] = (struct tg_coll_rt){ .start_ps = UINT64_MAX };
	for (uint32_t i = 0; i < t->n_ops; i++) {
		const struct tg_node *o = &t->ops[i];
		struct tg_coll_rt *c = o->coll != TG_NO_COLL ? &t->colls[o->coll] : NULL;

		t->op_start[i] = UINT64_MAX - mx[2 * i];
		t->op_end[i] = UINT64_MAX - mx[2 * i + 1];
		if (t->op_end[i] != UINT64_MAX)
			t->n_ops_done++;
		if (!c)
			continue;
		/* As the run kept them: the first start, the last end, and
		 * the operations not done. */
		if (t->op_start[i] < c->start_ps)
			c->start_ps = t->op_start[i];
		if (t->op_end[i] == UINT64_MAX)
			c->left++;
		else if (t->op_end[i] > c->end_ps)
			c->end_ps = t->op_end[i];
	}
}

uint32_t tg_ops_done(const struct tg *t, uint32_t *n_ops)
{
	*n_ops = t->n_ops;
	return t->n_ops_done;
}

void tg_graph_fini(struct tg *t)
{
	for (uint32_t i = 0; t->qpx && i < t->n_qps; i++) {
		if (!t->qpx[i].fifo) {
			free(t->qpx[i].posted);
			continue;
		}
		for (struct tg_fblk *b = t->qpx[i].head, *nb; b; b = nb) {
			nb = b->next;
			free(b);
		}
	}
	tg_graph_par_free(t);
	free(t->ops);
	free(t->succ_off);
	free(t->succ);
	free(t->left);
	free(t->op_start);
	free(t->op_end);
	free(t->opev);
	free(t->op_of_msg);
	free(t->rparts_left);
	free(t->qpx);
	free(t->colls);
}
