/* Link layers (fabric.link_layer): one file a layer in this folder, each
 * an ops table in link_layer.c's built-in list or added by
 * link_layer_register, with what fabric_build wires for it: framing,
 * switch and NIC settings, NIC ports (PFC), credits and SL-to-VL tables. */
#ifndef FAB_LINK_LAYER_H
#define FAB_LINK_LAYER_H

#include <stdbool.h>

#include "fabric.h"
#include "reg.h"

/* A link layer. */
struct link_layer_ops {
	struct reg_kind kind;      /* name (fabric.link_layer: roce), doc; no settings
				    * of its own here (InfiniBand's are fabric.ib) */
	int pkt_kind;              /* enum pkt_ll_kind (exp.link_layer, which modules read) */
	const struct pkt_ll *wire; /* framing handed to switches, NICs and the traffic;
				    * NULL: the modules' default (RoCE) */
	bool pfc;                  /* has PFC pauses (what pfc-storm and slow-receiver
				    * faults send) */
	bool eth_switch;           /* switches run Ethernet's features: fabric.ecn's
				    * marking (by_rate checked), fabric.int */
	/* The switches' settings from the experiment's (@sp holds e->sw with
	 * the frame size set). NULL: as configured. */
	void (*switch_params)(const struct exp *e, struct sw_params *sp);
	/* The NICs' settings (@np holds e->nic with the classes set). NULL: as
	 * configured. */
	void (*nic_params)(const struct exp *e, struct nic_params *np);
	/* NIC @i of @f was made: its ports' set-up. NULL: none. 0 or -ENOMEM. */
	int (*nic_ready)(struct fabric *f, uint32_t i);
	/* Every link is connected (@np: the NICs' settings). NULL: nothing more.
	 * 0 or -ENOMEM. */
	int (*wire_up)(struct fabric *f, const struct nic_params *np);
};

/* Register @ops after the built-in layers (at program start): 0, or
 * -EINVAL / -ENOSPC with @err filled. */
int link_layer_register(const struct link_layer_ops *ops, char err[CFG_ERR_BYTES]);
/* The registry (fabric.link_layer is read through it). */
struct reg *link_layer_reg(void);
/* The default layer (roce), for an experiment that names none. */
const struct link_layer_ops *link_layer_default(void);

#endif
