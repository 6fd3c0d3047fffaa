#!/usr/bin/env bash
# Bad input, one case per class: the command exits 2 and prints one line
# FILE:LINE:COL: message (or names the bad option), and never crashes.
#   bad_input.sh FABEMU
set -u
fabemu=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

good_topo='topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}'
good_traffic='traffic: [{kind: permutation, size: 64KiB}]'

# expect NAME REGEX CMD... : exit status 2 and stderr matching REGEX, in
# at most $max_lines lines (3 unless set)
expect() {
	local name=$1 re=$2
	shift 2
	n=$((n + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne 2 ]; then
		echo "FAIL [$name]: exit $rc, want 2"; cat "$tmp/err"; fail=1; return
	fi
	if ! grep -Eq -- "$re" "$tmp/err"; then
		echo "FAIL [$name]: message does not match /$re/:"; cat "$tmp/err"; fail=1; return
	fi
	if [ "$(wc -l <"$tmp/err")" -gt "${max_lines:-3}" ]; then
		echo "FAIL [$name]: more than a short message:"; cat "$tmp/err"; fail=1
	fi
}

# exp NAME REGEX YAML... : write the YAML lines to NAME.yaml and run it
exp() {
	local name=$1 re=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/$name.yaml"
	expect "$name" "$re" "$fabemu" run "$tmp/$name.yaml" -o "$tmp/res-$name" -q
}

# Trace replay (traffic kind trace): each bad trace is an error at its own
# line and column, a bad capture at the experiment's file key.
trace() { # NAME FILE FORMAT TEXT REGEX: the trace FILE holds TEXT
	printf "$4" >"$tmp/$2"
	exp "$1" "$5" "$good_topo" "traffic: [{kind: trace, file: $2, format: $3}]"
}
trace trace-unknown-host t1.csv csv 'start,src,dst,bytes\n0us,h0,h9,10\n' \
	"t1.csv:2:8: unknown host 'h9' \(did you mean 'h0'\?\)"
trace trace-index t2.csv csv 'start,src,dst,bytes\n0us,h0,4,10\n' \
	"t2.csv:2:8: node index 4 is beyond hosts \(4 of them: 0..3\)"
trace trace-dep t3.csv csv 'start,src,dst,bytes,id,depends_on\n0us,h0,h1,10,1,2\n' \
	"t3.csv:2:16: depends on id 2, which no row above defines"
trace trace-number t4.csv csv 'start,src,dst,bytes\n0us,h0,h1,ten\n' \
	"t4.csv:2:11: bytes: expected an integer, got 'ten'"
trace trace-empty t5.csv csv '' "t5.csv:1:1: empty trace"
trace trace-hpcc-count f1.txt hpcc-flow '3\n0 1 3 100 10000 0.000001\n' \
	"f1.txt:1:1: line 1 says 3 flows, the file has 1"
trace trace-htsim-cycle c1.cm htsim-cm 'Nodes 4\nConnections 2\nTriggers 2\n0->1 id 1 trigger 2 size 10 send_done_trigger 1\n1->2 id 2 trigger 1 size 10 send_done_trigger 2\ntrigger id 1 oneshot\ntrigger id 2 oneshot\n' \
	"c1.cm:[0-9]+:1: a dependency cycle"

# NCCL logs (format: nccl-log): each error at the log's line.
nl_init='h:0:1 [0] NCCL INFO comm 0x1 rank 0 nranks 4 commId 0x77 - Init COMPLETE\nh:1:1 [0] NCCL INFO comm 0x2 rank 1 nranks 4 commId 0x77 - Init COMPLETE\nh:2:1 [0] NCCL INFO comm 0x3 rank 2 nranks 4 commId 0x77 - Init COMPLETE\nh:3:1 [0] NCCL INFO comm 0x4 rank 3 nranks 4 commId 0x77 - Init COMPLETE\n'
nl_ar='h:0:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1\nh:1:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x2 [nranks=4] stream 0x1\nh:2:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x3 [nranks=4] stream 0x1\nh:3:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x4 [nranks=4] stream 0x1\n'
printf 'start,src,dst,bytes\n0us,h0,h1,10\n' >"$tmp/nc.csv"
exp trace-nccl "trace-nccl.yaml:2:[0-9]+: 'nccl' \\(the NCCL model of its collectives\\) is for format: chakra or nccl-log, not csv" \
	"$good_topo" "traffic: [{kind: trace, file: nc.csv, nccl: on}]"
trace nl-empty n1.log nccl-log "$nl_init" "n1.log:1:1: no collective or send in this NCCL log"
trace nl-noinit n2.log nccl-log "$nl_ar" "n2.log:1:1: no communicator's Init COMPLETE line"
trace nl-reduce n3.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO Reduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1\n" \
	"n3.log:5:1: a Reduce: not modelled"
trace nl-dtype n4.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 12 op 0 root 0 comm 0x1 [nranks=4] stream 0x1\n" \
	"n4.log:5:1: datatype 12 is none of NCCL's \\(0..11\\)"
trace nl-comm n5.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x9 [nranks=4] stream 0x1\n" \
	"n5.log:5:1: comm 0x9 of h:0 has no Init COMPLETE line"
trace nl-hosts n6.log nccl-log "h:0:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2 commId 0x7 - Init COMPLETE\nh:1:1 [0] NCCL INFO comm 0x1 rank 1 nranks 2 commId 0x7 - Init COMPLETE\nh:0:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x1 [nranks=2] stream 0x1\n" \
	"n6.log:1:1: the log's largest communicator has 2 ranks, hosts 4"
trace nl-peer n7.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO Send: opCount 0 sendbuff 0x1 recvbuff (nil) count 64 datatype 7 op 0 root 9 comm 0x1 [nranks=4] stream 0x1\n" \
	"n7.log:5:1: a Send with rank 9 of a communicator of 4 ranks"
trace nl-unmatched n8.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO Send: opCount 0 sendbuff 0x1 recvbuff (nil) count 64 datatype 7 op 0 root 1 comm 0x1 [nranks=4] stream 0x1\n" \
	"n8.log:5:1: node id 1: a send to rank 1 \\(tag 119\\) that no receive there matches"
trace nl-dup n9.log nccl-log "${nl_init}h:9:1 [0] NCCL INFO comm 0x1 rank 0 nranks 4 commId 0x77 - Init COMPLETE\n${nl_ar}" \
	"n9.log:1:1: processes h:0 and h:9 both have rank 0 of the largest communicator"
trace nl-missing n10.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 64 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1\n" \
	"n10.log:5:1: h:0 logs 1 collectives on communicator 0000000000000077, h:1 0: the log misses lines of some rank"

trace nl-size n11.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 1073741824 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1\n" \
	"n11.log:5:1: count 1073741824: more than 2147483648 bytes"
trace nl-size-ag n12.log nccl-log "${nl_init}h:0:1 [0] NCCL INFO AllGather: opCount 0 sendbuff 0x1 recvbuff 0x1 count 268435456 datatype 7 op 0 root 0 comm 0x1 [nranks=4] stream 0x1\n" \
	"n12.log:5:1: count 268435456 x the communicator's ranks: more than 2147483648 bytes"

# Chakra traces (format: chakra), written by tools/chakra.py from JSON:
# each error at the rank's file and the node's place in it.
chakra_py="$(cd "$(dirname "$0")/../../tools" && pwd)/chakra.py"
chakra() { # NAME JSON REGEX [HOSTS] [FILE]: the ranks' files from JSON
	printf '%s' "$2" >"$tmp/$1.json"
	python3 "$chakra_py" encode "$tmp/$1.json" "$tmp/$1.{rank}.et"
	exp "$1" "$3" "$good_topo" \
		"traffic: [{kind: trace, format: chakra, file: '${5:-$1.{rank\}.et}', hosts: [${4:-h0, h1}]}]"
}
ck_send='{"id": 1, "type": "SEND", "comm_dst": 1, "comm_size": 100}'
ck_recv='{"id": 1, "type": "RECV", "comm_src": 0, "comm_size": 100}'
chakra ck-missing "{\"ranks\": [[$ck_send]]}" "ck-missing.1.et:0:1: cannot open this rank's trace" "h0, h1"
chakra ck-norank "{\"ranks\": [[$ck_send]]}" "ck-norank.yaml:[0-9]+:[0-9]+: a Chakra trace of 2 ranks \(hosts\) is one file a rank: name them with \{rank\}" \
	"h0, h1" ck-norank.0.et
chakra ck-unmatched "{\"ranks\": [[$ck_send], [{\"id\": 1, \"type\": \"COMP\", \"dur_us\": 1}]]}" \
	"ck-unmatched.0.et:1:1: node id 1: a send to rank 1 \(tag 0\) that no receive there matches"
chakra ck-size "{\"ranks\": [[$ck_send], [{\"id\": 1, \"type\": \"RECV\", \"comm_src\": 0, \"comm_size\": 99}]]}" \
	"ck-size.1.et:1:1: node id 1: receives 99 bytes where rank 0's send \(node id 1\) sends 100"
chakra ck-self "{\"ranks\": [[{\"id\": 1, \"type\": \"SEND\", \"comm_dst\": 0, \"comm_size\": 8}], [$ck_recv]]}" \
	"ck-self.0.et:1:1: node id 1: comm_dst missing, or not another rank \(0..1\)"
chakra ck-negative "{\"ranks\": [[{\"id\": 1, \"type\": \"SEND\", \"comm_dst\": -1, \"comm_size\": 8}], [$ck_recv]]}" \
	"ck-negative.0.et:1:1: node id 1: comm_dst missing, or not another rank \(0..1\)"
chakra ck-reduce '{"ranks": [[{"id": 1, "type": "COLL", "comm_type": 1, "comm_size": 8}], [{"id": 1, "type": "COLL", "comm_type": 1, "comm_size": 8}]]}' \
	"ck-reduce.0.et:1:1: node id 1: a collective of comm_type 1: modelled are all-reduce"
chakra ck-coll-size '{"ranks": [[{"id": 1, "type": "COLL", "comm_type": 0, "comm_size": 8}], [{"id": 1, "type": "COLL", "comm_type": 0, "comm_size": 16}]]}' \
	"ck-coll-size.1.et:1:1: node id 1: collective 0 of process group '' is comm_type 0 of 16 bytes here, comm_type 0 of 8 bytes at rank 0"
chakra ck-coll-missing '{"ranks": [[{"id": 1, "type": "COLL", "comm_type": 0, "comm_size": 8, "pg_name": "dp"}, {"id": 2, "type": "COLL", "comm_type": 0, "comm_size": 8, "pg_name": "dp"}], [{"id": 1, "type": "COLL", "comm_type": 0, "comm_size": 8, "pg_name": "dp"}]]}' \
	"ck-coll-missing.0.et:2:1: node id 2: collective 1 of process group 'dp' is at 1 of its 2 ranks"
chakra ck-dep '{"ranks": [[{"id": 1, "type": "COMP", "dur_us": 1, "deps": [5]}]]}' \
	"ck-dep.0.et:1:1: node id 1: depends on node id 5, which this file does not have" "h0"
chakra ck-dup '{"ranks": [[{"id": 1, "type": "COMP", "dur_us": 1}, {"id": 1, "type": "COMP", "dur_us": 2}]]}' \
	"ck-dup.0.et:2:1: node id 1: a second node with this id" "h0"
chakra ck-cycle '{"ranks": [[{"id": 1, "type": "COMP", "dur_us": 1, "deps": [2]}, {"id": 2, "type": "COMP", "dur_us": 1, "deps": [1]}]]}' \
	"ck-cycle.\{rank\}.et:[12]:1: a dependency cycle" "h0"
printf '\x05\x0a\x03' >"$tmp/ck-short.0.et"
exp ck-short "ck-short.0.et:1:1: a message's length runs past the end of the file \(not a Chakra trace\?\)" \
	"$good_topo" "traffic: [{kind: trace, format: chakra, file: 'ck-short.{rank}.et', hosts: [h0]}]"
printf '\x1f\x8b\x08\x00' >"$tmp/ck-gzip.0.et"
exp ck-gzip "ck-gzip.0.et:0:1: a gzip-compressed trace: gunzip it first" \
	"$good_topo" "traffic: [{kind: trace, format: chakra, file: 'ck-gzip.{rank}.et', hosts: [h0]}]"
trace trace-htsim-multishot c2.cm htsim-cm 'Nodes 4\nConnections 2\nTriggers 1\n0->1 id 1 start 0 size 10 send_done_trigger 1\n1->2 id 2 trigger 1 size 10\ntrigger id 1 multishot\n' \
	"c2.cm:6:1: multishot trigger 1"
trace trace-not-roce p1.pcap pcap 'not a capture\n' \
	"trace-not-roce.yaml:2:31: trace '.*p1.pcap': not a capture libpcap can read"
exp trace-missing "trace-missing.yaml:2:31: cannot open trace '.*nope.csv'" \
	"$good_topo" "traffic: [{kind: trace, file: nope.csv}]"
exp trace-key "trace-key.yaml:2:57: 'map' \(address -> host\) is for format: pcap, not csv" \
	"$good_topo" "traffic: [{kind: trace, file: t1.csv, format: csv, map: {10.0.0.1: h0}}]"
# Issue 23: a trace or CDF file over its bound is refused from its size
# before a byte is read: sparse files one byte over, under timeout 10 (the
# old reader read 1 GiB first and said something else).
truncate -s 1073741825 "$tmp/big.csv"
truncate -s 68719476737 "$tmp/big.pcap"
truncate -s 16777217 "$tmp/big-cdf.txt"
printf '%s\n' "$good_topo" "traffic: [{kind: trace, file: big.csv}]" >"$tmp/trace-big.yaml"
expect trace-big "trace-big.yaml:2:[0-9]+: trace '.*big.csv' is 1073741825 bytes, more than the 1 GiB a text trace may be" \
	timeout 10 "$fabemu" run "$tmp/trace-big.yaml" -q -o "$tmp/res-big"
printf '%s\n' "$good_topo" "traffic: [{kind: trace, file: big.pcap, format: pcap}]" >"$tmp/trace-big-pcap.yaml"
expect trace-big-pcap "trace-big-pcap.yaml:2:[0-9]+: trace '.*big.pcap' is 68719476737 bytes, more than the 64 GiB a pcap trace may be" \
	timeout 10 "$fabemu" run "$tmp/trace-big-pcap.yaml" -q -o "$tmp/res-big"
printf '%s\n' "$good_topo" "traffic: [{kind: poisson, load: 30%, cdf: big-cdf.txt, flows: 10}]" >"$tmp/cdf-big.yaml"
expect cdf-big "cdf-big.yaml:2:[0-9]+: CDF file '.*big-cdf.txt' is 16777217 bytes, more than the 16 MiB a CDF file may be" \
	timeout 10 "$fabemu" run "$tmp/cdf-big.yaml" -q -o "$tmp/res-big"
rm -f "$tmp/big.csv" "$tmp/big.pcap" "$tmp/big-cdf.txt"
# A file that is no trace (a password file) is refused at FILE:LINE:COL by
# each text reader and the CDF reader, saying what was expected, with not
# a byte of the file in the message: its marker must not be on stderr.
printf 'root:x:0:0:Mark7q-secret:/root:/bin/bash\nMark7q_two\n' >"$tmp/passwd.txt"
foreign() { # NAME REGEX TRAFFIC
	exp "$1" "$2" "$good_topo" "traffic: [$3]"
	! grep -Eq 'Mark7q|root:' "$tmp/err" || { echo "FAIL [$1]: echoed the file:"; cat "$tmp/err"; fail=1; }
}
foreign trace-foreign-csv "passwd.txt:1:1: an unknown column \(field 1 of the header; the header is start,src,dst,bytes" \
	"{kind: trace, file: passwd.txt}"
foreign trace-foreign-hpcc "passwd.txt:1:1: the first line of an HPCC flow file is the number of flows" \
	"{kind: trace, file: passwd.txt, format: hpcc-flow}"
foreign trace-foreign-htsim "passwd.txt:1:1: no 'Nodes N' line before the first connection" \
	"{kind: trace, file: passwd.txt, format: htsim-cm}"
foreign cdf-foreign "passwd.txt:1:1: expected a size in bytes" \
	"{kind: poisson, load: 30%, cdf: passwd.txt, flows: 10}"
printf 'start,src,dst,bytes\n0us,h0,Mark7q:x:0,10\n' >"$tmp/fields.csv"
foreign trace-foreign-host "fields.csv:2:8: expected a host: a name \(such as h3, h0:1, node1/gpu2\) or an index into hosts" \
	"{kind: trace, file: fields.csv}"

exp unknown-key "unknown-key.yaml:2:1: unknown key 'trafic' \(did you mean 'traffic'\?\)" \
	"$good_topo" "trafic: []"
exp wrong-type "wrong-type.yaml:3:9: .*expected a map" \
	"$good_topo" "$good_traffic" "fabric: 12"
exp zero-rate "zero-rate.yaml:1:[0-9]+: .*rate" \
	"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2, host_link: {rate: 0Gbps}}" \
	"$good_traffic"
exp negative-delay "negative-delay.yaml:1:[0-9]+: .*negative" \
	"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2, fabric_link: {delay: -1us}}" \
	"$good_traffic"
exp bad-unit "bad-unit.yaml:1:[0-9]+: .*(unknown unit|did you mean).*" \
	"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2, host_link: {rate: 100Gbs}}" \
	"$good_traffic"
exp mtu "mtu.yaml:3:12: payload bytes per packet must be 256..4096 \(a path MTU: 256, 512, 1024, 2048, 4096; on RoCE any size between\), got 9000" \
	"$good_topo" "$good_traffic" "nic: {mtu: 9000}"
exp mtu-small "mtu-small.yaml:3:12: payload bytes per packet must be 256..4096" \
	"$good_topo" "$good_traffic" "nic: {mtu: 128}"
exp mtu-ib-1000 "mtu-ib-1000.yaml:3:12: InfiniBand sends a path MTU's payload per packet \(256, 512, 1024, 2048, 4096\), not 1000 bytes" \
	"$good_topo" "$good_traffic" "nic: {mtu: 1000}" "fabric: {link_layer: infiniband}"
exp rto-max-off "rto-max-off.yaml:3:[0-9]+: rto_max caps the timeout's back-off: it has no meaning with rto: off" \
	"$good_topo" "$good_traffic" "nic: {rto: off, rto_max: 1ms}"
exp dctcp-mode "dctcp-mode.yaml:3:[0-9]+: unknown value .rates. \(did you mean .rate.\?" \
	"$good_topo" "$good_traffic" "nic: {cc: dctcp, dctcp: {mode: rates}}"
exp dcqcn-hyper "dcqcn-hyper.yaml:3:[0-9]+: unknown value .grow. " \
	"$good_topo" "$good_traffic" "nic: {cc: dcqcn, dcqcn: {hyper: grow}}"
exp unknown-host "unknown-host.yaml:2:[0-9]+: unknown host 'h9'" \
	"$good_topo" "traffic: [{kind: messages, messages: [{src: h0, dst: h9, size: 1KiB}]}]"
exp switch-as-host "switch-as-host.yaml:2:[0-9]+: 'leaf0' is a switch" \
	"$good_topo" "traffic: [{kind: messages, messages: [{src: h0, dst: leaf0, size: 1KiB}]}]"
exp same-host "same-host.yaml:2:[0-9]+: .*two different endpoints" \
	"$good_topo" "traffic: [{kind: messages, messages: [{src: h1, dst: h1, size: 1KiB}]}]"
# Endpoints: a host with two linked ports is named with its port.
exp two-port-host "two-port-host.yaml:[0-9]+:[0-9]+: host 'h0' has 2 linked ports: name one \(h0:0 .. h0:1\)" \
	"topology: {kind: explicit, nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: s0, kind: switch}]," \
	"  links: [{endpoints: [h0:0, s0:0]}, {endpoints: [h0:1, s0:1]}, {endpoints: [h1:0, s0:2]}]}" \
	"traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 1KiB}]}]"
exp bad-endpoint-port "bad-endpoint-port.yaml:2:[0-9]+: h1 has no linked port 3" \
	"$good_topo" "traffic: [{kind: messages, messages: [{src: h0, dst: \"h1:3\", size: 1KiB}]}]"
# A topology file: missing, nested, not a map.
exp topo-file-missing "topo-file-missing.yaml:1:[0-9]+: topology.file: .*nope.yaml: cannot open" \
	"topology: {file: nope.yaml}" "$good_traffic"
printf 'topology: {file: x.yaml}\n' >"$tmp/nested-topo.yaml"
exp topo-file-nested "nested-topo.yaml:1:[0-9]+: a topology file cannot name another" \
	"topology: {file: nested-topo.yaml}" "$good_traffic"
printf -- '- 1\n' >"$tmp/list-topo.yaml"
exp topo-file-list "list-topo.yaml:1:1: a topology file holds a map" \
	"topology: {file: list-topo.yaml}" "$good_traffic"
printf 'topology: {kind: fat-tree, k: 4}\n' >"$tmp/ft.yaml"
exp topo-file-override "topo-file-override.yaml:1:[0-9]+: .*k must be even" \
	"topology: {file: ft.yaml, k: 5}" "$good_traffic"
exp disconnected "disconnected.yaml:[0-9]+:[0-9]+: topology is disconnected" \
	"topology:" "  kind: explicit" \
	"  nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: s0, kind: switch}, {name: s1, kind: switch}]" \
	"  links: [{endpoints: ['h0:0', 's0:0']}, {endpoints: ['h1:0', 's1:0']}]" \
	"$good_traffic"
exp unknown-node "unknown-node.yaml:[0-9]+:[0-9]+: .*unknown node 's2'.*did you mean" \
	"topology:" "  kind: explicit" \
	"  nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: s0, kind: switch}, {name: s1, kind: switch}]" \
	"  links: [{endpoints: ['h0:0', 's0:0']}, {endpoints: ['h1:0', 's2:0']}]" \
	"$good_traffic"
exp odd-k "odd-k.yaml:1:[0-9]+: .*k must be even" \
	"topology: {kind: fat-tree, k: 5}" "$good_traffic"
exp yaml-syntax "yaml-syntax.yaml:3:1: did not find expected .*line 2" \
	"$good_topo" "traffic: [{kind: permutation, size: 64KiB}" "name: x"
exp duplicate-key "duplicate-key.yaml:3:1: .*duplicate" \
	"$good_topo" "$good_traffic" "topology: {kind: fat-tree, k: 4}"
exp missing-traffic "missing-traffic.yaml:1:1: missing key 'traffic'" \
	"$good_topo"
exp bad-op "bad-op.yaml:2:48: unknown value .read_write. \(valid: write, send, read, write-imm\)" \
	"$good_topo" "traffic: [{kind: permutation, size: 64KiB, op: read_write}]" ""
exp capture-port "capture-port.yaml:3:[0-9]+: h0 has no connected port 3" \
	"$good_topo" "$good_traffic" "capture: {ports: ['h0:3']}"
exp capture-format "capture-format.yaml:3:[0-9]+: unknown value .pcap-ng. \(did you mean .pcapng.\?; valid: pcap, pcapng\)" \
	"$good_topo" "$good_traffic" "capture: {ports: ['h0:0'], format: pcap-ng}"
exp capture-ib-linktype "capture-ib-linktype.yaml:3:[0-9]+: unknown value .user1. \(did you mean .user0.\?; valid: infiniband, user0\)" \
	"$good_topo" "$good_traffic" "capture: {ports: ['h0:0'], ib_linktype: user1}"
exp pfc-log "pfc-log.yaml:3:[0-9]+: expected true or false, got .sometimes." \
	"$good_topo" "$good_traffic" "outputs: {pfc_log: sometimes}"
exp expect-op "expect-op.yaml:3:[0-9]+: .*unknown" \
	"$good_topo" "$good_traffic" "expect: [{metric: drops.total, op: '=>', value: 0}]"
exp bad-bool "bad-bool.yaml:3:[0-9]+: .*true or false" \
	"$good_topo" "$good_traffic" "nic: {payload: yes}"
# A name is a name (it names the results folder), not a path.
exp name-path "name-path.yaml:3:7: experiment name '../x' must be 1..64 letters" \
	"$good_topo" "$good_traffic" "name: ../x"
exp name-dot "name-dot.yaml:3:7: experiment name '.hidden'" \
	"$good_topo" "$good_traffic" "name: .hidden"
# A workload's name is a JSON key path and a CSV field: no dots or commas,
# and one per workload.
exp workload-name "workload-name.yaml:2:[0-9]+: workload name 'a.b' must be 1..31 letters" \
	"$good_topo" "traffic: [{kind: permutation, name: a.b, size: 1KiB}]"
exp workload-name-twice "workload-name-twice.yaml:2:[0-9]+: workload name 'x' is used twice" \
	"$good_topo" "traffic: [{kind: permutation, name: x, size: 1KiB}, {kind: incast, name: x, dst: h0, count: 1, size: 1KiB}]"
exp nic-cc "nic-cc.yaml:3:11: unknown value 'nonee' \(did you mean 'none'\?" \
	"$good_topo" "$good_traffic" "nic: {cc: nonee}"
exp path-policy "path-policy.yaml:3:25: unknown value 'frist' \(did you mean 'first'\?" \
	"$good_topo" "$good_traffic" "fabric: {path: {policy: frist}}"
exp path-tier "path-tier.yaml:3:24: unknown value 'sprey' \(did you mean 'spray'\?" \
	"$good_topo" "$good_traffic" "fabric: {path: {spine: sprey}}"
exp flowlet-gap-zero "flowlet-gap-zero.yaml:3:30: flowlet_gap must be above 0" \
	"$good_topo" "$good_traffic" "fabric: {path: {flowlet_gap: 0us}}"
exp flowlet-gap-unit "flowlet-gap-unit.yaml:3:30: .*unknown unit \(did you mean 'us'\?\)" \
	"$good_topo" "$good_traffic" "fabric: {path: {flowlet_gap: 10uss}}"
exp weights "weights.yaml:3:[0-9]+: scheduler.weights needs 8 entries" \
	"$good_topo" "$good_traffic" "fabric: {scheduler: {weights: [1, 2]}}"

# PFC and ECN settings.
exp xon-above-xoff "xon-above-xoff.yaml:3:[0-9]+: xon \\(204800 bytes\\) is above xoff" \
	"$good_topo" "$good_traffic" "fabric: {pfc: {xoff: 100KiB, xon: 200KiB}}"
exp xoff-above-buffer "xoff-above-buffer.yaml:3:[0-9]+: xoff threshold .* is above the buffer size" \
	"$good_topo" "$good_traffic" "fabric: {buffer: 1MiB, pfc: {xoff: 2MiB}}"
exp headroom-lossy "headroom-lossy.yaml:3:[0-9]+: headroom configured for priority 0, which is lossy" \
	"$good_topo" "$good_traffic" "fabric: {pfc: {priorities: [3], headroom: {0: 64KiB}}}"
exp kmin-above-kmax "kmin-above-kmax.yaml:3:[0-9]+: kmin .* is above kmax" \
	"$good_topo" "$good_traffic" "fabric: {ecn: {kmin: 500KB, kmax: 100KB}}"
exp ib-cc-threshold "ib-cc-threshold.yaml:3:29: .*15" \
	"$good_topo" "$good_traffic" "fabric: {ib_cc: {threshold: 16}}"
exp ib-cc-victim "ib-cc-victim.yaml:3:31: ib_cc.victim_mask: expected a list of ports" \
	"$good_topo" "$good_traffic" "fabric: {ib_cc: {victim_mask: some}}"
# InfiniBand link layer (fabric.link_layer, fabric.ib)
exp ib-link-layer "ib-link-layer.yaml:3:22: .*(roce|infiniband)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: ethernet}"
exp ib-routing "ib-routing.yaml:3:48: .*(minhop|ftree)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {routing: updown}}"
exp ib-sl2vl-len "ib-sl2vl-len.yaml:3:46: sl2vl needs 16 entries" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {sl2vl: [0, 1]}}"
exp ib-sl2vl-vl "ib-sl2vl-vl.yaml:3:50: 9 is above the maximum 7" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {sl2vl: [0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}}"
exp ib-vl-buffer "ib-vl-buffer.yaml:3:50: vl_buffer must be a whole number of 64-byte credits" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {vl_buffer: 1000B}}"
exp ib-vl-buffer-big "ib-vl-buffer-big.yaml:3:50: size 1048576 bytes is above the maximum" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {vl_buffer: 1MiB}}"
exp ib-credit-update "ib-credit-update.yaml:3:71: credit_update .* exceeds vl_buffer" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {vl_buffer: 4KiB, credit_update: 8KiB}}"
exp ib-int "ib-int.yaml:3:39: fabric.int .* not modelled with link_layer: infiniband" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, int: true}"
exp ib-port-sl2vl-host "ib-port-sl2vl-host.yaml:3:[0-9]+: port_sl2vl names switch ports; h0 is not a switch" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {port_sl2vl: [{ports: ['h0:0'], sl2vl: [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]}]}}"
exp ib-port-sl2vl-keys "ib-port-sl2vl-keys.yaml:3:[0-9]+: a port_sl2vl entry needs 'ports' and 'sl2vl'" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband, ib: {port_sl2vl: [{ports: ['leaf0:0']}]}}"
exp ib-pfc-storm "ib-pfc-storm.yaml:4:[0-9]+: a pfc-storm fault sends PFC pauses" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband}" \
	"faults: [{kind: pfc-storm, at: 1us, ports: ['leaf0:0'], priority: 3}]"
