/* The `collective` workload kind: an all-reduce, all-gather,
 * reduce-scatter, broadcast or all-to-all among ranks (GPUs of a GPU
 * fabric, or hosts), as real RDMA SENDs with their step dependencies
 * (tg_coll_algo.c), once or over a sweep of sizes as nccl-tests runs them
 * (`all_reduce_perf -b 8 -e 8G -f 2`), one instance after the other. An
 * edge between two GPUs of one NVLink domain goes over NVLink; between
 * nodes, a ring's channel c uses the rail-c NICs of both nodes (NCCL's
 * rail-aligned rings, with PXN carrying the data to the rail's GPU), the
 * other algorithms the GPUs' own NICs. With `data: true` the transfers
 * are RDMA WRITEs with immediate that carry every rank's float32 data,
 * checked at each instance's end (tg_data.c). Here: the keys, the ranks
 * and their placement, the instances and their data plan. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_coll_int.h"
#include "tg_nccl.h"

enum {
	TG_COLL_MAX_CHANNELS = 64,    /* NCCL's MAXCHANNELS */
	TG_COLL_MAX_SIZES = 64,       /* sizes in a sweep */
	TG_COLL_MAX_ITERATIONS = 1000,
	TG_COLL_DATA_ELEM_BYTES = 4,  /* data: float32 elements */
};

/* data: the most memory a workload's ranks' regions (buffers and receive
 * areas) may take together. */
#define TG_COLL_DATA_MAX_BYTES (UINT64_C(4) << 30)

/* What the keys give. */
struct tg_wl_coll {
	const struct tg_wl_ctx *ctx;  /* the experiment */
	int kind;                     /* enum tg_coll_kind */
	const struct tg_coll_alg_ops *alg; /* its algorithm, or NULL: the kind's default */
	const struct cfg_node *alg_at; /* the algorithm key, or NULL */
	uint32_t *ranks;              /* participants (malloc'd) */
	uint32_t n_ranks;             /* their count */
	const struct cfg_node *size;  /* the size key, or NULL */
	const struct cfg_node *sizes; /* the sizes key, or NULL */
	const struct cfg_node *channels; /* the channels key */
	uint64_t slice_bytes;         /* pipelining unit */
	uint32_t iterations;          /* instances per size */
	uint32_t root;                /* broadcast root rank */
	uint64_t start_ps;            /* the first instance's earliest start */
	uint8_t dscp;                 /* DSCP of its data */
	bool dscp_set;                /* given */
	uint64_t compute_ps;          /* each rank computes this long before each instance */
	double jitter;                /* compute: +- this fraction, uniform, per rank and instance */
	double *slow;                 /* per rank: its compute's factor (stragglers), malloc'd */
	double *load;                 /* all-to-all: per rank, its share of what every rank
				       * sends (malloc'd), or NULL: uniform */
	const struct cfg_node *load_at; /* the load key */
	bool data;                    /* carry every rank's data and check the result */
	const struct cfg_node *nccl_at; /* the nccl key, or NULL */
	struct tg_nccl_cfg nccl;      /* the NCCL model (tg_nccl.h) */
	struct tg_nccl_shape shape;   /* with it: what its tuner is told */
	uint32_t n_channels;          /* the channels the keys give */
	bool alg_auto;                /* with it, an all-reduce without an algorithm key:
				       * ring or tree, as NCCL's tuner picks per size */
	struct tg_nccl_shape shape_tree; /* alg_auto: the tree's shape */
	bool nvls_auto;               /* alg_auto with the ranks in one NVLink domain that
				       * has NVLS: NVLS too where its time is less */
	uint32_t n_channels_tree;     /* alg_auto: the tree's channels */
};


#define TG_WL_COLL_OFF(f) offsetof(struct tg_wl_coll, f)

static int tg_wl_coll_ranks(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_coll *p = params;
	int rc = tg_wl_eps(p->ctx->topo, n, &p->ranks, &p->n_ranks, err);

	if (rc == 0 && p->n_ranks < 2) {
		cfg_errorf(err, n, "a collective needs at least 2 ranks (got %u)", p->n_ranks);
		return -EINVAL;
	}
	return rc;
}

static int tg_wl_coll_keep(const struct cfg_node *n, const struct cfg_node **slot)
{
	*slot = n;
	return 0;
}

static int tg_wl_coll_size(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	return tg_wl_coll_keep(n, &((struct tg_wl_coll *)params)->size);
}

static int tg_wl_coll_sizes(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	return tg_wl_coll_keep(n, &((struct tg_wl_coll *)params)->sizes);
}

