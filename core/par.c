/* Parallel runs (see par.h): partitions, their outboxes, the worker
 * threads and the window loop. A window ends before the least key of the
 * root's next event and before (earliest pending event + lookahead): a
 * frame sent in it arrives at least one lookahead after its start, so in
 * a later window; each partition handles its events in key order, as a
 * run without partitions does (the keys of a frame's arrival events keep
 * their time and source id, see port_xpar_deliver). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "par_int.h"
#include "port.h"
#include "units.h"


static double par_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the calling thread, s: its work, whatever else shares the
 * cores (wall time is not, on a loaded machine). */
static double par_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void par_wait(struct par_barrier *b)
{
	unsigned gen = atomic_load_explicit(&b->gen, memory_order_acquire);

	if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) + 1 == b->n) {
		atomic_store_explicit(&b->count, 0, memory_order_relaxed);
		atomic_store_explicit(&b->gen, gen + 1, memory_order_release);
		return;
	}
	for (unsigned i = 0; atomic_load_explicit(&b->gen, memory_order_acquire) == gen; i++) {
		if (i < 2000)
			rte_pause();
		else
			sched_yield();
	}
}

struct par *par_new(struct sim *root, uint32_t n, uint32_t workers, uint32_t pool_pkts,
		    uint16_t data_room, char err[CFG_ERR_BYTES])
{
	struct par *p = calloc(1, sizeof(*p));

	if (!p || n < 2 || n > PAR_MAX_THREADS || workers < 1 || workers > n) {
		snprintf(err, CFG_ERR_BYTES,
			 p ? "partitions: %u is not 2..%d, or threads %u not 1..partitions"
			   : "out of memory",
			 n, PAR_MAX_THREADS, workers);
		free(p);
		return NULL;
	}
	p->root = root;
	p->n = n;
	p->n_workers = workers;
	p->bar.n = workers;
	p->parts = aligned_alloc(64, sizeof(*p->parts) * n);
	p->workers = calloc(workers, sizeof(*p->workers));
	p->recs = calloc(n, sizeof(*p->recs));
	if (!p->parts || !p->workers || !p->recs) {
		free(p->parts);
		free(p->workers);
		free(p->recs);
		free(p);
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return NULL;
	}
	/* Equal blocks of partitions, neighbours together. */
	for (uint32_t w = 0; w < workers; w++)
		p->workers[w] = (struct par_worker){ .par = p, .first = (uint32_t)((uint64_t)w * n / workers),
						     .end = (uint32_t)((uint64_t)(w + 1) * n / workers) };
	memset(p->parts, 0, sizeof(*p->parts) * n);
	p->own_first = 0;
	p->own_end = n;
	root->par = p;
	root->part = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		struct par_part *pp = &p->parts[i];
		char name[32];

		pp->par = p;
		snprintf(name, sizeof(name), "fabemu-p%u", i);
		/* Partition 0 takes the root's pool (the root itself makes no
		 * packet), the others get one like it. */
		pp->pool = i == 0 ? root->pool : sim_pool_create(name, pool_pkts, data_room, err);
		pp->out = calloc(n, sizeof(*pp->out));
		if (!pp->pool || !pp->out || sim_init(&pp->sim, root->seed, pp->pool) != 0) {
			if (pp->pool) /* else sim_pool_create said why */
				snprintf(err, CFG_ERR_BYTES, "out of memory");
			par_free(p);
			return NULL;
		}
		pp->sim.stop_ps = root->stop_ps;
		pp->sim.interrupt = root->interrupt;
		pp->sim.par = p;
		pp->sim.part = i;
		pp->sim.ids = root->ids;
		p->recs[i] = &pp->rec;
	}
	return p;
}

void par_free(struct par *p)
{
	if (!p)
		return;
	/* After the fabric's entities, which free their packets into the
	 * partitions' pools. */
	for (uint32_t i = 0; i < p->n; i++) {
		struct par_part *pp = &p->parts[i];

		for (uint32_t j = 0; pp->out && j < p->n; j++)
			free(pp->out[j].buf);
		free(pp->out);
		free(pp->defer);
		sim_rec_free(&pp->rec);
		if (pp->sim.ids)
			sim_fini(&pp->sim);
		if (i > 0)
			rte_mempool_free(pp->pool);
	}
	if (p->root->par == p)
		p->root->par = NULL;
	par_remote_free(p);
	free(p->dsort);
	free(p->recs);
	free(p->parts);
	free(p->workers);
	free(p);
}