exp ib-hpcc "ib-hpcc.yaml:[0-9]+:[0-9]+: congestion control 'hpcc' reads in-band telemetry, which is not modelled" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: infiniband}" "nic: {cc: hpcc}"
exp ibcc-cct-entry "ibcc-cct-entry.yaml:3:35: CCT entry '4:1': shift is 0..3" \
	"$good_topo" "$good_traffic" "nic: {cc: ibcc, ibcc: {table: [0, '4:1']}}"
exp ibcc-limit "ibcc-limit.yaml:3:51: ccti_limit 3 is past the table's last entry \\(1\\)" \
	"$good_topo" "$good_traffic" "nic: {cc: ibcc, ibcc: {table: [0, 1], ccti_limit: 3}}"
exp buffer-too-small "buffer-too-small.yaml:3:[0-9]+: leaf0: switch buffer .* cannot hold the reserves and PFC headroom" \
	"$good_topo" "$good_traffic" "fabric: {buffer: 100KiB, pfc: {priorities: [3]}}"
# Room for reserves and headroom, but a shared pool so small that a paused
# priority could never resume (alpha x pool below xon_offset + a frame).
exp pool-too-small-for-xon "pool-too-small-for-xon.yaml:3:[0-9]+: leaf0: switch buffer .* shared pool of .* for a paused priority to resume" \
	"$good_topo" "$good_traffic" "fabric: {buffer: 200KiB, pfc: {priorities: [3]}}"

