/* The rail-optimised topology kind, its configuration: the key table, the
 * readers of its composite values (ratios, tiers, pods, NVLink), the
 * presets of published NVIDIA DGX SuperPOD designs, and its entry for the
 * registry of topology kinds (topo_kinds.c). The wiring is topo_rail.c. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg_schema.h"
#include "topo_int.h"

#define TOPO_RAIL_OFF(f) offsetof(struct topo_rail_params, f)

/* Defaults as YAML text. Scale-out links: 400 Gb/s, the ConnectX-7 NDR
 * port of DGX H100 and DGX B200 (NVIDIA DGX BasePOD Reference Architecture,
 * "Core Components"). NVLink: H100's NVLink 4 gives a GPU 900 GB/s in total,
 * 450 GB/s = 3.6 Tb/s each way (nccl-tests issue 212, NVIDIA). Both delays
 * are modelling defaults, not published figures. */
#define TOPO_RAIL_LINK_RATE "400Gbps"
#define TOPO_RAIL_LINK_DELAY "1us"
#define TOPO_RAIL_NVL_H100_RATE "3.6Tbps"
#define TOPO_RAIL_NVL_DELAY "100ns"
/* Blackwell's NVLink 5: 1.8 TB/s per GPU in total, 7.2 Tb/s each way
 * (NVIDIA DGX SuperPOD GB200 Reference Architecture, "Network Fabrics"). */
#define TOPO_RAIL_NVL_B200_RATE "7.2Tbps"
#define TOPO_RAIL_LINK_TEXT(rate, delay) "{rate: " rate ", delay: " delay "}"

enum {
	TOPO_RAIL_MAX_RATIO = 1000000, /* largest share in a down:up ratio */
	TOPO_RAIL_RATIO_DIGITS = 7,    /* digits it takes */
	TOPO_RAIL_N_LINK_KEYS = 3,     /* host_link, fabric_link, nvlink */
	TOPO_RAIL_N_PRESET_KEYS = 8,   /* plain keys a preset sets */
	TOPO_RAIL_TEXT_BYTES = 96,     /* a link class as YAML text */
};

/* A key and its value as YAML text. */
struct topo_rail_kv {
	const char *key;  /* key of the topology map */
	const char *text; /* its value */
};

/* A published design: the values it gives the other keys (a user's keys
 * override them), filled into the document so the resolved experiment
 * shows them. */
struct topo_rail_preset {
	struct topo_rail_kv keys[TOPO_RAIL_N_PRESET_KEYS];   /* plain keys */
	const char *rate[TOPO_RAIL_N_LINK_KEYS];             /* host_link, fabric_link, nvlink */
	const char *delay[TOPO_RAIL_N_LINK_KEYS];            /* the same, delays */
};

static const char *const topo_rail_link_keys[TOPO_RAIL_N_LINK_KEYS] = {
	"host_link", "fabric_link", "nvlink",
};

/* No preset: the table's defaults, for the link maps a user writes in part. */
static const struct topo_rail_preset topo_rail_generic = {
	.rate = { TOPO_RAIL_LINK_RATE, TOPO_RAIL_LINK_RATE, TOPO_RAIL_NVL_H100_RATE },
	.delay = { TOPO_RAIL_LINK_DELAY, TOPO_RAIL_LINK_DELAY, TOPO_RAIL_NVL_DELAY },
};

static const char *const topo_rail_preset_names[] = {
	"dgx-h100-superpod",
	"dgx-b200-superpod",
	NULL,
};

/* In the order of the names. DGX H100 SuperPOD (NVIDIA DGX SuperPOD H100
 * Reference Architecture, "Network Fabrics"): 8 GPUs and 8 single-port
 * 400G NICs per node, SUs of 32 node slots (one taken by the UFM appliance,
 * 4 cables), 64-port NDR switches, non-blocking. DGX B200 SuperPOD (NVIDIA
 * DGX SuperPOD B200 Reference Architecture, "DGX SuperPOD Architecture"):
 * the same fabric without the UFM slot, NVLink 5. */
