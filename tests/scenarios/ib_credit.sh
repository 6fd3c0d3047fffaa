#!/usr/bin/env bash
# The credit invariant of a 16:1 InfiniBand incast (experiments/ib-incast.yaml),
# checked from outside the model: tshark (with tools/fabemu-ib.lua) decodes
# the capture of one sender's link, and at every data packet the sender
# starts, the blocks it has sent on its VL so far must not exceed the
# credit limit the switch last advertised in a flow-control packet (the
# IBTA rule: a sender never has more in flight than the receiver's buffer).
# Also: the limit only grows, every flow-control packet's LPCRC is right,
# nothing is malformed, and the run itself drops nothing at line rate
# (the experiment's own assertions). The link starts with the limit of the
# switch's init packet (the whole buffer), whenever that packet arrives.
#   ib_credit.sh FABEMU EXPERIMENT TOOLS_DIR
set -eu
fabemu=$1
exp=$2
tools=$3
. "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null || { echo "SKIP: tshark not installed"; exit 77; }

"$fabemu" check "$exp" -o "$tmp/run" -q --set capture.ib_linktype=user0 >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; bad "the experiment's assertions"; }
tshark -X "lua_script:$tools/fabemu-ib.lua" -r "$tmp/run/capture/h1-p0.pcap" -T fields \
	-E separator=, -e frame.len -e infiniband.lrh.slid -e infiniband.lrh.vl \
	-e fabemu_iblink.op -e fabemu_iblink.vl -e fabemu_iblink.fccl -e fabemu_iblink.lpcrc_good \
	-e _ws.malformed 2>/dev/null >"$tmp/fields.csv"
python3 - "$tmp/fields.csv" <<'PY' || fail=1
import sys
# h1 is endpoint 1: LID 2. Its data goes on VL 3 (DSCP 26, class 3); the
# switch grants it credits in flow-control packets for VL 3 (h1 receives
# nothing on VL 3, so every VL-3 flow-control packet on the link is the
# switch's).
rows = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
# The link comes up with each sender holding the peer's whole buffer (as
# after IBTA link training); the init packet (op 1) that says so is queued
# then and may arrive after the first data left: its limit holds from 0.
inits = [int(r[5]) for r in rows if r[3] == "1" and r[4] == "3"]
sent = 0          # blocks h1 sent on VL 3 (not mod 4096)
limit = inits[0] if inits else None # the switch's limit, unwrapped
worst = None      # least headroom seen at a send
n_data = n_fc = bad = 0
for f in rows:
    length, slid, lvl, op, vl, fccl, good, malformed = f
    if malformed:
        print("FAIL: a malformed packet"); bad += 1
    if op != "":
        if good != "1" and good.lower() != "true":
            print("FAIL: a flow-control packet with a bad LPCRC"); bad += 1
        if vl != "3":
            continue
        n_fc += 1
        v = int(fccl)
        if limit is None:
            limit = v
        else:
            step = (v - limit) % 4096
            if step > 2048:
                print("FAIL: the limit went back (%d after %d)" % (v, limit % 4096)); bad += 1
            limit += step
        continue
    if slid != "2" or int(lvl, 0) != 3:
        continue
    n_data += 1
    if limit is None:
        print("FAIL: data before any credit"); bad += 1; break
    sent += (int(length) + 63) // 64
    room = limit - sent
    worst = room if worst is None else min(worst, room)
    if room < 0:
        print("FAIL: %d blocks sent against a limit of %d" % (sent, limit)); bad += 1
        break
ok = bad == 0 and n_data > 0 and n_fc > 0
print("%s: %d data packets and %d flow-control packets on VL 3; blocks sent never above the limit (least room %s blocks)"
      % ("ok" if ok else "FAIL", n_data, n_fc, worst))
sys.exit(0 if ok else 1)
PY
exit "$fail"
