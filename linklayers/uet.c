/* Ultra Ethernet Transport (fabric.link_layer: uet; settings fabric.uet):
 * Ethernet switches and ports as RoCE's (PFC where a class is lossless,
 * ECN by fabric.ecn), frames of UET's PDS and SES headers over UDP 4793
 * (core/pkt_uet.h), switches that trim the data packets they have no room
 * for instead of dropping them, NICs that spray each packet over entropy
 * values and resend a trimmed packet on its NACK (nic/nic_uet.c), on the
 * NIC's selective repeat. docs/uet.md says what is modelled and how. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "exp_int.h"
#include "link_layer.h"
#include "pkt_uet.h"

enum {
	UET_TRIM_DSCP_DEFAULT = 50, /* priority 6 by the default dscp_map: a strict class */
};

struct uet_settings {
	bool trim;                /* switches trim instead of dropping */
	uint32_t trim_bytes;      /* frame bytes a trimmed packet keeps; 0: auto (its
				   * headers through the SES header) */
	uint8_t trim_dscp;        /* DSCP of trimmed packets (their class) */
	uint8_t trim_last_dscp;   /* ... of those trimmed on the last hop */
	int trim_pick;            /* 0 arriving, 1 either (sw_params.uet_trim_pick) */
	int spray;                /* enum nic_uet_spray */
	int delivery;             /* 0 RUD (unordered), 1 ROD (ordered) */
	uint32_t evs;             /* entropy values per connection */
};

static const char *const uet_delivery_names[] = { "rud", "rod", NULL };
static const char *const uet_spray_names[] = { "off", "oblivious", "recycle", "mixed", NULL };
static const char *const uet_trim_pick_names[] = { "arriving", "either", NULL };

/* A trimmed packet keeps at least Ethernet's least frame, which holds
 * its headers through the PDS header (what the receiver reads to NACK
 * it), tagged too. */
_Static_assert(PKT_ETH_BYTES + PKT_VLAN_BYTES + PKT_IPV4_BYTES + PKT_UDP_BYTES +
			       PKT_UET_PDS_REQ_BYTES + PKT_FCS_BYTES <= PKT_MIN_FRAME_BYTES,
	       "a 64-byte frame holds a tagged UET request's headers through the PDS header");

/* trim_bytes: auto or a size (checked against the headers in uet_exp_check). */
static int uet_trim_bytes(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct uet_settings *u = params;
	uint64_t v;

	if (n->type == CFG_SCALAR && strcmp(n->str, "auto") == 0) {
		u->trim_bytes = 0;
		return 0;
	}
	if (cfg_size(n, PKT_MIN_FRAME_BYTES, UINT16_MAX, &v, err) != 0)
		return -EINVAL;
	u->trim_bytes = (uint32_t)v;
	return 0;
}

