/* The `training` workload kind: steps of a training job laid out by its
 * parallelism (tensor, pipeline, data and expert parallel, as Megatron-LM
 * arranges them: tensor-parallel groups innermost, then data-parallel
 * replicas, then pipeline stages), as one dependency graph: per pass of a
 * microbatch over a stage, a compute phase on every GPU of it, the stage's
 * tensor-parallel all-reduce (inside its NVLink domain), an expert
 * all-to-all when experts are sharded, the activations sent to the next
 * stage (the gradients back, backward); each stage's passes in the order
 * of its pipeline schedule (tg_train_sched.c); after a stage's last
 * backward and its send, the data-parallel gradient all-reduce (or FSDP's
 * reduce-scatter, with its parameter all-gather before the forward),
 * optionally overlapping that backward. A step starts when the one before
 * has ended. Every node is tagged with its dimension, so the results can
 * say how much of a step the network took on its critical path. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"
#include "tg_coll_int.h"
#include "tg_train_int.h"

enum {
	TG_TRAIN_MAX_STEPS = 1000,
	TG_TRAIN_MAX_MICROBATCHES = 1024,
	TG_TRAIN_MAX_DEGREE = 65536,
	TG_TRAIN_MAX_CHUNKS = 64,
};

/* The stream of workload w is (seed, TG_TRAIN_STREAM + w). */
#define TG_TRAIN_STREAM UINT64_C(0x747261696e000000)


#define TG_TRAIN_OFF(f) offsetof(struct tg_wl_train, f)

static int tg_train_gpus(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_train *p = params;
	int rc;

	if (!p->ctx->topo->gpus.n_nodes) {
		cfg_errorf(err, n, "a training workload runs on GPUs: use a rail-optimised topology");
		return -EINVAL;
	}
	if ((rc = tg_wl_eps(p->ctx->topo, n, &p->gpus, &p->n_gpus, err)) != 0)
		return rc;
	for (uint32_t i = 0; i < p->n_gpus; i++)
		if (p->gpus[i] < p->ctx->topo->n_eps) {
			cfg_errorf(err, n, "gpus: a training workload's ranks are GPUs (nodeN/gpuG), not NIC ports");
			return -EINVAL;
		}
	return 0;
}

static int tg_train_nccl_key(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return tg_nccl_read(n, &((struct tg_wl_train *)params)->nccl, false, err);
}

static int tg_train_dscp(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_train *p = params;

	return tg_wl_dscp(n, &p->dscp, &p->dscp_set, err);
}

/* parallel: {tp, pp, dp, ep}, each 1.. (absent: 1); tp x pp x dp must be
 * the GPUs, ep divide dp. */
static int tg_train_parallel(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "tp", "pp", "dp", "ep", NULL };
	struct tg_wl_train *p = params;
	uint32_t *dst[] = { &p->tp, &p->pp, &p->dp, &p->ep };

	if (cfg_want(n, CFG_MAP, "parallel ({tp, pp, dp, ep})", err) != 0 ||
	    cfg_check_keys(n, keys, err) != 0)
		return -EINVAL;
	for (int i = 0; i < 4; i++) {
		const struct cfg_node *v = cfg_get(n, keys[i]);
		uint64_t x = 1;

		if (v && cfg_u64(v, 1, TG_TRAIN_MAX_DEGREE, &x, err) != 0)
			return -EINVAL;
		*dst[i] = (uint32_t)x;
	}
	if ((uint64_t)p->tp * p->pp * p->dp != p->n_gpus) {
		cfg_errorf(err, n, "tp x pp x dp = %u x %u x %u = %llu, but there are %u GPUs", p->tp,
			   p->pp, p->dp, (unsigned long long)p->tp * p->pp * p->dp, p->n_gpus);
		return -EINVAL;
	}
	if (p->dp % p->ep) {
		cfg_errorf(err, n, "ep (%u) must divide dp (%u): experts are sharded across data-parallel replicas",
			   p->ep, p->dp);
		return -EINVAL;
	}
	return 0;
}

/* stragglers: [{gpu: NAME, factor: F}] (after gpus). */
static int tg_train_stragglers(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_train *p = params;

	int rc = tg_wl_stragglers(p->ctx->topo, n, "gpu", "the workload's GPUs", p->gpus, p->n_gpus,
				  &p->slow, err);

	return rc ? rc : tg_wl_stragglers_fit(n, p->slow, p->n_gpus,
					      p->fwd_ps > p->bwd_ps ? p->fwd_ps : p->bwd_ps, err);
}

