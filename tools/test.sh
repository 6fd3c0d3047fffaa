#!/usr/bin/env bash
# Set everything up and run the whole test suite (unit and scenario tests),
# once on a normal build and once under AddressSanitizer and
# UndefinedBehaviorSanitizer: what README's test command and CI run.
# FABEMU_NO_SANITIZE=1 skips the second pass.
set -eu
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh build
meson test -C build --print-errorlogs --num-processes 2
if [ "${FABEMU_NO_SANITIZE:-0}" != 1 ]; then
	[ -f build-san/build.ninja ] ||
		meson setup build-san -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
	ninja -C build-san
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		meson test -C build-san --print-errorlogs --num-processes 2
fi
