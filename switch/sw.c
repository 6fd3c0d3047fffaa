/* Switch data path: parse, route, path choice, rewrite, admit, queue (see sw.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>

#include "addr.h"
#include "metric.h"
#include "pkt_telemetry.h"
#include "pkt_view.h"
#include "rng.h"
#include "sim.h"
#include "sw_int.h"

static const char *const sw_drop_names[SW_DROP_N] = {
	[SW_DROP_BUFFER] = "buffer",
	[SW_DROP_NO_ROUTE] = "no_route",
	[SW_DROP_TTL] = "ttl",
	[SW_DROP_PARSE] = "parse",
	[SW_DROP_THRESHOLD] = "threshold",
	[SW_DROP_HEADROOM] = "headroom",
	[SW_DROP_WATCHDOG] = "watchdog",
};

const char *sw_drop_reason_name(enum sw_drop_reason r)
{
	return r < SW_DROP_N ? sw_drop_names[r] : "?";
}

uint32_t sw_ecmp_hash(uint64_t seed, uint32_t src_ip, uint32_t dst_ip, uint8_t proto,
		      uint16_t sport, uint16_t dport)
{
	uint64_t x = seed ^ ((uint64_t)src_ip << 32 | dst_ip);
	uint64_t y = (uint64_t)proto << 32 | (uint64_t)sport << 16 | dport;

	/* Two rounds of a 64-bit finaliser mix every input bit into the result. */
	x ^= y * UINT64_C(0x9e3779b97f4a7c15);
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return (uint32_t)(x >> 32);
}

void sw_drop(struct sw *s, struct rte_mbuf *m, enum sw_drop_reason r)
{
	s->stats.drops[r]++;
	sim_pkt_free(s->sim, m);
}

/* A policy the switch does not expand inline (enum sw_path_kind). Out of
 * line so that sw_rx does not carry the call's setup (callgrind: an
 * inline indirect call cost every hop, not only the choices). */
static __attribute__((noinline)) uint32_t sw_path_call(struct sw *s, uint32_t g, uint32_t o,
							uint32_t n, uint32_t h)
{
	return s->path_pick(&s->path_env, g, &s->grp_ports[o], n, s->grp_magic[g], h);
}

/* INT: make room for this hop's record in data frame @m, in the switch's
 * format (filled by sw_int_fill when it leaves the queue). Returns its tag
 * bits, or 0 when it goes without (counted; a stack of another format
 * counts as no room). */
static __attribute__((noinline)) uint32_t sw_int_reserve(struct sw *s, struct rte_mbuf *m)
{
	struct pkt_int_slot slot;
	int rc = pkt_int_reserve(m, s->int_enc, &slot);

	if (rc == 0)
		return SW_TAG_INT | (slot.whole ? SW_TAG_INT_WHOLE : 0) |
		       (uint32_t)slot.rec_off << SW_TAG_INT_OFF_SHIFT;
	if (rc == -E2BIG)
		s->stats.int_full++;
	else
		s->stats.int_no_room++;
	return 0;
}

/* INT: fill the record reserved in @m (its @tag) as @m leaves @p's queue:
 * now, the bytes @p sent before it, the bytes still queued, the line rate
 * (HPCC's B, ts, txBytes and qLen). */
static __attribute__((noinline)) void sw_int_fill(struct sw *s, struct port *p,
						   struct rte_mbuf *m, uint32_t tag)
{
	const struct pkt_int_slot slot = {
		.rec_off = (uint16_t)(tag >> SW_TAG_INT_OFF_SHIFT),
		.whole = (tag & SW_TAG_INT_WHOLE) != 0,
		.fmt = s->int_enc.fmt,
		.multi = s->int_enc.multi,
	};
	struct pkt_int_hop h = {
		.ts_ps = s->sim->now_ps,
		.tx_bytes = port_tx_bytes(p),
		.rate_bps = port_rate_bps(p),
	};
	uint64_t q = 0;

	for (uint8_t tc = 0; tc < PORT_N_TC; tc++)
		q += port_tc_bytes(p, tc);
	h.qlen_bytes = (uint32_t)RTE_MIN(q, (uint64_t)UINT32_MAX);
	pkt_int_fill(m, &slot, &h);
}

