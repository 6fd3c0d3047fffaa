/* Streamed collectives (tg.h, struct tg_stream): an instance's messages
 * are made when they become ready to post and freed once sent and
 * received, so that memory follows what is in flight, not the job. This
 * file is what every algorithm shares at run time (tg_stream_graph.c adds
 * an instance to the graph): the connections (one per edge,
 * made with the others in the same sorted order, tg.c, and shared by the
 * instances of a workload), the slots of the messages in flight, posting,
 * completions and the records summary.json needs. What each algorithm
 * makes at an instance's start and at each arrival, in the order and at
 * the times its listed messages would be posted, is tg_stream_alg.c's. */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"
#include "par.h"
#include "tg_int.h"

/* Stream and edge of connection key @k (an edge number over all streams). */
static uint32_t tg_stream_of_key(const struct tg *t, uint32_t k, uint32_t *edge)
{
	uint32_t i = 0;

	while (k >= t->st->v[i].n_edges) {
		k -= t->st->v[i].n_edges;
		i++;
	}
	*edge = k;
	return i;
}

void tg_stream_key_msg(const struct tg *t, uint32_t k, struct tg_msg *out)
{
	uint32_t e, i = tg_stream_of_key(t, k, &e);
	const struct tg_stream *s = &t->st->v[i];

	*out = s->proto;
	out->src = s->ep[2 * e];
	out->dst = s->ep[2 * e + 1];
	out->chan = s->echan[e];
}

uint32_t tg_stream_key_wrs(const struct tg *t, uint32_t k)
{
	uint32_t e, i = tg_stream_of_key(t, k, &e);

	return t->st->v[i].wrs ? t->st->v[i].wrs : TG_STREAM_QP_WRS;
}

/* The operations that gate streams' ranks (tg.h's cgate), as @st's gref
 * (by operation, then stream and rank), and every such stream's org. 0 or
 * -ENOMEM. */
static int tg_stream_init_gates(struct tg_streams *st, const struct tg_graph *g)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < g->n_streams; i++)
		n += g->streams[i].cgate ? g->streams[i].n : 0;
	if (!n)
		return 0;
	if (!(st->gref_off = calloc((size_t)g->n_ops + 1, sizeof(*st->gref_off))) ||
	    !(st->gref = malloc(sizeof(*st->gref) * n)) ||
	    !(st->org = malloc(sizeof(*st->org) * g->n_streams)))
		return -ENOMEM;
	for (uint32_t i = 0; i < g->n_streams; i++) {
		st->org[i] = TG_NO_OP;
		for (uint32_t r = 0; g->streams[i].cgate && r < g->streams[i].n; r++)
			st->gref_off[g->streams[i].cgate[r] + 1]++;
	}
	for (uint32_t o = 0; o < g->n_ops; o++)
		st->gref_off[o + 1] += st->gref_off[o];
	/* In stream and rank order within each operation's entries. */
	for (uint32_t i = 0; i < g->n_streams; i++)
		for (uint32_t r = 0; g->streams[i].cgate && r < g->streams[i].n; r++)
			st->gref[st->gref_off[g->streams[i].cgate[r]]++] = (uint64_t)i << 32 | r;
	for (uint32_t o = g->n_ops; o > 0; o--)
		st->gref_off[o] = st->gref_off[o - 1];
	st->gref_off[0] = 0;
	return 0;
}