static const struct topo_rail_preset topo_rail_presets[] = {
	{
		.keys = { { "gpus_per_node", "8" }, { "nodes_per_unit", "32" }, { "nic_ports", "1" },
			  { "planes", "1" }, { "radix", "64" }, { "leaf_oversubscription", "\"1:1\"" },
			  { "spine_oversubscription", "\"1:1\"" }, { "management_ports", "4" } },
		.rate = { TOPO_RAIL_LINK_RATE, TOPO_RAIL_LINK_RATE, TOPO_RAIL_NVL_H100_RATE },
		.delay = { TOPO_RAIL_LINK_DELAY, TOPO_RAIL_LINK_DELAY, TOPO_RAIL_NVL_DELAY },
	},
	{
		.keys = { { "gpus_per_node", "8" }, { "nodes_per_unit", "32" }, { "nic_ports", "1" },
			  { "planes", "1" }, { "radix", "64" }, { "leaf_oversubscription", "\"1:1\"" },
			  { "spine_oversubscription", "\"1:1\"" }, { "management_ports", "0" } },
		.rate = { TOPO_RAIL_LINK_RATE, TOPO_RAIL_LINK_RATE, TOPO_RAIL_NVL_B200_RATE },
		.delay = { TOPO_RAIL_LINK_DELAY, TOPO_RAIL_LINK_DELAY, TOPO_RAIL_NVL_DELAY },
	},
};

static int topo_rail_fill_key(struct cfg_doc *doc, struct cfg_node *map, const char *key,
			      const char *text, char err[CFG_ERR_BYTES])
{
	struct cfg_node *v;

	return cfg_get(map, key) != NULL ? 0 : cfg_doc_fill(doc, map, key, text, &v, err);
}

/* A preset's keys, where the user left them out; and the rate and delay
 * inside link maps the user wrote in part, from the preset or the
 * defaults: the resolved experiment then names every value used. */
static int topo_rail_fill(struct cfg_doc *doc, struct cfg_node *m, char err[CFG_ERR_BYTES])
{
	const struct topo_rail_preset *ps = &topo_rail_generic;
	const struct cfg_node *pn = m->type == CFG_MAP ? cfg_get(m, "preset") : NULL;
	char text[TOPO_RAIL_TEXT_BYTES];
	int id, rc = 0;

	if (pn != NULL) {
		rc = cfg_enum(pn, topo_rail_preset_names, &id, err);
		if (rc != 0)
			return rc;
		ps = &topo_rail_presets[id];
		for (unsigned i = 0; rc == 0 && i < TOPO_RAIL_N_PRESET_KEYS; i++)
			rc = topo_rail_fill_key(doc, m, ps->keys[i].key, ps->keys[i].text, err);
	}
	for (unsigned i = 0; rc == 0 && m->type == CFG_MAP && i < TOPO_RAIL_N_LINK_KEYS; i++) {
		struct cfg_node *lk = cfg_schema_get(m, topo_rail_link_keys[i]);

		if (lk == NULL && pn != NULL) {
			snprintf(text, sizeof(text), "{rate: %s, delay: %s}", ps->rate[i], ps->delay[i]);
			rc = topo_rail_fill_key(doc, m, topo_rail_link_keys[i], text, err);
		} else if (lk != NULL && lk->type == CFG_MAP) {
			rc = topo_rail_fill_key(doc, lk, "rate", ps->rate[i], err);
			if (rc == 0)
				rc = topo_rail_fill_key(doc, lk, "delay", ps->delay[i], err);
		}
	}
	return rc;
}

static int topo_rail_preset(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	int id, rc = cfg_enum(n, topo_rail_preset_names, &id, err);

	if (rc == 0)
		((struct topo_rail_params *)params)->preset = (uint32_t)id + 1;
	return rc;
}

static int topo_rail_tiers(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const names[] = { "auto", "2", "3", NULL };
	static const uint32_t tiers[] = { 0, 2, 3 };
	int id, rc = cfg_enum(n, names, &id, err);

	if (rc == 0)
		((struct topo_rail_params *)params)->n_tiers = tiers[id];
	return rc;
}

