/* Traffic: workloads expanded at set-up into a list of RDMA messages
 * (explicit point-to-point messages, a random permutation, an N-to-1
 * incast), posted on RC QPs at their start times, and the per-message
 * records (FCT, ideal FCT, slowdown) that results are made of. */
#ifndef FAB_TG_H
#define FAB_TG_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"
#include "rng.h"
#include "tg_nccl.h"

struct sim;
struct nic;
struct nic_qp;
struct cc_ops;

enum tg_op {
	TG_OP_WRITE, /* RDMA WRITE */
	TG_OP_SEND,  /* SEND */
	TG_OP_READ,  /* RDMA READ: src reads bytes from dst; completes at src */
	TG_OP_WRITE_IMM, /* RDMA WRITE with immediate: the receiver gets a completion
			  * (the immediate is the message's index) */
};

/* A message of @op completes for what depends on it when its data has
 * arrived (the receiver's completion: SEND, WRITE with immediate), not
 * when its sender's request completes (WRITE, READ). */
static inline bool tg_op_on_arrival(uint8_t op)
{
	return op == TG_OP_SEND || op == TG_OP_WRITE_IMM;
}

/* Outcome of a message. */
enum tg_status {
	TG_PENDING, /* not completed yet */
	TG_DONE,    /* completed successfully */
	TG_FAILED,  /* completed in error (its QP ran out of retries) */
	TG_REMOTE,  /* sent by a live host (fabemu live): its sender, and so its
		     * completion, is in another program; not counted here */
};

/* Which messages share a QP (a workload's qp key). */
enum tg_qp_mode {
	TG_QP_PER_CONNECTION, /* one RC QP per (workload, src, dst, DSCP): its messages
			       * queue behind each other */
	TG_QP_PER_MESSAGE,    /* a QP of its own for every message (a flow in the
			       * FCT literature) */
};

enum {
	TG_MAX_HOPS = 16,  /* links of a path */
	TG_MAX_QPS = 128,  /* QPs per connection (NCCL_IB_QPS_PER_CONNECTION's range) */
	TG_QPS_CHUNK = 1024, /* sending QPs are kept in an array grown this much at a time */
	TG_CHAN_PXN = 0xFFFF, /* the connection tag of PXN's NVLink hops (the NCCL model's
			       * all-to-all, tg_coll_direct.c): a rank's bytes on their way to
			       * the NIC of another GPU, not bytes it sends a peer */
	TG_CHAN_INNET = 0xFE00, /* the connection tag of channel c of an in-network all-reduce
				 * (tg_coll_innet.c): TG_CHAN_INNET + c (c < 256); the only
				 * messages whose source is their destination */
};

/* One message to send. */
struct tg_msg {
	uint32_t src;        /* source endpoint (a NIC port, topologies/topo.h) */
	uint32_t dst;        /* destination endpoint */
	uint64_t bytes;      /* message length */
	uint64_t start_ps;   /* when it is posted */
	uint8_t op;          /* enum tg_op */
	uint8_t dscp;        /* DSCP of its data packets */
	uint16_t workload;   /* index of the workload that made it */
	uint8_t qp_mode;     /* enum tg_qp_mode */
	uint8_t qps;         /* QP pairs of its connection, 1..TG_MAX_QPS: the message is
			      * split into that many parts, one on each, and completes
			      * when every part has */
	uint16_t chan;       /* connection tag: messages of one workload between the same
			      * endpoints with another tag (a collective's channel) get
			      * connections of their own */
	uint32_t comm;       /* communicator: messages of different communicators never
			      * share a connection (a training job's groups; 0 elsewhere) */
	const struct cc_ops *cc; /* congestion control of its QP (its workload's cc key);
			      * NULL: the NIC's (nic.cc) */
};

/* Completion record of one message. */
struct tg_flow {
	struct tg_msg msg;   /* what was sent */
	uint64_t end_ps;     /* completion at the source (ACK of the last byte, last READ
			      * response) or failure */
	uint64_t ideal_ps;   /* completion time alone on an idle fabric */
	bool done;           /* completed successfully (status == TG_DONE) */
	uint8_t status;      /* enum tg_status */
};

