#!/usr/bin/env bash
# resolved.yaml is a fixed point: an experiment with a trace and a CDF
# file (relative paths), quoted and unquoted values and --seed / --set
# overrides runs; its resolved.yaml, run from another working folder
# into a sibling results folder, writes a resolved.yaml identical byte
# for byte, and both runs give the same provenance.digest_sha256 (the
# result files, resolved.yaml included). The paths in it resolve from
# the results folder (relative to it), so the rerun finds the files.
#   resolved_fixed.sh FABEMU
set -eu
fabemu=$(realpath "$1")
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/exp/in" "$tmp/out" "$tmp/elsewhere"
printf '%s\n' "start,src,dst,bytes" "0ns,0,1,65536" "1us,1,2,32768" >"$tmp/exp/in/t.csv"
printf '%s\n' "1000 0" "10000 50" "100000 100" >"$tmp/exp/in/my.cdf"
cat >"$tmp/exp/e.yaml" <<'YAML'
name: "fixed-point"
topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}
traffic:
  - {kind: trace, file: in/t.csv, hosts: ['h0', "h1", h2]}
  - {kind: poisson, load: 20%, cdf: in/my.cdf, flows: 10}
outputs: {series: {ports: ['h0:0'], interval: 2us}}
expect:
  - {metric: messages.incomplete, op: "==", value: 0}
YAML
(cd "$tmp/exp" && "$fabemu" run e.yaml -o ../out/a -q --seed 5 --set 'outputs.series.interval=3us')
(cd "$tmp/elsewhere" && "$fabemu" run ../out/a/resolved.yaml -o ../out/b -q)
if cmp -s "$tmp/out/a/resolved.yaml" "$tmp/out/b/resolved.yaml"; then
	echo "ok: the rerun's resolved.yaml is the same, byte for byte"
else
	bad "resolved.yaml is not a fixed point:"; diff "$tmp/out/a/resolved.yaml" "$tmp/out/b/resolved.yaml" || true
fi
da=$(key "$tmp/out/a/summary.json" provenance.digest_sha256)
db=$(key "$tmp/out/b/summary.json" provenance.digest_sha256)
check "the same digest of the results: $da = $db" "\"$da\" == \"$db\""
grep -q '^  file: ../../exp/in/t.csv$' "$tmp/out/a/resolved.yaml" && echo "ok: trace path relative to the results folder" ||
	bad "trace path not relative to the results folder: $(grep 'file:' "$tmp/out/a/resolved.yaml")"
grep -q '^  cdf: ../../exp/in/my.cdf$' "$tmp/out/a/resolved.yaml" && echo "ok: CDF path relative to the results folder" ||
	bad "CDF path not relative to the results folder: $(grep 'cdf:' "$tmp/out/a/resolved.yaml")"
exit $fail
