/* Experiment loader: the top level of an experiment and its run-module
 * sections (capture, outputs, expect), read through key tables by the
 * schema walker (core/cfg_schema.h), with the modules' tables for their
 * sections (switch, NIC, engine, topology kinds, workload kinds). */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "link_layer.h"
#include "tg_wl.h"

enum {
	EXP_NAME_MAX = 64,          /* characters of an experiment name */
};



static const struct cfg_node *exp_need(const struct cfg_node *map, const char *key,
				       const char *what, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *n = cfg_get(map, key);

	if (!n)
		cfg_errorf(err, map, "missing key '%s' (%s)", key, what);
	return n;
}

/* ---- top level ---- */

/* A name, not a path: it names the default results folder. */
static int exp_name(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;
	size_t len;

	if (cfg_str(n, &e->name, err) != 0)
		return -EINVAL;
	len = strlen(e->name);
	if (len == 0 || len > EXP_NAME_MAX || e->name[0] == '.' ||
	    strspn(e->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != len) {
		cfg_errorf(err, n, "experiment name '%.64s' must be 1..%d letters, digits, '.', '_' or '-', not starting with '.' (it names the results folder)",
			   e->name, EXP_NAME_MAX);
		return -EINVAL;
	}
	return 0;
}

static int exp_seed(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	if (cfg_u64(n, 0, UINT64_MAX, &e->seed, err) != 0)
		return -EINVAL;
	if (e->seed_set)
		e->seed = e->seed_override;
	return 0;
}

static int exp_topology(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	/* The node belongs to e->doc: topo_from_cfg fills defaults into it. */
	return topo_from_cfg(e->doc, (struct cfg_node *)n, &e->topo, err);
}

static int exp_add_workload(struct exp *e, const struct cfg_node *it, const char *kind,
			    const struct cc_ops *cc, char err[CFG_ERR_BYTES])
{
	struct exp_workload *w = realloc(e->workloads, sizeof(*w) * (e->n_workloads + 1));
	const struct cfg_node *name = cfg_get(it, "name");

	if (!w)
		return -ENOMEM;
	e->workloads = w;
	w = &w[e->n_workloads];
	w->kind = kind;
	w->cc = cc;
	if (cc)
		w->cc_mark = cfg_get(it, "cc")->mark;
	if (name) {
		/* The name is a key of summary.json (workloads.NAME.*) and a
		 * field of flows.csv: no dots, commas or quotes, and whole. */
		const char *s;
		size_t len;

		if (cfg_str(name, &s, err) != 0)
			return -EINVAL;
		len = strlen(s);
		if (len == 0 || len >= sizeof(w->name) || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						"abcdefghijklmnopqrstuvwxyz0123456789_-") != len) {
			cfg_errorf(err, name, "workload name '%s' must be 1..%zu letters, digits, '_' or '-' (it names the workload in summary.json and flows.csv)",
				   s, sizeof(w->name) - 1);
			return -EINVAL;
		}
		snprintf(w->name, sizeof(w->name), "%s", s);
	} else {
		snprintf(w->name, sizeof(w->name), "%s%u", kind, e->n_workloads);
	}
	for (uint32_t i = 0; i < e->n_workloads; i++) {
		if (strcmp(e->workloads[i].name, w->name) == 0) {
			cfg_errorf(err, name ? name : it, "workload name '%s' is used twice", w->name);
			return -EINVAL;
		}
	}
	e->n_workloads++;
	return 0;
}

/* "a, b or c" of a NULL-terminated name list, for "missing key" hints
 * that follow a registry. */
static void exp_name_list(const char *const *names, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; names[i] && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
}

/* The messages of workload @it (messages @first.. of @e) on endpoints
 * (GPUs placed by tg_wl_place), every one joining two endpoints that can
 * reach each other (topo_ep_islands): else an error at the workload,
 * naming the first pair that cannot. */