static int tg_wl_coll_channels(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	return tg_wl_coll_keep(n, &((struct tg_wl_coll *)params)->channels);
}

static int tg_wl_coll_dscp(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_coll *p = params;

	return tg_wl_dscp(n, &p->dscp, &p->dscp_set, err);
}

/* Absent, it stays absent from the resolved experiment (files that name
 * no data read as they always did). */
static int tg_wl_coll_data(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return cfg_bool(n, &((struct tg_wl_coll *)params)->data, err);
}

static int tg_wl_coll_nccl(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_coll *p = params;

	p->nccl_at = n;
	return tg_nccl_read(n, &p->nccl, true, err);
}

static int tg_wl_coll_alg(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	((struct tg_wl_coll *)params)->alg_at = n;
	return tg_coll_alg_read(n, &((struct tg_wl_coll *)params)->alg, err);
}

/* load: uniform, {zipf: S} or a list of one weight per rank (after
 * ranks): how every rank's S splits among the destinations of an
 * all-to-all, an MoE layer's tokens per expert. */
static int tg_wl_coll_load(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "zipf", NULL };
	struct tg_wl_coll *p = params;
	double sum = 0, sz;

	p->load_at = n;
	if (n->type == CFG_SCALAR && strcmp(n->str, "uniform") == 0)
		return 0;
	if (n->type == CFG_SEQ && n->n != p->n_ranks) {
		cfg_errorf(err, n, "load: %u weights for %u ranks (one per rank)", n->n, p->n_ranks);
		return -EINVAL;
	}
	if (n->type == CFG_MAP) {
		if (cfg_check_keys(n, keys, err) != 0)
			return -EINVAL;
		if (!cfg_get(n, "zipf")) {
			cfg_errorf(err, n, "load: give {zipf: S}");
			return -EINVAL;
		}
		if (cfg_double(cfg_get(n, "zipf"), 0, 100, &sz, err) != 0)
			return -EINVAL;
	} else if (n->type != CFG_SEQ) {
		cfg_errorf(err, n, "load: expected uniform, {zipf: S} or a list of one weight per rank");
		return -EINVAL;
	}
	if (!(p->load = malloc(sizeof(*p->load) * p->n_ranks)))
		return -ENOMEM;
	for (uint32_t i = 0; i < p->n_ranks; i++) {
		if (n->type == CFG_MAP)
			p->load[i] = pow(1.0 + i, -sz);
		else if (cfg_double(n->items[i], 0, 1e12, &p->load[i], err) != 0)
			return -EINVAL;
		sum += p->load[i];
	}
	if (!(sum > 0)) {
		cfg_errorf(err, n, "load: the weights add up to 0");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->n_ranks; i++)
		p->load[i] /= sum;
	return 0;
}

/* stragglers: [{rank: NAME, factor: F}, ...]: those ranks compute F times
 * as long (read after ranks: the table's order). */
static int tg_wl_coll_stragglers(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_coll *p = params;

	int rc = tg_wl_stragglers(p->ctx->topo, n, "rank", "the collective's ranks", p->ranks,
				  p->n_ranks, &p->slow, err);

	return rc ? rc : tg_wl_stragglers_fit(n, p->slow, p->n_ranks, p->compute_ps, err);
}

