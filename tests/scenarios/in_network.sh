#!/usr/bin/env bash
# In-network reduction (algorithm in-network: SHARP's trees in Ethernet and
# InfiniBand switches, NVLS in an NVLink switch). Independent expectations:
# - NVLS (experiments/nvls-allreduce.yaml, 8 H100s, NCCL model): busbw at
#   256 MiB and 1 GiB within 10% of the ~480 GB/s published for NVLS on 8
#   H100s at large sizes (nccl-tests issue 212), every size Simple;
# - NVLS without the model: 256 MiB within 1% above the wire's bound, each
#   GPU's NVLink carrying (n + 1)/n x S each way at 450 GB/s x 4096 /
#   4178 B (analytic);
# - SHARP (experiments/sharp-allreduce.yaml, 8 hosts on 2 leaves): S at
#   the NIC's payload ceiling (12.25 GB/s) within 1% above it, and the
#   ring on the same hosts 2(n-1)/n = 1.75 times as long within 3%
#   (analytic: a ring's rank sends 2(n-1)/n x S, in-network's S);
# - the tree's links (ports.csv): one uplink of each leaf, to the root,
#   carries S (its frames, within 2% above), the other nothing of it;
#   with two channels the two trees take a spine each (S/2 on every
#   uplink); the leaves' hosts each send S; a rank alone under its leaf
#   (h4 with h0-h2 on the other) the same S at the NIC's ceiling; and with
#   two parallel links from each leaf to each spine (4 channels: a result
#   may come down on the other link of the pair than its partial sum went
#   up);
# - the switches' counters (summary.json in_network.*): S/4096 slots, each
#   reduced at the root and at both leaves (3 per slot), 10 contributions
#   a slot (4 hosts at each leaf, 2 leaves at the root), no error; none in
#   any run here;
# - the same on InfiniBand (sw_ib.c's path), no drop, at least RoCE's
#   algbw (smaller headers) and at most the line rate;
# - CollNet's shape (2 nodes x 8 GPUs, all 16, without the model, 256
#   MiB): NVLink-bound, each GPU's NVLink carrying the two rings' 2 x 7/8
#   x S each way: within 1% above 1.75 S / (450 GB/s x 4096/4178), the
#   network stage (S/8 a NIC) hidden under it by the rounds' pipeline;
#   each NIC sends S/8 (its frames, and ACKs), and nothing of it crosses
#   a spine (both nodes' NICs of a rail share its leaf: the tree is
#   there);
# - a k=4 fat-tree (16 hosts, 3 tiers, 2 channels): a tree of three
#   levels per channel (8 edges, one aggregation switch of each pod, a
#   core): S at the NIC's ceiling within 1%, 13 slots and 28 contributions
#   per slot of S/4096 (16 hosts into 8 edges, 8 edges into 4, 4 into 1);
# - a lossy host link (h0's frames lost with probability 0.01): every
#   message completes, the frames out of turn after a loss go by
#   unreduced (in_network.errors > 0) and are retransmitted, and every
#   slot is still reduced (3 per slot);
# - data: true (nic.payload): every rank's buffer holds the exact sum at
#   the end, element by element (tg_data's check: the switches add the
#   float32 payloads, the leaves and the root, and make the ICRCs anew: no
#   NIC sees a bad one), on the 2-leaf tree (2 channels), the 3-level
#   fat-tree (1 KiB MTU) and CollNet's shape (2 x 8 GPUs: the rings in the
#   nodes and the rail trees);
# - NCCL_ALGO's names: nccl: {algorithm: nvls} runs the same instance as
#   algorithm: in-network with nccl: on (the same time to the picosecond);
# - refusals: tests/scenarios/bad_input.sh.
#   in_network.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

