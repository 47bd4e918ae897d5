#!/usr/bin/env bash
# Builds the CSV reader's libFuzzer target (fuzz/csv_fuzz.cpp) with clang
# under ASan and UBSan, and runs it for a bounded time over the checked-in
# seed corpus fuzz/corpus/csv/ (new finds go to a scratch copy, so the
# checked-in corpus only changes by hand). Exits non-zero on a crash, a leak,
# undefined behaviour, or the parallel and sequential readers disagreeing.
#
#   scripts/fuzz-csv.sh [SECONDS]      default 120; CI can pass less
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
out=${GPUSQL_FUZZ_DIR:-build-fuzz}
cuda=${CUDA_HOME:-/usr/local/cuda}
cxx=${CLANGXX:-clang++}
mkdir -p "$out/corpus"
sources=(fuzz/csv_fuzz.cpp common/*.cpp storage/*.cpp engine/result.cpp engine/error.cpp)
# Rebuild only when a source changed.
if [ ! -x "$out/csv_fuzz" ] || [ -n "$(find "${sources[@]}" common/*.hpp storage/*.hpp include -newer "$out/csv_fuzz" 2>/dev/null | head -1)" ]; then
  echo "fuzz-csv: building $out/csv_fuzz" >&2
  "$cxx" -std=c++20 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I. -Iinclude -isystem "$cuda/include" \
    "${sources[@]}" -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcudart -lpthread \
    -o "$out/csv_fuzz"
fi
cp -n fuzz/corpus/csv/* "$out/corpus/" 2>/dev/null || true
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$out/csv_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$out/" "$out/corpus" fuzz/corpus/csv
