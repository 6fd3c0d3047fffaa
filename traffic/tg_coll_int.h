/* Collectives, private: a collective instance being built (the workload
 * kind in tg_wl_coll.c reads the keys and orders the ranks) and the
 * registry of collective algorithms (tg_coll_reg.c), each one file
 * (tg_coll_ring.c, tg_coll_hier.c, tg_coll_hd.c, tg_coll_direct.c,
 * tg_coll_tree.c) that turns an instance into transfers and their
 * dependencies, with the pieces they share (tg_coll_algo.c). An
 * algorithm's file includes this header. */
#ifndef FAB_TG_COLL_INT_H
#define FAB_TG_COLL_INT_H

#include "reg.h"
#include "tg_wl_int.h"

struct tg_cb;
struct topo_link;

enum {
	TG_COLL_NO_RAIL = UINT32_MAX, /* an edge on the GPUs' own NICs */
	TG_COLL_NO_PXN = UINT32_MAX,  /* a send that goes straight to its receiver */
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
	const struct tg_coll_alg_ops *alg; /* its algorithm */
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
	uint32_t *islands;         /* streamed (the algorithm's stream): per endpoint, its
				    * island (topo_ep_islands); NULL: listed */
	struct tg_nccl_plan nccl;  /* the NCCL model's plan of this instance (tg_nccl.h;
				    * proto TG_NCCL_IDEAL: off) */
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
/* The endpoint rank @r sends or receives on: its NVLink endpoint when
 * @nvl, else the NIC (its own, or its node's rail-@rail one) port @port. */
uint32_t tg_cb_ep(const struct tg_cb *b, uint32_t r, bool nvl, uint32_t rail, uint16_t port);
/* The endpoints of a transfer from rank @a to rank @r on channel @chan
 * with @rail (what tg_cb_xfer picks) into @ep[0] (sends) and @ep[1]. */
void tg_cb_edge(const struct tg_cb *b, uint32_t a, uint32_t r, uint16_t chan, uint32_t rail,
		uint32_t ep[2]);
/* A stream (tg.h, struct tg_stream) of instance @b for algorithm @alg
 * with @n_edges edges, none taken yet (ep UINT32_MAX), its parts per
 * channel set, into @s: 0 or -ENOMEM. */
int tg_cb_stream_new(const struct tg_cb *b, uint8_t alg, uint32_t n_edges, struct tg_stream *s);
/* Edge @e of stream @s: from rank @a to rank @r on channel @chan with
 * @rail (tg_cb_edge's endpoints). */
void tg_cb_stream_edge(const struct tg_cb *b, struct tg_stream *s, uint32_t e, uint32_t a, uint32_t r,
		       uint16_t chan, uint32_t rail);
/* The link of endpoint @ep (its host's port), NULL when it has none. */
const struct topo_link *tg_cb_ep_link(const struct topo *t, uint32_t ep);
/* The NCCL model's latency of a transfer between endpoints @ep (what
 * tg_cb_edge picks), over NVLink when @nvl (tg_cb_same_domain): how long
 * after it is ready it is posted: NCCL's latency of the hop, less what
 * the fabric itself takes for it at least (the propagation of the two
 * endpoints' links), never below 0. */
uint64_t tg_cb_hop_ps(const struct tg_cb *b, bool nvl, const uint32_t ep[2]);
/* PXN (the NCCL model's, tg_nccl.h; b->nccl.pxn): into *@out, per GPU
 * of the fabric, its rank in @b (UINT32_MAX: none), or NULL when PXN
 * does not apply (the plan says no, or the fabric has no NVLink). 0 or
 * -ENOMEM. */
int tg_cb_pxn_map(const struct tg_cb *b, uint32_t **out);
/* The rank through which rank @a's sends to rank @r go under PXN (@map
 * tg_cb_pxn_map's): the rank of a's node on r's rail (the GPU of r's
 * index), when @a and @r are GPUs of different NVLink domains on
 * different rails and that GPU is a rank in a's domain; else
 * TG_COLL_NO_PXN (NULL @map too). */
uint32_t tg_cb_pxn(const struct tg_cb *b, const uint32_t *map, uint32_t a, uint32_t r);
/* A send of @bytes from rank @a to rank @r through rank @p (tg_cb_pxn):
 * over NVLink to @p (waiting for the gate or @a's compute, as a first
 * send), then from @p's NIC to @r once that has arrived (not waiting for
 * @p's compute: its proxy thread posts it); the second's node id into
 * *@id. No data. 0, -EINVAL or -ENOMEM (tg_cb_xfer's). */
int tg_cb_xfer_pxn(struct tg_cb *b, uint32_t a, uint32_t p, uint32_t r, uint64_t bytes, uint32_t *id);
/* Per GPU of @t's fabric, its place among the @n ids @ranks (GPUs are
 * ids from t->n_eps on; other ids are left out), UINT32_MAX for none,
 * into *@out (malloc'd): tg_cb_send_nccl's communicator. NULL when the
 * fabric has no GPUs. 0 or -ENOMEM. */
int tg_cb_comm_map(const struct topo *t, const uint32_t *ranks, uint32_t n, uint32_t **out);
/* A point-to-point send of @bytes from rank 0 of @b (two ranks, its
 * proto set) to rank 1 on connection tag @chan under the NCCL model @c
 * (on): NCCL's protocol and chunks for it (tg_nccl_p2p_plan, into
 * b->nccl), each chunk a transfer waiting for @dep (TG_NO_GATE: the
 * gate) and posted the launch and hop latencies after it; with PXN (c's
 * pxn, and @comm: per GPU of the fabric, UINT32_MAX for one outside the
 * communicator; NULL: none) through the GPU of the sender's node on the
 * receiver's rail when that is in the communicator (tg_cb_xfer_pxn).
 * The last node (the transfer, or a point after the chunks) into *@id.
 * 0 or -ENOMEM. */
int tg_cb_send_nccl(struct tg_cb *b, const struct tg_nccl_cfg *c, const uint32_t *comm, uint64_t bytes,
		    uint16_t chan, uint32_t dep, uint32_t *id);
/* The NCCL model (tg_nccl.h) may run algorithm @alg: NCCL's (ring, tree,
 * direct) and no @data; else -EINVAL with @err filled at @at. */
int tg_cb_nccl_check(const struct tg_coll_alg_ops *alg, bool data, const struct cfg_node *at,
		     char err[CFG_ERR_BYTES]);
/* What the NCCL model's tuner is told of instance @b (its ranks, kind,
 * algorithm and channels set) under @c into @out: the NVLink domains the
 * ranks span (a host, or a GPU without NVLink, is one of its own) and
 * Simple's bus bandwidth: within one domain NVLink's line rate at its
 * efficiency; across domains the lesser of that over the share of a
 * rank's channels that stay in its domain ((ranks in it - 1) / ranks in
 * it) and the line rate of the NICs a node's channels use (at most one a
 * rank), a rank alone in its domain its NIC's. 0 or -ENOMEM. */
int tg_cb_nccl_shape(const struct tg_cb *b, const struct tg_nccl_cfg *c, struct tg_nccl_shape *out);
/* Tune instance @b (its bytes, algorithm and ranks set) under the NCCL
 * model @c with the tuner told @shape (tg_cb_nccl_shape of b->alg), and
 * when @tree is not NULL the tree's shape too (NCCL_ALGO unset: the tree
 * where its time is less): its plan into b->nccl, b->alg, b->slice_bytes
 * (the protocol's step, else @slice_bytes) and b->channels (the plan's,
 * else @channels). With @c off: the ideal plan, @slice_bytes, @channels. */
void tg_cb_nccl_tune(struct tg_cb *b, const struct tg_nccl_cfg *c, const struct tg_nccl_shape *shape,
		     const struct tg_nccl_shape *tree, uint64_t slice_bytes, uint32_t channels);
/* Instance @b (its ranks, kind, bytes, ring or direct algorithm, slice
 * and channels one GPU a rail set) under @c, tuned as NCCL would: an
 * all-reduce runs the tree where @c's algorithm says, or where its time is
 * less with algorithm auto (both trees on every rail); then
 * tg_cb_nccl_tune. Nothing with @c off. 0 or -ENOMEM. */
int tg_cb_nccl_auto(struct tg_cb *b, const struct tg_nccl_cfg *c);
/* Ranks per node when every node holds the same GPUs, node by node, and
 * there are two nodes or more with two ranks or more each; else 0
 * (tg_coll_hier.c; the hierarchical all-reduce and CollNet's shape). */
uint32_t tg_coll_node_runs(const struct tg_cb *b);
/* The double binary tree (tg_coll_tree.c), which the tuner may pick. */
extern const struct tg_coll_alg_ops tg_coll_tree_alg;
/* The in-network all-reduce (tg_coll_innet.c): Simple alone under the
 * model. */
extern const struct tg_coll_alg_ops tg_coll_innet_alg;
/* NVLS's efficiency (NCCL's nvlsEfficiency) for the NVLink of @b's rank
 * 0, parts per million: Hopper's from 3.6 Tb/s a GPU (NVLink 4),
 * Blackwell's from 7.2 Tb/s (NVLink 5); 0 below (no NVLS: NVLink SHARP
 * came with Hopper's NVSwitch). */
uint32_t tg_innet_nvls_eff_ppm(const struct tg_cb *b);
/* The time of NVLS for instance @b (its ranks in one NVLink domain, its
 * bytes set) as the tuner weighs it, us: NCCL's NVLS latency plus the
 * (n + 1)/n x S each GPU's NVLink carries at Simple's share of it and
 * NVLS's efficiency. */
double tg_innet_nvls_us(const struct tg_cb *b, uint32_t nvl_eff_ppm);
/* Stream @s of instance @b into the graph after b->gate (its arrays taken
 * either way): 0, -EAGAIN when an edge joins endpoints b->islands says
 * cannot reach each other (list the instance then, for the loader to
 * refuse), or -ENOMEM. */
int tg_cb_stream_add(struct tg_cb *b, struct tg_stream *s);
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
/* ---- the pieces the algorithms share (tg_coll_algo.c) ---- */

enum tg_ring_phase {
	TG_RING_RS,    /* reduce-scatter: n - 1 steps */
	TG_RING_AG,    /* all-gather: n - 1 steps */
	TG_RING_AR,    /* all-reduce: both */
	TG_RING_BCAST, /* broadcast: a chain, n - 1 hops */
};

/* One ring (or chain) over positions @order[0..@n) (rank numbers) moving
 * @bytes of the data from @base in the way of @phase on channel @chan,
 * inter-node edges on @rail; an all-gather's position p starts with chunk
 * p + @shift. Position p's first sends wait for @start[p] (NULL or empty:
 * the gate); @end[p] (when not NULL, and not for a chain) receives the
 * nodes of p's last receive. 0 or -errno. */
int tg_ring(struct tg_cb *b, const uint32_t *order, uint32_t n, uint64_t base, uint64_t bytes,
	    enum tg_ring_phase phase, uint32_t shift, uint16_t chan, uint32_t rail,
	    struct tg_deps *start, struct tg_deps *end);
/* The ring order of channel @c over all ranks into @order: rank order,
 * each node's run of ranks rotated to start at GPU c (mod its run's
 * length) so that the channel's inter-node hops all leave and enter on
 * rail c. */
void tg_coll_ring_order(const struct tg_cb *b, uint32_t c, uint32_t *order);
/* The estimate of @times rings (tg_ring) of @n positions over @bytes,
 * going @rounds times round (1: reduce-scatter or all-gather, 2:
 * all-reduce; 0: a broadcast chain of one chunk), added to @e: a transfer
 * per slice of each chunk at each step, waiting for the slice before (1
 * edge) or, at the first step, for at most @start nodes (at least the
 * gate), with @rg for its rank's compute too. Returns the most slices a
 * position receives at a step (what a later ring of the same rank waits
 * for): @start when n < 2. */
uint64_t tg_est_ring(const struct tg_cb *b, uint32_t n, uint64_t bytes, uint32_t rounds,
		     uint64_t start, bool rg, uint64_t times, struct tg_wl_est *e);

/* ---- the registry of algorithms (tg_coll_reg.c) ---- */

/* The collectives' names (enum tg_coll_kind), by value, NULL-terminated. */
extern const char *const tg_coll_kinds[TG_COLL_N + 1];

/* A collective algorithm: one file defining one of these, plus one line in
 * tg_coll_reg.c's built-in list (or tg_coll_alg_register). Its position
 * in the registry is struct tg_coll's alg. */
struct tg_coll_alg_ops {
	struct reg_kind kind;  /* name (the value of algorithm:), a line of doc; no
				* settings */
	uint32_t kinds;        /* the collectives it runs: bit (1 << enum
				* tg_coll_kind) each; the first algorithm in
				* registry order that runs a kind is its default */
	uint32_t rail_channels; /* channels: auto gives this many per GPU of a node
				 * (per rail), and without GPUs (tree: 2, both trees);
				 * 0: 1 */
	bool data_per_rank;    /* data: S / 4 must be a multiple of the ranks */
	/* Add instance @b's transfers (b->kind one it runs) with
	 * tg_cb_xfer. 0, -EINVAL with @err filled at @at (ranks it cannot
	 * run on) or -ENOMEM. */
	int (*build)(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES]);
	/* Add to @e what build will make of @b (an upper bound: tg_wl_coll_est);
	 * the connections it uses. */
	uint64_t (*est)(const struct tg_cb *b, bool rg, struct tg_wl_est *e);
	/* The collectives it streams (bit (1 << enum tg_coll_kind) each; 0:
	 * none), without data or compute phases, as tg.h's struct tg_stream:
	 * add instance @b so (0, -EAGAIN: list it instead, -ENOMEM), and the
	 * most messages it has made at once (an estimate, for the message
	 * cap). */
	uint32_t stream_kinds;
	int (*stream)(struct tg_cb *b);
	uint64_t (*stream_est)(const struct tg_cb *b);
};

