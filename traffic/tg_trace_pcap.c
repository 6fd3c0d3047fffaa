/* Trace format `pcap`: RoCEv2 traffic mirrored from a fabric port (an
 * Ethernet capture, 802.1Q tags allowed), read with libpcap at nanosecond
 * precision (libpcap scales a microsecond file). Each RC connection is a
 * source and destination IPv4 address and destination QP; its messages
 * are rebuilt from the BTH opcodes of its requests (IBTA Vol 1 9.2): a
 * SEND is the sum of the payloads of FIRST, MIDDLE .. LAST (or one ONLY),
 * a WRITE and a READ the RETH's DMA length of its first packet. A
 * request behind the connection's next PSN is a retransmission and is
 * skipped. A message starts at its first packet's timestamp, relative to
 * the earliest frame of the file (its first, in a capture in time order). Headers are read through core's one view
 * (pkt_view.h); payload lengths come from the IPv4 total length, so a
 * frame cut by the snaplen (caplen < len) still counts in full. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "pkt_view.h"
#include "tg_trace_int.h"
#include "units.h"

enum {
	TG_PCAP_RC_MASK = 0xE0,          /* BTH opcode's transport bits; RC is 0 */
	TG_PCAP_SEND_LAST_IMM = 0x03,    /* opcodes beyond enum pkt_opcode (IBTA Vol 1 9.2) */
	TG_PCAP_SEND_ONLY_IMM = 0x05,
	TG_PCAP_WRITE_LAST_IMM = 0x09,
	TG_PCAP_WRITE_ONLY_IMM = 0x0B,
	TG_PCAP_SEND_LAST_INV = 0x16,
	TG_PCAP_SEND_ONLY_INV = 0x17,
	TG_PCAP_N_RC_OPCODES = 32,
	TG_PCAP_PSN_HALF = 1 << 23,      /* PSNs within half the 24-bit space behind are old */
	TG_PCAP_QP_BITS = 24,
	TG_PCAP_ADDR_BYTES = 16,         /* "255.255.255.255" and its NUL */
	TG_PCAP_NS_PER_S = 1000000000,
};

/* Where a request packet sits in its message. */
enum tg_pcap_pos {
	TG_PCAP_NOT_REQ = 0, /* not a request that carries a message (ACK, response, atomic) */
	TG_PCAP_FIRST,
	TG_PCAP_MIDDLE,
	TG_PCAP_LAST,
	TG_PCAP_ONLY,
};

/* The RC opcodes that make messages: their operation and position. */
static const struct {
	uint8_t op;  /* enum tg_op */
	uint8_t pos; /* enum tg_pcap_pos */
} tg_pcap_ops[TG_PCAP_N_RC_OPCODES] = {
	[PKT_OP_SEND_FIRST] = { TG_OP_SEND, TG_PCAP_FIRST },
	[PKT_OP_SEND_MIDDLE] = { TG_OP_SEND, TG_PCAP_MIDDLE },
	[PKT_OP_SEND_LAST] = { TG_OP_SEND, TG_PCAP_LAST },
	[TG_PCAP_SEND_LAST_IMM] = { TG_OP_SEND, TG_PCAP_LAST },
	[PKT_OP_SEND_ONLY] = { TG_OP_SEND, TG_PCAP_ONLY },
	[TG_PCAP_SEND_ONLY_IMM] = { TG_OP_SEND, TG_PCAP_ONLY },
	[PKT_OP_WRITE_FIRST] = { TG_OP_WRITE, TG_PCAP_FIRST },
	[PKT_OP_WRITE_MIDDLE] = { TG_OP_WRITE, TG_PCAP_MIDDLE },
	[PKT_OP_WRITE_LAST] = { TG_OP_WRITE, TG_PCAP_LAST },
	[TG_PCAP_WRITE_LAST_IMM] = { TG_OP_WRITE, TG_PCAP_LAST },
	[PKT_OP_WRITE_ONLY] = { TG_OP_WRITE, TG_PCAP_ONLY },
	[TG_PCAP_WRITE_ONLY_IMM] = { TG_OP_WRITE, TG_PCAP_ONLY },
	[PKT_OP_READ_REQ] = { TG_OP_READ, TG_PCAP_ONLY },
	[TG_PCAP_SEND_LAST_INV] = { TG_OP_SEND, TG_PCAP_LAST },
	[TG_PCAP_SEND_ONLY_INV] = { TG_OP_SEND, TG_PCAP_ONLY },
};

