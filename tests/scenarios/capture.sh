#!/usr/bin/env bash
# Run an experiment and decode its capture with tshark (the external
# decoder): no malformed frame and the expected opcode counts.
#   capture.sh FABEMU EXPERIMENT PCAP-NAME OPCODE-COUNTS [--set k=v]...
set -eu
fabemu=$1
exp=$2
pcap=$3
counts=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$fabemu" run "$exp" -o "$tmp/out" -q "$@"
bash "$here/tshark_check.sh" "$tmp/out/capture/$pcap" "$counts"
