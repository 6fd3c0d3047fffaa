/* The ns3 topology kind: the topology file of the HPCC authors' ns-3
 * simulator (github.com/alibaba-edu/High-Precision-Congestion-Control, read
 * by its scratch/third.cc), so that an experiment runs on the exact fabric
 * of a published ns-3 study. Line 1 is `node_num switch_num link_num`, line
 * 2 the switch ids, then one link per line, `src dst rate delay error_rate`
 * (ns-3 DataRate and Time strings). Node id i becomes node i of the
 * topology, a host `h<i>` or a switch `s<i>`, so host k is the k-th host id
 * (what the hpcc-flow trace format's node indices mean); a node's ports are
 * numbered in the order its links appear, as ns-3 adds its devices. The
 * file is read whole, bounded, and every error is "FILE:LINE:COL: message"
 * at its own line and column. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg_schema.h"
#include "topo_int.h"
#include "units.h"

extern const struct topo_kind topo_ns3_kind; /* its ops, below */

enum {
	TOPO_NS3_MAX_FILE_BYTES = 64 << 20, /* bound on the file (2^20 links take about 30 MiB) */
	TOPO_NS3_MAX_FILE_MIB = TOPO_NS3_MAX_FILE_BYTES >> 20,
	TOPO_NS3_MAX_NODES = TOPO_MAX_HOSTS + TOPO_MAX_SWITCHES, /* node_num */
	TOPO_NS3_HEAD_FIELDS = 3,           /* node_num switch_num link_num */
	TOPO_NS3_LINK_FIELDS = 5,           /* src dst rate delay error_rate */
	TOPO_NS3_FIELD_BYTES = 64,          /* a rate or delay copied out, NUL included */
	TOPO_NS3_SHOW_BYTES = 40,           /* most of a field a message quotes */
	TOPO_NS3_BITS_PER_BYTE = 8,         /* ns-3's Bps and B/s rates count bytes */
	TOPO_NS3_PATH_BYTES = 4096,
};

/* What the keys give. */
struct topo_ns3_params {
	const struct cfg_node *file; /* the file key */
};

/* A line of the file, and a field of it. */
struct topo_ns3_line {
	const char *s; /* its first byte */
	uint32_t len;  /* bytes, without the line end ("\n" or "\r\n") */
	uint32_t no;   /* 1-based line number */
};

struct topo_ns3_tok {
	const char *s; /* its first byte */
	uint32_t len;  /* bytes */
	uint32_t col;  /* 1-based column of its first byte */
};

/* A link as read. */
struct topo_ns3_link {
	uint32_t node[2];           /* ns-3 ids of src and dst */
	uint16_t port[2];           /* their ports: each node's links in file order */
	struct topo_link_params lp; /* rate and delay */
	uint32_t line;              /* where the file gives it */
};

/* Everything read from the file before the topology is made. */
struct topo_ns3_read {
	const char *path;            /* the file, as errors name it */
	uint32_t n_nodes;            /* node_num */
	uint32_t n_switches;         /* switch_num */
	uint32_t n_links;            /* link_num */
	uint32_t n_read;             /* links read so far */
	uint32_t head_line;          /* the line of node_num switch_num link_num */
	uint32_t head_cols[TOPO_NS3_HEAD_FIELDS]; /* their columns */
	uint32_t switch_line;        /* the line of the switch ids; 0 before it */
	uint32_t *switch_col;        /* per node: column of its id there, 0 for a host */
	uint32_t *first_line;        /* per node: first link line naming it, 0 for none */
	uint32_t *first_col;         /* per node: its column on that line */
	uint32_t *n_ports;           /* per node: links so far */
	struct topo_ns3_link *links; /* n_links */
};

