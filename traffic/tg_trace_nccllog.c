/* Trace format `nccl-log`: NCCL's own log of a job's collectives
 * (NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS including INIT and COLL), every
 * process's lines in one file, replayed as the chakra format replays its
 * nodes (tg_trace_chakra.c: one rank per process, collectives matched by
 * communicator into instances, sends matched with receives).
 *
 * The lines read (NCCL's INFO format, as printed by NCCL 2.x):
 *   HOST:PID:TID [DEV] NCCL INFO comm 0xPTR rank R nranks N ... commId 0xID - Init COMPLETE
 *   HOST:PID:TID [DEV] NCCL INFO AllReduce: opCount X sendbuff 0x.. recvbuff 0x.. count C
 *       datatype D op O root R comm 0xPTR [nranks=N] stream 0x..
 * (AllGather, ReduceScatter, Broadcast, Send and Recv alike; Reduce is
 * refused). A process is HOST:PID; a communicator is its commId, and a
 * process's rank in it comes from its Init line; the process's rank in the
 * job is its rank in the largest communicator (the world), and it is
 * participant hosts[rank]. Bytes: count x the datatype's size (ncclInt8 0
 * .. ncclFloat8e5m2 11), times the ranks for AllGather (count is what
 * each rank gives) and ReduceScatter (count is what each rank gets): S as
 * a collective workload counts it. A Send's or Recv's root is the peer's
 * rank in the communicator. Anything else in the file is passed over. The
 * log has no times: each process runs its operations one after the
 * other, as its stream orders them, with no compute between them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_coll_int.h"
#include "tg_trace_chakra_int.h"

enum {
	NL_KEY_BYTES = 128,   /* HOST:PID kept */
	NL_LINE_BYTES = 1024, /* a line looked at (longer ones are cut) */
	NL_MAX_PROCS = 65536,
	NL_HASH_SLOTS = 1 << 17, /* processes' hash table: twice the most */
};

/* A process of the log. */
struct nl_proc {
	char key[NL_KEY_BYTES]; /* HOST:PID */
	int64_t rank;           /* its rank in the world communicator, -1 until known */
	uint32_t n_ops;         /* its operations */
};

/* A process's communicator (its Init line). */
struct nl_comm {
	uint32_t proc;          /* the process */
	uint64_t ptr;           /* its comm pointer there */
	uint64_t id;            /* commId: the same at every rank */
	uint32_t rank, nranks;  /* the process's rank in it, its size */
};

/* An operation line. */
struct nl_op {
	uint32_t proc;          /* the process */
	uint32_t comm;          /* its communicator (index), resolved after reading */
	uint64_t ptr;           /* comm pointer as logged */
	uint64_t count;         /* count */
	uint32_t dtype;         /* datatype */
	uint32_t root;          /* root (Send, Recv: the peer's rank in the communicator) */
	uint32_t nranks;        /* [nranks=N] */
	uint32_t line;          /* where */
	uint8_t kind;           /* enum nl_kind */
};

enum nl_kind { NL_ALL_REDUCE, NL_ALL_GATHER, NL_REDUCE_SCATTER, NL_BROADCAST, NL_SEND, NL_RECV, NL_REDUCE };

static const char *const nl_kinds[] = { "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Send",
					"Recv", "Reduce", NULL };

/* Bytes of NCCL's datatypes, by value (ncclInt8 .. ncclFloat8e5m2). */
static const uint8_t nl_dtype_bytes[] = { 1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1 };

/* A communicator entry's place, by two numbers (sorted for lookups). */
struct nl_ix {
	uint64_t a, b;          /* (process, pointer) or (commId, rank) */
	uint32_t i;             /* the entry */
};

struct nl_log {
	struct nl_proc *procs;
	uint32_t n_procs, cap_procs;
	uint32_t *slots;        /* NL_HASH_SLOTS: process index + 1 by its key's hash, 0 free */
	struct nl_ix *by_ptr;   /* comms by (process, pointer), once read */
	struct nl_ix *by_rank;  /* comms by (commId, rank), once read */
	struct nl_comm *comms;
	uint32_t n_comms, cap_comms;
	struct nl_op *ops;
	uint32_t n_ops, cap_ops;
};

/* The number after @word in @s (decimal, or hex after "0x"), into *@v:
 * false when @word is not there. */
