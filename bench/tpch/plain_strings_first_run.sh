#!/usr/bin/env bash
# What a LIKE costs the first time over a loaded table's plain strings: loads
# DIR/load.sql (gpusql_tpch_dbgen's .tbl files) into SHELL, then runs Q13 three
# times and COUNT(*) ... LIKE with patterns no statement has matched before
# (each run pays the match), and one again (kept with the table). Prints
# each statement's count and `.timer` line; ROUNDS fresh shells, each loading
# again. Two shells (an old tree's and a new one's) alternate for an A/B.
#
#   bench/tpch/like_first_run.sh DIR SHELL [SHELL2] [ROUNDS]
set -euo pipefail
dir=$1; shells=("$2"); [ $# -ge 3 ] && [ -n "$3" ] && shells+=("$3"); rounds=${4:-2}
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
  echo ".read $dir/load.sql"
  echo ".timer on"
  q13=$(grep -v '^--' "$(dirname "$0")/../../tests/sql_queries/tpch/q13.sql" | tr '\n' ' ')
  for _ in 1 2 3; do echo "$q13"; done
  for p in '%special%' '%pending%deposits%' '%carefully%' 'fur%' '%s_y%' '%special%'; do
    echo "SELECT count(*) FROM orders WHERE o_comment LIKE '$p';"
  done
  echo "SELECT count(*) FROM lineitem WHERE l_comment LIKE '%furious%';"
  echo "SELECT count(*) FROM lineitem WHERE l_comment LIKE '%furious%';"
  echo "SELECT count(*) FROM part WHERE p_name LIKE '%green%';"
} > "$script"
for ((r = 1; r <= rounds; ++r)); do
  for s in "${shells[@]}"; do
    echo "== $s, round $r"
    "$s" < "$script" 2>&1 | grep -E 'Run Time|rror|^[0-9]+$' | tr '\n' ' '
    echo
  done
done
