/* The fault schedule of an experiment (`faults:`, a list): each entry a
 * kind, a start time and what it acts on (ports, or a node), read through
 * one key table whose check says which keys each kind needs. run/faults.c
 * carries them out during the run. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "exp_int.h"
#include "rng.h"

static const char *const exp_fault_kinds[] = {
	"link-down", "link-up", "flap", "rate", "loss", "corrupt", "switch-down", "nic-down",
	"pfc-storm", "slow-receiver", NULL,
};

const char *exp_fault_kind_name(int kind)
{
	return kind >= 0 && kind < EXP_FAULT_N ? exp_fault_kinds[kind] : "?";
}

#define EXP_FAULT_OFF(f) offsetof(struct exp_fault, f)

/* A fault's start, end and every flap lie within the clock's horizon
 * (UNITS_TIME_MAX_PS, 1,000,000 s: the engine stops a run whose next
 * event lies beyond it). */
#define EXP_FAULT_HORIZON_PS UNITS_TIME_MAX_PS

static int exp_fault_name(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;
	const char *s;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	if (!s[0] || strlen(s) >= sizeof(x->name) || strspn(s, "abcdefghijklmnopqrstuvwxyz"
							     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != strlen(s)) {
		cfg_errorf(err, n, "a fault's name is 1..%zu letters, digits, '_' or '-', got '%s'",
			   sizeof(x->name) - 1, s);
		return -EINVAL;
	}
	memcpy(x->name, s, strlen(s) + 1);
	return 0;
}

/* A fault names its ports once: with `ports:` or with `node:` (the
 * second would fill the first's array past its end and leak it). */
static int exp_fault_ports_once(const struct cfg_node *n, const struct exp_fault *x,
				char err[CFG_ERR_BYTES])
{
	if (!x->ports)
		return 0;
	cfg_errorf(err, n, "a fault names its ports with 'ports' or with 'node', not both");
	return -EINVAL;
}

static int exp_fault_ports(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;

	if (exp_fault_ports_once(n, x, err) != 0)
		return -EINVAL;
	return exp_port_list(x->e, n, "faults.ports", false, &x->ports, NULL, &x->n_ports, err);
}

/* Every connected port of topology node @node into @x's ports. 0 or
 * -ENOMEM. */
static int exp_fault_node_ports(const struct topo *t, uint32_t node, struct exp_fault *x)
{
	const struct topo_node *tn = &t->nodes[node];

	if (!(x->ports = calloc(tn->n_ports ? tn->n_ports : 1, sizeof(*x->ports))))
		return -ENOMEM;
	for (uint16_t p = 0; p < tn->n_ports; p++)
		if (tn->port_links[p] != TOPO_NO_LINK)
			x->ports[x->n_ports++] = (struct exp_capture){ .node = node, .port = p };
	return 0;
}

/* node: a switch (switch-down) or a host (nic-down): every connected port. */
static int exp_fault_node(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;
	const struct topo *t = x->e->topo;
	const struct topo_node *node;
	const char *s;
	int i;

	if (exp_fault_ports_once(n, x, err) != 0 || cfg_str(n, &s, err) != 0)
		return -EINVAL;
	if ((i = topo_find(t, s)) < 0) {
		cfg_errorf(err, n, "unknown node '%s'", s);
		return -EINVAL;
	}
	node = &t->nodes[i];
	if (exp_fault_node_ports(t, (uint32_t)i, x) != 0)
		return -ENOMEM;
	if ((x->kind == EXP_FAULT_SWITCH_DOWN) != (node->kind == TOPO_SWITCH)) {
		cfg_errorf(err, n, "%s is a %s: %s takes a %s", s, node->kind == TOPO_SWITCH ? "switch" : "host",
			   exp_fault_kinds[x->kind], x->kind == EXP_FAULT_SWITCH_DOWN ? "switch" : "host (a NIC)");
		return -EINVAL;
	}
	if (!x->n_ports) {
		cfg_errorf(err, n, "%s has no connected port", s);
		return -EINVAL;
	}
	return 0;
}

/* tc: all or 0..7. */
static int exp_fault_tc(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;
	uint64_t v;

	if (n->type == CFG_SCALAR && strcmp(n->str, "all") == 0) {
		x->tc = -1;
		return 0;
	}
	if (cfg_u64(n, 0, PORT_N_TC - 1, &v, err) != 0)
		return -EINVAL;
	x->tc = (int)v;
	return 0;
}

/* gilbert: {p_gb, p_bg, loss_bad, loss_good}: bursty loss. */
static int exp_fault_ge(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "p_gb", "p_bg", "loss_bad", "loss_good", NULL };
	struct exp_fault *x = params;
	double *dst[] = { &x->ge.p_gb, &x->ge.p_bg, &x->ge.loss_bad, &x->ge.loss_good };

	if (cfg_want(n, CFG_MAP, "gilbert ({p_gb, p_bg, loss_bad, loss_good})", err) != 0 ||
	    cfg_check_keys(n, keys, err) != 0)
		return -EINVAL;
	x->ge.loss_bad = 1;
	for (int i = 0; keys[i]; i++) {
		const struct cfg_node *v = cfg_get(n, keys[i]);

		if (!v && i < 2) {
			cfg_errorf(err, n, "gilbert needs 'p_gb' and 'p_bg' (the chances per frame of going bad and back)");
			return -EINVAL;
		}
		if (v && cfg_double(v, 0, 1, dst[i], err) != 0)
			return -EINVAL;
	}
	if (x->ge.p_bg <= 0) {
		cfg_errorf(err, cfg_get(n, "p_bg"), "gilbert: p_bg must be above 0 (the bad state must end)");
		return -EINVAL;
	}
	x->ge_on = true;
	return 0;
}

