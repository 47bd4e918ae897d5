#!/usr/bin/env bash
# Builds examples/consumer, a project outside gpusql, against gpusql both
# ways CMake offers, and runs it on the host executor:
#   1. find_package(gpusql): build/ installed into a temporary prefix;
#   2. add_subdirectory(): the library built afresh in the consumer's tree
#      (the slow half: every .cu file again).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_BUILD_DIR:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
run() {
  local out
  out=$("$1" sample_data/records.csv host)
  grep -q "^n=12 " <<<"$out" || { echo "$1 printed:"; echo "$out"; return 1; }
  echo "$1: ok"
}
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S examples/consumer -B "$work/installed" "${generator[@]}" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/installed" >/dev/null
run "$work/installed/consumer"
cmake -S examples/consumer -B "$work/subdir" "${generator[@]}" -DGPUSQL_SOURCE_DIR="$PWD" -DGPUSQL_WITH_READLINE=OFF \
  >/dev/null
cmake --build "$work/subdir" --target consumer -j "${GPUSQL_JOBS:-$(nproc)}" >/dev/null
run "$work/subdir/consumer"
