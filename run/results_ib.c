/* InfiniBand's results (fabric.link_layer: infiniband): the credit
 * counters beside PFC's (credit.*: starved time as pfc.paused_ns_*,
 * flow-control packets as XOFF/XON frames, and the credit invariant's
 * violations, always 0), FECN marks beside ECN's (fecn.marked), ports.csv's
 * extra columns, and a line of the human summary. Nothing of this on
 * Ethernet, whose files stay as they were. */
#include <stdio.h>
#include <string.h>

#include "port_credit.h"
#include "results.h"
#include "units.h"

/* Sums over the ports under credits. */
struct res_credit_sum {
	uint64_t fc_tx, fc_rx, starved_ps, starved_max_ps, overruns, blocks_tx;
	uint32_t max_held_blocks;
};

static void res_credit_port(struct res_credit_sum *t, const struct port *p, uint64_t *starved)
{
	struct port_credit_stats st;
	uint64_t s = 0;

	if (!port_credit_on(p))
		return;
	port_credit_stats(p, &st);
	for (int vl = 0; vl < PORT_N_TC; vl++) {
		t->fc_tx += st.fc_tx[vl];
		t->fc_rx += st.fc_rx[vl];
		s += st.credit_starved_ps[vl];
		t->overruns += st.credit_overruns[vl];
		t->blocks_tx += st.blocks_tx[vl];
		if (st.max_held_blocks[vl] > t->max_held_blocks)
			t->max_held_blocks = st.max_held_blocks[vl];
	}
	t->starved_ps += s;
	if (s > t->starved_max_ps)
		t->starved_max_ps = s;
	if (starved)
		*starved = s;
}

bool res_ib_on(const struct fabric *f)
{
	return f->exp->link_layer == PKT_LL_IB;
}

int res_ib(struct results *r, const struct fabric *f)
{
	const struct topo *t = f->topo;
	struct res_credit_sum sum = { 0 };
	uint64_t fecn = 0, granted_max = 0;

	if (!res_ib_on(f))
		return 0;
	for (uint32_t i = 0; i < t->n_switches; i++) {
		uint64_t granted = 0;

		fecn += sw_stats(f->sws[i])->fecn_marked;
		for (uint16_t p = 0; p < sw_n_ports(f->sws[i]); p++) {
			res_credit_port(&sum, sw_port(f->sws[i], p), NULL);
			for (uint8_t vl = 0; vl < PORT_N_TC; vl++)
				granted += port_credit_buffer_bytes(sw_port(f->sws[i], p), vl);
		}
		if (granted > granted_max)
			granted_max = granted;
	}
	for (uint32_t i = 0; i < t->n_hosts; i++)
		for (uint16_t p = 0; p < nic_n_ports(f->nics[i]); p++)
			res_credit_port(&sum, nic_port(f->nics[i], p), NULL);
	RES_U64(r, 1, "credit.enabled");
	RES_U64(r, sum.fc_tx, "credit.fc_sent");
	RES_U64(r, sum.fc_rx, "credit.fc_received");
	RES_U64(r, sum.blocks_tx, "credit.blocks_sent");
	RES_U64(r, (uint64_t)sum.max_held_blocks * PKT_IB_BLOCK_BYTES, "credit.max_held_bytes");
	RES_DBL(r, units_ps_to_ns(sum.starved_ps), "credit.starved_ns_total");
	RES_DBL(r, units_ps_to_ns(sum.starved_max_ps), "credit.starved_ns_max");
	RES_U64(r, sum.overruns, "credit.overruns");
	/* What credits let a switch hold at most: the buffers its ports grant. */
	RES_U64(r, granted_max, "credit.granted_bytes_max");
	/* A cycle the deadlock check found that credits hold (its report
	 * says which mechanism holds each edge: fabric_mon.c). */
	RES_U64(r, f->deadlocks && strncmp(f->deadlock_cycle, "credit loop", 11) == 0,
		"credit.deadlocks");
	RES_U64(r, fecn, "fecn.marked");
	return 0;
}

void res_ib_port_header(FILE *out)
{
	fputs(",credit_starved_ns,fc_sent,fecn_marked", out);
}

void res_ib_port_row(const struct fabric *f, const struct port *p, const struct topo_node *nd,
		     uint16_t port, FILE *out)
{
	struct res_credit_sum sum = { 0 };
	uint64_t starved = 0, fecn = 0;

	res_credit_port(&sum, p, &starved);
	if (nd->kind == TOPO_SWITCH)
		fecn = sw_port_stats(f->sws[nd->index], port)->fecn_marked;
	fprintf(out, ",%.3f,%llu,%llu", units_ps_to_ns(starved), (unsigned long long)sum.fc_tx,
		(unsigned long long)fecn);
}

void res_print_ib(const struct results *r, const struct fabric *f, FILE *out)
{
	const struct res_metric *fc = res_find(r, "credit.fc_sent");
	const struct res_metric *st = res_find(r, "credit.starved_ns_total");
	const struct res_metric *mx = res_find(r, "credit.starved_ns_max");
	const struct res_metric *ov = res_find(r, "credit.overruns");
	const struct res_metric *fe = res_find(r, "fecn.marked");

	if (!res_ib_on(f) || !fc || !st || !mx || !ov || !fe)
		return;
	fprintf(out, "  credits: %.0f flow-control packets, VLs starved %.3f us in all (longest port %.3f us), %.0f overruns\n",
		res_value(fc), res_value(st) / 1e3, res_value(mx) / 1e3, res_value(ov));
	if (res_value(fe) > 0)
		fprintf(out, "  IB CC: %.0f packets marked FECN\n", res_value(fe));
}
