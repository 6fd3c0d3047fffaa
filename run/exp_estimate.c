/* The size of a run, estimated before it is built: the counts each
 * workload works out from its keys before it expands (tg_wl_admit), held
 * to the experiment's message cap, and the memory those, the fabric and
 * the packet pool will take, held to engine.max_memory or the machine's
 * physical memory. The loader refuses a workload that would pass either
 * before it makes anything; `fabemu check` prints the estimate before a
 * run. The sizes per item were measured (peak RSS of runs of 0.25 to 4
 * million messages, of 3 to 6 million graph operations, of fabrics of
 * 4096 to 32768 hosts) and are rounded up: the estimate errs high. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "exp_int.h"
#include "fabric.h"
#include "pkt.h"

enum {
	/* A message: the experiment's list (grown by doubling), the traffic
	 * generator's record, slot and sort key, and a work request at each
	 * end of its QP, in rings rounded up to a power of two. */
	EXP_EST_MSG_BYTES = 448,
	/* A QP pair: two line-aligned struct nic_qp (664 bytes each), their
	 * congestion-control state, rings and event sources. */
	EXP_EST_QP_BYTES = 1792,
	/* A graph operation: the graph's node (grown by doubling), the
	 * generator's copy, its successor offset, count, start, end and event. */
	EXP_EST_OP_BYTES = 160,
	/* An edge: the graph's list (grown by doubling) and the successor list. */
	EXP_EST_DEP_BYTES = 12,
	/* A collective instance or a training step: its record and state. */
	EXP_EST_COLL_BYTES = 64,
	/* A host: its NIC. A link: its two ports, their queues and the
	 * switches' share of forwarding tables. */
	EXP_EST_HOST_BYTES = 4096,
	EXP_EST_LINK_BYTES = 4608,
	/* The program, its libraries and the EAL's own tables. */
	EXP_EST_BASE_BYTES = 16 << 20,
	/* A packet pool object's header and the mbuf's line rounding. */
	EXP_EST_PKT_HEADER_BYTES = 64,
};

#define EXP_EST_GRAPH_MAX UINT64_C(0xffffffff) /* graph indices are 32-bit */

static uint64_t exp_est_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t exp_est_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The machine's physical memory, or UINT64_MAX when it cannot say. */
static uint64_t exp_est_phys_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);

	return pages > 0 && page > 0 ? exp_est_mul((uint64_t)pages, (uint64_t)page) : UINT64_MAX;
}

/* The bytes of @pkts packets of the pool @e needs (sim_pool_create's
 * layout, rounded up) and of its ring of pointers. */
static uint64_t exp_est_pool_bytes(const struct exp *e, uint64_t pkts)
{
	uint64_t meta = RTE_ALIGN(sizeof(struct pkt_meta), RTE_MBUF_PRIV_ALIGN);
	uint64_t obj = sizeof(struct rte_mbuf) + meta + fabric_data_room(e) + EXP_EST_PKT_HEADER_BYTES;
	uint64_t ring = 1;

	while (ring < pkts + 1)
		ring *= 2;
	return exp_est_add(exp_est_mul(pkts, RTE_ALIGN_CEIL(obj, RTE_CACHE_LINE_SIZE)),
			   ring * sizeof(void *));
}

/* The memory of @est's counts (colls: collective instances and steps;
 * data: bytes of data regions), the fabric of @e and a pool of @pkts
 * packets, and the bound, into @est. */
static void exp_est_fill(const struct exp *e, uint64_t colls, uint64_t data, uint64_t pkts,
			 struct exp_estimate *est)
{
	const struct topo *t = e->topo;
	uint64_t phys = exp_est_phys_bytes();

