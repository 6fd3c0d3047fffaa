#!/usr/bin/env bash
# fabemu compare: reads back every summary.json that the shipped experiments
# write (its rows are exactly the numeric keys that Python's json module
# finds, less wall_clock and provenance), workload names of every allowed
# character included;
# a folder against itself exits 0, a changed run exits 1 with the moved
# metrics flagged, and --tolerance, --metrics and --markdown do what they say.
# With NAMEs, the read-back runs on those experiments only (and quickstart,
# which the later checks use): the default test set names a few that
# between them write every section of summary.json (flows, workloads,
# collectives, training, PFC, ECN and CNPs, IB credits and FECN, faults,
# loss recovery, INT), so that a section the reader mishandles still fails
# it; the release set (test compare-all) reads back every experiment.
#   compare.sh FABEMU EXPERIMENTS_DIR [NAME...]
set -eu
fabemu=$1
exps=$2
shift 2
. "$(dirname "$0")/lib.sh"

# rows FILE: the metric names of a plain-text table of two folders (the
# name, A, B, the change and maybe a '*'; names may hold blanks)
rows() {
	awk 'hdr && NF == 0 { exit }
	     hdr { n = NF - ($NF == "*" ? 4 : 3); s = $1; for (i = 2; i <= n; i++) s = s " " $i; print s }
	     /^metric / { hdr = 1 }' "$1"
}
# numeric SUMMARY: the dotted names of its numbers, true/false and nulls
numeric() {
	python3 -c 'import json, sys
def walk(p, v):
    if isinstance(v, dict):
        for k, x in v.items():
            walk(p + [k], x)
    elif not isinstance(v, str):
        n = ".".join(p)
        if not n.startswith(("wall_clock.", "provenance.")):
            print(n)
walk([], json.load(open(sys.argv[1])))' "$1"
}

printf '%s\n' 'name: names' \
	'topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}' \
	'traffic:' \
	'  - {kind: permutation, size: 64KiB, name: Aa_0-9}' \
	'  - {kind: permutation, size: 4KiB, name: "-b_"}' >"$tmp/names.yaml"
list=("$exps"/*.yaml)
if [ $# -gt 0 ]; then
	list=("$exps/quickstart.yaml")
	for n in "$@"; do list+=("$exps/$n.yaml"); done
fi
for e in "${list[@]}" "$tmp/names.yaml"; do
	n=$(basename "$e" .yaml)
	"$fabemu" run "$e" -o "$tmp/$n" -q 2>/dev/null || [ $? -eq 1 ] || { bad "$n: run failed"; continue; }
	rc=0
	"$fabemu" compare "$tmp/$n" "$tmp/$n" >"$tmp/$n.txt" 2>"$tmp/$n.err" || rc=$?
	[ "$rc" -eq 0 ] || { bad "$n: compare with itself: exit $rc"; cat "$tmp/$n.err"; continue; }
	if ! diff <(rows "$tmp/$n.txt") <(numeric "$tmp/$n/summary.json") >"$tmp/diff"; then
		bad "$n: the table's rows are not the summary's numeric keys:"; cat "$tmp/diff"
	fi
	grep -q '^0 of [0-9]* metrics moved beyond 5%$' "$tmp/$n.txt" || bad "$n: no '0 of N' line"
	! grep -q '\*$' "$tmp/$n.txt" || bad "$n: a metric flagged against itself"
done
grep -q '^workloads.Aa_0-9.messages  ' "$tmp/names.txt" || bad "workload name not read back"

# A smaller buffer: drops appear and the tail FCT grows.
q=$exps/quickstart.yaml
"$fabemu" run "$q" -o "$tmp/small" -q --set fabric.buffer=1MiB
rc=0
"$fabemu" compare "$tmp/quickstart" "$tmp/small" >"$tmp/out" || rc=$?
[ "$rc" -eq 1 ] || bad "changed run: exit $rc, want 1"
grep -Eq '^drops\.total +0 +73 +from 0 \*$' "$tmp/out" || bad "drops.total 0 -> 73 not flagged"
grep -Eq '^flows\.fct_ns\.p99 +180379\.52 +445775\.36 +\+147% \*$' "$tmp/out" || bad "p99 FCT +147% not flagged"
grep -Eq '^topology\.hosts +8 +8 +0%$' "$tmp/out" || bad "an unchanged metric"
! grep -q wall_clock "$tmp/out" || bad "wall_clock compared without being asked for"
# Beyond 1000% nothing moved, except what started from 0.
rc=0
"$fabemu" compare "$tmp/quickstart" "$tmp/small" --tolerance 1000% --metrics 'flows.*' >"$tmp/out" || rc=$?
[ "$rc" -eq 0 ] || bad "--tolerance 1000%: exit $rc, want 0"
rc=0
"$fabemu" compare "$tmp/quickstart" "$tmp/small" --tolerance 1.48 --metrics flows.fct_ns.p99 >"$tmp/out" || rc=$?
[ "$rc" -eq 0 ] || bad "--tolerance 1.48 (p99 moved +147.1%): exit $rc, want 0"
rc=0
"$fabemu" compare "$tmp/quickstart" "$tmp/small" --tolerance 1.47 --metrics flows.fct_ns.p99 >"$tmp/out" || rc=$?
[ "$rc" -eq 1 ] || bad "--tolerance 1.47 (p99 moved +147.1%): exit $rc, want 1"
# Named, the wall clock is compared; three folders, markdown.
rc=0
"$fabemu" compare "$tmp/quickstart" "$tmp/small" "$tmp/quickstart" --markdown \
	--metrics 'drops.total,wall_clock.run_s' >"$tmp/md" || rc=$?
[ "$rc" -eq 1 ] || bad "markdown: exit $rc, want 1"
grep -qx '| metric | A | B | B vs A | C | C vs A |' "$tmp/md" || bad "markdown header"
grep -qx '|---|---:|---:|---:|---:|---:|' "$tmp/md" || bad "markdown alignment row"
grep -qx '| `drops.total` | 0 | 73 | \*\*from 0\*\* | 0 | 0% |' "$tmp/md" || bad "markdown drops.total row"
grep -q '^| `wall_clock.run_s` |' "$tmp/md" || bad "wall_clock.run_s named but not compared"
grep -qx -- "- B: \`$tmp/small\`" "$tmp/md" || bad "markdown folder list"
"$fabemu" compare "$tmp/names" "$tmp/names" --markdown --metrics 'workloads.-b*' >"$tmp/md"
grep -q '^| `workloads.-b_.messages` | 4 | 4 | 0% |$' "$tmp/md" || bad "markdown row of a workload metric"
if [ "$fail" -ne 0 ]; then cat "$tmp/out" "$tmp/md"; fi
[ "$fail" -eq 0 ] && echo "compare: OK"
exit "$fail"
