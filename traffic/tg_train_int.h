/* Traffic, private: the pipeline schedules of the `training` workload
 * (tg_train_sched.c, used by tg_wl_train.c): the order in which a device
 * stage runs the forward and backward passes of a step's microbatches,
 * and of their chunks when it holds several virtual stages. */
#ifndef FAB_TG_TRAIN_INT_H
#define FAB_TG_TRAIN_INT_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
