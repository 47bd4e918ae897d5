#!/usr/bin/env bash
# Installs the Debian packages gpusql builds with, only those missing (idempotent),
# and DuckDB's shared library into .deps/duckdb/ (git-ignored) for the
# differential tests' second oracle (tests/differential/duckdb_oracle.hpp).
# CUDA 13 is expected at /usr/local/cuda already; it is not a Debian package.
# Usage: scripts/install-deps.sh [--demo]
#   --demo: only what configuring and building the shell needs (README's
#   first command, with scripts/build.sh gpusql): no clang and no DuckDB,
#   which only the tests and CI's trust steps use.
set -euo pipefail
cd "$(dirname "$0")/.."
demo=false
case "${1:-}" in
  "") ;;
  --demo) demo=true ;;
  *) echo "usage: scripts/install-deps.sh [--demo]" >&2; exit 2 ;;
esac
# Catch2 and SQLite too: CMake looks for them whenever the tests are configured (the default).
packages=(cmake g++ make tao-pegtl-dev catch2 libreadline-dev libsqlite3-dev sqlite3)
# CI's trust steps (scripts/ci-extra.sh): clang with its sanitizer and libFuzzer runtimes.
$demo || packages+=(clang libclang-rt-14-dev)
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
else
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: warning: /usr/local/cuda/bin/nvcc not found; CUDA 13 is required to build" >&2
fi

$demo && exit 0

# DuckDB 1.5.6's libduckdb.so, as npm ships it for Node (the tarball holds
# package/libduckdb.so; no header: the tests declare the C API themselves).
# Without it the [duckdb] differential tests skip, so a failure here only warns.
duckdb_dir=.deps/duckdb
duckdb_package=@duckdb/node-bindings-linux-x64@1.5.6-r.1
fetch_duckdb() {
  if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "no build of $duckdb_package for $(uname -s)-$(uname -m)"
    return 1
  fi
  if ! command -v npm >/dev/null; then
    echo "install-deps: installing npm (to fetch DuckDB)" >&2
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null; } ||
      { echo "apt-get could not install npm"; return 1; }
  fi
  local tmp status=0
  tmp=$(mktemp -d)
  if ! (cd "$tmp" && npm pack --silent "$duckdb_package" >npm.log 2>&1); then
    echo "npm pack $duckdb_package failed: $(tail -3 "$tmp/npm.log" | tr '\n' ' ')"
    status=1
  elif ! tar -xzf "$tmp"/*.tgz -C "$tmp" package/libduckdb.so 2>/dev/null; then
    echo "the npm tarball has no package/libduckdb.so"
    status=1
  else
    mkdir -p "$duckdb_dir"
    mv "$tmp/package/libduckdb.so" "$duckdb_dir/libduckdb.so.partial"
    mv "$duckdb_dir/libduckdb.so.partial" "$duckdb_dir/libduckdb.so"
  fi
  rm -rf "$tmp"
  return $status
}
if [ -f "$duckdb_dir/libduckdb.so" ]; then
  echo "install-deps: DuckDB present ($duckdb_dir/libduckdb.so)"
elif why=$(fetch_duckdb); then
  echo "install-deps: DuckDB fetched into $duckdb_dir/libduckdb.so"
else
  echo "install-deps: warning: could not fetch DuckDB ($why); the [duckdb] differential tests will skip" >&2
fi