int tg_stream_init(struct tg *t, const struct tg_graph *g, const struct tg_framing *fr)
{
	uint64_t keys = 0;
	uint32_t pools = t->sim->par ? par_n(t->sim->par) : 1;

	for (uint32_t i = 0; i < g->n_streams; i++)
		keys += g->streams[i].n_edges;
	if (!(t->st = calloc(1, sizeof(*t->st))) ||
	    !(t->st->rt = calloc(g->n_streams, sizeof(*t->st->rt))) ||
	    !(t->st->conns = calloc(keys ? keys : 1, sizeof(*t->st->conns))) ||
	    !(t->st->pool = calloc(pools, sizeof(*t->st->pool))))
		return -ENOMEM;
	t->st->v = g->streams;
	t->st->n = g->n_streams;
	t->st->n_pools = pools;
	t->st->fr = *fr;
	t->st->remote = t->remote; /* tg_aux */
	if (t->remote && !(t->st->dslot = calloc((size_t)pools * g->n_streams, sizeof(*t->st->dslot))))
		return -ENOMEM;
	for (uint32_t p = 0; p < pools; p++) {
		t->st->pool[p].free = UINT32_MAX;
		if (!(t->st->pool[p].chunks = calloc(TG_SPOOL_CHUNKS, sizeof(struct tg_sslot *))))
			return -ENOMEM;
		/* Posts are made in every partition's threads: their identities
		 * now (tg.c). */
		if (t->sim->par && !tg_post_src(t, par_sim(t->sim->par, p)))
			return -ENOMEM;
	}
	for (uint32_t i = 0; i < g->n_streams; i++) {
		const struct tg_stream *s = &g->streams[i];

		t->st->rt[i].left = t->st->rt[i].rleft = s->msgs;
		t->st->rt[i].first_post_ps = UINT64_MAX;
		t->st->rt[i].holds = 1 + (s->cgate ? s->n : 0);
		if (!(t->st->rt[i].conn = malloc(sizeof(uint32_t) * (s->n_edges ? s->n_edges : 1))))
			return -ENOMEM;
	}
	return tg_stream_init_gates(t->st, g);
}

int tg_stream_conn(struct tg *t, uint32_t k, uint32_t qp, const struct tg_path *path, bool same)
{
	uint32_t e, i = tg_stream_of_key(t, k, &e);

	if (!same) {
		struct tg_sconn *c = &t->st->conns[t->st->n_conns++];

		c->qp = qp;
		c->qps = t->st->v[i].proto.qps;
		c->path = *path;
	}
	t->st->rt[i].conn[e] = t->st->n_conns - 1;
	return 0;
}

static struct tg_sslot *tg_sslot_at(const struct tg_streams *st, uint32_t id)
{
	const struct tg_spool *p = &st->pool[id >> TG_SPOOL_BITS];

	return &p->chunks[(id & ((1u << TG_SPOOL_BITS) - 1)) >> TG_SSLOT_BITS][id & (TG_SSLOT_CHUNK - 1)];
}

enum { TG_SSLOT_SHADOW = UINT8_MAX }; /* maker of a slot standing for another process's */

/* A free slot of partition @part, or NULL without memory. */
static struct tg_sslot *tg_sslot_new(struct tg *t, uint32_t part)
{
	struct tg_spool *p = &t->st->pool[part];
	struct tg_sslot *s;
	uint64_t n;

	if (p->free == UINT32_MAX) {
		struct tg_sslot *c = p->n_chunks < TG_SPOOL_CHUNKS - 1 ? calloc(TG_SSLOT_CHUNK, sizeof(*c))
								  : NULL;

		if (!c)
			return NULL;
		p->chunks[p->n_chunks] = c;
		for (uint32_t i = TG_SSLOT_CHUNK; i-- > 0;) {
			c[i].id = part << TG_SPOOL_BITS | p->n_chunks << TG_SSLOT_BITS | i;
			c[i].next = p->free;
			p->free = c[i].id;
		}
		p->n_chunks++;
	}
	s = tg_sslot_at(t->st, p->free);
	p->free = s->next;
	n = __atomic_add_fetch(&p->in_flight, 1, __ATOMIC_RELAXED);
	if (n > p->peak)
		p->peak = n;
	s->t = t;
	s->maker = (uint8_t)part;
	s->refs = 2;
	return s;
}

/* One of slot @s's two ends (all sent, all received) is done, seen in
 * partition @part: the second frees it into @part's list. */
