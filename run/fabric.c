/* Wiring of one experiment (see fabric.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "addr.h"
#include "capture.h"
#include "fabric.h"
#include "faults.h"
#include "link_layer.h"
#include "par.h"
#include "pkt_telemetry.h"

struct port *fabric_port(struct fabric *f, uint32_t node, uint16_t p)
{
	const struct topo_node *n = &f->topo->nodes[node];

	return n->kind == TOPO_HOST ? nic_port(f->nics[n->index], p) : sw_port(f->sws[n->index], p);
}

void fabric_port_mac(const struct topo *t, uint32_t node, uint16_t p, uint8_t mac[6])
{
	const struct topo_node *n = &t->nodes[node];

	if (n->kind == TOPO_HOST)
		addr_host_port_mac(n->index, p, mac);
	else
		sw_port_mac(n->index, p, mac);
}

/* The path a message takes from endpoint @src to endpoint @dst,
 * following the first equal-cost choice (topo_path), with the rate and
 * delay of each link. */
static int fabric_path(void *arg, uint32_t src, uint32_t dst, struct tg_path *out)
{
	const struct fabric *f = arg;
	uint32_t links[TG_MAX_HOPS];
	int n;

	if (src == dst) {
		/* An in-network reduction's member: up its link and back. */
		const struct topo_ep *e = &f->topo->eps[src];
		uint32_t l = f->topo->nodes[e->node].port_links[e->port];

		if (l == TOPO_NO_LINK)
			return -EINVAL;
		out->n_hops = 2;
		out->rate_bps[0] = out->rate_bps[1] = f->topo->links[l].rate_bps;
		out->delay_ps[0] = out->delay_ps[1] = f->topo->links[l].delay_ps;
		return 0;
	}
	n = topo_path(f->routes, f->topo, src, dst, links, TG_MAX_HOPS);

	if (n < 0)
		return -EINVAL;
	out->n_hops = (uint32_t)n;
	for (int i = 0; i < n; i++) {
		out->rate_bps[i] = f->topo->links[links[i]].rate_bps;
		out->delay_ps[i] = f->topo->links[links[i]].delay_ps;
	}
	return 0;
}

uint16_t fabric_data_room(const struct exp *e)
{
	/* Headers need at most 18 + 20 + 8 + 12 + 16 + 4 = 78 bytes (a CNP or
	 * an empty WRITE ONLY, written whole with its ICRC); payload adds one
	 * MTU, pad and ICRC. With INT (fabric.int), a full stack of
	 * PKT_INT_MAX_BYTES more, on data packets and the ACKs echoing it. */
	uint32_t int_bytes = e->sw.int_on ? PKT_INT_MAX_BYTES : 0;

	uint32_t room = e->nic.payload ? e->nic.mtu_bytes + 128 + int_bytes : 96 + int_bytes;

	/* UET's request headers (PDS and SES) are 56 bytes, not 28: a data
	 * packet's headers take up to 18 + 20 + 8 + 56 = 102. */
	if (!e->nic.payload && e->ll->wire && e->ll->wire->kind == PKT_LL_UET)
		room += 16;

	/* Live ports' frames are held whole: Ethernet, a VLAN tag, the MTU. */
	if (e->live.n_ports && room < e->live.mtu_bytes + PKT_ETH_BYTES + PKT_VLAN_BYTES)
		room = (uint32_t)e->live.mtu_bytes + PKT_ETH_BYTES + PKT_VLAN_BYTES;
	return (uint16_t)room;
}