/* Register algorithm @ops after the built-in ones (at program start):
 * 0, or -EINVAL / -ENOSPC with @err filled (its name empty or taken, no
 * build, no est, or no collective it runs). */
int tg_coll_alg_register(const struct tg_coll_alg_ops *ops, char err[CFG_ERR_BYTES]);
/* The algorithm named by @n ("did you mean" when unknown): 0 or -EINVAL. */
int tg_coll_alg_read(const struct cfg_node *n, const struct tg_coll_alg_ops **out,
		     char err[CFG_ERR_BYTES]);
/* The default algorithm of collective @kind (the first that runs it). */
const struct tg_coll_alg_ops *tg_coll_alg_default(uint8_t kind);
/* Position of @ops in the registry (struct tg_coll's alg). */
uint8_t tg_coll_alg_index(const struct tg_coll_alg_ops *ops);
/* Whether @ops runs collective @kind; when not, the refusal "algorithm A
 * does not run K (ring: ...; direct: all-to-all)" at @at. 0 or -EINVAL. */
int tg_coll_alg_check(const struct tg_coll_alg_ops *ops, uint8_t kind, const struct cfg_node *at,
		      char err[CFG_ERR_BYTES]);

/* Add the instance's transfers: its algorithm's build. */
int tg_coll_build(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES]);

#endif
