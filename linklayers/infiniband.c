/* InfiniBand (fabric.link_layer: infiniband; settings fabric.ib): native
 * IB packets (LRH, optional GRH, BTH), credits per VL on every port
 * instead of pauses, the subnet manager's routing engine filling the
 * forwarding, SL-to-VL tables (every port's and switch ports' own). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "infiniband.h"
#include "pkt_ib.h"
#include "port_credit.h"

/* The VLs something is sent on (data of any message, ACKs, CNPs: the SLs
 * the NIC's @np gives their DSCPs, on the VLs fabric.ib.sl2vl and every
 * port_sl2vl table map them to): those get credit buffers, the others
 * none, so that a switch commits only the buffers in use. */
static uint8_t ib_credit_vls(const struct exp *e, const struct nic_params *np)
{
	const struct ib_settings *ib = link_layer_settings(e);
	uint16_t sls = 0;
	uint8_t used = 0;

	sls |= (uint16_t)(1u << np->dscp_to_sl[e->nic.data_dscp & 63]);
	sls |= (uint16_t)(1u << np->dscp_to_sl[e->nic.ack_dscp & 63]);
	sls |= (uint16_t)(1u << np->dscp_to_sl[(e->nic.cnp_dscp ? e->nic.cnp_dscp
								   : NIC_CNP_DSCP_DEFAULT) & 63]);
	for (uint32_t i = 0; i < e->n_msgs; i++)
		sls |= (uint16_t)(1u << np->dscp_to_sl[e->msgs[i].dscp & 63]);
	for (int sl = 0; sl < SW_IB_N_SL; sl++) {
		if (!(sls >> sl & 1))
			continue;
		used |= (uint8_t)(1u << ib->sl2vl[sl]);
		for (uint32_t k = 0; k < ib->n_sl2vl_ports; k++)
			used |= (uint8_t)(1u << ib->sl2vl_maps[k][sl]);
	}
	return used;
}

/* The buffer a port of @rate_bps and @delay_ps grants per VL with
 * fabric.ib.vl_buffer: auto: what keeps the link at line rate, the credit
 * loop's bytes (a round trip of the cable at line rate, the largest frame
 * it waits behind at each end, the update threshold's worth not yet
 * advertised), in 64-byte blocks, at most 128 KiB (the 12-bit counters'
 * reach: a faster or longer link then runs below line rate). */
uint64_t fabric_credit_auto_bytes(uint64_t rate_bps, uint64_t delay_ps, uint32_t max_frame_bytes,
				  uint64_t update_bytes)
{
	uint64_t cable = (uint64_t)((unsigned __int128)rate_bps * 2 * delay_ps / 8 / UNITS_PS_PER_S);
	uint64_t need = cable + 2 * (uint64_t)max_frame_bytes + update_bytes;

	need = (need + PKT_IB_BLOCK_BYTES - 1) / PKT_IB_BLOCK_BYTES * PKT_IB_BLOCK_BYTES;
	return need < PORT_CREDIT_MAX_BUFFER_BYTES ? need : PORT_CREDIT_MAX_BUFFER_BYTES;
}

/* The credit settings of IB port @p (fabric.ib; frames as @np's) on the
 * VLs in @used. */
static void ib_credit_params(const struct exp *e, const struct nic_params *np, uint8_t used,
			     const struct port *p, struct port_credit_params *cp)
{
	const struct ib_settings *ib = link_layer_settings(e);
	uint64_t buf = ib->vl_buffer_bytes
			       ? ib->vl_buffer_bytes
			       : fabric_credit_auto_bytes(port_rate_bps(p), port_delay_ps(p),
							  fabric_max_frame(np),
							  ib->credit_update_bytes);

	port_credit_params_default(cp);
	for (int vl = 0; vl < PORT_N_TC; vl++)
		cp->buffer_bytes[vl] = (used >> vl & 1) ? (uint32_t)buf : 0;
	cp->update_bytes = (uint32_t)ib->credit_update_bytes;
	cp->refresh_ps = ib->credit_interval_ps;
}

/* Credits hold senders back, not pauses; the subnet manager's engine
 * fills the forwarding tables. */
static void ib_switch_params(const struct exp *e, struct sw_params *sp)
{
	const struct ib_settings *ib = link_layer_settings(e);

	sp->ll = &pkt_ll_ib;
	sp->ecn_tc_mask = 0; /* fabric.ecn is Ethernet's; IB marks by fabric.ib_cc */
	sp->ib_routing = (uint8_t)ib->routing;
	memcpy(sp->sl2vl, ib->sl2vl, sizeof(sp->sl2vl));
}

/* A QP's SL is the class its DSCP selects (the same classes as on
 * Ethernet); it sends on the VL its SL maps to. */
