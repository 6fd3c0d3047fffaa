/* The fault schedule at run time: the experiment's faults: entries as a
 * time-ordered list of actions on links and ports (core/port_fault.h),
 * one event chain that carries them out, the forwarding recomputed
 * fabric.convergence after every change of a link's state (all switches,
 * fabric_reroute, around every link down at that time), PFC storms as a
 * chain of XOFFs, and a log of everything done (faults.csv). A run without
 * faults creates none of this. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faults.h"
#include "port_pfc.h"

/* A slow receiver's pause period (shorter where the longest pause is). */
#define FAULT_SLOW_PERIOD_PS UINT64_C(50000000)

/* What an action does. */
enum fault_op {
	FAULT_OP_DOWN,      /* the fault's links go down */
	FAULT_OP_UP,        /* ... come back (link-up: whatever else holds them down) */
	FAULT_OP_RATE,      /* the links take the fault's rate */
	FAULT_OP_RATE_BACK, /* ... their own again */
	FAULT_OP_LOSS_ON,   /* loss on the ports' egress */
	FAULT_OP_LOSS_OFF,
	FAULT_OP_BER_ON,    /* corruption */
	FAULT_OP_BER_OFF,
	FAULT_OP_STORM_ON,  /* the port starts sending XOFFs */
	FAULT_OP_STORM_OFF,
};

static const char *const fault_op_names[] = {
	"down", "up", "rate", "rate restored", "loss on", "loss off", "corruption on",
	"corruption off", "pfc storm start", "pfc storm end",
};

struct fault_act {
	uint64_t t_ps;     /* when */
	uint32_t fault;    /* whose (index of exp->faults) */
	uint32_t seq;      /* creation order: ties at one time go in file order */
	uint8_t op;        /* enum fault_op */
};

/* A port that pauses its link on a timer: a PFC storm (65535 quanta every
 * half pause time), or a slow receiver (each period, a pause for the part
 * of it the drain rate leaves). */
struct fault_storm {
	uint32_t fault;    /* its fault */
	bool on;           /* sending */
	uint64_t xoffs;    /* XOFF frames sent */
	uint64_t period_ps; /* between XOFFs */
	uint16_t quanta;   /* each one's pause */
	uint8_t mask;      /* the priorities it pauses */
	struct ev_src src; /* its chain of XOFFs */
	struct fabric_faults *ff;
};

struct fabric_faults {
	struct fabric *f;
	struct fault_act *acts;    /* sorted */
	uint32_t n_acts;
	uint32_t next;             /* the next to do */
	struct ev_src src;         /* the schedule's events */
	struct ev_src reroute_src; /* the recomputations' */
	uint32_t *refs;            /* per topology link: faults holding it down */
	uint8_t *link_down;        /* per topology link: down (fabric_reroute's map) */
	struct fault_storm *storms; /* per fault (used by pfc-storm and slow-receiver faults) */
	struct fault_row *rows;    /* the log */
	uint32_t n_rows;
	uint32_t cap_rows;
	uint32_t reroutes;         /* forwarding recomputed */
	uint32_t reroute_failed;   /* ... and failed (the old forwarding stayed) */
	uint32_t pending_reroutes; /* queued */
	uint64_t routes_changed;   /* (switch, destination class) rows the reroutes changed */
};

/* Fault events are the fabric's monitors' kind (f->mon_pending): they do
 * not keep a run alive whose traffic is done (a fault scheduled after the
 * last message has nothing to act on), and one that fires when nothing
 * but monitors is left does nothing. */
static void fault_at(struct fabric *f, uint64_t t, struct ev_src *src, ev_fn fn, void *obj)
{
	f->mon_pending++;
	sim_at(&f->sim, t, src, fn, obj);
}

