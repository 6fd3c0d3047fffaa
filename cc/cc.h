/* Congestion control behind one const ops table per algorithm. The NIC
 * keeps a struct cc_qp per QP, calls the algorithm's hooks with the current
 * virtual time (packet sent, ACK, CNP, NAK, retransmission timeout, its own
 * timer) and applies what the algorithm writes back into it: a rate (the
 * QP's pacer) and, for window algorithms, a window of bytes in flight. An
 * algorithm sees only these types, never the NIC or the switch. The
 * registry (cc.c) lists the algorithms and their `nic.<name>` key tables. */
#ifndef FAB_CC_H
#define FAB_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

struct cfg_table;
struct cfg_doc;

enum {
	CC_MAX_ALGOS = 8,    /* registered algorithms, at most */
	CC_CFG_BYTES = 512,  /* settings of one algorithm (its cfg_size), at most (ibcc's
			      * 128-entry congestion control table takes 256) */
};

/* What the algorithm reacts to (struct cc_ops.flags). */
enum cc_flags {
	CC_F_ECN = 1u << 0,      /* reacts to ECN: CNPs or ECN echo (else marking on the
				  * fabric draws a warning) */
	CC_F_ECN_ECHO = 1u << 1, /* wants the responder to echo CE marks in its ACKs (BECN) */
	CC_F_INT = 1u << 2,      /* reads the echoed INT stack of ACKs (struct cc_ack's
				  * int_hops): the experiment turns fabric.int on, and the
				  * NIC decodes the stack for this QP only */
};

enum {
	CC_INT_MAX_HOPS = 5,     /* hops of an INT stack, at most */
	CC_INT_TS_BITS = 40,     /* full records: struct cc_int_hop's ts_ps counts modulo
				  * 2^40 ps */
	CC_INT_TX_BITS = 32,     /* full records: its tx_bytes modulo 2^32 */
};

/* One hop of an echoed INT stack, in path order (the NIC decodes the
 * switches' records for algorithms with CC_F_INT; HPCC reads it). Time and
 * byte count are the wire's modular fields, whose width depends on the
 * record format (fabric.int_record): difference two records of one hop
 * with cc_int_hop_ts_delta_ps and cc_int_hop_tx_delta_bytes, never
 * directly. */
struct cc_int_hop {
	uint64_t ts_ps;          /* when the data packet left the hop's egress queue, ps
				  * modulo ts_wrap_ps */
	uint64_t qlen_bytes;     /* frame bytes queued on that egress port once it left */
	uint64_t tx_bytes;       /* frame bytes the port had sent before it, modulo
				  * tx_wrap_bytes */
	uint64_t rate_bps;       /* the egress link's rate (whole Mb/s on the wire) */
	uint64_t ts_wrap_ps;     /* ts_ps counts modulo this (full records 2^40 ps,
				  * compact ones 2^24 ns); 0: 2^CC_INT_TS_BITS */
	uint64_t tx_wrap_bytes;  /* tx_bytes counts modulo this (full records 2^32,
				  * compact ones 2^20 x 128 m); 0: 2^CC_INT_TX_BITS */
};

/* @later - @earlier of two full records' times of one hop, ps (wrap-safe
 * for gaps below 2^CC_INT_TS_BITS ps, 1.1 s). */
static inline uint64_t cc_int_ts_delta_ps(uint64_t later, uint64_t earlier)
{
	return (later - earlier) & ((UINT64_C(1) << CC_INT_TS_BITS) - 1);
}

/* @later - @earlier of two full records' tx bytes of one hop (wrap-safe
 * for gaps below 4 GiB). */
static inline uint64_t cc_int_tx_delta_bytes(uint64_t later, uint64_t earlier)
{
	return (later - earlier) & ((UINT64_C(1) << CC_INT_TX_BITS) - 1);
}

/* @later - @earlier modulo @wrap, both below it. */
static inline uint64_t cc_int_wrap_delta(uint64_t later, uint64_t earlier, uint64_t wrap)
{
	return later >= earlier ? later - earlier : later + (wrap - earlier);
}

