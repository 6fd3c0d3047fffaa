/* Pieces the algorithms of cc/ share, kept apart from their plumbing: the
 * exponentially weighted moving average, decay over whole timer periods
 * (evaluated when needed instead of one event per period), a byte counter
 * that fires every so many bytes, and rate arithmetic that stays inside
 * [min, line] without floating-point surprises. */
#ifndef FAB_CC_UTIL_H
#define FAB_CC_UTIL_H

#include <math.h>
#include <stdint.h>

/* avg <- (1 - g) avg + g sample. */
static inline double cc_ewma(double avg, double sample, double g)
{
	return (1.0 - g) * avg + g * sample;
}

/* @x after @periods applications of x <- (1 - g) x. */
static inline double cc_decay(double x, double g, uint64_t periods)
{
	return periods == 0 ? x : x * pow(1.0 - g, (double)periods);
}

/* Whole periods of @period_ps between @from_ps and @now_ps (0 when
 * @now_ps is not after @from_ps). */
static inline uint64_t cc_periods(uint64_t from_ps, uint64_t now_ps, uint64_t period_ps)
{
	return now_ps > from_ps ? (now_ps - from_ps) / period_ps : 0;
}

/* @r clamped to [lo, hi]. */
static inline uint64_t cc_clamp_u64(uint64_t r, uint64_t lo, uint64_t hi)
{
	return r < lo ? lo : r > hi ? hi : r;
}

/* @rate_bps scaled by @f (>= 0), rounded down, as an integer rate. */
static inline uint64_t cc_rate_scale(uint64_t rate_bps, double f)
{
	double r = (double)rate_bps * f;

	return r <= 0 ? 0 : r >= 1.8e19 ? UINT64_MAX : (uint64_t)r;
}

/* The mean of two rates, rounded up (so that repeated halving of a gap
 * reaches the target instead of stopping one bit/s short). */
static inline uint64_t cc_rate_mid(uint64_t a, uint64_t b)
{
	return a / 2 + b / 2 + ((a & 1) | (b & 1));
}

/* Counts bytes and says how many whole periods of period_bytes they made. */
struct cc_bytecnt {
	uint64_t bytes;        /* bytes since the last period ended */
	uint64_t period_bytes; /* bytes per period; 0: never fires */
};

/* Add @n bytes; returns the periods that ended. */
static inline uint32_t cc_bytecnt_add(struct cc_bytecnt *c, uint64_t n)
{
	uint32_t k = 0;

	if (!c->period_bytes)
		return 0;
	c->bytes += n;
	while (c->bytes >= c->period_bytes) {
		c->bytes -= c->period_bytes;
		k++;
	}
	return k;
}

#endif
