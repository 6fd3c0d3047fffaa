#!/usr/bin/env bash
# fabemu under an MPI launcher (docs/user-guide.md, "Across processes and
# machines (MPI)"). Independent expectation: the same command in one
# process (-j 2), whose results folders, tables and JUnit report must be
# identical (summary.json: the same digest_sha256, which covers every
# result but the wall-clock block), with the same exit status.
# - built with MPI and mpirun present: a sweep over 2 processes, a check
#   sweep over 3 (one point failing, a process with fewer runs than the
#   others) with its JUnit report; single runs split over 2 processes, and
#   over 3 running 5 partitions (mpi_identity.sh: RoCE with PFC, DCQCN,
#   lossy links and a stop time with frames in flight, InfiniBand credits
#   starved at the stop, a permutation, every streamed collective at
#   once with lossy links and a stop time, a listed all-to-all over
#   rails, faults of every kind on links between the processes, IB links
#   going down and up inside a process's half and, at 3 processes,
#   between two, a training job's steps with their joins and compute
#   phases; with its collectives streamed too, and a compute-gated
#   collective with iterations, over 2 and 3 processes), a split check
#   with its JUnit
#   report, a bad --set said once, check --skip-nightly's SKIP line said
#   once, a split run with captures on both
#   processes' ports and series.csv; a run with a pcapng capture, split
#   (one file, process 0 writing every process's blocks in one order); a
#   run that cannot be split (a data-carrying collective: process 0 alone,
#   saying why once); no private folder is left behind;
#   bench's fabric split
#   over 2 and 3 processes: the same packet hops, events, drops,
#   unfinished messages and dry pools as one process (the expectation for
#   these: the one-process engine's counts);
# - built without MPI: started as 2 processes (the launcher's environment)
#   it refuses with exit 2, saying so once (process 0), instead of running
#   the command twice into one folder.
#   mpi.sh FABEMU EXPERIMENT
set -eu
. "$(dirname "$0")/lib.sh"
fabemu=$1 exp=$2
export FABEMU_NO_REEXEC=1

if "$fabemu" --version | grep -q 'without MPI'; then
	set +e
	OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 "$fabemu" run "$exp" -o "$tmp/r0" -q \
		>"$tmp/r0.out" 2>"$tmp/r0.err"
	rc0=$?
	OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$fabemu" run "$exp" -o "$tmp/r1" -q \
		>"$tmp/r1.out" 2>"$tmp/r1.err"
	rc1=$?
	set -e
	[ "$rc0" = 2 ] && [ "$rc1" = 2 ] || bad "built without MPI, 2 processes: exit $rc0 and $rc1, not 2"
	grep -q 'built without MPI' "$tmp/r0.err" || bad "process 0 does not say why: $(head -2 "$tmp/r0.err")"
	[ ! -s "$tmp/r1.err" ] || bad "process 1 says it too: $(head -2 "$tmp/r1.err")"
	[ ! -e "$tmp/r0" ] && [ ! -e "$tmp/r1" ] || bad "a refused process wrote results"
	[ "$fail" = 0 ] && echo "ok: built without MPI, refused as 2 processes (mpirun part: needs a build with MPI)"
	exit "$fail"
fi
if ! command -v mpirun >/dev/null; then
	echo "SKIP: fabemu is built with MPI but mpirun is not installed (openmpi-bin)"
	exit 77
fi
mpi=(mpirun --oversubscribe)
[ "$(id -u)" != 0 ] || mpi+=(--allow-run-as-root)
# Containers often forbid the cross-memory attach OpenMPI's shared-memory
# transport tries first: use plain copies.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
mkdir -p "$tmp/t"
export TMPDIR=$tmp/t

# Every file of folders $1 and $2 the same (summary.json: its digest).
same_tree() {
	(cd "$1" && find . -type f | sort) >"$tmp/la"
	(cd "$2" && find . -type f | sort) >"$tmp/lb"
	if ! cmp -s "$tmp/la" "$tmp/lb"; then
		bad "$3: the files differ: $(diff "$tmp/la" "$tmp/lb" | head -4 | tr '\n' ' ')"
		return
	fi
	local n=0
	while read -r f; do
		n=$((n + 1))
		case $f in
		*/summary.json)
			[ "$(key "$1/$f" provenance.digest_sha256)" = "$(key "$2/$f" provenance.digest_sha256)" ] ||
				bad "$3: $f: digests differ"
			;;
		*) cmp -s "$1/$f" "$2/$f" || bad "$3: $f differs" ;;
		esac
	done <"$tmp/la"
	echo "ok: $3: $n files, the same as in one process"
}

