/* CUnit suite for run/exp_load: the configuration reference covers every
 * key of the schema, the defaults and --set overrides, the permutation and
 * incast expansions, expect: tolerances and the path-choice keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "exp.h"
#include "pkt.h"
#include "port.h"
#include "rng.h"
#include "tg.h"
#include "tg_wl.h"
#include "topo.h"
#include "test.h"

enum { TE_MAX_HOSTS = 64 };

/* Load @rest (YAML after the topology) on a leaf-spine of 2 x 4 hosts,
 * h0..h7, with @n_sets overrides; NULL (and a message) on error. */
static struct exp *texp_load(const char *rest, const char *const *sets, unsigned n_sets)
{
	char text[2048], err[CFG_ERR_BYTES] = "";
	struct exp *e = NULL;

	snprintf(text, sizeof(text),
		 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n%s", rest);
	if (exp_load_string("x.yaml", text, sets, n_sets, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		return NULL;
	}
	return e;
}

/* The whole of @path, NUL-terminated, or NULL. */
static char *te_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)len + 1)) != NULL) {
		if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		} else {
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* Port lists take patterns: on the 2 x 4 leaf-spine with 2 spines, each
 * leaf has 6 connected ports (4 hosts, 2 spines), each host one; a
 * pattern matching nothing, and an exact port named twice, are errors;
 * a port a pattern brings in again is taken once. */
static void test_exp_port_patterns(void)
{
	static const struct {
		const char *ports;   /* capture.ports */
		int n;               /* ports captured, -1: an error */
		const char *err;     /* part of the message */
	} cases[] = {
		{ "[leaf*:*]", 12, NULL },
		{ "[\"h?:0\"]", 8, NULL },
		{ "[\"spine1:[01]\"]", 2, NULL },
		{ "[h0:0, \"h*:*\"]", 8, NULL },
		{ "[leaf0:0, leaf0:0]", -1, "x.yaml:3:28: port leaf0:0 listed twice" },
		{ "[core*:*]", -1, "x.yaml:3:19: 'core*:*' matches no connected port" },
		{ "[\"leaf0:[7-9]\"]", -1, "matches no connected port" },
		{ "[leaf*]", -1, "expected node:port" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512], err[CFG_ERR_BYTES] = "";
		struct exp *e = NULL;
		int rc;

		snprintf(text, sizeof(text),
			 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
			 "traffic: []\n"
			 "capture: {ports: %s}\n", cases[i].ports);
		rc = exp_load_string("x.yaml", text, NULL, 0, &e, err);
		if (cases[i].n >= 0) {
			CU_ASSERT_EQUAL(rc, 0);
			if (rc == 0)
				CU_ASSERT_EQUAL(e->n_captures, (uint32_t)cases[i].n);
		} else {
			CU_ASSERT_NOT_EQUAL(rc, 0);
			CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].err));
			if (!strstr(err, cases[i].err))
				fprintf(stderr, "\n  case %zu: %s\n", i, err);
		}
		exp_free(e);
	}
	/* Host sets too: h[0-3] and h7 (then h5, h6 through h?, h7 taken
	 * once); a pattern that matches no host is an error at its place. */
	{
		static const struct {
			const char *hosts;
			int n;
			const char *err;
		} hc[] = {
			{ "[\"h[0-3]\", h7]", 5, NULL },
			{ "[h7, \"h?\"]", 8, NULL },
			{ "[\"h*:0\"]", 8, NULL },
			{ "[\"h*:1\"]", -1, "x.yaml:1:39: 'h*:1' matches no host with a link" },
			{ "[leaf*]", -1, "'leaf*' matches no host" },
		};

		for (size_t i = 0; i < sizeof(hc) / sizeof(hc[0]); i++) {
			char text[256];
			struct exp *e;

			snprintf(text, sizeof(text),
				 "traffic: [{kind: permutation, hosts: %s, size: 1KiB}]\n", hc[i].hosts);
			if (hc[i].n >= 0) {
				e = texp_load(text, NULL, 0);
				CU_ASSERT_PTR_NOT_NULL(e);
				if (e)
					CU_ASSERT_EQUAL(e->n_msgs, (uint32_t)hc[i].n);
				exp_free(e);
			} else {
				char t2[512], err[CFG_ERR_BYTES] = "";

				e = NULL;
				snprintf(t2, sizeof(t2), "%s"
					 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n",
					 text);
				CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", t2, NULL, 0, &e, err), 0);
				CU_ASSERT_PTR_NOT_NULL(strstr(err, hc[i].err));
				if (!strstr(err, hc[i].err))
					fprintf(stderr, "\n  host case %zu: %s\n", i, err);
				exp_free(e);
			}
		}
	}
}

