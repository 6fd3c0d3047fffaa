/* The tables of a run: flows.csv (one row per message), ports.csv (one
 * row per port with a link, its columns from the modules' port tables) and
 * pfc.csv (per port and priority). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "port_metrics.h"
#include "port_pfc.h"
#include "results.h"
#include "sw_metrics.h"
#include "tg_metrics.h"
#include "units.h"


static const char *res_op_name(uint8_t op)
{
	return op == TG_OP_SEND		? "send"
	       : op == TG_OP_READ	? "read"
	       : op == TG_OP_WRITE_IMM ? "write-imm"
					: "write";
}

/* Each message's graph operation (UINT32_MAX: none), for flows.csv's part
 * and collective columns; NULL without a dependency graph, or without
 * memory. */
static uint32_t *res_flow_ops(const struct exp *e, uint32_t n)
{
	uint32_t *op;

	if (!e->graph.n_ops || !(op = malloc(((size_t)n + 1) * sizeof(*op))))
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		op[i] = UINT32_MAX;
	for (uint32_t i = 0; i < e->graph.n_ops; i++)
		if (e->graph.ops[i].kind == TG_NODE_XFER && e->graph.ops[i].msg < n)
			op[e->graph.ops[i].msg] = i;
	return op;
}

/* The part and collective columns of message @i (experiments with a
 * dependency graph: collectives, training): what part of a training step
 * it serves (tp, pp, dp, ep; empty outside training) and the collective
 * instance it is a transfer of, as KIND#N (N the instance's number, the
 * row of collectives.csv for collective workloads; empty when none). */
static void res_flow_graph_cols(const struct exp *e, const uint32_t *op, uint32_t i, FILE *out)
{
	const struct tg_node *x = op[i] == UINT32_MAX ? NULL : &e->graph.ops[op[i]];

	fprintf(out, ",%s,", x && x->tag != TG_TAG_NONE ? tg_tag_names()[x->tag] : "");
	if (x && x->coll != TG_NO_COLL && x->coll < e->n_colls)
		fprintf(out, "%s#%u", tg_coll_kind_names()[e->colls[x->coll].kind], x->coll);
}

/* The counters of message @i's connection's QPs together (one, unless the
 * workload has qps > 1). */
static void res_flow_qp_cols(const struct fabric *f, uint32_t i, FILE *out)
{
	struct nic_qp *const *qps;
	uint32_t nq = tg_flow_qps(f->tg, i, &qps);
	uint64_t retx = 0, tmo = 0, naks = 0, cnps = 0;

	for (uint32_t q = 0; q < nq; q++) {
		const struct nic_qp_stats *qs = nic_qp_stats(qps[q]);

		retx += qs->retx_pkts;
		tmo += qs->timeouts;
		naks += qs->naks_rx;
		cnps += qs->cnps_rx;
	}
	fprintf(out, ",%llu,%llu,%llu,%llu", (unsigned long long)retx, (unsigned long long)tmo,
		(unsigned long long)naks, (unsigned long long)cnps);
}