/* Trim @m onto @dscp (pkt_uet_trim) and admit it on that DSCP's class
 * toward @op, as from ingress port @in: true with *@prio, *@tc and *@adm
 * its own and the trim counted (@last: on the last hop); false when it
 * cannot be trimmed or finds no room either (*@adm the refusal). */
static bool sw_trim_admit(struct sw *s, uint16_t in, struct rte_mbuf *m, struct port *op,
			  uint8_t dscp, bool last, uint8_t *prio, uint8_t *tc, struct sw_admit *adm)
{
	if (pkt_uet_trim(m, s->p.uet_trim_bytes, dscp) != 0)
		return false;
	*prio = s->dscp_to_prio[dscp];
	*tc = s->prio_to_tc[*prio];
	if (sw_mmu_admit(s, in, *prio, op, *tc, pkt_meta(m)->frame_bytes, adm) != 0)
		return false;
	s->stats.trims++;
	s->stats.trims_last += last;
	return true;
}

/* Whether the MMU refused a frame for want of room (what trimming makes). */
static inline bool sw_refused_room(const struct sw_admit *adm)
{
	return adm->drop == SW_DROP_BUFFER || adm->drop == SW_DROP_THRESHOLD;
}

/* uet_trim_pick 1 (uet-htsim's CompositeQueue): on a draw of one in two,
 * the data frame queued last on class @tc of @op is trimmed (DSCP @dscp)
 * and queued again on the trimmed class, as if it had arrived so, or
 * dropped when that finds no room either. Returns whether it was (room
 * made for the arriving frame). */
static bool sw_trim_queued(struct sw *s, struct port *op, uint8_t tc, uint8_t dscp, bool last)
{
	const struct port_slot *ls = port_last(op, tc);
	struct port_slot sl;
	struct sw_admit adm = { .drop = SW_DROP_BUFFER };
	uint16_t in;
	uint8_t prio, ttc;
	uint32_t tag;

	if (!(rng_splitmix64(&s->trim_rng) & 1) || !ls || pkt_meta(ls->m)->kind != PKT_KIND_DATA ||
	    pkt_meta(ls->m)->frame_bytes <= s->p.uet_trim_bytes)
		return false;
	(void)port_take_last(op, tc, &sl);
	tag = (uint32_t)(sl.aux >> 32);
	in = sw_tag_port(tag);
	sw_mmu_release(s, in, sw_tag_prio(tag), sw_tag_pool(tag), (uint32_t)sl.aux);
	if (!sw_trim_admit(s, in, sl.m, op, dscp, last, &prio, &ttc, &adm)) {
		s->px[op - s->ports].stats.drops[adm.drop]++;
		sw_drop(s, sl.m, (enum sw_drop_reason)adm.drop);
		return true;
	}
	pkt_meta(sl.m)->tc = ttc;
	if (unlikely(s->ecn_enq_mask & (1u << ttc)))
		sw_ecn(s, op, sl.m, port_tc_bytes(op, ttc));
	port_enqueue_tag(op, sl.m, ttc, pkt_meta(sl.m)->frame_bytes, sw_tag(in, prio, adm.pool));
	return true;
}

/* UET (sw_params.uet_trim_bytes): a data frame the MMU refused for want
 * of buffer (@adm's reason) is trimmed instead (pkt_uet_trim: its headers
 * kept, its payload cut, the trimmed DSCP, or the last-hop one when @op
 * leads to an endpoint rather than a switch, as UET's DSCP_TRIMMED and
 * DSCP_TRIMMED_LASTHOP) and offered again on that DSCP's class, toward
 * the same port; or, with uet_trim_pick, the frame queued last may be
 * trimmed in its place (sw_trim_queued), and it is offered again whole.
 * Returns whether it was admitted, with *@prio, *@tc and *@adm those of
 * the frame to queue (by the caller as any admitted frame); false with
 * *@adm the refusal to count (the first when it was not trimmed, else the
 * second). */