static bool nl_num(const char *s, const char *word, uint64_t *v)
{
	const char *p = strstr(s, word);
	char *end;

	if (!p)
		return false;
	p += strlen(word);
	*v = strtoull(p, &end, strncmp(p, "0x", 2) == 0 ? 16 : 10);
	return end != p;
}

/* The process of line @s (the token before " [DEV] NCCL INFO" without its
 * ":TID"), added when new: its index, or -1 when the line has no such
 * prefix; -ENOMEM as -2. */
static int64_t nl_proc(struct nl_log *g, const char *s, const char *info)
{
	const char *close = info - 2, *open, *start;
	char key[NL_KEY_BYTES];
	size_t len;
	char *colon;

	if (info - s < 4 || close[0] != ']' || close[1] != ' ')
		return -1;
	for (open = close; open > s && *open != '['; open--)
		;
	if (*open != '[' || open - s < 2 || open[-1] != ' ')
		return -1;
	for (start = open - 1; start > s && start[-1] != ' '; start--)
		;
	len = (size_t)(open - 1 - start);
	if (!len || len >= sizeof(key))
		return -1;
	memcpy(key, start, len);
	key[len] = 0;
	if ((colon = strrchr(key, ':')))
		*colon = 0; /* HOST:PID:TID -> HOST:PID */
	/* FNV-1a of the key, probed linearly. */
	uint32_t h = 2166136261u, slot;

	for (const char *c = key; *c; c++)
		h = (h ^ (uint8_t)*c) * 16777619u;
	if (!g->slots && !(g->slots = calloc(NL_HASH_SLOTS, sizeof(*g->slots))))
		return -2;
	for (slot = h & (NL_HASH_SLOTS - 1); g->slots[slot]; slot = (slot + 1) & (NL_HASH_SLOTS - 1))
		if (strcmp(g->procs[g->slots[slot] - 1].key, key) == 0)
			return g->slots[slot] - 1;
	if (g->n_procs == NL_MAX_PROCS ||
	    tg_trace_grow((void **)&g->procs, &g->cap_procs, g->n_procs, sizeof(*g->procs)) != 0)
		return -2;
	snprintf(g->procs[g->n_procs].key, NL_KEY_BYTES, "%s", key);
	g->procs[g->n_procs].rank = -1;
	g->procs[g->n_procs].n_ops = 0;
	g->slots[slot] = g->n_procs + 1;
	return g->n_procs++;
}

/* Line @s (NUL-terminated, number @no) into @g. */
static int nl_line(struct nl_log *g, const char *s, uint32_t no)
{
	const char *info = strstr(s, "NCCL INFO ");
	const char *body;
	int64_t proc;
	uint64_t v;

	if (!info)
		return 0;
	body = info + 10;
	if ((proc = nl_proc(g, s, info)) == -1)
		return 0;
	if (proc < 0)
		return -ENOMEM;
	if (strncmp(body, "comm 0x", 7) == 0 && strstr(body, "Init COMPLETE")) {
		struct nl_comm c = { .proc = (uint32_t)proc };
		uint64_t r, n;

		if (!nl_num(body, "comm ", &c.ptr) || !nl_num(body, " rank ", &r) ||
		    !nl_num(body, " nranks ", &n) || !nl_num(body, " commId ", &c.id) || n == 0 ||
		    n > NL_MAX_PROCS || r >= n)
			return 0;
		c.rank = (uint32_t)r;
		c.nranks = (uint32_t)n;
		if (tg_trace_grow((void **)&g->comms, &g->cap_comms, g->n_comms, sizeof(*g->comms)) != 0)
			return -ENOMEM;
		g->comms[g->n_comms++] = c;
		return 0;
	}
	for (int k = 0; nl_kinds[k]; k++) {
		size_t len = strlen(nl_kinds[k]);
		struct nl_op o = { .proc = (uint32_t)proc, .kind = (uint8_t)k, .line = no };

		if (strncmp(body, nl_kinds[k], len) != 0 || strncmp(body + len, ": opCount ", 10) != 0)
			continue;
		if (!nl_num(body, " count ", &o.count) || !nl_num(body, " datatype ", &v))
			return 0;
		o.dtype = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		if (!nl_num(body, " root ", &v) || !nl_num(body, " comm ", &o.ptr))
			return 0;
		o.root = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		o.nranks = nl_num(body, "[nranks=", &v) && v <= NL_MAX_PROCS ? (uint32_t)v : 0;
		if (tg_trace_grow((void **)&g->ops, &g->cap_ops, g->n_ops, sizeof(*g->ops)) != 0)
			return -ENOMEM;
		g->ops[g->n_ops++] = o;
		g->procs[proc].n_ops++;
		return 0;
	}
	return 0;
}