static int exp_reachable(struct exp *e, const struct cfg_node *it, uint32_t first,
			 char err[CFG_ERR_BYTES])
{
	char a[TOPO_EP_NAME_BYTES], b[TOPO_EP_NAME_BYTES];

	if (!e->islands && first < e->n_msgs && topo_ep_islands(e->topo, &e->islands) != 0)
		return -ENOMEM;
	if (first < e->n_msgs && tg_wl_place(e->topo, e->islands, &e->msgs, &e->n_msgs, first) != 0)
		return -ENOMEM;
	for (uint32_t i = first; i < e->n_msgs; i++) {
		const struct tg_msg *m = &e->msgs[i];

		if (e->islands[m->src] == e->islands[m->dst])
			continue;
		cfg_errorf(err, it, "%s cannot reach %s: no path joins them (hosts do not forward; "
			   "another plane or scale-up domain?)",
			   topo_ep_name(e->topo, m->src, a), topo_ep_name(e->topo, m->dst, b));
		return -EINVAL;
	}
	return 0;
}

/* A list of workloads, each expanded by its kind (traffic/tg_wl.h). */
static int exp_traffic(const struct cfg_node *t, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	if (cfg_want(t, CFG_SEQ, "traffic (a list of workloads)", err) != 0)
		return -EINVAL;
	if (t->n > TG_WL_MAX_WORKLOADS) {
		cfg_errorf(err, t, "traffic lists %u workloads, at most %d (a message carries its "
			   "workload's index in 16 bits): merge workloads, e.g. into one kind: messages list",
			   t->n, TG_WL_MAX_WORKLOADS);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		const struct cfg_node *it = t->items[i], *k, *cc;
		const struct tg_wl_kind *kind;
		struct tg_wl_ctx ctx = {
			.doc = e->doc,
			.topo = e->topo,
			.dscp = e->nic.data_dscp,
			.payload = e->nic.payload,
			.go_back_n = e->nic.recovery == NIC_RECOVERY_GBN,
			.seed = e->seed,
			.index = (uint16_t)e->n_workloads,
			.msgs = &e->msgs,
			.n_msgs = &e->n_msgs,
			.msgs_cap = e->n_msgs,
			.graph = &e->graph,
			.colls = &e->colls,
			.n_colls = &e->n_colls,
			.steps = &e->steps,
			.n_steps = &e->n_steps,
			.gpu_order = &e->gpu_order,
			.gpu_order_clash = &e->gpu_order_clash,
			.admit = exp_estimate_admit,
			.admit_arg = e,
		};
		const struct tg_graph *g = &e->graph;
		uint32_t first, ops = g->n_ops, deps = g->n_deps, colls = e->n_colls, steps = e->n_steps;
		char kinds[256];
		int idx, r;

		exp_name_list(tg_wl_names(), kinds, sizeof(kinds));
		if (cfg_want(it, CFG_MAP, "workload", err) != 0 ||
		    !(k = exp_need(it, "kind", kinds, err)) ||
		    cfg_enum(k, tg_wl_names(), &idx, err) != 0)
			return -EINVAL;
		kind = tg_wl_find(tg_wl_names()[idx]);
		/* Its own congestion control, overriding nic.cc for its QPs. */
		if ((cc = cfg_get(it, "cc")) != NULL) {
			if (cc_read(cc, &ctx.cc, err) != 0)
				return -EINVAL;
		}
		if (tg_wl_qp_mode(it, &ctx, err) != 0)
			return -EINVAL;
		first = e->n_msgs;
		r = kind->expand((struct cfg_node *)it, &ctx, err);
		if (r == 0)
			r = exp_reachable(e, it, first, err);
		if (r == 0)
			r = exp_add_workload(e, it, kind->kind.name, ctx.cc, err);
		if (r != 0)
			return r;
		/* Every kind tells its estimate before it expands, and what it
		 * made is within it (the tests check the same on samples). */
		assert(ctx.admitted && e->n_msgs - first <= ctx.est.msgs &&
		       g->n_ops - ops <= ctx.est.ops && g->n_deps - deps <= ctx.est.deps &&
		       e->n_colls - colls <= ctx.est.colls && e->n_steps - steps <= ctx.est.steps);
		(void)ops, (void)deps, (void)colls, (void)steps; /* read by the assert only */
		e->workloads[e->n_workloads - 1].est = ctx.est;
		e->qp_pairs_est += ctx.est.qp_pairs;
	}
	return 0;
}