/* "PATH:LINE:COL: message" into @err. Returns -EINVAL. */
static int topo_ns3_errf(char err[CFG_ERR_BYTES], const struct topo_ns3_read *r, uint32_t line,
			 uint32_t col, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int topo_ns3_errf(char err[CFG_ERR_BYTES], const struct topo_ns3_read *r, uint32_t line,
			 uint32_t col, const char *fmt, ...)
{
	struct cfg_mark m = { r->path, line, col };
	char msg[CFG_ERR_BYTES];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	topo_errorf(err, &m, "%s", msg);
	return -EINVAL;
}

/* ---- the file ---- */

/* The regular file @path, NUL-terminated, into *@text (malloc'd): at most
 * TOPO_NS3_MAX_FILE_BYTES of text. Opened without blocking, so that a FIFO
 * is refused rather than waited on. Errors at the file key @at. */
static int topo_ns3_slurp(const char *path, const struct cfg_node *at, char **text,
			  char err[CFG_ERR_BYTES])
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t n = 0, cap;
	struct stat st;
	char *buf = NULL;
	int rc = 0;

	if (fd < 0) {
		cfg_errorf(err, at, "topology.file: cannot open '%s': %s", path, strerror(errno));
		return -EINVAL;
	}
	if (fstat(fd, &st) != 0) {
		cfg_errorf(err, at, "topology.file: cannot read '%s': %s", path, strerror(errno));
		rc = -EINVAL;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		cfg_errorf(err, at, "topology.file: '%s' is %s, not a regular file", path,
			   S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			   "a device or socket");
		rc = -EINVAL;
		goto out;
	}
	if (st.st_size > TOPO_NS3_MAX_FILE_BYTES)
		goto too_large;
	cap = (size_t)st.st_size + 1;
	if (!(buf = malloc(cap + 1))) {
		rc = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, buf + n, cap - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cfg_errorf(err, at, "topology.file: cannot read '%s': %s", path, strerror(errno));
			rc = -EINVAL;
			goto out;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > TOPO_NS3_MAX_FILE_BYTES)
			goto too_large;
		if (n == cap) { /* it grew since fstat */
			char *p;

			cap = cap * 2 > TOPO_NS3_MAX_FILE_BYTES + 1 ? TOPO_NS3_MAX_FILE_BYTES + 1 : cap * 2;
			if (!(p = realloc(buf, cap + 1))) {
				rc = -ENOMEM;
				goto out;
			}
			buf = p;
		}
	}
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		cfg_errorf(err, at, "topology.file: '%s' holds a NUL byte at offset %zu: not a text file",
			   path, (size_t)((const char *)memchr(buf, '\0', n) - buf));
		rc = -EINVAL;
		goto out;
	}
	*text = buf;
	buf = NULL;
	goto out;
too_large:
	cfg_errorf(err, at, "topology.file: '%s' is larger than %d MiB, the bound on an ns-3 topology file",
		   path, TOPO_NS3_MAX_FILE_MIB);
	rc = -EINVAL;
out:
	free(buf);
	close(fd);
	return rc;
}

/* ---- lines and fields ---- */

/* The next line at *@pos (advanced past it; *@no counted up): false at
 * the end of the text. */
static bool topo_ns3_next_line(const char **pos, uint32_t *no, struct topo_ns3_line *l)
{
	const char *s = *pos, *nl;
	size_t len;

	if (!*s)
		return false;
	nl = strchr(s, '\n');
	len = nl ? (size_t)(nl - s) : strlen(s);
	*pos = nl ? nl + 1 : s + len;
	l->s = s;
	l->len = (uint32_t)len;
	l->no = ++*no;
	return true;
}

/* ns-3 reads the file with operator>>: any white space separates fields. */
static bool topo_ns3_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next field of @l from byte *@i on (advanced past it): false when
 * none is left. */
static bool topo_ns3_tok(const struct topo_ns3_line *l, uint32_t *i, struct topo_ns3_tok *t)
{
	while (*i < l->len && topo_ns3_space(l->s[*i]))
		(*i)++;
	if (*i == l->len)
		return false;
	t->s = l->s + *i;
	t->col = *i + 1;
	while (*i < l->len && !topo_ns3_space(l->s[*i]))
		(*i)++;
	t->len = (uint32_t)(l->s + *i - t->s);
	return true;
}

