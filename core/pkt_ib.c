/* Native InfiniBand packets (see pkt_ib.h): the data-packet builders
 * behind pkt_build_roce & co. for PKT_LL_IB, their parser, the ICRC over
 * the real LRH and GRH, the 16-bit link CRC (VCRC, LPCRC) with its
 * incremental update for the per-hop rewrites (VL, FECN), and the
 * flow-control packet; after IBTA Vol 1 chapters 7 and 9. */
#include "pkt_ib.h"

#include <errno.h>
#include <string.h>

#include "pkt_int.h"
#include "pkt_view.h"

enum {
	PKT_IB_CRC16_POLY_REFLECTED = 0xD008, /* 0x100B, bits reversed */
	PKT_IB_CRC16_SEED = 0xFFFF,
	PKT_IB_FC_CRC_BYTES = 4,              /* the LPCRC covers the first two words */
	PKT_IB_CRC16_SHIFTS = 13,             /* zero-byte advances of 2^0..2^12 bytes */
	PKT_IB_GID_V4_OFF = 12,               /* ::ffff:a.b.c.d: the IPv4 address's place */
	PKT_IB_GRH_HOPLMT_OFF = 7,
	PKT_IB_GRH_PAYLEN_OFF = 4,
	PKT_IB_GRH_SGID_OFF = 8,
	PKT_IB_GRH_DGID_OFF = 24,
	PKT_IB_LRH_VL_MASK = 0xF0,            /* LRH byte 0, high nibble */
	PKT_IB_HDR_MAX_BYTES = PKT_IB_LRH_BYTES + PKT_IB_GRH_BYTES + PKT_BTH_BYTES,
};

/* The CRC's byte table: entry i is the register after shifting byte i
 * through the reflected polynomial (generated from PKT_IB_CRC16_POLY_REFLECTED;
 * the unit test rebuilds it bit by bit). */
