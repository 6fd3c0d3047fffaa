/* pcap writer on libpcap, and a pcapng writer of our own (libpcap of Debian
 * 12 cannot write pcapng): the link layer's link type, nanosecond timestamps taken
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
#include "sim.h"
#include "sim_rec.h"

enum {
	CAP_DEFAULT_SNAPLEN = 65535,
	CAP_PS_PER_NS = 1000,
};

#define CAP_PS_PER_S UINT64_C(1000000000000)

/* pcapng (IETF draft-ietf-opsawg-pcapng): blocks of 32-bit words in the
 * writer's byte order, which the section header's magic tells. */
enum {
	CAP_NG_SHB = 0x0A0D0D0A,       /* Section Header Block type */
	CAP_NG_IDB = 0x00000001,       /* Interface Description Block type */
	CAP_NG_EPB = 0x00000006,       /* Enhanced Packet Block type */
	CAP_NG_MAGIC = 0x1A2B3C4D,     /* byte-order magic */
	CAP_NG_OPT_END = 0,            /* opt_endofopt */
	CAP_NG_OPT_IF_NAME = 2,        /* if_name: UTF-8, not terminated */
	CAP_NG_OPT_IF_TSRESOL = 9,     /* if_tsresol: one byte, 10^-n s */
	CAP_NG_TSRESOL_NS = 9,         /* nanoseconds */
	CAP_NG_IF_NAME_MAX_BYTES = 256, /* longest if_name written */
};

struct cap_ng {
	FILE *f;              /* the open file */
	uint32_t n_ifs;       /* interfaces described so far (the next id) */
	int err;              /* first write error (errno), 0 = none */
};

struct cap_file {
	struct cap_ng *ng;    /* the pcapng file this interface writes into, or NULL (pcap) */
	uint32_t if_id;       /* pcapng: its interface id */
	pcap_t *pcap;         /* dead handle: link type, snaplen, ns precision */
	pcap_dumper_t *dump;  /* the open file */
	uint8_t *linear;      /* snaplen bytes, for copying chained mbufs */
	uint32_t snaplen;     /* bytes captured per frame at most */
	uint32_t trailer_bytes; /* link trailer counted in frame_bytes, not captured (the
				 * Ethernet FCS; 0 for IB, whose VCRC is captured) */
	uint64_t n_frames;    /* frames written */
	int err;              /* first write error (errno), 0 = none */
};

int cap_open(const char *path, uint32_t snaplen, const struct pkt_ll *ll, struct cap_file **out,
	     char err[CFG_ERR_BYTES])
{
	return cap_open_as(path, snaplen, ll, ll->pcap_linktype, out, err);
}

int cap_open_as(const char *path, uint32_t snaplen, const struct pkt_ll *ll, uint16_t linktype,
		struct cap_file **out, char err[CFG_ERR_BYTES])
{
	struct cap_file *c;
	FILE *fp;
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
	c->trailer_bytes = ll->cap_trailer_bytes;
	c->linear = malloc(snaplen);
	c->pcap = pcap_open_dead_with_tstamp_precision(linktype, (int)snaplen,
						       PCAP_TSTAMP_PRECISION_NANO);
	if (c->linear == NULL || c->pcap == NULL) {
		snprintf(err, CFG_ERR_BYTES, "%s: out of memory", path);
		cap_close(c);
		return -ENOMEM;
	}
	errno = 0;
	/* Opened here, not by libpcap: a link in the file's place is not
	 * followed (cfg_fopen_out). */
	fp = cfg_fopen_out(path);
	if (fp == NULL) {
		rc = errno != 0 ? -errno : -EIO;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot write pcap: %s", path, strerror(-rc));
		cap_close(c);
		return rc;
	}
	c->dump = pcap_dump_fopen(c->pcap, fp);
	if (c->dump == NULL) {
		rc = errno != 0 ? -errno : -EIO;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot write pcap: %s", path, pcap_geterr(c->pcap));
		fclose(fp);
		cap_close(c);
		return rc;
	}
	*out = c;
	return 0;
}

static uint32_t cap_ng_pad4(uint32_t n)
{
	return (n + 3) & ~UINT32_C(3);
}

/* Append @n bytes to the pcapng file, keeping the first error. */
static void cap_ng_put(struct cap_ng *ng, const void *p, size_t n)
{
	if (fwrite(p, 1, n, ng->f) != n && ng->err == 0)
		ng->err = errno ? errno : EIO;
}

