/* The port's metrics (core/port_metrics.c): links.lost_pkts,
 * switch.queue_peak_bytes and pfc.* over the ports, the ports.csv columns
 * of a port, and struct port_pfc_sum, a port's PFC counters over its
 * priorities. */
#ifndef FAB_PORT_METRICS_H
#define FAB_PORT_METRICS_H

#include "metric.h"
#include "port.h"

/* A port's PFC counters summed over its priorities (zeros without PFC). */
struct port_pfc_sum {
	uint64_t xoff_tx;       /* pauses sent, per priority */
	uint64_t xon_tx;        /* resumes sent */
	uint64_t xoff_rx;       /* pauses received */
	uint64_t xon_rx;        /* resumes received */
	uint64_t paused_ps;     /* time paused, summed over priorities, ps */
	uint64_t paused_max_ps; /* the same (folded as the largest port's), ps */
};

/* A port's credit counters summed over its VLs (InfiniBand; zeros
 * without credits). */
struct port_credit_sum {
	uint64_t fc_tx;          /* flow-control packets sent */
	uint64_t fc_rx;          /* flow-control packets received */
	uint64_t blocks_tx;      /* 64-byte blocks sent */
	uint64_t max_held_bytes; /* the most one VL held at once, bytes */
	uint64_t starved_ps;     /* time VLs waited for credits, summed, ps */
	uint64_t starved_max_ps; /* the same (folded as the largest port's), ps */
	uint64_t overruns;       /* arrivals beyond a VL's buffer (always 0) */
	uint64_t granted_bytes;  /* the VL buffers it grants its peer, summed, bytes */
};

/* @p's credit counters at @now_ps (a starvation still running counts to
 * now). */
void port_credit_sum(const struct port *p, uint64_t now_ps, struct port_credit_sum *out);

/* @p's PFC counters at @now_ps (a pause still running counts to now). */
void port_pfc_sum(const struct port *p, uint64_t now_ps, struct port_pfc_sum *out);

extern const struct metric_table port_metrics_queue_peak; /* of struct port_stats, switch ports */
extern const struct metric_table port_metrics_lost;       /* of struct port_stats, all ports */
extern const struct metric_table port_metrics_pfc;        /* of struct port_pfc_sum, all ports */
/* ports.csv: tx_pkts .. lost_pkts (struct port_stats), PFC columns (struct
 * port_pfc_sum). */
extern const struct metric_table port_metrics_row;
extern const struct metric_table port_metrics_pfc_row;
extern const struct metric_line port_line_pfc;
/* InfiniBand: credit.* (struct port_credit_sum over every port), the
 * largest switch's granted buffers (a switch's ports summed), ports.csv's
 * columns, and the summary's line. */
extern const struct metric_table port_metrics_credit;
extern const struct metric_table port_metrics_granted;
extern const struct metric_table port_metrics_credit_row;
extern const struct metric_line port_line_credit; /* "PFC: ..." */

#endif
