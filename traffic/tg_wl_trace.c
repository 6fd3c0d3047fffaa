/* The `trace` workload kind: messages replayed from a file users bring
 * (fabemu's csv, an HPCC ns-3 flow file, an htsim connection matrix, a
 * pcap of RoCEv2, or any registered format: tg_trace_reg.c), read by its
 * format's reader (tg_trace_*.c) into a trace of operations, then turned into messages and, when the trace has
 * dependencies, operations of the experiment's graph (tg.h): a transfer
 * per message (one per part when a GPU message is split over NIC ports,
 * with a point that waits for the parts), a zero-length compute node per
 * join. The trace file is relative to the experiment file's folder. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topo.h"
#include "tg_coll_int.h"
#include "tg_trace_int.h"
#include "units.h"

enum { TG_WL_TRACE_PATH_BYTES = 4096 };

static const char *const tg_wl_trace_ops[] = { "write", "send", "read", NULL };
static const char *const tg_wl_trace_pgs[] = { "ignore", "dscp", NULL };
static const char *const tg_wl_trace_partials[] = { "error", "skip", NULL };

/* What the keys give. */
struct tg_wl_trace {
	const struct tg_wl_ctx *ctx;     /* the experiment */
	const struct cfg_node *file;     /* the file key */
	const struct tg_trace_format *format; /* the format key's (registered) format */
	uint32_t *hosts;                 /* node index -> participant (malloc'd) */
	uint32_t n_hosts;                /* their count */
	const struct cfg_node *op;       /* the op key, or NULL */
	const struct cfg_node *dscp;     /* the dscp key, or NULL */
	const struct cfg_node *pg;       /* the pg key, or NULL */
	const struct cfg_node *map;      /* the map key, or NULL */
	const struct cfg_node *partial;  /* the partial key, or NULL */
	const struct cfg_node *nccl;     /* the nccl key, or NULL */
};

#define TG_WL_TRACE_KEEP(field)                                                              \
	static int tg_wl_trace_keep_##field(const struct cfg_node *n, void *params,           \
					    char err[CFG_ERR_BYTES])                          \
	{                                                                                     \
		(void)err;                                                                    \
		((struct tg_wl_trace *)params)->field = n;                                    \
		return 0;                                                                     \
	}

TG_WL_TRACE_KEEP(file)
TG_WL_TRACE_KEEP(op)
TG_WL_TRACE_KEEP(dscp)
TG_WL_TRACE_KEEP(pg)
TG_WL_TRACE_KEEP(nccl)
TG_WL_TRACE_KEEP(map)
TG_WL_TRACE_KEEP(partial)

static int tg_wl_trace_format(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_trace *p = params;

	return tg_trace_format_read(n, &p->format, err);
}

static int tg_wl_trace_hosts(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_trace *p = params;

	return tg_wl_eps(p->ctx->topo, n, &p->hosts, &p->n_hosts, err);
}

#define TG_WL_TRACE_OFF(f) offsetof(struct tg_wl_trace, f)

/* The keys only some formats take (besides op), in the order they are
 * checked: a format whose takes lacks the flag refuses the key. */
static const struct tg_wl_trace_only {
	const char *key;   /* as written */
	const char *gloss; /* after the key's name in the refusal */
	uint32_t flag;     /* enum tg_trace_takes */
	size_t off;        /* its node in struct tg_wl_trace */
} tg_wl_trace_onlys[] = {
	{ "map", " (address -> host)", TG_TRACE_MAP, TG_WL_TRACE_OFF(map) },
	{ "partial", "", TG_TRACE_PARTIAL, TG_WL_TRACE_OFF(partial) },
	{ "pg", "", TG_TRACE_PG, TG_WL_TRACE_OFF(pg) },
	{ "nccl", " (the NCCL model of its collectives)", TG_TRACE_COLLS, TG_WL_TRACE_OFF(nccl) },
};

/* The keys that belong to some formats only, refused for the others with
 * the formats that take them (from the registry, in its order). */
