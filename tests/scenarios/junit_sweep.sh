#!/usr/bin/env bash
# JUnit from `check --sweep --seeds --junit`, and check --seeds' exit
# status. One experiment (one 64 KiB or 4 KiB message, h0 to h1) with
# three assertions per run and one across seeds, swept over the message
# size (2 points) and seeds 1..3. Independent expectations:
# - counts: 2 points x 3 seeds x 3 assertions + 2 points x 1 across-seeds
#   assertion = 20 cases, the report's totals equal to the cases counted;
# - `bytes.delivered != 2048 x seed` fails exactly where the message's
#   size equals 2048 x seed: size 4KiB (4096 B) at seed 2, one case, named
#   by that point, with the measured value (4096) and the bound (4096);
# - every run's suite carries its seed, version, commit, the point's
#   --set and its results folder relative to -o (which exists there); the
#   across-seeds cases are one per point, named without a seed;
# - no absolute path anywhere in the report (-o and the file are given
#   absolute; the scratch folder's path must not appear);
# - the report validates against junit.xsd (xmllint) when xmllint is here;
# - exit status 0 when every run passed (also with SIGCHLD inherited as
#   ignored, which failed the sweep before: "cannot start a process"), 1
#   with the failing point, 2 for bad input (with an error case);
# - a run that left no report (the sweep stopped before it) is an error case.
#   junit_sweep.sh FABEMU XSD
set -eu
# Absolute: the checks run inside the scratch folder, with relative names.
fabemu=$(realpath "$1")
xsd=$(realpath "$2")
. "$(realpath "$(dirname "$0")")/lib.sh"
cd "$tmp"
cat >sw.yaml <<'EOF'
name: sweep-junit
topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}
traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 64KiB}]}]
expect:
  - {metric: drops.total, op: '==', value: 0}
  - {metric: bytes.delivered, op: '!=', value: 2048, of: seed}
  - {metric: messages.completed, op: '==', value: 1}
  - {metric: messages.completed, across_seeds: min, op: '>=', value: 1}
EOF
size=traffic.0.messages.0.size

valid() { # valid XML: against junit.xsd when xmllint is here
	if command -v xmllint >/dev/null; then
		xmllint --noout --schema "$xsd" "$1" 2>"$tmp/xsd.err" ||
			bad "$1 does not validate against junit.xsd: $(cat "$tmp/xsd.err")"
	else
		echo "note: no xmllint (Debian libxml2-utils): XSD validation skipped"
	fi
}

# The failing point: exit 1, 20 cases, one failure.
rc=0
"$fabemu" check "$tmp/sw.yaml" -o "$tmp/a" --sweep $size=4KiB,64KiB --seeds 1..3 -j 2 -q \
	--junit a.xml >a.out 2>a.err || rc=$?
[ "$rc" -eq 1 ] || bad "a failing point: exit $rc, not 1"
valid a.xml
if grep -q "$tmp" a.xml; then bad "a.xml names the scratch folder $tmp"; fi
ls -d a.xml.runs.* 2>/dev/null && bad "the runs' own reports were left behind"
python3 - a.xml "$size" <<'PY' || fail=1
import os, sys
import xml.etree.ElementTree as ET
from scen import say, done
root = ET.parse(sys.argv[1]).getroot()
size = sys.argv[2]
suites = root.findall("testsuite")
cases = list(root.iter("testcase"))
fails = [c for c in cases if c.find("failure") is not None]
errors = [c for c in cases if c.find("error") is not None]
say(root.tag == "testsuites", "root <testsuites>")
say(len(cases) == 2 * 3 * 3 + 2 * 1, "%d cases: 2 points x 3 seeds x 3 assertions + 2 across seeds" % len(cases))
say((root.get("tests"), root.get("failures"), root.get("errors")) == (str(len(cases)), str(len(fails)), str(len(errors))),
    "totals %s/%s/%s are the cases counted" % (root.get("tests"), root.get("failures"), root.get("errors")))
for s in suites:
    n = s.findall("testcase")
    say(s.get("tests") == str(len(n)) and s.get("failures") == str(sum(c.find("failure") is not None for c in n)),
        "suite %s: its counts" % s.get("name"))
want = "bytes.delivered != 2048 x seed [%s=4KiB,seed=2]" % size
say(len(fails) == 1 and fails[0].get("name") == want, "one failure, %r" % [c.get("name") for c in fails])
if fails:
    msg = fails[0].find("failure").get("message")
    say(msg == "FAIL bytes.delivered != 4096 (2048 x seed) measured 4096", "its bound and value: %s" % msg)
