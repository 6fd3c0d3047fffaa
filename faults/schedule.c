/* The fault schedule at run time: the experiment's faults: entries as a
 * time-ordered list of starts and ends, each kind's hooks (faults/) doing
 * what they mean, one event chain that carries them out, the forwarding
 * recomputed fabric.convergence after every change of a link's state (all
 * switches, fabric_reroute, around every link down at that time), and a
 * log of everything done (faults.csv). A run without faults creates none
 * of this. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "faults.h"

/* A start or an end of a fault. */
struct fault_act {
	uint64_t t_ps;     /* when */
	uint32_t fault;    /* whose (index of exp->faults) */
	uint32_t seq;      /* creation order: ties at one time go in file order */
	bool start;        /* its start (act), else its end (undo) */
};

struct fabric_faults {
	struct fabric *f;
	struct fault_act *acts;    /* sorted */
	uint32_t n_acts;
	uint32_t cap_acts;         /* room while they are planned */
	uint32_t next;             /* the next to do */
	struct ev_src src;         /* the schedule's events */
	struct ev_src reroute_src; /* the recomputations' */
	uint32_t *refs;            /* per topology link: faults holding it down */
	uint8_t *link_down;        /* per topology link: down (fabric_reroute's map) */
	void **state;              /* per fault: its kind's run-time state, or NULL */
	struct fault_row *rows;    /* the log */
	uint32_t n_rows;
	uint32_t cap_rows;
	uint32_t reroutes;         /* forwarding recomputed */
	uint32_t reroute_failed;   /* ... and failed (the old forwarding stayed) */
	uint32_t pending_reroutes; /* queued */
	uint64_t routes_changed;   /* (switch, destination class) rows the reroutes changed */
};

struct fabric *fault_fabric(struct fabric_faults *ff)
{
	return ff->f;
}

const struct exp_fault *fault_get(struct fabric_faults *ff, uint32_t i)
{
	return &ff->f->exp->faults[i];
}

/* Fault events are the fabric's monitors' kind (f->mon_pending): they do
 * not keep a run alive whose traffic is done (a fault scheduled after the
 * last message has nothing to act on), and one that fires when nothing
 * but monitors is left does nothing. */
void fault_at(struct fabric *f, uint64_t t, struct ev_src *src, ev_fn fn, void *obj)
{
	f->mon_pending++;
	sim_at(&f->sim, t, src, fn, obj);
}

/* Called first by each fault event: false when the run is over. */
bool fault_live(struct fabric *f)
{
	f->mon_pending--;
	if (sim_pending(&f->sim) > f->mon_pending)
		return true;
	f->sim.monitor_event = true; /* not work: the run ended at its last event */
	return false;
}

