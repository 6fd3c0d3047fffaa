#!/usr/bin/env bash
# Ultra Ethernet Transport frames (fabric.link_layer: uet) decoded by tshark
# with tools/fabemu-uet.lua and checked against what they must say
# (docs/wire-formats.md, "Ultra Ethernet Transport"), every host's link
# captured, in three runs:
#   A: an 8:1 incast of 256 KiB WRITEs into one host behind a 256 KiB
#      buffer (1 leaf): switches trim, receivers NACK, senders resend;
#   B: a permutation of 256 KiB WRITEs, two SENDs and two WRITEs with
#      immediate (of 4 packets and of 1) across a 2-leaf, 2-spine fabric
#      with fabric.uet.spray: recycle and trimmed packets of 120 bytes (the
#      whole SES header and 18 payload bytes) on DSCP 46 (the script's
#      preference uet.trim_dscp set to match): packets sprayed over both
#      spines arrive out of order, so receivers send SACKs (ACK_CC);
#   C: run A with a 10 us nic.rto: senders time out on data still queued
#      and resend it, and some of those resends are trimmed after the first
#      copy arrived whole (the receiver holds the PSN: an ACK, no NACK);
#   D: run A with receiver credit (nic.cc: rccc), below;
#   E: run A with fabric.uet.trim_lasthop_dscp 50, trim_dscp's: no trim is
#      told apart, every NACK says UET_TRIMMED;
#   F: run A with NSCC and receiver credit together (nic.cc: nscc+rccc),
#      checked as D on the wire too;
#   G: run A with fabric.uet.trim_pick: either (half the time the frame
#      queued last is trimmed in the arriving one's place).
# Checks, on each run:
#   - every frame to UDP 4793 decodes as UET; no malformed frame and no
#     expert warning or error; uet.trimmed says what the IPv4 DSCP says
#     (the trimmed DSCP, or the last-hop one, 51 by default);
#   - at each receiver, in its capture's order: a trimmed data frame whose
#     PSN had not yet arrived whole gets a NACK after it (code trimmed, or
#     trimmed on the last hop when it came on that DSCP, peer and PDC ids
#     mirrored, NACK_PSN = the PSN, RETX = the trimmed frame's), one for
#     one; on runs A, C and D (one switch: every trim is on the last hop)
#     every trimmed frame came on the last-hop DSCP, and summary.json's
#     uet.trimmed_last_hop counts those reaching the receivers (nothing
#     dropped); one whose PSN had (a resend trimmed after the first copy
#     arrived) gets no NACK but an ACK or ACK_CC naming its PSN with its
#     RETX flag; summary.json's uet.trimmed_received counts all trimmed
#     frames reaching the receivers, and (nothing dropped) uet.trimmed too;
#   - each message as its sender first sent it (no RETX flag): PSNs
#     contiguous, exactly one SOM (its first PSN) and one EOM (its last, with
#     AR), message id = first PSN, one opcode, request length and buffer
#     offset (the target address: the same on every packet), the length =
#     the payload bytes of its packets, initiator = the sender's IPv4
#     address; SES bytes 32-39: header data on the SOM packet (0 without
#     HD); on each later packet reserved 0, payload length = its payload and
#     message offset = the payloads of the message's packets before it (PSN
#     order), except the last packet of a WRITE with immediate, which has HD
#     and the immediate (the message's index) there instead; HD on no other
#     packet; the messages' (opcode, length) and immediates are the
#     experiment's; every retransmission repeats its first transmission's SES
#     fields; a trimmed frame is fabric.uet.trim_bytes long less the FCS
#     (64 by default: through the PDS header and 6 bytes of the SES header),
#     with the payload bytes that leaves, and the SES fields it still holds
#     are as its PSN was first sent;
#   - every PSN reached the receiver whole; each ACK / ACK_CC acknowledges
#     only what the receiver's capture shows it had received whole by then
#     (every PSN up to CACK_PSN, every PSN the SACK bitmap lists), an ACK_CC
#     has SACK_PSN_OFFSET 1 and a missing CACK_PSN + 1, and the last CACK of
#     each connection is its last PSN; its acked PSN (CACK_PSN +
#     ACK_PSN_OFFSET, uet.pds.acked_psn) is a data frame of that connection
#     that the receiver's capture shows arriving at or before the ACK, whole
#     or trimmed once the PSN was held (a NACK, not an ACK, answers the other
#     trimmed ones), and its RETX flag is that of one such arrival;
# and that the dissector flags what it cannot decode and reads what it can:
# run A's receiver captured with a 64-byte snaplen (every whole data frame
# and ACK_CC cut inside its UET header: an expert error each, no other
# frame one, a 60-byte trimmed one included); hand-made malformed frames
# (reserved type and next header, headers longer than the UDP length, a
# trimmed request without its whole PDS header: an expert error each) and
# good ones whose fields it must read (ACK_PSN_OFFSET negative and across
# CACK_PSN 0xFFFFFF, RETX, both layouts of SES bytes 32-39, a trimmed
# request cut inside its SES header, and a SES payload length that
# disagrees with the payload: an expert warning).
#   uet_tshark.sh FABEMU TOOLS_DIR
set -eu
fabemu=$1
tools=$2
. "$(dirname "$0")/lib.sh"
command -v tshark >/dev/null 2>&1 || { echo "SKIP: tshark not installed (apt-get install tshark)"; exit 77; }
lua=$tools/fabemu-uet.lua

