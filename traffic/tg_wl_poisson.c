/* The `poisson` workload kind: open-loop background traffic as in the HPCC
 * and ConWeave ns-3 traffic generators (traffic_gen.py). Each host of a set
 * starts messages at Poisson arrivals whose mean gap gives a target load of
 * its link (load x rate = mean size x 8 / mean gap), to a uniformly random
 * other host of the set, with sizes drawn from a flow-size CDF (a shipped
 * one by name, traffic/cdf/, or a file) by piecewise-linear interpolation. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tg_cdf_data.h"
#include "topo.h"
#include "tg_wl_int.h"
#include "units.h"

/* The stream of workload w is (seed, TG_WL_POISSON_STREAM + w). */
#define TG_WL_POISSON_STREAM UINT64_C(0x706f6973736f6e00)

/* A CDF file is checked against its bound from its size, before any of it
 * is read; the shipped ones have at most a few hundred points. */
enum {
	TG_WL_POISSON_MAX_MSGS = 10000000,      /* messages one workload may make */
	TG_WL_POISSON_MAX_FILE_BYTES = 1 << 24, /* a CDF file larger is refused */
	TG_WL_CDF_MAX_POINTS = 1000000,         /* points one CDF may hold */
};

/* A flow-size CDF: points (bytes[i], prob[i]), both non-decreasing, prob
 * from 0 to 1 (a file in percent is scaled). */
struct tg_wl_cdf {
	double *bytes;     /* sizes, n */
	double *prob;      /* cumulative probability at each size, n */
	uint32_t n;        /* points */
	double mean_bytes; /* mean size of the piecewise-linear distribution */
};

struct tg_wl_poisson {
	struct tg_wl_ctx *ctx;          /* the experiment */
	struct tg_msg msg;              /* prototype: start, op, dscp */
	int op;                         /* enum tg_op, read as an enum */
	double load;                    /* target load of each sender's link, (0, 1] */
	uint32_t *hosts;                /* senders and receivers (malloc'd) */
	uint32_t n_hosts;               /* their count */
	const struct cfg_node *cdf;     /* the cdf key */
	const struct cfg_node *duration; /* the duration key, or NULL */
	const struct cfg_node *flows;   /* the flows key, or NULL */
};

/* The shipped CDFs (traffic/cdf/NAME.txt, embedded at build time). */
static const struct {
	const char *name; /* value of cdf: */
	const char *text; /* the file */
} tg_wl_cdf_shipped[] = {
	{ "websearch", TG_CDF_WEBSEARCH },
	{ "fb-hadoop", TG_CDF_FB_HADOOP },
	{ "ali-storage", TG_CDF_ALI_STORAGE },
	{ "google-rpc", TG_CDF_GOOGLE_RPC },
	{ "solar", TG_CDF_SOLAR },
	{ "data-mining", TG_CDF_DATA_MINING },
	{ "cache-follower", TG_CDF_CACHE_FOLLOWER },
	{ "web-server", TG_CDF_WEB_SERVER },
};

enum { TG_WL_N_CDF_SHIPPED = sizeof(tg_wl_cdf_shipped) / sizeof(tg_wl_cdf_shipped[0]) };

static void tg_wl_cdf_free(struct tg_wl_cdf *c)
{
	free(c->bytes);
	free(c->prob);
	memset(c, 0, sizeof(*c));
}

/* Append a point; 0 or -ENOMEM. */
static int tg_wl_cdf_push(struct tg_wl_cdf *c, uint32_t *cap, double x, double y)
{
	if (c->n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 32;
		double *b = realloc(c->bytes, sizeof(*b) * ncap);

		if (!b)
			return -ENOMEM;
		c->bytes = b;
		b = realloc(c->prob, sizeof(*b) * ncap);
		if (!b)
			return -ENOMEM;
		c->prob = b;
		*cap = ncap;
	}
	c->bytes[c->n] = x;
	c->prob[c->n] = y;
	c->n++;
	return 0;
}