/* The links a message crosses, source NIC first. */
struct tg_path {
	uint32_t n_hops;                   /* links */
	uint64_t rate_bps[TG_MAX_HOPS];    /* per link */
	uint64_t delay_ps[TG_MAX_HOPS];    /* per link */
};

/* Where a message between two endpoints goes, for its ideal FCT and the
 * base RTT its congestion control is told. Returns 0 or -errno. */
typedef int (*tg_path_fn)(void *arg, uint32_t src, uint32_t dst, struct tg_path *out);

/* Frame sizes the ideal-FCT model needs (they depend on the NIC framing). */
struct tg_framing {
	uint32_t mtu_bytes;    /* payload per packet */
	bool vlan;             /* frames carry an 802.1Q tag */
	const struct pkt_ll *ll; /* link layer; NULL: pkt_ll_roce */
	bool ib_grh;           /* IB packets carry a GRH */
};

/* Message patterns. Each appends to *msgs (realloc'd; *n updated) and
 * returns 0 or -ENOMEM / -EINVAL. */
/* Every endpoint in @hosts sends @bytes to a distinct other one of the set
 * (a uniformly random derangement drawn from @rng). */
int tg_permutation(struct rng *rng, const uint32_t *hosts, uint32_t n_hosts,
		   const struct tg_msg *proto, struct tg_msg **msgs, uint32_t *n);
/* Endpoint i of @hosts sends to endpoint (i + @stride) mod @n_hosts,
 * 0 < @stride < @n_hosts (Stride, Al-Fares et al., SIGCOMM 2008). */
int tg_stride(const uint32_t *hosts, uint32_t n_hosts, uint32_t stride, const struct tg_msg *proto,
	      struct tg_msg **msgs, uint32_t *n);
/* Every endpoint in @srcs sends @bytes to proto->dst. */
int tg_incast(const uint32_t *srcs, uint32_t n_srcs, const struct tg_msg *proto,
	      struct tg_msg **msgs, uint32_t *n);

/* Ideal completion of a message of @bytes over @path: store-and-forward of
 * every frame at each link's rate, propagation, and the ACK's way back. */
uint64_t tg_ideal_fct_ps(const struct tg_path *path, uint64_t bytes, uint8_t op,
			 const struct tg_framing *fr);

/* Dependencies: a workload as a graph of operations (tg_graph.c). An
 * operation starts when every operation it depends on has completed,
 * and not before its own start time: a transfer (a message) is posted
 * then, a compute phase runs for its duration. A transfer completes, for
 * what depends on it, when its data has arrived (the receive completion
 * of a SEND or a WRITE with immediate, every part of it) or, for a WRITE
 * or READ, when the sender's work request completes. Messages that no operation names are posted at
 * their start time, as before. */
enum tg_node_kind {
	TG_NODE_XFER,     /* a message */
	TG_NODE_COMPUTE,  /* a duration, on a participant (a GPU) */
	TG_NODE_STREAM,   /* a streamed collective instance (msg: its index in the
			   * graph's streams): it starts its first transfers, makes
			   * each next one when the one it waits for has arrived,
			   * and completes when the last has */
};

enum { TG_NO_COLL = UINT32_MAX /* an operation of no collective */ };

struct tg_node {
	uint8_t kind;        /* enum tg_node_kind */
	uint32_t msg;        /* transfer: its message (an index of the message list) */
	uint32_t part;       /* compute: the participant it runs on, for reports */
	uint64_t dur_ps;     /* compute: how long it runs; transfer: how long after it may
			      * start it is posted (the NCCL model's latencies; else 0) */
	uint64_t start_ps;   /* not before this (a transfer's: its message's start) */
	uint32_t dep_off;    /* what it waits for: deps[dep_off .. dep_off + n_deps) of
			      * its graph, operations added before it */
	uint32_t n_deps;     /* their count */
	uint32_t coll;       /* the collective instance it belongs to, or TG_NO_COLL */
	uint8_t tag;         /* what it is for, in reports (enum tg_tag) */
};

/* What a node is for, for the share of a step each part takes. */
enum tg_tag {
	TG_TAG_NONE,         /* not reported */
	TG_TAG_COMPUTE,      /* a compute phase */
	TG_TAG_TP,           /* tensor-parallel communication */
	TG_TAG_PP,           /* pipeline-parallel sends */
	TG_TAG_DP,           /* data-parallel gradient reduction (or FSDP's) */
	TG_TAG_EP,           /* expert-parallel all-to-all */
	TG_TAG_N,
};

