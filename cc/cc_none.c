/* "none": no congestion control; the QP sends at the line rate of its port
 * and relies on the fabric (buffers, later PFC) alone. */
#include "cc_int.h"

struct cc_none {
	uint64_t rate_bps; /* line rate */
};

static int cc_none_init(void *priv, const struct cc_params *p)
{
	struct cc_none *s = priv;

	s->rate_bps = p->line_rate_bps;
	return 0;
}

static uint64_t cc_none_rate(const void *priv)
{
	const struct cc_none *s = priv;

	return s->rate_bps;
}

const struct cc_ops cc_none_ops = {
	.name = "none",
	.priv_size = sizeof(struct cc_none),
	.init = cc_none_init,
	.rate_bps = cc_none_rate,
};
