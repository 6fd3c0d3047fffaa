/* Data-carrying collectives at run time (see tg.h, struct tg_data_plan).
 * Every rank of a set gets one region of this process's memory (the
 * simulation's NICs share the process, so the RETH's address is where the
 * bytes land), registered on each NIC its transfers use; a message's SGE
 * and RETH point into the sender's and the receiver's regions. A reduce
 * step lands in the receiver's receive area (each such transfer has its
 * own place there, so steps in flight never overwrite each other) and is
 * added into the buffer when every part has arrived; a copy step lands in
 * the buffer itself. Element i of rank r starts as tg_data_val(r, i), a
 * small positive integer, so that every sum a collective forms is an
 * integer below 2^24 and float32 represents it exactly whatever the order
 * of the additions: the end compares every element with the exact value
 * (== on floats, no tolerance). Elements that do not start with data, and
 * the receive areas, start as TG_DATA_POISON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"
#include "tg_int.h"

enum {
	TG_DATA_NONE = UINT32_MAX,   /* a message without data */
	TG_DATA_ELEM_BYTES = 4,      /* float32 */
	TG_DATA_VAL_MOD = 127,       /* values 1..127: sums of up to 132,104 ranks stay below 2^24 */
	TG_DATA_VAL_MUL_I = 40503,   /* mixes the element index in (40503 mod 127 = 117) */
	TG_DATA_VAL_MUL_R = 9973,    /* and the rank (9973 mod 127 = 67) */
	TG_DATA_ALIGN_BYTES = 64,    /* regions are line-aligned */
	TG_DATA_ACCESS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
};

/* What no correct element holds (every value is positive). */
static const float TG_DATA_POISON = -1e6f;

/* A region registered on one NIC. */
struct tg_data_reg {
	uint32_t nic;          /* index of the NIC */
	struct ibv_mr *mr;     /* its region there */
};

/* One rank's region of a set. */
struct tg_data_region {
	float *elems;          /* the memory (region_bytes of its set) */
	struct tg_data_reg *regs; /* the NICs it is registered on */
	uint32_t n_regs;       /* their count */
};

/* An instance's outcome. */
struct tg_data_res {
	uint64_t checked;      /* elements compared */
	uint64_t errors;       /* ... that were wrong */
	bool done;             /* compared */
};

struct tg_data {
	struct tg_data_plan plan;       /* a copy of the graph's */
	uint32_t *xfer_of_msg;          /* per message: its transfer, or TG_DATA_NONE */
	uint32_t *dcoll_of_coll;        /* per graph instance: its data instance, or TG_DATA_NONE */
	uint32_t *region_off;           /* per set: its first region in regions */
	struct tg_data_region *regions; /* every set's ranks', in a row */
	uint32_t n_regions;             /* their count */
	struct tg_data_res *res;        /* per data instance */
	uint32_t n_colls;               /* the graph's collective instances */
};

/* Element @i of rank @r at the start, as an integer and as the float. */
static uint32_t tg_data_ival(uint32_t r, uint64_t i)
{
	return 1 + (uint32_t)((i * TG_DATA_VAL_MUL_I + (uint64_t)r * TG_DATA_VAL_MUL_R) % TG_DATA_VAL_MOD);
}

static float tg_data_val(uint32_t r, uint64_t i)
{
	return (float)tg_data_ival(r, i);
}

static struct tg_data_region *tg_data_region(const struct tg_data *d, uint32_t set, uint32_t rank)
{
	return &d->regions[d->region_off[set] + rank];
}

