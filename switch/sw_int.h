/* Private to switch/: the switch structure shared by the data path (sw.c)
 * the MMU with PFC and the watchdog (sw_mmu.c) and the queue managers'
 * glue (sw_aqm.c). */
#ifndef FAB_SW_INT_H
#define FAB_SW_INT_H

#include "pkt_view.h"
#include "port_pfc.h"
#include "sw.h"

/* Which part of the buffer a frame was admitted to (in its queue tag). */
enum sw_pool {
	SW_POOL_RESERVE,   /* the ingress port/priority's guaranteed bytes */
	SW_POOL_SHARED,    /* the shared pool */
	SW_POOL_HEADROOM,  /* PFC headroom (lossless, after XOFF) */
	SW_POOL_CREDIT,    /* the VL buffer an IB ingress port grants its peer */
};

/* sw_pg.lossless: how a group is kept from losing frames. */
enum {
	SW_PG_LOSSLESS = 1, /* PFC */
	SW_PG_CREDIT = 2,   /* IB credits: the peer sends only what the VL buffer holds */
};

/* The tag a queued frame carries for the MMU (port_enqueue_tag): where it
 * came in, its priority and the part of the buffer it holds; with INT, the
 * record reserved for this hop (SW_TAG_INT...). */
static inline uint32_t sw_tag(uint16_t in_port, uint8_t prio, uint8_t pool)
{
	return (uint32_t)in_port | (uint32_t)prio << 16 | (uint32_t)pool << 19;
}

static inline uint16_t sw_tag_port(uint32_t tag) { return (uint16_t)tag; }
static inline uint8_t sw_tag_prio(uint32_t tag) { return (tag >> 16) & 7; }
static inline uint8_t sw_tag_pool(uint32_t tag) { return (tag >> 19) & 3; }

/* INT bits of a tag: a record was reserved (pkt_int_reserve) and is to be
 * filled at dequeue; the mbuf holds the whole frame (its ICRC follows);
 * the record's offset in the frame (9 bits). */
enum {
	SW_TAG_INT = 1u << 21,
	SW_TAG_INT_WHOLE = 1u << 22,
	SW_TAG_INT_OFF_SHIFT = 23,
};
/* A tag with SW_TAG_INT_WHOLE and not SW_TAG_INT (which INT never makes):
 * the frame holds no buffer any more, nothing to give back when it leaves
 * (an in-network reduction's held packet once its slot's partial sum went
 * up: the aggregation's own memory holds it, sw_agg.c). */
#define SW_TAG_NOBUF ((uint32_t)SW_TAG_INT_WHOLE)
static inline bool sw_tag_holds_buf(uint32_t tag)
{
	return (tag & (SW_TAG_INT | SW_TAG_INT_WHOLE)) != SW_TAG_NOBUF;
}
_Static_assert(PKT_VIEW_MAX_HDR_BYTES < 512, "an INT record's offset fits the tag's 9 bits");

/* Accounting of one ingress port and priority (a "priority group"); 16
 * bytes, so that a port's eight share two cache lines (a buffer is below
 * 4 GiB per group). */
struct sw_pg {
	uint32_t reserve_used;    /* bytes in the reserve */
	uint32_t shared_used;     /* bytes in the shared pool */
	uint32_t headroom_used;   /* bytes in headroom (a credit group: in its VL buffer) */
	uint16_t paused;          /* XOFF sent upstream and not yet XON */
	uint16_t lossless;        /* 0, or SW_PG_LOSSLESS (a PFC priority on a port that
				   * does PFC) or SW_PG_CREDIT (a VL of an IB port) */
};

/* Per-port switch state. */
struct sw_port_x {
	struct sw *sw;                   /* owner (for the refresh event) */
	uint16_t index;                  /* port number */
	uint8_t paused_prio;             /* priorities this port has XOFF'd upstream */
	uint8_t stormed_prio;            /* priorities the watchdog declared stormed */
	uint32_t alpha_q16;              /* dynamic pause threshold of this ingress port
					  * (sw_params_port_alpha of its rate, sw_ready) */
	uint64_t headroom_bytes;         /* per lossless priority */
	uint64_t refresh_ps;             /* armed XOFF refresh, 0 when none */
	struct ev_src refresh_src;       /* its event identity */
	struct sw_port_stats stats;      /* counters */
};
static_assert(sizeof(struct sw_port_x) <= 128, "a switch port's state is two lines at most");

