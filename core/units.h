/* Units: simulated time is integer picoseconds, rates are bits per second,
 * sizes are bytes. Named converters keep unit changes out of expressions, and
 * the quantity parsers read what people write in experiment files
 * ("100Gbps", "1us", "4KiB", "30%"), strictly. */
#ifndef FAB_UNITS_H
#define FAB_UNITS_H

#include <stdint.h>

enum {
	UNITS_PS_PER_NS = 1000,
	UNITS_PS_PER_US = 1000 * 1000,
};

#define UNITS_PS_PER_MS UINT64_C(1000000000)
#define UNITS_PS_PER_S UINT64_C(1000000000000)

/* The clock's horizon. Simulated time is a uint64_t of picoseconds, which
 * would wrap after 2^64 ps (about 213 days). Every time an experiment, a
 * --set or a trace writes is at most UNITS_TIME_MAX_PS (1000000 s, about
 * 11.6 days; units_parse_time refuses more), sums the loader makes (a
 * start plus a duration) are checked against it, and the engine stops a
 * run whose next event lies beyond it (sim_run). An event is scheduled at
 * now plus a few such times, so nothing wraps: 2^64 ps is over 18 times
 * the horizon. */
#define UNITS_TIME_MAX_PS (UINT64_C(1000000) * UNITS_PS_PER_S)
/* A link's propagation delay is at most 1 s: a round trip over the
 * longest path (16 links each way) stays far inside the horizon. */
#define UNITS_LINK_DELAY_MAX_PS UNITS_PS_PER_S
#define UNITS_LINK_DELAY_WHY "a path's round trip must stay far inside the clock's horizon"

static inline uint64_t units_ns_to_ps(uint64_t ns) { return ns * UNITS_PS_PER_NS; }
static inline uint64_t units_us_to_ps(uint64_t us) { return us * UNITS_PS_PER_US; }
static inline double units_ps_to_ns(uint64_t ps) { return (double)ps / UNITS_PS_PER_NS; }
static inline double units_ps_to_us(uint64_t ps) { return (double)ps / UNITS_PS_PER_US; }
static inline double units_ps_to_s(uint64_t ps) { return (double)ps / (double)UNITS_PS_PER_S; }

/* Serialisation time of @bytes at @rate_bps, rounded down; the remainder in
 * units of 1/rate_bps ps is returned through @rem so that a port can carry it
 * to the next frame and stay exact to the picosecond over any run. For
 * frame-sized @bytes (below 2 MB; the arithmetic is 64-bit). */
static inline uint64_t units_ser_ps(uint64_t bytes, uint64_t rate_bps, uint64_t *rem)
{
	uint64_t num = bytes * 8 * UNITS_PS_PER_S + *rem;

	*rem = num % rate_bps;
	return num / rate_bps;
}

/* Quantity parsers. Each returns 0, or -EINVAL with a reason written into
 * @why (a static string, never NULL on error). Numbers may be decimal with a
 * fraction ("2.5us"); the unit is mandatory; case of the unit prefix matters
 * (M = mega, m = milli for time only). */
int units_parse_rate(const char *s, uint64_t *bps, const char **why);
/* Also refuses a time above UNITS_TIME_MAX_PS. */
int units_parse_time(const char *s, uint64_t *ps, const char **why);
int units_parse_size(const char *s, uint64_t *bytes, const char **why);
int units_parse_fraction(const char *s, double *frac, const char **why);

/* Write a rate as people read it ("100Gbps", "12.5Gbps") into @buf. */
void units_fmt_rate(char *buf, unsigned len, uint64_t bps);

#endif
