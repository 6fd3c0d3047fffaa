#!/usr/bin/env bash
# fct_bins.csv against flows.csv: the bins recomputed here, independently,
# from flows.csv (completed messages sorted by size, then id; 20 bins of
# floor(i n / 20) .. floor((i + 1) n / 20); nearest-rank percentiles of
# the slowdown column), and the file in the digest. flows.csv prints the
# slowdown to 6 decimals, so values agree to 1e-6.
#   fct_bins.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"
"$fabemu" run "$exp" -o "$tmp/out" -q
[ -f "$tmp/out/fct_bins.csv" ] || bad "no fct_bins.csv"
case "$(key "$tmp/out/summary.json" provenance.digest_files)" in
*fct_bins.csv*) ;;
*) bad "the digest does not cover fct_bins.csv" ;;
esac
python3 - "$tmp/out" <<'PY' || fail=1
import csv, math, sys
d = sys.argv[1]
flows = [r for r in csv.DictReader(open(d + "/flows.csv")) if r["status"] == "complete"]
flows.sort(key=lambda r: (int(r["bytes"]), int(r["id"])))
n = len(flows)
want = []
for b in range(20):
    lo, hi = b * n // 20, (b + 1) * n // 20
    if lo == hi:
        continue
    s = sorted(float(r["slowdown"]) for r in flows[lo:hi])
    pct = lambda p: s[max(1, math.ceil(p * len(s))) - 1]
    want.append([b, hi - lo, int(flows[lo]["bytes"]), int(flows[hi - 1]["bytes"]),
                 sum(s) / len(s), pct(0.5), pct(0.95), pct(0.99)])
got = [[float(x) for x in r] for r in list(csv.reader(open(d + "/fct_bins.csv")))[1:]]
ok = len(got) == len(want) and len(want) > 0
for w, g in zip(want, got):
    if w[:4] != [int(x) for x in g[:4]] or any(abs(a - b) > 1e-6 for a, b in zip(w[4:], g[4:])):
        print("FAIL: bin", w[0], "want", w, "got", g)
        ok = False
    if g[5] < 1:
        print("FAIL: bin", w[0], "median slowdown below 1")
        ok = False
print("fct_bins: %d bins over %d messages %s" % (len(got), n, "agree" if ok else "DISAGREE"))
sys.exit(0 if ok else 1)
PY
exit "$fail"
