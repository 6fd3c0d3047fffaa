/* Collecting, storing and writing results (see results.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_version.h>

#include "fab_version.h"
#include "json.h"
#include "port_pfc.h"
#include "results.h"
#include "units.h"

struct res_metric *res_add(struct results *r, enum res_type type, const char *fmt, ...)
{
	struct res_metric *m;
	va_list ap;

	if (r->n == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : 128;
		struct res_metric *v = realloc(r->m, sizeof(*v) * cap);

		if (!v)
			return NULL;
		r->m = v;
		r->cap = cap;
	}
	m = &r->m[r->n++];
	memset(m, 0, sizeof(*m));
	m->type = type;
	va_start(ap, fmt);
	vsnprintf(m->name, sizeof(m->name), fmt, ap);
	va_end(ap);
	return m;
}

static int res_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted @v (n > 0). */
static double res_pct(const double *v, uint32_t n, double p)
{
	uint64_t rank = (uint64_t)ceil(p * n);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

/* Statistics of one flows column over completed messages. */
static int res_column(struct results *r, const char *col, double *v, uint32_t n)
{
	static const struct {
		const char *name;
		double p;
	} pcts[] = { { "p50", 0.50 }, { "p90", 0.90 }, { "p95", 0.95 }, { "p99", 0.99 }, { "p999", 0.999 } };
	double sum = 0;

	qsort(v, n, sizeof(*v), res_dbl_cmp);
	for (uint32_t i = 0; i < n; i++)
		sum += v[i];
	RES_U64(r, n, "flows.%s.count", col);
	RES_DBL(r, n ? v[0] : NAN, "flows.%s.min", col);
	RES_DBL(r, n ? sum / n : NAN, "flows.%s.mean", col);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		RES_DBL(r, n ? res_pct(v, n, pcts[i].p) : NAN, "flows.%s.%s", col, pcts[i].name);
	RES_DBL(r, n ? v[n - 1] : NAN, "flows.%s.max", col);
	RES_DBL(r, sum, "flows.%s.sum", col);
	return 0;
}

static double res_flow_fct_ns(const struct tg_flow *f)
{
	return units_ps_to_ns(f->end_ps - f->msg.start_ps);
}

static double res_flow_goodput_gbps(const struct tg_flow *f)
{
	uint64_t fct = f->end_ps - f->msg.start_ps;

	return fct ? (double)f->msg.bytes * 8.0 / (double)fct * 1e3 : NAN;
}

static int res_flows(struct results *r, const struct fabric *f)
{
	uint32_t n, done = 0;
	const struct tg_flow *fl = tg_flows(f->tg, &n);
	double *v = malloc(sizeof(*v) * (n ? n : 1));
	static const char *const cols[] = { "fct_ns", "slowdown", "goodput_gbps", "bytes" };
	int rc = 0;

	if (!v)
		return -ENOMEM;
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]) && rc == 0; c++) {
		done = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (!fl[i].done)
				continue;
			if (c == 0)
				v[done++] = res_flow_fct_ns(&fl[i]);
			else if (c == 1)
				v[done++] = (double)(fl[i].end_ps - fl[i].msg.start_ps) /
					    (double)fl[i].ideal_ps;
			else if (c == 2)
				v[done++] = res_flow_goodput_gbps(&fl[i]);
			else
				v[done++] = (double)fl[i].msg.bytes;
		}
		rc = res_column(r, cols[c], v, done);
	}
	free(v);
	return rc;
}

/* Sum of the PFC counters of every port that does PFC. */
struct res_pfc_sum {
	uint64_t xoff_tx, xon_tx, xoff_rx, xon_rx, paused_ps, paused_max_ps, lost;
};

static void res_pfc_port(struct res_pfc_sum *t, const struct port *p, uint64_t now_ps)
{
	uint64_t paused = 0;

	t->lost += p->lost_pkts;
	if (!p->pfc)
		return;
	for (int pr = 0; pr < PKT_N_PRIO; pr++) {
		const struct port_pfc *f = p->pfc;

		t->xoff_tx += f->stats.xoff_tx[pr];
		t->xon_tx += f->stats.xon_tx[pr];
		t->xoff_rx += f->stats.xoff_rx[pr];
		t->xon_rx += f->stats.xon_rx[pr];
		paused += f->stats.paused_ps[pr];
		if (f->paused_prio & (1u << pr))
			paused += now_ps - f->since_ps[pr]; /* still paused at the end */
	}
	t->paused_ps += paused;
	if (paused > t->paused_max_ps)
		t->paused_max_ps = paused;
}

