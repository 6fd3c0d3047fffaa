/* Traffic, private: the running state of the messages and of their
 * dependency graph, shared by posting and completions (tg.c) and the
 * graph's scheduler (tg_graph.c). Not part of the public API. */
#ifndef FAB_TG_INT_H
#define FAB_TG_INT_H

#include <infiniband/verbs.h>

#include "sim.h"
#include "tg.h"

enum { TG_NO_OP = UINT32_MAX /* a message no operation names */ };
/* Where a streamed message comes in the listed order of its instance: a
 * key of this many fields (tg_stream_alg_key). */
enum { TG_SKEY_N = 6 };

/* @*v = max(@*v, @x), atomically: counts several partitions of a parallel
 * run write (par.h), whose order must not show. */
static inline void tg_atomic_max(uint64_t *v, uint64_t x)
{
	uint64_t cur = __atomic_load_n(v, __ATOMIC_RELAXED);

	while (x > cur && !__atomic_compare_exchange_n(v, &cur, x, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/* @*v = min(@*v, @x), atomically (tg_atomic_max). */
static inline void tg_atomic_min(uint64_t *v, uint64_t x)
{
	uint64_t cur = __atomic_load_n(v, __ATOMIC_RELAXED);

	while (x < cur && !__atomic_compare_exchange_n(v, &cur, x, true, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
}

/* One message in flight: what its post event needs. */
struct tg_slot {
	struct tg *t;         /* owner */
	uint32_t qp;          /* its connection's first sending QP in t->qps */
	uint32_t idx;         /* flow index = wr_id */
};

enum { TG_FBLK_IDS = 14 /* slot numbers in a block of a stream QP's list */ };

/* A block of a streamed connection QP's list of slots posted and not yet
 * received (struct tg_qpx). */
struct tg_fblk {
	struct tg_fblk *next; /* the next block (NULL: none yet) */
	uint32_t id[TG_FBLK_IDS];
};

/* The messages a sending QP of the graph has posted, in order: the k-th
 * message its peer receives is posted[k - 1] (a receive completion's MSN).
 * A streamed connection's QP keeps instead a list of blocks of the slots
 * posted and not yet received: the sender appends at tail, the receiver
 * takes from head, and each touches only its own end, so that the two may
 * run in different partitions (par.h): the receiver reads an entry, and
 * moves on to the next block, only after the message it names has
 * arrived, so after the sender wrote it; it frees a block when it moves
 * past it, when the sender has already moved on. */
struct tg_qpx {
	union {
		struct {
			uint32_t *posted; /* message indices (malloc'd) */
			uint32_t n;       /* posted so far */
			uint32_t cap;     /* allocated */
		};
		struct {
			struct tg_fblk *tail; /* the sender's block (NULL before the first post) */
			struct tg_fblk *head; /* the receiver's: set by the first post */
			uint16_t tn;      /* entries in tail */
			uint16_t hn;      /* entries of head taken */
		};
	};
	bool fifo;            /* a streamed connection's QP (tg_stream.c) */
};

/* Which message of its stream a streamed message is (tg_stream_alg.c
 * says what each field means to each algorithm). */
struct tg_smsg {
	uint64_t bytes;       /* its length */
	uint32_t e;           /* its edge (struct tg_stream's ep) */
	uint32_t c;           /* its channel */
	uint32_t step;        /* its step (ring, halving-doubling) */
	uint32_t p;           /* its sending position (ring), sender's ring-order
			       * index (hierarchical), rank (halving-doubling, tree up)
			       * or receiving rank (tree down) */
	uint32_t j;           /* its slice */
	uint8_t ph;           /* its phase (hierarchical: 0..2; tree: 0 up, 1 down) */
	uint32_t org;         /* with rank gates: the graph operation its chain of waits
			       * goes back to, as the critical path walks it (the
			       * latest of what a listed message waits for, the later
			       * in the listed order on a tie): its sender's gate, or
			       * that of the message it forwards; TG_NO_OP for a first
			       * send not yet released */
};

/* One streamed message while it is in flight (tg_stream.c): made when it
 * is ready to post, freed once sent and received. */
struct tg_sslot {
	struct tg *t;         /* owner */
	struct tg_smsg m;     /* which message */
	uint64_t start_ps;    /* when it was posted (while held for its rank's gate: when
			       * it was made) */
	uint32_t id;          /* its slot number (wr_id's low bits) */
	uint32_t s;           /* its stream (graph->streams) */
	uint32_t next;        /* free list: the next free slot */
	uint8_t parts_left;   /* parts whose send has not completed (the sender's) */
	uint8_t rparts_left;  /* parts not received (the receiver's) */
	uint8_t status;       /* enum tg_status */
	uint8_t refs;         /* 2, less 1 once all is sent and 1 once all is received:
			       * whoever takes it to 0 frees the slot (atomic) */
	uint8_t maker;        /* the partition that made it (its pool's in_flight) */
};

/* A completed streamed message: what summary.json's per-message
 * statistics need (flows.csv is not written where messages stream). */
struct tg_sdone {
	uint64_t fct_ps;      /* completion less post */
	uint64_t ideal_ps;    /* its ideal FCT */
	uint64_t bytes;       /* its length */
};

/* A connection of streamed messages: its QPs and path. */
struct tg_sconn {
	uint32_t qp;          /* its first sending QP in t->qps */
	uint32_t qps;         /* its QP pairs */
	struct tg_path path;  /* source to destination, for the ideal FCT */
};

/* A streamed instance while it runs. */
struct tg_srt {
	uint32_t *conn;       /* per edge: its connection (t->st->conns) (malloc'd) */
	uint32_t *cnt;        /* while it runs: its state, one block (tg_stream.c's
			       * tg_srt_bytes: per rank, and channel, phase or step as
			       * its algorithm needs, what has arrived of what it waits
			       * for; with rank gates, per rank the messages held for
			       * its gate and whether it has ended, and per channel
			       * each rank's ring position) (malloc'd at its start,
			       * with rank gates at the first gate's end, by whichever
			       * partition gets there first; freed at its end) */
	uint8_t ended;        /* every message has arrived (atomic) */
	uint32_t holds;       /* who may still touch cnt: 1 until the last arrival, and
			       * with rank gates 1 a rank until its gate has ended (a
			       * rank that sends nothing may be gated after the end);
			       * the one that takes it to 0 frees cnt (atomic) */
	uint8_t org_lock;     /* partitions: the lock of org and org_end (atomic) */
	uint32_t org_key[TG_SKEY_N]; /* with rank gates: the listed place of the last
			       * arrival so far (tg_stream_alg_key) */
	uint64_t org_end;     /* its time */
	/* Written by every partition of a parallel run (par.h): atomic, and
	 * order-free (sums, minima and maxima). */
	uint64_t left;        /* messages not arrived (across processes: here) */
	uint64_t rleft;       /* across processes: messages not yet counted by the window
			       * ends' handler (every process's, from the same records) */
	uint64_t end_ps;      /* the last of those arrivals so far (its end, once left is 0) */
	uint64_t posted;      /* messages posted */
	uint64_t first_post_ps; /* the first of those posts (UINT64_MAX: none yet) */
	uint64_t completed;   /* messages completed at their sender */
	uint64_t done_bytes;  /* their bytes */
	uint64_t last_ps;     /* the last of those completions */
	uint64_t worst_ps;    /* the slowest of them (FCT) */
};

enum {
	TG_SSLOT_BITS = 12,  /* a chunk of slots: 2^12 */
	TG_SSLOT_CHUNK = 1u << TG_SSLOT_BITS, /* slots made at a time */
	TG_SPOOL_BITS = 26,  /* a slot number: pool << 26 | chunk << 12 | index */
	TG_SPOOL_CHUNKS = 1u << (TG_SPOOL_BITS - TG_SSLOT_BITS), /* chunks a pool may make */
};

/* The slots of one partition of a parallel run (one without partitions
 * has one): it makes the messages its NICs send from its free list, and
 * frees into it those whose last completion it sees, whoever made them.
 * Only that partition's thread touches it, in_flight aside. */
struct tg_spool {
	struct tg_sslot **chunks; /* TG_SPOOL_CHUNKS, filled as made (never moved) */
	uint32_t n_chunks;    /* chunks made */
	uint32_t free;        /* first free slot, UINT32_MAX: none */
	uint64_t in_flight;   /* slots it made that are in use (atomic: freed anywhere) */
	uint64_t peak;        /* the most of those at once */
	struct tg_sdone *done; /* messages sent from its NICs completed, in completion order */
	uint64_t n_done;      /* their count */
	uint64_t cap_done;    /* allocated */
	char pad[64];         /* keeps the next pool's counters off these cache lines */
};

/* The streamed collectives of a run (tg_stream.c). */
struct tg_streams {
	const struct tg_stream *v; /* the graph's streams (borrowed) */
	uint32_t n;           /* their count */
	struct tg_srt *rt;    /* per stream */
	struct tg_sconn *conns; /* connections, shared by the instances of a workload */
	uint32_t n_conns;     /* their count */
	struct tg_spool *pool; /* per partition (one without partitions) */
	uint32_t n_pools;     /* their count */
	struct tg_framing fr; /* framing, for ideal FCTs */
	bool remote;          /* partitions in other processes (par.h): receivers there
			       * learn of messages by tg_stream_aux */
	uint32_t *dslot;      /* remote: per partition and stream, its window's arrival
			       * record (par_defer_count) */
	uint32_t *gref_off;   /* with rank gates (tg.h's cgate): per graph operation o,
			       * its entries in gref are gref_off[o] .. gref_off[o + 1]
			       * (malloc'd); NULL without */
	uint64_t *gref;       /* stream << 32 | rank of each rank an operation gates, by
			       * operation, stream and rank (malloc'd) */
	uint32_t *org;        /* per stream with rank gates: the org (struct tg_smsg) of
			       * its last arrival (the latest, the later in the listed
			       * order on a tie), TG_NO_OP before one; the critical
			       * path goes on from there (malloc'd) */
};

#define TG_STREAM_WR (UINT64_C(1) << 63) /* wr_id bit of a streamed message */

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

/* A graph in partitions (tg_graph_par.c): where each operation acts
 * (TG_PART_*, tg.h). */
struct tg_gpar {
	uint16_t *home;          /* per operation: the partition its start acts in (a
				  * transfer's sender, a compute phase's successors), or
				  * TG_PART_ANY */
	uint16_t *comp;          /* per operation: where its end is counted (a partition,
				  * or TG_PART_LEAD, _ROOT, _ANY) */
	uint64_t *ready;         /* per operation: the latest end of what it waited for */
	uint64_t inline_events;  /* joins ended at windows' ends (each one an event of a
				  * run without partitions) */
};

struct tg {
	struct sim *sim;         /* owning simulation */
	struct tg_gpar *gp;      /* a graph in partitions; NULL without */
	bool remote;             /* partitions in other processes (par.h): receivers
				  * there learn of posts by records (tg_aux) */
	struct nic **nics;       /* the NICs (borrowed) */
	const struct tg_ep *eps; /* where each endpoint is (borrowed) */
	uint32_t n_eps;          /* their count */
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
	uint64_t max_rtt_ps;     /* the longest base round trip (propagation, both ways)
				  * of a connection's path */
	const uint8_t *live;     /* per endpoint, non-zero for a live port (tg_set_live),
				  * or NULL */
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
	struct tg_streams *st;   /* streamed collectives (tg_stream.c); NULL without */
};

/* tg.c */
/* Post message slot @obj's parts (an event handler). */
void tg_post(struct sim *sim, void *obj);
/* The parts a message of @bytes is split into over @qps QPs: one each,
 * and none empty (a 0-byte message is one part). */
uint32_t tg_n_parts(uint64_t bytes, uint32_t qps);
void tg_fail(struct tg *t, struct tg_flow *f, uint64_t now_ps);
/* The identity of message posts on @ns: the tg's own, or in a partition
 * of a parallel run one per partition with the same id (each partition
 * keeps the order of its own posts, which is all its events see). NULL:
 * out of memory (only the first call in a parallel run allocates). */
struct ev_src *tg_post_src(struct tg *t, struct sim *ns);

/* tg_graph.c */
/* Take @g: copy its operations, build the successor lists and the
 * per-message state, give every graph connection's receiving QP its
 * sending QP's post list. 0, or -errno with @err. */
int tg_graph_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES]);
/* Start what waits for nothing (after the ungraphed posts are scheduled). */
void tg_graph_start(struct tg *t);
/* Message @msg is posted on sending QP @qp (a part of it): record it. 0 or
 * -ENOMEM. */
int tg_graph_posted(struct tg *t, struct sim *sim, uint32_t qp, uint32_t msg);
/* Across processes (par_aux_send): what a partition here must learn of a
 * post in another process, by kind. */
enum tg_aux_kind { TG_AUX_STREAM, TG_AUX_POSTED };
void tg_aux(void *ctx, struct sim *to, const void *data, uint32_t len);
void tg_stream_aux(struct tg *t, struct sim *to, const void *data, uint32_t len);
/* A receive completion @wc on @n: a part of a SEND has arrived. */
void tg_graph_received(struct tg *t, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps);
/* Message @msg (a WRITE or READ) completed at its sender, in @ctx's event. */
void tg_graph_sent(struct tg *t, uint32_t msg, uint64_t now_ps, struct sim *ctx);
void tg_graph_fini(struct tg *t);

/* Operation @i completed at @now_ps, in an event of @ctx (a partition's or
 * the root's simulation; NULL: at a window's end, tg_graph_par_defer):
 * start what was waiting for it, or leave it for the window's end. */
void tg_graph_op_done(struct tg *t, uint32_t i, uint64_t now_ps, struct sim *ctx);
/* par_defer_fn of a graph in partitions: @s's wait for an operation that
 * ended at @t_ps in another partition (tg_graph.c). */
uint64_t tg_graph_par_defer(void *arg, uint64_t t_ps, uint32_t s, uint32_t count);
/* Schedule compute node @i's end at @t_ps on @sim (tg_graph.c). */
void tg_graph_compute_at(struct tg *t, struct sim *sim, uint32_t i, uint64_t t_ps);

/* tg_graph_par.c */
/* The partitions' plan of @t's graph @g (t->gp), with the window's
 * handler registered. 0, -ENOMEM, or -EINVAL with @err filled (the plan
 * fabric_par_setup accepted is refused: never). */
int tg_graph_par_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES]);
void tg_graph_par_free(struct tg *t);
/* Operation @i would act before a window's end (a plan that let it: never). */
void tg_graph_par_late(const struct tg *t, uint32_t i) __attribute__((noreturn, cold));

/* A streamed instance's state block (struct tg_srt's cnt), as published
 * by the partition that made it (tg_stream.c). */
static inline uint32_t *tg_srt_blk(struct tg_srt *rt)
{
	return __atomic_load_n(&rt->cnt, __ATOMIC_ACQUIRE);
}

/* tg_stream.c */
/* Connection keys of the graph's streams: how many (*@n), then filled
 * into @keys (the caller's, after the messages' own) with idx = @base +
 * their number. */
struct tg_key {
	uint64_t key;  /* workload << 48 | dscp << 40 | src << 20 | dst */
	uint16_t chan; /* then the connection tag */
	uint32_t comm; /* then the communicator */
	uint32_t idx;  /* message, or @base + a stream connection key */
};
uint64_t tg_stream_n_keys(const struct tg_graph *g);
/* The message prototype of stream connection key @k: endpoints and the
 * stream's proto (after tg_stream_init). */
void tg_stream_key_msg(const struct tg *t, uint32_t k, struct tg_msg *out);
enum { TG_STREAM_QP_WRS = 16 /* a streamed connection's QPs' first ring size */ };
/* The first ring size of the QPs of stream connection key @k: its
 * stream's wrs, or TG_STREAM_QP_WRS. */
uint32_t tg_stream_key_wrs(const struct tg *t, uint32_t k);
void tg_stream_keys(const struct tg_graph *g, uint32_t base, struct tg_key *keys);
/* Take @g's streams (NULL: none): their runtime state. 0 or -ENOMEM. */
int tg_stream_init(struct tg *t, const struct tg_graph *g, const struct tg_framing *fr);
/* Connection key @k (of tg_stream_keys) is on QPs @qp.. with path @path;
 * the sorted keys come one at a time, equal connections after each other
 * (@same: the same connection as the key before). 0 or -ENOMEM. */
int tg_stream_conn(struct tg *t, uint32_t k, uint32_t qp, const struct tg_path *path, bool same);
/* Stream @s's node starts at @at_ps: post its first messages. */
void tg_stream_start(struct tg *t, uint32_t s, uint64_t at_ps);
/* Make message @m of stream @i, posted at @at_ps (tg_stream_alg.c's
 * algorithms call it, in the order the listed messages would start). */
void tg_stream_make(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at_ps);
/* tg_stream_alg.c: what an algorithm keeps while an instance runs (its
 * rt's cnt, in entries), makes at its start, and makes when message @m
 * has arrived at @now_ps (@at_ps: when what it makes is posted). */
uint64_t tg_stream_alg_cnt(const struct tg_stream *s);
/* Where message @m comes in the listed order of its instance, as a key
 * compared field by field (compute phases release what waited for them in
 * that order). */
void tg_stream_alg_key(const struct tg_stream *s, const struct tg_smsg *m, uint32_t k[TG_SKEY_N]);
/* Operation @op, the gate of ranks of stream @i (tg.h's cgate), ended at
 * @now_ps, in the event of @ctx: those ranks' first sends, and what else
 * of theirs waited only for it, are posted (the instance starts at the
 * first gate's end). tg_graph_op_done calls it where the stream's node
 * comes among @op's successors, so that the posts keep the listed order. */
void tg_stream_gated(struct tg *t, uint32_t i, uint32_t op, uint64_t now_ps, struct sim *ctx);
void tg_stream_alg_start(struct tg *t, uint32_t i, uint64_t at_ps);
/* The messages of stream @i that rank @r sends at the start (its first
 * sends), with the position map @pos (per channel, each rank's position in
 * its ring: ring and hierarchical; else unused). */
void tg_stream_alg_rank(struct tg *t, uint32_t i, uint32_t r, const uint32_t *pos, uint64_t at_ps);
void tg_stream_alg_arrived(struct tg *t, uint32_t i, const struct tg_smsg *m, uint64_t at_ps);
/* A receive completion @wc of streamed connection QP @x. */
void tg_stream_received(struct tg *t, uint32_t part, struct tg_qpx *x, const struct ibv_wc *wc,
			uint64_t now_ps);
/* A send completion @wc of a streamed message. */
void tg_stream_sent(struct tg *t, uint32_t part, const struct ibv_wc *wc, uint64_t now_ps);
/* Across processes (tg.h's remote), at a window's end: @count arrivals of
 * streamed collective @i, the latest at @t_ps, from a par_defer_count
 * record every process gets; the last ends the instance there
 * (tg_graph_par_defer). */
void tg_stream_counted(struct tg *t, uint32_t i, uint64_t t_ps, uint32_t count);
void tg_stream_fini(struct tg *t);

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
