/* Live mode: host ports of a simulated fabric bound to DPDK ports (a TAP
 * in a network namespace, a raw socket on an interface), with the
 * simulation paced against the wall clock so that real endpoints exchange
 * real frames through the switch models.
 *
 * A live port takes the place of one host port's NIC: what the DPDK port
 * receives from the real endpoint is queued on that host port (and sent
 * over its link at the link's rate, paused by PFC like any port), and
 * what arrives at the host port over the link goes out of the DPDK port.
 * The port answers the endpoint's ARP requests for fabric addresses (a
 * routed fabric's first hop) and drops what the fabric cannot route. */
#ifndef FAB_LIVE_H
#define FAB_LIVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "exp.h"

struct fabric;
struct live;
struct results;

/* The EAL arguments that create @e's live ports (--vdev=..., -a PCI for a
 * pci port, and two log levels), appended to @argv (which has room for
 * @cap more: two per port and two) from *@argc on. Strings are malloc'd
 * (live_eal_args_free). 0, -ENOMEM or -E2BIG. */
int live_eal_args(const struct exp *e, char **argv, int *argc, int cap);
void live_eal_args_free(char **argv, int from, int to);
/* Whether @e's live ports need the EAL on hardware (sim_eal_start's hw):
 * a pci port. */
bool live_eal_hw(const struct exp *e);

/* Before the EAL starts: every live port's namespace exists, the program
 * may create TAPs (root or CAP_NET_ADMIN). 0, or -EINVAL (the file's fault,
 * with its place) or -EPERM with @err filled. */
int live_preflight(const struct exp *e, char err[CFG_ERR_BYTES]);

/* Make the veth pairs of @e's veth ports (after live_preflight, before
 * the EAL opens them), and remove them (at the end of the run, or when
 * making one failed; what is not there is skipped). 0 or -EIO with @err. */
int live_devices_make(const struct exp *e, char err[CFG_ERR_BYTES]);
void live_devices_remove(const struct exp *e);

/* Bind @f's live ports (after fabric_build, with the EAL started with
 * live_eal_args): the DPDK ports configured and started, moved into their
 * namespaces and addressed, their host ports taken from the NICs. *@out
 * is freed by live_free. 0, -EINVAL (bad input) or another -errno with
 * @err filled. */
int live_attach(struct fabric *f, struct live **out, char err[CFG_ERR_BYTES]);

/* Run @l's fabric in real time (times live.dilation) until stop_time of
 * simulated time, *@stop becomes non-zero (a signal, --max-wall) or the
 * clock sticks; prints a progress line every second unless @quiet. */
void live_run(struct live *l, const volatile sig_atomic_t *stop, bool quiet);

/* A few lines for the human summary. */
void live_print(const struct live *l, FILE *out);

/* The DPDK ports stopped and closed, @l freed (NULL is fine). */
void live_free(struct live *l);

#endif