static const struct cfg_key uet_keys[] = {
	{ "trim", CFG_KEY_BOOL, "true", .off = offsetof(struct uet_settings, trim),
	  .doc = "switches trim a data packet they have no room for (header kept, payload cut) instead of dropping it" },
	{ "trim_bytes", CFG_KEY_CUSTOM, "auto", .read = uet_trim_bytes,
	  .doc = "frame bytes a trimmed packet keeps: auto (64: Ethernet, IPv4, UDP, the PDS header and 6 bytes of the SES header) or a size, 64 up" },
	{ "trim_dscp", CFG_KEY_UINT, "50", .off = offsetof(struct uet_settings, trim_dscp), .size = 1,
	  .max = 63, .doc = "DSCP a switch gives a trimmed packet (its class; 50 is priority 6, strict by default); no data may use it" },
	{ "trim_lasthop_dscp", CFG_KEY_UINT, "51", .off = offsetof(struct uet_settings, trim_last_dscp),
	  .size = 1, .max = 63,
	  .doc = "DSCP a switch gives a packet it trims on the last hop, toward its receiver (UET's DSCP_TRIMMED_LASTHOP; 51 is priority 6 too), which the receiver NACKs with code UET_TRIMMED_LASTHOP; equal to trim_dscp, no trim is told apart; no data may use it" },
	{ "trim_pick", CFG_KEY_ENUM, "arriving", .off = offsetof(struct uet_settings, trim_pick),
	  .names = uet_trim_pick_names,
	  .doc = "which data packet a full queue trims: arriving (the one that found no room) or either (half the time, by the switch's draw, the one queued last on that class instead, and the arriving one takes its room: uet-htsim's queue)" },
	{ "spray", CFG_KEY_ENUM, "oblivious", .off = offsetof(struct uet_settings, spray),
	  .names = uet_spray_names,
	  .doc = "entropy value of each data packet: off (one per connection), oblivious (random per packet), recycle (EVs acknowledged unmarked are used again), mixed (recycle, else a cycle that skips EVs penalised by marks and trims)" },
	{ "delivery", CFG_KEY_ENUM, "rud", .off = offsetof(struct uet_settings, delivery),
	  .names = uet_delivery_names,
	  .doc = "rud: reliable unordered delivery (selective repeat, SACKs); rod: reliable ordered delivery (go-back-N, one path: spray off)" },
	{ "evs", CFG_KEY_UINT, "256", .off = offsetof(struct uet_settings, evs), .size = 4, .min = 1,
	  .max = 16384, .doc = "entropy values a connection sprays over" },
};

static const struct cfg_table uet_settings_table = {
	.section = "fabric.uet",
	.keys = uet_keys,
	.n_keys = sizeof(uet_keys) / sizeof(uet_keys[0]),
};

/* The node of key @key of section @sec of the document, or NULL. */
static const struct cfg_node *uet_key_node(const struct exp *e, const char *sec, const char *key)
{
	struct cfg_node *s = cfg_schema_get(cfg_doc_root(e->doc), sec);

	return s ? cfg_get(s, key) : NULL;
}

/* RUD's NIC settings, written into the document where absent (so that
 * resolved.yaml says what runs): selective repeat, no loss inferred from
 * SACKs (a packet behind others is taken as reordered by spraying: a trim's
 * NACK or the timer recovers), no cap on what is in flight past the
 * cumulative ACK (IRN's BDP flow control: with spraying the cumulative ACK
 * lags, and the congestion control's window bounds the flight). Given,
 * go-back-N is refused. */
static int uet_rud_document(const struct exp *e, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *n;

	if ((n = uet_key_node(e, "nic", "recovery")) && e->nic.recovery != NIC_RECOVERY_SR) {
		if (!n->dflt) {
			cfg_errorf(err, n, "fabric.link_layer: uet delivers by selective acknowledgement: nic.recovery must be selective-repeat (or absent; or fabric.uet.delivery: rod)");
			return -EINVAL;
		}
		/* The document says what runs (uet_nic_params gives the NICs
		 * selective repeat). */
		if (cfg_doc_set(e->doc, "nic.recovery=selective-repeat", e->n_sets + 3, err) != 0)
			return -EINVAL;
	}
	/* UET infers no loss from SACKs (a packet behind others is taken as
	 * reordered by spraying, not lost): a trim's NACK or the timer
	 * recovers. Absent, nic.sr_reorder says so in the document. */
	if ((n = uet_key_node(e, "nic", "sr_reorder")) && n->dflt) {
		char set[64];

		snprintf(set, sizeof(set), "nic.sr_reorder=%u",
			 (e->nic.sr_window_pkts ? e->nic.sr_window_pkts : NIC_SR_WINDOW_DEFAULT_PKTS) - 1);
		if (cfg_doc_set(e->doc, set, e->n_sets + 4, err) != 0)
			return -EINVAL;
	}
	/* Nor does it cap what is in flight past the cumulative ACK (IRN's
	 * BDP flow control: with spraying the cumulative ACK lags, and the
	 * congestion control's window bounds the flight). */
	if ((n = uet_key_node(e, "nic", "bdp_fc")) && n->dflt &&
	    cfg_doc_set(e->doc, "nic.bdp_fc=false", e->n_sets + 5, err) != 0)
		return -EINVAL;
	return 0;
}