# A sweep over 2 processes against -j 2 in one.
"${mpi[@]}" -np 2 "$fabemu" run "$exp" --seeds 1..3 -o "$tmp/mA" -q >"$tmp/mA.out" 2>"$tmp/mA.err" ||
	bad "mpirun -np 2 sweep: exit $? ($(tail -2 "$tmp/mA.err"))"
"$fabemu" run "$exp" --seeds 1..3 -j 2 -o "$tmp/mB" -q >"$tmp/mB.out" 2>"$tmp/mB.err" ||
	bad "the sweep in one process: exit $?"
same_tree "$tmp/mA" "$tmp/mB" "sweep, 2 processes"
# Every process plans the sweep alike: its notes are said once (process 0).
n_in_one=$(grep -c 'note:' "$tmp/mB.err" || true)
n_in_two=$(grep -c 'note:' "$tmp/mA.err" || true)
[ "$n_in_one" = "$n_in_two" ] && echo "ok: sweep, 2 processes: $n_in_two planning notes, as in one" ||
	bad "sweep: $n_in_two notes over 2 processes, $n_in_one in one"
# Bad input: exit 2 and the message said once.
set +e
"${mpi[@]}" -np 2 "$fabemu" run "$exp" --seeds 1..2 --threads 0 -o "$tmp/bad" >/dev/null 2>"$tmp/bad.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(grep -c 'threads' "$tmp/bad.err")" = 1 ] &&
	echo "ok: bad option under mpirun: exit 2, said once" ||
	bad "bad option under mpirun: exit $rc, $(grep -c 'threads' "$tmp/bad.err") messages"
# A results folder process 0 cannot make: no process runs anything.
touch "$tmp/notdir"
set +e
"${mpi[@]}" -np 2 "$fabemu" run "$exp" --seeds 1..2 -o "$tmp/notdir/x" >"$tmp/nd.out" 2>"$tmp/nd.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(grep -c 'cannot create results folder' "$tmp/nd.err")" = 1 ] &&
	! grep -q '\[1/' "$tmp/nd.out" && [ -z "$(find "$tmp/t" -mindepth 1 | head -1)" ] &&
	echo "ok: unusable -o under mpirun: exit 2, said once, no run started" ||
	bad "unusable -o under mpirun: exit $rc, $(head -2 "$tmp/nd.err")"

# A check sweep over 3 processes, one point failing (a stop time before
# the messages end), with its JUnit report.
set +e
"${mpi[@]}" -np 3 "$fabemu" check "$exp" --sweep stop_time=2us,0ns -o "$tmp/cA" --junit "$tmp/jA.xml" \
	-q >"$tmp/cA.out" 2>"$tmp/cA.err"
rcA=$?
"$fabemu" check "$exp" --sweep stop_time=2us,0ns -o "$tmp/cB" --junit "$tmp/jB.xml" -j 2 -q \
	>"$tmp/cB.out" 2>"$tmp/cB.err"
rcB=$?
set -e
[ "$rcB" = 1 ] || bad "the check sweep in one process: exit $rcB, not 1 (a point fails)"
[ "$rcA" = "$rcB" ] && echo "ok: check sweep, 3 processes: exit $rcA as in one" ||
	bad "check sweep: exit $rcA over 3 processes, $rcB in one"
same_tree "$tmp/cA" "$tmp/cB" "check sweep, 3 processes"
untimed() { sed -E 's/ (time|timestamp)="[^"]*"//g' "$1"; }
if cmp -s <(untimed "$tmp/jA.xml") <(untimed "$tmp/jB.xml"); then
	echo "ok: check sweep, 3 processes: the JUnit report is the one of one process"
else
	bad "check sweep: JUnit reports differ: $(diff <(untimed "$tmp/jA.xml") <(untimed "$tmp/jB.xml") | head -3)"
fi
grep -q 'fail' "$tmp/cA.out" || bad "check sweep: the failing point is not in its table"

# Single runs split over the processes: the results of one process.
here=$(dirname "$0")
split=("$here/../../experiments/permutation-leaf.yaml" "$here/mpi-split.yaml" "$here/mpi-split-ib.yaml"
	"$here/mpi-streams.yaml" "$here/../../experiments/alltoall-rails.yaml" "$here/mpi-faults.yaml"
	"$here/mpi-link-faults.yaml" "$here/threads-faults.yaml" "$here/mpi-ib-faults.yaml"
	"$here/mpi-train.yaml" "$here/mpi-gated.yaml")
