#!/usr/bin/env bash
# Assertions against a stored baseline and relative to another metric
# (expect: baseline, of). The independent expectation is the baseline's
# own summary.json and the run's: an incast checked against a run of
# itself passes (p99 FCT within 5% of its own), the same incast with twice
# the bytes fails against it (p99 FCT about twice the baseline's) while
# its goodput still holds 0.9 x the baseline run's (read here from the
# baseline's summary.json and written into the file); and bad input
# exits 2 before anything runs: no --baseline, a folder that is not a
# results folder, a metric the run does not have, a baseline lacking the
# metric, an unknown `of` metric, a baseline assertion with a value.
#   baseline.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"
topo='topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 4,
  host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}'
traffic='traffic: [{kind: incast, srcs: [h1, h2, h3], dst: h0, size: 1MiB}]'
printf '%s\n' "$topo" "$traffic" "expect: [{metric: flows.fct_ns.p99, op: '<=', baseline: 5%}]" >"$tmp/b.yaml"
"$fabemu" run "$tmp/b.yaml" -o "$tmp/base" -q
rc=0
"$fabemu" check "$tmp/b.yaml" -o "$tmp/same" -q --baseline "$tmp/base" >"$tmp/same.txt" || rc=$?
[ "$rc" -eq 0 ] || bad "the same run against itself: exit $rc: $(cat "$tmp/same.txt")"
p99=$(key "$tmp/base/summary.json" flows.fct_ns.p99)
grep -q "PASS flows.fct_ns.p99 <= $p99 (the baseline's)" "$tmp/same.txt" || bad "no PASS against $p99: $(cat "$tmp/same.txt")"
rc=0
"$fabemu" check "$tmp/b.yaml" -o "$tmp/big" -q --baseline "$tmp/base" --set traffic.0.size=2MiB >"$tmp/big.txt" || rc=$?
[ "$rc" -eq 1 ] || bad "twice the bytes: exit $rc, not 1"
big=$(key "$tmp/big/summary.json" flows.fct_ns.p99)
check "twice the bytes: p99 $big about twice the baseline's $p99" "$big > 1.8 * $p99 && $big < 2.2 * $p99"
grep -q "FAIL flows.fct_ns.p99 <= $p99" "$tmp/big.txt" || bad "no FAIL line: $(cat "$tmp/big.txt")"
# of: the bound is a factor times another metric of the same run.
gp=$(key "$tmp/base/summary.json" goodput_gbps)
printf '%s\n' "$topo" "$traffic" \
	"expect: [{metric: goodput_gbps, op: '>=', value: 0.9, of: workloads.incast0.goodput_gbps}]" >"$tmp/of.yaml"
"$fabemu" check "$tmp/of.yaml" -o "$tmp/of" -q >"$tmp/of.txt" || bad "of: $(cat "$tmp/of.txt")"
grep -q "(0.9 x workloads.incast0.goodput_gbps)" "$tmp/of.txt" || bad "of: no bound line: $(cat "$tmp/of.txt")"
check "of: the run's goodput $gp >= 0.9 x its workload's" "$(key "$tmp/of/summary.json" goodput_gbps) >= 0.9 * $(key "$tmp/of/summary.json" workloads.incast0.goodput_gbps)"
# Bad input: exit 2, a clear line, nothing run.
bad_case() { # NAME REGEX ARGS...
	local name=$1 re=$2 rc=0
	shift 2
	"$fabemu" check "$@" -o "$tmp/res-$name" -q >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || bad "$name: exit $rc, not 2"
	grep -Eq -- "$re" "$tmp/err" || bad "$name: message: $(cat "$tmp/err")"
	[ ! -e "$tmp/res-$name/summary.json" ] || bad "$name: it ran"
}
bad_case no-baseline "b.yaml:4:[0-9]+: an assertion against the baseline needs --baseline DIR" "$tmp/b.yaml"
bad_case not-results "--baseline: .*summary.json" "$tmp/b.yaml" --baseline "$tmp"
printf '%s\n' "$topo" "$traffic" "expect: [{metric: collectives.x.time_us, op: '<=', baseline: 5%}]" >"$tmp/m.yaml"
bad_case lacks "unknown metric 'collectives.x.time_us'" "$tmp/m.yaml" --baseline "$tmp/base"
printf '%s\n' "$topo" 'traffic: [{kind: incast, name: other, srcs: [h1], dst: h0, size: 64KiB}]' >"$tmp/other.yaml"
"$fabemu" run "$tmp/other.yaml" -o "$tmp/other" -q
printf '%s\n' "$topo" "$traffic" "expect: [{metric: workloads.incast0.goodput_gbps, op: '>=', baseline: 5%}]" >"$tmp/w.yaml"
bad_case baseline-lacks "w.yaml:4:[0-9]+: the baseline .*/other/summary.json has no number 'workloads.incast0.goodput_gbps'" \
	"$tmp/w.yaml" --baseline "$tmp/other"
printf '%s\n' "$topo" "$traffic" "expect: [{metric: goodput_gbps, op: '>=', value: 1, of: goodput_gbs}]" >"$tmp/o.yaml"
bad_case of-unknown "unknown metric 'goodput_gbs' \(did you mean 'goodput_gbps'\?\)" "$tmp/o.yaml"
printf '%s\n' "$topo" "$traffic" "expect: [{metric: goodput_gbps, op: '>=', value: 1, baseline: 5%}]" >"$tmp/v.yaml"
bad_case with-value "an assertion against the baseline takes no value" "$tmp/v.yaml" --baseline "$tmp/base"
[ "$fail" = 0 ] && echo "baseline: OK"
exit "$fail"
