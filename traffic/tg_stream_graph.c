/* Streamed collectives in the dependency graph, before the run (tg.h,
 * struct tg_stream): an instance added as one node (waiting for its
 * gate, or for its ranks' gates), what its messages come to (counts,
 * packets, records; the estimates and the pool's sizing read them), the
 * connection keys its edges make, and freeing its arrays. What happens
 * at run time is tg_stream.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tg_int.h"

void tg_stream_drop(struct tg_stream *s)
{
	free(s->part);
	free(s->ep);
	free(s->echan);
	free(s->ebytes);
	free(s->envl);
	free(s->ehop_ps);
	free(s->tree);
	free(s->erank);
	free(s->cgate);
	s->part = NULL;
	s->ep = NULL;
	s->echan = NULL;
	s->ebytes = NULL;
	s->envl = NULL;
	s->ehop_ps = NULL;
	s->tree = NULL;
	s->erank = s->cgate = NULL;
}

/* tg_stream_each's step for the totals: @arg is the stream. */
static void tg_stream_count(void *arg, uint64_t bytes, uint64_t times)
{
	struct tg_stream *s = arg;

	s->msgs += times;
	s->bytes += bytes * times;
}

static int tg_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int tg_graph_add_stream(struct tg_graph *g, struct tg_stream *s, uint32_t gate, uint32_t coll,
			uint32_t *id)
{
	struct tg_node node = { .kind = TG_NODE_STREAM, .msg = g->n_streams, .coll = coll,
				.start_ps = s->proto.start_ps, .part = UINT32_MAX };
	uint32_t *deps = NULL, n_deps = 0;
	int rc = -ENOMEM;

	s->msgs = s->bytes = 0;
	tg_stream_each(s, tg_stream_count, s);
	if (g->n_streams == g->cap_streams) {
		uint32_t cap = g->cap_streams ? 2 * g->cap_streams : 8;
		struct tg_stream *v = realloc(g->streams, sizeof(*v) * cap);

		if (!v)
			goto fail;
		g->streams = v;
		g->cap_streams = cap;
	}
	if (s->cgate) {
		/* With rank gates it waits for them (each once), not for @gate:
		 * each rank starts at its own (tg_stream_gated). */
		if (!(deps = malloc(sizeof(*deps) * (s->n ? s->n : 1))))
			goto fail;
		memcpy(deps, s->cgate, sizeof(*deps) * s->n);
		qsort(deps, s->n, sizeof(*deps), tg_u32_cmp);
		for (uint32_t r = 0; r < s->n; r++)
			if (!n_deps || deps[n_deps - 1] != deps[r])
				deps[n_deps++] = deps[r];
	} else if (gate != TG_NO_GATE_OP) {
		deps = malloc(sizeof(*deps));
		if (!deps)
			goto fail;
		deps[n_deps++] = gate;
	}
	rc = tg_graph_add(g, &node, deps, n_deps, id);
	free(deps);
	if (rc != 0)
		goto fail;
	s->op = *id;
	g->streams[g->n_streams++] = *s;
	return 0;
fail:
	tg_stream_drop(s);
	return rc;
}

void tg_graph_free_streams(struct tg_graph *g)
{
	for (uint32_t i = 0; i < g->n_streams; i++)
		tg_stream_drop(&g->streams[i]);
	free(g->streams);
}

/* tg_graph_stream_pkts's step: @arg is { sum, mtu }. */
static void tg_stream_pkts(void *arg, uint64_t bytes, uint64_t times)
{
	uint64_t *v = arg;

	v[0] += ((bytes + v[1] - 1) / v[1] + 1) * times;
}

double tg_graph_stream_pkts(const struct tg_graph *g, uint32_t mtu)
{
	uint64_t v[2] = { 0, mtu };

	for (uint32_t i = 0; i < g->n_streams; i++)
		tg_stream_each(&g->streams[i], tg_stream_pkts, v);
	return (double)v[0];
}

uint64_t tg_graph_stream_msgs(const struct tg_graph *g)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < g->n_streams; i++)
		sum += g->streams[i].msgs;
	return sum;
}

uint64_t tg_graph_stream_done_bytes(const struct tg_graph *g)
{
	uint64_t n = tg_graph_stream_msgs(g);

	return n > UINT64_MAX / sizeof(struct tg_sdone) ? UINT64_MAX : n * sizeof(struct tg_sdone);
}

uint64_t tg_stream_n_keys(const struct tg_graph *g)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < g->n_streams; i++)
		for (uint32_t e = 0; e < g->streams[i].n_edges; e++)
			n += g->streams[i].ep[2 * e] != UINT32_MAX;
	return n;
}

void tg_stream_keys(const struct tg_graph *g, uint32_t base, struct tg_key *keys)
{
	uint32_t k = 0, at = base;

	for (uint32_t i = 0; i < g->n_streams; i++) {
		const struct tg_stream *s = &g->streams[i];

		for (uint32_t e = 0; e < s->n_edges; e++, at++) {
			if (s->ep[2 * e] == UINT32_MAX)
				continue; /* no message takes it */
			keys[k].key = (uint64_t)s->proto.workload << 48 | (uint64_t)s->proto.dscp << 40 |
				      (uint64_t)s->ep[2 * e] << 20 | s->ep[2 * e + 1];
			keys[k].chan = s->echan[e];
			keys[k].comm = s->proto.comm;
			keys[k].idx = at;
			k++;
		}
	}
}
