/* Ordered records: what handlers write into a file that many ports share
 * (pfc_log.csv, a pcapng capture) goes out in one order whatever runs the
 * ports: by time, then by port (the writer's ordinal: a capture's
 * interface, a pfc_log port), then in the order the port's own events
 * wrote it (a port's events run in one partition, in one thread's order).
 * Records wait in a buffer (sim->rec): a run without partitions writes
 * those of times before now when the buffer fills, and the rest at its
 * end (sim_rec_flush); a partitioned run keeps one buffer per partition
 * and writes the times before each window's bound at the window's end,
 * across processes in process 0 (core/par.c). */
#ifndef FAB_SIM_REC_H
#define FAB_SIM_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;

/* The files records go to, the same in every process. */
enum sim_rec_dest {
	SIM_REC_PFC_LOG,  /* pfc_log.csv (run/pfc_log.c) */
	SIM_REC_PCAPNG,   /* the pcapng capture (core/capture.c) */
	SIM_REC_N_DESTS,
};

/* Where a record goes: @n bytes at @data into @dest (the writer's own
 * file); @data NULL (and @n 0) says a record for it was lost (no memory
 * to keep it), which the writer reports as a write error. */
typedef void (*sim_rec_out)(void *dest, const void *data, size_t n);

struct sim_rec_writer {
	sim_rec_out out;        /* NULL: none here (its records are dropped) */
	void *dest;
};

/* Records waiting: headers and bytes, one after the other, in the order
 * written, with nothing process-local in them (they travel between
 * processes). */
struct sim_rec {
	uint8_t *buf;           /* the records */
	size_t len, cap;        /* bytes used, allocated */
	uint32_t lost;          /* a bit per enum sim_rec_dest: a record lost */
	/* A run without partitions: where its records go, so that a full
	 * buffer writes what it can (NULL in a partition's). */
	const struct sim_rec_writer *writers;
};

/* Room for a record of @n bytes for @dest about port @ord (the writer's
 * ordinal) at @s's time, in @s's buffer (s->rec); NULL when it cannot
 * grow (the record is lost; its writer is told at the flush). Call only
 * with s->rec set. */
uint8_t *sim_rec_room(struct sim *s, enum sim_rec_dest dest, uint32_t ord, uint32_t n);

/* Append @n bytes of another buffer's records (another process's) to @r.
 * false when they are malformed; lost bits set when there is no memory. */
bool sim_rec_append(struct sim_rec *r, const uint8_t *data, size_t n);

/* Write the records of @recs[0..@n) of times before @before_ps, in the
 * order above, each to @writers[its dest], and keep the others (in their
 * buffers, in order). 0, or -ENOMEM (nothing written). */
int sim_rec_flush(struct sim_rec *const *recs, uint32_t n, const struct sim_rec_writer *writers,
		  uint64_t before_ps);

void sim_rec_free(struct sim_rec *r);

#endif