# A switch buffer that cannot hold one full-size frame: every such frame
# would drop, no message above the MTU could complete (issue 23).
exp buffer-frame "buffer-frame.yaml:3:[0-9]+: leaf0: switch buffer 1024 bytes cannot hold one frame of [0-9]+ bytes" \
	"$good_topo" "$good_traffic" "fabric: {buffer: 1KiB}"
# Transport settings.
exp rto-zero "rto-zero.yaml:3:[0-9]+: the retransmission timeout must be above 0" \
	"$good_topo" "$good_traffic" "nic: {rto: 0us}"
exp rto-max "rto-max.yaml:3:[0-9]+: rto_max is below rto" \
	"$good_topo" "$good_traffic" "nic: {rto: 100us, rto_max: 10us}"
exp sr-window "sr-window.yaml:3:[0-9]+: sr_window must be a power of two" \
	"$good_topo" "$good_traffic" "nic: {sr_window: 1000}"
exp retry-cnt "retry-cnt.yaml:3:[0-9]+: .*7" \
	"$good_topo" "$good_traffic" "nic: {retry_cnt: 8}"
exp recovery "recovery.yaml:3:[0-9]+: unknown value 'gbn' .*go-back-n" \
	"$good_topo" "$good_traffic" "nic: {recovery: gbn}"
# Data-carrying collectives: what data: true needs.
exp data-payload "data-payload.yaml:2:[0-9]+: data: true needs nic.payload: true" \
	"$good_topo" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, data: true}]"
exp data-sr "data-sr.yaml:2:[0-9]+: data: true needs nic.recovery: go-back-n" \
	"$good_topo" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, data: true}]" \
	"nic: {payload: true, recovery: selective-repeat}"
exp data-elements "data-elements.yaml:2:[0-9]+: data: true needs sizes in whole float32 elements: 1001 bytes" \
	"$good_topo" "traffic: [{kind: collective, collective: all-reduce, size: 1001B, data: true}]" \
	"nic: {payload: true}"
exp data-hd "data-hd.yaml:2:[0-9]+: .*halving-doubling.*: 1000 bytes is not a multiple of 16" \
	"$good_topo" "traffic: [{kind: collective, collective: all-reduce, algorithm: halving-doubling, size: 1000B, data: true}]" \
	"nic: {payload: true}"
exp data-load "data-load.yaml:2:[0-9]+: data: true checks an even all-to-all only" \
	"$good_topo" "traffic: [{kind: collective, collective: all-to-all, size: 1MiB, load: {zipf: 1}, data: true}]" \
	"nic: {payload: true}"
exp data-memory "data-memory.yaml:2:[0-9]+: data: true would take 7.00 GiB of memory \(4 ranks x 1792.00 MiB" \
	"$good_topo" "traffic: [{kind: collective, collective: all-reduce, size: 1GiB, slice: 64MiB, data: true}]" \
	"nic: {payload: true}"

# Faults: what each kind needs, what it may not have, what it names.
ft="$good_topo"
exp fault-list "fault-list.yaml:3:9: faults \(a list" "$ft" "$good_traffic" "faults: {kind: link-down}"
exp fault-kind "fault-kind.yaml:3:17: .*'link-dwn'" "$ft" "$good_traffic" \
	"faults: [{kind: link-dwn, at: 1ms, ports: [leaf0:2]}]"
exp fault-at "fault-at.yaml:3:10: missing key 'at'" "$ft" "$good_traffic" \
	"faults: [{kind: link-down, ports: [leaf0:2]}]"
exp fault-needs "fault-needs.yaml:3:10: a flap fault needs 'period'" "$ft" "$good_traffic" \
	"faults: [{kind: flap, at: 1ms, ports: [leaf0:2], count: 3}]"
exp fault-extra "fault-extra.yaml:3:[0-9]+: a link-down fault takes no 'ber'" "$ft" "$good_traffic" \
	"faults: [{kind: link-down, at: 1ms, ports: [leaf0:2], ber: 1e-6}]"
exp fault-port "fault-port.yaml:3:[0-9]+: leaf0 has no connected port 9" "$ft" "$good_traffic" \
	"faults: [{kind: link-down, at: 1ms, ports: ['leaf0:9']}]"
exp fault-node-kind "fault-node-kind.yaml:3:[0-9]+: h0 is a host: switch-down takes a switch" "$ft" "$good_traffic" \
	"faults: [{kind: switch-down, at: 1ms, node: h0}]"
# Both ways of naming ports in one entry (the second once wrote past the
# first's array: heap corruption; issue 23), in either order.
exp fault-node-and-ports "fault-node-and-ports.yaml:3:[0-9]+: a fault names its ports with 'ports' or with 'node', not both" \
	"$ft" "$good_traffic" "faults: [{kind: switch-down, at: 1ms, node: spine0, ports: [leaf0:2]}]"
exp fault-ports-and-node "fault-ports-and-node.yaml:3:[0-9]+: a fault names its ports with 'ports' or with 'node', not both" \
	"$ft" "$good_traffic" "faults: [{kind: link-down, at: 1ms, ports: [leaf0:2], node: leaf0}]"
exp fault-node "fault-node.yaml:3:[0-9]+: unknown node 'spine7'" "$ft" "$good_traffic" \
	"faults: [{kind: switch-down, at: 1ms, node: spine7}]"
exp fault-ber "fault-ber.yaml:3:58: 0.5 is above the maximum 0.001" "$ft" "$good_traffic" \
	"faults: [{kind: corrupt, at: 1ms, ports: [leaf0:2], ber: 0.5}]"
exp fault-loss-both "fault-loss-both.yaml:3:[0-9]+: a loss fault takes 'loss' or 'gilbert', not both" "$ft" "$good_traffic" \
	"faults: [{kind: loss, at: 1ms, ports: [leaf0:2], loss: 0.1, gilbert: {p_gb: 0.1, p_bg: 0.5}}]"
exp fault-loss-none "fault-loss-none.yaml:3:[0-9]+: a loss fault needs 'loss'" "$ft" "$good_traffic" \
	"faults: [{kind: loss, at: 1ms, ports: [leaf0:2]}]"
exp fault-gilbert "fault-gilbert.yaml:3:[0-9]+: gilbert: p_bg must be above 0" "$ft" "$good_traffic" \
	"faults: [{kind: loss, at: 1ms, ports: [leaf0:2], gilbert: {p_gb: 0.1, p_bg: 0}}]"
exp fault-tc "fault-tc.yaml:3:65: 9 is above the maximum 7" "$ft" "$good_traffic" \
	"faults: [{kind: loss, at: 1ms, ports: [leaf0:2], loss: 0.1, tc: 9}]"
exp fault-duration "fault-duration.yaml:3:[0-9]+: duration must be above 0" "$ft" "$good_traffic" \
	"faults: [{kind: link-down, at: 1ms, duration: 0ns, ports: [leaf0:2]}]"
exp fault-name "fault-name.yaml:3:[0-9]+: two faults are named 'x'" "$ft" "$good_traffic" \
	"faults: [{kind: link-down, name: x, at: 1ms, ports: [leaf0:2]}, {kind: link-up, name: x, at: 2ms, ports: [leaf0:2]}]"
exp fault-horizon "fault-horizon.yaml:3:[0-9]+: this fault ends past the simulator's horizon" "$ft" "$good_traffic" \
	"faults: [{kind: flap, at: 1ms, period: 1000000s, count: 1000000, ports: [leaf0:2]}]"
exp fail-until "fail-until.yaml:3:11: failures needs 'until'" "$ft" "$good_traffic" \
	"failures: {link: {mtbf: 1ms, mttr: 1us}}"
exp fail-key "fail-key.yaml:3:[0-9]+: .*'links'" "$ft" "$good_traffic" \
	"failures: {until: 1ms, links: {mtbf: 1ms, mttr: 1us}}"
exp fail-mttr "fail-mttr.yaml:3:[0-9]+: a failure process needs 'mtbf'" "$ft" "$good_traffic" \
	"failures: {until: 1ms, link: {mtbf: 1ms}}"
exp fail-zero "fail-zero.yaml:3:[0-9]+: mtbf and mttr must be above 0" "$ft" "$good_traffic" \
	"failures: {until: 1ms, link: {mtbf: 0ns, mttr: 1us}}"
exp fail-many "fail-many.yaml:3:11: the failure processes make more than 100000 faults" "$ft" "$good_traffic" \
	"failures: {until: 1s, link: {mtbf: 1us, mttr: 1us}}"
exp slow-rate "slow-rate.yaml:3:[0-9]+: a slow receiver drains below its link's rate" "$ft" "$good_traffic" \
	"faults: [{kind: slow-receiver, at: 0ns, ports: [h0:0], rate: 200Gbps}]"
exp slow-switch "slow-switch.yaml:3:[0-9]+: a slow receiver is a host's port, not leaf0's" "$ft" "$good_traffic" \
	"faults: [{kind: slow-receiver, at: 0ns, ports: [leaf0:0], rate: 1Gbps}]"
exp storm-ports "storm-ports.yaml:3:[0-9]+: a pfc-storm fault acts on one port \\(got 4\\)" "$ft" "$good_traffic" \
	"faults: [{kind: pfc-storm, at: 0ns, ports: ['h*:0'], priority: 3}]"
exp fault-priority "fault-priority.yaml:3:62: 8 is above the maximum 7" "$ft" "$good_traffic" \
	"faults: [{kind: pfc-storm, at: 1ms, ports: [h0:0], priority: 8}]"

# warn NAME REGEX YAML...: exit 0 with a FILE:LINE:COL warning on stderr
warn() {
	local name=$1 re=$2
	shift 2
	n=$((n + 1))
	printf '%s\n' "$@" >"$tmp/$name.yaml"
	"$fabemu" run "$tmp/$name.yaml" -o "$tmp/res-$name" -q >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne 0 ] || ! grep -Eq -- "$re" "$tmp/err"; then
		echo "FAIL [$name]: exit $rc, want 0 and a warning matching /$re/:"; cat "$tmp/err"; fail=1
	fi
}
warn headroom-small "headroom-small.yaml:3:[0-9]+: warning: leaf0: PFC headroom 4096 bytes is smaller than the [0-9]+ bytes" \
	"$good_topo" "$good_traffic" "fabric: {pfc: {headroom: 4KiB}}"
warn pfc-off-port "pfc-off-port.yaml:3:[0-9]+: warning: PFC disabled on leaf0:0, which carries lossless priorities" \
	"$good_topo" "$good_traffic" "fabric: {pfc: {disabled_ports: ['leaf0:0']}}"
