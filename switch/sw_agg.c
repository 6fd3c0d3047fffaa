/* In-network reduction at a switch (SHARP's streaming aggregation on
 * InfiniBand and Ethernet switches, NVLS in an NVLink switch): the
 * switch's part of an aggregation tree. See sw.h (sw_agg_add) for what a
 * group is and how its packets are told apart.
 *
 * Every member of a group sends the same number of packets (its share of
 * the same reduction), in order on a lossless path, so the k-th packet a
 * child port brings is its contribution to slot k. Where the children are
 * the members' own ports, a packet out of PSN order (after a loss) is not
 * counted: it goes to its member unreduced, and its connection recovers
 * as on any path. A contribution is held
 * (in the buffer it was admitted to, so that it counts against the
 * ingress port's pause threshold or credits) until every child has
 * brought slot k; the packets that stay behind when the partial sum goes
 * up are the aggregation's own memory from then on (their buffer and
 * credits are given back). Then at the root all of the slot's packets leave at
 * once, each towards its own member: the reduced data back to every
 * member. Below the root the last one to arrive goes up to the parent
 * alone (the partial sum), and the others wait for it to come back down
 * (the result): on its way down through this switch the slot's held
 * packets leave with it. So every link of the tree carries one packet per
 * slot each way, as an aggregation tree does, and every member's packets
 * come back to it complete and in order (its connection's ACKs are
 * ordinary). Where the frames hold their payload (a data-carrying
 * collective), it is summed as float32 elements: the partial sum goes up
 * in the last part, the root's sum goes back in every part, a result
 * coming down is copied into the parts held for it, each part's ICRC made
 * anew (RoCE; on InfiniBand the data is refused, traffic/tg_coll_innet.c
 * and run/fabric_agg.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "metric.h"
#include "pkt_ib.h"
#include "port_credit.h"
#include "sw_int.h"

/* A held contribution: where it goes when released. */
struct sw_agg_held {
	struct rte_mbuf *m;    /* NULL: none (the slot's partial sum went up) */
	uint32_t tag;          /* the MMU's tag (sw_tag) */
	uint16_t port;         /* egress port it was admitted for */
	uint8_t tc;            /* its queue there */
	uint16_t pay_off;      /* its payload's offset in the frame, */
	uint16_t pay_len;      /* and length when the mbuf holds it (0: not held) */
	uint16_t l3;           /* its IPv4 header's offset (for the ICRC) */
};

/* One group's state at this switch. */
struct sw_agg_grp {
	uint16_t n_child;       /* children */
	uint16_t up_port;       /* parent port, SW_AGG_ROOT at the root */
	uint32_t cap;           /* slots the ring holds (a power of two) */
	uint64_t head;          /* oldest slot still holding packets */
	uint64_t up;            /* below the root: slots whose partial sum went up */
	uint64_t down;          /* below the root: results came down for slots before this */
	uint64_t *arrived;      /* per child: its contributions so far (its next slot) */
	uint16_t *count;        /* per ring slot: contributions held or counted */
	struct sw_agg_held *held; /* cap x n_child: slot s at (s mod cap) x n_child */
	uint16_t *child_of;     /* per port of the switch: its child index, UINT16_MAX none */
	uint32_t *next_psn;     /* with hosts (children are members): per child, the PSN
				 * its next contribution carries (SW_AGG_PSN_NONE: not
				 * seen yet); NULL otherwise */
	struct sw_agg_stats *stats; /* the switch's (struct sw_agg's tot) */
};

enum { SW_AGG_PSN_NONE = UINT32_MAX };

struct sw_agg {
	uint32_t n_grp;
	struct sw_agg_grp *grp;
	uint32_t n_keys;
	uint64_t *keys;         /* sorted: member endpoint << 24 | its QPN */
	uint32_t *key_grp;      /* the group of keys[i] */
	struct sw_agg_stats tot; /* counters of all its groups */
};

enum { SW_AGG_CAP0 = 64 };

static uint64_t sw_agg_key(uint32_t ep, uint32_t qpn)
{
	return (uint64_t)ep << 24 | (qpn & 0xFFFFFF);
}

static void sw_agg_grp_fini(struct sw_agg_grp *g)
{
	for (uint64_t i = 0; g->held && i < (uint64_t)g->cap * g->n_child; i++)
		rte_pktmbuf_free(g->held[i].m);
	free(g->arrived);
	free(g->count);
	free(g->held);
	free(g->child_of);
	free(g->next_psn);
}

