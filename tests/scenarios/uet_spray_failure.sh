#!/usr/bin/env bash
# experiments/uet-spray-failure.yaml's ECMP side, and both sides without
# the failure (its spraying side asserts itself: experiment-uet-spray-failure).
# Independent expectations (the file's capacity bound: after the cut the
# all-to-all cannot end before 7.20 ms; without it 268.4 MB each way on 4
# uplinks of 12.139 GB/s: 5.53 ms):
# - ECMP (one EV per connection) with the failure ends at least 8% after
#   spraying: its connections hashed onto the dead link stall until the
#   reroute, then 3 links carry its hash unevenly;
# - without the failure spraying ends within 15% of 5.53 ms, ECMP within
#   25% (connections whose hashes collide share a link), and the failure
#   costs spraying less time than it costs ECMP;
# - receiver credit (nic.cc: rccc) with the failure ends within the file's
#   window for spraying (7.20 ms to 10% above), and without speculative
#   credit (every sender asks first, and CREDITs cross the cut link until
#   the reroute) every message still completes, after the bound; so it does
#   with 8 MiB cut at 50 us, where CREDITs lost on the cut link left
#   senders waiting for ever before senders asked again.
#   uet_spray_failure.sh FABEMU EXPERIMENTS_DIR TOOLS_DIR
set -eu
fabemu=$1
dir=$2
tools=$3
. "$(dirname "$0")/lib.sh"

FABEMU=$fabemu "$tools/side-by-side.sh" "$dir/uet-spray-failure.yaml" "$tmp" \
	collectives.a2a.time_us,collectives.a2a.busbw_GBps,faults.cut.frames_lost_link_down,nic.retransmitted,nic.timeouts \
	spray ecmp:fabric.uet.spray=off 'spray-nofail:faults=[]' \
	'ecmp-nofail:faults=[],fabric.uet.spray=off' rccc:nic.cc=rccc \
	'rccc-ask:nic.cc=rccc,nic.rccc.speculative=false' \
	'rccc-early:nic.cc=rccc,nic.rccc.speculative=false,traffic.0.size=8MiB,faults.0.at=50us' ||
	{ bad "a run failed"; exit 1; }
t() { key "$tmp/$1/summary.json" collectives.a2a.time_us; }
check "every run completes" \
	"$(key "$tmp/ecmp/summary.json" messages.incomplete) == 0 && $(key "$tmp/spray-nofail/summary.json" messages.incomplete) == 0 && $(key "$tmp/ecmp-nofail/summary.json" messages.incomplete) == 0"
check "ECMP with the failure ends at least 8% after spraying ($(t ecmp) us, $(t spray) us)" \
	"$(t ecmp) >= 1.08 * $(t spray)"
check "no failure: spraying within 15% of the 5.53 ms bound ($(t spray-nofail) us)" \
	"$(t spray-nofail) >= 5530 && $(t spray-nofail) <= 1.15 * 5530"
check "no failure: ECMP within 25% of it, its hash colliding ($(t ecmp-nofail) us)" \
	"$(t ecmp-nofail) >= 5530 && $(t ecmp-nofail) <= 1.25 * 5530"
check "the failure costs spraying less than ECMP" \
	"$(t spray) - $(t spray-nofail) < $(t ecmp) - $(t ecmp-nofail)"
check "RCCC with the failure within 7.20 to 7.92 ms ($(t rccc) us)" \
	"$(key "$tmp/rccc/summary.json" messages.incomplete) == 0 && $(t rccc) >= 7200 && $(t rccc) <= 7920"
check "RCCC without speculative credit completes after the bound ($(t rccc-ask) us, $(key "$tmp/rccc-ask/summary.json" uet.credit_requests) CREDIT_REQs)" \
	"$(key "$tmp/rccc-ask/summary.json" messages.incomplete) == 0 && $(t rccc-ask) >= 7200"
check "RCCC without speculative credit, 8 MiB cut at 50 us: every message completes" \
	"$(key "$tmp/rccc-early/summary.json" messages.incomplete) == 0"
exit $fail