static const uint16_t pkt_ib_crc16_table[256] = {
	0x0000, 0x1BA1, 0x3742, 0x2CE3, 0x6E84, 0x7525, 0x59C6, 0x4267,
	0xDD08, 0xC6A9, 0xEA4A, 0xF1EB, 0xB38C, 0xA82D, 0x84CE, 0x9F6F,
	0x1A01, 0x01A0, 0x2D43, 0x36E2, 0x7485, 0x6F24, 0x43C7, 0x5866,
	0xC709, 0xDCA8, 0xF04B, 0xEBEA, 0xA98D, 0xB22C, 0x9ECF, 0x856E,
	0x3402, 0x2FA3, 0x0340, 0x18E1, 0x5A86, 0x4127, 0x6DC4, 0x7665,
	0xE90A, 0xF2AB, 0xDE48, 0xC5E9, 0x878E, 0x9C2F, 0xB0CC, 0xAB6D,
	0x2E03, 0x35A2, 0x1941, 0x02E0, 0x4087, 0x5B26, 0x77C5, 0x6C64,
	0xF30B, 0xE8AA, 0xC449, 0xDFE8, 0x9D8F, 0x862E, 0xAACD, 0xB16C,
	0x6804, 0x73A5, 0x5F46, 0x44E7, 0x0680, 0x1D21, 0x31C2, 0x2A63,
	0xB50C, 0xAEAD, 0x824E, 0x99EF, 0xDB88, 0xC029, 0xECCA, 0xF76B,
	0x7205, 0x69A4, 0x4547, 0x5EE6, 0x1C81, 0x0720, 0x2BC3, 0x3062,
	0xAF0D, 0xB4AC, 0x984F, 0x83EE, 0xC189, 0xDA28, 0xF6CB, 0xED6A,
	0x5C06, 0x47A7, 0x6B44, 0x70E5, 0x3282, 0x2923, 0x05C0, 0x1E61,
	0x810E, 0x9AAF, 0xB64C, 0xADED, 0xEF8A, 0xF42B, 0xD8C8, 0xC369,
	0x4607, 0x5DA6, 0x7145, 0x6AE4, 0x2883, 0x3322, 0x1FC1, 0x0460,
	0x9B0F, 0x80AE, 0xAC4D, 0xB7EC, 0xF58B, 0xEE2A, 0xC2C9, 0xD968,
	0xD008, 0xCBA9, 0xE74A, 0xFCEB, 0xBE8C, 0xA52D, 0x89CE, 0x926F,
	0x0D00, 0x16A1, 0x3A42, 0x21E3, 0x6384, 0x7825, 0x54C6, 0x4F67,
	0xCA09, 0xD1A8, 0xFD4B, 0xE6EA, 0xA48D, 0xBF2C, 0x93CF, 0x886E,
	0x1701, 0x0CA0, 0x2043, 0x3BE2, 0x7985, 0x6224, 0x4EC7, 0x5566,
	0xE40A, 0xFFAB, 0xD348, 0xC8E9, 0x8A8E, 0x912F, 0xBDCC, 0xA66D,
	0x3902, 0x22A3, 0x0E40, 0x15E1, 0x5786, 0x4C27, 0x60C4, 0x7B65,
	0xFE0B, 0xE5AA, 0xC949, 0xD2E8, 0x908F, 0x8B2E, 0xA7CD, 0xBC6C,
	0x2303, 0x38A2, 0x1441, 0x0FE0, 0x4D87, 0x5626, 0x7AC5, 0x6164,
	0xB80C, 0xA3AD, 0x8F4E, 0x94EF, 0xD688, 0xCD29, 0xE1CA, 0xFA6B,
	0x6504, 0x7EA5, 0x5246, 0x49E7, 0x0B80, 0x1021, 0x3CC2, 0x2763,
	0xA20D, 0xB9AC, 0x954F, 0x8EEE, 0xCC89, 0xD728, 0xFBCB, 0xE06A,
	0x7F05, 0x64A4, 0x4847, 0x53E6, 0x1181, 0x0A20, 0x26C3, 0x3D62,
	0x8C0E, 0x97AF, 0xBB4C, 0xA0ED, 0xE28A, 0xF92B, 0xD5C8, 0xCE69,
	0x5106, 0x4AA7, 0x6644, 0x7DE5, 0x3F82, 0x2423, 0x08C0, 0x1361,
	0x960F, 0x8DAE, 0xA14D, 0xBAEC, 0xF88B, 0xE32A, 0xCFC9, 0xD468,
	0x4B07, 0x50A6, 0x7C45, 0x67E4, 0x2583, 0x3E22, 0x12C1, 0x0960,
};

/* The CRC's register as a linear map of zero bytes: entry k holds, for
 * each register bit j, the register that bit becomes after 2^k zero bytes
 * (entry 0 from the byte table, entry k + 1 as entry k applied twice;
 * generated, and rebuilt by the unit test). By the CRC's linearity, a
 * byte of a message changed by x moves the register by T[x] advanced over
 * the bytes after it, which these compose in at most 13 steps of 16 bits,
 * whatever the packet's length. */
