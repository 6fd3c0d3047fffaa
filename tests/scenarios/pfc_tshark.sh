#!/usr/bin/env bash
# Run the PFC incast and decode the sender-side capture with tshark (the
# external decoder): the switch's pause frames must decode as 802.1Qbb PFC
# (MAC control opcode 0x0101) enabling priority 3 only, both XOFF (timer
# 65535) and XON (timer 0) present, nothing malformed.
#   pfc_tshark.sh FABEMU EXPERIMENT PCAP-NAME
set -eu
fabemu=$1
exp=$2
pcap=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$fabemu" run "$exp" -o "$tmp/out" -q
file="$tmp/out/capture/$pcap"
bash "$here/tshark_check.sh" "$file"
rows=$(tshark -r "$file" -Y 'macc.opcode == 0x0101' -T fields -e macc.cbfc.enbv \
	-e macc.cbfc.pause_time.c3 2>/dev/null)
[ -n "$rows" ] || { echo "FAIL: no PFC frame decoded in $pcap"; exit 1; }
if printf '%s\n' "$rows" | awk -F '\t' '$1 != "0x0008"' | grep -q .; then
	echo "FAIL: a PFC frame enables other priorities than 3:"
	printf '%s\n' "$rows" | sort | uniq -c
	exit 1
fi
xoff=$(printf '%s\n' "$rows" | awk -F '\t' '$2 == 65535' | wc -l)
xon=$(printf '%s\n' "$rows" | awk -F '\t' '$2 == 0' | wc -l)
[ "$xoff" -gt 0 ] && [ "$xon" -gt 0 ] || { echo "FAIL: want XOFF and XON frames, got $xoff XOFF, $xon XON"; exit 1; }
echo "pfc tshark: OK ($xoff XOFF, $xon XON on priority 3)"
