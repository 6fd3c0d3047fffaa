/* Trace format chakra, private: a rank's file as read (tg_trace_chakra_read.c:
 * the protobuf wire format, the nodes and the attributes fabemu reads),
 * shared with the matching and the trace's operations (tg_trace_chakra.c). */
#ifndef FAB_TG_TRACE_CHAKRA_INT_H
#define FAB_TG_TRACE_CHAKRA_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "tg_trace_int.h"

enum {
	CK_META = 1,           /* METADATA_NODE */
	CK_COMP = 4,           /* COMP_NODE */
	CK_SEND = 5,           /* COMM_SEND_NODE */
	CK_RECV = 6,           /* COMM_RECV_NODE */
	CK_COLL = 7,           /* COMM_COLL_NODE */
	CK_PG_BYTES = 64,      /* a process group's name kept (longer ones are cut) */
	CK_PATH_BYTES = 4096,  /* a rank's file name */
	CK_MAX_RANKS = 65536,  /* files one trace may have */
};

/* Files above this are refused from their size: a rank's trace is read
 * whole (about 100 bytes a node). */
#define CK_MAX_FILE_BYTES (UINT64_C(1) << 30)

/* What the attributes read hold, and which are there. */
enum {
	CK_HAS_TYPE = 1u << 0,
	CK_HAS_SIZE = 1u << 1,
	CK_HAS_SRC = 1u << 2,
	CK_HAS_DST = 1u << 3,
	CK_HAS_TAG = 1u << 4,
	CK_HAS_PG = 1u << 5,
};

/* One node of a rank's file. */
struct tg_ck_node {
	uint64_t id;            /* its id in the file */
	uint64_t dur_us;        /* duration_micros */
	int64_t comm_type;      /* attributes (has says which were given) */
	int64_t comm_size;
	int64_t comm_src;
	int64_t comm_dst;
	int64_t comm_tag;
	char pg[CK_PG_BYTES];   /* pg_name */
	uint32_t has;           /* CK_HAS_* */
	uint32_t type;          /* NodeType */
	uint32_t no;            /* 1-based place in the file (the errors' line) */
	uint32_t dep_off;       /* its dependencies: the rank's dep_ids[dep_off ..] */
	uint32_t n_deps;
	uint32_t op;            /* the trace operation it is (its gate, for a collective) */
	uint32_t match;         /* send: its message's operation; collective: its
				 * instance's */
};

/* One rank's file. */
struct tg_ck_rank {
	char path[CK_PATH_BYTES];
	struct tg_ck_node *nodes;
	uint32_t n_nodes, cap_nodes;
	uint64_t *dep_ids;      /* every node's dependency ids, concatenated */
	uint32_t n_dep_ids, cap_dep_ids;
	uint32_t *by_id;        /* node indices sorted by id */
};

/* A trace of ranks: each one's nodes, and the process groups met. */
struct tg_ck_trace {
	struct tg_ck_rank *ranks;       /* rank r's file (calloc'd) */
	uint32_t n;                     /* ranks */
	char (*pgs)[CK_PG_BYTES];       /* the process groups' names, by index */
	uint32_t n_pgs, cap_pgs;
	uint32_t *pg_slots;             /* their hash table: index + 1 a slot, 0 free */
	uint32_t n_pg_slots;            /* its size, a power of two */
};

/* The trace's operations from @t's ranks (rank r is participant
 * in->hosts[r]): index each rank's nodes by id, check their
 * communication attributes, match the sends with the receives and the
 * collectives into instances, and push one operation a node and one an
 * instance into @out. 0, -EINVAL with "PATH:NODE:1: message", -E2BIG,
 * -ENOMEM. */
int tg_ck_build(struct tg_ck_trace *t, const struct tg_trace_in *in, struct tg_trace *out,
		char err[CFG_ERR_BYTES]);
void tg_ck_free(struct tg_ck_trace *t); /* its ranks' arrays and itself's; NULL fields fine */

/* Read rank file r->path whole and parse its nodes into @r (its nodes and
 * dependency ids): 0, -EINVAL with "PATH:NODE:1: message" in @err, -E2BIG
 * past TG_TRACE_MAX_OPS nodes or TG_TRACE_MAX_DEPS dependencies, -ENOMEM. */
int tg_ck_rank_read(struct tg_ck_rank *r, char err[CFG_ERR_BYTES]);

#endif