uint32_t fabric_pool_pkts(const struct exp *e)
{
	enum {
		MIN_FRAME_BYTES = 64,       /* the least a frame takes in a buffer or on a wire */
		NIC_SLACK_PKTS = 256,       /* per host: frames its NIC holds (queues, frame in build) */
		TRAFFIC_SLACK_PKTS = 4096,  /* control frames (CNPs, PFC) and retransmissions */
	};
	const struct cfg_node *root = cfg_doc_root(e->doc), *eng;
	const struct topo *t = e->topo;
	double fab = 0, traffic = 0, n;

	if (root && (eng = cfg_get(root, "engine")) != NULL && cfg_get(eng, "packet_pool"))
		return e->engine.pool_pkts; /* the user's choice, --set included */
	/* What the fabric can hold at once: every switch buffer full of
	 * minimum-size frames, every link direction full of them in flight
	 * (plus one being sent and one arriving), and the NICs' own. */
	fab = (double)t->n_switches * (double)(e->sw.buffer_bytes / MIN_FRAME_BYTES) +
	      (double)t->n_hosts * NIC_SLACK_PKTS;
	for (uint32_t i = 0; i < t->n_links; i++)
		fab += 2.0 * ((double)t->links[i].delay_ps * 1e-12 * (double)t->links[i].rate_bps /
				      (8.0 * MIN_FRAME_BYTES) + 2.0);
	/* What the traffic can put in it: each data packet sent once and
	 * again after each of the retry_cnt timeouts a QP survives (copies
	 * can coexist: a timeout does not recall the frames still queued),
	 * and one ACK for each. */
	for (uint32_t i = 0; i < e->n_msgs; i++)
		traffic += (double)((e->msgs[i].bytes + e->nic.mtu_bytes - 1) / e->nic.mtu_bytes + 1);
	traffic += tg_graph_stream_pkts(&e->graph, e->nic.mtu_bytes); /* streamed collectives */
	traffic = traffic * (e->nic.retry_cnt + 2.0) + TRAFFIC_SLACK_PKTS;
	n = fab < traffic ? fab : traffic;
	/* Never less than the loader's fixed default (what every run had
	 * before). Never more than 2^20 on its own: the pool's ring takes 8
	 * bytes a packet from start-up whether the packets are made or not,
	 * and the bound above is loose for large fabrics (a k=16 permutation
	 * of 2 MB needs 37,000 to 309,000 packets, T says 4.5 million). A run
	 * that needs more says so (not valid, pool ran dry) and
	 * engine.packet_pool raises it. */
	if (n > (double)FABRIC_POOL_AUTO_MAX_PKTS)
		n = (double)FABRIC_POOL_AUTO_MAX_PKTS;
	if (n < (double)e->engine.pool_pkts)
		n = (double)e->engine.pool_pkts;
	return (uint32_t)n;
}

unsigned fabric_eal_mem_mb(const struct exp *e)
{
	/* Packets live outside the EAL's memory (sim_pool_create); the EAL
	 * holds the pool's ring and its own tables. The ring keeps a slot
	 * free: a pointer per packet plus one, rounded up to a power of two
	 * (a pool of 2^k packets has a ring of 2^(k+1) slots). */
	uint64_t ring_bytes = rte_align64pow2((uint64_t)e->engine.pool_pkts + 1) * sizeof(void *);

	unsigned extra = 0, parts = e->partitions ? e->partitions : e->threads;

	/* A parallel run has a pool per partition (the first one the root's),
	 * each with its ring and its header, which holds a cache per lcore
	 * (RTE_MAX_LCORE of them, about 1 MiB). */
	if (parts > 1) {
		ring_bytes *= parts;
		extra = 2 * parts;
	}
	/* A live run's DPDK ports have buffers of their own (live/live.c):
	 * the MTU, headers, DPDK's headroom and the mbuf's header each. */
	if (e->live.n_ports)
		extra += (unsigned)(((uint64_t)EXP_LIVE_IO_MBUFS + 1) * (2 * e->live.mtu_bytes + 640) >> 20) + 8;
	return (unsigned)(ring_bytes >> 20) + 64 + extra;
}

double fabric_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every switch of @f, with @sp (@sp_up for the scale-up tier): its own
 * hash seed, path choice and rows of the forwarding table. 0 or -ENOMEM. */