/* Fields read for every packet come first. The forwarding table is
 * compressed twice: it is kept per destination class (endpoints behind the
 * same neighbour, see topo_routes; 128 classes for the 1024 hosts of a k=16
 * fat-tree), through a class map shared by all switches, and classes that
 * leave by the same set of ports share an ECMP group (a k=16 edge switch
 * has 9). So the per-packet lookup reads the shared map, a 2-byte group
 * number and a small table; only the endpoints attached to the switch have
 * rows of their own. */
struct sw {
	/* line 0: buffer accounting */
	uint64_t buffer_used;          /* bytes admitted and not yet sent */
	uint64_t buffer_bytes;         /* buffer size */
	uint64_t shared_used;          /* bytes in the shared pool */
	uint64_t shared_size;          /* buffer less reserves and headroom */
	uint64_t hash_seed;            /* ECMP seed */
	uint32_t n_eps;                /* destinations: endpoints */
	uint32_t reserve_bytes;        /* per ingress port and priority */
	uint64_t xoff_bytes;           /* static pause threshold (p.pfc), 0 = dynamic; the
				        * dynamic one's alpha is per port (sw_port_x) */
	uint8_t lossless_prio;         /* PFC priorities */
	uint8_t ecn_enq_mask;          /* classes that mark, deciding on enqueue */
	uint8_t ecn_deq_mask;          /* classes that mark, deciding on dequeue */
	uint8_t wd_on;                 /* the PFC watchdog runs (p.pfc.wd_detect_ps) */
	uint8_t ecn_switches_only;     /* mark only on ports toward switches (!p.ecn_host_links) */
	/* line 1: tables */
	const uint32_t *ep_class;      /* destination class per endpoint (shared, fib_rows) */
	uint16_t *class_grp;           /* ECMP group per class (empty: attached endpoints) */
	uint32_t *grp_off;             /* group g: grp_ports[grp_off[g] .. grp_off[g + 1]) */
	uint16_t *grp_ports;           /* egress ports of the groups */
	uint64_t *grp_magic;           /* per group: 2^64 / (its port count), rounded up */
	struct port *ports;            /* n_ports */
	struct sw_pg *pgs;             /* PKT_N_PRIO x n_ports (sw_pg), read per packet */
	struct sim *sim;               /* owning simulation */
	/* line 2: attached endpoints, then counters a hop updates first */
	uint16_t *direct_grp;          /* group of attached endpoint direct_lo + i */
	uint32_t direct_lo;            /* first endpoint of that range */
	uint32_t direct_n;             /* its length */
	struct sw_port_x *px;          /* n_ports */
	uint32_t n_paused;             /* priority groups in XOFF */
	uint16_t n_ports;              /* ports */
	uint8_t path_kind;             /* enum sw_path_kind of the policy (p.path) */
	struct sw_stats stats;         /* counters */
	uint8_t dscp_to_prio[64];      /* classification */
	uint8_t prio_to_tc[PKT_N_PRIO]; /* queue per priority */
	struct sw_params p;            /* settings */
	struct sw_path_env path_env;   /* what the path-choice policy sees */
	uint32_t (*path_pick)(struct sw_path_env *env, uint32_t grp, const uint16_t *ports,
			      uint32_t n_ports, uint64_t magic,
			      uint32_t flow_hash); /* the policy's pick (p.path; called only
						    * for kind SW_PATH_CALL) */
	struct ev_src wd_src;          /* watchdog poll identity */
	uint64_t wd_armed_ps;          /* next watchdog poll, 0 when none */
	uint64_t ecn_rng;              /* marking draws (splitmix64 state) */
	uint64_t trim_rng;             /* UET trim_pick's draws (splitmix64 state) */
	uint8_t *aqm_priv;             /* the queue manager's state, aqm_priv_bytes per
				        * egress port (sw_aqm_setup) */
	enum sw_aqm_verdict (*aqm_decide)(void *priv, uint64_t q_bytes, uint64_t now_ps,
					  uint64_t *rng); /* aqm->decide, cached (a stub
							  * that passes where it is NULL) */
	const struct sw_aqm_ops *aqm;  /* the queue manager (p.aqm; NULL there: red) */
	uint32_t aqm_priv_bytes;       /* its state per port (aqm->priv_size) */
	bool aqm_red;                  /* it is red: sw_ecn expands its decision inline */
	uint32_t node;                 /* topology node */
	uint32_t index;                /* switch number */
	struct pkt_int_enc int_enc;    /* INT: how this switch writes its records
				        * (p.int_record, p.int_multi) */
	uint8_t (*port_sl2vl)[SW_IB_N_SL]; /* IB: each egress port's SL-to-VL table
					    * (p.sl2vl unless set: sw_set_port_sl2vl) */
	uint16_t *lft_pick;            /* IB: per endpoint, the index in its group of the
				        * port the routing engine chose (the LFT); NULL
				        * on Ethernet */
	struct sw_agg *agg;            /* in-network reduction groups (sw_agg.c), NULL: none */
	uint16_t (*ibcc_skip)[PKT_IB_N_VL]; /* IB CC: per port and VL, eligible packets
					     * still to skip before the next FECN mark
					     * (sw_ibcc_take); only with p.ib_cc.threshold,
					     * else NULL (a switch port's state stays two
					     * lines) */
};