void sw_agg_free(struct sw *s)
{
	struct sw_agg *a = s->agg;

	if (!a)
		return;
	for (uint32_t i = 0; i < a->n_grp; i++)
		sw_agg_grp_fini(&a->grp[i]);
	free(a->grp);
	free(a->keys);
	free(a->key_grp);
	free(a);
	s->agg = NULL;
}

static int sw_agg_key_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* Add the members of @sp (group @gi; none in a group here, sw_agg_check)
 * to the sorted key table (at start): 0 or -ENOMEM (the table as it was).
 * The keys are sorted with their groups as (key, group) pairs. */
static int sw_agg_keys_add(struct sw_agg *a, const struct sw_agg_spec *sp, uint32_t gi)
{
	uint32_t n = a->n_keys + sp->n_members;
	uint64_t *pair = malloc(sizeof(*pair) * 2 * n), *k;
	uint32_t *g;

	if (!pair)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		bool old = i < a->n_keys;

		pair[2 * i] = old ? a->keys[i]
				  : sw_agg_key(sp->member_ep[i - a->n_keys], sp->member_qpn[i - a->n_keys]);
		pair[2 * i + 1] = old ? a->key_grp[i] : gi;
	}
	qsort(pair, n, 2 * sizeof(*pair), sw_agg_key_cmp);
	k = realloc(a->keys, sizeof(*k) * n);
	if (k)
		a->keys = k;
	g = k ? realloc(a->key_grp, sizeof(*g) * n) : NULL;
	if (g)
		a->key_grp = g;
	if (!k || !g) {
		free(pair);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		k[i] = pair[2 * i];
		g[i] = (uint32_t)pair[2 * i + 1];
	}
	a->n_keys = n;
	free(pair);
	return 0;
}

