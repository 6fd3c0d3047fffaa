/* Private to live/: the state of a live run and of its ports. */
#ifndef FAB_LIVE_INT_H
#define FAB_LIVE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "live.h"
#include "results.h"

struct rte_mbuf;
struct rte_mempool;
struct port;

enum {
	LIVE_BURST = 32,                  /* frames per DPDK receive or send call */
	LIVE_MEMIF_GRACE_US = 250000,     /* a memif port open this long after the loop ends */
	LIVE_PFC_REFRESH_NS = 1000000,    /* a pause told again (its quanta, 65535 x 512 bit
					   * times, last 3.4 ms at 10 Gb/s) */
};

struct live_port {
	struct live *l;                  /* the run */
	const struct exp_live_port *cfg; /* its entry of live.ports */
	uint16_t eth;                    /* DPDK port id */
	bool started;                    /* rte_eth_dev_start succeeded */
	bool gone;                       /* a memif whose peer left: not read or written */
	struct port *p;                  /* the host port it drives */
	uint32_t ip;                     /* its fabric address (host order) */
	uint8_t mac[6];                  /* the host port's MAC (the plan's) */
	uint8_t gw_mac[6];               /* the first hop's (the leaf port's) */
	uint8_t peer_mac[6];             /* the endpoint's, learned from its frames */
	bool peer_known;                 /* it sent one */
	struct rte_mbuf *rxb[LIVE_BURST]; /* frames received, not yet taken in */
	uint16_t n_rxb;                  /* their count */
	struct rte_mbuf *txb[LIVE_BURST]; /* frames for the endpoint, not yet sent */
	uint64_t txt[LIVE_BURST];        /* when each arrived at the host port (simulated
					  * ps), UINT64_MAX for the port's own replies */
	uint8_t pfc_told;                /* priorities the endpoint was last told are paused */
	uint64_t pfc_next_ns;            /* when to tell it again (a pause's refresh) */
	uint16_t n_txb;                  /* their count */
	struct res_live_port *st;        /* its counters (in live's rs) */
	char name[80];                   /* "NODE:PORT" */
};

struct live {
	struct fabric *f;             /* the fabric it runs */
	const struct exp *e;          /* its experiment */
	struct live_port *ports;      /* live.ports' */
	uint32_t n_ports;             /* those set up so far */
	uint32_t n_eps;               /* endpoints of the fabric (addresses in the plan) */
	struct rte_mempool *io_pool;  /* the DPDK ports' buffers */
	/* pacing (live_loop.c) */
	uint64_t t0_ns;               /* CLOCK_MONOTONIC at the start of the run */
	uint64_t v0_ps;               /* simulated time then */
	uint64_t work_ns;             /* wall-clock time of the turns that handled an event
				       * or moved a frame */
	struct res_live rs;           /* what it measured (the live.* metrics; fabric.live) */
	const char **names;           /* rs.port_names */
	uint8_t *live_ep;             /* per endpoint: a live port (tg_set_live) */
};

/* The PACKET_MMAP frame of af_packet and veth ports: a power of two from
 * 2 KiB that holds a frame of live.mtu (with a VLAN tag) after the
 * kernel's header. The DPDK buffers must hold it less that header. */
static inline unsigned live_mmap_frame(const struct exp *e)
{
	unsigned fsz = 2048;

	while (fsz < e->live.mtu_bytes + 18 + 96)
		fsz *= 2;
	return fsz;
}

/* The EAL device name of live port @i (net_tap<i>, net_af_packet<i>). */
void live_vdev_name(const struct exp_live_port *c, uint32_t i, char name[64]);
/* Move @lp's TAP into its namespace and give it the host port's MAC, the
 * fabric address and live.mtu (live_netns.c). 0 or -errno with @err. */
int live_netns_setup(struct live_port *lp, char err[CFG_ERR_BYTES]);
/* Receive from every live port (into each port's rxb); returns the frames
 * received. live_take_in then puts them into the fabric at the current
 * time: the loop reads its clock between the two, so a frame never goes in
 * before it came. */
uint32_t live_poll(struct live *l);
void live_take_in(struct live *l);
/* Send what waits for @lp's endpoint. */
void live_flush(struct live_port *lp);
/* Tell @lp's endpoint, with 802.1Qbb frames, which priorities its switch
 * pauses on the host port now (@now_ns: CLOCK_MONOTONIC): on every change,
 * and while any is paused every LIVE_PFC_REFRESH_NS. */
void live_pfc(struct live_port *lp, uint64_t now_ns);
/* Simulated time now by the wall clock (live.dilation). */
uint64_t live_now_ps(const struct live *l);
/* A frame that arrived at simulated time @t_ps went to its endpoint at
 * @now_ps: its lag recorded. */
void live_lag(struct live *l, uint64_t now_ps, uint64_t t_ps);

#endif
