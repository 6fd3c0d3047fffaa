/* "none": no congestion control; the QP sends at the line rate of its port
 * and relies on the fabric (buffers, PFC) alone. No hook but init, so the
 * NIC spends nothing on it per packet. */
#include "cc_int.h"

static int cc_none_init(struct cc_qp *q)
{
	q->rate_bps = q->line_rate_bps;
	q->window_bytes = 0;
	return 0;
}

const struct cc_ops cc_none_ops = {
	.kind = { .name = "none", .doc = "no congestion control: the line rate, and the fabric alone" },
	.init = cc_none_init,
};