static int tg_wl_trace_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_trace *p = params;
	const struct tg_trace_format *f = p->format;
	char list[256], noun[64];

	(void)map;
	if (!f)
		return 0; /* the format key was refused */
	if (p->op && !(f->takes & TG_TRACE_OP)) {
		unsigned n = tg_trace_format_list(TG_TRACE_OP, " and ", list, sizeof(list));

		cfg_errorf(err, p->op, "%s gives every message's op: 'op' is for the %s format%s",
			   tg_trace_format_noun(f, noun, sizeof(noun)), list, n == 1 ? "" : "s");
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(tg_wl_trace_onlys) / sizeof(tg_wl_trace_onlys[0]); i++) {
		const struct tg_wl_trace_only *o = &tg_wl_trace_onlys[i];
		const struct cfg_node *at;

		memcpy(&at, (const char *)p + o->off, sizeof(at));
		if (!at || (f->takes & o->flag))
			continue;
		tg_trace_format_list(o->flag, " or ", list, sizeof(list));
		cfg_errorf(err, at, "'%s'%s is for format: %s, not %s", o->key, o->gloss, list,
			   f->kind.name);
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_key tg_wl_trace_keys[] = {
	{ "file", CFG_KEY_CUSTOM, .required = "the trace file, relative to the experiment's folder",
	  .read = tg_wl_trace_keep_file,
	  .doc = "trace: the file to replay, relative to the experiment file's folder" },
	{ "format", CFG_KEY_CUSTOM, "csv", .read = tg_wl_trace_format,
	  .doc = "trace: a registered trace format (docs/extending/trace-format.md)" },
	{ "hosts", CFG_KEY_CUSTOM, "all", .read = tg_wl_trace_hosts,
	  .doc = "all or a list of names: the participants the trace's node indices 0, 1, ... are" },
	{ "op", CFG_KEY_CUSTOM, NULL, .read = tg_wl_trace_keep_op,
	  .doc = "trace: write, send or read, for messages the trace gives none; absent: write" },
	{ "dscp", CFG_KEY_CUSTOM, NULL, .read = tg_wl_trace_keep_dscp,
	  .doc = "DSCP of its data packets; absent: nic.dscp (pcap: the capture's)" },
	{ "nccl", CFG_KEY_CUSTOM, NULL, .read = tg_wl_trace_keep_nccl,
	  .doc = "chakra, nccl-log: its collectives under the NCCL model, as a collective's nccl key; absent: off" },
	{ "pg", CFG_KEY_CUSTOM, NULL, .read = tg_wl_trace_keep_pg,
	  .doc = "trace, hpcc-flow: ignore or dscp (a flow's pg is its DSCP); absent: ignore" },
	{ "map", CFG_KEY_CUSTOM, NULL, .read = tg_wl_trace_keep_map,
	  .doc = "trace, pcap: {IPv4 address: name}; absent: addresses onto hosts in order of appearance" },
	{ "partial", CFG_KEY_CUSTOM, NULL, .read = tg_wl_trace_keep_partial,
	  .doc = "trace, pcap: error or skip, for messages the capture cuts; absent: error" },
};

static const struct cfg_table tg_wl_trace_table = {
	.section = "traffic",
	.keys = tg_wl_trace_keys,
	.n_keys = sizeof(tg_wl_trace_keys) / sizeof(tg_wl_trace_keys[0]),
	.check = tg_wl_trace_check,
};

/* Open the trace @path (errors at the file key @at): a regular file of at
 * most @max bytes (a @kind trace, in the refusal), its size into *@bytes.
 * NULL with @err set otherwise. */
static FILE *tg_wl_trace_open(const char *path, const struct cfg_node *at, uint64_t max,
			      const char *kind, uint64_t *bytes, char err[CFG_ERR_BYTES])
{
	char why[CFG_WHY_BYTES];
	FILE *f = cfg_fopen_regular(path, why);
	struct stat st;

	if (!f) {
		cfg_errorf(err, at, "cannot open trace '%s': %s", path, why);
		return NULL;
	}
	if (fstat(fileno(f), &st) != 0) {
		cfg_errorf(err, at, "cannot read trace '%s': %s", path, strerror(errno));
		fclose(f);
		return NULL;
	}
	if ((uint64_t)st.st_size > max) {
		cfg_errorf(err, at, "trace '%s' is %llu bytes, more than the %llu GiB a %s trace may be",
			   path, (unsigned long long)st.st_size, (unsigned long long)(max >> 30), kind);
		fclose(f);
		return NULL;
	}
	*bytes = (uint64_t)st.st_size;
	return f;
}

/* The text trace @path, NUL-terminated, into *@text (malloc'd); errors at
 * the file key @at. */
static int tg_wl_trace_slurp(const char *path, const struct cfg_node *at, char **text,
			     char err[CFG_ERR_BYTES])
{
	char why[CFG_WHY_BYTES];
	enum cfg_text_err what;
	uint64_t size;
	int rc = cfg_read_text(path, TG_TRACE_MAX_TEXT_BYTES, text, &size, &what, why);

	if (rc != -EINVAL)
		return rc;
	if (what == CFG_TEXT_OPEN)
		cfg_errorf(err, at, "cannot open trace '%s': %s", path, why);
	else if (what == CFG_TEXT_READ)
		cfg_errorf(err, at, "cannot read trace '%s': %s", path, why);
	else if (what == CFG_TEXT_LARGE)
		cfg_errorf(err, at, "trace '%s' is %llu bytes, more than the %llu GiB a text trace may be",
			   path, (unsigned long long)size,
			   (unsigned long long)(TG_TRACE_MAX_TEXT_BYTES >> 30));
	else {
		char hint[256];

		tg_trace_format_binary_hint(hint, sizeof(hint));
		cfg_errorf(err, at, "trace '%s' is not a text file%s%s%s", path, hint[0] ? " (" : "",
			   hint, hint[0] ? ")" : "");
	}
	return rc;
}

/* The operations of @tr in an order where each follows what it waits for
 * (file order where nothing says otherwise), into @order; a cycle is an
 * error at a line on it. */
static int tg_wl_trace_order(const struct tg_trace_in *in, const struct tg_trace *tr,
			     uint32_t *order, char err[CFG_ERR_BYTES])
{
	uint32_t n = tr->n_ops, head = 0, tail = 0;
	uint32_t *left = malloc(sizeof(*left) * n), *off = calloc((size_t)n + 1, sizeof(*off));
	uint32_t *succ = malloc(sizeof(*succ) * (tr->n_deps ? tr->n_deps : 1));
	int rc = 0;

	if (!left || !off || !succ) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t d = 0; d < tr->n_deps; d++)
		off[tr->deps[d] + 1]++;
	for (uint32_t i = 0; i < n; i++)
		off[i + 1] += off[i];
	for (uint32_t i = 0; i < n; i++)
		left[i] = 0;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < tr->ops[i].n_deps; k++) {
			uint32_t d = tr->deps[tr->ops[i].dep_off + k];

			succ[off[d] + left[d]++] = i; /* left[d]: successors placed so far */
		}
	for (uint32_t i = 0; i < n; i++) {
		left[i] = tr->ops[i].n_deps;
		if (!left[i])
			order[tail++] = i;
	}
	while (head < tail) {
		uint32_t i = order[head++];

		for (uint32_t k = off[i]; k < off[i + 1]; k++)
			if (--left[succ[k]] == 0)
				order[tail++] = succ[k];
	}
	if (tail < n) {
		/* Walk back from one that never became ready, along what it still
		 * waits for: after n steps the walk is on a cycle. */
		uint32_t i = 0;

		while (!left[i])
			i++;
		for (uint32_t step = 0; step < n; step++) {
			const struct tg_trace_op *o = &tr->ops[i];

			for (uint32_t k = 0; k < o->n_deps; k++)
				if (left[tr->deps[o->dep_off + k]]) {
					i = tr->deps[o->dep_off + k];
					break;
				}
		}
		rc = tg_trace_errf(err, in, tr->ops[i].line, 1,
				   "a dependency cycle: this line waits, through what it waits for, for itself");
	}