/* (a) docs/config.md names every schema key as `key`. */
static void test_exp_docs(void)
{
	const char *path = FAB_DOCS_DIR "/config.md";
	struct cfg_schema_names keys;
	char *doc = te_read_file(path);
	const char **k;
	unsigned n = 0;

	if (!doc)
		fprintf(stderr, "\n  cannot read %s\n", path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL_FATAL(exp_schema_keys(&keys), 0);
	k = keys.names;
	for (; *k; k++, n++) {
		char want[128], msg[256];

		snprintf(want, sizeof(want), "`%s`", *k);
		if (strstr(doc, want))
			continue;
		snprintf(msg, sizeof(msg), "docs/config.md does not document %s", want);
		fprintf(stderr, "\n  %s\n", msg);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
	}
	CU_ASSERT(n > 40); /* the table is really there */
	cfg_schema_names_free(&keys);
	free(doc);
}

/* @path ("a.b.c") names a value under @n; lists match when an item does. */
static bool te_has(const struct cfg_node *n, const char *path)
{
	const char *dot = strchr(path, '.');
	size_t len = dot ? (size_t)(dot - path) : strlen(path);
	char key[64];

	if (n && n->type == CFG_SEQ) {
		for (uint32_t i = 0; i < n->n; i++)
			if (te_has(n->items[i], path))
				return true;
		return false;
	}
	if (!n || n->type != CFG_MAP || len >= sizeof(key))
		return false;
	memcpy(key, path, len);
	key[len] = '\0';
	n = cfg_get(n, key);
	return n && (!dot || te_has(n, dot + 1));
}

/* (a2) every default in the tables is accepted by its own reader: the
 * typed ones read alone here, the custom ones (and all of them again) by
 * loading an experiment with every section present, once per topology
 * kind; and the resolved file names every key that has a default. */
static void test_exp_table_defaults(void)
{
	static const char *const topos[] = {
		"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 3}\n",
		"topology: {kind: fat-tree, k: 4, tiers: 2}\n",
		"topology:\n  kind: explicit\n"
		"  nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: h2, kind: host},"
		" {name: s0, kind: switch}]\n"
		"  links: [{endpoints: ['h0:0', 's0:0']}, {endpoints: ['h1:0', 's0:1']},"
		" {endpoints: ['h2:0', 's0:2']}]\n",
	};
	static const char rest[] =
		"fabric: {pfc: {watchdog: {}}, ecn: {}, ib_cc: {}}\n"
		"nic: {cc: dcqcn}\n"
		"traffic:\n"
		"  - {kind: permutation, size: 4KiB, cc: dctcp}\n"
		"  - {kind: incast, dst: h0, count: 2, size: 4KiB, cc: hpcc}\n"
		"  - {kind: messages, messages: [{src: h1, dst: h2, size: 1KiB}]}\n"
		"  - {kind: messages, messages: [{src: h2, dst: h1, size: 1KiB}], cc: timely}\n"
		"  - {kind: messages, messages: [{src: h2, dst: h0, size: 1KiB}], cc: swift}\n"
		"  - {kind: messages, messages: [{src: h0, dst: h2, size: 1KiB}], cc: ibcc}\n"
		"  - {kind: messages, messages: [{src: h1, dst: h0, size: 1KiB}], cc: nscc}\n"
		"  - {kind: collective, collective: all-gather, ranks: [h0, h1], size: 4KiB}\n"
		"  - {kind: trace, file: '%s'}\n"
		"capture: {ports: ['h0:0']}\n"
		"outputs: {series: {ports: ['h1:0'], interval: 1us}}\n"
		"live: {ports: [{port: 'h2:0', iface: fabt0}, {port: 'h1:0', iface: m1, driver: memif, socket: /run/x.sock}]}\n"
		"expect: [{metric: drops.total, op: '==', value: 0}]\n";
	struct cfg_schema_names keys, train_keys = { 0 };
	char err[CFG_ERR_BYTES] = "";
	void *scratch = calloc(1, 1 << 16);
	unsigned n_typed = 0, n_checked = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(scratch);
	CU_ASSERT_EQUAL_FATAL(exp_schema_keys(&keys), 0);
	for (const struct cfg_table *const *t = tg_wl_find("training")->tables; *t; t++)
		CU_ASSERT_EQUAL_FATAL(cfg_schema_names_add(&train_keys, *t), 0);
	for (unsigned i = 0; i < keys.n; i++) {
		const struct cfg_key *k = keys.keys[i];
		struct cfg_doc *doc = NULL;
		struct cfg_node *v = NULL;

		if (!k->dflt || k->type == CFG_KEY_CUSTOM || k->type == CFG_KEY_SECTION)
			continue;
		CU_ASSERT_EQUAL_FATAL(cfg_doc_load_string("d.yaml", "{}", &doc, err), 0);
		CU_ASSERT_EQUAL_FATAL(k->off < (1 << 16) - 8, 1);
		CU_ASSERT_EQUAL(cfg_doc_fill(doc, cfg_doc_root(doc), k->name, k->dflt, &v, err), 0);
		if (cfg_schema_read_key(k, v, scratch, err) != 0) {
			fprintf(stderr, "\n  default of %s: %s\n", keys.names[i], err);
			CU_FAIL("a default its reader refuses");
		}
		n_typed++;
		cfg_doc_free(doc);
	}
	CU_ASSERT(n_typed > 10);
	for (unsigned t = 0; t < sizeof(topos) / sizeof(topos[0]); t++) {
		struct cfg_schema_names kind_keys = { 0 };
		char text[2048], body[1536], path[] = "/tmp/fabemu-test-resolved-XXXXXX";
		struct cfg_doc *back = NULL;
		struct exp *e = NULL, *again = NULL;
		int fd = mkstemp(path);

		CU_ASSERT_FATAL(fd >= 0);
		close(fd);
		snprintf(body, sizeof(body), rest, test_data_path("trace-two.csv"));
		snprintf(text, sizeof(text), "%s%s", topos[t], body);
		if (exp_load_string("x.yaml", text, NULL, 0, &e, err) != 0)
			fprintf(stderr, "\n  %s\n", err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(exp_write_resolved(e, path, err), 0);
		CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, &back, err), 0);
		CU_ASSERT_EQUAL_FATAL(cfg_schema_names_add(&kind_keys, topo_kind_table(t)), 0);
		for (unsigned i = 0; i < keys.n; i++) {
			if (!keys.keys[i]->dflt ||
			    (strncmp(keys.names[i], "topology.", 9) == 0 &&
			     cfg_schema_names_find(&kind_keys, keys.names[i]) < 0) ||
			    strncmp(keys.names[i], "nic.rccc.", 9) == 0) /* UET's: below */
				continue;
			n_checked++;
			if (!te_has(cfg_doc_root(back), keys.names[i]) &&
			    cfg_schema_names_find(&train_keys, keys.names[i]) < 0) {
				fprintf(stderr, "\n  resolved.yaml lacks %s\n", keys.names[i]);
				CU_FAIL("a key with a default missing from resolved.yaml");
			}
		}
		/* And the resolved file is an experiment that loads. */
		CU_ASSERT_EQUAL(exp_load(path, NULL, 0, false, 0, &again, err), 0);
		exp_free(again);
		exp_free(e);
		cfg_doc_free(back);
		cfg_schema_names_free(&kind_keys);
		unlink(path);
	}
	CU_ASSERT(n_checked > 150);
	/* The training kind needs GPUs: its keys (left out above) on a
	 * rail-optimised fabric. */
	{
		static const char rail[] =
			"topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes_per_unit: 2, nodes: 2}\n"
			"traffic: [{kind: training, parallel: {tp: 2, dp: 2}, forward: 1us, dp_bytes: 4KiB,"
			" stragglers: [{gpu: node0/gpu0, factor: 1.5}], dscp: 10}]\n";
		char path[] = "/tmp/fabemu-test-resolved-XXXXXX";
		struct cfg_doc *back = NULL;
		struct exp *e = NULL, *again = NULL;
		unsigned n_train = 0;
		int fd = mkstemp(path);

		CU_ASSERT_FATAL(fd >= 0);
		close(fd);
		if (exp_load_string("x.yaml", rail, NULL, 0, &e, err) != 0)
			fprintf(stderr, "\n  %s\n", err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(exp_write_resolved(e, path, err), 0);
		CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, &back, err), 0);
		for (unsigned i = 0; i < train_keys.n; i++) {
			if (!train_keys.keys[i]->dflt)
				continue;
			n_train++;
			if (!te_has(cfg_doc_root(back), train_keys.names[i])) {
				fprintf(stderr, "\n  resolved.yaml lacks %s\n", train_keys.names[i]);
				CU_FAIL("a training key with a default missing from resolved.yaml");
			}
		}
		CU_ASSERT(n_train > 10);
		CU_ASSERT_EQUAL(exp_load(path, NULL, 0, false, 0, &again, err), 0);
		exp_free(again);
		exp_free(e);
		cfg_doc_free(back);
		unlink(path);
	}
	/* RCCC runs on UET only: its keys (left out above) with a workload of
	 * its own there. */
	{
		static const char uet[] =
			"topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 3}\n"
			"fabric: {link_layer: uet}\n"
			"traffic: [{kind: incast, dst: h0, count: 2, size: 4KiB, cc: rccc}]\n";
		char path[] = "/tmp/fabemu-test-resolved-XXXXXX";
		struct cfg_doc *back = NULL;
		struct exp *e = NULL;
		unsigned n_rccc = 0;
		int fd = mkstemp(path);

		CU_ASSERT_FATAL(fd >= 0);
		close(fd);
		if (exp_load_string("x.yaml", uet, NULL, 0, &e, err) != 0)
			fprintf(stderr, "\n  %s\n", err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_EQUAL(exp_write_resolved(e, path, err), 0);
		CU_ASSERT_EQUAL_FATAL(cfg_doc_load(path, &back, err), 0);
		for (unsigned i = 0; i < keys.n; i++) {
			if (!keys.keys[i]->dflt || strncmp(keys.names[i], "nic.rccc.", 9) != 0)
				continue;
			n_rccc++;
			if (!te_has(cfg_doc_root(back), keys.names[i])) {
				fprintf(stderr, "\n  resolved.yaml lacks %s\n", keys.names[i]);
				CU_FAIL("an RCCC key with a default missing from resolved.yaml");
			}
		}
		CU_ASSERT_EQUAL(n_rccc, 4);
		exp_free(e);
		cfg_doc_free(back);
		unlink(path);
	}
	cfg_schema_names_free(&train_keys);
	cfg_schema_names_free(&keys);
	free(scratch);
}

