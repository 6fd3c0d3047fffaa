/* An experiment: the typed, checked form of one experiment file (plus its
 * --set overrides), and the loader that reports every problem as
 * FILE:LINE:COL. The experiment holds each module's params struct, filled
 * by that module's key table; the tables are the single source of the key
 * names, and docs/config.md is checked against them by a test. */
#ifndef FAB_EXP_H
#define FAB_EXP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "cc.h"
#include "cfg.h"
#include "cfg_schema.h"
#include "nic.h"
#include "port.h"
#include "port_fault.h"
#include "sim.h"
#include "sw.h"
#include "tg.h"
#include "tg_wl.h"
#include "topo.h"

enum exp_op {
	EXP_OP_LT,
	EXP_OP_LE,
	EXP_OP_EQ,
	EXP_OP_NE,
	EXP_OP_GE,
	EXP_OP_GT,
};

/* A port to capture. */
struct exp_capture {
	uint32_t node;         /* topology node */
	uint16_t port;         /* its port */
};

/* across_seeds: the statistic, over the seeds of a sweep point, that an
 * assertion bounds (EXP_ACROSS_NONE: an assertion of each run). */
enum exp_across {
	EXP_ACROSS_NONE,
	EXP_ACROSS_MEAN,
	EXP_ACROSS_MIN,
	EXP_ACROSS_MAX,
	EXP_ACROSS_PCT,        /* nearest rank: across_pct; median is p50 */
};

/* One `expect:` assertion. */
/* The dimension of a quantity an expect bound was written with: the value
 * is then in the dimension's base unit (ps, bytes, bit/s) until converted
 * into the metric's unit. */
enum exp_dim {
	EXP_DIM_NONE, /* a bare number: in the metric's unit */
	EXP_DIM_TIME, /* ps */
	EXP_DIM_SIZE, /* bytes */
	EXP_DIM_RATE, /* bit/s */
};

struct exp_expect {
	char metric[96];       /* summary.json path or flows.<column>.<aggregate> */
	enum exp_op op;        /* comparison */
	double value;          /* expected value (with of: the factor), in the metric's
				* unit once read */
	enum exp_dim value_dim; /* the unit value was written with, while it is read
				 * (then converted), or EXP_DIM_NONE: a bare number */
	enum exp_dim tol_dim;  /* the same for an absolute tolerance */
	double tolerance;      /* absolute slack (relative ones resolved at load, but
				* with of or baseline: see tol_frac) */
	double tol_frac;       /* with of or baseline: slack as a fraction of the bound */
	char of[96];           /* "" or another metric: the bound is value x its value */
	bool baseline;         /* the bound is this metric in the --baseline folder */
	int series;            /* -1, or a column of series.csv (exp_series_columns):
				* every sample of port in [after, before] must hold;
				* metric then names it for reports */
	struct exp_capture port; /* series: the sampled port */
	uint64_t after_ps;     /* series: from this time */
	uint64_t before_ps;    /* series: to this one, 0 = the end */
	enum exp_across across; /* across_seeds: over the seeds, or NONE */
	double across_pct;     /* EXP_ACROSS_PCT: the percentile, (0, 100] */
	char across_name[16];  /* across_seeds as written ("p90", "mean") */
	const struct exp *e;   /* the experiment, while it is read */
	struct cfg_mark mark;  /* where it was written */
};

/* outputs.flows_csv: auto writes flows.csv for runs of at most this many
 * messages (a row each, about 150 bytes: 15 MB), not beyond unless asked. */
enum { EXP_FLOWS_CSV_AUTO_MSGS = 100000 };

/* The columns of series.csv an assertion may name (NULL-terminated). */
extern const char *const exp_series_columns[];

/* capture.format: the file layout of captures. */
enum exp_cap_format {
	EXP_CAP_PCAP,   /* capture/NODE-pPORT.pcap, one per port */
	EXP_CAP_PCAPNG, /* capture/capture.pcapng, an interface per port */
};

/* capture.ib_linktype: the link type of native InfiniBand ports' captures. */
enum exp_cap_ib_linktype {
	EXP_CAP_IB_INFINIBAND, /* LINKTYPE_INFINIBAND (247), the registered one */
	EXP_CAP_IB_USER0,      /* LINKTYPE_USER0 (147): what Wireshark 4.0 opens
				* (tools/fabemu-ib.lua) */
};


struct exp_workload {
	char name[32];         /* given or "<kind><index>" */
	const char *kind;      /* "messages", "permutation", "incast" (static) */
	const struct cc_ops *cc; /* its cc key; NULL: nic.cc */
	struct cfg_mark cc_mark; /* where its cc was named */
	struct tg_wl_est est;  /* what it was estimated to make before it was expanded */
};

