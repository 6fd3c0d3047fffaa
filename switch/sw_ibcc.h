/* InfiniBand congestion control at a switch, the congestion point of IBTA
 * Vol 1 Annex A10 (SwitchCongestionSetting: Threshold, Marking_Rate,
 * Packet_Size, Victim_Mask; OpenSM's cc_sw_cong_setting_* options): which
 * packets leaving a congested egress port/VL get FECN. The math, apart
 * from the switch glue (sw_ibcc.c), as sw_red.h is for RED. Pure
 * functions. docs/config.md (fabric.ib_cc) gives the definitions. */
#ifndef FAB_SW_IBCC_H
#define FAB_SW_IBCC_H

#include <stdbool.h>
#include <stdint.h>

#include "pkt_ib.h"

enum {
	SW_IBCC_THRESHOLD_MAX = 15, /* Threshold is 4 bits: 0 off, 1 loose .. 15 aggressive */
	SW_IBCC_THRESHOLD_STEPS = 16, /* threshold t marks above (16 - t) / 16 of vl_buffer */
	SW_IBCC_MAX_PORTS = 256,    /* Victim_Mask is 256 bits, one per port */
};

/* fabric.ib_cc: the settings of every switch (threshold 0: no marking). */
struct sw_ibcc_params {
	uint64_t vl_buffer_bytes;   /* the reference the threshold scales: a port/VL's buffer */
	uint64_t threshold_bytes;   /* a port/VL is congested with more than this queued
				     * (sw_ibcc_threshold_bytes; UINT64_MAX with threshold 0) */
	uint64_t victim_mask[SW_IBCC_MAX_PORTS / 64]; /* ports that mark also while only
				     * victims (bit i: port i) */
	uint16_t marking_rate;      /* Marking_Rate: eligible packets left unmarked after
				     * each mark (0: mark every eligible packet) */
	uint8_t threshold;          /* Threshold, 0..15 */
	uint8_t packet_size_blocks; /* Packet_Size: packets of fewer 64-byte blocks (credits)
				     * are never marked */
};

/* The queue a port/VL holds above which it is congested at @threshold
 * (0..15) with a VL buffer of @vl_buffer_bytes: vl_buffer * (16 - t) / 16,
 * so 1 marks above 15/16 of the buffer and 15 above 1/16 of it; 0 never. */
static inline uint64_t sw_ibcc_threshold_bytes(uint8_t threshold, uint64_t vl_buffer_bytes)
{
	if (threshold == 0)
		return UINT64_MAX;
	return vl_buffer_bytes * (uint64_t)(SW_IBCC_THRESHOLD_STEPS - threshold) /
	       SW_IBCC_THRESHOLD_STEPS;
}

/* Is a packet of @frame_bytes on data VL @vl of egress port @port, with
 * @q_bytes queued on that VL, eligible for a mark? Only when marking is on,
 * the VL carries data (not VL15), the packet is at least Packet_Size
 * blocks, the VL is congested, and the port is a root of congestion
 * (@starved false) or marks as a victim too (its Victim_Mask bit). */
static inline bool sw_ibcc_eligible(const struct sw_ibcc_params *c, uint16_t port, uint8_t vl,
				    uint32_t frame_bytes, uint64_t q_bytes, bool starved)
{
	if (c->threshold == 0 || vl >= PKT_IB_VL15 || q_bytes <= c->threshold_bytes ||
	    pkt_ib_blocks(frame_bytes) < c->packet_size_blocks)
		return false;
	return !starved ||
	       (port < SW_IBCC_MAX_PORTS && (c->victim_mask[port / 64] >> (port % 64) & 1));
}

/* Marking_Rate's spacing on one port/VL whose count of packets still to
 * skip is @skip: the first eligible packet is marked, then @rate are
 * skipped, so exactly every (rate + 1)-th eligible packet is marked.
 * Returns whether this eligible packet gets the mark. */
static inline bool sw_ibcc_take(uint16_t *skip, uint16_t rate)
{
	if (*skip) {
		(*skip)--;
		return false;
	}
	*skip = rate;
	return true;
}

#endif