static int nl_ix_cmp(const void *x, const void *y)
{
	const struct nl_ix *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

/* The lookups' sorted indices of the communicators. 0 or -ENOMEM. */
static int nl_index(struct nl_log *g)
{
	size_t m = g->n_comms ? g->n_comms : 1;

	if (!(g->by_ptr = malloc(sizeof(*g->by_ptr) * m)) || !(g->by_rank = malloc(sizeof(*g->by_rank) * m)))
		return -ENOMEM;
	for (uint32_t i = 0; i < g->n_comms; i++) {
		g->by_ptr[i] = (struct nl_ix){ .a = g->comms[i].proc, .b = g->comms[i].ptr, .i = i };
		g->by_rank[i] = (struct nl_ix){ .a = g->comms[i].id, .b = g->comms[i].rank, .i = i };
	}
	if (g->n_comms) {
		qsort(g->by_ptr, g->n_comms, sizeof(*g->by_ptr), nl_ix_cmp);
		qsort(g->by_rank, g->n_comms, sizeof(*g->by_rank), nl_ix_cmp);
	}
	return 0;
}

/* The place in sorted @v (@n of them) of its first entry with (@a, @b),
 * or -1. */
static int64_t nl_find(const struct nl_ix *v, uint32_t n, uint64_t a, uint64_t b)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].a < a || (v[mid].a == a && v[mid].b < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].a == a && v[lo].b == b ? (int64_t)lo : -1;
}

/* The communicator of process @proc whose pointer is @ptr, or -1: of its
 * Init lines the last (a pointer freed and taken again by a later
 * communicator is the later one's). */
static int64_t nl_comm_of(const struct nl_log *g, uint32_t proc, uint64_t ptr)
{
	int64_t k = nl_find(g->by_ptr, g->n_comms, proc, ptr);

	if (k < 0)
		return -1;
	while ((uint32_t)k + 1 < g->n_comms && g->by_ptr[k + 1].a == proc && g->by_ptr[k + 1].b == ptr)
		k++;
	return g->by_ptr[k].i;
}

/* The world rank of the process with rank @rank in communicator @id, or -1. */
static int64_t nl_peer(const struct nl_log *g, uint64_t id, uint32_t rank)
{
	int64_t k = nl_find(g->by_rank, g->n_comms, id, rank);

	return k < 0 ? -1 : g->procs[g->comms[g->by_rank[k].i].proc].rank;
}

/* Give every process its world rank (its rank in a largest communicator),
 * check the ranks against @in's hosts. */
static int nl_world(struct nl_log *g, const struct tg_trace_in *in, char err[CFG_ERR_BYTES])
{
	uint32_t most = 0, w = 0;

	for (uint32_t i = 0; i < g->n_comms; i++)
		if (g->comms[i].nranks > most) {
			most = g->comms[i].nranks;
			w = i;
		}
	if (!g->n_ops)
		return tg_trace_errf(err, in, 1, 1, "no collective or send in this NCCL log (NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS=INIT,COLL writes them)");
	if (!most)
		return tg_trace_errf(err, in, g->ops[0].line, 1, "no communicator's Init COMPLETE line (NCCL_DEBUG_SUBSYS=INIT): the ranks are unknown");
	for (uint32_t i = 0; i < g->n_comms; i++)
		if (g->comms[i].id == g->comms[w].id)
			g->procs[g->comms[i].proc].rank = g->comms[i].rank;
	uint32_t *owner = malloc(sizeof(*owner) * most);
	int rc = 0;

	if (!owner)
		return -ENOMEM;
	for (uint32_t r = 0; r < most; r++)
		owner[r] = UINT32_MAX;
	for (uint32_t p = 0; p < g->n_procs && rc == 0; p++) {
		int64_t r = g->procs[p].rank;

		if (g->procs[p].n_ops && r < 0)
			rc = tg_trace_errf(err, in, 1, 1, "process %s has operations but no rank in the largest communicator (%u ranks)",
					   g->procs[p].key, most);
		else if (r >= 0 && owner[r] != UINT32_MAX)
			rc = tg_trace_errf(err, in, 1, 1, "processes %s and %s both have rank %lld of the largest communicator",
					   g->procs[owner[r]].key, g->procs[p].key, (long long)r);
		else if (r >= 0)
			owner[r] = p;
	}
	free(owner);
	if (rc != 0)
		return rc;
	if (most != in->n_hosts)
		return tg_trace_errf(err, in, 1, 1, "the log's largest communicator has %u ranks, hosts %u (rank r is hosts[r])",
				     most, in->n_hosts);
	return 0;
}