int cap_ng_open(const char *path, struct cap_ng **out, char err[CFG_ERR_BYTES])
{
	/* SHB: type, length, magic, version 1.0, section length unknown (-1),
	 * no options, length again. */
	const uint32_t shb[7] = { CAP_NG_SHB, sizeof(shb), CAP_NG_MAGIC, 1 /* major */ | 0 << 16,
				  UINT32_MAX, UINT32_MAX, sizeof(shb) };
	struct cap_ng *ng;
	int rc;

	*out = NULL;
	ng = calloc(1, sizeof(*ng));
	if (ng == NULL) {
		snprintf(err, CFG_ERR_BYTES, "%s: out of memory", path);
		return -ENOMEM;
	}
	errno = 0;
	ng->f = cfg_fopen_out(path);
	if (ng->f == NULL) {
		rc = errno != 0 ? -errno : -EIO;
		snprintf(err, CFG_ERR_BYTES, "%s: cannot write pcapng: %s", path, strerror(-rc));
		free(ng);
		return rc;
	}
	cap_ng_put(ng, shb, sizeof(shb));
	*out = ng;
	return 0;
}

int cap_ng_add(struct cap_ng *ng, const char *if_name, uint32_t snaplen, const struct pkt_ll *ll,
	       struct cap_file **out, char err[CFG_ERR_BYTES])
{
	return cap_ng_add_as(ng, if_name, snaplen, ll, ll->pcap_linktype, out, err);
}

int cap_ng_add_as(struct cap_ng *ng, const char *if_name, uint32_t snaplen,
		  const struct pkt_ll *ll, uint16_t linktype, struct cap_file **out,
		  char err[CFG_ERR_BYTES])
{
	uint32_t name_bytes = (uint32_t)strnlen(if_name, CAP_NG_IF_NAME_MAX_BYTES);
	uint32_t len = 4 * 4 /* type, length, link type + reserved, snaplen */ +
		       4 + cap_ng_pad4(name_bytes) /* if_name */ + 4 + 4 /* if_tsresol */ +
		       4 /* opt_endofopt */ + 4 /* length */;
	uint32_t head[4], tail[3];
	uint16_t opt[2];
	static const uint8_t zeros[4];
	struct cap_file *c;

	*out = NULL;
	if (snaplen == 0)
		snaplen = CAP_DEFAULT_SNAPLEN;
	c = calloc(1, sizeof(*c));
	if (c == NULL || (c->linear = malloc(snaplen)) == NULL) {
		free(c);
		snprintf(err, CFG_ERR_BYTES, "%s: out of memory", if_name);
		return -ENOMEM;
	}
	c->ng = ng;
	c->if_id = ng->n_ifs++;
	c->snaplen = snaplen;
	c->trailer_bytes = ll->cap_trailer_bytes;
	head[0] = CAP_NG_IDB;
	head[1] = len;
	head[2] = linktype; /* link type in the low 16 bits, reserved 0 */
	head[3] = snaplen;
	cap_ng_put(ng, head, sizeof(head));
	opt[0] = CAP_NG_OPT_IF_NAME;
	opt[1] = (uint16_t)name_bytes;
	cap_ng_put(ng, opt, sizeof(opt));
	cap_ng_put(ng, if_name, name_bytes);
	cap_ng_put(ng, zeros, cap_ng_pad4(name_bytes) - name_bytes);
	opt[0] = CAP_NG_OPT_IF_TSRESOL;
	opt[1] = 1;
	cap_ng_put(ng, opt, sizeof(opt));
	/* The option's one byte, then three of padding, in either byte order. */
	memset(tail, 0, sizeof(tail));
	((uint8_t *)tail)[0] = CAP_NG_TSRESOL_NS;
	tail[1] = CAP_NG_OPT_END;
	tail[2] = len;
	cap_ng_put(ng, tail, 3 * sizeof(tail[0]));
	*out = c;
	return 0;
}

int cap_ng_close(struct cap_ng *ng)
{
	int rc;

	if (ng == NULL)
		return 0;
	rc = -ng->err;
	errno = 0;
	if ((fflush(ng->f) != 0 || ferror(ng->f)) && rc == 0)
		rc = errno ? -errno : -EIO;
	if (fclose(ng->f) != 0 && rc == 0)
		rc = errno ? -errno : -EIO;
	free(ng);
	return rc;
}

/* An Enhanced Packet Block's header words for a frame of @caplen bytes
 * held (@len on the wire) at @t_ps, into @h; returns the block's bytes
 * (the header, the data padded to 4, the trailing length). */
