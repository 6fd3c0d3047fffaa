#!/usr/bin/env bash
# Captures with names: a run that captures writes capture/hosts and
# capture/ethers, and tshark reading them shows endpoint and port names
# (ip.src_host == h0, eth.src_resolved == h0-p0) instead of addresses.
#   capture_names.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "capture_names: FAIL: $*" >&2; exit 1; }

"$fabemu" run "$exp" -o "$tmp/out" -q --set 'capture.ports=[h0:0, sw0:1]'
cap=$tmp/out/capture
[ -f "$cap/hosts" ] && [ -f "$cap/ethers" ] || fail "no capture/hosts or capture/ethers"
grep -qx '10.0.0.1	h0' "$cap/hosts" || fail "hosts: no line for h0"
grep -qx '10.0.0.2	h1' "$cap/hosts" || fail "hosts: no line for h1"
grep -qx '02:01:00:00:00:01	sw0-p1' "$cap/ethers" || fail "ethers: no line for sw0-p1"

# The preferences documented in docs/user-guide.md: the capture folder as
# Wireshark's personal configuration folder, network and MAC names on.
names() {
	WIRESHARK_CONFIG_DIR=$cap tshark -N mn -r "$1" -Y "$2" -T fields -e frame.number 2>/dev/null | wc -l
}
n_all=$(tshark -r "$cap/h0-p0.pcap" 2>/dev/null | wc -l)
[ "$n_all" -gt 0 ] || fail "empty capture"
n=$(names "$cap/h0-p0.pcap" 'ip.src_host == "h0" || ip.dst_host == "h0"')
[ "$n" -gt 0 ] || fail "no frame shows h0 as its IP host"
n=$(names "$cap/h0-p0.pcap" 'eth.src_resolved == "h0-p0" || eth.dst_resolved == "h0-p0"')
[ "$n" = "$n_all" ] || fail "$n of $n_all frames at h0:0 resolve h0-p0"
n=$(names "$cap/sw0-p1.pcap" 'eth.src_resolved == "sw0-p1" && ip.dst_host == "h1"')
[ "$n" -gt 0 ] || fail "no frame from sw0-p1 to h1 named"
# tshark -H reads the hosts file alone.
n=$(tshark -N n -H "$cap/hosts" -r "$cap/h0-p0.pcap" -Y 'ip.src_host == "h0"' 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || fail "tshark -H hosts: no frame from h0"
echo "capture_names: OK ($n_all frames at h0:0 named)"
