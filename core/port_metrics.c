/* The port's metrics: rows of struct port_stats and struct port_pfc_sum
 * for summary.json (summed, or the largest, over ports) and for ports.csv
 * (schema: docs/results.md, "Links, ECN and PFC", "ports.csv"). */
#include "port_metrics.h"
#include "port_pfc.h"
#include "units.h"

void port_pfc_sum(const struct port *p, uint64_t now_ps, struct port_pfc_sum *out)
{
	const struct port_pfc *f = p->pfc;

	*out = (struct port_pfc_sum){ 0 };
	for (int pr = 0; f && pr < PKT_N_PRIO; pr++) {
		out->xoff_tx += f->stats.xoff_tx[pr];
		out->xon_tx += f->stats.xon_tx[pr];
		out->xoff_rx += f->stats.xoff_rx[pr];
		out->xon_rx += f->stats.xon_rx[pr];
		out->paused_ps += f->stats.paused_ps[pr];
		if (f->paused_prio & (1u << pr))
			out->paused_ps += now_ps - f->since_ps[pr]; /* still paused at the end */
	}
	out->paused_max_ps = out->paused_ps;
}

static void port_utilisation(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct port_stats *s = stats;

	v->d = ctx->sim_s > 0 ? units_ps_to_s(s->busy_ps) / ctx->sim_s : 0.0;
}

#define PFC_ROW(nm, un, rd, ty, field, pr, dc)                                      \
	{ .name = (nm), .unit = (un), .read = (rd), .type = (ty),                    \
	  .off = offsetof(struct port_pfc_sum, field), .prec = (pr), .doc = (dc) }
#define PORT_ROW(name, unit, field, doc) \
	METRIC_FIELD(name, unit, METRIC_ONE, struct port_stats, field, doc)

static const struct metric port_queue_rows[] = {
	METRIC_FIELD("switch.queue_peak_bytes", "bytes", METRIC_MAX, struct port_stats,
		     max_queue_bytes, "highest occupancy of any one switch egress port"),
};

static const struct metric port_lost_rows[] = {
	METRIC_FIELD("links.lost_pkts", "—", METRIC_SUM, struct port_stats, lost_pkts,
		     "frames lost on links, every cause"),
};

static const struct metric port_pfc_rows[] = {
	PFC_ROW("pfc.xoff_sent", "—", METRIC_SUM, METRIC_U64, xoff_tx, 0, "PFC pauses sent"),
	PFC_ROW("pfc.xon_sent", "—", METRIC_SUM, METRIC_U64, xon_tx, 0, "PFC resumes sent"),
	PFC_ROW("pfc.xoff_received", "—", METRIC_SUM, METRIC_U64, xoff_rx, 0, "PFC pauses received"),
	PFC_ROW("pfc.xon_received", "—", METRIC_SUM, METRIC_U64, xon_rx, 0, "PFC resumes received"),
	PFC_ROW("pfc.paused_ns_total", "ns", METRIC_SUM, METRIC_PS_NS, paused_ps, 0,
		"time ports spent paused, over ports and priorities"),
	PFC_ROW("pfc.paused_ns_max", "ns", METRIC_MAX, METRIC_PS_NS, paused_max_ps, 0,
		"the most paused port's total"),
};

const struct metric_table port_metrics_queue_peak = METRIC_TABLE("port", port_queue_rows);
const struct metric_table port_metrics_lost = METRIC_TABLE("port", port_lost_rows);
const struct metric_table port_metrics_pfc = METRIC_TABLE("port", port_pfc_rows);

static const struct metric port_row_rows[] = {
	PORT_ROW("tx_pkts", "—", tx_pkts, "frames this port sent"),
	PORT_ROW("tx_bytes", "bytes", tx_bytes, "frame bytes this port sent, FCS included"),
	PORT_ROW("rx_pkts", "—", rx_pkts, "frames that arrived at this port"),
	PORT_ROW("rx_bytes", "bytes", rx_bytes, "their frame bytes"),
	{ .name = "utilisation", .unit = "0..1", .read = METRIC_ONE, .type = METRIC_DBL,
	  .get = port_utilisation, .prec = 6, .doc = "time spent serialising / sim_time_ns" },
	PORT_ROW("max_queue_bytes", "bytes", max_queue_bytes, "peak of the port's TC queues, summed"),
	PORT_ROW("lost_pkts", "—", lost_pkts, "frames this port sent that did not arrive"),
};

static const struct metric port_pfc_row_rows[] = {
	PFC_ROW("pfc_xoff_sent", "—", METRIC_ONE, METRIC_U64, xoff_tx, 0, "pauses this port sent"),
	PFC_ROW("pfc_xon_sent", "—", METRIC_ONE, METRIC_U64, xon_tx, 0, "resumes this port sent"),
	PFC_ROW("pfc_xoff_received", "—", METRIC_ONE, METRIC_U64, xoff_rx, 0,
		"pauses this port received"),
	PFC_ROW("paused_ns", "ns", METRIC_ONE, METRIC_PS_NS, paused_ps, 3,
		"time this port's egress was paused"),
};

const struct metric_table port_metrics_row = METRIC_TABLE("port", port_row_rows);
const struct metric_table port_metrics_pfc_row = METRIC_TABLE("port", port_pfc_row_rows);

const struct metric_line port_line_pfc = {
	.when = "pfc.enabled",
	.fmt = "  PFC: %.0f XOFF sent, %.0f XON sent, ports paused %.3f us in all (longest %.3f us)\n",
	.arg = { "pfc.xoff_sent", "pfc.xon_sent", "pfc.paused_ns_total", "pfc.paused_ns_max" },
	.div = { 0, 0, 1e3, 1e3 },
};
