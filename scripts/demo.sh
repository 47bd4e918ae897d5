#!/usr/bin/env bash
# Runs the shell on the bundled sample data with the demo script, each
# statement echoed before its result (-echo).
# Usage: scripts/demo.sh [build-dir] [extra shell flags, e.g. -device host]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
loads=()
for f in sample_data/*.csv; do
  name=$(basename "$f" .csv)
  loads+=(-load "$name=$f")
done
exec "$build/gpusql" "${loads[@]}" -box -echo "$@" -f sample_data/demo.sql
