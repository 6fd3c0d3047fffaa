/* Live ports: DPDK ports standing in for host NIC ports of the fabric
 * (live.h). Frames are copied between the DPDK port's buffers and the
 * simulation's packets at the boundary, so the simulation's packets and
 * pool keep their rules (pkt_alloc) and nothing of this is on a simulated
 * run's path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "addr.h"
#include "fabric.h"
#include "port_pfc.h"
#include "live_int.h"
#include "pkt_view.h"

enum {
	ETH_ARP = 0x0806, /* (the others: pkt.h's PKT_ETHERTYPE_*) */
	ARP_REQUEST = 1,
	ARP_REPLY = 2,
	LIVE_RING = 1024,        /* descriptors per DPDK queue */
	ND_PROTO_ICMPV6 = 58,    /* IPv6 next header of ICMPv6 */
	ND_ROUTER_SOLICIT = 133, /* ICMPv6 types of neighbour discovery (RFC 4861) */
	ND_SOLICIT = 135,
	ND_ADVERT = 136,
	ND_ADVERT_BYTES = 32,    /* an advertisement with a link-layer address option */
	ND_FRAME = PKT_ETH_BYTES + PKT_IPV6_BYTES + ND_ADVERT_BYTES,
};

/* Room of a DPDK buffer: DPDK's headroom, then a PACKET_MMAP frame (which
 * af_packet's receive queue asks for whole, and which holds the largest
 * frame: MTU, Ethernet header, a VLAN tag). */
static uint16_t live_buf_room(const struct exp *e)
{
	return (uint16_t)(RTE_PKTMBUF_HEADROOM + live_mmap_frame(e));
}

static void live_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Send the frames waiting for @lp's endpoint; what the DPDK port does not
 * take now is dropped and counted (a real endpoint that does not read). */
void live_flush(struct live_port *lp)
{
	uint16_t sent = lp->n_txb && !lp->gone ? rte_eth_tx_burst(lp->eth, 0, lp->txb, lp->n_txb) : 0;
	uint64_t now = sent ? live_now_ps(lp->l) : 0;

	for (uint16_t i = 0; i < sent; i++)
		if (lp->txt[i] != UINT64_MAX)
			live_lag(lp->l, now, lp->txt[i]);
	for (uint16_t i = sent; i < lp->n_txb; i++) {
		lp->st->drops_tx++;
		rte_pktmbuf_free(lp->txb[i]);
	}
	lp->n_txb = 0;
}

/* Queue @m (a DPDK buffer) for @lp's endpoint; @t_ps: when it arrived at
 * the host port, or UINT64_MAX (the port's own ARP replies). */
static void live_out(struct live_port *lp, struct rte_mbuf *m, uint64_t t_ps)
{
	if (lp->n_txb == LIVE_BURST)
		live_flush(lp);
	lp->txt[lp->n_txb] = t_ps;
	lp->txb[lp->n_txb++] = m;
}

/* An ARP request from the endpoint for a fabric address other than its
 * own: answered from the first hop's MAC, as a routed fabric's gateway
 * answers. Anything else of ARP is ignored. */
