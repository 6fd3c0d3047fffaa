#!/usr/bin/env bash
# `fabemu bench --json` reports every documented field, as numbers, and its
# rates agree with its counts and times (hops / wall_s); summary.json
# carries the set-up time of a run. Times themselves are not asserted (a
# shared machine varies), only their presence and consistency.
#   bench_json.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/summary.sh"

"$fabemu" bench --quick --json --repeat 2 > "$tmp/bench.json"
fail=0
field() { # the number after "KEY": in the one-line JSON object
	sed -n "s/.*\"$1\": \([-0-9.e+]*\)[,}].*/\1/p" "$tmp/bench.json"
}
for k in wall_s packet_hops events packet_hops_per_s events_per_s peak_rss_bytes drops \
	incomplete pool_exhausted sim_time_ns runs wall_s_min wall_s_max setup_s start_s; do
	v=$(field "$k")
	if [ -z "$v" ]; then
		echo "FAIL: bench --json has no numeric \"$k\": $(cat "$tmp/bench.json")"
		fail=1
	fi
done
[ "$fail" = 0 ] || exit 1
awk -v w="$(field wall_s)" -v lo="$(field wall_s_min)" -v hi="$(field wall_s_max)" \
    -v h="$(field packet_hops)" -v r="$(field packet_hops_per_s)" \
    -v e="$(field events)" -v er="$(field events_per_s)" \
    -v s="$(field setup_s)" -v st="$(field start_s)" -v n="$(field runs)" 'BEGIN {
	bad = 0
	if (n != 2) { print "FAIL: runs " n ", expected 2"; bad = 1 }
	if (!(lo <= w && w <= hi)) { print "FAIL: wall_s " w " outside [" lo ", " hi "]"; bad = 1 }
	# wall_s is printed to 1 ms: the rate must match hops / wall_s within that.
	if (w > 0 && (r < h / (w + 0.0005) * 0.999 || r > h / (w > 0.0005 ? w - 0.0005 : 1e-9) * 1.001)) {
		print "FAIL: packet_hops_per_s " r " is not packet_hops / wall_s (" h " / " w ")"; bad = 1 }
	if (w > 0 && (er < e / (w + 0.0005) * 0.999 || er > e / (w > 0.0005 ? w - 0.0005 : 1e-9) * 1.001)) {
		print "FAIL: events_per_s " er " is not events / wall_s (" e " / " w ")"; bad = 1 }
	if (s < 0 || st <= 0) { print "FAIL: setup_s " s ", start_s " st; bad = 1 }
	exit bad }' || fail=1

# The scaling report of two threads over four partitions: its counts
# agree with the run's (the partitions' events add up to the events).
"$fabemu" bench --quick --json --threads 2 --partitions 4 >"$tmp/par.json"
python3 - "$tmp/par.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
if d.get("threads") != 2: bad.append("threads %r, not 2" % d.get("threads"))
parts = d.get("partitions")
if not isinstance(parts, list) or len(parts) != 4: bad.append("partitions %r, not 4 of them" % parts)
else:
    if sum(p["events"] for p in parts) > d["events"]: bad.append("the partitions' events exceed the run's")
    if any(p["events"] <= 0 for p in parts): bad.append("a partition handled no event")
for k in ("lookahead_ns", "windows", "root_events", "events_per_window", "cross_share", "parallelism"):
    if not isinstance(d.get(k), (int, float)): bad.append("no numeric %s" % k)
if not bad and not (1 < d["parallelism"] <= 4): bad.append("parallelism %r not in (1, 4]" % d["parallelism"])
if not bad and not (0 < d["cross_share"] < 1): bad.append("cross_share %r" % d["cross_share"])
print("FAIL: bench --threads 2 --partitions 4: " + "; ".join(bad) if bad else "ok: the scaling report of 2 threads over 4 partitions")
sys.exit(1 if bad else 0)
PY

"$fabemu" run "$exp" -o "$tmp/run" -q
v=$(value "$tmp/run/summary.json" wall_clock.setup_s)
if ! awk -v v="$v" 'BEGIN { exit !(v ~ /^[0-9.e+-]+$/ && v >= 0) }'; then
	echo "FAIL: summary.json wall_clock.setup_s is '$v'"
	fail=1
fi
exit $fail
