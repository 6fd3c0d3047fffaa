/* Deterministic random streams: one per entity, derived from (seed, entity
 * id) with splitmix64, advanced with xoshiro256**. No global state. */
#ifndef FAB_RNG_H
#define FAB_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4]; /* xoshiro256** state */
};

static inline uint64_t rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Seed the stream of entity @id under experiment seed @seed. */
static inline void rng_init(struct rng *r, uint64_t seed, uint64_t id)
{
	uint64_t x = seed ^ (id * UINT64_C(0xd1342543de82ef95));

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return res;
}

/* Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, unbiased). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t x = rng_next(r);
	__uint128_t m = (__uint128_t)x * n;
	uint64_t l = (uint64_t)m;

	if (l < n) {
		uint64_t t = -n % n;

		while (l < t) {
			x = rng_next(r);
			m = (__uint128_t)x * n;
			l = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform double in [0, 1). */
static inline double rng_unit(struct rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