/* Bytes of @t a message quotes ("%.*s"). */
static int topo_ns3_show(const struct topo_ns3_tok *t)
{
	return (int)(t->len < TOPO_NS3_SHOW_BYTES ? t->len : TOPO_NS3_SHOW_BYTES);
}

/* @t as a decimal integer (digits only) of at most @max: 0, -EINVAL (not
 * an integer) or -ERANGE (above @max). */
static int topo_ns3_u32(const struct topo_ns3_tok *t, uint32_t max, uint32_t *v)
{
	uint64_t x = 0;
	bool big = false;

	for (uint32_t i = 0; i < t->len; i++) {
		unsigned d = (unsigned)(t->s[i] - '0');

		if (d > 9)
			return -EINVAL;
		x = x * 10 + d;
		if (x > max) {
			big = true;
			x = max;
		}
	}
	if (big)
		return -ERANGE;
	*v = (uint32_t)x;
	return 0;
}

/* @t copied out, NUL-terminated; false when it does not fit. */
static bool topo_ns3_copy(const struct topo_ns3_tok *t, char buf[TOPO_NS3_FIELD_BYTES])
{
	if (t->len >= TOPO_NS3_FIELD_BYTES)
		return false;
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	return true;
}

/* ---- quantities ---- */

/* An ns-3 DataRate string: fabemu's spellings (bps, kbps, Kbps, Mbps, Gbps,
 * Tbps and their b/s forms, core/units.c) and ns-3's byte rates (KBps,
 * MB/s, ...: 8 bits a byte). Above 0. */
static int topo_ns3_rate(const struct topo_ns3_tok *t, uint64_t *bps, const char **why)
{
	char buf[TOPO_NS3_FIELD_BYTES];
	uint64_t mult = 1;
	size_t len = t->len;

	if (!topo_ns3_copy(t, buf)) {
		*why = "too long";
		return -EINVAL;
	}
	if (len >= 3 && (strcmp(buf + len - 3, "Bps") == 0 || strcmp(buf + len - 3, "B/s") == 0)) {
		buf[len - 3] = 'b';
		mult = TOPO_NS3_BITS_PER_BYTE;
	}
	if (units_parse_rate(buf, bps, why) != 0)
		return -EINVAL;
	if (*bps == 0) {
		*why = "a link needs a rate above 0";
		return -EINVAL;
	}
	if (*bps > UINT64_MAX / mult) {
		*why = "too large";
		return -EINVAL;
	}
	*bps *= mult;
	return 0;
}

/* ns-3's error_rate, a probability read as a double: digits with an
 * optional fraction and exponent. *@zero says whether it is 0. */
static int topo_ns3_error_rate(const struct topo_ns3_tok *t, bool *zero)
{
	uint32_t i = 0, digits = 0;

	*zero = true;
	for (; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; i++, digits++)
		*zero = *zero && t->s[i] == '0';
	if (i < t->len && t->s[i] == '.')
		for (i++; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; i++, digits++)
			*zero = *zero && t->s[i] == '0';
	if (digits == 0)
		return -EINVAL;
	if (i < t->len && (t->s[i] == 'e' || t->s[i] == 'E')) {
		uint32_t exp_digits = 0;

		i++;
		if (i < t->len && (t->s[i] == '+' || t->s[i] == '-'))
			i++;
		for (; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; i++)
			exp_digits++;
		if (exp_digits == 0)
			return -EINVAL;
	}
	return i == t->len ? 0 : -EINVAL;
}

/* ---- the three parts of the file ---- */

static void topo_ns3_name(const struct topo_ns3_read *r, uint32_t id, char buf[TOPO_NAME_BYTES])
{
	snprintf(buf, TOPO_NAME_BYTES, "%s%u", r->switch_col[id] ? "s" : "h", id);
}

/* The per-node arrays, once node_num is known. */
static int topo_ns3_alloc(struct topo_ns3_read *r)
{
	r->switch_col = calloc(r->n_nodes, sizeof(*r->switch_col));
	r->first_line = calloc(r->n_nodes, sizeof(*r->first_line));
	r->first_col = calloc(r->n_nodes, sizeof(*r->first_col));
	r->n_ports = calloc(r->n_nodes, sizeof(*r->n_ports));
	r->links = calloc(r->n_links ? r->n_links : 1, sizeof(*r->links));
	return r->switch_col && r->first_line && r->first_col && r->n_ports && r->links ? 0 : -ENOMEM;
}