static int fabric_switches(struct fabric *f, struct sw_params *sp, struct sw_params *sp_up)
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;
	struct topo_fib_buf fb = { 0 };
	int r = 0;

	for (uint32_t i = 0; i < t->n_switches && r == 0; i++) {
		uint32_t node = t->switches[i];
		bool up = t->nodes[node].tier == TOPO_TIER_SCALEUP;
		struct sw_params *swp = up ? sp_up : sp;
		struct fib_rows fib;
		struct rng rng;

		/* This switch's rows of the forwarding table, for sw_new to
		 * compress; the buffers are reused from switch to switch. */
		if (topo_fib_rows(f->routes, t, node, &fb, &fib) != 0) {
			r = -ENOMEM;
			break;
		}
		rng_init(&rng, e->seed, UINT64_C(0x65636d7000000000) + i);
		swp->hash_seed = rng_next(&rng);
		swp->path = sw_path_for_tier(&e->sw, t->nodes[node].tier);
		swp->tier = t->nodes[node].tier;
		f->sws[i] = sw_new(fabric_node_sim(f, node), node, i, t->nodes[node].n_ports, swp, &fib);
		if (!f->sws[i])
			r = -ENOMEM;
	}
	topo_fib_buf_free(&fb);
	return r;
}

/* Every NIC of @f with @np, its ports readied by the link layer. 0,
 * -ENOMEM, or -EINVAL with @err filled. */
static int fabric_nics(struct fabric *f, const struct nic_params *np, char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;

	for (uint32_t i = 0; i < t->n_hosts; i++) {
		uint32_t node = t->hosts[i];

		f->nics[i] = nic_new(fabric_node_sim(f, node), node, i, t->nodes[node].first_ep, t->nodes[node].n_ports,
				     np);
		if (!f->nics[i] && errno == EINVAL) {
			/* Not a memory problem: say so rather than hide it. */
			snprintf(err, CFG_ERR_BYTES,
				 "internal error: the NIC refused settings the loader accepted (nic.*)");
			return -EINVAL;
		}
		if (!f->nics[i])
			return -ENOMEM;
		if (f->exp->ll->nic_ready && f->exp->ll->nic_ready(f, i) != 0)
			return -ENOMEM;
	}
	return 0;
}

/* Every link of @f: its ports connected, fabric.loss, the next hops' MACs. */
static void fabric_links(struct fabric *f)
{
	const struct exp *e = f->exp;
	const struct topo *t = f->topo;

	for (uint32_t i = 0; i < t->n_links; i++) {
		const struct topo_link *l = &t->links[i];
		struct port *a = fabric_port(f, l->node[0], l->port[0]);
		struct port *b = fabric_port(f, l->node[1], l->port[1]);

		port_connect(a, b, l->rate_bps, l->delay_ps);
		if (e->loss > 0) {
			struct rng rng;

			rng_init(&rng, e->seed, UINT64_C(0x6c6f737300000000) + i);
			port_set_loss(a, e->loss, rng_next(&rng));
			port_set_loss(b, e->loss, rng_next(&rng));
		}
		for (int s = 0; s < 2; s++) {
			uint32_t me = l->node[s], peer = l->node[1 - s];
			uint8_t mac[6];

			fabric_port_mac(t, peer, l->port[1 - s], mac);
			if (t->nodes[me].kind == TOPO_HOST)
				nic_set_next_hop_mac(f->nics[t->nodes[me].index], l->port[s], mac);
			else
				sw_set_next_hop_mac(f->sws[t->nodes[me].index], l->port[s], mac);
		}
	}
}

