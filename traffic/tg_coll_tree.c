/* Double binary tree all-reduce, as NCCL's Tree algorithm lays it out
 * (the two-tree scheme of Sanders, Speck and Träff, "Two-tree algorithms
 * for full bandwidth broadcast, reduction and scan", Parallel Computing
 * 2009; NCCL 2.4's announcement describes the same): the nodes form two
 * binary trees, each carrying half of the data (even channels the first,
 * odd channels the second), so that a node interior in one tree is a leaf
 * of the other. Channels 2k and 2k + 1 share rail k (mod G): every NIC
 * carries both trees, 2 S_c each way for the pair, as much as a ring's
 * 2(n - 1)/n S_c per channel. Inside a node the GPUs form a chain from
 * the node's head (the GPU of the pair's rail when the node holds it, so
 * that the tree's inter-node hops stay on one rail as the rings' do). Slice by slice, a rank sends its
 * partial sum up to its parent once every child's has arrived, and the
 * root's result flows back down, each rank forwarding a slice to its
 * children as it arrives: 2(n - 1) S bytes in all, like the ring, but
 * with a latency of 2 log2(N) hops across N nodes instead of 2(N - 1).
 *
 * Tree of positions 0..N-1 (in-order): position p > 0 with lowest set bit
 * b has children p - b/2 and the largest p + b' (b' a power of two below
 * b) under N; its parent is p + b when bit 2b of p is clear and p + b <
 * N, else p - b; position 0 is the root, its one child the largest power
 * of two below N. The odd positions are the leaves. The second tree puts
 * rank r at position (r - 1) mod N: the first tree's leaves (odd ranks)
 * are the second's interior, and the other way round when N is even. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tg_coll_int.h"

enum { TG_TREE_NONE = UINT32_MAX, TG_TREE_KIDS = 3 };

/* Parent and children of position @p in the in-order tree of @n. */
static void tg_btree(uint32_t n, uint32_t p, uint32_t *up, uint32_t kid[2])
{
	uint32_t b = 1;

	kid[0] = kid[1] = TG_TREE_NONE;
	if (p == 0) {
		*up = TG_TREE_NONE;
		while (b * 2 < n)
			b *= 2;
		if (n > 1)
			kid[1] = b;
		return;
	}
	while (!(p & b))
		b <<= 1;
	*up = (!(p & (b << 1)) && p + b < n) ? p + b : p - b;
	for (uint32_t h = b >> 1; h; h >>= 1)
		if (p + h < n) {
			kid[1] = p + h;
			break;
		}
	if (b > 1)
		kid[0] = p - (b >> 1);
}

/* The tree of channel @c over ranks: parent and children per rank. */
struct tg_tree {
	uint32_t *up;    /* per rank: its parent, or TG_TREE_NONE (the root) */
	uint32_t *kids;  /* per rank: TG_TREE_KIDS children (TG_TREE_NONE for none) */
	uint32_t *order; /* ranks parents first (pre-order) */
	uint32_t root;
};

static int tg_tree_build(const struct tg_cb *b, uint32_t c, struct tg_tree *tr)
{
	uint32_t g = b->t->gpus.gpus_per_node, n_nodes = 0, *head, *run, *len, i = 0;
	int rc = 0;

	head = malloc(sizeof(*head) * b->n); /* per node run: its head rank */
	run = malloc(sizeof(*run) * b->n);   /* its first rank */
	len = malloc(sizeof(*len) * b->n);   /* its length */
	if (!head || !run || !len) {
		rc = -ENOMEM;
		goto out;
	}
	for (uint32_t r = 0; r < b->n; r++) {
		tr->up[r] = TG_TREE_NONE;
		for (int k = 0; k < TG_TREE_KIDS; k++)
			tr->kids[(size_t)r * TG_TREE_KIDS + k] = TG_TREE_NONE;
	}
	/* Node runs; the head of each, and the chain from it (rotated). */
	while (i < b->n) {
		uint32_t j = i, rot = 0;

		while (j < b->n && tg_cb_node_of(b, j) == tg_cb_node_of(b, i))
			j++;
		for (uint32_t k = 0; g && k < j - i; k++)
			if (tg_cb_gpu_of(b, i + k) == (c / 2) % g) {
				rot = k;
				break;
			}
		run[n_nodes] = i;
		len[n_nodes] = j - i;
		head[n_nodes] = i + rot;
		for (uint32_t k = 1; k < j - i; k++) {
			uint32_t me = i + (rot + k) % (j - i), prev = i + (rot + k - 1) % (j - i);

			tr->up[me] = prev;
			tr->kids[(size_t)prev * TG_TREE_KIDS + 2] = me;
		}
		n_nodes++;
		i = j;
	}
	/* The inter-node tree of the channel's parity over the heads. */
	for (uint32_t m = 0; m < n_nodes; m++) {
		uint32_t pos = c % 2 ? (m + n_nodes - 1) % n_nodes : m, up, kid[2];

		tg_btree(n_nodes, pos, &up, kid);
		for (int k = 0; k < 2; k++)
			if (kid[k] != TG_TREE_NONE) {
				uint32_t km = c % 2 ? (kid[k] + 1) % n_nodes : kid[k];

				tr->kids[(size_t)head[m] * TG_TREE_KIDS + k] = head[km];
				tr->up[head[km]] = head[m];
			}
		if (up == TG_TREE_NONE)
			tr->root = head[m];
	}
	/* Pre-order from the root (a stack of ranks). */
	{
		uint32_t top = 0, n = 0, *stack = run; /* run is no longer needed */

		stack[top++] = tr->root;
		while (top) {
			uint32_t r = stack[--top];

			tr->order[n++] = r;
			for (int k = TG_TREE_KIDS - 1; k >= 0; k--)
				if (tr->kids[(size_t)r * TG_TREE_KIDS + k] != TG_TREE_NONE)
					stack[top++] = tr->kids[(size_t)r * TG_TREE_KIDS + k];
		}
		if (n != b->n)
			rc = -EINVAL; /* cannot be: every rank is in the tree */
	}
out:
	free(head);
	free(run);
	free(len);
	return rc;
}