# A timer shorter than a connection's round trip (propagation alone):
# every message times out once (2 x 4 links x 1 ms = 8 ms > 262.144 us).
warn rto-rtt "rto-rtt.yaml:3:6: warning: nic.rto is 262.144 us, but a connection's round trip takes 8000.000 us of propagation alone" \
	"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 1, host_link: {rate: 10Gbps, delay: 1ms}, fabric_link: {rate: 10Gbps, delay: 1ms}}" \
	"traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 4KiB}]}]" "nic: {mtu: 1024}"
warn timely-rto "timely-rto.yaml:3:[0-9]+: warning: congestion control 'timely' treats round trips up to 500.000 us as a congestion signal, but nic.rto is 262.144 us" \
	"$good_topo" "$good_traffic" "nic: {cc: timely}"
exp timely-rai-zero "timely-rai-zero.yaml:3:[0-9]+: rate must be above zero" \
	"$good_topo" "$good_traffic" "nic: {cc: timely, timely: {rai: 0bps}}"

# Links in a results folder are not followed (issue 23): a capture folder
# that is a link to elsewhere is refused and its target left as it was; a
# dangling .fabemu.lock link is not created where it points.
printf '%s\n' "$good_topo" "$good_traffic" "capture: {ports: ['h0:0']}" >"$tmp/cap.yaml"
mkdir -p "$tmp/res-caplink" "$tmp/caplink-target"
echo keep >"$tmp/caplink-target/hosts"
ln -s "$tmp/caplink-target" "$tmp/res-caplink/capture"
expect capture-link "res-caplink/capture: exists and is not a folder \(links are not followed\)" \
	"$fabemu" run "$tmp/cap.yaml" -o "$tmp/res-caplink" -q
[ "$(cat "$tmp/caplink-target/hosts")" = keep ] || bad "capture-link: the link's target was written"
mkdir -p "$tmp/res-locklink"
ln -s "$tmp/locklink-target" "$tmp/res-locklink/.fabemu.lock"
expect lock-link "res-locklink/.fabemu.lock is a symbolic link: nothing written there" \
	"$fabemu" run "$tmp/cap.yaml" -o "$tmp/res-locklink" -q
[ ! -e "$tmp/locklink-target" ] || bad "lock-link: the dangling link's target was created"

# The file itself, the command line and --set.
expect unreadable "nosuch.yaml: cannot open: No such file or directory" \
	"$fabemu" run "$tmp/nosuch.yaml" -q
printf '%s\n' "$good_topo" "$good_traffic" "expect: [{metric: drops.totl, op: '==', value: 0}]" >"$tmp/metric.yaml"
expect unknown-metric "metric.yaml:3:[0-9]+: unknown metric 'drops.totl' \(did you mean 'drops.total'\?\)" \
	"$fabemu" check "$tmp/metric.yaml" -o "$tmp/res-metric"
printf '%s\n' "$good_topo" "$good_traffic" >"$tmp/ok.yaml"
expect set-bad-value "^--set #1:1:[0-9]+: .*MTU" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-set" --set nic.mtu=5000
expect set-unknown-key "unknown key 'bufer' \(did you mean 'buffer'\?\)" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-set" --set fabric.bufer=1MB
expect set-into-scalar "^--set #1:" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-set" --set topology.kind.x=1
expect set-syntax "--set needs key.path=value" \
	"$fabemu" run "$tmp/ok.yaml" -q --set nic.mtu
expect cli-unknown-option "unknown option '--sed'" \
	"$fabemu" run "$tmp/ok.yaml" --sed 3
expect cli-bad-seed "--seed needs a non-negative integer" \
	"$fabemu" run "$tmp/ok.yaml" --seed -1
expect cli-threads-zero "--threads needs auto or an integer 1..64, got '0'" \
	"$fabemu" run "$tmp/ok.yaml" -q --threads 0
expect cli-threads-many "--threads needs auto or an integer 1..64, got '65'" \
	"$fabemu" bench --quick --threads 65
expect cli-threads-word "--threads needs auto or an integer 1..64, got 'two'" \
	"$fabemu" check "$tmp/ok.yaml" -q --threads two
expect cli-partitions-zero "--partitions needs an integer 1..64, got '0'" \
	"$fabemu" run "$tmp/ok.yaml" -q --partitions 0
expect cli-partitions-many "--partitions needs an integer 1..64, got '100'" \
	"$fabemu" bench --quick --partitions 100
expect cli-partitions-word "--partitions needs an integer 1..64, got '4x'" \
	"$fabemu" check "$tmp/ok.yaml" -q --threads 2 --partitions 4x
expect cli-missing-value "option '--seed' needs a value" \
	"$fabemu" run "$tmp/ok.yaml" --seed
expect cli-wrong-command "topo does not take --set" \
	"$fabemu" topo "$tmp/ok.yaml" --set nic.mtu=1024
expect cli-unknown-command "unknown command 'rnu'" "$fabemu" rnu "$tmp/ok.yaml"
expect cli-bad-repeat "--repeat needs an integer 1..100, got '0'" "$fabemu" bench --quick --repeat 0
expect cli-repeat-not-run "run does not take --repeat" "$fabemu" run "$tmp/ok.yaml" --repeat 2
expect cli-bench-two-scenarios "bench takes one of --quick, --deep and --ai" "$fabemu" bench --quick --deep
expect cli-bench-ai-and-deep "bench takes one of --quick, --deep and --ai" "$fabemu" bench --ai --deep
# DPDK's EAL prints its own complaint (and its usage, on stdout) first.
max_lines=6 expect cli-bad-eal "fabemu: DPDK EAL arguments after '--' not accepted" \
	"$fabemu" bench --quick -- --no-such-eal-option
max_lines=6 expect cli-bad-eal-run "fabemu: DPDK EAL arguments after '--' not accepted" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-eal" -- --no-such-eal-option
expect topo-bad "odd-k.yaml:1:[0-9]+: .*k must be even" "$fabemu" topo "$tmp/odd-k.yaml"
# The rail-optimised kind through `fabemu topo`, one case per class.
# rail NAME REGEX KEYS: a rail-optimised topology map with KEYS (flow style)
rail() {
	local name=$1 re=$2
	printf 'topology: {kind: rail-optimised, %s}\n' "$3" >"$tmp/$name.yaml"
	expect "$name" "$re" "$fabemu" topo "$tmp/$name.yaml"
}
rail rail-rails "rail-rails.yaml:1:[0-9]+: rails is 4 but a node has 8 NICs" "units: 1, rails: 4"
rail rail-radix "rail-radix.yaml:1:[0-9]+: radix 32 cannot hold a leaf's 32 down and 32 up ports" \
	"units: 1, radix: 32"
rail rail-oversub "rail-oversub.yaml:1:[0-9]+: leaf_oversubscription 2:1 does not divide a leaf's 3 down ports" \
	"units: 1, nodes_per_unit: 3, leaf_oversubscription: 2:1"
rail rail-ratio "rail-ratio.yaml:1:[0-9]+: expected a ratio down:up" "units: 1, leaf_oversubscription: 2/1"
rail rail-planes "rail-planes.yaml:1:[0-9]+: planes must be 1 or nic_ports" "units: 1, planes: 2"
rail rail-nic-ports "rail-nic-ports.yaml:1:[0-9]+: 3 is above the maximum 2" "units: 1, nic_ports: 3"
rail rail-domain "rail-domain.yaml:1:[0-9]+: nvlink.domain_gpus 12 is not a multiple of gpus_per_node" \
	"units: 1, nvlink: {domain_gpus: 12}"
rail rail-domain-split "rail-domain-split.yaml:1:[0-9]+: nvlink.domain_gpus 16 does not divide the 24 GPUs" \
	"nodes: 3, nvlink: {domain_gpus: 16}"
rail rail-both "rail-both.yaml:1:[0-9]+: give one of 'nodes' and 'units', not both" "nodes: 3, units: 1"
rail rail-neither "rail-neither.yaml:1:[0-9]+: rail-optimised needs 'nodes' .* or 'units'" "radix: 64"
rail rail-tiers "rail-tiers.yaml:1:[0-9]+: tiers: 2 cannot hold 128 leaves per plane" \
	"preset: dgx-b200-superpod, units: 16, tiers: 2"
rail rail-limits "rail-limits.yaml:1:[0-9]+: 9600 nodes of 8 GPUs are 76800 NICs, at most 65536 hosts" \
	"units: 300"
rail rail-preset "rail-preset.yaml:1:[0-9]+: unknown value 'dgx-h100-superpd' \(did you mean 'dgx-h100-superpod'\?" \
	"preset: dgx-h100-superpd, units: 1"
# The paired-benchmark script (tools/), before it runs anything.
pair="$(dirname "$0")/../../tools/bench-pair.sh"
expect pair-bad-rounds "-n wants a positive integer, got 'x'" "$pair" -n x "$fabemu" "$fabemu"
expect pair-not-executable "is not an executable" "$pair" "$tmp/none" "$fabemu"
expect pair-usage "usage: .*OLD NEW" "$pair" "$fabemu"

# The poisson workload's CDF files: FILE:LINE:COL (or FILE:LINE) of the bad
# point, exit 2.
pois() { # pois NAME CDF_VALUE [MORE_KEYS]: a poisson workload with that cdf
	printf '%s\n' "$good_topo" "traffic: [{kind: poisson, load: 30%, cdf: $2, duration: 1ms$3}]" \
		>"$tmp/$1.yaml"
}
printf '0 0\n100 0.5\n50 1\n' >"$tmp/cdf-size-down.txt"
pois cdf-size-down cdf-size-down.txt ""
expect cdf-size-down "cdf-size-down.txt:3:1: sizes must not decrease \(50 after 100\)" \
	"$fabemu" run "$tmp/cdf-size-down.yaml" -o "$tmp/res-cdf" -q
printf '0 0\n100 0.5\n200 0.4\n300 1\n' >"$tmp/cdf-prob-down.txt"
pois cdf-prob-down cdf-prob-down.txt ""
expect cdf-prob-down "cdf-prob-down.txt:3:5: CDF values must not decrease \(0.4 after 0.5\)" \
	"$fabemu" run "$tmp/cdf-prob-down.yaml" -o "$tmp/res-cdf" -q
printf '0 0\n100 50\n200 97\n' >"$tmp/cdf-no-end.txt"
pois cdf-no-end cdf-no-end.txt ""
expect cdf-no-end "cdf-no-end.txt:3:5: the last CDF value is 97: a CDF ends at 1 \(fraction\) or 100 \(percent\)" \
	"$fabemu" run "$tmp/cdf-no-end.yaml" -o "$tmp/res-cdf" -q
printf '# nothing but a comment\n\n' >"$tmp/cdf-empty.txt"
pois cdf-empty cdf-empty.txt ""
expect cdf-empty "cdf-empty.txt:2: no points" \
	"$fabemu" run "$tmp/cdf-empty.yaml" -o "$tmp/res-cdf" -q
printf '0 0\n1e3 x\n' >"$tmp/cdf-not-number.txt"
pois cdf-not-number cdf-not-number.txt ""
expect cdf-not-number "cdf-not-number.txt:2:5: expected a CDF value" \
	"$fabemu" run "$tmp/cdf-not-number.yaml" -o "$tmp/res-cdf" -q
pois cdf-unreadable no-such-cdf.txt ""
expect cdf-unreadable "cdf-unreadable.yaml:2:[0-9]+: cannot open CDF file '.*no-such-cdf.txt': No such file" \
	"$fabemu" run "$tmp/cdf-unreadable.yaml" -o "$tmp/res-cdf" -q
pois cdf-unknown-name websearh ""
expect cdf-unknown-name "cdf-unknown-name.yaml:2:[0-9]+: unknown CDF 'websearh' \(did you mean 'websearch'\?\)" \
	"$fabemu" run "$tmp/cdf-unknown-name.yaml" -o "$tmp/res-cdf" -q
pois poisson-both websearch ", flows: 10"
expect poisson-both "poisson-both.yaml:2:[0-9]+: poisson needs exactly one of 'duration'" \
	"$fabemu" run "$tmp/poisson-both.yaml" -o "$tmp/res-cdf" -q
printf '%s\n' "$good_topo" "traffic: [{kind: poisson, load: 0, cdf: websearch, flows: 10}]" \
	>"$tmp/poisson-load0.yaml"
expect poisson-load0 "poisson-load0.yaml:2:[0-9]+: the load must be above 0" \
	"$fabemu" run "$tmp/poisson-load0.yaml" -o "$tmp/res-cdf" -q

# fabemu compare: folders that are not results folders of this schema, and
# its options; nothing is written to stdout.
# cexpect NAME REGEX ARGS...: `fabemu compare ARGS` exits 2 with REGEX, stdout empty
cexpect() {
	local name=$1
	expect "$@" && [ -s "$tmp/out" ] && { echo "FAIL [$name]: wrote to stdout"; fail=1; }
	return 0
}
mkdir -p "$tmp/cmp-ok" "$tmp/cmp-empty" "$tmp/cmp-v2" "$tmp/cmp-bad" "$tmp/cmp-arr"
printf '{\n  "schema_version": 1,\n  "x": 1\n}\n' >"$tmp/cmp-ok/summary.json"
printf '{\n  "schema_version": 4,\n  "x": 1\n}\n' >"$tmp/cmp-v2/summary.json"
printf '{\n  "schema_version": 1,\n  "x": [1, \n' >"$tmp/cmp-bad/summary.json"
printf '[1, 2]\n' >"$tmp/cmp-arr/summary.json"
cexpect compare-missing "fabemu: .*/cmp-none: cannot open: No such file or directory" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-none"
cexpect compare-no-summary "cmp-empty: no summary.json in it" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-empty"
cexpect compare-schema "cmp-v2/summary.json:2:[0-9]+: schema_version 4, this fabemu reads schema versions 1 to 3" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-v2"
cexpect compare-malformed "cmp-bad/summary.json:[0-9]+:[0-9]+: " \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-bad"
cexpect compare-not-object "cmp-arr/summary.json: not a fabemu summary" \
	"$fabemu" compare "$tmp/cmp-arr" "$tmp/cmp-ok"
