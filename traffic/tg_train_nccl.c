/* The `training` workload's collectives under the NCCL model (tg_nccl.h,
 * the workload's nccl key; each instance is tuned by tg_cb_nccl_auto):
 * the estimate's bound on what the tuned instances make. */
#include <errno.h>
#include <stdlib.h>

#include "tg_coll_int.h"
#include "tg_train_int.h"

/* The estimate's slice and channels of collective @b (kind, bytes,
 * ranks' count and channels set) of the groups @tag names under the NCCL
 * model: the least slice and the most channels any group's plan gives
 * (its protocol's step; the tree's two trees a rail), so that the
 * messages counted bound those made, and PXN where any group takes it
 * (the forwarded sends). @grp is scratch of n_gpus. 0 or -ENOMEM. */
int tg_train_nccl_est(struct tg_train *x, uint8_t tag, struct tg_cb *b, uint32_t *grp)
{
	const struct tg_wl_train *p = x->p;
	uint64_t least = b->slice_bytes;
	uint32_t most = b->channels;
	uint32_t d_n = tag == TG_TAG_DP ? 1 : p->dp, d_step = tag == TG_TAG_EP ? p->ep : 1;
	uint32_t t_n = tag == TG_TAG_TP ? 1 : p->tp;

	if (!p->nccl.on)
		return 0;
	for (uint32_t st = 0; st < p->pp; st++)
		for (uint32_t d = 0; d < d_n; d += d_step)
			for (uint32_t t = 0; t < t_n; t++) {
				struct tg_cb one = *b;
				uint32_t n = tg_train_group(p, tag, st, d, t, grp);
				int rc;

				for (uint32_t i = 0; i < n; i++)
					x->ranks[i] = p->gpus[grp[i]];
				one.ranks = x->ranks;
				one.n = n;
				if ((rc = tg_cb_nccl_auto(&one, &p->nccl)) != 0)
					return rc;
				if (one.slice_bytes < least)
					least = one.slice_bytes;
				if (one.channels > most)
					most = one.channels;
				b->nccl.pxn = b->nccl.pxn || one.nccl.pxn;
			}
	/* The tree's shape has more channels (its two trees) but the same
	 * transfers a channel: the most of both bounds the messages. */
	b->slice_bytes = least;
	b->channels = most;
	return 0;
}