	est->traffic_bytes = exp_est_add(exp_est_add(exp_est_mul(est->msgs, EXP_EST_MSG_BYTES),
						     exp_est_mul(est->qp_pairs, EXP_EST_QP_BYTES)),
					 exp_est_add(exp_est_mul(colls, EXP_EST_COLL_BYTES), data));
	est->graph_bytes = exp_est_add(exp_est_mul(est->ops, EXP_EST_OP_BYTES),
				       exp_est_mul(est->deps, EXP_EST_DEP_BYTES));
	est->fabric_bytes = EXP_EST_BASE_BYTES +
			    (t ? (uint64_t)t->n_hosts * EXP_EST_HOST_BYTES +
					 (uint64_t)t->n_links * EXP_EST_LINK_BYTES
			       : 0);
	est->pool_bytes = exp_est_pool_bytes(e, pkts);
	est->total_bytes = exp_est_add(exp_est_add(est->traffic_bytes, est->graph_bytes),
				       exp_est_add(est->fabric_bytes, est->pool_bytes));
	est->bound_set = e->max_memory_bytes != 0;
	est->bound_bytes = est->bound_set ? e->max_memory_bytes : phys;
}

/* The bytes of the data regions of @e's data-carrying collectives. */
static uint64_t exp_est_data_bytes(const struct exp *e)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < e->graph.data.n_sets; i++)
		sum = exp_est_add(sum, exp_est_mul(e->graph.data.sets[i].n_ranks,
						   e->graph.data.sets[i].region_bytes));
	return exp_est_add(sum, exp_est_mul(e->graph.data.n_xfers, sizeof(struct tg_data_xfer)));
}

int exp_estimate(const struct exp *e, struct exp_estimate *out)
{
	memset(out, 0, sizeof(*out));
	out->msgs = e->n_msgs;
	out->qp_pairs = e->qp_pairs_est;
	out->ops = e->graph.n_ops;
	out->deps = e->graph.n_deps;
	/* A run to completion keeps a record of every streamed message (its
	 * FCT, for the statistics); one stopped at stop_time only those done
	 * by then, which are not known here. */
	exp_est_fill(e, (uint64_t)e->n_colls + e->n_steps,
		     exp_est_add(exp_est_data_bytes(e),
				 e->stop_ps ? 0 : tg_graph_stream_done_bytes(&e->graph)),
		     fabric_pool_pkts(e), out);
	return out->total_bytes > out->bound_bytes ? -E2BIG : 0;
}

/* @bytes as "1.2 GiB" (MiB below a GiB) into @buf. */
static const char *exp_est_size(uint64_t bytes, char buf[24])
{
	if (bytes >= UINT64_C(1) << 30)
		snprintf(buf, 24, "%.1f GiB", (double)bytes / (double)(UINT64_C(1) << 30));
	else
		snprintf(buf, 24, "%.1f MiB", (double)bytes / (double)(1 << 20));
	return buf;
}

/* "about X GiB (messages ..., packet pool ...)" into @buf. */
static void exp_est_parts(const struct exp_estimate *est, char *buf, size_t size)
{
	char a[24], b[24], c[24], d[24], f[24];

	snprintf(buf, size, "about %s (messages %s, graph %s, fabric %s, packet pool %s)",
		 exp_est_size(est->total_bytes, a), exp_est_size(est->traffic_bytes, b),
		 exp_est_size(est->graph_bytes, c), exp_est_size(est->fabric_bytes, d),
		 exp_est_size(est->pool_bytes, f));
}

/* "engine.max_memory (8.0 GiB)" or "this machine's 31.3 GiB of physical
 * memory" into @buf. */
static void exp_est_bound(const struct exp_estimate *est, char *buf, size_t size)
{
	char a[24];

	if (est->bound_set)
		snprintf(buf, size, "engine.max_memory (%s)", exp_est_size(est->bound_bytes, a));
	else
		snprintf(buf, size, "this machine's %s of physical memory",
			 exp_est_size(est->bound_bytes, a));
}

void exp_estimate_print(const struct exp *e, FILE *f)
{
	struct exp_estimate est;
	char parts[200], bound[96];

	exp_estimate(e, &est);
	exp_est_parts(&est, parts, sizeof(parts));
	exp_est_bound(&est, bound, sizeof(bound));
	fprintf(f, "check: memory: %s for %llu messages and %llu graph operations; bound: %s\n", parts,
		(unsigned long long)est.msgs, (unsigned long long)est.ops, bound);
	fflush(f);
}

/* @v with thousands separators into @buf (a locale-free "31,457,280"). */
static const char *exp_est_count(uint64_t v, char buf[32])
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), k = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = '\0';
	return buf;
}

