/* Folding a module's instances into its totals, and reading a row's value
 * (see metric.h). */
#include <string.h>

#include "metric.h"
#include "units.h"

void metric_fold(const struct metric_table *t, void *acc, const void *inst)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const struct metric *m = &t->m[i];
		uint64_t a, x;

		if (m->get || m->read == METRIC_ONE ||
		    (m->type != METRIC_U64 && m->type != METRIC_PS_NS))
			continue;
		memcpy(&a, (const char *)acc + m->off, sizeof(a));
		memcpy(&x, (const char *)inst + m->off, sizeof(x));
		a = m->read == METRIC_SUM ? a + x : x > a ? x : a;
		memcpy((char *)acc + m->off, &a, sizeof(a));
	}
}

void metric_value(const struct metric *m, const void *stats, const struct metric_ctx *ctx,
		  struct metric_val *v)
{
	const char *at = (const char *)stats + m->off;
	uint64_t u = 0;

	memset(v, 0, sizeof(*v));
	if (m->get) {
		m->get(stats, ctx, v);
		return;
	}
	switch (m->type) {
	case METRIC_U64:
	case METRIC_BOOL:
		memcpy(&u, at, sizeof(u));
		v->u = u;
		break;
	case METRIC_PS_NS:
		memcpy(&u, at, sizeof(u));
		v->d = units_ps_to_ns(u);
		break;
	case METRIC_DBL:
		memcpy(&v->d, at, sizeof(v->d));
		break;
	case METRIC_STR:
		memcpy(&v->s, at, sizeof(v->s));
		break;
	}
}
