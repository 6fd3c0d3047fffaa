#!/usr/bin/env bash
# outputs.flows_csv: auto (the default) writes flows.csv for runs of at
# most 100000 messages (EXP_FLOWS_CSV_AUTO_MSGS) and not beyond; true
# writes it whatever the count, false never. A csv trace of N one-byte
# messages h0 -> h1 at the edge: 100000 messages give flows.csv with a
# row each (100000 rows + header), 100001 none (the human summary says
# why), and 100001 with flows_csv: true its 100001 rows.
#   flows_csv_auto.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

for n in 100000 100001; do
	awk -v n="$n" 'BEGIN { print "start,src,dst,bytes"; for (i = 0; i < n; i++) print "0ns,0,1,1" }' \
		>"$tmp/m$n.csv"
	for mode in absent true; do
		out=""
		[ "$mode" = absent ] || out="outputs: {flows_csv: $mode}"
		printf '%s\n' "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}" \
			"traffic: [{kind: trace, file: m$n.csv}]" "$out" >"$tmp/$n-$mode.yaml"
		"$fabemu" run "$tmp/$n-$mode.yaml" -o "$tmp/$n-$mode" >"$tmp/$n-$mode.out"
	done
done
rows() { [ -e "$1/flows.csv" ] && wc -l <"$1/flows.csv" || echo 0; }
check "100000 messages, auto: flows.csv with 100001 lines (got $(rows "$tmp/100000-absent"))" \
	"$(rows "$tmp/100000-absent") == 100001"
check "100001 messages, auto: no flows.csv (got $(rows "$tmp/100001-absent") lines)" \
	"$(rows "$tmp/100001-absent") == 0"
grep -q "flows.csv: not written (100001 messages, over 100000" "$tmp/100001-absent.out" &&
	echo "ok: the summary says why" || bad "the summary does not say flows.csv was left out"
check "100001 messages, true: flows.csv with 100002 lines (got $(rows "$tmp/100001-true"))" \
	"$(rows "$tmp/100001-true") == 100002"
exit $fail
