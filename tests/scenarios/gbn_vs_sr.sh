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
metric() { # FILE KEY: a number from summary.json's nic/messages objects
	sed -n "/\"$2\": /{s/.*: \\([0-9.]*\\).*/\\1/p;q}" "$1"
}
"$fabemu" run "$exp" -o "$tmp/gbn" -q --set nic.recovery=go-back-n
"$fabemu" run "$exp" -o "$tmp/sr" -q --set nic.recovery=selective-repeat
gi=$(metric "$tmp/gbn/summary.json" incomplete)
si=$(metric "$tmp/sr/summary.json" incomplete)
gr=$(metric "$tmp/gbn/summary.json" retransmitted)
sr=$(metric "$tmp/sr/summary.json" retransmitted)
echo "go-back-N: $gr retransmitted, $gi incomplete; selective repeat: $sr retransmitted, $si incomplete"
[ "$gi" = 0 ] && [ "$si" = 0 ] || { echo "FAIL: messages left incomplete"; exit 1; }
[ "$gr" -gt "$sr" ] && [ "$sr" -gt 0 ] || { echo "FAIL: want go-back-N > selective repeat > 0"; exit 1; }
echo "gbn vs sr: OK"
