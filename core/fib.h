/* Forwarding rows: the layout in which topologies/ hands one switch its
 * equal-cost forwarding table (topo_fib_rows) and switch/ takes it in
 * (sw_new, which compresses it into ECMP groups). It lives in core/ so that
 * neither of the two modules includes the other. */
#ifndef FAB_FIB_H
#define FAB_FIB_H

#include <stdint.h>

/* Forwarding table of one switch, by destination class (topo_routes):
 * the egress ports toward the endpoints (host ports, each with its own
 * address) of class c are ports[off[c] .. off[c + 1]), in ascending port
 * order. The row of a class whose endpoints attach to this switch is
 * empty; each such endpoint e has a row of its own,
 * direct_ports[direct_off[i] .. direct_off[i + 1]) with
 * i = e - direct_lo < direct_n. A consumer may keep a copy of the rows
 * (they may be freed after use) but ep_class belongs to the routes it
 * came from. */
struct fib_rows {
	uint32_t n_eps;               /* destinations: endpoints */
	const uint32_t *ep_class;     /* class of each endpoint (n_eps), < n_classes */
	uint32_t n_classes;           /* classes */
	const uint32_t *off;          /* n_classes + 1 offsets into ports */
	const uint16_t *ports;        /* egress port numbers */
	uint32_t direct_lo;           /* first attached endpoint */
	uint32_t direct_n;            /* endpoints direct_lo .. direct_lo + direct_n - 1 */
	const uint32_t *direct_off;   /* direct_n + 1 offsets into direct_ports */
	const uint16_t *direct_ports; /* egress port numbers */
};

#endif
