/* Partitions in other processes (par.h, struct par_remote): which process
 * runs which partition, the frames between processes at a window's end
 * (and every partition's par_defer records, to every process) and the
 * figures every process must agree on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "par_int.h"
#include "port.h"

bool par_owns(const struct par *p, uint32_t i) { return i >= p->own_first && i < p->own_end; }

bool par_sim_here(const struct sim *s)
{
	return !s->par || s == s->par->root || par_owns(s->par, s->part);
}

uint32_t par_processes(const struct par *p) { return p->remote.size ? p->remote.size : 1; }

uint32_t par_xport_add(struct par *p, struct port *port)
{
	if (!p)
		return 0;
	if (p->n_xports == p->cap_xports) {
		uint32_t cap = p->cap_xports ? 2 * p->cap_xports : 256;
		struct port **v = realloc(p->xports, sizeof(*v) * cap);

		if (!v) {
			fprintf(stderr, "fabemu: out of memory linking partitions\n");
			abort();
		}
		p->xports = v;
		p->cap_xports = cap;
	}
	p->xports[p->n_xports] = port;
	return p->n_xports++;
}

int par_set_remote(struct par *p, const struct par_remote *r, char err[CFG_ERR_BYTES])
{
	uint32_t first = (uint32_t)((uint64_t)r->rank * p->n / r->size),
		 end = (uint32_t)((uint64_t)(r->rank + 1) * p->n / r->size), owned = end - first;

	if (r->size < 2 || r->rank >= r->size || p->n < r->size || owned < p->n_workers) {
		snprintf(err, CFG_ERR_BYTES,
			 "%u partitions over %u processes with %u threads each: at least one "
			 "partition a process and one a thread",
			 p->n, r->size, p->n_workers);
		return -EINVAL;
	}
	p->wire = calloc(r->size, sizeof(*p->wire));
	p->wire_out = calloc(r->size, sizeof(*p->wire_out));
	p->wire_len = calloc(r->size, sizeof(*p->wire_len));
	p->wire_in = calloc(r->size, sizeof(*p->wire_in));
	p->wire_in_len = calloc(r->size, sizeof(*p->wire_in_len));
	if (!p->wire || !p->wire_out || !p->wire_len || !p->wire_in || !p->wire_in_len) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	p->remote = *r;
	p->own_first = first;
	p->own_end = end;
	for (uint32_t w = 0; w < p->n_workers; w++) {
		p->workers[w].first = first + (uint32_t)((uint64_t)w * owned / p->n_workers);
		p->workers[w].end = first + (uint32_t)((uint64_t)(w + 1) * owned / p->n_workers);
	}
	return 0;
}

/* The process that runs partition @i (par_set_remote's blocks). */
static uint32_t par_owner(const struct par *p, uint32_t i)
{
	uint32_t k = (uint32_t)((uint64_t)i * p->remote.size / p->n);

	while (k + 1 < p->remote.size && (uint64_t)(k + 1) * p->n / p->remote.size <= i)
		k++;
	while (k > 0 && (uint64_t)k * p->n / p->remote.size > i)
		k--;
	return k;
}

uint32_t par_process(const struct par *p, uint32_t i)
{
	return p->remote.size ? par_owner(p, i) : 0;
}

uint32_t par_sim_process(const struct sim *s)
{
	return s->par && s != s->par->root ? par_process(s->par, s->part) : 0;
}

void par_sum(struct sim *s, uint64_t *v, uint32_t n)
{
	struct par *p = s->par;

	if (p && p->remote.size > 1)
		p->remote.combine(p->remote.ctx, NULL, 0, v, n);
}

/* A block of frames on the wire: from partition j's outbox to partition i;
 * or (j = PAR_WIRE_DEFER) partition i's par_defer records. */
struct par_wire_hdr {
	uint32_t j, i;
	uint64_t len;   /* bytes of records that follow */
};

#define PAR_WIRE_DEFER UINT32_MAX

