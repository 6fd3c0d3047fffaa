#!/usr/bin/env bash
# Every result write is checked: a write that fails (a file-size limit
# makes writes past it fail with EFBIG, as a full disk fails them with
# ENOSPC) is an error, exit status 1, with a message naming the file,
# never a silently cut file: the cut table is removed and summary.json,
# still written, says so. SIGXFSZ is ignored (and stays ignored across
# exec) so that the write fails instead of killing the process. A run
# whose outputs fit under the limit still passes.
#   write_fail.sh FABEMU EXPERIMENT   (an experiment with a capture > 16 KiB)
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"
limited() { # limited DIR ARGS...: fabemu run under a 16 KiB file-size limit
	local dir=$1
	shift
	(trap '' XFSZ; ulimit -f 16; exec "$fabemu" run "$@" -o "$dir" -q) 2>"$tmp/err"
}

# The capture passes the limit.
rc=0
limited "$tmp/cap" "$exp" || rc=$?
[ "$rc" -eq 1 ] || bad "capture over the limit: exit status $rc, not 1"
grep -q "^fabemu: $tmp/cap/capture/[^ ]*\.pcap: cannot write: File too large" "$tmp/err" ||
	bad "capture over the limit: message: $(cat "$tmp/err")"

# flows.csv passes the limit (192 rows, no capture).
cat >"$tmp/flows.yaml" <<'YAML'
name: many-flows
topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 16,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
traffic:
  - {kind: permutation, name: a, size: 4KiB}
  - {kind: permutation, name: b, size: 4KiB}
  - {kind: permutation, name: c, size: 4KiB}
YAML
rc=0
limited "$tmp/flows" "$tmp/flows.yaml" || rc=$?
[ "$rc" -eq 1 ] || bad "flows.csv over the limit: exit status $rc, not 1"
grep -q "^fabemu: $tmp/flows/flows.csv: cannot write: File too large" "$tmp/err" ||
	bad "flows.csv over the limit: message: $(cat "$tmp/err")"
# The cut table is removed; the rest, summary.json last, is written and
# says what is missing (docs/results.md, "Exit statuses").
[ ! -e "$tmp/flows/flows.csv" ] || bad "flows.csv over the limit: the cut flows.csv was left"
[ "$(key "$tmp/flows/summary.json" valid)" = false ] || bad "flows.csv over the limit: summary.json not valid: false"
case "$(key "$tmp/flows/summary.json" invalid_reasons)" in *"flows.csv could not be written (File too large)"*) ;;
	*) bad "flows.csv over the limit: invalid_reasons '$(key "$tmp/flows/summary.json" invalid_reasons)'" ;; esac
[ -s "$tmp/flows/ports.csv" ] || bad "flows.csv over the limit: ports.csv not written after it"

# Small outputs under the same limit: a clean run.
rc=0
limited "$tmp/small" "$tmp/flows.yaml" --set outputs.flows_csv=false || rc=$?
[ "$rc" -eq 0 ] || bad "small outputs: exit status $rc: $(cat "$tmp/err")"
[ -s "$tmp/small/summary.json" ] || bad "small outputs: no summary.json"
[ "$fail" -eq 0 ] && echo "write failures: OK (capture and flows.csv over a 16 KiB limit: exit 1, file named)"
exit "$fail"
