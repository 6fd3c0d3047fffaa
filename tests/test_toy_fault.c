/* A fault kind and a link layer added from outside, through their public
 * registration alone (fault_register, link_layer_register), loaded with
 * exp_load_string and run through the fabric: "one file plus one line"
 * for a kind of either mechanism. Expectations are analytic: a black hole
 * on the sender's port from 0 for D loses exactly the message's packets
 * (all sent within D, none after: the first retransmission comes at the
 * timeout, past D) and the message ends no earlier than D plus its ideal
 * time alone; a link layer whose links run at 1/factor of their rate
 * (its own setting, fabric.slow.factor, default 2) takes at least the
 * bytes' time at that rate (and less than at the next slower one), which
 * plain RoCE beats. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "exp.h"
#include "fabric.h"
#include "fault.h"
#include "link_layer.h"
#include "test.h"

/* ---- a fault kind: toy-blackhole, its ports' egress drops everything ---- */

static int toy_blackhole_set(struct fabric_faults *ff, uint32_t i, double loss)
{
	struct fabric *f = fault_fabric(ff);
	const struct exp_fault *x = fault_get(ff, i);
	int rc = 0;

	for (uint32_t k = 0; k < x->n_ports && rc == 0; k++)
		rc = port_fault_set_loss(fault_port(f, x, k), -1, loss);
	return rc;
}

static int toy_blackhole_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return toy_blackhole_set(ff, i, 1.0);
}

static int toy_blackhole_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)state;
	return toy_blackhole_set(ff, i, 0);
}

static const struct fault_ops toy_blackhole = {
	.kind = { "toy-blackhole", "its ports' egress drops every frame", NULL, 0 },
	.need = "ports",
	.allow = "duration",
	.egress = true,
	.log_start = "blackhole on",
	.log_end = "blackhole off",
	.act = toy_blackhole_act,
	.undo = toy_blackhole_undo,
};

/* Refused at registration: a duration but no end. */
static const struct fault_ops toy_endless = {
	.kind = { "toy-endless", "takes a duration it cannot end", NULL, 0 },
	.need = "ports",
	.allow = "duration",
	.log_start = "on",
	.act = toy_blackhole_act,
};

#define TOY_TOPO "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}\n"
#define TOY_BYTES 16384u /* the message */
#define TOY_MTU 1024u    /* nic.mtu: 16 packets */
#define TOY_D_PS UINT64_C(100000000) /* the fault's duration: 100 us, below the
				       * first retransmission timeout (262 us) */

static int tof_load(const char *text, struct exp **e, char err[CFG_ERR_BYTES])
{
	*e = NULL;
	err[0] = '\0';
	return exp_load_string("toy.yaml", text, NULL, 0, e, err);
}

