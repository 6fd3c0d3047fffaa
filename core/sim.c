/* Simulation context and the main loop: pop the earliest event, advance
 * virtual time, run its handler. Also the EAL start-up and pool creation
 * that every front end shares. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_memory.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "pkt.h"
#include "par.h"
#include "sim.h"
#include "units.h"

enum { SIM_EV_INITIAL = 4096 };

int sim_init(struct sim *s, uint64_t seed, struct rte_mempool *pool)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->pool = pool;
	s->ids = &s->n_entities;
	s->stuck_polls = SIM_STUCK_EVENTS / SIM_POLL_EVENTS;
	if (pool)
		s->pkts_data_limit = pool->size - pool->size / 16;
	return ev_queue_init(&s->evq, SIM_EV_INITIAL);
}

void sim_fini(struct sim *s)
{
	ev_queue_fini(&s->evq);
}

void sim_at_fail(struct sim *s)
{
	fprintf(stderr, "fabemu: out of memory for the event queue (%u events)\n", s->evq.n);
	abort();
}

static inline const struct sim_hint *sim_hint_of(const struct sim *s, ev_fn fn)
{
	for (uint32_t i = 0; i < s->n_hints; i++)
		if (s->hints[i].fn == fn)
			return &s->hints[i];
	return NULL;
}

void sim_hint(struct sim *s, ev_fn fn, uint16_t off, uint16_t ptr_off, uint16_t ptr_line)
{
	if (sim_hint_of(s, fn))
		return;
	if (s->n_hints < SIM_MAX_HINTS)
		s->hints[s->n_hints++] = (struct sim_hint){
			.fn = fn, .off = off, .ptr_off = ptr_off, .ptr_line = ptr_line
		};
}

void sim_pkt_check(const struct sim *s, const struct rte_mbuf *m)
{
	if (m->pool != s->pool || m->next != NULL || m->nb_segs != 1 ||
	    rte_mbuf_refcnt_read(m) != 1 || !RTE_MBUF_DIRECT(m)) {
		fprintf(stderr, "fabemu: packet %p freed in a state pkt_alloc does not allow\n",
			(const void *)m);
		abort();
	}
}

/* A new run was just made (see sim_hint): the first stage for the next
 * bucket's events, the second for the run's, whose objects were loaded
 * that way a run ago. Most buckets hold a few events (here about three on
 * average), so this stays a few events ahead of the handlers: enough for
 * lines that come from a last-level cache, which is where a large fabric's
 * state mostly lives (docs/performance.md, fifth round). */
static void sim_prefetch_run(struct sim *s)
{
	const struct ev_queue *q = &s->evq;
	const struct ev_chunk *c = ev_next_chunk(q);

	if (c) {
		for (uint32_t i = 0; i < c->n; i++) {
			const struct sim_hint *h = sim_hint_of(s, c->v[i].fn);

			__builtin_prefetch((const char *)c->v[i].obj + (h ? h->off : 0));
		}
	}
	for (uint32_t i = q->run_head; i < q->run_n; i++) {
		const struct sim_hint *h = sim_hint_of(s, q->run[i].fn);
		const char *target;

		if (h && h->ptr_off != SIM_NO_PTR &&
		    (target = *(const char *const *)((const char *)q->run[i].obj + h->ptr_off)) != NULL)
			__builtin_prefetch(target + h->ptr_line);
	}
}

/* Handle @e, popped from @s's queue (*@fills: the queue's runs filled so
 * far, for the prefetch of a new run). */
static inline __attribute__((always_inline)) void sim_handle(struct sim *s, const struct ev *e,
							     uint32_t *fills)
{
	if (s->evq.n_fills != *fills) {
		*fills = s->evq.n_fills;
		sim_prefetch_run(s);
	}
	s->now_ps = ev_time(e);
	e->fn(s, e->obj);
	if (likely(!s->monitor_event))
		s->last_work_ps = s->now_ps;
	s->monitor_event = false;
	s->n_events++;
}