/* The workload's name for messages: its name key when it is one
 * (letters, digits, '_' and '-', checked later), else <kind><index>. */
static void exp_est_name(const struct exp *e, const struct cfg_node *at, const char *kind,
			 char buf[32])
{
	const struct cfg_node *n = cfg_get(at, "name");
	size_t len = n && n->type == CFG_SCALAR ? strlen(n->str) : 0;

	if (len && len < 32 && strspn(n->str, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					      "0123456789_-") == len)
		snprintf(buf, 32, "%s", n->str);
	else
		snprintf(buf, 32, "%s%u", kind, e->n_workloads);
}

int exp_estimate_admit(void *arg, const struct cfg_node *at, const char *kind,
		       const struct tg_wl_est *w, char err[CFG_ERR_BYTES])
{
	const struct exp *e = arg;
	struct exp_estimate est = { 0 };
	char name[32], a[32], b[32], with[80] = "", parts[200], bound[96];
	uint64_t pkts = e->engine.pool_pkts;

	exp_est_name(e, at, kind, name);
	est.msgs = exp_est_add(e->n_msgs, w->msgs);
	if (e->n_msgs)
		snprintf(with, sizeof(with), ", %s with the workloads before it",
			 exp_est_count(est.msgs, b));
	if (est.msgs > EXP_MAX_MSGS) {
		cfg_errorf(err, at, "%s '%s': about %s messages%s (at most %s in one experiment; %s)",
			   kind, name, exp_est_count(w->msgs, a), with, exp_est_count(EXP_MAX_MSGS, b),
			   w->lower);
		return -EINVAL;
	}
	est.ops = exp_est_add(e->graph.n_ops, w->ops);
	est.deps = exp_est_add(e->graph.n_deps, w->deps);
	if (est.ops > EXP_EST_GRAPH_MAX || est.deps > EXP_EST_GRAPH_MAX) {
		cfg_errorf(err, at,
			   "%s '%s': about %s dependency-graph %s (at most %s in one experiment; %s)", kind, name, exp_est_count(est.ops > EXP_EST_GRAPH_MAX ? est.ops : est.deps, a),
			   est.ops > EXP_EST_GRAPH_MAX ? "operations" : "edges",
			   exp_est_count(EXP_EST_GRAPH_MAX, b), w->lower);
		return -EINVAL;
	}
	/* The pool as set, or the loader's default: what it sizes itself to
	 * beyond that follows the traffic, and is checked once it is known
	 * (exp_estimate_check). */
	if (!pkts)
		pkts = e->nic.payload ? EXP_POOL_PAYLOAD_PKTS : EXP_POOL_HEADERS_PKTS;
	est.qp_pairs = exp_est_add(e->qp_pairs_est, w->qp_pairs);
	exp_est_fill(e, exp_est_add((uint64_t)e->n_colls + e->n_steps, exp_est_add(w->colls, w->steps)),
		     exp_est_add(exp_est_data_bytes(e), exp_est_mul(w->data_xfers,
								    sizeof(struct tg_data_xfer))),
		     pkts, &est);
	if (est.total_bytes > est.bound_bytes) {
		exp_est_parts(&est, parts, sizeof(parts));
		exp_est_bound(&est, bound, sizeof(bound));
		cfg_errorf(err, at, "%s '%s': the run would take %s, more than %s; %s", kind, name, parts,
			   bound, w->lower);
		return -EINVAL;
	}
	return 0;
}

int exp_estimate_check(const struct exp *e, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	struct exp_estimate est;
	char parts[200], bound[96];

	if (exp_estimate(e, &est) == 0)
		return 0;
	exp_est_parts(&est, parts, sizeof(parts));
	exp_est_bound(&est, bound, sizeof(bound));
	cfg_errorf(err, at, "the run would take %s, more than %s (a smaller fabric, traffic or "
		   "engine.packet_pool%s)", parts, bound,
		   e->graph.n_streams && !e->stop_ps
			   ? "; a stop_time: run to completion, every streamed message's record is kept"
			   : "");
	return -EINVAL;
}
