#!/usr/bin/env bash
# HPCC against DCQCN on experiments/hpcc-incast.yaml (an 8:1 incast of long
# flows into one 100 Gb/s port, PFC on), same seed and traffic; the DCQCN
# run adds ECN marking (RED 100/400 KB, 20%: the HPCC paper's DCQCN
# setting at 100 Gb/s). Independent expectations (Li et al., "HPCC: High
# Precision Congestion Control", SIGCOMM 2019, section 5, incast: HPCC
# keeps the queue near zero while DCQCN holds a standing queue; eta = 95%
# is HPCC's target utilisation):
# - HPCC reads INT on every ACK (cc.int_hops = data packets);
# - in steady state (from 100 us, after the first RTT's burst drained, to
#   the first completion) the mean queue at the bottleneck (series.csv)
#   is at most two MTUs with HPCC and at most a tenth of DCQCN's;
# - the bottleneck's utilisation then (frame bytes sent / line rate) is
#   at least 95% of eta (HPCC steers txRate/B + queue/BDP to eta, so the
#   link itself runs just under eta).
#   hpcc_compare.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/summary.sh"
first_end() { # FLOWS.CSV: the first completion, ns
	awk -F, 'NR > 1 && ($6 < m || !m) { m = $6 } END { printf "%.0f", m }' "$1"
}
steady() { # SERIES.CSV PORT FROM_NS TO_NS: mean queue bytes and Gb/s sent
	awk -F, -v p="$2" -v a="$3" -v b="$4" '
		NR > 1 && $2 == p && $1 >= a && $1 <= b {
			if (!n) { t0 = $1; x0 = $4 };
			s += $3; n++; t1 = $1; x1 = $4
		}
		END { printf "%.0f %.2f", (n ? s / n : 0), (t1 > t0 ? (x1 - x0) * 8 / (t1 - t0) : 0) }' "$1"
}

"$fabemu" run "$dir/hpcc-incast.yaml" -o "$tmp/hpcc" -q
"$fabemu" run "$dir/hpcc-incast.yaml" -o "$tmp/dcqcn" -q --set nic.cc=dcqcn \
	--set 'fabric.ecn={tcs: [3], kmin: 100KB, kmax: 400KB, pmax: 20%}'
he=$(first_end "$tmp/hpcc/flows.csv")
de=$(first_end "$tmp/dcqcn/flows.csv")
read -r hq hr <<<"$(steady "$tmp/hpcc/series.csv" leaf0:0 100000 "$he")"
read -r dq dr <<<"$(steady "$tmp/dcqcn/series.csv" leaf0:0 100000 "$de")"
hi=$(value "$tmp/hpcc/summary.json" cc.int_hops)
hd=$(value "$tmp/hpcc/summary.json" nic.data_packets)
echo "steady state: hpcc queue $hq B at $hr Gb/s, dcqcn queue $dq B at $dr Gb/s"
check "hpcc reads INT: $hi records for $hd data packets (one hop)" "$hi == $hd"
check "hpcc mean queue $hq B <= 2 MTUs" "$hq <= 2 * 1126"
check "hpcc mean queue $hq B <= dcqcn $dq B / 10" "$hq * 10 <= $dq"
check "hpcc utilisation $hr Gb/s >= 0.95 x eta x 100 Gb/s" "$hr >= 0.95 * 0.95 * 100"
exit "$fail"
