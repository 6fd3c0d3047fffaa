#!/usr/bin/env bash
# A credit-loop deadlock on InfiniBand: experiments/pfc-deadlock.yaml's
# five-switch ring, where every flow's only path goes two hops clockwise,
# run with fabric.link_layer=infiniband. Independent expectation: the
# same cyclic buffer dependency that deadlocks PFC (Hu et al., HotNets
# 2016) deadlocks credit flow control, the classic case IB's routing must
# avoid (Dally and Seitz, 1987: a cycle in the channel dependency graph):
# each switch's VL buffer toward the next is full and granted no credits,
# so nothing moves. fabemu must find the cycle, name it a credit loop, end
# the run (no watchdog breaks credits) and lose nothing. With one host
# sending (no cycle of dependencies) the same ring completes.
#   credit_loop.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" run "$exp" -o "$tmp/loop" -q --set fabric.link_layer=infiniband || true
s=$tmp/loop/summary.json
check "a credit loop found" "$(key "$s" credit.deadlocks) == 1"
cyc=$(key "$s" pfc.deadlock_cycle)
case $cyc in
"credit loop: "*) echo "ok: reported as '$cyc'" ;;
*) bad "the cycle is reported as '$cyc', not as a credit loop" ;;
esac
check "the run stopped at the deadlock" "$(key "$s" pfc.deadlock_stopped_run) == 1"
check "nothing dropped" "$(key "$s" drops.total) == 0"
check "credit invariant held" "$(key "$s" credit.overruns) == 0"
"$fabemu" run "$exp" -o "$tmp/one" -q --set fabric.link_layer=infiniband \
	--set 'traffic=[{kind: messages, name: one, messages: [{src: h0, dst: h2, size: 1MiB}]}]'
check "one flow on the ring completes" "$(key "$tmp/one/summary.json" messages.incomplete) == 0"
check "and finds no deadlock" "$(key "$tmp/one/summary.json" credit.deadlocks) == 0"
exit "$fail"
