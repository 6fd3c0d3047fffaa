# Shared by the scenario scripts (sourced after `set -eu`): a scratch folder
# removed on exit ($tmp), a failure flag ($fail) with bad() to raise it,
# check() to test a numeric condition and say so, and key() to read one
# value of a summary.json; the folder on PYTHONPATH for scen.py (say(),
# done()) in the scripts' Python checks.
export PYTHONPATH="$(dirname "${BASH_SOURCE[0]}")${PYTHONPATH:+:$PYTHONPATH}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
key() { # key FILE DOTTED.NAME: a value of summary.json (true/false as such)
	python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(json.dumps(v) if isinstance(v, bool) else v)' "$1" "$2"
}
check() { # DESCRIPTION AWK-CONDITION: "ok: ..." or "FAIL: ..." (raises $fail)
	if awk "BEGIN { exit !($2) }"; then echo "ok: $1"; else echo "FAIL: $1 ($2)"; fail=1; fi
}
