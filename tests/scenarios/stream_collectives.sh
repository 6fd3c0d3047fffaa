#!/usr/bin/env bash
# Streamed collectives (traffic/tg_stream.c, tg_stream_alg.c): a
# collective whose flows.csv is not written makes its messages as they
# become ready, for each algorithm that streams (ring, hierarchical, tree,
# halving-doubling all-reduces, the direct all-to-all; with compute
# phases), and so do a training job's collectives (each rank's sends wait
# for its latest compute phase, join or step start: tg_stream_gated).
# Two independent expectations per algorithm:
# - the listed engine's results: the same experiment with flows.csv
#   written (its messages listed before the run) gives the same
#   summary.json, key for key, but the wall clock's (messages_in_flight_peak: 0
#   listed), and
#   the same ports.csv byte for byte (a training job: the same
#   training.csv too, whose critical path a streamed instance must walk as
#   its listed transfers would: through the rank gate its last arrival's
#   chain of waits goes back to, with compute jitter and stragglers);
# - memory follows what is in flight, not the job: with 1 iteration no
#   more messages are made at once than one instance has (the ring and
#   hierarchical ones no more than 2 per slice chain), with 4 (4x the
#   messages, counted by hand below) no more than twice that.
#   stream_collectives.sh FABEMU
set -eu
fabemu=$1
. "$(dirname "$0")/lib.sh"

# same LISTED STREAMED LABEL: the two runs' results agree.
same() {
	python3 - "$1/summary.json" "$2/summary.json" "$3" <<'PY' || fail=1
import sys
from scen import summary
a, b = (summary(f, ("wall_clock.", "provenance.", "name")) for f in sys.argv[1:3])
diff = [k for k in a if a[k] != b.get(k)]
print(("ok: %s: streamed summary.json equals the listed one (%d keys)" % (sys.argv[3], len(a))) if not diff else
      "FAIL: %s: streamed and listed differ at " % sys.argv[3] + ", ".join(diff[:5]))
sys.exit(1 if diff else 0)
PY
	for f in ports.csv training.csv; do
		[ -f "$1/$f" ] || continue
		if cmp -s "$1/$f" "$2/$f"; then
			echo "ok: $3: the same $f"
		else
			bad "$3: $f differs"
		fi
	done
}

# both FILE STREAMED LISTED LABEL: FILE run streamed and listed, into the
# two folders, whose results must agree.
both() {
	"$fabemu" run "$1" -o "$2" -q --set outputs.flows_csv=false
	"$fabemu" run "$1" -o "$3" -q --set outputs.flows_csv=true
	same "$3" "$2" "$4"
}

# run NAME TOPOLOGY WORKLOAD-KEYS [COLLECTIVE]: 1 and 4 iterations, streamed
# and listed (an all-reduce unless COLLECTIVE says).
run() {
	for it in 1 4; do
		printf '%s\n' "name: $1$it" "seed: 1" "topology: $2" "nic: {mtu: 4096}" \
			"traffic: [{kind: collective, name: ar, collective: ${4:-all-reduce}, $3, iterations: $it}]" \
			>"$tmp/$1$it.yaml"
		both "$tmp/$1$it.yaml" "$tmp/$1-str$it" "$tmp/$1-lst$it" "$1 x$it"
	done
}

# bounds NAME MESSAGES-AN-INSTANCE MOST-AT-ONCE
bounds() {
	local p1 p4 m4
	p1=$(key "$tmp/$1-str1/summary.json" wall_clock.messages_in_flight_peak)
	p4=$(key "$tmp/$1-str4/summary.json" wall_clock.messages_in_flight_peak)
	m4=$(key "$tmp/$1-str4/summary.json" messages.total)
	check "$1: 4 iterations: 4 x $2 messages (got $m4)" "$m4 == 4 * $2"
	check "$1: messages streamed at once with 1 iteration: 1 to $3 (got $p1)" "$p1 >= 1 && $p1 <= $3"
	# An instance's last messages may still wait for their send
	# completions (ACKs) when the next one starts: twice that at most.
	check "$1: with 4 iterations 1 to 2 x $3, not 4 x (got $p4)" "$p4 >= 1 && $p4 <= 2 * $3"
	check "$1: listed runs stream nothing (got $(key "$tmp/$1-lst1/summary.json" wall_clock.messages_in_flight_peak))" \
		"$(key "$tmp/$1-lst1/summary.json" wall_clock.messages_in_flight_peak) == 0"
}

# Ring over 8 hosts, 64 MiB: 2 x 7 steps x 8 chunks x 16 slices (8 MiB
# each) = 1,792 messages; at most 2 x 8 ranks x 16 slices = 256 at once.
run ring "{kind: leaf-spine, leaves: 1, spines: 1, hosts_per_leaf: 8, host_link: {rate: 400Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}" \
	"size: 64MiB"
bounds ring 1792 256