/* A block of partition h->i's par_defer records from process @k (@avail
 * bytes left of what it sent): appended to that partition's, as if left
 * here. */
static void par_swap_defer(struct par *p, uint32_t k, const struct par_wire_hdr *h, const uint8_t *at,
			   size_t avail)
{
	struct par_part *pp;
	uint64_t n = h->len / sizeof(struct par_drec);

	if (h->i >= p->n || par_owns(p, h->i) || h->len % sizeof(struct par_drec) || h->len > avail ||
	    n > UINT32_MAX) {
		fprintf(stderr, "fabemu: malformed records from process %u\n", k);
		abort();
	}
	pp = &p->parts[h->i];
	if (par_defer_room(pp, (uint32_t)n) != 0) {
		fprintf(stderr, "fabemu: out of memory for records from process %u\n", k);
		abort();
	}
	memcpy(pp->defer + pp->n_defer, at, h->len);
	pp->n_defer += (uint32_t)n;
}

/* Send each process what p->wire holds for it, and receive into
 * p->wire_in what each sent this one (@what: for the message if that
 * fails, which ends the job: the others wait in the exchange). */
static void par_wire_swap(struct par *p, const char *what)
{
	for (uint32_t k = 0; k < p->remote.size; k++) {
		p->wire_out[k] = p->wire[k].buf;
		p->wire_len[k] = p->wire[k].len;
	}
	if (p->remote.swap(p->remote.ctx, p->wire_out, p->wire_len, p->wire_in, p->wire_in_len) != 0) {
		fprintf(stderr, "fabemu: %s between processes could not be exchanged\n", what);
		abort();
	}
}

/* Frames between processes (remote): what this process's partitions sent
 * to the others' goes to them, what theirs sent to this one's lands in
 * the outboxes it drains, as if sent here; a record names its port by its
 * index (par_xport_add), the same in every process. */
void par_swap(struct par *p)
{
	uint32_t me = p->remote.rank;

	for (uint32_t k = 0; k < p->remote.size; k++)
		p->wire[k].len = 0;
	for (uint32_t j = p->own_first; j < p->own_end; j++)
		for (uint32_t i = 0; i < p->n; i++) {
			struct par_box *b = &p->parts[j].out[i];
			struct par_wire_hdr h = { .j = j, .i = i, .len = b->len };
			uint32_t k;
			uint8_t *at;

			if (par_owns(p, i) || !b->len)
				continue;
			k = par_owner(p, i);
			at = par_box_room(&p->wire[k], sizeof(h) + b->len);
			memcpy(at, &h, sizeof(h));
			memcpy(at + sizeof(h), b->buf, b->len);
			for (size_t off = 0; off < b->len;) {
				struct par_rec *r = (struct par_rec *)(at + sizeof(h) + off);

				/* Its port by index + 1; 0 stays an aux record. */
				if (r->p)
					r->p = (struct port *)(uintptr_t)(r->p->xpar->xid + 1);
				off += sizeof(*r) + ((r->len + 7u) & ~7u);
			}
			p->wire[k].len += sizeof(h) + b->len;
			b->len = 0;
		}
	/* Every own partition's par_defer records, to every process. */
	for (uint32_t j = p->own_first; j < p->own_end; j++) {
		struct par_wire_hdr h = { .j = PAR_WIRE_DEFER, .i = j,
					  .len = sizeof(struct par_drec) * (uint64_t)p->parts[j].n_defer };

		for (uint32_t k = 0; h.len && k < p->remote.size; k++) {
			uint8_t *at;

			if (k == me)
				continue;
			at = par_box_room(&p->wire[k], sizeof(h) + h.len);
			memcpy(at, &h, sizeof(h));
			memcpy(at + sizeof(h), p->parts[j].defer, h.len);
			p->wire[k].len += sizeof(h) + h.len;
		}
	}
	par_wire_swap(p, "frames");
	for (uint32_t k = 0; k < p->remote.size; k++) {
		for (size_t off = 0; k != me && off < p->wire_in_len[k];) {
			struct par_wire_hdr h;
			struct par_box *b;
			uint8_t *at;

			memcpy(&h, p->wire_in[k] + off, sizeof(h));
			off += sizeof(h);
			if (h.j == PAR_WIRE_DEFER) {
				par_swap_defer(p, k, &h, p->wire_in[k] + off, p->wire_in_len[k] - off);
				off += h.len;
				continue;
			}
			if (h.j >= p->n || h.i >= p->n || !par_owns(p, h.i) || par_owns(p, h.j) ||
			    h.len > p->wire_in_len[k] - off) {
				fprintf(stderr, "fabemu: malformed frames from process %u\n", k);
				abort();
			}
			b = &p->parts[h.j].out[h.i];
			at = par_box_room(b, h.len);
			memcpy(at, p->wire_in[k] + off, h.len);
			for (size_t r_off = 0; r_off < h.len;) {
				struct par_rec *r = (struct par_rec *)(at + r_off);
				uintptr_t xid = (uintptr_t)r->p;

				if (xid > p->n_xports || (!xid && !p->aux_fn)) {
					fprintf(stderr, "fabemu: frame from process %u names no port\n", k);
					abort();
				}
				r->p = xid ? p->xports[xid - 1] : NULL;
				r_off += sizeof(*r) + ((r->len + 7u) & ~7u);
			}
			b->len += h.len;
			off += h.len;
		}
	}
}