static int fault_act_cmp(const void *a, const void *b)
{
	const struct fault_act *x = a, *y = b;

	if (x->t_ps != y->t_ps)
		return x->t_ps < y->t_ps ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int fault_log(struct fabric_faults *ff, uint32_t fault, const char *what, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

static int fault_log(struct fabric_faults *ff, uint32_t fault, const char *what, const char *fmt,
		     ...)
{
	struct fault_row *r;
	va_list ap;

	if (ff->n_rows == ff->cap_rows) {
		uint32_t cap = ff->cap_rows ? 2 * ff->cap_rows : 64;
		struct fault_row *v = realloc(ff->rows, sizeof(*v) * cap);

		if (!v)
			return -ENOMEM;
		ff->rows = v;
		ff->cap_rows = cap;
	}
	r = &ff->rows[ff->n_rows++];
	r->t_ps = ff->f->sim.now_ps;
	r->fault = fault;
	snprintf(r->what, sizeof(r->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	return 0;
}

/* The topology link at port @k of fault @x. */
uint32_t fault_link(const struct fabric *f, const struct exp_fault *x, uint32_t k)
{
	return f->topo->nodes[x->ports[k].node].port_links[x->ports[k].port];
}

struct port *fault_port(struct fabric *f, const struct exp_fault *x, uint32_t k)
{
	return fabric_port(f, x->ports[k].node, x->ports[k].port);
}

/* Where fault @x acts, for the log: its one port, or its node, or a count. */
static void fault_where(const struct fabric *f, const struct exp_fault *x, char *buf, size_t n)
{
	const struct topo *t = f->topo;

	if (x->ops->node_noun)
		snprintf(buf, n, "%s (%u links)", t->nodes[x->ports[0].node].name, x->n_ports);
	else if (x->n_ports == 1)
		snprintf(buf, n, "%s:%u", t->nodes[x->ports[0].node].name, x->ports[0].port);
	else
		snprintf(buf, n, "%s:%u and %u more ports", t->nodes[x->ports[0].node].name,
			 x->ports[0].port, x->n_ports - 1);
}

static void fault_reroute_fire(struct sim *sim, void *obj)
{
	struct fabric_faults *ff = obj;
	char err[CFG_ERR_BYTES] = "";

	(void)sim;
	ff->pending_reroutes--;
	if (!fault_live(ff->f) || ff->pending_reroutes)
		return; /* over, or a later change comes with its own: one recomputation for all */
	if (fabric_reroute(ff->f, ff->link_down, err) != 0) {
		ff->reroute_failed++;
		fault_log(ff, UINT32_MAX, "reroute failed", "%s", err);
		return;
	}
	ff->reroutes++;
	ff->routes_changed += ff->f->reroute_changed;
	fault_log(ff, UINT32_MAX, "reroute", "%llu switch rows changed",
		  (unsigned long long)ff->f->reroute_changed);
}

/* A link changed state: recompute the forwarding after the convergence
 * time (changes inside one window share the recomputation at its end). */
static void fault_reroute_later(struct fabric_faults *ff)
{
	ff->pending_reroutes++;
	fault_at(ff->f, ff->f->sim.now_ps + ff->f->exp->convergence_ps, &ff->reroute_src,
		 fault_reroute_fire, ff);
}

int fault_links(struct fabric_faults *ff, uint32_t i, bool down, bool force)
{
	struct fabric *f = ff->f;
	const struct exp_fault *x = &f->exp->faults[i];
	bool changed = false;
	int rc = 0;

	for (uint32_t k = 0; k < x->n_ports && rc == 0; k++) {
		uint32_t l = fault_link(f, x, k);
		bool was = ff->refs[l] > 0;

		if (down)
			ff->refs[l]++;
		else if (force)
			ff->refs[l] = 0;
		else if (ff->refs[l])
			ff->refs[l]--;
		if (was != (ff->refs[l] > 0)) {
			rc = port_link_set_down(fault_port(f, x, k), down);
			ff->link_down[l] = down;
			changed = true;
		}
	}
	if (changed)
		fault_reroute_later(ff);
	return rc;
}

static int fault_do(struct fabric_faults *ff, const struct fault_act *a)
{
	const struct exp_fault *x = &ff->f->exp->faults[a->fault];
	void *state = ff->state[a->fault];
	char where[96];
	int rc;

	fault_where(ff->f, x, where, sizeof(where));
	rc = a->start ? x->ops->act(ff, a->fault, state) : x->ops->undo(ff, a->fault, state);
	if (rc == 0)
		rc = fault_log(ff, a->fault, a->start ? x->ops->log_start : x->ops->log_end, "%s",
			       where);
	return rc;
}

static void fault_fire(struct sim *sim, void *obj)
{
	struct fabric_faults *ff = obj;

	if (!fault_live(ff->f))
		return; /* the traffic is done: what is left of the schedule is moot */
	/* Every action due now, in order, then the next time. */
	while (ff->next < ff->n_acts && ff->acts[ff->next].t_ps == sim->now_ps)
		if (fault_do(ff, &ff->acts[ff->next++]) != 0)
			sim_at_fail(sim); /* out of memory mid-run: as an event queue that cannot grow */
	if (ff->next < ff->n_acts)
		fault_at(ff->f, ff->acts[ff->next].t_ps, &ff->src, fault_fire, ff);
}

int fault_plan_add(struct fabric_faults *ff, uint64_t t_ps, uint32_t i, bool start)
{
	if (ff->n_acts == ff->cap_acts) {
		uint32_t c = ff->cap_acts ? 2 * ff->cap_acts : 16;
		struct fault_act *v = realloc(ff->acts, sizeof(*v) * c);

		if (!v)
			return -ENOMEM;
		ff->acts = v;
		ff->cap_acts = c;
	}
	ff->acts[ff->n_acts] = (struct fault_act){ .t_ps = t_ps, .fault = i, .seq = ff->n_acts,
						   .start = start };
	ff->n_acts++;
	return 0;
}

/* The actions of fault @i: its kind's, or a start, and an end when it
 * has a duration. */
static int fault_plan(struct fabric_faults *ff, uint32_t i)
{
	const struct exp_fault *x = &ff->f->exp->faults[i];
	int rc;

	if (x->ops->arm)
		return x->ops->arm(ff, i, x);
	rc = fault_plan_add(ff, x->at_ps, i, true);
	if (rc == 0 && x->duration_ps && x->ops->log_end)
		rc = fault_plan_add(ff, x->at_ps + x->duration_ps, i, false);
	return rc;
}

int fabric_faults_arm(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	struct fabric_faults *ff;
	int rc = 0;

	if (!e->n_faults)
		return 0;
	if (!(ff = calloc(1, sizeof(*ff))))
		goto nomem;
	f->faults = ff;
	ff->f = f;
	ff->refs = calloc(f->topo->n_links ? f->topo->n_links : 1, sizeof(*ff->refs));
	ff->link_down = calloc(f->topo->n_links ? f->topo->n_links : 1, 1);
	ff->state = calloc(e->n_faults, sizeof(*ff->state));
	if (!ff->refs || !ff->link_down || !ff->state)
		goto nomem;
	for (uint32_t i = 0; i < e->n_faults && rc == 0; i++)
		if (e->faults[i].ops->state_size &&
		    !(ff->state[i] = calloc(1, e->faults[i].ops->state_size)))
			rc = -ENOMEM;
	for (uint32_t i = 0; i < e->n_faults && rc == 0; i++)
		rc = fault_plan(ff, i);
	if (rc != 0)
		goto nomem;
	qsort(ff->acts, ff->n_acts, sizeof(*ff->acts), fault_act_cmp);
	sim_new_src(&f->sim, &ff->src);
	sim_new_src(&f->sim, &ff->reroute_src);
	/* In file order: each kind's timers take their event sources here. */
	for (uint32_t i = 0; i < e->n_faults && rc == 0; i++)
		if (e->faults[i].ops->init)
			rc = e->faults[i].ops->init(ff, i, ff->state[i]);
	if (rc != 0)
		goto nomem;
	if (ff->n_acts)
		fault_at(f, ff->acts[0].t_ps, &ff->src, fault_fire, ff);
	return 0;
nomem:
	snprintf(err, CFG_ERR_BYTES, "out of memory for the fault schedule");
	return -ENOMEM;
}

void fabric_faults_free(struct fabric *f)
{
	struct fabric_faults *ff = f->faults;

	if (!ff)
		return;
	for (uint32_t i = 0; ff->state && i < f->exp->n_faults; i++)
		free(ff->state[i]);
	free(ff->state);
	free(ff->acts);
	free(ff->refs);
	free(ff->link_down);
	free(ff->rows);
	free(ff);
	f->faults = NULL;
}

const struct fault_row *fabric_fault_rows(const struct fabric *f, uint32_t *n)
{
	*n = f->faults ? f->faults->n_rows : 0;
	return f->faults ? f->faults->rows : NULL;
}

void fabric_fault_own_counts(const struct fabric *f, uint32_t i, struct fault_counts *out)
{
	const struct exp_fault *x = &f->exp->faults[i];

	memset(out, 0, sizeof(*out));
	if (f->faults && x->ops->count)
		x->ops->count(f->faults->state[i], out);
}

/* Add fault @i's own counts to @out: this process's, or in a split run
 * once over, every process's (fabric.rfault). */
static void fault_add_own(const struct fabric *f, uint32_t i, struct fault_counts *out)
{
	struct fault_counts c;
	uint64_t a[sizeof(c) / sizeof(uint64_t)], b[sizeof(c) / sizeof(uint64_t)];

	_Static_assert(sizeof(c) % sizeof(uint64_t) == 0, "fault_counts: 64-bit counters");
	if (f->rfault)
		c = f->rfault[i];
	else
		fabric_fault_own_counts(f, i, &c);
	memcpy(a, out, sizeof(a));
	memcpy(b, &c, sizeof(b));
	for (size_t k = 0; k < sizeof(a) / sizeof(a[0]); k++)
		a[k] += b[k];
	memcpy(out, a, sizeof(a));
}

void fabric_fault_counts(const struct fabric *f, uint32_t i, struct fault_counts *out)
{
	const struct exp_fault *x = &f->exp->faults[i];
	/* Link kinds: both directions; the others act on the egress only, but
	 * the peer's receive side counts what it dropped corrupted. */
	bool both = !x->ops->egress;

	memset(out, 0, sizeof(*out));
	for (uint32_t k = 0; k < x->n_ports; k++) {
		struct port *p = fabric_port((struct fabric *)f, x->ports[k].node, x->ports[k].port);
		struct port_fault_stats a, b;

		fabric_port_fault_stats(f, p, &a);
		fabric_port_fault_stats(f, p->peer, &b);
		out->lost_down += a.down_lost + (both ? b.down_lost : 0);
		out->lost_random += a.random_lost + (both ? b.random_lost : 0);
		out->corrupted += a.corrupted + (both ? b.corrupted : 0);
		out->fcs_errors += b.fcs_errors + (both ? a.fcs_errors : 0);
		if (k == 0)
			out->down_ps = a.down_ps;
	}
	fault_add_own(f, i, out);
}

void fabric_fault_totals(const struct fabric *f, struct fault_counts *out, uint32_t *reroutes,
			 uint32_t *reroute_failed)
{
	const struct topo *t = f->topo;

	memset(out, 0, sizeof(*out));
	out->routes_changed = f->faults ? f->faults->routes_changed : 0;
	*reroutes = f->faults ? f->faults->reroutes : 0;
	*reroute_failed = f->faults ? f->faults->reroute_failed : 0;
	for (uint32_t l = 0; l < t->n_links; l++)
		for (int d = 0; d < 2; d++) {
			struct port_fault_stats s;

			fabric_port_fault_stats(f, fabric_port((struct fabric *)f, t->links[l].node[d], t->links[l].port[d]), &s);
			out->lost_down += s.down_lost;
			out->lost_random += s.random_lost;
			out->corrupted += s.corrupted;
			out->fcs_errors += s.fcs_errors;
		}
	for (uint32_t i = 0; i < f->exp->n_faults; i++)
		fault_add_own(f, i, out);
}
