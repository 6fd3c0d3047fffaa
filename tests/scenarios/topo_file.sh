#!/usr/bin/env bash
# A topology named by file with overrides runs exactly as the same topology
# written inline (the reference: the inline run; summary.json less wall
# clock and provenance, and flows.csv, must agree), and the resolved
# experiment it leaves stands alone (no `file` key; rerun, it gives the same
# flows).
#   topo_file.sh FABEMU TOPOLOGIES_DIR
set -eu
fabemu=$1
topos=$(cd "$2" && pwd)
. "$(dirname "$0")/lib.sh"

traffic='traffic: [{kind: permutation, size: 256KiB}]'
printf 'name: byfile\ntopology: {file: %s/examples/leaf-spine.yaml, leaves: 3, hosts_per_leaf: 2}\n%s\n' \
	"$topos" "$traffic" >"$tmp/byfile.yaml"
printf 'name: byfile\ntopology: {kind: leaf-spine, leaves: 3, spines: 4, hosts_per_leaf: 2, links_per_spine: 1,\n  host_link: {rate: 100Gbps, delay: 500ns}, fabric_link: {rate: 200Gbps, delay: 1us}}\n%s\n' \
	"$traffic" >"$tmp/inline.yaml"
"$fabemu" run "$tmp/byfile.yaml" -o "$tmp/a" -q
"$fabemu" run "$tmp/inline.yaml" -o "$tmp/b" -q
cmp -s "$tmp/a/flows.csv" "$tmp/b/flows.csv" && echo "ok: flows.csv equal" || bad "flows.csv differs"
check "6 hosts" "$(key "$tmp/a/summary.json" topology.hosts) == 6"
python3 - "$tmp/a/summary.json" "$tmp/b/summary.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d.pop("provenance", None)
    d.pop("wall_clock", None)
bad = [k for k in a if a[k] != b.get(k)]
print("ok: summary.json equal" if not bad else "FAIL: summary.json differs in %s" % bad)
sys.exit(1 if bad else 0)
PY
grep -q 'file:' "$tmp/a/resolved.yaml" && bad "resolved.yaml still names the file"
grep -q 'links_per_spine: 1' "$tmp/a/resolved.yaml" && echo "ok: resolved.yaml holds the file's keys" ||
	bad "resolved.yaml lacks the file's keys"
"$fabemu" run "$tmp/a/resolved.yaml" -o "$tmp/c" -q
cmp -s "$tmp/a/flows.csv" "$tmp/c/flows.csv" && echo "ok: resolved rerun equal" || bad "resolved rerun differs"
exit "$fail"
