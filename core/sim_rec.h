/* Ordered records of a partitioned run (core/par.h): what a handler writes
 * into one file shared by every partition (pfc_log.csv, a pcapng capture)
 * is kept in its partition's buffer with the key of the event that wrote
 * it, and written out at each window's end in key order, which is the
 * order one thread writes it in (events run in key order; a record keeps
 * its place among its event's others). Without partitions nothing is
 * kept: sim->rec is NULL and writers write at once. */
#ifndef FAB_SIM_REC_H
#define FAB_SIM_REC_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* Where a record goes: @n bytes at @data into @dest (the writer's own
 * file); @data NULL (and @n 0) says a record for @dest was lost (no
 * memory to keep it), which the writer reports as a write error. */
typedef void (*sim_rec_out)(void *dest, const void *data, size_t n);

/* A partition's records: headers and bytes, one after the other. */
struct sim_rec {
	uint8_t *buf;           /* the records */
	size_t len, cap;        /* bytes used, allocated */
	size_t at;              /* sim_rec_flush: the next record to write */
	sim_rec_out lost_out;   /* the writer of the first lost record, and its */
	void *lost_dest;        /* destination (told at the next flush) */
};

/* Room for a record of @n bytes for @out / @dest, keyed by the event @s
 * is handling (s->cur_key), in @s's buffer (s->rec); NULL when it cannot
 * grow (the record is lost; the writer is told at the flush). Call only
 * with s->rec set. */
uint8_t *sim_rec_room(struct sim *s, sim_rec_out out, void *dest, uint32_t n);

/* Write the records of @recs[0..@n) in key order (each buffer is in key
 * order; ties keep the buffers' order), each to its writer, and empty
 * the buffers. */
void sim_rec_flush(struct sim_rec *const *recs, uint32_t n);

void sim_rec_free(struct sim_rec *r);

#endif
