#!/usr/bin/env bash
# Trace replay round trips, the reference being fabemu's own `messages`
# kind and its captures:
# 1. the flows.csv of a `messages` workload, written out as a csv trace
#    (start,src,dst,bytes,op), replays to the same flows.csv byte for byte
#    (same messages, same QPs, same simulation);
# 2. a capture of port h0:0 in an experiment of known messages from h0
#    (a WRITE, a multi-packet SEND, a READ, a one-packet SEND), replayed
#    as a pcap trace, gives back each message's op, endpoints and size,
#    and its start relative to the first within one frame time (a 4 KiB
#    frame at 100 Gb/s, 0.33 us); headers-only frames (caplen < len) and
#    materialised ones (nic.payload: true) alike.
#   trace_roundtrip.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

topo='topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}'
cat >"$tmp/msgs.yaml" <<EOF
$topo
traffic:
  - kind: messages
    name: w
    messages:
      - {src: h0, dst: h3, size: 200KiB, start: 0us}
      - {src: h1, dst: h3, size: 64KiB, start: 1us, op: send}
      - {src: h2, dst: h0, size: 1000B, start: 1500ns, op: read}
      - {src: h0, dst: h3, size: 4KiB, start: 2us}
      - {src: h3, dst: h1, size: 0B, start: 2.5us, op: send}
EOF
"$fabemu" run "$tmp/msgs.yaml" -o "$tmp/a" -q
{
	echo "start,src,dst,bytes,op"
	awk -F, 'NR > 1 { printf "%sns,%s,%s,%s,%s\n", $5, $2, $3, $4, $11 }' "$tmp/a/flows.csv"
} >"$tmp/w.csv"
cat >"$tmp/replay.yaml" <<EOF
$topo
traffic:
  - {kind: trace, name: w, file: w.csv}
EOF
"$fabemu" run "$tmp/replay.yaml" -o "$tmp/b" -q
if cmp -s "$tmp/a/flows.csv" "$tmp/b/flows.csv"; then
	echo "ok: a csv trace of the messages' flows.csv replays to the same flows.csv"
else
	bad "the csv replay differs:"; diff "$tmp/a/flows.csv" "$tmp/b/flows.csv" | head
fi

cat >"$tmp/cap.yaml" <<EOF
$topo
nic: {mtu: 4096}
traffic:
  - kind: messages
    messages:
      - {src: h0, dst: h1, size: 10000B, start: 0us}
      - {src: h0, dst: h3, size: 50000B, start: 20us, op: send}
      - {src: h0, dst: h1, size: 7000B, start: 45us, op: read}
      - {src: h0, dst: h3, size: 300B, start: 60us, op: send}
capture: {ports: ['h0:0']}
EOF
for payload in false true; do
	"$fabemu" run "$tmp/cap.yaml" -o "$tmp/cap-$payload" -q --set nic.payload=$payload
	cat >"$tmp/cap-$payload/replay.yaml" <<EOF
$topo
traffic:
  - {kind: trace, name: c, file: capture/h0-p0.pcap, format: pcap, hosts: [h0, h1, h3]}
EOF
	"$fabemu" run "$tmp/cap-$payload/replay.yaml" -o "$tmp/rep-$payload" -q
	python3 - "$tmp/cap-$payload/flows.csv" "$tmp/rep-$payload/flows.csv" "$payload" <<'PY' || fail=1
import csv, sys
a = list(csv.DictReader(open(sys.argv[1])))
b = list(csv.DictReader(open(sys.argv[2])))
frame_ns = (4096 + 78) * 8 / 100  # a full frame and its wire overhead at 100 Gb/s
ok = len(a) == len(b) == 4
print(("ok: " if ok else "FAIL: ") + "payload %s: %d messages back of %d" % (sys.argv[3], len(b), len(a)))
for x, y in zip(a, b):
    same = [x[k] for k in ("src", "dst", "bytes", "op")] == [y[k] for k in ("src", "dst", "bytes", "op")]
    dt = (float(y["start_ns"]) - float(b[0]["start_ns"])) - (float(x["start_ns"]) - float(a[0]["start_ns"]))
    good = same and abs(dt) <= frame_ns
    print(("ok: " if good else "FAIL: ") + "payload %s: %s %s -> %s %s B, start off by %.3f ns (at most %.1f)"
          % (sys.argv[3], y["op"], y["src"], y["dst"], y["bytes"], dt, frame_ns))
    ok = ok and good
sys.exit(0 if ok else 1)
PY
done
exit $fail