/* Where fabric.uet.@key was given, else @ll (the default's place). */
static const struct cfg_node *uet_given_node(const struct exp *e, const struct cfg_node *ll,
					     const char *key)
{
	const struct cfg_node *u = uet_key_node(e, "fabric", "uet");
	const struct cfg_node *d = u ? cfg_get(u, key) : NULL;

	return d && !d->dflt ? d : ll;
}

/* With trimming on, no data may use a trimmed DSCP: fabric.uet.@key
 * (@dscp) against a message's DSCP (@what, @data). */
static int uet_trim_dscp_check(const struct exp *e, const struct cfg_node *ll, const char *key,
			       uint8_t dscp, uint8_t data, const char *what,
			       char err[CFG_ERR_BYTES])
{
	if (dscp != data)
		return 0;
	cfg_errorf(err, uet_given_node(e, ll, key),
		   "fabric.uet.%s %u is %s: every data packet would read as trimmed", key, dscp, what);
	return -EINVAL;
}

/* What UET does not carry here, refused at the key that asks for it:
 * go-back-N (its delivery is selective), the data check and READs (both
 * need what UET's semantic layer does differently), INT, a trimmed DSCP
 * that data uses, a trim that would cut into the headers. */
static int uet_exp_check(const struct exp *e, char err[CFG_ERR_BYTES])
{
	const struct uet_settings *u = link_layer_settings(e);
	const struct cfg_node *n, *ll = uet_key_node(e, "fabric", "link_layer");

	if (u->delivery == 1) {
		/* ROD: in order, so go-back-N (nic.recovery's default) on one path. */
		if ((n = uet_key_node(e, "nic", "recovery")) && e->nic.recovery != NIC_RECOVERY_GBN) {
			cfg_errorf(err, n, "fabric.uet.delivery: rod delivers in order: nic.recovery must be go-back-n (or absent)");
			return -EINVAL;
		}
		if (u->spray != NIC_UET_SPRAY_OFF) {
			const struct cfg_node *un = uet_key_node(e, "fabric", "uet");
			const struct cfg_node *sp = un ? cfg_get(un, "spray") : NULL;

			cfg_errorf(err, sp && !sp->dflt ? sp : un ? un : ll,
				   "fabric.uet.delivery: rod needs its packets in order, on one path: fabric.uet.spray must be off");
			return -EINVAL;
		}
	} else if (uet_rud_document(e, err) != 0) {
		return -EINVAL;
	}
	if ((n = uet_key_node(e, "fabric", "int")) && e->sw.int_on) {
		cfg_errorf(err, n, "fabric.int: UET frames carry no INT stack (fabric.link_layer: uet)");
		return -EINVAL;
	}
	if (e->graph.data.n_sets) {
		cfg_errorf(err, ll, "fabric.link_layer: uet does not carry data: true (its check needs go-back-n and memory-modelled QPs)");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		if (e->msgs[i].op == TG_OP_READ) {
			cfg_errorf(err, ll, "fabric.link_layer: uet models WRITEs and SENDs; RDMA READ is not modelled over UET");
			return -EINVAL;
		}
		if (u->trim &&
		    (uet_trim_dscp_check(e, ll, "trim_dscp", u->trim_dscp, e->msgs[i].dscp,
					 "the DSCP of data packets", err) != 0 ||
		     uet_trim_dscp_check(e, ll, "trim_lasthop_dscp", u->trim_last_dscp,
					 e->msgs[i].dscp, "the DSCP of data packets", err) != 0))
			return -EINVAL;
	}
	if (u->trim &&
	    (uet_trim_dscp_check(e, ll, "trim_dscp", u->trim_dscp, e->nic.data_dscp,
				 "nic.data_dscp", err) != 0 ||
	     uet_trim_dscp_check(e, ll, "trim_lasthop_dscp", u->trim_last_dscp, e->nic.data_dscp,
				 "nic.data_dscp", err) != 0))
		return -EINVAL;
	return 0;
}