struct sim *par_sim(struct par *p, uint32_t i) { return &p->parts[i].sim; }
uint32_t par_n(const struct par *p) { return p->n; }
uint32_t par_workers(const struct par *p) { return p->n_workers; }
void par_set_lookahead(struct par *p, uint64_t lookahead_ps) { p->lookahead_ps = lookahead_ps; }
uint64_t par_lookahead(const struct par *p) { return p->lookahead_ps; }
uint64_t par_window_end(const struct par *p) { return p->bound_ps; }

/* Room for @bytes more in @b (amortised growth; frames are small). */
uint8_t *par_box_room(struct par_box *b, size_t bytes)
{
	if (b->len + bytes > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64 * 1024;
		uint8_t *nb;

		while (cap < b->len + bytes)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb) {
			fprintf(stderr, "fabemu: out of memory for frames between partitions\n");
			abort();
		}
		b->buf = nb;
		b->cap = cap;
	}
	return b->buf + b->len;
}

void par_send(struct port *p, struct rte_mbuf *m, uint64_t due_ps)
{
	struct sim *s = p->sim;
	struct par_part *pp = &s->par->parts[s->part];
	/* The receiver's partition from the port's own cross-partition state
	 * (read-only), not from the peer port, whose lines its partition
	 * writes. */
	struct par_box *box = &pp->out[p->xpar->rx_sim->part];
	uint32_t len = rte_pktmbuf_data_len(m);
	size_t bytes = sizeof(struct par_rec) + ((len + 7u) & ~7u);
	struct par_rec *r;
	uint8_t *at;

	if (unlikely(!par_owns(s->par, s->part))) {
		/* A root event acting on another process's partition: that
		 * process sends it. */
		sim_pkt_free(s, m);
		return;
	}
	at = par_box_room(box, bytes);
	r = (struct par_rec *)at;
	r->p = p;
	r->due_ps = due_ps;
	r->meta = *pkt_meta(m);
	r->len = len;
	memcpy(at + sizeof(*r), pkt_data(m), len);
	box->len += bytes;
	pp->x_frames++;
	sim_pkt_free(s, m);
}

void par_set_aux(struct par *p, par_aux_fn fn, void *ctx)
{
	p->aux_fn = fn;
	p->aux_ctx = ctx;
}

void par_aux_send(struct sim *from, uint32_t to, const void *data, uint32_t len)
{
	struct par_box *box = &from->par->parts[from->part].out[to];
	size_t bytes = sizeof(struct par_rec) + ((len + 7u) & ~7u);
	uint8_t *at = par_box_room(box, bytes);
	struct par_rec *r = (struct par_rec *)at;

	memset(r, 0, sizeof(*r));
	r->len = len;
	memcpy(at + sizeof(*r), data, len);
	box->len += bytes;
}

static void par_publish(struct par *p, uint32_t i);

void par_set_defer(struct par *p, par_defer_fn fn, void *ctx)
{
	p->defer_fn = fn;
	p->defer_ctx = ctx;
}

int par_defer_room(struct par_part *pp, uint32_t more)
{
	uint64_t cap = pp->cap_defer ? pp->cap_defer : 256;
	struct par_drec *v;

	if ((uint64_t)pp->n_defer + more <= pp->cap_defer)
		return 0;
	while (cap < (uint64_t)pp->n_defer + more)
		cap *= 2;
	if (cap > UINT32_MAX || !(v = realloc(pp->defer, sizeof(*v) * cap)))
		return -ENOMEM;
	pp->defer = v;
	pp->cap_defer = (uint32_t)cap;
	return 0;
}

void par_defer(struct sim *from, uint64_t t_ps, uint32_t what)
{
	struct par_part *pp = &from->par->parts[from->part];

	if (par_defer_room(pp, 1) != 0)
		sim_at_fail(from);
	pp->defer[pp->n_defer] = (struct par_drec){ .t_ps = t_ps, .what = what, .part = from->part,
						    .idx = pp->n_defer, .count = 1 };
	pp->n_defer++;
}