static const uint16_t pkt_ib_crc16_zeros[PKT_IB_CRC16_SHIFTS][16] = {
	{ 0x1BA1, 0x3742, 0x6E84, 0xDD08, 0x1A01, 0x3402, 0x6804, 0xD008,
	  0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0020, 0x0040, 0x0080 },
	{ 0xFFB0, 0x5F71, 0xBEE2, 0xDDD5, 0x1BBB, 0x3776, 0x6EEC, 0xDDD8,
	  0x1BA1, 0x3742, 0x6E84, 0xDD08, 0x1A01, 0x3402, 0x6804, 0xD008 },
	{ 0xF875, 0x50FB, 0xA1F6, 0xE3FD, 0x67EB, 0xCFD6, 0x3FBD, 0x7F7A,
	  0xFEF4, 0x5DF9, 0xBBF2, 0xD7F5, 0x0FFB, 0x1FF6, 0x3FEC, 0x7FD8 },
	{ 0x49CF, 0x939E, 0x872D, 0xAE4B, 0xFC87, 0x591F, 0xB23E, 0xC46D,
	  0x28CB, 0x5196, 0xA32C, 0xE649, 0x6C83, 0xD906, 0x121D, 0x243A },
	{ 0x59FB, 0xB3F6, 0xC7FD, 0x2FEB, 0x5FD6, 0xBFAC, 0xDF49, 0x1E83,
	  0x3D06, 0x7A0C, 0xF418, 0x4821, 0x9042, 0x8095, 0xA13B, 0xE267 },
	{ 0xA008, 0xE001, 0x6013, 0xC026, 0x205D, 0x40BA, 0x8174, 0xA2F9,
	  0xE5E3, 0x6BD7, 0xD7AE, 0x0F4D, 0x1E9A, 0x3D34, 0x7A68, 0xF4D0 },
	{ 0x09C2, 0x1384, 0x2708, 0x4E10, 0x9C20, 0x9851, 0x90B3, 0x8177,
	  0xA2FF, 0xE5EF, 0x6BCF, 0xD79E, 0x0F2D, 0x1E5A, 0x3CB4, 0x7968 },
	{ 0x7721, 0xEE42, 0x7C95, 0xF92A, 0x5245, 0xA48A, 0xE905, 0x721B,
	  0xE436, 0x687D, 0xD0FA, 0x01E5, 0x03CA, 0x0794, 0x0F28, 0x1E50 },
	{ 0x846C, 0xA8C9, 0xF183, 0x4317, 0x862E, 0xAC4D, 0xF88B, 0x5107,
	  0xA20E, 0xE40D, 0x680B, 0xD016, 0x003D, 0x007A, 0x00F4, 0x01E8 },
	{ 0x8FB1, 0xBF73, 0xDEF7, 0x1DFF, 0x3BFE, 0x77FC, 0xEFF8, 0x7FE1,
	  0xFFC2, 0x5F95, 0xBF2A, 0xDE45, 0x1C9B, 0x3936, 0x726C, 0xE4D8 },
	{ 0x99B2, 0x9375, 0x86FB, 0xADE7, 0xFBDF, 0x57AF, 0xAF5E, 0xFEAD,
	  0x5D4B, 0xBA96, 0xD53D, 0x0A6B, 0x14D6, 0x29AC, 0x5358, 0xA6B0 },
	{ 0x24EE, 0x49DC, 0x93B8, 0x8761, 0xAED3, 0xFDB7, 0x5B7F, 0xB6FE,
	  0xCDED, 0x3BCB, 0x7796, 0xEF2C, 0x7E49, 0xFC92, 0x5935, 0xB26A },
	{ 0xC637, 0x2C7F, 0x58FE, 0xB1FC, 0xC3E9, 0x27C3, 0x4F86, 0x9F0C,
	  0x9E09, 0x9C03, 0x9817, 0x903F, 0x806F, 0xA0CF, 0xE18F, 0x630F },
};

static uint16_t pkt_ib_crc16_update(uint16_t crc, const uint8_t *p, uint32_t len)
{
	while (len--)
		crc = (uint16_t)(pkt_ib_crc16_table[(uint8_t)(crc ^ *p++)] ^ (crc >> 8));
	return crc;
}

uint16_t pkt_ib_crc16(const uint8_t *p, uint32_t len)
{
	return (uint16_t)~pkt_ib_crc16_update(PKT_IB_CRC16_SEED, p, len);
}

/* The register @r advanced over @n zero bytes (n < 2^13). */
static uint16_t pkt_ib_crc16_shift(uint16_t r, uint32_t n)
{
	for (unsigned k = 0; n != 0; k++, n >>= 1) {
		uint16_t out = 0;

		if (!(n & 1))
			continue;
		for (unsigned j = 0; j < 16; j++)
			out ^= pkt_ib_crc16_zeros[k][j] & (uint16_t)-(uint16_t)((r >> j) & 1);
		r = out;
	}
	return r;
}

uint16_t pkt_ib_crc16_delta(uint8_t x, uint32_t after_bytes)
{
	return pkt_ib_crc16_shift(pkt_ib_crc16_table[x], after_bytes);
}

