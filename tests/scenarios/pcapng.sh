#!/usr/bin/env bash
# capture.format: pcapng writes one capture/capture.pcapng with an interface
# per captured port: the same run with per-port pcaps gives each interface
# the same frames, interfaces are named node:port, nothing is malformed
# (RPC-over-RDMA off, as docs/user-guide.md says).
#   pcapng.sh FABEMU EXPERIMENT PORTS [--set k=v]...   PORTS e.g. '[h0:0, sw0:1]'
set -eu
fabemu=$1
exp=$2
ports=$3
shift 3
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "pcapng: FAIL: $*" >&2; exit 1; }

"$fabemu" run "$exp" -o "$tmp/a" -q --set "capture.ports=$ports" "$@"
"$fabemu" run "$exp" -o "$tmp/b" -q --set "capture.ports=$ports" --set capture.format=pcapng "$@"
ng=$tmp/b/capture/capture.pcapng
[ -f "$ng" ] || fail "no capture/capture.pcapng"
ls "$tmp/b/capture" | grep -q '\.pcap$' && fail "pcapng run also wrote per-port pcaps"
tshark -r "$ng" -T fields -e frame.interface_name 2>/dev/null | sort | uniq -c >"$tmp/ifs"
n_ifs=0
for pcap in "$tmp"/a/capture/*.pcap; do
	base=$(basename "$pcap" .pcap)     # h0-p0
	ifname="${base%-p*}:${base##*-p}"  # h0:0
	want=$(tshark -r "$pcap" 2>/dev/null | wc -l)
	got=$(awk -v n="$ifname" '$2 == n { print $1 }' "$tmp/ifs")
	[ "${got:-0}" = "$want" ] || fail "interface $ifname: ${got:-0} frames, $base.pcap has $want"
	# Same frames, same nanosecond times.
	tshark -r "$pcap" -T fields -e frame.time_epoch -e frame.len 2>/dev/null >"$tmp/x"
	tshark -r "$ng" -Y "frame.interface_name == \"$ifname\"" -T fields -e frame.time_epoch \
		-e frame.len 2>/dev/null >"$tmp/y"
	cmp -s "$tmp/x" "$tmp/y" || fail "interface $ifname: times or lengths differ from $base.pcap"
	n_ifs=$((n_ifs + 1))
done
[ "$(wc -l <"$tmp/ifs")" = "$n_ifs" ] || fail "$(wc -l <"$tmp/ifs") interfaces with frames, want $n_ifs"
bad=$(tshark --disable-protocol rpcordma -r "$ng" -Y '_ws.malformed || _ws.expert.severity == error' 2>/dev/null | wc -l)
[ "$bad" = 0 ] || fail "$bad malformed frames"
tshark -r "$ng" -T fields -e frame.interface_name 2>/dev/null | grep -q . || fail "no interface names"
echo "pcapng: OK ($n_ifs interfaces)"
