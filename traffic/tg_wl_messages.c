/* The `messages` workload kind: an explicit list of point-to-point
 * messages {src, dst, size, start, op, dscp}. */
#include <errno.h>
#include <stdlib.h>

#include "topo.h"
#include "tg_wl_int.h"

static int tg_wl_msg_src(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_proto *p = params;

	return tg_wl_ep(p->ctx->topo, n, &p->msg.src, err);
}

static int tg_wl_msg_dst(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_proto *p = params;

	return tg_wl_ep(p->ctx->topo, n, &p->msg.dst, err);
}

static int tg_wl_msg_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_proto *p = params;

	if (p->msg.src == p->msg.dst) {
		char nb[TOPO_EP_NAME_BYTES];

		cfg_errorf(err, cfg_get(map, "dst"),
			   "a message needs two different endpoints (src and dst are both %s)",
			   tg_wl_part_name(p->ctx->topo, p->msg.src, nb));
		return -EINVAL;
	}
	return 0;
}

/* The endpoints of one message (beside tg_wl_proto_table). */
static const struct cfg_key tg_wl_msg_keys[] = {
	{ "src", CFG_KEY_CUSTOM, .required = "source host", .read = tg_wl_msg_src,
	  .doc = "sender (in each message)" },
	{ "dst", CFG_KEY_CUSTOM, .required = "destination host", .read = tg_wl_msg_dst,
	  .doc = "receiver, different from src" },
};

static const struct cfg_table tg_wl_msg_table = {
	.section = "traffic",
	.keys = tg_wl_msg_keys,
	.n_keys = sizeof(tg_wl_msg_keys) / sizeof(tg_wl_msg_keys[0]),
	.check = tg_wl_msg_check,
};

static const struct cfg_key tg_wl_messages_keys[] = {
	{ "messages", CFG_KEY_ANY, .required = "a list of {src, dst, size}",
	  .doc = "one map per message" },
};

static const struct cfg_table tg_wl_messages_table = {
	.section = "traffic",
	.keys = tg_wl_messages_keys,
	.n_keys = sizeof(tg_wl_messages_keys) / sizeof(tg_wl_messages_keys[0]),
};

static int tg_wl_messages_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	const struct cfg_bind wl[] = {
		{ &tg_wl_common_table, NULL },
		{ &tg_wl_messages_table, NULL },
	};
	struct cfg_node *list;
	int rc;

	if ((rc = cfg_schema_read(c->doc, it, "workload", wl, 2, err)) != 0)
		return rc;
	list = cfg_schema_get(it, "messages");
	if (cfg_want(list, CFG_SEQ, "messages", err) != 0)
		return -EINVAL;
	{
		struct tg_wl_est est = { .msgs = list->n, .conns = list->n, .lower = "fewer messages" };

		if ((rc = tg_wl_admit(c, it, "messages", &est, c->topo->gpus.n_nodes > 0, err)) != 0)
			return rc;
	}
	for (uint32_t i = 0; i < list->n; i++) {
		struct tg_wl_proto p;
		struct cfg_bind msg[2] = { { &tg_wl_msg_table, &p }, { &tg_wl_proto_table, &p } };
		tg_wl_proto_init(&p, c);
		if ((rc = cfg_schema_read(c->doc, list->items[i], "message", msg, 2, err)) != 0)
			return rc;
		if (tg_wl_msgs_room(c, 1) != 0)
			return -ENOMEM;
		(*c->msgs)[(*c->n_msgs)++] = p.msg;
	}
	return 0;
}

static const struct cfg_table *const tg_wl_messages_tables[] = {
	&tg_wl_common_table,
	&tg_wl_messages_table,
	&tg_wl_msg_table,
	&tg_wl_proto_table,
	NULL,
};

const struct tg_wl_kind tg_wl_messages_kind = {
	.kind = { "messages", "an explicit list of point-to-point messages", NULL, 0 },
	.tables = tg_wl_messages_tables,
	.expand = tg_wl_messages_expand,
};
