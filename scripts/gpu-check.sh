#!/usr/bin/env bash
# On the GPU machine: build with all cores, run the whole test suite (the
# [gpu] tests included), compute-sanitizer memcheck and racecheck over the
# [gpu] tests, the acceptance queries on both executors, and the benchmarks.
# Everything it prints also goes to $OUT/gpu-check.log (OUT defaults to ./out).
# The machine has no package manager: run scripts/fetch-device-deps.sh here
# first and carry .deps/usr (device tool: carry [".deps/usr"]); it holds
# DuckDB's library gzipped, unpacked here for the [duckdb] differential tests.
#   usage: scripts/gpu-check.sh [--no-tests] [--no-sanitizer] [--no-bench]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
log=$OUT/gpu-check.log
exec > >(tee "$log") 2>&1
sanitize=1 bench=1 tests=1
for arg in "$@"; do
  case $arg in
    --no-tests) tests=0 ;;
    --no-sanitizer) sanitize=0 ;;
    --no-bench) bench=0 ;;
  esac
done
status=0
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }

step "machine"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader
nvcc --version | tail -1
git rev-parse --short HEAD 2>/dev/null || true

step "build"
if [ -f .deps/usr/share/gpusql/libduckdb.so.gz ] && [ ! -f .deps/duckdb/libduckdb.so ]; then
  mkdir -p .deps/duckdb && gunzip -c .deps/usr/share/gpusql/libduckdb.so.gz > .deps/duckdb/libduckdb.so
fi
prefix=()
if [ -d .deps/usr ]; then
  ln -sf /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 .deps/usr/lib/x86_64-linux-gnu/libsqlite3.so
  prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/usr")
fi
build=${GPUSQL_BUILD_DIR:-build-gpu}  # GPUSQL_BUILD_DIR: keep a build outside a carried tree
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSQL_WITH_READLINE=OFF "${prefix[@]}" >/dev/null \
  || { echo "configure failed"; exit 1; }
time cmake --build $build -j "$(nproc)" 2>&1 | grep -Ev "^\[[0-9]+/[0-9]+\] " || true
[ -x $build/tests/gpusql_tests ] || { echo "build failed"; exit 1; }

if [ $tests = 1 ]; then
step "tests (host and [gpu])"
$build/tests/gpusql_tests || status=1

step "tests: [gpu] with durations"
$build/tests/gpusql_tests "[gpu]" --durations yes || status=1

# The CUDA executor against the host one (and the oracles) over more seeds
# than the suite's own: the four modes at about 0.25 s a seed each. Seeds
# past the suite's found plans and errors that differed by executor.
step "tests: [gpu][differential], ${GPUSQL_GPU_DIFF_SEEDS:-300} seeds from 1001"
GPUSQL_DIFF_FIRST_SEED=1001 GPUSQL_DIFF_SEEDS=${GPUSQL_GPU_DIFF_SEEDS:-300} \
  $build/tests/gpusql_tests "[gpu][differential]" || status=1
fi

step "acceptance query"
q="SELECT COUNT(*), SUM(weight), MIN(weight), MAX(height) FROM records WHERE weight < 0.1 OR height > 0.9"
for device in host gpu; do
  echo "-device $device:"
  $build/gpusql -device $device -load records=sample_data/records.csv -csv -c "$q" || status=1
done

if [ $sanitize = 1 ]; then
  # [large] (millions of rows) and the differential batch (thousands of
  # queries) would run for many minutes under either tool. Each run's whole
  # report goes to $OUT/sanitizer-<tool>[-group].log; the first reports
  # (which kernel, which address) and the summary are printed here.
  sanitize_run() {  # tool, log name, test filter
    compute-sanitizer --tool "$1" --error-exitcode 99 $build/tests/gpusql_tests "$3" --durations yes \
      > "$OUT/sanitizer-$2.log" 2>&1
    local rc=$?
    grep -E "^========= +(Invalid|Race|Error|Program hit|at |by thread|Address)" "$OUT/sanitizer-$2.log" | head -40
    grep -E "^(test cases|assertions):|FAILED|All tests passed" "$OUT/sanitizer-$2.log" | head -10
    tail -1 "$OUT/sanitizer-$2.log"
    [ $rc = 0 ] || status=1
  }
  step "compute-sanitizer --tool memcheck on [gpu] tests"
  sanitize_run memcheck memcheck "[gpu]~[large]~[differential]"
  # racecheck checks every shared-memory access and runs far slower, so it
  # runs in four groups of a few minutes each (the device tool's commands
  # end at 10 minutes). It leaves out the full nested-loop join case
  # ([nlj]; [nlj-small] runs its kernels over two tiles), the SQL logic
  # files ([sql]: more than 6 minutes; their kernels are the other cases'
  # kernels) and the small ORDER BY path's full case ([small-sort];
  # [small-sort-light] runs its kernels over 3 x 3 blocks).
  step "compute-sanitizer --tool racecheck on [gpu] tests, in four groups"
  sanitize_run racecheck racecheck-filter-catalog "[gpu][filter],[gpu][catalog]"
  sanitize_run racecheck racecheck-aggregate-star \
    "[gpu][star],[gpu][aggregate],[nlj-small],[small-sort-light],[gpu][topk]~[large]"
  sanitize_run racecheck racecheck-operators-executor \
    "[gpu]~[filter]~[aggregate]~[star]~[catalog]~[sort]~[topk]~[nlj]~[nlj-small]~[sql]~[differential]~[large]~[operators],[gpu][operators]~[large]"
  sanitize_run racecheck racecheck-sort "[gpu][sort]~[small-sort]~[small-sort-light]"
fi

if [ $bench = 1 ] && [ -x $build/bench/gpusql_bench ]; then
  step "benchmarks"
  $build/bench/gpusql_bench --out "$OUT" || status=1
fi

# The kernels on the GPU, each against CUB and its CPU reference on every
# core (about a minute of sorts on 16 cores; the GPU runs take seconds).
if [ $bench = 1 ] && [ -x $build/bench/kernel_bench ]; then
  step "benchmark: kernels"
  timeout 480 $build/bench/kernel_bench --reps 10 --out "$OUT" || { echo "kernel benchmark failed"; status=1; }
fi

if [ $bench = 1 ] && [ -x $build/bench/csv_bench ]; then
  step "benchmark: CSV load (1 GB) on $(nproc) cores"
  timeout 180 $build/bench/csv_bench --mb 1024 || { echo "CSV benchmark failed"; status=1; }
fi

# SSB at SF 20 (SSB_SF overrides): generation ~2 s on 16 cores, the GPU runs
# seconds, the host executor (the reference every GPU result is checked
# against) about a minute with several queries at a time; the timeout keeps
# the whole script within its budget should anything be slower than that.
if [ $bench = 1 ] && [ -x $build/bench/gpusql_ssb ]; then
  step "benchmark: SSB at scale factor ${SSB_SF:-20}"
  timeout 300 $build/bench/gpusql_ssb --sf "${SSB_SF:-20}" --reps 10 --host-reps 1 --host-jobs 0 --out "$OUT" \
    || { echo "SSB benchmark failed (exit status $?)"; status=1; }
fi

step "done: status $status"
exit $status