static void topo_ns3_read_free(struct topo_ns3_read *r)
{
	free(r->switch_col);
	free(r->first_line);
	free(r->first_col);
	free(r->n_ports);
	free(r->links);
}

/* Line 1: node_num switch_num link_num. */
static int topo_ns3_head(struct topo_ns3_read *r, const struct topo_ns3_line *l, char err[CFG_ERR_BYTES])
{
	static const char form[] = "the first line of an ns-3 topology file is 'node_num switch_num link_num'";
	static const char *const what[TOPO_NS3_HEAD_FIELDS] = { "node_num", "switch_num", "link_num" };
	static const uint32_t max[TOPO_NS3_HEAD_FIELDS] = {
		TOPO_NS3_MAX_NODES, TOPO_NS3_MAX_NODES, TOPO_MAX_LINKS,
	};
	uint32_t v[TOPO_NS3_HEAD_FIELDS], i = 0, n = 0;
	struct topo_ns3_tok t;

	while (topo_ns3_tok(l, &i, &t)) {
		int rc;

		if (n == TOPO_NS3_HEAD_FIELDS)
			return topo_ns3_errf(err, r, l->no, t.col, "extra field '%.*s': %s",
					     topo_ns3_show(&t), t.s, form);
		rc = topo_ns3_u32(&t, max[n], &v[n]);
		if (rc == -ERANGE)
			return topo_ns3_errf(err, r, l->no, t.col, "%s %.*s is above the maximum %u",
					     what[n], topo_ns3_show(&t), t.s, max[n]);
		if (rc != 0)
			return topo_ns3_errf(err, r, l->no, t.col, "%s: expected an integer, got '%.*s' (%s)",
					     what[n], topo_ns3_show(&t), t.s, form);
		r->head_cols[n++] = t.col;
	}
	if (n < TOPO_NS3_HEAD_FIELDS)
		return topo_ns3_errf(err, r, l->no, l->len + 1, "%s; this one has %u field%s", form, n,
				     n == 1 ? "" : "s");
	r->head_line = l->no;
	if (v[0] == 0)
		return topo_ns3_errf(err, r, l->no, r->head_cols[0], "node_num is 0: the topology has no nodes");
	if (v[1] > v[0])
		return topo_ns3_errf(err, r, l->no, r->head_cols[1], "switch_num %u is more than node_num %u",
				     v[1], v[0]);
	if (v[1] == v[0])
		return topo_ns3_errf(err, r, l->no, r->head_cols[1],
				     "all %u nodes are switches: the topology has no hosts", v[0]);
	if (v[0] - v[1] > TOPO_MAX_HOSTS)
		return topo_ns3_errf(err, r, l->no, r->head_cols[0],
				     "%u hosts (node_num - switch_num), at most %d", v[0] - v[1], TOPO_MAX_HOSTS);
	if (v[1] > TOPO_MAX_SWITCHES)
		return topo_ns3_errf(err, r, l->no, r->head_cols[1], "%u switches, at most %d", v[1],
				     TOPO_MAX_SWITCHES);
	r->n_nodes = v[0];
	r->n_switches = v[1];
	r->n_links = v[2];
	return 0;
}

