#!/usr/bin/env bash
# The busbw curve of experiments/allreduce-sweep-2x8.yaml (2 nodes x 8 GPUs
# at 400 Gb/s, ring all-reduce from 8 B to 1 GiB). Independent
# expectations (the collectives reference: nccl-tests' definitions, its
# section 4 figures and wire ceiling):
# - busbw = algbw x 2(n - 1)/n, recomputed here from size and time;
# - latency-bound at the small end: the time of 8 B to 8 KiB within 5% of
#   each other (the alpha term: 2(n - 1) steps of latency);
# - busbw rises with the size (never down by more than 1%);
# - a plateau: the three largest sizes within 2% of each other, between
#   46 GB/s per NIC (the low end measured on 400 Gb/s NDR clusters,
#   nccl-tests issue 290) and 49.0187 GB/s per NIC (400 Gb/s x 4096 /
#   4178: the payload ceiling with a 4 KiB MTU), never above it.
#   allreduce_sweep.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

# Through check: the experiment's expect: list too (the test
# experiment-allreduce-sweep-2x8 is in the release set only).
"$fabemu" check "$dir/allreduce-sweep-2x8.yaml" -o "$tmp/s" -q >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; bad "allreduce-sweep-2x8: its expect list"; }
python3 - "$tmp/s/collectives.csv" <<'PY' || fail=1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "complete"]
from scen import say, done
n = int(rows[0]["ranks"])
size = [int(r["size_bytes"]) for r in rows]
t = [float(r["time_us"]) for r in rows]
bus = [float(r["busbw_GBps"]) for r in rows]
say(len(rows) == 28 and size[0] == 8 and size[-1] == 2 ** 30, "28 sizes from 8 B to 1 GiB, all complete")
# (to the CSV's rounding: time in ns, busbw to 1e-6 GB/s)
bad = [s for s, x, b in zip(size, t, bus)
       if abs(b - s / (x * 1e-6) / 1e9 * 2 * (n - 1) / n) > 2e-6 + 1e-4 * b]
say(not bad, "busbw = S / time x 2(n-1)/n on every row%s" % (" (not %s)" % bad if bad else ""))
small = [x for s, x in zip(size, t) if s <= 8192]
say(max(small) <= 1.05 * min(small), "latency-bound: 8 B..8 KiB take %.2f..%.2f us" % (min(small), max(small)))
drops = [i for i in range(1, len(bus)) if bus[i] < 0.99 * bus[i - 1]]
say(not drops, "busbw never falls with size (%s)" % ", ".join("%d B" % size[i] for i in drops))
top = bus[-3:]
nic = [b / 8 for b in top]
say(max(top) <= 1.02 * min(top), "plateau: the last three sizes' busbw %.1f..%.1f GB/s" % (min(top), max(top)))
say(46 <= min(nic) and max(nic) <= 49.0187,
    "plateau per NIC %.2f..%.2f GB/s, between 46 (measured) and 49.02 (the ceiling)" % (min(nic), max(nic)))
done()
PY
exit "$fail"
