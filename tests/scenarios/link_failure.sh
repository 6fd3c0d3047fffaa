#!/usr/bin/env bash
# experiments/link-failure.yaml three ways: as shipped (a spine link fails
# at 10 ms under adaptive routing), without the failure (the fault due
# after the traffic ends: not carried out), and under ECMP. Independent
# expectation: the capacity model of the experiment's header. Without
# the failure the all-reduce takes 2(n-1)/n S / 49.02 Gb/s = 38.33 ms
# (within 1%); with it, the part after 10 ms takes twice as long as
# without (half the uplink capacity: the ratio within 5% of 2); faults.csv
# shows the failure at 10 ms and the forwarding recomputed 100 us later,
# changing the 3 rows the topology implies;
# under ECMP the fabric keeps hashing flows onto the dead link until then,
# so it loses more frames than adaptive routing does, and still recovers.
#   link_failure.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" run "$dir/link-failure.yaml" -o "$tmp/fail" -q
"$fabemu" run "$dir/link-failure.yaml" -o "$tmp/none" -q --set faults.0.at=100s
"$fabemu" run "$dir/link-failure.yaml" -o "$tmp/ecmp" -q --set fabric.path.policy=ecmp
python3 - "$tmp" <<'PY' || fail=1
import csv, json, sys
from scen import say, done
tmp = sys.argv[1]
def summary(run):
    return json.load(open("%s/%s/summary.json" % (tmp, run)))
fail, none, ecmp = summary("fail"), summary("none"), summary("ecmp")
t_fail = fail["collectives"]["ar"]["time_us"]
t_none = none["collectives"]["ar"]["time_us"]
bits = 1.75 * 128 * 2 ** 20 * 8
rate = 50e9 * 4096 / 4178
model = bits / rate * 1e6
say(abs(t_none / model - 1) <= 0.01, "no failure: %.1f us, model %.1f us" % (t_none, model))
say(none["faults"]["actions"] == 0, "no failure: the fault due after the end was not carried out")
ratio = (t_fail - 10000) / (t_none - 10000)
say(abs(ratio / 2 - 1) <= 0.05, "after the failure the rest took %.3f x as long (half the capacity: 2)" % ratio)
rows = list(csv.DictReader(open("%s/fail/faults.csv" % tmp)))
say([(r["action"], float(r["time_us"])) for r in rows] == [("down", 10000.0), ("reroute", 10100.0)],
    "faults.csv: down at 10 ms, the forwarding recomputed at 10.1 ms (%s)" %
    ", ".join("%s %s" % (r["action"], r["time_us"]) for r in rows))
# Rerouted: leaf0's and leaf1's rows toward each other lose spine0, and
# spine0 reaches leaf0's hosts through leaf1 instead: 3 rows.
say(fail["faults"]["routes_changed"] == 3, "the recomputation changed 3 switch rows (%d)" % fail["faults"]["routes_changed"])
for name, s in (("adaptive", fail), ("ecmp", ecmp)):
    say(s["messages"]["incomplete"] == 0 and s["nic"]["qp_errors"] == 0,
        "%s: everything completes, no QP failed (%d frames lost, %d retransmitted)" %
        (name, s["faults"]["frames_lost_link_down"], s["nic"]["retransmitted"]))
say(ecmp["faults"]["frames_lost_link_down"] > fail["faults"]["frames_lost_link_down"],
    "ecmp loses more frames to the dead link than adaptive (%d > %d)" %
    (ecmp["faults"]["frames_lost_link_down"], fail["faults"]["frames_lost_link_down"]))
done()
PY
[ "$fail" = 0 ] && echo "link failure: OK"
exit "$fail"
