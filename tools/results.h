/* Results of a run: a flat, ordered registry of named metrics (dotted names
 * such as "drops.buffer" or "flows.slowdown.p99") that is written as the
 * nested summary.json and is what `expect:` assertions look up, plus the
 * flows.csv and ports.csv tables. Schema: docs/results.md. */
#ifndef FAB_RESULTS_H
#define FAB_RESULTS_H

#include <stdint.h>
#include <stdio.h>

#include "fabric.h"

enum { RES_SCHEMA_VERSION = 1, RES_NAME_BYTES = 96 };

enum res_type {
	RES_U64,
	RES_DOUBLE,
	RES_STR,
};

struct res_metric {
	char name[RES_NAME_BYTES]; /* dotted path */
	enum res_type type;        /* which value */
	uint64_t u;                /* RES_U64 */
	double d;                  /* RES_DOUBLE */
	const char *s;             /* RES_STR (borrowed) */
};

struct results {
	struct res_metric *m;      /* in insertion order */
	uint32_t n;                /* metrics */
	uint32_t cap;              /* allocated */
};

/* Collect every metric of a finished run of @f. Returns 0 or -ENOMEM. */
int res_collect(struct results *r, const struct fabric *f);
void res_free(struct results *r);
/* Metric by exact name, NULL if absent. */
const struct res_metric *res_find(const struct results *r, const char *name);
/* Numeric value (u64 as double); NaN for strings. */
double res_value(const struct res_metric *m);

/* Write summary.json / flows.csv / ports.csv into @dir. 0 or -errno. */
int res_write_summary(const struct results *r, const char *dir);
int res_write_flows(const struct fabric *f, const char *dir);
int res_write_ports(const struct fabric *f, const char *dir);
/* pfc.csv: per port and priority with PFC activity (only with PFC on). */
int res_write_pfc(const struct fabric *f, const char *dir);
/* The human summary printed after a run. */
void res_print_human(const struct results *r, const struct fabric *f, FILE *out);

#endif