"$here/mpi_identity.sh" "$fabemu" 2 "" --split "${split[@]}" || fail=1
"$here/mpi_identity.sh" "$fabemu" 3 "--partitions 5" --split "${split[@]}" || fail=1
# A split check: its verdict, exit status and JUnit report are those of one process.
set +e
"${mpi[@]}" -np 2 "$fabemu" check "${split[0]}" -o "$tmp/kA" --junit "$tmp/kA.xml" -q >"$tmp/kA.out" 2>"$tmp/kA.err"
rcA=$?
"$fabemu" check "${split[0]}" -o "$tmp/kB" --junit "$tmp/kB.xml" -q >"$tmp/kB.out" 2>"$tmp/kB.err"
rcB=$?
set -e
[ "$rcA" = "$rcB" ] && cmp -s <(untimed "$tmp/kA.xml") <(untimed "$tmp/kB.xml") &&
	[ "$(key "$tmp/kA/summary.json" provenance.digest_sha256)" = "$(key "$tmp/kB/summary.json" provenance.digest_sha256)" ] &&
	[ "$(key "$tmp/kA/summary.json" wall_clock.partitions)" = 2 ] &&
	echo "ok: check split over 2 processes: exit $rcA, its JUnit report and results those of one process" ||
	bad "split check: exit $rcA (one process: $rcB), or its report or results differ"
# Bad input in a single run: exit 2, said once.
set +e
"${mpi[@]}" -np 2 "$fabemu" run "${split[0]}" --set nic.mtu=7 -o "$tmp/kC" >/dev/null 2>"$tmp/kC.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(grep -c 'mtu\|#1:' "$tmp/kC.err")" = 1 ] && [ ! -e "$tmp/kC" ] &&
	echo "ok: bad --set in a split run: exit 2, said once, nothing written" ||
	bad "bad --set in a split run: exit $rc, $(grep -c 'mtu\|#1:' "$tmp/kC.err") messages: $(head -2 "$tmp/kC.err")"

# check --skip-nightly: a nightly experiment's SKIP line said once.
"${mpi[@]}" -np 2 "$fabemu" check --skip-nightly "$here/nightly.yaml" "$exp" -o "$tmp/nA" -q \
	>"$tmp/nA.out" 2>/dev/null || bad "mpirun -np 2 check --skip-nightly: exit $?"
[ "$(grep -c '^SKIP .*nightly.yaml' "$tmp/nA.out")" = 1 ] &&
	echo "ok: check --skip-nightly under mpirun: the SKIP line said once" ||
	bad "check --skip-nightly under mpirun: $(grep -c '^SKIP' "$tmp/nA.out") SKIP lines"

# Captures and series.csv of a split run: each port's capture written by
# the process that runs it (h7 and spine1 in process 1's half) and sent to
# process 0; series.csv sampled over both: the files of one process.
caps=(--set 'capture.ports=[h0:0, h7:0, spine1:0]' --set 'outputs.series={ports: [h0:0, h7:0, leaf1:0], interval: 1us}')
"${mpi[@]}" -np 2 "$fabemu" run "$exp" "${caps[@]}" -o "$tmp/pA" >"$tmp/pA.out" 2>"$tmp/pA.err" ||
	bad "mpirun -np 2 run with captures: exit $? ($(tail -2 "$tmp/pA.err"))"
"$fabemu" run "$exp" "${caps[@]}" -o "$tmp/pB" -q >/dev/null 2>&1 || bad "the run with captures: exit $?"
grep -q 'in each of 2 MPI processes' "$tmp/pA.out" || bad "the run with captures was not split: $(head -3 "$tmp/pA.err")"
same_tree "$tmp/pA" "$tmp/pB" "split run with captures and series.csv"
[ -s "$tmp/pA/capture/h7-p0.pcap" ] && [ -s "$tmp/pA/series.csv" ] || bad "the capture of h7 or series.csv is empty"

# One pcapng file written by every port: split, process 0 writing the
# others' blocks in one process's order (core/sim_rec.h); the results of
# one process.
"${mpi[@]}" -np 2 "$fabemu" run "$exp" --set capture.format=pcapng -o "$tmp/sA" >"$tmp/sA.out" 2>"$tmp/sA.err" ||
	bad "mpirun -np 2 pcapng run: exit $?"
"$fabemu" run "$exp" --set capture.format=pcapng -o "$tmp/sB" -q >/dev/null 2>&1 || bad "the pcapng run: exit $?"
grep -q 'in each of 2 MPI processes' "$tmp/sA.out" || bad "the pcapng run was not split: $(head -3 "$tmp/sA.err")"
[ "$(key "$tmp/sA/summary.json" provenance.digest_sha256)" = "$(key "$tmp/sB/summary.json" provenance.digest_sha256)" ] &&
	echo "ok: pcapng run split over 2 processes: the digest of one process" ||
	bad "pcapng run under mpirun: digest differs"

