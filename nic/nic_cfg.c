/* The `nic:` section of an experiment: every NIC key, its default, range
 * and reference line, read straight into struct nic_params by the schema
 * walker (core/cfg_schema.h). Adding a NIC key is a row here, a field in
 * nic.h and a row in docs/config.md. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cfg_schema.h"
#include "nic_int.h"
#include "units.h"

#define NIC_CFG_OFF(f) offsetof(struct nic_params, f)

_Static_assert(sizeof(enum nic_recovery) == sizeof(int), "nic.recovery is read as an int");

static const char *const nic_cfg_recovery_names[] = { "go-back-n", "selective-repeat", NULL };
enum {
	NIC_CFG_MTU_MIN = 256,  /* IB's smallest path MTU */
	NIC_CFG_MTU_MAX = 4096, /* IB's largest path MTU */
	NIC_CFG_MSG_BYTES = 128, /* a rule's message (nic_cfg_rules) */
};

/* An integer or a size: the payload bytes per packet, 256..4096. One of
 * InfiniBand's five path MTUs (256, 512, 1024, 2048, 4096) on every link
 * layer; on RoCE any size between, as packet simulators send (the HPCC
 * authors' ns-3 sends 1000-byte payloads): the QP's verbs path MTU is
 * then the next larger one, and the payload is this (nic_qp_connect).
 * InfiniBand refuses the in-between sizes (run/exp_load.c). */
static int nic_cfg_mtu(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct nic_params *p = params;
	const char *s = n->type == CFG_SCALAR ? n->str : "";
	bool digits = *s != '\0';
	uint64_t v;

	for (const char *c = s; *c; c++)
		digits = digits && *c >= '0' && *c <= '9';
	if ((digits ? cfg_u64(n, 0, UINT32_MAX, &v, err) : cfg_size(n, 0, UINT32_MAX, &v, err)) != 0)
		return -EINVAL;
	if (v < NIC_CFG_MTU_MIN || v > NIC_CFG_MTU_MAX) {
		cfg_errorf(err, n, "payload bytes per packet must be 256..4096 (a path MTU: 256, 512, 1024, 2048, 4096; on RoCE any size between), got %llu",
			   (unsigned long long)v);
		return -EINVAL;
	}
	p->mtu_bytes = (uint32_t)v;
	return 0;
}

/* A VLAN id: the NIC tags its frames. */
static int nic_cfg_vlan(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct nic_params *p = params;
	uint64_t v;

	if (cfg_u64(n, 0, 4095, &v, err) != 0)
		return -EINVAL;
	p->vlan = true;
	p->vid = (uint16_t)v;
	return 0;
}

/* A registered congestion-control algorithm, "did you mean". */
static int nic_cfg_cc(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct nic_params *p = params;

	return cc_read(n, &p->cc, err);
}

static int nic_cfg_rto(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct nic_params *p = params;

	/* off: no timer (IB's Local ACK Timeout 0, "infinite"). */
	if (n->type == CFG_SCALAR && strcmp(n->str, "off") == 0) {
		p->rto_off = true;
		p->rto_ps = 0;
		return 0;
	}
	p->rto_off = false;

	/* rto_max defaults to rto x 2^6, which must stay inside the clock's
	 * horizon too. */
	if (cfg_time_max(n, UNITS_TIME_MAX_PS >> NIC_RTO_MAX_SHIFT_DEFAULT,
			 "the back-off cap, rto x 64 unless rto_max is given, must stay within the clock's horizon",
			 &p->rto_ps, err) != 0)
		return -EINVAL;
	if (p->rto_ps == 0) {
		cfg_errorf(err, n, "the retransmission timeout must be above 0");
		return -EINVAL;
	}
	return 0;
}

static int nic_cfg_rto_max(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct nic_params *p = params;

	if (p->rto_off) {
		cfg_errorf(err, n, "rto_max caps the timeout's back-off: it has no meaning with rto: off");
		return -EINVAL;
	}
	return cfg_time(n, &p->rto_max_ps, err); /* at least rto: nic_cfg_rules */
}