"$fabemu" check "$dir/nvls-allreduce.yaml" -o "$tmp/nvls" -q || bad "nvls-allreduce (its expect: list)"
# The same file with NCCL_ALGO's name instead of the algorithm key.
python3 - "$dir/nvls-allreduce.yaml" "$tmp/byname.yaml" <<'PY'
import os, sys
t = open(sys.argv[1]).read()
t = t.replace("algorithm: in-network, ", "").replace("nccl: on}", "nccl: {algorithm: nvls}}")
t = t.replace("file: ../topologies/", "file: %s/" % os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "..", "topologies"))
open(sys.argv[2], "w").write(t)
PY
"$fabemu" run "$tmp/byname.yaml" -o "$tmp/byname" -q --set 'traffic.0.sizes=[64MiB]' || bad "nccl.algorithm nvls"
"$fabemu" run "$dir/nvls-allreduce.yaml" -o "$tmp/nvls0" -q --set traffic.0.nccl=off \
	--set 'traffic.0.sizes=[256MiB]' || bad "nvls without the NCCL model"
"$fabemu" check "$dir/sharp-allreduce.yaml" -o "$tmp/sharp" -q || bad "sharp-allreduce (its expect: list)"
# The in-network workload alone, for its links.
python3 - "$dir/sharp-allreduce.yaml" "$tmp/alone.yaml" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
out, skip = [], 0
for l in lines:
    if "name: ring" in l:
        skip = 2
    if skip:
        skip -= 1
        continue
    if "collectives.ring" in l:
        continue
    out.append(l)
open(sys.argv[2], "w").write("\n".join(out).replace("topology: {kind", "topology: {kind", 1))
PY
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/alone" -q || bad "sharp alone"
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/two" -q --set traffic.0.channels=2 || bad "sharp, two channels"
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/ib" -q --set fabric.link_layer=infiniband || bad "sharp on InfiniBand"
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/lone" -q --set 'traffic.0.ranks=[h0, h1, h2, h4]' || bad "a rank alone under its leaf"
printf '%s\n' "name: ft" "topology: {kind: fat-tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}" \
	"fabric: {pfc: {priorities: [3]}}" "nic: {mtu: 4096}" \
	"traffic: [{kind: collective, name: ar, collective: all-reduce, ranks: all, algorithm: in-network, sizes: [16MiB], channels: 2, dscp: 24}]" >"$tmp/ft.yaml"
"$fabemu" run "$tmp/ft.yaml" -o "$tmp/ft" -q || bad "a three-tier fat-tree"
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/data" -q --set 'nic={mtu: 4096, payload: true, recovery: go-back-n}' \
	--set 'traffic.0.sizes=[1MiB]' --set traffic.0.channels=2 --set traffic.0.data=true || bad "data, leaf-spine"
"$fabemu" run "$tmp/ft.yaml" -o "$tmp/ftdata" -q --set 'nic={mtu: 1024, payload: true, recovery: go-back-n}' \
	--set 'traffic.0.sizes=[256KiB]' --set traffic.0.data=true || bad "data, fat-tree"
"$fabemu" run "$dir/nvls-allreduce.yaml" -o "$tmp/cndata" -q --set 'traffic.0.ranks=all' \
	--set traffic.0.nccl=off --set 'traffic.0.sizes=[4MiB]' --set 'fabric={pfc: {priorities: [3]}}' \
	--set traffic.0.dscp=24 --set 'expect=[]' --set traffic.0.data=true \
	--set 'nic={mtu: 4096, payload: true, recovery: go-back-n}' || bad "data, CollNet's shape"
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/loss" -q --set 'faults=[{kind: loss, name: l, at: 0ns, ports: ["h0:0"], loss: 0.01}]' \
	--set stop_time=50ms || bad "a lossy host link"
"$fabemu" run "$tmp/alone.yaml" -o "$tmp/par" -q --set topology.links_per_spine=2 --set traffic.0.channels=4 \
	--set stop_time=20ms || bad "parallel links to the spines"
"$fabemu" run "$dir/nvls-allreduce.yaml" -o "$tmp/collnet" -q --set 'traffic.0.ranks=all' \
	--set traffic.0.nccl=off --set 'traffic.0.sizes=[256MiB]' --set 'fabric={pfc: {priorities: [3]}}' \
	--set traffic.0.dscp=24 --set 'expect=[]' || bad "CollNet's shape"
