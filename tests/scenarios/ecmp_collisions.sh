#!/usr/bin/env bash
# ECMP collisions against balls into bins (experiments/ecmp-collisions.yaml:
# F = 8 equal flows from one leaf to another over P = 8 spines).
# Independent expectations:
# - Balls into bins (workloads-and-validation reference §5, "derived"):
#   each of the F x k QPs lands on one of the P uplinks uniformly, so over
#   many seeds (each re-seeds the switches' hash) (a) the number of QPs per
#   uplink follows Binomial(F k, 1/P) (chi-square test, 1% level), and (b)
#   the mean of the most loaded uplink's load, in flows, is E[max] of that
#   model within 3 standard errors, E[max] taken from a Monte Carlo of the
#   model here (whose 1/E[max] must match the reference table: 0.38, 0.48,
#   0.57, 0.65 for k = 1, 2, 4, 8, within 0.01).
# - The step is set by the most loaded uplink: every run's last completion
#   equals the no-collision step plus (max load - 1) x the wire time of
#   one flow, within 2% (store-and-forward arithmetic; nothing else is
#   shared).
# - Per packet (selective repeat tolerating reordering), on 5 seeds:
#   round-robin spraying and adaptive routing finish within 2% and 10% of
#   the no-collision step; random spraying within 20%: its 8 x 256 packets
#   land on the 8 uplinks as Binomial(2048, 1/8) counts, whose largest is
#   about 1.08 x the mean (mean + 1.42 sd, the expected maximum of 8
#   normals), and the queues' random walk idles some uplinks while others
#   hold a backlog, so a full-load step pays about 10-15% over the optimum
#   (it is at least its busiest uplink's time, also checked).
# SEEDS (default 40) is the number of draws per QP count: the default test
# set takes 10, the release set 40. The 3-standard-error band and the
# chi-square's critical value are computed from the draws, so with 10 the
# same tests hold with wider bounds (measured: k=8's mean max load 1.525
# flows against the model's 1.528, 3 SE = 0.156) and a hash that favours
# an uplink still fails them.
#   ecmp_collisions.sh FABEMU EXPERIMENTS_DIR [SEEDS]
set -eu
fabemu=$1
dir=$2
seeds=${3:-40}
. "$(dirname "$0")/lib.sh"

run() { # OUT SEED ARGS...: one run, quiet
	local out=$1 seed=$2
	shift 2
	"$fabemu" run "$dir/ecmp-collisions.yaml" -o "$out" -q --seed "$seed" "$@"
}
for k in 1 2 4 8; do
	for s in $(seq 1 "$seeds"); do
		run "$tmp/k$k-s$s" "$s" --set traffic.0.qps=$k --set traffic.0.messages.0.size=1MiB
	done
done
# The same step, per packet: spraying and adaptive routing on 5 seeds,
# the receivers tolerating reordering (docs/config.md, nic.sr_reorder).
for p in spray round-robin adaptive; do
	for s in 1 2 3 4 5; do
		run "$tmp/$p-s$s" "$s" --set fabric.path.policy=$p --set nic.recovery=selective-repeat \
			--set nic.sr_reorder=32 --set nic.bdp_fc=false
	done
done
python3 - "$tmp" "$seeds" <<'PY' || fail=1
import csv, math, random, sys
tmp, seeds = sys.argv[1], int(sys.argv[2])
F = P = 8
table = {1: 0.38, 2: 0.48, 4: 0.57, 8: 0.65}
from scen import say, done
def uplinks(d):
    rows = [r for r in csv.DictReader(open(d + "/ports.csv")) if r["node"] == "leaf0" and r["peer"].startswith("spine")]
    return [int(r["tx_bytes"]) for r in rows]
def step_ns(d):
    rows = list(csv.DictReader(open(d + "/flows.csv")))
    return max(float(r["end_ns"]) for r in rows), max(float(r["ideal_fct_ns"]) for r in rows)
