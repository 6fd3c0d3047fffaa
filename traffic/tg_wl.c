/* The registry of workload kinds (core/reg; one file per kind, one line
 * in the built-in list) and what the kinds share: the common keys, the
 * message prototype keys (size, start, op, dscp) and the admission of a workload's estimate
 * (a collective instance's is its algorithm's, tg_coll_*.c). Endpoint
 * names are resolved in tg_names.c. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_wl_int.h"

/* The built-in kinds, one line each, in the order listings show them. */
#define TG_WL_BUILTIN(X) \
	X(struct tg_wl_kind, tg_wl_messages_kind) \
	X(struct tg_wl_kind, tg_wl_permutation_kind) \
	X(struct tg_wl_kind, tg_wl_incast_kind) \
	X(struct tg_wl_kind, tg_wl_poisson_kind) \
	X(struct tg_wl_kind, tg_wl_collective_kind) \
	X(struct tg_wl_kind, tg_wl_training_kind) \
	X(struct tg_wl_kind, tg_wl_trace_kind)

TG_WL_BUILTIN(REG_DECLARE)

static const struct reg_kind *const tg_wl_builtin[] = { TG_WL_BUILTIN(REG_ENTRY) NULL };

/* What every kind must have besides its name and doc. */
static int tg_wl_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_kind *w = REG_OPS(struct tg_wl_kind, k);

	if (!w->expand || !w->tables || !w->tables[0]) {
		snprintf(err, CFG_ERR_BYTES, "workload kind '%s': needs expand and its key tables",
			 k->name);
		return -EINVAL;
	}
	return 0;
}

static struct reg tg_wl_reg = REG_INIT("workload kind", tg_wl_builtin, tg_wl_check);

static const char *const tg_wl_op_names[] = { "write", "send", "read", "write-imm", NULL };

int tg_wl_register(const struct tg_wl_kind *k, char err[CFG_ERR_BYTES])
{
	return reg_add(&tg_wl_reg, &k->kind, err);
}

const struct tg_wl_kind *tg_wl_find(const char *name)
{
	const struct reg_kind *k = reg_find(&tg_wl_reg, name);

	return k ? REG_OPS(struct tg_wl_kind, k) : NULL;
}

const char *const *tg_wl_names(void)
{
	return reg_names(&tg_wl_reg);
}

const struct tg_wl_kind *tg_wl_kind_at(unsigned i)
{
	const struct reg_kind *k = reg_at(&tg_wl_reg, i);

	return k ? REG_OPS(struct tg_wl_kind, k) : NULL;
}

static const struct cfg_key tg_wl_common_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "a registered workload kind (the traffic kinds below)" },
	{ "name", CFG_KEY_ANY, .doc = "label in flows.csv; absent: <kind><index>" },
	{ "cc", CFG_KEY_ANY,
	  .doc = "congestion control of the workload's QPs (a registered algorithm); absent: nic.cc" },
	{ "qp", CFG_KEY_ANY,
	  .doc = "per-connection (one QP per src, dst) or per-message (a QP per message); absent: per-connection (trace: its format's)" },
	{ "qps", CFG_KEY_ANY,
	  .doc = "QP pairs per connection, 1..128, each carrying a share of every message; absent: 1" },
};

static const char *const tg_wl_qp_names[] = { "per-connection", "per-message", NULL };

int tg_wl_msgs_room(struct tg_wl_ctx *c, size_t more)
{
	size_t want = c->msgs_cap < 16 ? 16 : c->msgs_cap;
	struct tg_msg *v;

	if (c->msgs_cap < *c->n_msgs)
		c->msgs_cap = *c->n_msgs;
	if (*c->n_msgs + more <= c->msgs_cap)
		return 0;
	while (want < *c->n_msgs + more)
		want *= 2;
	if (want > SIZE_MAX / sizeof(*v) || !(v = realloc(*c->msgs, sizeof(*v) * want)))
		return -ENOMEM;
	*c->msgs = v;
	c->msgs_cap = want;
	return 0;
}

/* The linked ports of node @n, at most TG_WL_MAX_PORTS (tg_names_side's
 * choice). */
static uint32_t tg_wl_node_ports(const struct topo_node *n)
{
	uint32_t k = 0;

	for (uint16_t p = 0; p < n->n_ports && k < TG_WL_MAX_PORTS; p++)
		k += n->port_links[p] != TOPO_NO_LINK;
	return k;
}

uint32_t tg_wl_place_ports(const struct topo *t)
{
	const struct topo_gpus *g = &t->gpus;
	uint32_t most = 1;

	for (uint32_t i = 0; i < g->n_nodes * g->gpus_per_node; i++) {
		uint32_t a = tg_wl_node_ports(&t->nodes[g->nic[i]]);
		uint32_t b = g->nvl ? tg_wl_node_ports(&t->nodes[g->nvl[i]]) : 0;

		most = a > most ? a : most;
		most = b > most ? b : most;
	}
	return most;
}