static __attribute__((noinline, cold)) bool sw_trim(struct sw *s, uint16_t in_port,
						    struct rte_mbuf *m, struct port *op, uint8_t *prio,
						    uint8_t *tc, struct sw_admit *adm)
{
	bool last = op->peer && !sw_port_is_switch(op->peer);
	uint8_t dscp = last ? s->p.uet_trim_last_dscp : s->p.uet_trim_dscp;

	if (!sw_refused_room(adm))
		return false;
	if (s->p.uet_trim_pick && sw_trim_queued(s, op, *tc, dscp, last) &&
	    sw_mmu_admit(s, in_port, *prio, op, *tc, pkt_meta(m)->frame_bytes, adm) == 0)
		return true;
	return sw_refused_room(adm) && sw_trim_admit(s, in_port, m, op, dscp, last, prio, tc, adm);
}

/* The data path of a frame arriving on @in, with the INT work and the
 * in-network reduction's compiled in or out (@int_on and @agg are
 * constants in each caller: sw_rx, sw_rx_int, sw_rx_agg, sw_rx_int_agg),
 * so that switches without them run exactly the code they ran before. */
static inline __attribute__((always_inline)) void sw_rx_body(void *owner, struct port *in,
							      struct rte_mbuf *m, bool int_on, bool agg)
{
	struct sw *s = owner;
	struct pkt_meta *pm = pkt_meta(m);
	uint8_t *d = pkt_data(m);
	/* From the port's address: its fields are on lines a hop leaves alone. */
	uint16_t in_port = (uint16_t)(in - s->ports);
	uint32_t dst, ep, g, o, n, pick;
	struct pkt_view v;
	struct port *op;
	struct sw_admit adm;
	uint32_t int_tag = 0;
	uint8_t *ip, tc, prio;
	uint16_t out;

	s->stats.rx_pkts++;
	/* Frames hold their headers (the builders write them; captures may
	 * truncate payload only), so the metadata's length bounds them. Only
	 * the first stage: a hop needs nothing of the transport. */
	if (unlikely(pkt_view_l3(&v, port_ll_kind(in), d, pm->frame_bytes) != 0)) {
		sw_drop(s, m, SW_DROP_PARSE);
		return;
	}
	ip = d + v.l3_off;
	dst = v.dst;
	ep = addr_ip_ep(dst);
	if (unlikely(ep >= s->n_eps)) {
		sw_drop(s, m, SW_DROP_NO_ROUTE);
		return;
	}
	n = sw_ep_grp(s, ep, &g, &o);
	if (unlikely(n == 0)) {
		sw_drop(s, m, SW_DROP_NO_ROUTE);
		return;
	}
	pick = 0;
	if (n > 1) {
		/* A choice to make: the flow hash, then the policy (see
		 * enum sw_path_kind). */
		uint32_t h;

		if (unlikely(pkt_view_flow(&v, d, pm->frame_bytes) != 0)) {
			sw_drop(s, m, SW_DROP_PARSE);
			return;
		}
		h = sw_ecmp_hash(s->hash_seed, v.src, dst, v.proto, v.sport, v.dport);
		if (likely(s->path_kind == SW_PATH_ECMP))
			pick = sw_mod(h, s->grp_magic[g], n);
		else if (s->path_kind != SW_PATH_FIRST)
			pick = sw_path_call(s, g, o, n, h);
	}
	out = s->grp_ports[o + pick];
	if (unlikely((v.ip6 ? pkt_ip6_hdr_dec_hlim(ip) : pkt_ipv4_hdr_dec_ttl(ip)) == 0)) {
		sw_drop(s, m, SW_DROP_TTL);
		return;
	}
	prio = s->dscp_to_prio[v.cls];
	tc = s->prio_to_tc[prio];
	if (agg && pm->kind == PKT_KIND_DATA && sw_agg_rx(s, in_port, m, &v, ep, out, prio, tc))
		return;
	op = &s->ports[out];
	if (int_on && pm->kind == PKT_KIND_DATA)
		int_tag = sw_int_reserve(s, m);
	if (unlikely(sw_mmu_admit(s, in_port, prio, op, tc, pm->frame_bytes, &adm) != 0) &&
	    !(s->p.uet_trim_bytes && pm->kind == PKT_KIND_DATA &&
	      sw_trim(s, in_port, m, op, &prio, &tc, &adm))) {
		s->px[out].stats.drops[adm.drop]++;
		sw_drop(s, m, (enum sw_drop_reason)adm.drop);
		return;
	}
	memcpy(d, port_l2(op), PORT_L2_BYTES);
	pm->tc = tc;
	s->stats.fwd_pkts++;
	if (unlikely(s->ecn_enq_mask & (1u << tc)))
		sw_ecn(s, op, m, port_tc_bytes(op, tc));
	port_enqueue_tag(op, m, tc, pm->frame_bytes, sw_tag(in_port, prio, adm.pool) | int_tag);
}