enum { TG_PCAP_NONE = 0xFF /* no message open on a connection */ };

/* One RC connection (source, destination, destination QP). */
struct tg_pcap_conn {
	uint32_t next_psn;  /* the PSN its next new request has */
	bool psn_known;     /* a request was seen */
	uint8_t open;       /* enum tg_op of the message being read, or TG_PCAP_NONE */
	uint32_t msg;       /* that message's operation in the trace */
	uint32_t frame;     /* its first frame */
};

/* The reader's state. */
struct tg_pcap {
	const struct tg_trace_in *in;  /* the inputs */
	struct tg_trace *out;          /* the trace */
	struct tg_trace_ids pairs;     /* (src << 32 | dst) -> pair number */
	struct tg_trace_ids conn_of;   /* (pair << 24 | QP) -> connection */
	struct tg_pcap_conn *conns;    /* connections */
	uint32_t n_conns;              /* their count */
	uint32_t cap_conns;            /* allocated */
	struct tg_trace_ids part_of;   /* address -> participant */
	uint32_t n_addrs;              /* addresses mapped onto hosts so far (no map) */
	uint32_t *cut;                 /* operations of SENDs the capture cuts (partial: skip) */
	uint32_t n_cut;                /* their count */
	uint32_t cap_cut;              /* allocated */
	uint32_t frame;                /* the frame being read, from 1 */
};

