/* The switch model: an output-queued switch with a shared packet buffer.
 * Ingress parses the real headers (Ethernet, 802.1Q, IPv4), looks the IPv4
 * destination up in tables computed from the topology, picks one of the
 * equal-cost egress ports by a hash of the 5-tuple (the RoCEv2 UDP source
 * port is the entropy), rewrites MACs and TTL like an L3 switch, admits the
 * frame into the shared buffer (tail drop when full) and queues it on the
 * egress traffic class its DSCP maps to. */
#ifndef FAB_SW_H
#define FAB_SW_H

#include <stdint.h>

#include "port.h"

struct sim;

enum sw_drop_reason {
	SW_DROP_BUFFER,  /* shared buffer full (tail drop) */
	SW_DROP_NO_ROUTE, /* destination not reachable / not in the plan */
	SW_DROP_TTL,     /* TTL expired (routing loop) */
	SW_DROP_PARSE,   /* not a frame the switch forwards */
	SW_DROP_N,
};

/* Value <-> name, for counters and results. */
const char *sw_drop_reason_name(enum sw_drop_reason r);

struct sw_params {
	uint64_t buffer_bytes;        /* shared buffer, all ports */
	uint64_t hash_seed;           /* per-switch ECMP hash seed */
	uint8_t dscp_to_tc[64];       /* egress traffic class per DSCP */
	struct port_sched sched;      /* egress scheduler of every port */
};

/* Forwarding table: egress ports toward host h are
 * ports[off[h] .. off[h + 1]) (rows from topo_routes; the switch keeps a
 * compressed copy, so they may be freed after sw_new). */
struct sw_fib {
	uint32_t n_hosts;         /* destinations */
	const uint32_t *off;      /* n_hosts + 1 offsets */
	const uint16_t *ports;    /* egress port numbers */
};

struct sw_stats {
	uint64_t rx_pkts;                 /* frames received */
	uint64_t fwd_pkts;                /* frames admitted and queued */
	uint64_t drops[SW_DROP_N];        /* by reason */
	uint64_t buffer_peak_bytes;       /* high-water mark of the shared buffer */
};

struct sw;

/* A switch for topology node @node (switch number @index) with @n_ports
 * ports. Returns NULL on allocation failure. */
struct sw *sw_new(struct sim *sim, uint32_t node, uint32_t index, uint16_t n_ports,
		  const struct sw_params *p, const struct sw_fib *fib);
void sw_free(struct sw *s); /* NULL is fine */
struct port *sw_port(struct sw *s, uint16_t i);
/* MAC of port @i of switch number @index (the addressing plan). */
void sw_port_mac(uint32_t index, uint16_t i, uint8_t mac[6]);
/* Tell port @i the MAC of the device at its other end (set when wiring). */
void sw_set_next_hop_mac(struct sw *s, uint16_t i, const uint8_t mac[6]);
uint16_t sw_n_ports(const struct sw *s);
const struct sw_stats *sw_stats(const struct sw *s);
uint64_t sw_buffer_used(const struct sw *s);

/* ECMP choice among @n ports for a 5-tuple (exposed for tests). */
uint32_t sw_ecmp_hash(uint64_t seed, uint32_t src_ip, uint32_t dst_ip, uint8_t proto,
		      uint16_t sport, uint16_t dport);

#endif