/* The data path's copies (port ops): plain, with INT (fabric.int), with
 * in-network reduction groups (sw_agg_add), with both. */
#define SW_RX_COPY(name, int_on, agg) \
	static void name(void *owner, struct port *in, struct rte_mbuf *m) \
	{ \
		sw_rx_body(owner, in, m, int_on, agg); \
	}
SW_RX_COPY(sw_rx, false, false)
SW_RX_COPY(sw_rx_int, true, false)
SW_RX_COPY(sw_rx_agg, false, true)
SW_RX_COPY(sw_rx_int_agg, true, true)

bool sw_port_is_switch(const struct port *p)
{
	return p->ops->rx == sw_rx || p->ops->rx == sw_rx_int || p->ops->rx == sw_rx_agg ||
	       p->ops->rx == sw_rx_int_agg;
}

/* A frame leaves a queue of @p: give its buffer back (with @agg, unless
 * it holds none: SW_TAG_NOBUF), mark it at dequeue, and with @int_on fill
 * its INT record (constants, as in sw_rx_body). */
static inline __attribute__((always_inline)) void
sw_departing_body(void *owner, struct port *p, struct rte_mbuf *m, uint8_t tc,
		  uint32_t frame_bytes, uint32_t tag, bool int_on, bool agg)
{
	struct sw *s = owner;

	if (unlikely(tc == PORT_TC_CTRL))
		return; /* our own PFC frames hold no buffer */
	if (!agg || sw_tag_holds_buf(tag))
		sw_mmu_release(s, sw_tag_port(tag), sw_tag_prio(tag), sw_tag_pool(tag), frame_bytes);
	if (unlikely(s->ecn_deq_mask & (1u << tc)))
		sw_ecn(s, p, m, port_tc_bytes(p, tc));
	if (int_on && (tag & SW_TAG_INT))
		sw_int_fill(s, p, m, tag);
}

#define SW_DEPARTING_COPY(name, int_on, agg) \
	static void name(void *owner, struct port *p, struct rte_mbuf *m, uint8_t tc, \
			 uint32_t frame_bytes, uint32_t tag) \
	{ \
		sw_departing_body(owner, p, m, tc, frame_bytes, tag, int_on, agg); \
	}
SW_DEPARTING_COPY(sw_departing, false, false)
SW_DEPARTING_COPY(sw_departing_int, true, false)
SW_DEPARTING_COPY(sw_departing_agg, false, true)
SW_DEPARTING_COPY(sw_departing_int_agg, true, true)

/* ECMP groups: distinct port lists, found by a hash table on the lists. */
struct sw_grp_build {
	uint32_t slots;        /* hash table size (power of two) */
	uint32_t *table;       /* slot -> group + 1 */
	const uint16_t **list; /* group -> its ports (in the fib) */
	uint32_t *len;         /* group -> how many */
	uint32_t n_grp;        /* groups so far */
	uint32_t n_ports;      /* their ports in all */
};

/* The group of the port list @p[0..@n): an existing one or a new one.
 * Returns it, or -E2BIG past UINT16_MAX groups. */
static int sw_group_of(struct sw_grp_build *b, const uint16_t *p, uint32_t n)
{
	uint64_t x = n;
	uint32_t i;

	for (uint32_t k = 0; k < n; k++)
		x = (x ^ p[k]) * UINT64_C(0x100000001b3);
	for (i = (uint32_t)(x ^ x >> 29) & (b->slots - 1); b->table[i]; i = (i + 1) & (b->slots - 1)) {
		uint32_t g = b->table[i] - 1;

		if (b->len[g] == n && !memcmp(b->list[g], p, n * sizeof(*p)))
			return (int)g;
	}
	if (b->n_grp == UINT16_MAX)
		return -E2BIG;
	b->list[b->n_grp] = p;
	b->len[b->n_grp] = n;
	b->n_ports += n;
	b->table[i] = ++b->n_grp;
	return (int)(b->n_grp - 1);
}

/* The forwarding tables of a switch (struct sw's, which see), built from
 * rows before they replace the switch's own. */