static void tg_sslot_put(struct tg_streams *st, uint32_t part, struct tg_sslot *s)
{
	struct tg_spool *p = &st->pool[part];

	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (s->maker != TG_SSLOT_SHADOW)
		__atomic_fetch_sub(&st->pool[s->maker].in_flight, 1, __ATOMIC_RELAXED);
	s->next = p->free;
	p->free = s->id;
}

static void tg_stream_post(struct sim *sim, void *obj);

/* A streamed message, for its receiver in another process: which stream
 * and message, how many parts to receive, the QPs (t->qpx) its parts went
 * on (only as many as posted are sent). */
struct tg_saux {
	uint32_t kind; /* TG_AUX_STREAM */
	uint32_t s;
	uint32_t parts;
	uint32_t rparts;
	struct tg_smsg m;
	uint32_t qp[TG_MAX_QPS];
};

/* An instance's state while it runs: freed at its end. */
static void tg_stream_rt_end(struct tg_srt *rt)
{
	free(rt->cnt);
	rt->cnt = NULL;
}

/* @k of instance @rt's holds are done: the last frees its state. */
static void tg_stream_unhold(struct tg_srt *rt, uint32_t k)
{
	if (k && __atomic_sub_fetch(&rt->holds, k, __ATOMIC_ACQ_REL) == 0)
		tg_stream_rt_end(rt);
}

/* The block of an instance's state while it runs (struct tg_srt's cnt),
 * in 32-bit words: its algorithm's counts; with rank gates, per rank its
 * first held message, then per channel each rank's ring position (ring
 * and hierarchical), then (bytes, rounded up to words) per rank whether
 * its gate has ended. */
/* Words of the ring-position map: ring and hierarchical, with rank gates. */
static size_t tg_srt_npos(const struct tg_stream *v)
{
	return v->alg == TG_SALG_RING || v->alg == TG_SALG_HIER ? (size_t)v->channels * v->n : 0;
}

static size_t tg_srt_words(const struct tg_stream *v)
{
	size_t w = tg_stream_alg_cnt(v);

	if (v->cgate)
		w += v->n + tg_srt_npos(v) + (v->n + 3) / 4;
	return w;
}

static uint32_t *tg_srt_held(const struct tg_stream *v, uint32_t *blk)
{
	return blk + tg_stream_alg_cnt(v);
}

static uint32_t *tg_srt_pos(const struct tg_stream *v, uint32_t *blk)
{
	return tg_srt_held(v, blk) + v->n;
}

static uint8_t *tg_srt_gated(const struct tg_stream *v, uint32_t *blk)
{
	return (uint8_t *)(tg_srt_pos(v, blk) + tg_srt_npos(v));
}

/* Instance @i's state: made now if it is not yet (by whichever partition
 * gets there first: the others take the one it published). */
