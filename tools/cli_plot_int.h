/* What the pictures of `fabemu plot` share: tools/cli_plot_read.c and
 * cli_plot_read_more.c read a results folder's CSV files (bounded, every
 * row checked) into struct plot_in before anything is written;
 * cli_plot.c draws the flow, queue and PFC pictures and runs gnuplot,
 * cli_plot_more.c the collective, per-flow rate and port utilisation ones,
 * cli_plot_runs.c several runs together, cli_plot_sweep.c a sweep folder. */
#ifndef FAB_CLI_PLOT_INT_H
#define FAB_CLI_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"

enum {
	PLOT_PATH_BYTES = 4096,  /* a file's path */
	PLOT_MAX_SERIES = 10,    /* workloads drawn apart; more are drawn as one */
	PLOT_MAX_PORTS = 12,     /* sampled ports with a panel of their own */
	PLOT_MAX_POINTS = 2000,  /* points per line (CDF, queue) before thinning */
	PLOT_MAX_SCATTER = 20000, /* messages in the scatter before thinning */
	PLOT_MAX_FIELDS = 64,    /* columns of a CSV row */
	PLOT_MAX_ROWS = 64,      /* rows of the pause timeline */
	PLOT_MAX_LINE_BYTES = 65536, /* a CSV line, its newline not counted (docs/user-guide.md) */
	PLOT_MAX_FLOWS = 16,      /* flows of rates.csv drawn (the first ones) */
	PLOT_MAX_SWITCHES = 512,  /* rows of the utilisation heat map */
	PLOT_MAX_SW_PORTS = 1024, /* port numbers of the heat map */
	PLOT_MAX_NAME = 256,      /* a workload, flow, node or pfc.csv row label */
	PLOT_N_TIERS = 4,         /* leaf, spine, core, NVLink */
	PLOT_MAX_METRICS = 8,     /* sweep.csv metrics drawn (the first ones) */
	PLOT_MAX_BINS = 20,       /* rows of fct_bins.csv */
};

/* The largest CSV file plot reads, bytes (docs/user-guide.md, "plot"): a
 * results file of a large run can be hundreds of MiB, and a larger one is
 * refused before it is read rather than after memory ran out. */
#define PLOT_MAX_CSV_BYTES ((uint64_t)4 << 30)

/* The files of a results folder that plot reads. */
enum plot_file {
	PLOT_FLOWS,     /* flows.csv: fct-slowdown, fct-cdf */
	PLOT_SERIES,    /* series.csv: queues, pfc-timeline */
	PLOT_PFC,       /* pfc.csv: pfc-timeline without series.csv */
	PLOT_COLL,      /* collectives.csv: busbw */
	PLOT_RATES,     /* rates.csv: flow-rates */
	PLOT_PORTS,     /* ports.csv: port-utilisation */
	PLOT_BINS,      /* fct_bins.csv: fct-bins */
	PLOT_SWEEP,     /* sweep.csv of a sweep folder: sweep */
	PLOT_N_FILES,
};

#define PLOT_ALL_FILES ((1u << PLOT_N_FILES) - 1)
/* The files of one run's results folder. */
#define PLOT_RUN_FILES (PLOT_ALL_FILES & ~(1u << PLOT_SWEEP))

/* Their names, by enum plot_file. */
extern const char *const plot_file_names[PLOT_N_FILES];

/* An open-addressing index (entry + 1 per slot, 0: empty), so that finding
 * a row's port or switch among thousands is no linear scan. */
struct plot_index {
	uint32_t *slots;  /* the table */
	size_t n_slots;   /* a power of two, at least twice the entries */
};

/* One completed message of flows.csv. */
struct plot_msg {
	double bytes;       /* message size */
	double fct_ns;      /* flow completion time */
	double slowdown;    /* fct / ideal fct */
	unsigned workload;  /* index into plot_flows.names */
};