int res_write_flows(const struct fabric *f, const char *dir)
{
	uint32_t n;
	const struct tg_flow *fl = tg_flows(f->tg, &n);
	uint32_t *op = res_flow_ops(f->exp, n);
	char path[4096];
	FILE *out;

	if (f->exp->graph.n_ops && !op)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/flows.csv", dir);
	out = cfg_fopen_out(path);
	if (!out) {
		free(op);
		return -errno;
	}
	fputs("id,src,dst,bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,slowdown,goodput_gbps,op,workload,status,"
	      "qp_retransmitted,qp_timeouts,qp_naks_received,qp_cnps_received",
	      out);
	fputs(op ? ",part,collective\n" : "\n", out);
	for (uint32_t i = 0; i < n; i++) {
		const struct tg_flow *x = &fl[i];
		char sb[TOPO_EP_NAME_BYTES], db[TOPO_EP_NAME_BYTES];
		const char *src = topo_ep_name(f->topo, x->msg.src, sb);
		const char *dst = topo_ep_name(f->topo, x->msg.dst, db);

		fprintf(out, "%u,%s,%s,%llu,%.3f,", i, src, dst, (unsigned long long)x->msg.bytes,
			units_ps_to_ns(x->msg.start_ps));
		if (x->done)
			fprintf(out, "%.3f,%.3f,%.3f,%.6f,%.6f,", units_ps_to_ns(x->end_ps),
				tg_flow_fct_ns(x), units_ps_to_ns(x->ideal_ps),
				(double)(x->end_ps - x->msg.start_ps) / (double)x->ideal_ps,
				tg_flow_goodput_gbps(x));
		else
			fprintf(out, ",,%.3f,,,", units_ps_to_ns(x->ideal_ps));
		fprintf(out, "%s,%s,%s", res_op_name(x->msg.op), f->exp->workloads[x->msg.workload].name,
			x->done ? "complete" : x->status == TG_FAILED ? "failed"
			: x->status == TG_REMOTE ? "remote" : "incomplete");
		res_flow_qp_cols(f, i, out);
		if (op)
			res_flow_graph_cols(f->exp, op, i, out);
		fputc('\n', out);
	}
	free(op);
	return res_fclose(out);
}

void res_csv_header(const struct metric_table *t, bool lead, FILE *out)
{
	for (uint32_t i = 0; i < t->n; i++)
		fprintf(out, "%s%s", lead || i ? "," : "", t->m[i].name);
}

void res_csv_row(const struct metric_table *t, bool lead, const void *stats,
		 const struct metric_ctx *ctx, FILE *out)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct metric *m = &t->m[i];
		struct metric_val v;

		metric_value(m, stats, ctx, &v);
		if (lead || i)
			fputc(',', out);
		if (m->type == METRIC_U64 || m->type == METRIC_BOOL)
			fprintf(out, "%llu", (unsigned long long)v.u);
		else if (m->type == METRIC_STR)
			fprintf(out, "%s", v.s);
		else
			fprintf(out, "%.*f", m->prec, v.d);
	}
}

/* What a row of ports.csv reads: the port, its link, each module's stats. */
struct res_port_src {
	const char *node;                /* node name */
	uint64_t port;                   /* port number */
	char peer[TOPO_EP_NAME_BYTES];   /* NODE:PORT at the other end */
	double rate_gbps;                /* link rate, Gb/s */
	struct port_stats st;            /* the port's counters */
	struct sw_port_stats sw;         /* a switch port's (zeros at a host) */
	struct port_pfc_sum pfc;         /* its PFC counters */
	struct port_credit_sum credit;   /* its credit counters (InfiniBand) */
};

static void res_col_node(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	(void)ctx;
	v->s = ((const struct res_port_src *)stats)->node;
}

static void res_col_peer(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	(void)ctx;
	v->s = ((const struct res_port_src *)stats)->peer;
}

static const struct metric res_port_key_rows[] = {
	METRIC_FN("node", "—", METRIC_STR, res_col_node, "node name"),
	METRIC_FIELD("port", "—", METRIC_ONE, struct res_port_src, port, "port number"),
	METRIC_FN("peer", "—", METRIC_STR, res_col_peer, "NODE:PORT at the other end of the link"),
	{ .name = "rate_gbps", .unit = "Gb/s", .read = METRIC_ONE, .type = METRIC_DBL,
	  .off = offsetof(struct res_port_src, rate_gbps), .prec = 3, .doc = "link rate" },
};

const struct metric_table res_metrics_port_key = METRIC_TABLE("run", res_port_key_rows);

/* ports.csv's columns in order: each table and where in struct
 * res_port_src its stats lie; InfiniBand's only on InfiniBand. */
const struct res_port_cols res_port_cols[] = {
	{ &res_metrics_port_key, 0, false },
	{ &port_metrics_row, offsetof(struct res_port_src, st), false },
	{ &sw_metrics_port, offsetof(struct res_port_src, sw), false },
	{ &port_metrics_pfc_row, offsetof(struct res_port_src, pfc), false },
	{ &port_metrics_credit_row, offsetof(struct res_port_src, credit), true },
	{ &sw_metrics_port_fecn, offsetof(struct res_port_src, sw), true },
	{ NULL, 0, false },
};