void par_defer_count(struct sim *from, uint64_t t_ps, uint32_t what, uint32_t *slot)
{
	struct par_part *pp = &from->par->parts[from->part];
	uint32_t k = *slot;

	/* (A slot left from an earlier window names another record, or one
	 * past the window's: only this function leaves records of @what.) */
	if (k < pp->n_defer && pp->defer[k].what == what) {
		if (t_ps > pp->defer[k].t_ps)
			pp->defer[k].t_ps = t_ps;
		pp->defer[k].count++;
		return;
	}
	*slot = pp->n_defer;
	par_defer(from, t_ps, what);
}

static int par_drec_cmp(const void *a, const void *b)
{
	const struct par_drec *x = a, *y = b;

	if (x->t_ps != y->t_ps)
		return x->t_ps < y->t_ps ? -1 : 1;
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The window's par_defer records, handed over in order (the lead, with
 * every partition waiting); then every partition's next event and the
 * root's again, which the handler may have changed. */
static void par_defer_run(struct par *p)
{
	uint64_t n = 0, k = 0;

	for (uint32_t i = 0; i < p->n; i++)
		n += p->parts[i].n_defer;
	if (n > p->cap_dsort) {
		struct par_drec *v = n <= UINT32_MAX ? realloc(p->dsort, sizeof(*v) * n) : NULL;

		if (!v)
			sim_at_fail(p->root);
		p->dsort = v;
		p->cap_dsort = (uint32_t)n;
	}
	for (uint32_t i = 0; i < p->n; i++) {
		if (p->parts[i].n_defer) /* (a part that never deferred has no array) */
			memcpy(p->dsort + k, p->parts[i].defer, sizeof(*p->dsort) * p->parts[i].n_defer);
		k += p->parts[i].n_defer;
		p->parts[i].n_defer = 0;
	}
	if (n)
		qsort(p->dsort, n, sizeof(*p->dsort), par_drec_cmp);
	for (uint64_t j = 0; j < n; j++) {
		uint64_t ev = p->defer_fn(p->defer_ctx, p->dsort[j].t_ps, p->dsort[j].what,
					  p->dsort[j].count);

		p->defer_events += ev;
		p->crit_events += ev;
	}
	for (uint32_t j = p->own_first; j < p->own_end; j++)
		par_publish(p, j);
	p->root_key = ev_peek_key(&p->root->evq);
}

/* Hand partition @i the frames the others sent it in the last window, in
 * the order of their sending partitions and, from each, of sending. */
static void par_drain(struct par *p, uint32_t i)
{
	struct sim *s = &p->parts[i].sim;

	for (uint32_t j = 0; j < p->n; j++) {
		struct par_box *b = &p->parts[j].out[i];

		for (size_t off = 0; off < b->len;) {
			const struct par_rec *r = (const struct par_rec *)(b->buf + off);
			struct rte_mbuf *m;

			off += sizeof(*r) + ((r->len + 7u) & ~7u);
			if (!r->p) {
				p->aux_fn(p->aux_ctx, s, (const uint8_t *)r + sizeof(*r), r->len);
				continue;
			}
			m = sim_pkt_alloc(s, false);
			if (!m) {
				/* The pool is whole: the frame is lost, and the run says
				 * its pool ran dry (not valid). */
				s->n_alloc_fail++;
				continue;
			}
			*pkt_meta(m) = r->meta;
			memcpy(pkt_data(m), (const uint8_t *)r + sizeof(*r), r->len);
			m->data_len = (uint16_t)r->len;
			m->pkt_len = r->len;
			port_xpar_deliver(r->p, m, r->due_ps);
		}
		b->len = 0;
	}
}

/* Whether the run goes on, and the next window's bound (*@bound) with the
 * root's next event due at its end (*@root_due). A function of what the
 * last window end published (each partition's next event time, stuck
 * flag, the root's next key, the coordinator's stop), so that every
 * thread decides the same; the coordinator (@apply) also sets the root's
 * flags that say why a run ended (stop, horizon, interrupt, stuck). */
