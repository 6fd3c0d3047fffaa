/* The addressing plan: endpoint e (a host port, topologies/topo.h) has
 * IPv4 10.0.0.0 + e + 1, and IPv6 fd00:fab::/96 with that IPv4 address as
 * its last 32 bits (fd00:fab::10.0.0.1 is endpoint 0: what a live
 * endpoint speaking IPv6 is given; the NIC models speak IPv4); port p of host i has MAC 02:00:pp:ii:ii:ii; port
 * p of switch s has MAC 02:01:ss:ss:pp:pp. Switches route on the IPv4
 * destination, so the plan is the only place that knows how an endpoint
 * number maps to an address. */
#ifndef FAB_ADDR_H
#define FAB_ADDR_H

#include <stdint.h>

#define ADDR_EP_IP_BASE UINT32_C(0x0A000001) /* 10.0.0.1 is endpoint 0 */

static inline uint32_t addr_ep_ip(uint32_t ep) { return ADDR_EP_IP_BASE + ep; }
/* Endpoint number of @ip (host order); UINT32_MAX when not in the plan. */
static inline uint32_t addr_ip_ep(uint32_t ip)
{
	return ip >= ADDR_EP_IP_BASE ? ip - ADDR_EP_IP_BASE : UINT32_MAX;
}

/* The first 96 bits of the plan's IPv6 addresses: fd00:fab:: (a unique
 * local prefix, RFC 4193). */
static const uint8_t addr_ip6_prefix[12] = { 0xfd, 0x00, 0x0f, 0xab };

/* The IPv4 address that IPv6 address @a (16 bytes, network order) embeds
 * when it is in the plan's prefix (host order); 0 (no endpoint's) when it
 * is not. */
static inline uint32_t addr_ip6_v4(const uint8_t *a)
{
	for (unsigned i = 0; i < sizeof(addr_ip6_prefix); i++)
		if (a[i] != addr_ip6_prefix[i])
			return 0;
	return (uint32_t)a[12] << 24 | (uint32_t)a[13] << 16 | (uint32_t)a[14] << 8 | a[15];
}

static inline void addr_host_mac(uint32_t host, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0x00;
	mac[2] = 0x00;
	mac[3] = (uint8_t)(host >> 16);
	mac[4] = (uint8_t)(host >> 8);
	mac[5] = (uint8_t)host;
}

/* Port @port of host @host: the host MAC with the port number in byte 2. */
static inline void addr_host_port_mac(uint32_t host, uint16_t port, uint8_t mac[6])
{
	addr_host_mac(host, mac);
	mac[2] = (uint8_t)port;
}

static inline void addr_switch_mac(uint32_t sw, uint16_t port, uint8_t mac[6])
{
	mac[0] = 0x02;
	mac[1] = 0x01;
	mac[2] = (uint8_t)(sw >> 8);
	mac[3] = (uint8_t)sw;
	mac[4] = (uint8_t)(port >> 8);
	mac[5] = (uint8_t)port;
}

#endif
