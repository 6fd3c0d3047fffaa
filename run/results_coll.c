/* Collectives' results: per instance its time, algorithm bandwidth and bus
 * bandwidth exactly as nccl-tests defines them (doc/PERFORMANCE.md of
 * nccl-tests: algbw = S / t, busbw = algbw x 2(n-1)/n for all-reduce,
 * (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for
 * broadcast; GB/s are 1e9 bytes/s), as collectives.csv, as
 * collectives.<workload>.* metrics (those of the workload's largest size)
 * and as nccl-tests' table in the human summary, with the busbw per NIC
 * and the line-rate ceilings beside it. A data-carrying
 * workload (its data key) adds the elements compared at its instances'
 * ends and those that were wrong, summed over all its instances, and
 * collectives.csv two columns at the end (only when a workload carries
 * data: other runs write the file they always wrote). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link_layer.h"
#include "results.h"
#include "units.h"

/* Time and bandwidths of instance @i; false when it did not complete. */
static bool res_coll_fig(const struct fabric *f, uint32_t i, double *us, double *algbw,
			 double *busbw)
{
	const struct tg_coll *c = &f->exp->colls[i];
	uint64_t start, end;

	if (tg_coll_span(f->tg, i, &start, &end) != 0)
		return false;
	*us = units_ps_to_ns(end - start) / 1e3;
	*algbw = end > start ? (double)c->bytes / units_ps_to_s(end - start) / 1e9 : 0;
	*busbw = *algbw * tg_coll_bus_factor(c->kind, c->n_ranks);
	return true;
}

/* Mean figures of workload @w's instances of @bytes (over their
 * iterations); their count, and how many completed. */
static uint32_t res_coll_mean(const struct fabric *f, uint16_t w, uint64_t bytes, uint32_t *done,
			      double *us, double *algbw, double *busbw)
{
	uint32_t n = 0;

	*done = 0;
	*us = *algbw = *busbw = 0;
	for (uint32_t i = 0; i < f->exp->n_colls; i++) {
		const struct tg_coll *c = &f->exp->colls[i];
		double a, b, t;

		if (c->workload != w || c->bytes != bytes)
			continue;
		n++;
		if (!res_coll_fig(f, i, &t, &a, &b))
			continue;
		(*done)++;
		*us += t;
		*algbw += a;
		*busbw += b;
	}
	if (*done) {
		*us /= *done;
		*algbw /= *done;
		*busbw /= *done;
	}
	return n;
}

/* A collective workload's figures (collectives.NAME.*). */
struct res_coll {
	uint64_t instances;    /* sizes x iterations */
	uint64_t completed;    /* of which every transfer arrived */
	uint64_t size_bytes;   /* the largest size */
	double time_us;        /* its mean time, us */
	double algbw_GBps;     /* size / time, GB/s */
	double busbw_GBps;     /* algbw x the collective's factor, GB/s */
	uint64_t data_checked; /* elements compared with the exact result */
	uint64_t data_errors;  /* of those, not the exact result */
};

#define COLL_ROW(nm, un, ty, field, dc)                                            \
	{ .name = "collectives.NAME." nm, .unit = (un), .read = METRIC_ONE, .type = (ty), \
	  .off = offsetof(struct res_coll, field), .doc = (dc) }

static const struct metric res_coll_rows[] = {
	COLL_ROW("instances", "—", METRIC_U64, instances, "instances (sizes x iterations)"),
	COLL_ROW("completed", "—", METRIC_U64, completed, "of which every transfer arrived"),
	COLL_ROW("size_bytes", "bytes", METRIC_U64, size_bytes, "the largest size S"),
	COLL_ROW("time_us", "µs", METRIC_DBL, time_us, "its mean time"),
	COLL_ROW("algbw_GBps", "GB/s (10^9 B/s)", METRIC_DBL, algbw_GBps, "S / time"),
	COLL_ROW("busbw_GBps", "GB/s", METRIC_DBL, busbw_GBps, "algbw x the collective's factor"),
};

/* Only with traffic.data: true. */
static const struct metric res_coll_data_rows[] = {
	COLL_ROW("data_checked", "elements", METRIC_U64, data_checked,
		 "float32 elements compared with the exact result"),
	COLL_ROW("data_errors", "elements", METRIC_U64, data_errors,
		 "of those, the elements that were not the exact result"),
};

const struct metric_table res_metrics_coll = METRIC_TABLE("collectives", res_coll_rows);
const struct metric_table res_metrics_coll_data = METRIC_TABLE("collectives", res_coll_data_rows);