python3 - "$tmp" <<'PY' || fail=1
import csv, json, sys
from scen import say, done
d = sys.argv[1]
def rows(run, f="collectives.csv"):
    return list(csv.DictReader(open("%s/%s/%s" % (d, run, f))))
nv = [r for r in rows("nvls") if r["status"] == "complete"]
say(len(nv) == 6 and all(r["protocol"] == "Simple" and r["algorithm"] == "in-network" for r in nv),
    "NVLS: 6 sizes from 1 MiB to 1 GiB, in-network, Simple")
for r in nv[-2:]:
    b = float(r["busbw_GBps"])
    say(abs(b - 480) <= 48, "NVLS %s B: busbw %.1f GB/s within 10%% of 480 (nccl-tests issue 212)" % (r["size_bytes"], b))
bn = rows("byname")[0]
ref = [r for r in nv if r["size_bytes"] == bn["size_bytes"]][0]
say(bn["algorithm"] == "in-network" and bn["time_us"] == ref["time_us"],
    "nccl: {algorithm: nvls}: %s, %s us, as algorithm: in-network (%s us)" % (bn["algorithm"], bn["time_us"], ref["time_us"]))
r0 = rows("nvls0")[0]
S, n = int(r0["size_bytes"]), int(r0["ranks"])
bound = S * (n + 1) / n / (450e9 * 4096 / 4178) * 1e6
t0 = float(r0["time_us"])
say(bound <= t0 <= 1.01 * bound, "NVLS without the model, 256 MiB: %.2f us, the wire's bound %.2f us (within 1%% above)" % (t0, bound))
sh = {r["workload"]: r for r in rows("sharp")}
S, n = int(sh["sharp"]["size_bytes"]), int(sh["sharp"]["ranks"])
ceil = 100e9 / 8 * 4096 / 4178
ts, tr = float(sh["sharp"]["time_us"]), float(sh["ring"]["time_us"])
bound = S / ceil * 1e6
say(bound <= ts <= 1.01 * bound, "SHARP 16 MiB: %.2f us, S at the NIC ceiling %.2f us (within 1%% above)" % (ts, bound))
bb = float(sh["sharp"]["busbw_GBps"])
say(abs(bb - S / ts / 1e3 * 2 * (n - 1) / n) <= 1e-3 * bb, "busbw = algbw x 2(n-1)/n")
say(abs(tr / ts / (2 * (n - 1) / n) - 1) <= 0.03, "the ring takes %.3f x as long: 2(n-1)/n = %.3f within 3%%" % (tr / ts, 2 * (n - 1) / n))
def ups(run):
    p = {(r["node"], r["peer"].split(":")[0]): int(r["tx_bytes"]) for r in rows(run, "ports.csv")}
    return {l: [p[(l, s)] for s in ("spine0", "spine1")] for l in ("leaf0", "leaf1")}, p
wire = S // 4096 * 4158  # frames (no preamble, gap): 4096 B of payload and 62 of headers
u, p = ups("alone")
say(all(sorted(v)[0] == 0 and wire <= sorted(v)[1] <= 1.02 * wire for v in u.values()),
    "one channel: one uplink of each leaf carries S with headers (%.0f B), the other none: %s" % (wire, u))
for run, n_ranks, name in (("data", 8, "sharp"), ("ftdata", 16, "ar"), ("cndata", 16, "nvls")):
    sj = json.load(open("%s/%s/summary.json" % (d, run)))
    cs = sj["collectives"][name]
    want = n_ranks * cs["size_bytes"] // 4
    say(cs["data_errors"] == 0 and cs["data_checked"] == want and sj["nic"]["icrc_errors"] == 0,
        "data (%s): %d of %d elements checked, %d wrong, %d ICRC errors"
        % (run, cs["data_checked"], want, cs["data_errors"], sj["nic"]["icrc_errors"]))
