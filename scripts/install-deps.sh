#!/usr/bin/env bash
# Installs the Debian packages gpusql builds with, only those missing (idempotent).
# CUDA 13 is expected at /usr/local/cuda already; it is not a Debian package.
set -euo pipefail
packages=(cmake g++ make tao-pegtl-dev catch2 libreadline-dev libsqlite3-dev sqlite3)
# CI's trust steps (scripts/ci-extra.sh): clang with its sanitizer and libFuzzer runtimes.
packages+=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: warning: /usr/local/cuda/bin/nvcc not found; CUDA 13 is required to build" >&2
fi
