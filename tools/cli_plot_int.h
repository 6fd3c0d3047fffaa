/* What the pictures of `fabemu plot` share (tools/cli_plot.c draws the flow,
 * queue and PFC pictures, tools/cli_plot_more.c the collective, per-flow rate
 * and port utilisation ones): the CSV reader, the output files and gnuplot. */
#ifndef FAB_CLI_PLOT_INT_H
#define FAB_CLI_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
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
};

/* Where the pictures go and how. */
struct plot_ctx {
	const char *dir;           /* the results folder */
	char out[PLOT_PATH_BYTES]; /* the output folder */
	const char *ext;           /* "png" or "svg" */
	const char *gnuplot;       /* its path */
	int n_drawn;               /* pictures written */
};

/* One CSV reader: a file's lines split at commas (fabemu does not quote). */
struct plot_csv {
	FILE *f;                          /* the file */
	char path[PLOT_PATH_BYTES];       /* for messages */
	char *line;                       /* the current line (getline) */
	size_t cap;                       /* its buffer */
	unsigned lineno;                  /* 1-based line number of line */
	char *fields[PLOT_MAX_FIELDS];    /* into line */
	unsigned n_fields;                /* how many */
	char why[CFG_WHY_BYTES];          /* why plot_csv_open failed (errno ENOENT: missing) */
};

/* Open @dir/@name. Returns 0 or -errno (errno set too); close it either way. */
int plot_csv_open(struct plot_csv *c, const char *dir, const char *name);
void plot_csv_close(struct plot_csv *c);
/* The next line, split. Returns 1, 0 at the end, -errno on a read error. */
int plot_csv_next(struct plot_csv *c);
/* Index of the column @name in the header just read, or -1. */
int plot_csv_col(const struct plot_csv *c, const char *name);
/* @s as a finite number into *@out: 0, or -EINVAL. */
int plot_num(const char *s, double *out);
/* Grow *@p (*@cap elements of @size bytes) to hold @need: 0 or -ENOMEM. */
int plot_grow(void **p, size_t *cap, size_t need, size_t size);

/* @name in the output folder, open for writing; NULL with @err. */
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

/* The inputs of cli_plot_more.c's pictures (opaque). */
struct plot_more;

/* Read and check, from results folder @dir, what cli_plot_more.c draws
 * (busbw: collectives.csv, flow-rates: rates.csv, port-utilisation:
 * ports.csv; an absent file is no error) into *@out, which the caller frees
 * with plot_more_free. Returns 0, -EINVAL for a bad file or another -errno,
 * with @err. */
int plot_more_read(const char *dir, struct plot_more **out, char err[CFG_ERR_BYTES]);
/* Draw those whose input was there and say so, skip the others (and say
 * why). Returns 0, or -errno with @err. */
int plot_more_draw(struct plot_ctx *x, struct plot_more *m, char err[CFG_ERR_BYTES]);
void plot_more_free(struct plot_more *m);  /* NULL is fine */

#endif
