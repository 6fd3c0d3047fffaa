#!/usr/bin/env bash
# RoCEv2 CNPs decoded by tools/fabemu-roce.lua (Wireshark 4.0 calls opcode
# 0x81 "Unknown (129)"): a DCQCN incast captured at one sender, h1. The
# CNPs the script names are as many as flows.csv says h1's QP received
# (qp_cnps_received, the NIC's own count), each has BECN set, and each
# notifies the QP that h1's ACKs are addressed to (its own QP).
#   cnp_decode.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cnp_decode: FAIL: $*" >&2; exit 1; }

"$fabemu" run "$exp" -o "$tmp/out" -q --set 'capture.ports=[h1:0]' --set stop_time=200us 2>/dev/null
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["src"] == "h1" { n += $c["qp_cnps_received"] } END { print n + 0 }' "$tmp/out/flows.csv")
[ "$want" -gt 0 ] || fail "no CNPs in flows.csv: the experiment does not exercise CNPs"
tshark -X lua_script:"$here/../../tools/fabemu-roce.lua" -r "$tmp/out/capture/h1-p0.pcap" \
	-Y 'ip.dst == 10.0.0.2' -T fields -e infiniband.bth.opcode -e fabemu_roce.cnp \
	-e fabemu_roce.becn -e fabemu_roce.cnp_dqp -e infiniband.bth.destqp 2>/dev/null >"$tmp/f.txt" || true
got=$(awk -F '\t' '$2 == "1" || $2 == "True"' "$tmp/f.txt" | wc -l)
[ "$got" = "$want" ] || fail "$got CNPs decoded, flows.csv says h1 received $want"
awk -F '\t' '$1 == 129 && ($2 != "1" && $2 != "True")' "$tmp/f.txt" | grep -q . && fail "opcode 0x81 not named a CNP"
awk -F '\t' '$1 == 129 && $3 != "1" && $3 != "True"' "$tmp/f.txt" | grep -q . && fail "a CNP without BECN"
awk -F '\t' '$1 == 17 { q[$5] = 1; next } $1 == 129 { c[$4] = 1 }
	END { for (k in c) if (!(k in q)) exit 1 }' "$tmp/f.txt" || fail "a CNP to a QP h1's ACKs do not go to"
echo "cnp_decode: OK ($got CNPs)"