/* One row: the port and its link, then each module's columns. */
static void res_port_row(const struct fabric *f, const struct topo_link *lk, int s,
			 const struct metric_ctx *ctx, FILE *out)
{
	const struct topo *t = f->topo;
	struct port *p = fabric_port((struct fabric *)f, lk->node[s], lk->port[s]);
	const struct topo_node *nd = &t->nodes[lk->node[s]];
	struct res_port_src src = {
		.node = nd->name, .port = lk->port[s], .rate_gbps = (double)lk->rate_bps / 1e9,
	};

	snprintf(src.peer, sizeof(src.peer), "%s:%u", t->nodes[lk->node[1 - s]].name,
		 lk->port[1 - s]);
	fabric_port_stats(f, p, &src.st);
	port_pfc_sum(p, ctx->now_ps, &src.pfc);
	fabric_port_credit_sum(f, p, &src.credit);
	if (nd->kind == TOPO_SWITCH)
		src.sw = *sw_port_stats(f->sws[nd->index], lk->port[s]);
	for (const struct res_port_cols *c = res_port_cols; c->t; c++)
		if (!c->ib || res_ib_on(f))
			res_csv_row(c->t, c != res_port_cols, (const char *)&src + c->off, ctx, out);
	fputc('\n', out);
}

int res_write_ports(const struct fabric *f, const char *dir)
{
	const struct topo *t = f->topo;
	struct metric_ctx ctx = {
		.now_ps = f->sim.now_ps,
		.sim_s = units_ps_to_s(f->sim.stopped ? f->sim.now_ps : f->sim.last_work_ps),
	};
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/ports.csv", dir);
	out = cfg_fopen_out(path);
	if (!out)
		return -errno;
	for (const struct res_port_cols *c = res_port_cols; c->t; c++)
		if (!c->ib || res_ib_on(f))
			res_csv_header(c->t, c != res_port_cols, out);
	fputc('\n', out);
	for (uint32_t l = 0; l < t->n_links; l++)
		for (int s = 0; s < 2; s++)
			res_port_row(f, &t->links[l], s, &ctx, out);
	return res_fclose(out);
}

int res_write_pfc(const struct fabric *f, const char *dir)
{
	const struct topo *t = f->topo;
	char path[4096];
	FILE *out;

	if (!f->exp->sw.pfc.lossless_prio)
		return 0;
	snprintf(path, sizeof(path), "%s/pfc.csv", dir);
	out = cfg_fopen_out(path);
	if (!out)
		return -errno;
	fputs("node,port,priority,xoff_sent,xon_sent,xoff_received,xon_received,paused_ns\n", out);
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_link *lk = &t->links[l];

		for (int s = 0; s < 2; s++) {
			struct port *p = fabric_port((struct fabric *)f, lk->node[s], lk->port[s]);
			const struct port_pfc *pf = p->pfc;

			for (int pr = 0; pf && pr < PKT_N_PRIO; pr++) {
				uint64_t paused = pf->stats.paused_ps[pr];

				if (pf->paused_prio & (1u << pr))
					paused += f->sim.now_ps - pf->since_ps[pr];
				if (!(pf->stats.xoff_tx[pr] | pf->stats.xon_tx[pr] | pf->stats.xoff_rx[pr] |
				      pf->stats.xon_rx[pr] | paused))
					continue;
				fprintf(out, "%s,%u,%d,%llu,%llu,%llu,%llu,%.3f\n", t->nodes[lk->node[s]].name,
					lk->port[s], pr, (unsigned long long)pf->stats.xoff_tx[pr],
					(unsigned long long)pf->stats.xon_tx[pr],
					(unsigned long long)pf->stats.xoff_rx[pr],
					(unsigned long long)pf->stats.xon_rx[pr], units_ps_to_ns(paused));
			}
		}
	}
	return res_fclose(out);
}