/* Data-carrying collectives (a collective's `data` key; tg_data.c runs
 * them). Each rank of an instance has a region of float32 elements, its
 * buffer then a receive area, registered on the NICs it uses; each
 * transfer is an RDMA WRITE with immediate of a range of the sender's
 * region into the receiver's, which the receiver applies when it has
 * arrived (its receive completion); at the instance's end every rank's
 * buffer is compared element by element with the exact result
 * (tg_coll_data). */
enum tg_data_act {
	TG_DATA_PLACE, /* a copy step: the bytes land where they belong */
	TG_DATA_ADD,   /* a reduce step: they land in the receive area and are
			* added element-wise into the buffer on arrival */
};

/* What one data-carrying transfer moves. Offsets are bytes of a rank's
 * region (its buffer first). */
struct tg_data_xfer {
	uint32_t msg;        /* its message (an index of the message list) */
	uint32_t coll;       /* its instance (an index of the plan's colls) */
	uint32_t src_rank;   /* sender, a rank of the instance */
	uint32_t dst_rank;   /* receiver */
	uint64_t src_off;    /* the bytes come from the sender's region here */
	uint64_t dst_off;    /* and land in the receiver's region here */
	uint64_t apply_off;  /* TG_DATA_ADD: where in the receiver's buffer they are added */
	uint8_t act;         /* enum tg_data_act */
};

/* A range of a rank's buffer the result is defined on: what it holds
 * reduced at the end (reduce-scatter), or holds at the start
 * (all-gather). */
struct tg_data_range {
	uint32_t rank;       /* its owner */
	uint64_t off;        /* bytes from the buffer's start */
	uint64_t bytes;      /* its length */
};

/* A data-carrying instance: how its buffers start and what they must hold
 * at its end. */
struct tg_data_coll {
	uint32_t coll;       /* the graph's collective instance */
	uint32_t set;        /* the regions it uses (the plan's sets) */
	uint8_t kind;        /* enum tg_coll_kind */
	uint32_t n_ranks;    /* ranks */
	uint32_t root;       /* broadcast: the root's rank */
	uint64_t bytes;      /* S: a rank's buffer (all-to-all: its send buffer, its
			      * receive buffer following) */
	uint64_t pair_bytes; /* all-to-all: the block one rank sends another */
	uint32_t range_off;  /* its ranges: the plan's ranges[range_off .. + n_ranges) */
	uint32_t n_ranges;   /* their count (reduce-scatter, all-gather) */
};

/* The regions of one data-carrying workload's ranks, which its instances
 * (one at a time) share. */
struct tg_data_set {
	uint32_t n_ranks;     /* ranks */
	uint64_t region_bytes; /* per rank: the largest instance's buffer and receive area */
};

/* Everything the data-carrying collectives of a graph need (empty
 * without). Each array grows by the tg_data_add_* calls. */
struct tg_data_plan {
	struct tg_data_xfer *xfers;   /* per data-carrying transfer */
	uint32_t n_xfers;             /* their count */
	uint32_t cap_xfers;           /* allocated */
	struct tg_data_coll *colls;   /* per data-carrying instance */
	uint32_t n_colls;             /* their count */
	uint32_t cap_colls;           /* allocated */
	struct tg_data_range *ranges; /* the instances' ranges */
	uint32_t n_ranges;            /* their count */
	uint32_t cap_ranges;          /* allocated */
	struct tg_data_set *sets;     /* per data-carrying workload */
	uint32_t n_sets;              /* their count */
	uint32_t cap_sets;            /* allocated */
};

/* Append one entry to @p's array of that kind (a copy of @x); its index
 * into *@id when @id is not NULL. 0 or -ENOMEM. */
int tg_data_add_xfer(struct tg_data_plan *p, const struct tg_data_xfer *x);
int tg_data_add_coll(struct tg_data_plan *p, const struct tg_data_coll *x, uint32_t *id);
int tg_data_add_range(struct tg_data_plan *p, const struct tg_data_range *x);
int tg_data_add_set(struct tg_data_plan *p, const struct tg_data_set *x, uint32_t *id);