ls = json.load(open("%s/loss/summary.json" % d))
say(rows("loss")[0]["status"] == "complete" and ls["messages"]["incomplete"] == 0 and
    ls["in_network"]["errors"] > 0 and ls["nic"]["retransmitted"] > 0 and ls["in_network"]["slots"] == 3 * (S // 4096),
    "a lossy host link: complete, %d frames out of turn unreduced, %d retransmitted, %d slots reduced"
    % (ls["in_network"]["errors"], ls["nic"]["retransmitted"], ls["in_network"]["slots"]))
pr = rows("par")[0]
say(pr["status"] == "complete" and bound <= float(pr["time_us"]) <= 1.01 * bound,
    "parallel links to the spines, 4 channels: %s, %s us" % (pr["status"], pr["time_us"]))
tl = float(rows("lone")[0]["time_us"])
say(bound <= tl <= 1.01 * bound, "a rank alone under its leaf: %.2f us, S at the NIC ceiling %.2f us" % (tl, bound))
inn = json.load(open("%s/alone/summary.json" % d))["in_network"]
k = S // 4096
say(inn == {"contributions": 10 * k, "slots": 3 * k, "errors": 0},
    "counters: %s (3 x %d slots, 10 x %d contributions, no error)" % (inn, k, k))
ft = json.load(open("%s/ft/summary.json" % d))["in_network"]
tf = float(rows("ft")[0]["time_us"])
say(bound <= tf <= 1.01 * bound and ft == {"contributions": 28 * k, "slots": 13 * k, "errors": 0},
    "a 3-tier fat-tree: %.2f us (S at the NIC ceiling %.2f), counters %s (13 x %d slots, 28 x %d contributions)"
    % (tf, bound, ft, k, k))
errs = {run: json.load(open("%s/%s/summary.json" % (d, run)))["in_network"]["errors"]
        for run in ("nvls", "nvls0", "sharp", "two", "ib", "collnet", "lone", "par", "ft")}
say(not any(errs.values()), "no reduction error in any run: %s" % errs)
hosts = [v for (a, b), v in p.items() if a.startswith("h")]
say(len(hosts) == 8 and all(wire <= v <= 1.02 * wire for v in hosts), "each host sends S (with headers, and its ACKs)")
u2, _ = ups("two")
say(all(abs(x - wire / 2) <= 0.02 * wire / 2 for v in u2.values() for x in v),
    "two channels: the trees take a spine each, S/2 on every uplink: %s" % u2)
ib = rows("ib")[0]
s = json.load(open("%s/ib/summary.json" % d))
a_ib, a_roce = float(ib["algbw_GBps"]), float(rows("alone")[0]["algbw_GBps"])
say(ib["status"] == "complete" and s["drops"]["total"] == 0 and a_roce <= a_ib <= 12.5,
    "InfiniBand: complete, no drop, algbw %.3f GB/s between RoCE's %.3f and the line's 12.5" % (a_ib, a_roce))
cn = rows("collnet")[0]
S = int(cn["size_bytes"])
bound = 1.75 * S / (450e9 * 4096 / 4178) * 1e6
t = float(cn["time_us"])
say(cn["ranks"] == "16" and bound <= t <= 1.01 * bound,
    "CollNet's shape, 16 GPUs, 256 MiB: %.2f us, the NVLink rings' bound %.2f us (within 1%% above)" % (t, bound))
pc = rows("collnet", "ports.csv")
nics = [int(r["tx_bytes"]) for r in pc if "/nic" in r["node"]]
frames = S // 8 // 4096 * 4158
say(len(nics) == 16 and all(frames <= v <= 1.02 * frames for v in nics), "each NIC sends S/8 (%d B of frames)" % frames)
spine = [int(r["tx_bytes"]) for r in pc if r["node"].startswith("spine")]
say(sum(spine) == 0, "nothing crosses a spine (the rail's leaf is the tree)")
done()
PY
exit "$fail"
