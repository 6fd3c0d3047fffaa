#!/usr/bin/env bash
# A run that can never end on its own ends all the same, says why, is not
# valid and exits 1 (docs/config.md, engine.no_progress): the PFC deadlock
# of experiments/pfc-deadlock.yaml with its detector off, whose pauses are
# refreshed forever. Also: with the detector off as well, --max-wall still
# ends it; and a series output budget reached makes the run not valid.
#   no_progress.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
exps=$2
. "$(dirname "$0")/lib.sh"

rc=0
timeout 120 "$fabemu" run "$exps/pfc-deadlock.yaml" -o "$tmp/dl" -q \
	--set fabric.pfc.deadlock_check=0s 2>"$tmp/dl.err" || rc=$?
s=$tmp/dl/summary.json
[ "$rc" -eq 1 ] || bad "deadlock, detection off: exit status $rc, not 1"
[ "$(key "$s" valid)" = false ] || bad "deadlock, detection off: valid is not false"
case "$(key "$s" invalid_reasons)" in "stopped for lack of progress at "*"engine.no_progress 1000000000.000 ns"*) ;;
	*) bad "deadlock: invalid_reasons '$(key "$s" invalid_reasons)'" ;; esac
grep -q '^fabemu: WARNING: results not valid: stopped for lack of progress' "$tmp/dl.err" ||
	bad "deadlock: no WARNING line: $(cat "$tmp/dl.err")"
[ "$(key "$s" messages.incomplete)" -eq 5 ] || bad "deadlock: messages.incomplete is not 5"

# A shorter span stops it sooner (in virtual time).
rc=0
"$fabemu" run "$exps/pfc-deadlock.yaml" -o "$tmp/dl2" -q --set fabric.pfc.deadlock_check=0s \
	--set engine.no_progress=10ms 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || bad "no_progress 10ms: exit status $rc, not 1"
check "no_progress 10ms stops before 1s does" \
	"$(key "$tmp/dl2/summary.json" sim_time_ns) < $(key "$s" sim_time_ns)"

# Off: only the wall clock ends it.
rc=0
"$fabemu" run "$exps/pfc-deadlock.yaml" -o "$tmp/dl3" -q --set fabric.pfc.deadlock_check=0s \
	--set engine.no_progress=0s --max-wall 2s 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || bad "no_progress off: exit status $rc, not 1"
case "$(key "$tmp/dl3/summary.json" invalid_reasons)" in "interrupted by --max-wall 2s"*) ;;
	*) bad "no_progress off: invalid_reasons '$(key "$tmp/dl3/summary.json" invalid_reasons)'" ;; esac

# The series budget.
rc=0
"$fabemu" run "$exps/incast-pfc.yaml" -o "$tmp/ser" -q --set outputs.series.interval=100ns \
	--set outputs.series.max_bytes=1MiB 2>"$tmp/ser.err" || rc=$?
[ "$rc" -eq 0 ] || bad "series budget: exit status $rc, not 0"
case "$(key "$tmp/ser/summary.json" invalid_reasons)" in "series.csv and rates.csv reached outputs.series.max_bytes (1048576 bytes)"*) ;;
	*) bad "series budget: invalid_reasons '$(key "$tmp/ser/summary.json" invalid_reasons)'" ;; esac
check "series.csv stops near its budget" "$(stat -c %s "$tmp/ser/series.csv") < 1048576 + 4096"
[ "$fail" -eq 0 ] && echo "no progress: OK (deadlock stopped, not valid, exit 1; series budget)"
exit "$fail"
