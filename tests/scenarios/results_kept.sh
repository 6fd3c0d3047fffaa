#!/usr/bin/env bash
# The results folder across runs (issue 23), checked against what the
# docs promise (docs/results.md, "The results folder"):
# - an earlier run's results are removed only once the new run is known
#   to start: a run refused at build time (a credit buffer that cannot hold
#   a frame), at a bad capture folder or at DPDK's set-up exits 2 and
#   leaves them byte for byte;
# - a symbolic link in the place of a result file is replaced, its target
#   left alone;
# - messages left incomplete by failed QPs are said on stderr even with -q,
#   and `check` fails such a run unless an assertion expects it.
#   results_kept.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"
cat >"$tmp/ok.yaml" <<'YAML'
name: kept
topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
traffic:
  - {kind: permutation, name: p, size: 64KiB}
YAML
cat >"$tmp/ib-small.yaml" <<'YAML'
name: kept
topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric:
  link_layer: infiniband
  ib: {vl_buffer: 1KiB, credit_update: 512B}
traffic:
  - {kind: permutation, name: p, size: 64KiB}
capture: {ports: [h0:0]}
YAML
d=$tmp/res
"$fabemu" run "$tmp/ok.yaml" -o "$d" -q
sums() { (cd "$d" && sha256sum summary.json flows.csv ports.csv resolved.yaml); }
before=$(sums)

refused() { # NAME REGEX ARGS...: exit 2, REGEX on stderr, the folder as it was
	local name=$1 re=$2 rc=0
	shift 2
	"$fabemu" run "$@" -o "$d" -q 2>"$tmp/err" >/dev/null || rc=$?
	[ "$rc" -eq 2 ] || bad "$name: exit status $rc, not 2: $(cat "$tmp/err")"
	grep -Eq "$re" "$tmp/err" || bad "$name: message: $(cat "$tmp/err")"
	[ "$(sums 2>&1)" = "$before" ] || bad "$name: the earlier results were changed or removed"
}
# Refused when the fabric is built (after the load): the experiment's line.
refused vl-buffer "ib-small.yaml:6:[0-9]+: fabric.ib.vl_buffer of 1024 bytes cannot hold one frame \(4138 bytes at nic.mtu 4096\)" \
	"$tmp/ib-small.yaml"
# A capture folder that is a file.
: >"$d/capture"
refused capture-file "capture: exists and is not a folder" "$tmp/ok.yaml" --set 'capture.ports=[h0:0]'
rm "$d/capture"
# DPDK's set-up refuses its arguments.
refused eal "EAL|eal|option" "$tmp/ok.yaml" -- --no-such-eal-option

# A link where a result file goes: replaced by the file, the target kept.
echo "not yours" >"$tmp/target"
rm "$d/flows.csv"
ln -s "$tmp/target" "$d/flows.csv"
"$fabemu" run "$tmp/ok.yaml" -o "$d" -q
[ "$(cat "$tmp/target")" = "not yours" ] || bad "link: its target was written"
[ -f "$d/flows.csv" ] && [ ! -L "$d/flows.csv" ] || bad "link: flows.csv is not a file of its own"

# QPs that fail (retries exhausted in an incast), and -q.
cat >"$tmp/giveup.yaml" <<'YAML'
name: giveup
topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 9,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric: {buffer: 256KiB}
nic: {rto: 5us, rto_max: 5us, retry_cnt: 1}
traffic:
  - {kind: incast, dst: h0, count: 8, size: 1MiB}
expect:
  - {metric: drops.buffer, op: ">", value: 0}
YAML
rc=0
"$fabemu" run "$tmp/giveup.yaml" -o "$tmp/g" -q 2>"$tmp/err" || rc=$?
[ "$rc" -eq 0 ] || bad "-q run: exit status $rc"
grep -Eq "^fabemu: WARNING: [1-9][0-9]* messages did not complete \([1-9][0-9]* of them failed with their QP\), [1-9][0-9]* QPs failed$" "$tmp/err" ||
	bad "-q run: no WARNING line: $(cat "$tmp/err")"
rc=0
"$fabemu" check "$tmp/giveup.yaml" -o "$tmp/g" -q >"$tmp/out" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || bad "check, failures not expected: exit status $rc, not 1"
grep -q "^FAIL messages complete: " "$tmp/out" || bad "check: no FAIL line: $(cat "$tmp/out")"
grep -q "^1 passed, 0 failed; messages incomplete$" "$tmp/out" || bad "check: verdict: $(cat "$tmp/out")"
# Expected by an assertion: check passes.
rc=0
"$fabemu" check "$tmp/giveup.yaml" -o "$tmp/g" -q \
	--set 'expect=[{metric: messages.failed, op: ">=", value: 1}]' >"$tmp/out" 2>/dev/null || rc=$?
[ "$rc" -eq 0 ] || bad "check, failures expected: exit status $rc: $(cat "$tmp/out")"
[ "$fail" -eq 0 ] && echo "results kept: OK (refusals leave the earlier results; links replaced; failed QPs said with -q, failed by check)"
exit "$fail"
