#!/usr/bin/env bash
# fabemu plot across runs, checked by reading the pictures' data back:
# two runs of fct-websearch (HPCC and DCQCN, 3 ms, two sampled ports) drawn
# together: each run's CDF points are its flows.csv's sorted FCTs at
# fraction i/n, fct-bins.dat is each run's fct_bins.csv (p50/p95/p99 per
# bin), and runs-queues.gp gives every panel one y range, the highest queue
# of either series.csv; lines are named by folder. Two ring-allreduce runs:
# each one's busbw line is its collectives.csv's. A sweep folder of
# ecmp-collisions (spines 2 and 4, seeds 1..3): sweep.dat's mean and 95%
# interval are mean -+ t s / sqrt(n) computed here from sweep.csv with
# Student's t(0.975, 2) = 4.30265 from a printed table. The results folders
# are unchanged. Skipped (exit 77) without gnuplot.
#   plot_runs.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$(realpath "$1")
exp_dir=$2
if ! command -v gnuplot >/dev/null; then
	echo "SKIP: gnuplot is not installed (Debian: gnuplot-nox; tools/install-deps.sh installs it)"
	exit 77
fi
. "$(dirname "$0")/lib.sh"

series='outputs.series={ports: ["edge0:0", "edge1:0"], interval: 10us}'
"$fabemu" run "$exp_dir/fct-websearch.yaml" -o "$tmp/hpcc" -q --set stop_time=3ms \
	--set "$series" 2>/dev/null
"$fabemu" run "$exp_dir/fct-websearch.yaml" -o "$tmp/nocc" -q --set stop_time=3ms \
	--set "$series" --set nic.cc=none 2>/dev/null