/* Time from record @earlier to record @later of one hop, ps, modulo
 * @later's width (wrap-safe for gaps below it: 1.1 s with full records,
 * 16.7 ms with compact ones). */
static inline uint64_t cc_int_hop_ts_delta_ps(const struct cc_int_hop *later,
					      const struct cc_int_hop *earlier)
{
	return later->ts_wrap_ps
		       ? cc_int_wrap_delta(later->ts_ps, earlier->ts_ps, later->ts_wrap_ps)
		       : cc_int_ts_delta_ps(later->ts_ps, earlier->ts_ps);
}

/* Bytes the hop sent from record @earlier to record @later, modulo
 * @later's width (4 GiB with full records, 128 m MiB with compact ones). */
static inline uint64_t cc_int_hop_tx_delta_bytes(const struct cc_int_hop *later,
						 const struct cc_int_hop *earlier)
{
	return later->tx_wrap_bytes
		       ? cc_int_wrap_delta(later->tx_bytes, earlier->tx_bytes, later->tx_wrap_bytes)
		       : cc_int_tx_delta_bytes(later->tx_bytes, earlier->tx_bytes);
}

/* What an acknowledgement tells the sender. */
struct cc_ack {
	uint64_t acked_bytes;    /* payload bytes newly acknowledged (0 for a duplicate) */
	uint64_t rtt_ps;         /* RTT sample: now minus the send time of a packet this ACK
				  * covers (never a retransmitted one, Karn's rule); 0: none */
	uint64_t inflight_bytes; /* bytes still in flight after this ACK */
	bool ecn_echo;           /* the ACK echoes congestion (BECN: a packet it
				  * acknowledges arrived CE-marked) */
	const struct cc_int_hop *int_hops; /* echoed INT stack, NULL when none (always
				  * NULL unless the algorithm has CC_F_INT) */
	uint32_t n_int_hops;     /* its hops (<= CC_INT_MAX_HOPS) */
};

/* Per-QP counters an algorithm keeps (summed into summary.json's cc.*). */
struct cc_stats {
	uint64_t rate_cuts;        /* rate decreases */
	uint64_t rate_increases;   /* rate increases */
	uint64_t window_cuts;      /* window decreases */
	uint64_t window_increases; /* window increases */
	uint64_t timer_events;     /* timer expiries handled */
	uint64_t int_hops;         /* INT records of echoed stacks read (CC_F_INT) */
};

struct cc_ops;

/* One QP as its algorithm sees it: fixed inputs, the outputs the NIC
 * applies, the timer request and the algorithm's private state. */
struct cc_qp {
	/* inputs, set before init */
	const struct cc_ops *ops;  /* the algorithm */
	const void *cfg;           /* its settings (cfg_size bytes, nic.<name>.*) */
	void *priv;                /* its per-QP state (priv_size bytes, zeroed) */
	uint64_t line_rate_bps;    /* rate of the NIC port the QP sends on */
	uint64_t base_rtt_ps;      /* unloaded round-trip time of the QP's path */
	uint32_t mtu_bytes;        /* payload bytes per packet */
	uint32_t n_hops;           /* links of the QP's path (nic_qp_set_hops); 0: unknown */
	uint64_t cnp_interval_ps;  /* set before init, may be changed by init: the least
				    * time between two CNPs the responder end of the QP
				    * sends (the NIC sets nic.cnp_interval, DCQCN's N;
				    * ibcc sets its becn_interval, 0 by default: a BECN
				    * for every FECN, as IBTA A10 has it) */
	bool backlogged;           /* set by the NIC before on_timer: the QP has data to
				    * send or in flight (an algorithm may let its timer
				    * sleep while not, and catch up when it sends) */
	/* outputs, written by the algorithm */
	uint64_t rate_bps;         /* pacing rate, within [min, line_rate_bps] */
	uint64_t window_bytes;     /* bytes in flight allowed; 0: no window */
	uint64_t timer_ps;         /* requested timer expiry (cc_timer_arm); 0: none */
	struct cc_stats stats;     /* counters */
};