static const struct cfg_key tg_train_keys[] = {
	{ "gpus", CFG_KEY_CUSTOM, "all", .read = tg_train_gpus,
	  .doc = "all (every GPU) or a list of names and patterns, in rank order" },
	{ "parallel", CFG_KEY_CUSTOM, "{}", .read = tg_train_parallel,
	  .doc = "{tp, pp, dp, ep}: the degrees, tp x pp x dp = the GPUs, ep dividing dp" },
	{ "steps", CFG_KEY_UINT, "1", .off = TG_TRAIN_OFF(steps), .size = 4, .min = 1,
	  .max = TG_TRAIN_MAX_STEPS, .doc = "training steps, one after the other" },
	{ "microbatches", CFG_KEY_UINT, "1", .off = TG_TRAIN_OFF(microbatches), .size = 4, .min = 1,
	  .max = TG_TRAIN_MAX_MICROBATCHES, .doc = "microbatches per step (the pipeline's)" },
	/* absent (not written out, as before they were): gpipe, 1 */
	{ "schedule", CFG_KEY_ENUM, NULL, .off = TG_TRAIN_OFF(schedule), .names = tg_train_sched_names,
	  .doc = "the pipeline's order of passes: gpipe, 1f1b or interleaved; absent: gpipe" },
	{ "chunks", CFG_KEY_UINT, NULL, .off = TG_TRAIN_OFF(chunks), .size = 4, .min = 1,
	  .max = TG_TRAIN_MAX_CHUNKS, .doc = "virtual stages a device holds (interleaved only); absent: 1" },
	{ "forward", CFG_KEY_TIME, "0ns", .off = TG_TRAIN_OFF(fwd_ps),
	  .doc = "forward compute of one microbatch on one stage" },
	{ "backward", CFG_KEY_TIME, "0ns", .off = TG_TRAIN_OFF(bwd_ps),
	  .doc = "backward compute of one microbatch on one stage" },
	{ "tp_bytes", CFG_KEY_SIZE, "0B", .off = TG_TRAIN_OFF(tp_bytes), .size = 8,
	  .max = TG_WL_MAX_MSG_BYTES, .doc = "each tensor-parallel all-reduce (one per pass); 0B: none" },
	{ "pp_bytes", CFG_KEY_SIZE, "0B", .off = TG_TRAIN_OFF(pp_bytes), .size = 8,
	  .max = TG_WL_MAX_MSG_BYTES, .doc = "activations sent to the next stage (gradients back), per microbatch; 0B: free, the stages still wait" },
	{ "dp_bytes", CFG_KEY_SIZE, "0B", .off = TG_TRAIN_OFF(dp_bytes), .size = 8,
	  .max = TG_WL_MAX_MSG_BYTES, .doc = "gradients each GPU reduces with its replicas per step; 0B: none" },
	{ "ep_bytes", CFG_KEY_SIZE, "0B", .off = TG_TRAIN_OFF(ep_bytes), .size = 8,
	  .max = TG_WL_MAX_MSG_BYTES, .doc = "each expert all-to-all, per rank and pass; 0B: none" },
	{ "fsdp", CFG_KEY_BOOL, "false", .off = TG_TRAIN_OFF(fsdp),
	  .doc = "data parallel as FSDP: parameters all-gathered before the forward, gradients reduce-scattered" },
	{ "overlap", CFG_KEY_BOOL, "false", .off = TG_TRAIN_OFF(overlap),
	  .doc = "the gradient reduction starts half way through the last backward" },
	{ "compute_jitter", CFG_KEY_FRACTION, "0%", .off = TG_TRAIN_OFF(jitter), .lo = 0, .hi = 1,
	  .doc = "each compute phase +- this fraction, uniformly (the workload's stream)" },
	{ "stragglers", CFG_KEY_CUSTOM, NULL, .read = tg_train_stragglers,
	  .doc = "slow GPUs: [{gpu: NAME, factor: 1.5}]" },
	{ "start", CFG_KEY_TIME, "0ns", .off = TG_TRAIN_OFF(start_ps),
	  .doc = "the first step starts then" },
	{ "dscp", CFG_KEY_CUSTOM, NULL, .read = tg_train_dscp, .doc = "DSCP of its data; absent: nic.dscp" },
	{ "nccl", CFG_KEY_CUSTOM, NULL, .read = tg_train_nccl_key,
	  .doc = "absent or off (ideal collectives), on, or a map as a collective's nccl key: its collectives as NCCL runs them" },
};

static const struct cfg_table tg_train_table = {
	.section = "traffic",
	.keys = tg_train_keys,
	.n_keys = sizeof(tg_train_keys) / sizeof(tg_train_keys[0]),
};


/* GPU number of (stage s, replica d, tensor rank t): tensor-parallel
 * innermost, then data-parallel, then pipeline (Megatron-LM's order). */
static uint32_t tg_train_gpu(const struct tg_wl_train *p, uint32_t s, uint32_t d, uint32_t t)
{
	return (s * p->dp + d) * p->tp + t;
}

/* Tag the nodes added since @first. */
static void tg_train_tag(struct tg_train *x, uint32_t first, uint8_t tag)
{
	for (uint32_t i = first; i < x->c->graph->n_ops; i++)
		x->c->graph->ops[i].tag = tag;
}

/* The communicator of a group (see tg_train_group), or (TG_TAG_PP) of
 * the pipeline sends from (@s, @d, @t): each its own connections. */
static uint32_t tg_train_comm(const struct tg_wl_train *p, uint8_t tag, uint32_t s, uint32_t d,
			      uint32_t t)
{
	uint32_t tp = p->pp * p->dp, dp = p->pp * p->tp, ep = p->pp * p->tp * (p->dp / p->ep);

	switch (tag) {
	case TG_TAG_TP:
		return 1 + s * p->dp + d;
	case TG_TAG_DP:
		return 1 + tp + s * p->tp + t;
	case TG_TAG_EP:
		return 1 + tp + dp + (s * (p->dp / p->ep) + d / p->ep) * p->tp + t;
	default:
		return 1 + tp + dp + ep + tg_train_gpu(p, s, d, t);
	}
}

