/* Collectives, private: a collective instance being built (the workload
 * kind in tg_wl_coll.c reads the keys and orders the ranks; the
 * algorithms in tg_coll_algo.c turn an instance into transfers and their
 * dependencies). */
#ifndef FAB_TG_COLL_INT_H
#define FAB_TG_COLL_INT_H

#include "tg_wl_int.h"

enum {
	TG_COLL_NO_RAIL = UINT32_MAX, /* an edge on the GPUs' own NICs */
};

/* What a rank waits for, or what it last received: node ids. */
struct tg_deps {
	uint32_t *v;          /* node ids (malloc'd) */
	uint32_t n;           /* how many */
	uint32_t cap;         /* allocated */
};

/* What the receiver of a step does with its bytes (a data-carrying
 * instance; tg.h, struct tg_data_plan). */
enum tg_coll_step {
	TG_STEP_REDUCE, /* adds them element-wise into its own (reduce-scatter) */
	TG_STEP_COPY,   /* takes them as they are (all-gather, broadcast, all-to-all) */
};

/* One instance under construction. */
struct tg_cb {
	struct tg_wl_ctx *c;       /* the experiment */
	const struct topo *t;      /* its topology */
	struct tg_msg proto;       /* what its messages share (SEND, DSCP, workload, QPs) */
	const uint32_t *ranks;     /* participants (GPUs or endpoints), in rank order */
	uint32_t n;                /* their count */
	uint32_t coll;             /* its instance number */
	uint32_t gate;             /* a node every first transfer waits for (the previous
				    * instance's end), or TG_NO_GATE */
	uint32_t *rank_gate;       /* per rank: what its first transfers wait for instead
				    * (its compute phase), or NULL */
	uint64_t slice_bytes;      /* the most one transfer carries (pipelining) */
	uint32_t channels;         /* rings / data parts */
	uint32_t root;             /* broadcast: the root's rank */
	uint8_t kind;              /* enum tg_coll_kind */
	uint8_t alg;               /* enum tg_coll_alg */
	uint64_t bytes;            /* S */
	uint32_t first_node;       /* its first node: nodes first_node.. are its own */
	const double *load;        /* all-to-all: per rank, its share of every rank's S
				    * (adding up to 1), or NULL: S/n each */
	/* data (the data key) */
	bool data;                 /* the instance carries data */
	uint32_t granule;          /* every range is a multiple of this many bytes: a
				    * float32's 4 with data, else 1 */
	uint32_t dcoll;            /* with data: its data instance (the plan's colls) */
	uint64_t buf_bytes;        /* with data: a rank's buffer (its receive area follows) */
	uint64_t *recv_used;       /* with data: per rank, its receive area taken so far */
};

enum { TG_NO_GATE = UINT32_MAX };

/* Append @id to @d. 0 or -ENOMEM. */
int tg_deps_add(struct tg_deps *d, uint32_t id);
void tg_deps_free(struct tg_deps *d);

/* A transfer of @bytes from rank @a to rank @r on channel @chan waiting
 * for the @n_deps nodes @deps (or the gate when there are none), its
 * endpoints chosen by tg_cb_edge with @rail; its node id into *@id. With
 * data, the bytes are those at @src_off of @a's buffer, for @dst_off of
 * @r's, and @step says what @r does with them. 0, -EINVAL (ranks that
 * cannot reach each other) or -ENOMEM. */
int tg_cb_xfer(struct tg_cb *b, uint32_t a, uint32_t r, uint16_t chan, uint32_t rail,
	       uint64_t src_off, uint64_t dst_off, uint64_t bytes, enum tg_coll_step step,
	       const uint32_t *deps, uint32_t n_deps, uint32_t *id);
/* With data: rank @r's buffer holds the result on @bytes at @off at the
 * end (reduce-scatter), or starts with its data there (all-gather).
 * Nothing without data. 0 or -ENOMEM. */
int tg_cb_own(struct tg_cb *b, uint32_t r, uint64_t off, uint64_t bytes);
/* The node of rank @r inside a GPU node (its GPU index), its GPU node,
 * for rank orders; a rank that is no GPU is its own node, index 0. */
uint32_t tg_cb_node_of(const struct tg_cb *b, uint32_t r);
uint32_t tg_cb_gpu_of(const struct tg_cb *b, uint32_t r);
/* Ranks @a and @r share a scale-up (NVLink) domain. */
bool tg_cb_same_domain(const struct tg_cb *b, uint32_t a, uint32_t r);

/* Bytes of part @i of @total split into @n parts, in granules (the first
 * ones one granule more; a remainder below a granule goes to the last),
 * and where it starts (tg_coll_off). With a granule of 1 byte: total / n,
 * the first total % n one more. */
uint64_t tg_coll_part(const struct tg_cb *b, uint64_t total, uint64_t n, uint64_t i);
uint64_t tg_coll_off(const struct tg_cb *b, uint64_t total, uint64_t n, uint64_t i);
/* Slices of a chunk of @bytes: at least one, none over slice_bytes. */
uint32_t tg_coll_slices(const struct tg_cb *b, uint64_t bytes);
/* The rail of inter-node hops that enter and leave each node at GPU @gpu
 * (mod G): that rail when every node's run of ranks holds the GPU, else
 * TG_COLL_NO_RAIL (each GPU on its own NIC: a communicator of one GPU per
 * node uses that GPU's rail for every channel, as NCCL does). */
uint32_t tg_coll_rail(const struct tg_cb *b, uint32_t gpu);
/* Double binary tree all-reduce (tg_coll_tree.c). 0 or -errno. */
int tg_coll_tree(struct tg_cb *b);

/* The algorithms (tg_coll_algo.c): add the instance's transfers. 0,
 * -EINVAL with @err (an algorithm that does not fit the ranks) or
 * -ENOMEM. */
int tg_coll_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES]);

#endif
