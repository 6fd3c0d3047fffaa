/* Captures of a run (capture.ports): one pcap per port, or one pcapng with
 * an interface per port (capture.format), native IB ports under the link
 * type capture.ib_linktype says, and beside them the name files
 * Wireshark reads, capture/hosts (IPv4 -> endpoint) and capture/ethers
 * (MAC -> port), so that a decode shows h3 and leaf2-p4, not addresses; on
 * InfiniBand also capture/lids.csv (LID -> endpoint), which
 * tools/fabemu-ib.lua reads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "addr.h"
#include "capture.h"
#include "fabric.h"
#include "par.h"
#include "link_layer.h"
#include "pkt_ll.h"

enum {
	FABRIC_CAP_DIR_BYTES = 4096,  /* the capture folder (a results folder is at most 3575 bytes) */
	FABRIC_CAP_PATH_BYTES = 4200, /* that folder and a file name */
	FABRIC_CAP_NAME_FILES = 3,    /* hosts, ethers and (InfiniBand) lids.csv */
};

/* @path is no folder of the results folder's own: -ENOTDIR, @err says so. */
static int fabric_cap_not_folder(const char *path, char err[CFG_ERR_BYTES])
{
	snprintf(err, CFG_ERR_BYTES, "fabemu: %.380s: exists and is not a folder (links are not followed): nothing written there (remove it or use another -o)",
		 path);
	return -ENOTDIR;
}

/* mkdir @path, or find a folder there; -ENOTDIR when it is a file or a
 * symbolic link. */
static int fabric_mkdir(const char *path, char err[CFG_ERR_BYTES])
{
	struct stat st;

	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot create directory: %s", path, strerror(errno));
		return -errno;
	}
	/* lstat: a link to a folder is not the results folder's own. */
	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return fabric_cap_not_folder(path, err);
	return 0;
}

/* @name as a hostname token: letters, digits, '-' and '.'; anything else
 * (the '/' of node3/nic2, an explicit topology's '_') becomes '-'. */
static void fabric_cap_token(const char *name, char *out, size_t out_bytes)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < out_bytes; i++) {
		char c = name[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 c == '-' || c == '.';

		out[i] = ok ? c : '-';
	}
	out[i] = '\0';
}

/* Close @fp, which was written to @path: 0 or -errno with @err filled. */
static int fabric_cap_fclose(FILE *fp, const char *path, char err[CFG_ERR_BYTES])
{
	int bad = ferror(fp), e = errno;
	int r = fclose(fp) != 0 ? -errno : bad ? -(e ? e : EIO) : 0;

	if (r != 0)
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(-r));
	return r;
}

/* @s as one CSV field: quoted (RFC 4180) when it holds a comma, a quote or
 * a line break. */
static void fabric_cap_csv_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* capture/lids.csv on an InfiniBand fabric: "lid,name,node,port,ip", one
 * row per endpoint, LID e + 1 as the subnet manager gives it
 * (docs/infiniband.md), name as in capture/hosts. Wireshark has no LID
 * name file of its own: tools/fabemu-ib.lua reads this one. Nothing on
 * other link layers (their captures carry no LIDs). */
static int fabric_cap_lids(struct fabric *f, const char dir[FABRIC_CAP_DIR_BYTES],
			   char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;
	const struct pkt_ll *w = f->exp->ll ? f->exp->ll->wire : NULL;
	char path[FABRIC_CAP_PATH_BYTES], tok[TOPO_NAME_BYTES];
	FILE *fp;
	int r;

	if (!w || w->kind != PKT_LL_IB)
		return 0;
	snprintf(path, sizeof(path), "%s/lids.csv", dir);
	if (!(fp = cfg_fopen_out(path))) {
		r = -errno;
		snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(errno));
		return r;
	}
	fprintf(fp, "lid,name,node,port,ip\n");
	for (uint32_t ep = 0; ep < t->n_eps; ep++) {
		const struct topo_node *n = &t->nodes[t->eps[ep].node];
		uint32_t ip = addr_ep_ip(ep);

		fabric_cap_token(n->name, tok, sizeof(tok));
		fprintf(fp, "%u,%s", ep + 1, tok);
		if (n->n_ports > 1)
			fprintf(fp, "-p%u", t->eps[ep].port);
		fputc(',', fp);
		fabric_cap_csv_field(fp, n->name);
		fprintf(fp, ",%u,%u.%u.%u.%u\n", t->eps[ep].port, ip >> 24, (ip >> 16) & 0xff,
			(ip >> 8) & 0xff, ip & 0xff);
	}
	if ((r = fabric_cap_fclose(fp, path, err)) != 0)
		return r;
	f->cap_paths[f->n_cap_paths++] = strdup(path);
	return 0;
}

