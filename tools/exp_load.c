/* Experiment loader: walks the YAML tree section by section, checking every
 * key, type and range, and expands workloads into messages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"

#define EXP_MAX_MSG_BYTES (UINT64_C(1) << 31) /* IB maximum message size */

enum {
	EXP_POOL_HEADERS = 1 << 17, /* default pool, headers-only packets (~0.3 KiB each) */
	EXP_POOL_PAYLOAD = 1 << 15, /* default pool with payload (~4.4 KiB each at 4 KiB MTU) */
};

static const char *const top_keys[] = {
	"capture", "description", "engine", "expect", "fabric", "name", "nic",
	"outputs", "seed", "stop_time", "topology", "traffic", NULL,
};
static const char *const nic_keys[] = {
	"ack_dscp", "ack_every", "bdp_fc", "cc", "cnp_dscp", "cnp_interval", "dscp", "mtu", "payload",
	"recovery", "retry_cnt", "rto", "rto_max", "sr_window", "vlan_id", NULL,
};
static const char *const recovery_names[] = { "go-back-n", "selective-repeat", NULL };
static const char *const engine_keys[] = { "packet_pool", NULL };
static const char *const capture_keys[] = { "ports", "snaplen", NULL };
static const char *const outputs_keys[] = { "flows_csv", "series", NULL };
static const char *const series_keys[] = { "interval", "ports", NULL };
static const char *const expect_keys[] = { "metric", "op", "tolerance", "value", NULL };
static const char *const wl_kinds[] = { "messages", "permutation", "incast", NULL };
static const char *const wl_messages_keys[] = { "kind", "messages", "name", NULL };
static const char *const msg_keys[] = { "dscp", "dst", "op", "size", "src", "start", NULL };
static const char *const wl_perm_keys[] = {
	"dscp", "hosts", "kind", "name", "op", "size", "start", NULL,
};
static const char *const wl_incast_keys[] = {
	"count", "dscp", "dst", "kind", "name", "op", "size", "srcs", "start", NULL,
};
static const char *const op_names[] = { "write", "send", "read", NULL };
static const char *const expect_ops[] = { "<", "<=", "==", "!=", ">=", ">", NULL };
static const int rdma_mtus[] = { 256, 512, 1024, 2048, 4096 };

/* Every accepted key as "section.key" (docs are checked against this). */
static const char *const schema_keys[] = {
	"name", "description", "seed", "stop_time", "topology", "fabric", "nic", "engine",
	"traffic", "capture", "outputs", "expect",
	"topology.kind", "topology.leaves", "topology.spines", "topology.hosts_per_leaf",
	"topology.links_per_spine", "topology.k", "topology.tiers", "topology.host_link",
	"topology.fabric_link", "topology.nodes", "topology.links", "topology.default_link",
	"fabric.buffer", "fabric.scheduler", "fabric.scheduler.strict",
	"fabric.scheduler.weights", "fabric.scheduler.quantum", "fabric.dscp_map",
	"fabric.tc_map", "fabric.reserve", "fabric.egress_alpha", "fabric.loss", "fabric.pfc",
	"fabric.pfc.enabled", "fabric.pfc.priorities", "fabric.pfc.headroom", "fabric.pfc.xoff",
	"fabric.pfc.xon", "fabric.pfc.alpha", "fabric.pfc.xon_offset", "fabric.pfc.pause_quanta",
	"fabric.pfc.disabled_ports", "fabric.pfc.watchdog", "fabric.pfc.watchdog.detection",
	"fabric.pfc.watchdog.restoration", "fabric.pfc.deadlock_check", "fabric.ecn",
	"fabric.ecn.tcs", "fabric.ecn.kmin", "fabric.ecn.kmax", "fabric.ecn.pmax",
	"fabric.ecn.mark_on", "outputs.series", "outputs.series.ports", "outputs.series.interval",
	"nic.mtu", "nic.ack_every", "nic.payload", "nic.vlan_id", "nic.dscp", "nic.ack_dscp",
	"nic.cc", "nic.recovery", "nic.rto", "nic.rto_max", "nic.retry_cnt", "nic.sr_window",
	"nic.cnp_dscp", "nic.cnp_interval", "nic.bdp_fc", "engine.packet_pool", "traffic.kind", "traffic.name", "traffic.messages",
	"traffic.hosts", "traffic.srcs", "traffic.count", "traffic.dst", "traffic.src",
	"traffic.size", "traffic.start", "traffic.op", "traffic.dscp", "capture.ports",
	"capture.snaplen", "outputs.flows_csv", "expect.metric", "expect.op", "expect.value",
	"expect.tolerance",
	NULL,
};