/* Workload @w's data check, over its instances into @c: false when it
 * carries no data. */
static bool res_coll_data(const struct fabric *f, uint16_t w, struct res_coll *c)
{
	const struct exp *e = f->exp;
	bool data = false;

	for (uint32_t i = 0; i < e->n_colls; i++) {
		uint64_t k, x;
		int rc;

		if (e->colls[i].workload != w)
			continue;
		rc = tg_coll_data(f->tg, i, &k, &x);
		if (rc == -ENOENT)
			continue;
		data = true;
		if (rc == 0) {
			c->data_checked += k;
			c->data_errors += x;
		}
	}
	return data;
}

/* Some instance of the run carries data. */
static bool res_coll_any_data(const struct fabric *f)
{
	uint64_t c, x;

	for (uint32_t i = 0; i < f->exp->n_colls; i++)
		if (tg_coll_data(f->tg, i, &c, &x) != -ENOENT)
			return true;
	return false;
}

int res_collectives(struct results *r, const struct fabric *f)
{
	const struct exp *e = f->exp;

	for (uint32_t w = 0; w < e->n_workloads; w++) {
		struct res_coll c = { 0 };
		uint32_t d;

		for (uint32_t i = 0; i < e->n_colls; i++) {
			if (e->colls[i].workload != w)
				continue;
			c.instances++;
			if (e->colls[i].bytes >= c.size_bytes)
				c.size_bytes = e->colls[i].bytes;
			if (tg_coll_span(f->tg, i, &(uint64_t){ 0 }, &(uint64_t){ 0 }) == 0)
				c.completed++;
		}
		if (!c.instances)
			continue;
		res_coll_mean(f, w, c.size_bytes, &d, &c.time_us, &c.algbw_GBps, &c.busbw_GBps);
		if (res_put_table(r, &res_metrics_coll, e->workloads[w].name, &c, NULL) != 0 ||
		    (res_coll_data(f, w, &c) &&
		     res_put_table(r, &res_metrics_coll_data, e->workloads[w].name, &c, NULL) != 0))
			return -ENOMEM;
	}
	return 0;
}

/* Some instance of the run runs under the NCCL model (the nccl key). */
static bool res_coll_any_nccl(const struct fabric *f)
{
	for (uint32_t i = 0; i < f->exp->n_colls; i++)
		if (f->exp->colls[i].proto != TG_NCCL_IDEAL)
			return true;
	return false;
}

int res_write_collectives(const struct fabric *f, const char *dir)
{
	const struct exp *e = f->exp;
	char path[4200];
	bool data = res_coll_any_data(f), nccl = res_coll_any_nccl(f);
	FILE *out;
	int bad, err;

	snprintf(path, sizeof(path), "%s/collectives.csv", dir);
	if (!(out = cfg_fopen_out(path)))
		return -errno;
	fputs("workload,collective,algorithm,ranks,size_bytes,count,type,iteration,time_us,"
	      "algbw_GBps,busbw_GBps,status", out);
	fputs(data ? ",data_checked,data_errors" : "", out);
	fputs(nccl ? ",protocol,channels,nccl_estimate_us\n" : "\n", out);
	for (uint32_t i = 0; i < e->n_colls; i++) {
		const struct tg_coll *c = &e->colls[i];
		double us, algbw, busbw;
		bool ok = res_coll_fig(f, i, &us, &algbw, &busbw);

		fprintf(out, "%s,%s,%s,%u,%llu,%llu,float,%u,", e->workloads[c->workload].name,
			tg_coll_kind_names()[c->kind], tg_coll_alg_names()[c->alg], c->n_ranks,
			(unsigned long long)c->bytes, (unsigned long long)(c->bytes / 4), c->iter);
		if (ok)
			fprintf(out, "%.3f,%.6f,%.6f,complete", us, algbw, busbw);
		else
			fputs(",,,incomplete", out);
		if (data) {
			uint64_t checked, errors;

			/* Empty: no data, or not compared (incomplete). */
			if (tg_coll_data(f->tg, i, &checked, &errors) == 0)
				fprintf(out, ",%llu,%llu", (unsigned long long)checked,
					(unsigned long long)errors);
			else
				fputs(",,", out);
		}
		if (nccl && c->proto != TG_NCCL_IDEAL && c->predicted_us > 0)
			fprintf(out, ",%s,%u,%.3f", tg_nccl_proto_names[c->proto], c->channels,
				c->predicted_us);
		else if (nccl && c->proto != TG_NCCL_IDEAL)
			fprintf(out, ",%s,%u,", tg_nccl_proto_names[c->proto], c->channels);
		else if (nccl)
			fputs(",,,", out);
		fputc('\n', out);
	}
	bad = ferror(out);
	err = errno;
	if (fclose(out) != 0)
		return -errno;
	return bad ? -(err ? err : EIO) : 0;
}

