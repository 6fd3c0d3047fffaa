#!/usr/bin/env bash
# PFC on against PFC off, on the shipped experiments (same seed and traffic).
# Independent expectations:
# - incast-pfc: without PFC the 16:1 burst overflows the buffer, so frames
#   drop, go-back-N retransmits, and goodput into h0 falls below the
#   lossless run's.
# - pfc-victim: without PFC (lossy queues held to their dynamic threshold,
#   so the incast cannot take the victim's buffer) the victim's path has
#   spare capacity everywhere and it runs near line rate (>= 90% of the
#   98.04 Gb/s payload ceiling); with PFC it is paused by congestion it did
#   not cause and is slower.
#   pfc_compare.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/summary.sh"

"$fabemu" run "$dir/incast-pfc.yaml" -o "$tmp/on" -q
"$fabemu" run "$dir/incast-pfc.yaml" -o "$tmp/off" -q --set fabric.pfc.enabled=false
on_g=$(value "$tmp/on/summary.json" workloads.incast.goodput_gbps)
off_g=$(value "$tmp/off/summary.json" workloads.incast.goodput_gbps)
off_d=$(value "$tmp/off/summary.json" drops.total)
off_r=$(value "$tmp/off/summary.json" nic.retransmitted)
on_d=$(value "$tmp/on/summary.json" drops.total)
check "incast: PFC on drops nothing ($on_d)" "$on_d == 0"
check "incast: PFC off drops ($off_d)" "$off_d > 0"
check "incast: PFC off retransmits ($off_r)" "$off_r > 0"
check "incast: goodput off $off_g < on $on_g Gb/s" "$off_g < $on_g"

"$fabemu" run "$dir/pfc-victim.yaml" -o "$tmp/von" -q
"$fabemu" run "$dir/pfc-victim.yaml" -o "$tmp/voff" -q --set fabric.pfc.enabled=false \
	--set fabric.egress_alpha=1
von=$(value "$tmp/von/summary.json" workloads.victim.goodput_gbps)
voff=$(value "$tmp/voff/summary.json" workloads.victim.goodput_gbps)
check "victim without PFC near line rate: $voff >= 88.2 Gb/s" "$voff >= 88.2"
check "victim with PFC slower: $von < $voff Gb/s" "$von < $voff"
exit "$fail"