int fabric_build(struct fabric *f, const struct exp *e, struct rte_mempool *pool, bool outputs,
		 char err[CFG_ERR_BYTES])
{
	double start = fabric_now_s();
	const struct topo *t = e->topo;
	const struct link_layer_ops *ll = e->ll;
	struct nic_params np;
	struct sw_params sp, sp_up;
	char cerr[CFG_ERR_BYTES];
	int r;

	memset(f, 0, sizeof(*f));
	f->exp = e;
	f->topo = t;
	if ((r = sim_init(&f->sim, e->seed, pool)) != 0) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return r;
	}
	f->sim.stop_ps = e->stop_ps;
	sim_new_src(&f->sim, &f->mon_src);
	if ((r = fabric_par_setup(f, outputs, err)) != 0)
		return r;
	if ((r = topo_routes_build(t, &f->routes, cerr)) != 0) {
		snprintf(err, CFG_ERR_BYTES, "%s", cerr);
		return r;
	}
	f->sws = calloc(t->n_switches ? t->n_switches : 1, sizeof(*f->sws));
	f->nics = calloc(t->n_hosts, sizeof(*f->nics));
	f->tg_eps = calloc(t->n_eps ? t->n_eps : 1, sizeof(*f->tg_eps));
	if (!f->sws || !f->nics || !f->tg_eps)
		goto nomem;
	for (uint32_t ep = 0; ep < t->n_eps; ep++)
		f->tg_eps[ep] = (struct tg_ep){ .nic = t->nodes[t->eps[ep].node].index,
						.port = t->eps[ep].port };
	np = e->nic;
	np.cc_cfg = e->cc_cfg; /* one copy for every NIC */
	for (int d = 0; d < 64; d++)
		np.dscp_to_tc[d] = e->sw.prio_to_tc[e->sw.dscp_to_prio[d]];
	np.sched = e->sw.sched;
	np.ll = ll->wire;
	if (ll->nic_params)
		ll->nic_params(e, &np);
	sp = e->sw;
	sp.max_frame_bytes = fabric_max_frame(&np);
	if (ll->switch_params)
		ll->switch_params(e, &sp);
	if (sw_params_scaleup(&sp, &sp_up) != 0 || fabric_switches(f, &sp, &sp_up) != 0)
		goto nomem;
	if ((r = fabric_nics(f, &np, err)) == -EINVAL)
		return r;
	if (r != 0)
		goto nomem;
	fabric_links(f);
	if (ll->wire_up && ll->wire_up(f, &np) != 0)
		goto nomem;
	if ((r = fabric_ready(f, err)) != 0)
		return r;
	/* What the outputs need before the traffic is posted: the sampler's
	 * first event comes before the traffic's at time 0, the PFC log's
	 * hooks; their files are opened by fabric_open_outputs. */
	if (outputs && (r = fabric_series_arm(f, err)) != 0)
		return r;
	if (outputs && (r = fabric_pfc_log_hook(f, err)) != 0)
		return r;
	fabric_deadlock_arm(f);
	fabric_progress_arm(f);
	{
		struct tg_framing fr = { .mtu_bytes = e->nic.mtu_bytes, .vlan = e->nic.vlan,
					 .ll = ll->wire, .ib_grh = np.ib_grh };

		f->tg = tg_new(&f->sim, f->nics, t->n_hosts, f->tg_eps, t->n_eps, e->msgs, e->n_msgs,
			       &e->graph, fabric_path, f, &fr, err);
		if (!f->tg)
			return -EINVAL;
	}
	if ((r = fabric_agg_setup(f, err)) != 0)
		return r;
	fabric_warn_rtt(f);
	if (outputs && (r = fabric_rates_list(f, err)) != 0)
		return r;
	if ((r = fabric_faults_arm(f, err)) != 0)
		return r;
	f->setup_s = fabric_now_s() - start;
	return 0;
nomem:
	snprintf(err, CFG_ERR_BYTES, "out of memory building the fabric");
	return -ENOMEM;
}

/* Rows of a switch's forwarding toward destination class @c (egress ports,
 * ascending) differ between @a and @b. */
static bool fabric_rows_differ(const struct fib_rows *a, const struct fib_rows *b, uint32_t c)
{
	uint32_t na = a->off[c + 1] - a->off[c], nb = b->off[c + 1] - b->off[c];

	return na != nb || memcmp(a->ports + a->off[c], b->ports + b->off[c], sizeof(*a->ports) * na) != 0;
}

