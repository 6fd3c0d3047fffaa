#!/usr/bin/env bash
# Network namespaces for fabemu live (docs/user-guide.md, "Live mode").
#
#   tools/live-netns.sh up NS...     make each namespace (kept if it exists)
#   tools/live-netns.sh down NS...   delete each one (and what is left in it)
#   tools/live-netns.sh check        can this machine do live runs? (exit 0
#                                    yes, 77 no, saying why)
#
# fabemu live makes the TAP of each live port, moves it into the namespace
# its live.ports entry names and addresses it there; the namespaces
# themselves are made here, once, by root. Exit 2 for a bad command line,
# 77 where this machine does not allow it (not root, no /dev/net/tun, no
# namespaces): the exit status tests take as "skipped".
set -euo pipefail

usage() {
	sed -n '2,13p' "$0" >&2
	exit 2
}

# Why live runs cannot be made here, or nothing.
why_not() {
	if [ "$(id -u)" != 0 ]; then
		echo "not root: making TAPs and namespaces needs root (CAP_NET_ADMIN)"
	elif [ ! -c /dev/net/tun ] || [ ! -r /dev/net/tun ] || [ ! -w /dev/net/tun ]; then
		echo "no usable /dev/net/tun: TAP devices cannot be made"
	elif ! command -v ip >/dev/null; then
		echo "no ip command (Debian package iproute2)"
	else
		local probe="fabemu-probe-$$"
		if ! ip netns add "$probe" 2>/dev/null; then
			echo "ip netns add is not permitted here (a container without CAP_SYS_ADMIN?)"
		else
			ip netns delete "$probe"
		fi
	fi
}

valid_name() {
	[[ "$1" =~ ^[A-Za-z0-9_.-]{1,64}$ ]] && [ "$1" != . ] && [ "$1" != .. ]
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
check)
	why=$(why_not)
	if [ -n "$why" ]; then
		echo "live mode not possible here: $why" >&2
		exit 77
	fi
	echo "live mode possible here"
	;;
up | down)
	[ $# -ge 1 ] || usage
	for ns in "$@"; do
		valid_name "$ns" || { echo "$0: bad namespace name '$ns' (letters, digits, _ . -)" >&2; exit 2; }
	done
	why=$(why_not)
	if [ -n "$why" ]; then
		echo "$0: cannot $cmd namespaces: $why" >&2
		exit 77
	fi
	for ns in "$@"; do
		if [ "$cmd" = up ]; then
			[ -e "/run/netns/$ns" ] || ip netns add "$ns"
			ip -n "$ns" link set dev lo up
		elif [ -e "/run/netns/$ns" ]; then
			ip netns delete "$ns"
		fi
	done
	;;
*)
	usage
	;;
esac
