#!/usr/bin/env bash
# tshark_check.sh: decode a fabemu capture with tshark and fail on anything a
# network engineer would not want to see in Wireshark.
#
#   tshark_check.sh PCAP [OPCODE:COUNT,...]     e.g. 6:1,7:10,8:1,17:2
#
# Fails (exit 1) when
#   - tshark cannot read the file,
#   - any frame carries _ws.malformed or an expert item of severity "error",
#   - a frame to UDP port 4791 (RoCEv2) does not decode a BTH,
#   - OPCODE:COUNT is given and the BTH opcode counts (decimal, CNP = 129)
#     are not exactly those.
# Exits 77 (meson's "skipped") when tshark is not installed.
#
# Truncated frames (payload not materialised, caplen < len), as checked with
# tshark 4.0.17: when only the payload is missing, the InfiniBand dissector
# decodes BTH/RETH/AETH and writes "Invalid Packet Length from LRH!
# [Malformed Packet]" into the Info column, but adds no _ws.malformed field,
# no expert item and no _ws.short; it is a column label only, so it passes.
# When the cut falls inside the BTH or its extension headers (a snaplen below
# the headers) tshark reports "[Packet size limited during capture]"
# (_ws.short), which also passes, except that a cut inside the BTH fails the
# "decodes a BTH" rule.
set -u

prog=tshark_check
max_listed=20 # problems printed before the summary line

die() {
	echo "$prog: FAIL: $*" >&2
	exit 1
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $prog PCAP [OPCODE:COUNT,...]" >&2
	exit 2
fi
pcap=$1
want=${2:-}

if ! command -v tshark >/dev/null 2>&1; then
	echo "$prog: SKIP: tshark not found on PATH (Debian: apt-get install tshark)" >&2
	exit 77
fi
[ -r "$pcap" ] || die "$pcap: cannot read"

if [ -n "$want" ] && ! [[ $want =~ ^[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*$ ]]; then
	echo "$prog: bad opcode counts '$want' (expected OPCODE:COUNT[,OPCODE:COUNT...])" >&2
	exit 2
fi

errlog=$(mktemp)
trap 'rm -f "$errlog"' EXIT

# One pass; one line per frame. Severity 8388608 is PI_ERROR.
# The RPC-over-RDMA heuristic (enabled by default in Wireshark 4.0) claims
# every RC SEND payload and throws "Malformed Packet: RPCoRDMA" on SENDs of
# fewer than 16 bytes, whatever the bytes are; fabemu's payload is no
# upper-layer protocol, so that guess is switched off, as a user would in
# Analyze > Enabled Protocols (see docs/wire-formats.md).
if ! fields=$(tshark --disable-protocol rpcordma -r "$pcap" -T fields -E separator=/t -E occurrence=a -E aggregator=, \
	-e frame.number -e frame.len -e frame.cap_len -e udp.dstport \
	-e infiniband.bth.opcode -e _ws.malformed -e _ws.expert.severity \
	-e _ws.expert.message 2>"$errlog"); then
	grep -v 'Running as user' "$errlog" >&2
	die "$pcap: tshark could not read the file"
fi

report=$(printf '%s\n' "$fields" | awk -F '\t' '
	$1 == "" { next }
	{
		n++
		if ($3 + 0 < $2 + 0)
			short++
		roce = 0
		k = split($4, ports, ",")
		for (i = 1; i <= k; i++)
			if (ports[i] == "4791")
				roce = 1
		split($5, ops, ",")
		if (roce) {
			n_roce++
			if ($5 == "")
				printf "BAD frame %s: UDP 4791 but no BTH decoded\n", $1
			else
				count[ops[1]]++
		}
		if ($6 != "")
			printf "BAD frame %s: malformed (%s)\n", $1, $8
		else if (index("," $7 ",", ",8388608,") > 0)
			printf "BAD frame %s: expert error (%s)\n", $1, $8
	}
	END {
		printf "FRAMES %d %d %d\n", n, n_roce, short
		for (op in count)
			printf "OP %s:%d\n", op, count[op]
	}')

bad=$(printf '%s\n' "$report" | grep '^BAD ' | sed 's/^BAD //')
got=$(printf '%s\n' "$report" | sed -n 's/^OP //p' | sort -t: -k1,1n | paste -sd, -)
read -r _ n_frames n_roce n_short <<<"$(printf '%s\n' "$report" | grep '^FRAMES ')"

if [ -n "$bad" ]; then
	n_bad=$(printf '%s\n' "$bad" | wc -l)
	printf '%s\n' "$bad" | head -n "$max_listed" | sed "s|^|$prog: $pcap: |" >&2
	[ "$n_bad" -le "$max_listed" ] || echo "$prog: $pcap: ... $((n_bad - max_listed)) more" >&2
	die "$pcap: $n_bad problem(s)"
fi
if [ -n "$want" ]; then
	# Numeric form, zero counts dropped, sorted like $got.
	want_sorted=$(printf '%s\n' "$want" | tr ',' '\n' |
		awk -F: '$2 + 0 > 0 { printf "%d:%d\n", $1, $2 }' | sort -t: -k1,1n | paste -sd, -)
	[ "$got" = "$want_sorted" ] ||
		die "$pcap: BTH opcode counts ${got:-none}, expected $want_sorted"
fi
echo "$prog: OK: $pcap: $n_frames frames, $n_roce RoCEv2 ($n_short truncated)," \
	"opcodes ${got:-none}"
exit 0
