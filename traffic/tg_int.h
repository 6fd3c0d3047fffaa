/* Traffic, private: the running state of the messages and of their
 * dependency graph, shared by posting and completions (tg.c) and the
 * graph's scheduler (tg_graph.c). Not part of the public API. */
#ifndef FAB_TG_INT_H
#define FAB_TG_INT_H

#include <infiniband/verbs.h>

#include "sim.h"
#include "tg.h"

enum { TG_NO_OP = UINT32_MAX /* a message no operation names */ };

/* One message in flight: what its post event needs. */
struct tg_slot {
	struct tg *t;         /* owner */
	uint32_t qp;          /* its connection's first sending QP in t->qps */
	uint32_t idx;         /* flow index = wr_id */
};

/* The messages a sending QP of the graph has posted, in order: the k-th
 * message its peer receives is posted[k - 1] (a receive completion's MSN). */
struct tg_qpx {
	uint32_t *posted;     /* message indices (malloc'd) */
	uint32_t n;           /* posted so far */
	uint32_t cap;         /* allocated */
};

/* A completion or post event of an operation: what the event needs. */
struct tg_opev {
	struct tg *t;         /* owner */
	uint32_t op;          /* the operation */
};

/* Where a data-carrying message's bytes are (tg_data.c): its SGE and
 * RETH. */
struct tg_mem {
	uint64_t laddr;       /* the sender's bytes */
	uint64_t raddr;       /* where they land at the receiver */
	uint32_t lkey;        /* region of laddr on the sending NIC */
	uint32_t rkey;        /* region of raddr on the receiving NIC */
};

struct tg_data;

/* A collective instance while it runs. */
struct tg_coll_rt {
	uint64_t start_ps;    /* its first operation's start, UINT64_MAX before */
	uint64_t end_ps;      /* its last completion so far */
	uint32_t left;        /* operations not completed */
};

struct tg {
	struct sim *sim;         /* owning simulation */
	struct nic **nics;       /* the NICs (borrowed) */
	const struct tg_ep *eps; /* where each endpoint is (borrowed) */
	struct ev_src src;       /* event identity of message posts */
	struct ev_src *psrc;     /* in a parallel run: that identity per partition (par.h),
				  * else NULL */
	uint32_t n_flows;        /* messages */
	uint32_t n_done;         /* completed successfully */
	uint32_t n_failed;       /* completed in error */
	struct tg_flow *flows;   /* records */
	struct tg_slot *slots;   /* per message */
	uint8_t *parts_left;     /* per message: parts not completed yet (msg.qps of them,
				  * or fewer for a message shorter than that) */
	struct nic_qp **qps;     /* sending QPs, a connection's msg.qps of them in a row */
	struct nic_qp **rqps;    /* the receiving QP of each */
	uint32_t n_qps;          /* their count */
	/* The graph (tg_graph.c); all NULL or 0 without one. */
	struct tg_node *ops;       /* its operations (a copy) */
	uint32_t n_ops;          /* their count */
	uint32_t n_ops_done;     /* completed */
	uint32_t *succ_off;      /* n_ops + 1: the operations waiting for op i are */
	uint32_t *succ;          /* succ[succ_off[i] .. succ_off[i + 1]) */
	uint32_t *left;          /* per operation: what it still waits for */
	uint64_t *op_start;      /* per operation: when it started (UINT64_MAX: not yet) */
	uint64_t *op_end;        /* per operation: when it completed (UINT64_MAX: not yet) */
	uint32_t *op_of_msg;     /* per message: its operation, or TG_NO_OP */
	uint8_t *rparts_left;    /* per message: parts not received yet */
	struct tg_qpx *qpx;      /* per sending QP (n_qps) */
	struct tg_opev *opev;    /* per operation: its event's argument */
	struct tg_coll_rt *colls; /* per collective instance */
	uint32_t n_colls;        /* their count */
	struct ev_src op_src;    /* event identity of compute phases */
	/* Data-carrying collectives (tg_data.c); NULL without. */
	struct tg_data *data;    /* their regions, plan and results */
	struct tg_mem *mem;      /* per message: its addresses and keys (NULL: none) */
};

/* tg.c */
/* Post message slot @obj's parts (an event handler). */
void tg_post(struct sim *sim, void *obj);
/* The parts a message of @bytes is split into over @qps QPs: one each,
 * and none empty (a 0-byte message is one part). */
uint32_t tg_n_parts(uint64_t bytes, uint32_t qps);
void tg_fail(struct tg *t, struct tg_flow *f, uint64_t now_ps);

/* tg_graph.c */
/* Take @g: copy its operations, build the successor lists and the
 * per-message state, give every graph connection's receiving QP its
 * sending QP's post list. 0, or -errno with @err. */
int tg_graph_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES]);
/* Start what waits for nothing (after the ungraphed posts are scheduled). */
void tg_graph_start(struct tg *t);
/* Message @msg is posted on sending QP @qp (a part of it): record it. 0 or
 * -ENOMEM. */
int tg_graph_posted(struct tg *t, uint32_t qp, uint32_t msg);
/* A receive completion @wc on @n: a part of a SEND has arrived. */
void tg_graph_received(struct tg *t, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps);
/* Message @msg (a WRITE or READ) completed at its sender. */
void tg_graph_sent(struct tg *t, uint32_t msg, uint64_t now_ps);
void tg_graph_fini(struct tg *t);

/* tg_data.c */
/* Take the data plan of @g (copied): which messages carry data, before
 * the QPs are made (theirs model memory). 0 or -errno, with @err. */
int tg_data_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES]);
/* After the QPs: give every rank a region, register it on the NICs its
 * transfers use, fill t->mem and start the first instance of each set.
 * 0 or -errno with @err. */
int tg_data_start(struct tg *t, char err[CFG_ERR_BYTES]);
/* Message @msg carries data (for the QP flags). */
bool tg_data_msg(const struct tg *t, uint32_t msg);
/* Every part of data-carrying message @msg has arrived: apply it. */
void tg_data_arrived(struct tg *t, uint32_t msg);
/* Collective instance @coll of the graph completed: compare its result,
 * then set up the next instance of its regions. */
void tg_data_coll_done(struct tg *t, uint32_t coll);
void tg_data_fini(struct tg *t);

#endif