cexpect compare-file "cmp-ok/summary.json: not a folder" \
	"$fabemu" compare "$tmp/cmp-ok/summary.json" "$tmp/cmp-ok"
cexpect compare-one "compare needs at least two results folders" "$fabemu" compare "$tmp/cmp-ok"
cexpect compare-tolerance "--tolerance needs a percentage such as 5% .*got '5 %'" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-ok" --tolerance "5 %"
cexpect compare-metrics "--metrics: no numeric metric matches 'dorps.\*'" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-ok" --metrics 'x,dorps.*'
cexpect compare-eal "compare does not take EAL args" "$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-ok" -- -l 0
cexpect compare-run-option "compare does not take --seed" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-ok" --seed 1
# fabemu plot: the same folder checks, its options; nothing written.
cexpect plot-missing "fabemu: .*/cmp-none: cannot open: No such file or directory" \
	"$fabemu" plot "$tmp/cmp-none" -o "$tmp/plot-out"
cexpect plot-schema "cmp-v2/summary.json:2:[0-9]+: schema_version 4" \
	"$fabemu" plot "$tmp/cmp-v2" -o "$tmp/plot-out"
cexpect plot-format "--format is png or svg, got 'jpg'" \
	"$fabemu" plot "$tmp/cmp-ok" -o "$tmp/plot-out" --format jpg
cexpect plot-two "plot of several results folders draws them together: give -o DIR" \
	"$fabemu" plot "$tmp/cmp-ok" "$tmp/cmp-ok"
# FIFOs are refused before anything is read (they once blocked forever;
# issue 23): as flows.csv for plot, as summary.json for compare, as the
# experiment file, as topo's argument, as a trace. Each under timeout.
mkdir -p "$tmp/cmp-fifo"
mkfifo "$tmp/cmp-fifo/summary.json" "$tmp/fifo.yaml" "$tmp/fifo.csv"
cexpect compare-fifo "cmp-fifo/summary.json: cannot open: not a regular file \(a FIFO\)" \
	timeout 20 "$fabemu" compare "$tmp/cmp-fifo" "$tmp/cmp-ok"
expect fifo-experiment "fifo.yaml: cannot open: not a regular file \(a FIFO\)" \
	timeout 20 "$fabemu" run "$tmp/fifo.yaml" -q -o "$tmp/res-fifo"
expect fifo-topo "fifo.yaml: cannot open: not a regular file \(a FIFO\)" \
	timeout 20 "$fabemu" topo "$tmp/fifo.yaml"
printf '%s\n' "$good_topo" "traffic: [{kind: trace, file: fifo.csv, format: csv}]" >"$tmp/fifo-trace.yaml"
expect fifo-trace "fifo-trace.yaml:2:[0-9]+: cannot open trace '.*fifo.csv': not a regular file \(a FIFO\)" \
	timeout 20 "$fabemu" run "$tmp/fifo-trace.yaml" -q -o "$tmp/res-fifo-trace"
mkdir -p "$tmp/plot-fifo"
cp "$tmp/cmp-ok/summary.json" "$tmp/plot-fifo/summary.json"
mkfifo "$tmp/plot-fifo/flows.csv"
cexpect plot-fifo "plot-fifo/flows.csv: cannot open: not a regular file \(a FIFO\)" \
	timeout 20 "$fabemu" plot "$tmp/plot-fifo" -o "$tmp/plot-out"
printf 'id,src,dst,bytes\n' >"$tmp/cmp-ok/flows.csv"
cexpect plot-flows "cmp-ok/flows.csv:1: not a fabemu flows.csv header" \
	"$fabemu" plot "$tmp/cmp-ok" -o "$tmp/plot-out"
rm "$tmp/cmp-ok/flows.csv"
cexpect plot-no-name "/: no folder name to put the plots under: give -o DIR" "$fabemu" plot /
# Results files held to the loader's standard (issue 23): a size bound
# checked before reading (sparse files: nothing is allocated), a line
# bound, FILE:LINE:COL and what was expected without the file's text (the
# marker must not appear), and every file read before any is written.
# resdir NAME: a results folder with a good summary.json
resdir() { mkdir -p "$tmp/$1" && cp "$tmp/cmp-ok/summary.json" "$tmp/$1/"; }
# noecho NAME: the last message holds none of the foreign file's text
noecho() { ! grep -q 'marker-9f3' "$tmp/err" || { echo "FAIL [$1]: echoed the file:"; cat "$tmp/err"; fail=1; }; }
resdir plot-big
truncate -s 5G "$tmp/plot-big/flows.csv"
cexpect plot-size "plot-big/flows.csv: larger than 4 GiB, the most plot reads of one file" \
	timeout 20 "$fabemu" plot "$tmp/plot-big" -o "$tmp/plot-out"
resdir plot-line
{ echo 'time_ns,port,queue_bytes,paused_prio_mask'; head -c 70000 /dev/zero | tr '\0' 7; echo; } \
	>"$tmp/plot-line/series.csv"
cexpect plot-line "plot-line/series.csv:2: line longer than 64 KiB: not a fabemu results file" \
	timeout 20 "$fabemu" plot "$tmp/plot-line" -o "$tmp/plot-out"
resdir plot-nul
printf 'node,port,utilisation\nleaf0,1,0.\0005\n' >"$tmp/plot-nul/ports.csv"
cexpect plot-nul "plot-nul/ports.csv:2:11: NUL byte: not a text file" \
	"$fabemu" plot "$tmp/plot-nul" -o "$tmp/plot-out"
resdir plot-passwd
printf 'root:x:0:0:marker-9f3:/root:/bin/bash\n' >"$tmp/plot-passwd/series.csv"
cexpect plot-header "plot-passwd/series.csv:1: not a fabemu series.csv header \(expected the columns time_ns, port, queue_bytes and paused_prio_mask\)" \
	"$fabemu" plot "$tmp/plot-passwd" -o "$tmp/plot-out"
noecho plot-header
resdir plot-row
printf 'bytes,fct_ns,slowdown,workload,status\n10,marker-9f3,1,w,complete\n' >"$tmp/plot-row/flows.csv"
cexpect plot-row "plot-row/flows.csv:2:4: fct_ns: expected a number" \
	"$fabemu" plot "$tmp/plot-row" -o "$tmp/plot-out"
noecho plot-row
printf 'bytes,fct_ns,slowdown,workload,status\n10,1\n' >"$tmp/plot-row/flows.csv"
cexpect plot-columns "plot-row/flows.csv:2: 2 columns, expected 5 as in the header" \
	"$fabemu" plot "$tmp/plot-row" -o "$tmp/plot-out"
# pfc.csv is read with the others, before the output folder is made.
resdir plot-pfc
printf 'node,port,priority,paused_ns\nh1,0,3,marker-9f3\n' >"$tmp/plot-pfc/pfc.csv"
cexpect plot-pfc "plot-pfc/pfc.csv:2:8: paused_ns: expected a number" \
	"$fabemu" plot "$tmp/plot-pfc" -o "$tmp/plot-out"
noecho plot-pfc
resdir plot-coll
printf 'workload,collective,algorithm,size_bytes,busbw_GBps,status\nw,all-reduce,ring,0,1,complete\n' \
	>"$tmp/plot-coll/collectives.csv"
cexpect plot-coll "plot-coll/collectives.csv:2:19: size_bytes: expected a size above 0" \
	"$fabemu" plot "$tmp/plot-coll" -o "$tmp/plot-out"
# The output folder is not a symbolic link (plot empties it and writes
# there): refused, and nothing is written where it points.
mkdir -p "$tmp/plot-elsewhere"
ln -s plot-elsewhere "$tmp/plot-link"
cexpect plot-out-link "plot-link: a symbolic link: plot writes into a folder, not through a link" \
	"$fabemu" plot "$tmp/cmp-ok" -o "$tmp/plot-link/"
[ -z "$(ls -A "$tmp/plot-elsewhere")" ] || { echo "FAIL [plot-out-link]: wrote through the link"; fail=1; }
# compare: summary.json bounded before it is read; schema_version said
# without its value.
mkdir -p "$tmp/cmp-big" "$tmp/cmp-ver" "$tmp/cmp-dup"
truncate -s 65M "$tmp/cmp-big/summary.json"
cexpect compare-size "cmp-big/summary.json: larger than 64 MiB, the most fabemu reads of a summary.json" \
	timeout 20 "$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-big"
printf '{"schema_version": marker-9f3}\n' >"$tmp/cmp-ver/summary.json"
cexpect compare-version "cmp-ver/summary.json:1:20: schema_version: expected a whole number: not a fabemu summary" \
	"$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-ver"
noecho compare-version
# A duplicate key of a large map (hashed) says what a small map's does:
# the key and where it was first.
awk 'BEGIN { print "{\"schema_version\": 1, \"m\": {"; for (i = 0; i < 20000; i++) printf "\"k%d\": %d,\n", i, i; print "\"k7\": 1}}" }' \
	>"$tmp/cmp-dup/summary.json"
cexpect compare-duplicate "cmp-dup/summary.json:20002:1: duplicate key 'k7' \(first at line 9, column 1\)" \
	timeout 20 "$fabemu" compare "$tmp/cmp-ok" "$tmp/cmp-dup"
[ ! -e "$tmp/plot-out" ] || { echo "FAIL [plot]: bad input wrote $tmp/plot-out"; fail=1; }

exp links-empty "links-empty.yaml:3:[0-9]+: a link override needs 'ports' and a 'rate' or a 'delay'" \
	"$good_topo" "$good_traffic" "fabric: {links: [{ports: ['h0:0']}]}"
exp links-port "links-port.yaml:3:[0-9]+: .*h9" \
	"$good_topo" "$good_traffic" "fabric: {links: [{ports: ['h9:0'], rate: 10Gbps}]}"
exp links-rate "links-rate.yaml:3:[0-9]+: .*(unit|rate)" \
	"$good_topo" "$good_traffic" "fabric: {links: [{ports: ['h0:0'], rate: fast}]}"

# Collectives and training, one case per class (on 2 nodes of 2 GPUs).
rt='topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes_per_unit: 2, nodes: 2}'
exp coll-kind "coll-kind.yaml:2:42: unknown value 'all-reduc' \(did you mean 'all-reduce'" \
	"$rt" "traffic: [{kind: collective, collective: all-reduc, size: 1MiB}]"
exp coll-hd "coll-hd.yaml:2:[0-9]+: halving-doubling needs a power of two of ranks \(got 3\)" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, algorithm: halving-doubling, ranks: [node0/gpu0, node0/gpu1, node1/gpu0], size: 1MiB}]"
exp coll-sweep "coll-sweep.yaml:2:[0-9]+: size 1048576 bytes is below the minimum 8388608" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, sizes: {from: 8MiB, to: 1MiB, factor: 2}}]"
exp coll-one-rank "coll-one-rank.yaml:2:[0-9]+: a collective needs at least 2 ranks" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, ranks: [node0/gpu0], size: 1MiB}]"
exp coll-root "coll-root.yaml:2:[0-9]+: root 9 is not a rank \(0..3\)" \
	"$rt" "traffic: [{kind: collective, collective: broadcast, root: 9, size: 1MiB}]"
exp coll-straggler "coll-straggler.yaml:2:[0-9]+: unknown host 'node5/gpu0'" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, stragglers: [{rank: node5/gpu0, factor: 2}]}]"
exp coll-load-len "coll-load-len.yaml:2:[0-9]+: load: 2 weights for 4 ranks" \
	"$rt" "traffic: [{kind: collective, collective: all-to-all, size: 1MiB, load: [1, 2]}]"
exp coll-load-kind "coll-load-kind.yaml:2:[0-9]+: load shapes an all-to-all, not all-reduce" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, load: {zipf: 1}}]"
exp coll-load-zero "coll-load-zero.yaml:2:[0-9]+: load: the weights add up to 0" \
	"$rt" "traffic: [{kind: collective, collective: all-to-all, size: 1MiB, load: [0, 0, 0, 0]}]"
exp coll-tree-kind "coll-tree-kind.yaml:2:[0-9]+: algorithm tree does not run all-gather" \
	"$rt" "traffic: [{kind: collective, collective: all-gather, algorithm: tree, size: 1MiB}]"
# The NCCL model (traffic.nccl): its forms, protocols, ranges, and what it runs.
exp nccl-form "nccl-form.yaml:2:[0-9]+: nccl: off, on, or a map \\{protocol" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: yes}]"
exp nccl-key "nccl-key.yaml:2:[0-9]+: .*'protcol'.*did you mean 'protocol'" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: {protcol: ll}}]"
exp nccl-proto "nccl-proto.yaml:2:[0-9]+: unknown value 'll64' \\(did you mean 'll'" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: {protocol: ll64}}]"
exp nccl-algo "nccl-algo.yaml:2:[0-9]+: unknown value 'pat'" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: {algorithm: pat}}]"
nvt='topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes_per_unit: 2, nodes: 2, nvlink: {domain_gpus: 2, rate: 900Gbps, delay: 100ns}}'
exp nccl-nvls-span "nccl-nvls-span.yaml:2:[0-9]+: nccl.algorithm nvls: the ranks span more than one NVLink domain" \
	"$nvt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: {algorithm: nvls}}]"
exp nccl-collnet-one "nccl-collnet-one.yaml:2:[0-9]+: nccl.algorithm collnet: the ranks are all in one NVLink domain" \
	"$nvt" "traffic: [{kind: collective, collective: all-reduce, ranks: [node0/gpu*], size: 1MiB, nccl: {algorithm: collnet}}]"
a100='topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes_per_unit: 2, nodes: 2, nvlink: {domain_gpus: 2, rate: 2.4Tbps, delay: 100ns}}'
exp nccl-nvls-a100 "nccl-nvls-a100.yaml:2:[0-9]+: NVLS \\(the in-network all-reduce in an NVLink domain under the NCCL model\\) needs NVLink 4" \
	"$a100" "traffic: [{kind: collective, collective: all-reduce, ranks: [node0/gpu*], algorithm: in-network, size: 1MiB, nccl: on}]"
