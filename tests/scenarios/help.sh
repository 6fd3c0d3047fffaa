#!/usr/bin/env bash
# COMMAND --help prints the command's usage and each of its options on a
# line of its own, with exit status 0 (also with other arguments around
# it); --version prints the version and the commit.
#   help.sh FABEMU
set -eu
fabemu=$1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
opts() { # opts COMMAND OPTION...: each listed at the start of a line
	local cmd=$1 out
	shift
	out=$("$fabemu" "$cmd" --help) || { bad "$cmd --help: exit status $?"; return; }
	echo "$out" | grep -q "^usage: fabemu $cmd " || bad "$cmd --help: no usage line"
	echo "$out" | grep -q "^exit status: " || bad "$cmd --help: no exit status line"
	for o in "$@"; do
		echo "$out" | grep -Eq "^  ([^ ]+, )?$o( |,)" || bad "$cmd --help: no line for $o"
	done
}
opts run -o --seed --set --max-wall -q -h
opts check -o --junit --seed --set --max-wall -q -h
opts topo --dot -h
opts bench --quick --json --repeat --seed --set -h
opts compare --tolerance --markdown --metrics -h
opts plot -o --format -h
"$fabemu" check x.yaml --junit j.xml -h | grep -q "^usage: fabemu check" || bad "check ... -h"
[ ! -e j.xml ] || bad "check -h wrote a report"
# The options of one command are not offered for another.
! "$fabemu" topo --help | grep -q -- "--junit" || bad "topo --help lists --junit"
v=$("$fabemu" --version)
echo "$v" | grep -Eq '^fabemu [0-9]+\.[0-9]+\.[0-9]+ \(commit [^ ,]+, DPDK [0-9.]+' || bad "--version: '$v'"
[ "$fail" -eq 0 ] && echo "help: OK"
exit "$fail"
