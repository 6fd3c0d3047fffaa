#!/usr/bin/env bash
# InfiniBand against RoCE on experiments/ib-vs-roce.yaml: runs its IB side
# as written and its RoCE side with PFC, ECMP and DCQCN, then prints the
# two side by side (fabemu compare; --markdown for a review comment).
#   tools/ib-vs-roce.sh [RESULTS_DIR] [--markdown]
# Uses $FABEMU, else ./build/tools/fabemu.
set -eu
cd "$(dirname "$0")/.."
out=${1:-results/ib-vs-roce}
shift || true
fabemu=${FABEMU:-./build/tools/fabemu}
exp=experiments/ib-vs-roce.yaml
"$fabemu" run "$exp" -o "$out/infiniband" -q
"$fabemu" run "$exp" -o "$out/roce" -q --set fabric.link_layer=roce \
	--set fabric.path.policy=ecmp --set nic.cc=dcqcn
# Completion time, bus bandwidth, p99 FCT slowdown, the deepest queue,
# drops, and the time senders were held back (PFC pauses / no credits).
metrics='collectives.ar.time_us,collectives.ar.busbw_GBps,last_completion_ns'
metrics+=',workloads.incast.fct_ns_max,workloads.incast.goodput_gbps,flows.slowdown.p99'
metrics+=',switch.queue_peak_bytes,drops.total,pfc.paused_ns_total,credit.starved_ns_total'
metrics+=',ecn.marked,fecn.marked,nic.cnps_sent,credit.overruns'
# The two differ on purpose: no tolerance flags them (exit 1 only says
# that something moved; 2 is an error).
rc=0
"$fabemu" compare "$out/roce" "$out/infiniband" --tolerance 1000000% --metrics "$metrics" "$@" || rc=$?
[ "$rc" -le 1 ]