/* Called first by each fault event: false when the run is over. */
static bool fault_live(struct fabric *f)
{
	f->mon_pending--;
	if (f->sim.evq.n > f->mon_pending)
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
static uint32_t fault_link(const struct fabric *f, const struct exp_fault *x, uint32_t k)
{
	return f->topo->nodes[x->ports[k].node].port_links[x->ports[k].port];
}

static struct port *fault_port(struct fabric *f, const struct exp_fault *x, uint32_t k)
{
	return fabric_port(f, x->ports[k].node, x->ports[k].port);
}

/* Where fault @x acts, for the log: its one port, or its node, or a count. */
static void fault_where(const struct fabric *f, const struct exp_fault *x, char *buf, size_t n)
{
	const struct topo *t = f->topo;

	if (x->kind == EXP_FAULT_SWITCH_DOWN || x->kind == EXP_FAULT_NIC_DOWN)
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

static int fault_links(struct fabric_faults *ff, uint32_t i, bool down, bool force)
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

static void fault_storm_tick(struct sim *sim, void *obj)
{
	struct fault_storm *s = obj;
	struct fabric *f = s->ff->f;
	struct port *p = fault_port(f, &f->exp->faults[s->fault], 0);

	if (!fault_live(f) || !s->on)
		return;
	if (port_pfc_send(p, s->mask, s->quanta) == 0)
		s->xoffs++;
	fault_at(f, sim->now_ps + s->period_ps, &s->src, fault_storm_tick, s);
}

static int fault_do(struct fabric_faults *ff, const struct fault_act *a)
{
	struct fabric *f = ff->f;
	const struct exp_fault *x = &f->exp->faults[a->fault];
	char where[96];
	int rc = 0;

	fault_where(f, x, where, sizeof(where));
	switch (a->op) {
	case FAULT_OP_DOWN:
	case FAULT_OP_UP:
		rc = fault_links(ff, a->fault, a->op == FAULT_OP_DOWN, x->kind == EXP_FAULT_LINK_UP);
		break;
	case FAULT_OP_RATE:
	case FAULT_OP_RATE_BACK:
		for (uint32_t k = 0; k < x->n_ports; k++)
			port_link_set_rate(fault_port(f, x, k), a->op == FAULT_OP_RATE
									? x->rate_bps
									: f->topo->links[fault_link(f, x, k)].rate_bps);
		break;
	case FAULT_OP_LOSS_ON:
	case FAULT_OP_LOSS_OFF:
		for (uint32_t k = 0; k < x->n_ports && rc == 0; k++) {
			struct port *p = fault_port(f, x, k);

			if (x->ge_on)
				rc = port_fault_set_ge(p, a->op == FAULT_OP_LOSS_ON ? &x->ge : NULL);
			else
				rc = port_fault_set_loss(p, x->tc, a->op == FAULT_OP_LOSS_ON ? x->loss : 0);
		}
		break;
	case FAULT_OP_BER_ON:
	case FAULT_OP_BER_OFF:
		for (uint32_t k = 0; k < x->n_ports && rc == 0; k++)
			rc = port_fault_set_ber(fault_port(f, x, k), a->op == FAULT_OP_BER_ON ? x->ber : 0);
		break;
	case FAULT_OP_STORM_ON:
		ff->storms[a->fault].on = true;
		f->mon_pending++; /* the first XOFF now, as if it were an event of its own */
		fault_storm_tick(&f->sim, &ff->storms[a->fault]);
		break;
	case FAULT_OP_STORM_OFF:
		ff->storms[a->fault].on = false;
		break;
	}
	if (rc == 0)
		rc = fault_log(ff, a->fault,
			       x->kind != EXP_FAULT_SLOW_RX ? fault_op_names[a->op]
			       : a->op == FAULT_OP_STORM_ON ? "slow receiver start" : "slow receiver end",
			       "%s", where);
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

static int fault_add(struct fabric_faults *ff, uint32_t *cap, uint64_t t, uint32_t fault,
		     enum fault_op op)
{
	if (ff->n_acts == *cap) {
		uint32_t c = *cap ? 2 * *cap : 16;
		struct fault_act *v = realloc(ff->acts, sizeof(*v) * c);

		if (!v)
			return -ENOMEM;
		ff->acts = v;
		*cap = c;
	}
	ff->acts[ff->n_acts] = (struct fault_act){ .t_ps = t, .fault = fault, .seq = ff->n_acts, .op = (uint8_t)op };
	ff->n_acts++;
	return 0;
}

/* The actions of fault @i: a start, and an end when it has a duration. */
static int fault_plan(struct fabric_faults *ff, uint32_t *cap, uint32_t i)
{
	const struct exp_fault *x = &ff->f->exp->faults[i];
	static const uint8_t ops[EXP_FAULT_N][2] = {
		[EXP_FAULT_LINK_DOWN] = { FAULT_OP_DOWN, FAULT_OP_UP },
		[EXP_FAULT_LINK_UP] = { FAULT_OP_UP, FAULT_OP_UP },
		[EXP_FAULT_FLAP] = { FAULT_OP_DOWN, FAULT_OP_UP },
		[EXP_FAULT_RATE] = { FAULT_OP_RATE, FAULT_OP_RATE_BACK },
		[EXP_FAULT_LOSS] = { FAULT_OP_LOSS_ON, FAULT_OP_LOSS_OFF },
		[EXP_FAULT_CORRUPT] = { FAULT_OP_BER_ON, FAULT_OP_BER_OFF },
		[EXP_FAULT_SWITCH_DOWN] = { FAULT_OP_DOWN, FAULT_OP_UP },
		[EXP_FAULT_NIC_DOWN] = { FAULT_OP_DOWN, FAULT_OP_UP },
		[EXP_FAULT_PFC_STORM] = { FAULT_OP_STORM_ON, FAULT_OP_STORM_OFF },
		[EXP_FAULT_SLOW_RX] = { FAULT_OP_STORM_ON, FAULT_OP_STORM_OFF },
	};
	int rc = 0;

	if (x->kind == EXP_FAULT_FLAP) {
		for (uint32_t k = 0; k < x->count && rc == 0; k++) {
			uint64_t t = x->at_ps + (uint64_t)k * x->period_ps;

			rc = fault_add(ff, cap, t, i, FAULT_OP_DOWN);
			if (rc == 0)
				rc = fault_add(ff, cap, t + x->period_ps / 2, i, FAULT_OP_UP);
		}
		return rc;
	}
	rc = fault_add(ff, cap, x->at_ps, i, ops[x->kind][0]);
	if (rc == 0 && x->duration_ps && x->kind != EXP_FAULT_LINK_UP)
		rc = fault_add(ff, cap, x->at_ps + x->duration_ps, i, ops[x->kind][1]);
	return rc;
}

/* A storm's timing. PFC storm: the longest pause, refreshed every half of
 * it, so the peer never resumes. Slow receiver draining at R of a link of
 * B: every period P (FAULT_SLOW_PERIOD_PS, or half the longest pause where
 * that is shorter), a pause of (1 - R/B) P: the peer sends for R/B of
 * each period. */
static void fault_storm_init(struct fabric *f, struct fault_storm *s, const struct exp_fault *x)
{
	struct port *p = fault_port(f, x, 0);
	uint64_t longest = port_pfc_quanta_ps(p, UINT16_MAX);

	if (x->kind == EXP_FAULT_PFC_STORM) {
		s->quanta = UINT16_MAX;
		s->period_ps = longest / 2;
		s->mask = (uint8_t)(1u << x->priority);
		return;
	}
	s->period_ps = FAULT_SLOW_PERIOD_PS < longest / 2 ? FAULT_SLOW_PERIOD_PS : longest / 2;
	/* quanta = (1 - R/B) P / (512 bit times), rounded to the nearest. */
	s->quanta = (uint16_t)(((unsigned __int128)(port_rate_bps(p) - x->rate_bps) * s->period_ps /
				  UNITS_PS_PER_S + PORT_PFC_QUANTUM_BITS / 2) /
			       PORT_PFC_QUANTUM_BITS);
	s->mask = x->priority_set ? (uint8_t)(1u << x->priority) : UINT8_MAX;
}

int fabric_faults_arm(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	struct fabric_faults *ff;
	uint32_t cap = 0;
	int rc = 0;

	if (!e->n_faults)
		return 0;
	if (!(ff = calloc(1, sizeof(*ff))))
		goto nomem;
	f->faults = ff;
	ff->f = f;
	ff->refs = calloc(f->topo->n_links ? f->topo->n_links : 1, sizeof(*ff->refs));
	ff->link_down = calloc(f->topo->n_links ? f->topo->n_links : 1, 1);
	ff->storms = calloc(e->n_faults, sizeof(*ff->storms));
	if (!ff->refs || !ff->link_down || !ff->storms)
		goto nomem;
	for (uint32_t i = 0; i < e->n_faults && rc == 0; i++)
		rc = fault_plan(ff, &cap, i);
	if (rc != 0)
		goto nomem;
	qsort(ff->acts, ff->n_acts, sizeof(*ff->acts), fault_act_cmp);
	sim_new_src(&f->sim, &ff->src);
	sim_new_src(&f->sim, &ff->reroute_src);
	for (uint32_t i = 0; i < e->n_faults; i++) {
		ff->storms[i] = (struct fault_storm){ .fault = i, .ff = ff };
		if (e->faults[i].kind == EXP_FAULT_PFC_STORM || e->faults[i].kind == EXP_FAULT_SLOW_RX) {
			fault_storm_init(f, &ff->storms[i], &e->faults[i]);
			sim_new_src(&f->sim, &ff->storms[i].src);
		}
	}
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
	free(ff->acts);
	free(ff->refs);
	free(ff->link_down);
	free(ff->storms);
	free(ff->rows);
	free(ff);
	f->faults = NULL;
}

const struct fault_row *fabric_fault_rows(const struct fabric *f, uint32_t *n)
{
	*n = f->faults ? f->faults->n_rows : 0;
	return f->faults ? f->faults->rows : NULL;
}

void fabric_fault_counts(const struct fabric *f, uint32_t i, struct fault_counts *out)
{
	const struct exp_fault *x = &f->exp->faults[i];

	memset(out, 0, sizeof(*out));
	for (uint32_t k = 0; k < x->n_ports; k++) {
		struct port *p = fabric_port((struct fabric *)f, x->ports[k].node, x->ports[k].port);
		/* Link kinds: both directions; the others act on the egress only,
		 * but the peer's receive side counts what it dropped corrupted. */
		bool both = x->kind != EXP_FAULT_LOSS && x->kind != EXP_FAULT_CORRUPT &&
			    x->kind != EXP_FAULT_PFC_STORM && x->kind != EXP_FAULT_SLOW_RX;
		struct port_fault_stats a, b;

		port_fault_stats(p, &a);
		port_fault_stats(p->peer, &b);
		out->lost_down += a.down_lost + (both ? b.down_lost : 0);
		out->lost_random += a.random_lost + (both ? b.random_lost : 0);
		out->corrupted += a.corrupted + (both ? b.corrupted : 0);
		out->fcs_errors += b.fcs_errors + (both ? a.fcs_errors : 0);
		if (k == 0)
			out->down_ps = a.down_ps;
	}
	if (f->faults && (x->kind == EXP_FAULT_PFC_STORM || x->kind == EXP_FAULT_SLOW_RX))
		out->xoffs = f->faults->storms[i].xoffs;
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

			port_fault_stats(fabric_port((struct fabric *)f, t->links[l].node[d], t->links[l].port[d]), &s);
			out->lost_down += s.down_lost;
			out->lost_random += s.random_lost;
			out->corrupted += s.corrupted;
			out->fcs_errors += s.fcs_errors;
		}
	for (uint32_t i = 0; f->faults && i < f->exp->n_faults; i++)
		out->xoffs += f->faults->storms[i].xoffs;
}
