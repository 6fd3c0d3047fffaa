#!/usr/bin/env bash
# Progress on stderr when it is not a terminal: plain lines (no \r), with
# virtual time of stop_time, an ETA and events/s; none with -q; none from a
# short run at the default 5 s interval. FABEMU_PROGRESS_INTERVAL_MS=0 makes
# every report (each 2^20 events) a line.
#   progress.sh FABEMU EXPERIMENT [--set k=v]...   (a run of over 2^21 events)
set -eu
fabemu=$1
exp=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "progress: FAIL: $*" >&2; exit 1; }

FABEMU_PROGRESS_INTERVAL_MS=0 "$fabemu" run "$exp" -o "$tmp/a" "$@" >/dev/null 2>"$tmp/err"
n=$(grep -c '^\[fabemu\] t=[0-9.]* ms of [0-9.]* ms ([0-9]*%), ETA [0-9.]* s  events=[0-9]* ([0-9.]* M/s)  messages [0-9]*/[0-9]* done  [0-9.]* s$' "$tmp/err" || true)
[ "$n" -ge 2 ] || { cat "$tmp/err" >&2; fail "$n progress lines, want at least 2"; }
grep -q $'\r' "$tmp/err" && fail "a carriage return in a non-terminal log"
FABEMU_PROGRESS_INTERVAL_MS=0 "$fabemu" run "$exp" -o "$tmp/b" -q "$@" >/dev/null 2>"$tmp/err"
grep -q '^\[fabemu\] t=' "$tmp/err" && fail "progress lines with -q"
"$fabemu" run "$exp" -o "$tmp/c" "$@" >/dev/null 2>"$tmp/err"
grep -q '^\[fabemu\] t=' "$tmp/err" && fail "a line before the 5 s interval in a short run"
echo "progress: OK ($n lines)"
