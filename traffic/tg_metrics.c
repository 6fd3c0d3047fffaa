/* The traffic's metrics: totals of the messages of the run, of each
 * workload and of each flows.csv column, and the rows that read them
 * (schema: docs/results.md, "Messages and bytes", "Per workload",
 * "Per-message statistics"). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tg_int.h"
#include "tg_metrics.h"
#include "units.h"

const char *const tg_col_names[TG_N_COLS] = { "fct_ns", "slowdown", "goodput_gbps", "bytes" };
const char *const tg_col_units[TG_N_COLS] = { "ns", "—", "Gb/s", "bytes" };

double tg_flow_fct_ns(const struct tg_flow *f)
{
	return units_ps_to_ns(f->end_ps - f->msg.start_ps);
}

double tg_flow_goodput_gbps(const struct tg_flow *f)
{
	uint64_t fct = f->end_ps - f->msg.start_ps;

	return fct ? (double)f->msg.bytes * 8.0 / (double)fct * 1e3 : NAN;
}

/* The earliest start of stream @s's records as listed ones would have
 * them: a message's record starts when it is posted, or at the workload's
 * start while it is not, so the first post once all are posted, else the
 * start (no post comes before it). */
static uint64_t tg_stream_first_ps(const struct tg_stream *s, const struct tg_srt *r)
{
	return r->posted == s->msgs ? r->first_post_ps : s->proto.start_ps;
}

void tg_totals(const struct tg *t, struct tg_totals *out)
{
	uint32_t n;
	const struct tg_flow *fl = tg_flows(t, &n);

	*out = (struct tg_totals){ .messages = n, .failed = tg_n_failed(t),
				   .first_start_ps = UINT64_MAX };
	for (uint32_t i = 0; i < n; i++) {
		if (unlikely(fl[i].status == TG_REMOTE)) {
			out->messages--; /* another program's (tg_set_live) */
			continue;
		}
		out->offered += fl[i].msg.bytes;
		if (fl[i].msg.start_ps < out->first_start_ps)
			out->first_start_ps = fl[i].msg.start_ps;
		if (!fl[i].done)
			continue;
		out->completed++;
		out->completed_bytes += fl[i].msg.bytes;
		if (fl[i].end_ps > out->last_end_ps)
			out->last_end_ps = fl[i].end_ps;
	}
	/* Streamed collectives: their counts (tg_stream_first_ps). */
	for (uint32_t i = 0; t->st && i < t->st->n; i++) {
		const struct tg_stream *s = &t->st->v[i];
		const struct tg_srt *r = &t->st->rt[i];

		out->messages += s->msgs;
		out->offered += s->bytes;
		if (s->msgs && tg_stream_first_ps(s, r) < out->first_start_ps)
			out->first_start_ps = tg_stream_first_ps(s, r);
		out->completed += r->completed;
		out->completed_bytes += r->done_bytes;
		if (r->completed && r->last_ps > out->last_end_ps)
			out->last_end_ps = r->last_ps;
	}
	if (out->first_start_ps == UINT64_MAX && !out->messages)
		out->first_start_ps = 0;
	out->incomplete = out->messages - out->completed;
}

void tg_wl_totals(const struct tg *t, uint16_t workload, struct tg_wl_totals *out)
{
	uint32_t n;
	const struct tg_flow *fl = tg_flows(t, &n);

	*out = (struct tg_wl_totals){ .first_ps = UINT64_MAX };
	for (uint32_t i = 0; i < n; i++) {
		if (fl[i].msg.workload != workload || fl[i].status == TG_REMOTE)
			continue;
		out->messages++;
		if (fl[i].msg.start_ps < out->first_ps)
			out->first_ps = fl[i].msg.start_ps;
		if (!fl[i].done)
			continue;
		out->completed++;
		out->bytes += fl[i].msg.bytes;
		if (fl[i].end_ps > out->last_ps)
			out->last_ps = fl[i].end_ps;
		if (fl[i].end_ps - fl[i].msg.start_ps > out->worst_ps)
			out->worst_ps = fl[i].end_ps - fl[i].msg.start_ps;
	}
	for (uint32_t i = 0; t->st && i < t->st->n; i++) {
		const struct tg_stream *s = &t->st->v[i];
		const struct tg_srt *r = &t->st->rt[i];

		if (s->proto.workload != workload)
			continue;
		out->messages += s->msgs;
		if (s->msgs && tg_stream_first_ps(s, r) < out->first_ps)
			out->first_ps = tg_stream_first_ps(s, r);
		out->completed += r->completed;
		out->bytes += r->done_bytes;
		if (r->completed && r->last_ps > out->last_ps)
			out->last_ps = r->last_ps;
		if (r->worst_ps > out->worst_ps)
			out->worst_ps = r->worst_ps;
	}
}

