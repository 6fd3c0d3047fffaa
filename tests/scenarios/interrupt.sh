#!/usr/bin/env bash
# A run stopped from outside (--max-wall, SIGINT, SIGTERM) stops at an
# event boundary and still writes everything it has: summary.json with
# valid false, interrupted 1 and the reason, flows.csv with the incomplete
# messages, a capture that reads to its end; exit status 1, and one
# WARNING line on stderr. The experiment is written here (64 hosts, eight
# permutations of 2 GiB each, lossless: more than a second of virtual time
# and tens of seconds of wall-clock time) so that no corpus runs it to its
# end.
#   interrupt.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"
cat >"$tmp/long.yaml" <<'YAML'
name: long-run
seed: 1
topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 16,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric: {buffer: 16MiB, pfc: {priorities: [3]}}
traffic:
  - {kind: permutation, name: shuffle0, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle1, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle2, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle3, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle4, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle5, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle6, size: 2GiB, op: write}
  - {kind: permutation, name: shuffle7, size: 2GiB, op: write}
capture:
  ports: [h0:0]
  snaplen: 64
YAML

stopped() { # stopped DIR WHY RC: what an interrupted run must leave
	local d=$1 why=$2 rc=$3 s=$1/summary.json
	[ "$rc" -eq 1 ] || bad "$why: exit status $rc, not 1"
	[ -s "$s" ] || { bad "$why: no summary.json"; return; }
	[ "$(key "$s" valid)" = false ] || bad "$why: valid is not false"
	[ "$(key "$s" interrupted)" = 1 ] || bad "$why: interrupted is not 1"
	case "$(key "$s" invalid_reasons)" in *"interrupted by $why"*) ;;
		*) bad "$why: invalid_reasons '$(key "$s" invalid_reasons)'" ;; esac
	[ "$(key "$s" messages.incomplete)" = 512 ] || bad "$why: not 512 messages incomplete"
	[ "$(grep -c ',incomplete,' "$d/flows.csv")" -eq 512 ] || bad "$why: flows.csv lacks the 512 incomplete rows"
	grep -q "^fabemu: WARNING: results not valid: interrupted by $why" "$d/err" ||
		bad "$why: no WARNING line on stderr: $(cat "$d/err")"
	# The capture is whole: libpcap reads every record to the end.
	python3 - "$d/capture/h0-p0.pcap" <<'PY' || bad "$why: capture not closed properly"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert struct.unpack("<I", b[:4])[0] == 0xa1b23c4d, "not a ns pcap"
off, n = 24, 0
while off < len(b):
    assert off + 16 <= len(b), "cut record header"
    caplen = struct.unpack("<I", b[off + 8:off + 12])[0]
    off += 16 + caplen
    n += 1
assert off == len(b) and n > 0, "cut record"
PY
}

rc=0
"$fabemu" run "$tmp/long.yaml" -o "$tmp/wall" -q --max-wall 0.3s 2>"$tmp/err" || rc=$?
mv "$tmp/err" "$tmp/wall/err"
stopped "$tmp/wall" "--max-wall 0.3s" "$rc"

