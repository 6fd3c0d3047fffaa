#!/usr/bin/env bash
# One experiment (path-spread.yaml: 8 hosts of leaf0 each write one 2 MiB
# message to a distinct host of leaf1 over 8 spines, PFC, selective repeat)
# under every path-choice policy. The 8 uplinks of leaf0 (100 Gb/s, as the
# hosts) are the only links two flows can share, so the step (the last
# completion) is set by the most loaded of them. Independent expectations,
# each with its reference:
# 1. All policies: nothing dropped, every message complete (PFC is
#    lossless: IEEE 802.1Qbb), and the step is the busy time of the most
#    loaded uplink, (tx_bytes + 20 B preamble and gap per frame) x 8 / rate
#    from ports.csv, plus the path latency L below, within 3% (a
#    work-conserving bottleneck link that never idles while backlogged).
# 2. ecmp (flow hashing, RFC 2992): every flow keeps one uplink, so each
#    uplink carries a whole number of messages (M = 512 frames, 2,128,912
#    bytes: docs/wire-formats.md's frame layout), and the step is k_max x M
#    x 8 / rate + L within 3%, k_max the most flows on one uplink
#    (computed from ports.csv; 4 with this seed, so the check has teeth).
# 3. flowlet (default gap 500 us, docs/config.md): a flow at line rate
#    never idles that long, so no flow changes uplink: whole messages per
#    uplink, as ecmp (the flowlet definition, Kandula et al. CCR 2007).
# 4. round-robin and adaptive: within 10% of the analytic optimum, one
#    message alone: its wire bytes at the host rate plus L (all 8 flows can
#    run at line rate at once: 800 Gb/s into 8 x 100 Gb/s).
# 5. spray: the uplinks' bytes balanced (the most loaded within 10% of
#    the mean; Dixit et al., INFOCOM 2013) and a step well below ecmp's;
#    above the optimum only by its retransmissions: selective repeat resends
#    a packet that a reordering gap NAKs (nic.recovery in docs/config.md),
#    so the uplinks carry exactly 8 x 512 + nic.retransmitted data frames.
# 6. spray with go-back-N pays for the reordering (the responder drops
#    what follows a gap and the sender resends all of it: InfiniBand RC):
#    more retransmissions and a longer step than with selective repeat.
# 7. Out-of-order placement: spray and adaptive again with a receiver
#    that tolerates reordering (nic.sr_reorder = 32: a hole is resent
#    only once a PSN 33 beyond it arrived, FACK; and no BDP cap, whose
#    count from the cumulative ACK stalls while holes wait to be filled):
#    within 10% of the optimum, and nothing resent at all (PFC loses
#    nothing, so every resend would be spurious).
# 8. Per tier: fabric.path.leaf=round-robin gives exactly the results of
#    policy round-robin (a spine has one port toward each leaf: nothing to
#    choose there) and fabric.path.spine=round-robin exactly ecmp's.
# L = the first frame's way to the uplink and the last's from it, store
# and forward, and the ACK back: 2 x 4 links x 1 us + 3 frame times.
#   path_policies.sh FABEMU EXPERIMENT
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"

# stats DIR: "step_us max_uplink_us max_uplink_bytes mean_uplink_bytes
# uplink_pkts whole_messages k_max retransmitted drops incomplete"
stats() {
	python3 - "$1" <<'EOF'
import csv, json, sys
d = sys.argv[1]
msg_bytes, msg_pkts, wire_extra = 2128912, 512, 20
flows = list(csv.DictReader(open(d + "/flows.csv")))
step = max(float(f["fct_ns"] or "inf") for f in flows) / 1e3
up = [p for p in csv.DictReader(open(d + "/ports.csv"))
      if p["node"] == "leaf0" and p["peer"].startswith("spine")]
assert len(up) == 8
busy = [(int(p["tx_bytes"]) + wire_extra * int(p["tx_pkts"])) * 8 / (float(p["rate_gbps"]) * 1e3)
        for p in up]
b = [int(p["tx_bytes"]) for p in up]
whole = all(x % msg_bytes == 0 for x in b)
s = json.load(open(d + "/summary.json"))
print("%.3f %.3f %d %.1f %d %d %d %d %d %d" % (
    step, max(busy), max(b), sum(b) / 8, sum(int(p["tx_pkts"]) for p in up), whole,
    max(b) // msg_bytes, s["nic"]["retransmitted"], s["drops"]["total"],
    s["messages"]["incomplete"]))
EOF
}

