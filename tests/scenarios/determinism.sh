#!/usr/bin/env bash
# Determinism: the same experiment and seed, run twice, give byte-identical
# summary.json (wall-clock fields aside), flows.csv, ports.csv and pcap
# captures; a different seed gives a different permutation.
#   determinism.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$fabemu" run "$exp" -o "$tmp/a" -q
"$fabemu" run "$exp" -o "$tmp/b" -q
"$fabemu" run "$exp" -o "$tmp/c" -q --seed 12345

strip() { # summary.json without the wall_clock object
	sed '/"wall_clock": {/,/}/d' "$1"
}
fail=0
if ! cmp -s <(strip "$tmp/a/summary.json") <(strip "$tmp/b/summary.json"); then
	echo "FAIL: summary.json differs between identical runs"
	diff <(strip "$tmp/a/summary.json") <(strip "$tmp/b/summary.json") | head -20
	fail=1
fi
for f in flows.csv ports.csv series.csv pfc.csv; do
	[ -e "$tmp/a/$f" ] || continue
	cmp "$tmp/a/$f" "$tmp/b/$f" || { echo "FAIL: $f differs between identical runs"; fail=1; }
done
n=0
for p in "$tmp"/a/capture/*.pcap; do
	[ -e "$p" ] || continue
	n=$((n + 1))
	cmp "$p" "$tmp/b/capture/$(basename "$p")" || { echo "FAIL: $(basename "$p") differs"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "FAIL: the experiment captured nothing to compare"; fail=1; }
if grep -q permutation "$exp" && cmp -s "$tmp/a/flows.csv" "$tmp/c/flows.csv"; then
	echo "FAIL: another seed gave identical flows (is the seed used at all?)"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "determinism: OK (summary, flows, ports and $n capture(s) identical; other seed differs)"
exit "$fail"
