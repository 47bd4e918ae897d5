#!/usr/bin/env bash
# CI's trust steps, run by .ci/run after README's test command (which built
# build/ and ran the whole suite, with its default differential seeds):
#   1. a larger differential batch on other seeds, host executor against SQLite;
#   2. another against DuckDB (18,000 queries; skipped, with a warning, where
#      scripts/install-deps.sh could not fetch DuckDB's library);
#   3. scripts/sanitize.sh: the host test suite under ASan + UBSan (clang);
#   4. scripts/fuzz-sql.sh: the SQL front end fuzzed for $GPUSQL_FUZZ_SECONDS (60);
#   5. scripts/fuzz-csv.sh: the CSV reader likewise, where that script exists;
#   6. scripts/check-consumer.sh: a project outside gpusql built against it
#      through find_package (the installed build/) and add_subdirectory.
# Every step runs; the exit status says whether all passed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${GPUSQL_BUILD_DIR:-build}
seconds=${GPUSQL_FUZZ_SECONDS:-60}
status=0
step() { echo; echo "=== ci-extra: $* ($(date -u +%H:%M:%S))"; }

step "differential, 1500 more seeds from 100001"
GPUSQL_DIFF_FIRST_SEED=100001 GPUSQL_DIFF_SEEDS=${GPUSQL_CI_DIFF_SEEDS:-1500} \
  "$build/tests/gpusql_tests" "[differential]~[duckdb]" || status=1

duckdb_seeds=${GPUSQL_CI_DUCKDB_SEEDS:-450}
step "differential against DuckDB, $duckdb_seeds more seeds from 200001 ($((duckdb_seeds * 40)) queries)"
GPUSQL_DIFF_FIRST_SEED=200001 GPUSQL_DIFF_SEEDS=$duckdb_seeds GPUSQL_DIFF_QUERIES=40 \
  "$build/tests/gpusql_tests" "[differential][duckdb]" || status=1

step "sanitizers: ASan + UBSan build and test suite"
scripts/sanitize.sh || status=1

step "fuzz: SQL front end, ${seconds}s"
scripts/fuzz-sql.sh "$seconds" || status=1

if [ -x scripts/fuzz-csv.sh ]; then
  step "fuzz: CSV reader, ${seconds}s"
  scripts/fuzz-csv.sh "$seconds" || status=1
fi

step "outside project: find_package and add_subdirectory"
scripts/check-consumer.sh || status=1

step "done: status $status"
exit $status
