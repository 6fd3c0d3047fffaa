#!/usr/bin/env bash
# Install the Debian 12 packages fabemu builds, tests and runs with, when
# missing. Needs root (or sudo). Safe to run again: installed packages are
# skipped and nothing is downloaded when all are present.
#   tools/install-deps.sh          what the build, a run and the quick test
#                                  set need
#   tools/install-deps.sh --full   also what only the release set, the
#                                  fuzzing run and the nightly memcheck
#                                  need (clang and its runtimes, valgrind,
#                                  OpenMPI)
set -eu
case "${1:-}" in
'' | --full) ;;
*) echo "usage: tools/install-deps.sh [--full]" >&2; exit 2 ;;
esac
pkgs=(
	gcc
	gnuplot-nox       # fabemu plot draws with it (and its scenario test)
	graphviz          # lays out fabemu topo --dot (dot -Tsvg; checked in a test)
	libcunit1-dev     # unit tests
	libdpdk-dev       # rte_mbuf packets, mempools, EAL
	libibverbs-dev    # rdma-core verbs types of the NIC API
	libpcap-dev       # captures
	libxml2-utils     # xmllint: the JUnit tests validate reports against tests/scenarios/junit.xsd
	libyaml-dev       # experiment files
	meson
	ninja-build
	pkg-config
	python3           # scenario tests read summary.json and compare results
	tshark            # decoder checks in the tests
)
if [ "${1:-}" = --full ]; then
	pkgs+=(
		clang              # the fuzz targets (libFuzzer, tools/fuzz-smoke.sh)
		libclang-rt-14-dev # libFuzzer and the sanitizer runtimes for clang
		valgrind           # the nightly memcheck pass (tests/scenarios/memcheck.sh)
		libopenmpi-dev     # mpirun -np N fabemu: sweeps over processes (meson finds it)
		openmpi-bin        # mpirun, for the mpi test
	)
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
# tshark asks whether non-root users may capture; answer no, non-interactively.
echo 'wireshark-common wireshark-common/install-setuid boolean false' | $sudo debconf-set-selections
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