out:
	free(left);
	free(off);
	free(succ);
	return rc;
}

/* The message of transfer @o. */
static struct tg_msg tg_wl_trace_proto(const struct tg_wl_ctx *c, const struct tg_trace_op *o)
{
	struct tg_wl_proto p;

	tg_wl_proto_init(&p, c);
	p.msg.src = o->src;
	p.msg.dst = o->dst;
	p.msg.bytes = o->bytes;
	p.msg.start_ps = o->start_ps;
	p.msg.op = o->op;
	p.msg.dscp = o->dscp;
	return p.msg;
}

/* Collective @o of the trace in @b: its ranks (into @ranks, room for
 * its n_deps), kind, bytes and the kind's default algorithm, 512 KiB
 * slices and a channel a GPU of a node, tuned under the NCCL model @nc
 * (tg_cb_nccl_auto) when that is on. 0 or -ENOMEM. */
static int tg_wl_trace_coll_shape(const struct tg_wl_ctx *c, const struct tg_trace *tr,
				  const struct tg_trace_op *o, const struct tg_nccl_cfg *nc, struct tg_cb *b,
				  uint32_t *ranks)
{
	for (uint32_t k = 0; k < o->n_deps; k++)
		ranks[k] = tr->ops[tr->deps[o->dep_off + k]].src;
	b->ranks = ranks;
	b->n = o->n_deps;
	b->kind = o->op;
	b->bytes = o->bytes;
	b->alg = tg_coll_alg_default(o->op);
	b->slice_bytes = 512 * 1024;
	b->channels = c->topo->gpus.gpus_per_node ? c->topo->gpus.gpus_per_node : 1;
	b->nccl = (struct tg_nccl_plan){ .proto = TG_NCCL_IDEAL };
	return o->n_deps >= 2 ? tg_cb_nccl_auto(b, nc) : 0;
}