/* The completed messages of flows.csv. */
struct plot_flows {
	bool present;        /* flows.csv exists */
	struct plot_msg *m;  /* in file order */
	size_t n;            /* completed messages */
	size_t cap;          /* allocated */
	size_t n_rows;       /* rows, incomplete ones included */
	char *names[PLOT_MAX_SERIES + 1]; /* workload names, first seen first */
	unsigned n_names;    /* how many; PLOT_MAX_SERIES + 1 means "too many" */
};

/* One sample of series.csv. */
struct plot_sample {
	double t_ns;        /* sample time */
	double queue_bytes; /* egress queue occupancy */
	unsigned prio_mask; /* priorities paused */
	unsigned port;      /* index into plot_series.ports */
};

/* series.csv. */
struct plot_series {
	struct plot_sample *s; /* in file order */
	size_t n;              /* samples */
	size_t cap;            /* allocated */
	char **ports;          /* port names, first seen first */
	uint8_t *paused;       /* per port: the priorities ever paused (mask) */
	unsigned n_ports;      /* how many */
	size_t cap_ports;      /* allocated entries of ports */
	size_t cap_paused;     /* allocated entries of paused */
	struct plot_index port_ix; /* ports by name */
	double max_t_ns;       /* the last sample time */
	double interval_ns;    /* the smallest step between two sample times */
};

/* One paused (port, priority) of pfc.csv. */
struct plot_pfc_row {
	double paused_ns;          /* time paused */
	char label[PLOT_MAX_NAME]; /* "NODE:PORT prio P", without '"' or control characters */
};

/* pfc.csv: the first PLOT_MAX_ROWS rows with paused time. */
struct plot_pfc {
	bool present;                          /* pfc.csv exists */
	struct plot_pfc_row rows[PLOT_MAX_ROWS]; /* in file order */
	unsigned n;                            /* how many */
};

/* One (series, message size) of collectives.csv: its completed instances. */
struct plot_bw {
	double size_bytes;   /* nccl-tests' S */
	double sum_busbw;    /* GB/s, summed over the iterations */
	unsigned n;          /* completed iterations */
	unsigned series;     /* index into plot_more.coll_names */
};

/* One sample of rates.csv. */
struct plot_rate {
	double t_ns;          /* sample time */
	double rate_bps;      /* pacing rate */
	double window_bytes;  /* window; 0: none */
	unsigned flow;        /* index into plot_more.flows */
	bool active;          /* messages outstanding (outstanding_wrs > 0; always
			       * true for a rates.csv without that column) */
};

/* One port of a switch in ports.csv. */
struct plot_util {
	unsigned sw;          /* index into plot_more.switches */
	unsigned port;        /* port number */
	double util;          /* egress utilisation, 0..1 */
};

/* A switch of the heat map. */
struct plot_switch {
	char name[PLOT_MAX_NAME]; /* node name (cut to fit) */
	unsigned tier;            /* index into the tiers, bottom up */
	unsigned row;             /* its row, tier by tier from the bottom */
};

/* What cli_plot_more.c draws: collectives.csv, rates.csv, ports.csv. */
struct plot_more {
	bool coll_present;                      /* collectives.csv exists */
	struct plot_bw *bw;                     /* first seen first */
	size_t n_bw, cap_bw;                    /* used, allocated */
	struct plot_index bw_ix;                /* bw by (series, size) */
	char *coll_names[PLOT_MAX_SERIES];      /* "WORKLOAD (collective, algorithm)" */
	unsigned n_coll_names;                  /* how many */
	bool coll_more;                         /* more series than PLOT_MAX_SERIES */

	bool rates_present;                     /* rates.csv exists */
	struct plot_rate *r;                    /* in file order, drawn flows only */
	size_t n_r, cap_r;                      /* used, allocated */
	char *flows[PLOT_MAX_FLOWS];            /* "WORKLOAD flow ID: SRC -> DST" */
	char *flow_keys[PLOT_MAX_FLOWS];        /* "WORKLOAD,ID" */
	unsigned n_flows;                       /* drawn */
	unsigned n_flows_all;                   /* in the file: rows of the first sample */
	bool any_window;                        /* some window_bytes above 0 */
	double max_t_ns;                        /* the last sample time */