/* How a streamed instance makes its messages (tg_stream_alg.c), after
 * the listed algorithm of the same name (tg_coll_*.c). */
enum tg_stream_alg {
	TG_SALG_RING, /* a ring per channel (tg_coll_ring.c) */
	TG_SALG_HIER, /* per channel a ring in each node, rings across the nodes,
		       * a ring in each node (tg_coll_hier.c) */
	TG_SALG_TREE, /* per channel a tree, up and back down (tg_coll_tree.c) */
	TG_SALG_HD,   /* halving-doubling (tg_coll_hd.c) */
	TG_SALG_DIRECT, /* all-to-all, every pair at once (tg_coll_direct.c) */
};

/* A collective instance (an all-reduce, reduce-scatter, all-gather or
 * all-to-all without data or compute phases) streamed: its messages are made as they
 * become ready instead of listed before the run (tg_stream.c), in the
 * same order and at the same times as the listed ones would be posted.
 * What its algorithm makes (tg_stream_alg.c): a ring's position p sends
 * at step t chunk (p - t) mod n of the channel's part (all-reduce: n - 1
 * reduce-scatter steps, then n - 1 all-gather steps sending chunk (p + 1
 * - t') mod n), a message per slice, each slice waiting for the same
 * slice of what p received at step t - 1 (tg_coll_algo.c's tg_ring); the
 * other algorithms as their files say. The edges are the connections its
 * messages use, each a (sender, receiver, tag) of its own. */
struct tg_stream {
	struct tg_msg proto;   /* what its messages share (op, DSCP, workload, QPs, cc,
				* start; src, dst, bytes and chan are per message) */
	uint32_t op;           /* its graph node (TG_NODE_STREAM) */
	uint8_t alg;           /* enum tg_stream_alg */
	bool ar;               /* ring: all-reduce (chunks turn at step n - 1) */
	uint32_t n;            /* ranks */
	uint32_t channels;     /* rings, trees (data parts) */
	uint32_t steps;        /* ring: steps of each ring, n - 1 (all-reduce 2(n - 1));
				* halving-doubling: 2 log2 n */
	uint32_t g;            /* hierarchical: ranks per node */
	bool pxn;              /* direct: edges n(n-1).. carry on what arrives over the
				* edge n(n-1) before them (PXN's second hop; ep
				* UINT32_MAX: none) */
	uint64_t size;         /* S, bytes */
	uint64_t slice_bytes;  /* the most one message carries */
	uint64_t *part;        /* per channel: its bytes; all-to-all: per rank r, what
				* every other rank sends it (malloc'd) */
	uint32_t n_edges;      /* edges */
	uint32_t *ep;          /* per edge e: ep[2e] sends, ep[2e + 1] receives; both
				* UINT32_MAX for an edge no message takes (malloc'd) */
	uint16_t *echan;       /* per edge: its connection tag (malloc'd) */
	uint64_t *ebytes;      /* per edge: the bytes of its messages in all (malloc'd) */
	uint32_t *erank;       /* per edge: its sending rank (malloc'd) */
	uint32_t *cgate;       /* with compute phases: per rank, its compute node, which
				* every send of the rank waits for (malloc'd); else NULL */
	uint32_t *tree;        /* tree: per channel c, from 6 n c on: each rank's parent
				* (n; UINT32_MAX: the root), children (3 n, UINT32_MAX:
				* none), the ranks in pre-order (n), each rank's place in
				* that order (n) (malloc'd); else NULL */
	struct tg_nccl_plan nccl; /* the NCCL model's plan (tg_nccl.h; proto TG_NCCL_IDEAL:
				* off): hop latencies and wire bytes of its messages */
	uint8_t *envl;         /* with the NCCL model: per edge, 1 when it is over NVLink
				* (malloc'd); else NULL */
	uint64_t *ehop_ps;     /* with the NCCL model: per edge, how long after it is ready
				* a message is posted (tg_cb_hop_ps) (malloc'd); else NULL */
	uint32_t wrs;          /* the first ring size of its connections' QPs (work
				* requests; the NIC grows them); 0: TG_STREAM_QP_WRS */
	uint64_t msgs;         /* messages it makes in all */
	uint64_t bytes;        /* their bytes */
};

