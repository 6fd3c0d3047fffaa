/* Live ports' devices: the EAL arguments that make them (DPDK's net_tap
 * and net_af_packet drivers), the checks before the EAL starts, and a
 * TAP's set-up in its network namespace, done with iproute2's `ip` (run
 * without a shell, its arguments checked names: run/exp_live.c). */
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "addr.h"
#include "live_int.h"

extern char **environ;

void live_vdev_name(const struct exp_live_port *c, uint32_t i, char name[64])
{
	if (c->driver == EXP_LIVE_PCI) {
		snprintf(name, 64, "%s", c->pci); /* the EAL names a PCI port by its address */
		return;
	}
	snprintf(name, 64, "%s%u",
		 c->driver == EXP_LIVE_TAP     ? "net_tap"
		 : c->driver == EXP_LIVE_MEMIF ? "net_memif"
					       : "net_af_packet",
		 i);
}

int live_eal_args(const struct exp *e, char **argv, int *argc, int cap)
{
	/* net_tap and net_memif report as errors what they do without: the
	 * multiq qdisc this kernel lacks (and with it rte_flow), and secondary
	 * processes (fabemu runs without a shared configuration). */
	static const char *const quiet[] = { "--log-level=pmd.net.tap:critical",
					     "--log-level=pmd.net.memif:critical" };

	for (unsigned i = 0; i < 2; i++)
		if (cap-- <= 0 || !(argv[(*argc)++] = strdup(quiet[i])))
			return cap < 0 ? -E2BIG : -ENOMEM;
	for (uint32_t i = 0; i < e->live.n_ports; i++) {
		const struct exp_live_port *c = &e->live.ports[i];
		char name[64], *a;

		if (cap-- <= 0)
			return -E2BIG;
		live_vdev_name(c, i, name);
		if (c->driver == EXP_LIVE_PCI) {
			/* The PCI bus probes only the NICs allowed. */
			if (cap-- <= 0)
				return -E2BIG;
			if (!(argv[(*argc)++] = strdup("-a")) || !(a = strdup(c->pci)))
				return -ENOMEM;
		} else if (c->driver == EXP_LIVE_TAP) {
			if (asprintf(&a, "--vdev=%s,iface=%s", name, c->iface) < 0)
				return -ENOMEM;
		} else if (c->driver == EXP_LIVE_MEMIF) {
			/* Buffers that hold a whole frame: one segment each. */
			if (asprintf(&a, "--vdev=%s,id=0,role=%s,socket=%s,socket-abstract=no,bsize=%u",
				     name, c->role == EXP_LIVE_CLIENT ? "client" : "server", c->socket,
				     live_mmap_frame(e)) < 0)
				return -ENOMEM;
		} else {
			/* af_packet: one queue pair; PACKET_MMAP frames in blocks of
			 * at least a page. */
			unsigned fsz = live_mmap_frame(e);

			if (asprintf(&a, "--vdev=%s,iface=%s,qpairs=1,framesz=%u,blocksz=%u,framecnt=1024",
				     name, c->iface, fsz, fsz < 4096 ? 4096 : fsz) < 0)
				return -ENOMEM;
		}
		argv[(*argc)++] = a;
	}
	return 0;
}

bool live_eal_hw(const struct exp *e)
{
	for (uint32_t i = 0; i < e->live.n_ports; i++)
		if (e->live.ports[i].driver == EXP_LIVE_PCI)
			return true;
	return false;
}

void live_eal_args_free(char **argv, int from, int to)
{
	for (int i = from; i < to; i++)
		free(argv[i]);
}

/* Where iproute2 keeps named namespaces. */
#define LIVE_NETNS_DIR "/run/netns"

/* Messages from or to a live host are set up (their queue pairs made) and
 * those to it posted; those from it are the real endpoint's to send (a
 * second fabemu, an RDMA NIC). Refused: streamed collectives, and live
 * hosts' messages in a dependency graph (one that is sent elsewhere never
 * completes here, and what waits for it would wait for ever). */
static int live_no_traffic(const struct exp *e, char err[CFG_ERR_BYTES])
{
	const struct topo *t = e->topo;

	if (e->graph.n_streams) {
		snprintf(err, CFG_ERR_BYTES,
			 "%s:%u:%u: live ports: this experiment's collectives are made as they run "
			 "(streamed), which a live run does not follow yet; outputs.flows_csv: true "
			 "lists them before the run", e->live.mark.file, e->live.mark.line, e->live.mark.col);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < e->live.n_ports; i++) {
		const struct exp_live_port *c = &e->live.ports[i];
		uint32_t ep = t->nodes[c->at.node].first_ep + c->at.port;

		for (uint32_t m = 0; e->graph.n_ops && m < e->n_msgs; m++)
			if (e->msgs[m].src == ep || e->msgs[m].dst == ep) {
				snprintf(err, CFG_ERR_BYTES,
					 "%s:%u:%u: live port %s:%u: workload '%s' sends %s it in a "
					 "dependency graph (collectives, training, depends_on), which a live "
					 "run does not follow across its real endpoints",
					 c->mark.file, c->mark.line, c->mark.col,
					 t->nodes[c->at.node].name, c->at.port,
					 e->workloads[e->msgs[m].workload].name,
					 e->msgs[m].src == ep ? "from" : "to");
				return -EINVAL;
			}
	}
	return 0;
}