static bool par_decide(struct par *p, bool apply, bool *root_due, unsigned __int128 *bound)
{
	struct sim *root = p->root;
	uint64_t t = UINT64_MAX, stop = root->stop_ps;
	unsigned __int128 kr = p->root_key, b;
	bool stuck = false;

	if (p->remote.size) {
		/* Over every process: par_look_remote's. */
		t = p->glob_next;
		stuck = p->glob_stuck;
	}
	for (uint32_t i = 0; !p->remote.size && i < p->n; i++) {
		stuck |= p->parts[i].sim.stuck;
		if (p->parts[i].next_ps < t)
			t = p->parts[i].next_ps;
	}
	if (kr != EV_KEY_NONE && (uint64_t)(kr >> 64) < t)
		t = (uint64_t)(kr >> 64);
	if (stuck || p->stop || t == UINT64_MAX || (stop && t > stop) || t > UNITS_TIME_MAX_PS) {
		if (apply) {
			root->stuck |= stuck;
			root->interrupted |= p->stop == PAR_STOP_INTERRUPT;
			if (!stuck && !p->stop && t != UINT64_MAX && stop && t > stop) {
				root->stopped = true;
				root->now_ps = stop;
			} else if (!stuck && !p->stop && t != UINT64_MAX && t > UNITS_TIME_MAX_PS) {
				root->horizon = true;
			}
		}
		return false;
	}
	b = (unsigned __int128)(t + p->lookahead_ps) << 64;
	if (stop && b > (unsigned __int128)(stop + 1) << 64)
		b = (unsigned __int128)(stop + 1) << 64;
	if ((unsigned __int128)(UNITS_TIME_MAX_PS + 1) << 64 < b)
		b = (unsigned __int128)(UNITS_TIME_MAX_PS + 1) << 64;
	*root_due = kr < b;
	*bound = *root_due ? kr : b;
	return true;
}

/* What a window end publishes for partition @i: its next event's time. */
static void par_publish(struct par *p, uint32_t i)
{
	struct sim *s = &p->parts[i].sim;

	p->parts[i].next_ps = ev_empty(&s->evq) ? UINT64_MAX : ev_peek_time(&s->evq);
}

/* The root's next event, alone (every partition is at its key). */
static void par_root_event(struct par *p)
{
	struct sim *root = p->root;
	struct ev e;

	ev_pop(&root->evq, &e);
	root->now_ps = ev_time(&e);
	/* One clock, as without partitions: what the event does to a
	 * partition's nodes happens at its time there too (every partition
	 * has handled all its events before the event's key, and none
	 * after). */
	for (uint32_t i = 0; i < p->n; i++)
		p->parts[i].sim.now_ps = root->now_ps;
	e.fn(root, e.obj);
	if (!root->monitor_event)
		root->last_work_ps = root->now_ps;
	root->monitor_event = false;
	p->root_events++;
}

/* The root's view of the run so far: every partition's counters with its
 * own (the progress report and the watch read it). Reads only what a
 * partition does not change while it takes its frames in. */
static void par_fold(struct par *p)
{
	struct sim *root = p->root;

	root->n_events = p->root_events0 + p->root_events + p->defer_events;
	root->n_hops = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		const struct sim *s = &p->parts[i].sim;

		root->n_events += s->n_events;
		root->n_hops += s->n_hops;
		if (s->last_work_ps > root->last_work_ps)
			root->last_work_ps = s->last_work_ps;
		if (s->now_ps > root->now_ps && !root->stopped)
			root->now_ps = s->now_ps;
	}
}

/* The coordinator's looks between windows: interrupt, watch, progress. */
static void par_look(struct par *p)
{
	struct sim *root = p->root;
	uint64_t most = 0;

	for (uint32_t i = 0; i < p->n; i++) {
		struct par_part *pp = &p->parts[i];
		uint64_t d = pp->sim.n_events - pp->seen_events;

		pp->seen_events = pp->sim.n_events;
		most = d > most ? d : most;
	}
	p->crit_events += most;
	par_fold(p);
	if (root->interrupt && *root->interrupt) {
		p->stop = PAR_STOP_INTERRUPT;
		return;
	}
	if (root->n_events - p->polled < SIM_POLL_EVENTS)
		return;
	p->polled = root->n_events;
	if (root->watch && root->watch(root, root->watch_arg)) {
		p->stop = PAR_STOP_WATCH;
		return;
	}
	if (root->progress && root->n_events - p->progressed >= SIM_PROGRESS_EVENTS) {
		p->progressed = root->n_events;
		root->progress(root, root->progress_arg);
	}
}

