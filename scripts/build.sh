#!/usr/bin/env bash
# Configures and builds gpusql into build/ (or $GPUSQL_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_BUILD_DIR:-build}
jobs=${GPUSQL_JOBS:-$(nproc)}
args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
command -v ninja >/dev/null && args+=(-G Ninja)
# ccache, where installed, makes rebuilds in several build folders cheap.
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" "${args[@]}" "$@"
cmake --build "$build" -j "$jobs"
