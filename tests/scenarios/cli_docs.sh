#!/usr/bin/env bash
# The bash completion offers each command's options exactly as `fabemu
# COMMAND --help` lists them, and completes commands and --format; the man
# page renders with groff without a warning (that part is skipped, saying
# so, when groff is missing).
#   cli_docs.sh FABEMU SOURCE_ROOT
set -eu
fabemu=$1
root=$2
. "$(dirname "$0")/lib.sh"

shopt -s extglob
. "$root/tools/fabemu.bash"
comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _fabemu; echo "${COMPREPLY[*]}"; }
for cmd in run check topo bench compare plot live; do
	help=$("$fabemu" "$cmd" --help | sed -n 's/^  \(-[^ ,]*\)\(, \(--[^ ]*\)\)\{0,1\}.*/\1 \3/p' |
		tr ' ' '\n' | grep -v '^--$' | grep . | sort | tr '\n' ' ')
	got=$(comp fabemu "$cmd" - | tr ' ' '\n' | sort | tr '\n' ' ')
	[ "$help" = "$got" ] || bad "$cmd: completion offers '$got', --help lists '$help'"
done
[ "$(comp fabemu comp)" = compare ] || bad "command completion"
[ "$(comp fabemu plot x --format s)" = svg ] || bad "--format completion"

if command -v groff >/dev/null; then
	warn=$(groff -man -Tutf8 -ww "$root/docs/fabemu.1" 2>&1 >/dev/null) || bad "groff failed"
	[ -z "$warn" ] || bad "groff warnings: $warn"
	# (grotty's bold is overstruck: a character, a backspace, the character)
	groff -man -Tutf8 "$root/docs/fabemu.1" 2>/dev/null | sed 's/.\x08//g' | grep -q "fabemu compare DIR_A DIR_B" ||
		bad "man page without compare's synopsis"
else
	echo "man page: skipped: groff is not installed"
fi
[ "$fail" -eq 0 ] && echo "cli docs: OK"
exit "$fail"