static int res_pfc(struct results *r, const struct fabric *f)
{
	const struct topo *t = f->topo;
	struct res_pfc_sum sum = { 0 };
	uint64_t marked = 0, storms = 0;

	for (uint32_t i = 0; i < t->n_switches; i++) {
		marked += sw_stats(f->sws[i])->ecn_marked;
		storms += sw_stats(f->sws[i])->storms;
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++)
			res_pfc_port(&sum, sw_port(f->sws[i], p), f->sim.now_ps);
	}
	for (uint32_t i = 0; i < t->n_hosts; i++)
		for (uint16_t p = 0; p < nic_n_ports(f->nics[i]); p++)
			res_pfc_port(&sum, nic_port(f->nics[i], p), f->sim.now_ps);
	RES_U64(r, sum.lost, "links.lost_pkts");
	RES_U64(r, marked, "ecn.marked");
	RES_U64(r, f->exp->sw.pfc.lossless_prio != 0 && !res_ib_on(f), "pfc.enabled");
	RES_U64(r, sum.xoff_tx, "pfc.xoff_sent");
	RES_U64(r, sum.xon_tx, "pfc.xon_sent");
	RES_U64(r, sum.xoff_rx, "pfc.xoff_received");
	RES_U64(r, sum.xon_rx, "pfc.xon_received");
	RES_DBL(r, units_ps_to_ns(sum.paused_ps), "pfc.paused_ns_total");
	RES_DBL(r, units_ps_to_ns(sum.paused_max_ps), "pfc.paused_ns_max");
	RES_U64(r, storms, "pfc.storms");
	RES_U64(r, f->deadlocks, "pfc.deadlocks");
	RES_DBL(r, units_ps_to_ns(f->deadlock_ps), "pfc.deadlock_at_ns");
	RES_STR(r, f->deadlock_cycle, "pfc.deadlock_cycle");
	RES_U64(r, f->deadlock_stopped, "pfc.deadlock_stopped_run");
	return 0;
}

/* Per workload: messages, completed, and goodput over its own span. */
static int res_workloads(struct results *r, const struct fabric *f)
{
	uint32_t n;
	const struct tg_flow *fl = tg_flows(f->tg, &n);

	for (uint32_t w = 0; w < f->exp->n_workloads; w++) {
		uint64_t first = UINT64_MAX, last = 0, bytes = 0, worst = 0;
		uint32_t total = 0, done = 0;
		const char *name = f->exp->workloads[w].name;

		for (uint32_t i = 0; i < n; i++) {
			if (fl[i].msg.workload != w)
				continue;
			total++;
			if (fl[i].msg.start_ps < first)
				first = fl[i].msg.start_ps;
			if (!fl[i].done)
				continue;
			done++;
			bytes += fl[i].msg.bytes;
			if (fl[i].end_ps > last)
				last = fl[i].end_ps;
			if (fl[i].end_ps - fl[i].msg.start_ps > worst)
				worst = fl[i].end_ps - fl[i].msg.start_ps;
		}
		RES_U64(r, total, "workloads.%s.messages", name);
		RES_U64(r, done, "workloads.%s.completed", name);
		RES_DBL(r, done && last > first ? (double)bytes * 8.0 / (double)(last - first) * 1e3 : 0,
			"workloads.%s.goodput_gbps", name);
		RES_DBL(r, units_ps_to_ns(worst), "workloads.%s.fct_ns_max", name);
	}
	return 0;
}

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

/* An algorithm other than none runs on some QP. */
static bool res_cc_in_use(const struct exp *e)
{
	bool nic_used = e->n_workloads == 0;

	for (uint32_t i = 0; i < e->n_workloads; i++) {
		if (!e->workloads[i].cc)
			nic_used = true;
		else if (e->workloads[i].cc != cc_find("none"))
			return true;
	}
	return nic_used && e->nic.cc != cc_find("none");
}

int res_collect(struct results *r, const struct fabric *f)
{
	return res_collect_run(r, f, NULL);
}

