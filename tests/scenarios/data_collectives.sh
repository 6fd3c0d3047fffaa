#!/usr/bin/env bash
# Data-carrying collectives under loss: tests/scenarios/data-allreduce.yaml
# again with every link losing frames at random (fabric.loss); go-back-N
# resends what was lost, so every rank still ends with the exact result
# (the file's expect: list: no wrong element, as many compared) while
# packets were resent (nic.retransmitted > 0) and nothing ran out of
# retries (nic.qp_errors = 0). The check itself is shown to catch wrong
# data by the unit test "a corrupted step is caught" (tests/test_tg_data.c).
#   data_collectives.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"
"$fabemu" check "$exp" -o "$tmp/loss" -q --set fabric.loss=0.002 >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; bad "results not exact under loss"; }
check "frames were lost and resent ($(key "$tmp/loss/summary.json" nic.retransmitted) packets)" \
	"$(key "$tmp/loss/summary.json" nic.retransmitted) > 0"
check "no QP ran out of retries" "$(key "$tmp/loss/summary.json" nic.qp_errors) == 0"
[ "$fail" = 0 ] && echo "data collectives under loss: OK"
exit "$fail"
