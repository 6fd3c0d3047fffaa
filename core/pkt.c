/* RoCEv2 and PFC frames on rte_mbufs: per-packet builders, a parser that
 * accepts frames from any source, the ICRC (CRC-32 over the invariant fields,
 * IBTA Annex A17 as done by Linux rxe) and in-place IPv4 rewrites with
 * incremental checksum update (RFC 1624). Layouts: docs/wire-formats.md. */
#include "pkt.h"
#include "pkt_ib.h"
#include "pkt_int.h"
#include "pkt_view.h"

#include <assert.h>
#include <errno.h>
#include <string.h>


enum {
	PKT_IPV4_ID = 1,               /* scapy's default; the shared vectors use it */
	PKT_IPV4_DF = 0x4000,          /* flags: don't fragment */
	PKT_IPV4_MAX_BYTES = 0xFFFF,   /* total length field */
	PKT_IPV4_MAX_HDR_BYTES = 60,   /* IHL 15 */
	PKT_BTH_VARIANT_OFF = 4,       /* FECN/BECN byte, masked in the ICRC */
	PKT_VLAN_PCP_SHIFT = 13,
	PKT_ETH_MIN_BYTES = PKT_MIN_FRAME_BYTES - PKT_FCS_BYTES, /* 60 */
	PKT_PFC_VEC_OFF = 16,          /* class-enable vector */
	PKT_PFC_TIME_OFF = 18,         /* first of the 8 pause timers */
	PKT_DETH_BYTES = 8,
	PKT_IETH_BYTES = 4,
	PKT_ATOMIC_ETH_BYTES = 28,
	PKT_ATOMIC_ACK_ETH_BYTES = 8,
	/* IPv4 (max) + UDP + BTH: the part of the ICRC input with masked fields */
	PKT_ICRC_MASKED_MAX_BYTES = PKT_IPV4_MAX_HDR_BYTES + PKT_UDP_BYTES + PKT_BTH_BYTES,
};

/* CRC-32 state after the 8 bytes of 0xFF that stand in for the masked LRH
 * (seed 0xFFFFFFFF, not yet inverted); Linux rxe starts from the same value. */
#define PKT_ICRC_SEED UINT32_C(0xDEBB20E3)

static const uint8_t pkt_pfc_dst[6] = { 0x01, 0x80, 0xC2, 0x00, 0x00, 0x01 };

#define PKT_L(ext_bytes, exts, kind) { PKT_BTH_BYTES + (ext_bytes), (exts), (kind) }
#define PKT_L_DATA PKT_L(0, 0, PKT_KIND_DATA)
#define PKT_L_IMM(more) PKT_L((more) + PKT_IMM_BYTES, PKT_EXT_IMM, PKT_KIND_DATA)
#define PKT_L_RETH PKT_L(PKT_RETH_BYTES, PKT_EXT_RETH, PKT_KIND_DATA)
#define PKT_L_RETH_IMM PKT_L(PKT_RETH_BYTES + PKT_IMM_BYTES, PKT_EXT_RETH | PKT_EXT_IMM, PKT_KIND_DATA)

/* RC (0x00-0x17), UC (0x20-0x2B), UD (0x64/0x65) and CNP, after IBTA Vol 1
 * section 9.2 / Linux include/rdma/ib_pack.h. */
