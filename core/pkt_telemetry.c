/* HPCC's INT stack on RoCEv2 frames (pkt_telemetry.h): opening a record at
 * the stack's end as a frame grows in place (the payload, pad and ICRC move
 * when held; IPv4, UDP and frame lengths follow), filling it in the stack's
 * format (full or compact), and copying a whole stack into an ACK.
 * Layout: docs/wire-formats.md, "INT stack". */
#include "pkt_telemetry.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "pkt_view.h"

enum {
	PKT_INT_ETH_MIN_BYTES = PKT_MIN_FRAME_BYTES - PKT_FCS_BYTES, /* 60 */
	PKT_INT_IPV4_MAX_BYTES = 0xFFFF,                             /* total length field */
};

static inline void pkt_int_put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Set the IPv4 total length of the header at @ip to @len, with the RFC 1624
 * (eqn. 3) checksum update. */
static void pkt_int_set_ip_len(uint8_t *ip, uint32_t len)
{
	uint32_t sum = (uint32_t)(uint16_t)~pkt_get16(ip + 10) + (uint16_t)~pkt_get16(ip + 2) +
		       (uint16_t)len;

	sum = (sum & 0xFFFF) + (sum >> 16);
	sum = (sum & 0xFFFF) + (sum >> 16);
	pkt_int_put16(ip + 2, len);
	pkt_int_put16(ip + 10, (uint16_t)~sum);
}

/* Recompute the ICRC of the whole frame in @m whose IPv4 header is at @ip. */
static void pkt_int_icrc(uint8_t *ip)
{
	uint32_t len = (uint32_t)pkt_get16(ip + 2) - PKT_ICRC_BYTES;
	uint32_t icrc = pkt_icrc(ip, len);

	/* Least-significant byte first (pkt.c). */
	ip[len] = (uint8_t)icrc;
	ip[len + 1] = (uint8_t)(icrc >> 8);
	ip[len + 2] = (uint8_t)(icrc >> 16);
	ip[len + 3] = (uint8_t)(icrc >> 24);
}

/* The view of the RoCEv2 frame at @d (@held bytes in the mbuf) through its
 * INT stack. 0 or -EINVAL. */
static int pkt_int_view(struct pkt_view *v, const uint8_t *d, uint32_t held)
{
	int rc = pkt_view_roce(v, PKT_LL_ROCE, d, held);

	return rc == 0 ? pkt_view_int(v, d, held) : rc;
}

/* Does the mbuf of the frame @v views hold it through its ICRC? */
static inline bool pkt_int_whole(const struct pkt_view *v, const uint8_t *d, uint32_t held)
{
	return held >= (uint32_t)v->l3_off + pkt_get16(d + v->l3_off + 2);
}

/* Open @grow bytes at @at of the frame in @m (viewed by @v): a whole
 * frame's bytes from @at through its ICRC move up and its Ethernet pad is
 * redone; a frame of headers only must end at @at. Lengths follow
 * (IPv4 with checksum, UDP, mbuf, pkt_meta frame_bytes); the ICRC is
 * not recomputed. 0, -ENOSPC or -EINVAL; nothing changes unless 0. */
static int pkt_int_grow(struct rte_mbuf *m, const struct pkt_view *v, uint32_t at,
			uint32_t grow, bool *whole)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *), *ip = d + v->l3_off, *udp = d + v->l4_off;
	uint32_t held = rte_pktmbuf_data_len(m), ip_bytes = pkt_get16(ip + 2);
	uint32_t end = v->l3_off + ip_bytes, new_ip = ip_bytes + grow, new_frame, new_data;

	if (new_ip > PKT_INT_IPV4_MAX_BYTES)
		return -ENOSPC;
	new_frame = RTE_MAX(v->l3_off + new_ip, (uint32_t)PKT_INT_ETH_MIN_BYTES) + PKT_FCS_BYTES;
	if (new_frame > UINT16_MAX)
		return -ENOSPC;
	*whole = held >= end;
	if (*whole)
		new_data = new_frame - PKT_FCS_BYTES;
	else if (held == at)
		new_data = held + grow;
	else
		return -EINVAL;
	if (new_data > held && new_data - held > rte_pktmbuf_tailroom(m))
		return -ENOSPC;
	if (*whole) {
		memmove(d + at + grow, d + at, end - at);
		memset(d + end + grow, 0, new_data - (end + grow));
	}
	pkt_int_set_ip_len(ip, new_ip);
	pkt_int_put16(udp + 4, pkt_get16(udp + 4) + grow);
	m->data_len = (uint16_t)new_data;
	m->pkt_len = new_data;
	pkt_meta(m)->frame_bytes = (uint16_t)new_frame;
	return 0;
}

