#!/usr/bin/env bash
# Official TPC-H dbgen data for bench/tpch/compare_with_duckdb.py and
# bench/tpch/load_with_duckdb.py:
#   bench/tpch/dbgen_files.sh DBGEN_DIR SF OUT_DIR [PROCESSES] [chunks]
# DBGEN_DIR holds a built dbgen and its dists.dss (for instance
# github.com/electrum/tpch-dbgen, `make -f makefile dbgen`). The tables are
# written by PROCESSES dbgen processes at once (-C/-S chunks, 16 by default)
# and each table's chunks joined into one OUT_DIR/<table>.tbl in chunk
# order, or with `chunks` kept as dbgen wrote them (<table>.tbl.1 ...,
# loaded with COPY <table> FROM '<table>.tbl.*'); OUT_DIR/load.sql holds the
# CREATE TABLE and COPY statements for them, as build/bench/gpusql_tpch_dbgen
# writes them (GPUSQL_TPCH_DBGEN names another build of it).
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 DBGEN_DIR SF OUT_DIR [PROCESSES]" >&2; exit 2; }
dbgen_dir=$(cd "$1" && pwd); sf=$2; mkdir -p "$3"; out=$(cd "$3" && pwd); processes=${4:-16}; layout=${5:-joined}
schema_tool=${GPUSQL_TPCH_DBGEN:-$(dirname "$0")/../../build/bench/gpusql_tpch_dbgen}
export DSS_CONFIG=$dbgen_dir DSS_PATH=$out
for i in $(seq 1 "$processes"); do "$dbgen_dir/dbgen" -q -f -s "$sf" -C "$processes" -S "$i" & done
wait
(cd "$out" && "$dbgen_dir/dbgen" -q -f -s "$sf" -T n && "$dbgen_dir/dbgen" -q -f -s "$sf" -T r)
for t in customer lineitem orders part partsupp supplier; do
  if [ "$layout" != chunks ] && ls "$out/$t.tbl."* > /dev/null 2>&1; then
    cat $(ls "$out/$t.tbl."* | sort -t. -k3 -n) > "$out/$t.tbl" && rm -f "$out/$t.tbl."*
  fi
done
schema=$(mktemp -d)
"$schema_tool" --sf 0.001 --out "$schema" > /dev/null
sed "s#$schema/#$out/#" "$schema/load.sql" > "$out/load.sql"
if [ "$layout" = chunks ]; then
  for t in customer lineitem orders part partsupp supplier; do
    if ls "$out/$t.tbl."* > /dev/null 2>&1; then sed -i "s#$out/$t.tbl'#$out/$t.tbl.*'#" "$out/load.sql"; fi
  done
fi
rm -rf "$schema"
ls -l "$out"