static void ib_nic_params(const struct exp *e, struct nic_params *np)
{
	const struct ib_settings *ib = link_layer_settings(e);

	np->ll = &pkt_ll_ib;
	np->ib_grh = ib->grh;
	for (int d = 0; d < 64; d++) {
		np->dscp_to_sl[d] = np->dscp_to_tc[d];
		np->dscp_to_tc[d] = ib->sl2vl[np->dscp_to_sl[d]];
	}
}

/* Switch ports' own SL-to-VL tables, and credits on every port: switches
 * hold what arrives in their MMU, NICs consume it at once. */
static int ib_wire_up(struct fabric *f, const struct nic_params *np)
{
	const struct exp *e = f->exp;
	const struct ib_settings *ib = link_layer_settings(e);
	const struct topo *t = f->topo;
	struct port_credit_params cp;
	uint8_t used = ib_credit_vls(e, np);

	for (uint32_t k = 0; k < ib->n_sl2vl_ports; k++) {
		const struct topo_node *n = &t->nodes[ib->sl2vl_ports[k].node];

		sw_set_port_sl2vl(f->sws[n->index], ib->sl2vl_ports[k].port, ib->sl2vl_maps[k]);
	}
	for (uint32_t i = 0; i < t->n_switches; i++)
		for (uint16_t p = 0; p < t->nodes[t->switches[i]].n_ports; p++) {
			ib_credit_params(e, np, used, sw_port(f->sws[i], p), &cp);
			if (sw_port_credit_on(f->sws[i], p, &cp) != 0)
				return -ENOMEM;
		}
	for (uint32_t i = 0; i < t->n_hosts; i++)
		for (uint16_t p = 0; p < t->nodes[t->hosts[i]].n_ports; p++) {
			ib_credit_params(e, np, used, nic_port(f->nics[i], p), &cp);
			cp.release_on_arrival = true;
			if (port_credit_enable(nic_port(f->nics[i], p), &cp) != 0)
				return -ENOMEM;
		}
	return 0;
}

/* A path MTU: InfiniBand's packets carry 256, 512, ... 4096 bytes. */
static int ib_exp_check(const struct exp *e, char err[CFG_ERR_BYTES])
{
	struct cfg_node *nic = cfg_schema_get(cfg_doc_root(e->doc), "nic");
	const struct cfg_node *m = nic ? cfg_get(nic, "mtu") : NULL;

	if (!nic || !(e->nic.mtu_bytes & (e->nic.mtu_bytes - 1)))
		return 0;
	cfg_errorf(err, m ? m : nic,
		   "InfiniBand sends a path MTU's payload per packet (256, 512, 1024, 2048, 4096), not %u bytes",
		   e->nic.mtu_bytes);
	return -EINVAL;
}

/* Switches mark FECN by fabric.ib_cc (fabric.ecn is Ethernet's). */
static const char *ib_marking(const struct exp *e)
{
	return e->sw.ib_cc.threshold ? "FECN marking is on (fabric.ib_cc)" : NULL;
}

/* A credit buffer that cannot hold one frame: no frame would ever be
 * granted the credit to go (the NIC's MTU is known only now). */
static int ib_ready(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	const struct ib_settings *ib = link_layer_settings(e);
	struct nic_params np = e->nic;
	uint32_t frame;
	uint64_t need;

	if (!ib->vl_buffer_bytes)
		return 0;
	np.ll = &pkt_ll_ib;
	ib_nic_params(e, &np);
	frame = fabric_max_frame(&np);
	need = (frame + PKT_IB_BLOCK_BYTES - 1) / PKT_IB_BLOCK_BYTES * PKT_IB_BLOCK_BYTES;
	if (ib->vl_buffer_bytes >= need)
		return 0;
	snprintf(err, CFG_ERR_BYTES,
		 "%s:%u:%u: fabric.ib.vl_buffer of %llu bytes cannot hold one frame (%u bytes at nic.mtu %u): no packet could ever be sent; at least %llu bytes",
		 ib->vl_buffer_mark.file, ib->vl_buffer_mark.line, ib->vl_buffer_mark.col,
		 (unsigned long long)ib->vl_buffer_bytes, frame, e->nic.mtu_bytes,
		 (unsigned long long)need);
	return -ENOSPC;
}

const struct link_layer_ops link_layer_infiniband = {
	.kind = { "infiniband", "native IB packets, credits per VL, a subnet manager's routes",
		  &ib_settings_table, sizeof(struct ib_settings) },
	.section = "ib",
	.section_doc = "InfiniBand settings (with link_layer: infiniband)",
	.wire = &pkt_ll_ib,
	.credits = true,
	.settings_init = ib_settings_init,
	.settings_free = ib_settings_free,
	.exp_check = ib_exp_check,
	.marking = ib_marking,
	.marking_key = "fabric.ib_cc",
	.switch_params = ib_switch_params,
	.nic_params = ib_nic_params,
	.wire_up = ib_wire_up,
	.ready = ib_ready,
};
