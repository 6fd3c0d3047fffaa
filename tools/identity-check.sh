#!/usr/bin/env bash
# Run every experiment of a corpus with two fabemu binaries and compare what
# they write: a change that must not alter any simulation result passes
# when every result file of OLD comes out the same from NEW. summary.json is
# compared key by key, less the wall-clock fields and keys OLD does not
# write (NEW may add fields); every other file OLD writes (flows.csv,
# ports.csv, pfc.csv, series.csv, captures) byte for byte; exit statuses
# must match. Extra arguments after `--` go to both runs.
#   tools/identity-check.sh OLD_FABEMU NEW_FABEMU FILE_OR_DIR... [-- ARGS...]
# Corpus: experiments/, tests/scenarios/*.yaml and tools/stress-gen.py's.
set -u
old=$1 new=$2
shift 2
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	if [ -d "$1" ]; then
		for f in "$1"/*.yaml; do files+=("$f"); done
	else
		files+=("$1")
	fi
	shift
done
[ "${1:-}" = "--" ] && shift
extra=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
bad=0
n=0
for f in "${files[@]}"; do
	n=$((n + 1))
	rm -rf "$tmp/a" "$tmp/b"
	FABEMU_NO_REEXEC=1 "$old" run "$f" -o "$tmp/a" -q "${extra[@]}" >"$tmp/a.out" 2>"$tmp/a.err"
	ra=$?
	FABEMU_NO_REEXEC=1 "$new" run "$f" -o "$tmp/b" -q "${extra[@]}" >"$tmp/b.out" 2>"$tmp/b.err"
	rb=$?
	if [ "$ra" != "$rb" ]; then
		echo "DIFF $f: exit $ra (old) vs $rb (new)"; head -3 "$tmp/b.err"; bad=$((bad + 1)); continue
	fi
	cmp -s "$tmp/a.err" "$tmp/b.err" || { echo "NOTE $f: messages differ:"; diff "$tmp/a.err" "$tmp/b.err" | head -4; }
	[ -d "$tmp/a" ] || continue
	if ! python3 "$here/identity-compare.py" "$tmp/a" "$tmp/b"; then
		echo "DIFF $f"; bad=$((bad + 1))
	fi
done
echo "identity: $n experiments, $bad differ"
[ "$bad" -eq 0 ]