(cd "$tmp" && sha256sum hpcc/* nocc/*) >"$tmp/before"

rc=0
"$fabemu" plot "$tmp/hpcc" "$tmp/nocc" -o "$tmp/out" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
[ "$rc" -eq 0 ] || { bad "plot of two runs: exit status $rc"; cat "$tmp/stdout" "$tmp/stderr"; }
[ ! -s "$tmp/stderr" ] || { bad "gnuplot said something:"; cat "$tmp/stderr"; }
for name in runs-fct-cdf runs-fct-slowdown runs-queues fct-bins; do
	grep -qx "$tmp/out/$name.png: .*" "$tmp/stdout" || bad "no line for $name"
	[ -s "$tmp/out/$name.png" ] && [ -s "$tmp/out/$name.gp" ] && [ -s "$tmp/out/$name.dat" ] ||
		bad "$name: picture, script or data missing"
	for run in hpcc nocc; do
		grep -q "title '$run'" "$tmp/out/$name.gp" || bad "$name: no line titled $run"
	done
done
grep -q "^runs-busbw: skipped: " "$tmp/stdout" || bad "runs-busbw drawn without collectives.csv"

python3 - "$tmp" <<'PY' || bad "the pictures' data are not the runs' own numbers"
import csv, sys
tmp = sys.argv[1]
def blocks(path):
    out = {}
    for b in open(path).read().split("\n\n\n"):
        lines = b.strip("\n").splitlines()
        name = [l for l in lines if l.startswith("# ") and not l.startswith("# fct_") and not l.startswith("# bytes")][0][2:]
        out[name] = [tuple(float(v) for v in l.split()) for l in lines if l and l[0] != "#"]
    return out
cdf, bins = blocks(tmp + "/out/runs-fct-cdf.dat"), blocks(tmp + "/out/fct-bins.dat")
hi = max(float(r["fct_ns"]) for run in ("hpcc", "nocc")
         for r in csv.DictReader(open(f"{tmp}/{run}/flows.csv")) if r["status"] == "complete")
div = 1e6 if hi >= 1e7 else 1e3
for run in ("hpcc", "nocc"):
    fct = sorted(float(r["fct_ns"]) for r in csv.DictReader(open(f"{tmp}/{run}/flows.csv"))
                 if r["status"] == "complete")
    n = len(fct)
    assert 20 <= n <= 2000, n
    want = [(fct[0] / div, 0.0)] + [(v / div, (i + 1) / n) for i, v in enumerate(fct)]
    got = cdf[run]
    assert len(got) == len(want), (run, len(got), len(want))
    for g, w in zip(got, want):
        assert abs(g[0] - w[0]) <= 1e-8 * w[0] and abs(g[1] - w[1]) <= 1e-8, (run, g, w)
    want = [tuple(float(r[k]) for k in ("bytes_max", "slowdown_p50", "slowdown_p95", "slowdown_p99"))
            for r in csv.DictReader(open(f"{tmp}/{run}/fct_bins.csv"))]
    assert bins[run] == want, (run, bins[run][:2], want[:2])
PY

# One y range for every panel: the highest queue of either run.
qmax=$(awk -F, 'FNR > 1 && $3 > m { m = $3 } END { printf "%.9g", m / 1024 * 1.05 }' \
	"$tmp/hpcc/series.csv" "$tmp/nocc/series.csv")
grep '^set yrange' "$tmp/out/runs-queues.gp" | sort | uniq -c >"$tmp/ranges"
[ "$(wc -l <"$tmp/ranges")" -eq 1 ] || { bad "runs-queues: more than one y range"; cat "$tmp/ranges"; }
grep -qx " *2 set yrange \[0:$qmax\]" "$tmp/ranges" || { bad "runs-queues: not 2 panels on [0:$qmax]"; cat "$tmp/ranges"; }
[ "$(grep -c "title 'hpcc'" "$tmp/out/runs-queues.gp")" -eq 2 ] || bad "runs-queues: hpcc not in both panels"

# Several folders need -o; a single run draws fct-bins too.
rc=0
(cd "$tmp" && "$fabemu" plot hpcc nocc >/dev/null 2>"$tmp/stderr") || rc=$?
[ "$rc" -eq 2 ] && grep -q "give -o DIR" "$tmp/stderr" || bad "several folders without -o: exit $rc"
"$fabemu" plot "$tmp/hpcc" -o "$tmp/one" >"$tmp/stdout" 2>&1 || bad "plot of one run: exit status not 0"
[ -s "$tmp/one/fct-bins.png" ] && grep -q "title 'hpcc'" "$tmp/one/fct-bins.gp" || bad "one run: no fct-bins"
(cd "$tmp" && sha256sum hpcc/* nocc/*) | cmp -s - "$tmp/before" || bad "a results folder changed"

# busbw of two collective runs: each run's line is its collectives.csv's
# busbw per size (the mean of the size's completed iterations).
"$fabemu" run "$exp_dir/ring-allreduce.yaml" -o "$tmp/ring-a" -q >/dev/null
"$fabemu" run "$exp_dir/ring-allreduce.yaml" -o "$tmp/ring-b" -q --seed 2 >/dev/null
"$fabemu" plot "$tmp/ring-a" "$tmp/ring-b" -o "$tmp/ring-out" >"$tmp/stdout" 2>"$tmp/stderr" ||
	bad "plot of two collective runs: exit status not 0"
[ ! -s "$tmp/stderr" ] || { bad "busbw: gnuplot said something"; cat "$tmp/stderr"; }
for run in ring-a ring-b; do
	awk -F, 'NR > 1 && $12 == "complete" { s[$5] += $11; n[$5]++ }
		END { for (b in s) printf "%s %.6g\n", b, s[b] / n[b] }' "$tmp/$run/collectives.csv" |
		sort -n >"$tmp/bw-want"
	awk -v run="$run" '/^# / { on = $2 == run; next } /^$/ { on = 0 } on { printf "%s %.6g\n", $1, $2 }' \
		"$tmp/ring-out/runs-busbw.dat" | sort -n >"$tmp/bw-got"
	[ -s "$tmp/bw-want" ] && cmp -s "$tmp/bw-want" "$tmp/bw-got" || bad "runs-busbw: $run's line is not its collectives.csv"
	grep -q "title '$run'" "$tmp/ring-out/runs-busbw.gp" || bad "runs-busbw: no line titled $run"
done

# A sweep folder: metric against the swept value, mean -+ t s / sqrt(n).
"$fabemu" run "$exp_dir/ecmp-collisions.yaml" -o "$tmp/sweep" -q --seeds 1..3 \
	--sweep topology.spines=2,4 -j 2 >/dev/null
rc=0
"$fabemu" plot "$tmp/sweep" -o "$tmp/sweep-out" >"$tmp/stdout" 2>"$tmp/stderr" || rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/stderr" ] || { bad "plot of a sweep: exit status $rc"; cat "$tmp/stderr"; }
[ -s "$tmp/sweep-out/sweep.png" ] || bad "no sweep.png"
awk -F, 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == "goodput_gbps") c = k; next }
	{ n[$1]++; s[$1] += $c; ss[$1] += $c * $c }
	END { for (x in n) { m = s[x] / n[x]; sd = sqrt((ss[x] - n[x] * m * m) / (n[x] - 1));
		h = 4.30265272975 * sd / sqrt(n[x]); printf "%s %.6g %.6g %.6g %d\n", x, m, m - h, m + h, n[x] } }' \
	"$tmp/sweep/sweep.csv" | sort -n >"$tmp/ci-want"
awk '/^# goodput_gbps/ { on = 1; next } /^$/ { on = 0 } on { printf "%s %.6g %.6g %.6g %d\n", $1, $2, $3, $4, $5 }' \
	"$tmp/sweep-out/sweep.dat" | sort -n >"$tmp/ci-got"
[ "$(wc -l <"$tmp/ci-want")" -eq 2 ] && grep -q " 3$" "$tmp/ci-want" || bad "sweep.csv: not 2 points of 3 seeds"
cmp -s "$tmp/ci-want" "$tmp/ci-got" || { bad "sweep.dat's interval is not mean -+ t s / sqrt(n)"; diff "$tmp/ci-want" "$tmp/ci-got"; }
grep -q "set xlabel 'topology.spines'" "$tmp/sweep-out/sweep.gp" || bad "sweep: x is not the swept key"

[ "$fail" -eq 0 ] && echo "plot_runs: OK"
exit "$fail"