uint64_t sim_run(struct sim *s)
{
	uint64_t start = s->n_events, poll_ps = s->now_ps;
	uint32_t fills = s->evq.n_fills, still_polls = 0;
	struct ev e;

	if (s->interrupt && *s->interrupt) {
		s->interrupted = true;
		return 0;
	}
	while (!ev_empty(&s->evq)) {
		if (s->stop_ps && ev_peek_time(&s->evq) > s->stop_ps) {
			s->stopped = true;
			s->now_ps = s->stop_ps;
			break;
		}
		ev_pop(&s->evq, &e);
		if (unlikely(ev_time(&e) > UNITS_TIME_MAX_PS)) {
			/* Put it back (same key, same place in the order): the
			 * run ends with it pending, not counted twice. */
			if (ev_push_slow(&s->evq, &e) == 0)
				s->evq.n_pushed--;
			s->horizon = true;
			break;
		}
		sim_handle(s, &e, &fills);
		if (unlikely((s->n_events & (SIM_POLL_EVENTS - 1)) == 0)) {
			if (s->progress && (s->n_events & (SIM_PROGRESS_EVENTS - 1)) == 0)
				s->progress(s, s->progress_arg);
			if (s->interrupt && *s->interrupt) {
				s->interrupted = true;
				break;
			}
			/* Checked here, between polls, so that it costs no
			 * event anything. */
			still_polls = s->now_ps == poll_ps ? still_polls + 1 : 0;
			poll_ps = s->now_ps;
			if (unlikely(still_polls >= s->stuck_polls)) {
				s->stuck = true;
				break;
			}
			if (s->watch && s->watch(s, s->watch_arg))
				break;
		}
	}
	return s->n_events - start;
}

uint64_t sim_pending(const struct sim *s)
{
	return s->evq.n + (s->par && s->part == UINT32_MAX ? par_pending(s->par) : 0);
}

uint64_t sim_run_window(struct sim *s, unsigned __int128 bound)
{
	uint64_t start = s->n_events, poll_ps = s->now_ps;
	uint32_t fills = s->evq.n_fills, still_polls = 0;
	struct ev e;

	while (!ev_empty(&s->evq) && ev_next_key(&s->evq) < bound) {
		ev_pop(&s->evq, &e);
		sim_handle(s, &e, &fills);
		if (unlikely((s->n_events & (SIM_POLL_EVENTS - 1)) == 0)) {
			still_polls = s->now_ps == poll_ps ? still_polls + 1 : 0;
			poll_ps = s->now_ps;
			if (unlikely(still_polls >= s->stuck_polls)) {
				s->stuck = true;
				break;
			}
		}
	}
	return s->n_events - start;
}

/* Ask for transparent huge pages behind one memory segment list. */
static int sim_memseg_thp(const struct rte_memseg_list *msl, void *arg)
{
	(void)arg;
	if (msl->base_va && msl->len)
		madvise(msl->base_va, msl->len, MADV_HUGEPAGE);
	return 0;
}

/* The EAL measures the TSC's rate at start-up wherever the CPU does not
 * say it (virtual machines, as a rule): a 100 ms sleep against
 * CLOCK_MONOTONIC_RAW in every process, the longest part of a small run's
 * start. fabemu never reads the TSC (its time is simulated); the EAL's
 * own uses (delays, alarms) need it only roughly. With DPDK linked
 * statically the link (-Wl,--wrap=get_tsc_freq, meson.build) sends the
 * EAL here: the same measurement over 5 ms, rounded as the EAL rounds it,
 * to 10 MHz. With DPDK linked shared this is never called. */
uint64_t __wrap_get_tsc_freq(void);
uint64_t __wrap_get_tsc_freq(void)
{
	enum { NAP_NS = 5000000, ROUND_HZ = 10000000 };
	struct timespec t0, t1, nap = { .tv_nsec = NAP_NS };
	uint64_t c0, c1;
	double ns;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &t0) != 0)
		return 0; /* the EAL then estimates it its own way */
	c0 = rte_rdtsc();
	nanosleep(&nap, NULL);
	if (clock_gettime(CLOCK_MONOTONIC_RAW, &t1) != 0)
		return 0;
	c1 = rte_rdtsc();
	ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
	if (ns <= 0 || c1 <= c0)
		return 0;
	return (uint64_t)((double)(c1 - c0) * 1e9 / ns / ROUND_HZ + 0.5) * ROUND_HZ;
}

int sim_eal_init(int user_argc, char **user_argv, unsigned mem_mb, char err[CFG_ERR_BYTES])
{
	return sim_eal_start(user_argc, user_argv, mem_mb, false, err);
}