int res_collect_run(struct results *r, const struct fabric *f, const char *stop_why)
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;
	const struct sim *s = &f->sim;
	uint64_t drops[SW_DROP_N] = { 0 }, drops_total = 0, buf_peak = 0, q_peak = 0;
	uint64_t offered = 0, completed_bytes = 0, last_end = 0;
	struct nic_stats ns = { 0 };
	uint32_t n_flows, n_done = 0;
	const struct tg_flow *fl = tg_flows(f->tg, &n_flows);

	memset(r, 0, sizeof(*r));
	for (uint32_t i = 0; i < t->n_switches; i++) {
		const struct sw_stats *st = sw_stats(f->sws[i]);

		for (int d = 0; d < SW_DROP_N; d++) {
			drops[d] += st->drops[d];
			drops_total += st->drops[d];
		}
		if (st->buffer_peak_bytes > buf_peak)
			buf_peak = st->buffer_peak_bytes;
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++) {
			const struct port *pt = sw_port(f->sws[i], p);

			if (pt->max_queue_bytes > q_peak)
				q_peak = pt->max_queue_bytes;
		}
	}
	for (uint32_t i = 0; i < t->n_hosts; i++) {
		const struct nic_stats *x = nic_stats(f->nics[i]);

		ns.tx_data_pkts += x->tx_data_pkts;
		ns.tx_payload_bytes += x->tx_payload_bytes;
		ns.rx_payload_bytes += x->rx_payload_bytes;
		ns.tx_acks += x->tx_acks;
		ns.rx_out_of_seq += x->rx_out_of_seq;
		ns.rx_duplicate += x->rx_duplicate;
		ns.rx_icrc_errors += x->rx_icrc_errors;
		ns.rx_unknown_qp += x->rx_unknown_qp;
		ns.rx_malformed += x->rx_malformed;
		ns.ack_alloc_fail += x->ack_alloc_fail;
		ns.retx_pkts += x->retx_pkts;
		ns.timeouts += x->timeouts;
		ns.naks_tx += x->naks_tx;
		ns.naks_rx += x->naks_rx;
		ns.cnps_tx += x->cnps_tx;
		ns.rx_cnps += x->rx_cnps;
		ns.qp_errors += x->qp_errors;
		ns.tx_read_reqs += x->tx_read_reqs;
		ns.rx_ooo_accepted += x->rx_ooo_accepted;
		ns.access_errors += x->access_errors;
		ns.placed_bytes += x->placed_bytes;
	}
	for (uint32_t i = 0; i < n_flows; i++) {
		offered += fl[i].msg.bytes;
		if (fl[i].done) {
			n_done++;
			completed_bytes += fl[i].msg.bytes;
			if (fl[i].end_ps > last_end)
				last_end = fl[i].end_ps;
		}
	}
	RES_U64(r, RES_SCHEMA_VERSION, "schema_version");
	RES_STR(r, e->name, "name");
	RES_U64(r, e->seed, "seed");
	res_validity(r, f, &ns, stop_why);
	RES_BOOL(r, r->valid, "valid");
	RES_STR(r, r->reasons, "invalid_reasons");
	RES_STR(r, t->kind, "topology.kind");
	RES_U64(r, t->n_hosts, "topology.hosts");
	RES_U64(r, t->n_switches, "topology.switches");
	RES_U64(r, t->n_links, "topology.links");
	/* Observers (samplers, deadlock checks) do not extend the run. */
	RES_DBL(r, units_ps_to_ns(s->stopped ? s->now_ps : s->last_work_ps), "sim_time_ns");
	RES_U64(r, s->stopped, "stopped_at_stop_time");
	RES_U64(r, s->interrupted, "interrupted");
	RES_U64(r, s->n_events, "events");
	RES_U64(r, s->evq.n_pushed, "events_scheduled");
	RES_U64(r, s->n_hops, "packet_hops");
	RES_DBL(r, s->n_hops ? (double)s->evq.n_pushed / (double)s->n_hops : 0, "events_per_hop");
	RES_U64(r, drops_total, "drops.total");
	for (int d = 0; d < SW_DROP_N; d++)
		RES_U64(r, drops[d], "drops.%s", sw_drop_reason_name((enum sw_drop_reason)d));
	RES_U64(r, n_flows, "messages.total");
	RES_U64(r, n_done, "messages.completed");
	RES_U64(r, n_flows - n_done, "messages.incomplete");
	RES_U64(r, tg_n_failed(f->tg), "messages.failed");
	RES_U64(r, offered, "bytes.offered");
	RES_U64(r, completed_bytes, "bytes.completed");
	RES_U64(r, ns.rx_payload_bytes, "bytes.delivered");
	RES_DBL(r, last_end ? (double)completed_bytes * 8.0 / (double)last_end * 1e3 : 0,
		"goodput_gbps");
	RES_DBL(r, units_ps_to_ns(last_end), "last_completion_ns");
	RES_U64(r, ns.tx_data_pkts, "nic.data_packets");
	RES_U64(r, ns.tx_payload_bytes, "nic.payload_bytes_sent");
	RES_U64(r, ns.tx_acks, "nic.acks");
	RES_U64(r, ns.rx_out_of_seq, "nic.out_of_sequence");
	RES_U64(r, ns.rx_duplicate, "nic.duplicates");
	RES_U64(r, ns.rx_icrc_errors, "nic.icrc_errors");
	RES_U64(r, ns.rx_unknown_qp, "nic.unknown_qp");
	RES_U64(r, ns.rx_malformed, "nic.malformed");
	RES_U64(r, s->n_alloc_fail, "nic.pool_exhausted");
	RES_U64(r, ns.ack_alloc_fail, "nic.acks_not_sent");
	RES_U64(r, ns.retx_pkts, "nic.retransmitted");
	RES_U64(r, ns.timeouts, "nic.timeouts");
	RES_U64(r, ns.naks_tx, "nic.naks_sent");
	RES_U64(r, ns.naks_rx, "nic.naks_received");
	RES_U64(r, ns.cnps_tx, "nic.cnps_sent");
	RES_U64(r, ns.rx_cnps, "nic.cnps_received");
	RES_U64(r, ns.qp_errors, "nic.qp_errors");
	RES_U64(r, ns.tx_read_reqs, "nic.read_requests");
	RES_U64(r, ns.rx_ooo_accepted, "nic.out_of_order_accepted");
	RES_U64(r, ns.access_errors, "nic.access_errors");
	RES_U64(r, ns.placed_bytes, "nic.placed_bytes");
	if (res_cc_in_use(f->exp)) {
		/* Only when an algorithm other than none runs: a run without
		 * congestion control writes what it always wrote. */
		struct cc_stats cs = { 0 };

		for (uint32_t i = 0; i < f->topo->n_hosts; i++)
			nic_cc_stats(f->nics[i], &cs);
		RES_U64(r, cs.rate_cuts, "cc.rate_cuts");
		RES_U64(r, cs.rate_increases, "cc.rate_increases");
		RES_U64(r, cs.window_cuts, "cc.window_cuts");
		RES_U64(r, cs.window_increases, "cc.window_increases");
		RES_U64(r, cs.timer_events, "cc.timer_events");
		RES_U64(r, cs.int_hops, "cc.int_hops");
	}
	RES_U64(r, buf_peak, "switch.buffer_peak_bytes");
	RES_U64(r, q_peak, "switch.queue_peak_bytes");
	if (res_pfc(r, f) != 0 || res_workloads(r, f) != 0 || res_collectives(r, f) != 0 ||
	    res_training(r, f) != 0 || res_faults(r, f) != 0 || res_ib(r, f) != 0)
		return -ENOMEM;
	RES_U64(r, f->exp->engine.pool_pkts, "engine.packet_pool");
	RES_U64(r, s->pkts_peak, "engine.packets_peak");
	RES_U64(r, s->n_saturated, "engine.counters_saturated");
	if (res_flows(r, f) != 0)
		return -ENOMEM;
	/* Provenance, then the wall clock: the two blocks that end
	 * summary.json and that its digest leaves out (res_write_all). */
	RES_STR(r, FAB_VERSION, "provenance.fabemu_version");
	RES_STR(r, FAB_COMMIT, "provenance.commit");
	RES_STR(r, rte_version(), "provenance.dpdk_version");
	RES_STR(r, r->digest, "provenance.digest_sha256");
	RES_STR(r, "", "provenance.digest_files"); /* set by res_write_all */
	RES_DBL(r, f->setup_s, "wall_clock.setup_s");
	RES_DBL(r, f->wall_s, "wall_clock.run_s");
	RES_DBL(r, f->wall_s > 0 ? (double)s->n_events / f->wall_s : 0, "wall_clock.events_per_s");
	RES_DBL(r, f->wall_s > 0 ? (double)s->n_hops / f->wall_s : 0,
		"wall_clock.packet_hops_per_s");
	return 0;
}