/* A compute phase of @dur on GPU @g after its latest node (and the gate).
 * 0 or -ENOMEM. */
static int tg_train_compute(struct tg_train *x, uint32_t g, uint64_t dur)
{
	const struct tg_wl_train *p = x->p;
	double f = p->slow ? p->slow[g] : 1;
	struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = p->gpus[g],
				.start_ps = p->start_ps, .coll = TG_NO_COLL, .tag = TG_TAG_COMPUTE };
	uint32_t dep = x->last[g] != TG_NO_GATE ? x->last[g] : x->gate;

	if (p->jitter > 0)
		f *= 1 + p->jitter * (2 * rng_unit(&x->rng) - 1);
	node.dur_ps = (uint64_t)((double)dur * f + 0.5);
	return tg_graph_add(x->c->graph, &node, dep == TG_NO_GATE ? NULL : &dep, dep == TG_NO_GATE ? 0 : 1,
			    &x->last[g]);
}


/* Collective @kind of @bytes among the @n GPUs @group, each starting after
 * its latest node; then every one of them waits for its end, unless
 * @aside (it runs beside what they do next; the step's end waits for it). */
static int tg_train_coll(struct tg_train *x, const uint32_t *group, uint32_t n, uint8_t kind,
			 uint64_t bytes, uint8_t tag, uint32_t comm, bool aside, char err[CFG_ERR_BYTES])
{
	struct tg_graph *g = x->c->graph;
	uint32_t first = g->n_ops, end, *gate = malloc(sizeof(*gate) * n);
	struct tg_cb b = { .c = x->c, .t = x->c->topo, .proto = x->proto, .n = n, .coll = TG_NO_COLL,
			   .gate = x->gate, .rank_gate = gate, .slice_bytes = 512 * 1024,
			   .kind = kind, .bytes = bytes, .granule = 1,
			   .alg = tg_coll_alg_default(kind) };
	int rc;

	if (!gate)
		return -ENOMEM;
	b.proto.comm = comm;
	for (uint32_t i = 0; i < n; i++) {
		x->ranks[i] = x->p->gpus[group[i]];
		gate[i] = x->last[group[i]];
		if (gate[i] == TG_NO_GATE && x->gate == TG_NO_GATE) {
			/* Nothing before it: a zero-length start node to wait for. */
			struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX,
						.start_ps = x->p->start_ps, .coll = TG_NO_COLL };

			if ((rc = tg_graph_add(g, &node, NULL, 0, &gate[i])) != 0)
				goto out;
		} else if (gate[i] == TG_NO_GATE) {
			gate[i] = x->gate;
		}
	}
	b.ranks = x->ranks;
	b.channels = x->c->topo->gpus.gpus_per_node ? x->c->topo->gpus.gpus_per_node : 1;
	b.first_node = g->n_ops;
	b.islands = x->islands;
	if (n < 2) {
		rc = 0;
		goto out;
	}
	if ((rc = tg_cb_nccl_auto(&b, &x->p->nccl)) != 0)
		goto out;
	/* Streamed where it may (unless its endpoints are not all joined:
	 * listed, for the loader to refuse as ever); each rank's sends wait
	 * for its gate (tg_stream_gated). */
	if (x->stream && b.alg->stream && (b.alg->stream_kinds & (1u << kind)) &&
	    (rc = b.alg->stream(&b)) != -EAGAIN) {
		if (rc != 0)
			goto out;
	} else if ((rc = tg_coll_build(&b, NULL, err)) != 0) {
		goto out;
	}
	if ((rc = tg_graph_join(g, first, &end)) != 0)
		goto out;
	tg_train_tag(x, first, tag);
	for (uint32_t i = 0; i < n && !aside; i++)
		x->last[group[i]] = end;
out:
	free(gate);
	return rc;
}

/* Point-to-point @bytes from GPU @a to GPU @r after @a's latest node: in
 * @id what the receiver's pass waits for (the transfer's arrival; with no
 * bytes, @a's latest node; TG_NO_GATE: nothing). The sender goes on
 * computing once it has posted (the send runs on its own stream); the
 * step's end waits for the transfer. */
static int tg_train_send(struct tg_train *x, uint32_t a, uint32_t r, uint64_t bytes, uint16_t chan,
			 uint32_t *id)
{
	uint32_t pair[2] = { x->p->gpus[a], x->p->gpus[r] }, dep = x->last[a];
	struct tg_cb b = { .c = x->c, .t = x->c->topo, .proto = x->proto, .ranks = pair, .n = 2,
			   .coll = TG_NO_COLL, .gate = x->gate, .granule = 1 };
	int rc;

	uint32_t first = x->c->graph->n_ops;

	b.proto.comm = tg_train_comm(x->p, TG_TAG_PP, 0, 0, a); /* GPU a's pipeline sends */
	*id = dep;
	if (!bytes)
		return 0; /* no data to model: the stage still waits for the one before */
	if (x->p->nccl.on)
		rc = tg_cb_send_nccl(&b, &x->p->nccl, x->comm, bytes, chan, dep, id); /* NCCL's chunks */
	else
		rc = tg_cb_xfer(&b, 0, 1, chan, TG_COLL_NO_RAIL, 0, 0, bytes, TG_STEP_COPY, &dep, dep != TG_NO_GATE,
				id);
	for (uint32_t i = first; rc == 0 && i < x->c->graph->n_ops; i++)
		x->c->graph->ops[i].tag = TG_TAG_PP;
	return rc;
}

