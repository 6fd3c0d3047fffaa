#!/usr/bin/env bash
# experiments/uet-incast.yaml's other two sides (its trimming side asserts
# itself: experiment-uet-incast): the same 32:1 incast on Ultra Ethernet
# with the switch dropping instead of trimming, and with the data class
# lossless (PFC). Independent expectations (the file's capacity bound:
# 32 MiB in 4,218-byte frames through h0's 100 Gb/s link, 2,764.3 us):
# - both finish every message, no sooner than the bound and within 5%;
# - dropping: frames drop, no NACK comes (nothing is trimmed), and
#   timeouts recover the losses (at least one);
# - PFC: nothing drops or is trimmed, and h0's leaf pauses its senders;
# - ROD (fabric.uet.delivery: rod, one path): in order, so go-back-N: it
#   finishes within 10% of the bound, and resends more than RUD (each
#   trim or gap sends back every packet after it);
# - receiver credit (nic.cc: rccc): h0's pacer grants 0.99 of its line,
#   so it finishes no sooner than the bound and within 2% of it;
#   nothing drops; trims come only from the speculative start: at most
#   what 32 x 1.5 BDP (2 hops: 4 us of propagation and a 4,218-byte frame
#   and an 84-byte ACK per link at 100 Gb/s) puts past a 256 KiB queue, in
#   4,218-byte frames; no timeout.
# And tools/side-by-side.sh prints the three as a table with a column per
# run and a row per metric.
#   uet_incast.sh FABEMU EXPERIMENTS_DIR TOOLS_DIR
set -eu
fabemu=$1
dir=$2
tools=$3
. "$(dirname "$0")/lib.sh"

table=$(FABEMU=$fabemu "$tools/side-by-side.sh" "$dir/uet-incast.yaml" "$tmp" \
	last_completion_ns,messages.incomplete,drops.total,uet.trimmed,nic.naks_received,nic.timeouts,pfc.paused_ns_total \
	trim drop:fabric.uet.trim=false 'pfc:fabric.pfc={priorities: [3]}' \
	rod:fabric.uet.delivery=rod,fabric.uet.spray=off rccc:nic.cc=rccc) ||
	{ bad "a run failed"; exit 1; }
echo "$table"
for side in drop pfc; do
	s=$tmp/$side/summary.json
	check "$side: every message completes" "$(key "$s" messages.incomplete) == 0"
	check "$side: not before the link's bound" "$(key "$s" last_completion_ns) >= 2764300"
	check "$side: within 5% of it" "$(key "$s" last_completion_ns) <= 2902500"
done
d=$tmp/drop/summary.json
check "drop: frames dropped" "$(key "$d" drops.total) > 0"
check "drop: nothing trimmed, so no NACK" "$(key "$d" nic.naks_received) == 0"
check "drop: timeouts recover the losses" "$(key "$d" nic.timeouts) > 0"
p=$tmp/pfc/summary.json
check "pfc: nothing dropped" "$(key "$p" drops.total) == 0"
check "pfc: nothing trimmed" "$(key "$p" uet.trimmed) == 0"
check "pfc: senders paused" "$(key "$p" pfc.paused_ns_total) > 0"
r=$tmp/rod/summary.json
check "rod: every message completes" "$(key "$r" messages.incomplete) == 0"
check "rod: within 10% of the bound" \
	"$(key "$r" last_completion_ns) >= 2764300 && $(key "$r" last_completion_ns) <= 1.10 * 2764300"
check "rod: go-back-N resends more than RUD" \
	"$(key "$r" nic.retransmitted) > $(key "$tmp/trim/summary.json" nic.retransmitted)"
c=$tmp/rccc/summary.json
check "rccc: every message completes, nothing dropped, no timeout" \
	"$(key "$c" messages.incomplete) == 0 && $(key "$c" drops.total) == 0 && $(key "$c" nic.timeouts) == 0"
check "rccc: within 2% of the bound ($(key "$c" last_completion_ns) ns)" \
	"$(key "$c" last_completion_ns) >= 2764300 && $(key "$c" last_completion_ns) <= 1.02 * 2764300"
# 1.5 x BDP: 100 Gb/s x (4 us + 2 x (4218 + 84) x 8 / 100 Gb/s), bytes.
spec=$(python3 -c "print(int(32 * 1.5 * 12.5e9 * (4e-6 + 2 * (4218 + 84) * 8 / 100e9) - 256 * 1024) // 4218)")
check "rccc: trims only from the speculative start ($(key "$c" uet.trimmed), at most $spec)" \
	"$(key "$c" uet.trimmed) > 0 && $(key "$c" uet.trimmed) <= $spec"
check "the table has a row per metric and a column per run" \
	"$(echo "$table" | grep -c '^| `') == 7 && $(echo "$table" | head -1 | tr -cd '|' | wc -c) == 7"
exit $fail
