/* Message patterns and the ideal-FCT model. */
#include <errno.h>
#include <stdlib.h>

#include "pkt.h"
#include "port.h"
#include "tg.h"

static int tg_grow(struct tg_msg **msgs, uint32_t n, uint32_t add)
{
	struct tg_msg *m = realloc(*msgs, sizeof(*m) * ((size_t)n + add));

	if (!m)
		return -ENOMEM;
	*msgs = m;
	return 0;
}

int tg_permutation(struct rng *rng, const uint32_t *hosts, uint32_t n_hosts,
		   const struct tg_msg *proto, struct tg_msg **msgs, uint32_t *n)
{
	uint32_t *perm;
	bool fixed;

	if (n_hosts < 2)
		return -EINVAL;
	perm = malloc(sizeof(*perm) * n_hosts);
	if (!perm || tg_grow(msgs, *n, n_hosts) != 0) {
		free(perm);
		return -ENOMEM;
	}
	/* Fisher-Yates, redrawn until no host maps to itself: a uniform
	 * derangement (about e tries on average). */
	do {
		for (uint32_t i = 0; i < n_hosts; i++)
			perm[i] = i;
		for (uint32_t i = n_hosts - 1; i > 0; i--) {
			uint32_t j = (uint32_t)rng_below(rng, (uint64_t)i + 1), x = perm[i];

			perm[i] = perm[j];
			perm[j] = x;
		}
		fixed = false;
		for (uint32_t i = 0; i < n_hosts && !fixed; i++)
			fixed = perm[i] == i;
	} while (fixed);
	for (uint32_t i = 0; i < n_hosts; i++) {
		struct tg_msg *m = &(*msgs)[(*n)++];

		*m = *proto;
		m->src = hosts[i];
		m->dst = hosts[perm[i]];
	}
	free(perm);
	return 0;
}

int tg_incast(const uint32_t *srcs, uint32_t n_srcs, const struct tg_msg *proto,
	      struct tg_msg **msgs, uint32_t *n)
{
	if (tg_grow(msgs, *n, n_srcs) != 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < n_srcs; i++) {
		struct tg_msg *m = &(*msgs)[(*n)++];

		*m = *proto;
		m->src = srcs[i];
	}
	return 0;
}

static uint32_t tg_frame_bytes(uint8_t opcode, uint32_t payload, bool vlan)
{
	struct pkt_roce f = { 0 };

	f.addr.vlan = vlan;
	f.opcode = opcode;
	f.payload_bytes = payload;
	return pkt_roce_frame_bytes(&f);
}

uint64_t tg_ideal_fct_ps(const struct tg_path *path, uint64_t bytes, uint8_t op,
			 const struct tg_framing *fr)
{
	uint64_t n_pkts = bytes ? (bytes + fr->mtu_bytes - 1) / fr->mtu_bytes : 1;
	uint64_t dep[TG_MAX_HOPS] = { 0 }; /* departure (end of serialisation) per link */
	uint32_t h = path->n_hops;
	uint64_t t, ack_frame;

	/* Tandem of store-and-forward links: a packet leaves link i when it has
	 * fully arrived from link i-1 and link i has finished the previous one. */
	for (uint64_t p = 0; p < n_pkts; p++) {
		bool first = p == 0, last = p == n_pkts - 1;
		uint32_t len = last ? (uint32_t)(bytes - p * fr->mtu_bytes) : fr->mtu_bytes;
		uint8_t opc;
		uint32_t frame;
		uint64_t ready = 0;

		if (op == TG_OP_WRITE)
			opc = first ? (last ? PKT_OP_WRITE_ONLY : PKT_OP_WRITE_FIRST)
				    : (last ? PKT_OP_WRITE_LAST : PKT_OP_WRITE_MIDDLE);
		else
			opc = first ? (last ? PKT_OP_SEND_ONLY : PKT_OP_SEND_FIRST)
				    : (last ? PKT_OP_SEND_LAST : PKT_OP_SEND_MIDDLE);
		frame = tg_frame_bytes(opc, bytes ? len : 0, fr->vlan);
		for (uint32_t i = 0; i < h; i++) {
			uint64_t start = dep[i] > ready ? dep[i] : ready;

			dep[i] = start + port_frame_ps(frame, path->rate_bps[i]);
			ready = dep[i] + path->delay_ps[i];
		}
	}
	t = h ? dep[h - 1] + path->delay_ps[h - 1] : 0;
	ack_frame = tg_frame_bytes(PKT_OP_ACK, 0, fr->vlan);
	for (uint32_t i = h; i-- > 0;)
		t += port_frame_ps((uint32_t)ack_frame, path->rate_bps[i]) + path->delay_ps[i];
	return t;
}
