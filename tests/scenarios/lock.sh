#!/usr/bin/env bash
# Results go only where the user pointed. A second run into a results
# folder in use is refused: exit status 2, a message naming the folder, and
# nothing there touched (the files of the run in progress keep their
# content and times). The run in progress is stood in for by flock(1)
# holding the folder's lock file, as fabemu does. A run removes an earlier
# run's files, and only those.
#   lock.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"

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
# Once the lock is free, the folder is used again: an earlier run's files
# that this one does not write are removed, the user's own are not.
mkdir -p "$d/capture"
touch "$d/capture/leaf9-p3.pcap" "$d/capture/mine.pcap" "$d/capture/notes.txt" "$d/keep.csv"
"$fabemu" run "$exp" -o "$d" -q || bad "run after the lock was released failed"
[ ! -e "$d/capture/leaf9-p3.pcap" ] || bad "a stale capture was left"
for f in capture/mine.pcap capture/notes.txt keep.csv; do
	[ -e "$d/$f" ] || bad "the user's $f was removed"
done
[ "$fail" -eq 0 ] && echo "lock: OK (a folder in use is refused with exit 2, untouched)"
exit "$fail"
