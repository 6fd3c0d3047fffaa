#!/usr/bin/env bash
# Large but legal inputs take time in proportion to their size (issue 23):
# each generated input must be read within a timeout that the quadratic
# readers they replace overran many times over (measured before the fix:
# a 500k-key YAML map over 400 s, an 80k-key summary.json 66-143 s, plot of
# 6,144 ports x 300 samples 198 s), while a linear reader takes about a
# second; the results are checked too, so a fast wrong answer fails.
#   large_inputs.sh FABEMU
set -eu
fabemu=$(realpath "$1")
. "$(dirname "$0")/lib.sh"

# The YAML loader's duplicate-key check on a map of 200,000 keys (an
# experiment file): parsed whole, then refused at its first key.
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "k%d: %d\n", i, i }' >"$tmp/keys.yaml"
rc=0
timeout 30 "$fabemu" run "$tmp/keys.yaml" -q -o "$tmp/res-keys" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "200k-key map: exit $rc, want 2 (124: still parsing after 30 s)"
grep -q "keys.yaml:1:1: unknown key 'k0'" "$tmp/err" || { bad "200k-key map: message"; cat "$tmp/err"; }

# compare: two summaries of 80,000 metrics each, one of them moved.
summary() { # FILE VALUE-OF-k0
	awk -v v="$2" 'BEGIN { print "{\"schema_version\": 1, \"m\": {"
		for (i = 0; i < 80000; i++) printf "\"k%d\": %d%s\n", i, i ? i : v, i < 79999 ? "," : ""
		print "}}" }' >"$1"
}
mkdir -p "$tmp/a" "$tmp/b"
summary "$tmp/a/summary.json" 100
summary "$tmp/b/summary.json" 200
rc=0
timeout 30 "$fabemu" compare "$tmp/a" "$tmp/b" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || { bad "80k-key compare: exit $rc, want 1 (124: timed out)"; cat "$tmp/err"; }
grep -q '^1 of 80001 metrics moved beyond 5% (marked \*)$' "$tmp/out" || bad "80k-key compare: count line"
grep -Eq '^m\.k0 +100 +200 +\+100% \*$' "$tmp/out" || bad "80k-key compare: m.k0 not flagged"

# plot: series.csv of 6,144 ports x 100 samples, one port paused. Without
# gnuplot only the reading is timed (exit 1 once read: "needs gnuplot").
mkdir -p "$tmp/ser"
echo '{"schema_version": 1}' >"$tmp/ser/summary.json"
awk 'BEGIN { print "time_ns,port,queue_bytes,paused_prio_mask"
	for (s = 0; s < 100; s++) for (p = 0; p < 6144; p++)
		printf "%d,sw%d:%d,%d,%d\n", s * 1000, int(p / 64), p % 64, (s * p) % 5000,
			(p == 6000 && s > 50) ? 8 : 0 }' \
	>"$tmp/ser/series.csv"
want=0
command -v gnuplot >/dev/null || want=1
rc=0
timeout 60 "$fabemu" plot "$tmp/ser" -o "$tmp/plots" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq "$want" ] || { bad "6,144-port plot: exit $rc, want $want (124: timed out)"; cat "$tmp/err"; }
if [ "$want" -eq 0 ]; then
	grep -qs "'sw93:48 prio 3' 0)" "$tmp/plots/pfc-timeline.gp" || bad "6,144-port plot: the paused port's row"
	[ "$(grep -cs '^# sw' "$tmp/plots/queues.dat")" = 12 ] || bad "6,144-port plot: 12 queue panels"
fi
[ "$fail" -eq 0 ] && echo "large inputs: OK"
exit "$fail"