/* One number of a CDF line at *@s (skipping blanks and one comma before
 * it); its column into @col. 0, 1 at the end of the line, -EINVAL when
 * what is there is not a finite number. */
static int tg_wl_cdf_number(const char **s, const char *line, double *v, unsigned *col)
{
	const char *p = *s;
	char *end;

	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p == ',' && p != line) {
		p++;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
	}
	*col = (unsigned)(p - line) + 1;
	if (*p == '\0' || *p == '\n' || *p == '#')
		return 1;
	*v = strtod(p, &end);
	if (end == p || !isfinite(*v) ||
	    (*end && *end != ' ' && *end != '\t' && *end != '\r' && *end != ',' && *end != '\n' &&
	     *end != '#'))
		return -EINVAL;
	*s = end;
	return 0;
}

/* Parse @text, the CDF file @file: lines "SIZE_BYTES CDF" (blank or comma
 * separated, '#' comments), both columns non-decreasing, the last CDF value
 * 1 (fraction) or 100 (percent). Errors "FILE:LINE:COL: ...". */
static int tg_wl_cdf_parse(const char *file, const char *text, struct tg_wl_cdf *c,
			   char err[CFG_ERR_BYTES])
{
	uint32_t cap = 0, line_no = 0, last_line = 0;
	unsigned last_col = 1;
	const char *line = text;
	double scale;

	memset(c, 0, sizeof(*c));
	while (line && *line) {
		const char *s = line, *nl = strchr(line, '\n');
		double x = 0, y = 0, extra;
		unsigned col_x, col_y, col;
		int r;

		line_no++;
		r = tg_wl_cdf_number(&s, line, &x, &col_x);
		if (r == 1)
			goto next;
		if (r < 0) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: expected a size in bytes", file, line_no,
				 col_x);
			goto bad;
		}
		r = tg_wl_cdf_number(&s, line, &y, &col_y);
		if (r != 0) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: expected a CDF value after the size "
				 "(lines are 'SIZE_BYTES CDF')", file, line_no, col_y);
			goto bad;
		}
		if (tg_wl_cdf_number(&s, line, &extra, &col) != 1) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: more than two numbers on a line "
				 "(lines are 'SIZE_BYTES CDF')", file, line_no, col);
			goto bad;
		}
		if (x < 0 || x > (double)TG_WL_MAX_MSG_BYTES) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: size %g is outside 0..2GiB", file, line_no,
				 col_x, x);
			goto bad;
		}
		if (y < 0) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: CDF value %g is negative", file, line_no,
				 col_y, y);
			goto bad;
		}
		if (c->n && x < c->bytes[c->n - 1]) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: sizes must not decrease (%g after %g)",
				 file, line_no, col_x, x, c->bytes[c->n - 1]);
			goto bad;
		}
		if (c->n && y < c->prob[c->n - 1]) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: CDF values must not decrease (%g after %g)",
				 file, line_no, col_y, y, c->prob[c->n - 1]);
			goto bad;
		}
		if (c->n == TG_WL_CDF_MAX_POINTS) {
			snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: more than %u points (TG_WL_CDF_MAX_POINTS)",
				 file, line_no, col_x, TG_WL_CDF_MAX_POINTS);
			goto bad;
		}
		if (tg_wl_cdf_push(c, &cap, x, y) != 0)
			goto nomem;
		last_line = line_no;
		last_col = col_y;
