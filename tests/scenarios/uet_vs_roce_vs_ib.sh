#!/usr/bin/env bash
# experiments/uet-vs-roce-vs-ib.yaml on its three link layers through
# tools/uet-vs-roce-vs-ib.sh (its UET side asserts itself:
# experiment-uet-vs-roce-vs-ib). Independent expectations (the file's):
# every message completes and nothing drops on RoCE (PFC) or InfiniBand
# (credits); the all-reduce's bus bandwidth at most 8 x a rail NIC's
# payload rate on the layer's frames and within 10% of it (RoCE 400 Gb/s
# x 4096 / 4178 = 392.2 GB/s; IB 4096 / 4122: 397.5); RoCE pauses, IB's
# senders wait for credits, UET trims or pauses nothing here and marks;
# UET with receiver credit (uet-rccc) completes within the same 10% of
# UET's 388.4 GB/s (4096 / 4218 of the rail rate, x 8), nothing dropped,
# its receivers' pacers sending CREDITs; and the table has a column per
# layer and per Ultra Ethernet algorithm.
#   uet_vs_roce_vs_ib.sh FABEMU TOOLS_DIR
set -eu
fabemu=$1
tools=$2
. "$(dirname "$0")/lib.sh"

table=$(FABEMU=$fabemu "$tools/uet-vs-roce-vs-ib.sh" "$tmp" 2>/dev/null) || { bad "a run failed"; exit 1; }
echo "$table"
for side in uet uet-rccc roce infiniband; do
	s=$tmp/$side/summary.json
	check "$side: every message completes" "$(key "$s" messages.incomplete) == 0"
	check "$side: nothing dropped" "$(key "$s" drops.total) == 0"
done
r=$(key "$tmp/roce/summary.json" collectives.ar.busbw_GBps)
i=$(key "$tmp/infiniband/summary.json" collectives.ar.busbw_GBps)
check "roce: all-reduce busbw $r GB/s within 10% below 392.2" "$r <= 392.2 && $r >= 353.0"
check "infiniband: all-reduce busbw $i GB/s within 10% below 397.5" "$i <= 397.5 && $i >= 357.8"
check "roce: PFC paused senders" "$(key "$tmp/roce/summary.json" pfc.paused_ns_total) > 0"
check "infiniband: senders waited for credits" "$(key "$tmp/infiniband/summary.json" credit.starved_ns_total) > 0"
check "uet: ECN marked, nothing paused" \
	"$(key "$tmp/uet/summary.json" ecn.marked) > 0 && $(key "$tmp/uet/summary.json" pfc.paused_ns_total) == 0"
c=$(key "$tmp/uet-rccc/summary.json" collectives.ar.busbw_GBps)
check "uet-rccc: all-reduce busbw $c GB/s within 10% below 388.4, CREDITs sent" \
	"$c <= 388.4 && $c >= 349.6 && $(key "$tmp/uet-rccc/summary.json" uet.credits) > 0"
check "the table: the metric and a column per run" "$(echo "$table" | head -1 | tr -cd "|" | wc -c) == 6"
exit $fail