void par_rec_writers(struct par *p, const struct sim_rec_writer *w)
{
	p->rec_writers = w;
	for (uint32_t i = 0; i < p->n; i++)
		p->parts[i].sim.rec = &p->parts[i].rec;
}

/* The ordered records of times before @before_ps (every event of those
 * times has run), written in order: by process 0, once the others' are
 * in (each process's lead calls it at the same place). What a write
 * could not sort for want of memory is reported lost by its writer. */
static void par_rec_window(struct par *p, uint64_t before_ps)
{
	if (p->remote.size)
		par_rec_ship(p);
	if (!p->remote.size || p->remote.rank == 0)
		sim_rec_flush(p->recs, p->n, p->rec_writers, before_ps);
}

/* Worker @wk's part of the run: windows until every thread decides the
 * run is over, each window its partitions one after the other. Two
 * barriers a window (three when the root's event is due at its end):
 * after the window (its frames to others are in the outboxes), and after
 * each has taken its frames in and said when its next event is. */
static void par_loop(struct par *p, const struct par_worker *wk)
{
	struct par_part *first = &p->parts[wk->first];
	bool lead = wk == &p->workers[0], root_due = false;
	unsigned __int128 bound;

	while (par_decide(p, lead, &root_due, &bound)) {
		double t1, t2;

		for (uint32_t i = wk->first; i < wk->end; i++) {
			struct par_part *pp = &p->parts[i];
			double t0 = par_now_s(), c0 = par_cpu_s();

			sim_run_window(&pp->sim, bound);
			pp->cpu_s += par_cpu_s() - c0;
			pp->busy_s += par_now_s() - t0;
		}
		t1 = par_now_s();
		par_wait(&p->bar);
		t2 = par_now_s();
		first->wait_s += t2 - t1;
		if (lead) {
			p->windows++;
			p->bound_ps = (uint64_t)(bound >> 64);
			if (p->remote.size)
				par_swap(p); /* looks once the frames are in (below) */
			else
				par_look(p);
			/* Every event of the times before the bound's has run
			 * (the root's last one too): their records, in order. */
			if (p->rec_writers)
				par_rec_window(p, p->bound_ps);
			/* Every partition's par_defer records (across processes:
			 * each process has every process's now, par_swap). */
			p->defer_due = false;
			for (uint32_t i = 0; i < p->n; i++)
				p->defer_due |= p->parts[i].n_defer > 0;
		}
		if (p->remote.size)
			par_wait(&p->bar);
		for (uint32_t i = wk->first; i < wk->end; i++) {
			struct par_part *pp = &p->parts[i];
			double t0 = par_now_s(), c0 = par_cpu_s();

			par_drain(p, i);
			par_publish(p, i);
			pp->cpu_s += par_cpu_s() - c0;
			pp->busy_s += par_now_s() - t0;
		}
		t1 = par_now_s();
		par_wait(&p->bar);
		if (lead && p->remote.size)
			par_look_remote(p, true);
		if (root_due || p->defer_due) {
			/* What the window left for the run as a whole, then the
			 * root's event: both alone. */
			if (lead && p->defer_due) {
				par_defer_run(p);
				/* The next events over every process again: the
				 * handler scheduled some. */
				if (p->remote.size)
					par_look_remote(p, false);
			}
			if (lead && root_due) {
				par_root_event(p);
				p->crit_events++;
				/* Frames the event sent between partitions (a PFC
				 * storm's XOFF, a port a fault restarted) may be due
				 * before the next window's end: in their receivers'
				 * queues before it is decided. */
				if (p->remote.size)
					par_swap(p);
				for (uint32_t j = p->own_first; j < p->own_end; j++)
					par_drain(p, j);
				for (uint32_t j = p->own_first; j < p->own_end; j++)
					par_publish(p, j);
				if (p->remote.size)
					par_look_remote(p, false);
				p->root_key = ev_peek_key(&p->root->evq);
			}
			par_wait(&p->bar);
		} else if (p->remote.size) {
			par_wait(&p->bar);
		}
		first->wait_s += par_now_s() - t1;
	}
}