static uint32_t *tg_srt_live(struct tg *t, uint32_t i, struct sim *sim)
{
	const struct tg_stream *v = &t->st->v[i];
	struct tg_srt *rt = &t->st->rt[i];
	uint32_t *b = __atomic_load_n(&rt->cnt, __ATOMIC_ACQUIRE), *none = NULL;
	size_t w = tg_srt_words(v);

	if (b || !w)
		return b;
	if (!(b = calloc(w, sizeof(*b))))
		sim_at_fail(sim);
	if (v->cgate) {
		uint32_t *held = tg_srt_held(v, b), *pos = tg_srt_pos(v, b);

		for (uint32_t r = 0; r < v->n; r++)
			held[r] = UINT32_MAX;
		/* Edge c n + p is position p's of channel c's ring. */
		for (uint32_t c = 0; tg_srt_npos(v) && c < v->channels; c++)
			for (uint32_t p = 0; p < v->n; p++)
				pos[(size_t)c * v->n + v->erank[(size_t)c * v->n + p]] = p;
	}
	if (!__atomic_compare_exchange_n(&rt->cnt, &none, b, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		free(b);
		return none;
	}
	return b;
}

/* The simulation of the NIC that sends on edge @e of stream @v: its
 * partition's (par.h). Without partitions the tg's own, without reading
 * the NIC (a line the post would miss in cache for nothing). */
static struct sim *tg_stream_sim(const struct tg *t, const struct tg_stream *v, uint32_t e)
{
	return t->sim->par ? nic_sim(t->nics[t->eps[v->ep[2 * e]].nic]) : t->sim;
}

/* The bytes message @m of @v takes on the wire: its data under the NCCL
 * model's protocol (tg_nccl.h), else its data. */
static uint64_t tg_stream_wire(const struct tg_stream *v, const struct tg_smsg *m)
{
	return v->envl ? tg_nccl_wire(&v->nccl, v->envl[m->e], m->bytes) : m->bytes;
}

/* The NCCL model's hop latency of a message on edge @e of @v: it is
 * posted this long after it is ready (0 without the model). */
static uint64_t tg_stream_hop_ps(const struct tg_stream *v, uint32_t e)
{
	return v->ehop_ps ? v->ehop_ps[e] : 0;
}

void tg_stream_make(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at_ps)
{
	const struct tg_stream *v = &t->st->v[i];
	struct sim *ns = tg_stream_sim(t, v, m->e);
	struct tg_sslot *s = tg_sslot_new(t, ns->part);
	struct tg_srt *rt = &t->st->rt[i];

	if (!s)
		sim_at_fail(ns); /* as the event queue does without memory */

	s->s = i;
	s->m = *m;
	s->parts_left = s->rparts_left = (uint8_t)tg_n_parts(tg_stream_wire(v, m), v->proto.qps);
	s->status = TG_PENDING;
	if (v->cgate && !tg_srt_gated(v, tg_srt_blk(rt))[v->erank[m->e]]) {
		/* Its sender's gate has not ended: it goes when that does. */
		uint32_t *held = tg_srt_held(v, tg_srt_blk(rt));

		s->start_ps = at_ps;
		s->next = held[v->erank[m->e]];
		held[v->erank[m->e]] = s->id;
		return;
	}
	sim_at(ns, at_ps + tg_stream_hop_ps(v, m->e), tg_post_src(t, ns), tg_stream_post, s);
}

void tg_stream_start(struct tg *t, uint32_t i, uint64_t at_ps)
{
	tg_srt_live(t, i, t->sim);
	/* The NCCL model's launch latency comes before the first sends (with
	 * rank gates, at each gate's end: tg_stream_gated). */
	tg_stream_alg_start(t, i, t->st->v[i].cgate ? at_ps : at_ps + t->st->v[i].nccl.base_ps);
}

/* A held message: its place in the listed order, its slot. */
struct tg_sheld {
	uint32_t k[TG_SKEY_N]; /* tg_stream_alg_key */
	uint32_t id;           /* its slot */
	bool first;            /* a first send of its rank (not a forward) */
};

static int tg_sheld_cmp(const void *a, const void *b)
{
	const struct tg_sheld *x = a, *y = b;

	for (int i = 0; i < TG_SKEY_N; i++)
		if (x->k[i] != y->k[i])
			return x->k[i] < y->k[i] ? -1 : 1;
	return 0;
}

void tg_stream_gated(struct tg *t, uint32_t i, uint32_t op, uint64_t now_ps, struct sim *ctx)
{
	struct tg_streams *st = t->st;
	const struct tg_stream *v = &st->v[i];
	struct tg_srt *rt = &st->rt[i];
	uint64_t at = v->proto.start_ps > now_ps ? v->proto.start_ps : now_ps;
	uint32_t n = 0, *blk, *held, *pos, lo = st->gref_off[op], hi = st->gref_off[op + 1];
	struct tg_sheld *h;
	uint8_t *gated;

	/* The operation's entries are by stream, then rank: this stream's
	 * ranks are one run of them. */
	while (lo < hi && st->gref[lo] >> 32 != i)
		lo++;
	for (hi = lo; hi < st->gref_off[op + 1] && st->gref[hi] >> 32 == i; hi++)
		;
	/* Every message has arrived: a rank that sends nothing, gated last. */
	if (__atomic_load_n(&rt->ended, __ATOMIC_ACQUIRE)) {
		tg_stream_unhold(rt, hi - lo);
		return;
	}
	blk = tg_srt_live(t, i, ctx);
	held = tg_srt_held(v, blk);
	pos = tg_srt_pos(v, blk);
	gated = tg_srt_gated(v, blk);
	tg_atomic_min(&t->op_start[v->op], at);
	if (t->ops[v->op].coll != TG_NO_COLL)
		tg_atomic_min(&t->colls[t->ops[v->op].coll].start_ps, at);
	/* This operation's ranks of this stream: their first sends (held, as
	 * their gates have not ended), then all they hold, in the listed
	 * order. */
	for (uint32_t k = lo; k < hi; k++)
		tg_stream_alg_rank(t, i, (uint32_t)st->gref[k], pos, at);
	for (uint32_t k = lo; k < hi; k++)
		for (uint32_t id = held[(uint32_t)st->gref[k]]; id != UINT32_MAX; id = tg_sslot_at(st, id)->next)
			n++;
	if (!(h = malloc(sizeof(*h) * (n ? n : 1))))
		sim_at_fail(ctx);
	n = 0;
	for (uint32_t k = lo; k < hi; k++) {
		uint32_t r = (uint32_t)st->gref[k];

		gated[r] = 1;
		for (uint32_t id = held[r]; id != UINT32_MAX; id = tg_sslot_at(st, id)->next, n++) {
			struct tg_sslot *sl = tg_sslot_at(st, id);

			tg_stream_alg_key(v, &sl->m, h[n].k);
			h[n].id = id;
			/* A first send (no org yet) waits for the launch too; a
			 * forward, as a listed transfer that waits for the gate
			 * and an arrival, its hop alone. */
			h[n].first = sl->m.org == TG_NO_OP;
			/* What it waited for last: the gate, unless it forwards
			 * what arrived at the gate's very end (a listed message
			 * waits for both; on a tie the critical path takes the
			 * later in the listed order, the arrival). */
			if (sl->m.org == TG_NO_OP || sl->start_ps < now_ps)
				sl->m.org = op;
		}
		held[r] = UINT32_MAX;
	}
	qsort(h, n, sizeof(*h), tg_sheld_cmp);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t e = tg_sslot_at(st, h[k].id)->m.e;
		struct sim *ns = tg_stream_sim(t, v, e);

		/* The NCCL model: a rank's first sends leave the launch
		 * latency after the gate and a hop latency after that, what it
		 * forwards a hop latency after the gate (tg_cb_xfer). */
		sim_at(ns, at + (h[k].first ? v->nccl.base_ps : 0) + tg_stream_hop_ps(v, e), tg_post_src(t, ns),
		       tg_stream_post, tg_sslot_at(st, h[k].id));
	}
	free(h);
	tg_stream_unhold(rt, hi - lo);
}