struct sw_fwd {
	uint16_t *class_grp;   /* ECMP group per class */
	uint16_t *direct_grp;  /* group of each attached endpoint */
	uint32_t *grp_off;     /* n_grps + 1 offsets into grp_ports */
	uint16_t *grp_ports;   /* egress ports of the groups */
	uint64_t *grp_magic;   /* per group: 2^64 / (its port count), rounded up */
	uint32_t n_grps;       /* groups */
};

static void sw_fwd_free(struct sw_fwd *f)
{
	free(f->class_grp);
	free(f->direct_grp);
	free(f->grp_off);
	free(f->grp_ports);
	free(f->grp_magic);
	memset(f, 0, sizeof(*f));
}

/* The rows' ports are ports of a switch of @n_ports. */
static bool sw_fib_ports_ok(const struct fib_rows *fib, uint16_t n_ports)
{
	for (uint32_t i = 0; fib->n_classes && i < fib->off[fib->n_classes]; i++)
		if (fib->ports[i] >= n_ports)
			return false;
	for (uint32_t i = 0; fib->direct_n && i < fib->direct_off[fib->direct_n]; i++)
		if (fib->direct_ports[i] >= n_ports)
			return false;
	return true;
}

/* Build the ECMP groups of a switch of @n_ports from the forwarding rows
 * (classes, then attached endpoints) into @out. Returns 0, -EINVAL (a port
 * beyond the switch's), -ENOMEM or -E2BIG; on failure @out holds nothing. */
static int sw_build_groups(const struct fib_rows *fib, uint16_t n_ports, struct sw_fwd *out)
{
	uint32_t rows = fib->n_classes + fib->direct_n;
	struct sw_grp_build b = { .slots = 16 };
	int rc = -ENOMEM, g;

	memset(out, 0, sizeof(*out));
	if (!sw_fib_ports_ok(fib, n_ports))
		return -EINVAL;
	while (b.slots < 2 * rows)
		b.slots *= 2;
	b.table = calloc(b.slots, sizeof(*b.table));
	b.list = malloc(sizeof(*b.list) * (rows + 1));
	b.len = malloc(sizeof(*b.len) * (rows + 1));
	out->class_grp = malloc(sizeof(*out->class_grp) * (fib->n_classes ? fib->n_classes : 1));
	out->direct_grp = malloc(sizeof(*out->direct_grp) * (fib->direct_n ? fib->direct_n : 1));
	if (!b.table || !b.list || !b.len || !out->class_grp || !out->direct_grp)
		goto out;
	for (uint32_t c = 0; c < fib->n_classes; c++) {
		if ((g = sw_group_of(&b, &fib->ports[fib->off[c]], fib->off[c + 1] - fib->off[c])) < 0)
			goto big;
		out->class_grp[c] = (uint16_t)g;
	}
	for (uint32_t i = 0; i < fib->direct_n; i++) {
		uint32_t o = fib->direct_off[i], n = fib->direct_off[i + 1] - o;

		if ((g = sw_group_of(&b, &fib->direct_ports[o], n)) < 0)
			goto big;
		out->direct_grp[i] = (uint16_t)g;
	}
	out->grp_off = malloc(sizeof(*out->grp_off) * (b.n_grp + 1));
	out->grp_ports = malloc(sizeof(*out->grp_ports) * (b.n_ports ? b.n_ports : 1));
	out->grp_magic = malloc(sizeof(*out->grp_magic) * (b.n_grp ? b.n_grp : 1));
	if (!out->grp_off || !out->grp_ports || !out->grp_magic)
		goto out;
	out->grp_off[0] = 0;
	for (uint32_t k = 0; k < b.n_grp; k++) {
		memcpy(&out->grp_ports[out->grp_off[k]], b.list[k], b.len[k] * sizeof(uint16_t));
		out->grp_off[k + 1] = out->grp_off[k] + b.len[k];
		out->grp_magic[k] = b.len[k] ? UINT64_MAX / b.len[k] + 1 : 0;
	}
	out->n_grps = b.n_grp;
	rc = 0;
	goto out;
big:
	rc = -E2BIG;
out:
	free(b.table);
	free(b.list);
	free(b.len);
	if (rc != 0)
		sw_fwd_free(out);
	return rc;
}

