#!/usr/bin/env bash
# experiments/alltoall-rails.yaml under adaptive routing and ECMP, seeds
# 1 to 3 (each re-seeds the switches' hashes). Independent expectations
# (the experiment's header derives them):
# - rail-aligned all-to-all: busbw within 5% of B = 49.0187 GB/s, under
#   both policies (one leaf hop: nothing to choose);
# - full all-to-all, adaptive: within 10% of the uplink-bound model
#   0.643 B = 31.5 GB/s on every seed, and the same on every seed to 1%;
# - full all-to-all, ECMP: below adaptive on every seed, and spread across
#   the seeds by more than adaptive's (it depends on the hash).
# - under the NCCL model (nccl: on) with PXN (NCCL's default): a send to
#   another rail's GPU goes over NVLink to the sender node's GPU of that
#   rail and leaves on its NIC, so nothing crosses the spine: bound by a
#   NIC's bytes, 8 GPUs x 7 nodes x S/64 = 56/64 S, busbw <= B x 63/56 =
#   55.15 GB/s and within 10% of it (the protocol's latencies, about 26
#   us of 320), the same under ECMP and adaptive on every seed to 0.1%;
#   with pxn: false the spine bound again, within 10% of 0.643 B.
#   alltoall_rails.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

for p in adaptive ecmp; do
	for s in 1 2 3; do
		"$fabemu" run "$dir/alltoall-rails.yaml" -o "$tmp/$p-$s" -q --seed $s --set fabric.path.policy=$p
	done
	for s in 1 2; do
		"$fabemu" run "$dir/alltoall-rails.yaml" -o "$tmp/pxn-$p-$s" -q --seed $s --set fabric.path.policy=$p \
			--set traffic.0.nccl=on
	done
done
"$fabemu" run "$dir/alltoall-rails.yaml" -o "$tmp/nopxn" -q --set 'traffic.0.nccl={pxn: false}' 2>/dev/null
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
tmp = sys.argv[1]
from scen import say, done
B = 400e9 / 8 * 4096 / 4178 / 1e9
model = B * (63 / 64) / (8 * 49 / 64 / 4)
bus = {}
for p in ("adaptive", "ecmp"):
    for s in (1, 2, 3):
        rows = {r["workload"]: float(r["busbw_GBps"]) for r in csv.DictReader(open("%s/%s-%d/collectives.csv" % (tmp, p, s)))}
        bus[p, s] = rows["full"]
        say(abs(rows["rail"] - B) <= 0.05 * B, "%s seed %d: rail-aligned busbw %.2f GB/s, B = %.2f" % (p, s, rows["rail"], B))
ad = [bus["adaptive", s] for s in (1, 2, 3)]
ec = [bus["ecmp", s] for s in (1, 2, 3)]
say(all(abs(x - model) <= 0.10 * model for x in ad),
    "adaptive: full busbw %s GB/s, model %.2f (crossing rails costs %.0f%%)"
    % (", ".join("%.2f" % x for x in ad), model, 100 * (1 - model / B)))
say(max(ad) - min(ad) <= 0.01 * max(ad), "adaptive: the same on every seed (spread %.3f GB/s)" % (max(ad) - min(ad)))
say(all(e < a for e, a in zip(ec, ad)), "ecmp: below adaptive on every seed (%s)" % ", ".join("%.2f" % x for x in ec))
say(max(ec) - min(ec) > max(ad) - min(ad), "ecmp: moves with the seed (spread %.2f GB/s)" % (max(ec) - min(ec)))
full = lambda d: float([r for r in csv.DictReader(open("%s/%s/collectives.csv" % (tmp, d))) if r["workload"] == "full"][0]["busbw_GBps"])
pxn = [full("pxn-%s-%d" % (p, s)) for p in ("adaptive", "ecmp") for s in (1, 2)]
nic = B * 63 / 56
say(all(0.90 * nic <= x <= nic for x in pxn),
    "NCCL model, PXN: full busbw %s GB/s, NIC bound %.2f" % (", ".join("%.2f" % x for x in pxn), nic))
say(max(pxn) - min(pxn) <= 0.001 * max(pxn), "NCCL model, PXN: the same under both policies and every seed")
x = full("nopxn")
say(abs(x - model) <= 0.10 * model, "NCCL model, pxn: false: full busbw %.2f GB/s, spine-bound model %.2f" % (x, model))
done()
PY
exit "$fail"
