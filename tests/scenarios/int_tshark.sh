#!/usr/bin/env bash
# HPCC's in-band telemetry on the wire (fabric.int: true): run an experiment
# with h0 (the sender) and h1 (the receiver) captured, both behind one
# switch; decode both captures with tshark (nothing malformed, the expected
# opcodes); every frame h1 sends or receives carries the INT flag (BTH byte
# 4 = 0x20: data with the switch's record, ACKs with its echo), the data h0
# sends none; each data opcode arrives 20 bytes longer than it left (stack
# header and one record; 12 with --set fabric.int_record=compact, whose
# records are 8 bytes); the NICs found no bad ICRC.
#   int_tshark.sh FABEMU EXPERIMENT OPCODE-COUNTS [--set k=v]...
set -eu
fabemu=$1
exp=$2
counts=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed"; exit 77; }
. "$here/lib.sh"
want_grow=20
case " $* " in *" fabric.int_record=compact "*) want_grow=12 ;; esac
"$fabemu" run "$exp" -o "$tmp/out" -q --set fabric.int=true --set 'capture.ports=[h0:0, h1:0]' "$@"
for h in h0 h1; do
	bash "$here/tshark_check.sh" "$tmp/out/capture/$h-p0.pcap" "$counts" || fail=1
	tshark -r "$tmp/out/capture/$h-p0.pcap" -T fields -e infiniband.bth.opcode \
		-e infiniband.reserved -e frame.len 2>/dev/null >"$tmp/$h.txt"
done
# h1: everything flagged. h0: ACKs flagged, its own data not.
awk -F '\t' '$2 != "20"' "$tmp/h1.txt" | grep -q . && bad "h1: frames without the INT flag"
awk -F '\t' '($1 == 17) != ($2 == "20")' "$tmp/h0.txt" | grep -q . &&
	bad "h0: flag on data or missing on an ACK"
# Per data opcode, the length at h1 less the length at h0 (same message mix).
grow=$(awk -F '\t' 'FNR == NR { if ($1 != 17) a[$1] = $3; next }
	$1 != 17 && $1 in a { print $3 - a[$1] }' "$tmp/h0.txt" "$tmp/h1.txt" | sort -u)
[ "$grow" = "$want_grow" ] || bad "data frames grew by '$grow' bytes, want $want_grow"
[ "$(key "$tmp/out/summary.json" nic.icrc_errors)" = 0 ] || bad "ICRC errors"
[ "$fail" = 0 ] && echo "int tshark: OK"
exit "$fail"