/* Whether instance @b's algorithm streams its kind. */
static bool tg_wl_trace_streams(const struct tg_cb *b)
{
	return b->alg->stream && (b->alg->stream_kinds & (1u << b->kind));
}

/* Collective @o of the trace (TG_TRACE_COLL) in the collective kind's
 * shape @b (its proto, slice and channels set; the kind's default
 * algorithm): an instance among the participants of what @o waits for,
 * each one's part after its gate (@gates: the graph nodes of what @o
 * waits for, in order), and a point after it all into *@end (with no
 * transfer, after the gates); streamed when @stream and its algorithm
 * streams it. 0, -EINVAL with @err, or -ENOMEM. */
static int tg_wl_trace_coll(struct tg_wl_ctx *c, const struct tg_trace *tr, const struct tg_trace_op *o,
			    const struct tg_nccl_cfg *nc, bool stream, struct tg_cb *b, uint32_t *gates,
			    uint32_t *end, char err[CFG_ERR_BYTES])
{
	uint32_t n = o->n_deps, first = c->graph->n_ops;
	uint32_t *ranks = malloc(sizeof(*ranks) * (n ? n : 1));
	int rc;

	if (!ranks)
		return -ENOMEM;
	if ((rc = tg_wl_trace_coll_shape(c, tr, o, nc, b, ranks)) != 0) {
		free(ranks);
		return rc;
	}
	b->rank_gate = gates;
	b->first_node = first;
	b->proto.dscp = o->dscp;
	/* Streamed where its algorithm streams it (-EAGAIN: listed after
	 * all), else listed. */
	stream = stream && n >= 2 && tg_wl_trace_streams(b);
	if (stream)
		rc = b->alg->stream(b);
	if (n >= 2 && (!stream || rc == -EAGAIN))
		rc = tg_coll_build(b, NULL, err);
	if (rc == 0 && c->graph->n_ops == first) {
		struct tg_node join = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .coll = TG_NO_COLL };

		rc = tg_graph_add(c->graph, &join, gates, n, end);
	} else if (rc == 0) {
		rc = tg_graph_join(c->graph, first, end);
	}
	b->ranks = NULL;
	free(ranks);
	return rc;
}

/* Send @o of the trace under the NCCL model @nc (on) in the shape of @b
 * (its proto), among the trace's participants @comm (tg_cb_comm_map, for
 * PXN): NCCL's point-to-point chunks (tg_cb_send_nccl), after
 * the @n_deps nodes @deps (a point after them when there are several);
 * its last node into *@end. 0 or -ENOMEM. */