next:
		line = nl ? nl + 1 : NULL;
	}
	if (c->n == 0) {
		snprintf(err, CFG_ERR_BYTES, "%.300s:%u: no points (expected lines 'SIZE_BYTES CDF')", file,
			 line_no ? line_no : 1);
		goto bad;
	}
	scale = c->prob[c->n - 1];
	if (fabs(scale - 1) > 1e-9 && fabs(scale - 100) > 1e-7) {
		snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: the last CDF value is %g: a CDF ends at 1 "
			 "(fraction) or 100 (percent)", file, last_line, last_col, scale);
		goto bad;
	}
	/* Below the first point's probability, sizes are the first size. */
	if (c->prob[0] > 0) {
		if (tg_wl_cdf_push(c, &cap, 0, 0) != 0)
			goto nomem;
		memmove(c->bytes + 1, c->bytes, sizeof(double) * (c->n - 1));
		memmove(c->prob + 1, c->prob, sizeof(double) * (c->n - 1));
		c->prob[0] = 0;
	}
	for (uint32_t i = 0; i < c->n; i++)
		c->prob[i] /= scale;
	c->prob[c->n - 1] = 1;
	/* The mean of the piecewise-linear distribution: uniform between
	 * neighbouring points, each segment weighing its probability step. */
	c->mean_bytes = 0;
	for (uint32_t i = 1; i < c->n; i++)
		c->mean_bytes += (c->prob[i] - c->prob[i - 1]) * (c->bytes[i - 1] + c->bytes[i]) / 2;
	if (c->n == 1)
		c->mean_bytes = c->bytes[0];
	if (c->mean_bytes < 1)
		c->mean_bytes = 1; /* sizes are at least 1 byte */
	return 0;
nomem:
	snprintf(err, CFG_ERR_BYTES, "%.300s: out of memory", file);
	tg_wl_cdf_free(c);
	return -ENOMEM;
bad:
	tg_wl_cdf_free(c);
	return -EINVAL;
}

/* The size at probability @u in [0, 1): linear between the two points
 * around it, as HPCC's traffic_gen/custom_rand.py getValueFromPercentile
 * does (a step in the CDF at one size is a point mass there). Rounded to
 * whole bytes, at least 1. */
static uint64_t tg_wl_cdf_sample(const struct tg_wl_cdf *c, double u)
{
	uint32_t lo = 1, hi = c->n - 1;
	double x;

	if (c->n == 1) {
		x = c->bytes[0];
	} else {
		/* the first point i >= 1 with prob[i] >= u */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (c->prob[mid] >= u)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (c->prob[lo] == c->prob[lo - 1])
			x = c->bytes[lo];
		else
			x = c->bytes[lo - 1] + (c->bytes[lo] - c->bytes[lo - 1]) *
						       (u - c->prob[lo - 1]) / (c->prob[lo] - c->prob[lo - 1]);
	}
	x = floor(x + 0.5);
	return x < 1 ? 1 : (uint64_t)x;
}

/* Read the CDF file @path (named in errors as @path) into @c. */
static int tg_wl_cdf_load_file(const char *path, const struct cfg_node *at, struct tg_wl_cdf *c,
			       char err[CFG_ERR_BYTES])
{
	char why[CFG_WHY_BYTES], *text;
	enum cfg_text_err what;
	uint64_t size;
	int rc = cfg_read_text(path, TG_WL_POISSON_MAX_FILE_BYTES, &text, &size, &what, why);

	if (rc == -ENOMEM)
		return rc;
	if (rc != 0) {
		if (what == CFG_TEXT_OPEN)
			cfg_errorf(err, at, "cannot open CDF file '%s': %s", path, why);
		else if (what == CFG_TEXT_READ)
			cfg_errorf(err, at, "cannot read CDF file '%s': %s", path, why);
		else if (what == CFG_TEXT_LARGE)
			cfg_errorf(err, at,
				   "CDF file '%s' is %llu bytes, more than the 16 MiB a CDF file may be",
				   path, (unsigned long long)size);
		else
			snprintf(err, CFG_ERR_BYTES, "%.300s:1: not a text file", path);
		return rc;
	}
	rc = tg_wl_cdf_parse(path, text, c, err);
	free(text);
	return rc;
}

/* The cdf key: a shipped name, else a path relative to the experiment
 * file's folder (to the current folder for a --set value). */
