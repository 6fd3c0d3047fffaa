#!/usr/bin/env bash
# nightly: true and `fabemu check --skip-nightly`: the marked file is not
# run (a SKIP line, exit 0, no results folder), an unmarked one beside it
# is; without the flag the marked one runs and is checked; `run` ignores
# the mark. docs/user-guide.md, "check".
#   nightly.sh FABEMU NIGHTLY_YAML
set -eu
fabemu=$1
yaml=$2
. "$(dirname "$0")/lib.sh"
sed '/^nightly:/d; s/^name: .*/name: day-sample/' "$yaml" >"$tmp/day.yaml"
rc=0
"$fabemu" check "$yaml" --skip-nightly -o "$tmp/skip" >"$tmp/skip.txt" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || bad "--skip-nightly: exit $rc, not 0"
grep -q "^SKIP $yaml: nightly: true (--skip-nightly)$" "$tmp/skip.txt" || bad "--skip-nightly: no SKIP line: $(cat "$tmp/skip.txt")"
[ ! -e "$tmp/skip" ] || bad "--skip-nightly: wrote $tmp/skip"
rc=0
"$fabemu" check "$yaml" "$tmp/day.yaml" --skip-nightly -q -o "$tmp/both" >"$tmp/both.txt" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || bad "two files, --skip-nightly: exit $rc, not 0"
grep -q "^SKIP $yaml" "$tmp/both.txt" || bad "two files: no SKIP line"
[ -f "$tmp/both/summary.json" ] && [ "$(key "$tmp/both/summary.json" name)" = day-sample ] ||
	bad "two files: the unmarked file did not run alone into -o"
rc=0
"$fabemu" check "$yaml" -q -o "$tmp/full" >"$tmp/full.txt" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || bad "without --skip-nightly: exit $rc, not 0"
grep -q "^PASS messages.incomplete == 0" "$tmp/full.txt" || bad "without --skip-nightly: not checked"
[ -f "$tmp/full/summary.json" ] || bad "without --skip-nightly: no summary.json"
"$fabemu" run "$yaml" -q -o "$tmp/run" || bad "run of a nightly file failed"
rc=0
"$fabemu" run "$yaml" --skip-nightly -q -o "$tmp/run2" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || bad "run --skip-nightly: exit $rc, not 2 (a check option)"
[ "$fail" -eq 0 ] && echo "nightly: OK"
exit "$fail"
