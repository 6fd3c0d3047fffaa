#!/usr/bin/env bash
# fabemu plot: renders each picture of a run that has flows, a sampled
# series and PFC pauses, in PNG and SVG, and checks the files are valid
# images of a sane size (PNG signature and IHDR size; SVG root element and
# size); the results folder gets nothing new; the .dat files sit beside the
# images; without gnuplot in PATH, exit 1 and nothing written. Skipped
# (exit 77) when gnuplot is missing: tools/install-deps.sh installs it.
#   plot.sh FABEMU EXPERIMENT.yaml   (one with PFC pauses and outputs.series)
set -eu
fabemu=$(realpath "$1")
exp=$2
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
pfc-timeline 1000 200"
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
[ "$fail" -eq 0 ] && echo "plot: OK"
exit "$fail"
