/* The pipeline schedules of the `training` workload, each device stage's
 * order of passes: GPipe (Huang et al., NeurIPS 2019), 1F1B (PipeDream-
 * Flush: Narayanan et al., ICML 2021; Megatron-LM's default) and
 * interleaved 1F1B (Narayanan et al., SC 2021, section 2.2.2, as
 * Megatron-LM's forward_backward_pipelining_with_interleaving orders it). */
#include <stddef.h>

#include "tg_train_int.h"

const char *const tg_train_sched_names[] = { "gpipe", "1f1b", "interleaved", NULL };

/* The k-th forward (or backward) pass of a device in the interleaved
 * order: microbatches go in groups of p; each group runs through chunk 0
 * of the device, then chunk 1, ...; backwards through the chunks in
 * reverse. */
static struct tg_train_op tg_train_sched_nth(uint32_t p, uint32_t v, uint32_t k, bool fwd)
{
	uint32_t g = k / (p * v), r = k % (p * v), c = r / p;

	return (struct tg_train_op){ .m = g * p + r % p, .chunk = (uint16_t)(fwd ? c : v - 1 - c),
				     .fwd = fwd };
}

void tg_train_sched_stage(enum tg_train_sched sched, uint32_t p, uint32_t m, uint32_t v, uint32_t s,
			  struct tg_train_op *out)
{
	uint32_t n = 0, total = m * v, warm;

	if (sched == TG_TRAIN_GPIPE) {
		for (uint32_t i = 0; i < m; i++)
			out[n++] = (struct tg_train_op){ .m = i, .fwd = true };
		for (uint32_t i = m; i-- > 0;)
			out[n++] = (struct tg_train_op){ .m = i, .fwd = false };
		return;
	}
	if (sched == TG_TRAIN_1F1B || v == 1) {
		/* p - 1 - s forwards in flight before the first backward: the
		 * last stage runs each backward right after its forward. */
		warm = p - 1 - s < m ? p - 1 - s : m;
	} else if (m == p) {
		warm = total; /* Megatron-LM: every forward first then */
	} else {
		warm = 2 * (p - 1 - s) + (v - 1) * p;
		warm = warm < total ? warm : total;
	}
	for (uint32_t i = 0; i < warm; i++)
		out[n++] = tg_train_sched_nth(p, v, i, true);
	for (uint32_t i = 0; i + warm < total; i++) {
		out[n++] = tg_train_sched_nth(p, v, warm + i, true);
		out[n++] = tg_train_sched_nth(p, v, i, false);
	}
	for (uint32_t i = total - warm; i < total; i++)
		out[n++] = tg_train_sched_nth(p, v, i, false);
}
