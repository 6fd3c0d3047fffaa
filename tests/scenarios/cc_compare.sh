#!/usr/bin/env bash
# DCQCN against no congestion control on experiments/dcqcn-incast.yaml (an
# 8:1 incast of long flows, PFC and ECN marking on), same seed and traffic.
# Independent expectations (Zhu et al., SIGCOMM 2015, sections 2 and 6: DCQCN
# keeps queues short so that PFC is rarely triggered):
# - with nic.cc=none the senders never slow down for the marks: the
#   bottleneck queue grows until PFC pauses them;
# - with dcqcn the CNPs cut the rates: the mean queue at the bottleneck
#   port (series.csv) is at most a third of none's, its peak is lower, and
#   no PFC pause is sent where none's run sends some;
# - and the link stays busy: goodput at least 85% of none's.
#   cc_compare.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/summary.sh"
meanq() { # SERIES.CSV PORT: mean queue_bytes of PORT
	awk -F, -v p="$2" 'NR > 1 && $2 == p { s += $3; n++ } END { printf "%.0f", n ? s / n : 0 }' "$1"
}

"$fabemu" run "$dir/dcqcn-incast.yaml" -o "$tmp/dcqcn" -q
"$fabemu" run "$dir/dcqcn-incast.yaml" -o "$tmp/none" -q --set nic.cc=none 2>/dev/null
dq=$(meanq "$tmp/dcqcn/series.csv" leaf0:0)
nq=$(meanq "$tmp/none/series.csv" leaf0:0)
dp=$(value "$tmp/dcqcn/summary.json" switch.queue_peak_bytes)
np=$(value "$tmp/none/summary.json" switch.queue_peak_bytes)
dx=$(value "$tmp/dcqcn/summary.json" pfc.xoff_sent)
nx=$(value "$tmp/none/summary.json" pfc.xoff_sent)
dg=$(value "$tmp/dcqcn/summary.json" workloads.incast.goodput_gbps)
ng=$(value "$tmp/none/summary.json" workloads.incast.goodput_gbps)
dc=$(value "$tmp/dcqcn/summary.json" cc.rate_cuts)
check "dcqcn cuts rates ($dc cuts)" "$dc > 0"
check "mean queue dcqcn $dq B <= none $nq B / 3" "$dq * 3 <= $nq"
check "peak queue dcqcn $dp B < none $np B" "$dp < $np"
check "PFC pauses: dcqcn $dx, none $nx" "$dx == 0 && $nx > 0"
check "goodput dcqcn $dg >= 0.85 x none $ng Gb/s" "$dg >= 0.85 * $ng"
exit "$fail"