static void toy_run(struct exp *e, struct fabric *f)
{
	char err[CFG_ERR_BYTES] = "";

	if (fabric_build(f, e, test_mempool(), false, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		CU_FAIL_FATAL("fabric_build");
	}
	fabric_run(f, false);
}

static void test_toy_fault_kind(void)
{
	static const char text[] =
		TOY_TOPO "nic: {mtu: 1024}\n"
		"traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 16KiB}]}]\n"
		"faults: [{kind: %s, name: hole, at: 0us, duration: 100us, ports: ['h0:0']}]\n";
	char buf[512], err[CFG_ERR_BYTES];
	const struct fault_row *rows;
	const struct tg_flow *fl;
	struct fault_counts c;
	struct fabric f;
	struct exp *e;
	uint32_t n;
	int rc;

	/* Unknown before it is registered; misspelt after, with a suggestion. */
	snprintf(buf, sizeof(buf), text, "toy-blackhole");
	CU_ASSERT_EQUAL(tof_load(buf, &e, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown value 'toy-blackhole'"));
	exp_free(e);
	CU_ASSERT_EQUAL(fault_register(&toy_endless, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a duration needs an end"));
	rc = fault_register(&toy_blackhole, err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(fault_register(&toy_blackhole, err), -EINVAL); /* the name is taken */
	snprintf(buf, sizeof(buf), text, "toy-blackhol");
	CU_ASSERT_EQUAL(tof_load(buf, &e, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "did you mean 'toy-blackhole'"));
	exp_free(e);
	/* Its keys are checked like a built-in kind's. */
	CU_ASSERT_EQUAL(tof_load(TOY_TOPO "traffic: []\nfaults: [{kind: toy-blackhole, at: 0us, "
				 "ports: ['h0:0'], ber: 1e-6}]\n", &e, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a toy-blackhole fault takes no 'ber' (it takes ports duration)"));
	exp_free(e);

	snprintf(buf, sizeof(buf), text, "toy-blackhole");
	if (tof_load(buf, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		CU_FAIL_FATAL("exp_load_string");
	}
	toy_run(e, &f);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT(fl[0].done);
	CU_ASSERT(fl[0].end_ps >= TOY_D_PS + fl[0].ideal_ps);
	fabric_fault_counts(&f, 0, &c);
	CU_ASSERT_EQUAL(c.lost_random, (TOY_BYTES + TOY_MTU - 1) / TOY_MTU);
	CU_ASSERT_EQUAL(c.lost_down, 0);
	rows = fabric_fault_rows(&f, &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(rows[0].t_ps, 0);
	CU_ASSERT_STRING_EQUAL(rows[0].what, "blackhole on");
	CU_ASSERT_EQUAL(rows[1].t_ps, TOY_D_PS);
	CU_ASSERT_STRING_EQUAL(rows[1].what, "blackhole off");
	fabric_free(&f);
	exp_free(e);
}

/* ---- a link layer: toy-slowphy, Ethernet whose links run slower ---- */

/* Its settings (fabric.slow): how many times slower every link runs. */
struct toy_slowphy_settings {
	uint32_t factor; /* link rate divisor, 1..16 */
};

static const struct cfg_key toy_slowphy_keys[] = {
	{ "factor", CFG_KEY_UINT, "2", .off = offsetof(struct toy_slowphy_settings, factor),
	  .size = 4, .min = 1, .max = 16, .doc = "every link runs this many times slower" },
};

static const struct cfg_table toy_slowphy_table = {
	.section = "fabric.slow",
	.keys = toy_slowphy_keys,
	.n_keys = sizeof(toy_slowphy_keys) / sizeof(toy_slowphy_keys[0]),
};

/* Another module's key checked against the layer: small frames refused. */
static int toy_slowphy_exp_check(const struct exp *e, char err[CFG_ERR_BYTES])
{
	if (e->nic.mtu_bytes >= 1024)
		return 0;
	snprintf(err, CFG_ERR_BYTES, "toy-slowphy frames carry at least 1024 bytes, not %u",
		 e->nic.mtu_bytes);
	return -EINVAL;
}

static int toy_slowphy_wire_up(struct fabric *f, const struct nic_params *np)
{
	const struct toy_slowphy_settings *s = link_layer_settings(f->exp);

	(void)np;
	for (uint32_t l = 0; l < f->topo->n_links; l++)
		for (int k = 0; k < 2; k++)
			port_link_set_rate(fabric_port(f, f->topo->links[l].node[k], f->topo->links[l].port[k]),
					   f->topo->links[l].rate_bps / s->factor);
	return 0;
}

static const struct link_layer_ops toy_slowphy = {
	.kind = { "toy-slowphy", "Ethernet framing, every link slower", &toy_slowphy_table,
		  sizeof(struct toy_slowphy_settings) },
	.section = "slow",
	.eth_switch = true,
	.exp_check = toy_slowphy_exp_check,
	.wire_up = toy_slowphy_wire_up,
};

/* Refused at registration: a section name but no settings. */
static const struct link_layer_ops toy_sectionless = {
	.kind = { "toy-sectionless", "names a section it has no keys for", NULL, 0 },
	.section = "nothing",
};

/* The message's end at @layer (with @extra fabric: keys). */
static uint64_t toy_end_ps(const char *layer, const char *extra)
{
	char buf[512], err[CFG_ERR_BYTES];
	const struct tg_flow *fl;
	struct fabric f;
	struct exp *e;
	uint32_t n;
	uint64_t end;

	snprintf(buf, sizeof(buf),
		 TOY_TOPO "fabric: {link_layer: %s%s}\n"
		 "traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 1MiB}]}]\n", layer,
		 extra);
	if (tof_load(buf, &e, err) != 0) {
		fprintf(stderr, "\n  unexpected: %s\n", err);
		CU_FAIL_FATAL("exp_load_string");
	}
	toy_run(e, &f);
	fl = tg_flows(f.tg, &n);
	CU_ASSERT_FATAL(n == 1 && fl[0].done);
	end = fl[0].end_ps;
	fabric_free(&f);
	exp_free(e);
	return end;
}

/* Loading @text fails with @want in the message. */
static void toy_refused(const char *text, const char *want)
{
	char err[CFG_ERR_BYTES];
	struct exp *e;

	CU_ASSERT_EQUAL(tof_load(text, &e, err), -EINVAL);
	if (!strstr(err, want))
		fprintf(stderr, "\n  wanted '%s' in: %s\n", want, err);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
	exp_free(e);
}

static void test_toy_link_layer(void)
{
	/* 1 MiB at a half and a quarter of the 100 Gb/s default, in ps. */
	const uint64_t half_ps = UINT64_C(1048576) * 8 * UNITS_PS_PER_S / (UINT64_C(100000000000) / 2);
	const uint64_t quarter_ps = 2 * half_ps;
	char err[CFG_ERR_BYTES];

	toy_refused(TOY_TOPO "fabric: {link_layer: toy-slowphy}\ntraffic: []\n",
		    "unknown value 'toy-slowphy'");
	toy_refused(TOY_TOPO "fabric: {slow: {factor: 4}}\ntraffic: []\n", "unknown key 'slow'");
	CU_ASSERT_EQUAL(link_layer_register(&toy_sectionless, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a settings section needs settings"));
	CU_ASSERT_EQUAL_FATAL(link_layer_register(&toy_slowphy, err), 0);
	toy_refused(TOY_TOPO "fabric: {link_layer: toy-slowph}\ntraffic: []\n",
		    "did you mean 'toy-slowphy'");
	/* Its settings are read like a built-in layer's: keys checked. */
	toy_refused(TOY_TOPO "fabric: {link_layer: toy-slowphy, slow: {factr: 4}}\ntraffic: []\n",
		    "did you mean 'factor'");
	toy_refused(TOY_TOPO "fabric: {link_layer: toy-slowphy, slow: {factor: 17}}\ntraffic: []\n",
		    "above the maximum 16");
	/* Its check of another module's key. */
	toy_refused(TOY_TOPO "fabric: {link_layer: toy-slowphy}\nnic: {mtu: 512}\ntraffic: []\n",
		    "toy-slowphy frames carry at least 1024 bytes, not 512");
	/* Its flags: no PFC (a storm refused, naming it), Ethernet switches
	 * (fabric.int allowed). */
	toy_refused(TOY_TOPO "fabric: {link_layer: toy-slowphy}\ntraffic: []\n"
		    "faults: [{kind: pfc-storm, at: 0us, ports: ['h0:0'], priority: 3}]\n",
		    "not with fabric.link_layer: toy-slowphy");
	CU_ASSERT(toy_end_ps("toy-slowphy", "") >= half_ps);
	CU_ASSERT(toy_end_ps("toy-slowphy", "") < quarter_ps);
	CU_ASSERT(toy_end_ps("toy-slowphy", ", slow: {factor: 4}") >= quarter_ps);
	CU_ASSERT(toy_end_ps("toy-slowphy", ", int: true") >= half_ps);
	CU_ASSERT(toy_end_ps("roce", "") < half_ps);
}

int test_toy_fault_register(void)
{
	static const struct test_case tests[] = {
		{ "toy fault kind: registered, refused misspelt, run", test_toy_fault_kind },
		{ "toy link layer: registered, refused misspelt, run", test_toy_link_layer },
	};

	return test_suite("toy fault and link layer", tests);
}
