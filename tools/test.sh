#!/usr/bin/env bash
# Set everything up and run the whole test suite (unit and scenario tests):
# what README's test command and CI run.
set -eu
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh build
meson test -C build --print-errorlogs --num-processes 2