enum { EXP_MAX_FAULTS = 100000 /* entries of faults: */ };
/* fabric.convergence when absent: 1 ms (a routing protocol with fast
 * failure detection; docs/config.md). */
#define EXP_CONVERGENCE_PS UINT64_C(1000000000)

struct fault_ops;
struct link_layer_ops;
struct par_remote;

/* One scheduled fault: what every kind has; what a kind has of its own
 * is its settings struct (faults/, one file a kind). */
struct exp_fault {
	const struct exp *e;   /* the experiment (while it is read) */
	char name[32];         /* given or "fault<index>" (results: faults.NAME.*) */
	const struct fault_ops *ops; /* its kind (faults/fault.h) */
	void *settings;        /* the kind's settings (ops->kind.settings_size bytes,
				* filled by its table); NULL: it has none */
	uint64_t at_ps;        /* when it starts */
	uint64_t duration_ps;  /* how long it lasts, 0 = to the end of the run */
	struct exp_capture *ports; /* the ports it acts on (node-wide kinds: every
				    * connected port of the node) */
	uint32_t n_ports;      /* their count */
	bool random;           /* drawn by failures: (no faults.NAME.* keys of its own) */
	struct cfg_mark mark;  /* where it was written */
};
/* live.ports: how a live port reaches its real endpoint (live/). */
enum exp_live_driver {
	EXP_LIVE_TAP,       /* a TAP device fabemu creates (DPDK net_tap) */
	EXP_LIVE_AF_PACKET, /* an existing interface, opened raw (DPDK net_af_packet) */
	EXP_LIVE_VETH,      /* a veth pair fabemu makes: one end in the namespace, the
			     * other opened raw (net_af_packet) */
	EXP_LIVE_MEMIF,     /* shared memory with another DPDK program, a second fabemu
			     * among them (net_memif) */
	EXP_LIVE_PCI,       /* a NIC port on the PCI bus, bound to vfio-pci (or an mlx5
			     * port, which stays with its kernel driver): a DPDK PMD */
};

/* live.ports.role: a memif port's side of the connection. */
enum exp_live_role {
	EXP_LIVE_SERVER, /* makes the socket and waits */
	EXP_LIVE_CLIENT, /* connects to it */
};

/* Buffers of the DPDK ports of a live run (live/live.c), which the EAL's
 * memory holds (fabric_eal_mem_mb). */
enum { EXP_LIVE_IO_MBUFS = 8191 };

/* One host port of the fabric bound to a real endpoint in `fabemu live`:
 * its simulated NIC is set aside and the frames of the DPDK port take its
 * place on the link. */
struct exp_live_port {
	const struct exp *e;         /* the experiment (while it is read) */
	struct exp_capture at;       /* the host port it takes over (node:port) */
	enum exp_live_driver driver; /* live.ports[].driver */
	const char *iface;           /* the TAP to create, or the interface to open */
	const char *netns;           /* tap, veth: the network namespace to put it in and
				      * address there (veth: required); tap: NULL leaves
				      * it where it is made */
	const char *socket;          /* memif: the control socket's path, else NULL */
	char pci[16];                /* pci: the NIC's PCI address, DDDD:BB:DD.F (the
				      * domain filled in), else "" */
	enum exp_live_role role;     /* memif: server or client */
	struct cfg_mark mark;        /* where it was written */
};

/* live.poll: what the loop does on a turn with nothing to do. */
enum exp_live_poll {
	EXP_LIVE_BUSY,  /* polls again at once: the loop keeps its core */
	EXP_LIVE_YIELD, /* gives the core away first (sched_yield) */
};

/* The live: section (run/exp_live.c): read by every command, acted on by
 * fabemu live only (fabemu run and check refuse an experiment with live
 * ports). */
struct exp_live {
	struct exp_live_port *ports; /* in file order */
	uint32_t n_ports;            /* their count */
	double dilation;             /* wall-clock seconds per simulated second, >= 1 */
	uint64_t late_ps;            /* a frame handed to its real endpoint more than this
				      * (simulated time) after it arrived counts as late */
	uint64_t mtu_bytes;          /* IP MTU of the live ports (and their interfaces) */
	uint64_t queue_bytes;        /* frames from a real endpoint waiting for its link,
				      * at most; beyond, dropped and counted */
	enum exp_live_poll poll;     /* live.poll */
	struct cfg_mark mark;        /* where live: was written */
};

/* The finest outputs.series.interval: each sample writes a row per port
 * (and per sampled flow), so a finer one writes gigabytes per simulated
 * millisecond. */
#define EXP_SERIES_MIN_INTERVAL_PS UINT64_C(100000) /* 100 ns */