/* ---- capture and outputs ---- */

static int exp_capture_ports(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	return exp_port_list(e, n, "capture.ports (a list of node:port)", true, &e->captures, NULL,
			     &e->n_captures, err);
}

static const char *const exp_cap_formats[] = { "pcap", "pcapng", NULL };
static const char *const exp_cap_ib_linktypes[] = { "infiniband", "user0", NULL };

static const struct cfg_key exp_capture_keys[] = {
	{ "snaplen", CFG_KEY_UINT, "65535", .off = offsetof(struct exp, snaplen), .size = 4,
	  .min = 64, .max = 65535, .doc = "bytes captured per frame at most" },
	{ "ports", CFG_KEY_CUSTOM, NULL, .read = exp_capture_ports,
	  .doc = "connected ports (node:port) to record, no repeats" },
	{ "format", CFG_KEY_ENUM, "pcap", .off = offsetof(struct exp, cap_format),
	  .names = exp_cap_formats,
	  .doc = "pcap (a file per port) or pcapng (one file, an interface per port)" },
	{ "ib_linktype", CFG_KEY_ENUM, "infiniband", .off = offsetof(struct exp, cap_ib_linktype),
	  .names = exp_cap_ib_linktypes,
	  .doc = "link type of InfiniBand ports' captures: infiniband (247) or user0 (147, "
		 "for Wireshark 4.0 with tools/fabemu-ib.lua)" },
};

static const struct cfg_table exp_capture_table = {
	.section = "capture",
	.keys = exp_capture_keys,
	.n_keys = sizeof(exp_capture_keys) / sizeof(exp_capture_keys[0]),
};

static int exp_series_ports(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	return exp_port_list(e, n, "outputs.series.ports", false, &e->series, NULL, &e->n_series,
			     err);
}

static int exp_series_interval(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	if (cfg_time(n, &e->series_interval_ps, err) != 0)
		return -EINVAL;
	if (e->series_interval_ps < EXP_SERIES_MIN_INTERVAL_PS) {
		cfg_errorf(err, n, "the sampling interval %s is below the minimum 100ns (each sample "
			   "writes a row per port: finer ones write gigabytes per simulated millisecond)",
			   n->str);
		return -EINVAL;
	}
	return 0;
}

/* Workload names whose flows go into rates.csv (traffic is read before). */
static int exp_series_flows(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;
	const char *cands[64];

	if (cfg_want(n, CFG_SEQ, "outputs.series.flows (a list of workload names)", err) != 0)
		return -EINVAL;
	e->rate_workloads = calloc(n->n ? n->n : 1, sizeof(*e->rate_workloads));
	if (!e->rate_workloads)
		return -ENOMEM;
	for (uint32_t i = 0; i < e->n_workloads && i < 63; i++)
		cands[i] = e->workloads[i].name;
	cands[e->n_workloads < 63 ? e->n_workloads : 63] = NULL;
	for (uint32_t i = 0; i < n->n; i++) {
		const char *name, *near;
		uint32_t w = 0;

		if (cfg_str(n->items[i], &name, err) != 0)
			return -EINVAL;
		while (w < e->n_workloads && strcmp(e->workloads[w].name, name) != 0)
			w++;
		if (w == e->n_workloads) {
			near = cfg_nearest(name, cands);
			if (near)
				cfg_errorf(err, n->items[i], "no workload named '%s' (did you mean '%s'?)",
					   name, near);
			else
				cfg_errorf(err, n->items[i], "no workload named '%s'", name);
			return -EINVAL;
		}
		for (uint32_t k = 0; k < e->n_rate_workloads; k++) {
			if (e->rate_workloads[k] == w) {
				cfg_errorf(err, n->items[i], "workload '%s' listed twice", name);
				return -EINVAL;
			}
		}
		e->rate_workloads[e->n_rate_workloads++] = (uint16_t)w;
	}
	return 0;
}