# Analytic: a message's wire time at 100 Gb/s (512 frames of 4158 B, the
# first 16 B more, each with 20 B of preamble and gap), a full frame's,
# the latency L and the optimum.
msg_us=$(awk 'BEGIN { printf "%.3f", (512 * (4158 + 20) + 16) * 8 / 1e5 }')
lat_us=$(awk 'BEGIN { printf "%.3f", 2 * 4 * 1 + 3 * 4198 * 8 / 1e5 }')
opt_us=$(awk -v m="$msg_us" -v l="$lat_us" 'BEGIN { printf "%.3f", m + l }')
echo "one message on the wire $msg_us us, latency $lat_us us, optimum $opt_us us"

for p in ecmp spray round-robin flowlet adaptive; do
	"$fabemu" run "$exp" -o "$tmp/$p" -q --set fabric.path.policy=$p
	read -r step busy bmax bmean pkts whole kmax rt drops inc <<<"$(stats "$tmp/$p")"
	echo "$p: step $step us, busiest uplink $busy us ($bmax B, mean $bmean B), retransmitted $rt"
	check "$p: no drops ($drops), all complete ($inc left)" "$drops == 0 && $inc == 0"
	check "$p: step $step us = busiest uplink + L = $busy + $lat_us us (3%)" \
		"$step >= 0.97 * ($busy + $lat_us) && $step <= 1.03 * ($busy + $lat_us)"
	case $p in
	ecmp | flowlet)
		check "$p: every flow on one uplink (whole messages per uplink)" "$whole == 1"
		check "$p: step $step us = $kmax x message + L (3%)" \
			"$step >= 0.97 * ($kmax * $msg_us + $lat_us) && $step <= 1.03 * ($kmax * $msg_us + $lat_us)"
		[ $p = ecmp ] && ecmp_step=$step && ecmp_k=$kmax
		;;
	round-robin | adaptive)
		check "$p: step $step us within 10% of the optimum $opt_us us" "$step <= 1.10 * $opt_us"
		;;
	spray)
		check "$p: uplinks balanced (max $bmax B within 10% of mean $bmean B)" "$bmax <= 1.10 * $bmean"
		check "$p: uplinks carry 8 x 512 + $rt retransmitted frames ($pkts)" "$pkts == 4096 + $rt"
		spray_step=$step spray_rt=$rt
		;;
	esac
done
check "ecmp collides (k_max $ecmp_k >= 2 flows on an uplink)" "$ecmp_k >= 2"
check "spray step $spray_step us well below ecmp's $ecmp_step us (< 60%)" \
	"$spray_step < 0.6 * $ecmp_step"

"$fabemu" run "$exp" -o "$tmp/gbn" -q --set fabric.path.policy=spray --set nic.recovery=go-back-n
read -r gstep _ _ _ _ _ _ grt gdrops ginc <<<"$(stats "$tmp/gbn")"
echo "spray, go-back-N: step $gstep us, retransmitted $grt"
check "spray, go-back-N: no drops ($gdrops), all complete ($ginc left)" "$gdrops == 0 && $ginc == 0"
check "spray, go-back-N retransmits more than selective repeat ($grt > $spray_rt)" "$grt > $spray_rt"
check "spray, go-back-N is slower ($gstep > $spray_step us)" "$gstep > $spray_step"

for p in spray adaptive; do
	"$fabemu" run "$exp" -o "$tmp/ooo-$p" -q --set fabric.path.policy=$p --set nic.sr_reorder=32 \
		--set nic.bdp_fc=false
	read -r ostep _ _ _ _ _ _ ort odrops oinc <<<"$(stats "$tmp/ooo-$p")"
	echo "$p, reordering tolerated: step $ostep us, retransmitted $ort"
	check "$p, reordering tolerated: step $ostep us within 10% of the optimum $opt_us us" \
		"$ostep <= 1.10 * $opt_us && $odrops == 0 && $oinc == 0"
	check "$p, reordering tolerated: nothing resent ($ort)" "$ort == 0"
done

"$fabemu" run "$exp" -o "$tmp/leaf" -q --set fabric.path.leaf=round-robin
"$fabemu" run "$exp" -o "$tmp/spine" -q --set fabric.path.spine=round-robin
for f in flows.csv ports.csv; do
	if cmp -s "$tmp/leaf/$f" "$tmp/round-robin/$f"; then echo "ok: leaf=round-robin: $f as policy round-robin"
	else bad "leaf=round-robin: $f differs from policy round-robin"; fi
	if cmp -s "$tmp/spine/$f" "$tmp/ecmp/$f"; then echo "ok: spine=round-robin: $f as ecmp"
	else bad "spine=round-robin: $f differs from ecmp"; fi
done
exit "$fail"
