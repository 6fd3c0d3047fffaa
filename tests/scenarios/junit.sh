#!/usr/bin/env bash
# `fabemu check` and its JUnit report on bad input: the expectations are
# validated before the simulation (an unknown metric on a run of minutes
# is refused at once, nothing simulated, no results written), bad input
# with --junit still writes a report with one error case whose message is
# the FILE:LINE:COL line, exit status 2; a --junit path that cannot be
# written is refused before anything runs, without leaving a file; a run's
# report holds the run's properties and each case's measured value; every
# report validates against junit.xsd (xmllint, when installed).
#   junit.sh FABEMU XSD
set -eu
fabemu=$1
xsd=${2:-$(dirname "$0")/junit.xsd}
. "$(dirname "$0")/lib.sh"
topo='topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 16,
  host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}'
traffic='traffic: [{kind: permutation, name: shuffle, size: 2GiB, op: write}]'

error_case() { # error_case JUNIT TYPE MESSAGE-REGEX
	grep -q '<testsuite name="[^"]*" tests="1" failures="0" errors="1">' "$1" || bad "$1: no one-error suite"
	grep -Eq "<error type=\"$2\" message=\"$3\"/>" "$1" || bad "$1: no error case of type $2 like '$3': $(cat "$1")"
}

# Unknown metric: refused before the run (seconds, not minutes).
printf '%s\n' "$topo" "$traffic" "expect: [{metric: drops.totl, op: '==', value: 0}]" >"$tmp/metric.yaml"
rc=0
timeout 60 "$fabemu" check "$tmp/metric.yaml" -o "$tmp/res" -q --junit "$tmp/m.xml" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "unknown metric: exit status $rc, not 2"
line="metric.yaml:4:[0-9]+: unknown metric 'drops.totl' \(did you mean 'drops.total'\?\) \(see docs/results.md\)"
grep -Eq "$line" "$tmp/err" || bad "unknown metric: stderr: $(cat "$tmp/err")"
error_case "$tmp/m.xml" bad_input ".*/$line"
[ ! -e "$tmp/res/summary.json" ] || bad "unknown metric: a summary.json was written"

# A broken experiment file.
printf '%s\n' "$topo" "$traffic" "stop_time: 10" >"$tmp/broken.yaml"
rc=0
"$fabemu" check "$tmp/broken.yaml" -o "$tmp/res2" -q --junit "$tmp/b.xml" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "broken file: exit status $rc, not 2"
error_case "$tmp/b.xml" bad_input "[^\"]*broken.yaml:4:[0-9]+: [^\"]+"
grep -Fq "$(sed -n 's/.*message="\([^"]*\)".*/\1/p' "$tmp/b.xml")" "$tmp/err" || bad "broken file: message is not stderr's line"

# A JUnit path that cannot be written: refused first, nothing left behind.
rc=0
"$fabemu" check "$tmp/metric.yaml" -o "$tmp/res3" -q --junit "$tmp/no/such/dir/j.xml" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "unwritable --junit: exit status $rc, not 2"
grep -q "j.xml: cannot write the JUnit report" "$tmp/err" || bad "unwritable --junit: stderr: $(cat "$tmp/err")"
[ ! -e "$tmp/res3" ] || bad "unwritable --junit: the results folder was created"
# A writable path that the check then fails to start: no report file is left
# by the probe (the error case is written, as above, by the failure itself).
rc=0
"$fabemu" check "$tmp/metric.yaml" -o "$tmp/res4" -q --junit "$tmp/ok.xml" --set nosuchkey=1 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || bad "--set nosuchkey: exit status $rc, not 2"
error_case "$tmp/ok.xml" bad_input "[^\"]+"
# A check that runs: one passing and one failing assertion. The report
# parses as XML, names the run (experiment, seed, version, commit as
# properties, a wall-clock time and an ISO 8601 timestamp), and every case
# holds the measured value and the bound; the failed one a failure whose
# message says both.
printf '%s\n' 'topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}' \
	'traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 64KiB}]}]' \
	"expect: [{metric: drops.total, op: '==', value: 0}, {metric: messages.completed, op: '>', value: 5}]" \
	>"$tmp/run.yaml"
rc=0
"$fabemu" check "$tmp/run.yaml" -o "$tmp/res5" -q --seed 7 --set nic.mtu=1024 --junit "$tmp/run.xml" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || bad "a failing assertion: exit status $rc, not 1"
python3 - "$tmp/run.xml" <<'PY' || fail=1
import re, sys
import xml.etree.ElementTree as ET
from scen import say, done
s = ET.parse(sys.argv[1]).getroot()
say(s.tag == "testsuite" and s.get("tests") == "2" and s.get("failures") == "1", "suite: 2 tests, 1 failure")
say(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", s.get("timestamp", "")) is not None and float(s.get("time")) >= 0,
    "suite: timestamp %s, time %s s" % (s.get("timestamp"), s.get("time")))
props = {p.get("name"): p.get("value") for p in s.iter("property")}
say(props.get("seed") == "7" and props.get("experiment", "").endswith("run.yaml") and props.get("commit") and props.get("fabemu_version"),
    "properties: %s" % props)
# Given as an absolute path outside the working folder: named by its file name.
say(props.get("experiment") == "run.yaml" and props.get("set") == "nic.mtu=1024",
    "the experiment named without its absolute path, the --set given: %s" % props)
cases = s.findall("testcase")
say(all("measured" in (c.findtext("system-out") or "") for c in cases), "every case holds its measured value")
failed = [c for c in cases if c.find("failure") is not None]
say(len(failed) == 1 and "measured 1" in failed[0].find("failure").get("message") and "> 5" in failed[0].find("failure").get("message"),
    "the failed case says the bound and the value: %s" % (failed[0].find("failure").get("message") if failed else None))
done()
PY
if command -v xmllint >/dev/null; then
	for x in m b ok run; do
		xmllint --noout --schema "$xsd" "$tmp/$x.xml" 2>"$tmp/xsd.err" ||
			bad "$x.xml does not validate against junit.xsd: $(cat "$tmp/xsd.err")"
	done
else
	echo "note: no xmllint (Debian libxml2-utils): XSD validation skipped"
fi
[ "$fail" -eq 0 ] && echo "junit: OK (expectations checked before the run; error cases on bad input)"
exit "$fail"
