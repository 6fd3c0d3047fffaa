#!/usr/bin/env bash
# A run the simulator's own limits bent says so: a packet pool forced dry
# (`--set engine.packet_pool=1024` under a 32:1 incast that queues 8192
# packets) gives valid false with the reason, one WARNING line on stderr
# (also with -q), exit status 0 for run and 1 for check whatever the
# expectations say; the same run with the default pool is valid.
#   validity.sh FABEMU EXPERIMENT   (tests/scenarios/incast-wide.yaml)
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"

rc=0
"$fabemu" run "$exp" -o "$tmp/ok" -q 2>"$tmp/ok.err" || rc=$?
[ "$rc" -eq 0 ] || bad "default pool: exit status $rc"
[ "$(key "$tmp/ok/summary.json" valid)" = true ] || bad "default pool: not valid"
[ ! -s "$tmp/ok.err" ] || bad "default pool: stderr: $(cat "$tmp/ok.err")"

rc=0
"$fabemu" run "$exp" -o "$tmp/dry" -q --set engine.packet_pool=1024 2>"$tmp/dry.err" || rc=$?
s=$tmp/dry/summary.json
[ "$rc" -eq 0 ] || bad "dry pool: run exit status $rc, not 0"
[ "$(key "$s" valid)" = false ] || bad "dry pool: valid is not false"
[ "$(key "$s" nic.pool_exhausted)" -gt 0 ] || bad "dry pool: the pool did not run dry"
case "$(key "$s" invalid_reasons)" in "the packet pool ran dry"*"raise engine.packet_pool") ;;
	*) bad "dry pool: invalid_reasons '$(key "$s" invalid_reasons)'" ;; esac
[ "$(grep -c '^fabemu: WARNING: results not valid: the packet pool ran dry' "$tmp/dry.err")" -eq 1 ] ||
	bad "dry pool: not one WARNING line: $(cat "$tmp/dry.err")"

rc=0
"$fabemu" check "$exp" -o "$tmp/chk" -q --set engine.packet_pool=1024 --junit "$tmp/j.xml" \
	>"$tmp/out" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || bad "dry pool: check exit status $rc, not 1"
grep -q '^FAIL results not valid: the packet pool ran dry' "$tmp/out" || bad "check: no FAIL line"
grep -q '<testcase [^>]*name="results valid"><failure message="the packet pool ran dry' "$tmp/j.xml" ||
	bad "check: the JUnit report has no failed 'results valid' case"
grep -q 'failures="1"' "$tmp/j.xml" || bad "check: JUnit failures is not 1"
[ "$fail" -eq 0 ] && echo "validity: OK (pool forced dry: valid false, WARNING, run 0, check 1)"
exit "$fail"
