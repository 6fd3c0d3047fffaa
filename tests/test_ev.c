/* Event queue: ordering by (time, source, per-source sequence), whatever the
 * insertion order, and heap growth. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "ev.h"
#include "rng.h"
#include "sim.h"
#include "sim_rec.h"
#include "test.h"
#include "units.h"

struct rec {
	uint64_t t;      /* time it fired */
	uint32_t src;    /* source id */
	uint32_t seq;    /* order scheduled within its source */
};

struct log {
	struct rec r[4096];
	uint32_t n;
};

struct tag {
	struct log *log;
	uint32_t src;
	uint32_t seq;
};

static void ev_record(struct sim *s, void *obj)
{
	struct tag *t = obj;

	t->log->r[t->log->n++] = (struct rec){ s->now_ps, t->src, t->seq };
}

static void test_ev_order(void)
{
	static struct log log;
	static struct tag tags[2000];
	struct ev_src srcs[8];
	uint32_t seqs[8] = { 0 };
	struct sim s;
	struct rng rng;

	log.n = 0;
	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, NULL), 0);
	for (int i = 7; i >= 0; i--)
		srcs[i] = (struct ev_src){ (uint32_t)i, 0 };
	rng_init(&rng, 42, 0);
	for (int i = 0; i < 2000; i++) {
		uint32_t src = (uint32_t)rng_below(&rng, 8);

		tags[i] = (struct tag){ &log, src, seqs[src]++ };
		/* Few distinct times, so ties are common. */
		sim_at(&s, rng_below(&rng, 20) * 1000, &srcs[src], ev_record, &tags[i]);
	}
	CU_ASSERT_EQUAL(sim_run(&s), 2000);
	CU_ASSERT_EQUAL(log.n, 2000);
	for (uint32_t i = 1; i < log.n; i++) {
		const struct rec *a = &log.r[i - 1], *b = &log.r[i];
		int ok = a->t < b->t || (a->t == b->t && (a->src < b->src ||
							 (a->src == b->src && a->seq < b->seq)));

		CU_ASSERT(ok);
	}
	sim_fini(&s);
}

static uint32_t chain_left;

static void ev_chain(struct sim *s, void *obj)
{
	struct ev_src *src = obj;

	if (--chain_left)
		sim_at(s, s->now_ps + 7, src, ev_chain, src);
}

static void test_ev_stop_time(void)
{
	struct ev_src src = { 0, 0 };
	struct sim s;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, NULL), 0);
	chain_left = 1000;
	s.stop_ps = 70;
	sim_at(&s, 0, &src, ev_chain, &src);
	/* Events at 0, 7, ..., 70 run: 11 of them; the one at 77 stays queued. */
	CU_ASSERT_EQUAL(sim_run(&s), 11);
	CU_ASSERT(s.stopped);
	CU_ASSERT_EQUAL(s.now_ps, 70);
	sim_fini(&s);
}

/* The clock's horizon: an event beyond it ends the run, and stays queued. */
static void test_ev_horizon(void)
{
	struct ev_src src = { 0, 0 };
	struct sim s;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, NULL), 0);
	chain_left = 1000;
	sim_at(&s, UNITS_TIME_MAX_PS - 14, &src, ev_chain, &src);
	/* At the horizon - 14, - 7 and the horizon itself; not 7 ps past it. */
	CU_ASSERT_EQUAL(sim_run(&s), 3);
	CU_ASSERT(s.horizon);
	CU_ASSERT(!s.stopped && !s.stuck);
	CU_ASSERT_EQUAL(s.now_ps, UNITS_TIME_MAX_PS);
	CU_ASSERT_EQUAL(s.evq.n, 1);
	CU_ASSERT_EQUAL(s.evq.n_pushed, 4);
	sim_fini(&s);
}

/* A handler that schedules itself again at the same time, for ever. */
static void ev_spin(struct sim *s, void *obj)
{
	sim_at(s, s->now_ps, obj, ev_spin, obj);
}

/* Virtual time that stops moving ends the run (SIM_STUCK_EVENTS; here
 * after 4 polls, not the 4096 of a run: 2^26 events took 18 s of the unit
 * tests under AddressSanitizer). */