int sim_eal_start(int user_argc, char **user_argv, unsigned mem_mb, bool hw, char err[CFG_ERR_BYTES])
{
	char mem[16];
	char *sim_base[] = {
		"fabemu", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry",
		"-l", "0", "-m", mem, "--log-level=lib.eal:error",
	};
	char *hw_base[] = {
		"fabemu", "--in-memory", "--no-telemetry", "-l", "0", "--log-level=lib.eal:error",
	};
	char **base = hw ? hw_base : sim_base;
	int n_base = hw ? (int)(sizeof(hw_base) / sizeof(hw_base[0]))
			: (int)(sizeof(sim_base) / sizeof(sim_base[0]));
	char **argv = calloc((size_t)(n_base + user_argc + 1), sizeof(*argv));
	int argc = 0, r;

	if (!argv) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	snprintf(mem, sizeof(mem), "%u", mem_mb);
	for (int i = 0; i < n_base; i++)
		argv[argc++] = base[i];
	for (int i = 0; i < user_argc; i++)
		argv[argc++] = user_argv[i];
	r = rte_eal_init(argc, argv);
	free(argv);
	if (r < 0 && rte_errno == EINVAL) {
		/* The EAL has printed its usage and what it did not accept. */
		snprintf(err, CFG_ERR_BYTES, "DPDK EAL arguments after '--' not accepted (see above)");
		return -EINVAL;
	}
	if (r < 0) {
		snprintf(err, CFG_ERR_BYTES, "DPDK EAL failed to start: %s", rte_strerror(rte_errno));
		return -rte_errno ? -rte_errno : -EINVAL;
	}
	/* Without hugetlbfs the EAL's memory is plain anonymous memory: where
	 * the kernel offers transparent huge pages, packets get 2 MiB pages
	 * (a simulation touches them at random; 4 KiB pages cost a TLB miss
	 * nearly every time). */
	rte_memseg_list_walk(sim_memseg_thp, NULL);
	return 0;
}

enum {
	SIM_POOL_ALIGN = 2 << 20, /* transparent huge page */
	SIM_POOL_STEP = 4 << 20,  /* memory the pool takes at a time */
};

/* What a pool made by sim_pool_create keeps in its private area: the
 * pktmbuf pool's own (first: rte_pktmbuf_* read it there), then where the
 * packets not yet made will go. */
struct sim_pool_priv {
	struct rte_pktmbuf_pool_private pkt;
	char *map;        /* the reserved mapping (unmapped with the first chunk) */
	size_t map_len;
	char *next;       /* start of the next chunk: its first object's header */
	uint32_t stride;  /* bytes per packet, header included (whole lines) */
	uint32_t step;    /* packets per chunk */
};

/* Return the pool's memory (the first chunk's free callback; later chunks
 * have none): the whole reserved mapping. */
static void sim_pool_unmap(struct rte_mempool_memhdr *hdr, void *opaque)
{
	const struct sim_pool_priv *pv = rte_mempool_get_priv(hdr->mp);

	munmap(opaque, pv->map_len);
}

/* Add the next chunk of packets to @mp: populate it and give each mbuf its
 * constant fields. Returns the packets added, 0 when the pool is whole, or
 * -errno. */
static int sim_pool_add_chunk(struct rte_mempool *mp)
{
	struct sim_pool_priv *pv = rte_mempool_get_priv(mp);
	uint32_t n = RTE_MIN(pv->step, mp->size - mp->populated_size);
	bool first = mp->populated_size == 0;
	int r;

	if (!n)
		return 0;
	r = rte_mempool_populate_iova(mp, pv->next, RTE_BAD_IOVA, (size_t)n * pv->stride,
				      first ? sim_pool_unmap : NULL, first ? pv->map : NULL);
	if (r <= 0)
		return r < 0 ? r : -ENOMEM;
	n = (uint32_t)r; /* the chunk holds exactly n */
	for (uint32_t i = 0; i < n; i++)
		rte_pktmbuf_init(mp, NULL, pv->next + mp->header_size + (size_t)i * pv->stride, i);
	pv->next += (size_t)n * pv->stride;
	return (int)n;
}

struct rte_mbuf *sim_pkt_alloc_grow(struct sim *s)
{
	if (sim_pool_add_chunk(s->pool) <= 0)
		return NULL;
	return pkt_alloc(s->pool);
}

