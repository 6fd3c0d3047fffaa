/* The switch model: an output-queued switch with a shared packet buffer.
 * Ingress parses the real headers (Ethernet, 802.1Q, IPv4), looks the IPv4
 * destination up in tables computed from the topology, picks one of the
 * equal-cost egress ports by its path-choice policy (sw_path.h; by default
 * ECMP on a hash of the 5-tuple, where the RoCEv2 UDP source port is the
 * entropy), rewrites MACs and TTL like an L3 switch, admits the
 * frame into the buffer (the MMU: per ingress port/priority accounting with
 * reserves, a shared pool with dynamic thresholds and PFC headroom for
 * lossless priorities, egress dynamic thresholds for lossy ones), sends
 * PFC XOFF/XON upstream, marks ECN (its queue manager, sw_aqm.h: RED by
 * default) and queues the frame on the egress traffic class its priority
 * maps to. A PFC watchdog breaks pause storms.
 * With INT on, every data packet gets a telemetry record per hop for HPCC
 * (core/pkt_telemetry.h): room reserved when it is queued, filled in when it
 * leaves the queue. */
#ifndef FAB_SW_H
#define FAB_SW_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"
#include "fib.h"
#include "pkt_telemetry.h"
#include "port.h"

struct sim;

enum sw_drop_reason {
	SW_DROP_BUFFER,    /* buffer full (tail drop) */
	SW_DROP_NO_ROUTE,  /* destination not reachable / not in the plan */
	SW_DROP_TTL,       /* TTL expired (routing loop) */
	SW_DROP_PARSE,     /* not a frame the switch forwards */
	SW_DROP_THRESHOLD, /* lossy queue over its dynamic threshold */
	SW_DROP_HEADROOM,  /* lossless: PFC headroom overflowed (too small for the link) */
	SW_DROP_WATCHDOG,  /* dropped by the PFC watchdog on a stormed queue */
	SW_DROP_N,
};

/* Value <-> name, for counters and results. */
const char *sw_drop_reason_name(enum sw_drop_reason r);

#include "sw_aqm.h"
#include "sw_ibcc.h"
#include "sw_path.h"
#include "sw_red.h"

enum {
	SW_Q16 = 65536,   /* 16.16 fixed point one */
	SW_N_RATES = 16,  /* entries of a per-rate table (fabric.ecn.by_rate,
			   * fabric.pfc.alpha_by_rate): Ethernet has 9 rates, 10G..1.6T */
};

/* One fabric.pfc.alpha_by_rate entry: the pause threshold of ingress
 * ports of one link rate. */
struct sw_alpha_rate {
	uint64_t rate_bps;            /* ports whose link runs at exactly this rate */
	uint32_t alpha_q16;           /* their alpha (16.16) */
};

/* One fabric.ecn.by_rate entry: the marking curve of egress ports of one
 * link rate. */
struct sw_red_rate {
	uint64_t rate_bps;            /* ports whose link runs at exactly this rate */
	struct sw_red_params red;     /* their curve */
};

/* Priority flow control and the lossless part of the MMU. */
struct sw_pfc_params {
	uint8_t lossless_prio;        /* priorities under PFC (bit per priority); 0 = off */
	uint64_t headroom_bytes;      /* per port and lossless priority; 0 = from the link */
	uint64_t xoff_bytes;          /* static pause threshold on a PG's shared use; 0 = dynamic */
	uint64_t xon_bytes;           /* static resume threshold (static mode) */
	uint32_t alpha_q16;           /* dynamic threshold: alpha x free shared buffer, on
				       * ports of a rate alpha_by_rate does not list */
	uint8_t n_alpha_by_rate;      /* entries of alpha_by_rate */
	struct sw_alpha_rate alpha_by_rate[SW_N_RATES]; /* per link rate (rates distinct) */
	uint32_t xon_offset_bytes;    /* dynamic: resume this far below the threshold */
	uint16_t quanta;              /* pause time sent with XOFF, 512-bit quanta */
	uint64_t wd_detect_ps;        /* watchdog: paused this long = storm; 0 = off */
	uint64_t wd_restore_ps;       /* watchdog: restore after this long without pauses */
};

/* The InfiniBand routing engines that fill a switch's linear forwarding
 * table (one egress port per destination LID), as a subnet manager does
 * at start-up (OpenSM's engines of the same names). */