const struct pkt_layout pkt_layouts[256] = {
	[0x00] = PKT_L_DATA, [0x01] = PKT_L_DATA, [0x02] = PKT_L_DATA,
	[0x03] = PKT_L_IMM(0),
	[0x04] = PKT_L_DATA,
	[0x05] = PKT_L_IMM(0),
	[0x06] = PKT_L_RETH, [0x07] = PKT_L_DATA, [0x08] = PKT_L_DATA,
	[0x09] = PKT_L_IMM(0),
	[0x0A] = PKT_L_RETH, [0x0B] = PKT_L_RETH_IMM,
	[0x0C] = PKT_L(PKT_RETH_BYTES, PKT_EXT_RETH, PKT_KIND_CTRL),
	[0x0D] = PKT_L(PKT_AETH_BYTES, PKT_EXT_AETH, PKT_KIND_DATA),
	[0x0E] = PKT_L_DATA,
	[0x0F] = PKT_L(PKT_AETH_BYTES, PKT_EXT_AETH, PKT_KIND_DATA),
	[0x10] = PKT_L(PKT_AETH_BYTES, PKT_EXT_AETH, PKT_KIND_DATA),
	[0x11] = PKT_L(PKT_AETH_BYTES, PKT_EXT_AETH, PKT_KIND_ACK),
	[0x12] = PKT_L(PKT_AETH_BYTES + PKT_ATOMIC_ACK_ETH_BYTES, PKT_EXT_AETH, PKT_KIND_ACK),
	[0x13] = PKT_L(PKT_ATOMIC_ETH_BYTES, 0, PKT_KIND_CTRL),
	[0x14] = PKT_L(PKT_ATOMIC_ETH_BYTES, 0, PKT_KIND_CTRL),
	[0x16] = PKT_L(PKT_IETH_BYTES, 0, PKT_KIND_DATA),
	[0x17] = PKT_L(PKT_IETH_BYTES, 0, PKT_KIND_DATA),
	[0x20] = PKT_L_DATA, [0x21] = PKT_L_DATA, [0x22] = PKT_L_DATA,
	[0x23] = PKT_L_IMM(0),
	[0x24] = PKT_L_DATA,
	[0x25] = PKT_L_IMM(0),
	[0x26] = PKT_L_RETH, [0x27] = PKT_L_DATA, [0x28] = PKT_L_DATA,
	[0x29] = PKT_L_IMM(0),
	[0x2A] = PKT_L_RETH, [0x2B] = PKT_L_RETH_IMM,
	[0x64] = PKT_L(PKT_DETH_BYTES, 0, PKT_KIND_DATA),
	[0x65] = PKT_L_IMM(PKT_DETH_BYTES),
	[PKT_OP_CNP] = PKT_L(PKT_CNP_PAD_BYTES, 0, PKT_KIND_CNP),
};

/* Reflected CRC-32 (IEEE 802.3 polynomial 0x04C11DB7, bit-reversed
 * 0xEDB88320: the zlib / Ethernet FCS CRC), slicing-by-8: table 0 is the
 * classic byte table, table k advances a byte through k more zero bytes, so
 * eight bytes cost eight independent lookups instead of a chain of eight.
 * Filled once when the program loads and only read afterwards. */
enum { PKT_CRC_SLICES = 8 };
#define PKT_CRC32_POLY_REFLECTED UINT32_C(0xEDB88320)

static uint32_t pkt_crc32_tables[PKT_CRC_SLICES][256];

__attribute__((constructor)) static void pkt_crc32_init(void)
{
	unsigned i, k, bit;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (bit = 0; bit < 8; bit++)
			c = (c & 1) ? (c >> 1) ^ PKT_CRC32_POLY_REFLECTED : c >> 1;
		pkt_crc32_tables[0][i] = c;
	}
	for (k = 1; k < PKT_CRC_SLICES; k++)
		for (i = 0; i < 256; i++) {
			uint32_t c = pkt_crc32_tables[k - 1][i];

			pkt_crc32_tables[k][i] = (c >> 8) ^ pkt_crc32_tables[0][c & 0xFF];
		}
}

