/* The registry of congestion-control algorithms (a plain static array; one
 * file per algorithm), their `nic.<name>` settings sections and the checks
 * an algorithm passes to be registered. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cc_int.h"
#include "cfg_schema.h"

/* Registry order = slot of each algorithm's settings in struct cc_cfg_set. */
static const struct cc_ops *const cc_registry[] = {
	&cc_none_ops,
	&cc_dcqcn_ops,
	&cc_dctcp_ops,
	&cc_hpcc_ops,
	&cc_timely_ops,
	&cc_swift_ops,
	&cc_ibcc_ops,
};

static const char *const cc_registry_names[] = {
	"none",
	"dcqcn",
	"dctcp",
	"hpcc",
	"timely",
	"swift",
	"ibcc",
	NULL,
};

#define CC_N_ALGOS (sizeof(cc_registry) / sizeof(cc_registry[0]))

_Static_assert(CC_N_ALGOS <= CC_MAX_ALGOS, "raise CC_MAX_ALGOS");
_Static_assert(sizeof(struct cc_dcqcn_cfg) <= CC_CFG_BYTES, "DCQCN settings fit a slot");
_Static_assert(sizeof(struct cc_dctcp_cfg) <= CC_CFG_BYTES, "DCTCP settings fit a slot");
_Static_assert(sizeof(struct cc_hpcc_cfg) <= CC_CFG_BYTES, "HPCC settings fit a slot");
_Static_assert(sizeof(struct cc_timely_cfg) <= CC_CFG_BYTES, "TIMELY settings fit a slot");
_Static_assert(sizeof(struct cc_swift_cfg) <= CC_CFG_BYTES, "Swift settings fit a slot");
_Static_assert(sizeof(struct cc_ibcc_cfg) <= CC_CFG_BYTES, "IB CC settings fit a slot");

#define CC_SLOT(i) (offsetof(struct cc_cfg_set, slot) + (size_t)(i) * CC_CFG_BYTES)

static const struct cfg_sub cc_dcqcn_subs[] = { { &cc_dcqcn_cfg_table, CC_SLOT(1) }, { NULL, 0 } };
static const struct cfg_sub cc_dctcp_subs[] = { { &cc_dctcp_cfg_table, CC_SLOT(2) }, { NULL, 0 } };
static const struct cfg_sub cc_hpcc_subs[] = { { &cc_hpcc_cfg_table, CC_SLOT(3) }, { NULL, 0 } };
static const struct cfg_sub cc_timely_subs[] = { { &cc_timely_cfg_table, CC_SLOT(4) }, { NULL, 0 } };
static const struct cfg_sub cc_swift_subs[] = { { &cc_swift_cfg_table, CC_SLOT(5) }, { NULL, 0 } };
static const struct cfg_sub cc_ibcc_subs[] = { { &cc_ibcc_cfg_table, CC_SLOT(6) }, { NULL, 0 } };

/* Absent sections are not filled here (dflt NULL): only the algorithms in
 * use get theirs, through cc_cfg_resolve, so an experiment that uses none
 * resolves as before. */
static const struct cfg_key cc_cfg_keys[] = {
	{ "dcqcn", CFG_KEY_SECTION, NULL, .subs = cc_dcqcn_subs, .what = "nic.dcqcn",
	  .doc = "DCQCN reaction point settings (used when an algorithm is dcqcn)" },
	{ "dctcp", CFG_KEY_SECTION, NULL, .subs = cc_dctcp_subs, .what = "nic.dctcp",
	  .doc = "DCTCP window settings (used when an algorithm is dctcp)" },
	{ "hpcc", CFG_KEY_SECTION, NULL, .subs = cc_hpcc_subs, .what = "nic.hpcc",
	  .doc = "HPCC window settings (used when an algorithm is hpcc)" },
	{ "timely", CFG_KEY_SECTION, NULL, .subs = cc_timely_subs, .what = "nic.timely",
	  .doc = "TIMELY rate settings (used when an algorithm is timely)" },
	{ "swift", CFG_KEY_SECTION, NULL, .subs = cc_swift_subs, .what = "nic.swift",
	  .doc = "Swift window settings (used when an algorithm is swift)" },
	{ "ibcc", CFG_KEY_SECTION, NULL, .subs = cc_ibcc_subs, .what = "nic.ibcc",
	  .doc = "InfiniBand CC (IBTA A10) source settings (used when an algorithm is ibcc)" },
};

