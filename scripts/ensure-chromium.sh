#!/usr/bin/env bash
# The browser stories need Debian's Chromium (Playwright drives it; no browser is downloaded).
# Run as root, this installs it with apt-get; otherwise it stops at once with the command to run.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Chromium for the browser tests (apt-get install -y chromium fonts-liberation)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation >/dev/null
  exit 0
fi
echo "The browser tests need Chromium at $chromium. Install it with:" >&2
echo "  sudo apt-get update && sudo apt-get install -y chromium fonts-liberation" >&2
echo "(or set CHROMIUM_PATH to a Chromium binary)" >&2
exit 1
