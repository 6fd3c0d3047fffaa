/* Workload kinds: the registry of what a `traffic:` entry may be
 * (messages, permutation, incast, ...: one file each, kept in a core/reg
 * registry), each with its key tables and an expander that turns the
 * entry into messages. The expanders
 * resolve host names against the topology through a small context. */
#ifndef FAB_TG_WL_H
#define FAB_TG_WL_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "reg.h"
#include "tg.h"

struct cfg_table;
struct cc_ops;
struct topo;

enum {
	/* Workloads one experiment may list: a message, collective and step
	 * carry their workload's index in 16 bits (struct tg_msg is on the
	 * hot path, so it stays narrow). */
	TG_WL_MAX_WORKLOADS = UINT16_MAX + 1,
};

/* outputs.flows_csv auto writes flows.csv for runs of at most this many
 * messages (run/exp.h's EXP_FLOWS_CSV_AUTO_MSGS, the same): a collective
 * of more streams its messages where auto is kept (tg_wl_coll.c). */
#define TG_WL_STREAM_AUTO_MSGS 100000

/* What a workload will add to the experiment, worked out from its keys
 * before anything is made (tg_wl_admit): every count exact or an upper
 * bound, never below what the expansion makes (the loader checks that
 * after each expansion, in debug builds; the estimate tests on sample
 * parameters). Counts saturate at UINT64_MAX. */
struct tg_wl_est {
	uint64_t msgs;            /* messages (GPU messages once placed on NIC ports) */
	uint64_t conns;           /* connections (of qps QP pairs each): per-message
				   * QPs, one a message */
	uint64_t ops;             /* operations of the dependency graph */
	uint64_t deps;            /* its dependency edges */
	uint64_t colls;           /* collective instances */
	uint64_t steps;           /* training steps */
	uint64_t data_xfers;      /* data-carrying transfers (the data plan) */
	uint64_t qp_pairs;        /* QP pairs: conns x the workload's qps (tg_wl_admit sets it) */
	const char *lower;        /* what to lower for fewer, for a refusal ("iterations,
				   * ranks or chunks") */
};

/* The loader's judgement of an estimate (tg_wl_ctx.admit): 0, or -EINVAL
 * with @err filled at @at (the workload) to refuse the workload before
 * it is made. */
typedef int (*tg_wl_admit_fn)(void *arg, const struct cfg_node *at, const char *kind,
			      const struct tg_wl_est *est, char err[CFG_ERR_BYTES]);

/* What an expander needs from the experiment. */
struct tg_wl_ctx {
	struct cfg_doc *doc;      /* the experiment: absent keys get their defaults filled in */
	const struct topo *topo;  /* host names */
	uint8_t dscp;             /* DSCP of data when the workload names none (nic.dscp) */
	bool payload;             /* NICs materialise payload (nic.payload) */
	bool go_back_n;           /* NICs recover by go-back-N (nic.recovery) */
	uint64_t seed;            /* experiment seed */
	uint16_t index;           /* the workload's position in traffic:, from 0 */
	const struct cc_ops *cc;  /* the workload's congestion control (its cc key); NULL:
				   * nic.cc */
	uint8_t qp_mode;          /* enum tg_qp_mode of its messages (its qp key) */
	uint8_t qps;              /* QP pairs per connection (its qps key) */
	struct tg_msg **msgs;     /* messages, appended to (realloc'd) */
	uint32_t *n_msgs;         /* their count */
	size_t msgs_cap;          /* entries allocated in *msgs: at least *n_msgs (set
				   * to it when the workload starts); kept by
				   * tg_wl_msgs_room, which a workload that uses it must
				   * use for all its growth (tg_pattern's kinds grow
				   * exactly, in contexts of their own) */
	struct tg_graph *graph;   /* the experiment's dependency graph, appended to */
	struct tg_coll **colls;   /* collective instances, appended to (realloc'd) */
	uint32_t *n_colls;        /* their count (= graph->n_colls) */
	struct tg_step **steps;   /* training steps, appended to (realloc'd) */
	uint32_t *n_steps;        /* their count */
	uint32_t **gpu_order;     /* per GPU node of the topology, a key: partitions take
				   * them in the order of their keys, ties by number
				   * (run/fabric_par.c); set by a workload that knows a
				   * better order than the numbers' (a pipeline's
				   * replicas); NULL: none */
	bool *gpu_order_clash;    /* two workloads each set one: the numbers' order */
	tg_wl_admit_fn admit;     /* told the workload's estimate; NULL: nothing checked */
	void *admit_arg;          /* its argument */
	struct tg_wl_est est;     /* the estimate the workload was admitted with */
	bool admitted;            /* tg_wl_admit was called (every kind calls it once) */
};