/* GPU @r's next work waits for @id (tg_train_send's) as well as for its
 * own latest node. */
static int tg_train_recv(struct tg_train *x, uint32_t r, uint32_t id)
{
	struct tg_node node = { .kind = TG_NODE_COMPUTE, .part = UINT32_MAX, .coll = TG_NO_COLL };
	uint32_t deps[2] = { id, x->last[r] };

	if (id == TG_NO_GATE)
		return 0;
	return tg_graph_add(x->c->graph, &node, deps, x->last[r] != TG_NO_GATE && x->last[r] != id ? 2 : 1,
			    &x->last[r]);
}

/* The groups of one dimension: for stage @s, the tensor group of replica
 * @d (@t unused), or the data-parallel group of tensor rank @t, or the
 * expert group @k (ep consecutive replicas) of tensor rank @t. */
uint32_t tg_train_group(const struct tg_wl_train *p, uint8_t tag, uint32_t s, uint32_t d, uint32_t t,
			uint32_t *out)
{
	uint32_t n = 0;

	if (tag == TG_TAG_TP)
		for (uint32_t i = 0; i < p->tp; i++)
			out[n++] = tg_train_gpu(p, s, d, i);
	else if (tag == TG_TAG_DP)
		for (uint32_t i = 0; i < p->dp; i++)
			out[n++] = tg_train_gpu(p, s, i, t);
	else
		for (uint32_t i = (d / p->ep) * p->ep; i < (d / p->ep + 1) * p->ep; i++)
			out[n++] = tg_train_gpu(p, s, i, t);
	return n;
}

/* One pass (forward when @fwd) of microbatch @m over stage @s: compute,
 * tensor all-reduce, expert all-to-all; the send to the next stage (the
 * previous one, backward) comes after, from the caller. */
static int tg_train_pass(struct tg_train *x, uint32_t s, bool fwd, uint32_t *grp,
			 char err[CFG_ERR_BYTES])
{
	const struct tg_wl_train *p = x->p;
	int rc = 0;

	for (uint32_t d = 0; d < p->dp && rc == 0; d++)
		for (uint32_t t = 0; t < p->tp && rc == 0; t++)
			rc = tg_train_compute(x, tg_train_gpu(p, s, d, t), fwd ? p->fwd_ps : p->bwd_ps);
	for (uint32_t d = 0; p->tp_bytes && p->tp > 1 && d < p->dp && rc == 0; d++)
		rc = tg_train_coll(x, grp, tg_train_group(p, TG_TAG_TP, s, d, 0, grp), TG_COLL_ALL_REDUCE,
				   p->tp_bytes, TG_TAG_TP, tg_train_comm(p, TG_TAG_TP, s, d, 0), false, err);
	for (uint32_t d = 0; p->ep_bytes && p->ep > 1 && d < p->dp && rc == 0; d += p->ep)
		for (uint32_t t = 0; t < p->tp && rc == 0; t++)
			rc = tg_train_coll(x, grp, tg_train_group(p, TG_TAG_EP, s, d, t, grp),
					   TG_COLL_ALL_TO_ALL, p->ep_bytes, TG_TAG_EP,
					   tg_train_comm(p, TG_TAG_EP, s, d, t), false, err);
	return rc;
}

/* The data-parallel collective @kind of stage @s, every tensor rank's
 * group (@aside: see tg_train_coll). */
static int tg_train_dp(struct tg_train *x, uint32_t s, uint8_t kind, bool aside, uint32_t *grp,
		       char err[CFG_ERR_BYTES])
{
	int rc = 0;

	for (uint32_t t = 0; x->p->dp_bytes && x->p->dp > 1 && t < x->p->tp && rc == 0; t++)
		rc = tg_train_coll(x, grp, tg_train_group(x->p, TG_TAG_DP, s, 0, t, grp), kind,
				   x->p->dp_bytes, TG_TAG_DP, tg_train_comm(x->p, TG_TAG_DP, s, 0, t), aside, err);
	return rc;
}

/* Index of stage @s's pass (@fwd, @chunk, @m) in its schedule. */
static uint32_t tg_train_pos(const struct tg_train *x, uint32_t s, bool fwd, uint32_t chunk, uint32_t m)
{
	const struct tg_wl_train *p = x->p;

	return x->pos[((s * 2 + fwd) * p->chunks + chunk) * p->microbatches + m];
}

/* Done flag of pass (@fwd, virtual stage @vs, @m). */
static uint8_t *tg_train_done(const struct tg_train *x, bool fwd, uint32_t vs, uint32_t m)
{
	return &x->done[((size_t)fwd * x->p->pp * x->p->chunks + vs) * x->p->microbatches + m];
}

/* Can stage @s run its next pass: has what it waits for (the stage
 * before's forward, the stage after's backward) been laid out? */