int tg_data_init(struct tg *t, const struct tg_graph *g, char err[CFG_ERR_BYTES])
{
	const struct tg_data_plan *p = &g->data;
	struct tg_data *d = calloc(1, sizeof(*d));
	uint32_t n_regions = 0;

	t->data = d;
	if (!d)
		goto nomem;
	d->plan = *p;
	d->plan.xfers = malloc(sizeof(*p->xfers) * (p->n_xfers ? p->n_xfers : 1));
	d->plan.colls = malloc(sizeof(*p->colls) * (p->n_colls ? p->n_colls : 1));
	d->plan.ranges = malloc(sizeof(*p->ranges) * (p->n_ranges ? p->n_ranges : 1));
	d->plan.sets = malloc(sizeof(*p->sets) * (p->n_sets ? p->n_sets : 1));
	d->xfer_of_msg = malloc(sizeof(*d->xfer_of_msg) * (t->n_flows ? t->n_flows : 1));
	d->n_colls = g->n_colls;
	d->dcoll_of_coll = malloc(sizeof(*d->dcoll_of_coll) * (g->n_colls ? g->n_colls : 1));
	d->region_off = malloc(sizeof(*d->region_off) * (p->n_sets ? p->n_sets : 1));
	d->res = calloc(p->n_colls ? p->n_colls : 1, sizeof(*d->res));
	if (!d->plan.xfers || !d->plan.colls || !d->plan.ranges || !d->plan.sets ||
	    !d->xfer_of_msg || !d->dcoll_of_coll || !d->region_off || !d->res)
		goto nomem;
	/* (An empty array may be NULL, which memcpy must not be given.) */
	if (p->n_xfers)
		memcpy(d->plan.xfers, p->xfers, sizeof(*p->xfers) * p->n_xfers);
	if (p->n_colls)
		memcpy(d->plan.colls, p->colls, sizeof(*p->colls) * p->n_colls);
	if (p->n_ranges)
		memcpy(d->plan.ranges, p->ranges, sizeof(*p->ranges) * p->n_ranges);
	if (p->n_sets)
		memcpy(d->plan.sets, p->sets, sizeof(*p->sets) * p->n_sets);
	for (uint32_t i = 0; i < t->n_flows; i++)
		d->xfer_of_msg[i] = TG_DATA_NONE;
	for (uint32_t i = 0; i < g->n_colls; i++)
		d->dcoll_of_coll[i] = TG_DATA_NONE;
	for (uint32_t i = 0; i < p->n_xfers; i++) {
		const struct tg_data_xfer *x = &p->xfers[i];

		if (x->msg >= t->n_flows || x->coll >= p->n_colls ||
		    d->xfer_of_msg[x->msg] != TG_DATA_NONE) {
			snprintf(err, CFG_ERR_BYTES, "data transfer %u: message %u is not one of the %u, or has data already",
				 i, x->msg, t->n_flows);
			return -EINVAL;
		}
		d->xfer_of_msg[x->msg] = i;
	}
	for (uint32_t i = 0; i < p->n_colls; i++) {
		const struct tg_data_coll *c = &p->colls[i];

		if (c->coll >= g->n_colls || c->set >= p->n_sets ||
		    c->n_ranks != p->sets[c->set].n_ranks || c->range_off + c->n_ranges > p->n_ranges) {
			snprintf(err, CFG_ERR_BYTES, "data instance %u does not fit its plan", i);
			return -EINVAL;
		}
		d->dcoll_of_coll[c->coll] = i;
	}
	for (uint32_t s = 0; s < p->n_sets; s++) {
		d->region_off[s] = n_regions;
		n_regions += p->sets[s].n_ranks;
	}
	if (!(d->regions = calloc(n_regions ? n_regions : 1, sizeof(*d->regions))))
		goto nomem;
	d->n_regions = n_regions;
	return 0;
nomem:
	snprintf(err, CFG_ERR_BYTES, "out of memory for the data-carrying collectives' plan");
	return -ENOMEM;
}

bool tg_data_msg(const struct tg *t, uint32_t msg)
{
	return t->data && t->data->xfer_of_msg[msg] != TG_DATA_NONE;
}

/* The key of @r's region on NIC @nic, registering it there first. NULL
 * when the NIC refuses. */
static const struct ibv_mr *tg_data_mr(struct tg *t, struct tg_data_region *r, uint64_t bytes,
				       uint32_t nic)
{
	struct tg_data_reg *v;
	struct ibv_mr *mr;

	for (uint32_t i = 0; i < r->n_regs; i++)
		if (r->regs[i].nic == nic)
			return r->regs[i].mr;
	if (!(mr = nic_reg_mr(t->nics[nic], r->elems, bytes, TG_DATA_ACCESS)))
		return NULL;
	if (!(v = realloc(r->regs, sizeof(*v) * (r->n_regs + 1)))) {
		nic_dereg_mr(t->nics[nic], mr);
		return NULL;
	}
	r->regs = v;
	r->regs[r->n_regs++] = (struct tg_data_reg){ .nic = nic, .mr = mr };
	return mr;
}

/* The start of instance @c: every rank's region as it begins. */
static void tg_data_coll_init(struct tg_data *d, const struct tg_data_coll *c)
{
	const struct tg_data_set *s = &d->plan.sets[c->set];
	uint64_t n_elems = c->bytes / TG_DATA_ELEM_BYTES;

	for (uint32_t r = 0; r < c->n_ranks; r++) {
		float *e = tg_data_region(d, c->set, r)->elems;
		bool has = c->kind != TG_COLL_ALL_GATHER &&
			   (c->kind != TG_COLL_BROADCAST || r == c->root);

		for (uint64_t i = 0; i < s->region_bytes / TG_DATA_ELEM_BYTES; i++)
			e[i] = i < n_elems && has ? tg_data_val(r, i) : TG_DATA_POISON;
	}
	for (uint32_t k = 0; c->kind == TG_COLL_ALL_GATHER && k < c->n_ranges; k++) {
		const struct tg_data_range *g = &d->plan.ranges[c->range_off + k];
		float *e = tg_data_region(d, c->set, g->rank)->elems;

		for (uint64_t i = g->off / TG_DATA_ELEM_BYTES; i < (g->off + g->bytes) / TG_DATA_ELEM_BYTES; i++)
			e[i] = tg_data_val(g->rank, i);
	}
}

