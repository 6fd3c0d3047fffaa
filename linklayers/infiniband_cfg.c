/* InfiniBand's settings (fabric.ib): the key table the link layer
 * registry reads into struct ib_settings (infiniband.h), with its readers
 * (vl_buffer, the SL-to-VL maps, the switch ports with a map of their own)
 * and the checks across its keys. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "infiniband.h"
#include "pkt_ib.h"

void ib_settings_init(void *s, const struct exp *e)
{
	((struct ib_settings *)s)->exp = e;
}

void ib_settings_free(void *s)
{
	struct ib_settings *ib = s;

	free(ib->sl2vl_ports);
	free(ib->sl2vl_maps);
}

/* vl_buffer: auto (0: sized per link at assembly) or a size. */
static int ib_vl_buffer(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct ib_settings *ib = params;

	if (n->type == CFG_SCALAR && strcmp(n->str, "auto") == 0) {
		ib->vl_buffer_bytes = 0;
		return 0;
	}
	ib->vl_buffer_mark = n->mark;
	return cfg_size(n, PKT_IB_BLOCK_BYTES, PKT_IB_FC_HALF * PKT_IB_BLOCK_BYTES,
			&ib->vl_buffer_bytes, err);
}

/* The 16 VLs of an sl2vl list @n into @map. */
static int ib_map(const struct cfg_node *n, uint8_t map[SW_IB_N_SL], char err[CFG_ERR_BYTES])
{
	if (cfg_want(n, CFG_SEQ, "sl2vl (16 VLs, one per service level)", err) != 0)
		return -EINVAL;
	if (n->n != SW_IB_N_SL) {
		cfg_errorf(err, n, "sl2vl needs 16 entries (SL 0..15), not %u", n->n);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < n->n; i++) {
		uint64_t v;

		if (cfg_u64(n->items[i], 0, PORT_N_TC - 1, &v, err) != 0)
			return -EINVAL;
		map[i] = (uint8_t)v;
	}
	return 0;
}

/* sl2vl: 16 VLs, one per SL, each 0..7 (the data VLs a port models). */
static int ib_sl2vl(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return ib_map(n, ((struct ib_settings *)params)->sl2vl, err);
}

/* Append @n_ports ports, each with @map, to port_sl2vl. 0 or -ENOMEM. */
static int ib_port_sl2vl_add(struct ib_settings *ib, const struct exp_capture *ports,
			     uint32_t n_ports, const uint8_t map[SW_IB_N_SL])
{
	uint32_t base = ib->n_sl2vl_ports;
	void *grown = realloc(ib->sl2vl_ports, sizeof(*ib->sl2vl_ports) * (base + n_ports + 1));

	if (grown)
		ib->sl2vl_ports = grown;
	grown = grown ? realloc(ib->sl2vl_maps, sizeof(*ib->sl2vl_maps) * (base + n_ports + 1))
		      : NULL;
	if (!grown)
		return -ENOMEM;
	ib->sl2vl_maps = grown;
	for (uint32_t k = 0; k < n_ports; k++) {
		ib->sl2vl_ports[base + k] = ports[k];
		memcpy(ib->sl2vl_maps[base + k], map, SW_IB_N_SL);
	}
	ib->n_sl2vl_ports = base + n_ports;
	return 0;
}

/* port_sl2vl: [{ports: [SWITCH:PORT, ...], sl2vl: [16 VLs]}]: those switch
 * egress ports map SLs by their own table (a VL change on the way). */