static const struct cfg_key exp_series_keys[] = {
	{ "ports", CFG_KEY_CUSTOM, .required = "the ports to sample, node:port",
	  .read = exp_series_ports, .doc = "ports (node:port) sampled into series.csv" },
	{ "interval", CFG_KEY_CUSTOM, .required = "the sampling interval, e.g. 1us",
	  .read = exp_series_interval, .doc = "sampling interval, at least 100ns" },
	{ "max_bytes", CFG_KEY_SIZE, "1GiB", .off = offsetof(struct exp, series_max_bytes), .size = 8,
	  .min = 1 << 20, .max = UINT64_C(1) << 40,
	  .doc = "what series.csv and rates.csv may take together; sampling stops there (run not valid)" },
	{ "flows", CFG_KEY_CUSTOM, NULL, .read = exp_series_flows,
	  .doc = "workload names whose flows (sending QPs) are sampled into rates.csv; absent: none" },
};

static const struct cfg_table exp_series_table = {
	.section = "outputs.series",
	.keys = exp_series_keys,
	.n_keys = sizeof(exp_series_keys) / sizeof(exp_series_keys[0]),
};

static const struct cfg_sub exp_series_subs[] = { { &exp_series_table, 0 }, { NULL, 0 } };

/* outputs.flows_csv: true, false or auto (decided by the message count
 * once the traffic is read: exp_finish). */
