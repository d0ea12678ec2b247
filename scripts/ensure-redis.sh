#!/usr/bin/env bash
# The API suite starts a redis-server of its own (api/src/http/ready.test.ts), and CI runs a shared one.
# Run as root, this installs it with apt-get; otherwise it stops at once with the command to run.
set -euo pipefail
command -v redis-server >/dev/null && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Redis for the API tests (apt-get install -y redis-server)…"
  apt-get update -qq
  # policy-rc.d 101: the package's own service is not started; the tests start redis-server themselves.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  exit 0
fi
echo "The API tests need redis-server on PATH. Install it with:" >&2
echo "  sudo apt-get update && sudo apt-get install -y redis-server" >&2
exit 1
