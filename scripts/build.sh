#!/usr/bin/env bash
# Configures and builds gpusql into build/ (or $GPUSQL_BUILD_DIR).
# Usage: scripts/build.sh [TARGET ...] [-DCMAKE_OPTION=... ...]
#   no TARGET: everything (library, shell, tests, benchmarks, example);
#   scripts/build.sh gpusql: only the shell and the library it links, what
#   scripts/demo.sh needs. Arguments starting with '-' go to CMake's first
#   configure of the build folder, as before.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_BUILD_DIR:-build}
jobs=${GPUSQL_JOBS:-$(nproc)}
args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
command -v ninja >/dev/null && args+=(-G Ninja)
# ccache, where installed, makes rebuilds in several build folders cheap.
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
targets=()
for arg in "$@"; do
  if [[ $arg == -* ]]; then args+=("$arg"); else targets+=("$arg"); fi
done
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" "${args[@]}"
if [ ${#targets[@]} -eq 0 ]; then
  cmake --build "$build" -j "$jobs"
else
  cmake --build "$build" -j "$jobs" --target "${targets[@]}"
fi
