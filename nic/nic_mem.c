/* Memory regions: verbs' ibv_reg_mr on the NIC model. A region is a range
 * of this process's memory (every NIC of a simulation lives in one
 * process, so an address is a real pointer and a WRITE's RETH VA is where
 * its bytes land) with a key, lkey = rkey, and its access flags. The
 * transmit and receive paths check a QP's SGEs and RETHs against them
 * (nic_mr_check) when the QP models memory (nic_qp_connect with
 * qp_access_flags); keys are indices, so a check is one lookup. */
#include <errno.h>
#include <stdlib.h>

#include "nic_int.h"

struct ibv_mr *nic_reg_mr(struct nic *n, void *addr, size_t len, unsigned access)
{
	struct nic_mr *m;

	/* As ibv_reg_mr(3): remote write needs local write. */
	if (!addr || len == 0 || (access & ~(unsigned)NIC_MR_ACCESS) ||
	    ((access & IBV_ACCESS_REMOTE_WRITE) && !(access & IBV_ACCESS_LOCAL_WRITE)) ||
	    (uintptr_t)addr > UINTPTR_MAX - len) {
		errno = EINVAL;
		return NULL;
	}
	if (n->n_mrs == NIC_MR_MAX) {
		errno = ENOMEM;
		return NULL;
	}
	if (n->n_mrs == n->cap_mrs) {
		uint32_t cap = n->cap_mrs ? 2 * n->cap_mrs : 16;
		struct nic_mr **v = realloc(n->mrs, sizeof(*v) * cap);

		if (!v) {
			errno = ENOMEM;
			return NULL;
		}
		n->mrs = v;
		n->cap_mrs = cap;
	}
	if (!(m = calloc(1, sizeof(*m)))) {
		errno = ENOMEM;
		return NULL;
	}
	m->mr.addr = addr;
	m->mr.length = len;
	m->mr.handle = n->n_mrs;
	m->mr.lkey = m->mr.rkey = NIC_MR_KEY_BASE + n->n_mrs;
	m->access = access;
	n->mrs[n->n_mrs++] = m;
	return &m->mr;
}

int nic_dereg_mr(struct nic *n, struct ibv_mr *mr)
{
	uint32_t i;

	if (!mr || (i = mr->handle) >= n->n_mrs || n->mrs[i] == NULL || &n->mrs[i]->mr != mr)
		return -EINVAL;
	free(n->mrs[i]);
	n->mrs[i] = NULL;
	return 0;
}

const struct nic_mr *nic_mr_check(const struct nic *n, uint32_t key, uint64_t addr, uint64_t len,
				  unsigned need)
{
	uint32_t i = key - NIC_MR_KEY_BASE;
	const struct nic_mr *m;
	uint64_t base;

	if (key < NIC_MR_KEY_BASE || i >= n->n_mrs || !(m = n->mrs[i]) || (m->access & need) != need)
		return NULL;
	base = (uint64_t)(uintptr_t)m->mr.addr;
	if (addr < base || len > m->mr.length || addr - base > m->mr.length - len)
		return NULL;
	return m;
}

void nic_mrs_free(struct nic *n)
{
	for (uint32_t i = 0; i < n->n_mrs; i++)
		free(n->mrs[i]);
	free(n->mrs);
}