void res_free(struct results *r)
{
	free(r->m);
	free(r->covers);
	memset(r, 0, sizeof(*r));
}

const struct res_metric *res_find(const struct results *r, const char *name)
{
	for (uint32_t i = 0; i < r->n; i++)
		if (strcmp(r->m[i].name, name) == 0)
			return &r->m[i];
	return NULL;
}

double res_value(const struct res_metric *m)
{
	return m->type == RES_U64 || m->type == RES_BOOL ? (double)m->u
	       : m->type == RES_DOUBLE			  ? m->d
							  : NAN;
}

/* Split a dotted name into components (modifies @buf). */
static int res_split(char *buf, char **parts, int max)
{
	int n = 0;

	for (char *p = strtok(buf, "."); p && n < max; p = strtok(NULL, "."))
		parts[n++] = p;
	return n;
}

/* Close @f, which was written: 0, or -errno when a write or the close
 * failed (a full disk, a file-size limit). */
static int res_fclose(FILE *f)
{
	int bad = ferror(f), e = errno;

	if (fclose(f) != 0)
		return -(errno ? errno : EIO);
	return bad ? -(e ? e : EIO) : 0;
}

/* summary.json's text into @f. */
static void res_render(const struct results *r, FILE *f)
{
	char cur_buf[RES_NAME_BYTES] = "", buf[RES_NAME_BYTES];
	char *cur[JSON_MAX_DEPTH], *parts[JSON_MAX_DEPTH];
	int n_cur = 0;
	struct json_w w;

	json_init(&w, f);
	json_obj_begin(&w, NULL);
	for (uint32_t i = 0; i < r->n; i++) {
		const struct res_metric *m = &r->m[i];
		int n, common = 0;

		strcpy(buf, m->name);
		n = res_split(buf, parts, JSON_MAX_DEPTH - 2);
		while (common < n_cur && common < n - 1 && strcmp(cur[common], parts[common]) == 0)
			common++;
		while (n_cur > common) {
			json_obj_end(&w);
			n_cur--;
		}
		/* Keep the open path in its own buffer: parts point into buf. */
		strcpy(cur_buf, m->name);
		res_split(cur_buf, cur, JSON_MAX_DEPTH - 2);
		for (; n_cur < n - 1; n_cur++)
			json_obj_begin(&w, parts[n_cur]);
		if (m->type == RES_U64)
			json_u64(&w, parts[n - 1], m->u);
		else if (m->type == RES_DOUBLE)
			json_double(&w, parts[n - 1], m->d);
		else if (m->type == RES_BOOL)
			json_bool(&w, parts[n - 1], m->u != 0);
		else
			json_str(&w, parts[n - 1], m->s);
	}
	while (n_cur-- > 0)
		json_obj_end(&w);
	json_obj_end(&w);
	json_finish(&w);
}