# One signal, once the run is seen running: its first progress line
# (every millisecond here) comes from inside the event loop, after the
# handlers are in place, so the signal lands in the loop however loaded
# the machine (a fixed 2 s wait did the same at 10 s of CPU a test).
signal_run() { # SIGNAL DIR
	local rc=0 i=0
	FABEMU_PROGRESS_INTERVAL_MS=1 "$fabemu" run "$tmp/long.yaml" -o "$tmp/$2" >/dev/null 2>"$tmp/err" &
	local pid=$!
	until grep -q '^\[fabemu\] t=' "$tmp/err" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -lt 1200 ] || break # 60 s: signal it anyway
		sleep 0.05
	done
	kill -s "$1" "$pid"
	wait "$pid" || rc=$?
	mv "$tmp/err" "$tmp/$2/err"
	echo "$rc"
}
stopped "$tmp/int" SIGINT "$(signal_run INT int)"
stopped "$tmp/term" SIGTERM "$(signal_run TERM term)"
# Through timeout(1), which signals the command and then its process
# group: the two SIGTERMs come at once and count as one (tools/cli_stop.c;
# before, the second ended the process and nothing was written).
rc=0
timeout --preserve-status -s TERM 3 "$fabemu" run "$tmp/long.yaml" -o "$tmp/tmo" -q 2>"$tmp/err" || rc=$?
mv "$tmp/err" "$tmp/tmo/err"
stopped "$tmp/tmo" SIGTERM "$rc"
# Every other signal that would end the process (issue 23): a terminal
# hung up, a closed pipe, the file-size limit.
stopped "$tmp/hup" SIGHUP "$(signal_run HUP hup)"
stopped "$tmp/pipe" SIGPIPE "$(signal_run PIPE pipe)"
stopped "$tmp/xfsz" SIGXFSZ "$(signal_run XFSZ xfsz)"

# A real closed pipe: progress lines go to stderr, a pipe whose reader
# leaves after one byte. The run stops at SIGPIPE and its results say so
# (the WARNING line has nowhere to go).
rc=0
set +e
(FABEMU_PROGRESS_INTERVAL_MS=50 "$fabemu" run "$tmp/long.yaml" -o "$tmp/rpipe" 2>&1 >/dev/null; echo $? >"$tmp/rpipe.rc") |
	head -c 1 >/dev/null
set -e
rc=$(cat "$tmp/rpipe.rc")
[ "$rc" -eq 1 ] || bad "closed pipe: exit status $rc, not 1"
[ "$(key "$tmp/rpipe/summary.json" valid)" = false ] || bad "closed pipe: valid is not false"
case "$(key "$tmp/rpipe/summary.json" invalid_reasons)" in *"interrupted by SIGPIPE"*) ;;
	*) bad "closed pipe: invalid_reasons '$(key "$tmp/rpipe/summary.json" invalid_reasons)'" ;; esac

# A real file-size limit (ulimit -f, SIGXFSZ at its default: it would end
# the process): the capture passes 256 KiB at once; the run stops there,
# the capture's failed write is named, the tables that fit are written and
# summary.json says both. Nothing of an earlier run is lost before it.
rc=0
(ulimit -f 256; exec "$fabemu" run "$tmp/long.yaml" -o "$tmp/fsz" -q) 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || bad "file-size limit: exit status $rc, not 1: $(cat "$tmp/err")"
grep -q "^fabemu: $tmp/fsz/capture/h0-p0.pcap: cannot write: File too large" "$tmp/err" ||
	bad "file-size limit: the capture's failed write is not named: $(cat "$tmp/err")"
s=$tmp/fsz/summary.json
[ "$(key "$s" valid)" = false ] || bad "file-size limit: valid is not false"
case "$(key "$s" invalid_reasons)" in *"interrupted by SIGXFSZ"*"h0-p0.pcap: cannot write: File too large"*) ;;
	*) bad "file-size limit: invalid_reasons '$(key "$s" invalid_reasons)'" ;; esac

# check: an interrupted run fails whatever its (empty) expectations say.
rc=0
"$fabemu" check "$tmp/long.yaml" -o "$tmp/chk" -q --max-wall 0.2s >"$tmp/out" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || bad "check: exit status $rc, not 1"
grep -q "^FAIL results not valid: interrupted by --max-wall 0.2s" "$tmp/out" || bad "check: no FAIL line: $(cat "$tmp/out")"
[ "$fail" -eq 0 ] && echo "interrupt: OK (--max-wall, SIGINT, SIGTERM, timeout(1), SIGHUP, SIGPIPE, SIGXFSZ, a closed pipe, a file-size limit: stopped, written, exit 1)"
exit "$fail"
