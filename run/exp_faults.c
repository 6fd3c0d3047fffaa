/* The fault schedule of an experiment (`faults:`, a list, and the random
 * failures:): each entry's kind (faults/, one file a kind), start and
 * ports or node through the common table, the kind's settings through its
 * own; faults/schedule.c carries them out during the run. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "exp_int.h"
#include "fault.h"
#include "rng.h"

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

/* A key read elsewhere: kind before the table (it picks the kind's
 * table), another kind's key refused by the check (it takes no ...). */
static int exp_fault_skip(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	(void)n;
	(void)params;
	(void)err;
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

/* node: what the kind names (a switch, a host): every connected port. */
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
	if (x->ops->node_noun && x->ops->node_switch != (node->kind == TOPO_SWITCH)) {
		cfg_errorf(err, n, "%s is a %s: %s takes a %s", s, node->kind == TOPO_SWITCH ? "switch" : "host",
			   x->ops->kind.name, x->ops->node_noun);
		return -EINVAL;
	}
	if (!x->n_ports) {
		cfg_errorf(err, n, "%s has no connected port", s);
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_key exp_fault_keys[] = {
	{ "kind", CFG_KEY_CUSTOM, .required = "a fault kind", .read = exp_fault_skip,
	  .doc = "what it does: a fault kind (docs/config.md, faults)" },
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
};

/* The keys the entry's kind needs and takes (beside kind, name, at). */
static int exp_fault_keys_check(const struct cfg_node *it, const struct fault_ops *o,
				char err[CFG_ERR_BYTES])
{
	const char *kind = o->kind.name, *sep = o->allow[0] ? " " : "";

	for (uint32_t i = 0; i < it->n; i++) {
		const char *k = it->keys[i]->str;

		if (!strcmp(k, "kind") || !strcmp(k, "name") || !strcmp(k, "at") ||
		    fault_word(o->need, k) || fault_word(o->allow, k))
			continue;
		cfg_errorf(err, it->keys[i], "a %s fault takes no '%s' (it takes %s%s%s)", kind, k,
			   o->need, sep, o->allow);
		return -EINVAL;
	}
	for (const char *p = o->need; *p;) {
		char key[32];
		size_t n = strcspn(p, " ");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		if (!cfg_get(it, key)) {
			cfg_errorf(err, it, "a %s fault needs '%s' (it takes %s%s%s)", kind, key, o->need,
				   sep, o->allow);
			return -EINVAL;
		}
		p += n + (p[n] == ' ');
	}
	return 0;
}

static int exp_fault_check(const struct cfg_node *it, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_fault *x = params;
	const struct fault_ops *o = x->ops;
	/* The last instant it acts at must stay inside the clock's horizon
	 * (128-bit sums: nothing wraps on the way). */
	unsigned __int128 end;

	if (exp_fault_keys_check(it, o, err) != 0 || (o->validate && o->validate(x, it, err) != 0))
		return -EINVAL;
	end = o->end ? o->end(x) : (unsigned __int128)x->at_ps + x->duration_ps;
	if (end > EXP_FAULT_HORIZON_PS) {
		cfg_errorf(err, it, "this fault ends past the simulator's horizon (%llu s)",
			   (unsigned long long)(EXP_FAULT_HORIZON_PS / UNITS_PS_PER_S));
		return -EINVAL;
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

int exp_faults_schema(struct cfg_schema_names *out)
{
	struct reg *r = fault_reg();
	int rc = cfg_schema_names_add(out, &exp_fault_table);

	for (unsigned i = 0; rc == 0 && i < reg_count(r); i++)
		if (reg_at(r, i)->settings)
			rc = cfg_schema_names_add(out, reg_at(r, i)->settings);
	return rc;
}

/* Every kind's keys, once, in registry order, read by no one (the entry's
 * own kind reads its own): so that a key of another kind is refused by
 * the check (a link-down fault takes no 'ber'), not as unknown. */
enum { EXP_FAULT_KIND_KEYS = 64 /* distinct keys of every kind together, at most */ };

struct exp_fault_others {
	struct cfg_key keys[EXP_FAULT_KIND_KEYS]; /* the keys */
	struct cfg_table table;                   /* over them */
	const char *names[sizeof(exp_fault_keys) / sizeof(exp_fault_keys[0]) +
			  EXP_FAULT_KIND_KEYS + 1]; /* every key an entry may have,
							 * NULL-terminated */
};

static void exp_fault_others_init(struct exp_fault_others *o)
{
	struct reg *r = fault_reg();
	unsigned n = 0;

	o->table = (struct cfg_table){ .section = "faults", .keys = o->keys, .ordered = true };
	for (unsigned i = 0; i < reg_count(r); i++) {
		const struct cfg_table *t = reg_at(r, i)->settings;

		for (unsigned k = 0; t && k < t->n_keys; k++) {
			unsigned j = 0;

			while (j < o->table.n_keys && strcmp(o->keys[j].name, t->keys[k].name))
				j++;
			if (j == o->table.n_keys && j < EXP_FAULT_KIND_KEYS)
				o->keys[o->table.n_keys++] = (struct cfg_key){
					.name = t->keys[k].name, .type = CFG_KEY_CUSTOM,
					.read = exp_fault_skip, .doc = t->keys[k].doc };
		}
	}
	for (unsigned i = 0; i < exp_fault_table.n_keys; i++)
		o->names[n++] = exp_fault_keys[i].name;
	for (unsigned i = 0; i < o->table.n_keys; i++)
		o->names[n++] = o->keys[i].name;
	o->names[n] = NULL;
}

/* Entry @it into @f: its kind first (it picks the table of its settings),
 * then the common keys and the kind's, then the checks. */
static int exp_fault_read(struct exp *e, struct cfg_node *it, struct exp_fault *f,
			  const struct exp_fault_others *others, char err[CFG_ERR_BYTES])
{
	struct cfg_bind b[3] = { { &exp_fault_table, f }, { &others->table, NULL } };
	const struct cfg_node *kn;
	const struct reg_kind *k;
	char list[512];
	unsigned n = 2;

	/* Unknown keys first, as the schema would. */
	if (cfg_want(it, CFG_MAP, "a fault ({kind, at, ...})", err) != 0 ||
	    cfg_check_keys(it, others->names, err) != 0)
		return -EINVAL;
	if ((kn = cfg_get(it, "kind")) == NULL) {
		cfg_errorf(err, it, "missing key 'kind' (%s)", reg_list(fault_reg(), list, sizeof(list)));
		return -EINVAL;
	}
	if (reg_read(fault_reg(), kn, &k, err) != 0)
		return -EINVAL;
	f->ops = REG_OPS(struct fault_ops, k);
	if (k->settings) {
		if (!(f->settings = calloc(1, k->settings_size)))
			return -ENOMEM;
		b[n++] = (struct cfg_bind){ k->settings, f->settings };
	}
	return cfg_schema_read(e->doc, it, "fault", b, n, err);
}

int exp_faults_read(const struct cfg_node *x, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;
	struct exp_fault_others others;

	if (cfg_want(x, CFG_SEQ, "faults (a list of {kind, at, ...})", err) != 0)
		return -EINVAL;
	if (x->n > EXP_MAX_FAULTS) {
		cfg_errorf(err, x, "at most %d faults", EXP_MAX_FAULTS);
		return -EINVAL;
	}
	if (!(e->faults = calloc(x->n ? x->n : 1, sizeof(*e->faults))))
		return -ENOMEM;
	exp_fault_others_init(&others);
	for (uint32_t i = 0; i < x->n; i++) {
		struct exp_fault *f = &e->faults[i];
		int r;

		*f = (struct exp_fault){ .e = e, .mark = x->items[i]->mark };
		snprintf(f->name, sizeof(f->name), "fault%u", i);
		e->n_faults = i + 1; /* its ports and settings are freed with it */
		if ((r = exp_fault_read(e, x->items[i], f, &others, err)) != 0)
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
	for (uint32_t i = 0; i < e->n_faults; i++) {
		free(e->faults[i].ports);
		free(e->faults[i].settings);
	}
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

static int exp_fail_push(struct exp *e, uint32_t *cap, const struct fault_ops *kind, uint32_t node, uint16_t port,
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
	*f = (struct exp_fault){ .ops = kind, .at_ps = at, .duration_ps = dur, .random = true,
				 .mark = *mark };
	snprintf(f->name, sizeof(f->name), "random%u", e->n_faults);
	if (kind == &fault_link_down) {
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
					rc = exp_fail_push(e, &cap, &fault_link_down, t->links[c].node[0],
							   t->links[c].port[0], now, fix, &x->mark);
				else
					rc = exp_fail_push(e, &cap, i == 0 ? &fault_nic_down : &fault_switch_down,
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
