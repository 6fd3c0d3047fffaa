#!/usr/bin/env bash
# Chakra execution traces (trace format chakra), against independent
# expectations:
# - round trip: a description written by tools/chakra.py and read back by
#   it is the same description, and the files written again from what was
#   read are byte for byte the same (the writer and reader agree on the
#   wire format; fabemu's reader is checked by the runs below);
# - the same work two ways: 16 ranks each computing 100 us and then
#   all-reducing 16 MiB, as a Chakra trace, end at the same picosecond
#   and move the same packet hops as the collective workload of that size
#   with compute: 100us (the trace's graph is the collective kind's);
# - experiments/chakra-pp.yaml (sends, receives, process groups) within
#   its hand-derived critical path (its expect: list; the test
#   experiment-chakra-pp is its check in the release set);
# - a barrier (comm_type 9) and a rank whose nodes come before their
#   dependencies in the file: the barrier ends after every rank's compute
#   (the longest, 300 us) and before 300 us plus its ring's latency.
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
"$fabemu" run "$tmp/trace.yaml" -o "$tmp/t" -q || bad "the trace's run"
"$fabemu" run "$tmp/coll.yaml" -o "$tmp/c" -q || bad "the collective's run"
t_end=$(key "$tmp/t/summary.json" sim_time_ns)
c_end=$(key "$tmp/c/summary.json" sim_time_ns)
t_hops=$(key "$tmp/t/summary.json" packet_hops)
c_hops=$(key "$tmp/c/summary.json" packet_hops)
check "trace and collective end together: $t_end and $c_end ns, $t_hops and $c_hops hops" \
	"$t_end == $c_end && $t_hops == $c_hops && $c_end > 100000"

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
exit "$fail"
