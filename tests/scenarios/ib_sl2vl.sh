#!/usr/bin/env bash
# Per-port SL-to-VL tables (ib-sl2vl.yaml). Independent expectations:
# - the tables themselves: on the link leaf0:4 - spine0:0, captured and
#   decoded by tshark (with tools/fabemu-ib.lua), every packet sent up by a
#   host of leaf0 (SLID 1..4) carries VL table[SL] of the leaf's uplink
#   (SL 3 -> VL 5, SL 6 -> VL 2) and every packet coming down carries the
#   spine's default (VL = SL); nothing is malformed;
# - the CRCs: with real payload each receiving NIC recomputes the ICRC and
#   the VCRC from scratch; the switches rewrote VL and VCRC on the way, so
#   no packet may be refused (nic.icrc_errors 0) and every message
#   completes, lossless, with credits on the VLs the tables use.
#   ib_sl2vl.sh FABEMU SCENARIO TOOLS_DIR
set -eu
fabemu=$1
exp=$2
tools=$3
. "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null || { echo "SKIP: tshark not installed"; exit 77; }

"$fabemu" run "$exp" -o "$tmp/run" -q
s=$tmp/run/summary.json
check "every message completes" "$(key "$s" messages.incomplete) == 0"
check "nothing dropped" "$(key "$s" drops.total) == 0"
check "no ICRC or VCRC error at the receivers" "$(key "$s" nic.icrc_errors) == 0"
check "credit invariant held" "$(key "$s" credit.overruns) == 0"
tshark -X "lua_script:$tools/fabemu-ib.lua" -r "$tmp/run/capture/spine0-p0.pcap" -T fields \
	-E separator=, -e infiniband.lrh.slid -e infiniband.lrh.dlid -e infiniband.lrh.sl \
	-e infiniband.lrh.vl -e fabemu_iblink.op -e _ws.malformed 2>/dev/null >"$tmp/f.csv"
python3 - "$tmp/f.csv" <<'PY' || fail=1
import sys
up = {3: 5, 6: 2}           # the uplinks' table where it differs
n_up = n_down = bad = 0
for line in open(sys.argv[1]):
    slid, dlid, sl, vl, op, malformed = line.rstrip("\n").split(",")
    if malformed:
        bad += 1; print("FAIL: a malformed packet"); continue
    if op != "" or slid == "":
        continue  # flow-control packets
    slid, dlid, sl, vl = int(slid), int(dlid), int(sl), int(vl, 0)
    if 1 <= slid <= 4:          # sent up by a host of leaf0
        n_up += 1
        want = up.get(sl, sl)
    elif 1 <= dlid <= 4:        # coming down to one
        n_down += 1
        want = sl
    else:
        continue
    if vl != want:
        bad += 1; print("FAIL: SL %d on VL %d, want %d (SLID %d DLID %d)" % (sl, vl, want, slid, dlid))
ok = bad == 0 and n_up > 0 and n_down > 0
print("%s: %d packets up and %d down on leaf0:4 - spine0:0, each on its port's VL for its SL"
      % ("ok" if ok else "FAIL", n_up, n_down))
sys.exit(0 if ok else 1)
PY
exit "$fail"
