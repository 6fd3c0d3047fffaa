#!/usr/bin/env bash
# Keys whose 0 (0ns, 0s, 0B) docs/config.md gives a meaning, each written
# out in a tiny run whose results show that meaning and not a default in
# its place (a value in the schema means what the docs say, or is
# refused). Each case names the documented meaning it checks; the keys
# checked in the unit suites instead are listed in their tests
# (test_cc.c, test_sw.c, test_ibcc.c, test_port_credit.c, test_coll.c,
# test_topo_rail.c, test_nic.c). Runs in about a second.
#   zero_values.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
exps=$2
. "$(dirname "$0")/lib.sh"

topo='topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 1}'

# run NAME ARGS...: fabemu run into $tmp/NAME; its exit status in $rc
run() {
	local name=$1
	shift
	rc=0
	"$fabemu" run "$@" -o "$tmp/$name" -q 2>"$tmp/$name.err" || rc=$?
}

# stop_time 0ns: "the run goes on until no event is left", so a message
# posted at 20 ms (later than any stop a default could put there)
# completes, and the run ends after it.
printf '%s\n' "$topo" 'stop_time: 0ns' \
	'traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 64KiB, start: 20ms}]}]' \
	>"$tmp/stop.yaml"
run stop "$tmp/stop.yaml"
[ "$rc" -eq 0 ] || bad "stop_time 0ns: exit status $rc: $(cat "$tmp/stop.err")"
check "stop_time 0ns: the 20 ms message completes" "$(key "$tmp/stop/summary.json" messages.completed) == 1"
check "stop_time 0ns: the run ends after 20 ms" "$(key "$tmp/stop/summary.json" sim_time_ns) > 20000000"

# fabric.pfc.deadlock_check 0s: "off": the deadlock of pfc-deadlock.yaml is
# neither reported nor ends the run, which goes on to its stop time (with
# the check on it stops at the second check, 200 us).
run dl "$exps/pfc-deadlock.yaml" --set fabric.pfc.deadlock_check=0s --set stop_time=2ms
s=$tmp/dl/summary.json
[ "$rc" -eq 0 ] || bad "deadlock_check 0s: exit status $rc: $(cat "$tmp/dl.err")"
check "deadlock_check 0s: no deadlock reported" "$(key "$s" pfc.deadlocks) == 0"
check "deadlock_check 0s: the run is not stopped for one" "$(key "$s" pfc.deadlock_stopped_run) == 0"
check "deadlock_check 0s: the run ends at stop_time 2ms" "$(key "$s" sim_time_ns) == 2000000"

# engine.no_progress 0s: "off": the same stuck fabric (detector off too)
# runs to a stop time past the default span of 1 s, valid, exit 0.
run np "$exps/pfc-deadlock.yaml" --set fabric.pfc.deadlock_check=0s --set engine.no_progress=0s \
	--set stop_time=1500ms
s=$tmp/np/summary.json
[ "$rc" -eq 0 ] || bad "no_progress 0s: exit status $rc: $(cat "$tmp/np.err")"
check "no_progress 0s: the run reaches stop_time 1.5 s" "$(key "$s" sim_time_ns) == 1500000000"
[ "$(key "$s" valid)" = true ] || bad "no_progress 0s: not valid: $(key "$s" invalid_reasons)"

# traffic.size 0B ("0B..2GiB"): a zero-length WRITE, READ, SEND and WRITE
# with immediate each complete, as one packet without payload, 0 bytes in
# flows.csv. A 0B collective completes too: a ring all-reduce as its
# steps' zero-length SENDs; an all-to-all, whose pairs get no byte ("a pair
# of 0 bytes sends nothing"), in no time, or in its compute phase
# (compute_jitter 0%: exactly compute) after which it has nothing to wait
# for.
printf '%s\n' "$topo" 'traffic:' \
	'  - {kind: messages, messages: [{src: h0, dst: h1, size: 0B}, {src: h1, dst: h0, size: 0B, op: read},' \
	'     {src: h0, dst: h1, size: 0B, op: send, start: 10us}, {src: h1, dst: h0, size: 0B, op: write-imm}]}' \
	'  - {kind: collective, name: ar, collective: all-reduce, size: 0B, start: 20us}' \
	'  - {kind: collective, name: a2a, collective: all-to-all, size: 0B, start: 30us}' \
	'  - {kind: collective, name: a2c, collective: all-to-all, size: 0B, start: 40us,' \
	'     compute: 5us, compute_jitter: 0%, iterations: 2}' >"$tmp/zero-size.yaml"
run size "$tmp/zero-size.yaml"
[ "$rc" -eq 0 ] || bad "size 0B: exit status $rc: $(cat "$tmp/size.err")"
s=$tmp/size/summary.json
check "size 0B: every message completes" "$(key "$s" messages.incomplete) == 0 && $(key "$s" messages.completed) >= 6"
python3 - "$tmp/size" <<'EOF' || fail=1
import csv, json, sys
from scen import say, done
d = sys.argv[1]
rows = list(csv.DictReader(open(d + "/flows.csv")))
say(all(r["bytes"] == "0" and r["status"] == "complete" for r in rows),
    "size 0B: %d flows of 0 bytes, all complete" % len(rows))
