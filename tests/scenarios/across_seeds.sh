#!/usr/bin/env bash
# Assertions across seeds (expect: across_seeds): `check --seeds 1..5` of
# across-seeds.yaml (quickstart's fabric). Independent expectation: each
# statistic (mean, min, max, median, nearest-rank pN) recomputed here in
# Python from the five runs' summary.json files, compared with the value
# check printed; the bound chosen to fail makes check exit 1 with the
# others passing; the runs themselves skip these assertions (their logs
# show only the per-run one); the JUnit report has a test case per
# assertion; a single run (no --seeds) takes its own value.
#   across_seeds.sh FABEMU YAML
set -eu
fabemu=$1
yaml=$2
. "$(dirname "$0")/lib.sh"
rc=0
"$fabemu" check "$yaml" --seeds 1..5 -j 2 -o "$tmp/r" --junit "$tmp/j.xml" >"$tmp/out.txt" || rc=$?
[ "$rc" -eq 1 ] || bad "exit $rc, not 1 (one assertion across seeds fails)"
rc=0
"$fabemu" check "$yaml" -q -o "$tmp/one" >"$tmp/one.txt" || rc=$?
[ "$rc" -eq 1 ] || bad "single run: exit $rc, not 1"
python3 - "$tmp" <<'PY' || fail=1
import json, math, re, sys
import xml.etree.ElementTree as ET
from scen import say, done
tmp = sys.argv[1]

def get(doc, name):
    for k in name.split("."):
        doc = doc[k]
    return float(doc)

def stat(name, xs):
    xs = sorted(xs)
    if name == "mean":
        return sum(xs) / len(xs)
    if name == "min":
        return xs[0]
    if name == "max":
        return xs[-1]
    p = 50.0 if name == "median" else float(name[1:])
    return xs[max(1, math.ceil(p * len(xs) / 100)) - 1]

docs = [json.load(open("%s/r/seed=%d/summary.json" % (tmp, s))) for s in range(1, 6)]
say(all(d["seed"] == s for d, s in zip(docs, range(1, 6))), "five runs, seeds 1..5")
want = [("flows.fct_ns.p99", "p90", "<=", 800000), ("flows.fct_ns.p99", "mean", "<=", 800000),
        ("goodput_gbps", "min", ">", 1), ("goodput_gbps", "max", "<", 100000),
        ("flows.slowdown.p99", "median", "<=", 100), ("flows.fct_ns.p99", "p40", ">=", 0),
        ("flows.fct_ns.p99", "p90", "<=", 1)]
ops = {"<=": lambda m, v: m <= v, ">": lambda m, v: m > v, "<": lambda m, v: m < v,
       ">=": lambda m, v: m >= v}
pat = re.compile(r"^(PASS|FAIL) (\S+) across_seeds (\S+) (\S+) (\S+) measured (\S+) \(5 seeds\)$")
lines = [l.rstrip("\n") for l in open("%s/out.txt" % tmp) if pat.match(l)]
say(len(lines) == len(want), "%d verdict lines across seeds (want %d)" % (len(lines), len(want)))
distinct = set()
for line, (metric, st, op, value) in zip(lines, want):
    g = pat.match(line).groups()
    xs = [get(d, metric) for d in docs]
    m = stat(st, xs)
    distinct.add((metric, m))
    verdict = "PASS" if ops[op](m, value) else "FAIL"
    say(g[1:5] == (metric, st, op, "%g" % value), "%s: names its metric, statistic and bound" % line)
    say(abs(float(g[5]) - m) <= 1e-9 * max(1, abs(m)), "%s %s of %s = %.10g (from %s)" % (metric, st, [str(x) for x in xs], m, g[5]))
    say(g[0] == verdict, "%s %s %s %g: %s" % (metric, st, op, value, verdict))
say(lines and lines[-1].startswith("FAIL"), "the bound chosen to fail fails")
say(sum(l.startswith("PASS") for l in lines) == 6, "the six others pass")
out = open("%s/out.txt" % tmp).read()
say("6 of 7 assertions across seeds held" in out, "the count line")
say("5 of 5 runs passed" in out, "every run passes: the runs leave these to the sweep")
for s in range(1, 6):
    log = open("%s/r/seed=%d/fabemu.log" % (tmp, s)).read()
    say("across_seeds" not in log and "1 passed, 0 failed" in log, "seed %d's run judged only its own assertion" % s)
cases = list(ET.parse("%s/j.xml" % tmp).getroot().iter("testcase"))
across = [c for c in cases if "across_seeds" in c.get("name")]
say(len(cases) == 12 and len(across) == 7, "JUnit: each of 5 runs' one assertion and 7 assertions across seeds")
say([c.find("failure") is not None for c in across] == [False] * 6 + [True], "JUnit: only the last one failed")
one = json.load(open("%s/one/summary.json" % tmp))
lines1 = [l for l in open("%s/one.txt" % tmp) if "across_seeds" in l]
say(len(lines1) == 7 and all(l.rstrip().endswith("(1 run)") for l in lines1), "single run: 7 lines over 1 run")
for line, (metric, st, op, value) in zip(lines1, want):
    m = float(line.split(" measured ")[1].split()[0])
    say(m == get(one, metric), "single run: %s %s is the run's value %s" % (metric, st, m))
done()
PY
exit "$fail"
