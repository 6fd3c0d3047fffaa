#!/usr/bin/env bash
# fabemu live with real endpoints: two network namespaces, each behind a
# TAP that fabemu binds to a host port of an emulated 2-switch fabric.
# Skipped (exit 77) where this machine does not allow TAPs and namespaces
# (tools/live-netns.sh check says why).
#
#   live.sh FABEMU EXPDIR MODE [DRIVER [DILATION]]: DRIVER tap (default) or
#   veth, how the endpoints are bound (live.ports.driver); DILATION (rtt
#   only, default 1): live.dilation, which stretches the path's delay as
#   the endpoints see it by as much.
#   live.sh FABEMU EXPDIR rtt        experiments/live/two-namespaces.yaml:
#     UDP echoes between the namespaces, over IPv4 and then over IPv6
#     (the plan's fd00:fab::/96 addresses; neighbour discovery answered by
#     the live ports, hop limit and ECMP on the IPv6 5-tuple in the
#     switches). Independent expectation: the analytic path delay, 2 x (3
#     links x 1 ms + 3 x 0.672 us serialising a 64-byte frame with its 20
#     bytes of preamble and gap at 1 Gb/s) = 6.004 ms (IPv6: an 87-byte
#     frame, 6.0042 ms); the fastest echo within 1 ms above it, the median
#     within 5 ms (the kernels' and Python's own time, more on a loaded
#     machine), neither below it. The
#     capture of h0:0 decodes in tshark (the outside decoder) with 0
#     malformed frames and holds every echo both ways, IPv4 and IPv6. The simulated hosts h2 and h3 share
#     the fabric: their 1 MiB WRITE, done before the first echo, has the
#     FCT the same file gives simulated (fabemu run --set live.ports=[]),
#     to the picosecond.
#   live.sh FABEMU EXPDIR ecn        experiments/live/bottleneck.yaml with
#     ECN on in both namespaces' TCP (RFC 3168, net.ipv4.tcp_ecn=1): a 2 s
#     TCP transfer through the bottleneck, whose class 0 marks CE above
#     30 KB queued. Independent expectation: the RFC 3168 response, a
#     sender that cuts its window on ECE, keeps the queue near the marks
#     instead of filling the 256 KiB buffer as a loss-driven sender does:
#     no drop, CE marks and ECE echoes in the capture of sw1:0 (tshark),
#     the queue's median under half the buffer and its 95th percentile
#     under three quarters (alone on this machine: 44-47 KB and 61-70 KB;
#     a busy machine delays the ECE echoes), and the transfer at the
#     bottleneck's payload rate for TCP
#     (100 Mb/s x 1448 / 1538 = 94.1 Mb/s: timestamps on, headers, FCS,
#     preamble and gap), within 10%.
#   live.sh FABEMU EXPDIR ecn6       the same over IPv6 (the plan's
#     fd00:fab::10.0.0.1 to fd00:fab::10.0.0.2; RFC 3168 in the traffic
#     class, RFC 8200), against the bottleneck's payload rate for TCP over
#     IPv6 (100 Mb/s x 1428 / 1538 = 92.85 Mb/s), within 10%.
#   live.sh FABEMU EXPDIR memif      experiments/live/memif-left.yaml and
#     memif-right.yaml: two fabemu processes joined by a memif port, each
#     with a TAP endpoint (their loops yield their cores: live.poll).
#     Independent expectation: the analytic path delay over the four links,
#     2 x (4 x 1 ms + 4 x 0.672 us) = 8.005 ms; the median RTT at most 2 ms
#     above it (two loops and the kernels share the cores), never below;
#     every echo crossed the memif both ways (both summaries).
#   live.sh FABEMU EXPDIR roce       experiments/live/roce-fabric.yaml and
#     roce-sender.yaml: a fabemu process whose simulated NIC h0 sends an
#     RDMA WRITE of 1 MiB over a memif port into another fabemu's fabric,
#     whose simulated NIC h1 receives it and ACKs back. Independent
#     expectation: the FCT of one simulated run of the whole path (the
#     fabric's file with its live port simulated), no faster and at most
#     10% slower (each frame is serialised once more, on the sender's own
#     link, and crosses two loops that share 2 cores: the pacing
#     tolerance; at live.dilation 10, +0.1% to +5.3% here); no resend;
#     the fabric's record of the message says "remote". Needs no root.
#   live.sh FABEMU EXPDIR pfc        the rate run with its stream on DSCP 26,
#     priority 3 made lossless (fabric.pfc). Independent expectation
#     (IEEE 802.1Qbb): no drop in the fabric; the switch pauses h0's port,
#     and the live port tells the sender's interface with real PFC frames
#     (captured there by a raw socket: pauses of priority 3 and resumes,
#     as many as live.ports.h0:0.pfc_sent); the excess is refused at the
#     host port (live.queue), the goodput the bottleneck's within 5%.
#   live.sh FABEMU EXPDIR rate       experiments/live/bottleneck.yaml: a
#     UDP stream of 1,400-byte datagrams offered at about 200 Mb/s for 2 s
#     through the 100 Mb/s bottleneck. Independent expectation: the
#     receiver's goodput is the bottleneck's payload rate, 100 Mb/s x
#     1400 / 1466 (UDP/IPv4/Ethernet headers, FCS, preamble and gap) =
#     95.5 Mb/s, within 5%; series.csv shows the bottleneck's queue within
#     16 KiB (about one burst of the sender's) of the 256 KiB buffer for at
#     least 0.8 s of the 2 s stream (a Python sender on a busy machine
#     offers its 200 Mb/s in bursts), never above it, and the switch drops
#     the excess.
#   live.sh FABEMU EXPDIR pci        a pci port (a real NIC) on a PCI device
#     of this machine that its kernel drives (its network interface, say):
#     fabemu live must refuse it before the EAL touches the bus, exit 1,
#     saying what to do: this build has no NIC drivers (the default), or
#     the device is the kernel's (a build with -Dlive_pci_drivers). No
#     root needed; skipped where no PCI device has a kernel driver.
set -euo pipefail