/* Append slot @id to stream QP @x's list (the sender's end). 0 or
 * -ENOMEM. */
static int tg_fifo_push(struct tg_qpx *x, uint32_t id)
{
	if (!x->tail || x->tn == TG_FBLK_IDS) {
		struct tg_fblk *b = malloc(sizeof(*b));

		if (!b)
			return -ENOMEM;
		b->next = NULL;
		if (x->tail)
			x->tail->next = b;
		else
			x->head = b; /* the receiver's, before anything can arrive */
		x->tail = b;
		x->tn = 0;
	}
	x->tail->id[x->tn++] = id;
	return 0;
}

/* The oldest slot of stream QP @x's list not yet taken (the receiver's
 * end): RC delivers what was posted, once, in order, so there is one. */
static uint32_t tg_fifo_pop(struct tg_qpx *x)
{
	if (x->hn == TG_FBLK_IDS) {
		struct tg_fblk *b = x->head;

		x->head = b->next;
		x->hn = 0;
		free(b); /* the sender has moved past it */
	}
	return x->head->id[x->hn++];
}

static void tg_stream_fail(struct tg *t, struct tg_sslot *s)
{
	if (s->status != TG_PENDING)
		return;
	s->status = TG_FAILED;
	__atomic_fetch_add(&t->n_failed, 1, __ATOMIC_RELAXED); /* partitions: par.h */
}