/* UET carries marks back in ACKs, never in CNPs, and no INT stack. */
static int uet_cc_check(const struct exp *e, const struct cc_ops *ops, const struct cfg_mark *m,
			char err[CFG_ERR_BYTES])
{
	const struct uet_settings *u = link_layer_settings(e);

	if ((ops->flags & CC_F_CREDIT) && u->delivery == 1) {
		snprintf(err, CFG_ERR_BYTES,
			 "%s:%u:%u: congestion control '%s' runs on reliable unordered delivery here: fabric.uet.delivery: rod is not modelled with receiver credit",
			 m->file, m->line, m->col, ops->kind.name);
		return -EINVAL;
	}
	if (!ops->on_cnp && !(ops->flags & CC_F_INT))
		return 0;
	snprintf(err, CFG_ERR_BYTES,
		 "%s:%u:%u: congestion control '%s' needs %s, which fabric.link_layer: uet does not carry (UET echoes marks in ACKs: dctcp, swift, timely or none)",
		 m->file, m->line, m->col, ops->kind.name,
		 ops->on_cnp ? "CNPs" : "an INT stack in ACKs");
	return -EINVAL;
}

static void uet_switch_params(const struct exp *e, struct sw_params *sp)
{
	const struct uet_settings *u = link_layer_settings(e);

	sp->ll = &pkt_ll_uet;
	sp->uet_trim_bytes = u->trim ? (u->trim_bytes ? u->trim_bytes : PKT_MIN_FRAME_BYTES) : 0;
	sp->uet_trim_dscp = u->trim_dscp;
	sp->uet_trim_last_dscp = u->trim_last_dscp;
	sp->uet_trim_pick = (uint8_t)u->trim_pick;
}

static void uet_nic_params(const struct exp *e, struct nic_params *np)
{
	const struct uet_settings *u = link_layer_settings(e);
	const struct cfg_node *n;
	char err[CFG_ERR_BYTES];
	uint64_t v;
	bool b;

	np->ll = &pkt_ll_uet;
	np->uet_spray = (uint8_t)u->spray;
	np->uet_evs = u->evs;
	/* Without trimming no packet carries the DSCP: 64 matches none. */
	np->uet_trim_dscp = u->trim ? u->trim_dscp : 64;
	/* The same DSCP for both: no trim is told apart (all UET_TRIMMED). */
	np->uet_trim_last_dscp = u->trim && u->trim_last_dscp != u->trim_dscp ? u->trim_last_dscp : 64;
	np->uet_seed = e->seed;
	np->uet_rod = u->delivery == 1;
	np->recovery = np->uet_rod ? NIC_RECOVERY_GBN : NIC_RECOVERY_SR;
	if (np->uet_rod)
		return; /* go-back-N as the nic: section says */
	/* nic.sr_reorder as the document has it now: uet_exp_check set it
	 * to the window less one where it was absent (read before). */
	if ((n = uet_key_node(e, "nic", "sr_reorder")) && cfg_u64(n, 0, UINT32_MAX, &v, err) == 0)
		np->sr_reorder_pkts = (uint32_t)v;
	if ((n = uet_key_node(e, "nic", "bdp_fc")) && cfg_bool(n, &b, err) == 0)
		np->sr_bdp_fc = b;
}

const struct link_layer_ops link_layer_uet = {
	.kind = { "uet", "Ethernet, Ultra Ethernet Transport: trimming, spraying, SACK",
		  &uet_settings_table, sizeof(struct uet_settings) },
	.section = "uet",
	.section_doc = "Ultra Ethernet settings (with link_layer: uet)",
	.wire = &pkt_ll_uet,
	.pfc = true,
	.eth_switch = true,
	.exp_check = uet_exp_check,
	.cc_check = uet_cc_check,
	.marking = link_layer_eth_marking,
	.marking_key = "fabric.ecn",
	.marks_dscp = link_layer_eth_marks_dscp,
	.switch_params = uet_switch_params,
	.nic_params = uet_nic_params,
	.nic_ready = link_layer_eth_nic_ready,
};