struct exp {
	struct cfg_doc *doc;          /* the document (owns all strings); defaults are
				       * filled into it as they are applied */
	const char *path;             /* experiment file */
	const char *name;             /* experiment name */
	uint64_t seed;                /* master seed */
	bool seed_set;                /* the seed came from --seed (seed_override) */
	uint64_t seed_override;       /* --seed N */
	const char *const *sets;      /* --set overrides as given (borrowed), in order */
	unsigned n_sets;              /* their count */
	uint64_t stop_ps;             /* stop_time, 0 = until traffic is done */
	uint32_t threads;             /* --threads: partitions of the run (0 or 1: none);
				       * a run option, not part of the experiment, since
				       * results do not depend on it (fabric_par.c) */
	bool threads_auto;            /* threads chosen by fabemu (--threads auto, the
				       * default of run and check): no note when the run
				       * stays in one partition */
	uint32_t partitions;          /* --partitions: the partitions instead, run by
				       * min(threads, partitions) threads; 0: threads */
	const struct par_remote *remote; /* the partitions shared with other processes
				       * (core/par.h; fabemu bench under MPI), or NULL */
	bool nightly;                 /* too long for CI: check --skip-nightly skips it */
	struct topo *topo;            /* topology */
	/* module settings, each filled by its module's key table */
	struct sw_params sw;          /* fabric.* of the switches (switch/sw_cfg.c);
				       * hash_seed and max_frame_bytes are set at assembly */
	struct nic_params nic;        /* nic.* (nic/nic_cfg.c); dscp_to_tc, sched and
				       * cc_cfg are set at assembly */
	struct cc_cfg_set *cc_cfg;    /* nic.<algorithm>.* (cc/cc.c), which every NIC's
				       * params point to; owned */
	struct sim_params engine;     /* engine.* (core/sim_cfg.c) */
	struct cfg_mark cc_mark;      /* where nic.cc was set (or its default filled) */
	unsigned cc_flags;            /* enum cc_flags of every algorithm in use, or-ed */
	struct cfg_mark ack_every_mark; /* where nic.ack_every was set (or filled) */
	/* the fabric as a whole (exp_fabric.c) */
	struct cfg_mark buffer_mark;  /* where fabric.buffer was set (or the fabric block, or the file) */
	double loss;                  /* random frame loss per link direction */
	bool pfc_enabled;             /* fabric.pfc.enabled */
	struct cfg_mark headroom_mark; /* where a headroom was configured (warnings) */
	struct exp_capture *pfc_off;  /* ports with PFC disabled */
	uint32_t n_pfc_off;           /* their count */
	struct cfg_mark *pfc_off_marks; /* where each was named */
	uint64_t deadlock_check_ps;   /* deadlock detection period, 0 = off */
	const struct link_layer_ops *ll; /* fabric.link_layer (linklayers/) */
	void *ll_cfg;                 /* every link layer's settings, each its fabric:
				       * section (fabric.ib): link_layer_settings gives
				       * ll's; owned */
	/* traffic */
	struct tg_msg *msgs;          /* expanded messages */
	uint32_t n_msgs;              /* their count */
	struct tg_graph graph;        /* the operations that order some of them, and
				       * compute phases (empty without dependencies) */
	struct tg_coll *colls;        /* collective instances (graph.n_colls) */
	uint32_t n_colls;             /* their count */
	uint32_t *gpu_order;          /* per GPU node, a key: partitions take them in the
				       * order of their keys, ties by number (a training
				       * pipeline's: replica by replica); NULL: by number */
	bool gpu_order_clash;         /* more than one workload set one: not used */
	struct tg_step *steps;        /* training steps */
	uint32_t n_steps;             /* their count */
	uint64_t qp_pairs_est;        /* QP pairs the workloads may make (each one's
				       * estimate, tg_wl_admit: connections x qps) */
	uint64_t max_memory_bytes;    /* engine.max_memory: the estimate's bound; 0 = the
				       * machine's physical memory */
	uint32_t *islands;            /* island of each endpoint (topo_ep_islands), made
				       * when the first workload is checked; NULL before */
	struct exp_workload *workloads; /* per workload index */
	uint32_t n_workloads;         /* their count */
	/* capture */
	struct exp_capture *captures; /* ports to capture */
	uint32_t n_captures;          /* their count */
	uint32_t snaplen;             /* capture bytes per frame, 0 = all */
	enum exp_cap_format cap_format; /* capture.format: a pcap per port or one pcapng */
	enum exp_cap_ib_linktype cap_ib_linktype; /* capture.ib_linktype: IB ports' link type */
	/* outputs */
	bool flows_csv;               /* write flows.csv (outputs.flows_csv; auto: with at
				       * most EXP_FLOWS_CSV_AUTO_MSGS messages) */
	bool flows_csv_auto;          /* outputs.flows_csv was auto */
	bool pfc_log;                 /* write pfc_log.csv: every PFC frame sent or received */
	struct exp_capture *series;   /* ports sampled into series.csv */
	uint32_t n_series;            /* their count */
	uint64_t series_interval_ps;  /* sampling interval, at least EXP_SERIES_MIN_INTERVAL_PS */
	uint64_t series_max_bytes;    /* outputs.series.max_bytes: what series.csv and
				       * rates.csv may take together; sampling stops there */
	uint16_t *rate_workloads;     /* workloads whose QPs are sampled into rates.csv
				       * (outputs.series.flows) */
	uint32_t n_rate_workloads;    /* their count */
	/* faults */
	struct exp_fault *faults;     /* the fault schedule, in file order */
	uint32_t n_faults;            /* its entries */
	uint64_t convergence_ps;      /* fabric.convergence: forwarding recomputed this long
				       * after a link goes down or up */
	/* live mode (run/exp_live.c) */
	struct exp_live live;         /* live: (no ports when absent) */
	/* expect */
	struct exp_expect *expects;   /* assertions */
	uint32_t n_expects;           /* their count */
};

