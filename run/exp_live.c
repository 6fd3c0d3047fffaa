/* The live: section: which host ports `fabemu live` binds to real
 * endpoints (DPDK ports), and how it paces the simulation against the
 * wall clock. Read by every command so that a file means the same
 * everywhere; fabemu run and check refuse an experiment that has live
 * ports (exp_live_refuse), fabemu live acts on it (live/). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exp_int.h"
#include "link_layer.h"

/* Names handed to the kernel and to DPDK's device arguments: letters,
 * digits, '_', '.', '-', at most @max bytes, not "." or ".." (a
 * namespace's name is a file name). A ',' or '=' would add device
 * arguments of its own. */
static int exp_live_name(const struct cfg_node *n, size_t max, const char *what, const char **out,
			 char err[CFG_ERR_BYTES])
{
	const char *s;
	size_t len;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	len = strlen(s);
	if (len == 0 || len > max || !strcmp(s, ".") || !strcmp(s, "..") ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != len) {
		cfg_errorf(err, n, "%s '%s': 1 to %zu letters, digits, '_', '.' or '-'", what, s, max);
		return -EINVAL;
	}
	*out = s;
	return 0;
}

static int exp_live_port_at(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_live_port *p = params;
	const struct topo *t = p->e->topo;

	if (exp_port_ref(p->e, n, &p->at, err) != 0)
		return -EINVAL;
	if (t->nodes[p->at.node].kind != TOPO_HOST) {
		cfg_errorf(err, n, "%s is a switch: a live port takes the place of a host's NIC port",
			   t->nodes[p->at.node].name);
		return -EINVAL;
	}
	return 0;
}

static int exp_live_iface(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	/* IFNAMSIZ (16) with its terminating NUL. */
	return exp_live_name(n, 15, "iface", &((struct exp_live_port *)params)->iface, err);
}

static int exp_live_netns(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	return exp_live_name(n, 64, "netns", &((struct exp_live_port *)params)->netns, err);
}

static const char *const exp_live_drivers[] = { "tap", "af_packet", "veth", "memif", "pci", NULL };
static const char *const exp_live_roles[] = { "server", "client", NULL };

/* memif's control socket: an absolute path of plain characters (it goes
 * into a device argument, where ',' and '=' would start others). */
static int exp_live_socket(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_live_port *p = params;
	const char *s;
	size_t len;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	len = strlen(s);
	if (len < 2 || len > 100 || s[0] != '/' ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/") != len) {
		cfg_errorf(err, n, "socket '%s': an absolute path of at most 100 letters, digits, '_', "
			   "'.', '-' and '/'", s);
		return -EINVAL;
	}
	p->socket = s;
	return 0;
}

