#!/usr/bin/env bash
# A single run split over the processes of an MPI job gives the results of
# one process (docs/user-guide.md, "Across processes and machines (MPI)"):
# each file runs in one process, then under mpirun -np NP (with the
# fabemu options OPTS), and the two must agree on the exit status and on
# every result file, file for file (summary.json: its digest_sha256, which
# covers every result but the wall-clock block). Independent expectation:
# the one-process engine's results. With --split, every run must have been
# split (the summary's line "N in each of NP MPI processes", no note that
# process 0 ran it alone); without, runs that something keeps in one
# process are counted and named.
#   mpi_identity.sh FABEMU NP "OPTS" [--split] FILE...
set -u
fabemu=$1 np=$2 opts=$3
shift 3
must_split=0
if [ "${1:-}" = --split ]; then
	must_split=1
	shift
fi
if ! "$fabemu" --version | grep -q 'MPI: '; then
	echo "SKIP: fabemu is built without MPI"
	exit 77
fi
if ! command -v mpirun >/dev/null; then
	echo "SKIP: fabemu is built with MPI but mpirun is not installed (openmpi-bin)"
	exit 77
fi
mpi=(mpirun --oversubscribe)
[ "$(id -u)" != 0 ] || mpi+=(--allow-run-as-root)
# Containers often forbid the cross-memory attach OpenMPI's shared-memory
# transport tries first: use plain copies.
export OMPI_MCA_btl_vader_single_copy_mechanism=none FABEMU_NO_REEXEC=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n_split=0 alone=""
digest() { sed -n 's/.*"digest_sha256": *"\([0-9a-f]*\)".*/\1/p' "$1" 2>/dev/null; }

for f in "$@"; do
	name=$(basename "$f" .yaml)
	a=$tmp/$name-1 b=$tmp/$name-$np
	"$fabemu" run "$f" -o "$a" >"$a.out" 2>"$a.err"
	ra=$?
	# shellcheck disable=SC2086
	"${mpi[@]}" -np "$np" "$fabemu" run "$f" -o "$b" $opts >"$b.out" 2>"$b.err"
	rb=$?
	if [ "$ra" != "$rb" ]; then
		echo "FAIL [$name]: exit $ra in one process, $rb over $np"
		tail -3 "$b.err"
		fail=1
		continue
	fi
	if grep -q "in each of $np MPI processes" "$b.out" && ! grep -q 'runs it alone' "$b.err"; then
		n_split=$((n_split + 1))
	elif [ "$must_split" = 1 ]; then
		echo "FAIL [$name]: not split over $np processes: $(grep -h 'alone\|note:' "$b.err" | head -2)"
		fail=1
	else
		alone="$alone $name"
	fi
	[ -f "$a/summary.json" ] || continue
	(cd "$a" && find . -type f | sort) >"$tmp/la"
	(cd "$b" && find . -type f | sort) >"$tmp/lb"
	if ! cmp -s "$tmp/la" "$tmp/lb"; then
		echo "FAIL [$name]: the files differ: $(diff "$tmp/la" "$tmp/lb" | head -4 | tr '\n' ' ')"
		fail=1
		continue
	fi
	differ=""
	while read -r x; do
		case $x in
		./summary.json) [ "$(digest "$a/$x")" = "$(digest "$b/$x")" ] || differ="$differ $x" ;;
		*) cmp -s "$a/$x" "$b/$x" || differ="$differ $x" ;;
		esac
	done <"$tmp/la"
	if [ -n "$differ" ]; then
		echo "FAIL [$name]: over $np processes ($opts) these differ from one process:$differ"
		fail=1
	fi
done
[ -z "$alone" ] || echo "note: kept in one process (it says why):$alone"
[ "$fail" = 0 ] && echo "ok: $# files, the results of one process over $np processes ($opts; $n_split split)"
exit "$fail"
