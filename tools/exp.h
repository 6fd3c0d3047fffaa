/* An experiment: the typed, checked form of one experiment file (plus its
 * --set overrides), and the loader that reports every problem as
 * FILE:LINE:COL. The schema tables here are the single source of the key
 * names; docs/config.md is checked against them by a test. */
#ifndef FAB_EXP_H
#define FAB_EXP_H

#include <stdbool.h>
#include <stdint.h>

#include "cc.h"
#include "cfg.h"
#include "port.h"
#include "nic.h"
#include "sw.h"
#include "tg.h"
#include "topo.h"

enum exp_op {
	EXP_OP_LT,
	EXP_OP_LE,
	EXP_OP_EQ,
	EXP_OP_NE,
	EXP_OP_GE,
	EXP_OP_GT,
};

/* One `expect:` assertion. */
struct exp_expect {
	char metric[96];       /* summary.json path or flows.<column>.<aggregate> */
	enum exp_op op;        /* comparison */
	double value;          /* expected value */
	double tolerance;      /* absolute slack (relative ones resolved at load) */
	struct cfg_mark mark;  /* where it was written */
};

/* A port to capture. */
struct exp_capture {
	uint32_t node;         /* topology node */
	uint16_t port;         /* its port */
};

struct exp_workload {
	char name[32];         /* given or "<kind><index>" */
	const char *kind;      /* "messages", "permutation", "incast" (static) */
};

struct exp {
	struct cfg_doc *doc;          /* the document (owns all strings) */
	const char *path;             /* experiment file */
	const char *name;             /* experiment name */
	uint64_t seed;                /* master seed */
	uint64_t stop_ps;             /* stop_time, 0 = until traffic is done */
	struct topo *topo;            /* topology */
	/* fabric */
	uint64_t buffer_bytes;        /* buffer per switch */
	struct cfg_mark buffer_mark;  /* where it was set (or the fabric block, or the file) */
	uint8_t dscp_to_prio[64];     /* classification: priority per DSCP */
	uint8_t prio_to_tc[8];        /* egress queue per priority */
	struct port_sched sched;      /* egress scheduler (switch and NIC ports) */
	uint32_t reserve_bytes;       /* MMU reserve per ingress port and priority */
	uint32_t egress_alpha_q16;    /* lossy dynamic threshold, 0 = none */
	double loss;                  /* random frame loss per link direction */
	struct sw_pfc_params pfc;     /* lossless priorities (lossless_prio 0 = off) */
	struct cfg_mark headroom_mark; /* where a headroom was configured (warnings) */
	struct exp_capture *pfc_off;  /* ports with PFC disabled */
	uint32_t n_pfc_off;
	struct cfg_mark *pfc_off_marks; /* where each was named */
	uint64_t deadlock_check_ps;   /* deadlock detection period, 0 = off */
	uint8_t ecn_tc_mask;          /* classes that mark ECN, 0 = off */
	bool ecn_on_enqueue;          /* mark on enqueue, else dequeue */
	struct sw_red_params red;     /* marking curve */
	/* nic */
	uint32_t mtu_bytes;           /* RoCE path MTU */
	uint32_t ack_every_pkts;      /* ACK coalescing */
	bool payload;                 /* materialise payload */
	bool vlan;                    /* 802.1Q tagging */
	uint16_t vid;                 /* VLAN id */
	uint8_t data_dscp;            /* default DSCP of data */
	uint8_t ack_dscp;             /* DSCP of ACKs and CNPs */
	const struct cc_ops *cc;      /* congestion control */
	enum nic_recovery recovery;   /* loss recovery */
	uint64_t rto_ps;              /* first retransmission timeout */
	uint64_t rto_max_ps;          /* back-off cap, 0 = rto x 64 */
	uint8_t retry_cnt;            /* timeouts before a QP fails */
	uint32_t sr_window_pkts;      /* selective-repeat window */
	bool bdp_fc;                  /* selective repeat: at most a BDP in flight */
	uint8_t cnp_dscp;             /* DSCP of CNPs */
	uint64_t cnp_interval_ps;     /* at most one CNP per QP per this */
	/* engine */
	uint32_t pool_pkts;           /* mbufs in the packet pool */
	/* traffic */
	struct tg_msg *msgs;          /* expanded messages */
	uint32_t n_msgs;
	struct exp_workload *workloads; /* per workload index */
	uint32_t n_workloads;
	/* capture */
	struct exp_capture *captures; /* ports to capture */
	uint32_t n_captures;
	uint32_t snaplen;             /* capture bytes per frame, 0 = all */
	/* outputs */
	bool flows_csv;               /* write flows.csv */
	struct exp_capture *series;   /* ports sampled into series.csv */
	uint32_t n_series;
	uint64_t series_interval_ps;  /* sampling interval */
	/* expect */
	struct exp_expect *expects;
	uint32_t n_expects;
};

/* Load @path, apply @n_sets overrides ("a.b=v"), override the seed when
 * @seed_set. Returns 0 or -EINVAL with "FILE:LINE:COL: ..." in @err. */
int exp_load(const char *path, const char *const *sets, unsigned n_sets, bool seed_set,
	     uint64_t seed, struct exp **out, char err[CFG_ERR_BYTES]);
/* Same from a string (tests, built-in benchmarks). */
int exp_load_string(const char *name, const char *text, const char *const *sets,
		    unsigned n_sets, struct exp **out, char err[CFG_ERR_BYTES]);
void exp_free(struct exp *e); /* NULL is fine */

/* The schema: every key the loader accepts, as "section.key" strings,
 * NULL-terminated (for the documentation check). */
const char *const *exp_schema_keys(void);

const char *exp_op_name(enum exp_op op);

#endif
