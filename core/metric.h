/* A module's metrics: each row names one result (a dotted name; NAME stands
 * for an instance such as a workload, or is a CSV column), its unit, one line
 * of doc, how the module's instances combine into it, and where its value
 * lies in the module's stats struct. run/results*.c walks these tables to
 * write summary.json, ports.csv and the human summary; tests/test_metrics.c
 * checks docs/results.md against them. */
#ifndef FAB_METRIC_H
#define FAB_METRIC_H

#include <stddef.h>
#include <stdint.h>

enum metric_type {
	METRIC_U64,   /* uint64_t field, written as an integer */
	METRIC_DBL,   /* double */
	METRIC_BOOL,  /* written true/false (an expect: sees 1/0) */
	METRIC_STR,   /* text */
	METRIC_PS_NS, /* uint64_t picoseconds, written as nanoseconds (a double) */
};

/* How to read a metric: how the module's instances combine into it. */
enum metric_read {
	METRIC_SUM, /* summed over the instances (hosts, switches, ports) */
	METRIC_MAX, /* the largest instance's */
	METRIC_ONE, /* one value: of the run, or of the one instance (a row, a workload) */
};

/* A metric's value: u for U64/BOOL, d for DBL/PS_NS, s for STR. */
struct metric_val {
	uint64_t u;    /* U64, BOOL (0/1) */
	double d;      /* DBL, PS_NS (ns) */
	const char *s; /* STR (borrowed) */
};

/* What every getter may need besides its module's stats. */
struct metric_ctx {
	uint64_t now_ps; /* simulated time now (pauses still running end here), ps */
	double sim_s;    /* length of the run, seconds (utilisation) */
};

struct metric {
	const char *name;      /* dotted name, or CSV column; NAME = the instance */
	const char *unit;      /* as docs/results.md writes it: "—", "bytes", "ns" */
	const char *doc;       /* one line */
	enum metric_read read; /* how instances combine */
	enum metric_type type; /* what is written */
	size_t off;            /* offset into the stats struct (get == NULL), bytes, of a
				* uint64_t (U64, BOOL, PS_NS), a double (DBL) or a
				* const char * (STR) */
	/* The value from @stats (the module's struct), when not a field. */
	void (*get)(const void *stats, const struct metric_ctx *ctx, struct metric_val *v);
	uint8_t prec;          /* decimals of a double in a CSV */
};

/* A module's table of metrics, in the order they are written. */
struct metric_table {
	const char *what;       /* whose: "nic", "switch", "port" */
	const struct metric *m; /* rows */
	uint32_t n;             /* rows */
};

/* Words (uint64_t) holding @bytes: a module's counters copied as words
 * between the processes of a run (run/fabric_remote.c). */
#define METRIC_WORDS(bytes) (((bytes) + sizeof(uint64_t) - 1) / sizeof(uint64_t))

#define METRIC_TABLE(what, rows) { (what), (rows), sizeof(rows) / sizeof((rows)[0]) }

/* A uint64_t field @fld of struct @st. */
#define METRIC_FIELD(nm, un, rd, st, fld, dc)                                   \
	{ .name = (nm), .unit = (un), .read = (rd), .type = METRIC_U64,          \
	  .off = offsetof(st, fld), .doc = (dc) }
/* A value a function computes. */
#define METRIC_FN(nm, un, ty, fn, dc)                                           \
	{ .name = (nm), .unit = (un), .read = METRIC_ONE, .type = (ty), .get = (fn), \
	  .doc = (dc) }

/* A line of the human summary: @fmt with the values of the metrics @arg
 * (doubles, each divided by its @div; 0 means 1), printed always, or when
 * @when (or @or_when) is above 0. */
struct metric_line {
	const char *when;      /* a metric name, or NULL: always */
	const char *or_when;   /* another, or NULL */
	const char *fmt;       /* printf format taking the doubles */
	const char *arg[6];    /* metric names, in the format's order */
	double div[6];         /* divisors (0 = 1) */
};

/* Fold one instance's stats @inst into @acc (same struct): every field row
 * of @t adds (METRIC_SUM) or keeps the larger (METRIC_MAX). */
void metric_fold(const struct metric_table *t, void *acc, const void *inst);
/* Row @m's value from @stats. */
void metric_value(const struct metric *m, const void *stats, const struct metric_ctx *ctx,
		  struct metric_val *v);

#endif
