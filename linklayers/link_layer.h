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
	struct reg_kind kind;      /* name (fabric.link_layer: roce), doc, its settings'
				    * keys and struct (a fabric: section, below) */
	const char *section;       /* its settings' key in fabric: ("ib"); NULL: its
				    * name. Every layer's section is read (and shown
				    * in the resolved experiment) whichever runs */
	const char *section_doc;   /* that key's doc line; NULL: generated */
	const struct pkt_ll *wire; /* framing handed to switches, NICs and the traffic;
				    * NULL: the modules' default (RoCE) */
	bool pfc;                  /* has PFC pauses (what pfc-storm and slow-receiver
				    * faults send) */
	bool eth_switch;           /* switches run Ethernet's features: fabric.ecn's
				    * marking (by_rate checked), fabric.int and so the
				    * congestion controls that read INT (hpcc) */
	bool credits;              /* lossless by credits per VL: the run's credit.* and
				    * fecn.* results, ports.csv's credit columns */
	/* Ready its settings @s (zeroed) before they are read for @e (whose
	 * topology is read by then). NULL: nothing to ready. */
	void (*settings_init)(void *s, const struct exp *e);
	/* Free what reading put in @s. NULL: nothing. */
	void (*settings_free)(void *s);
	/* The experiment's other settings checked against the layer once all
	 * are read (InfiniBand: nic.mtu a path MTU); messages FILE:LINE:COL.
	 * NULL: none. 0 or -EINVAL. */
	int (*exp_check)(const struct exp *e, char err[CFG_ERR_BYTES]);
	/* Congestion control @ops, in use (named at @m), against the layer
	 * (UET: no CNPs, no INT stack); NULL: any. 0 or -EINVAL with @err
	 * "FILE:LINE:COL: ...". */
	int (*cc_check)(const struct exp *e, const struct cc_ops *ops, const struct cfg_mark *m,
			char err[CFG_ERR_BYTES]);
	/* What marks congestion on its switches under @e, in a warning's words
	 * ("ECN marking is on (fabric.ecn)"), or NULL when nothing does. NULL
	 * hook: nothing marks. */
	const char *(*marking)(const struct exp *e);
	/* The key that turns that marking on ("fabric.ecn"), for the message
	 * that refuses (or warns of) an algorithm reacting to marks when
	 * nothing marks (docs/config.md, "What congestion control acts on").
	 * NULL: the layer never marks. */
	const char *marking_key;
	/* Whether its switches mark packets of DSCP @dscp under @e when its
	 * marking is on (RoCE: fabric.ecn's tcs hold the class). NULL: every
	 * class. */
	bool (*marks_dscp)(const struct exp *e, uint8_t dscp);
	/* The switches' settings from the experiment's (@sp holds e->sw with
	 * the frame size set). NULL: as configured. */
	void (*switch_params)(const struct exp *e, struct sw_params *sp);
	/* The NICs' settings (@np holds e->nic with the classes and the
	 * framing, wire, set). NULL: as configured. */
	void (*nic_params)(const struct exp *e, struct nic_params *np);
	/* NIC @i of @f was made: its ports' set-up. NULL: none. 0 or -ENOMEM. */
	int (*nic_ready)(struct fabric *f, uint32_t i);
	/* Every link is connected (@np: the NICs' settings). NULL: nothing more.
	 * 0 or -ENOMEM. */
	int (*wire_up)(struct fabric *f, const struct nic_params *np);
	/* After wiring, among fabric_ready's checks: what only the built
	 * fabric tells (InfiniBand: a credit buffer that holds no frame).
	 * NULL: none. 0 or -errno with @err filled. */
	int (*ready)(struct fabric *f, char err[CFG_ERR_BYTES]);
};

/* Ethernet's hooks (linklayers/roce.c), shared by the layers on Ethernet
 * switches (roce, uet): PFC on NIC ports where a priority is lossless
 * (or towards a GPU's scale-up switch, which pauses every priority);
 * switches mark ECN by RED (fabric.ecn), on the classes of fabric.ecn.tcs
 * only. */
int link_layer_eth_nic_ready(struct fabric *f, uint32_t i);
const char *link_layer_eth_marking(const struct exp *e);
bool link_layer_eth_marks_dscp(const struct exp *e, uint8_t dscp);

/* Register @ops after the built-in layers (at program start): 0, or
 * -EINVAL / -ENOSPC with @err filled. */
int link_layer_register(const struct link_layer_ops *ops, char err[CFG_ERR_BYTES]);
/* The registry (fabric.link_layer is read through it). */
struct reg *link_layer_reg(void);
/* The default layer (roce), for an experiment that names none. */
const struct link_layer_ops *link_layer_default(void);

/* Every layer's settings (exp.ll_cfg): a block made for @e before the
 * experiment is read (each layer's settings_init run), NULL when out of
 * memory; freed with each layer's settings_free. */
void *link_layer_cfg_new(const struct exp *e);
void link_layer_cfg_free(void *cfg);
/* The fabric: section keys of the layers' settings ("ib: {...}"), read
 * with the fabric: section into that block. */
const struct cfg_table *link_layer_cfg_table(void);
/* Why nothing marks an algorithm's traffic on @e's layer, for a message
 * on an algorithm that reacts to marks: "fabric.ib_cc is off", "fabric.ecn
 * marks none of the classes its traffic uses" or "it never marks", and the other
 * layers' marking keys that are set but do not apply ("; fabric.ecn marks
 * only with fabric.link_layer: roce"), into @buf of @size bytes. */
void link_layer_marking_hint(const struct exp *e, char *buf, size_t size);
/* Whether @e's layer marks the traffic of algorithm @ops (the messages
 * whose own cc, or nic.cc where they have none, is @ops): false when its
 * marking is off; when on, true if it covers the class of one of them or
 * none uses @ops. */
bool link_layer_marks_traffic(const struct exp *e, const struct cc_ops *ops);
/* The settings of @e's layer (NULL when it has none). */
const void *link_layer_settings(const struct exp *e);

#endif