static const struct cfg_key tg_wl_coll_keys[] = {
	{ "collective", CFG_KEY_ENUM, .required = "all-reduce, all-gather, reduce-scatter, broadcast or all-to-all",
	  .off = TG_WL_COLL_OFF(kind), .names = tg_coll_kinds,
	  .doc = "all-reduce, all-gather, reduce-scatter, broadcast or all-to-all" },
	{ "algorithm", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_alg,
	  .doc = "a registered collective algorithm (ring, hierarchical, ...); absent: the first registered one that runs the collective" },
	{ "ranks", CFG_KEY_CUSTOM, "all", .read = tg_wl_coll_ranks,
	  .doc = "all (every GPU, or every host) or a list of names and patterns, in rank order" },
	{ "size", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_size,
	  .doc = "the size S as nccl-tests reports it (or sizes)" },
	{ "sizes", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_sizes,
	  .doc = "a sweep {from, to, factor} (as all_reduce_perf -b -e -f), or a list of sizes" },
	{ "channels", CFG_KEY_CUSTOM, "auto", .read = tg_wl_coll_channels,
	  .doc = "rings (data parts), 1..64; auto: the GPUs per node (one per rail), 1 without GPUs" },
	{ "slice", CFG_KEY_SIZE, "512KiB", .off = TG_WL_COLL_OFF(slice_bytes), .size = 8,
	  .min = 1, .max = TG_WL_MAX_MSG_BYTES, .doc = "the most one transfer carries (NCCL's 512 KiB step)" },
	{ "iterations", CFG_KEY_UINT, "1", .off = TG_WL_COLL_OFF(iterations), .size = 4, .min = 1,
	  .max = TG_COLL_MAX_ITERATIONS, .doc = "instances per size, one after the other" },
	{ "root", CFG_KEY_UINT, "0", .off = TG_WL_COLL_OFF(root), .size = 4,
	  .max = UINT32_MAX - 1, .doc = "broadcast: the root's rank" },
	{ "start", CFG_KEY_TIME, "0ns", .off = TG_WL_COLL_OFF(start_ps),
	  .doc = "the first instance starts then" },
	{ "compute", CFG_KEY_TIME, "0ns", .off = TG_WL_COLL_OFF(compute_ps),
	  .doc = "each rank computes this long before each instance (a training step's phase)" },
	{ "compute_jitter", CFG_KEY_FRACTION, "0%", .off = TG_WL_COLL_OFF(jitter), .lo = 0, .hi = 1,
	  .doc = "compute: +- this fraction, uniformly, per rank and instance (the workload's stream)" },
	{ "load", CFG_KEY_CUSTOM, "uniform", .read = tg_wl_coll_load,
	  .doc = "all-to-all: each rank's S split uniform, {zipf: S} (rank j gets 1/(j+1)^S) or by a weight per rank" },
	{ "stragglers", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_stragglers,
	  .doc = "ranks whose compute takes longer: [{rank: NAME, factor: 1.5}]" },
	{ "dscp", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_dscp,
	  .doc = "DSCP of its data; absent: nic.dscp" },
	{ "data", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_data,
	  .doc = "true: carry float32 data (RDMA WRITEs with immediate into registered memory) and check every rank's result element by element; needs nic.payload; absent: false" },
	{ "nccl", CFG_KEY_CUSTOM, NULL, .read = tg_wl_coll_nccl,
	  .doc = "absent or off (the algorithm's ideal transfers), on, or {protocol: auto|ll|ll128|simple, nvlink_efficiency, base_latency, nvlink_latency, net_latency}: NCCL's protocols, hop and launch latencies and tuner" },
};

static const struct cfg_table tg_wl_coll_table = {
	.section = "traffic",
	.keys = tg_wl_coll_keys,
	.n_keys = sizeof(tg_wl_coll_keys) / sizeof(tg_wl_coll_keys[0]),
};

/* ---- sizes ---- */

/* The sizes of the sweep into @out (at most TG_COLL_MAX_SIZES): a size, a
 * list, or {from, to, factor}. */
static int tg_wl_coll_read_sizes(const struct tg_wl_coll *p, const struct cfg_node *it,
				 uint64_t *out, uint32_t *n, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "from", "to", "factor", NULL };
	const struct cfg_node *s = p->sizes;
	uint64_t from, to, factor;

	*n = 0;
	if ((p->size != NULL) == (s != NULL)) {
		cfg_errorf(err, it, "a collective needs exactly one of 'size' or 'sizes'");
		return -EINVAL;
	}
	if (p->size)
		return cfg_size(p->size, 0, TG_WL_MAX_MSG_BYTES, &out[(*n)++], err);
	if (s->type == CFG_SEQ) {
		if (s->n == 0 || s->n > TG_COLL_MAX_SIZES) {
			cfg_errorf(err, s, "sizes: 1..%d sizes", TG_COLL_MAX_SIZES);
			return -EINVAL;
		}
		for (uint32_t i = 0; i < s->n; i++)
			if (cfg_size(s->items[i], 0, TG_WL_MAX_MSG_BYTES, &out[(*n)++], err) != 0)
				return -EINVAL;
		return 0;
	}
	if (cfg_want(s, CFG_MAP, "sizes ({from, to, factor} or a list)", err) != 0 ||
	    cfg_check_keys(s, keys, err) != 0)
		return -EINVAL;
	if (!cfg_get(s, "from") || !cfg_get(s, "to")) {
		cfg_errorf(err, s, "sizes needs 'from' and 'to' (and 'factor', default 2)");
		return -EINVAL;
	}
	if (cfg_size(cfg_get(s, "from"), 1, TG_WL_MAX_MSG_BYTES, &from, err) != 0 ||
	    cfg_size(cfg_get(s, "to"), from, TG_WL_MAX_MSG_BYTES, &to, err) != 0)
		return -EINVAL;
	factor = 2;
	if (cfg_get(s, "factor") && cfg_u64(cfg_get(s, "factor"), 2, 1024, &factor, err) != 0)
		return -EINVAL;
	for (uint64_t v = from; v <= to; v *= factor) {
		if (*n == TG_COLL_MAX_SIZES) {
			cfg_errorf(err, s, "sizes: more than %d sizes from %llu to %llu", TG_COLL_MAX_SIZES,
				   (unsigned long long)from, (unsigned long long)to);
			return -EINVAL;
		}
		out[(*n)++] = v;
		if (v > UINT64_MAX / factor)
			break;
	}
	return 0;
}

