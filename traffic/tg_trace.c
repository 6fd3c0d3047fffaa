/* Trace replay: what the format readers share (tg_trace_int.h). A trace
 * is a list of operations with dependency lists; text traces are read line
 * by line, field by field, every number strictly (digits only, ranges
 * checked), every host through the names of the experiment, and every
 * error is "FILE:LINE:COL: message" at the trace's own line. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_trace_int.h"

enum {
	TG_TRACE_FIRST_CAP = 256, /* first allocation of a growing array */
	TG_TRACE_IDS_MIN = 64,    /* first slot count of an id map */
	TG_TRACE_MAX_SCALE = 18,  /* decimal digits a number may be scaled by (10^18 < 2^64) */
};

int tg_trace_grow(void **v, uint32_t *cap, uint32_t n, size_t size)
{
	uint64_t want;
	void *p;

	if (n < *cap)
		return 0;
	want = *cap ? (uint64_t)*cap * 2 : TG_TRACE_FIRST_CAP;
	if (want > UINT32_MAX || !(p = realloc(*v, want * size)))
		return -ENOMEM;
	*v = p;
	*cap = (uint32_t)want;
	return 0;
}

int tg_trace_push(struct tg_trace *tr, const struct tg_trace_op *op)
{
	if (tr->n_ops >= TG_TRACE_MAX_OPS)
		return -E2BIG;
	if (tg_trace_grow((void **)&tr->ops, &tr->cap_ops, tr->n_ops, sizeof(*tr->ops)) != 0)
		return -ENOMEM;
	tr->ops[tr->n_ops] = *op;
	tr->ops[tr->n_ops].dep_off = tr->n_deps;
	tr->ops[tr->n_ops].n_deps = 0;
	tr->n_ops++;
	return 0;
}

int tg_trace_dep(struct tg_trace *tr, uint32_t dep)
{
	if (tr->n_deps >= TG_TRACE_MAX_DEPS)
		return -E2BIG;
	if (tg_trace_grow((void **)&tr->deps, &tr->cap_deps, tr->n_deps, sizeof(*tr->deps)) != 0)
		return -ENOMEM;
	tr->deps[tr->n_deps++] = dep;
	tr->ops[tr->n_ops - 1].n_deps++;
	return 0;
}

void tg_trace_free(struct tg_trace *tr)
{
	free(tr->ops);
	free(tr->deps);
	memset(tr, 0, sizeof(*tr));
}

/* ---- lines and fields ---- */

bool tg_trace_next_line(const char **pos, uint32_t *no, struct tg_trace_line *l)
{
	const char *s = *pos, *nl;
	size_t len;

	if (!*s)
		return false;
	nl = strchr(s, '\n');
	len = nl ? (size_t)(nl - s) : strlen(s);
	*pos = nl ? nl + 1 : s + len;
	if (len && s[len - 1] == '\r')
		len--;
	l->s = s;
	l->len = (uint32_t)len;
	l->no = ++*no;
	return true;
}

static bool tg_trace_space(char c)
{
	return c == ' ' || c == '\t';
}

bool tg_trace_blank(const struct tg_trace_line *l)
{
	uint32_t i = 0;

	while (i < l->len && tg_trace_space(l->s[i]))
		i++;
	return i == l->len || l->s[i] == '#';
}

uint32_t tg_trace_split(const struct tg_trace_line *l, char sep, struct tg_trace_tok *toks)
{
	uint32_t n = 0, i = 0;

	while (i <= l->len) {
		uint32_t a, b;

		if (!sep) {
			while (i < l->len && tg_trace_space(l->s[i]))
				i++;
			if (i == l->len)
				break;
		}
		a = i;
		if (sep)
			while (i < l->len && l->s[i] != sep)
				i++;
		else
			while (i < l->len && !tg_trace_space(l->s[i]))
				i++;
		b = i;
		while (a < b && tg_trace_space(l->s[a]))
			a++;
		while (b > a && tg_trace_space(l->s[b - 1]))
			b--;
		if (n == TG_TRACE_MAX_FIELDS)
			return TG_TRACE_MAX_FIELDS + 1;
		toks[n].s = l->s + a;
		toks[n].len = b - a;
		toks[n].col = a + 1;
		n++;
		if (sep && i == l->len)
			break;
		i++; /* past the separator */
	}
	return n;
}

