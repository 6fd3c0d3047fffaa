/* The NIC's metrics: rows of struct nic_stats, summed over the hosts
 * (schema: docs/results.md, "NICs"), and its lines of the human summary. */
#include "nic.h"
#include "nic_metrics.h"

#define NIC_SUM(name, unit, field, doc) \
	METRIC_FIELD(name, unit, METRIC_SUM, struct nic_stats, field, doc)

static const struct metric nic_delivered_rows[] = {
	NIC_SUM("bytes.delivered", "bytes", rx_payload_bytes,
		"payload bytes that receivers accepted in order"),
};

static const struct metric nic_rx_rows[] = {
	NIC_SUM("nic.data_packets", "—", tx_data_pkts, "data packets sent"),
	NIC_SUM("nic.payload_bytes_sent", "bytes", tx_payload_bytes, "payload bytes in those packets"),
	NIC_SUM("nic.acks", "—", tx_acks, "ACKs sent by responders"),
	NIC_SUM("nic.out_of_sequence", "—", rx_out_of_seq, "data packets dropped: PSN ahead"),
	NIC_SUM("nic.duplicates", "—", rx_duplicate, "data packets with a PSN already received"),
	NIC_SUM("nic.icrc_errors", "—", rx_icrc_errors, "materialised frames whose ICRC failed"),
	NIC_SUM("nic.unknown_qp", "—", rx_unknown_qp, "frames for a QP that does not exist"),
	NIC_SUM("nic.malformed", "—", rx_malformed, "frames whose headers could not be parsed"),
};

static const struct metric nic_recovery_rows[] = {
	NIC_SUM("nic.acks_not_sent", "—", ack_alloc_fail, "ACKs not sent: the pool was empty"),
	NIC_SUM("nic.retransmitted", "—", retx_pkts, "packets sent again"),
	NIC_SUM("nic.timeouts", "—", timeouts, "retransmission timer expiries"),
	NIC_SUM("nic.naks_sent", "—", naks_tx, "NAKs sent (PSN sequence error)"),
	NIC_SUM("nic.naks_received", "—", naks_rx, "NAKs received"),
	NIC_SUM("nic.cnps_sent", "—", cnps_tx, "CNPs sent (notification point)"),
	NIC_SUM("nic.cnps_received", "—", rx_cnps, "CNPs received"),
	NIC_SUM("nic.qp_errors", "—", qp_errors, "QPs that failed"),
	NIC_SUM("nic.read_requests", "—", tx_read_reqs, "RDMA READ requests sent"),
	NIC_SUM("nic.out_of_order_accepted", "—", rx_ooo_accepted, "selective repeat: packets kept"),
	NIC_SUM("nic.access_errors", "—", access_errors, "requests a responder refused"),
	NIC_SUM("nic.placed_bytes", "bytes", placed_bytes, "payload bytes written into memory"),
};

static const struct metric nic_uet_rows[] = {
	NIC_SUM("uet.trimmed_received", "—", rx_trimmed, "trimmed data packets that reached their receivers"),
	NIC_SUM("uet.credits", "—", uet_credits, "RCCC: CREDIT packets receivers sent (0 without nic.cc: rccc)"),
	NIC_SUM("uet.credit_requests", "—", uet_credit_reqs, "RCCC: CREDIT_REQ packets senders sent"),
};

const struct metric_table nic_metrics_uet = METRIC_TABLE("nic", nic_uet_rows);
const struct metric_table nic_metrics_delivered = METRIC_TABLE("nic", nic_delivered_rows);
const struct metric_table nic_metrics_rx = METRIC_TABLE("nic", nic_rx_rows);
const struct metric_table nic_metrics_recovery = METRIC_TABLE("nic", nic_recovery_rows);
const struct metric_table *const nic_metric_tables[] = {
	&nic_metrics_delivered, &nic_metrics_rx, &nic_metrics_recovery, NULL,
};

const struct metric_line nic_line_recovery = {
	.when = "nic.retransmitted", .or_when = "nic.qp_errors",
	.fmt = "  loss recovery: %.0f packets retransmitted, %.0f timeouts, %.0f NAKs; %.0f QPs failed\n",
	.arg = { "nic.retransmitted", "nic.timeouts", "nic.naks_sent", "nic.qp_errors" },
};

const struct metric_line nic_line_pool = {
	.when = "nic.pool_exhausted", .or_when = "nic.acks_not_sent",
	.fmt = "  WARNING: the packet pool ran dry (%.0f data packets delayed, %.0f ACKs lost); "
	       "raise engine.packet_pool (peak use %.0f of %.0f)\n",
	.arg = { "nic.pool_exhausted", "nic.acks_not_sent", "wall_clock.packets_peak",
		 "engine.packet_pool" },
};
