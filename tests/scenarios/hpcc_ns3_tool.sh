#!/usr/bin/env bash
# tools/hpcc-ns3.py, the mapping of an HPCC ns-3 run onto a fabemu
# experiment. Independent expectation: the simulator's own files
# (tests/data/cc-ns3: its config of each of the four runs, the paper's
# topology file, its flow file): each config gives an experiment that
# fabemu loads (`fabemu topo`: 320 hosts) and whose resolved values are
# the config's (payload 1000 B, an ACK per packet, no timer, ECN per
# port rate as KMIN/KMAX/PMAX_MAP, T = the fabric's largest base RTT,
# third.cc's 2 x 6 us + 6 x 80 ns = 12.24 us); what fabemu cannot run is
# refused with CONFIG:LINE and exit 2 (a CC mode it does not have, a
# window on DCQCN, per-link loss, a link failure, a missing flow file).
#   hpcc_ns3_tool.sh FABEMU TOOLS_DIR DATA_DIR
set -eu
fabemu=$1
tools=$2
data=$3
. "$(dirname "$0")/lib.sh"
zcat "$data/ws_l30_t20ms.txt.gz" | head -51 | sed '1s/.*/50/' >"$tmp/flows.txt"
conv() { python3 "$tools/hpcc-ns3.py" "$@"; }
for cc in dcqcn hp95ai50 timely dctcp; do
	cfg=$data/config_fat_ws_l30_t20ms_$cc.txt
	if ! conv "$cfg" --topology "$data/fat.txt" --flows "$tmp/flows.txt" -o "$tmp/$cc.yaml"; then
		bad "$cc: conversion failed"
		continue
	fi
	"$fabemu" topo "$tmp/$cc.yaml" >"$tmp/$cc.topo" 2>&1 || bad "$cc: fabemu topo failed"
	grep -q '320 hosts' "$tmp/$cc.topo" || bad "$cc: not the 320-host fabric"
	if "$fabemu" run "$tmp/$cc.yaml" -o "$tmp/r-$cc" -q; then
		r=$tmp/r-$cc/resolved.yaml
		grep -q 'mtu: 1000' "$r" && grep -q 'ack_every: 1' "$r" && grep -q 'rto: off' "$r" &&
			grep -q 'cnp_interval: 0us' "$r" ||
			bad "$cc: payload, ACK interval, timer or CNP interval not the simulator's"
		n=$(key "$tmp/r-$cc/summary.json" messages.completed)
		check "$cc: all 50 flows complete" "$n == 50"
	else
		bad "$cc: fabemu run failed"
	fi
done
grep -q 'kmin: 400KB, kmax: 1600KB, pmax: 20%}, {rate: 400Gbps, kmin: 1600KB, kmax: 6400KB' \
	"$tmp/dcqcn.yaml" || bad "dcqcn: ECN thresholds per port rate not the config's maps"
grep -q 'kmin: 300KB, kmax: 300KB, pmax: 100%' "$tmp/dctcp.yaml" ||
	bad "dctcp: ECN threshold not the config's 300 KB"
grep -q 't: 12240ns' "$tmp/hp95ai50.yaml" || bad "hpcc: T is not the largest base RTT, 12.24 us"
grep -q 'int_record: compact' "$tmp/hp95ai50.yaml" && grep -q 'int_multi: 4' "$tmp/hp95ai50.yaml" ||
	bad "hpcc: INT is not the simulator's 8-byte record with INT_MULTI 4"
grep -q 'alpha_by_rate: \[{rate: 400Gbps, alpha: 50%}\]' "$tmp/dcqcn.yaml" ||
	bad "dcqcn: the 400G ports' PFC alpha is not 1/2 (shift 1)"
# Refusals: CONFIG:LINE: the key and why, exit 2.
refused() { # NAME REGEX CONVERSION-ARGS...: exit 2 and a message matching REGEX
	local name=$1 re=$2
	shift 2
	set +e
	msg=$(conv "$@" 2>&1)
	rc=$?
	set -e
	if [ "$rc" = 2 ] && echo "$msg" | grep -Eq "$re"; then
		echo "ok: refused $name: $msg"
	else
		bad "$name: exit $rc, '$msg'"
	fi
}
refuse() { # NAME SED-EXPRESSION REGEX: DCQCN's config edited by SED
	sed "$2" "$data/config_fat_ws_l30_t20ms_dcqcn.txt" >"$tmp/$1.txt"
	refused "$1" "$3" "$tmp/$1.txt" --topology "$data/fat.txt" --flows "$tmp/flows.txt" -o "$tmp/$1.yaml"
}
refuse cc-mode 's/^CC_MODE 1/CC_MODE 10/' '\.txt:[0-9]+: CC_MODE: mode 10 has no fabemu algorithm'
refuse dcqcn-window 's/^HAS_WIN 0/HAS_WIN 1/' '\.txt:[0-9]+: HAS_WIN: DCQCN with a window'
refuse link-loss 's/^ERROR_RATE_PER_LINK 0.0000/ERROR_RATE_PER_LINK 0.01/' '\.txt:[0-9]+: ERROR_RATE_PER_LINK: per-link loss'
refuse link-down 's/^LINK_DOWN 0 0 0/LINK_DOWN 2.1 1 320/' '\.txt:[0-9]+: LINK_DOWN: link failures'
refuse payload 's/^PACKET_PAYLOAD_SIZE 1000/PACKET_PAYLOAD_SIZE 9000/' '\.txt:[0-9]+: PACKET_PAYLOAD_SIZE: 9000 bytes'
refused missing-flow-file 'flow file .* not found' \
	"$data/config_fat_ws_l30_t20ms_dcqcn.txt" --topology "$data/fat.txt"
exit "$fail"