/* Line 2: the switch_num ids of the switches, on one line. */
static int topo_ns3_switches(struct topo_ns3_read *r, const struct topo_ns3_line *l,
			     char err[CFG_ERR_BYTES])
{
	uint32_t i = 0, n = 0, id;
	struct topo_ns3_tok t;

	while (topo_ns3_tok(l, &i, &t)) {
		int rc;

		if (n == r->n_switches)
			return topo_ns3_errf(err, r, l->no, t.col, "more switch ids than line %u says (%u): '%.*s'",
					     r->head_line, r->n_switches, topo_ns3_show(&t), t.s);
		rc = topo_ns3_u32(&t, r->n_nodes - 1, &id);
		if (rc == -ERANGE)
			return topo_ns3_errf(err, r, l->no, t.col,
					     "switch id %.*s is out of range: line %u says %u nodes (ids 0..%u)",
					     topo_ns3_show(&t), t.s, r->head_line, r->n_nodes, r->n_nodes - 1);
		if (rc != 0)
			return topo_ns3_errf(err, r, l->no, t.col, "switch id: expected a node id, got '%.*s'",
					     topo_ns3_show(&t), t.s);
		if (r->switch_col[id])
			return topo_ns3_errf(err, r, l->no, t.col, "switch id %u is listed twice (first at column %u)",
					     id, r->switch_col[id]);
		r->switch_col[id] = t.col;
		n++;
	}
	if (n < r->n_switches)
		return topo_ns3_errf(err, r, l->no, 1,
				     "line %u lists %u switch ids, line %u says %u (the ids are all on one line)",
				     l->no, n, r->head_line, r->n_switches);
	r->switch_line = l->no;
	return 0;
}

/* A link line: src dst rate delay error_rate. */
static int topo_ns3_link(struct topo_ns3_read *r, const struct topo_ns3_line *l, char err[CFG_ERR_BYTES])
{
	static const char form[] = "a link line is 'src dst rate delay error_rate'";
	struct topo_ns3_link *k = &r->links[r->n_read];
	struct topo_ns3_tok t[TOPO_NS3_LINK_FIELDS], x;
	char buf[TOPO_NS3_FIELD_BYTES], names[2][TOPO_NAME_BYTES];
	uint32_t i = 0, n = 0;
	const char *why = NULL;
	bool zero;

	while (n < TOPO_NS3_LINK_FIELDS && topo_ns3_tok(l, &i, &t[n]))
		n++;
	if (r->n_read == r->n_links)
		return topo_ns3_errf(err, r, l->no, t[0].col, "more links than line %u says (%u)",
				     r->head_line, r->n_links);
	if (n < TOPO_NS3_LINK_FIELDS)
		return topo_ns3_errf(err, r, l->no, l->len + 1, "%s; this one has %u field%s", form, n,
				     n == 1 ? "" : "s");
	if (topo_ns3_tok(l, &i, &x))
		return topo_ns3_errf(err, r, l->no, x.col, "extra field '%.*s' after the error rate (%s)",
				     topo_ns3_show(&x), x.s, form);
	for (int e = 0; e < 2; e++) {
		int rc = topo_ns3_u32(&t[e], r->n_nodes - 1, &k->node[e]);

		if (rc == -ERANGE)
			return topo_ns3_errf(err, r, l->no, t[e].col,
					     "node id %.*s is out of range: line %u says %u nodes (ids 0..%u)",
					     topo_ns3_show(&t[e]), t[e].s, r->head_line, r->n_nodes, r->n_nodes - 1);
		if (rc != 0)
			return topo_ns3_errf(err, r, l->no, t[e].col, "%s: expected a node id, got '%.*s' (%s)",
					     e ? "dst" : "src", topo_ns3_show(&t[e]), t[e].s, form);
		topo_ns3_name(r, k->node[e], names[e]);
	}
	if (k->node[0] == k->node[1])
		return topo_ns3_errf(err, r, l->no, t[1].col, "link connects %s to itself", names[0]);
	if (topo_ns3_rate(&t[2], &k->lp.rate_bps, &why) != 0)
		return topo_ns3_errf(err, r, l->no, t[2].col,
				     "bad rate '%.*s': %s; ns-3 rates here are bps, Kbps, Mbps, Gbps, Tbps, "
				     "their b/s forms, or Bps, KBps, MBps, GBps for bytes (e.g. 100Gbps)",
				     topo_ns3_show(&t[2]), t[2].s, why);
	why = "too long";
	if (!topo_ns3_copy(&t[3], buf) || units_parse_time(buf, &k->lp.delay_ps, &why) != 0)
		return topo_ns3_errf(err, r, l->no, t[3].col,
				     "bad delay '%.*s': %s; ns-3 delays here are s, ms, us, ns or ps (e.g. 1000ns)",
				     topo_ns3_show(&t[3]), t[3].s, why);
	if (k->lp.delay_ps > UNITS_LINK_DELAY_MAX_PS)
		return topo_ns3_errf(err, r, l->no, t[3].col, "delay %s is above the maximum 1s (%s)", buf,
				     UNITS_LINK_DELAY_WHY);
	for (int e = 0; e < 2; e++) {
		uint32_t id = k->node[e];

		if (r->n_ports[id] == TOPO_MAX_PORTS)
			return topo_ns3_errf(err, r, l->no, t[e].col, "%s has more than %d links (a port each)",
					     names[e], TOPO_MAX_PORTS);
		k->port[e] = (uint16_t)r->n_ports[id]++;
		if (!r->first_line[id]) {
			r->first_line[id] = l->no;
			r->first_col[id] = t[e].col;
		}
	}
	if (topo_ns3_error_rate(&t[4], &zero) != 0)
		return topo_ns3_errf(err, r, l->no, t[4].col,
				     "error_rate: expected a probability such as 0.000000, got '%.*s'",
				     topo_ns3_show(&t[4]), t[4].s);
	/* ns-3 puts the error model on both devices: a loss fault on both
	 * ports is the same thing. */
	if (!zero)
		return topo_ns3_errf(err, r, l->no, t[4].col,
				     "error rate %.*s: fabemu takes no per-link loss from a topology file; write 0 "
				     "here and add faults: [{kind: loss, at: 0ns, ports: ['%s:%u', '%s:%u'], "
				     "loss: %.*s}] (or fabric.loss for every link)",
				     topo_ns3_show(&t[4]), t[4].s, names[0], k->port[0], names[1], k->port[1],
				     topo_ns3_show(&t[4]), t[4].s);
	k->line = l->no;
	r->n_read++;
	return 0;
}

