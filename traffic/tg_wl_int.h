/* Workload kinds, private: the registry entries and the pieces they share
 * (the common keys, the message prototype, host names). */
#ifndef FAB_TG_WL_INT_H
#define FAB_TG_WL_INT_H

#include "cfg_schema.h"
#include "tg_wl.h"
#include "topo.h"

enum { TG_WL_MAX_BINDS = 4 /* tables one entry is read with */ };

#define TG_WL_MAX_MSG_BYTES (UINT64_C(1) << 31) /* IB maximum message size */


/* Estimates (struct tg_wl_est): sums and products that stay at
 * UINT64_MAX past it, so that a bound never wraps below the truth. */
static inline uint64_t tg_est_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t tg_est_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The most messages tg_wl_place makes of one GPU message in @t: the most
 * linked ports (at most TG_WL_MAX_PORTS) of a GPU's NIC or NVLink node,
 * at least 1. */
uint32_t tg_wl_place_ports(const struct topo *t);

/* The estimate of one collective instance @b (tg_coll_int.h; its ranks
 * read only by the hierarchical algorithm) added to @e: its transfers
 * (messages and operations, and an operation per rank for an all-to-all
 * of no bytes) and their edges, each first send waiting as well for its
 * rank's compute when @rg. Returns the connections it uses (those of
 * another instance of the same ranks and communicator are the same). */
struct tg_cb;
uint64_t tg_wl_coll_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e);

/* kind and name, in every workload map (the run module reads name). */
extern const struct cfg_table tg_wl_common_table;
/* size, start, op and dscp of a message, into a struct tg_wl_proto. */
extern const struct cfg_table tg_wl_proto_table;

/* The prototype of a workload's messages, with the context the host
 * readers need. */
struct tg_wl_proto {
	struct tg_msg msg;              /* size, start, op, dscp; src/dst per kind */
	const struct tg_wl_ctx *ctx;    /* the experiment */
};

/* The file @name that key @n gives, into @path: relative to the folder
 * of the experiment file @n is in (to the current folder when absolute or
 * given by --set). */
void tg_wl_file_path(const struct cfg_node *n, const char *name, char *path, size_t size);
/* Start @p for context @c: DSCP from the context, workload index set. */
void tg_wl_proto_init(struct tg_wl_proto *p, const struct tg_wl_ctx *c);
/* Participants (tg_names.c): what an expander pairs up. Participant e <
 * topo->n_eps is endpoint e, written as a host's name (the host's one
 * linked port) or HOST:PORT; in a fabric of GPU nodes participant
 * n_eps + node x G + g is GPU g of node n (`nodeN/gpuG`), put on real
 * endpoints by tg_wl_place once the workload is expanded. */
enum { TG_WL_MAX_PORTS = 16 /* ports of one side a GPU message is split over */ };
/* Participants there are: endpoints, then GPUs. */
uint32_t tg_wl_n_parts(const struct topo *t);
/* The participant named by @n ("did you mean" when unknown). */
int tg_wl_ep(const struct topo *t, const struct cfg_node *n, uint32_t *ep,
	     char err[CFG_ERR_BYTES]);
/* `all` or a list of names and patterns (no repeats), malloc'd into *out. */
int tg_wl_eps(const struct topo *t, const struct cfg_node *n, uint32_t **out, uint32_t *n_out,
	      char err[CFG_ERR_BYTES]);
/* A workload's own DSCP (0..63) from @n into *@dscp, *@set true. 0 or
 * -EINVAL with @err filled. */
int tg_wl_dscp(const struct cfg_node *n, uint8_t *dscp, bool *set, char err[CFG_ERR_BYTES]);
/* A stragglers list, [{@key: NAME, factor: F}] (F 0..1000) over the
 * participants @parts[0..@n): per participant its factor (1 for those not
 * named), malloc'd into *@slow; @among says in errors what the names must
 * be among. 0, -EINVAL with @err filled, or -ENOMEM. */
int tg_wl_stragglers(const struct topo *t, const struct cfg_node *n, const char *key,
		     const char *among, const uint32_t *parts, uint32_t n_parts, double **slow,
		     char err[CFG_ERR_BYTES]);
/* Whether the longest compute phase the stragglers @slow[0..@n_parts)
 * make of @compute_ps (times 2, the most compute_jitter adds) stays within
 * the clock's horizon; else -EINVAL with @err filled at @n. */
int tg_wl_stragglers_fit(const struct cfg_node *n, const double *slow, uint32_t n_parts,
			 uint64_t compute_ps, char err[CFG_ERR_BYTES]);
/* What `all` is: every GPU of a GPU fabric, else every endpoint with a
 * link, in order, malloc'd into *out. 0 or -ENOMEM. */
int tg_wl_all_parts(const struct topo *t, uint32_t **out, uint32_t *n_out);
/* The name of participant @part. Returns @buf. */
const char *tg_wl_part_name(const struct topo *t, uint32_t part, char buf[TOPO_EP_NAME_BYTES]);
/* The line rate a participant sends at: an endpoint's link, a GPU's NIC
 * ports together. */
uint64_t tg_wl_part_bps(const struct topo *t, uint32_t part);

#endif