/* Call @fn(@arg, bytes, times) for the messages of @s: @times of them of
 * @bytes each on the wire (under the NCCL model its protocol's lines,
 * over NVLink at its efficiency, tg_nccl_wire, as the listed messages
 * have them; else their bytes), all of them in all calls
 * (tg_stream_alg.c). */
void tg_stream_each(const struct tg_stream *s, void (*fn)(void *arg, uint64_t bytes, uint64_t times),
		    void *arg);
/* Bytes of part @i of @total split into @n (the first total % n one byte
 * more). */
uint64_t tg_stream_part(uint64_t total, uint64_t n, uint64_t i);
/* Slices of @bytes of @s: at least one, none over its slice_bytes. */
uint32_t tg_stream_slices(const struct tg_stream *s, uint64_t bytes);
/* Free @s's arrays and leave it empty (tg_stream.c): a stream not added
 * to a graph, or the graph's own when it goes. */
void tg_stream_drop(struct tg_stream *s);
struct tg_graph;
/* Packets (a frame per @mtu bytes, at least one, and an ACK) of every
 * message of @g's streams, for the packet pool's sizing (what the listed
 * messages would give). */
double tg_graph_stream_pkts(const struct tg_graph *g, uint32_t mtu);
/* Messages of @g's streams in all. */
uint64_t tg_graph_stream_msgs(const struct tg_graph *g);
/* The memory the records of @g's streamed messages take once all have
 * completed (summary.json's per-message statistics keep each one's FCT,
 * ideal FCT and length): what a run to completion adds to the in-flight
 * state, in bytes. */
uint64_t tg_graph_stream_done_bytes(const struct tg_graph *g);
/* Whether @g may run in partitions (par.h) at all: it carries no data. */
bool tg_graph_parallel(const struct tg_graph *g);
/* Where an operation of a graph in partitions acts or ends, besides a
 * partition's number (tg_graph_par_plan). */
enum {
	TG_PART_SPECIAL = 0xFFFC, /* below: a partition */
	TG_PART_LEAD = 0xFFFD,    /* ends at a window's end (a join that waits for
				   * several partitions), its successors with it */
	TG_PART_ROOT = 0xFFFE,    /* ends in an event of the root (alone) */
	TG_PART_ANY = 0xFFFF,     /* acts in more than one partition */
};
/* How @g runs in partitions (tg_graph_par.c), @ep_part the partition of
 * each endpoint of its messages (@n_msgs of them, each a struct tg_msg
 * @stride bytes after the one before, from @msgs) and of its streams'
 * edges, @la_ps the lookahead: where each operation acts (@home) and where
 * its end is counted (@comp), n_ops each. NULL, or why it cannot: what
 * waits for operations of other partitions, or for joins of several,
 * must be a compute phase longer than the lookahead, a join, or a
 * streamed collective whose ranks first wait for such a compute phase. */
const char *tg_graph_par_plan(const struct tg_graph *g, const void *msgs, uint32_t n_msgs, size_t stride,
			      const uint16_t *ep_part, uint64_t la_ps, uint16_t *home, uint16_t *comp);

/* A graph being built (zero-initialised; tg_graph_free). */
/* An in-network reduction group (tg_coll_innet.c): one connection per
 * member from its endpoint to itself, which the switches of a tree over
 * the members reduce (switch/sw.h, sw_agg_add; run/fabric_agg.c lays the
 * tree). The instances of one workload's channel share it. */
struct tg_agg {
	uint16_t workload;   /* the workload that made it */
	uint16_t chan;       /* its members' connection tag */
	uint32_t comm;       /* and communicator */
	uint32_t n;          /* members */
	uint8_t dscp;        /* DSCP of their data (the tree's class must be lossless) */
	bool data;           /* the payload is summed (data: true; RoCE only) */
	uint32_t *ep;        /* per member: its endpoint */
	uint32_t *msg;       /* per member: a message on its connection (to find its QPs) */
	const struct cfg_node *at; /* the workload's algorithm key (the experiment's
			      * document), for a refusal of the tree */
};

