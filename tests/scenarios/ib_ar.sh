#!/usr/bin/env bash
# InfiniBand routing on experiments/rail-ecmp-vs-ar.yaml (a non-blocking
# rail-optimised fabric, a cross-rail permutation, rail-aligned
# permutations), over 3 seeds, with fabric.link_layer=infiniband:
# - IB adaptive routing (per packet among the min-hop ports, by queue and
#   credits owed) within 10% of the analytic optimum on average (the
#   longest flow's ideal FCT on IB's framing: the fabric is non-blocking)
#   and within 20% on every seed, as adaptive routing on Ethernet is;
# - the subnet manager's static tables (minhop, and ftree's d-mod-k,
#   built for shift permutations, not random ones) route each destination
#   one way whatever the load: a random permutation collides, at least
#   1.5 x slower than adaptive on average;
# - lossless throughout: nothing dropped or incomplete, credits never
#   overrun.
#   ib_ar.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

for s in 1 2 3; do
	for p in adaptive:minhop ecmp:minhop ecmp:ftree; do
		"$fabemu" run "$dir/rail-ecmp-vs-ar.yaml" -o "$tmp/${p/:/-}-$s" -q --seed $s \
			--set fabric.link_layer=infiniband --set fabric.path.policy=${p%%:*} \
			--set fabric.ib.routing=${p##*:}
	done
done
python3 - "$tmp" <<'PY' || fail=1
import csv, json, sys
tmp = sys.argv[1]
from scen import say, done
ratio = {}
for p in ("adaptive-minhop", "ecmp-minhop", "ecmp-ftree"):
  for seed in (1, 2, 3):
    rows = list(csv.DictReader(open("%s/%s-%d/flows.csv" % (tmp, p, seed))))
    s = json.load(open("%s/%s-%d/summary.json" % (tmp, p, seed)))
    cross = [r for r in rows if r["workload"] == "cross"]
    step = max(float(r["end_ns"]) for r in cross)
    opt = max(float(r["ideal_fct_ns"]) for r in cross)
    ratio[p, seed] = step / opt
    good = (s["drops"]["total"] == 0 and s["messages"]["incomplete"] == 0 and
            s["credit"]["overruns"] == 0)
    say(good, "%s seed %d: cross step %.3f x the optimum; nothing dropped, incomplete or overrun"
        % (p, seed, step / opt))
ar = [ratio["adaptive-minhop", s] for s in (1, 2, 3)]
say(sum(ar) / 3 <= 1.10 and max(ar) <= 1.20,
    "IB adaptive routing: %.3f x the optimum on average, %.3f x at worst" % (sum(ar) / 3, max(ar)))
for p in ("ecmp-minhop", "ecmp-ftree"):
  st = [ratio[p, s] for s in (1, 2, 3)]
  say(sum(st) / 3 >= 1.5 * sum(ar) / 3,
      "%s static tables: %.2f x the optimum on average, at least 1.5 x adaptive's" % (p, sum(st) / 3))
done()
PY
exit "$fail"
