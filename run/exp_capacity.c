/* Offered load against tier capacity, from the experiment's messages
 * before the run: what each group of switches' hosts offer across the
 * group's uplinks, against their rate; the worst tier gets one line
 * (docs/results.md, "Offered load and tier capacity"). */
#include <errno.h>
#include <stdlib.h>

#include "exp_capacity.h"
#include "units.h"

/* Per sending endpoint: its bytes and its messages' start times. */
struct cap_ep {
	uint64_t bytes;    /* bytes it sends */
	uint64_t first_ps; /* earliest start */
	uint64_t last_ps;  /* latest start */
};

/* The switch at the other end of endpoint @ep's port: its switch index,
 * or UINT32_MAX when none or a scale-up (NVLink) switch. */
static uint32_t cap_edge(const struct topo *t, uint32_t ep)
{
	const struct topo_node *h = &t->nodes[t->eps[ep].node];
	uint32_t l = h->port_links[t->eps[ep].port];
	const struct topo_node *s;

	if (l == TOPO_NO_LINK)
		return UINT32_MAX;
	s = &t->nodes[t->links[l].node[t->links[l].node[0] == t->eps[ep].node ? 1 : 0]];
	return s->kind == TOPO_SWITCH && s->tier < TOPO_TIER_SCALEUP ? s->index : UINT32_MAX;
}

/* Endpoint @ep's link rate, bits/s. */
static uint64_t cap_rate(const struct topo *t, uint32_t ep)
{
	uint32_t l = t->nodes[t->eps[ep].node].port_links[t->eps[ep].port];

	return l == TOPO_NO_LINK ? 0 : t->links[l].rate_bps;
}

static uint32_t cap_find(uint32_t *up, uint32_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

/* A scale-out switch of tier @tier or below. */
static bool cap_below(const struct topo_node *n, unsigned tier)
{
	return n->kind == TOPO_SWITCH && n->tier <= tier;
}

/* Tier @tier: its groups in @up (by switch index), their uplink capacity
 * in @cap; false when it has no uplinks. */
static bool cap_groups(const struct topo *t, unsigned tier, uint32_t *up, double *cap)
{
	bool any = false;

	for (uint32_t i = 0; i < t->n_switches; i++) {
		up[i] = i;
		cap[i] = 0;
	}
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_node *a = &t->nodes[t->links[l].node[0]];
		const struct topo_node *b = &t->nodes[t->links[l].node[1]];

		if (cap_below(a, tier) && cap_below(b, tier))
			up[cap_find(up, a->index)] = cap_find(up, b->index);
	}
	for (uint32_t l = 0; l < t->n_links; l++) {
		const struct topo_node *a = &t->nodes[t->links[l].node[0]];
		const struct topo_node *b = &t->nodes[t->links[l].node[1]];

		if (cap_below(b, tier) && !cap_below(a, tier)) {
			const struct topo_node *x = a;

			a = b;
			b = x;
		}
		if (cap_below(a, tier) && b->kind == TOPO_SWITCH && b->tier > tier &&
		    b->tier < TOPO_TIER_SCALEUP) {
			cap[cap_find(up, a->index)] += (double)t->links[l].rate_bps;
			any = true;
		}
	}
	return any;
}

/* Every transfer of @e as a message: the listed ones, and those streamed
 * collectives make as they run (traffic/tg.h, struct tg_stream), each
 * edge of a stream as one message of all its bytes. Calls @fn(@arg,
 * message) for each. */
static void cap_each(const struct exp *e, void (*fn)(void *arg, const struct tg_msg *m), void *arg)
{
	for (uint32_t i = 0; i < e->n_msgs; i++)
		fn(arg, &e->msgs[i]);
	for (uint32_t i = 0; i < e->graph.n_streams; i++) {
		const struct tg_stream *s = &e->graph.streams[i];
		struct tg_msg m = s->proto;

		for (uint32_t k = 0; k < s->n_edges; k++) {
			if (s->ep[2 * k] == UINT32_MAX)
				continue; /* no message takes it */
			m.src = s->ep[2 * k];
			m.dst = s->ep[2 * k + 1];
			m.bytes = s->ebytes[k];
			fn(arg, &m);
		}
	}
}

/* cap_offered's per-message step: @arg is the endpoints' struct cap_ep. */
static void cap_offer_one(void *arg, const struct tg_msg *m)
{
	struct cap_ep *s = &((struct cap_ep *)arg)[m->op == TG_OP_READ ? m->dst : m->src];

	if (!s->bytes || m->start_ps < s->first_ps)
		s->first_ps = m->start_ps;
	if (m->start_ps > s->last_ps)
		s->last_ps = m->start_ps;
	s->bytes += m->bytes;
}

/* What each sending endpoint offers per byte it sends, bits/s, into @w
 * (by endpoint): a message of b bytes from endpoint k offers w[k] x b. */