ops = {r["op"] for r in rows if r["workload"] == "messages0"}
say(ops == {"write", "read", "send", "write-imm"}, "size 0B: write, read, send, write-imm (%s)" % sorted(ops))
coll = {(r["workload"], r["iteration"]): r for r in csv.DictReader(open(d + "/collectives.csv"))}
say(coll[("ar", "0")]["status"] == "complete", "size 0B: the ring all-reduce completes")
a = json.load(open(d + "/summary.json"))["collectives"]["a2a"]
say(a["completed"] == 1 and a["time_us"] == 0,
    "size 0B: the all-to-all completes in no time (%d completed, %s us)" % (a["completed"], a["time_us"]))
for it in ("0", "1"):
    c = coll[("a2c", it)]
    say(c["status"] == "complete" and float(c["time_us"]) == 5,
        "size 0B: all-to-all iteration %s after 5 us of compute takes 5 us (%s us)" % (it, c["time_us"]))
sys.exit(done())
EOF

# Alone (no other event in the run), the 0B all-to-all completes as well.
printf '%s\n' "$topo" 'traffic: [{kind: collective, name: a2a, collective: all-to-all, size: 0B}]' \
	>"$tmp/a2a.yaml"
run a2a "$tmp/a2a.yaml"
[ "$rc" -eq 0 ] || bad "all-to-all 0B alone: exit status $rc: $(cat "$tmp/a2a.err")"
check "size 0B: an all-to-all alone completes" "$(key "$tmp/a2a/summary.json" collectives.a2a.completed) == 1"

# fabric.convergence 0s: forwarding is recomputed "this much later": at
# once, at the link-down's own time (the default would wait 1 ms).
# fabric.loss 0: no frame is lost. nic.vlan_id 0: every frame tagged, VID
# 0 ("when set, every frame gets an 802.1Q tag with this VID"). nic.dscp 0
# and traffic.dscp 0: the data's DSCP is 0, not 26 (nic.dscp's default).
for v in nic workload; do
	if [ "$v" = nic ]; then dscp='nic: {vlan_id: 0, dscp: 0}' m=''; else dscp='nic: {vlan_id: 0}' m=', dscp: 0'; fi
	printf '%s\n' "$topo" 'fabric: {convergence: 0s, loss: 0}' "$dscp" \
		"traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 256KiB$m}]}]" \
		'faults: [{kind: link-down, at: 5us, ports: ["leaf0:1"]}]' 'capture: {ports: [h0:0]}' \
		>"$tmp/$v.yaml"
	run "$v" "$tmp/$v.yaml"
	[ "$rc" -eq 0 ] || bad "$v: exit status $rc: $(cat "$tmp/$v.err")"
	python3 - "$tmp/$v" "$v" <<'EOF' || fail=1
import csv, struct, sys
from scen import say, done
d, v = sys.argv[1], sys.argv[2]
if v == "nic":
    rows = list(csv.DictReader(open(d + "/faults.csv")))
    rr = [r for r in rows if r["action"] == "reroute"]
    say(len(rr) == 1 and float(rr[0]["time_us"]) == 5.0,
        "convergence 0s: the reroute at the link-down's 5 us (%s)" % [r["time_us"] for r in rr])
    lost = sum(int(r["lost_pkts"]) for r in csv.DictReader(open(d + "/ports.csv")))
    say(lost == 0, "loss 0: no frame lost (%d)" % lost)
b = open(d + "/capture/h0-p0.pcap", "rb").read()
off, sent, tags, dscps = 24, 0, set(), set()
while off + 16 <= len(b):
    incl = struct.unpack_from("<I", b, off + 8)[0]
    f = b[off + 16:off + 16 + incl]
    off += 16 + incl
    if struct.unpack_from(">H", f, 12)[0] != 0x8100 or struct.unpack_from(">H", f, 16)[0] != 0x0800:
        tags.add("untagged")
        continue
    tags.add(struct.unpack_from(">H", f, 14)[0] & 0xFFF)
    if f[18 + 12:18 + 16] == bytes([10, 0, 0, 1]):  # IPv4 source h0: its data
        sent += 1
        dscps.add(f[18 + 1] >> 2)
say(tags == {0}, "%s: vlan_id 0: every frame at h0:0 tagged with VID 0 (%s)" % (v, sorted(map(str, tags))))
say(sent > 0 and dscps == {0}, "%s: dscp 0: h0's %d data frames carry DSCP 0 (%s)" % (v, sent, sorted(dscps)))
sys.exit(done())
EOF
done

[ "$fail" -eq 0 ] && echo "zero values: OK (each 0 does what docs/config.md says)"
exit "$fail"