static int exp_fault_priority(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;
	uint64_t v;

	if (cfg_u64(n, 0, PKT_N_PRIO - 1, &v, err) != 0)
		return -EINVAL;
	x->priority = (uint32_t)v;
	x->priority_set = true;
	return 0;
}

static const struct cfg_key exp_fault_keys[] = {
	{ "kind", CFG_KEY_ENUM, .required = "link-down, link-up, flap, rate, loss, corrupt, switch-down, nic-down, pfc-storm or slow-receiver",
	  .off = EXP_FAULT_OFF(kind), .names = exp_fault_kinds,
	  .doc = "link-down, link-up, flap, rate, loss, corrupt, switch-down, nic-down, pfc-storm, slow-receiver" },
	{ "name", CFG_KEY_CUSTOM, NULL, .read = exp_fault_name,
	  .doc = "names its results (faults.NAME.*); default fault<index>" },
	{ "at", CFG_KEY_TIME, .required = "when it starts, e.g. 1ms", .off = EXP_FAULT_OFF(at_ps),
	  .doc = "when it starts" },
	{ "ports", CFG_KEY_CUSTOM, NULL, .read = exp_fault_ports,
	  .doc = "link kinds: the links at these ports; loss, corrupt: these ports' egress; pfc-storm: the port that sends XOFF (patterns allowed)" },
	{ "node", CFG_KEY_CUSTOM, NULL, .read = exp_fault_node,
	  .doc = "switch-down: a switch; nic-down: a host (NIC); every link of it" },
	{ "duration", CFG_KEY_TIME, NULL, .off = EXP_FAULT_OFF(duration_ps),
	  .doc = "how long it lasts; absent: to the end of the run (not flap, link-up)" },
	{ "period", CFG_KEY_TIME, NULL, .off = EXP_FAULT_OFF(period_ps),
	  .doc = "flap: down for the first half of each period, up for the second" },
	{ "count", CFG_KEY_UINT, NULL, .off = EXP_FAULT_OFF(count), .size = 4, .min = 1,
	  .max = 1000000, .doc = "flap: how many times the links go down" },
	{ "rate", CFG_KEY_RATE, NULL, .off = EXP_FAULT_OFF(rate_bps), .min = 1000000,
	  .doc = "rate: the links' rate meanwhile (a 400G port falling back to 200G); slow-receiver: its drain rate" },
	{ "loss", CFG_KEY_DOUBLE, NULL, .off = EXP_FAULT_OFF(loss), .lo = 0, .hi = 1,
	  .doc = "loss: the chance each frame is lost, 0..1" },
	{ "tc", CFG_KEY_CUSTOM, NULL, .read = exp_fault_tc,
	  .doc = "loss: the traffic class 0..7 it hits, or all (default)" },
	{ "gilbert", CFG_KEY_CUSTOM, NULL, .read = exp_fault_ge,
	  .doc = "loss: bursty, {p_gb, p_bg, loss_bad (1), loss_good (0)} per frame" },
	{ "ber", CFG_KEY_DOUBLE, NULL, .off = EXP_FAULT_OFF(ber), .lo = 0, .hi = 1e-3,
	  .doc = "corrupt: bit error rate, up to 1e-3" },
	{ "priority", CFG_KEY_CUSTOM, NULL, .read = exp_fault_priority,
	  .doc = "pfc-storm: the priority its XOFFs pause; slow-receiver: the one it pauses (absent: all)" },
};

