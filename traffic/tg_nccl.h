/* The NCCL model of a collective (a collective workload's `nccl` key):
 * what NCCL adds to the ideal transfers of an algorithm. A protocol (LL,
 * LL128, Simple) sets the bytes a step carries and the bytes its lines
 * take on the wire; each transfer leaves a hop latency after what it
 * waits for (the GPU kernel and, on the network, the proxy thread); a
 * rank's first transfers wait for the collective's base latency (the
 * launch); NVLink carries Simple at the share of its line rate NCCL's
 * copies reach. A tuner picks the protocol by size from NCCL's own cost
 * model (latency + S / bandwidth), as NCCL does unless NCCL_PROTO forces
 * one. The facts and their sources are in tg_nccl.c. */
#ifndef FAB_TG_NCCL_H
#define FAB_TG_NCCL_H

#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"

/* NCCL's protocols (NCCL_PROTO), and the ideal model. */
enum tg_nccl_proto {
	TG_NCCL_IDEAL,  /* the model is off: the algorithm's transfers as they are */
	TG_NCCL_LL,     /* 8-byte flag + data lines: half the wire is flags */
	TG_NCCL_LL128,  /* 128-byte lines, 120 bytes of data each */
	TG_NCCL_SIMPLE, /* bulk data with a fence */
	TG_NCCL_N,
};

/* "off", "LL", "LL128", "Simple" by value; NULL-terminated. */
extern const char *const tg_nccl_proto_names[TG_NCCL_N + 1];

enum {
	/* NVLS's share of what NCCL's Simple copies reach on NVLink:
	 * nvlsEfficiency in NCCL's tuner (src/graph/tuning.cc), 0.85 for
	 * Hopper, 0.74 for Blackwell. The in-network all-reduce in an NVLink
	 * domain runs at it under the model (tg_coll_innet.c), Hopper's for
	 * NVLink 4 (3.6 Tb/s a GPU), Blackwell's from NVLink 5 (7.2 Tb/s). */
	TG_NCCL_NVLS_EFF_HOPPER_PPM = 850000,
	TG_NCCL_NVLS_EFF_BLACKWELL_PPM = 740000,
	/* NCCL's latency of NVLS in one node, Simple (hwLat[NVLINK][NVLS],
	 * tuning.cc; baseLat of NVLS is 0), us: what its tuner adds to NVLS's
	 * time, and what an NVLS transfer waits under the model. */
	TG_NCCL_NVLS_LAT_US = 23,
};

/* An all-reduce's algorithm under the model (NCCL_ALGO). */
enum tg_nccl_algo {
	TG_NCCL_ALGO_AUTO, /* ring or tree, the tuner's pick */
	TG_NCCL_ALGO_RING,
	TG_NCCL_ALGO_TREE,
	TG_NCCL_ALGO_NVLS,    /* the in-network all-reduce in one NVLink domain (a
			       * collective workload's only) */
	TG_NCCL_ALGO_COLLNET, /* the in-network all-reduce across nodes (likewise) */
};

/* The `nccl` key of a collective. */
struct tg_nccl_cfg {
	bool on;                /* the model applies */
	uint8_t proto;          /* forced protocol (NCCL_PROTO), TG_NCCL_IDEAL: the tuner's */
	uint8_t algo;           /* enum tg_nccl_algo: an all-reduce's algorithm (NCCL_ALGO)
				 * where no algorithm key says */
	uint32_t nvl_eff_ppm;   /* Simple's share of NVLink's line rate, parts per million */
	int64_t base_ps;        /* base latency; -1: NCCL's for the protocol */
	int64_t nvl_hop_ps;     /* latency of a hop over NVLink; -1: NCCL's */
	int64_t net_hop_ps;     /* latency of a hop over the network; -1: NCCL's */
	bool pxn;               /* PXN: an all-to-all's send to a GPU of another node and
				 * rail goes over NVLink to the local GPU of that rail and
				 * leaves on its NIC (NCCL_PXN_DISABLE=0, the default) */
};