static int topo_rail_units_per_pod(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct topo_rail_params *p = params;
	uint64_t v;

	if (n->type == CFG_SCALAR && strcmp(n->str, "auto") == 0) {
		p->units_per_pod = 0;
		return 0;
	}
	if (n->type != CFG_SCALAR || n->str[0] < '0' || n->str[0] > '9') {
		cfg_errorf(err, n, "expected auto or a number of units such as 4");
		return -EINVAL;
	}
	if (cfg_u64(n, 1, TOPO_MAX_SWITCHES, &v, err) != 0)
		return -EINVAL;
	p->units_per_pod = (uint32_t)v;
	return 0;
}

/* "DOWN:UP", two positive integers, such as "2:1". */
static int topo_rail_ratio(const struct cfg_node *n, struct topo_ratio *out, char err[CFG_ERR_BYTES])
{
	static const char form[] = "expected a ratio down:up of capacities such as \"1:1\" or \"2:1\"";
	const char *s = n->type == CFG_SCALAR ? n->str : NULL;
	unsigned long down = 0, up = 0;
	size_t a = s != NULL ? strspn(s, "0123456789") : 0;
	size_t b = s != NULL && s[a] == ':' ? strspn(s + a + 1, "0123456789") : 0;

	if (s == NULL || a == 0 || b == 0 || s[a] != ':' || s[a + 1 + b] != '\0' ||
	    a > TOPO_RAIL_RATIO_DIGITS || b > TOPO_RAIL_RATIO_DIGITS) {
		if (s != NULL)
			cfg_errorf(err, n, "%s, got '%s'", form, s);
		else
			cfg_errorf(err, n, "%s", form);
		return -EINVAL;
	}
	down = strtoul(s, NULL, 10);
	up = strtoul(s + a + 1, NULL, 10);
	if (down == 0 || up == 0 || down > TOPO_RAIL_MAX_RATIO || up > TOPO_RAIL_MAX_RATIO) {
		cfg_errorf(err, n, "%s: both sides 1..%d, got '%s'", form, TOPO_RAIL_MAX_RATIO, s);
		return -EINVAL;
	}
	out->down = (uint32_t)down;
	out->up = (uint32_t)up;
	return 0;
}

static int topo_rail_leaf_os(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_rail_ratio(n, &((struct topo_rail_params *)params)->leaf_os, err);
}

static int topo_rail_spine_os(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_rail_ratio(n, &((struct topo_rail_params *)params)->spine_os, err);
}

/* nvlink: none, or {domain_gpus, rate, delay} (topo_rail_fill put rate
 * and delay in). */
static int topo_rail_nvlink(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "domain_gpus", "rate", "delay", NULL };
	struct topo_rail_params *p = params;
	const struct cfg_node *v;
	uint64_t d;
	int rc;

	if (n->type == CFG_SCALAR && strcmp(n->str, "none") == 0) {
		p->nvlink = false;
		return 0;
	}
	if (n->type != CFG_MAP) {
		cfg_errorf(err, n, "nvlink: expected none or a map {domain_gpus, rate, delay}");
		return -EINVAL;
	}
	rc = cfg_check_keys(n, keys, err);
	if (rc == 0 && (v = cfg_get(n, "domain_gpus")) != NULL) {
		rc = cfg_u64(v, 1, TOPO_MAX_HOSTS, &d, err);
		p->domain_gpus = (uint32_t)d;
	}
	if (rc == 0)
		rc = topo_read_rate_delay(n, &topo_default_link, &p->nvl_link, err);
	p->nvlink = true;
	return rc;
}

static int topo_rail_host_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, &((struct topo_rail_params *)params)->host_link, err);
}

static int topo_rail_fabric_link(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return topo_link_read(n, &((struct topo_rail_params *)params)->fabric_link, err);
}

static int topo_rail_build(const struct cfg_node *m, const void *params, struct topo **out,
			   char err[CFG_ERR_BYTES])
{
	return topo_build_rail(params, m, out, err);
}