/* (b) defaults, and overrides through --set. */
static void test_exp_defaults(void)
{
	static const char *const sets[] = { "nic.mtu=1024", "fabric.buffer=1MiB", "nic.ack_dscp=46" };
	const char *traffic = "traffic: [{kind: permutation, size: 64KiB}]\n";
	struct exp *e = texp_load(traffic, NULL, 0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(e->name, "experiment");
	CU_ASSERT_EQUAL(e->seed, 1);
	CU_ASSERT_EQUAL(e->stop_ps, 0);
	CU_ASSERT_EQUAL(e->nic.mtu_bytes, 4096);
	CU_ASSERT_EQUAL(e->nic.ack_every_pkts, 16);
	CU_ASSERT_EQUAL(e->nic.data_dscp, 26);
	CU_ASSERT_EQUAL(e->nic.ack_dscp, 48);
	CU_ASSERT_EQUAL(e->sw.buffer_bytes, UINT64_C(32) << 20);
	CU_ASSERT_EQUAL(e->sw.sched.strict_mask, (1u << 6) | (1u << 7));
	CU_ASSERT_EQUAL(e->sw.sched.quantum_bytes[0], 4608);
	CU_ASSERT_EQUAL(e->sw.prio_to_tc[e->sw.dscp_to_prio[26]], 3);
	CU_ASSERT_EQUAL(e->sw.prio_to_tc[e->sw.dscp_to_prio[48]], 6);
	CU_ASSERT_EQUAL(e->sw.pfc.lossless_prio, 0); /* PFC off unless asked for */
	CU_ASSERT_FALSE(e->nic.payload);
	CU_ASSERT_FALSE(e->nic.vlan);
	CU_ASSERT_TRUE(e->flows_csv);
	CU_ASSERT_EQUAL(e->engine.pool_pkts, 1u << 17);
	CU_ASSERT_EQUAL(e->snaplen, 0);
	CU_ASSERT_EQUAL(e->n_captures, 0);
	CU_ASSERT_EQUAL(e->n_expects, 0);
	CU_ASSERT_STRING_EQUAL(e->nic.cc->kind.name, "none");
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 8);
	CU_ASSERT_EQUAL(e->msgs[0].dscp, 26);
	CU_ASSERT_EQUAL(e->msgs[0].op, TG_OP_WRITE);
	CU_ASSERT_EQUAL(e->msgs[0].start_ps, 0);
	CU_ASSERT_EQUAL_FATAL(e->n_workloads, 1);
	CU_ASSERT_STRING_EQUAL(e->workloads[0].name, "permutation0");
	exp_free(e);

	e = texp_load(traffic, sets, 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL(e->nic.mtu_bytes, 1024);
	CU_ASSERT_EQUAL(e->sw.buffer_bytes, UINT64_C(1) << 20);
	CU_ASSERT_EQUAL(e->nic.ack_dscp, 46);
	CU_ASSERT_EQUAL(e->nic.ack_every_pkts, 16); /* untouched */
	exp_free(e);

	/* A bad override is reported at its own position. */
	{
		static const char *const bad[] = { "nic.mtu=1024", "nic.mtu=5000" };
		char text[512], err[CFG_ERR_BYTES] = "";
		struct exp *x = NULL;

		snprintf(text, sizeof(text),
			 "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}\n%s",
			 traffic);
		CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", text, bad, 2, &x, err), 0);
		CU_ASSERT_PTR_NULL(x);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "--set #2:1:9: "));
	}
}