exp nccl-nvls-train "nccl-nvls-train.yaml:2:[0-9]+: nccl.algorithm nvls: a collective workload's all-reduce only" \
	"$nvt" "traffic: [{kind: training, parallel: {tp: 2, dp: 2}, forward: 1ms, tp_bytes: 1MiB, nccl: {algorithm: nvls}}]"
exp nccl-eff "nccl-eff.yaml:2:[0-9]+: .*(above|below|between|range|1)" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: {nvlink_efficiency: 150%}}]"
exp nccl-latency "nccl-latency.yaml:2:[0-9]+: .*time" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, nccl: {net_latency: soon}}]"
exp nccl-pxn "nccl-pxn.yaml:2:[0-9]+: expected true or false, got 'on'" \
	"$rt" "traffic: [{kind: collective, collective: all-to-all, size: 1MiB, nccl: {pxn: on}}]"
exp nccl-alg "nccl-alg.yaml:2:[0-9]+: nccl: the NCCL model runs NCCL's algorithms \\(ring, tree, in-network for NVLS and SHARP, and direct for all-to-all\\), not halving-doubling" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, algorithm: halving-doubling, size: 1MiB, nccl: on}]"
# In-network reduction (algorithm in-network): what the switches cannot
# reduce is refused at the workload's algorithm key.
exp innet-data "innet-data.yaml:[0-9]+:[0-9]+: algorithm in-network: data: true over the ranks' NICs only" \
	"topology: {kind: rail-optimised, gpus_per_node: 2, rails: 2, nodes_per_unit: 2, nodes: 2, nvlink: {domain_gpus: 2, rate: 900Gbps, delay: 100ns}}" \
	"nic: {payload: true, recovery: go-back-n}" \
	"traffic: [{kind: collective, collective: all-reduce, ranks: [node0/gpu*], algorithm: in-network, size: 1MiB, data: true}]"
exp innet-data-ib "innet-data-ib.yaml:[0-9]+:[0-9]+: algorithm in-network: data: true needs RoCE" \
	"$good_topo" "fabric: {link_layer: infiniband}" "nic: {payload: true, recovery: go-back-n}" \
	"traffic: [{kind: collective, collective: all-reduce, ranks: all, algorithm: in-network, size: 1MiB, data: true}]"
exp innet-qps "innet-qps.yaml:3:[0-9]+: algorithm in-network: needs one QP per connection" \
	"$good_topo" "fabric: {pfc: {priorities: [3]}}" \
	"traffic: [{kind: collective, collective: all-reduce, ranks: all, algorithm: in-network, size: 1MiB, dscp: 24, qps: 2}]"
exp innet-lossy "innet-lossy.yaml:2:[0-9]+: algorithm in-network: the class of DSCP 24 is not lossless at leaf0" \
	"$good_topo" "traffic: [{kind: collective, collective: all-reduce, ranks: all, algorithm: in-network, size: 1MiB, dscp: 24}]"
exp innet-tree "innet-tree.yaml:7:[0-9]+: algorithm in-network: the ranks' 3 switches \\(t0, ...\\) reach no common switch going up the tiers" \
	"topology:" "  kind: explicit" "  default_link: {rate: 100Gbps, delay: 1us}" \
	"  nodes: [{name: h0, kind: host}, {name: h1, kind: host}, {name: h2, kind: host}, {name: t0, kind: switch, ports: 4}, {name: t1, kind: switch, ports: 4}, {name: t2, kind: switch, ports: 4}]" \
	"  links: [{endpoints: [\"h0:0\", \"t0:0\"]}, {endpoints: [\"h1:0\", \"t1:0\"]}, {endpoints: [\"h2:0\", \"t2:0\"]}, {endpoints: [\"t0:1\", \"t1:1\"]}, {endpoints: [\"t1:2\", \"t2:1\"]}, {endpoints: [\"t2:2\", \"t0:2\"]}]" \
	"fabric: {pfc: {priorities: [3]}}" \
	"traffic: [{kind: collective, collective: all-reduce, ranks: all, algorithm: in-network, size: 1MiB, dscp: 24}]"
exp innet-kind "innet-kind.yaml:2:[0-9]+: algorithm in-network does not run all-gather" \
	"$good_topo" "traffic: [{kind: collective, collective: all-gather, ranks: all, algorithm: in-network, size: 1MiB}]"
exp nccl-data "nccl-data.yaml:[0-9]+:[0-9]+: nccl: the NCCL model's transfers carry its protocol's lines, not data" \
	"$rt" "nic: {payload: true, recovery: go-back-n}" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, data: true, nccl: on}]"
exp nccl-train "nccl-train.yaml:2:[0-9]+: unknown value 'fast'" \
	"$rt" "traffic: [{kind: training, parallel: {tp: 2, dp: 2}, forward: 1ms, tp_bytes: 1MiB, nccl: {protocol: fast}}]"
exp train-degrees "train-degrees.yaml:2:38: tp x pp x dp = 2 x 3 x 1 = 6, but there are 4 GPUs" \
	"$rt" "traffic: [{kind: training, parallel: {tp: 2, pp: 3}, forward: 1ms}]"
exp train-ep "train-ep.yaml:2:[0-9]+: ep \(3\) must divide dp \(4\)" \
	"$rt" "traffic: [{kind: training, parallel: {dp: 4, ep: 3}, forward: 1ms}]"
exp train-key "train-key.yaml:2:[0-9]+: unknown key 'tq' \(did you mean 'tp'\?\)" \
	"$rt" "traffic: [{kind: training, parallel: {tq: 2}}]"
exp train-nic "train-nic.yaml:2:[0-9]+: gpus: a training workload's ranks are GPUs" \
	"$rt" "traffic: [{kind: training, gpus: [node0/nic0], parallel: {}}]"
exp train-factor "train-factor.yaml:2:[0-9]+: -1 is below the minimum 0" \
	"$rt" "traffic: [{kind: training, parallel: {tp: 2, dp: 2}, stragglers: [{gpu: node0/gpu0, factor: -1}]}]"
exp train-no-gpus "train-no-gpus.yaml:2:[0-9]+: a training workload runs on GPUs: use a rail-optimised topology" \
	"$good_topo" "traffic: [{kind: training, forward: 1ms}]"

# The clock's horizon (docs/config.md): a time, a sum of times or a
# back-off cap that would wrap the 64-bit picosecond clock is an error at
# its own position.
exp horizon-delay "horizon-delay.yaml:1:[0-9]+: .*got '5000000s': above the clock's horizon: times are at most 1000000s" \
	"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2, fabric_link: {delay: 5000000s}}" \
	"$good_traffic"
exp link-delay-max "link-delay-max.yaml:1:[0-9]+: time '?2s'? is above the maximum 1s" \
	"topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2, host_link: {delay: 2s}}" \
	"$good_traffic"
exp link-override-delay "link-override-delay.yaml:3:[0-9]+: time '?10s'? is above the maximum 1s" \
	"$good_topo" "$good_traffic" "fabric: {links: [{ports: ['h0:0'], delay: 10s}]}"
exp horizon-start "horizon-start.yaml:2:[0-9]+: .*above the clock's horizon" \
	"$good_topo" "traffic: [{kind: messages, messages: [{src: h0, dst: h1, size: 1KiB, start: 5000000s}]}]"
exp horizon-rto "horizon-rto.yaml:3:12: time '?300000s'? is above the maximum 15625s \(the back-off cap" \
	"$good_topo" "$good_traffic" "nic: {rto: 300000s}"
expect horizon-set "^--set #1:1:11: .*above the clock's horizon" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-set" --set stop_time=1000001s

exp horizon-sum "horizon-sum.yaml:2:[0-9]+: start plus duration is beyond the clock's horizon" \
	"$good_topo" "traffic: [{kind: poisson, load: 30%, cdf: websearch, start: 999999s, duration: 2s}]"
trace horizon-trace f2.txt hpcc-flow '1\n0 1 3 100 10000 5000000\n' \
	"f2.txt:2:1: starts beyond the clock's horizon"
# Reads are bounded: a device or a huge file is refused as it is read.
expect input-dev-zero "/dev/zero: cannot open: not a regular file \\(a device\\)" "$fabemu" run /dev/zero -q
yes 'a: 1' | head -c 68000000 >"$tmp/huge.yaml"
expect input-huge "huge.yaml: larger than 64 MiB: not an experiment or topology file" \
	"$fabemu" run "$tmp/huge.yaml" -q -o "$tmp/res-huge"
rm -f "$tmp/huge.yaml"
# A file that is no experiment (a password file, say) given as the
# experiment or as topo's argument: refused at its start, its text not
# shown (issue 23); a short plain word is still quoted.
printf 'root:x:0:0:marker-9f3:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n' >"$tmp/passwd"
expect foreign-exp "passwd:1:1: experiment: expected a map, got a text of [0-9]+ bytes \\(not shown\\)" \
	"$fabemu" run "$tmp/passwd" -q -o "$tmp/res-passwd"
noecho foreign-exp
expect foreign-topo "passwd:1:1: topology: expected a map, got a text of [0-9]+ bytes \\(not shown\\)" \
	"$fabemu" topo "$tmp/passwd"
noecho foreign-topo
exp word-quoted "word-quoted.yaml:1:11: topology: expected a map, got 'leaf-spine'" \
	"topology: leaf-spine" "traffic: [{kind: permutation, size: 4KiB}]"
# Results folders: empty, a file, a capture folder that is a file, too long.
expect out-empty "-o needs a folder name, got an empty one" "$fabemu" run "$tmp/ok.yaml" -q -o ""
: >"$tmp/a-file"
expect out-file "a-file: cannot create results folder: it, or a folder above it, exists and is not a folder" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/a-file"
expect out-under-file "a-file/sub: cannot create results folder: it, or a folder above it, exists and is not a folder" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/a-file/sub"
printf '%s\n' "$good_topo" "$good_traffic" "capture: {ports: ['h0:0']}" >"$tmp/cap.yaml"
mkdir -p "$tmp/res-capfile" && : >"$tmp/res-capfile/capture"
expect capture-dir-file "res-capfile/capture: exists and is not a folder" \
	"$fabemu" run "$tmp/cap.yaml" -q -o "$tmp/res-capfile"
long=$tmp/$(printf 'd%.0s' $(seq 200))
long=$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long/$long
expect out-too-long "-o: a results folder path of [0-9]+ bytes is too long \(at most [0-9]+" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$long"
[ ! -e "$tmp/$(printf 'd%.0s' $(seq 200))" ] || { echo "FAIL [out-too-long]: wrote a folder"; fail=1; }
# YAML tags other than the core schema's are refused, not ignored.
exp yaml-tag "yaml-tag.yaml:2:37: unknown YAML tag '!foo'" \
	"$good_topo" "traffic: [{kind: permutation, size: !foo 64KiB}]"
expect set-yaml-tag "^--set #1:1:6: unknown YAML tag '!bar'" \
	"$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-set" --set 'name=!bar x'
# More workloads than the 16-bit workload index holds.
{ printf '%s\ntraffic:\n' "$good_topo"; yes '  - {kind: messages, messages: [{src: h0, dst: h1, size: 1KiB}]}' | head -n 65537; } \
	>"$tmp/workloads.yaml"
expect workloads-max "workloads.yaml:3:3: traffic lists 65537 workloads, at most 65536" \
	"$fabemu" run "$tmp/workloads.yaml" -q -o "$tmp/res-wl"
exp series-floor "series-floor.yaml:3:[0-9]+: the sampling interval 1ps is below the minimum 100ns" \
	"$good_topo" "$good_traffic" "outputs: {series: {ports: ['h0:0'], interval: 1ps}}"
exp series-budget "series-budget.yaml:3:[0-9]+: size 1024 bytes is below the minimum 1048576 bytes" \
	"$good_topo" "$good_traffic" "outputs: {series: {ports: ['h0:0'], interval: 1us, max_bytes: 1KiB}}"
exp horizon-straggler "horizon-straggler.yaml:2:[0-9]+: a straggler's compute phase .* would pass the clock's horizon" \
	"$rt" "traffic: [{kind: training, parallel: {tp: 2, dp: 2}, forward: 1000000s, stragglers: [{gpu: node0/gpu0, factor: 1000}]}]"
exp horizon-coll-straggler "horizon-coll-straggler.yaml:2:[0-9]+: a straggler's compute phase" \
	"$rt" "traffic: [{kind: collective, collective: all-reduce, size: 1MiB, compute: 900000s, stragglers: [{rank: node0/gpu0, factor: 2}]}]"
# Sweeps and seeds (run and check alike): each class refused before
# anything is written, the results folder not even created.
sweep() { # NAME REGEX ARGS...: run ok.yaml into res-NAME with ARGS
	local name=$1 re=$2
	shift 2
	expect "$name" "$re" "$fabemu" run "$tmp/ok.yaml" -q -o "$tmp/res-$name" "$@"
	[ ! -e "$tmp/res-$name" ] || { echo "FAIL [$name]: wrote $tmp/res-$name"; fail=1; }
}
sweep sweep-unknown-key "^--set #1:1:8: unknown key 'bufer' \(did you mean 'buffer'\?\) \(sweep point fabric.bufer=1MiB" \
	--sweep fabric.bufer=1MiB,2MiB
sweep sweep-bad-value "^--set #2:1:15: expected a size such as 4KiB, got 'big'.*sweep point fabric.buffer=big" \
	--set seed=3 --sweep fabric.buffer=1MiB,big
