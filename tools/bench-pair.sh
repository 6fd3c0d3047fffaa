#!/usr/bin/env bash
# Compare the simulation speed of two fabemu binaries on `fabemu bench`,
# as ratios taken in one session (a shared, noisy machine makes absolute
# times move by tens of percent from minute to minute).
#
#   tools/bench-pair.sh [--together] [-n N] OLD NEW [-- BENCH ARGS...]
#
# Default: N rounds of OLD then NEW, one after the other; prints each
# binary's median wall_s and the median of the per-round ratios OLD/NEW
# (above 1: NEW is faster).
# --together: in each round OLD and NEW run at the same time, pinned to
# different cores (taskset), swapping cores every round: both see the same
# outside load, so the ratios are much steadier (two identical binaries
# give 1.00 +- 0.01 here), but the two runs share the machine's caches
# (here each runs at about half its speed alone, as on one core's two
# hardware threads), which hides or even reverses gains that come from
# fewer or overlapped cache misses: rank changes with it, confirm alone.
set -euo pipefail

together=0
n=5
while [ $# -gt 0 ]; do
	case "$1" in
	--together) together=1; shift ;;
	-n) n="$2"; shift 2 ;;
	-h|--help) sed -n '2,17p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "usage: $0 [--together] [-n N] OLD NEW [-- BENCH ARGS...]" >&2
	exit 2
fi
old=$1
new=$2
shift 2
[ "${1:-}" = "--" ] && shift
case "$n" in
''|*[!0-9]*) echo "$0: -n wants a positive integer, got '$n'" >&2; exit 2 ;;
esac
[ "$n" -ge 1 ] || { echo "$0: -n wants a positive integer" >&2; exit 2; }
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "$0: $b is not an executable" >&2; exit 2; }
done
if [ $together = 1 ] && ! command -v taskset >/dev/null; then
	echo "$0: --together needs taskset (util-linux)" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall_s of one `bench --json` output file.
wall() { sed -n 's/.*"wall_s": \([0-9.]*\).*/\1/p' "$1"; }

for i in $(seq "$n"); do
	if [ $together = 1 ]; then
		c=$((i % 2))
		taskset -c $c "$old" bench --json "$@" >"$tmp/o" &
		po=$!
		taskset -c $((1 - c)) "$new" bench --json "$@" >"$tmp/n" &
		pn=$!
		wait $po
		wait $pn
	else
		"$old" bench --json "$@" >"$tmp/o"
		"$new" bench --json "$@" >"$tmp/n"
	fi
	wo=$(wall "$tmp/o")
	wn=$(wall "$tmp/n")
	echo "$wo $wn" >>"$tmp/pairs"
	echo "round $i: OLD $wo s, NEW $wn s"
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "OLD median $(cut -d' ' -f1 "$tmp/pairs" | median) s"
echo "NEW median $(cut -d' ' -f2 "$tmp/pairs" | median) s"
ratios=$(awk '{ printf "%.4f\n", $1 / $2 }' "$tmp/pairs")
echo "OLD/NEW median $(echo "$ratios" | median) (min $(echo "$ratios" | sort -g | head -1), max $(echo "$ratios" | sort -g | tail -1))"