	struct plot_util *u;                    /* switch ports in file order */
	size_t n_u, cap_u;                      /* used, allocated */
	struct plot_switch *sw;                 /* switches, first seen first */
	unsigned n_sw;                          /* how many */
	struct plot_index sw_ix;                /* sw by name */
	unsigned max_port;                      /* the highest port number */
};

/* One bin of fct_bins.csv (docs/results.md: 5% of the messages each). */
struct plot_bin {
	double bytes_max;      /* its largest message, bytes (the HPCC paper's label) */
	double p50, p95, p99;  /* slowdown percentiles */
};

/* fct_bins.csv. */
struct plot_bins {
	bool present;                      /* fct_bins.csv exists */
	struct plot_bin b[PLOT_MAX_BINS];  /* in file order, smallest sizes first */
	unsigned n;                        /* how many */
};

/* One run of sweep.csv. */
struct plot_sweep_run {
	unsigned point;                    /* index into plot_sweep's points */
	double x[PLOT_MAX_METRICS];        /* its metrics; NaN: not a number */
};

/* sweep.csv of a sweep folder: the swept keys, the metrics, the runs. */
struct plot_sweep {
	bool present;                      /* sweep.csv exists */
	char *keys[PLOT_MAX_FIELDS];       /* --sweep keys: the columns before seed */
	unsigned n_keys;                   /* how many */
	char *metrics[PLOT_MAX_METRICS];   /* the columns after status (the first ones) */
	unsigned n_metrics;                /* how many drawn */
	unsigned n_metrics_all;            /* in the file */
	char **values;                     /* n_points * n_keys: each point's values */
	unsigned n_points;                 /* points, first seen first */
	size_t cap_values;                 /* allocated entries of values */
	struct plot_sweep_run *runs;       /* in file order */
	size_t n_runs, cap_runs;           /* used, allocated */
};

/* Everything plot draws from, read and checked before anything is written. */
struct plot_in {
	struct plot_flows fl;   /* flows.csv */
	struct plot_series se;  /* series.csv */
	struct plot_pfc pfc;    /* pfc.csv, read only without samples in series.csv */
	struct plot_more more;  /* collectives.csv, rates.csv, ports.csv */
	struct plot_bins bins;  /* fct_bins.csv */
	struct plot_sweep sw;   /* sweep.csv */
};

/* cli_plot_read_more.c: fct_bins.csv and sweep.csv into @in (plot_read
 * calls them). 0 or -errno with @err, as plot_read. */
int plot_read_bins(const char *dir, struct plot_bins *b, char err[CFG_ERR_BYTES]);
int plot_read_sweep(const char *dir, struct plot_sweep *sw, char err[CFG_ERR_BYTES]);
void plot_sweep_free(struct plot_sweep *sw);

/* The mean of @n values and its 95% interval over them. */
struct plot_ci {
	double mean;   /* x-bar = sum x / n */
	double sd;     /* sample standard deviation (n - 1); 0 for n 1 */
	double half;   /* t(0.975, n - 1) * sd / sqrt(n): the interval is mean -+ half; 0 for n 1 */
};

/* Mean, sample sd and Student-t 95% interval of @x[0..@n) (@n >= 1), with
 * @t975(df) the 97.5% quantile of Student's t with df degrees of freedom
 * (fabemu passes swp_t975, as sweep_summary.csv does). */
struct plot_ci plot_mean_ci(const double *x, size_t n, double (*t975)(unsigned df));

