#!/usr/bin/env bash
# The same lossy run (same seed, so the same link-loss draws until the two
# transports' traffic diverges) with go-back-N and with selective repeat:
# both must complete every message, and go-back-N must retransmit more
# packets than selective repeat (it resends everything after a loss).
#   gbn_vs_sr.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/summary.sh"
"$fabemu" run "$exp" -o "$tmp/gbn" -q --set nic.recovery=go-back-n
"$fabemu" run "$exp" -o "$tmp/sr" -q --set nic.recovery=selective-repeat
gi=$(value "$tmp/gbn/summary.json" messages.incomplete)
si=$(value "$tmp/sr/summary.json" messages.incomplete)
gr=$(value "$tmp/gbn/summary.json" nic.retransmitted)
sr=$(value "$tmp/sr/summary.json" nic.retransmitted)
echo "go-back-N: $gr retransmitted, $gi incomplete; selective repeat: $sr retransmitted, $si incomplete"
[ "$gi" = 0 ] && [ "$si" = 0 ] || { echo "FAIL: messages left incomplete"; exit 1; }
[ "$gr" -gt "$sr" ] && [ "$sr" -gt 0 ] || { echo "FAIL: want go-back-N > selective repeat > 0"; exit 1; }
echo "gbn vs sr: OK"