/* The NIC side of workload @w's table: the busiest scale-out NIC port's
 * share of a rank's bytes (bytes it sends over the mean bytes a rank of
 * @n_ranks sends, NVLink included; 1 where every rank has one NIC), and
 * that port's payload ceiling in GB/s (line rate x MTU / the frame's bytes
 * on the wire). False when no NIC port sends. */
struct res_coll_nic {
	double share;        /* busiest NIC's bytes / a rank's bytes */
	double ceiling_GBps; /* its payload ceiling, GB/s (10^9 B/s) */
	uint32_t node;       /* its host node */
	uint64_t rate_bps;   /* its line rate */
	uint32_t mtu_bytes;  /* payload per packet */
	uint32_t wire_bytes; /* a full packet on the wire */
	bool innet;          /* in-network reduction: a rank sends S, not the bus bytes */
};

static bool res_coll_nic(const struct fabric *f, uint16_t w, uint32_t n_ranks,
			 struct res_coll_nic *c)
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;
	uint64_t *sent = calloc(t->n_eps ? t->n_eps : 1, sizeof(*sent)), total = 0, most = 0;
	uint32_t best = UINT32_MAX, eff_ppm = 0;
	struct nic_params np = e->nic;
	struct pkt_roce mid = { 0 };

	if (!sent)
		return false;
	/* Under the NCCL model NVLink transfers carry their bytes over its
	 * efficiency: the shares count them as the NICs' are counted. */
	for (uint32_t i = 0; i < e->n_colls && !eff_ppm; i++)
		if (e->colls[i].workload == w)
			eff_ppm = e->colls[i].nvl_eff_ppm;
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		const struct tg_msg *m = &e->msgs[i];
		uint32_t k = m->op == TG_OP_READ ? m->dst : m->src;
		uint64_t bytes = m->bytes;

		if (m->workload != w || m->chan == TG_CHAN_PXN)
			continue; /* PXN's NVLink hops carry bytes on to a NIC, not to a peer */
		if (eff_ppm && t->nodes[t->eps[k].node].role == TOPO_ROLE_GPU)
			bytes = (uint64_t)((double)bytes * eff_ppm / 1e6);
		total += bytes;
		sent[k] += bytes;
		if (t->nodes[t->eps[k].node].role != TOPO_ROLE_GPU && sent[k] > most) {
			most = sent[k];
			best = k;
		}
	}
	free(sent);
	if (best == UINT32_MAX || !total || !n_ranks)
		return false;
	np.ll = e->ll->wire ? e->ll->wire : &pkt_ll_roce;
	if (e->ll->nic_params)
		e->ll->nic_params(e, &np);
	c->share = (double)most * n_ranks / (double)total;
	/* In-network reduction: the busiest NIC's bytes over the bus bytes
	 * (S x the bus factor) of the workload's instances; a rank sends S
	 * through its NIC (flat), or S / G (CollNet's shape, G GPUs a node),
	 * where a ring's sends the bus bytes. */
	{
		double bus = 0;

		for (uint32_t i = 0; i < e->n_colls; i++)
			if (e->colls[i].workload == w &&
			    strcmp(tg_coll_alg_names()[e->colls[i].alg], "in-network") == 0) {
				c->innet = true;
				bus += (double)e->colls[i].bytes * tg_coll_bus_factor(e->colls[i].kind, n_ranks);
			}
		if (c->innet && bus > 0)
			c->share = (double)most / bus;
	}
	c->node = t->eps[best].node;
	c->rate_bps = port_rate_bps(fabric_port((struct fabric *)f, c->node, t->eps[best].port));
	c->mtu_bytes = np.mtu_bytes;
	/* A full middle packet of a WRITE (no RETH): the steady state. */
	mid.addr.vlan = np.vlan;
	mid.addr.ll = (uint8_t)np.ll->kind;
	mid.addr.grh = np.ib_grh;
	mid.opcode = PKT_OP_WRITE_MIDDLE;
	mid.payload_bytes = np.mtu_bytes;
	c->wire_bytes = pkt_roce_frame_bytes(&mid) + np.ll->wire_overhead_bytes;
	c->ceiling_GBps = (double)c->rate_bps / 8 / 1e9 * c->mtu_bytes / c->wire_bytes;
	return true;
}