const char *tg_trace_str(const struct tg_trace_tok *t, char buf[TG_TRACE_FIELD_BYTES])
{
	uint32_t n = t->len < TG_TRACE_FIELD_BYTES - 1 ? t->len : TG_TRACE_FIELD_BYTES - 1;

	memcpy(buf, t->s, n);
	buf[n] = '\0';
	return buf;
}

bool tg_trace_is(const struct tg_trace_tok *t, const char *word)
{
	return strlen(word) == t->len && memcmp(t->s, word, t->len) == 0;
}

const char *tg_trace_word(const struct tg_trace_tok *t, char buf[TG_TRACE_WORD_BYTES])
{
	if (t->len == 0 || t->len >= TG_TRACE_WORD_BYTES)
		return NULL;
	for (uint32_t i = 0; i < t->len; i++) {
		char c = t->s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return NULL;
	}
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	return buf;
}

/* Could @t be a participant's name (tg_wl_ep): NAME, NAME:PORT or
 * NODE/GPU, each name of letters, digits, '_', '-' and '.' as topology
 * names are, at most TOPO_EP_NAME_BYTES - 1 bytes in all? */
static bool tg_trace_name_like(const struct tg_trace_tok *t)
{
	uint32_t colons = 0, slashes = 0, run = 0;

	if (t->len == 0 || t->len >= TOPO_EP_NAME_BYTES)
		return false;
	for (uint32_t i = 0; i < t->len; i++) {
		char c = t->s[i];

		if (c == ':' || c == '/') {
			colons += c == ':';
			slashes += c == '/';
			if (!run || colons > 1 || slashes > 1)
				return false;
			run = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return false;
		run++;
	}
	return run > 0;
}

/* "PATH:LINE:COL: message" into @err. Returns -EINVAL. */
static int tg_trace_verrf(char err[CFG_ERR_BYTES], const char *path, uint32_t line, uint32_t col,
			  const char *fmt, va_list ap)
{
	int n = snprintf(err, CFG_ERR_BYTES, "%.300s:%u:%u: ", path, line, col);

	if (n < 0 || n >= CFG_ERR_BYTES)
		return -EINVAL;
	vsnprintf(err + n, CFG_ERR_BYTES - (size_t)n, fmt, ap);
	return -EINVAL;
}

int tg_trace_errf(char err[CFG_ERR_BYTES], const struct tg_trace_in *in, uint32_t line,
		  uint32_t col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tg_trace_verrf(err, in->path, line, col, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int tg_trace_errf_at(char err[CFG_ERR_BYTES], const char *path, uint32_t line, uint32_t col,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tg_trace_verrf(err, path, line, col, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* ---- numbers and names ---- */

int tg_trace_u64(const struct tg_trace_tok *t, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	bool over = false;

	if (t->len == 0)
		return -EINVAL;
	/* Every byte a digit before any range is told: -ERANGE says the
	 * field is a number. */
	for (uint32_t i = 0; i < t->len; i++) {
		unsigned d = (unsigned)(t->s[i] - '0');

		if (d > 9)
			return -EINVAL;
		if (x > (UINT64_MAX - d) / 10)
			over = true;
		else
			x = x * 10 + d;
	}
	if (over || x > max)
		return -ERANGE;
	*v = x;
	return 0;
}

int tg_trace_decimal(const struct tg_trace_tok *t, unsigned scale_digits, uint64_t *v)
{
	uint64_t x = 0;
	uint32_t i = 0, n_int = 0, n_frac = 0;
	unsigned left = scale_digits;
	bool round_up = false, over = false;

	if (scale_digits > TG_TRACE_MAX_SCALE)
		return -ERANGE;
	/* The whole field read before any range is told, as tg_trace_u64. */
	for (; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; i++, n_int++) {
		if (x > (UINT64_MAX - 9) / 10)
			over = true;
		else
			x = x * 10 + (uint64_t)(t->s[i] - '0');
	}
	if (i < t->len && t->s[i] == '.') {
		for (i++; i < t->len && t->s[i] >= '0' && t->s[i] <= '9'; i++, n_frac++) {
			unsigned d = (unsigned)(t->s[i] - '0');

			if (left) {
				if (x > (UINT64_MAX - d) / 10)
					over = true;
				else
					x = x * 10 + d;
				left--;
			} else if (n_frac == scale_digits) {
				round_up = d >= 5; /* the first digit past the scale decides */
			}
		}
	}
	if (i != t->len || n_int + n_frac == 0)
		return -EINVAL;
	if (over)
		return -ERANGE;
	for (; left; left--) {
		if (x > UINT64_MAX / 10)
			return -ERANGE;
		x *= 10;
	}
	if (round_up && x == UINT64_MAX)
		return -ERANGE;
	*v = x + round_up;
	return 0;
}

int tg_trace_index(const struct tg_trace_in *in, uint64_t idx, uint32_t line, uint32_t col,
		   uint32_t *part, char err[CFG_ERR_BYTES])
{
	if (idx >= in->n_hosts) {
		if (in->n_hosts == 0)
			return tg_trace_errf(err, in, line, col, "node index %llu, but hosts is empty",
					     (unsigned long long)idx);
		return tg_trace_errf(err, in, line, col,
				     "node index %llu is beyond hosts (%u of them: 0..%u)",
				     (unsigned long long)idx, in->n_hosts, in->n_hosts - 1);
	}
	*part = in->hosts[idx];
	return 0;
}

int tg_trace_host(const struct tg_trace_in *in, const struct tg_trace_tok *t, uint32_t line,
		  uint32_t *part, char err[CFG_ERR_BYTES])
{
	char buf[TG_TRACE_FIELD_BYTES];
	struct cfg_node n = { .type = CFG_SCALAR, .mark = { in->path, line, t->col } };
	uint64_t idx;
	int rc;

	rc = tg_trace_u64(t, UINT64_MAX, &idx);
	if (rc == -ERANGE)
		return tg_trace_errf(err, in, line, t->col, "a node index beyond 64 bits (hosts has %u)",
				     in->n_hosts);
	if (rc == 0)
		return tg_trace_index(in, idx, line, t->col, part, err);
	if (!tg_trace_name_like(t))
		return tg_trace_errf(err, in, line, t->col,
				     "expected a host: a name (such as h3, h0:1, node1/gpu2) or an index into hosts");
	/* A name: resolved as the experiment resolves names, the error
	 * pointing here. */
	n.str = (char *)tg_trace_str(t, buf);
	return tg_wl_ep(in->topo, &n, part, err);
}

int tg_trace_check_msg(const struct tg_trace_in *in, const struct tg_trace_op *op, uint32_t line,
		       uint32_t col, char err[CFG_ERR_BYTES])
{
	char nb[TOPO_EP_NAME_BYTES];

	if (op->src == op->dst)
		return tg_trace_errf(err, in, line, col,
				     "a message needs two different endpoints (source and destination are both %s)",
				     tg_wl_part_name(in->topo, op->src, nb));
	return 0;
}

/* ---- ids ---- */

static uint32_t tg_trace_ids_slot(const struct tg_trace_ids *m, uint64_t id)
{
	/* Fibonacci hashing: the high bits of id x 2^64 / phi. */
	uint64_t h = id * UINT64_C(0x9e3779b97f4a7c15);
	uint32_t mask = m->cap - 1, i = (uint32_t)(h >> 32) & mask;

	while (m->used[i] && m->keys[i] != id)
		i = (i + 1) & mask;
	return i;
}

bool tg_trace_ids_get(const struct tg_trace_ids *m, uint64_t id, uint32_t *val)
{
	uint32_t i;

	if (!m->cap)
		return false;
	i = tg_trace_ids_slot(m, id);
	if (!m->used[i])
		return false;
	*val = m->vals[i];
	return true;
}

int tg_trace_ids_put(struct tg_trace_ids *m, uint64_t id, uint32_t val)
{
	uint32_t i;

	if ((uint64_t)(m->n + 1) * 2 > m->cap) {
		struct tg_trace_ids g = { .cap = m->cap ? m->cap * 2 : TG_TRACE_IDS_MIN };

		if (g.cap < m->cap)
			return -ENOMEM;
		g.keys = malloc(sizeof(*g.keys) * g.cap);
		g.vals = malloc(sizeof(*g.vals) * g.cap);
		g.used = calloc(g.cap, 1);
		if (!g.keys || !g.vals || !g.used) {
			tg_trace_ids_free(&g);
			return -ENOMEM;
		}
		for (uint32_t k = 0; k < m->cap; k++) {
			if (!m->used[k])
				continue;
			i = tg_trace_ids_slot(&g, m->keys[k]);
			g.used[i] = 1;
			g.keys[i] = m->keys[k];
			g.vals[i] = m->vals[k];
		}
		g.n = m->n;
		tg_trace_ids_free(m);
		*m = g;
	}
	i = tg_trace_ids_slot(m, id);
	m->used[i] = 1;
	m->keys[i] = id;
	m->vals[i] = val;
	m->n++;
	return 0;
}

void tg_trace_ids_free(struct tg_trace_ids *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}
