#!/usr/bin/env bash
# LID names in InfiniBand captures: an IB run that captures writes
# capture/lids.csv, endpoint e at LID e + 1 (the subnet manager's rule,
# docs/infiniband.md) under the name capture/hosts gives its IPv4 address
# 10.0.0.(e + 1); tools/fabemu-ib.lua, reading it through
# WIRESHARK_CONFIG_DIR, names every data packet's SLID and DLID as that
# rule says. A RoCE run writes no lids.csv and removes an earlier one.
#   ib_lids.sh FABEMU IB-EXPERIMENT ROCE-EXPERIMENT
set -eu
fabemu=$1
ib=$2
roce=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "ib_lids: FAIL: $*" >&2; exit 1; }

"$fabemu" run "$ib" -o "$tmp/ib" -q --set capture.ib_linktype=user0 --set 'capture.ports=[h1:0]'
cap=$tmp/ib/capture
[ -f "$cap/lids.csv" ] || fail "no capture/lids.csv"
[ "$(head -1 "$cap/lids.csv")" = "lid,name,node,port,ip" ] || fail "lids.csv header"
# Every row: LID = the address's last octet (both e + 1), name as in hosts.
awk -F, 'NR == FNR { if ($0 !~ /^#/) { split($1, o, /[.\t]/); h[o[4]] = $2 } next }
	FNR > 1 { split($5, o, "."); if ($1 != o[4] || h[$1] != $2) bad = 1; n++ }
	END { exit (bad || n == 0) }' FS='\t' "$cap/hosts" FS=, "$cap/lids.csv" ||
	fail "lids.csv disagrees with hosts (LID e + 1, 10.0.0.(e + 1))"
# The dissector's names: SLID and DLID resolved through the same rule.
WIRESHARK_CONFIG_DIR=$cap tshark -X lua_script:"$here/../../tools/fabemu-ib.lua" \
	-r "$cap/h1-p0.pcap" -Y infiniband.lrh -T fields -e infiniband.lrh.slid \
	-e infiniband.lrh.dlid -e fabemu_ib.src_name -e fabemu_ib.dst_name 2>/dev/null >"$tmp/f.txt" || true
n=$(wc -l <"$tmp/f.txt")
[ "$n" -gt 0 ] || fail "no data packets decoded"
awk -F '\t' '$3 != "h" ($1 - 1) || $4 != "h" ($2 - 1)' "$tmp/f.txt" | grep -q . &&
	fail "a LID named other than h(LID - 1): $(awk -F '\t' '$3 != "h" ($1 - 1)' "$tmp/f.txt" | head -1)"
"$fabemu" run "$roce" -o "$tmp/roce" -q --set 'capture.ports=[h0:0]'
[ ! -e "$tmp/roce/capture/lids.csv" ] || fail "a RoCE run wrote lids.csv"
# A RoCE run into the IB run's folder removes the stale lids.csv.
"$fabemu" run "$roce" -o "$tmp/ib" -q --set 'capture.ports=[h0:0]'
[ ! -e "$cap/lids.csv" ] || fail "a RoCE run left an earlier run's lids.csv"
echo "ib_lids: OK ($n packets named)"