sweep sweep-no-values "--sweep 'a=': no values after '='" --sweep a=
sweep sweep-no-key "--sweep '=1': expected key=v1,v2,..." --sweep =1
sweep sweep-empty-value "--sweep 'fabric.buffer=1MiB,,2MiB': an empty value" --sweep fabric.buffer=1MiB,,2MiB
sweep sweep-twice "--sweep: key 'fabric.buffer' swept twice" --sweep fabric.buffer=1MiB --sweep fabric.buffer=2MiB
sweep seeds-empty-range "--seeds '5..1': an empty range \(5 is above 1\)" --seeds 5..1
sweep seeds-not-number "--seeds 'x..3': expected A..B with non-negative integers" --seeds x..3
sweep seeds-list "--seeds '1,,2': '' is not a non-negative integer" --seeds 1,,2
sweep seeds-and-seed "--seed and --seeds: give one of them" --seed 1 --seeds 1..2
sweep sweep-metric "--metric 'drops.totl': unknown metric \(did you mean 'drops.total'\?\)" \
	--seeds 1..2 --metric drops.totl
sweep sweep-metric-alone "--metric names sweep.csv's columns: it needs --sweep or --seeds" --metric drops.total
sweep jobs-zero "-j needs an integer 1..256, got '0'" --seeds 1..2 -j 0
sweep jobs-high "-j needs an integer 1..256, got '257'" --seeds 1..2 -j 257
expect sweep-check-expect "metric.yaml:3:[0-9]+: unknown metric 'drops.totl'" \
	"$fabemu" check "$tmp/metric.yaml" -q -o "$tmp/res-sweep-check" --seeds 1..2
[ ! -e "$tmp/res-sweep-check" ] || { echo "FAIL [sweep-check-expect]: wrote a folder"; fail=1; }
# Assertions across seeds: an unknown statistic, one with of, and one on
# a metric that is not a number (found by check, per run and per sweep).
exp across-unknown "across-unknown.yaml:3:[0-9]+: across_seeds: unknown statistic 'p900'" \
	"$good_topo" "$good_traffic" "expect: [{metric: drops.total, across_seeds: p900, op: '<=', value: 1}]"
exp across-stat "across-stat.yaml:3:[0-9]+: across_seeds: unknown statistic 'average'" \
	"$good_topo" "$good_traffic" "expect: [{metric: drops.total, across_seeds: average, op: '<=', value: 1}]"
exp across-of "across-of.yaml:3:[0-9]+: across_seeds bounds a metric of summary.json by a value: it takes no 'of'" \
	"$good_topo" "$good_traffic" "expect: [{metric: drops.total, across_seeds: mean, op: '<=', value: 1, of: drops.total}]"
# Units in bounds (run/exp_expect_unit.c): a unit of another dimension
# than the metric's, or on a count, is bad input at the bound.
exp expect-unit-dim "expect-unit-dim.yaml:3:53: '1MB' is a size, but flows.fct_ns.p99 is in ns" \
	"$good_topo" "$good_traffic" "expect: [{metric: flows.fct_ns.p99, op: '<', value: 1MB}]"
exp expect-unit-count "expect-unit-count.yaml:3:62: '2us' is a time, but drops.total has no unit" \
	"$good_topo" "$good_traffic" "expect: [{metric: drops.total, op: '<', value: 1, tolerance: 2us}]"
printf '%s\n' "$good_topo" "$good_traffic" "expect: [{metric: name, across_seeds: p90, op: '<=', value: 1}]" >"$tmp/across-str.yaml"
expect across-string "across-str.yaml:3:[0-9]+: across_seeds: 'name' is not a number" \
	"$fabemu" check "$tmp/across-str.yaml" -q -o "$tmp/res-across-str"
expect across-string-seeds "across-str.yaml:3:[0-9]+: across_seeds: 'name' is not a number" \
	"$fabemu" check "$tmp/across-str.yaml" -q -o "$tmp/res-across-str2" --seeds 1..3
[ ! -e "$tmp/res-across-str2" ] || { echo "FAIL [across-string-seeds]: wrote a folder"; fail=1; }
expect exps-same-name "would both write .*/res-two/experiment \(two experiments of one name\)" \
	"$fabemu" run "$tmp/ok.yaml" "$tmp/ok.yaml" -q -o "$tmp/res-two"
[ ! -e "$tmp/res-two" ] || { echo "FAIL [exps-same-name]: wrote a folder"; fail=1; }
# ns-3 topology files (topology kind ns3): each bad file is an error at its
# own line and column, a file that cannot be read one at the experiment's
# file key; `fabemu topo` says the same as `fabemu run`.
ns3() { # NAME FILE TEXT REGEX: the ns-3 topology FILE holds TEXT
	printf "$3" >"$tmp/$2"
	exp "$1" "$4" "topology: {kind: ns3, file: $2}" "$good_traffic"
}
ns3_head='3 1 2\n1\n0 1 100Gbps 1000ns 0.000000\n' # line 4 is the case's
exp ns3-missing "ns3-missing.yaml:1:29: topology.file: cannot open '.*nope.txt': No such file" \
	"topology: {kind: ns3, file: nope.txt}" "$good_traffic"
mkdir "$tmp/ns3-dir.txt"
exp ns3-folder "ns3-folder.yaml:1:29: topology.file: '.*ns3-dir.txt' is a directory, not a regular file" \
	"topology: {kind: ns3, file: ns3-dir.txt}" "$good_traffic"
mkfifo "$tmp/ns3-fifo.txt"
exp ns3-fifo "ns3-fifo.yaml:1:29: topology.file: '.*ns3-fifo.txt' is a FIFO, not a regular file" \
	"topology: {kind: ns3, file: ns3-fifo.txt}" "$good_traffic"
truncate -s 65M "$tmp/ns3-big.txt"
exp ns3-too-large "ns3-too-large.yaml:1:29: topology.file: '.*ns3-big.txt' is larger than 64 MiB, the bound on an ns-3 topology file" \
	"topology: {kind: ns3, file: ns3-big.txt}" "$good_traffic"
ns3 ns3-empty n0.txt '\n' "n0.txt:1:1: empty file: an ns-3 topology file starts with 'node_num switch_num link_num'"
ns3 ns3-head n1.txt '3 1 x\n' "n1.txt:1:5: link_num: expected an integer, got 'x'"
ns3 ns3-few-links n2.txt "$ns3_head" "n2.txt:1:5: line 1 says 2 links, the file has 1"
ns3 ns3-many-links n3.txt "${ns3_head}2 1 100Gbps 1us 0\n2 1 100Gbps 1us 0\n" \
	"n3.txt:5:1: more links than line 1 says \(2\)"
ns3 ns3-few-switches n4.txt '3 2 1\n1\n0 1 1Gbps 1us 0\n' "n4.txt:2:1: line 2 lists 1 switch ids, line 1 says 2"
ns3 ns3-switch-range n5.txt '3 1 2\n3\n' "n5.txt:2:1: switch id 3 is out of range: line 1 says 3 nodes \(ids 0..2\)"
ns3 ns3-switch-twice n6.txt '3 2 2\n1 1\n' "n6.txt:2:3: switch id 1 is listed twice \(first at column 1\)"
ns3 ns3-end-range n7.txt "${ns3_head}2 9 100Gbps 1us 0\n" \
	"n7.txt:4:3: node id 9 is out of range: line 1 says 3 nodes \(ids 0..2\)"
ns3 ns3-self-loop n8.txt "${ns3_head}1 1 100Gbps 1us 0\n" "n8.txt:4:3: link connects s1 to itself"
ns3 ns3-rate n9.txt "${ns3_head}2 1 100Gbs 1us 0\n" \
	"n9.txt:4:5: bad rate '100Gbs': unknown unit \(did you mean 'Gbps'\?\); ns-3 rates here are bps, Kbps, Mbps, Gbps, Tbps"
ns3 ns3-delay n10.txt "${ns3_head}2 1 100Gbps 1000 0\n" \
	"n10.txt:4:13: bad delay '1000': missing unit: write e.g. 1us; ns-3 delays here are s, ms, us, ns or ps"
ns3 ns3-error-rate n11.txt "${ns3_head}2 1 100Gbps 1us 0.001\n" \
	"n11.txt:4:17: error rate 0.001: fabemu takes no per-link loss from a topology file; .*ports: \['h2:0', 's1:1'\], loss: 0.001"
ns3 ns3-extra n12.txt "${ns3_head}2 1 100Gbps 1us 0 x\n" "n12.txt:4:19: extra field 'x' after the error rate"
ns3 ns3-no-link n13.txt '4 1 2\n1\n0 1 1Gbps 1us 0\n2 1 1Gbps 1us 0\n' \
	"n13.txt:1:1: node 3 is a host \(not among the switch ids\) and no link names it"
printf 'topology: {kind: ns3, file: n9.txt}\n' >"$tmp/ns3-topo.yaml"
expect ns3-topo-cmd "n9.txt:4:5: bad rate '100Gbs'" "$fabemu" topo "$tmp/ns3-topo.yaml"
# A 0 that would silently stand for something else is refused: a series
# window ending at 0ns (before_ps 0 is "absent: the end"), an empty
# headroom map (headroom 0 is auto).
exp expect-before-zero "expect-before-zero.yaml:4:[0-9]+: before must be above 0 \(absent: the end of the run\)" \
	"$good_topo" "$good_traffic" "outputs: {series: {ports: ['h0:0'], interval: 1us}}" \
	"expect: [{series: queue_bytes, port: 'h0:0', op: '<', value: 1, before: 0ns}]"
exp headroom-empty "headroom-empty.yaml:3:26: headroom: \{\} names no priority" \
	"$good_topo" "$good_traffic" "fabric: {pfc: {headroom: {}}}"
# The size of a run is estimated before a workload expands: one over the
# message cap or the memory bound is refused at the workload, with the
# estimate and the bound, within seconds (under timeout 20: expanding
# first would take tens of seconds and gigabytes, and fail the case).
size() { # NAME REGEX YAML...
	local name=$1 re=$2
	shift 2
	printf '%s\n' "$@" >"$tmp/$name.yaml"
	expect "$name" "$re" timeout 20 "$fabemu" run "$tmp/$name.yaml" -o "$tmp/res-$name" -q
}
rail_topo='topology: {kind: rail-optimised, gpus_per_node: 8, rails: 8, nodes_per_unit: 2, nodes: 2}'
# 5 steps x 2 passes x 1024 microbatches x 4 tensor all-reduces of 768
# slices, and the pipeline and data-parallel sends: 31,549,440 messages,
# listed (flows.csv asked for; streamed, its collectives are bounded by
# what is in flight instead).
size size-training "size-training.yaml:2:11: training 'llama': about 31,549,440 messages \(at most 20,000,000 in one experiment; fewer steps, microbatches or ranks, or fewer bytes per collective\)" \
	"$rail_topo" "traffic: [{kind: training, name: llama, parallel: {tp: 4, pp: 2, dp: 2}, microbatches: 1024, tp_bytes: 64MiB, pp_bytes: 1MiB, dp_bytes: 64MiB, steps: 5}]" \
	"outputs: {flows_csv: true}"
# 16 x 15 pairs x 128 slices of 512 KiB (S/16 = 64 MiB) x 1000 iterations,
# listed (flows.csv asked for; a streamed all-to-all is bounded by what is
# in flight instead: docs/config.md, outputs.flows_csv).
size size-alltoall "size-alltoall.yaml:2:11: collective 'moe': about 30,720,000 messages \(at most 20,000,000 in one experiment; fewer sizes, iterations, ranks or channels, or a larger slice\)" \
	"$rail_topo" "traffic: [{kind: collective, name: moe, collective: all-to-all, size: 1GiB, iterations: 1000}]" \
	"outputs: {flows_csv: true}"
# Under the cap alone, over it with the workload before it.
size size-second "size-second.yaml:4:5: collective 'collective1': about 15,360,000 messages, 30,720,000 with the workloads before it \(at most 20,000,000" \
	"$rail_topo" "traffic:" "  - {kind: collective, collective: all-to-all, size: 1GiB, iterations: 500}" \
	"  - {kind: collective, collective: all-to-all, size: 1GiB, iterations: 500}" \
	"outputs: {flows_csv: true}"
size size-memory "size-memory.yaml:3:11: permutation 'permutation0': the run would take about [0-9.]+ MiB \(messages [0-9.]+ MiB, graph [0-9.]+ MiB, fabric [0-9.]+ MiB, packet pool [0-9.]+ MiB\), more than engine.max_memory \(1.0 MiB\); fewer hosts" \
	"$good_topo" "engine: {max_memory: 1MiB}" "$good_traffic"
# The pool the run sizes itself (payload packets of 1 GiB messages) is
# known once the traffic is: the whole experiment is checked then.
size size-pool "size-pool.yaml:4:10: the run would take about [0-9.]+ GiB \(messages [0-9.]+ MiB, graph [0-9.]+ MiB, fabric [0-9.]+ MiB, packet pool [0-9.]+ GiB\), more than engine.max_memory \(1.0 GiB\) \(a smaller fabric, traffic or engine.packet_pool\)" \
	"$good_topo" "nic: {payload: true}" "engine: {max_memory: 1GiB}" "traffic: [{kind: permutation, size: 1GiB}]"
# A streamed all-reduce run to completion keeps a 24-byte record of each
# of its 516,096 messages (11.8 MiB): over the bound with it, where the
# same run to a stop_time (352.7 MiB) fits; the message names stop_time.
size size-stream-records "size-stream-records.yaml:6:10: the run would take about 364.[0-9] MiB \(messages 11.9 MiB, graph 0.0 MiB, fabric [0-9.]+ MiB, packet pool [0-9.]+ MiB\), more than engine.max_memory \(360.0 MiB\) \(a smaller fabric, traffic or engine.packet_pool; a stop_time: run to completion, every streamed message's record is kept\)" \
	"name: big" "topology: {kind: leaf-spine, leaves: 4, spines: 2, hosts_per_leaf: 16, host_link: {rate: 400Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}" \
	"nic: {mtu: 4096}" "outputs: {flows_csv: false}" "engine: {max_memory: 360MiB}" \
	"traffic: [{kind: collective, name: ar, collective: all-reduce, size: 2GiB}]"