int fabric_reroute(struct fabric *f, const uint8_t *link_down, char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;
	struct sw_fib_next **next = calloc(t->n_switches ? t->n_switches : 1, sizeof(*next));
	struct topo_routes *r = NULL;
	struct topo_fib_buf fb = { 0 }, ob = { 0 };
	uint64_t changed = 0;
	int rc = next ? topo_routes_build_avoiding(t, link_down, &r, err) : -ENOMEM;

	/* Every switch's new forwarding first, then all at once or none. */
	for (uint32_t i = 0; rc == 0 && i < t->n_switches; i++) {
		struct fib_rows fib, old;

		if ((rc = topo_fib_rows(r, t, t->switches[i], &fb, &fib)) == 0)
			rc = sw_fib_prepare(f->sws[i], &fib, &next[i]);
		/* How much changed: the (switch, destination class) rows whose
		 * ports differ from the forwarding in use (classes are the
		 * topology's, the same either way). */
		if (rc == 0 && (rc = topo_fib_rows(f->routes, t, t->switches[i], &ob, &old)) == 0)
			for (uint32_t c = 0; c < fib.n_classes && c < old.n_classes; c++)
				changed += fabric_rows_differ(&fib, &old, c);
		if (rc != 0)
			snprintf(err, CFG_ERR_BYTES, "rerouting %s: %s", t->nodes[t->switches[i]].name,
				 strerror(-rc));
	}
	topo_fib_buf_free(&fb);
	topo_fib_buf_free(&ob);
	for (uint32_t i = 0; next && i < t->n_switches; i++) {
		if (rc == 0)
			sw_fib_commit(f->sws[i], next[i]);
		else
			sw_fib_discard(next[i]);
	}
	free(next);
	if (rc != 0) {
		topo_routes_free(r);
		if (!next)
			snprintf(err, CFG_ERR_BYTES, "rerouting: out of memory");
		return rc;
	}
	topo_routes_free(f->routes);
	f->routes = r;
	f->reroute_changed = changed;
	return 0;
}

/* Progress on stderr: on a terminal a status line redrawn in place at most
 * every half second; elsewhere (a CI log) a plain line every 5 s.
 * FABEMU_PROGRESS_INTERVAL_MS sets the interval instead (for tests). The
 * simulation calls back every SIM_PROGRESS_EVENTS events, so a line can
 * come no more often than that. */
enum {
	FABRIC_PROGRESS_TTY_MS = 500,    /* redraw interval on a terminal */
	FABRIC_PROGRESS_PLAIN_MS = 5000, /* line interval elsewhere */
};

struct fabric_progress {
	const struct fabric *f;   /* what to report on */
	double start_s;           /* wall clock at start */
	double last_s;            /* last line */
	double interval_s;        /* between two lines */
	uint64_t last_events;     /* events at the last line */
	bool tty;                 /* stderr is a terminal: redraw with \r */
	bool shown;               /* a line was written */
};

static uint64_t fabric_done_count(void *arg)
{
	return tg_n_done(((const struct fabric_progress *)arg)->f->tg);
}

static void fabric_progress_cb(const struct sim *s, void *arg)
{
	struct fabric_progress *p = arg;
	uint64_t stop_ps = p->f->exp->stop_ps;
	double now = fabric_now_s(), wall_s = now - p->start_s, dt = now - p->last_s;
	char eta[64] = "";
	uint32_t n, done = tg_n_done(p->f->tg);

	if (dt < p->interval_s)
		return;
	if (stop_ps && s->now_ps > 0 && s->now_ps < stop_ps)
		snprintf(eta, sizeof(eta), " of %.3f ms (%.0f%%), ETA %.1f s",
			 units_ps_to_s(stop_ps) * 1e3, 100.0 * (double)s->now_ps / (double)stop_ps,
			 wall_s * (double)(stop_ps - s->now_ps) / (double)s->now_ps);
	tg_flows(p->f->tg, &n);
	if (s->progress_count)
		done = (uint32_t)s->progress_counted; /* over every process */
	/* Listed messages and streamed ones (made as they become ready). */
	fprintf(stderr, "%s[fabemu] t=%.3f ms%s  events=%llu (%.2f M/s)  messages %u/%llu done  %.1f s%s",
		p->tty ? "\r" : "", units_ps_to_s(s->now_ps) * 1e3, eta,
		(unsigned long long)s->n_events,
		dt > 0 ? (double)(s->n_events - p->last_events) / dt * 1e-6 : 0.0, done,
		(unsigned long long)n + tg_graph_stream_msgs(&p->f->exp->graph), wall_s,
		p->tty ? "\033[K" : "\n");
	fflush(stderr);
	p->last_s = now;
	p->last_events = s->n_events;
	p->shown = true;
}