static int cap_offered(const struct exp *e, double *w)
{
	const struct topo *t = e->topo;
	struct cap_ep *ep = calloc(t->n_eps ? t->n_eps : 1, sizeof(*ep));

	if (!ep)
		return -ENOMEM;
	cap_each(e, cap_offer_one, ep);
	for (uint32_t k = 0; k < t->n_eps; k++) {
		double rate = (double)cap_rate(t, k);

		if (!ep[k].bytes)
			continue;
		if (ep[k].last_ps > ep[k].first_ps) {
			double spread = (double)ep[k].bytes * 8 /
					units_ps_to_s(ep[k].last_ps - ep[k].first_ps);

			rate = spread < rate ? spread : rate;
		}
		w[k] = rate / (double)ep[k].bytes;
	}
	free(ep);
	return 0;
}

/* cap_tier's per-message step. */
struct cap_load {
	const struct topo *t;
	const double *w;     /* offered bits/s per byte, by sending endpoint */
	uint32_t *up;        /* group of each switch */
	double *load;        /* out of, into each group, bits/s */
};

static void cap_load_one(void *arg, const struct tg_msg *m)
{
	struct cap_load *c = arg;
	uint32_t k = m->op == TG_OP_READ ? m->dst : m->src;
	uint32_t a = cap_edge(c->t, m->src), b = cap_edge(c->t, m->dst);

	if (a == UINT32_MAX || b == UINT32_MAX || a == b)
		return;
	a = cap_find(c->up, a);
	b = cap_find(c->up, b);
	if (a == b)
		return;
	if (m->op == TG_OP_READ) {
		uint32_t x = a;

		a = b;
		b = x;
	}
	c->load[2 * a] += c->w[k] * (double)m->bytes;     /* out of a's group */
	c->load[2 * b + 1] += c->w[k] * (double)m->bytes; /* into b's */
}

/* Tier @tier's worst group into @out (when worse than it holds). */
static void cap_tier(const struct exp *e, unsigned tier, const double *w, uint32_t *up,
		     double *cap, double *load, struct exp_capacity *out)
{
	const struct topo *t = e->topo;

	if (!cap_groups(t, tier, up, cap))
		return;
	for (uint32_t i = 0; i < 2 * t->n_switches; i++)
		load[i] = 0;
	cap_each(e, cap_load_one, &(struct cap_load){ .t = t, .w = w, .up = up, .load = load });
	for (uint32_t i = 0; i < t->n_switches; i++) {
		double o = load[2 * i] > load[2 * i + 1] ? load[2 * i] : load[2 * i + 1];

		if (up[i] != i || cap[i] <= 0 || o / cap[i] <= out->ratio)
			continue;
		out->ratio = o / cap[i];
		out->tier = tier;
		out->offered_bps = o;
		out->capacity_bps = cap[i];
		out->sw_node = UINT32_MAX;
		for (uint32_t k = 0; k < t->n_switches; k++)
			if (cap_find(up, k) == i && t->nodes[t->switches[k]].tier <= tier) {
				out->sw_node = t->switches[k];
				break;
			}
	}
}

int exp_capacity(const struct exp *e, struct exp_capacity *out)
{
	const struct topo *t = e->topo;
	uint32_t n = t->n_switches ? t->n_switches : 1;
	double *w = calloc(t->n_eps ? t->n_eps : 1, sizeof(*w));
	uint32_t *up = calloc(n, sizeof(*up));
	double *cap = calloc(n, sizeof(*cap)), *load = calloc(2 * (size_t)n, sizeof(*load));
	int rc = -ENOMEM;

	*out = (struct exp_capacity){ 0 };
	if (w && up && cap && load && (rc = cap_offered(e, w)) == 0)
		for (unsigned tier = 1; tier < TOPO_TIER_SCALEUP; tier++)
			cap_tier(e, tier, w, up, cap, load, out);
	free(w);
	free(up);
	free(cap);
	free(load);
	return rc;
}

void exp_capacity_note(const struct exp *e, FILE *out)
{
	const struct cfg_node *topo = cfg_get(cfg_doc_root(e->doc), "topology");
	struct cfg_mark m = topo ? topo->mark : (struct cfg_mark){ e->path, 1, 1 };
	struct exp_capacity c;

	if (exp_capacity(e, &c) != 0 || c.ratio <= 1 + 1e-9 || c.sw_node == UINT32_MAX)
		return;
	fprintf(out,
		"%s:%u:%u: note: the offered load is %.2fx what tier %u's uplinks carry: the hosts under %s%s offer %.1f Gb/s across them, which carry %.1f Gb/s each way\n",
		m.file, m.line, m.col, c.ratio, c.tier, e->topo->nodes[c.sw_node].name,
		c.tier > 1 ? " and the switches of its tier and below joined to it" : "",
		c.offered_bps / 1e9, c.capacity_bps / 1e9);
}
