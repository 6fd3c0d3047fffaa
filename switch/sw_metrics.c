/* The switch's metrics: rows of struct sw_stats, summed (or the largest)
 * over the switches, and of struct sw_port_stats for ports.csv (schema:
 * docs/results.md, "Drops", "Switches", "ports.csv"). */
#include "sw.h"
#include "sw_metrics.h"

#define SW_SUM(name, field, doc) METRIC_FIELD(name, "—", METRIC_SUM, struct sw_stats, field, doc)
#define SWP(name, field, doc) METRIC_FIELD(name, "—", METRIC_ONE, struct sw_port_stats, field, doc)

/* The rows drops.REASON follow enum sw_drop_reason (tests/test_metrics.c). */
_Static_assert(SW_DROP_N == 7, "a drop reason without its drops.* row");

static void sw_drops_total(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct sw_stats *s = stats;

	(void)ctx;
	for (int d = 0; d < SW_DROP_N; d++)
		v->u += s->drops[d];
}

static void sw_port_drops(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct sw_port_stats *s = stats;

	(void)ctx;
	for (int d = 0; d < SW_DROP_N; d++)
		v->u += s->drops[d];
}

static const struct metric sw_drop_rows[] = {
	METRIC_FN("drops.total", "—", METRIC_U64, sw_drops_total, "sum of the reasons below"),
	SW_SUM("drops.buffer", drops[SW_DROP_BUFFER], "buffer (or its shared pool) full"),
	SW_SUM("drops.no_route", drops[SW_DROP_NO_ROUTE], "no route to the destination"),
	SW_SUM("drops.ttl", drops[SW_DROP_TTL], "the IPv4 TTL reached 0"),
	SW_SUM("drops.parse", drops[SW_DROP_PARSE], "not an IPv4 frame, or too short"),
	SW_SUM("drops.threshold", drops[SW_DROP_THRESHOLD], "a lossy queue over its threshold"),
	SW_SUM("drops.headroom", drops[SW_DROP_HEADROOM], "a lossless frame found headroom full"),
	SW_SUM("drops.watchdog", drops[SW_DROP_WATCHDOG], "dropped by the PFC watchdog"),
};

static const struct metric sw_buffer_rows[] = {
	METRIC_FIELD("switch.buffer_peak_bytes", "bytes", METRIC_MAX, struct sw_stats,
		     buffer_peak_bytes, "highest shared-buffer occupancy of any one switch"),
};

static const struct metric sw_ecn_rows[] = {
	SW_SUM("ecn.marked", ecn_marked, "frames a switch marked CE"),
};

static const struct metric sw_storm_rows[] = {
	SW_SUM("pfc.storms", storms, "queues the PFC watchdog declared stormed"),
};

static const struct metric sw_fecn_rows[] = {
	SW_SUM("fecn.marked", fecn_marked, "packets a switch marked FECN"),
};

#define SW_AGG(name, field, doc) METRIC_FIELD(name, "—", METRIC_SUM, struct sw_agg_stats, field, doc)

static const struct metric sw_agg_rows[] = {
	SW_AGG("in_network.contributions", contributions, "packets the switches reduced"),
	SW_AGG("in_network.slots", slots, "slots whose packets left reduced"),
	SW_AGG("in_network.errors", errors, "contributions lost or out of place"),
};

static const struct metric sw_uet_rows[] = {
	SW_SUM("uet.trimmed", trims, "data packets switches trimmed (headers kept, payload cut) instead of dropping"),
	SW_SUM("uet.trimmed_last_hop", trims_last, "of those, trimmed on the last hop (toward their receiver: DSCP_TRIMMED_LASTHOP)"),
};

const struct metric_table sw_metrics_agg = METRIC_TABLE("switch", sw_agg_rows);
const struct metric_table sw_metrics_uet = METRIC_TABLE("switch", sw_uet_rows);
const struct metric_table sw_metrics_drops = METRIC_TABLE("switch", sw_drop_rows);
const struct metric_table sw_metrics_buffer = METRIC_TABLE("switch", sw_buffer_rows);
const struct metric_table sw_metrics_ecn = METRIC_TABLE("switch", sw_ecn_rows);
const struct metric_table sw_metrics_storms = METRIC_TABLE("switch", sw_storm_rows);
const struct metric_table sw_metrics_fecn = METRIC_TABLE("switch", sw_fecn_rows);
const struct metric_table *const sw_metric_tables[] = {
	&sw_metrics_drops, &sw_metrics_buffer, &sw_metrics_ecn, &sw_metrics_storms,
	&sw_metrics_fecn, NULL,
};

static const struct metric sw_port_rows[] = {
	METRIC_FN("drops", "—", METRIC_U64, sw_port_drops, "frames dropped toward this port"),
	SWP("drops_buffer", drops[SW_DROP_BUFFER], "the same, buffer full"),
	SWP("drops_threshold", drops[SW_DROP_THRESHOLD], "the same, over the dynamic threshold"),
	SWP("drops_headroom", drops[SW_DROP_HEADROOM], "the same, PFC headroom full"),
	SWP("drops_watchdog", drops[SW_DROP_WATCHDOG], "the same, by the PFC watchdog"),
	SWP("ecn_marked", ecn_marked, "frames marked CE on this port"),
};

const struct metric_table sw_metrics_port = METRIC_TABLE("switch port", sw_port_rows);

static const struct metric sw_port_fecn_rows[] = {
	SWP("fecn_marked", fecn_marked, "InfiniBand: packets marked FECN on this port"),
};

const struct metric_table sw_metrics_port_fecn = METRIC_TABLE("switch port", sw_port_fecn_rows);

const struct metric_line sw_line_fecn = {
	.when = "fecn.marked",
	.fmt = "  IB CC: %.0f packets marked FECN\n",
	.arg = { "fecn.marked" },
};

const struct metric_line sw_line_drops = {
	.fmt = "  drops: %.0f (buffer %.0f), peak switch buffer %.0f bytes\n",
	.arg = { "drops.total", "drops.buffer", "switch.buffer_peak_bytes" },
};

const struct metric_line sw_line_agg = {
	.when = "in_network.contributions",
	.fmt = "  in-network: %.0f slots reduced at the switches (%.0f contributions), %.0f errors\n",
	.arg = { "in_network.slots", "in_network.contributions", "in_network.errors" },
};

const struct metric_line sw_line_ecn = {
	.when = "ecn.marked",
	.fmt = "  ECN: %.0f frames marked CE\n",
	.arg = { "ecn.marked" },
};