static bool tg_train_ready(const struct tg_train *x, uint32_t s)
{
	const struct tg_train_op *o = &x->ops[(size_t)s * x->n_per + x->next[s]];
	uint32_t vs = o->chunk * x->p->pp + s, nv = x->p->pp * x->p->chunks;

	if (o->fwd)
		return vs == 0 || *tg_train_done(x, true, vs - 1, o->m);
	return vs + 1 == nv || *tg_train_done(x, false, vs + 1, o->m);
}

/* The last backward of stage @s, with overlap: its first half of compute,
 * then the gradient reduction, running beside the second half and the
 * pass's collectives (which it does not wait for: the tensor and expert
 * exchanges come at the end of the pass, as in every other). */
static int tg_train_overlap(struct tg_train *x, uint32_t s, uint32_t *grp, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_train *p = x->p;
	struct tg_wl_train half = *p;
	int rc = 0;

	for (uint32_t d = 0; d < p->dp && rc == 0; d++)
		for (uint32_t t = 0; t < p->tp && rc == 0; t++)
			rc = tg_train_compute(x, tg_train_gpu(p, s, d, t), p->bwd_ps / 2);
	if (rc == 0)
		rc = tg_train_dp(x, s, p->fsdp ? TG_COLL_REDUCE_SCATTER : TG_COLL_ALL_REDUCE, true, grp, err);
	half.bwd_ps = p->bwd_ps - p->bwd_ps / 2;
	x->p = &half;
	if (rc == 0)
		rc = tg_train_pass(x, s, false, grp, err);
	x->p = (struct tg_wl_train *)p;
	return rc;
}

/* Stage @s's next pass: what arrived for it, its compute and collectives,
 * the send to the next virtual stage (forward; the one before, backward),
 * and after the stage's last backward its gradient reduction, after that
 * send (the stage before waits for the gradients, not for the reduction).
 * A transfer whose receiver runs that pass next joins it at once (every
 * one, in GPipe's order); others wait in arrive for their pass. */
static int tg_train_emit(struct tg_train *x, uint32_t s, uint32_t *grp, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_train *p = x->p;
	uint32_t k = x->next[s], np = x->n_per, P = p->pp;
	const struct tg_train_op *o = &x->ops[(size_t)s * np + k];
	uint32_t vs = o->chunk * P + s, r = o->fwd ? (s + 1) % P : (s + P - 1) % P, kr = 0, id;
	bool last = k + 1 == np, send = o->fwd ? vs + 1 < P * p->chunks : vs > 0;
	int rc = 0;

	for (uint32_t d = 0; d < p->dp && rc == 0; d++)
		for (uint32_t t = 0; t < p->tp && rc == 0; t++) {
			uint32_t g = tg_train_gpu(p, s, d, t);

			rc = tg_train_recv(x, g, x->arrive[(size_t)g * np + k]);
		}
	if (rc == 0)
		rc = last && p->overlap ? tg_train_overlap(x, s, grp, err) : tg_train_pass(x, s, o->fwd, grp, err);
	if (send) /* the receiving pass: the same chunk, or the next (previous) one across the wrap */
		kr = tg_train_pos(x, r, o->fwd, o->fwd ? o->chunk + (s + 1 == P) : o->chunk - (s == 0), o->m);
	for (uint32_t d = 0; send && d < p->dp && rc == 0; d++)
		for (uint32_t t = 0; t < p->tp && rc == 0; t++) {
			uint32_t g = tg_train_gpu(p, r, d, t);

			rc = tg_train_send(x, tg_train_gpu(p, s, d, t), g, p->pp_bytes, o->fwd ? 0 : 1, &id);
			if (rc == 0 && x->next[r] == kr && r != s)
				rc = tg_train_recv(x, g, id);
			else
				x->arrive[(size_t)g * np + kr] = id;
		}
	if (rc == 0 && last && !p->overlap)
		rc = tg_train_dp(x, s, p->fsdp ? TG_COLL_REDUCE_SCATTER : TG_COLL_ALL_REDUCE, false, grp, err);
	*tg_train_done(x, o->fwd, vs, o->m) = 1;
	x->next[s]++;
	return rc;
}

/* One step: each stage's passes in its schedule's order, then (after its
 * last backward) its gradient reduction. The passes are laid out in
 * rounds, a pass once what it waits for is: forwards from the first stage
 * up, then backwards from the last down (GPipe's order: every forward of
 * a microbatch along the stages, then its backwards back). */