/* The VCRC of the whole packet @d of @frame_bytes after its byte @pos
 * changed by @x (old ^ new): CRC(new) = CRC(old) ^ delta, so a VCRC that
 * was wrong stays wrong (as a receiver's check must still see). */
static void pkt_ib_vcrc_fix(uint8_t *d, uint32_t frame_bytes, uint32_t pos, uint8_t x)
{
	uint32_t covered = frame_bytes - PKT_IB_VCRC_BYTES;
	uint16_t crc = (uint16_t)(d[covered] | d[covered + 1] << 8);

	crc ^= pkt_ib_crc16_delta(x, covered - 1 - pos);
	d[covered] = (uint8_t)crc;
	d[covered + 1] = (uint8_t)(crc >> 8);
}

/* ---- data packets ---- */

/* Lengths of the IB packet @f, shared by the builders and
 * pkt_ib_frame_bytes so that they cannot disagree. */
struct pkt_ib_lens {
	uint32_t bth_off;     /* 8, or 48 after a GRH */
	uint32_t hdr_end;     /* end of the transport headers */
	uint32_t icrc_off;    /* the ICRC: after payload and pad */
	uint32_t frame_bytes; /* LRH..VCRC */
};

static inline void pkt_ib_lens_at(const struct pkt_roce *f, uint32_t bth_off, unsigned hdr_bytes,
				  struct pkt_ib_lens *l)
{
	l->bth_off = bth_off;
	l->hdr_end = bth_off + hdr_bytes;
	l->icrc_off = l->hdr_end + f->payload_bytes + pkt_pad_bytes(f->payload_bytes);
	l->frame_bytes = l->icrc_off + PKT_ICRC_BYTES + PKT_IB_VCRC_BYTES;
}

static inline uint32_t pkt_ib_bth_off_of(const struct pkt_addr *a)
{
	return PKT_IB_LRH_BYTES + (a->grh ? PKT_IB_GRH_BYTES : 0);
}

uint32_t pkt_ib_frame_bytes(const struct pkt_roce *f)
{
	struct pkt_ib_lens l;

	pkt_ib_lens_at(f, pkt_ib_bth_off_of(&f->addr), pkt_layouts[f->opcode].hdr_bytes, &l);
	return l.frame_bytes;
}

/* The IPv4-mapped GID ::ffff:a.b.c.d of @ip at @g. */
static void pkt_ib_gid_v4(uint8_t *g, uint32_t ip)
{
	memset(g, 0, PKT_IB_GID_V4_OFF - 2);
	g[PKT_IB_GID_V4_OFF - 2] = 0xFF;
	g[PKT_IB_GID_V4_OFF - 1] = 0xFF;
	pkt_put32(g + PKT_IB_GID_V4_OFF, ip);
}

/* What depends only on where a packet goes (pkt_tmpl): the LRH less
 * PktLen, the GRH less PayLen, the BTH's partition key and destination QP
 * and zeros in the rest of the BTH; @p has room for PKT_IB_HDR_MAX_BYTES.
 * Returns the BTH's offset. */