/* The coordinator's looks between windows over every process (remote):
 * the next event, stuck and interrupt, the counts the root reads, then,
 * with @looks (at a window's end, where par_look looks in one process),
 * the watch (stopping when every process's says so: each looks at its own
 * part of the fabric) and progress (process 0's). */
void par_look_remote(struct par *p, bool looks)
{
	struct sim *root = p->root;
	uint64_t next = UINT64_MAX, mx[6] = { 0 }, sum[2] = { 0 };

	for (uint32_t i = p->own_first; i < p->own_end; i++) {
		struct par_part *pp = &p->parts[i];
		uint64_t d = pp->sim.n_events - pp->seen_events;

		pp->seen_events = pp->sim.n_events;
		mx[4] = d > mx[4] ? d : mx[4];
		next = pp->next_ps < next ? pp->next_ps : next;
		mx[1] |= pp->sim.stuck;
		mx[3] = pp->sim.last_work_ps > mx[3] ? pp->sim.last_work_ps : mx[3];
		mx[5] = pp->sim.now_ps > mx[5] ? pp->sim.now_ps : mx[5];
		sum[0] += pp->sim.n_events;
		sum[1] += pp->sim.n_hops;
	}
	mx[0] = UINT64_MAX - next;
	mx[2] = root->interrupt && *root->interrupt;
	p->remote.combine(p->remote.ctx, mx, 6, sum, 2);
	p->glob_next = UINT64_MAX - mx[0];
	p->glob_stuck = mx[1] != 0;
	p->crit_events += mx[4];
	root->n_events = p->root_events0 + p->root_events + p->defer_events + sum[0];
	root->n_hops = sum[1];
	if (mx[3] > root->last_work_ps)
		root->last_work_ps = mx[3];
	if (mx[5] > root->now_ps && !root->stopped)
		root->now_ps = mx[5];
	if (mx[2]) {
		p->stop = PAR_STOP_INTERRUPT;
		return;
	}
	if (!looks || root->n_events - p->polled < SIM_POLL_EVENTS)
		return;
	p->polled = root->n_events;
	if (root->watch) {
		uint64_t go_on = !root->watch(root, root->watch_arg);

		p->remote.combine(p->remote.ctx, &go_on, 1, NULL, 0);
		if (!go_on) {
			p->stop = PAR_STOP_WATCH;
			return;
		}
	}
	/* Every process sets progress_count, or none: the sum is taken by all. */
	if (root->progress_count && root->n_events - p->progressed >= SIM_PROGRESS_EVENTS) {
		uint64_t done = root->progress_count(root->progress_arg);

		p->progressed = root->n_events;
		p->remote.combine(p->remote.ctx, NULL, 0, &done, 1);
		root->progress_counted = done;
		if (p->remote.rank == 0 && root->progress)
			root->progress(root, root->progress_arg);
	}
}