struct tg_graph {
	struct tg_node *ops;   /* operations, in an order where each follows what it waits for */
	uint32_t n_ops;      /* their count */
	uint32_t cap_ops;    /* allocated */
	uint32_t *deps;      /* predecessor lists, concatenated */
	uint32_t n_deps;     /* their length */
	uint32_t cap_deps;   /* allocated */
	uint32_t n_colls;    /* collective instances numbered so far */
	struct tg_data_plan data; /* data-carrying collectives (empty without) */
	struct tg_stream *streams; /* streamed instances (their arrays malloc'd) */
	uint32_t n_streams;  /* their count */
	uint32_t cap_streams; /* allocated */
	struct tg_agg *aggs; /* in-network reduction groups (malloc'd, with their arrays) */
	uint32_t n_aggs;     /* their count */
};

/* Append stream @s (taken: its arrays are the graph's now; its msgs and
 * bytes counted here) and its node,
 * waiting for @gate (TG_NO_GATE_OP: nothing), collective instance @coll;
 * the node's index into *@id. 0 or -ENOMEM (then @s's arrays are freed). */
enum { TG_NO_GATE_OP = UINT32_MAX };
int tg_graph_add_stream(struct tg_graph *g, struct tg_stream *s, uint32_t gate, uint32_t coll,
			uint32_t *id);
/* Free @g's streams and their arrays (tg_graph_free). */
void tg_graph_free_streams(struct tg_graph *g);

/* Add operation @op (its dep_off and n_deps are set here) waiting for the
 * @n_deps operations @deps, each already in @g; its index into *@id.
 * Returns 0, -EINVAL (a dependency not in the graph yet) or -ENOMEM. */
int tg_graph_add(struct tg_graph *g, const struct tg_node *op, const uint32_t *deps, uint32_t n_deps,
		 uint32_t *id);
/* A zero-length node waiting for every node from @first on (the end of
 * what was added since): its index into *@id. 0 or -ENOMEM. */
int tg_graph_join(struct tg_graph *g, uint32_t first, uint32_t *id);
void tg_graph_free(struct tg_graph *g);

/* Collectives (traffic/tg_wl_coll.c): what nccl-tests measures. */
enum tg_coll_kind {
	TG_COLL_ALL_REDUCE,
	TG_COLL_ALL_GATHER,
	TG_COLL_REDUCE_SCATTER,
	TG_COLL_BROADCAST,
	TG_COLL_ALL_TO_ALL,
	TG_COLL_N,
};

/* Collective algorithms (ring, hierarchical, halving-doubling, direct,
 * tree, ...) are a registry (traffic/tg_coll_reg.c, one file each); an
 * instance names its algorithm by its position there. */

/* One collective instance (of a workload; one per size and iteration). */
struct tg_coll {
	uint16_t workload;   /* the workload that made it */
	uint8_t kind;        /* enum tg_coll_kind */
	uint8_t alg;         /* its algorithm: the position in the registry
			      * (tg_coll_alg_names()[alg]) */
	uint32_t n_ranks;    /* ranks taking part */
	uint64_t bytes;      /* the size S nccl-tests reports (all-reduce, broadcast: the
			      * buffer; all-gather, reduce-scatter: the whole result, n x a
			      * rank's part; all-to-all: what each rank sends in all) */
	uint32_t iter;       /* iteration at this size, from 0 */
	uint8_t proto;       /* the NCCL model's protocol (enum tg_nccl_proto;
			      * TG_NCCL_IDEAL: the model is off) */
	double predicted_us; /* with the model: NCCL's own estimate of its time */
	uint32_t nvl_eff_ppm; /* with the model: NVLink's efficiency (its transfers carry
			      * their bytes x 10^6 / this); else 0 */
	uint32_t channels;   /* the channels (rings, trees) it ran */
};

/* A step of a training workload (traffic/tg_wl_train.c): the graph nodes
 * first.. end, end waiting for all of them. */
struct tg_step {
	uint16_t workload;   /* the workload that made it */
	uint32_t step;       /* its number, from 0 */
	uint32_t first;      /* its first node */
	uint32_t end;        /* the node that waits for all of it */
};

/* nccl-tests' bus bandwidth factor of @kind on @n ranks: busbw = algbw x
 * this (doc/PERFORMANCE.md of nccl-tests): 2(n-1)/n for all-reduce,
 * (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for
 * broadcast. */
