/* A live run's results (fabemu live, live/): the live.* metrics, from what
 * its loop and its ports measured (struct res_live). A simulated run has
 * none. */
#include <errno.h>

#include "results.h"

#define RL(f) offsetof(struct res_live, f)
#define RLP(f) offsetof(struct res_live_port, f)

static void res_live_mean(const void *stats, const struct metric_ctx *ctx, struct metric_val *v)
{
	const struct res_live *l = stats;

	(void)ctx;
	v->d = l->lag_frames ? (double)l->lag_sum_ps / (double)l->lag_frames * 1e-3 : 0.0;
}

static const struct metric res_live_rows[] = {
	{ .name = "live.wall_s", .unit = "s", .read = METRIC_ONE, .type = METRIC_DBL, .off = RL(wall_s),
	  .doc = "how long the paced loop ran" },
	{ .name = "live.work_s", .unit = "s", .read = METRIC_ONE, .type = METRIC_DBL, .off = RL(work_s),
	  .doc = "of it, the turns that handled an event or moved a frame" },
	{ .name = "live.dilation", .unit = "—", .read = METRIC_ONE, .type = METRIC_DBL,
	  .off = RL(dilation), .doc = "live.dilation: wall-clock seconds per simulated second" },
	METRIC_FIELD("live.loops", "—", METRIC_ONE, struct res_live, loops, "turns of the loop"),
	{ .name = "live.behind_max_ns", .unit = "ns", .read = METRIC_ONE, .type = METRIC_PS_NS,
	  .off = RL(behind_max_ps), .doc = "the most an event was handled after its time" },
	METRIC_FIELD("live.lag.frames", "—", METRIC_ONE, struct res_live, lag_frames,
		     "frames handed to endpoints whose lag was measured"),
	METRIC_FN("live.lag.mean_ns", "ns", METRIC_DBL, res_live_mean,
		  "mean lag, from a frame's arrival at the host port to its hand-over"),
	{ .name = "live.lag.max_ns", .unit = "ns", .read = METRIC_ONE, .type = METRIC_PS_NS,
	  .off = RL(lag_max_ps), .doc = "the largest lag" },
	METRIC_FIELD("live.lag.over_1us", "—", METRIC_ONE, struct res_live, lag_over[0],
		     "frames with lag over 1 us"),
	METRIC_FIELD("live.lag.over_10us", "—", METRIC_ONE, struct res_live, lag_over[1],
		     "frames with lag over 10 us"),
	METRIC_FIELD("live.lag.over_100us", "—", METRIC_ONE, struct res_live, lag_over[2],
		     "frames with lag over 100 us"),
	METRIC_FIELD("live.lag.over_1ms", "—", METRIC_ONE, struct res_live, lag_over[3],
		     "frames with lag over 1 ms"),
	METRIC_FIELD("live.lag.over_10ms", "—", METRIC_ONE, struct res_live, lag_over[4],
		     "frames with lag over 10 ms"),
	METRIC_FIELD("live.frames_late", "—", METRIC_ONE, struct res_live, frames_late,
		     "frames with lag over live.late"),
};
const struct metric_table res_metrics_live = METRIC_TABLE("live", res_live_rows);

#define RLP_ROW(nm, un, fld, dc) METRIC_FIELD("live.ports.NAME." nm, un, METRIC_ONE, struct res_live_port, fld, dc)
static const struct metric res_live_port_rows[] = {
	RLP_ROW("rx_frames", "—", rx_frames, "frames the DPDK port received from its endpoint"),
	RLP_ROW("rx_bytes", "bytes", rx_bytes, "their bytes, without FCS"),
	RLP_ROW("in_frames", "—", in_frames, "of them, IPv4 and IPv6 frames put into the fabric"),
	RLP_ROW("out_frames", "—", out_frames, "frames from the fabric handed to the DPDK port"),
	RLP_ROW("out_bytes", "bytes", out_bytes, "their bytes, without FCS"),
	RLP_ROW("arp_replies", "—", arp_replies, "ARP requests and IPv6 neighbour solicitations answered for fabric addresses"),
	RLP_ROW("arp_ignored", "—", arp_ignored, "other ARP and neighbour discovery frames"),
	RLP_ROW("drops_other", "—", drops_other, "frames neither ARP nor IP"),
	RLP_ROW("drops_not_fabric", "—", drops_not_fabric, "IP to an address outside the fabric"),
	RLP_ROW("drops_size", "—", drops_size, "frames longer than live.mtu allows, either way"),
	RLP_ROW("drops_queue", "—", drops_queue, "frames refused: live.queue full"),
	RLP_ROW("drops_pool", "—", drops_pool, "frames refused: the packet pool at its data limit"),
	RLP_ROW("drops_fault", "—", drops_fault, "frames a fault lost or corrupted on the link"),
	RLP_ROW("drops_tx", "—", drops_tx, "frames the DPDK port did not take"),
	RLP_ROW("pfc_sent", "—", pfc_sent, "802.1Qbb frames sent to the endpoint: its switch paused or resumed the host port"),
};
const struct metric_table res_metrics_live_port = METRIC_TABLE("live port", res_live_port_rows);

int res_live(struct results *r, const struct fabric *f)
{
	const struct res_live *l = f->live;

	if (!l)
		return 0;
	if (res_put_table(r, &res_metrics_live, NULL, l, NULL) != 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < l->n_ports; i++)
		if (res_put_table(r, &res_metrics_live_port, l->port_names[i], &l->ports[i], NULL) != 0)
			return -ENOMEM;
	return 0;
}
