/* Congestion control behind one const ops table per algorithm. The NIC
 * allocates priv_size bytes per QP and calls the hooks; an algorithm sees
 * only these types, never the NIC or the switch. */
#ifndef FAB_CC_H
#define FAB_CC_H

#include <stddef.h>
#include <stdint.h>

/* Fixed per-QP inputs. */
struct cc_params {
	uint64_t line_rate_bps; /* rate of the NIC port the QP sends on */
	uint64_t base_rtt_ps;   /* unloaded round-trip time of the QP's path */
	uint32_t mtu_bytes;     /* payload bytes per packet */
};

/* What an acknowledgement tells the sender. */
struct cc_ack {
	uint32_t acked_bytes;   /* payload bytes newly acknowledged */
};

struct cc_ops {
	const char *name;       /* "none", later "dcqcn", "hpcc", ... */
	size_t priv_size;       /* per-QP state, bytes */
	/* Set up @priv (priv_size bytes, zeroed). Returns 0 or -errno. */
	int (*init)(void *priv, const struct cc_params *p);
	/* An ACK arrived. May be NULL. */
	void (*on_ack)(void *priv, const struct cc_ack *ack, uint64_t now_ps);
	/* A CNP arrived for this QP. May be NULL. */
	void (*on_cnp)(void *priv, uint64_t now_ps);
	/* Current sending rate; the NIC paces the QP to it. */
	uint64_t (*rate_bps)(const void *priv);
};

/* Algorithm by name, NULL if unknown. */
const struct cc_ops *cc_find(const char *name);
/* NULL-terminated list of the registered names (for messages and docs). */
const char *const *cc_names(void);

#endif