static int tg_wl_cdf_load(const struct cfg_node *n, struct tg_wl_cdf *c, char err[CFG_ERR_BYTES])
{
	const char *v;
	const char *names[TG_WL_N_CDF_SHIPPED + 1];
	char path[4096];
	int rc;

	if (cfg_str(n, &v, err) != 0)
		return -EINVAL;
	for (size_t i = 0; i < TG_WL_N_CDF_SHIPPED; i++) {
		names[i] = tg_wl_cdf_shipped[i].name;
		if (strcmp(v, tg_wl_cdf_shipped[i].name) == 0) {
			rc = tg_wl_cdf_parse(tg_wl_cdf_shipped[i].name, tg_wl_cdf_shipped[i].text, c, err);
			return rc;
		}
	}
	names[TG_WL_N_CDF_SHIPPED] = NULL;
	if (!strchr(v, '/') && !strchr(v, '.')) {
		const char *near = cfg_nearest(v, names);

		cfg_errorf(err, n, "unknown CDF '%s'%s%s%s (shipped: websearch, fb-hadoop, ali-storage, "
			   "google-rpc, solar, data-mining, cache-follower, web-server; or a file path)",
			   v, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
		return -EINVAL;
	}
	tg_wl_file_path(n, v, path, sizeof(path));
	return tg_wl_cdf_load_file(path, n, c, err);
}

static int tg_wl_poisson_hosts(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_poisson *p = params;
	int rc = tg_wl_eps(p->ctx->topo, n, &p->hosts, &p->n_hosts, err);

	if (rc == 0 && p->n_hosts < 2) {
		cfg_errorf(err, n, "background traffic needs at least 2 hosts (got %u)", p->n_hosts);
		return -EINVAL;
	}
	return rc;
}

/* cdf, duration and flows are read by the expander after the key check. */
static int tg_wl_poisson_cdf(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	((struct tg_wl_poisson *)params)->cdf = n;
	return 0;
}

static int tg_wl_poisson_duration(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	((struct tg_wl_poisson *)params)->duration = n;
	return 0;
}

static int tg_wl_poisson_flows(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)err;
	((struct tg_wl_poisson *)params)->flows = n;
	return 0;
}

static int tg_wl_poisson_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct tg_wl_poisson *p = params;

	if (p->load <= 0) {
		cfg_errorf(err, cfg_get(map, "load"), "the load must be above 0");
		return -EINVAL;
	}
	if ((p->duration != NULL) == (p->flows != NULL)) {
		cfg_errorf(err, map, "poisson needs exactly one of 'duration' (e.g. 1ms) or 'flows' "
			   "(a message count)");
		return -EINVAL;
	}
	return 0;
}

static const char *const tg_wl_poisson_ops[] = { "write", "send", "read", "write-imm", NULL };

static const struct cfg_key tg_wl_poisson_keys[] = {
	{ "load", CFG_KEY_FRACTION, .required = "the target load of each host link, e.g. 30%",
	  .off = offsetof(struct tg_wl_poisson, load), .lo = 0, .hi = 1,
	  .doc = "poisson: offered load of each sender's link, (0, 100%]" },
	{ "cdf", CFG_KEY_CUSTOM, .required = "a flow-size CDF: websearch, fb-hadoop, ... or a file",
	  .read = tg_wl_poisson_cdf,
	  .doc = "poisson: flow-size CDF, a shipped name or a file relative to the experiment" },
	{ "duration", CFG_KEY_CUSTOM, NULL, .read = tg_wl_poisson_duration,
	  .doc = "poisson: arrivals in [start, start + duration) (or flows)" },
	{ "flows", CFG_KEY_CUSTOM, NULL, .read = tg_wl_poisson_flows,
	  .doc = "poisson: the first N arrivals of all senders together (or duration)" },
	{ "hosts", CFG_KEY_CUSTOM, "all", .read = tg_wl_poisson_hosts,
	  .doc = "all or a list of host names: the set, at least 2, no repeats" },
	{ "start", CFG_KEY_TIME, "0ns", .off = offsetof(struct tg_wl_poisson, msg.start_ps),
	  .doc = "when the message is posted" },
	{ "op", CFG_KEY_ENUM, "write", .off = offsetof(struct tg_wl_poisson, op),
	  .names = tg_wl_poisson_ops, .doc = "write, send, read or write-imm" },
	{ "dscp", CFG_KEY_UINT, NULL, .off = offsetof(struct tg_wl_poisson, msg.dscp), .size = 1,
	  .max = 63, .doc = "DSCP of its data packets; absent: nic.dscp" },
};

