/* Congestion control behind one const ops table per algorithm. The NIC
 * keeps a struct cc_qp per QP, calls the algorithm's hooks with the current
 * virtual time (packet sent, ACK, CNP, NAK, retransmission timeout, its own
 * timer) and applies what the algorithm writes back into it: a rate (the
 * QP's pacer) and, for window algorithms, a window of bytes in flight. An
 * algorithm sees only these types, never the NIC or the switch. The
 * registry (cc.c, on core/reg) holds the algorithms; each brings its own
 * `nic.<name>` settings section (docs/extending/cc.md). */
#ifndef FAB_CC_H
#define FAB_CC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "reg.h"

struct cfg_table;
struct cfg_doc;

/* What the algorithm reacts to (struct cc_ops.flags). */
enum cc_flags {
	CC_F_ECN = 1u << 0,      /* reacts to ECN: CNPs or ECN echo (else marking on the
				  * fabric draws a warning). Where the link layer marks
				  * nothing such an algorithm is refused when marks are
				  * all it reacts to (cc_marks_only), else warned of */
	CC_F_ECN_ECHO = 1u << 1, /* wants the responder to echo CE marks in its ACKs (BECN) */
	CC_F_INT = 1u << 2,      /* reads the echoed INT stack of ACKs (struct cc_ack's
				  * int_hops): the experiment turns fabric.int on, and the
				  * NIC decodes the stack for this QP only */
	CC_F_CREDIT = 1u << 3,   /* UET receiver credit (RCCC): the NIC sends the QP's data
				  * only against credit its receiver grants (settings:
				  * nic.rccc's, struct cc_rccc_cfg, whatever else the
				  * algorithm runs); fabric.link_layer: uet only */
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
	const void *cfg;           /* its settings (kind.settings_size bytes,
				    * nic.<name>.*); NULL when it has none */
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
	bool nak_last_hop;         /* set by the NIC before on_nak: the NAK names a packet
				    * trimmed on its last hop (UET's UET_TRIMMED_LASTHOP) */
	bool backlogged;           /* set by the NIC before on_timer: the QP has data to
				    * send or in flight (an algorithm may let its timer
				    * sleep while not, and catch up when it sends) */
	/* outputs, written by the algorithm */
	uint64_t rate_bps;         /* pacing rate, within [min, line_rate_bps] */
	uint64_t window_bytes;     /* bytes in flight allowed; 0: no window */
	uint64_t timer_ps;         /* requested timer expiry (cc_timer_arm); 0: none */
	struct cc_stats stats;     /* counters */
};

/* One algorithm: one file defines it, one line of cc.c's built-in list
 * (or cc_register) registers it. */
struct cc_ops {
	struct reg_kind kind;      /* first: its name ("dcqcn", as nic.cc names it), doc
				    * line, `nic.<name>` settings table (NULL: none) and
				    * the size of the struct that table fills */
	size_t priv_size;          /* per-QP state, bytes */
	unsigned flags;            /* enum cc_flags */
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
	/* A combination runs on another algorithm's settings: NULL, or the
	 * algorithm whose `nic.<name>` section fills q->cfg (nscc+rccc runs
	 * NSCC on nic.nscc; its credit reads nic.rccc, CC_F_CREDIT). Such an
	 * algorithm has no settings table of its own. */
	const struct cc_ops *settings_of;
};

/* @ops reacts to congestion marks and to nothing else (CC_F_ECN, and none
 * of on_ack, on_nak, on_timeout: DCQCN, IB CC): where nothing marks, it
 * never slows a QP down. */
static inline bool cc_marks_only(const struct cc_ops *ops)
{
	return (ops->flags & CC_F_ECN) && !ops->on_ack && !ops->on_nak && !ops->on_timeout;
}

/* Ask for the QP's one timer at @at_ps (after now; replaces an earlier
 * request); 0 cancels. The NIC keeps at most one live event per QP and
 * re-arms it lazily: a request moved later costs no event. */
static inline void cc_timer_arm(struct cc_qp *q, uint64_t at_ps)
{
	q->timer_ps = at_ps;
}

/* Register @ops after the built-in algorithms (at program start, before
 * any experiment is loaded: a settings set made before has no room for its
 * settings). Checked: a name not taken, a doc line, settings table and
 * size together, an init, and on_ack when it asks for ECN echo or INT.
 * 0, -EINVAL with @err filled, or -ENOSPC (the registry is full). */
int cc_register(const struct cc_ops *ops, char err[CFG_ERR_BYTES]);
/* Algorithm by name, NULL if unknown. */
const struct cc_ops *cc_find(const char *name);
/* Read an algorithm's name at @n: 0 with *out set, or -EINVAL with
 * "unknown value ... (did you mean ...; valid: <the registered names>)". */
int cc_read(const struct cfg_node *n, const struct cc_ops **out, char err[CFG_ERR_BYTES]);
/* NULL-terminated list of the registered names, in registry order. */
const char *const *cc_names(void);
/* Algorithm @i of the registry, NULL past the last. */
const struct cc_ops *cc_at(unsigned i);
/* Registry index of @ops, or -1 when it is not registered. */
int cc_index(const struct cc_ops *ops);

/* The settings of every registered algorithm (a core/reg settings block:
 * each algorithm's struct at its own place), filled through cc_cfg_table.
 * Opaque; one set serves every NIC of an experiment. */
struct cc_cfg_set;

/* A set of zeroed settings (NULL: no memory); free with cc_cfg_free
 * (NULL is fine). */
struct cc_cfg_set *cc_cfg_new(void);
void cc_cfg_free(struct cc_cfg_set *set);
/* The `nic.<name>` sections of every algorithm with settings: a table for
 * the `nic:` section, read as one bind whose params is a struct
 * cc_cfg_set, beside nic_cfg_table. Absent sections are left alone:
 * cc_cfg_resolve fills those of the algorithms in use. */
const struct cfg_table *cc_cfg_table(void);
/* The settings of @ops in @set (those of ops->settings_of when set; NULL
 * when it has none). */
const void *cc_cfg_of(const struct cc_cfg_set *set, const struct cc_ops *ops);
/* Make sure @set holds settings for @ops (for ops->settings_of, and with
 * CC_F_CREDIT for rccc too): when its section is absent from @nic (the
 * `nic:` map of @doc), fill in `<name>: {}` and read it, so that defaults
 * apply and show in the resolved experiment. 0 or -errno. */
int cc_cfg_resolve(struct cfg_doc *doc, struct cfg_node *nic, const struct cc_ops *ops,
		   struct cc_cfg_set *set, char err[CFG_ERR_BYTES]);
/* @ops's defaults into @cfg (kind.settings_size bytes), as an empty
 * section gives (tests, tools). 0 or -errno. */
int cc_cfg_defaults(const struct cc_ops *ops, void *cfg, char err[CFG_ERR_BYTES]);

#endif