/* Sources and destinations of the messages of one permutation. */
static void te_perm_check(const struct exp *e, uint32_t n_hosts)
{
	uint32_t as_src[TE_MAX_HOSTS] = { 0 }, as_dst[TE_MAX_HOSTS] = { 0 };

	CU_ASSERT_EQUAL_FATAL(e->n_msgs, n_hosts);
	for (uint32_t i = 0; i < e->n_msgs; i++) {
		const struct tg_msg *m = &e->msgs[i];

		CU_ASSERT_FATAL(m->src < n_hosts && m->dst < n_hosts);
		CU_ASSERT_NOT_EQUAL(m->src, m->dst); /* no fixed point */
		CU_ASSERT_EQUAL(m->bytes, 65536);
		as_src[m->src]++;
		as_dst[m->dst]++;
	}
	for (uint32_t h = 0; h < n_hosts; h++) {
		CU_ASSERT_EQUAL(as_src[h], 1);
		CU_ASSERT_EQUAL(as_dst[h], 1);
	}
}

static bool te_same_pairs(const struct exp *a, const struct exp *b)
{
	if (a->n_msgs != b->n_msgs)
		return false;
	for (uint32_t i = 0; i < a->n_msgs; i++)
		if (a->msgs[i].src != b->msgs[i].src || a->msgs[i].dst != b->msgs[i].dst)
			return false;
	return true;
}

