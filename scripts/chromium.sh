#!/usr/bin/env bash
# Installs headless Chromium (Debian's package "chromium") for the test
# that loads pgasrob's HTML witness page in a real browser
# (cycles/report, TestHTMLInChromium). Idempotent: an installed Chromium
# is only checked.
#
# Exit 0 with the browser's path on stdout; otherwise non-zero with a
# one-line reason on stderr.
set -u
export DEBIAN_FRONTEND=noninteractive
die() { echo "chromium: $*" >&2; exit 1; }
find_browser() { command -v chromium || command -v chromium-browser || command -v google-chrome; }

if ! b=$(find_browser); then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    die "Chromium is not installed and cannot be (needs root and apt-get)"
  fi
  apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
  apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null 2>&1 || die "apt-get install chromium failed"
  b=$(find_browser) || die "the chromium package installed no browser on PATH"
fi
"$b" --headless --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>&1 || die "$b does not start headless here"
echo "$b"