enum sw_ib_routing {
	SW_IB_ROUTE_MINHOP, /* among the min-hop ports, the one with the fewest LIDs so far */
	SW_IB_ROUTE_FTREE,  /* fat-tree d-mod-k: digit (tier - 1) of the LID in base n */
	SW_IB_ROUTE_N,
};
/* Names by enum sw_ib_routing ("minhop", "ftree"), NULL-terminated (a
 * constant, so that a config table can name it). */
extern const char *const sw_ib_routing_names[SW_IB_ROUTE_N + 1];

enum { SW_IB_N_SL = 16 /* service levels */ };

struct sw_params {
	const struct pkt_ll *ll;      /* link layer of every port; NULL: pkt_ll_roce. On
				       * InfiniBand (pkt_ll_ib) the switch forwards on the
				       * LRH's DLID, queues on the VL its SL maps to and
				       * holds senders back with credits, not pauses */
	uint8_t ib_routing;           /* IB: the engine filling the forwarding table
				       * (enum sw_ib_routing); used by the static policies
				       * (ecmp, first), the others choose per packet among
				       * the same min-hop ports (IB adaptive routing) */
	uint8_t tier;                 /* topology tier of the switch (1 leaf .. 3 core; 0
				       * unknown): ftree's digit */
	uint8_t sl2vl[SW_IB_N_SL];    /* IB: VL of each SL on every egress port (0..7) */
	uint64_t buffer_bytes;        /* buffer, all ports */
	uint64_t hash_seed;           /* per-switch flow hash seed (also ECN and path-choice
				       * draws) */
	const struct sw_path_ops *path; /* path choice among equal-cost ports (sw_path_find);
					 * NULL: ecmp. Assembly gives each switch its tier's
					 * (sw_path_for_tier) */
	const struct sw_path_ops *path_tier[SW_PATH_N_TIERS]; /* fabric.path.leaf, spine,
					 * core: the policy of tiers 1..3; NULL: path */
	struct sw_path_params path_params; /* the policies' settings */
	uint32_t uet_trim_bytes;      /* UET: a data frame refused for want of buffer is
				       * trimmed to this many bytes (pkt_uet_trim) and
				       * queued again on uet_trim_dscp's class; 0: dropped */
	uint8_t uet_trim_dscp;        /* UET: the DSCP of a trimmed frame */
	uint8_t uet_trim_last_dscp;   /* UET: ... of one trimmed toward an endpoint (the
				       * last hop: DSCP_TRIMMED_LASTHOP) */
	uint8_t uet_trim_pick;        /* UET: 0 the arriving frame is trimmed; 1 half the
				       * time (a draw) the one queued last on its class
				       * instead, and the arriving one takes its room */
	uint8_t dscp_to_prio[64];     /* priority per DSCP (untagged and tagged alike) */
	uint8_t prio_to_tc[8];        /* egress traffic class per priority */
	struct port_sched sched;      /* egress scheduler of every port */
	uint32_t reserve_bytes;       /* guaranteed per ingress port and priority */
	uint32_t egress_alpha_q16;    /* lossy queues: alpha x free shared buffer */
	uint64_t queue_limit_bytes;   /* lossy queues: most frame bytes per egress queue
				       * (port and class), a static cap as a per-port
				       * buffer gives (htsim's queues); 0: none */
	uint32_t max_frame_bytes;     /* largest frame, for automatic headroom */
	struct sw_pfc_params pfc;     /* lossless priorities */
	uint8_t ecn_tc_mask;          /* traffic classes that mark ECN; 0 = off */
	uint8_t ecn_on_enqueue;       /* decide on enqueue (1) or dequeue (0) */
	bool ecn_host_links;          /* mark on ports that lead to endpoints too (else only
				       * toward switches) */
	struct sw_red_params red;     /* marking curve of ports of a rate red_by_rate does
				       * not list (scaled by red_ref_rate_bps if set) */
	uint64_t red_ref_rate_bps;    /* fabric.ecn.reference_rate: red holds at this rate and
				       * scales linearly with a port's rate; 0: no scaling */
	uint8_t n_red_by_rate;        /* entries of red_by_rate */
	bool red_by_rate_only;        /* red_by_rate without a fallback (no top-level kmin and
				       * kmax written, no reference rate): a port of another
				       * rate is an error (sw_params_port_red) */
	struct sw_red_rate red_by_rate[SW_N_RATES]; /* fabric.ecn.by_rate (rates distinct) */
	struct sw_ibcc_params ib_cc;  /* InfiniBand FECN marking (IBTA A10), fabric.ib_cc;
				       * threshold 0: off */
	bool int_on;                  /* HPCC INT: each data packet gets a record at
				       * egress (pkt_telemetry.h) */
	enum pkt_int_fmt int_record;  /* INT: the records' format (fabric.int_record):
				       * full, or compact as the HPCC authors' simulator */
	uint8_t int_multi;            /* INT, compact records: m, their units of tx bytes
				       * (128 m) and queue bytes (80 m) (fabric.int_multi;
				       * 0: 1, the simulator's default) */
	bool committed_on_top;        /* reserves and PFC headroom are added to buffer_bytes
				       * (sw_ready) instead of taken from it: a scale-up
				       * switch, whose PFC stands in for credits */
	const struct sw_aqm_ops *aqm; /* fabric.ecn.aqm: the queue manager deciding the
				       * marks of the ecn_tc_mask classes; NULL: red, whose
				       * settings are red and the fields after it */
	_Alignas(16) unsigned char aqm_settings[SW_AQM_SETTINGS_BYTES]; /* the managers' own
				       * settings (fabric.ecn.<name>), each at its place
				       * (sw_aqm_settings); last, read at setup only */
};

