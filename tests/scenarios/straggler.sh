#!/usr/bin/env bash
# experiments/straggler.yaml with and without its straggler. Independent
# expectation (the step's critical path, the experiment's header): every
# step is longer by (1.5 - 1) x 2 ms = 1 ms within 2%, and without the
# straggler every step takes the compute plus the all-reduce alone.
#   straggler.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" run "$dir/straggler.yaml" -o "$tmp/slow" -q
"$fabemu" run "$dir/straggler.yaml" -o "$tmp/even" -q --set 'traffic.0.stragglers=[]'
"$fabemu" run "$dir/straggler.yaml" -o "$tmp/ar" -q --set traffic.0.compute=0ns \
	--set 'traffic.0.stragglers=[]'
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
tmp = sys.argv[1]
ok = True
def say(good, text):
    global ok
    print(("ok: " if good else "FAIL: ") + text)
    ok = ok and good
def times(run):
    return [float(r["time_us"]) for r in csv.DictReader(open("%s/%s/collectives.csv" % (tmp, run)))]
slow, even, ar = times("slow"), times("even"), times("ar")
say(len(slow) == len(even) == 3, "three steps each")
for i, (s, e) in enumerate(zip(slow, even)):
    say(abs((s - e) - 1000) <= 20, "step %d: %.1f us with the straggler, %.1f without: %.1f us longer (expected 1000)"
        % (i, s, e, s - e))
    say(abs(e - (2000 + ar[i])) <= 0.01 * e, "step %d without it: %.1f us = 2000 us of compute + %.1f us of all-reduce"
        % (i, e, ar[i]))
sys.exit(0 if ok else 1)
PY
exit "$fail"