/* One channel: its @bytes (from @base of the data) up the tree and back
 * down, slice by slice. Channels 2k and 2k + 1 (the two trees) share rail
 * k mod G, so that each NIC carries both trees, interior in one and a leaf
 * of the other, when every node holds that GPU (its head). With data, a
 * child's partial sum is added at its parent on arrival (the parent sends
 * up only once all its children's have), the result copied down. */
static int tg_tree_channel(struct tg_cb *b, uint32_t c, uint64_t base, uint64_t bytes,
			   struct tg_tree *tr)
{
	uint32_t l = tg_coll_slices(b, bytes), rail = tg_coll_rail(b, c / 2);
	uint32_t *upid = malloc(sizeof(*upid) * b->n), *downid = malloc(sizeof(*downid) * b->n);
	int rc = upid && downid ? 0 : -ENOMEM;

	for (uint32_t j = 0; j < l && rc == 0; j++) {
		uint64_t size = tg_coll_part(b, bytes, l, j), at = base + tg_coll_off(b, bytes, l, j);

		/* Up, children first: reverse pre-order. */
		for (uint32_t k = b->n; k-- > 0 && rc == 0;) {
			uint32_t r = tr->order[k], deps[TG_TREE_KIDS], nd = 0;

			for (int q = 0; q < TG_TREE_KIDS; q++) {
				uint32_t kid = tr->kids[(size_t)r * TG_TREE_KIDS + q];

				if (kid != TG_TREE_NONE)
					deps[nd++] = upid[kid];
			}
			if (tr->up[r] == TG_TREE_NONE) {
				upid[r] = TG_TREE_NONE;
				continue;
			}
			rc = tg_cb_xfer(b, r, tr->up[r], (uint16_t)c, rail, at, at, size, TG_STEP_REDUCE,
					deps, nd, &upid[r]);
		}
		/* Down, parents first: the root once every child's sum is in,
		 * the others as their parent's result arrives. */
		for (uint32_t k = 0; k < b->n && rc == 0; k++) {
			uint32_t r = tr->order[k], deps[TG_TREE_KIDS], nd = 0;

			if (tr->up[r] == TG_TREE_NONE) {
				for (int q = 0; q < TG_TREE_KIDS; q++) {
					uint32_t kid = tr->kids[(size_t)r * TG_TREE_KIDS + q];

					if (kid != TG_TREE_NONE)
						deps[nd++] = upid[kid];
				}
			} else {
				deps[nd++] = downid[r];
			}
			for (int q = 0; q < TG_TREE_KIDS && rc == 0; q++) {
				uint32_t kid = tr->kids[(size_t)r * TG_TREE_KIDS + q];

				if (kid != TG_TREE_NONE)
					rc = tg_cb_xfer(b, r, kid, (uint16_t)c, rail, at, at, size,
							TG_STEP_COPY, deps, nd, &downid[kid]);
			}
		}
	}
	free(upid);
	free(downid);
	return rc;
}

