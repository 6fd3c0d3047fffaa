/* Traffic, private: the `training` workload's keys and build state
 * (tg_wl_train.c), its pipeline schedules (tg_train_sched.c: the order in
 * which a device stage runs the forward and backward passes of a step's
 * microbatches, and of their chunks when it holds several virtual
 * stages) and the bound its estimate puts on its collectives under the
 * NCCL model (tg_train_nccl.c). */
#ifndef FAB_TG_TRAIN_INT_H
#define FAB_TG_TRAIN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"
#include "tg_coll_int.h"

/* The schedules, in the order of their names (tg_train_sched_names). */
enum tg_train_sched {
	TG_TRAIN_GPIPE,        /* every forward, then every backward (GPipe) */
	TG_TRAIN_1F1B,         /* warm-up, one forward one backward, cool-down */
	TG_TRAIN_INTERLEAVED,  /* 1F1B over v chunks (virtual stages) a device */
};

/* "gpipe", "1f1b", "interleaved", NULL: the key's values. */
extern const char *const tg_train_sched_names[];

/* One pass of a device stage's schedule. */
struct tg_train_op {
	uint32_t m;       /* microbatch, 0.. */
	uint16_t chunk;   /* the device's chunk: virtual stage chunk x P + s */
	bool fwd;         /* forward (else backward) */
};

/* The 2 x @m x @v passes of stage @s of @p in schedule @sched, in order,
 * into @out. With @v chunks each device s holds virtual stages s, s + p,
 * s + 2p, ...; interleaved wants @m a multiple of @p (Megatron-LM's
 * condition), the others @v 1. Every list ends with a backward. */
void tg_train_sched_stage(enum tg_train_sched sched, uint32_t p, uint32_t m, uint32_t v, uint32_t s,
			  struct tg_train_op *out);

/* The workload's keys. */
struct tg_wl_train {
	const struct tg_wl_ctx *ctx;  /* the experiment */
	uint32_t *gpus;               /* participants (malloc'd), in rank order */
	uint32_t n_gpus;              /* their count */
	uint32_t tp, pp, dp, ep;      /* the parallel degrees */
	uint32_t steps;               /* steps, one after the other */
	uint32_t microbatches;        /* per step */
	int schedule;                 /* enum tg_train_sched */
	uint32_t chunks;              /* virtual stages a device (interleaved) */
	uint64_t fwd_ps;              /* forward compute of one microbatch on one stage */
	uint64_t bwd_ps;              /* backward compute */
	uint64_t tp_bytes;            /* each tensor-parallel all-reduce (per pass) */
	uint64_t pp_bytes;            /* activations (and their gradients) between stages */
	uint64_t dp_bytes;            /* gradients each GPU reduces with its replicas per step */
	uint64_t ep_bytes;            /* each expert all-to-all, per rank, per pass */
	bool fsdp;                    /* data parallel as FSDP: all-gather + reduce-scatter */
	bool overlap;                 /* DP reduction starts half way through the last backward */
	double jitter;                /* compute +- this fraction */
	double *slow;                 /* per GPU: its compute's factor (stragglers) */
	uint64_t start_ps;            /* the first step's earliest start */
	uint8_t dscp;                 /* DSCP of its data */
	bool dscp_set;                /* given */
	struct tg_nccl_cfg nccl;      /* the NCCL model of its collectives (tg_nccl.h) */
};

/* Building one workload. */
struct tg_train {
	struct tg_wl_train *p;     /* its keys */
	struct tg_wl_ctx *c;       /* the experiment */
	struct tg_msg proto;       /* its messages' shared fields */
	struct rng rng;            /* compute jitter */
	uint32_t gate;             /* the previous step's end, or TG_NO_GATE */
	uint32_t *last;            /* per GPU: its latest node (what it does next waits for) */
	uint32_t *ranks;           /* scratch: the ranks of one group */
	struct tg_train_op *ops;   /* per stage, its n_per passes in schedule order */
	uint32_t n_per;            /* passes a stage per step: 2 x microbatches x chunks */
	uint32_t *pos;             /* per stage, (fwd, chunk, microbatch): its index in ops */
	uint32_t *next;            /* per stage: its next pass to lay out */
	uint8_t *done;             /* per (fwd, virtual stage, microbatch): laid out */
	uint32_t *arrive;          /* per GPU and pass index: the transfer that pass waits
				    * for, or TG_NO_GATE */
	bool stream;               /* its collectives stream (tg.h, struct tg_stream; each
				    * rank's sends wait for its latest node) */
	uint32_t *islands;         /* with stream: the endpoints' islands (topo.h) */
	uint32_t *comm;            /* under the NCCL model: its GPUs as the pipeline sends'
				    * communicator (tg_cb_comm_map, for PXN); else NULL */
};

/* The GPUs of the group @tag (TG_TAG_TP, TG_TAG_DP, TG_TAG_EP) of GPU
 * (stage @s, replica @d, tensor rank @t) into @out (their numbers in the
 * workload's rank order); returns how many. */
uint32_t tg_train_group(const struct tg_wl_train *p, uint8_t tag, uint32_t s, uint32_t d, uint32_t t,
			uint32_t *out);
/* The estimate's slice and channels of collective @b (kind, bytes, ranks'
 * count and channels set) of the groups @tag names under the NCCL model:
 * the least slice and the most channels any group's tuning gives, so that
 * the messages counted bound those made. @grp is scratch of n_gpus. 0 or
 * -ENOMEM. */
int tg_train_nccl_est(struct tg_train *x, uint8_t tag, struct tg_cb *b, uint32_t *grp);

#endif