static int exp_flows_csv(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	e->flows_csv_auto = n->type == CFG_SCALAR && !n->quoted && !strcmp(n->str, "auto");
	if (e->flows_csv_auto)
		return 0;
	if (cfg_bool(n, &e->flows_csv, err) != 0) {
		if (n->type == CFG_SCALAR && !strstr(err, "YAML 1.2"))
			cfg_errorf(err, n, "expected true, false or auto, got '%s'", n->str);
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_key exp_outputs_keys[] = {
	{ "flows_csv", CFG_KEY_CUSTOM, "auto", .read = exp_flows_csv,
	  .doc = "write flows.csv: true, false, or auto (when the run has at most 100000 messages)" },
	{ "pfc_log", CFG_KEY_BOOL, "false", .off = offsetof(struct exp, pfc_log),
	  .doc = "write pfc_log.csv: a row per priority of every PFC frame a port sends or receives" },
	{ "series", CFG_KEY_SECTION, NULL, .subs = exp_series_subs, .what = "outputs.series",
	  .doc = "per-port time series {ports, interval}; absent: none" },
};

static const struct cfg_table exp_outputs_table = {
	.section = "outputs",
	.keys = exp_outputs_keys,
	.n_keys = sizeof(exp_outputs_keys) / sizeof(exp_outputs_keys[0]),
};

/* ---- the document ---- */

/* The pool's size follows the packets' (nic.payload) unless given. */
static int exp_top_check(const struct cfg_node *root, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	(void)root;
	(void)err;
	if (!e->engine.pool_pkts)
		e->engine.pool_pkts = e->nic.payload ? EXP_POOL_PAYLOAD_PKTS : EXP_POOL_HEADERS_PKTS;
	return 0;
}

static const struct cfg_sub exp_fabric_subs[] = {
	{ &sw_cfg_fabric_table, offsetof(struct exp, sw) },
	{ &exp_fabric_table, 0 },
	{ NULL, 0 },
};
static const struct cfg_sub exp_nic_subs[] = {
	{ &nic_cfg_table, offsetof(struct exp, nic) },
	{ NULL, 0 },
};
static const struct cfg_key exp_engine_keys[] = {
	{ "max_memory", CFG_KEY_SIZE, NULL, .off = offsetof(struct exp, max_memory_bytes), .size = 8,
	  .min = 1 << 20, .max = UINT64_C(1) << 50,
	  .doc = "refuse a run whose estimated memory is above this; absent: the machine's physical memory" },
};

static const struct cfg_table exp_engine_table = {
	.section = "engine",
	.keys = exp_engine_keys,
	.n_keys = sizeof(exp_engine_keys) / sizeof(exp_engine_keys[0]),
};

static const struct cfg_sub exp_engine_subs[] = {
	{ &sim_cfg_table, offsetof(struct exp, engine) },
	{ &exp_engine_table, 0 },
	{ NULL, 0 },
};
static const struct cfg_sub exp_capture_subs[] = { { &exp_capture_table, 0 }, { NULL, 0 } };
static const struct cfg_sub exp_outputs_subs[] = { { &exp_outputs_table, 0 }, { NULL, 0 } };

static const struct cfg_key exp_top_keys[] = {
	{ "name", CFG_KEY_CUSTOM, "experiment", .read = exp_name,
	  .doc = "names the run and its default results folder" },
	{ "description", CFG_KEY_ANY, .doc = "free text, not read" },
	{ "seed", CFG_KEY_CUSTOM, "1", .read = exp_seed,
	  .doc = "master seed; every random stream derives from it" },
	{ "stop_time", CFG_KEY_TIME, "0ns", .off = offsetof(struct exp, stop_ps),
	  .doc = "stop at this virtual time, 0ns = when no event is left" },
	{ "nightly", CFG_KEY_BOOL, "false", .off = offsetof(struct exp, nightly),
	  .doc = "too long for CI: fabemu check --skip-nightly skips it" },
	{ "topology", CFG_KEY_CUSTOM, .required = "leaf-spine, fat-tree, rail-optimised or explicit",
	  .read = exp_topology, .doc = "the fabric graph (a registered kind)" },
	{ "fabric", CFG_KEY_SECTION, "{}", .subs = exp_fabric_subs, .what = "fabric",
	  .doc = "switch and port settings" },
	{ "nic", CFG_KEY_SECTION, "{}", .subs = exp_nic_subs, .what = "nic",
	  .doc = "RDMA NIC settings of every host" },
	{ "engine", CFG_KEY_SECTION, "{}", .subs = exp_engine_subs, .what = "engine",
	  .doc = "settings of the simulator itself" },
	{ "traffic", CFG_KEY_CUSTOM, .required = "a list of workloads", .read = exp_traffic,
	  .doc = "workloads (registered kinds)" },
	{ "faults", CFG_KEY_CUSTOM, NULL, .read = exp_faults_read,
	  .doc = "the fault schedule: links down and up, flaps, rate changes, loss, corruption, failing switches and NICs, PFC storms" },
	{ "failures", CFG_KEY_CUSTOM, NULL, .read = exp_failures_read,
	  .doc = "random failures per component kind: {until, nic, link, switch: {mtbf, mttr}}" },
	{ "capture", CFG_KEY_SECTION, NULL, .subs = exp_capture_subs, .what = "capture",
	  .doc = "ports to record to pcap; absent: none" },
	{ "outputs", CFG_KEY_SECTION, "{}", .subs = exp_outputs_subs, .what = "outputs",
	  .doc = "which result files to write" },
	{ "live", CFG_KEY_SECTION, NULL, .subs = exp_live_subs, .what = "live",
	  .doc = "fabemu live: host ports bound to real endpoints, and the pacing; absent: none" },
	{ "expect", CFG_KEY_CUSTOM, NULL, .read = exp_expects_read,
	  .doc = "assertions evaluated by fabemu check" },
};

static const struct cfg_table exp_top_table = {
	.section = "",
	.keys = exp_top_keys,
	.n_keys = sizeof(exp_top_keys) / sizeof(exp_top_keys[0]),
	.check = exp_top_check,
};

int exp_schema_keys(struct cfg_schema_names *out)
{
	const struct cfg_table *t;
	const struct tg_wl_kind *k;
	int r;

	memset(out, 0, sizeof(*out));
	r = cfg_schema_names_add(out, &exp_top_table);
	r = r ? r : cfg_schema_names_add(out, cc_cfg_table());
	r = r ? r : cfg_schema_names_add(out, link_layer_cfg_table());
	r = r ? r : cfg_schema_names_add(out, exp_expect_table());
	r = r ? r : exp_faults_schema(out);
	r = r ? r : exp_live_schema(out);
	for (unsigned i = 0; r == 0 && (t = topo_kind_table(i)) != NULL; i++)
		r = cfg_schema_names_add(out, t);
	for (unsigned i = 0; r == 0 && (k = tg_wl_kind_at(i)) != NULL; i++)
		for (const struct cfg_table *const *kt = k->tables; r == 0 && *kt; kt++)
			r = cfg_schema_names_add(out, *kt);
	if (r != 0)
		cfg_schema_names_free(out);
	return r;
}

/* An algorithm in use reads INT (CC_F_INT, HPCC): the switches must write
 * it. fabric.int absent: filled in as true (so resolved.yaml reruns the
 * same); given as false: an error. */
static int exp_cc_int(struct exp *e, const struct cc_ops *ops, const struct cfg_mark *m,
		      char err[CFG_ERR_BYTES])
{
	struct cfg_node *fab = cfg_schema_get(cfg_doc_root(e->doc), "fabric");
	struct cfg_node *v;

	if (!e->ll->eth_switch) {
		/* HPCC needs INT, an Ethernet switch feature. */
		snprintf(err, CFG_ERR_BYTES,
			 "%s:%u:%u: congestion control '%s' reads in-band telemetry, which is not modelled with fabric.link_layer: %s (use ibcc, or another that needs no INT)",
			 m->file, m->line, m->col, ops->kind.name, e->ll->kind.name);
		return -EINVAL;
	}
	if (!fab || e->sw.int_on)
		return 0;
	if ((v = cfg_schema_get(fab, "int")) != NULL) {
		cfg_errorf(err, v, "congestion control '%s' reads in-band telemetry: fabric.int must be true (or absent)",
			   ops->kind.name);
		return -EINVAL;
	}
	if (cfg_doc_fill(e->doc, fab, "int", "true", &v, err) != 0)
		return -EINVAL;
	e->sw.int_on = true;
	return 0;
}

/* An algorithm in use (named at @m) that reacts to congestion marks only
 * (cc_marks_only: DCQCN, IB CC) where the link layer marks none of its
 * traffic (marking off, or on for other classes only): it could
 * never slow a QP down. Refused; one that also reacts to losses (DCTCP) is
 * warned of when the fabric is ready (fabric_mon.c). */
static int exp_cc_marks(const struct exp *e, const struct cc_ops *ops, const struct cfg_mark *m,
			char err[CFG_ERR_BYTES])
{
	char hint[CFG_ERR_BYTES / 2];

	if (!cc_marks_only(ops) || link_layer_marks_traffic(e, ops))
		return 0;
	link_layer_marking_hint(e, hint, sizeof(hint));
	snprintf(err, CFG_ERR_BYTES,
		 "%s:%u:%u: congestion control '%s' reacts to congestion marks only, but nothing marks its packets with fabric.link_layer: %s (%s): it would never slow a sender down",
		 m->file, m->line, m->col, ops->kind.name, e->ll->kind.name, hint);
	return -EINVAL;
}

/* An algorithm in use (named at @m): its INT and marking checks. */
static int exp_cc_check(struct exp *e, const struct cc_ops *ops, const struct cfg_mark *m,
			char err[CFG_ERR_BYTES])
{
	if ((ops->flags & CC_F_CREDIT) && strcmp(e->ll->kind.name, "uet") != 0) {
		snprintf(err, CFG_ERR_BYTES,
			 "%s:%u:%u: congestion control '%s' is Ultra Ethernet's receiver credit: it needs fabric.link_layer: uet (this is %s)",
			 m->file, m->line, m->col, ops->kind.name, e->ll->kind.name);
		return -EINVAL;
	}
	if (e->ll->cc_check && e->ll->cc_check(e, ops, m, err) != 0)
		return -EINVAL;
	if ((ops->flags & CC_F_INT) && exp_cc_int(e, ops, m, err) != 0)
		return -EINVAL;
	return exp_cc_marks(e, ops, m, err);
}

/* The settings of every congestion control in use (nic.cc and the
 * workloads' own): defaults filled in for those whose nic.<name> section is
 * absent, so that they show in the resolved experiment; INT turned on when
 * one reads it. */
static int exp_cc_resolve(struct exp *e, char err[CFG_ERR_BYTES])
{
	struct cfg_node *nic = cfg_schema_get(cfg_doc_root(e->doc), "nic");
	const struct cfg_node *cc = nic ? cfg_get(nic, "cc") : NULL, *ae;
	bool nic_used = e->n_workloads == 0;

	if (!nic)
		return 0;
	e->cc_mark = cc ? cc->mark : nic->mark;
	ae = cfg_get(nic, "ack_every");
	e->ack_every_mark = ae ? ae->mark : nic->mark;
	if (cc_cfg_resolve(e->doc, nic, e->nic.cc, e->cc_cfg, err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < e->n_workloads; i++) {
		const struct cc_ops *ops = e->workloads[i].cc;

		if (!ops) {
			nic_used = true;
			continue;
		}
		if (cc_cfg_resolve(e->doc, nic, ops, e->cc_cfg, err) != 0 ||
		    exp_cc_check(e, ops, &e->workloads[i].cc_mark, err) != 0)
			return -EINVAL;
		e->cc_flags |= ops->flags;
	}
	if (nic_used) {
		if (exp_cc_check(e, e->nic.cc, &e->cc_mark, err) != 0)
			return -EINVAL;
		e->cc_flags |= e->nic.cc->flags;
	}
	return 0;
}

static int exp_finish(struct exp *e, const char *const *sets, unsigned n_sets,
		      struct exp **out, char err[CFG_ERR_BYTES])
{
	/* The algorithms' nic.<name> sections go into e->cc_cfg (a block of
	 * its own): a second table of the top level that declares only `nic`,
	 * read with the first's nic keys. */
	struct cfg_sub cc_subs[] = { { cc_cfg_table(), 0 }, { NULL, 0 } };
	struct cfg_key cc_nic = { "nic", CFG_KEY_SECTION, "{}", .subs = cc_subs, .what = "nic" };
	struct cfg_table cc_top = { .section = "", .keys = &cc_nic, .n_keys = 1 };
	/* And the link layers' sections of fabric: (fabric.ib) into e->ll_cfg. */
	struct cfg_sub ll_subs[] = { { link_layer_cfg_table(), 0 }, { NULL, 0 } };
	struct cfg_key ll_fabric = { "fabric", CFG_KEY_SECTION, "{}", .subs = ll_subs,
				     .what = "fabric" };
	struct cfg_table ll_top = { .section = "", .keys = &ll_fabric, .n_keys = 1 };
	struct cfg_bind top[] = { { &exp_top_table, e }, { &cc_top, NULL }, { &ll_top, NULL } };

	if (!(e->cc_cfg = cc_cfg_new()) || !(e->ll_cfg = link_layer_cfg_new(e))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		exp_free(e);
		return -ENOMEM;
	}
	top[1].params = e->cc_cfg;
	top[2].params = e->ll_cfg;
	e->sets = sets;
	e->n_sets = n_sets;
	for (unsigned i = 0; i < n_sets; i++) {
		if (cfg_doc_set(e->doc, sets[i], i + 1, err) != 0) {
			exp_free(e);
			return -EINVAL;
		}
	}
	if (cfg_schema_read(e->doc, cfg_doc_root(e->doc), "experiment", top, 3, err) != 0 ||
	    (e->ll->exp_check && e->ll->exp_check(e, err) != 0) || exp_cc_resolve(e, err) != 0 ||
	    exp_estimate_check(e, cfg_get(cfg_doc_root(e->doc), "traffic"), err) != 0) {
		exp_free(e);
		return -EINVAL;
	}
	if (e->flows_csv_auto) {
		/* The document says what ran: auto's choice (so that resolved.yaml
		 * of a run that writes flows.csv says what it always said). */
		e->flows_csv = e->n_msgs + tg_graph_stream_msgs(&e->graph) <= EXP_FLOWS_CSV_AUTO_MSGS;
		if (cfg_doc_set(e->doc, e->flows_csv ? "outputs.flows_csv=true" : "outputs.flows_csv=false",
				n_sets + 2, err) != 0) {
			exp_free(e);
			return -EINVAL;
		}
	}
	if (e->seed_set) {
		/* The document says what ran: --seed replaces the seed's value. */
		char set[48];

		snprintf(set, sizeof(set), "seed=%llu", (unsigned long long)e->seed);
		if (cfg_doc_set(e->doc, set, n_sets + 1, err) != 0) {
			exp_free(e);
			return -EINVAL;
		}
	}
	*out = e;
	return 0;
}

int exp_load(const char *path, const char *const *sets, unsigned n_sets, bool seed_set,
	     uint64_t seed, struct exp **out, char err[CFG_ERR_BYTES])
{
	struct exp *e = calloc(1, sizeof(*e));

	if (!e) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	e->path = path;
	e->seed_set = seed_set;
	e->seed_override = seed;
	if (cfg_doc_load(path, &e->doc, err) != 0) {
		free(e);
		return -EINVAL;
	}
	return exp_finish(e, sets, n_sets, out, err);
}

int exp_load_string(const char *name, const char *text, const char *const *sets,
		    unsigned n_sets, struct exp **out, char err[CFG_ERR_BYTES])
{
	struct exp *e = calloc(1, sizeof(*e));

	if (!e) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	e->path = name;
	if (cfg_doc_load_string(name, text, &e->doc, err) != 0) {
		free(e);
		return -EINVAL;
	}
	return exp_finish(e, sets, n_sets, out, err);
}

void exp_free(struct exp *e)
{
	if (!e)
		return;
	topo_free(e->topo);
	free(e->msgs);
	tg_graph_free(&e->graph);
	free(e->colls);
	free(e->steps);
	free(e->gpu_order);
	free(e->workloads);
	free(e->islands);
	free(e->captures);
	free(e->live.ports);
	free(e->expects);
	exp_faults_free(e);
	free(e->series);
	free(e->rate_workloads);
	free(e->pfc_off);
	free(e->pfc_off_marks);
	link_layer_cfg_free(e->ll_cfg);
	cc_cfg_free(e->cc_cfg);
	cfg_doc_free(e->doc);
	free(e);
}

int exp_write_resolved(const struct exp *e, const char *path, char err[CFG_ERR_BYTES])
{
	FILE *f = cfg_fopen_out(path);
	int rc;

	if (!f) {
		rc = -errno;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot create: %s", path, strerror(errno));
		return rc;
	}
	/* The same text whatever file and overrides it came from, so that a
	 * run of it writes it again byte for byte (overrides.txt keeps the
	 * overrides); file paths are rewritten from the results folder. */
	fprintf(f, "# The experiment as it ran, with every default and override applied\n"
		   "# (overrides.txt lists the overrides; file paths are relative to this folder).\n");
	fprintf(f, "# `fabemu run` on this file, without overrides, runs it again.\n");
	{
		const char *slash = strrchr(path, '/');
		char dir[4096];

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
			 slash ? path : ".");
		rc = cfg_doc_write_at(e->doc, f, dir, err);
	}
	if (fclose(f) != 0 && rc == 0) {
		rc = -errno;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot write: %s", path, strerror(errno));
	}
	return rc;
}

int exp_write_overrides(const struct exp *e, const char *path, char err[CFG_ERR_BYTES])
{
	FILE *f = cfg_fopen_out(path);
	int rc = 0;

	if (!f) {
		rc = -errno;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot create: %s", path, strerror(errno));
		return rc;
	}
	if (e->seed_set)
		fprintf(f, "--seed %llu\n", (unsigned long long)e->seed_override);
	for (unsigned i = 0; i < e->n_sets; i++)
		fprintf(f, "--set %s\n", e->sets[i]);
	if (fclose(f) != 0) {
		rc = -errno;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot write: %s", path, strerror(errno));
	}
	return rc;
}