void res_print_collectives(const struct fabric *f, FILE *out)
{
	const struct exp *e = f->exp;

	for (uint32_t w = 0; w < e->n_workloads; w++) {
		uint64_t last = UINT64_MAX, checked = 0, errors = 0;
		bool head = false, data = false, nic = false, nccl = false;
		struct res_coll_nic cn = { 0 };

		for (uint32_t i = 0; i < e->n_colls; i++) {
			const struct tg_coll *c = &e->colls[i];
			uint32_t done;
			double us, algbw, busbw;

			if (c->workload != w)
				continue;
			{
				uint64_t k, x;
				int rc = tg_coll_data(f->tg, i, &k, &x);

				data = data || rc != -ENOENT;
				if (rc == 0) {
					checked += k;
					errors += x;
				}
			}
			if (c->bytes == last)
				continue;
			if (!head) {
				bool mixed = false;

				for (uint32_t k = i; k < e->n_colls && !mixed; k++)
					mixed = e->colls[k].workload == w && e->colls[k].alg != c->alg;
				fprintf(out, "  %s: %s, %s, %u ranks\n", e->workloads[w].name,
					tg_coll_kind_names()[c->kind],
					mixed ? "by size (NCCL's tuner)" : tg_coll_alg_names()[c->alg],
					c->n_ranks);
				nic = res_coll_nic(f, (uint16_t)w, c->n_ranks, &cn);
				nccl = c->proto != TG_NCCL_IDEAL;
				fprintf(out, "  %12s %12s %6s %12s %12s %12s", "size", "count", "type",
					"time(us)", "algbw(GB/s)", "busbw(GB/s)");
				fputs(nic ? "  ceiling  busbw/NIC  NIC ceiling" : "", out);
				fputs(nccl ? "  algorithm  proto  NCCL(us)\n" : "\n", out);
				head = true;
			}
			last = c->bytes;
			res_coll_mean(f, w, c->bytes, &done, &us, &algbw, &busbw);
			if (done)
				fprintf(out, "  %12llu %12llu %6s %12.2f %12.2f %12.2f",
					(unsigned long long)c->bytes, (unsigned long long)(c->bytes / 4),
					"float", us, algbw, busbw);
			else
				fprintf(out, "  %12llu %12llu %6s %12s %12s %12s",
					(unsigned long long)c->bytes, (unsigned long long)(c->bytes / 4),
					"float", "-", "-", "-");
			if (nic && done)
				fprintf(out, " %8.2f %10.2f %12.2f", cn.ceiling_GBps / cn.share,
					busbw * cn.share, cn.ceiling_GBps);
			else if (nic)
				fprintf(out, " %8s %10s %12s", "-", "-", "-");
			/* The NCCL model: the protocol and NCCL's own estimate. */
			if (nccl && c->predicted_us > 0)
				fprintf(out, " %10s %6s %9.2f", tg_coll_alg_names()[c->alg],
					tg_nccl_proto_names[c->proto], c->predicted_us);
			else if (nccl)
				fprintf(out, " %10s %6s %9s", tg_coll_alg_names()[c->alg],
					tg_nccl_proto_names[c->proto], "-");
			fputc('\n', out);
		}
		if (nic && cn.innet)
			fprintf(out,
				"  per NIC: busbw x %.4f (in-network: %s sends the bus bytes / %.4f); NIC ceiling %.2f GB/s (%.0f Gb/s x %u / %u B on the wire); ceiling = NIC ceiling / %.4f\n",
				cn.share, f->topo->nodes[cn.node].name, 1 / cn.share, cn.ceiling_GBps,
				(double)cn.rate_bps / 1e9, cn.mtu_bytes, cn.wire_bytes, cn.share);
		else if (nic)
			fprintf(out,
				"  per NIC: busbw x %.4f (%s sends %.4f of a rank's bytes); NIC ceiling %.2f GB/s (%.0f Gb/s x %u / %u B on the wire); ceiling = NIC ceiling / %.4f\n",
				cn.share, f->topo->nodes[cn.node].name, cn.share, cn.ceiling_GBps,
				(double)cn.rate_bps / 1e9, cn.mtu_bytes, cn.wire_bytes, cn.share);
		if (data)
			fprintf(out, "  data: %llu elements compared with the exact result, %llu wrong\n",
				(unsigned long long)checked, (unsigned long long)errors);
	}
}
