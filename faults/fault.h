/* Fault kinds (the kind: of a faults: entry): one file a kind in this
 * folder, each an ops table listed in fault.c's built-in list or added by
 * fault_register. run/exp_faults.c reads an entry's common keys and the
 * kind's settings; schedule.c runs the schedule, calling its hooks. */
#ifndef FAB_FAULT_H
#define FAB_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "exp.h"
#include "faults.h"
#include "reg.h"

struct fabric_faults; /* the schedule at run time (schedule.c) */

/* A fault kind. */
struct fault_ops {
	struct reg_kind kind;   /* name, doc, its own keys (section "faults") and the
				 * size of the settings struct they fill (exp_fault.settings) */
	const char *need;       /* keys it needs beside kind and at, space-separated
				 * ("ports period count"): ports or node, its own */
	const char *allow;      /* keys it also takes ("duration"); every key of its
				 * table is in need or allow (checked at registration) */
	const char *node_noun;  /* names a node (node:), not ports: what the node must
				 * be, "switch" or "host (a NIC)"; NULL: ports */
	bool node_switch;       /* node_noun set: the node is a switch, else a host */
	bool params_only;       /* acts only by setting its ports' parameters (rate, loss,
				 * corruption), the same in every copy of them */
	bool splits;            /* a run split over MPI processes may have it
				 * (run/fabric_par.c): its hooks act through parameters,
				 * fault_links, or on ports par_sim_here says this process
				 * runs, and count only there (every process runs them) */
	bool egress;            /* acts on its ports' egress (counted there and at the
				 * receiver's FCS check), not on both directions of links */
	const char *log_start;  /* faults.csv's action when it starts ("down") */
	const char *log_end;    /* ... and when it ends ("up"); NULL: it never does */
	size_t state_size;      /* bytes of its run-time state per fault, 0: none */
	/* Checks across its keys, after they were read (@it the entry; messages
	 * FILE:LINE:COL at the key at fault). NULL: none. 0 or -EINVAL. */
	int (*validate)(const struct exp_fault *x, const struct cfg_node *it,
			char err[CFG_ERR_BYTES]);
	/* The last instant it acts at (the horizon check). NULL: at + duration. */
	unsigned __int128 (*end)(const struct exp_fault *x);
	/* Schedule fault @i's starts and ends (fault_plan_add, in time order).
	 * NULL: a start at its at, an end after its duration when it has one. */
	int (*arm)(struct fabric_faults *ff, uint32_t i, const struct exp_fault *x);
	/* Ready its run-time state @state (zeroed, state_size bytes) before the
	 * run. NULL: nothing to ready. 0 or -errno. */
	int (*init)(struct fabric_faults *ff, uint32_t i, void *state);
	/* What its start does; required. 0 or -errno (out of memory mid-run). */
	int (*act)(struct fabric_faults *ff, uint32_t i, void *state);
	/* What its end (a repair, the duration over) does; required with log_end. */
	int (*undo)(struct fabric_faults *ff, uint32_t i, void *state);
	/* Add its own counters (e.g. XOFFs sent) to @out. NULL: none. */
	void (*count)(const void *state, struct fault_counts *out);
};

/* Register @ops after the built-in kinds (at program start): 0, or -EINVAL
 * / -ENOSPC with @err filled (a taken name, no act, an end without undo, a
 * settings key neither needed nor allowed, ...). */
int fault_register(const struct fault_ops *ops, char err[CFG_ERR_BYTES]);
/* The registry (run/exp_faults.c reads kind: through it). */
struct reg *fault_reg(void);

/* Is @key one of the space-separated words of @list (a kind's need or
 * allow)? */
bool fault_word(const char *list, const char *key);

/* The kinds the failure processes (failures:) draw. */
extern const struct fault_ops fault_link_down;
extern const struct fault_ops fault_switch_down;
extern const struct fault_ops fault_nic_down;

/* What a kind's hooks may use (schedule.c). */
struct fabric *fault_fabric(struct fabric_faults *ff);
/* Fault @i of the experiment. */
const struct exp_fault *fault_get(struct fabric_faults *ff, uint32_t i);
/* The port of fault @x's @k-th entry, and the topology link there. */
struct port *fault_port(struct fabric *f, const struct exp_fault *x, uint32_t k);
uint32_t fault_link(const struct fabric *f, const struct exp_fault *x, uint32_t k);
/* A start (@start) or an end of fault @i at @t_ps, for an arm hook. 0 or
 * -ENOMEM. */
int fault_plan_add(struct fabric_faults *ff, uint64_t t_ps, uint32_t i, bool start);
/* Fault @i takes the links at its ports down (@down) or gives them back;
 * @force: up whatever else holds them down (link-up). Links that change
 * state recompute the forwarding fabric.convergence later. 0 or -errno. */
int fault_links(struct fabric_faults *ff, uint32_t i, bool down, bool force);
/* Timers of a kind (a storm's chain): fault_at schedules @fn as an event
 * that does not keep a finished run alive; @fn calls fault_live first and
 * does nothing when it says false (the run is over). */
void fault_at(struct fabric *f, uint64_t t, struct ev_src *src, ev_fn fn, void *obj);
bool fault_live(struct fabric *f);

#endif