/* Operation @o as the node @n of its rank (its previous node @prev, 0:
 * none). */
static int nl_node(const struct nl_log *g, const struct nl_op *o, struct tg_ck_node *n,
		   const struct tg_trace_in *in, char err[CFG_ERR_BYTES])
{
	const struct nl_comm *c = &g->comms[o->comm];
	uint64_t bytes;
	bool all = o->kind == NL_ALL_GATHER || o->kind == NL_REDUCE_SCATTER; /* count is a rank's part */

	if (o->dtype >= sizeof(nl_dtype_bytes))
		return tg_trace_errf(err, in, o->line, 1, "datatype %u is none of NCCL's (0..11)", o->dtype);
	if (o->kind == NL_REDUCE)
		return tg_trace_errf(err, in, o->line, 1, "a Reduce: not modelled (AllReduce, AllGather, ReduceScatter, Broadcast, Send and Recv are)");
	bytes = o->count * nl_dtype_bytes[o->dtype];
	/* The collective's S: the buffer every rank shares (a rank's part
	 * times the ranks for AllGather and ReduceScatter). */
	if (o->count > TG_WL_MAX_MSG_BYTES || bytes > TG_WL_MAX_MSG_BYTES / (all ? c->nranks : 1))
		return tg_trace_errf(err, in, o->line, 1, "count %" PRIu64 "%s: more than %llu bytes", o->count,
				     all ? " x the communicator's ranks" : "",
				     (unsigned long long)TG_WL_MAX_MSG_BYTES);
	n->comm_size = (int64_t)(all ? bytes * c->nranks : bytes);
	n->has = CK_HAS_SIZE;
	if (o->kind == NL_SEND || o->kind == NL_RECV) {
		int64_t peer = o->root < c->nranks ? nl_peer(g, c->id, o->root) : -1;

		if (peer < 0)
			return tg_trace_errf(err, in, o->line, 1, "a %s with rank %u of a communicator of %u ranks, which no process's Init line gives",
					     nl_kinds[o->kind], o->root, c->nranks);
		n->type = o->kind == NL_SEND ? CK_SEND : CK_RECV;
		n->comm_dst = n->comm_src = peer;
		n->comm_tag = (int64_t)(c->id & 0x7fffffff); /* sends of one communicator */
		n->has |= (o->kind == NL_SEND ? CK_HAS_DST : CK_HAS_SRC) | CK_HAS_TAG;
		return 0;
	}
	static const int64_t types[] = { [NL_ALL_REDUCE] = 0, [NL_ALL_GATHER] = 2, [NL_REDUCE_SCATTER] = 7,
					 [NL_BROADCAST] = 5 };
	n->type = CK_COLL;
	n->comm_type = types[o->kind];
	snprintf(n->pg, sizeof(n->pg), "%016" PRIx64, c->id);
	n->has |= CK_HAS_TYPE | CK_HAS_PG;
	return 0;
}

/* Every rank of a communicator logs as many collectives on it as the
 * others (else lines are missing: a collective at some of its ranks
 * only). */
static int nl_counts(const struct nl_log *g, const struct tg_trace_in *in, char err[CFG_ERR_BYTES])
{
	size_t m = g->n_comms ? g->n_comms : 1;
	uint32_t *n = calloc(m, sizeof(*n)), *last = calloc(m, sizeof(*last));
	struct nl_ix *k = malloc(sizeof(*k) * m);
	int rc = 0;

	if (!n || !last || !k) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < g->n_ops; i++)
		if (g->ops[i].kind != NL_SEND && g->ops[i].kind != NL_RECV) {
			n[g->ops[i].comm]++;
			last[g->ops[i].comm] = g->ops[i].line;
		}
	for (uint32_t i = 0; i < g->n_comms; i++)
		k[i] = (struct nl_ix){ .a = g->comms[i].id, .i = i };
	if (g->n_comms)
		qsort(k, g->n_comms, sizeof(*k), nl_ix_cmp);
	for (uint32_t i = 0, j; i < g->n_comms && rc == 0; i = j) {
		uint32_t hi = k[i].i, lo = k[i].i;

		for (j = i; j < g->n_comms && k[j].a == k[i].a; j++) {
			hi = n[k[j].i] > n[hi] ? k[j].i : hi;
			lo = n[k[j].i] < n[lo] ? k[j].i : lo;
		}
		if (n[hi] != n[lo])
			rc = tg_trace_errf(err, in, last[hi], 1, "%s logs %u collectives on communicator %016" PRIx64 ", %s %u: the log misses lines of some rank",
					   g->procs[g->comms[hi].proc].key, n[hi], k[i].a, g->procs[g->comms[lo].proc].key,
					   n[lo]);
	}
