#!/usr/bin/env bash
# Sweeps and seeds: `fabemu run EXP --sweep K=V1,V2 --seeds 1..3 -j 2` runs
# every point into DIR/K=V/seed=N/; each point's results equal a run of
# that point alone (summary.json less wall_clock and provenance, flows.csv,
# ports.csv); sweep.csv has a row per point and seed; sweep_summary.csv's
# mean and 95% interval match a recomputation here (Student t, df 2 in
# closed form). Then check over a sweep with one failing point, and two
# experiment files into one -o.
#   sweep.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
exps=$2
. "$(dirname "$0")/lib.sh"
qs=$exps/quickstart.yaml

"$fabemu" run "$qs" -o "$tmp/sw" -q --set fabric.buffer=8MiB --sweep traffic.0.size=256KiB,1MiB \
	--seeds 1..3 -j 2 --metric messages.incomplete --metric flows.fct_ns.p99 --metric goodput_gbps ||
	bad "the sweep run failed"
for size in 256KiB 1MiB; do
	for seed in 1 2 3; do
		d="$tmp/sw/traffic.0.size=$size/seed=$seed"
		[ -f "$d/summary.json" ] || { bad "no $d/summary.json"; continue; }
		"$fabemu" run "$qs" -o "$tmp/alone" -q --seed "$seed" --set fabric.buffer=8MiB \
			--set traffic.0.size=$size || bad "the single run failed"
		python3 - "$d" "$tmp/alone" <<'PY' || bad "size=$size seed=$seed: differs from a run alone"
import json, sys
a, b = (json.load(open(d + "/summary.json")) for d in sys.argv[1:3])
for s in (a, b):
    s.pop("wall_clock"); s.pop("provenance")
assert a == b, "summary.json"
for f in ("flows.csv", "ports.csv", "resolved.yaml", "overrides.txt"):
    assert open(sys.argv[1] + "/" + f).read() == open(sys.argv[2] + "/" + f).read(), f
PY
		# byte-identical, not only equal as JSON
		cmp -s <(sed '/^  "provenance": {$/,$d' "$d/summary.json") \
			<(sed '/^  "provenance": {$/,$d' "$tmp/alone/summary.json") ||
			bad "size=$size seed=$seed: summary.json not byte-identical"
	done
done

python3 - "$tmp/sw" <<'PY' || fail=1
import csv, json, math, sys
from scen import say, done
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/sweep.csv")))
metrics = ["messages.incomplete", "flows.fct_ns.p99", "goodput_gbps"]
say(list(rows[0].keys()) == ["traffic.0.size", "seed", "status"] + metrics, "sweep.csv columns")
want = [(s, str(n)) for s in ("256KiB", "1MiB") for n in (1, 2, 3)]
say([(r["traffic.0.size"], r["seed"]) for r in rows] == want, "sweep.csv: a row per point and seed, in order")
say(all(r["status"] == "ok" for r in rows), "every run ok")
for r in rows:
    s = json.load(open("%s/traffic.0.size=%s/seed=%s/summary.json" % (d, r["traffic.0.size"], r["seed"])))
    for m in metrics:
        v = s
        for k in m.split("."):
            v = v[k]
        say(float(r[m]) == float(v), "sweep.csv %s seed %s %s = summary.json's" % (r["traffic.0.size"], r["seed"], m))
# Student t, df = 2: t(0.975) = (2p - 1) / sqrt(2 p (1 - p)), p = 0.975
p = 0.975
t2 = (2 * p - 1) / math.sqrt(2 * p * (1 - p))
summ = list(csv.DictReader(open(d + "/sweep_summary.csv")))
say(len(summ) == 2 * len(metrics), "sweep_summary.csv: a row per point and metric")
for row in summ:
    xs = [float(r[row["metric"]]) for r in rows if r["traffic.0.size"] == row["traffic.0.size"]]
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    h = t2 * sd / math.sqrt(n)
    close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))
    say(int(row["n"]) == 3 and close(float(row["mean"]), mean) and close(float(row["sd"]), sd)
        and close(float(row["ci95_low"]), mean - h) and close(float(row["ci95_high"]), mean + h),
        "%s %s: n 3, mean %.6g, 95%% CI [%.6g, %.6g]" % (row["traffic.0.size"], row["metric"], mean, mean - h, mean + h))
done()
PY

# check over a sweep: the point with expect.2.value=1 fails (slowdown is
# above 1), so check fails; its table and JUnit say which.
set +e
"$fabemu" check "$qs" -o "$tmp/ck" --sweep expect.2.value=4,1 -j 2 --junit "$tmp/ck.xml" >"$tmp/ck.out" 2>"$tmp/ck.err"
rc=$?
set -e
cat "$tmp/ck.out"
[ "$rc" -eq 1 ] || bad "check over a failing point: exit $rc, want 1"
grep -Eq '^expect.2.value=4 +1 +pass +3/3' "$tmp/ck.out" || bad "table: the passing point"
grep -Eq '^expect.2.value=1 +1 +fail +2/3' "$tmp/ck.out" || bad "table: the failing point"
grep -q '^1 of 2 runs passed' "$tmp/ck.out" || bad "check's count line"
# JUnit: a case per assertion per run (2 points x 3), the one failure
# named by its point.
grep -q '<testsuites name="fabemu check" tests="6" failures="1" errors="0">' "$tmp/ck.xml" ||
	bad "JUnit: 6 tests, 1 failure"
grep -q 'name="flows.slowdown.max &lt;= 1 \[expect.2.value=1,seed=1\]" time="0"><failure' "$tmp/ck.xml" ||
	bad "JUnit: the failure named by its point"
grep -q '^1,1,fail,' "$tmp/ck/sweep.csv" || bad "sweep.csv: the failing point's status"

# Two experiment files: each into its own folder under -o.
"$fabemu" run "$qs" "$exps/incast-taildrop.yaml" -o "$tmp/two" -q -j 2 || bad "two files"
for n in quickstart incast-taildrop; do
	[ -f "$tmp/two/$n/summary.json" ] || bad "no $tmp/two/$n/summary.json"
done
# The largest seeds: the range loop once wrapped past 2^64 - 1 and wrote
# past the seeds array (exit 139; issue 23).
"$fabemu" run "$qs" -o "$tmp/maxseed" -q --seeds 18446744073709551614..18446744073709551615 ||
	bad "--seeds at 2^64 - 1: exit $?"
n=$(find "$tmp/maxseed" -maxdepth 1 -name 'seed=*' | wc -l)
[ "$n" -eq 2 ] || bad "--seeds 2^64-2..2^64-1: $n seed folders, want 2"
[ "$fail" -eq 0 ] && echo "sweep: OK"
exit "$fail"