/* Post slot @obj's parts (tg_post's way, tg.c). */
static void tg_stream_post(struct sim *sim, void *obj)
{
	struct tg_sslot *s = obj;
	struct tg *t = s->t;
	const struct tg_stream *v = &t->st->v[s->s];
	struct tg_srt *rt = &t->st->rt[s->s];
	const struct tg_sconn *cn = &t->st->conns[rt->conn[s->m.e]];
	uint32_t parts = s->parts_left;
	uint64_t wire = tg_stream_wire(v, &s->m);
	/* A receiver in another process's partition (par.h, remote): its
	 * record goes there (tg_stream_aux), not on the QPs' lists here. */
	struct sim *rs = t->st->remote ? nic_sim(t->nics[t->eps[v->ep[2 * s->m.e + 1]].nic]) : NULL;
	bool away = rs && !par_owns(sim->par, rs->part);
	struct tg_saux a;

	if (away) {
		a.kind = TG_AUX_STREAM;
		a.s = s->s;
		a.parts = 0;
		a.rparts = s->rparts_left;
		a.m = s->m;
	}

	s->start_ps = sim->now_ps;
	__atomic_fetch_add(&rt->posted, 1, __ATOMIC_RELAXED);
	tg_atomic_min(&rt->first_post_ps, sim->now_ps);
	for (uint32_t j = 0; j < parts; j++) {
		uint64_t len = wire / parts + (j < wire % parts);
		struct ibv_sge sge = { .addr = 0, .length = (uint32_t)len, .lkey = 0 };
		struct ibv_send_wr wr = { 0 }, *bad;
		struct tg_qpx *x = &t->qpx[cn->qp + j];

		wr.wr_id = TG_STREAM_WR | s->id;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IBV_WR_SEND;
		wr.send_flags = IBV_SEND_SIGNALED;
		wr.wr.rdma.remote_addr = UINT64_C(0x10000000);
		wr.wr.rdma.rkey = 0x1000 + v->ep[2 * s->m.e];
		if (!away && tg_fifo_push(x, s->id) != 0)
			sim_at_fail(sim);
		if (nic_post_send(t->qps[cn->qp + j], &wr, &bad) != 0) {
			if (!away)
				x->tn--; /* nothing of it will arrive */
			tg_stream_fail(t, s);
			s->parts_left--; /* no completion will come */
		} else if (away) {
			a.qp[a.parts++] = cn->qp + j;
		}
	}
	if (away) {
		par_aux_send(sim, rs->part, &a, (uint32_t)(offsetof(struct tg_saux, qp) + sizeof(a.qp[0]) * a.parts));
		tg_sslot_put(t->st, sim->part, s); /* its receiving end is there */
	}
}

/* tg_int.h: a message posted in another process for a receiver in
 * partition @to (par_aux_send): a slot standing for it, on the lists of
 * the QPs its parts went on, as the post would have put it here. */
