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

/* Opcode of packet @p of @n of a message sent with @op (READ: responses). */
static uint8_t tg_opcode(uint8_t op, uint64_t p, uint64_t n)
{
	bool first = p == 0, last = p == n - 1;

	if (op == TG_OP_WRITE)
		return first ? (last ? PKT_OP_WRITE_ONLY : PKT_OP_WRITE_FIRST)
			     : (last ? PKT_OP_WRITE_LAST : PKT_OP_WRITE_MIDDLE);
	if (op == TG_OP_READ)
		return first ? (last ? PKT_OP_READ_RESP_ONLY : PKT_OP_READ_RESP_FIRST)
			     : (last ? PKT_OP_READ_RESP_LAST : PKT_OP_READ_RESP_MIDDLE);
	return first ? (last ? PKT_OP_SEND_ONLY : PKT_OP_SEND_FIRST)
		     : (last ? PKT_OP_SEND_LAST : PKT_OP_SEND_MIDDLE);
}

uint64_t tg_ideal_fct_ps(const struct tg_path *path, uint64_t bytes, uint8_t op,
			 const struct tg_framing *fr)
{
	uint64_t n_pkts = bytes ? (bytes + fr->mtu_bytes - 1) / fr->mtu_bytes : 1;
	uint64_t dep[TG_MAX_HOPS] = { 0 }; /* departure (end of serialisation) per link */
	uint32_t h = path->n_hops;
	uint64_t t0 = 0, t;
	bool read = op == TG_OP_READ;

	/* A READ first carries its request (RETH, no payload) to the
	 * responder; the data then flows back over the same links. */
	if (read)
		for (uint32_t i = 0; i < h; i++)
			t0 += port_frame_ps(tg_frame_bytes(PKT_OP_READ_REQ, 0, fr->vlan), path->rate_bps[i]) +
			      path->delay_ps[i];
	/* Tandem of store-and-forward links: a packet leaves link i when it has
	 * fully arrived from link i-1 and link i has finished the previous one. */
	for (uint64_t p = 0; p < n_pkts; p++) {
		uint32_t len = p == n_pkts - 1 ? (uint32_t)(bytes - p * fr->mtu_bytes) : fr->mtu_bytes;
		uint32_t frame = tg_frame_bytes(tg_opcode(op, p, n_pkts), bytes ? len : 0, fr->vlan);
		uint64_t ready = t0;

		for (uint32_t k = 0; k < h; k++) {
			uint32_t i = read ? h - 1 - k : k; /* responses go back the way */
			uint64_t start = dep[k] > ready ? dep[k] : ready;

			dep[k] = start + port_frame_ps(frame, path->rate_bps[i]);
			ready = dep[k] + path->delay_ps[i];
		}
	}
	t = h ? dep[h - 1] + path->delay_ps[read ? 0 : h - 1] : t0;
	if (read)
		return t; /* complete when the last response arrives: no ACK */
	for (uint32_t i = h; i-- > 0;)
		t += port_frame_ps(tg_frame_bytes(PKT_OP_ACK, 0, fr->vlan), path->rate_bps[i]) +
		     path->delay_ps[i];
	return t;
}