static const struct cfg_key topo_rail_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "rail-optimised" },
	{ "preset", CFG_KEY_CUSTOM, .read = topo_rail_preset,
	  .doc = "dgx-h100-superpod or dgx-b200-superpod: defaults for the other keys" },
	{ "gpus_per_node", CFG_KEY_UINT, "8", .off = TOPO_RAIL_OFF(gpus_per_node), .size = 4,
	  .min = 1, .max = TOPO_MAX_PORTS, .doc = "GPUs per node, one NIC (one rail) each" },
	{ "rails", CFG_KEY_UINT, .off = TOPO_RAIL_OFF(rails), .size = 4, .min = 1,
	  .max = TOPO_MAX_PORTS, .doc = "optional: must equal the NICs per node (gpus_per_node)" },
	{ "nodes_per_unit", CFG_KEY_UINT, "32", .off = TOPO_RAIL_OFF(nodes_per_unit), .size = 4,
	  .min = 1, .max = TOPO_MAX_PORTS, .doc = "node slots per scalable unit" },
	{ "nodes", CFG_KEY_UINT, .off = TOPO_RAIL_OFF(n_nodes), .size = 4, .min = 1,
	  .max = TOPO_MAX_HOSTS, .doc = "GPU nodes (give this or units)" },
	{ "units", CFG_KEY_UINT, .off = TOPO_RAIL_OFF(n_units), .size = 4, .min = 1,
	  .max = TOPO_MAX_SWITCHES, .doc = "scalable units (give this or nodes)" },
	{ "nic_ports", CFG_KEY_UINT, "1", .off = TOPO_RAIL_OFF(nic_ports), .size = 2, .min = 1,
	  .max = 2, .doc = "ports per NIC" },
	{ "planes", CFG_KEY_UINT, "1", .off = TOPO_RAIL_OFF(n_planes), .size = 2, .min = 1,
	  .max = 2, .doc = "scale-out planes: 1, or nic_ports (port p on plane p)" },
	{ "tiers", CFG_KEY_CUSTOM, "auto", .read = topo_rail_tiers,
	  .doc = "switch tiers: auto, 2 or 3" },
	{ "radix", CFG_KEY_UINT, "64", .off = TOPO_RAIL_OFF(radix), .size = 4, .min = 2,
	  .max = TOPO_MAX_PORTS, .doc = "ports per scale-out switch" },
	{ "leaf_oversubscription", CFG_KEY_CUSTOM, "\"1:1\"", .read = topo_rail_leaf_os,
	  .doc = "leaf down:up capacity" },
	{ "spine_oversubscription", CFG_KEY_CUSTOM, "\"1:1\"", .read = topo_rail_spine_os,
	  .doc = "spine down:up capacity (three tiers)" },
	{ "units_per_pod", CFG_KEY_CUSTOM, "auto", .read = topo_rail_units_per_pod,
	  .doc = "units per pod (three tiers): auto or a count" },
	{ "management_ports", CFG_KEY_UINT, "0", .off = TOPO_RAIL_OFF(management_ports), .size = 4,
	  .min = 0, .max = TOPO_MAX_PORTS, .doc = "ports of a management host in the last unit, 0: none" },
	{ "nvlink", CFG_KEY_CUSTOM, TOPO_RAIL_LINK_TEXT(TOPO_RAIL_NVL_H100_RATE, TOPO_RAIL_NVL_DELAY),
	  .read = topo_rail_nvlink, .doc = "NVLink domains {domain_gpus, rate, delay}, or none" },
	{ "host_link", CFG_KEY_CUSTOM, TOPO_RAIL_LINK_TEXT(TOPO_RAIL_LINK_RATE, TOPO_RAIL_LINK_DELAY),
	  .read = topo_rail_host_link, .doc = "NIC-leaf links {rate, delay}" },
	{ "fabric_link", CFG_KEY_CUSTOM, TOPO_RAIL_LINK_TEXT(TOPO_RAIL_LINK_RATE, TOPO_RAIL_LINK_DELAY),
	  .read = topo_rail_fabric_link, .doc = "switch-switch links {rate, delay}" },
};

static const struct cfg_table topo_rail_table = {
	.section = "topology",
	.keys = topo_rail_keys,
	.n_keys = sizeof(topo_rail_keys) / sizeof(topo_rail_keys[0]),
	.ordered = true,
	.missing = "missing '%s' (%s)",
};

const struct topo_kind topo_rail_kind = {
	.kind = { "rail-optimised", "GPU nodes on rail-optimised leaves, with NVLink domains",
		  &topo_rail_table, sizeof(struct topo_rail_params) },
	.fill = topo_rail_fill,
	.build = topo_rail_build,
	.bisection = topo_rail_bisection,
	.describe = topo_rail_describe,
	.dot = topo_rail_dot,
};