/* Kernel drivers through which a DPDK PMD drives a NIC: vfio-pci (the one
 * to use), uio_pci_generic and igb_uio; and mlx5_core, which an mlx5 port
 * keeps (DPDK's mlx5 PMD works beside it, through rdma-core). */
static const char *const live_pci_kdrivers[] = { "vfio-pci", "uio_pci_generic", "igb_uio", "mlx5_core",
						  NULL };

/* The free huge pages of every size, in bytes. */
static uint64_t live_free_huge_bytes(void)
{
	static const char *const sizes[] = { "hugepages-2048kB", "hugepages-1048576kB" };
	static const uint64_t bytes[] = { UINT64_C(2) << 20, UINT64_C(1) << 30 };
	uint64_t total = 0;

	for (unsigned i = 0; i < 2; i++) {
		char path[96];
		unsigned long long n = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/%s/free_hugepages", sizes[i]);
		if ((f = fopen(path, "r"))) {
			if (fscanf(f, "%llu", &n) != 1)
				n = 0;
			fclose(f);
		}
		total += n * bytes[i];
	}
	return total;
}

/* A pci port's NIC, before the EAL probes it: there, bound to a driver a
 * PMD works through, a PMD for it linked, its DMA memory at hand (huge
 * pages). 0, -EINVAL (no such device: the file's fault) or another -errno,
 * with @err saying what to do. */