/* Forwarding built from rows and not yet in use (sw_fib_prepare): the
 * groups and the policy's per-group state for them. */
struct sw_fib_next {
	struct sw_fwd fwd;           /* groups */
	uint8_t *grp_slots;          /* the policy's per-group state, zeroed; NULL when it
				      * keeps none */
	uint32_t n_eps;              /* destinations */
	const uint32_t *ep_class;    /* their classes (the rows', shared) */
	uint32_t direct_lo;          /* attached endpoints */
	uint32_t direct_n;
	uint16_t *lft_pick;          /* IB: the routing engine's pick per endpoint */
};

int sw_fib_prepare(const struct sw *s, const struct fib_rows *fib, struct sw_fib_next **out)
{
	struct sw_fib_next *n = calloc(1, sizeof(*n));
	int rc;

	*out = NULL;
	if (!n)
		return -ENOMEM;
	if ((rc = sw_build_groups(fib, s->n_ports, &n->fwd)) != 0) {
		free(n);
		return rc;
	}
	if (s->path_env.grp_state_bytes &&
	    !(n->grp_slots = calloc(n->fwd.n_grps ? n->fwd.n_grps : 1, s->path_env.grp_state_bytes))) {
		sw_fib_discard(n);
		return -ENOMEM;
	}
	if (sw_on_ib(s) &&
	    (rc = sw_ib_lft_build(s->p.ib_routing, s->p.tier, fib, n->fwd.class_grp,
				  n->fwd.direct_grp, n->fwd.grp_off, n->fwd.grp_ports, s->n_ports,
				  &n->lft_pick)) != 0) {
		sw_fib_discard(n);
		return rc;
	}
	n->n_eps = fib->n_eps;
	n->ep_class = fib->ep_class;
	n->direct_lo = fib->direct_lo;
	n->direct_n = fib->direct_n;
	*out = n;
	return 0;
}

void sw_fib_commit(struct sw *s, struct sw_fib_next *n)
{
	free(s->class_grp);
	free(s->direct_grp);
	free(s->grp_off);
	free(s->grp_ports);
	free(s->grp_magic);
	free(s->lft_pick);
	s->lft_pick = n->lft_pick;
	s->class_grp = n->fwd.class_grp;
	s->direct_grp = n->fwd.direct_grp;
	s->grp_off = n->fwd.grp_off;
	s->grp_ports = n->fwd.grp_ports;
	s->grp_magic = n->fwd.grp_magic;
	s->n_eps = n->n_eps;
	s->ep_class = n->ep_class;
	s->direct_lo = n->direct_lo;
	s->direct_n = n->direct_n;
	free(s->path_env.grp_slots);
	s->path_env.grp_slots = n->grp_slots;
	s->path_env.n_grps = n->fwd.n_grps;
	free(n);
}

void sw_fib_discard(struct sw_fib_next *n)
{
	if (!n)
		return;
	sw_fwd_free(&n->fwd);
	free(n->grp_slots);
	free(n->lft_pick);
	free(n);
}

/* Forward by @fib from now on: build its groups and the policy's group
 * state, then swap them in and free the old ones. Returns 0 or -errno
 * (sw_build_groups, -ENOMEM), leaving the old ones intact. */
static int sw_fib_apply(struct sw *s, const struct fib_rows *fib)
{
	struct sw_fib_next *n;
	int rc = sw_fib_prepare(s, fib, &n);

	if (rc == 0)
		sw_fib_commit(s, n);
	return rc;
}

int sw_set_fib(struct sw *s, const struct fib_rows *fib)
{
	/* The class map is shared by every switch, so sw_new trusts it; a
	 * replacement is checked (once per call, not per frame). */
	for (uint32_t h = 0; h < fib->n_eps; h++)
		if (fib->ep_class[h] >= fib->n_classes)
			return -EINVAL;
	return sw_fib_apply(s, fib);
}

const struct sw_path_ops *sw_path_for_tier(const struct sw_params *p, uint8_t tier)
{
	if (tier >= 1 && tier <= SW_PATH_N_TIERS && p->path_tier[tier - 1])
		return p->path_tier[tier - 1];
	return p->path;
}

/* Take @ops as the path-choice policy, with the state it keeps (its
 * group slots come with the groups, sw_fib_commit). Returns 0, -EINVAL
 * (no pick) or -ENOMEM. */
