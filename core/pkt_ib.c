/* Native InfiniBand link-layer pieces (see pkt_ib.h): the 16-bit link CRC
 * and the flow-control packet, after IBTA Vol 1 chapter 7. */
#include "pkt_ib.h"

#include <errno.h>

enum {
	PKT_IB_CRC16_POLY_REFLECTED = 0xD008, /* 0x100B, bits reversed */
	PKT_IB_CRC16_SEED = 0xFFFF,
	PKT_IB_FC_CRC_BYTES = 4,              /* the LPCRC covers the first two words */
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

uint16_t pkt_ib_crc16(const uint8_t *p, uint32_t len)
{
	uint16_t crc = PKT_IB_CRC16_SEED;

	while (len--)
		crc = (uint16_t)(pkt_ib_crc16_table[(uint8_t)(crc ^ *p++)] ^ (crc >> 8));
	return (uint16_t)~crc;
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
	uint8_t *bth = d + PKT_IB_LRH_BYTES +
		       ((d[1] & 3) == PKT_IB_LNH_GLOBAL ? PKT_IB_GRH_BYTES : 0);
	uint32_t frame_bytes = pkt_meta(m)->frame_bytes;

	bth[4] |= PKT_BTH_FECN;
	/* The VCRC covers everything before it, FECN included. */
	if (rte_pktmbuf_data_len(m) == frame_bytes) {
		uint16_t crc = pkt_ib_crc16(d, frame_bytes - PKT_IB_VCRC_BYTES);

		d[frame_bytes - 2] = (uint8_t)crc;
		d[frame_bytes - 1] = (uint8_t)(crc >> 8);
	}
}

void pkt_ib_set_vl(struct rte_mbuf *m, uint8_t vl)
{
	uint8_t *d = pkt_data(m);
	uint32_t frame_bytes = pkt_meta(m)->frame_bytes;

	d[0] = (uint8_t)(vl << 4 | (d[0] & 0x0F));
	if (rte_pktmbuf_data_len(m) == frame_bytes) {
		uint16_t crc = pkt_ib_crc16(d, frame_bytes - PKT_IB_VCRC_BYTES);

		d[frame_bytes - 2] = (uint8_t)crc;
		d[frame_bytes - 1] = (uint8_t)(crc >> 8);
	}
}