/* ---- data ---- */

/* What data: true needs of the NICs and the sizes, before anything is
 * built: payload and go-back-N, whole float32 elements (halving-doubling:
 * S / n of them at every rank), and a set of regions for the ranks. */
static int tg_wl_coll_data_check(const struct tg_wl_coll *p, const struct cfg_node *it,
				 const uint64_t *sizes, uint32_t n_sizes, struct tg_cb *b,
				 uint32_t *set, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *at = cfg_get(it, "data"), *sz = p->size ? p->size : p->sizes;
	struct tg_data_set s = { .n_ranks = p->n_ranks };
	uint64_t unit = TG_COLL_DATA_ELEM_BYTES * (p->alg->data_per_rank ? (uint64_t)p->n_ranks : 1);
	char why[96] = "";

	if (!p->ctx->payload) {
		cfg_errorf(err, at, "data: true needs nic.payload: true (the bytes must travel to be checked)");
		return -EINVAL;
	}
	if (!p->ctx->go_back_n) {
		cfg_errorf(err, at, "data: true needs nic.recovery: go-back-n (selective repeat keeps packets out of order without their bytes)");
		return -EINVAL;
	}
	if (p->load) {
		cfg_errorf(err, p->load_at, "data: true checks an even all-to-all only (load: uniform): a skewed load's blocks are not compared");
		return -EINVAL;
	}
	if (p->alg->data_per_rank)
		snprintf(why, sizeof(why), ", S / 4 a multiple of the ranks (%s)", p->alg->kind.name);
	for (uint32_t i = 0; i < n_sizes; i++)
		if (sizes[i] % unit) {
			cfg_errorf(err, sz, "data: true needs sizes in whole float32 elements%s: %llu bytes is not a multiple of %llu",
				   why,
				   (unsigned long long)sizes[i], (unsigned long long)unit);
			return -EINVAL;
		}
	if (!(b->recv_used = calloc(p->n_ranks, sizeof(*b->recv_used))))
		return -ENOMEM;
	return tg_data_add_set(&p->ctx->graph->data, &s, set);
}

/* With data: instance @b (S = b->bytes) gets its data instance, before
 * its transfers are built. */
static int tg_wl_coll_data_begin(const struct tg_wl_coll *p, struct tg_cb *b, uint32_t set)
{
	struct tg_data_plan *plan = &p->ctx->graph->data;
	struct tg_data_coll dc = {
		.coll = b->coll, .set = set, .kind = (uint8_t)p->kind, .n_ranks = p->n_ranks,
		.root = p->root, .bytes = b->bytes, .range_off = plan->n_ranges,
	};

	b->buf_bytes = p->kind == TG_COLL_ALL_TO_ALL ? 2 * b->bytes : b->bytes;
	if (p->kind == TG_COLL_ALL_TO_ALL)
		dc.pair_bytes = b->bytes / ((uint64_t)TG_COLL_DATA_ELEM_BYTES * p->n_ranks) *
				TG_COLL_DATA_ELEM_BYTES;
	memset(b->recv_used, 0, sizeof(*b->recv_used) * p->n_ranks);
	return tg_data_add_coll(plan, &dc, &b->dcoll);
}

/* With data: instance @b is built: its ranges, and the regions it needs
 * (its buffer and the largest receive area of a rank). */
static void tg_wl_coll_data_end(const struct tg_wl_coll *p, struct tg_cb *b, uint32_t set)
{
	struct tg_data_plan *plan = &p->ctx->graph->data;
	struct tg_data_coll *dc = &plan->colls[b->dcoll];
	uint64_t recv = 0;

	dc->n_ranges = plan->n_ranges - dc->range_off;
	for (uint32_t r = 0; r < p->n_ranks; r++)
		if (b->recv_used[r] > recv)
			recv = b->recv_used[r];
	if (b->buf_bytes + recv > plan->sets[set].region_bytes)
		plan->sets[set].region_bytes = b->buf_bytes + recv;
}

/* ---- estimate ---- */

/* What the workload makes, before it is made (tg_wl_admit): per size,
 * iterations x an instance (its compute phases, its transfers), and a
 * join after each instance but the last that waits for all of it. */
