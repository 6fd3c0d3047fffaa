#!/usr/bin/env bash
# IB congestion control's source algorithm (ibcc) on a RoCE incast
# (tests/scenarios/ibcc-incast.yaml: 4 flows into h0, 8 into h5, 100 Gb/s).
# Independent expectations (the analytic fair share; IBTA A10's BECN per
# FECN):
# - for N = 4 and 8, over the last 3 ms, each flow's mean rate (rates.csv)
#   is within 15% of C/N, Jain's index (sum x)^2 / (N sum x^2) >= 0.99,
#   and the rates add up to C = 100 Gb/s within 15%;
# - CNPs sent equal the CE marks less at most one per flow (marked packets
#   still in flight at the stop): no CNP interval throttles the BECNs.
#   ibcc_fairness.sh FABEMU SCENARIOS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"
t0=7000000 # ns: the last 3 ms of the 10 ms run
stats() { # RATES.CSV WORKLOAD: "JAIN SUM_GBPS N MIN_GBPS MAX_GBPS" of the flows' mean rates from t0
	awk -F, -v w="$2" -v t0=$t0 'NR > 1 && $2 == w && $1 >= t0 { s[$3] += $7; n[$3]++ }
		END { lo = 1e30; hi = 0
		      for (k in s) { m = s[k] / n[k]; S += m; Q += m * m; N++
				     if (m < lo) lo = m; if (m > hi) hi = m }
		      printf "%.4f %.2f %d %.2f %.2f", N ? S * S / (N * Q) : 0, S / 1e9, N, lo / 1e9, hi / 1e9 }' "$1"
}

"$fabemu" run "$dir/ibcc-incast.yaml" -o "$tmp/ibcc" -q
for g in "n4 4" "n8 8"; do
	set -- $g
	read -r j sum n lo hi <<<"$(stats "$tmp/ibcc/rates.csv" "$1")"
	share=$(awk -v n="$2" 'BEGIN { printf "%.2f", 100 / n }')
	check "N=$n flows: $n, want $2" "$n == $2"
	check "N=$n every rate in [$lo, $hi] Gb/s within 15% of C/N = $share" \
		"$lo >= 0.85 * $share && $hi <= 1.15 * $share"
	check "N=$n Jain's index $j >= 0.99" "$j >= 0.99"
	check "N=$n rates add up to $sum Gb/s, C = 100 within 15%" "$sum >= 85 && $sum <= 115"
done
marks=$(key "$tmp/ibcc/summary.json" ecn.marked)
cnps=$(key "$tmp/ibcc/summary.json" nic.cnps_sent)
check "CNPs $cnps = CE marks $marks less at most 12 in flight" \
	"$marks > 1000 && $cnps <= $marks && $cnps >= $marks - 12"
exit "$fail"