static const struct cfg_key nic_cfg_keys[] = {
	{ "mtu", CFG_KEY_CUSTOM, "4096", .read = nic_cfg_mtu,
	  .doc = "payload bytes per packet: a path MTU (256, 512, 1024, 2048, 4096) or, on RoCE, any size between" },
	{ "ack_every", CFG_KEY_UINT, "16", .off = NIC_CFG_OFF(ack_every_pkts), .size = 4,
	  .min = 1, .max = 1 << 16, .doc = "the responder ACKs at least every this many packets" },
	{ "payload", CFG_KEY_BOOL, "false", .off = NIC_CFG_OFF(payload),
	  .doc = "materialise payload bytes (and the real ICRC)" },
	{ "vlan_id", CFG_KEY_CUSTOM, NULL, .read = nic_cfg_vlan,
	  .doc = "tag frames with 802.1Q and this VLAN id (0..4095); absent: untagged" },
	{ "dscp", CFG_KEY_UINT, "26", .off = NIC_CFG_OFF(data_dscp), .size = 1, .max = 63,
	  .doc = "DSCP of data when a workload names none" },
	{ "ack_dscp", CFG_KEY_UINT, "48", .off = NIC_CFG_OFF(ack_dscp), .size = 1, .max = 63,
	  .doc = "DSCP of ACKs and NAKs" },
	{ "cc", CFG_KEY_CUSTOM, "none", .read = nic_cfg_cc,
	  .doc = "congestion control of every QP (a registered algorithm)" },
	{ "recovery", CFG_KEY_ENUM, "go-back-n", .off = NIC_CFG_OFF(recovery),
	  .names = nic_cfg_recovery_names, .doc = "loss recovery: go-back-n or selective-repeat" },
	{ "rto", CFG_KEY_CUSTOM, "262.144us", .read = nic_cfg_rto,
	  .doc = "first retransmission timeout (4.096 us x 2^6, verbs timeout 6), > 0; off: no timer (verbs timeout 0)" },
	{ "rto_max", CFG_KEY_CUSTOM, NULL, .read = nic_cfg_rto_max,
	  .doc = "cap of the timeout's back-off, at least rto; absent: rto x 64" },
	{ "retry_cnt", CFG_KEY_UINT, "7", .off = NIC_CFG_OFF(retry_cnt), .size = 1, .min = 1,
	  .max = 7, .doc = "timeouts retried before a QP fails, as verbs' retry_cnt" },
	{ "sr_window", CFG_KEY_UINT, "1024", .off = NIC_CFG_OFF(sr_window_pkts), .size = 4,
	  .min = NIC_SR_WINDOW_MIN_PKTS, .max = NIC_SR_WINDOW_MAX_PKTS, .doc = "selective repeat: PSNs tracked past the cumulative ACK, a power of two" },
	{ "cnp_dscp", CFG_KEY_UINT, "48", .off = NIC_CFG_OFF(cnp_dscp), .size = 1, .min = 1,
	  .max = 63, .doc = "DSCP of CNPs (ConnectX cnp_dscp)" },
	{ "cnp_interval", CFG_KEY_TIME, "50us", .off = NIC_CFG_OFF(cnp_interval_ps),
	  .doc = "at most one CNP per QP per this (DCQCN's N)" },
	{ "bdp_fc", CFG_KEY_BOOL, "true", .off = NIC_CFG_OFF(sr_bdp_fc),
	  .doc = "selective repeat: at most a BDP in flight (IRN)" },
	{ "sr_reorder", CFG_KEY_UINT, "0", .off = NIC_CFG_OFF(sr_reorder_pkts), .size = 4,
	  .max = 1u << 21,
	  .doc = "selective repeat: resend a missing PSN once one more than this many PSNs beyond it arrived; 0: at once (IRN)" },
};

/* The rules that relate keys or go beyond a key's range, written once for
 * both ways params arrive: the table's check below (an experiment's `nic:`
 * section, after every key was read) and nic_params_check (a caller's own
 * params). NULL when @p keeps them, else what is wrong (in @msg or a
 * literal), with *key the key it is about. */