static const struct cfg_table tg_wl_poisson_table = {
	.section = "traffic",
	.keys = tg_wl_poisson_keys,
	.n_keys = sizeof(tg_wl_poisson_keys) / sizeof(tg_wl_poisson_keys[0]),
	.check = tg_wl_poisson_check,
};


/* Draw the messages. The senders' Poisson processes together are one
 * Poisson process of the summed rate whose every arrival belongs to sender
 * h with probability rate_h / sum: drawn that way, messages come out in
 * start order from one stream. */
static int tg_wl_poisson_gen(struct tg_wl_poisson *p, const struct cfg_node *it,
			     const struct tg_wl_cdf *cdf, uint64_t end_ps, uint64_t max_msgs,
			     char err[CFG_ERR_BYTES])
{
	struct tg_wl_ctx *c = p->ctx;
	double *cum = malloc(sizeof(*cum) * p->n_hosts), total = 0, mean_gap_ps;
	uint64_t t_ps = p->msg.start_ps, made = 0;
	struct tg_wl_est est = { .lower = "a shorter duration, fewer flows or a lower load" };
	bool gpus = false;
	struct rng rng;
	int rc = 0;

	if (!cum)
		return -ENOMEM;
	/* Arrival rate of host h: load x rate_h / (8 x mean size), per second. */
	for (uint32_t i = 0; i < p->n_hosts; i++) {
		total += p->load * (double)tg_wl_part_bps(c->topo, p->hosts[i]) /
			 (8 * cdf->mean_bytes);
		cum[i] = total;
	}
	mean_gap_ps = 1e12 / total;
	if (end_ps != UINT64_MAX &&
	    (double)(end_ps - p->msg.start_ps) / mean_gap_ps > TG_WL_POISSON_MAX_MSGS) {
		cfg_errorf(err, p->duration, "about %.0f messages expected, more than %u: shorten "
			   "the duration or lower the load", (double)(end_ps - p->msg.start_ps) /
			   mean_gap_ps, TG_WL_POISSON_MAX_MSGS);
		free(cum);
		return -EINVAL;
	}
	/* What it will make (tg_wl_admit): flows, exactly; with a duration,
	 * the expected count at a gap half a picosecond shorter (what rounding
	 * each start to the picosecond can take off a gap) plus 8 standard
	 * deviations, a bound the draws are held to. */
	if (end_ps != UINT64_MAX) {
		double mu = mean_gap_ps > 1 ? (double)(end_ps - p->msg.start_ps) / (mean_gap_ps - 0.5)
					    : (double)max_msgs;
		double bound = ceil(mu + 8 * sqrt(mu) + 16);

		if (bound < (double)max_msgs)
			max_msgs = (uint64_t)bound;
	}
	for (uint32_t i = 0; i < p->n_hosts; i++)
		gpus = gpus || p->hosts[i] >= c->topo->n_eps;
	est.msgs = max_msgs;
	est.conns = (uint64_t)p->n_hosts * (p->n_hosts - 1);
	if ((rc = tg_wl_admit(c, it, "poisson", &est, gpus, err)) != 0) {
		free(cum);
		return rc;
	}
	rng_init(&rng, c->seed, TG_WL_POISSON_STREAM + c->index);
	while (made < max_msgs) {
		double gap = -log(1 - rng_unit(&rng)) * mean_gap_ps, pick;
		uint32_t lo = 0, hi = p->n_hosts - 1, dst;
		struct tg_msg *v;

		if (gap >= (double)(end_ps - t_ps))
			break;
		t_ps += (uint64_t)(gap + 0.5);
		if (t_ps >= end_ps)
			break;
		pick = rng_unit(&rng) * total;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (cum[mid] > pick)
				hi = mid;
			else
				lo = mid + 1;
		}
		dst = (uint32_t)rng_below(&rng, p->n_hosts - 1);
		if (dst >= lo)
			dst++;
		if (tg_wl_msgs_room(c, 1) != 0) {
			rc = -ENOMEM;
			break;
		}
		v = &(*c->msgs)[(*c->n_msgs)++];
		*v = p->msg;
		v->src = p->hosts[lo];
		v->dst = p->hosts[dst];
		v->start_ps = t_ps;
		v->bytes = tg_wl_cdf_sample(cdf, rng_unit(&rng));
		made++;
	}
	if (rc == 0 && end_ps != UINT64_MAX && made == max_msgs) {
		cfg_errorf(err, p->duration, "more than %llu arrivals, 8 standard deviations above the "
			   "expected count: a mean gap of %.3g ps is too short for picosecond start times "
			   "(lower the load or use flows)", (unsigned long long)max_msgs, mean_gap_ps);
		rc = -EINVAL;
	}
	free(cum);
	return rc;
}

