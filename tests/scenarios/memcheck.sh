#!/usr/bin/env bash
# The nightly memcheck pass: the small runs under Valgrind's memcheck, for
# what the sanitizer pass (ASan, UBSan) cannot see: reads of uninitialised
# stack, heap and static memory (MSan would need a libc and a DPDK built
# with it), besides invalid accesses. Leaks are left to ASan. A run fails
# on any memcheck error (its report is printed) or when it does not end
# as it does natively. docs/user-guide.md, "Memcheck".
#   memcheck.sh FABEMU EXPERIMENTS_DIR [SCENARIOS_DIR [UNIT_TESTS]]
# UNIT_TESTS defaults to tests/fabemu-tests of FABEMU's build folder.
# MEMCHECK_JOBS: runs at a time (default: the CPUs); MEMCHECK_ONLY: an
# extended regex, only the runs whose names match it (e.g. 'quickstart').
# Exit status: 0, 1 on a failed run, 77 (skipped) without valgrind or on
# a sanitizer build (Valgrind cannot run ASan's shadow memory).
set -u
fabemu=$(realpath "$1")
exp_dir=$(realpath "$2")
scen_dir=$(realpath "${3:-$(dirname "$0")}")
unit=$(realpath -m "${4:-$(dirname "$fabemu")/../tests/fabemu-tests}")
topo_dir=$(dirname "$exp_dir")/topologies
jobs=${MEMCHECK_JOBS:-$(nproc)}
only=${MEMCHECK_ONLY:-}

if ! command -v valgrind >/dev/null; then
	echo "SKIP: valgrind not installed (tools/install-deps.sh --full installs it)"
	exit 77
fi
if grep -qa __asan_init "$fabemu"; then
	echo "SKIP: $fabemu is built with AddressSanitizer, which Valgrind cannot run"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each program runs through a wrapper in $tmp/bin that starts it under
# memcheck, a log per process in $MEMCHECK_LOG_DIR (the run's folder).
# --leak-check=no: leaks are ASan's (build-san). --child-silent-after-fork:
# the unit tests start tshark through popen; only the test process itself
# is checked. FABEMU_NO_REEXEC: fabemu would restart itself through
# /proc/self/exe, which under Valgrind is Valgrind's own tool binary.
vg="valgrind --tool=memcheck --error-exitcode=99 --track-origins=yes --leak-check=no"
vg+=" --num-callers=40 --child-silent-after-fork=yes"
[ ! -f "$scen_dir/valgrind.supp" ] || vg+=" --suppressions=$(printf %q "$scen_dir/valgrind.supp")"
mkdir "$tmp/bin"
# shellcheck disable=SC2016 # $MEMCHECK_LOG_DIR and $@ are the wrapper's
wrap() { # PROGRAM WRAPPER
	printf '#!/bin/sh\nexec %s --log-file="$MEMCHECK_LOG_DIR/vg.%%p.log" %q "$@"\n' \
		"$vg" "$1" >"$2"
	chmod +x "$2"
}
vg_fabemu=$tmp/bin/fabemu
vg_unit=$tmp/bin/unit-tests
wrap "$fabemu" "$vg_fabemu"
wrap "$unit" "$vg_unit"
export FABEMU_NO_REEXEC=1

# The runs: NAME, then the command (run from a folder of its own). Every
# shipped experiment is checked (its expect: must still hold) when it takes
# under about 3 s natively (30 to 50 times that under memcheck); the longer
# ones run shortened by --set overrides that keep their code paths, with
# `run` where the overrides change the outcome their expect: states.
names=()
cmds=()
add() { # NAME CMD...
	[ -z "$only" ] || [[ $1 =~ $only ]] || return 0
	names+=("$1")
	shift
	cmds+=("$(printf '%q ' "$@")")
}
# The longest first (bad-input about 6 min of CPU, the unit tests 4).
# The error paths: every case of bad_input.sh (a bad file, option or --set
# each) with fabemu under memcheck. Its own verdicts are the scenario test
# bad-input's; here only memcheck's count.
add bad-input "$scen_dir/bad_input.sh" "$vg_fabemu"
declare -A own_verdict=([bad-input]=1)
if [ -x "$unit" ]; then
	add unit-tests "$vg_unit"
else
	echo "note: no unit tests at $unit (built with CUnit): not run"