rng = random.Random(12345)
for k in (1, 2, 4, 8):
    n = F * k
    # The model, by Monte Carlo: 50,000 draws.
    draws = 50000
    tot = 0.0
    for _ in range(draws):
        bins = [0] * P
        for _ in range(n):
            bins[rng.randrange(P)] += 1
        tot += max(bins) / k
    e_max = tot / draws
    say(abs(1 / e_max - table[k]) <= 0.01,
        "k=%d: the model's efficiency 1/E[max] = %.3f, reference table %.2f" % (k, 1 / e_max, table[k]))
    maxes, counts, worst = [], [0] * (n + 1), 0.0
    for s in range(1, seeds + 1):
        d = "%s/k%d-s%d" % (tmp, k, s)
        up = uplinks(d)
        flow_bytes = sum(up) / F
        loads = [b / flow_bytes for b in up]           # in flows
        qps = [round(l * k) for l in loads]            # QPs per uplink
        if any(abs(l * k - q) > 0.01 for l, q in zip(loads, qps)) or sum(qps) != n:
            say(False, "k=%d seed %d: uplink bytes are not whole QPs: %s" % (k, s, loads))
        for q in qps:
            counts[q] += 1
        m = max(loads)
        maxes.append(m)
        end, ideal = step_ns(d)
        wire_ns = flow_bytes * 8 / 100e9 * 1e9         # one flow at 100 Gb/s
        want = ideal + (m - 1) * wire_ns
        worst = max(worst, abs(end - want) / want)
    mean = sum(maxes) / seeds
    sd = math.sqrt(sum((x - mean) ** 2 for x in maxes) / (seeds - 1))
    se = max(sd / math.sqrt(seeds), 1e-9)
    say(abs(mean - e_max) <= 3 * se,
        "k=%d: mean max uplink load %.3f flows over %d seeds, model %.3f (3 SE = %.3f): efficiency %.3f"
        % (k, mean, seeds, e_max, 3 * se, 1 / mean))
    # Chi-square of QPs per uplink against Binomial(n, 1/P), cells pooled
    # until each expects at least 5.
    N = seeds * P
    exp = [N * math.comb(n, j) * (1 / P) ** j * (1 - 1 / P) ** (n - j) for j in range(n + 1)]
    cells, ce, co = [], 0.0, 0
    for j in range(n + 1):
        ce += exp[j]; co += counts[j]
        if ce >= 5:
            cells.append((co, ce)); ce, co = 0.0, 0
    if cells and ce > 0:
        o, e = cells[-1]; cells[-1] = (o + co, e + ce)
    chi = sum((o - e) ** 2 / e for o, e in cells)
    dof = len(cells) - 1
    # 1% critical value, Wilson-Hilferty approximation of the chi-square quantile
    z = 2.326
    crit = dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3
    say(chi <= crit, "k=%d: QPs per uplink fit Binomial(%d, 1/8): chi2 %.1f <= %.1f (%d dof)" % (k, n, chi, crit, dof))
    say(worst <= 0.02, "k=%d: every step = ideal + (max load - 1) x one flow's wire time, worst error %.2f%%" % (k, 100 * worst))
for p, bound in (("spray", 1.20), ("round-robin", 1.02), ("adaptive", 1.10)):
    worst, below = 0.0, 0
    for s in range(1, 6):
        d = "%s/%s-s%d" % (tmp, p, s)
        end, ideal = step_ns(d)
        worst = max(worst, end / ideal)
        up = uplinks(d)
        # at least the busiest uplink's wire time (4178 B frames carry
        # 4158 B of tx_bytes and 20 B of preamble and gap)
        below += end < max(up) * 4178 / 4158 * 8 / 100e9 * 1e9
    say(worst <= bound and below == 0,
        "%s: every step within %d%% of the no-collision step (worst %.3f x), none shorter than its busiest uplink"
        % (p, round(100 * (bound - 1)), worst))
done()
PY
exit "$fail"