static int exp_live_hex(const char *s, size_t n, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	if (strspn(s, "0123456789abcdefABCDEF") != n)
		return -1;
	v = strtoul(s, &end, 16);
	if (end != s + n || v > max)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* pci: a PCI address, [DDDD:]BB:DD.F (hex; device at most 1f, function
 * at most 7), kept with its domain (0000 when left out), in lower case:
 * the name the EAL gives the NIC's port. */
static int exp_live_pci(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_live_port *p = params;
	unsigned dom = 0, bus, dev, fn;
	const char *s, *b;
	size_t len;

	if (cfg_str(n, &s, err) != 0)
		return -EINVAL;
	len = strlen(s);
	b = len == 12 ? s + 5 : s;
	if ((len != 7 && len != 12) || (len == 12 && (s[4] != ':' || exp_live_hex(s, 4, 0xffff, &dom))) ||
	    b[2] != ':' || b[5] != '.' || exp_live_hex(b, 2, 0xff, &bus) ||
	    exp_live_hex(b + 3, 2, 0x1f, &dev) || exp_live_hex(b + 6, 1, 7, &fn)) {
		cfg_errorf(err, n, "pci '%s': a PCI address, [DDDD:]BB:DD.F in hex, such as 0000:3b:00.0 "
			   "(lspci -D lists them)", s);
		return -EINVAL;
	}
	snprintf(p->pci, sizeof(p->pci), "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return 0;
}

static int exp_live_port_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct exp_live_port *p = params;

	if (p->netns && p->driver == EXP_LIVE_AF_PACKET) {
		cfg_errorf(err, cfg_get(map, "netns"),
			   "netns: an af_packet port opens an interface where it already is; tap and "
			   "veth ports, which fabemu makes, go into a namespace");
		return -EINVAL;
	}
	if (!p->netns && p->driver == EXP_LIVE_VETH) {
		cfg_errorf(err, map, "a veth port needs netns: the namespace its other end goes into");
		return -EINVAL;
	}
	if ((p->driver == EXP_LIVE_MEMIF) != (p->socket != NULL)) {
		cfg_errorf(err, p->socket ? cfg_get(map, "socket") : map,
			   p->socket ? "socket: only a memif port has a control socket"
				     : "a memif port needs socket: the path of its control socket");
		return -EINVAL;
	}
	if (p->driver != EXP_LIVE_MEMIF) {
		struct cfg_node *role = (struct cfg_node *)cfg_get(map, "role");

		if (!role->dflt) {
			cfg_errorf(err, role, "role: only a memif port has one");
			return -EINVAL;
		}
		role->omit = true; /* the walker's fill: left out of the resolved file */
	}
	if ((p->driver == EXP_LIVE_PCI) != (p->pci[0] != 0)) {
		cfg_errorf(err, p->pci[0] ? cfg_get(map, "pci") : map,
			   p->pci[0] ? "pci: only a pci port has a PCI address"
				     : "a pci port needs pci: the NIC's PCI address, such as 0000:3b:00.0");
		return -EINVAL;
	}
	if (p->driver == EXP_LIVE_PCI && p->netns) {
		cfg_errorf(err, cfg_get(map, "netns"),
			   "netns: a pci port's NIC is DPDK's, not the kernel's: there is no interface to move");
		return -EINVAL;
	}
	if (p->driver == EXP_LIVE_MEMIF && p->netns) {
		cfg_errorf(err, cfg_get(map, "netns"), "netns: a memif port has no interface to move");
		return -EINVAL;
	}
	return 0;
}

static const struct cfg_key exp_live_port_keys[] = {
	{ "port", CFG_KEY_CUSTOM, .required = "the host port it replaces, node:port such as h0:0",
	  .read = exp_live_port_at, .doc = "the host port (node:port) whose NIC a real endpoint replaces" },
	{ "driver", CFG_KEY_ENUM, "tap", .off = offsetof(struct exp_live_port, driver),
	  .names = exp_live_drivers,
	  .doc = "tap (a TAP device fabemu makes), veth (a veth pair fabemu makes, its other end in "
		 "netns; MTU up to 9000), af_packet (an existing interface, opened raw), memif "
		 "(shared memory with another DPDK program: a second fabemu) or pci (a NIC port "
		 "bound to vfio-pci, or an mlx5 one; builds with -Dlive_pci_drivers)" },
	{ "iface", CFG_KEY_CUSTOM, .required = "the interface's name, e.g. fab0",
	  .read = exp_live_iface,
	  .doc = "the TAP's or veth's name, the interface to open, or a memif or pci port's name "
		 "in results (at most 15 bytes)" },
	{ "netns", CFG_KEY_CUSTOM, NULL, .read = exp_live_netns,
	  .doc = "tap, veth: the network namespace (it must exist) to put the TAP or the veth's "
		 "other end into, where fabemu gives it the host's MAC and address (veth: required; "
		 "tap: absent leaves it unconfigured where it is made)" },
	{ "socket", CFG_KEY_CUSTOM, NULL, .read = exp_live_socket,
	  .doc = "memif: the control socket's path (required; a file, not in the abstract namespace)" },
	{ "pci", CFG_KEY_CUSTOM, NULL, .read = exp_live_pci,
	  .doc = "pci: the NIC port's PCI address, [DDDD:]BB:DD.F (required)" },
	{ "role", CFG_KEY_ENUM, "server", .off = offsetof(struct exp_live_port, role),
	  .names = exp_live_roles,
	  .doc = "memif: server (makes the socket, waits for the client) or client" },
};

static const struct cfg_table exp_live_port_table = {
	.section = "live.ports",
	.keys = exp_live_port_keys,
	.n_keys = sizeof(exp_live_port_keys) / sizeof(exp_live_port_keys[0]),
	.check = exp_live_port_check,
	.ordered = true,
};

static int exp_live_ports(const struct cfg_node *n, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;
	struct exp_live *l = &e->live;

	if (cfg_want(n, CFG_SEQ, "live.ports (a list of {port, driver, iface, netns})", err) != 0)
		return -EINVAL;
	if (n->n > 64) {
		cfg_errorf(err, n, "live.ports lists %u ports, at most 64", n->n);
		return -EINVAL;
	}
	free(l->ports);
	l->n_ports = 0;
	if (n->n && !(l->ports = calloc(n->n, sizeof(*l->ports))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n->n; i++) {
		struct exp_live_port *p = &l->ports[i];
		struct cfg_bind b = { &exp_live_port_table, p };

		p->e = e;
		p->mark = n->items[i]->mark;
		if (cfg_schema_read(e->doc, n->items[i], "live port", &b, 1, err) != 0)
			return -EINVAL;
		for (uint32_t j = 0; j < i; j++) {
			const struct exp_live_port *q = &l->ports[j];

			if (q->at.node == p->at.node && q->at.port == p->at.port) {
				cfg_errorf(err, cfg_get(n->items[i], "port"), "%s:%u is live already (line %u)",
					   e->topo->nodes[p->at.node].name, p->at.port, q->mark.line);
				return -EINVAL;
			}
			if (!strcmp(q->iface, p->iface)) {
				cfg_errorf(err, cfg_get(n->items[i], "iface"),
					   "iface %s is another live port's already (line %u)", p->iface,
					   q->mark.line);
				return -EINVAL;
			}
		}
		l->n_ports++;
	}
	return 0;
}

static int exp_live_check(const struct cfg_node *map, void *params, char err[CFG_ERR_BYTES])
{
	struct exp *e = params;

	e->live.mark = map->mark;
	for (uint32_t i = 0; i < e->live.n_ports; i++)
		if (e->live.ports[i].driver == EXP_LIVE_TAP && e->live.mtu_bytes > 1500) {
			cfg_errorf(err, cfg_get(map, "mtu"),
				   "live.mtu %llu: a tap port carries at most 1500 (DPDK's net_tap); veth "
				   "and af_packet ports take up to 9000",
				   (unsigned long long)e->live.mtu_bytes);
			return -EINVAL;
		}
	/* Live endpoints speak RoCEv2 (or plain IP): a UET fabric's NICs and
	 * trimming switches would not understand them, nor they UET. */
	if (e->live.n_ports && (!e->ll->eth_switch || (e->ll->wire && e->ll->wire->kind == PKT_LL_UET))) {
		cfg_errorf(err, map, "live ports need an Ethernet fabric (fabric.link_layer: roce), not %s",
			   e->ll->kind.name);
		return -EINVAL;
	}
	return 0;
}

static const char *const exp_live_polls[] = { "busy", "yield", NULL };

static const struct cfg_key exp_live_keys[] = {
	{ "ports", CFG_KEY_CUSTOM, NULL, .read = exp_live_ports,
	  .doc = "host ports bound to real endpoints: {port, driver, iface, netns} each" },
	{ "dilation", CFG_KEY_DOUBLE, "1", .off = offsetof(struct exp, live.dilation), .lo = 1,
	  .hi = 1e6, .doc = "wall-clock seconds per simulated second (1: real time; 10: a tenth of it)" },
	{ "late", CFG_KEY_TIME, "50us", .off = offsetof(struct exp, live.late_ps),
	  .doc = "a frame handed to its real endpoint more than this simulated time after its "
		 "arrival counts as late (live.frames_late)" },
	{ "mtu", CFG_KEY_SIZE, "1500B", .off = offsetof(struct exp, live.mtu_bytes), .size = 8,
	  .min = 576, .max = 9000, .doc = "IP MTU of the live ports and the interfaces fabemu sets up" },
	{ "queue", CFG_KEY_SIZE, "1MiB", .off = offsetof(struct exp, live.queue_bytes), .size = 8,
	  .min = 9018, .max = UINT64_C(1) << 32,
	  .doc = "frame bytes from a real endpoint that may wait for its link; more are dropped "
		 "(live.ports.*.drops_queue)" },
	{ "poll", CFG_KEY_ENUM, "busy", .off = offsetof(struct exp, live.poll), .names = exp_live_polls,
	  .doc = "busy: the loop keeps its core; yield: a turn with nothing to do gives the core to "
		 "other programs (fewer cores than the loops and endpoints need)" },
};

static const struct cfg_table exp_live_table = {
	.section = "live",
	.keys = exp_live_keys,
	.n_keys = sizeof(exp_live_keys) / sizeof(exp_live_keys[0]),
	.check = exp_live_check,
	.ordered = true,
};

const struct cfg_sub exp_live_subs[] = { { &exp_live_table, 0 }, { NULL, 0 } };

int exp_live_schema(struct cfg_schema_names *out)
{
	return cfg_schema_names_add(out, &exp_live_port_table);
}

int exp_live_refuse(const struct exp *e, char err[CFG_ERR_BYTES])
{
	const struct exp_live_port *p = e->live.ports;

	if (!e->live.n_ports)
		return 0;
	snprintf(err, CFG_ERR_BYTES,
		 "%s:%u:%u: live.ports binds %s:%u to a real endpoint: run this experiment with "
		 "fabemu live (run and check simulate every host: --set live.ports=[] for that)",
		 p->mark.file, p->mark.line, p->mark.col, e->topo->nodes[p->at.node].name, p->at.port);
	return -EINVAL;
}
