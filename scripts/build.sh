#!/usr/bin/env bash
# Configures and builds gpusql into build/ (or $GPUSQL_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_BUILD_DIR:-build}
jobs=${GPUSQL_JOBS:-$(nproc)}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build "$build" -j "$jobs"
