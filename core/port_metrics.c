/* The port's metrics: rows of struct port_stats and struct port_pfc_sum
 * for summary.json (summed, or the largest, over ports) and for ports.csv
 * (schema: docs/results.md, "Links, ECN and PFC", "ports.csv"). */
#include "pkt_ib.h"
#include "port_credit.h"
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

void port_credit_sum(const struct port *p, uint64_t now_ps, struct port_credit_sum *out)
{
	struct port_credit_stats st;

	*out = (struct port_credit_sum){ 0 };
	if (!port_credit_on(p))
		return;
	port_credit_stats_at(p, now_ps, &st);
	for (uint8_t vl = 0; vl < PORT_N_TC; vl++) {
		uint64_t held = (uint64_t)st.max_held_blocks[vl] * PKT_IB_BLOCK_BYTES;

		out->fc_tx += st.fc_tx[vl];
		out->fc_rx += st.fc_rx[vl];
		out->starved_ps += st.credit_starved_ps[vl];
		out->overruns += st.credit_overruns[vl];
		out->blocks_tx += st.blocks_tx[vl];
		out->granted_bytes += port_credit_buffer_bytes(p, vl);
		if (held > out->max_held_bytes)
			out->max_held_bytes = held;
	}
	out->starved_max_ps = out->starved_ps;
}

static void port_credit_enabled(const void *stats, const struct metric_ctx *ctx,
				struct metric_val *v)
{
	(void)stats, (void)ctx;
	v->u = 1;
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

#define CR_ROW(nm, un, rd, ty, field, pr, dc)                                       \
	{ .name = (nm), .unit = (un), .read = (rd), .type = (ty),                    \
	  .off = offsetof(struct port_credit_sum, field), .prec = (pr), .doc = (dc) }

static const struct metric port_credit_rows[] = {
	METRIC_FN("credit.enabled", "1", METRIC_U64, port_credit_enabled,
		  "credit flow control on every port"),
	CR_ROW("credit.fc_sent", "—", METRIC_SUM, METRIC_U64, fc_tx, 0,
	       "flow-control packets sent, all ports and VLs"),
	CR_ROW("credit.fc_received", "—", METRIC_SUM, METRIC_U64, fc_rx, 0,
	       "flow-control packets received"),
	CR_ROW("credit.blocks_sent", "—", METRIC_SUM, METRIC_U64, blocks_tx, 0,
	       "64-byte blocks sent, all ports and VLs"),
	CR_ROW("credit.max_held_bytes", "bytes", METRIC_MAX, METRIC_U64, max_held_bytes, 0,
	       "the most any port's VL held at once"),
	CR_ROW("credit.starved_ns_total", "ns", METRIC_SUM, METRIC_PS_NS, starved_ps, 0,
	       "time VLs had a head packet that lacked credits, summed"),
	CR_ROW("credit.starved_ns_max", "ns", METRIC_MAX, METRIC_PS_NS, starved_max_ps, 0,
	       "the most starved port's total"),
	CR_ROW("credit.overruns", "—", METRIC_SUM, METRIC_U64, overruns, 0,
	       "arrivals beyond a VL's buffer: always 0"),
};

static const struct metric port_granted_rows[] = {
	CR_ROW("credit.granted_bytes_max", "bytes", METRIC_MAX, METRIC_U64, granted_bytes, 0,
	       "the largest sum of VL buffers one switch grants"),
};

static const struct metric port_credit_row_rows[] = {
	CR_ROW("credit_starved_ns", "ns", METRIC_ONE, METRIC_PS_NS, starved_ps, 3,
	       "InfiniBand: time this port's VLs lacked credits"),
	CR_ROW("fc_sent", "—", METRIC_ONE, METRIC_U64, fc_tx, 0,
	       "InfiniBand: flow-control packets this port sent"),
};

const struct metric_table port_metrics_credit = METRIC_TABLE("port", port_credit_rows);
const struct metric_table port_metrics_granted = METRIC_TABLE("port", port_granted_rows);
const struct metric_table port_metrics_credit_row = METRIC_TABLE("port", port_credit_row_rows);

const struct metric_line port_line_credit = {
	.when = "credit.enabled",
	.fmt = "  credits: %.0f flow-control packets, VLs starved %.3f us in all (longest port "
	       "%.3f us), %.0f overruns\n",
	.arg = { "credit.fc_sent", "credit.starved_ns_total", "credit.starved_ns_max",
		 "credit.overruns" },
	.div = { 0, 1e3, 1e3, 0 },
};

const struct metric_line port_line_pfc = {
	.when = "pfc.enabled",
	.fmt = "  PFC: %.0f XOFF sent, %.0f XON sent, ports paused %.3f us in all (longest %.3f us)\n",
	.arg = { "pfc.xoff_sent", "pfc.xon_sent", "pfc.paused_ns_total", "pfc.paused_ns_max" },
	.div = { 0, 0, 1e3, 1e3 },
};