/* The accounting of ingress port @port and priority @prio. Priority-major:
 * the groups of the one or two priorities a fabric uses sit on a few
 * lines. */
static inline struct sw_pg *sw_pg(struct sw *s, uint16_t port, uint8_t prio)
{
	return &s->pgs[(size_t)prio * s->n_ports + port];
}

/* The outcome of sw_mmu_admit: one of its members is set. */
struct sw_admit {
	uint8_t pool;              /* admitted: the part of the buffer it holds (enum sw_pool) */
	uint8_t drop;              /* dropped: why (enum sw_drop_reason) */
};

/* Admit a frame of @frame_bytes arriving on @in_port with @prio for egress
 * @out queue @tc: returns 0 with @res->pool set, or -ENOBUFS with
 * @res->drop set (a drop, counted by the caller). May send XOFF upstream. */
int sw_mmu_admit(struct sw *s, uint16_t in_port, uint8_t prio, struct port *out, uint8_t tc,
		 uint32_t frame_bytes, struct sw_admit *res);
/* A frame left: give its bytes back; may send XON upstream, or (a frame
 * admitted to SW_POOL_CREDIT) return its blocks to the ingress port's peer
 * (port_credit_release). */
void sw_mmu_release(struct sw *s, uint16_t in_port, uint8_t prio, uint8_t pool, uint32_t bytes);
/* ECN decision on @m queued (or leaving) @p with @q_bytes in its queue:
 * the queue manager's (sw_aqm.c), for a class that marks. */
void sw_ecn(struct sw *s, struct port *p, struct rte_mbuf *m, uint64_t q_bytes);
/* Whether @p is a port of a switch of this layer (else an endpoint's). */
bool sw_port_is_switch(const struct port *p);
/* The queue-manager registry (sw_aqm.c; its section table is read with
 * fabric.ecn, sw_cfg_ecn.c). */
extern struct reg sw_aqm_reg;
/* Resolve @s's queue manager (s->p.aqm) and set up each egress port's
 * state for the fabric-wide settings (rate 0); a manager that never marks
 * clears the marking classes. 0, -ENOMEM or the manager's init error. */
int sw_aqm_setup(struct sw *s);
/* Set up port @i's state again for its link rate @rate_bps (sw_ready):
 * 0, or the manager's error with @err filled ("port N ..."). */
int sw_aqm_port_rate(struct sw *s, uint16_t i, uint64_t rate_bps, char err[CFG_ERR_BYTES]);
void sw_drop(struct sw *s, struct rte_mbuf *m, enum sw_drop_reason r);
/* In-network reduction (sw_agg.c): a data packet arriving on @in_port for
 * endpoint @ep, parsed to its link layer's addresses (@v), which the
 * forwarding sends out @out in queue @tc (Ethernet; IB: the VL is made
 * here for the port it takes) and charges to ingress group @prio. When it
 * is a member's contribution or result of a group here, the reduction
 * takes it: returns 1 (held, sent up, released or dropped); returns 0 for
 * the forwarding to go on with it (any other packet, and a result on its
 * way down after its slot's held packets left). */
