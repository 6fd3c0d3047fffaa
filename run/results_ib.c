/* InfiniBand's results (fabric.link_layer: infiniband): the credit
 * counters beside PFC's (credit.*: starved time as pfc.paused_ns_*,
 * flow-control packets as XOFF/XON frames, and the credit invariant's
 * violations, always 0), FECN marks beside ECN's (fecn.marked), ports.csv's
 * extra columns, and lines of the human summary, each from the port's and
 * the switch's tables: for a link layer with credits (its `credits`
 * flag). Nothing of this on Ethernet, whose files stay as they were. */
#include <stdio.h>
#include <string.h>

#include "link_layer.h"
#include "port_metrics.h"
#include "results.h"
#include "sw_metrics.h"

bool res_ib_on(const struct fabric *f)
{
	return f->exp->ll->credits;
}

static void res_ib_deadlocks(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct fabric *f = stats;

	(void)ctx;
	/* A cycle the deadlock check found that credits hold (its report
	 * says which mechanism holds each edge: fabric_mon.c). */
	v->u = f->deadlocks && strncmp(f->deadlock_cycle, "credit loop", 11) == 0;
}

static const struct metric res_ib_deadlock_rows[] = {
	METRIC_FN("credit.deadlocks", "0/1", METRIC_U64, res_ib_deadlocks,
		  "the cycle found (pfc.deadlock_*) is held by credits"),
};

const struct metric_table res_metrics_ib_deadlock = METRIC_TABLE("run", res_ib_deadlock_rows);

int res_ib(struct results *r, const struct fabric *f)
{
	const struct topo *t = f->topo;
	struct port_credit_sum sum = { 0 }, granted = { 0 }, c;
	struct sw_stats sw = { 0 };

	if (!res_ib_on(f))
		return 0;
	for (uint32_t i = 0; i < t->n_switches; i++) {
		struct port_credit_sum one = { 0 }; /* what this switch grants */

		metric_fold(&sw_metrics_fecn, &sw, sw_stats(f->sws[i]));
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++) {
			fabric_port_credit_sum(f, sw_port(f->sws[i], p), &c);
			metric_fold(&port_metrics_credit, &sum, &c);
			one.granted_bytes += c.granted_bytes;
		}
		metric_fold(&port_metrics_granted, &granted, &one);
	}
	for (uint32_t i = 0; i < t->n_hosts; i++)
		for (uint16_t p = 0; p < nic_n_ports(f->nics[i]); p++) {
			fabric_port_credit_sum(f, nic_port(f->nics[i], p), &c);
			metric_fold(&port_metrics_credit, &sum, &c);
		}
	if (res_put_table(r, &port_metrics_credit, NULL, &sum, NULL) != 0 ||
	    res_put_table(r, &port_metrics_granted, NULL, &granted, NULL) != 0 ||
	    res_put_table(r, &res_metrics_ib_deadlock, NULL, f, NULL) != 0 ||
	    res_put_table(r, &sw_metrics_fecn, NULL, &sw, NULL) != 0)
		return -ENOMEM;
	return 0;
}

void res_print_ib(const struct results *r, const struct fabric *f, FILE *out)
{
	(void)f;
	res_print_line(r, &port_line_credit, out);
	res_print_line(r, &sw_line_fecn, out);
}