const struct cfg_table cc_cfg_table = {
	.section = "nic",
	.keys = cc_cfg_keys,
	.n_keys = sizeof(cc_cfg_keys) / sizeof(cc_cfg_keys[0]),
};

const struct cc_ops *cc_find(const char *name)
{
	for (size_t i = 0; i < CC_N_ALGOS; i++)
		if (strcmp(cc_registry[i]->name, name) == 0)
			return cc_registry[i];
	return NULL;
}

const char *const *cc_names(void)
{
	return cc_registry_names;
}

const struct cc_ops *cc_at(unsigned i)
{
	return i < CC_N_ALGOS ? cc_registry[i] : NULL;
}

int cc_index(const struct cc_ops *ops)
{
	for (size_t i = 0; i < CC_N_ALGOS; i++)
		if (cc_registry[i] == ops)
			return (int)i;
	return -1;
}

int cc_ops_check(const struct cc_ops *ops, char err[CFG_ERR_BYTES])
{
	const char *why = NULL;

	if (!ops->name || !ops->name[0])
		why = "no name";
	else if (!ops->init)
		why = "no init";
	else if (ops->cfg_size > CC_CFG_BYTES)
		why = "settings larger than CC_CFG_BYTES";
	else if ((ops->cfg_table != NULL) != (ops->cfg_size != 0))
		why = "a settings table needs a settings size and the reverse";
	else if ((ops->flags & CC_F_ECN_ECHO) && !ops->on_ack)
		why = "asks for ECN echo but has no on_ack";
	else if ((ops->flags & CC_F_INT) && !ops->on_ack)
		why = "asks for INT but has no on_ack";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "congestion control '%s': %s",
			 ops->name ? ops->name : "?", why);
		return -EINVAL;
	}
	return 0;
}

const void *cc_cfg_of(const struct cc_cfg_set *set, const struct cc_ops *ops)
{
	int i = cc_index(ops);

	return i < 0 || !ops->cfg_table ? NULL : set->slot[i];
}

int cc_cfg_resolve(struct cfg_doc *doc, struct cfg_node *nic, const struct cc_ops *ops,
		   struct cc_cfg_set *set, char err[CFG_ERR_BYTES])
{
	char what[48];
	struct cfg_node *v;
	struct cfg_bind b;
	int i = cc_index(ops), rc;

	if (i < 0 || !ops->cfg_table || cfg_schema_get(nic, ops->name))
		return 0; /* nothing to set, or read with the nic section */
	if ((rc = cfg_doc_fill(doc, nic, ops->name, "{}", &v, err)) != 0)
		return rc;
	snprintf(what, sizeof(what), "nic.%s", ops->name);
	b.table = ops->cfg_table;
	b.params = set->slot[i];
	return cfg_schema_read(doc, v, what, &b, 1, err);
}

int cc_cfg_defaults(const struct cc_ops *ops, void *cfg, char err[CFG_ERR_BYTES])
{
	struct cfg_doc *doc;
	struct cfg_bind b = { ops->cfg_table, cfg };
	int rc;

	if (!ops->cfg_table)
		return 0;
	if ((rc = cfg_doc_load_string(ops->name, "{}", &doc, err)) != 0)
		return rc;
	rc = cfg_schema_read(doc, cfg_doc_root(doc), ops->name, &b, 1, err);
	cfg_doc_free(doc);
	return rc;
}
