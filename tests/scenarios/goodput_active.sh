#!/usr/bin/env bash
# goodput_gbps is over the active interval, from the first message's
# start to the last completion (traffic/tg_metrics.c): an ns-3 flow file
# (hpcc-flow) whose flows start at 2.0 s reports what its flows carried
# while they ran. Two flows on disjoint paths (h0 -> h1 on one leaf,
# h2 -> h3 on the other), 1 MB at 2.0 s and 0.5 MB at 2.000001 s.
# Expectations:
# - by hand from flows.csv: 1.5e6 B x 8 / (last end_ns - 2.0e9 ns), not
#   / last end_ns (about 6 Mb/s, the idle 2 s counted);
# - shifting every start by 2.0 s shifts the run and nothing else: the
#   same file at 0 s gives the same goodput_gbps (to 1e-9).
#   goodput_active.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

printf '%s\n' 2 "0 1 3 100 1000000 2.0" "2 3 3 100 500000 2.000001" >"$tmp/late.txt"
printf '%s\n' 2 "0 1 3 100 1000000 0" "2 3 3 100 500000 0.000001" >"$tmp/early.txt"
for w in late early; do
	printf '%s\n' "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}" \
		"traffic: [{kind: trace, file: $w.txt, format: hpcc-flow}]" >"$tmp/$w.yaml"
	"$fabemu" run "$tmp/$w.yaml" -o "$tmp/$w" -q
done
last=$(awk -F, 'NR > 1 && $6 > m { m = $6 } END { printf "%.3f", m }' "$tmp/late/flows.csv")
want=$(awk -v l="$last" 'BEGIN { printf "%.10g", 1.5e6 * 8 / (l - 2.0e9) }')
late=$(key "$tmp/late/summary.json" goodput_gbps)
early=$(key "$tmp/early/summary.json" goodput_gbps)
check "flows from 2.0 s: goodput $late Gb/s = 1.5 MB x 8 / ($last - 2e9) ns = $want" \
	"$late > 0 && ($late - $want) / $want < 1e-6 && ($want - $late) / $want < 1e-6"
check "shift invariance: $late Gb/s at 2.0 s = $early Gb/s at 0 s" \
	"($late - $early) / $early < 1e-9 && ($early - $late) / $early < 1e-9"
exit $fail