static uint32_t pkt_ib_write_fixed(uint8_t *p, const struct pkt_addr *a, uint16_t pkey,
				   uint32_t dest_qp)
{
	uint32_t bth_off = pkt_ib_bth_off_of(a);
	uint8_t *bth = p + bth_off;

	p[0] = (uint8_t)((a->vl & 0x0F) << 4); /* LVer 0 */
	p[1] = (uint8_t)((a->sl & 0x0F) << 4 | (a->grh ? PKT_IB_LNH_GLOBAL : PKT_IB_LNH_LOCAL));
	pkt_put16(p + 2, a->dlid);
	pkt_put16(p + 4, 0);
	pkt_put16(p + 6, a->slid);
	if (a->grh) {
		uint8_t *g = p + PKT_IB_LRH_BYTES;
		uint8_t tclass = (uint8_t)(a->dscp << 2 | (a->ecn & 3));

		/* IPVer 6, TClass, FlowLabel 0. */
		g[0] = (uint8_t)(PKT_IB_GRH_IPVER << 4 | tclass >> 4);
		g[1] = (uint8_t)((tclass & 0x0F) << 4);
		g[2] = 0;
		g[3] = 0;
		pkt_put16(g + PKT_IB_GRH_PAYLEN_OFF, 0);
		g[PKT_IB_GRH_NXTHDR_OFF] = PKT_IB_GRH_NXTHDR;
		g[PKT_IB_GRH_HOPLMT_OFF] = a->ttl;
		pkt_ib_gid_v4(g + PKT_IB_GRH_SGID_OFF, a->src_ip);
		pkt_ib_gid_v4(g + PKT_IB_GRH_DGID_OFF, a->dst_ip);
	}
	memset(bth, 0, PKT_BTH_BYTES);
	pkt_put16(bth + 2, pkey);
	pkt_put24(bth + 5, dest_qp & PKT_24BIT_MASK);
	return bth_off;
}

uint32_t pkt_ib_icrc(const uint8_t *d, uint32_t len)
{
	uint8_t hdr[PKT_IB_HDR_MAX_BYTES];
	uint32_t bth_off = pkt_view_ib_bth_off(d);
	uint32_t n = RTE_MIN(len, bth_off + PKT_BTH_BYTES);
	uint32_t crc;

	memcpy(hdr, d, n);
	/* The variant fields, all ones: the LRH's VL (switches remap it), the
	 * GRH's TClass, FlowLabel and HopLmt (routers rewrite them) and the
	 * BTH's FECN / BECN byte. */
	hdr[0] |= PKT_IB_LRH_VL_MASK;
	if (bth_off > PKT_IB_LRH_BYTES && n > PKT_IB_LRH_BYTES + PKT_IB_GRH_HOPLMT_OFF) {
		uint8_t *g = hdr + PKT_IB_LRH_BYTES;

		g[0] |= 0x0F;
		g[1] = 0xFF;
		g[2] = 0xFF;
		g[3] = 0xFF;
		g[PKT_IB_GRH_HOPLMT_OFF] = 0xFF;
	}
	if (n > bth_off + 4)
		hdr[bth_off + 4] = 0xFF;
	crc = pkt_crc32_update(UINT32_MAX, hdr, n);
	crc = pkt_crc32_update(crc, d + n, len - n);
	return ~crc;
}

/* Checks and lengths shared by both builders (pkt_roce_plan's twin). */
static inline __attribute__((always_inline)) int
pkt_ib_plan(const struct pkt_roce *f, uint32_t bth_off, const uint8_t *payload,
	    const struct pkt_layout **lay, struct pkt_ib_lens *l, bool *full, uint32_t *data_bytes)
{
	*lay = &pkt_layouts[f->opcode];
	if ((*lay)->hdr_bytes == 0 || f->payload_bytes > PKT_IB_PKTLEN_MAX_BYTES)
		return -EINVAL;
	pkt_ib_lens_at(f, bth_off, (*lay)->hdr_bytes, l);
	if (l->icrc_off + PKT_ICRC_BYTES > PKT_IB_PKTLEN_MAX_BYTES)
		return -EINVAL;
	/* As RoCE: a packet without payload is always written whole. */
	*full = payload != NULL || f->payload_bytes == 0;
	*data_bytes = *full ? l->frame_bytes : l->hdr_end;
	return 0;
}

/* Everything pkt_ib_write_fixed leaves out: PktLen, PayLen, the BTH's
 * opcode, flags and PSN, the extension headers and, when @full, payload,
 * pad, ICRC and VCRC; then the metadata. */
