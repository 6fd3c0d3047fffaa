#!/usr/bin/env bash
# experiments/fat-tree-spray.yaml (k = 8 fat-tree, Stride(64): every flow
# crosses the bisection) under four path-choice policies. The throughput
# across the cut, each way, is the payload of the 64 flows crossing it that
# way over the step; the bisection is what `fabemu topo` reports (its
# closed form for fat-trees: 64 x 100 Gb/s). Independent expectations:
# - round-robin spraying and adaptive routing: at least 90% of the
#   bisection (the experiment's header derives it);
# - random spraying: at least 80%: per-packet random choices at full load
#   leave some links with more than their share at times (binomial counts,
#   as experiments/ecmp-collisions.yaml's header works out for 8 links:
#   about 10-15% over the optimum);
# - ECMP: under half of round-robin's: flows hash-collide at the edges,
#   aggregations and cores (balls into bins), each collision halving a
#   flow's rate or worse.
#   fat_tree_spray.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
exp=$2/fat-tree-spray.yaml
. "$(dirname "$0")/lib.sh"

bis=$("$fabemu" topo "$exp" | sed -n 's/^bisection bandwidth: \([0-9.]*\)Tbps.*/\1/p')
check "fabemu topo: bisection $bis Tb/s = 64 x 100 Gb/s" "$bis == 6.4"
frac() { # DIR: crossing throughput each way over the bisection
	python3 - "$1" "$bis" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/flows.csv")))
step_ns = max(float(r["end_ns"]) for r in rows)
each_way = sum(int(r["bytes"]) for r in rows) / 2 * 8 / step_ns  # Gb/s
print("%.4f" % (each_way / (float(sys.argv[2]) * 1e3)))
PY
}
for p in round-robin adaptive spray ecmp; do
	"$fabemu" run "$exp" -o "$tmp/$p" -q --set fabric.path.policy=$p
	eval "f_${p//-/_}=$(frac "$tmp/$p")"
done
check "round-robin: $f_round_robin of the bisection >= 0.90" "$f_round_robin >= 0.90"
check "adaptive: $f_adaptive of the bisection >= 0.90" "$f_adaptive >= 0.90"
check "random spray: $f_spray of the bisection >= 0.80" "$f_spray >= 0.80"
check "ecmp: $f_ecmp of the bisection < half of round-robin's $f_round_robin" "$f_ecmp < 0.5 * $f_round_robin"
exit "$fail"