struct rte_mempool *sim_pool_create(const char *name, uint32_t n_mbufs, uint16_t data_room,
				    char err[CFG_ERR_BYTES])
{
	uint16_t priv = RTE_ALIGN(sizeof(struct pkt_meta), RTE_MBUF_PRIV_ALIGN);
	/* Objects laid end to end, each a whole number of lines, with the
	 * pool's object header in the tail of the line before the mbuf: the
	 * mbuf and our metadata and headers stay line-aligned, and a packet
	 * without payload takes 256 bytes (with the default layout, cache
	 * alignment of the header, spreading over memory channels and not
	 * crossing 4 KiB pages, it took 341). The data room grows to fill
	 * the last line. */
	const unsigned flags = RTE_MEMPOOL_F_NO_SPREAD | RTE_MEMPOOL_F_NO_CACHE_ALIGN |
			       RTE_MEMPOOL_F_NO_IOVA_CONTIG;
	struct rte_pktmbuf_pool_private pp = { .mbuf_priv_size = priv };
	struct rte_mempool_objsz sz;
	size_t stride, hdr, room;
	uint32_t elt = (uint32_t)(sizeof(struct rte_mbuf) + priv + data_room);
	const size_t huge = SIM_POOL_ALIGN;
	struct sim_pool_priv *pv;
	struct rte_mempool *mp;
	size_t len, map_len, lead;
	char *map, *addr;
	int r;

	rte_mempool_calc_obj_size(elt, flags, &sz);
	hdr = sz.header_size;
	stride = RTE_ALIGN_CEIL(sz.total_size, RTE_CACHE_LINE_SIZE);
	room = data_room + (stride - sz.total_size);
	if (room > UINT16_MAX) {
		snprintf(err, CFG_ERR_BYTES, "packet pool %s: data room of %u bytes too large", name,
			 data_room);
		return NULL;
	}
	pp.mbuf_data_room_size = (uint16_t)room;
	elt = (uint32_t)(sizeof(struct rte_mbuf) + priv + room);
	mp = rte_mempool_create_empty(name, n_mbufs, elt, 256, sizeof(struct sim_pool_priv),
				      SOCKET_ID_ANY, flags);
	if (!mp)
		goto fail;
	if (mp->header_size + mp->elt_size + mp->trailer_size != stride) {
		snprintf(err, CFG_ERR_BYTES, "packet pool %s: unexpected object size %u", name,
			 mp->header_size + mp->elt_size + mp->trailer_size);
		rte_mempool_free(mp);
		return NULL;
	}
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL) != 0) {
		snprintf(err, CFG_ERR_BYTES,
			 "packet pool %s: mempool driver \"%s\" is not in this build (a static "
			 "DPDK link has \"ring_mp_mc\" only)",
			 name, rte_mbuf_best_mempool_ops());
		rte_mempool_free(mp);
		return NULL;
	}
	rte_pktmbuf_pool_init(mp, &pp);
	/* The packets live in our own anonymous memory, not in the EAL's
	 * (which without hugetlbfs is shared memory the kernel will not back
	 * with huge pages): 2 MiB-aligned and advised for transparent huge
	 * pages, because a simulation touches packets at random and 4 KiB
	 * pages would cost a TLB miss on nearly every one. The whole pool's
	 * address range is reserved here, but packets are made a chunk at a
	 * time as the run needs them (sim_pkt_alloc_grow): memory follows the
	 * packets in use, not the pool's size. Objects start where the first
	 * mbuf is line-aligned. */
	lead = (RTE_CACHE_LINE_SIZE - hdr % RTE_CACHE_LINE_SIZE) % RTE_CACHE_LINE_SIZE;
	len = RTE_ALIGN_CEIL(lead + stride * n_mbufs, huge);
	map_len = len + huge;
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (map == MAP_FAILED) {
		rte_errno = ENOMEM;
		goto fail;
	}
	addr = (char *)RTE_ALIGN_CEIL((uintptr_t)map, huge);
	madvise(addr, len, MADV_HUGEPAGE);
	pv = rte_mempool_get_priv(mp);
	pv->map = map;
	pv->map_len = map_len;
	pv->next = addr + lead;
	pv->stride = (uint32_t)stride;
	pv->step = (uint32_t)RTE_MAX(SIM_POOL_STEP / stride, (size_t)64);
	r = sim_pool_add_chunk(mp);
	if (r <= 0) {
		munmap(map, map_len); /* not handed to the pool */
		rte_errno = r < 0 ? -r : ENOMEM;
		goto fail;
	}
	{
		/* The hot path finds a frame from the packet's address. */
		struct rte_mbuf *m = pkt_alloc(mp);

		if (!m || ((uintptr_t)m & (RTE_CACHE_LINE_SIZE - 1)) != 0 ||
		    rte_pktmbuf_mtod(m, uint8_t *) != pkt_data(m) ||
		    (uint8_t *)pkt_meta(m) != (uint8_t *)m + sizeof(struct rte_mbuf)) {
			if (m)
				rte_pktmbuf_free(m);
			snprintf(err, CFG_ERR_BYTES, "packet pool %s: unexpected mbuf layout", name);
			rte_mempool_free(mp);
			return NULL;
		}
		rte_pktmbuf_free(m);
	}
	return mp;
fail:
	snprintf(err, CFG_ERR_BYTES, "cannot create a pool of %u packets: %s", n_mbufs,
		 rte_strerror(rte_errno));
	rte_mempool_free(mp);
	return NULL;
}
