#!/usr/bin/env bash
# Traces of training jobs (trace formats chakra and nccl-log), against
# independent expectations:
# - round trip: a description written by tools/chakra.py and read back by
#   it is the same description, and the files written again from what was
#   read are byte for byte the same (the writer and reader agree on the
#   wire format; fabemu's reader is checked by the runs below);
# - the same work two ways: 16 ranks each computing 100 us and then
#   all-reducing 16 MiB, as a Chakra trace, end at the same picosecond
#   and move the same packet hops as the collective workload of that size
#   with compute: 100us (the trace's graph is the collective kind's), and
#   so under the NCCL model (nccl: on for both);
# - experiments/chakra-pp.yaml (sends, receives, process groups) within
#   its hand-derived critical path (its expect: list; the test
#   experiment-chakra-pp is its check in the release set);
# - a barrier (comm_type 9) and a rank whose nodes come before their
#   dependencies in the file: the barrier ends after every rank's compute
#   (the longest, 300 us) and before 300 us plus its ring's latency;
# - NCCL's log (nccl-log): a world AllReduce of 4194304 floats ends at the
#   same picosecond and hops as the collective workload of 16 MiB; the
#   shipped experiments/traces/nccl-step.log (per process: an AllGather in
#   its node's communicator, a 4 MiB Send to or Recv from the other node,
#   the world AllReduce) ends after the Send (4 MiB at the 49.019 GB/s
#   payload rate of a 400 Gb/s NIC plus 2.17 us: 87.74 us) and the
#   AllReduce alone (the collective workload's time), and within 15 us
#   more (the AllGather: 7/8 x 4 MiB at NVLink's 441.17 GB/s payload rate,
#   8.32 us, plus its 14 hops).
# - a trace's collectives streamed (made as they become ready, when
#   flows.csv is not written) give the listed run's results: the same
#   summary.json key for key (the wall clock's aside) and ports.csv byte
#   for byte, for chakra-pp, nccl-step.log and nccl-step.log under the
#   NCCL model, on one thread and on two;
# - NCCL's count of an AllReduce is its S, the buffer each rank has: 512
#   MiB over 16 ranks is taken (within the 2 GiB message bound).
#   chakra.sh FABEMU EXPERIMENTS_DIR TOOLS_DIR
set -eu
fabemu=$1
dir=$(cd "$2" && pwd)
tools=$(cd "$3" && pwd)
. "$(dirname "$0")/lib.sh"

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
MiB = 1 << 20
ar = {"ranks": [[{"id": 1, "type": "COMP", "name": "fwd", "dur_us": 100},
                 {"id": 2, "type": "COLL", "comm_type": 0, "comm_size": 16 * MiB, "deps": [1]}]
                for r in range(16)]}
json.dump(ar, open(d + "/ar.json", "w"))
# A barrier after computes of 100, 200, 300 us, the nodes listed
# backwards (the barrier first, its dependency after it).
bar = {"ranks": [[{"id": 7, "type": "COLL", "comm_type": 9, "deps": [3]},
                  {"id": 3, "type": "COMP", "dur_us": 100 * (1 + r % 3)}] for r in range(4)]}
json.dump(bar, open(d + "/bar.json", "w"))
PY
python3 "$tools/chakra.py" encode "$tmp/ar.json" "$tmp/ar.{rank}.et"
python3 "$tools/chakra.py" decode "$tmp/ar.{rank}.et" 16 >"$tmp/ar.back.json"
python3 "$tools/chakra.py" encode "$tmp/ar.back.json" "$tmp/again.{rank}.et"
python3 - "$tmp" <<'PY' || fail=1
import json, sys
from scen import say, done
d = sys.argv[1]
a = json.load(open(d + "/ar.json"))
b = json.load(open(d + "/ar.back.json"))
say(a == b, "the description read back is the one written")
same = all(open("%s/ar.%d.et" % (d, r), "rb").read() == open("%s/again.%d.et" % (d, r), "rb").read()
           for r in range(16))
say(same, "written again from what was read: the same bytes")
done()
PY

cat >"$tmp/trace.yaml" <<YAML
name: chakra-ar
topology: {file: $dir/../topologies/rail-2node-8gpu.yaml}
nic: {mtu: 4096}
traffic:
  - {kind: trace, format: chakra, file: "$tmp/ar.{rank}.et", hosts: ["node*/gpu*"]}
YAML
cat >"$tmp/coll.yaml" <<YAML
name: coll-ar
topology: {file: $dir/../topologies/rail-2node-8gpu.yaml}
nic: {mtu: 4096}
traffic:
  - {kind: collective, name: ar, collective: all-reduce, size: 16MiB, compute: 100us}
YAML
same_end() { # WHAT A.yaml B.yaml OUT_A OUT_B: both run; the same end and hops
	"$fabemu" run "$2" -o "$4" -q || bad "$1: $2's run"
	"$fabemu" run "$3" -o "$5" -q || bad "$1: $3's run"
	local ea eb ha hb
	ea=$(key "$4/summary.json" sim_time_ns) eb=$(key "$5/summary.json" sim_time_ns)
	ha=$(key "$4/summary.json" packet_hops) hb=$(key "$5/summary.json" packet_hops)
	check "$1 end together: $ea and $eb ns, $ha and $hb hops" "$ea == $eb && $ha == $hb && $eb > 50000"
}
same_end "trace and collective" "$tmp/trace.yaml" "$tmp/coll.yaml" "$tmp/t" "$tmp/c"
c_end=$(key "$tmp/c/summary.json" sim_time_ns)

