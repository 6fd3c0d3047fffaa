#!/usr/bin/env bash
# Swift and TIMELY against no congestion control on
# experiments/delay-incast.yaml (an 8:1 incast of long flows into one 100
# Gb/s port, PFC on, no ECN, an ACK per packet), same seed and traffic.
# Independent expectations:
# - Swift (Kumar et al., SIGCOMM 2020, section 3) holds the delay near its
#   target: the mean bottleneck queue is at most (target - base RTT) x rate
#   = (2 hops x 1 us + fs_range 5 us) x 100 Gb/s = 87.5 KB, a third of
#   none's at most, with no PFC pause where none pauses, and goodput at
#   least 85% of none's;
# - TIMELY (Mittal et al., SIGCOMM 2015) increases while the RTT is below
#   T_low = 50 us, so its mean queue stays below T_low x rate = 625 KB, a
#   third of none's at most; it oscillates around that point (goodput at
#   least 60% of none's).
#   delay_compare.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/summary.sh"
meanq() { # SERIES.CSV PORT: mean queue_bytes of PORT
	awk -F, -v p="$2" 'NR > 1 && $2 == p { s += $3; n++ } END { printf "%.0f", n ? s / n : 0 }' "$1"
}

for cc in swift timely none; do
	"$fabemu" run "$dir/delay-incast.yaml" -o "$tmp/$cc" -q --set nic.cc=$cc
done
sq=$(meanq "$tmp/swift/series.csv" leaf0:0)
tq=$(meanq "$tmp/timely/series.csv" leaf0:0)
nq=$(meanq "$tmp/none/series.csv" leaf0:0)
sx=$(value "$tmp/swift/summary.json" pfc.xoff_sent)
nx=$(value "$tmp/none/summary.json" pfc.xoff_sent)
sg=$(value "$tmp/swift/summary.json" workloads.incast.goodput_gbps)
tg=$(value "$tmp/timely/summary.json" workloads.incast.goodput_gbps)
ng=$(value "$tmp/none/summary.json" workloads.incast.goodput_gbps)
sc=$(value "$tmp/swift/summary.json" cc.window_cuts)
tc=$(value "$tmp/timely/summary.json" cc.rate_cuts)
check "swift cuts windows ($sc cuts), timely rates ($tc cuts)" "$sc > 0 && $tc > 0"
check "mean queue swift $sq B <= 87500 B and <= none $nq B / 3" "$sq <= 87500 && $sq * 3 <= $nq"
check "mean queue timely $tq B <= 625000 B and <= none $nq B / 3" "$tq <= 625000 && $tq * 3 <= $nq"
check "PFC pauses: swift $sx, none $nx" "$sx == 0 && $nx > 0"
check "goodput swift $sg >= 0.85 x none $ng Gb/s" "$sg >= 0.85 * $ng"
check "goodput timely $tg >= 0.6 x none $ng Gb/s" "$tg >= 0.6 * $ng"
exit "$fail"