static int tg_wl_trace_send_nccl(struct tg_wl_ctx *c, const struct tg_trace_op *o, const struct tg_nccl_cfg *nc,
				 const uint32_t *comm, const struct tg_cb *b, const uint32_t *deps, uint32_t n_deps,
				 uint32_t *end)
{
	struct tg_node join = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .coll = TG_NO_COLL };
	uint32_t pair[2] = { o->src, o->dst }, dep = n_deps ? deps[0] : TG_NO_GATE;
	struct tg_cb sb = *b;
	int rc;

	sb.ranks = pair;
	sb.n = 2;
	sb.proto.comm = 0; /* the sends' connections, not the collectives' */
	sb.proto.op = o->op;
	sb.proto.dscp = o->dscp;
	sb.proto.start_ps = o->start_ps;
	if (n_deps > 1 && (rc = tg_graph_add(c->graph, &join, deps, n_deps, &dep)) != 0)
		return rc;
	return tg_cb_send_nccl(&sb, nc, comm, o->bytes, 0, dep, end);
}

/* The trace's transfers as messages in trace order, each on endpoints
 * (placed here, in parts[i] parts from message first[i], so that the
 * graph names each part). 0 or -ENOMEM. */
static int tg_wl_trace_msgs(struct tg_wl_ctx *c, const struct tg_trace *tr, const uint32_t *islands,
			    uint32_t *first, uint32_t *parts)
{
	uint32_t n_xfers = 0, done = 0;
	int rc;

	for (uint32_t i = 0; i < tr->n_ops; i++)
		n_xfers += tr->ops[i].kind == TG_TRACE_XFER;
	rc = tg_wl_msgs_room(c, n_xfers);
	for (uint32_t i = 0; i < tr->n_ops && rc == 0; i++) {
		struct tg_msg *one;
		uint32_t k = 1;

		if (tr->ops[i].kind != TG_TRACE_XFER)
			continue;
		if (!(one = malloc(sizeof(*one))))
			return -ENOMEM;
		*one = tg_wl_trace_proto(c, &tr->ops[i]);
		rc = tg_wl_place(c->topo, islands, &one, &k, 0);
		if (rc == 0 && k > 1)
			rc = tg_wl_msgs_room(c, (size_t)(n_xfers - done) + k - 1);
		first[i] = *c->n_msgs;
		parts[i] = k;
		for (uint32_t j = 0; j < k && rc == 0; j++)
			(*c->msgs)[(*c->n_msgs)++] = one[j];
		done++;
		free(one);
	}
	return rc;
}

/* A trace with dependencies: messages on endpoints (placed here, so that
 * the graph names each part), operations in dependency order; under the
 * NCCL model its sends in NCCL's chunks, made with the operations. */
