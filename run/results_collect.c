/* Collecting a run's results: each module's stats folded over its
 * instances, then its tables walked in summary.json's order (the sections
 * below); validity; and the human summary, a module's lines in order. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cc_metrics.h"
#include "fault_metrics.h"
#include "nic_metrics.h"
#include "port_metrics.h"
#include "results.h"
#include "sim_metrics.h"
#include "sw_metrics.h"
#include "tg_metrics.h"
#include "units.h"

/* Append "; "-separated @fmt to @r->reasons and mark the run invalid. */
static void res_vinvalid(struct results *r, const char *fmt, va_list ap)
{
	size_t n = strlen(r->reasons);

	r->valid = false;
	if (n && n + 2 < sizeof(r->reasons)) {
		memcpy(r->reasons + n, "; ", 3);
		n += 2;
	}
	vsnprintf(r->reasons + n, sizeof(r->reasons) - n, fmt, ap);
}

static void res_invalid(struct results *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void res_invalid(struct results *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	res_vinvalid(r, fmt, ap);
	va_end(ap);
}

/* results.h */
void res_mark_invalid(struct results *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	res_vinvalid(r, fmt, ap);
	va_end(ap);
	for (uint32_t i = 0; i < r->n; i++)
		if (!strcmp(r->m[i].name, "valid"))
			r->m[i].u = 0;
}

/* Whether a limit of the simulator, not the model, bent the run (the
 * rules: docs/results.md, "Validity"). A user's stop_time does not. */
static void res_validity(struct results *r, const struct fabric *f, const struct nic_stats *ns,
			 const char *stop_why)
{
	const struct sim *s = &f->sim;

	r->valid = true;
	r->reasons[0] = '\0';
	if (s->interrupted)
		res_invalid(r, "interrupted%s%s at %.3f ns of simulated time with %u events pending",
			    stop_why ? " by " : "", stop_why ? stop_why : "",
			    units_ps_to_ns(s->last_work_ps), s->evq.n);
	if (s->n_alloc_fail || ns->ack_alloc_fail)
		res_invalid(r, "the packet pool ran dry: %llu times a data packet was held back "
			    "(nic.pool_exhausted), %llu ACKs not sent (nic.acks_not_sent), peak %u of "
			    "%u packets; raise engine.packet_pool",
			    (unsigned long long)s->n_alloc_fail, (unsigned long long)ns->ack_alloc_fail,
			    s->pkts_peak, f->exp->engine.pool_pkts);
	if (s->n_saturated)
		res_invalid(r, "%llu counter updates saturated at their type's maximum",
			    (unsigned long long)s->n_saturated);
	if (s->horizon)
		res_invalid(r, "stopped at the clock's horizon: the next event lies beyond %.0f s of "
			    "simulated time, with %u events pending",
			    units_ps_to_s(UNITS_TIME_MAX_PS), s->evq.n);
	if (s->stuck)
		res_invalid(r, "stopped with virtual time stuck at %.3f ns: %u events handled without "
			    "the clock moving, %u events pending",
			    units_ps_to_ns(s->now_ps), (unsigned)SIM_STUCK_EVENTS, s->evq.n);
	if (f->series_full)
		res_invalid(r, "series.csv and rates.csv reached outputs.series.max_bytes (%llu bytes) at "
			    "%.3f ns of simulated time: sampling stopped there (raise "
			    "outputs.series.interval or max_bytes)",
			    (unsigned long long)f->exp->series_max_bytes, units_ps_to_ns(f->series_full_ps));
	if (f->no_progress_stopped)
		res_invalid(r, "stopped for lack of progress at %.3f ns of simulated time: events went "
			    "on but no frame other than PFC left any port after %.3f ns "
			    "(engine.no_progress %.3f ns), with %u events pending",
			    units_ps_to_ns(s->now_ps), units_ps_to_ns(f->np_since_ps),
			    units_ps_to_ns(f->exp->engine.no_progress_ps), s->evq.n);
}

/* Where a section's stats come from (struct res_gather). */
enum res_src {
	RES_RUN,     /* struct res_run */
	RES_SIM,     /* struct sim */
	RES_SW,      /* struct sw_stats over the switches */
	RES_SW_PORT, /* struct port_stats over the switches' ports */
	RES_PORT,    /* struct port_stats over every port */
	RES_PFC,     /* struct port_pfc_sum over every port */
	RES_NIC,     /* struct nic_stats over the hosts */
	RES_CC,      /* struct cc_stats over the QPs */
	RES_TG,      /* struct tg_totals */
	RES_N_SRC,
};

/* Every module's stats, each folded over its instances. */
struct res_gather {
	struct res_run run;        /* RES_RUN */
	struct sw_stats sw;        /* RES_SW */
	struct port_stats sw_port; /* RES_SW_PORT */
	struct port_stats port;    /* RES_PORT */
	struct port_pfc_sum pfc;   /* RES_PFC */
	struct nic_stats nic;      /* RES_NIC */
	struct cc_stats cc;        /* RES_CC */
	struct tg_totals tg;       /* RES_TG */
	const void *src[RES_N_SRC]; /* each source, by enum res_src */
	struct metric_ctx ctx;     /* now, length of the run */
};

/* A piece of summary.json: a module's table read from its stats, or a
 * writer of per-instance metrics (add). */
struct res_section {
	const struct metric_table *t;            /* rows, or NULL with add */
	enum res_src src;                        /* whose stats */
	bool (*on)(const struct fabric *f);      /* written only when it says so; NULL: always */
	int (*add)(struct results *r, const struct fabric *f); /* per-instance metrics */
	const struct metric_table *const *writes; /* the tables add writes, NULL-ended */
};

static void res_fold_all(const struct metric_table *const *t, void *acc, const void *inst)
{
	for (; *t; t++)
		metric_fold(*t, acc, inst);
}

/* One port's stats into the sums (@sw: a switch's port). */
static void res_gather_port(struct res_gather *g, const struct port *p, bool sw)
{
	struct port_stats st;
	struct port_pfc_sum pf;

	fabric_port_stats(g->run.f, p, &st);
	port_pfc_sum(p, g->ctx.now_ps, &pf);
	if (sw)
		metric_fold(&port_metrics_queue_peak, &g->sw_port, &st);
	metric_fold(&port_metrics_lost, &g->port, &st);
	metric_fold(&port_metrics_pfc, &g->pfc, &pf);
}

static void res_gather(struct res_gather *g, const struct fabric *f, const struct results *r)
{
	const struct topo *t = f->topo;

	memset(g, 0, sizeof(*g));
	g->run = (struct res_run){ .f = f, .r = r };
	g->ctx.now_ps = f->sim.now_ps;
	g->ctx.sim_s = units_ps_to_s(f->sim.stopped ? f->sim.now_ps : f->sim.last_work_ps);
	for (uint32_t i = 0; i < t->n_switches; i++) {
		res_fold_all(sw_metric_tables, &g->sw, sw_stats(f->sws[i]));
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++)
			res_gather_port(g, sw_port(f->sws[i], p), true);
	}
	for (uint32_t i = 0; i < t->n_hosts; i++) {
		res_fold_all(nic_metric_tables, &g->nic, nic_stats(f->nics[i]));
		nic_cc_stats(f->nics[i], &g->cc);
		for (uint16_t p = 0; p < nic_n_ports(f->nics[i]); p++)
			res_gather_port(g, nic_port(f->nics[i], p), false);
	}
	tg_totals(f->tg, &g->tg);
	g->src[RES_RUN] = &g->run;
	g->src[RES_SIM] = &f->sim;
	g->src[RES_SW] = &g->sw;
	g->src[RES_SW_PORT] = &g->sw_port;
	g->src[RES_PORT] = &g->port;
	g->src[RES_PFC] = &g->pfc;
	g->src[RES_NIC] = &g->nic;
	g->src[RES_CC] = &g->cc;
	g->src[RES_TG] = &g->tg;
}