static int sw_path_setup(struct sw *s, const struct sw_path_ops *ops)
{
	if (!ops->pick)
		return -EINVAL;
	s->path_kind = ops->expand;
	s->path_pick = ops->pick;
	return sw_path_env_init(&s->path_env, ops, &s->p.path_params, s->ports, s->sim,
				s->hash_seed);
}

static const struct port_ops sw_port_ops = {
	.rx = sw_rx,
	.departing = sw_departing,
};

/* The ports of a switch with INT on: the same path with the INT work. */
static const struct port_ops sw_port_ops_int = {
	.rx = sw_rx_int,
	.departing = sw_departing_int,
};

/* ... and of a switch with in-network reduction groups (sw_agg_ports). */
static const struct port_ops sw_port_ops_agg = {
	.rx = sw_rx_agg,
	.departing = sw_departing_agg,
};

static const struct port_ops sw_port_ops_int_agg = {
	.rx = sw_rx_int_agg,
	.departing = sw_departing_int_agg,
};

void sw_agg_ports(struct sw *s)
{
	const struct port_ops *ops = sw_on_ib(s) ? &sw_port_ops_ib_agg
				     : s->p.int_on ? &sw_port_ops_int_agg : &sw_port_ops_agg;

	for (uint16_t i = 0; i < s->n_ports; i++)
		port_set_owner(&s->ports[i], ops, s);
}

struct sw *sw_new(struct sim *sim, uint32_t node, uint32_t index, uint16_t n_ports,
		  const struct sw_params *p, const struct fib_rows *fib)
{
	struct sw *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ports = aligned_alloc(64, sizeof(*s->ports) * n_ports);
	if (s->ports)
		memset(s->ports, 0, sizeof(*s->ports) * n_ports);
	if (!s->ports) {
		sw_free(s);
		return NULL;
	}
	s->sim = sim;
	s->node = node;
	s->index = index;
	s->n_ports = n_ports;
	s->buffer_bytes = p->buffer_bytes;
	s->hash_seed = p->hash_seed;
	s->ecn_rng = p->hash_seed ^ UINT64_C(0x6563e5a3d1c4b7f1);
	s->trim_rng = p->hash_seed ^ UINT64_C(0x7472696d5f70636b);
	sim_new_src(sim, &s->wd_src);
	s->p = *p;
	if (p->int_record == PKT_INT_FMT_COMPACT)
		s->int_enc = (struct pkt_int_enc){ PKT_INT_FMT_COMPACT,
						   p->int_multi ? p->int_multi : 1 };
	s->reserve_bytes = p->reserve_bytes;
	s->lossless_prio = p->pfc.lossless_prio;
	s->xoff_bytes = p->pfc.xoff_bytes;
	s->wd_on = p->pfc.wd_detect_ps != 0;
	s->ecn_enq_mask = p->ecn_on_enqueue ? p->ecn_tc_mask : 0;
	s->ecn_deq_mask = p->ecn_on_enqueue ? 0 : p->ecn_tc_mask;
	s->ecn_switches_only = p->ecn_tc_mask && !p->ecn_host_links;
	memcpy(s->dscp_to_prio, p->dscp_to_prio, sizeof(s->dscp_to_prio));
	memcpy(s->prio_to_tc, p->prio_to_tc, sizeof(s->prio_to_tc));
	s->px = calloc(n_ports, sizeof(*s->px));
	if (p->ib_cc.threshold &&
	    !(s->ibcc_skip = calloc(n_ports ? n_ports : 1, sizeof(*s->ibcc_skip)))) {
		sw_free(s);
		return NULL;
	}
	if (sw_on_ib(s)) {
		s->port_sl2vl = malloc(sizeof(*s->port_sl2vl) * (n_ports ? n_ports : 1));
		if (!s->port_sl2vl) {
			sw_free(s);
			return NULL;
		}
		for (uint16_t i = 0; i < n_ports; i++)
			memcpy(s->port_sl2vl[i], p->sl2vl, SW_IB_N_SL);
	}
	s->pgs = aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*s->pgs) * PKT_N_PRIO * n_ports, 64));
	if (!s->px || !s->pgs) {
		sw_free(s);
		return NULL;
	}
	if (sw_path_setup(s, p->path ? p->path : &sw_path_ecmp_ops) != 0 ||
	    sw_aqm_setup(s) != 0 || sw_fib_apply(s, fib) != 0) {
		sw_free(s);
		return NULL;
	}
	memset(s->pgs, 0, sizeof(*s->pgs) * PKT_N_PRIO * n_ports);
	for (uint16_t i = 0; i < n_ports; i++) {
		uint8_t mac[6];

		port_init(&s->ports[i], sim,
			  sw_on_ib(s) ? &sw_port_ops_ib : p->int_on ? &sw_port_ops_int : &sw_port_ops,
			  s, node, i);
		if (p->ll)
			port_set_ll(&s->ports[i], p->ll);
		s->ports[i].sched = p->sched;
		s->px[i].sw = s;
		s->px[i].index = i;
		/* The fabric-wide one until sw_ready knows the port's rate (the
		 * queue manager's likewise, sw_aqm_setup). */
		s->px[i].alpha_q16 = p->pfc.alpha_q16;
		for (uint8_t pr = 0; pr < PKT_N_PRIO; pr++)
			sw_pg(s, i, pr)->lossless = (uint16_t)((p->pfc.lossless_prio >> pr) & 1);
		sim_new_src(sim, &s->px[i].refresh_src);
		if (p->pfc.lossless_prio && !sw_on_ib(s) &&
		    port_pfc_enable(&s->ports[i], p->prio_to_tc) != 0) {
			sw_free(s);
			return NULL;
		}
		addr_switch_mac(index, i, mac);
		port_set_macs(&s->ports[i], mac, NULL);
	}
	return s;
}