cat >"$tmp/a.yaml" <<'EOF'
name: uet-incast
seed: 1
topology: {kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 9,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric: {buffer: 256KiB, link_layer: uet}
traffic:
  - {kind: incast, name: incast, dst: h0, count: 8, size: 256KiB}
capture: {ports: ["h*:0"]}
EOF
sed 's/^fabric: {/nic: {rto: 10us}\nfabric: {/; s/^name: .*/name: uet-incast-rto/' "$tmp/a.yaml" >"$tmp/c.yaml"
sed 's/^fabric: {/nic: {cc: rccc}\nfabric: {/; s/^name: .*/name: uet-incast-rccc/' "$tmp/a.yaml" >"$tmp/d.yaml"
sed 's/link_layer: uet}/link_layer: uet, uet: {trim_lasthop_dscp: 50}}/; s/^name: .*/name: uet-incast-same/' \
	"$tmp/a.yaml" >"$tmp/e.yaml"
sed 's/^fabric: {/nic: {cc: nscc+rccc}\nfabric: {/; s/^name: .*/name: uet-incast-both/' "$tmp/a.yaml" >"$tmp/f.yaml"
sed 's/link_layer: uet}/link_layer: uet, uet: {trim_pick: either}}/; s/^name: .*/name: uet-incast-either/' \
	"$tmp/a.yaml" >"$tmp/g.yaml"
# Messages are numbered in order, the permutation's 8 first: the WRITEs
# with immediate carry 10 and 11.
cat >"$tmp/b.yaml" <<'EOF'
name: uet-spray
seed: 3
topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 4,
           host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
fabric: {buffer: 256KiB, link_layer: uet, uet: {spray: recycle, trim_dscp: 46, trim_bytes: 120B}}
traffic:
  - {kind: permutation, stride: 4, size: 256KiB}
  - kind: messages
    messages:
      - {src: h1, dst: h4, size: 64KiB, start: 5us, op: send}
      - {src: h2, dst: h5, size: 1KiB, start: 6us, op: send}
      - {src: h3, dst: h6, size: 16KiB, start: 7us, op: write-imm}
      - {src: h0, dst: h7, size: 1KiB, start: 8us, op: write-imm}
capture: {ports: ["h*:0"]}
EOF

fields="frame.number frame.time_epoch frame.len frame.protocols ip.src ip.dst ip.dsfield.dscp udp.dstport
	uet.pds.type uet.pds.req.retx uet.pds.req.ar uet.pds.psn uet.pds.spdcid uet.pds.dpdcid
	uet.pds.cack_psn uet.pds.ack_psn_offset uet.pds.acked_psn uet.pds.ack.retx
	uet.pds.sack_psn_offset uet.pds.sack_base_psn uet.pds.sack_bitmap uet.pds.sack_psn
	uet.pds.sack_count uet.pds.nack_code uet.pds.nack_psn uet.pds.nack.retx uet.ses.opcode
	uet.ses.som uet.ses.eom uet.ses.hd uet.ses.message_id uet.ses.buffer_offset
	uet.ses.initiator uet.ses.header_data uet.ses.reserved uet.ses.payload_length
	uet.ses.message_offset uet.ses.request_length uet.payload_len uet.trimmed uet.pds.ctl_type
	uet.pds.credit uet.pds.credit_target uet.pds.ccc_id _ws.malformed
	_ws.expert.severity _ws.expert.message"
fargs=()
for f in $fields; do fargs+=(-e "$f"); done
col() { # FIELD: its column (from 1) in decode's output
	local i=1 f
	for f in $fields; do
		[ "$f" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo "col: no field $1" >&2
	exit 1
}
c_type=$(col uet.pds.type)
c_trim=$(col uet.trimmed)
c_dscp=$(col ip.dsfield.dscp)
c_sev=$(col _ws.expert.severity)
c_len=$(col frame.len)
decode() { # PCAP OUT [tshark options]: one tab-separated line a frame
	local pcap=$1 out=$2
	shift 2
	tshark -X "lua_script:$lua" "$@" -r "$pcap" -T fields -E separator=/t -E occurrence=a \
		-E aggregator=, "${fargs[@]}" 2>"$out.err" >"$out" ||
		{ cat "$out.err"; bad "tshark could not read $pcap"; }
}

# run NAME TRIM_DSCP TRIM_BYTES MESSAGES IMMEDIATES HELD ALL_LAST [tshark options];
# HELD 1: some trimmed frames must reach a receiver that holds their PSN;
# ALL_LAST 1: every trim is on the last hop (one switch); same:
# fabric.uet.trim_lasthop_dscp is trim_dscp (every NACK says UET_TRIMMED)
run() {
	local name=$1 dscp=$2 trim=$3 want=$4 imms=$5 held=$6 all_last=$7
	shift 7
	"$fabemu" run "$tmp/$name.yaml" -o "$tmp/$name" -q 2>"$tmp/$name.log" ||
		{ cat "$tmp/$name.log"; bad "run $name"; return; }
	mkdir -p "$tmp/$name/tsv"
	for p in "$tmp/$name"/capture/*.pcap; do
		decode "$p" "$tmp/$name/tsv/$(basename "$p" .pcap).tsv" "$@"
	done
	python3 - "$tmp/$name" "$dscp" "$trim" "$want" "$imms" "$held" "$fields" "$all_last" <<'PY' || fail=1
import collections, decimal, glob, json, os, sys

run, trim_dscp, trim_bytes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
want, imms, need_held, names = sys.argv[4], sys.argv[5], sys.argv[6] == "1", sys.argv[7].split()
all_last, same = sys.argv[8] == "1", sys.argv[8] == "same"
# fabric.uet.trim_lasthop_dscp's default; "same": set to trim_dscp, no trim told apart
LAST_DSCP = trim_dscp if same else 51
col = {n: i for i, n in enumerate(names)}
REQ, ACK, ACK_CC, NACK = (2, 3, 13, 14), 7, 8, 10 # requests: RUD, ROD, and with CC state
WRITE, SEND = 0x01, 0x05
PSN_MOD = 1 << 24
WARN = 6291456 # expert severity: warning (error: 8388608)
HDRS = 14 + 20 + 8 + 12 # Ethernet, IPv4, UDP, PDS request: then the SES header
def hdrs(r): # ... and a request with CC state has 4 more PDS bytes (RUD_CC_REQ, ROD_CC_REQ)
    return HDRS + (4 if r["type"] in (13, 14) else 0)
bad = collections.Counter() # kind of failure -> count: the first 3 of each printed
def fail(msg, kind=None):
    kind = kind or sys._getframe(1).f_lineno
    bad[kind] += 1
    if bad[kind] <= 3:
        print("FAIL: %s: %s" % (os.path.basename(run), msg))
    elif bad[kind] == 4:
        print("FAIL: %s: ... (more of the same below)" % os.path.basename(run))

def flag(v):
    return v in ("1", "True", "true")

def num(v):
    return int(v, 0) if v != "" else None

ips = {}
for line in open(os.path.join(run, "capture", "hosts")):
    if line.startswith("#") or not line.strip():
        continue
    ip, host = line.split()
    ips[host] = ip

frames = {} # host -> list of dicts, in capture order
n_uet = 0
for tsv in sorted(glob.glob(os.path.join(run, "tsv", "*.tsv"))):
    host = os.path.basename(tsv)[:-4].rsplit("-p", 1)[0]
    rows = frames.setdefault(host, [])
    for line in open(tsv):
        v = line.rstrip("\n").split("\t")
        v += [""] * (len(names) - len(v))
        r = {n: v[col[n]] for n in names}
        where = "%s frame %s" % (host, r["frame.number"])
        if r["_ws.malformed"] != "":
            fail("%s malformed (%s)" % (where, r["_ws.expert.message"]))
        if any(int(x) >= WARN for x in r["_ws.expert.severity"].split(",") if x != ""):
            fail("%s expert warning or error (%s)" % (where, r["_ws.expert.message"]))
        if "4793" not in r["udp.dstport"].split(","):
            continue
        if "uet" not in r["frame.protocols"].split(":") or r["uet.pds.type"] == "":
            fail("%s: UDP 4793 but not decoded as UET" % where)
            continue
        n_uet += 1
        r["t"] = int(decimal.Decimal(r["frame.time_epoch"]) * 1000000000)
        r["type"] = int(r["uet.pds.type"])
        for k in ("frame.len", "uet.pds.psn", "uet.pds.spdcid", "uet.pds.dpdcid", "uet.pds.cack_psn",
                  "uet.pds.ack_psn_offset", "uet.pds.acked_psn", "uet.pds.sack_psn_offset",
                  "uet.pds.sack_base_psn", "uet.pds.sack_count", "uet.pds.nack_code",
                  "uet.pds.nack_psn", "uet.ses.opcode", "uet.ses.message_id",
                  "uet.ses.buffer_offset", "uet.ses.initiator", "uet.ses.header_data",
                  "uet.ses.reserved", "uet.ses.payload_length", "uet.ses.message_offset",
                  "uet.ses.request_length", "uet.payload_len"):
            r[k] = num(r[k])
        r["trim"] = flag(r["uet.trimmed"])
        r["last"] = not same and r["ip.dsfield.dscp"] == str(LAST_DSCP)
        if r["trim"] != (r["ip.dsfield.dscp"] in (str(trim_dscp), str(LAST_DSCP))):
            fail("%s: uet.trimmed %s with DSCP %s" % (where, r["uet.trimmed"], r["ip.dsfield.dscp"]))
        r["retx"] = flag(r["uet.pds.req.retx"] if r["type"] in REQ else
                         r["uet.pds.nack.retx"] if r["type"] == NACK else r["uet.pds.ack.retx"])
        r["where"] = where
        rows.append(r)

summary = json.load(open(os.path.join(run, "summary.json")))
uet = summary["uet"]

# Data as each sender sent it, and the connections (sender, receiver,
# SPDCID, DPDCID): a receiver's ACKs and NACKs carry the ids swapped.
sent = collections.defaultdict(list)   # conn -> first transmissions
resent = collections.defaultdict(list) # conn -> retransmissions
for h, rows in frames.items():
    for r in rows:
        if r["type"] in REQ and r["ip.src"] == ips[h]:
            conn = (r["ip.src"], r["ip.dst"], r["uet.pds.spdcid"], r["uet.pds.dpdcid"])
            (resent if r["retx"] else sent)[conn].append(r)
if not sent:
    fail("no data frames in the senders' captures")

first = {} # (conn, psn) -> first transmission
msgs = collections.Counter()
immediates = []
for conn, rows in sent.items():
    by_msg = collections.defaultdict(list)
    for r in rows:
        key = (conn, r["uet.pds.psn"])
        if key in first:
            fail("%s: PSN %d sent twice without RETX" % (r["where"], key[1]))
        first[key] = r
        if r["uet.ses.initiator"] != int.from_bytes(bytes(map(int, conn[0].split("."))), "big"):
            fail("%s: SES initiator 0x%08x, not the sender's address %s" %
                 (r["where"], r["uet.ses.initiator"], conn[0]))
        if r["trim"]:
            fail("%s: a sender's own frame on the trimmed DSCP" % r["where"])
        by_msg[r["uet.ses.message_id"]].append(r)
    for mid, rows in by_msg.items():
        rows.sort(key=lambda r: r["uet.pds.psn"])
        psns = [r["uet.pds.psn"] for r in rows]
        what = "%s->%s message %d" % (conn[0], conn[1], mid)
        if psns != list(range(psns[0], psns[0] + len(psns))):
            fail("%s: PSNs not contiguous" % what)
        soms = [r["uet.pds.psn"] for r in rows if flag(r["uet.ses.som"])]
        eoms = [r["uet.pds.psn"] for r in rows if flag(r["uet.ses.eom"])]
        if soms != [psns[0]] or eoms != [psns[-1]]:
            fail("%s: SOM at %s, EOM at %s, PSNs %d..%d" % (what, soms, eoms, psns[0], psns[-1]))
        if not flag(rows[-1]["uet.pds.req.ar"]):
            fail("%s: the last packet does not request an ACK" % what)
        if mid != psns[0] & 0xFFFF:
            fail("%s: message id is not its first PSN %d" % (what, psns[0]))
        lens = {r["uet.ses.request_length"] for r in rows}
        ops = {r["uet.ses.opcode"] for r in rows}
        total = sum(r["uet.payload_len"] for r in rows)
        if len(lens) != 1 or len(ops) != 1 or lens != {total}:
            fail("%s: request lengths %s, opcodes %s, payload %d bytes" % (what, lens, ops, total))
        offs = sorted({r["uet.ses.buffer_offset"] for r in rows}, key=str)
        if len(offs) != 1 or offs[0] is None:
            fail("%s: buffer offsets %s on its packets, not one target address" % (what,
                 ", ".join("none" if o is None else "0x%x" % o for o in offs)))
        op = ops.pop()
        # SES bytes 32-39. HD on the last packet of a WRITE with immediate
        # (its only one when it has one), on no other.
        hds = [r["uet.pds.psn"] for r in rows if flag(r["uet.ses.hd"])]
        imm = op == WRITE and hds == [psns[-1]]
        if hds and not imm:
            fail("%s: opcode %s with HD on PSNs %s (PSNs %d..%d)" % (what, hex(op), hds, psns[0],
                 psns[-1]))
        before = 0 # the payload bytes of the message's packets before this one
        for r in rows:
            som, hd = flag(r["uet.ses.som"]), flag(r["uet.ses.hd"])
            hdata = r["uet.ses.header_data"]
            if som or hd:
                if hdata is None or r["uet.ses.payload_length"] is not None or \
                        r["uet.ses.message_offset"] is not None:
                    fail("%s: a%s%s packet with SES bytes 32-39 not read as header data" %
                         (r["where"], " SOM" if som else "", " HD" if hd else ""))
                elif hd:
                    if hdata >= 1 << 32:
                        fail("%s: header data 0x%x, not a 32-bit immediate" % (r["where"], hdata))
                    immediates.append(hdata)
                elif hdata != 0:
                    fail("%s: header data 0x%x without HD" % (r["where"], hdata))
            elif hdata is not None or r["uet.ses.reserved"] != 0 or \
                    r["uet.ses.payload_length"] != r["uet.payload_len"] % (1 << 14) or \
                    r["uet.ses.message_offset"] != before:
                fail("%s: SES reserved %s, payload length %s (its payload %d), message offset %s "
                     "(the message's bytes before it %d), header data %s" % (r["where"],
                     r["uet.ses.reserved"], r["uet.ses.payload_length"], r["uet.payload_len"],
                     r["uet.ses.message_offset"], before, hdata))
            before += r["uet.payload_len"]
        name = "WRITE-IMM" if imm else "WRITE" if op == WRITE else "SEND" if op == SEND else hex(op)
        msgs[(name, total)] += 1
expected = collections.Counter()
for w in want.split(","):
    opname, size_n = w.split(":")
    size, n = size_n.split("x")
    expected[(opname, int(size))] += int(n)
if msgs != expected:
    fail("messages %s, the experiment's %s" % (sorted(msgs.items()), sorted(expected.items())))
want_imms = sorted(int(x) for x in imms.split(",") if x != "")
if sorted(immediates) != want_imms:
    fail("immediates %s, the experiment's %s" % (sorted(immediates), want_imms))

# Where each SES field ends in the header: a trimmed frame holds those that
# end within what the trim left.
SES_END = {"uet.ses.opcode": 1, "uet.ses.som": 2, "uet.ses.eom": 2, "uet.ses.hd": 2,
           "uet.ses.message_id": 4, "uet.ses.buffer_offset": 20, "uet.ses.initiator": 24,
           "uet.ses.header_data": 40, "uet.ses.reserved": 34, "uet.ses.payload_length": 36,
           "uet.ses.message_offset": 40, "uet.ses.request_length": 44}
SES = ("uet.ses.opcode", "uet.ses.som", "uet.ses.eom", "uet.ses.hd", "uet.ses.message_id",
       "uet.ses.buffer_offset", "uet.ses.initiator", "uet.ses.header_data", "uet.ses.reserved",
       "uet.ses.payload_length", "uet.ses.message_offset", "uet.ses.request_length")
n_retx = 0
for conn, rows in resent.items():
    for r in rows:
        n_retx += 1
        f = first.get((conn, r["uet.pds.psn"]))
        if f is None:
            fail("%s: a retransmission of PSN %d never sent" % (r["where"], r["uet.pds.psn"]))
        elif any(f[k] != r[k] for k in SES + ("uet.payload_len",)):
            fail("%s: a retransmission's SES fields differ from the first's: %s" % (r["where"],
                 ", ".join(k for k in SES + ("uet.payload_len",) if f[k] != r[k])))

# Each receiver, in its capture's order: trimmed data in against NACKs out;
# what it had whole against what it acknowledges.
n_trim = n_last = n_nack = n_held = n_ack = n_sack = 0
for h, rows in frames.items():
    me = ips[h]
    pending = collections.Counter() # (conn, psn, retx, last hop) -> trimmed arrivals still to NACK
    held = []    # (conn, psn, retx, time, where): trimmed arrivals of a PSN already whole
    # (conn, psn) -> (time, retx) of each arrival an ACK may answer: whole,
    # or trimmed when the PSN was held (a NACK answers the other trimmed ones)
    arrived = collections.defaultdict(list)
    whole = {}   # (conn, psn) -> first whole arrival
    acks = []
    for r in rows:
        if r["type"] in REQ and r["ip.dst"] == me:
            conn = (r["ip.src"], r["ip.dst"], r["uet.pds.spdcid"], r["uet.pds.dpdcid"])
            key = (conn, r["uet.pds.psn"])
            if not r["trim"] or key in whole:
                arrived[key].append((r["t"], r["retx"]))
            if r["trim"]:
                n_trim += 1
                n_last += r["last"]
                if all_last and not r["last"]:
                    fail("%s: trimmed on DSCP %s, not the last-hop one (%d), behind the only switch" %
                         (r["where"], r["ip.dsfield.dscp"], LAST_DSCP))
                f = first.get(key)
                if f is None:
                    fail("%s: trimmed PSN %d never sent" % (r["where"], key[1]))
                elif r["frame.len"] != min(trim_bytes - 4, f["frame.len"]) or \
                        r["uet.payload_len"] != max(0, r["frame.len"] - hdrs(r) - 44):
                    fail("%s: trimmed frame of %d bytes with %s payload bytes, fabric.uet.trim_bytes "
                         "%d (its PSN's frame %d bytes)" % (r["where"], r["frame.len"],
                         r["uet.payload_len"], trim_bytes, f["frame.len"]))
                else:
                    # The SES fields the trim left, as the sender sent them.
                    kept = r["frame.len"] - hdrs(r)
                    diff = [k for k in SES if (f[k] if SES_END[k] <= kept else None) != r[k]]
                    if diff:
                        fail("%s: a trimmed frame (%d SES bytes) differs from its PSN's first "
                             "transmission: %s" % (r["where"], kept, ", ".join(
                             "%s %s, expected %s" % (k, r[k], f[k] if SES_END[k] <= kept
                             else "none (past the trim)") for k in diff)))
                if key in whole:
                    held.append(key + (r["retx"], r["t"], r["where"]))
                else:
                    pending[key + (r["retx"], r["last"])] += 1
            else:
                whole.setdefault(key, r["t"])
        elif r["type"] in (ACK, ACK_CC, NACK) and r["ip.src"] == me:
            conn = (r["ip.dst"], r["ip.src"], r["uet.pds.dpdcid"], r["uet.pds.spdcid"])
            if r["type"] != NACK:
                acks.append((conn, r))
                continue
            n_nack += 1
            psn, retx = r["uet.pds.nack_psn"], r["retx"]
            # UET_TRIMMED (1), or UET_TRIMMED_LASTHOP (2) for a frame on the last-hop DSCP
            if r["uet.pds.nack_code"] not in (1, 2):
                fail("%s: NACK code %s" % (r["where"], r["uet.pds.nack_code"]))
            last = r["uet.pds.nack_code"] == 2
            if pending[(conn, psn, retx, last)] > 0:
                pending[(conn, psn, retx, last)] -= 1
            elif pending[(conn, psn, retx, not last)] > 0:
                pending[(conn, psn, retx, not last)] -= 1
                fail("%s: NACK code %d for PSN %d, trimmed %s the last hop" %
                     (r["where"], r["uet.pds.nack_code"], psn, "off" if last else "on"))
            elif pending[(conn, psn, not retx, last)] > 0:
                pending[(conn, psn, not retx, last)] -= 1
                fail("%s: NACK of PSN %d with RETX %s, the trimmed frame's %s" %
                     (r["where"], psn, retx, not retx))
            elif any(x[:2] == (conn, psn) for x in held):
                fail("%s: NACK of PSN %d, trimmed after it had arrived whole (an ACK's case)" %
                     (r["where"], psn))
            else:
                fail("%s: NACK of PSN %d without a trimmed frame before it" % (r["where"], psn))
    left = +pending
    if left:
        fail("%s: %d trimmed data frames (their PSN not yet received whole) without a NACK "
             "after them: %s" % (h, sum(left.values()), ", ".join("PSN %d from %s%s" %
             (k[1], k[0][0], " RETX" if k[2] else "") for k in sorted(left)[:3])))
    n_held += len(held)
    for conn, psn, retx, t, where in held:
        if not any(c == conn and r["uet.pds.acked_psn"] == psn and r["retx"] == retx and
                   r["t"] >= t for c, r in acks):
            fail("%s: trimmed PSN %d (RETX %s) already received whole: no ACK names it after" %
                 (where, psn, retx))
    # Latest first-whole-arrival time over PSNs 0..p, a connection at a time.
    upto = {}
    for conn in {c for c, _ in whole}:
        t, p, u = 0, 0, []
        while (conn, p) in whole:
            t = max(t, whole[(conn, p)])
            u.append(t)
            p += 1
        upto[conn] = u
    # PSNs count in 24 bits (docs/wire-formats.md): CACK_PSN 0xFFFFFF,
    # before PSN 0, acknowledges nothing. n = the PSNs it acknowledges.
    last_cack = {}
    for conn, r in acks:
        n_ack += 1
        cack, t = r["uet.pds.cack_psn"], r["t"]
        n = (cack + 1) % PSN_MOD
        u = upto.get(conn, [])
        if n > len(u) or (n and u[n - 1] > t):
            fail("%s: CACK_PSN %d before the receiver had every PSN up to it" % (r["where"], cack))
        last_cack[conn] = max(last_cack.get(conn, 0), n)
        # The data packet whose arrival sent it, and its RETX.
        acked, off = r["uet.pds.acked_psn"], r["uet.pds.ack_psn_offset"]
        if off is None or acked != (cack + off) % PSN_MOD:
            fail("%s: acked PSN %s, CACK_PSN %d + ACK_PSN_OFFSET %s" % (r["where"], acked, cack, off))
        else:
            came = [x for x in arrived.get((conn, acked), []) if x[0] <= t]
            if not came:
                fail("%s: ACK_PSN_OFFSET %d names PSN %d (CACK_PSN %d), not arrived whole, nor "
                     "trimmed once held, by then" %
                     (r["where"], off, acked, cack))
            elif not any(x[1] == r["retx"] for x in came):
                fail("%s: RETX %s for PSN %d, whose arrivals had RETX %s" % (r["where"],
                     r["retx"], acked, sorted({x[1] for x in came})))
        if r["type"] == ACK_CC:
            n_sack += 1
            listed = [int(x) for x in r["uet.pds.sack_psn"].split(",") if x != ""]
            if r["uet.pds.sack_psn_offset"] != 1 or r["uet.pds.sack_base_psn"] != n:
                fail("%s: SACK_PSN_OFFSET %s" % (r["where"], r["uet.pds.sack_psn_offset"]))
            if not listed or len(listed) != r["uet.pds.sack_count"] or \
                    bin(int(r["uet.pds.sack_bitmap"], 16)).count("1") != len(listed):
                fail("%s: SACK bitmap %s lists %s" % (r["where"], r["uet.pds.sack_bitmap"], listed))
            for p in listed:
                if whole.get((conn, p), t + 1) > t:
                    fail("%s: SACKs PSN %d, not received whole by then" % (r["where"], p))
            if whole.get((conn, n), t) < t:
                fail("%s: CACK_PSN %d while %d had arrived" % (r["where"], cack, n))
    for (c, p) in first:
        if c[1] == me and (c, p) not in whole:
            fail("%s: PSN %d from %s never arrived whole" % (h, p, c[0]))
    for c in {c for c, _ in first if c[1] == me}:
        top = max(p for cc, p in first if cc == c)
        if last_cack.get(c) != top + 1:
            fail("%s: the ACKs to %s acknowledge PSNs below %s, its last PSN is %d" %
                 (h, c[0], last_cack.get(c), top))

if n_trim != uet["trimmed_received"]:
    fail("%d trimmed frames reached the receivers, summary.json uet.trimmed_received %d" %
         (n_trim, uet["trimmed_received"]))
if summary["drops"]["total"] == 0 and n_trim != uet["trimmed"]:
    fail("%d trimmed frames at the receivers, nothing dropped, uet.trimmed %d" % (n_trim, uet["trimmed"]))
if not same and summary["drops"]["total"] == 0 and n_last != uet["trimmed_last_hop"]:
    fail("%d frames trimmed on the last hop at the receivers, nothing dropped, uet.trimmed_last_hop %d" %
         (n_last, uet["trimmed_last_hop"]))
if n_trim == 0 or n_sack == 0 or (need_held and n_held == 0):
    fail("the run exercises too little: %d trimmed frames (%d of a PSN already held), %d ACK_CC" %
         (n_trim, n_held, n_sack))
print("%s: %s: %d UET frames decoded, %d messages, %d retransmissions, %d trimmed (summary %d; "
      "%d on the last hop): %d NACKed, %d already held; %d ACKs of which %d ACK_CC" %
      ("FAIL" if bad else "ok", os.path.basename(run), n_uet, sum(msgs.values()), n_retx, n_trim,
      uet["trimmed_received"], n_last, n_nack, n_held, n_ack, n_sack))
for kind, n in bad.items():
    if n > 3:
        print("FAIL: %s: %d failures of the kind above (check at line %s)" % (os.path.basename(run), n, kind))
sys.exit(1 if bad else 0)
PY
}

run a 50 64 "WRITE:262144x8" "" 0 1
run b 46 120 "WRITE:262144x8,SEND:65536x1,SEND:1024x1,WRITE-IMM:16384x1,WRITE-IMM:1024x1" 10,11 0 0 \
	-o uet.trim_dscp:46
run c 50 64 "WRITE:262144x8" "" 1 1
run d 50 64 "WRITE:262144x8" "" 0 1
run e 50 64 "WRITE:262144x8" "" 0 same
run f 50 64 "WRITE:262144x8" "" 0 1
run g 50 64 "WRITE:262144x8" "" 0 1

# Runs D (nic.cc: rccc) and F (nscc+rccc) on the wire: data frames are RUD_CC_REQ with the
# sender's PDC as CCC_ID; CREDITs go receiver to sender, CREDIT_REQs the
# other way, their credit cumulative (never going back); once a sender
# heard from its receiver (its first ACK, NACK or CREDIT), the wire bytes
# of the data it sends after never pass the credit granted since plus one
# frame (what credit lets go: spent while above zero); the receiver's
# pacer grants no faster than 0.99 of its 100 Gb/s over the incast, and
# (it is busy throughout) no slower than 0.9 of it.
dcols="frame.number frame.time_epoch frame.len ip.src ip.dst uet.pds.type uet.pds.ctl_type
	uet.pds.spdcid uet.pds.dpdcid uet.pds.ccc_id uet.pds.credit_target uet.pds.credit"
dargs=()
for f in $dcols; do dargs+=(-e "$f"); done
for cr in d f; do
for p in "$tmp/$cr"/capture/*.pcap; do
	tshark -X "lua_script:$lua" -r "$p" -Y "udp.port == 4793" -T fields -E separator=/t \
		"${dargs[@]}" >"$tmp/$cr/tsv/$(basename "$p" .pcap).credit" 2>/dev/null || bad "tshark $p"
done
python3 - "$tmp/$cr" "$dcols" <<'PY' || fail=1
import decimal, glob, json, os, sys
run, names = sys.argv[1], sys.argv[2].split()
label = {"d": "d (rccc)", "f": "f (nscc+rccc)"}[os.path.basename(run)]
ips = dict(reversed(l.split()) for l in open(os.path.join(run, "capture", "hosts"))
           if l.strip() and not l.startswith("#"))
ok = True
def fail(msg):
    global ok
    ok = False
    print("FAIL: %s: " % label +  + msg)
WIRE = 4 + 20 # FCS, preamble and gap: frame.len leaves them out
MOD = 1 << 24
n_data = n_credit = n_req = 0
grants = [] # receiver h0: (time, units)
for tsv in sorted(glob.glob(os.path.join(run, "tsv", "*.credit"))):
    host = os.path.basename(tsv)[:-7].rsplit("-p", 1)[0]
    me = ips[host]
    heard = {}     # connection -> the first answer's time
    credit = {}    # connection -> last cumulative credit seen
    since = {}     # connection -> (credit units granted since heard, data bytes sent since)
    for line in open(tsv):
        v = dict(zip(names, line.rstrip("\n").split("\t")))
        ty, t = int(v["uet.pds.type"]), decimal.Decimal(v["frame.time_epoch"])
        if v["ip.src"] == me and ty in (2, 3, 14):
            fail("%s frame %s: data as PDS type %d, not RUD_CC_REQ" % (host, v["frame.number"], ty))
        if v["ip.src"] == me and ty == 13:
            n_data += 1
            conn = (v["ip.dst"], int(v["uet.pds.spdcid"], 16))
            if int(v["uet.pds.ccc_id"], 16) != conn[1] & 0xFF:
                fail("%s frame %s: CCC_ID %s, not its PDC's low byte" % (host, v["frame.number"],
                     v["uet.pds.ccc_id"]))
            if conn in heard:
                g, b = since[conn]
                if b > g * 256:
                    fail("%s frame %s: %d wire bytes sent since its receiver answered, credit "
                         "granted since %d bytes" % (host, v["frame.number"], b, g * 256))
                since[conn] = (g, b + int(v["frame.len"]) + WIRE)
        elif v["ip.dst"] == me and ty in (7, 8, 10, 11):
            conn = (v["ip.src"], int(v["uet.pds.dpdcid"], 16))
            heard.setdefault(conn, t)
            since.setdefault(conn, (0, 0))
            if ty == 11 and int(v["uet.pds.ctl_type"]) == 7:
                c = int(v["uet.pds.credit"])
                d = (c - credit.get(conn, 0)) % MOD
                if conn in credit and d >= MOD // 2:
                    fail("%s frame %s: CREDIT went back (%d after %d)" % (host, v["frame.number"], c, credit[conn]))
                g, b = since[conn] # credit counts from 0: the first CREDIT's is all new
                since[conn] = (g + d, b)
                credit[conn] = c
        if v["ip.src"] == me and ty == 11:
            ctl = int(v["uet.pds.ctl_type"])
            if ctl == 7:
                n_credit += 1
                key = (v["ip.dst"], int(v["uet.pds.dpdcid"], 16))
                c = int(v["uet.pds.credit"])
                prev = credit.get(("out",) + key, 0)
                credit[("out",) + key] = c
                grants.append((t, (c - prev) % MOD))
            elif ctl == 8:
                n_req += 1
if n_data == 0 or n_credit == 0:
    fail("%d data frames, %d CREDITs: no receiver credit ran" % (n_data, n_credit))
if len(grants) > 10:
    span = float(grants[-1][0] - grants[0][0])
    units = sum(u for _, u in grants[:-1])
    rate = units * 256 * 8 / span / 100e9
    if not 0.9 <= rate <= 0.99 * 1.001:
        fail("the pacer granted %.4f of the line rate over %.1f us (0.9 to 0.99)" % (rate, span * 1e6))
else:
    fail("%d CREDITs from the receiver" % len(grants))
    rate = 0
s = json.load(open(os.path.join(run, "summary.json")))
if s["uet"]["credits"] != n_credit or s["uet"]["credit_requests"] != n_req:
    fail("summary.json: uet.credits %d, credit_requests %d; the captures %d and %d" % (
         s["uet"]["credits"], s["uet"]["credit_requests"], n_credit, n_req))
print("%s: %s: %d data frames RUD_CC_REQ within their credit, %d CREDITs (%d CREDIT_REQs); "
      "the pacer at %.4f of the line rate" % ("ok" if ok else "FAIL", label, n_data, n_credit, n_req, rate))
sys.exit(0 if ok else 1)
PY
done

# The trimmed DSCP is the preference's: run B's frames trimmed off the
# last hop (DSCP 46) are not marked at the default 50 (those on the
# last-hop DSCP, 51 on both sides, are).
decode "$tmp/b/capture/h0-p0.pcap" "$tmp/b0.tsv"
if [ -s "$tmp/b0.tsv" ] &&
	! awk -F '\t' -v c="$c_trim" -v d="$c_dscp" '($c == "1" || $c == "True") && $d != "51"' \
		"$tmp/b0.tsv" | grep -q .; then
	echo "ok: uet.trim_dscp at its default (50) marks none of run B's frames on DSCP 46 trimmed"
else
	bad "DSCP 46 read as trimmed with uet.trim_dscp at its default"
fi

# Cut headers: run A's receiver with a 64-byte snaplen. A data frame (98
# header bytes) and an ACK_CC (74) are cut inside their UET header; an ACK,
# a NACK and a trimmed data frame (60) are whole.
"$fabemu" run "$tmp/a.yaml" -o "$tmp/cut" -q --set 'capture.ports=[h0:0]' --set capture.snaplen=64 \
	2>"$tmp/cut.log" || { cat "$tmp/cut.log"; bad "run with snaplen 64"; }
decode "$tmp/cut/capture/h0-p0.pcap" "$tmp/cut.tsv"
awk -F '\t' -v ty="$c_type" -v sev="$c_sev" -v len="$c_len" -v tr="$c_trim" '
	$ty == "" { nodec++ }
	{ err = index("," $sev ",", ",8388608,") > 0 }
	($ty == 2 && $len > 64) || $ty == 8 { cut++; if (!err) missed++ }
	$ty == 2 && $len <= 64 { trimmed++; if ($tr != 1 && $tr != "True") nottrim++ }
	$ty == 7 || $ty == 10 || ($ty == 2 && $len <= 64) { if (err) spurious++ }
	END {
		ok = cut > 0 && trimmed > 0 && !missed && !spurious && !nodec && !nottrim
		printf "%s: snaplen 64: %d frames cut in the UET header, %d without an expert error; %d whole frames with one (%d trimmed data frames, %d of them not read as trimmed); %d not decoded\n",
			ok ? "ok" : "FAIL", cut, missed, spurious, trimmed, nottrim, nodec
		exit !ok
	}' "$tmp/cut.tsv" || fail=1

# Hand-made frames: Ethernet, IPv4, UDP to 4793 and a UET header that is
# wrong (E: an expert error), right (OK: no expert warning or error, and the
# fields listed read as given) or right with a SES payload length that is
# not the payload's (W: an expert warning, no error).
python3 - "$tmp/bad.pcap" "$tmp/bad.want" <<'PY'
import json, struct, sys
def frame(uet, udp_len=None, dscp=0):
    udp = struct.pack(">HHHH", 0xC001, 4793, udp_len if udp_len is not None else 8 + len(uet), 0)
    ip = struct.pack(">BBHHHBBH4s4s", 0x45, dscp << 2, 20 + len(udp) + len(uet), 1, 0x4000, 64, 17, 0,
                     bytes([10, 0, 0, 2]), bytes([10, 0, 0, 1]))
    f = b"\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00" + ip + udp + uet
    return f + b"\x00" * max(0, 60 - len(f))
def ack(cack, off, flags=0):
    return struct.pack(">HhIHH", 7 << 11 | flags, off, cack, 0x100, 0x101)
def req(ses_flags, b32, payload, flags=0, psn=5):
    pds = struct.pack(">HhIHH", 2 << 11 | 3 << 7 | flags, 0, psn, 0x100, 0x101)
    ses = struct.pack(">BBHIHHQIQ8sI", 0x01, ses_flags, 3, 0, 0, 0, 0x10000000, 0x0A000002, 0,
                      b32, 3 * 1000)
    return pds + ses + b"\x00" * payload
a = ack(40, 0)
cases = [ # (frame, result, {field: value, "": absent})
    (frame(struct.pack(">H", 0) + a[2:]), "E", {}),                # reserved type 0
    (frame(struct.pack(">H", 2 << 11 | 9 << 7) + a[2:]), "E", {}), # reserved next header 9
    (frame(a[:6], udp_len=14), "E", {}),                           # ACK longer than its UDP length
    (frame(b"\x38", udp_len=9), "E", {}),                          # one byte, no prologue
    (frame(struct.pack(">H", 2 << 11 | 3 << 7) + a[2:]), "E", {}), # request without its SES header
    (frame(a), "OK", {"uet.pds.ack_psn_offset": "0", "uet.pds.acked_psn": "40",
                      "uet.pds.ack.retx": "0"}),
    # An ACK for a retransmission behind CACK_PSN: offset -3.
    (frame(ack(10, -3, 0x10)), "OK", {"uet.pds.ack_psn_offset": "-3", "uet.pds.acked_psn": "7",
                                      "uet.pds.ack.retx": "1", "uet.pds.cack_psn": "10"}),
    # Nothing in order yet (CACK_PSN -1 in 24 bits), PSN 2 arrived.
    (frame(ack(0xFFFFFF, 3)), "OK", {"uet.pds.acked_psn": "2"}),
    # A NACK for a retransmission.
    (frame(struct.pack(">HBBIHHI", 10 << 11 | 0x10, 1, 0, 9, 0x100, 0x101, 0)), "OK",
     {"uet.pds.nack_psn": "9", "uet.pds.nack.retx": "1"}),
    # The first packet, with HD: header data.
    (frame(req(0x05, struct.pack(">Q", 0x2A), 1000)), "OK",
     {"uet.ses.header_data": "0x000000000000002a", "uet.ses.payload_length": "",
      "uet.ses.message_offset": "", "uet.payload_len": "1000"}),
    # A later packet: payload length (the top 2 bits not its) and message offset.
    (frame(req(0x00, struct.pack(">HHI", 0, 0xC000 | 1000, 1000), 1000, psn=6)), "OK",
     {"uet.ses.header_data": "", "uet.ses.reserved": "0x0000", "uet.ses.payload_length": "1000",
      "uet.ses.message_offset": "1000", "uet.payload_len": "1000"}),
    # The last packet of a WRITE with immediate: HD and EOM, header data.
    (frame(req(0x06, struct.pack(">Q", 7), 1000, psn=7)), "OK",
     {"uet.ses.header_data": "0x0000000000000007", "uet.ses.message_offset": ""}),
    # Trimmed (DSCP 50) to 64 frame bytes: 6 bytes of its SES header left.
    (frame(req(0x00, struct.pack(">HHI", 0, 1000, 1000), 1000, psn=6)[:18], dscp=50), "OK",
     {"uet.trimmed": "1", "uet.pds.psn": "6", "uet.ses.opcode": "0x01", "uet.ses.message_id": "3",
      "uet.ses.buffer_offset": "", "uet.ses.payload_length": "", "uet.payload_len": "0"}),
    # Trimmed through its PDS header only.
    (frame(req(0x00, b"\0" * 8, 0)[:12], dscp=50), "OK",
     {"uet.trimmed": "1", "uet.pds.psn": "5", "uet.ses.opcode": "", "uet.payload_len": "0"}),
    # Trimmed inside its PDS header, and the same 6 SES bytes not trimmed.
    (frame(req(0x00, b"\0" * 8, 0)[:10], dscp=50), "E", {}),
    (frame(req(0x00, b"\0" * 8, 0)[:18]), "E", {}),
    # Receiver credit: a CREDIT (control type 7) of 0x123 units, a CREDIT_REQ
    # (8), a reserved control type (12), a RUD_CC_REQ with its CC state
    # (CCC_ID 1, target 0xABC) and the SES header after it, and one whose
    # UDP length ends inside its CC state.
    (frame(struct.pack(">HHIHHI", 11 << 11 | 7 << 7, 0, 0, 0x100, 0x101, 0x123)), "OK",
     {"uet.pds.ctl_type": "7", "uet.pds.credit": "291", "uet.pds.dpdcid": "0x0101"}),
    (frame(struct.pack(">HHIHHI", 11 << 11 | 8 << 7, 0, 0, 0x101, 0x100, 0xFFFFFF)), "OK",
     {"uet.pds.ctl_type": "8", "uet.pds.credit": "16777215"}),
    (frame(struct.pack(">HHIHHI", 11 << 11 | 12 << 7, 0, 0, 0x100, 0x101, 0)), "E", {}),
    (frame(struct.pack(">HhIHHI", 13 << 11 | 3 << 7, 0, 5, 0x100, 0x101, 0x01000ABC) +
           req(0x00, struct.pack(">HHI", 0, 1000, 1000), 1000, psn=5)[12:]), "OK",
     {"uet.pds.ccc_id": "0x01", "uet.pds.credit_target": "2748", "uet.pds.psn": "5",
      "uet.ses.payload_length": "1000", "uet.ses.message_offset": "1000", "uet.payload_len": "1000"}),
    (frame(struct.pack(">HhIHHI", 13 << 11 | 3 << 7, 0, 5, 0x100, 0x101, 0x01000ABC), udp_len=8 + 14),
     "E", {}),
    # A payload length field of 999 on 1000 bytes of payload.
    (frame(req(0x00, struct.pack(">HHI", 0, 999, 1000), 1000, psn=6)), "W",
     {"uet.ses.payload_length": "999"}),
]
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i, (f, _, _) in enumerate(cases):
        out.write(struct.pack("<IIII", i, 0, len(f), len(f)) + f)
json.dump([[r, w] for _, r, w in cases], open(sys.argv[2], "w"))
PY
decode "$tmp/bad.pcap" "$tmp/bad.tsv"
python3 - "$tmp/bad.tsv" "$tmp/bad.want" "$fields" <<'PY' || fail=1
import json, sys
names = sys.argv[3].split()
want = json.load(open(sys.argv[2]))
rows = [dict(zip(names, l.rstrip("\n").split("\t") + [""] * len(names))) for l in open(sys.argv[1])]
got, wrong = [], []
for i, r in enumerate(rows):
    sev = [int(x) for x in r["_ws.expert.severity"].split(",") if x != ""]
    g = ("" if ":uet" in r["frame.protocols"] else "X") + \
        ("E" if 8388608 in sev else "W" if 6291456 in sev else "OK")
    got.append(g)
    if i < len(want):
        for k, v in want[i][1].items():
            if r[k] != v:
                wrong.append("frame %d: %s %r, expected %r" % (i + 1, k, r[k], v))
exp = [r for r, _ in want]
if got == exp and not wrong:
    print("ok: hand-made frames: %s" % ",".join(got))
else:
    print("FAIL: hand-made frames: expert results %s, expected %s (X: not UET)%s" %
          (",".join(got), ",".join(exp), "".join("\nFAIL: " + w for w in wrong)))
    sys.exit(1)
PY
exit "$fail"