/* Remote: every partition's figures for the scaling report, from the
 * process that ran it (the others' copies are zero; times to the ns). */
void par_gather_stats(struct par *p)
{
	uint64_t v[5 * PAR_MAX_THREADS] = { 0 };

	for (uint32_t i = p->own_first; i < p->own_end; i++) {
		const struct par_part *pp = &p->parts[i];

		v[5 * i] = pp->sim.n_events;
		v[5 * i + 1] = pp->x_frames;
		v[5 * i + 2] = (uint64_t)(pp->busy_s * 1e9);
		v[5 * i + 3] = (uint64_t)(pp->wait_s * 1e9);
		v[5 * i + 4] = (uint64_t)(pp->cpu_s * 1e9);
	}
	p->remote.combine(p->remote.ctx, NULL, 0, v, 5 * p->n);
	for (uint32_t i = 0; i < p->n; i++) {
		struct par_part *pp = &p->parts[i];

		pp->sim.n_events = v[5 * i];
		pp->x_frames = v[5 * i + 1];
		pp->busy_s = (double)v[5 * i + 2] / 1e9;
		pp->wait_s = (double)v[5 * i + 3] / 1e9;
		pp->cpu_s = (double)v[5 * i + 4] / 1e9;
	}
}

void par_remote_free(struct par *p)
{
	for (uint32_t k = 0; p->wire && k < p->remote.size; k++)
		free(p->wire[k].buf);
	free(p->wire);
	free(p->wire_out);
	free(p->wire_len);
	free(p->wire_in);
	free(p->wire_in_len);
	free(p->xports);
}

/* A block of a partition's ordered records. */
struct par_rec_block {
	uint32_t i;
	uint32_t lost;  /* sim_rec's lost bits */
	uint64_t len;   /* bytes of records that follow */
};

/* par_int.h */
void par_rec_ship(struct par *p)
{
	uint32_t me = p->remote.rank;

	for (uint32_t k = 0; k < p->remote.size; k++)
		p->wire[k].len = 0;
	for (uint32_t i = p->own_first; me != 0 && i < p->own_end; i++) {
		struct sim_rec *r = &p->parts[i].rec;
		struct par_rec_block h = { .i = i, .lost = r->lost, .len = r->len };
		uint8_t *at;

		if (!r->len && !r->lost)
			continue;
		at = par_box_room(&p->wire[0], sizeof(h) + r->len);
		memcpy(at, &h, sizeof(h));
		memcpy(at + sizeof(h), r->buf, r->len);
		p->wire[0].len += sizeof(h) + r->len;
		r->len = 0;
		r->lost = 0;
	}
	par_wire_swap(p, "records");
	/* Process 0: each block onto its copy of that partition's. */
	for (uint32_t k = 1; me == 0 && k < p->remote.size; k++) {
		for (size_t off = 0; off < p->wire_in_len[k];) {
			struct par_rec_block h;
			struct sim_rec *r;

			if (p->wire_in_len[k] - off < sizeof(h)) {
				fprintf(stderr, "fabemu: malformed records from process %u\n", k);
				abort();
			}
			memcpy(&h, p->wire_in[k] + off, sizeof(h));
			off += sizeof(h);
			if (h.i >= p->n || par_owns(p, h.i) || h.len > p->wire_in_len[k] - off ||
			    !sim_rec_append(r = &p->parts[h.i].rec, p->wire_in[k] + off, h.len)) {
				fprintf(stderr, "fabemu: malformed records from process %u\n", k);
				abort();
			}
			r->lost |= h.lost;
			off += h.len;
		}
	}
}