static int tg_wl_trace_graph(struct tg_wl_ctx *c, const struct tg_trace_in *in,
			     const struct tg_trace *tr, char err[CFG_ERR_BYTES])
{
	uint32_t n = tr->n_ops, *order = malloc(sizeof(*order) * (n ? n : 1));
	uint32_t *first = malloc(sizeof(*first) * (n ? n : 1)), *parts = calloc(n ? n : 1, sizeof(*parts));
	uint32_t *node_of = malloc(sizeof(*node_of) * (n ? n : 1)), *deps = NULL, *islands = NULL, *comm = NULL;
	uint32_t cap_deps = 0;
	struct tg_wl_proto pr;
	struct tg_cb cb = { .c = c, .t = c->topo, .coll = TG_NO_COLL, .gate = TG_NO_GATE,
			    .slice_bytes = 512 * 1024, .granule = 1,
			    .channels = c->topo->gpus.gpus_per_node ? c->topo->gpus.gpus_per_node : 1 };
	int rc;

	/* Collectives as the collective kind builds them: SENDs, 512 KiB
	 * slices, a channel a GPU of a node (tg_wl_trace_coll). */
	tg_wl_proto_init(&pr, c);
	cb.proto = pr.msg;
	cb.proto.op = TG_OP_SEND;
	cb.proto.start_ps = 0;
	/* A collective's connections are not those of the trace's sends
	 * (NCCL's collectives and point-to-point sends use connections of
	 * their own), streamed or listed alike. */
	cb.proto.comm = 1;

	if (!order || !first || !parts || !node_of || topo_ep_islands(c->topo, &islands) != 0 ||
	    (in->nccl.on && tg_cb_comm_map(c->topo, in->hosts, in->n_hosts, &comm) != 0)) {
		rc = -ENOMEM;
		goto out;
	}
	cb.islands = islands;
	if ((rc = tg_wl_trace_order(in, tr, order, err)) != 0)
		goto out;
	if (!in->nccl.on && (rc = tg_wl_trace_msgs(c, tr, islands, first, parts)) != 0)
		goto out;
	/* Operations, each after what it waits for. */
	for (uint32_t x = 0; x < n && rc == 0; x++) {
		uint32_t i = order[x];
		const struct tg_trace_op *o = &tr->ops[i];
		struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .coll = TG_NO_COLL };

		if (o->n_deps > cap_deps) {
			uint32_t *d = realloc(deps, sizeof(*d) * o->n_deps);

			if (!d) {
				rc = -ENOMEM;
				break;
			}
			deps = d;
			cap_deps = o->n_deps;
		}
		for (uint32_t k = 0; k < o->n_deps; k++)
			deps[k] = node_of[tr->deps[o->dep_off + k]];
		if (o->kind == TG_TRACE_JOIN) {
			rc = tg_graph_add(c->graph, &node, deps, o->n_deps, &node_of[i]);
			continue;
		}
		if (o->kind == TG_TRACE_COMPUTE) {
			node.part = o->src;
			node.dur_ps = o->dur_ps;
			rc = tg_graph_add(c->graph, &node, deps, o->n_deps, &node_of[i]);
			continue;
		}
		if (o->kind == TG_TRACE_COLL) {
			rc = tg_wl_trace_coll(c, tr, o, &in->nccl, in->stream, &cb, deps, &node_of[i], err);
			continue;
		}
		if (in->nccl.on) {
			rc = tg_wl_trace_send_nccl(c, o, &in->nccl, comm, &cb, deps, o->n_deps, &node_of[i]);
			continue;
		}
		node.kind = TG_NODE_XFER;
		node.start_ps = o->start_ps;
		for (uint32_t j = 0; j < parts[i] && rc == 0; j++) {
			node.msg = first[i] + j;
			rc = tg_graph_add(c->graph, &node, deps, o->n_deps, &node_of[i]);
		}
		if (rc == 0 && parts[i] > 1) {
			/* The message is done when every part is: a point after them
			 * (the parts' nodes are the last ones added). */
			struct tg_node join = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX,
						.coll = TG_NO_COLL };
			uint32_t *all = malloc(sizeof(*all) * parts[i]);

			if (!all) {
				rc = -ENOMEM;
				break;
			}
			for (uint32_t j = 0; j < parts[i]; j++)
				all[j] = node_of[i] - (parts[i] - 1) + j;
			rc = tg_graph_add(c->graph, &join, all, parts[i], &node_of[i]);
			free(all);
		}
	}
out:
	free(order);
	free(first);
	free(parts);
	free(node_of);
	free(deps);
	free(islands);
	free(comm);
	return rc;
}

/* The trace's messages (and operations) into the experiment. */
static int tg_wl_trace_emit(struct tg_wl_ctx *c, const struct tg_trace_in *in,
			    const struct tg_trace *tr, char err[CFG_ERR_BYTES])
{
	bool plain = !tr->n_deps && !in->nccl.on; /* (the model's sends are chunked) */

	for (uint32_t i = 0; i < tr->n_ops && plain; i++)
		plain = tr->ops[i].kind == TG_TRACE_XFER;
	if (!plain)
		return tg_wl_trace_graph(c, in, tr, err);
	/* Nothing waits for anything: plain messages (GPU messages placed
	 * with every workload's, after the expansion). */
	if (tg_wl_msgs_room(c, tr->n_ops) != 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < tr->n_ops; i++)
		(*c->msgs)[(*c->n_msgs)++] = tg_wl_trace_proto(c, &tr->ops[i]);
	return 0;
}

