/* The NCCL model of a collective: its facts, the `nccl` key and the
 * tuner (tg_nccl.h says what the model does).
 *
 * Facts, from NCCL's source and its maintainers:
 * - Protocols and buffers (src/include/device.h): NCCL_STEPS = 8 slots a
 *   connection; LL's buffer is 512 threads x 8 lines x 16 bytes x 8 steps,
 *   a step 65,536 bytes of lines carrying 32 KiB of data (each 16-byte
 *   line holds 8 bytes of data and 8 of flags); LL128's is 640 threads x
 *   120 elements x 8 bytes x 8 steps, a step 614,400 bytes of 128-byte
 *   lines of which 15 of 16 words are data (576,000 bytes); Simple's is
 *   NCCL_BUFFSIZE = 4 MiB, a step 512 KiB (the collective's slice key).
 * - Latencies (src/graph/tuning.cc, NCCL 2.30), us, LL / LL128 / Simple:
 *   base Ring 6.6 / 14.0 / 8.4, Tree 6.8 / 14.0 / 8.4; a hop over NVLink
 *   Ring 0.6 / 1.9 / 3.4, Tree 0.6 / 1.25 / 4.0; a hop over the network
 *   Ring 2.7 / 4.0 / 14, Tree 5.0 / 8.5 / 14. Ring all-reduce latency =
 *   base + (2(n-1) - 2(N-1)) NVLink hops + 2(N-1) network hops (N nodes);
 *   tree all-reduce = base + 2((n/N - 1) NVLink + log2(N) network hops).
 * - Bandwidth (the same file): the bus bandwidth of the links, x 0.5 for
 *   ring LL, x 0.92 for ring LL128 and for the tree (here LL's and
 *   LL128's factors apply to the tree too: their lines are the same);
 *   algorithm bandwidth = bus bandwidth x n / nsteps for a ring (nsteps
 *   2(n-1) for all-reduce, n-1 for reduce-scatter and all-gather), x 0.5
 *   for the tree. The time NCCL predicts is latency + S / algorithm
 *   bandwidth, and it runs the protocol (and algorithm) of least time
 *   unless NCCL_PROTO (NCCL_ALGO) says.
 * - Channels (src/enqueue.cc, src/include/comm.h): NCCL takes channels
 *   away while S < channels x threads x threshold, down to one: threads
 *   512 for LL and Simple, 640 for LL128 (NCCL_LL128_MAX_NTHREADS); the
 *   threshold 8 for LL and LL128, 64 for Simple, LL's times the ranks for
 *   a ring.
 * - NVLink: 8 H100s reach about 370 GB/s of bus bandwidth with the ring
 *   on a 450 GB/s line rate, "with the protocol overhead (~20%)" (S.
 *   Jeaugey, NVIDIA, nccl-tests issue 212): 82% of the line rate.
 * - PXN (src/graph/search.cc, ncclTopoGetNetDev; NCCL 2.12 on): a
 *   point-to-point send to a rank of another node leaves on the local NIC
 *   of the GPU with the receiver's device index, the send going over
 *   NVLink to that GPU first, whose proxy posts it (NCCL_PXN_DISABLE 0
 *   and NCCL_P2P_PXN_LEVEL 2 by default: "use PXN as much as possible"),
 *   when that GPU is in the communicator and reached over NVLink; the
 *   forwarded sends share that GPU's connections to the receiver
 *   (NCCL_NET_SHARED_COMMS 1). All-to-all is such sends.
 * - Point-to-point chunks (src/init.cc, src/enqueue.cc addP2pToPlan):
 *   Simple sends a peer's bytes in chunks of NCCL_P2P_NET_CHUNKSIZE =
 *   128 KiB in a communicator of more than one node, else
 *   NCCL_P2P_NVL_CHUNKSIZE = 512 KiB; over the network a send of less
 *   than a chunk takes a quarter chunk, of less than 8 chunks a half; a
 *   send of at most NCCL_P2P_LL_THRESHOLD = 16 KiB a channel runs LL
 *   where the connection has LL buffers: NVLink's, not the network's
 *   (NCCL_ALLOC_P2P_NET_LL_BUFFERS = 0). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "tg.h"
#include "tg_nccl.h"

const char *const tg_nccl_proto_names[TG_NCCL_N + 1] = { "off", "LL", "LL128", "Simple", NULL };

/* Names the protocol key takes, by value (auto for the tuner). */
static const char *const tg_nccl_proto_keys[TG_NCCL_N + 1] = { "auto", "ll", "ll128", "simple", NULL };