static int live_pci_preflight(const struct exp_live_port *c, char err[CFG_ERR_BYTES])
{
	const char *at = c->mark.file, *drv;
	char path[96], link[256];
	unsigned line = c->mark.line, col = c->mark.col;
	struct stat st;
	ssize_t n;
	unsigned k;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", c->pci);
	if (stat(path, &st) != 0) {
		snprintf(err, CFG_ERR_BYTES, "%s:%u:%u: live port %s: no PCI device %s here (lspci -D lists them)",
			 at, line, col, c->iface, c->pci);
		return -EINVAL;
	}
	if (!FAB_LIVE_PCI_DRIVERS[0]) {
		snprintf(err, CFG_ERR_BYTES,
			 "%s:%u:%u: live port %s: this fabemu has no NIC drivers for pci ports: build it with "
			 "them, e.g. `meson configure BUILD -Dlive_pci_drivers=ice,mlx5 && ninja -C BUILD` "
			 "(docs/user-guide.md, \"Real NICs\")", at, line, col, c->iface);
		return -ENOTSUP;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", c->pci);
	if ((n = readlink(path, link, sizeof(link) - 1)) < 0)
		link[0] = 0;
	else
		link[n] = 0;
	drv = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	for (k = 0; live_pci_kdrivers[k] && strcmp(drv, live_pci_kdrivers[k]); k++)
		;
	if (!live_pci_kdrivers[k]) {
		snprintf(err, CFG_ERR_BYTES,
			 "%s:%u:%u: live port %s: PCI device %s is %s%s%s: give it to DPDK with `modprobe "
			 "vfio-pci; dpdk-devbind.py -b vfio-pci %s` (Debian's dpdk package; docs/user-guide.md, "
			 "\"Real NICs\")", at, line, col, c->iface, c->pci, drv[0] ? "the kernel's (driver " : "bound to no driver",
			 drv, drv[0] ? ", an interface of this host?)" : "", c->pci);
		return -EBUSY;
	}
	if (!strcmp(drv, "vfio-pci") && access("/dev/vfio/vfio", R_OK | W_OK) != 0) {
		snprintf(err, CFG_ERR_BYTES, "live port %s: /dev/vfio/vfio: %s (modprobe vfio-pci; an IOMMU "
			 "on: intel_iommu=on or amd_iommu=on)", c->iface, strerror(errno));
		return -EPERM;
	}
	if (live_free_huge_bytes() == 0) {
		snprintf(err, CFG_ERR_BYTES,
			 "live port %s: a NIC's DMA needs huge pages and none is free: reserve some, e.g. "
			 "`echo 1024 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages` (2 GiB)",
			 c->iface);
		return -ENOMEM;
	}
	return 0;
}

int live_preflight(const struct exp *e, char err[CFG_ERR_BYTES])
{
	int r;

	if ((r = live_no_traffic(e, err)) != 0)
		return r;
	for (uint32_t i = 0; i < e->live.n_ports; i++) {
		const struct exp_live_port *c = &e->live.ports[i];
		char path[128];
		struct stat st;

		if (c->netns) {
			snprintf(path, sizeof(path), LIVE_NETNS_DIR "/%s", c->netns);
			if (stat(path, &st) != 0) {
				snprintf(err, CFG_ERR_BYTES,
					 "%s:%u:%u: live port %s: network namespace '%s' does not exist "
					 "(tools/live-netns.sh up %s, as root, makes it)",
					 c->mark.file, c->mark.line, c->mark.col, c->iface, c->netns, c->netns);
				return -EINVAL;
			}
		}
		snprintf(path, sizeof(path), "/sys/class/net/%s", c->iface);
		if (c->driver == EXP_LIVE_VETH && stat(path, &st) == 0) {
			snprintf(err, CFG_ERR_BYTES,
				 "%s:%u:%u: live port: an interface '%s' exists already here, where fabemu "
				 "would make its veth (a run that did not end? ip link del %s)",
				 c->mark.file, c->mark.line, c->mark.col, c->iface, c->iface);
			return -EINVAL;
		}
		if (c->driver == EXP_LIVE_PCI && (r = live_pci_preflight(c, err)) != 0)
			return r;
		if (c->driver == EXP_LIVE_AF_PACKET) {
			if (stat(path, &st) != 0) {
				snprintf(err, CFG_ERR_BYTES,
					 "%s:%u:%u: live port: no interface '%s' here to open (af_packet opens "
					 "an existing one)", c->mark.file, c->mark.line, c->mark.col, c->iface);
				return -EINVAL;
			}
		}
	}
	bool need_root = false;

	for (uint32_t i = 0; i < e->live.n_ports; i++)
		need_root |= e->live.ports[i].driver != EXP_LIVE_MEMIF;
	if (need_root && geteuid() != 0) {
		snprintf(err, CFG_ERR_BYTES,
			 "tap, veth, af_packet and pci ports need root (CAP_NET_ADMIN and CAP_NET_RAW) to "
			 "make TAPs and veths, open raw sockets and move them into namespaces, and to drive "
			 "NICs: run fabemu live as root");
		return -EPERM;
	}
	if (access("/dev/net/tun", R_OK | W_OK) != 0) {
		for (uint32_t i = 0; i < e->live.n_ports; i++)
			if (e->live.ports[i].driver == EXP_LIVE_TAP) {
				snprintf(err, CFG_ERR_BYTES, "live tap ports need /dev/net/tun: %s",
					 strerror(errno));
				return -EPERM;
			}
	}
	return 0;
}

/* Run `ip ARGS...` and wait for it. 0, or -EIO with @err saying which
 * command failed and how (its own message went to stderr). */
static int live_ip(char err[CFG_ERR_BYTES], char *const argv[])
{
	pid_t pid;
	int st, r;
	char line[512] = "";

	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	if ((r = posix_spawnp(&pid, "ip", NULL, NULL, argv, environ)) != 0) {
		snprintf(err, CFG_ERR_BYTES, "live ports: cannot run `%s`: %s (iproute2 installed?)", line,
			 strerror(r));
		return -EIO;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, CFG_ERR_BYTES, "live ports: `%s`: %s", line, strerror(errno));
			return -EIO;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, CFG_ERR_BYTES, "live ports: `%s` failed (%s %d)", line,
			 WIFEXITED(st) ? "exit status" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -EIO;
	}
	return 0;
}

int live_devices_make(const struct exp *e, char err[CFG_ERR_BYTES])
{
	for (uint32_t i = 0; i < e->live.n_ports; i++) {
		const struct exp_live_port *c = &e->live.ports[i];
		char *ifc = (char *)c->iface, *ns = (char *)c->netns, mtu[16];
		char *mk[] = { "ip", "link", "add", ifc, "type", "veth", "peer", "name", ifc, "netns", ns, NULL };
		char *up[] = { "ip", "link", "set", "dev", ifc, "mtu", mtu, "up", NULL };
		int r;

		if (c->driver != EXP_LIVE_VETH)
			continue;
		snprintf(mtu, sizeof(mtu), "%llu", (unsigned long long)e->live.mtu_bytes);
		/* (live_preflight made sure none was there before.) */
		if ((r = live_ip(err, mk)) != 0 || (r = live_ip(err, up)) != 0) {
			live_devices_remove(e);
			return r;
		}
	}
	return 0;
}

