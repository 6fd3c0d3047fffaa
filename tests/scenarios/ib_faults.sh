#!/usr/bin/env bash
# Link faults on InfiniBand: experiments/link-failure.yaml (a spine link
# fails during an all-to-all) and flap-ecmp-vs-ar.yaml (a link flaps),
# with fabric.link_layer=infiniband, and mpi-ib-faults.yaml (a NIC down
# and back, a host link flapping while its host sends: a frame whose
# sending began while the link was down, ending after it came back, once
# reached the leaf after both ends' credits had started anew, one frame
# beyond the buffer: an overrun). Independent expectations: a link that
# goes down loses what is on it and what is sent into it (an IB port
# discards what it cannot deliver, so nothing waits for credits that
# cannot come back), the transport recovers the losses, and when the link
# comes back it trains again (IBTA: credits re-initialised by init
# flow-control packets): every message completes, the credit invariant
# holds, and the dead link lost frames.
#   ib_faults.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

for x in link-failure flap-ecmp-vs-ar mpi-ib-faults; do
	f=$dir/$x.yaml
	[ "$x" != mpi-ib-faults ] || f=$(dirname "$0")/$x.yaml
	"$fabemu" run "$f" -o "$tmp/$x" -q --set fabric.link_layer=infiniband
	s=$tmp/$x/summary.json
	check "$x on IB: every message completes" "$(key "$s" messages.incomplete) == 0"
	check "$x on IB: credit invariant held" "$(key "$s" credit.overruns) == 0"
	check "$x on IB: the dead link lost frames ($(key "$s" faults.frames_lost_link_down))" \
		"$(key "$s" faults.frames_lost_link_down) > 0"
	check "$x on IB: the losses were resent" "$(key "$s" nic.retransmitted) > 0"
done
exit "$fail"
