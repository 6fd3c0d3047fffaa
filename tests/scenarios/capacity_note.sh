#!/usr/bin/env bash
# The offered-load line (docs/results.md, "Offered load and tier
# capacity"), against hand-computed ratios. A leaf-spine of 2 leaves x 4
# hosts at 100 Gb/s, each leaf with one 100 Gb/s link per spine, under the
# full permutation host i -> host i + 4 (stride 4: every message leaves its
# leaf, all posted at once, so each host offers its line rate): each
# leaf's hosts offer 4 x 100 = 400 Gb/s across its uplinks.
# - 1 spine (4:1 oversubscribed): 400 / 100 = 4.00x, one line.
# - 2 spines (2:1): 400 / 200 = 2.00x, one line.
# - 4 spines (non-blocking): 400 / 400 = 1.00x, no line.
# - 1 spine, each of leaf0's hosts sending two 256 KiB messages to the
#   other leaf, at 0 and at 100 us: it offers 2 x 256 KiB over 100 us,
#   41.94 Gb/s (below its line rate, which it would offer if both started
#   at once), 167.8 Gb/s from the leaf: 1.68x.
# - A k=4 fat-tree (non-blocking at every tier) under host i -> i + 8
#   (every message leaves its pod): no line; with the core links at 25
#   Gb/s, pod 0's 4 hosts offer 400 Gb/s across its aggregation switches'
#   4 x 25 = 100 Gb/s of core links: 4.00x at tier 2.
#   capacity_note.sh FABEMU
set -u
fabemu=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# case NAME SPINES WANT(regex, or '' for no line)
case_() {
	local name=$1 spines=$2 want=$3
	printf '%s\n' "topology: {kind: leaf-spine, leaves: 2, spines: $spines, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}" \
		'traffic: [{kind: permutation, stride: 4, size: 256KiB}]' >"$tmp/$name.yaml"
	"$fabemu" run "$tmp/$name.yaml" -o "$tmp/$name" -q >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		{ echo "FAIL [$name]: exit $?"; cat "$tmp/$name.err"; fail=1; return; }
	if [ -z "$want" ]; then
		if grep -q "note: the offered load" "$tmp/$name.err"; then
			echo "FAIL [$name]: a line on a fabric that carries its load:"; cat "$tmp/$name.err"; fail=1
		fi
	elif [ "$(grep -c "note: the offered load" "$tmp/$name.err")" != 1 ] ||
	     ! grep -Eq -- "$want" "$tmp/$name.err"; then
		echo "FAIL [$name]: want one line matching /$want/, got:"; cat "$tmp/$name.err"; fail=1
	fi
}

case_ over4 1 "over4.yaml:1:11: note: the offered load is 4.00x what tier 1's uplinks carry: the hosts under leaf0 offer 400.0 Gb/s across them, which carry 100.0 Gb/s each way"
case_ over2 2 "note: the offered load is 2.00x what tier 1's uplinks carry: the hosts under leaf0 offer 400.0 Gb/s across them, which carry 200.0 Gb/s"
case_ nonblocking 4 ''
msgs=""
for i in 0 1 2 3; do
	msgs="$msgs{src: h$i, dst: h$((i + 4)), size: 256KiB}, {src: h$i, dst: h$((i + 4)), size: 256KiB, start: 100us}, "
done
printf '%s\n' "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}" \
	"traffic: [{kind: messages, messages: [${msgs%, }]}]" >"$tmp/spread.yaml"
"$fabemu" run "$tmp/spread.yaml" -o "$tmp/spread" -q 2>"$tmp/spread.err" >/dev/null
grep -q "note: the offered load is 1.68x what tier 1's uplinks carry: the hosts under leaf0 offer 167.8 Gb/s across them, which carry 100.0 Gb/s each way" "$tmp/spread.err" ||
	{ echo "FAIL [spread]: want 1.68x, 167.8 Gb/s, got:"; cat "$tmp/spread.err"; fail=1; }
ft='topology: {kind: fat-tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}'
printf '%s\n' "$ft" 'traffic: [{kind: permutation, stride: 8, size: 64KiB}]' >"$tmp/ft.yaml"
"$fabemu" run "$tmp/ft.yaml" -o "$tmp/ft" -q 2>"$tmp/ft.err" >/dev/null
! grep -q "note: the offered load" "$tmp/ft.err" ||
	{ echo "FAIL [fat-tree]: a line on a non-blocking fat-tree:"; cat "$tmp/ft.err"; fail=1; }
printf '%s\n' "$ft" 'fabric: {links: [{ports: ["core*:*"], rate: 25Gbps}]}' \
	'traffic: [{kind: permutation, stride: 8, size: 64KiB}]' >"$tmp/ft2.yaml"
"$fabemu" run "$tmp/ft2.yaml" -o "$tmp/ft2" -q 2>"$tmp/ft2.err" >/dev/null
grep -q "note: the offered load is 4.00x what tier 2's uplinks carry: the hosts under edge0 and the switches of its tier and below joined to it offer 400.0 Gb/s across them, which carry 100.0 Gb/s each way" "$tmp/ft2.err" ||
	{ echo "FAIL [fat-tree-core]: want 4.00x at tier 2, got:"; cat "$tmp/ft2.err"; fail=1; }
[ "$fail" -eq 0 ] && echo "capacity note: OK"
exit "$fail"
