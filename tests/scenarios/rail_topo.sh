#!/usr/bin/env bash
# The shipped rail-optimised topology files through `fabemu topo`: each
# builds and prints the counts its header comment gives (the published
# NVIDIA DGX SuperPOD rows for the two preset files), and draws with
# --dot; the 16,384-GPU preset (B200, 64 SUs) builds in well under the
# bound (loose here: a shared CI machine; docs/config.md has the timing).
#   rail_topo.sh FABEMU TOPOLOGIES_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

# want FILE LINE...: `fabemu topo FILE` prints every LINE (fixed strings)
want() {
	local file=$1
	shift
	"$fabemu" topo "$dir/$file" >"$tmp/out" 2>&1 || { bad "$file: exit $?"; cat "$tmp/out"; return; }
	for line in "$@"; do
		grep -qF -- "$line" "$tmp/out" || bad "$file: no line '$line' in: $(cat "$tmp/out")"
	done
	"$fabemu" topo "$dir/$file" --dot >"$tmp/g.dot"
	grep -q "subgraph cluster_unit0 {" "$tmp/g.dot" || bad "$file: --dot"
	# Graphviz (the external reader) lays it out: a well-formed SVG.
	if command -v dot >/dev/null 2>&1; then
		dot -Tsvg "$tmp/g.dot" >"$tmp/g.svg" 2>"$tmp/dot.err" || bad "$file: dot failed: $(cat "$tmp/dot.err")"
		python3 -c 'import sys, xml.etree.ElementTree as ET; r = ET.parse(sys.argv[1]).getroot(); sys.exit(not r.tag.endswith("svg"))' \
			"$tmp/g.svg" || bad "$file: dot did not make an SVG"
	fi
}
want dgx-h100-superpod.yaml "248 GPUs in 31 nodes of 8, 1 unit of 32 node slots" \
	"leaf: 8 switches" "spine: 4 switches" "node-leaf: 252 (248 GPU NIC + 4 management)" \
	"leaf-spine: 256 x 400Gbps" "(100% of half the GPU NIC capacity"
want dgx-b200-superpod.yaml "1024 GPUs in 128 nodes of 8, 4 units" "leaf: 32 switches" \
	"spine: 16 switches" "node-leaf: 1024 x 400Gbps" "leaf-spine: 1024 x 400Gbps" "gpu-nvl: 1024 x 7.2Tbps"
want rail-2node-8gpu.yaml "16 GPUs in 2 nodes of 8" "leaf: 8 switches, 4/64 ports" "spine: 1 switch," \
	"NVLink domains: 2 of 8 GPUs"
want gb200-nvl72.yaml "144 GPUs in 36 nodes of 4" "NVLink domains: 2 of 72 GPUs" \
	"scale-up (nvl): 2 switches, 72/72 ports" "gpu-nvl: 144 x 7.2Tbps"
want rail-multi-plane.yaml "128 GPUs in 16 nodes of 8, 2 units of 8 node slots, 1 pod, 2 planes" \
	"2 ports each" "leaf: 32 switches (16 per plane)" "node-leaf: 256 x 400Gbps" "(100% of half"

printf 'topology: {kind: rail-optimised, preset: dgx-b200-superpod, units: 64}\n' >"$tmp/b200-64.yaml"
start=$(date +%s%N)
"$fabemu" topo "$tmp/b200-64.yaml" >"$tmp/out" || bad "16K GPUs: exit $?"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -qF "core: 256 switches" "$tmp/out" || bad "16K GPUs: $(cat "$tmp/out")"
check "16,384 GPUs built and described in ${ms} ms" "$ms < 5000"
[ "$fail" -eq 0 ] && echo "rail topologies: OK"
exit "$fail"