/* Read the files of results folder @dir that the mask @files names (bits
 * 1 << enum plot_file; an absent file is no error) into @in, which the
 * caller zeroes first and frees with plot_in_free, also on failure. A file
 * is a regular file of at most PLOT_MAX_CSV_BYTES, lines of at most
 * PLOT_MAX_LINE_BYTES, with fabemu's header and rows. Returns 0, or -errno
 * with @err: "FILE:LINE[:COL]: what was expected" for a bad file (-EINVAL,
 * -EFBIG), "FILE: cannot open: why" or "out of memory"; never the file's
 * text. */
int plot_read(const char *dir, unsigned files, struct plot_in *in, char err[CFG_ERR_BYTES]);
void plot_in_free(struct plot_in *in);

/* Where the pictures go and how. */
struct plot_ctx {
	const char *dir;           /* the results folder */
	char out[PLOT_PATH_BYTES]; /* the output folder */
	const char *ext;           /* "png" or "svg" */
	const char *gnuplot;       /* its path */
	int n_drawn;               /* pictures written */
};

/* @name in the output folder, open for writing without following a link
 * there (cfg_fopen_out); NULL with @err. */
FILE *plot_fopen(const struct plot_ctx *x, const char *name, char err[CFG_ERR_BYTES]);
/* Close what plot_fopen opened: 0, or -EIO with @err. */
int plot_fclose(const struct plot_ctx *x, FILE *f, const char *name, char err[CFG_ERR_BYTES]);
/* @s as a gnuplot string literal. */
void plot_gp_str(FILE *f, const char *s);
/* The script's terminal (@w x @h pixels), output NAME.ext and common look. */
void plot_gp_head(const struct plot_ctx *x, FILE *f, const char *name, int w, int h);
/* The divisor of a time axis reaching @max_ns, its unit in *@label. */
double plot_time_unit(double max_ns, const char **label);
/* Run gnuplot on NAME.gp in the output folder and say so (@what).
 * Returns 0, or -EIO with @err. */
int plot_run(struct plot_ctx *x, const char *name, const char *what, char err[CFG_ERR_BYTES]);
/* Say that picture @name was not drawn, and @why. */
void plot_skip(const char *name, const char *why);

/* The pictures of cli_plot_more.c, NAME as in NAME.gp, NAME*.dat, NAME.png. */
extern const char *const plot_more_names[];
extern const size_t plot_n_more_names;
/* The tiers of the heat map, bottom up: leaf, spine, core, NVLink. */
extern const char *const plot_tiers[PLOT_N_TIERS];

/* Draw those of cli_plot_more.c whose input was there and say so, skip the
 * others (and say why). Returns 0, or -errno with @err. */
int plot_more_draw(struct plot_ctx *x, struct plot_more *m, char err[CFG_ERR_BYTES]);

/* cli_plot_runs.c: the pictures of several results folders drawn together
 * (NAME as above), @labels[r] naming run @in[r] (its folder's name). */
extern const char *const plot_runs_names[];
extern const size_t plot_n_runs_names;
/* Draw those whose input some run has, skip the others (and say why).
 * Sorts each run's collectives. Returns 0, or -errno with @err. */
int plot_runs_draw(struct plot_ctx *x, const char *const *labels, struct plot_in *in,
		   unsigned n_runs, char err[CFG_ERR_BYTES]);
/* The HPCC paper's figure from fct_bins.csv as picture @name: a line per
 * run of @in[0..@n_runs) that has bins. 0, or -errno with @err. */
int plot_bins_draw(struct plot_ctx *x, const char *name, const char *const *labels,
		   const struct plot_in *in, unsigned n_runs, char err[CFG_ERR_BYTES]);

/* cli_plot_sweep.c: a sweep folder's picture, "sweep": each metric of
 * sweep.csv against the first swept key, the mean over seeds and its
 * Student-t 95% interval, a line per value of the other keys. */
int plot_sweep_draw(struct plot_ctx *x, const struct plot_sweep *sw, char err[CFG_ERR_BYTES]);

#endif
