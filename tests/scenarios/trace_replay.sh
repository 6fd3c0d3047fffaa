#!/usr/bin/env bash
# experiments/trace-replay.yaml: each shipped trace (experiments/traces/)
# replayed, checked against what the trace file itself says, read here
# with code of our own (and, for the capture, tshark's decode):
# - ps-step.csv: rows without depends_on start at their start; a row
#   waiting for WRITEs starts exactly when the last of them ended
#   (end_ns: a WRITE completes at its sender), one waiting for a SEND
#   after that SEND started and no later than it ended (a SEND completes
#   on arrival, before its sender's end);
# - flow.txt (HPCC): one message per flow, in order, with its endpoints
#   (index i = h<i>), size and start (start_s x 1e9 ns);
# - ring.cm (htsim): connections with `start` start then (ps / 1000);
#   one with `trigger T` starts exactly when the last flow that signals T
#   ended, the barrier's after all three of its flows;
# - rdma-mix.pcap: the messages tshark's fields give (SEND payloads summed
#   from the IPv4 length, WRITE / READ by the RETH's DMA length), with the
#   start of each at its first frame's time relative to the first frame.
#   trace_replay.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" run "$dir/trace-replay.yaml" -o "$tmp/run" -q
have_tshark=0
if command -v tshark >/dev/null 2>&1; then
	have_tshark=1
	tshark -r "$dir/traces/rdma-mix.pcap" -T fields -E separator=, -e frame.time_relative \
		-e ip.src -e ip.dst -e infiniband.bth.opcode -e infiniband.bth.destqp -e ip.len \
		-e infiniband.reth.dmalen -e infiniband.bth.padcnt 2>/dev/null >"$tmp/mix.csv"
else
	echo "SKIP (part): tshark not installed, the capture's messages are not checked"
fi
python3 - "$tmp" "$dir/traces" "$have_tshark" <<'PY' || fail=1
import csv, sys
tmp, traces, have_tshark = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
from scen import say, done
EPS = 0.0015  # flows.csv prints ns with 3 decimals

rows = list(csv.DictReader(open(tmp + "/run/flows.csv")))
by = {}
for r in rows:
    by.setdefault(r["workload"], []).append(r)
f = lambda r, k: float(r[k])

# ps-step.csv: names or indices into hosts (all: h0..h7)
host = lambda x: x if not x.isdigit() else "h" + x
lines = [l for l in open(traces + "/ps-step.csv") if l.strip() and not l.startswith("#")]
head = lines[0].strip().split(",")
ps = [dict(zip(head, l.strip().split(","))) for l in lines[1:]]
got = by.get("ps", [])
say(len(got) == len(ps), "ps-step.csv: %d messages (of %d rows)" % (len(got), len(ps)))
ids = {}
for want, r in zip(ps, got):
    ids[want["id"]] = (want, r)
    same = (r["src"], r["dst"], r["bytes"], r["op"]) == (host(want["src"]), host(want["dst"]), want["bytes"], want["op"])
    deps = [d for d in want["depends_on"].split(";") if d]
    if not deps:
        good = abs(f(r, "start_ns") - float(want["start"][:-2]) * 1000) < EPS
        say(same and good, "ps-step.csv id %s: as written, starts at %s" % (want["id"], want["start"]))
        continue
    dr = [ids[d] for d in deps]
    writes = [x[1] for x in dr if x[0]["op"] != "send"]
    sends = [x[1] for x in dr if x[0]["op"] == "send"]
    start = f(r, "start_ns")
    good = True
    if writes:
        good = good and abs(start - max(f(x, "end_ns") for x in writes)) < EPS
    for x in sends:
        good = good and f(x, "start_ns") < start <= f(x, "end_ns") + EPS
    say(same and good, "ps-step.csv id %s: starts at %.3f ns, when what it waits for (%s) has completed"
        % (want["id"], start, want["depends_on"]))

