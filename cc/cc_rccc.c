/* RCCC: the Ultra Ethernet Transport's receiver-credit congestion control
 * (UEC specification 1.0, receiver-based CC), selected as `nic.cc: rccc`.
 * A sender sends only against credit; each receiver port runs one pacer
 * that grants credit to the connections sending to it, round robin, at
 * just under its line rate, so that what arrives never outruns the port.
 * The work is the NIC's (nic/nic_uet_credit.c, which docs/uet.md
 * describes); this file registers the algorithm: no window and no rate of
 * its own (the line rate; credit is the limit), and its settings. The
 * numbers are those of the UEC's reference simulator, uet-htsim (commit
 * 40ccb05, htsim/sim/uec.cpp: UecPullPacer, UecSink::pull,
 * UecSrc::computePullTarget): a pacer at 0.99 of the line rate, 16 KiB
 * (four 4 KiB packets) a credit packet, credit in units of 256 bytes,
 * at most 1.5 BDP held, and the same 1.5 BDP spent speculatively at the
 * start before any credit came. */
#include <errno.h>
#include <stddef.h>

#include "cc_int.h"
#include "cc_rccc.h"
#include "cfg_schema.h"
#include "units.h"

enum {
	/* A UET data frame on the wire besides its payload: Ethernet 14,
	 * IPv4 20, UDP 8, PDS 12, SES 44, FCS 4, preamble and gap 20. */
	CC_UET_FRAME_EXTRA = 122,
	CC_UET_ACK_WIRE = 84,            /* an ACK: 64 bytes and preamble and gap */
	CC_RCCC_CREDIT_UNIT = 256,       /* credit counts in these (pkt_uet.h) */
};

uint64_t cc_uet_unloaded_rtt_ps(const struct cc_qp *q)
{
	uint64_t wire = (uint64_t)q->n_hops * (q->mtu_bytes + CC_UET_FRAME_EXTRA + CC_UET_ACK_WIRE);

	return q->base_rtt_ps + wire * 8 * UNITS_PS_PER_S / q->line_rate_bps;
}

static int cc_rccc_init(struct cc_qp *q)
{
	const struct cc_rccc_cfg *c = q->cfg;

	if (!c || q->line_rate_bps == 0)
		return -EINVAL;
	q->rate_bps = q->line_rate_bps;
	q->window_bytes = 0;
	return 0;
}

/* ---- settings: nic.rccc.* ---- */

#define CC_RCCC_OFF(f) offsetof(struct cc_rccc_cfg, f)

/* credit_bytes: a size, a whole number of 256-byte credit units. */
static int cc_rccc_credit_bytes(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct cc_rccc_cfg *c = params;
	uint64_t v;

	if (cfg_size(n, CC_RCCC_CREDIT_UNIT, UINT64_C(1) << 22, &v, err) != 0)
		return -EINVAL;
	if (v % CC_RCCC_CREDIT_UNIT) {
		cfg_errorf(err, n, "credit_bytes %llu is not a multiple of 256 (credit counts in 256-byte units)",
			   (unsigned long long)v);
		return -EINVAL;
	}
	c->credit_bytes = v;
	return 0;
}

static const struct cfg_key cc_rccc_keys[] = {
	{ "rate", CFG_KEY_DOUBLE, "0.99", .off = CC_RCCC_OFF(rate), .lo = 0.01, .hi = 1,
	  .doc = "the receiver's credit pacer, as a fraction of its port's line rate (0.99: just under it)" },
	{ "credit_bytes", CFG_KEY_CUSTOM, "16KiB", .read = cc_rccc_credit_bytes,
	  .doc = "credit one CREDIT packet grants, a multiple of 256 bytes (16KiB: four 4 KiB packets)" },
	{ "max_credit", CFG_KEY_DOUBLE, "1.5", .off = CC_RCCC_OFF(max_credit_bdp), .lo = 0.01,
	  .hi = 1000, .doc = "the most credit a sender holds, in bandwidth-delay products of its path" },
	{ "speculative", CFG_KEY_BOOL, "true", .off = CC_RCCC_OFF(speculative),
	  .doc = "a sender starts with max_credit of its own before any credit came" },
};

static const struct cfg_table cc_rccc_cfg_table = {
	.section = "nic.rccc",
	.keys = cc_rccc_keys,
	.n_keys = sizeof(cc_rccc_keys) / sizeof(cc_rccc_keys[0]),
	.ordered = true,
};

const struct cc_ops cc_rccc_ops = {
	.kind = { .name = "rccc", .doc = "UET RCCC: credit paced by the receiver (link_layer: uet)",
		  .settings = &cc_rccc_cfg_table, .settings_size = sizeof(struct cc_rccc_cfg) },
	.flags = CC_F_CREDIT,
	.init = cc_rccc_init,
};
