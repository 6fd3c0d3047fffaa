#!/usr/bin/env bash
# Build the libFuzzer targets of tests/fuzz (clang, ASan and UBSan, in
# build-fuzz or $FABEMU_FUZZ_BUILD) and run each for SECONDS (default 60):
# first every input of tests/fuzz/regressions (inputs that once crashed),
# then fuzzing from the seed corpus (experiments/*.yaml, topologies/*.yaml
# and the scenarios' experiments), in experiments/ so that their relative file names resolve.
# A crash, a sanitizer report, a leak, a timeout or a packet not returned
# to the pool fails it, with the input saved under build-fuzz/fuzz-crashes.
# What the corpus grew to is kept in build-fuzz/fuzz-corpus/TARGET for the
# next run. The longer campaign: docs/user-guide.md, "Fuzzing".
#   tools/fuzz-smoke.sh [SECONDS]      (FABEMU_FUZZ_RUNS=N: N inputs, seed 1)
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
case "$secs" in '' | *[!0-9]*) echo "fuzz-smoke: SECONDS must be a whole number, got '$secs'" >&2; exit 2 ;; esac
root=$PWD
dir=$root/${FABEMU_FUZZ_BUILD:-build-fuzz}
cc=$(command -v clang || command -v clang-14 || true)
[ -n "$cc" ] || { echo "fuzz-smoke: clang not found (tools/install-deps.sh --full installs it)" >&2; exit 1; }
[ -f "$dir/build.ninja" ] ||
	CC=$cc meson setup "$dir" -Dfuzz=enabled -Dtests=disabled -Db_sanitize=address,undefined \
		-Db_lundef=false >/dev/null
ninja -C "$dir" >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The experiment targets' seed corpus (fuzz_exp, fuzz_run): the shipped
# experiments and topologies, the scenarios', tests/fuzz/seeds (inputs with
# a #--set part) and the YAML regression inputs. Every other target T (a
# reader of another kind of file) takes tests/fuzz/seeds/T/ and
# tests/fuzz/regressions/T/.
seeds=$dir/fuzz-seeds
rm -rf "$seeds" && mkdir -p "$seeds"
for f in experiments/*.yaml tests/scenarios/*.yaml topologies/*.yaml tests/fuzz/seeds/*.yaml tests/fuzz/regressions/*.yaml; do
	cp "$f" "$seeds/$(echo "${f%/*}" | tr / -)-${f##*/}"
done
# FABEMU_FUZZ_RUNS=N: N inputs per target from a fixed seed instead of a
# time (the same inputs on every machine: what CI runs, so that its result
# does not depend on the machine's speed), SECONDS still the cap; the file
# readers' targets take FABEMU_FUZZ_READER_RUNS (default: the same N).
budget="-max_total_time=$secs" reader_budget=$budget
if [ -n "${FABEMU_FUZZ_RUNS:-}" ]; then
	case "$FABEMU_FUZZ_RUNS${FABEMU_FUZZ_READER_RUNS:-}" in *[!0-9]*) echo "fuzz-smoke: FABEMU_FUZZ_RUNS and FABEMU_FUZZ_READER_RUNS must be whole numbers" >&2; exit 2 ;; esac
	budget="-runs=$FABEMU_FUZZ_RUNS -seed=1 -max_total_time=$secs"
	reader_budget="-runs=${FABEMU_FUZZ_READER_RUNS:-$FABEMU_FUZZ_RUNS} -seed=1 -max_total_time=$secs"
fi
status=0
# Every target built from tests/fuzz/fuzz_*.c (fuzz_input.c and
# fuzz_file.c are the targets' shared parts).
for src in tests/fuzz/fuzz_*.c; do
	t=${src##*/} t=${t%.c}
	case $t in fuzz_input | fuzz_file) continue ;; esac
	corpus=$dir/fuzz-corpus/$t crashes=$dir/fuzz-crashes/$t log=$dir/fuzz-logs/$t.log
	mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
	case $t in
	fuzz_exp | fuzz_run) tseeds=$seeds regs=$(ls "$root"/tests/fuzz/regressions/*.yaml) tbudget=$budget ;;
	*)
		tseeds=$root/tests/fuzz/seeds/$t tbudget=$reader_budget
		[ -d "$tseeds" ] || { echo "fuzz-smoke: $t: no seed corpus tests/fuzz/seeds/$t/"; status=1; continue; }
		regs=$(ls "$root"/tests/fuzz/regressions/"$t"/* 2>/dev/null || true) ;;
	esac
	# The regressions, each once.
	if [ -n "$regs" ] && ! (cd experiments && "$dir/tests/fuzz/$t" $regs </dev/null) >"$log" 2>&1; then
		echo "fuzz-smoke: $t: a regression input fails again:"; tail -n 40 "$log"; status=1; continue
	fi
	if (cd experiments && "$dir/tests/fuzz/$t" $tbudget -timeout=25 -rss_limit_mb=4096 \
		-max_len=16384 -print_final_stats=1 -artifact_prefix="$crashes/" \
		"$corpus" "$tseeds" </dev/null) >"$log" 2>&1; then
		echo "fuzz-smoke: $t: $(grep -E '^Done [0-9]+ runs' "$log" | tail -n 1), corpus $(ls "$corpus" | wc -l) inputs"
	else
		echo "fuzz-smoke: $t FAILED (log $log, input under $crashes):"
		grep -E 'ERROR|runtime error|SUMMARY|Test unit written|not returned' "$log" | head -n 20
		status=1
	fi
done
exit "$status"
