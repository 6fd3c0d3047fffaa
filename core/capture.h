/* Packet capture to pcap files (libpcap), or to one pcapng file holding
 * each captured port as a named interface (written here, from the pcapng
 * specification); nanosecond timestamps in virtual time, the link type of
 * the port's link layer (struct pkt_ll), or another one the caller picks
 * (native IB as LINKTYPE_USER0, which Wireshark 4.0 opens and
 * LINKTYPE_INFINIBAND it does not: tools/fabemu-ib.lua). Frames
 * whose payload is not materialised are written as they are in the mbuf
 * (headers only) with the frame's full
 * length as orig_len, so a reader sees an honest truncated frame. */
#ifndef FAB_CAPTURE_H
#define FAB_CAPTURE_H

#include <stdint.h>

#include "cfg.h"

struct sim;

struct rte_mbuf;
struct cap_file;
struct cap_ng;
struct pkt_ll;

/* Link types (tcpdump.org link-layer header types) a caller may pick
 * instead of the link layer's own. */
enum cap_linktype {
	CAP_LINKTYPE_USER0 = 147,       /* private use: native IB for Wireshark 4.0 */
	CAP_LINKTYPE_INFINIBAND = 247,  /* raw IB packets from the LRH (pkt_ll_ib's) */
};

/* Open @path for writing frames of link layer @ll (its pcap link type; of
 * its trailer, what ll->cap_trailer_bytes says is not captured: RoCE's
 * FCS; IB's VCRC is captured). @snaplen caps captured bytes per frame (0
 * = 65535). Returns 0 or -errno with a message in @err. */
int cap_open(const char *path, uint32_t snaplen, const struct pkt_ll *ll, struct cap_file **out,
	     char err[CFG_ERR_BYTES]);
/* cap_open with the file's link type @linktype (LINKTYPE_*, e.g.
 * CAP_LINKTYPE_USER0) instead of ll->pcap_linktype; the frames are the
 * same. */
int cap_open_as(const char *path, uint32_t snaplen, const struct pkt_ll *ll, uint16_t linktype,
		struct cap_file **out, char err[CFG_ERR_BYTES]);
/* Record @m at virtual time @t_ps; @frame_bytes is the frame length on the
 * wire including its trailer (the record's orig_len is that minus what
 * captures leave out of the trailer: the Ethernet FCS; for IB, nothing,
 * orig_len = frame_bytes). Captured bytes = min(data in mbuf, snaplen). */
void cap_write(struct cap_file *c, uint64_t t_ps, const struct rte_mbuf *m, uint32_t frame_bytes);
/* cap_write at @s's time, from an event @s handles: a pcapng interface's
 * block waits in @s's ordered records (s->rec, sim_rec.h), so that the
 * file every port shares gets its blocks in one order at any
 * partitioning; a pcap file's record is written at once. */
void cap_write_ev(struct cap_file *c, struct sim *s, const struct rte_mbuf *m, uint32_t frame_bytes);
/* A pcapng file (section header written): one per run, whose interfaces
 * are added with cap_ng_add. Returns 0 or -errno with a message in @err. */
int cap_ng_open(const char *path, struct cap_ng **out, char err[CFG_ERR_BYTES]);
/* Add interface @if_name (its Interface Description Block: link type of
 * @ll, @snaplen as in cap_open, nanosecond resolution) to @ng and return a
 * handle that cap_write records into as that interface (an Enhanced Packet
 * Block each). Close the handles (cap_close) before @ng. 0 or -errno with
 * a message in @err. */
int cap_ng_add(struct cap_ng *ng, const char *if_name, uint32_t snaplen, const struct pkt_ll *ll,
	       struct cap_file **out, char err[CFG_ERR_BYTES]);
/* cap_ng_add with the interface's link type @linktype (as cap_open_as). */
int cap_ng_add_as(struct cap_ng *ng, const char *if_name, uint32_t snaplen,
		  const struct pkt_ll *ll, uint16_t linktype, struct cap_file **out,
		  char err[CFG_ERR_BYTES]);
/* Flush and close the file; NULL is fine. 0, or -errno when a write failed. */
int cap_ng_close(struct cap_ng *ng);
/* The pcapng file @dest's writer of ordered records (sim_rec_out): a
 * block, or a lost one (a write error at cap_ng_close). */
void cap_ng_rec_out(void *dest, const void *data, size_t n);
uint64_t cap_frames(const struct cap_file *c);
/* 0, or -errno of the first write that failed (a full disk, a file-size
 * limit): the file is cut short. */
int cap_error(const struct cap_file *c);
/* Flush and close; NULL is fine. 0, or -errno when a write failed: the
 * file is incomplete and the caller must say so (an interface of a pcapng
 * file returns 0: cap_ng_close reports the file). */
int cap_close(struct cap_file *c);

#endif
