/* The fault schedule at run time (schedule.c): armed by fabric_build when
 * the experiment has faults:, its log and counters read by the results. */
#ifndef FAB_FAULTS_H
#define FAB_FAULTS_H

#include <stdarg.h>
#include <stdint.h>

#include "fabric.h"

/* One line of faults.csv: something the schedule did. */
struct fault_row {
	uint64_t t_ps;       /* when */
	uint32_t fault;      /* the fault (index of exp->faults), UINT32_MAX for the
			      * fabric's own reaction (reroute) */
	char what[24];       /* "down", "up", "reroute", ... */
	char detail[160];    /* where, or why */
};

/* What happened on a fault's links and ports (fabric_fault_counts). */
struct fault_counts {
	uint64_t lost_down;   /* frames lost because a link was down */
	uint64_t lost_random; /* frames lost to the loss it set */
	uint64_t corrupted;   /* frames corrupted on the wire */
	uint64_t fcs_errors;  /* frames dropped by a receiver's FCS check */
	uint64_t down_ps;     /* time its (first) link was down */
	uint64_t xoffs;       /* pfc-storm: XOFF frames it sent */
	uint64_t routes_changed; /* totals only: (switch, destination class) rows the
				  * recomputations of the forwarding changed */
};

/* Schedule the experiment's faults on @f (nothing without). 0 or -ENOMEM
 * with @err filled. */
int fabric_faults_arm(struct fabric *f, char err[CFG_ERR_BYTES]);
void fabric_faults_free(struct fabric *f);
/* The log so far, *@n rows (NULL and 0 without faults). */
const struct fault_row *fabric_fault_rows(const struct fabric *f, uint32_t *n);
/* The counters of fault @i's ports: link kinds both directions of each of
 * its links, the others their egress (and the receiver's FCS drops). */
void fabric_fault_counts(const struct fabric *f, uint32_t i, struct fault_counts *out);
/* What fault @i's kind counted itself (its count hook: a storm's XOFFs)
 * in this process, zeros for a kind without; a split run's results read
 * these summed over the processes (fabric.rfault). */
void fabric_fault_own_counts(const struct fabric *f, uint32_t i, struct fault_counts *out);
/* The same over every link, and the forwarding recomputations done and
 * failed. */
void fabric_fault_totals(const struct fabric *f, struct fault_counts *out, uint32_t *reroutes,
			 uint32_t *reroute_failed);

#endif
