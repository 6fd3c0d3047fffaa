#!/usr/bin/env bash
# A congestion control that reacts to marks and to losses (DCTCP) where the
# link layer marks nothing: the run goes on with one warning at the cc key
# (docs/config.md, "What congestion control acts on"), also when marking
# is on for other classes than its traffic's; with the layer's marking on
# its class, no warning. Independent expectation: a 4:1 incast of 256 KiB
# WRITEs into one 100 Gb/s port, lossless (IB credits, RoCE PFC), gives the
# algorithm no signal when nothing marks, so it never cuts its window
# (cc.window_cuts 0); with marking on, the queue passes the marking
# threshold (IB CC's 16 KiB at threshold 15, RED's kmin 40 KB) within the
# first few microseconds of a 4x overload, and it cuts (window_cuts > 0).
# fabric.int set where no algorithm reads INT: one warning at the key.
#   cc_unmarked.sh FABEMU
set -u
fabemu=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # the runs start in $tmp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cat >"$tmp/x.yaml" <<'YAML'
name: cc-unmarked
topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 5,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
nic: {cc: dctcp}
fabric: {pfc: {priorities: [3]}}
traffic:
  - {kind: incast, name: incast, dst: h0, count: 4, size: 256KiB}
YAML
want_ib="x.yaml:4:11: warning: congestion control 'dctcp' reacts to congestion marks, but nothing marks its packets with fabric.link_layer: infiniband (fabric.ib_cc is off): it slows down on losses only"
want_roce="x.yaml:4:11: warning: congestion control 'dctcp' reacts to congestion marks, but nothing marks its packets with fabric.link_layer: roce (fabric.ecn is off): it slows down on losses only"

cuts() {
	sed -n 's/.*"window_cuts": *\([0-9]*\).*/\1/p' "$1/summary.json" | head -1
}

# run NAME WANT(warning or '') CUTS(0 or +) SETS...
run() {
	local name=$1 want=$2 cuts_want=$3
	shift 3
	(cd "$tmp" && "$fabemu" run x.yaml -o "$tmp/$name" -q "$@") >"$tmp/$name.out" 2>"$tmp/$name.err"
	local rc=$? c
	c=$(cuts "$tmp/$name")
	if [ "$rc" -ne 0 ]; then
		echo "FAIL [$name]: exit $rc"; cat "$tmp/$name.err"; fail=1; return
	fi
	if [ -n "$want" ] && [ "$(cat "$tmp/$name.err")" != "$want" ]; then
		echo "FAIL [$name]: want the one line"; echo "  $want"; echo "got:"; cat "$tmp/$name.err"; fail=1
	fi
	if [ -z "$want" ] && grep -q "marks packets" "$tmp/$name.err"; then
		echo "FAIL [$name]: a warning with marking on:"; cat "$tmp/$name.err"; fail=1
	fi
	if [ "$cuts_want" = 0 ] && [ "${c:-x}" != 0 ]; then
		echo "FAIL [$name]: cc.window_cuts $c, want 0 (nothing marks)"; fail=1
	fi
	if [ "$cuts_want" = + ] && ! [ "${c:-0}" -gt 0 ]; then
		echo "FAIL [$name]: cc.window_cuts ${c:-none}, want > 0 (marking on)"; fail=1
	fi
}

run ib-unmarked "$want_ib" 0 --set fabric.link_layer=infiniband
run ib-marked "" + --set fabric.link_layer=infiniband --set 'fabric.ib_cc={threshold: 15}'
run roce-unmarked "$want_roce" 0
run roce-marked "" + --set 'fabric.ecn={tcs: [3], kmin: 40KB, kmax: 160KB, pmax: 20%}'
# Marking on, but for class 0 only, and the incast's data is class 3.
run roce-other-class "${want_roce/fabric.ecn is off/fabric.ecn marks none of the classes its traffic uses}" 0 \
	--set 'fabric.ecn={tcs: [0], kmin: 40KB, kmax: 160KB, pmax: 20%}'
# fabric.int on where nothing reads the stacks (DCTCP): one warning at the
# key; with HPCC (which reads them) none at all.
run roce-int-unread "--set #2:1:12: warning: fabric.int adds a telemetry record per hop to every data frame, but no congestion control in use reads it (hpcc does): the frames grow for captures only" + \
	--set 'fabric.ecn={tcs: [3], kmin: 40KB, kmax: 160KB, pmax: 20%}' --set fabric.int=true
(cd "$tmp" && "$fabemu" run x.yaml -o "$tmp/int-read" -q --set nic.cc=hpcc --set nic.ack_every=1 \
	--set fabric.int=true) 2>"$tmp/int-read.err" || { echo "FAIL [int-read]: exit $?"; fail=1; }
if [ -s "$tmp/int-read.err" ]; then
	echo "FAIL [int-read]: want no warning with hpcc, got:"; cat "$tmp/int-read.err"; fail=1
fi
[ "$fail" -eq 0 ] && echo "cc unmarked: OK"
exit "$fail"