/* summary.json's text in a new buffer (*@len bytes, caller frees). */
static char *res_render_mem(const struct results *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	res_render(r, f);
	if (res_fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Write @n bytes of @text to @path, checked. 0 or -errno. */
static int res_write_text(const char *path, const char *text, size_t n)
{
	FILE *f = cfg_fopen_out(path);

	if (!f)
		return -errno;
	fwrite(text, 1, n, f);
	return res_fclose(f);
}

int res_write_summary(struct results *r, const char *dir)
{
	char path[4096], *text;
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (!(text = res_render_mem(r, &len)))
		return -ENOMEM;
	rc = res_write_text(path, text, len);
	free(text);
	return rc;
}

/* SHA-256 of the file @path as hex. 0 or -errno. */
static int res_file_sha256(const char *path, char hex[SHA256_HEX_BYTES])
{
	uint8_t buf[1 << 16], d[SHA256_DIGEST_BYTES];
	struct sha256 h;
	FILE *f = fopen(path, "rb");
	size_t n;
	int bad;

	if (!f)
		return -errno;
	sha256_init(&h);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&h, buf, n);
	bad = ferror(f);
	fclose(f);
	if (bad)
		return -EIO;
	sha256_final(&h, d);
	sha256_hex(d, hex);
	return 0;
}

static int res_str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The start of summary.json's provenance block: what the digest covers of
 * summary.json is the text before it (a line of its own, at the top level). */
static const char res_prov_line[] = "\n  \"provenance\": {\n";

int res_write_all(struct results *r, const struct fabric *f, const char *dir,
		  char err[CFG_ERR_BYTES])
{
	static const char *const tables[] = { "pfc.csv", "ports.csv", "resolved.yaml",
					       "series.csv", "rates.csv", "flows.csv",
					       "fct_bins.csv", "collectives.csv",
					       "training.csv", "faults.csv", "pfc_log.csv" };
	const char **files = malloc(sizeof(*files) *
				    (f->n_cap_paths + sizeof(tables) / sizeof(tables[0])));
	char path[4200], hex[SHA256_HEX_BYTES], *text = NULL, *at;
	uint32_t n_files = 0;
	size_t covers_len = 0;
	FILE *covers;
	uint8_t d[SHA256_DIGEST_BYTES];
	struct sha256 h;
	struct stat st;
	size_t len, pre;
	int rc, first = 0; /* the first table that could not be written */

	if (!files) {
		snprintf(err, CFG_ERR_BYTES, "out of memory writing results");
		return -ENOMEM;
	}
	/* A table that cannot be written is removed (no cut table is left
	 * to be read as whole), the run marked not valid, and the rest is
	 * still written: summary.json says what is missing. The first
	 * failure is returned. */
	{
		const struct {
			const char *name;
			bool wanted;
			int (*write)(const struct fabric *, const char *);
		} w[] = {
			{ "flows.csv", f->exp->flows_csv, res_write_flows },
			{ "fct_bins.csv", res_fct_bins_wanted(f), res_write_fct_bins },
			{ "collectives.csv", f->exp->n_colls > 0, res_write_collectives },
			{ "training.csv", f->exp->n_steps > 0, res_write_training },
			{ "faults.csv", f->exp->n_faults > 0, res_write_faults },
			{ "ports.csv", true, res_write_ports },
			{ "pfc.csv", true, res_write_pfc },
		};
		for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
			if (!w[i].wanted || (rc = w[i].write(f, dir)) == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, w[i].name);
			unlink(path);
			res_mark_invalid(r, "%s could not be written (%s) and was removed", w[i].name,
					 strerror(-rc));
			if (!first) {
				first = rc;
				snprintf(err, CFG_ERR_BYTES, "%.400s/%s: cannot write: %s", dir, w[i].name,
					 strerror(-rc));
			}
		}
	}
	/* What this run wrote (an earlier run's files were removed before it
	 * started), by relative path in byte order; summary.json sorts last. */
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, tables[i]);
		if (stat(path, &st) == 0)
			files[n_files++] = tables[i];
	}
	for (uint32_t i = 0; i < f->n_cap_paths; i++) {
		const char *slash = strrchr(f->cap_paths[i], '/');

		/* capture/NAME: the path relative to the folder. */
		files[n_files++] = f->cap_paths[i] + (slash - f->cap_paths[i]) - strlen("capture");
	}
	qsort(files, n_files, sizeof(files[0]), res_str_cmp);
	/* The digest: SHA-256 of the lines "HEX  PATH\n" that `sha256sum
	 * PATH...` prints for those files and summary.json, whose hash is of
	 * its text before the provenance block. */
	free(r->covers);
	r->covers = NULL;
	if (!(covers = open_memstream(&r->covers, &covers_len))) {
		rc = -ENOMEM;
		snprintf(err, CFG_ERR_BYTES, "out of memory writing results");
		goto out;
	}
	sha256_init(&h);
	for (uint32_t i = 0; i < n_files; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if ((rc = res_file_sha256(path, hex)) != 0) {
			snprintf(err, CFG_ERR_BYTES, "%.400s: cannot read back: %s", path, strerror(-rc));
			fclose(covers);
			goto out;
		}
		sha256_update(&h, hex, strlen(hex));
		sha256_update(&h, "  ", 2);
		sha256_update(&h, files[i], strlen(files[i]));
		sha256_update(&h, "\n", 1);
		fprintf(covers, "%s ", files[i]);
	}
	fputs("summary.json", covers);
	if (res_fclose(covers) != 0) {
		rc = -ENOMEM;
		snprintf(err, CFG_ERR_BYTES, "out of memory writing results");
		goto out;
	}
	for (uint32_t i = 0; i < r->n; i++)
		if (!strcmp(r->m[i].name, "provenance.digest_files"))
			r->m[i].s = r->covers;
	r->digest[0] = '\0';
	if (!(text = res_render_mem(r, &len)) || !(at = strstr(text, res_prov_line))) {
		free(text);
		rc = -ENOMEM;
		snprintf(err, CFG_ERR_BYTES, "%.400s/summary.json: out of memory", dir);
		goto out;
	}
	pre = (size_t)(at - text) + 1;
	{
		struct sha256 hs;

		sha256_init(&hs);
		sha256_update(&hs, text, pre);
		sha256_final(&hs, d);
		sha256_hex(d, hex);
	}
	free(text);
	sha256_update(&h, hex, strlen(hex));
	sha256_update(&h, "  summary.json\n", strlen("  summary.json\n"));
	sha256_final(&h, d);
	sha256_hex(d, r->digest);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (!(text = res_render_mem(r, &len))) {
		snprintf(err, CFG_ERR_BYTES, "%.400s: out of memory", path);
		rc = -ENOMEM;
		goto out;
	}
	{
		int w = res_write_text(path, text, len);

		rc = first;
		if (w != 0 && rc == 0) {
			rc = w;
			snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(-w));
		}
	}
	free(text);
