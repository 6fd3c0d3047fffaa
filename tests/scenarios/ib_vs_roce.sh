#!/usr/bin/env bash
# InfiniBand against RoCE on the shipped comparison (tools/ib-vs-roce.sh on
# experiments/ib-vs-roce.yaml). Independent expectations:
# - Lossless on both: no drops, every message completes; credits on IB
#   (the invariant's violations 0), PFC on RoCE.
# - The all-reduce's bus bandwidth stays under each link layer's 8-rail
#   payload ceiling, 8 x 400 Gb/s x 4096 / W with W the wire bytes of a
#   4 KiB packet (4122 IB, 4178 RoCE): 397.52 and 392.15 GB/s, within 10%
#   of it; and IB is ahead by the headers: the ratio IB / RoCE at least
#   1.005 and at most 4178 / 4122 = 1.0136 (+0.5%).
# - Both fabrics hold senders back during the incast: RoCE pauses
#   (pfc.paused_ns_total > 0), IB starves VLs of credits
#   (credit.starved_ns_total > 0).
# - Credits bound a switch's buffer: IB's peak buffer use is at most the
#   largest sum of VL buffers a switch grants (credit.granted_bytes_max);
#   PFC's shared pool has no such bound and RoCE's peak is above it.
# - The side-by-side table has both sides' rows.
# - With real payload and a GRH, the receiving NICs' ICRC and VCRC checks
#   pass on every packet although switches marked FECN on the way.
#   ib_vs_roce.sh FABEMU SOURCE_ROOT
set -eu
fabemu=$(realpath "$1")
root=$2
. "$(dirname "$0")/lib.sh"

FABEMU=$fabemu "$root/tools/ib-vs-roce.sh" "$tmp/out" >"$tmp/table.txt"
cat "$tmp/table.txt"
ib=$tmp/out/infiniband/summary.json
ro=$tmp/out/roce/summary.json
for s in ib ro; do
	f=${!s}
	check "$s: no drops" "$(key "$f" drops.total) == 0"
	check "$s: every message completes" "$(key "$f" messages.incomplete) == 0"
done
bi=$(key "$ib" collectives.ar.busbw_GBps)
br=$(key "$ro" collectives.ar.busbw_GBps)
check "IB busbw $bi within 10% under 397.52 GB/s" "$bi <= 397.52 && $bi >= 357.77"
check "RoCE busbw $br within 10% under 392.15 GB/s" "$br <= 392.15 && $br >= 352.94"
check "IB ahead by the headers: $bi / $br in [1.005, 1.0187]" \
	"$bi / $br >= 1.005 && $bi / $br <= 1.0136 * 1.005"
check "IB credit invariant holds" "$(key "$ib" credit.overruns) == 0"
check "IB VLs starved of credits during the incast" "$(key "$ib" credit.starved_ns_total) > 0"
check "RoCE paused by PFC during the incast" "$(key "$ro" pfc.paused_ns_total) > 0"
gi=$(key "$ib" credit.granted_bytes_max)
qi=$(key "$ib" switch.buffer_peak_bytes)
qr=$(key "$ro" switch.buffer_peak_bytes)
check "IB peak buffer $qi <= granted $gi" "$qi <= $gi"
check "RoCE peak buffer $qr above that bound" "$qr > $gi"
# The CRCs through the fabric: with real payload (and a GRH) every
# packet's ICRC and VCRC are recomputed from scratch by the receiving NIC,
# so FECN marks (which switches set and patch the VCRC for, incrementally)
# must leave both right: no packet refused, every message complete.
"$fabemu" run "$root/experiments/ib-vs-roce.yaml" -o "$tmp/payload" -q --set nic.payload=true \
	--set fabric.ib.grh=true
p=$tmp/payload/summary.json
check "with payload: FECN marks set ($(key "$p" fecn.marked))" "$(key "$p" fecn.marked) > 0"
check "with payload: no ICRC or VCRC error" "$(key "$p" nic.icrc_errors) == 0"
check "with payload: every message completes" "$(key "$p" messages.incomplete) == 0"
for m in pfc.paused_ns_total credit.starved_ns_total collectives.ar.busbw_GBps flows.slowdown.p99; do
	grep -q "^$m " "$tmp/table.txt" || bad "the table has no row $m"
done
exit "$fail"