/* Column @col of streamed message @d. */
static double tg_sdone_value(const struct tg_sdone *d, int col)
{
	switch (col) {
	case 0:
		return units_ps_to_ns(d->fct_ps);
	case 1:
		return (double)d->fct_ps / (double)d->ideal_ps;
	case 2:
		return d->fct_ps ? (double)d->bytes * 8.0 / (double)d->fct_ps * 1e3 : NAN;
	default:
		return (double)d->bytes;
	}
}

static int tg_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted @v (n > 0). */
static double tg_pct(const double *v, uint64_t n, double p)
{
	uint64_t rank = (uint64_t)ceil(p * (double)n);

	return v[(rank < 1 ? 1 : rank) - 1];
}

static double tg_col_value(const struct tg_flow *f, int col)
{
	switch (col) {
	case 0:
		return tg_flow_fct_ns(f);
	case 1:
		return (double)(f->end_ps - f->msg.start_ps) / (double)f->ideal_ps;
	case 2:
		return tg_flow_goodput_gbps(f);
	default:
		return (double)f->msg.bytes;
	}
}

int tg_col_stats(const struct tg *t, int col, struct tg_col_stats *out)
{
	uint32_t n;
	const struct tg_flow *fl = tg_flows(t, &n);
	uint64_t sn = 0, k = 0;
	double *v, sum = 0;

	for (uint32_t p = 0; t->st && p < t->st->n_pools; p++)
		sn += t->st->pool[p].n_done;
	if (!(v = malloc(sizeof(*v) * (n + sn ? n + sn : 1))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (fl[i].done)
			v[k++] = tg_col_value(&fl[i], col);
	/* Sorted before they are summed: the order of the partitions'
	 * records does not show. */
	for (uint32_t p = 0; t->st && p < t->st->n_pools; p++)
		for (uint64_t i = 0; i < t->st->pool[p].n_done; i++)
			v[k++] = tg_sdone_value(&t->st->pool[p].done[i], col);
	qsort(v, k, sizeof(*v), tg_dbl_cmp);
	for (uint64_t i = 0; i < k; i++)
		sum += v[i];
	*out = (struct tg_col_stats){
		.count = k, .sum = sum,
		.min = k ? v[0] : NAN, .mean = k ? sum / (double)k : NAN,
		.p50 = k ? tg_pct(v, k, 0.50) : NAN, .p90 = k ? tg_pct(v, k, 0.90) : NAN,
		.p95 = k ? tg_pct(v, k, 0.95) : NAN, .p99 = k ? tg_pct(v, k, 0.99) : NAN,
		.p999 = k ? tg_pct(v, k, 0.999) : NAN, .max = k ? v[k - 1] : NAN,
	};
	free(v);
	return 0;
}

static void tg_goodput(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct tg_totals *t = stats;

	(void)ctx;
	/* Over the active interval, first start to last completion: traffic
	 * that starts late (an ns-3 flow file's flows at 2.0 s) is not
	 * diluted by the idle time before it. */
	v->d = t->last_end_ps > t->first_start_ps
		       ? (double)t->completed_bytes * 8.0 /
				 (double)(t->last_end_ps - t->first_start_ps) * 1e3
		       : 0;
}

static void tg_wl_goodput(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct tg_wl_totals *t = stats;

	(void)ctx;
	v->d = t->completed && t->last_ps > t->first_ps
		       ? (double)t->bytes * 8.0 / (double)(t->last_ps - t->first_ps) * 1e3
		       : 0;
}

#define TG_ONE(nm, un, ty, st, field, dc)                                          \
	{ .name = (nm), .unit = (un), .read = METRIC_ONE, .type = (ty),             \
	  .off = offsetof(st, field), .doc = (dc) }
#define TG_TOT(name, unit, field, doc) TG_ONE(name, unit, METRIC_U64, struct tg_totals, field, doc)
#define TG_COL(stat, field, doc) \
	TG_ONE("flows.NAME." stat, "as NAME", METRIC_DBL, struct tg_col_stats, field, doc)

static const struct metric tg_msg_rows[] = {
	TG_TOT("messages.total", "—", messages, "messages the traffic section expanded to"),
	TG_TOT("messages.completed", "—", completed, "messages whose sender saw the completion"),
	TG_TOT("messages.incomplete", "—", incomplete, "total − completed"),
	TG_TOT("messages.failed", "—", failed, "of the incomplete ones, those whose QP failed"),
	TG_TOT("bytes.offered", "bytes", offered, "sum of all message sizes"),
	TG_TOT("bytes.completed", "bytes", completed_bytes, "sum of the sizes of completed messages"),
};

static const struct metric tg_goodput_rows[] = {
	METRIC_FN("goodput_gbps", "Gb/s", METRIC_DBL, tg_goodput,
		  "bytes.completed × 8 over the active interval, first start to last completion"),
	TG_ONE("last_completion_ns", "ns", METRIC_PS_NS, struct tg_totals, last_end_ps,
	       "time of the last completion"),
};

static const struct metric tg_wl_rows[] = {
	TG_ONE("workloads.NAME.messages", "—", METRIC_U64, struct tg_wl_totals, messages,
	       "messages of the workload"),
	TG_ONE("workloads.NAME.completed", "—", METRIC_U64, struct tg_wl_totals, completed,
	       "of which completed"),
	METRIC_FN("workloads.NAME.goodput_gbps", "Gb/s", METRIC_DBL, tg_wl_goodput,
		  "completed bytes × 8 over its span"),
	TG_ONE("workloads.NAME.fct_ns_max", "ns", METRIC_PS_NS, struct tg_wl_totals, worst_ps,
	       "its slowest completed message"),
};

static const struct metric tg_col_rows[] = {
	TG_ONE("flows.NAME.count", "—", METRIC_U64, struct tg_col_stats, count,
	       "completed messages"),
	TG_COL("min", min, "smallest value"),
	TG_COL("mean", mean, "arithmetic mean"),
	TG_COL("p50", p50, "median, by nearest rank"),
	TG_COL("p90", p90, "90th percentile, by nearest rank"),
	TG_COL("p95", p95, "95th percentile, by nearest rank"),
	TG_COL("p99", p99, "99th percentile, by nearest rank"),
	TG_COL("p999", p999, "99.9th percentile, by nearest rank"),
	TG_COL("max", max, "largest value"),
	TG_COL("sum", sum, "sum of the values"),
};

const struct metric_table tg_metrics_msgs = METRIC_TABLE("traffic", tg_msg_rows);
const struct metric_table tg_metrics_goodput = METRIC_TABLE("traffic", tg_goodput_rows);
const struct metric_table tg_metrics_workload = METRIC_TABLE("traffic", tg_wl_rows);
const struct metric_table tg_metrics_col = METRIC_TABLE("traffic", tg_col_rows);

const struct metric_line tg_line_messages = {
	.fmt = "  messages: %.0f of %.0f complete, %.0f bytes delivered, goodput %.2f Gb/s\n",
	.arg = { "messages.completed", "messages.total", "bytes.delivered", "goodput_gbps" },
};

const struct metric_line tg_line_fct = {
	.when = "messages.completed",
	.fmt = "  FCT: p50 %.2f us, p99 %.2f us; slowdown p50 %.3f, p99 %.3f, max %.3f\n",
	.arg = { "flows.fct_ns.p50", "flows.fct_ns.p99", "flows.slowdown.p50",
		 "flows.slowdown.p99", "flows.slowdown.max" },
	.div = { 1e3, 1e3 },
};