"$fabemu" run "$tmp/trace.yaml" -o "$tmp/tn" -q --set traffic.0.nccl=on || bad "the trace's run, NCCL model"
"$fabemu" run "$tmp/coll.yaml" -o "$tmp/cn" -q --set traffic.0.nccl=on || bad "the collective's run, NCCL model"
tn_end=$(key "$tmp/tn/summary.json" sim_time_ns)
cn_end=$(key "$tmp/cn/summary.json" sim_time_ns)
check "under the NCCL model too: $tn_end and $cn_end ns (without it $c_end)" "$tn_end == $cn_end && $cn_end != $c_end"

"$fabemu" check "$dir/chakra-pp.yaml" -o "$tmp/pp" -q >"$tmp/pp.txt" ||
	{ cat "$tmp/pp.txt"; bad "chakra-pp: its expect list"; }

python3 "$tools/chakra.py" encode "$tmp/bar.json" "$tmp/bar.{rank}.et"
cat >"$tmp/bar.yaml" <<YAML
name: chakra-barrier
topology: {file: $dir/../topologies/rail-2node-8gpu.yaml}
traffic:
  - {kind: trace, format: chakra, file: "$tmp/bar.{rank}.et", hosts: [node0/gpu0, node0/gpu1, node1/gpu0, node1/gpu1]}
YAML
"$fabemu" run "$tmp/bar.yaml" -o "$tmp/b" -q || bad "the barrier's run"
b_end=$(key "$tmp/b/summary.json" sim_time_ns)
check "the barrier ends after the longest compute, within 50 us: $b_end ns" \
	"$b_end > 300000 && $b_end < 350000"

python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
out = []
for h in range(2):
    for g in range(8):
        r = h * 8 + g
        pre = "node%d:%d:%d [%d] NCCL INFO " % (h, 1000 + g, 2000 + g, g)
        out.append(pre + "comm 0x55%04x rank %d nranks 16 cudaDev %d busId 18000 commId 0x8e79 - Init COMPLETE" % (r, r, g))
        out.append(pre + "AllReduce: opCount 0 sendbuff 0x7f00 recvbuff 0x7f00 count 4194304 datatype 7 op 0 root 0 comm 0x55%04x [nranks=16] stream 0x1" % r)
open(d + "/ar.log", "w").write("\n".join(out) + "\n")
PY
cat >"$tmp/log.yaml" <<YAML
name: nccl-log-ar
topology: {file: $dir/../topologies/rail-2node-8gpu.yaml}
nic: {mtu: 4096}
traffic:
  - {kind: trace, format: nccl-log, file: "$tmp/ar.log", hosts: ["node*/gpu*"]}
YAML
sed -e 's/size: 16MiB, compute: 100us/size: 16MiB/' "$tmp/coll.yaml" >"$tmp/coll0.yaml"
same_end "NCCL log and collective" "$tmp/log.yaml" "$tmp/coll0.yaml" "$tmp/l" "$tmp/c0"
c0_end=$(key "$tmp/c0/summary.json" sim_time_ns)
sed -e "s|file: \"$tmp/ar.log\"|file: $dir/traces/nccl-step.log|" "$tmp/log.yaml" >"$tmp/step.yaml"
"$fabemu" run "$tmp/step.yaml" -o "$tmp/s" -q || bad "nccl-step.log's run"
s_end=$(key "$tmp/s/summary.json" sim_time_ns)
check "nccl-step.log: $s_end ns, after the send and the all-reduce ($c0_end + 87740) and within 15 us more" \
	"$s_end >= $c0_end + 87740 && $s_end <= $c0_end + 87740 + 15000"

# A 512 MiB AllReduce of 16 ranks is taken (its S is the buffer, under
# the 2 GiB message bound, not 16 x it): the run starts (cut at 1 s of
# wall clock: status 1), where a refusal would exit 2.
sed -e 's/count 4194304/count 134217728/' "$tmp/ar.log" >"$tmp/ar512.log"
sed -e "s|ar.log|ar512.log|" "$tmp/log.yaml" >"$tmp/log512.yaml"
rc=0
"$fabemu" run "$tmp/log512.yaml" -o "$tmp/l512" -q --max-wall 1s 2>"$tmp/l512.err" || rc=$?
check "a 512 MiB AllReduce of 16 ranks is taken (status $rc, not 2)" "$rc != 2"

streamed() { # LABEL FILE ARGS...: listed and streamed runs agree
	local label=$1 f=$2 th
	shift 2
	for th in 1 2; do
		"$fabemu" run "$f" -o "$tmp/lst" -q --threads $th --set outputs.flows_csv=true "$@" || bad "$label: listed run"
		"$fabemu" run "$f" -o "$tmp/str" -q --threads $th --set outputs.flows_csv=false "$@" || bad "$label: streamed run"
		python3 - "$tmp/lst/summary.json" "$tmp/str/summary.json" "$label, $th thread(s)" <<'PY' || fail=1
import json, sys
from scen import summary
a, b = (summary(f) for f in sys.argv[1:3])
peak = json.load(open(sys.argv[2]))["wall_clock"]["messages_in_flight_peak"]
diff = [k for k in a if a[k] != b.get(k)]
ok = not diff and peak > 0
print(("ok: %s: streamed (%d messages at most in flight) = listed, %d keys" % (sys.argv[3], peak, len(a))) if ok else
      "FAIL: %s: streamed peak %d, differ at %s" % (sys.argv[3], peak, ", ".join(diff[:5])))
sys.exit(0 if ok else 1)
PY
		cmp -s "$tmp/lst/ports.csv" "$tmp/str/ports.csv" || bad "$label, $th thread(s): ports.csv differs"
	done
}
streamed "chakra-pp" "$dir/chakra-pp.yaml"
streamed "nccl-step.log" "$tmp/step.yaml"
streamed "nccl-step.log, NCCL model" "$tmp/step.yaml" --set traffic.0.nccl=on
exit "$fail"