/* capture/hosts: "10.0.0.4 h3", one line per endpoint (a host of several
 * ports names each: node0-nic0-p1); capture/ethers: "02:01:00:02:00:04
 * leaf2-p4", one line per port with a link. The formats of Wireshark's
 * personal hosts and ethers files. */
static int fabric_cap_names(struct fabric *f, const char dir[FABRIC_CAP_DIR_BYTES],
			    char err[CFG_ERR_BYTES])
{
	const struct topo *t = f->topo;
	char path[FABRIC_CAP_PATH_BYTES], tok[TOPO_NAME_BYTES];
	FILE *fp;
	int r;

	snprintf(path, sizeof(path), "%s/hosts", dir);
	if (!(fp = cfg_fopen_out(path)))
		goto fail;
	fprintf(fp, "# fabemu: IPv4 address of each endpoint (Wireshark hosts file)\n");
	for (uint32_t ep = 0; ep < t->n_eps; ep++) {
		const struct topo_node *n = &t->nodes[t->eps[ep].node];
		uint32_t ip = addr_ep_ip(ep);

		fabric_cap_token(n->name, tok, sizeof(tok));
		fprintf(fp, "%u.%u.%u.%u\t%s", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff,
			tok);
		if (n->n_ports > 1)
			fprintf(fp, "-p%u", t->eps[ep].port);
		fputc('\n', fp);
	}
	if ((r = fabric_cap_fclose(fp, path, err)) != 0)
		return r;
	f->cap_paths[f->n_cap_paths++] = strdup(path);
	snprintf(path, sizeof(path), "%s/ethers", dir);
	if (!(fp = cfg_fopen_out(path)))
		goto fail;
	fprintf(fp, "# fabemu: MAC address of each port with a link (Wireshark ethers file)\n");
	for (uint32_t i = 0; i < t->n_nodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		fabric_cap_token(n->name, tok, sizeof(tok));
		for (uint16_t p = 0; p < n->n_ports; p++) {
			uint8_t mac[6];

			if (n->port_links[p] == TOPO_NO_LINK)
				continue;
			if (n->kind == TOPO_HOST)
				addr_host_port_mac(n->index, p, mac);
			else
				addr_switch_mac(n->index, p, mac);
			fprintf(fp, "%02x:%02x:%02x:%02x:%02x:%02x\t%s-p%u\n", mac[0], mac[1], mac[2],
				mac[3], mac[4], mac[5], tok, p);
		}
	}
	if ((r = fabric_cap_fclose(fp, path, err)) != 0)
		return r;
	f->cap_paths[f->n_cap_paths++] = strdup(path);
	return fabric_cap_lids(f, dir, err);
fail:
	r = -errno;
	snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(errno));
	return r;
}

int fabric_captures_check(const struct exp *e, const char *outdir, char err[CFG_ERR_BYTES])
{
	char dir[FABRIC_CAP_DIR_BYTES];
	struct stat st;

	if (!e->n_captures)
		return 0;
	snprintf(dir, sizeof(dir), "%s/capture", outdir);
	if (lstat(dir, &st) != 0)
		return 0; /* made when the captures are opened */
	return S_ISDIR(st.st_mode) ? 0 : fabric_cap_not_folder(dir, err);
}