/* The group of member (@ep, @qpn), or NULL. */
static struct sw_agg_grp *sw_agg_find(struct sw_agg *a, uint32_t ep, uint32_t qpn)
{
	uint64_t k = sw_agg_key(ep, qpn);
	uint32_t lo = 0, hi = a->n_keys;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (a->keys[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n_keys && a->keys[lo] == k ? &a->grp[a->key_grp[lo]] : NULL;
}

/* @sp names ports of @s, none twice nor the parent's, and members that
 * are in no group of @s yet: 0, -EINVAL or -EEXIST. */
static int sw_agg_check(const struct sw *s, const struct sw_agg_spec *sp)
{
	if (sp->n_child < 1 || sp->n_members == 0 ||
	    (sp->up_port != SW_AGG_ROOT && sp->up_port >= s->n_ports))
		return -EINVAL;
	for (uint16_t c = 0; c < sp->n_child; c++) {
		if (sp->child_ports[c] >= s->n_ports || sp->child_ports[c] == sp->up_port)
			return -EINVAL;
		for (uint16_t k = 0; k < c; k++)
			if (sp->child_ports[k] == sp->child_ports[c])
				return -EINVAL;
	}
	for (uint32_t i = 0; s->agg && i < sp->n_members; i++)
		if (sw_agg_find(s->agg, sp->member_ep[i], sp->member_qpn[i]))
			return -EEXIST;
	return 0;
}

int sw_agg_add(struct sw *s, const struct sw_agg_spec *sp)
{
	struct sw_agg *a = s->agg;
	struct sw_agg_grp g, *v;
	int rc = sw_agg_check(s, sp);

	if (rc != 0)
		return rc;
	if (!a) {
		if (!(a = calloc(1, sizeof(*a))))
			return -ENOMEM;
		s->agg = a;
	}
	g = (struct sw_agg_grp){ .n_child = sp->n_child, .up_port = sp->up_port, .cap = SW_AGG_CAP0,
				 .stats = &a->tot };
	g.arrived = calloc(sp->n_child, sizeof(*g.arrived));
	g.count = calloc(g.cap, sizeof(*g.count));
	g.held = calloc((size_t)g.cap * sp->n_child, sizeof(*g.held));
	g.child_of = malloc(sizeof(*g.child_of) * s->n_ports);
	g.next_psn = sp->hosts ? malloc(sizeof(*g.next_psn) * sp->n_child) : NULL;
	v = realloc(a->grp, sizeof(*v) * (a->n_grp + 1));
	if (v)
		a->grp = v;
	if (!v || !g.arrived || !g.count || !g.held || !g.child_of || (sp->hosts && !g.next_psn)) {
		sw_agg_grp_fini(&g);
		return -ENOMEM;
	}
	memset(g.child_of, 0xFF, sizeof(*g.child_of) * s->n_ports);
	for (uint16_t c = 0; c < sp->n_child; c++) {
		g.child_of[sp->child_ports[c]] = c;
		if (g.next_psn)
			g.next_psn[c] = SW_AGG_PSN_NONE;
	}
	if ((rc = sw_agg_keys_add(a, sp, a->n_grp)) != 0) {
		sw_agg_grp_fini(&g);
		return rc;
	}
	a->grp[a->n_grp++] = g;
	if (a->n_grp == 1)
		sw_agg_ports(s);
	return 0;
}

void sw_agg_totals(const struct sw *s, struct sw_agg_stats *out)
{
	*out = s->agg ? s->agg->tot : (struct sw_agg_stats){ 0 };
}

uint32_t sw_agg_result_words(const struct sw *s)
{
	return s->agg ? METRIC_WORDS(sizeof(s->agg->tot)) : 0;
}

void sw_agg_result_save(const struct sw *s, uint64_t *w)
{
	if (s->agg)
		memcpy(w, &s->agg->tot, sizeof(s->agg->tot));
}

void sw_agg_result_load(struct sw *s, const uint64_t *w)
{
	if (s->agg)
		memcpy(&s->agg->tot, w, sizeof(s->agg->tot));
}

bool sw_class_lossless(const struct sw *s, uint16_t port, uint8_t dscp)
{
	if (port_ll_kind(&s->ports[port]) == PKT_LL_IB)
		return true;
	return s->pgs[(size_t)s->dscp_to_prio[dscp & 63] * s->n_ports + port].lossless != 0;
}

uint32_t sw_agg_groups(const struct sw *s)
{
	return s->agg ? s->agg->n_grp : 0;
}

/* Room in @g's ring for slot @slot: the ring doubles (its slots keep their
 * places modulo the new size) when a child runs that far ahead of the
 * oldest held slot. 0 or -ENOMEM. */
static int sw_agg_room(struct sw_agg_grp *g, uint64_t slot)
{
	uint32_t cap = g->cap, nc;
	uint16_t *count;
	struct sw_agg_held *held;

	if (slot - g->head < cap)
		return 0;
	nc = cap;
	while (slot - g->head >= nc)
		nc *= 2;
	count = calloc(nc, sizeof(*count));
	held = calloc((size_t)nc * g->n_child, sizeof(*held));
	if (!count || !held) {
		free(count);
		free(held);
		return -ENOMEM;
	}
	for (uint64_t s = g->head; s < g->head + cap; s++) {
		count[s & (nc - 1)] = g->count[s & (cap - 1)];
		memcpy(&held[(s & (nc - 1)) * g->n_child], &g->held[(s & (cap - 1)) * g->n_child],
		       sizeof(*held) * g->n_child);
	}
	free(g->count);
	free(g->held);
	g->count = count;
	g->held = held;
	g->cap = nc;
	return 0;
}

/* Queue @m on port @port's class @tc with MMU tag @tag (as sw_rx does). */
static void sw_agg_send(struct sw *s, struct rte_mbuf *m, uint16_t port, uint8_t tc, uint32_t tag)
{
	struct port *op = &s->ports[port];
	uint32_t bytes = pkt_meta(m)->frame_bytes;

	if (unlikely(s->ecn_enq_mask & (1u << tc)) && port_ll_kind(op) != PKT_LL_IB)
		sw_ecn(s, op, m, port_tc_bytes(op, tc));
	port_enqueue_tag(op, m, tc, bytes, tag);
}

/* Where RoCE frame @m (viewed through its BTH by @v) holds its payload,
 * into @h: offset, length and the IPv4 header's offset; length 0 where
 * the mbuf does not hold it (NICs that do not materialise payload), or
 * an INT stack sits before it. */
static void sw_agg_payload(struct rte_mbuf *m, struct pkt_view *v, struct sw_agg_held *h)
{
	const uint8_t *d = pkt_data(m);
	uint32_t off, n;

	h->pay_len = 0;
	if (v->ll != PKT_LL_ROCE || v->ip6 || pkt_view_rest(v, d) != 0 || pkt_view_has_int(v, d))
		return;
	off = pkt_view_payload_off(v, d);
	n = v->payload_bytes;
	if (n == 0 || n % 4 || off + n + PKT_ICRC_BYTES > rte_pktmbuf_data_len(m))
		return;
	h->pay_off = (uint16_t)off;
	h->pay_len = (uint16_t)n;
	h->l3 = v->l3_off;
}

/* The ICRC of @h's frame anew (its payload changed). */
static void sw_agg_icrc(const struct sw_agg_held *h)
{
	uint8_t *ip = pkt_data(h->m) + h->l3;
	uint32_t len = (uint32_t)pkt_get16(ip + 2) - PKT_ICRC_BYTES;
	uint32_t icrc = pkt_icrc(ip, len);

	/* Least-significant byte first, as the NICs write it. */
	for (int i = 0; i < 4; i++)
		ip[len + i] = (uint8_t)(icrc >> (8 * i));
}

/* @to's payload: @from's added to it element by element (float32), or
 * (@add false) replaced by it; nothing where either is not held. */
static void sw_agg_combine(const struct sw_agg_held *to, const struct sw_agg_held *from, bool add)
{
	uint8_t *t = pkt_data(to->m) + to->pay_off;
	const uint8_t *f = pkt_data(from->m) + from->pay_off;
	uint32_t n = to->pay_len < from->pay_len ? to->pay_len : from->pay_len;

	if (!to->pay_len || !from->pay_len)
		return;
	if (!add) {
		memcpy(t, f, n);
		return;
	}
	for (uint32_t i = 0; i < n; i += 4) {
		float a, b;

		memcpy(&a, t + i, 4);
		memcpy(&b, f + i, 4);
		a += b;
		memcpy(t + i, &a, 4);
	}
}

/* Slot @slot's data, with @h its last part: the others' payloads added
 * into it (the partial sum, or at the root the slot's sum, which every
 * held part then carries back). */
static void sw_agg_sum(struct sw_agg_grp *g, uint64_t slot, struct sw_agg_held *last, bool root)
{
	struct sw_agg_held *h = &g->held[(slot & (g->cap - 1)) * g->n_child];

	if (!last->pay_len)
		return;
	for (uint16_t c = 0; c < g->n_child; c++)
		if (h[c].m && &h[c] != last)
			sw_agg_combine(last, &h[c], true);
	sw_agg_icrc(last);
	for (uint16_t c = 0; root && c < g->n_child; c++)
		if (h[c].m && &h[c] != last && h[c].pay_len) {
			sw_agg_combine(&h[c], last, false);
			sw_agg_icrc(&h[c]);
		}
}

/* Slot @slot's result @res (its view @v) coming down: every held part
 * carries its data back. */
static void sw_agg_result(struct sw_agg_grp *g, uint64_t slot, struct rte_mbuf *res, struct pkt_view *v)
{
	struct sw_agg_held *h = &g->held[(slot & (g->cap - 1)) * g->n_child];
	struct sw_agg_held r = { .m = res };

	sw_agg_payload(res, v, &r);
	for (uint16_t c = 0; r.pay_len && c < g->n_child; c++)
		if (h[c].m && h[c].pay_len) {
			sw_agg_combine(&h[c], &r, false);
			sw_agg_icrc(&h[c]);
		}
}

/* Release slot @slot's held packets (each to its own egress). */
static void sw_agg_release(struct sw *s, struct sw_agg_grp *g, uint64_t slot)
{
	struct sw_agg_held *h = &g->held[(slot & (g->cap - 1)) * g->n_child];

	for (uint16_t c = 0; c < g->n_child; c++, h++)
		if (h->m) {
			struct rte_mbuf *m = h->m;

			h->m = NULL;
			sw_agg_send(s, m, h->port, h->tc, h->tag);
		}
	g->count[slot & (g->cap - 1)] = 0;
	g->stats->slots++;
}

int sw_agg_rx(struct sw *s, uint16_t in_port, struct rte_mbuf *m, struct pkt_view *v,
	      uint32_t ep, uint16_t out, uint8_t prio, uint8_t tc)
{
	struct pkt_meta *pm = pkt_meta(m);
	uint8_t *d = pkt_data(m);
	struct sw_agg_grp *g;
	struct sw_agg_held *h;
	struct sw_admit adm;
	uint64_t slot;
	uint16_t c, egress;
	bool ib = v->ll == PKT_LL_IB, last;

	if (pkt_view_flow(v, d, pm->frame_bytes) != 0 || v->src != v->dst ||
	    pkt_view_bth(v, d, pm->frame_bytes) != 0 ||
	    !(g = sw_agg_find(s->agg, ep, v->dest_qp)))
		return 0; /* not a member's: forwarded as any packet */
	c = g->child_of[in_port];
	if (g->up_port != SW_AGG_ROOT && c == UINT16_MAX) {
		/* A slot's result on its way down (on the parent's port, or a
		 * link parallel to it): its held packets leave with it (it
		 * goes on to its own member as any packet). */
		if (g->down >= g->up) {
			g->stats->errors++;
			return 0;
		}
		sw_agg_result(g, g->down, m, v);
		sw_agg_release(s, g, g->down);
		g->down++;
		g->head = g->down;
		return 0;
	}
	if (c == UINT16_MAX)
		return 0; /* the root: not from a child, forwarded as any */
	if (g->next_psn) {
		/* A member's packets in PSN order: one out of turn (a
		 * retransmission after a loss, or a packet after a lost one)
		 * goes to its member unreduced; its connection recovers as on
		 * any path. */
		if (g->next_psn[c] != SW_AGG_PSN_NONE && v->psn != g->next_psn[c]) {
			g->stats->errors++;
			return 0;
		}
		g->next_psn[c] = (v->psn + 1) & 0xFFFFFF;
	}
	slot = g->arrived[c];
	if (sw_agg_room(g, slot) != 0) {
		g->stats->errors++;
		return 0; /* out of memory: it goes on unreduced */
	}
	g->arrived[c]++;
	last = g->count[slot & (g->cap - 1)] + 1 == g->n_child;
	egress = last && g->up_port != SW_AGG_ROOT ? g->up_port : out;
	if (ib) {
		tc = s->port_sl2vl[egress][v->cls & (SW_IB_N_SL - 1)];
		if (tc != (pm->tc & (PKT_N_PRIO - 1)))
			pkt_ib_set_vl(m, tc);
	}
	if (unlikely(sw_mmu_admit(s, in_port, prio, &s->ports[egress], tc, pm->frame_bytes, &adm) != 0)) {
		/* A lossless tree does not get here; a lost contribution
		 * leaves its slot incomplete (counted, never hidden). */
		s->px[egress].stats.drops[adm.drop]++;
		g->stats->errors++;
		if (ib)
			port_credit_release(&s->ports[in_port], pm->tc, pm->frame_bytes);
		sw_drop(s, m, (enum sw_drop_reason)adm.drop);
		return 1;
	}
	if (!ib)
		memcpy(d, port_l2(&s->ports[egress]), PORT_L2_BYTES);
	pm->tc = tc;
	s->stats.fwd_pkts++;
	g->count[slot & (g->cap - 1)]++;
	g->stats->contributions++;
	h = &g->held[(slot & (g->cap - 1)) * g->n_child + c];
	*h = (struct sw_agg_held){ .m = m, .tag = sw_tag(in_port, prio, adm.pool), .port = egress,
				   .tc = tc };
	sw_agg_payload(m, v, h);
	if (!last)
		return 1;
	sw_agg_sum(g, slot, h, g->up_port == SW_AGG_ROOT);
	if (g->up_port == SW_AGG_ROOT) {
		sw_agg_release(s, g, slot);
		g->head = slot + 1;
		return 1;
	}
	/* The partial sum goes up alone; the rest wait for the result, in
	 * the aggregation's memory: the ports' buffer (and an IB port's
	 * credits) they held is given back now. */
	h->m = NULL;
	g->up++;
	sw_agg_send(s, m, egress, tc, sw_tag(in_port, prio, adm.pool));
	h = &g->held[(slot & (g->cap - 1)) * g->n_child];
	for (uint16_t k = 0; k < g->n_child; k++, h++)
		if (h->m) {
			sw_mmu_release(s, sw_tag_port(h->tag), sw_tag_prio(h->tag), sw_tag_pool(h->tag),
				       pkt_meta(h->m)->frame_bytes);
			h->tag = SW_TAG_NOBUF;
		}
	return 1;
}