static int ib_port_sl2vl(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "ports", "sl2vl", NULL };
	struct ib_settings *ib = params;
	const struct exp *e = ib->exp;

	if (cfg_want(n, CFG_SEQ, "port_sl2vl (a list of {ports, sl2vl})", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < n->n; i++) {
		const struct cfg_node *it = n->items[i], *pn, *mn;
		struct exp_capture *ports = NULL;
		uint8_t map[SW_IB_N_SL];
		uint32_t n_ports = 0;
		int rc;

		if (cfg_want(it, CFG_MAP, "a port_sl2vl entry ({ports, sl2vl})", err) != 0 ||
		    cfg_check_keys(it, keys, err) != 0)
			return -EINVAL;
		pn = cfg_get(it, "ports");
		mn = cfg_get(it, "sl2vl");
		if (!pn || !mn) {
			cfg_errorf(err, it, "a port_sl2vl entry needs 'ports' and 'sl2vl'");
			return -EINVAL;
		}
		if (ib_map(mn, map, err) != 0)
			return -EINVAL;
		if ((rc = exp_port_list(e, pn, "port_sl2vl.ports", false, &ports, NULL, &n_ports, err)) != 0)
			return rc;
		for (uint32_t k = 0; k < n_ports; k++)
			if (e->topo->nodes[ports[k].node].kind != TOPO_SWITCH) {
				cfg_errorf(err, pn, "port_sl2vl names switch ports; %s is not a switch (NICs use sl2vl)",
					   e->topo->nodes[ports[k].node].name);
				free(ports);
				return -EINVAL;
			}
		rc = ib_port_sl2vl_add(ib, ports, n_ports, map);
		free(ports);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int ib_settings_check(const struct cfg_node *b, void *params, char err[CFG_ERR_BYTES])
{
	const struct ib_settings *ib = params;

	if (ib->vl_buffer_bytes % PKT_IB_BLOCK_BYTES) {
		cfg_errorf(err, cfg_get(b, "vl_buffer"),
			   "vl_buffer must be a whole number of 64-byte credits, not %llu bytes",
			   (unsigned long long)ib->vl_buffer_bytes);
		return -EINVAL;
	}
	if (ib->vl_buffer_bytes && ib->credit_update_bytes > ib->vl_buffer_bytes) {
		cfg_errorf(err, cfg_get(b, "credit_update"),
			   "credit_update (%llu bytes) exceeds vl_buffer (%llu bytes): credits would never be returned",
			   (unsigned long long)ib->credit_update_bytes,
			   (unsigned long long)ib->vl_buffer_bytes);
		return -EINVAL;
	}
	return 0;
}

/* Defaults: OpenSM's default engine is minhop; SL s on VL s mod 8; a
 * buffer per VL sized for the link's credit loop (at most 128 KiB, what
 * the 12-bit credit count may run ahead: 2048 blocks) returned every
 * 16 KiB freed (four 4 KiB-MTU frames) and refreshed within 65,536 byte
 * times (docs/infiniband.md). */
static const struct cfg_key ib_keys[] = {
	{ "routing", CFG_KEY_ENUM, "minhop", .off = offsetof(struct ib_settings, routing),
	  .names = sw_ib_routing_names, .doc = "subnet manager routing engine: minhop or ftree (d-mod-k)" },
	{ "sl2vl", CFG_KEY_CUSTOM, "[0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]",
	  .read = ib_sl2vl, .doc = "VL (0..7) of each service level 0..15, every port" },
	{ "port_sl2vl", CFG_KEY_CUSTOM, NULL, .read = ib_port_sl2vl,
	  .doc = "switch ports with their own SL-to-VL table: [{ports: [leaf*:*], sl2vl: [16 VLs]}]" },
	{ "grh", CFG_KEY_BOOL, "false", .off = offsetof(struct ib_settings, grh),
	  .doc = "packets carry a global route header (40 bytes)" },
	{ "vl_buffer", CFG_KEY_CUSTOM, "auto", .read = ib_vl_buffer,
	  .doc = "receive buffer per port and VL that credits stand for: auto (the link's credit loop) or 64B..128KiB" },
	{ "credit_update", CFG_KEY_SIZE, "16KiB", .off = offsetof(struct ib_settings, credit_update_bytes),
	  .size = 8, .min = PKT_IB_BLOCK_BYTES, .max = PKT_IB_FC_HALF * PKT_IB_BLOCK_BYTES,
	  .doc = "a flow-control packet goes once this much buffer was freed" },
	{ "credit_interval", CFG_KEY_TIME, "0s", .off = offsetof(struct ib_settings, credit_interval_ps),
	  .doc = "and at least this often while freed buffer is not yet advertised; 0s: 65,536 byte times of the link" },
};

const struct cfg_table ib_settings_table = {
	.section = "fabric.ib",
	.keys = ib_keys,
	.n_keys = sizeof(ib_keys) / sizeof(ib_keys[0]),
	.check = ib_settings_check,
};
