#!/usr/bin/env bash
# The DCQCN victim flow, experiments/dcqcn-victim.yaml: F1 (h34 -> h18)
# shares the spine -> leaf1 link with an incast into R2 (h17, 3..4 ms).
# Independent expectation: the ns-3 validation study of DCQCN (Zhu et al.,
# SIGCOMM 2015; yibo-zhu dcqcn-ns3): F1, whose own path is idle, is paused
# and marked in the shared upstream queue, its DCQCN rate is cut, and the
# link to R1 stays under-utilised for about 16 ms. Asserted (rates.csv,
# series.csv, summary.json):
# - the switch pauses (pfc.xoff_sent > 0) and every incast message completes;
# - F1's own egress port (leaf1:1) never queues Kmax (100 KB): F1 is a victim;
# - before 3 ms F1's rate is the line rate (mean >= 39 Gb/s of 40);
# - the sign: F1's rate falls below 25% of that between 3 and 6 ms
#   (measured 0.95 Gb/s, 2.4%);
# - the order of magnitude of the recovery: F1's rate is back to half its
#   pre-incast rate between 1.6 ms and 160 ms after the incast's end, 4 ms
#   (a factor 10 around the study's 16 ms; measured 23 ms).
# Extra arguments go to the run: with --set nic.cc=none it must fail (no dip).
#   dcqcn_victim.sh FABEMU EXPERIMENTS_DIR [--set K=V]...
set -eu
fabemu=$1
dir=$2
shift 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/summary.sh"
"$fabemu" run "$dir/dcqcn-victim.yaml" -o "$tmp/out" -q "$@"
r=$tmp/out/rates.csv
before=$(awk -F, '$2 == "f1" && $1 < 3e6 { s += $7; n++ } END { printf "%.0f", n ? s / n : 0 }' "$r")
low=$(awk -F, '$2 == "f1" && $1 >= 3e6 && $1 <= 6e6 && (!n++ || $7 < m) { m = $7 } END { printf "%.0f", m }' "$r")
# first sample after the dip (from 4 ms on) at half the rate before 3 ms
back=$(awk -F, -v h="$before" '$2 == "f1" && $1 >= 4e6 && $7 >= h / 2 { printf "%.0f", $1; exit }' "$r")
back=${back:--1}
qmax=$(awk -F, '$2 == "leaf1:1" && $3 > m { m = $3 } END { printf "%.0f", m }' "$tmp/out/series.csv")
xoff=$(value "$tmp/out/summary.json" pfc.xoff_sent)
left=$(awk -F, 'NR > 1 && $12 ~ /^b/ && $13 != "complete" { n++ } END { print n + 0 }' "$tmp/out/flows.csv")
echo "F1: $before bit/s before, $low at least during the incast, half back at $back ns; R1 port queue max $qmax B; $xoff pauses"
check "the switch pauses ($xoff)" "$xoff > 0"
check "every incast message completes ($left left)" "$left == 0"
check "F1's own port queue $qmax B < Kmax 100 KB" "$qmax < 100000"
check "F1 at line rate before the incast ($before bit/s)" "$before >= 39e9"
check "F1's rate dips below 25% ($low of $before bit/s)" "$low < 0.25 * $before"
check "F1 half recovered 1.6..160 ms after 4 ms (at $back ns)" \
	"$back >= 4e6 + 1.6e6 && $back <= 4e6 + 160e6"
exit "$fail"