static inline __attribute__((always_inline)) void
pkt_ib_write_rest(struct rte_mbuf *m, uint8_t *p, const struct pkt_ib_lens *l,
		  const struct pkt_layout *lay, const struct pkt_roce *f, const uint8_t *payload,
		  bool full)
{
	uint32_t pad = pkt_pad_bytes(f->payload_bytes), icrc_end = l->icrc_off + PKT_ICRC_BYTES;
	struct pkt_meta *meta;

	pkt_put16(p + 4, (uint16_t)(icrc_end / 4));
	if (l->bth_off > PKT_IB_LRH_BYTES)
		pkt_put16(p + PKT_IB_LRH_BYTES + PKT_IB_GRH_PAYLEN_OFF,
			  (uint16_t)(icrc_end - l->bth_off));
	pkt_write_xport(p + l->bth_off, lay, f, pad);
	if (full) {
		uint16_t vcrc;

		if (f->payload_bytes != 0)
			memcpy(p + l->hdr_end, payload, f->payload_bytes);
		memset(p + l->hdr_end + f->payload_bytes, 0, pad);
		pkt_put_crc32(p + l->icrc_off, pkt_ib_icrc(p, l->icrc_off));
		vcrc = pkt_ib_crc16(p, icrc_end);
		p[icrc_end] = (uint8_t)vcrc;
		p[icrc_end + 1] = (uint8_t)(vcrc >> 8);
	}
	meta = pkt_meta(m);
	meta->frame_bytes = (uint16_t)l->frame_bytes;
	meta->payload_bytes = (uint16_t)f->payload_bytes;
	meta->l3_off = PKT_IB_LRH_BYTES;
	meta->kind = lay->kind;
	meta->flags = 0;
}

int pkt_ib_build(struct rte_mbuf *m, const struct pkt_roce *f, const uint8_t *payload)
{
	uint8_t hdr[PKT_IB_HDR_MAX_BYTES];
	const struct pkt_layout *lay;
	struct pkt_ib_lens l;
	uint32_t data_bytes;
	bool full;
	uint8_t *p;
	int rc;

	rc = pkt_ib_plan(f, pkt_ib_bth_off_of(&f->addr), payload, &lay, &l, &full, &data_bytes);
	if (rc != 0)
		return rc;
	p = pkt_fill_empty(m, (uint16_t)data_bytes);
	if (p == NULL)
		return -ENOSPC;
	/* Through a buffer: a packet may be shorter than the BTH's fixed
	 * part is far (an ACK after a GRH is 70 bytes, its headers 64). */
	pkt_ib_write_fixed(hdr, &f->addr, f->pkey, f->dest_qp);
	memcpy(p, hdr, l.bth_off + PKT_BTH_BYTES);
	pkt_ib_write_rest(m, p, &l, lay, f, payload, full);
	return 0;
}

void pkt_ib_tmpl_init(struct pkt_tmpl *t, const struct pkt_addr *a, uint16_t pkey,
		      uint32_t dest_qp)
{
	uint8_t hdr[PKT_IB_HDR_MAX_BYTES];

	memset(t, 0, sizeof(*t));
	pkt_ib_write_fixed(hdr, a, pkey, dest_qp);
	/* With a GRH the last bytes of the BTH (its PSN) fall outside the
	 * template: every packet writes them (pkt_tmpl). */
	memcpy(t->bytes, hdr, RTE_MIN(sizeof(t->bytes), pkt_ib_bth_off_of(a) + PKT_BTH_BYTES));
	t->l3_off = PKT_IB_LRH_BYTES;
	t->ll = PKT_LL_IB;
}

int pkt_ib_build_tmpl(struct rte_mbuf *m, const struct pkt_tmpl *t, const struct pkt_roce *f,
		      const uint8_t *payload)
{
	uint32_t bth_off = pkt_view_ib_bth_off(t->bytes), data_bytes;
	const uint8_t *bth = t->bytes + bth_off;
	const struct pkt_layout *lay;
	struct pkt_ib_lens l;
	bool full;
	uint8_t *p;
	int rc;

	if (f->pkey != pkt_get16(bth + 2) || (f->dest_qp & PKT_24BIT_MASK) != pkt_get24(bth + 5))
		return -EINVAL;
	rc = pkt_ib_plan(f, bth_off, payload, &lay, &l, &full, &data_bytes);
	if (rc != 0)
		return rc;
	if (data_bytes < sizeof(t->bytes) && rte_pktmbuf_tailroom(m) < sizeof(t->bytes))
		return -ENOSPC;
	p = pkt_fill_empty(m, (uint16_t)data_bytes);
	if (p == NULL)
		return -ENOSPC;
	memcpy(p, t->bytes, sizeof(t->bytes));
	pkt_ib_write_rest(m, p, &l, lay, f, payload, full);
	return 0;
}