static const char *nic_cfg_rules(const struct nic_params *p, const char **key, char *msg,
				 size_t size)
{
	*key = "rto_max";
	if (p->rto_max_ps && p->rto_max_ps < p->rto_ps) /* 0: rto x 64, derived */
		return "rto_max is below rto";
	*key = "sr_window";
	if (p->sr_window_pkts & (p->sr_window_pkts - 1))
		return "sr_window must be a power of two (packets), e.g. 1024";
	/* sr_reorder below sr_window: a hole further back than the window
	 * could never be declared lost. */
	*key = "sr_reorder";
	if (p->sr_reorder_pkts >= p->sr_window_pkts) {
		snprintf(msg, size, "sr_reorder (%u packets) must be below sr_window (%u)",
			 p->sr_reorder_pkts, p->sr_window_pkts);
		return msg;
	}
	return NULL;
}

static int nic_cfg_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	char msg[NIC_CFG_MSG_BYTES];
	const char *key, *why = nic_cfg_rules(params, &key, msg, sizeof(msg));
	const struct cfg_node *n = why ? cfg_get(map, key) : NULL;

	if (!why)
		return 0;
	cfg_errorf(err, n ? n : map, "%s", why);
	return -EINVAL;
}

const struct cfg_table nic_cfg_table = {
	.section = "nic",
	.keys = nic_cfg_keys,
	.n_keys = sizeof(nic_cfg_keys) / sizeof(nic_cfg_keys[0]),
	.check = nic_cfg_check,
};

void nic_params_resolve(struct nic_params *p)
{
	/* Without a timer (nic.rto: off) there is no timeout to default. */
	if (!p->rto_off && p->rto_ps == 0)
		p->rto_ps = NIC_RTO_DEFAULT_PS;
	if (!p->rto_off && p->rto_max_ps == 0)
		p->rto_max_ps = p->rto_ps << NIC_RTO_MAX_SHIFT_DEFAULT;
	if (p->retry_cnt == 0)
		p->retry_cnt = NIC_RETRY_CNT_DEFAULT;
	if (p->sr_window_pkts == 0)
		p->sr_window_pkts = NIC_SR_WINDOW_DEFAULT_PKTS;
	if (p->cnp_dscp == 0)
		p->cnp_dscp = NIC_CNP_DSCP_DEFAULT;
	if (!p->cc)
		p->cc = cc_find("none");
}

/* The value of the unsigned of @size bytes at @at. */
static uint64_t nic_cfg_load(const void *at, unsigned size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)at;
	case 2:
		return *(const uint16_t *)at;
	case 4:
		return *(const uint32_t *)at;
	default:
		return *(const uint64_t *)at;
	}
}

int nic_params_check(const struct nic_params *caller, char err[CFG_ERR_BYTES])
{
	char msg[NIC_CFG_MSG_BYTES];
	struct nic_params rp = *caller, *p = &rp;
	const char *key, *why;

	nic_params_resolve(p);
	/* Each number and name against its row of the table: the ranges an
	 * experiment's readers apply. */
	for (unsigned i = 0; i < nic_cfg_table.n_keys; i++) {
		const struct cfg_key *k = &nic_cfg_keys[i];
		const char *at = (const char *)p + k->off;
		unsigned n = 0;
		uint64_t v;

		if (k->type == CFG_KEY_UINT) {
			v = nic_cfg_load(at, k->size);
			if (v < k->min || v > k->max) {
				snprintf(err, CFG_ERR_BYTES, "nic.%s: %llu is outside %llu..%llu",
					 k->name, (unsigned long long)v, (unsigned long long)k->min,
					 (unsigned long long)k->max);
				return -EINVAL;
			}
		} else if (k->type == CFG_KEY_ENUM) {
			while (k->names[n])
				n++;
			if ((unsigned)*(const int *)at >= n) {
				snprintf(err, CFG_ERR_BYTES, "nic.%s: %d is not one of its %u names",
					 k->name, *(const int *)at, n);
				return -EINVAL;
			}
		}
	}
	if ((why = nic_cfg_rules(p, &key, msg, sizeof(msg))) != NULL) {
		snprintf(err, CFG_ERR_BYTES, "nic.%s: %s", key, why);
		return -EINVAL;
	}
	return 0;
}
