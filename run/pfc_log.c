/* pfc_log.csv (outputs.pfc_log): one row per priority of every PFC frame a
 * port sends or receives, made by the hook of core/port_pfc.c as it
 * happens and kept as an ordered record (core/sim_rec.h): rows go out by
 * time, then port (its place in pfc_log_ports), then the port's own order,
 * whatever the partitioning. PFC frames are rare, and without
 * the key no port has a hook: nothing is added to any path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "par.h"
#include "port_pfc.h"
#include "sim_rec.h"

enum {
	PFC_LOG_PS_PER_NS = 1000,
};

/* The hook's argument: which port of the topology it is. */
struct fabric_pfc_log_port {
	struct fabric *f;  /* its fabric (the log file, the names) */
	uint32_t node;     /* topology node */
	uint16_t port;     /* its port */
	struct port_pfc_log hook; /* what the port calls: fabric_pfc_log_row on this */
};

/* sim_rec_out of pfc_log.csv: a row, or a lost one (a write error). */
static void fabric_pfc_log_out(void *dest, const void *data, size_t n)
{
	struct fabric *f = dest;

	if (!data)
		f->pfc_log_lost = true;
	else if (f->pfc_log) /* (process 0's, across processes) */
		fwrite(data, 1, n, f->pfc_log);
}

static void fabric_pfc_log_row(void *arg, const struct port *p, bool tx, uint8_t prio,
			       uint16_t quanta)
{
	const struct fabric_pfc_log_port *lp = arg;
	uint64_t now_ps = p->sim->now_ps;
	char row[512];
	uint8_t *o;
	int n;

	/* The row waits in order (sim_rec.h), even in a process that writes
	 * no file (across processes, process 0 writes every row). */
	if (!p->sim->rec)
		return;
	n = snprintf(row, sizeof(row), "%llu.%03llu,%s:%u,%s,%u,%s,%u\n",
		     (unsigned long long)(now_ps / PFC_LOG_PS_PER_NS),
		     (unsigned long long)(now_ps % PFC_LOG_PS_PER_NS), lp->f->topo->nodes[lp->node].name,
		     lp->port, tx ? "tx" : "rx", prio, quanta ? "xoff" : "xon", quanta);
	n = n < 0 ? 0 : n < (int)sizeof(row) ? n : (int)sizeof(row) - 1;
	if ((o = sim_rec_room(p->sim, SIM_REC_PFC_LOG, (uint32_t)(lp - lp->f->pfc_log_ports), (uint32_t)n)))
		memcpy(o, row, (size_t)n);
}

int fabric_pfc_log_hook(struct fabric *f, char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;
	uint32_t n = 0;

	if (!f->exp->pfc_log)
		return 0;
	fabric_rec_writer(f, SIM_REC_PFC_LOG, fabric_pfc_log_out, f);
	f->pfc_log_ports = calloc(2 * (size_t)t->n_links + 1, sizeof(*f->pfc_log_ports));
	if (!f->pfc_log_ports) {
		snprintf(err, CFG_ERR_BYTES, "out of memory");
		return -ENOMEM;
	}
	for (uint32_t l = 0; l < t->n_links; l++) {
		for (int s = 0; s < 2; s++) {
			struct fabric_pfc_log_port *lp = &f->pfc_log_ports[n++];

			*lp = (struct fabric_pfc_log_port){ f, t->links[l].node[s], t->links[l].port[s],
							    { fabric_pfc_log_row, lp } };
			port_pfc_set_log(fabric_port(f, lp->node, lp->port), &lp->hook);
		}
	}
	return 0;
}

int fabric_pfc_log_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	char path[4200];
	int r;

	if (!f->exp->pfc_log)
		return 0;
	snprintf(path, sizeof(path), "%.4000s/pfc_log.csv", outdir);
	if (!(f->pfc_log = cfg_fopen_out(path))) {
		r = -errno;
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(errno));
		return r;
	}
	fputs("time_ns,port,direction,priority,kind,quanta\n", f->pfc_log);
	return 0;
}

int fabric_pfc_log_close(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	int bad, e, r;

	if (!f->pfc_log)
		return 0;
	bad = ferror(f->pfc_log) || f->pfc_log_lost;
	e = f->pfc_log_lost ? ENOMEM : errno;
	r = fclose(f->pfc_log) != 0 ? -errno : bad ? -(e ? e : EIO) : 0;
	f->pfc_log = NULL;
	if (r != 0)
		snprintf(err, CFG_ERR_BYTES, "%.400s/pfc_log.csv: cannot write: %s", outdir,
			 strerror(-r));
	return r;
}

void fabric_pfc_log_free(struct fabric *f)
{
	if (f->pfc_log)
		fclose(f->pfc_log);
	f->pfc_log = NULL;
	free(f->pfc_log_ports);
	f->pfc_log_ports = NULL;
}