int res_put_table(struct results *r, const struct metric_table *t, const char *inst,
		  const void *stats, const struct metric_ctx *ctx)
{
	static const enum res_type as[] = {
		[METRIC_U64] = RES_U64, [METRIC_DBL] = RES_DOUBLE, [METRIC_BOOL] = RES_BOOL,
		[METRIC_STR] = RES_STR, [METRIC_PS_NS] = RES_DOUBLE,
	};

	for (uint32_t i = 0; i < t->n; i++) {
		const struct metric *m = &t->m[i];
		const char *at = inst ? strstr(m->name, "NAME") : NULL;
		struct metric_val v;
		struct res_metric *x;

		metric_value(m, stats, ctx, &v);
		if (at)
			x = res_add(r, as[m->type], "%.*s%s%s", (int)(at - m->name), m->name, inst,
				    at + 4);
		else
			x = res_add(r, as[m->type], "%s", m->name);
		if (!x)
			return -ENOMEM;
		x->u = m->type == METRIC_BOOL ? v.u != 0 : v.u;
		x->d = v.d;
		x->s = v.s;
	}
	return 0;
}

/* Per workload: messages, completed, and goodput over its own span. */
static int res_workloads(struct results *r, const struct fabric *f)
{
	for (uint32_t w = 0; w < f->exp->n_workloads; w++) {
		struct tg_wl_totals t;

		tg_wl_totals(f->tg, (uint16_t)w, &t);
		if (res_put_table(r, &tg_metrics_workload, f->exp->workloads[w].name, &t, NULL) != 0)
			return -ENOMEM;
	}
	return 0;
}

