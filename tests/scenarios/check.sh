#!/usr/bin/env bash
# Run `fabemu check` on one experiment: its expect: assertions are the test
# (each experiment file says where its expected values come from).
#   check.sh FABEMU EXPERIMENT [--set k=v]...
set -eu
fabemu=$1
exp=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$fabemu" check "$exp" -o "$tmp/out" --junit "$tmp/junit.xml" "$@"
grep -q '<testsuite' "$tmp/junit.xml"