/* "EXPERIMENT:LINE:COL: trace 'PATH': frame N: message". */
static int tg_pcap_errf(char err[CFG_ERR_BYTES], const struct tg_pcap *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int tg_pcap_errf(char err[CFG_ERR_BYTES], const struct tg_pcap *x, const char *fmt, ...)
{
	char msg[CFG_ERR_BYTES];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (x->frame)
		cfg_errorf(err, x->in->at, "trace '%.200s': frame %u: %s", x->in->path, x->frame, msg);
	else
		cfg_errorf(err, x->in->at, "trace '%.200s': %s", x->in->path, msg);
	return -EINVAL;
}

static const char *tg_pcap_addr(uint32_t ip, char buf[TG_PCAP_ADDR_BYTES])
{
	struct in_addr a = { .s_addr = htonl(ip) };

	return inet_ntop(AF_INET, &a, buf, TG_PCAP_ADDR_BYTES) ? buf : "?";
}

/* The map key: every address onto the participant it names. */
static int tg_pcap_read_map(struct tg_pcap *x, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *m = x->in->map;

	if (cfg_want(m, CFG_MAP, "map ({ADDRESS: NAME, ...})", err) != 0)
		return -EINVAL;
	for (uint32_t i = 0; i < m->n; i++) {
		struct in_addr a;
		uint32_t part, prev;

		if (inet_pton(AF_INET, m->keys[i]->str, &a) != 1) {
			cfg_errorf(err, m->keys[i], "'%s' is not an IPv4 address (such as 10.0.0.1)",
				   m->keys[i]->str);
			return -EINVAL;
		}
		if (tg_wl_ep(x->in->topo, m->items[i], &part, err) != 0)
			return -EINVAL;
		if (tg_trace_ids_get(&x->part_of, ntohl(a.s_addr), &prev)) {
			cfg_errorf(err, m->keys[i], "address %s is mapped twice", m->keys[i]->str);
			return -EINVAL;
		}
		if (tg_trace_ids_put(&x->part_of, ntohl(a.s_addr), part) != 0)
			return -ENOMEM;
	}
	return 0;
}

/* The participant of address @ip: from the map, else the next of hosts
 * at its first appearance. */
static int tg_pcap_part(struct tg_pcap *x, uint32_t ip, uint32_t *part, char err[CFG_ERR_BYTES])
{
	char ab[TG_PCAP_ADDR_BYTES];

	if (tg_trace_ids_get(&x->part_of, ip, part))
		return 0;
	if (x->in->map) {
		cfg_errorf(err, x->in->map, "trace '%.200s': frame %u: address %s is not in map",
			   x->in->path, x->frame, tg_pcap_addr(ip, ab));
		return -EINVAL;
	}
	if (x->n_addrs >= x->in->n_hosts)
		return tg_pcap_errf(err, x, "address %s is the capture's address number %u, but hosts has %u (list more hosts, or give map)",
				    tg_pcap_addr(ip, ab), x->n_addrs + 1, x->in->n_hosts);
	*part = x->in->hosts[x->n_addrs++];
	return tg_trace_ids_put(&x->part_of, ip, *part);
}

/* The connection of @v's source, destination and QP: 0, -E2BIG past
 * TG_TRACE_MAX_CONNS (each costs memory, and a capture may hold requests
 * on ever new QPs that make no message), or -ENOMEM. */
static int tg_pcap_conn(struct tg_pcap *x, const struct pkt_view *v, struct tg_pcap_conn **c)
{
	uint64_t pair_key = (uint64_t)v->src << 32 | v->dst;
	uint32_t pair, idx;

	if (!tg_trace_ids_get(&x->pairs, pair_key, &pair)) {
		pair = x->pairs.n;
		if (tg_trace_ids_put(&x->pairs, pair_key, pair) != 0)
			return -ENOMEM;
	}
	if (!tg_trace_ids_get(&x->conn_of, (uint64_t)pair << TG_PCAP_QP_BITS | v->dest_qp, &idx)) {
		if (x->n_conns >= TG_TRACE_MAX_CONNS)
			return -E2BIG;
		if (tg_trace_grow((void **)&x->conns, &x->cap_conns, x->n_conns, sizeof(*x->conns)) != 0)
			return -ENOMEM;
		idx = x->n_conns++;
		x->conns[idx] = (struct tg_pcap_conn){ .open = TG_PCAP_NONE };
		if (tg_trace_ids_put(&x->conn_of, (uint64_t)pair << TG_PCAP_QP_BITS | v->dest_qp, idx) != 0)
			return -ENOMEM;
	}
	*c = &x->conns[idx];
	return 0;
}

/* The SEND open on @c is cut by the capture: an error, or left out. */
static int tg_pcap_cut(struct tg_pcap *x, struct tg_pcap_conn *c, const char *how,
		       char err[CFG_ERR_BYTES])
{
	if (!x->in->skip_partial) {
		x->frame = c->frame;
		return tg_pcap_errf(err, x, "the SEND starting here has no last packet (%s): trim the capture, or give partial: skip",
				    how);
	}
	if (tg_trace_grow((void **)&x->cut, &x->cap_cut, x->n_cut, sizeof(*x->cut)) != 0)
		return -ENOMEM;
	x->cut[x->n_cut++] = c->msg;
	c->open = TG_PCAP_NONE;
	return 0;
}

/* A request packet of RC connection @c captured at @t_ns, its header view
 * @v. A new message's start_ps holds @t_ns until the reading ends. */
static int tg_pcap_request(struct tg_pcap *x, struct tg_pcap_conn *c, const struct pkt_view *v,
			   uint64_t t_ns, char err[CFG_ERR_BYTES])
{
	uint8_t op = tg_pcap_ops[v->opcode].op, pos = tg_pcap_ops[v->opcode].pos;
	struct tg_trace_op m = { .kind = TG_TRACE_XFER, .op = op, .start_ps = t_ns, .line = x->frame };
	uint32_t behind = (c->next_psn - v->psn) & PKT_24BIT_MASK;
	int rc;

	if (c->psn_known && behind != 0 && behind < TG_PCAP_PSN_HALF)
		return 0; /* a retransmission */
	c->psn_known = true;
	c->next_psn = (v->psn + 1) & PKT_24BIT_MASK;
	if (pos == TG_PCAP_MIDDLE || pos == TG_PCAP_LAST) {
		if (c->open != op) {
			if (x->in->skip_partial)
				return 0;
			return tg_pcap_errf(err, x, "a %s %s packet with no first packet before it (the capture starts inside a message): trim the capture, or give partial: skip",
					    op == TG_OP_SEND ? "SEND" : "WRITE",
					    pos == TG_PCAP_MIDDLE ? "MIDDLE" : "LAST");
		}
		if (op == TG_OP_SEND) {
			struct tg_trace_op *s = &x->out->ops[c->msg];

			s->bytes += v->payload_bytes;
			if (s->bytes > TG_WL_MAX_MSG_BYTES) {
				x->frame = c->frame;
				return tg_pcap_errf(err, x, "the SEND starting here is more than 2 GiB");
			}
		}
		if (pos == TG_PCAP_LAST)
			c->open = TG_PCAP_NONE;
		return 0;
	}
	if (c->open == TG_OP_SEND && (rc = tg_pcap_cut(x, c, "a new message begins on its connection", err)) != 0)
		return rc;
	c->open = TG_PCAP_NONE;
	if (tg_pcap_part(x, v->src, &m.src, err) != 0 || tg_pcap_part(x, v->dst, &m.dst, err) != 0)
		return -EINVAL;
	if (m.src == m.dst) {
		char nb[TOPO_EP_NAME_BYTES];

		return tg_pcap_errf(err, x, "source and destination are both %s",
				    tg_wl_part_name(x->in->topo, m.src, nb));
	}
	m.dscp = x->in->dscp_set ? x->in->dscp : v->cls;
	m.bytes = op == TG_OP_SEND ? v->payload_bytes : v->reth_len;
	if (m.bytes > TG_WL_MAX_MSG_BYTES)
		return tg_pcap_errf(err, x, "a %s of %llu bytes, more than 2 GiB", op == TG_OP_READ ? "READ" : "WRITE",
				    (unsigned long long)m.bytes);
	if ((rc = tg_trace_push(x->out, &m)) != 0)
		return rc == -E2BIG ? tg_pcap_errf(err, x, "more than %d messages", TG_TRACE_MAX_OPS) : rc;
	if (pos == TG_PCAP_FIRST) {
		c->open = op;
		c->msg = x->out->n_ops - 1;
		c->frame = x->frame;
	}
	return 0;
}

/* One frame, captured at @t_ns: a RoCEv2 RC request is a message's
 * packet; other frames (PFC, CNPs, ACKs, responses, non-RoCE traffic) are
 * passed over. *@roce counts the RoCEv2 frames. */
static int tg_pcap_frame(struct tg_pcap *x, const struct pcap_pkthdr *h, const uint8_t *data,
			 uint64_t t_ns, uint32_t *roce, char err[CFG_ERR_BYTES])
{
	uint8_t buf[PKT_VIEW_MAX_HDR_BYTES];
	uint32_t hold = h->caplen < sizeof(buf) ? h->caplen : (uint32_t)sizeof(buf);
	struct pkt_view v = { 0 };
	struct tg_pcap_conn *c;
	int rc;

	/* The view reads the headers from the bytes held; zeros past them. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, data, hold);
	if (pkt_view_l3(&v, PKT_LL_ROCE, buf, hold) != 0 || v.ip6 || pkt_view_flow(&v, buf, hold) != 0 ||
	    v.proto != PKT_IPPROTO_UDP || v.dport != PKT_ROCE_UDP_PORT)
		return 0;
	++*roce;
	if (pkt_view_all(&v, PKT_LL_ROCE, buf, hold) != 0)
		return tg_pcap_errf(err, x, "a RoCEv2 frame whose headers do not parse (opcode 0x%02x; %u of its %u bytes captured)",
				    hold > (uint32_t)v.l4_off + PKT_UDP_BYTES ? buf[v.l4_off + PKT_UDP_BYTES] : 0,
				    h->caplen, h->len);
	if ((uint32_t)v.l3_off + v.net_bytes > h->len)
		return tg_pcap_errf(err, x, "IPv4 total length %u runs past the frame's %u bytes",
				    v.net_bytes, h->len);
	if ((v.opcode & TG_PCAP_RC_MASK) != 0 || tg_pcap_ops[v.opcode].pos == TG_PCAP_NOT_REQ)
		return 0;
	if ((rc = tg_pcap_conn(x, &v, &c)) == -E2BIG)
		return tg_pcap_errf(err, x, "more than %d RC connections (address pair and QP; TG_TRACE_MAX_CONNS)",
				    TG_TRACE_MAX_CONNS);
	if (rc != 0)
		return rc;
	return tg_pcap_request(x, c, &v, t_ns, err);
}

/* Leave out the operations listed in x->cut. 0 or -ENOMEM. */
static int tg_pcap_compact(struct tg_pcap *x)
{
	struct tg_trace *out = x->out;
	uint8_t *drop;
	uint32_t k = 0;

	if (!x->n_cut)
		return 0;
	if (!(drop = calloc(out->n_ops, 1)))
		return -ENOMEM;
	for (uint32_t i = 0; i < x->n_cut; i++)
		drop[x->cut[i]] = 1;
	for (uint32_t i = 0; i < out->n_ops; i++)
		if (!drop[i])
			out->ops[k++] = out->ops[i];
	out->n_ops = k;
	free(drop);
	return 0;
}

static int tg_pcap_read(struct tg_pcap *x, pcap_t *p, char err[CFG_ERR_BYTES])
{
	struct pcap_pkthdr *h;
	const u_char *data;
	uint64_t origin_ns = UINT64_MAX;
	uint32_t roce = 0;
	int r, rc;

	if (pcap_datalink(p) != DLT_EN10MB)
		return tg_pcap_errf(err, x, "link type %d (%s): a trace is an Ethernet capture (link type 1) of RoCEv2",
				    pcap_datalink(p), pcap_datalink_val_to_name(pcap_datalink(p))
							      ? pcap_datalink_val_to_name(pcap_datalink(p))
							      : "unknown");
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		/* With nanosecond precision libpcap gives nanoseconds in tv_usec. */
		uint64_t ns = (uint64_t)h->ts.tv_sec * TG_PCAP_NS_PER_S + (uint64_t)h->ts.tv_usec;

		x->frame++;
		if (ns < origin_ns)
			origin_ns = ns;
		if ((rc = tg_pcap_frame(x, h, data, ns, &roce, err)) != 0)
			return rc;
	}
	if (r == PCAP_ERROR)
		return tg_pcap_errf(err, x, "cannot read on: %s", pcap_geterr(p));
	for (uint32_t i = 0; i < x->n_conns; i++)
		if (x->conns[i].open == TG_OP_SEND &&
		    (rc = tg_pcap_cut(x, &x->conns[i], "the capture ends first", err)) != 0)
			return rc;
	x->frame = 0;
	if (roce == 0)
		return tg_pcap_errf(err, x, "not RoCEv2: none of its frames is a RoCEv2 frame (IPv4, UDP port 4791)");
	if ((rc = tg_pcap_compact(x)) != 0)
		return rc;
	/* Starts were kept as the frames' nanoseconds: from the earliest frame. */
	for (uint32_t i = 0; i < x->out->n_ops; i++) {
		uint64_t ns = x->out->ops[i].start_ps - origin_ns;

		if (ns > UNITS_TIME_MAX_PS / UNITS_PS_PER_NS) {
			x->frame = x->out->ops[i].line;
			return tg_pcap_errf(err, x, "a request %llu s after the first: beyond the clock's horizon (1000000 s)",
					    (unsigned long long)(ns / 1000000000));
		}
		x->out->ops[i].start_ps = units_ns_to_ps(ns);
	}
	if (x->out->n_ops == 0)
		return tg_pcap_errf(err, x, "no RC SEND, WRITE or READ request among its %u RoCEv2 frames", roce);
	return 0;
}

static int tg_trace_pcap(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES])
{
	char perr[PCAP_ERRBUF_SIZE];
	struct tg_pcap x = { .in = in, .out = out };
	/* The file opened and checked by the caller, not the path again: what
	 * is read is what was checked. */
	pcap_t *p = pcap_fopen_offline_with_tstamp_precision(in->file, PCAP_TSTAMP_PRECISION_NANO, perr);
	int rc;

	if (!p) {
		fclose(in->file); /* libpcap closes it only once it has taken it */
		return tg_pcap_errf(err, &x, "not a capture libpcap can read (%s)", perr);
	}
	rc = in->map ? tg_pcap_read_map(&x, err) : 0;
	if (rc == 0)
		rc = tg_pcap_read(&x, p, err);
	pcap_close(p);
	tg_trace_ids_free(&x.pairs);
	tg_trace_ids_free(&x.conn_of);
	tg_trace_ids_free(&x.part_of);
	free(x.conns);
	free(x.cut);
	return rc;
}

const struct tg_trace_format tg_trace_pcap_format = {
	.kind = { "pcap", "a capture of RoCEv2 traffic, its messages rebuilt from the requests", NULL, 0 },
	.read = tg_trace_pcap,
	.takes = TG_TRACE_BINARY | TG_TRACE_MAP | TG_TRACE_PARTIAL,
	.file_noun = "a capture",
};