out:
	free(n);
	free(last);
	free(k);
	return rc;
}

static int nl_read(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	struct nl_log g = { 0 };
	struct tg_ck_trace t = { 0 };
	struct tg_trace_line l;
	const char *pos = in->text;
	uint32_t no = 0;
	int rc = 0;

	while (rc == 0 && tg_trace_next_line(&pos, &no, &l)) {
		char buf[NL_LINE_BYTES];
		size_t len = l.len < sizeof(buf) - 1 ? l.len : sizeof(buf) - 1;

		memcpy(buf, l.s, len);
		buf[len] = 0;
		rc = nl_line(&g, buf, l.no);
	}
	if (rc == 0)
		rc = nl_index(&g);
	if (rc == 0)
		rc = nl_world(&g, in, err);
	for (uint32_t i = 0; i < g.n_ops && rc == 0; i++) {
		int64_t c = nl_comm_of(&g, g.ops[i].proc, g.ops[i].ptr);

		if (c < 0)
			rc = tg_trace_errf(err, in, g.ops[i].line, 1, "comm 0x%" PRIx64 " of %s has no Init COMPLETE line",
					   g.ops[i].ptr, g.procs[g.ops[i].proc].key);
		else
			g.ops[i].comm = (uint32_t)c;
	}
	if (rc == 0) {
		t.n = in->n_hosts;
		if (!(t.ranks = calloc(t.n, sizeof(*t.ranks))))
			rc = -ENOMEM;
	}
	for (uint32_t r = 0; r < t.n && rc == 0; r++)
		snprintf(t.ranks[r].path, sizeof(t.ranks[r].path), "%s", in->path);
	for (uint32_t p = 0; p < g.n_procs && rc == 0; p++) {
		struct tg_ck_rank *rk = g.procs[p].n_ops ? &t.ranks[g.procs[p].rank] : NULL;

		if (!rk)
			continue;
		if (!(rk->nodes = calloc(g.procs[p].n_ops, sizeof(*rk->nodes))))
			rc = -ENOMEM;
		rk->cap_nodes = g.procs[p].n_ops;
	}
	/* Each process's operations in order, each waiting for the one before. */
	for (uint32_t i = 0; i < g.n_ops && rc == 0; i++) {
		struct tg_ck_rank *rk = &t.ranks[g.procs[g.ops[i].proc].rank];
		struct tg_ck_node *n = &rk->nodes[rk->n_nodes];

		n->id = rk->n_nodes + 1;
		n->no = g.ops[i].line;
		n->dep_off = rk->n_dep_ids;
		if ((rc = nl_node(&g, &g.ops[i], n, in, err)) != 0)
			break;
		if (rk->n_nodes) {
			if ((rc = tg_trace_grow((void **)&rk->dep_ids, &rk->cap_dep_ids, rk->n_dep_ids,
						sizeof(*rk->dep_ids))) != 0)
				break;
			rk->dep_ids[rk->n_dep_ids++] = n->id - 1;
			n->n_deps = 1;
		}
		rk->n_nodes++;
	}
	if (rc == 0)
		rc = nl_counts(&g, in, err);
	if (rc == 0)
		rc = tg_ck_build(&t, in, out, err);
	tg_ck_free(&t);
	free(g.procs);
	free(g.slots);
	free(g.comms);
	free(g.by_ptr);
	free(g.by_rank);
	free(g.ops);
	return rc;
}

const struct tg_trace_format tg_trace_nccllog_format = {
	.kind = { "nccl-log", "NCCL's INFO log of a job (NCCL_DEBUG_SUBSYS=INIT,COLL), every process's lines in one file: its collectives, sends and receives in each process's order" },
	.read = nl_read,
	.takes = TG_TRACE_COLLS,
	.file_noun = "an NCCL log",
};
