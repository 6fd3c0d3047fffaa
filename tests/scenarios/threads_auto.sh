#!/usr/bin/env bash
# --threads auto, run's and check's default: one thread per 64 hosts of
# the fabric (FABRIC_PAR_AUTO_HOSTS), at most the cores the process may
# use (its CPU affinity, set here with taskset, and its cgroup's CPU
# quota, set here where the machine allows), and one where something
# keeps the run in one partition, without a note then. FABEMU_THREADS
# (N or auto) stands in for a missing --threads; a malformed one is bad
# input (exit 2). Sweeps run side by side (-j) give each run one thread.
# Independent expectation: that rule, applied by hand to the fabrics
# written here (128 and 64 hosts) and the cores taskset allows; the
# results are those of one thread (summary.json less the wall clock, and
# flows.csv byte for byte).
#   threads_auto.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"
unset FABEMU_THREADS # the test setups set it to 1 for the other tests
command -v taskset >/dev/null 2>&1 || { echo "SKIP: taskset not installed"; exit 77; }

leaf_spine() { # NAME LEAVES: 16 hosts a leaf, a permutation of 64 KiB
	printf '%s\n' "name: $1" "seed: 1" \
		"topology: {kind: leaf-spine, leaves: $2, spines: 4, hosts_per_leaf: 16}" \
		"traffic: [{kind: permutation, size: 64KiB}]" >"$tmp/$1.yaml"
}
leaf_spine big 8   # 128 hosts: 2 threads on 2 cores or more
leaf_spine small 4 # 64 hosts: 1
# 128 hosts, an all-reduce of two sizes one after the other (a join):
# kept in one partition.
printf '%s\n' "name: chain" "seed: 1" \
	"topology: {kind: leaf-spine, leaves: 8, spines: 4, hosts_per_leaf: 16}" \
	"traffic: [{kind: collective, collective: all-reduce, sizes: [16KiB, 32KiB]}]" >"$tmp/chain.yaml"

threads() { key "$1/summary.json" wall_clock.threads; }
run() { # CPUS NAME OUT [ARGS...]: fabemu run on CPUS (taskset -c)
	local cpus=$1 name=$2 out=$3
	shift 3
	taskset -c "$cpus" "$fabemu" run "$tmp/$name.yaml" -o "$tmp/$out" -q "$@" 2>"$tmp/$out.err"
}
cores=$(nproc)

run 0 big one-core
check "128 hosts on one core: 1 thread (got $(threads "$tmp/one-core"))" "$(threads "$tmp/one-core") == 1"
run 0 small small1
check "64 hosts on one core: 1 thread" "$(threads "$tmp/small1") == 1"
if [ "$cores" -ge 2 ]; then
	run 0,1 big two-cores
	check "128 hosts on two cores: 2 threads (got $(threads "$tmp/two-cores"))" "$(threads "$tmp/two-cores") == 2"
	run 0,1 small small2
	check "64 hosts on two cores: 1 thread (got $(threads "$tmp/small2"))" "$(threads "$tmp/small2") == 1"
	run 0,1 chain chain2
	check "chained all-reduces on 128 hosts, two cores: 1 thread" "$(threads "$tmp/chain2") == 1"
	[ ! -s "$tmp/chain2.err" ] || bad "auto kept in one partition says something: $(cat "$tmp/chain2.err")"
	run 0,1 chain chain2t --threads 2
	grep -q "note: --threads 2: .*one partition" "$tmp/chain2t.err" ||
		bad "--threads 2 kept in one partition: no note: $(cat "$tmp/chain2t.err")"
	# The same results as one thread.
	python3 - "$tmp/one-core/summary.json" "$tmp/two-cores/summary.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    for k in ("wall_clock", "provenance"):
        d.pop(k, None)
