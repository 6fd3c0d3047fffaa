/* pcap writer on libpcap: the link layer's link type, nanosecond timestamps taken
 * from virtual time. A frame whose payload is not materialised is recorded
 * with the bytes the mbuf holds as caplen and its full length (without trailer)
 * as len, so Wireshark shows "[Packet size limited during capture]". */
#include "capture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <rte_mbuf.h>

#include "pkt_ll.h"

enum {
	CAP_DEFAULT_SNAPLEN = 65535,
	CAP_PS_PER_NS = 1000,
};

#define CAP_PS_PER_S UINT64_C(1000000000000)

struct cap_file {
	pcap_t *pcap;         /* dead handle: link type, snaplen, ns precision */
	pcap_dumper_t *dump;  /* the open file */
	uint8_t *linear;      /* snaplen bytes, for copying chained mbufs */
	uint32_t snaplen;     /* bytes captured per frame at most */
	uint32_t trailer_bytes; /* link trailer counted in frame_bytes, never captured (FCS) */
	uint64_t n_frames;    /* frames written */
	int err;              /* first write error (errno), 0 = none */
};

int cap_open(const char *path, uint32_t snaplen, const struct pkt_ll *ll, struct cap_file **out,
	     char err[CFG_ERR_BYTES])
{
	struct cap_file *c;
	int rc;

	*out = NULL;
	if (snaplen == 0)
		snaplen = CAP_DEFAULT_SNAPLEN;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		snprintf(err, CFG_ERR_BYTES, "%s: out of memory", path);
		return -ENOMEM;
	}
	c->snaplen = snaplen;
	c->trailer_bytes = ll->trailer_bytes;
	c->linear = malloc(snaplen);
	c->pcap = pcap_open_dead_with_tstamp_precision(ll->pcap_linktype, (int)snaplen,
						       PCAP_TSTAMP_PRECISION_NANO);
	if (c->linear == NULL || c->pcap == NULL) {
		snprintf(err, CFG_ERR_BYTES, "%s: out of memory", path);
		cap_close(c);
		return -ENOMEM;
	}
	errno = 0;
	c->dump = pcap_dump_open(c->pcap, path);
	if (c->dump == NULL) {
		rc = errno != 0 ? -errno : -EIO;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot write pcap: %s", path, pcap_geterr(c->pcap));
		cap_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

void cap_write(struct cap_file *c, uint64_t t_ps, const struct rte_mbuf *m, uint32_t frame_bytes)
{
	struct pcap_pkthdr h;
	const void *data;
	uint32_t caplen = RTE_MIN(rte_pktmbuf_pkt_len(m), c->snaplen);
	uint32_t len = frame_bytes > c->trailer_bytes ? frame_bytes - c->trailer_bytes : 0;

	/* Contiguous data is used in place; a chain is copied into c->linear. */
	data = rte_pktmbuf_read(m, 0, caplen, c->linear);
	h.ts.tv_sec = (time_t)(t_ps / CAP_PS_PER_S);
	/* With nanosecond precision libpcap stores tv_usec as nanoseconds. */
	h.ts.tv_usec = (suseconds_t)(t_ps % CAP_PS_PER_S / CAP_PS_PER_NS);
	h.caplen = caplen;
	/* A wrong frame_bytes must not make a record claim less than it holds. */
	h.len = RTE_MAX(len, caplen);
	pcap_dump((u_char *)c->dump, &h, data);
	/* pcap_dump reports nothing: a failed write (full disk, file-size
	 * limit) leaves the error flag of the dump's stream set. */
	if (unlikely(c->err == 0 && ferror_unlocked(pcap_dump_file(c->dump))))
		c->err = errno ? errno : EIO;
	c->n_frames++;
}

int cap_error(const struct cap_file *c)
{
	return -c->err;
}

uint64_t cap_frames(const struct cap_file *c)
{
	return c->n_frames;
}

int cap_close(struct cap_file *c)
{
	int rc;

	if (c == NULL)
		return 0;
	rc = -c->err;
	if (c->dump != NULL) {
		/* pcap_dump_close does not say whether its fclose failed: flush
		 * first, which writes whatever is buffered and reports it. */
		errno = 0;
		if ((pcap_dump_flush(c->dump) != 0 || ferror(pcap_dump_file(c->dump))) && rc == 0)
			rc = errno ? -errno : -EIO;
		pcap_dump_close(c->dump);
	}
	if (c->pcap != NULL)
		pcap_close(c->pcap);
	free(c->linear);
	free(c);
	return rc;
}