/* The whole text into @r. */
static int topo_ns3_parse(const char *text, struct topo_ns3_read *r, char err[CFG_ERR_BYTES])
{
	const char *pos = text;
	struct topo_ns3_line l;
	uint32_t no = 0, i;
	struct topo_ns3_tok t;
	int rc;

	while (topo_ns3_next_line(&pos, &no, &l)) {
		i = 0;
		if (!topo_ns3_tok(&l, &i, &t))
			continue; /* a blank line */
		if (!r->head_line) {
			if ((rc = topo_ns3_head(r, &l, err)) == 0 && (rc = topo_ns3_alloc(r)) != 0)
				snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		} else if (r->n_switches && !r->switch_line) {
			rc = topo_ns3_switches(r, &l, err);
		} else {
			rc = topo_ns3_link(r, &l, err);
		}
		if (rc != 0)
			return rc;
	}
	if (!r->head_line)
		return topo_ns3_errf(err, r, no ? no : 1, 1,
				     "empty file: an ns-3 topology file starts with 'node_num switch_num link_num'");
	if (r->n_switches && !r->switch_line)
		return topo_ns3_errf(err, r, r->head_line, r->head_cols[1],
				     "line %u says %u switches, but the file ends before their ids",
				     r->head_line, r->n_switches);
	if (r->n_read < r->n_links)
		return topo_ns3_errf(err, r, r->head_line, r->head_cols[2],
				     "line %u says %u links, the file has %u", r->head_line, r->n_links, r->n_read);
	for (uint32_t id = 0; id < r->n_nodes; id++)
		if (!r->switch_col[id] && !r->n_ports[id])
			return topo_ns3_errf(err, r, r->head_line, r->head_cols[0],
					     "node %u is a host (not among the switch ids) and no link names it",
					     id);
	return 0;
}

/* ---- the topology ---- */