int sw_agg_rx(struct sw *s, uint16_t in_port, struct rte_mbuf *m, struct pkt_view *v,
	      uint32_t ep, uint16_t out, uint8_t prio, uint8_t tc);
void sw_agg_free(struct sw *s);
/* The reductions' counters in a switch's result words (sw_result_save):
 * their count (0 without a group), saved and loaded. */
uint32_t sw_agg_result_words(const struct sw *s);
void sw_agg_result_save(const struct sw *s, uint64_t *w);
void sw_agg_result_load(struct sw *s, const uint64_t *w);
/* IB congestion control's congestion point (IBTA A10; sw_ibcc.c): the IB
 * data packet @m (@frame_bytes long, VCRC included) is being queued on
 * data VL @vl of egress port @p, @q_bytes frame bytes already queued on
 * that VL ahead of it, and @starved tells whether the VL's credits do not
 * cover its head packet now (pkt_ib_fc_may_send false: the port/VL is held
 * back by the next hop, a victim rather than a root). When the port/VL is
 * congested and @m is eligible (sw_ibcc_eligible) and not yet marked,
 * every (marking_rate + 1)-th such packet gets FECN (pkt_ll_mark_ce, which
 * rewrites the VCRC) and counts in fecn_marked. Only for ports of link
 * layer PKT_LL_IB and when s->p.ib_cc.threshold != 0 (a caller may test
 * that first); never for flow-control packets. */
void sw_ibcc_mark(struct sw *s, struct port *p, struct rte_mbuf *m, uint8_t vl,
		  uint32_t frame_bytes, uint64_t q_bytes, bool starved);

/* The ECMP group toward endpoint @ep (< n_eps): its class's, or, for an
 * endpoint attached here, its own row's. Sets *@g and *@o (its first
 * port in grp_ports) and returns its port count (0: unreachable). Inline
 * in both data paths (sw.c, sw_ib.c). */
static inline __attribute__((always_inline)) uint32_t sw_ep_grp(const struct sw *s, uint32_t ep,
								 uint32_t *g, uint32_t *o)
{
	uint32_t n;

	*g = s->class_grp[s->ep_class[ep]];
	*o = s->grp_off[*g];
	n = s->grp_off[*g + 1] - *o;
	if (n == 0) {
		/* An endpoint attached here (or none that can be reached). */
		uint32_t i = ep - s->direct_lo;

		*g = i < s->direct_n ? s->direct_grp[i] : *g;
		*o = s->grp_off[*g];
		n = s->grp_off[*g + 1] - *o;
	}
	return n;
}

/* Is @s on native InfiniBand (its ports' link layer)? */
static inline bool sw_on_ib(const struct sw *s)
{
	return s->p.ll && s->p.ll->kind == PKT_LL_IB;
}

/* The per-endpoint picks of routing engine @engine (enum sw_ib_routing)
 * for a switch of topology tier @tier, forwarding by the groups @grp_off /
 * @class_grp / @direct_grp of @fib's endpoints (sw.c's tables being
 * built): *@out gets n_eps indices into each endpoint's group (0 where it
 * has one port or none). Returns 0 or -ENOMEM. */
int sw_ib_lft_build(uint8_t engine, uint8_t tier, const struct fib_rows *fib,
		    const uint16_t *class_grp, const uint16_t *direct_grp, const uint32_t *grp_off,
		    const uint16_t *grp_ports, uint16_t n_ports, uint16_t **out);
/* The port callbacks of a switch on InfiniBand (sw_ib.c). */
extern const struct port_ops sw_port_ops_ib;
/* ... with in-network reduction (sw_agg_ports). */
extern const struct port_ops sw_port_ops_ib_agg;
/* Give @s's ports the data path with the in-network reduction's work
 * (sw.c; sw_agg_add, at the first group). */
void sw_agg_ports(struct sw *s);

/* The shipped path-choice policies (one file each; registry in sw_path.c). */
extern const struct sw_path_ops sw_path_ecmp_ops;
extern const struct sw_path_ops sw_path_first_ops;
extern const struct sw_path_ops sw_path_spray_ops;
extern const struct sw_path_ops sw_path_rr_ops;
extern const struct sw_path_ops sw_path_flowlet_ops;
extern const struct sw_path_ops sw_path_adaptive_ops;

#endif
