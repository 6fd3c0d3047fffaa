#!/usr/bin/env bash
# nccl-tests' table with busbw per NIC and the line-rate ceilings
# (docs/results.md, "The collectives table"). Hand-derived: a ring
# all-reduce of 8 MiB over 2 rail-optimised nodes of 8 GPUs (400 Gb/s rail
# NICs, NVLink inside each node) runs 8 rail-aligned channels; a rank
# sends 2(n-1)/n S in all, and each channel leaves each node once, through
# that channel's rail NIC, with 1/8 of it: the NIC share is 0.1250. A RoCE
# WRITE's middle packet of 4096 B is 4178 B on the wire (14 Ethernet + 4
# FCS + 20 IPv4 + 8 UDP + 12 BTH + 4 ICRC + 20 preamble and gap + 4096), so
# a NIC's ceiling is 400 / 8 x 4096 / 4178 = 49.02 GB/s and a rank's
# 49.02 / 0.125 = 392.15 GB/s; busbw/NIC is busbw / 8. On a leaf-spine of
# one NIC per rank the share is 1 and both ceilings are the NIC's.
#   nccl_table.sh FABEMU
set -u
fabemu=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cat >"$tmp/rail.yaml" <<'YAML'
name: rail-ar
topology: {kind: rail-optimised, gpus_per_node: 8, nodes_per_unit: 2, nodes: 2,
           host_link: {rate: 400Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
nic: {mtu: 4096}
traffic:
  - {kind: collective, name: ar, collective: all-reduce, size: 8MiB}
YAML
"$fabemu" run "$tmp/rail.yaml" -o "$tmp/rail" >"$tmp/rail.out" 2>&1 || { cat "$tmp/rail.out"; exit 1; }
row=$(awk '$1 == 8388608' "$tmp/rail.out")
read -r _ _ _ _ _ busbw ceil nicbw nicceil <<<"$row"
awk -v b="$busbw" -v c="$ceil" -v nb="$nicbw" -v nc="$nicceil" 'BEGIN {
	ok = c == "392.15" && nc == "49.02" && (nb - b / 8) ^ 2 < 0.0001 && b <= c + 0; exit !ok }' ||
	{ echo "FAIL [rail]: want ceiling 392.15, NIC ceiling 49.02, busbw/NIC = busbw / 8; got: $row"; fail=1; }
grep -q "per NIC: busbw x 0.1250 (node0/nic0 sends 0.1250 of a rank's bytes); NIC ceiling 49.02 GB/s (400 Gb/s x 4096 / 4178 B on the wire)" "$tmp/rail.out" ||
	{ echo "FAIL [rail]: the per-NIC line:"; cat "$tmp/rail.out"; fail=1; }

cat >"$tmp/ls.yaml" <<'YAML'
name: ls-ar
topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
nic: {mtu: 4096}
traffic:
  - {kind: collective, name: ar, collective: all-reduce, size: 4MiB}
YAML
"$fabemu" run "$tmp/ls.yaml" -o "$tmp/ls" >"$tmp/ls.out" 2>&1 || { cat "$tmp/ls.out"; exit 1; }
row=$(awk '$1 == 4194304' "$tmp/ls.out")
read -r _ _ _ _ _ busbw ceil nicbw nicceil <<<"$row"
[ "$ceil" = 12.25 ] && [ "$nicceil" = 12.25 ] && [ "$nicbw" = "$busbw" ] ||
	{ echo "FAIL [leaf-spine]: want both ceilings 100 / 8 x 4096 / 4178 = 12.25, busbw/NIC = busbw; got: $row"; cat "$tmp/ls.out"; fail=1; }
[ "$fail" -eq 0 ] && echo "nccl table: OK"
exit "$fail"
