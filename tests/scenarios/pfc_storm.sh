#!/usr/bin/env bash
# experiments/pfc-storm.yaml (its header gives the expectations): the
# file's expect: list, and from series.csv (the leaf's port toward the
# storming NIC, every 10 us) the watchdog's trip: the port's priority 3
# is first paused within a sample of the storm's start (1 ms), and the
# pause is lifted by the watchdog (the queue emptied by its drops) while
# the storm goes on, between the detection time (500 us) and the
# detection time and a poll (750 us) later, give or take a sample; after
# the storm and the restoration time the port sends to the NIC again.
#   pfc_storm.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" check "$dir/pfc-storm.yaml" -o "$tmp/s" -q >"$tmp/check.txt" || { cat "$tmp/check.txt"; fail=1; }
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
from scen import say, done
tmp = sys.argv[1]
rows = [(float(r["time_ns"]) / 1e3, int(r["paused_prio_mask"]), int(r["tx_bytes"]), int(r["queue_bytes"]))
        for r in csv.DictReader(open("%s/s/series.csv" % tmp))]
paused = [t for t, m, _, _ in rows if m & 8]
start = paused[0]
say(1000 <= start <= 1010, "priority 3 paused from %.0f us (the storm starts at 1000)" % start)
trip = next(t for t, m, _, q in rows if t > start and not m & 8)
say(500 - 10 <= trip - 1000 <= 750 + 10,
    "the watchdog lifted the pause at %.0f us: %.0f us after the storm began (500..750)" % (trip, trip - 1000))
say(all(q == 0 for t, _, _, q in rows if trip <= t < 5000),
    "the stormed queue stays empty while the storm goes on (its frames dropped)")
tx = {t: b for t, _, b, _ in rows}
late = [t for t in sorted(tx) if t > 5500]
say(late and tx[late[-1]] > tx[late[0]], "after the storm and the restoration the port sends to h3 again")
done()
PY
[ "$fail" = 0 ] && echo "pfc storm: OK"
exit "$fail"
