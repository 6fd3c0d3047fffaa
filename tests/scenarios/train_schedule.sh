#!/usr/bin/env bash
# experiments/pipeline-bubble.yaml (P = 4 stages, F = 1 ms, B = 2 ms) in
# each pipeline schedule, with free transfers (pp_bytes 0B: the stages
# still wait for each other), over M = 4, 8, 16 microbatches, and P = 2
# (tp 8: a node a stage).
# Independent expectation (Narayanan et al., "Efficient Large-Scale
# Language Model Training on GPU Clusters Using Megatron-LM", SC 2021,
# section 2.2): the pipeline bubble is t_pb = (P - 1)(F + B) for GPipe and
# for 1F1B (the same bubble, fewer microbatches in flight), and
# (P - 1)(F + B)/v for the interleaved schedule with v chunks a device; the
# ideal step is M(F + B), so the step is exactly M(F + B) + t_pb and the
# bubble fraction t_pb/step ((P - 1)/(M + P - 1) for GPipe and 1F1B).
# Without communication cost the simulated step is an exact sum of
# compute phases: checked within 1 ns.
#   train_schedule.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

runs=""
for P in 2 4; do
	for m in 4 8 16; do
		for sv in gpipe:1 1f1b:1 interleaved:2 interleaved:4; do
			s=${sv%:*} v=${sv#*:}
			set -- --set traffic.0.microbatches=$m --set traffic.0.pp_bytes=0B --set traffic.0.schedule=$s
			[ "$v" = 1 ] || set -- "$@" --set traffic.0.chunks=$v
			[ "$P" = 4 ] || set -- "$@" --set 'traffic.0.parallel={tp: 8, pp: 2}'
			"$fabemu" run "$dir/pipeline-bubble.yaml" -o "$tmp/$P-$m-$s-$v" -q "$@"
			runs="$runs $P-$m-$s-$v"
		done
	done
done
python3 - "$tmp" $runs <<'PY' || fail=1
import json, sys
from scen import say, done
tmp = sys.argv[1]
F, B = 1000.0, 2000.0
for run in sys.argv[2:]:
    P, m, s, v = run.split("-")
    P, m, v = int(P), int(m), int(v)
    t = json.load(open("%s/%s/summary.json" % (tmp, run)))["training"]["job"]
    bubble = (P - 1) * (F + B) / v
    step = t["step_time_us"]
    say(abs(step - (m * (F + B) + bubble)) < 1e-3,
        "P=%d M=%d %s v=%d: step %.3f us = M(F + B) + (P - 1)(F + B)/v = %.3f us"
        % (P, m, s, v, step, m * (F + B) + bubble))
    say(abs((step - m * (F + B)) / step - bubble / (m * (F + B) + bubble)) < 1e-9,
        "P=%d M=%d %s v=%d: bubble fraction %.4f" % (P, m, s, v, (step - m * (F + B)) / step))
done()
PY
exit "$fail"