say(not errors, "no error case")
say(all(c.get("classname") == "sweep-junit" for c in cases), "classname: the experiment's name")
points = ["%s=%s" % (size, v) for v in ("4KiB", "64KiB")]
for p in points:
    for seed in (1, 2, 3):
        label = "%s,seed=%d" % (p, seed)
        s = [x for x in suites if x.get("name") == "sweep-junit [%s]" % label]
        say(len(s) == 1, "a suite for %s" % label)
        if not s:
            continue
        props = {}
        for q in s[0].iter("property"):
            props.setdefault(q.get("name"), []).append(q.get("value"))
        names = sorted(c.get("name") for c in s[0].findall("testcase"))
        say(names == sorted(["drops.total == 0 [%s]" % label, "bytes.delivered != 2048 x seed [%s]" % label,
                             "messages.completed == 1 [%s]" % label]), "%s: its three assertions" % label)
        say(props.get("seed") == [str(seed)] and props.get("set") == [p] and props.get("point") == [label]
            and props.get("commit") and props.get("fabemu_version") and props.get("experiment") == ["sw.yaml"],
            "%s: properties %s" % (label, props))
        res = props.get("results", [""])[0]
        say(res == "%s/seed=%d" % (p, seed) and os.path.isfile("a/%s/summary.json" % res),
            "%s: results folder %s, relative to -o" % (label, res))
        out = [c.findtext("system-out") or "" for c in s[0].findall("testcase")]
        say(all(" measured " in o for o in out), "%s: every case says its measured value" % label)
across = [c for c in cases if "across_seeds" in c.get("name")]
say(sorted(c.get("name") for c in across) == ["messages.completed across_seeds min >= 1 [%s]" % p for p in points],
    "across seeds: one case per point, no seed")
absolute = [(v.tag, x) for v in root.iter() for x in list(v.attrib.values()) + [v.text or ""]
            if x.startswith("/") or " /" in x]
say(not absolute, "no absolute path: %s" % absolute[:3])
done()
PY

# Every run passes (seeds 1 and 3 only): exit 0, 14 cases, no failure.
rc=0
"$fabemu" check sw.yaml -o b --sweep $size=4KiB,64KiB --seeds 1,3 -j 2 -q --junit b.xml >b.out 2>&1 || rc=$?
[ "$rc" -eq 0 ] || bad "every run passed: exit $rc, not 0: $(cat b.out)"
valid b.xml
grep -q '<testsuites name="fabemu check" tests="14" failures="0" errors="0">' b.xml || bad "b.xml: 14 tests, no failure"
# The same with SIGCHLD inherited as ignored (as some CI runners leave it).
rc=0
python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
os.execv(sys.argv[1], sys.argv[1:])' "$fabemu" check sw.yaml -o c --seeds 1,3 -q >c.out 2>&1 || rc=$?
[ "$rc" -eq 0 ] || bad "SIGCHLD ignored: exit $rc, not 0: $(cat c.out)"
grep -q '^2 of 2 runs passed' c.out || bad "SIGCHLD ignored: $(cat c.out)"

# Bad input: exit 2, a report of one error case.
rc=0
"$fabemu" check sw.yaml -o d --sweep nosuch.key=1,2 --seeds 1..3 -q --junit d.xml >/dev/null 2>d.err || rc=$?
[ "$rc" -eq 2 ] || bad "bad --sweep key: exit $rc, not 2"
valid d.xml
grep -q 'tests="1" failures="0" errors="1"' d.xml && grep -q '<error type="bad_input" message="[^"]*nosuch' d.xml ||
	bad "bad --sweep key: no error case: $(cat d.xml)"
# An unknown expect metric, found on the built fabric before any run:
# the error case holds stderr's line.
rc=0
"$fabemu" check sw.yaml -o d --seeds 1..3 -q --set expect.0.metric=drops.totl --junit d2.xml >/dev/null 2>d2.err || rc=$?
[ "$rc" -eq 2 ] || bad "unknown metric in a sweep: exit $rc, not 2"
valid d2.xml
grep -Fq -e "$(cat d2.err)\"/></testcase>" d2.xml || bad "unknown metric in a sweep: not stderr's line: $(cat d2.xml)"
[ ! -e d ] || bad "bad input: results written"
rc=0
"$fabemu" check sw.yaml -o d --seeds 5..1 -q >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "--seeds 5..1: exit $rc, not 2"

# A sweep stopped after its first run started: the runs it never started
# are error cases (not_run), named by their points.
cat >long.yaml <<'EOF'
name: long
topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 16,
  host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
traffic: [{kind: permutation, size: 2GiB, op: write}]
expect: [{metric: drops.total, op: '==', value: 0}]
EOF
"$fabemu" check long.yaml -o e --seeds 1..3 -j 1 -q --junit e.xml >e.out 2>&1 &
pid=$!
for _ in $(seq 300); do [ -s e/seed=1/fabemu.log ] && break; sleep 0.1; done
sleep 0.5
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 1 ] || bad "stopped sweep: exit $rc, not 1"
valid e.xml
for s in 2 3; do
	grep -q "name=\"fabemu check \\[seed=$s\\]\"><error type=\"not_run\" message=\"not_run: see seed=$s/fabemu.log\"/>" e.xml ||
		bad "seed $s not run: no error case: $(cat e.xml)"
done
[ "$fail" -eq 0 ] && echo "junit-sweep: OK (a case per assertion per point, counts, names, properties, exit statuses)"
exit "$fail"
