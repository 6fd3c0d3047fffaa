/* InfiniBand's settings (fabric.ib, linklayers/infiniband_cfg.c), shared
 * by the layer's two files: the subnet manager's routing engine and
 * SL-to-VL maps, the credit buffers and their updates, the GRH. */
#ifndef FAB_INFINIBAND_H
#define FAB_INFINIBAND_H

#include "link_layer.h"

struct ib_settings {
	const struct exp *exp;        /* the experiment being read (its topology:
				       * port_sl2vl's ports); set before reading */
	int routing;                  /* enum sw_ib_routing */
	uint8_t sl2vl[SW_IB_N_SL];    /* VL of each SL, every port */
	bool grh;                     /* packets carry a GRH */
	uint64_t vl_buffer_bytes;     /* credit buffer each receiver grants per VL,
				       * bytes; 0: auto (the link's credit loop) */
	struct cfg_mark vl_buffer_mark; /* where it was set (a size, not auto) */
	uint64_t credit_update_bytes; /* freed bytes that trigger a flow-control packet */
	uint64_t credit_interval_ps;  /* refresh of unadvertised credit (flow-control
				       * packet at least this often while some is), ps */
	struct exp_capture *sl2vl_ports; /* port_sl2vl: switch ports with a table of their
				       * own (in order; later entries win) */
	uint8_t (*sl2vl_maps)[SW_IB_N_SL]; /* their tables */
	uint32_t n_sl2vl_ports;       /* their count */
};

/* The fabric.ib keys (struct ib_settings). */
extern const struct cfg_table ib_settings_table;
void ib_settings_init(void *s, const struct exp *e);
void ib_settings_free(void *s);

#endif