void sw_set_next_hop_mac(struct sw *s, uint16_t i, const uint8_t mac[6])
{
	port_set_macs(&s->ports[i], NULL, mac);
}

void sw_free(struct sw *s)
{
	if (!s)
		return;
	for (uint16_t i = 0; s->ports && i < s->n_ports; i++)
		port_fini(&s->ports[i]);
	free(s->ports);
	free(s->px);
	free(s->pgs);
	free(s->class_grp);
	free(s->direct_grp);
	free(s->grp_off);
	free(s->grp_magic);
	free(s->grp_ports);
	free(s->lft_pick);
	free(s->port_sl2vl);
	free(s->ibcc_skip);
	sw_agg_free(s);
	sw_path_env_fini(&s->path_env);
	free(s->aqm_priv);
	free(s);
}

struct port *sw_port(struct sw *s, uint16_t i) { return &s->ports[i]; }
uint16_t sw_n_ports(const struct sw *s) { return s->n_ports; }
const struct sw_stats *sw_stats(const struct sw *s) { return &s->stats; }
const struct sw_port_stats *sw_port_stats(const struct sw *s, uint16_t i) { return &s->px[i].stats; }
uint64_t sw_buffer_used(const struct sw *s) { return s->buffer_used; }

#define SW_STATS_WORDS METRIC_WORDS(sizeof(struct sw_stats))
#define SW_PORT_WORDS METRIC_WORDS(sizeof(struct sw_port_stats))

uint32_t sw_result_words(const struct sw *s)
{
	return SW_STATS_WORDS + s->n_ports * SW_PORT_WORDS + sw_agg_result_words(s);
}

void sw_result_save(const struct sw *s, uint64_t *w)
{
	memcpy(w, &s->stats, sizeof(s->stats));
	for (uint16_t i = 0; i < s->n_ports; i++)
		memcpy(w + SW_STATS_WORDS + i * SW_PORT_WORDS, &s->px[i].stats, sizeof(s->px[i].stats));
	sw_agg_result_save(s, w + SW_STATS_WORDS + s->n_ports * SW_PORT_WORDS);
}

void sw_result_load(struct sw *s, const uint64_t *w)
{
	memcpy(&s->stats, w, sizeof(s->stats));
	for (uint16_t i = 0; i < s->n_ports; i++)
		memcpy(&s->px[i].stats, w + SW_STATS_WORDS + i * SW_PORT_WORDS, sizeof(s->px[i].stats));
	sw_agg_result_load(s, w + SW_STATS_WORDS + s->n_ports * SW_PORT_WORDS);
}

void sw_port_mac(uint32_t index, uint16_t i, uint8_t mac[6])
{
	addr_switch_mac(index, i, mac);
}
