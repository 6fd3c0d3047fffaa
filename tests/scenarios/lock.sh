#!/usr/bin/env bash
# A second run into a results folder in use is refused: exit status 2, a
# message naming the folder, and nothing there touched (the files of the
# run in progress keep their content and times). The run in progress is
# stood in for by flock(1) holding the folder's lock file, as fabemu does.
#   lock.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

d=$tmp/out
"$fabemu" run "$exp" -o "$d" -q
[ -e "$d/.fabemu.lock" ] || bad "no lock file in the folder"
before=$(cd "$d" && find . -type f -printf '%p %s %T@\n' | sort; cat summary.json | sha256sum)
rc=0
flock "$d/.fabemu.lock" "$fabemu" run "$exp" -o "$d" -q 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "second run: exit status $rc, not 2"
grep -q "^fabemu: $d: in use by another fabemu run" "$tmp/err" || bad "message: $(cat "$tmp/err")"
after=$(cd "$d" && find . -type f -printf '%p %s %T@\n' | sort; cat summary.json | sha256sum)
[ "$before" = "$after" ] || bad "the folder in use was touched"
# check refuses too, and says so in its JUnit report.
rc=0
flock "$d/.fabemu.lock" "$fabemu" check "$exp" -o "$d" -q --junit "$tmp/j.xml" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || bad "check into a folder in use: exit status $rc, not 2"
grep -q '<error type="folder_in_use" message="fabemu: ' "$tmp/j.xml" || bad "no JUnit error case"
# Once the lock is free, the folder is used again.
"$fabemu" run "$exp" -o "$d" -q || bad "run after the lock was released failed"
[ "$fail" -eq 0 ] && echo "lock: OK (a folder in use is refused with exit 2, untouched)"
exit "$fail"
