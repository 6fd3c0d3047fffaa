#!/usr/bin/env bash
# The packet pool sizes itself when engine.packet_pool is not set: a
# 128:1 incast of 4 MiB messages into a 1 GiB buffer (headers only) keeps
# about 250 000 packets alive at once (go-back-N timeouts resend queued
# windows), which ran the former fixed default of 2^17 dry. With nothing
# set the run is valid and the pool was sized above that; with the former
# default set by hand the pool runs dry and the run says so. The
# experiment is written here: a corpus comparing with a binary of the
# fixed default must not see it.
#   pool_default.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"
cat >"$tmp/deep.yaml" <<'YAML'
name: incast-deep
topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 129,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric: {buffer: 1GiB}
nic: {payload: false}
traffic:
  - {kind: incast, name: incast, dst: h0, count: 128, size: 4MiB}
YAML
"$fabemu" run "$tmp/deep.yaml" -o "$tmp/auto" -q 2>"$tmp/err" || bad "default pool: exit status $?"
s=$tmp/auto/summary.json
[ "$(key "$s" valid)" = true ] || bad "default pool: not valid: $(key "$s" invalid_reasons)"
[ "$(key "$s" nic.pool_exhausted)" = 0 ] || bad "default pool: ran dry"
[ "$(key "$s" engine.packet_pool)" -gt 131072 ] || bad "default pool: not sized above 2^17"
[ "$(key "$s" wall_clock.packets_peak)" -gt 131072 ] || bad "the experiment no longer needs more than 2^17 packets"
[ ! -s "$tmp/err" ] || bad "default pool: stderr: $(cat "$tmp/err")"
"$fabemu" run "$tmp/deep.yaml" -o "$tmp/fixed" -q --set engine.packet_pool=131072 2>/dev/null ||
	bad "fixed pool: exit status $?"
[ "$(key "$tmp/fixed/summary.json" valid)" = false ] || bad "fixed pool of 2^17: valid"
[ "$(key "$tmp/fixed/summary.json" engine.packet_pool)" = 131072 ] || bad "fixed pool: --set not honoured"
[ "$fail" -eq 0 ] && echo "pool default: OK (sized to $(key "$s" engine.packet_pool), peak $(key "$s" wall_clock.packets_peak))"
exit "$fail"
