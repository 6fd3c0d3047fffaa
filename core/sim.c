/* Simulation context and the main loop: pop the earliest event, advance
 * virtual time, run its handler. Also the EAL start-up and pool creation
 * that every front end shares. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "pkt.h"
#include "sim.h"

enum { SIM_EV_INITIAL = 4096, SIM_PROGRESS_MASK = (1 << 20) - 1 };

int sim_init(struct sim *s, uint64_t seed, struct rte_mempool *pool)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->pool = pool;
	if (pool)
		s->pkts_data_limit = pool->size - pool->size / 16;
	return ev_queue_init(&s->evq, SIM_EV_INITIAL);
}

void sim_fini(struct sim *s)
{
	ev_queue_fini(&s->evq);
}

void sim_at(struct sim *s, uint64_t t_ps, struct ev_src *src, ev_fn fn, void *obj)
{
	assert(t_ps >= s->now_ps);
	if (ev_push(&s->evq, t_ps, src, fn, obj) != 0) {
		fprintf(stderr, "fabemu: out of memory for the event queue (%u events)\n", s->evq.n);
		abort();
	}
}

uint64_t sim_run(struct sim *s)
{
	uint64_t start = s->n_events;
	struct ev e;

	while (!ev_empty(&s->evq)) {
		if (s->stop_ps && ev_peek_time(&s->evq) > s->stop_ps) {
			s->stopped = true;
			s->now_ps = s->stop_ps;
			break;
		}
		ev_pop(&s->evq, &e);
		s->now_ps = ev_time(&e);
		e.fn(s, e.obj);
		s->n_events++;
		if (s->progress && (s->n_events & SIM_PROGRESS_MASK) == 0)
			s->progress(s, s->progress_arg);
	}
	return s->n_events - start;
}

int sim_eal_init(int user_argc, char **user_argv, unsigned mem_mb, char *err, unsigned err_len)
{
	char mem[16];
	char *base[] = {
		"fabemu", "--no-huge", "--no-pci", "--no-shconf", "--no-telemetry",
		"-l", "0", "-m", mem, "--log-level=lib.eal:error",
	};
	int n_base = (int)(sizeof(base) / sizeof(base[0]));
	char **argv = calloc((size_t)(n_base + user_argc + 1), sizeof(*argv));
	int argc = 0, r;

	if (!argv) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	snprintf(mem, sizeof(mem), "%u", mem_mb);
	for (int i = 0; i < n_base; i++)
		argv[argc++] = base[i];
	for (int i = 0; i < user_argc; i++)
		argv[argc++] = user_argv[i];
	r = rte_eal_init(argc, argv);
	free(argv);
	if (r < 0) {
		snprintf(err, err_len, "DPDK EAL failed to start: %s", rte_strerror(rte_errno));
		return -rte_errno ? -rte_errno : -EINVAL;
	}
	return 0;
}

struct rte_mempool *sim_pool_create(const char *name, uint32_t n_mbufs, uint16_t data_room,
				    char *err, unsigned err_len)
{
	uint16_t priv = RTE_ALIGN(sizeof(struct pkt_meta), RTE_MBUF_PRIV_ALIGN);
	struct rte_mempool *mp;

	mp = rte_pktmbuf_pool_create(name, n_mbufs, 256, priv,
				     data_room, SOCKET_ID_ANY);
	if (!mp)
		snprintf(err, err_len, "cannot create a pool of %u packets: %s (raise EAL memory with -- -m MB)",
			 n_mbufs, rte_strerror(rte_errno));
	return mp;
}