/* Whether the workload's instances stream (tg.h, struct tg_stream): a
 * collective its algorithm streams (stream_kinds) among two ranks or
 * more, without data, where the experiment lets a workload of @msgs
 * messages stream (tg_wl_streams). */
/* ---- the NCCL model ---- */
/* With the nccl key on: its checks (tg_cb_nccl_check) and what the tuner
 * is told of the ranks into p->shape (tg_cb_nccl_shape), with @b's
 * constants set. 0 or -EINVAL / -ENOMEM. */
static int tg_wl_coll_nccl_check(struct tg_wl_coll *p, const struct tg_cb *b, char err[CFG_ERR_BYTES])
{
	struct tg_cb tb;
	bool one = true;
	int rc;

	if (!p->nccl.on)
		return 0;
	if (tg_cb_nccl_check(p->alg, p->data, p->nccl_at, err) != 0)
		return -EINVAL;
	for (uint32_t r = 1; r < b->n && one; r++)
		one = tg_cb_same_domain(b, 0, r);
	if (p->alg == &tg_coll_innet_alg && p->nccl.algo >= TG_NCCL_ALGO_NVLS &&
	    one != (p->nccl.algo == TG_NCCL_ALGO_NVLS)) {
		/* NVLS runs in one NVLink domain, CollNet across the network. */
		cfg_errorf(err, cfg_get(p->nccl_at, "algorithm"),
			   one ? "nccl.algorithm collnet: the ranks are all in one NVLink domain: nvls reduces there"
			       : "nccl.algorithm nvls: the ranks span more than one NVLink domain: collnet (NVLS-Tree is not modelled)");
		return -EINVAL;
	}
	if (p->alg == &tg_coll_innet_alg && one && !tg_innet_nvls_eff_ppm(b)) {
		cfg_errorf(err, p->alg_at ? p->alg_at : cfg_get(p->nccl_at, "algorithm"),
			   "NVLS (the in-network all-reduce in an NVLink domain under the NCCL model) needs NVLink 4 (3.6 Tb/s a GPU, Hopper) or later");
		return -EINVAL;
	}
	/* NCCL_ALGO unset on an NVSwitch with NVLS: NVLS by size too (NCCL's
	 * NVLS_ENABLE default), where the workload can run it. */
	p->nvls_auto = p->alg_auto && one && b->n > 1 && tg_innet_nvls_eff_ppm(b) &&
		       b->proto.qps == 1 && b->proto.qp_mode != TG_QP_PER_MESSAGE;
	if ((rc = tg_cb_nccl_shape(b, &p->nccl, &p->shape)) != 0 || !p->alg_auto)
		return rc;
	/* The tree's shape: its channels as the channels key gives them (auto:
	 * both trees on every rail). */
	tb = *b;
	tb.alg = &tg_coll_tree_alg;
	tb.channels = p->n_channels_tree;
	return tg_cb_nccl_shape(&tb, &p->nccl, &p->shape_tree);
}

/* Instance @b of @bytes under the NCCL model (its plan, and its slice:
 * the protocol's step, Simple's the slice key), or as the keys say. */
static void tg_wl_coll_nccl_size(const struct tg_wl_coll *p, struct tg_cb *b, uint64_t bytes)
{
	b->alg = p->alg;
	b->bytes = bytes;
	tg_cb_nccl_tune(b, &p->nccl, &p->shape, p->alg_auto ? &p->shape_tree : NULL, p->slice_bytes,
			p->n_channels);
	if (p->nvls_auto && tg_innet_nvls_us(b, p->nccl.nvl_eff_ppm) < b->nccl.predicted_us) {
		b->alg = &tg_coll_innet_alg;
		tg_cb_nccl_tune(b, &p->nccl, &p->shape, NULL, p->slice_bytes, p->n_channels);
	}
}

static bool tg_wl_coll_streams(const struct tg_wl_coll *p, uint64_t msgs)
{
	if (p->alg_auto && !(tg_coll_tree_alg.stream && (tg_coll_tree_alg.stream_kinds & (1u << p->kind))))
		return false;
	if (p->nvls_auto)
		return false; /* NVLS's instances are listed */
	return p->alg->stream && (p->alg->stream_kinds & (1u << p->kind)) && p->n_ranks >= 2 && !p->data &&
	       tg_wl_streams(p->ctx, msgs);
}

