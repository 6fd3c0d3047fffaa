/* SHA-256 as FIPS 180-4 specifies it (sections 4.1.2, 4.2.2, 5.1.1, 5.3.3,
 * 6.2.2); checked against the standard's test vectors in tests/test_units.c.
 * Not on any hot path: it hashes result files once, after a run. */
#include <string.h>

#include "sha256.h"

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t sha256_rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into the chaining value (section 6.2.2). */
static void sha256_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = sha256_rotr(w[t - 15], 7) ^ sha256_rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = sha256_rotr(w[t - 2], 17) ^ sha256_rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
	e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = h + (sha256_rotr(e, 6) ^ sha256_rotr(e, 11) ^ sha256_rotr(e, 25)) +
			      ((e & f) ^ (~e & g)) + sha256_k[t] + w[t];
		uint32_t t2 = (sha256_rotr(a, 2) ^ sha256_rotr(a, 13) ^ sha256_rotr(a, 22)) +
			      ((a & b) ^ (a & c) ^ (b & c));

		h = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d;
	s->h[4] += e, s->h[5] += f, s->h[6] += g, s->h[7] += h;
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->n_bytes = 0;
	s->buf_n = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;

	s->n_bytes += n;
	if (s->buf_n) {
		size_t take = SHA256_BLOCK_BYTES - s->buf_n < n ? SHA256_BLOCK_BYTES - s->buf_n : n;

		memcpy(s->buf + s->buf_n, p, take);
		s->buf_n += (uint32_t)take;
		p += take;
		n -= take;
		if (s->buf_n < SHA256_BLOCK_BYTES)
			return;
		sha256_block(s, s->buf);
		s->buf_n = 0;
	}
	for (; n >= SHA256_BLOCK_BYTES; p += SHA256_BLOCK_BYTES, n -= SHA256_BLOCK_BYTES)
		sha256_block(s, p);
	memcpy(s->buf, p, n);
	s->buf_n = (uint32_t)n;
}

void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST_BYTES])
{
	uint64_t bits = s->n_bytes * 8;

	/* Section 5.1.1: a one bit, zeros, then the length in bits (64-bit big
	 * endian) ending a block. */
	s->buf[s->buf_n++] = 0x80;
	if (s->buf_n > SHA256_BLOCK_BYTES - 8) {
		memset(s->buf + s->buf_n, 0, SHA256_BLOCK_BYTES - s->buf_n);
		sha256_block(s, s->buf);
		s->buf_n = 0;
	}
	memset(s->buf + s->buf_n, 0, SHA256_BLOCK_BYTES - 8 - s->buf_n);
	for (int i = 0; i < 8; i++)
		s->buf[SHA256_BLOCK_BYTES - 1 - i] = (uint8_t)(bits >> (8 * i));
	sha256_block(s, s->buf);
	for (int i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
}

void sha256_hex(const uint8_t digest[SHA256_DIGEST_BYTES], char hex[SHA256_HEX_BYTES])
{
	static const char x[] = "0123456789abcdef";

	for (int i = 0; i < SHA256_DIGEST_BYTES; i++) {
		hex[2 * i] = x[digest[i] >> 4];
		hex[2 * i + 1] = x[digest[i] & 15];
	}
	hex[2 * SHA256_DIGEST_BYTES] = '\0';
}
