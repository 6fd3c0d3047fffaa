#!/usr/bin/env bash
# experiments/flap-ecmp-vs-ar.yaml under adaptive routing and under ECMP,
# seeds 1..3 (the header states the expectation): everything completes
# both ways; the all-reduce is never faster than the capacity bound (its
# time without the flaps, run here, plus 250 us per down phase); and
# adaptive routing finishes at least 1.3x sooner than ECMP on every seed.
#   flap.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

for p in adaptive ecmp; do
	for s in 1 2 3; do
		"$fabemu" run "$dir/flap-ecmp-vs-ar.yaml" -o "$tmp/$p-$s" -q --seed $s --set fabric.path.policy=$p
	done
done
"$fabemu" run "$dir/flap-ecmp-vs-ar.yaml" -o "$tmp/none" -q --set faults.0.at=100s
python3 - "$tmp" <<'PY' || fail=1
import json, sys
from scen import say, done
tmp = sys.argv[1]
def s(run):
    return json.load(open("%s/%s/summary.json" % (tmp, run)))
none = s("none")["collectives"]["ar"]["time_us"]
bound = none + 5 * 250
for seed in (1, 2, 3):
    a, e = s("adaptive-%d" % seed), s("ecmp-%d" % seed)
    ta, te = a["collectives"]["ar"]["time_us"], e["collectives"]["ar"]["time_us"]
    for name, x, t in (("adaptive", a, ta), ("ecmp", e, te)):
        say(x["messages"]["incomplete"] == 0 and x["nic"]["qp_errors"] == 0 and t >= bound,
            "seed %d %s: %.0f us >= the bound %.0f us, all complete (%d frames lost, %d timeouts)" %
            (seed, name, t, bound, x["faults"]["frames_lost_link_down"], x["nic"]["timeouts"]))
    say(te >= 1.3 * ta, "seed %d: ecmp %.0f us = %.2f x adaptive's %.0f us (>= 1.3)" % (seed, te, te / ta, ta))
done()
PY
[ "$fail" = 0 ] && echo "flap: OK"
exit "$fail"