/* in_network.*: the switches' reductions, summed; only in a run with an
 * in-network reduction (algorithm in-network). */
static int res_innet(struct results *r, const struct fabric *f)
{
	struct sw_agg_stats sum = { 0 };

	if (!f->exp->graph.n_aggs)
		return 0;
	for (uint32_t i = 0; i < f->topo->n_switches; i++) {
		struct sw_agg_stats st;

		sw_agg_totals(f->sws[i], &st);
		metric_fold(&sw_metrics_agg, &sum, &st);
	}
	return res_put_table(r, &sw_metrics_agg, NULL, &sum, NULL);
}

/* flows.NAME.STAT (NAME: a flows.csv column) over the completed messages. */
static int res_flows(struct results *r, const struct fabric *f)
{
	for (int c = 0; c < TG_N_COLS; c++) {
		struct tg_col_stats cs;

		if (tg_col_stats(f->tg, c, &cs) != 0 ||
		    res_put_table(r, &tg_metrics_col, tg_col_names[c], &cs, NULL) != 0)
			return -ENOMEM;
	}
	return 0;
}

/* An algorithm other than none runs on some QP. */
static bool res_cc_in_use(const struct fabric *f)
{
	const struct exp *e = f->exp;
	bool nic_used = e->n_workloads == 0;

	for (uint32_t i = 0; i < e->n_workloads; i++) {
		if (!e->workloads[i].cc)
			nic_used = true;
		else if (e->workloads[i].cc != cc_find("none"))
			return true;
	}
	return nic_used && e->nic.cc != cc_find("none");
}