static int tg_train_step(struct tg_train *x, uint32_t *grp, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_train *p = x->p;
	size_t left = (size_t)p->pp * x->n_per;
	int rc = 0;

	for (uint32_t i = 0; i < p->n_gpus; i++)
		x->last[i] = TG_NO_GATE;
	for (size_t i = 0; i < (size_t)p->n_gpus * x->n_per; i++)
		x->arrive[i] = TG_NO_GATE;
	memset(x->next, 0, sizeof(*x->next) * p->pp);
	memset(x->done, 0, (size_t)2 * p->pp * p->chunks * p->microbatches);
	for (uint32_t s = 0; p->fsdp && s < p->pp && rc == 0; s++)
		rc = tg_train_dp(x, s, TG_COLL_ALL_GATHER, false, grp, err);
	while (left && rc == 0) {
		size_t before = left;

		for (uint32_t s = 0; s < p->pp && rc == 0; s++)
			if (x->next[s] < x->n_per && x->ops[(size_t)s * x->n_per + x->next[s]].fwd &&
			    tg_train_ready(x, s) && (rc = tg_train_emit(x, s, grp, err)) == 0)
				left--;
		for (uint32_t s = p->pp; s-- > 0 && rc == 0;)
			if (x->next[s] < x->n_per && !x->ops[(size_t)s * x->n_per + x->next[s]].fwd &&
			    tg_train_ready(x, s) && (rc = tg_train_emit(x, s, grp, err)) == 0)
				left--;
		if (rc == 0 && left == before) {
			snprintf(err, CFG_ERR_BYTES, "training: the pipeline schedule is stuck (a bug)");
			return -EINVAL;
		}
	}
	return rc;
}


/* What one step makes, in closed form (tg_train_step): every compute phase
 * (an edge to the GPU's latest node), each collective as its instance
 * (tg_wl_coll_est, every first send also waiting for its rank's compute)
 * with the join after it, each pipeline send (a transfer and the point
 * after it: 3 edges; without bytes only the point), and the step's join;
 * the first step adds a start node per rank of each collective (what a
 * rank with nothing before it waits for). Connections: a ring's per
 * channel and an all-to-all's pairs per group (communicator), a pair of
 * each direction per pipeline send. Streamed (x->stream, decided here:
 * tg_wl_streams on the listed count), an instance is its node, waiting
 * for its ranks' gates, and its join, and the messages counted are the
 * pipeline sends and, per group, the most one instance makes at once. */
static int tg_train_admit(struct tg_train *x, const struct cfg_node *it, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_train *p = x->p;
	uint64_t mb = p->microbatches, pp = p->pp, dp = p->dp, tp = p->tp, gt = pp * dp * tp, v = p->chunks;
	uint64_t sends = 2 * mb * (pp * v - 1) * dp * tp, computes = 2 * mb * v * gt + (p->overlap ? gt : 0);
	const struct {
		bool on;          /* it happens */
		uint8_t kind;     /* enum tg_coll_kind */
		uint32_t n;       /* ranks */
		uint64_t bytes;   /* S */
		uint64_t count;   /* instances per step */
		uint64_t groups;  /* communicators */
	} cs[] = {
		{ p->tp_bytes / v && tp > 1, TG_COLL_ALL_REDUCE, p->tp, p->tp_bytes / v, 2 * mb * v * pp * dp,
		  pp * dp },
		{ p->ep_bytes / v && p->ep > 1, TG_COLL_ALL_TO_ALL, p->ep, p->ep_bytes / v,
		  2 * mb * v * pp * (dp / p->ep) * tp, pp * (dp / p->ep) * tp },
		{ p->dp_bytes && dp > 1, p->fsdp ? TG_COLL_REDUCE_SCATTER : TG_COLL_ALL_REDUCE, p->dp,
		  p->dp_bytes, pp * tp, pp * tp },
		/* FSDP's all-gather: the reduce-scatter's ring, its connections */
		{ p->dp_bytes && dp > 1 && p->fsdp, TG_COLL_ALL_GATHER, p->dp, p->dp_bytes, pp * tp, 0 },
	};
	struct tg_wl_est est = { .steps = p->steps,
				 .lower = "fewer steps, microbatches or ranks, or fewer bytes per collective" };
	uint64_t ops = computes, deps = computes, msgs = 0, start = 0;
	/* Streamed: a node per instance (its messages made when ready, at
	 * most one instance of a group's in flight at once) and its join. */
	uint64_t s_ops = computes, s_deps = computes, s_most = 0;
	bool can = true;
	uint32_t chans = x->c->topo->gpus.gpus_per_node ? x->c->topo->gpus.gpus_per_node : 1;
	/* A pipeline send: its transfers (NCCL's chunks under the model),
	 * then a point after them when there are several, and the receive. */
	uint64_t ch = tg_nccl_p2p_chunks(&p->nccl, p->pp_bytes), s_op = ch + (ch > 1) + 1, s_dep = 2 * ch + (ch > 1 ? ch : 0) + 1;

	uint32_t *grp = p->nccl.on ? malloc(sizeof(*grp) * p->n_gpus) : NULL;
	static const uint8_t tags[] = { TG_TAG_TP, TG_TAG_EP, TG_TAG_DP, TG_TAG_DP };

	if (p->nccl.on && !grp)
		return -ENOMEM;
	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		struct tg_cb b = { .c = x->c, .t = x->c->topo, .n = cs[i].n, .slice_bytes = 512 * 1024,
				   .kind = cs[i].kind, .bytes = cs[i].bytes, .granule = 1,
				   .alg = tg_coll_alg_default(cs[i].kind),
				   .channels = chans };
		struct tg_wl_est one = { 0 };
		int rc;

		if (!cs[i].on)
			continue;
		if ((rc = tg_train_nccl_est(x, tags[i], &b, grp)) != 0) {
			free(grp);
			return rc;
		}
		est.conns = tg_est_add(est.conns, tg_est_mul(cs[i].groups, tg_wl_coll_est(&b, true, &one)));
		one.deps = tg_est_add(one.deps, one.ops); /* the join */
		ops = tg_est_add(ops, tg_est_mul(cs[i].count, tg_est_add(one.ops, 1)));
		deps = tg_est_add(deps, tg_est_mul(cs[i].count, one.deps));
		msgs = tg_est_add(msgs, tg_est_mul(cs[i].count, one.msgs));
		start = tg_est_add(start, tg_est_mul(cs[i].count, cs[i].n));
		if (!b.alg->stream || !(b.alg->stream_kinds & (1u << cs[i].kind)) ||
		    !(one.msgs = b.alg->stream_est(&b)))
			can = false;
		s_ops = tg_est_add(s_ops, tg_est_mul(cs[i].count, 2));
		s_deps = tg_est_add(s_deps, tg_est_mul(cs[i].count, (uint64_t)cs[i].n + 1));
		/* The FSDP all-gather's groups are the reduce-scatter's. */
		s_most = tg_est_add(s_most, tg_est_mul(cs[i].groups ? cs[i].groups : pp * tp, one.msgs));
	}
	free(grp);
	if (p->pp_bytes) {
		msgs = tg_est_add(msgs, tg_est_mul(sends, ch));
		ops = tg_est_add(ops, tg_est_mul(sends, s_op));
		deps = tg_est_add(deps, tg_est_mul(sends, s_dep));
		est.conns = tg_est_add(est.conns, 2 * (v > 1 ? pp : pp - 1) * dp * tp);
	} else {
		ops = tg_est_add(ops, sends);
		deps = tg_est_add(deps, 2 * sends);
	}
	/* Streamed if every collective's algorithm streams it, and the
	 * experiment lets it (tg_wl_streams; the pipeline sends stay
	 * listed). */
	x->stream = can && tg_wl_streams(x->c, tg_est_mul(msgs, p->steps));
	if (x->stream) {
		uint64_t psends = p->pp_bytes ? tg_est_mul(sends, ch) : 0;

		s_ops = tg_est_add(s_ops, p->pp_bytes ? tg_est_mul(sends, s_op) : sends);
		s_deps = tg_est_add(s_deps, p->pp_bytes ? tg_est_mul(sends, s_dep) : 2 * sends);
		ops = s_ops;
		deps = s_deps;
		msgs = psends;
	}
	deps = tg_est_add(deps, ops); /* the step's join */
	ops = tg_est_add(ops, 1);
	est.msgs = tg_est_mul(msgs, p->steps);
	if (x->stream)
		est.msgs = tg_est_add(est.msgs, s_most);
	/* The first step's start nodes: the joins (of theirs and of the step)
	 * wait for them too. */
	est.ops = tg_est_add(tg_est_mul(ops, p->steps), start);
	est.deps = tg_est_add(tg_est_mul(deps, p->steps), 2 * start);
	return tg_wl_admit(x->c, it, "training", &est, false, err);
}

