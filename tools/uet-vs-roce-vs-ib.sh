#!/usr/bin/env bash
# Ultra Ethernet, RoCE and InfiniBand on experiments/uet-vs-roce-vs-ib.yaml
# (the same fabric and traffic; the file says what each side sets), one
# table with a column each (tools/side-by-side.sh); Ultra Ethernet twice,
# with NSCC (the file's) and with receiver credit (uet-rccc: nic.cc rccc).
#   tools/uet-vs-roce-vs-ib.sh [RESULTS_DIR]
# Uses $FABEMU, else build/tools/fabemu of this checkout.
set -eu
here=$(dirname "$0")
export FABEMU=${FABEMU:-$here/../build/tools/fabemu}
out=${1:-results/uet-vs-roce-vs-ib}
metrics='collectives.ar.time_us,collectives.ar.busbw_GBps,collectives.a2a.time_us,collectives.a2a.busbw_GBps'
metrics+=',flows.fct_ns.p50,flows.fct_ns.p99,switch.queue_peak_bytes,uet.trimmed,drops.total'
metrics+=',pfc.paused_ns_total,credit.starved_ns_total,nic.retransmitted,nic.timeouts,uet.credits'
exec "$here/side-by-side.sh" "$here/../experiments/uet-vs-roce-vs-ib.yaml" "$out" "$metrics" uet \
	uet-rccc:nic.cc=rccc \
	"roce:fabric.link_layer=roce,fabric.pfc={priorities: [3]},nic.cc=dcqcn,fabric.path.policy=ecmp" \
	"infiniband:fabric.link_layer=infiniband,nic.cc=ibcc,fabric.path.policy=adaptive,nic.recovery=selective-repeat,nic.sr_reorder=128,nic.bdp_fc=false"
