#!/usr/bin/env bash
# experiments/corruption.yaml (its header gives the expectations): the
# file's expect: list; the frames hit against the binomial law (each of
# the n frames the leaf's port sent is hit with p = 1 - (1 - 1e-6)^(8 x
# 4158): within 4 standard deviations of n p); every one dropped once by
# the receiver's FCS check; and with tshark (the external decoder): the
# receiver's capture holds every frame that reached its MAC, corrupted
# ones included (its own frames and all the leaf sent), and the sender's
# capture shows each PSN sent and resent: the data frames less the
# distinct PSNs are the retransmissions the NIC counts (summary and the
# QP's flows.csv counter), go-back-N sent at most one NAK per frame hit,
# and the sender's PSNs step back once per NAK and per timeout.
#   corruption.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed"; exit 77; }

"$fabemu" check "$dir/corruption.yaml" -o "$tmp/c" -q >"$tmp/check.txt" || { cat "$tmp/check.txt"; fail=1; }
src=$(tshark -r "$tmp/c/capture/h0-p0.pcap" -c 1 -T fields -e ip.src 2>/dev/null)
# WRITE First..Only (opcodes 6..10) that h0 sent: one PSN per line.
tshark -r "$tmp/c/capture/h0-p0.pcap" -Y "ip.src == $src && infiniband.bth.opcode >= 6 && infiniband.bth.opcode <= 10" \
	-T fields -e infiniband.bth.psn 2>/dev/null >"$tmp/psn.txt"
tshark -r "$tmp/c/capture/h1-p0.pcap" -T fields -e frame.number 2>/dev/null | wc -l >"$tmp/h1.txt"
python3 - "$tmp" <<'PY' || fail=1
import csv, json, math, sys
from scen import say, done
tmp = sys.argv[1]
s = json.load(open("%s/c/summary.json" % tmp))
ports = {(r["node"], r["port"]): r for r in csv.DictReader(open("%s/c/ports.csv" % tmp))}
n = int(ports[("leaf0", "1")]["tx_pkts"])
p = 1 - (1 - 1e-6) ** (8 * 4158)
hit = s["faults"]["frames_corrupted"]
sd = math.sqrt(n * p * (1 - p))
say(abs(hit - n * p) <= 4 * sd, "%d of %d frames hit, binomial mean %.1f (sd %.1f)" % (hit, n, n * p, sd))
say(s["faults"]["fcs_errors"] == hit, "the receiver dropped each once (%d FCS errors)" % s["faults"]["fcs_errors"])
h1 = int(open("%s/h1.txt" % tmp).read())
h1_tx = int(ports[("h1", "0")]["tx_pkts"])
say(h1 == h1_tx + n, "h1's capture: %d frames = its own %d + the leaf's %d, corrupted included" % (h1, h1_tx, n))
psns = [l.strip() for l in open("%s/psn.txt" % tmp) if l.strip()]
resent = len(psns) - len(set(psns))
flows = list(csv.DictReader(open("%s/c/flows.csv" % tmp)))
say(len(psns) == s["nic"]["data_packets"], "the sender's capture: %d data frames, as the NIC counts" % len(psns))
say(resent == s["nic"]["retransmitted"] == int(flows[0]["qp_retransmitted"]),
    "frames sent again (capture) %d = nic.retransmitted %d = the QP's %s" %
    (resent, s["nic"]["retransmitted"], flows[0]["qp_retransmitted"]))
say(1 <= s["nic"]["naks_received"] <= hit, "go-back-N: %d NAKs for %d frames hit" % (s["nic"]["naks_received"], hit))
# Each NAK and each timeout sends the sender back once: the PSN sequence
# of its capture steps back (mod 2^24) exactly that many times.
seq = [int(x) for x in psns]
back = sum(1 for a, b in zip(seq, seq[1:]) if (b - a) % (1 << 24) == 0 or (b - a) % (1 << 24) >= 1 << 23)
say(back == s["nic"]["naks_received"] + s["nic"]["timeouts"],
    "the sender went back %d times = %d NAKs + %d timeouts" % (back, s["nic"]["naks_received"], s["nic"]["timeouts"]))
done()
PY
[ "$fail" = 0 ] && echo "corruption: OK"
exit "$fail"