/* The marking curve of an egress port whose link runs at @rate_bps under
 * @p, resolved once per port when the switch is ready (sw_ready): the
 * fabric.ecn.by_rate entry of that rate, else p->red scaled by @rate_bps /
 * p->red_ref_rate_bps when that is set, else p->red. Returns 0, or
 * -ENOENT (*@out untouched) when the entries are all there is
 * (p->red_by_rate_only) and none is for @rate_bps. */
int sw_params_port_red(const struct sw_params *p, uint64_t rate_bps, struct sw_red_params *out);
/* The dynamic pause threshold's alpha (16.16) of an ingress port whose
 * link runs at @rate_bps: its fabric.pfc.alpha_by_rate entry, else
 * p->pfc.alpha_q16. */
uint32_t sw_params_port_alpha(const struct sw_params *p, uint64_t rate_bps);

/* The policy of a switch of topology tier @tier (topo_node.tier: 1 leaf,
 * 2 spine, 3 core) under @p: its tier's override, else p->path. */
const struct sw_path_ops *sw_path_for_tier(const struct sw_params *p, uint8_t tier);

struct cfg_table;

/* The params of a scale-up (NVLink) switch from the fabric's @fabric:
 * the same, lossless on every priority (NVLink's flow control loses
 * nothing; the model stands PFC in for it), with fabric.pfc's thresholds,
 * or its defaults when the fabric has none, and the headroom that stand-in
 * needs on top of the buffer (credits need none): the shared pool is the
 * whole fabric.buffer. 0 or -ENOMEM. */
int sw_params_scaleup(const struct sw_params *fabric, struct sw_params *out);

/* The switch's `fabric:` keys (sw_cfg.c), filling struct sw_params (all
 * but hash_seed and max_frame_bytes, which assembly computes). */
extern const struct cfg_table sw_cfg_fabric_table;

struct sw_stats {
	uint64_t rx_pkts;                 /* frames received */
	uint64_t fwd_pkts;                /* frames admitted and queued */
	uint64_t buffer_peak_bytes;       /* high-water mark of the whole buffer */
	uint64_t ecn_marked;              /* frames marked CE */
	uint64_t fecn_marked;             /* IB frames marked FECN (IB CC, fabric.ib_cc) */
	uint64_t storms;                  /* queues the watchdog declared stormed */
	uint64_t trims;                   /* UET: frames trimmed and queued (not dropped) */
	uint64_t trims_last;              /* UET: of which toward an endpoint (the last hop) */
	uint64_t drops[SW_DROP_N];        /* by reason */
	uint64_t int_full;                /* INT on: data frames forwarded without a
					   * record, their stack full (PKT_INT_MAX_HOPS) */
	uint64_t int_no_room;             /* INT on: likewise, the mbuf or the frame's
					   * length limits had no room for it, or its
					   * stack holds records of another format */
};

/* Per egress port: what the switch did there. */
struct sw_port_stats {
	uint64_t drops[SW_DROP_N];        /* frames dropped toward this port, by reason */
	uint64_t ecn_marked;              /* frames marked CE on this port */
	uint64_t fecn_marked;             /* IB frames marked FECN on this port */
	uint64_t headroom_peak_bytes;     /* most headroom used on this (ingress) port */
};

struct sw;

/* A switch for topology node @node (switch number @index) with @n_ports
 * ports, forwarding by @fib (core/fib.h: the switch keeps a compressed copy
 * of the rows, which may be freed after sw_new, but refers to
 * fib->ep_class, which must outlive it or its replacement by
 * sw_set_fib). Returns NULL on allocation failure or rows naming a port
 * beyond @n_ports. */
