#!/usr/bin/env bash
# The packet pool's size must not change a run it never runs dry: the same
# experiment with the default pool, with the smallest pool that holds its
# peak (1024 packets: two of the pool's chunks, the second partial, with
# payload), and with 2^23 packets (a power of two, whose DPDK ring needs
# twice as many slots; such pools failed to start before) gives the same
# summary.json (wall clock and engine.packet_pool aside), flows, ports and
# captures.
#   pool_sizes.sh FABEMU EXPERIMENT   (an experiment with a capture and a
#                                      packet peak under 960)
set -eu
fabemu=$1
exp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

strip() { # summary.json without the wall_clock object, the pool's size and the digest (which covers that size)
	sed '/"wall_clock": {/,/}/d; /"packet_pool":/d; /"digest_sha256":/d' "$1"
}
fail=0
same() { # same DIR_A DIR_B WHAT
	if ! cmp -s <(strip "$1/summary.json") <(strip "$2/summary.json"); then
		echo "FAIL: $3: summary.json differs"
		diff <(strip "$1/summary.json") <(strip "$2/summary.json") | head -10
		fail=1
	fi
	for f in flows.csv ports.csv; do
		[ -e "$1/$f" ] || continue
		cmp "$1/$f" "$2/$f" || { echo "FAIL: $3: $f differs"; fail=1; }
	done
	local n=0 p
	for p in "$1"/capture/*.pcap; do
		[ -e "$p" ] || continue
		n=$((n + 1))
		cmp "$p" "$2/capture/$(basename "$p")" || { echo "FAIL: $3: $(basename "$p") differs"; fail=1; }
	done
	[ "$n" -gt 0 ] || { echo "FAIL: $3: nothing captured to compare"; fail=1; }
}
run() { # run DIR SETTINGS...
	local dir=$1
	shift
	if ! "$fabemu" run "$exp" -o "$tmp/$dir" -q "$@"; then
		echo "FAIL: run with $* did not complete"
		exit 1
	fi
}
run a
run b --set engine.packet_pool=1024
run c --set nic.payload=false
run d --set nic.payload=false --set engine.packet_pool=8388608
same "$tmp/a" "$tmp/b" "payload, pool of 1024"
same "$tmp/c" "$tmp/d" "headers only, pool of 2^23"
[ "$fail" -eq 0 ] && echo "pool sizes: OK (1024 and 2^23 packets give the default pool's results)"
exit "$fail"
