/* Test harness of the NIC suites (test_nic.c, test_nic_mem.c): two NICs
 * back to back or through a "lossy wire" (a two-port node that drops
 * chosen PSNs, every Nth data packet or at random, marks CE, appends an
 * INT record and records what passes), their QP pair and a completion
 * log per side. */
#ifndef FAB_TEST_NIC_PAIR_H
#define FAB_TEST_NIC_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "nic.h"
#include "pkt_telemetry.h"
#include "sim.h"

struct wc_log {
	uint64_t t_ps[64];          /* completion time */
	struct ibv_wc wc[64];       /* completion */
	uint32_t n;                 /* completions */
};

/* One direction of the lossy wire: what it drops or marks, what it saw. */
struct wire_dir {
	uint32_t drop_psns[16];     /* data PSNs dropped the first time they pass */
	uint8_t dropped[16];        /* ... already dropped once */
	uint32_t n_drop_psns;
	uint32_t drop_every;        /* drop every Nth data packet (0: none) */
	bool mark_ce;               /* set CE on every data packet */
	uint32_t loss_ppm;          /* lose any packet with this probability (x 1e-6) */
	uint64_t rng;               /* its random stream */
	uint32_t n_data;            /* data packets seen */
	uint32_t n_lost;            /* packets dropped */
	uint64_t first_data_ps;     /* first and last data packet seen */
	uint64_t last_data_ps;
	uint32_t watch_psn;         /* record when this data PSN passes */
	uint64_t watch_ps[16];      /* ... the times */
	uint32_t n_watch;
	uint32_t nak_psns[16];      /* NAKs seen: their BTH PSN */
	uint32_t n_naks;
	uint64_t cnp_ps[64];        /* CNPs seen: when, to which QP */
	uint32_t cnp_qp[64];
	uint32_t n_cnps;
	uint32_t bad_cnps;          /* CNPs not as specified (DSCP 48, BECN, not ECT) */
	uint8_t data_hdrs[16][96];  /* first bytes of the first data frames that passed */
	uint16_t data_frame_bytes[16]; /* ... their frame lengths */
	uint32_t n_err_naks;        /* NAKs of an error class seen (not PSN sequence) */
	uint8_t err_syndrome;       /* ... the last one's syndrome */
	uint32_t err_psn;           /* ... and its PSN */
	bool int_hop;               /* append an INT record naming its PSN to each data packet */
	uint32_t n_int_acks;        /* ACKs seen echoing the record of the packet of their PSN */
	uint32_t n_int_bad;         /* ACKs echoing anything else */
};

/* A two-port node between the NICs: forwards what arrives on one port out
 * of the other with port_enqueue, applying the rules of that direction
 * (dir[0]: A to B, dir[1]: B to A). */
struct wire {
	struct port ports[2];       /* 0 faces A, 1 faces B */
	struct wire_dir dir[2];
	bool unplugged;             /* drop everything, both ways */
};

struct pair {
	struct sim sim;
	struct nic *a, *b;
	struct nic_qp *qa, *qb;
	struct wc_log la, lb;
	struct wire w;
	bool wired;                 /* the NICs talk through w */
	unsigned access;            /* qp_access_flags the QPs connect with */
};

/* Options of a pair beyond rate, delay and MTU; zero: as before. */
struct pair_opts {
	bool wire;                  /* put the lossy wire in between (two links) */
	enum nic_recovery recovery;
	uint64_t rto_ps;
	uint64_t rto_max_ps;
	const struct cc_ops *cc;
	bool payload;               /* materialise payload (NICs check the ICRC) */
	unsigned access;            /* qp_access_flags of the pair's QPs (0: no memory) */
	uint64_t cnp_interval_ps;   /* nic.cnp_interval (0: a CNP per CE-marked packet) */
};

/* The INT record the test wire writes into data packet @psn. */
struct pkt_int_hop wire_int_hop(uint32_t psn);
/* The completion callback that fills a struct wc_log (@arg). */
void on_wc(void *arg, struct nic *n, const struct ibv_wc *wc, uint64_t now_ps);
/* Create and connect a QP pair of @p's NICs (MTU @mtu, base RTT 2 x
 * @delay_ps, qp_access_flags p->access); 0 or -1. */
int pair_qps(struct pair *p, uint32_t mtu, uint64_t delay_ps, struct nic_qp **qa_out,
	     struct nic_qp **qb_out);
/* Two NICs at @rate_bps with links of @delay_ps, their QP pair qa -> qb. */
void pair_setup_opts(struct pair *p, uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu,
		     const struct pair_opts *o);
void pair_setup(struct pair *p, uint64_t rate_bps, uint64_t delay_ps, uint32_t mtu);
/* Free the pair; every packet must be back in the pool. */
void pair_free(struct pair *p);
/* Post one signaled request of @bytes (one SGE at address 0, lkey 0). */
int post(struct nic_qp *qp, enum ibv_wr_opcode op, uint32_t bytes, uint64_t id);
/* The same with one SGE (@laddr, @len, @lkey), for a WRITE or READ the
 * remote side (@raddr, @rkey), and an immediate (host order). */
int post_mem(struct nic_qp *qp, enum ibv_wr_opcode op, uint64_t laddr, uint32_t len, uint32_t lkey,
	     uint64_t raddr, uint32_t rkey, uint32_t imm_host, uint64_t id);

#endif
