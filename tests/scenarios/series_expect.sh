#!/usr/bin/env bash
# Assertions over a time series (expect: series, port, after, before): a
# 3-to-1 incast with PFC samples the leaf's port toward the receiver every
# microsecond. Independent expectation: the same samples read from
# series.csv here in Python: each assertion reports the sample that
# decides it (the largest for <=, the smallest for >, the farthest for ==)
# and passes exactly when every sample in its window holds; a window with
# no sample fails. Bad input: a port that is not sampled, a series without
# a port, metric and series together, before earlier than after, a port on
# a metric assertion: FILE:LINE:COL, exit 2.
#   series_expect.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"
head='topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 4,
  host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
nic: {mtu: 4096}
fabric: {pfc: {priorities: [3]}}
traffic: [{kind: incast, srcs: [h1, h2, h3], dst: h0, size: 1MiB}]
outputs: {series: {ports: ["leaf0:0"], interval: 1us}}'
printf '%s\n' "$head" "expect:" \
	"  - {series: queue_bytes, port: 'leaf0:0', op: '<=', value: 4000000}" \
	"  - {series: queue_bytes, port: 'leaf0:0', op: '<=', value: 1000000}" \
	"  - {series: queue_bytes, port: 'leaf0:0', after: 10us, before: 200us, op: '>', value: 100000}" \
	"  - {series: paused_prio_mask, port: 'leaf0:0', op: '==', value: 0}" \
	"  - {series: queue_bytes, port: 'leaf0:0', after: 1s, op: '==', value: 0}" >"$tmp/s.yaml"
rc=0
"$fabemu" check "$tmp/s.yaml" -o "$tmp/r" -q >"$tmp/out.txt" || rc=$?
[ "$rc" -eq 1 ] || bad "exit $rc, not 1 (two assertions fail)"
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
from scen import say, done
tmp = sys.argv[1]
rows = [r for r in csv.DictReader(open("%s/r/series.csv" % tmp)) if r["port"] == "leaf0:0"]
out = [l.strip() for l in open("%s/out.txt" % tmp) if l.startswith(("PASS", "FAIL"))]
q = [(float(r["time_ns"]), int(r["queue_bytes"])) for r in rows]
top = max(b for _, b in q)
low = min(b for t, b in q if 10000 <= t <= 200000)
want = [
    ("PASS" if top <= 4e6 else "FAIL", "measured %d" % top),
    ("PASS" if top <= 1e6 else "FAIL", "measured %d" % top),
    ("PASS" if low > 1e5 else "FAIL", "measured %d" % low),
    ("PASS", "measured 0"),
    ("FAIL", "no sample there"),
]
say(len(out) == len(want), "%d verdicts" % len(out))
for line, (verdict, tail) in zip(out, want):
    say(line.startswith(verdict) and line.endswith(tail), "%s (expected %s ... %s)" % (line, verdict, tail))
done()
PY
# Bad input.
bad_case() { # NAME REGEX LINE
	local name=$1 re=$2 rc=0
	printf '%s\n' "$head" "expect: [$3]" >"$tmp/$name.yaml"
	"$fabemu" check "$tmp/$name.yaml" -o "$tmp/res-$name" -q >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || bad "$name: exit $rc, not 2"
	grep -Eq -- "$re" "$tmp/err" || bad "$name: message: $(cat "$tmp/err")"
}
bad_case unsampled "unsampled.yaml:7:[0-9]+: leaf0:1 is not sampled" "{series: queue_bytes, port: 'leaf0:1', op: '<=', value: 1}"
bad_case no-port "no-port.yaml:7:[0-9]+: a series assertion needs 'port'" "{series: queue_bytes, op: '<=', value: 1}"
bad_case both "both.yaml:7:[0-9]+: an assertion names a 'metric' or a 'series', one of the two" \
	"{metric: drops.total, series: queue_bytes, port: 'leaf0:0', op: '<=', value: 1}"
bad_case window "window.yaml:7:[0-9]+: before is earlier than after" \
	"{series: queue_bytes, port: 'leaf0:0', after: 2us, before: 1us, op: '<=', value: 1}"
bad_case port-on-metric "port-on-metric.yaml:7:[0-9]+: port, after and before belong to a series assertion" \
	"{metric: drops.total, port: 'leaf0:0', op: '<=', value: 1}"
bad_case series-baseline "series-baseline.yaml:7:[0-9]+: a series assertion takes no 'baseline'" \
	"{series: queue_bytes, port: 'leaf0:0', op: '<=', baseline: 5%}"
bad_case column "column.yaml:7:[0-9]+: .*'queue_byte'" "{series: queue_byte, port: 'leaf0:0', op: '<=', value: 1}"
[ "$fail" = 0 ] && echo "series assertions: OK"
exit "$fail"