int tg_data_start(struct tg *t, char err[CFG_ERR_BYTES])
{
	struct tg_data *d = t->data;
	const struct tg_data_plan *p = &d->plan;

	if (!(t->mem = calloc(t->n_flows ? t->n_flows : 1, sizeof(*t->mem))))
		goto nomem;
	for (uint32_t s = 0; s < p->n_sets; s++) {
		uint64_t bytes = (p->sets[s].region_bytes + TG_DATA_ALIGN_BYTES - 1) / TG_DATA_ALIGN_BYTES *
				 TG_DATA_ALIGN_BYTES;

		for (uint32_t r = 0; r < p->sets[s].n_ranks; r++) {
			struct tg_data_region *g = tg_data_region(d, s, r);

			if (bytes && !(g->elems = aligned_alloc(TG_DATA_ALIGN_BYTES, bytes)))
				goto nomem;
		}
	}
	for (uint32_t i = 0; i < p->n_xfers; i++) {
		const struct tg_data_xfer *x = &p->xfers[i];
		const struct tg_data_coll *c = &p->colls[x->coll];
		const struct tg_msg *m = &t->flows[x->msg].msg;
		uint64_t region = p->sets[c->set].region_bytes;
		struct tg_data_region *a = tg_data_region(d, c->set, x->src_rank);
		struct tg_data_region *b = tg_data_region(d, c->set, x->dst_rank);
		const struct ibv_mr *la, *rb;
		struct tg_mem *mm = &t->mem[x->msg];

		if (x->src_rank >= c->n_ranks || x->dst_rank >= c->n_ranks ||
		    x->src_off + m->bytes > region || x->dst_off + m->bytes > region ||
		    (x->act == TG_DATA_ADD && x->apply_off + m->bytes > c->bytes)) {
			snprintf(err, CFG_ERR_BYTES, "data transfer %u lies outside its regions", i);
			return -EINVAL;
		}
		if (!region)
			continue; /* nothing to move: no memory named */
		if (!(la = tg_data_mr(t, a, region, t->eps[m->src].nic)) ||
		    !(rb = tg_data_mr(t, b, region, t->eps[m->dst].nic))) {
			snprintf(err, CFG_ERR_BYTES, "cannot register the data-carrying collectives' memory: %s",
				 strerror(errno));
			return -errno;
		}
		mm->laddr = (uint64_t)(uintptr_t)a->elems + x->src_off;
		mm->raddr = (uint64_t)(uintptr_t)b->elems + x->dst_off;
		mm->lkey = la->lkey;
		mm->rkey = rb->rkey;
	}
	/* The first instance of each set starts with the run (the later ones
	 * when the one before them ends). */
	for (uint32_t s = 0; s < p->n_sets; s++)
		for (uint32_t i = 0; i < p->n_colls; i++)
			if (p->colls[i].set == s) {
				tg_data_coll_init(d, &p->colls[i]);
				break;
			}
	return 0;
nomem:
	snprintf(err, CFG_ERR_BYTES, "out of memory for the data-carrying collectives' buffers");
	return -ENOMEM;
}

void tg_data_arrived(struct tg *t, uint32_t msg)
{
	struct tg_data *d = t->data;
	const struct tg_data_xfer *x;
	const struct tg_data_coll *c;
	float *e;

	if (d->xfer_of_msg[msg] == TG_DATA_NONE)
		return;
	x = &d->plan.xfers[d->xfer_of_msg[msg]];
	if (x->act != TG_DATA_ADD)
		return; /* a copy is its placement */
	c = &d->plan.colls[x->coll];
	e = tg_data_region(d, c->set, x->dst_rank)->elems;
	for (uint64_t i = 0; i < t->flows[msg].msg.bytes / TG_DATA_ELEM_BYTES; i++)
		e[x->apply_off / TG_DATA_ELEM_BYTES + i] += e[x->dst_off / TG_DATA_ELEM_BYTES + i];
}

/* One element compared: @got against the exact @want. */
static inline void tg_data_cmp(struct tg_data_res *res, float got, float want)
{
	res->checked++;
	res->errors += got != want;
}

/* Element @i of the element-wise sum over @n ranks, exact. */
static float tg_data_sum(uint32_t n, uint64_t i)
{
	uint32_t sum = 0;

	for (uint32_t r = 0; r < n; r++)
		sum += tg_data_ival(r, i);
	return (float)sum;
}