static int tg_wl_poisson_expand(struct cfg_node *it, struct tg_wl_ctx *c, char err[CFG_ERR_BYTES])
{
	struct tg_wl_poisson p = { 0 };
	const struct cfg_bind b[] = {
		{ &tg_wl_common_table, &p },
		{ &tg_wl_poisson_table, &p },
	};
	struct tg_wl_cdf cdf = { 0 };
	uint64_t end_ps = UINT64_MAX, max_msgs = TG_WL_POISSON_MAX_MSGS;
	int rc;

	p.ctx = c;
	p.msg.dscp = c->dscp;
	p.msg.workload = c->index;
	p.msg.cc = c->cc;
	p.msg.qp_mode = c->qp_mode;
	p.msg.qps = c->qps;
	rc = cfg_schema_read(c->doc, it, "workload", b, 2, err);
	if (rc == 0 && p.duration) {
		uint64_t d_ps;

		if ((rc = cfg_time(p.duration, &d_ps, err)) == 0 && d_ps == 0) {
			cfg_errorf(err, p.duration, "the duration must be above 0");
			rc = -EINVAL;
		} else if (rc == 0 && d_ps > UNITS_TIME_MAX_PS - p.msg.start_ps) {
			cfg_errorf(err, p.duration,
				   "start plus duration is beyond the clock's horizon (at most 1000000s in all)");
			rc = -EINVAL;
		}
		end_ps = p.msg.start_ps + d_ps;
		max_msgs = 2 * TG_WL_POISSON_MAX_MSGS; /* the expected count is checked */
	} else if (rc == 0) {
		rc = cfg_u64(p.flows, 1, TG_WL_POISSON_MAX_MSGS, &max_msgs, err);
	}
	if (rc == 0)
		rc = tg_wl_cdf_load(p.cdf, &cdf, err);
	if (rc == 0) {
		p.msg.op = (uint8_t)p.op;
		rc = tg_wl_poisson_gen(&p, it, &cdf, end_ps, max_msgs, err);
	}
	tg_wl_cdf_free(&cdf);
	free(p.hosts);
	return rc;
}

static const struct cfg_table *const tg_wl_poisson_tables[] = {
	&tg_wl_common_table,
	&tg_wl_poisson_table,
	NULL,
};

const struct tg_wl_kind tg_wl_poisson_kind = {
	.kind = { "poisson", "flows of sizes drawn from a CDF arriving as a Poisson process at a target load", &tg_wl_poisson_table, sizeof(struct tg_wl_poisson) },
	.tables = tg_wl_poisson_tables,
	.expand = tg_wl_poisson_expand,
};
