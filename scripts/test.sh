#!/usr/bin/env bash
# Runs the whole test suite (after scripts/build.sh). Where no GPU is usable
# the [gpu] tests are skipped and the run says so.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_BUILD_DIR:-build}
ctest --test-dir "$build" --output-on-failure -V