/* Check the schedule against the layout, and lay out every stage's
 * passes (x->ops, x->pos) and the step's scratch: 0, -EINVAL with @err
 * filled, or -ENOMEM. */
static int tg_train_plan(struct tg_train *x, const struct cfg_node *it, char err[CFG_ERR_BYTES])
{
	const struct tg_wl_train *p = x->p;
	const struct cfg_node *at = cfg_get(it, "chunks") ? cfg_get(it, "chunks") : it;
	size_t n;

	if (p->chunks > 1 && p->schedule != TG_TRAIN_INTERLEAVED) {
		cfg_errorf(err, at, "chunks: only the interleaved schedule splits a stage into chunks");
		return -EINVAL;
	}
	at = cfg_get(it, "schedule") ? cfg_get(it, "schedule") : it;
	if (p->schedule == TG_TRAIN_INTERLEAVED && (p->pp < 2 || p->microbatches % p->pp)) {
		cfg_errorf(err, at, "schedule: interleaved wants pp >= 2 and microbatches a multiple of pp "
			   "(%u microbatches, pp %u), as Megatron-LM does", p->microbatches, p->pp);
		return -EINVAL;
	}
	x->n_per = 2 * p->microbatches * p->chunks;
	n = (size_t)p->pp * x->n_per;
	x->ops = malloc(sizeof(*x->ops) * n);
	x->pos = malloc(sizeof(*x->pos) * n);
	x->done = malloc(n);
	x->next = malloc(sizeof(*x->next) * p->pp);
	x->arrive = malloc(sizeof(*x->arrive) * (size_t)p->n_gpus * x->n_per);
	if (!x->ops || !x->pos || !x->done || !x->next || !x->arrive)
		return -ENOMEM;
	for (uint32_t s = 0; s < p->pp; s++) {
		struct tg_train_op *o = &x->ops[(size_t)s * x->n_per];

		tg_train_sched_stage((enum tg_train_sched)p->schedule, p->pp, p->microbatches, p->chunks, s, o);
		for (uint32_t k = 0; k < x->n_per; k++)
			x->pos[((s * 2 + o[k].fwd) * p->chunks + o[k].chunk) * p->microbatches + o[k].m] = k;
	}
	return 0;
}