struct cc_ops {
	const char *name;          /* "none", "dcqcn", "dctcp", ... */
	size_t priv_size;          /* per-QP state, bytes */
	unsigned flags;            /* enum cc_flags */
	const struct cfg_table *cfg_table; /* its `nic.<name>` keys; NULL: none */
	size_t cfg_size;           /* bytes its table fills (<= CC_CFG_BYTES) */
	/* Set up q->priv (zeroed) from q->cfg and the inputs; set rate_bps
	 * (and window_bytes). Required. Returns 0 or -errno. */
	int (*init)(struct cc_qp *q);
	/* A packet of @bytes (frame payload) left. May be NULL. */
	void (*on_send)(struct cc_qp *q, uint32_t bytes, uint64_t now_ps);
	/* An ACK arrived. May be NULL. */
	void (*on_ack)(struct cc_qp *q, const struct cc_ack *ack, uint64_t now_ps);
	/* A CNP arrived for this QP. May be NULL. */
	void (*on_cnp)(struct cc_qp *q, uint64_t now_ps);
	/* A NAK (PSN sequence error: a loss) arrived. May be NULL. */
	void (*on_nak)(struct cc_qp *q, uint64_t now_ps);
	/* The retransmission timer expired. May be NULL. */
	void (*on_timeout)(struct cc_qp *q, uint64_t now_ps);
	/* The timer asked for with cc_timer_arm is due (now_ps >= the time
	 * asked for). Required when the algorithm arms timers. */
	void (*on_timer)(struct cc_qp *q, uint64_t now_ps);
	/* The largest round-trip time the settings @cfg treat as an ordinary
	 * congestion signal (a delay target, a high threshold), ps, for the
	 * check that the retransmission timeout is above it (a timeout below
	 * resends data that is only queued). May be NULL: no delay signal. */
	uint64_t (*delay_ceiling_ps)(const void *cfg);
};

/* Ask for the QP's one timer at @at_ps (after now; replaces an earlier
 * request); 0 cancels. The NIC keeps at most one live event per QP and
 * re-arms it lazily: a request moved later costs no event. */
static inline void cc_timer_arm(struct cc_qp *q, uint64_t at_ps)
{
	q->timer_ps = at_ps;
}

/* Algorithm by name, NULL if unknown. */
const struct cc_ops *cc_find(const char *name);
/* NULL-terminated list of the registered names (for messages and docs). */
const char *const *cc_names(void);
/* Algorithm @i of the registry, NULL past the last. */
const struct cc_ops *cc_at(unsigned i);
/* Registry index of @ops, or -1. */
int cc_index(const struct cc_ops *ops);
/* 0 when @ops is fit to register (name, init, sizes, on_timer), else
 * -EINVAL with @err saying what is missing. */
int cc_ops_check(const struct cc_ops *ops, char err[CFG_ERR_BYTES]);

/* The settings of every registered algorithm, each in the slot of its
 * registry index, filled by cc_cfg_table (the `nic.<name>` sections). */
struct cc_cfg_set {
	_Alignas(8) unsigned char slot[CC_MAX_ALGOS][CC_CFG_BYTES]; /* per algorithm */
};

/* The `nic.<name>` sections of every algorithm with settings, into a
 * struct cc_cfg_set (one bind beside nic_cfg_table). Absent sections are
 * left alone: cc_cfg_resolve fills those of the algorithms in use. */
extern const struct cfg_table cc_cfg_table;

/* The settings of @ops in @set (NULL when it has none). */
const void *cc_cfg_of(const struct cc_cfg_set *set, const struct cc_ops *ops);
/* Make sure @set holds settings for @ops: when its section is absent from
 * @nic (the `nic:` map of @doc), fill in `<name>: {}` and read it, so that
 * defaults apply and show in the resolved experiment. 0 or -errno. */
int cc_cfg_resolve(struct cfg_doc *doc, struct cfg_node *nic, const struct cc_ops *ops,
		   struct cc_cfg_set *set, char err[CFG_ERR_BYTES]);
/* @ops's defaults into @cfg (cfg_size bytes), as an empty section gives
 * (tests, tools). 0 or -errno. */
int cc_cfg_defaults(const struct cc_ops *ops, void *cfg, char err[CFG_ERR_BYTES]);

#endif