out:
	free(files);
	return rc;
}

static const char *res_op_name(uint8_t op)
{
	return op == TG_OP_SEND		? "send"
	       : op == TG_OP_READ	? "read"
	       : op == TG_OP_WRITE_IMM ? "write-imm"
					: "write";
}

int res_write_flows(const struct fabric *f, const char *dir)
{
	uint32_t n;
	const struct tg_flow *fl = tg_flows(f->tg, &n);
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/flows.csv", dir);
	out = cfg_fopen_out(path);
	if (!out)
		return -errno;
	fputs("id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown,goodput_gbps,op,workload,status,"
	      "qp_retransmitted,qp_timeouts,qp_naks_received,qp_cnps_received\n",
	      out);
	for (uint32_t i = 0; i < n; i++) {
		const struct tg_flow *x = &fl[i];
		char sb[TOPO_EP_NAME_BYTES], db[TOPO_EP_NAME_BYTES];
		const char *src = topo_ep_name(f->topo, x->msg.src, sb);
		const char *dst = topo_ep_name(f->topo, x->msg.dst, db);

		fprintf(out, "%u,%s,%s,%llu,%.3f,", i, src, dst, (unsigned long long)x->msg.bytes,
			units_ps_to_ns(x->msg.start_ps));
		if (x->done)
			fprintf(out, "%.3f,%.3f,%.3f,%.6f,%.6f,", units_ps_to_ns(x->end_ps),
				res_flow_fct_ns(x), units_ps_to_ns(x->ideal_ps),
				(double)(x->end_ps - x->msg.start_ps) / (double)x->ideal_ps,
				res_flow_goodput_gbps(x));
		else
			fprintf(out, ",,%.3f,,,", units_ps_to_ns(x->ideal_ps));
		{
			/* The counters of the connection's QPs together (one, unless
			 * the workload has qps > 1). */
			struct nic_qp *const *qps;
			uint32_t nq = tg_flow_qps(f->tg, i, &qps);
			uint64_t retx = 0, tmo = 0, naks = 0, cnps = 0;

			for (uint32_t q = 0; q < nq; q++) {
				const struct nic_qp_stats *qs = nic_qp_stats(qps[q]);

				retx += qs->retx_pkts;
				tmo += qs->timeouts;
				naks += qs->naks_rx;
				cnps += qs->cnps_rx;
			}
			fprintf(out, "%s,%s,%s,%llu,%llu,%llu,%llu\n", res_op_name(x->msg.op),
				f->exp->workloads[x->msg.workload].name,
				x->done ? "complete" : x->status == TG_FAILED ? "failed" : "incomplete",
				(unsigned long long)retx, (unsigned long long)tmo,
				(unsigned long long)naks, (unsigned long long)cnps);
		}
	}
	return res_fclose(out);
}

