#!/usr/bin/env bash
# Fuzzes the SQL front end (fuzz/sql_fuzz.cpp: parse_sql, then bind, plan and
# run on the host executor) with libFuzzer under ASan and UBSan, for a
# bounded time, starting from the checked-in seed corpus fuzz/corpus/sql/.
# New inputs go to build-sanitize/fuzz-sql/corpus (not the checked-in one);
# a crash leaves its input in build-sanitize/fuzz-sql/ and fails the run.
#   usage: scripts/fuzz-sql.sh [seconds, default 60] [more libFuzzer flags]
#   reproduce a finding: build-sanitize/sql_fuzz $PWD/build-sanitize/fuzz-sql/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=${GPUSQL_SANITIZE_BUILD_DIR:-build-sanitize}
scripts/sanitize.sh --build-only

cuda_lib=/usr/local/cuda/lib64
[ -f $cuda_lib/libcudart_static.a ] || cuda_lib=/usr/local/cuda/targets/x86_64-linux/lib
# Absolute paths: the target changes into an empty directory of its own.
case $build in
  /*) work=$build/fuzz-sql ;;
  *) work=$PWD/$build/fuzz-sql ;;
esac
mkdir -p "$work/corpus"
echo "fuzz-sql: linking $build/sql_fuzz"
clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I. -Iinclude fuzz/sql_fuzz.cpp "$build/libgpusql.a" "$cuda_lib/libcudart_static.a" \
  -lpthread -ldl -lrt -o "$build/sql_fuzz"

# SQL words and the fixed catalog's names, to help the mutator.
dict=$work/sql.dict
: > "$dict"
for word in SELECT FROM WHERE AND OR NOT NULL TRUE FALSE AS DISTINCT COUNT SUM MIN MAX AVG \
            GROUP BY HAVING ORDER ASC DESC NULLS FIRST LAST LIMIT OFFSET JOIN INNER CROSS ON \
            BETWEEN IN LIKE IS CASE WHEN THEN ELSE END CAST EXTRACT YEAR DATE INTERVAL EXPLAIN \
            CREATE TABLE INSERT INTO VALUES COPY DROP IF EXISTS SHOW TABLES DESCRIBE INTEGER BIGINT \
            DOUBLE VARCHAR BOOLEAN DECIMAL rowid t u e a b c d x s k v \
            "*" "(" ")" "," ";" "." "+" "-" "/" "%" "=" "<>" "!=" "<" "<=" ">" ">=" "''" "'" '"' \
            "--" "/*" "*/" "1e308" "9223372036854775807" "2147483648" "0.5"; do
  printf '"%s"\n' "$(printf '%s' "$word" | sed 's/\\/\\\\/g; s/"/\\"/g')" >> "$dict"
done

export ASAN_OPTIONS=${ASAN_OPTIONS:-protect_shadow_gap=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz-sql: ${seconds}s from $(ls fuzz/corpus/sql | wc -l) seeds"
"$build/sql_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -dict="$dict" -artifact_prefix="$work/" -print_final_stats=1 "$@" "$work/corpus" "$PWD/fuzz/corpus/sql"