struct sw *sw_new(struct sim *sim, uint32_t node, uint32_t index, uint16_t n_ports,
		  const struct sw_params *p, const struct fib_rows *fib);
void sw_free(struct sw *s); /* NULL is fine */

/* In-network reduction (SHARP on InfiniBand and Ethernet switches, NVLS in
 * an NVLink switch; sw_agg.c): the switch's node of an aggregation tree.
 * A group's members are connections whose requester and responder sit on
 * the same endpoint (a member sends its share to itself); their data
 * packets are told apart by endpoint (source = destination) and
 * destination QP. The packets a child port brings are reduced slot by slot
 * with the other children's: at the root the slot's packets go back to
 * their members; below it the last to arrive goes up the parent port and
 * the others follow it back down. Each member must send the same number
 * of packets on a lossless path through the tree. */
enum { SW_AGG_ROOT = UINT16_MAX };

struct sw_agg_spec {
	uint32_t n_members;          /* member connections */
	const uint32_t *member_ep;   /* per member: its endpoint */
	const uint32_t *member_qpn;  /* per member: its packets' destination QP */
	uint16_t n_child;            /* child ports (at least 1): hosts or switches below */
	const uint16_t *child_ports;
	uint16_t up_port;            /* the parent's port, or SW_AGG_ROOT */
	bool hosts;                  /* the children are the members' own ports: a child's
				      * packets carry its PSNs, one after the other, and
				      * one out of turn (after a loss: a retransmission, or
				      * what follows a lost one) goes by unreduced */
};

/* What a switch's reductions did, all its groups together. */
struct sw_agg_stats {
	uint64_t contributions;      /* packets reduced (held or sent up) */
	uint64_t slots;              /* slots whose packets left reduced (at the root,
				      * or below it with their result) */
	uint64_t errors;             /* a contribution lost at admission or out of turn
				      * (its PSN not the next of its member), a result
				      * for no slot, or no memory for the ring: it went
				      * on unreduced */
};

/* Add a group (before the run): 0, -EINVAL (a port out of range or twice,
 * the parent's among the children, no child), -EEXIST (a member already in
 * a group of this switch) or -ENOMEM; nothing added on failure. */
int sw_agg_add(struct sw *s, const struct sw_agg_spec *spec);
uint32_t sw_agg_groups(const struct sw *s);
/* @s's counters into @out (zeros without a group). */
void sw_agg_totals(const struct sw *s, struct sw_agg_stats *out);
/* Frames of DSCP @dscp (IB: any SL) arriving on port @port are kept from
 * loss: PFC on their priority, or InfiniBand's credits. */
bool sw_class_lossless(const struct sw *s, uint16_t port, uint8_t dscp);

/* Replace the forwarding of @s by @fib (as in sw_new; the same endpoints'
 * ports, any classes and groups), between events: the ECMP groups are
 * rebuilt and the policy's per-group state with them (round-robin
 * counters restart); per-flow state stays (a flowlet whose port left its
 * group starts anew). Frames already queued stay where they are. Returns
 * 0, or -EINVAL (a port beyond the switch's, an endpoint's class beyond the
 * rows), -E2BIG (over UINT16_MAX groups) or -ENOMEM, leaving the old
 * forwarding intact. */
int sw_set_fib(struct sw *s, const struct fib_rows *fib);
/* sw_set_fib in two steps, for replacing the forwarding of many switches
 * at once or none: sw_fib_prepare builds @s's forwarding from @fib
 * (trusted: rows from topo_fib_rows) into *@out without using it (0, or
 * -EINVAL, -E2BIG, -ENOMEM as sw_set_fib); sw_fib_commit puts it in use
 * (it cannot fail, and takes @n); sw_fib_discard drops it (NULL is fine). */
struct sw_fib_next;
int sw_fib_prepare(const struct sw *s, const struct fib_rows *fib, struct sw_fib_next **out);
void sw_fib_commit(struct sw *s, struct sw_fib_next *n);
void sw_fib_discard(struct sw_fib_next *n);
struct port *sw_port(struct sw *s, uint16_t i);
/* MAC of port @i of switch number @index (the addressing plan). */
void sw_port_mac(uint32_t index, uint16_t i, uint8_t mac[6]);
/* Tell port @i the MAC of the device at its other end (set when wiring). */
void sw_set_next_hop_mac(struct sw *s, uint16_t i, const uint8_t mac[6]);
uint16_t sw_n_ports(const struct sw *s);
const struct sw_stats *sw_stats(const struct sw *s);
const struct sw_port_stats *sw_port_stats(const struct sw *s, uint16_t i);
uint64_t sw_buffer_used(const struct sw *s);
/* The counters results read (sw_stats, every sw_port_stats) as words, for
 * a switch run in another process (run/fabric_remote.c): how many, a copy
 * into @w, and @w put back in place of @s's. */
