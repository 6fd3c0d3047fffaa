#!/usr/bin/env bash
# An htsim connection matrix replays with a QP per line by default (the
# htsim-cm format's qp default, traffic/tg_trace_htsim.c), as htsim gives
# every line a source of its own. Two lines h0 -> h1: 4 MiB at 0, 64 KiB
# at 100 us. Expectations, from the fabric's ideal FCTs (flows.csv's
# ideal_fct_ns: the line alone on an idle path) and work conservation:
# - default (per-message): the short line shares the NIC with the long
#   one, at no less than half the line rate, so ideal2 <= FCT2 <= 2 x
#   ideal2; the link never idles, so the long line ends by ideal1 + ideal2;
# - qp: per-connection (the old default) still queues the short line
#   behind the long one: it ends when the long one has (end2 >= end1).
#   htsim_qp_default.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

printf '%s\n' "Nodes 2" "Connections 2" "0->1 id 1 start 0 size 4194304" \
	"0->1 id 2 start 100000000 size 65536" >"$tmp/two.cm"
for q in default per-connection; do
	extra=""
	[ "$q" = default ] || extra=", qp: $q"
	printf '%s\n' "topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 2}" \
		"traffic: [{kind: trace, file: two.cm, format: htsim-cm$extra}]" >"$tmp/$q.yaml"
	"$fabemu" run "$tmp/$q.yaml" -o "$tmp/$q" -q
done
row() { # FOLDER ID COLUMN: a value of flows.csv
	awk -F, -v id="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == id { print $c[col] }' "$tmp/$1/flows.csv"
}
i1=$(row default 0 ideal_fct_ns) i2=$(row default 1 ideal_fct_ns)
f2=$(row default 1 fct_ns) e1=$(row default 0 end_ns)
check "per-message: the 64 KiB line at half the line rate or better: $i2 <= FCT $f2 <= 2 x $i2" \
	"$f2 >= $i2 - 0.001 && $f2 <= 2 * $i2"
check "per-message: work conserving, the 4 MiB line ends $e1 <= $i1 + $i2 ns" "$e1 <= $i1 + $i2"
e1=$(row per-connection 0 end_ns) e2=$(row per-connection 1 end_ns)
check "per-connection: the 64 KiB line queues behind the 4 MiB one: ends $e2 >= $e1" "$e2 >= $e1"
exit $fail