print("ok: 2 threads' summary.json equals 1 thread's" if a == b else "FAIL: summary.json differs")
sys.exit(a != b)
PY
	cmp -s "$tmp/one-core/flows.csv" "$tmp/two-cores/flows.csv" && echo "ok: the same flows.csv" ||
		bad "flows.csv differs between 1 and 2 threads"
	# FABEMU_THREADS stands in for --threads; --threads wins over it.
	FABEMU_THREADS=1 run 0,1 big env1
	check "FABEMU_THREADS=1: 1 thread" "$(threads "$tmp/env1") == 1"
	FABEMU_THREADS=1 run 0,1 big env1-auto --threads auto
	check "FABEMU_THREADS=1 --threads auto: 2 threads" "$(threads "$tmp/env1-auto") == 2"
	FABEMU_THREADS=auto run 0,1 big env-auto
	check "FABEMU_THREADS=auto: 2 threads" "$(threads "$tmp/env-auto") == 2"
	# A sweep of two runs side by side: one thread each.
	taskset -c 0,1 "$fabemu" run "$tmp/big.yaml" -o "$tmp/sweep" -q -j 2 \
		--sweep traffic.0.size=32KiB,64KiB >/dev/null 2>&1 || bad "the sweep failed"
	n=0
	for s in "$tmp"/sweep/*/summary.json; do
		[ -f "$s" ] || continue
		n=$((n + 1))
		check "sweep -j 2, $(basename "$(dirname "$s")"): 1 thread" "$(key "$s" wall_clock.threads) == 1"
	done
	check "sweep -j 2: two runs (got $n)" "$n == 2"
	# A cgroup with a CPU quota of one core (as a container's --cpus 1):
	# the affinity still shows two cores, auto takes one. Made where this
	# machine lets the test make one (root, a cpu controller).
	cg=
	if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] &&
		mkdir "/sys/fs/cgroup/cpu/fabemu-test-$$" 2>/dev/null; then
		cg=/sys/fs/cgroup/cpu/fabemu-test-$$
		echo 100000 >"$cg/cpu.cfs_period_us" && echo 100000 >"$cg/cpu.cfs_quota_us" || cg=
	elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
		mkdir "/sys/fs/cgroup/fabemu-test-$$" 2>/dev/null; then
		cg=/sys/fs/cgroup/fabemu-test-$$
		echo "100000 100000" >"$cg/cpu.max" 2>/dev/null || cg=
	fi
	if [ -n "$cg" ]; then
		# 77: this process could not be moved into it (left out as below).
		rc=0
		bash -c 'echo $$ 2>/dev/null >"$1/cgroup.procs" || exit 77; shift; exec "$@"' _ "$cg" \
			taskset -c 0,1 "$fabemu" run "$tmp/big.yaml" -o "$tmp/quota" -q 2>/dev/null || rc=$?
		rmdir "$cg" 2>/dev/null || true
		if [ "$rc" -eq 77 ]; then
			echo "note: no process could be moved into a cgroup here: the quota check is left out"
		elif [ "$rc" -ne 0 ]; then
			bad "the run in a cgroup failed (exit status $rc)"
		else
			check "a cgroup quota of one core, two cores' affinity: 1 thread (got $(threads "$tmp/quota"))" \
				"$(threads "$tmp/quota") == 1"
		fi
	else
		rmdir "/sys/fs/cgroup/cpu/fabemu-test-$$" "/sys/fs/cgroup/fabemu-test-$$" 2>/dev/null || true
		echo "note: no cgroup with a CPU quota could be made here: the quota check is left out"
	fi
else
	echo "note: one core: the two-core checks are left out"
fi
# A malformed FABEMU_THREADS: bad input, exit 2, and says so.
rc=0
FABEMU_THREADS=many "$fabemu" run "$tmp/small.yaml" -o "$tmp/bad" -q 2>"$tmp/bad.err" || rc=$?
check "FABEMU_THREADS=many: exit status 2 (got $rc)" "$rc == 2"
grep -q "FABEMU_THREADS needs auto or an integer 1..64, got 'many'" "$tmp/bad.err" ||
	bad "FABEMU_THREADS=many: no message: $(cat "$tmp/bad.err")"
rc=0
"$fabemu" run "$tmp/small.yaml" -o "$tmp/bad2" -q --threads some 2>"$tmp/bad2.err" || rc=$?
check "--threads some: exit status 2 (got $rc)" "$rc == 2"
exit "$fail"