int res_write_ports(const struct fabric *f, const char *dir)
{
	const struct topo *t = f->topo;
	double sim_s = units_ps_to_s(f->sim.stopped ? f->sim.now_ps : f->sim.last_work_ps);
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/ports.csv", dir);
	out = cfg_fopen_out(path);
	if (!out)
		return -errno;
	fputs("node,port,peer,rate_gbps,tx_pkts,tx_bytes,rx_pkts,rx_bytes,utilisation,max_queue_bytes,"
	      "lost_pkts,drops,drops_buffer,drops_threshold,drops_headroom,drops_watchdog,ecn_marked,"
	      "pfc_xoff_sent,pfc_xon_sent,pfc_xoff_received,paused_ns",
	      out);
	if (res_ib_on(f))
		res_ib_port_header(out);
	fputc('\n', out);
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *lk = &t->links[l];

		for (int s = 0; s < 2; s++) {
			struct port *p = fabric_port((struct fabric *)f, lk->node[s], lk->port[s]);

			const struct topo_node *nd = &t->nodes[lk->node[s]];
			struct res_pfc_sum pf = { 0 };
			struct port_stats st;
			uint64_t drops = 0, marked = 0, by[SW_DROP_N] = { 0 };

			res_pfc_port(&pf, p, f->sim.now_ps);
			port_stats(p, &st);
			if (nd->kind == TOPO_SWITCH) {
				const struct sw_port_stats *ps = sw_port_stats(f->sws[nd->index], lk->port[s]);

				for (int d = 0; d < SW_DROP_N; d++) {
					drops += ps->drops[d];
					by[d] = ps->drops[d];
				}
				marked = ps->ecn_marked;
			}
			fprintf(out, "%s,%u,%s:%u,%.3f,%llu,%llu,%llu,%llu,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.3f",
				nd->name, lk->port[s], t->nodes[lk->node[1 - s]].name,
				lk->port[1 - s], (double)lk->rate_bps / 1e9,
				(unsigned long long)st.tx_pkts, (unsigned long long)st.tx_bytes,
				(unsigned long long)st.rx_pkts, (unsigned long long)st.rx_bytes,
				sim_s > 0 ? units_ps_to_s(st.busy_ps) / sim_s : 0.0,
				(unsigned long long)st.max_queue_bytes,
				(unsigned long long)st.lost_pkts, (unsigned long long)drops,
				(unsigned long long)by[SW_DROP_BUFFER], (unsigned long long)by[SW_DROP_THRESHOLD],
				(unsigned long long)by[SW_DROP_HEADROOM], (unsigned long long)by[SW_DROP_WATCHDOG],
				(unsigned long long)marked, (unsigned long long)pf.xoff_tx,
				(unsigned long long)pf.xon_tx, (unsigned long long)pf.xoff_rx,
				units_ps_to_ns(pf.paused_ps));
			if (res_ib_on(f))
				res_ib_port_row(f, p, nd, lk->port[s], out);
			fputc('\n', out);
		}
	}
	return res_fclose(out);
}

static double res_num(const struct results *r, const char *name)
{
	const struct res_metric *m = res_find(r, name);

	return m ? res_value(m) : NAN;
}

int res_write_pfc(const struct fabric *f, const char *dir)
{
	const struct topo *t = f->topo;
	char path[4096];
	FILE *out;

	if (!f->exp->sw.pfc.lossless_prio)
		return 0;
	snprintf(path, sizeof(path), "%s/pfc.csv", dir);
	out = cfg_fopen_out(path);
	if (!out)
		return -errno;
	fputs("node,port,priority,xoff_sent,xon_sent,xoff_received,xon_received,paused_ns\n", out);
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *lk = &t->links[l];

		for (int s = 0; s < 2; s++) {
			struct port *p = fabric_port((struct fabric *)f, lk->node[s], lk->port[s]);
			const struct port_pfc *pf = p->pfc;

			for (int pr = 0; pf && pr < PKT_N_PRIO; pr++) {
				uint64_t paused = pf->stats.paused_ps[pr];

				if (pf->paused_prio & (1u << pr))
					paused += f->sim.now_ps - pf->since_ps[pr];
				if (!(pf->stats.xoff_tx[pr] | pf->stats.xon_tx[pr] | pf->stats.xoff_rx[pr] |
				      pf->stats.xon_rx[pr] | paused))
					continue;
				fprintf(out, "%s,%u,%d,%llu,%llu,%llu,%llu,%.3f\n", t->nodes[lk->node[s]].name,
					lk->port[s], pr, (unsigned long long)pf->stats.xoff_tx[pr],
					(unsigned long long)pf->stats.xon_tx[pr],
					(unsigned long long)pf->stats.xoff_rx[pr],
					(unsigned long long)pf->stats.xon_rx[pr], units_ps_to_ns(paused));
			}
		}
	}
	return res_fclose(out);
}