# flow.txt: HPCC's count, then src dst pg dport size start_s
fl = [l.split() for l in open(traces + "/flow.txt") if l.strip()]
count, flows = int(fl[0][0]), fl[1:]
got = by.get("hpcc", [])
say(count == len(flows) == len(got), "flow.txt: %d flows, %d messages" % (count, len(got)))
for k, (w, r) in enumerate(zip(flows, got)):
    good = (r["src"], r["dst"], r["bytes"]) == ("h" + w[0], "h" + w[1], w[4]) and \
        abs(f(r, "start_ns") - float(w[5]) * 1e9) < EPS
    say(good, "flow.txt flow %d: h%s -> h%s, %s B at %s s" % (k, w[0], w[1], w[4], w[5]))

# ring.cm: hosts [h5, h6, h7]
hosts = ["h5", "h6", "h7"]
conns, trig = [], {}
for l in open(traces + "/ring.cm"):
    t = l.split()
    if not t or t[0].startswith("#"):
        continue
    if "->" in t[0]:
        a, b = t[0].split("->")
        kv = dict(zip(t[1::2], t[2::2]))
        conns.append((hosts[int(a)], hosts[int(b)], kv))
    elif t[0] == "trigger":
        kv = dict(zip(t[1::2], t[2::2]))
        trig[t[2]] = t
got = by.get("ring", [])
say(len(got) == len(conns), "ring.cm: %d messages (of %d connections)" % (len(got), len(conns)))
for (a, b, kv), r in zip(conns, got):
    same = (r["src"], r["dst"], r["bytes"]) == (a, b, kv["size"])
    if "start" in kv:
        say(same and abs(f(r, "start_ns") - float(kv["start"]) / 1000) < EPS,
            "ring.cm id %s: starts at %s ps" % (kv["id"], kv["start"]))
        continue
    sig = [x for (c, x) in zip(conns, got) if c[2].get("send_done_trigger") == kv["trigger"]]
    kind = "barrier" if "barrier" in trig[kv["trigger"]] else "oneshot"
    good = same and len(sig) >= 1 and abs(f(r, "start_ns") - max(f(x, "end_ns") for x in sig)) < EPS
    say(good, "ring.cm id %s: starts at %.3f ns, when the last of the %d flow(s) signalling %s trigger %s ended"
        % (kv["id"], f(r, "start_ns"), len(sig), kind, kv["trigger"]))

# rdma-mix.pcap through tshark: the map of trace-replay.yaml
if have_tshark:
    where = {"10.0.0.1": "h0", "10.0.0.6": "h5", "10.0.0.2": "h1"}
    ext = {6: 16, 10: 16, 12: 16}  # RETH
    msgs, open_send = [], {}
    for t in csv.reader(open(tmp + "/mix.csv")):
        if len(t) < 8 or not t[3]:
            continue
        op = int(t[3])
        key = (t[1], t[2], t[4])
        pay = int(t[5]) - 20 - 8 - 12 - ext.get(op, 0) - int(t[7] or 0) - 4
        if op in (0, 4):
            msgs.append([float(t[0]) * 1e9, where[t[1]], where[t[2]], pay, "send"])
            if op == 0:
                open_send[key] = msgs[-1]
        elif op in (1, 2):
            open_send[key][3] += pay
        elif op in (6, 10, 12):
            msgs.append([float(t[0]) * 1e9, where[t[1]], where[t[2]], int(t[6]), "read" if op == 12 else "write"])
    got = by.get("capture", [])
    say(len(got) == len(msgs) == 4, "rdma-mix.pcap: %d messages, tshark reads %d" % (len(got), len(msgs)))
    for m, r in zip(msgs, got):
        good = (r["src"], r["dst"], int(r["bytes"]), r["op"]) == (m[1], m[2], m[3], m[4]) and \
            abs(f(r, "start_ns") - m[0]) < 1
        say(good, "rdma-mix.pcap: %s %s -> %s of %d B at %.0f ns" % (m[4], m[1], m[2], m[3], m[0]))
done()
PY
exit $fail