/* The order partitions take GPU nodes in (run/fabric_par.c): replica by
 * replica, each replica's stages in turn, so that a block of nodes holds
 * whole pipelines (its sends inside, every stage busy in every block, the
 * data-parallel rings crossing blocks at their edges) rather than whole
 * stages, which a pipeline keeps busy at different times. A node takes
 * the key of its first GPU in that order; nodes the job does not use go
 * last. Only with pipeline and data parallelism (else the numbers' order
 * is that order already), and not when another workload set one. */
static int tg_train_gpu_order(const struct tg_wl_train *p, struct tg_wl_ctx *c)
{
	const struct topo *t = c->topo;
	uint32_t n = t->gpus.n_nodes, *key;

	if (p->pp < 2 || p->dp < 2 || !n || !c->gpu_order)
		return 0;
	if (*c->gpu_order) {
		*c->gpu_order_clash = true;
		return 0;
	}
	if (!(key = malloc(sizeof(*key) * n)))
		return -ENOMEM;
	for (uint32_t g = 0; g < n; g++)
		key[g] = UINT32_MAX;
	for (uint32_t s = 0; s < p->pp; s++)
		for (uint32_t d = 0; d < p->dp; d++)
			for (uint32_t r = 0; r < p->tp; r++) {
				/* A rank past the endpoints is GPU (rank - n_eps),
				 * its node that over G (tg_wl_eps). */
				uint32_t gpu = p->gpus[tg_train_gpu(p, s, d, r)], g;

				if (gpu < t->n_eps || !t->gpus.gpus_per_node ||
				    (g = (gpu - t->n_eps) / t->gpus.gpus_per_node) >= n)
					continue;
				if (d * p->pp + s < key[g])
					key[g] = d * p->pp + s;
			}
	*c->gpu_order = key;
	return 0;
}

static int tg_wl_train_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct tg_wl_train p = { .ctx = c };
	const struct cfg_bind bind[] = {
		{ &tg_wl_common_table, &p },
		{ &tg_train_table, &p },
	};
	struct tg_train x = { .p = &p, .c = c, .gate = TG_NO_GATE };
	struct tg_wl_train chunk;     /* p, each pass of one chunk of a stage */
	uint32_t *grp = NULL;
	int rc;

	if ((rc = cfg_schema_read(c->doc, it, "workload", bind, 2, err)) != 0)
		goto out;
	p.chunks = p.chunks ? p.chunks : 1; /* absent: 1 */
	x.proto.op = TG_OP_SEND;
	x.proto.dscp = p.dscp_set ? p.dscp : c->dscp;
	x.proto.workload = c->index;
	x.proto.cc = c->cc;
	x.proto.qp_mode = c->qp_mode;
	x.proto.qps = c->qps;
	x.proto.start_ps = p.start_ps;
	rng_init(&x.rng, c->seed, TG_TRAIN_STREAM + c->index);
	x.last = malloc(sizeof(*x.last) * p.n_gpus);
	x.ranks = malloc(sizeof(*x.ranks) * p.n_gpus);
	grp = malloc(sizeof(*grp) * p.n_gpus);
	if (!x.last || !x.ranks || !grp) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = tg_train_admit(&x, it, err)) != 0 || (rc = tg_train_plan(&x, it, err)) != 0 ||
	    (rc = tg_train_gpu_order(&p, c)) != 0)
		goto out;
	if ((x.stream && topo_ep_islands(c->topo, &x.islands) != 0) ||
	    (p.nccl.on && tg_cb_comm_map(c->topo, p.gpus, p.n_gpus, &x.comm) != 0)) {
		rc = -ENOMEM;
		goto out;
	}
	/* A chunk of v is 1/v of the stage's layers: 1/v of its compute and
	 * of its tensor and expert traffic per pass. */
	chunk = p;
	chunk.fwd_ps /= p.chunks;
	chunk.bwd_ps /= p.chunks;
	chunk.tp_bytes /= p.chunks;
	chunk.ep_bytes /= p.chunks;
	x.p = &chunk;
	for (uint32_t k = 0; k < p.steps && rc == 0; k++) {
		uint32_t first = c->graph->n_ops, end;
		struct tg_step *v;

		if ((rc = tg_train_step(&x, grp, err)) != 0 || (rc = tg_graph_join(c->graph, first, &end)) != 0)
			break;
		if (!(v = realloc(*c->steps, sizeof(*v) * ((size_t)*c->n_steps + 1)))) {
			rc = -ENOMEM;
			break;
		}
		*c->steps = v;
		v[(*c->n_steps)++] = (struct tg_step){ .workload = c->index, .step = k, .first = first,
						       .end = end };
		x.gate = end;
	}
out:
	free(p.gpus);
	free(p.slow);
	free(x.last);
	free(x.ranks);
	free(x.ops);
	free(x.pos);
	free(x.done);
	free(x.next);
	free(x.arrive);
	free(x.islands);
	free(x.comm);
	free(grp);
	return rc;
}

static const struct cfg_table *const tg_wl_train_tables[] = {
	&tg_wl_common_table,
	&tg_train_table,
	NULL,
};

const struct tg_wl_kind tg_wl_training_kind = {
	.kind = { "training", "steps of a data, tensor, pipeline and expert parallel training job", &tg_train_table, sizeof(struct tg_wl_train) },
	.tables = tg_wl_train_tables,
	.expand = tg_wl_train_expand,
};