void res_print_human(const struct results *r, const struct fabric *f, FILE *out)
{
#define RV(name) res_num(r, name)
	fprintf(out, "%s: %u hosts, %u switches (%s), seed %llu\n", f->exp->name, f->topo->n_hosts,
		f->topo->n_switches, f->topo->kind, (unsigned long long)f->exp->seed);
	fprintf(out,
		"  simulated %.3f us in %.2f s wall (set-up %.2f s): %.0f events, %.0f packet hops "
		"(%.2f M hops/s)\n",
		RV("sim_time_ns") / 1e3, f->wall_s, f->setup_s, RV("events"), RV("packet_hops"),
		RV("wall_clock.packet_hops_per_s") / 1e6);
	fprintf(out, "  messages: %.0f of %.0f complete, %.0f bytes delivered, goodput %.2f Gb/s\n",
		RV("messages.completed"), RV("messages.total"), RV("bytes.delivered"),
		RV("goodput_gbps"));
	if (RV("messages.completed") > 0)
		fprintf(out, "  FCT: p50 %.2f us, p99 %.2f us; slowdown p50 %.3f, p99 %.3f, max %.3f\n",
			RV("flows.fct_ns.p50") / 1e3, RV("flows.fct_ns.p99") / 1e3,
			RV("flows.slowdown.p50"), RV("flows.slowdown.p99"), RV("flows.slowdown.max"));
	fprintf(out, "  drops: %.0f (buffer %.0f), peak switch buffer %.0f bytes\n", RV("drops.total"),
		RV("drops.buffer"), RV("switch.buffer_peak_bytes"));
	res_print_collectives(f, out);
	res_print_training(f, out);
	res_print_faults(f, out);
	if (RV("messages.incomplete") > 0)
		fprintf(out, "  WARNING: %.0f messages did not complete%s\n", RV("messages.incomplete"),
			f->deadlock_stopped ? " (PFC deadlock)"
			: f->sim.interrupted ? " (run interrupted)"
			: f->no_progress_stopped ? " (no progress: run stopped)"
			: f->sim.stuck ? " (virtual time stuck: run stopped)"
			: f->sim.horizon ? " (clock's horizon reached)"
			: f->sim.stopped    ? " before stop_time"
					    : " (their QPs failed: retries exhausted)");
	if (RV("nic.retransmitted") > 0 || RV("nic.qp_errors") > 0)
		fprintf(out, "  loss recovery: %.0f packets retransmitted, %.0f timeouts, %.0f NAKs; %.0f QPs failed\n",
			RV("nic.retransmitted"), RV("nic.timeouts"), RV("nic.naks_sent"), RV("nic.qp_errors"));
	if (RV("pfc.enabled") > 0)
		fprintf(out, "  PFC: %.0f XOFF sent, %.0f XON sent, ports paused %.3f us in all (longest %.3f us)\n",
			RV("pfc.xoff_sent"), RV("pfc.xon_sent"), RV("pfc.paused_ns_total") / 1e3,
			RV("pfc.paused_ns_max") / 1e3);
	if (RV("ecn.marked") > 0)
		fprintf(out, "  ECN: %.0f frames marked CE\n", RV("ecn.marked"));
	res_print_ib(r, f, out);
	if (RV("pfc.deadlocks") > 0)
		fprintf(out, "  DEADLOCK: cyclic buffer dependency %s at %.3f us%s\n",
			res_find(r, "pfc.deadlock_cycle")->s, RV("pfc.deadlock_at_ns") / 1e3,
			RV("pfc.deadlock_stopped_run") > 0 ? "; no watchdog, run stopped" : "");
	if (RV("nic.pool_exhausted") > 0 || RV("nic.acks_not_sent") > 0)
		fprintf(out, "  WARNING: the packet pool ran dry (%.0f data packets delayed, %.0f ACKs lost); raise engine.packet_pool (peak use %.0f of %.0f)\n",
			RV("nic.pool_exhausted"), RV("nic.acks_not_sent"), RV("engine.packets_peak"),
			RV("engine.packet_pool"));
#undef RV
}