int pkt_parse_ib(const struct rte_mbuf *m, struct pkt_roce *out)
{
	uint8_t buf[PKT_VIEW_MAX_HDR_BYTES];
	struct pkt_view v;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pkt_view_mbuf(PKT_LL_IB, m, &v, buf);
	if (rc != 0)
		return rc;
	out->addr.ll = PKT_LL_IB;
	out->addr.sl = v.cls;
	out->addr.vl = v.vl;
	out->addr.dlid = (uint16_t)v.dst;
	out->addr.slid = (uint16_t)v.src;
	if (v.bth_off > PKT_IB_LRH_BYTES) {
		const uint8_t *g = buf + PKT_IB_LRH_BYTES;
		uint8_t tclass = (uint8_t)((g[0] & 0x0F) << 4 | g[1] >> 4);

		out->addr.grh = true;
		out->addr.dscp = tclass >> 2;
		out->addr.ecn = tclass & 3;
		out->addr.ttl = g[PKT_IB_GRH_HOPLMT_OFF];
		out->addr.src_ip = pkt_get32(g + PKT_IB_GRH_SGID_OFF + PKT_IB_GID_V4_OFF);
		out->addr.dst_ip = pkt_get32(g + PKT_IB_GRH_DGID_OFF + PKT_IB_GID_V4_OFF);
	}
	pkt_parse_xport(&v, out);
	return 0;
}

int pkt_ib_icrc_check(const struct rte_mbuf *m)
{
	uint8_t buf[PKT_VIEW_MAX_HDR_BYTES], icrc_buf[PKT_ICRC_BYTES];
	const uint8_t *icrc;
	struct pkt_view v;
	uint32_t n, crc;

	if (pkt_view_mbuf(PKT_LL_IB, m, &v, buf) != 0 || v.net_bytes > rte_pktmbuf_pkt_len(m))
		return -EINVAL;
	/* The headers with their masked fields, from the view's copy; the
	 * rest where it lies. */
	n = v.bth_off + PKT_BTH_BYTES;
	crc = ~pkt_ib_icrc(buf, n);
	crc = ~pkt_crc32_mbuf(crc, m, n, v.net_bytes - PKT_ICRC_BYTES);
	icrc = rte_pktmbuf_read(m, v.net_bytes - PKT_ICRC_BYTES, PKT_ICRC_BYTES, icrc_buf);
	return icrc[0] == (uint8_t)crc && icrc[1] == (uint8_t)(crc >> 8) &&
	       icrc[2] == (uint8_t)(crc >> 16) && icrc[3] == (uint8_t)(crc >> 24);
}

int pkt_ib_vcrc_check(const struct rte_mbuf *m)
{
	uint8_t lrh_buf[PKT_IB_LRH_BYTES], vcrc_buf[PKT_IB_VCRC_BYTES];
	const uint8_t *lrh = rte_pktmbuf_read(m, 0, PKT_IB_LRH_BYTES, lrh_buf), *vcrc;
	uint32_t covered, off = 0;
	uint16_t crc = PKT_IB_CRC16_SEED;

	if (lrh == NULL)
		return -EINVAL;
	covered = (uint32_t)(pkt_get16(lrh + 4) & PKT_IB_PKTLEN_MASK) * 4;
	if (covered < PKT_IB_LRH_BYTES || rte_pktmbuf_pkt_len(m) < covered + PKT_IB_VCRC_BYTES)
		return -EINVAL;
	for (const struct rte_mbuf *seg = m; seg != NULL && off < covered; seg = seg->next) {
		uint32_t take = RTE_MIN(rte_pktmbuf_data_len(seg), covered - off);

		crc = pkt_ib_crc16_update(crc, rte_pktmbuf_mtod(seg, const uint8_t *), take);
		off += take;
	}
	crc = (uint16_t)~crc;
	vcrc = rte_pktmbuf_read(m, covered, PKT_IB_VCRC_BYTES, vcrc_buf);
	return vcrc[0] == (uint8_t)crc && vcrc[1] == (uint8_t)(crc >> 8);
}