uint32_t sw_result_words(const struct sw *s);
void sw_result_save(const struct sw *s, uint64_t *w);
void sw_result_load(struct sw *s, const uint64_t *w);

/* After the links are wired: size each port's PFC headroom (from its rate,
 * delay and the largest frame unless configured) and the shared pool, and
 * give each port the queue manager's state (RED: its curve) and pause
 * alpha of its link rate (sw_aqm_ops.init, sw_params_port_alpha; until
 * then every port has the fabric-wide ones: RED's p->red, and
 * p->pfc.alpha_q16). Returns 0, or -ENOSPC with @err filled when reserves
 * and headroom do not fit in the buffer, or the manager's error (RED:
 * -ENOENT when a marking port's rate has no curve, sw_params_port_red). Writes a warning
 * into @warn (or "") when a configured headroom is smaller than the link
 * needs. */
int sw_ready(struct sw *s, char err[CFG_ERR_BYTES], char warn[CFG_ERR_BYTES]);
/* Headroom a lossless priority needs on a link of @rate_bps and @delay_ps
 * for frames up to @max_frame_bytes: the bytes still arriving after XOFF
 * (a frame at each end, the cable's round trip, and the peer's response
 * time of IEEE 802.3 Annex 31B), rounded up to 1 KiB. */
uint64_t sw_headroom_bytes(uint64_t rate_bps, uint64_t delay_ps, uint32_t max_frame_bytes);
/* Turn PFC off on port @i: it neither sends nor honours pauses, and
 * lossless frames arriving there are admitted like lossy ones. */
void sw_port_pfc_off(struct sw *s, uint16_t i);
/* Switch @s has a lossless queue paused and holding frames toward port @i
 * (for deadlock detection): the first such priority, or -ENOENT. */
int sw_port_blocked(const struct sw *s, uint16_t i);

struct port_credit_params;
/* Put port @i of @s under InfiniBand credit flow control with @p
 * (core/port_credit.h), after port_set_ll(sw_port(s, i), &pkt_ll_ib) and
 * before sw_ready; either side of port_connect. PFC is turned off there;
 * every VL's (ingress port, VL) group is a credit group: frames the
 * forwarding admits with sw_mmu_admit(s, i, VL, ...) are never dropped for
 * buffer nor XOFF'd, and give their blocks back when released. sw_ready
 * commits the VL buffers granted (erroring when they do not fit). Returns
 * 0, -EINVAL (port out of range, bad params, not a credit link layer) or
 * -ENOMEM. */
int sw_port_credit_on(struct sw *s, uint16_t i, const struct port_credit_params *p);
/* Port @i of @s has a VL with frames queued and no credit for its head
 * (a credit-loop edge, for deadlock detection): that VL, or -ENOENT. */
int sw_port_credit_blocked(const struct sw *s, uint16_t i);

/* @h % @n by multiplication, with @magic = UINT64_MAX / @n + 1 (exact for
 * 32-bit operands: Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019); a switch keeps the magic of each ECMP group. */
static inline uint32_t sw_mod(uint32_t h, uint64_t magic, uint32_t n)
{
	return (uint32_t)(((unsigned __int128)(magic * h) * n) >> 64);
}

/* On InfiniBand: egress port @i of @s maps SL s to VL @map[s] (0..7)
 * from now, instead of sw_params.sl2vl (a VL change on the way: the
 * packet's LRH and VCRC are rewritten). */
void sw_set_port_sl2vl(struct sw *s, uint16_t i, const uint8_t map[SW_IB_N_SL]);
/* The egress port the linear forwarding table of @s (on InfiniBand: its
 * routing engine's choice) gives destination endpoint @ep (LID @ep + 1),
 * or UINT16_MAX when @s is not on InfiniBand or cannot reach @ep. */
uint16_t sw_ib_lft_port(const struct sw *s, uint32_t ep);
/* The flow hash of a 5-tuple, which path-choice policies get (ECMP takes
 * it modulo the group size); exposed for tests. */
uint32_t sw_ecmp_hash(uint64_t seed, uint32_t src_ip, uint32_t dst_ip, uint8_t proto,
		      uint16_t sport, uint16_t dport);

#endif
