#!/usr/bin/env bash
# Header overhead, InfiniBand against RoCEv2 (ib-overhead.yaml's header
# has the arithmetic). Independent expectation: the wire formats. On the
# same payload an IB data packet is exactly 56 bytes shorter on the wire
# than a RoCEv2 frame (ports.csv's bytes per packet, both directions of the
# sender's link), and the long WRITE's goodput follows: within 0.2% of
# 99.37 Gb/s on IB and of 98.04 Gb/s on RoCE, their ratio within 0.1% of
# 4178 / 4122.
#   ib_overhead.sh FABEMU SCENARIO.yaml
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" run "$exp" -o "$tmp/ib" -q
"$fabemu" run "$exp" -o "$tmp/roce" -q --set fabric.link_layer=roce
gi=$(key "$tmp/ib/summary.json" workloads.long.goodput_gbps)
gr=$(key "$tmp/roce/summary.json" workloads.long.goodput_gbps)
check "IB goodput $gi within 0.2% of 99.37 Gb/s" "$gi >= 99.37 * 0.998 && $gi <= 99.37"
check "RoCE goodput $gr within 0.2% of 98.04 Gb/s" "$gr >= 98.04 * 0.998 && $gr <= 98.04"
check "goodput ratio IB/RoCE $gi / $gr within 0.1% of 4178/4122" \
	"($gi / $gr) / (4178 / 4122) >= 0.999 && ($gi / $gr) / (4178 / 4122) <= 1.001"
# Frame bytes per data packet from h0 (its port's transmitted bytes and
# packets; ACKs go the other way): RoCE's 36 more than IB's on every
# packet (4158 against 4122 for a full one; a RETH or a short last packet
# is on both), plus the wire's 20 of preamble and gap on Ethernet.
python3 - "$tmp/ib/ports.csv" "$tmp/roce/ports.csv" <<'PY'
import csv, sys
def per_pkt(path):
    for r in csv.DictReader(open(path)):
        if r["node"] == "h0" and r["port"] == "0":
            return int(r["tx_bytes"]), int(r["tx_pkts"])
    raise SystemExit("FAIL: no h0 port 0 row in " + path)
ib_b, ib_n = per_pkt(sys.argv[1])
ro_b, ro_n = per_pkt(sys.argv[2])
# On IB h0 also sends 6-byte flow-control packets (credits for the ACKs
# it receives): those are the extra packets.
n_fc = ib_n - ro_n
diff = ro_b - (ib_b - 6 * n_fc)
ok = n_fc >= 0 and diff == 36 * ro_n
print(("ok" if ok else "FAIL") + ": %d data packets, %d flow-control packets; RoCE frames %.3f bytes longer each (expected 36 frame bytes, 56 on the wire)" % (ro_n, n_fc, diff / max(ro_n, 1)))
sys.exit(0 if ok else 1)
PY
exit "$fail"
