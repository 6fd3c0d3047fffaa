#!/usr/bin/env bash
# Parallel runs give the results of one thread (docs/performance.md,
# "Threads"): each experiment runs with --threads 1, 2 and 4 and with one
# thread running 3 partitions in turn (--partitions 3), and the runs
# must agree on the exit status and on provenance.digest_sha256, which
# covers every result file but the wall-clock block (docs/results.md,
# "Provenance and digest"); where they differ, the files that do are named.
# The runs with more threads must also have used more than one partition
# (wall_clock.threads), unless the run says on stderr what kept it in one;
# this project's own threads-*.yaml files are made to be partitioned, and
# must use every thread asked for and print the scaling report.
# A sweep's points get --threads too. Independent expectation: the
# one-thread engine's results.
# THREADS_IDENTITY_FOUR (shell patterns separated by |, default *): the
# files whose names match one run at 4 threads too (the default set keeps 4 threads
# on 2 cores to its own partitioned files; the release set runs all).
# FILE,KEY=VALUE[;KEY=VALUE...] runs FILE with a --set for each (named
# FILE's name and -setN), e.g. a file's streamed variant
# (outputs.flows_csv=false).
#   threads_identity.sh FABEMU FILE[,KEY=VALUE]...
set -u
fabemu=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
key() { sed -n "s/.*\"$2\": *\"*\([^\",]*\)\"*,*\$/\1/p" "$1" | head -1; }

four=${THREADS_IDENTITY_FOUR:-*} n_four=0
# at_four NAME: NAME matches one of four's |-separated patterns.
at_four() {
	local IFS='|' p
	local - # the patterns are not file names: no globbing here
	set -f
	for p in $four; do
		# shellcheck disable=SC2254
		case $1 in $p) return 0 ;; esac
	done
	return 1
}
for arg in "$@"; do
	f=${arg%%,*} set=()
	name=$(basename "$f" .yaml)
	if [ "$f" != "$arg" ]; then
		IFS=';' read -r -a sets <<<"${arg#*,}"
		for kv in "${sets[@]}"; do set+=(--set "$kv"); done
		n_set=$((${n_set:-0} + 1))
		name=$name-set$n_set
	fi
	if at_four "$name"; then
		counts="2 4 1x3" n_four=$((n_four + 1))
	else
		counts="2 1x3"
	fi
	for n in 1 $counts; do
		# NxP: N threads running P partitions in turn.
		FABEMU_NO_REEXEC=1 "$fabemu" run "$f" "${set[@]}" -o "$tmp/$name-$n" --threads "${n%x*}" \
			$(case $n in *x*) echo "--partitions ${n#*x}" ;; esac) \
			>"$tmp/$name-$n.out" 2>"$tmp/$name-$n.err"
		echo $? >"$tmp/$name-$n.rc"
	done
	for n in $counts; do
		a=$tmp/$name-1 b=$tmp/$name-$n
		if ! cmp -s "$a.rc" "$b.rc"; then
			echo "FAIL [$name]: exit $(cat "$a.rc") at 1 thread, $(cat "$b.rc") at $n"
			head -3 "$b.err"
			fail=1
			continue
		fi
		[ -f "$a/summary.json" ] || continue
		da=$(key "$a/summary.json" digest_sha256) db=$(key "$b/summary.json" digest_sha256)
		if [ -z "$da" ] || [ "$da" != "$db" ]; then
			echo "FAIL [$name]: digest at $n threads differs from 1 thread's"
			for x in $(key "$a/summary.json" digest_files); do
				cmp -s "$a/$x" "$b/$x" || echo "  $x differs"
			done
			fail=1
		fi
		used=$(key "$b/summary.json" threads) thr=${n%x*} parts=${n#*x}
		case $name in
		threads-*)
			if [ "${used:-1}" != "$thr" ] ||
				[ "$(key "$b/summary.json" partitions)" != "$parts" ]; then
				echo "FAIL [$name]: --threads $thr (partitions $parts) used ${used:-1} threads, $(key "$b/summary.json" partitions) partitions"
				head -3 "$b.err"
				fail=1
			fi
			# The human summary's scaling report, a line per partition.
			if [ "$thr" = "$parts" ]; then want="^  threads: $thr (lookahead"
			else want="^  threads: $thr running $parts partitions (lookahead"; fi
			if ! grep -q "$want" "$b.out" ||
				[ "$(grep -c '^  partition ' "$b.out")" != "$parts" ]; then
				echo "FAIL [$name]: no scaling report for $parts partitions in the summary"
				fail=1
			fi ;;
		esac
		if [ "$(key "$b/summary.json" partitions)" = 1 ] && [ "$parts" != 1 ] &&
			! grep -q "runs in one partition" "$b.err"; then
			echo "FAIL [$name]: $n used one partition and said nothing"
			fail=1
		fi
	done
done
# A sweep hands --threads and --partitions to every point's run: each
# point at 2 threads over 3 partitions used them and has the digest of the
# same point at 1 thread.
f=${1%%,*}
for n in 1 2; do
	FABEMU_NO_REEXEC=1 "$fabemu" run "$f" -o "$tmp/sweep-$n" -q --threads "$n" --seeds 1..2 -j 2 \
		$([ "$n" = 2 ] && echo "--partitions 3") \
		>/dev/null 2>"$tmp/sweep-$n.err" || { echo "FAIL [sweep]: exit $? at $n threads"; fail=1; }
done
for d in "$tmp"/sweep-1/*/; do
	p=$(basename "$d") a=$d/summary.json b=$tmp/sweep-2/$p/summary.json
	[ -f "$b" ] || { echo "FAIL [sweep $p]: no summary at 2 threads"; fail=1; continue; }
	[ "$(key "$b" threads)" = 2 ] && [ "$(key "$b" partitions)" = 3 ] ||
		{ echo "FAIL [sweep $p]: the point ran on $(key "$b" threads) threads, $(key "$b" partitions) partitions"; fail=1; }
	[ "$(key "$a" digest_sha256)" = "$(key "$b" digest_sha256)" ] ||
		{ echo "FAIL [sweep $p]: digest at 2 threads differs from 1 thread's"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "threads identity: OK ($# experiments at 1 and 2 threads and 3 partitions on one, $n_four of them at 4 threads, and a sweep)"
exit "$fail"
