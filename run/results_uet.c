/* Ultra Ethernet's results (fabric.link_layer: uet): the switches' trims
 * (uet.trimmed) and the NACKs they caused at the receivers
 * (uet.trimmed_received), receiver credit's CREDIT and CREDIT_REQ packets
 * (uet.credits, uet.credit_requests), and their lines of the human summary. Nothing of
 * this on other layers, whose files stay as they were. */
#include <stdio.h>
#include <string.h>

#include "link_layer.h"
#include "nic_metrics.h"
#include "results.h"
#include "sw_metrics.h"

static bool res_uet_on(const struct fabric *f)
{
	return f->exp->ll->wire && f->exp->ll->wire->kind == PKT_LL_UET;
}

int res_uet(struct results *r, const struct fabric *f)
{
	const struct topo *t = f->topo;
	struct nic_stats nic = { 0 };
	struct sw_stats sw = { 0 };

	if (!res_uet_on(f))
		return 0;
	for (uint32_t i = 0; i < t->n_switches; i++)
		metric_fold(&sw_metrics_uet, &sw, sw_stats(f->sws[i]));
	for (uint32_t i = 0; i < t->n_hosts; i++)
		metric_fold(&nic_metrics_uet, &nic, nic_stats(f->nics[i]));
	if (res_put_table(r, &sw_metrics_uet, NULL, &sw, NULL) != 0 ||
	    res_put_table(r, &nic_metrics_uet, NULL, &nic, NULL) != 0)
		return -ENOMEM;
	return 0;
}

static const struct metric_line res_line_uet = {
	.when = "uet.trimmed", .or_when = "uet.trimmed_received",
	.fmt = "  UET: %.0f packets trimmed at switches, %.0f trimmed packets reached their receivers (NACKed unless already received)\n",
	.arg = { "uet.trimmed", "uet.trimmed_received" },
};

static const struct metric_line res_line_rccc = {
	.when = "uet.credits", .or_when = "uet.credit_requests",
	.fmt = "  UET receiver credit: %.0f CREDIT packets granted, %.0f CREDIT_REQs asked\n",
	.arg = { "uet.credits", "uet.credit_requests" },
};

void res_print_uet(const struct results *r, const struct fabric *f, FILE *out)
{
	if (res_uet_on(f)) {
		res_print_line(r, &res_line_uet, out);
		res_print_line(r, &res_line_rccc, out);
	}
}
