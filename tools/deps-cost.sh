#!/usr/bin/env bash
# What the dependency graph costs in hop rate: runs a collective
# experiment, rebuilds the same messages as plain `messages` workloads
# (each message posted at the time the graph posted it, one workload per
# channel so that the connections are the same ones), checks that both
# runs move the same packets to the same end, then times them in pairs,
# both at once on two pinned cores (swapping cores each round), and
# prints the hop rates and their ratio (graph / messages: 1 = free).
#
#   tools/deps-cost.sh FABEMU EXPERIMENT CHANNELS [ROUNDS]
#
# CHANNELS: the collective's channel count: its messages come channel by
# channel, in equal runs (true of ring and tree collectives of one size).
set -euo pipefail
fabemu=$1 exp=$2 channels=$3 rounds=${4:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$fabemu" run "$exp" -o "$tmp/g0" -q
python3 - "$exp" "$tmp" "$channels" <<'PY'
import csv, sys
exp, tmp, ch = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = list(csv.DictReader(open(tmp + "/g0/flows.csv")))
per = len(rows) // ch
assert per * ch == len(rows), "messages do not split into %d equal channels" % ch
head = []
for line in open(tmp + "/g0/resolved.yaml"):
    if line.startswith("traffic:"):
        break
    if not line.startswith("#"):
        head.append(line)
with open(tmp + "/m.yaml", "w") as f:
    f.writelines(head)
    f.write("traffic:\n")
    for c in range(ch):
        f.write("  - kind: messages\n    messages:\n")
        for r in rows[c * per:(c + 1) * per]:
            f.write("      - {src: %s, dst: %s, size: %sB, start: %sns, op: %s}\n"
                    % (r["src"], r["dst"], r["bytes"], r["start_ns"], r["op"]))
PY
"$fabemu" run "$tmp/m.yaml" -o "$tmp/m0" -q
val() { python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(v)' "$1" "$2"; }
for k in packet_hops messages.completed sim_time_ns; do
	a=$(val "$tmp/g0/summary.json" $k) b=$(val "$tmp/m0/summary.json" $k)
	echo "$k: graph $a, messages $b"
	# Same packets and messages; the end may move by the order of events
	# of one instant (within 0.1%).
	[ "$a" = "$b" ] || [ $k = sim_time_ns ] && awk "BEGIN { exit !(($a - $b)^2 <= (0.001 * $a)^2) }" ||
		{ echo "$0: the two runs differ in $k" >&2; exit 1; }
done
for i in $(seq "$rounds"); do
	c=$((i % 2))
	taskset -c $c "$fabemu" run "$exp" -o "$tmp/g" -q &
	pg=$!
	taskset -c $((1 - c)) "$fabemu" run "$tmp/m.yaml" -o "$tmp/m" -q &
	pm=$!
	wait $pg $pm
	g=$(val "$tmp/g/summary.json" wall_clock.packet_hops_per_s)
	m=$(val "$tmp/m/summary.json" wall_clock.packet_hops_per_s)
	echo "round $i: graph $(awk "BEGIN { printf \"%.3f\", $g / 1e6 }") M hops/s, messages $(awk "BEGIN { printf \"%.3f\", $m / 1e6 }") M hops/s, ratio $(awk "BEGIN { printf \"%.4f\", $g / $m }")"
done
