#!/usr/bin/env bash
# RDMA WRITE with immediate decoded by tshark (the external decoder), with
# payload left out and materialised: tests/scenarios/write-imm.yaml's
# capture has no malformed frame and the opcodes that file derives; tshark
# reads each ImmDt as the message's index (0, then 1: what the traffic
# layer puts there) and the frame lengths docs/wire-formats.md gives,
# without FCS: WRITE Last with Immediate of 1024 B = 14 + 20 + 8 + 12 + 4
# + 1024 + 4 = 1086, WRITE Only with Immediate of 100 B = 14 + 20 + 8 + 12
# + 16 + 4 + 100 + 4 = 178 (RETH DMA length 100).
#   write_imm_tshark.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed"; exit 77; }
. "$here/lib.sh"
for payload in false true; do
	"$fabemu" run "$exp" -o "$tmp/$payload" -q --set nic.payload=$payload
	pcap=$tmp/$payload/capture/h0-p0.pcap
	bash "$here/tshark_check.sh" "$pcap" 6:1,7:62,9:1,11:1,17:5 || fail=1
	got=$(tshark -r "$pcap" -Y 'infiniband.bth.opcode == 9 || infiniband.bth.opcode == 11' -T fields \
		-E occurrence=f -e infiniband.bth.opcode -e infiniband.immdt -e frame.len \
		-e infiniband.reth.dmalen 2>/dev/null | tr '\t' ' ')
	want=$(printf '9 00000000 1086 \n11 00000001 178 100')
	[ "$got" = "$want" ] || bad "payload $payload: tshark read '$got', want '$want'"
done
[ "$fail" = 0 ] && echo "write-imm tshark: OK"
exit "$fail"