/* A workload kind: one file (traffic/tg_wl_*.c) defining one of these,
 * plus one line in tg_wl.c's built-in list (or tg_wl_register). */
struct tg_wl_kind {
	/* name (the value of traffic.kind), a line of doc, the kind's own key
	 * table and the size of the struct its expand reads that table into
	 * (NULL and 0 when its own keys fill nothing) */
	struct reg_kind kind;
	/* Every table whose keys appear in its entries, NULL-terminated (the
	 * reference lists them as traffic.<key>). */
	const struct cfg_table *const *tables;
	/* Read the workload map @it (kind already checked) and append its
	 * messages. 0, -EINVAL with @err filled, or -ENOMEM. */
	int (*expand)(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES]);
};

/* Whether a workload of @msgs messages in all, in @c, may stream its
 * collectives (tg.h, struct tg_stream): one QP set per connection, no
 * rates.csv flow series, and flows.csv not wanted of it (outputs.flows_csv
 * false, or auto with more than TG_WL_STREAM_AUTO_MSGS messages). Whether
 * its algorithms stream is the caller's to say. */
bool tg_wl_streams(const struct tg_wl_ctx *c, uint64_t msgs);
/* Every kind calls this once its keys are read, before it makes
 * anything: @est (its messages between participants, GPUs not yet
 * placed: multiplied here by the most NIC ports a GPU message is split
 * over when @gpus) is kept in c->est and handed to c->admit. 0, or what
 * admit returns (-EINVAL with @err filled at @it). */
int tg_wl_admit(struct tg_wl_ctx *c, const struct cfg_node *it, const char *kind,
		struct tg_wl_est *est, bool gpus, char err[CFG_ERR_BYTES]);
/* Room for @more messages past *c->n_msgs in *c->msgs, the allocation
 * doubled when it grows (appending one message at a time stays linear,
 * also where realloc always copies, as under AddressSanitizer).
 * 0 or -ENOMEM. */
int tg_wl_msgs_room(struct tg_wl_ctx *c, size_t more);
/* The qp and qps keys of workload map @it (absent: per-connection, 1)
 * into c->qp_mode and c->qps.
 * 0, or -EINVAL with @err filled. */
int tg_wl_qp_mode(const struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES]);
/* Put the messages @first.. of *@msgs that name GPUs (participants past
 * the endpoints, tg_wl_int.h) on endpoints: a pair of GPUs of one NVLink
 * domain (equal @islands of their NVLink endpoints, topo_ep_islands) on
 * those; otherwise each GPU on its own NIC, the message split evenly over
 * the NIC ports that share a plane with the other side (port p with port
 * p when both have several), one message each (a message of fewer bytes
 * than that on fewer). Messages between endpoints stay. 0 or -ENOMEM. */
int tg_wl_place(const struct topo *t, const uint32_t *islands, struct tg_msg **msgs,
		uint32_t *n_msgs, uint32_t first);
/* Register workload kind @k after the built-in ones (at program start,
 * before experiments load): 0, or -EINVAL / -ENOSPC with @err filled (its
 * name empty or taken, no tables or no expand). */
int tg_wl_register(const struct tg_wl_kind *k, char err[CFG_ERR_BYTES]);
/* Kind by name, NULL if unknown. */
const struct tg_wl_kind *tg_wl_find(const char *name);
/* NULL-terminated names of the registered kinds, in registry order. */
const char *const *tg_wl_names(void);
/* Kind @i of the registry, NULL past the last. */
const struct tg_wl_kind *tg_wl_kind_at(unsigned i);

#endif
