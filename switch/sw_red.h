/* RED-style ECN marking math, apart from the switch glue (the queue
 * manager "red", sw_aqm_red.c): the marking probability grows linearly
 * from 0 at Kmin to Pmax at Kmax and is 1 above Kmax (Floyd and Jacobson's
 * RED, as DCQCN and HPCC use it for ECN; see docs/user-guide.md). Pure
 * functions. */
#ifndef FAB_SW_RED_H
#define FAB_SW_RED_H

#include <stdint.h>

#include "rng.h"

enum { SW_RED_ONE = 1000000 /* probabilities in parts per million */ };

struct sw_red_params {
	uint64_t kmin_bytes;   /* no marking at or below */
	uint64_t kmax_bytes;   /* marking with Pmax at, always above */
	uint32_t pmax_ppm;     /* probability at Kmax, parts per million */
};

/* Marking probability, in ppm, for a queue of @q_bytes. */
static inline uint32_t sw_red_ppm(const struct sw_red_params *r, uint64_t q_bytes)
{
	if (q_bytes <= r->kmin_bytes)
		return 0;
	if (q_bytes > r->kmax_bytes)
		return SW_RED_ONE;
	if (r->kmax_bytes == r->kmin_bytes)
		return r->pmax_ppm;
	return (uint32_t)((uint64_t)r->pmax_ppm * (q_bytes - r->kmin_bytes) /
			  (r->kmax_bytes - r->kmin_bytes));
}

/* Mark with probability @ppm? @draw is uniform in [0, 2^32). */
static inline int sw_red_mark_ppm(uint32_t ppm, uint32_t draw)
{
	return ppm >= SW_RED_ONE || (uint64_t)draw * SW_RED_ONE < (uint64_t)ppm << 32;
}

/* Mark? @draw is uniform in [0, 2^32). */
static inline int sw_red_mark(const struct sw_red_params *r, uint64_t q_bytes, uint32_t draw)
{
	return sw_red_mark_ppm(sw_red_ppm(r, q_bytes), draw);
}

/* Mark a frame with @q_bytes queued? A draw from the splitmix64 stream
 * @rng only where a mark may follow (probability above 0), so that the
 * stream advances only for such frames. The probability is computed
 * before the draw (the draw's store could alias the curve). */
static inline int sw_red_decide(const struct sw_red_params *r, uint64_t q_bytes, uint64_t *rng)
{
	uint32_t ppm = sw_red_ppm(r, q_bytes);

	return ppm != 0 && sw_red_mark_ppm(ppm, (uint32_t)(rng_splitmix64(rng) >> 32));
}

#endif
