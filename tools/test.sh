#!/usr/bin/env bash
# Set everything up and run the tests: README's test command and CI's.
#   tools/test.sh          the quick set (about 5 min on 2 cores): the
#                          default meson setup (unit tests and the scenario
#                          tests less the suite 'release') on a normal build,
#                          then the suite 'sanitize' (the unit tests and a
#                          scenario per module) under ASan and UBSan, on a
#                          build made while the first set runs.
#   tools/test.sh --full   the release set (about 15 min): every unit and
#                          scenario test on both builds (the setup
#                          'release'), threads-identity under
#                          ThreadSanitizer, then the fuzzing smoke run.
# FABEMU_NO_SANITIZE=1 skips the sanitizer pass, FABEMU_NO_FUZZ=1 the fuzz
# run (tools/fuzz-smoke.sh under ASan and UBSan: each libFuzzer target on
# FABEMU_FUZZ_RUNS inputs, default 15000, the file readers' targets
# FABEMU_FUZZ_READER_RUNS, default 3000, from seed 1, at most
# FABEMU_FUZZ_SECONDS, default 90); FABEMU_FUZZ=1 adds it to the quick set.
# Ends with one line "N passed, M failed" over the test passes (and the
# fuzz run, counted as one).
set -eu
cd "$(dirname "$0")/.."
full=0
case "${1:-}" in
'') ;;
--full) full=1 ;;
*) echo "usage: tools/test.sh [--full]" >&2; exit 2 ;;
esac
# The quick set needs neither clang (fuzzing) nor valgrind (memcheck).
if [ "$full" = 1 ] || [ "${FABEMU_FUZZ:-0}" = 1 ]; then
	tools/install-deps.sh --full
else
	tools/install-deps.sh
fi
log=$(mktemp)
san_log=$(mktemp) # the sanitizer build's output, when made in the background
trap 'rm -f "$log" "$san_log"' EXIT
status=0

# run_suite BUILD_DIR [ENV=VALUE...] [-- MESON_TEST_ARGS...]: meson test,
# output kept for the count. Four tests at a time on two cores: the
# scenario tests spend about a third of their time waiting (on the runs
# they start, tshark, gnuplot, files), so two at a time left the cores
# idle that long (the default set: 224 s at 2, 146-163 s at 4, on 2 cores).
run_suite() {
	local dir=$1 envs=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ $# -eq 0 ] || shift
	env "${envs[@]}" meson test -C "$dir" --print-errorlogs --num-processes 4 "$@" 2>&1 | tee -a "$log"
	return "${PIPESTATUS[0]}"
}

if [ "$full" = 1 ]; then set -- --setup release; else set --; fi
# --full runs the mpi test's mpirun part: a build set up before OpenMPI was
# installed takes it now.
if [ "$full" = 1 ] && [ -f build/build.ninja ]; then
	meson configure build -Dmpi=enabled >/dev/null
fi
tools/build.sh build
sanitize=1
[ "${FABEMU_NO_SANITIZE:-0}" != 1 ] || sanitize=0
# The sanitizer build: -O1 (ASan's advice): a third less compile time than
# -O2, checks the same. -g1: line tables only, for the sanitizers'
# file:line (UBSan's are compiled in); 50 s against 68 s with full debug
# information. A unity build, as the main one (meson.build's default
# options). Without MPI: LeakSanitizer would report MPI's own allocations
# (the mpi test then checks the refusal to start as several processes).
if [ "$sanitize" = 1 ]; then
	if [ -f build-san/build.ninja ]; then
		meson configure build-san -Dmpi=disabled >/dev/null
	else
		meson setup build-san -Db_sanitize=address,undefined -Db_lundef=false \
			-Doptimization=1 -Ddebug=false -Dc_args=-g1 -Dmpi=disabled >/dev/null
	fi
fi
san_pid= san_rc=0
if [ "$sanitize" = 1 ] && [ "$full" = 0 ]; then
	# The quick set needs the program and the unit tests alone, built
	# while the default set runs, at the lowest priority: the scenario
	# tests keep the cores (they wait on their runs' starts, files, tshark
	# and gnuplot a part of the time, which the build then takes).
	nice -n 19 ninja -C build-san tools/fabemu tests/fabemu-tests >"$san_log" 2>&1 &
	san_pid=$!
fi
run_suite build -- "$@" || status=1
if [ "$sanitize" = 1 ]; then
	if [ "$full" = 1 ]; then
		ninja -C build-san
	else
		wait "$san_pid" || san_rc=$?
		tail -n 3 "$san_log"
		if [ "$san_rc" -ne 0 ]; then
			cat "$san_log"
			echo "Fail: 1" >>"$log" # the sanitizer build, as one
			status=1
		fi
		set -- --suite sanitize --no-rebuild
	fi
	if [ "$san_rc" -eq 0 ]; then
		run_suite build-san UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			ASAN_OPTIONS=detect_leaks=1 -- "$@" || status=1
	fi
	if [ "$full" = 1 ]; then
		# Partitioned runs under ThreadSanitizer: a data race between
		# partitions ends the run (exit 66), which threads-identity
		# reports against the one-thread run's status.
		[ -f build-tsan/build.ninja ] ||
			meson setup build-tsan -Db_sanitize=thread -Doptimization=1 >/dev/null
		ninja -C build-tsan tools/fabemu
		run_suite build-tsan TSAN_OPTIONS=halt_on_error=1 -- threads-identity --no-rebuild ||
			status=1
	fi
fi
if [ "${FABEMU_NO_FUZZ:-0}" != 1 ] && { [ "$full" = 1 ] || [ "${FABEMU_FUZZ:-0}" = 1 ]; }; then
	# A fixed number of inputs from a fixed seed (the same run on every
	# machine), capped at FABEMU_FUZZ_SECONDS per target.
	if FABEMU_FUZZ_RUNS=${FABEMU_FUZZ_RUNS:-15000} FABEMU_FUZZ_READER_RUNS=${FABEMU_FUZZ_READER_RUNS:-3000} \
		tools/fuzz-smoke.sh "${FABEMU_FUZZ_SECONDS:-90}"; then
		echo "Ok: 1" >>"$log" # the fuzz smoke run, as one
	else
		echo "Fail: 1" >>"$log"
		status=1
	fi
fi
passed=$(awk '/^Ok:/ { n += $2 } END { print n + 0 }' "$log")
failed=$(awk '/^(Fail|Timeout|Unexpected Pass):/ { n += $NF } END { print n + 0 }' "$log")
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "$passed passed, $failed failed"
exit "$status"