static void live_arp(struct live_port *lp, const uint8_t *d, uint32_t len)
{
	const uint8_t *a = d + PKT_ETH_BYTES;
	struct rte_mbuf *r;
	uint32_t tip;
	uint8_t *o;

	if (len < PKT_ETH_BYTES + 28 || pkt_get16(a) != 1 || pkt_get16(a + 2) != PKT_ETHERTYPE_IPV4 ||
	    a[4] != 6 || a[5] != 4 || pkt_get16(a + 6) != ARP_REQUEST) {
		lp->st->arp_ignored++;
		return;
	}
	tip = pkt_get32(a + 24);
	if (addr_ip_ep(tip) >= lp->l->n_eps || tip == lp->ip) {
		lp->st->arp_ignored++;
		return;
	}
	if (!(r = rte_pktmbuf_alloc(lp->l->io_pool))) {
		lp->st->drops_tx++;
		return;
	}
	if (!(o = (uint8_t *)rte_pktmbuf_append(r, 60))) {
		rte_pktmbuf_free(r);
		lp->st->drops_tx++;
		return;
	}
	memset(o, 0, 60);
	memcpy(o, a + 8, 6);                    /* to the asker */
	memcpy(o + 6, lp->gw_mac, 6);
	live_put16(o + 12, ETH_ARP);
	live_put16(o + 14, 1);
	live_put16(o + 16, PKT_ETHERTYPE_IPV4);
	o[18] = 6;
	o[19] = 4;
	live_put16(o + 20, ARP_REPLY);
	memcpy(o + 22, lp->gw_mac, 6);          /* the sender: the asked address */
	memcpy(o + 28, a + 24, 4);
	memcpy(o + 32, a + 8, 10);              /* the target: the asker's MAC and IP */
	lp->st->arp_replies++;
	live_out(lp, r, UINT64_MAX);
}

/* ICMPv6's checksum (RFC 8200, 8.1) of the @n-byte message at @msg from
 * IPv6 address @src to @dst. */