enum {
	TG_NCCL_NVL_EFF_PPM = 822222, /* 370 / 450 (nccl-tests issue 212) */
	TG_NCCL_LL_STEP_BYTES = 32768,
	TG_NCCL_LL128_STEP_BYTES = 576000,
	TG_NCCL_P2P_NET_CHUNK = 128 << 10, /* NCCL_P2P_NET_CHUNKSIZE */
	TG_NCCL_P2P_NVL_CHUNK = 512 << 10, /* NCCL_P2P_NVL_CHUNKSIZE */
	TG_NCCL_P2P_LL_THRESHOLD = 16384,  /* NCCL_P2P_LL_THRESHOLD */
};

/* Threads a channel runs and their work threshold, by protocol - 1. */
static const uint32_t tg_nccl_threads[3] = { 512, 640, 512 };
static const uint32_t tg_nccl_thread_threshold[3] = { 8, 8, 64 };

/* NCCL's latencies in ns, [tree][protocol - 1]: base, a hop over NVLink,
 * a hop over the network (tuning.cc). */
static const uint32_t tg_nccl_base_ns[2][3] = { { 6600, 14000, 8400 }, { 6800, 14000, 8400 } };
static const uint32_t tg_nccl_nvl_ns[2][3] = { { 600, 1900, 3400 }, { 600, 1250, 4000 } };
static const uint32_t tg_nccl_net_ns[2][3] = { { 2700, 4000, 14000 }, { 5000, 8500, 14000 } };

/* A time key: auto (-1) or a time. */
static int tg_nccl_time_key(const struct cfg_node *map, const char *key, int64_t *out,
			    char err[CFG_ERR_BYTES])
{
	const struct cfg_node *n = cfg_get(map, key);
	uint64_t ps;

	*out = -1;
	if (!n || (n->type == CFG_SCALAR && strcmp(n->str, "auto") == 0))
		return 0;
	if (cfg_time_max(n, UINT64_C(1000000000000), "a latency of at most 1 s", &ps, err) != 0)
		return -EINVAL;
	*out = (int64_t)ps;
	return 0;
}

int tg_nccl_read(const struct cfg_node *n, struct tg_nccl_cfg *out, bool innet, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "protocol", "algorithm", "nvlink_efficiency", "base_latency",
					    "nvlink_latency", "net_latency", "pxn", NULL };
	static const char *const algos[] = { "auto", "ring", "tree", "nvls", "collnet", NULL };
	const struct cfg_node *p;
	double eff = TG_NCCL_NVL_EFF_PPM / 1e6;
	int proto = TG_NCCL_IDEAL, algo = TG_NCCL_ALGO_AUTO;

	*out = (struct tg_nccl_cfg){ .nvl_eff_ppm = TG_NCCL_NVL_EFF_PPM, .base_ps = -1,
				     .nvl_hop_ps = -1, .net_hop_ps = -1, .pxn = true };
	if (!n)
		return 0;
	if (n->type == CFG_SCALAR) {
		if (strcmp(n->str, "off") == 0)
			return 0;
		if (strcmp(n->str, "on") == 0) {
			out->on = true;
			return 0;
		}
		cfg_errorf(err, n, "nccl: off, on, or a map {protocol, algorithm, nvlink_efficiency, base_latency, nvlink_latency, net_latency, pxn}, not '%s'",
			   n->str);
		return -EINVAL;
	}
	if (cfg_want(n, CFG_MAP, "nccl (off, on, or a map)", err) != 0 || cfg_check_keys(n, keys, err) != 0)
		return -EINVAL;
	out->on = true;
	if ((p = cfg_get(n, "protocol")) && cfg_enum(p, tg_nccl_proto_keys, &proto, err) != 0)
		return -EINVAL;
	out->proto = (uint8_t)proto;
	if ((p = cfg_get(n, "algorithm")) && cfg_enum(p, algos, &algo, err) != 0)
		return -EINVAL;
	if (algo >= TG_NCCL_ALGO_NVLS && !innet) {
		cfg_errorf(err, p, "nccl.algorithm %s: a collective workload's all-reduce only (the in-network algorithm); here auto, ring or tree",
			   algos[algo]);
		return -EINVAL;
	}
	out->algo = (uint8_t)algo;
	if ((p = cfg_get(n, "nvlink_efficiency")) && cfg_fraction(p, 0.01, 1, &eff, err) != 0)
		return -EINVAL;
	out->nvl_eff_ppm = (uint32_t)lround(eff * 1e6);
	if (tg_nccl_time_key(n, "base_latency", &out->base_ps, err) != 0 ||
	    tg_nccl_time_key(n, "nvlink_latency", &out->nvl_hop_ps, err) != 0 ||
	    tg_nccl_time_key(n, "net_latency", &out->net_hop_ps, err) != 0)
		return -EINVAL;
	if ((p = cfg_get(n, "pxn")) && cfg_bool(p, &out->pxn, err) != 0)
		return -EINVAL;
	return 0;
}

