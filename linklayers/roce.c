/* RoCE: RDMA over Ethernet (RoCEv2: Ethernet, IPv4, UDP 4791), the
 * modules' default framing; lossless classes by PFC, which NIC ports
 * honour when a priority is lossless (or towards a GPU's scale-up
 * switch, which pauses every priority). */
#include <errno.h>

#include "link_layer.h"
#include "port_pfc.h"

int link_layer_eth_nic_ready(struct fabric *f, uint32_t i)
{
	const struct exp *e = f->exp;
	const struct topo_node *n = &f->topo->nodes[f->topo->hosts[i]];

	if (!e->sw.pfc.lossless_prio && n->role != TOPO_ROLE_GPU)
		return 0;
	for (uint16_t p = 0; p < n->n_ports; p++)
		if (port_pfc_enable(nic_port(f->nics[i], p), e->sw.prio_to_tc) != 0)
			return -ENOMEM;
	return 0;
}

const char *link_layer_eth_marking(const struct exp *e)
{
	return e->sw.ecn_tc_mask ? "ECN marking is on (fabric.ecn)" : NULL;
}

bool link_layer_eth_marks_dscp(const struct exp *e, uint8_t dscp)
{
	return e->sw.ecn_tc_mask >> e->sw.prio_to_tc[e->sw.dscp_to_prio[dscp & 63]] & 1;
}

const struct link_layer_ops link_layer_roce = {
	.kind = { "roce", "Ethernet, PFC", NULL, 0 },
	.pfc = true,
	.eth_switch = true,
	.marking = link_layer_eth_marking,
	.marking_key = "fabric.ecn",
	.marks_dscp = link_layer_eth_marks_dscp,
	.nic_ready = link_layer_eth_nic_ready,
};