static uint16_t live_icmp6_sum(const uint8_t *src, const uint8_t *dst, const uint8_t *msg, uint32_t n)
{
	uint32_t sum = n + ND_PROTO_ICMPV6;

	for (unsigned i = 0; i < 16; i += 2)
		sum += pkt_get16(src + i) + pkt_get16(dst + i);
	for (uint32_t i = 0; i + 1 < n; i += 2)
		sum += pkt_get16(msg + i);
	if (n & 1)
		sum += (uint32_t)msg[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

/* A neighbour solicitation (RFC 4861, 4.3) from the endpoint for a
 * fabric address other than its own: answered with an advertisement of
 * the first hop's MAC, as ARP is (live_arp). The view @v has the frame's
 * IPv6 header; anything else of neighbour discovery is ignored. Returns
 * whether @d was neighbour discovery. */
static bool live_ndp(struct live_port *lp, const struct pkt_view *v, const uint8_t *d, uint32_t len)
{
	const uint8_t *ip = d + v->l3_off, *ns = ip + PKT_IPV6_BYTES;
	uint32_t tgt;
	struct rte_mbuf *r;
	uint8_t *o;

	if (ip[6] != ND_PROTO_ICMPV6 || len < v->l3_off + PKT_IPV6_BYTES + 24u ||
	    (ns[0] != ND_SOLICIT && ns[0] != ND_ADVERT && ns[0] != ND_ROUTER_SOLICIT))
		return false;
	tgt = addr_ip6_v4(ns + 8);
	if (ns[0] != ND_SOLICIT || ip[7] != 255 || addr_ip_ep(tgt) >= lp->l->n_eps || tgt == lp->ip) {
		lp->st->arp_ignored++;
		return true;
	}
	if (!(r = rte_pktmbuf_alloc(lp->l->io_pool)) || !(o = (uint8_t *)rte_pktmbuf_append(r, ND_FRAME))) {
		rte_pktmbuf_free(r);
		lp->st->drops_tx++;
		return true;
	}
	/* Ethernet to the asker; IPv6 from the target to the asker, hop limit
	 * 255; the advertisement: Solicited and Override, the target, and its
	 * link-layer address option (the first hop's MAC). */
	memset(o, 0, ND_FRAME);
	memcpy(o, d + 6, 6);
	memcpy(o + 6, lp->gw_mac, 6);
	live_put16(o + 12, PKT_ETHERTYPE_IPV6);
	uint8_t *oip = o + PKT_ETH_BYTES, *na = oip + PKT_IPV6_BYTES;

	oip[0] = 0x60;
	live_put16(oip + 4, ND_ADVERT_BYTES);
	oip[6] = ND_PROTO_ICMPV6;
	oip[7] = 255;
	memcpy(oip + 8, ns + 8, 16);
	memcpy(oip + 24, ip + 8, 16);
	na[0] = ND_ADVERT;
	na[4] = 0x60; /* S, O */
	memcpy(na + 8, ns + 8, 16);
	na[24] = 2;   /* target link-layer address, 8 bytes */
	na[25] = 1;
	memcpy(na + 26, lp->gw_mac, 6);
	live_put16(na + 2, live_icmp6_sum(oip + 8, oip + 24, na, ND_ADVERT_BYTES));
	lp->st->arp_replies++;
	live_out(lp, r, UINT64_MAX);
	return true;
}

/* A frame @m from @lp's endpoint, at the simulation's current time:
 * ARP and neighbour solicitations answered, IPv4 and IPv6 to a fabric
 * address queued on the host port as a packet of the run, anything else
 * dropped and counted. Frees @m. */
static void live_in(struct live_port *lp, struct rte_mbuf *m)
{
	struct live *l = lp->l;
	struct sim *sim = &l->f->sim;
	uint32_t len = rte_pktmbuf_pkt_len(m), fb;
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rte_mbuf *p;
	struct pkt_meta *pm;
	struct pkt_view v;
	uint16_t etype;
	uint8_t tc;

	lp->st->rx_frames++;
	lp->st->rx_bytes += len;
	if (m->nb_segs != 1 || len < PKT_ETH_BYTES + PKT_VLAN_BYTES) {
		lp->st->drops_other++;
		goto out;
	}
	etype = pkt_get16(d + 12);
	/* The endpoint's MAC, for what goes back: the one fabemu gave it in its
	 * namespace, else the source of its ARP and IP frames. */
	if (!lp->cfg->netns &&
	    (etype == ETH_ARP || etype == PKT_ETHERTYPE_IPV4 || etype == PKT_ETHERTYPE_IPV6)) {
		memcpy(lp->peer_mac, d + 6, 6);
		lp->peer_known = true;
	}
	if (etype == ETH_ARP) {
		live_arp(lp, d, len);
		goto out;
	}
	if (pkt_view_l3(&v, PKT_LL_ROCE, d, len) != 0 || (d[v.l3_off] >> 4) != (v.ip6 ? 6 : 4)) {
		lp->st->drops_other++;
		goto out;
	}
	if (v.ip6 && live_ndp(lp, &v, d, len))
		goto out;
	if (addr_ip_ep(v.dst) >= l->n_eps || v.dst == lp->ip) {
		lp->st->drops_not_fabric++;
		goto out;
	}
	if (len > l->e->live.mtu_bytes + v.l3_off) {
		lp->st->drops_size++;
		goto out;
	}
	fb = (len < 60 ? 60 : len) + PKT_FCS_BYTES;
	/* The class a NIC queues this DSCP on (fabric.dscp_map, tc_map). */
	tc = l->e->sw.prio_to_tc[l->e->sw.dscp_to_prio[v.cls]];
	if (port_queue_bytes(lp->p) + fb > l->e->live.queue_bytes) {
		lp->st->drops_queue++;
		goto out;
	}
	if (!(p = sim_pkt_alloc(sim, true))) {
		lp->st->drops_pool++;
		goto out;
	}
	memcpy(pkt_data(p), d, len);
	if (len < 60)
		memset(pkt_data(p) + len, 0, 60 - len); /* padded, as a NIC pads */
	p->data_len = (uint16_t)(fb - PKT_FCS_BYTES);
	p->pkt_len = fb - PKT_FCS_BYTES;
	pm = pkt_meta(p);
	*pm = (struct pkt_meta){
		.frame_bytes = (uint16_t)fb,
		.l3_off = (uint8_t)v.l3_off,
		.tc = tc,
		.kind = PKT_KIND_CTRL, /* not RoCE: no RDMA payload, INT never touches it */
	};
	/* RoCEv2 (another fabemu's NIC, an RDMA NIC): what a simulated NIC
	 * would have written beside the frame, its kind and RDMA payload. */
	if (!v.ip6 && pkt_view_all(&v, PKT_LL_ROCE, pkt_data(p), p->data_len) == 0) {
		pm->payload_bytes = (uint16_t)v.payload_bytes;
		pm->kind = v.opcode == PKT_OP_ACK	 ? PKT_KIND_ACK
			   : v.opcode == PKT_OP_CNP	 ? PKT_KIND_CNP
			   : v.opcode == PKT_OP_READ_REQ ? PKT_KIND_CTRL
							 : PKT_KIND_DATA;
	}
	lp->st->in_frames++;
	port_enqueue(lp->p, p, tc, fb);
out:
	rte_pktmbuf_free(m);
}

uint32_t live_poll(struct live *l)
{
	uint32_t got = 0;

	for (uint32_t i = 0; i < l->n_ports; i++) {
		struct live_port *lp = &l->ports[i];
		struct rte_eth_link link;

		/* A memif whose peer left is not read again: its shared memory
		 * goes with the peer (DPDK's control thread unmaps it). */
		if (lp->cfg->driver == EXP_LIVE_MEMIF && !lp->gone &&
		    (rte_eth_link_get_nowait(lp->eth, &link) != 0 || link.link_status != RTE_ETH_LINK_UP))
			lp->gone = true;
		lp->n_rxb = lp->gone ? 0 : rte_eth_rx_burst(lp->eth, 0, lp->rxb, LIVE_BURST);
		got += lp->n_rxb;
	}
	return got;
}

void live_take_in(struct live *l)
{
	for (uint32_t i = 0; i < l->n_ports; i++) {
		struct live_port *lp = &l->ports[i];

		for (uint16_t k = 0; k < lp->n_rxb; k++)
			live_in(lp, lp->rxb[k]);
		lp->n_rxb = 0;
	}
}

/* A frame arrived over the link at a live host port (struct port_ops rx):
 * out of the DPDK port, its lag recorded. Frames a link fault hurt are
 * dropped as the NIC would drop them. */
static void live_rx(void *owner, struct port *in, struct rte_mbuf *m)
{
	struct live_port *lp = owner;
	struct live *l = lp->l;
	struct sim *sim = in->sim;
	const struct pkt_meta *pm = pkt_meta(m);
	uint32_t len = pm->frame_bytes - PKT_FCS_BYTES, held = m->data_len;
	struct rte_mbuf *r;
	uint8_t *o;

	if (pm->flags) {
		lp->st->drops_fault++;
	} else if (len > l->e->live.mtu_bytes + PKT_ETH_BYTES + PKT_VLAN_BYTES) {
		lp->st->drops_size++; /* (a simulated NIC's nic.mtu above live.mtu) */
	} else if (!(r = rte_pktmbuf_alloc(l->io_pool))) {
		lp->st->drops_tx++;
	} else if (!(o = (uint8_t *)rte_pktmbuf_append(r, (uint16_t)len))) {
		rte_pktmbuf_free(r);
		lp->st->drops_tx++;
	} else {
		uint32_t n = rte_pktmbuf_data_len(r);

		/* A simulated NIC's packets may hold their headers only (nic.payload
		 * false): the payload goes out as zeros. */
		memcpy(o, pkt_data(m), RTE_MIN(held, n));
		if (held < n)
			memset(o + held, 0, n - held);
		if (lp->peer_known)
			memcpy(o, lp->peer_mac, 6);
		lp->st->out_frames++;
		lp->st->out_bytes += n;
		live_out(lp, r, sim->now_ps);
	}
	sim_pkt_free(sim, m);
}

static const struct port_ops live_port_ops = { .rx = live_rx };

void live_pfc(struct live_port *lp, uint64_t now_ns)
{
	uint8_t paused = lp->p->pfc ? lp->p->pfc->paused_prio : 0, change = paused ^ lp->pfc_told;
	struct rte_mbuf *r;
	uint8_t *o;

	if (!change && !(paused && now_ns >= lp->pfc_next_ns))
		return;
	if (!(r = rte_pktmbuf_alloc(lp->l->io_pool)) || !(o = (uint8_t *)rte_pktmbuf_append(r, 60))) {
		rte_pktmbuf_free(r);
		lp->st->drops_tx++;
		return; /* told on a later turn */
	}
	/* MAC control: to 01:80:c2:00:00:01 from the switch port, opcode
	 * 0x0101, the priorities it speaks of, their pause times (65535
	 * quanta while paused, 0 to resume). */
	memset(o, 0, 60);
	memcpy(o, (const uint8_t[6]){ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 }, 6);
	memcpy(o + 6, lp->gw_mac, 6);
	live_put16(o + 12, PKT_ETHERTYPE_MACCTL);
	live_put16(o + 14, PKT_PFC_OPCODE);
	live_put16(o + 16, (uint16_t)(paused | change));
	for (unsigned i = 0; i < 8; i++)
		live_put16(o + 18 + 2 * i, (paused >> i & 1) ? 0xffff : 0);
	lp->pfc_told = paused;
	lp->pfc_next_ns = now_ns + LIVE_PFC_REFRESH_NS;
	lp->st->pfc_sent++;
	live_out(lp, r, UINT64_MAX);
}

/* The DPDK port of @lp: configured with a queue each way and started. */
static int live_eth_start(struct live_port *lp, char err[CFG_ERR_BYTES])
{
	const struct exp_live_port *c = lp->cfg;
	struct rte_eth_conf conf;
	int r;

	memset(&conf, 0, sizeof(conf));
	if ((r = rte_eth_dev_configure(lp->eth, 1, 1, &conf)) != 0 ||
	    /* (af_packet's frames are bounded by its PACKET_MMAP frames, which
	     * the device arguments size: its MTU stays DPDK's 1500.) */
	    ((c->driver == EXP_LIVE_TAP || c->driver == EXP_LIVE_PCI) &&
	     (r = rte_eth_dev_set_mtu(lp->eth, (uint16_t)lp->l->e->live.mtu_bytes)) != 0) ||
	    (r = rte_eth_rx_queue_setup(lp->eth, 0, LIVE_RING, rte_eth_dev_socket_id(lp->eth), NULL,
					 lp->l->io_pool)) != 0 ||
	    (r = rte_eth_tx_queue_setup(lp->eth, 0, LIVE_RING, rte_eth_dev_socket_id(lp->eth), NULL)) != 0 ||
	    (r = rte_eth_dev_start(lp->eth)) != 0) {
		snprintf(err, CFG_ERR_BYTES, "%s:%u:%u: live port %s: cannot start its DPDK port: %s",
			 c->mark.file, c->mark.line, c->mark.col, c->iface, rte_strerror(-r));
		return -EIO;
	}
	lp->started = true;
	/* The endpoint sends to the first hop's MAC, not the DPDK port's. */
	if (c->driver == EXP_LIVE_AF_PACKET || c->driver == EXP_LIVE_VETH || c->driver == EXP_LIVE_PCI)
		rte_eth_promiscuous_enable(lp->eth);
	return 0;
}

int live_attach(struct fabric *f, struct live **out, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	struct live *l = calloc(1, sizeof(*l));
	int r;

	*out = l;
	if (!l || !(l->ports = calloc(e->live.n_ports, sizeof(*l->ports)))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	l->f = f;
	l->e = e;
	l->rs.dilation = e->live.dilation;
	if (!(l->rs.ports = calloc(e->live.n_ports, sizeof(*l->rs.ports))) ||
	    !(l->names = calloc(e->live.n_ports, sizeof(*l->names)))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	l->rs.port_names = l->names;
	if (!(l->live_ep = calloc(f->topo->n_eps, 1))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < e->live.n_ports; i++)
		l->live_ep[f->topo->nodes[e->live.ports[i].at.node].first_ep + e->live.ports[i].at.port] = 1;
	tg_set_live(f->tg, l->live_ep);
	f->mon_always = true; /* series.csv goes on while the fabric is idle */
	f->live = &l->rs;
	l->n_eps = f->topo->n_eps;
	l->io_pool = rte_pktmbuf_pool_create("fabemu-live", EXP_LIVE_IO_MBUFS, 256, 0, live_buf_room(e),
					     SOCKET_ID_ANY);
	if (!l->io_pool) {
		snprintf(err, CFG_ERR_BYTES, "live ports: cannot create their buffers: %s",
			 rte_strerror(rte_errno));
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < e->live.n_ports; i++) {
		struct live_port *lp = &l->ports[i];
		const struct exp_live_port *c = &e->live.ports[i];
		const struct topo_node *n = &f->topo->nodes[c->at.node];
		char name[RTE_ETH_NAME_MAX_LEN];

		lp->l = l;
		lp->cfg = c;
		lp->st = &l->rs.ports[i];
		snprintf(lp->name, sizeof(lp->name), "%s:%u", n->name, c->at.port);
		l->names[i] = lp->name;
		lp->p = fabric_port(f, c->at.node, c->at.port);
		lp->ip = addr_ep_ip(n->first_ep + c->at.port);
		const struct topo_link *k = &f->topo->links[n->port_links[c->at.port]];
		int side = k->node[0] == c->at.node && k->port[0] == c->at.port ? 1 : 0;

		fabric_port_mac(f->topo, c->at.node, c->at.port, lp->mac);
		fabric_port_mac(f->topo, k->node[side], k->port[side], lp->gw_mac);
		memcpy(lp->peer_mac, lp->mac, 6);
		lp->peer_known = c->netns != NULL; /* it is given the host port's MAC */
		live_vdev_name(c, i, name);
		if (rte_eth_dev_get_port_by_name(name, &lp->eth) != 0) {
			snprintf(err, CFG_ERR_BYTES,
				 "%s:%u:%u: live port %s: the EAL did not make its DPDK port %s (add `-- "
				 "--log-level=pmd.net:debug` to see why)",
				 c->mark.file, c->mark.line, c->mark.col, c->iface, name);
			return -EIO;
		}
		l->n_ports++;
		l->rs.n_ports = l->n_ports;
		if ((r = live_eth_start(lp, err)) != 0)
			return r;
		if (c->netns && (r = live_netns_setup(lp, err)) != 0)
			return r;
		/* The host's NIC keeps its state but no longer hears its port. */
		port_set_owner(lp->p, &live_port_ops, lp);
	}
	return 0;
}

void live_free(struct live *l)
{
	bool memif = false;

	if (!l)
		return;
	/* A peer told to stop at the same moment (kill -INT both) stops
	 * reading its memif before this one closes it under it. */
	for (uint32_t i = 0; i < l->n_ports; i++)
		memif |= l->ports[i].started && !l->ports[i].gone &&
			 l->ports[i].cfg->driver == EXP_LIVE_MEMIF;
	if (memif)
		rte_delay_us_sleep(LIVE_MEMIF_GRACE_US);
	for (uint32_t i = 0; i < l->n_ports; i++) {
		struct live_port *lp = &l->ports[i];

		for (uint16_t k = 0; k < lp->n_rxb; k++)
			rte_pktmbuf_free(lp->rxb[k]); /* received as the run ended */
		if (lp->started) {
			live_flush(lp);
			lp->gone = true;
			rte_eth_dev_stop(lp->eth);
		}
		rte_eth_dev_close(lp->eth);
	}
	free(l->ports);
	free(l->rs.ports);
	free(l->names);
	free(l->live_ep);
	rte_mempool_free(l->io_pool);
	free(l);
}