bool tg_wl_streams(const struct tg_wl_ctx *c, uint64_t msgs)
{
	const struct cfg_node *out = cfg_get(cfg_doc_root(c->doc), "outputs");
	const struct cfg_node *fc = out ? cfg_get(out, "flows_csv") : NULL;
	const struct cfg_node *series = out ? cfg_get(out, "series") : NULL;

	if (c->qp_mode != TG_QP_PER_CONNECTION || (series && series->type == CFG_MAP && cfg_get(series, "flows")))
		return false;
	if (fc && fc->type == CFG_SCALAR && !fc->quoted && strcmp(fc->str, "false") == 0)
		return true;
	return (!fc || (fc->type == CFG_SCALAR && strcmp(fc->str, "auto") == 0)) && msgs > TG_WL_STREAM_AUTO_MSGS;
}

int tg_wl_admit(struct tg_wl_ctx *c, const struct cfg_node *it, const char *kind,
		struct tg_wl_est *est, bool gpus, char err[CFG_ERR_BYTES])
{
	if (gpus) {
		uint32_t k = tg_wl_place_ports(c->topo);

		est->msgs = tg_est_mul(est->msgs, k);
		est->conns = tg_est_mul(est->conns, k);
	}
	if (c->qp_mode == TG_QP_PER_MESSAGE || est->conns > est->msgs)
		est->conns = est->msgs;
	est->qp_pairs = tg_est_mul(est->conns, c->qps ? c->qps : 1);
	c->est = *est;
	c->admitted = true;
	return c->admit ? c->admit(c->admit_arg, it, kind, est, err) : 0;
}

int tg_wl_qp_mode(const struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *n = cfg_get(it, "qp"), *q = cfg_get(it, "qps");
	uint64_t qps = 1;
	int mode = TG_QP_PER_CONNECTION;

	if (n && cfg_enum(n, tg_wl_qp_names, &mode, err) != 0)
		return -EINVAL;
	if (q && cfg_u64(q, 1, TG_MAX_QPS, &qps, err) != 0)
		return -EINVAL;
	c->qp_mode = (uint8_t)mode;
	c->qps = (uint8_t)qps;
	return 0;
}

const struct cfg_table tg_wl_common_table = {
	.section = "traffic",
	.keys = tg_wl_common_keys,
	.n_keys = sizeof(tg_wl_common_keys) / sizeof(tg_wl_common_keys[0]),
};

void tg_wl_file_path(const struct cfg_node *n, const char *name, char *path, size_t size)
{
	/* resolved.yaml rewrites it from the results folder (cfg_doc_write_at). */
	((struct cfg_node *)n)->path = n->type == CFG_SCALAR && !strcmp(n->str, name);
	const char *file = n->mark.file, *slash = file ? strrchr(file, '/') : NULL;

	if (name[0] != '/' && slash && strncmp(file, "--set", 5) != 0)
		snprintf(path, size, "%.*s/%s", (int)(slash - file), file, name);
	else
		snprintf(path, size, "%s", name);
}

void tg_wl_proto_init(struct tg_wl_proto *p, const struct tg_wl_ctx *c)
{
	memset(p, 0, sizeof(*p));
	p->msg.dscp = c->dscp;
	p->msg.workload = c->index;
	p->msg.cc = c->cc;
	p->msg.qp_mode = c->qp_mode;
	p->msg.qps = c->qps;
	p->ctx = c;
}

static int tg_wl_op(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_proto *p = params;
	int op;

	if (cfg_enum(n, tg_wl_op_names, &op, err) != 0)
		return -EINVAL;
	p->msg.op = (uint8_t)op;
	return 0;
}

static const struct cfg_key tg_wl_proto_keys[] = {
	{ "size", CFG_KEY_SIZE, .required = "message length, e.g. 1MiB",
	  .off = offsetof(struct tg_wl_proto, msg.bytes), .size = 8, .max = TG_WL_MAX_MSG_BYTES,
	  .doc = "message length, 0B..2GiB" },
	{ "start", CFG_KEY_TIME, "0ns", .off = offsetof(struct tg_wl_proto, msg.start_ps),
	  .doc = "when the message is posted" },
	{ "op", CFG_KEY_CUSTOM, "write", .read = tg_wl_op, .doc = "write, send, read or write-imm" },
	{ "dscp", CFG_KEY_UINT, NULL, .off = offsetof(struct tg_wl_proto, msg.dscp), .size = 1,
	  .max = 63, .doc = "DSCP of its data packets; absent: nic.dscp" },
};

const struct cfg_table tg_wl_proto_table = {
	.section = "traffic",
	.keys = tg_wl_proto_keys,
	.n_keys = sizeof(tg_wl_proto_keys) / sizeof(tg_wl_proto_keys[0]),
};
