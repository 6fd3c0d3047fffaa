#!/usr/bin/env bash
# Sweep values with labels (--sweep 'KEY=LABEL:VALUE,...'): the label
# names the point's folder instead of the encoded value, and the run is
# the run of VALUE: the labelled point's flows.csv is, byte for byte, that
# of `fabemu run` with --set KEY=VALUE; unlabelled values keep their
# encoded names; a label given twice is bad input.
#   sweep_labels.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

printf '%s\n' "name: lab" "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}" \
	"traffic: [{kind: permutation, size: 64KiB}]" >"$tmp/e.yaml"
fail_v='[{kind: link-down, ports: ["leaf0:2"], at: 1us}]'
"$fabemu" run "$tmp/e.yaml" -o "$tmp/sw" -q --sweep "faults=none:[],fail:$fail_v" --sweep 'nic.mtu=1024,big:4096'
got=$(cd "$tmp/sw" && find . -mindepth 1 -maxdepth 1 -type d | sort | tr '\n' ' ')
want="./faults=fail,nic.mtu=1024 ./faults=fail,nic.mtu=big ./faults=none,nic.mtu=1024 ./faults=none,nic.mtu=big "
check "folders named by the labels: $got" "\"$got\" == \"$want\""
"$fabemu" run "$tmp/e.yaml" -o "$tmp/one" -q --set "faults=$fail_v" --set nic.mtu=4096
if cmp -s "$tmp/one/flows.csv" "$tmp/sw/faults=fail,nic.mtu=big/flows.csv"; then
	echo "ok: the point 'fail,big' is the run of its values"
else
	bad "the labelled point's flows.csv differs from the run of its values"
fi
rc=0
"$fabemu" run "$tmp/e.yaml" -o "$tmp/bad" -q --sweep 'nic.mtu=a:1024,a:4096' 2>"$tmp/err" || rc=$?
check "a label given twice: exit $rc (2)" "$rc == 2"
grep -q "label or value 'a' given twice" "$tmp/err" && echo "ok: says so" || bad "message: $(cat "$tmp/err")"
exit $fail
