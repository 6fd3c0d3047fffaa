/* The link-layer descriptors and their registry (see pkt_ll.h). Values:
 * IEEE 802.3 (preamble, SFD, inter-frame gap, FCS, minimum frame),
 * IEEE 802.1Qbb (PFC on MAC control frames), tcpdump.org link types. */
#include "pkt_ll.h"
#include "pkt_ib.h"

#include <string.h>

enum {
	PKT_LL_ETH_PREAMBLE_SFD_BYTES = 8,
	PKT_LL_ETH_IFG_BYTES = 12,
	PKT_LL_LINKTYPE_ETHERNET = 1,
	PKT_LL_IPV4_ADDR_BYTES = 4,
	PKT_LL_LINKTYPE_INFINIBAND = 247,
	PKT_LL_LID_BYTES = 2,
	/* The shortest IB packet: LRH, BTH, ICRC, VCRC. */
	PKT_LL_IB_MIN_BYTES = PKT_IB_LRH_BYTES + PKT_BTH_BYTES + PKT_ICRC_BYTES + PKT_IB_VCRC_BYTES,
};

/* Ethernet's framing, RoCE's and UET's alike. */
#define PKT_LL_ETHERNET \
	.fc = PKT_LL_FC_PAUSE, \
	.wire_overhead_bytes = PKT_LL_ETH_PREAMBLE_SFD_BYTES + PKT_LL_ETH_IFG_BYTES, \
	.min_frame_bytes = PKT_MIN_FRAME_BYTES, \
	.trailer_bytes = PKT_FCS_BYTES, \
	.cap_trailer_bytes = PKT_FCS_BYTES, \
	.hdr_bytes = PKT_ETH_BYTES, \
	.ctrl_type = PKT_ETHERTYPE_MACCTL, \
	.ctrl_frame_bytes = PKT_MIN_FRAME_BYTES, \
	.credit_block_bytes = 0, \
	.pcap_linktype = PKT_LL_LINKTYPE_ETHERNET, \
	.addr_bytes = PKT_LL_IPV4_ADDR_BYTES

const struct pkt_ll pkt_ll_roce = {
	.name = "roce",
	.kind = PKT_LL_ROCE,
	PKT_LL_ETHERNET,
};

/* UET: the same Ethernet framing as RoCE's, another transport. */
const struct pkt_ll pkt_ll_uet = {
	.name = "uet",
	.kind = PKT_LL_UET,
	PKT_LL_ETHERNET,
};

/* IB frames have no preamble or gap: the physical layer's delimiters
 * and idles live in its line code, which the data rate already excludes
 * (IBTA Vol 2). */
const struct pkt_ll pkt_ll_ib = {
	.name = "infiniband",
	.kind = PKT_LL_IB,
	.fc = PKT_LL_FC_CREDIT,
	.wire_overhead_bytes = 0,
	.min_frame_bytes = PKT_LL_IB_MIN_BYTES,
	.trailer_bytes = PKT_IB_VCRC_BYTES,
	.cap_trailer_bytes = 0,
	.hdr_bytes = PKT_IB_LRH_BYTES,
	.ctrl_type = 0,
	.ctrl_frame_bytes = PKT_IB_FC_BYTES,
	.credit_block_bytes = PKT_IB_BLOCK_BYTES,
	.pcap_linktype = PKT_LL_LINKTYPE_INFINIBAND,
	.addr_bytes = PKT_LL_LID_BYTES,
};

/* Every descriptor, by kind. */
static const struct pkt_ll *const pkt_lls[PKT_LL_N] = {
	[PKT_LL_ROCE] = &pkt_ll_roce,
	[PKT_LL_IB] = &pkt_ll_ib,
	[PKT_LL_UET] = &pkt_ll_uet,
};

const struct pkt_ll *pkt_ll_find(const char *name)
{
	for (unsigned i = 0; i < PKT_LL_N; i++)
		if (pkt_lls[i] != NULL && strcmp(pkt_lls[i]->name, name) == 0)
			return pkt_lls[i];
	return NULL;
}