/* Compare every rank's buffer of instance @c with its exact result. */
static void tg_data_check(const struct tg_data *d, const struct tg_data_coll *c,
			  struct tg_data_res *res)
{
	const struct tg_data_range *rg = &d->plan.ranges[c->range_off];
	uint64_t n_elems = c->bytes / TG_DATA_ELEM_BYTES, pair = c->pair_bytes / TG_DATA_ELEM_BYTES;
	uint32_t n = c->n_ranks;

	switch (c->kind) {
	case TG_COLL_ALL_REDUCE: /* every rank: the sum everywhere */
		for (uint64_t i = 0; i < n_elems; i++) {
			float want = tg_data_sum(n, i);

			for (uint32_t r = 0; r < n; r++)
				tg_data_cmp(res, tg_data_region(d, c->set, r)->elems[i], want);
		}
		break;
	case TG_COLL_REDUCE_SCATTER: /* each rank: the sum on its ranges */
		for (uint32_t k = 0; k < c->n_ranges; k++)
			for (uint64_t i = rg[k].off / TG_DATA_ELEM_BYTES;
			     i < (rg[k].off + rg[k].bytes) / TG_DATA_ELEM_BYTES; i++)
				tg_data_cmp(res, tg_data_region(d, c->set, rg[k].rank)->elems[i],
					    tg_data_sum(n, i));
		break;
	case TG_COLL_ALL_GATHER: /* every rank: each range as its owner started it */
		for (uint32_t k = 0; k < c->n_ranges; k++)
			for (uint64_t i = rg[k].off / TG_DATA_ELEM_BYTES;
			     i < (rg[k].off + rg[k].bytes) / TG_DATA_ELEM_BYTES; i++)
				for (uint32_t r = 0; r < n; r++)
					tg_data_cmp(res, tg_data_region(d, c->set, r)->elems[i],
						    tg_data_val(rg[k].rank, i));
		break;
	case TG_COLL_BROADCAST: /* every rank: the root's buffer */
		for (uint64_t i = 0; i < n_elems; i++)
			for (uint32_t r = 0; r < n; r++)
				tg_data_cmp(res, tg_data_region(d, c->set, r)->elems[i], tg_data_val(c->root, i));
		break;
	case TG_COLL_ALL_TO_ALL:
		/* Rank r's receive buffer (after its send buffer) holds in block a
		 * what rank a sent it: a's block r. The block a rank keeps for
		 * itself is no transfer: not checked. */
		for (uint32_t r = 0; r < n; r++)
			for (uint32_t a = 0; a < n; a++)
				for (uint64_t j = 0; a != r && j < pair; j++)
					tg_data_cmp(res,
						    tg_data_region(d, c->set, r)->elems[n_elems + a * pair + j],
						    tg_data_val(a, r * pair + j));
		break;
	default:
		break;
	}
}

void tg_data_coll_done(struct tg *t, uint32_t coll)
{
	struct tg_data *d = t->data;
	uint32_t k;

	if (coll >= d->n_colls || (k = d->dcoll_of_coll[coll]) == TG_DATA_NONE)
		return;
	tg_data_check(d, &d->plan.colls[k], &d->res[k]);
	d->res[k].done = true;
	/* The next instance of the same regions starts after this one. */
	for (uint32_t i = k + 1; i < d->plan.n_colls; i++)
		if (d->plan.colls[i].set == d->plan.colls[k].set) {
			tg_data_coll_init(d, &d->plan.colls[i]);
			break;
		}
}

int tg_coll_data(const struct tg *t, uint32_t c, uint64_t *checked, uint64_t *errors)
{
	const struct tg_data_res *res;

	if (!t->data || c >= t->data->n_colls || t->data->dcoll_of_coll[c] == TG_DATA_NONE)
		return -ENOENT;
	res = &t->data->res[t->data->dcoll_of_coll[c]];
	if (!res->done)
		return -EAGAIN;
	*checked = res->checked;
	*errors = res->errors;
	return 0;
}

void tg_data_fini(struct tg *t)
{
	struct tg_data *d = t->data;

	free(t->mem);
	if (!d)
		return;
	for (uint32_t i = 0; d->regions && i < d->n_regions; i++) {
		for (uint32_t k = 0; k < d->regions[i].n_regs; k++)
			nic_dereg_mr(t->nics[d->regions[i].regs[k].nic], d->regions[i].regs[k].mr);
		free(d->regions[i].regs);
		free(d->regions[i].elems);
	}
	free(d->regions);
	free(d->plan.xfers);
	free(d->plan.colls);
	free(d->plan.ranges);
	free(d->plan.sets);
	free(d->xfer_of_msg);
	free(d->dcoll_of_coll);
	free(d->region_off);
	free(d->res);
	free(d);
}