int fabric_captures_open(struct fabric *f, const char *outdir, char err[CFG_ERR_BYTES])
{
	const struct exp *e = f->exp;
	bool ng = e->cap_format == EXP_CAP_PCAPNG;
	char dir[FABRIC_CAP_DIR_BYTES], path[FABRIC_CAP_PATH_BYTES], cerr[CFG_ERR_BYTES];
	int r;

	if (!e->n_captures)
		return 0;
	snprintf(dir, sizeof(dir), "%s/capture", outdir);
	if ((r = fabric_mkdir(dir, err)) != 0)
		return r;
	f->caps = calloc(e->n_captures, sizeof(*f->caps));
	f->cap_paths = calloc(e->n_captures + 1 + FABRIC_CAP_NAME_FILES, sizeof(*f->cap_paths));
	if (!f->caps || !f->cap_paths)
		return -ENOMEM;
	if (ng) {
		snprintf(path, sizeof(path), "%s/capture.pcapng", dir);
		if ((r = cap_ng_open(path, &f->cap_ng, cerr)) != 0) {
			snprintf(err, CFG_ERR_BYTES, "%s", cerr);
			return r;
		}
		f->cap_paths[f->n_cap_paths++] = strdup(path);
		/* Its blocks in one order at any partitioning (sim_rec.h). */
		fabric_rec_writer(f, SIM_REC_PCAPNG, cap_ng_rec_out, f->cap_ng);
	}
	for (uint32_t i = 0; i < e->n_captures; i++) {
		const struct exp_capture *c = &e->captures[i];
		const struct pkt_ll *ll = fabric_port(f, c->node, c->port)->ll;
		const char *node = f->topo->nodes[c->node].name;
		char name[TOPO_NAME_BYTES + 8];
		/* IB as LINKTYPE_USER0 when asked: Wireshark 4.0 cannot open 247. */
		uint16_t lt = ll->kind == PKT_LL_IB && e->cap_ib_linktype == EXP_CAP_IB_USER0
				      ? (uint16_t)CAP_LINKTYPE_USER0
				      : ll->pcap_linktype;

		if (ng) {
			/* The interface is named as the port is written: node3/nic2:0. */
			snprintf(name, sizeof(name), "%s:%u", node, c->port);
			r = cap_ng_add_as(f->cap_ng, name, e->snaplen, ll, lt, &f->caps[i], cerr);
		} else {
			/* A node name may hold '/' (node3/nic2): one file per port
			 * all the same, node3-nic2-p0.pcap. */
			snprintf(name, sizeof(name), "%s", node);
			for (char *q = name; *q; q++)
				*q = *q == '/' ? '-' : *q;
			snprintf(path, sizeof(path), "%s/%s-p%u.pcap", dir, name, c->port);
			r = cap_open_as(path, e->snaplen, ll, lt, &f->caps[i], cerr);
			if (r == 0)
				f->cap_paths[f->n_cap_paths++] = strdup(path);
		}
		if (r != 0) {
			snprintf(err, CFG_ERR_BYTES, "%s", cerr);
			return r;
		}
		port_set_capture(fabric_port(f, c->node, c->port), f->caps[i]);
	}
	return fabric_cap_names(f, dir, err);
}

int fabric_captures_close(struct fabric *f, char err[CFG_ERR_BYTES])
{
	int rc = 0, r;

	fabric_rec_flush(f); /* (its blocks, and pfc_log.csv's rows) */

	for (uint32_t i = 0; f->caps && i < f->exp->n_captures; i++) {
		r = cap_close(f->caps[i]);
		f->caps[i] = NULL;
		/* Per-port pcaps come first in cap_paths, in capture order. */
		if (r != 0 && rc == 0) {
			snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", f->cap_paths[i],
				 strerror(-r));
			rc = r;
		}
	}
	if (f->cap_ng) {
		r = cap_ng_close(f->cap_ng);
		f->cap_ng = NULL;
		if (r != 0 && rc == 0) {
			snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", f->cap_paths[0],
				 strerror(-r));
			rc = r;
		}
	}
	return rc;
}

void fabric_captures_free(struct fabric *f)
{
	for (uint32_t i = 0; f->exp && f->caps && i < f->exp->n_captures; i++)
		cap_close(f->caps[i]);
	cap_ng_close(f->cap_ng);
	for (uint32_t i = 0; f->cap_paths && i < f->n_cap_paths; i++)
		free(f->cap_paths[i]);
	free(f->caps);
	free(f->cap_paths);
	f->caps = NULL;
	f->cap_paths = NULL;
	f->cap_ng = NULL;
	f->n_cap_paths = 0;
}