static int topo_ns3_make(const struct topo_ns3_read *r, struct topo **out, char err[CFG_ERR_BYTES])
{
	struct topo *t = topo_alloc(topo_ns3_kind.kind.name, r->n_nodes, r->n_links);
	uint32_t *dist = malloc(r->n_nodes * sizeof(*dist));
	uint32_t *queue = malloc(r->n_nodes * sizeof(*queue));
	int rc = t == NULL || dist == NULL || queue == NULL ? -ENOMEM : 0;

	if (rc == 0 && !(t->source = strdup(r->path)))
		rc = -ENOMEM;
	for (uint32_t id = 0; id < r->n_nodes && rc == 0; id++) {
		bool sw = r->switch_col[id] != 0;
		struct cfg_mark mark = { t->source, sw ? r->switch_line : r->first_line[id],
					 sw ? r->switch_col[id] : r->first_col[id] };
		char name[TOPO_NAME_BYTES];

		topo_ns3_name(r, id, name);
		rc = topo_set_node(t, id, name, sw ? TOPO_SWITCH : TOPO_HOST, sw ? TOPO_TIER_LEAF : TOPO_TIER_HOST,
				   (uint16_t)r->n_ports[id], &mark);
	}
	for (uint32_t l = 0; l < r->n_links && rc == 0; l++) {
		const struct topo_ns3_link *k = &r->links[l];
		struct cfg_mark mark = { t->source, k->line, 1 };

		topo_set_link(t, l, k->node[0], k->port[0], k->node[1], k->port[1], &k->lp, &mark);
	}
	if (rc == 0)
		rc = topo_index(t);
	if (rc == -E2BIG)
		topo_errorf(err, &t->nodes[0].mark, "topology: hosts have more than %d ports in all",
			    TOPO_MAX_EPS);
	else if (rc != 0)
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
	if (rc == 0) {
		topo_x_tiers(t, dist, queue);
		*out = t;
		t = NULL;
	}
	topo_free(t);
	free(dist);
	free(queue);
	return rc;
}

static int topo_ns3_build(const struct cfg_node *m, const void *params, struct topo **out,
			  char err[CFG_ERR_BYTES])
{
	const struct topo_ns3_params *p = params;
	struct topo_ns3_read r = { 0 };
	char path[TOPO_NS3_PATH_BYTES], *text = NULL;
	const char *name;
	int rc;

	(void)m;
	if ((rc = cfg_str(p->file, &name, err)) != 0)
		return rc;
	if (topo_file_path(p->file, name, path, sizeof(path)) != 0) {
		cfg_errorf(err, p->file, "topology.file: path too long");
		return -EINVAL;
	}
	r.path = path;
	rc = topo_ns3_slurp(path, p->file, &text, err);
	if (rc == 0)
		rc = topo_ns3_parse(text, &r, err);
	if (rc == 0)
		rc = topo_ns3_make(&r, out, err);
	if (rc == -ENOMEM)
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory reading '%.300s'", path);
	topo_ns3_read_free(&r);
	free(text);
	return rc;
}

static int topo_ns3_keep_file(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	const char *name;

	if (cfg_str(n, &name, err) != 0)
		return -EINVAL;
	if (!*name) {
		cfg_errorf(err, n, "topology.file: expected the name of an ns-3 topology file");
		return -EINVAL;
	}
	((struct topo_ns3_params *)params)->file = n;
	return 0;
}

static const struct cfg_key topo_ns3_keys[] = {
	{ "kind", CFG_KEY_ANY, .doc = "ns3" },
	{ "file", CFG_KEY_CUSTOM, .required = "the ns-3 topology file, relative to the experiment's folder",
	  .read = topo_ns3_keep_file,
	  .doc = "ns3: the HPCC ns-3 topology file, relative to the experiment file's folder" },
};

static const struct cfg_table topo_ns3_table = {
	.section = "topology",
	.keys = topo_ns3_keys,
	.n_keys = sizeof(topo_ns3_keys) / sizeof(topo_ns3_keys[0]),
	.ordered = true,
};

const struct topo_kind topo_ns3_kind = {
	.kind = { "ns3", "an HPCC ns-3 topology file", &topo_ns3_table,
		  sizeof(struct topo_ns3_params) },
	.own_file = true,
	.build = topo_ns3_build,
};
