#!/usr/bin/env bash
# A training step's critical path against its hand derivation, pp 2 and
# pp 4, with and without overlap (issue 25: a stage's gradient all-reduce
# once sat before its last backward's pipeline send, so the stage before
# waited for it: P all-reduces in series, 11,487 us for one of 8,744 us).
# Layout: tp 8 (a whole node per stage and replica), pp P, dp 2 on 2P
# nodes of rail-2node-8gpu (400 Gb/s NICs, 1 us links), M = 3
# microbatches, F = 1 ms, B = 2 ms, pp_bytes 0B (the stages wait for each
# other at no cost), dp_bytes S = 128 MiB; GPipe's order.
# Hand derivation: stage 0's last backward ends last, at
# (M + P - 1)(F + B) (GPipe: Huang et al., 2019); stage s's ends s x B
# earlier. Each stage then all-reduces its gradients with its replica
# (GPU t of two nodes, rail t: no two stages share a NIC or a link), a
# ring of n = 2: every rank sends 2(n - 1)/n x S = S over its NIC at the
# payload rate R = 400 Gb/s / 8 x 4096/4178 = 49.0187 GB/s (4 KiB SEND
# frames and their 82 B of headers), 2,738.09 us, plus 2(n - 1) ring
# steps each crossing two 1 us links: A = 2,742.09 us. So
#   overlap false: step = (M + P - 1)(F + B) + A        (stage 0's AR last)
#   overlap true:  step = (M + P - 1)(F + B) - B/2 + A  (it starts B/2
#                  before its backward ends, and A > B/2)
# pp 2: 12,000 + A = 14,742.1 us and 13,742.1 us; pp 4: 18,000 + A =
# 20,742.1 us and 19,742.1 us. The old order gave (M + P - 1)(F + B) +
# P x A without overlap: 17,487 us and 28,975 us.
# With tp_bytes T = 8 MiB as well, each pass ends in a ring all-reduce of
# T among the stage's 8 GPUs over NVLink (3.6 Tb/s, x 4096/4178: R' =
# 441.17 GB/s): 2(n - 1)/n x T / R' = 1.75 x T / R' = 33.3 us = C, on
# every pass of the path: + 2(M + P - 1) C. With overlap the reduction
# starts after the first half of the last backward's compute, before its
# tensor all-reduce (the pass's exchanges end it, as in every other pass):
# - B/2 - C. (Before, it waited for that all-reduce: + C.)
# The other schedules (M = 4, tp_bytes 0B): stage 0's last backward still
# ends the compute, at M(F + B) + (P - 1)(F + B)/v (the bubble formulas of
# train_schedule.sh; v = 1 for 1f1b, 2 chunks interleaved), then the same
# all-reduce: + A, and with overlap - B/(2v) (half its last chunk pass).
# Tolerance 0.05% of the step (the rings' per-slice store-and-forward,
# about 1.6 us here, and NVLink's 100 ns hops).
#   train_critical_path.sh FABEMU TOPOLOGIES_DIR [PP...]
# PP: the pipeline depths to run (default 2 and 4; the default test set
# runs pp 2, the release set pp 4).
set -eu
fabemu=$1
topos=$(cd "$2" && pwd)
shift 2
pps=${*:-2 4}
. "$(dirname "$0")/lib.sh"

for P in $pps; do
	cat > "$tmp/p$P.yaml" <<YAML
name: train-cp-$P
seed: 1
topology: {file: $topos/rail-2node-8gpu.yaml, nodes_per_unit: $((2 * P)), nodes: $((2 * P))}
nic: {mtu: 4096}
traffic:
  - {kind: training, name: job, parallel: {tp: 8, pp: $P, dp: 2}, microbatches: 3,
     forward: 1ms, backward: 2ms, dp_bytes: 128MiB}
YAML
	for ov in false true; do
		for tpb in 0B 8MiB; do
			"$fabemu" run "$tmp/p$P.yaml" -o "$tmp/p$P-$ov-$tpb" -q --set traffic.0.overlap=$ov \
				--set traffic.0.tp_bytes=$tpb
		done
		for sv in 1f1b:1 interleaved:2; do
			"$fabemu" run "$tmp/p$P.yaml" -o "$tmp/p$P-$ov-$sv" -q --set traffic.0.overlap=$ov \
				--set traffic.0.microbatches=4 --set traffic.0.schedule=${sv%:*} \
				--set traffic.0.chunks=${sv#*:}
		done
	done
done
python3 - "$tmp" $pps <<'PY' || fail=1
import json, sys
from scen import say, done
tmp = sys.argv[1]
pps = [int(x) for x in sys.argv[2:]]
M, F, B, S = 3, 1000.0, 2000.0, 134217728
R = 400e9 / 8 * 4096 / 4178 / 1e6      # bytes per us
A = S / R + 2 * (2 - 1) * 2 * 1.0      # the all-reduce: S/R and 2(n-1) steps of two 1 us links
C = 1.75 * 8388608 / (3.6e12 / 8 * 4096 / 4178 / 1e6)   # the tensor all-reduce over NVLink
for P in pps:
    for ov in ("false", "true"):
        for tpb in ("0B", "8MiB"):
            t = json.load(open("%s/p%d-%s-%s/summary.json" % (tmp, P, ov, tpb)))["training"]["job"]
            c = C if tpb == "8MiB" else 0
            want = (M + P - 1) * (F + B + 2 * c) - (B / 2 + c if ov == "true" else 0) + A
            step = t["step_time_us"]
            say(abs(step - want) <= 5e-4 * want,
                "pp %d overlap %s tp_bytes %s: step %.2f us = (M + P - 1)(F + B + 2C)%s + A = %.2f us"
                " (within 0.05%%)" % (P, ov, tpb, step, " - B/2 - C" if ov == "true" else "", want))
            cp = t["critical_path"]
            say(abs(cp["dp_us"] - A) <= 5e-4 * want,
                "pp %d overlap %s tp_bytes %s: one all-reduce on the path, dp %.2f us = A = %.2f us"
                % (P, ov, tpb, cp["dp_us"], A))
        for sched, v in (("1f1b", 1), ("interleaved", 2)):
            t = json.load(open("%s/p%d-%s-%s:%d/summary.json" % (tmp, P, ov, sched, v)))["training"]["job"]
            want = 4 * (F + B) + (P - 1) * (F + B) / v + A - (B / (2 * v) if ov == "true" else 0)
            step = t["step_time_us"]
            say(abs(step - want) <= 5e-4 * want,
                "pp %d overlap %s %s v=%d: step %.2f us = M(F + B) + (P - 1)(F + B)/v%s + A = %.2f us"
                % (P, ov, sched, v, step, " - B/2v" if ov == "true" else "", want))
done()
PY
exit "$fail"