fabemu=$(realpath "$1")
expdir=$(realpath "$2")
mode=$3
driver=${4:-tap} # how the endpoints are bound: tap or veth
dilation=${5:-1} # rtt: live.dilation (the path's delay scales with it)
root=$(cd "$(dirname "$0")/../.." && pwd)

if [ "$mode" = pci ]; then
	dev=
	for d in /sys/bus/pci/devices/*; do
		drv=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null || true)
		case "$drv" in "" | vfio-pci | uio_pci_generic | igb_uio | mlx5_core) continue ;; esac
		dev=$(basename "$d")
		break
	done
	[ -n "$dev" ] || { echo "SKIP: no PCI device here with a kernel driver"; exit 77; }
	out=$(mktemp -d)
	rc=0
	"$fabemu" live "$expdir/live/bottleneck.yaml" -q -o "$out/res" \
		--set "live.ports=[{port: 'h0:0', driver: pci, iface: nic0, pci: '$dev'}]" 2>"$out/err" || rc=$?
	if [ "$rc" -eq 1 ] && grep -Eq "live port nic0: (this fabemu has no NIC drivers for pci ports: build it with them|PCI device $dev is the kernel's \(driver $drv)" "$out/err" &&
		[ ! -e "$out/res/summary.json" ]; then
		echo "ok: a pci port on $dev (driver $drv) refused before the EAL: $(cat "$out/err")"
		rm -rf "$out"
		exit 0
	fi
	echo "FAIL: a pci port on $dev (driver $drv): exit $rc" >&2
	cat "$out/err" >&2
	rm -rf "$out"
	exit 1
fi

# (roce binds memif ports only: no TAP, no namespace, no root.)
if [ "$mode" != roce ] && ! why=$("$root/tools/live-netns.sh" check 2>&1); then
	echo "SKIP: $why"
	exit 77
fi

# 21 UDP echoes from endpoint 0 in $ns0 to endpoint 1 in $ns1 (its echo
# server started here and stopped after), over IPv4 (10.0.0.1 to
# 10.0.0.2), or over IPv6 with $1 = 6 (the plan's fd00:fab::10.0.0.1 to
# fd00:fab::10.0.0.2): "COUNT MEDIAN_MS LEAST_MS" into $work/rtt (or
# rtt6).
echoes() {
	local echo_pid fam=${1:-4} dst=10.0.0.2 out=$work/rtt
	[ "$fam" = 6 ] && dst=fd00:fab::10.0.0.2 && out=$work/rtt6
	ip netns exec "$ns1" python3 - "$fam" "$dst" <<'EOF' 2>/dev/null &
import socket, sys
s = socket.socket(socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[2], 7))
s.settimeout(20)
while True:
    d, a = s.recvfrom(2048)
    s.sendto(d, a)
EOF
	echo_pid=$!
	sleep 0.3
	ip netns exec "$ns0" python3 - "$fam" "$dst" >"$out" <<'EOF'
import socket, statistics, sys, time
s = socket.socket(socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(1.0)
rtts = []
for i in range(21):
    t = time.perf_counter()
    s.sendto(bytes([i]), (sys.argv[2], 7))
    try:
        s.recv(64)
        rtts.append((time.perf_counter() - t) * 1e3)
    except socket.timeout:
        pass
    time.sleep(0.02)
print(len(rtts), statistics.median(rtts) if rtts else -1, min(rtts) if rtts else -1)
EOF
	kill "$echo_pid" 2>/dev/null || true
}

# End the fabemu live run $pid with SIGINT (valid results) and check it.
stop_live() {
	kill -INT "$pid"
	wait "$pid" || { cat "$work/stderr" >&2; echo "FAIL: fabemu live failed" >&2; exit 1; }
	pid=
}

tag=$$
ns0="fabemu-t$tag-0"
ns1="fabemu-t$tag-1"
if0="fbt${tag}a"
if1="fbt${tag}b"
work=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	[ "$mode" = roce ] || "$root/tools/live-netns.sh" down "$ns0" "$ns1" >/dev/null 2>&1 || true
	[ -n "${LIVE_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
[ "$mode" = roce ] || "$root/tools/live-netns.sh" up "$ns0" "$ns1"

if [ "$mode" = roce ]; then
	# No namespace, no root needed: memif ports only.
	sock=/tmp/fabemu-test-$tag.sock
	# At live.dilation 10 (the message's 13 ms take 130 ms of wall clock):
	# the two loops share the cores (live.poll: yield), and a core lost for
	# a few milliseconds costs a tenth of it in simulated time. Both are
	# told to stop together, so that neither reads the memif the other is
	# closing.
	pid2=
	trap '[ -z "$pid2" ] || kill -INT "$pid2" 2>/dev/null || true; cleanup' EXIT
	"$fabemu" live "$expdir/live/roce-fabric.yaml" -o "$work/fabric" --max-wall 60s -q \
		--set live.poll=yield --set live.dilation=10 --set "live.ports.0.socket=$sock" \
		>"$work/stdout" 2>"$work/stderr" &
	pid=$!
	"$fabemu" live "$expdir/live/roce-sender.yaml" -o "$work/sender" --max-wall 60s -q \
		--set live.poll=yield --set live.dilation=10 --set "live.ports.0.socket=$sock" \
		>"$work/stdout2" 2>"$work/stderr2" &
	pid2=$!
	sleep 2
	kill -INT "$pid" "$pid2"
	wait "$pid2" || { cat "$work/stderr2" >&2; echo "FAIL: the sender failed" >&2; exit 1; }
	wait "$pid" || { cat "$work/stderr" >&2; echo "FAIL: the fabric failed" >&2; exit 1; }
	pid=
	pid2=
	"$fabemu" run "$expdir/live/roce-fabric.yaml" --set 'live.ports=[]' -o "$work/sim" -q
	python3 - "$work/sender/flows.csv" "$work/fabric/flows.csv" "$work/sim/flows.csv" <<'EOF'
import csv, sys
snd, fab, sim = (list(csv.DictReader(open(p))) for p in sys.argv[1:4])
ok = len(snd) == len(fab) == len(sim) == 1 and snd[0]["status"] == "complete" \
    and fab[0]["status"] == "remote" and snd[0]["qp_retransmitted"] == "0"
live_fct, sim_fct = float(snd[0]["fct_ns"] or 0), float(sim[0]["fct_ns"] or 0)
ok = ok and sim_fct <= live_fct <= sim_fct * 1.10
print("%s: RDMA WRITE of 1 MiB across two fabemu processes: %s, FCT %.3f ms (one simulated run "
      "of the fabric: %.3f ms, %+.2f%%), %s retransmitted; the fabric's record: %s" % (
      "ok" if ok else "FAIL", snd[0]["status"], live_fct / 1e6, sim_fct / 1e6,
      100 * (live_fct / sim_fct - 1) if sim_fct else 0, snd[0]["qp_retransmitted"], fab[0]["status"]))
sys.exit(0 if ok else 1)
EOF
	exit
fi

if [ "$mode" = memif ]; then
	sock=/run/fabemu-test-$tag.sock
	pid2=
	trap '[ -z "$pid2" ] || kill -INT "$pid2" 2>/dev/null || true; cleanup' EXIT
	"$fabemu" live "$expdir/live/memif-left.yaml" -o "$work/left" --max-wall 60s -q \
		--set live.poll=yield --set "live.ports.0.iface=$if0" --set "live.ports.0.netns=$ns0" \
		--set "live.ports.1.socket=$sock" >"$work/stdout" 2>"$work/stderr" &
	pid=$!
	"$fabemu" live "$expdir/live/memif-right.yaml" -o "$work/right" --max-wall 60s -q \
		--set live.poll=yield --set "live.ports.1.iface=$if1" --set "live.ports.1.netns=$ns1" \
		--set "live.ports.0.socket=$sock" >"$work/stdout2" 2>"$work/stderr2" &
	pid2=$!
	for _ in $(seq 100); do
		ip -n "$ns0" -4 addr show dev "$if0" 2>/dev/null | grep -q 10.0.0.1/8 &&
			ip -n "$ns1" -4 addr show dev "$if1" 2>/dev/null | grep -q 10.0.0.2/8 && break
		sleep 0.1
	done
	sleep 0.5 # (the memif's two sides connect meanwhile)
	echoes
	kill -INT "$pid" "$pid2"
	wait "$pid" || { cat "$work/stderr" >&2; echo "FAIL: the left fabemu failed" >&2; exit 1; }
	wait "$pid2" || { cat "$work/stderr2" >&2; echo "FAIL: the right fabemu failed" >&2; exit 1; }
	pid=
	pid2=
	read -r n med min <"$work/rtt"
	python3 - "$n" "$med" "$min" "$work/left/summary.json" "$work/right/summary.json" <<'EOF'
import json, sys
n, med, least = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
left, right = json.load(open(sys.argv[4])), json.load(open(sys.argv[5]))
path = 2 * (4 * 1.0 + 4 * 84 * 8 / 1e9 * 1e3)
m_l, m_r = left["live"]["ports"]["h1:0"], right["live"]["ports"]["h0:0"]
ok = n >= 20 and least >= path - 0.01 and path <= med <= path + 2.0 \
    and m_l["out_frames"] >= n and m_r["in_frames"] >= n and m_r["out_frames"] >= n \
    and m_l["in_frames"] >= n and left["valid"] and right["valid"]
print("%s: two fabemu processes over memif: %d echoes, median RTT %.3f ms, least %.3f ms, path "
      "%.4f ms; memif frames left->right %d/%d, right->left %d/%d" % ("ok" if ok else "FAIL", n, med,
      least, path, m_l["out_frames"], m_r["in_frames"], m_r["out_frames"], m_l["in_frames"]))
sys.exit(0 if ok else 1)
EOF
	exit
fi

fam=4
[ "$mode" = ecn6 ] && fam=6 && mode=ecn
case "$mode" in
rtt) exp=$expdir/live/two-namespaces.yaml ;;
rate | ecn | pfc) exp=$expdir/live/bottleneck.yaml ;;
*) echo "usage: $0 FABEMU EXPDIR rtt|rate|ecn|ecn6|pfc|memif|roce|pci [tap|veth [DILATION]]" >&2; exit 2 ;;
esac
if [ "$mode" = ecn ]; then
	ip netns exec "$ns0" sysctl -qw net.ipv4.tcp_ecn=1
	ip netns exec "$ns1" sysctl -qw net.ipv4.tcp_ecn=1
fi

"$fabemu" live "$exp" -o "$work/out" --max-wall 60s -q \
	--set "live.ports.0.iface=$if0" --set "live.ports.0.netns=$ns0" \
	--set "live.ports.1.iface=$if1" --set "live.ports.1.netns=$ns1" \
	--set "live.ports.0.driver=$driver" --set "live.ports.1.driver=$driver" \
	$([ "$mode" = ecn ] && echo "--set capture.ports=[sw1:0]") \
	$([ "$mode" = rtt ] && echo "--set live.dilation=$dilation --check --junit $work/junit.xml") \
	$([ "$mode" = pfc ] && echo "--set fabric.pfc.priorities=[3]") \
	>"$work/stdout" 2>"$work/stderr" &
pid=$!
# Ready once both TAPs are up in their namespaces with their addresses.
for _ in $(seq 100); do
	if ip -n "$ns0" -4 addr show dev "$if0" 2>/dev/null | grep -q 10.0.0.1/8 &&
		ip -n "$ns1" -4 addr show dev "$if1" 2>/dev/null | grep -q 10.0.0.2/8 &&
		ip -n "$ns1" link show dev "$if1" 2>/dev/null | grep -q ',UP'; then
		break
	fi
	if ! kill -0 "$pid" 2>/dev/null; then
		cat "$work/stderr" >&2
		echo "FAIL: fabemu live ended before its ports were up" >&2
		exit 1
	fi
	sleep 0.1
done

if [ "$mode" = rtt ]; then
	echoes
	echoes 6
	read -r n med min <"$work/rtt"
	read -r n6 med6 min6 <"$work/rtt6"
	kill -INT "$pid"
	wait "$pid" || { cat "$work/stdout" "$work/stderr" >&2; echo "FAIL: fabemu live --check failed" >&2; exit 1; }
	pid=
	# --check: the file's two assertions, judged and reported.
	grep -q "^2 passed, 0 failed" "$work/stdout" && grep -q 'failures="0"' "$work/junit.xml" ||
		{ cat "$work/stdout" >&2; echo "FAIL: fabemu live --check: not 2 assertions passed" >&2; exit 1; }
	echo "ok: fabemu live --check: 2 passed, 0 failed (and the JUnit report)"
	# IPv4, then IPv6: the same path; an echo of one byte is a padded
	# minimal frame over IPv4 (84 bytes on the wire with preamble and gap),
	# 87 over IPv6 (14 + 40 + 8 + 1, FCS, 20).
	for fam in 4 6; do
		if [ "$fam" = 4 ]; then set -- "$n" "$med" "$min"; else set -- "$n6" "$med6" "$min6"; fi
		python3 - "$@" "$dilation" "$fam" <<'EOF'
import sys
n, med, least, dil = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
path = dil * 2 * (3 * 1.0 + 3 * (84 if sys.argv[5] == "4" else 87) * 8 / 1e9 * 1e3)
# The fastest echo bounds the model's path both ways (one of 21 gets
# through an unloaded moment: a path 1 ms off fails); the median only
# loosely: a busy machine (a build beside the tests) delays most echoes
# by milliseconds (9-15 ms medians here beside two CPU hogs).
ok = n >= 20 and path - 0.01 <= least <= path + 1.0 and path <= med <= path + 5.0
print("%s: IPv%s: %d echoes, median %.3f ms, least %.3f ms, path %.4f ms (live.dilation %g)" % (
    "ok" if ok else "FAIL", sys.argv[5], n, med, least, path, dil))
sys.exit(0 if ok else 1)
EOF
	done
	# Every echo both ways on h0's port, as the outside decoder reads it
	# (IPv6: the requests, to fd00:fab::10.0.0.2, and the answers).
	cap=$work/out/capture/h0-p0.pcap
	malformed=$(tshark -r "$cap" -Y _ws.malformed 2>/dev/null | wc -l)
	udp=$(tshark -r "$cap" -Y 'ip && udp.port == 7' 2>/dev/null | wc -l)
	udp6=$(tshark -r "$cap" -Y 'ipv6 && udp.port == 7' 2>/dev/null | wc -l)
	echo "capture: $udp IPv4 and $udp6 IPv6 UDP frames to or from port 7, $malformed malformed"
	[ "$malformed" -eq 0 ] && [ "$udp" -ge $((2 * n)) ] && [ "$udp6" -ge $((2 * n6)) ] ||
		{ echo "FAIL: capture" >&2; exit 1; }
	"$fabemu" run "$exp" --set 'live.ports=[]' -o "$work/sim" -q
	python3 - "$work/out/flows.csv" "$work/sim/flows.csv" <<'EOF'
import csv, sys
live = list(csv.DictReader(open(sys.argv[1])))
sim = list(csv.DictReader(open(sys.argv[2])))
ok = len(live) == len(sim) == 1 and live[0]["status"] == "complete" and live[0]["fct_ns"] == sim[0]["fct_ns"]
print("%s: the simulated hosts' WRITE in the live run: %s, FCT %s ns; simulated alone: %s ns" % (
    "ok" if ok else "FAIL", live[0]["status"] if live else "-", live[0]["fct_ns"] if live else "-",
    sim[0]["fct_ns"] if sim else "-"))
sys.exit(0 if ok else 1)
EOF
	python3 - "$work/out/summary.json" "$n" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
p0, p1 = s["live"]["ports"]["h0:0"], s["live"]["ports"]["h1:0"]
ok = s["valid"] and p0["in_frames"] >= n and p1["out_frames"] >= n and p1["in_frames"] >= n \
    and p0["out_frames"] >= n and p0["arp_replies"] >= 2 and s["drops"]["total"] == 0
print("%s: summary.json live counters: h0 in %d out %d, h1 in %d out %d, drops %d" % (
    "ok" if ok else "FAIL", p0["in_frames"], p0["out_frames"], p1["in_frames"], p1["out_frames"],
    s["drops"]["total"]))
sys.exit(0 if ok else 1)
EOF
	exit 0
fi

if [ "$mode" = ecn ]; then
	dst=10.0.0.2
	[ "$fam" = 6 ] && dst=fd00:fab::10.0.0.2
	ip netns exec "$ns1" python3 - "$fam" "$dst" >"$work/rx" <<'EOF' &
import socket, sys, time
s = socket.socket(socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[2], 5002))
s.listen(1)
s.settimeout(20)
c, _ = s.accept()
n, t0 = 0, time.perf_counter()
while True:
    d = c.recv(1 << 16)
    if not d:
        break
    n += len(d)
print(n, time.perf_counter() - t0)
EOF
	rx_pid=$!
	sleep 0.3
	ip netns exec "$ns0" python3 - "$fam" "$dst" <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET)
s.connect((sys.argv[2], 5002))
b = bytes(1 << 16)
t0 = time.perf_counter()
while time.perf_counter() - t0 < 2.0:
    s.send(b)
s.close()
EOF
	wait "$rx_pid"
	stop_live
	read -r bytes secs <"$work/rx"
	cap=$work/out/capture/sw1-p0.pcap
	if [ "$fam" = 6 ]; then
		ce=$(tshark -r "$cap" -Y 'ipv6.tclass.ecn == 3 && tcp' 2>/dev/null | wc -l)
		ece=$(tshark -r "$cap" -Y 'ipv6 && tcp.flags.ece == 1' 2>/dev/null | wc -l)
	else
		ce=$(tshark -r "$cap" -Y 'ip.dsfield.ecn == 3' 2>/dev/null | wc -l)
		ece=$(tshark -r "$cap" -Y 'tcp.flags.ece == 1' 2>/dev/null | wc -l)
	fi
	python3 - "$bytes" "$secs" "$work/out" "$ce" "$ece" "$fam" <<'EOF'
import csv, json, statistics, sys
bytes_, secs, out, ce, ece = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
good = bytes_ * 8 / secs / 1e6 if secs > 0 else 0
# TCP's payload per 1538 bytes on the wire: 1448 over IPv4, 20 fewer over IPv6.
expect = 100 * (1448 if sys.argv[6] == "4" else 1428) / 1538
s = json.load(open(out + "/summary.json"))
q = sorted(int(r["queue_bytes"]) for r in csv.DictReader(open(out + "/series.csv"))
           if r["port"] == "sw0:1" and int(r["queue_bytes"]) > 0)
med = statistics.median(q) if q else 0
p95 = q[int(len(q) * 0.95)] if q else 0
ok = s["drops"]["total"] == 0 and ce > 0 and ece > 0 and med < 128 * 1024 and p95 < 192 * 1024 \
    and len(q) >= 1500 and abs(good - expect) <= 0.10 * expect
print("%s: TCP over IPv%s with ECN: %.2f Mb/s (the bottleneck's TCP payload rate %.2f), %d drops, %d CE-marked "
      "frames and %d ECE echoes at sw1:0, queue at sw0:1 median %d B, p95 %d B over %d busy samples "
      "of 1 ms (buffer 262144 B)" % ("ok" if ok else "FAIL", sys.argv[6], good, expect, s["drops"]["total"], ce,
                                    ece, med, p95, len(q)))
sys.exit(0 if ok else 1)
EOF
	exit
fi

# rate: a receiver counting bytes, a sender offering ~200 Mb/s for 2 s.
ip netns exec "$ns1" python3 - >"$work/rx" <<'EOF' &
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.0.0.2", 5001))
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.settimeout(0.8)
n = 0
first = last = None
while True:
    try:
        d = s.recv(2048)
    except socket.timeout:
        if first is not None:
            break
        continue
    now = time.perf_counter()
    if first is None:
        first = now
    else:
        n += len(d)  # bytes after the first datagram, over the time since it
    last = now
print(n, last - first if first else 0)
EOF
rx_pid=$!
if [ "$mode" = pfc ]; then
	# What reaches the sender's interface as 802.1Qbb frames (MAC control,
	# opcode 0x0101): "FRAMES PAUSING RESUMING".
	ip netns exec "$ns0" python3 - "$if0" >"$work/pfc" <<'EOF' &
import socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8808))
s.bind((sys.argv[1], 0))
s.settimeout(0.5)
n = pausing = resuming = 0
end = time.time() + 4.5
while time.time() < end:
    try:
        f = s.recv(128)
    except socket.timeout:
        continue
    except OSError:
        break  # the TAP went away with fabemu
    if len(f) < 34 or struct.unpack("!H", f[14:16])[0] != 0x0101:
        continue
    n += 1
    vec = struct.unpack("!H", f[16:18])[0]
    times = struct.unpack("!8H", f[18:34])
    if vec & 8 and times[3]:
        pausing += 1
    if vec & 8 and not times[3]:
        resuming += 1
print(n, pausing, resuming)
EOF
	pfc_pid=$!
fi
sleep 0.3
ip netns exec "$ns0" python3 - "$mode" <<'EOF'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if sys.argv[1] == "pfc":
    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, 26 << 2)  # DSCP 26: priority 3, lossless
buf = bytes(1400)
rate = 200e6  # offered, bit/s of payload
t0 = time.perf_counter()
sent = 0
while time.perf_counter() - t0 < 2.0:
    while sent * 8 < rate * (time.perf_counter() - t0):
        s.sendto(buf, ("10.0.0.2", 5001))
        sent += len(buf)
    time.sleep(0.0005)
EOF
wait "$rx_pid"
stop_live
read -r bytes secs <"$work/rx"
if [ "$mode" = pfc ]; then
	wait "$pfc_pid"
	read -r pfc_n pfc_on pfc_off <"$work/pfc"
	python3 - "$bytes" "$secs" "$work/out" "$pfc_n" "$pfc_on" "$pfc_off" <<'EOF'
import json, sys
bytes_, secs, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
n, on, off = (int(x) for x in sys.argv[4:7])
good = bytes_ * 8 / secs / 1e6 if secs > 0 else 0
expect = 100 * 1400 / 1466
s = json.load(open(out + "/summary.json"))
h0 = s["live"]["ports"]["h0:0"]
ok = abs(good - expect) <= 0.05 * expect and s["drops"]["total"] == 0 and on > 0 and off > 0 \
    and n == h0["pfc_sent"] and h0["drops_queue"] > 0 and s["pfc"]["xoff_sent"] > 0
print("%s: lossless class: goodput %.2f Mb/s (bottleneck payload rate %.2f), %d drops in the "
      "fabric, %d PFC pauses from the switches; the sender's interface saw %d 802.1Qbb frames "
      "(%d pausing priority 3, %d resuming; live.ports.h0:0.pfc_sent %d); %d frames refused at "
      "the host port's live.queue" % ("ok" if ok else "FAIL", good, expect, s["drops"]["total"],
      s["pfc"]["xoff_sent"], n, on, off, h0["pfc_sent"], h0["drops_queue"]))
sys.exit(0 if ok else 1)
EOF
	exit
fi
python3 - "$bytes" "$secs" "$work/out" <<'EOF'
import csv, json, sys
bytes_, secs, out = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
good = bytes_ * 8 / secs / 1e6 if secs > 0 else 0
expect = 100 * 1400 / 1466
s = json.load(open(out + "/summary.json"))
q = [int(r["queue_bytes"]) for r in csv.DictReader(open(out + "/series.csv")) if r["port"] == "sw0:1"]
qmax = max(q) if q else 0
full = sum(1 for x in q if x >= (256 - 16) * 1024)
ok = abs(good - expect) <= 0.05 * expect and qmax <= 256 * 1024 and full >= 800 \
    and s["drops"]["total"] > 0
print("%s: goodput %.2f Mb/s (bottleneck payload rate %.2f), queue at sw0:1 peaks at %d B, "
      "%d samples of 1 ms within 16 KiB of the 256 KiB buffer, %d drops" % (
      "ok" if ok else "FAIL", good, expect, qmax, full, s["drops"]["total"]))
sys.exit(0 if ok else 1)
EOF