# A congestion control that reacts to marks only (DCQCN, IB CC) where the
# link layer marks nothing: refused at its cc key, naming the key that
# marks on this layer and the other layer's marking that does not apply
# (docs/config.md, "What congestion control acts on").
exp cc-unmarked-ib "cc-unmarked-ib.yaml:3:11: congestion control 'dcqcn' reacts to congestion marks only, but nothing marks its packets with fabric.link_layer: infiniband \(fabric.ib_cc is off; fabric.ecn marks only with fabric.link_layer: roce or uet\): it would never slow a sender down" \
	"$good_topo" "$good_traffic" "nic: {cc: dcqcn}" "fabric: {link_layer: infiniband, ecn: {tcs: [3]}}"
exp cc-unmarked-roce "cc-unmarked-roce.yaml:2:74: congestion control 'ibcc' reacts to congestion marks only, but nothing marks its packets with fabric.link_layer: roce \(fabric.ecn is off; fabric.ib_cc marks only with fabric.link_layer: infiniband\): it would never slow a sender down" \
	"$good_topo" "traffic: [{kind: permutation, size: 64KiB}, {kind: incast, count: 2, cc: ibcc, dst: h0, size: 64KiB}]" \
	"fabric: {ib_cc: {threshold: 15}}"
exp cc-unmarked-none "cc-unmarked-none.yaml:3:11: congestion control 'dcqcn' reacts to congestion marks only, but nothing marks its packets with fabric.link_layer: roce \(fabric.ecn is off\): it would never slow a sender down" \
	"$good_topo" "$good_traffic" "nic: {cc: dcqcn}"
exp cc-unmarked-class "cc-unmarked-class.yaml:3:11: congestion control 'dcqcn' reacts to congestion marks only, but nothing marks its packets with fabric.link_layer: roce \(fabric.ecn marks none of the classes its traffic uses\): it would never slow a sender down" \
	"$good_topo" "$good_traffic" "nic: {cc: dcqcn}" "fabric: {ecn: {tcs: [5]}}"
# A workload's own algorithm that reads INT is refused at its own cc key.
exp ib-hpcc-workload "ib-hpcc-workload.yaml:2:48: congestion control 'hpcc' reads in-band telemetry, which is not modelled with fabric.link_layer: infiniband" \
	"$good_topo" "traffic: [{kind: permutation, size: 64KiB, cc: hpcc}]" "fabric: {link_layer: infiniband}"
# Live mode (issue 27): the live: section is read by every command; its
# errors at their place, fabemu run refusing a file with live ports, and
# fabemu live's own checks before any device is made (so these need no
# root).
live_topo='topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 2}'
exp live-switch "live-switch.yaml:3:23: leaf0 is a switch: a live port takes the place of a host's NIC port" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'leaf0:0', iface: t0}]}"
exp live-iface "live-iface.yaml:3:38: iface 'a,b': 1 to 15 letters, digits, '_', '.' or '-'" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: 'a,b'}]}"
exp live-iface-long "live-iface-long.yaml:3:38: iface 'abcdefghijklmnop': 1 to 15" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: abcdefghijklmnop}]}"
exp live-netns-af "live-netns-af.yaml:3:68: netns: an af_packet port opens an interface where it already is" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0, driver: af_packet, netns: x}]}"
exp live-dup "live-dup.yaml:3:50: h0:0 is live already \(line 3\)" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0}, {port: 'h0:0', iface: t1}]}"
exp live-dilation "live-dilation.yaml:3:18: 0.5 is below the minimum 1" \
	"$live_topo" "traffic: []" "live: {dilation: 0.5, ports: [{port: 'h0:0', iface: t0}]}"
exp live-ib "live-ib.yaml:3:7: live ports need an Ethernet fabric \(fabric.link_layer: roce\), not infiniband" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0}]}" "fabric: {link_layer: infiniband}"
exp live-uet "live-uet.yaml:3:7: live ports need an Ethernet fabric \(fabric.link_layer: roce\), not uet" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0}]}" "fabric: {link_layer: uet}"
exp live-run "live-run.yaml:3:16: live.ports binds h0:0 to a real endpoint: run this experiment with fabemu live" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0}]}"
exp live-memif-socket "live-memif-socket.yaml:3:16: a memif port needs socket: the path of its control socket" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: m0, driver: memif}]}"
exp live-memif-path "live-memif-path.yaml:3:65: socket 'rel/x.sock': an absolute path" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: m0, driver: memif, socket: rel/x.sock}]}"
exp live-role-tap "live-role-tap.yaml:3:48: role: only a memif port has one" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0, role: client}]}"
exp live-tap-mtu "live-tap-mtu.yaml:3:13: live.mtu 4096: a tap port carries at most 1500" \
	"$live_topo" "traffic: []" "live: {mtu: 4096B, ports: [{port: 'h0:0', iface: t0}]}"
printf '%s\n' "$live_topo" "traffic: []" >"$tmp/live-none.yaml"
expect live-none "fabemu live: .*live-none.yaml has no live ports \(live.ports\)" \
	"$fabemu" live "$tmp/live-none.yaml" -q -o "$tmp/res-live"
printf '%s\n' "$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0, netns: fabemu-no-such-ns}]}" >"$tmp/live-ns.yaml"
expect live-netns-missing "live-ns.yaml:3:16: live port t0: network namespace 'fabemu-no-such-ns' does not exist" \
	"$fabemu" live "$tmp/live-ns.yaml" -q -o "$tmp/res-live"
printf '%s\n' "$live_topo" "traffic: [{kind: collective, collective: all-gather, ranks: [h0, h1], size: 4KiB}]" \
	"live: {ports: [{port: 'h1:0', iface: t0}]}" >"$tmp/live-traffic.yaml"
expect live-traffic "live-traffic.yaml:3:16: live port h1:0: workload 'collective0' sends (from|to) it in a dependency graph" \
	"$fabemu" live "$tmp/live-traffic.yaml" -q -o "$tmp/res-live"
expect live-junit "live: --junit goes with --check" \
	"$fabemu" live "$tmp/live-ns.yaml" --junit "$tmp/j.xml"
expect live-threads "live: --threads and --partitions: a live run is one thread" \
	"$fabemu" live "$tmp/live-ns.yaml" --threads 2
# Ultra Ethernet (fabric.link_layer: uet): what it does not carry, and
# settings that would break it, each at its key (docs/config.md, "Ultra
# Ethernet").
exp uet-gbn "uet-gbn.yaml:4:17: fabric.link_layer: uet delivers by selective acknowledgement: nic.recovery must be selective-repeat \(or absent; or fabric.uet.delivery: rod\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {recovery: go-back-n}"
exp uet-dcqcn "uet-dcqcn.yaml:4:11: congestion control 'dcqcn' needs CNPs, which fabric.link_layer: uet does not carry \(UET echoes marks in ACKs: dctcp, swift, timely or none\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, ecn: {tcs: [3]}}" "nic: {cc: dcqcn}"
exp uet-hpcc "uet-hpcc.yaml:4:11: congestion control 'hpcc' needs an INT stack in ACKs, which fabric.link_layer: uet does not carry" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: hpcc}"
exp uet-int "uet-int.yaml:3:32: fabric.int: UET frames carry no INT stack \(fabric.link_layer: uet\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, int: true}"
exp uet-read "uet-read.yaml:3:22: fabric.link_layer: uet models WRITEs and SENDs; RDMA READ is not modelled over UET" \
	"$good_topo" "traffic: [{kind: permutation, size: 64KiB, op: read}]" "fabric: {link_layer: uet}"
exp uet-trim-small "uet-trim-small.yaml:3:45: size 60 bytes is below the minimum 64 bytes" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {trim_bytes: 60B}}"
exp uet-trim-dscp "uet-trim-dscp.yaml:3:44: fabric.uet.trim_dscp 26 is the DSCP of data packets: every data packet would read as trimmed" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {trim_dscp: 26}}"
exp uet-trim-last-dscp "uet-trim-last-dscp.yaml:3:52: fabric.uet.trim_lasthop_dscp 26 is the DSCP of data packets: every data packet would read as trimmed" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {trim_lasthop_dscp: 26}}"
exp uet-trim-pick "uet-trim-pick.yaml:3:44: unknown value 'tail' \(valid: arriving, either\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {trim_pick: tail}}"
exp uet-trim-last-dscp-range "uet-trim-last-dscp-range.yaml:3:52: 64 is above the maximum 63" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {trim_lasthop_dscp: 64}}"
exp uet-spray "uet-spray.yaml:3:40: unknown value 'random' \\(valid: off, oblivious, recycle, mixed\\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {spray: random}}"
exp uet-rod-spray "uet-rod-spray.yaml:3:32: fabric.uet.delivery: rod needs its packets in order, on one path: fabric.uet.spray must be off" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {delivery: rod}}"
exp uet-rod-sr "uet-rod-sr.yaml:4:17: fabric.uet.delivery: rod delivers in order: nic.recovery must be go-back-n \(or absent\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {delivery: rod, spray: off}}" "nic: {recovery: selective-repeat}"
exp uet-evs "uet-evs.yaml:3:38: 0 is below the minimum 1" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {evs: 0}}"
exp queue-limit-zero "queue-limit-zero.yaml:3:23: size 0 bytes is below the minimum 64 bytes" \
	"$good_topo" "$good_traffic" "fabric: {queue_limit: 0B}"
exp nscc-factor "nscc-factor.yaml:3:39: 0 is below the minimum 0.01" \
	"$good_topo" "$good_traffic" "nic: {cc: nscc, nscc: {target_factor: 0}}"
# RCCC (receiver credit): UET's only, on reliable unordered delivery; its
# settings' ranges and units.
exp rccc-roce "rccc-roce.yaml:3:11: congestion control 'rccc' is Ultra Ethernet's receiver credit: it needs fabric.link_layer: uet \(this is roce\)" \
	"$good_topo" "$good_traffic" "nic: {cc: rccc}"
exp rccc-ib-workload "rccc-ib-workload.yaml:2:48: congestion control 'rccc' is Ultra Ethernet's receiver credit: it needs fabric.link_layer: uet \(this is infiniband\)" \
	"$good_topo" "traffic: [{kind: permutation, size: 64KiB, cc: rccc}]" "fabric: {link_layer: infiniband}"
exp rccc-rod "rccc-rod.yaml:4:11: congestion control 'rccc' runs on reliable unordered delivery here: fabric.uet.delivery: rod is not modelled with receiver credit" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {delivery: rod, spray: off}}" "nic: {cc: rccc}"
exp nscc-rccc-roce "nscc-rccc-roce.yaml:3:11: congestion control 'nscc\+rccc' is Ultra Ethernet's receiver credit: it needs fabric.link_layer: uet \(this is roce\)" \
	"$good_topo" "$good_traffic" "nic: {cc: nscc+rccc}"
exp nscc-rccc-rod "nscc-rccc-rod.yaml:4:11: congestion control 'nscc\+rccc' runs on reliable unordered delivery here: fabric.uet.delivery: rod is not modelled with receiver credit" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet, uet: {delivery: rod, spray: off}}" "nic: {cc: nscc+rccc}"
exp nscc-rccc-credit "nscc-rccc-credit.yaml:4:43: credit_bytes 1000 is not a multiple of 256 \(credit counts in 256-byte units\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: nscc+rccc, rccc: {credit_bytes: 1000B}}"
exp ecn-host-links "ecn-host-links.yaml:3:28: expected true or false, got 'maybe'" \
	"$good_topo" "$good_traffic" "fabric: {ecn: {host_links: maybe}}"
exp rccc-credit-unit "rccc-credit-unit.yaml:4:38: credit_bytes 1000 is not a multiple of 256 \(credit counts in 256-byte units\)" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: rccc, rccc: {credit_bytes: 1000B}}"
exp rccc-credit-small "rccc-credit-small.yaml:4:38: size 128 bytes is below the minimum 256 bytes" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: rccc, rccc: {credit_bytes: 128B}}"
exp rccc-rate "rccc-rate.yaml:4:30: 0 is below the minimum 0.01" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: rccc, rccc: {rate: 0}}"
exp rccc-rate-high "rccc-rate-high.yaml:4:30: 1.5 is above the maximum 1" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: rccc, rccc: {rate: 1.5}}"
exp rccc-max-credit "rccc-max-credit.yaml:4:36: 0 is below the minimum 0.01" \
	"$good_topo" "$good_traffic" "fabric: {link_layer: uet}" "nic: {cc: rccc, rccc: {max_credit: 0}}"
# pci ports (real NICs): the address's form and the keys that go with it,
# and a device that is not there (fabemu live's check, before the EAL).
exp live-pci-none "live-pci-none.yaml:3:16: a pci port needs pci: the NIC's PCI address" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: n0, driver: pci}]}"
exp live-pci-form "live-pci-form.yaml:3:60: pci '3b:00.8': a PCI address, \[DDDD:\]BB:DD.F in hex" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: n0, driver: pci, pci: '3b:00.8'}]}"
exp live-pci-tap "live-pci-tap.yaml:3:47: pci: only a pci port has a PCI address" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: t0, pci: '3b:00.0'}]}"
exp live-pci-netns "live-pci-netns.yaml:3:78: netns: a pci port's NIC is DPDK's" \
	"$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: n0, driver: pci, pci: '3b:00.0', netns: x}]}"
printf '%s\n' "$live_topo" "traffic: []" "live: {ports: [{port: 'h0:0', iface: n0, driver: pci, pci: 'ff:1f.7'}]}" \
	>"$tmp/live-pci-absent.yaml"
expect live-pci-absent "live-pci-absent.yaml:3:16: live port n0: no PCI device 0000:ff:1f.7 here" \
	"$fabemu" live "$tmp/live-pci-absent.yaml" -q -o "$tmp/res-live"
[ "$fail" -eq 0 ] && echo "bad input: OK ($n cases)"
exit "$fail"