void live_devices_remove(const struct exp *e)
{
	char err[CFG_ERR_BYTES];

	for (uint32_t i = 0; i < e->live.n_ports; i++) {
		const struct exp_live_port *c = &e->live.ports[i];
		char path[64];
		struct stat st;
		char *del[] = { "ip", "link", "del", "dev", (char *)c->iface, NULL };

		snprintf(path, sizeof(path), "/sys/class/net/%s", c->iface);
		/* Both ends go with either. */
		if (c->driver == EXP_LIVE_VETH && stat(path, &st) == 0 && live_ip(err, del) != 0)
			fprintf(stderr, "fabemu: %s\n", err);
	}
}

/* A veth's end in namespace @ns hands its frames over with the transport
 * checksum left for a NIC to fill (and TCP segments merged for a NIC to
 * split), which the raw socket on the other end would pass on as they
 * are: a child process enters the namespace and turns those offloads off
 * on @ifc (ethtool's ioctl), as a NIC model that does neither needs. */
static int live_veth_offloads_off(const char *ns, const char *ifc, char err[CFG_ERR_BYTES])
{
	static const uint32_t cmds[] = { ETHTOOL_STXCSUM, ETHTOOL_STSO, ETHTOOL_SGSO };
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		snprintf(err, CFG_ERR_BYTES, "live ports: cannot fork: %s", strerror(errno));
		return -EIO;
	}
	if (pid == 0) {
		char path[128];
		struct ifreq ifr;
		int fd, s;

		snprintf(path, sizeof(path), LIVE_NETNS_DIR "/%s", ns);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || setns(fd, CLONE_NEWNET) != 0 ||
		    (s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
			_exit(1);
		for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			struct ethtool_value ev = { .cmd = cmds[i], .data = 0 };

			memset(&ifr, 0, sizeof(ifr));
			snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifc);
			ifr.ifr_data = (char *)&ev;
			if (ioctl(s, SIOCETHTOOL, &ifr) != 0 && cmds[i] == ETHTOOL_STXCSUM)
				_exit(2);
		}
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			break;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, CFG_ERR_BYTES,
			 "live ports: cannot turn off transmit checksum offload on %s in namespace %s", ifc, ns);
		return -EIO;
	}
	return 0;
}

int live_netns_setup(struct live_port *lp, char err[CFG_ERR_BYTES])
{
	const struct exp_live_port *c = lp->cfg;
	char *ifc = (char *)c->iface, *ns = (char *)c->netns, mac[18], addr[24], addr6[40], mtu[16];
	const uint8_t *m = lp->mac;
	int r;

	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	snprintf(addr, sizeof(addr), "%u.%u.%u.%u/8", lp->ip >> 24, (lp->ip >> 16) & 255,
		 (lp->ip >> 8) & 255, lp->ip & 255);
	snprintf(addr6, sizeof(addr6), "fd00:fab::%u.%u.%u.%u/96", lp->ip >> 24, (lp->ip >> 16) & 255,
		 (lp->ip >> 8) & 255, lp->ip & 255);
	snprintf(addr6, sizeof(addr6), "fd00:fab::%u.%u.%u.%u/96", lp->ip >> 24, (lp->ip >> 16) & 255,
		 (lp->ip >> 8) & 255, lp->ip & 255);
	snprintf(mtu, sizeof(mtu), "%llu", (unsigned long long)lp->l->e->live.mtu_bytes);
	/* No link-local IPv6 address (addrgenmode none: no router solicitations
	 * or multicast reports); the plan's IPv6 address at once (nodad). */
	char *mv[] = { "ip", "link", "set", "dev", ifc, "netns", ns, NULL };
	char *cf[] = { "ip", "-n", ns, "link", "set", "dev", ifc, "address", mac, "mtu", mtu,
		       "addrgenmode", "none", NULL };
	char *ad[] = { "ip", "-n", ns, "addr", "add", addr, "dev", ifc, NULL };
	char *ad6[] = { "ip", "-n", ns, "-6", "addr", "add", addr6, "dev", ifc, "nodad", NULL };
	char *up[] = { "ip", "-n", ns, "link", "set", "dev", ifc, "up", NULL };
	char *lo[] = { "ip", "-n", ns, "link", "set", "dev", "lo", "up", NULL };

	/* A veth's end is in the namespace already. */
	if ((c->driver == EXP_LIVE_TAP && (r = live_ip(err, mv)) != 0) || (r = live_ip(err, cf)) != 0 ||
	    (c->driver == EXP_LIVE_VETH && (r = live_veth_offloads_off(ns, ifc, err)) != 0) ||
	    (r = live_ip(err, ad)) != 0 || (r = live_ip(err, ad6)) != 0 ||
	    (r = live_ip(err, up)) != 0 || (r = live_ip(err, lo)) != 0)
		return r;
	return 0;
}