static uint32_t cap_ng_epb_head(const struct cap_file *c, uint64_t t_ps, uint32_t caplen, uint32_t len,
				uint32_t h[7])
{
	uint64_t t_ns = t_ps / CAP_PS_PER_NS;
	uint32_t total = 7 * 4 + cap_ng_pad4(caplen) + 4;

	h[0] = CAP_NG_EPB;
	h[1] = total;
	h[2] = c->if_id;
	h[3] = (uint32_t)(t_ns >> 32);
	h[4] = (uint32_t)t_ns;
	h[5] = caplen;
	h[6] = len;
	return total;
}

/* An Enhanced Packet Block of @caplen bytes at @data: no allocation. */
static void cap_ng_write(struct cap_file *c, uint64_t t_ps, const void *data, uint32_t caplen,
			 uint32_t len)
{
	static const uint8_t zeros[4];
	uint32_t h[7], total = cap_ng_epb_head(c, t_ps, caplen, len, h);

	cap_ng_put(c->ng, h, sizeof(h));
	cap_ng_put(c->ng, data, caplen);
	cap_ng_put(c->ng, zeros, cap_ng_pad4(caplen) - caplen);
	cap_ng_put(c->ng, &total, sizeof(total));
	c->n_frames++;
}

void cap_ng_rec_out(void *dest, const void *data, size_t n)
{
	struct cap_ng *ng = dest;

	if (data)
		cap_ng_put(ng, data, n);
	else if (!ng->err)
		ng->err = ENOMEM;
}

/* What a record of @m holds: its first *@caplen bytes (contiguous data in
 * place, a chain copied into c->linear), and *@len, its length on the
 * wire less the trailer captures leave out (never less than what it
 * holds: a wrong frame_bytes must not make a record claim less). */
static const void *cap_frame(struct cap_file *c, const struct rte_mbuf *m, uint32_t frame_bytes,
			     uint32_t *caplen, uint32_t *len)
{
	*caplen = RTE_MIN(rte_pktmbuf_pkt_len(m), c->snaplen);
	*len = RTE_MAX(frame_bytes > c->trailer_bytes ? frame_bytes - c->trailer_bytes : 0, *caplen);
	return rte_pktmbuf_read(m, 0, *caplen, c->linear);
}

void cap_write_ev(struct cap_file *c, struct sim *s, const struct rte_mbuf *m, uint32_t frame_bytes)
{
	uint32_t caplen, len, total, h[7];
	const void *data;
	uint8_t *o;

	if (likely(!c->ng || !s->rec)) {
		cap_write(c, s->now_ps, m, frame_bytes);
		return;
	}
	/* One file for every port: the block waits in order (sim_rec.h). */
	data = cap_frame(c, m, frame_bytes, &caplen, &len);
	total = cap_ng_epb_head(c, s->now_ps, caplen, len, h);
	if (!(o = sim_rec_room(s, SIM_REC_PCAPNG, c->if_id, total)))
		return;
	memcpy(o, h, sizeof(h));
	memcpy(o + sizeof(h), data, caplen);
	memset(o + sizeof(h) + caplen, 0, cap_ng_pad4(caplen) - caplen);
	memcpy(o + total - sizeof(total), &total, sizeof(total));
	c->n_frames++;
}

void cap_write(struct cap_file *c, uint64_t t_ps, const struct rte_mbuf *m, uint32_t frame_bytes)
{
	struct pcap_pkthdr h;
	uint32_t caplen, len;
	const void *data = cap_frame(c, m, frame_bytes, &caplen, &len);

	if (c->ng != NULL) {
		cap_ng_write(c, t_ps, data, caplen, len);
		return;
	}
	h.ts.tv_sec = (time_t)(t_ps / CAP_PS_PER_S);
	/* With nanosecond precision libpcap stores tv_usec as nanoseconds. */
	h.ts.tv_usec = (suseconds_t)(t_ps % CAP_PS_PER_S / CAP_PS_PER_NS);
	h.caplen = caplen;
	h.len = len;
	pcap_dump((u_char *)c->dump, &h, data);
	/* pcap_dump reports nothing: a failed write (full disk, file-size
	 * limit) leaves the error flag of the dump's stream set. */
	if (unlikely(c->err == 0 && ferror_unlocked(pcap_dump_file(c->dump))))
		c->err = errno ? errno : EIO;
	c->n_frames++;
}

int cap_error(const struct cap_file *c)
{
	if (c->ng != NULL)
		return -c->ng->err;
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