void tg_stream_aux(struct tg *t, struct sim *to, const void *data, uint32_t len)
{
	struct tg_streams *st = t->st;
	struct tg_spool *p = &st->pool[to->part];
	struct tg_saux a = { 0 };
	struct tg_sslot *s;
	uint64_t peak = p->peak;

	memcpy(&a, data, len < sizeof(a) ? len : sizeof(a));
	if (a.s >= st->n || a.parts > TG_MAX_QPS) {
		fprintf(stderr, "fabemu: a streamed message's record from another process names no stream\n");
		abort();
	}
	/* Not counted in flight here (nor in the peak): its maker's
	 * partition counts it. */
	s = tg_sslot_new(t, to->part);
	if (!s)
		sim_at_fail(to);
	__atomic_fetch_sub(&p->in_flight, 1, __ATOMIC_RELAXED);
	p->peak = peak;
	s->maker = TG_SSLOT_SHADOW;
	s->refs = 1; /* its sending end is there */
	s->s = a.s;
	s->m = a.m;
	s->parts_left = 0;
	s->rparts_left = a.rparts;
	s->status = TG_PENDING;
	for (uint32_t j = 0; j < a.parts; j++)
		if (a.qp[j] >= t->n_qps || tg_fifo_push(&t->qpx[a.qp[j]], s->id) != 0)
			sim_at_fail(to);
}

void tg_stream_sent(struct tg *t, uint32_t part, const struct ibv_wc *wc, uint64_t now_ps)
{
	struct tg_streams *st = t->st;
	struct tg_sslot *s;

	if (!st)
		return;
	s = tg_sslot_at(st, (uint32_t)wc->wr_id);
	if (wc->status != IBV_WC_SUCCESS)
		tg_stream_fail(t, s);
	if (--s->parts_left == 0 && s->status == TG_PENDING) {
		struct tg_srt *rt = &st->rt[s->s];
		const struct tg_stream *v = &st->v[s->s];
		const struct tg_sconn *cn = &st->conns[rt->conn[s->m.e]];
		struct tg_spool *p = &st->pool[part];
		uint64_t fct = now_ps - s->start_ps;
		uint64_t wire = tg_stream_wire(v, &s->m);

		s->status = TG_DONE;
		__atomic_fetch_add(&t->n_done, 1, __ATOMIC_RELAXED);
		if (p->n_done == p->cap_done) {
			uint64_t cap = p->cap_done ? 2 * p->cap_done : 4096;
			struct tg_sdone *d = realloc(p->done, sizeof(*d) * cap);

			if (!d)
				sim_at_fail(t->sim);
			p->done = d;
			p->cap_done = cap;
		}
		p->done[p->n_done++] = (struct tg_sdone){
			.fct_ps = fct, .bytes = wire,
			.ideal_ps = tg_ideal_fct_ps(&cn->path, wire, v->proto.op, &st->fr),
		};
		__atomic_fetch_add(&rt->completed, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&rt->done_bytes, wire, __ATOMIC_RELAXED);
		tg_atomic_max(&rt->last_ps, now_ps);
		tg_atomic_max(&rt->worst_ps, fct);
	}
	if (s->parts_left == 0)
		tg_sslot_put(st, part, s);
}

/* Message @m of stream @i arrived at @now_ps: the stream's org is its if
 * it is the last so far (the later in the listed order on a tie, as the
 * critical path takes a listed instance's last transfer). */
static void tg_stream_org(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t now_ps)
{
	struct tg_streams *st = t->st;
	struct tg_srt *rt = &st->rt[i];
	uint32_t k[TG_SKEY_N];
	int c = 0;

	tg_stream_alg_key(&st->v[i], m, k);
	if (t->sim->par)
		while (__atomic_test_and_set(&rt->org_lock, __ATOMIC_ACQUIRE))
			;
	for (int f = 0; f < TG_SKEY_N && !c; f++)
		c = k[f] < rt->org_key[f] ? -1 : k[f] > rt->org_key[f];
	if (st->org[i] == TG_NO_OP || now_ps > rt->org_end || (now_ps == rt->org_end && c > 0)) {
		st->org[i] = m->org;
		rt->org_end = now_ps;
		memcpy(rt->org_key, k, sizeof(k));
	}
	if (t->sim->par)
		__atomic_clear(&rt->org_lock, __ATOMIC_RELEASE);
}