/* pkt_int.h */
uint32_t pkt_crc32_update(uint32_t crc, const uint8_t *p, uint32_t len)
{
	const uint32_t (*t)[256] = pkt_crc32_tables;

	for (; len >= 8; p += 8, len -= 8) {
		/* Little-endian loads written bytewise: one load on x86/arm64. */
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
			      (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;

		crc = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
		      t[4][lo >> 24] ^ t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^
		      t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
	}
	while (len--)
		crc = t[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
	return crc;
}

/* Lengths of frame @f, shared by the builder and pkt_roce_frame_bytes so that
 * they cannot disagree. */
struct pkt_lens {
	uint32_t l3_off;      /* Ethernet (+ VLAN) header */
	uint32_t hdr_end;     /* end of the transport headers (BTH + ext) */
	uint32_t ip_bytes;    /* IPv4 total length: through pad and ICRC */
	uint32_t frame_bytes; /* incl. Ethernet pad and FCS, >= 64 */
};

static inline void pkt_lens_at(const struct pkt_roce *f, uint32_t l3_off, unsigned hdr_bytes,
			       struct pkt_lens *l)
{
	uint32_t eth_bytes;

	l->l3_off = l3_off;
	l->hdr_end = l->l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES + hdr_bytes;
	l->ip_bytes = PKT_IPV4_BYTES + PKT_UDP_BYTES + hdr_bytes + f->payload_bytes +
		      pkt_pad_bytes(f->payload_bytes) + PKT_ICRC_BYTES;
	eth_bytes = l->l3_off + l->ip_bytes;
	l->frame_bytes = RTE_MAX(eth_bytes, (uint32_t)PKT_ETH_MIN_BYTES) + PKT_FCS_BYTES;
}

/* Where the IPv4 header starts in frames addressed by @a. */
static inline uint32_t pkt_l3_off_of(const struct pkt_addr *a)
{
	return PKT_ETH_BYTES + (a->vlan ? PKT_VLAN_BYTES : 0);
}

static inline void pkt_lens_of(const struct pkt_roce *f, unsigned hdr_bytes, struct pkt_lens *l)
{
	pkt_lens_at(f, pkt_l3_off_of(&f->addr), hdr_bytes, l);
}

unsigned pkt_roce_xport_hdr_bytes(uint8_t opcode)
{
	return pkt_layouts[opcode].hdr_bytes;
}

uint32_t pkt_roce_frame_bytes(const struct pkt_roce *f)
{
	struct pkt_lens l;

	if (unlikely(f->addr.ll == PKT_LL_IB))
		return pkt_ib_frame_bytes(f);
	if (unlikely(f->addr.ll == PKT_LL_UET))
		return pkt_uet_frame_bytes(f);
	pkt_lens_of(f, pkt_layouts[f->opcode].hdr_bytes, &l);
	return l.frame_bytes;
}

/* Copy the IPv4, UDP and BTH headers at @ip (IHL honoured, at most @len bytes)
 * into @buf with the variant fields set to all-ones; returns bytes copied. */
static uint32_t pkt_icrc_masked(const uint8_t *ip, uint32_t len,
				uint8_t buf[PKT_ICRC_MASKED_MAX_BYTES])
{
	uint32_t ihl_bytes = (uint32_t)(ip[0] & 0x0F) * 4;
	uint32_t udp_cksum = ihl_bytes + 6;
	uint32_t bth_var = ihl_bytes + PKT_UDP_BYTES + PKT_BTH_VARIANT_OFF;
	uint32_t n = RTE_MIN(len, ihl_bytes + PKT_UDP_BYTES + PKT_BTH_BYTES);

	memcpy(buf, ip, n);
	/* TOS, TTL and the header checksum change hop by hop; the UDP checksum
	 * and the FECN/BECN byte may be rewritten on the way too. */
	if (n > 11) {
		buf[1] = 0xFF;
		buf[8] = 0xFF;
		buf[10] = 0xFF;
		buf[11] = 0xFF;
	}
	if (n > udp_cksum + 1) {
		buf[udp_cksum] = 0xFF;
		buf[udp_cksum + 1] = 0xFF;
	}
	if (n > bth_var)
		buf[bth_var] = 0xFF;
	return n;
}

uint32_t pkt_icrc(const uint8_t *ip, uint32_t len)
{
	uint8_t hdr[PKT_ICRC_MASKED_MAX_BYTES];
	uint32_t n = pkt_icrc_masked(ip, len, hdr);
	uint32_t crc = pkt_crc32_update(PKT_ICRC_SEED, hdr, n);

	crc = pkt_crc32_update(crc, ip + n, len - n);
	return ~crc;
}

uint32_t pkt_eth_ipv4_udp_fixed(uint8_t *p, const struct pkt_addr *a, uint16_t sport,
				 uint16_t dport)
{
	uint32_t l3_off = pkt_l3_off_of(a);
	uint8_t *ip = p + l3_off, *udp = ip + PKT_IPV4_BYTES;

	memcpy(p, a->dst_mac, 6);
	memcpy(p + 6, a->src_mac, 6);
	if (a->vlan) {
		pkt_put16(p + 12, PKT_ETHERTYPE_VLAN);
		pkt_put16(p + 14, (uint16_t)((a->pcp & 7) << PKT_VLAN_PCP_SHIFT |
					     (a->vid & PKT_VLAN_VID_MASK)));
	}
	pkt_put16(p + l3_off - 2, PKT_ETHERTYPE_IPV4);
	ip[0] = PKT_IPV4_VER_IHL;
	ip[1] = (uint8_t)(a->dscp << 2 | (a->ecn & 3));
	pkt_put16(ip + 2, 0);
	pkt_put16(ip + 4, PKT_IPV4_ID);
	pkt_put16(ip + 6, PKT_IPV4_DF);
	ip[8] = a->ttl;
	ip[9] = PKT_IPPROTO_UDP;
	pkt_put16(ip + 10, 0);
	pkt_put32(ip + 12, a->src_ip);
	pkt_put32(ip + 16, a->dst_ip);
	pkt_put16(udp, sport);
	pkt_put16(udp + 2, dport);
	pkt_put32(udp + 4, 0); /* length below; no UDP checksum over IPv4 (RoCE's ICRC covers it) */
	return l3_off;
}

/* The fields of a frame that depend only on where it goes (pkt_tmpl):
 * Ethernet with its optional 802.1Q tag, IPv4 less its total length and
 * checksum, the UDP ports and the BTH's partition key and destination QP;
 * every other byte up to the BTH's end zero. Returns the IPv4 header's
 * offset. */
static uint32_t pkt_roce_write_fixed(uint8_t *p, const struct pkt_addr *a, uint16_t pkey,
				     uint32_t dest_qp)
{
	uint32_t l3_off = pkt_eth_ipv4_udp_fixed(p, a, a->udp_sport, PKT_ROCE_UDP_PORT);
	uint8_t *bth = p + l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES;

	memset(bth, 0, PKT_BTH_BYTES);
	pkt_put16(bth + 2, pkey);
	pkt_put24(bth + 5, dest_qp & PKT_24BIT_MASK);
	return l3_off;
}

uint32_t pkt_ipv4_fixed_sum(const uint8_t *ip)
{
	uint32_t sum = 0;

	for (unsigned i = 0; i < PKT_IPV4_BYTES; i += 2)
		sum += pkt_get16(ip + i);
	return sum;
}

/* Everything of frame @f that pkt_roce_write_fixed leaves out, on a frame
 * whose fixed fields are at @p with their IPv4 sum @ip_sum: lengths, the
 * IPv4 checksum, the BTH's opcode, flags and PSN, the extension headers,
 * and when @full the payload, pad, ICRC and Ethernet pad up to
 * @data_bytes; then the metadata. Inlined into both builders (a call
 * costs more than it shares). */
static inline __attribute__((always_inline)) void
pkt_roce_write_rest(struct rte_mbuf *m, uint8_t *p, const struct pkt_lens *l,
		    const struct pkt_layout *lay, const struct pkt_roce *f, uint32_t ip_sum,
		    const uint8_t *payload, bool full, uint32_t data_bytes)
{
	uint8_t *ip = p + l->l3_off, *udp = ip + PKT_IPV4_BYTES, *bth = udp + PKT_UDP_BYTES;
	uint32_t pad = pkt_pad_bytes(f->payload_bytes);
	struct pkt_meta *meta;

	pkt_put16(ip + 2, (uint16_t)l->ip_bytes);
	ip_sum += l->ip_bytes;
	ip_sum = (ip_sum & 0xFFFF) + (ip_sum >> 16);
	ip_sum = (ip_sum & 0xFFFF) + (ip_sum >> 16);
	pkt_put16(ip + 10, (uint16_t)~ip_sum);
	pkt_put16(udp + 4, (uint16_t)(l->ip_bytes - PKT_IPV4_BYTES));

	pkt_write_xport(bth, lay, f, pad);

	if (full) {
		uint8_t *end = p + l->hdr_end;
		uint32_t icrc_len = l->ip_bytes - PKT_ICRC_BYTES;

		if (f->payload_bytes != 0)
			memcpy(end, payload, f->payload_bytes);
		end += f->payload_bytes;
		memset(end, 0, pad);
		end += pad;
		pkt_put_crc32(end, pkt_icrc(ip, icrc_len));
		end += PKT_ICRC_BYTES;
		/* Ethernet padding up to the 60-byte minimum. */
		memset(end, 0, (size_t)(p + data_bytes - end));
	}

	meta = pkt_meta(m);
	meta->frame_bytes = (uint16_t)l->frame_bytes;
	meta->payload_bytes = (uint16_t)f->payload_bytes;
	meta->l3_off = (uint8_t)l->l3_off;
	meta->kind = lay->kind;
	meta->flags = 0;
}

/* Checks and lengths shared by both builders: the frame's layout, lengths,
 * bytes to write and whether it is written whole. Returns 0 or -errno. */
static inline __attribute__((always_inline)) int
pkt_roce_plan(const struct pkt_roce *f, uint32_t l3_off, const uint8_t *payload,
	      const struct pkt_layout **lay, struct pkt_lens *l, bool *full, uint32_t *data_bytes)
{
	*lay = &pkt_layouts[f->opcode];
	if ((*lay)->hdr_bytes == 0)
		return -EINVAL;
	if (f->payload_bytes > PKT_IPV4_MAX_BYTES)
		return -EINVAL;
	pkt_lens_at(f, l3_off, (*lay)->hdr_bytes, l);
	if (l->ip_bytes > PKT_IPV4_MAX_BYTES || l->frame_bytes > UINT16_MAX)
		return -EINVAL;
	/* A frame without payload has nothing to leave out: always write it
	 * whole, ICRC included, so that ACKs and CNPs decode completely. */
	*full = payload != NULL || f->payload_bytes == 0;
	*data_bytes = *full ? l->frame_bytes - PKT_FCS_BYTES : l->hdr_end;
	if (*data_bytes > UINT16_MAX)
		return -ENOSPC;
	return 0;
}

int pkt_build_roce(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *payload)
{
	const struct pkt_layout *lay;
	struct pkt_lens l;
	uint32_t data_bytes, l3_off;
	bool full;
	uint8_t *p;
	int rc;

	if (unlikely(f->addr.ll == PKT_LL_IB))
		return pkt_ib_build(m, f, payload);
	if (unlikely(f->addr.ll == PKT_LL_UET))
		return pkt_uet_build(m, f, payload);
	rc = pkt_roce_plan(f, pkt_l3_off_of(&f->addr), payload, &lay, &l, &full, &data_bytes);
	if (rc != 0)
		return rc;
	p = pkt_fill_empty(m, (uint16_t)data_bytes);
	if (p == NULL)
		return -ENOSPC;
	l3_off = pkt_roce_write_fixed(p, &f->addr, f->pkey, f->dest_qp);
	pkt_roce_write_rest(m, p, &l, lay, f, pkt_ipv4_fixed_sum(p + l3_off), payload, full,
			    data_bytes);
	return 0;
}

void pkt_tmpl_init(struct pkt_tmpl *t, const struct pkt_addr *a, uint16_t pkey, uint32_t dest_qp)
{
	uint32_t l3_off;

	if (unlikely(a->ll == PKT_LL_IB)) {
		pkt_ib_tmpl_init(t, a, pkey, dest_qp);
		return;
	}
	if (unlikely(a->ll == PKT_LL_UET)) {
		pkt_uet_tmpl_init(t, a);
		return;
	}
	memset(t, 0, sizeof(*t));
	l3_off = pkt_roce_write_fixed(t->bytes, a, pkey, dest_qp);
	t->ip_sum = pkt_ipv4_fixed_sum(t->bytes + l3_off);
	t->l3_off = (uint8_t)l3_off;
}

int pkt_build_roce_tmpl(struct rte_mbuf *m, const struct pkt_tmpl *t, const struct pkt_roce *f,
			const uint8_t *payload)
{
	const uint8_t *bth = t->bytes + t->l3_off + PKT_IPV4_BYTES + PKT_UDP_BYTES;
	const struct pkt_layout *lay;
	struct pkt_lens l;
	uint32_t data_bytes;
	bool full;
	uint8_t *p;
	int rc;

	if (unlikely(t->ll == PKT_LL_IB))
		return pkt_ib_build_tmpl(m, t, f, payload);
	if (unlikely(t->ll == PKT_LL_UET))
		return pkt_uet_build_tmpl(m, t, f, payload);
	if (f->pkey != pkt_get16(bth + 2) || (f->dest_qp & PKT_24BIT_MASK) != pkt_get24(bth + 5))
		return -EINVAL;
	rc = pkt_roce_plan(f, t->l3_off, payload, &lay, &l, &full, &data_bytes);
	if (rc != 0)
		return rc;
	/* The copy is of the whole template, even past a short frame's end
	 * (pkt_fill_empty checks the room for the frame itself). */
	if (data_bytes < sizeof(t->bytes) && rte_pktmbuf_tailroom(m) < sizeof(t->bytes))
		return -ENOSPC;
	p = pkt_fill_empty(m, (uint16_t)data_bytes);
	if (p == NULL)
		return -ENOSPC;
	memcpy(p, t->bytes, sizeof(t->bytes));
	pkt_roce_write_rest(m, p, &l, lay, f, t->ip_sum, payload, full, data_bytes);
	return 0;
}

/* The view of the frame of link layer @ll in @m, whatever its segments:
 * its headers are copied into @buf (PKT_VIEW_MAX_HDR_BYTES, zero past
 * what @m holds) and bounded by the bytes @m holds. Returns 0 or -EINVAL
 * (pkt_view_all). */
int pkt_view_mbuf(enum pkt_ll_kind ll, const struct rte_mbuf *m, struct pkt_view *v,
		  uint8_t buf[PKT_VIEW_MAX_HDR_BYTES])
{
	uint32_t len = RTE_MIN(rte_pktmbuf_pkt_len(m), (uint32_t)PKT_VIEW_MAX_HDR_BYTES);
	const uint8_t *d = rte_pktmbuf_read(m, 0, len, buf);

	if (d == NULL)
		return -EINVAL;
	if (d != buf)
		memcpy(buf, d, len);
	memset(buf + len, 0, PKT_VIEW_MAX_HDR_BYTES - len);
	return pkt_view_all(v, ll, buf, len);
}

/* pkt_int.h */
void pkt_parse_xport(const struct pkt_view *v, struct pkt_roce *out)
{
	out->opcode = v->opcode;
	out->se = v->se;
	out->pkey = v->pkey;
	out->becn = v->becn;
	out->dest_qp = v->dest_qp;
	out->ack_req = v->ack_req;
	out->psn = v->psn;
	out->payload_bytes = v->payload_bytes;
	if (pkt_layouts[v->opcode].exts & PKT_EXT_RETH) {
		out->reth_va = v->reth_va;
		out->reth_rkey = v->reth_rkey;
		out->reth_len = v->reth_len;
	}
	if (pkt_layouts[v->opcode].exts & PKT_EXT_AETH) {
		out->aeth_syndrome = v->aeth_syndrome;
		out->aeth_msn = v->aeth_msn;
	}
	if (pkt_layouts[v->opcode].exts & PKT_EXT_IMM)
		out->imm_data = v->imm_data;
}

int pkt_parse_ll(enum pkt_ll_kind ll, const struct rte_mbuf *m, struct pkt_roce *out)
{
	if (ll == PKT_LL_UET)
		return pkt_parse_uet(m, out);
	return ll == PKT_LL_IB ? pkt_parse_ib(m, out) : pkt_parse_roce(m, out);
}

void pkt_parse_eth_addr(const uint8_t *buf, const struct pkt_view *v, struct pkt_addr *a)
{
	memcpy(a->dst_mac, buf, 6);
	memcpy(a->src_mac, buf + 6, 6);
	if (v->l3_off > PKT_ETH_BYTES) {
		a->vlan = true;
		a->pcp = buf[PKT_ETH_BYTES] >> 5;
		a->vid = pkt_get16(buf + PKT_ETH_BYTES) & PKT_VLAN_VID_MASK;
	}
	a->dscp = v->cls;
	a->ecn = v->cong;
	a->ttl = buf[v->l3_off + 8];
	a->src_ip = v->src;
	a->dst_ip = v->dst;
	a->udp_sport = v->sport;
}

int pkt_parse_roce(const struct rte_mbuf *m, struct pkt_roce *out)
{
	uint8_t buf[PKT_VIEW_MAX_HDR_BYTES];
	struct pkt_view v;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pkt_view_mbuf(PKT_LL_ROCE, m, &v, buf);
	if (rc != 0)
		return rc;
	pkt_parse_eth_addr(buf, &v, &out->addr);
	pkt_parse_xport(&v, out);
	return 0;
}

/* pkt_int.h */
uint32_t pkt_crc32_mbuf(uint32_t crc, const struct rte_mbuf *m, uint32_t off, uint32_t end)
{
	const struct rte_mbuf *seg;

	/* Feed each segment's share. */
	for (seg = m; seg != NULL && off < end; seg = seg->next) {
		uint32_t seg_len = rte_pktmbuf_data_len(seg);

		if (off < seg_len) {
			uint32_t take = RTE_MIN(seg_len, end) - off;

			crc = pkt_crc32_update(crc, rte_pktmbuf_mtod_offset(seg, const uint8_t *, off), take);
			if (end <= seg_len)
				break;
			off = seg_len;
		}
		off -= seg_len;
		end -= seg_len;
	}
	return crc;
}

int pkt_icrc_check(const struct rte_mbuf *m)
{
	uint8_t buf[PKT_VIEW_MAX_HDR_BYTES], hdr[PKT_ICRC_MASKED_MAX_BYTES], icrc_buf[PKT_ICRC_BYTES];
	const uint8_t *icrc;
	struct pkt_view v;
	uint32_t n, crc;

	if (pkt_view_mbuf(PKT_LL_ROCE, m, &v, buf) != 0)
		return -EINVAL;
	if ((uint32_t)v.l3_off + v.net_bytes > rte_pktmbuf_pkt_len(m))
		return -EINVAL;
	/* IPv4 (with options), UDP and BTH: the fields masked in the ICRC. */
	n = v.bth_off + PKT_BTH_BYTES - v.l3_off;
	n = pkt_icrc_masked(buf + v.l3_off, n, hdr);
	crc = pkt_crc32_update(PKT_ICRC_SEED, hdr, n);
	/* The rest may span segments. */
	crc = pkt_crc32_mbuf(crc, m, v.l3_off + n, v.l3_off + v.net_bytes - PKT_ICRC_BYTES);
	icrc = rte_pktmbuf_read(m, v.l3_off + v.net_bytes - PKT_ICRC_BYTES, PKT_ICRC_BYTES, icrc_buf);
	crc = ~crc;
	return icrc[0] == (uint8_t)crc && icrc[1] == (uint8_t)(crc >> 8) &&
	       icrc[2] == (uint8_t)(crc >> 16) && icrc[3] == (uint8_t)(crc >> 24);
}

static inline uint8_t *pkt_l3(struct rte_mbuf *m)
{
	assert(rte_pktmbuf_data_len(m) >= pkt_meta(m)->l3_off + PKT_IPV4_BYTES);
	return rte_pktmbuf_mtod_offset(m, uint8_t *, pkt_meta(m)->l3_off);
}

static inline const uint8_t *pkt_l3_const(const struct rte_mbuf *m)
{
	return pkt_l3((struct rte_mbuf *)(uintptr_t)m);
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), for the 16-bit word at a header
 * offset changing from @old_w to @new_w. */
static void pkt_cksum_adjust(uint8_t *cksum, uint16_t old_w, uint16_t new_w)
{
	uint32_t sum = (uint32_t)(uint16_t)~pkt_get16(cksum) + (uint16_t)~old_w + new_w;

	sum = (sum & 0xFFFF) + (sum >> 16);
	sum = (sum & 0xFFFF) + (sum >> 16);
	pkt_put16(cksum, (uint16_t)~sum);
}

uint8_t pkt_ipv4_ecn(const struct rte_mbuf *m)
{
	return pkt_l3_const(m)[1] & 3;
}

uint8_t pkt_ipv4_dscp(const struct rte_mbuf *m)
{
	return pkt_l3_const(m)[1] >> 2;
}

uint32_t pkt_ipv4_dst(const struct rte_mbuf *m)
{
	return pkt_get32(pkt_l3_const(m) + 16);
}

void pkt_ipv4_set_ce(struct rte_mbuf *m)
{
	uint8_t *ip = pkt_l3(m);
	uint16_t old_w = pkt_get16(ip);

	/* Marking a Not-ECT packet would be a switch bug (RFC 3168 drops it). */
	assert((ip[1] & 3) != PKT_ECN_NOT_ECT);
	ip[1] |= PKT_ECN_CE;
	pkt_cksum_adjust(ip + 10, old_w, pkt_get16(ip));
}

uint8_t pkt_ip_ecn(const struct rte_mbuf *m)
{
	const uint8_t *ip = pkt_l3_const(m);

	return unlikely(ip[0] >> 4 == 6) ? (ip[1] >> 4) & 3 : ip[1] & 3;
}

void pkt_ip_set_ce(struct rte_mbuf *m)
{
	uint8_t *ip = pkt_l3(m);

	if (likely(ip[0] >> 4 != 6)) {
		pkt_ipv4_set_ce(m);
		return;
	}
	assert((ip[1] >> 4 & 3) != PKT_ECN_NOT_ECT);
	ip[1] |= PKT_ECN_CE << 4; /* traffic class bits 1..0: byte 1's bits 5..4 */
}

uint8_t pkt_ipv4_dec_ttl(struct rte_mbuf *m)
{
	return pkt_ipv4_hdr_dec_ttl(pkt_l3(m));
}

int pkt_build_pfc(struct rte_mbuf *m, const uint8_t src_mac[6], uint8_t enable,
		  const uint16_t quanta[PKT_N_PRIO])
{
	uint8_t *p = pkt_fill_empty(m, PKT_ETH_MIN_BYTES);
	struct pkt_meta *meta;
	unsigned i;

	if (p == NULL)
		return -ENOSPC;
	memcpy(p, pkt_pfc_dst, 6);
	memcpy(p + 6, src_mac, 6);
	pkt_put16(p + 12, PKT_ETHERTYPE_MACCTL);
	pkt_put16(p + 14, PKT_PFC_OPCODE);
	pkt_put16(p + PKT_PFC_VEC_OFF, enable);
	for (i = 0; i < PKT_N_PRIO; i++)
		pkt_put16(p + PKT_PFC_TIME_OFF + 2 * i, (enable >> i & 1) ? quanta[i] : 0);
	memset(p + PKT_PFC_TIME_OFF + 2 * PKT_N_PRIO, 0,
	       PKT_ETH_MIN_BYTES - PKT_PFC_TIME_OFF - 2 * PKT_N_PRIO);

	meta = pkt_meta(m);
	meta->frame_bytes = PKT_MIN_FRAME_BYTES;
	meta->payload_bytes = 0;
	meta->l3_off = 0;
	meta->kind = PKT_KIND_PFC;
	meta->flags = 0;
	return 0;
}

int pkt_parse_pfc(const struct rte_mbuf *m, uint8_t *enable, uint16_t quanta[PKT_N_PRIO])
{
	uint8_t buf[PKT_PFC_TIME_OFF + 2 * PKT_N_PRIO];
	const uint8_t *p = rte_pktmbuf_read(m, 0, sizeof(buf), buf);
	unsigned i;

	if (p == NULL || memcmp(p, pkt_pfc_dst, 6) != 0 ||
	    pkt_get16(p + 12) != PKT_ETHERTYPE_MACCTL || pkt_get16(p + 14) != PKT_PFC_OPCODE)
		return -EINVAL;
	*enable = (uint8_t)pkt_get16(p + PKT_PFC_VEC_OFF);
	for (i = 0; i < PKT_N_PRIO; i++)
		quanta[i] = pkt_get16(p + PKT_PFC_TIME_OFF + 2 * i);
	return 0;
}