/* The reader's inputs from the keys. */
static int tg_wl_trace_inputs(const struct tg_wl_trace *p, struct tg_trace_in *in,
			      char err[CFG_ERR_BYTES])
{
	int v;

	in->topo = p->ctx->topo;
	in->hosts = p->hosts;
	in->n_hosts = p->n_hosts;
	in->op = TG_OP_WRITE;
	in->dscp = p->ctx->dscp;
	in->map = p->map;
	in->at = p->file;
	if (p->op) {
		if (cfg_enum(p->op, tg_wl_trace_ops, &v, err) != 0)
			return -EINVAL;
		in->op = (uint8_t)v;
	}
	if (p->dscp) {
		uint64_t d;

		if (cfg_u64(p->dscp, 0, TG_TRACE_MAX_DSCP, &d, err) != 0)
			return -EINVAL;
		in->dscp = (uint8_t)d;
		in->dscp_set = true;
	}
	if (p->pg) {
		if (cfg_enum(p->pg, tg_wl_trace_pgs, &v, err) != 0)
			return -EINVAL;
		in->pg_dscp = v == 1;
	}
	if (p->nccl && tg_nccl_read(p->nccl, &in->nccl, false, err) != 0)
		return -EINVAL;
	if (p->partial) {
		if (cfg_enum(p->partial, tg_wl_trace_partials, &v, err) != 0)
			return -EINVAL;
		in->skip_partial = v == 1;
	}
	return 0;
}

/* Every start within the clock's horizon (the readers' own numbers can
 * say more), else an error at its line. */
static int tg_wl_trace_horizon(const struct tg_trace_in *in, const struct tg_trace *tr,
			       char err[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < tr->n_ops; i++)
		if (tr->ops[i].start_ps > UNITS_TIME_MAX_PS)
			return tg_trace_errf(err, in, tr->ops[i].line, 1,
					     "starts beyond the clock's horizon (times are at most 1000000s)");
	return 0;
}

/* What the trace makes (tg_wl_admit): a message per operation; with
 * dependencies, a message and an operation per part of each transfer (a
 * GPU message in up to tg_wl_place_ports parts, then a point after
 * them), an operation per join, every part waiting for what its transfer
 * waits for. */
static int tg_wl_trace_admit(struct tg_wl_ctx *c, const struct cfg_node *it, struct tg_trace_in *in,
			     const struct tg_trace *tr, char err[CFG_ERR_BYTES])
{
	struct tg_wl_est est = { .msgs = tr->n_ops, .conns = tr->n_ops, .lower = "a shorter trace" };
	struct tg_wl_est colls = { 0 }, scolls = { 0 };
	uint64_t xfers = 0, k = 1, coll_conns = 0, n_colls = 0, chunks = 0;
	bool gpus = false;

	for (uint32_t i = 0; i < tr->n_ops; i++) {
		const struct tg_trace_op *o = &tr->ops[i];

		if (o->kind == TG_TRACE_COLL && o->n_deps >= 2) {
			/* As tg_wl_trace_coll builds it, and the point after. */
			struct tg_cb b = { .c = c, .t = c->topo, .granule = 1 };
			struct tg_wl_est one = { 0 };
			uint32_t *ranks = malloc(sizeof(*ranks) * o->n_deps);
			int rc = ranks ? tg_wl_trace_coll_shape(c, tr, o, &in->nccl, &b, ranks) : -ENOMEM;

			if (rc != 0) {
				free(ranks);
				return rc;
			}

			coll_conns = tg_est_add(coll_conns, tg_wl_coll_est(&b, true, &one));
			colls.msgs = tg_est_add(colls.msgs, one.msgs);
			colls.ops = tg_est_add(colls.ops, tg_est_add(one.ops, 1));
			colls.deps = tg_est_add(colls.deps, tg_est_add(one.deps, one.ops));
			/* Streamed: what it has made at once at most (any number of
			 * instances may be in flight: they add up), its stream and the
			 * point after it, waiting for its ranks' gates and the stream. */
			uint64_t most = tg_wl_trace_streams(&b) ? b.alg->stream_est(&b) : 0;

			if (most) {
				scolls.msgs = tg_est_add(scolls.msgs, most);
				scolls.ops = tg_est_add(scolls.ops, 2);
				scolls.deps = tg_est_add(scolls.deps, (uint64_t)o->n_deps + 1);
			} else {
				scolls.msgs = tg_est_add(scolls.msgs, one.msgs);
				scolls.ops = tg_est_add(scolls.ops, tg_est_add(one.ops, 1));
				scolls.deps = tg_est_add(scolls.deps, tg_est_add(one.deps, one.ops));
			}
			n_colls++;
			free(ranks);
		}
		if (o->kind != TG_TRACE_XFER)
			continue;
		xfers++;
		chunks = tg_est_add(chunks, tg_nccl_p2p_chunks(&in->nccl, o->bytes));
		gpus = gpus || o->src >= c->topo->n_eps || o->dst >= c->topo->n_eps;
	}
	if (!tr->n_deps && xfers == tr->n_ops && !in->nccl.on)
		return tg_wl_admit(c, it, "trace", &est, gpus, err);
	if (gpus)
		k = tg_wl_place_ports(c->topo);
	/* Collectives stream as the collective kind's do (when flows.csv is
	 * not written, or by the count), each counted as it is made. */
	if (n_colls && (in->stream = tg_wl_streams(c, tg_est_add(in->nccl.on ? chunks : xfers * k, colls.msgs))))
		colls = scolls;
	if (in->nccl.on) {
		/* Sends in NCCL's chunks, each waiting for its send's gate, a
		 * point after them and one before (several dependencies). */
		est.msgs = tg_est_add(chunks, colls.msgs);
		est.conns = tg_est_add(xfers, coll_conns);
		est.ops = tg_est_add(tg_est_add(chunks, 2 * xfers + (tr->n_ops - xfers - n_colls)), colls.ops);
		est.deps = tg_est_add(tg_est_add(tr->n_deps, 2 * chunks), tg_est_add(xfers, colls.deps));
		return tg_wl_admit(c, it, "trace", &est, false, err);
	}
	est.msgs = tg_est_add(xfers * k, colls.msgs);
	est.conns = tg_est_add(xfers * k, coll_conns);
	est.ops = tg_est_add(xfers * k + (k > 1 ? xfers : 0) + (tr->n_ops - xfers - n_colls), colls.ops);
	est.deps = tg_est_add((uint64_t)tr->n_deps * k + (k > 1 ? xfers * k : 0), colls.deps);
	return tg_wl_admit(c, it, "trace", &est, false, err);
}