int pkt_int_reserve(struct rte_mbuf *m, struct pkt_int_enc enc, struct pkt_int_slot *slot)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t at, hdr, rec, rec_bytes, hops = 0;
	struct pkt_view v;
	bool whole;
	int rc;

	if (!pkt_int_enc_valid(enc.fmt, enc.multi) ||
	    pkt_int_view(&v, d, rte_pktmbuf_data_len(m)) != 0)
		return -EINVAL;
	rec_bytes = pkt_int_rec_bytes(enc.fmt);
	hdr = (uint32_t)v.bth_off + pkt_layouts[v.opcode].hdr_bytes;
	if (v.int_off) {
		/* One format per stack: its records' size is in its header. */
		if (v.int_fmt != enc.fmt || v.int_multi != enc.multi)
			return -EINVAL;
		hops = v.int_hops;
		if (hops >= PKT_INT_MAX_HOPS)
			return -E2BIG;
		at = rec = hdr + PKT_INT_HDR_BYTES + hops * rec_bytes;
		rc = pkt_int_grow(m, &v, at, rec_bytes, &whole);
	} else {
		at = hdr;
		rec = hdr + PKT_INT_HDR_BYTES;
		rc = pkt_int_grow(m, &v, at, PKT_INT_HDR_BYTES + rec_bytes, &whole);
	}
	if (rc != 0)
		return rc;
	if (!v.int_off) {
		d[hdr + PKT_INT_HDR_FMT_OFF] = enc.fmt;
		d[hdr + PKT_INT_HDR_MULTI_OFF] = enc.multi;
		d[v.bth_off + 4] |= PKT_BTH_INT;
	}
	pkt_int_put16(d + hdr, hops + 1);
	memset(d + rec, 0, rec_bytes);
	slot->rec_off = (uint16_t)rec;
	slot->whole = whole;
	slot->fmt = enc.fmt;
	slot->multi = enc.multi;
	return 0;
}

void pkt_int_fill(struct rte_mbuf *m, const struct pkt_int_slot *slot,
		  const struct pkt_int_hop *h)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);

	if (slot->fmt == PKT_INT_FMT_COMPACT)
		pkt_int_hop_write_compact(d + slot->rec_off, h, slot->multi);
	else
		pkt_int_hop_write(d + slot->rec_off, h);
	if (slot->whole)
		pkt_int_icrc(d + pkt_meta(m)->l3_off);
}

int pkt_int_append_enc(struct rte_mbuf *m, struct pkt_int_enc enc, const struct pkt_int_hop *h)
{
	struct pkt_int_slot slot;
	int rc = pkt_int_reserve(m, enc, &slot);

	if (rc == 0)
		pkt_int_fill(m, &slot, h);
	return rc;
}

int pkt_int_append(struct rte_mbuf *m, const struct pkt_int_hop *h)
{
	return pkt_int_append_enc(m, (struct pkt_int_enc){ PKT_INT_FMT_FULL, 0 }, h);
}

int pkt_int_echo(struct rte_mbuf *m, const uint8_t *stack)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t hops = pkt_get16(stack), bytes, at;
	uint8_t fmt = stack[PKT_INT_HDR_FMT_OFF];
	struct pkt_view v;
	bool whole;
	int rc;

	if (hops > PKT_INT_MAX_HOPS || !pkt_int_enc_valid(fmt, stack[PKT_INT_HDR_MULTI_OFF]) ||
	    pkt_int_view(&v, d, rte_pktmbuf_data_len(m)) != 0 || v.int_off ||
	    !pkt_int_whole(&v, d, rte_pktmbuf_data_len(m)))
		return -EINVAL;
	bytes = PKT_INT_HDR_BYTES + hops * pkt_int_rec_bytes(fmt);
	at = (uint32_t)v.bth_off + pkt_layouts[v.opcode].hdr_bytes;
	rc = pkt_int_grow(m, &v, at, bytes, &whole);
	if (rc != 0)
		return rc;
	memcpy(d + at, stack, bytes);
	d[v.bth_off + 4] |= PKT_BTH_INT;
	pkt_int_icrc(d + v.l3_off);
	return 0;
}
