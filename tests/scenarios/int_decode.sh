#!/usr/bin/env bash
# HPCC's INT stack decoded by tools/fabemu-roce.lua, checked against what
# the fabric must have written (an independent decoder check): 4 hosts on
# two leaves and a spine, all links 100 Gb/s and 1 us, an incast of three
# senders into h2, captured at h2. Every data frame to h2 carries 3
# records from the other leaf's h0 and h1 (leaf, spine, leaf) and 1 from
# h3; every record's rate is 100 Gb/s; the last record's dequeue time plus
# the frame's serialisation ((len + 4 FCS + 20) x 80 ps) and the 1 us
# delay is its arrival in the capture (pcap's ns, rounded down; compact
# records carry ns, so within 2 ns); each hop dequeues at least a
# serialisation and a delay after the one before (store and forward; the
# frame is 16 bytes shorter there, 8 compact); and the last hop's tx_bytes
# grow by exactly the previous frame's bytes on that link (with compact
# records, by its multiple of 128 m bytes, within one unit).
#   int_decode.sh FABEMU [full|compact]
set -eu
fabemu=$1
fmt=${2:-full}
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "int_decode: FAIL: $*" >&2; exit 1; }

cat >"$tmp/int.yaml" <<'YAML'
name: int-decode
seed: 1
topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric: {int: true}
nic: {cc: hpcc, ack_every: 1, mtu: 1024}
traffic:
  - {kind: incast, name: in, dst: h2, count: 3, size: 64KiB}
capture: {ports: [h2:0], snaplen: 256}
YAML
"$fabemu" run "$tmp/int.yaml" -o "$tmp/out" -q --set fabric.int_record="$fmt" 2>/dev/null
cap=$tmp/out/capture/h2-p0.pcap
h2mac=$(awk '$2 == "h2-p0" { print $1 }' "$tmp/out/capture/ethers")
[ -n "$h2mac" ] || fail "no MAC for h2-p0 in ethers"
# Every frame the leaf sent to h2, in order: time (ns), source, length,
# then the stack: hop count, multiplier, per-hop rates, times, tx bytes.
tshark -X lua_script:"$here/../../tools/fabemu-roce.lua" -r "$cap" -Y "eth.src != $h2mac" \
	-T fields -e frame.time_epoch -e ip.src -e frame.len -e fabemu_roce.int.hops \
	-e fabemu_roce.int.multi -e fabemu_roce.int.rate_bps -e fabemu_roce.int.ts_ps \
	-e fabemu_roce.int.tx_bytes 2>/dev/null >"$tmp/f.txt" || true
n=$(awk -F '\t' '$4 != ""' "$tmp/f.txt" | wc -l)
[ "$n" -gt 0 ] || fail "no INT stack decoded"
awk -F '\t' -v fmt="$fmt" '
function die(m) { print "frame " NR ": " m; bad = 1; exit 1 }
{
	t_ns = $1; sub(/^0*/, "", t_ns); split(t_ns, tp, "."); t_ns = tp[1] * 1e9 + tp[2]
	if ($4 == "") { if ($3 !~ /^[0-9]+$/) die("no length"); prev += $3 + 4; next }
	rec = fmt == "compact" ? 8 : 16; m = $5
	want = ($2 == "10.0.0.4") ? 1 : 3
	if ($4 != want) die("hops " $4 " from " $2 ", want " want)
	nr = split($6, r, ","); split($7, ts, ","); nt = split($8, tx, ",")
	if (nr != want || nt != want) die("records " nr ", want " want)
	for (i = 1; i <= want; i++) if (r[i] != 100000000000) die("rate " r[i])
	for (i = 1; i < want; i++) {
		len_i = $3 - rec * (want - i)
		if (ts[i + 1] - ts[i] < (len_i + 24) * 80 + 1000000) die("hop " i + 1 " too early")
	}
	arr = ts[want] + ($3 + 24) * 80 + 1000000
	d = t_ns * 1000 - arr
	if (fmt == "full" && (d > 0 || d <= -1000)) die("arrival " t_ns " ns, record says " arr " ps")
	if (fmt == "compact" && (d > 1000 || d <= -1000)) die("arrival " t_ns " ns, record says " arr " ps")
	if (have) {
		g = tx[want] - last_tx
		if (fmt == "full" && g != prev) die("tx grew " g ", previous frame " prev " bytes")
		u = 128 * m
		if (fmt == "compact" && (g < prev - u || g > prev + u)) die("tx grew " g ", previous frame " prev)
	}
	have = 1; last_tx = tx[want]; prev = $3 + 4; checked++
}
END { if (!bad) print checked }' "$tmp/f.txt" >"$tmp/r.txt" || fail "$(cat "$tmp/r.txt")"
echo "int_decode ($fmt): OK ($(cat "$tmp/r.txt") stacks checked)"