/* The latencies of @proto under @c, ps: base, NVLink hop, network hop. */
static void tg_nccl_lat(const struct tg_nccl_cfg *c, bool tree, uint8_t proto, uint64_t out[3])
{
	int a = tree ? 1 : 0, p = proto - 1;

	out[0] = c->base_ps >= 0 ? (uint64_t)c->base_ps : (uint64_t)tg_nccl_base_ns[a][p] * 1000;
	out[1] = c->nvl_hop_ps >= 0 ? (uint64_t)c->nvl_hop_ps : (uint64_t)tg_nccl_nvl_ns[a][p] * 1000;
	out[2] = c->net_hop_ps >= 0 ? (uint64_t)c->net_hop_ps : (uint64_t)tg_nccl_net_ns[a][p] * 1000;
}

static uint32_t tg_nccl_log2(uint32_t v)
{
	uint32_t l = 0;

	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

double tg_nccl_time_us(const struct tg_nccl_cfg *c, const struct tg_nccl_shape *s, uint8_t proto,
		       uint64_t bytes)
{
	uint64_t lat[3];
	uint32_t n = s->n, nodes = s->nodes ? s->nodes : 1;
	double hops_nvl, hops_net, bus = s->bus_Bps, algbw;

	tg_nccl_lat(c, s->tree, proto, lat);
	if (s->tree) {
		hops_nvl = 2.0 * (n / nodes - 1);
		hops_net = 2.0 * tg_nccl_log2(nodes);
		bus *= 0.92;
	} else {
		double steps, inter;

		switch (s->kind) {
		case TG_COLL_ALL_REDUCE:
			steps = 2.0 * (n - 1);
			inter = 2.0 * (nodes - 1);
			break;
		case TG_COLL_ALL_TO_ALL:
			steps = 1;
			inter = nodes > 1 ? 1 : 0;
			break;
		default: /* reduce-scatter, all-gather, the broadcast chain */
			steps = n - 1;
			inter = nodes - 1;
			break;
		}
		hops_nvl = steps - inter;
		hops_net = inter;
	}
	if (proto == TG_NCCL_LL)
		bus *= 0.5;
	else if (proto == TG_NCCL_LL128)
		bus *= 0.92;
	if (s->tree)
		algbw = bus * 0.5;
	else if (s->kind == TG_COLL_ALL_REDUCE)
		algbw = bus * n / (2.0 * (n - 1));
	else if (s->kind == TG_COLL_BROADCAST)
		algbw = bus;
	else
		algbw = bus * n / (double)(n - 1);
	return ((double)lat[0] + hops_nvl * (double)lat[1] + hops_net * (double)lat[2]) / 1e6 +
	       (algbw > 0 ? (double)bytes / algbw * 1e6 : 0);
}

/* NCCL's chunk of a point-to-point send of @pair bytes among ranks on
 * @nodes nodes (its step under Simple). */
static uint64_t tg_nccl_p2p_chunk(uint32_t nodes, uint64_t pair)
{
	if (nodes <= 1)
		return TG_NCCL_P2P_NVL_CHUNK;
	if (pair < TG_NCCL_P2P_NET_CHUNK)
		return TG_NCCL_P2P_NET_CHUNK / 4;
	if (pair < 8 * TG_NCCL_P2P_NET_CHUNK)
		return TG_NCCL_P2P_NET_CHUNK / 2;
	return TG_NCCL_P2P_NET_CHUNK;
}

void tg_nccl_plan(const struct tg_nccl_cfg *c, const struct tg_nccl_shape *s, uint64_t bytes,
		  struct tg_nccl_plan *out)
{
	uint64_t lat[3];
	uint8_t best = c->proto;

	*out = (struct tg_nccl_plan){ .proto = TG_NCCL_IDEAL };
	if (!c->on || s->n < 2)
		return;
	if (best == TG_NCCL_IDEAL) {
		/* NCCL's tuner: the protocol of least time; all-to-all's
		 * sends (NCCL's point-to-point) as tg_nccl_p2p_plan's: LL for a
		 * peer's share of up to 16 KiB when every pair is over NVLink
		 * (one domain), else Simple (a network pair has no LL buffers,
		 * and an instance runs one protocol). */
		double t_best = 0;

		best = TG_NCCL_SIMPLE;
		if (s->kind == TG_COLL_ALL_TO_ALL && s->nodes <= 1 && bytes / s->n <= TG_NCCL_P2P_LL_THRESHOLD)
			best = TG_NCCL_LL;
		if (s->kind != TG_COLL_ALL_TO_ALL)
			for (uint8_t p = TG_NCCL_LL; p <= TG_NCCL_SIMPLE; p++) {
				double t = tg_nccl_time_us(c, s, p, bytes);

				if (p == TG_NCCL_LL || t < t_best) {
					t_best = t;
					best = p;
				}
			}
	}
	tg_nccl_lat(c, s->tree, best, lat);
	out->proto = best;
	out->nvl_eff_ppm = c->nvl_eff_ppm;
	out->step_bytes = best == TG_NCCL_LL ? TG_NCCL_LL_STEP_BYTES
			  : best == TG_NCCL_LL128 ? TG_NCCL_LL128_STEP_BYTES : 0;
	out->base_ps = lat[0];
	out->hop_ps[1] = lat[1];
	out->hop_ps[0] = lat[2];
	out->predicted_us = tg_nccl_time_us(c, s, best, bytes);
	/* Point-to-point sends: PXN's route, and under Simple NCCL's chunks
	 * of a peer's share. */
	out->pxn = c->pxn && s->kind == TG_COLL_ALL_TO_ALL;
	if (s->kind == TG_COLL_ALL_TO_ALL && best == TG_NCCL_SIMPLE)
		out->step_bytes = tg_nccl_p2p_chunk(s->nodes, bytes / s->n);
	/* Channels: fewer while each would get too little work. */
	{
		uint64_t per = (uint64_t)tg_nccl_threads[best - 1] * tg_nccl_thread_threshold[best - 1];
		uint32_t nc = s->channels ? s->channels : 1;

		if (best == TG_NCCL_LL && !s->tree && s->kind != TG_COLL_ALL_TO_ALL)
			per *= s->n;
		while (nc > 1 && bytes < nc * per)
			nc--;
		out->channels = nc;
	}
}

void tg_nccl_p2p_plan(const struct tg_nccl_cfg *c, bool nvl, uint64_t bytes, struct tg_nccl_plan *out)
{
	uint8_t p = nvl && bytes <= TG_NCCL_P2P_LL_THRESHOLD ? TG_NCCL_LL : TG_NCCL_SIMPLE;
	uint64_t lat[3];

	*out = (struct tg_nccl_plan){ .proto = TG_NCCL_IDEAL };
	if (!c->on)
		return;
	tg_nccl_lat(c, false, p, lat);
	out->proto = p;
	out->nvl_eff_ppm = c->nvl_eff_ppm;
	out->step_bytes = p == TG_NCCL_LL ? TG_NCCL_LL_STEP_BYTES : tg_nccl_p2p_chunk(nvl ? 1 : 2, bytes);
	out->base_ps = lat[0];
	out->hop_ps[1] = lat[1];
	out->hop_ps[0] = lat[2];
	out->channels = 1;
}

uint64_t tg_nccl_p2p_chunks(const struct tg_nccl_cfg *c, uint64_t bytes)
{
	uint64_t most = 1;

	for (int nvl = 0; c->on && nvl < 2; nvl++) {
		struct tg_nccl_plan pl;
		uint64_t l;

		tg_nccl_p2p_plan(c, nvl, bytes, &pl);
		l = (bytes + pl.step_bytes - 1) / pl.step_bytes;
		most = l > most ? l : most;
	}
	return most;
}