void tg_stream_received(struct tg *t, uint32_t part, struct tg_qpx *x, const struct ibv_wc *wc,
			uint64_t now_ps)
{
	struct tg_streams *st = t->st;
	struct tg_sslot *s = tg_sslot_at(st, tg_fifo_pop(x));
	struct tg_srt *rt;
	struct tg_smsg m;
	uint32_t i;

	(void)wc;
	if (--s->rparts_left != 0)
		return;
	i = s->s;
	m = s->m;
	rt = &st->rt[i];
	tg_sslot_put(st, part, s);
	/* Across processes the instance's state may not be here yet: it is
	 * made where the first rank gate ends, and this process's ranks may
	 * hear from another process's before any gate here has ended. */
	if (st->remote)
		tg_srt_live(t, i, par_sim(t->sim->par, part));
	/* What waits for it, posted when the listed one would start. */
	tg_stream_alg_arrived(t, i, &m, st->v[i].proto.start_ps > now_ps ? st->v[i].proto.start_ps : now_ps);
	/* The instance ends at its last arrival: in a parallel run the
	 * partition that counts it out may not be the one that saw it last. */
	tg_atomic_max(&rt->end_ps, now_ps);
	if (st->v[i].cgate)
		tg_stream_org(t, i, &m, now_ps);
	if (st->remote && t->gp && t->gp->comp[st->v[i].op] >= TG_PART_SPECIAL) {
		/* Across processes, an instance over several partitions: no one
		 * process sees every arrival, so each is a record for the
		 * window's end, where every process counts the instance out
		 * alike (tg_stream_counted); where it ends the graph's plan
		 * made no difference (what waits for it starts at a window's
		 * end in any case: tg_graph_par_plan). */
		__atomic_sub_fetch(&rt->left, 1, __ATOMIC_ACQ_REL);
		par_defer_count(par_sim(t->sim->par, part), now_ps, t->n_ops + i,
				&st->dslot[(size_t)part * st->n + i]);
		return;
	}
	if (__atomic_sub_fetch(&rt->left, 1, __ATOMIC_ACQ_REL) == 0) {
		__atomic_store_n(&rt->ended, 1, __ATOMIC_RELEASE);
		tg_stream_unhold(rt, 1);
		tg_graph_op_done(t, st->v[i].op, __atomic_load_n(&rt->end_ps, __ATOMIC_RELAXED),
				 t->sim->par ? par_sim(t->sim->par, part) : t->sim);
	}
}

void tg_stream_counted(struct tg *t, uint32_t i, uint64_t t_ps, uint32_t count)
{
	struct tg_srt *rt = &t->st->rt[i];

	/* Records come in time order, each at its latest arrival: the one
	 * that counts the last arrival is the instance's end. */
	if ((rt->rleft -= count) != 0)
		return;
	__atomic_store_n(&rt->ended, 1, __ATOMIC_RELEASE);
	tg_stream_unhold(rt, 1);
	tg_graph_op_done(t, t->st->v[i].op, t_ps, NULL);
}

void tg_stream_fini(struct tg *t)
{
	if (!t->st)
		return;
	for (uint32_t i = 0; t->st->rt && i < t->st->n; i++) {
		free(t->st->rt[i].conn);
		tg_stream_rt_end(&t->st->rt[i]);
	}
	free(t->st->dslot);
	free(t->st->gref_off);
	free(t->st->gref);
	free(t->st->org);
	for (uint32_t p = 0; t->st->pool && p < t->st->n_pools; p++) {
		for (uint32_t i = 0; i < t->st->pool[p].n_chunks; i++)
			free(t->st->pool[p].chunks[i]);
		free(t->st->pool[p].chunks);
		free(t->st->pool[p].done);
	}
	free(t->st->pool);
	free(t->st->rt);
	free(t->st->conns);
	free(t->st);
	t->st = NULL;
}