/* summary.json, in order: each module's tables where they stand. */
static const struct res_section res_sections[] = {
	{ &res_metrics_head, RES_RUN, NULL, NULL },
	{ &sim_metrics_time, RES_SIM, NULL, NULL },
	{ &sw_metrics_drops, RES_SW, NULL, NULL },
	{ &tg_metrics_msgs, RES_TG, NULL, NULL },
	{ &nic_metrics_delivered, RES_NIC, NULL, NULL },
	{ &tg_metrics_goodput, RES_TG, NULL, NULL },
	{ &nic_metrics_rx, RES_NIC, NULL, NULL },
	{ &sim_metrics_pool, RES_SIM, NULL, NULL },
	{ &nic_metrics_recovery, RES_NIC, NULL, NULL },
	/* Only when an algorithm other than none runs: a run without
	 * congestion control writes what it always wrote. */
	{ &cc_metrics, RES_CC, res_cc_in_use, NULL },
	{ &sw_metrics_buffer, RES_SW, NULL, NULL },
	{ &port_metrics_queue_peak, RES_SW_PORT, NULL, NULL },
	{ &port_metrics_lost, RES_PORT, NULL, NULL },
	{ &sw_metrics_ecn, RES_SW, NULL, NULL },
	{ &res_metrics_pfc, RES_RUN, NULL, NULL },
	{ &port_metrics_pfc, RES_PFC, NULL, NULL },
	{ &sw_metrics_storms, RES_SW, NULL, NULL },
	{ &res_metrics_deadlock, RES_RUN, NULL, NULL },
	{ NULL, RES_RUN, NULL, res_workloads, (const struct metric_table *const[]){
		  &tg_metrics_workload, NULL } },
	{ NULL, RES_RUN, NULL, res_collectives, (const struct metric_table *const[]){
		  &res_metrics_coll, &res_metrics_coll_data, NULL } },
	{ NULL, RES_RUN, NULL, res_training, (const struct metric_table *const[]){
		  &res_metrics_train, NULL } },
	{ NULL, RES_RUN, NULL, res_faults, (const struct metric_table *const[]){
		  &fault_metrics_totals, &fault_metrics_each, NULL } },
	{ NULL, RES_RUN, NULL, res_innet, (const struct metric_table *const[]){
		  &sw_metrics_agg, NULL } },
	{ NULL, RES_RUN, NULL, res_ib, (const struct metric_table *const[]){
		  &port_metrics_credit, &port_metrics_granted, &res_metrics_ib_deadlock,
		  &sw_metrics_fecn, NULL } },
	{ NULL, RES_RUN, NULL, res_uet, (const struct metric_table *const[]){
		  &sw_metrics_uet, &nic_metrics_uet, NULL } },
	{ NULL, RES_RUN, NULL, res_live, (const struct metric_table *const[]){
		  &res_metrics_live, &res_metrics_live_port, NULL } },
	{ &res_metrics_engine, RES_RUN, NULL, NULL },
	{ &sim_metrics_peak, RES_SIM, NULL, NULL },
	{ NULL, RES_RUN, NULL, res_flows, (const struct metric_table *const[]){
		  &tg_metrics_col, NULL } },
	/* Provenance, then the wall clock: the two blocks that end
	 * summary.json and that its digest leaves out (res_write_all). */
	{ &res_metrics_prov, RES_RUN, NULL, NULL },
	{ &res_metrics_wall, RES_RUN, NULL, NULL },
};

uint32_t res_summary_tables(const struct metric_table **out, uint32_t max)
{
	uint32_t n = 0;

	for (size_t i = 0; i < sizeof(res_sections) / sizeof(res_sections[0]); i++) {
		const struct res_section *s = &res_sections[i];

		if (s->t && n < max)
			out[n++] = s->t;
		for (const struct metric_table *const *w = s->writes; w && *w; w++)
			if (n < max)
				out[n++] = *w;
	}
	return n;
}

int res_collect(struct results *r, const struct fabric *f)
{
	return res_collect_run(r, f, NULL);
}

int res_collect_run(struct results *r, const struct fabric *f, const char *stop_why)
{
	struct res_gather *g = malloc(sizeof(*g));
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (!g)
		return -ENOMEM;
	res_gather(g, f, r);
	res_validity(r, f, &g->nic, stop_why);
	for (size_t i = 0; i < sizeof(res_sections) / sizeof(res_sections[0]) && !rc; i++) {
		const struct res_section *s = &res_sections[i];

		if (s->on && !s->on(f))
			continue;
		rc = s->add ? s->add(r, f) : res_put_table(r, s->t, NULL, g->src[s->src], &g->ctx);
	}
	free(g);
	return rc ? -ENOMEM : 0;
}