void fabric_run(struct fabric *f, bool progress)
{
	struct fabric_progress p = { .f = f, .start_s = fabric_now_s() };
	const char *ms = getenv("FABEMU_PROGRESS_INTERVAL_MS");

	p.last_s = p.start_s;
	p.tty = isatty(STDERR_FILENO);
	p.interval_s = (p.tty ? FABRIC_PROGRESS_TTY_MS : FABRIC_PROGRESS_PLAIN_MS) * 1e-3;
	if (ms && *ms)
		p.interval_s = strtod(ms, NULL) * 1e-3;
	if (progress) {
		f->sim.progress = fabric_progress_cb;
		f->sim.progress_arg = &p;
		/* Split over processes: messages done over all of them (every
		 * process reports, process 0 prints). */
		if (f->par && f->exp->remote)
			f->sim.progress_count = fabric_done_count;
	}
	struct timespec c0, c1;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	if (f->par)
		par_run(f->par);
	else
		sim_run(&f->sim);
	f->wall_s = fabric_now_s() - p.start_s;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
	f->cpu_s = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
	if (progress && p.shown && p.tty)
		fprintf(stderr, "\r\033[K");
	f->sim.progress = NULL;
	f->sim.progress_count = NULL;
}

int fabric_open_outputs(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	int r;

	if ((r = fabric_captures_open(f, outdir, err)) != 0)
		return r;
	if ((r = fabric_series_open(f, outdir, err)) != 0)
		return r;
	if ((r = fabric_pfc_log_open(f, outdir, err)) != 0)
		return r;
	return fabric_rates_open(f, outdir, err);
}

void fabric_rec_writer(struct fabric *f, enum sim_rec_dest d, sim_rec_out out, void *dest)
{
	f->rec_writers[d] = (struct sim_rec_writer){ out, dest };
	if (f->par) {
		par_rec_writers(f->par, f->rec_writers);
	} else {
		f->rec.writers = f->rec_writers;
		f->sim.rec = &f->rec;
	}
}

int fabric_rec_flush(struct fabric *f)
{
	struct sim_rec *r = &f->rec;

	return f->sim.rec == r ? sim_rec_flush(&r, 1, f->rec_writers, UINT64_MAX) : 0;
}

int fabric_close_outputs(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	int rc = fabric_captures_close(f, err), r;
	char perr[CFG_ERR_BYTES];

	if ((r = fabric_pfc_log_close(f, outdir, perr)) != 0 && rc == 0) {
		snprintf(err, CFG_ERR_BYTES, "%s", perr);
		rc = r;
	}
	if (f->series) {
		int bad = ferror(f->series), e = errno;

		r = fclose(f->series) != 0 ? -errno : bad ? -(e ? e : EIO) : 0;
		f->series = NULL;
		if (r != 0 && rc == 0) {
			snprintf(err, CFG_ERR_BYTES, "%.400s/series.csv: cannot write: %s", outdir,
				 strerror(-r));
			rc = r;
		}
	}
	if (f->rates) {
		int bad = ferror(f->rates), e = errno;

		r = fclose(f->rates) != 0 ? -errno : bad ? -(e ? e : EIO) : 0;
		f->rates = NULL;
		if (r != 0 && rc == 0) {
			snprintf(err, CFG_ERR_BYTES, "%.400s/rates.csv: cannot write: %s", outdir,
				 strerror(-r));
			rc = r;
		}
	}
	return rc;
}

void fabric_free(struct fabric *f)
{
	const struct topo *t = f->topo;

	fabric_captures_free(f);
	fabric_pfc_log_free(f);
	f->sim.rec = NULL;
	sim_rec_free(&f->rec);
	if (f->series)
		fclose(f->series);
	if (f->rates)
		fclose(f->rates);
	free(f->rate_flows);
	free(f->mon_vals);
	fabric_faults_free(f);
	free(f->dl_next);
	free(f->dl_tx);
	tg_free(f->tg);
	for (uint32_t i = 0; t && f->sws && i < t->n_switches; i++)
		sw_free(f->sws[i]);
	for (uint32_t i = 0; t && f->nics && i < t->n_hosts; i++)
		nic_free(f->nics[i]);
	free(f->sws);
	free(f->nics);
	free(f->tg_eps);
	topo_routes_free(f->routes);
	par_free(f->par); /* after every port: they free packets into its pools */
	free(f->node_part);
	free(f->rport);
	free(f->rbase);
	free(f->rfault);
	sim_fini(&f->sim);
	memset(f, 0, sizeof(*f));
}