static int tg_wl_trace_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct tg_wl_trace p = { .ctx = c };
	const struct cfg_bind b[] = {
		{ &tg_wl_common_table, &p },
		{ &tg_wl_trace_table, &p },
	};
	struct tg_trace_in in = { 0 };
	struct tg_trace tr = { 0 };
	char path[TG_WL_TRACE_PATH_BYTES], *text = NULL;
	const char *name;
	int rc;

	if ((rc = cfg_schema_read(c->doc, it, "workload", b, 2, err)) != 0)
		goto out;
	/* Without a qp key, the format's default (tg_wl_qp_mode read the key). */
	if (!cfg_get(it, "qp"))
		c->qp_mode = p.format->qp_default;
	if ((rc = tg_wl_trace_inputs(&p, &in, err)) != 0 || (rc = cfg_str(p.file, &name, err)) != 0)
		goto out;
	tg_wl_file_path(p.file, name, path, sizeof(path));
	in.path = path;
	if (p.format->takes & TG_TRACE_FILES) {
		/* The reader opens its files (one a rank) from the path. */
	} else if (p.format->takes & TG_TRACE_BINARY) {
		uint64_t size;

		/* The reader takes the file. */
		if (!(in.file = tg_wl_trace_open(path, p.file, TG_TRACE_MAX_BINARY_BYTES,
						 p.format->kind.name, &size, err))) {
			rc = -EINVAL;
			goto out;
		}
	} else if ((rc = tg_wl_trace_slurp(path, p.file, &text, err)) != 0) {
		goto out;
	}
	in.text = text;
	if ((rc = p.format->read(&in, &tr, err)) == 0)
		rc = tg_wl_trace_horizon(&in, &tr, err);
	if (rc == 0)
		rc = tg_wl_trace_admit(c, it, &in, &tr, err);
	if (rc == 0)
		rc = tg_wl_trace_emit(c, &in, &tr, err);
out:
	if (rc == -ENOMEM)
		cfg_errorf(err, it, "out of memory reading trace");
	tg_trace_free(&tr);
	free(text);
	free(p.hosts);
	return rc;
}

static const struct cfg_table *const tg_wl_trace_tables[] = {
	&tg_wl_common_table,
	&tg_wl_trace_table,
	NULL,
};

const struct tg_wl_kind tg_wl_trace_kind = {
	.kind = { "trace", "messages replayed from a trace file (a registered format)", &tg_wl_trace_table, sizeof(struct tg_wl_trace) },
	.tables = tg_wl_trace_tables,
	.expand = tg_wl_trace_expand,
};
