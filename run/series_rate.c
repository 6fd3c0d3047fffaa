/* rates.csv: the congestion-control state of the flows an experiment
 * names (outputs.series.flows: workload names), sampled with series.csv
 * at outputs.series.interval: per sending QP its pacing rate, its window
 * and whether it has work outstanding. Runs that name no flow write
 * nothing and schedule nothing more. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"

/* The QPs to sample: the sending QP of each message of a named workload,
 * each QP once (a per-connection QP carries several messages; it is listed
 * under its first). */
int fabric_rates_list(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	const struct tg_flow *fl;
	uint32_t n;

	if (!e->n_rate_workloads)
		return 0;
	fl = tg_flows(f->tg, &n);
	f->rate_flows = malloc(sizeof(*f->rate_flows) * (n ? n : 1));
	if (!f->rate_flows) {
		snprintf(err, CFG_ERR_BYTES, "out of memory for rates.csv");
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct nic_qp *qp = tg_flow_qp(f->tg, i);
		bool named = false, seen = false;

		for (uint32_t k = 0; k < e->n_rate_workloads && !named; k++)
			named = e->rate_workloads[k] == fl[i].msg.workload;
		/* A per-connection QP was listed under an earlier message of its
		 * workload: scan the QPs listed so far (one per connection). */
		for (uint32_t k = f->n_rate_flows;
		     named && fl[i].msg.qp_mode != TG_QP_PER_MESSAGE && k-- > 0 && !seen;) {
			const struct tg_msg *m = &fl[f->rate_flows[k]].msg;

			if (m->workload != fl[i].msg.workload)
				break;
			seen = tg_flow_qp(f->tg, f->rate_flows[k]) == qp;
		}
		if (named && !seen)
			f->rate_flows[f->n_rate_flows++] = i;
	}
	return 0;
}

int fabric_rates_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	char path[4200];
	int r;

	if (!f->exp->n_rate_workloads)
		return 0;
	snprintf(path, sizeof(path), "%s/rates.csv", outdir);
	f->rates = cfg_fopen_out(path);
	if (!f->rates) {
		r = -errno;
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(errno));
		return r;
	}
	fputs("time_ns,workload,flow,src,dst,qpn,rate_bps,window_bytes,outstanding_wrs\n", f->rates);
	return 0;
}

void fabric_rates_values(const struct fabric *f, uint32_t i, uint64_t *v)
{
	const struct nic_qp *qp = tg_flow_qp(f->tg, f->rate_flows[i]);
	const struct cc_qp *cc = nic_qp_cc(qp);

	v[0] = cc ? cc->rate_bps : 0;
	v[1] = cc ? cc->window_bytes : 0;
	v[2] = nic_qp_outstanding(qp);
}

uint64_t fabric_rates_sample(struct fabric *f, uint64_t now_ps, const uint64_t *vals)
{
	const struct exp *e = f->exp;
	const struct tg_flow *fl;
	uint64_t bytes = 0;
	uint32_t n;

	if (!f->rates && !vals)
		return 0;
	fl = tg_flows(f->tg, &n);
	for (uint32_t i = 0; i < f->n_rate_flows; i++) {
		uint32_t id = f->rate_flows[i];
		const struct tg_msg *m = &fl[id].msg;
		const struct nic_qp *qp = tg_flow_qp(f->tg, id);
		char sb[TOPO_EP_NAME_BYTES], db[TOPO_EP_NAME_BYTES], row[512];
		uint64_t own[FABRIC_RATE_VALS];
		const uint64_t *v = vals ? vals + (uint64_t)i * FABRIC_RATE_VALS : own;
		int w;

		if (!vals)
			fabric_rates_values(f, i, own);
		w = snprintf(row, sizeof(row), "%.3f,%s,%u,%s,%s,%u,%llu,%llu,%llu\n",
			     units_ps_to_ns(now_ps), e->workloads[m->workload].name, id,
			     topo_ep_name(f->topo, m->src, sb), topo_ep_name(f->topo, m->dst, db),
			     nic_qp_num(qp), (unsigned long long)v[0], (unsigned long long)v[1],
			     (unsigned long long)v[2]);
		if (w <= 0)
			continue;
		if (f->rates)
			fputs(row, f->rates);
		bytes += (uint64_t)w;
	}
	return bytes;
}