static void test_ev_stuck(void)
{
	struct ev_src src = { 0, 0 };
	struct sim s;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, NULL), 0);
	CU_ASSERT_EQUAL(s.stuck_polls, SIM_STUCK_EVENTS / SIM_POLL_EVENTS);
	s.stuck_polls = 4;
	sim_at(&s, 5, &src, ev_spin, &src);
	CU_ASSERT(sim_run(&s) <= 5 * (uint64_t)SIM_POLL_EVENTS);
	CU_ASSERT(s.stuck);
	CU_ASSERT_EQUAL(s.now_ps, 5);
	CU_ASSERT_EQUAL(s.evq.n, 1);
	sim_fini(&s);
}

static void test_ev_growth(void)
{
	struct ev_queue q;
	struct ev_src src = { 3, 0 };
	struct ev e;
	uint64_t prev = 0;

	CU_ASSERT_EQUAL_FATAL(ev_queue_init(&q, 16), 0);
	for (uint64_t i = 0; i < 10000; i++)
		CU_ASSERT_EQUAL(ev_push(&q, (i * 7919) % 10007, &src, NULL, NULL), 0);
	CU_ASSERT_EQUAL(q.n, 10000);
	for (int i = 0; i < 10000; i++) {
		CU_ASSERT(ev_pop(&q, &e));
		CU_ASSERT(ev_time(&e) >= prev);
		prev = ev_time(&e);
	}
	CU_ASSERT(!ev_pop(&q, &e));
	ev_queue_fini(&q);
}

/* Crowded buckets (a synchronised fabric puts hundreds of events in one
 * bucket): sources spread over the whole 24-bit id space, times
 * spread inside buckets, several events of one source at one time, events
 * added to the bucket being consumed and to the next one, and far events
 * in the heap. The expected order is computed independently, by sorting
 * the full keys. */
static int key_cmp(const void *a, const void *b)
{
	unsigned __int128 x = *(const unsigned __int128 *)a, y = *(const unsigned __int128 *)b;

	return x < y ? -1 : x > y;
}

#define BK (UINT64_C(1) << EV_BUCKET_SHIFT) /* a bucket's width, ps */

/* Push an event for @src at @t and record its full key in @want[*n]. */
static void push_recorded(struct ev_queue *q, uint64_t t, struct ev_src *src,
			  unsigned __int128 *want, uint32_t *n)
{
	want[(*n)++] = (unsigned __int128)t << 64 | ((uint64_t)src->id << EV_SEQ_BITS | src->seq);
	CU_ASSERT_EQUAL_FATAL(ev_push(q, t, src, NULL, NULL), 0);
}