/* Let the calling thread run on any CPU. A thread inherits its creator's
 * affinity, and the EAL pins the main thread to one CPU (sim_eal_init's
 * `-l 0`): left so, every partition's thread would share that CPU. The
 * kernel keeps the mask within the CPUs the process may use. */
void par_unpin(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t set;

	CPU_ZERO(&set);
	for (long c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET((int)c, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *par_worker(void *arg)
{
	struct par_worker *wk = arg;

	par_unpin();
	/* An lcore id of its own: the packet pools' per-thread caches. */
	rte_thread_register();
	par_loop(wk->par, wk);
	rte_thread_unregister();
	return NULL;
}

/* The counters results read, folded once the run is over. */
static void par_fold_end(struct par *p)
{
	struct sim *root = p->root;
	uint64_t sum[5] = { 0 };

	if (!p->remote.size)
		par_fold(p);
	for (uint32_t i = p->own_first; i < p->own_end; i++) {
		const struct sim *s = &p->parts[i].sim;

		sum[0] += s->evq.n_pushed;
		sum[1] += s->evq.n;
		sum[2] += s->n_alloc_fail;
		sum[3] += s->pkts_peak;
		sum[4] += s->n_saturated;
	}
	if (p->remote.size) {
		p->remote.combine(p->remote.ctx, NULL, 0, sum, 5);
		par_gather_stats(p);
	}
	/* The handler's events (joins ended at windows' ends) were each
	 * scheduled and handled in a run without partitions. */
	root->evq.n_pushed += sum[0] + p->defer_events;
	root->evq.n += (uint32_t)sum[1];
	root->n_alloc_fail += sum[2];
	root->pkts_peak += (uint32_t)sum[3];
	root->n_saturated += sum[4];
}

uint64_t par_run(struct par *p)
{
	struct sim *root = p->root;
	uint64_t start = root->n_events;
	int rc = 0;

	p->root_events0 = root->n_events;
	for (uint32_t j = 0; j < p->n; j++)
		p->parts[j].seen_events = p->parts[j].sim.n_events;
	p->polled = p->progressed = root->n_events;
	p->stop = PAR_STOP_NONE;
	for (uint32_t j = p->own_first; j < p->own_end; j++)
		par_publish(p, j);
	p->root_key = ev_peek_key(&root->evq);
	if (root->interrupt && *root->interrupt)
		p->stop = PAR_STOP_INTERRUPT;
	if (p->remote.size) {
		/* The EAL pinned this thread to CPU 0 (sim_eal_init), as it did
		 * in every process of the job on this machine. */
		par_unpin();
		par_look_remote(p, false);
	}
	for (uint32_t w = 1; w < p->n_workers && rc == 0; w++)
		rc = pthread_create(&p->workers[w].thread, NULL, par_worker, &p->workers[w]);
	if (rc != 0) {
		fprintf(stderr, "fabemu: cannot start a thread: %s\n", strerror(rc));
		abort();
	}
	par_loop(p, &p->workers[0]);
	for (uint32_t w = 1; w < p->n_workers; w++)
		pthread_join(p->workers[w].thread, NULL);
	if (p->rec_writers)
		par_rec_window(p, UINT64_MAX); /* the rest */
	par_fold_end(p);
	return root->n_events - start;
}

void par_get_stats(const struct par *p, struct par_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->n_parts = p->n;
	out->n_workers = p->n_workers;
	out->n_procs = p->remote.size ? p->remote.size : 1;
	out->lookahead_ps = p->lookahead_ps;
	out->windows = p->windows;
	out->root_events = p->root_events;
	out->crit_events = p->crit_events;
	for (uint32_t i = 0; i < p->n; i++) {
		out->events[i] = p->parts[i].sim.n_events;
		out->x_frames[i] = p->parts[i].x_frames;
		out->busy_s[i] = p->parts[i].busy_s;
		out->wait_s[i] = p->parts[i].wait_s;
		out->cpu_s[i] = p->parts[i].cpu_s;
	}
}

uint64_t par_pending(const struct par *p)
{
	uint64_t n = 0;

	for (uint32_t i = p->own_first; i < p->own_end; i++)
		n += p->parts[i].sim.evq.n;
	/* Remote: over every process (each calls it at the same point: a
	 * root event, or the results). */
	if (p->remote.size)
		p->remote.combine(p->remote.ctx, NULL, 0, &n, 1);
	return n;
}
