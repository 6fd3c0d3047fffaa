#!/usr/bin/env bash
# The rate one core of fabemu live sustains (docs/performance.md, "Live
# mode"): two network namespaces through one emulated switch on 100 Gb/s,
# 1 us links (the fabric is no bottleneck), UDP datagrams that fill the MTU
# sent as fast as SENDERS Python processes can for SECONDS, counted by a
# receiver. fabemu's live.work_s is the time its loop spent on turns with
# work, so frames moved / work_s is what its core would carry if the
# senders could offer more (they share the machine's other cores).
#
#   sudo tools/live-rate.sh FABEMU [MTU] [SECONDS] [SENDERS] [DRIVER]
#
# MTU 1500 (default) or up to 9000 (veth); SECONDS 3; SENDERS 1; DRIVER
# tap (default) or veth. Prints one line.
set -euo pipefail

fabemu=$(realpath "${1:?usage: $0 FABEMU [MTU] [SECONDS] [SENDERS]}")
mtu=${2:-1500}
secs=${3:-3}
senders=${4:-1}
driver=${5:-tap}
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/live-netns.sh" check >/dev/null

tag=$$
ns0="fabemu-r$tag-0"
ns1="fabemu-r$tag-1"
work=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	"$root/tools/live-netns.sh" down "$ns0" "$ns1" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
"$root/tools/live-netns.sh" up "$ns0" "$ns1"
cat >"$work/rate.yaml" <<EOF
name: live-rate
topology:
  kind: explicit
  default_link: {rate: 100Gbps, delay: 1us}
  nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: sw0, kind: switch}]
  links: [{endpoints: ["h0:0", "sw0:0"]}, {endpoints: ["h1:0", "sw0:1"]}]
traffic: []
live:
  mtu: ${mtu}B
  late: 1ms
  ports:
    - {port: "h0:0", driver: $driver, iface: fbr${tag}a, netns: $ns0}
    - {port: "h1:0", driver: $driver, iface: fbr${tag}b, netns: $ns1}
EOF
"$fabemu" live "$work/rate.yaml" -o "$work/out" -q >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 100); do
	ip -n "$ns1" -4 addr show 2>/dev/null | grep -q 10.0.0.2/8 && break
	sleep 0.1
done
ip netns exec "$ns1" python3 - "$secs" >"$work/rx" <<'EOF' &
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
s.bind(("10.0.0.2", 5001))
s.settimeout(2)
n = 0
try:
    while True:
        s.recv(16384)
        n += 1
except socket.timeout:
    pass
print(n)
EOF
rx=$!
sleep 0.3
for _ in $(seq "$senders"); do
	ip netns exec "$ns0" python3 - "$mtu" "$secs" <<'EOF' &
import socket, sys, time
mtu, secs = int(sys.argv[1]), float(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b = bytes(mtu - 28)
end = time.perf_counter() + secs
while time.perf_counter() < end:
    for _ in range(64):
        try:
            s.sendto(b, ("10.0.0.2", 5001))
        except OSError:
            pass
EOF
done
wait "$rx"
kill -INT "$pid"
wait "$pid"
pid=
python3 - "$work/out/summary.json" "$(cat "$work/rx")" "$mtu" "$driver" "$secs" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
got, mtu, driver, secs = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
lv = s["live"]
p0, p1 = lv["ports"]["h0:0"], lv["ports"]["h1:0"]
frame = mtu + 14
rate = p0["in_frames"] / secs
print("MTU %d, %s: %d frames in at h0, %d out at h1, %d received; %.0f frames/s over the %g s of "
      "sending (%.2f Gb/s of %d-byte frames), %.0f frames/s over live.work_s (%.2f s); lag mean "
      "%.1f us, max %.1f us, %d over 1 ms" % (mtu, driver, p0["in_frames"], p1["out_frames"], got,
      rate, secs, rate * frame * 8e-9, frame, p0["in_frames"] / lv["work_s"], lv["work_s"],
      lv["lag"]["mean_ns"] / 1e3, lv["lag"]["max_ns"] / 1e3, lv["lag"]["over_1ms"]))
EOF