# 16 GPUs, 4 a node, 2 channels of 4 MiB (8 MiB in all).
gpus="{kind: rail-optimised, gpus_per_node: 4, nodes_per_unit: 2, nodes: 4, host_link: {rate: 400Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}, nvlink: {rate: 4Tbps, delay: 100ns}}"
# Hierarchical, per channel: in each of the 4 nodes a reduce-scatter and
# an all-gather ring (3 steps x 4 chunks of 1 MiB, 2 slices each: 2 x 4
# x 24 = 192), across the nodes 4 all-reduce rings (6 steps x 4 chunks
# of 256 KiB: 4 x 24 = 96): 288, 576 for both; at most 2 messages a
# chain: 2 x 16 ranks x 2 channels x (2 + 1 + 2 slices) = 320.
run hier "$gpus" "algorithm: hierarchical, size: 8MiB, channels: 2"
bounds hier 576 320
# Tree: each of the 15 ranks but the root sends each of 8 slices up once
# and gets it down once per channel: 2 x 15 x 8 x 2 = 480 (all at once at
# most: the leaves send every slice up at the start).
run tree "$gpus" "algorithm: tree, size: 8MiB, channels: 2"
bounds tree 480 480
# Halving-doubling over 16 ranks: S/2, S/4, S/8, S/16 halving and back
# (8 + 4 + 2 + 1 slices each way) per rank: 16 x 30 = 480.
run hd "$gpus" "algorithm: halving-doubling, size: 8MiB"
bounds hd 480 480
# Compute phases (20 us +- 50% per rank before each instance, one rank 3x
# slower): a ring of 2 channels, 16 chunks of 256 KiB (a slice each), 30
# steps: 960 messages, at most 2 x 16 x 2 = 64 at once (a rank's sends
# made before its compute ends wait, counted, for it).
run compute "$gpus" "size: 8MiB, channels: 2, compute: 20us, compute_jitter: 50%, stragglers: [{rank: node1/gpu1, factor: 3}]"
bounds compute 960 64
# All-to-all (direct): each of the 16 ranks sends 8 MiB / 16 = 512 KiB (a
# slice) to each of the 15 others, all at the start: 240.
run a2a "$gpus" "size: 8MiB" all-to-all
bounds a2a 240 240
# Under the NCCL model: NCCL's point-to-point chunks, a half of 128 KiB
# for a peer's 512 KiB over the network (4 nodes): 8 a pair; with PXN 9
# of a rank's 15 peers sit on another node and rail, each chunk to them
# an NVLink hop and a relay from the rail's GPU once it has arrived:
# (240 + 16 x 9) x 8 = 3,072, at most all at once.
run a2anccl "$gpus" "size: 8MiB, nccl: on" all-to-all
bounds a2anccl 3072 3072
# Training jobs: every collective streamed (tensor- and data-parallel
# rings, the expert all-to-all, FSDP's all-gather and reduce-scatter), the
# pipeline sends listed. Compute jitter and stragglers make each rank's
# gate end at its own time (3% jitter: with much more the rank released
# last heads the critical path, which would hide a walk that took the
# latest gate instead of the chain of waits; the moe job tells them
# apart), overlap starts a reduction inside a backward.
# Memory: the most messages made at once is a small part of all of them.
train() {
	printf '%s\n' "name: train-$1" "seed: 3" "topology: $gpus" "nic: {mtu: 4096}" \
		"traffic: [{kind: training, name: job, forward: 20us, backward: 40us, compute_jitter: 3%, $2}]" \
		>"$tmp/train-$1.yaml"
	both "$tmp/train-$1.yaml" "$tmp/train-$1-str" "$tmp/train-$1-lst" "training $1"
	local peak total
	peak=$(key "$tmp/train-$1-str/summary.json" wall_clock.messages_in_flight_peak)
	total=$(key "$tmp/train-$1-str/summary.json" messages.total)
	check "training $1: streamed, at most a third of its $total messages made at once (got $peak)" \
		"$peak >= 1 && 3 * $peak <= $total"
}
train pp "parallel: {tp: 2, pp: 2, dp: 4}, microbatches: 4, schedule: interleaved, chunks: 2, tp_bytes: 256KiB, pp_bytes: 256KiB, dp_bytes: 2MiB, overlap: true, steps: 2, stragglers: [{gpu: node1/gpu2, factor: 1.8}]"
train moe "parallel: {tp: 2, pp: 1, dp: 8, ep: 4}, microbatches: 2, tp_bytes: 128KiB, ep_bytes: 256KiB, dp_bytes: 1MiB, fsdp: true, steps: 2"
train pp-nccl "parallel: {tp: 2, pp: 2, dp: 4}, microbatches: 4, schedule: interleaved, chunks: 2, tp_bytes: 256KiB, pp_bytes: 256KiB, dp_bytes: 2MiB, overlap: true, steps: 2, stragglers: [{gpu: node1/gpu2, factor: 1.8}], nccl: on"
train moe-nccl "parallel: {tp: 2, pp: 1, dp: 8, ep: 4}, microbatches: 2, tp_bytes: 128KiB, ep_bytes: 256KiB, dp_bytes: 1MiB, fsdp: true, steps: 2, nccl: on"
exit $fail