/* (c) a permutation is a derangement, fixed by its seed. */
static void test_exp_permutation(void)
{
	static const char *const seed2[] = { "seed=2" };
	const char *traffic = "traffic: [{kind: permutation, size: 64KiB}]\n";
	struct exp *a, *b, *c;
	bool all_same = true;

	a = texp_load(traffic, NULL, 0);
	b = texp_load(traffic, NULL, 0);
	c = texp_load(traffic, seed2, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	te_perm_check(a, 8);
	te_perm_check(c, 8);
	CU_ASSERT_TRUE(te_same_pairs(a, b));
	CU_ASSERT_FALSE(te_same_pairs(a, c));
	exp_free(a);
	exp_free(b);
	exp_free(c);

	/* Over many seeds: always a derangement, and not always the same one. */
	for (unsigned s = 1; s <= 50; s++) {
		char set[32];
		const char *sets[] = { set };
		struct exp *x;

		snprintf(set, sizeof(set), "seed=%u", s);
		x = texp_load(traffic, sets, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(x);
		te_perm_check(x, 8);
		if (s == 1) {
			a = x;
			continue;
		}
		all_same = all_same && te_same_pairs(a, x);
		exp_free(x);
	}
	exp_free(a);
	CU_ASSERT_FALSE(all_same);

	/* A host subset: only those hosts, each once each way. */
	a = texp_load("traffic: [{kind: permutation, hosts: [h1, h4, h6], size: 1KiB}]\n", NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(a->n_msgs, 3);
	{
		uint32_t src_mask = 0, dst_mask = 0;

		for (uint32_t i = 0; i < a->n_msgs; i++) {
			CU_ASSERT_NOT_EQUAL(a->msgs[i].src, a->msgs[i].dst);
			src_mask |= 1u << a->msgs[i].src;
			dst_mask |= 1u << a->msgs[i].dst;
		}
		CU_ASSERT_EQUAL(src_mask, (1u << 1) | (1u << 4) | (1u << 6));
		CU_ASSERT_EQUAL(dst_mask, (1u << 1) | (1u << 4) | (1u << 6));
	}
	exp_free(a);

	/* Stride(s): host i of the set to host i + s, whatever the seed. */
	a = texp_load("traffic: [{kind: permutation, stride: 3, size: 1KiB}]\n", seed2, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(a->n_msgs, 8);
	for (uint32_t i = 0; i < 8; i++)
		CU_ASSERT_TRUE(a->msgs[i].src == i && a->msgs[i].dst == (i + 3) % 8);
	exp_free(a);
	a = texp_load("traffic: [{kind: permutation, hosts: [h1, h4, h6], stride: 2, size: 1KiB}]\n",
		    NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_TRUE(a->n_msgs == 3 && a->msgs[0].dst == 6 && a->msgs[1].dst == 1 &&
		       a->msgs[2].dst == 4);
	exp_free(a);
	for (int k = 0; k < 2; k++) {
		char err[CFG_ERR_BYTES] = "";

		a = NULL;
		CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml",
			k ? "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
			    "traffic: [{kind: permutation, stride: 8, size: 1KiB}]\n"
			  : "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
			    "traffic: [{kind: permutation, stride: 0, size: 1KiB}]\n",
			NULL, 0, &a, err), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, k ? "x.yaml:2:39: 8 is above the maximum 7"
						     : "x.yaml:2:39: 0 is below the minimum 1"));
		if (!strstr(err, k ? "above" : "below"))
			fprintf(stderr, "\n  %s\n", err);
		exp_free(a);
	}
}

/* (d) incast count takes the first N hosts other than dst. */
static void test_exp_incast(void)
{
	static const uint32_t want[] = { 0, 1, 2, 4 };
	struct exp *e = texp_load("traffic:\n"
				"  - {kind: incast, dst: h3, count: 4, size: 1MiB, start: 2us, op: send, dscp: 10}\n",
				NULL, 0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 4);
	for (uint32_t i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(e->msgs[i].src, want[i]);
		CU_ASSERT_EQUAL(e->msgs[i].dst, 3);
		CU_ASSERT_EQUAL(e->msgs[i].bytes, UINT64_C(1) << 20);
		CU_ASSERT_EQUAL(e->msgs[i].start_ps, UINT64_C(2000000));
		CU_ASSERT_EQUAL(e->msgs[i].op, TG_OP_SEND);
		CU_ASSERT_EQUAL(e->msgs[i].dscp, 10);
	}
	exp_free(e);

	/* dst h0: the senders start at h1. Count may reach hosts - 1. */
	e = texp_load("traffic: [{kind: incast, dst: h0, count: 7, size: 1KiB}]\n", NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_msgs, 7);
	for (uint32_t i = 0; i < 7; i++) {
		CU_ASSERT_EQUAL(e->msgs[i].src, i + 1);
		CU_ASSERT_EQUAL(e->msgs[i].dst, 0);
	}
	exp_free(e);

	/* One more than that is out of range. */
	{
		static const char *const sets[] = { "traffic.0.count=8" };
		char text[512], err[CFG_ERR_BYTES] = "";
		struct exp *x = NULL;

		snprintf(text, sizeof(text),
			 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n"
			 "traffic: [{kind: incast, dst: h0, count: 7, size: 1KiB}]\n");
		CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", text, sets, 1, &x, err), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "above the maximum 7"));
	}
}

/* (e) expect: relative tolerances resolve against |value|. */
static void test_exp_expect(void)
{
	struct exp *e = texp_load("traffic: []\n"
				"expect:\n"
				"  - {metric: flows.goodput_gbps.mean, op: \"==\", value: 40, tolerance: 5%}\n"
				"  - {metric: drops.total, op: \"<=\", value: -200, tolerance: 5%}\n"
				"  - {metric: flows.slowdown.p99, op: \">\", value: 2.5, tolerance: 0.25}\n"
				"  - {metric: messages.incomplete, op: \"!=\", value: 1e3}\n",
				NULL, 0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_EQUAL_FATAL(e->n_expects, 4);
	CU_ASSERT_STRING_EQUAL(e->expects[0].metric, "flows.goodput_gbps.mean");
	CU_ASSERT_EQUAL(e->expects[0].op, EXP_OP_EQ);
	CU_ASSERT_DOUBLE_EQUAL(e->expects[0].value, 40.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e->expects[0].tolerance, 2.0, 1e-12);
	CU_ASSERT_EQUAL(e->expects[1].op, EXP_OP_LE);
	CU_ASSERT_DOUBLE_EQUAL(e->expects[1].tolerance, 10.0, 1e-12); /* 5% of |-200| */
	CU_ASSERT_EQUAL(e->expects[2].op, EXP_OP_GT);
	CU_ASSERT_DOUBLE_EQUAL(e->expects[2].tolerance, 0.25, 1e-12);
	CU_ASSERT_EQUAL(e->expects[3].op, EXP_OP_NE);
	CU_ASSERT_DOUBLE_EQUAL(e->expects[3].value, 1000.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(e->expects[3].tolerance, 0.0, 0.0);
	CU_ASSERT_STRING_EQUAL(e->expects[0].mark.file, "x.yaml");
	CU_ASSERT_EQUAL(e->expects[0].mark.line, 4);
	CU_ASSERT_STRING_EQUAL(exp_op_name(EXP_OP_GE), ">=");
	exp_free(e);

	/* An override's tolerance is resolved the same way. */
	{
		static const char *const sets[] = { "expect.0.tolerance=10%" };

		e = texp_load("traffic: []\nexpect: [{metric: drops.total, op: \"==\", value: 30}]\n", sets, 1);
		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		CU_ASSERT_DOUBLE_EQUAL(e->expects[0].tolerance, 3.0, 1e-12);
		exp_free(e);
	}
}

/* (f) fabric.path: the policy, the per-tier overrides and the policies'
 * settings reach the switch params, --set included, and each switch tier
 * gets its own (sw_path_for_tier); bad names and gaps are refused at
 * their FILE:LINE:COL with a hint. */
static void test_exp_path(void)
{
	static const char traffic[] = "traffic: [{kind: permutation, size: 4KiB}]\n";
	static const struct {
		const char *yaml; /* the fabric line (line 3) */
		const char *want; /* in the message */
	} bad[] = {
		{ "fabric: {path: {spine: sprey}}",
		  "x.yaml:3:24: unknown value 'sprey' (did you mean 'spray'?" },
		{ "fabric: {path: {policy: round_robin}}",
		  "x.yaml:3:25: unknown value 'round_robin' (did you mean 'round-robin'?" },
		{ "fabric: {path: {leef: spray}}", "x.yaml:3:17: unknown key 'leef' (did you mean 'leaf'?)" },
		{ "fabric: {path: {flowlet_gap: 0us}}", "x.yaml:3:30: flowlet_gap must be above 0" },
		{ "fabric: {path: {flowlet_gap: 10uss}}", "x.yaml:3:30: " },
		{ "fabric: {path: {flowlet_pick: least}}", "x.yaml:3:31: unknown value 'least'" },
	};
	static const char *const sets[] = { "fabric.path.spine=round-robin" };
	const struct sw_path_ops *spray = sw_path_find("spray"), *flowlet = sw_path_find("flowlet"),
				 *adaptive = sw_path_find("adaptive");
	char text[512];
	struct exp *e = texp_load(traffic, NULL, 0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_EQUAL(e->sw.path, sw_path_find("ecmp"));
	for (int t = 0; t < SW_PATH_N_TIERS; t++)
		CU_ASSERT_PTR_NULL(e->sw.path_tier[t]);
	CU_ASSERT_EQUAL(e->sw.path_params.flowlet_gap_ps, UINT64_C(500000000));
	CU_ASSERT_EQUAL(e->sw.path_params.flowlet_pick, SW_PATH_FLOWLET_RANDOM);
	CU_ASSERT_EQUAL(e->sw.path_params.adaptive_bias_bytes, 0);
	exp_free(e);

	snprintf(text, sizeof(text),
		 "%sfabric: {path: {policy: spray, leaf: flowlet, core: adaptive, flowlet_gap: 20us,"
		 " flowlet_pick: least-loaded, adaptive_bias: 8KB}}\n",
		 traffic);
	e = texp_load(text, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_EQUAL(e->sw.path, spray);
	CU_ASSERT_PTR_EQUAL(e->sw.path_tier[0], flowlet);
	CU_ASSERT_PTR_NULL(e->sw.path_tier[1]);
	CU_ASSERT_PTR_EQUAL(e->sw.path_tier[2], adaptive);
	CU_ASSERT_PTR_EQUAL(sw_path_for_tier(&e->sw, 1), flowlet);
	CU_ASSERT_PTR_EQUAL(sw_path_for_tier(&e->sw, 2), spray);
	CU_ASSERT_PTR_EQUAL(sw_path_for_tier(&e->sw, 3), adaptive);
	CU_ASSERT_PTR_EQUAL(sw_path_for_tier(&e->sw, 4), spray); /* above the named tiers */
	CU_ASSERT_EQUAL(e->sw.path_params.flowlet_gap_ps, UINT64_C(20000000));
	CU_ASSERT_EQUAL(e->sw.path_params.flowlet_pick, SW_PATH_FLOWLET_LEAST_LOADED);
	CU_ASSERT_EQUAL(e->sw.path_params.adaptive_bias_bytes, 8000);
	exp_free(e);

	e = texp_load(text, sets, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_EQUAL(sw_path_for_tier(&e->sw, 2), sw_path_find("round-robin"));
	CU_ASSERT_PTR_EQUAL(sw_path_for_tier(&e->sw, 1), flowlet);
	exp_free(e);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[CFG_ERR_BYTES] = "";
		struct exp *x = NULL;

		snprintf(text, sizeof(text),
			 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n%s%s\n",
			 traffic, bad[i].yaml);
		CU_ASSERT_NOT_EQUAL(exp_load_string("x.yaml", text, NULL, 0, &x, err), 0);
		CU_ASSERT_PTR_NULL(x);
		if (!strstr(err, bad[i].want)) {
			fprintf(stderr, "\n  %s: got \"%s\"\n", bad[i].yaml, err);
			CU_FAIL("a bad fabric.path refused with the wrong message");
		}
	}
}

/* Frame of packet @p of @n of a message with @op and @bytes: the wire
 * lengths the NIC framing gives (BTH, RETH on a WRITE's first packet,
 * AETH on READ responses, pad, ICRC, FCS). */
static uint32_t ref_frame(uint8_t op, uint64_t p, uint64_t n, uint64_t bytes, uint32_t mtu,
			  bool vlan)
{
	bool first = p == 0, last = p == n - 1;
	struct pkt_roce f = { 0 };

	if (op == TG_OP_WRITE)
		f.opcode = first ? (last ? PKT_OP_WRITE_ONLY : PKT_OP_WRITE_FIRST)
				 : (last ? PKT_OP_WRITE_LAST : PKT_OP_WRITE_MIDDLE);
	else if (op == TG_OP_WRITE_IMM) /* the last packet "with immediate" */
		f.opcode = first ? (last ? PKT_OP_WRITE_ONLY_IMM : PKT_OP_WRITE_FIRST)
				 : (last ? PKT_OP_WRITE_LAST_IMM : PKT_OP_WRITE_MIDDLE);
	else if (op == TG_OP_READ)
		f.opcode = first ? (last ? PKT_OP_READ_RESP_ONLY : PKT_OP_READ_RESP_FIRST)
				 : (last ? PKT_OP_READ_RESP_LAST : PKT_OP_READ_RESP_MIDDLE);
	else
		f.opcode = first ? (last ? PKT_OP_SEND_ONLY : PKT_OP_SEND_FIRST)
				 : (last ? PKT_OP_SEND_LAST : PKT_OP_SEND_MIDDLE);
	f.addr.vlan = vlan;
	f.payload_bytes = bytes ? (uint32_t)(last ? bytes - p * mtu : mtu) : 0;
	return pkt_roce_frame_bytes(&f);
}

/* The ideal FCT by following every packet through every link (the plain
 * recursion of a store-and-forward tandem), for tg_ideal_fct_ps to match. */
static uint64_t ref_ideal(const struct tg_path *path, uint64_t bytes, uint8_t op, uint32_t mtu,
			  bool vlan)
{
	uint64_t n = bytes ? (bytes + mtu - 1) / mtu : 1, dep[TG_MAX_HOPS] = { 0 }, t0 = 0, t;
	uint32_t h = path->n_hops;
	bool read = op == TG_OP_READ;
	struct pkt_roce rq = { .opcode = PKT_OP_READ_REQ }, ack = { .opcode = PKT_OP_ACK };

	rq.addr.vlan = ack.addr.vlan = vlan;
	for (uint32_t i = 0; read && i < h; i++)
		t0 += pkt_ll_frame_ps(&pkt_ll_roce, pkt_roce_frame_bytes(&rq), path->rate_bps[i]) +
		      path->delay_ps[i];
	for (uint64_t p = 0; p < n; p++) {
		uint64_t ready = t0;

		for (uint32_t k = 0; k < h; k++) {
			uint32_t i = read ? h - 1 - k : k;

			dep[k] = (dep[k] > ready ? dep[k] : ready) +
				 pkt_ll_frame_ps(&pkt_ll_roce, ref_frame(op, p, n, bytes, mtu, vlan),
						 path->rate_bps[i]);
			ready = dep[k] + path->delay_ps[i];
		}
	}
	t = h ? dep[h - 1] + path->delay_ps[read ? 0 : h - 1] : t0;
	for (uint32_t i = h; !read && i-- > 0;)
		t += pkt_ll_frame_ps(&pkt_ll_roce, pkt_roce_frame_bytes(&ack), path->rate_bps[i]) +
		     path->delay_ps[i];
	return t;
}

/* The ideal FCT skips the middle packets once the pipeline is in its
 * steady regime: it must agree to the picosecond with following every
 * packet, on paths whose links differ a little (long transients: a link
 * slightly faster than the one before drains its backlog slowly) or a lot,
 * for every operation, message sizes around packet boundaries and both
 * framings. */
static void test_exp_ideal_fct(void)
{
	static const uint64_t rates[] = {
		UINT64_C(100000000000), UINT64_C(400000000000), UINT64_C(25000000000),
		UINT64_C(99000000000),  UINT64_C(100100000000), UINT64_C(56000000000),
	};
	static const uint8_t ops[] = { TG_OP_WRITE, TG_OP_SEND, TG_OP_READ, TG_OP_WRITE_IMM };
	struct rng rng;
	uint32_t bad = 0, cases = 0;

	rng_init(&rng, 3, 4);
	for (int c = 0; c < 3000; c++) {
		struct tg_path path = { .n_hops = 1 + (uint32_t)(rng_next(&rng) % 8) };
		struct tg_framing fr = { .mtu_bytes = 256u << (rng_next(&rng) % 5),
					 .vlan = rng_next(&rng) % 2 };
		uint64_t pk = rng_next(&rng) % 3000;
		uint64_t bytes = pk * fr.mtu_bytes + (rng_next(&rng) % 3) * (rng_next(&rng) % fr.mtu_bytes);
		uint8_t op = ops[rng_next(&rng) % 4];

		for (uint32_t i = 0; i < path.n_hops; i++) {
			path.rate_bps[i] = rates[rng_next(&rng) % 6];
			path.delay_ps[i] = rng_next(&rng) % 3 ? 1000000 : rng_next(&rng) % 5000000;
		}
		bad += tg_ideal_fct_ps(&path, bytes, op, &fr) != ref_ideal(&path, bytes, op, fr.mtu_bytes,
									    fr.vlan);
		cases++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(cases, 3000);
	/* ImmDt on the wire: a one-packet WRITE with immediate takes 4 bytes'
	 * serialisation more on each link, 320 ps at 100 Gb/s, twice. */
	{
		struct tg_path path = { .n_hops = 2, .rate_bps = { UINT64_C(100000000000), UINT64_C(100000000000) },
					.delay_ps = { 1000000, 1000000 } };
		struct tg_framing fr = { .mtu_bytes = 4096 };

		CU_ASSERT_EQUAL(tg_ideal_fct_ps(&path, 100, TG_OP_WRITE_IMM, &fr) -
					tg_ideal_fct_ps(&path, 100, TG_OP_WRITE, &fr),
				2 * 320);
	}
}

/* fabric.int_record and int_multi as loaded: absent, full and m 0; compact
 * with int_multi absent gets the NICs' 100 Gbps / 25 Gbps = 4, or keeps
 * the one given; a switch port whose rate has no compact code is an error
 * at int_record naming the port, as is int_multi without compact and an
 * unknown format. */
static void test_exp_int_record(void)
{
	static const struct {
		const char *fabric; /* the fabric: line */
		int fmt;            /* enum pkt_int_fmt loaded; -1: an error */
		unsigned multi;     /* int_multi loaded */
		const char *err;    /* in the message */
	} cases[] = {
		{ "fabric: {int: true}", PKT_INT_FMT_FULL, 0, NULL },
		{ "fabric: {int: true, int_record: full}", PKT_INT_FMT_FULL, 0, NULL },
		{ "fabric: {int: true, int_record: compact}", PKT_INT_FMT_COMPACT, 4, NULL },
		{ "fabric: {int: true, int_record: compact, int_multi: 1}", PKT_INT_FMT_COMPACT, 1, NULL },
		{ "fabric: {int: true, int_record: compact, links: [{ports: [h0:0], rate: 400Gbps}]}",
		  PKT_INT_FMT_COMPACT, 16, NULL },
		{ "fabric: {int: true, int_record: compact, links: [{ports: [h5:0], rate: 40Gbps}]}", -1, 0,
		  "x.yaml:2:33: leaf1:1 runs at 40Gbps, which compact INT records cannot carry" },
		{ "fabric: {int: true, int_multi: 4}", -1, 0,
		  "x.yaml:2:32: fabric.int_multi sets the units of compact INT records" },
		{ "fabric: {int_record: compact, int_multi: 0}", -1, 0, "x.yaml:2:42: " },
		{ "fabric: {int_record: compct}", -1, 0, "x.yaml:2:22: unknown value 'compct' (did you mean 'compact'?" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512], err[CFG_ERR_BYTES] = "";
		struct exp *e = NULL;
		int rc;

		snprintf(text, sizeof(text),
			 "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4}\n%s\n"
			 "traffic: []\n", cases[i].fabric);
		rc = exp_load_string("x.yaml", text, NULL, 0, &e, err);
		if (cases[i].fmt >= 0) {
			CU_ASSERT_EQUAL(rc, 0);
			if (rc != 0)
				fprintf(stderr, "\n  case %zu: %s\n", i, err);
			else
				CU_ASSERT(e->sw.int_record == (enum pkt_int_fmt)cases[i].fmt &&
					  e->sw.int_multi == cases[i].multi);
		} else {
			CU_ASSERT_NOT_EQUAL(rc, 0);
			CU_ASSERT_PTR_NOT_NULL(strstr(err, cases[i].err));
			if (!strstr(err, cases[i].err))
				fprintf(stderr, "\n  case %zu: %s\n", i, err);
		}
		exp_free(e);
	}
}

int test_exp_register(void)
{
	static const struct test_case tests[] = {
		{ "config.md covers the schema", test_exp_docs },
		{ "port lists take patterns", test_exp_port_patterns },
		{ "defaults and overrides", test_exp_defaults },
		{ "table defaults read and resolved", test_exp_table_defaults },
		{ "permutation", test_exp_permutation },
		{ "incast count", test_exp_incast },
		{ "expect tolerance", test_exp_expect },
		{ "fabric.path: policy, tiers, settings", test_exp_path },
		{ "fabric.int_record: compact's rates and multiplier", test_exp_int_record },
		{ "ideal FCT against every packet followed", test_exp_ideal_fct },
	};

	return test_suite("exp", tests);
}
