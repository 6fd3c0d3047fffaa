/* The `incast` workload kind: N senders, listed (srcs) or the first N other
 * hosts (count), each send one message to one receiver. */
#include <errno.h>
#include <stdlib.h>

#include "topo.h"
#include "tg_wl_int.h"

struct tg_wl_incast {
	struct tg_wl_proto proto;     /* first: the prototype table reads it here */
	const struct cfg_node *srcs;  /* the srcs key, or NULL */
	const struct cfg_node *count; /* the count key, or NULL */
};

static int tg_wl_incast_dst(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_incast *p = params;

	return tg_wl_ep(p->proto.ctx->topo, n, &p->proto.msg.dst, err);
}

/* srcs and count are read after the check that exactly one is given. */
static int tg_wl_incast_srcs(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	((struct tg_wl_incast *)params)->srcs = n;
	return 0;
}

static int tg_wl_incast_count(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	((struct tg_wl_incast *)params)->count = n;
	return 0;
}

static const struct cfg_key tg_wl_incast_keys[] = {
	{ "dst", CFG_KEY_CUSTOM, .required = "the receiving host", .read = tg_wl_incast_dst,
	  .doc = "the receiver" },
	{ "srcs", CFG_KEY_CUSTOM, NULL, .read = tg_wl_incast_srcs,
	  .doc = "the senders, not including dst, no repeats (or count)" },
	{ "count", CFG_KEY_CUSTOM, NULL, .read = tg_wl_incast_count,
	  .doc = "1..hosts-1: the first N hosts in host order, skipping dst (or srcs)" },
};

static const struct cfg_table tg_wl_incast_table = {
	.section = "traffic",
	.keys = tg_wl_incast_keys,
	.n_keys = sizeof(tg_wl_incast_keys) / sizeof(tg_wl_incast_keys[0]),
};

static int tg_wl_incast_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct tg_wl_incast p = { 0 };
	const struct cfg_bind b[] = {
		{ &tg_wl_common_table, &p },
		{ &tg_wl_proto_table, &p.proto },
		{ &tg_wl_incast_table, &p },
	};
	uint32_t *srcs = NULL, ns = 0, dst;
	int r;

	tg_wl_proto_init(&p.proto, c);
	if ((r = cfg_schema_read(c->doc, it, "workload", b, 3, err)) != 0)
		return r;
	dst = p.proto.msg.dst;
	if ((p.srcs != NULL) == (p.count != NULL)) {
		cfg_errorf(err, it, "incast needs exactly one of 'srcs' (host list) or 'count' (first N other hosts)");
		return -EINVAL;
	}
	if (p.srcs) {
		if ((r = tg_wl_eps(c->topo, p.srcs, &srcs, &ns, err)) != 0)
			return r;
		for (uint32_t i = 0; i < ns; i++) {
			if (srcs[i] == dst) {
				char nb[TOPO_EP_NAME_BYTES];

				cfg_errorf(err, p.srcs->items[i], "incast sources include the destination %s",
					   tg_wl_part_name(c->topo, dst, nb));
				free(srcs);
				return -EINVAL;
			}
		}
	} else {
		uint32_t *all, n_all;
		uint64_t count;

		if ((r = tg_wl_all_parts(c->topo, &all, &n_all)) != 0)
			return r;
		if (cfg_u64(p.count, 1, n_all - 1, &count, err) != 0) {
			free(all);
			return -EINVAL;
		}
		srcs = all;
		for (uint32_t i = 0; ns < count; i++)
			if (all[i] != dst)
				srcs[ns++] = all[i];
	}
	{
		struct tg_wl_est est = { .msgs = ns, .conns = ns, .lower = "fewer senders" };
		bool gpus = dst >= c->topo->n_eps;

		for (uint32_t i = 0; i < ns; i++)
			gpus = gpus || srcs[i] >= c->topo->n_eps;
		r = tg_wl_admit(c, it, "incast", &est, gpus, err);
	}
	if (r == 0)
		r = tg_incast(srcs, ns, &p.proto.msg, c->msgs, c->n_msgs);
	free(srcs);
	return r;
}

static const struct cfg_table *const tg_wl_incast_tables[] = {
	&tg_wl_common_table,
	&tg_wl_proto_table,
	&tg_wl_incast_table,
	NULL,
};

const struct tg_wl_kind tg_wl_incast_kind = {
	.kind = { "incast", "N senders each send one message to one receiver", &tg_wl_incast_table, sizeof(struct tg_wl_incast) },
	.tables = tg_wl_incast_tables,
	.expand = tg_wl_incast_expand,
};
