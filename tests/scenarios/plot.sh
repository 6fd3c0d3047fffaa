#!/usr/bin/env bash
# fabemu plot: renders each picture of a run that has flows, a sampled
# series and PFC pauses, in PNG and SVG, and checks the files are valid
# images of a sane size (PNG signature and IHDR size; SVG root element and
# size); the results folder gets nothing new; the .dat files sit beside the
# images; without gnuplot in PATH, exit 1 and nothing written. Skipped
# (exit 77) when gnuplot is missing: tools/install-deps.sh installs it.
# Then the pictures of other inputs: bus bandwidth by size (collectives.csv
# of allreduce-sweep-2x8), per-flow rate and window (rates.csv of
# hpcc-incast with outputs.series.flows; rate only from dcqcn-fairness),
# drawn only while each flow is active (its points are rates.csv's rows
# with outstanding_wrs above 0, a gap between stretches), and
# switch port utilisation (ports.csv), checked against their inputs; a folder
# without an input draws no such picture and exits 0; a bad input exits 2.
#   plot.sh FABEMU EXPERIMENT.yaml   (one with PFC pauses and outputs.series,
#                                     in experiments/ beside the others)
set -eu
fabemu=$(realpath "$1")
exp=$2
exp_dir=$(dirname "$exp")
if ! command -v gnuplot >/dev/null; then
	echo "SKIP: gnuplot is not installed (Debian: gnuplot-nox; tools/install-deps.sh installs it)"
	exit 77
fi
. "$(dirname "$0")/lib.sh"

# image FILE W H: FILE is a PNG or SVG of W x H pixels
image() {
	python3 - "$@" <<'PY'
import re, struct, sys
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
if path.endswith(".png"):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
    assert data[12:16] == b"IHDR", "no IHDR chunk first"
    got = struct.unpack(">II", data[16:24])
else:
    m = re.search(rb'<svg\b[^>]*>', data)
    assert m, "no <svg> root element"
    root = m.group(0).decode()
    assert 'xmlns="http://www.w3.org/2000/svg"' in root, "not the SVG namespace"
    got = tuple(int(re.search(k + r'="(\d+)"', root).group(1)) for k in ("width", "height"))
    assert data.rstrip().endswith(b"</svg>"), "SVG not closed"
assert got == (w, h), f"size {got}, want {(w, h)}"
assert 2000 < len(data) < 2_000_000, f"{len(data)} bytes"
PY
}

"$fabemu" run "$exp" -o "$tmp/res" -q
ls -A "$tmp/res" >"$tmp/before"
# name WIDTH HEIGHT: the sizes the plots ask for (2 sampled ports, 1 paused row)
want="fct-slowdown 1000 600
fct-cdf 1000 600
queues 1000 560
pfc-timeline 1000 200
port-utilisation 1000 228"
for fmt in png svg; do
	out=$tmp/plots-$fmt
	rc=0
	"$fabemu" plot "$tmp/res" -o "$out" --format "$fmt" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		bad "$fmt: exit status $rc"; cat "$tmp/out" "$tmp/err"; continue
	fi
	[ ! -s "$tmp/err" ] || { bad "$fmt: gnuplot said something:"; cat "$tmp/err"; }
	while read -r name w h; do
		grep -qx "$out/$name.$fmt: .*" "$tmp/out" || bad "$fmt: no line for $name"
		image "$out/$name.$fmt" "$w" "$h" || bad "$fmt: $name.$fmt is not a ${w}x$h image"
		[ -s "$out/$name.gp" ] || bad "$fmt: no $name.gp"
		ls "$out/$name"*.dat >/dev/null 2>&1 || bad "$fmt: no data for $name"
	done <<<"$want"
done
ls -A "$tmp/res" | cmp -s - "$tmp/before" || bad "the results folder changed"
# The timeline has the port the run paused, and only it.
grep -q "'h1:0 prio 3' 0)" "$tmp/plots-png/pfc-timeline.gp" || bad "timeline rows"
# Default folder: plots/<the results folder's name>, under the current one.
(cd "$tmp" && "$fabemu" plot res >/dev/null) || bad "default -o: exit status not 0"
[ -f "$tmp/plots/res/fct-cdf.png" ] || bad "default -o: no plots/res/fct-cdf.png"
# No gnuplot: a clear message, exit 1, nothing written.
rc=0
PATH=/nonexistent "$fabemu" plot "$tmp/res" -o "$tmp/none" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || bad "no gnuplot: exit $rc, want 1"
grep -q "plot needs gnuplot, which is not in PATH" "$tmp/err" || bad "no gnuplot: message"
[ ! -e "$tmp/none" ] || bad "no gnuplot: wrote $tmp/none"
# No collective, no rates.csv: those pictures skipped, nothing of them written.
for name in busbw flow-rates; do
	[ ! -e "$tmp/plots-png/$name.png" ] && [ ! -e "$tmp/plots-png/$name.gp" ] &&
		[ ! -e "$tmp/plots-png/$name.dat" ] || bad "$name drawn without its input"
