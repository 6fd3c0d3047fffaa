/* Message patterns and the ideal-FCT model. */
#include <errno.h>
#include <stdlib.h>

#include "pkt.h"
#include "pkt_ll.h"
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

int tg_stride(const uint32_t *hosts, uint32_t n_hosts, uint32_t stride, const struct tg_msg *proto,
	      struct tg_msg **msgs, uint32_t *n)
{
	if (n_hosts < 2 || stride == 0 || stride >= n_hosts)
		return -EINVAL;
	if (tg_grow(msgs, *n, n_hosts) != 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < n_hosts; i++) {
		struct tg_msg *m = &(*msgs)[(*n)++];

		*m = *proto;
		m->src = hosts[i];
		m->dst = hosts[(uint32_t)(((uint64_t)i + stride) % n_hosts)];
	}
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

static uint32_t tg_frame_bytes(uint8_t opcode, uint32_t payload, const struct tg_framing *fr)
{
	struct pkt_roce f = { 0 };

	f.addr.vlan = fr->vlan;
	f.addr.ll = fr->ll ? fr->ll->kind : PKT_LL_ROCE;
	f.addr.grh = fr->ib_grh;
	f.opcode = opcode;
	f.payload_bytes = payload;
	return pkt_roce_frame_bytes(&f);
}

/* Serialisation of a frame of @frame_bytes at @rate_bps on the model's
 * link layer (tg_frame_bytes). */
static uint64_t tg_frame_ps(const struct tg_framing *fr, uint32_t frame_bytes, uint64_t rate_bps)
{
	return pkt_ll_frame_ps(fr->ll ? fr->ll : &pkt_ll_roce, frame_bytes, rate_bps);
}

/* Opcode of packet @p of @n of a message sent with @op (READ: responses). */
static uint8_t tg_opcode(uint8_t op, uint64_t p, uint64_t n)
{
	static const enum pkt_xfer xs[] = {
		[TG_OP_WRITE] = PKT_XFER_WRITE,
		[TG_OP_SEND] = PKT_XFER_SEND,
		[TG_OP_READ] = PKT_XFER_READ_RESP,
		[TG_OP_WRITE_IMM] = PKT_XFER_WRITE_IMM, /* its last packet carries ImmDt */
	};
	enum pkt_xfer x = xs[op];

	return pkt_opcode(x, p == 0, p == n - 1);
}

uint64_t tg_ideal_fct_ps(const struct tg_path *path, uint64_t bytes, uint8_t op,
			 const struct tg_framing *fr)
{
	uint64_t n_pkts = bytes ? (bytes + fr->mtu_bytes - 1) / fr->mtu_bytes : 1;
	uint64_t dep[TG_MAX_HOPS] = { 0 }; /* departure (end of serialisation) per link */
	uint64_t mid_ps[TG_MAX_HOPS];      /* serialisation of a middle packet per link */
	uint64_t step_ps[TG_MAX_HOPS];     /* slowest of links 0..k: the steady spacing */
	uint64_t rate[TG_MAX_HOPS], delay[TG_MAX_HOPS];
	uint32_t h = path->n_hops;
	uint64_t t0 = 0, t;
	bool read = op == TG_OP_READ;

	/* A READ first carries its request (RETH, no payload) to the
	 * responder; the data then flows back over the same links. */
	if (read)
		for (uint32_t i = 0; i < h; i++)
			t0 += tg_frame_ps(fr, tg_frame_bytes(PKT_OP_READ_REQ, 0, fr), path->rate_bps[i]) +
			      path->delay_ps[i];
	for (uint32_t k = 0; k < h; k++) {
		uint32_t i = read ? h - 1 - k : k; /* responses go back the way */
		uint32_t frame = tg_frame_bytes(tg_opcode(op, 1, 3), fr->mtu_bytes, fr);

		rate[k] = path->rate_bps[i];
		delay[k] = path->delay_ps[i];
		mid_ps[k] = tg_frame_ps(fr, frame, rate[k]);
		step_ps[k] = k && step_ps[k - 1] > mid_ps[k] ? step_ps[k - 1] : mid_ps[k];
	}
	/* Tandem of store-and-forward links: a packet leaves link k when it
	 * has fully arrived from link k-1 and link k has finished the previous
	 * one. Middle packets are all alike, so once every link is in the
	 * regime it keeps (a link at least as slow as all before it stays busy
	 * from packet to packet; a faster one waits for each packet), each
	 * further middle packet leaves link k step_ps[k] after the previous:
	 * those are added at once, and the last packet is followed again. */
	for (uint64_t p = 0; p < n_pkts; p++) {
		bool mid = p > 0 && p < n_pkts - 1, steady = mid && p > 1;
		uint32_t len = p == n_pkts - 1 ? (uint32_t)(bytes - p * fr->mtu_bytes) : fr->mtu_bytes;
		uint32_t frame = mid ? 0 : tg_frame_bytes(tg_opcode(op, p, n_pkts), bytes ? len : 0,
							 fr);
		uint64_t ready = t0;

		for (uint32_t k = 0; k < h; k++) {
			uint64_t start = dep[k] > ready ? dep[k] : ready;

			if (steady)
				steady = mid_ps[k] >= (k ? step_ps[k - 1] : 0) ? dep[k] >= ready
									  : ready >= dep[k];
			dep[k] = start + (mid ? mid_ps[k] : tg_frame_ps(fr, frame, rate[k]));
			ready = dep[k] + delay[k];
		}
		if (steady && p + 2 < n_pkts) {
			uint64_t skip = n_pkts - 2 - p; /* middle packets p+1 .. n-2 */

			for (uint32_t k = 0; k < h; k++)
				dep[k] += skip * step_ps[k];
			p += skip;
		}
	}
	t = h ? dep[h - 1] + delay[h - 1] : t0;
	if (read)
		return t; /* complete when the last response arrives: no ACK */
	for (uint32_t i = h; i-- > 0;)
		t += tg_frame_ps(fr, tg_frame_bytes(PKT_OP_ACK, 0, fr), path->rate_bps[i]) +
		     path->delay_ps[i];
	return t;
}
