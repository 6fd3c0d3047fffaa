#!/usr/bin/env bash
# experiments/pipeline-bubble.yaml over M = 1, 2, 4, 8, 16 microbatches.
# Independent expectation (GPipe's schedule, the experiment's header):
# with free transfers (pp_bytes 0B) a step is exactly (M + P - 1)(F + B)
# and the bubble, 1 - M(F + B)/step, is (P - 1)/(M + P - 1); with 8 MiB
# sends the compute on the critical path is the same and the sends add
# 2 x (P - 1) transfers along it whatever M is (427.1 us of payload and
# delays, within 1%); the parts of every row of training.csv add up to
# its step.
#   pipeline_bubble.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

for m in 1 2 4 8 16; do
	"$fabemu" run "$dir/pipeline-bubble.yaml" -o "$tmp/free$m" -q --set traffic.0.microbatches=$m \
		--set traffic.0.pp_bytes=0B
	"$fabemu" run "$dir/pipeline-bubble.yaml" -o "$tmp/sent$m" -q --set traffic.0.microbatches=$m
done
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
tmp = sys.argv[1]
from scen import say, done
P, F, B = 4, 1000.0, 2000.0
for m in (1, 2, 4, 8, 16):
    free = list(csv.DictReader(open("%s/free%d/training.csv" % (tmp, m))))
    sent = list(csv.DictReader(open("%s/sent%d/training.csv" % (tmp, m))))
    want = (m + P - 1) * (F + B)
    for r in free + sent:
        parts = sum(float(r[k]) for k in ("compute_us", "tp_us", "pp_us", "dp_us", "ep_us", "other_us"))
        say(abs(parts - float(r["step_time_us"])) < 1e-3,
            "M=%d step %s: parts add up to the step (%.3f of %s us)" % (m, r["step"], parts, r["step_time_us"]))
    step = float(free[-1]["step_time_us"])
    bubble = 1 - m * (F + B) / step
    say(abs(step - want) < 1e-3, "M=%d free: step %.3f us = (M + P - 1)(F + B) = %.0f us" % (m, step, want))
    say(abs(bubble - (P - 1) / (m + P - 1)) < 1e-9,
        "M=%d free: bubble %.4f = (P - 1)/(M + P - 1) = %.4f" % (m, bubble, (P - 1) / (m + P - 1)))
    pp = float(sent[-1]["pp_us"])
    say(abs(float(sent[-1]["compute_us"]) - want) < 1e-3 and 427.1 <= pp <= 427.1 * 1.01,
        "M=%d sent: compute %s us on the path, sends %.2f us (expected 427.1 .. 431.4)" % (m, sent[-1]["compute_us"], pp))
done()
PY
exit "$fail"