double tg_coll_bus_factor(uint8_t kind, uint32_t n);
/* Value <-> name of the kinds and algorithms (NULL-terminated lists; the
 * algorithms' in registry order). */
const char *const *tg_coll_kind_names(void);
const char *const *tg_coll_alg_names(void);

struct tg;

/* Where an endpoint is: the NIC and the port of it. */
struct tg_ep {
	uint32_t nic;        /* index into the NICs tg_new is given */
	uint16_t port;       /* its port */
};

/* Post @msgs (copied) on @nics from their start times, or as the
 * operations of @graph (may be NULL) that name them allow; message
 * endpoints index @eps, which say which NIC and port each is. One RC QP
 * per (workload, src, dst) carries that connection's messages in order
 * (TG_QP_PER_CONNECTION), or each message has a QP pair of its own
 * (TG_QP_PER_MESSAGE), under the congestion control its messages name
 * (both ends); a QP is bound to its endpoint's port. A message's record
 * (tg_flows) takes as its start the time it was posted. Returns NULL
 * with @err filled on failure. */
struct tg *tg_new(struct sim *sim, struct nic **nics, uint32_t n_nics, const struct tg_ep *eps,
		  uint32_t n_eps, const struct tg_msg *msgs, uint32_t n_msgs,
		  const struct tg_graph *graph, tg_path_fn path, void *path_arg,
		  const struct tg_framing *fr, char err[CFG_ERR_BYTES]);
void tg_free(struct tg *t); /* NULL is fine */
/* The QP number listed message @msg's packets are sent to (its
 * connection's receiving QP; in-network reduction's member key). */
uint32_t tg_msg_rqpn(const struct tg *t, uint32_t msg);
const struct tg_flow *tg_flows(const struct tg *t, uint32_t *n);
/* Messages completed successfully so far. */
uint32_t tg_n_done(const struct tg *t);
/* The longest base round trip (propagation both ways along its path) of
 * a connection @t made, ps. */
uint64_t tg_max_rtt_ps(const struct tg *t);
/* Endpoints of @t that are live ports (fabemu live): @live[ep] non-zero.
 * A message from one is not posted here (its sender is the real endpoint,
 * another fabemu among them, whose queue pair matches the one made here)
 * and ends TG_REMOTE; one to it is posted as any. @live is borrowed and
 * must outlive the run. */
void tg_set_live(struct tg *t, const uint8_t *live);
/* Messages failed so far. */
uint32_t tg_n_failed(const struct tg *t);
/* Message @i's record as TG_FLOW_RESULT_WORDS words (its start, end and
 * status), for a message sent from another process (run/fabric_remote.c):
 * a copy into @w, and @w put back in place of @t's; then the counts of
 * messages done and failed. */
#define TG_FLOW_RESULT_WORDS 3
void tg_flow_result_save(const struct tg *t, uint32_t i, uint64_t *w);
void tg_flow_result_load(struct tg *t, uint32_t i, const uint64_t *w);
void tg_result_counts(struct tg *t, uint32_t done, uint32_t failed);
/* Streamed collectives: the most messages made and not yet both sent and
 * received at once, summed over the partitions of a parallel run (each
 * counts its own); 0 when nothing streamed. */
uint64_t tg_in_flight_peak(const struct tg *t);
/* Per stream of the graph (tg_graph's streams): for one with rank gates,
 * the operation its critical path goes on to from its end (tg_critical_path's
 * @sorg), TG_NO_GATE_OP before its first arrival; NULL when no stream has
 * rank gates. In a run across processes, the process that saw the
 * instance's arrivals holds it (a graph that waits for a streamed
 * instance's end runs in one process). */
const uint32_t *tg_stream_origins(const struct tg *t);

/* A run split over processes (run/fabric_remote.c): the streamed
 * collectives' figures over every process, in two reductions. The first:
 * tg_stream_fold_sizes words to take the largest of (@mx) and to sum
 * (@sum); tg_stream_fold_save fills this process's part (@owned: per
 * partition, whether this process ran it), tg_stream_fold_load puts the
 * reduced figures in place of its own. The second: the records of the
 * completed messages, tg_stream_done_words of them (from the first's
 * @sum), each process filling those its partitions made. Then
 * tg_stream_fold_end ends each instance whose last message arrived, as
 * one process would have. */