/* Which keys a kind needs (N) and allows (A) besides kind, name and at. */
struct exp_fault_rule {
	const char *need;      /* space-separated */
	const char *allow;     /* space-separated, beside need */
};

static const struct exp_fault_rule exp_fault_rules[EXP_FAULT_N] = {
	[EXP_FAULT_LINK_DOWN] = { "ports", "duration" },
	[EXP_FAULT_LINK_UP] = { "ports", "" },
	[EXP_FAULT_FLAP] = { "ports period count", "" },
	[EXP_FAULT_RATE] = { "ports rate", "duration" },
	[EXP_FAULT_LOSS] = { "ports", "loss tc gilbert duration" },
	[EXP_FAULT_CORRUPT] = { "ports ber", "duration" },
	[EXP_FAULT_SWITCH_DOWN] = { "node", "duration" },
	[EXP_FAULT_NIC_DOWN] = { "node", "duration" },
	[EXP_FAULT_PFC_STORM] = { "ports priority", "duration" },
	[EXP_FAULT_SLOW_RX] = { "ports rate", "priority duration" },
};

/* Is @key one of the space-separated words of @list? */
static bool exp_fault_in(const char *list, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = list; (p = strstr(p, key)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static int exp_fault_check(const struct cfg_node *it, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;
	const struct exp_fault_rule *r = &exp_fault_rules[x->kind];
	const char *kind = exp_fault_kinds[x->kind];

	for (uint32_t i = 0; i < it->n; i++) {
		const char *k = it->keys[i]->str;

		if (!strcmp(k, "kind") || !strcmp(k, "name") || !strcmp(k, "at") ||
		    exp_fault_in(r->need, k) || exp_fault_in(r->allow, k))
			continue;
		cfg_errorf(err, it->keys[i], "a %s fault takes no '%s' (it takes %s%s%s)", kind, k,
			   r->need, r->allow[0] ? " " : "", r->allow);
		return -EINVAL;
	}
	for (const char *p = r->need; *p;) {
		char key[16];
		size_t n = strcspn(p, " ");

		memcpy(key, p, n);
		key[n] = '\0';
		if (!cfg_get(it, key)) {
			cfg_errorf(err, it, "a %s fault needs '%s' (it takes %s%s%s)", kind, key, r->need,
				   r->allow[0] ? " " : "", r->allow);
			return -EINVAL;
		}
		p += n + (p[n] == ' ');
	}
	if (x->kind == EXP_FAULT_LOSS && !cfg_get(it, "loss") && !x->ge_on) {
		cfg_errorf(err, it, "a loss fault needs 'loss' (a chance per frame) or 'gilbert' (bursty)");
		return -EINVAL;
	}
	if (x->kind == EXP_FAULT_LOSS && cfg_get(it, "loss") && x->ge_on) {
		cfg_errorf(err, cfg_get(it, "gilbert"), "a loss fault takes 'loss' or 'gilbert', not both");
		return -EINVAL;
	}
	if (x->kind == EXP_FAULT_FLAP && x->period_ps < 2) {
		cfg_errorf(err, cfg_get(it, "period"), "flap: the period must be above 0");
		return -EINVAL;
	}
	{
		/* The last instant it acts at must stay inside the clock's
		 * horizon (128-bit sums: nothing wraps on the way). */
		unsigned __int128 end = (unsigned __int128)x->at_ps + x->duration_ps;

		if (x->kind == EXP_FAULT_FLAP)
			end = (unsigned __int128)x->at_ps + (unsigned __int128)x->count * x->period_ps;
		if (end > EXP_FAULT_HORIZON_PS) {
			cfg_errorf(err, it, "this fault ends past the simulator's horizon (%llu s)",
				   (unsigned long long)(EXP_FAULT_HORIZON_PS / UNITS_PS_PER_S));
			return -EINVAL;
		}
	}
	if ((x->kind == EXP_FAULT_SLOW_RX || x->kind == EXP_FAULT_PFC_STORM) &&
	    x->e->link_layer == PKT_LL_IB) {
		/* Both act through PFC pauses, which an IB link does not have. */
		cfg_errorf(err, cfg_get(it, "kind"),
			   "a %s fault sends PFC pauses: an Ethernet fault, not with fabric.link_layer: infiniband",
			   kind);
		return -EINVAL;
	}
	if ((x->kind == EXP_FAULT_SLOW_RX || x->kind == EXP_FAULT_PFC_STORM) && x->n_ports != 1) {
		cfg_errorf(err, cfg_get(it, "ports"), "a %s fault acts on one port (got %u)", kind, x->n_ports);
		return -EINVAL;
	}
	if (x->kind == EXP_FAULT_SLOW_RX) {
		const struct topo_node *tn = &x->e->topo->nodes[x->ports[0].node];
		uint64_t line = x->e->topo->links[tn->port_links[x->ports[0].port]].rate_bps;

		if (tn->kind != TOPO_HOST) {
			cfg_errorf(err, cfg_get(it, "ports"), "a slow receiver is a host's port, not %s's", tn->name);
			return -EINVAL;
		}
		if (x->rate_bps >= line) {
			cfg_errorf(err, cfg_get(it, "rate"), "a slow receiver drains below its link's rate (%llu bit/s)",
				   (unsigned long long)line);
			return -EINVAL;
		}
	}
	if (cfg_get(it, "duration") && x->duration_ps == 0) {
		cfg_errorf(err, cfg_get(it, "duration"), "duration must be above 0 (absent: to the end of the run)");
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_table exp_fault_table = {
	.section = "faults",
	.keys = exp_fault_keys,
	.n_keys = sizeof(exp_fault_keys) / sizeof(exp_fault_keys[0]),
	.check = exp_fault_check,
	.ordered = true,
};

const struct cfg_table *exp_faults_table(void)
{
	return &exp_fault_table;
}

int exp_faults_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	if (cfg_want(x, CFG_SEQ, "faults (a list of {kind, at, ...})", err) != 0)
		return -EINVAL;
	if (x->n > EXP_MAX_FAULTS) {
		cfg_errorf(err, x, "at most %d faults", EXP_MAX_FAULTS);
		return -EINVAL;
	}
	if (!(e->faults = calloc(x->n ? x->n : 1, sizeof(*e->faults))))
		return -ENOMEM;
	for (uint32_t i = 0; i < x->n; i++) {
		struct exp_fault *f = &e->faults[i];
		struct cfg_bind b = { &exp_fault_table, f };
		int r;

		*f = (struct exp_fault){ .e = e, .tc = -1, .mark = x->items[i]->mark };
		snprintf(f->name, sizeof(f->name), "fault%u", i);
		e->n_faults = i + 1; /* its ports are freed with it */
		if (cfg_want(x->items[i], CFG_MAP, "a fault ({kind, at, ...})", err) != 0)
			return -EINVAL;
		/* The node-wide kinds need the kind before the node. */
		if ((r = cfg_schema_read(e->doc, x->items[i], "fault", &b, 1, err)) != 0)
			return r;
		for (uint32_t k = 0; k < i; k++)
			if (!strcmp(e->faults[k].name, f->name)) {
				cfg_errorf(err, x->items[i], "two faults are named '%s'", f->name);
				return -EINVAL;
			}
		f->e = NULL;
	}
	return 0;
}

void exp_faults_free(struct exp *e)
{
	for (uint32_t i = 0; i < e->n_faults; i++)
		free(e->faults[i].ports);
	free(e->faults);
	e->faults = NULL;
	e->n_faults = 0;
}

/* ---- random failures ---- */

/* The stream of component c of kind k is (seed, EXP_FAIL_STREAM + k <<
 * 32 + c): each draws its own, so that one kind's settings leave the
 * others' failures as they were. */
#define EXP_FAIL_STREAM UINT64_C(0x6661696c00000000)

/* One component kind's process: time to failure exponential of mean
 * mtbf, time to repair exponential of mean mttr, again until @until. */
struct exp_fail_kind {
	uint64_t mtbf_ps;
	uint64_t mttr_ps;
	bool on;
};

static int exp_fail_kind_read(const struct cfg_node *n, struct exp_fail_kind *k,
			      char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "mtbf", "mttr", NULL };
	const struct cfg_node *b, *r;

	if (cfg_want(n, CFG_MAP, "a failure process ({mtbf, mttr})", err) != 0 ||
	    cfg_check_keys(n, keys, err) != 0)
		return -EINVAL;
	if (!(b = cfg_get(n, "mtbf")) || !(r = cfg_get(n, "mttr"))) {
		cfg_errorf(err, n, "a failure process needs 'mtbf' (mean time between failures of one component) and 'mttr' (mean time to repair)");
		return -EINVAL;
	}
	if (cfg_time(b, &k->mtbf_ps, err) != 0 || cfg_time(r, &k->mttr_ps, err) != 0)
		return -EINVAL;
	if (!k->mtbf_ps || !k->mttr_ps) {
		cfg_errorf(err, k->mtbf_ps ? r : b, "mtbf and mttr must be above 0");
		return -EINVAL;
	}
	k->on = true;
	return 0;
}

/* An exponential draw of mean @mean_ps, at least 1 ps. */
static uint64_t exp_fail_draw(struct rng *r, uint64_t mean_ps)
{
	double t = -log1p(-rng_unit(r)) * (double)mean_ps;

	return t < 1 ? 1 : t >= (double)EXP_FAULT_HORIZON_PS ? EXP_FAULT_HORIZON_PS : (uint64_t)t;
}

static int exp_fail_push(struct exp *e, uint32_t *cap, int kind, uint32_t node, uint16_t port,
			 uint64_t at, uint64_t dur, const struct cfg_mark *mark)
{
	struct exp_fault *f;

	if (e->n_faults >= EXP_MAX_FAULTS)
		return -E2BIG;
	if (e->n_faults == *cap) {
		uint32_t c = *cap ? 2 * *cap : 16;
		struct exp_fault *v = realloc(e->faults, sizeof(*v) * c);

		if (!v)
			return -ENOMEM;
		e->faults = v;
		*cap = c;
	}
	f = &e->faults[e->n_faults];
	*f = (struct exp_fault){ .kind = kind, .at_ps = at, .duration_ps = dur, .tc = -1,
				 .random = true, .mark = *mark };
	snprintf(f->name, sizeof(f->name), "random%u", e->n_faults);
	if (kind == EXP_FAULT_LINK_DOWN) {
		if (!(f->ports = malloc(sizeof(*f->ports))))
			return -ENOMEM;
		f->ports[0] = (struct exp_capture){ .node = node, .port = port };
		f->n_ports = 1;
	} else if (exp_fault_node_ports(e->topo, node, f) != 0) {
		return -ENOMEM;
	}
	e->n_faults++;
	return 0;
}

int exp_failures_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES])
{
	static const char *const keys[] = { "until", "nic", "link", "switch", NULL };
	static const char *const kinds[] = { "nic", "link", "switch" };
	struct exp *e = params;
	const struct topo *t = e->topo;
	struct exp_fail_kind k[3] = { { 0 } };
	const struct cfg_node *u;
	uint64_t until;
	uint32_t cap = e->n_faults;
	int rc = 0;

	if (cfg_want(x, CFG_MAP, "failures ({until, nic, link, switch})", err) != 0 ||
	    cfg_check_keys(x, keys, err) != 0)
		return -EINVAL;
	if (!(u = cfg_get(x, "until"))) {
		cfg_errorf(err, x, "failures needs 'until' (the failure processes run from 0 to then)");
		return -EINVAL;
	}
	if (cfg_time(u, &until, err) != 0)
		return -EINVAL;
	if (until > EXP_FAULT_HORIZON_PS / 2) {
		cfg_errorf(err, u, "until is past the simulator's horizon (%llu s)",
			   (unsigned long long)(EXP_FAULT_HORIZON_PS / 2 / UNITS_PS_PER_S));
		return -EINVAL;
	}
	for (int i = 0; i < 3; i++) {
		const struct cfg_node *n = cfg_get(x, kinds[i]);

		if (n && exp_fail_kind_read(n, &k[i], err) != 0)
			return -EINVAL;
	}
	/* NICs (hosts), links, switches: each in topology order, each its own
	 * stream; a component fails, is repaired, may fail again. */
	for (int i = 0; i < 3 && rc == 0; i++) {
		uint32_t n = i == 0 ? t->n_hosts : i == 1 ? t->n_links : t->n_switches;

		for (uint32_t c = 0; k[i].on && c < n && rc == 0; c++) {
			struct rng r;
			uint64_t now = 0;

			rng_init(&r, e->seed, EXP_FAIL_STREAM + ((uint64_t)i << 32) + c);
			for (;;) {
				uint64_t up = exp_fail_draw(&r, k[i].mtbf_ps), fix;

				if (up >= until - now)
					break;
				now += up;
				fix = exp_fail_draw(&r, k[i].mttr_ps);
				if (fix > EXP_FAULT_HORIZON_PS - now)
					fix = EXP_FAULT_HORIZON_PS - now;
				if (i == 1)
					rc = exp_fail_push(e, &cap, EXP_FAULT_LINK_DOWN, t->links[c].node[0],
							   t->links[c].port[0], now, fix, &x->mark);
				else
					rc = exp_fail_push(e, &cap, i == 0 ? EXP_FAULT_NIC_DOWN : EXP_FAULT_SWITCH_DOWN,
							   i == 0 ? t->hosts[c] : t->switches[c], 0, now, fix, &x->mark);
				if (rc != 0 || fix >= until - now)
					break;
				now += fix;
			}
		}
	}
	if (rc == -E2BIG) {
		cfg_errorf(err, x, "the failure processes make more than %d faults: longer mtbf or a shorter until",
			   EXP_MAX_FAULTS);
		return -EINVAL;
	}
	return rc;
}