done

# plot_more DIR OUT FORMAT: fabemu plot, exit 0 and quiet on stderr
plot_more() {
	rc=0
	"$fabemu" plot "$1" -o "$2" --format "$3" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 0 ] || { bad "$1: exit status $rc"; cat "$tmp/out" "$tmp/err"; }
	[ ! -s "$tmp/err" ] || { bad "$1: gnuplot said something:"; cat "$tmp/err"; }
}
# drawn OUT NAME FORMAT W H: the picture, its script and data
drawn() {
	grep -qx "$1/$2.$3: .*" "$tmp/out" || bad "$2.$3: no line for it"
	image "$1/$2.$3" "$4" "$5" || bad "$2.$3 is not a ${4}x$5 image"
	[ -s "$1/$2.gp" ] || bad "no $2.gp"
	[ -s "$1/$2.dat" ] || bad "no $2.dat"
}

# Bus bandwidth: one line (ar, ring), a point per size at the busbw of
# collectives.csv (one iteration per size); the heat map of 11 switches.
# Sizes to 8 MiB (21 of them): the picture, not the bandwidth, is checked.
"$fabemu" run "$exp_dir/allreduce-sweep-2x8.yaml" -o "$tmp/ar" -q --set traffic.0.sizes.to=8MiB
for fmt in png svg; do
	plot_more "$tmp/ar" "$tmp/ar-$fmt" "$fmt"
	drawn "$tmp/ar-$fmt" busbw "$fmt" 1000 600
	drawn "$tmp/ar-$fmt" port-utilisation "$fmt" 1000 354
	grep -q "flow-rates: skipped: no rates.csv" "$tmp/out" || bad "ar: flow-rates not skipped"
done
awk -F, 'NR > 1 && $12 == "complete" { printf "%s %s\n", $5, $11 + 0 }' "$tmp/ar/collectives.csv" \
	>"$tmp/bw-want"
grep -v '^#' "$tmp/ar-png/busbw.dat" | awk 'NF { printf "%s %s\n", $1, $2 + 0 }' >"$tmp/bw-got"
[ "$(wc -l <"$tmp/bw-want")" -ge 20 ] || bad "ar: fewer than 20 sizes in collectives.csv"
cmp -s "$tmp/bw-want" "$tmp/bw-got" || { bad "busbw.dat is not collectives.csv's busbw"; diff "$tmp/bw-want" "$tmp/bw-got" | head; }
grep -q "title 'ar (all-reduce, ring)'" "$tmp/ar-png/busbw.gp" || bad "busbw: no line titled ar (all-reduce, ring)"
grep -q "set logscale x" "$tmp/ar-png/busbw.gp" || bad "busbw: x not log scale"
# The heat map: tiers bottom up, leaf0 port 0's cell is its utilisation.
grep -q "set y2tics ('leaf' 3.5, 'spine' 8, 'NVLink' 9.5)" "$tmp/ar-png/port-utilisation.gp" ||
	bad "port-utilisation: tiers"
grep -q "cblabel 'utilisation" "$tmp/ar-png/port-utilisation.gp" || bad "port-utilisation: no colour box label"
u=$(awk -F, '$1 == "leaf0" && $2 == 0 { print $9 + 0 }' "$tmp/ar/ports.csv")
[ "$(awk '$1 == 0 && $2 == 0 { print $3 + 0 }' "$tmp/ar-png/port-utilisation.dat")" = "$u" ] ||
	bad "port-utilisation: leaf0:0 is not $u"
! grep -q "'node0/nic0'" "$tmp/ar-png/port-utilisation.gp" || bad "port-utilisation: a NIC drawn as a switch"

# Rate and window (HPCC has a window): 8 flows in two panels, the rates in
# Gb/s of rates.csv's first row.
"$fabemu" run "$exp_dir/hpcc-incast.yaml" -o "$tmp/hpcc" -q --set 'outputs.series.flows=[incast]'
for fmt in png svg; do
	plot_more "$tmp/hpcc" "$tmp/hpcc-$fmt" "$fmt"
	drawn "$tmp/hpcc-$fmt" flow-rates "$fmt" 1000 880
	grep -q "busbw: skipped: no collectives.csv" "$tmp/out" || bad "hpcc: busbw not skipped"
