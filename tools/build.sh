#!/usr/bin/env bash
# Configure (once) and build fabemu in ./build (or $1).
set -eu
cd "$(dirname "$0")/.."
dir=${1:-build}
[ -f "$dir/build.ninja" ] || meson setup "$dir" >/dev/null
ninja -C "$dir"
