#!/usr/bin/env bash
# outputs.pfc_log: pfc_log.csv has a row per priority of every PFC frame,
# so its rows per port, direction and kind are pfc.csv's counters (xoff and
# xon, sent and received), times never go back, and xon rows carry 0 quanta.
#   pfc_log.sh FABEMU EXPERIMENT [--set k=v]...
set -eu
fabemu=$1
exp=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$fabemu" run "$exp" -o "$tmp/out" -q --set outputs.pfc_log=true "$@"
python3 - "$tmp/out" <<'PY'
import csv, sys
from collections import Counter
d = sys.argv[1]
want = Counter()
for r in csv.DictReader(open(d + "/pfc.csv")):
    port = "%s:%s" % (r["node"], r["port"])
    for key, col in (("tx", "xoff"), ("tx", "xon"), ("rx", "xoff"), ("rx", "xon")):
        n = int(r["%s_%s" % (col, "sent" if key == "tx" else "received")])
        if n:
            want[(port, key, col, r["priority"])] += n
rows = list(csv.DictReader(open(d + "/pfc_log.csv")))
assert rows, "pfc_log.csv has no rows"
got = Counter((r["port"], r["direction"], r["kind"], r["priority"]) for r in rows)
if got != want:
    for k in sorted(set(got) | set(want)):
        if got[k] != want[k]:
            print("pfc_log: FAIL: %s: %d rows, pfc.csv says %d" % (k, got[k], want[k]))
    sys.exit(1)
t = [float(r["time_ns"]) for r in rows]
assert all(a <= b for a, b in zip(t, t[1:])), "pfc_log: times go back"
for r in rows:
    assert (r["kind"] == "xon") == (r["quanta"] == "0"), "pfc_log: kind and quanta disagree: %s" % r
print("pfc_log: OK (%d rows, %d port/direction/kind/priority counters)" % (len(rows), len(want)))
PY