/* What the tuner is told of an instance. */
struct tg_nccl_shape {
	uint8_t kind;           /* enum tg_coll_kind */
	bool tree;              /* the double binary tree (else a ring, a chain or sends) */
	uint32_t n;             /* ranks */
	uint32_t nodes;         /* NVLink domains (nodes) they span; a host is its own */
	double bus_Bps;         /* Simple's bus bandwidth, bytes/s: what the ranks' links
				 * give (line rates, NVLink at its efficiency) */
	uint32_t channels;      /* the channels configured (rings, trees) */
};

/* What the model does to one instance. */
struct tg_nccl_plan {
	uint8_t proto;          /* enum tg_nccl_proto; TG_NCCL_IDEAL: nothing */
	uint32_t nvl_eff_ppm;   /* NVLink transfers take their bytes x 10^6 / this */
	uint64_t step_bytes;    /* the data of one transfer (NCCL's step buffer) */
	uint64_t hop_ps[2];     /* a transfer's latency after what it waits for:
				 * [0] over the network, [1] over NVLink */
	uint64_t base_ps;       /* a rank's first transfers wait this much more */
	uint32_t channels;      /* the channels it runs: fewer than configured for small
				 * sizes, as NCCL gives each channel enough work */
	double predicted_us;    /* the tuner's time for it (latency + S / bandwidth) */
	bool pxn;               /* an all-to-all's sends take PXN's route (tg_cb_pxn) */
};

/* Read the `nccl` key @n (off, on, or a map) into @out: 0 or -EINVAL with
 * @err filled. NULL @n: off. With @innet false (a workload other than
 * the collective kind) the algorithms nvls and collnet are refused. */
int tg_nccl_read(const struct cfg_node *n, struct tg_nccl_cfg *out, bool innet, char err[CFG_ERR_BYTES]);

/* The plan of an instance of @bytes with @shape under @c (off: proto
 * TG_NCCL_IDEAL, the rest 0): the forced protocol, or the one of least
 * tg_nccl_time_us. */
void tg_nccl_plan(const struct tg_nccl_cfg *c, const struct tg_nccl_shape *shape, uint64_t bytes,
		  struct tg_nccl_plan *out);

/* The plan of a point-to-point send of @bytes under @c (off: proto
 * TG_NCCL_IDEAL), within one NVLink domain (@nvl) or across nodes: LL
 * over NVLink up to NCCL_P2P_LL_THRESHOLD (16 KiB; NCCL gives network
 * sends no LL buffers by default), else Simple in NCCL's point-to-point
 * chunks; the ring's latencies of that protocol; one channel. NCCL's
 * protocol key does not apply (NCCL_PROTO is for collectives). */
void tg_nccl_p2p_plan(const struct tg_nccl_cfg *c, bool nvl, uint64_t bytes, struct tg_nccl_plan *out);

/* The most chunks a point-to-point send of @bytes makes under @c (on),
 * over NVLink or the network, whichever are more; 1 with @c off or no
 * bytes. */
uint64_t tg_nccl_p2p_chunks(const struct tg_nccl_cfg *c, uint64_t bytes);

/* NCCL's estimate of the time of @bytes with protocol @proto (not
 * TG_NCCL_IDEAL) and @shape, in us: its latency (base and hops) plus
 * @bytes over its algorithm bandwidth. */
double tg_nccl_time_us(const struct tg_nccl_cfg *c, const struct tg_nccl_shape *shape, uint8_t proto,
		       uint64_t bytes);

/* The bytes a transfer of @bytes of data takes on the wire under @p, over
 * NVLink when @nvl: the protocol's lines, and on NVLink its efficiency. */
static inline uint64_t tg_nccl_wire(const struct tg_nccl_plan *p, bool nvl, uint64_t bytes)
{
	uint64_t w = bytes;

	switch (p->proto) {
	case TG_NCCL_IDEAL:
		return bytes;
	case TG_NCCL_LL:
		w = (bytes + 7) / 8 * 16; /* 16-byte lines: 8 bytes of data, 8 of flags */
		break;
	case TG_NCCL_LL128:
		w = (bytes + 119) / 120 * 128; /* 128-byte lines, 8 bytes of flag */
		break;
	default:
		break;
	}
	if (nvl && p->nvl_eff_ppm && p->nvl_eff_ppm < 1000000)
		w = (uint64_t)(((unsigned __int128)w * 1000000 + p->nvl_eff_ppm - 1) / p->nvl_eff_ppm);
	return w;
}

#endif