static double res_num(const struct results *r, const char *name)
{
	const struct res_metric *m = res_find(r, name);

	return m ? res_value(m) : NAN;
}

void res_print_line(const struct results *r, const struct metric_line *l, FILE *out)
{
	double v[6];

	if (l->when && !(res_num(r, l->when) > 0) && !(l->or_when && res_num(r, l->or_when) > 0))
		return;
	for (int i = 0; i < 6; i++)
		v[i] = l->arg[i] ? res_num(r, l->arg[i]) / (l->div[i] ? l->div[i] : 1) : 0;
	fprintf(out, l->fmt, v[0], v[1], v[2], v[3], v[4], v[5]);
}

static void res_print_head(const struct results *r, const struct fabric *f, FILE *out)
{
	(void)r;
	fprintf(out, "%s: %u hosts, %u switches (%s), seed %llu\n", f->exp->name, f->topo->n_hosts,
		f->topo->n_switches, f->topo->kind, (unsigned long long)f->exp->seed);
}

static void res_print_incomplete(const struct results *r, const struct fabric *f, FILE *out)
{
	if (res_num(r, "messages.incomplete") > 0)
		fprintf(out, "  WARNING: %.0f messages did not complete%s\n",
			res_num(r, "messages.incomplete"),
			f->deadlock_stopped ? " (PFC deadlock)"
			: f->sim.interrupted ? " (run interrupted)"
			: f->no_progress_stopped ? " (no progress: run stopped)"
			: f->sim.stuck ? " (virtual time stuck: run stopped)"
			: f->sim.horizon ? " (clock's horizon reached)"
			: f->sim.stopped    ? " before stop_time"
					    : " (their QPs failed: retries exhausted)");
}

static void res_print_deadlock(const struct results *r, const struct fabric *f, FILE *out)
{
	(void)f;
	if (res_num(r, "pfc.deadlocks") > 0)
		fprintf(out, "  DEADLOCK: cyclic buffer dependency %s at %.3f us%s\n",
			res_find(r, "pfc.deadlock_cycle")->s, res_num(r, "pfc.deadlock_at_ns") / 1e3,
			res_num(r, "pfc.deadlock_stopped_run") > 0 ? "; no watchdog, run stopped" : "");
}

static void res_print_coll(const struct results *r, const struct fabric *f, FILE *out)
{
	res_print_collectives(f, out);
	res_print_training(f, out);
	res_print_faults(r, out);
}

/* With --threads N > 1: how the partitions went (wall-clock figures). */
static void res_print_par(const struct results *r, const struct fabric *f, FILE *out)
{
	(void)r;
	fabric_par_report(f, "  threads: ", out);
}

/* The human summary, in order: a module's line, or a printer of its own. */
static const struct {
	const struct metric_line *line;
	void (*print)(const struct results *r, const struct fabric *f, FILE *out);
} res_prints[] = {
	{ NULL, res_print_head },
	{ &res_line_time, NULL },
	{ NULL, res_print_par },
	{ &tg_line_messages, NULL },
	{ &tg_line_fct, NULL },
	{ &sw_line_drops, NULL },
	{ NULL, res_print_coll },
	{ &sw_line_agg, NULL },
	{ NULL, res_print_incomplete },
	{ &nic_line_recovery, NULL },
	{ &port_line_pfc, NULL },
	{ &sw_line_ecn, NULL },
	{ NULL, res_print_ib },
	{ NULL, res_print_uet },
	{ NULL, res_print_deadlock },
	{ &nic_line_pool, NULL },
};

void res_print_human(const struct results *r, const struct fabric *f, FILE *out)
{
	for (size_t i = 0; i < sizeof(res_prints) / sizeof(res_prints[0]); i++) {
		if (res_prints[i].line)
			res_print_line(r, res_prints[i].line, out);
		else
			res_prints[i].print(r, f, out);
	}
}
