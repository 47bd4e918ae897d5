#!/usr/bin/env bash
# Builds the host code and the test suite with AddressSanitizer and
# UndefinedBehaviorSanitizer (clang, GPUSQL_SANITIZE=ON, any UB report fatal)
# into build-sanitize/ (or $GPUSQL_SANITIZE_BUILD_DIR), and runs the tests
# there. The build also carries libFuzzer's coverage instrumentation, so the
# fuzz targets (scripts/fuzz-*.sh) link against the same library.
#   usage: scripts/sanitize.sh [--build-only] [test spec, e.g. "[sql]"]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_SANITIZE_BUILD_DIR:-build-sanitize}
jobs=${GPUSQL_JOBS:-$(nproc)}
build_only=0
if [ "${1:-}" = --build-only ]; then build_only=1; shift; fi

args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSQL_SANITIZE=ON
      -DCMAKE_CXX_COMPILER=clang++
      "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all")
command -v ninja >/dev/null && args+=(-G Ninja)
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" "${args[@]}" >/dev/null
cmake --build "$build" -j "$jobs"
[ $build_only = 1 ] && exit 0

# protect_shadow_gap=0: the CUDA runtime maps memory where ASan keeps its gap.
export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1:check_initialization_order=1:strict_init_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Fewer differential seeds than the plain run: sanitized code is slower.
export GPUSQL_DIFF_SEEDS=${GPUSQL_DIFF_SEEDS:-100}
# Hidden ([.]) tests stay out unless asked for: some are benchmarks-sized.
[ $# -gt 0 ] || set -- "~[.]"
"$build/tests/gpusql_tests" "$@"
