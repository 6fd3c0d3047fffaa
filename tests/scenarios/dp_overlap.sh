#!/usr/bin/env bash
# experiments/dp-overlap.yaml with its gradient reduction overlapped, as
# FSDP, and overlapped while small. Independent expectation (the step's
# critical path; the alpha-beta model of the experiment's header):
# - overlap: the all-reduce (4.1 ms) starts B/2 = 2 ms before the backward
#   ends and outlasts it, so the step is exactly 2 ms shorter (within
#   0.1%), the compute on its path F + B/2;
# - FSDP: an all-gather before the forward and a reduce-scatter after the
#   backward, each (n - 1)/n S / B, move the all-reduce's volume: the
#   step within 1% of the plain one;
# - overlap of a 32 MiB all-reduce (about 1 ms < B/2): hidden, the step is
#   F + B exactly and no communication is on its critical path.
#   dp_overlap.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

# The experiment as shipped through check: its expect: list too (the test
# experiment-dp-overlap is then in the release set only).
"$fabemu" check "$dir/dp-overlap.yaml" -o "$tmp/plain" -q >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; bad "dp-overlap: its expect list"; }
"$fabemu" run "$dir/dp-overlap.yaml" -o "$tmp/overlap" -q --set traffic.0.overlap=true
"$fabemu" run "$dir/dp-overlap.yaml" -o "$tmp/fsdp" -q --set traffic.0.fsdp=true
"$fabemu" run "$dir/dp-overlap.yaml" -o "$tmp/hidden" -q --set traffic.0.overlap=true \
	--set traffic.0.dp_bytes=32MiB
s() { key "$tmp/$1/summary.json" "training.job.$2"; }
plain=$(s plain step_time_us)
check "overlap saves B/2: $(s overlap step_time_us) us = $plain - 2000 us" \
	"($plain - $(s overlap step_time_us) - 2000)^2 <= (0.001 * $plain)^2"
check "overlap: compute on the path $(s overlap critical_path.compute_us) us = F + B/2 = 4000 us" \
	"$(s overlap critical_path.compute_us) == 4000"
check "FSDP: step $(s fsdp step_time_us) us within 1% of the all-reduce's $plain us" \
	"($(s fsdp step_time_us) - $plain)^2 <= (0.01 * $plain)^2"
check "FSDP: the data-parallel part $(s fsdp critical_path.dp_us) us" \
	"$(s fsdp critical_path.dp_us) > 4107.1"
check "small overlapped all-reduce hidden: step $(s hidden step_time_us) us = 6000 us" \
	"($(s hidden step_time_us) - 6000)^2 < 1e-6"
check "hidden: exposed communication $(s hidden exposed_comm_fraction) = 0" \
	"$(s hidden exposed_comm_fraction) == 0"
exit "$fail"