done
[ "$(grep -c "using 1:2 with steps" "$tmp/hpcc-png/flow-rates.gp")" -eq 8 ] || bad "flow-rates: not 8 rate lines"
[ "$(grep -c "using 1:3 with steps" "$tmp/hpcc-png/flow-rates.gp")" -eq 8 ] || bad "flow-rates: not 8 window lines"
grep -q "title 'incast flow 0: h1 -> h0'" "$tmp/hpcc-png/flow-rates.gp" || bad "flow-rates: flow 0's title"
# Only active intervals (docs/results.md: outstanding_wrs 0 is idle or not
# started): each flow's points are exactly rates.csv's rows where it had
# messages outstanding, a stretch per data block (gnuplot's gap), the idle
# rows before its first message and after its last left out.
active_points() {
	python3 - "$1" "$2" <<'PY' || bad "flow-rates.dat of $1 is not rates.csv's active rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/rates.csv")))
blocks = open(sys.argv[2]).read().split("\n\n\n")
flows = list(dict.fromkeys((r["workload"], r["flow"]) for r in rows))[:16]
assert len(blocks) == len(flows), (len(blocks), len(flows))
div = 1e6 if max(float(r["time_ns"]) for r in rows) >= 1e7 else 1e3
n_idle = 0
for key, block in zip(flows, blocks):
    want, cur = [], []
    for r in rows:
        if (r["workload"], r["flow"]) != key:
            continue
        if int(r["outstanding_wrs"]) > 0:
            cur.append((float(r["time_ns"]) / div, float(r["rate_bps"]) / 1e9, float(r["window_bytes"])))
        elif cur:
            want.append(cur); cur = []
    if cur:
        want.append(cur)
    n_idle += any(int(r["outstanding_wrs"]) == 0 for r in rows if (r["workload"], r["flow"]) == key)
    got = [[tuple(float(v) for v in l.split()) for l in st.splitlines() if l and l[0] != "#"]
           for st in block.split("\n\n")]
    got = [g for g in got if g]
    assert len(got) == len(want), (key, len(got), len(want))
    same = lambda a, b: all(abs(x - y) <= 1e-8 * max(1, abs(y)) for x, y in zip(a, b))
    for g, w in zip(got, want):
        # Every row while short; thinned (over 2000 samples) to a subsequence
        # keeping each stretch's first and last.
        assert len(g) == len(w) or len(w) > 2000 and len(g) < len(w), (key, len(g), len(w))
        assert same(g[0], w[0]) and same(g[-1], w[-1]), (key, g[0], w[0], g[-1], w[-1])
        it = iter(w)
        assert all(any(same(a, b) for b in it) for a in g), (key, "not a subsequence")
assert n_idle > 0, "no idle sample: the check cannot tell"
PY
}
active_points "$tmp/hpcc" "$tmp/hpcc-png/flow-rates.dat"
# DCQCN has no window: one panel, rate only.
"$fabemu" run "$exp_dir/dcqcn-fairness.yaml" -o "$tmp/dcqcn" -q
plot_more "$tmp/dcqcn" "$tmp/dcqcn-png" png
drawn "$tmp/dcqcn-png" flow-rates png 1000 500
! grep -q "using 1:3" "$tmp/dcqcn-png/flow-rates.gp" || bad "flow-rates: a window panel without windows"
grep -q "the first 16 of 26 flows" "$tmp/dcqcn-png/flow-rates.gp" || bad "flow-rates: not the first 16 of 26"
active_points "$tmp/dcqcn" "$tmp/dcqcn-png/flow-rates.dat"

# Without ports.csv nor rates.csv: neither drawn, exit 0.
mkdir "$tmp/bare"
cp "$tmp/hpcc/summary.json" "$tmp/hpcc/flows.csv" "$tmp/bare/"
plot_more "$tmp/bare" "$tmp/bare-png" png
for name in busbw flow-rates port-utilisation; do
	grep -q "^$name: skipped: " "$tmp/out" || bad "bare: no skip line for $name"
	! ls "$tmp/bare-png/$name".* >/dev/null 2>&1 || bad "bare: $name drawn without its input"
done
# A bad rates.csv header: exit 2, nothing written.
cp "$tmp/hpcc/rates.csv" "$tmp/bare/rates.csv"
sed -i '1s/rate_bps/rate/' "$tmp/bare/rates.csv"
rc=0
"$fabemu" plot "$tmp/bare" -o "$tmp/bare-bad" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "bad rates.csv: exit $rc, want 2"
grep -q "bare/rates.csv:1: not a fabemu rates.csv header" "$tmp/err" || bad "bad rates.csv: message"
[ ! -e "$tmp/bare-bad" ] || bad "bad rates.csv: wrote $tmp/bare-bad"

[ "$fail" -eq 0 ] && echo "plot: OK"
exit "$fail"
