#!/usr/bin/env bash
# Installs the reference SARIF validator (@microsoft/sarif-multitool, from
# npm) under .cache/sarif-multitool of the repository, installing Node.js
# and npm first (Debian packages) when they are missing, for the test that
# validates pgasrob's SARIF output (cycles/report, TestSARIFReferenceValidator).
# Idempotent: an installed validator is only checked.
#
# Exit 0 with the validator's path on stdout; otherwise non-zero with a
# one-line reason on stderr.
set -u
export DEBIAN_FRONTEND=noninteractive
die() { echo "sarif-validator: $*" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/.cache/sarif-multitool
bin=$dir/node_modules/.bin/sarif-multitool
version=5.7.0 # pinned: a validator that changes under the test is no reference (4.x crash at start on Linux)

if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    die "npm is not installed and cannot be (needs root and apt-get)"
  fi
  apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
  apt-get install -y -qq nodejs npm >/dev/null 2>&1 || die "apt-get install nodejs npm failed"
fi
if [ ! -x "$bin" ]; then
  mkdir -p "$dir" || die "cannot create $dir"
  npm install --prefix "$dir" --no-audit --no-fund --silent "@microsoft/sarif-multitool@$version" >/dev/null 2>&1 ||
    die "npm install @microsoft/sarif-multitool@$version failed (no registry?)"
fi
# The package runs a .NET program it ships; check it starts here.
"$bin" --version >/dev/null 2>&1 || die "$bin does not run on this machine"
echo "$bin"
