#!/usr/bin/env bash
# Streamed collectives (traffic/tg_stream.c): a ring all-reduce whose
# flows.csv is not written makes its messages as they become ready. Two
# independent expectations:
# - the listed engine's results: the same experiment with flows.csv
#   written (its messages listed before the run) gives the same
#   summary.json, key for key, but messages.in_flight_peak (0 listed);
# - memory follows what is in flight, not the job: 4 iterations (4x the
#   messages) make at most as many messages at once as 1, and never more
#   than 2 per slice chain of the ring (2 x 8 ranks x 1 channel x 16
#   slices of a 8 MiB chunk = 256), against 1,792 messages an instance.
#   stream_collectives.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

for it in 1 4; do
	printf '%s\n' "name: s$it" "seed: 1" \
		"topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 8, host_link: {rate: 400Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}" \
		"nic: {mtu: 4096}" \
		"traffic: [{kind: collective, name: ar, collective: all-reduce, size: 64MiB, iterations: $it}]" \
		>"$tmp/s$it.yaml"
	"$fabemu" run "$tmp/s$it.yaml" -o "$tmp/str$it" -q --set outputs.flows_csv=false
	"$fabemu" run "$tmp/s$it.yaml" -o "$tmp/lst$it" -q --set outputs.flows_csv=true
done
for it in 1 4; do
	python3 - "$tmp/lst$it/summary.json" "$tmp/str$it/summary.json" <<'PY' || fail=1
import json, sys
def flat(d, p=""):
    for k, v in d.items():
        if isinstance(v, dict):
            yield from flat(v, p + k + ".")
        else:
            yield p + k, v
skip = ("wall_clock.", "provenance.", "messages.in_flight_peak", "name")
a, b = (dict((k, v) for k, v in flat(json.load(open(f))) if not k.startswith(skip)) for f in sys.argv[1:])
diff = [k for k in a if a[k] != b.get(k)]
print(("ok: streamed summary.json equals the listed one (%d keys)" % len(a)) if not diff else
      "FAIL: streamed and listed differ at " + ", ".join(diff[:5]))
sys.exit(1 if diff else 0)
PY
done
p1=$(key "$tmp/str1/summary.json" messages.in_flight_peak)
p4=$(key "$tmp/str4/summary.json" messages.in_flight_peak)
m4=$(key "$tmp/str4/summary.json" messages.total)
check "4 iterations: 4 x 1,792 messages (got $m4)" "$m4 == 7168"
check "messages streamed at once with 1 iteration: 1 to 256 (got $p1)" "$p1 >= 1 && $p1 <= 256"
check "with 4 iterations no more than with 1 (got $p4, $p1)" "$p4 <= $p1"
check "listed runs stream nothing (got $(key "$tmp/lst1/summary.json" messages.in_flight_peak))" \
	"$(key "$tmp/lst1/summary.json" messages.in_flight_peak) == 0"
exit $fail