const char *const *exp_schema_keys(void) { return schema_keys; }

const char *exp_op_name(enum exp_op op) { return expect_ops[op]; }

int exp_map(const struct cfg_node *n, const char *what, const char *const *keys, char *err)
{
	if (cfg_want(n, CFG_MAP, what, err) != 0)
		return -EINVAL;
	return cfg_check_keys(n, keys, err);
}

int exp_dscp(const struct cfg_node *n, uint8_t *out, char *err)
{
	uint64_t v;

	if (cfg_u64(n, 0, 63, &v, err) != 0)
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

int exp_small(const struct cfg_node *n, uint8_t max, uint8_t *out, char *err)
{
	uint64_t v;

	if (cfg_u64(n, 0, max, &v, err) != 0)
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

static int exp_host(const struct exp *e, const struct cfg_node *n, uint32_t *host, char *err)
{
	const char *name;
	const char *cands[64];
	uint32_t nc = 0;
	int idx;

	if (cfg_str(n, &name, err) != 0)
		return -EINVAL;
	idx = topo_find(e->topo, name);
	if (idx >= 0 && e->topo->nodes[idx].kind == TOPO_HOST) {
		*host = e->topo->nodes[idx].index;
		return 0;
	}
	if (idx >= 0) {
		cfg_errorf(err, n, "'%s' is a switch, not a host", name);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < e->topo->n_hosts && nc < 63; i++)
		cands[nc++] = e->topo->nodes[e->topo->hosts[i]].name;
	cands[nc] = NULL;
	{
		const char *near = cfg_nearest(name, cands);

		if (near)
			cfg_errorf(err, n, "unknown host '%s' (did you mean '%s'?)", name, near);
		else
			cfg_errorf(err, n, "unknown host '%s' (hosts are %s .. %s)", name,
				   e->topo->nodes[e->topo->hosts[0]].name,
				   e->topo->nodes[e->topo->hosts[e->topo->n_hosts - 1]].name);
	}
	return -EINVAL;
}

static int exp_mtu(const struct cfg_node *n, uint32_t *out, char *err)
{
	uint64_t v;
	const char *s = n->type == CFG_SCALAR ? n->str : "";
	bool digits = *s != '\0';

	for (const char *p = s; *p; p++)
		digits = digits && *p >= '0' && *p <= '9';
	if ((digits ? cfg_u64(n, 0, UINT32_MAX, &v, err)
		    : cfg_size(n, 0, UINT32_MAX, &v, err)) != 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(rdma_mtus) / sizeof(rdma_mtus[0]); i++) {
		if (v == (uint64_t)rdma_mtus[i]) {
			*out = (uint32_t)v;
			return 0;
		}
	}
	cfg_errorf(err, n, "RoCE path MTU must be one of 256, 512, 1024, 2048, 4096 bytes (got %llu)",
		   (unsigned long long)v);
	return -EINVAL;
}

static int exp_nic(struct exp *e, const struct cfg_node *nn, char *err)
{
	const struct cfg_node *c;
	uint64_t v;

	if (exp_map(nn, "nic", nic_keys, err) != 0)
		return -EINVAL;
	EXP_OPT(nn, "mtu", exp_mtu(n_, &e->mtu_bytes, err));
	if ((c = cfg_get(nn, "ack_every")) != NULL) {
		if (cfg_u64(c, 1, 1 << 16, &v, err) != 0)
			return -EINVAL;
		e->ack_every_pkts = (uint32_t)v;
	}
	EXP_OPT(nn, "payload", cfg_bool(n_, &e->payload, err));
	if ((c = cfg_get(nn, "vlan_id")) != NULL) {
		if (cfg_u64(c, 0, 4095, &v, err) != 0)
			return -EINVAL;
		e->vlan = true;
		e->vid = (uint16_t)v;
	}
	EXP_OPT(nn, "dscp", exp_dscp(n_, &e->data_dscp, err));
	EXP_OPT(nn, "ack_dscp", exp_dscp(n_, &e->ack_dscp, err));
	if ((c = cfg_get(nn, "cc")) != NULL) {
		int idx;

		if (cfg_enum(c, cc_names(), &idx, err) != 0)
			return -EINVAL;
		e->cc = cc_find(cc_names()[idx]);
	}
	if ((c = cfg_get(nn, "recovery")) != NULL) {
		int idx;

		if (cfg_enum(c, recovery_names, &idx, err) != 0)
			return -EINVAL;
		e->recovery = idx == 1 ? NIC_RECOVERY_SR : NIC_RECOVERY_GBN;
	}
	EXP_OPT(nn, "rto", cfg_time(n_, &e->rto_ps, err));
	EXP_OPT(nn, "rto_max", cfg_time(n_, &e->rto_max_ps, err));
	if (e->rto_ps == 0 || (cfg_get(nn, "rto_max") && e->rto_max_ps < e->rto_ps)) {
		cfg_errorf(err, e->rto_ps == 0 ? cfg_get(nn, "rto") : cfg_get(nn, "rto_max"),
			   e->rto_ps == 0 ? "the retransmission timeout must be above 0"
					  : "rto_max is below rto");
		return -EINVAL;
	}
	if ((c = cfg_get(nn, "retry_cnt")) != NULL) {
		if (cfg_u64(c, 1, 7, &v, err) != 0)
			return -EINVAL;
		e->retry_cnt = (uint8_t)v;
	}
	if ((c = cfg_get(nn, "sr_window")) != NULL) {
		if (cfg_u64(c, 64, 1 << 22, &v, err) != 0)
			return -EINVAL;
		if (v & (v - 1)) {
			cfg_errorf(err, c, "sr_window must be a power of two (packets), e.g. 1024");
			return -EINVAL;
		}
		e->sr_window_pkts = (uint32_t)v;
	}
	if ((c = cfg_get(nn, "cnp_dscp")) != NULL) {
		if (cfg_u64(c, 1, 63, &v, err) != 0)
			return -EINVAL;
		e->cnp_dscp = (uint8_t)v;
	}
	EXP_OPT(nn, "cnp_interval", cfg_time(n_, &e->cnp_interval_ps, err));
	EXP_OPT(nn, "bdp_fc", cfg_bool(n_, &e->bdp_fc, err));
	return 0;
}

static int exp_add_workload(struct exp *e, const struct cfg_node *it, const char *kind)
{
	struct exp_workload *w = realloc(e->workloads, sizeof(*w) * (e->n_workloads + 1));
	const struct cfg_node *name = cfg_get(it, "name");

	if (!w)
		return -ENOMEM;
	e->workloads = w;
	w = &w[e->n_workloads];
	w->kind = kind;
	if (name && name->type == CFG_SCALAR)
		snprintf(w->name, sizeof(w->name), "%s", name->str);
	else
		snprintf(w->name, sizeof(w->name), "%s%u", kind, e->n_workloads);
	e->n_workloads++;
	return 0;
}

/* Fields every message prototype shares: size, start, op, dscp. */
static int exp_proto(struct exp *e, const struct cfg_node *it, struct tg_msg *m, char *err)
{
	const struct cfg_node *sz = cfg_get(it, "size");
	int op = TG_OP_WRITE;

	m->start_ps = 0;
	m->dscp = e->data_dscp;
	m->workload = (uint16_t)e->n_workloads;
	if (!sz) {
		cfg_errorf(err, it, "missing key 'size' (message length, e.g. 1MiB)");
		return -EINVAL;
	}
	if (cfg_size(sz, 0, EXP_MAX_MSG_BYTES, &m->bytes, err) != 0)
		return -EINVAL;
	EXP_OPT(it, "start", cfg_time(n_, &m->start_ps, err));
	EXP_OPT(it, "op", cfg_enum(n_, op_names, &op, err));
	EXP_OPT(it, "dscp", exp_dscp(n_, &m->dscp, err));
	m->op = (uint8_t)op;
	return 0;
}

static const struct cfg_node *exp_need(const struct cfg_node *map, const char *key,
				       const char *what, char *err)
{
	const struct cfg_node *n = cfg_get(map, key);

	if (!n)
		cfg_errorf(err, map, "missing key '%s' (%s)", key, what);
	return n;
}

static int exp_push_msg(struct exp *e, const struct tg_msg *m)
{
	struct tg_msg *v = realloc(e->msgs, sizeof(*v) * (e->n_msgs + 1));

	if (!v)
		return -ENOMEM;
	e->msgs = v;
	v[e->n_msgs++] = *m;
	return 0;
}

static int exp_wl_messages(struct exp *e, const struct cfg_node *it, char *err)
{
	const struct cfg_node *list;

	if (cfg_check_keys(it, wl_messages_keys, err) != 0 ||
	    !(list = exp_need(it, "messages", "a list of {src, dst, size}", err)) ||
	    cfg_want(list, CFG_SEQ, "messages", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < list->n; i++) {
		const struct cfg_node *mn = list->items[i], *s, *d;
		struct tg_msg m;

		if (exp_map(mn, "message", msg_keys, err) != 0 ||
		    !(s = exp_need(mn, "src", "source host", err)) ||
		    !(d = exp_need(mn, "dst", "destination host", err)) ||
		    exp_proto(e, mn, &m, err) != 0 || exp_host(e, s, &m.src, err) != 0 ||
		    exp_host(e, d, &m.dst, err) != 0)
			return -EINVAL;
		if (m.src == m.dst) {
			cfg_errorf(err, d, "a message needs two different hosts (src and dst are both h%u)",
				   m.src);
			return -EINVAL;
		}
		if (exp_push_msg(e, &m) != 0)
			return -ENOMEM;
	}
	return 0;
}

/* A host list: `all` or a list of host names (no repeats). */
static int exp_hosts(struct exp *e, const struct cfg_node *n, uint32_t **out, uint32_t *n_out,
		     char *err)
{
	uint32_t *v;
	uint8_t *seen;

	if (n->type == CFG_SCALAR && strcmp(n->str, "all") == 0) {
		v = malloc(sizeof(*v) * e->topo->n_hosts);
		if (!v)
			return -ENOMEM;
		for (uint32_t i = 0; i < e->topo->n_hosts; i++)
			v[i] = i;
		*out = v;
		*n_out = e->topo->n_hosts;
		return 0;
	}
	if (n->type != CFG_SEQ) {
		cfg_errorf(err, n, "expected 'all' or a list of host names");
		return -EINVAL;
	}
	v = malloc(sizeof(*v) * (n->n ? n->n : 1));
	seen = calloc(e->topo->n_hosts, 1);
	if (!v || !seen) {
		free(v);
		free(seen);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n->n; i++) {
		if (exp_host(e, n->items[i], &v[i], err) != 0)
			goto bad;
		if (seen[v[i]]) {
			cfg_errorf(err, n->items[i], "host '%s' listed twice", n->items[i]->str);
			goto bad;
		}
		seen[v[i]] = 1;
	}
	free(seen);
	*out = v;
	*n_out = n->n;
	return 0;
bad:
	free(v);
	free(seen);
	return -EINVAL;
}

static int exp_wl_permutation(struct exp *e, const struct cfg_node *it, char *err)
{
	const struct cfg_node *hn = cfg_get(it, "hosts");
	uint32_t *hosts = NULL, nh = 0;
	struct tg_msg proto;
	struct rng rng;
	int r;

	if (cfg_check_keys(it, wl_perm_keys, err) != 0 || exp_proto(e, it, &proto, err) != 0)
		return -EINVAL;
	if (hn) {
		if ((r = exp_hosts(e, hn, &hosts, &nh, err)) != 0)
			return r;
	} else if ((r = exp_hosts(e, &(struct cfg_node){ .type = CFG_SCALAR, .str = "all" },
				  &hosts, &nh, err)) != 0) {
		return r;
	}
	if (nh < 2) {
		cfg_errorf(err, hn ? hn : it, "a permutation needs at least 2 hosts (got %u)", nh);
		free(hosts);
		return -EINVAL;
	}
	/* The stream of workload w: stable under edits of other workloads. */
	rng_init(&rng, e->seed, UINT64_C(0x7261666669630000) + e->n_workloads);
	r = tg_permutation(&rng, hosts, nh, &proto, &e->msgs, &e->n_msgs);
	free(hosts);
	return r;
}

static int exp_wl_incast(struct exp *e, const struct cfg_node *it, char *err)
{
	const struct cfg_node *dn, *sn = cfg_get(it, "srcs"), *cn = cfg_get(it, "count");
	uint32_t *srcs = NULL, ns = 0;
	struct tg_msg proto;
	int r;

	if (cfg_check_keys(it, wl_incast_keys, err) != 0 || exp_proto(e, it, &proto, err) != 0 ||
	    !(dn = exp_need(it, "dst", "the receiving host", err)) ||
	    exp_host(e, dn, &proto.dst, err) != 0)
		return -EINVAL;
	if ((sn != NULL) == (cn != NULL)) {
		cfg_errorf(err, it, "incast needs exactly one of 'srcs' (host list) or 'count' (first N other hosts)");
		return -EINVAL;
	}
	if (sn) {
		if ((r = exp_hosts(e, sn, &srcs, &ns, err)) != 0)
			return r;
		for (uint32_t i = 0; i < ns; i++) {
			if (srcs[i] == proto.dst) {
				cfg_errorf(err, sn, "incast sources include the destination h%u", proto.dst);
				free(srcs);
				return -EINVAL;
			}
		}
	} else {
		uint64_t count;

		if (cfg_u64(cn, 1, e->topo->n_hosts - 1, &count, err) != 0)
			return -EINVAL;
		srcs = malloc(sizeof(*srcs) * count);
		if (!srcs)
			return -ENOMEM;
		for (uint32_t h = 0; ns < count; h++)
			if (h != proto.dst)
				srcs[ns++] = h;
	}
	r = tg_incast(srcs, ns, &proto, &e->msgs, &e->n_msgs);
	free(srcs);
	return r;
}

static int exp_traffic(struct exp *e, const struct cfg_node *t, char *err)
{
	if (cfg_want(t, CFG_SEQ, "traffic (a list of workloads)", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct cfg_node *it = t->items[i], *k;
		int kind, r;

		if (cfg_want(it, CFG_MAP, "workload", err) != 0 ||
		    !(k = exp_need(it, "kind", "messages, permutation or incast", err)) ||
		    cfg_enum(k, wl_kinds, &kind, err) != 0)
			return -EINVAL;
		if (kind == 0)
			r = exp_wl_messages(e, it, err);
		else if (kind == 1)
			r = exp_wl_permutation(e, it, err);
		else
			r = exp_wl_incast(e, it, err);
		if (r == 0)
			r = exp_add_workload(e, it, wl_kinds[kind]);
		if (r != 0)
			return r;
	}
	return 0;
}

static int exp_capture(struct exp *e, const struct cfg_node *c, char *err)
{
	const struct cfg_node *ports;
	uint64_t v;

	if (exp_map(c, "capture", capture_keys, err) != 0)
		return -EINVAL;
	if (cfg_get(c, "snaplen")) {
		if (cfg_u64(cfg_get(c, "snaplen"), 64, 65535, &v, err) != 0)
			return -EINVAL;
		e->snaplen = (uint32_t)v;
	}
	if (!(ports = cfg_get(c, "ports")))
		return 0;
	if (cfg_want(ports, CFG_SEQ, "capture.ports (a list of node:port)", err) != 0)
		return -EINVAL;
	e->captures = calloc(ports->n ? ports->n : 1, sizeof(*e->captures));
	if (!e->captures)
		return -ENOMEM;
	for (uint32_t i = 0; i < ports->n; i++) {
		const struct cfg_node *pn = ports->items[i];
		struct exp_capture c;

		if (exp_port_ref(e, pn, &c, err) != 0)
			return -EINVAL;
		for (uint32_t j = 0; j < e->n_captures; j++) {
			if (e->captures[j].node == c.node && e->captures[j].port == c.port) {
				cfg_errorf(err, pn, "port %s listed twice", pn->str);
				return -EINVAL;
			}
		}
		e->captures[e->n_captures++] = c;
	}
	return 0;
}

int exp_port_ref(const struct exp *e, const struct cfg_node *pn, struct exp_capture *out, char *err)
{
	const char *s, *colon;
	char name[TOPO_NAME_BYTES];
	char *end;
	unsigned long port;
	int node;

	if (cfg_str(pn, &s, err) != 0)
		return -EINVAL;
	colon = strrchr(s, ':');
	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(name) || !colon[1]) {
		cfg_errorf(err, pn, "expected node:port such as h0:0, got '%s'", s);
		return -EINVAL;
	}
	memcpy(name, s, (size_t)(colon - s));
	name[colon - s] = '\0';
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (*end || errno || colon[1] == '-') {
		cfg_errorf(err, pn, "port '%s' is not a number", colon + 1);
		return -EINVAL;
	}
	node = topo_find(e->topo, name);
	if (node < 0) {
		cfg_errorf(err, pn, "unknown node '%s'", name);
		return -EINVAL;
	}
	if (port >= e->topo->nodes[node].n_ports ||
	    e->topo->nodes[node].port_links[port] == TOPO_NO_LINK) {
		cfg_errorf(err, pn, "%s has no connected port %lu (ports 0..%u)", name, port,
			   e->topo->nodes[node].n_ports - 1);
		return -EINVAL;
	}
	out->node = (uint32_t)node;
	out->port = (uint16_t)port;
	return 0;
}

static int exp_series(struct exp *e, const struct cfg_node *sr, char *err)
{
	const struct cfg_node *ports, *iv;

	if (exp_map(sr, "outputs.series", series_keys, err) != 0)
		return -EINVAL;
	if (!(ports = exp_need(sr, "ports", "the ports to sample, node:port", err)) ||
	    !(iv = exp_need(sr, "interval", "the sampling interval, e.g. 1us", err)) ||
	    cfg_want(ports, CFG_SEQ, "outputs.series.ports", err) != 0 ||
	    cfg_time(iv, &e->series_interval_ps, err) != 0)
		return -EINVAL;
	if (e->series_interval_ps == 0) {
		cfg_errorf(err, iv, "the sampling interval must be above 0");
		return -EINVAL;
	}
	e->series = calloc(ports->n ? ports->n : 1, sizeof(*e->series));
	if (!e->series)
		return -ENOMEM;
	for (uint32_t i = 0; i < ports->n; i++)
		if (exp_port_ref(e, ports->items[i], &e->series[e->n_series++], err) != 0)
			return -EINVAL;
	return 0;
}

static int exp_expects(struct exp *e, const struct cfg_node *x, char *err)
{
	if (cfg_want(x, CFG_SEQ, "expect (a list of assertions)", err) != 0)
		return -EINVAL;
	e->expects = calloc(x->n ? x->n : 1, sizeof(*e->expects));
	if (!e->expects)
		return -ENOMEM;
	for (uint32_t i = 0; i < x->n; i++) {
		const struct cfg_node *it = x->items[i], *m, *o, *v, *t;
		struct exp_expect *a = &e->expects[i];
		const char *metric;
		int op;

		if (exp_map(it, "assertion", expect_keys, err) != 0 ||
		    !(m = exp_need(it, "metric", "a summary.json path or flows.<column>.<stat>", err)) ||
		    !(o = exp_need(it, "op", "one of <, <=, ==, !=, >=, >", err)) ||
		    !(v = exp_need(it, "value", "the expected number", err)) ||
		    cfg_str(m, &metric, err) != 0 || cfg_enum(o, expect_ops, &op, err) != 0 ||
		    cfg_double(v, -1e300, 1e300, &a->value, err) != 0)
			return -EINVAL;
		if (strlen(metric) >= sizeof(a->metric)) {
			cfg_errorf(err, m, "metric name too long");
			return -EINVAL;
		}
		strcpy(a->metric, metric);
		a->op = (enum exp_op)op;
		a->mark = m->mark;
		if ((t = cfg_get(it, "tolerance")) != NULL) {
			if (t->type == CFG_SCALAR && t->str[0] && t->str[strlen(t->str) - 1] == '%') {
				double frac;

				if (cfg_fraction(t, 0, 10, &frac, err) != 0)
					return -EINVAL;
				a->tolerance = frac * (a->value < 0 ? -a->value : a->value);
			} else if (cfg_double(t, 0, 1e300, &a->tolerance, err) != 0) {
				return -EINVAL;
			}
		}
		e->n_expects++;
	}
	return 0;
}

static void exp_defaults(struct exp *e)
{
	e->name = "experiment";
	e->seed = 1;
	exp_fabric_defaults(e);
	e->mtu_bytes = 4096;
	e->ack_every_pkts = 16;
	e->data_dscp = 26;
	e->ack_dscp = 48;
	e->cc = cc_find("none");
	e->recovery = NIC_RECOVERY_GBN;
	e->rto_ps = UINT64_C(262144) * UNITS_PS_PER_NS; /* 4.096 us x 2^6 (IB local ACK timeout 6) */
	e->rto_max_ps = 0;                               /* rto x 64 */
	e->retry_cnt = 7;
	e->sr_window_pkts = 1024;
	e->bdp_fc = true;
	e->cnp_dscp = 48;
	e->cnp_interval_ps = 50 * UNITS_PS_PER_US;        /* DCQCN NP: one CNP per 50 us per QP */
	e->pool_pkts = 0; /* chosen after nic.payload is known */
	e->flows_csv = true;
}

static int exp_build(struct exp *e, bool seed_set, uint64_t seed, char *err)
{
	const struct cfg_node *root = cfg_doc_root(e->doc), *n;
	uint64_t v;

	exp_defaults(e);
	if (exp_map(root, "experiment", top_keys, err) != 0)
		return -EINVAL;
	e->buffer_mark = root->mark;
	EXP_OPT(root, "name", cfg_str(n_, &e->name, err));
	EXP_OPT(root, "seed", cfg_u64(n_, 0, UINT64_MAX, &e->seed, err));
	if (seed_set)
		e->seed = seed;
	EXP_OPT(root, "stop_time", cfg_time(n_, &e->stop_ps, err));
	if (!(n = exp_need(root, "topology", "leaf-spine, fat-tree or explicit", err)) ||
	    topo_from_cfg(n, &e->topo, err) != 0)
		return -EINVAL;
	EXP_OPT(root, "fabric", exp_fabric(e, n_, err));
	EXP_OPT(root, "nic", exp_nic(e, n_, err));
	if ((n = cfg_get(root, "engine")) != NULL) {
		if (exp_map(n, "engine", engine_keys, err) != 0)
			return -EINVAL;
		if (cfg_get(n, "packet_pool")) {
			if (cfg_u64(cfg_get(n, "packet_pool"), 1024, UINT64_C(1) << 26, &v, err) != 0)
				return -EINVAL;
			e->pool_pkts = (uint32_t)v;
		}
	}
	if (!(n = exp_need(root, "traffic", "a list of workloads", err)) ||
	    exp_traffic(e, n, err) != 0)
		return -EINVAL;
	EXP_OPT(root, "capture", exp_capture(e, n_, err));
	if ((n = cfg_get(root, "outputs")) != NULL) {
		const struct cfg_node *sr;

		if (exp_map(n, "outputs", outputs_keys, err) != 0)
			return -EINVAL;
		EXP_OPT(n, "flows_csv", cfg_bool(n_, &e->flows_csv, err));
		if ((sr = cfg_get(n, "series")) != NULL && exp_series(e, sr, err) != 0)
			return -EINVAL;
	}
	EXP_OPT(root, "expect", exp_expects(e, n_, err));
	if (!e->pool_pkts)
		e->pool_pkts = e->payload ? EXP_POOL_PAYLOAD : EXP_POOL_HEADERS;
	return 0;
}

static int exp_finish(struct exp *e, const char *const *sets, unsigned n_sets, bool seed_set,
		      uint64_t seed, struct exp **out, char *err)
{
	for (unsigned i = 0; i < n_sets; i++) {
		if (cfg_doc_set(e->doc, sets[i], i + 1, err) != 0) {
			exp_free(e);
			return -EINVAL;
		}
	}
	if (exp_build(e, seed_set, seed, err) != 0) {
		exp_free(e);
		return -EINVAL;
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
	if (cfg_doc_load(path, &e->doc, err) != 0) {
		free(e);
		return -EINVAL;
	}
	return exp_finish(e, sets, n_sets, seed_set, seed, out, err);
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
	return exp_finish(e, sets, n_sets, false, 0, out, err);
}

void exp_free(struct exp *e)
{
	if (!e)
		return;
	topo_free(e->topo);
	free(e->msgs);
	free(e->workloads);
	free(e->captures);
	free(e->expects);
	free(e->series);
	free(e->pfc_off);
	free(e->pfc_off_marks);
	cfg_doc_free(e->doc);
	free(e);
}
