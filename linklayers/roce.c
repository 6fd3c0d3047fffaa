/* RoCE: RDMA over Ethernet (RoCEv2: Ethernet, IPv4, UDP 4791), the
 * modules' default framing; lossless classes by PFC, which NIC ports
 * honour when a priority is lossless (or towards a GPU's scale-up
 * switch, which pauses every priority). */
#include <errno.h>

#include "link_layer.h"
#include "port_pfc.h"

static int roce_nic_ready(struct fabric *f, uint32_t i)
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

/* Switches mark ECN by RED (fabric.ecn). */
static const char *roce_marking(const struct exp *e)
{
	return e->sw.ecn_tc_mask ? "ECN marking is on (fabric.ecn)" : NULL;
}

/* RED marks the classes of fabric.ecn.tcs only. */
static bool roce_marks_dscp(const struct exp *e, uint8_t dscp)
{
	return e->sw.ecn_tc_mask >> e->sw.prio_to_tc[e->sw.dscp_to_prio[dscp & 63]] & 1;
}

const struct link_layer_ops link_layer_roce = {
	.kind = { "roce", "Ethernet, PFC", NULL, 0 },
	.pfc = true,
	.eth_switch = true,
	.marking = roce_marking,
	.marking_key = "fabric.ecn",
	.marks_dscp = roce_marks_dscp,
	.nic_ready = roce_nic_ready,
};