static int tg_coll_tree(struct tg_cb *b, const struct cfg_node *at, char err[CFG_ERR_BYTES])
{
	struct tg_tree tr = { 0 };
	int rc = 0;

	(void)at;
	(void)err;
	tr.up = malloc(sizeof(*tr.up) * b->n);
	tr.kids = malloc(sizeof(*tr.kids) * b->n * TG_TREE_KIDS);
	tr.order = malloc(sizeof(*tr.order) * b->n);
	if (!tr.up || !tr.kids || !tr.order)
		rc = -ENOMEM;
	for (uint32_t c = 0; c < b->channels && rc == 0; c++)
		if ((rc = tg_tree_build(b, c, &tr)) == 0)
			rc = tg_tree_channel(b, c, tg_coll_off(b, b->bytes, b->channels, c),
					     tg_coll_part(b, b->bytes, b->channels, c), &tr);
	free(tr.up);
	free(tr.kids);
	free(tr.order);
	return rc;
}

/* Streamed (tg.h, struct tg_stream; tg_stream_alg.c): channel c's tree
 * copied into the stream (parent, children, pre-order, each rank's place
 * in it: 6 n from 6 n c),
 * edge c 2n + r rank r's up to its parent, c 2n + n + r its parent's down
 * to r (the root's: none), each carrying the channel's part. */
static int tg_coll_tree_stream(struct tg_cb *b)
{
	struct tg_tree tr = { 0 };
	uint32_t n = b->n;
	struct tg_stream s;
	int rc;

	if (tg_cb_stream_new(b, TG_SALG_TREE, 2 * b->channels * n, &s) != 0)
		return -ENOMEM;
	s.tree = malloc(sizeof(*s.tree) * 6 * (size_t)n * b->channels);
	rc = s.tree ? 0 : -ENOMEM;
	for (uint32_t c = 0; c < b->channels && rc == 0; c++) {
		uint32_t *at = &s.tree[(size_t)6 * n * c], rail = tg_coll_rail(b, c / 2);

		tr = (struct tg_tree){ .up = at, .kids = at + n, .order = at + 4 * (size_t)n };
		if ((rc = tg_tree_build(b, c, &tr)) != 0)
			break;
		for (uint32_t k = 0; k < n; k++)
			at[5 * (size_t)n + tr.order[k]] = k;
		for (uint32_t r = 0; r < n; r++) {
			uint32_t e = 2 * n * c + r;

			if (tr.up[r] == TG_TREE_NONE)
				continue;
			tg_cb_stream_edge(b, &s, e, r, tr.up[r], (uint16_t)c, rail);
			tg_cb_stream_edge(b, &s, e + n, tr.up[r], r, (uint16_t)c, rail);
			s.ebytes[e] = s.ebytes[e + n] = s.part[c];
		}
	}
	if (rc != 0) {
		tg_stream_drop(&s);
		return rc;
	}
	return tg_cb_stream_add(b, &s);
}

/* The whole instance may be made at once: the leaves send every slice up
 * at its start. */
static uint64_t tg_coll_tree_stream_est(const struct tg_cb *b)
{
	uint64_t x = 0;

	for (uint32_t c = 0; c < b->channels; c++)
		x = tg_est_add(x, tg_est_mul(tg_coll_slices(b, tg_coll_part(b, b->bytes, b->channels, c)),
					     2 * ((uint64_t)b->n - 1)));
	return x;
}

/* Per slice every rank but the root sends up once and receives once:
 * edges from its children (at most 3) or the gate, its parent's transfer,
 * the root's children's sums. */
static uint64_t tg_coll_tree_est(const struct tg_cb *b, bool rg, struct tg_wl_est *e)
{
	uint64_t n = b->n, l;

	for (uint32_t c = 0; c < b->channels; c++) {
		l = tg_coll_slices(b, tg_coll_part(b, b->bytes, b->channels, c));
		e->msgs = tg_est_add(e->msgs, tg_est_mul(l, 2 * (n - 1)));
		e->ops = tg_est_add(e->ops, tg_est_mul(l, 2 * (n - 1)));
		e->deps = tg_est_add(e->deps, tg_est_mul(l, (n - 1) * (3 + 2 * rg) + 9));
	}
	return tg_est_mul(2 * n, b->channels);
}

const struct tg_coll_alg_ops tg_coll_tree_alg = {
	.kind = { "tree", "all-reduce: NCCL's double binary tree across the nodes, a chain inside each",
		  NULL, 0 },
	.kinds = 1u << TG_COLL_ALL_REDUCE,
	.rail_channels = 2, /* both trees */
	.build = tg_coll_tree,
	.est = tg_coll_tree_est,
	.stream_kinds = 1u << TG_COLL_ALL_REDUCE,
	.stream = tg_coll_tree_stream,
	.stream_est = tg_coll_tree_stream_est,
};
