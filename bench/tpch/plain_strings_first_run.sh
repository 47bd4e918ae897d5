#!/usr/bin/env bash
# What the first statement over a loaded table's plain strings costs (the
# mostly distinct VARCHAR columns a large load keeps as offsets + bytes):
# loads DIR/load.sql (gpusql_tpch_dbgen's .tbl files) into SHELL, then
#  - LIKE: Q13 three times, and COUNT(*) ... LIKE with patterns no statement
#    has matched before (each run pays the match), one of them again (kept
#    with the table);
#  - encoding (every other statement reads codes into a sorted dictionary,
#    made by the first one): Q10 three times (customer's name, address,
#    phone and comment), then count(DISTINCT) over o_comment and l_comment,
#    twice each.
# Prints each statement's result and `.timer` line; ROUNDS fresh shells, each
# loading again. Two shells (an old tree's and a new one's) alternate for an
# A/B. (Until 2026-12-01: like_first_run.sh, the LIKE statements alone.)
#
#   bench/tpch/plain_strings_first_run.sh DIR SHELL [SHELL2] [ROUNDS]
set -euo pipefail
dir=$1; shells=("$2"); [ $# -ge 3 ] && [ -n "$3" ] && shells+=("$3"); rounds=${4:-2}
queries="$(dirname "$0")/../../tests/sql_queries/tpch"
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
  echo ".read $dir/load.sql"
  echo ".timer on"
  q13=$(grep -v '^--' "$queries/q13.sql" | tr '\n' ' ')
  for _ in 1 2 3; do echo "$q13"; done
  for p in '%special%' '%pending%deposits%' '%carefully%' 'fur%' '%s_y%' '%special%'; do
    echo "SELECT count(*) FROM orders WHERE o_comment LIKE '$p';"
  done
  echo "SELECT count(*) FROM lineitem WHERE l_comment LIKE '%furious%';"
  echo "SELECT count(*) FROM lineitem WHERE l_comment LIKE '%furious%';"
  echo "SELECT count(*) FROM part WHERE p_name LIKE '%green%';"
  # Q10's rows, summed (its ORDER BY ties would print in either order).
  q10=$(grep -v '^--' "$queries/q10.sql" | tr '\n' ' ' | sed 's/;[[:space:]]*$//')
  for _ in 1 2 3; do echo "SELECT count(*), sum(revenue), max(c_name), max(c_address), max(c_phone) FROM ($q10) AS q;"; done
  for _ in 1 2; do echo "SELECT count(DISTINCT o_comment), min(o_comment), max(o_comment) FROM orders;"; done
  for _ in 1 2; do echo "SELECT count(DISTINCT l_comment) FROM lineitem;"; done
} > "$script"
for ((r = 1; r <= rounds; ++r)); do
  for s in "${shells[@]}"; do
    echo "== $s, round $r"
    "$s" < "$script" 2>&1 | grep -vE '^(\.|--)' | grep -E 'Run Time|rror|^[0-9]|\|' | tr '\n' ' '
    echo
  done
done