/* Load @path, apply @n_sets overrides ("a.b=v"; @sets must outlive the
 * experiment), override the seed when @seed_set. Every key is read through
 * the key tables of the modules (core/cfg_schema.h); absent keys with a
 * default get it filled into the document. Returns 0 or -EINVAL with
 * "FILE:LINE:COL: ..." in @err. */
int exp_load(const char *path, const char *const *sets, unsigned n_sets, bool seed_set,
	     uint64_t seed, struct exp **out, char err[CFG_ERR_BYTES]);
/* Same from a string (tests, built-in benchmarks). */
int exp_load_string(const char *name, const char *text, const char *const *sets,
		    unsigned n_sets, struct exp **out, char err[CFG_ERR_BYTES]);
void exp_free(struct exp *e); /* NULL is fine */

/* The schema: every key the loader accepts, as "section.key" strings,
 * generated from every table (each topology kind's and workload kind's
 * included), for the documentation check. 0 or -ENOMEM; free @out with
 * cfg_schema_names_free. */
int exp_schema_keys(struct cfg_schema_names *out);

/* Write the resolved experiment to @path: the document with every default
 * and override applied (the seed included), as YAML that runs the same
 * experiment again without overrides; the overrides as given head it in a
 * comment. 0 or -errno with @err filled. */
int exp_write_resolved(const struct exp *e, const char *path, char err[CFG_ERR_BYTES]);
/* Write the overrides as given, one a line ("--seed N", "--set a.b=v"), in
 * command-line order; empty without overrides. 0 or -errno with @err. */
int exp_write_overrides(const struct exp *e, const char *path, char err[CFG_ERR_BYTES]);

const char *exp_op_name(enum exp_op op);

/* A simulated run (fabemu run, check) of @e: -EINVAL with
 * "FILE:LINE:COL: ..." in @err when it has live ports (only fabemu live
 * runs those), else 0. */
int exp_live_refuse(const struct exp *e, char err[CFG_ERR_BYTES]);

/* The size of a run, estimated before it is built (exp_estimate.c). */
enum {
	EXP_MAX_MSGS = 20000000,   /* messages one experiment may make */
};

/* What a run takes: the counts the workloads make and the memory they,
 * the fabric and the packet pool take. Every part errs high. */
struct exp_estimate {
	uint64_t msgs;             /* messages */
	uint64_t qp_pairs;         /* QP pairs, at most */
	uint64_t ops;              /* dependency-graph operations */
	uint64_t deps;             /* their edges */
	uint64_t traffic_bytes;    /* messages, their records, QPs, collectives, data */
	uint64_t graph_bytes;      /* operations and edges */
	uint64_t fabric_bytes;     /* the program, topology, switches, ports and NICs */
	uint64_t pool_bytes;       /* the packet pool at its largest, and its ring */
	uint64_t total_bytes;      /* the sum */
	uint64_t bound_bytes;      /* what it may take: engine.max_memory, else the
				    * machine's physical memory */
	bool bound_set;            /* the bound is engine.max_memory */
};

/* The estimate of loaded experiment @e into @out (the packet pool as
 * fabric_pool_pkts sizes it). 0, or -E2BIG when the total passes the
 * bound. */
int exp_estimate(const struct exp *e, struct exp_estimate *out);
/* fabemu check's line on @e's size before it is built, on @f: "check:
 * memory: about 1.2 GiB (messages 0.9 GiB, graph ..., fabric ..., packet
 * pool 0.3 GiB) for N messages and M graph operations; bound: ...". */
void exp_estimate_print(const struct exp *e, FILE *f);

#endif
