/* SHA-256 (FIPS 180-4, section 6.2): the digest of a run's result files in
 * summary.json's provenance, so that a reader can recompute it with
 * sha256sum. Incremental: init, any number of updates, final. */
#ifndef FAB_SHA256_H
#define FAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum {
	SHA256_DIGEST_BYTES = 32,                        /* digest length */
	SHA256_BLOCK_BYTES = 64,                         /* compression block */
	SHA256_HEX_BYTES = 2 * SHA256_DIGEST_BYTES + 1,  /* lower-case hex and NUL */
};

/* Hashing state. */
struct sha256 {
	uint32_t h[8];                         /* chaining value */
	uint64_t n_bytes;                      /* message bytes taken so far */
	uint8_t buf[SHA256_BLOCK_BYTES];       /* partial block */
	uint32_t buf_n;                        /* bytes in buf */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
/* Pad, write the digest into @out; @s must be initialised again for reuse. */
void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST_BYTES]);
/* The digest as lower-case hex into @hex. */
void sha256_hex(const uint8_t digest[SHA256_DIGEST_BYTES], char hex[SHA256_HEX_BYTES]);

#endif