static int tg_wl_coll_admit(const struct tg_wl_coll *p, const struct cfg_node *it, struct tg_cb *b,
			    const uint64_t *sizes, uint32_t n_sizes, bool *stream,
			    char err[CFG_ERR_BYTES])
{
	struct tg_wl_est est = { .lower = "fewer sizes, iterations, ranks or channels, or a larger slice" };
	uint64_t n = p->compute_ps ? p->n_ranks : 0, join = 0;

	for (uint32_t s = 0; s < n_sizes; s++) {
		struct tg_wl_est one = { 0 };

		b->bytes = sizes[s];
		tg_wl_coll_nccl_size(p, b, sizes[s]);
		est.conns = tg_wl_coll_est(b, p->compute_ps != 0, &one);
		one.ops = tg_est_add(one.ops, n);
		join = one.ops;
		one.deps = tg_est_add(tg_est_add(one.deps, n), join);
		one.ops = tg_est_add(one.ops, 1);
		est.msgs = tg_est_add(est.msgs, tg_est_mul(one.msgs, p->iterations));
		est.ops = tg_est_add(est.ops, tg_est_mul(one.ops, p->iterations));
		est.deps = tg_est_add(est.deps, tg_est_mul(one.deps, p->iterations));
	}
	/* No join after the last instance (saturated counts stay). */
	if (est.ops != UINT64_MAX && est.deps != UINT64_MAX) {
		est.ops -= 1;
		est.deps -= join;
	}
	est.colls = (uint64_t)n_sizes * p->iterations;
	est.data_xfers = p->data ? est.msgs : 0;
	if ((*stream = tg_wl_coll_streams(p, est.msgs))) {
		/* One instance at a time, with at most what its algorithm says
		 * made at once (0: its ranks do not stream, they are listed);
		 * nodes an instance: its stream (waiting for the gate, or for
		 * its n compute phases), the compute phases (after the gate)
		 * and the join after it (waiting for all of them). */
		uint64_t most = 0;

		for (uint32_t s = 0; s < n_sizes && *stream; s++) {
			uint64_t one;

			b->bytes = sizes[s];
			tg_wl_coll_nccl_size(p, b, sizes[s]);
			one = b->alg->stream_est(b);
			*stream = one != 0;
			most = one > most ? one : most;
		}
		if (*stream) {
			est.msgs = most;
			est.ops = tg_est_mul(2 + n, est.colls);
			est.deps = tg_est_mul(n ? 1 + 3 * n : 2, est.colls);
		}
	}
	return tg_wl_admit(b->c, it, "collective", &est, false, err);
}

/* ---- the kind ---- */

/* The stream of workload w is (seed, TG_WL_COLL_STREAM + w). */
#define TG_WL_COLL_STREAM UINT64_C(0x636f6c6c00000000)

/* Each rank's compute phase of instance @b (after the gate), its node the
 * rank's first transfers wait for: compute x straggler factor x (1 +-
 * jitter). 0 or -ENOMEM. */
