/* Packet capture to pcap files (libpcap), nanosecond timestamps in virtual
 * time, the link type of the port's link layer (struct pkt_ll). Frames
 * whose payload is not materialised are written as they are in the mbuf
 * (headers only) with the frame's full
 * length as orig_len, so a reader sees an honest truncated frame. */
#ifndef FAB_CAPTURE_H
#define FAB_CAPTURE_H

#include <stdint.h>

#include "cfg.h"

struct rte_mbuf;
struct cap_file;
struct pkt_ll;

/* Open @path for writing frames of link layer @ll (its pcap link type; its
 * trailer is not captured). @snaplen caps captured bytes per frame (0 =
 * 65535). Returns 0 or -errno with a message in @err. */
int cap_open(const char *path, uint32_t snaplen, const struct pkt_ll *ll, struct cap_file **out,
	     char err[CFG_ERR_BYTES]);
/* Record @m at virtual time @t_ps; @frame_bytes is the frame length on the
 * wire including its trailer (the record's orig_len is that minus the
 * trailer, the Ethernet FCS, which captures never hold). Captured bytes =
 * min(data in mbuf, snaplen). */
void cap_write(struct cap_file *c, uint64_t t_ps, const struct rte_mbuf *m, uint32_t frame_bytes);
uint64_t cap_frames(const struct cap_file *c);
/* 0, or -errno of the first write that failed (a full disk, a file-size
 * limit): the file is cut short. */
int cap_error(const struct cap_file *c);
/* Flush and close; NULL is fine. 0, or -errno when a write failed: the
 * file is incomplete and the caller must say so. */
int cap_close(struct cap_file *c);

#endif