fi
declare -A how=(
	# 28 all-reduces of 8 B to 1 GiB (11 s): 18 of them, 8 B to 1 MiB.
	[experiments/allreduce-sweep-2x8]="run --set traffic.0.sizes.to=1MiB"
	# The NCCL model's 14 all-reduces of 16 B to 1 GiB (6 s): 16 B to 1 MiB
	# (tree and ring, LL).
	[experiments/nccl-allreduce-2x8]="run --set traffic.0.sizes.to=1MiB"
	# 32768 hosts, 3328 switches (5 s): the same preset with 4 units.
	[experiments/b200-superpod-permutation]="run --set topology.units=4"
	# Eight data-carrying collectives of 4 MiB (5 s): of 256 KiB each.
	[experiments/data-allreduce]="run $(for i in 0 1 2 3 4 5 6 7; do printf -- '--set traffic.%d.size=256KiB ' $i; done)"
	# 20 ms of websearch at 30% load (6 s): 2 ms (its expect: still holds).
	[experiments/fct-websearch]="check --set traffic.0.duration=2ms"
	# Tree all-reduces of 4 KiB and 256 MiB (7 s): of 4 KiB and 4 MiB.
	[experiments/tree-vs-ring]="run --set traffic.0.sizes=[4KiB,4MiB]"
	# In-network reduction: NVLS from 1 MiB to 1 GiB (4 s): to 4 MiB; SHARP
	# and the ring of 16 MiB: of 1 MiB.
	[experiments/nvls-allreduce]="run --set traffic.0.sizes.to=4MiB"
	[experiments/sharp-allreduce]="run --set traffic.0.sizes=[1MiB] --set traffic.1.sizes=[1MiB]"
	# Ultra Ethernet: the three layers' 64 MiB collectives (100 s), of 8 MiB;
	# the all-to-all under a link failure (48 s), of 16 MiB.
	[experiments/uet-vs-roce-vs-ib]="run --set traffic.0.size=8MiB --set traffic.1.size=8MiB --set traffic.1.start=1ms"
	[experiments/uet-spray-failure]="run --set traffic.0.size=16MiB"
	# One of its assertions fails on purpose (across_seeds.sh).
	[scenarios/across-seeds]="run"
)
for f in "$exp_dir"/*.yaml "$scen_dir"/*.yaml; do
	name=$(basename "$f" .yaml)
	[ "$(dirname "$f")" = "$exp_dir" ] && name=experiments/$name || name=scenarios/$name
	read -ra a <<<"${how[$name]:-check}"
	junit=()
	[ "${a[0]}" != check ] || junit=(--junit junit.xml)
	add "$name" "$vg_fabemu" "${a[0]}" "$f" -o out -q "${junit[@]}" "${a[@]:1}"
done
# Every congestion-control algorithm of cc/cc.c through the NIC's ACK path
# (dcqcn-incast runs DCQCN itself; no shipped experiment runs DCTCP).
for c in dctcp hpcc ibcc none swift timely nscc; do
	add "cc/$c" "$vg_fabemu" run "$exp_dir/dcqcn-incast.yaml" -o out -q --set nic.cc=$c
done
# Partitioned runs (core/par.c): two threads over three partitions, with
# faults, and with streamed and listed collectives.
for f in "$scen_dir/threads-faults.yaml" "$scen_dir/threads-streams.yaml" "$exp_dir/alltoall-rails.yaml"; do
	add "partitions/$(basename "$f" .yaml)" "$vg_fabemu" run "$f" -o out -q --threads 2 --partitions 3
done
# The NCCL model's PXN (listed and streamed relays) and point-to-point
# sends, and a trace's streamed collectives.
add "nccl/pxn-streamed" "$vg_fabemu" run "$exp_dir/alltoall-rails.yaml" -o out -q --set traffic.0.nccl=on \
	--set outputs.flows_csv=false --set traffic.0.size=1MiB
add "nccl/pxn-listed" "$vg_fabemu" run "$exp_dir/alltoall-rails.yaml" -o out -q --set traffic.0.nccl=on \
	--set outputs.flows_csv=true --set traffic.0.size=1MiB
add "nccl/p2p" "$vg_fabemu" run "$exp_dir/pipeline-bubble.yaml" -o out -q --set traffic.0.nccl=on \
	--set traffic.0.steps=1 --set traffic.0.pp_bytes=1MiB
add "nccl/trace-streamed" "$vg_fabemu" run "$exp_dir/chakra-pp.yaml" -o out -q --set traffic.0.nccl=on \
	--set outputs.flows_csv=false
# In-network reduction carrying data (the switches add the payloads).
add "innet/data" "$vg_fabemu" run "$exp_dir/sharp-allreduce.yaml" -o out -q --set 'traffic.0.sizes=[256KiB]' \
	--set 'traffic.1.sizes=[256KiB]' --set 'nic={mtu: 4096, payload: true, recovery: go-back-n}' \
	--set traffic.0.data=true
# In-network reduction in CollNet's shape (rings in the nodes, rail trees).
add "innet/collnet" "$vg_fabemu" run "$exp_dir/nvls-allreduce.yaml" -o out -q --set 'traffic.0.ranks=all' \
	--set 'traffic.0.sizes=[2MiB]' --set 'fabric={pfc: {priorities: [3]}}' --set traffic.0.dscp=24
# Ultra Ethernet with its payload in the frames (trimming cuts materialised
# bytes) and with every spraying mode.
add "uet/payload" "$vg_fabemu" run "$exp_dir/uet-incast.yaml" -o out -q --set nic.payload=true \
	--set traffic.0.size=256KiB
add "uet/oblivious" "$vg_fabemu" run "$exp_dir/uet-spray-failure.yaml" -o out -q \
	--set fabric.uet.spray=oblivious --set traffic.0.size=8MiB --set faults.0.at=50us
add "uet/rod" "$vg_fabemu" run "$exp_dir/uet-incast.yaml" -o out -q --set fabric.uet.delivery=rod \
	--set fabric.uet.spray=off --set traffic.0.size=256KiB
add "uet/off" "$vg_fabemu" run "$exp_dir/uet-spray-failure.yaml" -o out -q \
	--set fabric.uet.spray=off --set traffic.0.size=8MiB --set faults.0.at=50us
# Receiver credit: speculative (trims, NACKs, the pacer's idle list) and
# not (every sender asks with a CREDIT_REQ first).
add "uet/rccc" "$vg_fabemu" run "$exp_dir/uet-incast.yaml" -o out -q --set nic.cc=rccc \
	--set traffic.0.size=256KiB
add "uet/rccc-ask" "$vg_fabemu" run "$exp_dir/uet-spray-failure.yaml" -o out -q --set nic.cc=rccc \
	--set nic.rccc.speculative=false --set traffic.0.size=8MiB --set faults.0.at=50us
# Both at once, marks kept off the host links: NSCC's window beside the
# credit, last-hop trims.
add "uet/nscc+rccc" "$vg_fabemu" run "$exp_dir/uet-htsim-incast.yaml" -o out -q \
	--set nic.cc=nscc+rccc --set fabric.ecn.host_links=false
for f in "$topo_dir"/*.yaml "$topo_dir"/examples/*.yaml; do
	add "topo/$(basename "$f" .yaml)" "$vg_fabemu" topo "$f"
done
add "topo-dot/dgx-h100-superpod" "$vg_fabemu" topo "$topo_dir/dgx-h100-superpod.yaml" --dot
add "topo-dot/fat-tree-k4" "$vg_fabemu" topo "$topo_dir/examples/fat-tree-k4.yaml" --dot

# run_one I: run entry I; writes $tmp/I.result (the lines to print) when
# done.
run_one() {
	local i=$1 name=${names[$1]} dir="$tmp/$1" rc start end secs bad shown
	mkdir -p "$dir"
	start=$(date +%s.%N)
	(cd "$dir" && export MEMCHECK_LOG_DIR=$dir && eval "${cmds[$i]}") >"$dir/output" 2>&1
	rc=$?
	end=$(date +%s.%N)
	[ -z "${own_verdict[$name]:-}" ] || rc=0
	# The command as a person would type it: the wrappers' targets.
	shown=${cmds[$i]//"$vg_fabemu"/$fabemu}
	shown=${shown//"$vg_unit"/$unit}
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	bad=$(grep -El 'ERROR SUMMARY: [1-9]' "$dir"/vg.*.log 2>/dev/null)
	{
		if [ -n "$bad" ]; then
			echo "FAIL $name (${secs} s): memcheck errors"
			echo "  command (each program under $vg): $shown"
			# Each failing process's report less Valgrind's banner:
			# each error with its stack and origin, then the ERROR
			# SUMMARY line.
			for f in $bad; do
				sed -n '/^==[0-9]*== Command:/,$p' "$f" | sed 's/^/  /'
			done
		elif [ "$rc" -ne 0 ]; then
			echo "FAIL $name (${secs} s): exit $rc, not a memcheck error"
			echo "  command: $shown"
			tail -n 20 "$dir/output" | sed 's/^/  /'
			cat "$dir"/vg.*.log 2>/dev/null | grep -E 'Process terminating|ERROR SUMMARY' | sed 's/^/  /'
		else
			echo "PASS $name (${secs} s)"
		fi
	} >"$tmp/$i.result.part"
	mv "$tmp/$i.result.part" "$tmp/$i.result"
	rm -rf "$dir"
}

start=$(date +%s)
n=${#names[@]}
next=0
running=0
printed=0
failed=0
declare -A done_
flush() { # print the results that came in since the last call
	local i
	for ((i = 0; i < n; i++)); do
		if [ -z "${done_[$i]:-}" ] && [ -f "$tmp/$i.result" ]; then
			done_[$i]=1
			cat "$tmp/$i.result"
			grep -q '^FAIL' "$tmp/$i.result" && failed=$((failed + 1))
			printed=$((printed + 1))
		fi
	done
}
while [ "$next" -lt "$n" ] || [ "$running" -gt 0 ]; do
	while [ "$running" -lt "$jobs" ] && [ "$next" -lt "$n" ]; do
		run_one "$next" &
		next=$((next + 1))
		running=$((running + 1))
	done
	wait -n
	running=$((running - 1))
	flush
done
flush
echo "memcheck: $((printed - failed)) passed, $failed failed ($(($(date +%s) - start)) s, $jobs at a time)"
[ "$failed" -eq 0 ]