/* The @n popped keys @got are the recorded ones @want, sorted. */
static void check_order(const unsigned __int128 *got, unsigned __int128 *want, uint32_t n)
{
	qsort(want, n, sizeof(want[0]), key_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (got[i] != want[i]) {
			CU_FAIL("event out of order");
			break;
		}
}

static void test_ev_crowded(void)
{
	enum { N = 30000, MORE = 6000, SRCS = 600 };
	static unsigned __int128 want[N + MORE], got[N + MORE];
	static struct ev_src srcs[SRCS];
	struct ev_queue q;
	struct rng rng;
	struct ev e;
	uint32_t n = 0, n_got = 0;

	CU_ASSERT_EQUAL_FATAL(ev_queue_init(&q, 16), 0);
	rng_init(&rng, 9, 1);
	for (uint32_t i = 0; i < SRCS; i++)
		srcs[i] = (struct ev_src){ (uint32_t)rng_below(&rng, 1u << 24), 0 };
	for (uint32_t i = 0; i < N; i++) {
		struct ev_src *src = &srcs[rng_below(&rng, SRCS)];
		/* 40 buckets with 4 distinct times each; 1% far away (heap). */
		uint64_t t = rng_below(&rng, 40) * BK + rng_below(&rng, 4) * (BK / 4 - 4) +
			     (i % 97 == 0 ? UINT64_C(5000000) : 0);

		push_recorded(&q, t, src, want, &n);
	}
	while (ev_pop(&q, &e)) {
		CU_ASSERT_FATAL(n_got < N + MORE);
		got[n_got++] = e.key;
		if (n_got % 5 == 0 && n < N + MORE) {
			/* Later than now: into the run (same bucket) or the ring. */
			struct ev_src *src = &srcs[rng_below(&rng, SRCS)];
			uint64_t t = ev_time(&e) + 1 + rng_below(&rng, 2) * 300;

			push_recorded(&q, t, src, want, &n);
		}
	}
	CU_ASSERT_EQUAL_FATAL(n_got, n);
	check_order(got, want, n);
	ev_queue_fini(&q);
}

/* A bucket made of a few runs already in order (as a fabric makes them:
 * the events scheduled at one time, in source order), and one of many. */
static void ev_nop(struct sim *s, void *obj)
{
	(void)s;
	(void)obj;
}

/* ev_next_chunk, each time a pop makes a new run: it holds only queued
 * events, all of the first non-empty bucket after the run's, and it is
 * there whenever that bucket lies within EV_LOOKAHEAD_BUCKETS; NULL
 * otherwise. Events keep being pushed while popping, some into the buckets
 * just ahead and into crowded ones. */
static void test_ev_next_chunk(void)
{
	enum { N = 40000, BUCKETS = 1 << 20 };
	static uint8_t state[N];         /* 0 unscheduled, 1 queued, 2 popped */
	static uint64_t when[N];         /* scheduled time */
	static uint16_t queued[BUCKETS]; /* queued events per bucket */
	struct ev_queue q;
	struct ev_src src[64];
	struct rng rng;
	struct ev e;
	uint32_t pushed = 0, popped = 0, fills = 0, found = 0, bad = 0, n_fills;

	memset(state, 0, sizeof(state));
	memset(queued, 0, sizeof(queued));
	rng_init(&rng, 7, 1);
	CU_ASSERT_EQUAL_FATAL(ev_queue_init(&q, 64), 0);
	for (uint32_t i = 0; i < 64; i++)
		src[i] = (struct ev_src){ .id = i };
#define TEST_PUSH(t)                                                                   \
	do {                                                                           \
		when[pushed] = (t);                                                    \
		state[pushed] = 1;                                                     \
		queued[when[pushed] >> EV_BUCKET_SHIFT]++;                             \
		ev_push(&q, when[pushed], &src[pushed % 64], ev_nop,                   \
			(void *)(uintptr_t)pushed);                                    \
		pushed++;                                                              \
	} while (0)
	/* A bucket of 50 events, then one of 300 at one instant (more than a
	 * chunk), then events spread out. */
	while (pushed < 350)
		TEST_PUSH(pushed < 50 ? 1000 : 2000);
	while (pushed < 2000)
		TEST_PUSH(3000 + rng_next(&rng) % 400000);
	n_fills = q.n_fills;
	while (ev_pop(&q, &e)) {
		uint32_t i = (uint32_t)(uintptr_t)e.obj;

		bad += state[i] != 1;
		state[i] = 2;
		queued[when[i] >> EV_BUCKET_SHIFT]--;
		popped++;
		if (q.n_fills != n_fills) {
			const struct ev_chunk *c = ev_next_chunk(&q);
			uint64_t b = q.run_bucket + 1;

			n_fills = q.n_fills;
			fills++;
			while (b - q.run_bucket < EV_LOOKAHEAD_BUCKETS && b < BUCKETS && !queued[b])
				b++;
			if (b - q.run_bucket >= EV_LOOKAHEAD_BUCKETS || b >= BUCKETS) {
				bad += c != NULL;
			} else if (!c || c->n == 0) {
				bad++;
			} else {
				found++;
				for (uint32_t k = 0; k < c->n; k++) {
					uint32_t j = (uint32_t)(uintptr_t)c->v[k].obj;

					bad += j >= pushed || state[j] != 1 ||
					       (when[j] >> EV_BUCKET_SHIFT) != b;
				}
			}
		}
		/* New events: mostly a frame time ahead, some in the next few
		 * buckets, some all at one instant (a crowded bucket). */
		for (int k = 0; k < 2 && pushed < N; k++) {
			uint64_t r = rng_next(&rng), t = ev_time(&e);

			if (r % 4 == 1)
				t = (t / 20000 + 1) * 20000; /* many at one instant */
			else
				t += r % 4 == 0 ? r % 2048 : 100000 + r % 300000;
			CU_ASSERT_FATAL((t >> EV_BUCKET_SHIFT) < BUCKETS);
			TEST_PUSH(t);
		}
	}
#undef TEST_PUSH
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(popped, pushed);
	/* Both cases were met. */
	CU_ASSERT(found > fills / 4);
	CU_ASSERT(found < fills);
	ev_queue_fini(&q);

	/* The window's edge: a bucket EV_LOOKAHEAD_BUCKETS - 1 past the run's
	 * is found, one EV_LOOKAHEAD_BUCKETS past is not. */
	{
		const uint64_t w = EV_LOOKAHEAD_BUCKETS, bk = UINT64_C(1) << EV_BUCKET_SHIFT;
		const uint64_t t[] = { 0, (w - 1) * bk, (2 * w - 1) * bk, (2 * w - 1) * bk + 5 };

		CU_ASSERT_EQUAL_FATAL(ev_queue_init(&q, 64), 0);
		for (uint32_t k = 0; k < 4; k++)
			ev_push(&q, t[k], &src[k], ev_nop, (void *)(uintptr_t)k);
		CU_ASSERT_FATAL(ev_pop(&q, &e));
		CU_ASSERT(ev_next_chunk(&q) != NULL && ev_next_chunk(&q)->n == 1 &&
			  ev_next_chunk(&q)->v[0].obj == (void *)(uintptr_t)1);
		CU_ASSERT_FATAL(ev_pop(&q, &e));
		CU_ASSERT(ev_next_chunk(&q) == NULL);
		CU_ASSERT_FATAL(ev_pop(&q, &e));
		CU_ASSERT(ev_next_chunk(&q) == NULL); /* nothing after the run's bucket */
		ev_queue_fini(&q);
	}
}

static void test_ev_runs(void)
{
	static unsigned __int128 want[8000], got[8000];
	static struct ev_src srcs[500];
	struct ev_queue q;
	struct rng rng;
	struct ev e;
	uint32_t n = 0, n_got = 0;

	CU_ASSERT_EQUAL_FATAL(ev_queue_init(&q, 16), 0);
	rng_init(&rng, 11, 2);
	for (uint32_t i = 0; i < 500; i++)
		srcs[i] = (struct ev_src){ i * 4099 % (1u << 24), 0 };
	for (uint32_t runs = 1; runs <= 40; runs *= 3) {
		/* Bucket b = runs: @runs ascending sequences of sources. */
		for (uint32_t r = 0; r < runs; r++)
			for (uint32_t i = r; i < 500; i += 1 + (uint32_t)rng_below(&rng, 6)) {
				uint64_t t = runs * BK + (r % 3) * 10;
				struct ev_src *src = &srcs[i];

				CU_ASSERT_FATAL(n < 8000);
				push_recorded(&q, t, src, want, &n);
			}
	}
	CU_ASSERT_FATAL(n <= 8000);
	while (ev_pop(&q, &e))
		got[n_got++] = e.key;
	CU_ASSERT_EQUAL_FATAL(n_got, n);
	check_order(got, want, n);
	ev_queue_fini(&q);
}

/* The EAL's TSC rate after sim_eal_init (main.c), which the link sends
 * to a 5 ms measurement (core/sim.c, __wrap_get_tsc_freq) where DPDK is
 * static: rounded to 10 MHz as the EAL rounds it, and within 2% of the
 * TSC's rate against the kernel's CLOCK_MONOTONIC_RAW over 50 ms. */
static void test_ev_tsc_rate(void)
{
	struct timespec t0, t1, nap = { .tv_nsec = 50000000 };
	uint64_t hz = rte_get_tsc_hz(), c0, c1;
	double ns, measured;

	CU_ASSERT_TRUE_FATAL(hz > 0);
	CU_ASSERT_EQUAL(hz % 10000000, 0);
	CU_ASSERT_EQUAL_FATAL(clock_gettime(CLOCK_MONOTONIC_RAW, &t0), 0);
	c0 = rte_rdtsc();
	nanosleep(&nap, NULL);
	CU_ASSERT_EQUAL_FATAL(clock_gettime(CLOCK_MONOTONIC_RAW, &t1), 0);
	c1 = rte_rdtsc();
	ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
	measured = (double)(c1 - c0) * 1e9 / ns;
	CU_ASSERT_DOUBLE_EQUAL((double)hz / measured, 1.0, 0.02);
}

/* What sim_rec's writer received: "dest:text" items, in order. */
struct trec_log {
	char text[512];
	int lost;
};

static void trec_out(void *dest, const void *data, size_t n)
{
	struct trec_log *l = dest;

	if (!data) {
		l->lost++;
		return;
	}
	snprintf(l->text + strlen(l->text), sizeof(l->text) - strlen(l->text), "%.*s ", (int)n,
		 (const char *)data);
}

/* Put record @text for @dest, port @ord, at @t_ps into @s's buffer. */
static void trec_put(struct sim *s, uint64_t t_ps, enum sim_rec_dest dest, uint32_t ord,
		     const char *text)
{
	uint8_t *o;

	s->now_ps = t_ps;
	o = sim_rec_room(s, dest, ord, (uint32_t)strlen(text));
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	memcpy(o, text, strlen(text));
}

/* Ordered records (core/sim_rec.h) from two buffers (two partitions),
 * written before a time: by time, then by port, then in each port's own
 * order; later times kept for the next flush, in order, and written
 * there merged with what came since; a third buffer's bytes appended as
 * another process's are. Independent expectation: the order the header
 * states, worked out by hand. */
static void test_ev_records(void)
{
	struct sim a = { 0 }, b = { 0 };
	struct sim_rec ra = { 0 }, rb = { 0 }, rc = { 0 };
	struct sim_rec *recs[] = { &ra, &rb };
	struct trec_log log = { "", 0 };
	struct sim_rec_writer w[SIM_REC_N_DESTS] = { { trec_out, &log }, { trec_out, &log } };

	a.rec = &ra;
	b.rec = &rb;
	/* Partition a runs ports 2 and 0, partition b port 1. */
	trec_put(&a, 10, SIM_REC_PFC_LOG, 2, "a10p2x");
	trec_put(&a, 10, SIM_REC_PFC_LOG, 0, "a10p0");
	trec_put(&a, 10, SIM_REC_PFC_LOG, 2, "a10p2y");
	trec_put(&a, 20, SIM_REC_PFC_LOG, 0, "a20p0");
	trec_put(&b, 5, SIM_REC_PFC_LOG, 1, "b5p1");
	trec_put(&b, 10, SIM_REC_PFC_LOG, 1, "b10p1");
	trec_put(&b, 20, SIM_REC_PFC_LOG, 1, "b20p1");
	CU_ASSERT_EQUAL(sim_rec_flush(recs, 2, w, 20), 0);
	CU_ASSERT_STRING_EQUAL(log.text, "b5p1 a10p0 b10p1 a10p2x a10p2y ");
	/* Time 20 was kept: more of it arrives before the next flush. */
	trec_put(&b, 20, SIM_REC_PFC_LOG, 1, "b20p1z");
	trec_put(&a, 20, SIM_REC_PFC_LOG, 2, "a20p2");
	/* Another process's records of port 3, as par_rec_ship sends them. */
	{
		struct sim c = { .rec = &rc };

		trec_put(&c, 20, SIM_REC_PFC_LOG, 3, "c20p3");
		trec_put(&c, 30, SIM_REC_PCAPNG, 0, "c30n0");
		CU_ASSERT(sim_rec_append(&rb, rc.buf, rc.len));
		CU_ASSERT(!sim_rec_append(&rb, rc.buf, rc.len - 1)); /* cut short: malformed */
	}
	log.text[0] = 0;
	CU_ASSERT_EQUAL(sim_rec_flush(recs, 2, w, UINT64_MAX), 0);
	CU_ASSERT_STRING_EQUAL(log.text, "a20p0 b20p1 b20p1z a20p2 c20p3 c30n0 ");
	CU_ASSERT_EQUAL(ra.len + rb.len, 0);
	CU_ASSERT_EQUAL(log.lost, 0);
	sim_rec_free(&ra);
	sim_rec_free(&rb);
	sim_rec_free(&rc);
}

int test_ev_register(void)
{
	CU_pSuite s = CU_add_suite("ev", NULL, NULL);

	if (!s || !CU_add_test(s, "order by time, source, sequence", test_ev_order) ||
	    !CU_add_test(s, "stop time", test_ev_stop_time) ||
	    !CU_add_test(s, "the clock's horizon ends a run", test_ev_horizon) ||
	    !CU_add_test(s, "virtual time stuck ends a run", test_ev_stuck) ||
	    !CU_add_test(s, "heap growth keeps order", test_ev_growth) ||
	    !CU_add_test(s, "crowded buckets keep the full order", test_ev_crowded) ||
	    !CU_add_test(s, "buckets of sorted runs", test_ev_runs) ||
	    !CU_add_test(s, "next chunk: the next bucket's queued events", test_ev_next_chunk) ||
	    !CU_add_test(s, "ordered records: by time, port, a port's order", test_ev_records) ||
	    !CU_add_test(s, "the EAL's TSC rate (5 ms measurement)", test_ev_tsc_rate))
		return -1;
	return 0;
}