static int tg_wl_coll_compute(const struct tg_wl_coll *p, struct tg_cb *b, struct rng *rng)
{
	for (uint32_t r = 0; r < p->n_ranks; r++) {
		double f = p->slow ? p->slow[r] : 1;
		struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = p->ranks[r],
					.start_ps = p->start_ps, .coll = b->coll };
		int rc;

		if (p->jitter > 0)
			f *= 1 + p->jitter * (2 * rng_unit(rng) - 1);
		node.dur_ps = (uint64_t)((double)p->compute_ps * f + 0.5);
		rc = tg_graph_add(b->c->graph, &node, b->gate == TG_NO_GATE ? NULL : &b->gate,
				  b->gate == TG_NO_GATE ? 0 : 1, &b->rank_gate[r]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* The checks the keys need together, after they are read: the algorithm
 * (the kind's default when absent) runs the collective, load only for an
 * all-to-all, root a rank; then the channels into *@channels. 0 or
 * -EINVAL with @err filled. */
static int tg_wl_coll_check(struct tg_wl_coll *p, const struct cfg_node *it, uint64_t *channels,
			    char err[CFG_ERR_BYTES])
{
	const struct tg_wl_ctx *c = p->ctx;
	uint64_t per_rail;

	/* Under the NCCL model an all-reduce without an algorithm key runs
	 * ring or tree by size, as NCCL's tuner picks (NCCL_ALGO unset). */
	p->alg_auto = !p->alg && p->nccl.on && p->kind == TG_COLL_ALL_REDUCE &&
		      p->nccl.algo == TG_NCCL_ALGO_AUTO;
	if (!p->alg && p->nccl.on && p->kind == TG_COLL_ALL_REDUCE && p->nccl.algo == TG_NCCL_ALGO_TREE)
		p->alg = &tg_coll_tree_alg;
	/* NCCL_ALGO=NVLS or CollNet: the in-network all-reduce (its checks of
	 * the ranks in tg_wl_coll_nccl_check). */
	if (!p->alg && p->nccl.on && p->kind == TG_COLL_ALL_REDUCE && p->nccl.algo >= TG_NCCL_ALGO_NVLS)
		p->alg = &tg_coll_innet_alg;
	if (!p->alg)
		p->alg = tg_coll_alg_default((uint8_t)p->kind);
	if (tg_coll_alg_check(p->alg, (uint8_t)p->kind, cfg_get(it, "algorithm"), err) != 0)
		return -EINVAL;
	if (p->load && p->kind != TG_COLL_ALL_TO_ALL) {
		cfg_errorf(err, p->load_at, "load shapes an all-to-all, not %s", tg_coll_kinds[p->kind]);
		return -EINVAL;
	}
	if (p->root >= p->n_ranks) {
		cfg_errorf(err, cfg_get(it, "root"), "root %u is not a rank (0..%u)", p->root, p->n_ranks - 1);
		return -EINVAL;
	}
	per_rail = p->alg->rail_channels ? p->alg->rail_channels : 1;
	if (p->channels->type == CFG_SCALAR && strcmp(p->channels->str, "auto") == 0) {
		bool gpus = c->topo->gpus.n_nodes && p->ranks[0] >= c->topo->n_eps;

		*channels = gpus ? c->topo->gpus.gpus_per_node * per_rail : per_rail;
		p->n_channels_tree = (gpus ? c->topo->gpus.gpus_per_node : 1) * tg_coll_tree_alg.rail_channels;
		return 0;
	}
	if (cfg_u64(p->channels, 1, TG_COLL_MAX_CHANNELS, channels, err) != 0)
		return -EINVAL;
	p->n_channels_tree = (uint32_t)*channels;
	return 0;
}

/* Instance @b's constants from the keys. */
static void tg_wl_coll_cb_init(const struct tg_wl_coll *p, uint64_t channels, struct tg_cb *b)
{
	const struct tg_wl_ctx *c = p->ctx;

	/* With data, a transfer writes into the receiver's memory and tells it
	 * (what NCCL's IB transport does); without, a SEND. */
	b->proto.op = p->data ? TG_OP_WRITE_IMM : TG_OP_SEND;
	b->proto.dscp = p->dscp_set ? p->dscp : c->dscp;
	b->proto.workload = c->index;
	b->proto.cc = c->cc;
	b->proto.qp_mode = c->qp_mode;
	b->proto.qps = c->qps;
	b->proto.start_ps = p->start_ps;
	b->load = p->load;
	b->ranks = p->ranks;
	b->n = p->n_ranks;
	b->slice_bytes = p->slice_bytes;
	b->channels = (uint32_t)channels;
	b->root = p->root;
	b->kind = (uint8_t)p->kind;
	b->alg = p->alg;
	b->data = p->data;
	b->granule = p->data ? TG_COLL_DATA_ELEM_BYTES : 1;
}

/* One instance of @bytes (iteration @k) after @*gate, its end's join (when
 * another instance follows, @more) into *@gate. 0 or -errno. */
static int tg_wl_coll_instance(const struct tg_wl_coll *p, const struct cfg_node *it,
			       struct tg_cb *b, uint64_t bytes, uint32_t k, bool more, uint32_t set,
			       struct rng *rng, uint32_t *gate, char err[CFG_ERR_BYTES])
{
	struct tg_wl_ctx *c = b->c;
	struct tg_coll *v = realloc(*c->colls, sizeof(*v) * ((size_t)*c->n_colls + 1));
	int rc;

	if (!v)
		return -ENOMEM;
	*c->colls = v;
	v[*c->n_colls] = (struct tg_coll){ .workload = c->index, .kind = (uint8_t)p->kind,
					   .alg = tg_coll_alg_index(p->alg), .n_ranks = p->n_ranks,
					   .bytes = bytes, .iter = k };
	b->coll = c->graph->n_colls;
	b->bytes = bytes;
	tg_wl_coll_nccl_size(p, b, bytes);
	v[*c->n_colls].alg = tg_coll_alg_index(b->alg);
	v[*c->n_colls].proto = b->nccl.proto;
	v[*c->n_colls].predicted_us = b->nccl.predicted_us;
	v[*c->n_colls].nvl_eff_ppm = b->nccl.nvl_eff_ppm;
	v[*c->n_colls].channels = b->channels;
	b->gate = *gate;
	b->first_node = c->graph->n_ops;
	if (p->compute_ps && (rc = tg_wl_coll_compute(p, b, rng)) != 0)
		return rc;
	if (p->data && (rc = tg_wl_coll_data_begin(p, b, set)) != 0)
		return rc;
	if (b->islands && (rc = b->alg->stream(b)) != -EAGAIN) {
		if (rc != 0)
			return rc;
	} else if ((rc = tg_coll_build(b, cfg_get(it, "algorithm") ? cfg_get(it, "algorithm") : it,
				       err)) != 0) {
		return rc;
	}
	if (p->data)
		tg_wl_coll_data_end(p, b, set);
	c->graph->n_colls++;
	(*c->n_colls)++;
	/* The next instance waits for this one's end, as nccl-tests'
	 * iterations do (one synchronous collective at a time). */
	return more ? tg_graph_join(c->graph, b->first_node, gate) : 0;
}

/* data: the ranks' regions of set @set fit in TG_COLL_DATA_MAX_BYTES. */
static int tg_wl_coll_data_fit(const struct tg_wl_coll *p, const struct cfg_node *it, uint32_t set,
			       char err[CFG_ERR_BYTES])
{
	uint64_t region = p->ctx->graph->data.sets[set].region_bytes;

	if ((uint64_t)p->n_ranks * region <= TG_COLL_DATA_MAX_BYTES)
		return 0;
	cfg_errorf(err, cfg_get(it, "data"), "data: true would take %.2f GiB of memory (%u ranks x %.2f MiB of buffer and receive area), more than the %llu GiB allowed: a smaller size",
		   (double)p->n_ranks * (double)region / (1 << 30), p->n_ranks,
		   (double)region / (1 << 20), (unsigned long long)(TG_COLL_DATA_MAX_BYTES >> 30));
	return -EINVAL;
}

static int tg_wl_coll_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct tg_wl_coll p = { .ctx = c };
	const struct cfg_bind bind[] = {
		{ &tg_wl_common_table, &p },
		{ &tg_wl_coll_table, &p },
	};
	uint64_t sizes[TG_COLL_MAX_SIZES], channels = 0;
	uint32_t n_sizes = 0, gate = TG_NO_GATE, set = 0;
	struct tg_cb b = { .c = c, .t = c->topo };
	bool stream = false;
	struct rng rng;
	int rc;

	if ((rc = cfg_schema_read(c->doc, it, "workload", bind, 2, err)) != 0 ||
	    (rc = tg_wl_coll_read_sizes(&p, it, sizes, &n_sizes, err)) != 0 ||
	    (rc = tg_wl_coll_check(&p, it, &channels, err)) != 0)
		goto out;
	p.n_channels = (uint32_t)channels;
	tg_wl_coll_cb_init(&p, channels, &b);
	if ((rc = tg_wl_coll_nccl_check(&p, &b, err)) != 0)
		goto out;
	if (p.data && (rc = tg_wl_coll_data_check(&p, it, sizes, n_sizes, &b, &set, err)) != 0)
		goto out;
	if ((rc = tg_wl_coll_admit(&p, it, &b, sizes, n_sizes, &stream, err)) != 0)
		goto out;
	/* Streamed: its edges must join reachable endpoints (else listed, for
	 * the loader to refuse as ever). */
	if (stream && topo_ep_islands(c->topo, &b.islands) != 0) {
		rc = -ENOMEM;
		goto out;
	}
	rng_init(&rng, c->seed, TG_WL_COLL_STREAM + c->index);
	if (p.compute_ps && !(b.rank_gate = malloc(sizeof(*b.rank_gate) * p.n_ranks))) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t s = 0; s < n_sizes && rc == 0; s++)
		for (uint32_t k = 0; k < p.iterations && rc == 0; k++)
			rc = tg_wl_coll_instance(&p, it, &b, sizes[s], k,
						 s + 1 < n_sizes || k + 1 < p.iterations, set, &rng,
						 &gate, err);
	if (rc == 0 && p.data)
		rc = tg_wl_coll_data_fit(&p, it, set, err);
out:
	free(p.ranks);
	free(p.slow);
	free(p.load);
	free(b.rank_gate);
	free(b.recv_used);
	free(b.islands);
	return rc;
}

static const struct cfg_table *const tg_wl_coll_tables[] = {
	&tg_wl_common_table,
	&tg_wl_coll_table,
	NULL,
};

const struct tg_wl_kind tg_wl_collective_kind = {
	.kind = { "collective", "an all-reduce, all-gather, reduce-scatter, broadcast or all-to-all among ranks, over a sweep of sizes", &tg_wl_coll_table, sizeof(struct tg_wl_coll) },
	.tables = tg_wl_coll_tables,
	.expand = tg_wl_coll_expand,
};
