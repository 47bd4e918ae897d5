#!/usr/bin/env bash
# Unpacks the header-only build dependencies into .deps/ (git-ignored) so they
# can travel to the GPU machine, which has no package manager or network:
# PEGTL, Catch2 v2 and the SQLite header. There, scripts/gpu-check.sh links
# the machine's own libsqlite3.so.0. Run here, on a Debian machine. They land
# in .deps/usr, the part to carry. The differential tests' DuckDB
# (.deps/duckdb/libduckdb.so, from scripts/install-deps.sh: 67 MiB, over what
# a carry may hold) travels gzipped inside it; gpu-check.sh unpacks it there.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .deps/usr .deps/debs && mkdir -p .deps/debs
(cd .deps/debs && apt-get download tao-pegtl-dev catch2 libsqlite3-dev >/dev/null)
for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps; done
rm -rf .deps/debs .deps/usr/share/doc .deps/usr/lib/x86_64-linux-gnu/libsqlite3.a \
       .deps/usr/lib/x86_64-linux-gnu/libsqlite3.so .deps/usr/lib/x86_64-linux-gnu/pkgconfig
if [ -f .deps/duckdb/libduckdb.so ]; then
  mkdir -p .deps/usr/share/gpusql
  gzip -c .deps/duckdb/libduckdb.so > .deps/usr/share/gpusql/libduckdb.so.gz
fi
du -sh .deps/usr
