#!/usr/bin/env bash
# Set everything up and run the quickstart experiment.
set -eu
cd "$(dirname "$0")/.."
tools/install-deps.sh
tools/build.sh build >/dev/null
./build/tools/fabemu run experiments/quickstart.yaml "$@"