void tg_stream_fold_sizes(const struct tg *t, uint32_t *n_mx, uint32_t *n_sum);
/* Likewise the dependency graph's operations (before the streams'):
 * tg_graph_fold_words words to take the largest of, this process's part,
 * then each operation's start and end as the process that saw them left
 * them, and what follows from them (operations done, each collective
 * instance's start, end and operations left). */
uint32_t tg_graph_fold_words(const struct tg *t);
void tg_graph_fold_save(const struct tg *t, uint64_t *mx);
void tg_graph_fold_load(struct tg *t, const uint64_t *mx);
void tg_stream_fold_save(const struct tg *t, const bool *owned, uint64_t *mx, uint64_t *sum);
void tg_stream_fold_load(struct tg *t, const uint64_t *mx, const uint64_t *sum);
uint64_t tg_stream_done_words(const struct tg *t, const uint64_t *sum);
void tg_stream_done_save(const struct tg *t, const bool *owned, const uint64_t *sum, uint64_t *w);
int tg_stream_done_load(struct tg *t, const bool *owned, const uint64_t *sum, const uint64_t *w);
void tg_stream_fold_end(struct tg *t);
/* Across processes (after tg_stream_fold_load, every process calling it):
 * each instance's critical-path origin (tg_stream_origins) made the one
 * of its last arrival over every process, as one process finds it: the
 * latest time, then the later listed place, through @r's reductions.
 * 0. */
struct par_remote;
int tg_stream_fold_org(struct tg *t, const struct par_remote *r);
/* The (first) sending QP of message @i (shared by the messages of one
 * connection unless per-message); NULL past the last. */
const struct nic_qp *tg_flow_qp(const struct tg *t, uint32_t i);
/* All the sending QPs of message @i's connection into *@qps: returns
 * their count (msg.qps), 0 past the last. */
uint32_t tg_flow_qps(const struct tg *t, uint32_t i, struct nic_qp *const **qps);

/* When collective instance @c (of the graph) started (its first operation)
 * and ended (its last completed): 0 with both set when every operation of
 * it completed, -EAGAIN when some did not. */
int tg_coll_span(const struct tg *t, uint32_t c, uint64_t *start_ps, uint64_t *end_ps);
/* Operations of the graph completed so far, of @n_ops. */
uint32_t tg_ops_done(const struct tg *t, uint32_t *n_ops);
/* When graph node @i started (a transfer: its post) and completed: 0, or
 * -EAGAIN when it has not completed. */
int tg_node_span(const struct tg *t, uint32_t i, uint64_t *start_ps, uint64_t *end_ps);
/* Completion times of the graph's operations so far (UINT64_MAX: not
 * yet), indexed like its nodes; NULL without a graph. */
const uint64_t *tg_op_ends(const struct tg *t);
/* The critical path of nodes @first..@last of @g (@last waiting, directly
 * or not, for all of them), given when each completed (@end_ps, UINT64_MAX:
 * not), started at @start_ps: walked back from @last, at each node to the
 * predecessor (of index >= @first) that completed last (the highest index
 * of those that tie; a streamed instance with rank gates: the operation
 * @sorg names for it, NULL or TG_NO_GATE_OP for none, what a listed
 * instance's walk would reach through its transfers), each node charged the time from that predecessor's
 * end (or @start_ps, for the first node of the path) to its own end, by
 * its tag, into @part (zeroed first). The parts add up to the end of
 * @last less @start_ps. 0, or -EAGAIN when @last has not completed. */
int tg_critical_path(const struct tg_graph *g, const uint64_t *end_ps, const uint32_t *sorg,
		     uint32_t first, uint32_t last,
		     uint64_t start_ps, uint64_t part[TG_TAG_N]);
/* Value <-> name of the tags (NULL-terminated, index = enum tg_tag). */
const char *const *tg_tag_names(void);
/* Collective instance @c (of the graph) carried data: the elements its
 * end compared (*@checked) and those that were not the exact result
 * (*@errors). 0; -ENOENT when it carried no data; -EAGAIN when it has not
 * completed (nothing compared). */
int tg_coll_data(const struct tg *t, uint32_t c, uint64_t *checked, uint64_t *errors);

#endif
