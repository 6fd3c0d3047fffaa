#!/usr/bin/env bash
# experiments/straggler.yaml with and without its straggler. Independent
# expectation (the step's critical path, the experiment's header): every
# step is longer by (1.5 - 1) x 2 ms = 1 ms within 2%, and without the
# straggler every step takes the compute plus the all-reduce alone. A
# slow NIC instead (node1/nic3 at 200 of 400 Gb/s, fabric.links): ring
# channel 3 crosses between the nodes there, at half the rate, and the
# instance waits for its slowest channel: every step is longer by the
# all-reduce's bandwidth term once more, 2(n - 1)/n x (S/8) / B =
# 1.875 x 8 MiB / 49.0187 GB/s = 320.9 us, within 3%.
#   straggler.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

# The experiment as shipped through check: its expect: list too (the test
# experiment-straggler is then in the release set only).
"$fabemu" check "$dir/straggler.yaml" -o "$tmp/slow" -q >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; bad "straggler: its expect list"; }
"$fabemu" run "$dir/straggler.yaml" -o "$tmp/even" -q --set 'traffic.0.stragglers=[]'
"$fabemu" run "$dir/straggler.yaml" -o "$tmp/ar" -q --set traffic.0.compute=0ns \
	--set 'traffic.0.stragglers=[]'
"$fabemu" run "$dir/straggler.yaml" -o "$tmp/nic" -q --set 'traffic.0.stragglers=[]' \
	--set 'fabric.links=[{ports: ["node1/nic3:0"], rate: 200Gbps}]'
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
tmp = sys.argv[1]
from scen import say, done
def times(run):
    return [float(r["time_us"]) for r in csv.DictReader(open("%s/%s/collectives.csv" % (tmp, run)))]
slow, even, ar = times("slow"), times("even"), times("ar")
say(len(slow) == len(even) == 3, "three steps each")
for i, (s, e) in enumerate(zip(slow, even)):
    say(abs((s - e) - 1000) <= 20, "step %d: %.1f us with the straggler, %.1f without: %.1f us longer (expected 1000)"
        % (i, s, e, s - e))
    say(abs(e - (2000 + ar[i])) <= 0.01 * e, "step %d without it: %.1f us = 2000 us of compute + %.1f us of all-reduce"
        % (i, e, ar[i]))
nic = times("nic")
bw = 1.875 * 8 * 2**20 / 49.0187e9 * 1e6
for i, (s, e) in enumerate(zip(nic, even)):
    say(abs((s - e) - bw) <= 0.03 * bw, "step %d: %.1f us with a 200G NIC, %.1f without: %.1f us longer (expected %.1f)"
        % (i, s, e, s - e, bw))
done()
PY
exit "$fail"