void pkt_ib_set_vl(struct rte_mbuf *m, uint8_t vl)
{
	uint8_t *d = pkt_data(m);
	uint8_t old = d[0], now = (uint8_t)((vl & 0x0F) << 4 | (old & PKT_IB_LVER_MASK));
	uint32_t frame_bytes = pkt_meta(m)->frame_bytes;

	if (old == now)
		return;
	d[0] = now;
	if (rte_pktmbuf_data_len(m) == frame_bytes)
		pkt_ib_vcrc_fix(d, frame_bytes, 0, old ^ now);
}

int pkt_build_ib_fc(struct rte_mbuf *m, uint8_t op, uint8_t vl, uint16_t fctbs, uint16_t fccl)
{
	struct pkt_meta *pm;
	uint16_t crc;
	uint8_t *d;

	if (op > PKT_IB_FC_OP_INIT || vl >= PKT_IB_VL15 || fctbs >= PKT_IB_FC_MOD ||
	    fccl >= PKT_IB_FC_MOD)
		return -EINVAL;
	if (m->pkt_len != 0 || rte_pktmbuf_tailroom(m) < PKT_IB_FC_BYTES)
		return -ENOSPC;
	m->data_len = PKT_IB_FC_BYTES;
	m->pkt_len = PKT_IB_FC_BYTES;
	d = rte_pktmbuf_mtod(m, uint8_t *);
	d[0] = (uint8_t)(op << 4 | fctbs >> 8);
	d[1] = (uint8_t)fctbs;
	d[2] = (uint8_t)(vl << 4 | fccl >> 8);
	d[3] = (uint8_t)fccl;
	crc = pkt_ib_crc16(d, PKT_IB_FC_CRC_BYTES);
	d[4] = (uint8_t)crc;
	d[5] = (uint8_t)(crc >> 8);
	pm = pkt_meta(m);
	pm->frame_bytes = PKT_IB_FC_BYTES;
	pm->payload_bytes = 0;
	pm->l3_off = 0;
	pm->tc = 0;
	pm->kind = PKT_KIND_FC;
	pm->flags = 0;
	return 0;
}

int pkt_parse_ib_fc(const struct rte_mbuf *m, uint8_t *op, uint8_t *vl, uint16_t *fctbs,
		    uint16_t *fccl)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t crc;

	if (rte_pktmbuf_pkt_len(m) != PKT_IB_FC_BYTES || rte_pktmbuf_data_len(m) != PKT_IB_FC_BYTES)
		return -EINVAL;
	crc = pkt_ib_crc16(d, PKT_IB_FC_CRC_BYTES);
	if (d[0] >> 4 > PKT_IB_FC_OP_INIT || d[4] != (uint8_t)crc || d[5] != (uint8_t)(crc >> 8))
		return -EINVAL;
	*op = d[0] >> 4;
	*fctbs = (uint16_t)((d[0] & 0x0F) << 8 | d[1]);
	*vl = d[2] >> 4;
	*fccl = (uint16_t)((d[2] & 0x0F) << 8 | d[3]);
	return 0;
}

void pkt_ib_mark_fecn(struct rte_mbuf *m)
{
	uint8_t *d = pkt_data(m);
	uint32_t pos = pkt_view_ib_bth_off(d) + 4, frame_bytes = pkt_meta(m)->frame_bytes;

	if (d[pos] & PKT_BTH_FECN)
		return;
	d[pos] |= PKT_BTH_FECN;
	/* The VCRC covers everything before it, FECN included. */
	if (rte_pktmbuf_data_len(m) == frame_bytes)
		pkt_ib_vcrc_fix(d, frame_bytes, pos, PKT_BTH_FECN);
}