# A single run that cannot be split (a data-carrying collective): process
# 0 alone, saying why once; the results of one process.
dexp=$(dirname "$exp")/data-allreduce.yaml
"${mpi[@]}" -np 2 "$fabemu" run "$dexp" -o "$tmp/sC" -q >"$tmp/sC.out" 2>"$tmp/sC.err" ||
	bad "mpirun -np 2 single run: exit $?"
"$fabemu" run "$dexp" -o "$tmp/sD" -q >/dev/null 2>&1 || bad "the single run: exit $?"
[ "$(grep -c 'carries data.*process 0 runs it alone' "$tmp/sC.err")" = 1 ] ||
	bad "single run: the note is not said once: $(head -3 "$tmp/sC.err")"
[ "$(key "$tmp/sC/summary.json" provenance.digest_sha256)" = "$(key "$tmp/sD/summary.json" provenance.digest_sha256)" ] &&
	echo "ok: single run under mpirun -np 2: the digest of one process" ||
	bad "single run under mpirun: digest differs"

# Training whose collectives stream (outputs.flows_csv: false), and a
# compute-gated collective with iterations: what waits for a streamed
# collective's end learns of it at a window's end, every process counting
# the arrivals from the same records (tg_stream_counted). Split over 2
# processes and over 3 running 5 partitions: the digest of one process.
for f in "$here/threads-train.yaml" "$here/threads-streams.yaml" "$(dirname "$exp")/dp-overlap.yaml"; do
	n=$(basename "$f" .yaml)
	"$fabemu" run "$f" --set outputs.flows_csv=false -o "$tmp/st-$n-1" -q >/dev/null 2>&1 ||
		bad "$n streamed: exit $? in one process"
	for np in 2 3; do
		"${mpi[@]}" -np "$np" "$fabemu" run "$f" --set outputs.flows_csv=false -o "$tmp/st-$n-$np" --threads 1 \
			$([ "$np" = 3 ] && echo --partitions 5) >"$tmp/st-$n-$np.out" 2>"$tmp/st-$n-$np.err" ||
			bad "$n streamed under mpirun -np $np: exit $?"
		grep -q "in each of $np MPI processes" "$tmp/st-$n-$np.out" ||
			bad "$n streamed: not split over $np processes: $(head -2 "$tmp/st-$n-$np.err")"
		[ "$(key "$tmp/st-$n-$np/summary.json" provenance.digest_sha256)" = \
			"$(key "$tmp/st-$n-1/summary.json" provenance.digest_sha256)" ] &&
			echo "ok: $n with streamed collectives split over $np processes: the digest of one process" ||
			bad "$n streamed over $np processes: digest differs"
	done
done

# bench: the fabric's partitions shared out over the processes, frames
# between them through MPI: the same hops, events, drops, unfinished
# messages and dry pools as one process, every process running its share.
bench_figs() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["packet_hops"], d["events"], d["drops"], d["incomplete"], d["pool_exhausted"])' "$1"; }
for args in "2|--quick" "3|--quick --partitions 7" "2|--deep --partitions 4"; do
	np=${args%%|*} b=${args#*|}
	# shellcheck disable=SC2086
	"$fabemu" bench $b --json >"$tmp/b1.json" 2>/dev/null || bad "bench $b: exit $?"
	# shellcheck disable=SC2086
	"${mpi[@]}" -np "$np" "$fabemu" bench $b --json >"$tmp/bn.json" 2>"$tmp/bn.err" ||
		bad "mpirun -np $np bench $b: exit $? ($(tail -2 "$tmp/bn.err"))"
	one=$(bench_figs "$tmp/b1.json") many=$(bench_figs "$tmp/bn.json" 2>/dev/null)
	procs=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d.get("processes", 0), sum(1 for p in d.get("partitions", []) if p["events"] > 0))' "$tmp/bn.json" 2>/dev/null)
	if [ "$one" = "$many" ] && [ "${procs%% *}" = "$np" ] && [ "${procs#* }" -ge "$np" ]; then
		echo "ok: bench $b over $np processes ($procs partitions busy): hops, events, drops, incomplete, dry: $many"
	else
		bad "bench $b over $np processes: '$many' (processes, busy partitions: $procs), one process: '$one'"
	fi
done

left=$(find "$tmp/t" -mindepth 1 | head -3)
[ -z "$left" ] && echo "ok: no private folder left" || bad "left behind: $left"
exit "$fail"
